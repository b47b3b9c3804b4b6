/*
 * cmd-log.c: crown log: the turns of a campaign, one line each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/rerun.h"


static int	cmd_log_exec(struct crown_run *);

const struct crown_cmd crown_cmd_log = {
	"log",
	"DIR",
	"One line per turn of the campaign at DIR, oldest first: the turn,\n"
	"its date, its commit and its headline (the reveal of the secret, if\n"
	"made, last).  A turn that an adopted crown rerun played again is\n"
	"marked [rerun: REASON; adopted: REASON], with the --reason each\n"
	"was given, and the turns after it that the rerun replayed\n"
	"[replayed: rerun of turn N].  A turn played while a side was in\n"
	"civil disorder (game.missed_orders) is marked [civil disorder:\n"
	"SIDE].  Then who held each side for which turns: \"french: Jean\n"
	"Danjou (turns 1-4), Ana Ruiz (turns 5-)\".  Reads only the\n"
	"history, so it works in a player's clone.",
	.flags = CROWN_CMD_CAMPAIGN,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_log_exec
};

/* "  [civil disorder: SIDE, SIDE]" of a turn's message, into b. */
static void
disorder_mark(struct crown_buf *b, const char *message)
{
	const char	*p = message;
	size_t		 n = 0, klen = strlen(CROWN_DISORDER_KEY);

	while ((p = strstr(p, "\n" CROWN_DISORDER_KEY)) != NULL) {
		p += 1 + klen;
		crown_buf_printf(b, "%s%.*s", n++ == 0 ?
		    "  [civil disorder: " : ", ", (int)strcspn(p, " \n"), p);
	}
	if (n > 0)
		crown_buf_puts(b, "]");
}

static int
cmd_log_exec(struct crown_run *r)
{
	const struct crown_chain	*c = &r->chain;
	const struct crown_hcommit	*hc;
	const char			*sub;
	struct crown_buf		 mark = { 0 };
	struct crown_rerun_mark		 rm;
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
		else if (crown_campaign_subject_upgrade(hc->subject))
			snprintf(label, sizeof(label), "upgrade");
		else
			snprintf(label, sizeof(label), "reveal");
		crown_cal_format_date(date, sizeof(date), hc->time,
		    hc->offset);
		crown_buf_puts(&mark, "");
		if (k >= 0) {
			crown_campaign_rerun_mark(&rm, r->h, hc->message, k);
			if (rm.of >= 0) {
				crown_buf_puts(&mark, "  [");
				crown_rerun_mark_text(&mark, &rm, k);
				crown_buf_puts(&mark, "]");
			}
			crown_rerun_mark_release(&rm);
			disorder_mark(&mark, hc->message);
		}
		printf("%-8s  %s  %.7s  %s%s\n", label, date, hc->id, sub,
		    mark.data);
		crown_buf_release(&mark);
	}
	/* who held each side, from the players of the history's states */
	crown_buf_puts(&mark, "");
	crown_campaign_tenure(&mark, r->h, c);
	if (mark.len > 0)
		printf("held by:\n%s", mark.data);
	crown_buf_release(&mark);
	return 0;
}
