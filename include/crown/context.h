/*
 * context.h: the context the rule modules share while a turn is resolved
 * (context.c): the engine, the turn record of each unit, dice into
 * events, skipped orders.
 */
#ifndef CROWN_CONTEXT_H
#define CROWN_CONTEXT_H

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
#include "crown/unit.h"

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

/* An `order_skipped` event (R2.2); returns its index. */
size_t	crown_engine_skip(struct crown_engine *, const struct crown_unit *,
	    const struct crown_action_order *, const char *rule,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The same with its reason written already: reason is the event's now. */
size_t	crown_engine_skip_why(struct crown_engine *,
	    const struct crown_unit *, const struct crown_action_order *,
	    const char *rule, char *reason);
/* An event's field (text, result, order) set to a copy of s. */
void	 crown_engine_set(char **field, const char *s);
struct crown_turn_unit *crown_engine_tu(struct crown_engine *,
	    const struct crown_unit *);

/* The orders of the phasing side, or NULL (R2.3). */
const struct crown_orders *crown_engine_side_orders(struct crown_engine *,
	    const char *side);

/* The home edge of a unit's side (R7.4, R8.1). */
int	crown_engine_home_edge(const struct crown_engine *,
	    const struct crown_unit *);

/* Phase and action handlers, one module each. */
typedef int (*crown_action_fn)(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

/* Why a unit's orders were set aside (struct crown_turn_unit). */
#define CROWN_TAKEN_ROUT	1	/* R8: routing, rallying */
#define CROWN_TAKEN_LAST_STAND	2	/* R7.5 */

#endif
