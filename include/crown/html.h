/*
 * html.h: what the pages of crown site are made of besides their
 * templates: the reports' Markdown as HTML (cmark, with GitHub's table
 * extension: the reports' tables), and a committed map made ready to
 * stand inline in a page.  Both link the units they name to the units'
 * pages.
 */
#ifndef CROWN_HTML_H
#define CROWN_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/xalloc.h"

/* A unit that has a page: where it is named, link it to href. */
struct crown_html_link {
	const char	*name;		/* as the reports and the map name it */
	const char	*href;		/* relative, already safe in a URL */
};

/*
 * Markdown to HTML, appended to out.  Raw HTML in the text is left out
 * and unsafe URLs (javascript: and the like) dropped: cmark's safe
 * rendering, since names come from the players.  Every whole-word
 * mention of a link's name in the text (outside links and code) becomes
 * a link, the longest name first where names overlap.
 */
void	crown_html_markdown(struct crown_buf *out, const char *md,
	    size_t len, const struct crown_html_link *links, size_t nlinks);

/*
 * A map.svg to stand inside an HTML page, appended to out: without its
 * XML declaration, and each unit's group (<g class="unit ..."> whose
 * <title> is the unit's name, XML-escaped, then " (status)") wrapped in
 * a link to its page.  The rest is copied as it is: the map is one that
 * crown_html_svg_clean wrote.
 */
void	crown_html_svg(struct crown_buf *out, const char *svg, size_t len,
	    const struct crown_html_link *links, size_t nlinks);

/*
 * A map made fit to stand in a page, into out: parsed as XML (GLib's
 * GMarkup) and written again with only the elements and attributes of a
 * static drawing; no script, event attribute, animation, embedded object
 * or image, and no reference to anything but a fragment of itself (href,
 * url(), @import); text escaped, whatever it says (svgsafe.c).  0, or -1
 * when the map is not well-formed XML.
 */
int	crown_html_svg_clean(struct crown_buf *out, const char *svg,
	    size_t len);

#endif
