/*
 * plaintext.h: text for a mail (plaintext.c): lines filled to a width, a
 * report's Markdown made plain with its tables as lists.
 */
#ifndef CROWN_PLAINTEXT_H
#define CROWN_PLAINTEXT_H

#include <stddef.h>

#include "crown/xalloc.h"

/* The columns of a mail's text (RFC 5322, 2.1.1: 78 at most). */
#define CROWN_MAIL_WIDTH	78

/*
 * text[0, len), one paragraph, its words filled into lines of at most
 * width columns, the first line begun with `first', the others with
 * `rest' (a list item's hanging indent); a word longer than a line (a
 * URL) stands alone on its line.  Ends with a newline.
 */
void	crown_text_fill(struct crown_buf *, const char *text, size_t len,
	    size_t width, const char *first, const char *rest);

/*
 * The Markdown md[0, len) of a report as a mail's text: escapes undone
 * (crown_markdown_plain), each table a list of its rows ("- Head: cell;
 * Head: cell"), headings, paragraphs and list items filled to width,
 * code (fenced or indented four spaces) as it is.
 */
void	crown_markdown_mail(struct crown_buf *, const char *md, size_t len,
	    size_t width);

#endif
