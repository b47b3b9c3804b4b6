/*
 * taketurn.c: crown turn's policy (taketurn.h): which orders the turn
 * plays, the sides without any, the next deadline, the turn played
 * (play.c), and its commit, tag and mails on main (advance.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/absence.h"
#include "crown/advance.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/history.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/play.h"
#include "crown/taketurn.h"
#include "crown/tidy.h"
#include "crown/xalloc.h"

/* Why a side need not send orders for the turn: its units hold (R2.3). */
enum excuse {
	EXCUSE_NONE,
	EXCUSE_DISORDER,	/* game.missed_orders: in civil disorder */
	EXCUSE_AWAY		/* every player away (crown roster away) */
};

/* The sides a turn need not wait for, and why. */
struct excused {
	enum excuse	*why;		/* one a side of the start */
	int		*missed;	/* crown_campaign_missed */
	long long	*until;		/* EXCUSE_AWAY: when one is back */
};

static void	excuse_sides(struct excused *,
		    const struct crown_taketurn_input *,
		    const struct crown_state *, long long);
static void	excused_release(struct excused *);
static int	missing_sides(const struct crown_state *,
		    struct crown_orders *const *, size_t, const char *,
		    const struct excused *, struct crown_diags *);
static bool	unexcused_missing(const struct crown_state *,
		    struct crown_orders *const *, size_t,
		    const struct excused *);
static int	early(bool *, const struct crown_state *,
		    const struct crown_taketurn_input *, long long,
		    struct crown_diags *);
static int	unread_mail(const char *, const struct crown_state *,
		    long long,
		    struct crown_diags *);
static int	load_start(struct crown_campaign *,
		    const struct crown_taketurn_input *,
		    struct crown_diags *);
static int	play_turn(struct crown_taketurn *,
		    const struct crown_taketurn_input *,
		    const struct crown_campaign *, long long,
		    const struct excused *, struct crown_diags *);
static char	*turn_message(const struct crown_turn *,
		    const struct crown_state *, const struct excused *,
		    const char *);
static int	commit_turn(struct crown_taketurn *,
		    const struct crown_taketurn_input *,
		    const struct crown_campaign *, const struct crown_who *,
		    const struct excused *, struct crown_diags *);

/*
 * The sides of s, the turn's start, that the turn played at time now need
 * not wait for: those in civil disorder (game.missed_orders) and those
 * whose every player is away.  Release with excused_release.
 */
static void
excuse_sides(struct excused *ex, const struct crown_taketurn_input *in,
    const struct crown_state *s, long long now)
{
	size_t	i, n = s->nsides ? s->nsides : 1;

	ex->why = xcalloc(n, sizeof(*ex->why));
	ex->missed = xcalloc(n, sizeof(*ex->missed));
	ex->until = xcalloc(n, sizeof(*ex->until));
	crown_campaign_missed(ex->missed, in->h, in->chain, s);
	for (i = 0; i < s->nsides; i++)
		if (crown_state_disorder(s, ex->missed[i]))
			ex->why[i] = EXCUSE_DISORDER;
		else if (crown_side_away(&s->sides[i], now, &ex->until[i]))
			ex->why[i] = EXCUSE_AWAY;
}

static void
excused_release(struct excused *ex)
{
	free(ex->why);
	free(ex->missed);
	free(ex->until);
	memset(ex, 0, sizeof(*ex));
}

/* Has side id orders among ov? */
static bool
has_orders(struct crown_orders *const *ov, size_t n, const char *id)
{
	size_t	k;

	for (k = 0; k < n; k++)
		if (strcmp(ov[k]->side, id) == 0)
			return true;
	return false;
}

/*
 * Every side of s without orders among ov, to d; CROWN_EINVALID when
 * there is one.  A forgotten file would otherwise play the turn with
 * that side holding (R2.3), which only --allow-missing asks for; a side
 * ex excuses holds without it.
 */
static int
missing_sides(const struct crown_state *s, struct crown_orders *const *ov,
    size_t n, const char *dir, const struct excused *ex,
    struct crown_diags *d)
{
	size_t	i;
	int	error = 0;

