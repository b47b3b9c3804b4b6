/*
 * calendar.h: dates, times and durations (calendar.c), the one home of
 * every time crown reads or writes: game.deadline and
 * game.deadline_every, --date, --now, crown deadline's TIME and
 * +DURATION, the dates of crown log and the site, and the "in 2d 3h"
 * of crown status.
 *
 * A time is seconds since 1970-01-01T00:00:00Z (the epoch), counted in
 * the proleptic Gregorian calendar without leap seconds; no time zone
 * database, locale or clock is involved except in crown_cal_now.
 */
#ifndef CROWN_CALENDAR_H
#define CROWN_CALENDAR_H

#include <stdbool.h>
#include <stddef.h>

/* "2026-12-05T18:00:00Z" and its NUL; "2026-12-05" and its NUL. */
#define CROWN_CAL_TIME_LEN	21
#define CROWN_CAL_DATE_LEN	11

/* Days since the epoch of a civil date (month 1 to 12, day 1 to 31),
 * and back; any year, before 1970 too. */
long long crown_cal_days_from_civil(long long y, unsigned m, unsigned d);
void	crown_cal_civil_from_days(long long *y, unsigned *m, unsigned *d,
	    long long days);

/*
 * A time (a deadline, --now, crown deadline's TIME): ISO 8601
 * "YYYY-MM-DDTHH:MM[:SS]" (or a space for the T) with "Z" or an offset
 * "+HH:MM" / "-HHMM" (up to 23:59), from 1970 on; or seconds since the
 * epoch, 1 to 15 digits, "@" before them optional.  0, or -1 when s is
 * none of these (or NULL).
 */
int	crown_cal_parse_time(long long *out, const char *s);

/*
 * A commit date (--date): what crown_cal_parse_time reads, and also a
 * date alone ("2026-03-01", midnight) or a time without offset (UTC),
 * of any year from 0000; the offset it was written in is kept, in
 * minutes east of UTC (0 for "Z", none or seconds).  0, or -1.
 */
int	crown_cal_parse_date(long long *t, int *offset, const char *s);

/* "2026-12-05T18:00:00Z", t in UTC, into buf (CROWN_CAL_TIME_LEN
 * bytes at least). */
void	crown_cal_format_time(char *buf, size_t len, long long t);

/* "2026-03-01", the date of t offset minutes east of UTC, into buf
 * (CROWN_CAL_DATE_LEN bytes at least). */
void	crown_cal_format_date(char *buf, size_t len, long long t,
	    int offset);

/* Is s a time exactly as crown_cal_format_time writes it, from 1970 on
 * (game.deadline: "YYYY-MM-DDTHH:MM:SSZ", a real UTC date and time)? */
bool	crown_cal_time_valid(const char *s);

/*
 * A duration (game.deadline_every, crown deadline's +DURATION and
 * --every): one or more NUMBER UNIT with units w d h m ("7d", "36h",
 * "1d12h"), into seconds; 0, or -1 when s is not one (or is zero, or
 * over ten years).
 */
int	crown_cal_duration_parse(long long *secs, const char *s);

/* How long secs (0 or more) is, for a reader: "2d 3h 05m", "3h 05m",
 * "12m" or "40s", into buf (32 bytes are enough). */
void	crown_cal_format_span(char *buf, size_t len, long long secs);

/* The time now, or 0 when the clock cannot be read. */
long long crown_cal_now(void);

#endif
