/*
 * test-orders.c: reading orders and validating them before any die is
 * rolled (R2.2, R3.1, R3.3, R3.5, R3.6, R6.6, R7.5, R8.2).
 */
#include "testutil.h"

#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"

struct fixture {
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_diags	 d;
};

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof(*f));

	if (crown_state_load(&f->s, "tests/data/state-small.yaml", &f->d) ||
	    crown_rules_load(&f->rules, "rules/maximilian.yaml", &f->d))
		return -1;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	crown_state_free(f->s);
	crown_rules_free(f->rules);
	crown_diags_release(&f->d);
	free(f);
	return 0;
}

/* Parse and validate text as orders; returns the validation status. */
static int
check(struct fixture *f, const char *text)
{
	struct crown_orders	*o = NULL;
	int			 e1, e2 = 0;

	crown_diags_release(&f->d);
	e1 = crown_orders_parse(&o, "o.yaml", text, strlen(text), &f->d);
	if (o != NULL)
		e2 = crown_orders_validate(o, f->s, f->rules, &f->d);
	crown_orders_free(o);
	return e1 != 0 ? e1 : e2;
}

#define HEAD(side) "game: Test Skirmish\nturn: 3\nside: " side "\norders:\n"

static void
test_good_orders(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions:\n"
	    "      - move: {to: [30, 20], face: 0}\n"
	    "      - fire: 2-militia\n"
	    "      - reload\n"
	    "  - unit: gun-1\n"
	    "    actions: [unlimber]\n"
	    "  - leader: danjou\n"
	    "    detach: true\n"
	    "    move: {to: [31, 20]}\n"), 0);
	assert_no_diags(&f->d);
}

static void
test_fixture_file_reports_everything(void **state)
{
	struct fixture		*f = *state;
	struct crown_orders	*o = NULL;

	crown_diags_release(&f->d);
	assert_int_equal(crown_orders_load(&o, "tests/data/orders-bad.yaml",
	    &f->d), CROWN_EINVALID);
	assert_non_null(o);
	assert_int_equal(crown_orders_validate(o, f->s, f->rules, &f->d),
	    CROWN_EINVALID);
	crown_orders_free(o);
#define F "tests/data/orders-bad.yaml:"
	assert_diag(&f->d, F "19:11: error: 'unit' is not a valid id: "
	    "'Bad_Id'");
	assert_diag(&f->d, F "20:15: error: unknown action 'dance'");
	assert_diag(&f->d, F "22:5: error: unknown key 'colour'");
	assert_diag(&f->d, F "8:9: error: over budget: '2-militia' has 1 "
	    "action a half-turn (R3.1)");
	assert_diag(&f->d, F "9:5: error: unit '1-legion' belongs to side "
	    "'french'");
	assert_diag(&f->d, F "11:5: error: unknown unit 'ghost'");
	assert_diag(&f->d, F "15:9: error: '3-cav' may not enter hacienda "
	    "(building is N/A for cavalry) (R4.3)");
	assert_diag(&f->d, F "16:9: error: over budget: '3-cav' has 1 "
	    "action a half-turn (R3.1)");
	assert_diag(&f->d, F "16:9: error: '3-cav' may move only once a "
	    "turn (first move at line 15) (R3.3)");
	assert_diag(&f->d, F "17:5: error: second entry for unit "
	    "'2-militia' (first at line 5) (R3.3)");
	assert_diag(&f->d, F "21:5: error: second entry for unit '3-cav' "
	    "(first at line 13) (R3.3)");
#undef F
	assert_int_equal(f->d.n, 11);
}

