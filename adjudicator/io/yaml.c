/*
 * yaml.c: YAML documents as trees with places, and typed reading.
 *
 * libyaml gives events; we build a tree whose nodes carry 1-based lines
 * and columns (libyaml's marks count from 0).  Anchors and aliases are
 * refused everywhere: nothing we read needs them and they make alias
 * bombs possible in mailed orders.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <yaml.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/text.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

struct crown_ylimits crown_ylimits_orders = {
	1024 * 1024, 16, 200000
};
struct crown_ylimits crown_ylimits_state = {
	64 * 1024 * 1024, 32, 20000000
};

int
crown_limits_parse_bytes(size_t *out, const char *arg)
{
	unsigned long long	 v;
	char			*end;

	/* digits only: strtoull would take a sign or blanks */
	if (arg == NULL || arg[0] < '0' || arg[0] > '9')
		return CROWN_EUSAGE;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE || v > CROWN_LIMIT_BYTES_MAX)
		return CROWN_EUSAGE;
	if (*end == 'k' || *end == 'K') {
		v *= 1024;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		v *= 1024 * 1024;
		end++;
	}
	if (*end != '\0' || v < 1 || v > CROWN_LIMIT_BYTES_MAX)
		return CROWN_EUSAGE;
	*out = (size_t)v;
	return 0;
}

int
crown_limits_set_orders_bytes(const char *arg)
{
	return crown_limits_parse_bytes(&crown_ylimits_orders.max_bytes, arg);
}

int
crown_limits_set_state_bytes(const char *arg)
{
	return crown_limits_parse_bytes(&crown_ylimits_state.max_bytes, arg);
}

#define ARENA_CHUNK (64 * 1024)
/* Nodes, arrays of pointers to them and text need no more alignment than
 * a node: a tree is ten times its file or more, and each byte of it is
 * memory the kernel must hand over, so none is left as padding. */
#define ARENA_ALIGN _Alignof(struct crown_ynode)

struct crown_ydoc {
	char			*file;
	struct crown_ynode	*root;
	struct crown_arena	 arena;
};

/* A container being built: its node, and where its children start on the
 * stack of children that all open containers share. */
struct frame {
	struct crown_ynode	*node;
	size_t			 base;
};

/*
 * The tree being built.  The children of the open containers wait on one
 * stack (a map's as key, value, key, value...) and move into the arena
 * when their container ends, so a container costs no allocation of its
 * own.
 */
struct builder {
	struct crown_ydoc	 *doc;
	struct frame		 *frame;	/* the open containers */
	size_t			  depth, framecap;
	struct crown_ynode	**kid;
	size_t			  nkid, kidcap;
};

static void *
arena_alloc(struct crown_ydoc *doc, size_t n)
{
	return crown_arena_alloc(&doc->arena, n, ARENA_ALIGN);
}

/* A node; a scalar's text (len bytes and a NUL) follows it in the arena. */
static struct crown_ynode *
new_node(struct crown_ydoc *doc, enum crown_ykind kind, yaml_mark_t mark,
    const unsigned char *text, size_t len)
{
	struct crown_ynode	*n;

	n = arena_alloc(doc, sizeof(*n) +
	    (kind == CROWN_Y_SCALAR ? len + 1 : 0));
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = (unsigned)mark.line + 1;
	n->col = (unsigned)mark.column + 1;
	if (kind == CROWN_Y_SCALAR) {
		n->str = (char *)(n + 1);
		if (len > 0)
			memcpy(n->str, text, len);
		n->str[len] = '\0';
		n->len = len;
	}
	return n;
}

/* Does the map key k read key (len bytes)?  Keys hold no NUL. */
static bool
key_is(const struct crown_ynode *k, const char *key, size_t len)
{
	return k->len == len && memcmp(k->str, key, len) == 0;
}

static int
cmp_keys(const void *a, const void *b)
{
	const struct crown_ynode *const *ka = a, *const *kb = b;
	int	r;

	r = strcmp((*ka)->str, (*kb)->str);
	if (r != 0)
		return r;
	/* later key second, so the duplicate reported is the later one */
	if ((*ka)->line != (*kb)->line)
		return (*ka)->line < (*kb)->line ? -1 : 1;
	return (*ka)->col < (*kb)->col ? -1 : (*ka)->col > (*kb)->col;
}

/* Keys up to which a map is searched for a duplicate pair by pair. */
#define SMALL_MAP	32

/*
 * Report keys given twice.  A small map (every map crown writes) with no
 * two keys alike is seen pair by pair; any other is sorted, so a huge map
 * costs n log n and the report is in the same order whatever the size.
 */
static int
check_duplicates(struct crown_ydoc *doc, struct crown_ynode *map,
    struct crown_diags *d)
{
	struct crown_ynode	**k;
	size_t			  i, j, first;
	int			  bad = 0;

	if (map->n < 2)
		return 0;
	if (map->n <= SMALL_MAP) {
		for (i = 1; i < map->n; i++)
			for (j = 0; j < i; j++)
				if (key_is(map->key[j], map->key[i]->str,
				    map->key[i]->len))
					goto sort;
		return 0;
	}
sort:
	k = xreallocarray(NULL, map->n, sizeof(*k));
	memcpy(k, map->key, map->n * sizeof(*k));
	qsort(k, map->n, sizeof(*k), cmp_keys);
	for (i = 1, first = 0; i < map->n; i++) {
		if (strcmp(k[first]->str, k[i]->str) != 0) {
			first = i;
			continue;
		}
		crown_diag_add(d, doc->file, k[i]->line, k[i]->col, NULL,
		    "duplicate key '%s' (first at line %u)", k[i]->str,
		    k[first]->line);
		bad = 1;
	}
	free(k);
	return bad;
}

