/*
 * fire.c: small-arms fire (R5), fire at detached leaders (R10.4) and the
 * reaction fire of a charged unit (R9.2).  What artillery.c shares with
 * it (targets, range, arc, sight, cover, modifiers, casualties) is in
 * firing.c.
 *
 * Choices where RULES.md is silent:
 * - the line of fire (R5.5 walls, R5.6 sight) runs from the firer's
 *   front-edge centre to the target's: a leader's position, or the mean
 *   of a building's corners;
 * - "the buildings they occupy" are those holding either end of that line
 *   or either unit's centre;
 * - a detached leader is shot at in rules->leader_fire_band, or in the
 *   weapon's farthest band when it has no such band, but only if he is
 *   within its reach at all;
 * - a unit firing at the nearest enemy (R2.3) passes over enemies locked
 *   in a melee; with nobody in range, arc and sight it holds (a `hold`
 *   event) and stays loaded;
 * - reaction fire (R9.2) comes in the enemy's half-turn and costs no
 *   action; it needs the firer loaded and the charger in its arc, not a
 *   clear line of sight (the charger is coming on), and unloads it like
 *   any fire.  A weapon without the band the test named does not fire.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/artillery.h"
#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/fire.h"
#include "crown/firing.h"
#include "crown/spatial.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

static bool	 in_melee(const struct crown_state *, const char *);
static bool	 ready(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);
static bool	 over_budget(struct crown_engine *, const struct crown_unit *,
		    const struct crown_action_order *);
static char	*reach_text(const struct crown_unit *,
		    const struct crown_fire_target *, const struct crown_band *,
		    double, bool *);
static enum crown_band_name leader_band(const struct crown_rules *,
		    const struct crown_band *);
static int	 fire_at(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *,
		    struct crown_fire_target *);
static int	 fire_at_will(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);
static int	 one_in(struct crown_engine *, const struct crown_unit *,
		    const char **);
static const char *band_words(char *, size_t, const struct crown_unit *,
		    enum crown_band_name);
static int	 shoot(struct crown_engine *, struct crown_unit *,
		    struct crown_fire_target *, double, enum crown_band_name,
		    const char *, const char *, const char *);


static bool
in_melee(const struct crown_state *s, const char *id)
{
	const struct crown_melee	*m;
	size_t				 i, j;

	for (i = 0; i < s->nmelees; i++) {
		m = &s->melees[i];
		for (j = 0; j < m->nattackers; j++)
			if (strcmp(m->attackers[j], id) == 0)
				return true;
		for (j = 0; j < m->ndefenders; j++)
			if (strcmp(m->defenders[j], id) == 0)
				return true;
	}
	return false;
}


/*
 * Small arms (R5.1-R5.4).
 */

/* R5.2: one stand in how many fires, and why. */
static int
one_in(struct crown_engine *e, const struct crown_unit *u, const char **why)
{
	const struct crown_rules	*rules = e->rules;
	int				 n = 1;

	*why = NULL;
	if (crown_is_artillery(u->type))
		return 1;
	if (crown_engine_tu(e, u)->moved_this_half &&
	    rules->fire_moved_one_in > n) {
		n = rules->fire_moved_one_in;
		*why = "it moved earlier this half-turn";
	}
	if (u->type == CROWN_CAVALRY && rules->fire_cavalry_one_in > n) {
		n = rules->fire_cavalry_one_in;
		*why = "mounted cavalry";
	}
	if (u->formation == CROWN_COLUMN && rules->fire_column_one_in > n) {
		n = rules->fire_column_one_in;
		*why = "in column";
	}
	return n;
}