static void
test_wrong_game_turn_side(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, "game: Other\nturn: 2\nside: french\n"
	    "orders: []\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:1:7: error: orders for game 'Other', but "
	    "this game is 'Test Skirmish'");
	assert_diag(&f->d, "o.yaml:2:7: error: orders for turn 2, but the "
	    "next turn is 3 (R2.2)");
	assert_int_equal(check(f, "game: Test Skirmish\nturn: 3\n"
	    "side: prussia\norders: []\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:3:7: error: unknown side 'prussia'");
	assert_int_equal(check(f, "game: Test Skirmish\nturn: x\n"
	    "orders: []\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:2:7: error: 'turn' must be a whole number");
	assert_diag(&f->d, "o.yaml:1:1: error: missing key 'side'");
}

/* R3.1: a veteran has 3 actions: 3 pass, 4 fail (both sides of the
 * budget's edge). */
static void
test_budget_edge(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, reload, fire: 2-militia]\n"), 0);
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, reload, fire: 2-militia, "
	    "reload]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:6:57: error: over budget: '1-legion' has "
	    "3 actions a half-turn (R3.1)");
	assert_int_equal(f->d.n, 1);
}

/* R3.5: a gun below its minimum crew pays double: 2 actions of a regular
 * gun with 3 crew (minimum 3) pass; with 2 crew one action is all. */
static void
test_undercrewed_gun_pays_double(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*g = crown_state_unit(f->s, "gun-1");

	g->stands[0] = 3;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [unlimber, reload]\n"), 0);
	g->stands[0] = 2;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [unlimber]\n"), 0);
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [unlimber, reload]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "over budget: 'gun-1' has 2 actions a half-turn, "
	    "each costing double with too few crew (R3.5)");
	g->stands[0] = 4;
}

/* R3.6: firing needs a load; repeaters fire three times. */
static void
test_loading(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*u = crown_state_unit(f->s, "1-legion");

	u->loaded = false;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:6:15: error: '1-legion' is not loaded: "
	    "reload before firing (R3.6)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [reload, fire: 2-militia]\n"), 0);
	u->loaded = true;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, fire: 2-militia]\n"),
	    CROWN_EINVALID);
	assert_diag(&f->d, "not loaded: reload before firing (R3.6)");
	u->weapon = CROWN_REPEATING_RIFLE;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, fire: 2-militia, "
	    "fire: 2-militia]\n"), 0);
	u->shots_fired = 1;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, fire: 2-militia, "
	    "fire: 2-militia]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:6:49: error: '1-legion' is not loaded");
	u->shots_fired = 0;
	u->weapon = CROWN_RIFLED_MUSKET;
}

/* R6.6: limbered guns neither fire nor are manhandled; unlimbered guns
 * are not moved but manhandled. */
static void
test_limbered_guns(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*g = crown_state_unit(f->s, "gun-1");

	g->loaded = true;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [fire: 2-militia]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'gun-1' is limbered and cannot fire (R6.6)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [manhandle: {to: [35, 12]}]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'gun-1' is limbered: move it, don't manhandle "
	    "it (R6.6)");
	g->limbered = false;
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [move: {to: [35, 12]}]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'gun-1' is unlimbered: limber it first, or "
	    "manhandle it (R6.6)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [fire: 2-militia, manhandle: {to: [35, 12]}]\n"),
	    0);
	g->limbered = true;
	g->loaded = false;
}

/* R7.5: over 60% casualties, no charge: 60% exactly may still charge. */
static void
test_charge_casualty_edge(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*u = crown_state_unit(f->s, "3-cav");
	int			 saved[3] = { 3, 3, 3 };

	/* 9 figures at the start: 60% lost is 5.4, so 5 lost may charge
	 * (55%), 6 lost (66%) may not */
	u->nstands = 2;
	u->stands[0] = 3;
	u->stands[1] = 1;
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 3-cav\n"
	    "    actions: [charge: 1-legion]\n"), 0);
	u->stands[1] = 0;
	u->nstands = 1;
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 3-cav\n"
	    "    actions: [charge: 1-legion]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'3-cav' has lost over 60% of its figures and "
	    "cannot charge (R7.5)");
	u->start_figures = 10;
	u->stands[0] = 4;	/* exactly 60% lost: may charge */
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 3-cav\n"
	    "    actions: [charge: 1-legion]\n"), 0);
	u->start_figures = 9;
	u->nstands = 3;
	memcpy(u->stands, saved, sizeof(saved));
}