/* Is the next node of the innermost open container a map's key? */
static bool
want_key(const struct builder *b)
{
	const struct frame	*f;

	if (b->depth == 0)
		return false;
	f = &b->frame[b->depth - 1];
	return f->node->kind == CROWN_Y_MAP && (b->nkid - f->base) % 2 == 0;
}

/* n becomes the next child of the innermost open container, or the root. */
static void
add_node(struct builder *b, struct crown_ynode *n)
{
	if (b->depth == 0) {
		b->doc->root = n;
		return;
	}
	if (b->nkid == b->kidcap)
		crown_grow(&b->kid, &b->kidcap, b->nkid + 1, sizeof(*b->kid));
	b->kid[b->nkid++] = n;
}

static void
open_container(struct builder *b, struct crown_ynode *n)
{
	crown_grow(&b->frame, &b->framecap, b->depth + 1, sizeof(*b->frame));
	b->frame[b->depth].node = n;
	b->frame[b->depth].base = b->nkid;
	b->depth++;
}

/* End the innermost container: its children move into the arena.  A map
 * ended early by an error drops a last key that has no value. */
static struct crown_ynode *
close_container(struct builder *b)
{
	struct frame		 *f = &b->frame[--b->depth];
	struct crown_ynode	 *n = f->node, **kid;
	size_t			  i, nkid = b->nkid - f->base;

	/* no stack yet when no container has had a child (NULL + 0 is
	 * undefined) */
	kid = b->kid != NULL ? b->kid + f->base : NULL;

	if (n->kind == CROWN_Y_MAP) {
		/* the keys, then the values, in one piece of the arena */
		n->n = nkid / 2;
		n->key = arena_alloc(b->doc, 2 * n->n * sizeof(*n->key));
		n->item = n->key + n->n;
		for (i = 0; i < n->n; i++) {
			n->key[i] = kid[2 * i];
			n->item[i] = kid[2 * i + 1];
		}
	} else {
		n->n = nkid;
		n->item = arena_alloc(b->doc, nkid * sizeof(*n->item));
		if (nkid > 0)
			memcpy(n->item, kid, nkid * sizeof(*n->item));
	}
	b->nkid = f->base;
	return n;
}

static bool
has_nul(const char *buf, size_t len)
{
	return memchr(buf, '\0', len) != NULL;
}

/*
 * Can a scalar of this style hold what the file does not?  libyaml's
 * reader refuses NUL and every control character but tab, CR, LF and NEL
 * (U+0085), and its scanner turns each line break it reads (CR, LF, CR LF,
 * NEL) into a newline: the text of a plain, single-quoted or block scalar
 * is the file's, so only a double-quoted one's escapes ("\0", "\e",
 * "\x9b") can make a NUL or a control character.  Any other style is
 * looked at.
 */
static bool
escapes(yaml_scalar_style_t style)
{
	return style != YAML_PLAIN_SCALAR_STYLE &&
	    style != YAML_SINGLE_QUOTED_SCALAR_STYLE &&
	    style != YAML_LITERAL_SCALAR_STYLE &&
	    style != YAML_FOLDED_SCALAR_STYLE;
}

/*
 * The first control character of a string (C0 but tab and newline, DEL,
 * C1) as a code point, or 0.  libyaml refuses them in the file but lets
 * escapes ("\e", "\x1b", "\u009b") make them; printed in a message on
 * the umpire's terminal they could rewrite it.  s is valid UTF-8.
 */
static unsigned
control_char(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	for (i = 0; i < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f)	/* most text */
			continue;
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') ||
		    p[i] == 0x7f)
			return p[i];
		if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
		    p[i + 1] <= 0x9f)
			return p[i + 1];
	}
	return 0;
}

/* Report a NUL or a control character in the scalar n's text. */
static bool
bad_text(const char *file, const struct crown_ynode *n, struct crown_diags *d)
{
	unsigned	cc;

	if (memchr(n->str, '\0', n->len) != NULL) {
		crown_diag_add(d, file, n->line, n->col, NULL,
		    "NUL character in a string");
		return true;
	}
	if ((cc = control_char(n->str, n->len)) != 0) {
		crown_diag_add(d, file, n->line, n->col, NULL,
		    "control character U+%04X in a string", cc);
		return true;
	}
	return false;
}

/* Every byte of s a printable ASCII character (no blank, no control). */
static bool
printable_ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s < 0x21 || *s > 0x7e)
			return false;
	return true;
}

/*
 * The tag written on a node ("!evil", "tag:yaml.org,2002:str" for
 * "!!str") and the anchor named on it, or NULL.  libyaml resolves no tags
 * of its own: a plain node has none.
 */
static void
event_props(const yaml_event_t *ev, const char **tag, const char **anchor)
{
	const yaml_char_t	*t = NULL, *a = NULL;

	if (ev->type == YAML_SCALAR_EVENT) {
		t = ev->data.scalar.tag;
		a = ev->data.scalar.anchor;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		t = ev->data.sequence_start.tag;
		a = ev->data.sequence_start.anchor;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		t = ev->data.mapping_start.tag;
		a = ev->data.mapping_start.anchor;
	}
	*tag = (const char *)t;
	*anchor = (const char *)a;
}

