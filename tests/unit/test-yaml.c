/*
 * test-yaml.c: the YAML layer: places, refusals, typed reading, emitting.
 */
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>

#include "testutil.h"

#include "crown/fmt.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static struct crown_ydoc *
parse(const char *text, struct crown_diags *d, int *error)
{
	struct crown_ydoc	*doc = NULL;

	*error = crown_ydoc_parse(&doc, "t.yaml", text, strlen(text),
	    &crown_ylimits_orders, d);
	return doc;
}

static void
test_places_are_one_based(void **state)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root, *v;
	int				 error;

	doc = parse("a: 1\nb:\n  - x\n  - {c: 2}\n", &d, &error);
	assert_int_equal(error, 0);
	root = crown_ydoc_root(doc);
	assert_int_equal(root->kind, CROWN_Y_MAP);
	v = crown_ymap_get(root, "b");
	assert_non_null(v);
	assert_int_equal(v->kind, CROWN_Y_SEQ);
	assert_int_equal(v->n, 2);
	assert_int_equal(v->item[0]->line, 3);
	assert_int_equal(v->item[0]->col, 5);
	assert_string_equal(v->item[0]->str, "x");
	assert_int_equal(v->item[1]->line, 4);
	assert_int_equal(crown_ymap_get(v->item[1], "c")->col, 9);
	crown_ydoc_free(doc);
	crown_diags_release(&d);
}

/*
 * A map's look-up stops at once for most keys it does not have, by a bit
 * for the first byte and length of each key it has: every key is found,
 * whatever its first byte (past ASCII too) and length (past 64 bytes,
 * where the bits wrap), in a map of few keys and in one of more keys
 * than bits; a key it lacks is not, whether its bit is another key's
 * or none.
 */
