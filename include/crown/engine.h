/*
 * engine.h: crown_resolve, the pure function at the heart of crown, and the
 * context the rule modules (move.c, fire.c, melee.c, morale.c, ...) share
 * while a turn is resolved.
 *
 * resolve(state, orders, rules, dice) -> state', events: it knows nothing
 * of files, git or mail.
 */
#ifndef CROWN_ENGINE_H
#define CROWN_ENGINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "crown/dice.h"
#include "crown/diag.h"
#include "crown/events.h"
#include "crown/geom.h"
#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"

/* What happened to a unit this game turn, for the rules that look back
 * (R5.2, R7.1, R7.3, R9, R10.3).  Parallel to state->units. */
struct crown_turn_unit {
	bool	moved;			/* R3.3: moved this game turn */
	bool	moved_this_half;	/* R5.2: fires one stand in two */
	bool	acted_this_half;
	int	fire_casualties;	/* R7.1: this half-turn */
	bool	under_artillery_fire;	/* R7.3 */
	bool	lost_melee_round;	/* R7.1 */
	bool	leader_killed;		/* R7.1: attached officer/general */
	int	casualties_half;	/* R10.3 */
	int	tests;			/* R7.3: tests this game turn */
	bool	tested_this_phase;	/* R7.1: once per morale phase */
	bool	routed_this_half;	/* R7.1, R7.3: rout within */
	bool	charged;		/* R9.5: charged this half-turn */
	bool	fired;
	int	start_figures_half;	/* figures at the half-turn's start */
	/* morale.c, rout.c, officers.c (R7, R8, R10) */
	bool	officer_killed;		/* R7.3: its attached officer */
	bool	general_killed;		/* R7.1, R7.3: its side's general */
	int	taken_over;		/* R7.5, R8: orders set aside */
	struct crown_quad rout_at;	/* R7.1, R7.3: where it routed */
};

struct crown_engine {
	struct crown_state		*s;
	const struct crown_rules	*rules;
	struct crown_dice		*dice;
	struct crown_events		*ev;
	struct crown_diags		*diags;
	struct crown_orders *const	*orders;
	size_t				 norders;
	int				 turn;		/* being resolved */
	int				 half;		/* 0, 1, ... */
	const char			*phasing;	/* side id */
	enum crown_phase		 phase;
	struct crown_turn_unit		*tu;
	int				 error;		/* sticky */
	struct crown_spatial		*spatial;	/* spatial.c */
};

/*
 * Resolve one game turn: the attacker's half-turn, then the defender's
 * (R2.1), each through charge declaration, actions, melee and morale.
 * Mutates s (turn + 1) and appends to ev.  Returns 0, or CROWN_EINVALID
 * when the dice fail (a script ran out or held a bad value; the problem is
 * in d); then s is half-resolved and must be thrown away.
 */
int	crown_resolve(struct crown_state *s, struct crown_orders *const *orders,
	    size_t norders, const struct crown_rules *rules,
	    struct crown_dice *dice, struct crown_events *ev,
	    struct crown_diags *d);

/* For the rule modules. */

/* Roll a die for `who`; records nothing in events (the caller adds the
 * die to its event).  On failure sets e->error and returns it. */
int	crown_engine_roll(struct crown_engine *, const char *who,
	    const char *purpose, int sides, int *out);
/* Roll and add the die to event ev_i; returns the die's index or -1. */
int	crown_engine_roll_into(struct crown_engine *, size_t ev_i,
	    const char *who, const char *purpose, int sides);
/* A new event in the current half and phase. */
size_t	crown_engine_event(struct crown_engine *, const char *kind,
	    const char *unit, const char *rule);
