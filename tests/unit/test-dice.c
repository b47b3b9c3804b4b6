/*
 * test-dice.c: campaign dice (fairness, known answers, independent
 * streams), dice scripts and campaign secrets (FORMATS.md, "Dice").
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/xalloc.h"

/* The faces of the published dice (the rules' dice section): the D10
 * reads 0-9, any other die 1-n. */
#define LOW(sides)	((sides) == 10 ? 0 : 1)

#define NSEQ	20

static char	tmpdir[64];

static const unsigned char kat_secret[CROWN_SECRET_BYTES] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f
};

/*
 * The first ten D10 of (turn 1, attacker's half, "1-legion", "fire") with
 * kat_secret, then ten D6 of the same stream.  Computed once (and checked
 * against Python's hashlib.blake2b over the encoding of dice.c); any
 * change to the derivation must fail here.
 */
static const int kat_d10[10] = { 7, 6, 6, 7, 9, 6, 8, 2, 7, 7 };
static const int kat_d6[10] = { 5, 6, 3, 4, 2, 6, 1, 6, 6, 2 };

static int	group_setup(void **);
static int	group_teardown(void **);
static char	*write_tmp(const char *, const void *, size_t);
static struct crown_dice *campaign(const unsigned char *);
static int	roll(struct crown_dice *, int, int, const char *,
		    const char *, int);
static void	sequence(const unsigned char *, int, int, const char *,
		    const char *, int *);
static void	put_be64(unsigned char *, uint64_t);
static uint64_t	ref_draw(const unsigned char *, int64_t, int64_t,
		    const char *, const char *, uint64_t);
static double	chi_square(const unsigned long *, int, unsigned long);
static struct crown_dice *script(const char *, struct crown_diags *);
static void	expect_diag(const struct crown_diags *, size_t, unsigned,
		    unsigned, const char *);

