/*
 * cmd-inbox.c: crown inbox: read the players' mail, check the orders in
 * it as `crown check` does, file the good ones in orders/pending/ and
 * answer every message from a player: a receipt, or the list of
 * problems (doc/umpire.md, "Mail"; the work is inbox.c's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_inbox_exec(struct crown_run *);

/* Answers to one address for one turn, by default (--max-answers). */
#define MAX_ANSWERS	5
#define MAX_ANSWERS_MAX	1000000

enum { INBOX_NOW, INBOX_MAX_BYTES, INBOX_MAX_ANSWERS, INBOX_NOPTS };

static const struct crown_option inbox_options[] = {
	[INBOX_NOW] = { "now", CROWN_OPT_VALUE },
	[INBOX_MAX_BYTES] = { "max-bytes", CROWN_OPT_VALUE },
	[INBOX_MAX_ANSWERS] = { "max-answers", CROWN_OPT_VALUE },
	[INBOX_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_inbox = {
	"inbox",
	"DIR MAILDIR|MBOX... [--now TIME] [--max-bytes N] [--max-answers N]",
	"Read the players' mail from Maildirs or mbox files and file the\n"
	"orders in it.  Orders come attached (.yaml, .yml, .json, each also\n"
	"with .txt after it, or orders*.txt), or in the body as an orders\n"
	"file (YAML, JSON) or in shorthand, a unit a line:\n"
	"  2-militia: move 20,30 face 90; fire 1-legion\n"
	"format=flowed text is unflowed, forwarded messages (message/rfc822)\n"
	"are read, and the parts not read are named in the answer.\n"
	"The sender must be a player in the roster (sides[].players[]) and\n"
	"give the player's password in a line 'password: ...' when one is\n"
	"set (password_sha256).  Good orders are filed as\n"
	"DIR/orders/pending/SIDE.yaml (the last before the deadline win)\n"
	"and acknowledged with a receipt, the SHA-256 of the filed file; bad\n"
	"ones are answered with every problem and its rule.  Replies go to\n"
	"the Maildir DIR/outbox; mail from strangers and automatic mail\n"
	"(Auto-Submitted, Return-Path: <>, Precedence: bulk, junk or list,\n"
	"List-Id, List-Unsubscribe, X-Autoreply, X-Autorespond,\n"
	"X-Auto-Response-Suppress) gets none, only a line in\n"
	"DIR/orders/inbox.log.  Answered refusals are\n"
	"kept in DIR/orders/rejected/, late orders in DIR/orders/late/.\n"
	"A campaign repository is repaired first and read from its last\n"
	"commit.  A mail is received when it was delivered: the time a\n"
	"Maildir file's name starts with, else its modification time (an\n"
	"mbox: its From_ line's date); lateness is judged on that against\n"
	"game.deadline, and mail delivered before the last turn was played\n"
	"is refused.  A signature carries orders once.  --now TIME is when\n"
	"the mail is read (default: now), the latest it can be received.\n"
	"--max-bytes N (default 1M) refuses larger mail unread.\n"
	"--max-answers N (default 5) is the most answers one address gets\n"
	"for a turn, however many runs (counted in DIR/.git/crown-answers);\n"
	"the rest are logged.  The mailboxes read are remembered for crown\n"
	"status and crown turn to count the mail not read yet.\n"
	"A mail whose subject begins 'Press:' (after any 'Re:') is press,\n"
	"never orders: its first line 'to: SIDE, SIDE' or 'to: all' names\n"
	"the sides, and its text (no password line, quotation, signature or\n"
	"attachment) is mailed from the umpire to their players, naming the\n"
	"sender's side, not him, with a copy to the rest of his side; the\n"
	"sender is answered, and the press kept in DIR/.git/crown-press/,\n"
	"relayed once.\n"
	"\n" CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_LIMITS,
	.options = inbox_options,
	.operands = { 2, CROWN_OPERANDS_ANY,
	    "give a campaign DIR and at least one mailbox" },
	.exec = cmd_inbox_exec
};

int
crown_cmd_mail_campaign(struct crown_state **state, struct crown_rules **rules,
    struct crown_history **h, struct crown_chain *keep, const char *dir,
    bool lock, struct crown_diags *d)
{
	struct crown_chain	 chain = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct stat		 st;
	char			*p, *label = NULL, *rules_dir;
	int			 error, k;

	*state = NULL;
	if (rules != NULL)
		*rules = NULL;
	*h = NULL;
	p = xasprintf("%s/.git", dir);
	k = stat(p, &st);
	free(p);
	if (k != 0) {
		p = xasprintf("%s/state.yaml", dir);
		error = crown_state_load(state, p, d);
		free(p);
		if (error != 0 || rules == NULL)
			return error;
		p = xasprintf("%s/rules.yaml", dir);
		rules_dir = stat(p, &st) == 0 ? (char *)dir : NULL;
		free(p);
		return crown_cmd_load_rules(rules, NULL, rules_dir,
		    (*state)->rules, d);
	}
	/* the work tree may be a killed turn's, behind its commit */
	if ((error = crown_history_open(h, dir, lock, d)) != 0 ||
	    (error = crown_campaign_chain(&chain, *h, CROWN_MAIN_REF,
	    d)) != 0 ||
	    (lock && (error = crown_campaign_repair(*h, &chain, d)) != 0))
		goto cleanup;
	label = xasprintf("turn-%d", chain.last);
	if ((error = crown_campaign_load(&camp, *h, chain.l.v[chain.tip].id,
	    label, d)) != 0)
		goto cleanup;
	*state = camp.state;
	if (rules != NULL)
		*rules = camp.rules;
	else
		crown_rules_free(camp.rules);
cleanup:
	free(label);
	if (keep != NULL && error == 0)
		*keep = chain;
	else
		crown_chain_release(&chain);
	return error;
}

int
crown_cmd_inbox_run(struct crown_inbox_options *opt, bool now_given,
    const char *const *src, size_t n, bool messages, struct crown_diags *d)
{
	struct crown_history	*h = NULL;
	struct crown_state	*s = NULL;
	struct crown_rules	*rules = NULL;
	struct crown_inbox	*ib = NULL;
	struct crown_chain	 chain = { 0 };
	long long		*played = NULL;
	char			*played_deadline = NULL;
	size_t			 i;
	int			 error, e;
	bool			 all = false;

	if (!now_given)
		opt->now = crown_cal_now();
	/* a campaign repository: hold its lock, as crown turn does; a
	 * dry run takes none and repairs nothing */
	if ((error = crown_cmd_mail_campaign(&s, &rules, &h, &chain,
	    opt->dir, !opt->dry, d)) != 0)
		goto cleanup;
	/* a mail delivered before a turn's commit is for that turn */
	if (h != NULL && (error = crown_campaign_played(&played,
	    &opt->nplayed, &played_deadline, h, &chain, d)) != 0)
		goto cleanup;
	opt->played = played;
	opt->played_deadline = played_deadline;
	opt->s = s;
	opt->rules = rules;
	if ((error = crown_inbox_open(&ib, opt, d)) != 0)
		goto cleanup;
	for (i = 0; i < n && (messages || error == 0); i++) {
		if (!messages)
			error = crown_inbox_read(ib, src[i], d);
		else if ((e = crown_inbox_read_message(ib, src[i], d)) != 0 &&
		    (error == 0 || e == CROWN_ENOTFOUND))
			error = e;
	}
	if (error == 0 && !opt->dry)
		crown_inbox_summary(ib);
cleanup:
	/* what was read is filed, answered and logged, even before a
	 * mailbox that could not be read */
	e = crown_inbox_close(ib, &all, d);
	if (error == 0)
		error = e;
	if (error == 0 && opt->dry && !all)
		error = CROWN_EINVALID;
	crown_chain_release(&chain);
	free(played);
	free(played_deadline);
	crown_rules_free(rules);
	crown_state_free(s);
	crown_history_close(h);
	return error;
}

static int
cmd_inbox_exec(struct crown_run *r)
{
	struct crown_diags		 d = { 0 };
	struct crown_inbox_options	 opt;
	const char			*now, *max, *answers;
	char				*end;
	unsigned long			 n;

	memset(&opt, 0, sizeof(opt));
	opt.max_bytes = CROWN_MAIL_MAX_BYTES;
	opt.max_answers = MAX_ANSWERS;
	now = r->opt[INBOX_NOW].value;
	max = r->opt[INBOX_MAX_BYTES].value;
	answers = r->opt[INBOX_MAX_ANSWERS].value;
	if (max != NULL && crown_limits_parse_bytes(&opt.max_bytes, max) != 0)
		return crown_cmd_usage_error(r->cmd, "--max-bytes: '%s' is "
		    "not a size (bytes, or with k or M)", max);
	if (answers != NULL) {
		errno = 0;
		n = strtoul(answers, &end, 10);
		if (answers[0] < '0' || answers[0] > '9' || *end != '\0' ||
		    errno != 0 || n > MAX_ANSWERS_MAX)
			return crown_cmd_usage_error(r->cmd, "--max-answers: "
			    "'%s' is not a number from 0 to %d", answers,
			    MAX_ANSWERS_MAX);
		opt.max_answers = (unsigned)n;
	}
	if (now != NULL && crown_cal_parse_time(&opt.now, now) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' "
		    "is not a time (YYYY-MM-DDTHH:MM:SSZ)", now);
	opt.dir = r->operand[0];
	return crown_cmd_fail(&d, crown_cmd_inbox_run(&opt, now != NULL,
	    r->operand + 1, r->noperands - 1, false, &d));
}
