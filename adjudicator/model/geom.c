/*
 * geom.c: table geometry (R1.2, R4.2, R4.4, R5.5, R5.6, R9.4, R13.1).
 *
 * Everything here must give the same bits on every machine, so it uses
 * only + - * / and sqrt, which IEEE 754 rounds correctly, on doubles, in a
 * fixed order, with -ffp-contract=off.  Angles are whole degrees looked
 * up in a sine table; there is no call to sin, cos or atan2.  Predicates
 * compare exactly, with no epsilon: a shape exactly on a boundary is on
 * it (R13.1), and anything else is deterministic all the same.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/geom.h"
#include "crown/xalloc.h"

/*
 * sin of 0..90 whole degrees, each the double nearest the true value
 * (computed once to 80 digits with Python's decimal module and rounded by
 * float()), written with 17 significant digits so that they read back to
 * the same bits.  Row comments give the first degree of the row.
 */
static const double sin_table[91] = {
	/*  0 */ 0.0000000000000000, 0.017452406437283512,
	/*  2 */ 0.034899496702500969, 0.052335956242943835,
	/*  4 */ 0.069756473744125302, 0.087155742747658180,
	/*  6 */ 0.10452846326765347, 0.12186934340514748,
	/*  8 */ 0.13917310096006544, 0.15643446504023087,
	/* 10 */ 0.17364817766693036, 0.19080899537654480,
	/* 12 */ 0.20791169081775934, 0.22495105434386500,
	/* 14 */ 0.24192189559966773, 0.25881904510252074,
	/* 16 */ 0.27563735581699916, 0.29237170472273671,
	/* 18 */ 0.30901699437494745, 0.32556815445715664,
	/* 20 */ 0.34202014332566871, 0.35836794954530027,
	/* 22 */ 0.37460659341591201, 0.39073112848927377,
	/* 24 */ 0.40673664307580021, 0.42261826174069944,
	/* 26 */ 0.43837114678907740, 0.45399049973954680,
	/* 28 */ 0.46947156278589075, 0.48480962024633700,
	/* 30 */ 0.50000000000000000, 0.51503807491005416,
	/* 32 */ 0.52991926423320490, 0.54463903501502708,
	/* 34 */ 0.55919290347074679, 0.57357643635104605,
	/* 36 */ 0.58778525229247314, 0.60181502315204827,
	/* 38 */ 0.61566147532565829, 0.62932039104983750,
	/* 40 */ 0.64278760968653936, 0.65605902899050728,
	/* 42 */ 0.66913060635885824, 0.68199836006249848,
	/* 44 */ 0.69465837045899725, 0.70710678118654757,
	/* 46 */ 0.71933980033865119, 0.73135370161917046,
	/* 48 */ 0.74314482547739424, 0.75470958022277201,
	/* 50 */ 0.76604444311897801, 0.77714596145697090,
	/* 52 */ 0.78801075360672190, 0.79863551004729283,
	/* 54 */ 0.80901699437494745, 0.81915204428899180,
	/* 56 */ 0.82903757255504174, 0.83867056794542405,
	/* 58 */ 0.84804809615642596, 0.85716730070211233,
	/* 60 */ 0.86602540378443860, 0.87461970713939585,
	/* 62 */ 0.88294759285892699, 0.89100652418836790,
	/* 64 */ 0.89879404629916704, 0.90630778703664994,
	/* 66 */ 0.91354545764260087, 0.92050485345244037,
	/* 68 */ 0.92718385456678742, 0.93358042649720174,
	/* 70 */ 0.93969262078590843, 0.94551857559931685,
	/* 72 */ 0.95105651629515353, 0.95630475596303544,
	/* 74 */ 0.96126169593831889, 0.96592582628906831,
	/* 76 */ 0.97029572627599647, 0.97437006478523525,
	/* 78 */ 0.97814760073380569, 0.98162718344766398,
	/* 80 */ 0.98480775301220802, 0.98768834059513777,
	/* 82 */ 0.99026806874157036, 0.99254615164132198,
	/* 84 */ 0.99452189536827329, 0.99619469809174555,
	/* 86 */ 0.99756405025982420, 0.99862953475457383,
	/* 88 */ 0.99939082701909576, 0.99984769515639127,
	/* 90 */ 1.0000000000000000,
};

/* What a swept footprint is tested against. */
struct target {
	const struct crown_point *p;
	size_t			  n;
	bool			  line;		/* polyline of some width */
	double			  width;
};

/* A uniform grid of cells, each listing the boxes that overlap it. */
struct crown_geom_grid {
	struct crown_geom_box	 bounds;	/* of the valid boxes */
	size_t			 nx, ny;	/* cells across and up */
	double			 cw, ch;	/* cell size; 0 for one cell */
	size_t			*start;		/* nx * ny + 1 offsets */
	size_t			*item;		/* box indices, ascending */
	struct crown_geom_box	*box;
	int			*id;
	size_t			 n;
};

static double	orient(struct crown_point, struct crown_point,
		    struct crown_point);
static bool	in_seg_box(struct crown_point, struct crown_point,
		    struct crown_point);
static bool	on_segment(struct crown_point, struct crown_point,
		    struct crown_point);
static size_t	nsegs(size_t);
static int	cmp_point(const void *, const void *);
static int	cmp_double(const void *, const void *);
static int	cmp_int(const void *, const void *);
static size_t	path_walk(struct crown_point *, bool *,
		    const struct crown_point *, size_t, double);
static bool	target_touched(const struct crown_point *, size_t,
		    const struct target *);
static bool	sweep_touches(const struct crown_quad *,
		    const struct crown_point *, size_t, double,
		    const struct target *);
static enum crown_geom_zone zone_of(double, double);
static double	ahead(struct crown_point, struct crown_point,
		    struct crown_point);
