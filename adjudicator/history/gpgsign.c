/*
 * gpgsign.c: commits and tags signed with the umpire's OpenPGP key, and
 * their signatures checked (gpgsign.h, crown/gpgsign.h).
 *
 * A commit is libgit2's buffer (git_commit_create_buffer) with GnuPG's
 * detached, armored signature of it in a "gpgsig" header
 * (git_commit_create_with_signature); a tag is its object text with the
 * signature after the message: what git commit -S and git tag -s write,
 * so git verify-commit and git verify-tag check them too.
 *
 * The keyring is the umpire's own: each GPGME context here names the home
 * of the environment (GNUPGHOME, else GnuPG's default, ~/.gnupg), so that
 * the campaign's keyring pgp.c makes the engine's default for crown inbox
 * is never the one used, and GnuPG starts the umpire's agent as it would
 * for git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <git2.h>
#include <gpgme.h>

#include "crown/common.h"
#include "crown/gpgsign.h"
#include "crown/openpgp.h"
#include "crown/xalloc.h"

#include "gpgsign.h"
#include "repo.h"

#define SIG_BEGIN	"-----BEGIN PGP SIGNATURE-----"

static gpgme_ctx_t	umpire_context(void);
static const char	*keyring(void);
static const char	*keyring_name(void);
static char		 home[4096];
static int		 signing_key(gpgme_key_t *, gpgme_ctx_t *,
			    const char *, const char *, struct crown_diags *);
static int		 sign(struct crown_buf *, const char *, size_t,
			    const char *, const char *, struct crown_diags *);
static int		 check(char **, const char *, size_t, const char *,
			    size_t, const char *);
static int		 git_failed(struct crown_diags *, const char *,
			    const char *, const char *);

static gpgme_ctx_t
umpire_context(void)
{
	gpgme_ctx_t	ctx;

	(void)gpgme_check_version(NULL);
	if (gpgme_new(&ctx) != GPG_ERR_NO_ERROR)
		return NULL;
	if (gpgme_set_protocol(ctx, GPGME_PROTOCOL_OpenPGP) !=
	    GPG_ERR_NO_ERROR || gpgme_ctx_set_engine_info(ctx,
	    GPGME_PROTOCOL_OpenPGP, NULL, keyring()) != GPG_ERR_NO_ERROR) {
		gpgme_release(ctx);
		return NULL;
	}
	/* never ask the network about a key */
	gpgme_set_offline(ctx, 1);
	gpgme_set_armor(ctx, 1);
	return ctx;
}

/*
 * The umpire's keyring, named outright: GNUPGHOME, else ~/.gnupg, GnuPG's
 * own default, never the engine default pgp.c sets for the campaign's
 * (NULL, GnuPG's default, only without a HOME).
 */
static const char *
keyring(void)
{
	const char	*g = getenv("GNUPGHOME"), *u = getenv("HOME");
	int		 n;

	if (g != NULL && *g != '\0')
		return g;
	if (u == NULL || *u == '\0')
		return NULL;
	n = snprintf(home, sizeof(home), "%s/.gnupg", u);
	return n > 0 && (size_t)n < sizeof(home) ? home : NULL;
}

/* The same, for messages. */
static const char *
keyring_name(void)
{
	return keyring() != NULL ? keyring() : "~/.gnupg";
}

static int
git_failed(struct crown_diags *d, const char *dir, const char *what,
    const char *name)
{
	const git_error	*e = git_error_last();

	crown_diag_add(d, dir, 0, 0, NULL, "%s%s%s: %s", what,
	    name != NULL ? " " : "", name != NULL ? name : "",
	    e != NULL && e->message != NULL ? e->message : "libgit2 failed");
	return CROWN_EWRITE;
}

int
crown_gpgsign_fingerprint(char *out, const char *in)
{
	size_t	n = 0;
	char	c;

	for (; *in != '\0'; in++) {
		if (*in == ' ')
			continue;
		c = *in >= 'a' && *in <= 'f' ? (char)(*in - 'a' + 'A') : *in;
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')) ||
		    n == CROWN_FPR_HEX)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return n == CROWN_FPR_HEX ? 0 : -1;
}

