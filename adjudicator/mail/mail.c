/*
 * mail.c: reading players' mail and writing crown's, with GMime 3
 * (mail.h).  Every use of GMime and GLib is in this file but pgp.c's,
 * the signatures, and parts.c's, the walk of a message's parts.
 *
 * Reading: GMime parses the message and decodes quoted-printable and
 * base64; parts.c walks its parts (text converted to UTF-8 from its
 * charset, line ends made "\n", format=flowed unflowed).  Writing:
 * multipart/mixed messages whose boundary, Message-ID and Maildir name
 * come from a SHA-256 of their content, so the same inputs give the
 * same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <sodium.h>

#include "crown/calendar.h"
#include "crown/common.h"
#include "crown/diag.h"
#include "crown/mail.h"
#include "crown/plaintext.h"
#include "crown/report.h"
#include "crown/template.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#include "parts.h"

/* MIME levels (multiparts, embedded messages) beyond this are refused
 * before GMime sees them. */
#define MAX_NESTING	64
#define MAX_ADDR	254

/* GMime's one initialisation, which cannot fail.  libsodium needs none
 * here: SHA-256, hex and a constant-time comparison pick no
 * implementation at run time and draw no random bytes, which is all
 * that sodium_init prepares. */
static void
mail_init(void)
{
	static bool	done;

	if (done)
		return;
	done = true;
	g_mime_init();
}

/* Hashes. */

void
crown_mail_sha256_hex(char *out, const void *data, size_t len)
{
	unsigned char	h[crypto_hash_sha256_BYTES];

	mail_init();
	crypto_hash_sha256(h, data, len);
	sodium_bin2hex(out, CROWN_SHA256_HEX, h, sizeof(h));
}

bool
crown_mail_password_ok(const char *password, const char *hex)
{
	char	got[CROWN_SHA256_HEX];

	if (password == NULL || hex == NULL || strlen(hex) != 64)
		return false;
	crown_mail_sha256_hex(got, password, strlen(password));
	return sodium_memcmp(got, hex, 64) == 0;
}

/* Text fit to echo. */

char *
crown_mail_printable(const char *s, bool lines)
{
	struct crown_buf	 b = { 0 };
	const char		*p, *end;
	gunichar		 c;

	crown_buf_puts(&b, "");
	if (s == NULL)
		return b.data;
	end = s + strlen(s);
	for (p = s; p < end; ) {
		c = g_utf8_get_char_validated(p, end - p);
		if (c == (gunichar)-1 || c == (gunichar)-2) {
			/* not UTF-8: a lone 0x9b is a CSI to some terminals */
			crown_buf_puts(&b, "?");
			p++;
			continue;
		}
		if (c == '\n' && lines)
			crown_buf_puts(&b, "\n");
		else if (c == '\t' || c == '\n' || c == '\r')
			crown_buf_puts(&b, " ");
		else if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
			crown_buf_puts(&b, "?");
		else if (crown_diag_unsafe(c))
			/* a bidi control: shown, as a message shows it */
			crown_buf_printf(&b, "\\u%04X", (unsigned)c);
		else
			crown_buf_add(&b, p,
			    (size_t)(g_utf8_next_char(p) - p));
		p = g_utf8_next_char(p);
	}
	return b.data;
}

/* Reading a message. */

bool
crown_mail_addr_ok(const char *a)
{
	size_t	i;

	if (a == NULL || *a == '\0' || strlen(a) > MAX_ADDR ||
	    strchr(a, '@') == NULL)
		return false;
	for (i = 0; a[i] != '\0'; i++)
		if ((unsigned char)a[i] <= ' ' || a[i] == 0x7f ||
		    a[i] == '<' || a[i] == '>')
			return false;
	return true;
}

/*
 * How deep the MIME structure of a message goes, counted as GMime will
 * build it: each multipart with a boundary and each embedded message
 * (message/..., or a part without a type in a multipart/digest) is a
 * level.  GMime parses the levels by recursion, so a message deeper than
 * MAX_NESTING is refused before GMime sees it.  Only header blocks count:
 * the headers of the message, of each part after a boundary line of an
 * open multipart, and of an embedded message; the words of a body are
 * never read as structure.  A boundary line closes every level opened
 * inside its multipart.
 */
struct level {
	char	*boundary;	/* NULL for an embedded message */
	size_t	 len;
	bool	 digest;
};

/* The end of the line at i (after its '\n'). */
static size_t
line_end(const char *data, size_t len, size_t i)
{
	const char	*nl = memchr(data + i, '\n', len - i);

	return nl != NULL ? (size_t)(nl - data) + 1 : len;
}

/* Read the header block at *pos, up to and past its blank line; the
 * value of its last Content-Type header, unfolded (caller frees), or
 * NULL. */
static char *
header_block(const char *data, size_t len, size_t *pos)
{
	struct crown_buf	 ct = { 0 };
	size_t			 i = *pos, e;
	bool			 in_ct = false;

	while (i < len) {
		e = line_end(data, len, i);
		if (data[i] == '\n' || (data[i] == '\r' && e - i == 2)) {
			i = e;
			break;
		}
		if (data[i] == ' ' || data[i] == '\t') {
			if (in_ct)
				crown_buf_add(&ct, data + i, e - i);
		} else if (e - i >= 13 &&
		    strncasecmp(data + i, "content-type:", 13) == 0) {
			ct.len = 0;
			crown_buf_add(&ct, data + i + 13, e - i - 13);
			in_ct = true;
		} else
			in_ct = false;
		i = e;
	}
	*pos = i;
	if (ct.data != NULL) {
		/* GMime's parser reads a value without line ends */
		for (e = 0; e < ct.len; e++)
			if (ct.data[e] == '\r' || ct.data[e] == '\n' ||
			    ct.data[e] == '\0')
				ct.data[e] = ' ';
	}
	return ct.data;
}

