/*
 * html.c: Markdown to HTML with cmark (GitHub's fork, for the tables of
 * the reports), and maps made ready to stand inline in a page (html.h).
 * Every call of cmark is here.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>

#include "crown/html.h"
#include "crown/template.h"
#include "crown/xalloc.h"

static bool
word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '-' || c >= 0x80;
}

/* The links by name, for match_at. */
struct names {
	const struct crown_html_link	**v;
	size_t				  n;
	size_t				  maxlen;
	bool				  first[256];	/* bytes names
							 * start with */
};

static int
cmp_link(const void *a, const void *b)
{
	return strcmp((*(const struct crown_html_link *const *)a)->name,
	    (*(const struct crown_html_link *const *)b)->name);
}

static void
names_init(struct names *nm, const struct crown_html_link *links, size_t n)
{
	size_t	i, len;

	memset(nm, 0, sizeof(*nm));
	nm->v = xcalloc(n + 1, sizeof(*nm->v));
	for (i = 0; i < n; i++) {
		if ((len = strlen(links[i].name)) == 0)
			continue;
		nm->v[nm->n++] = &links[i];
		nm->first[(unsigned char)links[i].name[0]] = true;
		if (len > nm->maxlen)
			nm->maxlen = len;
	}
	qsort(nm->v, nm->n, sizeof(*nm->v), cmp_link);
}

/* name against the first lim bytes of p (shorter if p ends first). */
static int
cmp_prefix(const char *name, const char *p, size_t lim)
{
	int	c = strncmp(name, p, lim);

	if (c != 0)
		return c;
	return strlen(name) > strnlen(p, lim) ? 1 : 0;
}

/*
 * The longest name that p starts with, ending at a word's end; NULL if
 * none.  The greatest name not above p's first lim bytes either is a
 * prefix of p (the longest such, since any longer one would sort
 * between it and p), or shares fewer bytes with p than lim, and every
 * prefix of p sorts below that many bytes of p: so lim shrinks each
 * round, and each round is a binary search.
 */
static const struct crown_html_link *
match_at(const struct names *nm, const char *p)
{
	const char	*c;
	size_t		 lim = nm->maxlen, lo, hi, mid, L;

	while (lim > 0) {
		lo = 0;
		hi = nm->n;
		while (lo < hi) {	/* the first name above p[0..lim) */
			mid = lo + (hi - lo) / 2;
			if (cmp_prefix(nm->v[mid]->name, p, lim) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			return NULL;
		c = nm->v[lo - 1]->name;
		for (L = 0; L < lim && c[L] != '\0' && c[L] == p[L]; L++)
			continue;
		if (c[L] == '\0') {
			if (!word_char((unsigned char)c[L - 1]) ||
			    !word_char((unsigned char)p[L]))
				return nm->v[lo - 1];
			lim = L - 1;	/* ends inside a word: a shorter one */
		} else
			lim = L;
	}
	return NULL;
}

/* The first mention of a name in s, as a whole word: its place in *at
 * and its link, or NULL. */
static const struct crown_html_link *
find_name(const char *s, const struct names *nm, size_t *at)
{
	const struct crown_html_link	*l;
	size_t				 i;

	for (i = 0; s[i] != '\0'; i++) {
		if (!nm->first[(unsigned char)s[i]])
			continue;	/* no name starts so */
		if (i > 0 && word_char((unsigned char)s[i - 1]) &&
		    word_char((unsigned char)s[i]))
			continue;	/* inside a word */
		if ((l = match_at(nm, s + i)) != NULL) {
			*at = i;
			return l;
		}
	}
	return NULL;
}

static bool
inside_link(cmark_node *n)
{
	for (n = cmark_node_parent(n); n != NULL; n = cmark_node_parent(n))
		if (cmark_node_get_type(n) == CMARK_NODE_LINK)
			return true;
	return false;
}

/* Split text node n around each mention of a name, the names linked. */
static void
link_text(cmark_node *n, const struct names *nm)
{
	const struct crown_html_link	*l;
	cmark_node			*a, *t, *rest;
	const char			*lit;
	char				*s;
	size_t				 at, len;

	while ((lit = cmark_node_get_literal(n)) != NULL &&
	    (l = find_name(lit, nm, &at)) != NULL) {
		s = xstrdup(lit);
		len = strlen(l->name);
		a = cmark_node_new(CMARK_NODE_LINK);
		cmark_node_set_url(a, l->href);
		t = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(t, l->name);
		cmark_node_append_child(a, t);
		rest = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(rest, s + at + len);
		s[at] = '\0';
		cmark_node_set_literal(n, s);
		cmark_node_insert_after(n, a);
		cmark_node_insert_after(a, rest);
		free(s);
		n = rest;
	}
}

/*
 * A link's or image's URL that stays inside the site: a fragment, or a
 * relative path with no scheme, not from the root and not up through
 * "..".  A page works from file:// and fetches nothing from outside.
 */
static bool
url_inside(const char *url)
{
	if (url == NULL || url[0] == '\0')
		return false;
	if (url[0] == '#')
		return true;
	return strchr(url, ':') == NULL && url[0] != '/' &&
	    url[0] != '\\' && strncmp(url, "../", 3) != 0 &&
	    strstr(url, "/../") == NULL && strcmp(url, "..") != 0;
}

/* The node replaced by its children: a link's text, an image's
 * description. */
static void
unwrap(cmark_node *n)
{
	cmark_node	*c;

	while ((c = cmark_node_first_child(n)) != NULL)
		cmark_node_insert_before(n, c);
	cmark_node_free(n);
}

void
crown_html_markdown(struct crown_buf *out, const char *md, size_t len,
    const struct crown_html_link *links, size_t nlinks)
{
	cmark_parser		*p;
	cmark_node		*doc, *n, **texts = NULL, **out_refs = NULL;
	cmark_iter		*it;
	cmark_event_type	 ev;
	cmark_mem		*mem = cmark_get_default_mem_allocator();
	struct names		 nm;
	char			*html;
	size_t			 i, ntexts = 0, cap = 0, nrefs = 0, rcap = 0;

	cmark_gfm_core_extensions_ensure_registered();
	/* not CMARK_OPT_UNSAFE: raw HTML and javascript: URLs are left
	 * out */
	p = cmark_parser_new(CMARK_OPT_DEFAULT);
	cmark_parser_attach_syntax_extension(p,
	    cmark_find_syntax_extension("table"));
	cmark_parser_feed(p, md, len);
	doc = cmark_parser_finish(p);
	/* links and images to outside the site, kept as their text; then
	 * the text nodes: the tree changes as they are linked */
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_EXIT &&
		    (cmark_node_get_type(n) == CMARK_NODE_LINK ||
		    cmark_node_get_type(n) == CMARK_NODE_IMAGE) &&
		    !url_inside(cmark_node_get_url(n))) {
			crown_grow(&out_refs, &rcap, nrefs + 1,
			    sizeof(*out_refs));
			out_refs[nrefs++] = n;
		}
	}
	cmark_iter_free(it);
	for (i = 0; i < nrefs; i++)
		unwrap(out_refs[i]);
	free(out_refs);
	it = cmark_iter_new(doc);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (ev == CMARK_EVENT_ENTER &&
		    cmark_node_get_type(n) == CMARK_NODE_TEXT &&
		    !inside_link(n)) {
			crown_grow(&texts, &cap, ntexts + 1, sizeof(*texts));
			texts[ntexts++] = n;
		}
	}
	cmark_iter_free(it);
	names_init(&nm, links, nlinks);
	for (i = 0; i < ntexts && nm.n > 0; i++)
		link_text(texts[i], &nm);
	free(nm.v);
	free(texts);
	html = cmark_render_html(doc, CMARK_OPT_DEFAULT,
	    cmark_parser_get_syntax_extensions(p));
	crown_buf_puts(out, html);
	mem->free(html);
	cmark_node_free(doc);
	cmark_parser_free(p);
}

