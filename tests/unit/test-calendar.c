/*
 * test-calendar.c: dates, times and durations (calendar.c): the days of
 * civil dates against a walk through the calendar one day at a time,
 * leap years, offsets, the epoch and what is not a time; and what the
 * deadlines, --now, --date, crown log and crown status read and write
 * with it.
 */
#include "crown/calendar.h"

#include "testutil.h"

#define DEADLINE	"2026-12-05T18:00:00Z"
#define DEADLINE_T	1796493600LL

static bool
is_leap(long long y)
{
	return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

/* Every day from 1600-01-01 to 2400-12-31, counted one at a time, is
 * the day crown_cal_days_from_civil says, and back. */
static void
test_civil_walk(void **state)
{
	static const unsigned	mlen[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	long long		y, days, gy;
	unsigned		m, d, n, gm, gd;

	(void)state;
	days = crown_cal_days_from_civil(1600, 1, 1);
	assert_true(days == -135140);
	for (y = 1600; y <= 2400; y++)
		for (m = 1; m <= 12; m++) {
			n = mlen[m - 1] + (m == 2 && is_leap(y));
			for (d = 1; d <= n; d++, days++) {
				assert_true(crown_cal_days_from_civil(y, m,
				    d) == days);
				crown_cal_civil_from_days(&gy, &gm, &gd, days);
				assert_true(gy == y && gm == m && gd == d);
			}
		}
	assert_true(crown_cal_days_from_civil(1970, 1, 1) == 0);
	assert_true(crown_cal_days_from_civil(1969, 12, 31) == -1);
	assert_true(crown_cal_days_from_civil(2000, 3, 1) == 11017);
	crown_cal_civil_from_days(&gy, &gm, &gd, -719528);
	assert_true(gy == 0 && gm == 1 && gd == 1);
}

static void
test_times(void **state)
{
	long long	t;
	char		buf[CROWN_CAL_TIME_LEN];

	(void)state;
	assert_int_equal(crown_cal_parse_time(&t, DEADLINE), 0);
	assert_true(t == DEADLINE_T);
	crown_cal_format_time(buf, sizeof(buf), t);
	assert_string_equal(buf, DEADLINE);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05 18:00Z"), 0);
	assert_true(t == DEADLINE_T);
	/* the epoch, as a time and as seconds */
	assert_int_equal(crown_cal_parse_time(&t, "0"), 0);
	assert_true(t == 0);
	assert_int_equal(crown_cal_parse_time(&t, "@0"), 0);
	assert_true(t == 0);
	assert_int_equal(crown_cal_parse_time(&t, "1970-01-01T00:00:00Z"), 0);
	assert_true(t == 0);
	crown_cal_format_time(buf, sizeof(buf), 0);
	assert_string_equal(buf, "1970-01-01T00:00:00Z");
	crown_cal_format_time(buf, sizeof(buf), -1);
	assert_string_equal(buf, "1969-12-31T23:59:59Z");
	assert_int_equal(crown_cal_parse_time(&t, "@1796493600"), 0);
	assert_true(t == DEADLINE_T);
	assert_int_equal(crown_cal_parse_time(&t, "999999999999999"), 0);
	assert_true(t == 999999999999999LL);
	assert_int_equal(crown_cal_parse_time(&t, "1000000000000000"), -1);
	/* leap days: 2024 and 2000 have one, 2100, 1900 and 2026 none */
	assert_int_equal(crown_cal_parse_time(&t, "2024-02-29T00:00:00Z"),
	    0);
	crown_cal_format_time(buf, sizeof(buf), t + 86400);
	assert_string_equal(buf, "2024-03-01T00:00:00Z");
	assert_int_equal(crown_cal_parse_time(&t, "2000-02-29T23:59:59Z"),
	    0);
	assert_int_equal(crown_cal_parse_time(&t, "2100-02-29T00:00:00Z"),
	    -1);
	assert_int_equal(crown_cal_parse_time(&t, "1900-02-29T00:00:00Z"),
	    -1);
	assert_int_equal(crown_cal_parse_time(&t, "2026-02-29T00:00:00Z"),
	    -1);
	crown_cal_format_time(buf, sizeof(buf), 4102444799LL);
	assert_string_equal(buf, "2099-12-31T23:59:59Z");
}

static void
test_offsets(void **state)
{
	long long	t;
	int		off;

	(void)state;
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T19:30+01:30"),
	    0);
	assert_true(t == DEADLINE_T);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T16:00:00-0200"),
	    0);
	assert_true(t == DEADLINE_T);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-06T17:59+23:59"),
	    0);
	assert_true(t == DEADLINE_T);
	/* an offset across the new year */
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-31T23:00:00-01:00"),
	    0);
	assert_true(t == crown_cal_days_from_civil(2027, 1, 1) * 86400);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T18:00+24:00"),
	    -1);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T18:00+01:60"),
	    -1);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T18:00+1"), -1);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T18:00+01:0"),
	    -1);
	/* --date keeps the offset it was written in */
	assert_int_equal(crown_cal_parse_date(&t, &off,
	    "2026-03-01T10:00:00+01:00"), 0);
	assert_true(t == 1772355600LL && off == 60);
	assert_int_equal(crown_cal_parse_date(&t, &off,
	    "2026-03-01 10:00-0230"), 0);
	assert_true(t == 1772368200LL && off == -150);
	assert_int_equal(crown_cal_parse_date(&t, &off,
	    "2026-03-01T10:00+14:00"), 0);
	assert_true(off == 14 * 60);
}

