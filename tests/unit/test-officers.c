/*
 * test-officers.c: the scenario checks of officers and generals (R10.1,
 * R10.2) and elite troops (R3.2): crown_leaders_validate.
 */
#include "testutil.h"

#include "crown/leaders.h"
#include "crown/officers.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"

static struct crown_rules *rules;

/*
 * A scenario: side "a" with `army` (NULL: no key), `units` infantry
 * units, `officers` officers and `generals` generals; side "b" with one
 * unit and no army.  `year` 0 leaves game.year out.  `extra` is appended
 * to the leaders list (YAML lines) and `elite` makes the first unit elite.
 */
static char *
scenario(const char *army, int year, int units, int officers, int generals,
    const char *extra, bool elite, bool allow_elite)
{
	struct crown_buf	b = { 0 };
	int			i;

	crown_buf_printf(&b, "game: {name: T, turn: 0, attacker: a%s%s",
	    allow_elite ? ", allow_elite: true" : "", year ? ", year: " : "");
	if (year)
		crown_buf_printf(&b, "%d", year);
	crown_buf_printf(&b, "}\ntable: {width: 200, height: 48}\nsides:\n"
	    "  - {id: a, home_edge: south%s%s}\n"
	    "  - {id: b, home_edge: north}\nunits:\n",
	    army ? ", army: " : "", army ? army : "");
	for (i = 0; i < units; i++)
		crown_buf_printf(&b, "  - {id: u%d, side: a, type: infantry, "
		    "class: %s, weapon: rifled_musket, stands: [4, 4, 4], "
		    "x: %d, y: 10, facing: 0}\n", i,
		    elite && i == 0 ? "elite" : "regular", 5 + 6 * i);
	crown_buf_printf(&b, "  - {id: v0, side: b, type: infantry, "
	    "class: regular, weapon: rifled_musket, stands: [4, 4, 4], "
	    "x: 10, y: 40, facing: 180}\nleaders:%s\n",
	    officers + generals == 0 && extra == NULL ? " []" : "");
	for (i = 0; i < officers; i++)
		crown_buf_printf(&b, "  - {id: o%d, side: a, rank: officer, "
		    "x: 1, y: 1}\n", i);
	for (i = 0; i < generals; i++)
		crown_buf_printf(&b, "  - {id: g%d, side: a, rank: general, "
		    "x: 1, y: 1}\n", i);
	if (extra != NULL)
		crown_buf_puts(&b, extra);
	return b.data;
}

/* Validate a scenario; returns the diagnostics as one string (caller
 * frees) and the return code in *rc. */
static char *
check(const char *text, int *rc)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	char			*all;

	if (crown_state_parse(&s, "s.yaml", text, strlen(text), &d) != 0) {
		all = tu_diags(&d);
		print_error("scenario does not load:\n%s\n%s", all, text);
		free(all);
		fail();
	}
	*rc = crown_leaders_validate(s, rules, &d);
	all = tu_diags(&d);
	crown_state_free(s);
	crown_diags_release(&d);
	return all;
}

static void
expect_ok(char *text)
{
	int	 rc;
	char	*all = check(text, &rc);

	if (rc != 0 || all[0] != '\0') {
		print_error("expected no problem, got:\n%s", all);
		free(all);
		free(text);
		fail();
	}
	free(all);
	free(text);
}

static void
expect_bad(char *text, const char *want)
{
	int	 rc;
	char	*all = check(text, &rc);

	if (rc != CROWN_EINVALID || strstr(all, want) == NULL) {
		print_error("expected a problem with \"%s\", got (rc %d):\n%s",
		    want, rc, all);
		free(all);
		free(text);
		fail();
	}
	free(all);
	free(text);
}

/* R10.1: Intervention and Imperial: an officer per 2-3 units, one
 * general. */
static void
test_R10_1_imperial(void **state)
{
	expect_ok(scenario("imperial", 1863, 5, 2, 1, NULL, false, false));
	expect_ok(scenario("imperial", 1863, 6, 2, 1, NULL, false, false));
	expect_ok(scenario("imperial", 1863, 6, 3, 1, NULL, false, false));
	expect_ok(scenario("imperial", 0, 1, 1, 1, NULL, false, false));
	expect_bad(scenario("imperial", 1863, 7, 2, 1, NULL, false, false),
	    "s.yaml:4:5: error: side 'a' (imperial) has 7 units and 2 "
	    "brigade officers: it needs 3 (one per 2-3 units) (R10.1)");
	expect_bad(scenario("imperial", 1863, 6, 4, 1, NULL, false, false),
	    "has 6 units and 4 brigade officers: it needs 2 to 3");
	expect_bad(scenario("imperial", 1863, 5, 2, 0, NULL, false, false),
	    "side 'a' (imperial) has 0 generals: it needs 1 (R10.1)");
	expect_bad(scenario("imperial", 1863, 5, 2, 2, NULL, false, false),
	    "has 2 generals: it needs 1");
	/* a dead officer does not count */
	expect_bad(scenario("imperial", 1863, 5, 1, 1,
	    "  - {id: dead, side: a, rank: officer, x: 1, y: 1, "
	    "status: killed}\n", false, false),
	    "it needs 2 (one per 2-3 units)");
}

