/*
 * cmd-check.c: crown check: validate order files without rolling a die,
 * so a player can check orders before mailing them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/xalloc.h"

static int	check_mail(struct crown_run *);
static int	cmd_check_exec(struct crown_run *);

enum { CHECK_STATE, CHECK_RULES, CHECK_MAIL, CHECK_NOW, CHECK_NOPTS };

static const struct crown_option check_options[] = {
	[CHECK_STATE] = { "state", CROWN_OPT_VALUE },
	[CHECK_RULES] = { "rules", CROWN_OPT_VALUE },
	[CHECK_MAIL] = { "mail", CROWN_OPT_FLAG },
	[CHECK_NOW] = { "now", CROWN_OPT_VALUE },
	[CHECK_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_check = {
	"check",
	"(DIR | --state FILE) [--rules FILE] ORDERS...\n"
	"       crown check DIR --mail [--now TIME] MESSAGE...",
	"Check order files against a campaign's state (DIR/state.yaml) or a\n"
	"given state, with the same checks `crown turn` makes before any die\n"
	"is rolled: ok means the turn plays the file.  A file may be YAML or\n"
	"the shorthand of the mail (told apart by content), with what a mail\n"
	"carries around the orders: a 'password:' line, quoted '> ' lines\n"
	"and the 'On ... wrote:' line above them, a signature after '-- '.\n"
	"Shorthand without game or turn lines is for the next turn, and must\n"
	"say its side (side: ID).  Every problem is printed as\n"
	"FILE:LINE:COLUMN: error: MESSAGE (R-id).  Exit 0 when all are\n"
	"valid, 65 when any is not, 66 when a file is missing.\n\n"
	"With --mail each MESSAGE is a whole mail (RFC 5322) read exactly as\n"
	"`crown inbox DIR` would read it at --now (default: now): its parts,\n"
	"the sender against the roster, the verdict; what the inbox would\n"
	"answer is printed, and nothing is filed, sent or logged.  Exit 0\n"
	"when every message would be accepted, 65 when any would not.\n\n"
	CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_LIMITS,
	.options = check_options,
	.operands = { 0, CROWN_OPERANDS_ANY, NULL },
	.exec = cmd_check_exec
};

/* --mail: each file a message, judged as crown inbox judges it. */
static int
check_mail(struct crown_run *r)
{
	struct crown_diags		 d = { 0 };
	struct crown_inbox_options	 opt;
	const char			*now = r->opt[CHECK_NOW].value;

	if (r->opt[CHECK_STATE].value != NULL ||
	    r->opt[CHECK_RULES].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--mail reads a "
		    "campaign DIR as crown inbox does: no --state or --rules");
	if (r->noperands < 2)
		return crown_cmd_usage_error(r->cmd,
		    "give a campaign DIR and the messages to check");
	memset(&opt, 0, sizeof(opt));
	if (now != NULL && crown_cal_parse_time(&opt.now, now) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' is not a "
		    "time (YYYY-MM-DDTHH:MM:SSZ)", now);
	opt.dir = r->operand[0];
	opt.max_bytes = CROWN_MAIL_MAX_BYTES;
	opt.max_answers = (unsigned)r->noperands;
	opt.dry = true;
	return crown_cmd_fail(&d, crown_cmd_inbox_run(&opt, now != NULL,
	    r->operand + 1, r->noperands - 1, true, &d));
}

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

	if (r->opt[CHECK_MAIL].value != NULL)
		return check_mail(r);
	if (r->opt[CHECK_NOW].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--now is for --mail");
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
