/*
 * parts.c: the parts of a player's message, as GMime parsed it
 * (parts.h): the text body, the orders files attached, the bodies of
 * forwarded messages, and the parts crown does not read, named for the
 * answer.  Text is decoded (the transfer encoding, the charset to UTF-8,
 * "\n" line ends, format=flowed unflowed).
 *
 * Each message, the outer one and each forwarded one (message/rfc822,
 * at any depth, inline or attached), has its own body: its first
 * text/plain part that is not an attachment.  Orders files are found
 * by name or type wherever they are.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>

#include "crown/common.h"
#include "crown/mail.h"
#include "crown/xalloc.h"

#include "parts.h"

/* The parts not read that a message names, at most. */
#define MAX_IGNORED	16
/* A name or a type is cut to this many bytes for the answer. */
#define MAX_LABEL	80

struct walk {
	struct crown_mail	*m;
	size_t			 yaml_cap, fwd_cap, ignored_cap;
};

static bool
ends_with(const char *s, const char *suffix)
{
	size_t	n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/*
 * Is a file of this name meant as orders?  *.yaml, *.yml, *.json, each
 * also with ".txt" after it (Windows hides a known extension, so
 * "orders.yaml" saved by Notepad is "orders.yaml.txt"), and orders*.txt.
 */
static bool
orders_name(const char *name)
{
	static const char *const ext[] = { ".yaml", ".yml", ".json" };
	char	*base;
	size_t	 i, n = strlen(name);
	bool	 txt = ends_with(name, ".txt"), yes = false;

	base = xstrndup(name, txt ? n - 4 : n);
	for (i = 0; i < CROWN_NELEM(ext) && !yes; i++)
		yes = ends_with(base, ext[i]);
	if (txt && strncasecmp(base, "orders", 6) == 0)
		yes = true;
	free(base);
	return yes;
}

static bool
orders_type(GMimeContentType *ct)
{
	return g_mime_content_type_is_type(ct, "text", "yaml") ||
	    g_mime_content_type_is_type(ct, "text", "x-yaml") ||
	    g_mime_content_type_is_type(ct, "application", "yaml") ||
	    g_mime_content_type_is_type(ct, "application", "x-yaml") ||
	    g_mime_content_type_is_type(ct, "application", "json") ||
	    g_mime_content_type_is_type(ct, "text", "json");
}

/* A signature's part: what pgp.c checks, or S/MIME, which crown does
 * not; neither is an attachment the player meant. */
static bool
signature_type(GMimeContentType *ct)
{
	return g_mime_content_type_is_type(ct, "application",
	    "pgp-signature") || g_mime_content_type_is_type(ct,
	    "application", "pkcs7-signature") ||
	    g_mime_content_type_is_type(ct, "application",
	    "x-pkcs7-signature");
}

/* "\r\n" -> "\n" in place; returns the new length. */
static size_t
unix_lines(char *s, size_t len)
{
	size_t	i, j = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n')
			continue;
		s[j++] = s[i];
	}
	s[j] = '\0';
	return j;
}

/* The parameter of obj's Content-Type is value (any case)? */
static bool
param_is(GMimeObject *obj, const char *param, const char *value)
{
	const char	*v;

	v = g_mime_object_get_content_type_parameter(obj, param);
	return v != NULL && g_ascii_strcasecmp(v, value) == 0;
}

/* The decoded content of part; text parts converted to UTF-8, and
 * text/plain; format=flowed unflowed. */
static char *
part_bytes(GMimePart *part, bool text, size_t *len)
{
	GMimeObject		*obj = GMIME_OBJECT(part);
	GMimeDataWrapper	*w;
	GMimeStream		*mem, *out;
	GMimeFilter		*f;
	GByteArray		*ba;
	const char		*cs;
	char			*s, *u;

	*len = 0;
	w = g_mime_part_get_content(part);
	if (w == NULL)
		return xstrdup("");
	mem = g_mime_stream_mem_new();
	out = mem;
	cs = g_mime_object_get_content_type_parameter(obj, "charset");
	if (text && cs != NULL && g_ascii_strcasecmp(cs, "utf-8") != 0 &&
	    g_ascii_strcasecmp(cs, "utf8") != 0 &&
	    g_ascii_strcasecmp(cs, "us-ascii") != 0 &&
	    (f = g_mime_filter_charset_new(cs, "UTF-8")) != NULL) {
		out = g_mime_stream_filter_new(mem);
		g_mime_stream_filter_add(GMIME_STREAM_FILTER(out), f);
		g_object_unref(f);
	}
	g_mime_data_wrapper_write_to_stream(w, out);
	g_mime_stream_flush(out);
	if (out != mem)
		g_object_unref(out);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	s = xmalloc(ba->len + 1);
	if (ba->len > 0)
		memcpy(s, ba->data, ba->len);
	*len = unix_lines(s, ba->len);
	g_object_unref(mem);
	if (text && g_mime_content_type_is_type(
	    g_mime_object_get_content_type(obj), "text", "plain") &&
	    param_is(obj, "format", "flowed")) {
		u = crown_mail_unflow(s, *len, param_is(obj, "delsp", "yes"),
		    len);
		free(s);
		s = u;
	}
	return s;
}

/* s cut short, for an answer (caller frees; crown_mail_parse makes it
 * printable). */
static char *
label(const char *s)
{
	s = s != NULL ? s : "";
	return xstrndup(s, strnlen(s, MAX_LABEL));
}

