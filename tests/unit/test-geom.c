/*
 * test-geom.c: table geometry (R1.2, R4.4, R5.5, R5.6, R9.4, R13.1).
 *
 * Expected values are exact doubles: the module promises the same bits
 * on every machine, so the tests compare with ==.  Where a value is not a
 * short decimal, the expected value is the same double expression the
 * rule implies (e.g. 10 - sin 45), evaluated by the compiler.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crown/common.h"
#include "crown/geom.h"
#include "crown/xalloc.h"

#define S45	0.70710678118654757

static struct crown_point pt(double, double);
static void	assert_pt(struct crown_point, double, double);
static void	rect(struct crown_point *, double, double, double, double);
static uint32_t	lcg(uint32_t *);
static double	lcg_unit(uint32_t *);
static int	cmp_int(const void *, const void *);

static struct crown_point
pt(double x, double y)
{
	struct crown_point	p;

	p.x = x;
	p.y = y;
	return p;
}

static void
assert_pt(struct crown_point p, double x, double y)
{
	if (p.x != x || p.y != y)
		fail_msg("point (%.17g, %.17g), expected (%.17g, %.17g)",
		    p.x, p.y, x, y);
}

/* Axis-aligned rectangle, counter-clockwise from the south-west corner. */
static void
rect(struct crown_point *r, double x0, double y0, double x1, double y1)
{
	r[0] = pt(x0, y0);
	r[1] = pt(x1, y0);
	r[2] = pt(x1, y1);
	r[3] = pt(x0, y1);
}

/* Numerical Recipes' LCG: the same sequence everywhere, unlike rand(). */
static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s;
}

static double
lcg_unit(uint32_t *s)
{
	return (double)(lcg(s) >> 8) / 16777216.0;
}

static int
cmp_int(const void *va, const void *vb)
{
	int	a = *(const int *)va, b = *(const int *)vb;

	return (a > b) - (a < b);
}

/*
 * Angles.
 */

static void
test_sin_table(void **state)
{
	int	d;
	double	s, c, e;

	assert_true(crown_geom_sin(0) == 0.0);
	assert_true(crown_geom_sin(30) == 0.5);
	assert_true(crown_geom_sin(90) == 1.0);
	assert_true(crown_geom_cos(90) == 0.0);
	assert_true(crown_geom_cos(0) == 1.0);
	assert_true(crown_geom_cos(60) == 0.5);
	assert_true(crown_geom_sin(45) == S45);
	assert_true(crown_geom_sin(1) == 0.017452406437283512);
	assert_true(crown_geom_sin(89) == 0.99984769515639127);
	/* other quadrants by symmetry, no negative zero */
	assert_true(crown_geom_sin(150) == 0.5);
	assert_true(crown_geom_sin(180) == 0.0);
	assert_false(signbit(crown_geom_sin(180)));
	assert_false(signbit(crown_geom_sin(360)));
	assert_false(signbit(crown_geom_cos(270)));
	assert_true(crown_geom_sin(210) == -0.5);
	assert_true(crown_geom_sin(270) == -1.0);
	assert_true(crown_geom_sin(330) == -0.5);
	assert_true(crown_geom_cos(180) == -1.0);
	assert_true(crown_geom_cos(120) == -0.5);
	assert_true(crown_geom_sin(-30) == -0.5);
	assert_true(crown_geom_sin(390) == 0.5);
	assert_true(crown_geom_sin(-330) == 0.5);
	assert_int_equal(crown_geom_norm(-1), 359);
	assert_int_equal(crown_geom_norm(720), 0);
	assert_int_equal(crown_geom_norm(INT_MIN), 232);
	assert_true(crown_geom_sin(INT_MAX) == crown_geom_sin(INT_MAX % 360));
	assert_true(crown_geom_cos(INT_MAX) ==
	    crown_geom_cos(INT_MAX % 360));
	for (d = 0; d < 90; d++)
		assert_true(crown_geom_sin(d) < crown_geom_sin(d + 1));
	for (d = -720; d <= 720; d++) {
		s = crown_geom_sin(d);
		c = crown_geom_cos(d);
		assert_true(c == crown_geom_sin(90 - d));
		assert_true(s == -crown_geom_sin(-d) ||
		    (s == 0 && crown_geom_sin(-d) == 0));
		e = s * s + c * c - 1;
		assert_true(e < 4e-16 && e > -4e-16);
	}
}

static void
test_dir(void **state)
{
	assert_pt(crown_geom_dir(0), 0, 1);
	assert_pt(crown_geom_dir(90), 1, 0);
	assert_pt(crown_geom_dir(180), 0, -1);
	assert_pt(crown_geom_dir(270), -1, 0);
	assert_pt(crown_geom_dir(-90), -1, 0);
	assert_pt(crown_geom_dir(45), S45, S45);
	assert_pt(crown_geom_dir(135), S45, -S45);
	assert_pt(crown_geom_dir(30), 0.5, crown_geom_sin(60));
}

static void
test_bearing_compass_points(void **state)
{
	struct crown_point	o = { 10, 10 };

	assert_int_equal(crown_geom_bearing(o, pt(10, 15)), 0);
	assert_int_equal(crown_geom_bearing(o, pt(13, 13)), 45);
	assert_int_equal(crown_geom_bearing(o, pt(20, 10)), 90);
	assert_int_equal(crown_geom_bearing(o, pt(11, 9)), 135);
	assert_int_equal(crown_geom_bearing(o, pt(10, 0)), 180);
	assert_int_equal(crown_geom_bearing(o, pt(8, 8)), 225);
	assert_int_equal(crown_geom_bearing(o, pt(0, 10)), 270);
	assert_int_equal(crown_geom_bearing(o, pt(9, 11)), 315);
	/* equal points: 0 */
	assert_int_equal(crown_geom_bearing(o, o), 0);
	assert_int_equal(crown_geom_bearing(pt(0, 0), pt(-0.0, 0)), 0);
}

static void
test_bearing_between(void **state)
{
	struct crown_point	o = { 0, 0 };

	/* atan2 values in comments, from Python */
	assert_int_equal(crown_geom_bearing(o, pt(3, 4)), 37);	/* 36.87 */
	assert_int_equal(crown_geom_bearing(o, pt(4, 3)), 53);	/* 53.13 */
	assert_int_equal(crown_geom_bearing(o, pt(1, 2)), 27);	/* 26.57 */
	assert_int_equal(crown_geom_bearing(o, pt(2, 1)), 63);	/* 63.43 */
	assert_int_equal(crown_geom_bearing(o, pt(-3, -4)), 217);
	assert_int_equal(crown_geom_bearing(o, pt(-4, 3)), 307);
	assert_int_equal(crown_geom_bearing(o, pt(5, -12)), 157);
	assert_int_equal(crown_geom_bearing(o, pt(0.01, -1)), 179);
	assert_int_equal(crown_geom_bearing(o, pt(-0.01, 1)), 359);
	/* 359.94 rounds up past 360 to 0 */
	assert_int_equal(crown_geom_bearing(o, pt(-0.001, 1)), 0);
	assert_int_equal(crown_geom_bearing(pt(5, 5), pt(8, 9)), 37);
}

static void
test_bearing_round_trip(void **state)
{
	struct crown_point	o = { 12.5, 7.25 }, u;
	int			b;

	for (b = 0; b < 360; b++) {
		u = crown_geom_dir(b);
		assert_int_equal(crown_geom_bearing(pt(0, 0), u), b);
		assert_int_equal(crown_geom_bearing(o,
		    pt(o.x + 3 * u.x, o.y + 3 * u.y)), b);
	}
}

/*
 * x.5 degrees: the bisector of dir(d) and dir(d + 1) is their sum.  A
 * direction a hair (about 5e-10 rad) anticlockwise of it rounds to d, a
 * hair clockwise to d + 1.  An exact tie would go clockwise (documented);
 * doubles cannot hold an exact half-degree direction, so it is not tested.
 */