static bool
too_nested(const char *data, size_t len)
{
	struct level		 stack[MAX_NESTING + 1];
	GMimeContentType	*ct;
	const char		*b;
	char			*value;
	size_t			 n = 0, i = 0, e, k, j;
	bool			 headers = true, deep = false, digest;

	while (i < len && !deep) {
		if (headers) {
			digest = n > 0 && stack[n - 1].digest;
			value = header_block(data, len, &i);
			headers = false;
			ct = value != NULL ? g_mime_content_type_parse(NULL,
			    value) : NULL;
			free(value);
			if ((ct == NULL && digest) || (ct != NULL &&
			    g_mime_content_type_is_type(ct, "message", "*"))) {
				if (n == MAX_NESTING)
					deep = true;
				else {
					stack[n].boundary = NULL;
					stack[n].len = 0;
					stack[n++].digest = false;
					headers = true;
				}
			} else if (ct != NULL &&
			    g_mime_content_type_is_type(ct, "multipart",
			    "*") && (b = g_mime_content_type_get_parameter(ct,
			    "boundary")) != NULL && *b != '\0') {
				if (n == MAX_NESTING)
					deep = true;
				else {
					stack[n].boundary = xstrdup(b);
					stack[n].len = strlen(b);
					stack[n++].digest =
					    g_mime_content_type_is_type(ct,
					    "multipart", "digest");
				}
			}
			if (ct != NULL)
				g_object_unref(ct);
			continue;
		}
		e = line_end(data, len, i);
		if (e - i >= 2 && data[i] == '-' && data[i + 1] == '-') {
			/* the innermost multipart whose boundary it is */
			for (k = n; k > 0; k--)
				if (stack[k - 1].boundary != NULL &&
				    e - i - 2 >= stack[k - 1].len &&
				    memcmp(data + i + 2, stack[k - 1].boundary,
				    stack[k - 1].len) == 0)
					break;
			if (k > 0) {
				j = i + 2 + stack[k - 1].len;
				for (; n > k; n--)
					free(stack[n - 1].boundary);
				if (e - j >= 2 && data[j] == '-' &&
				    data[j + 1] == '-') {
					free(stack[n - 1].boundary);
					n--;
				} else
					headers = true;
			}
		}
		i = e;
	}
	for (; n > 0; n--)
		free(stack[n - 1].boundary);
	return deep;
}

/* The first word of a header's value, for a reason (caller frees). */
static char *
first_word(const char *v)
{
	size_t	n;
	char	*w, *clean;

	while (*v == ' ' || *v == '\t')
		v++;
	n = strcspn(v, " \t;(");
	w = xstrndup(v, n < 32 ? n : 32);
	clean = crown_mail_printable(w, false);
	free(w);
	return clean;
}

/* Does the comma-separated list v name one of words (NULL-ended)? */
static bool
names_any(const char *v, const char *const *words)
{
	char	**w = g_strsplit_set(v, ", \t", -1);
	size_t	  i, k;
	bool	  found = false;

	for (i = 0; w[i] != NULL && !found; i++)
		for (k = 0; words[k] != NULL && !found; k++)
			found = g_ascii_strcasecmp(w[i], words[k]) == 0;
	g_strfreev(w);
	return found;
}

/*
 * Why a message is automatic, never to be answered: RFC 3834's
 * Auto-Submitted other than "no" and its null Return-Path (bounces and
 * auto-replies are sent from <>); Precedence bulk, junk or list; a
 * mailing list's List-Id or List-Unsubscribe (RFC 2369, 2919); what
 * auto-responders that follow no RFC write, X-Autoreply (Gmail's
 * vacation reply, beside Auto-Submitted), X-Autorespond (cPanel); and
 * Exchange's X-Auto-Response-Suppress asking for no auto-reply (All,
 * DR or AutoReply), which its own replies carry.  NULL for a person's
 * mail; caller frees.
 */
static char *
automatic(GMimeObject *obj)
{
	static const char *const precedence[] = { "bulk", "junk", "list",
	    NULL };
	static const char *const suppress[] = { "all", "dr", "autoreply",
	    NULL };
	static const char *const present[] = { "List-Id",
	    "List-Unsubscribe", "X-Autoreply", "X-Autorespond", NULL };
	const char	*v;
	char		*w, *why = NULL;
	size_t		 k;

	if ((v = g_mime_object_get_header(obj, "Auto-Submitted")) != NULL) {
		w = first_word(v);
		if (g_ascii_strcasecmp(w, "no") != 0)
			why = xasprintf("Auto-Submitted: %s", w);
		free(w);
	}
	if (why == NULL &&
	    (v = g_mime_object_get_header(obj, "Precedence")) != NULL) {
		w = first_word(v);
		if (names_any(w, precedence))
			why = xasprintf("Precedence: %s", w);
		free(w);
	}
	if (why == NULL &&
	    (v = g_mime_object_get_header(obj, "Return-Path")) != NULL) {
		w = xstrdup(v);
		if (strcmp(g_strstrip(w), "<>") == 0)
			why = xstrdup("Return-Path: <>");
		free(w);
	}
	if (why == NULL && (v = g_mime_object_get_header(obj,
	    "X-Auto-Response-Suppress")) != NULL && names_any(v, suppress))
		why = xstrdup("X-Auto-Response-Suppress");
	for (k = 0; why == NULL && present[k] != NULL; k++)
		if (g_mime_object_get_header(obj, present[k]) != NULL)
			why = xstrdup(present[k]);
	return why;
}

/* s (taken) made printable, on one line. */
static char *
printable_taken(char *s)
{
	char	*clean = crown_mail_printable(s, false);

	free(s);
	return clean;
}

/* The names of the parts crown_mail_walk found, fit to echo. */
static void
labels_printable(struct crown_mail *m)
{
	size_t	i;

	for (i = 0; i < m->nforwarded; i++)
		m->forwarded[i].name = printable_taken(m->forwarded[i].name);
	for (i = 0; i < m->nignored; i++) {
		m->ignored[i].name = printable_taken(m->ignored[i].name);
		m->ignored[i].type = printable_taken(m->ignored[i].type);
	}
}

