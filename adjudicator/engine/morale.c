/*
 * morale.c: morale (R7).  The test itself, with every R7.3 modifier named
 * one by one (charge.c uses it for the charging and being-charged
 * columns); the morale phase: leader checks (R10.3), then the R7.1 tests
 * in state order with the rout cascade; the results (R7.4); and the last
 * stand of R7.5.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/artillery.h"
#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/melees.h"
#include "crown/morale.h"
#include "crown/move.h"
#include "crown/rout.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

static int	morale_stands(const struct crown_unit *);
static int	morale_start_stands(const struct crown_unit *);
static bool	is_foot(const struct crown_unit *);
static bool	in_hard_cover(struct crown_engine *,
		    const struct crown_unit *, const char **what);
static bool	rout_counts(const struct crown_unit *router,
		    const struct crown_unit *u);
static double	nearest_rout(struct crown_engine *,
		    const struct crown_unit *, const struct crown_unit **by);
static const struct crown_leader *general_near(struct crown_engine *,
		    const struct crown_unit *, double *dist);
static void	add_mod(struct crown_engine *, size_t ev_i, size_t d,
		    int value, const char *rule, const char *fmt, ...)
		    __attribute__((format(printf, 6, 7)));
static void	leader_bonus(struct crown_engine *, size_t ev_i, size_t d,
		    const struct crown_leader *);
static const char *result_phrase(enum crown_morale_result);
static void	triggers(struct crown_engine *, const struct crown_unit *,
		    const bool *by_rout, struct crown_buf *why);
static void	mark_rout_triggers(struct crown_engine *,
		    const struct crown_unit *router, bool *by_rout);
static const struct crown_unit *melee_class_of(struct crown_engine *,
		    const struct crown_unit *);
static bool	last_stand(struct crown_engine *, struct crown_unit *);

/* R7.3: artillery counts each crew figure as a stand. */
static int
morale_stands(const struct crown_unit *u)
{
	return crown_is_artillery(u->type) ? crown_unit_figures(u) :
	    crown_unit_stands(u);
}

static int
morale_start_stands(const struct crown_unit *u)
{
	return crown_is_artillery(u->type) ? u->start_figures :
	    u->start_stands;
}

/* Foot soldiers (R7.1 "infantry", R7.3 "infantry charging"). */
static bool
is_foot(const struct crown_unit *u)
{
	return u->type == CROWN_INFANTRY || u->type == CROWN_SKIRMISHERS;
}

/*
 * R7.3 "in hard cover": garrisoning a building whose cover is hard now
 * (R11.1, R11.2), the centre of the footprint in other hard cover
 * (earthworks), or lining a wall or parapet: one within the R5.5 wall
 * distance of the unit's front edge.
 */
static bool
in_hard_cover(struct crown_engine *e, const struct crown_unit *u,
    const char **what)
{
	const struct crown_rules	*R = e->rules;
	struct crown_quad		 q;
	struct crown_geom_box		 b;
	struct crown_point		 c;
	const struct crown_feature	*f;
	const int			*near;
	size_t				 i, n;

	crown_unit_footprint(&q, R, u);
	c = crown_geom_quad_centre(&q);
	b = crown_geom_bounds(q.c, 4);
	n = crown_engine_terrain_near(e, &b, R->wall_cover_distance, &near);
	for (i = 0; i < n; i++) {
		f = &e->s->terrain[near[i]];
		*what = f->name != NULL ? f->name : f->id;
		if (f->type == CROWN_BUILDING) {
			if (crown_building_cover(R, f) == CROWN_COVER_HARD &&
			    crown_building_shelters(e->s, R, f, u))
				return true;
			continue;
		}
		if (R->terrain_cover[f->type] != CROWN_COVER_HARD)
			continue;
		if (!f->is_path) {
			if (crown_geom_point_in_poly(c, f->pts, f->npts))
				return true;
			continue;
		}
		if (crown_rules_within(R, crown_geom_dist_poly_polyline(q.c,
		    2, f->pts, f->npts), R->wall_cover_distance))
			return true;
	}
	*what = NULL;
	return false;
}

