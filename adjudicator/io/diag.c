/*
 * diag.c: the list of problems found in input files.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

void
crown_diag_add(struct crown_diags *d, const char *file, unsigned line,
    unsigned col, const char *rule, const char *fmt, ...)
{
	struct crown_diag	*g;
	struct crown_buf	 b = { 0 };
	va_list			 ap;
	int			 n;

	crown_grow(&d->v, &d->cap, d->n + 1, sizeof(*d->v));
	g = &d->v[d->n++];
	g->file = xstrdup(file != NULL ? file : "-");
	g->line = line;
	g->col = col;
	g->rule = rule != NULL ? xstrdup(rule) : NULL;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	crown_grow(&b.data, &b.cap, (size_t)(n < 0 ? 0 : n) + 1, 1);
	va_start(ap, fmt);
	vsnprintf(b.data, b.cap, fmt, ap);
	va_end(ap);
	g->msg = b.data;
}

char *
crown_diag_format(const struct crown_diag *g)
{
	struct crown_buf	b = { 0 };

	crown_buf_puts(&b, g->file);
	if (g->line > 0)
		crown_buf_printf(&b, ":%u:%u", g->line, g->col);
	crown_buf_printf(&b, ": error: %s", g->msg);
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