static void
test_map_lookup(void **state)
{
	static const char *const keys[] = {
		"a", "ab", "b", "x", "\xc3\xa9t\xc3\xa9", "\xe2\x80\x94",
		"status", "stands", "7", "_", "~", "-k"
	};
	static const char *const absent[] = {
		"ac", "c", "\xc3\xa9t\xc3\xa8", "\xc3\xa9", "stamps", "statue",
		"a ", "A", "aa", "ab ", "8", "", "s"
	};
	struct crown_diags		 d = { 0 };
	struct crown_buf		 b = { 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root;
	char				 key[80], val[16];
	size_t				 i;
	int				 error, many;

	for (many = 0; many <= 1; many++) {
		b.len = 0;
		crown_buf_puts(&b, "");
		for (i = 0; i < CROWN_NELEM(keys); i++)
			crown_buf_printf(&b, "\"%s\": %zu\n", keys[i], i);
		for (i = 0; many && i < 70; i++) {
			memset(key, 'k', i + 1);
			key[i + 1] = '\0';
			crown_buf_printf(&b, "%s: l%zu\n", key, i);
		}
		doc = parse(b.data, &d, &error);
		assert_int_equal(error, 0);
		root = crown_ydoc_root(doc);
		for (i = 0; i < CROWN_NELEM(keys); i++) {
			snprintf(val, sizeof(val), "%zu", i);
			assert_non_null(crown_ymap_get(root, keys[i]));
			assert_string_equal(crown_ymap_get(root, keys[i])->str,
			    val);
		}
		for (i = 0; i < CROWN_NELEM(absent); i++)
			assert_null(crown_ymap_get(root, absent[i]));
		for (i = 0; i < 72; i++) {
			memset(key, 'k', i + 1);
			key[i + 1] = '\0';
			snprintf(val, sizeof(val), "l%zu", i);
			if (many && i < 70)
				assert_string_equal(crown_ymap_get(root,
				    key)->str, val);
			else
				assert_null(crown_ymap_get(root, key));
			key[i] = 'j';
			assert_null(crown_ymap_get(root, key));
		}
		crown_ydoc_free(doc);
	}
	/* the empty key, and a map with none */
	doc = parse("\"\": e\nk: {}\n", &d, &error);
	root = crown_ydoc_root(doc);
	assert_string_equal(crown_ymap_get(root, "")->str, "e");
	assert_null(crown_ymap_get(crown_ymap_get(root, "k"), ""));
	assert_null(crown_ymap_get(crown_ymap_get(root, "k"), "k"));
	crown_ydoc_free(doc);
	crown_diags_release(&d);
	crown_buf_release(&b);
}

static void
test_syntax_error_has_place(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	int			 error;

	doc = parse("a: 1\nb: [1, 2\nc: 3\n", &d, &error);
	assert_null(doc);
	assert_int_equal(error, CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	/* where the list was opened, not where libyaml gave up */
	assert_diag(&d, "t.yaml:2:4: error: YAML syntax: the list opened with "
	    "'[' here is not closed");
	crown_diags_release(&d);
}

/* One text's diagnostics, formatted, or "" when it reads. */
static char *
refusal(const char *text, size_t len)
{
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc = NULL;
	char			*all;

	if (crown_ydoc_parse(&doc, "t.yaml", text, len, &crown_ylimits_orders,
	    &d) == 0)
		assert_int_equal(d.n, 0);
	crown_ydoc_free(doc);
	all = tu_diags(&d);
	crown_diags_release(&d);
	return all;
}

/* The problems of text are want (whole), or say it among them. */
static void
refuses(const char *text, size_t len, const char *want, bool whole)
{
	char	*all = refusal(text, len);

	if (whole ? strcmp(all, want) != 0 : strstr(all, want) == NULL) {
		print_error("%s\nwanted\n%s", all, want);
		free(all);
		fail();
	}
	free(all);
}

#define REFUSES(text, want)	refuses(text, sizeof(text) - 1, want, true)
#define REFUSES_WITH(text, want) refuses(text, sizeof(text) - 1, want, false)

/* A tab in the indentation: named, at the tab, the line quoted; a tab
 * after a key's ':' and in JSON's indentation is YAML's, and reads. */
static void
test_tab_refused(void **state)
{
	(void)state;
	REFUSES("orders:\n  - unit: a\n\tactions: [hold]\n",
	    "t.yaml:3:1: error: YAML syntax: a tab indents this line: use "
	    "spaces, not tabs, to indent\n"
	    "    3 |         actions: [hold]\n"
	    "      | ^\n");
	REFUSES("orders:\n\t- unit: a\n",
	    "t.yaml:2:1: error: YAML syntax: a tab indents this line: use "
	    "spaces, not tabs, to indent\n"
	    "    2 |         - unit: a\n"
	    "      | ^\n");
	REFUSES("a:\n  b:\n   \t- c\n",
	    "t.yaml:3:4: error: YAML syntax: a tab indents this line: use "
	    "spaces, not tabs, to indent\n"
	    "    3 |         - c\n"
	    "      |    ^\n");
	REFUSES("game:\tg\n", "");
	REFUSES("{\n\t\"game\": \"g\",\n\t\"orders\": []\n}\n", "");
}

/* A non-breaking space where YAML needs a space is refused, each line
 * once, at its place; in quotes, in a comment or between words it is
 * text. */
static void
test_nbsp_refused(void **state)
{
	(void)state;
	REFUSES("orders:\n\xc2\xa0 - unit: a\n",
	    "t.yaml:2:1: error: this line is indented with non-breaking "
	    "spaces (U+00A0), not plain ones: your mail program put it there; "
	    "send the orders as plain text (not rich text or HTML), or attach "
	    "them as a file\n"
	    "    2 | \xc2\xa0 - unit: a\n"
	    "      | ^\n");
	REFUSES("a:\n  - fire:\xc2\xa0x\n",
	    "t.yaml:2:10: error: a non-breaking space (U+00A0) here, where a "
	    "plain space belongs: your mail program put it there; send the "
	    "orders as plain text (not rich text or HTML), or attach them as "
	    "a file\n"
	    "    2 |   - fire:\xc2\xa0x\n"
	    "      |          ^\n");
	/* the French narrow space before the colon; after a '-'; in a flow
	 * list; U+2007 too */
	REFUSES_WITH("side\xe2\x80\xaf: x\n", "t.yaml:1:5: error: "
	    "a non-breaking space (U+202F) here");
	REFUSES_WITH("a:\n  -\xc2\xa0" "b\n", "t.yaml:2:4: error: "
	    "a non-breaking space (U+00A0) here");
	REFUSES_WITH("a: [b,\xc2\xa0" "c]\n", "t.yaml:1:7: error: "
	    "a non-breaking space (U+00A0) here");
	REFUSES_WITH("a:\xe2\x80\x87" "b\n", "(U+2007)");
	REFUSES("a: 'x:\xc2\xa0y'\nb: \"\\\" :\xc2\xa0\"\n", "");
	REFUSES("a: Jean\xc2\xa0" "Danjou # x:\xc2\xa0y\n", "");
	/* a block scalar's text, and a quotation over lines */
	REFUSES("a: |\n  x:\xc2\xa0y\n  \xc2\xa0z\nb: \"c\n\xc2\xa0 d\"\n",
	    "");
	REFUSES_WITH("a: >-\n  x\nb:\xc2\xa0y\n", "t.yaml:3:3: error: a "
	    "non-breaking space");
}

/* UTF-16 and UTF-32, with or without a byte-order mark: the encoding
 * named, and what to do; one NUL in UTF-8 text is not UTF-16. */
static void
test_utf16_refused(void **state)
{
	(void)state;
	REFUSES("\xff\xfeg\0:\0 \0x\0\n\0", "t.yaml:1:1: error: the text is "
	    "in UTF-16 (little-endian), not UTF-8: save the file as UTF-8 (in "
	    "the editor's 'Save as', the encoding UTF-8) and send it again\n");
	REFUSES_WITH("\xfe\xff\0g\0:", "in UTF-16 (big-endian)");
	REFUSES_WITH("g\0:\0 \0x\0\n\0", "in UTF-16 "
	    "(little-endian)");
	REFUSES_WITH("\0g\0:\0 \0x\0\n", "in UTF-16 (big-endian)");
	REFUSES_WITH("\xff\xfe\0\0g\0\0\0", "in UTF-32");
	REFUSES_WITH("ab: a\0b\n", "t.yaml:1:6: error: NUL byte");
}

/* libyaml's problems in plain words, at the line to mend, quoted. */
static void
test_syntax_in_words(void **state)
{
	(void)state;
	REFUSES("a: 1\nfoo\nb: 2\n", "t.yaml:2:1: error: YAML syntax: this "
	    "line is neither 'key: value' nor '- item': a ':' is missing, here or "
	    "at the end of the line above\n"
	    "    2 | foo\n"
	    "      | ^\n");
	/* a key without its ':' runs on into the next line */
	REFUSES_WITH("o:\n  - unit a\n    actions: []\n",
	    "t.yaml:2:3: error: YAML syntax: this line is neither");
	REFUSES_WITH("name: a: b\n", "t.yaml:1:8: error: YAML "
	    "syntax: a ':' where no key can begin: a second ': ' on one line "
	    "(put the text in quotes)");
	REFUSES_WITH("a: \"b\nc: d\n", "t.yaml:1:4: error: YAML "
	    "syntax: the quotation that begins here is not closed");
	REFUSES_WITH("a: {b: 1\n", "t.yaml:1:4: error: YAML "
	    "syntax: the map opened with '{' here is not closed");
	REFUSES_WITH("a:\n  - b\n  c: d\n", "t.yaml:3:3: error: "
	    "YAML syntax: this line does not fit the list above: each item "
	    "begins with '- ', lined up with the items before it (the items "
	    "above begin at column 3)");
	REFUSES_WITH("a: @b\n", "t.yaml:1:4: error: YAML syntax: a "
	    "value cannot begin with this character: put the value in "
	    "quotes\n    1 | a: @b\n      |    ^\n");
	REFUSES_WITH("a: \"\\q\"\n", "begins an escape YAML does "
	    "not know");
	/* a long line is cut around the place, to fit a mail's width */
	REFUSES_WITH("a: bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb: c\n", "    1 | ..."
	    "bbbbbbbbbbbbbbbbbbbb: c\n"
	    "      |                        ^\n");
}

static void
test_aliases_and_anchors_refused(void **state)
{
	struct crown_diags	 d = { 0 };
	int			 error;

	assert_null(parse("a: &x [1, 2]\nb: *x\n", &d, &error));
	assert_int_equal(error, CROWN_EINVALID);
	assert_diag(&d, "t.yaml:1:4: error: YAML anchors are not allowed");
	crown_diags_release(&d);
	assert_null(parse("a: *x\n", &d, &error));
	assert_int_equal(error, CROWN_EINVALID);
	crown_diags_release(&d);
}

static void
test_duplicate_keys_refused(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	int			 error;

	assert_null(parse("a: 1\nb: 2\na: 3\n", &d, &error));
	assert_int_equal(error, CROWN_EINVALID);
	assert_diag(&d, "t.yaml:3:1: error: duplicate key 'a' (first at "
	    "line 1)");
	crown_diags_release(&d);
	/* a map whose keys have bits of their own has none twice (two keys
	 * alike share one); keys that share a bit are told apart */
	doc = parse("ab: 1\nac: 2\nb: 3\n", &d, &error);
	assert_int_equal(error, 0);
	crown_ydoc_free(doc);
	doc = parse("{x: 1, y: 2, xy: 3, yx: 4, a: 5}\n", &d, &error);
	assert_int_equal(error, 0);
	crown_ydoc_free(doc);
	assert_null(parse("{x: 1, y: 2, xy: 3, yx: 4, a: 5, yx: 6}\n", &d,
	    &error));
	assert_diag(&d, "t.yaml:1:34: error: duplicate key 'yx'");
	crown_diags_release(&d);
	assert_null(parse("ab: 1\nac: 2\nab: 3\n", &d, &error));
	assert_diag(&d, "t.yaml:3:1: error: duplicate key 'ab' (first at "
	    "line 1)");
	crown_diags_release(&d);
	assert_no_diags(&d);
}

static void
test_limits(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_ydoc	*doc = NULL;
	int			 i, error;

	/* nesting: 16 levels pass, 17 fail */
	for (i = 0; i < 16; i++)
		crown_buf_puts(&b, "[");
	for (i = 0; i < 16; i++)
		crown_buf_puts(&b, "]");
	assert_int_equal(crown_ydoc_parse(&doc, "t.yaml", b.data, b.len,
	    &crown_ylimits_orders, &d), 0);
	crown_ydoc_free(doc);
	crown_buf_release(&b);
	for (i = 0; i < 17; i++)
		crown_buf_puts(&b, "[");
	for (i = 0; i < 17; i++)
		crown_buf_puts(&b, "]");
	assert_int_equal(crown_ydoc_parse(&doc, "t.yaml", b.data, b.len,
	    &crown_ylimits_orders, &d), CROWN_EINVALID);
	assert_diag(&d, "nesting deeper than 16 levels");
	crown_diags_release(&d);
	crown_buf_release(&b);

	/* NUL bytes, with their place */
	error = crown_ydoc_parse(&doc, "t.yaml", "a: 1\nb: x\0y\n", 12,
	    &crown_ylimits_orders, &d);
	assert_int_equal(error, CROWN_EINVALID);
	assert_diag(&d, "t.yaml:2:5: error: NUL byte");
	crown_diags_release(&d);

	/* invalid UTF-8 */
	assert_null(parse("a: \xff\xfe\n", &d, &error));
	assert_int_equal(error, CROWN_EINVALID);
	crown_diags_release(&d);

	/* two documents */
	assert_null(parse("a: 1\n---\nb: 2\n", &d, &error));
	assert_diag(&d, "only one YAML document");
	crown_diags_release(&d);

	/* empty */
	assert_null(parse("# nothing\n", &d, &error));
	assert_diag(&d, "empty document");
	crown_diags_release(&d);
}

/*
 * Every kind of event, each freed once: the events the tree keeps free
 * their text themselves, the rest go to yaml_event_delete (a leak or a
 * double free is the sanitizer build's to find).  Anchors and tags on
 * each kind of node, an alias, directives, an empty scalar, a document
 * that ends early and one cut off by an error.
 */
static void
test_every_event_freed(void **state)
{
	static const char *const texts[] = {
		"a: &x 1\n", "a: &x [1]\n", "a: &x {b: 1}\n", "a: !t 1\n",
		"a: !t [1]\n", "a: !t {b: 1}\n", "a: !!str 1\n",
		"a: &x !t 1\n", "a: *x\n", "%YAML 1.1\n---\na: 1\n",
		"%TAG !e! tag:e.org,2000:\n---\na: !e!x 1\n",
		"%TAG !e! tag:e.org,2000:\n---\na: 1\n", "--- a\n...\n",
		"a: 1\n---\nb: 2\n", "a: [1, {b: }, '', \"\"]\nc: |\n  x\n",
		"a: [1, {b: }, '', \"\", |\n  x\n]\n",
		"a: [1, {b: 2}\n", "a: {b: [1, 2], c: {d: 'e'}}\nf: g\n",
		"a: 1\na: 2\n", "? [a]\n: 1\n", "a: \"\\e\"\n", "a: b: c\n"
	};
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	size_t			 i;
	int			 error, read = 0;

	for (i = 0; i < CROWN_NELEM(texts); i++) {
		doc = parse(texts[i], &d, &error);
		read += doc != NULL;
		crown_ydoc_free(doc);
		crown_diags_release(&d);
	}
	assert_int_equal(read, 5);
}

/* Does any scalar of the tree hold a NUL or a control character (C0 but
 * tab and newline, DEL, C1)? */
static bool
holds_control(const struct crown_ynode *n)
{
	const unsigned char	*p;
	size_t			 i;

	if (n->kind == CROWN_Y_SCALAR) {
		p = (const unsigned char *)n->str;
		for (i = 0; i < n->len; i++)
			if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') ||
			    p[i] == 0x7f || (p[i] == 0xc2 && i + 1 < n->len &&
			    p[i + 1] >= 0x80 && p[i + 1] <= 0x9f))
				return true;
		return false;
	}
	for (i = 0; i < n->n; i++)
		if (holds_control(n->item[i]) || (n->kind == CROWN_Y_MAP &&
		    holds_control(n->key[i])))
			return true;
	return false;
}

/*
 * Only a double-quoted scalar's text is looked at for NUL and control
 * characters: libyaml refuses them in the file and turns each line break
 * (CR, NEL) into a newline, so no other style can hold one.  Every C0
 * byte, DEL, every C1 character and CR LF, in each other style, in the
 * middle of a line and before its break, is refused or read as text
 * without one; each but tab and newline written as an escape in a
 * double-quoted scalar is refused, as a value and as a key.  (v 0xa0
 * stands for CR LF.)
 */
/* text is refused with the diagnostic want. */
static void
refused_with(const char *text, const char *want)
{
	struct crown_diags	d = { 0 };
	int			error;

	assert_null(parse(text, &d, &error));
	assert_int_equal(error, CROWN_EINVALID);
	assert_diag(&d, want);
	crown_diags_release(&d);
}

static void
test_controls_only_from_escapes(void **state)
{
	static const char *const shapes[][2] = {
		{ "a: x", "y\n" }, { "a: x", "\n  y\n" }, { "a: x\n  ", "y\n" },
		{ "x", "y: 1\n" }, { "a: 'x", "y'\n" }, { "a: 'x", "\n  y'\n" },
		{ "a: |\n  x", "y\n  z\n" }, { "a: |\n  x", "\n  z\n" },
		{ "a: >\n  x", "y\n  z\n" }, { "a: >\n  x", "\n  z\n" },
		{ "- [x", "y]\n" }, { "- {x", "y: 'z'}\n" }
	};
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	char			 c[4], text[64], want[64];
	size_t			 i;
	unsigned		 v;
	int			 error, read = 0;

	for (v = 1; v <= 0xa0; v++) {
		if (v >= 0x20 && v < 0x7f)
			continue;
		if (v < 0x80)
			snprintf(c, sizeof(c), "%c", (int)v);
		else if (v < 0xa0)
			snprintf(c, sizeof(c), "\xc2%c", (int)v);
		else
			snprintf(c, sizeof(c), "\r\n");
		for (i = 0; i < CROWN_NELEM(shapes); i++) {
			snprintf(text, sizeof(text), "%s%s%s", shapes[i][0], c,
			    shapes[i][1]);
			doc = parse(text, &d, &error);
			if (doc != NULL) {
				assert_false(holds_control(
				    crown_ydoc_root(doc)));
				read++;
			}
			crown_ydoc_free(doc);
			crown_diags_release(&d);
		}
		if (v == '\t' || v == '\n' || v == 0xa0)
			continue;
		snprintf(text, sizeof(text), "a: \"x\\x%02xy\"\n", v);
		snprintf(want, sizeof(want), "t.yaml:1:4: error: control "
		    "character U+%04X in a string", v);
		refused_with(text, want);
		snprintf(text, sizeof(text), "{\"x\\u%04xy\": 1}\n", v);
		snprintf(want, sizeof(want), "t.yaml:1:2: error: control "
		    "character U+%04X in a string", v);
		refused_with(text, want);
	}
	/* tab in every shape, and LF, CR, NEL and CR LF as the break of the
	 * six that have room for one, read: the rest are libyaml's to
	 * refuse */
	assert_int_equal(read, 12 + 4 * 6);
	refused_with("a: \"x\\0y\"\n",
	    "t.yaml:1:4: error: NUL character in a string");
	/* the escapes of text stay text */
	doc = parse("a: \"\\t\\n\\_\\L\\P\"\n", &d, &error);
	assert_non_null(doc);
	assert_false(holds_control(crown_ydoc_root(doc)));
	crown_ydoc_free(doc);
	crown_diags_release(&d);
}

static void
test_typed_reading(void **state)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root;
	struct crown_yreader		 r = { "t.yaml", &d, 0 };
	static const char *const	 keys[] = { "i", "big", "q", "n", "b",
		"id", "badid", "e", "hex", NULL };
	static const char *const	 names[] = { "line", "column" };
	long				 i = 0;
	double				 n = 0;
	bool				 b = false;
	char				*s = NULL;
	int				 e = -1, error;

	doc = parse("i: 12\nbig: 99999999999999999999999\nq: \"12\"\n"
	    "n: 12.5\nb: true\nid: 1-legion\nbadid: Legion\ne: column\n"
	    "hex: 0x1p3\nextra: 1\n", &d, &error);
	assert_int_equal(error, 0);
	root = crown_ydoc_root(doc);
	assert_int_equal(crown_ykeys(&r, root, keys, NULL), CROWN_EINVALID);
	assert_diag(&d, "t.yaml:10:1: error: unknown key 'extra'");
	assert_int_equal(crown_yfield_int(&r, root, "i", true, 0, 12, "R1.1",
	    &i), 0);
	assert_int_equal(i, 12);
	/* a band edge: 12 is in 0..12, not in 0..11 */
	assert_int_equal(crown_yfield_int(&r, root, "i", true, 0, 11, "R1.1",
	    &i), CROWN_EINVALID);
	assert_diag(&d, "t.yaml:1:4: error: 'i' must be from 0 to 11, not "
	    "12 (R1.1)");
	assert_int_equal(crown_yfield_int(&r, root, "big", true, 0, 100,
	    NULL, &i), CROWN_EINVALID);
	assert_int_equal(crown_yfield_int(&r, root, "q", true, 0, 100, NULL,
	    &i), CROWN_EINVALID);
	assert_diag(&d, "'q' must be a whole number, not '12'");
	assert_int_equal(crown_yfield_num(&r, root, "n", true, 0, 72, NULL,
	    &n), 0);
	assert_true(n == 12.5);
	assert_int_equal(crown_yfield_num(&r, root, "hex", true, 0, 72, NULL,
	    &n), CROWN_EINVALID);
	assert_int_equal(crown_yfield_bool(&r, root, "b", true, NULL, &b), 0);
	assert_true(b);
	assert_int_equal(crown_yfield_id(&r, root, "id", true, NULL, &s), 0);
	assert_string_equal(s, "1-legion");
	assert_int_equal(crown_yfield_id(&r, root, "badid", true, NULL, &s),
	    CROWN_EINVALID);
	assert_diag(&d, "t.yaml:7:8: error: 'badid' is not a valid id");
	assert_int_equal(crown_yfield_enum(&r, root, "e", true, names, 2,
	    NULL, &e), 0);
	assert_int_equal(e, 1);
	assert_int_equal(crown_yfield_int(&r, root, "missing", true, 0, 1,
	    "R2.1", &i), CROWN_EINVALID);
	assert_diag(&d, "t.yaml:1:1: error: missing key 'missing' (R2.1)");
	free(s);
	crown_ydoc_free(doc);
	crown_diags_release(&d);
}

