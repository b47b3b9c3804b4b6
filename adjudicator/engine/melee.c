/*
 * melee.c: the melee phase (R9.5-R9.9): one round of every melee in
 * progress, in the order of state->melees; melees start from charges
 * (charge.c) and end when one side is gone or after the last round.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/melee.h"
#include "crown/melees.h"
#include "crown/rout.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

/* One side of a melee as it fights a round (R9.7: as one unit). */
struct side {
	struct crown_unit	**u;		/* the caller frees */
	size_t			 n;
	const struct crown_unit	*rep;	/* whose modifiers count */
	int			 stands;	/* of all its units */
	int			 fighting;	/* stands, this round */
	int			 d;		/* its die */
	int			 score;
};

static void	load_side(struct crown_engine *, struct side *, char **ids,
		    size_t n);
static int	half_of(const struct crown_engine *, const char *side);
static void	roll_side(struct crown_engine *, size_t ev_i, struct side *,
		    const struct crown_melee *, bool attackers);
static int	inflict(struct crown_engine *, struct side *, int figures);
static char	*side_names(const struct side *);
static int	round_one(struct crown_engine *, size_t mi);
static int	part(struct crown_engine *, size_t mi);

/*
 * R9.7: the units of a side fight as one, with the modifiers of the one
 * with more figures; equal: the better (lower) melee modifier, then state
 * order.
 */
static void
load_side(struct crown_engine *e, struct side *sd, char **ids, size_t n)
{
	struct crown_unit	*u;
	size_t			 i;
	int			 f, bf;

	memset(sd, 0, sizeof(*sd));
	sd->u = xcalloc(n + 1, sizeof(*sd->u));
	for (i = 0; i < n; i++) {
		if ((u = crown_state_unit(e->s, ids[i])) == NULL)
			continue;
		sd->u[sd->n++] = u;
		sd->stands += crown_unit_stands(u);
		if (sd->rep == NULL) {
			sd->rep = u;
			continue;
		}
		f = crown_unit_figures(u);
		bf = crown_unit_figures(sd->rep);
		if (f > bf || (f == bf && e->rules->cls[u->cls].melee <
		    e->rules->cls[sd->rep->cls].melee) ||
		    (f == bf && e->rules->cls[u->cls].melee ==
		    e->rules->cls[sd->rep->cls].melee && u < sd->rep))
			sd->rep = u;
	}
	sd->fighting = sd->stands;
}

/* A side's place in the turn order: the attacker 0, then state order. */
static int
half_of(const struct crown_engine *e, const char *side)
{
	int	att = crown_state_side(e->s, e->s->attacker);
	int	i = crown_state_side(e->s, side);

	if (i == att)
		return 0;
	return i < att ? i + 1 : i;
}

/* R9.5, R9.9: one side's die and its modifiers. */
static void
roll_side(struct crown_engine *e, size_t ev_i, struct side *sd,
    const struct crown_melee *m, bool attackers)
{
	const struct crown_rules	*R = e->rules;
	const struct crown_unit		*u = sd->rep;
	struct crown_die_rec		*die;
	int				 d;

	d = crown_engine_roll_into(e, ev_i, u->id, "melee", R->melee_die);
	if (d < 0)
		return;
	sd->d = d;
	die = &crown_events_at(e->ev, ev_i)->dice[d];
	if (R->cls[u->cls].melee != 0) {
		if (sd->n > 1)
			crown_die_modf(die, R->cls[u->cls].melee, "R3.1",
			    "%s, the class of %s (R9.7)",
			    crown_class_names[u->cls], u->name);
		else
			crown_die_mod(die, crown_class_names[u->cls],
			    R->cls[u->cls].melee, "R3.1");
	}
	if (attackers && m->rounds == 0) {
		crown_die_mod(die, "charging", R->melee_charging, "R9.5");
		if (u->type == CROWN_CAVALRY && u->weapon == CROWN_LANCE)
			crown_die_mod(die, "lances, first round of the charge",
			    R->lance_first_round, "R9.9");
	}
	if (sd->fighting != 0)
		crown_die_modf(die, sd->fighting * R->melee_per_stand,
		    sd->fighting < sd->stands ? "R9.4" : "R9.5",
		    "%d stand%s fighting", sd->fighting,
		    sd->fighting == 1 ? "" : "s");
	if (u->disordered)
		crown_die_mod(die, "disordered", R->disorder_mod, "R3.7");
	if (u->rallied)
		crown_die_mod(die, "rallied once", R->rallied_dice_mod,
		    "R8.6");
	sd->score = die->score;
}