/*
 * R7.1: a friendly rout that counts for u: same or higher class, and not
 * cavalry when u is infantry other than militia.  The same filter serves
 * the R7.3 "rout within" modifiers.
 */
static bool
rout_counts(const struct crown_unit *router, const struct crown_unit *u)
{
	if (router == u || strcmp(router->side, u->side) != 0)
		return false;
	if (router->cls < u->cls)
		return false;
	if (router->type == CROWN_CAVALRY && is_foot(u) &&
	    u->cls != CROWN_MILITIA)
		return false;
	return true;
}

/* Distance from u to the nearest counting rout of this half-turn, from
 * where the routing unit stood when it broke; HUGE_VAL if none. */
static double
nearest_rout(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_unit **by)
{
	struct crown_quad	q;
	double			best = HUGE_VAL, dist;
	size_t			i;

	*by = NULL;
	crown_unit_footprint(&q, e->rules, u);
	for (i = 0; i < e->s->nunits; i++) {
		if (!e->tu[i].routed_this_half ||
		    !rout_counts(&e->s->units[i], u))
			continue;
		dist = crown_geom_dist_quad(&q, &e->tu[i].rout_at);
		if (dist < best) {
			best = dist;
			*by = &e->s->units[i];
		}
	}
	return best;
}

/* R7.3: the nearest general of u's side within the radius, not attached
 * to u (that is "general attached"). */
static const struct crown_leader *
general_near(struct crown_engine *e, const struct crown_unit *u,
    double *dist)
{
	const struct crown_leader	*best = NULL;
	struct crown_quad		 q;
	struct crown_point		 p;
	double				 d;
	size_t				 i;

	crown_unit_footprint(&q, e->rules, u);
	for (i = 0; i < e->s->nleaders; i++) {
		const struct crown_leader *ld = &e->s->leaders[i];

		if (ld->status != CROWN_LEADER_OK ||
		    ld->rank != CROWN_GENERAL ||
		    strcmp(ld->side, u->side) != 0 ||
		    (ld->attached != NULL &&
		    strcmp(ld->attached, u->id) == 0))
			continue;
		p = crown_leader_pos(e->s, ld);
		d = crown_geom_dist_poly(&p, 1, q.c, 4);
		if (crown_rules_within(e->rules, d,
		    e->rules->morale_mod.general_radius) &&
		    (best == NULL || d < *dist)) {
			best = ld;
			*dist = d;
		}
	}
	return best;
}

/* A modifier of die d of event ev_i, its name formatted; none when it
 * is worth nothing. */
static void
add_mod(struct crown_engine *e, size_t ev_i, size_t d, int value,
    const char *rule, const char *fmt, ...)
{
	va_list	ap;

	if (value == 0)
		return;
	va_start(ap, fmt);
	crown_die_vmodf(&crown_events_at(e->ev, ev_i)->dice[d], value, rule,
	    fmt, ap);
	va_end(ap);
}

/* R10.2: a leader's scenario bonus goes with his modifier, added to the
 * die as in R8.4. */
static void
leader_bonus(struct crown_engine *e, size_t ev_i, size_t d,
    const struct crown_leader *ld)
{
	add_mod(e, ev_i, d, ld->bonus, "R10.2", "%s's bonus", ld->name);
}

static const char *
result_phrase(enum crown_morale_result r)
{
	switch (r) {
	case CROWN_R_OK:
		return "ok";
	case CROWN_R_HOLD:
		return "hold";
	case CROWN_R_HOLD_DISORDERED:
		return "hold, disordered";
	case CROWN_R_RETIRE_1:
		return "retire 1 move";
	case CROWN_R_RETIRE_2:
		return "retire 2 moves";
	case CROWN_R_ROUT:
		return "rout";
	case CROWN_R_FIRE_CLOSE:
		return "ok, fire at close range";
	case CROWN_R_FIRE_MEDIUM:
		return "ok, fire at medium range";
	case CROWN_R_FIRE_LONG:
		return "ok, fire at long range";
	case CROWN_R_CHARGE:
		return "charge";
	case CROWN_R_CHARGE_HALF:
		return "charge with half the bonus";
	case CROWN_R_CHARGE_NO_BONUS:
		return "charge without the bonus";
	default:
		return "?";
	}
}

