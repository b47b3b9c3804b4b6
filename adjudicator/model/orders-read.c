/*
 * orders-read.c: the one reader of orders (orders-read.h): the text a
 * file or a mail body carries around the orders (a password line,
 * quotations and the attribution above them, a signature, the header
 * lines of a message forwarded in the text) is skipped, line by line and
 * in place, then what is left is read as YAML or shorthand.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crown/common.h"
#include "crown/orders-read.h"
#include "crown/shorthand.h"
#include "crown/text.h"
#include "crown/xalloc.h"

/* One line of the text: [start, end) without its "\r\n" or "\n". */
struct line {
	size_t	start, end, next;
	bool	quoted;		/* begins with '>' */
};

static bool	is_password(const char *, const struct line *);

/*
 * The words a mail client puts before the colon of the line it writes
 * above a quotation ("On Sun, 15 Mar 2026, X <x@y> wrote:", "Le ... a
 * écrit :", "Am ... schrieb X <x@y>:", and so on).
 */
static const char *const attribution_words[] = {
	"wrote", "writes", "\xc3\xa9" "crit", "schrieb", "escribi\xc3\xb3",
	"scritto", "schreef", "escreveu", "skrev", "napisa\xc5\x82",
	"kirjoitti",
	/* Russian */
	"\xd0\xbd\xd0\xb0\xd0\xbf\xd0\xb8\xd1\x81\xd0\xb0\xd0\xbb",
	NULL
};

/*
 * The line a client writes above a message it forwards in the text, or
 * quotes whole: "-------- Forwarded Message --------" (Thunderbird),
 * "---------- Forwarded message ---------" (Gmail), "Begin forwarded
 * message:" (Apple Mail), "-----Original Message-----" (Outlook), in
 * some languages; the dashes, blanks, "Begin" and a colon around it
 * aside.  And the names of the header lines below it ("From:", "Sent:",
 * "Betreff:", "Objet :").
 */
static const char *const forward_words[] = {
	"forwarded message", "weitergeleitete nachricht",
	"message transf\xc3\xa9r\xc3\xa9", "mensaje reenviado",
	"messaggio inoltrato", "mensagem encaminhada", "doorgestuurd bericht",
	NULL
};
/* The same line where Outlook writes it above the mail a reply answers
 * as well as above one forwarded: "-----Original Message-----". */
static const char *const original_words[] = {
	"original message", "urspr\xc3\xbcngliche nachricht",
	"message d'origine", "mensaje original", "messaggio originale",
	"mensagem original", "oorspronkelijk bericht", NULL
};
static const char *const forward_keys[] = {
	"from", "to", "cc", "bcc", "date", "sent", "subject", "reply-to",
	"von", "an", "gesendet", "datum", "betreff", "de", "\xc3\xa0", "a",
	"envoy\xc3\xa9", "objet", "para", "enviado", "asunto", "fecha", "da",
	"inviato", "oggetto", "data", "assunto", "van", "aan", "verzonden",
	"onderwerp", NULL
};

static void
line_at(struct line *l, const char *s, size_t len, size_t at)
{
	size_t	e = at;

	while (e < len && s[e] != '\n')
		e++;
	l->start = at;
	l->next = e < len ? e + 1 : len;
	if (e > at && s[e - 1] == '\r')
		e--;
	l->end = e;
}

/* Is c at s a blank: a space, a tab, or a no-break space (U+00A0,
 * U+2007, U+202F, which French clients put before the colon)?  Its
 * length. */
static size_t
blank_at(const char *s, size_t i, size_t end)
{
	if (s[i] == ' ' || s[i] == '\t')
		return 1;
	return crown_text_nbsp(s, i, end);
}