/* An `order_skipped` event (R2.2). */
void	crown_engine_skip(struct crown_engine *, const struct crown_unit *,
	    const struct crown_action_order *, const char *rule,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
struct crown_turn_unit *crown_engine_tu(struct crown_engine *,
	    const struct crown_unit *);
/* The orders of the phasing side, or NULL (R2.3). */
const struct crown_orders *crown_engine_side_orders(struct crown_engine *,
	    const char *side);
/* The home edge of a unit's side (R7.4, R8.1). */
int	crown_engine_home_edge(const struct crown_engine *,
	    const struct crown_unit *);
/* Take figures from the last stand first (R1.3); a unit with no stands is
 * lost.  Returns the figures actually taken. */
int	crown_unit_take_casualties(struct crown_unit *, int figures);

/* A unit's footprint on the table (R1.2): its stands in line or column
 * (limbered guns deeper), front edge centred on its position. */
void	crown_unit_footprint(struct crown_quad *out,
	    const struct crown_rules *, const struct crown_unit *);

/*
 * Spatial queries (spatial.c), so nothing scans all pairs of units: the
 * units whose footprint's bounding box comes within `radius` inches of box
 * b, as state indices, ascending, each once (candidates: measure exact
 * distances yourself; lost units included).  *out stays valid until the
 * next query.  After changing a unit's position, facing, formation,
 * stands or limbered state, call crown_engine_unit_moved.
 */
size_t	crown_engine_units_near(struct crown_engine *,
	    const struct crown_geom_box *b, double radius, const size_t **out);
void	crown_engine_unit_moved(struct crown_engine *,
	    const struct crown_unit *);
/* The least crown_geom_dist_quad from q to the footprint of a unit, not
 * lost, of a side other than `side' (HUGE_VAL: none). */
double	crown_engine_nearest_enemy(struct crown_engine *, const char *side,
	    const struct crown_quad *q);
/* Terrain features whose bounding boxes come within radius of b, as
 * indices into state->terrain, ascending. */
size_t	crown_engine_terrain_near(struct crown_engine *,
	    const struct crown_geom_box *b, double radius, const int **out);
void	crown_spatial_free(struct crown_engine *);

/* Phase and action handlers, one module each. */
typedef int (*crown_action_fn)(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

int	crown_charge_phase(struct crown_engine *);	/* charge.c, R9.1 */
int	crown_melee_phase(struct crown_engine *);	/* melee.c, R9 */
int	crown_morale_phase(struct crown_engine *);	/* morale.c, R7 */
/* move.c: R4, R6.6 */
int	crown_action_move(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_manhandle(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_limber(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_unlimber(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_formation(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_help(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
/*
 * Movement services of move.c, for charges (R9.1), retirement (R7.4) and
 * routs (R8.1) as well as ordered moves.
 */
enum crown_move_kind {
	CROWN_MOVE_NORMAL,	/* R4.1 normal roll */
	CROWN_MOVE_CHARGE,	/* normal + charge bonus (R9.1) */
	CROWN_MOVE_CHARGE_HALF,	/* normal + half the bonus, rounded up */
	CROWN_MOVE_CHARGE_NONE,	/* normal only */
	CROWN_MOVE_ROUT,	/* normal + rout bonus (R8.1) */
	CROWN_MOVE_RETIRE	/* one normal move (R7.4) */
};

#define CROWN_MOVE_IGNORE_TERRAIN 0x01	/* R8.1: routs pay no penalty */
#define CROWN_MOVE_INTO_CONTACT	  0x02	/* R9.1: no stop short of enemy */
#define CROWN_MOVE_KEEP_FACING	  0x04	/* R7.4: retire facing the enemy */

/*
 * Roll a unit's gross movement (R4.1): base, then the charge or rout bonus,
 * then the road bonus when `road` (FORMATS.md dice order), each die added
 * to event ev_i.  Sets *gross in inches; returns 0 or e->error.
 */
int	crown_move_roll(struct crown_engine *, struct crown_unit *,
	    size_t ev_i, enum crown_move_kind, bool road, double *gross);
/*
 * Move u along path (n points) with a gross roll: terrain penalties for
 * each feature the footprint touches within the gross distance (R4.4,
 * rolled into ev_i unless CROWN_MOVE_IGNORE_TERRAIN), drowning (R4.3a),
 * sticking (R4.3b), stopping 1 inch short of enemies (R4.5) unless
 * CROWN_MOVE_INTO_CONTACT, leaving the table (lost).  Ends facing `face`
 * (-1: along the last leg, or the old facing with KEEP_FACING).  Fills the
 * event's from/to; *moved is the distance covered.
 */
int	crown_move_along(struct crown_engine *, struct crown_unit *,
	    size_t ev_i, const struct crown_point *path, size_t n,
	    double gross, unsigned flags, int face, double *moved);
/* A point off the unit's home edge, straight back (R7.4, R8.1). */
struct crown_point crown_move_home_point(const struct crown_engine *,
	    const struct crown_unit *);
/*
 * R4.6: where a leader walking straight from `from' towards `to' ends: at
 * most `budget' inches, short of terrain N/A for cavalry (*blocked is
 * then that feature, else NULL).  Rounded to hundredths.
 */
struct crown_point crown_move_leader_walk(const struct crown_state *,
	    const struct crown_rules *, struct crown_point from,
	    struct crown_point to, double budget,
	    const struct crown_feature **blocked);

/* fire.c: reaction fire of a charged unit at the band its test named
 * (R9.2); an event of its own. */
int	crown_fire_reaction(struct crown_engine *, struct crown_unit *firer,
	    struct crown_unit *target, enum crown_band_name band);

/* fire.c: R5, R6, R10.4, R11.2.  A NULL target (R2.3) fires at the
 * nearest enemy in range and arc. */
int	crown_action_fire(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
/* artillery.c: R6.5: the crew leaves its gun (morale results retire 2
 * and rout): the unit becomes an abandoned gun marker, status lost, where
 * it stands; do not move it afterwards. */
void	crown_artillery_abandon(struct crown_engine *, struct crown_unit *);
/* artillery.c: R6.5: abandoned guns in contact with an enemy unit change
 * sides (after each actions phase). */
int	crown_artillery_captures(struct crown_engine *);
/* artillery.c: R6.4: `help: GUN` on a gun that is not stuck: the helper
 * (regular or veteran infantry within reach) makes good its lost crew. */
int	crown_artillery_crew(struct crown_engine *, struct crown_unit *helper,
	    struct crown_unit *gun, const struct crown_action_order *);
/* rout.c: R8 */
int	crown_action_rally(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
/* leaders.c: R4.6, R10: the phasing side's leader orders, after its
 * units' actions */
int	crown_leaders_actions(struct crown_engine *,
	    const struct crown_orders *);
int	crown_action_hold(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_reload(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_reform(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

#endif