	for (i = 0; i < s->nsides; i++) {
		if (ex->why[i] != EXCUSE_NONE ||
		    has_orders(ov, n, s->sides[i].id))
			continue;
		crown_diag_add(d, dir, 0, 0, "R2.3", "no orders from side "
		    "'%s' for turn %d; give them, or --allow-missing to let "
		    "its units hold", s->sides[i].id, s->turn + 1);
		error = CROWN_EINVALID;
	}
	return error;
}

/* Is a side of s without orders among ov that ex does not excuse? */
static bool
unexcused_missing(const struct crown_state *s, struct crown_orders *const *ov,
    size_t n, const struct excused *ex)
{
	size_t	i;

	for (i = 0; i < s->nsides; i++)
		if (ex->why[i] == EXCUSE_NONE &&
		    !has_orders(ov, n, s->sides[i].id))
			return true;
	return false;
}

/*
 * --allow-missing before the deadline: the sides without orders still
 * have time to send them, so the turn waits for --force (CROWN_EINVALID
 * without it).  *out says whether it was played early, for the commit
 * message.  No deadline, or one passed at now: as ever.
 */
static int
early(bool *out, const struct crown_state *s,
    const struct crown_taketurn_input *in, long long now,
    struct crown_diags *d)
{
	long long	due;

	*out = false;
	if (s->deadline == NULL || s->deadline[0] == '\0' ||
	    crown_cal_parse_time(&due, s->deadline) != 0 || now >= due)
		return 0;
	if (!in->force) {
		crown_diag_add(d, in->dir, 0, 0, "R2.3", "the deadline (%s) "
		    "has not passed: the sides without orders may still send "
		    "them; --force plays the turn anyway", s->deadline);
		return CROWN_EINVALID;
	}
	*out = true;
	return 0;
}

/*
 * Mail crown inbox has not read, delivered by the deadline, may hold
 * orders for this turn: CROWN_EINVALID, saying how many and where.  No
 * mailbox remembered: nothing to count; one that cannot be read: its
 * problem.
 */
static int
unread_mail(const char *dir, const struct crown_state *s, long long now,
    struct crown_diags *d)
{
	char	*where;
	size_t	 n, before = d->n;
	int	 error;

	error = crown_inbox_unread(&n, &where, dir, s, now, d);
	if (error == CROWN_ENOTFOUND && d->n == before)
		error = 0;
	else if (error != 0)
		crown_diag_add(d, dir, 0, 0, NULL, "the unread mail cannot be "
		    "counted: mend the mailbox, or give --ignore-unread");
	else if (n > 0) {
		crown_diag_add(d, where, 0, 0, NULL, "%zu unread message%s "
		    "delivered by the deadline: run crown inbox first, or "
		    "give --ignore-unread to play the turn without %s", n,
		    n == 1 ? "" : "s", n == 1 ? "it" : "them");
		error = CROWN_EINVALID;
	}
	free(where);
	return error;
}

/* What the turn starts from: the last turn, or the roster or deadline
 * changed after it. */
static int
load_start(struct crown_campaign *camp, const struct crown_taketurn_input *in,
    struct crown_diags *d)
{
	const struct crown_chain *c = in->chain;
	const char		 *head = c->l.v[c->tip].id;
	char			 *label;
	int			  error = 0, format;

	/* a turn of this crown goes on a campaign of its format: an older
	 * one is carried on by crown upgrade first (its turns are not
	 * replayed by this crown, so one played here would be checked by
	 * no crown) */
	if ((error = crown_campaign_format(&format, in->h, head, d)) != 0)
		return error;
	if (format != CROWN_CAMPAIGN_FORMAT) {
		label = xasprintf("turn-%d", c->last);
		crown_campaign_format_refuse(d, label,
		    crown_history_workdir(in->h), format);
		free(label);
		return CROWN_EINVALID;
	}
	if (in->start != NULL && strcmp(in->start_id, head) == 0) {
		*camp = *in->start;
		memset(in->start, 0, sizeof(*in->start));
		in->start_id[0] = '\0';
		return 0;
	}
	label = xasprintf("turn-%d", c->last);
	error = crown_campaign_load(camp, in->h, head, label, d);
	free(label);
	return error;
}

