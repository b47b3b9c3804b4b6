/*
 * cmd-check.c: crown check: validate order files without rolling a die,
 * so a player can check orders before mailing them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/xalloc.h"

static int	cmd_check_exec(int, char **);

const struct crown_cmd crown_cmd_check = {
	"check",
	"(DIR | --state FILE) [--rules FILE] ORDERS...",
	"Check order files against a campaign's state (DIR/state.yaml) or a\n"
	"given state, with the same checks `crown turn` makes before any die\n"
	"is rolled.  Every problem is printed as FILE:LINE:COLUMN: error:\n"
	"MESSAGE (R-id).  Exit 0 when all are valid, 65 when any is not, 66\n"
	"when a file is missing.\n\n" CROWN_LIMIT_HELP,
	cmd_check_exec
};

static int
cmd_check_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "state", required_argument, NULL, 's' },
		{ "rules", required_argument, NULL, 'r' },
		CROWN_LIMIT_OPTIONS,
		{ NULL, 0, NULL, 0 }
	};
	struct crown_diags	  d = { 0 };
	struct crown_state	 *s = NULL;
	struct crown_rules	 *rules = NULL;
	struct crown_orders	**orders = NULL;
	const char		 *state_path = NULL, *rules_path = NULL;
	char			 *dir = NULL, *campaign_state = NULL;
	size_t			  n = 0, i, j, acts;
	int			  ch, error, status;

	if (crown_cmd_wants_help(&crown_cmd_check, argc, argv))
		return 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			state_path = optarg;
			break;
		case 'r':
			rules_path = optarg;
			break;
		case CROWN_OPT_LIMIT_ORDERS:
		case CROWN_OPT_LIMIT_STATE:
			if ((status = crown_cmd_limit(&crown_cmd_check, ch, optarg)) != 0)
				return status;
			break;
		default:
			return crown_cmd_usage_error(&crown_cmd_check, NULL);
		}
	}
	argc -= optind;
	argv += optind;
	if (state_path == NULL) {
		if (argc < 1)
			return crown_cmd_usage_error(&crown_cmd_check,
			    "give a campaign DIR or --state FILE");
		dir = argv[0];
		argc--;
		argv++;
		state_path = campaign_state = xasprintf("%s/state.yaml", dir);
	}
	if (argc < 1)
		return crown_cmd_usage_error(&crown_cmd_check,
		    "no order files to check");

	if ((error = crown_state_load(&s, state_path, &d)) != 0)
		goto cleanup;
	if ((error = crown_cmd_load_rules(&rules, rules_path, dir, s->rules,
	    &d)) != 0)
		goto cleanup;
	if ((error = crown_cmd_load_orders(&orders, &n, argv, (size_t)argc, s,
	    rules, &d)) != 0)
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
