/*
 * test-limits.c: hostile input (issue 11).  Orders come from strangers
 * by email: every one of these must be refused quickly with a clear
 * message, never crash, hang or eat memory.  The limits themselves are
 * in doc/limits.md ("Sizes").
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/shorthand.h"
#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define MIB		(1024 * 1024)
#define ORDERS_HEAD	"game: Test Skirmish\nturn: 3\nside: french\n"

static struct crown_state *small;
static struct crown_rules *rules;

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
setup(void **state)
{
	struct crown_diags	d = { 0 };

	if (crown_state_load(&small, "tests/data/state-small.yaml", &d) != 0 ||
	    crown_rules_load(&rules, "rules/maximilian.yaml", &d) != 0) {
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	crown_state_free(small);
	crown_rules_free(rules);
	return 0;
}

/* Parse text as an orders file; the error, with the problems in d. */
static int
orders_text(const char *text, size_t len, struct crown_diags *d)
{
	struct crown_orders	*o = NULL;
	int			 error;

	error = crown_orders_parse(&o, "o.yaml", text, len, d);
	crown_orders_free(o);
	return error;
}

/* As above, also validated against the small state, as `crown check`. */
static int
orders_check(const char *text, struct crown_diags *d)
{
	struct crown_orders	*o = NULL;
	int			 error;

	error = crown_orders_parse(&o, "o.yaml", text, strlen(text), d);
	if (o != NULL && crown_orders_validate(o, small, rules, d) != 0)
		error = CROWN_EINVALID;
	crown_orders_free(o);
	return error;
}

static void
expect_refused(const char *text, size_t len, const char *want)
{
	struct crown_diags	d = { 0 };

	assert_int_equal(orders_text(text, len, &d), CROWN_EINVALID);
	assert_diag(&d, want);
	crown_diags_release(&d);
}

#define REFUSED(text, want) expect_refused(text, sizeof(text) - 1, want)

/* "Billion laughs": nine levels of ten aliases would be 10^9 nodes.  The
 * first anchor is refused; no alias is ever expanded. */
static void
test_alias_bomb(void **state)
{
	struct crown_buf	 b = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_rules	*r = NULL;
	double			 t;
	int			 i, j;

	crown_buf_puts(&b, ORDERS_HEAD "lol0: &a0 [lol]\n");
	for (i = 1; i < 10; i++) {
		crown_buf_printf(&b, "lol%d: &a%d [", i, i);
		for (j = 0; j < 10; j++)
			crown_buf_printf(&b, "%s*a%d", j ? ", " : "", i - 1);
		crown_buf_puts(&b, "]\n");
	}
	crown_buf_puts(&b, "orders: *a9\n");
	t = now();
	assert_int_equal(orders_text(b.data, b.len, &d), CROWN_EINVALID);
	assert_true(now() - t < 1.0);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "o.yaml:4:7: error: YAML anchors are not allowed");
	crown_diags_release(&d);
	crown_buf_release(&b);

	/* an alias alone, and a merge key, are refused too */
	REFUSED(ORDERS_HEAD "orders: *x\n", "o.yaml:4:9: error: YAML aliases "
	    "are not allowed");
	REFUSED(ORDERS_HEAD "orders: []\nx: {<<: *x}\n", "YAML aliases are "
	    "not allowed");
	/* in a state or rules file as well */
	assert_int_equal(crown_state_parse(&s, "s.yaml", "a: &x 1\n", 8, &d),
	    CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "s.yaml:1:4: error: YAML anchors are not allowed");
	crown_diags_release(&d);
	assert_int_equal(crown_rules_parse(&r, "r.yaml", "id: x\nR1.1: *x\n",
	    15, &d), CROWN_EINVALID);
	assert_null(r);
	assert_diag(&d, "r.yaml:2:7: error: YAML aliases are not allowed");
	crown_diags_release(&d);
}

/* Orders files: 1 MiB passes, 1 MiB + 1 byte is refused, from memory and
 * from a file (which is not read past the limit). */
static void
test_orders_size(void **state)
{
	static const char	 body[] = ORDERS_HEAD "orders:\n"
	    "  - {unit: 1-legion, actions: [hold]}\n";
	struct crown_diags	 d = { 0 };
	struct crown_orders	*o = NULL;
	char			*buf, path[] = "/tmp/crown-limits-XXXXXX";
	size_t			 n = MIB + 1;
	int			 fd;

	buf = xmalloc(n);
	memcpy(buf, body, sizeof(body) - 1);
	/* one long comment fills the rest */
	buf[sizeof(body) - 1] = '#';
	memset(buf + sizeof(body), 'x', n - sizeof(body) - 1);
	buf[n - 2] = '\n';
	buf[n - 1] = '\n';
	assert_int_equal(orders_text(buf, MIB, &d), 0);
	assert_no_diags(&d);
	assert_int_equal(orders_text(buf, MIB + 1, &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "o.yaml:7:1: error: file is 1048577 bytes, over the "
	    "limit of 1048576");
	crown_diags_release(&d);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, MIB), MIB);
	assert_int_equal(crown_orders_load(&o, path, &d), 0);
	assert_int_equal(o->nunits, 1);
	crown_orders_free(o);
	assert_int_equal(write(fd, "\n", 1), 1);
	close(fd);
	assert_int_equal(crown_orders_load(&o, path, &d), CROWN_EINVALID);
	assert_null(o);
	assert_diag(&d, "error: file is over the limit of 1048576 bytes");
	crown_diags_release(&d);
	/* a device that never ends stops at the limit */
	assert_int_equal(crown_orders_load(&o, "/dev/zero", &d),
	    CROWN_EINVALID);
	assert_diag(&d, "/dev/zero:1:1048577: error: file is over the limit "
	    "of 1048576 bytes");
	crown_diags_release(&d);
	unlink(path);
	free(buf);
}