static void
test_bearing_half_degree(void **state)
{
	static const int	 ds[] = {
		0, 10, 44, 45, 89, 90, 179, 270, 359
	};
	struct crown_point	 v, t;
	size_t			 i;
	int			 d;

	for (i = 0; i < CROWN_NELEM(ds); i++) {
		d = ds[i];
		v.x = crown_geom_sin(d) + crown_geom_sin(d + 1);
		v.y = crown_geom_cos(d) + crown_geom_cos(d + 1);
		t = crown_geom_dir(d + 90);	/* clockwise tangent */
		assert_int_equal(crown_geom_bearing(pt(0, 0),
		    pt(v.x + 1e-9 * t.x, v.y + 1e-9 * t.y)), (d + 1) % 360);
		assert_int_equal(crown_geom_bearing(pt(0, 0),
		    pt(v.x - 1e-9 * t.x, v.y - 1e-9 * t.y)), d);
	}
}

static void
test_compass(void **state)
{
	assert_string_equal(crown_geom_compass(0), "north");
	assert_string_equal(crown_geom_compass(22), "north");
	assert_string_equal(crown_geom_compass(23), "north-east");
	assert_string_equal(crown_geom_compass(45), "north-east");
	assert_string_equal(crown_geom_compass(67), "north-east");
	assert_string_equal(crown_geom_compass(68), "east");
	assert_string_equal(crown_geom_compass(90), "east");
	assert_string_equal(crown_geom_compass(135), "south-east");
	assert_string_equal(crown_geom_compass(180), "south");
	assert_string_equal(crown_geom_compass(225), "south-west");
	assert_string_equal(crown_geom_compass(270), "west");
	assert_string_equal(crown_geom_compass(315), "north-west");
	assert_string_equal(crown_geom_compass(337), "north-west");
	assert_string_equal(crown_geom_compass(338), "north");
	assert_string_equal(crown_geom_compass(-90), "west");
	assert_string_equal(crown_geom_compass(360), "north");
}

/*
 * Units.
 */

static void
test_formation_size(void **state)
{
	double	w, d;

	/* R1.2 infantry 1.0 x 0.75, 4 stands */
	crown_geom_formation_size(&w, &d, CROWN_LINE, 4, 1.0, 0.75, 0);
	assert_true(w == 4.0 && d == 0.75);
	crown_geom_formation_size(&w, &d, CROWN_COLUMN, 4, 1.0, 0.75, 0);
	assert_true(w == 1.0 && d == 3.0);
	/* skirmishers: 1.0 gap between stands */
	crown_geom_formation_size(&w, &d, CROWN_LINE, 4, 1.0, 0.75, 1.0);
	assert_true(w == 7.0 && d == 0.75);
	crown_geom_formation_size(&w, &d, CROWN_COLUMN, 4, 1.0, 0.75, 1.0);
	assert_true(w == 1.0 && d == 6.0);
	/* cavalry 1.0 x 1.5 */
	crown_geom_formation_size(&w, &d, CROWN_COLUMN, 3, 1.0, 1.5, 0);
	assert_true(w == 1.0 && d == 4.5);
	crown_geom_formation_size(&w, &d, CROWN_LINE, 1, 1.5, 2.0, 1.0);
	assert_true(w == 1.5 && d == 2.0);
	crown_geom_formation_size(&w, &d, CROWN_LINE, 0, 1.0, 0.75, 1.0);
	assert_true(w == 0 && d == 0);
	crown_geom_formation_size(&w, &d, CROWN_COLUMN, -2, 1.0, 0.75, 1.0);
	assert_true(w == 0 && d == 0);
}

static void
test_footprint(void **state)
{
	struct crown_quad	q;
	struct crown_point	c;

	crown_geom_footprint(&q, pt(10, 10), 0, 4, 0.75);
	assert_pt(q.c[0], 8, 10);
	assert_pt(q.c[1], 12, 10);
	assert_pt(q.c[2], 12, 9.25);
	assert_pt(q.c[3], 8, 9.25);
	assert_true(crown_geom_poly_area(q.c, 4) == -3.0);	/* clockwise */
	c = crown_geom_quad_centre(&q);
	assert_pt(c, 10, 9.625);

	crown_geom_footprint(&q, pt(10, 10), 90, 4, 0.75);
	assert_pt(q.c[0], 10, 12);
	assert_pt(q.c[1], 10, 8);
	assert_pt(q.c[2], 9.25, 8);
	assert_pt(q.c[3], 9.25, 12);

	crown_geom_footprint(&q, pt(10, 10), 180, 4, 0.75);
	assert_pt(q.c[0], 12, 10);
	assert_pt(q.c[1], 8, 10);
	assert_pt(q.c[2], 8, 10.75);
	assert_pt(q.c[3], 12, 10.75);

	crown_geom_footprint(&q, pt(10, 10), 270, 4, 0.75);
	assert_pt(q.c[0], 10, 8);
	assert_pt(q.c[1], 10, 12);
	assert_pt(q.c[2], 10.75, 12);
	assert_pt(q.c[3], 10.75, 8);

	/* -90 is 270 */
	crown_geom_footprint(&q, pt(10, 10), -90, 4, 0.75);
	assert_pt(q.c[0], 10, 8);

	/* 45: right is dir(135) = (s, -s), back is (-s, -s) */
	crown_geom_footprint(&q, pt(10, 10), 45, 2, 1);
	assert_pt(q.c[0], 10 - S45, 10 + S45);
	assert_pt(q.c[1], 10 + S45, 10 - S45);
	assert_pt(q.c[2], (10 + S45) - S45, (10 - S45) - S45);
	assert_pt(q.c[3], (10 - S45) - S45, (10 + S45) - S45);
	assert_true(fabs(q.c[2].x - 10) < 1e-14);
	assert_true(fabs(q.c[2].y - (10 - 1.4142135623730951)) < 1e-14);
}

/*
 * crown_geom_footprint takes its right from ahead, (cos, -sin), rather
 * than from crown_geom_dir(facing + 90): the same bits at every facing,
 * +0 (not -0) at 0 and 180 included, and crown_geom_norm's shortcut for
 * bearings already in 0..359 agrees with the division on either side.
 */
static void
test_footprint_right(void **state)
{
	struct crown_quad	q;
	struct crown_point	u, r, want[4];
	double			hw = 1.25, depth = 0.75;
	int			f;

	(void)state;
	for (f = -1080; f <= 1080; f++) {
		assert_int_equal(crown_geom_norm(f), ((f % 360) + 360) % 360);
		u = crown_geom_dir(f);
		r = crown_geom_dir(((f % 360) + 360) % 360 + 90);
		want[0].x = -3.5 - r.x * hw;
		want[0].y = -0.0 - r.y * hw;
		want[1].x = -3.5 + r.x * hw;
		want[1].y = -0.0 + r.y * hw;
		want[2].x = want[1].x - u.x * depth;
		want[2].y = want[1].y - u.y * depth;
		want[3].x = want[0].x - u.x * depth;
		want[3].y = want[0].y - u.y * depth;
		/* at y -0, where the sign of a zero right shows */
		crown_geom_footprint(&q, pt(-3.5, -0.0), f, 2 * hw, depth);
		if (memcmp(q.c, want, sizeof(want)) != 0)
			fail_msg("facing %d: footprint bits differ", f);
	}
	assert_int_equal(crown_geom_norm(INT_MAX), INT_MAX % 360);
	assert_int_equal(crown_geom_norm(INT_MIN), INT_MIN % 360 + 360);
}

/*
 * Polygons.
 */

