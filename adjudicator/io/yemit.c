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
 */
#include <limits.h>
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
};

static bool	use_reference;

static void	direct_node_begin(struct crown_yemit *, bool scalar,
		    const char *s, size_t len, bool multiline);
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

/* What libyaml's analysis says of a scalar. */
struct analysis {
	bool	multiline;
	bool	flow_plain, block_plain, single_quoted;
};

/*
 * Bytes that change nothing in libyaml's analysis wherever they stand:
 * letters, digits and punctuation that is no indicator.  A scalar of
 * these and inner single spaces, not starting with "..." , is plain
 * everywhere: most of crown's scalars, decided without the full pass.
 */
static const char quiet_bytes[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "_.()/+=$^;<~";
static unsigned char	quiet[256];
static bool		quiet_ready;
/* Indicators: at the start of a scalar, and inside it (flow only). */
#define IND_FIRST	0x01
#define IND_INNER	0x02
static unsigned char	ind_class[256];

static bool
all_quiet(const unsigned char *s, size_t len)
{
	size_t	i;

	if (!quiet_ready) {
		for (i = 0; quiet_bytes[i] != '\0'; i++)
			quiet[(unsigned char)quiet_bytes[i]] = 1;
		for (i = 0; "#,[]{}&*!|>'\"%@`"[i] != '\0'; i++)
			ind_class[(unsigned char)"#,[]{}&*!|>'\"%@`"[i]] |=
			    IND_FIRST;
		for (i = 0; ",?[]{}"[i] != '\0'; i++)
			ind_class[(unsigned char)",?[]{}"[i]] |= IND_INNER;
		quiet_ready = true;
	}
	if (len == 0 || s[0] == ' ' || s[len - 1] == ' ' ||
	    (len >= 3 && s[0] == '.' && s[1] == '.' && s[2] == '.'))
		return false;
	for (i = 0; i < len; i++)
		if (!quiet[s[i]] && s[i] != ' ')
			return false;
	return true;
}

static void
analyze(struct analysis *a, const char *str, size_t len)
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

	memset(a, 0, sizeof(*a));
	if (len == 0) {
		a->block_plain = a->single_quoted = true;
		return;
	}
	if (all_quiet(s, len)) {
		a->flow_plain = a->block_plain = a->single_quoted = true;
		return;
	}
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
			if (ind_class[*p] & IND_FIRST)
				flow_ind = block_ind = true;
			if (*p == '?' || *p == ':') {
				flow_ind = true;
				if (followed)
					block_ind = true;
			}
			if (*p == '-' && followed)
				flow_ind = block_ind = true;
		} else {
			if (ind_class[*p] & IND_INNER)
				flow_ind = true;
			if (*p == ':') {
				flow_ind = true;
				if (followed)
					block_ind = true;
			}
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
	a->multiline = breaks;
	a->flow_plain = a->block_plain = a->single_quoted = true;
	if (lead_space || lead_break || trail_space || trail_break)
		a->flow_plain = a->block_plain = false;
	if (break_space)
		a->flow_plain = a->block_plain = a->single_quoted = false;
	if (space_break || special)
		a->flow_plain = a->block_plain = a->single_quoted = false;
	if (breaks)
		a->flow_plain = a->block_plain = false;
	if (flow_ind)
		a->flow_plain = false;
	if (block_ind)
		a->block_plain = false;
}

