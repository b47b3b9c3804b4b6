/*
 * cmd-status.c: crown status: which sides have orders in for the next
 * turn, which are late and which are missing, against game.deadline
 * (doc/umpire.md, "Mail"), as history/status.c finds them.
 *
 * It is a display command: the
 * time defaults to the clock, and --now makes it reproducible.  Of a
 * campaign repository the state is main's last commit's, never the work
 * tree's, which a turn killed before its checkout leaves behind.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/absence.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/status.h"
#include "crown/xalloc.h"

static int	cmd_status_exec(struct crown_run *);

enum { STATUS_NOW, STATUS_NOPTS };

static const struct crown_option status_options[] = {
	[STATUS_NOW] = { "now", CROWN_OPT_VALUE },
	[STATUS_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_status = {
	"status",
	"DIR [--now TIME]",
	"Show, for each side of the campaign at DIR, whether its orders for\n"
	"the next turn are in (when they came and their receipt), late, or\n"
	"missing, and how long until game.deadline.  After the deadline a\n"
	"side without orders holds (R2.3).  --now TIME\n"
	"(YYYY-MM-DDTHH:MM:SSZ) is the time to compare with the deadline\n"
	"(default: now).  Of a campaign repository it reads the state of\n"
	"the last commit.  Then how many messages of the mailboxes crown\n"
	"inbox last read it has not read, delivered by the deadline (crown\n"
	"turn waits for them), and the mail delivered in time for the turn\n"
	"played last but read after it was played.  Late orders in\n"
	"orders/late/ are named on their side's line (beside orders in too),\n"
	"and the late orders and proofs that a turn made obsolete, which\n"
	"crown's next writing command removes.\n\n"
	CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_LIMITS,
	.options = status_options,
	.operands = { 1, 1, "give one campaign DIR" },
	.exec = cmd_status_exec
};

/* What crown turn DIR makes of the pending files of no side's line. */
static void
print_refused(const struct crown_orders_status *st)
{
	const struct crown_pending_file *f;
	size_t			 k;

	for (k = 0; k < st->nfile; k++) {
		f = &st->file[k];
		if (f->side >= 0)
			continue;
		if (f->verdict == CROWN_PENDING_UNREADABLE)
			printf("  %s cannot be read\n", f->path);
		else if (f->verdict == CROWN_PENDING_OTHER_TURN)
			printf("  %s is for turn %d\n", f->path, f->o->turn);
		else if (f->verdict == CROWN_PENDING_SECOND)
			printf("  %s: a second file for side '%s'\n",
			    f->path, f->o->side);
		else
			printf("  %s: no side '%s' in this game\n", f->path,
			    f->o->side != NULL ? f->o->side : "");
	}
}

/* Where a side's late orders are, and what becomes of them. */
static void
print_late(const struct crown_orders_status *st,
    const struct crown_side_orders *sv, bool in)
{
	const char	*path;

	if (sv->late < 0) {
		if (!in)
			printf(" (no longer in orders/late/)");
		return;
	}
	path = st->tidy.v[sv->late].path;
	if (in)
		printf("; later orders came late");
	if (in && sv->late_when != NULL)
		printf(", received %s", sv->late_when);
	printf(" (%s: played only if moved to orders/pending/%s; crown "
	    "turn removes it)", path, in ? " in place of these" : "");
}

/* What becomes of the pending files crown turn DIR would refuse: the
 * turn stops on them (crown turn FILES leaves them where they are). */
static void
print_stops(const struct crown_orders_status *st)
{
	size_t	k, n = 0;

	for (k = 0; k < st->nfile; k++)
		if (st->file[k].verdict != CROWN_PENDING_PLAYED)
			n++;
	if (n > 0)
		printf("crown turn DIR refuses to play while %s in "
		    "orders/pending/: move %s out, or give crown turn the "
		    "files to play\n", n == 1 ? "that file is" :
		    "those files are", n == 1 ? "it" : "them");
}