static double	meet_from_b(struct crown_point, struct crown_point,
		    struct crown_point, struct crown_point);
static bool	box_valid(const struct crown_geom_box *);
static void	clip_linear(double *, double *, double, double, double,
		    double);
static void	disk_interval(double *, double *, struct crown_point, double,
		    double, double, struct crown_point, double);
static size_t	cell_of(double, double, double, size_t);

/* Points of a polygon whose orientations edges_meet keeps on the stack. */
#define EDGES_STACK	16

static const char *const compass_names[8] = {
	"north", "north-east", "east", "south-east",
	"south", "south-west", "west", "north-west"
};

/*
 * Angles.
 */

int
crown_geom_norm(int deg)
{
	int	r;

	/* Most bearings asked about are normal already: no division. */
	if (deg >= 0 && deg < 360)
		return deg;
	r = deg % 360;
	return r < 0 ? r + 360 : r;
}

/* sin of d in 0..359. */
static double
sin_of(int d)
{
	/* Quadrants by symmetry; never negate the 0 entry (no -0.0). */
	if (d <= 90)
		return sin_table[d];
	if (d <= 180)
		return sin_table[180 - d];
	if (d <= 270)
		return -sin_table[d - 180];
	return -sin_table[360 - d];
}

double
crown_geom_sin(int deg)
{
	return sin_of(crown_geom_norm(deg));
}

double
crown_geom_cos(int deg)
{
	int	d;

	/* Normalise before adding 90 so that INT_MAX cannot overflow. */
	d = crown_geom_norm(deg) + 90;
	return sin_of(d < 360 ? d : d - 360);
}

/* Every footprint and every label's try asks for one: the bearing is
 * normalised once for both. */
struct crown_point
crown_geom_dir(int bearing)
{
	struct crown_point	u;
	int			d;

	d = crown_geom_norm(bearing);
	u.x = sin_of(d);
	u.y = sin_of(d < 270 ? d + 90 : d - 270);
	return u;
}

int
crown_geom_bearing(struct crown_point from, struct crown_point to)
{
	double	x, y, t;
	int	q, lo, hi, mid;

	x = to.x - from.x;
	y = to.y - from.y;
	if ((x == 0 && y == 0) || isnan(x) || isnan(y))
		return 0;
	/*
	 * Turn the direction back 90 degrees at a time, (x, y) -> (-y, x),
	 * which is exact, until it lies in [0, 90): x >= 0 and y > 0.
	 */
	for (q = 0; !(x >= 0 && y > 0) && q < 4; q++) {
		t = x;
		x = -y;
		y = t;
	}
	/*
	 * Largest d in 0..89 with the direction on or clockwise of dir(d),
	 * cross(dir(d), v) <= 0, i.e. x cos d >= y sin d.  Both sides are
	 * monotone in d (x, y >= 0, the table increases), so bisect.
	 */
	lo = 0;
	hi = 89;
	while (lo < hi) {
		mid = (lo + hi + 1) / 2;
		if (x * sin_table[90 - mid] >= y * sin_table[mid])
			lo = mid;
		else
			hi = mid - 1;
	}
	/*
	 * Round: the nearer of d and d + 1 has the larger cosine, i.e. dot
	 * product with v.  A tie (exactly d + 0.5) goes clockwise, to d + 1.
	 */
	if (x * sin_table[lo + 1] + y * sin_table[89 - lo] >=
	    x * sin_table[lo] + y * sin_table[90 - lo])
		lo++;
	return (lo + 90 * q) % 360;
}

const char *
crown_geom_compass(int bearing)
{
	/* Sectors of 45 degrees centred on each point: 23 is north-east. */
	return compass_names[(crown_geom_norm(bearing) * 2 + 45) / 90 % 8];
}

/*
 * Units.
 */

void
crown_geom_formation_size(double *width, double *depth,
    enum crown_formation f, int n, double frontage, double sdepth,
    double gap)
{
	double	dn;

	if (n <= 0) {
		*width = 0;
		*depth = 0;
		return;
	}
	dn = n;
	if (f == CROWN_COLUMN) {
		*width = frontage;
		*depth = dn * sdepth + (dn - 1) * gap;
	} else {
		*width = dn * frontage + (dn - 1) * gap;
		*depth = sdepth;
	}
}

void
crown_geom_footprint(struct crown_quad *out, struct crown_point pos,
    int facing, double width, double depth)
{
	struct crown_point	u, r;
	double			hw;

	u = crown_geom_dir(facing);				/* ahead */
	/*
	 * Right, crown_geom_dir(facing + 90), from ahead: (cos, -sin), the
	 * very entries of the table.  0 - u.x, not -u.x: facing 0 and 180
	 * have sin +0, and the table's right then has y +0, not -0.
	 */
	r.x = u.y;
	r.y = 0 - u.x;
	hw = width / 2;
	out->c[0].x = pos.x - r.x * hw;
	out->c[0].y = pos.y - r.y * hw;
	out->c[1].x = pos.x + r.x * hw;
	out->c[1].y = pos.y + r.y * hw;
	out->c[2].x = out->c[1].x - u.x * depth;
	out->c[2].y = out->c[1].y - u.y * depth;
	out->c[3].x = out->c[0].x - u.x * depth;
	out->c[3].y = out->c[0].y - u.y * depth;
}

struct crown_point
crown_geom_quad_centre(const struct crown_quad *q)
{
	struct crown_point	c;

	c.x = (q->c[0].x + q->c[2].x) / 2;
	c.y = (q->c[0].y + q->c[2].y) / 2;
	return c;
}

/*
 * Primitives.
 */

