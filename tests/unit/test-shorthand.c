/*
 * test-shorthand.c: orders one unit a line (shorthand.h): every action of
 * R3.4, leaders (R4.6, R10.3), headers, every problem with its line and
 * column, limits on both sides of their edges, and the way back out as a
 * canonical orders file and as shorthand.
 */
#include "testutil.h"

#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/shorthand.h"
#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

struct fixture {
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_diags	 d;
	struct crown_orders	*o;
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

	crown_orders_free(f->o);
	crown_state_free(f->s);
	crown_rules_free(f->rules);
	crown_diags_release(&f->d);
	free(f);
	return 0;
}

/* Parse text; the orders stay in f->o until the next call. */
static int
parse(struct fixture *f, const char *text)
{
	crown_diags_release(&f->d);
	crown_orders_free(f->o);
	f->o = NULL;
	return crown_shorthand_parse(&f->o, "m", text, strlen(text), &f->d);
}

/* Parse and validate against the small table. */
static int
check(struct fixture *f, const char *text)
{
	int	error;

	error = parse(f, text);
	if (f->o->game == NULL)
		f->o->game = xstrdup("Test Skirmish");
	if (f->o->turn < 0)
		f->o->turn = 3;
	if (crown_orders_validate(f->o, f->s, f->rules, &f->d) != 0 &&
	    error == 0)
		error = CROWN_EINVALID;
	return error;
}

static void
test_every_action(void **state)
{
	struct fixture			*f = *state;
	const struct crown_action_order	*a;

	assert_int_equal(parse(f,
	    "game: Test Skirmish\n"
	    "turn: 3\n"
	    "side: french\n"
	    "1-legion: move 20,30 face 90 road; fire 2-militia; reload\n"
	    "gun-1: unlimber; fire building:hacienda\n"
	    "2-militia: path 10,10 20.5,-3.25 30 , 31 face 0; charge 3-cav\n"
	    "3-cav: manhandle 1,2 face 359; limber; formation column; "
	    "formation line\n"
	    "4-x: reform; help gun-1; rally; hold; Unlimber\n"), 0);
	assert_no_diags(&f->d);
	assert_string_equal(f->o->game, "Test Skirmish");
	assert_int_equal(f->o->turn, 3);
	assert_string_equal(f->o->side, "french");
	assert_int_equal(f->o->side_line, 3);
	assert_int_equal(f->o->side_col, 7);
	assert_int_equal(f->o->nunits, 5);
	assert_int_equal(f->o->nleaders, 0);

	assert_string_equal(f->o->units[0].unit, "1-legion");
	assert_int_equal(f->o->units[0].line, 4);
	assert_int_equal(f->o->units[0].col, 1);
	assert_int_equal(f->o->units[0].nactions, 3);
	a = &f->o->units[0].actions[0];
	assert_int_equal(a->kind, CROWN_MOVE);
	assert_int_equal(a->line, 4);
	assert_int_equal(a->col, 11);
	assert_int_equal(a->npath, 1);
	assert_true(a->path[0].x == 20 && a->path[0].y == 30);
	assert_true(a->has_face);
	assert_int_equal(a->face, 90);
	assert_true(a->road);
	a = &f->o->units[0].actions[1];
	assert_int_equal(a->kind, CROWN_FIRE);
	assert_int_equal(a->col, 36);
	assert_string_equal(a->target, "2-militia");
	assert_false(a->target_building);
	assert_int_equal(f->o->units[0].actions[2].kind, CROWN_RELOAD);

	a = &f->o->units[1].actions[1];
	assert_int_equal(a->kind, CROWN_FIRE);
	assert_string_equal(a->target, "hacienda");
	assert_true(a->target_building);

	a = &f->o->units[2].actions[0];
	assert_int_equal(a->kind, CROWN_MOVE);
	assert_int_equal(a->npath, 3);
	assert_true(a->path[1].x == 20.5 && a->path[1].y == -3.25);
	assert_true(a->path[2].x == 30 && a->path[2].y == 31);
	assert_true(a->has_face);
	assert_int_equal(a->face, 0);
	assert_false(a->road);
	assert_int_equal(f->o->units[2].actions[1].kind, CROWN_CHARGE);
	assert_string_equal(f->o->units[2].actions[1].target, "3-cav");

	a = &f->o->units[3].actions[0];
	assert_int_equal(a->kind, CROWN_MANHANDLE);
	assert_int_equal(a->face, 359);
	assert_int_equal(f->o->units[3].actions[1].kind, CROWN_LIMBER);
	assert_int_equal(f->o->units[3].actions[2].kind, CROWN_FORMATION);
	assert_int_equal(f->o->units[3].actions[2].formation, CROWN_COLUMN);
	assert_int_equal(f->o->units[3].actions[3].formation, CROWN_LINE);

	assert_int_equal(f->o->units[4].nactions, 5);
	assert_int_equal(f->o->units[4].actions[0].kind, CROWN_REFORM);
	assert_int_equal(f->o->units[4].actions[1].kind, CROWN_HELP);
	assert_string_equal(f->o->units[4].actions[1].target, "gun-1");
	assert_int_equal(f->o->units[4].actions[2].kind, CROWN_RALLY);
	assert_int_equal(f->o->units[4].actions[3].kind, CROWN_HOLD);
	/* action names are read whatever their case */
	assert_int_equal(f->o->units[4].actions[4].kind, CROWN_UNLIMBER);
}