/*
 * A map's keys are looked for in the list of those it may have from the
 * one after the last found, going round: known keys in any order are
 * known, and a key that is a list entry's prefix or extension, or one
 * given after all the others, is not.
 */
static void
test_known_keys(void **state)
{
	static const char *const keys[] = { "a", "abc", "b", "c", "", NULL };
	static const struct {
		const char	*text;
		int		 unknown;
	} maps[] = {
		{ "{a: 1, abc: 2, b: 3, c: 4, '': 5}", 0 },
		{ "{'': 5, c: 4, b: 3, abc: 2, a: 1}", 0 },
		{ "{b: 3, a: 1, c: 4, abc: 2}", 0 },
		{ "{c: 1, ab: 2, a: 3}", 1 },
		{ "{abcd: 1, b: 2, ' a': 3, A: 4}", 3 },
		{ "{a: 1, b: 2, c: 3, d: 4}", 1 },
		{ "{d: 1}", 1 },
		{ "{}", 0 }
	};
	struct crown_diags		 d = { 0 };
	struct crown_yreader		 r = { "t.yaml", &d, 0 };
	struct crown_ydoc		*doc;
	size_t				 i;
	int				 error;

	for (i = 0; i < CROWN_NELEM(maps); i++) {
		doc = parse(maps[i].text, &d, &error);
		assert_int_equal(error, 0);
		r.errors = 0;
		assert_int_equal(crown_ykeys(&r, crown_ydoc_root(doc), keys,
		    NULL), maps[i].unknown ? CROWN_EINVALID : 0);
		assert_int_equal(r.errors, maps[i].unknown);
		crown_ydoc_free(doc);
		crown_diags_release(&d);
	}
	doc = parse("{b: 1, ab: 2, a: 3}", &d, &error);
	crown_ykeys(&r, crown_ydoc_root(doc), keys, NULL);
	assert_int_equal(d.n, 1);
	assert_diag(&d, "t.yaml:1:8: error: unknown key 'ab'");
	crown_ydoc_free(doc);
	crown_diags_release(&d);
}