static void
test_point_in_poly(void **state)
{
	struct crown_point	sq[4], cw[4], l[6], diamond[4];

	rect(sq, 0, 0, 4, 4);
	assert_true(crown_geom_point_in_poly(pt(2, 2), sq, 4));
	/* on edges and vertices: inside */
	assert_true(crown_geom_point_in_poly(pt(4, 2), sq, 4));
	assert_true(crown_geom_point_in_poly(pt(2, 0), sq, 4));
	assert_true(crown_geom_point_in_poly(pt(0, 3), sq, 4));
	assert_true(crown_geom_point_in_poly(pt(2, 4), sq, 4));
	assert_true(crown_geom_point_in_poly(pt(0, 0), sq, 4));
	assert_true(crown_geom_point_in_poly(pt(4, 4), sq, 4));
	/* just outside */
	assert_false(crown_geom_point_in_poly(pt(4.001, 2), sq, 4));
	assert_false(crown_geom_point_in_poly(pt(-0.001, 0), sq, 4));
	assert_false(crown_geom_point_in_poly(pt(2, 4.001), sq, 4));
	/* clockwise winding gives the same answers */
	cw[0] = sq[0];
	cw[1] = sq[3];
	cw[2] = sq[2];
	cw[3] = sq[1];
	assert_true(crown_geom_point_in_poly(pt(2, 2), cw, 4));
	assert_true(crown_geom_point_in_poly(pt(4, 2), cw, 4));
	assert_false(crown_geom_point_in_poly(pt(5, 2), cw, 4));
	/* concave L: the notch is outside, its edges inside */
	l[0] = pt(0, 0);
	l[1] = pt(4, 0);
	l[2] = pt(4, 2);
	l[3] = pt(2, 2);
	l[4] = pt(2, 4);
	l[5] = pt(0, 4);
	assert_true(crown_geom_point_in_poly(pt(1, 3), l, 6));
	assert_false(crown_geom_point_in_poly(pt(3, 3), l, 6));
	assert_true(crown_geom_point_in_poly(pt(3, 2), l, 6));
	assert_true(crown_geom_point_in_poly(pt(2, 2), l, 6));
	/* the ray through vertices */
	diamond[0] = pt(2, 0);
	diamond[1] = pt(4, 2);
	diamond[2] = pt(2, 4);
	diamond[3] = pt(0, 2);
	assert_true(crown_geom_point_in_poly(pt(1, 2), diamond, 4));
	assert_false(crown_geom_point_in_poly(pt(-1, 2), diamond, 4));
	assert_false(crown_geom_point_in_poly(pt(5, 2), diamond, 4));
	assert_false(crown_geom_point_in_poly(pt(-1, 0), diamond, 4));
	assert_true(crown_geom_point_in_poly(pt(3, 1), diamond, 4));
	assert_false(crown_geom_point_in_poly(pt(3.001, 0.999), diamond, 4));
}

/*
 * Each case is checked in all eight orders (either segment first, either
 * end first): the answer must not depend on them.
 */
static void
test_seg_intersect(void **state)
{
	static const struct {
		double	ax, ay, bx, by, cx, cy, dx, dy;
		bool	want;
	} cases[] = {
		{ 0, 0, 4, 4, 0, 4, 4, 0, true },	/* crossing */
		{ 0, 0, 4, 0, 2, 0, 2, 3, true },	/* T */
		{ 0, 0, 4, 0, 4, 0, 5, 5, true },	/* shared end */
		{ 0, 0, 4, 0, 3, 0, 6, 0, true },	/* collinear overlap */
		{ 0, 0, 4, 0, 1, 0, 3, 0, true },	/* one inside other */
		{ 0, 0, 4, 0, 4.001, 0, 6, 0, false },	/* collinear apart */
		{ 0, 0, 4, 0, 0, 1, 4, 1, false },	/* parallel */
		{ 0, 0, 4, 0, 2, 0.001, 2, 3, false },	/* near miss */
		{ 0, 0, 4, 4, 1, 1.001, 3, 3.001, false },
		{ 2, 0, 2, 0, 0, 0, 4, 0, true },	/* a point on it */
		{ 2, 1, 2, 1, 0, 0, 4, 0, false },	/* a point off it */
		{ 1, 1, 1, 1, 1, 1, 1, 1, true },	/* equal points */
		{ 1, 1, 1, 1, 1, 2, 1, 2, false },
	};
	struct crown_point	a, b, c, d;
	size_t			i;

	for (i = 0; i < CROWN_NELEM(cases); i++) {
		a = pt(cases[i].ax, cases[i].ay);
		b = pt(cases[i].bx, cases[i].by);
		c = pt(cases[i].cx, cases[i].cy);
		d = pt(cases[i].dx, cases[i].dy);
		if (crown_geom_seg_intersect(a, b, c, d) != cases[i].want ||
		    crown_geom_seg_intersect(b, a, c, d) != cases[i].want ||
		    crown_geom_seg_intersect(a, b, d, c) != cases[i].want ||
		    crown_geom_seg_intersect(b, a, d, c) != cases[i].want ||
		    crown_geom_seg_intersect(c, d, a, b) != cases[i].want ||
		    crown_geom_seg_intersect(d, c, a, b) != cases[i].want ||
		    crown_geom_seg_intersect(c, d, b, a) != cases[i].want ||
		    crown_geom_seg_intersect(d, c, b, a) != cases[i].want)
			fail_msg("case %zu: expected %d", i, cases[i].want);
	}
}

/*
 * crown_geom_dist_poly is 0 when crown_geom_seg_intersect says two edges
 * meet, whether or not the shapes' boxes overlap.  Two footprints side by
 * side at 26 degrees, 1.52 inches apart with their boxes apart: the
 * rounding of nearly parallel edges makes seg_intersect say they meet,
 * and the distance has always been 0 then (the first release's moves and
 * ranges were measured so, and a replay must measure alike).  Found in
 * review: a change that skipped the edge test when the boxes were apart
 * gave 1.52 here.
 */
static void
test_poly_dist_follows_edges(void **state)
{
	static const struct crown_point a[4] = {
		{ 82.230000000000004, 7.6799999999999997 },
		{ 89.114762394651621, 4.3220770155956671 },
		{ 88.457205674468, 2.9738859461469165 },
		{ 81.572443279816383, 6.331808930551249 }
	};
	static const struct crown_point b[4] = {
		{ 90.480929345026354, 3.6557528724762696 },
		{ 97.36569173967797, 0.29782988807193655 },
		{ 96.70813501949435, -1.0503611813768141 },
		{ 89.823372624842733, 2.3075618030275189 }
	};
	struct crown_geom_box	ba, bb;
	bool			meet = false;
	size_t			i, j, k, l;

	(void)state;
	ba = crown_geom_bounds(a, 4);
	bb = crown_geom_bounds(b, 4);
	assert_false(crown_geom_box_overlap(&ba, &bb));
	for (i = 0, j = 3; i < 4; j = i++)
		for (k = 0, l = 3; k < 4; l = k++)
			meet |= crown_geom_seg_intersect(a[j], a[i], b[l],
			    b[k]);
	assert_true(meet);
	assert_true(crown_geom_dist_poly(a, 4, b, 4) == 0);
	assert_true(crown_geom_dist_poly(b, 4, a, 4) == 0);
}

/*
 * crown_geom_dist_poly as it was written before edges_meet: every pair
 * of edges through crown_geom_seg_intersect, when the boxes overlap by
 * way of crown_geom_poly_intersect, and every vertex against every edge.
 */
static double
dist_poly_ref(const struct crown_point *a, size_t na,
    const struct crown_point *b, size_t nb, bool *apart_meet)
{
	struct crown_geom_box	ba, bb;
	double			best, t;
	size_t			i, j, k, l;

	*apart_meet = false;
	if (na == 0 || nb == 0)
		return HUGE_VAL;
	if (crown_geom_poly_intersect(a, na, b, nb))
		return 0;
	ba = crown_geom_bounds(a, na);
	bb = crown_geom_bounds(b, nb);
	if (!crown_geom_box_overlap(&ba, &bb))
		for (i = 0, j = na - 1; i < na; j = i++)
			for (k = 0, l = nb - 1; k < nb; l = k++)
				if (crown_geom_seg_intersect(a[j], a[i],
				    b[l], b[k])) {
					*apart_meet = true;
					return 0;
				}
	best = HUGE_VAL;
	for (i = 0, j = na - 1; i < na; j = i++)
		for (k = 0; k < nb; k++)
			if ((t = crown_geom_dist_point_seg(b[k], a[j],
			    a[i])) < best)
				best = t;
	for (k = 0, l = nb - 1; k < nb; l = k++)
		for (i = 0; i < na; i++)
			if ((t = crown_geom_dist_point_seg(a[i], b[l],
			    b[k])) < best)
				best = t;
	return best;
}