/* The orders read and checked, all of them, before any die; then the
 * dice and the resolution. */
static int
play_turn(struct crown_taketurn *out, const struct crown_taketurn_input *in,
    const struct crown_campaign *camp, long long now,
    const struct excused *ex, struct crown_diags *d)
{
	struct crown_outputs	given = { 0 };
	struct crown_play_input	pin;
	unsigned char		secret[CROWN_SECRET_BYTES];
	unsigned char		key[CROWN_SECRET_BYTES];
	char			*next_deadline;
	int			error;

	memset(&pin, 0, sizeof(pin));
	pin.before = camp->state;
	pin.rules = camp->rules;
	pin.orders = &given;
	pin.templates = in->templates;
	if ((error = crown_play_read_files(&given, out->paths, out->npaths,
	    d)) != 0 || (error = crown_play_read(&out->t, &pin, d)) != 0)
		goto cleanup;
	if (!in->allow_missing && (error = missing_sides(camp->state,
	    out->t.orders, out->t.norders, in->dir, ex, d)) != 0)
		goto cleanup;
	/* a side left to hold before its time is up: only with --force
	 * (a side excused holds at any time) */
	if (unexcused_missing(camp->state, out->t.orders, out->t.norders,
	    ex) && (error = early(&out->early, camp->state, in, now, d)) != 0)
		goto cleanup;

	if ((error = crown_campaign_secret(secret, in->h, in->secret_file,
	    camp->state->dice_commitment, false, d)) != 0 ||
	    (error = crown_campaign_dice_key(key, camp->state, secret,
	    out->t.turn, d)) != 0)
		goto cleanup;
	/* the old deadline has passed: the new state has the next (given,
	 * or game.deadline_every after it) or none */
	next_deadline = crown_campaign_next_deadline(camp->state,
	    in->deadline);
	pin.key = key;
	pin.deadline = next_deadline;
	error = crown_play_resolve(&out->t, &pin, d);
	free(next_deadline);
cleanup:
	sodium_memzero(secret, sizeof(secret));
	sodium_memzero(key, sizeof(key));
	crown_outputs_release(&given);
	return error;
}

/* The lines of a turn's message for the sides ex excused that sent no
 * orders: their units held; *others is how many other sides sent none. */
static void
excused_lines(struct crown_buf *body, size_t *others,
    const struct crown_turn *t, const struct crown_state *s,
    const struct excused *ex)
{
	char	until[CROWN_CAL_TIME_LEN];
	size_t	i;

	*others = 0;
	for (i = 0; i < s->nsides; i++) {
		if (has_orders(t->orders, t->norders, s->sides[i].id))
			continue;
		if (ex->why[i] == EXCUSE_DISORDER)
			crown_buf_printf(body, CROWN_DISORDER_KEY "%s (%d "
			    "turn%s in a row without orders, "
			    "game.missed_orders): its units held (R2.3).\n",
			    s->sides[i].id, ex->missed[i],
			    ex->missed[i] == 1 ? "" : "s");
		else if (ex->why[i] == EXCUSE_AWAY) {
			crown_cal_format_time(until, sizeof(until),
			    ex->until[i]);
			crown_buf_printf(body, "Away: every player of %s, "
			    "until %s: its units held (R2.3).\n",
			    s->sides[i].id, until);
		} else
			(*others)++;
	}
}

/* "Turn N: headline", whose orders, and how many events; that it was
 * played before deadline when not NULL (--force); caller frees. */
