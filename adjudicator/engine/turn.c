/*
 * engine.c: the turn sequence (R2) and the services the rule modules
 * share: dice, events, skipped orders, casualties.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/engine.h"
#include "crown/morale.h"

/* The action handlers, by R3.4 action.  NULL: adjudicated elsewhere. */
static const crown_action_fn action_fn[CROWN_NACTION] = {
	[CROWN_MOVE] = crown_action_move,
	[CROWN_FIRE] = crown_action_fire,
	[CROWN_RELOAD] = crown_action_reload,
	[CROWN_MANHANDLE] = crown_action_manhandle,
	[CROWN_LIMBER] = crown_action_limber,
	[CROWN_UNLIMBER] = crown_action_unlimber,
	[CROWN_FORMATION] = crown_action_formation,
	[CROWN_REFORM] = crown_action_reform,
	[CROWN_HELP] = crown_action_help,
	[CROWN_RALLY] = crown_action_rally,
	[CROWN_HOLD] = crown_action_hold,
	/* CROWN_CHARGE: declared in the charge phase (charge.c) */
};

int
crown_engine_roll(struct crown_engine *e, const char *who,
    const char *purpose, int sides, int *out)
{
	struct crown_roll_key	key;

	*out = 0;
	if (e->error != 0)
		return e->error;
	key.turn = e->turn;
	key.half = e->half;
	key.who = who != NULL ? who : "";
	key.purpose = purpose;
	if (crown_dice_roll(e->dice, &key, sides, out) != 0) {
		crown_diag_add(e->diags, "dice", 0, 0, NULL, "%s",
		    crown_dice_error(e->dice));
		e->error = CROWN_EINVALID;
	}
	return e->error;
}

int
crown_engine_roll_into(struct crown_engine *e, size_t ev_i, const char *who,
    const char *purpose, int sides)
{
	int	v;

	if (crown_engine_roll(e, who, purpose, sides, &v) != 0)
		return -1;
	return (int)crown_event_die(crown_events_at(e->ev, ev_i), sides, v,
	    purpose);
}

size_t
crown_engine_event(struct crown_engine *e, const char *kind,
    const char *unit, const char *rule)
{
	return crown_events_add(e->ev, e->turn, e->phasing, e->phase, kind,
	    unit, rule);
}

void
crown_engine_skip(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a, const char *rule, const char *fmt,
    ...)
{
	struct crown_event	*ev;
	va_list			 ap;
	char			*reason;
	size_t			 i;

	va_start(ap, fmt);
	reason = xvasprintf(fmt, ap);
	va_end(ap);
	i = crown_engine_event(e, "order_skipped", u->id, rule);
	ev = crown_events_at(e->ev, i);
	ev->reason = reason;
	if (a != NULL) {
		ev->order = xstrdup(crown_action_names[a->kind]);
		if (a->target != NULL)
			ev->target = xstrdup(a->target);
	}
	crown_event_set(&ev->text, "%s's order to %s was not carried out: "
	    "%s.", u->name, a != NULL ? crown_action_names[a->kind] : "act",
	    reason);
}

struct crown_turn_unit *
crown_engine_tu(struct crown_engine *e, const struct crown_unit *u)
{
	return &e->tu[u - e->s->units];
}

const struct crown_orders *
crown_engine_side_orders(struct crown_engine *e, const char *side)
{
	size_t	i;

	for (i = 0; i < e->norders; i++)
		if (strcmp(e->orders[i]->side, side) == 0)
			return e->orders[i];
	return NULL;
}

int
crown_engine_home_edge(const struct crown_engine *e,
    const struct crown_unit *u)
{
	int	i = crown_state_side(e->s, u->side);

	return i < 0 ? CROWN_SOUTH : (int)e->s->sides[i].home_edge;
}

int
crown_unit_take_casualties(struct crown_unit *u, int figures)
{
	int	taken = 0, k;

	/* R1.3: from the last stand of the list first */
	while (figures > 0 && u->nstands > 0) {
		k = u->stands[u->nstands - 1];
		if (k > figures)
			k = figures;
		u->stands[u->nstands - 1] -= k;
		figures -= k;
		taken += k;
		if (u->stands[u->nstands - 1] == 0)
			u->nstands--;
	}
	if (u->nstands == 0)
		u->status = CROWN_LOST;
	return taken;
}