/* s escaped as the map's templates escape names. */
static char *
xml_escaped(const char *s)
{
	struct crown_buf	b = { 0 };

	crown_buf_puts(&b, "");
	crown_escape_xml(&b, s);
	return b.data;
}

#define UNIT_GROUP	"<g class=\"unit "
#define TITLE		"<title>"

void
crown_html_svg(struct crown_buf *out, const char *svg, size_t len,
    const struct crown_html_link *links, size_t nlinks)
{
	const struct crown_html_link	*best;
	const char			*p = svg, *end = svg + len, *g, *t;
	const char			*close, *q;
	char				*text, **names;
	size_t				 i, n, best_len;

	/* past the XML declaration: a page has its own */
	if (len > 5 && strncmp(p, "<?xml", 5) == 0 &&
	    (q = memchr(p, '>', len)) != NULL) {
		p = q + 1;
		while (p < end && (*p == '\n' || *p == '\r'))
			p++;
	}
	text = xstrndup(p, (size_t)(end - p));
	names = xcalloc(nlinks + 1, sizeof(*names));
	for (i = 0; i < nlinks; i++)
		names[i] = xml_escaped(links[i].name);
	p = text;
	while ((g = strstr(p, UNIT_GROUP)) != NULL) {
		crown_buf_add(out, p, (size_t)(g - p));
		p = g;
		q = strchr(g, '>');
		close = strstr(g, "</g>");
		best = NULL;
		best_len = 0;
		if (q != NULL && close != NULL) {
			t = q + 1;
			while (*t == '\n' || *t == '\r' || *t == ' ')
				t++;
			if (strncmp(t, TITLE, strlen(TITLE)) == 0)
				t += strlen(TITLE);
			else
				t = NULL;
			for (i = 0; t != NULL && i < nlinks; i++) {
				n = strlen(names[i]);
				if (strncmp(t, names[i], n) == 0 &&
				    strncmp(t + n, " (", 2) == 0 &&
				    n > best_len) {
					best = &links[i];
					best_len = n;
				}
			}
		}
		if (best == NULL) {
			crown_buf_add(out, p, strlen(UNIT_GROUP));
			p += strlen(UNIT_GROUP);
			continue;
		}
		crown_buf_printf(out, "<a href=\"%s\">", best->href);
		close += strlen("</g>");
		crown_buf_add(out, p, (size_t)(close - p));
		crown_buf_puts(out, "</a>");
		p = close;
	}
	crown_buf_puts(out, p);
	for (i = 0; i < nlinks; i++)
		free(names[i]);
	free(names);
	free(text);
}