/*
 * Whole numbers of up to 18 digits are read without strtol: each text,
 * on both sides of 18 digits and of a long's range, reads as strtol
 * reads it, or is refused as it refuses it.
 */
static void
test_whole_numbers(void **state)
{
	static const char *const texts[] = {
		"0", "7", "-0", "007", "-007", "+5", "-5", "-x", "+", "~",
		"--5", "+-5", "1.0", "1e3", "0x10", "1_000", "5x", "x5",
		"123456789012345678", "-123456789012345678",
		"999999999999999999", "-999999999999999999",
		"1234567890123456789", "-1234567890123456789",
		"0000000000000000001", "9223372036854775807",
		"-9223372036854775808", "9223372036854775808",
		"-9223372036854775809", "99999999999999999999", "'5'", "\"-5\"",
		"101", "-1", "100"
	};
	struct crown_diags		 d = { 0 };
	struct crown_buf		 b = { 0 };
	struct crown_yreader		 r = { "t.yaml", &d, 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*v;
	const char			*t;
	char				*end;
	size_t				 i;
	long				 got, want;
	int				 error, ok, range;

	for (i = 0; i < CROWN_NELEM(texts); i++)
		for (range = 0; range <= 1; range++) {
			b.len = 0;
			crown_buf_printf(&b, "v: %s\n", texts[i]);
			doc = parse(b.data, &d, &error);
			assert_int_equal(error, 0);
			v = crown_ymap_get(crown_ydoc_root(doc), "v");
			t = texts[i];
			errno = 0;
			want = strtol(t, &end, 10);
			ok = v->plain && *end == '\0' && errno != ERANGE &&
			    (t[0] == '-' || t[0] == '+' ||
			    (t[0] >= '0' && t[0] <= '9')) &&
			    (!range || (want >= 0 && want <= 100));
			got = 12345;
			error = crown_yint(&r, v, "v", range ? 0 : LONG_MIN,
			    range ? 100 : LONG_MAX, NULL, &got);
			if (ok) {
				assert_int_equal(error, 0);
				assert_true(got == want);
				assert_no_diags(&d);
			} else {
				assert_int_equal(error, CROWN_EINVALID);
				assert_true(got == 12345);
				assert_int_equal(d.n, 1);
			}
			crown_diags_release(&d);
			crown_ydoc_free(doc);
		}
	crown_buf_release(&b);
}

/* Read v (a YAML value) as a number from -1e300 to 1e300: 0 and *out, or
 * CROWN_EINVALID. */
static int
read_num(const char *v, double *out)
{
	struct crown_diags		 d = { 0 };
	struct crown_yreader		 r = { "t.yaml", &d, 0 };
	struct crown_buf		 b = { 0 };
	struct crown_ydoc		*doc;
	int				 error;

	crown_buf_printf(&b, "v: %s\n", v);
	doc = parse(b.data, &d, &error);
	assert_int_equal(error, 0);
	error = crown_ynum(&r, crown_ymap_get(crown_ydoc_root(doc), "v"), "v",
	    -1e300, 1e300, NULL, out);
	assert_int_equal(d.n, error != 0);
	crown_ydoc_free(doc);
	crown_diags_release(&d);
	crown_buf_release(&b);
	return error;
}

/*
 * A number reads as strtod reads it, to the bit, on both sides of 15
 * digits, with the point anywhere or nowhere, signs, and 20,000 random
 * ones; what is not a decimal number is refused.
 */
static void
test_decimals(void **state)
{
	static const char *const texts[] = {
		"0", "-0", "5", "5.", ".5", "-.5", "-5.", "0.1", "0.3", "-0.7",
		"123456789012345", "1234567890123456", "12345678901234.5",
		"1234567890123.45", ".123456789012345", ".1234567890123456",
		"99999999999999.9", "999999999999999", "9999999999999999",
		"0.000000000000001", "000000000000000.1", "1.5e3", "+1.5",
		"1e-320", "1.2.3", "1..2", "--1", "-x", "1e999"
	};
	char		 text[32];
	double		 got, want;
	size_t		 i, k, n;
	unsigned	 seed = 20261202;
	int		 digits, point;

	for (i = 0; i < CROWN_NELEM(texts) + 20000; i++) {
		if (i < CROWN_NELEM(texts))
			snprintf(text, sizeof(text), "%s", texts[i]);
		else {
			digits = 1 + (int)((unsigned)rand_r(&seed) % 17);
			point = (int)((unsigned)rand_r(&seed) %
			    (unsigned)(digits + 2)) - 1;
			n = 0;
			if ((unsigned)rand_r(&seed) % 2)
				text[n++] = '-';
			for (k = 0; k < (size_t)digits; k++) {
				if ((int)k == point)
					text[n++] = '.';
				text[n++] = (char)('0' +
				    (unsigned)rand_r(&seed) % 10);
			}
			if (point == digits)
				text[n++] = '.';
			text[n] = '\0';
		}
		want = strtod(text, NULL);
		if (read_num(text, &got) == 0) {
			if (memcmp(&got, &want, sizeof(got)) != 0)
				fail_msg("'%s' reads %.17g, strtod %.17g", text,
				    got, want);
		} else
			assert_true(strcmp(text, "1.2.3") == 0 ||
			    strcmp(text, "1..2") == 0 ||
			    strcmp(text, "--1") == 0 ||
			    strcmp(text, "-x") == 0 ||
			    strcmp(text, "1e999") == 0);
	}
}

static void
test_id_pattern(void **state)
{
	char	long_id[40];

	assert_true(crown_id_valid("a"));
	assert_true(crown_id_valid("0"));
	assert_true(crown_id_valid("2-militia_b"));
	assert_false(crown_id_valid(""));
	assert_false(crown_id_valid("-a"));
	assert_false(crown_id_valid("_a"));
	assert_false(crown_id_valid("A"));
	assert_false(crown_id_valid("a/b"));
	assert_false(crown_id_valid("../x"));
	assert_false(crown_id_valid("a\n"));
	/* 32 characters pass, 33 fail */
	memset(long_id, 'a', 32);
	long_id[32] = '\0';
	assert_true(crown_id_valid(long_id));
	long_id[32] = 'a';
	long_id[33] = '\0';
	assert_false(crown_id_valid(long_id));
}

static void
test_emitter_quotes_and_numbers(void **state)
{
	struct crown_buf	 b = { 0 };
	struct crown_yemit	*y;

	y = crown_yemit_new(&b);
	crown_yemit_map(y, false);
	crown_yemit_kstr(y, "a", "12");
	crown_yemit_kstr(y, "b", "true");
	crown_yemit_kstr(y, "c", "plain words");
	crown_yemit_kstr(y, "d", "");
	crown_yemit_knum2(y, "e", 12.345);
	crown_yemit_knum2(y, "f", -0.001);
	crown_yemit_kstr(y, "g", "Cerro: del Borrego");
	crown_yemit_kstr(y, "h", "Camarón");
	crown_yemit_str(y, "p");
	crown_yemit_seq(y, true);
	crown_yemit_int(y, 1);
	crown_yemit_int(y, -2);
	crown_yemit_end(y);
	crown_yemit_end(y);
	assert_int_equal(crown_yemit_finish(y), 0);
	crown_yemit_free(y);
	assert_string_equal(b.data,
	    "a: \"12\"\n"
	    "b: \"true\"\n"
	    "c: plain words\n"
	    "d: \"\"\n"
	    "e: 12.35\n"
	    "f: 0.00\n"
	    "g: 'Cerro: del Borrego'\n"
	    "h: Camarón\n"
	    "p: [1, -2]\n");
	crown_buf_release(&b);
}

/*
 * libyaml's emitter behind crown's calls: scalars of every awkward kind,
 * in every context, read back through libyaml as what they were given;
 * text that is not UTF-8 is refused, and the error comes back from
 * crown_yemit_finish.
 */

/* Pieces that random scalars are made of: indicators, blanks, breaks,
 * quotes, words YAML reads as other types, multibyte characters. */
static const char *const pieces[] = {
	"a", "Zz", " ", "  ", ":", ": ", "#", " #", "-", "- ", "?", "'", "\"",
	"\\", ",", "[", "]", "{", "}", "&", "*", "!", "|", ">", "%", "@", "`",
	"~", ".", "---", "...", "null", "true", "1", "-2.5", "0x1f", "é",
	"日本", "\xc2\xa0", "\xe2\x80\x94",
	/* these the loader refuses, but the emitter writes them */
	"\n", "\t", "\r", "\xc2\x85", "\xe2\x80\xa8", "\xef\xbb\xbf",
	"\xf0\x9f\x98\x80", "\x7f", "\x01",
	/* 64 bytes: two make a key at the 128-byte limit of simple keys */
	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
	/* not UTF-8: the emitter refuses it */
	"\x80", "\xc0\x80", "\xff", "\xe2\x82", "\xc2"
};
#define SAFE_PIECES	40	/* the first ones: read back as they are */

/* Emit a document of one shape around s; which: 0..6.  Returns what
 * crown_yemit_finish says. */
static int
shape(struct crown_buf *out, int which, const char *s, const char *t)
{
	int			 error;
	struct crown_yemit	*y = crown_yemit_new(out);

	switch (which) {
	case 0:		/* a value and a key of a block mapping */
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, "k", s);
		crown_yemit_kstr(y, s, t);
		crown_yemit_end(y);
		break;
	case 1:		/* items of a block sequence, one a mapping */
		crown_yemit_seq(y, false);
		crown_yemit_str(y, s);
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, t, s);
		crown_yemit_str(y, "list");
		crown_yemit_seq(y, false);
		crown_yemit_str(y, s);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		break;
	case 2:		/* flow collections inside a block mapping */
		crown_yemit_map(y, false);
		crown_yemit_str(y, "f");
		crown_yemit_seq(y, true);
		crown_yemit_str(y, s);
		crown_yemit_map(y, true);
		crown_yemit_kstr(y, s, t);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		break;
	case 3:		/* empty collections, as values and as items */
		crown_yemit_map(y, false);
		crown_yemit_str(y, s);
		crown_yemit_seq(y, false);
		crown_yemit_end(y);
		crown_yemit_str(y, "m");
		crown_yemit_seq(y, false);
		crown_yemit_map(y, false);
		crown_yemit_end(y);
		crown_yemit_seq(y, true);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		break;
	case 4:		/* block mappings nested in mappings and sequences */
		crown_yemit_map(y, false);
		crown_yemit_str(y, "outer");
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, "inner", s);
		crown_yemit_kint(y, "n", -3);
		crown_yemit_knum2(y, "x", 1.5);
		crown_yemit_kbool(y, "b", true);
		crown_yemit_end(y);
		crown_yemit_str(y, t);
		crown_yemit_seq(y, false);
		crown_yemit_seq(y, false);
		crown_yemit_str(y, s);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		break;
	case 5:		/* deep: keys at 8 and 10 columns, items at 10 */
		crown_yemit_map(y, false);
		crown_yemit_str(y, "a");
		crown_yemit_map(y, false);
		crown_yemit_str(y, "b");
		crown_yemit_seq(y, false);
		crown_yemit_map(y, false);
		crown_yemit_str(y, "c");
		crown_yemit_map(y, false);
		crown_yemit_str(y, "d");
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, s, t);
		crown_yemit_str(y, "e");
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, t, s);
		crown_yemit_str(y, "f");
		crown_yemit_seq(y, false);
		crown_yemit_str(y, s);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		crown_yemit_end(y);
		break;
	default:	/* a root that is one empty sequence */
		crown_yemit_seq(y, s[0] == 'a');
		crown_yemit_end(y);
		break;
	}
	error = crown_yemit_finish(y);
	crown_yemit_free(y);
	return error;
}

