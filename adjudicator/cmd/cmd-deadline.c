/*
 * cmd-deadline.c: crown deadline: set the next orders deadline between
 * turns (issue 19), in a commit "Deadline: ..." of its own; --every
 * makes each turn set the next one that long after the last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/mail.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

static int	cmd_deadline_check(const struct crown_run *);
static int	cmd_deadline_exec(struct crown_run *);

enum { DEADLINE_EVERY, DEADLINE_REASON, DEADLINE_NOPTS };

static const struct crown_option deadline_options[] = {
	[DEADLINE_EVERY] = { "every", CROWN_OPT_VALUE },
	[DEADLINE_REASON] = { "reason", CROWN_OPT_VALUE },
	[DEADLINE_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_deadline = {
	"deadline",
	"DIR TIME|+DURATION|none [--every DURATION] [--reason TEXT]\n"
	"       [--umpire \"Name <email>\"] [--date DATE]",
	"Set the next orders deadline of the campaign at DIR (game.deadline)\n"
	"and commit it as \"Deadline: ...\".  TIME is YYYY-MM-DDTHH:MM:SSZ\n"
	"(or with an offset, made UTC); +DURATION is that long after --date\n"
	"(default now), a DURATION being numbers with w, d, h or m: +7d,\n"
	"+36h, +1d12h.  With --every DURATION each turn played sets the next\n"
	"deadline that long after the previous deadline (not after the time\n"
	"the turn is played), until crown turn --deadline or crown deadline\n"
	"sets another; none clears the deadline and --every.  crown inbox\n"
	"holds mail after the deadline as late.  When the deadline changes,\n"
	"each player with an address is mailed the new one (DIR/outbox),\n"
	"with the old one, --reason TEXT (one line, also put in the\n"
	"commit's message as \"Reason: TEXT\"), and how to send orders and\n"
	"how he is identified, as the briefing says it.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_WHO,
	.options = deadline_options,
	.operands = { 2, 2, "give DIR and TIME, +DURATION or none" },
	.check = cmd_deadline_check,
	.exec = cmd_deadline_exec
};

static int
cmd_deadline_check(const struct crown_run *r)
{
	const char	*when = r->operand[1], *every = r->opt[DEADLINE_EVERY].value;
	long long	 t;

	if (strcmp(when, "none") == 0) {
		if (every != NULL)
			return crown_cmd_usage_error(r->cmd, "--every needs "
			    "a deadline to repeat, not none");
	} else if (when[0] == '+' ?
	    crown_cal_duration_parse(&t, when + 1) != 0 :
	    crown_cal_parse_time(&t, when) != 0)
		return crown_cmd_usage_error(r->cmd, "'%s' is not a time "
		    "(YYYY-MM-DDTHH:MM:SSZ), +DURATION (+7d, +36h) or none",
		    when);
	if (every != NULL && crown_cal_duration_parse(&t, every) != 0)
		return crown_cmd_usage_error(r->cmd, "--every: '%s' is not a "
		    "duration (7d, 36h, 1w)", every);
	return crown_cmd_reason_check(r->cmd, r->opt[DEADLINE_REASON].value);
}

static int
cmd_deadline_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_who	 who = { 0 };
	struct crown_roster	 ro = { 0 };
	struct crown_outputs	 mails = { 0 }, notes = { 0 };
	struct crown_state	*s;
	char			 id[CROWN_OID_HEX + 1];
	char			 buf[CROWN_CAL_TIME_LEN];
	char			*label, *path, *msg = NULL;
	char			*was = NULL, *now = NULL, *old = NULL, *m;
	const char		*when = r->operand[1];
	const char		*every = r->opt[DEADLINE_EVERY].value;
	const char		*reason = r->opt[DEADLINE_REASON].value;
	long long		 t, span;
	size_t			 sent = 0;
	int			 error;

	label = xasprintf("turn-%d", c->last);
	path = crown_roster_path(r->dir);
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0)
		goto cleanup;
	if ((error = crown_cmd_game_over(r, &d)) != 0)
		goto cleanup;
	s = camp.state;
	/* the players are told of a change, not of the same again */
	was = xasprintf("%s %s", s->deadline != NULL ? s->deadline : "-",
	    s->deadline_every != NULL ? s->deadline_every : "-");
	old = s->deadline;
	s->deadline = NULL;
	if (strcmp(when, "none") == 0) {
		free(s->deadline_every);
		s->deadline_every = NULL;
		msg = xasprintf("Deadline: none\n\nNo deadline for the orders "
		    "of turn %d.\n", c->last + 1);
	} else {
		if (when[0] == '+') {
			(void)crown_cal_duration_parse(&span, when + 1);
			t = who.stamp.time + span;
		} else
			(void)crown_cal_parse_time(&t, when);
		crown_cal_format_time(buf, sizeof(buf), t);
		s->deadline = xstrdup(buf);
		if (every != NULL) {
			free(s->deadline_every);
			s->deadline_every = xstrdup(every);
		}
		msg = xasprintf("Deadline: %s%s%s\n\nThe orders of turn %d "
		    "are due by %s.\n", buf, s->deadline_every != NULL ?
		    ", then every " : "", s->deadline_every != NULL ?
		    s->deadline_every : "", c->last + 1, buf);
	}
	if (reason != NULL) {
		m = xasprintf("%s%s%s\n", msg, CROWN_REASON_KEY, reason);
		free(msg);
		msg = m;
	}
	/* the players told, as the briefing would have told them */
	now = xasprintf("%s %s", s->deadline != NULL ? s->deadline : "-",
	    s->deadline_every != NULL ? s->deadline_every : "-");
	if (strcmp(was, now) != 0) {
		if ((error = crown_roster_load(&ro, path, &d)) != 0)
			goto cleanup;
		crown_mail_notes(&notes, s, &ro);
		if ((error = crown_mail_deadline(&mails, s, &notes, old,
		    reason, who.stamp.time, &sent, &d)) != 0)
			goto cleanup;
	}
	if ((error = crown_campaign_commit_state(id, r->h, c, s, msg,
	    &who.stamp, &mails, &d)) != 0)
		goto cleanup;
	printf("%.*s (%.7s)\n", (int)strcspn(msg, "\n"), msg, id);
	if (sent > 0)
		printf("%zu mail%s to the players in %s/outbox\n", sent,
		    sent == 1 ? "" : "s", r->dir);
cleanup:
	crown_outputs_release(&notes);
	crown_outputs_release(&mails);
	crown_roster_release(&ro);
	free(old);
	free(now);
	free(was);
	free(path);
	free(msg);
	free(label);
	crown_who_release(&who);
	crown_campaign_release(&camp);
	return crown_cmd_fail(&d, error);
}
