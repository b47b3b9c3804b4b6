/*
 * test-muster.c: units from the troop tables (R12.1, muster.c) of
 * rules/maximilian.yaml: the row of a type and year, R1.1's stands and
 * their defaults, one die a unit from scripted dice, and the YAML that
 * reads back as the units raised.
 */
#include "crown/dice.h"
#include "crown/muster.h"
#include "crown/rules.h"
#include "crown/yaml.h"

#include "testutil.h"

#define RULES_FILE	"rules/maximilian.yaml"
#define WHERE		"crown muster"

static int
setup(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*rules = NULL;

	if (crown_rules_load(&rules, RULES_FILE, &d) != 0)
		return -1;
	crown_diags_release(&d);
	*state = rules;
	return 0;
}

static int
teardown(void **state)
{
	crown_rules_free(*state);
	return 0;
}

static struct crown_dice *
script(const char *text)
{
	struct crown_diags	 d = { 0 };
	struct crown_dice	*dice = NULL;

	assert_int_equal(crown_dice_script_parse(&dice, "dice.txt", text,
	    strlen(text), &d), 0);
	assert_no_diags(&d);
	return dice;
}

static void
test_row(void **state)
{
	const struct crown_rules	*rules = *state;
	const struct crown_troop_row	*row;
	struct crown_diags		 d = { 0 };

	row = crown_muster_row(rules, "militia_foot", 1866, WHERE, &d);
	assert_non_null(row);
	assert_no_diags(&d);
	assert_int_equal(row->year_from, 1865);
	assert_int_equal(row->year_to, 1867);
	/* the first and last years of a row are in it */
	row = crown_muster_row(rules, "militia_foot", 1864, WHERE, &d);
	assert_non_null(row);
	assert_int_equal(row->year_to, 1864);
	row = crown_muster_row(rules, "militia_foot", 1865, WHERE, &d);
	assert_non_null(row);
	assert_int_equal(row->year_from, 1865);
	assert_no_diags(&d);
	assert_null(crown_muster_row(rules, "french_line", 1868, WHERE, &d));
	assert_null(crown_muster_row(rules, "grenadiers", 1866, WHERE, &d));
	assert_int_equal(d.n, 2);
	assert_diag(&d, "crown muster: error: the troop tables have no "
	    "'french_line' for 1868; `crown muster --list` shows their years "
	    "(R12.1)");
	assert_diag(&d, "crown muster: error: unknown troop type "
	    "'grenadiers'; `crown muster --list` shows the types (R12.1)");
	crown_diags_release(&d);
}

