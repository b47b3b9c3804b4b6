/*
 * svgsafe.c: a map made fit to stand inline in a page (html.h).  The SVG
 * is parsed by GLib's XML parser (GMarkup; crown links GLib through
 * GMime) and written again from what it parsed, keeping only the
 * elements and attributes of a static drawing (the allow-lists below):
 * nothing that runs (script, event attributes, animation), embeds
 * (foreignObject, image, feImage) or refers outside the map (an href
 * that is not '#...', a url() that is not url(#...), @import).  Text is
 * written XML-escaped, whatever it says: a unit named "javascript:" or
 * "url(x)" is shown as its name.  Comments, processing instructions and
 * the document type are left out.  crown's own maps (map.svg.tmpl) use
 * only what the lists allow, so they come out as they went in, but for
 * the XML declaration and the spelling of empty elements.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "crown/common.h"
#include "crown/html.h"
#include "crown/template.h"
#include "crown/xalloc.h"

/* The elements of a static drawing, sorted (strcmp) for bsearch. */
static const char *const elements[] = {
	"circle", "clipPath", "defs", "desc", "ellipse", "g",
	"line", "linearGradient", "marker", "mask", "path", "pattern",
	"polygon", "polyline", "radialGradient", "rect", "stop", "style",
	"svg", "symbol", "text", "title", "tspan", "use"
};

/* Their attributes: geometry, presentation, ids and classes; sorted. */
static const char *const attributes[] = {
	"alignment-baseline", "baseline-shift", "class", "clip-path",
	"clip-rule", "clipPathUnits", "color", "cx", "cy", "d",
	"display", "dominant-baseline", "dx", "dy", "fill",
	"fill-opacity", "fill-rule", "font-family", "font-size",
	"font-stretch", "font-style", "font-variant", "font-weight", "fx",
	"fy", "gradientTransform", "gradientUnits", "height", "href", "id",
	"lang", "lengthAdjust", "letter-spacing", "marker-end",
	"marker-mid", "marker-start", "markerHeight", "markerUnits",
	"markerWidth", "mask", "maskContentUnits", "maskUnits", "offset",
	"opacity", "orient", "paint-order", "pathLength",
	"patternContentUnits", "patternTransform", "patternUnits",
	"points", "preserveAspectRatio", "r", "refX", "refY", "role",
	"rotate", "rx", "ry", "shape-rendering", "spreadMethod",
	"stop-color", "stop-opacity", "stroke", "stroke-dasharray",
	"stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
	"stroke-miterlimit", "stroke-opacity", "stroke-width", "style",
	"text-anchor", "text-decoration", "text-rendering", "textLength",
	"transform", "type", "vector-effect", "version", "viewBox",
	"visibility", "white-space", "width", "word-spacing",
	"writing-mode", "x", "x1", "x2", "xlink:href", "xml:lang",
	"xml:space", "xmlns", "xmlns:xlink", "y", "y1", "y2"
};

struct clean {
	struct crown_buf	*out;
	struct crown_buf	 style;		/* a <style>'s text */
	unsigned		 skip;		/* depth inside a dropped one */
	bool			 open;		/* a start tag not yet closed */
	bool			 in_style;
};

static int	cmp_name(const void *, const void *);
static bool	listed(const char *const *, size_t, const char *);
static bool	css_safe(const char *);
static bool	value_safe(const char *, const char *);
static void	close_tag(struct clean *);
static void	on_start(GMarkupParseContext *, const char *, const char **,
		    const char **, void *, GError **);
static void	on_end(GMarkupParseContext *, const char *, void *,
		    GError **);
static void	on_text(GMarkupParseContext *, const char *, gsize, void *,
		    GError **);

static int
cmp_name(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *)entry);
}

/* Is name in the sorted list of n names?  Every attribute of a map is
 * looked up: a 1,000-unit map has a hundred thousand. */
static bool
listed(const char *const *list, size_t n, const char *name)
{
	return bsearch(name, list, n, sizeof(*list), cmp_name) != NULL;
}

/*
 * Style text that fetches nothing: every url( is url(#...), and no
 * at-rule (@import, @font-face), quote (image-set("...") takes a bare
 * string) or backslash (an escape could spell "url" otherwise).
 */