/* Twice the signed area of abc: > 0 when c is left of a->b. */
static double
orient(struct crown_point a, struct crown_point b, struct crown_point c)
{
	return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

/* p lies in the bounding box of segment ab. */
static bool
in_seg_box(struct crown_point p, struct crown_point a, struct crown_point b)
{
	return (a.x <= b.x ? a.x <= p.x && p.x <= b.x :
	    b.x <= p.x && p.x <= a.x) &&
	    (a.y <= b.y ? a.y <= p.y && p.y <= b.y :
	    b.y <= p.y && p.y <= a.y);
}

/* p lies on segment ab (a point when a == b). */
static bool
on_segment(struct crown_point p, struct crown_point a, struct crown_point b)
{
	return orient(a, b, p) == 0 && in_seg_box(p, a, b);
}

double
crown_geom_dist(struct crown_point a, struct crown_point b)
{
	double	dx, dy;

	dx = b.x - a.x;
	dy = b.y - a.y;
	return sqrt(dx * dx + dy * dy);
}

/* Segments of an m-point polyline; segment i is line[i], line[i + (m > 1)]. */
static size_t
nsegs(size_t m)
{
	return m < 2 ? m : m - 1;
}

static int
cmp_point(const void *va, const void *vb)
{
	const struct crown_point	*a = va, *b = vb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->y != b->y)
		return a->y < b->y ? -1 : 1;
	return 0;
}

static int
cmp_double(const void *va, const void *vb)
{
	double	a = *(const double *)va, b = *(const double *)vb;

	return (a > b) - (a < b);
}

static int
cmp_int(const void *va, const void *vb)
{
	int	a = *(const int *)va, b = *(const int *)vb;

	return (a > b) - (a < b);
}

/*
 * Polygons.
 */

double
crown_geom_poly_area(const struct crown_point *p, size_t n)
{
	double	s;
	size_t	i, j;

	if (n < 3)
		return 0;
	s = 0;
	for (i = 0, j = n - 1; i < n; j = i++)
		s += p[j].x * p[i].y - p[i].x * p[j].y;
	return s / 2;
}

struct crown_geom_box
crown_geom_bounds(const struct crown_point *p, size_t n)
{
	struct crown_geom_box	b;
	size_t			i;

	b.minx = b.miny = HUGE_VAL;
	b.maxx = b.maxy = -HUGE_VAL;
	for (i = 0; i < n; i++) {
		if (p[i].x < b.minx)
			b.minx = p[i].x;
		if (p[i].x > b.maxx)
			b.maxx = p[i].x;
		if (p[i].y < b.miny)
			b.miny = p[i].y;
		if (p[i].y > b.maxy)
			b.maxy = p[i].y;
	}
	return b;
}

bool
crown_geom_point_in_poly(struct crown_point pt, const struct crown_point *p,
    size_t n)
{
	struct crown_point	lo, hi;
	size_t			i, j;
	bool			in;

	/*
	 * Boundary first (closed), then the crossing number of a ray
	 * towards +x; edges count half-open in y so that a vertex on the
	 * ray is counted once.  A zero-area ring crosses the ray an even
	 * number of times, so only its edges are inside.
	 */
	in = false;
	for (i = 0, j = n - 1; i < n; j = i++) {
		if (on_segment(pt, p[j], p[i]))
			return true;
		if ((p[i].y > pt.y) == (p[j].y > pt.y))
			continue;
		if (p[i].y > p[j].y) {
			lo = p[j];
			hi = p[i];
		} else {
			lo = p[i];
			hi = p[j];
		}
		if (orient(lo, hi, pt) > 0)
			in = !in;
	}
	return in;
}

/* crown_geom_seg_intersect from its orientations: d1 and d2 of a and b
 * from cd, d3 and d4 of c and d from ab. */
static inline bool
seg_meet(double d1, double d2, double d3, double d4, struct crown_point a,
    struct crown_point b, struct crown_point c, struct crown_point d)
{
	if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) &&
	    ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
		return true;
	/*
	 * Touching, collinear overlap, or a zero-length segment: an end on
	 * the other segment (on_segment, whose orientations are d1-d4).
	 */
	return (d1 == 0 && in_seg_box(a, c, d)) ||
	    (d2 == 0 && in_seg_box(b, c, d)) ||
	    (d3 == 0 && in_seg_box(c, a, b)) ||
	    (d4 == 0 && in_seg_box(d, a, b));
}

bool
crown_geom_seg_intersect(struct crown_point a, struct crown_point b,
    struct crown_point c, struct crown_point d)
{
	return seg_meet(orient(c, d, a), orient(c, d, b), orient(a, b, c),
	    orient(a, b, d), a, b, c, d);
}

/*
 * crown_geom_seg_intersect of some edge of a with some edge of b, with
 * the orientations of b's vertices from each edge of a computed once
 * for all of b's edges rather than for each pair.  apart: a's and b's
 * boxes do not overlap (crown_geom_box_overlap), so no end of an edge
 * lies in the box of an edge of the other, and only edges that cross
 * meet: a pair whose c and d lie on one side of ab is passed over with
 * the same answer crown_geom_seg_intersect would give it.
 */
