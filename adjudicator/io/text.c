/*
 * text.c: what is said of text as a player sent it, before a parser
 * reads it (text.h): its place, its encoding, the non-breaking spaces a
 * mail program puts for spaces.
 */
#include <stdbool.h>
#include <string.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/text.h"

void
crown_text_place(const char *buf, size_t off, unsigned *line, unsigned *col)
{
	const unsigned char	*p = (const unsigned char *)buf;
	size_t			 i;

	*line = *col = 1;
	for (i = 0; i < off; i++) {
		if (p[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if ((p[i] & 0xc0) != 0x80)
			(*col)++;
	}
}

void
crown_text_not_utf8(struct crown_diags *d, const char *file, unsigned line,
    unsigned col, unsigned byte)
{
	crown_diag_add(d, file, line, col, NULL, "text is not UTF-8: the byte "
	    "0x%02X here is no UTF-8 character (Latin-1 or Windows-1252 "
	    "text?): save the file as UTF-8 (in the editor's 'Save as', the "
	    "encoding UTF-8)", byte);
}

/* The name of the wide encoding buf is in, or NULL: by its byte-order
 * mark, or a NUL byte beside nearly every character of its start. */
static const char *
wide_encoding(const unsigned char *s, size_t len)
{
	size_t	i, n, le = 0, be = 0;

	if (len >= 4 && memcmp(s, "\xff\xfe\0\0", 4) == 0)
		return "UTF-32 (little-endian)";
	if (len >= 4 && memcmp(s, "\0\0\xfe\xff", 4) == 0)
		return "UTF-32 (big-endian)";
	if (len >= 2 && s[0] == 0xff && s[1] == 0xfe)
		return "UTF-16 (little-endian)";
	if (len >= 2 && s[0] == 0xfe && s[1] == 0xff)
		return "UTF-16 (big-endian)";
	n = len / 2 < 64 ? len / 2 : 64;
	for (i = 0; i < n; i++) {
		le += s[2 * i] != 0 && s[2 * i + 1] == 0;
		be += s[2 * i] == 0 && s[2 * i + 1] != 0;
	}
	if (n > 0 && le * 4 >= n * 3)
		return "UTF-16 (little-endian)";
	if (n > 0 && be * 4 >= n * 3)
		return "UTF-16 (big-endian)";
	return NULL;
}

int
crown_text_check_encoding(const char *file, const char *buf, size_t len,
    struct crown_diags *d)
{
	const char	*name;

	if ((name = wide_encoding((const unsigned char *)buf, len)) == NULL)
		return 0;
	crown_diag_add(d, file, 1, 1, NULL, "the text is in %s, not UTF-8: "
	    "save the file as UTF-8 (in the editor's 'Save as', the encoding "
	    "UTF-8) and send it again", name);
	return CROWN_EINVALID;
}

size_t
crown_text_nbsp(const char *s, size_t i, size_t end)
{
	const unsigned char	*p = (const unsigned char *)s + i;

	if (end - i >= 2 && p[0] == 0xc2 && p[1] == 0xa0)
		return 2;
	if (end - i >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0x87 || p[2] == 0xaf))
		return 3;
	return 0;
}

/* What a player does about a non-breaking space. */
static const char nbsp_advice[] = "your mail program put it there; send "
    "the orders as plain text (not rich text or HTML), or attach them as a "
    "file";

void
crown_text_nbsp_error(struct crown_diags *d, const char *file,
    unsigned line, unsigned col, unsigned cp, bool indent)
{
	if (indent)
		crown_diag_add(d, file, line, col, NULL, "this line is indented "
		    "with non-breaking spaces (U+%04X), not plain ones: %s", cp,
		    nbsp_advice);
	else
		crown_diag_add(d, file, line, col, NULL, "a non-breaking space "
		    "(U+%04X) here, where a plain space belongs: %s", cp,
		    nbsp_advice);
}

/* The code point of the space-like character of n bytes at s. */
static unsigned
nbsp_code(const char *s, size_t n)
{
	return n == 2 ? 0xa0 : (unsigned char)s[2] == 0x87 ? 0x2007 : 0x202f;
}

/*
 * (text.h) Non-breaking spaces where YAML needs a space: in the indentation of a
 * line, beside a ':' (before it, or after it where a value follows),
 * after the '-' of an item, or beside a ',', '[', '{', ']' or '}' of a
 * flow collection.  Not in quotes or a comment: there, and between the
 * words of a value, one is text like any other.  Each line with one is
 * reported, at the first; 0 or CROWN_EINVALID.
 */
int
crown_text_check_blanks(const char *file, const char *buf, size_t len,
    struct crown_diags *d)
{
	size_t		 a, e, i, k, lead;
	unsigned	 line = 0, l, col;
	unsigned	 flow = 0;
	char		 q, prev;
	int		 bad = 0;

	a = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (; a < len; a = e + 1) {
		line++;
		for (e = a; e < len && buf[e] != '\n'; e++)
			;
		/* the indentation */
		for (i = a, k = 0; i < e; i += k ? k : 1) {
			if ((k = crown_text_nbsp(buf, i, e)) != 0)
				break;
			if (buf[i] != ' ' && buf[i] != '\t')
				break;
		}
		if (k != 0) {
			crown_text_place(buf + a, i - a, &l, &col);
			crown_text_nbsp_error(d, file, line, col,
			    nbsp_code(buf + i, k), true);
			bad = CROWN_EINVALID;
			continue;
		}
		lead = i;
		q = 0;
		prev = ' ';
		for (; i < e; i += k) {
			k = 1;
			if (q != 0) {
				if (buf[i] == '\\' && q == '"')
					k = 2;
				else if (buf[i] == q)
					q = 0;
				continue;
			}
			if ((k = crown_text_nbsp(buf, i, e)) != 0) {
				if (prev == ':' || (prev == '-' && i == lead +
				    1) || (flow > 0 && strchr(",[{", prev) !=
				    NULL) || (i + k < e && (buf[i + k] == ':' ||
				    (flow > 0 && strchr(",]}", buf[i + k]) !=
				    NULL))))
					break;
				prev = 'a';
				continue;
			}
			k = 1;
			if (buf[i] == '#' && (prev == ' ' || prev == '\t'))
				break;
			if ((buf[i] == '"' || buf[i] == '\'') &&
			    strchr(" \t:,[{-", prev) != NULL)
				q = buf[i];
			else if (buf[i] == '[' || buf[i] == '{')
				flow++;
			else if ((buf[i] == ']' || buf[i] == '}') && flow > 0)
				flow--;
			prev = buf[i];
		}
		if (i < e && k > 1) {
			crown_text_place(buf + a, i - a, &l, &col);
			crown_text_nbsp_error(d, file, line, col,
			    nbsp_code(buf + i, k), false);
			bad = CROWN_EINVALID;
		}
	}
	return bad;
}