/* R10.1: Republicans 1861-64: a general for the first 4 units and an
 * officer per 3 more. */
static void
test_R10_1_republican_early(void **state)
{
	expect_ok(scenario("republican", 1864, 4, 0, 1, NULL, false, false));
	expect_bad(scenario("republican", 1864, 5, 0, 1, NULL, false, false),
	    "needs 1 general for the first 4 units and 1 officer (one per "
	    "3 more) (R10.1)");
	expect_ok(scenario("republican", 1864, 5, 1, 1, NULL, false, false));
	expect_ok(scenario("republican", 1864, 7, 1, 1, NULL, false, false));
	expect_bad(scenario("republican", 1864, 8, 1, 1, NULL, false, false),
	    "(republican, 1864) has 8 units, 1 officer and 1 general: it "
	    "needs 1 general for the first 4 units and 2 officers");
	expect_bad(scenario("republican", 1861, 4, 0, 0, NULL, false, false),
	    "it needs 1 general");
}

/* R10.1: Republicans 1865-67: an officer per 3 units and one general;
 * with no year, either allowance. */
static void
test_R10_1_republican_late(void **state)
{
	expect_ok(scenario("republican", 1865, 7, 3, 1, NULL, false, false));
	expect_ok(scenario("republican", 1867, 6, 2, 1, NULL, false, false));
	expect_bad(scenario("republican", 1865, 7, 1, 1, NULL, false, false),
	    "(republican, 1865) has 7 units, 1 officer and 1 general: it "
	    "needs 3 officers (one per 3 units) and 1 general (R10.1)");
	expect_ok(scenario("republican", 0, 7, 1, 1, NULL, false, false));
	expect_ok(scenario("republican", 0, 7, 3, 1, NULL, false, false));
	expect_bad(scenario("republican", 0, 7, 2, 1, NULL, false, false),
	    "(republican, year unknown) has 7 units, 2 officers and 1 "
	    "general: it needs 1 officer and 1 general (before 1865) or 3 "
	    "officers and 1 general (from 1865)");
	/* no army: not checked */
	expect_ok(scenario(NULL, 1865, 7, 0, 0, NULL, false, false));
}

/* R10.2 bonuses from -1 to +2; R3.2 elite only where allowed. */
static void
test_R10_2_bonus_R3_2_elite(void **state)
{
	expect_ok(scenario(NULL, 0, 2, 0, 0,
	    "  - {id: lo, side: a, rank: officer, bonus: -1, x: 1, y: 1}\n"
	    "  - {id: hi, side: a, rank: officer, bonus: 2, x: 1, y: 1}\n",
	    false, false));
	expect_bad(scenario(NULL, 0, 2, 0, 0,
	    "  - {id: lo, side: a, rank: officer, bonus: -2, x: 1, y: 1}\n",
	    false, false),
	    "leader 'lo' has a bonus of -2; a scenario may give from -1 to "
	    "+2 (R10.2)");
	expect_bad(scenario(NULL, 0, 2, 0, 0,
	    "  - {id: hi, side: a, rank: general, bonus: 3, x: 1, y: 1}\n",
	    false, false), "leader 'hi' has a bonus of +3");
	expect_bad(scenario(NULL, 0, 2, 0, 0, NULL, true, false),
	    "s.yaml:7:5: error: 'u0' is elite, but this scenario does not "
	    "allow elite troops (game.allow_elite) (R3.2)");
	expect_ok(scenario(NULL, 0, 2, 0, 0, NULL, true, true));
}

/* Every problem is reported, not just the first. */
static void
test_all_problems(void **state)
{
	int	 rc;
	char	*text = scenario("imperial", 0, 7, 1, 0,
	    "  - {id: hi, side: a, rank: officer, bonus: 5, x: 1, y: 1}\n",
	    true, false);
	char	*all = check(text, &rc);

	assert_int_equal(rc, CROWN_EINVALID);
	assert_non_null(strstr(all, "(R3.2)"));
	assert_non_null(strstr(all, "(R10.2)"));
	assert_non_null(strstr(all, "brigade officers: it needs 3"));
	assert_non_null(strstr(all, "has 0 generals"));
	free(all);
	free(text);
}

int
main(void)
{
	struct crown_diags		d = { 0 };
	const struct CMUnitTest		tests[] = {
		cmocka_unit_test(test_R10_1_imperial),
		cmocka_unit_test(test_R10_1_republican_early),
		cmocka_unit_test(test_R10_1_republican_late),
		cmocka_unit_test(test_R10_2_bonus_R3_2_elite),
		cmocka_unit_test(test_all_problems),
	};
	int				rc;

	if (crown_rules_load(&rules, "rules/maximilian.yaml", &d) != 0) {
		crown_diags_print(stderr, &d);
		return 1;
	}
	rc = cmocka_run_group_tests_name("officers", tests, NULL, NULL);
	crown_rules_free(rules);
	crown_diags_release(&d);
	return rc;
}
