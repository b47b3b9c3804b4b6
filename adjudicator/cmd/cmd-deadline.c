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
	"every player is mailed the old one, the new one and --reason TEXT\n"
	"(one line, also put in the commit's message as \"Reason: TEXT\").",
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

/*
 * Every player told of a deadline that changed from old (NULL: none) to
 * s's, and why (NULL: not said), into mails; the reason goes on the
 * commit's message *msg too.
 */
static int
tell(char **msg, struct crown_outputs *mails, const struct crown_state *s,
    const char *old, const char *reason, int turn, long long now)
{
	const char	*now_dl = s->deadline;
	char		*text, *subject, *m;
	int		 error;

	if (reason != NULL) {
		m = xasprintf("%s%s%s\n", *msg, CROWN_REASON_KEY, reason);
		free(*msg);
		*msg = m;
	}
	if ((old == NULL && now_dl == NULL) ||
	    (old != NULL && now_dl != NULL && strcmp(old, now_dl) == 0))
		return 0;
	if (now_dl == NULL)
		text = xasprintf("There is no deadline any more for the "
		    "orders of turn %d (it was %s).%s%s", turn, old,
		    reason != NULL ? " Reason: " : "", reason != NULL ?
		    reason : "");
	else if (old == NULL)
		text = xasprintf("The orders of turn %d are due by %s.%s%s",
		    turn, now_dl, reason != NULL ? " Reason: " : "",
		    reason != NULL ? reason : "");
	else
		text = xasprintf("The deadline for the orders of turn %d "
		    "moves from %s to %s.%s%s", turn, old, now_dl,
		    reason != NULL ? " Reason: " : "", reason != NULL ?
		    reason : "");
	subject = now_dl != NULL ? xasprintf("Turn %d: the orders are due by "
	    "%s", turn, now_dl) : xasprintf("Turn %d: no deadline", turn);
	error = crown_mail_notice(mails, s, subject, text, now);
	free(subject);
	free(text);
	return error;
}

static int
cmd_deadline_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_who	 who = { 0 };
	struct crown_outputs	 mails = { 0 };
	struct crown_state	*s;
	char			 id[CROWN_OID_HEX + 1];
	char			 buf[CROWN_CAL_TIME_LEN];
	char			*label, *msg = NULL, *old = NULL;
	const char		*when = r->operand[1];
	const char		*every = r->opt[DEADLINE_EVERY].value;
	long long		 t, span;
	int			 error;

	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0)
		goto cleanup;
	if ((error = crown_cmd_game_over(r, &d)) != 0)
		goto cleanup;
	s = camp.state;
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
	if ((error = tell(&msg, &mails, s, old, r->opt[DEADLINE_REASON].value,
	    c->last + 1, who.stamp.time)) != 0 ||
	    (error = crown_campaign_commit_state(id, r->h, c, s, msg,
	    &who.stamp, &mails, &d)) != 0)
		goto cleanup;
	printf("%.*s (%.7s)\n", (int)strcspn(msg, "\n"), msg, id);
	if (mails.n > 0)
		printf("%zu mail%s to the players in %s/outbox\n", mails.n,
		    mails.n == 1 ? "" : "s", r->dir);
cleanup:
	crown_outputs_release(&mails);
	free(old);
	free(msg);
	free(label);
	crown_who_release(&who);
	crown_campaign_release(&camp);
	return crown_cmd_fail(&d, error);
}
