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
 * a link to its page.  The rest is copied as it is: the map was made by
 * crown's templates, which escape every name.
 */
void	crown_html_svg(struct crown_buf *out, const char *svg, size_t len,
	    const struct crown_html_link *links, size_t nlinks);

/*
 * Whether a map may stand in a page: no script, event attribute,
 * embedded object or image, entity declaration, and no reference to
 * anything but a fragment of itself (href, src, url(), @import).
 * crown's own maps always may; one made from other templates may not.
 */
bool	crown_html_svg_safe(const char *svg, size_t len);

#endif
