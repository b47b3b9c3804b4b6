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

static int	cmd_log_exec(struct crown_run *);

const struct crown_cmd crown_cmd_log = {
	"log",
	"DIR",
	"One line per turn of the campaign at DIR, oldest first: the turn,\n"
	"its date, its commit and its headline (the reveal of the secret, if\n"
	"made, last).  Reads only the history, so it works in a player's\n"
	"clone.",
	.flags = CROWN_CMD_CAMPAIGN,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_log_exec
};

static int
cmd_log_exec(struct crown_run *r)
{
	const struct crown_chain	*c = &r->chain;
	const struct crown_hcommit	*hc;
	const char			*sub;
	char				 date[16], label[32];
	size_t				 i;
	int				 k;

	for (i = 0; i < c->l.n; i++) {
		hc = &c->l.v[i];
		k = crown_campaign_subject_turn(hc->subject);
		sub = strchr(hc->subject, ':');
		sub = sub != NULL ? sub + 1 : hc->subject;
		while (*sub == ' ')
			sub++;
		if (k >= 0)
			snprintf(label, sizeof(label), "turn %d", k);
		else if (crown_campaign_subject_admin(hc->subject))
			/* "roster", "deadline": the umpire's changes */
			snprintf(label, sizeof(label), "%s",
			    hc->subject[0] == 'R' ? "roster" : "deadline");
		else
			snprintf(label, sizeof(label), "reveal");
		crown_campaign_format_date(date, sizeof(date), hc->time,
		    hc->offset);
		printf("%-8s  %s  %.7s  %s\n", label, date, hc->id, sub);
	}
	return 0;
}