static char *
turn_message(const struct crown_turn *t, const struct crown_state *s,
    const struct excused *ex, const char *deadline)
{
	struct crown_buf	body = { 0 }, held = { 0 };
	char			*msg;
	size_t			i, others;

	crown_buf_puts(&body, "");
	crown_buf_puts(&held, "");
	excused_lines(&held, &others, t, s, ex);
	if (t->norders == 0)
		crown_buf_puts(&body, "No orders: every unit held (R2.3).\n");
	else {
		crown_buf_puts(&body, "Orders from");
		for (i = 0; i < t->norders; i++)
			crown_buf_printf(&body, "%s %s", i == 0 ? "" :
			    i + 1 == t->norders ? " and" : ",",
			    t->orders[i]->side);
		crown_buf_puts(&body, ".\n");
		if (others > 0)
			crown_buf_puts(&body, "The other sides had none "
			    "(--allow-missing): their units held (R2.3).\n");
	}
	crown_buf_add(&body, held.data, held.len);
	if (deadline != NULL)
		crown_buf_printf(&body, "The turn was played before its "
		    "deadline %s (--force).\n", deadline);
	crown_buf_printf(&body, "%zu events.\n", t->ev.n);
	msg = xasprintf("Turn %d: %s\n\n%s", t->turn, t->headline,
	    body.data);
	crown_buf_release(&held);
	crown_buf_release(&body);
	return msg;
}

/*
 * The reports as mailed: each side's with a paragraph first on the sides
 * in civil disorder, which the committed reports (crown verify draws them
 * again from the state and the events) do not carry.  NULL when no side
 * is; else *n buffers, caller frees.
 */
static struct crown_buf *
mailed_reports(const struct crown_turn *t, const struct crown_state *s,
    const struct excused *ex)
{
	struct crown_buf	 note = { 0 }, *v;
	size_t			 i;

	for (i = 0; i < s->nsides; i++)
		if (ex->why[i] == EXCUSE_DISORDER &&
		    !has_orders(t->orders, t->norders, s->sides[i].id))
			crown_buf_printf(&note, "**Civil disorder:** %s has "
			    "sent no orders for %d turn%s in a row: its units "
			    "held this turn (R2.3), and hold until a player "
			    "takes the side over.\n\n", s->sides[i].name,
			    ex->missed[i], ex->missed[i] == 1 ? "" : "s");
	if (note.len == 0 || t->nreports == 0)
		return NULL;
	v = xcalloc(t->nreports, sizeof(*v));
	for (i = 0; i < t->nreports; i++) {
		crown_buf_add(&v[i], note.data, note.len);
		crown_buf_add(&v[i], t->reports[i].data, t->reports[i].len);
	}
	crown_buf_release(&note);
	return v;
}

/* The turn committed on main, tagged, and each player's report as a
 * mail in the outbox (issue 12). */
static int
commit_turn(struct crown_taketurn *out, const struct crown_taketurn_input *in,
    const struct crown_campaign *camp, const struct crown_who *who,
    const struct excused *ex, struct crown_diags *d)
{
	const struct crown_chain *c = in->chain;
	const struct crown_turn	 *t = &out->t;
	struct crown_outputs	  files = { 0 }, mails = { 0 };
	struct crown_buf	 *reports;
	struct crown_advance	  step = { 0 };
	struct crown_tidy	  tidy;
	const char		 *head = c->l.v[c->tip].id;
	const char		 *work = crown_history_workdir(in->h);
	char			 *msg, *tag, *when, *done, **gone = NULL;
	size_t			  ngone = 0, i;
	int			  error;

	crown_play_files(&files, t, CROWN_PLAY_COMMIT);
	msg = turn_message(t, camp->state, ex, out->early ?
	    camp->state->deadline : NULL);
	reports = mailed_reports(t, camp->state, ex);
	when = xasprintf("@%lld", (long long)who->stamp.time);
	tag = xasprintf("turn-%d", t->turn);
	done = xasprintf("turn %d is committed", t->turn);
	error = crown_mail_turn_reports(&mails, t->after, camp->rules,
	    reports != NULL ? reports : t->reports, &t->map, when, NULL, d);
	for (i = 0; reports != NULL && i < t->nreports; i++)
		crown_buf_release(&reports[i]);
	free(reports);
	if (error != 0)
		goto cleanup;
	step.ref = CROWN_MAIN_REF;
	step.expect = head;
	step.parent = head;
	step.files = &files;
	step.message = msg;
	step.stamp = &who->stamp;
	step.tag.name = tag;
	step.tag.force = true;
	step.tree = CROWN_ADVANCE_FILES;
	/* removed after the commit: the pending orders played, and the
	 * work files the turn makes obsolete (tidy.h) */
	if (in->paths == NULL) {
		gone = xcalloc(out->npending + 1, sizeof(*gone));
		for (i = 0; i < out->npending; i++)
			gone[ngone++] = xstrdup(out->pending[i]);
	}
	crown_campaign_tidy(&tidy, work, t->turn, gone, ngone);
	crown_tidy_paths(&gone, &ngone, &tidy, work);
	crown_tidy_release(&tidy);
	step.pending = gone;
	step.npending = ngone;
	step.mails = &mails;
	step.done = done;
	step.dir = in->dir;
	error = crown_advance(out->id, in->h, &step, d);
cleanup:
	for (i = 0; i < ngone; i++)
		free(gone[i]);
	free(gone);
	free(done);
	free(tag);
	free(when);
	free(msg);
	crown_outputs_release(&mails);
	crown_outputs_release(&files);
	return error;
}

