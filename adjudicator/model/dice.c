/*
 * dice.c: where every die comes from (FORMATS.md, "Dice").
 *
 * Faces: what a die reads is the rules' (their dice section: the D10
 * reads 0-9, 0 being zero, and a D6 1-6); each roll is given its die's
 * lowest face.
 *
 * Campaign dice.  Each roll belongs to a stream keyed by (turn, half,
 * who, purpose) and each stream has its own draw counter, starting at 0.
 * Draw number c of a stream is
 *
 *	BLAKE2b (crypto_generichash), 16-byte output, keyed with the
 *	32-byte key (the turn's key, below), over the message
 *
 *	    "crown-dice-v1"		13 ASCII bytes, no NUL
 *	    turn			8 bytes, big-endian, two's complement
 *	    half			8 bytes, big-endian, two's complement
 *	    strlen(who)			8 bytes, big-endian
 *	    who				its bytes, no NUL
 *	    strlen(purpose)		8 bytes, big-endian
 *	    purpose			its bytes, no NUL
 *	    c				8 bytes, big-endian
 *
 *	and the first 8 bytes of the digest, read big-endian, are the
 *	uint64 v of the draw.
 *
 * A die of n sides takes v only if v is below the largest multiple of n
 * that fits in 2^64 (so every face is equally likely) and reads it as
 * v % n, plus 1 unless the die is a D10 (crown_dice_face); otherwise the
 * draw is thrown away and the stream's next draw is tried.  Since a
 * stream's values depend on nothing but the secret, its key and its own
 * counter, drawing from one stream never changes another, whatever the
 * order: re-adjudicating a turn with one order changed leaves every
 * independent roll as it was.
 *
 * Turn keys (campaign format 3).  What keys a turn is not the campaign
 * secret s but the turn's key of a hash chain: with N = 4096
 * (CROWN_DICE_CHAIN_N),
 *
 *	k(t) = SHA-256^(N - t)(s),	t = 0..N	(crown_dice_chain_key)
 *
 * so that SHA-256(k(t)) = k(t - 1), and k(0) is the commitment: the turn
 * commits k(t), anyone hashes it t times back to the commitment
 * (crown_dice_chain_back) and replays the turn with it, and no key of a
 * later turn follows from it.  Turn 0 is keyed by k(0).  A chain begun by
 * crown upgrade is seeded not by s but by BLAKE2b, 32-byte output, keyed
 * with s over "crown-dice-chain-v1" (crown_dice_chain_seed), so that the
 * revealed s still opens every die.  The callers pass k(t) where the
 * functions below say secret.
 *
 * Salted streams (the turns of a campaign).  So that nobody, the holder
 * of the secret included, can compute a turn's dice before its orders
 * are in, the key of the draws above is not the turn key itself but
 *
 *	BLAKE2b, 32-byte output, keyed with the turn key, over
 *	"crown-dice-salt-v1" (18 ASCII bytes) and the turn's 32-byte salt
 *
 * where the salt is BLAKE2b, 32-byte output, unkeyed, over
 *
 *	    "crown-salt-v1"		13 ASCII bytes
 *	    turn			8 bytes, big-endian, two's complement
 *	    n				8 bytes, big-endian: orders files
 *	  and for each file, in the order of the side ids (bytes):
 *	    strlen(side)		8 bytes, big-endian
 *	    side			its bytes, no NUL
 *	    SHA-256 of the file		32 bytes (the file's receipt)
 *
 * A side's optional seed: is in its file's bytes, so in the salt.  The
 * salt depends on nothing but the files, which are public once the turn
 * is committed, so anyone can check it; it only has to be unknown in
 * advance.  Without a salt (crown_dice_campaign) the key keys the draws
 * directly: the campaigns made before salts, and turn 0.
 *
 * Streams are found through an open-addressing hash table (linear
 * probing, power-of-two size, at most half full) over an array of
 * streams, so a roll costs one hash and a probe or two whatever the
 * number of streams.  The table's order never reaches any output.
 *
 * Scripted dice hand out the script's values in order, whatever the key.
 * They use the same stream table, only to keep one copy of each who and
 * purpose string for the log.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define DICE_TAG		"crown-dice-v1"
#define DICE_SALT_TAG		"crown-dice-salt-v1"
#define SALT_TAG		"crown-salt-v1"
#define CHAIN_SEED_TAG		"crown-dice-chain-v1"
#define DICE_HASH_BYTES		16
#define DICE_SCRIPT_MAX		(1024 * 1024)
#define SECRET_FILE_MAX		4096
#define TOKEN_SHOW_MAX		32

struct stream {
	int		 turn;
	int		 half;
	char		*who;
	char		*purpose;
	uint64_t	 hash;		/* of the key, for the table */
	uint64_t	 next;		/* next draw counter */
};

