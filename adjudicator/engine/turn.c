/*
 * turn.c: crown_resolve and the order of play (R2), in one place: each
 * half-turn, attacker's first, through charge declaration (R9.1),
 * actions (R3, R2.3 for a side without orders), captures of abandoned
 * guns (R6.5), detached leaders in melee (R10.4), melee (R9), attached
 * leaders' casualty rolls (R10.3) and morale (R7); and the table of
 * action handlers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/actions.h"
#include "crown/artillery.h"
#include "crown/charge.h"
#include "crown/common.h"
#include "crown/context.h"
#include "crown/engine.h"
#include "crown/fire.h"
#include "crown/leaders.h"
#include "crown/melee.h"
#include "crown/morale.h"
#include "crown/move.h"
#include "crown/officers.h"
#include "crown/rout.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

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
		crown_leaders_melee(e);		/* R10.4 */
	if (e->error == 0)
		crown_melee_phase(e);
	e->phase = CROWN_PHASE_MORALE;
	if (e->error == 0)
		crown_leaders_check(e);		/* R10.3 */
	if (e->error == 0)
		crown_morale_phase(e);
}

/* A side, unit or leader (what, the ith) without its id or name:
 * reported. */
static bool
unnamed(struct crown_diags *d, const struct crown_state *s, const char *what,
    size_t i, const char *id, const char *name, unsigned line, unsigned col)
{
	if (id != NULL && name != NULL)
		return false;
	crown_diag_add(d, s->file, line, col, NULL, "%s %zu has no id or name",
	    what, i + 1);
	return true;
}

/*
 * Every side, unit and leader has an id and a name, which the sentences
 * print with "%s": the reader gives each one (the id when the file names
 * none); a state built otherwise without one is refused, not printed
 * with a NULL string.
 */
static int
check_names(const struct crown_state *s, struct crown_diags *d)
{
	const struct crown_side		*sd;
	const struct crown_unit		*u;
	const struct crown_leader	*ld;
	size_t				 i;
	bool				 bad = false;

	for (i = 0; i < s->nsides; i++) {
		sd = &s->sides[i];
		bad |= unnamed(d, s, "side", i, sd->id, sd->name, sd->line,
		    sd->col);
	}
	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		bad |= unnamed(d, s, "unit", i, u->id, u->name, u->line,
		    u->col);
	}
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		bad |= unnamed(d, s, "leader", i, ld->id, ld->name, ld->line,
		    ld->col);
	}
	return bad ? CROWN_EINVALID : 0;
}

int
crown_resolve(struct crown_state *s, struct crown_orders *const *orders,
    size_t norders, const struct crown_rules *rules, struct crown_dice *dice,
    struct crown_events *ev, struct crown_diags *d)
{
	struct crown_engine	e;
	size_t			i;
	int			att;

	if (check_names(s, d) != 0)
		return CROWN_EINVALID;
	/* R4.7: a state with units on top of each other is refused */
	if (crown_state_check_overlaps(s, rules, d) != 0)
		return CROWN_EINVALID;
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