static int
group_setup(void **state)
{
	(void)state;
	if (sodium_init() < 0)
		return -1;
	snprintf(tmpdir, sizeof(tmpdir), "%s", "/tmp/test-dice-XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
group_teardown(void **state)
{
	DIR		*dp;
	struct dirent	*de;
	char		*p;

	(void)state;
	if ((dp = opendir(tmpdir)) == NULL)
		return -1;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", tmpdir, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(dp);
	return rmdir(tmpdir);
}

/* Write a file in the temporary directory; caller frees the path. */
static char *
write_tmp(const char *name, const void *data, size_t len)
{
	FILE	*fp;
	char	*path;

	path = xasprintf("%s/%s", tmpdir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static struct crown_dice *
campaign(const unsigned char *secret)
{
	struct crown_dice	*d;

	d = crown_dice_campaign(secret);
	assert_non_null(d);
	return d;
}

/* One roll that must succeed. */
static int
roll(struct crown_dice *d, int turn, int half, const char *who,
    const char *purpose, int sides)
{
	struct crown_roll_key	k = { turn, half, who, purpose };
	int			v = -1;

	assert_int_equal(crown_dice_roll(d, &k, sides, LOW(sides), &v), 0);
	return v;
}

/* The first NSEQ D10 of a stream, from fresh dice. */
static void
sequence(const unsigned char *secret, int turn, int half, const char *who,
    const char *purpose, int *out)
{
	struct crown_dice	*d;
	int			 i;

	d = campaign(secret);
	for (i = 0; i < NSEQ; i++)
		out[i] = roll(d, turn, half, who, purpose, 10);
	crown_dice_free(d);
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

/* The derivation as documented in dice.c, written out separately. */
static uint64_t
ref_draw(const unsigned char *secret, int64_t turn, int64_t half,
    const char *who, const char *purpose, uint64_t c)
{
	unsigned char	msg[256], out[16];
	size_t		n = 0, wl = strlen(who), pl = strlen(purpose);
	uint64_t	v = 0;
	int		i;

	assert_true(13 + 6 * 8 + wl + pl <= sizeof(msg));
	memcpy(msg, "crown-dice-v1", 13);
	n = 13;
	put_be64(msg + n, (uint64_t)turn);
	n += 8;
	put_be64(msg + n, (uint64_t)half);
	n += 8;
	put_be64(msg + n, wl);
	n += 8;
	memcpy(msg + n, who, wl);
	n += wl;
	put_be64(msg + n, pl);
	n += 8;
	memcpy(msg + n, purpose, pl);
	n += pl;
	put_be64(msg + n, c);
	n += 8;
	assert_int_equal(crypto_generichash(out, sizeof(out), msg, n, secret,
	    CROWN_SECRET_BYTES), 0);
	for (i = 0; i < 8; i++)
		v = v << 8 | out[i];
	return v;
}

static double
chi_square(const unsigned long *count, int k, unsigned long total)
{
	double	e = (double)total / k, x = 0, dv;
	int	i;

	for (i = 0; i < k; i++) {
		dv = (double)count[i] - e;
		x += dv * dv / e;
	}
	return x;
}

/* Parse a script held in a string. */
static struct crown_dice *
script(const char *text, struct crown_diags *diags)
{
	struct crown_dice	*d = NULL;

	assert_int_equal(crown_dice_script_parse(&d, "dice.txt", text,
	    strlen(text), diags), 0);
	assert_non_null(d);
	assert_int_equal(diags->n, 0);
	return d;
}

static void
expect_diag(const struct crown_diags *diags, size_t i, unsigned line,
    unsigned col, const char *needle)
{
	assert_true(i < diags->n);
	assert_string_equal(diags->v[i].file, "dice.txt");
	assert_int_equal(diags->v[i].line, line);
	assert_int_equal(diags->v[i].col, col);
	assert_non_null(strstr(diags->v[i].msg, needle));
}

/*
 * Campaign dice.
 */

static void
test_faces(void **state)
{
	struct crown_dice	*d;
	struct crown_roll_key	 k = { 1, 0, "u", "fire" };
	int			 seen10[10] = { 0 }, seen6[7] = { 0 };
	int			 i, v;

	(void)state;
	d = campaign(kat_secret);
	for (i = 0; i < 2000; i++) {
		v = roll(d, 1, 0, "u", "fire", 10);
		assert_in_range(v, 0, 9);
		seen10[v] = 1;
		v = roll(d, 1, 0, "u", "move", 6);
		assert_in_range(v, 1, 6);
		seen6[v] = 1;
		assert_in_range(roll(d, 1, 1, "u", "x", 4), 1, 4);
		assert_in_range(roll(d, 1, 1, "u", "y", 2), 1, 2);
	}
	for (i = 0; i < 10; i++)
		assert_true(seen10[i]);
	for (i = 1; i <= 6; i++)
		assert_true(seen6[i]);
	assert_int_equal(crown_dice_roll(d, &k, 1, LOW(1), &v),
	    CROWN_EINVALID);
	assert_int_equal(crown_dice_roll(d, &k, 0, LOW(0), &v),
	    CROWN_EINVALID);
	assert_int_equal(crown_dice_roll(d, &k, -6, LOW(-6), &v),
	    CROWN_EINVALID);
	assert_int_equal(crown_dice_unused(d), 0);
	crown_dice_free(d);
}

/* Rejection at the top of the 64-bit range: 2^64 mod 10 = 6,
 * 2^64 mod 6 = 4, 2^64 mod 4 = 0, 2^64 mod 3 = 1. */
static void
test_face_rejection(void **state)
{
	int	f;

	(void)state;
	f = -1;
	assert_int_equal(crown_dice_face(0, 10, LOW(10), &f), 0);
	assert_int_equal(f, 0);
	assert_int_equal(crown_dice_face(19, 10, LOW(10), &f), 0);
	assert_int_equal(f, 9);
	assert_int_equal(crown_dice_face(UINT64_MAX - 6, 10, LOW(10), &f), 0);
	assert_int_equal(f, 9);
	assert_int_equal(crown_dice_face(UINT64_MAX - 5, 10, LOW(10), &f), -1);
	assert_int_equal(crown_dice_face(UINT64_MAX, 10, LOW(10), &f), -1);

	assert_int_equal(crown_dice_face(0, 6, LOW(6), &f), 0);
	assert_int_equal(f, 1);
	assert_int_equal(crown_dice_face(11, 6, LOW(6), &f), 0);
	assert_int_equal(f, 6);
	assert_int_equal(crown_dice_face(UINT64_MAX - 4, 6, LOW(6), &f), 0);
	assert_int_equal(f, 6);
	assert_int_equal(crown_dice_face(UINT64_MAX - 3, 6, LOW(6), &f), -1);

	assert_int_equal(crown_dice_face(UINT64_MAX, 4, LOW(4), &f), 0);
	assert_int_equal(f, 4);
	assert_int_equal(crown_dice_face(UINT64_MAX - 1, 3, LOW(3), &f), 0);
	assert_int_equal(f, 3);
	assert_int_equal(crown_dice_face(UINT64_MAX, 3, LOW(3), &f), -1);
}

/* 600,000 D10 over 6,000 streams of 100 draws each. */
static void
test_chi_square_d10(void **state)
{
	static const char	*purposes[] = { "fire", "melee" };
	struct crown_dice	*d;
	unsigned long		 count[10] = { 0 }, total = 0;
	char			 who[32];
	double			 x;
	int			 turn, half, u, p, i;

	(void)state;
	for (turn = 1; turn <= 30; turn++) {
		d = campaign(kat_secret);
		for (half = 0; half < 2; half++)
			for (u = 0; u < 50; u++) {
				snprintf(who, sizeof(who), "u%d", u);
				for (p = 0; p < 2; p++)
					for (i = 0; i < 100; i++) {
						count[roll(d, turn, half, who,
						    purposes[p], 10)]++;
						total++;
					}
			}
		crown_dice_free(d);
	}
	assert_int_equal(total, 600000);
	x = chi_square(count, 10, total);
	print_message("D10 chi-square over %lu draws: %.3f\n", total, x);
	/* Below the 0.999 quantile (9 dof), above the 0.001 one. */
	assert_true(x < 27.877);
	assert_true(x > 1.152);
}

/* 600,000 D6 over 6,000 streams of 100 draws each. */
static void
test_chi_square_d6(void **state)
{
	static const char	*purposes[] = { "morale", "move" };
	struct crown_dice	*d;
	unsigned long		 count[7] = { 0 }, total = 0;
	char			 who[32];
	double			 x;
	int			 turn, half, u, p, i;

	(void)state;
	for (turn = 1; turn <= 30; turn++) {
		d = campaign(kat_secret);
		for (half = 0; half < 2; half++)
			for (u = 0; u < 50; u++) {
				snprintf(who, sizeof(who), "leader-%d", u);
				for (p = 0; p < 2; p++)
					for (i = 0; i < 100; i++) {
						count[roll(d, turn, half, who,
						    purposes[p], 6)]++;
						total++;
					}
			}
		crown_dice_free(d);
	}
	assert_int_equal(total, 600000);
	assert_int_equal(count[0], 0);
	x = chi_square(count + 1, 6, total);
	print_message("D6 chi-square over %lu draws: %.3f\n", total, x);
	/* Below the 0.999 quantile (5 dof), above the 0.001 one. */
	assert_true(x < 20.515);
	assert_true(x > 0.210);
}

static void
test_known_answer(void **state)
{
	struct crown_dice	*d;
	uint64_t		 v;
	int			 pass, i;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		d = campaign(kat_secret);
		for (i = 0; i < 10; i++)
			assert_int_equal(roll(d, 1, 0, "1-legion", "fire", 10),
			    kat_d10[i]);
		for (i = 0; i < 10; i++)
			assert_int_equal(roll(d, 1, 0, "1-legion", "fire", 6),
			    kat_d6[i]);
		crown_dice_free(d);
	}
	/* The same from the documented encoding, outside dice.c. */
	for (i = 0; i < 10; i++) {
		v = ref_draw(kat_secret, 1, 0, "1-legion", "fire", i);
		assert_int_equal(v % 10, kat_d10[i]);
		v = ref_draw(kat_secret, 1, 0, "1-legion", "fire", 10 + i);
		assert_int_equal(v % 6 + 1, kat_d6[i]);
	}
	/* Negative numbers and empty strings encode too. */
	d = campaign(kat_secret);
	for (i = 0; i < 10; i++) {
		v = ref_draw(kat_secret, -3, 7, "", "", i);
		assert_int_equal(roll(d, -3, 7, "", "", 10), v % 10);
	}
	crown_dice_free(d);
}

/* Stream A's values do not depend on what else is drawn, or when. */
static void
test_stream_independence(void **state)
{
	struct crown_dice	*d;
	int			 alone[200], mixed[200];
	char			 who[32];
	int			 i, j;

	(void)state;
	d = campaign(kat_secret);
	for (i = 0; i < 200; i++)
		alone[i] = roll(d, 2, 1, "a", "fire", i % 3 == 0 ? 6 : 10);
	crown_dice_free(d);

	/* Interleaved with stream B, and with thousands of other streams
	 * so that the stream table grows in between. */
	d = campaign(kat_secret);
	for (i = 0; i < 200; i++) {
		for (j = 0; j < i % 4; j++)
			(void)roll(d, 2, 1, "b", "fire", 10);
		for (j = 0; j < 30; j++) {
			snprintf(who, sizeof(who), "o%d", i * 30 + j);
			(void)roll(d, 2, 1, who, "fire", 6);
		}
		mixed[i] = roll(d, 2, 1, "a", "fire", i % 3 == 0 ? 6 : 10);
	}
	crown_dice_free(d);
	assert_memory_equal(alone, mixed, sizeof(alone));

	/* B first in full, then A. */
	d = campaign(kat_secret);
	for (i = 0; i < 500; i++)
		(void)roll(d, 2, 1, "b", "fire", 10);
	for (i = 0; i < 200; i++)
		mixed[i] = roll(d, 2, 1, "a", "fire", i % 3 == 0 ? 6 : 10);
	crown_dice_free(d);
	assert_memory_equal(alone, mixed, sizeof(alone));
}

static void
test_streams_differ(void **state)
{
	unsigned char	secret2[CROWN_SECRET_BYTES];
	int		base[NSEQ], again[NSEQ], other[NSEQ];

	(void)state;
	sequence(kat_secret, 3, 0, "1-legion", "fire", base);
	sequence(kat_secret, 3, 0, "1-legion", "fire", again);
	assert_memory_equal(base, again, sizeof(base));

	/* Twenty D10 agree by chance once in 10^20. */
	sequence(kat_secret, 4, 0, "1-legion", "fire", other);
	assert_memory_not_equal(base, other, sizeof(base));
	sequence(kat_secret, 3, 1, "1-legion", "fire", other);
	assert_memory_not_equal(base, other, sizeof(base));
	sequence(kat_secret, 3, 0, "2-legion", "fire", other);
	assert_memory_not_equal(base, other, sizeof(base));
	sequence(kat_secret, 3, 0, "1-legion", "morale", other);
	assert_memory_not_equal(base, other, sizeof(base));
	sequence(kat_secret, 3, 0, "", "fire", other);
	assert_memory_not_equal(base, other, sizeof(base));
	/* Moving bytes between who and purpose changes the key. */
	sequence(kat_secret, 3, 0, "ab", "c", base);
	sequence(kat_secret, 3, 0, "a", "bc", other);
	assert_memory_not_equal(base, other, sizeof(base));

	sequence(kat_secret, 3, 0, "1-legion", "fire", base);
	memcpy(secret2, kat_secret, sizeof(secret2));
	secret2[31] ^= 1;
	sequence(secret2, 3, 0, "1-legion", "fire", other);
	assert_memory_not_equal(base, other, sizeof(base));
}

/* A turn's worth: 100,000 rolls over 20,000 streams, each logged with
 * its draw number in its own stream. */
/* The salt as documented in dice.c, written out separately: two files,
 * given in the order of their sides. */
static void
ref_salt(unsigned char *salt, int64_t turn, const char *side1,
    const char *data1, const char *side2, const char *data2)
{
	crypto_generichash_state	st;
	unsigned char			num[8], h[32];
	const char			*side[2] = { side1, side2 };
	const char			*data[2] = { data1, data2 };
	int				i;

	crypto_generichash_init(&st, NULL, 0, 32);
	crypto_generichash_update(&st, (const unsigned char *)"crown-salt-v1",
	    13);
	put_be64(num, (uint64_t)turn);
	crypto_generichash_update(&st, num, 8);
	put_be64(num, 2);
	crypto_generichash_update(&st, num, 8);
	for (i = 0; i < 2; i++) {
		put_be64(num, strlen(side[i]));
		crypto_generichash_update(&st, num, 8);
		crypto_generichash_update(&st,
		    (const unsigned char *)side[i], strlen(side[i]));
		crypto_hash_sha256(h, (const unsigned char *)data[i],
		    strlen(data[i]));
		crypto_generichash_update(&st, h, 32);
	}
	crypto_generichash_final(&st, salt, 32);
}

/*
 * A turn's salt (issue 19) depends on every side's file, byte for byte,
 * and on the turn, not on the order the files come in; salted dice are
 * the unsalted dice of the documented stream key, and other than the
 * secret's own.
 */
static void
test_salt(void **state)
{
	static const char	 fr[] = "side: french\nseed: \"x\"\n";
	static const char	 re[] = "side: republic\n";
	static const char	 re2[] = "side: republic\n ";
	struct crown_salt_part	 p[2];
	struct crown_dice	*a, *b, *c;
	crypto_generichash_state st;
	unsigned char		 secret[CROWN_SECRET_BYTES];
	unsigned char		 s1[CROWN_SALT_BYTES], s2[CROWN_SALT_BYTES];
	unsigned char		 key[CROWN_SECRET_BYTES];
	int			 i, same = 0, va, vb, vc;

	(void)state;
	for (i = 0; i < CROWN_SECRET_BYTES; i++)
		secret[i] = (unsigned char)(7 * i + 1);
	p[0] = (struct crown_salt_part){ "republic", re, strlen(re) };
	p[1] = (struct crown_salt_part){ "french", fr, strlen(fr) };
	crown_dice_salt(s1, 3, p, 2);
	ref_salt(s2, 3, "french", fr, "republic", re);
	assert_memory_equal(s1, s2, sizeof(s1));
	/* the order given is no input */
	p[0] = (struct crown_salt_part){ "french", fr, strlen(fr) };
	p[1] = (struct crown_salt_part){ "republic", re, strlen(re) };
	crown_dice_salt(s2, 3, p, 2);
	assert_memory_equal(s1, s2, sizeof(s1));
	/* one byte more in one file, another turn, one file fewer */
	p[1] = (struct crown_salt_part){ "republic", re2, strlen(re2) };
	crown_dice_salt(s2, 3, p, 2);
	assert_memory_not_equal(s1, s2, sizeof(s1));
	p[1] = (struct crown_salt_part){ "republic", re, strlen(re) };
	crown_dice_salt(s2, 4, p, 2);
	assert_memory_not_equal(s1, s2, sizeof(s1));
	crown_dice_salt(s2, 3, p, 1);
	assert_memory_not_equal(s1, s2, sizeof(s1));

	/* the stream key: BLAKE2b keyed with the secret over the tag and
	 * the salt */
	crypto_generichash_init(&st, secret, sizeof(secret), sizeof(key));
	crypto_generichash_update(&st,
	    (const unsigned char *)"crown-dice-salt-v1", 18);
	crypto_generichash_update(&st, s1, sizeof(s1));
	crypto_generichash_final(&st, key, sizeof(key));
	a = crown_dice_campaign_salted(secret, s1);
	b = crown_dice_campaign(key);
	c = crown_dice_campaign_salted(secret, NULL);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	for (i = 0; i < 200; i++) {
		va = roll(a, 3, 0, "1-legion", "fire", 10);
		vb = roll(b, 3, 0, "1-legion", "fire", 10);
		vc = roll(c, 3, 0, "1-legion", "fire", 10);
		assert_int_equal(va, vb);
		assert_int_equal(vc, (int)(ref_draw(secret, 3, 0, "1-legion",
		    "fire", (uint64_t)i) % 10));
		same += va == vc;
	}
	/* about a tenth agree by chance, not all */
	assert_true(same < 60);
	crown_dice_free(a);
	crown_dice_free(b);
	crown_dice_free(c);
}

static void
test_campaign_log(void **state)
{
	struct crown_dice	*d;
	const struct crown_roll	*log;
	char			 who[32];
	size_t			 n, i;
	int			 r, s, v;

	(void)state;
	d = campaign(kat_secret);
	for (r = 0; r < 5; r++)
		for (s = 0; s < 20000; s++) {
			snprintf(who, sizeof(who), "u%d", s);
			(void)roll(d, 5, s & 1, who, "fire", 10);
		}
	log = crown_dice_log(d, &n);
	assert_int_equal(n, 100000);
	for (i = 0; i < n; i++) {
		snprintf(who, sizeof(who), "u%zu", i % 20000);
		assert_string_equal(log[i].who, who);
		assert_string_equal(log[i].purpose, "fire");
		assert_int_equal(log[i].turn, 5);
		assert_int_equal(log[i].half, (int)(i % 20000) & 1);
		assert_int_equal(log[i].sides, 10);
		assert_in_range(log[i].value, 0, 9);
		assert_int_equal(log[i].index, i / 20000);
	}
	crown_dice_free(d);

	d = campaign(kat_secret);
	log = crown_dice_log(d, &n);
	assert_int_equal(n, 0);
	v = roll(d, 1, 0, "1-legion", "fire", 10);
	assert_int_equal(v, kat_d10[0]);
	v = roll(d, 1, 0, "danjou", "leader", 6);
	v = roll(d, 1, 0, "1-legion", "fire", 10);
	assert_int_equal(v, kat_d10[1]);
	log = crown_dice_log(d, &n);
	assert_int_equal(n, 3);
	assert_int_equal(log[0].index, 0);
	assert_int_equal(log[1].index, 0);
	assert_string_equal(log[1].who, "danjou");
	assert_string_equal(log[1].purpose, "leader");
	assert_int_equal(log[1].sides, 6);
	assert_int_equal(log[2].index, 1);
	assert_int_equal(log[2].value, kat_d10[1]);
	assert_string_equal(crown_dice_error(d), "");
	crown_dice_free(d);
}

/*
 * Dice scripts.
 */

static void
test_script_in_order(void **state)
{
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d;
	const struct crown_roll	*log;
	size_t			 n;

	(void)state;
	d = script("# turn 1\n3, 0 ,9\n\t1,2 # the 99 here is a comment\n"
	    "+4,-0\r\n,,5\n#6\n", &diags);
	assert_int_equal(crown_dice_unused(d), 8);
	/* The key plays no part in which value comes next. */
	assert_int_equal(roll(d, 1, 0, "a", "fire", 10), 3);
	assert_int_equal(roll(d, 9, 1, "b", "move", 10), 0);
	assert_int_equal(roll(d, 1, 0, "a", "fire", 10), 9);
	assert_int_equal(roll(d, 1, 0, "a", "fire", 6), 1);
	assert_int_equal(roll(d, 2, 0, "", "morale", 6), 2);
	assert_int_equal(crown_dice_unused(d), 3);
	assert_int_equal(roll(d, 2, 0, "c", "rally", 6), 4);
	assert_int_equal(roll(d, 2, 0, "c", "rally", 10), 0);
	assert_int_equal(crown_dice_unused(d), 1);

	log = crown_dice_log(d, &n);
	assert_int_equal(n, 7);
	assert_int_equal(log[1].value, 0);
	assert_int_equal(log[1].turn, 9);
	assert_int_equal(log[1].half, 1);
	assert_string_equal(log[1].who, "b");
	assert_string_equal(log[1].purpose, "move");
	assert_int_equal(log[1].index, 1);
	assert_int_equal(log[4].index, 4);
	assert_string_equal(log[4].who, "");
	assert_int_equal(log[6].sides, 10);
	assert_int_equal(log[6].index, 6);
	crown_dice_free(d);
	crown_diags_release(&diags);
}

static void
test_script_runs_out(void **state)
{
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d;
	struct crown_roll_key	 k = { 3, 1, "1-legion", "fire" };
	const char		*msg;
	size_t			 n;
	int			 v = 42;

	(void)state;
	d = script("1 2", &diags);
	assert_int_equal(roll(d, 1, 0, "x", "move", 10), 1);
	assert_int_equal(roll(d, 1, 0, "x", "move", 10), 2);
	assert_int_equal(crown_dice_roll(d, &k, 10, LOW(10), &v),
	    CROWN_EINVALID);
	msg = crown_dice_error(d);
	assert_string_equal(msg, "dice script ran out: wanted D10 #3 for "
	    "'fire' of unit '1-legion' (turn 3, defender's half)");
	assert_non_null(strstr(msg, "D10"));
	assert_non_null(strstr(msg, "'fire'"));
	assert_non_null(strstr(msg, "'1-legion'"));
	/* Failed rolls are not logged, and stay failed. */
	(void)crown_dice_log(d, &n);
	assert_int_equal(n, 2);
	k.half = 0;
	k.purpose = "morale";
	assert_int_equal(crown_dice_roll(d, &k, 6, LOW(6), &v),
	    CROWN_EINVALID);
	assert_non_null(strstr(crown_dice_error(d), "wanted D6 #3 for "
	    "'morale' of unit '1-legion' (turn 3, attacker's half)"));
	assert_int_equal(crown_dice_unused(d), 0);
	crown_dice_free(d);
	crown_diags_release(&diags);
}

static void
test_script_out_of_range(void **state)
{
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d;
	struct crown_roll_key	 k = { 2, 0, "x", "morale" };
	int			 v;

	(void)state;
	/* Faces at both edges are fine. */
	d = script("0 9 1 6", &diags);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 10), 0);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 10), 9);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 6), 1);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 6), 6);
	crown_dice_free(d);

	/* 10 is not a face of a D10. */
	d = script("3\n1,  10\n", &diags);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 10), 3);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 10), 1);
	assert_int_equal(crown_dice_roll(d, &k, 10, LOW(10), &v),
	    CROWN_EINVALID);
	assert_string_equal(crown_dice_error(d), "dice script value 10 at "
	    "line 2 column 5 is not a face of a D10 (0-9), wanted for "
	    "'morale' of unit 'x' (turn 2, attacker's half)");
	/* The bad value is not used up. */
	assert_int_equal(crown_dice_unused(d), 1);
	crown_dice_free(d);

	/* 0 and 7 are not faces of a D6, nor is -1 of a D10. */
	d = script("0 7\n  -1", &diags);
	assert_int_equal(crown_dice_roll(d, &k, 6, LOW(6), &v),
	    CROWN_EINVALID);
	assert_non_null(strstr(crown_dice_error(d),
	    "value 0 at line 1 column 1 is not a face of a D6 (1-6)"));
	crown_dice_free(d);
	d = script("6 7\n  -1", &diags);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 6), 6);
	assert_int_equal(crown_dice_roll(d, &k, 6, LOW(6), &v),
	    CROWN_EINVALID);
	assert_non_null(strstr(crown_dice_error(d),
	    "value 7 at line 1 column 3 is not a face of a D6 (1-6)"));
	crown_dice_free(d);
	d = script("5\n  -1", &diags);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 6), 5);
	assert_int_equal(crown_dice_roll(d, &k, 10, LOW(10), &v),
	    CROWN_EINVALID);
	assert_non_null(strstr(crown_dice_error(d),
	    "value -1 at line 2 column 3 is not a face of a D10 (0-9)"));
	crown_dice_free(d);
	crown_diags_release(&diags);
}