/* The late orders and proofs not on a side's line: obsolete, or not
 * crown's. */
static void
print_tidy(const struct crown_orders_status *st)
{
	const struct crown_tidy_file *f;
	size_t			 k, i;

	for (k = 0; k < st->tidy.n; k++) {
		f = &st->tidy.v[k];
		for (i = 0; i < st->nside; i++)
			if (st->side[i].late == (int)k)
				break;
		if (i < st->nside || f->kind == CROWN_TIDY_PROOF)
			continue;
		if (f->kind == CROWN_TIDY_LATE_PLAYED)
			printf("  %s: late orders of turn %d, which is "
			    "played: obsolete, removed by crown's next "
			    "writing command\n", f->path, f->turn);
		else if (f->kind == CROWN_TIDY_PROOF_GONE)
			printf("  %s: the proof of orders no longer pending: "
			    "obsolete, removed by crown's next writing "
			    "command\n", f->path);
		else if (f->kind == CROWN_TIDY_LATE)
			printf("  %s: late orders of side '%s' for turn %d: "
			    "%s\n", f->path, f->side, f->turn, f->turn ==
			    st->next ? "crown turn removes it" : "kept");
		else
			printf("  %s cannot be read as orders of a turn: "
			    "left alone\n", f->path);
	}
}

/* Side i's line. */
static void
print_side(const struct crown_orders_status *st, const char *id, size_t i,
    int width)
{
	const struct crown_side_orders *sv = &st->side[i];
	const struct crown_pending_file *f;
	size_t			 k;

	printf("  %-*s  ", width, id);
	if (sv->in == CROWN_ORDERS_IN) {
		f = &st->file[sv->file];
		printf("in       received %s, receipt %s",
		    sv->when != NULL ? sv->when : "(filed by hand)", f->rec);
		if (!f->named)
			printf(" (%s)", f->path);
		print_late(st, sv, true);
		printf("\n");
		return;
	}
	if (sv->in == CROWN_ORDERS_LATE && sv->when != NULL)
		printf("late     received %s, after the deadline", sv->when);
	else if (sv->in == CROWN_ORDERS_LATE)
		printf("late    ");	/* not in the log: the file says */
	if (sv->in == CROWN_ORDERS_LATE)
		print_late(st, sv, false);
	else
		printf("missing");
	/* a file of the side's that crown turn would refuse */
	for (k = 0; k < st->nfile; k++) {
		f = &st->file[k];
		if (f->side != (int)i)
			continue;
		if (f->o != NULL)
			printf(" (%s is for turn %d)", f->path, f->o->turn);
		else
			printf(" (%s cannot be read)", f->path);
	}
	printf("%s\n", st->passed ? "; holds (R2.3)" : "");
}

/*
 * The sides whose every player is away at now, and the turns in a row
 * each side has played without orders (game.missed_orders), from the
 * history: civil disorder, and how near a side is to it.
 */
static void
print_absence(const struct crown_state *s, struct crown_history *h,
    const struct crown_chain *c, long long now)
{
	char		 until[CROWN_CAL_TIME_LEN];
	long long	 t;
	int		*missed;
	size_t		 i;

	for (i = 0; i < s->nsides; i++)
		if (crown_side_away(&s->sides[i], now, &t)) {
			crown_cal_format_time(until, sizeof(until), t);
			printf("%s: every player is away until %s "
			    "(game.absence: %s); a turn played while they "
			    "are away does not wait for its orders: its units "
			    "hold (R2.3)\n", s->sides[i].id, until,
			    s->absence == CROWN_ABSENCE_HOLD ? "hold" :
			    "extend");
		}
	if (h == NULL || s->missed_limit <= 0)
		return;
	missed = xcalloc(s->nsides ? s->nsides : 1, sizeof(*missed));
	crown_campaign_missed(missed, h, c, s);
	for (i = 0; i < s->nsides; i++)
		if (crown_state_disorder(s, missed[i]))
			printf("%s: in civil disorder (%d turn%s in a row "
			    "without orders, game.missed_orders): its units "
			    "hold (R2.3) until a player takes the side over "
			    "(crown roster replace)\n", s->sides[i].id,
			    missed[i], missed[i] == 1 ? "" : "s");
		else if (missed[i] > 0)
			printf("%s: %d turn%s in a row without orders (civil "
			    "disorder at %d)\n", s->sides[i].id, missed[i],
			    missed[i] == 1 ? "" : "s", s->missed_limit);
	free(missed);
}

