/*
 * geom.h: table geometry.  Deterministic to the bit: only + - * / and
 * sqrt (correctly rounded in IEEE 754), angles in whole degrees through a
 * sine table, never libm's transcendental functions.  Build with
 * -ffp-contract=off so no multiply-add is fused.
 *
 * Conventions (R1.2).  Inches; origin at the table's south-west corner,
 * x east, y north.  Bearings are whole compass degrees: 0 north (+y),
 * 90 east (+x), clockwise; any int is accepted and taken mod 360.
 *
 * Boundaries (R13.1).  Every predicate is closed: a point on an edge or a
 * vertex is inside, touching shapes intersect, a distance exactly equal to
 * a limit is within it.  Predicates compare the double results of the
 * computation exactly (no epsilon), so the same inputs give the same
 * answer on every machine.
 *
 * Polygons are arrays of n vertices in either winding, closed implicitly
 * (edge n-1 -> 0), simple (not self-intersecting).  A polygon is the
 * closed region it bounds.  Degenerate polygons are accepted and mean the
 * set of points on their edges: n == 1 is that point, n == 2 the segment,
 * collinear or zero-area rings the segments they trace; repeated vertices
 * are zero-length edges and change nothing.  n == 0 is the empty set: it
 * contains and touches nothing and is at distance HUGE_VAL from anything.
 *
 * Polylines (paths, roads, walls) are m points joined by m - 1 segments,
 * not closed; m == 1 is a point, m == 0 is empty as above.
 *
 * Coordinates must be finite.  No function keeps a pointer it is given.
 */
#ifndef CROWN_GEOM_H
#define CROWN_GEOM_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/types.h"

/* Inches; origin at the table's south-west corner, x east, y north. */
struct crown_point {
	double	x;
	double	y;
};

/*
 * A unit's footprint: corners front-left, front-right, rear-right,
 * rear-left as seen by the unit looking along its facing (clockwise on
 * the table).
 */
struct crown_quad {
	struct crown_point	c[4];
};

/* An axis-aligned box, closed: a box with min == max is a line or point. */
struct crown_geom_box {
	double	minx;
	double	miny;
	double	maxx;
	double	maxy;
};

/* R9.4 where a point lies relative to a unit's front and rear lines. */
enum crown_geom_zone {
	CROWN_GEOM_IN_FRONT,	/* on or ahead of the front line */
	CROWN_GEOM_BETWEEN,	/* behind the front, on or ahead of rear */
	CROWN_GEOM_BEHIND	/* behind the rear line */
};

/* Spatial index of boxes (opaque). */
struct crown_geom_grid;

/*
 * Angles.
 */

/* deg mod 360, in 0..359. */
int	crown_geom_norm(int deg);
/* Sine and cosine of whole degrees from the table: sin 30 == 0.5. */
double	crown_geom_sin(int deg);
double	crown_geom_cos(int deg);
/* Unit vector of a bearing: (sin b, cos b), so 0 is (0, 1). */
struct crown_point crown_geom_dir(int bearing);
/*
 * Bearing from `from' to `to', 0..359, rounded to the nearest whole
 * degree without atan2: the quadrant is found exactly by 90-degree
 * rotations, the degree by binary search on cross products against the
 * table, and rounding by comparing dot products with the two neighbouring
 * table directions.  A direction exactly half way (x.5 degrees) rounds
 * clockwise, to the larger bearing (359.5 rounds to 0).  Equal points
 * give 0.  bearing(p, p + dir(b)) == b for every b.
 */
int	crown_geom_bearing(struct crown_point from, struct crown_point to);
/*
 * Eight-point compass name of a bearing for narrative text: "north",
 * "north-east", ..., "north-west".  Each point covers 45 degrees centred
 * on it: 338..22 is north, 23..67 north-east.  Static string.
 */
const char *crown_geom_compass(int bearing);

/*
 * Units (R1.2).
 */

/*
 * Width and depth of a formation of n stands of frontage x sdepth with
 * gap inches between neighbouring stands.  Line: side by side, width
 * n * frontage + (n - 1) * gap, depth sdepth.  Column: one behind
 * another, width frontage, depth n * sdepth + (n - 1) * gap.  n <= 0
 * gives 0 x 0.
 */
void	crown_geom_formation_size(double *width, double *depth,
	    enum crown_formation f, int n, double frontage, double sdepth,
	    double gap);
/*
 * Footprint of a unit whose front edge is centred on pos, facing
 * `facing', width across the front, body extending depth behind the
 * front edge.
 */
void	crown_geom_footprint(struct crown_quad *out, struct crown_point pos,
	    int facing, double width, double depth);
/* Centre of a footprint: midpoint of its front-left/rear-right diagonal. */
struct crown_point crown_geom_quad_centre(const struct crown_quad *);

/*
 * Polygons.
 */