static void
test_script_parse_errors(void **state)
{
	static const char	 text[] = "1 x 3.5\n--2, 4 #no 3.5 here\n"
	    " 5a,-,+\n99999999999 2147483647 -2147483647\n7\xff\n";
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d = (struct crown_dice *)&diags;

	(void)state;
	assert_int_equal(crown_dice_script_parse(&d, "dice.txt", text,
	    sizeof(text) - 1, &diags), CROWN_EINVALID);
	assert_null(d);
	assert_int_equal(diags.n, 8);
	expect_diag(&diags, 0, 1, 3, "'x' is not an integer");
	expect_diag(&diags, 1, 1, 5, "'3.5' is not an integer");
	expect_diag(&diags, 2, 2, 1, "'--2' is not an integer");
	expect_diag(&diags, 3, 3, 2, "'5a' is not an integer");
	expect_diag(&diags, 4, 3, 5, "'-' is not an integer");
	expect_diag(&diags, 5, 3, 7, "'+' is not an integer");
	expect_diag(&diags, 6, 4, 1, "'99999999999' is too large");
	expect_diag(&diags, 7, 5, 1, "'7\\xff' is not an integer");
	crown_diags_release(&diags);
}

static void
test_script_empty(void **state)
{
	static const char	*empties[] = {
		"", "# nothing\n\n", " ,\t,\n"
	};
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d;
	struct crown_roll_key	 k = { 1, 0, "1-legion", "fire" };
	size_t			 i, n;
	int			 v;

	(void)state;
	for (i = 0; i < CROWN_NELEM(empties); i++) {
		d = script(empties[i], &diags);
		assert_int_equal(crown_dice_unused(d), 0);
		(void)crown_dice_log(d, &n);
		assert_int_equal(n, 0);
		assert_int_equal(crown_dice_roll(d, &k, 10, LOW(10), &v),
		    CROWN_EINVALID);
		assert_non_null(strstr(crown_dice_error(d),
		    "ran out: wanted D10 #1 for 'fire'"));
		crown_dice_free(d);
	}
	crown_diags_release(&diags);
}

