/*
 * cmd-options.c: the command lines of the commands: options from each
 * command's table, the rest operands.
 */
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"

int
crown_cmd_args(const struct crown_cmd *cmd, int argc, char **argv,
    struct crown_opt *opts, const char ***operands, size_t *n)
{
	struct crown_opt	*o;
	const char		*a, *eq, *val;
	size_t			 len, cap = 0;
	bool			 only_operands = false;
	int			 i;

	*operands = NULL;
	*n = 0;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (only_operands || a[0] != '-' || a[1] == '\0') {
			crown_grow(operands, &cap, *n + 1, sizeof(**operands));
			(*operands)[(*n)++] = a;
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
		for (o = opts; o->name != NULL; o++)
			if (strlen(o->name) == len &&
			    strncmp(o->name, a, len) == 0)
				break;
		if (o->name == NULL)
			goto unknown;
		if (!o->arg) {
			if (eq != NULL) {
				crown_cmd_args_free(opts, *operands);
				return crown_cmd_usage_error(cmd, "--%s takes "
				    "no value", o->name);
			}
			val = "";
		} else if (eq != NULL)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else {
			crown_cmd_args_free(opts, *operands);
			return crown_cmd_usage_error(cmd, "--%s needs a value",
			    o->name);
		}
		if (o->value != NULL && !o->many) {
			crown_cmd_args_free(opts, *operands);
			return crown_cmd_usage_error(cmd, "--%s given twice",
			    o->name);
		}
		o->value = val;
		if (o->many) {
			o->values = xreallocarray(o->values, o->nvalues + 1,
			    sizeof(*o->values));
			o->values[o->nvalues++] = val;
		}
	}
	return 0;
unknown:
	crown_cmd_args_free(opts, *operands);
	return crown_cmd_usage_error(cmd, "unknown option '%s'", argv[i]);
}

void
crown_cmd_args_free(struct crown_opt *opts, const char **operands)
{
	struct crown_opt	*o;

	for (o = opts; o != NULL && o->name != NULL; o++) {
		free(o->values);
		o->values = NULL;
		o->nvalues = 0;
	}
	free(operands);
}