void
crown_unit_footprint(struct crown_quad *out, const struct crown_rules *rules,
    const struct crown_unit *u)
{
	double	width, depth, sdepth;
	int	n;

	sdepth = rules->footprint[u->type].depth;
	if (crown_is_artillery(u->type) && u->limbered)
		sdepth = rules->limbered_depth;
	/* R1.2: a gun with its crew is one stand, whatever its figures */
	n = crown_is_artillery(u->type) ? 1 : crown_unit_stands(u);
	if (n < 1)
		n = 1;
	crown_geom_formation_size(&width, &depth, u->formation, n,
	    rules->footprint[u->type].frontage, sdepth,
	    rules->footprint[u->type].gap);
	crown_geom_footprint(out, (struct crown_point){ u->x, u->y },
	    u->facing, width, depth);
}

/* Simple actions (R3.4). */

int
crown_action_hold(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	size_t	i;

	i = crown_engine_event(e, "hold", u->id, "R3.4");
	crown_event_set(&crown_events_at(e->ev, i)->text,
	    "%s held its ground.", u->name);
	return 0;
}

int
crown_action_reload(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	if (crown_is_artillery(u->type) && u->limbered) {
		crown_engine_skip(e, u, a, "R6.6",
		    "a limbered gun cannot be loaded");
		return 0;
	}
	i = crown_engine_event(e, "reload", u->id, "R3.6");
	ev = crown_events_at(e->ev, i);
	if (u->loaded && u->shots_fired == 0) {
		crown_event_set(&ev->result, "already_loaded");
		crown_event_set(&ev->text, "%s reloaded, though already "
		    "loaded.", u->name);
	} else {
		crown_event_set(&ev->result, "loaded");
		crown_event_set(&ev->text, "%s reloaded.", u->name);
	}
	u->loaded = true;
	u->shots_fired = 0;
	return 0;
}

int
crown_action_reform(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	i = crown_engine_event(e, "reform", u->id, "R3.7");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->result, u->disordered ? "reformed" :
	    "in_order");
	crown_event_set(&ev->text, u->disordered ?
	    "%s reformed its ranks and is no longer disordered." :
	    "%s dressed its ranks; it was in good order already.", u->name);
	u->disordered = false;
	return 0;
}

/* R2.3: a side that sent no orders holds: fire if loaded, else reload. */
static void
side_holds(struct crown_engine *e)
{
	struct crown_action_order	 a;
	struct crown_unit		*u;
	size_t				 i, ev_i;

	ev_i = crown_engine_event(e, "no_orders", NULL, "R2.3");
	crown_event_set(&crown_events_at(e->ev, ev_i)->text,
	    "No orders came from %s; every unit holds its ground.",
	    e->phasing);
	for (i = 0; i < e->s->nunits && e->error == 0; i++) {
		u = &e->s->units[i];
		if (strcmp(u->side, e->phasing) != 0 ||
		    u->status != CROWN_OK_STATUS)
			continue;
		/* R7.5, R8, R9.8 take some units over */
		if (crown_morale_override(e, u, NULL))
			continue;
		memset(&a, 0, sizeof(a));
		a.kind = u->loaded ? CROWN_FIRE : CROWN_RELOAD;
		if (a.kind == CROWN_RELOAD && crown_is_artillery(u->type) &&
		    u->limbered)
			a.kind = CROWN_HOLD;
		action_fn[a.kind](e, u, &a);
	}
}