static void
test_script_load(void **state)
{
	static const char	 text[] = "4, 5 # comment\nbad\n";
	struct crown_diags	 diags = { 0 };
	struct crown_dice	*d;
	char			*path, *big;
	size_t			 len = 1024 * 1024 + 2;

	(void)state;
	path = write_tmp("good.txt", "4, 5 # c\n6\n", 11);
	assert_int_equal(crown_dice_script_load(&d, path, &diags), 0);
	assert_int_equal(crown_dice_unused(d), 3);
	assert_int_equal(roll(d, 1, 0, "x", "fire", 6), 4);
	crown_dice_free(d);
	free(path);

	path = write_tmp("bad.txt", text, sizeof(text) - 1);
	assert_int_equal(crown_dice_script_load(&d, path, &diags),
	    CROWN_EINVALID);
	assert_null(d);
	assert_int_equal(diags.n, 1);
	assert_string_equal(diags.v[0].file, path);
	assert_int_equal(diags.v[0].line, 2);
	assert_int_equal(diags.v[0].col, 1);
	crown_diags_release(&diags);
	free(path);

	path = xasprintf("%s/missing.txt", tmpdir);
	assert_int_equal(crown_dice_script_load(&d, path, &diags),
	    CROWN_ENOTFOUND);
	assert_null(d);
	assert_int_equal(diags.n, 1);
	crown_diags_release(&diags);
	free(path);

	/* Just over 1 MiB of valid values is refused. */
	big = xmalloc(len);
	memset(big, ' ', len);
	big[0] = '1';
	path = write_tmp("big.txt", big, len);
	assert_int_equal(crown_dice_script_load(&d, path, &diags),
	    CROWN_EINVALID);
	assert_null(d);
	assert_int_equal(diags.n, 1);
	crown_diags_release(&diags);
	free(path);
	path = write_tmp("big.txt", big, len - 2);
	assert_int_equal(crown_dice_script_load(&d, path, &diags), 0);
	assert_int_equal(crown_dice_unused(d), 1);
	crown_dice_free(d);
	free(path);
	free(big);
}