static const char *const attack_words[CROWN_NATTACK] = {
	"in front", "in the flank", "in the rear"
};

/* The modifiers of a morale test (R3.1's column, R7.3's lines, R7.6,
 * R8.6) on die d of event ev_i. */
static void
morale_mods(struct crown_engine *e, struct crown_unit *u,
    const struct crown_test *t, size_t ev_i, int d)
{
	const struct crown_rules	*R = e->rules;
	const struct crown_morale_mods	*M = &R->morale_mod;
	struct crown_turn_unit		*tu = crown_engine_tu(e, u);
	const struct crown_unit		*cu, *router;
	const struct crown_leader	*gen, *ld;
	const char			*cover;
	double				 dist = 0;
	int				 lost, n;

	/* R3.1 morale column (R7.3's class lines), R9.7 in a shared melee */
	cu = t->class_of != NULL ? t->class_of : u;
	if (cu == u)
		add_mod(e, ev_i, d, R->cls[cu->cls].morale, "R3.1", "%s",
		    crown_class_names[cu->cls]);
	else
		add_mod(e, ev_i, d, R->cls[cu->cls].morale, "R3.1",
		    "%s, the class of %s (R9.7)", crown_class_names[cu->cls],
		    cu->name);
	if (t->breakthrough)
		add_mod(e, ev_i, d, M->breakthrough, "R7.6",
		    "receiving a breakthrough charge");
	if (tu->general_killed)
		add_mod(e, ev_i, d, M->general_killed, "R7.3",
		    "general killed");
	if (t->col == CROWN_COL_CHARGED && t->attack == CROWN_REAR)
		add_mod(e, ev_i, d, M->charged_rear, "R7.3",
		    "charged in the rear");
	dist = nearest_rout(e, u, &router);
	if (router != NULL &&
	    crown_rules_within(R, dist, M->rout_near_radius)) {
		add_mod(e, ev_i, d, M->rout_near, "R7.3",
		    "%s routed within %g inches", router->name,
		    M->rout_near_radius);
	} else if (router != NULL &&
	    crown_rules_within(R, dist, M->rout_far_radius)) {
		add_mod(e, ev_i, d, M->rout_far, "R7.3",
		    "%s routed within %g inches", router->name,
		    M->rout_far_radius);
	}
	if (tu->officer_killed)
		add_mod(e, ev_i, d, M->officer_killed, "R7.3",
		    "officer killed");
	if (tu->under_artillery_fire)
		add_mod(e, ev_i, d, M->artillery_fire, "R7.3",
		    "under artillery fire");
	if (t->col == CROWN_COL_CHARGED && t->attack == CROWN_FLANK)
		add_mod(e, ev_i, d, M->charged_flank, "R7.3",
		    "charged in the flank");
	lost = morale_start_stands(u) - morale_stands(u);
	if (lost > 0) {
		add_mod(e, ev_i, d, lost * M->stand_lost, "R7.3", "%d %s lost",
		    lost, crown_is_artillery(u->type) ?
		    (lost == 1 ? "crew figure" : "crew figures") :
		    (lost == 1 ? "stand" : "stands"));
	}
	if (u->disordered)
		add_mod(e, ev_i, d, M->disordered, "R3.7", "disordered");
	if (t->col == CROWN_COL_CHARGED && t->other != NULL &&
	    t->other->type == CROWN_CAVALRY)
		add_mod(e, ev_i, d, M->charged_by_cavalry, "R7.3",
		    "charged by cavalry");
	if (tu->tests > 0) {
		add_mod(e, ev_i, d, M->repeat_test, "R7.3",
		    "test number %d this turn", tu->tests + 1);
	}
	if ((ld = crown_leader_attached(e->s, u, CROWN_OFFICER)) != NULL) {
		add_mod(e, ev_i, d, M->officer_attached, "R7.3",
		    "officer attached");
		leader_bonus(e, ev_i, d, ld);
	}
	if ((gen = general_near(e, u, &dist)) != NULL) {
		add_mod(e, ev_i, d, M->general_near, "R7.3",
		    "%s%s within %g inches", crown_leader_rank_word(gen),
		    gen->name, M->general_radius);
		leader_bonus(e, ev_i, d, gen);
	}
	n = morale_stands(u) / M->stands_per_step;
	if (n > 0) {
		const char *what = crown_is_artillery(u->type) ?
		    "crew figures" : "stands";

		/* the published wording, "each 2 whole stands", reads as
		 * pairs; a house rule of another size as groups */
		if (M->stands_per_step == 2)
			add_mod(e, ev_i, d, n * M->per_two_stands, "R7.3",
			    "%d whole pair%s of %s", n, n == 1 ? "" : "s",
			    what);
		else
			add_mod(e, ev_i, d, n * M->per_two_stands, "R7.3",
			    "%d whole group%s of %d %s", n, n == 1 ? "" : "s",
			    M->stands_per_step, what);
	}
	if (in_hard_cover(e, u, &cover)) {
		add_mod(e, ev_i, d, M->hard_cover, "R7.3", "in hard cover (%s)",
		    cover);
	}
	if ((ld = crown_leader_attached(e->s, u, CROWN_GENERAL)) != NULL) {
		add_mod(e, ev_i, d, M->general_attached, "R7.3",
		    "general attached");
		leader_bonus(e, ev_i, d, ld);
	}
	if (t->col == CROWN_COL_CHARGING && t->attack != CROWN_FRONT) {
		if (u->type == CROWN_CAVALRY)
			add_mod(e, ev_i, d, M->cavalry_flank_rear, "R7.3",
			    "cavalry charging into the %s",
			    t->attack == CROWN_REAR ? "rear" : "flank");
		else if (is_foot(u))
			add_mod(e, ev_i, d, M->infantry_flank_rear, "R7.3",
			    "infantry charging into the %s",
			    t->attack == CROWN_REAR ? "rear" : "flank");
	}
	if (u->rallied)
		add_mod(e, ev_i, d, R->rallied_dice_mod, "R8.6",
		    "rallied once");
}

