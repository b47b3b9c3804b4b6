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
	g->file = crown_diag_quote(file != NULL ? file : "-");
	g->line = line;
	g->col = col;
	g->rule = rule != NULL ? xstrdup(rule) : NULL;
	msg = xvasprintf(fmt, ap);
	/* what a message quotes of the input is anyone's text */
	g->msg = crown_diag_quote(msg);
	free(msg);
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
crown_diag_quote(const char *s)
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
