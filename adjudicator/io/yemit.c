/*
 * yemit.c: deterministic YAML output into a crown_buf, so callers can
 * compare it, hash it or write it atomically.  Strings that would read
 * back as another type (numbers, booleans, null) are double-quoted.
 *
 * Two writers of the same bytes.  The direct one is crown's: it writes
 * the text itself, with the layout and the choice of quoting that
 * libyaml's emitter makes for these settings (block style, indent 2, no
 * line width, UTF-8 kept, implicit document), because states and event
 * logs are compared byte for byte across versions and campaigns.  It
 * exists because going through yaml_emitter_t cost about 1,400
 * instructions an event (its analysis of every scalar, a write call per
 * character, an allocation per event), a third of a large turn.  The
 * reference writer is libyaml's emitter itself; tests emit through both
 * and compare (crown_yemit_use_reference), and the loader (libyaml) reads
 * everything back.
 *
 * What the direct writer follows of libyaml, per node: the context (root,
 * item of a sequence, key or value of a mapping, flow level); a
 * collection with nothing in it is written in flow style ("[]"); a block
 * sequence that is a mapping's value is not indented; a key is simple
 * ("k: v") unless longer than 128 bytes or multiline; a scalar is plain
 * if its characters allow it in its context, else single-quoted, else
 * double-quoted with escapes (libyaml's analysis of leading and trailing
 * blanks, indicators, breaks and printable characters, which treats a
 * tab or a character beyond U+FFFF as needing escapes).
 *
 * Most of what crown writes comes through the shorthands ("k: v",
 * crown_yemit_kstr and the like), and they take a shorter way to the same
 * bytes: a key's analysis is remembered by its address (struct keymemo),
 * crown's own numbers and words are known to be plain (A_WORD), and a
 * pair of plain scalars after the first of a mapping is written at once
 * (direct_pair).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A scalar's style, as libyaml's emitter chooses it. */
enum style {
	S_ANY,
	S_PLAIN,
	S_SINGLE,
	S_DOUBLE
};

/*
 * A key of the k* shorthands as the direct writer last found it at that
 * address: its length, analysis and style.  Keys are nearly all string
 * literals, a few dozen written again and again; the bytes are kept to
 * tell that a key built in a buffer has not changed since.
 */
#define NKEYS_BITS	7
#define NKEYS		(1 << NKEYS_BITS)
struct keymemo {
	const char	*p;
	char		 bytes[23];	/* the key and its NUL */
	unsigned char	 len;
	unsigned char	 a;
	unsigned char	 style;
};

/* An open collection of the direct writer. */
struct frame {
	char	kind;		/* 's' sequence, 'm' mapping */
	bool	flow;
	bool	first;		/* nothing in it yet */
	bool	want_value;	/* a mapping: its key is written */
	bool	simple;		/* ... as a simple key */
	bool	mapping_ctx;	/* it is a mapping's value */
};

struct crown_yemit {
	struct crown_buf	*out;
	int			 failed;
	bool			 reference;	/* libyaml's emitter */
	/* the reference */
	yaml_emitter_t		 emitter;
	struct crown_buf	 open;		/* 'm', 's', innermost last */
	/* the direct writer: libyaml's state, for these settings */
	int			 indent;
	int			*indents;
	size_t			 nindents, capindents;
	int			 flow_level;
	long			 column;
	bool			 whitespace, indention;
	bool			 mapping_ctx, simple_key_ctx;
	struct frame		*frames;
	size_t			 nframes, capframes;
	/* a collection begun but not written: empty or not, the next call
	 * says (libyaml looks ahead the same way) */
	char			 pending;
	bool			 pending_flow;
	struct keymemo		 keys[NKEYS];
};

static bool	use_reference;

/* inline in direct_scalar: a call's own cost is a tenth of a short
 * scalar's, and a large turn writes 200,000 of them */
static inline void direct_node_begin(struct crown_yemit *, bool scalar,
		    const char *s, size_t len, bool multiline)
		    __attribute__((always_inline));
/* inline in its three callers: the call cost about 19 instructions, a
 * fifth of an average analysis */
static inline unsigned analyze_ascii(const unsigned char *, size_t)
		    __attribute__((always_inline));
static void	direct_flush_pending(struct crown_yemit *, bool empty);

void
crown_yemit_use_reference(bool on)
{
	use_reference = on;
}

/*
 * The reference: libyaml's emitter.
 */

static int
write_handler(void *data, unsigned char *buf, size_t size)
{
	struct crown_yemit *e = data;

	crown_buf_add(e->out, buf, size);
	return 1;
}

static void
emit(struct crown_yemit *e, yaml_event_t *ev)
{
	if (e->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&e->emitter, ev))
		e->failed = 1;
}

static void
ref_new(struct crown_yemit *e)
{
	yaml_event_t	ev;

	if (!yaml_emitter_initialize(&e->emitter)) {
		fputs("crown: out of memory\n", stderr);
		exit(CROWN_EXIT_INTERNAL);
	}
	yaml_emitter_set_output(&e->emitter, write_handler, e);
	yaml_emitter_set_unicode(&e->emitter, 1);
	yaml_emitter_set_width(&e->emitter, -1);
	yaml_emitter_set_indent(&e->emitter, 2);
	yaml_emitter_set_break(&e->emitter, YAML_LN_BREAK);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	emit(e, &ev);
}

