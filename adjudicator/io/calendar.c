/*
 * calendar.c: dates, times and durations (calendar.h).
 *
 * Days are counted with H. Hinnant's civil-date algorithms
 * (chrono-Compatible Low-Level Date Algorithms), which are exact for
 * every proleptic Gregorian date and need no time zone or locale, so
 * that a time means the same on every machine.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "crown/calendar.h"

/* Seconds since the epoch are at most this many digits (some thirty
 * million years): the years stay in a long long's range. */
#define EPOCH_DIGITS_MAX	15
/* The longest duration: ten years. */
#define DURATION_MAX		(10LL * 366 * 86400)
/* A duration's number, before its unit, is at most this. */
#define DURATION_NUMBER_MAX	100000000LL

static long long day_of(long long, long long *);
static long long digits(const char **, size_t);
static bool	leap(long long);
static int	parse(long long *, int *, const char *, bool);

long long
crown_cal_days_from_civil(long long y, unsigned m, unsigned d)
{
	long long	era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * ((long long)m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void
crown_cal_civil_from_days(long long *y, unsigned *m, unsigned *d,
    long long days)
{
	long long	z = days + 719468, era, doe, yoe, doy, mp;

	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* The days of t (floor: a second before the epoch is 1969-12-31) and
 * the seconds into that day. */
static long long
day_of(long long t, long long *rem)
{
	long long	days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);

	*rem = t - days * 86400;
	return days;
}

static bool
leap(long long y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

/* n digits at *p as a number, advancing *p past them; -1 (*p
 * unmoved) when they are not all digits, a NUL stopping the reading. */
static long long
digits(const char **p, size_t n)
{
	long long	v = 0;
	size_t		i;

	for (i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return -1;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return v;
}

/*
 * The one reader of times.  Strict (loose false): crown_cal_parse_time's
 * forms.  Loose: a date alone, no offset, and years before 1970 too.
 */
static int
parse(long long *t, int *offset, const char *s, bool loose)
{
	static const unsigned	 mdays[12] = {
		31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	const char		*p;
	long long		 y, mo, d, hh = 0, mi = 0, ss = 0, oh, om;
	long long		 secs;
	size_t			 n;
	int			 sign;

	if (s == NULL)
		return -1;
	p = s[0] == '@' ? s + 1 : s;
	n = strlen(p);
	if (n > 0 && n <= EPOCH_DIGITS_MAX && (secs = digits(&p, n)) >= 0) {
		*t = secs;
		*offset = 0;
		return 0;
	}
	p = s;
	if ((y = digits(&p, 4)) < 0 || *p++ != '-' ||
	    (mo = digits(&p, 2)) < 1 || mo > 12 || *p++ != '-' ||
	    (d = digits(&p, 2)) < 1 || d > (long long)mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !leap(y)) || (!loose && y < 1970))
		return -1;
	*offset = 0;
	if (*p == 'T' || *p == ' ') {
		p++;
		if ((hh = digits(&p, 2)) < 0 || hh > 23 || *p++ != ':' ||
		    (mi = digits(&p, 2)) < 0 || mi > 59)
			return -1;
		if (*p == ':' && (p++, (ss = digits(&p, 2)) < 0 || ss > 59))
			return -1;
		if (*p == 'Z')
			p++;
		else if (*p == '+' || *p == '-') {
			/* +HH:MM or +HHMM east of UTC */
			sign = *p++ == '-' ? -1 : 1;
			if ((oh = digits(&p, 2)) < 0 || oh > 23)
				return -1;
			if (*p == ':')
				p++;
			if ((om = digits(&p, 2)) < 0 || om > 59)
				return -1;
			*offset = sign * (int)(oh * 60 + om);
		} else if (!loose)
			return -1;
	} else if (!loose)
		return -1;
	if (*p != '\0')
		return -1;
	*t = crown_cal_days_from_civil(y, (unsigned)mo, (unsigned)d) *
	    86400 + hh * 3600 + mi * 60 + ss - (long long)*offset * 60;
	return 0;
}

int
crown_cal_parse_time(long long *out, const char *s)
{
	int	offset;

	return parse(out, &offset, s, false);
}

int
crown_cal_parse_date(long long *t, int *offset, const char *s)
{
	return parse(t, offset, s, true);
}

void
crown_cal_format_time(char *buf, size_t len, long long t)
{
	long long	y, rem, days = day_of(t, &rem);
	unsigned	m, d;

	crown_cal_civil_from_days(&y, &m, &d, days);
	(void)snprintf(buf, len, "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
	    y, m, d, rem / 3600, rem / 60 % 60, rem % 60);
}

void
crown_cal_format_date(char *buf, size_t len, long long t, int offset)
{
	long long	y, rem, days;
	unsigned	m, d;

	days = day_of(t + (long long)offset * 60, &rem);
	crown_cal_civil_from_days(&y, &m, &d, days);
	(void)snprintf(buf, len, "%04lld-%02u-%02u", y, m, d);
}

bool
crown_cal_time_valid(const char *s)
{
	char		buf[CROWN_CAL_TIME_LEN];
	long long	t;

	/* exactly the canonical form: it reads back as it was written */
	if (crown_cal_parse_time(&t, s) != 0)
		return false;
	crown_cal_format_time(buf, sizeof(buf), t);
	return strcmp(buf, s) == 0;
}

int
crown_cal_duration_parse(long long *secs, const char *s)
{
	long long	 t = 0, n;
	const char	*p = s;

	*secs = 0;
	if (*p == '\0')
		return -1;
	while (*p != '\0') {
		if (*p < '0' || *p > '9')
			return -1;
		for (n = 0; *p >= '0' && *p <= '9'; p++)
			if ((n = n * 10 + (*p - '0')) > DURATION_NUMBER_MAX)
				return -1;
		switch (*p++) {
		case 'w':
			n *= 7 * 86400;
			break;
		case 'd':
			n *= 86400;
			break;
		case 'h':
			n *= 3600;
			break;
		case 'm':
			n *= 60;
			break;
		default:
			return -1;
		}
		if ((t += n) > DURATION_MAX)
			return -1;
	}
	if (t == 0)
		return -1;
	*secs = t;
	return 0;
}

void
crown_cal_format_span(char *buf, size_t len, long long secs)
{
	long long	d = secs / 86400, h = secs / 3600 % 24;
	long long	m = secs / 60 % 60;

	if (d > 0)
		(void)snprintf(buf, len, "%lldd %lldh %02lldm", d, h, m);
	else if (h > 0)
		(void)snprintf(buf, len, "%lldh %02lldm", h, m);
	else if (secs >= 60)
		(void)snprintf(buf, len, "%lldm", m);
	else
		(void)snprintf(buf, len, "%llds", secs);
}

long long
crown_cal_now(void)
{
	time_t	t = time(NULL);

	return t == (time_t)-1 ? 0 : (long long)t;
}