struct script_value {
	int		 value;
	unsigned	 line;
	unsigned	 col;
};

struct crown_dice {
	int			 scripted;
	unsigned char		 secret[CROWN_SECRET_BYTES];

	struct stream		*streams;
	size_t			 nstreams;
	size_t			 streams_cap;
	size_t			*slots;		/* stream index + 1; 0 empty */
	size_t			 nslots;	/* power of two */

	struct script_value	*values;
	size_t			 nvalues;
	size_t			 values_cap;
	size_t			 pos;		/* next script value */

	struct crown_roll	*log;
	size_t			 nlog;
	size_t			 log_cap;

	char			*error;
};

static struct crown_dice *dice_new(void);
static uint64_t	 key_hash(int, int, const char *, const char *);
static void	 table_insert(struct crown_dice *, size_t);
static struct stream *stream_get(struct crown_dice *, int, int,
		    const char *, const char *);
static void	 put_be64(unsigned char *, uint64_t);
static uint64_t	 draw(const struct crown_dice *, const struct stream *,
		    uint64_t);
static void	 set_error(struct crown_dice *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static void	 describe_roll(struct crown_buf *, const struct stream *);
static void	 describe_die(struct crown_buf *, int, int);
static void	 log_add(struct crown_dice *, const struct stream *, int, int,
		    uint64_t);
static int	 is_sep(unsigned char);
static void	 show_token(struct crown_buf *, const char *, size_t);
static int	 parse_int(const char *, size_t, int *);
static int	 hexval(unsigned char);

static struct crown_dice *
dice_new(void)
{
	struct crown_dice	*d;

	d = xcalloc(1, sizeof(*d));
	d->nslots = 64;
	d->slots = xcalloc(d->nslots, sizeof(*d->slots));
	return d;
}

struct crown_dice *
crown_dice_campaign(const unsigned char *secret)
{
	struct crown_dice	*d;

	/* Idempotent; the only failure is a broken platform. */
	if (sodium_init() < 0)
		return NULL;
	d = dice_new();
	memcpy(d->secret, secret, CROWN_SECRET_BYTES);
	return d;
}

struct crown_dice *
crown_dice_campaign_salted(const unsigned char *secret,
    const unsigned char *salt)
{
	crypto_generichash_state	 st;
	struct crown_dice		*d;

	if ((d = crown_dice_campaign(secret)) == NULL || salt == NULL)
		return d;
	/* the stream key replaces the secret, which d then no longer
	 * holds */
	crypto_generichash_init(&st, secret, CROWN_SECRET_BYTES,
	    sizeof(d->secret));
	crypto_generichash_update(&st, (const unsigned char *)DICE_SALT_TAG,
	    sizeof(DICE_SALT_TAG) - 1);
	crypto_generichash_update(&st, salt, CROWN_SALT_BYTES);
	crypto_generichash_final(&st, d->secret, sizeof(d->secret));
	sodium_memzero(&st, sizeof(st));
	return d;
}

struct salt_entry {
	const char	*side;
	unsigned char	 digest[crypto_hash_sha256_BYTES];
};

static int
cmp_salt_entry(const void *a, const void *b)
{
	const struct salt_entry	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->side, y->side)) != 0)
		return c;
	return memcmp(x->digest, y->digest, sizeof(x->digest));
}