/* R8.2: routing units only rally; R3.3 once-a-turn moves. */
static void
test_routing_and_moves(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*u = crown_state_unit(f->s, "2-militia");

	u->status = CROWN_ROUTING;
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 2-militia\n"
	    "    actions: [reload]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'2-militia' is routing and can only rally, not "
	    "reload (R8.2)");
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 2-militia\n"
	    "    actions: [rally]\n"), 0);
	u->status = CROWN_OK_STATUS;
	assert_int_equal(check(f, HEAD("republic")
	    "  - unit: 2-militia\n"
	    "    actions: [rally]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "is not routing: nothing to rally (R8.3)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [move: {to: [30, 14]}, help: gun-1]\n"),
	    CROWN_EINVALID);
	assert_diag(&f->d, "'1-legion' may move only once a turn (first move "
	    "at line 6) (R3.3)");
}

static void
test_targets(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: gun-1]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "cannot fire 'gun-1', a unit of your own side "
	    "(R5.1)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: nobody]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "fire target 'nobody' is not a unit (R5.1)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: milan]\n"), 0);
	assert_no_diags(&f->d);
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: building:hacienda]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "only guns fire at buildings; '1-legion' is infantry (R11.2)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [help: 2-militia]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'2-militia' is not of your side: help only your own guns and "
	    "wagons (R4.3)");
}

/*
 * Messages whose formats once took dummy arguments (orders.c's problem()
 * is printf-like now, so the compiler checks them): each still reads as
 * it did, with its place and rule.
 */
static void
test_checked_messages(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [fire: building:nowhere]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:6:15: error: unknown building 'nowhere' "
	    "(R11.2)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions: [fire: danjou]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'danjou' is a leader of your own side (R10.4)");
	assert_int_equal(check(f, HEAD("french")
	    "  - unit: gun-1\n"
	    "    actions: [help: gun-1]\n"), CROWN_EINVALID);
	assert_diag(&f->d, "'gun-1' cannot help itself (R4.3)");
	assert_int_equal(check(f, HEAD("french")
	    "  - leader: danjou\n"
	    "    detach: true\n"
	    "  - leader: danjou\n"
	    "    detach: true\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:7:5: error: second entry for leader "
	    "'danjou' (first at line 5) (R4.6)");
	assert_int_equal(check(f, "game: Test Skirmish\nturn: 9\n"
	    "side: french\norders: []\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:2:7: error: orders for turn 9, but the "
	    "next turn is 3 (R2.2)");
}

static void
test_shapes(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, HEAD("french")
	    "  - unit: 1-legion\n"
	    "    actions:\n"
	    "      - move: {to: [1, 2], path: [[1, 2]]}\n"
	    "      - fire\n"
	    "      - {reload: now}\n"
	    "      - {formation: square}\n"
	    "      - [hold]\n"
	    "      - move: {to: [1, 2], face: 400}\n"), CROWN_EINVALID);
	assert_diag(&f->d, "o.yaml:7:15: error: 'move' needs either 'to' or "
	    "'path' (R4.2)");
	assert_diag(&f->d, "o.yaml:8:9: error: action 'fire' needs an "
	    "argument");
	assert_diag(&f->d, "o.yaml:9:18: error: action 'reload' takes no "
	    "argument (R3.4)");
	assert_diag(&f->d, "o.yaml:10:21: error: unknown formation 'square'");
	assert_diag(&f->d, "o.yaml:11:9: error: an action is a name, or a "
	    "map with one key");
	assert_diag(&f->d, "o.yaml:12:34: error: 'face' must be from 0 to "
	    "359, not 400 (R4.2)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_orders),
		cmocka_unit_test(test_fixture_file_reports_everything),
		cmocka_unit_test(test_wrong_game_turn_side),
		cmocka_unit_test(test_budget_edge),
		cmocka_unit_test(test_undercrewed_gun_pays_double),
		cmocka_unit_test(test_loading),
		cmocka_unit_test(test_limbered_guns),
		cmocka_unit_test(test_charge_casualty_edge),
		cmocka_unit_test(test_routing_and_moves),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_checked_messages),
		cmocka_unit_test(test_shapes),
	};

	return cmocka_run_group_tests_name("orders", tests, setup, teardown);
}