/* Both ways round, bit for bit; counts the pairs whose boxes were apart
 * and whose edges met all the same. */
static void
check_dist_poly(const struct crown_point *a, size_t na,
    const struct crown_point *b, size_t nb, int *apart_meet, int *zero)
{
	double	got, want;
	bool	am;

	want = dist_poly_ref(a, na, b, nb, &am);
	got = crown_geom_dist_poly(a, na, b, nb);
	if (memcmp(&got, &want, sizeof(got)) != 0)
		fail_msg("dist_poly %.17g, expected %.17g", got, want);
	*apart_meet += am;
	*zero += want == 0;
	want = dist_poly_ref(b, nb, a, na, &am);
	got = crown_geom_dist_poly(b, nb, a, na);
	if (memcmp(&got, &want, sizeof(got)) != 0)
		fail_msg("dist_poly %.17g, expected %.17g (swapped)", got,
		    want);
}

/*
 * crown_geom_dist_poly against dist_poly_ref: long footprints in lines
 * along their front edges (nearly collinear edges, boxes apart, some
 * meeting in the rounding), footprints anywhere (overlapping,
 * inside, apart), axis-aligned ones touching exactly, single points, and
 * a polygon with more points than edges_meet keeps on its stack.
 */
static void
test_poly_dist_reference(void **state)
{
	struct crown_quad	qa, qb;
	struct crown_point	ring[40], p0, r, one[1];
	uint32_t		seed = 20260412;
	double			w, d, gap;
	int			i, k, f, apart_meet = 0, zero = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		f = (int)(lcg(&seed) % 360);
		w = 1 + (double)(lcg(&seed) % 800) / 100;
		d = 0.25 + (double)(lcg(&seed) % 200) / 100;
		p0 = pt(round(lcg_unit(&seed) * 7200) / 100,
		    round(lcg_unit(&seed) * 4800) / 100);
		crown_geom_footprint(&qa, p0, f, w, d);
		switch (i % 4) {
		case 0:
		case 1:
			/* long, and the next in the line gap inches on: about
			 * one in a hundred meets in the rounding */
			w *= 16;
			crown_geom_footprint(&qa, p0, f, w, d);
			gap = (double)(lcg(&seed) % 300) / 100;
			r = crown_geom_dir(f + 90);
			k = i % 4 == 0 ? 1 : -1;
			crown_geom_footprint(&qb, pt(p0.x + k * r.x * (w + gap),
			    p0.y + k * r.y * (w + gap)), f, w, d);
			break;
		case 2:
			crown_geom_footprint(&qb, pt(p0.x + (lcg_unit(&seed) -
			    0.5) * 12, p0.y + (lcg_unit(&seed) - 0.5) * 12),
			    (int)(lcg(&seed) % 360), 1 + lcg_unit(&seed) * 8,
			    0.25 + lcg_unit(&seed) * 2);
			break;
		default:
			/* axis-aligned, edges and corners on one another */
			crown_geom_footprint(&qa, pt(10, 10), 90 *
			    (int)(lcg(&seed) % 4), 4, 2);
			crown_geom_footprint(&qb, pt(10 + (double)(lcg(&seed) %
			    13) / 2 - 3, 10 + (double)(lcg(&seed) % 13) / 2 -
			    3), 90 * (int)(lcg(&seed) % 4), 4, 2);
			break;
		}
		check_dist_poly(qa.c, 4, qb.c, 4, &apart_meet, &zero);
		one[0] = qb.c[lcg(&seed) % 4];
		check_dist_poly(qa.c, 4, one, 1, &apart_meet, &zero);
		one[0] = pt(p0.x + (lcg_unit(&seed) - 0.5) * 6,
		    p0.y + (lcg_unit(&seed) - 0.5) * 6);
		check_dist_poly(one, 1, qa.c, 4, &apart_meet, &zero);
	}
	for (i = 0; i < 40; i++)
		ring[i] = pt(30 + 10 * crown_geom_sin(i * 9),
		    20 + 10 * crown_geom_cos(i * 9));
	for (i = 0; i < 2000; i++) {
		crown_geom_footprint(&qa, pt(lcg_unit(&seed) * 60,
		    lcg_unit(&seed) * 40), (int)(lcg(&seed) % 360), 4, 1);
		check_dist_poly(qa.c, 4, ring, 40, &apart_meet, &zero);
	}
	/* both sides of the boundary were tried */
	if (apart_meet < 20 || zero < apart_meet + 1000)
		fail_msg("%d apart but meeting, %d at 0", apart_meet, zero);
}

static void
test_poly_touching(void **state)
{
	struct crown_point	a[4], b[4], c[4], d[4], big[4], small[4];

	rect(a, 0, 0, 4, 4);
	rect(b, 4, 0, 8, 4);		/* shares the edge x = 4 */
	rect(c, 4, 4, 8, 8);		/* shares the corner (4, 4) */
	rect(d, 4.001, 0, 8, 4);	/* 0.001 apart */
	assert_true(crown_geom_poly_intersect(a, 4, b, 4));
	assert_true(crown_geom_poly_intersect(b, 4, a, 4));
	assert_true(crown_geom_poly_intersect(a, 4, c, 4));
	assert_false(crown_geom_poly_intersect(a, 4, d, 4));
	assert_true(crown_geom_dist_poly(a, 4, b, 4) == 0);
	assert_true(crown_geom_dist_poly(a, 4, c, 4) == 0);
	assert_true(crown_geom_dist_poly(a, 4, d, 4) == 4.001 - 4.0);
	rect(d, 4, 4.001, 8, 8);	/* corner 0.001 off */
	assert_false(crown_geom_poly_intersect(a, 4, d, 4));
	/* containment, no edges meeting */
	rect(big, 0, 0, 10, 10);
	rect(small, 4, 4, 5, 5);
	assert_true(crown_geom_poly_intersect(big, 4, small, 4));
	assert_true(crown_geom_poly_intersect(small, 4, big, 4));
	assert_true(crown_geom_dist_poly(small, 4, big, 4) == 0);
	/* empty */
	assert_false(crown_geom_poly_intersect(a, 0, b, 4));
	assert_false(crown_geom_poly_intersect(a, 4, b, 0));
	assert_true(crown_geom_dist_poly(a, 0, b, 4) == HUGE_VAL);
}

