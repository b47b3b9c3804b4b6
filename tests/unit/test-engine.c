/*
 * test-engine.c: the turn sequence of R2.1 and the simple actions: half
 * turns in order, phases in order within each, hold and reload, R2.2
 * skipped orders, R2.3 sides without orders, the event log.
 */
#include "testutil.h"

#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

struct fixture {
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_diags	 d;
	struct crown_events	 ev;
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
	crown_events_release(&f->ev);
	crown_diags_release(&f->d);
	free(f);
	return 0;
}

static struct crown_orders *
orders(struct fixture *f, const char *text)
{
	struct crown_orders	*o = NULL;

	assert_int_equal(crown_orders_parse(&o, "o.yaml", text, strlen(text),
	    &f->d), 0);
	assert_int_equal(crown_orders_validate(o, f->s, f->rules, &f->d), 0);
	return o;
}

static int
resolve(struct fixture *f, struct crown_orders **o, size_t n,
    const char *script)
{
	struct crown_dice	*dice = NULL;
	int			 error;

	assert_int_equal(crown_dice_script_parse(&dice, "dice", script,
	    strlen(script), &f->d), 0);
	error = crown_resolve(f->s, o, n, f->rules, dice, &f->ev, &f->d);
	crown_dice_free(dice);
	return error;
}

static size_t
count_kind(const struct crown_events *ev, const char *kind)
{
	size_t	i, n = 0;

	for (i = 0; i < ev->n; i++)
		if (strcmp(ev->v[i].kind, kind) == 0)
			n++;
	return n;
}

/* R2.1: attacker's half first; each half-turn's events are in phase
 * order; the turn advances by one. */
static void
test_R2_1_sequence(void **state)
{
	struct fixture		*f = *state;
	struct crown_orders	*o[2];
	size_t			 i;

	o[0] = orders(f, "game: Test Skirmish\nturn: 3\nside: republic\n"
	    "orders:\n  - unit: 2-militia\n    actions: [reload]\n");
	o[1] = orders(f, "game: Test Skirmish\nturn: 3\nside: french\n"
	    "orders:\n  - unit: 1-legion\n    actions: [hold]\n");
	assert_int_equal(resolve(f, o, 2, ""), 0);
	assert_int_equal(f->s->turn, 3);
	assert_string_equal(f->ev.v[0].kind, "half_turn");
	assert_string_equal(f->ev.v[0].half, "french");
	assert_string_equal(f->ev.v[1].kind, "hold");
	assert_string_equal(f->ev.v[1].unit, "1-legion");
	assert_string_equal(f->ev.v[1].rule, "R3.4");
	assert_string_equal(f->ev.v[2].kind, "half_turn");
	assert_string_equal(f->ev.v[2].half, "republic");
	assert_string_equal(f->ev.v[3].kind, "reload");
	assert_string_equal(f->ev.v[3].text, "Militia of Veracruz "
	    "reloaded.");
	assert_int_equal(f->ev.n, 4);
	for (i = 0; i < f->ev.n; i++) {
		assert_int_equal(f->ev.v[i].seq, i + 1);
		assert_int_equal(f->ev.v[i].turn, 3);
		if (i > 0 && strcmp(f->ev.v[i].half, f->ev.v[i - 1].half)
		    == 0)
			assert_true(f->ev.v[i].phase >= f->ev.v[i - 1].phase);
	}
	assert_true(crown_state_unit(f->s, "2-militia")->loaded);
	crown_orders_free(o[0]);
	crown_orders_free(o[1]);
}

/* R2.3: a side without orders holds: loaded units fire at the nearest
 * enemy in range and arc (the Legion at the militia, 17.5 inches: three
 * misses), unloaded units reload. */
static void
test_R2_3_no_orders(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(resolve(f, NULL, 0, "9 9 9"), 0);
	assert_int_equal(count_kind(&f->ev, "no_orders"), 2);
	assert_int_equal(count_kind(&f->ev, "fire"), 1);
	assert_true(crown_state_unit(f->s, "2-militia")->loaded);
	/* a limbered gun cannot load: it holds */
	assert_false(crown_state_unit(f->s, "gun-1")->loaded);
}

/* R2.2: the orders of a unit that is lost by the time they are reached
 * are skipped with a reason. */