/*
 * Secrets.
 */

static void
test_secret_read(void **state)
{
	static const char	 hex[] = "000102030405060708090a0b0c0d0e0f"
	    "101112131415161718191A1B1C1D1E1F";
	struct crown_diags	 diags = { 0 };
	unsigned char		 s[CROWN_SECRET_BYTES];
	char			*path, buf[80];

	(void)state;
	path = write_tmp("raw", kat_secret, sizeof(kat_secret));
	memset(s, 0xee, sizeof(s));
	assert_int_equal(crown_secret_read(s, path, &diags), 0);
	assert_memory_equal(s, kat_secret, sizeof(s));
	free(path);

	path = write_tmp("hex", hex, 64);
	memset(s, 0xee, sizeof(s));
	assert_int_equal(crown_secret_read(s, path, &diags), 0);
	assert_memory_equal(s, kat_secret, sizeof(s));
	free(path);

	snprintf(buf, sizeof(buf), "%s\n", hex);
	path = write_tmp("hexnl", buf, 65);
	memset(s, 0xee, sizeof(s));
	assert_int_equal(crown_secret_read(s, path, &diags), 0);
	assert_memory_equal(s, kat_secret, sizeof(s));
	free(path);
	assert_int_equal(diags.n, 0);

	/* Wrong sizes. */
	path = write_tmp("short", kat_secret, 31);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	path = write_tmp("long", buf, 33);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	path = write_tmp("hex63", hex, 63);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	path = write_tmp("empty", "", 0);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	snprintf(buf, sizeof(buf), "%s\n\n", hex);
	path = write_tmp("hexnlnl", buf, 66);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	/* 64 characters that are not all hex digits. */
	memcpy(buf, hex, 64);
	buf[40] = 'g';
	path = write_tmp("nothex", buf, 64);
	assert_int_equal(crown_secret_read(s, path, &diags), CROWN_EINVALID);
	free(path);
	assert_int_equal(diags.n, 6);
	assert_non_null(strstr(diags.v[0].msg, "not 31 bytes"));
	assert_int_equal(diags.v[5].line, 1);
	assert_int_equal(diags.v[5].col, 41);
	crown_diags_release(&diags);

	path = xasprintf("%s/no-such-secret", tmpdir);
	assert_int_equal(crown_secret_read(s, path, &diags),
	    CROWN_ENOTFOUND);
	assert_int_equal(diags.n, 1);
	crown_diags_release(&diags);
	free(path);
}