void
crown_dice_salt(unsigned char *salt, int turn,
    const struct crown_salt_part *parts, size_t n)
{
	crypto_generichash_state	 st;
	struct salt_entry		*v;
	unsigned char			 num[8];
	size_t				 i, len;
	int				 ok;

	/* idempotent; it picks libsodium's code, the hashes work without */
	ok = sodium_init();
	(void)ok;
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].side = parts[i].side;
		crypto_hash_sha256(v[i].digest,
		    (const unsigned char *)parts[i].data, parts[i].len);
	}
	/* the order the files were given in is no input */
	qsort(v, n, sizeof(*v), cmp_salt_entry);
	crypto_generichash_init(&st, NULL, 0, CROWN_SALT_BYTES);
	crypto_generichash_update(&st, (const unsigned char *)SALT_TAG,
	    sizeof(SALT_TAG) - 1);
	put_be64(num, (uint64_t)(int64_t)turn);
	crypto_generichash_update(&st, num, sizeof(num));
	put_be64(num, (uint64_t)n);
	crypto_generichash_update(&st, num, sizeof(num));
	for (i = 0; i < n; i++) {
		len = strlen(v[i].side);
		put_be64(num, (uint64_t)len);
		crypto_generichash_update(&st, num, sizeof(num));
		crypto_generichash_update(&st,
		    (const unsigned char *)v[i].side, len);
		crypto_generichash_update(&st, v[i].digest,
		    sizeof(v[i].digest));
	}
	crypto_generichash_final(&st, salt, CROWN_SALT_BYTES);
	free(v);
}

void
crown_dice_free(struct crown_dice *d)
{
	size_t	i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nstreams; i++) {
		free(d->streams[i].who);
		free(d->streams[i].purpose);
	}
	free(d->streams);
	free(d->slots);
	free(d->values);
	/* The log's strings belong to the streams. */
	free(d->log);
	free(d->error);
	sodium_memzero(d->secret, sizeof(d->secret));
	free(d);
}