static void
test_poly_degenerate(void **state)
{
	struct crown_point	sq[4], seg[2], col[3], rep[6], one[1], h[8];
	struct crown_point	mix[9];

	rect(sq, 0, 0, 4, 4);
	/* two points: a segment */
	seg[0] = pt(-1, 2);
	seg[1] = pt(5, 2);
	assert_true(crown_geom_poly_intersect(seg, 2, sq, 4));
	assert_true(crown_geom_point_in_poly(pt(0, 2), seg, 2));
	assert_false(crown_geom_point_in_poly(pt(0, 2.5), seg, 2));
	assert_true(crown_geom_poly_area(seg, 2) == 0);
	seg[0] = pt(1, 1);
	seg[1] = pt(2, 2);		/* wholly inside */
	assert_true(crown_geom_poly_intersect(seg, 2, sq, 4));
	assert_true(crown_geom_poly_intersect(sq, 4, seg, 2));
	seg[0] = pt(5, 1);
	seg[1] = pt(6, 2);
	assert_false(crown_geom_poly_intersect(seg, 2, sq, 4));
	assert_true(crown_geom_dist_poly(seg, 2, sq, 4) == 1.0);
	/* collinear: only its edges, zero area */
	col[0] = pt(0, 0);
	col[1] = pt(2, 2);
	col[2] = pt(1, 1);
	assert_true(crown_geom_poly_area(col, 3) == 0);
	assert_true(crown_geom_point_in_poly(pt(1, 1), col, 3));
	assert_true(crown_geom_point_in_poly(pt(0.5, 0.5), col, 3));
	assert_false(crown_geom_point_in_poly(pt(1, 0), col, 3));
	assert_false(crown_geom_point_in_poly(pt(3, 3), col, 3));
	rect(sq, 3, 3, 5, 5);
	assert_false(crown_geom_poly_intersect(col, 3, sq, 4));
	rect(sq, 1.5, 0, 3, 1.4);
	assert_false(crown_geom_poly_intersect(col, 3, sq, 4));
	rect(sq, 1.5, 0, 3, 1.5);	/* corner on the ring */
	assert_true(crown_geom_poly_intersect(col, 3, sq, 4));
	rect(sq, 1.5, 0, 3, 1.6);
	assert_true(crown_geom_poly_intersect(col, 3, sq, 4));
	/* repeated vertices change nothing */
	rep[0] = pt(0, 0);
	rep[1] = pt(0, 0);
	rep[2] = pt(4, 0);
	rep[3] = pt(4, 4);
	rep[4] = pt(4, 4);
	rep[5] = pt(0, 4);
	assert_true(crown_geom_poly_area(rep, 6) == 16);
	assert_true(crown_geom_point_in_poly(pt(2, 2), rep, 6));
	assert_true(crown_geom_point_in_poly(pt(4, 4), rep, 6));
	assert_false(crown_geom_point_in_poly(pt(5, 5), rep, 6));
	assert_false(crown_geom_point_in_poly(pt(2, 4.5), rep, 6));
	/* one point, no points */
	one[0] = pt(1, 1);
	assert_true(crown_geom_point_in_poly(pt(1, 1), one, 1));
	assert_false(crown_geom_point_in_poly(pt(1, 1.5), one, 1));
	assert_true(crown_geom_poly_intersect(one, 1, rep, 6));
	assert_false(crown_geom_point_in_poly(pt(1, 1), one, 0));
	assert_true(crown_geom_dist_poly(one, 1, one, 1) == 0);
	/* hulls of degenerate sets */
	assert_int_equal(crown_geom_hull(h, one, 0), 0);
	assert_int_equal(crown_geom_hull(h, one, 1), 1);
	assert_pt(h[0], 1, 1);
	assert_int_equal(crown_geom_hull(h, col, 3), 2);
	assert_pt(h[0], 0, 0);
	assert_pt(h[1], 2, 2);
	rep[0] = rep[1] = rep[2] = pt(3, 3);
	assert_int_equal(crown_geom_hull(h, rep, 3), 1);
	/* hull drops interior, repeated and collinear points */
	mix[0] = pt(4, 4);
	mix[1] = pt(2, 2);
	mix[2] = pt(0, 4);
	mix[3] = pt(2, 0);
	mix[4] = pt(0, 0);
	mix[5] = pt(4, 0);
	mix[6] = pt(4, 2);
	mix[7] = pt(0, 0);
	mix[8] = pt(1, 3);
	assert_int_equal(crown_geom_hull(h, mix, 9), 4);
	assert_pt(h[0], 0, 0);
	assert_pt(h[1], 4, 0);
	assert_pt(h[2], 4, 4);
	assert_pt(h[3], 0, 4);
}

static void
test_sweep_hull(void **state)
{
	struct crown_point	sq[4], h[8];

	rect(sq, 0, 0, 4, 4);
	assert_int_equal(crown_geom_sweep(h, sq, 4, pt(2, 0)), 4);
	assert_pt(h[0], 0, 0);
	assert_pt(h[1], 6, 0);
	assert_pt(h[2], 6, 4);
	assert_pt(h[3], 0, 4);
	assert_int_equal(crown_geom_sweep(h, sq, 4, pt(2, 2)), 6);
	assert_true(crown_geom_poly_area(h, 6) == 32);
	assert_int_equal(crown_geom_sweep(h, sq, 4, pt(0, 0)), 4);
	assert_int_equal(crown_geom_sweep(h, sq, 0, pt(1, 0)), 0);
}

/*
 * Distances.
 */

static void
test_distances(void **state)
{
	struct crown_quad	a, b;

	assert_true(crown_geom_dist_point_seg(pt(3, 1), pt(0, 0),
	    pt(10, 0)) == 1);
	assert_true(crown_geom_dist_point_seg(pt(13, 4), pt(0, 0),
	    pt(10, 0)) == 5);
	assert_true(crown_geom_dist_point_seg(pt(-3, -4), pt(0, 0),
	    pt(10, 0)) == 5);
	assert_true(crown_geom_dist_point_seg(pt(3, 4), pt(0, 0),
	    pt(0, 0)) == 5);
	assert_true(crown_geom_dist_seg_seg(pt(0, 0), pt(4, 0), pt(1, 2),
	    pt(3, 2)) == 2);
	assert_true(crown_geom_dist_seg_seg(pt(0, 0), pt(4, 0), pt(0, 4),
	    pt(4, 0)) == 0);

	/* overlapping footprints */
	crown_geom_footprint(&a, pt(10, 10), 0, 4, 0.75);
	crown_geom_footprint(&b, pt(11, 10.5), 90, 4, 0.75);
	assert_true(crown_geom_dist_quad(&a, &b) == 0);
	/* parallel, side by side: x 8..12 and 14..18 */
	crown_geom_footprint(&b, pt(16, 10), 0, 4, 0.75);
	assert_true(crown_geom_dist_quad(&a, &b) == 2);
	assert_true(crown_geom_dist_quad(&b, &a) == 2);
	/* face to face 6 inches apart */
	crown_geom_footprint(&b, pt(10, 16), 180, 4, 0.75);
	assert_true(crown_geom_dist_quad(&a, &b) == 6);
	/* corner (12, 10) to corner (15, 14): 3-4-5 */
	crown_geom_footprint(&b, pt(17, 14.75), 0, 4, 0.75);
	assert_true(crown_geom_dist_quad(&a, &b) == 5);
	/* touching along an edge */
	crown_geom_footprint(&b, pt(14, 10), 0, 4, 0.75);
	assert_true(crown_geom_dist_quad(&a, &b) == 0);
}

/*
 * Polylines: roads and walls.
 */

static void
test_roads_and_walls(void **state)
{
	struct crown_point	road[3], wall[2], sq[4], big[4];

	road[0] = pt(0, 0);
	road[1] = pt(10, 0);
	road[2] = pt(10, 10);
	assert_true(crown_geom_on_road(pt(5, 0), road, 3, 2));
	assert_true(crown_geom_on_road(pt(5, 1), road, 3, 2));	/* edge */
	assert_false(crown_geom_on_road(pt(5, 1.001), road, 3, 2));
	assert_true(crown_geom_on_road(pt(11, 5), road, 3, 2));
	assert_false(crown_geom_on_road(pt(11.5, 5), road, 3, 2));
	assert_false(crown_geom_on_road(pt(11, 11), road, 3, 2));
	assert_true(crown_geom_on_road(pt(-1, 0), road, 3, 2));
	assert_false(crown_geom_on_road(pt(5, 0), road, 0, 2));
	assert_true(crown_geom_dist_point_polyline(pt(13, 14), road, 3) == 5);
	assert_true(crown_geom_dist_point_polyline(pt(0, 0), road, 0) ==
	    HUGE_VAL);
	/* a footprint 1 inch from the centre line touches a 2-inch road */
	rect(sq, 3, 1, 5, 2);
	assert_true(crown_geom_dist_poly_polyline(sq, 4, road, 3) == 1);
	assert_true(crown_geom_poly_touches_polyline(sq, 4, road, 3, 2));
	assert_false(crown_geom_poly_touches_polyline(sq, 4, road, 3, 1.999));
	rect(sq, 3, 1.001, 5, 2);
	assert_false(crown_geom_poly_touches_polyline(sq, 4, road, 3, 2));
	/* a polyline wholly inside the polygon */
	rect(big, -5, -5, 20, 20);
	assert_true(crown_geom_dist_poly_polyline(big, 4, road, 3) == 0);
	/* walls: width 0 */
	wall[0] = pt(0, 5);
	wall[1] = pt(8, 5);
	rect(sq, 2, 4, 3, 6);		/* across */
	assert_true(crown_geom_poly_touches_polyline(sq, 4, wall, 2, 0));
	rect(sq, 2, 5, 3, 6);		/* touching */
	assert_true(crown_geom_poly_touches_polyline(sq, 4, wall, 2, 0));
	rect(sq, 8, 2, 9, 8);		/* touching its end */
	assert_true(crown_geom_poly_touches_polyline(sq, 4, wall, 2, 0));
	rect(sq, 2, 5.001, 3, 6);	/* apart */
	assert_false(crown_geom_poly_touches_polyline(sq, 4, wall, 2, 0));
	assert_false(crown_geom_poly_touches_polyline(sq, 0, wall, 2, 0));
	/* a one-point polyline is a point */
	assert_true(crown_geom_on_road(pt(0, 6), wall, 1, 2));
	assert_false(crown_geom_on_road(pt(0, 6.5), wall, 1, 2));
}

