/*
 * rout.c: rout and rally (R8), and retiring (R7.4, R9.8): moves straight
 * back towards the home edge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/melees.h"
#include "crown/morale.h"
#include "crown/move.h"
#include "crown/rout.h"
#include "crown/xalloc.h"

static int	rout_move(struct crown_engine *, struct crown_unit *,
		    const char *rule, const char *why);
static bool	ordered_rally(struct crown_engine *,
		    const struct crown_unit *,
		    const struct crown_action_order **);
static int	rally(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);

double
crown_move_reach(const struct crown_rules *R, const struct crown_unit *u,
    enum crown_move_kind kind)
{
	const struct crown_dice	*n = &R->move[u->type].normal;
	const struct crown_dice	*b = &R->move[u->type].bonus;
	int			 bonus = 0;

	if (R->move[u->type].has_bonus)
		bonus = crown_rules_dice_max(R, b);
	switch (kind) {
	case CROWN_MOVE_CHARGE:
	case CROWN_MOVE_ROUT:
		break;
	case CROWN_MOVE_CHARGE_HALF:
		bonus = crown_rules_half_bonus(R, bonus);	/* R9.1 */
		break;
	default:
		bonus = 0;
		break;
	}
	return (double)(crown_rules_dice_max(R, n) + bonus);
}

int
crown_retire(struct crown_engine *e, struct crown_unit *u, int moves,
    const char *rule, const char *why)
{
	struct crown_point	 home, from;
	struct crown_event	*ev;
	double			 gross, moved;
	size_t			 ev_i;
	int			 k;

	/* one event a move, so each tells its own dice */
	for (k = 0; k < moves && e->error == 0; k++) {
		if (u->status != CROWN_OK_STATUS)
			break;	/* off the table, or drowned */
		ev_i = crown_engine_event(e, "retire", u->id, rule);
		from = (struct crown_point){ u->x, u->y };
		gross = moved = 0;
		home = crown_move_home_point(e, u);
		if (crown_move_roll(e, u, ev_i, CROWN_MOVE_RETIRE, false,
		    &gross) != 0)
			break;
		if (crown_move_along(e, u, ev_i, &home, 1, gross,
		    CROWN_MOVE_KEEP_FACING, -1, &moved) != 0)
			break;
		ev = crown_events_at(e->ev, ev_i);
		ev->has_from = true;
		ev->from = from;
		ev->has_to = true;
		ev->to = (struct crown_point){ u->x, u->y };
		crown_event_set(&ev->result, "%s", u->status == CROWN_LOST ?
		    "left_the_field" : moves == 1 ? "retire_1" : "retire_2");
		if (why != NULL)
			crown_event_set(&ev->reason, "%s", why);
		if (moves > 1)
			crown_event_set(&ev->text, "%s retires (move %d of "
			    "%d) towards its home edge, facing the enemy "
			    "still: %s", u->name, k + 1, moves,
			    ev->text != NULL ? ev->text : "");
		else
			crown_event_set(&ev->text, "%s retires towards its "
			    "home edge, facing the enemy still: %s", u->name,
			    ev->text != NULL ? ev->text : "");
	}
	crown_engine_tu(e, u)->moved_this_half = true;
	crown_melee_leave(e, u);
	return e->error;
}

/* R8.1: normal move plus the rout bonus straight for the home edge, no
 * terrain penalty; the routers turn their backs (face along the way). */