/*
 * libyaml's reader (encoding, control characters) gives a byte offset and
 * the bad byte or character rather than a mark: turn them into a place.
 * libyaml's offset of a sequence cut short is past its lead byte: the
 * place said is the first byte of the line that is not UTF-8.
 */
static void
reader_error(const yaml_parser_t *parser, const char *file, const char *buf,
    size_t len, struct crown_diags *d)
{
	const char	*bad;
	size_t		 off, ls;
	unsigned	 line, col;
	int		 v = parser->problem_value;

	off = parser->problem_offset < len ? parser->problem_offset : len;
	if (v >= 0 && parser->problem != NULL &&
	    strstr(parser->problem, "control") != NULL) {
		crown_text_place(buf, off, &line, &col);
		crown_diag_add(d, file, line, col, NULL, "control character "
		    "U+%04X: %s", (unsigned)v, parser->problem);
		return;
	}
	for (ls = off; ls > 0 && buf[ls - 1] != '\n'; ls--)
		;
	if (!g_utf8_validate(buf + ls, (gssize)(len - ls), &bad))
		off = (size_t)(bad - buf);
	crown_text_place(buf, off, &line, &col);
	crown_text_not_utf8(d, file, line, col, off < len ?
	    (unsigned char)buf[off] : 0);
}

/* A diagnostic at an event's place. */
static void
event_error(struct crown_diags *d, const char *file, const yaml_event_t *ev,
    const char *msg)
{
	crown_diag_add(d, file, (unsigned)ev->start_mark.line + 1,
	    (unsigned)ev->start_mark.column + 1, NULL, "%s", msg);
}

/*
 * libyaml's problems in words a player can act on: the problem (and,
 * where it matters, the context) it says, the sentence said instead, and
 * whether the place to mend is where libyaml began the thing it could
 * not finish (the context's mark: the key without its ':', the '[' or
 * the quote never closed) rather than where it gave up.  hint names what
 * the column of the context is (the keys or the items above).
 */
static const struct yaml_problem {
	const char	*problem;
	const char	*context;	/* NULL: any */
	bool		 at_context;
	const char	*hint;
	const char	*say;
} yaml_problems[] = {
	{ "could not find expected ':'", NULL, true, NULL,
	    "this line is neither 'key: value' nor '- item': a ':' is "
	    "missing, here or at the end of the line above" },
	{ "mapping values are not allowed in this context", NULL, false, NULL,
	    "a ':' where no key can begin: a second ': ' on one line (put "
	    "the text in quotes), a line indented deeper than the keys above "
	    "it, or a ':' missing in the line above" },
	{ "block sequence entries are not allowed in this context", NULL,
	    false, NULL, "a '- ' item cannot begin here: begin a list on a "
	    "line of its own, under its key" },
	{ "mapping keys are not allowed in this context", NULL, false, NULL,
	    "a '? ' cannot begin a key here: write 'key: value'" },
	{ "did not find expected key", NULL, false, "the keys above",
	    "this does not fit the map above: line each key up with the keys "
	    "before it, and put nothing after a value in quotes or brackets" },
	{ "did not find expected '-' indicator", NULL, false,
	    "the items above",
	    "this line does not fit the list above: each item begins with "
	    "'- ', lined up with the items before it" },
	{ "did not find expected ',' or ']'", NULL, true, NULL,
	    "the list opened with '[' here is not closed: separate its items "
	    "with ',' and end it with ']'" },
	{ "did not find expected ',' or '}'", NULL, true, NULL,
	    "the map opened with '{' here is not closed: separate its entries "
	    "with ',' and end it with '}'" },
	{ "did not find expected node content", NULL, false, NULL,
	    "a value is missing here" },
	{ "found unexpected end of stream", "while scanning a quoted scalar",
	    true, NULL, "the quotation that begins here is not closed: end it "
	    "with the same quote mark" },
	{ "found unexpected document indicator", NULL, true, NULL,
	    "the quotation that begins here is not closed before a line '---' "
	    "or '...': end it with the same quote mark" },
	{ "found unknown escape character", NULL, false, NULL,
	    "a '\\' in double quotes begins an escape YAML does not know: "
	    "write '\\\\' for a backslash, or use single quotes" },
	{ "did not find expected hexdecimal number", NULL, false, NULL,
	    "a '\\x', '\\u' or '\\U' in double quotes needs hex digits after "
	    "it: use single quotes for text with a '\\'" },
	{ "found invalid Unicode character escape code", NULL, false, NULL,
	    "a '\\u' or '\\U' in double quotes names no character: use single "
	    "quotes for text with a '\\'" },
	{ "found character that cannot start any token", NULL, false, NULL,
	    "a value cannot begin with this character: put the value in "
	    "quotes" },
	{ "did not find expected comment or line break", NULL, false, NULL,
	    "text where the line should end: remove it, or put the whole "
	    "value in quotes" },
	{ "found unexpected ':'", NULL, false, NULL,
	    "a ':' inside a value: put the value in quotes" },
	{ "did not find expected alphabetic or numeric character", NULL, true,
	    NULL, "a value cannot begin with '&' or '*': put it in quotes" },
	{ "did not find the expected '>'", NULL, true, NULL,
	    "a value cannot begin with '!': put it in quotes" },
	{ "did not find expected '!'", NULL, true, NULL,
	    "a value cannot begin with '!': put it in quotes" },
	{ "did not find expected tag URI", NULL, true, NULL,
	    "a value cannot begin with '!': put it in quotes" },
	{ "found undefined tag handle", NULL, true, NULL,
	    "a value cannot begin with '!': put it in quotes" },
	{ "found unknown directive name", NULL, true, NULL,
	    "a line cannot begin with '%': put it in quotes" },
	{ "could not find expected directive name", NULL, true, NULL,
	    "a line cannot begin with '%': put it in quotes" },
	{ "did not find expected <document start>", NULL, false, NULL,
	    "text after the end of the document (a line '...'): remove it, "
	    "one document only" },
	{ "found an indentation indicator equal to 0", NULL, false, NULL,
	    "after '|' or '>', the indentation is a digit from 1 to 9" },
};

