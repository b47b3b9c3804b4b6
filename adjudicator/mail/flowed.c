/*
 * flowed.c: text/plain; format=flowed (RFC 3676) made plain again
 * (crown_mail_unflow, mail.h).  GMime decodes the transfer encoding and
 * the charset but has no filter for this, so the few rules are here:
 *
 *	a line ending in a space is "flowed": it and the next line are one
 *	line (with DelSp=yes the space goes too; RFC 3676, 4.2)
 *	a paragraph of flowed lines ends at a line that is not flowed, at
 *	a line of another quote depth (4.5), and before "-- ", the
 *	signature separator, which is never flowed (4.3)
 *	the quote depth is the count of '>' that begin the line; one space
 *	after them (or at the start of an unquoted line) was added by the
 *	sender's client, "space-stuffing", and is removed (4.4)
 *
 * A joined quoted line is written back as its '>' marks, a space and the
 * text, so that the one reader of orders still sees it as a quotation.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "crown/mail.h"
#include "crown/xalloc.h"

char *
crown_mail_unflow(const char *s, size_t len, bool delsp, size_t *outlen)
{
	struct crown_buf	 b = { 0 };
	const char		*nl;
	size_t			 i, e, q, c, end, depth, open_depth = 0;
	bool			 open = false, open_nl = false, sig, flowed;

	crown_buf_puts(&b, "");
	for (i = 0; i < len; i = e < len ? e + 1 : len) {
		nl = memchr(s + i, '\n', len - i);
		e = nl != NULL ? (size_t)(nl - s) : len;
		for (q = i; q < e && s[q] == '>'; q++)
			;
		depth = q - i;
		c = q < e && s[q] == ' ' ? q + 1 : q;
		sig = e - c == 3 && memcmp(s + c, "-- ", 3) == 0;
		flowed = !sig && e > c && s[e - 1] == ' ';
		/* a paragraph is not carried into another quote depth, nor
		 * into the signature */
		if (open && (depth != open_depth || sig)) {
			crown_buf_puts(&b, "\n");
			open = false;
		}
		if (!open) {
			for (q = 0; q < depth; q++)
				crown_buf_puts(&b, ">");
			if (depth > 0 && c < e)
				crown_buf_puts(&b, " ");
		}
		end = flowed && delsp ? e - 1 : e;
		crown_buf_add(&b, s + c, end - c);
		open = flowed;
		open_depth = depth;
		open_nl = e < len;
		if (!flowed && e < len)
			crown_buf_puts(&b, "\n");
	}
	/* a flowed line that ends the text keeps its line end */
	if (open && open_nl)
		crown_buf_puts(&b, "\n");
	*outlen = b.len;
	return b.data;
}
