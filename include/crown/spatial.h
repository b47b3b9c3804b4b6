/*
 * spatial.h: spatial queries on the engine's units and terrain (spatial.c), so
 * nothing scans all pairs of units.
 */
#ifndef CROWN_SPATIAL_H
#define CROWN_SPATIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/*
 * Spatial queries (spatial.c), so nothing scans all pairs of units: the
 * units whose footprint's bounding box comes within `radius` inches of box
 * b (and half a hundredth more, CROWN_GEOM_SLACK, so that no distance
 * R13.1 takes to the hundredth is missed), as state indices, ascending, each once (candidates: measure exact
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

/* Terrain features whose bounding boxes come within radius of b (and
 * CROWN_GEOM_SLACK more), as indices into state->terrain, ascending. */
size_t	crown_engine_terrain_near(struct crown_engine *,
	    const struct crown_geom_box *b, double radius, const int **out);
void	crown_spatial_free(struct crown_engine *);

#endif
