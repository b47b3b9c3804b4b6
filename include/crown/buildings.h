/*
 * buildings.h: buildings (buildings.c: R11): classes, cover, who is inside.
 */
#ifndef CROWN_BUILDINGS_H
#define CROWN_BUILDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* R11.1, R11.2: its cover now, stepped down once for every
 * rules->building[].casualties of damage; NONE if unclassified. */
enum crown_cover crown_building_cover(const struct crown_rules *,
	    const struct crown_feature *);

/* R11.1: stands it holds (0 if unclassified). */
int	crown_building_capacity(const struct crown_rules *,
	    const struct crown_feature *);

/* The unit's footprint centre is inside the building. */
bool	crown_building_contains(const struct crown_rules *,
	    const struct crown_feature *, const struct crown_unit *);

/*
 * R11.1: u is in the building and fits: the stands of the units inside,
 * in state order up to and including u, are within its capacity.
 */
bool	crown_building_shelters(const struct crown_state *,
	    const struct crown_rules *, const struct crown_feature *,
	    const struct crown_unit *);

/*
 * R11.2: one casualty to the building.  Returns true when its cover has
 * just stepped down.
 */
bool	crown_building_damage(const struct crown_rules *,
	    struct crown_feature *);

/*
 * R11.3, at `crown new`: give every unclassified building (class 0) a
 * class from one D6 read on the rules' average die (faces 2 3 3 4 4 5).
 * Dice are keyed (turn 0, half 0, building id, "building_class"); one
 * `building_class` event each goes to ev when not NULL.  Returns 0, or
 * CROWN_EINVALID when the dice fail (crown_dice_error says why).
 */
int	crown_building_classify(struct crown_state *,
	    const struct crown_rules *, struct crown_dice *,
	    struct crown_events *);

#endif