static bool
css_safe(const char *css)
{
	const char	*p;

	if (strpbrk(css, "@\\\"'") != NULL)
		return false;
	for (p = css; (p = strchr(p, '(')) != NULL; p++) {
		const char	*q = p + 1;

		if (p - css >= 3 && g_ascii_strncasecmp(p - 3, "url", 3) == 0) {
			while (*q == ' ' || *q == '\t' || *q == '\n' ||
			    *q == '\r')
				q++;
			if (*q != '#')
				return false;
		}
	}
	return g_strstr_len(css, -1, "expression") == NULL;
}

/* An attribute's value that refers to nothing outside the map. */
static bool
value_safe(const char *name, const char *value)
{
	if (strcmp(name, "href") == 0 || strcmp(name, "xlink:href") == 0)
		return value[0] == '#';
	return css_safe(value);
}

static void
close_tag(struct clean *c)
{
	if (c->open)
		crown_buf_puts(c->out, ">");
	c->open = false;
}

static void
on_start(GMarkupParseContext *ctx, const char *name, const char **names,
    const char **values, void *data, GError **error)
{
	struct clean	*c = data;
	size_t		 i;

	(void)ctx;
	(void)error;
	if (c->skip > 0 || c->in_style ||
	    !listed(elements, CROWN_NELEM(elements), name)) {
		c->skip++;
		return;
	}
	close_tag(c);
	crown_buf_puts(c->out, "<");
	crown_buf_puts(c->out, name);
	for (i = 0; names[i] != NULL; i++) {
		if (!listed(attributes, CROWN_NELEM(attributes), names[i]) ||
		    !value_safe(names[i], values[i]))
			continue;
		crown_buf_puts(c->out, " ");
		crown_buf_puts(c->out, names[i]);
		crown_buf_puts(c->out, "=\"");
		crown_escape_xml(c->out, values[i]);
		crown_buf_puts(c->out, "\"");
	}
	c->open = true;
	if (strcmp(name, "style") == 0) {
		c->in_style = true;
		crown_buf_release(&c->style);
		crown_buf_puts(&c->style, "");
	}
}

static void
on_end(GMarkupParseContext *ctx, const char *name, void *data,
    GError **error)
{
	struct clean	*c = data;

	(void)ctx;
	(void)error;
	if (c->skip > 0) {
		c->skip--;
		return;
	}
	if (c->in_style) {
		c->in_style = false;
		/* a style that could fetch is left out whole */
		if (css_safe(c->style.data)) {
			close_tag(c);
			crown_escape_xml(c->out, c->style.data);
		}
	}
	if (c->open)
		crown_buf_puts(c->out, "/>");
	else
		crown_buf_printf(c->out, "</%s>", name);
	c->open = false;
}

static void
on_text(GMarkupParseContext *ctx, const char *text, gsize len, void *data,
    GError **error)
{
	struct clean	*c = data;
	char		*s;

	(void)ctx;
	(void)error;
	if (c->skip > 0)
		return;
	s = xstrndup(text, len);
	if (c->in_style)
		crown_buf_puts(&c->style, s);
	else {
		close_tag(c);
		crown_escape_xml(c->out, s);
	}
	free(s);
}

int
crown_html_svg_clean(struct crown_buf *out, const char *svg, size_t len)
{
	static const GMarkupParser	 parser = { on_start, on_end, on_text,
					    NULL, NULL };
	GMarkupParseContext		*ctx;
	struct clean			 c;
	bool				 ok;

	memset(&c, 0, sizeof(c));
	c.out = out;
	crown_buf_puts(out, "");
	if (len > G_MAXSSIZE)
		return -1;
	/* CDATA as text, escaped like the rest */
	ctx = g_markup_parse_context_new(&parser,
	    G_MARKUP_TREAT_CDATA_AS_TEXT, &c, NULL);
	ok = g_markup_parse_context_parse(ctx, svg, (gssize)len, NULL) &&
	    g_markup_parse_context_end_parse(ctx, NULL);
	g_markup_parse_context_free(ctx);
	crown_buf_release(&c.style);
	return ok ? 0 : -1;
}
