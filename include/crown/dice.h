/*
 * dice.h: where every die comes from.
 *
 * Two sources behind one interface: the campaign secret (libsodium keyed
 * streams, one per (turn, half-turn, unit or leader, purpose), unbiased)
 * and a dice script (--dice-script: integers in the order rolled).  Every
 * roll is logged.
 */
#ifndef CROWN_DICE_H
#define CROWN_DICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crown/diag.h"

#define CROWN_SECRET_BYTES 32
#define CROWN_SALT_BYTES 32

/* What a roll is for: the stream key. */
struct crown_roll_key {
	int		 turn;		/* game turn being resolved */
	int		 half;		/* 0 attacker's half, 1 defender's */
	const char	*who;		/* unit or leader id; "" for none */
	const char	*purpose;	/* "move", "fire", "morale", ... */
};

/* One roll as logged. */
struct crown_roll {
	int	 turn;
	int	 half;
	char	*who;
	char	*purpose;
	int	 sides;		/* 6 or 10 (D10 reads 0-9) */
	int	 value;
	unsigned long index;	/* from 0: draw counter within its stream
				 * (campaign; see dice.c) or position of
				 * the value in the script (script) */
};

struct crown_dice;

/* Campaign dice from a 32-byte secret (copied).  Caller frees; NULL only
 * if libsodium cannot be initialised. */
struct crown_dice *crown_dice_campaign(const unsigned char *secret);
/* The same, the streams keyed by the secret and a turn's salt (see
 * dice.c); salt NULL is crown_dice_campaign (the keying of the turns
 * made before salts, and of turn 0). */
struct crown_dice *crown_dice_campaign_salted(const unsigned char *secret,
	    const unsigned char *salt);

/* One side's orders file as it goes into a turn's salt: its bytes. */
struct crown_salt_part {
	const char	*side;
	const char	*data;
	size_t		 len;
};
/* The salt of turn `turn' from its accepted orders files (any order;
 * see dice.c), CROWN_SALT_BYTES into salt. */
void	crown_dice_salt(unsigned char *salt, int turn,
	    const struct crown_salt_part *, size_t n);
/* Scripted dice: integers separated by white space or commas, '#' to the
 * end of a line is a comment.  Problems (with line and column) go to d,
 * every bad token of the file; then CROWN_EINVALID and *out is NULL.
 * Scripts over 1 MiB are refused.  Caller frees *out. */
int	crown_dice_script_load(struct crown_dice **out, const char *path,
	    struct crown_diags *d);
int	crown_dice_script_parse(struct crown_dice **out, const char *file,
	    const char *buf, size_t len, struct crown_diags *d);
void	crown_dice_free(struct crown_dice *);

/*
 * Roll one die of `sides` faces, the lowest of them `low' (0 or 1: what
 * the rules' dice section says the die reads; the D10 reads 0-9, a D6
 * 1-6), so faces low..low+sides-1.  Returns 0 and the face in *out,
 * or CROWN_EINVALID when a script has run out or holds a value outside
 * the die's faces; then crown_dice_error() says which roll was wanted
 * (caller does not free; "" if no roll has failed).  A failed roll is not
 * logged and uses up nothing.
 */
int	crown_dice_roll(struct crown_dice *, const struct crown_roll_key *,
	    int sides, int low, int *out);
const char *crown_dice_error(const struct crown_dice *);
/*
 * The face a uniform 64-bit draw v gives on a die of `sides` (>= 2)
 * faces from `low': 0 and the face in *out, or -1 when v is at or above
 * the largest multiple of sides that fits below 2^64 and must be thrown
 * away (so no face is favoured).  Campaign dice use it; exposed for the
 * tests.
 */
int	crown_dice_face(uint64_t v, int sides, int low, int *out);

/* The log of every roll made so far, in order. */
const struct crown_roll *crown_dice_log(const struct crown_dice *,
	    size_t *n);
/* Values of a script not consumed (0 for campaign dice). */
size_t	crown_dice_unused(const struct crown_dice *);

/*
 * The hash chain of turn keys (dice.c): key k(index) = SHA-256 applied
 * CROWN_DICE_CHAIN_N - index times to the 32-byte seed, so k(index - 1)
 * is SHA-256(k(index)) and k(0) is the commitment.  crown_dice_chain_back
 * hashes key n times (n >= 0) into out: a key of index i comes back to
 * k(0) after i.  crown_dice_chain_seed: the seed of a chain begun by
 * crown upgrade, from the campaign secret.  All outputs are 32 bytes.
 */
#define CROWN_DICE_CHAIN_N 4096
void	crown_dice_chain_key(unsigned char *key, const unsigned char *seed,
	    int index);
void	crown_dice_chain_back(unsigned char *out, const unsigned char *key,
	    int n);
void	crown_dice_chain_seed(unsigned char *seed,
	    const unsigned char *secret);
/* 32 bytes as 64 lower-case hex digits plus NUL. */
void	crown_dice_hex(char *hex65, const unsigned char *bytes);

/* Secrets: read a secret file (exactly 32 raw bytes, or 64 hex digits
 * with an optional trailing newline; else CROWN_EINVALID, and
 * CROWN_ENOTFOUND if missing, each with a diagnostic), make a fresh one,
 * and its commitment, k(0) of the chain it seeds, as 64 lower-case hex
 * digits plus NUL.  crown_secret_matches: is commitment that of the
 * secret, the chain's k(0) or (format 2) the SHA-256 of the secret? */
int	crown_secret_read(unsigned char *secret, const char *path,
	    struct crown_diags *d);
void	crown_secret_new(unsigned char *secret);
void	crown_secret_commitment(char *hex65, const unsigned char *secret);
bool	crown_secret_matches(const unsigned char *secret,
	    const char *commitment);

#endif
