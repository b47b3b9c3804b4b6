/*
 * cmd-common.c: what the commands share: usage, loading rules and orders,
 * writing files whole or not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/orders-read.h"
#include "crown/pack.h"
#include "crown/paths.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* --help or -h anywhere before "--": print the usage and the summary. */
static bool
wants_help(const struct crown_cmd *cmd, int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			crown_cmd_usage(cmd, stdout);
			printf("\n%s\n", cmd->summary);
			return true;
		}
	}
	return false;
}

/* The operands the command table allows. */
static int
check_operands(const struct crown_run *r)
{
	const struct crown_cmd	*cmd = r->cmd;

	if (r->noperands >= cmd->operands.min &&
	    r->noperands <= cmd->operands.max)
		return 0;
	if (cmd->operands.error != NULL)
		return crown_cmd_usage_error(cmd, "%s", cmd->operands.error);
	return crown_cmd_usage_error(cmd, "unexpected argument '%s'",
	    r->operand[cmd->operands.max]);
}

/* After a command's commit: pack the loose objects when there are many
 * (pack.h); a failure loses nothing and is a warning. */
static void
pack_history(struct crown_run *r)
{
	struct crown_diags	d = { 0 };

	if (r->h != NULL && crown_pack_auto(NULL, r->h, &d) != 0)
		crown_diags_print(stderr, &d);
	crown_diags_release(&d);
}

int
crown_cmd_run(const struct crown_cmd *cmd, int argc, char **argv)
{
	struct crown_run	 r;
	struct crown_diags	 d = { 0 };
	int			 error = 0, status;
	bool			 lock;

	if (wants_help(cmd, argc, argv))
		return 0;
	memset(&r, 0, sizeof(r));
	r.cmd = cmd;
	if ((status = crown_cmd_args(&r, argc, argv)) != 0)
		return status;
	if ((status = check_operands(&r)) != 0 ||
	    (cmd->check != NULL && (status = cmd->check(&r)) != 0))
		goto done;
	lock = (cmd->flags & CROWN_CMD_LOCK) != 0 &&
	    (cmd->writes == NULL || cmd->writes(&r));
	if ((cmd->flags & CROWN_CMD_CAMPAIGN) != 0) {
		r.dir = r.operand[0];
		if ((error = crown_history_open(&r.h, r.dir, lock, &d)) != 0 ||
		    (error = crown_campaign_chain(&r.chain, r.h,
		    CROWN_MAIN_REF, &d)) != 0 ||
		    (cmd->refuse != NULL && (error = cmd->refuse(&r,
		    &d)) != 0) ||
		    (lock && (error = crown_campaign_repair(r.h, &r.chain,
		    &d)) != 0)) {
			status = crown_cmd_fail(&d, error);
			goto done;
		}
		/* the repairs' notes, before the command's own output */
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
	}
	status = cmd->exec(&r);
	if (lock && status == 0)
		pack_history(&r);
done:
	crown_campaign_release(&r.start);
	crown_chain_release(&r.chain);
	crown_history_close(r.h);
	crown_cmd_args_free(&r);
	return status;
}

int
crown_cmd_reason_check(const struct crown_cmd *cmd, const char *reason)
{
	/* one line, so that crown log shows it whole on the turn's line */
	if (reason != NULL && (reason[0] == '\0' ||
	    strpbrk(reason, "\r\n") != NULL))
		return crown_cmd_usage_error(cmd, "--reason is one line of "
		    "text");
	return 0;
}

int
crown_cmd_fail(struct crown_diags *d, int error)
{
	/* whatever the step that met it made of the failed read */
	if (crown_history_damage(d))
		error = CROWN_EDAMAGED;
	crown_diags_print(stderr, d);
	crown_diags_release(d);
	return crown_exit_status(error);
}

int
crown_cmd_game_over(const struct crown_run *r, struct crown_diags *d)
{
	if (!r->chain.revealed)
		return 0;
	crown_diag_add(d, r->dir, 0, 0, NULL, "the game is over: the secret "
	    "was revealed after turn %d", r->chain.last);
	return CROWN_EINVALID;
}

int
crown_cmd_load_rules(struct crown_rules **out, const char *path,
    const char *dir, const char *id, struct crown_diags *d)
{
	char	*found = NULL;
	int	 error;

	if (path == NULL && dir != NULL)
		path = found = xasprintf("%s/rules.yaml", dir);
	else if (path == NULL) {
		found = crown_rules_find(id != NULL ? id : "maximilian");
		if (found == NULL) {
			crown_diag_add(d, "rules", 0, 0, NULL,
			    "cannot find the rules '%s' (looked beside the "
			    "program and in %s/rules); give --rules FILE",
			    id != NULL ? id : "maximilian", CROWN_DATADIR);
			return CROWN_ENOTFOUND;
		}
		path = found;
	}
	error = crown_rules_load(out, path, d);
	free(found);
	return error;
}