static int
shoot(struct crown_engine *e, struct crown_unit *u,
    struct crown_fire_target *t, double range, enum crown_band_name b,
    const char *kind, const char *rule, const char *numbers)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*band = &rules->weapon[u->weapon][b];
	struct crown_fire_mods		 mods;
	struct crown_die_rec		*r;
	struct crown_event		*ev;
	struct crown_buf		 rolls = { 0 }, scores = { 0 };
	const char			*why;
	char				*mtext = NULL, *ctext = NULL;
	char				*head = NULL, *frac = NULL;
	size_t				 ev_i, i;
	int				 nst, nfire, div, k = 0, hits = 0;
	int				 taken = 0, lost = 0, di, killed = 0;

	nst = crown_unit_stands(u);
	div = one_in(e, u, &why);
	nfire = (nst + div - 1) / div;			/* R5.2: round up */
	crown_fire_mods_collect(&mods, e, u, t, false);
	ev_i = crown_engine_event(e, kind, u->id, rule);
	ev = crown_events_at(e->ev, ev_i);
	crown_fire_event_shot(ev, u, t, range, crown_fire_band_names[b]);
	crown_buf_puts(&rolls, "");
	crown_buf_puts(&scores, "");
	for (i = 0; i < u->nstands && k < nfire; i++) {
		if (u->stands[i] <= 0)
			continue;
		k++;
		/* FORMATS.md: stand by stand, first stand first */
		di = crown_engine_roll_into(e, ev_i, u->id, "fire",
		    e->rules->fire_die);
		if (di < 0)
			goto out;
		r = &crown_events_at(e->ev, ev_i)->dice[di];
		r->who = xasprintf("stand %zu", i + 1);
		crown_fire_mods_apply(&mods, r);
		if (r->score <= band->hit)		/* R5.1 */
			hits++;
		crown_buf_printf(&rolls, "%s%d", k > 1 ? ", " : "", r->roll);
		crown_buf_printf(&scores, "%s%d", k > 1 ? ", " : "",
		    r->score);
	}
	crown_fire_unload(rules, u);
	crown_engine_tu(e, u)->fired = true;
	if (t->kind == CROWN_AT_UNIT)
		taken = crown_fire_casualties(e, t->unit, hits, false, &lost);
	else if (t->kind == CROWN_AT_LEADER &&
	    (killed = crown_fire_leader_hits(e, ev_i, t->leader, hits)) < 0)
		goto out;
	mtext = crown_fire_mods_text(&mods);
	if (div > 1)
		frac = xasprintf("%d of %d stands (one in %d: %s, R5.2)",
		    nfire, nst, div, why);
	else
		frac = xasprintf("%d stand%s", nfire, nfire == 1 ? "" : "s");
	if (numbers != NULL)
		head = xasprintf("%s fired at the charging %s at %.2f inches, "
		    "%s,", u->name, t->name, range, numbers);
	else
		head = xasprintf("%s fired at %s at %.2f inches (%s range)",
		    u->name, t->name, range, crown_fire_band_names[b]);
	ev = crown_events_at(e->ev, ev_i);
	ev->has_casualties = true;
	if (t->kind == CROWN_AT_LEADER) {
		ev->casualties = killed;
		crown_event_set(&ev->result, killed ? "killed" : "missed");
		crown_event_set(&ev->text, "%s with %s, %s: rolled %s, "
		    "scored %s needing %d or less: %d hit%s on his stand; %s.",
		    head, frac, mtext, rolls.data, scores.data, band->hit,
		    hits, hits == 1 ? "" : "s", killed ? "he was killed" :
		    "he survived");
	} else {
		ev->casualties = taken;
		ctext = crown_fire_casualty_text(taken, lost);
		crown_event_set(&ev->text, "%s with %s, %s: rolled %s, "
		    "scored %s needing %d or less: %s.", head, frac, mtext,
		    rolls.data, scores.data, band->hit, ctext);
	}
out:
	free(ctext);
	free(head);
	free(frac);
	free(mtext);
	crown_buf_release(&rolls);
	crown_buf_release(&scores);
	crown_fire_mods_release(&mods);
	return e->error;
}

/*
 * Orders.
 */

/* R3.5: with too few crew every action costs double; the fire order may
 * have come to lie beyond the budget since the orders were checked. */
static bool
over_budget(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_orders	*o;
	const struct crown_unit_orders	*uo;
	size_t				 i, j;
	int				 spent;

	if (!crown_unit_undercrewed(rules, u) ||
	    (o = crown_engine_side_orders(e, u->side)) == NULL)
		return false;
	for (i = 0; i < o->nunits; i++) {
		uo = &o->units[i];
		if (uo->unit == NULL || strcmp(uo->unit, u->id) != 0)
			continue;
		spent = 0;
		for (j = 0; j < uo->nactions; j++) {
			if (uo->actions[j].kind >= CROWN_NACTION)
				continue;
			spent += crown_action_cost(rules, u,
			    uo->actions[j].kind);
			if (&uo->actions[j] == a)
				return spent > rules->cls[u->cls].actions;
		}
	}
	return false;
}

