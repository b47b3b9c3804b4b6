/*
 * roster.h: the players' credentials (issue 19), kept apart from the
 * state so that they never enter the history.  Names and addresses are
 * in state.yaml (sides[].players[]); what proves a player's identity, a
 * password's hash (libsodium crypto_pwhash_str, Argon2id) or the
 * fingerprint of an OpenPGP key, is in the campaign's .git/crown-roster
 * (mode 0600), which git never commits and crown publish never pushes.
 *
 * The file has a line a credential, "EMAIL KIND VALUE", KIND password or
 * openpgp; '#' starts a comment.  Addresses compare without regard to
 * case, as the inbox compares them.
 */
#ifndef CROWN_ROSTER_H
#define CROWN_ROSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"

struct crown_state;

#define CROWN_ROSTER_FILE	"crown-roster"	/* in .git */
#define CROWN_ROSTER_KEYRING	"crown-gnupg"	/* in .git: GnuPG home */

/*
 * How strongly a sender proved to be the player: the order matters, a
 * side's orders are replaced only by a proof at least as strong (doc/
 * umpire.md, "Who may send orders").
 */
enum crown_proof {
	CROWN_PROOF_NONE,	/* not a player */
	CROWN_PROOF_FROM,	/* the From address alone */
	CROWN_PROOF_PASSWORD,	/* and the player's password */
	CROWN_PROOF_OPENPGP	/* a PGP/MIME signature by the player's key */
};

struct crown_cred {
	char	*email;
	char	*password;	/* crypto_pwhash_str, or NULL */
	char	*openpgp;	/* upper-case hex fingerprint, or NULL */
};

struct crown_roster {
	struct crown_cred	*v;
	size_t			 n, cap;
};

/* The roster file of campaign directory dir (DIR/.git/crown-roster, or
 * DIR/crown-roster for a directory without git); caller frees. */
char	*crown_roster_path(const char *dir);
/* A private file of campaign directory dir, named name (the signatures
 * used, .git/crown-signatures; the count of answers, .git/crown-answers):
 * in DIR/.git, or in DIR for a directory without git; caller frees. */
char	*crown_roster_private(const char *dir, const char *name);
/* The GnuPG home of the campaign's keyring (made on first use); caller
 * frees. */
char	*crown_roster_keyring(const char *dir);

/* Read path into out; an absent file is an empty roster.  CROWN_EINVALID
 * with a diagnostic a bad line. */
int	crown_roster_load(struct crown_roster *out, const char *path,
	    struct crown_diags *d);
/* Write the roster atomically, mode 0600. */
int	crown_roster_save(const struct crown_roster *, const char *path,
	    struct crown_diags *d);
/* The same, to crown_roster_path(dir). */
int	crown_roster_save_in(const struct crown_roster *, const char *dir,
	    struct crown_diags *d);
void	crown_roster_release(struct crown_roster *);

/* The entry of email, or NULL; crown_roster_get makes one. */
struct crown_cred *crown_roster_find(const struct crown_roster *,
	    const char *email);
struct crown_cred *crown_roster_get(struct crown_roster *, const char *email);
/* Forget every credential of email. */
void	crown_roster_remove(struct crown_roster *, const char *email);

/* Hash password into c (Argon2id, a random salt).  CROWN_ERROR if
 * libsodium cannot (out of memory). */
int	crown_roster_set_password(struct crown_cred *c, const char *password);
/* True when password is c's; false when c has none. */
bool	crown_roster_password_ok(const struct crown_cred *c,
	    const char *password);

/* The strongest proof c asks for: OPENPGP, PASSWORD or FROM. */
enum crown_proof crown_roster_required(const struct crown_cred *c);
/* "the From address", "a password", "an OpenPGP signature" */
const char *crown_proof_name(enum crown_proof);
/* "from", "password", "openpgp", as the inbox log writes it; and back
 * (CROWN_PROOF_NONE for anything else). */
const char *crown_proof_word(enum crown_proof);
enum crown_proof crown_proof_parse(const char *word);

/* Read a password from the first line of a file (a trailing newline
 * dropped).  Caller frees (sodium_memzero first). */
int	crown_roster_read_password(char **out, const char *path,
	    struct crown_diags *d);

/*
 * crown roster's changes of the players of s, campaign directory dir:
 * each changes s, and the credentials in ro and its file, and sets *msg
 * to the commit message of the change ("Roster: ...", caller frees); on
 * an error s is as it was.  Problems are diagnosed: CROWN_EUSAGE a
 * malformed player or fingerprint, CROWN_EINVALID no such side or
 * player, or a player already on the side.
 */
struct crown_roster_player {
	const char	*side;		/* the side's id */
	const char	*person;	/* "Name <email>" */
	const char	*password_file;	/* the password's file, or NULL */
	const char	*openpgp;	/* a key's fingerprint, or NULL */
	const char	*key_file;	/* with openpgp: the public key */
};
/* Make np->person a player of np->side: the OpenPGP key imported into
 * the campaign's keyring before the roster names it, the credentials
 * saved before the player is in the state. */
int	crown_roster_add_player(char **msg, struct crown_state *s,
	    struct crown_roster *ro, const char *dir,
	    const struct crown_roster_player *np, struct crown_diags *d);
/* Take email off every side of s (its credentials stay until
 * crown_roster_forget, once the change is committed). */
int	crown_roster_remove_player(char **msg, struct crown_state *s,
	    const char *dir, const char *email, struct crown_diags *d);
/* Set email's password to the first line of file, and drop an old
 * campaign's unsalted hash of it from s. */
int	crown_roster_new_password(char **msg, struct crown_state *s,
	    struct crown_roster *ro, const char *dir, const char *email,
	    const char *file, struct crown_diags *d);
/* Forget email's credentials, in ro and in the file at path, if it has
 * any. */
int	crown_roster_forget(struct crown_roster *ro, const char *path,
	    const char *email, struct crown_diags *d);

/* Mark email away until the time until ("YYYY-MM-DDTHH:MM:SSZ"), on
 * every side it plays (away_until in the state); until NULL: back
 * (CROWN_EINVALID when email is not away). */
int	crown_roster_away(char **msg, struct crown_state *s, const char *dir,
	    const char *email, const char *until, struct crown_diags *d);

/* Hand the side old plays (*side, of s) to np->person (np->side is not
 * read): added as crown_roster_add_player adds, then old taken off.
 * CROWN_EINVALID when old plays no side, or more than one. */
int	crown_roster_replace_player(char **msg, const char **side,
	    struct crown_state *s,
	    struct crown_roster *ro, const char *dir, const char *old,
	    const struct crown_roster_player *np, struct crown_diags *d);

#endif