/* The byte limits can be changed for a run; the text is checked. */
static void
test_limit_setters(void **state)
{
	size_t	v = 7, save = crown_ylimits_orders.max_bytes;

	assert_int_equal(crown_limits_parse_bytes(&v, "1"), 0);
	assert_int_equal(v, 1);
	assert_int_equal(crown_limits_parse_bytes(&v, "512k"), 0);
	assert_int_equal(v, 512 * 1024);
	assert_int_equal(crown_limits_parse_bytes(&v, "2M"), 0);
	assert_int_equal(v, 2 * MIB);
	assert_int_equal(crown_limits_parse_bytes(&v, "1024M"), 0);
	assert_int_equal(v, 1024 * MIB);
	assert_int_equal(crown_limits_parse_bytes(&v, "1073741824"), 0);
	assert_int_equal(v, 1024 * MIB);
	v = 7;
	assert_int_equal(crown_limits_parse_bytes(&v, "1073741825"),
	    CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "1025M"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "0"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "0k"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "-1"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "+1"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, " 1"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, ""), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "1G"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "1kk"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, "12x"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v,
	    "99999999999999999999999"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v,
	    "18014398509481984k"), CROWN_EUSAGE);
	assert_int_equal(crown_limits_parse_bytes(&v, NULL), CROWN_EUSAGE);
	assert_int_equal(v, 7);

	assert_int_equal(crown_limits_set_orders_bytes("64"), 0);
	assert_int_equal(crown_ylimits_orders.max_bytes, 64);
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [hold]}\n",
	    "file is 87 bytes, over the limit of 64");
	assert_int_equal(crown_limits_set_orders_bytes("x"), CROWN_EUSAGE);
	assert_int_equal(crown_ylimits_orders.max_bytes, 64);
	crown_ylimits_orders.max_bytes = save;
	save = crown_ylimits_state.max_bytes;
	assert_int_equal(crown_limits_set_state_bytes("3k"), 0);
	assert_int_equal(crown_ylimits_state.max_bytes, 3072);
	crown_ylimits_state.max_bytes = save;
	assert_int_equal(crown_ylimits_state.max_bytes, 64 * MIB);
}

/* Nesting: 16 levels in orders, 17 refused; a megabyte of '[' is refused
 * at the 17th, not parsed to the end. */