static void
ref_scalar(struct crown_yemit *e, const char *s, size_t len,
    enum style style)
{
	static const yaml_scalar_style_t styles[] = {
		[S_ANY] = YAML_ANY_SCALAR_STYLE,
		[S_PLAIN] = YAML_PLAIN_SCALAR_STYLE,
		[S_SINGLE] = YAML_SINGLE_QUOTED_SCALAR_STYLE,
		[S_DOUBLE] = YAML_DOUBLE_QUOTED_SCALAR_STYLE
	};
	yaml_event_t	ev;

	if (len > INT_MAX || !yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)s, (int)len, 1, 1, styles[style])) {
		e->failed = 1;
		return;
	}
	emit(e, &ev);
}

/*
 * The direct writer.
 */

/* Bytes of the UTF-8 character that starts with c (1 for a bad byte, as
 * libyaml's WIDTH gives 0 and the loader refuses such text anyway). */
static size_t
u8width(unsigned char c)
{
	return (c & 0x80) == 0 ? 1 : (c & 0xe0) == 0xc0 ? 2 :
	    (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
}

/* libyaml's IS_PRINTABLE: tab and anything beyond U+FFFF are not. */
static bool
printable(const unsigned char *p)
{
	return p[0] == 0x0a || (p[0] >= 0x20 && p[0] <= 0x7e) ||
	    (p[0] == 0xc2 && p[1] >= 0xa0) || (p[0] > 0xc2 && p[0] < 0xed) ||
	    (p[0] == 0xed && p[1] < 0xa0) || p[0] == 0xee ||
	    (p[0] == 0xef && !(p[1] == 0xbb && p[2] == 0xbf) &&
	    !(p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)));
}

/* CR, LF, NEL, LS, PS. */
static bool
is_break(const unsigned char *p)
{
	return p[0] == '\r' || p[0] == '\n' || (p[0] == 0xc2 &&
	    p[1] == 0x85) || (p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0xa8 || p[2] == 0xa9));
}

/* Blank, break or the end (the byte after the last is the end's NUL). */
static bool
is_blankz(const unsigned char *p, const unsigned char *end)
{
	return p >= end || *p == ' ' || *p == '\t' || is_break(p);
}

/*
 * What a byte is to the analysis and the writers, from one table (the
 * classes of libyaml's analysis that a byte has wherever it stands, or
 * that tell where its neighbours must be looked at).
 */
#define Y_OTHER		0x01	/* not printable ASCII: tab, break, control,
				 * DEL, UTF-8 */
#define Y_FIRST		0x02	/* an indicator at the start */
#define Y_FLOW		0x04	/* an indicator in flow context anywhere */
#define Y_LOOK		0x08	/* ':' and '#': by their neighbours, an
				 * indicator in block context too */
#define Y_ESCAPE	0x10	/* escaped in double quotes */
#define Y_SINGLE	0x20	/* not copied as it is in single quotes: the
				 * quote, CR, LF, the first byte of NEL, LS
				 * and PS */
#define Y_AMBIG		0x40	/* can start a word or a number that YAML
				 * reads as another type (ambiguous()) */
#define Y_START		0x80	/* at the start, an indicator or maybe one:
				 * Y_FIRST's, "?", "-", "." and the space */
static unsigned char	yclass[256];
static bool		yclass_ready;

static void
yclass_init(void)
{
	static const struct {
		const char	*bytes;
		unsigned char	 cls;
	} sets[] = {
		{ "#,[]{}&*!|>'\"%@`", Y_FIRST | Y_START },
		{ "?-. ", Y_START },
		{ ",?[]{}:", Y_FLOW },
		{ ":#", Y_LOOK },
		{ "\"\\", Y_ESCAPE },
		{ "'\r\n\xc2\xe2", Y_SINGLE },
		{ "~nNoOyYtTfF.+-0123456789", Y_AMBIG }
	};
	const char	*b;
	size_t		 i;
	int		 c;

	if (yclass_ready)
		return;
	for (c = 0; c < 256; c++)
		if (c < 0x20 || c > 0x7e)
			yclass[c] |= Y_OTHER;
	for (i = 0; i < CROWN_NELEM(sets); i++)
		for (b = sets[i].bytes; *b != '\0'; b++)
			yclass[(unsigned char)*b] |= sets[i].cls;
	yclass_ready = true;
}

/* What libyaml's analysis says of a scalar, and what the writers want
 * to know of it: a set of these. */
#define A_MULTILINE	0x01
#define A_FLOW_PLAIN	0x02
#define A_BLOCK_PLAIN	0x04
#define A_SINGLE	0x08	/* single quotes allowed */
#define A_ASCII		0x10	/* printable ASCII only: a byte a column */
#define A_QUOTE		0x20	/* a "'", doubled in single quotes */

/* ':' before a space or the end, '#' at the start or after a space: in
 * printable ASCII, where a blank is a space. */
static bool
block_looks(const unsigned char *s, size_t len)
{
	const unsigned char	*p, *end = s + len;

	for (p = s; (p = memchr(p, ':', (size_t)(end - p))) != NULL; p++)
		if (p + 1 == end || p[1] == ' ')
			return true;
	for (p = s; (p = memchr(p, '#', (size_t)(end - p))) != NULL; p++)
		if (p == s || p[-1] == ' ')
			return true;
	return false;
}