static int
rout_move(struct crown_engine *e, struct crown_unit *u, const char *rule,
    const char *why)
{
	struct crown_point	 home, from = { u->x, u->y };
	struct crown_event	*ev;
	double			 gross = 0, moved = 0;
	size_t			 ev_i;

	ev_i = crown_engine_event(e, "rout_move", u->id, rule);
	home = crown_move_home_point(e, u);
	if (crown_move_roll(e, u, ev_i, CROWN_MOVE_ROUT, false, &gross) != 0)
		return e->error;
	if (crown_move_along(e, u, ev_i, &home, 1, gross,
	    CROWN_MOVE_IGNORE_TERRAIN, -1, &moved) != 0)
		return e->error;
	crown_engine_tu(e, u)->moved_this_half = true;
	ev = crown_events_at(e->ev, ev_i);
	ev->has_from = true;
	ev->from = from;
	ev->has_to = true;
	ev->to = (struct crown_point){ u->x, u->y };
	crown_event_set(&ev->result, "%s", u->status == CROWN_LOST ?
	    "left_the_field" : "routed");
	crown_event_set(&ev->text, "%s %s, running for its home edge: %s",
	    u->name, why, ev->text != NULL ? ev->text : "");
	return e->error;
}

int
crown_rout_begin(struct crown_engine *e, struct crown_unit *u,
    const char *rule)
{
	struct crown_turn_unit	*tu = crown_engine_tu(e, u);

	if (u->status != CROWN_OK_STATUS)
		return e->error;
	/* where it broke, for R7.1 triggers and R7.3 "rout within" */
	crown_unit_footprint(&tu->rout_at, e->rules, u);
	tu->routed_this_half = true;
	u->status = CROWN_ROUTING;
	u->routs++;
	u->rout_halves = 0;
	u->skip_next = true;		/* R8.1 */
	u->holding = false;
	rout_move(e, u, "R8.1", "routs");
	crown_melee_leave(e, u);
	return e->error;
}

/* The rally order of u this half-turn, if its side sent one. */
static bool
ordered_rally(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order **out)
{
	const struct crown_orders	*o;
	size_t				 i, j;

	*out = NULL;
	o = crown_engine_side_orders(e, e->phasing);
	for (i = 0; o != NULL && i < o->nunits; i++) {
		if (strcmp(o->units[i].unit, u->id) != 0)
			continue;
		for (j = 0; j < o->units[i].nactions; j++)
			if (o->units[i].actions[j].kind == CROWN_RALLY) {
				*out = &o->units[i].actions[j];
				return true;
			}
	}
	return false;
}

/* R8.4-R8.6: one rally attempt.  Returns 1 if it rallied or is lost,
 * 0 if it routs on. */