static void
random_scalar(struct crown_buf *b, unsigned *seed, size_t npieces)
{
	int	n, i;

	b->len = 0;
	crown_buf_puts(b, "");
	n = (int)(rand_r(seed) % 7);
	for (i = 0; i < n; i++)
		crown_buf_puts(b, pieces[rand_r(seed) % npieces]);
}

/* Every shape around s and t: how many the emitter refused. */
static int
every_shape(const char *s, const char *t)
{
	static struct crown_buf	got;
	int			k, refused = 0;

	for (k = 0; k < 7; k++) {
		got.len = 0;
		if (shape(&got, k, s, t) != 0)
			refused++;
	}
	return refused;
}

static void
test_emitter_reads_back(void **state)
{
	struct crown_buf	 s = { 0 }, t = { 0 }, got = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc;
	const struct crown_ynode *root;
	unsigned		 seed = 20261201;
	int			 i, error, refused = 0;

	for (i = 0; i < 5000; i++) {
		random_scalar(&s, &seed, CROWN_NELEM(pieces));
		random_scalar(&t, &seed, CROWN_NELEM(pieces));
		if (strcmp(s.data, t.data) == 0)
			crown_buf_puts(&t, "x");
		refused += every_shape(s.data, t.data);
	}
	/* text that is not UTF-8 came up, and was refused */
	assert_true(refused > 100);
	for (i = 0; i < 5000; i++) {
		random_scalar(&s, &seed, SAFE_PIECES);
		got.len = 0;
		assert_int_equal(shape(&got, 0, s.data, "v"), 0);
		doc = parse(got.data, &d, &error);
		if (error != 0 || doc == NULL)
			fail_msg("\"%s\" does not read back:\n%s", s.data,
			    got.data);
		root = crown_ydoc_root(doc);
		assert_string_equal(crown_ymap_get(root, "k")->str, s.data);
		assert_string_equal(root->key[1]->str, s.data);
		crown_ydoc_free(doc);
		crown_diags_release(&d);
	}
	crown_buf_release(&s);
	crown_buf_release(&t);
	crown_buf_release(&got);
}