/*
 * Paths.
 */

static void
test_paths(void **state)
{
	struct crown_point	path[3], *pre;
	size_t			n;

	path[0] = pt(0, 0);
	path[1] = pt(3, 4);
	path[2] = pt(3, 10);
	assert_true(crown_geom_path_length(path, 3) == 11);
	assert_true(crown_geom_path_length(path, 1) == 0);
	assert_true(crown_geom_path_length(path, 0) == 0);
	assert_pt(crown_geom_path_point(path, 3, 0), 0, 0);
	assert_pt(crown_geom_path_point(path, 3, -1), 0, 0);
	assert_pt(crown_geom_path_point(path, 3, 2.5), 1.5, 2);
	assert_pt(crown_geom_path_point(path, 3, 5), 3, 4);
	assert_pt(crown_geom_path_point(path, 3, 8), 3, 7);
	assert_pt(crown_geom_path_point(path, 3, 11), 3, 10);
	assert_pt(crown_geom_path_point(path, 3, 20), 3, 10);
	assert_pt(crown_geom_path_point(path, 1, 20), 0, 0);
	assert_pt(crown_geom_path_point(path, 0, 1), 0, 0);

	n = crown_geom_path_prefix(&pre, path, 3, 8);
	assert_int_equal(n, 3);
	assert_pt(pre[0], 0, 0);
	assert_pt(pre[1], 3, 4);
	assert_pt(pre[2], 3, 7);
	free(pre);
	n = crown_geom_path_prefix(&pre, path, 3, 5);	/* on a vertex */
	assert_int_equal(n, 2);
	assert_pt(pre[1], 3, 4);
	free(pre);
	n = crown_geom_path_prefix(&pre, path, 3, 2.5);
	assert_int_equal(n, 2);
	assert_pt(pre[1], 1.5, 2);
	free(pre);
	n = crown_geom_path_prefix(&pre, path, 3, 0);
	assert_int_equal(n, 1);
	assert_pt(pre[0], 0, 0);
	free(pre);
	n = crown_geom_path_prefix(&pre, path, 3, 100);
	assert_int_equal(n, 3);
	assert_pt(pre[2], 3, 10);
	free(pre);
	n = crown_geom_path_prefix(&pre, path, 0, 1);
	assert_int_equal(n, 0);
	assert_null(pre);
}

/*
 * R4.4: the footprint touches a hill only once the move reaches it.  A
 * unit 4 wide faces north with its front at y = 5; the hill starts at
 * y = 10.
 */
static void
test_sweep_touches(void **state)
{
	struct crown_quad	q;
	struct crown_point	path[3], hill[4], road[2], small[4];

	crown_geom_footprint(&q, pt(10, 5), 0, 4, 0.75);
	rect(hill, 6, 10, 14, 20);
	path[0] = pt(10, 5);
	path[1] = pt(10, 15);
	assert_false(crown_geom_sweep_touches_poly(&q, path, 2, 4.999,
	    hill, 4));
	assert_true(crown_geom_sweep_touches_poly(&q, path, 2, 5, hill, 4));
	assert_true(crown_geom_sweep_touches_poly(&q, path, 2, 50, hill, 4));
	assert_false(crown_geom_sweep_touches_poly(&q, path, 2, 0, hill, 4));
	assert_false(crown_geom_sweep_touches_poly(&q, path, 1, 9, hill, 4));

	/* two legs: east 10 (missing the hill), then north */
	rect(hill, 18, 10, 30, 20);
	path[1] = pt(20, 5);
	path[2] = pt(20, 15);
	assert_false(crown_geom_sweep_touches_poly(&q, path, 3, 10, hill, 4));
	assert_false(crown_geom_sweep_touches_poly(&q, path, 3, 14.999,
	    hill, 4));
	assert_true(crown_geom_sweep_touches_poly(&q, path, 3, 15, hill, 4));

	/* already on the hill: touches with no move at all */
	rect(hill, 9, 4, 11, 6);
	assert_true(crown_geom_sweep_touches_poly(&q, path, 3, 0, hill, 4));

	/* diagonal: the hill is touched mid-leg, by neither end */
	path[1] = pt(20, 15);
	rect(small, 14.5, 9.5, 15.5, 10.5);
	assert_true(crown_geom_sweep_touches_poly(&q, path, 2, 100, small, 4));
	assert_false(crown_geom_sweep_touches_poly(&q, path, 2, 3, small, 4));

	/* a road 2 wide along y = 12: touched when the front reaches 11 */
	road[0] = pt(0, 12);
	road[1] = pt(30, 12);
	path[1] = pt(10, 15);
	assert_false(crown_geom_sweep_touches_polyline(&q, path, 2, 5.999,
	    road, 2, 2));
	assert_true(crown_geom_sweep_touches_polyline(&q, path, 2, 6,
	    road, 2, 2));
	/* a wall on the same line: at 7 */
	assert_false(crown_geom_sweep_touches_polyline(&q, path, 2, 6.999,
	    road, 2, 0));
	assert_true(crown_geom_sweep_touches_polyline(&q, path, 2, 7,
	    road, 2, 0));
}

/*
 * R4.5: the least distance between a swept footprint and an enemy.  The
 * unit is 4 wide facing north with its front at y = 5; the enemy's rear
 * edge is at y = 15.
 */
static void
test_sweep_dist(void **state)
{
	struct crown_quad	q;
	struct crown_point	path[3], enemy[4], seg[2];

	crown_geom_footprint(&q, pt(10, 5), 0, 4, 0.75);
	rect(enemy, 8, 15, 12, 16);
	path[0] = pt(10, 5);
	path[1] = pt(10, 30);
	/* standing still, and any s <= 0 */
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 0, enemy, 4) ==
	    10);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 1, 7, enemy, 4) ==
	    10);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 9, enemy, 4) ==
	    1);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 10, enemy, 4) ==
	    0);
	/* through and beyond: still 0 (the sweep passed through it) */
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 25, enemy, 4) ==
	    0);
	/* passing beside it: 1 inch to the east of the enemy's edge */
	crown_geom_footprint(&q, pt(15, 5), 0, 4, 0.75);
	path[0] = pt(15, 5);
	path[1] = pt(15, 40);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 35, enemy, 4) ==
	    1);
	/* two legs: the second leg turns towards the enemy */
	path[1] = pt(15, 15.5);
	path[2] = pt(14.5, 15.5);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 3, 10.5, enemy, 4) ==
	    1);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 3, 10.75, enemy, 4) ==
	    0.75);
	/* degenerate polygons: a point, a segment, nothing */
	seg[0] = pt(15, 20);
	seg[1] = pt(20, 20);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 5, seg, 1) ==
	    10);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 5, seg, 2) ==
	    10);
	assert_true(crown_geom_sweep_dist_poly(&q, path, 2, 5, seg, 0) ==
	    HUGE_VAL);
}