static void
test_nesting(void **state)
{
	struct crown_buf	 b = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc = NULL;
	double			 t;
	int			 i;

	/* the root map is level 1; "orders:" holds 15 more */
	crown_buf_puts(&b, ORDERS_HEAD "orders: ");
	for (i = 0; i < 15; i++)
		crown_buf_puts(&b, "[");
	for (i = 0; i < 15; i++)
		crown_buf_puts(&b, "]");
	crown_buf_puts(&b, "\n");
	assert_int_equal(orders_text(b.data, b.len, &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "o.yaml:4:10: error: 'order' must be a map, not a "
	    "list");
	crown_diags_release(&d);
	crown_buf_release(&b);

	crown_buf_puts(&b, ORDERS_HEAD "orders: ");
	for (i = 0; i < 16; i++)
		crown_buf_puts(&b, "[");
	for (i = 0; i < 16; i++)
		crown_buf_puts(&b, "]");
	crown_buf_puts(&b, "\n");
	assert_int_equal(orders_text(b.data, b.len, &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "o.yaml:4:24: error: nesting deeper than 16 levels");
	crown_diags_release(&d);
	crown_buf_release(&b);

	/* states and rules: 32 levels */
	for (i = 0; i < 32; i++)
		crown_buf_puts(&b, "[");
	for (i = 0; i < 32; i++)
		crown_buf_puts(&b, "]");
	assert_int_equal(crown_ydoc_parse(&doc, "s.yaml", b.data, b.len,
	    &crown_ylimits_state, &d), 0);
	crown_ydoc_free(doc);
	crown_buf_release(&b);
	for (i = 0; i < 33; i++)
		crown_buf_puts(&b, "- ");
	crown_buf_puts(&b, "x\n");
	assert_int_equal(crown_ydoc_parse(&doc, "s.yaml", b.data, b.len,
	    &crown_ylimits_state, &d), CROWN_EINVALID);
	assert_diag(&d, "s.yaml:1:65: error: nesting deeper than 32 levels");
	crown_diags_release(&d);
	crown_buf_release(&b);

	/* a megabyte of brackets and one of block sequences */
	for (i = 0; i < MIB - 1; i++)
		crown_buf_add(&b, "[", 1);
	t = now();
	assert_int_equal(orders_text(b.data, b.len, &d), CROWN_EINVALID);
	assert_diag(&d, "o.yaml:1:17: error: nesting deeper than 16 levels");
	crown_diags_release(&d);
	b.len = 0;
	for (i = 0; i < MIB / 2 - 1; i++)
		crown_buf_add(&b, "- ", 2);
	assert_int_equal(orders_text(b.data, b.len, &d), CROWN_EINVALID);
	assert_diag(&d, "o.yaml:1:33: error: nesting deeper than 16 levels");
	assert_true(now() - t < 2.0);
	crown_diags_release(&d);
	crown_buf_release(&b);
}

static void
test_duplicate_keys(void **state)
{
	REFUSED(ORDERS_HEAD "turn: 4\norders: []\n", "o.yaml:4:1: error: "
	    "duplicate key 'turn' (first at line 2)");
	/* a third names the first, not the second */
	REFUSED(ORDERS_HEAD "turn: 4\nturn: 5\norders: []\n", "o.yaml:5:1: "
	    "error: duplicate key 'turn' (first at line 2)");
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [hold], "
	    "unit: gun-1}\n", "o.yaml:5:39: error: duplicate key 'unit' "
	    "(first at line 5)");
	/* the same key quoted differently is the same key */
	REFUSED(ORDERS_HEAD "\"side\": french\norders: []\n", "duplicate key "
	    "'side'");
	/* keys must be strings: a map or a list as a key is refused */
	REFUSED(ORDERS_HEAD "orders: []\n? [a, b]\n: c\n", "map keys must be "
	    "plain strings");
}

/* Text must be UTF-8 without NUL or control characters, in the file and
 * in what escapes make. */
static void
test_encoding(void **state)
{
	/* bytes that are not UTF-8: Latin-1, a lone continuation, an
	 * overlong '/', a UTF-16 surrogate, a sequence cut short, past
	 * U+10FFFF */
	REFUSED(ORDERS_HEAD "orders: []\nx: caf\xe9\n", "o.yaml:5:7: error: "
	    "text is not UTF-8: the byte 0xE9 here is no UTF-8 character "
	    "(Latin-1 or Windows-1252 text?): save the file as UTF-8");
	/* the place is the sequence's first byte, not where libyaml saw
	 * it end */
	REFUSED(ORDERS_HEAD "orders: []\nx: caf\xe9s\n", "o.yaml:5:7: error: "
	    "text is not UTF-8: the byte 0xE9 here");
	REFUSED(ORDERS_HEAD "orders: []\nx: \x80\n", "o.yaml:5:4: error: "
	    "text is not UTF-8: the byte 0x80 here");
	REFUSED(ORDERS_HEAD "orders: []\nx: \xc0\xaf\n", "o.yaml:5:4: error: "
	    "text is not UTF-8: the byte 0xC0 here");
	REFUSED(ORDERS_HEAD "orders: []\nx: \xed\xa0\x80\n", "o.yaml:5:4: "
	    "error: text is not UTF-8: the byte 0xED here");
	REFUSED(ORDERS_HEAD "orders: []\nx: \xe2\x82", "o.yaml:5:4: error: "
	    "text is not UTF-8: the byte 0xE2 here");
	REFUSED(ORDERS_HEAD "orders: []\nx: \xf4\x90\x80\x80\n",
	    "o.yaml:5:4: error: text is not UTF-8: the byte 0xF4 here");
	/* after text that is, the column counts characters */
	REFUSED(ORDERS_HEAD "orders: []\nx: \xc3\xa9\xc3\xa9\xff\n",
	    "o.yaml:5:6: error: text is not UTF-8");
	/* NUL: a byte of the file, or an escape in a quoted string */
	REFUSED(ORDERS_HEAD "orders: []\nx: a\0b\n", "o.yaml:5:5: error: NUL "
	    "byte in a text file");
	REFUSED(ORDERS_HEAD "orders: []\nx: \"a\\0b\"\n", "o.yaml:5:4: error: "
	    "NUL character in a string");
	/* control characters: raw ones are libyaml's to refuse, escaped
	 * ones (terminal escapes in a message) ours */
	REFUSED(ORDERS_HEAD "orders: []\nx: \x1b[2J\n", "o.yaml:5:4: error: "
	    "control character U+001B: control characters are not allowed");
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: \"\\e[2J\", actions: []}\n",
	    "o.yaml:5:12: error: control character U+001B in a string");
	REFUSED(ORDERS_HEAD "orders: []\nx: \"\\x9b31m\"\n", "control "
	    "character U+009B in a string");
	REFUSED(ORDERS_HEAD "orders: []\nx: \"a\\rb\"\n", "control character "
	    "U+000D in a string");
	REFUSED(ORDERS_HEAD "orders: []\nx: \"\\u007f\"\n", "control "
	    "character U+007F in a string");
	REFUSED(ORDERS_HEAD "orders: []\n\"\\b\": 1\n", "control character "
	    "U+0008 in a string");
	/* tab, newline and the rest of Unicode are text, quoted escaped */
	{
		struct crown_diags	d = { 0 };

		assert_int_equal(orders_check("game: \"Test\\tSkirmish\"\n"
		    "turn: 3\nside: french\norders: []\n", &d),
		    CROWN_EINVALID);
		assert_diag(&d, "orders for game 'Test\\u0009Skirmish'");
		crown_diags_release(&d);
		assert_int_equal(orders_text("game: \"M\xc3\xa9xico\\n"
		    "\\u00a0\\u2028\"\nturn: 3\nside: french\norders: []\n",
		    strlen("game: \"M\xc3\xa9xico\\n\\u00a0\\u2028\"\n"
		    "turn: 3\nside: french\norders: []\n"), &d), 0);
		assert_no_diags(&d);
	}
}

