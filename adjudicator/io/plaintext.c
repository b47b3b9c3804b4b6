/*
 * plaintext.c: text for a mail, which a player reads in whatever window
 * his mail program has: lines filled to a width (at most 78 columns,
 * RFC 5322's advice; a word longer than that, a URL, stands alone on its
 * line), and a report's Markdown made plain, its tables written as lists
 * (a table wider than the window is unreadable), its escapes undone.
 * The site and the committed Markdown keep their tables.
 */
#include <stdbool.h>
#include <string.h>

#include <glib.h>

#include "crown/plaintext.h"
#include "crown/template.h"
#include "crown/xalloc.h"

/* The columns s[0, n) takes: one a character (UTF-8). */
static size_t
columns(const char *s, size_t n)
{
	return (size_t)g_utf8_strlen(s, (gssize)n);
}

void
crown_text_fill(struct crown_buf *b, const char *text, size_t len,
    size_t width, const char *first, const char *rest)
{
	const char	*w = text, *we, *end = text + len;
	const char	*lead = first;
	size_t		 col = 0, n, lw;
	bool		 any = false;

	crown_buf_puts(b, "");
	for (;;) {
		while (w < end && (*w == ' ' || *w == '\t'))
			w++;
		if (w == end)
			break;
		for (we = w; we < end && *we != ' ' && *we != '\t'; we++)
			;
		n = columns(w, (size_t)(we - w));
		if (!any) {
			crown_buf_puts(b, lead);
			col = columns(lead, strlen(lead));
			lead = rest;
		} else if (col + 1 + n > width) {
			crown_buf_puts(b, "\n");
			crown_buf_puts(b, lead);
			col = columns(lead, strlen(lead));
		} else {
			crown_buf_puts(b, " ");
			col++;
		}
		lw = (size_t)(we - w);
		crown_buf_add(b, w, lw);
		col += n;
		any = true;
		w = we;
	}
	if (!any)
		crown_buf_add(b, first, strlen(first));
	/* a line of blanks is an empty line */
	while (b->len > 0 && b->data[b->len - 1] == ' ')
		b->data[--b->len] = '\0';
	crown_buf_puts(b, "\n");
}

/* A Markdown line made plain: its escapes undone. */
static void
plain(struct crown_buf *out, const char *s, size_t n)
{
	out->len = 0;
	crown_markdown_plain(out, s, n);
}

/* Is line l (without its newline) a table's delimiter row,
 * "|---|:---:|"? */
static bool
delimiter_row(const char *l, size_t n)
{
	size_t	i, dashes = 0;

	if (n == 0 || l[0] != '|')
		return false;
	for (i = 0; i < n; i++) {
		if (l[i] == '-')
			dashes++;
		else if (l[i] != '|' && l[i] != ':' && l[i] != ' ')
			return false;
	}
	return dashes >= 3;
}

/* The cells of a table row "| a | b \| c |": up to max, each [at, at +
 * len) in l, trimmed; an escaped bar is no border.  Returns how many. */
static size_t
cells(const char *l, size_t n, size_t max, size_t *at, size_t *len)
{
	size_t	i = 0, k = 0, from;

	if (i < n && l[i] == '|')
		i++;
	while (i < n && k < max) {
		from = i;
		while (i < n && !(l[i] == '|' && (i == 0 || l[i - 1] != '\\')))
			i++;
		if (i == n && from == n)
			break;
		while (from < i && l[from] == ' ')
			from++;
		at[k] = from;
		len[k] = i;
		while (len[k] > from && l[len[k] - 1] == ' ')
			len[k]--;
		len[k] -= from;
		k++;
		if (i < n)
			i++;	/* the bar */
		if (i == n)
			break;
	}
	return k;
}

#define MAX_CELLS	16

/* One table row as a list item: "- Head: cell; Head: cell", the cells
 * that are empty left out. */
