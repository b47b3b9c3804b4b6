/*
 * fire.h: small-arms fire (fire.c: R5, R10.4), and the reaction fire of a
 * charged unit (R9.2).
 */
#ifndef CROWN_FIRE_H
#define CROWN_FIRE_H

#include "crown/context.h"

/*
 * Reaction fire of a charged unit with the number of a band (R9.2) at the
 * charger as it stood somewhere on its charge: its footprint there `at'
 * and its front-edge centre `pos'; `when' says where, in words ("as it
 * came within 6 inches").  `allowed' is the band the firer's test named:
 * `band' itself, or a farther one where the charge ended short of it.
 * An event of its own, with `to' at pos.
 */
int	crown_fire_reaction(struct crown_engine *, struct crown_unit *firer,
	    struct crown_unit *target, enum crown_band_name band,
	    enum crown_band_name allowed, const struct crown_quad *at,
	    struct crown_point pos, const char *when);

/* R5, R6, R10.4, R11.2.  A NULL target (R2.3) fires at the nearest enemy
 * in range and arc. */
int	crown_action_fire(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

#endif
