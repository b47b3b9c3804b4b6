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

/* The footprints of its stands, in the order of its stands, as many as
 * R1.2 lays out (a gun one): up to max in out; returns how many there
 * are.  Together they make crown_unit_footprint. */
int	crown_unit_stand_footprints(struct crown_quad *out, size_t max,
	    const struct crown_rules *, const struct crown_unit *);

/* Action cost for this unit (R3.3, R3.5). */
int	crown_action_cost(const struct crown_rules *,
	    const struct crown_unit *, enum crown_action);

/* The unit's range bands: its weapon's (R5.3) or its gun's (R6.2). */
const struct crown_band *crown_unit_bands(const struct crown_rules *,
	    const struct crown_unit *);

/* The unit has at least one band (R5.3: not lances, not wagons). */
bool	crown_unit_can_fire(const struct crown_rules *,
	    const struct crown_unit *);

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

/*
 * R4.7: two footprints overlap when one crosses into the other by more
 * than the rules' contact_crossing (touching, or crossing by a hundredth,
 * is contact).
 * How far they cross is the least overlap of their projections on the
 * normals of their edges (the separating axis test: for two rectangles,
 * the shortest push that parts them).  CROWN_OVERLAP_SLACK absorbs the
 * binary fractions of positions kept to hundredths; precision, not a rule.
 */
#define CROWN_OVERLAP_SLACK	1e-6

/* How far footprints a and b cross (0: they touch or are apart). */
double	crown_unit_crossing(const struct crown_quad *a,
	    const struct crown_quad *b);

/* Footprints with these bounding boxes cannot overlap (R4.7): the boxes
 * touch or are apart.  The cheap test before crown_unit_quads_overlap. */
bool	crown_unit_boxes_apart(const struct crown_geom_box *,
	    const struct crown_geom_box *);

/* a and b overlap (R4.7). */
bool	crown_unit_quads_overlap(const struct crown_rules *,
	    const struct crown_quad *a, const struct crown_quad *b);

/* Units that take up room on the table (R4.7): not lost, not an abandoned
 * gun (a marker, R6.5). */
bool	crown_unit_on_table(const struct crown_unit *);

#endif