/* An error of the emitter comes back from crown_yemit_finish, and the
 * calls after it do nothing. */
static void
test_emitter_errors(void **state)
{
	static const char *const bad[] = {
		"\x80", "a\xc0\x80", "\xff", "\xe2\x82", "x\xc2"
	};
	struct crown_buf	 b = { 0 };
	struct crown_yemit	*y;
	size_t			 i;

	for (i = 0; i < CROWN_NELEM(bad); i++) {
		b.len = 0;
		y = crown_yemit_new(&b);
		crown_yemit_map(y, false);
		crown_yemit_kstr(y, "k", bad[i]);
		crown_yemit_kint(y, "n", 1);
		crown_yemit_str(y, "s");
		crown_yemit_seq(y, false);
		crown_yemit_end(y);
		crown_yemit_end(y);
		assert_int_equal(crown_yemit_finish(y), CROWN_ERROR);
		crown_yemit_free(y);
	}
	/* an end with nothing open, a collection left open */
	y = crown_yemit_new(&b);
	crown_yemit_end(y);
	crown_yemit_str(y, "x");
	assert_int_equal(crown_yemit_finish(y), CROWN_ERROR);
	crown_yemit_free(y);
	y = crown_yemit_new(&b);
	crown_yemit_seq(y, false);
	crown_yemit_str(y, "x");
	assert_int_equal(crown_yemit_finish(y), CROWN_ERROR);
	crown_yemit_free(y);
	crown_buf_release(&b);
}

