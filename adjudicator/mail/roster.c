/*
 * roster.c: the players' credentials in .git/crown-roster (roster.h):
 * password hashes and OpenPGP fingerprints, which must never be
 * committed (FORMATS.md, "what must stay private"); and crown roster's
 * changes of the players, in the state and in the roster file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/outputs.h"
#include "crown/pgp.h"
#include "crown/roster.h"
#include "crown/state.h"
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
crown_roster_private(const char *dir, const char *name)
{
	return in_gitdir(dir, name);
}

char *
crown_roster_path(const char *dir)
{
	return in_gitdir(dir, CROWN_ROSTER_FILE);
}

/*
 * The keyring holds public keys alone: importing one and checking a
 * signature need no gpg-agent, which gpg would start on import and
 * leave running after crown has gone.  "no-autostart" keeps it from
 * starting; a keyring made before gets the file too.
 */
static const char keyring_conf[] = "# crown: public keys only, no "
    "agent (crown roster)\nno-autostart\n";

char *
crown_roster_keyring(const char *dir)
{
	char	*p = in_gitdir(dir, CROWN_ROSTER_KEYRING), *conf;

	/* GnuPG warns of a home others may read; an error to make it
	 * shows when GnuPG cannot use it */
	(void)mkdir(p, 0700);
	conf = xasprintf("%s/gpg.conf", p);
	if (access(conf, F_OK) != 0)
		(void)crown_put_file(conf, keyring_conf,
		    sizeof(keyring_conf) - 1, 0600, true);
	free(conf);
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

/*
 * The changes of crown roster to the players of a state: the names and
 * addresses in the state, what proves them in the roster file.
 */

/* "Name <email>" into its parts (caller frees); -1 when malformed. */
static int
split_person(char **name, char **email, const char *s)
{
	const char	*lt = strchr(s, '<'), *gt;
	size_t		 n;

	*name = *email = NULL;
	if (lt == NULL || (gt = strchr(lt, '>')) == NULL || gt[1] != '\0' ||
	    strchr(lt + 1, '<') != NULL)
		return -1;
	for (n = (size_t)(lt - s); n > 0 && s[n - 1] == ' '; n--)
		;
	if (n == 0 || gt - lt < 4 || memchr(lt, '@', (size_t)(gt - lt)) ==
	    NULL || strchr(s, '"') != NULL ||
	    crown_diag_unsafe_in(s, strlen(s), NULL) != 0 ||
	    memchr(s, '>', n) != NULL)
		return -1;
	*name = xstrndup(s, n);
	*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	if (strchr(*email, ' ') != NULL) {
		free(*name);
		free(*email);
		*name = *email = NULL;
		return -1;
	}
	return 0;
}

/* 40 hex digits (spaces dropped, upper-cased) into out; -1 if not. */
static int
fingerprint(char *out, const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		if (*s == ' ')
			continue;
		if (!isxdigit((unsigned char)*s) || n == 40)
			return -1;
		out[n++] = (char)toupper((unsigned char)*s);
	}
	out[n] = '\0';
	return n == 40 ? 0 : -1;
}

/* The first player of any side with email, or NULL. */
static struct crown_person *
find_player(struct crown_state *s, const char *email)
{
	size_t	i, j;

	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++)
			if (s->sides[i].players[j].email != NULL &&
			    strcasecmp(s->sides[i].players[j].email, email) ==
			    0)
				return &s->sides[i].players[j];
	return NULL;
}

