/*
 * cmd-options.c: the command lines of the commands: options from each
 * command's table and the ones its flags share with others, the rest
 * operands.  One parser for every command, so that every command spells
 * its options and its usage errors alike.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* The options the flags of struct crown_cmd give a command. */
enum {
	SHARED_SECRET,
	SHARED_TEMPLATES,
	SHARED_UMPIRE,
	SHARED_DATE,
	SHARED_LIMIT_ORDERS,
	SHARED_LIMIT_STATE,
	SHARED_N
};

static const struct {
	struct crown_option	opt;
	unsigned		flag;
} shared[SHARED_N] = {
	[SHARED_SECRET] = { { "secret-file", CROWN_OPT_VALUE },
	    CROWN_CMD_SECRET },
	[SHARED_TEMPLATES] = { { "templates", CROWN_OPT_VALUE },
	    CROWN_CMD_TEMPLATES },
	[SHARED_UMPIRE] = { { "umpire", CROWN_OPT_VALUE }, CROWN_CMD_WHO },
	[SHARED_DATE] = { { "date", CROWN_OPT_VALUE }, CROWN_CMD_WHO },
	/* set as they come, the last one counts */
	[SHARED_LIMIT_ORDERS] = { { "limit-orders-bytes", CROWN_OPT_LIST },
	    CROWN_CMD_LIMITS },
	[SHARED_LIMIT_STATE] = { { "limit-state-bytes", CROWN_OPT_LIST },
	    CROWN_CMD_LIMITS },
};

static size_t
count_options(const struct crown_option *o)
{
	size_t	n = 0;

	while (o != NULL && o[n].name != NULL)
		n++;
	return n;
}

/* Option K of the command, K past its own: the shared ones. */
static const struct crown_option *
option(const struct crown_cmd *cmd, size_t nown, size_t k)
{
	if (k < nown)
		return &cmd->options[k];
	k -= nown;
	return (cmd->flags & shared[k].flag) != 0 ? &shared[k].opt : NULL;
}

static int
set_limit(const struct crown_cmd *cmd, size_t k, const char *arg)
{
	int	error;

	if (k == SHARED_LIMIT_ORDERS)
		error = crown_limits_set_orders_bytes(arg);
	else
		error = crown_limits_set_state_bytes(arg);
	if (error == 0)
		return 0;
	return crown_cmd_usage_error(cmd, "--limit-%s-bytes: '%s' is not a "
	    "size from 1 to 1G (bytes, or with k or M)",
	    k == SHARED_LIMIT_ORDERS ? "orders" : "state", arg);
}

int
crown_cmd_args(struct crown_run *r, int argc, char **argv)
{
	const struct crown_cmd		*cmd = r->cmd;
	const struct crown_option	*o = NULL;
	struct crown_optval		*v;
	const char			*a, *eq, *val;
	size_t				 nown, nall, k, len, cap = 0;
	bool				 only_operands = false;
	int				 i, status;

	nown = count_options(cmd->options);
	nall = nown + SHARED_N;
	r->opt = xcalloc(nall, sizeof(*r->opt));
	r->operand = NULL;
	r->noperands = 0;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (only_operands || a[0] != '-' || a[1] == '\0') {
			crown_grow(&r->operand, &cap, r->noperands + 1,
			    sizeof(*r->operand));
			r->operand[r->noperands++] = a;
			/* getopt's "+": the rest are operands */
			if ((cmd->flags & CROWN_CMD_IN_ORDER) != 0)
				only_operands = true;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_operands = true;
			continue;
		}
		if (a[1] != '-')
			goto unknown;
		a += 2;
		eq = strchr(a, '=');
		len = eq != NULL ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < nall; k++)
			if ((o = option(cmd, nown, k)) != NULL &&
			    strlen(o->name) == len &&
			    strncmp(o->name, a, len) == 0)
				break;
		if (k == nall)
			goto unknown;
		v = &r->opt[k];
		if (o->kind == CROWN_OPT_FLAG) {
			if (eq != NULL) {
				crown_cmd_args_free(r);
				return crown_cmd_usage_error(cmd, "--%s takes "
				    "no value", o->name);
			}
			val = "";
		} else if (eq != NULL)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			crown_cmd_args_free(r);
			return crown_cmd_usage_error(cmd, "--%s needs a value",
			    o->name);
		}
		if (v->value != NULL && o->kind != CROWN_OPT_LIST) {
			crown_cmd_args_free(r);
			return crown_cmd_usage_error(cmd, "--%s given twice",
			    o->name);
		}
		v->value = val;
		if (o->kind == CROWN_OPT_LIST) {
			v->values = xreallocarray(v->values, v->nvalues + 1,
			    sizeof(*v->values));
			v->values[v->nvalues++] = val;
		}
		if (k >= nown + SHARED_LIMIT_ORDERS &&
		    (status = set_limit(cmd, k - nown, val)) != 0) {
			crown_cmd_args_free(r);
			return status;
		}
	}
	r->secret_file = r->opt[nown + SHARED_SECRET].value;
	r->templates = r->opt[nown + SHARED_TEMPLATES].value;
	r->umpire = r->opt[nown + SHARED_UMPIRE].value;
	r->date = r->opt[nown + SHARED_DATE].value;
	return 0;
unknown:
	crown_cmd_args_free(r);
	return crown_cmd_usage_error(cmd, "unknown option '%s'", argv[i]);
}

void
crown_cmd_args_free(struct crown_run *r)
{
	size_t	k, n;

	if (r->opt != NULL) {
		n = count_options(r->cmd->options) + SHARED_N;
		for (k = 0; k < n; k++)
			free(r->opt[k].values);
	}
	free(r->opt);
	free(r->operand);
	r->opt = NULL;
	r->operand = NULL;
	r->noperands = 0;
}

void
crown_cmd_print_options(FILE *fp, const struct crown_cmd *cmd)
{
	const struct crown_option	*o;
	size_t				 nown, k;

	nown = count_options(cmd->options);
	for (k = 0; k < nown + SHARED_N; k++)
		if ((o = option(cmd, nown, k)) != NULL)
			fprintf(fp, "--%s ", o->name);
	fputs("--help", fp);
}

void
crown_cmd_usage(const struct crown_cmd *cmd, FILE *fp)
{
	fprintf(fp, "usage: crown %s %s\n", cmd->name, cmd->usage);
}

int
crown_cmd_usage_error(const struct crown_cmd *cmd, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *q;

	if (fmt != NULL) {
		va_start(ap, fmt);
		msg = xvasprintf(fmt, ap);
		va_end(ap);
		/* it quotes the arguments, which may be anyone's text */
		q = crown_diag_escape(msg);
		fprintf(stderr, "crown %s: %s\n", cmd->name, q);
		free(q);
		free(msg);
	}
	crown_cmd_usage(cmd, stderr);
	return CROWN_EXIT_USAGE;
}