static void
test_stands(void **state)
{
	const struct crown_rules	*rules = *state;
	const struct crown_troop_row	*foot, *gun;
	struct crown_muster_spec	 o;
	struct crown_diags		 d = { 0 };

	foot = crown_muster_row(rules, "militia_foot", 1866, WHERE, &d);
	gun = crown_muster_row(rules, "french_artillery", 1866, WHERE, &d);
	assert_non_null(foot);
	assert_non_null(gun);
	/* the defaults: four stands of four; a gun's minimum crew and one */
	memset(&o, 0, sizeof(o));
	assert_int_equal(crown_muster_stands(&o, rules, foot, WHERE, &d), 0);
	assert_int_equal(o.nstands, 4);
	assert_int_equal(o.stands[0], 4);
	assert_int_equal(o.stands[3], 4);
	memset(&o, 0, sizeof(o));
	assert_int_equal(crown_muster_stands(&o, rules, gun, WHERE, &d), 0);
	assert_int_equal(o.nstands, 1);
	assert_int_equal(o.stands[0], rules->min_crew[gun->utype] + 1);
	assert_no_diags(&d);
	/* R1.1 at its edges: 3 and 8 stands of 2 and 5 figures */
	memset(&o, 0, sizeof(o));
	o.nstands = 3;
	o.stands[0] = 2, o.stands[1] = 5, o.stands[2] = 2;
	assert_int_equal(crown_muster_stands(&o, rules, foot, WHERE, &d), 0);
	o.nstands = 8;
	o.stands[3] = o.stands[4] = o.stands[5] = o.stands[6] =
	    o.stands[7] = 5;
	assert_int_equal(crown_muster_stands(&o, rules, foot, WHERE, &d), 0);
	assert_no_diags(&d);
	/* and past them, every problem at once */
	o.nstands = 2;
	o.stands[0] = 1, o.stands[1] = 6;
	assert_int_equal(crown_muster_stands(&o, rules, foot, WHERE, &d),
	    CROWN_EINVALID);
	assert_int_equal(d.n, 3);
	assert_diag(&d, "crown muster: error: a unit has 3 to 8 stands, not "
	    "2 (R1.1)");
	assert_diag(&d, "stand 1 has 1 figure; a stand has 2 to 5 (R1.1)");
	assert_diag(&d, "stand 2 has 6 figures; a stand has 2 to 5 (R1.1)");
	crown_diags_release(&d);
	o.nstands = 9;
	assert_int_equal(crown_muster_stands(&o, rules, foot, WHERE, &d),
	    CROWN_EINVALID);
	crown_diags_release(&d);
	o.nstands = 2;
	o.stands[0] = o.stands[1] = 4;
	assert_int_equal(crown_muster_stands(&o, rules, gun, WHERE, &d),
	    CROWN_EINVALID);
	assert_diag(&d, "a gun and its crew are one stand, not 2 (R1.1)");
	crown_diags_release(&d);
}

/* One die a unit picks its option; the units stand in a row. */
static void
test_raise(void **state)
{
	const struct crown_rules	*rules = *state;
	const struct crown_troop_row	*row;
	struct crown_muster_spec	 o;
	struct crown_muster		 m;
	struct crown_diags		 d = { 0 };
	struct crown_dice		*dice;

	row = crown_muster_row(rules, "militia_foot", 1866, WHERE, &d);
	memset(&o, 0, sizeof(o));
	o.year = 1866;
	o.count = 3;
	o.at = true;
	o.x = 10;
	o.y = 20;
	o.facing = 180;
	assert_int_equal(crown_muster_stands(&o, rules, row, WHERE, &d), 0);
	dice = script("9 0 5");
	assert_int_equal(crown_muster_raise(&m, rules, row, &o, dice, WHERE,
	    &d), 0);
	assert_no_diags(&d);
	assert_int_equal(m.n, 3);
	assert_string_equal(m.v[0].id, "militia-foot-1");
	assert_string_equal(m.v[2].name, "Militia Foot 3");
	/* 9: militia civilian; 0: regular rifled musket; 5: smoothbore */
	assert_int_equal(m.v[0].face, 9);
	assert_int_equal(m.v[0].op->cls, CROWN_MILITIA);
	assert_int_equal(m.v[1].op->cls, CROWN_REGULAR);
	assert_int_equal(m.v[1].op->weapon, CROWN_RIFLED_MUSKET);
	assert_int_equal(m.v[2].op->weapon, CROWN_SMOOTHBORE);
	/* a line of four stands and one stand's frontage apart: 5" */
	assert_true(m.v[0].x == 10 && m.v[1].x == 15 && m.v[2].x == 20);
	crown_muster_release(&m);
	crown_dice_free(dice);

	/* the script runs out at the third unit: nothing is kept */
	dice = script("9 0");
	assert_int_equal(crown_muster_raise(&m, rules, row, &o, dice, WHERE,
	    &d), CROWN_EINVALID);
	assert_int_equal(m.n, 0);
	assert_null(m.v);
	assert_diag(&d, "militia-foot-3");
	assert_diag(&d, "(R12.1)");
	crown_diags_release(&d);
	crown_dice_free(dice);

	/* a prefix is kept as given; one too long for the ids is refused */
	o.prefix = "a_b";
	dice = script("1 1 1");
	assert_int_equal(crown_muster_raise(&m, rules, row, &o, dice, WHERE,
	    &d), 0);
	assert_string_equal(m.v[1].id, "a_b-2");
	crown_muster_release(&m);
	o.prefix = "abcdefghijklmnopqrstuvwxyz01234";
	assert_int_equal(crown_muster_raise(&m, rules, row, &o, dice, WHERE,
	    &d), CROWN_EUSAGE);
	assert_diag(&d, "'abcdefghijklmnopqrstuvwxyz01234-3' is not a valid "
	    "id");
	crown_diags_release(&d);
	crown_dice_free(dice);
}