/* Which strings are written double-quoted because YAML 1.1 reads them as
 * another type: the words, the numbers, the dates; and lookalikes that
 * stay plain. */
static void
test_emitter_ambiguous_words(void **state)
{
	static const char *const quoted[] = {
		"", "~", "no", "No", "NO", "on", "On", "ON", "yes", "Yes",
		"YES", "off", "Off", "OFF", "null", "Null", "NULL", "true",
		"True", "TRUE", "false", "False", "FALSE", ".inf", ".Inf",
		"-.inf", "+.inf", ".nan", ".NaN", "0", "12", "-3", "+4", ".5",
		"1.5", "1e5", "0x1f", "0o17", "1_000", "1:30", "2026-11-29",
		"2026-11-29T10:00:00Z", ".", ".x"
	};
	static const char *const plain[] = {
		"n", "y", "o", "t", "f", "nul", "nulls", "tru", "True!", "onx",
		"1-legion", "+x", "-a", "~x", "turn", "text", "x1",
		"Yesterday", "offer", "name", "+"
	};
	struct crown_buf	 b = { 0 };
	struct crown_yemit	*y;
	size_t			 i;
	char			*want;

	for (i = 0; i < CROWN_NELEM(quoted) + CROWN_NELEM(plain); i++) {
		b.len = 0;
		y = crown_yemit_new(&b);
		if (i < CROWN_NELEM(quoted))
			crown_yemit_str(y, quoted[i]);
		else
			crown_yemit_str(y, plain[i - CROWN_NELEM(quoted)]);
		assert_int_equal(crown_yemit_finish(y), 0);
		crown_yemit_free(y);
		want = i < CROWN_NELEM(quoted) ? xasprintf("\"%s\"\n",
		    quoted[i]) : xasprintf("%s\n",
		    plain[i - CROWN_NELEM(quoted)]);
		assert_string_equal(b.data, want);
		free(want);
	}
	crown_buf_release(&b);
}

