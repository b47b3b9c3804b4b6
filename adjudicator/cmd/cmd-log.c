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
#include "crown/xalloc.h"


static int	cmd_log_exec(struct crown_run *);
static void	rerun_mark(struct crown_buf *, struct crown_history *,
		    const char *message, int turn);

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

/* The line "Reason: TEXT" of a message, appended to b; false if none. */
static bool
add_reason(struct crown_buf *b, const char *message)
{
	const char	*p = message, *end;
	size_t		 klen = strlen(CROWN_REASON_KEY);

	while ((p = strstr(p, CROWN_REASON_KEY)) != NULL) {
		if (p == message || p[-1] == '\n') {
			p += klen;
			end = strchr(p, '\n');
			crown_buf_add(b, p, end != NULL ? (size_t)(end - p) :
			    strlen(p));
			return true;
		}
		p += klen;
	}
	return false;
}

/*
 * The mark of a turn commit made by a rerun, which on main was adopted:
 * the reason of the rerun (its commit) and of the adoption (the last tag
 * replaced/turn-N[-k] of that rerun's turn N, since a later adoption of
 * the same turn would have replaced this commit).
 */
static void
rerun_mark(struct crown_buf *b, struct crown_history *h,
    const char *message, int turn)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 tagmsg = { 0 };
	const char		*p;
	char			*name, *end;
	long			 of, k, best = 0;
	size_t			 i, n = 0;
	char			**names = NULL;

	if ((p = strstr(message, CROWN_RERUN_OF)) == NULL)
		return;
	of = strtol(p + strlen(CROWN_RERUN_OF), &end, 10);
	if (end == p + strlen(CROWN_RERUN_OF) || of < 0 || of > turn)
		return;
	if (of < turn) {
		crown_buf_printf(b, "  [replayed: rerun of turn %ld]", of);
		return;
	}
	crown_buf_puts(b, "  [rerun");
	if (strstr(message, "\n" CROWN_REASON_KEY) != NULL) {
		crown_buf_puts(b, ": ");
		add_reason(b, message);
	}
	name = xasprintf("refs/tags/%s/turn-%ld*", CROWN_REPLACED_TAG, of);
	if (crown_history_refs(&names, &n, h, name, &quiet) == 0)
		for (i = 0; i < n; i++) {
			p = names[i] + strlen(name) - 1;
			if (*p == '\0')
				k = 1;
			else if (*p == '-')
				k = strtol(p + 1, &end, 10);
			else
				continue;	/* turn-1 is not turn-10 */
			if (k > best) {
				best = k;
				crown_buf_release(&tagmsg);
				crown_buf_puts(&tagmsg, "");
				if (crown_history_tag_message(&tagmsg, h,
				    names[i] + strlen("refs/tags/"),
				    &quiet) != 0)
					crown_buf_release(&tagmsg);
			}
		}
	if (tagmsg.data != NULL && strstr(tagmsg.data, "\n" CROWN_REASON_KEY)
	    != NULL) {
		crown_buf_puts(b, "; adopted: ");
		add_reason(b, tagmsg.data);
	}
	crown_buf_puts(b, "]");
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(name);
	crown_buf_release(&tagmsg);
	crown_diags_release(&quiet);
}

static int
cmd_log_exec(struct crown_run *r)
{
	const struct crown_chain	*c = &r->chain;
	const struct crown_hcommit	*hc;
	const char			*sub;
	struct crown_buf		 mark = { 0 };
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
			rerun_mark(&mark, r->h, hc->message, k);
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