int
crown_mail_parse(struct crown_mail **out, const char *data, size_t len)
{
	GMimeStream		*stream;
	GMimeParser		*parser;
	GMimeMessage		*msg;
	InternetAddressList	*from;
	InternetAddress		*ia;
	struct crown_mail	*m = NULL;
	const char		*s;
	int			 i, n;

	*out = NULL;
	mail_init();
	if (too_nested(data, len))
		return CROWN_EINVALID;
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	if (msg == NULL)
		return CROWN_EINVALID;
	from = g_mime_message_get_from(msg);
	n = from != NULL ? internet_address_list_length(from) : 0;
	for (i = 0; i < n; i++) {
		ia = internet_address_list_get_address(from, i);
		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		s = internet_address_mailbox_get_addr(
		    INTERNET_ADDRESS_MAILBOX(ia));
		if (!crown_mail_addr_ok(s))
			continue;
		m = xcalloc(1, sizeof(*m));
		m->from = xstrdup(s);
		s = internet_address_get_name(ia);
		m->from_name = s != NULL && *s != '\0' ?
		    crown_mail_printable(s, false) : NULL;
		break;
	}
	if (m == NULL) {
		g_object_unref(msg);
		return CROWN_EINVALID;
	}
	s = g_mime_message_get_subject(msg);
	m->subject = crown_mail_printable(s, false);
	m->automatic = automatic(GMIME_OBJECT(msg));
	m->raw = data;
	m->raw_len = len;
	s = g_mime_message_get_message_id(msg);
	if (s != NULL && crown_mail_addr_ok(s))
		m->message_id = xstrdup(s);
	crown_mail_walk(m, msg);
	labels_printable(m);
	g_object_unref(msg);
	*out = m;
	return 0;
}

static void
files_free(struct crown_mail_file *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].data);
	}
	free(v);
}

void
crown_mail_free(struct crown_mail *m)
{
	size_t	i;

	if (m == NULL)
		return;
	files_free(m->yaml, m->nyaml);
	files_free(m->forwarded, m->nforwarded);
	for (i = 0; i < m->nignored; i++) {
		free(m->ignored[i].name);
		free(m->ignored[i].type);
	}
	free(m->ignored);
	free(m->text);
	free(m->message_id);
	free(m->subject);
	free(m->automatic);
	free(m->from_name);
	free(m->from);
	free(m);
}

/* Sources: each message is read, handed on and freed before the next,
 * so a mailbox of any size costs one message's memory. */

typedef int	(*each_fn)(void *, const struct crown_mail_raw *);

/* Hand on the message ref (taken) of size bytes, of which data holds the
 * first len. */
static int
hand_on(each_fn fn, void *arg, char *ref, char *data, size_t len,
    size_t size, long long delivered)
{
	struct crown_mail_raw	r;
	int			error;

	r.ref = ref;
	r.data = data;
	r.data[len] = '\0';
	r.len = len;
	r.size = size;
	r.delivered = delivered;
	crown_mail_sha256_hex(r.hash, r.data, r.len);
	error = fn(arg, &r);
	free(ref);
	return error;
}

long long
crown_maildir_time(const char *name, long long mtime)
{
	const char	*p;
	long long	 t = 0;

	/* the seconds a delivery agent writes first (maildir(5)); more
	 * than 12 digits is no time of this world */
	for (p = name; *p >= '0' && *p <= '9' && p - name < 12; p++)
		t = t * 10 + (*p - '0');
	return p > name && *p == '.' ? t : mtime;
}

long long
crown_mbox_time(const char *line, size_t len, long long otherwise)
{
	GDateTime	*dt;
	char		*s, *date;
	long long	 t = otherwise;

	/* "From " ADDRESS " " DATE: the date is what follows the address */
	mail_init();
	s = xstrndup(line, len);
	s[strcspn(s, "\r\n")] = '\0';
	date = strchr(s + (len >= 5 ? 5 : len), ' ');
	if (date != NULL && (dt = g_mime_utils_header_decode_date(date +
	    1)) != NULL) {
		t = (long long)g_date_time_to_unix(dt);
		g_date_time_unref(dt);
	}
	free(s);
	return t;
}

/* A message file of a Maildir: its folder (new or cur) and name, and
 * the time its name says it was delivered (LLONG_MAX: none). */
struct maildir_entry {
	const char	*sub;
	char		*name;
	long long	 t;
};

/* By the time of delivery, so that of two orders the later delivered is
 * read last and stands, whichever folder the umpire's mail program has
 * moved it to; then new/ before cur/ (as they were before), then name. */
static int
cmp_entry(const void *pa, const void *pb)
{
	const struct maildir_entry	*a = pa, *b = pb;
	int				 c;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	if ((c = strcmp(b->sub, a->sub)) != 0)	/* "new" before "cur" */
		return c;
	return strcmp(a->name, b->name);
}

/* The message files of dir/sub, added to *v. */
static void
list_sub(struct maildir_entry **v, size_t *n, size_t *cap, const char *dir,
    const char *sub)
{
	DIR		*dp;
	struct dirent	*de;
	char		*path;

	path = xasprintf("%s/%s", dir, sub);
	if ((dp = opendir(path)) == NULL) {
		free(path);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		crown_grow(v, cap, *n + 1, sizeof(**v));
		(*v)[*n].sub = sub;
		(*v)[*n].name = xstrdup(de->d_name);
		(*v)[(*n)++].t = crown_maildir_time(de->d_name, LLONG_MAX);
	}
	closedir(dp);
	free(path);
}

