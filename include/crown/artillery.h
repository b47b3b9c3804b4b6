/*
 * artillery.h: artillery (artillery.c: R6, R11.2): gunfire, guns abandoned and
 * captured, crews made good.
 */
#ifndef CROWN_ARTILLERY_H
#define CROWN_ARTILLERY_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"
#include "crown/firing.h"

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

/* artillery.c (R6): one gun's shot at t in band b; event of `kind`;
 * `numbers', for reaction fire, says why band b ("using the canister
 * numbers its morale test allowed"), else NULL. */
int	crown_artillery_shoot(struct crown_engine *, struct crown_unit *,
	    struct crown_fire_target *, double range, enum crown_band_name,
	    const char *kind, const char *rule, const char *numbers);

/* R11.2: a gun fires at a building (fire: building:ID). */
int	crown_artillery_building(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *, struct crown_feature *);

#endif