/* The mail crown inbox has not read yet, and what it read too late. */
static void
print_mail(const struct crown_orders_status *st, int played)
{
	char	*line;
	size_t	 k;

	if (st->unread_problem.n > 0) {
		line = crown_diag_format(&st->unread_problem.v[0]);
		printf("unread mail cannot be counted: %s\n", line);
		free(line);
	} else if (st->mailboxes != NULL && st->unread == 0)
		printf("no unread mail in %s\n", st->mailboxes);
	else if (st->mailboxes != NULL)
		printf("%zu unread message%s in %s, delivered by the "
		    "deadline: run crown inbox before crown turn\n", st->unread,
		    st->unread == 1 ? "" : "s", st->mailboxes);
	if (st->nmissed > 0)
		printf("mail delivered in time for turn %d, read after it was "
		    "played (kept in orders/rejected/; crown rerun plays "
		    "it):\n", played);
	for (k = 0; k < st->nmissed; k++)
		printf("  %s  from %s, delivered %s\n", st->missed[k].side,
		    st->missed[k].from, st->missed[k].when);
}

static int
cmd_status_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_history	*h = NULL;
	struct crown_orders_status	 st = { 0 };
	struct crown_chain	 chain = { 0 };
	const char		*now_arg;
	char			 dl[64];
	long long		 now;
	size_t			 i, width = 0;
	int			 error;

	now_arg = r->opt[STATUS_NOW].value;
	if (now_arg != NULL && crown_cal_parse_time(&now, now_arg) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' "
		    "is not a time (YYYY-MM-DDTHH:MM:SSZ)", now_arg);
	if (now_arg == NULL)
		now = crown_cal_now();

	if ((error = crown_cmd_mail_campaign(&s, NULL, &h, &chain,
	    r->operand[0], false, &d)) != 0)
		goto cleanup;
	crown_campaign_status(&st, r->operand[0], s, now);
	if (st.over) {
		printf("%s: the game is over (turn %d was the last)\n",
		    s->name, s->last_turn);
		goto cleanup;
	}
	printf("%s: orders for turn %d", s->name, st.next);
	if (st.deadline) {
		crown_cal_format_span(dl, sizeof(dl), st.span);
		printf(", deadline %s (%s%s%s)\n", s->deadline,
		    st.passed ? "passed " : "in ", dl,
		    st.passed ? " ago" : "");
	} else
		printf(", no deadline\n");
	for (i = 0; i < s->nsides; i++)
		if (strlen(s->sides[i].id) > width)
			width = strlen(s->sides[i].id);
	for (i = 0; i < s->nsides; i++)
		print_side(&st, s->sides[i].id, i, (int)width);
	/* crown turn DIR refuses these, with every other problem */
	print_refused(&st);
	print_tidy(&st);
	printf("%zu of %zu sides have orders in%s\n", st.nin, s->nsides,
	    st.passed && st.nin < s->nsides ? "; the others hold (R2.3) if "
	    "the turn is played with --allow-missing" : "");
	print_absence(s, h, &chain, now);
	print_stops(&st);
	print_mail(&st, s->turn);
cleanup:
	crown_chain_release(&chain);
	crown_campaign_status_release(&st);
	crown_state_free(s);
	crown_history_close(h);
	return crown_cmd_fail(&d, error);
}
