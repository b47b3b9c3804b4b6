/*
 * test-state.c: loading, writing and copying states; every problem of a
 * bad file reported at once with its place.
 */
#include "testutil.h"
#include "testsettle.h"

#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static char *
emit(const struct crown_state *s)
{
	struct crown_buf	b = { 0 };

	assert_int_equal(crown_state_emit(&b, s), 0);
	return b.data;
}

static void
test_load_fixture(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s;
	struct crown_unit	*u;

	assert_int_equal(crown_state_load(&s, "tests/data/state-small.yaml",
	    &d), 0);
	assert_no_diags(&d);
	assert_string_equal(s->name, "Test Skirmish");
	assert_int_equal(s->turn, 2);
	assert_string_equal(s->attacker, "french");
	assert_int_equal(s->nsides, 2);
	assert_int_equal(s->sides[1].home_edge, CROWN_NORTH);
	assert_int_equal(s->nterrain, 4);
	assert_true(s->terrain[1].is_path);
	assert_true(s->terrain[1].width == 1.0);
	assert_int_equal(s->terrain[3].bclass, 2);
	assert_int_equal(s->nunits, 4);
	u = crown_state_unit(s, "1-legion");
	assert_non_null(u);
	assert_int_equal(u->cls, CROWN_VETERAN);
	assert_int_equal(u->nstands, 3);
	assert_int_equal(u->start_figures, 12);
	assert_int_equal(u->start_stands, 3);
	assert_true(u->loaded);
	/* R3.6: a gun that starts limbered is unloaded */
	u = crown_state_unit(s, "gun-1");
	assert_true(u->limbered);
	assert_false(u->loaded);
	assert_int_equal(u->gun, CROWN_HOWITZER);
	assert_null(crown_state_unit(s, "nobody"));
	assert_string_equal(crown_state_leader(s, "danjou")->attached,
	    "1-legion");
	/* an attached leader stands with his unit */
	assert_true(crown_state_leader(s, "danjou")->x == 30.0);
	crown_state_free(s);
}

static void
test_round_trip_is_byte_identical(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s, *s2, *c;
	char			*a, *b, *cc;

	assert_int_equal(crown_state_load(&s, "tests/data/state-small.yaml",
	    &d), 0);
	a = emit(s);
	assert_int_equal(crown_state_parse(&s2, "again.yaml", a, strlen(a),
	    &d), 0);
	assert_no_diags(&d);
	b = emit(s2);
	assert_string_equal(a, b);
	c = crown_state_clone(s2);
	cc = emit(c);
	assert_string_equal(a, cc);
	/* positions are written with 2 decimals */
	assert_non_null(strstr(a, "x: 30.00\n"));
	assert_non_null(strstr(a, "y: 12.50\n"));
	free(a);
	free(b);
	free(cc);
	crown_state_free(s);
	crown_state_free(s2);
	crown_state_free(c);
}