/* One message file, handed on whole (or its head, when over max). */
static int
read_entry(const char *dir, const struct maildir_entry *m, size_t max,
    each_fn fn, void *arg, struct crown_diags *d)
{
	struct stat	 st;
	char		*p, *buf;
	size_t		 want;
	ssize_t		 got;
	int		 fd, error = 0;

	p = xasprintf("%s/%s/%s", dir, m->sub, m->name);
	/* a FIFO or a device is not mail: never wait for it */
	fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		free(p);
		return 0;
	}
	want = (size_t)st.st_size > max ? CROWN_MAIL_HEAD_BYTES :
	    (size_t)st.st_size;
	if (want > (size_t)st.st_size)
		want = (size_t)st.st_size;
	buf = xmalloc(want + 1);
	got = 0;
	while ((size_t)got < want) {
		ssize_t k = read(fd, buf + got, want - (size_t)got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += k;
	}
	close(fd);
	if ((size_t)got != want) {
		crown_diag_add(d, p, 0, 0, NULL, "cannot read: %s",
		    strerror(errno));
		error = CROWN_ENOTFOUND;
	} else
		error = hand_on(fn, arg, xasprintf("%s/%s", m->sub, m->name),
		    buf, want, (size_t)st.st_size, crown_maildir_time(m->name,
		    (long long)st.st_mtime));
	free(buf);
	free(p);
	return error;
}

/* Every message of Maildir dir, new/ and cur/, in the order of their
 * delivery. */
static int
each_maildir(const char *dir, size_t max, each_fn fn, void *arg,
    struct crown_diags *d)
{
	struct maildir_entry	*v = NULL;
	size_t			 n = 0, cap = 0, i;
	int			 error = 0;

	list_sub(&v, &n, &cap, dir, "new");
	list_sub(&v, &n, &cap, dir, "cur");
	if (n > 0)
		qsort(v, n, sizeof(*v), cmp_entry);
	for (i = 0; i < n && error == 0; i++)
		error = read_entry(dir, &v[i], max, fn, arg, d);
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return error;
}

/* A message of an mbox as it is read: the first keep bytes are kept,
 * the rest only counted. */
struct mbox_msg {
	struct crown_buf	 data;
	size_t			 size;
	size_t			 keep;
	long long		 delivered;	/* its From_ line's date */
	long long		 mtime;		/* the mbox file's */
};

static void
mbox_add(struct mbox_msg *mm, const char *p, size_t n)
{
	size_t	room;

	mm->size += n;
	if (mm->data.len <= mm->keep) {
		room = mm->keep + 1 - mm->data.len;
		crown_buf_add(&mm->data, p, n < room ? n : room);
	}
}

/* Hand on message count: whole, or its head when over max. */
static int
mbox_hand_on(struct mbox_msg *mm, size_t count, size_t max, each_fn fn,
    void *arg)
{
	size_t	len = mm->size;

	if (len > max && len > CROWN_MAIL_HEAD_BYTES)
		len = CROWN_MAIL_HEAD_BYTES;
	return hand_on(fn, arg, xasprintf("mbox:%zu", count), mm->data.data,
	    len, mm->size, mm->delivered);
}

/* Up to cap bytes of the line at fp's position, with its '\n'; *eol
 * when the line ends in them. */
static size_t
mbox_piece(FILE *fp, char *buf, size_t cap, bool *eol)
{
	size_t	n = 0;
	int	ch;

	*eol = false;
	while (n < cap && (ch = getc_unlocked(fp)) != EOF) {
		buf[n++] = (char)ch;
		if (ch == '\n') {
			*eol = true;
			break;
		}
	}
	return n;
}

/* An mbox: messages after "From " lines (that follow a blank line);
 * ">From " lines lose one '>' (mboxrd).  Read a line at a time. */
#define PIECE	4096
static int
each_mbox(const char *path, size_t max, each_fn fn, void *arg,
    struct crown_diags *d)
{
	struct mbox_msg	 mm = { { 0 }, 0, 0, 0, 0 };
	struct stat	 st;
	FILE		*fp;
	char		 piece[PIECE], blank[2];
	size_t		 n, q, count = 0, nblank = 0;
	bool		 eol, at_start = true, first = true, in_msg = false;
	bool		 prev_blank = false;
	int		 error = 0;

	if ((fp = fopen(path, "rb")) == NULL) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot read the mail: %s",
		    strerror(errno));
		return CROWN_ENOTFOUND;
	}
	mm.keep = max > CROWN_MAIL_HEAD_BYTES ? max : CROWN_MAIL_HEAD_BYTES;
	mm.mtime = fstat(fileno(fp), &st) == 0 ? (long long)st.st_mtime : 0;
	crown_buf_puts(&mm.data, "");
	while (error == 0 && (n = mbox_piece(fp, piece, sizeof(piece),
	    &eol)) > 0) {
		if (!at_start) {
			if (in_msg)
				mbox_add(&mm, piece, n);
			at_start = eol;
			continue;
		}
		at_start = eol;
		if (n >= 5 && memcmp(piece, "From ", 5) == 0 &&
		    (first || prev_blank)) {
			/* a From_ line: the blank line before it is the
			 * mbox's, not the message's */
			if (in_msg)
				error = mbox_hand_on(&mm, count, max, fn, arg);
			count++;
			mm.data.len = 0;
			mm.size = 0;
			mm.delivered = crown_mbox_time(piece, n, mm.mtime);
			nblank = 0;
			in_msg = true;
			first = prev_blank = false;
			/* the rest of a long From_ line is skipped */
			while (!at_start && (n = mbox_piece(fp, piece,
			    sizeof(piece), &eol)) > 0)
				at_start = eol;
			at_start = true;
			continue;
		}
		if (first) {
			crown_diag_add(d, path, 1, 1, NULL, "not a Maildir or "
			    "an mbox file (an mbox starts with a 'From ' "
			    "line)");
			error = CROWN_ENOTFOUND;
			break;
		}
		/* a blank line waits: it may be the one before a From_ */
		if (nblank > 0)
			mbox_add(&mm, blank, nblank);
		nblank = 0;
		prev_blank = eol && (n == 1 || (n == 2 && piece[0] == '\r'));
		if (prev_blank) {
			memcpy(blank, piece, n);
			nblank = n;
			continue;
		}
		q = 0;
		while (q < n && piece[q] == '>')
			q++;
		if (q > 0 && n - q >= 5 && memcmp(piece + q, "From ", 5) == 0)
			mbox_add(&mm, piece + 1, n - 1);
		else
			mbox_add(&mm, piece, n);
	}
	if (error == 0 && ferror(fp)) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot read: %s",
		    strerror(errno));
		error = CROWN_ENOTFOUND;
	}
	if (error == 0 && in_msg)
		error = mbox_hand_on(&mm, count, max, fn, arg);
	crown_buf_release(&mm.data);
	fclose(fp);
	return error;
}