static void
test_secret_commitment(void **state)
{
	unsigned char	zero[CROWN_SECRET_BYTES] = { 0 };
	unsigned char	a[CROWN_SECRET_BYTES], b[CROWN_SECRET_BYTES];
	char		hex[65];

	(void)state;
	/* k(0) of the chain: SHA-256 4096 times (Python's hashlib) */
	memset(hex, 'X', sizeof(hex));
	crown_secret_commitment(hex, zero);
	assert_string_equal(hex, "f34fce81c22cd52be6ede2808cda3a2f"
	    "269bb810d9b14bed56e3acaf9d6d1c35");
	crown_secret_commitment(hex, kat_secret);
	assert_string_equal(hex, "fbd3136db367d4cb21dc522f7e8a28cc"
	    "ce1bec79ee01d51fcd31af5d31c08754");
	/* either commitment a secret may have: k(0), or (format 2) its
	 * SHA-256 */
	assert_true(crown_secret_matches(kat_secret, hex));
	assert_true(crown_secret_matches(kat_secret, "630dcd2966c43366911254"
	    "48bbb25b4ff412a49c732db2c8abc1b8581bd710dd"));
	assert_false(crown_secret_matches(zero, hex));
	assert_false(crown_secret_matches(kat_secret, NULL));

	crown_secret_new(a);
	crown_secret_new(b);
	assert_memory_not_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, zero, sizeof(a));
}