/* FNV-1a over the key; only for finding streams, never for dice. */
static uint64_t
key_hash(int turn, int half, const char *who, const char *purpose)
{
	uint64_t		 h = 0xcbf29ce484222325ULL;
	unsigned char		 num[16];
	const unsigned char	*p;
	size_t			 i;

	put_be64(num, (uint64_t)(int64_t)turn);
	put_be64(num + 8, (uint64_t)(int64_t)half);
	for (i = 0; i < sizeof(num); i++)
		h = (h ^ num[i]) * 0x100000001b3ULL;
	for (p = (const unsigned char *)who; *p != '\0'; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;	/* no byte of a string */
	for (p = (const unsigned char *)purpose; *p != '\0'; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h;
}

static void
table_insert(struct crown_dice *d, size_t idx)
{
	size_t	mask = d->nslots - 1;
	size_t	i;

	i = (size_t)d->streams[idx].hash & mask;
	while (d->slots[i] != 0)
		i = (i + 1) & mask;
	d->slots[i] = idx + 1;
}

/* The stream of a key, made (counter 0) if new. */
static struct stream *
stream_get(struct crown_dice *d, int turn, int half, const char *who,
    const char *purpose)
{
	struct stream	*s;
	uint64_t	 h;
	size_t		 mask, i, idx;

	h = key_hash(turn, half, who, purpose);
	mask = d->nslots - 1;
	for (i = (size_t)h & mask; d->slots[i] != 0; i = (i + 1) & mask) {
		s = &d->streams[d->slots[i] - 1];
		if (s->hash == h && s->turn == turn && s->half == half &&
		    strcmp(s->who, who) == 0 &&
		    strcmp(s->purpose, purpose) == 0)
			return s;
	}

	crown_grow(&d->streams, &d->streams_cap, d->nstreams + 1,
	    sizeof(*d->streams));
	idx = d->nstreams++;
	s = &d->streams[idx];
	s->turn = turn;
	s->half = half;
	s->who = xstrdup(who);
	s->purpose = xstrdup(purpose);
	s->hash = h;
	s->next = 0;

	if (2 * d->nstreams > d->nslots) {
		free(d->slots);
		d->nslots *= 2;
		d->slots = xcalloc(d->nslots, sizeof(*d->slots));
		for (i = 0; i < d->nstreams; i++)
			table_insert(d, i);
	} else
		table_insert(d, idx);
	return s;
}

static void
put_be64(unsigned char *p, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(v & 0xff);
		v >>= 8;
	}
}

/* Draw number c of stream s: see the top of the file. */
static uint64_t
draw(const struct crown_dice *d, const struct stream *s, uint64_t c)
{
	crypto_generichash_state	st;
	unsigned char			num[8], out[DICE_HASH_BYTES];
	uint64_t			v;
	size_t				wlen, plen;
	int				i;

	wlen = strlen(s->who);
	plen = strlen(s->purpose);
	crypto_generichash_init(&st, d->secret, CROWN_SECRET_BYTES,
	    sizeof(out));
	crypto_generichash_update(&st, (const unsigned char *)DICE_TAG,
	    sizeof(DICE_TAG) - 1);
	put_be64(num, (uint64_t)(int64_t)s->turn);
	crypto_generichash_update(&st, num, sizeof(num));
	put_be64(num, (uint64_t)(int64_t)s->half);
	crypto_generichash_update(&st, num, sizeof(num));
	put_be64(num, (uint64_t)wlen);
	crypto_generichash_update(&st, num, sizeof(num));
	crypto_generichash_update(&st, (const unsigned char *)s->who, wlen);
	put_be64(num, (uint64_t)plen);
	crypto_generichash_update(&st, num, sizeof(num));
	crypto_generichash_update(&st, (const unsigned char *)s->purpose,
	    plen);
	put_be64(num, c);
	crypto_generichash_update(&st, num, sizeof(num));
	crypto_generichash_final(&st, out, sizeof(out));

	v = 0;
	for (i = 0; i < 8; i++)
		v = (v << 8) | out[i];
	return v;
}

static void
set_error(struct crown_dice *d, const char *fmt, ...)
{
	va_list	 ap;

	free(d->error);
	va_start(ap, fmt);
	d->error = xvasprintf(fmt, ap);
	va_end(ap);
}

static void
describe_die(struct crown_buf *b, int sides, int low)
{
	crown_buf_printf(b, "D%d (%d-%d)", sides, low, low + sides - 1);
}

/* "for 'fire' of unit '1-legion' (turn 3, defender's half)" */
static void
describe_roll(struct crown_buf *b, const struct stream *s)
{
	crown_buf_printf(b, "for '%s'", s->purpose);
	if (s->who[0] != '\0')
		crown_buf_printf(b, " of unit '%s'", s->who);
	crown_buf_printf(b, " (turn %d, ", s->turn);
	if (s->half == 0)
		crown_buf_puts(b, "attacker's half)");
	else if (s->half == 1)
		crown_buf_puts(b, "defender's half)");
	else
		crown_buf_printf(b, "half %d)", s->half);
}

static void
log_add(struct crown_dice *d, const struct stream *s, int sides, int value,
    uint64_t index)
{
	struct crown_roll	*r;

	crown_grow(&d->log, &d->log_cap, d->nlog + 1, sizeof(*d->log));
	r = &d->log[d->nlog++];
	r->turn = s->turn;
	r->half = s->half;
	r->who = s->who;
	r->purpose = s->purpose;
	r->sides = sides;
	r->value = value;
	r->index = (unsigned long)index;
}

int
crown_dice_roll(struct crown_dice *d, const struct crown_roll_key *key,
    int sides, int low, int *out)
{
	struct crown_buf		 b = { 0 };
	struct stream			*s;
	const struct script_value	*sv;
	uint64_t			 v, c;
	int				 lo, hi, face;

	assert(d != NULL && key != NULL && out != NULL);
	*out = 0;
	if (sides < 2) {
		set_error(d, "no die has %d sides", sides);
		return CROWN_EINVALID;
	}
	s = stream_get(d, key->turn, key->half,
	    key->who != NULL ? key->who : "",
	    key->purpose != NULL ? key->purpose : "");
	lo = low;
	hi = low + sides - 1;

	if (!d->scripted) {
		do {
			c = s->next++;
			v = draw(d, s, c);
		} while (crown_dice_face(v, sides, low, &face) != 0);
		log_add(d, s, sides, face, c);
		*out = face;
		return 0;
	}

	if (d->pos >= d->nvalues) {
		crown_buf_printf(&b, "dice script ran out: wanted D%d #%zu ",
		    sides, d->pos + 1);
		describe_roll(&b, s);
		set_error(d, "%s", b.data);
		crown_buf_release(&b);
		return CROWN_EINVALID;
	}
	sv = &d->values[d->pos];
	if (sv->value < lo || sv->value > hi) {
		crown_buf_printf(&b, "dice script value %d at line %u column "
		    "%u is not a face of a ", sv->value, sv->line, sv->col);
		describe_die(&b, sides, low);
		crown_buf_puts(&b, ", wanted ");
		describe_roll(&b, s);
		set_error(d, "%s", b.data);
		crown_buf_release(&b);
		return CROWN_EINVALID;
	}
	log_add(d, s, sides, sv->value, d->pos);
	d->pos++;
	*out = sv->value;
	return 0;
}

int
crown_dice_face(uint64_t v, int sides, int low, int *out)
{
	uint64_t	n = (uint64_t)sides, rem;

	assert(sides >= 2);
	/* rem = 2^64 mod n; the largest multiple of n below 2^64 is
	 * 2^64 - rem, which is 0 - rem in uint64_t arithmetic. */
	rem = (UINT64_MAX % n + 1) % n;
	if (rem != 0 && v >= (uint64_t)0 - rem)
		return -1;
	*out = (int)(v % n) + low;
	return 0;
}

const char *
crown_dice_error(const struct crown_dice *d)
{
	return d->error != NULL ? d->error : "";
}

const struct crown_roll *
crown_dice_log(const struct crown_dice *d, size_t *n)
{
	*n = d->nlog;
	return d->log;
}

size_t
crown_dice_unused(const struct crown_dice *d)
{
	return d->scripted ? d->nvalues - d->pos : 0;
}

/*
 * Scripts.
 */

static int
is_sep(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' ||
	    c == '\f' || c == ',' || c == '\n' || c == '#';
}

/* A token as it can be printed: at most TOKEN_SHOW_MAX bytes, bytes that
 * are not printable ASCII as \xNN. */
static void
show_token(struct crown_buf *b, const char *p, size_t n)
{
	size_t	i;

	for (i = 0; i < n && i < TOKEN_SHOW_MAX; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			crown_buf_add(b, &p[i], 1);
		else
			crown_buf_printf(b, "\\x%02x", (unsigned char)p[i]);
	}
	if (n > TOKEN_SHOW_MAX)
		crown_buf_puts(b, "...");
}

/* An optional sign and decimal digits, fitting an int: 0, -1 if not an
 * integer, -2 if too large. */
static int
parse_int(const char *p, size_t n, int *out)
{
	long long	v = 0;
	size_t		i = 0;
	int		neg = 0, big = 0;

	if (n > 0 && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i++;
	}
	if (i == n)
		return -1;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		if (!big) {
			v = v * 10 + (p[i] - '0');
			if (v > (long long)INT32_MAX)
				big = 1;
		}
	}
	if (big)
		return -2;
	*out = (int)(neg ? -v : v);
	return 0;
}