/* Signed area, positive counter-clockwise (x east, y north).  n < 3: 0. */
double	crown_geom_poly_area(const struct crown_point *p, size_t n);
/* Bounding box of n >= 1 points; n == 0 gives an empty (inverted) box. */
struct crown_geom_box crown_geom_bounds(const struct crown_point *p,
	    size_t n);
/* pt inside or on the boundary of the polygon. */
bool	crown_geom_point_in_poly(struct crown_point pt,
	    const struct crown_point *p, size_t n);
/*
 * Segments ab and cd share at least one point (crossing, touching,
 * collinear overlap).  A zero-length segment is a point.
 */
bool	crown_geom_seg_intersect(struct crown_point a, struct crown_point b,
	    struct crown_point c, struct crown_point d);
/*
 * The two polygon regions share at least one point: an edge of one
 * crosses or touches an edge of the other, or one contains the other.
 * O(na * nb).
 */
bool	crown_geom_poly_intersect(const struct crown_point *a, size_t na,
	    const struct crown_point *b, size_t nb);
/*
 * Convex hull of n points into out (room for n points), counter-clockwise
 * from the lowest-x (then lowest-y) point, without repeated or collinear
 * points.  Returns its size: 0 for n == 0, 1 when all points are equal,
 * 2 when all are collinear.  O(n log n).
 */
size_t	crown_geom_hull(struct crown_point *out, const struct crown_point *p,
	    size_t n);
/*
 * Area swept by the polygon translated by delta, as the convex hull of
 * the polygon at both ends (exact for convex shapes such as footprints).
 * out has room for 2 * n points; returns the hull's size.
 */
size_t	crown_geom_sweep(struct crown_point *out, const struct crown_point *p,
	    size_t n, struct crown_point delta);

/*
 * Distances (R5.6 range: shortest distance between footprints).
 */

/* Distance between two points. */
/* Half a hundredth of an inch: what a box query adds to its radius so
 * that nothing crown_rules_within takes is left out of it. */
#define CROWN_GEOM_SLACK	0.005
double	crown_geom_dist(struct crown_point a, struct crown_point b);
/* Distance from p to segment ab (to a when a == b). */
double	crown_geom_dist_point_seg(struct crown_point p, struct crown_point a,
	    struct crown_point b);
/* Shortest distance between segments ab and cd; 0 when they meet. */
double	crown_geom_dist_seg_seg(struct crown_point a, struct crown_point b,
	    struct crown_point c, struct crown_point d);
/* Shortest distance between two polygon regions; 0 when they meet. */
double	crown_geom_dist_poly(const struct crown_point *a, size_t na,
	    const struct crown_point *b, size_t nb);
/* The same for two footprints. */
double	crown_geom_dist_quad(const struct crown_quad *,
	    const struct crown_quad *);

/*
 * Polylines with a width: a road of width w covers everything within w/2
 * of its centre line; a wall has width 0.
 */

/* Distance from pt to the polyline. */
double	crown_geom_dist_point_polyline(struct crown_point pt,
	    const struct crown_point *line, size_t m);
/* pt is on the road: within width/2 of the polyline (boundary included). */
bool	crown_geom_on_road(struct crown_point pt,
	    const struct crown_point *line, size_t m, double width);
/* Distance between a polygon region and a polyline; 0 when they meet. */
double	crown_geom_dist_poly_polyline(const struct crown_point *p, size_t n,
	    const struct crown_point *line, size_t m);
/* The polygon comes within width/2 of the polyline (touching counts). */
bool	crown_geom_poly_touches_polyline(const struct crown_point *p,
	    size_t n, const struct crown_point *line, size_t m, double width);

/*
 * Paths (R4.2, R4.4).
 */

/* Sum of the leg lengths, added first leg first. */
double	crown_geom_path_length(const struct crown_point *path, size_t m);
/*
 * Point at distance s along the path: path[0] for s <= 0, the last point
 * for s >= length, a vertex exactly when s reaches it.  m == 0: (0, 0).
 */
struct crown_point crown_geom_path_point(const struct crown_point *path,
	    size_t m, double s);
/*
 * The path up to distance s: the vertices passed, then the point at s
 * (which is the vertex itself when s lands on one).  *out is a new array
 * of the returned count (1..m) that the caller frees; m == 0 gives NULL
 * and 0.
 */
size_t	crown_geom_path_prefix(struct crown_point **out,
	    const struct crown_point *path, size_t m, double s);
/*
 * A footprint q at the start of the path, carried along it without
 * rotation (translated by path(t) - path[0]), touches the polygon
 * anywhere in its first s inches of travel, start and end included.  Each
 * leg is tested as the convex hull of the footprint at both ends of the
 * leg.  s <= 0 or m < 2 tests q where it stands.
 */
bool	crown_geom_sweep_touches_poly(const struct crown_quad *q,
	    const struct crown_point *path, size_t m, double s,
	    const struct crown_point *p, size_t n);
