/*
 * fmt.c: numbers as text, as printf writes them but without its cost.
 * Reports and maps print hundreds of thousands of numbers a turn, and
 * printf's general machinery was a fifth of a large turn's time.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"

/* Above this the fast path's integers would lose digits: printf then. */
#define FAST_LIMIT	1e13

/* "00" to "99": two digits a division (the maps print some 90,000
 * numbers of four or five digits). */
static const char pairs[201] =
    "000102030405060708091011121314151617181920212223242526272829"
    "303132333435363738394041424344454647484950515253545556575859"
    "606162636465666768697071727374757677787980818283848586878889"
    "90919293949596979899";

static const unsigned long long tens[] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* How many decimal digits u has: its text's length is known before it is
 * written, so that it is written in place and not copied. */
static size_t
ndigits(unsigned long long u)
{
	size_t	n = 1;

	/* past the table, 10^19 and more: 20 digits, as many as 2^64 - 1 */
	while (n < CROWN_NELEM(tens) && u >= tens[n])
		n++;
	return n;
}

/* The digits of u, ending just before end, two at a time; 32-bit
 * arithmetic once u fits, as nearly every number does. */
static inline void
digits_back(char *end, unsigned long long u)
{
	uint32_t	w;

	for (; u > UINT32_MAX; u /= 100) {
		end -= 2;
		memcpy(end, pairs + 2 * (u % 100), 2);
	}
	for (w = (uint32_t)u; w >= 100; w /= 100) {
		end -= 2;
		memcpy(end, pairs + 2 * (w % 100), 2);
	}
	if (w >= 10)
		memcpy(end - 2, pairs + 2 * w, 2);
	else
		end[-1] = (char)('0' + w);
}

size_t
crown_fmt_ulong(char *buf, unsigned long long u)
{
	size_t	n = ndigits(u);

	digits_back(buf + n, u);
	buf[n] = '\0';
	return n;
}

size_t
crown_fmt_long(char *buf, long v)
{
	if (v >= 0)
		return crown_fmt_ulong(buf, (unsigned long)v);
	buf[0] = '-';
	return 1 + crown_fmt_ulong(buf + 1, 0ULL - (unsigned long long)v);
}

size_t
crown_fmt_num2(char *buf, double v)
{
	/* rounded first, as positions are kept: no "-0.00" */
	return crown_fmt_fixed(buf, crown_round2(v), 2);
}

/*
 * v scaled by 10^decimals and rounded as printf rounds the exact binary
 * value: to nearest, ties to even.  The product s = a * scale carries an
 * error of at most half an ulp of s, so when the fraction of s is further
 * than that from one half, s rounds the same way as the exact product.
 * Closer (a near tie, rare), false: printf decides.
 */
static bool
round_scaled(double a, double scale, unsigned long long *out)
{
	double			s = a * scale, f, err;
	unsigned long long	k;

	k = (unsigned long long)s;	/* s >= 0: truncation is floor */
	f = s - (double)k;		/* exact: Sterbenz */
	err = s * 0x1p-52 + 0x1p-1074;
	if (f > 0.5 + err)
		k++;
	else if (f >= 0.5 - err)
		return false;
	*out = k;
	return true;
}

size_t
crown_fmt_fixed(char *buf, double v, int decimals)
{
	static const double	 scales[] = { 1, 10, 100, 1000, 10000 };
	unsigned long long	 k, ip;
	uint32_t		 scale, fp;
	double			 a = fabs(v);
	char			*p;
	bool			 neg;
	size_t			 n;
	int			 i, len;

	if (decimals < 0 || decimals >= (int)CROWN_NELEM(scales) ||
	    decimals > CROWN_FMT_DECIMALS || !(a < FAST_LIMIT) ||
	    !round_scaled(a, scales[decimals], &k)) {
		if (decimals < 0 || decimals > CROWN_FMT_DECIMALS)
			decimals = CROWN_FMT_DECIMALS;
		len = snprintf(buf, CROWN_FMT_MAX, "%.*f", decimals, v);
		if (buf[0] == '-' && strspn(buf + 1, "0.") ==
		    strlen(buf + 1)) {
			memmove(buf, buf + 1, (size_t)len);
			len--;
		}
		return (size_t)len;
	}
	/* k is the integer part and the decimals' digits together: each
	 * part written where it goes, the decimals' always all there */
	scale = (uint32_t)scales[decimals];
	ip = k / scale;
	fp = (uint32_t)(k % scale);
	neg = signbit(v) && k != 0;	/* never "-0.00" */
	n = (size_t)neg + ndigits(ip) + (decimals > 0 ? (size_t)decimals + 1 :
	    0);
	p = buf + n;
	*p = '\0';
	for (i = decimals; i >= 2; i -= 2, fp /= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (fp % 100), 2);
	}
	if (i == 1)
		*--p = (char)('0' + fp);
	if (decimals > 0)
		*--p = '.';
	digits_back(p, ip);
	if (neg)
		buf[0] = '-';
	return n;
}

size_t
crown_fmt_inches(char *buf, double v)
{
	size_t	n;

	n = crown_fmt_fixed(buf, crown_round2(v), 2);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	return n;
}

double
crown_round2(double v)
{
	return (double)llround(v * 100.0) / 100.0;
}