/* Can u fire at all now?  If not, the order is skipped (R2.2). */
static bool
ready(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	if (crown_is_artillery(u->type) && u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "%s is limbered and cannot "
		    "fire", u->name);
		return false;
	}
	if (!crown_unit_can_fire(e->rules, u)) {
		crown_engine_skip(e, u, a, "R5.3", "%s has no weapon that "
		    "fires (%s)", u->name, u->type == CROWN_WAGON ? "wagon" :
		    crown_weapon_names[u->weapon]);
		return false;
	}
	if (!u->loaded) {
		crown_engine_skip(e, u, a, "R3.6", "%s is not loaded%s",
		    u->name, u->weapon == CROWN_REPEATING_RIFLE &&
		    !crown_is_artillery(u->type) ? " (its repeaters are "
		    "empty)" : "");
		return false;
	}
	if (crown_is_artillery(u->type) && over_budget(e, u, a)) {
		crown_engine_skip(e, u, a, "R3.5", "with only %d crew every "
		    "action of %s costs double, and this one is over its "
		    "budget", crown_unit_figures(u), u->name);
		return false;
	}
	return true;
}

/*
 * "b0 is 24.00 inches away, out of range: its rifled musket reaches 18.00
 * inches", or why it is too close (then *close is set): the reason a
 * shot was not fired; caller frees.
 */
static char *
reach_text(const struct crown_unit *u, const struct crown_fire_target *t,
    const struct crown_band *bands, double range, bool *close)
{
	char	*weapon, *out;
	double	 lo = -1, hi = 0;
	int	 b;

	for (b = 0; b < CROWN_NBAND; b++) {
		if (!bands[b].present)
			continue;
		if (lo < 0)
			lo = bands[b].min;
		hi = bands[b].max;
	}
	*close = lo > 0 && range <= lo;
	weapon = crown_words_dup(crown_is_artillery(u->type) ?
	    crown_gun_names[u->gun] : crown_weapon_names[u->weapon]);
	if (*close)
		out = xasprintf("%s is %.2f inches away, too close: its %s "
		    "fires only beyond %.2f inches", t->name, range, weapon,
		    lo);
	else
		out = xasprintf("%s is %.2f inches away, out of range: its %s "
		    "reaches %.2f inches", t->name, range, weapon, hi);
	free(weapon);
	return out;
}

/* R10.4: the band fire at a detached leader counts as. */
static enum crown_band_name
leader_band(const struct crown_rules *rules, const struct crown_band *bands)
{
	int	b;

	if (bands[rules->leader_fire_band].present)
		return rules->leader_fire_band;
	for (b = CROWN_NBAND - 1; b > 0; b--)
		if (bands[b].present)
			break;
	return (enum crown_band_name)b;
}

static int
fire_at(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a, struct crown_fire_target *t)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*bands;
	enum crown_band_name		 b;
	double				 range;
	char				*why = NULL;
	bool				 art = crown_is_artillery(u->type);
	bool				 close;
	struct crown_event		*ev;

	bands = crown_unit_bands(rules, u);
	range = crown_fire_range(rules, u, t);
	b = crown_rules_band(bands, range);		/* R13.1 */
	if (b == CROWN_NBAND) {
		why = reach_text(u, t, bands, range, &close);
		/* the distance and which side of the bands it fell, for a
		 * reader who needs only that (a side's report) */
		ev = crown_events_at(e->ev, crown_engine_skip_why(e, u, a,
		    art ? "R6.2" : "R5.3", why));
		ev->has_range = true;
		ev->range = range;
		ev->band = xstrdup(close ? "too close" : "out of range");
		return e->error;
	}
	if (t->kind == CROWN_AT_LEADER)
		b = leader_band(rules, bands);
	if (!crown_fire_in_arc(rules, u, t)) {
		crown_engine_skip(e, u, a, "R5.6", "%s is not ahead of its "
		    "front edge", t->name);
		return e->error;
	}
	if (!crown_fire_sight(&why, e, u, t)) {
		crown_engine_skip(e, u, a, "R5.6", "it cannot see %s: %s",
		    t->name, why);
		free(why);
		return e->error;
	}
	if (art)
		return crown_artillery_shoot(e, u, t, range, b,
		    "artillery_fire", t->kind == CROWN_AT_LEADER ? "R10.4" :
		    "R6.2", NULL);
	return shoot(e, u, t, range, b, "fire",
	    t->kind == CROWN_AT_LEADER ? "R10.4" : "R5.1", NULL);
}