/* One orders file, through the one reader (orders-read.h). */
static int
load_orders_file(struct crown_orders **out, const char *path,
    const struct crown_state *s, struct crown_diags *d)
{
	struct crown_orders_context	 ctx = { s->name, s->turn + 1, false };
	struct crown_orders_read	 r;
	char				*buf;
	size_t				 len;
	int				 error;

	*out = NULL;
	if ((error = crown_read_file(&buf, &len, path,
	    crown_ylimits_orders.max_bytes, d)) != 0)
		return error;
	error = crown_orders_read(&r, path, buf, len, &ctx, d);
	*out = r.orders;
	r.orders = NULL;
	crown_orders_read_release(&r);
	free(buf);
	return error;
}

int
crown_cmd_load_orders(struct crown_orders ***out, size_t *n,
    const char *const *paths, size_t npaths, const struct crown_state *s,
    const struct crown_rules *rules, struct crown_diags *d)
{
	struct crown_orders	**v;
	size_t			  i;
	int			  error, worst = 0;

	v = xcalloc(npaths ? npaths : 1, sizeof(*v));
	*n = 0;
	for (i = 0; i < npaths; i++) {
		error = load_orders_file(&v[*n], paths[i], s, d);
		if (error == CROWN_ENOTFOUND)
			worst = CROWN_ENOTFOUND;
		else if (error != 0 && worst == 0)
			worst = error;
		if (v[*n] != NULL)
			(*n)++;
	}
	if (crown_orders_validate_set(v, *n, s, rules, d) != 0 && worst == 0)
		worst = CROWN_EINVALID;
	if (worst != 0) {
		crown_campaign_orders_free(v, *n);
		*out = NULL;
		*n = 0;
		return worst;
	}
	*out = v;
	return 0;
}

static double
timings_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void
crown_timings_start(struct crown_timings *t, const char *cmd, bool on)
{
	t->cmd = cmd;
	t->on = on;
	t->start = t->last = on ? timings_now() : 0;
}

void
crown_timings_mark(struct crown_timings *t, const char *step)
{
	double	now;

	if (!t->on)
		return;
	now = timings_now();
	fprintf(stderr, "crown %s: timing: %s %.1f ms\n", t->cmd, step,
	    now - t->last);
	t->last = now;
}

void
crown_timings_end(struct crown_timings *t)
{
	if (!t->on)
		return;
	fprintf(stderr, "crown %s: timing: total %.1f ms\n", t->cmd,
	    timings_now() - t->start);
}

int
crown_exit_status(int error)
{
	switch (error) {
	case CROWN_OK:
		return CROWN_EXIT_OK;
	case CROWN_EINVALID:
		return CROWN_EXIT_DATAERR;
	case CROWN_ENOTFOUND:
	case CROWN_EMISSING:
		return CROWN_EXIT_NOINPUT;
	case CROWN_EWRITE:
		return CROWN_EXIT_CANTCREAT;
	case CROWN_ELOCKED:
		return CROWN_EXIT_TEMPFAIL;
	case CROWN_EDAMAGED:
		return CROWN_EXIT_IOERR;
	case CROWN_EUSAGE:
		return CROWN_EXIT_USAGE;
	case CROWN_EUNAVAILABLE:
		return CROWN_EXIT_UNAVAILABLE;
	default:
		return CROWN_EXIT_INTERNAL;
	}
}

/* The "Victory" section of a bundled game's README (cmd.h). */
char *
crown_cmd_victory(const char *game)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_state	*s;
	struct dirent		*de;
	DIR			*dp;
	char			*games, *p, *text = NULL, *found = NULL;
	const char		*a, *e;
	size_t			 len;
	bool			 same;

	if (game == NULL || (games = crown_data_find("games")) == NULL)
		return NULL;
	if ((dp = opendir(games)) == NULL) {
		free(games);
		return NULL;
	}
	while (found == NULL && (de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/scenario.yaml", games, de->d_name);
		s = NULL;
		same = crown_state_load(&s, p, &quiet) == 0 &&
		    s->name != NULL && strcmp(s->name, game) == 0;
		crown_state_free(s);
		free(p);
		if (!same)
			continue;
		p = xasprintf("%s/%s/README.md", games, de->d_name);
		if (crown_read_file(&text, &len, p, CROWN_LIMIT_BYTES_MAX,
		    &quiet) == 0 && (a = strstr(text, "\n## Victory\n")) !=
		    NULL) {
			a += strlen("\n## Victory\n");
			while (*a == '\n')
				a++;
			e = strstr(a, "\n## ");
			found = e != NULL ? xstrndup(a, (size_t)(e - a) + 1) :
			    xstrdup(a);
		}
		free(text);
		text = NULL;
		free(p);
	}
	closedir(dp);
	free(games);
	crown_diags_release(&quiet);
	return found;
}