/* libyaml's complaints of a tab where it needs a space. */
static bool
tab_problem(const char *problem)
{
	return strstr(problem, "tab character") != NULL ||
	    strcmp(problem, "found character that cannot start any token") ==
	    0;
}

/* The byte where line:col (from 1, col in characters) of buf is; len
 * when it is past the end. */
static size_t
place_offset(const char *buf, size_t len, unsigned line, unsigned col)
{
	size_t		i = 0;
	unsigned	l = 1, c = 1;

	while (i < len && l < line)
		if (buf[i++] == '\n')
			l++;
	for (; i < len && c < col && buf[i] != '\n'; i++)
		if (((unsigned char)buf[i] & 0xc0) != 0x80)
			c++;
	return i;
}

/*
 * A tab in the indentation of line (from 1): its column, or 0.  A tab
 * anywhere before the first text of the line counts.
 */
static unsigned
indent_tab(const char *buf, size_t len, unsigned line)
{
	size_t		i = place_offset(buf, len, line, 1);
	unsigned	col = 1;

	for (; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++, col++)
		if (buf[i] == '\t')
			return col;
	return 0;
}

/* The column of the first character of line that is not a blank. */
static unsigned
first_text(const char *buf, size_t len, unsigned line)
{
	size_t		i = place_offset(buf, len, line, 1);
	unsigned	col = 1;

	for (; i < len && (buf[i] == ' ' || buf[i] == '\t'); i++)
		col++;
	return col;
}

static bool
blank_line(const char *buf, size_t len, unsigned line)
{
	size_t	i;

	i = place_offset(buf, len, line, first_text(buf, len, line));

	return i >= len || buf[i] == '\n' || buf[i] == '\r';
}

/*
 * No ':' before col on line, nor on the last line above it that is not
 * blank: what comes before the ':' at col began there, a key whose ':'
 * was left out ("- unit 2-militia" above "  actions: [hold]").
 */
static bool
colon_missing_above(const char *buf, size_t len, unsigned line,
    unsigned col)
{
	size_t	a, e;

	a = place_offset(buf, len, line, 1);
	e = place_offset(buf, len, line, col);
	if (memchr(buf + a, ':', e - a) != NULL)
		return false;
	while (--line > 0 && blank_line(buf, len, line))
		;
	if (line == 0)
		return false;
	a = place_offset(buf, len, line, 1);
	for (e = a; e < len && buf[e] != '\n'; e++)
		;
	return memchr(buf + a, ':', e - a) == NULL &&
	    memchr(buf + a, '#', e - a) == NULL;
}

/* What the parser says when it stops: 0, or CROWN_EINVALID (CROWN_ERROR
 * when out of memory) with the diagnostic. */
static int
parser_error(const yaml_parser_t *parser, const char *file, const char *buf,
    size_t len, struct crown_diags *d)
{
	const struct yaml_problem	*p = NULL;
	const char			*problem;
	size_t				 i, k;
	unsigned			 line, col, tab;

	if (parser->error == YAML_MEMORY_ERROR) {
		crown_diag_add(d, file, 0, 0, NULL, "out of memory");
		return CROWN_ERROR;
	}
	if (parser->error == YAML_READER_ERROR) {
		reader_error(parser, file, buf, len, d);
		return CROWN_EINVALID;
	}
	problem = parser->problem != NULL ? parser->problem : "bad YAML";
	line = (unsigned)parser->problem_mark.line + 1;
	col = (unsigned)parser->problem_mark.column + 1;
	/* a tab where a space must be: at the mark, or in the indentation
	 * of the line libyaml stopped on, or of the key it began */
	if (tab_problem(problem) || strcmp(problem, "could not find "
	    "expected ':'") == 0) {
		if ((tab = indent_tab(buf, len, line)) == 0 &&
		    parser->context != NULL &&
		    (tab = indent_tab(buf, len, (unsigned)
		    parser->context_mark.line + 1)) != 0)
			line = (unsigned)parser->context_mark.line + 1;
		if (tab != 0) {
			crown_diag_add(d, file, line, tab, NULL, "YAML "
			    "syntax: a tab indents this line: use spaces, "
			    "not tabs, to indent");
			return CROWN_EINVALID;
		}
	}
	/* "KEY VALUE" without its ':' runs on into the next line's "key:"
	 * as one text: the line to mend is the one above */
	if (strcmp(problem, "mapping values are not allowed in this "
	    "context") == 0 && colon_missing_above(buf, len, line, col)) {
		problem = "could not find expected ':'";
		while (--line > 1 && blank_line(buf, len, line))
			;
		col = first_text(buf, len, line);
	}
	for (i = 0; i < CROWN_NELEM(yaml_problems) && p == NULL; i++)
		if (strcmp(yaml_problems[i].problem, problem) == 0 &&
		    (yaml_problems[i].context == NULL ||
		    (parser->context != NULL &&
		    strcmp(yaml_problems[i].context, parser->context) == 0)))
			p = &yaml_problems[i];
	if (p == NULL) {
		crown_diag_add(d, file, line, col, NULL, "YAML syntax: %s%s%s",
		    problem, parser->context ? " " : "",
		    parser->context ? parser->context : "");
		return CROWN_EINVALID;
	}
	/* a bracket of the other kind closes what was not opened: said at
	 * the bracket, not where the list or map began */
	if (p->at_context && parser->context != NULL && (k = place_offset(buf,
	    len, line, col)) < len && (buf[k] == ']' || buf[k] == '}') &&
	    strchr(p->problem, buf[k]) == NULL) {
		crown_diag_add(d, file, line, col, NULL, "YAML syntax: a '%c' "
		    "here, but the %s open since line %u, column %u ends with "
		    "'%c'", buf[k], buf[k] == ']' ? "map" : "list",
		    (unsigned)parser->context_mark.line + 1,
		    (unsigned)parser->context_mark.column + 1,
		    buf[k] == ']' ? '}' : ']');
		return CROWN_EINVALID;
	}
	if (p->at_context && parser->context != NULL) {
		line = (unsigned)parser->context_mark.line + 1;
		col = (unsigned)parser->context_mark.column + 1;
	}
	if (p->hint != NULL && parser->context != NULL)
		crown_diag_add(d, file, line, col, NULL, "YAML syntax: %s (%s "
		    "begin at column %u)", p->say, p->hint,
		    (unsigned)parser->context_mark.column + 1);
	else
		crown_diag_add(d, file, line, col, NULL, "YAML syntax: %s",
		    p->say);
	return CROWN_EINVALID;
}

