/*
 * diag.c: the list of problems found in input files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

static void
diag_addv(struct crown_diags *d, enum crown_severity sev, const char *file,
    unsigned line, unsigned col, const char *rule, const char *fmt,
    va_list ap)
{
	struct crown_diag	*g;
	char			*msg;

	crown_grow(&d->v, &d->cap, d->n + 1, sizeof(*d->v));
	g = &d->v[d->n++];
	g->severity = sev;
	g->file = crown_diag_escape(file != NULL ? file : "-");
	g->line = line;
	g->col = col;
	g->rule = rule != NULL ? xstrdup(rule) : NULL;
	msg = xvasprintf(fmt, ap);
	/* what a message quotes of the input is anyone's text */
	g->msg = crown_diag_escape(msg);
	free(msg);
	g->quote = NULL;
	g->caret = 0;
}

void
crown_diag_add(struct crown_diags *d, const char *file, unsigned line,
    unsigned col, const char *rule, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	diag_addv(d, CROWN_DIAG_ERROR, file, line, col, rule, fmt, ap);
	va_end(ap);
}

void
crown_diag_warn(struct crown_diags *d, const char *file, unsigned line,
    unsigned col, const char *rule, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	diag_addv(d, CROWN_DIAG_WARNING, file, line, col, rule, fmt, ap);
	va_end(ap);
}

void
crown_diag_note(struct crown_diags *d, const char *file, unsigned line,
    unsigned col, const char *rule, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	diag_addv(d, CROWN_DIAG_NOTE, file, line, col, rule, fmt, ap);
	va_end(ap);
}

void
crown_diags_move(struct crown_diags *to, struct crown_diags *from)
{
	size_t	i;

	crown_grow(&to->v, &to->cap, to->n + from->n, sizeof(*to->v));
	for (i = 0; i < from->n; i++)
		to->v[to->n++] = from->v[i];
	from->n = 0;
}

size_t
crown_diags_errors(const struct crown_diags *d)
{
	size_t	i, n = 0;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == CROWN_DIAG_ERROR)
			n++;
	return n;
}

/* The widest quotation, in columns, and how far into it the caret may
 * be before the start is cut (mail text is at most 78 columns). */
#define QUOTE_WIDTH	60
#define QUOTE_LEAD	40

/*
 * The line s[0..n) as a mail client shows it: tabs to the next multiple
 * of 8, a control character (C0, DEL, C1) or a byte that is not UTF-8 as
 * '?', every other character one column.  *caret: the column character
 * col (from 1) begins at.  Cut to QUOTE_WIDTH columns around it, "..."
 * where it is cut.
 */
static char *
render(const char *line, size_t n, unsigned col, unsigned *caret)
{
	struct crown_buf	 b = { 0 }, out = { 0 };
	size_t			*at = NULL, cap = 0, w = 0, i, k;
	size_t			 from, to;
	gunichar		 c;
	unsigned		 ch = 1;

	*caret = 0;
	crown_buf_puts(&b, "");
	for (i = 0; i <= n; ch++) {
		if (ch == col)
			*caret = (unsigned)w;
		if (i == n)
			break;
		crown_grow(&at, &cap, w + 9, sizeof(*at));
		c = g_utf8_get_char_validated(line + i, (gssize)(n - i));
		k = c == (gunichar)-1 || c == (gunichar)-2 ? 1 :
		    (size_t)(g_utf8_next_char(line + i) - (line + i));
		if (c == '\t') {
			do {
				at[w++] = b.len;
				crown_buf_puts(&b, " ");
			} while (w % 8 != 0);
		} else {
			at[w++] = b.len;
			if (k == 1 && (c < 0x20 || c >= 0x7f))
				crown_buf_puts(&b, "?");
			else if (crown_diag_unsafe(c))	/* C1, bidi */
				crown_buf_puts(&b, "?");
			else
				crown_buf_add(&b, line + i, k);
		}
		i += k;
	}
	if (*caret == 0 && col > ch)
		*caret = (unsigned)w;
	/* the columns [from, to) shown */
	from = *caret > QUOTE_LEAD ? *caret - QUOTE_LEAD / 2 : 0;
	to = w - from > QUOTE_WIDTH ? from + QUOTE_WIDTH : w;
	crown_buf_puts(&out, from > 0 ? "..." : "");
	crown_buf_add(&out, b.data + (from < w ? at[from] : b.len),
	    (to < w ? at[to] : b.len) - (from < w ? at[from] : b.len));
	if (to < w)
		crown_buf_puts(&out, "...");
	if (from > 0)
		*caret = *caret - (unsigned)from + 3;
	free(at);
	crown_buf_release(&b);
	return out.data;
}

