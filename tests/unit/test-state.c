/*
 * test-state.c: loading, writing and copying states; every problem of a
 * bad file reported at once with its place.
 */
#include "testutil.h"

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

/* The state with line inserted after its game's "  turn: 2" line;
 * caller frees. */
static char *
with_game_line(const char *line)
{
	char	*text = tu_slurp("tests/data/state-small.yaml"), *p, *out;

	assert_non_null(text);
	assert_non_null(p = strstr(text, "  turn: 2\n"));
	p += strlen("  turn: 2\n");
	out = xasprintf("%.*s%s%s", (int)(p - text), text, line, p);
	free(text);
	return out;
}

/* game.dice_chain (crown upgrade, doc/formats.md): read, cloned and
 * written back as the line crown upgrade adds; a bad one refused. */
static void
test_dice_chain(void **state)
{
	static const char line[] = "  dice_chain: {from_turn: 3, commitment: "
	    "\"78bcd551c2be110d5bfea2d44c1bc91325e7da3c623dcc28c2371ab0c285"
	    "9593\"}\n";
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL, *c;
	char			*text, *a;

	(void)state;
	text = with_game_line(line);
	assert_int_equal(crown_state_parse(&s, "chain.yaml", text,
	    strlen(text), &d), 0);
	assert_no_diags(&d);
	assert_int_equal(s->dice_chain_from, 3);
	assert_string_equal(s->dice_chain_commitment, "78bcd551c2be110d5bfea2"
	    "d44c1bc91325e7da3c623dcc28c2371ab0c2859593");
	c = crown_state_clone(s);
	a = emit(c);
	assert_non_null(strstr(a, line));
	free(a);
	crown_state_free(c);
	crown_state_free(s);
	free(text);
	s = NULL;
	text = with_game_line("  dice_chain: {from_turn: 0, commitment: "
	    "abc}\n");
	assert_int_equal(crown_state_parse(&s, "bad.yaml", text,
	    strlen(text), &d), CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "bad.yaml:6:27: error: 'from_turn' must be from 1 to "
	    "100000, not 0");
	assert_diag(&d, "bad.yaml:6:42: error: 'commitment' must be 64 "
	    "lower-case hex digits (a SHA-256)");
	crown_diags_release(&d);
	free(text);
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

/*
 * game.absence, max_absence, missed_orders and a player's away_until:
 * read, written back the same, copied; a bad value of each is refused
 * with its place.
 */
static const char absent_state[] =
    "game:\n"
    "  name: Away\n"
    "  turn: 0\n"
    "  attacker: a\n"
    "  absence: %s\n"
    "  max_absence: %s\n"
    "  missed_orders: {limit: %s}\n"
    "table: {width: 72, height: 48}\n"
    "sides:\n"
    "  - id: a\n"
    "    name: A\n"
    "    home_edge: south\n"
    "    players: [{name: P, email: p@example.org, away_until: \"%s\"}]\n"
    "  - {id: b, name: B, home_edge: north}\n"
    "units: []\n";

static void
test_absence_fields(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL, *c;
	char			*text, *a, *b;

	(void)state;
	text = xasprintf(absent_state, "hold", "10d", "3",
	    "2026-03-12T00:00:00Z");
	assert_int_equal(crown_state_parse(&s, "a.yaml", text, strlen(text),
	    &d), 0);
	assert_no_diags(&d);
	assert_int_equal(s->absence, CROWN_ABSENCE_HOLD);
	assert_string_equal(s->max_absence, "10d");
	assert_int_equal(s->missed_limit, 3);
	assert_string_equal(s->sides[0].players[0].away_until,
	    "2026-03-12T00:00:00Z");
	a = emit(s);
	assert_non_null(strstr(a, "  absence: hold\n  max_absence: \"10d\"\n"
	    "  missed_orders: {limit: 3}\n"));
	assert_non_null(strstr(a, "away_until: \"2026-03-12T00:00:00Z\""));
	c = crown_state_clone(s);
	b = emit(c);
	assert_string_equal(a, b);
	free(a);
	free(b);
	crown_state_free(c);
	crown_state_free(s);
	free(text);

	s = NULL;
	text = xasprintf(absent_state, "sometimes", "soon", "0", "friday");
	assert_int_equal(crown_state_parse(&s, "b.yaml", text, strlen(text),
	    &d), CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "b.yaml:5:12: error: unknown absence 'sometimes'");
	assert_diag(&d, "b.yaml:6:16: error: 'max_absence' must be a "
	    "duration");
	assert_diag(&d, "b.yaml:7:26: error: 'limit' must be from 1 to "
	    "100000, not 0");
	assert_diag(&d, "b.yaml:13:59: error: 'away_until' must be a UTC "
	    "time");
	crown_diags_release(&d);
	free(text);
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

/* tests/data/state-small.yaml with its first from replaced by to,
 * parsed as s.yaml; CROWN_EINVALID wanted, d keeps the problems. */
static void
refused_edit(struct crown_diags *d, const char *from, const char *to)
{
	struct crown_buf	 b = { 0 };
	struct crown_state	*s = NULL;
	char			*text, *at;

	text = tu_slurp("tests/data/state-small.yaml");
	assert_non_null(text);
	at = strstr(text, from);
	assert_non_null(at);
	crown_buf_add(&b, text, (size_t)(at - text));
	crown_buf_puts(&b, to);
	crown_buf_puts(&b, at + strlen(from));
	free(text);
	assert_int_equal(crown_state_parse(&s, "s.yaml", b.data, b.len, d),
	    CROWN_EINVALID);
	assert_null(s);
	crown_buf_release(&b);
}

/*
 * A name is one line of plain text: a newline would make a commit
 * subject of two lines, a bidi control (U+202E) would show a report or
 * a terminal other text than the file holds.  Every name is checked
 * alike: the game's, a side's, a unit's, a leader's, a terrain
 * feature's, a player's and the umpire's.
 */
static void
test_names_plain(void **state)
{
	struct crown_diags	 d = { 0 };

	refused_edit(&d, "name: Test Skirmish", "name: \"Test\\nSkirmish\"");
	assert_diag(&d, "s.yaml:3:9: error: 'name' holds U+000A, a control "
	    "character: a name is one line of plain text\n");
	crown_diags_release(&d);
	refused_edit(&d, "name: Foreign Legion",
	    "name: \"Foreign \\u202ELegion\"");
	assert_diag(&d, "s.yaml:12:11: error: 'name' holds U+202E, a "
	    "bidirectional control: a name is one line of plain text");
	crown_diags_release(&d);
	/* raw in the file, and the isolates and marks as well */
	refused_edit(&d, "Militia of Veracruz", "Militia \xe2\x81\xa6of");
	assert_diag(&d, "s.yaml:47:11: error: 'name' holds U+2066");
	crown_diags_release(&d);
	refused_edit(&d, "rank: general,", "name: \"Mil\xe2\x80\x8f" "an\", "
	    "rank: general,");
	assert_diag(&d, "'name' holds U+200F, a bidirectional control");
	crown_diags_release(&d);
	refused_edit(&d, "{id: hill-1,", "{id: hill-1, name: \"a\\tb\",");
	assert_diag(&d, "'name' holds U+0009, a control character");
	crown_diags_release(&d);
	refused_edit(&d, "\"Jean Danjou\"", "\"Jean \\u061CDanjou\"");
	assert_diag(&d, "s.yaml:14:22: error: 'name' holds U+061C");
	crown_diags_release(&d);
	refused_edit(&d, "\"Test Umpire\"", "\"Test \\u202AUmpire\"");
	assert_diag(&d, "'name' holds U+202A, a bidirectional control");
	crown_diags_release(&d);
	/* elsewhere such characters are quoted escaped, never raw */
	refused_edit(&d, "  rules: maximilian", "  col\xe2\x80\xaeour: 1\n"
	    "  rules: maximilian");
	assert_diag(&d, "s.yaml:4:3: error: unknown key 'col\\u202Eour'\n");
	crown_diags_release(&d);
	/* a letter of any script, a dash, is a name's */
	{
		struct crown_state	*s = NULL;
		struct crown_buf	 b = { 0 };
		char			*text = tu_slurp(
		    "tests/data/state-small.yaml"), *at;

		at = strstr(text, "Test Skirmish");
		crown_buf_add(&b, text, (size_t)(at - text));
		crown_buf_puts(&b, "\xd8\xa7\xd9\x84\xd8\xb9\xd9\x84"
		    "\xd9\x85 \xe2\x80\x94 Camerone");
		crown_buf_puts(&b, at + strlen("Test Skirmish"));
		free(text);
		assert_int_equal(crown_state_parse(&s, "s.yaml", b.data,
		    b.len, &d), 0);
		assert_no_diags(&d);
		assert_non_null(strstr(s->name, "Camerone"));
		crown_state_free(s);
		crown_buf_release(&b);
	}
}

/* state-small.yaml with its umpire line and Jean Danjou's player line
 * replaced (NULL: as they are); caller frees. */
static char *
small_with(const char *umpire, const char *player)
{
	char	*text = tu_slurp("tests/data/state-small.yaml"), *out, *p;
	char	*q;
	const char *u = "  umpire: {name: \"Test Umpire\", email: "
		    "\"umpire@example.org\"}\n";
	const char *j = "    players: [{name: \"Jean Danjou\", email: "
		    "\"danjou@example.org\"}]\n";

	assert_non_null(text);
	assert_non_null(p = strstr(text, u));
	assert_non_null(q = strstr(text, j));
	out = xasprintf("%.*s%s%.*s%s%s", (int)(p - text), text,
	    umpire != NULL ? umpire : u, (int)(q - p - strlen(u)),
	    p + strlen(u), player != NULL ? player : j, q + strlen(j));
	free(text);
	return out;
}

/* game.umpire.openpgp: the umpire's key, kept through emit and clone;
 * 40 upper-case hex digits, and the umpire's alone. */
static void
test_umpire_openpgp(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL, *c;
	char			*text, *a, *b;

	(void)state;
	text = small_with("  umpire: {name: U, email: u@example.org, "
	    "openpgp: \"0123456789ABCDEF0123456789ABCDEF01234567\"}\n", NULL);
	assert_int_equal(crown_state_parse(&s, "s.yaml", text, strlen(text),
	    &d), 0);
	assert_no_diags(&d);
	assert_string_equal(s->umpire.openpgp,
	    "0123456789ABCDEF0123456789ABCDEF01234567");
	a = emit(s);
	assert_non_null(strstr(a, "  umpire: {name: U, email: u@example.org, "
	    "openpgp: \"0123456789ABCDEF0123456789ABCDEF01234567\"}\n"));
	c = crown_state_clone(s);
	b = emit(c);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(text);
	crown_state_free(c);
	crown_state_free(s);
	s = NULL;
	text = small_with("  umpire: {openpgp: \"0123456789abcdef0123456789"
	    "abcdef01234567\"}\n", "    players: [{name: J, email: "
	    "j@example.org, openpgp: \"0123456789ABCDEF0123456789ABCDEF0123"
	    "4567\"}]\n");
	assert_int_equal(crown_state_parse(&s, "bad.yaml", text, strlen(text),
	    &d), CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "bad.yaml:8:21: error: 'openpgp' must be the 40 "
	    "upper-case hex digits of the umpire's OpenPGP fingerprint");
	assert_diag(&d, "bad.yaml:14:47: error: unknown key 'openpgp'");
	assert_int_equal(d.n, 2);
	crown_diags_release(&d);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_fixture),
		cmocka_unit_test(test_round_trip_is_byte_identical),
		cmocka_unit_test(test_dice_chain),
		cmocka_unit_test(test_positions_round_to_hundredths),
		cmocka_unit_test(test_every_problem_at_once),
		cmocka_unit_test(test_absence_fields),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_scenario_defaults),
		cmocka_unit_test(test_unit_lookup),
		cmocka_unit_test(test_names_plain),
		cmocka_unit_test(test_umpire_openpgp),
	};

	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