/*
 * R9.7: a side's loss split evenly among its units, the odd figures to
 * the larger units first (more figures; equal: state order).  Returns
 * the figures taken.
 */
static int
inflict(struct crown_engine *e, struct side *sd, int figures)
{
	struct crown_unit	**order, *t;
	struct crown_turn_unit	*tu;
	size_t			 i, j;
	int			 share, odd, k, taken = 0;

	order = xcalloc(sd->n + 1, sizeof(*order));
	for (i = 0; i < sd->n; i++)
		order[i] = sd->u[i];
	for (i = 1; i < sd->n; i++)
		for (j = i; j > 0; j--) {
			int fa = crown_unit_figures(order[j - 1]);
			int fb = crown_unit_figures(order[j]);

			if (fb > fa || (fb == fa && order[j] < order[j - 1])) {
				t = order[j];
				order[j] = order[j - 1];
				order[j - 1] = t;
			} else
				break;
		}
	share = sd->n > 0 ? figures / (int)sd->n : 0;
	odd = sd->n > 0 ? figures % (int)sd->n : 0;
	for (i = 0; i < sd->n; i++) {
		k = share + ((int)i < odd ? 1 : 0);
		tu = crown_engine_tu(e, order[i]);
		tu->lost_melee_round = true;
		if (k == 0)
			continue;
		k = crown_unit_take_casualties(order[i], k);
		tu->casualties_half += k;
		taken += k;
		crown_engine_unit_moved(e, order[i]);
	}
	free(order);
	return taken;
}

static char *
side_names(const struct side *sd)
{
	struct crown_buf	b = { 0 };
	size_t			i;

	crown_buf_puts(&b, "");
	for (i = 0; i < sd->n; i++)
		crown_buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == sd->n ?
		    " and " : ", ", sd->u[i]->name);
	return b.data;
}

