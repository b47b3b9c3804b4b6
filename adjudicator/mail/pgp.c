/*
 * pgp.c: OpenPGP signatures on players' mail (pgp.h).  The signature is
 * checked by GMime (g_mime_multipart_signed_verify), which runs GPGME;
 * GPGME itself is called only where GMime has no word for it: to name
 * the keyring's home, to learn which keys a key file imported, and to
 * find the primary key of a signing subkey.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gmime/gmime.h>
#include <gpgme.h>

#include "crown/common.h"
#include "crown/mail.h"
#include "crown/openpgp.h"
#include "crown/pgp.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A key file larger than this is not a player's public key. */
#define MAX_KEY_FILE	((size_t)1024 * 1024)

static void	pgp_init(const char *);

/*
 * Point GPGME, and so GMime's contexts made after this, at home: an
 * engine default, so that no environment variable (GNUPGHOME) changes
 * under the rest of the program.
 */
static void
pgp_init(const char *home)
{
	static bool	done;

	if (!done) {
		done = true;
		g_mime_init();
		(void)gpgme_check_version(NULL);
		g_mime_crypto_context_register("application/pgp-signature",
		    g_mime_gpg_context_new);
	}
	(void)gpgme_set_engine_info(GPGME_PROTOCOL_OpenPGP, NULL, home);
}

static gpgme_ctx_t
context(void)
{
	gpgme_ctx_t	ctx;

	if (gpgme_new(&ctx) != GPG_ERR_NO_ERROR)
		return NULL;
	if (gpgme_set_protocol(ctx, GPGME_PROTOCOL_OpenPGP) !=
	    GPG_ERR_NO_ERROR) {
		gpgme_release(ctx);
		return NULL;
	}
	/* never ask the network about a key */
	gpgme_set_offline(ctx, 1);
	return ctx;
}

int
crown_pgp_import(const char *home, const char *fpr, const char *path,
    struct crown_diags *d)
{
	gpgme_ctx_t		 ctx = NULL;
	gpgme_data_t		 keys = NULL;
	gpgme_import_result_t	 res;
	gpgme_import_status_t	 st;
	gpgme_error_t		 e;
	char			*buf = NULL;
	size_t			 len;
	int			 error;

	if ((error = crown_read_file(&buf, &len, path, MAX_KEY_FILE, d)) != 0)
		return error;
	pgp_init(home);
	error = CROWN_ERROR;
	if ((ctx = context()) == NULL) {
		crown_diag_add(d, home, 0, 0, NULL, "cannot run GnuPG "
		    "(GPGME)");
		goto cleanup;
	}
	if ((e = gpgme_data_new_from_mem(&keys, buf, len, 0)) !=
	    GPG_ERR_NO_ERROR || (e = gpgme_op_import(ctx, keys)) !=
	    GPG_ERR_NO_ERROR) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot import the key: "
		    "%s", gpgme_strerror(e));
		goto cleanup;
	}
	/* the file may hold other keys; the one named must be among them */
	error = CROWN_EINVALID;
	res = gpgme_op_import_result(ctx);
	for (st = res != NULL ? res->imports : NULL; st != NULL;
	    st = st->next)
		if (st->fpr != NULL && st->result == GPG_ERR_NO_ERROR &&
		    strcasecmp(st->fpr, fpr) == 0)
			error = 0;
	if (error != 0)
		crown_diag_add(d, path, 0, 0, NULL, "no key of fingerprint "
		    "'%s' in the file", fpr);
cleanup:
	gpgme_data_release(keys);
	if (ctx != NULL)
		gpgme_release(ctx);
	free(buf);
	return error;
}

/* Is the key that made a signature, fingerprint sig (a primary key's or
 * a subkey's), the key fpr? */
static bool
is_key(const char *sig, const char *fpr)
{
	gpgme_ctx_t	ctx = context();
	bool		ok;

	ok = crown_openpgp_is_key(ctx, sig, fpr);
	if (ctx != NULL)
		gpgme_release(ctx);
	return ok;
}

/* What the status bits of a signature that is not good say. */
static char *
bad(GMimeSignatureStatus st)
{
	if (st & GMIME_SIGNATURE_STATUS_RED)
		return xstrdup("the signature does not match the mail: it "
		    "was changed after it was signed");
	if (st & GMIME_SIGNATURE_STATUS_KEY_MISSING)
		return xstrdup("the mail is signed with a key that is not "
		    "yours: sign it with the key the umpire has");
	if (st & GMIME_SIGNATURE_STATUS_KEY_REVOKED)
		return xstrdup("the signing key is revoked");
	if (st & GMIME_SIGNATURE_STATUS_KEY_EXPIRED)
		return xstrdup("the signing key has expired");
	if (st & GMIME_SIGNATURE_STATUS_SIG_EXPIRED)
		return xstrdup("the signature has expired");
	return xstrdup("the signature cannot be checked");
}