/* What crown muster prints reads back as the units raised. */
static void
test_emit(void **state)
{
	const struct crown_rules	*rules = *state;
	const struct crown_troop_row	*row;
	const struct crown_ynode	*root, *u;
	struct crown_muster_spec	 o;
	struct crown_muster		 m;
	struct crown_ydoc		*doc = NULL;
	struct crown_buf		 out = { 0 };
	struct crown_diags		 d = { 0 };
	struct crown_dice		*dice;

	row = crown_muster_row(rules, "irregular_cavalry", 1863, WHERE, &d);
	memset(&o, 0, sizeof(o));
	o.year = 1863;
	o.count = 2;
	o.script = "dice.txt";
	assert_int_equal(crown_muster_stands(&o, rules, row, WHERE, &d), 0);
	dice = script("9 4");
	assert_int_equal(crown_muster_raise(&m, rules, row, &o, dice, WHERE,
	    &d), 0);
	assert_int_equal(crown_muster_emit(&out, &m, &o, NULL), 0);
	assert_non_null(strstr(out.data, "# one D10 each, dice from the "
	    "script dice.txt, in order.\n# Paste under `units:` in a scenario "
	    "and set side, x, y and facing.\n# D10 rolled 9: militia, "
	    "civilian, with lances (L) (R12.1)\n# (L): a state holds one "
	    "weapon;"));
	assert_non_null(strstr(out.data, "- id: irregular-cavalry-1\n"
	    "  name: \"Irregular Cavalry 1 (lancers)\"\n  side: SIDE\n"
	    "  type: cavalry\n  class: militia\n  weapon: civilian\n"
	    "  stands: [4, 4, 4, 4]\n  x: 0.00\n  y: 0.00\n  facing: 0\n"
	    "# D10 rolled 4: militia, smoothbore (R12.1)\n"
	    "- id: irregular-cavalry-2\n  name: \"Irregular Cavalry 2\"\n"));
	assert_int_equal(crown_ydoc_parse(&doc, "muster.yaml", out.data,
	    out.len, &crown_ylimits_state, &d), 0);
	assert_no_diags(&d);
	root = crown_ydoc_root(doc);
	assert_int_equal(root->kind, CROWN_Y_SEQ);
	assert_int_equal(root->n, 2);
	u = root->item[1];
	assert_string_equal(crown_ymap_get(u, "name")->str,
	    "Irregular Cavalry 2");
	assert_string_equal(crown_ymap_get(u, "weapon")->str, "smoothbore");
	crown_ydoc_free(doc);
	crown_buf_release(&out);
	crown_muster_release(&m);
	crown_dice_free(dice);
}

static void
test_list(void **state)
{
	struct crown_buf	out = { 0 };

	crown_muster_list(&out, *state);
	assert_non_null(strstr(out.data, "# R12.1 troop tables of "
	    "maximilian: crown muster --type TYPE --year YEAR\n"));
	assert_non_null(strstr(out.data, "french_artillery: French "
	    "Artillery (foot_artillery, cannon)\n"));
	assert_non_null(strstr(out.data, "  1865-1866: 9-6 regular rifle; "
	    "5-0 veteran rifle\n"));
	crown_buf_release(&out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_stands),
		cmocka_unit_test(test_raise),
		cmocka_unit_test(test_emit),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests_name("muster", tests, setup, teardown);
}