/* A node's event (a scalar, or the start of a sequence or map) into the
 * tree: 0, or CROWN_EINVALID with a diagnostic. */
static int
node_event(struct builder *b, const yaml_event_t *ev, size_t *nodes,
    const struct crown_ylimits *lim, struct crown_diags *d)
{
	struct crown_ydoc	*doc = b->doc;
	struct crown_ynode	*n;
	const char		*tag, *anchor;

	event_props(ev, &tag, &anchor);
	if (tag != NULL) {
		/* libyaml has decoded the tag's %XX: show it only when it
		 * is plain printable ASCII */
		crown_diag_add(d, doc->file, (unsigned)ev->start_mark.line + 1,
		    (unsigned)ev->start_mark.column + 1, NULL,
		    "YAML tags are not allowed%s%s%s",
		    printable_ascii(tag) ? " ('" : "",
		    printable_ascii(tag) ? tag : "",
		    printable_ascii(tag) ? "')" : "");
		return CROWN_EINVALID;
	}
	if (anchor != NULL) {
		event_error(d, doc->file, ev, "YAML anchors are not allowed");
		return CROWN_EINVALID;
	}
	if (lim != NULL && ++*nodes > lim->max_nodes) {
		crown_diag_add(d, doc->file, (unsigned)ev->start_mark.line + 1,
		    (unsigned)ev->start_mark.column + 1, NULL,
		    "more than %zu YAML nodes", lim->max_nodes);
		return CROWN_EINVALID;
	}
	if (ev->type == YAML_SCALAR_EVENT) {
		n = new_node(doc, CROWN_Y_SCALAR, ev->start_mark,
		    ev->data.scalar.value, ev->data.scalar.length);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if (escapes(ev->data.scalar.style) && bad_text(doc->file, n,
		    d))
			return CROWN_EINVALID;
	} else
		n = new_node(doc, ev->type == YAML_MAPPING_START_EVENT ?
		    CROWN_Y_MAP : CROWN_Y_SEQ, ev->start_mark, NULL, 0);
	if (n->kind != CROWN_Y_SCALAR && want_key(b)) {
		crown_diag_add(d, doc->file, n->line, n->col, NULL,
		    "map keys must be plain strings");
		return CROWN_EINVALID;
	}
	add_node(b, n);
	if (n->kind == CROWN_Y_SCALAR)
		return 0;
	if (lim != NULL && b->depth >= lim->max_depth) {
		crown_diag_add(d, doc->file, n->line, n->col, NULL,
		    "nesting deeper than %u levels", lim->max_depth);
		return CROWN_EINVALID;
	}
	open_container(b, n);
	return 0;
}

/* One event of the stream into the tree: 0, or CROWN_EINVALID with a
 * diagnostic; *done at the stream's end. */
static int
take_event(struct builder *b, const yaml_event_t *ev, unsigned *docs,
    size_t *nodes, const struct crown_ylimits *lim, bool *done,
    struct crown_diags *d)
{
	struct crown_ynode	*n;

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		*done = true;
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		if (++*docs > 1) {
			event_error(d, b->doc->file, ev,
			    "only one YAML document is allowed");
			return CROWN_EINVALID;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		event_error(d, b->doc->file, ev,
		    "YAML aliases are not allowed");
		return CROWN_EINVALID;
	case YAML_SCALAR_EVENT:
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return node_event(b, ev, nodes, lim, d);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		n = close_container(b);
		if (n->kind == CROWN_Y_MAP && check_duplicates(b->doc, n, d))
			return CROWN_EINVALID;
		return 0;
	default:
		return 0;
	}
}