static int
rally(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*R = e->rules;
	const struct crown_leader	*ld;
	struct crown_event		*ev;
	struct crown_die_rec		*die;
	struct crown_buf		 b = { 0 };
	size_t				 ev_i, k;
	int				 d, lmod = 0;
	bool				 gives;

	if (u->routs >= R->rally_max_routs) {
		crown_engine_skip(e, u, a, "R8.5", "a unit routed %d times "
		    "cannot rally", u->routs);
		return 0;
	}
	if (u->rout_halves < R->rally_first_half_turn) {
		crown_engine_skip(e, u, a, "R8.3", "a unit may try to rally "
		    "from its half-turn number %d of rout; this is number %d",
		    R->rally_first_half_turn, u->rout_halves);
		return 0;
	}
	if ((ld = crown_leader_rally(e->s, R, u, &lmod)) == NULL) {
		crown_engine_skip(e, u, a, "R8.3", "no officer or general "
		    "is within %g inches", R->rally_radius);
		return 0;
	}
	ev_i = crown_engine_event(e, "rally", u->id, "R8.4");
	if ((d = crown_engine_roll_into(e, ev_i, u->id, "rally",
	    R->rally_die)) < 0)
		return 1;
	ev = crown_events_at(e->ev, ev_i);
	ev->leader = xstrdup(ld->id);
	die = &ev->dice[d];
	if (R->cls[u->cls].morale != 0)
		crown_die_mod(die, crown_class_names[u->cls],
		    R->cls[u->cls].morale, "R3.1");
	if (u->disordered)
		crown_die_mod(die, "disordered", R->disorder_mod, "R3.7");
	if ((gives = crown_leader_rally_mod(R, ld, u, &lmod))) {
		crown_die_modf(die, ld->rank == CROWN_GENERAL ?
		    R->rally_general : R->rally_officer, "R8.4", "%s%s",
		    crown_leader_rank_word(ld), ld->name);
		if (ld->bonus != 0)
			crown_die_modf(die, ld->bonus, "R10.2", "%s's bonus",
			    ld->name);
	}
	if (u->rallied)
		crown_die_mod(die, "rallied once", R->rallied_dice_mod,
		    "R8.6");
	crown_buf_printf(&b, "%s tried to rally on %s%s: rolled %d", u->name,
	    ld->name, gives ? "" : " (not attached: no modifier)",
	    die->roll);
	for (k = 0; k < die->nmods; k++)
		crown_buf_printf(&b, ", %s %+d", die->mods[k].name,
		    die->mods[k].value);
	crown_buf_printf(&b, ", score %d needing %d or less: ", die->score,
	    R->rally_target);
	if (die->score <= R->rally_target) {
		/* R8.6: a full move stationary, disordered, marked for good */
		u->status = CROWN_OK_STATUS;
		u->disordered = true;
		u->rallied = true;
		u->rout_halves = 0;
		u->skip_next = false;
		crown_engine_tu(e, u)->moved = true;
		crown_engine_tu(e, u)->moved_this_half = true;
		crown_event_set(&ev->result, "rallied");
		crown_buf_printf(&b, "it rallies, and stands disordered for "
		    "the rest of the turn.");
	} else {
		u->rally_failures++;
		crown_event_set(&ev->result, "failed");
		if (u->rally_failures >= R->rally_max_failures) {
			/* R8.5 */
			u->status = CROWN_LOST;
			crown_buf_printf(&b, "failed, failure %d of the %d "
			    "allowed: it is lost for good.", u->rally_failures,
			    R->rally_max_failures);
		} else
			crown_buf_printf(&b, "failed; it routs on.");
	}
	free(ev->text);
	ev->text = b.data;
	if (u->status == CROWN_LOST) {
		ev_i = crown_engine_event(e, "lost", u->id, "R8.5");
		crown_event_set(&crown_events_at(e->ev, ev_i)->text, "%s has "
		    "failed %d rally attempts and is lost for good.", u->name,
		    u->rally_failures);
		crown_melee_leave(e, u);
	}
	return u->status == CROWN_ROUTING ? 0 : 1;
}

/*
 * A routing unit of the phasing side, at the start of its actions phase.
 * R8.1: the first half-turn after routing, no move.  After that (R8.3) a
 * unit whose orders say `rally` tries to rally when it may; otherwise, or
 * if it fails without being lost, it makes another rout move.  Rallying
 * is by order only: two failures lose the unit (R8.5), so trying is the
 * player's choice.
 */
int
crown_rout_half(struct crown_engine *e, struct crown_unit *u)
{
	const struct crown_action_order	*a;
	struct crown_turn_unit		*tu = crown_engine_tu(e, u);
	struct crown_event		*ev;
	size_t				 ev_i;

	tu->taken_over = CROWN_TAKEN_ROUT;
	tu->acted_this_half = true;
	u->rout_halves++;
	if (u->skip_next) {
		if (ordered_rally(e, u, &a))
			crown_engine_skip(e, u, a, "R8.1", "a unit does not "
			    "move in the half-turn after it routed");
		u->skip_next = false;
		ev_i = crown_engine_event(e, "rout_halt", u->id, "R8.1");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "stays");
		crown_event_set(&ev->text, "%s, routed last half-turn, does "
		    "not move this half-turn.", u->name);
		return e->error;
	}
	if (ordered_rally(e, u, &a) && rally(e, u, a) != 0)
		return e->error;
	if (e->error == 0)
		rout_move(e, u, "R8.3", "routs on");
	return e->error;
}

/* The rally order itself is carried out by the rout pass above, before
 * the unit's other orders. */
int
crown_action_rally(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return e->error;
}
