/*
 * attendance.c: what the history says of absences and missed orders
 * (doc/umpire.md, "Absences and civil disorder"): the deadline an
 * absence moves (game.absence: extend), the turns in a row each side
 * played without orders (game.missed_orders), and who held each side
 * for which turns (crown log).  Nothing here is stored: each is worked
 * out from the committed states and orders.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crown/absence.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/xalloc.h"

/* The state of commit id, or NULL (problems kept quiet). */
static struct crown_state *
state_at(struct crown_history *h, const char *id)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_state	*s = NULL;

	if (crown_history_read(&b, h, id, CROWN_CAMPAIGN_STATE, &quiet) != 0 ||
	    crown_state_parse(&s, CROWN_CAMPAIGN_STATE, b.data, b.len,
	    &quiet) != 0)
		s = NULL;
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	return s;
}

/*
 * The deadline as the last turn or crown deadline set it, before any
 * absence moved it: of the newest commit from c's tip back to its last
 * turn that is that turn or a "Deadline: ..." change; -1 for none.
 */
static long long
set_deadline(struct crown_history *h, const struct crown_chain *c)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 b = { 0 };
	size_t			 i = c->tip;
	char			*dl;
	long long		 t = -1;

	while (i > c->at[c->last] &&
	    strncmp(c->l.v[i].subject, "Deadline: ", 10) != 0)
		i--;
	if (crown_history_read(&b, h, c->l.v[i].id, CROWN_CAMPAIGN_STATE,
	    &quiet) == 0 && (dl = crown_state_deadline_of(b.data, b.len)) !=
	    NULL) {
		if (crown_cal_parse_time(&t, dl) != 0)
			t = -1;
		free(dl);
	}
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	return t;
}

int
crown_campaign_absence_deadline(char **why, struct crown_state *s,
    struct crown_history *h, const struct crown_chain *c, long long now)
{
	char		 from[CROWN_CAL_TIME_LEN], to[CROWN_CAL_TIME_LEN];
	char		 back[CROWN_CAL_TIME_LEN], set[CROWN_CAL_TIME_LEN];
	long long	 dl, base, cap, until, want, best = -1;
	size_t		 i, side = 0;

	*why = NULL;
	for (i = 0; i < s->nsides; i++) {
		if (!crown_side_away(&s->sides[i], now, &until))
			continue;
		if (best < 0 || until > best) {
			best = until;
			side = i;
		}
	}
	if (best < 0)
		return 0;
	crown_cal_format_time(back, sizeof(back), best);
	if (s->absence == CROWN_ABSENCE_HOLD) {
		*why = xasprintf("Every player of %s is away until %s: the "
		    "deadline stays (game.absence: hold), and the units of %s "
		    "hold (R2.3) in the turns played while they are away.",
		    s->sides[side].id, back, s->sides[side].id);
		return 0;
	}
	if (s->deadline == NULL || crown_cal_parse_time(&dl, s->deadline) !=
	    0) {
		*why = xasprintf("Every player of %s is away until %s; there "
		    "is no deadline to move.", s->sides[side].id, back);
		return 0;
	}
	if ((base = set_deadline(h, c)) < 0)
		base = dl;
	cap = base + crown_state_max_absence(s);
	want = best < cap ? best : cap;
	crown_cal_format_time(from, sizeof(from), dl);
	if (want <= dl) {
		*why = xasprintf("Every player of %s is away until %s; the "
		    "deadline, %s, stays%s.", s->sides[side].id, back, from,
		    best > dl ? " (it was moved as far as game.max_absence "
		    "lets it)" : "");
		return 0;
	}
	crown_cal_format_time(to, sizeof(to), want);
	crown_cal_format_time(set, sizeof(set), base);
	*why = xasprintf("The deadline moves from %s to %s because every "
	    "player of %s is away until %s (game.absence: extend, by at most "
	    "%s after the deadline set, %s).", from, to, s->sides[side].id,
	    back, s->max_absence != NULL ? s->max_absence :
	    CROWN_MAX_ABSENCE_DEFAULT, set);
	free(s->deadline);
	s->deadline = xstrdup(to);
	return 1;
}

/* Are the players of now all among those of then (by address)? */
static bool
players_within(const struct crown_side *now, const struct crown_side *then)
{
	size_t	i, j;

	for (i = 0; i < now->nplayers; i++) {
		for (j = 0; j < then->nplayers; j++)
			if (now->players[i].email != NULL &&
			    then->players[j].email != NULL &&
			    strcasecmp(now->players[i].email,
			    then->players[j].email) == 0)
				break;
		if (j == then->nplayers)
			return false;
	}
	return true;
}