/*
 * A context of the umpire's keyring into *ctx and its secret key fpr,
 * able to sign, into *out (the caller unrefs and releases both), or
 * CROWN_EUNAVAILABLE with a diagnostic at what and neither.
 */
static int
signing_key(gpgme_key_t *out, gpgme_ctx_t *ctx, const char *fpr,
    const char *what, struct crown_diags *d)
{
	gpgme_key_t	key = NULL;

	*out = NULL;
	if ((*ctx = umpire_context()) == NULL) {
		crown_diag_add(d, what, 0, 0, NULL, "cannot start GnuPG "
		    "(GPGME) to sign with the umpire's key");
		return CROWN_EUNAVAILABLE;
	}
	if (gpgme_get_key(*ctx, fpr, &key, 1) != GPG_ERR_NO_ERROR ||
	    key == NULL)
		crown_diag_add(d, what, 0, 0, NULL, "the umpire's key '%s' "
		    "has no secret key in the keyring %s (gpg "
		    "--list-secret-keys shows what is there); crown signs "
		    "with the umpire's own keyring, never a copy", fpr,
		    keyring_name());
	else if (!key->can_sign || key->revoked || key->expired ||
	    key->disabled || key->invalid)
		crown_diag_add(d, what, 0, 0, NULL, "the umpire's key '%s' "
		    "cannot sign: it is %s", fpr, key->revoked ? "revoked" :
		    key->expired ? "expired" : key->disabled ? "disabled" :
		    key->invalid ? "invalid" : "without a signing key");
	else {
		*out = key;
		return 0;
	}
	gpgme_key_unref(key);
	gpgme_release(*ctx);
	*ctx = NULL;
	return CROWN_EUNAVAILABLE;
}

int
crown_gpgsign_usable(const char *fpr, const char *what,
    struct crown_diags *d)
{
	gpgme_ctx_t	ctx;
	gpgme_key_t	key;
	int		error;

	if ((error = signing_key(&key, &ctx, fpr, what, d)) == 0) {
		gpgme_key_unref(key);
		gpgme_release(ctx);
	}
	return error;
}

/* GnuPG's detached, armored signature of text by fpr, appended to out. */
static int
sign(struct crown_buf *out, const char *text, size_t len, const char *fpr,
    const char *where, struct crown_diags *d)
{
	gpgme_ctx_t		 ctx;
	gpgme_key_t		 key = NULL;
	gpgme_data_t		 in = NULL, sig = NULL;
	gpgme_sign_result_t	 res;
	gpgme_error_t		 e;
	char			*mem;
	size_t			 n;
	int			 error;

	if ((error = signing_key(&key, &ctx, fpr, where, d)) != 0)
		return error;
	error = CROWN_EUNAVAILABLE;
	if ((e = gpgme_signers_add(ctx, key)) == GPG_ERR_NO_ERROR &&
	    (e = gpgme_data_new_from_mem(&in, text, len, 0)) ==
	    GPG_ERR_NO_ERROR && (e = gpgme_data_new(&sig)) ==
	    GPG_ERR_NO_ERROR)
		e = gpgme_op_sign(ctx, in, sig, GPGME_SIG_MODE_DETACH);
	res = e == GPG_ERR_NO_ERROR ? gpgme_op_sign_result(ctx) : NULL;
	if (e == GPG_ERR_NO_ERROR && (res == NULL ||
	    res->invalid_signers != NULL || res->signatures == NULL))
		e = res != NULL && res->invalid_signers != NULL ?
		    res->invalid_signers->reason : GPG_ERR_GENERAL;
	if (e != GPG_ERR_NO_ERROR) {
		crown_diag_add(d, where, 0, 0, NULL, "cannot sign with the "
		    "umpire's key '%s': %s (the umpire's gpg-agent must be "
		    "able to use it: the passphrase asked, GPG_TTY set); "
		    "nothing committed", fpr, gpgme_strerror(e));
		goto cleanup;
	}
	mem = gpgme_data_release_and_get_mem(sig, &n);
	sig = NULL;
	if (mem != NULL) {
		crown_buf_add(out, mem, n);
		gpgme_free(mem);
		error = 0;
	} else
		crown_diag_add(d, where, 0, 0, NULL, "GnuPG gave no "
		    "signature; nothing committed");
cleanup:
	gpgme_data_release(sig);
	gpgme_data_release(in);
	gpgme_key_unref(key);
	gpgme_release(ctx);
	return error;
}