/* Name the signature sig of the signed part content (pgp.h). */
static void
name_signature(struct crown_pgp_sig *out, GMimeSignature *sig,
    const char *fpr, GMimeObject *content)
{
	GMimeStream		*mem;
	GByteArray		*bytes;
	struct crown_buf	 b = { 0 };
	size_t			 i, j;

	out->created = (long long)g_mime_signature_get_created64(sig);
	crown_buf_printf(&b, "%s\n%lld\n", fpr, out->created);
	/* the bytes GMime hands GnuPG, less the line ends it makes CRLF */
	mem = g_mime_stream_mem_new();
	(void)g_mime_object_write_to_stream(content, NULL, mem);
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	for (i = 0; i < bytes->len; i = j + 1) {
		for (j = i; j < bytes->len && bytes->data[j] != '\r'; j++)
			;
		crown_buf_add(&b, bytes->data + i, j - i);
	}
	g_object_unref(mem);
	crown_mail_sha256_hex(out->key, b.data, b.len);
	crown_buf_release(&b);
}

int
crown_pgp_verify(char **why, struct crown_pgp_sig *out, const char *home,
    const char *fpr, const char *data, size_t len)
{
	GMimeStream		*stream;
	GMimeParser		*parser;
	GMimeMessage		*msg;
	GMimeObject		*body;
	GMimeSignatureList	*sigs = NULL;
	GMimeSignature		*sig;
	GMimeCertificate	*cert;
	GMimeSignatureStatus	 st;
	GError			*err = NULL;
	const char		*proto, *sfpr;
	int			 i, n;

	*why = NULL;
	pgp_init(home);
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_object_unref(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	if (msg == NULL) {
		*why = xstrdup("not a mail message");
		return CROWN_EINVALID;
	}
	/*
	 * The whole body must be the signed part: a signed part inside a
	 * multipart/mixed would leave the other parts, orders and password
	 * among them, to anyone.  RFC 3156 has two parts, the content and
	 * the signature; a third would not be signed.
	 */
	body = g_mime_message_get_mime_part(msg);
	proto = body != NULL ? g_mime_object_get_content_type_parameter(body,
	    "protocol") : NULL;
	if (body == NULL || !GMIME_IS_MULTIPART_SIGNED(body) ||
	    proto == NULL ||
	    g_ascii_strcasecmp(proto, "application/pgp-signature") != 0 ||
	    g_mime_multipart_get_count(GMIME_MULTIPART(body)) != 2) {
		*why = xstrdup("your mail must be signed with your OpenPGP "
		    "key as PGP/MIME (multipart/signed, RFC 3156), the whole "
		    "message; inline PGP is not read");
		goto cleanup;
	}
	sigs = g_mime_multipart_signed_verify(GMIME_MULTIPART_SIGNED(body),
	    GMIME_VERIFY_NONE, &err);
	if (sigs == NULL) {
		*why = xasprintf("the signature cannot be checked: %s",
		    err != NULL ? err->message : "no reason given");
		goto cleanup;
	}
	n = g_mime_signature_list_length(sigs);
	for (i = 0; i < n && *why == NULL; i++) {
		sig = g_mime_signature_list_get_signature(sigs, i);
		st = g_mime_signature_get_status(sig);
		cert = g_mime_signature_get_certificate(sig);
		sfpr = cert != NULL ? g_mime_certificate_get_fingerprint(cert) :
		    NULL;
		/* by the error bits, not VALID or GREEN: see pgp.h */
		if ((st & ~(GMIME_SIGNATURE_STATUS_VALID |
		    GMIME_SIGNATURE_STATUS_GREEN)) != 0)
			*why = bad(st);
		else if (sfpr != NULL && is_key(sfpr, fpr)) {
			if (out != NULL)
				name_signature(out, sig, sfpr,
				    g_mime_multipart_get_part(
				    GMIME_MULTIPART(body),
				    GMIME_MULTIPART_SIGNED_CONTENT));
			g_object_unref(sigs);
			g_object_unref(msg);
			return 0;
		}
	}
	if (*why == NULL)
		*why = xstrdup(n == 0 ? "the mail carries no signature" :
		    "the mail is signed with a key that is not yours: sign it "
		    "with the key the umpire has");
cleanup:
	if (err != NULL)
		g_error_free(err);
	if (sigs != NULL)
		g_object_unref(sigs);
	g_object_unref(msg);
	return CROWN_EINVALID;
}