int
crown_mail_each(const char *path, size_t max,
    int (*fn)(void *, const struct crown_mail_raw *), void *arg,
    struct crown_diags *d)
{
	struct stat	 st;
	char		*p;
	bool		 maildir;

	if (stat(path, &st) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot read the mail: %s",
		    strerror(errno));
		return CROWN_ENOTFOUND;
	}
	if (!S_ISDIR(st.st_mode))
		return each_mbox(path, max, fn, arg, d);
	p = xasprintf("%s/new", path);
	maildir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	p = xasprintf("%s/cur", path);
	maildir = maildir || (stat(p, &st) == 0 && S_ISDIR(st.st_mode));
	free(p);
	if (!maildir) {
		crown_diag_add(d, path, 0, 0, NULL, "not a Maildir (no new/ "
		    "or cur/) or an mbox file");
		return CROWN_ENOTFOUND;
	}
	return each_maildir(path, max, fn, arg, d);
}

/* crown_mail_read_source: every message kept, in a box. */
long long
crown_mail_received(const struct crown_mail_raw *raw, long long now)
{
	return raw->delivered > 0 && raw->delivered < now ? raw->delivered :
	    now;
}

static int
box_add(void *arg, const struct crown_mail_raw *raw)
{
	struct crown_mail_box	*b = arg;
	struct crown_mail_raw	*r;

	crown_grow(&b->v, &b->cap, b->n + 1, sizeof(*b->v));
	r = &b->v[b->n++];
	*r = *raw;
	r->ref = xstrdup(raw->ref);
	r->data = xmalloc(raw->len + 1);
	memcpy(r->data, raw->data, raw->len + 1);
	return 0;
}

int
crown_mail_read_source(struct crown_mail_box *out, const char *path,
    size_t max, struct crown_diags *d)
{
	return crown_mail_each(path, max, box_add, out, d);
}

void
crown_mail_box_release(struct crown_mail_box *b)
{
	size_t	i;

	for (i = 0; i < b->n; i++) {
		free(b->v[i].ref);
		free(b->v[i].data);
	}
	free(b->v);
	memset(b, 0, sizeof(*b));
}

/* Building. */

static void
hash_field(crypto_hash_sha256_state *h, const void *p, size_t len)
{
	unsigned char	n[8];
	size_t		i;

	for (i = 0; i < 8; i++)
		n[i] = (unsigned char)((unsigned long long)len >> (8 * i));
	crypto_hash_sha256_update(h, n, sizeof(n));
	if (len > 0)
		crypto_hash_sha256_update(h, p, len);
}