/* The test's sentence: who, why, the arithmetic, the result. */
static void
morale_sentence(struct crown_buf *b, const struct crown_unit *u,
    const struct crown_test *t, const struct crown_die_rec *die,
    enum crown_morale_result result)
{
	size_t	k;

	crown_buf_printf(b, "%s", u->name);
	switch (t->col) {
	case CROWN_COL_CHARGING:
		crown_buf_printf(b, " tested to charge %s %s",
		    t->other != NULL ? t->other->name : "?",
		    attack_words[t->attack]);
		break;
	case CROWN_COL_CHARGED:
		crown_buf_printf(b, ", charged %s by %s%s, tested",
		    attack_words[t->attack],
		    t->other != NULL ? t->other->name : "?",
		    t->breakthrough ? " breaking through" : "");
		break;
	default:
		crown_buf_printf(b, " tested morale (%s)",
		    t->why != NULL ? t->why : "ordered");
		break;
	}
	crown_buf_printf(b, ": rolled %d", die->roll);
	for (k = 0; k < die->nmods; k++)
		crown_buf_printf(b, ", %s %+d", die->mods[k].name,
		    die->mods[k].value);
	crown_buf_printf(b, ", score %d on the %s column: %s.", die->score,
	    t->col == CROWN_COL_NORMAL ? "normal" :
	    t->col == CROWN_COL_CHARGED ? "being-charged" : "charging",
	    result_phrase(result));
}

