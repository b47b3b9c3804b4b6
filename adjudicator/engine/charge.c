/*
 * charge.c: the charge declaration phase (R9.1-R9.4, R7.6).  Each charge
 * of the phasing side, in the order of its orders file: the charger's
 * test (charging column), the target's (being-charged column), reaction
 * fire (R9.2), breakthrough (R7.6), then the charge move at once, ending
 * in a melee or in disorder (R9.3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crown/charge.h"
#include "crown/common.h"
#include "crown/fire.h"
#include "crown/firing.h"
#include "crown/melees.h"
#include "crown/morale.h"
#include "crown/move.h"
#include "crown/rout.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

#define MAX_CHAIN 64	/* targets one charge can break through */

static bool	possible(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *, struct crown_unit **);
static enum crown_band_name fire_band(enum crown_morale_result);
static struct crown_unit *next_target(struct crown_engine *,
		    const struct crown_unit *u, const struct crown_quad *start,
		    double reach, struct crown_unit *const *done,
		    size_t ndone);
static int	target_test(struct crown_engine *, struct crown_unit *u,
		    const struct crown_quad *start, struct crown_unit *t,
		    bool breakthrough, enum crown_attack,
		    enum crown_morale_result *, enum crown_band_name *);
static void	footprint_at(const struct crown_engine *,
		    const struct crown_unit *, struct crown_point, int facing,
		    struct crown_quad *);
static int	reaction(struct crown_engine *, struct crown_unit *u,
		    struct crown_unit *t, enum crown_band_name,
		    struct crown_point from, struct crown_point to,
		    int facing);
static struct crown_unit *contacted(struct crown_engine *,
		    struct crown_unit *, struct crown_unit *);
static int	charge_move(struct crown_engine *, struct crown_unit *u,
		    struct crown_unit *t, enum crown_move_kind,
		    enum crown_attack, const struct crown_quad *start,
		    enum crown_band_name react);
static int	charge_one(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);

/* R2.2 and the rules that forbid a charge by the time it is reached. */
static bool
possible(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a, struct crown_unit **tp)
{
	const struct crown_rules	*R = e->rules;
	struct crown_unit		*t;
	struct crown_quad		 qu, qt;
	double				 dist, reach;
	int				 side, lost;

	*tp = NULL;
	if (u->status == CROWN_LOST) {
		crown_engine_skip(e, u, a, "R2.2", "the unit is lost");
		return false;
	}
	if (u->status == CROWN_ROUTING) {
		crown_engine_skip(e, u, a, "R8.2", "the unit is routing");
		return false;
	}
	if (crown_morale_last_stand(e, u)) {
		crown_engine_skip(e, u, a, "R7.5", "a unit with only its last "
		    "stand left must retire to hard cover or leave the field");
		return false;
	}
	/* R3.3: a charge is a move, and so is a retire earlier this game
	 * turn (R7.4, R9.8) or a last stand's fall back (R7.5) */
	if (crown_engine_tu(e, u)->moved) {
		crown_engine_skip(e, u, a, "R3.3", "it has already moved "
		    "this turn");
		return false;
	}
	t = a->target != NULL ? crown_state_unit(e->s, a->target) : NULL;
	if (t == NULL || t->status == CROWN_LOST || t->abandoned) {
		crown_engine_skip(e, u, a, "R2.2", "the target is gone");
		return false;
	}
	if (crown_state_melee(e->s, u, &side) != NULL) {
		crown_engine_skip(e, u, a, "R9.8", "the unit is locked in "
		    "melee");
		return false;
	}
	if (u->holding) {
		crown_engine_skip(e, u, a, "R7.4", "the unit must hold this "
		    "half-turn and may not move closer to the enemy");
		return false;
	}
	if (u->stuck) {
		crown_engine_skip(e, u, a, "R4.3", "the unit is stuck");
		return false;
	}
	/* R7.5, checked again: casualties since the orders were written */
	lost = u->start_figures - crown_unit_figures(u);
	if (u->start_figures > 0 &&
	    lost * 100 > R->charge_max_casualty_pct * u->start_figures) {
		crown_engine_skip(e, u, a, "R7.5", "the unit has lost over "
		    "%d%% of its figures and cannot charge",
		    R->charge_max_casualty_pct);
		return false;
	}
	crown_unit_footprint(&qu, R, u);
	crown_unit_footprint(&qt, R, t);
	dist = crown_geom_dist_quad(&qu, &qt);
	reach = crown_move_reach(R, u, CROWN_MOVE_CHARGE);
	if (!crown_rules_within(R, dist, reach)) {
		crown_engine_skip(e, u, a, "R2.2", "'%s' is %.2f inches away, "
		    "beyond the longest charge (%g inches)", t->id, dist,
		    reach);
		return false;
	}
	*tp = t;
	return true;
}