/* R2.3: fire at the nearest enemy in range, arc and sight, else hold. */
static int
fire_at_will(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*bands;
	struct crown_fire_target	 t;
	struct crown_unit		*o, *best = NULL;
	struct crown_event		*ev;
	struct crown_geom_box		 box;
	struct crown_quad		 q;
	const size_t			*near;
	size_t				*cand;
	double				 range, best_range = 0, reach = 0;
	char				*why;
	size_t				 i, n, ev_i;
	int				 b;

	bands = crown_unit_bands(rules, u);
	for (b = 0; b < CROWN_NBAND; b++)
		if (bands[b].present && bands[b].max > reach)
			reach = bands[b].max;
	/* the units within reach, in state order (copied: sight queries
	 * the index again) */
	crown_unit_footprint(&q, rules, u);
	box = crown_geom_bounds(q.c, 4);
	n = crown_engine_units_near(e, &box, reach, &near);
	cand = xreallocarray(NULL, n ? n : 1, sizeof(*cand));
	if (n > 0)
		memcpy(cand, near, n * sizeof(*cand));
	for (i = 0; i < n; i++) {
		o = &e->s->units[cand[i]];
		if (o == u || o->status == CROWN_LOST || o->nstands == 0 ||
		    strcmp(o->side, u->side) == 0 || in_melee(e->s, o->id))
			continue;
		crown_fire_target_unit(&t, rules, o);
		range = crown_fire_range(rules, u, &t);
		/* ties: the first in state order */
		if (best != NULL && range >= best_range)
			continue;
		if (crown_rules_band(bands, range) == CROWN_NBAND ||
		    !crown_fire_in_arc(rules, u, &t))
			continue;
		if (!crown_fire_sight(&why, e, u, &t)) {
			free(why);
			continue;
		}
		best = o;
		best_range = range;
	}
	free(cand);
	if (best == NULL) {
		ev_i = crown_engine_event(e, "hold", u->id, "R2.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "no_target");
		crown_event_set(&ev->text, "%s held its fire: no enemy was in "
		    "range, ahead of it and in sight.", u->name);
		return e->error;
	}
	crown_fire_target_unit(&t, rules, best);
	return fire_at(e, u, a, &t);
}

int
crown_action_fire(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_fire_target	 t;
	struct crown_unit		*tu;
	struct crown_leader		*ld;
	struct crown_feature		*f;
	struct crown_event		*ev;
	size_t				 ev_i;

	if (e->error != 0)
		return e->error;
	/* R2.3: a wagon, lancers or a limbered gun simply hold */
	if (a->target == NULL && (!crown_unit_can_fire(e->rules, u) ||
	    (crown_is_artillery(u->type) && u->limbered))) {
		ev_i = crown_engine_event(e, "hold", u->id, "R2.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "cannot_fire");
		crown_event_set(&ev->text, "%s held its ground.", u->name);
		return e->error;
	}
	if (!ready(e, u, a))
		return e->error;
	if (a->target == NULL)
		return fire_at_will(e, u, a);
	if (a->target_building) {
		if ((f = crown_state_building(e->s, a->target)) == NULL ||
		    !crown_is_artillery(u->type)) {
			crown_engine_skip(e, u, a, "R11.2", "only a gun can "
			    "fire at building '%s'", a->target);
			return e->error;
		}
		return crown_artillery_building(e, u, a, f);
	}
	if ((tu = crown_state_unit(e->s, a->target)) != NULL) {
		if (tu->status == CROWN_LOST || tu->nstands == 0) {
			crown_engine_skip(e, u, a, "R2.2", "%s is %s",
			    tu->name, tu->abandoned ? "an abandoned gun" :
			    "lost");
			return e->error;
		}
		if (strcmp(tu->side, u->side) == 0) {
			crown_engine_skip(e, u, a, "R5.1", "%s is of its own "
			    "side", tu->name);
			return e->error;
		}
		crown_fire_target_unit(&t, e->rules, tu);
	} else if ((ld = crown_state_leader(e->s, a->target)) != NULL) {
		if (ld->status != CROWN_LEADER_OK) {
			crown_engine_skip(e, u, a, "R2.2", "%s was %s",
			    ld->name, crown_leader_status_names[ld->status]);
			return e->error;
		}
		if (ld->attached != NULL) {
			crown_engine_skip(e, u, a, "R10.4", "%s is with '%s' "
			    "now: fire at the unit", ld->name, ld->attached);
			return e->error;
		}
		if (strcmp(ld->side, u->side) == 0) {
			crown_engine_skip(e, u, a, "R10.4", "%s is of its own "
			    "side", ld->name);
			return e->error;
		}
		crown_fire_target_leader(&t, ld);
	} else {
		crown_engine_skip(e, u, a, "R2.2", "there is no '%s' to fire "
		    "at", a->target);
		return e->error;
	}
	return fire_at(e, u, a, &t);
}

/* "close range", "canister": band b of u (a valid band) as a sentence
 * names it, into buf. */
static const char *
band_words(char *buf, size_t len, const struct crown_unit *u,
    enum crown_band_name b)
{
	snprintf(buf, len, "%s%s", crown_fire_band_name(u, b),
	    crown_is_artillery(u->type) && b == CROWN_BAND_CLOSE ? "" :
	    " range");
	return buf;
}

int
crown_fire_reaction(struct crown_engine *e, struct crown_unit *u,
    struct crown_unit *target, enum crown_band_name band,
    enum crown_band_name allowed, const struct crown_quad *at,
    struct crown_point pos, const char *when)
{
	const struct crown_rules	*rules = e->rules;
	struct crown_fire_target	 t;
	struct crown_event		*ev;
	const char			*rule = NULL;
	char				*why = NULL, *numbers;
	char				 bw[32], bw2[32];
	size_t				 ev_i;

	if (e->error != 0)
		return e->error;
	crown_fire_target_unit(&t, rules, target);
	/* R9.2: the charger where the volley met it, not where it ended */
	memcpy(t.shape, at->c, sizeof(t.shape));
	t.aim = pos;
	/* R9.2: only a loaded unit with the charger in its arc fires */
	if (u->status != CROWN_OK_STATUS) {
		rule = "R8.2";
		why = xasprintf("it is %s", crown_status_names[u->status]);
	} else if (crown_is_artillery(u->type) && u->limbered) {
		rule = "R6.6";
		why = xstrdup("it is limbered");
	} else if (!crown_unit_can_fire(rules, u)) {
		rule = "R5.3";
		why = xstrdup("it has no weapon that fires");
	} else if (!u->loaded) {
		rule = "R3.6";
		why = xstrdup("it is not loaded");
	} else if (band == CROWN_NBAND) {
		rule = "R9.2";
		why = xasprintf("%s ended its charge out of its range",
		    target->name);
	} else if ((int)band < 0 || band > CROWN_NBAND ||
	    !crown_unit_bands(rules, u)[band].present) {
		rule = crown_is_artillery(u->type) ? "R6.2" : "R5.3";
		why = xasprintf("its %s has no %s range",
		    crown_is_artillery(u->type) ? crown_gun_names[u->gun] :
		    crown_weapon_names[u->weapon],
		    crown_fire_band_name(u, band));
	} else if (!crown_fire_in_arc(rules, u, &t)) {
		rule = "R5.6";
		why = xasprintf("%s is not ahead of its front edge",
		    target->name);
	}
	if (why != NULL) {
		ev_i = crown_engine_event(e, "reaction_fire", u->id, "R9.2");
		ev = crown_events_at(e->ev, ev_i);
		ev->target = xstrdup(target->id);
		ev->reason = xasprintf("%s (%s)", why, rule);
		crown_event_set(&ev->result, "no_fire");
		crown_event_set(&ev->text, "%s could not fire at the charging "
		    "%s: %s (%s).", u->name, target->name, why, rule);
		free(why);
		return e->error;
	}
	/* the band fired with and, when it is not the one the test named,
	 * why */
	if (band == allowed)
		numbers = xasprintf("using the %s numbers its morale test "
		    "allowed", band_words(bw, sizeof(bw), u, band));
	else
		numbers = xasprintf("using the %s numbers of where the charge "
		    "ended, short of the %s its morale test allowed",
		    band_words(bw, sizeof(bw), u, band),
		    band_words(bw2, sizeof(bw2), u, allowed));
	ev_i = e->ev->n;
	if (crown_is_artillery(u->type))
		crown_artillery_shoot(e, u, &t, crown_fire_range(rules, u, &t),
		    band, "reaction_fire", "R9.2", numbers);
	else
		shoot(e, u, &t, crown_fire_range(rules, u, &t), band,
		    "reaction_fire", "R9.2", numbers);
	free(numbers);
	if (e->error == 0 && ev_i < e->ev->n) {
		/* R9.2: the event says where the volley was fired */
		ev = crown_events_at(e->ev, ev_i);
		ev->has_to = true;
		ev->to = pos;
		if (ev->text != NULL && when != NULL)
			crown_event_set(&ev->text, "%s The volley met %s %s.",
			    ev->text, target->name, when);
	}
	return e->error;
}