static void
test_R2_2_skipped(void **state)
{
	struct fixture		*f = *state;
	struct crown_orders	*o;

	o = orders(f, "game: Test Skirmish\nturn: 3\nside: french\n"
	    "orders:\n  - unit: 1-legion\n    actions: [hold]\n");
	crown_state_unit(f->s, "1-legion")->status = CROWN_LOST;
	assert_int_equal(resolve(f, &o, 1, ""), 0);
	assert_string_equal(f->ev.v[1].kind, "order_skipped");
	assert_string_equal(f->ev.v[1].unit, "1-legion");
	assert_string_equal(f->ev.v[1].order, "hold");
	assert_string_equal(f->ev.v[1].reason, "the unit is lost");
	assert_string_equal(f->ev.v[1].rule, "R2.2");
	crown_orders_free(o);
}

/* R3.7: reform removes disorder. */
static void
test_R3_7_reform(void **state)
{
	struct fixture		*f = *state;
	struct crown_orders	*o;

	crown_state_unit(f->s, "1-legion")->disordered = true;
	o = orders(f, "game: Test Skirmish\nturn: 3\nside: french\n"
	    "orders:\n  - unit: 1-legion\n    actions: [reform]\n");
	assert_int_equal(resolve(f, &o, 1, ""), 0);
	assert_false(crown_state_unit(f->s, "1-legion")->disordered);
	assert_string_equal(f->ev.v[1].result, "reformed");
	crown_orders_free(o);
}

/* R1.3: casualties come off the last stand first; an empty stand goes. */
static void
test_R1_3_casualties(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*u = crown_state_unit(f->s, "2-militia");

	assert_int_equal(crown_unit_take_casualties(u, 5), 5);
	assert_int_equal(u->nstands, 3);
	assert_int_equal(u->stands[2], 3);
	assert_int_equal(crown_unit_take_casualties(u, 20), 11);
	assert_int_equal(u->nstands, 0);
	assert_int_equal(u->status, CROWN_LOST);
}

static void
test_events_yaml(void **state)
{
	struct fixture		*f = *state;
	struct crown_buf	 b = { 0 };
	size_t			 i;

	i = crown_events_add(&f->ev, 3, "french", CROWN_PHASE_ACTIONS,
	    "fire", "1-legion", "R5.1");
	f->ev.v[i].target = xstrdup("2-militia");
	crown_event_die(&f->ev.v[i], 10, 4, "fire");
	crown_die_mod(&f->ev.v[i].dice[0], "veteran", -1, "R3.1");
	f->ev.v[i].has_casualties = true;
	f->ev.v[i].casualties = 1;
	crown_event_set(&f->ev.v[i].text, "%s", "The Legion fired.");
	assert_int_equal(crown_events_emit(&b, &f->ev), 0);
	assert_string_equal(b.data,
	    "- seq: 1\n"
	    "  turn: 3\n"
	    "  half: french\n"
	    "  phase: actions\n"
	    "  kind: fire\n"
	    "  unit: 1-legion\n"
	    "  target: 2-militia\n"
	    "  dice:\n"
	    "  - {die: D10, for: fire, roll: 4, modifiers: [{name: veteran, "
	    "value: -1, rule: R3.1}], score: 3}\n"
	    "  casualties: 1\n"
	    "  rule: R5.1\n"
	    "  text: The Legion fired.\n");
	crown_buf_release(&b);
}

/* The sentences print every name with "%s": a state without a unit's
 * name (the reader always gives one; code may build one without) is
 * refused before a word is written, rather than printing NULL. */
static void
test_unnamed_refused(void **state)
{
	struct fixture		*f = *state;
	struct crown_unit	*u = crown_state_unit(f->s, "1-legion");
	size_t			 i;
	int			 turn = f->s->turn;
	bool			 said = false;

	free(u->name);
	u->name = NULL;
	assert_int_equal(resolve(f, NULL, 0, ""), CROWN_EINVALID);
	assert_int_equal(f->ev.n, 0);
	assert_int_equal(f->s->turn, turn);
	for (i = 0; i < f->d.n; i++)
		said |= strstr(f->d.v[i].msg, "has no id or name") != NULL;
	assert_true(said);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_R2_1_sequence, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_R2_3_no_orders, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_R2_2_skipped, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_R3_7_reform, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_R1_3_casualties, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_events_yaml, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unnamed_refused, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