static void
ignore(struct walk *w, const char *name, GMimeContentType *ct)
{
	struct crown_mail	*m = w->m;
	struct crown_mail_part	*p;
	char			*type;

	if (m->nignored == MAX_IGNORED)
		return;
	crown_grow(&m->ignored, &w->ignored_cap, m->nignored + 1,
	    sizeof(*m->ignored));
	p = &m->ignored[m->nignored++];
	p->name = label(name);
	type = g_mime_content_type_get_mime_type(ct);
	p->type = label(type);
	g_free(type);
}

/* The body of level 0 (the message) or of forwarded message level. */
static void
body(struct walk *w, size_t level, GMimePart *part)
{
	struct crown_mail	*m = w->m;
	struct crown_mail_file	*f;

	if (level == 0) {
		if (m->text == NULL)
			m->text = part_bytes(part, true, &m->text_len);
		return;
	}
	f = &m->forwarded[level - 1];
	if (f->data == NULL)
		f->data = part_bytes(part, true, &f->len);
}

static void
leaf(struct walk *w, size_t level, GMimePart *part)
{
	struct crown_mail	*m = w->m;
	struct crown_mail_file	*f;
	GMimeContentType	*ct;
	const char		*name;
	bool			 text, attached;

	m->nparts++;
	ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
	name = g_mime_part_get_filename(part);
	text = g_mime_content_type_is_type(ct, "text", "*");
	attached = name != NULL || g_mime_part_is_attachment(part);
	if ((name != NULL && orders_name(name)) || orders_type(ct)) {
		crown_grow(&m->yaml, &w->yaml_cap, m->nyaml + 1,
		    sizeof(*m->yaml));
		f = &m->yaml[m->nyaml++];
		f->name = xstrdup(name != NULL ? name : "");
		f->data = part_bytes(part, text, &f->len);
	} else if (g_mime_content_type_is_type(ct, "text", "plain") &&
	    !attached)
		body(w, level, part);
	else if (g_mime_content_type_is_type(ct, "text", "html") &&
	    !attached)
		m->html = true;
	else if (!signature_type(ct))
		ignore(w, name, ct);
}

/* obj and what it holds; level is the message whose part it is (0: the
 * mail itself, k: forwarded[k - 1]).  too_nested (mail.c) has bounded
 * the depth. */
static void
walk(struct walk *w, size_t level, GMimeObject *obj)
{
	struct crown_mail	*m = w->m;
	GMimeMultipart		*mp;
	GMimeMessage		*msg;
	GMimeObject		*inner;
	int			 i, n;

	if (GMIME_IS_MULTIPART(obj)) {
		mp = GMIME_MULTIPART(obj);
		n = g_mime_multipart_get_count(mp);
		for (i = 0; i < n; i++)
			walk(w, level, g_mime_multipart_get_part(mp, i));
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		msg = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		inner = msg != NULL ? g_mime_message_get_mime_part(msg) : NULL;
		if (inner == NULL)
			return;
		crown_grow(&m->forwarded, &w->fwd_cap, m->nforwarded + 1,
		    sizeof(*m->forwarded));
		memset(&m->forwarded[m->nforwarded], 0,
		    sizeof(*m->forwarded));
		m->forwarded[m->nforwarded].name = label(
		    g_mime_message_get_subject(msg));
		walk(w, ++m->nforwarded, inner);
	} else if (GMIME_IS_PART(obj))
		leaf(w, level, GMIME_PART(obj));
}

void
crown_mail_walk(struct crown_mail *m, GMimeMessage *msg)
{
	struct walk	 w = { m, 0, 0, 0 };
	GMimeObject	*top;
	size_t		 i, k = 0;

	if ((top = g_mime_message_get_mime_part(msg)) != NULL)
		walk(&w, 0, top);
	/* only the forwarded messages with a body */
	for (i = 0; i < m->nforwarded; i++) {
		if (m->forwarded[i].data == NULL)
			free(m->forwarded[i].name);
		else
			m->forwarded[k++] = m->forwarded[i];
	}
	m->nforwarded = k;
}

const char *
crown_mail_part_advice(const struct crown_mail_part *p)
{
	if (strcasecmp(p->type, "application/ms-tnef") == 0 ||
	    strcasecmp(p->type, "application/vnd.ms-tnef") == 0 ||
	    strcasecmp(p->name, "winmail.dat") == 0)
		return "Outlook sent the mail as Rich Text, which crown cannot "
		    "read: in Outlook choose Format Text > Plain Text (for "
		    "every mail: File > Options > Mail > Compose messages in "
		    "Plain Text) and send it again";
	if (strncasecmp(p->type, "image/", 6) == 0)
		return "a picture is not read: write the orders in the mail "
		    "as text, or attach them as orders.yaml";
	if (strcasecmp(p->type, "application/pgp-encrypted") == 0 ||
	    strcasecmp(p->type, "application/pkcs7-mime") == 0 ||
	    strcasecmp(p->type, "application/x-pkcs7-mime") == 0)
		return "crown cannot read encrypted mail: send the orders "
		    "unencrypted (a signature is welcome)";
	if (strcasecmp(p->type, "application/vnd.ms-outlook") == 0)
		return "an Outlook item is not read: paste the orders into "
		    "the mail, or attach them as orders.yaml";
	if (strncasecmp(p->type, "text/", 5) == 0)
		return "a text file is read as orders only when it is named "
		    "orders.txt, or *.yaml, *.yml or *.json: name it "
		    "orders.yaml and attach it again";
	return "crown reads only plain text: paste the orders into the "
	    "mail as plain text, or save them as plain text and attach them "
	    "as orders.yaml";
}