/*
 * R4.2: the part of a leg within a road's half-width: exactly on the edge
 * is on the road (R13.1), beyond it is not; end caps are round.
 */
static void
test_seg_capsule(void **state)
{
	double	lo, hi;

	/* along the edge of a road 1 wide on y = 24 */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(10, 24.5),
	    pt(30, 24.5), pt(0, 24), pt(100, 24), 0.5));
	assert_true(lo == 0 && hi == 1);
	assert_false(crown_geom_seg_capsule(&lo, &hi, pt(10, 24.51),
	    pt(30, 24.51), pt(0, 24), pt(100, 24), 0.5));
	/* across it: the inch of the crossing that is on the road */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(50, 0), pt(50, 48),
	    pt(0, 24), pt(100, 24), 0.5));
	assert_true(lo == 23.5 / 48 && hi == 24.5 / 48);
	/* past the end of the road: the round cap, radius 0.5 */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(90, 24), pt(110, 24),
	    pt(0, 24), pt(100, 24), 0.5));
	assert_true(lo == 0 && hi == 10.5 / 20);
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(100.3, 20),
	    pt(100.3, 30), pt(0, 24), pt(100, 24), 0.5));
	/* the chord is 0.8 long: y from 23.6 to 24.4, not exact in binary */
	assert_true(fabs(lo - 0.36) < 1e-12 && fabs(hi - 0.44) < 1e-12);
	/* half the leg on the road, starting off it */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(-10, 24), pt(10, 24),
	    pt(0, 24), pt(100, 24), 0.5));
	assert_true(lo == 9.5 / 20 && hi == 1);
	/* a zero-length leg is a point; a zero-length road is a disk */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(5, 24.5), pt(5, 24.5),
	    pt(0, 24), pt(100, 24), 0.5));
	assert_true(lo == 0 && hi == 1);
	assert_false(crown_geom_seg_capsule(&lo, &hi, pt(5, 25), pt(5, 25),
	    pt(0, 24), pt(100, 24), 0.5));
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(-1, 0), pt(1, 0),
	    pt(0, 0), pt(0, 0), 0.5));
	assert_true(lo == 0.25 && hi == 0.75);
	/* width 0 (a wall): only the line itself */
	assert_true(crown_geom_seg_capsule(&lo, &hi, pt(5, 0), pt(5, 48),
	    pt(0, 24), pt(100, 24), 0));
	assert_true(lo == 0.5 && hi == 0.5);
}

/*
 * R9.4, R13.1: front and rear lines.  A column 3 deep at (10, 10) facing
 * north: front line y = 10, rear line y = 7.
 */
static void
test_zones(void **state)
{
	struct crown_point	p = { 10, 10 }, sq[4];

	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(10, 12)),
	    CROWN_GEOM_IN_FRONT);
	/* exactly on the front line: in front (R13.1) */
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(10, 10)),
	    CROWN_GEOM_IN_FRONT);
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(50, 10)),
	    CROWN_GEOM_IN_FRONT);
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(10, 9.999)),
	    CROWN_GEOM_BETWEEN);
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(-20, 8)),
	    CROWN_GEOM_BETWEEN);
	/* exactly on the rear line: between (flank), not behind */
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(10, 7)),
	    CROWN_GEOM_BETWEEN);
	assert_int_equal(crown_geom_zone_point(p, 0, 3, pt(10, 6.999)),
	    CROWN_GEOM_BEHIND);
	/* facing east: front line x = 10, rear x = 7 */
	assert_int_equal(crown_geom_zone_point(p, 90, 3, pt(10, 0)),
	    CROWN_GEOM_IN_FRONT);
	assert_int_equal(crown_geom_zone_point(p, 90, 3, pt(9, 10)),
	    CROWN_GEOM_BETWEEN);
	assert_int_equal(crown_geom_zone_point(p, 90, 3, pt(7, 10)),
	    CROWN_GEOM_BETWEEN);
	assert_int_equal(crown_geom_zone_point(p, 90, 3, pt(6.5, 10)),
	    CROWN_GEOM_BEHIND);
	/* facing south */
	assert_int_equal(crown_geom_zone_point(p, 180, 3, pt(10, 12)),
	    CROWN_GEOM_BETWEEN);
	assert_int_equal(crown_geom_zone_point(p, 180, 3, pt(10, 13.5)),
	    CROWN_GEOM_BEHIND);
	/* facing 45: a point along the front line is in front */
	assert_int_equal(crown_geom_zone_point(p, 45, 3,
	    pt(10 + 2 * S45, 10 - 2 * S45)), CROWN_GEOM_IN_FRONT);
	assert_int_equal(crown_geom_zone_point(p, 45, 3, pt(9, 9)),
	    CROWN_GEOM_BETWEEN);

	/* polygons: the most forward part decides */
	rect(sq, 0, 5, 4, 10);		/* one edge on the front line */
	assert_int_equal(crown_geom_zone_poly(p, 0, 3, sq, 4),
	    CROWN_GEOM_IN_FRONT);
	rect(sq, 0, 5, 4, 9.5);		/* straddles the rear line */
	assert_int_equal(crown_geom_zone_poly(p, 0, 3, sq, 4),
	    CROWN_GEOM_BETWEEN);
	rect(sq, 0, 5, 4, 7);		/* reaches the rear line */
	assert_int_equal(crown_geom_zone_poly(p, 0, 3, sq, 4),
	    CROWN_GEOM_BETWEEN);
	rect(sq, 0, 0, 4, 6.5);
	assert_int_equal(crown_geom_zone_poly(p, 0, 3, sq, 4),
	    CROWN_GEOM_BEHIND);
	assert_int_equal(crown_geom_zone_poly(p, 0, 3, sq, 0),
	    CROWN_GEOM_BEHIND);
}

/*
 * Line of sight.
 */

static void
test_seg_inside(void **state)
{
	struct crown_point	sq[4], u[8], tri[3];
	double			d;

	rect(sq, 2, -1, 6, 1);
	assert_true(crown_geom_seg_length_inside(pt(0, 0), pt(8, 0),
	    sq, 4) == 4);
	assert_true(crown_geom_seg_length_inside(pt(8, 0), pt(0, 0),
	    sq, 4) == 4);
	assert_true(crown_geom_seg_length_inside(pt(3, 0), pt(5, 0),
	    sq, 4) == 2);
	assert_true(crown_geom_seg_length_inside(pt(0, 0), pt(4, 0),
	    sq, 4) == 2);
	assert_true(crown_geom_seg_length_inside(pt(0, 2), pt(8, 2),
	    sq, 4) == 0);
	/* along an edge: the boundary is inside */
	assert_true(crown_geom_seg_length_inside(pt(0, 1), pt(8, 1),
	    sq, 4) == 4);
	/* degenerate inputs */
	assert_true(crown_geom_seg_length_inside(pt(3, 0), pt(3, 0),
	    sq, 4) == 0);
	assert_true(crown_geom_seg_length_inside(pt(0, 0), pt(8, 0),
	    sq, 0) == 0);
	/* a U: in and out twice, 2 + 2 */
	u[0] = pt(0, 0);
	u[1] = pt(6, 0);
	u[2] = pt(6, 4);
	u[3] = pt(4, 4);
	u[4] = pt(4, 1);
	u[5] = pt(2, 1);
	u[6] = pt(2, 4);
	u[7] = pt(0, 4);
	assert_true(crown_geom_seg_length_inside(pt(-1, 2), pt(7, 2),
	    u, 8) == 4);
	/*
	 * A 10-inch diagonal leaves the triangle x + y <= 8 at t = 64/112,
	 * so 40/7 inches are inside: the double (64.0 / 112) * 10.
	 */
	tri[0] = pt(0, 0);
	tri[1] = pt(8, 0);
	tri[2] = pt(0, 8);
	d = crown_geom_seg_length_inside(pt(0, 0), pt(6, 8), tri, 3);
	assert_true(d == (64.0 / 112.0) * 10.0);
	assert_true(fabs(d - 40.0 / 7.0) < 1e-14);

	/* crossing at all */
	assert_true(crown_geom_seg_crosses_poly(pt(0, 0), pt(8, 0), sq, 4));
	assert_true(crown_geom_seg_crosses_poly(pt(3, 0), pt(4, 0), sq, 4));
	/* through the corner (2, 1) only, then 0.001 clear of it */
	assert_true(crown_geom_seg_crosses_poly(pt(0, -1), pt(4, 3), sq, 4));
	assert_false(crown_geom_seg_crosses_poly(pt(0, -0.999), pt(4, 3.001),
	    sq, 4));
	assert_false(crown_geom_seg_crosses_poly(pt(0, 2), pt(8, 2), sq, 4));
}

