/*
 * rout.h: routs and retirement (rout.c: R7.4, R8): a unit routing, its rout
 * moves, rallying.
 */
#ifndef CROWN_ROUT_H
#define CROWN_ROUT_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"
#include "crown/move.h"

/* rout.c: R8 */
int	crown_action_rally(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

/* The unit routs: status, counters, and its rout move at once (R8.1). */
int	crown_rout_begin(struct crown_engine *, struct crown_unit *,
	    const char *rule);

/* A routing unit of the phasing side, at the start of its actions
 * phase: the half-turn without moving (R8.1), rally (R8.3-R8.6), or
 * another rout move. */
int	crown_rout_half(struct crown_engine *, struct crown_unit *);

/* Retire n normal moves straight towards the home edge, keeping facing
 * (R7.4, R9.8); the event has kind `retire` and the given rule. */
int	crown_retire(struct crown_engine *, struct crown_unit *, int moves,
	    const char *rule, const char *why);

/* Greatest distance a move of this kind can reach (every die at its top),
 * terrain aside: charge reach (R2.2, R7.6), one move (R7.5). */
double	crown_move_reach(const struct crown_rules *,
	    const struct crown_unit *, enum crown_move_kind);

#endif