static void
test_headers_optional(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(parse(f, "1-legion: hold\n"), 0);
	assert_null(f->o->game);
	assert_int_equal(f->o->turn, -1);
	assert_null(f->o->side);
	assert_int_equal(f->o->nunits, 1);
	/* a password line is crown inbox's business: skipped here */
	assert_int_equal(parse(f, "password: hunter2\n1-legion: hold\n"), 0);
	assert_int_equal(f->o->nunits, 1);
	/* an empty message is no orders at all: every unit holds (R2.3) */
	assert_int_equal(parse(f, ""), 0);
	assert_int_equal(f->o->nunits, 0);
}

static void
test_leaders(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(parse(f,
	    "leader danjou: detach; move 31,20\n"
	    "leader milan: attach 3-cav\n"), 0);
	assert_no_diags(&f->d);
	assert_int_equal(f->o->nleaders, 2);
	assert_string_equal(f->o->leaders[0].leader, "danjou");
	assert_int_equal(f->o->leaders[0].line, 1);
	assert_int_equal(f->o->leaders[0].col, 8);
	assert_true(f->o->leaders[0].detach);
	assert_true(f->o->leaders[0].has_move);
	assert_true(f->o->leaders[0].to.x == 31 &&
	    f->o->leaders[0].to.y == 20);
	assert_int_equal(f->o->leaders[0].move_line, 1);
	assert_int_equal(f->o->leaders[0].move_col, 24);
	assert_null(f->o->leaders[0].attach);
	assert_string_equal(f->o->leaders[1].attach, "3-cav");
	assert_false(f->o->leaders[1].detach);

	assert_int_equal(parse(f,
	    "leader danjou: attach 1-legion; detach\n"
	    "leader milan: move 1,2 face 3; fire 1-legion\n"
	    "leader : hold\n"
	    "leader milan:\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:8: error: a leader cannot attach and detach "
	    "in one order (R10.3)");
	assert_diag(&f->d, "m:2:15: error: a leader moves to one point: "
	    "'move X,Y' (R4.6)");
	assert_diag(&f->d, "m:2:32: error: a leader can 'move X,Y', 'attach "
	    "UNIT' or 'detach', not 'fire' (R10.3)");
	assert_diag(&f->d, "m:3:8: error: 'leader' needs the leader's id");
	assert_diag(&f->d, "m:3:10: error: a leader can 'move X,Y', 'attach "
	    "UNIT' or 'detach', not 'hold' (R10.3)");
	assert_diag(&f->d, "m:4:14: error: no orders for the leader");
	assert_int_equal(f->d.n, 6);
}

static void
test_problems_have_places(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(parse(f,
	    "turn: 0\n"
	    "side: French\n"
	    "1-legion: dance; move; fire\n"
	    "Bad_Id: hold\n"
	    "2-militia: reload now; formation square; move 1,2 sideways\n"
	    "just some words\n"
	    "3-cav:\n"
	    "gun-1: fire building:Bad; charge 1,2\n"
	    "side: republic\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:7: error: 'turn' must be a whole number from "
	    "1 to 100000, not '0' (R2.2)");
	assert_diag(&f->d, "m:2:7: error: 'side' is not a valid id: "
	    "'French'");
	assert_diag(&f->d, "m:3:11: error: unknown action 'dance' (one of: "
	    "move, charge, fire, reload, manhandle, limber, unlimber, "
	    "formation, reform, help, rally, hold; or path) (R3.4)");
	assert_diag(&f->d, "m:3:18: error: 'move' needs a destination X,Y "
	    "(or a path X,Y X,Y ...) (R4.2)");
	assert_diag(&f->d, "m:3:24: error: 'fire' takes one argument: a "
	    "unit, a leader or building:ID (R3.4)");
	assert_diag(&f->d, "m:4:1: error: 'unit' is not a valid id: "
	    "'Bad_Id'");
	assert_diag(&f->d, "m:5:19: error: action 'reload' takes no argument "
	    "(R3.4)");
	assert_diag(&f->d, "m:5:34: error: a formation is line or column "
	    "(R3.4)");
	assert_diag(&f->d, "m:5:51: error: unexpected 'sideways' in 'move' "
	    "(write move X,Y [X,Y ...] [face N] [road]) (R4.2)");
	assert_diag(&f->d, "m:6:1: error: expected 'UNIT: ACTION; ACTION "
	    "...' or 'leader ID: ...', not 'just some words' (R3.4)");
	assert_diag(&f->d, "m:7:6: error: no actions for '3-cav' (write "
	    "'hold' to hold) (R3.4)");
	assert_diag(&f->d, "m:8:13: error: 'Bad' is not a valid building id "
	    "(R11.2)");
	assert_diag(&f->d, "m:8:34: error: 'charge' needs an id, not a point "
	    "(R9.1)");
	assert_diag(&f->d, "m:9:1: error: 'side' is given twice");
	assert_int_equal(f->d.n, 14);
}

/* R4.2: bearings 0-359; the edges on both sides. */
static void
test_face_edges(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(parse(f, "u: move 1,1 face 359\n"), 0);
	assert_int_equal(f->o->units[0].actions[0].face, 359);
	assert_int_equal(parse(f, "u: move 1,1 face 0\n"), 0);
	assert_true(f->o->units[0].actions[0].has_face);
	assert_int_equal(parse(f, "u: move 1,1 face 360\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:18: error: a bearing is 0 to 359 degrees, "
	    "not 360 (R4.2)");
	assert_int_equal(parse(f, "u: move 1,1 face -1\n"), CROWN_EINVALID);
	assert_diag(&f->d, "not -1 (R4.2)");
	assert_int_equal(parse(f, "u: move 1,1 face\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:13: error: 'face' needs a bearing in whole "
	    "degrees, 0 to 359 (R4.2)");
	assert_int_equal(parse(f, "u: move 1,1 face 9 face 9 road road\n"),
	    CROWN_EINVALID);
	assert_diag(&f->d, "m:1:20: error: 'face' is given twice (R4.2)");
	assert_diag(&f->d, "m:1:32: error: 'road' is given twice (R4.2)");
}

/* Turns from 1; positions to hundredths, as orders files keep them. */
static void
test_numbers(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(parse(f, "turn: 1\nu: move 0.004,99999.995\n"), 0);
	assert_int_equal(f->o->turn, 1);
	assert_true(f->o->units[0].actions[0].path[0].x == 0);
	assert_true(f->o->units[0].actions[0].path[0].y == 100000);
	assert_int_equal(parse(f, "turn: 100000\n"), 0);
	assert_int_equal(parse(f, "turn: 100001\n"), CROWN_EINVALID);
	assert_int_equal(parse(f, "turn: 3x\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:7: error: 'turn' must be a whole number");
	assert_int_equal(parse(f, "u: move 100000.01,1\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:9: error: '100000.01' is not a number from "
	    "-100000 to 100000 (R4.2)");
	assert_int_equal(parse(f, "u: move 20,x\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:4: error: 'move' needs a destination X,Y");
	assert_int_equal(parse(f, "u: move 20,30 x\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:15: error: unexpected 'x' in 'move'");
}

/* 32 actions a unit and 64 points a path: the limits on both sides. */
static void
test_limits(void **state)
{
	struct fixture		*f = *state;
	struct crown_buf	 b = { 0 };
	int			 i;

	crown_buf_puts(&b, "u: hold");
	for (i = 1; i < 32; i++)
		crown_buf_puts(&b, "; hold");
	assert_int_equal(parse(f, b.data), 0);
	assert_int_equal(f->o->units[0].nactions, 32);
	crown_buf_puts(&b, "; hold\n");
	assert_int_equal(parse(f, b.data), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:196: error: more than 32 actions (R3.1)");
	b.len = 0;
	crown_buf_puts(&b, "u: path");
	for (i = 0; i < 64; i++)
		crown_buf_printf(&b, " %d,1", i);
	assert_int_equal(parse(f, b.data), 0);
	assert_int_equal(f->o->units[0].actions[0].npath, 64);
	crown_buf_puts(&b, " 64,1");
	assert_int_equal(parse(f, b.data), CROWN_EINVALID);
	assert_diag(&f->d, "a path has 1 to 64 points (R4.2)");
	crown_buf_release(&b);
}

/*
 * Issue 20: prose before the first order line is skipped with a warning;
 * after it, it is an error; game: and turn: are put at their places.
 */
static void
test_prose_and_places(void **state)
{
	struct fixture	*f = *state;
	char		*all;

	assert_int_equal(parse(f, "Revised orders:\n"
	    "\n"
	    "1-legion: hold\n"), 0);
	all = tu_diags(&f->d);
	assert_string_equal(all, "m:1:1: warning: skipped 'Revised orders:': "
	    "not an order line, and no order came before it\n");
	free(all);
	assert_int_equal(crown_diags_errors(&f->d), 0);
	assert_int_equal(f->o->nunits, 1);
	assert_int_equal(parse(f, "1-legion: hold\nThanks, Jean\n"),
	    CROWN_EINVALID);
	assert_diag(&f->d, "m:2:1: error: expected 'UNIT: ACTION; ACTION ...' "
	    "or 'leader ID: ...', not 'Thanks, Jean' (R3.4)");
	assert_int_equal(parse(f, "side: french\n game: Camerone # old\n"
	    "turn:  7\n"), 0);
	assert_string_equal(f->o->game, "Camerone");
	assert_int_equal(f->o->game_line, 2);
	assert_int_equal(f->o->game_col, 8);
	assert_int_equal(f->o->turn_line, 3);
	assert_int_equal(f->o->turn_col, 8);
}

static void
test_text_forms(void **state)
{
	struct fixture	*f = *state;
	static const char nul[] = "u: hold\nv: ho\0ld\nw: hold\n";

	/* comments, blanks, CRLF, a byte-order mark, tabs */
	assert_int_equal(parse(f, "\xef\xbb\xbf# my orders\r\n\r\n"
	    "game: Camerone #1\r\n"
	    "\t1-legion :\tmove 1,2 # forward\r\n"
	    "gun-1: hold;; reload ;\n"), 0);
	assert_no_diags(&f->d);
	/* '#' after a blank is a comment on a game: line too (issue 20) */
	assert_string_equal(f->o->game, "Camerone");
	assert_int_equal(f->o->nunits, 2);
	assert_int_equal(f->o->units[0].line, 4);
	assert_int_equal(f->o->units[0].col, 2);
	assert_int_equal(f->o->units[1].nactions, 2);
	/* columns count characters, not bytes */
	assert_int_equal(parse(f, "game: Cam\xc3\xa9rone\n"
	    "u: hold\xc3\xa9\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:2:4: error: expected an action, as 'move X,Y' "
	    "or 'fire ID', not 'hold\xc3\xa9' (R3.4)");
	assert_int_equal(parse(f, "u: hold \xc3\xa9\xc3\xa9 x\n"),
	    CROWN_EINVALID);
	assert_diag(&f->d, "m:1:9: error: action 'hold' takes no argument");
	/* what is not text */
	crown_diags_release(&f->d);
	crown_orders_free(f->o);
	assert_int_equal(crown_shorthand_parse(&f->o, "m", nul,
	    sizeof(nul) - 1, &f->d), CROWN_EINVALID);
	assert_diag(&f->d, "m:2:6: error: control character 0x00");
	assert_int_equal(f->o->nunits, 2);
	assert_int_equal(parse(f, "u: hold\x1b\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:8: error: control character 0x1b");
	assert_int_equal(parse(f, "game: \xff\xfe\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:1:7: error: text is not UTF-8: the byte 0xFF here");
	assert_int_equal(parse(f, "game: \xc3\n"), CROWN_EINVALID);
	assert_int_equal(parse(f, "game: \xed\xa0\x80\n"), CROWN_EINVALID);
}

static void
test_validated_as_orders_files_are(void **state)
{
	struct fixture	*f = *state;

	assert_int_equal(check(f, "side: republic\n"
	    "2-militia: reload; reload\n"
	    "1-legion: hold\n"
	    "ghost: hold\n"), CROWN_EINVALID);
	assert_diag(&f->d, "m:2:20: error: over budget: '2-militia' has 1 "
	    "action a half-turn (R3.1)");
	assert_diag(&f->d, "m:3:1: error: unit '1-legion' belongs to side "
	    "'french'");
	assert_diag(&f->d, "m:4:1: error: unknown unit 'ghost'");
	/* and the second reload is wasted (issue 20) */
	assert_diag(&f->d, "m:2:20: warning: '2-militia' is already loaded: "
	    "the reload does nothing (R3.6)");
	assert_int_equal(crown_diags_errors(&f->d), 3);
	assert_int_equal(f->d.n, 4);
	assert_int_equal(check(f, "side: french\nturn: 4\n"
	    "1-legion: move 30,20 face 0; fire 2-militia\n"
	    "1-legion: hold\n"), CROWN_EINVALID);
	assert_diag(&f->d, "orders for turn 4, but the next turn is 3 "
	    "(R2.2)");
	assert_diag(&f->d, "m:4:1: error: second entry for unit '1-legion' "
	    "(first at line 3) (R3.3)");
	assert_int_equal(check(f, "side: french\n"
	    "1-legion: move 30,20 face 0; fire 2-militia; reload\n"
	    "gun-1: unlimber\n"
	    "leader danjou: detach; move 31,20\n"), 0);
	assert_no_diags(&f->d);
}

static const char canonical[] =
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: french\n"
    "orders:\n"
    "- unit: 1-legion\n"
    "  actions:\n"
    "  - move: {to: [30.00, 20.50], face: 0, road: true}\n"
    "  - fire: 2-militia\n"
    "  - reload\n"
    "- unit: gun-1\n"
    "  actions:\n"
    "  - manhandle: {path: [[1.00, 2.00], [3.25, -4.00]]}\n"
    "  - fire: building:hacienda\n"
    "  - formation: column\n"
    "- unit: 2-militia\n"
    "  actions:\n"
    "  - charge: 3-cav\n"
    "  - help: gun-1\n"
    "- leader: danjou\n"
    "  move: {to: [31.00, 20.00]}\n"
    "  detach: true\n"
    "- leader: milan\n"
    "  attach: 3-cav\n";

static const char short_form[] =
    "1-legion: move 30,20.5 face 0 road; fire 2-militia; reload\n"
    "gun-1: manhandle 1,2 3.25,-4; fire building:hacienda; "
    "formation column\n"
    "2-militia: charge 3-cav; help gun-1\n"
    "leader danjou: move 31,20; detach\n"
    "leader milan: attach 3-cav\n";

/* Shorthand -> orders file -> orders -> the same file and shorthand. */
static void
test_round_trip(void **state)
{
	struct fixture		*f = *state;
	struct crown_orders	*o2 = NULL;
	struct crown_buf	 y1 = { 0 }, y2 = { 0 }, sh = { 0 };

	assert_int_equal(parse(f, "game: Test Skirmish\nturn: 3\n"
	    "side: french\n" "1-legion: move 30,20.5 face 0 road; fire "
	    "2-militia; reload\n"
	    "gun-1: manhandle 1,2 3.25,-4; fire building:hacienda; formation "
	    "column\n"
	    "2-militia: charge 3-cav; help gun-1\n"
	    "leader danjou: move 31,20; detach\n"
	    "leader milan: attach 3-cav\n"), 0);
	assert_int_equal(crown_shorthand_to_yaml(&y1, f->o), 0);
	assert_string_equal(y1.data, canonical);
	assert_int_equal(crown_orders_parse(&o2, "y", y1.data, y1.len,
	    &f->d), 0);
	assert_no_diags(&f->d);
	assert_int_equal(crown_shorthand_to_yaml(&y2, o2), 0);
	assert_string_equal(y2.data, canonical);
	crown_shorthand_format(&sh, o2);
	assert_string_equal(sh.data, short_form);
	crown_orders_free(o2);
	/* no orders: every unit holds */
	assert_int_equal(parse(f, "game: G\nturn: 1\nside: s\n"), 0);
	y1.len = 0;
	assert_int_equal(crown_shorthand_to_yaml(&y1, f->o), 0);
	assert_string_equal(y1.data, "game: G\nturn: 1\nside: s\n"
	    "orders: []\n");
	assert_int_equal(crown_orders_parse(&o2, "y", y1.data, y1.len,
	    &f->d), 0);
	assert_int_equal(o2->nunits, 0);
	crown_orders_free(o2);
	crown_buf_release(&y1);
	crown_buf_release(&y2);
	crown_buf_release(&sh);
}

static void
test_is_yaml(void **state)
{
	static const char	yaml[] = "game: x\nturn: 3\nside: s\n"
	    "orders:\n  - unit: u\n";

	(void)state;
	assert_true(crown_shorthand_is_yaml(yaml, strlen(yaml)));
	assert_true(crown_shorthand_is_yaml("\xef\xbb\xbforders: []",
	    13));
	assert_false(crown_shorthand_is_yaml("u: hold\n", 8));
	/* a unit called orders-2 is shorthand; "orders:" at the start of a
	 * line that is not the first still counts */
	assert_false(crown_shorthand_is_yaml("orders-2: hold\n", 15));
	assert_false(crown_shorthand_is_yaml("  orders: []\n", 13));
	assert_true(crown_shorthand_is_yaml("side: s\norders: []\n", 19));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_action),
		cmocka_unit_test(test_headers_optional),
		cmocka_unit_test(test_leaders),
		cmocka_unit_test(test_problems_have_places),
		cmocka_unit_test(test_face_edges),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_validated_as_orders_files_are),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_is_yaml),
		cmocka_unit_test(test_prose_and_places),
	};

	return cmocka_run_group_tests_name("shorthand", tests, setup,
	    teardown);
}