int
crown_morale_test(struct crown_engine *e, struct crown_unit *u,
    const struct crown_test *t, size_t *ev_out,
    enum crown_morale_result *out)
{
	const struct crown_rules	*R = e->rules;
	struct crown_turn_unit		*tu = crown_engine_tu(e, u);
	struct crown_event		*ev;
	struct crown_die_rec		*die;
	struct crown_buf		 b = { 0 };
	size_t				 ev_i;
	int				 d;

	*out = CROWN_R_OK;
	ev_i = crown_engine_event(e, t->kind, u->id, t->rule);
	*ev_out = ev_i;
	if (t->other != NULL)
		crown_event_set(&crown_events_at(e->ev, ev_i)->target, "%s",
		    t->other->id);
	if (t->why != NULL)
		crown_event_set(&crown_events_at(e->ev, ev_i)->reason, "%s",
		    t->why);
	d = crown_engine_roll_into(e, ev_i, u->id, t->purpose,
	    R->morale_die);
	if (d < 0)
		return e->error;

	morale_mods(e, u, t, ev_i, d);
	tu->tests++;
	ev = crown_events_at(e->ev, ev_i);
	die = &ev->dice[d];
	*out = crown_rules_morale(R, die->score, t->col);
	crown_event_set(&ev->result, "%s", crown_result_names[*out]);
	morale_sentence(&b, u, t, die, *out);
	free(ev->text);
	ev->text = b.data;
	return e->error;
}

enum crown_attack
crown_charge_attack(const struct crown_engine *e,
    const struct crown_quad *qa, const struct crown_unit *d)
{
	struct crown_quad	qd;
	double			depth, dx, dy;

	crown_unit_footprint(&qd, e->rules, d);
	/* the defender's depth: its front-left to rear-left corner */
	dx = qd.c[3].x - qd.c[0].x;
	dy = qd.c[3].y - qd.c[0].y;
	depth = sqrt(dx * dx + dy * dy);
	switch (crown_geom_zone_poly((struct crown_point){ d->x, d->y },
	    d->facing, depth, qa->c, 4)) {
	case CROWN_GEOM_IN_FRONT:
		return CROWN_FRONT;
	case CROWN_GEOM_BETWEEN:
		return CROWN_FLANK;
	default:
		return CROWN_REAR;
	}
}

/* R7.4 results of the normal column; R6.5 for guns. */
int
crown_morale_apply(struct crown_engine *e, struct crown_unit *u,
    enum crown_morale_result r)
{
	struct crown_turn_unit	*tu;
	int			 moves;

	switch (r) {
	case CROWN_R_HOLD_DISORDERED:
		u->disordered = true;
		/* FALLTHROUGH */
	case CROWN_R_HOLD:
		u->holding = true;
		break;
	case CROWN_R_RETIRE_1:
	case CROWN_R_RETIRE_2:
		moves = r == CROWN_R_RETIRE_1 ? 1 : 2;
		if (crown_is_artillery(u->type) &&
		    moves > e->rules->gun_retire_max) {
			crown_artillery_abandon(e, u);
			crown_melee_leave(e, u);
			break;
		}
		crown_retire(e, u, moves, "R7.4", NULL);
		break;
	case CROWN_R_ROUT:
		if (crown_is_artillery(u->type)) {
			/* the crew runs: a rout for R7.1 all the same */
			tu = crown_engine_tu(e, u);
			crown_unit_footprint(&tu->rout_at, e->rules, u);
			tu->routed_this_half = true;
			crown_artillery_abandon(e, u);
			crown_melee_leave(e, u);
			break;
		}
		crown_rout_begin(e, u, "R7.4");
		break;
	default:
		break;
	}
	return e->error;
}