/* What is not a time, for each reader. */
static void
test_bad_times(void **state)
{
	static const char *const	bad[] = {
		"2026-12-05T24:00:00Z", "2026-12-05T18:60:00Z",
		"2026-12-05T18:00:60Z", "2026-13-05T18:00:00Z",
		"2026-00-05T18:00:00Z", "2026-12-00T18:00:00Z",
		"2026-04-31T18:00:00Z", "2026-12-05T18:00:00Zx",
		"2026-12-05T18Z", "2026-12-05X18:00Z", "26-12-05T18:00Z",
		"2026-1-05T18:00Z", "@2026-12-05T18:00Z", "tomorrow", "",
		"@", "@@1", "-5", "12abc", "1 ", "2026-03-01x", "2026-03-01Z",
		"2026-03-01T25:00"
	};
	long long			t = 42;
	int				off = 7;
	size_t				i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(crown_cal_parse_time(&t, bad[i]), -1);
		assert_int_equal(crown_cal_parse_date(&t, &off, bad[i]), -1);
		assert_false(crown_cal_time_valid(bad[i]));
	}
	assert_true(t == 42);
	assert_int_equal(crown_cal_parse_time(&t, NULL), -1);
	assert_int_equal(crown_cal_parse_date(&t, &off, NULL), -1);
	/* a deadline needs its time and its offset, and 1970 or later */
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05T18:00:00"), -1);
	assert_int_equal(crown_cal_parse_time(&t, "2026-12-05"), -1);
	assert_int_equal(crown_cal_parse_time(&t, "1969-12-31T23:59:59Z"),
	    -1);
}

/* crown new --date and the dates of crown log, blame and the site. */
static void
test_dates(void **state)
{
	long long	t;
	int		off;
	char		buf[CROWN_CAL_DATE_LEN];

	(void)state;
	assert_int_equal(crown_cal_parse_date(&t, &off, "2026-03-01"), 0);
	assert_true(t == 1772323200LL && off == 0);
	assert_int_equal(crown_cal_parse_date(&t, &off, "2026-03-01T10:00"),
	    0);
	assert_true(t == 1772323200LL + 36000 && off == 0);
	assert_int_equal(crown_cal_parse_date(&t, &off,
	    "1970-01-01T00:00:00Z"), 0);
	assert_true(t == 0 && off == 0);
	assert_int_equal(crown_cal_parse_date(&t, &off, "1969-12-31"), 0);
	assert_true(t == -86400);
	assert_int_equal(crown_cal_parse_date(&t, &off, "@1700000000"), 0);
	assert_true(t == 1700000000LL && off == 0);
	assert_int_equal(crown_cal_parse_date(&t, &off, "1700000000"), 0);
	assert_true(t == 1700000000LL);
	assert_int_equal(crown_cal_parse_date(&t, &off, "2024-02-29"), 0);
	assert_int_equal(crown_cal_parse_date(&t, &off, "2026-02-29"), -1);
	crown_cal_format_date(buf, sizeof(buf), 1772355600LL, 60);
	assert_string_equal(buf, "2026-03-01");
	/* late on the 1st in UTC is the 2nd two hours east */
	crown_cal_format_date(buf, sizeof(buf), 1772405000LL, 120);
	assert_string_equal(buf, "2026-03-02");
	crown_cal_format_date(buf, sizeof(buf), 1772323200LL, -1);
	assert_string_equal(buf, "2026-02-28");
	crown_cal_format_date(buf, sizeof(buf), -1, 0);
	assert_string_equal(buf, "1969-12-31");
}