/* n bytes that take cols columns. */
static void
out_add(struct crown_yemit *e, const void *p, size_t n, long cols)
{
	struct crown_buf	*b = e->out;

	/* crown_buf_add's work, without a call for every piece */
	if (b->len + n + 1 > b->cap)
		crown_grow(&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	e->column += cols;
}

static void
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

static void
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

static void
write_indent(struct crown_yemit *e)
{
	int	indent = e->indent >= 0 ? e->indent : 0;

	static const char	spaces[] = "                                ";
	long			n;

	if (!e->indention || e->column > indent ||
	    (e->column == indent && !e->whitespace))
		put_break(e);
	while (e->column < indent) {
		n = indent - e->column;
		if (n > (long)sizeof(spaces) - 1)
			n = (long)sizeof(spaces) - 1;
		out_add(e, spaces, (size_t)n, n);
	}
	e->whitespace = e->indention = true;
}

static void
write_indicator(struct crown_yemit *e, const char *ind, bool need_ws,
    bool is_ws, bool is_indention)
{
	size_t	n = strlen(ind);

	if (need_ws && !e->whitespace)
		put(e, ' ');
	out_add(e, ind, n, (long)n);
	e->whitespace = is_ws;
	e->indention = e->indention && is_indention;
}

static void
write_plain(struct crown_yemit *e, const char *str, size_t len)
{
	const unsigned char	*p = (const unsigned char *)str;
	const unsigned char	*end = p + len;

	/* no breaks: a multiline scalar is never plain, and the line has
	 * no width */
	if (!e->whitespace && (len > 0 || e->flow_level > 0))
		put(e, ' ');
	out_add(e, p, len, u8chars(p, len));
	(void)end;
	e->whitespace = e->indention = false;
}

static void
write_single(struct crown_yemit *e, const char *str, size_t len)
{
	const unsigned char	*p = (const unsigned char *)str;
	const unsigned char	*end = p + len;
	bool			 breaks = false;

	write_indicator(e, "'", true, false, false);
	if (memchr(str, '\'', len) == NULL && memchr(str, '\n', len) ==
	    NULL && memchr(str, '\r', len) == NULL &&
	    memchr(str, 0xc2, len) == NULL && memchr(str, 0xe2, len) == NULL) {
		/* nothing to double, no break: as it is */
		out_add(e, p, len, u8chars(p, len));
		p = end;
	}
	while (p < end) {
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
	write_indicator(e, "'", false, false, false);
	e->whitespace = e->indention = false;
}

static void
write_double(struct crown_yemit *e, const char *str, size_t len)
{
	static const char hexd[] = "0123456789ABCDEF";
	const unsigned char	*p = (const unsigned char *)str;
	const unsigned char	*end = p + len;
	unsigned		 v;
	size_t			 w, k;
	int			 digits, sh;
	char			 c;

	write_indicator(e, "\"", true, false, false);
	while (p < end) {
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
	write_indicator(e, "\"", false, false, false);
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
static void
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
		write_indicator(e, "-", true, false, true);
		return;
	}
	if (f->kind == 's') {
		if (f->first) {
			write_indicator(e, "[", true, true, false);
			push_indent(e, true, false);
			e->flow_level++;
		} else
			write_indicator(e, ",", false, false, false);
		return;
	}
	e->mapping_ctx = true;
	if (f->want_value) {
		if (f->simple)
			write_indicator(e, ":", false, false, false);
		else if (f->flow)
			write_indicator(e, ":", true, false, false);
		else {
			write_indent(e);
			write_indicator(e, ":", true, false, true);
		}
		return;
	}
	if (f->first) {
		if (f->flow) {
			write_indicator(e, "{", true, true, false);
			push_indent(e, true, false);
			e->flow_level++;
		} else
			push_indent(e, false, false);
	} else if (f->flow)
		write_indicator(e, ",", false, false, false);
	if (!f->flow)
		write_indent(e);
	/* a collection key is simple only when empty; crown's keys are
	 * scalars */
	simple = scalar ? !multiline && len <= 128 : false;
	f->simple = simple;
	if (simple)
		e->simple_key_ctx = true;
	else
		write_indicator(e, "?", true, false, !f->flow);
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

static void
direct_scalar(struct crown_yemit *e, const char *s, size_t len,
    enum style style)
{
	struct analysis	a;

	if (e->failed || !utf8_ok((const unsigned char *)s, len)) {
		e->failed = 1;
		return;
	}
	direct_flush_pending(e, false);
	analyze(&a, s, len);
	direct_node_begin(e, true, s, len, a.multiline);
	if (style == S_ANY)
		style = S_PLAIN;
	if (e->simple_key_ctx && a.multiline)
		style = S_DOUBLE;
	if (style == S_PLAIN) {
		if ((e->flow_level > 0 && !a.flow_plain) ||
		    (e->flow_level == 0 && !a.block_plain))
			style = S_SINGLE;
		if (len == 0 && (e->flow_level > 0 || e->simple_key_ctx))
			style = S_SINGLE;
	}
	if (style == S_SINGLE && !a.single_quoted)
		style = S_DOUBLE;
	push_indent(e, true, false);
	if (style == S_PLAIN)
		write_plain(e, s, len);
	else if (style == S_SINGLE)
		write_single(e, s, len);
	else
		write_double(e, s, len);
	pop_indent(e);
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
			write_indicator(e, f->kind == 's' ? "[" : "{", true,
			    true, false);
			push_indent(e, true, false);
			e->flow_level++;
		}
		e->flow_level--;
		pop_indent(e);
		write_indicator(e, f->kind == 's' ? "]" : "}", false, false,
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

static void
scalar(struct crown_yemit *e, const char *s, size_t len, enum style style)
{
	if (e->reference)
		ref_scalar(e, s, len, style);
	else
		direct_scalar(e, s, len, style);
}

/* Would s (len bytes), written plain, read back as something other than
 * a string? */
static bool
ambiguous(const char *s, size_t len)
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

void
crown_yemit_str(struct crown_yemit *e, const char *s)
{
	size_t	len = strlen(s);

	scalar(e, s, len, ambiguous(s, len) ? S_DOUBLE : S_ANY);
}

void
crown_yemit_int(struct crown_yemit *e, long v)
{
	char	buf[CROWN_FMT_MAX];
	size_t	len;

	len = crown_fmt_long(buf, v);
	scalar(e, buf, len, S_PLAIN);
}

void
crown_yemit_bool(struct crown_yemit *e, bool v)
{
	scalar(e, v ? "true" : "false", v ? 4 : 5, S_PLAIN);
}

void
crown_yemit_num2(struct crown_yemit *e, double v)
{
	char	buf[CROWN_FMT_MAX];
	size_t	len;

	/* no "-0.00" */
	len = crown_fmt_fixed(buf, crown_round2(v), 2);
	scalar(e, buf, len, S_PLAIN);
}

void
crown_yemit_null(struct crown_yemit *e)
{
	scalar(e, "null", 4, S_PLAIN);
}

void
crown_yemit_kstr(struct crown_yemit *e, const char *k, const char *v)
{
	crown_yemit_str(e, k);
	crown_yemit_str(e, v);
}

void
crown_yemit_kint(struct crown_yemit *e, const char *k, long v)
{
	crown_yemit_str(e, k);
	crown_yemit_int(e, v);
}

void
crown_yemit_kbool(struct crown_yemit *e, const char *k, bool v)
{
	crown_yemit_str(e, k);
	crown_yemit_bool(e, v);
}

void
crown_yemit_knum2(struct crown_yemit *e, const char *k, double v)
{
	crown_yemit_str(e, k);
	crown_yemit_num2(e, v);
}

/* Write a parsed tree back out: scalars keep their quoting (a quoted "12"
 * stays a string), collections become block style. */
static void
emit_node(struct crown_yemit *e, const struct crown_ynode *n)
{
	size_t	i;

	switch (n->kind) {
	case CROWN_Y_SCALAR:
		scalar(e, n->str, n->len, n->plain ? S_PLAIN : S_DOUBLE);
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