static void
hash_str(crypto_hash_sha256_state *h, const char *s)
{
	hash_field(h, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
}

/* A hash of everything the message says, for its ids. */
static void
content_hash(char *hex, const struct crown_mail_out *o)
{
	crypto_hash_sha256_state	h;
	unsigned char			out[crypto_hash_sha256_BYTES];
	char				date[32];
	size_t				i;

	mail_init();
	crypto_hash_sha256_init(&h);
	hash_str(&h, o->from.name);
	hash_str(&h, o->from.addr);
	for (i = 0; i < o->nto; i++) {
		hash_str(&h, o->to[i].name);
		hash_str(&h, o->to[i].addr);
	}
	hash_str(&h, "cc");
	for (i = 0; i < o->ncc; i++) {
		hash_str(&h, o->cc[i].name);
		hash_str(&h, o->cc[i].addr);
	}
	hash_str(&h, o->subject);
	snprintf(date, sizeof(date), "%lld", o->date);
	hash_str(&h, date);
	hash_str(&h, o->in_reply_to);
	hash_str(&h, o->text);
	for (i = 0; i < o->nattach; i++) {
		hash_str(&h, o->attach[i].name);
		hash_str(&h, o->attach[i].type);
		hash_field(&h, o->attach[i].data, o->attach[i].len);
	}
	crypto_hash_sha256_final(&h, out);
	sodium_bin2hex(hex, CROWN_SHA256_HEX, out, sizeof(out));
}

/* A leaf part of type "a/b" holding data. */
static GMimePart *
make_part(const char *type, const char *name, const char *data, size_t len)
{
	GMimePart		*part;
	GMimeStream		*s;
	GMimeDataWrapper	*w;
	char			*t, *sub;

	t = xstrdup(type);
	sub = strchr(t, '/');
	if (sub != NULL)
		*sub++ = '\0';
	part = g_mime_part_new_with_type(t, sub != NULL ? sub : "plain");
	if (strcmp(t, "text") == 0)
		g_mime_object_set_content_type_parameter(GMIME_OBJECT(part),
		    "charset", "utf-8");
	free(t);
	if (name != NULL)
		g_mime_part_set_filename(part, name);
	else
		g_mime_object_set_disposition(GMIME_OBJECT(part), "inline");
	s = g_mime_stream_mem_new_with_buffer(data, len);
	w = g_mime_data_wrapper_new_with_stream(s,
	    GMIME_CONTENT_ENCODING_DEFAULT);
	g_object_unref(s);
	g_mime_part_set_content(part, w);
	g_object_unref(w);
	g_mime_part_set_content_encoding(part,
	    g_mime_part_get_best_content_encoding(part,
	    GMIME_ENCODING_CONSTRAINT_7BIT));
	return part;
}

int
crown_mail_build(struct crown_buf *out, const struct crown_mail_out *o)
{
	GMimeMessage		*m;
	GMimeMultipart		*mp;
	GMimePart		*part;
	GDateTime		*dt;
	char			 hex[CROWN_SHA256_HEX], *id, *boundary, *ref;
	char			*s;
	const char		*domain;
	size_t			 i;

	mail_init();
	content_hash(hex, o);
	domain = o->from.addr != NULL ? strrchr(o->from.addr, '@') : NULL;
	domain = domain != NULL && domain[1] != '\0' ? domain + 1 :
	    "crown.invalid";
	id = xasprintf("crown.%.32s@%s", hex, domain);
	boundary = xasprintf("=-crown-%.24s", hex + 32);

	m = g_mime_message_new(TRUE);
	g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_FROM, o->from.name,
	    o->from.addr);
	for (i = 0; i < o->nto; i++)
		g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_TO,
		    o->to[i].name, o->to[i].addr);
	for (i = 0; i < o->ncc; i++)
		g_mime_message_add_mailbox(m, GMIME_ADDRESS_TYPE_CC,
		    o->cc[i].name, o->cc[i].addr);
	g_mime_message_set_subject(m, o->subject, "utf-8");
	dt = g_date_time_new_from_unix_utc(o->date);
	if (dt != NULL) {
		g_mime_message_set_date(m, dt);
		g_date_time_unref(dt);
	}
	g_mime_message_set_message_id(m, id);
	if (o->in_reply_to != NULL) {
		ref = xasprintf("<%s>", o->in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(m), "In-Reply-To", ref,
		    NULL);
		g_mime_object_set_header(GMIME_OBJECT(m), "References", ref,
		    NULL);
		free(ref);
	}
	g_mime_object_set_header(GMIME_OBJECT(m), "Auto-Submitted",
	    o->in_reply_to != NULL ? "auto-replied" : "auto-generated", NULL);

	mp = g_mime_multipart_new_with_subtype("mixed");
	g_mime_multipart_set_boundary(mp, boundary);
	part = make_part("text/plain", NULL, o->text != NULL ? o->text : "",
	    o->text != NULL ? strlen(o->text) : 0);
	g_mime_multipart_add(mp, GMIME_OBJECT(part));
	g_object_unref(part);
	for (i = 0; i < o->nattach; i++) {
		part = make_part(o->attach[i].type, o->attach[i].name,
		    o->attach[i].data, o->attach[i].len);
		g_mime_multipart_add(mp, GMIME_OBJECT(part));
		g_object_unref(part);
	}
	g_mime_message_set_mime_part(m, GMIME_OBJECT(mp));
	g_object_unref(mp);

	s = g_mime_object_to_string(GMIME_OBJECT(m), NULL);
	g_object_unref(m);
	free(boundary);
	free(id);
	if (s == NULL)
		return CROWN_ERROR;
	crown_buf_puts(out, s);
	g_free(s);
	return 0;
}

/* Delivering. */