/* The chain's keys: k(1) of kat_secret (hashlib), SHA-256 of k(t) is
 * k(t - 1), and the seed of a chain crown upgrade begins. */
static void
test_chain_keys(void **state)
{
	unsigned char	k[CROWN_SECRET_BYTES], k0[CROWN_SECRET_BYTES];
	unsigned char	back[CROWN_SECRET_BYTES];
	char		hex[65];
	int		t;

	(void)state;
	crown_dice_chain_key(k, kat_secret, 1);
	crown_dice_hex(hex, k);
	assert_string_equal(hex, "27ad82e6eeaf90dedb923c1fa2aa6d51"
	    "88210e9ad587e6f1583ffb104245bc3e");
	crown_dice_chain_key(k0, kat_secret, 0);
	for (t = 1; t <= 5; t++) {
		crown_dice_chain_key(k, kat_secret, t);
		crown_dice_chain_back(back, k, t);
		assert_memory_equal(back, k0, sizeof(k0));
		/* one step short is not the commitment */
		crown_dice_chain_back(back, k, t - 1);
		assert_memory_not_equal(back, k0, sizeof(k0));
	}
	crown_dice_chain_key(k, kat_secret, CROWN_DICE_CHAIN_N);
	assert_memory_equal(k, kat_secret, sizeof(k));
	crown_dice_chain_seed(k, kat_secret);
	crown_dice_hex(hex, k);
	/* BLAKE2b-256 keyed with the secret over "crown-dice-chain-v1" */
	assert_string_equal(hex, "03ea0cc45374ab183ad620186dc35a24"
	    "2511c726b4c6ea4da5e2443f788d44ec");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_faces),
		cmocka_unit_test(test_face_rejection),
		cmocka_unit_test(test_chi_square_d10),
		cmocka_unit_test(test_chi_square_d6),
		cmocka_unit_test(test_known_answer),
		cmocka_unit_test(test_stream_independence),
		cmocka_unit_test(test_streams_differ),
		cmocka_unit_test(test_campaign_log),
		cmocka_unit_test(test_script_in_order),
		cmocka_unit_test(test_script_runs_out),
		cmocka_unit_test(test_script_out_of_range),
		cmocka_unit_test(test_script_parse_errors),
		cmocka_unit_test(test_script_empty),
		cmocka_unit_test(test_script_load),
		cmocka_unit_test(test_secret_read),
		cmocka_unit_test(test_secret_commitment),
		cmocka_unit_test(test_chain_keys),
		cmocka_unit_test(test_salt),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