static void
table_row(struct crown_buf *b, const char *head, size_t hn, const char *row,
    size_t rn, size_t width)
{
	struct crown_buf	 item = { 0 }, h = { 0 }, c = { 0 };
	size_t			 hat[MAX_CELLS], hlen[MAX_CELLS];
	size_t			 cat[MAX_CELLS], clen[MAX_CELLS];
	size_t			 nh, nc, i;

	nh = cells(head, hn, MAX_CELLS, hat, hlen);
	nc = cells(row, rn, MAX_CELLS, cat, clen);
	crown_buf_puts(&item, "");
	for (i = 0; i < nc; i++) {
		if (clen[i] == 0)
			continue;
		plain(&c, row + cat[i], clen[i]);
		if (i < nh && hlen[i] > 0) {
			plain(&h, head + hat[i], hlen[i]);
			crown_buf_printf(&item, "%s%s: %s", item.len > 0 ?
			    "; " : "", h.data, c.data);
		} else
			crown_buf_printf(&item, "%s%s", item.len > 0 ? "; " :
			    "", c.data);
	}
	crown_text_fill(b, item.data, item.len, width, "- ", "  ");
	crown_buf_release(&item);
	crown_buf_release(&h);
	crown_buf_release(&c);
}

/* The marker of a list item at l ("- ", "* ", "12. "): its length, or
 * 0. */
static size_t
list_marker(const char *l, size_t n)
{
	size_t	i = 0;

	if (n >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') &&
	    l[1] == ' ')
		return 2;
	while (i < n && l[i] >= '0' && l[i] <= '9')
		i++;
	if (i > 0 && i + 1 < n && (l[i] == '.' || l[i] == ')') &&
	    l[i + 1] == ' ')
		return i + 2;
	return 0;
}

void
crown_markdown_mail(struct crown_buf *b, const char *md, size_t len,
    size_t width)
{
	struct crown_buf	 line = { 0 }, lead = { 0 }, hang = { 0 };
	const char		*p = md, *end = md + len, *e, *head = NULL;
	size_t			 n, hn = 0, m, ind;
	bool			 fence = false, table = false;

	crown_buf_puts(b, "");
	for (; p < end; p = e < end ? e + 1 : end) {
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		n = (size_t)(e - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		/* code, as it is */
		if (n >= 3 && memcmp(p, "```", 3) == 0)
			fence = !fence;
		if (fence || (n >= 3 && memcmp(p, "```", 3) == 0) ||
		    (n >= 4 && memcmp(p, "    ", 4) == 0)) {
			crown_buf_add(b, p, n);
			crown_buf_puts(b, "\n");
			continue;
		}
		/* a table: its head, then its delimiter row, then rows */
		if (table && n > 0 && p[0] == '|') {
			table_row(b, head, hn, p, n, width);
			continue;
		}
		table = false;
		if (n > 0 && p[0] == '|' && e < end) {
			const char *nx = e + 1, *ne;

			ne = memchr(nx, '\n', (size_t)(end - nx));
			if (ne == NULL)
				ne = end;
			m = (size_t)(ne - nx);
			if (m > 0 && nx[m - 1] == '\r')
				m--;
			if (delimiter_row(nx, m)) {
				head = p;
				hn = n;
				table = true;
				e = ne;		/* past the delimiter row */
				continue;
			}
		}
		/* a heading, a list item, a paragraph: filled */
		for (ind = 0; ind < n && p[ind] == ' '; ind++)
			;
		m = list_marker(p + ind, n - ind);
		lead.len = 0;
		hang.len = 0;
		crown_buf_puts(&lead, "");
		crown_buf_puts(&hang, "");
		crown_buf_printf(&lead, "%*s%.*s", (int)ind, "", (int)m,
		    p + ind);
		crown_buf_printf(&hang, "%*s", (int)(ind + m), "");
		plain(&line, p + ind + m, n - ind - m);
		crown_text_fill(b, line.data, line.len, width, lead.data,
		    hang.data);
	}
	crown_buf_release(&line);
	crown_buf_release(&lead);
	crown_buf_release(&hang);
}
