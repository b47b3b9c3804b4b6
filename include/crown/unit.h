/*
 * unit.h: facts about one unit (unit.c): figures, stands, footprint,
 * action cost, casualties.
 */
#ifndef CROWN_UNIT_H
#define CROWN_UNIT_H

#include <stdbool.h>

#include "crown/geom.h"
#include "crown/rules.h"
#include "crown/state.h"

/* Figures in all its stands (R1.3). */
int	crown_unit_figures(const struct crown_unit *);

/* Stands with at least one figure (R1.3). */
int	crown_unit_stands(const struct crown_unit *);

/* Take figures from the last stand first (R1.3); a unit with no stands is
 * lost.  Returns the figures actually taken. */
int	crown_unit_take_casualties(struct crown_unit *, int figures);

/* A unit's footprint on the table (R1.2): its stands in line or column
 * (limbered guns deeper), front edge centred on its position. */
void	crown_unit_footprint(struct crown_quad *out,
	    const struct crown_rules *, const struct crown_unit *);

/* Action cost for this unit (R3.3, R3.5). */
int	crown_action_cost(const struct crown_rules *,
	    const struct crown_unit *, enum crown_action);

/* R3.5, R6.4: artillery below its minimum crew. */
bool	crown_unit_undercrewed(const struct crown_rules *,
	    const struct crown_unit *);

/*
 * Two footprints this close (inches) are in contact: positions are kept
 * to hundredths of an inch (state.c), so a charge that stopped touching
 * its target may be that far from it once rounded.  Precision, not a
 * rule.
 */
#define CROWN_CONTACT	0.01

#endif