/* The same against a polyline of the given width (road, wall). */
bool	crown_geom_sweep_touches_polyline(const struct crown_quad *q,
	    const struct crown_point *path, size_t m, double s,
	    const struct crown_point *line, size_t k, double width);
/*
 * Least distance between the polygon region p and the footprint q carried
 * along its first s inches of the path as above (start and end
 * included): 0 when they meet anywhere, HUGE_VAL when n == 0.  Exact for
 * a convex footprint, since each leg sweeps the convex hull of the
 * footprint at its two ends (R4.5: stopping short of an enemy).
 */
double	crown_geom_sweep_dist_poly(const struct crown_quad *q,
	    const struct crown_point *path, size_t m, double s,
	    const struct crown_point *p, size_t n);
/*
 * The points a + t (b - a), t in [0, 1], that lie within r of segment
 * cd form one interval (the capsule round cd is convex): its ends in *lo
 * and *hi and true, or false when no point does.  A zero-length ab gives
 * [0, 1] or nothing.  R4.2: a leg is on a road when the intervals of the
 * road's segments cover [0, 1].
 */
bool	crown_geom_seg_capsule(double *lo, double *hi, struct crown_point a,
	    struct crown_point b, struct crown_point c, struct crown_point d,
	    double r);

/*
 * Front and rear lines (R9.4).  The front line runs through pos across
 * the facing, the rear line parallel to it depth inches behind.  On the
 * front line counts as in front (R13.1); on the rear line, by the same
 * rule, counts as in front of the rear line, i.e. CROWN_GEOM_BETWEEN
 * (a flank, not a rear, attack).
 */
enum crown_geom_zone crown_geom_zone_point(struct crown_point pos,
	    int facing, double depth, struct crown_point pt);
/*
 * Zone of a polygon: that of its most forward part, so any part in front
 * makes it CROWN_GEOM_IN_FRONT.  n == 0: CROWN_GEOM_BEHIND.
 */
enum crown_geom_zone crown_geom_zone_poly(struct crown_point pos,
	    int facing, double depth, const struct crown_point *p, size_t n);

/*
 * Line of sight (R5.5, R5.6).
 */

/*
 * Length of the part of segment ab inside the polygon region (stretches
 * along its boundary count as inside).  For "more than 2 inches into
 * thick woods".
 */
double	crown_geom_seg_length_inside(struct crown_point a,
	    struct crown_point b, const struct crown_point *p, size_t n);
/* Segment ab meets the polygon region at all (touching counts). */
bool	crown_geom_seg_crosses_poly(struct crown_point a, struct crown_point b,
	    const struct crown_point *p, size_t n);
/* Segment ab meets the polyline (touching counts). */
bool	crown_geom_seg_crosses_polyline(struct crown_point a,
	    struct crown_point b, const struct crown_point *line, size_t m);
/*
 * Segment ab meets the polyline; *out is then the distance from b to the
 * nearest common point (R5.5: a wall within 2 inches of the target at b).
 * *out is left alone when they do not meet.
 */
bool	crown_geom_seg_polyline_nearest(double *out, struct crown_point a,
	    struct crown_point b, const struct crown_point *line, size_t m);

/*
 * Spatial index: a uniform grid of about n cells over the boxes' bounds.
 * Build: O(n + the number of (box, cell) overlaps), which is O(n) when
 * boxes are no bigger than a cell or two, O(n * cells) at worst (every box
 * covering the whole table).  Query: O(cells covered by the query +
 * entries in them + k log k) for k results; never all-pairs.
 */

/*
 * Boxes overlap or touch (closed).  Boxes with NaN, or with min above max
 * on either axis, never overlap.  Inline: the spatial indexes ask it of
 * every candidate.
 */
static inline bool
crown_geom_box_overlap(const struct crown_geom_box *a,
    const struct crown_geom_box *b)
{
	return a->minx <= a->maxx && a->miny <= a->maxy &&
	    b->minx <= b->maxx && b->miny <= b->maxy &&
	    a->minx <= b->maxx && b->minx <= a->maxx &&
	    a->miny <= b->maxy && b->miny <= a->maxy;
}
/*
 * Index n boxes; ids[i] is box i's id (ids == NULL: the index i).  The
 * boxes are copied.  Free with crown_geom_grid_free.
 */
struct crown_geom_grid *crown_geom_grid_new(const struct crown_geom_box *,
	    const int *ids, size_t n);
/*
 * Ids of the boxes overlapping or touching q (exact, not just
 * candidates), ascending, each once.  *out is grown with crown_grow
 * (capacity *cap) and stays the caller's to free; start with NULL and 0
 * and reuse it across queries.  Returns the count.
 */
size_t	crown_geom_grid_query(int **out, size_t *cap,
	    const struct crown_geom_grid *, const struct crown_geom_box *q);
void	crown_geom_grid_free(struct crown_geom_grid *);

#endif