/* Real files: every conformance case, the bundled games and the test
 * data, parsed and written back, then that parsed and written again: the
 * same bytes (what crown writes, it reads as it was). */
static void
test_emitter_corpus(void **state)
{
	static const char *const dirs[] = {
		"tests/cases", "tests/data", "games/camerone",
		"games/puebla", "games/miahuatlan", "rules"
	};
	struct crown_buf	 got = { 0 }, again = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_ydoc	*doc, *doc2;
	struct dirent		*de;
	DIR			*dp;
	size_t			 i, n = 0, len;
	char			*path, *text;

	for (i = 0; i < CROWN_NELEM(dirs); i++) {
		assert_non_null(dp = opendir(dirs[i]));
		while ((de = readdir(dp)) != NULL) {
			len = strlen(de->d_name);
			if (len < 6 || strcmp(de->d_name + len - 5, ".yaml"))
				continue;
			path = xasprintf("%s/%s", dirs[i], de->d_name);
			text = tu_slurp(path);
			doc = doc2 = NULL;
			if (crown_ydoc_parse(&doc, path, text, strlen(text),
			    &crown_ylimits_state, &d) == 0) {
				got.len = again.len = 0;
				assert_int_equal(crown_ynode_emit(&got,
				    crown_ydoc_root(doc)), 0);
				assert_int_equal(crown_ydoc_parse(&doc2, path,
				    got.data, got.len, &crown_ylimits_state,
				    &d), 0);
				assert_int_equal(crown_ynode_emit(&again,
				    crown_ydoc_root(doc2)), 0);
				if (got.len != again.len || memcmp(got.data,
				    again.data, got.len) != 0)
					fail_msg("%s differs", path);
				n++;
			}
			crown_ydoc_free(doc2);
			crown_ydoc_free(doc);
			crown_diags_release(&d);
			free(text);
			free(path);
		}
		closedir(dp);
	}
	/* the 133 cases and a dozen more */
	assert_true(n >= 140);
	crown_buf_release(&got);
	crown_buf_release(&again);
}

static void
test_round2(void **state)
{
	assert_true(crown_round2(1.005) == 1.0 || crown_round2(1.005) ==
	    1.01);
	assert_true(crown_round2(2.5) == 2.5);
	assert_true(crown_round2(-1.234) == -1.23);
	assert_true(crown_round2(0.125) == 0.13);
}

static void
test_read_file_limits(void **state)
{
	struct crown_diags	 d = { 0 };
	char			*buf;
	size_t			 len;

	assert_int_equal(crown_read_file(&buf, &len, "/nonexistent/x.yaml",
	    0, &d), CROWN_ENOTFOUND);
	assert_diag(&d, "/nonexistent/x.yaml: error: cannot open");
	crown_diags_release(&d);
	assert_int_equal(crown_read_file(&buf, &len, "tests/data/"
	    "state-small.yaml", 10, &d), CROWN_EINVALID);
	assert_diag(&d, "over the limit of 10 bytes");
	crown_diags_release(&d);
	assert_int_equal(crown_read_file(&buf, &len, "tests/data",
	    0, &d), CROWN_ENOTFOUND);
	crown_diags_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_places_are_one_based),
		cmocka_unit_test(test_map_lookup),
		cmocka_unit_test(test_syntax_error_has_place),
		cmocka_unit_test(test_aliases_and_anchors_refused),
		cmocka_unit_test(test_duplicate_keys_refused),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_controls_only_from_escapes),
		cmocka_unit_test(test_every_event_freed),
		cmocka_unit_test(test_typed_reading),
		cmocka_unit_test(test_known_keys),
		cmocka_unit_test(test_whole_numbers),
		cmocka_unit_test(test_decimals),
		cmocka_unit_test(test_id_pattern),
		cmocka_unit_test(test_emitter_quotes_and_numbers),
		cmocka_unit_test(test_emitter_reads_back),
		cmocka_unit_test(test_emitter_errors),
		cmocka_unit_test(test_emitter_ambiguous_words),
		cmocka_unit_test(test_emitter_corpus),
		cmocka_unit_test(test_round2),
		cmocka_unit_test(test_read_file_limits),
		cmocka_unit_test(test_tab_refused),
		cmocka_unit_test(test_nbsp_refused),
		cmocka_unit_test(test_utf16_refused),
		cmocka_unit_test(test_syntax_in_words),
	};

	return cmocka_run_group_tests_name("yaml", tests, NULL, NULL);
}