static enum crown_band_name
fire_band(enum crown_morale_result r)
{
	switch (r) {
	case CROWN_R_FIRE_CLOSE:
		return CROWN_BAND_CLOSE;
	case CROWN_R_FIRE_MEDIUM:
		return CROWN_BAND_MEDIUM;
	case CROWN_R_FIRE_LONG:
		return CROWN_BAND_LONG;
	default:
		return CROWN_NBAND;
	}
}

/*
 * R7.6: the second target of a breakthrough: the nearest enemy unit (by
 * footprint, from where the charger started; equal: state order) within
 * the charge's reach, not routing, not a target of this charge already.
 */
static struct crown_unit *
next_target(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_quad *start, double reach,
    struct crown_unit *const *done, size_t ndone)
{
	struct crown_unit	*best = NULL, *v;
	struct crown_geom_box	 b = crown_geom_bounds(start->c, 4);
	struct crown_quad	 q;
	const size_t		*near;
	double			 d, bestd = HUGE_VAL;
	size_t			 i, j, n;

	n = crown_engine_units_near(e, &b, reach, &near);
	for (i = 0; i < n; i++) {
		v = &e->s->units[near[i]];
		if (v->status != CROWN_OK_STATUS || v->abandoned ||
		    strcmp(v->side, u->side) == 0)
			continue;
		for (j = 0; j < ndone && done[j] != v; j++)
			;
		if (j < ndone)
			continue;
		crown_unit_footprint(&q, e->rules, v);
		d = crown_geom_dist_quad(start, &q);
		if (crown_rules_within(e->rules, d, reach) && d < bestd) {
			bestd = d;
			best = v;
		}
	}
	return best;
}

/* The target's test (being-charged column) and what it does: disorder,
 * rout (R8.1 at once), or reaction fire with a band (R9.2), in *react,
 * fired as the charge moves. */
static int
target_test(struct crown_engine *e, struct crown_unit *u,
    const struct crown_quad *start, struct crown_unit *t, bool breakthrough,
    enum crown_attack attack, enum crown_morale_result *out,
    enum crown_band_name *react)
{
	struct crown_test	 tt;
	struct crown_event	*ev;
	enum crown_morale_result r;
	enum crown_band_name	 band;
	size_t			 ev_i;
	int			 side;

	memset(&tt, 0, sizeof(tt));
	tt.col = CROWN_COL_CHARGED;
	tt.kind = "charged_test";
	tt.purpose = "charged_test";
	tt.rule = breakthrough ? "R7.6" : "R9.1";
	tt.other = u;
	tt.attack = attack;
	tt.breakthrough = breakthrough;
	if (crown_morale_test(e, t, &tt, &ev_i, &r) != 0)
		return e->error;
	*out = r;
	*react = CROWN_NBAND;
	band = fire_band(r);
	if (band != CROWN_NBAND) {
		/* R9.2: fire.c checks the load and the arc, and says why
		 * not; a unit locked in melee has other things to do */
		if (crown_state_melee(e->s, t, &side) == NULL) {
			*react = band;
			return e->error;
		}
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->reason, "no reaction fire: it is locked "
		    "in melee (R9.2)");
		crown_event_set(&ev->text, "%s No reaction fire: it is locked "
		    "in melee (R9.2).", ev->text);
	} else if (r == CROWN_R_HOLD_DISORDERED)
		t->disordered = true;
	else if (r == CROWN_R_ROUT)
		crown_rout_begin(e, t, "R9.1");
	return e->error;
}

/* The enemy unit in contact with u after its charge: the target if it
 * is, else the first in state order that stood in the way. */
