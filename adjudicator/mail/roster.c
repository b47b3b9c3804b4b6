/*
 * roster.c: the players' credentials in .git/crown-roster (roster.h):
 * password hashes and OpenPGP fingerprints, which must never be
 * committed (FORMATS.md, "what must stay private").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/common.h"
#include "crown/outputs.h"
#include "crown/roster.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A roster is small; a bigger file is not one. */
#define ROSTER_MAX	((size_t)1024 * 1024)
#define PASSWORD_MAX	((size_t)4096)

static char *
in_gitdir(const char *dir, const char *name)
{
	struct stat	 st;
	char		*git = xasprintf("%s/.git", dir), *p;

	if (stat(git, &st) == 0 && S_ISDIR(st.st_mode))
		p = xasprintf("%s/%s", git, name);
	else
		p = xasprintf("%s/%s", dir, name);
	free(git);
	return p;
}

char *
crown_roster_path(const char *dir)
{
	return in_gitdir(dir, CROWN_ROSTER_FILE);
}

char *
crown_roster_keyring(const char *dir)
{
	char	*p = in_gitdir(dir, CROWN_ROSTER_KEYRING);

	/* GnuPG warns of a home others may read; an error to make it
	 * shows when GnuPG cannot use it */
	(void)mkdir(p, 0700);
	return p;
}

static void
cred_free(struct crown_cred *c)
{
	free(c->email);
	if (c->password != NULL)
		sodium_memzero(c->password, strlen(c->password));
	free(c->password);
	free(c->openpgp);
	memset(c, 0, sizeof(*c));
}

void
crown_roster_release(struct crown_roster *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		cred_free(&r->v[i]);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

struct crown_cred *
crown_roster_find(const struct crown_roster *r, const char *email)
{
	size_t	i;

	if (email == NULL)
		return NULL;
	for (i = 0; i < r->n; i++)
		if (strcasecmp(r->v[i].email, email) == 0)
			return &r->v[i];
	return NULL;
}

struct crown_cred *
crown_roster_get(struct crown_roster *r, const char *email)
{
	struct crown_cred	*c;

	if ((c = crown_roster_find(r, email)) != NULL)
		return c;
	crown_grow(&r->v, &r->cap, r->n + 1, sizeof(*r->v));
	c = &r->v[r->n++];
	memset(c, 0, sizeof(*c));
	c->email = xstrdup(email);
	return c;
}

void
crown_roster_remove(struct crown_roster *r, const char *email)
{
	struct crown_cred	*c;
	size_t			 i;

	if ((c = crown_roster_find(r, email)) == NULL)
		return;
	i = (size_t)(c - r->v);
	cred_free(c);
	memmove(&r->v[i], &r->v[i + 1], (r->n - i - 1) * sizeof(*r->v));
	r->n--;
}

int
crown_roster_load(struct crown_roster *out, const char *path,
    struct crown_diags *d)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_cred	*c;
	char			*buf = NULL, *p, *e, *next, *sp1, *sp2;
	size_t			 len;
	unsigned		 line = 0;
	int			 error;

	memset(out, 0, sizeof(*out));
	error = crown_read_file(&buf, &len, path, ROSTER_MAX, &quiet);
	crown_diags_release(&quiet);
	if (error == CROWN_ENOTFOUND && access(path, F_OK) != 0)
		return 0;
	if (error != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot read the roster's "
		    "credentials");
		return error;
	}
	for (p = buf; *p != '\0'; p = next) {
		line++;
		if ((e = strchr(p, '\n')) == NULL)
			next = e = p + strlen(p);
		else {
			*e = '\0';
			next = e + 1;
		}
		if (*p == '#' || *p == '\0')
			continue;
		if ((sp1 = strchr(p, ' ')) == NULL ||
		    (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
		    strchr(sp2 + 1, ' ') != NULL) {
			crown_diag_add(d, path, line, 1, NULL, "not a line "
			    "'EMAIL KIND VALUE'");
			error = CROWN_EINVALID;
			continue;
		}
		*sp1 = *sp2 = '\0';
		c = crown_roster_get(out, p);
		if (strcmp(sp1 + 1, "password") == 0) {
			free(c->password);
			c->password = xstrdup(sp2 + 1);
		} else if (strcmp(sp1 + 1, "openpgp") == 0) {
			free(c->openpgp);
			c->openpgp = xstrdup(sp2 + 1);
		} else {
			crown_diag_add(d, path, line, (unsigned)(sp1 - p) + 2,
			    NULL, "unknown kind of credential '%s'", sp1 + 1);
			error = CROWN_EINVALID;
		}
	}
	sodium_memzero(buf, len);
	free(buf);
	if (error != 0)
		crown_roster_release(out);
	return error;
}