int
crown_gpgsign_commit(git_oid *out, struct crown_history *h,
    const git_signature *sig, const char *message, const git_tree *tree,
    const git_commit *parent, const char *fpr, struct crown_diags *d)
{
	git_buf			 raw = { 0 };
	struct crown_buf	 s = { 0 };
	const git_commit	*parents[1];
	int			 error;

	parents[0] = parent;
	if (git_commit_create_buffer(&raw, h->repo, sig, sig, NULL, message,
	    tree, parent != NULL ? 1 : 0, parents) != 0) {
		error = git_failed(d, h->dir, "cannot write the commit",
		    NULL);
		git_buf_dispose(&raw);
		return error;
	}
	if ((error = sign(&s, raw.ptr, raw.size, fpr, h->dir, d)) == 0 &&
	    git_commit_create_with_signature(out, h->repo, raw.ptr, s.data,
	    NULL) != 0)
		error = git_failed(d, h->dir, "cannot write the commit",
		    NULL);
	crown_buf_release(&s);
	git_buf_dispose(&raw);
	return error;
}

int
crown_gpgsign_tag(struct crown_history *h, const char *name,
    const git_object *target, const git_signature *tagger,
    const char *message, bool force, const char *fpr,
    struct crown_diags *d)
{
	struct crown_buf	 text = { 0 }, s = { 0 };
	char			 hex[GIT_OID_HEXSZ + 1];
	git_oid			 id;
	int			 off = tagger->when.offset, rc, error;

	/* as libgit2 and git write a tag, the message ending its line */
	git_oid_tostr(hex, sizeof(hex), git_object_id(target));
	crown_buf_printf(&text, "object %s\ntype %s\ntag %s\n"
	    "tagger %s <%s> %lld %c%02d%02d\n\n%s", hex,
	    git_object_type2string(git_object_type(target)), name,
	    tagger->name, tagger->email, (long long)tagger->when.time,
	    off < 0 ? '-' : '+', abs(off) / 60, abs(off) % 60, message);
	if (text.data[text.len - 1] != '\n')
		crown_buf_puts(&text, "\n");
	if ((error = sign(&s, text.data, text.len, fpr, h->dir, d)) != 0)
		goto cleanup;
	crown_buf_add(&text, s.data, s.len);
	rc = git_tag_create_from_buffer(&id, h->repo, text.data, force);
	if (rc == GIT_EEXISTS) {
		crown_diag_add(d, h->dir, 0, 0, NULL, "tag '%s' exists",
		    name);
		error = CROWN_EWRITE;
	} else if (rc != 0)
		error = git_failed(d, h->dir, "cannot tag", name);
cleanup:
	crown_buf_release(&s);
	crown_buf_release(&text);
	return error;
}

size_t
crown_gpgsign_message_len(const char *message)
{
	const char	*p, *last = NULL;

	/* the last line that begins a signature, as git finds it */
	if (strncmp(message, SIG_BEGIN, strlen(SIG_BEGIN)) == 0)
		last = message;
	for (p = message; (p = strstr(p, "\n" SIG_BEGIN)) != NULL; p++)
		last = p + 1;
	return last != NULL ? (size_t)(last - message) : strlen(message);
}

/*
 * Is sig a good signature of data by the key fpr (crown/gpgsign.h's
 * answers)?  By the signing key's fingerprint: a subkey's names its
 * primary key in the keyring (crown_openpgp_is_key).
 */