/* Numbers: no overflow, no hex, no inf or nan, each refused by name. */
static void
test_numbers(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	static const char *const bad_ints[] = {
		"99999999999999999999", "-99999999999999999999",
		"9223372036854775808", "4294967299", "0x10", "1e3", "3.0",
		"1_000", ".inf", "nan", "\"3\"", "three", NULL
	};
	static const char *const bad_floats[] = {
		"1e999", "-1e999", "nan", ".nan", "NaN", "inf",
		".inf", "-.inf", "Infinity", "0x1p3", "0x10", "1_0",
		"'5'", "5.5.5", "e5", "--5", NULL
	};
	struct crown_buf	 b = { 0 };
	const char *const	*p;
	char			*text, *at;

	for (p = bad_ints; *p != NULL; p++) {
		crown_buf_printf(&b, "game: Test Skirmish\nturn: %s\n"
		    "side: french\norders: []\n", *p);
		assert_int_equal(orders_text(b.data, b.len, &d),
		    CROWN_EINVALID);
		assert_diag(&d, "o.yaml:2:7: error: 'turn' must be");
		crown_diags_release(&d);
		crown_buf_release(&b);
	}
	/* a comment is not part of the number */
	assert_int_equal(orders_text("game: g\nturn: 3 # ok\nside: french\n"
	    "orders: []\n", 45, &d), 0);
	assert_no_diags(&d);
	REFUSED("game: g\nturn: 99999999999999999999\nside: french\n"
	    "orders: []\n", "o.yaml:2:7: error: 'turn' must be from 1 to "
	    "100000, not 99999999999999999999 (R2.2)");
	REFUSED("game: g\nturn: 1e3\nside: french\norders: []\n",
	    "'turn' must be a whole number, not '1e3' (R2.2)");

	for (p = bad_floats; *p != NULL; p++) {
		crown_buf_printf(&b, ORDERS_HEAD "orders:\n"
		    "  - unit: 1-legion\n"
		    "    actions: [{move: {to: [%s, 5]}}]\n", *p);
		assert_int_equal(orders_text(b.data, b.len, &d),
		    CROWN_EINVALID);
		assert_diag(&d, "o.yaml:6:28: error: 'x' must be");
		crown_diags_release(&d);
		crown_buf_release(&b);
	}
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [1e999, 5]}}]}\n", "'x' must be from -100000 to 100000, not "
	    "1e999 (R4.2)");
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [.nan, 5]}}]}\n", "'x' must be a number, not '.nan' (R4.2)");
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [0x1p3, 5]}}]}\n", "'x' must be a number, not '0x1p3'");
	REFUSED(ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [5, 5], face: 4294967386}}]}\n", "'face' must be from 0 to "
	    "359, not 4294967386");

	/* in a state: figures that would overflow an int */
	text = tu_slurp("tests/data/state-small.yaml");
	assert_non_null(text);
	at = strstr(text, "stands: [4, 4, 4]");
	assert_non_null(at);
	crown_buf_add(&b, text, (size_t)(at - text));
	crown_buf_puts(&b, "stands: [4294967300, 4]");
	crown_buf_puts(&b, at + 17);
	free(text);
	assert_int_equal(crown_state_parse(&s, "s.yaml", b.data, b.len, &d),
	    CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "s.yaml:31:14: error: 'stands' must be from 1 to "
	    "1000, not 4294967300 (R1.3)");
	crown_diags_release(&d);
	crown_buf_release(&b);
	/* dice scripts: values past an int */
	{
		struct crown_dice *dice = NULL;

		assert_int_equal(crown_dice_script_parse(&dice, "dice.txt",
		    "1, 99999999999999999999, -2147483649, 0x3, 1e1\n", 47,
		    &d), CROWN_EINVALID);
		assert_null(dice);
		assert_int_equal(d.n, 4);
		assert_diag(&d, "dice.txt:1:4: error: dice script value "
		    "'99999999999999999999' is too large");
		assert_diag(&d, "dice.txt:1:26: error: dice script value "
		    "'-2147483649' is too large");
		assert_diag(&d, "dice.txt:1:39: error: dice script value "
		    "'0x3' is not an integer");
		crown_diags_release(&d);
	}
}