/* The R7.1 triggers of u, in words; empty if none. */
static void
triggers(struct crown_engine *e, const struct crown_unit *u,
    const bool *by_rout, struct crown_buf *why)
{
	const struct crown_turn_unit	*tu = &e->tu[u - e->s->units];
	const struct crown_unit		*router;
	double				 dist;

	crown_buf_puts(why, "");
	if (tu->fire_casualties > 0)
		crown_buf_printf(why, "%stook %d casualt%s from fire",
		    why->len ? "; " : "", tu->fire_casualties,
		    tu->fire_casualties == 1 ? "y" : "ies");
	if (tu->lost_melee_round)
		crown_buf_printf(why, "%slost a melee round",
		    why->len ? "; " : "");
	if (by_rout[u - e->s->units]) {
		dist = nearest_rout(e, u, &router);
		crown_buf_printf(why, "%s%s routed %.2f inches away",
		    why->len ? "; " : "", router != NULL ? router->name : "?",
		    dist);
	}
	if (tu->leader_killed)
		crown_buf_printf(why, "%sits %s was killed",
		    why->len ? "; " : "", tu->officer_killed ? "officer" :
		    "general");
	else if (tu->general_killed)
		crown_buf_printf(why, "%sits side's general was killed",
		    why->len ? "; " : "");
}

/* R7.1: the friends a rout makes test: within the radius, and counting
 * (rout_counts).  Marks them in by_rout. */
static void
mark_rout_triggers(struct crown_engine *e, const struct crown_unit *router,
    bool *by_rout)
{
	const struct crown_quad	*at;
	struct crown_geom_box	 b;
	struct crown_quad	 q;
	const size_t		*near;
	size_t			 i, n;

	at = &e->tu[router - e->s->units].rout_at;
	b = crown_geom_bounds(at->c, 4);
	n = crown_engine_units_near(e, &b, e->rules->morale_trigger_radius,
	    &near);
	for (i = 0; i < n; i++) {
		const struct crown_unit *u = &e->s->units[near[i]];

		if (u->status != CROWN_OK_STATUS || !rout_counts(router, u))
			continue;
		crown_unit_footprint(&q, e->rules, u);
		if (crown_rules_within(e->rules, crown_geom_dist_quad(&q, at),
		    e->rules->morale_trigger_radius))
			by_rout[near[i]] = true;
	}
}

/* R9.7: in a melee with another unit of its side, the class of the one
 * with more figures counts for both (equal: the better class). */
static const struct crown_unit *
melee_class_of(struct crown_engine *e, const struct crown_unit *u)
{
	const struct crown_melee	*m;
	const struct crown_unit		*best = u, *v;
	char				**ids;
	size_t				  n, i;
	int				  side;

	if ((m = crown_state_melee(e->s, u, &side)) == NULL)
		return u;
	ids = side == 0 ? m->attackers : m->defenders;
	n = side == 0 ? m->nattackers : m->ndefenders;
	for (i = 0; i < n; i++) {
		v = crown_state_unit(e->s, ids[i]);
		if (v == NULL || v->status != CROWN_OK_STATUS)
			continue;
		if (crown_unit_figures(v) > crown_unit_figures(best) ||
		    (crown_unit_figures(v) == crown_unit_figures(best) &&
		    e->rules->cls[v->cls].morale <
		    e->rules->cls[best->cls].morale))
			best = v;
	}
	return best;
}

