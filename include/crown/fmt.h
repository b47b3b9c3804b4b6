/*
 * fmt.h: numbers as text (fmt.c), and the rounding to hundredths of an
 * inch that positions are kept to.
 */
#ifndef CROWN_FMT_H
#define CROWN_FMT_H

#include <stddef.h>

/*
 * Numbers as text (fmt.c), into buf of CROWN_FMT_MAX bytes; each returns
 * the length written.  crown_fmt_fixed writes what printf's "%.*f" would,
 * byte for byte, except that a value that rounds to zero has no minus
 * sign ("0.00", never "-0.00"); decimals from 0 to CROWN_FMT_DECIMALS.
 */
#define CROWN_FMT_MAX		320	/* -DBL_MAX with 4 decimals, NUL */
#define CROWN_FMT_DECIMALS	4
size_t	 crown_fmt_long(char *buf, long v);
size_t	 crown_fmt_ulong(char *buf, unsigned long long u);
size_t	 crown_fmt_fixed(char *buf, double v, int decimals);
/* A position or length as state.yaml and events.yaml write it: rounded
 * to the hundredth (crown_round2), then with two decimals. */
size_t	 crown_fmt_num2(char *buf, double v);

/* Inches for sentences, to the hundredth without trailing zeros: "7",
 * "6.5", "6.25". */
size_t	 crown_fmt_inches(char *buf, double v);

/* Round to the nearest hundredth (positions are kept so). */
double	 crown_round2(double);

#endif