/*
 * What the refusals of hostile input say (issue 17): a number too small
 * for a double is still a number in range; an encoded surrogate is named
 * as the character it is; a file over a size limit is refused at the
 * place where it crossed the limit; YAML tags are refused where written.
 */
static void
test_input_messages(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_ylimits	 lim = crown_ylimits_orders;
	struct crown_ydoc	*doc = NULL;
	char			 path[] = "/tmp/crown-limit-XXXXXX";
	const char		*text;
	char			*buf;
	size_t			 len;
	int			 fd;

	/* below DBL_MIN, strtod says ERANGE: the value is still in range */
	text = ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [-1e-320, 1e-999]}}]}\n";
	assert_int_equal(orders_text(text, strlen(text), &d), 0);
	assert_no_diags(&d);
	text = ORDERS_HEAD "orders:\n  - {unit: 1-legion, actions: [{move: "
	    "{to: [-1e-320, 1e999]}}]}\n";
	assert_int_equal(orders_text(text, strlen(text), &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "'y' must be from -100000 to 100000, not 1e999");
	crown_diags_release(&d);

	/* U+D800 encoded in UTF-8, and past U+10FFFF: the byte that
	 * begins it, not "byte 0x00" */
	REFUSED(ORDERS_HEAD "orders: []\nx: \xed\xa0\x80\n", "o.yaml:5:4: "
	    "error: text is not UTF-8: the byte 0xED here is no UTF-8 "
	    "character");
	REFUSED(ORDERS_HEAD "orders: []\nx: \xf4\x90\x80\x80\n",
	    "o.yaml:5:4: error: text is not UTF-8: the byte 0xF4 here is no "
	    "UTF-8 character");

	/* over the limit: the place of the first byte past it */
	lim.max_bytes = 7;
	assert_int_equal(crown_ydoc_parse(&doc, "f.yaml", "a: 1\nbb: 2\n", 11,
	    &lim, &d), CROWN_EINVALID);
	assert_null(doc);
	assert_diag(&d, "f.yaml:2:3: error: file is 11 bytes, over the limit "
	    "of 7");
	crown_diags_release(&d);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "a: 1\nbb: 2\n", 11), 11);
	close(fd);
	assert_int_equal(crown_read_file(&buf, &len, path, 7, &d),
	    CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_true(strncmp(d.v[0].file, path, strlen(path)) == 0);
	assert_int_equal(d.v[0].line, 2);
	assert_int_equal(d.v[0].col, 3);
	assert_diag(&d, ":2:3: error: file is over the limit of 7 bytes");
	crown_diags_release(&d);
	unlink(path);
	{
		struct crown_orders	*o = NULL;
		size_t			 save = crown_ylimits_orders.max_bytes;

		crown_ylimits_orders.max_bytes = 10;
		assert_int_equal(crown_shorthand_parse(&o, "m",
		    "game: g\nturn: 3\n", 16, &d), CROWN_EINVALID);
		crown_ylimits_orders.max_bytes = save;
		assert_diag(&d, "m:2:3: error: orders of 16 bytes are over the "
		    "limit of 10");
		crown_orders_free(o);
		crown_diags_release(&d);
	}

	/* tags: refused with their place, whatever they say */
	REFUSED(ORDERS_HEAD "orders: []\nx: !!str 5\n", "o.yaml:5:4: error: "
	    "YAML tags are not allowed ('tag:yaml.org,2002:str')");
	REFUSED(ORDERS_HEAD "orders: !evil []\n", "o.yaml:4:9: error: YAML "
	    "tags are not allowed ('!evil')");
	REFUSED(ORDERS_HEAD "orders:\n  - !!map {unit: 1-legion}\n",
	    "o.yaml:5:5: error: YAML tags are not allowed");
	/* a tag's %XX are decoded: terminal escapes are never echoed */
	text = ORDERS_HEAD "orders: !x%1Bc%07%C2%9B []\n";
	assert_int_equal(orders_text(text, strlen(text), &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].msg, "YAML tags are not allowed");
	crown_diags_release(&d);
}