/* game.deadline is written one way only. */
static void
test_time_valid(void **state)
{
	(void)state;
	assert_true(crown_cal_time_valid(DEADLINE));
	assert_true(crown_cal_time_valid("1970-01-01T00:00:00Z"));
	assert_true(crown_cal_time_valid("2024-02-29T23:59:59Z"));
	assert_true(crown_cal_time_valid("9999-12-31T23:59:59Z"));
	assert_false(crown_cal_time_valid("2026-12-05T19:00:00+01:00"));
	assert_false(crown_cal_time_valid("2026-12-05T18:00Z"));
	assert_false(crown_cal_time_valid("2026-12-05 18:00:00Z"));
	assert_false(crown_cal_time_valid("1796493600"));
	assert_false(crown_cal_time_valid("1969-12-31T23:59:59Z"));
	assert_false(crown_cal_time_valid("2026-02-29T00:00:00Z"));
}

static void
test_durations(void **state)
{
	static const char *const	bad[] = {
		"", "d", "7", "7x", "0d", "0h0m", "-1d", "+7d", "7 d",
		"1d 12h", "7D", "3661d", "100000001m", "1s"
	};
	long long			s;
	size_t				i;

	(void)state;
	assert_int_equal(crown_cal_duration_parse(&s, "7d"), 0);
	assert_true(s == 7 * 86400);
	assert_int_equal(crown_cal_duration_parse(&s, "36h"), 0);
	assert_true(s == 36 * 3600);
	assert_int_equal(crown_cal_duration_parse(&s, "1d12h"), 0);
	assert_true(s == 36 * 3600);
	assert_int_equal(crown_cal_duration_parse(&s, "1w"), 0);
	assert_true(s == 7 * 86400);
	assert_int_equal(crown_cal_duration_parse(&s, "90m"), 0);
	assert_true(s == 90 * 60);
	assert_int_equal(crown_cal_duration_parse(&s, "1w2d3h4m"), 0);
	assert_true(s == 9 * 86400 + 3 * 3600 + 4 * 60);
	/* ten years, of 366 days, is the longest */
	assert_int_equal(crown_cal_duration_parse(&s, "3660d"), 0);
	assert_true(s == 3660LL * 86400);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(crown_cal_duration_parse(&s, bad[i]), -1);
		assert_true(s == 0);
	}
}

/* The next deadline, --every after the last (crown turn). */
static void
test_next_deadline(void **state)
{
	long long	t, every;
	char		buf[CROWN_CAL_TIME_LEN];

	(void)state;
	assert_int_equal(crown_cal_parse_time(&t, DEADLINE), 0);
	assert_int_equal(crown_cal_duration_parse(&every, "1w"), 0);
	crown_cal_format_time(buf, sizeof(buf), t + every);
	assert_string_equal(buf, "2026-12-12T18:00:00Z");
	assert_int_equal(crown_cal_parse_time(&t, "2028-02-28T20:00:00Z"), 0);
	assert_int_equal(crown_cal_duration_parse(&every, "1d12h"), 0);
	crown_cal_format_time(buf, sizeof(buf), t + every);
	assert_string_equal(buf, "2028-03-01T08:00:00Z");
}

/* crown status: "deadline ... (in 2d 3h 05m)", "(passed 40s ago)". */
static void
test_spans(void **state)
{
	char	buf[32];

	(void)state;
	crown_cal_format_span(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0s");
	crown_cal_format_span(buf, sizeof(buf), 59);
	assert_string_equal(buf, "59s");
	crown_cal_format_span(buf, sizeof(buf), 60);
	assert_string_equal(buf, "1m");
	crown_cal_format_span(buf, sizeof(buf), 3599);
	assert_string_equal(buf, "59m");
	crown_cal_format_span(buf, sizeof(buf), 3600 + 5 * 60 + 59);
	assert_string_equal(buf, "1h 05m");
	crown_cal_format_span(buf, sizeof(buf), 86400);
	assert_string_equal(buf, "1d 0h 00m");
	crown_cal_format_span(buf, sizeof(buf), 3 * 86400 + 21 * 3600);
	assert_string_equal(buf, "3d 21h 00m");
}

static void
test_now(void **state)
{
	(void)state;
	/* after this file was written, and before the year 3000 */
	assert_true(crown_cal_now() > 1700000000LL);
	assert_true(crown_cal_now() < crown_cal_days_from_civil(3000, 1, 1) *
	    86400);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_civil_walk),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_bad_times),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_time_valid),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_next_deadline),
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_now),
	};

	return cmocka_run_group_tests_name("calendar", tests, NULL, NULL);
}