int
crown_dice_script_parse(struct crown_dice **out, const char *file,
    const char *buf, size_t len, struct crown_diags *diags)
{
	struct crown_dice	*d;
	struct crown_buf	 b = { 0 };
	struct script_value	*sv;
	size_t			 i, start;
	unsigned		 line = 1, col = 1, tline, tcol;
	int			 v, r, bad = 0;

	*out = NULL;
	d = dice_new();
	d->scripted = 1;
	i = 0;
	while (i < len) {
		if (buf[i] == '\n') {
			line++;
			col = 1;
			i++;
			continue;
		}
		if (buf[i] == '#') {
			while (i < len && buf[i] != '\n')
				i++;
			continue;
		}
		if (is_sep((unsigned char)buf[i])) {
			i++;
			col++;
			continue;
		}
		start = i;
		tline = line;
		tcol = col;
		while (i < len && !is_sep((unsigned char)buf[i])) {
			i++;
			col++;
		}
		r = parse_int(buf + start, i - start, &v);
		if (r != 0) {
			bad++;
			b.len = 0;
			show_token(&b, buf + start, i - start);
			crown_diag_add(diags, file, tline, tcol, NULL,
			    r == -2 ? "dice script value '%s' is too large" :
			    "dice script value '%s' is not an integer",
			    b.data);
			continue;
		}
		crown_grow(&d->values, &d->values_cap, d->nvalues + 1,
		    sizeof(*d->values));
		sv = &d->values[d->nvalues++];
		sv->value = v;
		sv->line = tline;
		sv->col = tcol;
	}
	crown_buf_release(&b);
	if (bad > 0) {
		crown_dice_free(d);
		return CROWN_EINVALID;
	}
	*out = d;
	return 0;
}

int
crown_dice_script_load(struct crown_dice **out, const char *path,
    struct crown_diags *diags)
{
	char	*buf;
	size_t	 len;
	int	 error;

	*out = NULL;
	error = crown_read_file(&buf, &len, path, DICE_SCRIPT_MAX, diags);
	if (error != 0)
		return error;
	error = crown_dice_script_parse(out, path, buf, len, diags);
	free(buf);
	return error;
}

/*
 * Secrets.
 */

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A secret file holds either exactly 32 raw bytes, or 64 hex digits (of
 * either case) with an optional trailing newline ("\n" or "\r\n").
 * Anything else is CROWN_EINVALID; a missing file CROWN_ENOTFOUND.  Both
 * come with a diagnostic.  The file's contents are wiped after use.
 */