int
crown_morale_phase(struct crown_engine *e)
{
	struct crown_test	 t;
	struct crown_buf	 why = { 0 };
	struct crown_unit	*u;
	size_t			*queue, nq = 0, i, k, ev_i;
	bool			*queued, *by_rout;
	enum crown_morale_result r;

	e->phase = CROWN_PHASE_MORALE;
	/* R7.4: a hold lasts the unit's next half-turn, which is over */
	for (i = 0; i < e->s->nunits; i++)
		if (strcmp(e->s->units[i].side, e->phasing) == 0)
			e->s->units[i].holding = false;
	queue = xcalloc(e->s->nunits + 1, sizeof(*queue));
	queued = xcalloc(e->s->nunits + 1, sizeof(*queued));
	by_rout = xcalloc(e->s->nunits + 1, sizeof(*by_rout));
	for (i = 0; i < e->s->nunits; i++)
		if (e->tu[i].routed_this_half)
			mark_rout_triggers(e, &e->s->units[i], by_rout);
	/* R7.1: in the order of the units in the state */
	for (i = 0; i < e->s->nunits; i++) {
		const struct crown_turn_unit *tu = &e->tu[i];

		if (e->s->units[i].status != CROWN_OK_STATUS)
			continue;
		if (tu->fire_casualties > 0 || tu->lost_melee_round ||
		    by_rout[i] || tu->leader_killed || tu->general_killed) {
			queue[nq++] = i;
			queued[i] = true;
		}
	}
	for (k = 0; k < nq && e->error == 0; k++) {
		u = &e->s->units[queue[k]];
		if (u->status != CROWN_OK_STATUS ||
		    e->tu[queue[k]].tested_this_phase)
			continue;
		triggers(e, u, by_rout, &why);
		memset(&t, 0, sizeof(t));
		t.col = CROWN_COL_NORMAL;
		t.kind = "morale";
		t.purpose = "morale";
		t.rule = "R7.2";
		t.why = why.data;
		t.class_of = melee_class_of(e, u);
		e->tu[queue[k]].tested_this_phase = true;
		if (crown_morale_test(e, u, &t, &ev_i, &r) != 0)
			break;
		crown_buf_release(&why);
		if (crown_morale_apply(e, u, r) != 0)
			break;
		if (r != CROWN_R_ROUT || !e->tu[queue[k]].routed_this_half)
			continue;
		/* R7.1: the rout adds the friends it triggers, not yet
		 * tested, to the end of the order */
		mark_rout_triggers(e, u, by_rout);
		for (i = 0; i < e->s->nunits; i++)
			if (by_rout[i] && !queued[i] &&
			    !e->tu[i].tested_this_phase &&
			    e->s->units[i].status == CROWN_OK_STATUS) {
				queue[nq++] = i;
				queued[i] = true;
			}
	}
	crown_buf_release(&why);
	free(by_rout);
	free(queued);
	free(queue);
	return e->error;
}

/*
 * R7.5: a unit down to its last stand must retire to hard cover or leave
 * the field: its orders give way to one move to the nearest hard cover
 * within one move (a building or earthworks whose cover is hard now;
 * aimed at the middle of its outline), else towards its home edge.  Only
 * battalions (infantry, skirmishers, cavalry): a gun with its crew is one
 * stand by nature (R1.2).
 */
static bool
last_stand(struct crown_engine *e, struct crown_unit *u)
{
	const struct crown_rules	*R = e->rules;
	const struct crown_feature	*f, *best = NULL;
	struct crown_quad		 q;
	struct crown_geom_box		 b;
	struct crown_point		 to, c;
	struct crown_event		*ev;
	const char			*cover;
	const int			*near;
	double				 reach, d, bestd = HUGE_VAL;
	double				 gross = 0, moved = 0;
	size_t				 i, n, ev_i;

	if (!crown_morale_last_stand(e, u))
		return false;
	ev_i = crown_engine_event(e, "retire", u->id, "R7.5");
	if (in_hard_cover(e, u, &cover)) {
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "in_cover");
		crown_event_set(&ev->text, "%s, down to its last stand, stays "
		    "in the hard cover of %s.", u->name, cover);
		return true;
	}
	crown_unit_footprint(&q, R, u);
	b = crown_geom_bounds(q.c, 4);
	reach = crown_move_reach(R, u, CROWN_MOVE_NORMAL);
	n = crown_engine_terrain_near(e, &b, reach, &near);
	for (i = 0; i < n; i++) {
		f = &e->s->terrain[near[i]];
		if (f->is_path || f->npts == 0)
			continue;
		if (f->type == CROWN_BUILDING ?
		    crown_building_cover(R, f) != CROWN_COVER_HARD :
		    R->terrain_cover[f->type] != CROWN_COVER_HARD)
			continue;
		d = crown_geom_dist_poly(q.c, 4, f->pts, f->npts);
		if (crown_rules_within(R, d, reach) && d < bestd) {
			bestd = d;
			best = f;
		}
	}
	if (best != NULL) {
		c = (struct crown_point){ 0, 0 };
		for (i = 0; i < best->npts; i++) {
			c.x += best->pts[i].x;
			c.y += best->pts[i].y;
		}
		to.x = c.x / (double)best->npts;
		to.y = c.y / (double)best->npts;
	} else
		to = crown_move_home_point(e, u);
	if (crown_move_roll(e, u, ev_i, CROWN_MOVE_NORMAL, false, &gross) != 0)
		return true;
	if (crown_move_along(e, u, ev_i, &to, 1, gross, 0, -1, &moved) != 0)
		return true;
	crown_engine_tu(e, u)->moved = true;
	crown_engine_tu(e, u)->moved_this_half = true;
	ev = crown_events_at(e->ev, ev_i);
	crown_event_set(&ev->result, best != NULL ? "to_cover" :
	    "to_home_edge");
	crown_event_set(&ev->text, "%s, down to its last stand, must "
	    "retire to hard cover or leave the field: it fell back %.2f "
	    "inches towards %s.", u->name, moved, best != NULL ?
	    (best->name != NULL ? best->name : best->id) : "its home edge");
	return true;
}