static int
write_all(int fd, const char *data, size_t len)
{
	size_t	off = 0;
	ssize_t	n;

	while (off < len) {
		n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

char *
crown_maildir_name(const char *data, size_t len, long long date)
{
	char	hex[CROWN_SHA256_HEX];

	crown_mail_sha256_hex(hex, data, len);
	return xasprintf("%lld.%.16s.crown", date, hex);
}

int
crown_maildir_put(const char *dir, const char *name, const char *data,
    size_t len, struct crown_diags *d)
{
	char	*tmp, *dst, *sub;
	int	 fd, error = CROWN_EWRITE;
	size_t	 i;

	for (i = 0; i < 3; i++) {
		sub = xasprintf("%s/%s", dir, i == 0 ? "tmp" : i == 1 ?
		    "new" : "cur");
		error = crown_mkdirs(sub, d);
		free(sub);
		if (error != 0)
			return error;
	}
	error = CROWN_EWRITE;
	tmp = xasprintf("%s/tmp/%s", dir, name);
	dst = xasprintf("%s/new/%s", dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		crown_diag_add(d, tmp, 0, 0, NULL, "cannot write: %s",
		    strerror(errno));
		goto cleanup;
	}
	if (write_all(fd, data, len) != 0 || fsync(fd) != 0) {
		crown_diag_add(d, tmp, 0, 0, NULL, "cannot write: %s",
		    strerror(errno));
		close(fd);
		unlink(tmp);
		goto cleanup;
	}
	if (close(fd) != 0 || rename(tmp, dst) != 0) {
		crown_diag_add(d, dst, 0, 0, NULL, "cannot deliver: %s",
		    strerror(errno));
		unlink(tmp);
		goto cleanup;
	}
	error = 0;
cleanup:
	free(dst);
	free(tmp);
	return error;
}

int
crown_maildir_deliver(const char *dir, const char *data, size_t len,
    long long date, char **name, struct crown_diags *d)
{
	char	*n = crown_maildir_name(data, len, date);
	int	 error;

	if (name != NULL)
		*name = NULL;
	if ((error = crown_maildir_put(dir, n, data, len, d)) == 0 &&
	    name != NULL) {
		*name = n;
		n = NULL;
	}
	free(n);
	return error;
}

struct crown_mail_addr
crown_mail_umpire(const struct crown_state *s)
{
	struct crown_mail_addr	a = { "crown", "crown@localhost" };

	if (s != NULL && s->umpire.email != NULL &&
	    crown_mail_addr_ok(s->umpire.email)) {
		a.addr = s->umpire.email;
		a.name = s->umpire.name;
	}
	return a;
}

/* Reports after a turn. */

/* The state as players may see it: no password hashes. */
static int
public_state(struct crown_buf *out, const struct crown_state *s,
    struct crown_diags *d)
{
	struct crown_state	*c;
	size_t			 i, j;
	int			 error;

	c = crown_state_clone(s);
	for (i = 0; i < c->nsides; i++)
		for (j = 0; j < c->sides[i].nplayers; j++) {
			free(c->sides[i].players[j].password_sha256);
			c->sides[i].players[j].password_sha256 = NULL;
		}
	free(c->umpire.password_sha256);
	c->umpire.password_sha256 = NULL;
	if ((error = crown_state_emit(out, c)) != 0)
		crown_diag_add(d, "state.yaml", 0, 0, NULL, "cannot "
		    "format the state players see");
	crown_state_free(c);
	return error;
}

/* The time of a mail from date (crown_cal_parse_time; NULL: now). */
static int
mail_time(long long *t, const char *date, struct crown_diags *d)
{
	if (date == NULL)
		*t = crown_cal_now();
	else if (crown_cal_parse_time(t, date) != 0) {
		crown_diag_add(d, "date", 0, 0, NULL, "'%s' is not a time "
		    "(YYYY-MM-DDTHH:MM:SSZ, or seconds since 1970)", date);
		return CROWN_EUSAGE;
	}
	return 0;
}

/* A sentence of a mail's text, filled to its width. */
static void
line(struct crown_buf *text, const char *sentence)
{
	crown_text_fill(text, sentence, strlen(sentence), CROWN_MAIL_WIDTH,
	    "", "");
}

/* What every mail to a side's players carries: the closing lines of
 * text, and the attachments after att[*natt]: state.yaml (the public
 * state) and, while the game goes on, the orders form of the next turn
 * (into form) with its deadline.  0 or an error of crown_orders_form. */
static int
side_extras(struct crown_buf *text, struct crown_buf *form,
    struct crown_mail_attach *att, size_t *natt, const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_side *sd,
    const struct crown_buf *state, struct crown_diags *d)
{
	bool	more;
	int	error;

	/* orders to give: the game goes on (game.last_turn) */
	more = rules != NULL && (s->last_turn <= 0 || s->turn < s->last_turn);
	if (more && s->deadline != NULL)
		crown_buf_printf(text, "Orders for turn %d are due by %s "
		    "(UTC).\n", s->turn + 1, s->deadline);
	form->len = 0;
	if (more && (error = crown_orders_form(form, s, rules, sd->id,
	    false)) != 0) {
		crown_diag_add(d, "orders.yaml", 0, 0, NULL, "cannot "
		    "write the orders form of side '%s'", sd->id);
		return error;
	}
	if (more)
		line(text, "orders.yaml, attached, has every unit of yours "
		    "holding: change it, `crown check` it and send it back.");
	att[*natt].name = "state.yaml";
	att[*natt].type = "text/yaml";
	att[*natt].data = state->data;
	att[(*natt)++].len = state->len;
	if (more) {
		att[*natt].name = "orders.yaml";
		att[*natt].type = "text/yaml";
		att[*natt].data = form->data;
		att[(*natt)++].len = form->len;
	}
	return 0;
}

/* The map, when there is one, as the first attachment. */
static void
attach_map(struct crown_mail_attach *att, size_t *natt,
    const struct crown_buf *map)
{
	if (map == NULL || map->len == 0)
		return;
	att[*natt].name = "map.svg";
	att[*natt].type = "image/svg+xml";
	att[*natt].data = map->data;
	att[(*natt)++].len = map->len;
}

/* The message to each player of side sd with an address, added to
 * mails under its Maildir name. */
static int
mail_side(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_side *sd, const char *only, const char *subject,
    const char *text, const struct crown_mail_attach *att, size_t natt,
    long long t, size_t *sent)
{
	size_t	j;
	int	error = 0;

	for (j = 0; j < sd->nplayers && error == 0; j++) {
		if (!crown_mail_addr_ok(sd->players[j].email) || (only != NULL &&
		    strcasecmp(sd->players[j].email, only) != 0))
			continue;
		error = crown_mail_to(mails, s, &sd->players[j], subject,
		    text, att, natt, t);
		if (error == 0 && sent != NULL)
			(*sent)++;
	}
	return error;
}

int
crown_mail_to(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_person *p, const char *subject, const char *text,
    const struct crown_mail_attach *att, size_t natt, long long date)
{
	struct crown_buf	 msg = { 0 };
	struct crown_mail_addr	 to = { p->name, p->email };
	struct crown_mail_out	 o;
	char			*name;
	int			 error;

	memset(&o, 0, sizeof(o));
	o.from = crown_mail_umpire(s);
	o.to = &to;
	o.nto = 1;
	o.subject = subject;
	o.date = date;
	o.text = text;
	o.attach = att;
	o.nattach = natt;
	if ((error = crown_mail_build(&msg, &o)) == 0) {
		name = crown_maildir_name(msg.data, msg.len, date);
		crown_outputs_take(mails, name, &msg);
		free(name);
	}
	crown_buf_release(&msg);
	return error;
}

/*
 * Has any side a player?  Without one there is no mail to make, and
 * making it (the public state written again, each side's form) was a
 * tenth of a turn at 1,000 units a side.
 */
static bool
any_players(const struct crown_state *s)
{
	size_t	i;

	for (i = 0; i < s->nsides; i++)
		if (s->sides[i].nplayers > 0)
			return true;
	return false;
}

int
crown_mail_turn_reports(struct crown_outputs *mails,
    const struct crown_state *after, const struct crown_rules *rules,
    const struct crown_buf *reports, const struct crown_buf *map,
    const char *date, const char *replaced, struct crown_diags *d)
{
	struct crown_buf		 state = { 0 }, text = { 0 };
	struct crown_buf		 form = { 0 };
	struct crown_mail_attach	 att[3];
	const struct crown_buf		*rep;
	const struct crown_side		*sd;
	char				*subject;
	long long			 t;
	size_t				 i, natt;
	int				 error;

	if ((error = mail_time(&t, date, d)) != 0 || !any_players(after) ||
	    (error = public_state(&state, after, d)) != 0)
		return error;
	for (i = 0; i < after->nsides && error == 0; i++) {
		sd = &after->sides[i];
		if (sd->nplayers == 0)
			continue;
		rep = reports != NULL ? &reports[i] : NULL;
		text.len = 0;
		crown_buf_puts(&text, "");
		if (replaced != NULL) {
			line(&text, replaced);
			crown_buf_puts(&text, "\n");
		}
		if (rep != NULL && rep->len > 0)
			crown_markdown_mail(&text, rep->data, rep->len,
			    CROWN_MAIL_WIDTH);
		else
			crown_buf_printf(&text, "There is no report for %s "
			    "this turn.\n", sd->name);
		if (text.len > 0 && text.data[text.len - 1] != '\n')
			crown_buf_puts(&text, "\n");
		crown_buf_puts(&text, "\n");
		natt = 0;
		attach_map(att, &natt, map);
		if ((error = side_extras(&text, &form, att, &natt, after,
		    rules, sd, &state, d)) != 0)
			break;
		/* the signature last: a mail program hides what follows */
		crown_buf_printf(&text, "\n-- \ncrown, umpiring %s: turn %d "
		    "of side %s (%s).\n", after->name, after->turn, sd->id,
		    sd->name);
		subject = xasprintf("[%s] Turn %d%s: report for %s",
		    after->name, after->turn, replaced != NULL ?
		    ", played again" : "", sd->name);
		error = mail_side(mails, after, sd, NULL, subject, text.data,
		    att, natt, t, NULL);
		free(subject);
	}
	crown_buf_release(&form);
	crown_buf_release(&text);
	crown_buf_release(&state);
	return error;
}

int
crown_mail_briefing(struct crown_outputs *mails,
    const struct crown_state *opening,
    const struct crown_state *now, const struct crown_rules *rules,
    const struct crown_outputs *notes, const char *victory,
    const struct crown_buf *map, const char *only, const char *date,
    size_t *sent, struct crown_diags *d)
{
	struct crown_buf		 state = { 0 }, text = { 0 };
	struct crown_buf		 brief = { 0 }, form = { 0 };
	struct crown_mail_attach	 att[3];
	const struct crown_side		*sd;
	const struct crown_person	*p;
	const struct crown_buf		*how;
	char				*subject, *note;
	long long			 t;
	size_t				 i, j, natt;
	int				 error;

	*sent = 0;
	if ((error = mail_time(&t, date, d)) != 0 || !any_players(now) ||
	    (error = public_state(&state, now, d)) != 0)
		return error;
	crown_report_briefing(&brief, opening, victory);
	for (i = 0; i < now->nsides && error == 0; i++) {
		sd = &now->sides[i];
		/* a mail a player: each is told how he is identified */
		for (j = 0; j < sd->nplayers && error == 0; j++) {
			p = &sd->players[j];
			if (!crown_mail_addr_ok(p->email) || (only != NULL &&
			    strcasecmp(p->email, only) != 0))
				continue;
			text.len = 0;
			crown_markdown_mail(&text, brief.data, brief.len,
			    CROWN_MAIL_WIDTH);
			crown_buf_puts(&text, "\n");
			if (now->turn > 0) {
				note = xasprintf("You join after turn %d; the "
				    "state attached is the campaign as it "
				    "stands.", now->turn);
				line(&text, note);
				free(note);
			}
			natt = 0;
			attach_map(att, &natt, map);
			if (natt > 0 && now->turn == 0)
				line(&text, "map.svg, attached, is the table "
				    "as the game opens.");
			else if (natt > 0) {
				note = xasprintf("map.svg, attached, is the "
				    "table after turn %d.", now->turn);
				line(&text, note);
				free(note);
			}
			if ((error = side_extras(&text, &form, att, &natt,
			    now, rules, sd, &state, d)) != 0)
				break;
			if (now->deadline == NULL) {
				note = xasprintf("No deadline is set for the "
				    "orders of turn %d yet: a mail will say "
				    "when one is.", now->turn + 1);
				line(&text, note);
				free(note);
			}
			if ((how = crown_mail_note(notes, p->email)) != NULL)
				crown_buf_add(&text, how->data, how->len);
			crown_buf_printf(&text, "\n-- \ncrown, umpiring %s: "
			    "the briefing, for side %s (%s).\n", now->name,
			    sd->id, sd->name);
			subject = xasprintf("[%s] Briefing for %s", now->name,
			    sd->name);
			if ((error = crown_mail_to(mails, now, p, subject,
			    text.data, att, natt, t)) == 0)
				(*sent)++;
			free(subject);
		}
	}
	crown_buf_release(&form);
	crown_buf_release(&brief);
	crown_buf_release(&text);
	crown_buf_release(&state);
	return error;
}

int
crown_mail_to_side(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_side *sd,
    const char *only, const char *subject, const char *text,
    const char *signature, long long date, size_t *sent,
    struct crown_diags *d)
{
	struct crown_buf		 state = { 0 }, body = { 0 };
	struct crown_buf		 form = { 0 };
	struct crown_mail_attach	 att[2];
	size_t				 natt = 0;
	int				 error;

	if ((error = public_state(&state, s, d)) != 0)
		goto cleanup;
	crown_buf_puts(&body, text);
	if ((error = side_extras(&body, &form, att, &natt, s, rules, sd,
	    &state, d)) != 0)
		goto cleanup;
	crown_buf_puts(&body, "\n-- \n");
	line(&body, signature);
	error = mail_side(mails, s, sd, only, subject, body.data, att, natt,
	    date, sent);
cleanup:
	crown_buf_release(&form);
	crown_buf_release(&body);
	crown_buf_release(&state);
	return error;
}

const struct crown_buf *
crown_mail_note(const struct crown_outputs *notes, const char *email)
{
	size_t	i;

	for (i = 0; notes != NULL && i < notes->n; i++)
		if (strcasecmp(notes->v[i].name, email) == 0)
			return &notes->v[i].data;
	return NULL;
}