static int
check(char **why, const char *sig, size_t siglen, const char *data,
    size_t len, const char *fpr)
{
	gpgme_ctx_t		 ctx;
	gpgme_data_t		 s = NULL, t = NULL;
	gpgme_verify_result_t	 res = NULL;
	gpgme_signature_t	 g;
	gpgme_key_t		 key = NULL;
	gpgme_error_t		 e;
	gpg_err_code_t		 code;
	int			 error = CROWN_EINVALID;

	if ((ctx = umpire_context()) == NULL) {
		*why = xstrdup("cannot start GnuPG (GPGME) to check it");
		return CROWN_EUNAVAILABLE;
	}
	if ((e = gpgme_data_new_from_mem(&s, sig, siglen, 0)) ==
	    GPG_ERR_NO_ERROR && (e = gpgme_data_new_from_mem(&t, data, len,
	    0)) == GPG_ERR_NO_ERROR &&
	    (e = gpgme_op_verify(ctx, s, t, NULL)) == GPG_ERR_NO_ERROR)
		res = gpgme_op_verify_result(ctx);
	if (res == NULL || (g = res->signatures) == NULL) {
		*why = xasprintf("its signature cannot be read: %s",
		    gpgme_strerror(e != GPG_ERR_NO_ERROR ? e :
		    GPG_ERR_NO_DATA));
		goto cleanup;
	}
	code = gpgme_err_code(g->status);
	if (code == GPG_ERR_NO_PUBKEY) {
		/* with the umpire's key at hand, the signer is another */
		if (gpgme_get_key(ctx, fpr, &key, 0) == GPG_ERR_NO_ERROR &&
		    key != NULL)
			*why = xasprintf("signed by key %s, not the umpire's "
			    "%s", g->fpr != NULL ? g->fpr : "?", fpr);
		else {
			*why = xasprintf("cannot be checked: the umpire's key "
			    "%s is not in your keyring %s (import it: gpg "
			    "--import FILE, or gpg --recv-keys %s)", fpr,
			    keyring_name(), fpr);
			error = CROWN_EUNAVAILABLE;
		}
	} else if (code != GPG_ERR_NO_ERROR && code != GPG_ERR_KEY_EXPIRED)
		*why = xasprintf("a bad signature: %s",
		    gpgme_strerror(g->status));
	else if (g->fpr == NULL || !crown_openpgp_is_key(ctx, g->fpr, fpr))
		*why = xasprintf("signed by key %s, not the umpire's %s",
		    g->fpr != NULL ? g->fpr : "?", fpr);
	else
		error = 0;
cleanup:
	gpgme_key_unref(key);
	gpgme_data_release(t);
	gpgme_data_release(s);
	gpgme_release(ctx);
	return error;
}

int
crown_history_commit_signed(char **why, struct crown_history *h,
    const char *id, const char *fpr)
{
	git_buf	sig = { 0 }, data = { 0 };
	git_oid	oid;
	int	rc, error;

	*why = NULL;
	if (git_oid_fromstr(&oid, id) != 0)
		return CROWN_ERROR;
	rc = git_commit_extract_signature(&sig, &data, h->repo, &oid, NULL);
	if (rc == GIT_ENOTFOUND)
		return CROWN_ENOTFOUND;
	if (rc != 0) {
		*why = xstrdup("cannot be read");
		error = CROWN_ERROR;
	} else
		error = check(why, sig.ptr, sig.size, data.ptr, data.size,
		    fpr);
	git_buf_dispose(&sig);
	git_buf_dispose(&data);
	return error;
}

int
crown_history_tag_signed(char **why, struct crown_history *h,
    const char *name, const char *fpr)
{
	git_odb		*odb = NULL;
	git_odb_object	*obj = NULL;
	git_oid		 oid;
	struct crown_buf raw = { 0 };
	char		*ref = xasprintf("refs/tags/%s", name);
	size_t		 n;
	int		 error = CROWN_ENOTFOUND;

	*why = NULL;
	if (git_reference_name_to_id(&oid, h->repo, ref) != 0)
		goto cleanup;
	if (git_repository_odb(&odb, h->repo) != 0 ||
	    git_odb_read(&obj, odb, &oid) != 0) {
		*why = xstrdup("cannot be read");
		error = CROWN_ERROR;
		goto cleanup;
	}
	/* a lightweight tag names the commit itself */
	if (git_odb_object_type(obj) != GIT_OBJECT_TAG)
		goto cleanup;
	crown_buf_add(&raw, git_odb_object_data(obj),
	    git_odb_object_size(obj));
	n = crown_gpgsign_message_len(raw.data);
	if (n < raw.len)
		error = check(why, raw.data + n, raw.len - n, raw.data, n,
		    fpr);
cleanup:
	crown_buf_release(&raw);
	git_odb_object_free(obj);
	git_odb_free(odb);
	free(ref);
	return error;
}