/* Did turn t's commit id hold orders of side? */
static bool
had_orders(struct crown_history *h, const char *id, int t, const char *side)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 b = { 0 };
	char			*dir, *p;
	int			 error;

	dir = crown_campaign_orders_dir(t);
	p = xasprintf("%s/%s.yaml", dir, side);
	error = crown_history_read(&b, h, id, p, &quiet);
	free(p);
	free(dir);
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	return error == 0;
}

void
crown_campaign_missed(int *missed, struct crown_history *h,
    const struct crown_chain *c, const struct crown_state *now)
{
	const struct crown_hcommit *hc;
	struct crown_state	*then;
	bool			*open;
	size_t			 i, left = now->nsides;
	int			 t, k;

	memset(missed, 0, now->nsides * sizeof(*missed));
	if (now->missed_limit <= 0 || now->nsides == 0)
		return;
	open = xcalloc(now->nsides, sizeof(*open));
	for (i = 0; i < now->nsides; i++)
		open[i] = true;
	/* back from the last turn while a side has missed each, by the
	 * players it has now, to the limit: what is further back does not
	 * change whether it is in civil disorder */
	for (t = c->last; t > 0 && left > 0; t--) {
		hc = &c->l.v[c->at[t]];
		if ((then = state_at(h, hc->id)) == NULL)
			break;
		for (i = 0; i < now->nsides; i++) {
			if (!open[i])
				continue;
			k = crown_state_side(then, now->sides[i].id);
			if (k < 0 || !players_within(&now->sides[i],
			    &then->sides[k]) ||
			    had_orders(h, hc->id, t, now->sides[i].id) ||
			    crown_side_away(&then->sides[k], hc->time, NULL) ||
			    ++missed[i] >= now->missed_limit) {
				open[i] = false;
				left--;
			}
		}
		crown_state_free(then);
	}
	free(open);
}

/* The names of sd's players, "A and B", or "no player", into b. */
static void
names(struct crown_buf *b, const struct crown_side *sd)
{
	size_t	j;

	if (sd->nplayers == 0)
		crown_buf_puts(b, "no player");
	for (j = 0; j < sd->nplayers; j++)
		crown_buf_printf(b, "%s%s", j == 0 ? "" : j + 1 == sd->nplayers
		    ? " and " : ", ", sd->players[j].name != NULL ?
		    sd->players[j].name : sd->players[j].email);
}

/* Have sides a and b the same players (by address, in any order)? */
static bool
same_players(const struct crown_side *a, const struct crown_side *b)
{
	return a->nplayers == b->nplayers && players_within(a, b);
}

/* Side id of s, or NULL. */
static const struct crown_side *
side_of(const struct crown_state *s, const char *id)
{
	int	k = crown_state_side(s, id);

	return k >= 0 ? &s->sides[k] : NULL;
}

int
crown_campaign_tenure(struct crown_buf *out, struct crown_history *h,
    const struct crown_chain *c)
{
	const struct crown_side	 *cur, *nx;
	struct crown_state	**held;	/* the states whose players held */
	int			 *from;	/* from that turn on */
	size_t			  n = 0, i, k;
	int			  turn = 0, changed = 0, curfrom;
	bool			  first;

	held = xcalloc(c->l.n, sizeof(*held));
	from = xcalloc(c->l.n, sizeof(*from));
	/* the players change only in "Roster: ..." commits (amend.c):
	 * those and turn 0 are the states to read */
	for (i = 0; i < c->l.n; i++) {
		if (crown_campaign_subject_turn(c->l.v[i].subject) > 0)
			turn++;
		if (i != 0 && strncmp(c->l.v[i].subject, "Roster: ", 8) != 0)
			continue;
		if ((held[n] = state_at(h, c->l.v[i].id)) == NULL)
			continue;
		from[n++] = turn + 1;
	}
	for (k = 0; n > 0 && k < held[0]->nsides; k++) {
		crown_buf_printf(out, "  %s: ", held[0]->sides[k].id);
		cur = &held[0]->sides[k];
		curfrom = from[0];
		first = true;
		for (i = 1; i <= n; i++) {
			nx = i < n ? side_of(held[i], cur->id) : NULL;
			if (i < n && (nx == NULL || same_players(nx, cur)))
				continue;
			/* cur's players held from curfrom to the turn before
			 * held[i]'s, if any turn */
			if (i == n || from[i] > curfrom) {
				crown_buf_puts(out, first ? "" : ", ");
				names(out, cur);
				if (i < n)
					crown_buf_printf(out, " (turns %d-%d)",
					    curfrom, from[i] - 1);
				else
					crown_buf_printf(out, " (turns %d-)",
					    curfrom);
				first = false;
			}
			if (i < n) {
				cur = nx;
				curfrom = from[i];
				changed = 1;
			}
		}
		crown_buf_puts(out, "\n");
	}
	for (i = 0; i < n; i++)
		crown_state_free(held[i]);
	free(held);
	free(from);
	return changed;
}