/*
 * libyaml's analysis of a scalar of printable ASCII, in one pass over its
 * bytes and a look at its ends: most of crown's scalars.  0 at any other
 * byte (tab, break, control, DEL, UTF-8), which analyze() takes.  Every
 * way to be an indicator in block context is one in flow context too, so
 * a flow indicator is a block one or a Y_FLOW byte anywhere.
 */
static inline unsigned
analyze_ascii(const unsigned char *s, size_t len)
{
	unsigned	seen = 0, a;
	bool		block_ind;
	size_t		i;

	/* four at a time: the loop's own work is most of a byte's */
	for (i = 0; i + 4 <= len; i += 4)
		seen |= yclass[s[i]] | yclass[s[i + 1]] | yclass[s[i + 2]] |
		    yclass[s[i + 3]];
	for (; i < len; i++)
		seen |= yclass[s[i]];
	if (seen & Y_OTHER)
		return 0;
	a = A_SINGLE | A_ASCII | (seen & Y_SINGLE ? A_QUOTE : 0);
	if (len == 0)
		return a | A_BLOCK_PLAIN;
	/* most: no indicator anywhere, no space at either end */
	if (!(seen & (Y_FLOW | Y_LOOK)) && !(yclass[s[0]] & Y_START) &&
	    s[len - 1] != ' ')
		return a | A_FLOW_PLAIN | A_BLOCK_PLAIN;
	if (s[0] == ' ' || s[len - 1] == ' ')
		return a;
	block_ind = (yclass[s[0]] & Y_FIRST) ||
	    ((s[0] == '?' || s[0] == '-') && (len == 1 || s[1] == ' ')) ||
	    (len >= 3 && (s[0] == '-' || s[0] == '.') && s[1] == s[0] &&
	    s[2] == s[0]) || ((seen & Y_LOOK) && block_looks(s, len));
	if (block_ind)
		return a;
	return a | A_BLOCK_PLAIN | (seen & Y_FLOW ? 0 : A_FLOW_PLAIN);
}

/* libyaml's analysis of any scalar (valid UTF-8) */
static unsigned
analyze(const char *str, size_t len)
{
	const unsigned char	*s = (const unsigned char *)str, *p = s;
	const unsigned char	*end = s + len;
	bool	block_ind = false, flow_ind = false, breaks = false;
	bool	special = false, lead_space = false, lead_break = false;
	bool	trail_space = false, trail_break = false;
	bool	break_space = false, space_break = false;
	bool	prev_space = false, prev_break = false, preceded, followed;
	bool	br;
	size_t	w;
	unsigned a;

	if (len == 0)
		return A_BLOCK_PLAIN | A_SINGLE;
	if (len >= 3 && ((s[0] == '-' && s[1] == '-' && s[2] == '-') ||
	    (s[0] == '.' && s[1] == '.' && s[2] == '.')))
		block_ind = flow_ind = true;
	preceded = true;
	while (p < end) {
		w = u8width(*p);
		br = is_break(p);
		/* whether a blank, a break or the end follows: asked only of
		 * the three indicators it matters to */
		followed = (*p == ':' || *p == '?' || *p == '-') &&
		    is_blankz(p + w, end);
		if (p == s) {
			if (yclass[*p] & Y_FIRST)
				flow_ind = block_ind = true;
			if (*p == '?' || *p == ':') {
				flow_ind = true;
				if (followed)
					block_ind = true;
			}
			if (*p == '-' && followed)
				flow_ind = block_ind = true;
		} else {
			if (yclass[*p] & Y_FLOW)
				flow_ind = true;
			if (*p == ':' && followed)
				block_ind = true;
			if (*p == '#' && preceded)
				flow_ind = block_ind = true;
		}
		if (!(*p >= 0x20 && *p <= 0x7e) && !printable(p))
			special = true;
		if (br)
			breaks = true;
		if (*p == ' ') {
			if (p == s)
				lead_space = true;
			if (p + w == end)
				trail_space = true;
			if (prev_break)
				break_space = true;
			prev_space = true;
			prev_break = false;
		} else if (br) {
			if (p == s)
				lead_break = true;
			if (p + w == end)
				trail_break = true;
			if (prev_space)
				space_break = true;
			prev_space = false;
			prev_break = true;
		} else
			prev_space = prev_break = false;
		preceded = *p == ' ' || *p == '\t' || br;
		p += w;
	}
	a = A_FLOW_PLAIN | A_BLOCK_PLAIN | A_SINGLE;
	if (breaks)
		a |= A_MULTILINE;
	if (memchr(s, '\'', len) != NULL)
		a |= A_QUOTE;
	if (lead_space || lead_break || trail_space || trail_break)
		a &= ~(A_FLOW_PLAIN | A_BLOCK_PLAIN);
	if (break_space || space_break || special)
		a &= ~(A_FLOW_PLAIN | A_BLOCK_PLAIN | A_SINGLE);
	if (breaks)
		a &= ~(A_FLOW_PLAIN | A_BLOCK_PLAIN);
	if (flow_ind)
		a &= ~A_FLOW_PLAIN;
	if (block_ind)
		a &= ~A_BLOCK_PLAIN;
	return a;
}

/*
 * n bytes that take cols columns: crown_buf_add's work, inline, as the
 * writers add a few bytes at a time (a break, an indicator, a space).
 */
