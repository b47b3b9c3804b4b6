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
		crown_diag_add(d, file, line, col, NULL, "this line is "
		    "indented with non-breaking spaces (U+%04X), not plain "
		    "ones: %s", cp, nbsp_advice);
	else
		crown_diag_add(d, file, line, col, NULL, "a non-breaking "
		    "space (U+%04X) here, where a plain space belongs: %s", cp,
		    nbsp_advice);
}

/* The code point of the space-like character of n bytes at s. */
static unsigned
nbsp_code(const char *s, size_t n)
{
	return n == 2 ? 0xa0 : (unsigned char)s[2] == 0x87 ? 0x2007 : 0x202f;
}

/* Does s[lead, end) (a line without its comment) end with the header of
 * a block scalar: '|' or '>', and its indicators ("|-", ">+", "|2")? */
static bool
block_header(const char *s, size_t lead, size_t end)
{
	while (end > lead && (s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	while (end > lead && strchr("-+0123456789", s[end - 1]) != NULL)
		end--;
	if (end == lead || (s[end - 1] != '|' && s[end - 1] != '>'))
		return false;
	end--;
	return end == lead || s[end - 1] == ' ' || s[end - 1] == '\t';
}

/* What the scan of one line carries to the next. */
struct blanks {
	unsigned	flow;	/* open '[' and '{' */
	char		q;	/* the quote a scalar is open in, or 0 */
	bool		block;	/* in a block scalar's text, */
	size_t		parent;	/* lines indented more than it */
};

/*
 * The first non-breaking space of the line s[a, e) where YAML needs a
 * space, or e; *indent when it is in the indentation.
 */
static size_t
line_blanks(const char *s, size_t a, size_t e, struct blanks *st,
    bool *indent)
{
	size_t	i = a, k = 0, lead;
	char	prev = ' ';

	*indent = false;
	if (st->block) {
		while (i < e && s[i] == ' ')
			i++;
		if (i == e || s[i] == '\r' || i - a > st->parent)
			return e;	/* the block's text */
		st->block = false;
		i = a;
	}
	for (; st->q == 0 && i < e; i += k ? k : 1) {
		if ((k = crown_text_nbsp(s, i, e)) != 0) {
			*indent = true;
			return i;
		}
		if (s[i] != ' ' && s[i] != '\t')
			break;
	}
	lead = i;
	for (; i < e; i += k) {
		k = 1;
		if (st->q != 0) {
			if (s[i] == '\\' && st->q == '"')
				k = 2;
			else if (s[i] == st->q)
				st->q = 0;
			continue;
		}
		if ((k = crown_text_nbsp(s, i, e)) != 0) {
			if (prev == ':' || (prev == '-' && i == lead + 1) ||
			    (st->flow > 0 && strchr(",[{", prev) != NULL) ||
			    (i + k < e && (s[i + k] == ':' || (st->flow > 0 &&
			    strchr(",]}", s[i + k]) != NULL))))
				return i;
			prev = 'a';
			continue;
		}
		k = 1;
		if (s[i] == '#' && (prev == ' ' || prev == '\t'))
			break;
		if ((s[i] == '"' || s[i] == '\'') &&
		    strchr(" \t:,[{-", prev) != NULL)
			st->q = s[i];
		else if (s[i] == '[' || s[i] == '{')
			st->flow++;
		else if ((s[i] == ']' || s[i] == '}') && st->flow > 0)
			st->flow--;
		prev = s[i];
	}
	if (st->q == 0 && st->flow == 0 && block_header(s, lead, i < e ? i :
	    e)) {
		st->block = true;
		st->parent = lead - a;
	}
	return e;
}

/*
 * (text.h) Non-breaking spaces where YAML needs a space: in the
 * indentation of a line, beside a ':' (before it, or after it where a
 * value follows), after the '-' of an item, or beside a ',', '[', '{',
 * ']' or '}' of a flow collection.  Not in quotes, a comment or a block
 * scalar's text: there, and between the words of a value, one is text
 * like any other.  Each line with one is reported, at the first; 0 or
 * CROWN_EINVALID.
 */
int
crown_text_check_blanks(const char *file, const char *buf, size_t len,
    struct crown_diags *d)
{
	struct blanks	 st = { 0 };
	size_t		 a, e, i;
	unsigned	 line = 0, l, col;
	int		 bad = 0;
	bool		 indent;

	a = len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (; a < len; a = e + 1) {
		line++;
		for (e = a; e < len && buf[e] != '\n'; e++)
			;
		if ((i = line_blanks(buf, a, e, &st, &indent)) == e)
			continue;
		crown_text_place(buf + a, i - a, &l, &col);
		crown_text_nbsp_error(d, file, line, col, nbsp_code(buf + i,
		    crown_text_nbsp(buf, i, e)), indent);
		bad = CROWN_EINVALID;
	}
	return bad;
}