bool
crown_morale_last_stand(struct crown_engine *e, const struct crown_unit *u)
{
	int	side;

	return u->status == CROWN_OK_STATUS && !u->abandoned &&
	    !crown_is_artillery(u->type) && u->type != CROWN_WAGON &&
	    crown_unit_stands(u) > 0 &&
	    crown_unit_stands(u) <= e->rules->retire_at_stands &&
	    crown_state_melee(e->s, u, &side) == NULL;
}

int
crown_morale_actions(struct crown_engine *e)
{
	struct crown_unit	*u;
	size_t			 i;

	for (i = 0; i < e->s->nunits && e->error == 0; i++) {
		u = &e->s->units[i];
		if (strcmp(u->side, e->phasing) != 0)
			continue;
		if (u->status == CROWN_ROUTING)
			crown_rout_half(e, u);
		else if (last_stand(e, u))
			e->tu[i].taken_over = CROWN_TAKEN_LAST_STAND;
	}
	return e->error;
}

bool
crown_morale_override(struct crown_engine *e, struct crown_unit *u,
    const struct crown_unit_orders *uo)
{
	struct crown_turn_unit		*tu = crown_engine_tu(e, u);
	const struct crown_action_order	*a;
	const char			*rule = NULL, *why = NULL;
	size_t				 j;
	int				 side;

	if (tu->taken_over == CROWN_TAKEN_LAST_STAND) {
		rule = "R7.5";
		why = "a unit with only its last stand left must retire to "
		    "hard cover or leave the field";
	} else if (tu->taken_over == CROWN_TAKEN_ROUT) {
		if (u->status == CROWN_LOST) {
			rule = "R8.5";
			why = "the unit is lost";
		} else if (u->status == CROWN_ROUTING) {
			rule = "R8.2";
			why = "the unit is routing";
		} else {
			rule = "R8.6";
			why = "a rallied unit spends a full move stationary";
		}
	} else if (u->status == CROWN_OK_STATUS &&
	    crown_state_melee(e->s, u, &side) != NULL) {
		rule = "R9.8";
		why = "the unit is locked in melee";
	}
	if (why == NULL)
		return false;	/* engine.c skips lost, routing (R2.2) */
	for (j = 0; uo != NULL && j < uo->nactions; j++) {
		a = &uo->actions[j];
		/* charges were declared; a rally was the rout pass's */
		if (a->kind == CROWN_CHARGE || a->kind == CROWN_RALLY)
			continue;
		crown_engine_skip(e, u, a, rule, "%s", why);
	}
	return true;
}