/* What is refused before libyaml sees the text: over the size limit,
 * UTF-16, or a NUL byte.  0, or CROWN_EINVALID with a diagnostic. */
static int
check_text(const char *file, const char *buf, size_t len,
    const struct crown_ylimits *lim, struct crown_diags *d)
{
	const char	*z;
	unsigned	 line, col;

	if (lim != NULL && len > lim->max_bytes) {
		crown_text_place(buf, lim->max_bytes, &line, &col);
		crown_diag_add(d, file, line, col, NULL,
		    "file is %zu bytes, over the limit of %zu", len,
		    lim->max_bytes);
		return CROWN_EINVALID;
	}
	if (crown_text_check_encoding(file, buf, len, d) != 0)
		return CROWN_EINVALID;
	if (has_nul(buf, len)) {
		z = memchr(buf, '\0', len);
		crown_text_place(buf, (size_t)(z - buf), &line, &col);
		crown_diag_add(d, file, line, col, NULL,
		    "NUL byte in a text file");
		return CROWN_EINVALID;
	}
	return 0;
}

int
crown_ydoc_parse(struct crown_ydoc **out, const char *file, const char *buf,
    size_t len, const struct crown_ylimits *lim, struct crown_diags *d)
{
	yaml_parser_t		 parser;
	yaml_event_t		 ev;
	struct crown_ydoc	*doc;
	struct builder		 b = { 0 };
	size_t			 nodes = 0, from;
	unsigned		 docs = 0;
	int			 error = 0;
	bool			 done = false;

	*out = NULL;
	if ((error = check_text(file, buf, len, lim, d)) != 0)
		return error;
	from = d->n;
	if ((error = crown_text_check_blanks(file, buf, len, d)) != 0) {
		crown_diags_quote(d, from, buf, len);
		return error;
	}
	doc = xcalloc(1, sizeof(*doc));
	crown_arena_init(&doc->arena, ARENA_CHUNK, ARENA_CHUNK);
	doc->file = xstrdup(file);
	b.doc = doc;
	if (!yaml_parser_initialize(&parser)) {
		crown_diag_add(d, file, 0, 0, NULL, "out of memory");
		crown_ydoc_free(doc);
		return CROWN_ERROR;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (!done && error == 0) {
		if (!yaml_parser_parse(&parser, &ev)) {
			error = parser_error(&parser, file, buf, len, d);
			break;
		}
		error = take_event(&b, &ev, &docs, &nodes, lim, &done, d);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	while (b.depth > 0)
		close_container(&b);
	free(b.frame);
	free(b.kid);
	if (error == 0 && doc->root == NULL) {
		crown_diag_add(d, file, 1, 1, NULL, "empty document");
		error = CROWN_EINVALID;
	}
	if (error != 0) {
		crown_diags_quote(d, from, buf, len);
		crown_ydoc_free(doc);
		return error;
	}
	*out = doc;
	return 0;
}

int
crown_read_file(char **out, size_t *len, const char *path, size_t max,
    struct crown_diags *d)
{
	FILE		*fp;
	struct stat	 st;
	struct crown_buf b = { 0 };
	char		 chunk[65536];
	size_t		 n;

	*out = NULL;
	*len = 0;
	if ((fp = fopen(path, "rb")) == NULL) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot open: %s",
		    strerror(errno));
		return CROWN_ENOTFOUND;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(fp);
		crown_diag_add(d, path, 0, 0, NULL,
		    "is a directory, not a file");
		return CROWN_ENOTFOUND;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		if (max > 0 && b.len + n > max) {
			unsigned line, col;

			/* the place of the first byte past the limit */
			crown_buf_add(&b, chunk, max - b.len + 1);
			crown_text_place(b.data, max, &line, &col);
			fclose(fp);
			crown_buf_release(&b);
			crown_diag_add(d, path, line, col, NULL,
			    "file is over the limit of %zu bytes", max);
			return CROWN_EINVALID;
		}
		crown_buf_add(&b, chunk, n);
	}
	if (ferror(fp)) {
		fclose(fp);
		crown_buf_release(&b);
		crown_diag_add(d, path, 0, 0, NULL, "read error: %s",
		    strerror(errno));
		return CROWN_ENOTFOUND;
	}
	fclose(fp);
	if (b.data == NULL)
		crown_buf_add(&b, "", 0);
	*out = b.data;
	*len = b.len;
	return 0;
}

int
crown_ydoc_load(struct crown_ydoc **out, const char *path,
    const struct crown_ylimits *lim, struct crown_diags *d)
{
	char	*buf;
	size_t	 len;
	int	 error;

	*out = NULL;
	error = crown_read_file(&buf, &len, path,
	    lim != NULL ? lim->max_bytes : 0, d);
	if (error != 0)
		return error;
	error = crown_ydoc_parse(out, path, buf, len, lim, d);
	free(buf);
	return error;
}

const struct crown_ynode *
crown_ydoc_root(const struct crown_ydoc *doc)
{
	return doc->root;
}

const char *
crown_ydoc_file(const struct crown_ydoc *doc)
{
	return doc->file;
}

void
crown_ydoc_free(struct crown_ydoc *doc)
{
	if (doc == NULL)
		return;
	crown_arena_release(&doc->arena);
	free(doc->file);
	free(doc);
}

/* Typed reading. */