static void
test_positions_round_to_hundredths(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s, *s2;
	char			*a, *b;

	assert_int_equal(crown_state_load(&s, "tests/data/state-small.yaml",
	    &d), 0);
	s->units[0].x = 10.0 / 3.0;
	s->units[0].y = 2.0 / 3.0;
	a = emit(s);
	assert_non_null(strstr(a, "x: 3.33\n"));
	assert_non_null(strstr(a, "y: 0.67\n"));
	assert_int_equal(crown_state_parse(&s2, "t.yaml", a, strlen(a), &d),
	    0);
	assert_true(s2->units[0].x == 3.33);
	b = emit(s2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	crown_state_free(s);
	crown_state_free(s2);
}

/*
 * crown_state_settle: a state changed in memory as the engine might leave
 * it settles to what its written form reads as, field for field (the
 * check of testsettle.h, which the conformance cases and the bundled
 * games run on every state the engine makes); and a state the reader
 * would refuse does not settle.
 */
static void
test_settle_is_what_is_read(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s, *c;
	struct crown_leader	*ld;
	struct crown_unit	*u;

	assert_int_equal(crown_state_load(&s, "tests/data/state-small.yaml",
	    &d), 0);
	/* positions off the hundredths, both sides of a half */
	s->units[0].x = 10.0 / 3.0;
	s->units[0].y = 12.345;
	s->units[1].x = 0.125;
	s->units[1].y = -0.004;
	s->terrain[0].pts[0].x = 1.0 / 7.0;
	s->width = 72.004;
	/* an attached leader left where he was; a detached one off the
	 * hundredths; figures the writer leaves out */
	ld = crown_state_leader(s, "danjou");
	ld->x = 1.0;
	ld->y = 2.0;
	ld->figures = 0;
	/* a road's width, and a width the writer gives no feature else */
	s->terrain[1].width = 1.0 / 3.0;
	s->terrain[0].width = 2.0;
	u = crown_state_unit(s, "1-legion");
	u->gun = CROWN_HOWITZER;	/* not artillery: not written */
	assert_true(tu_assert_settles(s, "changed in memory"));
	c = crown_state_clone(s);
	assert_true(crown_state_settle(c, "t.yaml"));
	assert_true(c->units[0].x == 3.33);
	assert_true(c->units[1].y == 0.0);
	assert_true(crown_state_leader(c, "danjou")->x ==
	    crown_state_unit(c, "1-legion")->x);
	assert_int_equal(crown_state_leader(c, "danjou")->figures, 1);
	assert_string_equal(c->file, "t.yaml");
	crown_state_free(c);
	/* R10.3: the reader refuses a leader attached to no unit */
	free(ld->attached);
	ld->attached = xstrdup("nobody");
	assert_false(tu_assert_settles(s, "attached to no unit"));
	crown_state_free(s);
}

/* A value of a state at a limit the reader checks: what edge() sets. */
enum edge_field {
	E_TURN, E_LAST_TURN, E_YEAR, E_DAMAGE, E_CLASS, E_ROAD, E_STAND,
	E_START_FIGURES, E_START_STANDS, E_X, E_Y, E_FACING, E_SHOTS, E_ROUTS,
	E_RALLY, E_ROUT_HALVES, E_CREW, E_BONUS, E_FIGURES, E_LEADER_X,
	E_LEADER_Y, E_ROUNDS, E_LOSSES
};

static void
edge_set(struct crown_state *s, enum edge_field f, double v)
{
	struct crown_unit	*u = crown_state_unit(s, "1-legion");
	struct crown_leader	*ld = crown_state_leader(s, "milan");

	switch (f) {
	case E_TURN:		s->turn = (int)v; break;
	case E_LAST_TURN:	s->last_turn = (int)v; break;
	case E_YEAR:		s->year = (int)v; break;
	case E_DAMAGE:		s->terrain[3].damage = (int)v; break;
	case E_CLASS:		s->terrain[3].bclass = (int)v; break;
	case E_ROAD:		s->terrain[1].width = v; break;
	case E_STAND:		u->stands[1] = (int)v; break;
	case E_START_FIGURES:	u->start_figures = (int)v; break;
	case E_START_STANDS:	u->start_stands = (int)v; break;
	case E_X:		u->x = v; break;
	case E_Y:		u->y = v; break;
	case E_FACING:		u->facing = (int)v; break;
	case E_SHOTS:		u->shots_fired = (int)v; break;
	case E_ROUTS:		u->routs = (int)v; break;
	case E_RALLY:		u->rally_failures = (int)v; break;
	case E_ROUT_HALVES:	u->rout_halves = (int)v; break;
	case E_CREW:		u->crew_replaced = (int)v; break;
	case E_BONUS:		ld->bonus = (int)v; break;
	case E_FIGURES:		ld->figures = (int)v; break;
	case E_LEADER_X:	ld->x = v; break;
	case E_LEADER_Y:	ld->y = v; break;
	case E_ROUNDS:		s->melees[0].rounds = (int)v; break;
	case E_LOSSES:		s->melees[0].defender_losses = (int)v; break;
	}
}

/* s with field f at ok settles and reads; at bad it neither settles nor
 * reads (tu_assert_settles checks that the reader agrees). */
static void
edge(const struct crown_state *s, enum edge_field f, double ok, double bad)
{
	struct crown_state	*c;
	char			 what[64];

	c = crown_state_clone(s);
	edge_set(c, f, ok);
	snprintf(what, sizeof(what), "field %d at %g", (int)f, ok);
	assert_true(tu_assert_settles(c, what));
	crown_state_free(c);
	c = crown_state_clone(s);
	edge_set(c, f, bad);
	snprintf(what, sizeof(what), "field %d at %g", (int)f, bad);
	assert_false(tu_assert_settles(c, what));
	crown_state_free(c);
}

/* The same for a string of the game, the field at offset off of the
 * state: ok settles and reads, bad not. */
static void
edge_str(const struct crown_state *s, size_t off, const char *ok,
    const char *bad)
{
	struct crown_state	*c;
	char			**field;
	const char		*v[2] = { ok, bad };
	int			 i;

	for (i = 0; i < 2; i++) {
		c = crown_state_clone(s);
		field = (char **)((char *)c + off);
		free(*field);
		*field = xstrdup(v[i]);
		assert_true(tu_assert_settles(c, v[i]) == (i == 0));
		crown_state_free(c);
	}
}

/*
 * crown_state_settle says no exactly where the reader would refuse the
 * state's written form, on both sides of every limit a turn can reach:
 * the turn, the deadlines, and every value of the units, leaders, melees
 * and buildings (crown verify goes on from a state only when it says
 * yes).
 */
static void
test_settle_refuses_what_the_reader_refuses(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s, *c;
	struct crown_melee	*m;
	struct crown_unit	*u;

	assert_int_equal(crown_state_load(&s, "tests/data/state-small.yaml",
	    &d), 0);
	/* a melee, for its limits */
	s->melees = xcalloc(1, sizeof(*s->melees));
	s->nmelees = 1;
	m = &s->melees[0];
	m->attackers = xcalloc(1, sizeof(char *));
	m->attackers[m->nattackers++] = xstrdup("1-legion");
	m->defenders = xcalloc(1, sizeof(char *));
	m->defenders[m->ndefenders++] = xstrdup("2-militia");
	assert_true(tu_assert_settles(s, "as read, with a melee"));
	edge(s, E_TURN, 100000, 100001);
	edge(s, E_LAST_TURN, 100000, 100001);
	edge(s, E_YEAR, 1800, 1799);
	edge(s, E_YEAR, 1900, 1901);
	edge(s, E_DAMAGE, 1000, 1001);
	edge(s, E_DAMAGE, 0, -1);
	edge(s, E_CLASS, 9, 10);
	edge(s, E_ROAD, 100, 100.01);
	edge(s, E_ROAD, 0.01, 0.004);
	edge(s, E_STAND, 1000, 1001);
	edge(s, E_STAND, 1, 0);
	edge(s, E_START_FIGURES, 1, 0);
	edge(s, E_START_STANDS, 1, 0);
	edge(s, E_START_STANDS, 1000, 1001);
	edge(s, E_X, -72, -72.01);
	edge(s, E_X, 144, 144.01);
	edge(s, E_Y, -48, -48.01);
	edge(s, E_Y, 96, 96.01);
	edge(s, E_FACING, 359, 360);
	edge(s, E_FACING, 0, -1);
	edge(s, E_SHOTS, 1000, 1001);
	edge(s, E_ROUTS, 1000, 1001);
	edge(s, E_RALLY, 1000, 1001);
	edge(s, E_ROUT_HALVES, 200000, 200001);
	edge(s, E_CREW, 1000, 1001);
	edge(s, E_BONUS, 9, 10);
	edge(s, E_BONUS, -9, -10);
	edge(s, E_FIGURES, 1000, 1001);
	/* R4.6: a detached leader stands on the table, not past it */
	edge(s, E_LEADER_X, 0, -0.01);
	edge(s, E_LEADER_X, 72, 72.01);
	edge(s, E_LEADER_Y, 0, -0.01);
	edge(s, E_LEADER_Y, 48, 48.01);
	edge(s, E_ROUNDS, 1000, 1001);
	edge(s, E_LOSSES, 1000000, 1000001);
	/* the umpire's input: the deadline and its interval */
#define AT(f) offsetof(struct crown_state, f)
	edge_str(s, AT(deadline), "2026-12-05T18:00:00Z", "garbage");
	edge_str(s, AT(deadline), "2028-02-29T00:00:00Z",
	    "2026-02-29T00:00:00Z");
	edge_str(s, AT(deadline_every), "7d", "7x");
	edge_str(s, AT(dice_commitment), "0123456789abcdef0123456789abcdef"
	    "0123456789abcdef0123456789abcdef", "0123456789abcdef");
#undef AT
	/* R6.6, R6.5: only artillery limbers or is abandoned */
	c = crown_state_clone(s);
	crown_state_unit(c, "gun-1")->abandoned = true;
	assert_true(tu_assert_settles(c, "a gun abandoned"));
	u = crown_state_unit(c, "1-legion");
	u->limbered = true;
	assert_false(tu_assert_settles(c, "infantry limbered"));
	u->limbered = false;
	u->abandoned = true;
	assert_false(tu_assert_settles(c, "infantry abandoned"));
	u->abandoned = false;
	/* R1.3: a unit of no stands is lost */
	u->nstands = 0;
	assert_false(tu_assert_settles(c, "no stands, not lost"));
	u->status = CROWN_LOST;
	assert_true(tu_assert_settles(c, "no stands, lost"));
	/* R10.3: attached to a unit of his own side; R9.7: melees of units */
	free(crown_state_leader(c, "danjou")->attached);
	crown_state_leader(c, "danjou")->attached = xstrdup("2-militia");
	assert_false(tu_assert_settles(c, "attached to the enemy"));
	crown_state_free(c);
	c = crown_state_clone(s);
	free(c->melees[0].defenders[0]);
	c->melees[0].defenders[0] = xstrdup("nobody");
	assert_false(tu_assert_settles(c, "a melee of no unit"));
	crown_state_free(c);
	crown_state_free(s);
}

static const char bad_state[] =
    "game:\n"
    "  name: Bad\n"
    "  turn: -1\n"			/* 3: out of range */
    "  attacker: nobody\n"		/* 4: not a side */
    "  colour: blue\n"			/* 5: unknown key */
    "table: {width: 72, height: 48}\n"
    "sides:\n"
    "  - {id: a, name: A, home_edge: south}\n"
    "  - {id: b, name: B, home_edge: up}\n"	/* 9: bad edge */
    "terrain:\n"
    "  - {id: h, type: volcano, polygon: [[0,0],[1,0],[1,1]]}\n" /* 11 */
    "  - {id: r, type: road, polygon: [[0,0],[1,0],[1,1]]}\n"	/* 12 */
    "units:\n"
    "  - id: u1\n"
    "    side: c\n"			/* 15: unknown side */
    "    type: infantry\n"
    "    class: heroic\n"		/* 17: bad class */
    "    weapon: rifled_musket\n"
    "    stands: [4, 0]\n"		/* 19: empty stand */
    "    x: 300\n"			/* 20: far off the table */
    "    y: 10\n"
    "    facing: 360\n"		/* 22: facing */
    "  - id: u1\n"			/* 23: duplicate */
    "    side: a\n"
    "    type: cavalry\n"
    "    gun: cannon\n"		/* 26: gun on cavalry */
    "    class: regular\n"
    "    weapon: lance\n"
    "    stands: [3, 3, 3]\n"
    "    x: 1\n"
    "    y: 1\n"
    "    facing: 0\n"
    "    loaded: maybe\n";		/* 33: not a bool */

static void
test_every_problem_at_once(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;

	assert_int_equal(crown_state_parse(&s, "bad.yaml", bad_state,
	    strlen(bad_state), &d), CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "bad.yaml:3:9: error: 'turn' must be from 0 to "
	    "100000, not -1 (R2.1)");
	assert_diag(&d, "bad.yaml:4:13: error: attacker 'nobody' is not one "
	    "of the sides (R2.1)");
	assert_diag(&d, "bad.yaml:5:3: error: unknown key 'colour'");
	assert_diag(&d, "bad.yaml:9:33: error: unknown home_edge 'up'");
	assert_diag(&d, "bad.yaml:11:19: error: unknown type 'volcano'");
	assert_diag(&d, "bad.yaml:12:5: error: road 'r' needs a 'path' "
	    "(R4.3)");
	assert_diag(&d, "bad.yaml:15:11: error: unknown side 'c'");
	assert_diag(&d, "bad.yaml:17:12: error: unknown class 'heroic'");
	assert_diag(&d, "bad.yaml:19:17: error: 'stands' must be from 1 to "
	    "1000, not 0 (R1.3)");
	assert_diag(&d, "bad.yaml:20:8: error: 'x' must be from -72 to 144, "
	    "not 300 (R1.2)");
	assert_diag(&d, "bad.yaml:22:13: error: 'facing' must be from 0 to "
	    "359, not 360 (R1.2)");
	assert_diag(&d, "bad.yaml:23:5: error: duplicate unit id 'u1'");
	assert_diag(&d, "bad.yaml:26:10: error: only artillery has a 'gun' "
	    "(R6.1)");
	assert_diag(&d, "bad.yaml:33:13: error: 'loaded' must be true or "
	    "false, not 'maybe' (R3.6)");
	assert_diag(&d, "bad.yaml:12:34: error: road takes a 'path', not a "
	    "'polygon' (R4.3)");
	assert_int_equal(d.n, 15);
	crown_diags_release(&d);
}

static void
test_missing_file(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;

	assert_int_equal(crown_state_load(&s, "tests/data/nope.yaml", &d),
	    CROWN_ENOTFOUND);
	assert_null(s);
	crown_diags_release(&d);
}

static void
test_scenario_defaults(void **state)
{
	static const char text[] =
	    "game: {name: S, turn: 0, attacker: a}\n"
	    "table: {width: 48, height: 48}\n"
	    "sides: [{id: a, home_edge: south}, {id: b, home_edge: north}]\n"
	    "units:\n"
	    "  - {id: g, side: a, type: horse_artillery, class: veteran, "
	    "stands: [4], x: 5, y: 5, facing: 0}\n";
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;

	assert_int_equal(crown_state_parse(&s, "s.yaml", text, strlen(text),
	    &d), 0);
	assert_no_diags(&d);
	assert_string_equal(s->rules, "maximilian");
	assert_string_equal(s->sides[0].name, "a");
	assert_int_equal(s->units[0].gun, CROWN_CANNON);
	assert_int_equal(s->units[0].formation, CROWN_LINE);
	assert_int_equal(s->units[0].status, CROWN_OK_STATUS);
	assert_true(s->units[0].loaded);
	assert_int_equal(s->units[0].start_figures, 4);
	assert_int_equal(s->nleaders, 0);
	crown_state_free(s);
}

/* Every unit found by its id, through the hash table, the ids that are
 * no unit's not, and with two units of one id the sorted order answers. */
static void
test_unit_lookup(void **state)
{
	struct crown_state	*s;
	struct crown_unit	*u;
	char			 id[32];
	size_t			 i, n = 3000;

	s = xcalloc(1, sizeof(*s));
	s->units = xcalloc(n, sizeof(*s->units));
	for (i = 0; i < n; i++)
		s->units[i].id = xasprintf("u-%zu", i * 7 % n);
	s->nunits = n;
	/* not indexed yet: no unit is found */
	assert_null(crown_state_unit(s, "u-1"));
	crown_state_index(s);
	assert_non_null(s->unit_slots);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "u-%zu", i);
		u = crown_state_unit(s, id);
		assert_non_null(u);
		assert_string_equal(u->id, id);
	}
	assert_null(crown_state_unit(s, "u-3000"));
	assert_null(crown_state_unit(s, "u-29990"));
	assert_null(crown_state_unit(s, "u-1x"));
	assert_null(crown_state_unit(s, "U-1"));
	assert_null(crown_state_unit(s, "u-"));
	assert_null(crown_state_unit(s, ""));
	assert_null(crown_state_unit(s, NULL));
	/* units 5 and 9 share an id */
	free(s->units[5].id);
	s->units[5].id = xstrdup(s->units[9].id);
	crown_state_index(s);
	assert_null(s->unit_slots);
	u = crown_state_unit(s, s->units[9].id);
	assert_true(u == &s->units[5] || u == &s->units[9]);
	assert_string_equal(crown_state_unit(s, "u-7")->id, "u-7");
	assert_null(crown_state_unit(s, "u-3000"));
	crown_state_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_fixture),
		cmocka_unit_test(test_round_trip_is_byte_identical),
		cmocka_unit_test(test_positions_round_to_hundredths),
		cmocka_unit_test(test_settle_is_what_is_read),
		cmocka_unit_test(test_settle_refuses_what_the_reader_refuses),
		cmocka_unit_test(test_every_problem_at_once),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_scenario_defaults),
		cmocka_unit_test(test_unit_lookup),
	};

	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