static struct crown_unit *
contacted(struct crown_engine *e, struct crown_unit *u, struct crown_unit *t)
{
	struct crown_quad	 qu, q;
	struct crown_geom_box	 b;
	struct crown_unit	*v;
	const size_t		*near;
	size_t			 i, n;

	if (u->status != CROWN_OK_STATUS)
		return NULL;
	crown_unit_footprint(&qu, e->rules, u);
	crown_unit_footprint(&q, e->rules, t);
	if (t->status != CROWN_LOST &&
	    crown_geom_dist_quad(&qu, &q) <= CROWN_CONTACT)
		return t;
	b = crown_geom_bounds(qu.c, 4);
	n = crown_engine_units_near(e, &b, CROWN_CONTACT, &near);
	for (i = 0; i < n; i++) {
		v = &e->s->units[near[i]];
		if (v == t || v->status == CROWN_LOST || v->abandoned ||
		    strcmp(v->side, u->side) == 0)
			continue;
		crown_unit_footprint(&q, e->rules, v);
		if (crown_geom_dist_quad(&qu, &q) <= CROWN_CONTACT)
			return v;
	}
	return NULL;
}

/* u's footprint with its front-edge centre at p, facing `facing'. */
static void
footprint_at(const struct crown_engine *e, const struct crown_unit *u,
    struct crown_point p, int facing, struct crown_quad *out)
{
	struct crown_unit	v = *u;	/* shares u's stands: read only */

	v.x = p.x;
	v.y = p.y;
	v.facing = facing;
	crown_unit_footprint(out, e->rules, &v);
}

/*
 * R9.2: t fires at u with the number of the band its test named, when u,
 * moving from `from' to `to' with its facing of the move, comes within
 * that band (at once if it starts there); a charge that ends short of it
 * draws fire with the number of the band it ended in, if any.  Charges
 * run straight at their target: the range falls all the way, so the
 * first point within the band is found by halving.
 */
static int
reaction(struct crown_engine *e, struct crown_unit *u, struct crown_unit *t,
    enum crown_band_name band, struct crown_point from,
    struct crown_point to, int facing)
{
	const struct crown_band	*bands = crown_unit_bands(e->rules, t);
	struct crown_quad	 qt, q;
	struct crown_point	 p = from, mid;
	char			*when, *d;
	double			 lo = 0, hi = 1, m, edge;
	int			 i;

	crown_unit_footprint(&qt, e->rules, t);
	footprint_at(e, u, from, facing, &q);
	if (band >= CROWN_NBAND || bands == NULL || !bands[band].present) {
		/* fire.c says the weapon has no such band */
		return crown_fire_reaction(e, t, u, band, band, &q, p, NULL);
	}
	edge = bands[band].max;
	if (crown_rules_within(e->rules, crown_geom_dist_quad(&q, &qt),
	    edge)) {
		when = xstrdup("as the charge began, within that range "
		    "already");
	} else {
		footprint_at(e, u, to, facing, &q);
		if (!crown_rules_within(e->rules,
		    crown_geom_dist_quad(&q, &qt), edge)) {
			/* ended short of the band: the band it ended in,
			 * which the fire's own words tell */
			return crown_fire_reaction(e, t, u, crown_rules_band(
			    bands, crown_rules_distance(e->rules,
			    crown_geom_dist_quad(&q, &qt))), band, &q, to,
			    NULL);
		}
		for (i = 0; i < 48; i++) {
			m = (lo + hi) / 2;
			mid.x = from.x + (to.x - from.x) * m;
			mid.y = from.y + (to.y - from.y) * m;
			footprint_at(e, u, mid, facing, &q);
			if (crown_geom_dist_quad(&q, &qt) <= edge)
				hi = m;
			else
				lo = m;
		}
		p.x = from.x + (to.x - from.x) * hi;
		p.y = from.y + (to.y - from.y) * hi;
		footprint_at(e, u, p, facing, &q);
		d = crown_inches(edge);
		when = xasprintf("as it came within %s inches, %.2f inches "
		    "into its charge", d, crown_geom_dist(from, p));
		free(d);
	}
	crown_fire_reaction(e, t, u, band, band, &q, p, when);
	free(when);
	return e->error;
}