/* Ids can never become paths (nor anything but a name). */
static void
test_ids(void **state)
{
	static const char *const bad[] = {
		"../../etc/passwd", "a/b", "/", ".", "..", ".hidden", "a\\\\b",
		"CON", "Legion", "a b", "a:b", "a.yaml", "-a", "_a", "",
		"caf\xc3\xa9", "a\\tb", "a\\nb",
		"123456789012345678901234567890123",
		NULL
	};
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	const char *const	*p;

	for (p = bad; *p != NULL; p++) {
		crown_buf_printf(&b, ORDERS_HEAD "orders:\n  - unit: \"%s\"\n"
		    "    actions: [hold]\n", *p);
		assert_int_equal(orders_text(b.data, b.len, &d),
		    CROWN_EINVALID);
		assert_diag(&d, "o.yaml:5:11: error: 'unit' is not a valid "
		    "id");
		crown_diags_release(&d);
		crown_buf_release(&b);
		crown_buf_printf(&b, ORDERS_HEAD "orders:\n"
		    "  - unit: 1-legion\n"
		    "    actions: [{fire: \"building:%s\"}]\n", *p);
		assert_int_equal(orders_text(b.data, b.len, &d),
		    CROWN_EINVALID);
		assert_diag(&d, "is not a valid building id");
		crown_diags_release(&d);
		crown_buf_release(&b);
		crown_buf_printf(&b, "game: Test Skirmish\nturn: 3\n"
		    "side: \"%s\"\norders: []\n", *p);
		assert_int_equal(orders_text(b.data, b.len, &d),
		    CROWN_EINVALID);
		assert_diag(&d, "o.yaml:3:7: error: 'side' is not a valid id");
		crown_diags_release(&d);
		crown_buf_release(&b);
	}
	/* 32 characters is an id (of no unit here) */
	assert_int_equal(orders_check(ORDERS_HEAD "orders:\n  - unit: "
	    "a2345678901234567890123456789012\n    actions: [hold]\n", &d),
	    CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "unknown unit 'a2345678901234567890123456789012'");
	crown_diags_release(&d);
	/* a state refuses them too */
	assert_false(crown_id_valid("../x"));
	assert_false(crown_id_valid("a\xc0\xae"));
}

/*
 * The table's size is bounded by what the map and the engine's grids
 * hold in a few tens of MiB: a table of 100,000 inches a side drew a map
 * of 33,000 grid lines from four units.  1,000 inches is the largest.
 */
static void
test_table_size(void **state)
{
#define TABLE_STATE(w, h) "game: {name: T, turn: 0, attacker: a}\n" \
	"table: {width: " w ", height: " h "}\n" \
	"sides: [{id: a, home_edge: south}, {id: b, home_edge: north}]\n" \
	"units: []\n"
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	char			*text;

	text = xstrdup(TABLE_STATE("1000", "1000"));
	(void)crown_state_parse(&s, "t.yaml", text, strlen(text), &d);
	assert_no_diags(&d);
	assert_non_null(s);
	crown_state_free(s);
	s = NULL;
	free(text);
	text = xstrdup(TABLE_STATE("1000.01", "100000"));
	assert_int_equal(crown_state_parse(&s, "t.yaml", text, strlen(text),
	    &d), CROWN_EINVALID);
	assert_null(s);
	assert_diag(&d, "t.yaml:2:16: error: 'width' must be from 1 to 1000, "
	    "not 1000.01 (R1.2)");
	assert_diag(&d, "t.yaml:2:33: error: 'height' must be from 1 to "
	    "1000, not 100000 (R1.2)");
	crown_diags_release(&d);
	free(text);
#undef TABLE_STATE
}

/* A big legitimate state: 100,000 units is within the limits and loads in
 * seconds; so is a megabyte of orders entries for the checks. */
static void
test_big_inputs(void **state)
{
	struct crown_buf	 b = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	double			 t;
	int			 i, n = 100000;

	crown_buf_puts(&b, "game: {name: Big, turn: 0, attacker: a}\n"
	    "table: {width: 1000, height: 1000}\n"
	    "sides: [{id: a, home_edge: south}, {id: b, home_edge: north}]\n"
	    "units:\n");
	for (i = 0; i < n; i++)
		crown_buf_printf(&b, "- {id: u%d, side: %s, type: infantry, "
		    "class: regular, weapon: rifle, stands: [4, 4, 4], x: %d, "
		    "y: %d, facing: 0}\n", i, i % 2 ? "b" : "a", i % 1000,
		    i / 100);
	assert_true(b.len < 64 * MIB);
	t = now();
	assert_int_equal(crown_state_parse(&s, "big.yaml", b.data, b.len, &d),
	    0);
	assert_no_diags(&d);
	assert_int_equal(s->nunits, n);
	assert_non_null(crown_state_unit(s, "u99999"));
	assert_true(now() - t < 60.0);
	crown_state_free(s);
	crown_buf_release(&b);

	/* 35,000 entries for units that do not exist, and 32,000 for one
	 * that does: each problem once, in far less than a second a
	 * thousand entries (the checks are n log n) */
	crown_buf_puts(&b, ORDERS_HEAD "orders:\n");
	for (i = 0; b.len < MIB - 40; i++)
		crown_buf_printf(&b, "- {unit: u%d, actions: []}\n", i);
	t = now();
	assert_int_equal(orders_check(b.data, &d), CROWN_EINVALID);
	assert_int_equal(d.n, (size_t)i);
	assert_diag(&d, "o.yaml:5:3: error: unknown unit 'u0'");
	assert_true(now() - t < 30.0);
	crown_diags_release(&d);
	crown_buf_release(&b);
	crown_buf_puts(&b, ORDERS_HEAD "orders:\n");
	for (i = 0; b.len < MIB - 40; i++)
		crown_buf_printf(&b, "- {unit: 1-legion, actions: []}\n");
	t = now();
	assert_int_equal(orders_check(b.data, &d), CROWN_EINVALID);
	assert_int_equal(d.n, (size_t)i - 1);
	assert_diag(&d, "o.yaml:6:3: error: second entry for unit '1-legion' "
	    "(first at line 5) (R3.3)");
	assert_true(now() - t < 30.0);
	crown_diags_release(&d);
	crown_buf_release(&b);
}