int
crown_campaign_turn_refuse(struct crown_campaign *start,
    struct crown_history *h, const struct crown_chain *c, const char *dir,
    struct crown_diags *d)
{
	struct crown_campaign	  camp = { 0 };
	const struct crown_state *s;
	char			 *label;
	int			  error;

	if (c->revealed) {
		crown_diag_add(d, dir, 0, 0, NULL, "the campaign secret was "
		    "revealed after turn %d: the game is over", c->last);
		return CROWN_EINVALID;
	}
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&camp, h, c->l.v[c->at[c->last]].id,
	    label, d)) != 0)
		goto cleanup;
	s = camp.state;
	if (s->turn != c->last) {
		crown_diag_add(d, label, 0, 0, NULL, "state.yaml says turn "
		    "%d, the commit says turn %d", s->turn, c->last);
		error = CROWN_EINVALID;
	} else if (s->last_turn > 0 && s->turn >= s->last_turn) {
		crown_diag_add(d, dir, 0, 0, NULL, "the game ended with turn "
		    "%d (game.last_turn)", s->last_turn);
		error = CROWN_EINVALID;
	}
cleanup:
	/* the start of the turn when no roster or deadline change came
	 * after the last turn */
	if (error == 0 && c->tip == c->at[c->last])
		*start = camp;
	else
		crown_campaign_release(&camp);
	free(label);
	return error;
}

int
crown_campaign_turn(struct crown_taketurn *out,
    const struct crown_taketurn_input *in, struct crown_diags *d)
{
	struct crown_campaign	camp = { 0 };
	struct crown_who	who = { 0 };
	struct excused		ex = { 0 };
	int			error;

	memset(out, 0, sizeof(*out));
	if ((error = load_start(&camp, in, d)) != 0)
		goto cleanup;
	/* a usage error (exit 2) before any problem of the orders */
	if ((error = crown_campaign_who(&who, in->umpire, in->date,
	    camp.state, d)) != 0)
		goto cleanup;
	/* the mail as crown inbox would read it when the turn is played */
	if (!in->ignore_unread && (error = unread_mail(in->dir, camp.state,
	    who.stamp.time, d)) != 0)
		goto cleanup;
	/* the files given leave the pending ones aside, said at the end */
	crown_campaign_pending(&out->pending, &out->npending,
	    crown_history_workdir(in->h));
	if (in->paths == NULL) {
		out->paths = (const char *const *)out->pending;
		out->npaths = out->npending;
	} else {
		out->paths = in->paths;
		out->npaths = in->npaths;
		out->ignored = (const char *const *)out->pending;
		out->nignored = out->npending;
	}
	excuse_sides(&ex, in, camp.state, who.stamp.time);
	if ((error = play_turn(out, in, &camp, who.stamp.time, &ex, d)) != 0 ||
	    in->dry_run)
		goto cleanup;
	error = commit_turn(out, in, &camp, &who, &ex, d);
cleanup:
	excused_release(&ex);
	crown_who_release(&who);
	crown_campaign_release(&camp);
	return error;
}

void
crown_taketurn_release(struct crown_taketurn *tt)
{
	size_t	i;

	crown_turn_release(&tt->t);
	for (i = 0; i < tt->npending; i++)
		free(tt->pending[i]);
	free(tt->pending);
	memset(tt, 0, sizeof(*tt));
}
