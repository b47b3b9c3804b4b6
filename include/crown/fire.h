/*
 * fire.h: small-arms fire (fire.c: R5, R10.4), and the reaction fire of a
 * charged unit (R9.2).
 */
#ifndef CROWN_FIRE_H
#define CROWN_FIRE_H

#include "crown/context.h"

/* Reaction fire of a charged unit at the band its test named (R9.2); an
 * event of its own. */
int	crown_fire_reaction(struct crown_engine *, struct crown_unit *firer,
	    struct crown_unit *target, enum crown_band_name band);

/* R5, R6, R10.4, R11.2.  A NULL target (R2.3) fires at the nearest enemy
 * in range and arc. */
int	crown_action_fire(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

#endif