void
crown_yerror(struct crown_yreader *r, const struct crown_ynode *n,
    const char *rule, const char *fmt, ...)
{
	char	*msg;
	va_list	 ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	crown_diag_add(r->diags, r->file, n != NULL ? n->line : 0,
	    n != NULL ? n->col : 0, rule, "%s", msg);
	free(msg);
	r->errors++;
}

static const struct crown_ynode *
map_get(const struct crown_ynode *map, const char *key)
{
	size_t	i, len;

	if (map == NULL || map->kind != CROWN_Y_MAP)
		return NULL;
	len = strlen(key);
	for (i = 0; i < map->n; i++)
		if (key_is(map->key[i], key, len))
			return map->item[i];
	return NULL;
}

const struct crown_ynode *
crown_ymap_get(const struct crown_ynode *map, const char *key)
{
	return map_get(map, key);
}

const struct crown_ynode *
crown_ymap_key_of(const struct crown_ynode *map, const struct crown_ynode *v)
{
	size_t	i;

	if (map == NULL || map->kind != CROWN_Y_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (map->item[i] == v)
			return map->key[i];
	return NULL;
}

bool
crown_yis_null(const struct crown_ynode *n)
{
	return n == NULL || (n->kind == CROWN_Y_SCALAR && n->plain &&
	    (n->len == 0 || strcmp(n->str, "~") == 0 ||
	    strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	    strcmp(n->str, "NULL") == 0));
}

static const char *
kind_name(enum crown_ykind k)
{
	switch (k) {
	case CROWN_Y_SCALAR:
		return "a single value";
	case CROWN_Y_SEQ:
		return "a list";
	default:
		return "a map";
	}
}

int
crown_ykind(struct crown_yreader *r, const struct crown_ynode *n,
    enum crown_ykind kind, const char *what, const char *rule)
{
	if (n != NULL && n->kind == kind)
		return 0;
	crown_yerror(r, n, rule, "'%s' must be %s, not %s", what,
	    kind_name(kind), n != NULL ? kind_name(n->kind) : "missing");
	return CROWN_EINVALID;
}

/* Is k one of keys (a NULL-terminated list)? */
static bool
known_key(const char *const *keys, const struct crown_ynode *k)
{
	const char *const	*p;

	for (p = keys; *p != NULL; p++)
		if (strcmp(*p, k->str) == 0)
			return true;
	return false;
}

int
crown_ykeys(struct crown_yreader *r, const struct crown_ynode *map,
    const char *const *keys, const char *rule)
{
	size_t	i;
	int	bad = 0;

	if (map == NULL || map->kind != CROWN_Y_MAP)
		return 0;
	for (i = 0; i < map->n; i++)
		if (!known_key(keys, map->key[i])) {
			crown_yerror(r, map->key[i], rule, "unknown key '%s'",
			    map->key[i]->str);
			bad = CROWN_EINVALID;
		}
	return bad;
}

const struct crown_ynode *
crown_yrequire(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, const char *rule)
{
	const struct crown_ynode *v;

	v = map_get(map, key);
	if (v == NULL)
		crown_yerror(r, map, rule, "missing key '%s'", key);
	return v;
}

static int
scalar(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, const char *want, const char *rule)
{
	if (n != NULL && n->kind == CROWN_Y_SCALAR)
		return 0;
	crown_yerror(r, n, rule, "'%s' must be %s, not %s", what, want,
	    n != NULL ? kind_name(n->kind) : "missing");
	return CROWN_EINVALID;
}

int
crown_yint(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, long lo, long hi, const char *rule, long *out)
{
	char	*end;
	long	 v;
	bool	 over;

	if (scalar(r, n, what, "a whole number", rule) != 0)
		return CROWN_EINVALID;
	errno = 0;
	v = strtol(n->str, &end, 10);
	if (!n->plain || n->len == 0 || *end != '\0' ||
	    (n->str[0] != '-' && n->str[0] != '+' &&
	    (n->str[0] < '0' || n->str[0] > '9'))) {
		crown_yerror(r, n, rule, "'%s' must be a whole number, not "
		    "'%s'", what, n->str);
		return CROWN_EINVALID;
	}
	over = errno == ERANGE;
	if (over || v < lo || v > hi) {
		crown_yerror(r, n, rule, "'%s' must be from %ld to %ld, not "
		    "%s", what, lo, hi, n->str);
		return CROWN_EINVALID;
	}
	*out = v;
	return 0;
}

int
crown_ynum(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, double lo, double hi, const char *rule, double *out)
{
	char	*end;
	double	 v;
	size_t	 i;
	bool	 over;

	if (scalar(r, n, what, "a number", rule) != 0)
		return CROWN_EINVALID;
	/* decimal notation only: no hex floats, inf or nan */
	for (i = 0; i < n->len; i++)
		if (strchr("0123456789+-.eE", n->str[i]) == NULL)
			break;
	errno = 0;
	v = strtod(n->str, &end);
	if (!n->plain || n->len == 0 || i != n->len || *end != '\0') {
		crown_yerror(r, n, rule, "'%s' must be a number, not '%s'",
		    what, n->str);
		return CROWN_EINVALID;
	}
	/* strtod says ERANGE for a value below DBL_MIN too: that one is a
	 * number as good as zero, and in range if zero is */
	over = errno == ERANGE && fabs(v) > DBL_MIN;
	if (over || !(v >= lo && v <= hi)) {
		crown_yerror(r, n, rule, "'%s' must be from %g to %g, not %s",
		    what, lo, hi, n->str);
		return CROWN_EINVALID;
	}
	*out = v;
	return 0;
}

int
crown_ybool(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, const char *rule, bool *out)
{
	if (scalar(r, n, what, "true or false", rule) != 0)
		return CROWN_EINVALID;
	if (n->plain && (strcmp(n->str, "true") == 0 ||
	    strcmp(n->str, "True") == 0 || strcmp(n->str, "TRUE") == 0)) {
		*out = true;
		return 0;
	}
	if (n->plain && (strcmp(n->str, "false") == 0 ||
	    strcmp(n->str, "False") == 0 || strcmp(n->str, "FALSE") == 0)) {
		*out = false;
		return 0;
	}
	crown_yerror(r, n, rule, "'%s' must be true or false, not '%s'",
	    what, n->str);
	return CROWN_EINVALID;
}

int
crown_ystr(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, const char *rule, const char **out)
{
	if (scalar(r, n, what, "text", rule) != 0)
		return CROWN_EINVALID;
	*out = n->str;
	return 0;
}

/* The longest id. */
#define ID_MAX	32

static bool
id_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/*
 * [a-z0-9][a-z0-9_-]{0,31}: a class of characters and a length, checked
 * as such (a pattern library would add an initialisation that can fail
 * to a predicate that cannot).
 */
bool
crown_id_valid(const char *s)
{
	size_t	i;

	if (!id_start(s[0]))
		return false;
	for (i = 1; s[i] != '\0'; i++)
		if (i >= ID_MAX || !(id_start(s[i]) || s[i] == '_' ||
		    s[i] == '-'))
			return false;
	return true;
}

int
crown_yid(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, const char *rule, const char **out)
{
	if (scalar(r, n, what, "an id", rule) != 0)
		return CROWN_EINVALID;
	if (n->len != strlen(n->str) || !crown_id_valid(n->str)) {
		crown_yerror(r, n, rule, "'%s' is not a valid id: '%s' (ids "
		    "are 1-32 of a-z 0-9 _ -, starting with a letter or "
		    "digit)", what, n->str);
		return CROWN_EINVALID;
	}
	*out = n->str;
	return 0;
}

int
crown_yenum(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, const char *const *names, int count, const char *rule,
    int *out)
{
	struct crown_buf	b = { 0 };
	int			i;

	if (scalar(r, n, what, "a name", rule) != 0)
		return CROWN_EINVALID;
	for (i = 0; i < count; i++)
		if (names[i] != NULL && names[i][0] == n->str[0] &&
		    strcmp(names[i], n->str) == 0) {
			*out = i;
			return 0;
		}
	for (i = 0; i < count; i++)
		if (names[i] != NULL)
			crown_buf_printf(&b, "%s%s", b.len ? ", " : "",
			    names[i]);
	crown_yerror(r, n, rule, "unknown %s '%s' (one of: %s)", what, n->str,
	    b.data);
	crown_buf_release(&b);
	return CROWN_EINVALID;
}

int
crown_yfield_int(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, long lo, long hi, const char *rule,
    long *out)
{
	const struct crown_ynode *v = map_get(map, key);

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	return crown_yint(r, v, key, lo, hi, rule, out);
}

int
crown_yfield_num(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, double lo, double hi, const char *rule,
    double *out)
{
	const struct crown_ynode *v = map_get(map, key);

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	return crown_ynum(r, v, key, lo, hi, rule, out);
}

int
crown_yfield_bool(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, const char *rule, bool *out)
{
	const struct crown_ynode *v = map_get(map, key);

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	return crown_ybool(r, v, key, rule, out);
}

int
crown_yfield_str(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, const char *rule, char **out)
{
	const struct crown_ynode *v = map_get(map, key);
	const char		 *s;

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	if (crown_ystr(r, v, key, rule, &s) != 0)
		return CROWN_EINVALID;
	free(*out);
	*out = xstrdup(s);
	return 0;
}

int
crown_yfield_name(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, char **out)
{
	const struct crown_ynode *v = map_get(map, key);
	const char		 *s;
	unsigned long		  c;

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, NULL),
		    CROWN_EINVALID) : 0;
	if (crown_ystr(r, v, key, NULL, &s) != 0)
		return CROWN_EINVALID;
	/* a name goes into commit subjects, mail headers and reports */
	if ((c = crown_diag_unsafe_in(s, v->len, NULL)) != 0) {
		crown_yerror(r, v, NULL, "'%s' holds U+%04lX, %s: a name is "
		    "one line of plain text", key, c, c < 0x20 ||
		    (c >= 0x7f && c <= 0x9f) ? "a control character" :
		    "a bidirectional control");
		return CROWN_EINVALID;
	}
	free(*out);
	*out = xstrdup(s);
	return 0;
}

int
crown_yfield_id(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, const char *rule, char **out)
{
	const struct crown_ynode *v = map_get(map, key);
	const char		 *s;

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	if (crown_yid(r, v, key, rule, &s) != 0)
		return CROWN_EINVALID;
	free(*out);
	*out = xstrdup(s);
	return 0;
}

int
crown_yfield_enum(struct crown_yreader *r, const struct crown_ynode *map,
    const char *key, bool required, const char *const *names, int count,
    const char *rule, int *out)
{
	const struct crown_ynode *v = map_get(map, key);

	if (v == NULL)
		return required ? (crown_yrequire(r, map, key, rule),
		    CROWN_EINVALID) : 0;
	return crown_yenum(r, v, key, names, count, rule, out);
}
