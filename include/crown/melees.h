/*
 * melees.h: the bookkeeping of state->melees (melees.c): find, join, leave.
 */
#ifndef CROWN_MELEES_H
#define CROWN_MELEES_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* Start a melee of attacker on defender, or join the defender's melee on
 * the side opposite it (R9.7). */
void	crown_melee_join(struct crown_engine *,
	    struct crown_unit *attacker, struct crown_unit *defender,
	    enum crown_attack);

/* u leaves every melee; a melee left without one side ends. */
void	crown_melee_leave(struct crown_engine *,
	    const struct crown_unit *);

/* Routing and lost units leave melee i; a melee without one side ends
 * (a `melee_end` event) and is taken out of the list. */
void	crown_melee_prune(struct crown_engine *, size_t i);

/* Take melee i out of the list. */
void	crown_melee_remove(struct crown_state *, size_t i);

#endif