static void
unit_actions(struct crown_engine *e, const struct crown_unit_orders *uo)
{
	struct crown_unit		*u;
	const struct crown_action_order	*a;
	size_t				 j;

	u = crown_state_unit(e->s, uo->unit);
	if (u == NULL)
		return;		/* validation has refused it already */
	/* R7.5, R8, R9.8 take some units over */
	if (crown_morale_override(e, u, uo))
		return;
	for (j = 0; j < uo->nactions && e->error == 0; j++) {
		a = &uo->actions[j];
		/* R2.2: orders that have become impossible are skipped */
		if (u->status == CROWN_LOST) {
			crown_engine_skip(e, u, a, "R2.2", "the unit is lost");
			continue;
		}
		if (u->status == CROWN_ROUTING && a->kind != CROWN_RALLY) {
			crown_engine_skip(e, u, a, "R8.2",
			    "the unit is routing");
			continue;
		}
		if (a->kind == CROWN_CHARGE)
			continue;	/* declared in the charge phase */
		crown_engine_tu(e, u)->acted_this_half = true;
		action_fn[a->kind](e, u, a);
	}
}

static void
actions_phase(struct crown_engine *e)
{
	const struct crown_orders	*o;
	size_t				 i;

	e->phase = CROWN_PHASE_ACTIONS;
	/* R7.5, R8: routing units and last stands first */
	if (crown_morale_actions(e) != 0)
		return;
	o = crown_engine_side_orders(e, e->phasing);
	if (o == NULL) {
		side_holds(e);
		return;
	}
	for (i = 0; i < o->nunits && e->error == 0; i++)
		unit_actions(e, &o->units[i]);
	if (e->error == 0)
		crown_leaders_actions(e, o);
}

static void
half_turn(struct crown_engine *e)
{
	size_t	i, ev_i;

	for (i = 0; i < e->s->nunits; i++) {
		struct crown_turn_unit *t = &e->tu[i];

		t->moved_this_half = false;
		t->acted_this_half = false;
		t->fire_casualties = 0;
		t->under_artillery_fire = false;
		t->lost_melee_round = false;
		t->leader_killed = false;
		t->casualties_half = 0;
		t->tested_this_phase = false;
		t->routed_this_half = false;
		t->charged = false;
		t->fired = false;
		t->officer_killed = false;
		t->general_killed = false;
		t->taken_over = 0;
		t->start_figures_half = crown_unit_figures(&e->s->units[i]);
	}
	e->phase = CROWN_PHASE_CHARGE;
	ev_i = crown_engine_event(e, "half_turn", NULL, "R2.1");
	crown_event_set(&crown_events_at(e->ev, ev_i)->text,
	    "Turn %d: %s moves.", e->turn,
	    e->s->sides[crown_state_side(e->s, e->phasing)].name);
	if (e->error == 0)
		crown_charge_phase(e);
	if (e->error == 0)
		actions_phase(e);
	if (e->error == 0)
		crown_artillery_captures(e);	/* R6.5 */
	e->phase = CROWN_PHASE_MELEE;
	if (e->error == 0)
		crown_melee_phase(e);
	e->phase = CROWN_PHASE_MORALE;
	if (e->error == 0)
		crown_morale_phase(e);
}

int
crown_resolve(struct crown_state *s, struct crown_orders *const *orders,
    size_t norders, const struct crown_rules *rules, struct crown_dice *dice,
    struct crown_events *ev, struct crown_diags *d)
{
	struct crown_engine	e;
	size_t			i;
	int			att;

	memset(&e, 0, sizeof(e));
	e.s = s;
	e.rules = rules;
	e.dice = dice;
	e.ev = ev;
	e.diags = d;
	e.orders = orders;
	e.norders = norders;
	e.turn = s->turn + 1;
	e.tu = xcalloc(s->nunits ? s->nunits : 1, sizeof(*e.tu));

	/* R2.1: the attacker's half-turn first, then the other sides' */
	att = crown_state_side(s, s->attacker);
	e.half = 0;
	e.phasing = s->sides[att].id;
	half_turn(&e);
	for (i = 0; i < s->nsides && e.error == 0; i++) {
		if ((int)i == att)
			continue;
		e.half++;
		e.phasing = s->sides[i].id;
		half_turn(&e);
	}
	free(e.tu);
	crown_spatial_free(&e);
	if (e.error != 0)
		return e.error;
	s->turn = e.turn;
	return 0;
}
