/*
 * cmd-check.c: crown check: validate order files without rolling a die,
 * so a player can check orders before mailing them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/xalloc.h"

static int	cmd_check_exec(struct crown_run *);

enum { CHECK_STATE, CHECK_RULES, CHECK_NOPTS };

static const struct crown_option check_options[] = {
	[CHECK_STATE] = { "state", CROWN_OPT_VALUE },
	[CHECK_RULES] = { "rules", CROWN_OPT_VALUE },
	[CHECK_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_check = {
	"check",
	"(DIR | --state FILE) [--rules FILE] ORDERS...",
	"Check order files against a campaign's state (DIR/state.yaml) or a\n"
	"given state, with the same checks `crown turn` makes before any die\n"
	"is rolled.  A file may be YAML or the shorthand of the mail (told\n"
	"apart by content); shorthand without game or turn lines is for the\n"
	"next turn, and must say its side (side: ID).  Every problem is printed as FILE:LINE:COLUMN: error:\n"
	"MESSAGE (R-id).  Exit 0 when all are valid, 65 when any is not, 66\n"
	"when a file is missing.\n\n" CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_IN_ORDER | CROWN_CMD_LIMITS,
	.options = check_options,
	.operands = { 0, CROWN_OPERANDS_ANY, NULL },
	.exec = cmd_check_exec
};

static int
cmd_check_exec(struct crown_run *r)
{
	struct crown_diags	  d = { 0 };
	struct crown_state	 *s = NULL;
	struct crown_rules	 *rules = NULL;
	struct crown_orders	**orders = NULL;
	const char		 *state_path, *rules_path;
	const char		**paths = r->operand;
	char			 *campaign_state = NULL;
	const char		 *dir = NULL;
	size_t			  npaths = r->noperands, n = 0, i, j, acts;
	int			  error, status, overlaps;

	state_path = r->opt[CHECK_STATE].value;
	rules_path = r->opt[CHECK_RULES].value;
	if (state_path == NULL) {
		if (npaths < 1)
			return crown_cmd_usage_error(r->cmd,
			    "give a campaign DIR or --state FILE");
		dir = paths[0];
		paths++;
		npaths--;
		state_path = campaign_state = xasprintf("%s/state.yaml", dir);
	}
	if (npaths < 1) {
		free(campaign_state);
		return crown_cmd_usage_error(r->cmd,
		    "no order files to check");
	}

	if ((error = crown_state_load(&s, state_path, &d)) != 0)
		goto cleanup;
	if ((error = crown_cmd_load_rules(&rules, rules_path, dir, s->rules,
	    &d)) != 0)
		goto cleanup;
	/* R4.7: a state with units on top of each other cannot be played;
	 * say so with the orders' problems */
	overlaps = crown_state_check_overlaps(s, rules, &d);
	if ((error = crown_cmd_load_orders(&orders, &n, paths, npaths, s,
	    rules, &d)) != 0)
		goto cleanup;
	if ((error = overlaps) != 0)
		goto cleanup;
	for (i = 0; i < n; i++) {
		acts = 0;
		for (j = 0; j < orders[i]->nunits; j++)
			acts += orders[i]->units[j].nactions;
		printf("%s: ok: turn %d, side %s, %zu unit%s, %zu action%s, "
		    "%zu leader%s\n", orders[i]->file, orders[i]->turn,
		    orders[i]->side, orders[i]->nunits,
		    orders[i]->nunits == 1 ? "" : "s", acts,
		    acts == 1 ? "" : "s", orders[i]->nleaders,
		    orders[i]->nleaders == 1 ? "" : "s");
	}
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_campaign_orders_free(orders, n);
	crown_rules_free(rules);
	crown_state_free(s);
	free(campaign_state);
	return status;
}
