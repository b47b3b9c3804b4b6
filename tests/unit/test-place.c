/*
 * test-place.c: the labels of the map (place.c).  A label goes next to
 * what it names when that is free, keeps off texts always and off units
 * and lines where it can, moves further out (and says so) when it must,
 * further still rather than over a text, and with nowhere free takes the
 * first place; a crowd of labels stays apart, and so do thousands of
 * boxes.
 */
#include "testutil.h"

#include "crown/geom.h"
#include "crown/place.h"

static const struct crown_geom_box bounds = { 0, 0, 400, 300 };

static struct crown_geom_box
box(double x0, double y0, double x1, double y1)
{
	return (struct crown_geom_box){ x0, y0, x1, y1 };
}

static bool
overlap(const struct crown_geom_box *a, const struct crown_geom_box *b)
{
	return a->minx < b->maxx && b->minx < a->maxx &&
	    a->miny < b->maxy && b->miny < a->maxy;
}

/* First choice: below, centred; on it when centred. */
static void
test_first_choice(void **state)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 b;

	(void)state;
	assert_true(crown_place_label(&b, p, box(100, 100, 140, 110), 60, 10,
	    false));
	assert_float_equal(b.minx, 90, 1e-9);
	assert_float_equal(b.miny, 112, 1e-9);
	assert_true(crown_place_label(&b, p, box(300, 200, 300, 200), 20, 10,
	    true));
	assert_float_equal(b.minx, 290, 1e-9);
	assert_float_equal(b.miny, 195, 1e-9);
	crown_place_free(p);
}

/* The label of the box (100, 100)-(140, 110), 60 by 10, with a text, a
 * unit and a line (each if not NULL) placed first. */
static struct crown_geom_box
placed(const struct crown_geom_box *text, const struct crown_geom_box *unit,
    const double *line)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 b;

	if (text != NULL)
		crown_place_text(p, *text);
	if (unit != NULL)
		crown_place_avoid(p, *unit);
	if (line != NULL)
		crown_place_line(p, line[0], line[1], line[2], line[3]);
	assert_true(crown_place_label(&b, p, box(100, 100, 140, 110), 60, 10,
	    false));
	crown_place_free(p);
	return b;
}

/* A text below: the label goes above; a unit above too: beside it; a
 * line through the place below: above. */
static void
test_keeps_off(void **state)
{
	struct crown_geom_box	text = box(80, 112, 160, 122);
	struct crown_geom_box	unit = box(90, 80, 150, 98);
	const double		line[] = { 120, 110, 120, 160 };

	(void)state;
	assert_float_equal(placed(&text, NULL, NULL).maxy, 98, 1e-9);
	assert_float_equal(placed(&text, &unit, NULL).minx, 142, 1e-9);
	assert_float_equal(placed(NULL, NULL, line).maxy, 98, 1e-9);
}

/*
 * A line is kept as dots, RUN to an entry of the grid: one that reaches
 * the place below only with its last dot keeps the label off it; one
 * whose dots pass by that place's corner, though the box round them
 * overlaps it, does not.
 */
static void
test_lines(void **state)
{
	const double	far_end[] = { 300, 117, 151, 117 };
	const double	corner[] = { 170, 114, 150, 134 };

	(void)state;
	assert_float_equal(placed(NULL, NULL, far_end).maxy, 98, 1e-9);
	assert_float_equal(placed(NULL, NULL, corner).miny, 112, 1e-9);
}

/* Everything next to it taken: further out, and it says so. */
static void
test_moves_away(void **state)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 b, at = box(100, 100, 140, 110);

	(void)state;
	crown_place_text(p, box(20, 60, 220, 150));
	crown_place_text(p, at);
	assert_false(crown_place_label(&b, p, at, 60, 10, false));
	assert_false(overlap(&b, &(struct crown_geom_box){ 20, 60, 220,
	    150 }));
	crown_place_free(p);
}

/* Nowhere free: the first place, overlaps and all. */
static void
test_nowhere(void **state)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 b;

	(void)state;
	crown_place_text(p, bounds);
	crown_place_label(&b, p, box(100, 100, 140, 110), 60, 10, false);
	assert_float_equal(b.minx, 90, 1e-9);
	assert_float_equal(b.miny, 112, 1e-9);
	crown_place_free(p);
}

/*
 * Every place of the ten rings round it is under another text, but there
 * is room further out: the label goes there, clear of the texts, and says
 * it went away (a line is drawn back), rather than lie over a text.
 */
static void
test_far_out(void **state)
{
	static const struct crown_geom_box big = { 0, 0, 1000, 1000 };
	struct crown_place	*p = crown_place_new(big);
	struct crown_geom_box	 text = box(300, 300, 700, 700), b;

	(void)state;
	crown_place_text(p, text);
	assert_false(crown_place_label(&b, p, box(490, 490, 510, 500), 60, 10,
	    false));
	assert_false(overlap(&b, &text));
	assert_true(b.minx >= 0 && b.maxx <= 1000 && b.miny >= 0 &&
	    b.maxy <= 1000);
	/* beyond the ten rings (the first place, below, lay on the text) */
	assert_true(b.maxx <= 300 || b.minx >= 700 || b.maxy <= 300 ||
	    b.miny >= 700);
	crown_place_free(p);
}

/* A block of 60 units in rows: no two of their labels overlap. */
static void
test_crowd(void **state)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 at[60], lab[60];
	int			 i, j;

	(void)state;
	for (i = 0; i < 60; i++) {
		at[i] = box(20 + (i % 10) * 36, 20 + (i / 10) * 44,
		    50 + (i % 10) * 36, 28 + (i / 10) * 44);
		crown_place_avoid(p, at[i]);
	}
	for (i = 0; i < 60; i++)
		crown_place_label(&lab[i], p, at[i], 40, 9, false);
	for (i = 0; i < 60; i++)
		for (j = i + 1; j < 60; j++)
			if (overlap(&lab[i], &lab[j])) {
				print_error("labels %d and %d overlap\n", i, j);
				fail();
			}
	crown_place_free(p);
}

/*
 * The map kept thousands of boxes (in blocks of 32 KiB, 585 entries a
 * block): texts of 4 by 4
 * pixels tile the drawing but for the place left of the thing named; the
 * label goes there, clear of every one, whichever block holds it.
 */
static void
test_many_boxes(void **state)
{
	struct crown_place	*p = crown_place_new(bounds);
	struct crown_geom_box	 b, hole = box(38, 100, 98, 110), t;
	int			 x, y, n = 0;

	(void)state;
	for (y = 0; y < 300; y += 4)
		for (x = 0; x < 400; x += 4) {
			t = box(x, y, x + 4, y + 4);
			if (!overlap(&t, &hole)) {
				crown_place_text(p, t);
				n++;
			}
		}
	assert_true(n > 3 * 1024);
	assert_true(crown_place_label(&b, p, box(100, 100, 140, 110), 60, 10,
	    false));
	assert_float_equal(b.minx, 38, 1e-9);
	assert_float_equal(b.miny, 100, 1e-9);
	crown_place_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_choice),
		cmocka_unit_test(test_keeps_off),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_moves_away),
		cmocka_unit_test(test_nowhere),
		cmocka_unit_test(test_far_out),
		cmocka_unit_test(test_crowd),
		cmocka_unit_test(test_many_boxes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
