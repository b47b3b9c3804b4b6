/*
 * place.h: where the map's labels go (place.c).  Labels are placed one
 * after another, each at the first of a fixed list of candidate places
 * around what it names (below, above, beside, then rings further out)
 * that overlaps no label placed before it, no text of the map and, if it
 * can, nothing drawn that it was told to avoid (the units, then the lines
 * of moves and fire).  A bucket
 * grid over the drawing keeps each test to the few boxes near a
 * candidate, so placing n labels costs about n times the candidates.
 * Boxes are in pixels, y down.
 */
#ifndef CROWN_PLACE_H
#define CROWN_PLACE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/geom.h"

struct crown_place;

/* A placer over the drawing bounds (labels stay inside). */
struct crown_place *crown_place_new(struct crown_geom_box bounds);
void	crown_place_free(struct crown_place *);

/* A box no label may overlap (a text already drawn). */
void	crown_place_text(struct crown_place *, struct crown_geom_box);

/* A box labels avoid where they can (a unit, a leader's mark). */
void	crown_place_avoid(struct crown_place *, struct crown_geom_box);

/* A line labels keep off, less than they keep off units (a move, a
 * shot): the segment from (x1, y1) to (x2, y2). */
void	crown_place_line(struct crown_place *, double x1, double y1,
	    double x2, double y2);

/*
 * Place a label of w by h pixels for the thing in box `at` (a point is
 * a box of no size); centred: the first place tried is on `at` (an
 * area's name) rather than below it.  *out is the label's box, which is
 * then taken.  True when it sits on, below, above or beside `at`; false
 * when it went to a corner or further out (draw a line back to `at`, as
 * it could be taken for a neighbour's).  When no place near it is clear
 * of the other texts, the label goes further out, as far as 40 rings of
 * 12 pixels, to a place clear of texts (and false); with nowhere free,
 * the first candidate is taken, overlaps and all.
 */
bool	crown_place_label(struct crown_geom_box *out, struct crown_place *,
	    struct crown_geom_box at, double w, double h, bool centred);

#endif