static void
test_seg_polyline(void **state)
{
	struct crown_point	wall[3], two[4];
	double			d;

	wall[0] = pt(6, -5);
	wall[1] = pt(6, 5);
	assert_true(crown_geom_seg_crosses_polyline(pt(0, 0), pt(8, 0),
	    wall, 2));
	assert_true(crown_geom_seg_crosses_polyline(pt(0, 0), pt(6, 0),
	    wall, 2));
	assert_false(crown_geom_seg_crosses_polyline(pt(0, 0), pt(5.999, 0),
	    wall, 2));
	assert_false(crown_geom_seg_crosses_polyline(pt(0, 0), pt(8, 0),
	    wall, 0));
	d = -1;
	assert_true(crown_geom_seg_polyline_nearest(&d, pt(0, 0), pt(8, 0),
	    wall, 2));
	assert_true(d == 2);
	d = -1;
	assert_false(crown_geom_seg_polyline_nearest(&d, pt(0, 0),
	    pt(5, 0), wall, 2));
	assert_true(d == -1);
	/* the wall through the target point itself */
	assert_true(crown_geom_seg_polyline_nearest(&d, pt(0, 0), pt(6, 0),
	    wall, 2));
	assert_true(d == 0);
	/* two crossings: the one nearer b */
	two[0] = pt(2, -5);
	two[1] = pt(2, 5);
	two[2] = pt(7, 5);
	two[3] = pt(7, -5);
	assert_true(crown_geom_seg_polyline_nearest(&d, pt(0, 0), pt(8, 0),
	    two, 4));
	assert_true(d == 1);
	assert_true(crown_geom_seg_polyline_nearest(&d, pt(8, 0), pt(0, 0),
	    two, 4));
	assert_true(d == 2);
	/* collinear: the end of the overlap nearest b */
	wall[0] = pt(2, 0);
	wall[1] = pt(5, 0);
	assert_true(crown_geom_seg_polyline_nearest(&d, pt(0, 0), pt(8, 0),
	    wall, 2));
	assert_true(d == 3);
}

/*
 * Spatial index against brute force: 2,000 seeded boxes on a 72 x 48
 * table, mostly stand-sized, some long (roads), some points, a few
 * invalid; 1,000 queries, some off the table.
 */
static void
test_grid(void **state)
{
	struct crown_geom_box	*boxes, q;
	struct crown_geom_grid	*g;
	int			*ids, *got, *want;
	size_t			 n, i, j, cap, ng, nw, total;
	uint32_t		 seed;
	double			 w, h;

	n = 2000;
	seed = 20001207;
	boxes = xcalloc(n, sizeof(*boxes));
	ids = xcalloc(n, sizeof(*ids));
	want = xcalloc(n, sizeof(*want));
	for (i = 0; i < n; i++) {
		boxes[i].minx = lcg_unit(&seed) * 72;
		boxes[i].miny = lcg_unit(&seed) * 48;
		switch (lcg(&seed) >> 28) {
		case 0:
			w = lcg_unit(&seed) * 40;
			h = 0.5;
			break;
		case 1:
			w = h = 0;
			break;
		case 2:
			w = -1;		/* inverted: empty */
			h = 1;
			break;
		default:
			w = lcg_unit(&seed) * 3;
			h = lcg_unit(&seed) * 3;
			break;
		}
		boxes[i].maxx = boxes[i].minx + w;
		boxes[i].maxy = boxes[i].miny + h;
		/* distinct ids, not in index order */
		ids[i] = (int)((i * 7919) % n) - 500;
	}
	g = crown_geom_grid_new(boxes, ids, n);
	got = NULL;
	cap = 0;
	total = 0;
	for (j = 0; j < 1000; j++) {
		q.minx = lcg_unit(&seed) * 90 - 9;
		q.miny = lcg_unit(&seed) * 60 - 6;
		q.maxx = q.minx + lcg_unit(&seed) * (j % 10 == 0 ? 30 : 4);
		q.maxy = q.miny + lcg_unit(&seed) * 4;
		if (j % 17 == 0)
			q.maxx = q.minx;
		if (j == 5)
			q = boxes[3];	/* exactly a box: touching counts */
		nw = 0;
		for (i = 0; i < n; i++)
			if (crown_geom_box_overlap(&boxes[i], &q))
				want[nw++] = ids[i];
		qsort(want, nw, sizeof(*want), cmp_int);
		ng = crown_geom_grid_query(&got, &cap, g, &q);
		assert_int_equal(ng, nw);
		for (i = 0; i < ng; i++) {
			assert_int_equal(got[i], want[i]);
			if (i > 0)
				assert_true(got[i - 1] < got[i]);
		}
		total += ng;
	}
	/* the test means something: queries found boxes */
	assert_true(total > 1000);
	crown_geom_grid_free(g);

	/* ids default to indices; empty and all-invalid grids */
	g = crown_geom_grid_new(boxes, NULL, 10);
	q.minx = q.miny = -100;
	q.maxx = q.maxy = 100;
	ng = crown_geom_grid_query(&got, &cap, g, &q);
	for (i = nw = 0; i < 10; i++)
		if (crown_geom_box_overlap(&boxes[i], &q))
			want[nw++] = (int)i;
	assert_int_equal(ng, nw);
	assert_memory_equal(got, want, ng * sizeof(*got));
	crown_geom_grid_free(g);
	g = crown_geom_grid_new(NULL, NULL, 0);
	assert_int_equal(crown_geom_grid_query(&got, &cap, g, &q), 0);
	crown_geom_grid_free(g);
	boxes[0].minx = 5;
	boxes[0].maxx = 4;
	g = crown_geom_grid_new(boxes, NULL, 1);
	assert_int_equal(crown_geom_grid_query(&got, &cap, g, &q), 0);
	crown_geom_grid_free(g);
	crown_geom_grid_free(NULL);

	free(got);
	free(want);
	free(ids);
	free(boxes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sin_table),
		cmocka_unit_test(test_dir),
		cmocka_unit_test(test_bearing_compass_points),
		cmocka_unit_test(test_bearing_between),
		cmocka_unit_test(test_bearing_round_trip),
		cmocka_unit_test(test_bearing_half_degree),
		cmocka_unit_test(test_compass),
		cmocka_unit_test(test_formation_size),
		cmocka_unit_test(test_footprint),
		cmocka_unit_test(test_point_in_poly),
		cmocka_unit_test(test_seg_intersect),
		cmocka_unit_test(test_poly_touching),
		cmocka_unit_test(test_poly_degenerate),
		cmocka_unit_test(test_sweep_hull),
		cmocka_unit_test(test_distances),
		cmocka_unit_test(test_roads_and_walls),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_sweep_touches),
		cmocka_unit_test(test_sweep_dist),
		cmocka_unit_test(test_seg_capsule),
		cmocka_unit_test(test_zones),
		cmocka_unit_test(test_seg_inside),
		cmocka_unit_test(test_seg_polyline),
		cmocka_unit_test(test_grid),
		cmocka_unit_test(test_poly_dist_follows_edges),
		cmocka_unit_test(test_poly_dist_reference),
		cmocka_unit_test(test_footprint_right),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
