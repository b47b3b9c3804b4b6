/*
 * test-spatial.c: the engine's unit and terrain indexes answer exactly
 * what a scan of every unit would, before and after units move.
 */
#include <math.h>

#include "testutil.h"

#include "crown/engine.h"
#include "crown/fmt.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static unsigned long lcg_state = 12345;

static double
lcg(double max)
{
	lcg_state = lcg_state * 6364136223846793005UL + 1442695040888963407UL;
	return (double)((lcg_state >> 33) % 1000000) / 1000000.0 * max;
}

static struct crown_state *
random_state(size_t n, double w, double h)
{
	struct crown_state	*s = xcalloc(1, sizeof(*s));
	size_t			 i;

	s->width = w;
	s->height = h;
	s->units = xcalloc(n, sizeof(*s->units));
	s->nunits = n;
	for (i = 0; i < n; i++) {
		struct crown_unit *u = &s->units[i];

		u->id = xasprintf("u%zu", i);
		u->name = xstrdup(u->id);
		u->side = xstrdup(i % 2 ? "a" : "b");
		u->type = (enum crown_utype)(i % CROWN_NUTYPE);
		u->stands = xcalloc(4, sizeof(int));
		u->nstands = 1 + i % 4;
		u->stands[0] = u->stands[1] = u->stands[2] = u->stands[3] = 3;
		u->x = crown_round2(lcg(w));
		u->y = crown_round2(lcg(h));
		u->facing = (int)lcg(360);
		u->formation = i % 3 == 0 ? CROWN_COLUMN : CROWN_LINE;
	}
	s->terrain = xcalloc(n / 4 + 1, sizeof(*s->terrain));
	for (i = 0; i < n / 4; i++) {
		struct crown_feature *f = &s->terrain[s->nterrain++];
		double x = lcg(w), y = lcg(h), r = 1 + lcg(8);

		f->id = xasprintf("t%zu", i);
		f->type = i % 2 ? CROWN_HILL : CROWN_ROAD;
		f->is_path = f->type == CROWN_ROAD;
		f->width = f->is_path ? 1 : 0;
		f->npts = f->is_path ? 2 : 3;
		f->pts = xcalloc(3, sizeof(*f->pts));
		f->pts[0] = (struct crown_point){ x, y };
		f->pts[1] = (struct crown_point){ x + r, y };
		f->pts[2] = (struct crown_point){ x, y + r };
	}
	crown_state_index(s);
	return s;
}

static bool
near_brute(const struct crown_engine *e, size_t i,
    const struct crown_geom_box *b, double r)
{
	struct crown_quad	q;
	struct crown_geom_box	ub, qb = *b;

	crown_unit_footprint(&q, e->rules, &e->s->units[i]);
	ub = crown_geom_bounds(q.c, 4);
	r += CROWN_GEOM_SLACK;		/* what a query adds to its radius */
	qb.minx -= r;
	qb.miny -= r;
	qb.maxx += r;
	qb.maxy += r;
	return crown_geom_box_overlap(&ub, &qb);
}

static void
check_queries(struct crown_engine *e, int queries)
{
	const size_t	*out;
	size_t		 n, i, k;
	int		 j;

	for (j = 0; j < queries; j++) {
		double x = lcg(e->s->width), y = lcg(e->s->height);
		struct crown_geom_box b = { x, y, x + lcg(5), y + lcg(5) };
		double r = lcg(24);

		n = crown_engine_units_near(e, &b, r, &out);
		for (i = 1; i < n; i++)
			assert_true(out[i - 1] < out[i]);
		for (i = 0, k = 0; i < e->s->nunits; i++) {
			bool want = near_brute(e, i, &b, r);

			if (k < n && out[k] == i) {
				assert_true(want);
				k++;
			} else
				assert_false(want);
		}
		assert_int_equal(k, n);
	}
}

static void
test_units_near_matches_scan(void **state)
{
	struct crown_rules	*rules = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_engine	 e;
	struct crown_state	*s;
	size_t			 i;

	assert_int_equal(crown_rules_load(&rules, "rules/maximilian.yaml",
	    &d), 0);
	s = random_state(2000, 240, 160);
	memset(&e, 0, sizeof(e));
	e.s = s;
	e.rules = rules;
	check_queries(&e, 300);
	/* move a third of the units, some off the table */
	for (i = 0; i < s->nunits; i += 3) {
		s->units[i].x = crown_round2(lcg(260) - 10);
		s->units[i].y = crown_round2(lcg(180) - 10);
		s->units[i].facing = (int)lcg(360);
		crown_engine_unit_moved(&e, &s->units[i]);
	}
	check_queries(&e, 300);
	crown_spatial_free(&e);
	crown_state_free(s);
	crown_rules_free(rules);
}

static void
test_terrain_near(void **state)
{
	struct crown_rules	*rules = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_engine	 e;
	struct crown_state	*s;
	const int		*out;
	size_t			 n, i, k;
	int			 j;

	assert_int_equal(crown_rules_load(&rules, "rules/maximilian.yaml",
	    &d), 0);
	s = random_state(800, 120, 120);
	memset(&e, 0, sizeof(e));
	e.s = s;
	e.rules = rules;
	for (j = 0; j < 200; j++) {
		double x = lcg(120), y = lcg(120), r = lcg(12);
		struct crown_geom_box b = { x, y, x + 2, y + 2 }, q;

		n = crown_engine_terrain_near(&e, &b, r, &out);
		q = b;
		q.minx -= r + CROWN_GEOM_SLACK;
		q.miny -= r + CROWN_GEOM_SLACK;
		q.maxx += r + CROWN_GEOM_SLACK;
		q.maxy += r + CROWN_GEOM_SLACK;
		for (i = 0, k = 0; i < s->nterrain; i++) {
			struct crown_geom_box fb = crown_geom_bounds(
			    s->terrain[i].pts, s->terrain[i].npts);
			double w = s->terrain[i].width / 2;
			bool want;

			fb.minx -= w;
			fb.miny -= w;
			fb.maxx += w;
			fb.maxy += w;
			want = crown_geom_box_overlap(&fb, &q);
			if (k < n && out[k] == (int)i) {
				assert_true(want);
				k++;
			} else
				assert_false(want);
		}
		assert_int_equal(k, n);
	}
	crown_spatial_free(&e);
	crown_state_free(s);
	crown_rules_free(rules);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_units_near_matches_scan),
		cmocka_unit_test(test_terrain_near),
	};

	return cmocka_run_group_tests_name("spatial", tests, NULL, NULL);
}
