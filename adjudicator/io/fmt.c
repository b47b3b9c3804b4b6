/*
 * fmt.c: numbers as text, as printf writes them but without its cost.
 * Reports and maps print hundreds of thousands of numbers a turn, and
 * printf's general machinery was a fifth of a large turn's time.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"

/* Above this the fast path's integers would lose digits: printf then. */
#define FAST_LIMIT	1e13

size_t
crown_fmt_long(char *buf, long v)
{
	char		 tmp[CROWN_FMT_MAX], *p = tmp + sizeof(tmp);
	unsigned long	 u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	size_t		 n;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
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
	unsigned long long	 k;
	char			 tmp[CROWN_FMT_MAX], *p = tmp + sizeof(tmp);
	double			 a = v < 0 ? -v : v;
	bool			 zero = true;
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
	zero = k == 0;
	for (i = 0; i < decimals; i++) {
		*--p = (char)('0' + k % 10);
		k /= 10;
	}
	if (decimals > 0)
		*--p = '.';
	do
		*--p = (char)('0' + k % 10);
	while ((k /= 10) != 0);
	if (v < 0 && !zero)	/* never "-0.00" */
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
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
