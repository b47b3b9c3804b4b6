/*
 * cmd-log.c: crown log: the turns of a campaign, one line each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"

static int	cmd_log_exec(int, char **);

const struct crown_cmd crown_cmd_log = {
	"log",
	"DIR",
	"One line per turn of the campaign at DIR, oldest first: the turn,\n"
	"its date, its commit and its headline (the reveal of the secret, if\n"
	"made, last).  Reads only the history, so it works in a player's\n"
	"clone.",
	cmd_log_exec
};

static int
cmd_log_exec(int argc, char **argv)
{
	struct crown_opt	 opts[] = {
		{ NULL, false, false, NULL, NULL, 0 }
	};
	struct crown_diags	 d = { 0 };
	struct crown_history	*h = NULL;
	struct crown_chain	 c = { 0 };
	struct crown_hcommit	*hc;
	const char		**ops = NULL, *sub;
	char			 date[16], label[32];
	size_t			 nops = 0, i;
	int			 error, status, k;

	if (crown_cmd_wants_help(&crown_cmd_log, argc, argv))
		return 0;
	if ((status = crown_cmd_args(&crown_cmd_log, argc, argv, opts,
	    &ops, &nops)) != 0)
		return status;
	if (nops != 1) {
		crown_cmd_args_free(opts, ops);
		return crown_cmd_usage_error(&crown_cmd_log, "give one DIR");
	}
	if ((error = crown_history_open(&h, ops[0], false, &d)) != 0 ||
	    (error = crown_campaign_chain(&c, h, CROWN_MAIN_REF, &d)) != 0)
		goto cleanup;
	for (i = 0; i < c.l.n; i++) {
		hc = &c.l.v[i];
		k = crown_campaign_subject_turn(hc->subject);
		sub = strchr(hc->subject, ':');
		sub = sub != NULL ? sub + 1 : hc->subject;
		while (*sub == ' ')
			sub++;
		if (k >= 0)
			snprintf(label, sizeof(label), "turn %d", k);
		else
			snprintf(label, sizeof(label), "reveal");
		crown_campaign_format_date(date, sizeof(date), hc->time,
		    hc->offset);
		printf("%-8s  %s  %.7s  %s\n", label, date, hc->id, sub);
	}
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_chain_release(&c);
	crown_history_close(h);
	crown_cmd_args_free(opts, ops);
	return status;
}