/* Lists that were checked for duplicates pairwise: 200,000 terrain
 * features or leaders, each id given twice, are checked in seconds, every
 * second entry reported once, in the file's order; more than 256 sides
 * are refused. */
static void
test_hostile_lists(void **state)
{
	static const char	*head = "game: {name: Big, turn: 0, attacker: "
	    "a}\ntable: {width: 100, height: 100}\n";
	struct crown_buf	 b = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_rules	*r = NULL;
	double			 t;
	int			 i, n = 200000;

	crown_buf_puts(&b, head);
	crown_buf_puts(&b, "sides: [{id: a, home_edge: south}, {id: b, "
	    "home_edge: north}, {id: a, home_edge: west}]\nterrain:\n");
	for (i = 0; i < n; i++)
		crown_buf_printf(&b, "- {id: t%d, type: hill, polygon: "
		    "[[1,1],[2,1],[2,2]]}\n", i / 2);
	crown_buf_puts(&b, "units: []\nleaders:\n");
	for (i = 0; i < n; i++)
		crown_buf_printf(&b, "- {id: l%d, side: a, rank: officer, "
		    "x: 1, y: 1}\n", i % (n / 2));
	t = now();
	assert_int_equal(crown_state_parse(&s, "big.yaml", b.data, b.len, &d),
	    CROWN_EINVALID);
	assert_true(now() - t < 60.0);
	assert_int_equal(d.n, 1 + n / 2 + n / 2);
	assert_diag(&d, "big.yaml:3:68: error: duplicate side id 'a'\n"
	    "big.yaml:6:8: error: duplicate terrain id 't0'\n"
	    "big.yaml:8:8: error: duplicate terrain id 't1'\n");
	assert_diag(&d, "big.yaml:200004:8: error: duplicate terrain id "
	    "'t99999'\nbig.yaml:300007:8: error: duplicate leader id 'l0'\n");
	crown_diags_release(&d);
	crown_buf_release(&b);

	/* a rules file of 300,000 duplicate keys: each tagged with its
	 * section in one pass over the file */
	crown_buf_puts(&b, "id: x\ntitle: t\nR1.1:\n");
	for (i = 0; i < 300000; i++)
		crown_buf_printf(&b, "  a: %d\n", i);
	t = now();
	assert_int_equal(crown_rules_parse(&r, "r.yaml", b.data, b.len, &d),
	    CROWN_EINVALID);
	assert_true(now() - t < 60.0);
	assert_int_equal(d.n, 299999);
	assert_diag(&d, "r.yaml:300003:3: error: duplicate key 'a' (first at "
	    "line 4) (R1.1)");
	crown_diags_release(&d);
	crown_buf_release(&b);

	crown_buf_puts(&b, head);
	crown_buf_puts(&b, "sides:\n");
	for (i = 0; i < 257; i++)
		crown_buf_printf(&b, "- {id: s%d, home_edge: south}\n", i);
	crown_buf_puts(&b, "units: []\n");
	assert_int_equal(crown_state_parse(&s, "many.yaml", b.data, b.len,
	    &d), CROWN_EINVALID);
	assert_diag(&d, "many.yaml:4:1: error: more than 256 sides (R2.1)");
	crown_diags_release(&d);
	crown_buf_release(&b);
}

/* The command line: the limits as options, exit 65 past them, 2 for a
 * bad value. */