/* One round (R9.5) of melee mi; after the last, the sides part (R9.8). */
static int
round_one(struct crown_engine *e, size_t mi)
{
	const struct crown_rules	*R = e->rules;
	struct crown_melee		*m = &e->s->melees[mi];
	struct side			 A, D, *first, *second, *win, *lose;
	struct crown_event		*ev;
	struct crown_buf		 b = { 0 };
	struct crown_die_rec		*die;
	char				*an, *dn, *wn, *ln;
	size_t				 ev_i, k, n;
	int				 diff, cap, per, taken, round;
	bool				 rear;

	load_side(e, &A, m->attackers, m->nattackers);
	load_side(e, &D, m->defenders, m->ndefenders);
	if (A.n == 0 || D.n == 0)
		goto cleanup;
	round = m->rounds + 1;
	/* R9.4: taken in the flank, the defender's first round is fought
	 * by the stands in contact */
	if (m->attack == CROWN_FLANK && m->rounds == 0 &&
	    D.fighting > R->melee_flank_first_stands)
		D.fighting = R->melee_flank_first_stands;
	ev_i = crown_engine_event(e, "melee", A.rep->id, "R9.5");
	crown_event_set(&crown_events_at(e->ev, ev_i)->target, "%s",
	    D.rep->id);
	/* FORMATS.md: the phasing side rolls first */
	first = strcmp(D.rep->side, e->phasing) == 0 ? &D : &A;
	second = first == &A ? &D : &A;
	roll_side(e, ev_i, first, m, first == &A);
	roll_side(e, ev_i, second, m, second == &A);
	if (e->error != 0)
		goto cleanup;

	an = side_names(&A);
	dn = side_names(&D);
	ev = crown_events_at(e->ev, ev_i);
	crown_buf_printf(&b, "Melee, round %d of %d, %s against %s (%s "
	    "attack): ", round, R->melee_max_rounds, an, dn,
	    crown_attack_names[m->attack]);
	for (k = 0; k < 2; k++) {
		struct side *sd = k == 0 ? &A : &D;
		size_t j;

		die = &ev->dice[sd->d];
		crown_buf_printf(&b, "%s%s rolled %d", k ? "; " : "",
		    k == 0 ? "the attackers" : "the defenders", die->roll);
		for (j = 0; j < die->nmods; j++)
			crown_buf_printf(&b, ", %s %+d", die->mods[j].name,
			    die->mods[j].value);
		crown_buf_printf(&b, ", score %d", die->score);
	}
	ev->has_casualties = true;
	ev->casualties = 0;
	if (A.score == D.score) {
		crown_event_set(&ev->result, "drawn");
		crown_buf_printf(&b, ". Equal scores: no loss.");
	} else {
		win = A.score < D.score ? &A : &D;
		lose = win == &A ? &D : &A;
		diff = lose->score - win->score;
		/* R9.5: at most the winner's stands, two each if it charged
		 * the loser's rear that turn (the round of the charge, or
		 * the next if that falls in the same game turn) */
		rear = win == &A && m->attack == CROWN_REAR &&
		    (m->rounds == 0 || (m->rounds == 1 &&
		    e->half > half_of(e, A.rep->side)));
		per = rear ? R->melee_rear_cap_per_stand :
		    R->melee_cap_per_stand;
		cap = win->stands * per;
		wn = win == &A ? an : dn;
		ln = win == &A ? dn : an;
		crown_event_set(&ev->result, win == &A ? "attackers_win" :
		    "defenders_win");
		crown_buf_printf(&b, ". %s win%s by %d", wn,
		    win->n == 1 ? "s" : "", diff);
		if (diff > cap) {
			crown_buf_printf(&b, " but can inflict only %d (%d "
			    "per stand%s)", cap, per, rear ?
			    ", charged in the rear" : "");
			diff = cap;
		}
		taken = inflict(e, lose, diff);
		if (lose == &A)
			m->attacker_losses += taken;
		else
			m->defender_losses += taken;
		ev = crown_events_at(e->ev, ev_i);
		ev->casualties = taken;
		crown_buf_printf(&b, ": %s lose%s %d figure%s.", ln,
		    lose->n == 1 ? "s" : "", taken, taken == 1 ? "" : "s");
	}
	free(ev->text);
	ev->text = b.data;
	free(an);
	free(dn);
	m->rounds++;
	/* the melee's fallen */
	for (k = 0; k < A.n + D.n; k++) {
		struct crown_unit *u = k < A.n ? A.u[k] : D.u[k - A.n];

		if (u->status == CROWN_LOST) {
			ev_i = crown_engine_event(e, "lost", u->id, "R1.3");
			crown_event_set(&crown_events_at(e->ev, ev_i)->text,
			    "%s has no stand left and is lost.", u->name);
		}
	}
	n = e->s->nmelees;
	crown_melee_prune(e, mi);
	/* R9.8: still going after the last round: the sides part */
	if (e->s->nmelees == n && m->rounds >= R->melee_max_rounds)
		part(e, mi);
cleanup:
	free(A.u);
	free(D.u);
	return e->error;
}

/* R9.8: after the last round both sides part; the side that lost more
 * figures retires one move (equal: the attackers). */
static int
part(struct crown_engine *e, size_t mi)
{
	struct crown_melee	*m = &e->s->melees[mi];
	struct crown_unit	*u;
	char			**ids, *why;
	size_t			  n, i;
	bool			  att;

	att = m->attacker_losses >= m->defender_losses;
	why = xasprintf("the melee ended after %d rounds, the attackers "
	    "having lost %d figures and the defenders %d (R9.8)", m->rounds,
	    m->attacker_losses, m->defender_losses);
	/* take the ids out of the melee first: retiring leaves it */
	ids = att ? m->attackers : m->defenders;
	n = att ? m->nattackers : m->ndefenders;
	if (att) {
		m->attackers = NULL;
		m->nattackers = 0;
	} else {
		m->defenders = NULL;
		m->ndefenders = 0;
	}
	crown_melee_remove(e->s, mi);
	for (i = 0; i < n; i++) {
		u = crown_state_unit(e->s, ids[i]);
		if (u != NULL && u->status == CROWN_OK_STATUS &&
		    e->error == 0)
			crown_retire(e, u, e->rules->melee_part_moves,
			    "R9.8", why);
		free(ids[i]);
	}
	free(ids);
	free(why);
	return e->error;
}

int
crown_melee_phase(struct crown_engine *e)
{
	size_t	i, n;

	e->phase = CROWN_PHASE_MELEE;
	/* in list order; a melee that ends is taken out of the list */
	for (i = 0; i < e->s->nmelees && e->error == 0;) {
		n = e->s->nmelees;
		crown_melee_prune(e, i);
		if (e->s->nmelees < n)
			continue;
		if (round_one(e, i) != 0)
			break;
		if (e->s->nmelees == n)
			i++;
	}
	return e->error;
}