int
crown_roster_add_player(char **msg, struct crown_state *s,
    struct crown_roster *ro, const char *dir,
    const struct crown_roster_player *np, struct crown_diags *d)
{
	struct crown_side	*sd;
	struct crown_person	*p;
	struct crown_cred	*c;
	char			*name, *email, *pw = NULL, fpr[41], *home;
	const char		*file = np->password_file;
	const char		*key = np->openpgp;
	int			 side, error = 0;
	size_t			 j, cap;

	if ((side = crown_state_side(s, np->side)) < 0) {
		crown_diag_add(d, dir, 0, 0, NULL, "no side '%s' in the "
		    "campaign", np->side);
		return CROWN_EINVALID;
	}
	if (split_person(&name, &email, np->person) != 0) {
		crown_diag_add(d, dir, 0, 0, NULL, "give the player as "
		    "\"Name <email>\", not '%s'", np->person);
		return CROWN_EUSAGE;
	}
	if (key != NULL && fingerprint(fpr, key) != 0) {
		crown_diag_add(d, "--openpgp", 0, 0, NULL, "'%s' is not a "
		    "key's fingerprint (40 hex digits)", key);
		error = CROWN_EUSAGE;
		goto cleanup;
	}
	sd = &s->sides[side];
	for (j = 0; j < sd->nplayers; j++)
		if (sd->players[j].email != NULL &&
		    strcasecmp(sd->players[j].email, email) == 0) {
			crown_diag_add(d, dir, 0, 0, NULL, "'%s' already "
			    "plays side '%s'", email, sd->id);
			error = CROWN_EINVALID;
			goto cleanup;
		}
	if (file != NULL &&
	    (error = crown_roster_read_password(&pw, file, d)) != 0)
		goto cleanup;
	if (key != NULL) {
		/* the key before the roster names it: a fingerprint without
		 * its key in the keyring would refuse all the player's mail */
		home = crown_roster_keyring(dir);
		error = crown_pgp_import(home, fpr, np->key_file, d);
		free(home);
		if (error != 0)
			goto cleanup;
	}
	/* the credentials first: without the player they are harmless */
	if (pw != NULL || key != NULL) {
		c = crown_roster_get(ro, email);
		if (pw != NULL && crown_roster_set_password(c, pw) != 0) {
			crown_diag_add(d, file, 0, 0, NULL, "cannot hash the "
			    "password (libsodium)");
			error = CROWN_ERROR;
			goto cleanup;
		}
		if (key != NULL) {
			free(c->openpgp);
			c->openpgp = xstrdup(fpr);
		}
		if ((error = crown_roster_save_in(ro, dir, d)) != 0)
			goto cleanup;
	}
	cap = sd->nplayers;
	crown_grow(&sd->players, &cap, sd->nplayers + 1,
	    sizeof(*sd->players));
	p = &sd->players[sd->nplayers++];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->email = email;
	*msg = xasprintf("Roster: add %s <%s> to %s\n\nIdentified by %s; "
	    "credentials are kept in .git, never\ncommitted.\n", name, email,
	    sd->id, key != NULL ? "an OpenPGP signature" : pw != NULL ?
	    "a password" : "the From address alone");
	name = email = NULL;
cleanup:
	if (pw != NULL)
		sodium_memzero(pw, strlen(pw));
	free(pw);
	free(name);
	free(email);
	return error;
}

int
crown_roster_remove_player(char **msg, struct crown_state *s,
    const char *dir, const char *email, struct crown_diags *d)
{
	struct crown_side	*sd;
	struct crown_buf	 sides = { 0 };
	size_t			 i, j;

	crown_buf_puts(&sides, "");
	for (i = 0; i < s->nsides; i++) {
		sd = &s->sides[i];
		for (j = 0; j < sd->nplayers; j++) {
			if (sd->players[j].email == NULL ||
			    strcasecmp(sd->players[j].email, email) != 0)
				continue;
			free(sd->players[j].name);
			free(sd->players[j].email);
			free(sd->players[j].password_sha256);
			free(sd->players[j].away_until);
			memmove(&sd->players[j], &sd->players[j + 1],
			    (sd->nplayers - j - 1) * sizeof(*sd->players));
			sd->nplayers--;
			crown_buf_printf(&sides, "%s%s", sides.len > 0 ?
			    ", " : "", sd->id);
			j--;
		}
	}
	if (sides.len == 0) {
		crown_diag_add(d, dir, 0, 0, NULL, "'%s' is not a player",
		    email);
		crown_buf_release(&sides);
		return CROWN_EINVALID;
	}
	*msg = xasprintf("Roster: remove %s from %s\n", email, sides.data);
	crown_buf_release(&sides);
	return 0;
}