/*
 * The move itself (R9.1), and what it comes to: melee, a routing unit
 * caught (R8.2), or disorder (R9.3).  An enemy that stood in the way and
 * was struck instead is fought where it stands, attacked from where the
 * charger started (R9.4).
 */
static int
charge_move(struct crown_engine *e, struct crown_unit *u,
    struct crown_unit *t, enum crown_move_kind kind,
    enum crown_attack attack, const struct crown_quad *start,
    enum crown_band_name react)
{
	struct crown_quad	 qt, qu;
	struct crown_point	 to;
	struct crown_event	*ev;
	struct crown_turn_unit	*tu = crown_engine_tu(e, u);
	struct crown_unit	*c;
	char			*d;
	double			 gross = 0, moved = 0;
	size_t			 ev_i, l;
	struct crown_point	 from = { u->x, u->y };
	int			 facing = u->facing;
	bool			 touched;

	ev_i = crown_engine_event(e, "charge_move", u->id, "R9.1");
	crown_event_set(&crown_events_at(e->ev, ev_i)->target, "%s", t->id);
	crown_unit_footprint(&qt, e->rules, t);
	to = crown_geom_quad_centre(&qt);
	if (crown_move_roll(e, u, ev_i, kind, false, &gross) != 0)
		return e->error;
	if (crown_move_along(e, u, ev_i, &to, 1, gross,
	    CROWN_MOVE_INTO_CONTACT, -1, &moved) != 0)
		return e->error;
	tu->charged = true;
	tu->moved = true;
	tu->moved_this_half = true;
	tu->acted_this_half = true;
	ev = crown_events_at(e->ev, ev_i);
	/*
	 * R9.1, R9.3: the move says whether the charge got there, and
	 * nothing else does.  A charger that touched an enemy stays as it
	 * was when it touched: the wheel at the end of a move (R4.2) would
	 * draw it off its enemy or push it into him (R4.7).
	 */
	touched = u->status == CROWN_OK_STATUS && ev->result != NULL &&
	    strcmp(ev->result, "contact") == 0;
	if (touched && u->facing != facing) {
		u->facing = facing;
		crown_engine_unit_moved(e, u);
	}
	/* R9.2: the volley, rolled after the move (FORMATS.md) */
	if (react != CROWN_NBAND && u->status == CROWN_OK_STATUS &&
	    reaction(e, u, t, react, from, (struct crown_point){ u->x,
	    u->y }, facing) != 0)
		return e->error;
	if (u->status != CROWN_OK_STATUS) {
		/* shot to pieces before contact */
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->reason, "was broken by the volley of %s "
		    "before contact", t->name);
		crown_event_set(&ev->reason_rule, "R9.2");
		return e->error;
	}
	c = touched ? contacted(e, u, t) : NULL;
	if (touched && c == NULL)
		c = t;	/* its losses narrowed its front: still at grips */
	ev = crown_events_at(e->ev, ev_i);
	if (c != NULL && c->status == CROWN_ROUTING) {
		/* R8.2: a routing unit contacted in melee is lost */
		crown_event_set(&ev->result, "contact");
		crown_event_set(&ev->text, "%s The routing %s is caught.",
		    ev->text != NULL ? ev->text : "", c->name);
		c->status = CROWN_LOST;
		l = crown_engine_event(e, "lost", c->id, "R8.2");
		crown_event_set(&crown_events_at(e->ev, l)->text, "%s, "
		    "routing, was caught by %s and is lost for good.",
		    c->name, u->name);
		crown_melee_leave(e, c);
		crown_engine_unit_moved(e, c);
	} else if (c != NULL) {
		if (c != t)
			attack = crown_charge_attack(e, start, c);
		crown_event_set(&ev->result, "contact");
		crown_event_set(&ev->text, "%s Melee with %s (%s attack).",
		    ev->text != NULL ? ev->text : "", c->name,
		    crown_attack_names[attack]);
		if (c != t)
			crown_event_set(&ev->target, "%s", c->id);
		crown_melee_join(e, u, c, attack);
	} else {
		crown_unit_footprint(&qu, e->rules, u);
		d = crown_inches(crown_geom_dist_quad(&qu, &qt));
		crown_event_set(&ev->reason, "fell %s inch%s short of %s and "
		    "is disordered", d, strcmp(d, "1") == 0 ? "" : "es",
		    t->name);
		crown_event_set(&ev->reason_rule, "R9.3");
		free(d);
		crown_event_set(&ev->result, "no_contact");
		crown_event_set(&ev->text, "%s It did not reach %s and is "
		    "disordered (R9.3).", ev->text != NULL ? ev->text : "",
		    t->name);
		if (u->status == CROWN_OK_STATUS)
			u->disordered = true;
	}
	return e->error;
}

