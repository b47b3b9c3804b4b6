/*
 * text.h: text as a player sent it, before a parser reads it: places in
 * it, and the refusals of what neither parser could explain (an encoding
 * other than UTF-8, the non-breaking spaces a mail program puts for
 * spaces).
 */
#ifndef CROWN_TEXT_H
#define CROWN_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"

/* Line and column (in characters, both from 1) of byte off of buf, as
 * places are given in messages. */
void	crown_text_place(const char *buf, size_t off, unsigned *line,
	    unsigned *col);

/*
 * Text saved in UTF-16 or UTF-32 (with a byte-order mark, or without one:
 * a NUL beside nearly every character): refused at 1:1, saying to save it
 * as UTF-8.  0 or CROWN_EINVALID.  crown_ydoc_parse and the reader of
 * orders call it before anything else reads the bytes.
 */
int	crown_text_check_encoding(const char *file, const char *buf,
	    size_t len, struct crown_diags *d);

/* The refusal of text that is not UTF-8 at line:col, where byte is. */
void	crown_text_not_utf8(struct crown_diags *d, const char *file,
	    unsigned line, unsigned col, unsigned byte);

/* The length of the space-like character a mail program writes for a
 * space at s[i..end): U+00A0, U+2007 or U+202F; else 0. */
size_t	crown_text_nbsp(const char *s, size_t i, size_t end);

/*
 * Such characters where YAML needs a space (in the indentation, beside a
 * ':', after a '- ' or a flow's ',', '[' or '{'; not in quotes or a
 * comment), each line with one refused at the first: 0 or CROWN_EINVALID.
 */
int	crown_text_check_blanks(const char *file, const char *buf, size_t len,
	    struct crown_diags *d);

/* The refusal of such a character (code point cp) where a space belongs,
 * at line:col: in the indentation (indent), or as a separator. */
void	crown_text_nbsp_error(struct crown_diags *d, const char *file,
	    unsigned line, unsigned col, unsigned cp, bool indent);

#endif