static bool
edges_meet(const struct crown_point *a, size_t na,
    const struct crown_point *b, size_t nb, bool apart)
{
	double	 buf[EDGES_STACK], *row, d3, d4;
	size_t	 i, j, k, l;
	bool	 met = false;

	row = nb <= EDGES_STACK ? buf : xreallocarray(NULL, nb, sizeof(*row));
	for (i = 0, j = na - 1; i < na && !met; j = i++) {
		for (k = 0; k < nb; k++)
			row[k] = orient(a[j], a[i], b[k]);
		for (k = 0, l = nb - 1; k < nb && !met; l = k++) {
			d3 = row[l];
			d4 = row[k];
			if (apart &&
			    !((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
				continue;
			met = seg_meet(orient(b[l], b[k], a[j]),
			    orient(b[l], b[k], a[i]), d3, d4, a[j], a[i], b[l],
			    b[k]);
		}
	}
	if (row != buf)
		free(row);
	return met;
}

bool
crown_geom_poly_intersect(const struct crown_point *a, size_t na,
    const struct crown_point *b, size_t nb)
{
	struct crown_geom_box	ba, bb;

	if (na == 0 || nb == 0)
		return false;
	/* Exact: a shared point lies in both boxes. */
	ba = crown_geom_bounds(a, na);
	bb = crown_geom_bounds(b, nb);
	if (!crown_geom_box_overlap(&ba, &bb))
		return false;
	if (edges_meet(a, na, b, nb, false))
		return true;
	/* No edges meet: one inside the other, or apart. */
	return crown_geom_point_in_poly(a[0], b, nb) ||
	    crown_geom_point_in_poly(b[0], a, na);
}

size_t
crown_geom_hull(struct crown_point *out, const struct crown_point *p,
    size_t n)
{
	struct crown_point	*s, *h;
	size_t			 i, m, k, t;

	if (n == 0)
		return 0;
	s = xreallocarray(NULL, n, sizeof(*s));
	memcpy(s, p, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_point);
	for (m = 1, i = 1; i < n; i++)
		if (s[i].x != s[m - 1].x || s[i].y != s[m - 1].y)
			s[m++] = s[i];
	if (m == 1) {
		out[0] = s[0];
		free(s);
		return 1;
	}
	/* Andrew's monotone chain: lower hull, then upper. */
	h = xreallocarray(NULL, 2 * m, sizeof(*h));
	k = 0;
	for (i = 0; i < m; i++) {
		while (k >= 2 && orient(h[k - 2], h[k - 1], s[i]) <= 0)
			k--;
		h[k++] = s[i];
	}
	for (i = m - 1, t = k + 1; i-- > 0;) {
		while (k >= t && orient(h[k - 2], h[k - 1], s[i]) <= 0)
			k--;
		h[k++] = s[i];
	}
	k--;		/* the last point is the first again */
	memcpy(out, h, k * sizeof(*h));
	free(h);
	free(s);
	return k;
}

size_t
crown_geom_sweep(struct crown_point *out, const struct crown_point *p,
    size_t n, struct crown_point delta)
{
	struct crown_point	*pts;
	size_t			 i, k;

	if (n == 0)
		return 0;
	pts = xreallocarray(NULL, 2 * n, sizeof(*pts));
	for (i = 0; i < n; i++) {
		pts[i] = p[i];
		pts[n + i].x = p[i].x + delta.x;
		pts[n + i].y = p[i].y + delta.y;
	}
	k = crown_geom_hull(out, pts, 2 * n);
	free(pts);
	return k;
}

/*
 * Distances.
 */

static inline double
point_seg(struct crown_point p, struct crown_point a, struct crown_point b)
{
	double	dx, dy, px, py, dot, len2, cr;

	dx = b.x - a.x;
	dy = b.y - a.y;
	px = p.x - a.x;
	py = p.y - a.y;
	dot = px * dx + py * dy;
	if (dot <= 0)
		return sqrt(px * px + py * py);
	len2 = dx * dx + dy * dy;
	if (dot >= len2)
		return crown_geom_dist(p, b);
	/*
	 * Perpendicular distance from the cross product rather than from a
	 * projected point: exact for axis-aligned segments.
	 */
	cr = dx * py - dy * px;
	return fabs(cr) / sqrt(len2);
}

double
crown_geom_dist_point_seg(struct crown_point p, struct crown_point a,
    struct crown_point b)
{
	return point_seg(p, a, b);
}

double
crown_geom_dist_seg_seg(struct crown_point a, struct crown_point b,
    struct crown_point c, struct crown_point d)
{
	double	best, t;

	if (crown_geom_seg_intersect(a, b, c, d))
		return 0;
	best = crown_geom_dist_point_seg(a, c, d);
	if ((t = crown_geom_dist_point_seg(b, c, d)) < best)
		best = t;
	if ((t = crown_geom_dist_point_seg(c, a, b)) < best)
		best = t;
	if ((t = crown_geom_dist_point_seg(d, a, b)) < best)
		best = t;
	return best;
}

double
crown_geom_dist_poly(const struct crown_point *a, size_t na,
    const struct crown_point *b, size_t nb)
{
	struct crown_geom_box	ba, bb;
	double			best, t;
	size_t			i, j, k, l;
	bool			apart;

	if (na == 0 || nb == 0)
		return HUGE_VAL;
	/*
	 * crown_geom_poly_intersect, and every pair of edges tried whether
	 * the boxes overlap or not: where they are apart a pair of nearly
	 * parallel edges may still meet in crown_geom_seg_intersect's
	 * rounding, and the distance is 0 then, as it always was (a replay
	 * measures as the turn did; test-geom).
	 */
	ba = crown_geom_bounds(a, na);
	bb = crown_geom_bounds(b, nb);
	apart = !crown_geom_box_overlap(&ba, &bb);
	if (edges_meet(a, na, b, nb, apart))
		return 0;
	if (!apart && (crown_geom_point_in_poly(a[0], b, nb) ||
	    crown_geom_point_in_poly(b[0], a, na)))
		return 0;
	/*
	 * The least crown_geom_dist_seg_seg over every pair of edges: no
	 * pair meets, so the least distance from a vertex of either to an
	 * edge of the other, each measured once (every pair of edges
	 * measures both ends of each against the other).
	 */
	best = HUGE_VAL;
	for (i = 0, j = na - 1; i < na; j = i++)
		for (k = 0; k < nb; k++)
			if ((t = point_seg(b[k], a[j], a[i])) < best)
				best = t;
	for (k = 0, l = nb - 1; k < nb; l = k++)
		for (i = 0; i < na; i++)
			if ((t = point_seg(a[i], b[l], b[k])) < best)
				best = t;
	return best;
}

double
crown_geom_dist_quad(const struct crown_quad *a, const struct crown_quad *b)
{
	return crown_geom_dist_poly(a->c, 4, b->c, 4);
}

/*
 * Polylines.
 */

double
crown_geom_dist_point_polyline(struct crown_point pt,
    const struct crown_point *line, size_t m)
{
	double	best, t;
	size_t	i, ns;

	best = HUGE_VAL;
	ns = nsegs(m);
	for (i = 0; i < ns; i++) {
		t = crown_geom_dist_point_seg(pt, line[i], line[i + (m > 1)]);
		if (t < best)
			best = t;
	}
	return best;
}

bool
crown_geom_on_road(struct crown_point pt, const struct crown_point *line,
    size_t m, double width)
{
	return m > 0 &&
	    crown_geom_dist_point_polyline(pt, line, m) <= width / 2;
}

double
crown_geom_dist_poly_polyline(const struct crown_point *p, size_t n,
    const struct crown_point *line, size_t m)
{
	double	best, t;
	size_t	i, j, k, ns;

	if (n == 0 || m == 0)
		return HUGE_VAL;
	/* A polyline that meets no edge is wholly inside or outside. */
	if (crown_geom_point_in_poly(line[0], p, n))
		return 0;
	best = HUGE_VAL;
	ns = nsegs(m);
	for (k = 0; k < ns; k++)
		for (i = 0, j = n - 1; i < n; j = i++) {
			t = crown_geom_dist_seg_seg(line[k],
			    line[k + (m > 1)], p[j], p[i]);
			if (t == 0)
				return 0;
			if (t < best)
				best = t;
		}
	return best;
}

bool
crown_geom_poly_touches_polyline(const struct crown_point *p, size_t n,
    const struct crown_point *line, size_t m, double width)
{
	return n > 0 && m > 0 &&
	    crown_geom_dist_poly_polyline(p, n, line, m) <= width / 2;
}

/*
 * Paths.
 */

double
crown_geom_path_length(const struct crown_point *path, size_t m)
{
	double	s;
	size_t	i;

	s = 0;
	for (i = 0; i + 1 < m; i++)
		s += crown_geom_dist(path[i], path[i + 1]);
	return s;
}

/*
 * Walk s inches along path (m >= 1).  *at is the point reached; returns k
 * such that path[0..k-1] are the vertices reached, and sets *vertex when
 * *at is path[k - 1] itself.  Each leg's remaining distance is compared
 * with its length exactly, so s equal to a vertex's distance stops there.
 */
static size_t
path_walk(struct crown_point *at, bool *vertex,
    const struct crown_point *path, size_t m, double s)
{
	double	rem, len;
	size_t	i;

	*vertex = true;
	if (!(s > 0) || m == 1) {
		*at = path[0];
		return 1;
	}
	rem = s;
	for (i = 0; i + 1 < m; i++) {
		len = crown_geom_dist(path[i], path[i + 1]);
		if (rem == len) {
			*at = path[i + 1];
			return i + 2;
		}
		if (rem < len) {
			at->x = path[i].x + (path[i + 1].x - path[i].x) *
			    rem / len;
			at->y = path[i].y + (path[i + 1].y - path[i].y) *
			    rem / len;
			*vertex = false;
			return i + 1;
		}
		rem -= len;	/* stays > 0 */
	}
	*at = path[m - 1];
	return m;
}

struct crown_point
crown_geom_path_point(const struct crown_point *path, size_t m, double s)
{
	struct crown_point	at = { 0, 0 };
	bool			vertex;

	if (m > 0)
		path_walk(&at, &vertex, path, m, s);
	return at;
}

size_t
crown_geom_path_prefix(struct crown_point **out,
    const struct crown_point *path, size_t m, double s)
{
	struct crown_point	at;
	bool			vertex;
	size_t			k;

	if (m == 0) {
		*out = NULL;
		return 0;
	}
	k = path_walk(&at, &vertex, path, m, s);
	/* k < m when the point is inside a leg, so k + 1 <= m. */
	*out = xreallocarray(NULL, m, sizeof(**out));
	memcpy(*out, path, k * sizeof(**out));
	if (!vertex)
		(*out)[k++] = at;
	return k;
}

static bool
target_touched(const struct crown_point *p, size_t n,
    const struct target *tg)
{
	if (tg->line)
		return crown_geom_poly_touches_polyline(p, n, tg->p, tg->n,
		    tg->width);
	return crown_geom_poly_intersect(p, n, tg->p, tg->n);
}

static bool
sweep_touches(const struct crown_quad *q, const struct crown_point *path,
    size_t m, double s, const struct target *tg)
{
	struct crown_point	*pre, pts[8], hull[8];
	size_t			 i, j, k, nh;
	bool			 hit;

	if (m < 2 || !(s > 0))
		return target_touched(q->c, 4, tg);
	k = crown_geom_path_prefix(&pre, path, m, s);
	hit = k == 1 && target_touched(q->c, 4, tg);
	/* Each leg: the hull of the footprint at both of its ends. */
	for (i = 0; !hit && i + 1 < k; i++) {
		for (j = 0; j < 4; j++) {
			pts[j].x = q->c[j].x + (pre[i].x - pre[0].x);
			pts[j].y = q->c[j].y + (pre[i].y - pre[0].y);
			pts[4 + j].x = q->c[j].x + (pre[i + 1].x - pre[0].x);
			pts[4 + j].y = q->c[j].y + (pre[i + 1].y - pre[0].y);
		}
		nh = crown_geom_hull(hull, pts, 8);
		hit = target_touched(hull, nh, tg);
	}
	free(pre);
	return hit;
}

bool
crown_geom_sweep_touches_poly(const struct crown_quad *q,
    const struct crown_point *path, size_t m, double s,
    const struct crown_point *p, size_t n)
{
	struct target	tg = { p, n, false, 0 };

	return sweep_touches(q, path, m, s, &tg);
}

bool
crown_geom_sweep_touches_polyline(const struct crown_quad *q,
    const struct crown_point *path, size_t m, double s,
    const struct crown_point *line, size_t k, double width)
{
	struct target	tg = { line, k, true, width };

	return sweep_touches(q, path, m, s, &tg);
}

double
crown_geom_sweep_dist_poly(const struct crown_quad *q,
    const struct crown_point *path, size_t m, double s,
    const struct crown_point *p, size_t n)
{
	struct crown_point	*pre, pts[8], hull[8];
	double			 best, t;
	size_t			 i, j, k, nh;

	if (n == 0)
		return HUGE_VAL;
	if (m < 2 || !(s > 0))
		return crown_geom_dist_poly(q->c, 4, p, n);
	k = crown_geom_path_prefix(&pre, path, m, s);
	best = k == 1 ? crown_geom_dist_poly(q->c, 4, p, n) : HUGE_VAL;
	/* Each leg: the hull of the footprint at both of its ends. */
	for (i = 0; best > 0 && i + 1 < k; i++) {
		for (j = 0; j < 4; j++) {
			pts[j].x = q->c[j].x + (pre[i].x - pre[0].x);
			pts[j].y = q->c[j].y + (pre[i].y - pre[0].y);
			pts[4 + j].x = q->c[j].x + (pre[i + 1].x - pre[0].x);
			pts[4 + j].y = q->c[j].y + (pre[i + 1].y - pre[0].y);
		}
		nh = crown_geom_hull(hull, pts, 8);
		t = crown_geom_dist_poly(hull, nh, p, n);
		if (t < best)
			best = t;
	}
	free(pre);
	return best;
}

/* Narrow [*t0, *t1] to the t with lo <= f0 + k t <= hi. */
static void
clip_linear(double *t0, double *t1, double f0, double k, double lo,
    double hi)
{
	double	a, b, t;

	if (k == 0) {
		if (f0 < lo || f0 > hi) {
			*t0 = HUGE_VAL;
			*t1 = -HUGE_VAL;
		}
		return;
	}
	a = (lo - f0) / k;
	b = (hi - f0) / k;
	if (k < 0) {
		t = a;
		a = b;
		b = t;
	}
	if (a > *t0)
		*t0 = a;
	if (b < *t1)
		*t1 = b;
}

/* Widen [*lo, *hi] by the t with |a + t v - c| <= r. */
static void
disk_interval(double *lo, double *hi, struct crown_point a, double vx,
    double vy, double vv, struct crown_point c, double r)
{
	double	wx, wy, bq, cq, disc, sq, t0, t1;

	wx = a.x - c.x;
	wy = a.y - c.y;
	bq = vx * wx + vy * wy;
	cq = wx * wx + wy * wy - r * r;
	disc = bq * bq - vv * cq;
	if (disc < 0)
		return;
	sq = sqrt(disc);
	t0 = (-bq - sq) / vv;
	t1 = (-bq + sq) / vv;
	if (t0 < *lo)
		*lo = t0;
	if (t1 > *hi)
		*hi = t1;
}

bool
crown_geom_seg_capsule(double *lo, double *hi, struct crown_point a,
    struct crown_point b, struct crown_point c, struct crown_point d,
    double r)
{
	double	vx, vy, vv, ex, ey, ee, wx, wy, l, h, t0, t1, re;

	vx = b.x - a.x;
	vy = b.y - a.y;
	vv = vx * vx + vy * vy;
	if (vv == 0) {
		if (!(crown_geom_dist_point_seg(a, c, d) <= r))
			return false;
		*lo = 0;
		*hi = 1;
		return true;
	}
	/*
	 * The capsule is the union of the disks round c and d and the band
	 * beside cd; the union is convex, so the line meets it in the span
	 * of the three pieces it meets.
	 */
	l = HUGE_VAL;
	h = -HUGE_VAL;
	disk_interval(&l, &h, a, vx, vy, vv, c, r);
	disk_interval(&l, &h, a, vx, vy, vv, d, r);
	ex = d.x - c.x;
	ey = d.y - c.y;
	ee = ex * ex + ey * ey;
	if (ee > 0) {
		wx = a.x - c.x;
		wy = a.y - c.y;
		t0 = -HUGE_VAL;
		t1 = HUGE_VAL;
		/* projection on cd within its length */
		clip_linear(&t0, &t1, wx * ex + wy * ey, vx * ex + vy * ey, 0,
		    ee);
		/* within r of the line through cd: |cross| <= r |e| */
		re = r * sqrt(ee);
		clip_linear(&t0, &t1, ex * wy - ey * wx, ex * vy - ey * vx,
		    -re, re);
		if (t0 <= t1) {
			if (t0 < l)
				l = t0;
			if (t1 > h)
				h = t1;
		}
	}
	if (l < 0)
		l = 0;
	if (h > 1)
		h = 1;
	if (!(l <= h))
		return false;
	*lo = l;
	*hi = h;
	return true;
}

/*
 * Front and rear lines.
 */

/* Signed distance of pt ahead of the line through pos across u. */
static double
ahead(struct crown_point pos, struct crown_point u, struct crown_point pt)
{
	return (pt.x - pos.x) * u.x + (pt.y - pos.y) * u.y;
}

/* R13.1: on a line counts as in front of it. */
static enum crown_geom_zone
zone_of(double a, double depth)
{
	if (a >= 0)
		return CROWN_GEOM_IN_FRONT;
	if (a >= -depth)
		return CROWN_GEOM_BETWEEN;
	return CROWN_GEOM_BEHIND;
}

enum crown_geom_zone
crown_geom_zone_point(struct crown_point pos, int facing, double depth,
    struct crown_point pt)
{
	return zone_of(ahead(pos, crown_geom_dir(facing), pt), depth);
}

enum crown_geom_zone
crown_geom_zone_poly(struct crown_point pos, int facing, double depth,
    const struct crown_point *p, size_t n)
{
	struct crown_point	u;
	double			best, a;
	size_t			i;

	if (n == 0)
		return CROWN_GEOM_BEHIND;
	/* A linear function is largest over a polygon at a vertex. */
	u = crown_geom_dir(facing);
	best = ahead(pos, u, p[0]);
	for (i = 1; i < n; i++)
		if ((a = ahead(pos, u, p[i])) > best)
			best = a;
	return zone_of(best, depth);
}

/*
 * Line of sight.
 */

double
crown_geom_seg_length_inside(struct crown_point a, struct crown_point b,
    const struct crown_point *p, size_t n)
{
	struct crown_point	 mid;
	double			*t, rx, ry, len2, ex, ey, cx, cy, den, tt, uu;
	double			 sum, tm;
	size_t			 nt, i, j;

	rx = b.x - a.x;
	ry = b.y - a.y;
	len2 = rx * rx + ry * ry;
	if (n == 0 || len2 == 0)
		return 0;
	/*
	 * Cut ab at every parameter where it meets an edge, then keep the
	 * pieces whose midpoint is inside.  Extra cuts are harmless.
	 */
	t = xreallocarray(NULL, 2 * n + 2, sizeof(*t));
	nt = 0;
	t[nt++] = 0;
	t[nt++] = 1;
	for (i = 0, j = n - 1; i < n; j = i++) {
		ex = p[i].x - p[j].x;
		ey = p[i].y - p[j].y;
		cx = p[j].x - a.x;
		cy = p[j].y - a.y;
		den = rx * ey - ry * ex;
		if (den != 0) {
			tt = (cx * ey - cy * ex) / den;
			uu = (cx * ry - cy * rx) / den;
			if (tt > 0 && tt < 1 && uu >= 0 && uu <= 1)
				t[nt++] = tt;
			continue;
		}
		/* Parallel or a point: cut at the edge's ends. */
		tt = (cx * rx + cy * ry) / len2;
		if (tt > 0 && tt < 1)
			t[nt++] = tt;
		tt = ((p[i].x - a.x) * rx + (p[i].y - a.y) * ry) / len2;
		if (tt > 0 && tt < 1)
			t[nt++] = tt;
	}
	qsort(t, nt, sizeof(*t), cmp_double);
	sum = 0;
	for (i = 0; i + 1 < nt; i++) {
		if (!(t[i + 1] > t[i]))
			continue;
		tm = (t[i] + t[i + 1]) / 2;
		mid.x = a.x + rx * tm;
		mid.y = a.y + ry * tm;
		if (crown_geom_point_in_poly(mid, p, n))
			sum += t[i + 1] - t[i];
	}
	free(t);
	return sum * sqrt(len2);
}

bool
crown_geom_seg_crosses_poly(struct crown_point a, struct crown_point b,
    const struct crown_point *p, size_t n)
{
	struct crown_point	seg[2];

	seg[0] = a;
	seg[1] = b;
	return crown_geom_poly_intersect(seg, 2, p, n);
}

bool
crown_geom_seg_crosses_polyline(struct crown_point a, struct crown_point b,
    const struct crown_point *line, size_t m)
{
	size_t	i, ns;

	ns = nsegs(m);
	for (i = 0; i < ns; i++)
		if (crown_geom_seg_intersect(a, b, line[i],
		    line[i + (m > 1)]))
			return true;
	return false;
}

/* Distance from b to the nearest point ab shares with cd (they meet). */
static double
meet_from_b(struct crown_point a, struct crown_point b, struct crown_point c,
    struct crown_point d)
{
	double	rx, ry, ex, ey, den, tt, best, t;

	if (on_segment(b, c, d))
		return 0;
	rx = b.x - a.x;
	ry = b.y - a.y;
	ex = d.x - c.x;
	ey = d.y - c.y;
	den = rx * ey - ry * ex;
	if (den != 0) {
		tt = ((c.x - a.x) * ey - (c.y - a.y) * ex) / den;
		if (tt < 0)
			tt = 0;
		if (tt > 1)
			tt = 1;
		return (1 - tt) * sqrt(rx * rx + ry * ry);
	}
	/* Collinear overlap: its end nearest b is c or d. */
	best = HUGE_VAL;
	if (on_segment(c, a, b))
		best = crown_geom_dist(b, c);
	if (on_segment(d, a, b) && (t = crown_geom_dist(b, d)) < best)
		best = t;
	if (best == HUGE_VAL)	/* rounding disagreed; stay conservative */
		best = crown_geom_dist_point_seg(b, c, d);
	return best;
}

bool
crown_geom_seg_polyline_nearest(double *out, struct crown_point a,
    struct crown_point b, const struct crown_point *line, size_t m)
{
	double	best, t;
	size_t	i, ns;
	bool	hit;

	hit = false;
	best = HUGE_VAL;
	ns = nsegs(m);
	for (i = 0; i < ns; i++) {
		if (!crown_geom_seg_intersect(a, b, line[i],
		    line[i + (m > 1)]))
			continue;
		hit = true;
		t = meet_from_b(a, b, line[i], line[i + (m > 1)]);
		if (t < best)
			best = t;
	}
	if (hit)
		*out = best;
	return hit;
}

/*
 * Spatial index.
 */

/* min <= max on both axes (false with NaN): anything else is empty. */
static bool
box_valid(const struct crown_geom_box *b)
{
	return b->minx <= b->maxx && b->miny <= b->maxy;
}

/*
 * Cell of coordinate v.  Monotone in v, and the same function places
 * boxes and queries, so a box overlapping a query shares a cell with it.
 */
static size_t
cell_of(double v, double min, double size, size_t ncell)
{
	double	f;

	if (ncell <= 1 || !(size > 0))
		return 0;
	f = (v - min) / size;
	if (!(f > 0))
		return 0;
	if (f >= (double)ncell)
		return ncell - 1;
	return (size_t)f;
}

struct crown_geom_grid *
crown_geom_grid_new(const struct crown_geom_box *boxes, const int *ids,
    size_t n)
{
	struct crown_geom_grid	*g;
	const struct crown_geom_box *b;
	size_t			*fill, side, ncell, i, x, y, x0, x1, y0, y1;
	bool			 any;

	g = xcalloc(1, sizeof(*g));
	g->n = n;
	g->box = xreallocarray(NULL, n, sizeof(*g->box));
	g->id = xreallocarray(NULL, n, sizeof(*g->id));
	if (n > 0)
		memcpy(g->box, boxes, n * sizeof(*g->box));
	any = false;
	for (i = 0; i < n; i++) {
		g->id[i] = ids != NULL ? ids[i] : (int)i;
		b = &g->box[i];
		if (!box_valid(b))
			continue;
		if (!any) {
			g->bounds = *b;
			any = true;
			continue;
		}
		if (b->minx < g->bounds.minx)
			g->bounds.minx = b->minx;
		if (b->miny < g->bounds.miny)
			g->bounds.miny = b->miny;
		if (b->maxx > g->bounds.maxx)
			g->bounds.maxx = b->maxx;
		if (b->maxy > g->bounds.maxy)
			g->bounds.maxy = b->maxy;
	}
	if (!any) {
		g->bounds.minx = g->bounds.miny = HUGE_VAL;
		g->bounds.maxx = g->bounds.maxy = -HUGE_VAL;
	}
	/* About one cell per box: ceil(sqrt(n)) a side, at most 1024. */
	for (side = 1; side * side < n && side < 1024; side++)
		continue;
	g->nx = any && g->bounds.maxx > g->bounds.minx ? side : 1;
	g->ny = any && g->bounds.maxy > g->bounds.miny ? side : 1;
	g->cw = g->nx > 1 ? (g->bounds.maxx - g->bounds.minx) / g->nx : 0;
	g->ch = g->ny > 1 ? (g->bounds.maxy - g->bounds.miny) / g->ny : 0;
	ncell = g->nx * g->ny;

	/* Count per cell (shifted by one), prefix sums, then fill. */
	g->start = xcalloc(ncell + 1, sizeof(*g->start));
	for (i = 0; i < n; i++) {
		b = &g->box[i];
		if (!box_valid(b))
			continue;
		x0 = cell_of(b->minx, g->bounds.minx, g->cw, g->nx);
		x1 = cell_of(b->maxx, g->bounds.minx, g->cw, g->nx);
		y0 = cell_of(b->miny, g->bounds.miny, g->ch, g->ny);
		y1 = cell_of(b->maxy, g->bounds.miny, g->ch, g->ny);
		for (y = y0; y <= y1; y++)
			for (x = x0; x <= x1; x++)
				g->start[y * g->nx + x + 1]++;
	}
	for (i = 1; i <= ncell; i++)
		g->start[i] += g->start[i - 1];
	g->item = xreallocarray(NULL, g->start[ncell], sizeof(*g->item));
	fill = xreallocarray(NULL, ncell, sizeof(*fill));
	memcpy(fill, g->start, ncell * sizeof(*fill));
	for (i = 0; i < n; i++) {
		b = &g->box[i];
		if (!box_valid(b))
			continue;
		x0 = cell_of(b->minx, g->bounds.minx, g->cw, g->nx);
		x1 = cell_of(b->maxx, g->bounds.minx, g->cw, g->nx);
		y0 = cell_of(b->miny, g->bounds.miny, g->ch, g->ny);
		y1 = cell_of(b->maxy, g->bounds.miny, g->ch, g->ny);
		for (y = y0; y <= y1; y++)
			for (x = x0; x <= x1; x++)
				g->item[fill[y * g->nx + x]++] = i;
	}
	free(fill);
	return g;
}

size_t
crown_geom_grid_query(int **out, size_t *cap,
    const struct crown_geom_grid *g, const struct crown_geom_box *q)
{
	size_t	k, m, x, y, x0, x1, y0, y1, c, e, i;

	if (g->n == 0 || !crown_geom_box_overlap(q, &g->bounds))
		return 0;
	x0 = cell_of(q->minx, g->bounds.minx, g->cw, g->nx);
	x1 = cell_of(q->maxx, g->bounds.minx, g->cw, g->nx);
	y0 = cell_of(q->miny, g->bounds.miny, g->ch, g->ny);
	y1 = cell_of(q->maxy, g->bounds.miny, g->ch, g->ny);
	k = 0;
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			c = y * g->nx + x;
			for (e = g->start[c]; e < g->start[c + 1]; e++) {
				i = g->item[e];
				if (!crown_geom_box_overlap(&g->box[i], q))
					continue;
				crown_grow(out, cap, k + 1, sizeof(**out));
				(*out)[k++] = g->id[i];
			}
		}
	if (k == 0)
		return 0;
	/* A box in several cells is found several times: sort, unique. */
	qsort(*out, k, sizeof(**out), cmp_int);
	for (m = 1, i = 1; i < k; i++)
		if ((*out)[i] != (*out)[m - 1])
			(*out)[m++] = (*out)[i];
	return m;
}

void
crown_geom_grid_free(struct crown_geom_grid *g)
{
	if (g == NULL)
		return;
	free(g->item);
	free(g->start);
	free(g->id);
	free(g->box);
	free(g);
}