/* The end of s[start, end) without the blanks that end it. */
static size_t
trim_end(const char *s, size_t start, size_t end)
{
	for (;;) {
		if (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		else if (end - start >= 2 && crown_text_nbsp(s, end - 2,
		    end) == 2)
			end -= 2;
		else if (end - start >= 3 && crown_text_nbsp(s, end - 3,
		    end) == 3)
			end -= 3;
		else
			return end;
	}
}

static bool
is_blank(const char *s, const struct line *l)
{
	size_t	i, n;

	for (i = l->start; i < l->end; i += n)
		if ((n = blank_at(s, i, l->end)) == 0)
			return false;
	return true;
}

static bool
is_quoted(const char *s, const struct line *l)
{
	return l->end > l->start && s[l->start] == '>';
}

static bool
is_signature(const char *s, const struct line *l)
{
	size_t	n = l->end - l->start;

	return (n == 3 && memcmp(s + l->start, "-- ", 3) == 0) ||
	    (n == 2 && memcmp(s + l->start, "--", 2) == 0);
}

static bool
ascii_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * A line ending in a colon with a word of attribution_words before it;
 * *alone when that word is all of it ("wrote:" on its own, the end of
 * an attribution a client wrapped).
 */
static bool
is_attribution(const char *s, const struct line *l, bool *alone)
{
	const char	*w;
	size_t		 e, i, k, n, wl;

	e = trim_end(s, l->start, l->end);
	if (e == l->start || s[e - 1] != ':')
		return false;
	e = trim_end(s, l->start, e - 1);
	for (k = 0; (w = attribution_words[k]) != NULL; k++) {
		wl = strlen(w);
		for (i = l->start; i + wl <= e; i++) {
			if (strncasecmp(s + i, w, wl) != 0)
				continue;
			/* a word, not a part of one */
			n = i + wl;
			if ((i > l->start && ascii_letter(s[i - 1])) ||
			    (n < e && ascii_letter(s[n])))
				continue;
			*alone = i == l->start && n == e;
			return true;
		}
	}
	return false;
}

static void
blank_line(struct crown_orders_read *out, const struct line *l)
{
	memset(out->text + l->start, ' ', l->end - l->start);
	out->plain = false;
}

/*
 * "password: WORDS" (any case, blanks allowed around the colon): the
 * value, trimmed and without quotes around it, to *pw when it is still
 * NULL.  true when l is such a line.
 */
static bool
take_password(const char *s, const struct line *l, char **pw)
{
	size_t	a = l->start, b, e = l->end;

	while (a < e && (s[a] == ' ' || s[a] == '\t'))
		a++;
	if (e - a < 8 || strncasecmp(s + a, "password", 8) != 0)
		return false;
	for (b = a + 8; b < e && (s[b] == ' ' || s[b] == '\t'); b++)
		;
	if (b == e || s[b] != ':')
		return false;
	for (b++; b < e && (s[b] == ' ' || s[b] == '\t'); b++)
		;
	while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t'))
		e--;
	if (e - b >= 2 && (s[b] == '"' || s[b] == '\'') && s[e - 1] == s[b]) {
		b++;
		e--;
	}
	if (*pw == NULL)
		*pw = xstrndup(s + b, e - b);
	return true;
}

enum forward { NOT_FORWARD, FORWARD, ORIGINAL };

static bool
is_word_of(const char *s, size_t a, size_t e, const char *const *words)
{
	size_t	k, n;

	for (k = 0; words[k] != NULL; k++) {
		n = strlen(words[k]);
		if (e - a == n && strncasecmp(s + a, words[k], n) == 0)
			return true;
	}
	return false;
}

/* Is l the line above a message forwarded in the text (FORWARD), or
 * above a message forwarded or answered (ORIGINAL: Outlook's, and its
 * line of underscores, one only when header lines follow)? */
static enum forward
is_forward(const char *s, const struct line *l)
{
	size_t	a = l->start, e = trim_end(s, l->start, l->end), k;

	while (a < e && (s[a] == '-' || s[a] == ' ' || s[a] == '\t'))
		a++;
	if (e > a && s[e - 1] == ':')
		e--;
	while (e > a && (s[e - 1] == '-' || s[e - 1] == ' '))
		e--;
	if (e - a >= 6 && strncasecmp(s + a, "begin ", 6) == 0)
		a += 6;
	if (is_word_of(s, a, e, forward_words))
		return FORWARD;
	if (is_word_of(s, a, e, original_words))
		return ORIGINAL;
	for (k = l->start; k < l->end && s[k] == '_'; k++)
		;
	return k == l->end && k - l->start >= 10 ? ORIGINAL : NOT_FORWARD;
}

/* Is l a header line of a forwarded message: "Name: ..." with a name
 * of forward_keys? */
static bool
is_forward_header(const char *s, const struct line *l)
{
	const char	*colon;
	size_t		 e, k, n;

	colon = memchr(s + l->start, ':', l->end - l->start);
	if (colon == NULL)
		return false;
	e = trim_end(s, l->start, (size_t)(colon - s));
	for (k = 0; forward_keys[k] != NULL; k++) {
		n = strlen(forward_keys[k]);
		if (e - l->start == n && strncasecmp(s + l->start,
		    forward_keys[k], n) == 0)
			return true;
	}
	return false;
}

/*
 * A message forwarded in the text, whose line is at: that line and the
 * header lines below it (after blank lines, and with the lines that
 * continue one, indented) are skipped, the forwarded text read as the
 * rest.  Nothing is skipped unless a header line follows.  Below an
 * ORIGINAL line under text of the player's own, the message is the one
 * a reply answers, unquoted: the text ends there, as at a signature
 * (*n becomes at).  Returns the last line looked at.
 */
static size_t
skip_forward(struct crown_orders_read *out, const struct line *lines,
    size_t *n, size_t at, enum forward kind)
{
	const char	*s = out->text;
	size_t		 k = at + 1, first;

	while (k < *n && is_blank(s, &lines[k]))
		k++;
	if (k == *n || !is_forward_header(s, &lines[k]))
		return at;
	for (first = 0; kind == ORIGINAL && first < at; first++)
		if (!is_blank(s, &lines[first]) &&
		    !is_password(s, &lines[first])) {
			out->len = lines[at].start;
			out->text[out->len] = '\0';
			out->plain = false;
			*n = at;
			return at;
		}
	blank_line(out, &lines[at]);
	for (first = k; k < *n && !is_blank(s, &lines[k]); k++) {
		if (!is_forward_header(s, &lines[k]) && (k == first ||
		    blank_at(s, lines[k].start, lines[k].end) == 0))
			break;
		blank_line(out, &lines[k]);
	}
	return k - 1;
}

/* Is l a password line (take_password)? */
static bool
is_password(const char *s, const struct line *l)
{
	char	*pw = NULL;
	bool	 yes = take_password(s, l, &pw);

	free(pw);
	return yes;
}

/*
 * The lines above the quotation that begins at l: the last line before
 * it that is not blank, when it is an attribution, and the line above
 * that when the client wrapped the attribution before its last word.
 */
static void
skip_attribution(struct crown_orders_read *out, const struct line *lines,
    size_t at)
{
	const char	*s = out->text;
	size_t		 k = at;
	bool		 alone;

	while (k > 0 && is_blank(s, &lines[k - 1]))
		k--;
	if (k == 0 || lines[k - 1].quoted ||
	    !is_attribution(s, &lines[k - 1], &alone))
		return;
	blank_line(out, &lines[k - 1]);
	if (alone && k > 1 && !is_blank(s, &lines[k - 2]) &&
	    !lines[k - 2].quoted)
		blank_line(out, &lines[k - 2]);
}

void
crown_orders_read_text(struct crown_orders_read *out, const char *buf,
    size_t len)
{
	struct line	*lines = NULL;
	size_t		 cap = 0, n = 0, at, i;
	enum forward	 kind;

	memset(out, 0, sizeof(*out));
	out->plain = true;
	out->text = xmalloc(len + 1);
	memcpy(out->text, buf, len);
	out->text[len] = '\0';
	out->len = len;
	/* the lines up to a signature, which ends the orders */
	for (at = 0; at < len; at = lines[n++].next) {
		crown_grow(&lines, &cap, n + 1, sizeof(*lines));
		line_at(&lines[n], out->text, len, at);
		if (is_signature(out->text, &lines[n])) {
			out->len = at;
			out->text[at] = '\0';
			out->plain = false;
			break;
		}
	}
	/* the quotations, then what clients write above each */
	for (i = 0; i < n; i++)
		lines[i].quoted = is_quoted(out->text, &lines[i]);
	for (i = 0; i < n; i++)
		if (lines[i].quoted && (i == 0 || !lines[i - 1].quoted))
			skip_attribution(out, lines, i);
	for (i = 0; i < n; i++)
		if (lines[i].quoted)
			blank_line(out, &lines[i]);
	for (i = 0; i < n; i++)
		if ((kind = is_forward(out->text, &lines[i])) != NOT_FORWARD)
			i = skip_forward(out, lines, &n, i, kind);
	for (i = 0; i < n; i++)
		if (take_password(out->text, &lines[i], &out->password))
			blank_line(out, &lines[i]);
	out->yaml = crown_shorthand_is_yaml(out->text, out->len);
	free(lines);
}

int
crown_orders_read(struct crown_orders_read *out, const char *file,
    const char *buf, size_t len, const struct crown_orders_context *ctx,
    struct crown_diags *d)
{
	struct crown_orders	*o;
	int			 error;

	crown_orders_read_text(out, buf, len);
	/* before either parser: neither could say what UTF-16 is */
	if (crown_text_check_encoding(file, out->text, out->len, d) != 0)
		return CROWN_EINVALID;
	if (out->yaml)
		return crown_orders_parse(&out->orders, file, out->text,
		    out->len, d);
	error = crown_shorthand_parse(&out->orders, file, out->text, out->len,
	    d);
	if ((o = out->orders) == NULL)
		return error;
	if (o->game == NULL && ctx->game != NULL)
		o->game = xstrdup(ctx->game);
	if (o->turn < 0)
		o->turn = ctx->turn;
	if (o->side == NULL && !ctx->sender) {
		crown_diag_add(d, file, 1, 1, NULL, "say which side these "
		    "orders are for, with a line 'side: ID' (the mail gets "
		    "it from the sender)");
		error = CROWN_EINVALID;
	}
	/* a reply quoting crown's answer, and nothing else, must not
	 * replace real orders with none: holding is said in so many words */
	if (error == 0 && o->nunits == 0 && o->nleaders == 0) {
		crown_diag_add(d, file, 0, 0, NULL, "no orders found: write a "
		    "line 'UNIT: ACTION; ...' for each unit (to hold, 'UNIT: "
		    "hold'), or attach an orders file");
		error = CROWN_EINVALID;
	}
	return error;
}

int
crown_orders_read_kept(struct crown_buf *out, const char *buf, size_t len,
    const struct crown_orders *o)
{
	struct crown_orders_read	r;
	bool				plain;

	crown_orders_read_text(&r, buf, len);
	plain = r.plain && r.yaml;
	crown_orders_read_release(&r);
	if (plain) {
		crown_buf_add(out, buf, len);
		return 0;
	}
	return crown_shorthand_to_yaml(out, o);
}

void
crown_orders_read_release(struct crown_orders_read *r)
{
	crown_orders_free(r->orders);
	free(r->password);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