void
crown_diags_quote(struct crown_diags *d, size_t from, const char *buf,
    size_t len)
{
	struct crown_diag	*g;
	size_t			*start = NULL, cap = 0, nl = 0, i, e;
	unsigned		 max = 0;

	for (i = from; i < d->n; i++)
		if (d->v[i].line > max)
			max = d->v[i].line;
	if (max == 0)
		return;
	/* where each line up to the last one quoted starts */
	crown_grow(&start, &cap, 1, sizeof(*start));
	start[nl++] = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (i = 0; i < len && nl < max; i++)
		if (buf[i] == '\n') {
			crown_grow(&start, &cap, nl + 1, sizeof(*start));
			start[nl++] = i + 1;
		}
	for (i = from; i < d->n; i++) {
		g = &d->v[i];
		if (g->severity != CROWN_DIAG_ERROR || g->quote != NULL ||
		    g->line == 0 || g->line > nl)
			continue;
		for (e = start[g->line - 1]; e < len && buf[e] != '\n'; e++)
			;
		if (e > start[g->line - 1] && buf[e - 1] == '\r')
			e--;
		g->quote = render(buf + start[g->line - 1],
		    e - start[g->line - 1], g->col, &g->caret);
	}
	free(start);
}

/* The digits of n, for the quotation's margin. */
static int
digits(unsigned n)
{
	int	k = 1;

	while (n >= 10) {
		n /= 10;
		k++;
	}
	return k;
}

char *
crown_diag_format(const struct crown_diag *g)
{
	struct crown_buf	b = { 0 };

	crown_buf_puts(&b, g->file);
	if (g->line > 0)
		crown_buf_printf(&b, ":%u:%u", g->line, g->col);
	if (g->severity == CROWN_DIAG_NOTE)
		crown_buf_printf(&b, ": %s", g->msg);
	else
		crown_buf_printf(&b, ": %s: %s", g->severity ==
		    CROWN_DIAG_WARNING ? "warning" : "error", g->msg);
	if (g->rule != NULL)
		crown_buf_printf(&b, " (%s)", g->rule);
	if (g->quote != NULL)
		crown_buf_printf(&b, "\n    %u | %s\n    %*s | %*s^", g->line,
		    g->quote, digits(g->line), "", (int)g->caret, "");
	return b.data;
}

void
crown_diags_print(FILE *fp, const struct crown_diags *d)
{
	size_t	 i;
	char	*s;

	for (i = 0; i < d->n; i++) {
		s = crown_diag_format(&d->v[i]);
		fprintf(fp, "%s\n", s);
		free(s);
	}
}

void
crown_diags_release(struct crown_diags *d)
{
	size_t	i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].rule);
		free(d->v[i].msg);
		free(d->v[i].quote);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

bool
crown_diag_unsafe(unsigned long c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c ||
	    c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069);
}

unsigned long
crown_diag_unsafe_in(const char *s, size_t len, size_t *at)
{
	const char	*p = s, *end = s + len;
	gunichar	 c;

	while (p < end) {
		c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			p++;
			continue;
		}
		if (crown_diag_unsafe(c)) {
			if (at != NULL)
				*at = (size_t)(p - s);
			return c;
		}
		p = g_utf8_next_char(p);
	}
	return 0;
}

char *
crown_diag_escape(const char *s)
{
	struct crown_buf	 b = { 0 };
	const char		*p = s, *end = s + strlen(s);
	gunichar		 c;

	crown_buf_puts(&b, "");
	while (p < end) {
		c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			crown_buf_printf(&b, "\\x%02X", (unsigned char)*p);
			p++;
			continue;
		}
		if (crown_diag_unsafe(c))
			crown_buf_printf(&b, "\\u%04X", (unsigned)c);
		else
			crown_buf_add(&b, p, (size_t)(g_utf8_next_char(p) - p));
		p = g_utf8_next_char(p);
	}
	return b.data;
}
