/*
 * yemit.c: deterministic YAML output into a crown_buf, so callers can
 * compare it, hash it or write it atomically.  libyaml's emitter writes
 * every byte (block style unless a collection asks for flow, indent 2, no
 * line width, UTF-8 kept, LF breaks, implicit document); its analysis of
 * each scalar chooses plain, single- or double-quoted.  crown adds only
 * what libyaml cannot know: a string that would read back as another type
 * (a number, a boolean, null, a date), or that holds a non-breaking
 * space, asks for double quotes through its event's style.
 *
 * An error of the emitter (out of memory, text that is not UTF-8, an end
 * without a start) is kept: later calls do nothing, and
 * crown_yemit_finish returns it, so a writer checks once.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/text.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

struct crown_yemit {
	struct crown_buf	*out;
	yaml_emitter_t		 emitter;
	bool			 ready;		/* emitter initialised */
	bool			 failed;
	struct crown_buf	 open;		/* 'm', 's', innermost last */
};

static int
write_handler(void *data, unsigned char *buf, size_t size)
{
	struct crown_yemit *e = data;

	crown_buf_add(e->out, buf, size);
	return 1;
}

/* Hand ev to the emitter, which owns it from then on. */
static void
emit(struct crown_yemit *e, yaml_event_t *ev)
{
	if (e->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&e->emitter, ev))
		e->failed = true;
}

struct crown_yemit *
crown_yemit_new(struct crown_buf *out)
{
	struct crown_yemit	*e;
	yaml_event_t		 ev;

	e = xcalloc(1, sizeof(*e));
	e->out = out;
	if (!yaml_emitter_initialize(&e->emitter)) {
		e->failed = true;
		return e;
	}
	e->ready = true;
	yaml_emitter_set_output(&e->emitter, write_handler, e);
	yaml_emitter_set_unicode(&e->emitter, 1);
	yaml_emitter_set_width(&e->emitter, -1);
	yaml_emitter_set_indent(&e->emitter, 2);
	yaml_emitter_set_break(&e->emitter, YAML_LN_BREAK);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	emit(e, &ev);
	return e;
}

int
crown_yemit_finish(struct crown_yemit *e)
{
	yaml_event_t	ev;

	if (e->open.len != 0)
		e->failed = true;
	yaml_document_end_event_initialize(&ev, 1);
	emit(e, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(e, &ev);
	if (!e->failed && !yaml_emitter_flush(&e->emitter))
		e->failed = true;
	return e->failed ? CROWN_ERROR : 0;
}

void
crown_yemit_free(struct crown_yemit *e)
{
	if (e == NULL)
		return;
	if (e->ready)
		yaml_emitter_delete(&e->emitter);
	crown_buf_release(&e->open);
	free(e);
}

void
crown_yemit_map(struct crown_yemit *e, bool flow)
{
	yaml_event_t	ev;

	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(e, &ev);
	crown_buf_add(&e->open, "m", 1);
}

void
crown_yemit_seq(struct crown_yemit *e, bool flow)
{
	yaml_event_t	ev;

	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
	    flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(e, &ev);
	crown_buf_add(&e->open, "s", 1);
}

void
crown_yemit_end(struct crown_yemit *e)
{
	yaml_event_t	ev;

	if (e->open.len == 0) {
		e->failed = true;
		return;
	}
	if (e->open.data[--e->open.len] == 'm')
		yaml_mapping_end_event_initialize(&ev);
	else
		yaml_sequence_end_event_initialize(&ev);
	emit(e, &ev);
}

/* A scalar of len bytes in style (YAML_ANY_SCALAR_STYLE: libyaml's
 * choice). */
static void
scalar(struct crown_yemit *e, const char *s, size_t len,
    yaml_scalar_style_t style)
{
	yaml_event_t	ev;

	if (e->failed)
		return;
	if (len > INT_MAX || !yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (const yaml_char_t *)s, (int)len, 1, 1, style)) {
		e->failed = true;
		return;
	}
	emit(e, &ev);
}

/*
 * Would s (len bytes, NUL-terminated), written plain, read back as
 * something other than a string?  YAML 1.1's words for null, the
 * booleans, infinity and not-a-number, its numbers and its dates.
 */
static bool
ambiguous(const char *s, size_t len)
{
	/* by length */
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

	/* the look at the first byte that settles most strings */
	if (len > 0 && strchr("~nNoOyYtTfF.+-0123456789", *s) == NULL)
		return false;
	if (len < CROWN_NELEM(words))
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

/* A non-breaking space (crown_text_nbsp) in s: plain, it could stand
 * where crown_ydoc_parse refuses one, as a mail program's. */
static bool
has_nbsp(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if (crown_text_nbsp(s, i, len) != 0)
			return true;
	return false;
}

static yaml_scalar_style_t
str_style(const char *s, size_t len)
{
	return ambiguous(s, len) || has_nbsp(s, len) ?
	    YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
}

void
crown_yemit_str(struct crown_yemit *e, const char *s)
{
	size_t	len = strlen(s);

	scalar(e, s, len, str_style(s, len));
}

void
crown_yemit_quoted(struct crown_yemit *e, const char *s)
{
	scalar(e, s, strlen(s), YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

/* crown's own numbers and words are plain: libyaml finds nothing in
 * them that needs quotes */

void
crown_yemit_int(struct crown_yemit *e, long v)
{
	char	buf[CROWN_FMT_MAX];

	scalar(e, buf, crown_fmt_long(buf, v), YAML_PLAIN_SCALAR_STYLE);
}

void
crown_yemit_bool(struct crown_yemit *e, bool v)
{
	scalar(e, v ? "true" : "false", v ? 4 : 5, YAML_PLAIN_SCALAR_STYLE);
}

void
crown_yemit_num2(struct crown_yemit *e, double v)
{
	char	buf[CROWN_FMT_MAX];

	scalar(e, buf, crown_fmt_num2(buf, v), YAML_PLAIN_SCALAR_STYLE);
}

void
crown_yemit_null(struct crown_yemit *e)
{
	scalar(e, "null", 4, YAML_PLAIN_SCALAR_STYLE);
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
		scalar(e, n->str, n->len, n->plain ? YAML_PLAIN_SCALAR_STYLE :
		    YAML_DOUBLE_QUOTED_SCALAR_STYLE);
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