static int
run(const char *const *args, char **err)
{
	const char	*bin = getenv("CROWN_BIN");
	char		*argv[16], path[] = "/tmp/crown-limits-err-XXXXXX";
	pid_t		 pid;
	int		 status, fd, i;

	if (bin == NULL)
		bin = "build/crown";
	argv[0] = (char *)bin;
	for (i = 0; args[i] != NULL && i < 14; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fd, 2);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		execv(bin, argv);
		_exit(127);
	}
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	*err = tu_slurp(path);
	unlink(path);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_cli_limits(void **state)
{
	char	*err;

	assert_int_equal(run((const char *[]){ "check",
	    "--limit-orders-bytes", "100", "--state",
	    "tests/data/state-small.yaml", "tests/data/orders-french-ok.yaml",
	    NULL }, &err), 65);
	assert_non_null(strstr(err, "tests/data/orders-french-ok.yaml:7:7: "
	    "error: file is over the limit of 100 bytes"));
	free(err);
	assert_int_equal(run((const char *[]){ "check",
	    "--limit-orders-bytes", "1k", "--state",
	    "tests/data/state-small.yaml", "tests/data/orders-french-ok.yaml",
	    NULL }, &err), 0);
	free(err);
	assert_int_equal(run((const char *[]){ "check",
	    "--limit-state-bytes", "1k", "--state",
	    "tests/data/state-small.yaml", "tests/data/orders-french-ok.yaml",
	    NULL }, &err), 65);
	assert_non_null(strstr(err, "tests/data/state-small.yaml:35:7: "
	    "error: file is over the limit of 1024 bytes"));
	free(err);
	assert_int_equal(run((const char *[]){ "check",
	    "--limit-orders-bytes", "lots", "--state",
	    "tests/data/state-small.yaml", "tests/data/orders-french-ok.yaml",
	    NULL }, &err), 2);
	assert_non_null(strstr(err, "crown check: --limit-orders-bytes: "
	    "'lots' is not a size from 1 to 1G (bytes, or with k or M)"));
	free(err);
	assert_int_equal(run((const char *[]){ "resolve",
	    "--limit-state-bytes", "0", "--state",
	    "tests/data/state-small.yaml", "--out", "/tmp/crown-never",
	    "--dice-script", "tests/data/dice-empty.txt", NULL }, &err), 2);
	assert_non_null(strstr(err, "crown resolve: --limit-state-bytes: '0' "
	    "is not a size"));
	free(err);
	assert_int_equal(run((const char *[]){ "resolve",
	    "--limit-orders-bytes", "10", "--state",
	    "tests/data/state-small.yaml", "--orders",
	    "tests/data/orders-french-ok.yaml", "--out", "/tmp/crown-never",
	    "--dice-script", "tests/data/dice-empty.txt", NULL }, &err), 65);
	assert_non_null(strstr(err, "over the limit of 10 bytes"));
	free(err);
	assert_int_equal(access("/tmp/crown-never", F_OK), -1);
}

/*
 * What a message quotes of the input is shown, never obeyed: control
 * characters, the bidirectional controls (U+202E would show "exe.txt"
 * for "txt.exe") and bytes that are not UTF-8 are written escaped, in
 * every diagnostic.
 */
static void
test_quoting(void **state)
{
	static const unsigned long bidi[] = { 0x061c, 0x200e, 0x200f, 0x202a,
	    0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069 };
	struct crown_diags	 d = { 0 };
	char			*q, *line;
	size_t			 i, at;

	for (i = 0; i < sizeof(bidi) / sizeof(bidi[0]); i++)
		assert_true(crown_diag_unsafe(bidi[i]));
	assert_true(crown_diag_unsafe('\n'));
	assert_true(crown_diag_unsafe(0x7f));
	assert_true(crown_diag_unsafe(0x9b));
	/* the neighbours of the ranges are text */
	assert_false(crown_diag_unsafe(0x2029));
	assert_false(crown_diag_unsafe(0x202f));
	assert_false(crown_diag_unsafe(0x2065));
	assert_false(crown_diag_unsafe(0x206a));
	assert_false(crown_diag_unsafe(0x200d));
	assert_false(crown_diag_unsafe(0xa0));
	assert_false(crown_diag_unsafe(' '));

	q = crown_diag_escape("a\xe2\x80\xaetxt.exe\tb\nc\x1b[2J\xff\xc3\xa9");
	assert_string_equal(q, "a\\u202Etxt.exe\\u0009b\\u000Ac"
	    "\\u001B[2J\\xFF\xc3\xa9");
	free(q);
	assert_int_equal(crown_diag_unsafe_in("ab\xe2\x81\xa9", 5, &at),
	    0x2069);
	assert_int_equal(at, 2);
	assert_int_equal(crown_diag_unsafe_in("caf\xc3\xa9", 5, NULL), 0);

	/* every diagnostic, its file too */
	crown_diag_add(&d, "orders\xe2\x80\xae.yaml", 1, 2, "R3.1",
	    "unknown unit '%s'", "u\xe2\x80\x8e\x1b");
	line = crown_diag_format(&d.v[0]);
	assert_string_equal(line, "orders\\u202E.yaml:1:2: error: unknown "
	    "unit 'u\\u200E\\u001B' (R3.1)");
	free(line);
	crown_diags_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alias_bomb),
		cmocka_unit_test(test_orders_size),
		cmocka_unit_test(test_limit_setters),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_input_messages),
		cmocka_unit_test(test_ids),
		cmocka_unit_test(test_big_inputs),
		cmocka_unit_test(test_table_size),
		cmocka_unit_test(test_hostile_lists),
		cmocka_unit_test(test_cli_limits),
		cmocka_unit_test(test_quoting),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
