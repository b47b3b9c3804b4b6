/*
 * cmd-remind.c: crown remind: as the deadline comes near, a reminder in
 * the outbox to the players of each side whose orders are not in, once
 * a side a deadline (history/remind.c).  Made for cron: a run that has
 * nothing to write prints nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/remind.h"
#include "crown/xalloc.h"

static int	cmd_remind_check(const struct crown_run *);
static int	cmd_remind_exec(struct crown_run *);

enum { REMIND_BEFORE, REMIND_NOW, REMIND_NOPTS };

static const struct crown_option remind_options[] = {
	[REMIND_BEFORE] = { "before", CROWN_OPT_VALUE },
	[REMIND_NOW] = { "now", CROWN_OPT_VALUE },
	[REMIND_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_remind = {
	"remind",
	"DIR [--before DURATION] [--now TIME]",
	"When game.deadline of the campaign at DIR is at most DURATION away\n"
	"(--before, default " CROWN_REMIND_BEFORE ": numbers with w, d, h or "
	"m, as 36h or 1d12h),\n"
	"put a reminder in DIR/outbox to each player of each side whose\n"
	"orders for the next turn are not in, as crown status counts them:\n"
	"the deadline in UTC and how long until it, how to send the orders\n"
	"(with the password or the PGP/MIME signature the roster asks for),\n"
	"and the side's orders form attached.  Each side is reminded once a\n"
	"deadline, however often crown remind runs (remembered in\n"
	"DIR/.git/crown-reminders); a new deadline is reminded again.  It\n"
	"prints a line for each side reminded, and nothing when there is no\n"
	"one to remind (no deadline, the deadline further off or passed,\n"
	"every side in, the game over), so that cron mails only news.\n"
	"--now TIME (YYYY-MM-DDTHH:MM:SSZ) is the time to compare with the\n"
	"deadline and the reminders' date (default: now).  It takes the\n"
	"campaign's lock (exits 75 when another crown holds it).  While the\n"
	"mailboxes crown inbox read last hold mail it has not read,\n"
	"delivered by the deadline, it reminds no one and says so: a side's\n"
	"orders may be in it.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK,
	.options = remind_options,
	.operands = { 1, 1, "give one campaign DIR" },
	.check = cmd_remind_check,
	.exec = cmd_remind_exec
};

static int
cmd_remind_check(const struct crown_run *r)
{
	const char	*before = r->opt[REMIND_BEFORE].value;
	const char	*now = r->opt[REMIND_NOW].value;
	long long	 t;

	if (before != NULL && crown_cal_duration_parse(&t, before) != 0)
		return crown_cmd_usage_error(r->cmd, "--before: '%s' is not a "
		    "duration (24h, 2d, 1d12h)", before);
	if (now != NULL && crown_cal_parse_time(&t, now) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' is not a "
		    "time (YYYY-MM-DDTHH:MM:SSZ)", now);
	return 0;
}

static int
cmd_remind_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_reminders	 rem = { 0 };
	const char		*before = r->opt[REMIND_BEFORE].value;
	const char		*now_arg = r->opt[REMIND_NOW].value;
	char			 in[64];
	char			*label;
	long long		 now, span;
	size_t			 i;
	int			 error = 0;

	/* after the reveal no turn follows: nothing to remind */
	if (c->revealed)
		return 0;
	(void)crown_cal_duration_parse(&span, before != NULL ? before :
	    CROWN_REMIND_BEFORE);
	if (now_arg == NULL)
		now = crown_cal_now();
	else
		(void)crown_cal_parse_time(&now, now_arg);
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d)) != 0)
		goto cleanup;
	error = crown_campaign_remind(&rem, r->dir, camp.state, camp.rules,
	    now, span, &d);
	if (error != 0)
		goto cleanup;
	if (rem.unread > 0)
		printf("%s: %zu message%s in %s not read yet, delivered by the "
		    "deadline: no reminder until crown inbox has read them\n",
		    camp.state->name, rem.unread, rem.unread == 1 ? "" : "s",
		    rem.mailboxes);
	crown_cal_format_span(in, sizeof(in), rem.span);
	for (i = 0; i < rem.n; i++)
		printf("%s: reminded side %s of turn %d, due by %s (in %s): "
		    "%s\n", camp.state->name, rem.v[i].side,
		    camp.state->turn + 1, camp.state->deadline, in,
		    rem.v[i].to);
cleanup:
	crown_campaign_reminders_release(&rem);
	free(label);
	crown_campaign_release(&camp);
	return crown_cmd_fail(&d, error);
}