static inline void
out_add(struct crown_yemit *e, const void *p, size_t n, long cols)
{
	struct crown_buf	*b = e->out;

	if (b->len + n + 1 > b->cap)
		crown_grow(&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	e->column += cols;
}

static inline void
put(struct crown_yemit *e, char c)
{
	struct crown_buf	*b = e->out;

	if (b->len + 2 > b->cap)
		crown_grow(&b->data, &b->cap, b->len + 2, 1);
	b->data[b->len++] = c;
	b->data[b->len] = '\0';
	e->column++;
}

/* Characters (not bytes) of UTF-8 text. */
static long
u8chars(const unsigned char *p, size_t n)
{
	long	c = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		c += (p[i] & 0xc0) != 0x80;
	return c;
}

static inline void
put_break(struct crown_yemit *e)
{
	put(e, '\n');
	e->column = 0;
}

/* One character of s at *p, counted as one column. */
static void
put_char(struct crown_yemit *e, const unsigned char **p,
    const unsigned char *end)
{
	size_t	w = u8width(**p);

	if (*p + w > end)
		w = (size_t)(end - *p);
	crown_buf_add(e->out, *p, w);
	*p += w;
	e->column++;
}

static void
push_indent(struct crown_yemit *e, bool flow, bool indentless)
{
	if (e->nindents == e->capindents)
		crown_grow(&e->indents, &e->capindents, e->nindents + 1,
		    sizeof(*e->indents));
	e->indents[e->nindents++] = e->indent;
	if (e->indent < 0)
		e->indent = flow ? 2 : 0;
	else if (!indentless)
		e->indent += 2;
}

static void
pop_indent(struct crown_yemit *e)
{
	if (e->nindents > 0)
		e->indent = e->indents[--e->nindents];
}

/* inline: a line's break and indent are a few stores, fewer than the
 * call took, and a large turn writes 100,000 lines */
static inline void
write_indent(struct crown_yemit *e)
{
	struct crown_buf	*b = e->out;
	long			 indent = e->indent >= 0 ? e->indent : 0, col;
	size_t			 n, room = (size_t)indent + 10;
	char			*d;

	if (b->len + room > b->cap)
		crown_grow(&b->data, &b->cap, b->len + room, 1);
	d = b->data + b->len;
	col = e->column;
	if (!e->indention || col > indent || (col == indent &&
	    !e->whitespace)) {
		*d++ = '\n';
		col = 0;
	}
	n = col < indent ? (size_t)(indent - col) : 0;
	/* the two or four spaces of most lines in one store of eight, some
	 * past the end but inside the room made: a call to memset costs
	 * more than the line */
	if (n <= 8)
		memcpy(d, "        ", 8);
	else
		memset(d, ' ', n);
	d += n;
	*d = '\0';
	e->column = col + (long)n;
	b->len = (size_t)(d - b->data);
	e->whitespace = e->indention = true;
}

/* An indicator, one character: "-", ":", "?", ",", a quote, a bracket. */
static inline void
write_indicator(struct crown_yemit *e, char ind, bool need_ws, bool is_ws,
    bool is_indention)
{
	if (need_ws && !e->whitespace)
		put(e, ' ');
	put(e, ind);
	e->whitespace = is_ws;
	e->indention = e->indention && is_indention;
}

/* s (len bytes) in cols columns */
static void
write_plain(struct crown_yemit *e, const char *s, size_t len, long cols)
{
	/* no breaks: a multiline scalar is never plain, and the line has
	 * no width */
	if (!e->whitespace && (len > 0 || e->flow_level > 0))
		put(e, ' ');
	out_add(e, s, len, cols);
	e->whitespace = e->indention = false;
}

static void
write_single(struct crown_yemit *e, const char *str, size_t len,
    unsigned a)
{
	const unsigned char	*p = (const unsigned char *)str, *q;
	const unsigned char	*end = p + len;
	bool			 breaks = false;
	int			 indent = e->indent;

	/* libyaml's indent for the scalar, as push_indent(e, true, false)
	 * sets it; only the lines after a break use it, and only a
	 * single-quoted scalar has such lines (a plain one has no break, a
	 * double-quoted one writes them as escapes) */
	e->indent = indent < 0 ? 2 : indent + 2;
	write_indicator(e, '\'', true, false, false);
	while (p < end) {
		if (!breaks) {
			/* up to a quote or a break, as it is: after no break
			 * (or after the first character that follows one),
			 * a character changes nothing but the column */
			q = a & (A_MULTILINE | A_QUOTE) ? p : end;
			while (q < end && !(yclass[*q] & Y_SINGLE))
				q++;
			if (q > p) {
				out_add(e, p, (size_t)(q - p), a & A_ASCII ?
				    q - p : u8chars(p, (size_t)(q - p)));
				p = q;
				continue;
			}
		}
		if (is_break(p)) {
			if (!breaks && *p == '\n')
				put_break(e);
			/* libyaml writes a LF as a break, others as they are */
			if (*p == '\n') {
				put_break(e);
				p++;
			} else {
				crown_buf_add(e->out, p, u8width(*p));
				p += u8width(*p);
				e->column = 0;
			}
			e->indention = true;
			breaks = true;
			continue;
		}
		if (breaks && *p != ' ')
			write_indent(e);
		if (*p == '\'')
			put(e, '\'');
		if (*p != ' ') {
			e->indention = false;
			breaks = false;
		}
		put_char(e, &p, end);
	}
	if (breaks)
		write_indent(e);
	write_indicator(e, '\'', false, false, false);
	e->whitespace = e->indention = false;
	e->indent = indent;
}

static void
write_double(struct crown_yemit *e, const char *str, size_t len)
{
	static const char hexd[] = "0123456789ABCDEF";
	const unsigned char	*p = (const unsigned char *)str, *q;
	const unsigned char	*end = p + len;
	unsigned		 v;
	size_t			 w, k;
	int			 digits, sh;
	char			 c;

	write_indicator(e, '"', true, false, false);
	while (p < end) {
		/* printable ASCII with nothing to escape, as it is */
		for (q = p; q < end && !(yclass[*q] & (Y_OTHER | Y_ESCAPE));
		    q++)
			;
		if (q > p) {
			out_add(e, p, (size_t)(q - p), q - p);
			p = q;
			continue;
		}
		w = u8width(*p);
		if (!(!printable(p) || is_break(p) || *p == '"' ||
		    *p == '\\' || (p[0] == 0xef && p[1] == 0xbb &&
		    p[2] == 0xbf))) {
			put_char(e, &p, end);
			continue;
		}
		v = w == 1 ? *p & 0x7f : w == 2 ? *p & 0x1f : w == 3 ?
		    *p & 0x0f : *p & 0x07;
		for (k = 1; k < w && p + k < end; k++)
			v = (v << 6) + (p[k] & 0x3f);
		p += w;
		put(e, '\\');
		switch (v) {
		case 0x00: c = '0'; break;
		case 0x07: c = 'a'; break;
		case 0x08: c = 'b'; break;
		case 0x09: c = 't'; break;
		case 0x0a: c = 'n'; break;
		case 0x0b: c = 'v'; break;
		case 0x0c: c = 'f'; break;
		case 0x0d: c = 'r'; break;
		case 0x1b: c = 'e'; break;
		case 0x22: c = '"'; break;
		case 0x5c: c = '\\'; break;
		case 0x85: c = 'N'; break;
		case 0xa0: c = '_'; break;
		case 0x2028: c = 'L'; break;
		case 0x2029: c = 'P'; break;
		default: c = 0; break;
		}
		if (c != 0) {
			put(e, c);
			continue;
		}
		digits = v <= 0xff ? 2 : v <= 0xffff ? 4 : 8;
		put(e, digits == 2 ? 'x' : digits == 4 ? 'u' : 'U');
		for (sh = (digits - 1) * 4; sh >= 0; sh -= 4)
			put(e, hexd[(v >> sh) & 0x0f]);
	}
	write_indicator(e, '"', false, false, false);
	e->whitespace = e->indention = false;
}

/* The parent is done with one more node. */
static void
direct_node_end(struct crown_yemit *e)
{
	struct frame	*f;

	if (e->nframes == 0)
		return;
	f = &e->frames[e->nframes - 1];
	f->first = false;
	if (f->kind == 'm')
		f->want_value = !f->want_value;
}

/*
 * What comes before a node in its parent: an item's "-" or ",", a key's
 * place or a value's ":", and the context libyaml's emitter sets for the
 * node (mapping, simple key).  For a key: whether it can be simple.
 */
static inline void
direct_node_begin(struct crown_yemit *e, bool scalar, const char *s,
    size_t len, bool multiline)
{
	struct frame	*f;
	bool		 simple;

	e->mapping_ctx = e->simple_key_ctx = false;
	if (e->nframes == 0)
		return;		/* the root */
	f = &e->frames[e->nframes - 1];
	if (f->kind == 's' && !f->flow) {
		if (f->first)
			push_indent(e, false, f->mapping_ctx && !e->indention);
		write_indent(e);
		write_indicator(e, '-', true, false, true);
		return;
	}
	if (f->kind == 's') {
		if (f->first) {
			write_indicator(e, '[', true, true, false);
			push_indent(e, true, false);
			e->flow_level++;
		} else
			write_indicator(e, ',', false, false, false);
		return;
	}
	e->mapping_ctx = true;
	if (f->want_value) {
		if (f->simple)
			write_indicator(e, ':', false, false, false);
		else if (f->flow)
			write_indicator(e, ':', true, false, false);
		else {
			write_indent(e);
			write_indicator(e, ':', true, false, true);
		}
		return;
	}
	if (f->first) {
		if (f->flow) {
			write_indicator(e, '{', true, true, false);
			push_indent(e, true, false);
			e->flow_level++;
		} else
			push_indent(e, false, false);
	} else if (f->flow)
		write_indicator(e, ',', false, false, false);
	if (!f->flow)
		write_indent(e);
	/* a collection key is simple only when empty; crown's keys are
	 * scalars */
	simple = scalar ? !multiline && len <= 128 : false;
	f->simple = simple;
	if (simple)
		e->simple_key_ctx = true;
	else
		write_indicator(e, '?', true, false, !f->flow);
	(void)s;
}

/* libyaml's yaml_check_utf8: every sequence whole, no overlong form.
 * The reference refuses a scalar that fails it; so does the direct
 * writer, rather than write bytes that do not read back. */
static bool
utf8_ok(const unsigned char *p, size_t len)
{
	const unsigned char	*end = p + len;
	unsigned		 v;
	size_t			 w, k;

	while (p < end) {
		w = (*p & 0x80) == 0 ? 1 : (*p & 0xe0) == 0xc0 ? 2 :
		    (*p & 0xf0) == 0xe0 ? 3 : (*p & 0xf8) == 0xf0 ? 4 : 0;
		if (w == 0 || (size_t)(end - p) < w)
			return false;
		v = w == 1 ? *p & 0x7f : w == 2 ? *p & 0x1f : w == 3 ?
		    *p & 0x0f : *p & 0x07;
		for (k = 1; k < w; k++) {
			if ((p[k] & 0xc0) != 0x80)
				return false;
			v = (v << 6) + (p[k] & 0x3f);
		}
		if (!(w == 1 || (w == 2 && v >= 0x80) || (w == 3 &&
		    v >= 0x800) || (w == 4 && v >= 0x10000)))
			return false;
		p += w;
	}
	return true;
}

/* s in its style or the one libyaml falls back to; a is its analysis
 * when the caller knows it, else 0 */
static void
direct_scalar(struct crown_yemit *e, const char *s, size_t len,
    enum style style, unsigned a)
{
	if (e->failed)
		return;
	if (a == 0 &&
	    (a = analyze_ascii((const unsigned char *)s, len)) == 0) {
		if (!utf8_ok((const unsigned char *)s, len)) {
			e->failed = 1;
			return;
		}
		a = analyze(s, len);
	}
	if (e->pending != 0)
		direct_flush_pending(e, false);
	direct_node_begin(e, true, s, len, a & A_MULTILINE);
	if (style == S_ANY)
		style = S_PLAIN;
	if (e->simple_key_ctx && (a & A_MULTILINE))
		style = S_DOUBLE;
	if (style == S_PLAIN) {
		if (!(a & (e->flow_level > 0 ? A_FLOW_PLAIN : A_BLOCK_PLAIN)))
			style = S_SINGLE;
		if (len == 0 && (e->flow_level > 0 || e->simple_key_ctx))
			style = S_SINGLE;
	}
	if (style == S_SINGLE && !(a & A_SINGLE))
		style = S_DOUBLE;
	if (style == S_PLAIN)
		write_plain(e, s, len, a & A_ASCII ? (long)len :
		    u8chars((const unsigned char *)s, len));
	else if (style == S_SINGLE)
		write_single(e, s, len, a);
	else
		write_double(e, s, len);
	direct_node_end(e);
}

/* Open the collection begun last, now that the next call says whether
 * it is empty (then it is written in flow style, as libyaml does). */
static void
direct_flush_pending(struct crown_yemit *e, bool empty)
{
	struct frame	*f;
	bool		 mapping_ctx;
	char		 kind = e->pending;

	if (kind == 0)
		return;
	e->pending = 0;
	direct_node_begin(e, false, NULL, 0, false);
	mapping_ctx = e->mapping_ctx;
	crown_grow(&e->frames, &e->capframes, e->nframes + 1,
	    sizeof(*e->frames));
	f = &e->frames[e->nframes++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->flow = e->pending_flow || empty || e->flow_level > 0;
	f->first = true;
	f->mapping_ctx = mapping_ctx;
}

static void
direct_start(struct crown_yemit *e, char kind, bool flow)
{
	direct_flush_pending(e, false);
	e->pending = kind;
	e->pending_flow = flow;
}

static void
direct_end(struct crown_yemit *e)
{
	struct frame	*f;

	direct_flush_pending(e, true);
	if (e->nframes == 0) {
		e->failed = 1;
		return;
	}
	f = &e->frames[e->nframes - 1];
	if (f->flow) {
		if (f->first) {
			write_indicator(e, f->kind == 's' ? '[' : '{', true,
			    true, false);
			push_indent(e, true, false);
			e->flow_level++;
		}
		e->flow_level--;
		pop_indent(e);
		write_indicator(e, f->kind == 's' ? ']' : '}', false, false,
		    false);
	} else
		pop_indent(e);
	e->nframes--;
	direct_node_end(e);
}

/*
 * The interface.
 */

struct crown_yemit *
crown_yemit_new(struct crown_buf *out)
{
	struct crown_yemit	*e;

	yclass_init();
	e = xcalloc(1, sizeof(*e));
	e->out = out;
	e->reference = use_reference;
	if (e->reference)
		ref_new(e);
	else {
		/* after libyaml's stream start: column 0, at an indention */
		e->indent = -1;
		e->whitespace = e->indention = true;
	}
	return e;
}

int
crown_yemit_finish(struct crown_yemit *e)
{
	yaml_event_t	ev;

	if (e->reference) {
		yaml_document_end_event_initialize(&ev, 1);
		emit(e, &ev);
		yaml_stream_end_event_initialize(&ev);
		emit(e, &ev);
		if (!e->failed && !yaml_emitter_flush(&e->emitter))
			e->failed = 1;
		return e->failed ? CROWN_ERROR : 0;
	}
	direct_flush_pending(e, false);
	if (e->nframes != 0)
		e->failed = 1;
	/* the document's end: a break after its last line */
	e->indent = -1;
	write_indent(e);
	return e->failed ? CROWN_ERROR : 0;
}

void
crown_yemit_free(struct crown_yemit *e)
{
	if (e == NULL)
		return;
	if (e->reference)
		yaml_emitter_delete(&e->emitter);
	crown_buf_release(&e->open);
	free(e->indents);
	free(e->frames);
	free(e);
}

void
crown_yemit_map(struct crown_yemit *e, bool flow)
{
	yaml_event_t	ev;

	if (!e->reference) {
		direct_start(e, 'm', flow);
		return;
	}
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(e, &ev);
	crown_buf_add(&e->open, "m", 1);
}

void
crown_yemit_seq(struct crown_yemit *e, bool flow)
{
	yaml_event_t	ev;

	if (!e->reference) {
		direct_start(e, 's', flow);
		return;
	}
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(e, &ev);
	crown_buf_add(&e->open, "s", 1);
}

void
crown_yemit_end(struct crown_yemit *e)
{
	yaml_event_t	ev;

	if (!e->reference) {
		direct_end(e);
		return;
	}
	if (e->open.len == 0) {
		e->failed = 1;
		return;
	}
	if (e->open.data[--e->open.len] == 'm')
		yaml_mapping_end_event_initialize(&ev);
	else
		yaml_sequence_end_event_initialize(&ev);
	emit(e, &ev);
}

/*
 * What crown writes of its own, plain: numbers ("-12", "12.50", and from
 * printf "inf" or "-nan") and the words "true", "false" and "null".
 * libyaml's analysis finds nothing in them (digits and letters, a "-"
 * only first and never before a blank, a "." never first), so the
 * direct writer does not run it: printable ASCII of one line, plain in
 * any context.  tests/unit/test-yaml.c has both writers write the
 * extremes.
 */
#define A_WORD	(A_FLOW_PLAIN | A_BLOCK_PLAIN | A_SINGLE | A_ASCII)

/* a: the analysis, if known (A_WORD), else 0 */
static inline void
scalar(struct crown_yemit *e, const char *s, size_t len, enum style style,
    unsigned a)
{
	if (e->reference)
		ref_scalar(e, s, len, style);
	else
		direct_scalar(e, s, len, style, a);
}

/* ambiguous(), for a scalar that is empty or starts with a byte that
 * can start a word or a number (Y_AMBIG) */
static bool
ambiguous_words(const char *s, size_t len)
{
	/* the words YAML 1.1 reads as null, a boolean, infinity or
	 * not-a-number, by length */
	static const char *const words[][11] = {
		{ "", NULL },
		{ "~", NULL },
		{ "no", "No", "NO", "on", "On", "ON", NULL },
		{ "yes", "Yes", "YES", "off", "Off", "OFF", NULL },
		{ "null", "Null", "NULL", "true", "True", "TRUE", ".inf",
		    ".nan", ".Inf", ".NaN", NULL },
		{ "false", "False", "FALSE", "-.inf", "+.inf", NULL }
	};
	const char *const	*w;
	const char		*p = s;

	if (len < sizeof(words) / sizeof(words[0]))
		for (w = words[len]; *w != NULL; w++)
			if ((*w)[0] == s[0] && memcmp(*w, s, len) == 0)
				return true;
	if (*p == '+' || *p == '-')
		p++;
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return false;
	/* a date or time stamp: 2026-11-29... */
	if (len >= 8 && strspn(s, "0123456789") == 4 && s[4] == '-')
		return true;
	/* numbers of every YAML 1.1 form (decimal, hex, octal, binary,
	 * floats, sexagesimal 1:30) use no other characters; "1-legion"
	 * does, and stays plain */
	return strspn(p, "0123456789abcdefABCDEFxXoO_.:+-") ==
	    len - (size_t)(p - s);
}

/* Would s (len bytes), written plain, read back as something other than
 * a string?  Inline, the look at the first byte that settles most
 * scalars: the call cost more. */
static inline bool
ambiguous(const char *s, size_t len)
{
	if (len > 0 && !(yclass[(unsigned char)s[0]] & Y_AMBIG))
		return false;
	return ambiguous_words(s, len);
}

void
crown_yemit_str(struct crown_yemit *e, const char *s)
{
	size_t	len = strlen(s);

	scalar(e, s, len, ambiguous(s, len) ? S_DOUBLE : S_ANY, 0);
}

void
crown_yemit_quoted(struct crown_yemit *e, const char *s)
{
	scalar(e, s, strlen(s), S_DOUBLE, 0);
}

void
crown_yemit_int(struct crown_yemit *e, long v)
{
	char	buf[CROWN_FMT_MAX];

	scalar(e, buf, crown_fmt_long(buf, v), S_PLAIN, A_WORD);
}

void
crown_yemit_bool(struct crown_yemit *e, bool v)
{
	scalar(e, v ? "true" : "false", v ? 4 : 5, S_PLAIN, A_WORD);
}

void
crown_yemit_num2(struct crown_yemit *e, double v)
{
	char	buf[CROWN_FMT_MAX];

	scalar(e, buf, crown_fmt_num2(buf, v), S_PLAIN, A_WORD);
}

void
crown_yemit_null(struct crown_yemit *e)
{
	scalar(e, "null", 4, S_PLAIN, A_WORD);
}

/*
 * A key of the shorthands, as the direct writer found it at this address
 * before (struct keymemo): a key seen before costs a strcmp instead of
 * crown_yemit_str's strlen, analysis and look for ambiguity.  NULL for
 * a key too long to keep.
 */
static const struct keymemo *
key_memo(struct crown_yemit *e, const char *k)
{
	struct keymemo	*m;
	size_t		 len;

	/* literals lie a few bytes apart */
	m = &e->keys[crown_addr_slot(k, NKEYS_BITS)];
	if (m->p == k && strcmp(m->bytes, k) == 0)
		return m;
	len = strlen(k);
	if (len >= sizeof(m->bytes))
		return NULL;
	m->p = k;
	memcpy(m->bytes, k, len + 1);
	m->len = (unsigned char)len;
	/* 0 if not ASCII: then direct_scalar looks each time */
	m->a = (unsigned char)analyze_ascii((const unsigned char *)k, len);
	m->style = ambiguous(k, len) ? S_DOUBLE : S_ANY;
	return m;
}

/*
 * "k: v" at once: a pair after the first of a mapping (the first has a
 * collection pending, or an indent to push or a bracket to write), when
 * both are plain in its context (a key of the memo is one line of under
 * 128 bytes, so simple).  In a block mapping the pair has a line of its
 * own; in a flow one it follows ", ".  What direct_node_begin,
 * write_indicator, write_plain and direct_node_end would write for the
 * two, in the state they leave; the mapping still wants a key.  false
 * when the pair is not such a one.
 */
static bool
direct_pair(struct crown_yemit *e, const struct keymemo *m, const char *v,
    size_t vlen, unsigned va)
{
	struct crown_buf	*b = e->out;
	struct frame		*f;
	unsigned		 plain;
	size_t			 lead, n;
	char			*d;

	if (e->failed || e->pending != 0 || e->nframes == 0)
		return false;
	f = &e->frames[e->nframes - 1];
	/* flow_level is 0 in a block mapping, more in a flow one */
	plain = f->flow ? A_FLOW_PLAIN : A_BLOCK_PLAIN;
	if (f->kind != 'm' || f->first || f->want_value ||
	    !(m->a & plain) || m->style != S_ANY || !(va & plain) ||
	    vlen == 0)
		return false;
	lead = f->flow ? 2 : 0;
	if (lead == 0)
		write_indent(e);
	n = lead + m->len + 2 + vlen;
	if (b->len + n + 1 > b->cap)
		crown_grow(&b->data, &b->cap, b->len + n + 1, 1);
	d = b->data + b->len;
	if (lead != 0) {
		d[0] = ',';
		d[1] = ' ';
	}
	memcpy(d + lead, m->bytes, m->len);
	memcpy(d + lead + m->len, ": ", 2);
	memcpy(d + lead + m->len + 2, v, vlen);
	d[n] = '\0';
	b->len += n;
	e->column += (long)(lead + m->len + 2) + (va & A_ASCII ?
	    (long)vlen : u8chars((const unsigned char *)v, vlen));
	/* the contexts and f->simple are set again by the next node before
	 * anything reads them */
	e->whitespace = e->indention = false;
	return true;
}

/* The shorthands: key k, then v (vlen bytes) in style vstyle, of which
 * va is the analysis if known, else 0. */
static void
kv(struct crown_yemit *e, const char *k, const char *v, size_t vlen,
    enum style vstyle, unsigned va)
{
	const struct keymemo	*m;

	if (e->reference || (m = key_memo(e, k)) == NULL)
		crown_yemit_str(e, k);
	else if (vstyle != S_DOUBLE && direct_pair(e, m, v, vlen, va))
		return;
	else
		direct_scalar(e, k, m->len, m->style, m->a);
	scalar(e, v, vlen, vstyle, va);
}

void
crown_yemit_kstr(struct crown_yemit *e, const char *k, const char *v)
{
	size_t	len = strlen(v);

	kv(e, k, v, len, ambiguous(v, len) ? S_DOUBLE : S_ANY,
	    e->reference ? 0 : analyze_ascii((const unsigned char *)v, len));
}

void
crown_yemit_kint(struct crown_yemit *e, const char *k, long v)
{
	char	buf[CROWN_FMT_MAX];

	kv(e, k, buf, crown_fmt_long(buf, v), S_PLAIN, A_WORD);
}

void
crown_yemit_kbool(struct crown_yemit *e, const char *k, bool v)
{
	kv(e, k, v ? "true" : "false", v ? 4 : 5, S_PLAIN, A_WORD);
}

void
crown_yemit_knum2(struct crown_yemit *e, const char *k, double v)
{
	char	buf[CROWN_FMT_MAX];

	kv(e, k, buf, crown_fmt_num2(buf, v), S_PLAIN, A_WORD);
}

/* Write a parsed tree back out: scalars keep their quoting (a quoted "12"
 * stays a string), collections become block style. */
static void
emit_node(struct crown_yemit *e, const struct crown_ynode *n)
{
	size_t	i;

	switch (n->kind) {
	case CROWN_Y_SCALAR:
		scalar(e, n->str, n->len, n->plain ? S_PLAIN : S_DOUBLE, 0);
		break;
	case CROWN_Y_SEQ:
		crown_yemit_seq(e, false);
		for (i = 0; i < n->n; i++)
			emit_node(e, n->item[i]);
		crown_yemit_end(e);
		break;
	case CROWN_Y_MAP:
		crown_yemit_map(e, false);
		for (i = 0; i < n->n; i++) {
			emit_node(e, n->key[i]);
			emit_node(e, n->item[i]);
		}
		crown_yemit_end(e);
		break;
	}
}

int
crown_ynode_emit(struct crown_buf *out, const struct crown_ynode *n)
{
	struct crown_yemit	*e;
	int			 error;

	e = crown_yemit_new(out);
	emit_node(e, n);
	error = crown_yemit_finish(e);
	crown_yemit_free(e);
	return error;
}