int
crown_secret_read(unsigned char *secret, const char *path,
    struct crown_diags *diags)
{
	char	*buf;
	size_t	 len, n, i;
	int	 hi, lo, error = 0;

	error = crown_read_file(&buf, &len, path, SECRET_FILE_MAX, diags);
	if (error != 0)
		return error;
	if (len == CROWN_SECRET_BYTES) {
		memcpy(secret, buf, CROWN_SECRET_BYTES);
		goto cleanup;
	}
	n = len;
	if (n > 0 && buf[n - 1] == '\n') {
		n--;
		if (n > 0 && buf[n - 1] == '\r')
			n--;
	}
	if (n != 2 * CROWN_SECRET_BYTES) {
		crown_diag_add(diags, path, 0, 0, NULL, "campaign secret must "
		    "be 32 raw bytes or 64 hex digits, not %zu bytes", len);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	for (i = 0; i < CROWN_SECRET_BYTES; i++) {
		hi = hexval((unsigned char)buf[2 * i]);
		lo = hexval((unsigned char)buf[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			crown_diag_add(diags, path, 1,
			    (unsigned)(2 * i + (hi < 0 ? 1 : 2)), NULL,
			    "campaign secret of 64 characters must be all "
			    "hex digits");
			error = CROWN_EINVALID;
			goto cleanup;
		}
		secret[i] = (unsigned char)(hi << 4 | lo);
	}
cleanup:
	if (error != 0)
		sodium_memzero(secret, CROWN_SECRET_BYTES);
	sodium_memzero(buf, len);
	free(buf);
	return error;
}

void
crown_secret_new(unsigned char *secret)
{
	int	ok;

	/* sodium_init fails only without a randomness source, and then
	 * randombytes_buf aborts by itself rather than return weak bytes. */
	ok = sodium_init();
	(void)ok;
	randombytes_buf(secret, CROWN_SECRET_BYTES);
}

void
crown_dice_hex(char *hex65, const unsigned char *bytes)
{
	static const char	 digits[] = "0123456789abcdef";
	size_t			 i;

	for (i = 0; i < CROWN_SECRET_BYTES; i++) {
		hex65[2 * i] = digits[bytes[i] >> 4];
		hex65[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	hex65[2 * CROWN_SECRET_BYTES] = '\0';
}

_Static_assert(crypto_hash_sha256_BYTES == CROWN_SECRET_BYTES,
    "a chain key is a secret's size");

void
crown_dice_chain_back(unsigned char *out, const unsigned char *key, int n)
{
	unsigned char	h[crypto_hash_sha256_BYTES];
	int		i;

	memcpy(h, key, sizeof(h));
	for (i = 0; i < n; i++)
		crypto_hash_sha256(h, h, sizeof(h));
	memcpy(out, h, sizeof(h));
	sodium_memzero(h, sizeof(h));
}

void
crown_dice_chain_key(unsigned char *key, const unsigned char *seed,
    int index)
{
	assert(index >= 0 && index <= CROWN_DICE_CHAIN_N);
	crown_dice_chain_back(key, seed, CROWN_DICE_CHAIN_N - index);
}

void
crown_dice_chain_seed(unsigned char *seed, const unsigned char *secret)
{
	crypto_generichash(seed, CROWN_SECRET_BYTES,
	    (const unsigned char *)CHAIN_SEED_TAG, sizeof(CHAIN_SEED_TAG) - 1,
	    secret, CROWN_SECRET_BYTES);
}

void
crown_secret_commitment(char *hex65, const unsigned char *secret)
{
	unsigned char	k0[CROWN_SECRET_BYTES];

	crown_dice_chain_key(k0, secret, 0);
	crown_dice_hex(hex65, k0);
	sodium_memzero(k0, sizeof(k0));
}

bool
crown_secret_matches(const unsigned char *secret, const char *commitment)
{
	unsigned char	h[crypto_hash_sha256_BYTES];
	char		hex[2 * CROWN_SECRET_BYTES + 1];

	if (commitment == NULL)
		return false;
	crown_secret_commitment(hex, secret);
	if (strcmp(hex, commitment) == 0)
		return true;
	/* format 2: the SHA-256 of the secret */
	crypto_hash_sha256(h, secret, CROWN_SECRET_BYTES);
	crown_dice_hex(hex, h);
	return strcmp(hex, commitment) == 0;
}