int
crown_roster_new_password(char **msg, struct crown_state *s,
    struct crown_roster *ro, const char *dir, const char *email,
    const char *file, struct crown_diags *d)
{
	struct crown_person	*p;
	char			*pw = NULL;
	size_t			 i, j;
	int			 error;

	if ((p = find_player(s, email)) == NULL) {
		crown_diag_add(d, dir, 0, 0, NULL, "'%s' is not a player",
		    email);
		return CROWN_EINVALID;
	}
	if ((error = crown_roster_read_password(&pw, file, d)) != 0)
		return error;
	if (crown_roster_set_password(crown_roster_get(ro, email), pw) != 0) {
		crown_diag_add(d, file, 0, 0, NULL, "cannot hash the password "
		    "(libsodium)");
		error = CROWN_ERROR;
	} else
		error = crown_roster_save_in(ro, dir, d);
	sodium_memzero(pw, strlen(pw));
	free(pw);
	if (error != 0)
		return error;
	/* an old campaign's unsalted hash leaves the state from now on */
	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++) {
			p = &s->sides[i].players[j];
			if (p->email != NULL &&
			    strcasecmp(p->email, email) == 0) {
				free(p->password_sha256);
				p->password_sha256 = NULL;
			}
		}
	*msg = xasprintf("Roster: new password for %s\n\nThe password's hash "
	    "is kept in .git, never committed.\n", email);
	return 0;
}

int
crown_roster_forget(struct crown_roster *ro, const char *path,
    const char *email, struct crown_diags *d)
{
	if (crown_roster_find(ro, email) == NULL)
		return 0;
	crown_roster_remove(ro, email);
	return crown_roster_save(ro, path, d);
}

int
crown_roster_away(char **msg, struct crown_state *s, const char *dir,
    const char *email, const char *until, struct crown_diags *d)
{
	struct crown_person	*p;
	size_t			 i, j, n = 0;

	if (find_player(s, email) == NULL) {
		crown_diag_add(d, dir, 0, 0, NULL, "'%s' is not a player",
		    email);
		return CROWN_EINVALID;
	}
	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++) {
			p = &s->sides[i].players[j];
			if (p->email == NULL ||
			    strcasecmp(p->email, email) != 0)
				continue;
			n += p->away_until != NULL;
			free(p->away_until);
			p->away_until = until != NULL ? xstrdup(until) : NULL;
		}
	if (until == NULL && n == 0) {
		crown_diag_add(d, dir, 0, 0, NULL, "'%s' is not away", email);
		return CROWN_EINVALID;
	}
	*msg = until != NULL ? xasprintf("Roster: %s away until %s\n", email,
	    until) : xasprintf("Roster: %s back\n", email);
	return 0;
}

int
crown_roster_replace_player(char **msg, const char **side,
    struct crown_state *s, struct crown_roster *ro, const char *dir,
    const char *old, const struct crown_roster_player *np,
    struct crown_diags *d)
{
	struct crown_roster_player	 take = *np;
	char				*added = NULL, *removed = NULL;
	const char			*who;
	size_t				 i, j, n = 0;
	int				 error;

	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++)
			if (s->sides[i].players[j].email != NULL &&
			    strcasecmp(s->sides[i].players[j].email, old) ==
			    0 && n++ == 0)
				take.side = s->sides[i].id;
	if (n != 1) {
		crown_diag_add(d, dir, 0, 0, NULL, n == 0 ? "'%s' is not a "
		    "player" : "'%s' plays more than one side: give each its "
		    "new player with crown roster remove and add", old);
		return CROWN_EINVALID;
	}
	if ((error = crown_roster_add_player(&added, s, ro, dir, &take,
	    d)) != 0)
		return error;
	/* added last: the side's last player is the new one */
	i = (size_t)crown_state_side(s, take.side);
	who = s->sides[i].players[s->sides[i].nplayers - 1].email;
	if ((error = crown_roster_remove_player(&removed, s, dir, old,
	    d)) != 0) {
		free(added);
		return error;
	}
	*msg = xasprintf("Roster: replace %s by %s on %s\n\n%s takes over "
	    "side %s from turn %d.%s", old, np->person, take.side, who,
	    take.side, s->turn + 1, strchr(added, '\n') + 1);
	*side = s->sides[i].id;
	free(removed);
	free(added);
	return 0;
}