int
crown_roster_save(const struct crown_roster *r, const char *path,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	size_t			 i;
	int			 e;

	crown_buf_puts(&b, "# crown roster: the players' credentials; never "
	    "committed (crown roster)\n");
	for (i = 0; i < r->n; i++) {
		if (r->v[i].password != NULL)
			crown_buf_printf(&b, "%s password %s\n",
			    r->v[i].email, r->v[i].password);
		if (r->v[i].openpgp != NULL)
			crown_buf_printf(&b, "%s openpgp %s\n",
			    r->v[i].email, r->v[i].openpgp);
	}
	/* the owner's alone, synced before it replaces the old */
	if ((e = crown_put_file(path, b.data, b.len, 0600, true)) != 0)
		crown_diag_add(d, path, 0, 0, NULL, "cannot write the roster's "
		    "credentials: %s", strerror(e));
	sodium_memzero(b.data, b.len);
	crown_buf_release(&b);
	return e != 0 ? CROWN_EWRITE : 0;
}

int
crown_roster_save_in(const struct crown_roster *r, const char *dir,
    struct crown_diags *d)
{
	char	*path = crown_roster_path(dir);
	int	 error;

	error = crown_roster_save(r, path, d);
	free(path);
	return error;
}

int
crown_roster_set_password(struct crown_cred *c, const char *password)
{
	char	hash[crypto_pwhash_STRBYTES];

	if (sodium_init() < 0 || crypto_pwhash_str(hash, password,
	    strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
	    crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
		return CROWN_ERROR;
	free(c->password);
	c->password = xstrdup(hash);
	sodium_memzero(hash, sizeof(hash));
	return 0;
}

bool
crown_roster_password_ok(const struct crown_cred *c, const char *password)
{
	if (c == NULL || c->password == NULL || password == NULL ||
	    sodium_init() < 0)
		return false;
	return crypto_pwhash_str_verify(c->password, password,
	    strlen(password)) == 0;
}

enum crown_proof
crown_roster_required(const struct crown_cred *c)
{
	if (c != NULL && c->openpgp != NULL)
		return CROWN_PROOF_OPENPGP;
	if (c != NULL && c->password != NULL)
		return CROWN_PROOF_PASSWORD;
	return CROWN_PROOF_FROM;
}

const char *
crown_proof_name(enum crown_proof p)
{
	switch (p) {
	case CROWN_PROOF_OPENPGP:
		return "an OpenPGP signature";
	case CROWN_PROOF_PASSWORD:
		return "a password";
	case CROWN_PROOF_FROM:
		return "the From address alone";
	default:
		return "nothing";
	}
}

const char *
crown_proof_word(enum crown_proof p)
{
	switch (p) {
	case CROWN_PROOF_OPENPGP:
		return "openpgp";
	case CROWN_PROOF_PASSWORD:
		return "password";
	case CROWN_PROOF_FROM:
		return "from";
	default:
		return "none";
	}
}

enum crown_proof
crown_proof_parse(const char *w)
{
	if (strcmp(w, "openpgp") == 0)
		return CROWN_PROOF_OPENPGP;
	if (strcmp(w, "password") == 0)
		return CROWN_PROOF_PASSWORD;
	if (strcmp(w, "from") == 0)
		return CROWN_PROOF_FROM;
	return CROWN_PROOF_NONE;
}

int
crown_roster_read_password(char **out, const char *path,
    struct crown_diags *d)
{
	char	*buf, *nl;
	size_t	 len;
	int	 error;

	*out = NULL;
	if ((error = crown_read_file(&buf, &len, path, PASSWORD_MAX, d)) != 0)
		return error;
	if ((nl = strchr(buf, '\n')) != NULL) {
		if (nl > buf && nl[-1] == '\r')
			nl--;
		*nl = '\0';
	}
	if (buf[0] == '\0' || strlen(buf) != (size_t)(nl != NULL ?
	    (size_t)(nl - buf) : len)) {
		crown_diag_add(d, path, 1, 1, NULL, "no password on the first "
		    "line (or a NUL byte in it)");
		sodium_memzero(buf, len);
		free(buf);
		return CROWN_EINVALID;
	}
	*out = buf;
	return 0;
}