static int
charge_one(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_unit	*t, *n2, *done[MAX_CHAIN];
	struct crown_quad	 start;
	struct crown_test	 ct;
	struct crown_event	*ev;
	enum crown_morale_result r;
	enum crown_move_kind	 kind;
	enum crown_attack	 attack;
	enum crown_band_name	 react = CROWN_NBAND;
	size_t			 ev_i, ndone = 0;
	bool			 bt = false;

	if (!possible(e, u, a, &t))
		return e->error;
	crown_unit_footprint(&start, e->rules, u);
	/* R9.4: front, flank or rear by where the charger starts */
	attack = crown_charge_attack(e, &start, t);
	memset(&ct, 0, sizeof(ct));
	ct.col = CROWN_COL_CHARGING;
	ct.kind = "charge_test";
	ct.purpose = "charge_test";
	ct.rule = "R9.1";
	ct.other = t;
	ct.attack = attack;
	if (crown_morale_test(e, u, &ct, &ev_i, &r) != 0)
		return e->error;
	switch (r) {
	case CROWN_R_CHARGE:
		kind = CROWN_MOVE_CHARGE;
		break;
	case CROWN_R_CHARGE_HALF:
		kind = CROWN_MOVE_CHARGE_HALF;
		break;
	case CROWN_R_CHARGE_NO_BONUS:
		kind = CROWN_MOVE_CHARGE_NONE;
		break;
	case CROWN_R_HOLD_DISORDERED:
		u->disordered = true;
		/* FALLTHROUGH */
	default:
		/* hold: the charge does not happen */
		crown_engine_tu(e, u)->acted_this_half = true;
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->text, "%s The charge does not go in.",
		    ev->text);
		crown_event_set(&ev->reason, "the charge test said %s",
		    r == CROWN_R_HOLD_DISORDERED ? "hold, and it is "
		    "disordered" : ev->result != NULL ? ev->result : "hold");
		return e->error;
	}
	for (;;) {
		done[ndone++] = t;
		r = CROWN_R_OK;
		/* a unit routing already takes no test (R8.2) */
		react = CROWN_NBAND;
		if (t->status == CROWN_OK_STATUS &&
		    target_test(e, u, &start, t, bt, attack, &r, &react) != 0)
			return e->error;
		if (r != CROWN_R_ROUT || ndone == MAX_CHAIN)
			break;
		/* R7.6: the target broke at its test; the charge carries
		 * on into a second enemy within its reach, which tests at
		 * once.  None: it follows the routers (R8.2, R9.3). */
		n2 = next_target(e, u, &start, crown_move_reach(e->rules, u,
		    kind), done, ndone);
		if (n2 == NULL)
			break;
		t = n2;
		bt = true;
		attack = crown_charge_attack(e, &start, t);
	}
	return charge_move(e, u, t, kind, attack, &start, react);
}

int
crown_charge_phase(struct crown_engine *e)
{
	const struct crown_orders	*o;
	struct crown_unit		*u;
	size_t				 i, j;

	e->phase = CROWN_PHASE_CHARGE;
	o = crown_engine_side_orders(e, e->phasing);
	for (i = 0; o != NULL && i < o->nunits && e->error == 0; i++) {
		u = crown_state_unit(e->s, o->units[i].unit);
		for (j = 0; u != NULL && j < o->units[i].nactions &&
		    e->error == 0; j++)
			if (o->units[i].actions[j].kind == CROWN_CHARGE)
				charge_one(e, u, &o->units[i].actions[j]);
	}
	return e->error;
}
