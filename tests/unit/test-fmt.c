/*
 * test-fmt.c: numbers as text (fmt.c) against printf, which they must
 * match byte for byte: reports, maps and states are compared across
 * machines and runs; and xasprintf and crown_buf_printf, which grow
 * their room as the text needs, against snprintf.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "crown/fmt.h"

#include "testutil.h"

/* What crown_fmt_fixed must write: printf's, without a minus on zero. */
static void
want_fixed(char *buf, double v, int decimals)
{
	snprintf(buf, CROWN_FMT_MAX, "%.*f", decimals, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

static void
check_fixed(double v, int decimals)
{
	char	got[CROWN_FMT_MAX], want[CROWN_FMT_MAX];
	size_t	n;

	n = crown_fmt_fixed(got, v, decimals);
	want_fixed(want, v, decimals);
	if (strcmp(got, want) != 0)
		fail_msg("%.17g with %d decimals: got '%s', printf '%s'", v,
		    decimals, got, want);
	assert_int_equal(n, strlen(got));
}

static void
check_all_decimals(double v)
{
	int	d;

	for (d = 0; d <= CROWN_FMT_DECIMALS; d++) {
		check_fixed(v, d);
		check_fixed(-v, d);
	}
}

/* xorshift64: the same values on every run. */
static uint64_t
next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
test_fixed_edges(void **state)
{
	static const double	 v[] = {
		0.0, 0.001, 0.004, 0.005, 0.0051, 0.0049, 0.01, 0.015,
		0.025, 0.125, 0.375, 0.5, 1.5, 2.5, 2.675, 1.005, 1.115,
		9.995, 99.995, 0.05, 0.45, 0.55, 12.345, 1e-300, 4.9e-324,
		1e12, 9999999999999.995, 1e13, 1e13 + 0.5, 1e15, 1e20,
		DBL_MAX, DBL_MIN, 123456789.125, 0.000049999, 0.00005
	};
	char			 buf[CROWN_FMT_MAX];
	size_t			 i;

	for (i = 0; i < CROWN_NELEM(v); i++)
		check_all_decimals(v[i]);
	/* where a number gains a digit, by rounding too, and the integer
	 * part's change from 32-bit to 64-bit arithmetic */
	for (i = 0; i < 14; i++) {
		double p = pow(10, (double)i);

		check_all_decimals(p);
		check_all_decimals(p - 0.5);
		check_all_decimals(p - 0.04);
		check_all_decimals(p - 0.00004);
		check_all_decimals(p + 0.25);
	}
	check_all_decimals(4294967295.0);
	check_all_decimals(4294967295.75);
	check_all_decimals(4294967296.0);
	check_all_decimals(4294967296.125);
	check_all_decimals(429496729.59);
	check_all_decimals(42949672.9599);
	/* the two that are not printf's, and what is not a number */
	crown_fmt_fixed(buf, -0.0, 2);
	assert_string_equal(buf, "0.00");
	crown_fmt_fixed(buf, -0.004, 2);
	assert_string_equal(buf, "0.00");
	crown_fmt_fixed(buf, -0.005, 2);
	assert_string_equal(buf, "-0.01");
	crown_fmt_fixed(buf, 2.5, 0);
	assert_string_equal(buf, "2");		/* ties to even */
	crown_fmt_fixed(buf, 0.125, 2);
	assert_string_equal(buf, "0.12");
	check_all_decimals(INFINITY);
	check_all_decimals(NAN);
}

static void
test_fixed_random(void **state)
{
	uint64_t	seed = 0x9e3779b97f4a7c15ULL, r;
	double		v;
	long		i;

	for (i = 0; i < 50000; i++) {
		r = next(&seed);
		switch (r % 5) {
		case 0:		/* anything of a table's size */
			v = (double)(r >> 11) / (double)(1ULL << 53) * 1e4;
			break;
		case 1:		/* on or beside a tie of some decimals */
			v = (double)(r >> 20 & 0xfffff) / 2000.0;
			break;
		case 2:		/* exact binary fractions: exact ties */
			v = (double)(r >> 30) / 1024.0;
			break;
		case 3:		/* large */
			v = (double)(r >> 11) / (double)(1ULL << 53) * 1e14;
			break;
		default:	/* any bits at all */
			memcpy(&v, &r, sizeof(v));
			break;
		}
		check_all_decimals(v);
	}
}

static void
test_long(void **state)
{
	char	buf[CROWN_FMT_MAX], want[CROWN_FMT_MAX];
	long	v[] = { 0, 1, -1, 9, 10, -10, 99, 100, -100, 123456789,
		    4294967295L, 4294967296L, -4294967296L, 99999999999L,
		    LONG_MAX, LONG_MIN, LONG_MIN + 1 };
	long	p;
	size_t	i;

	for (i = 0; i < CROWN_NELEM(v); i++) {
		snprintf(want, sizeof(want), "%ld", v[i]);
		assert_int_equal(crown_fmt_long(buf, v[i]), strlen(want));
		assert_string_equal(buf, want);
	}
	/* every length, at both its ends */
	for (p = 1; p <= LONG_MAX / 10; p *= 10) {
		long	w[] = { p, p - 1, -p, 1 - p, 10 * p - 1 };

		for (i = 0; i < CROWN_NELEM(w); i++) {
			snprintf(want, sizeof(want), "%ld", w[i]);
			assert_int_equal(crown_fmt_long(buf, w[i]),
			    strlen(want));
			assert_string_equal(buf, want);
		}
	}
}

/* xasprintf and crown_buf_printf (after what the buffer holds) write what
 * snprintf does. */
#define CHECK_PRINTF(...) do {						\
	struct crown_buf	 b_ = { 0 };				\
	char			 want_[1024], *got_;			\
									\
	snprintf(want_, sizeof(want_), __VA_ARGS__);			\
	got_ = xasprintf(__VA_ARGS__);					\
	assert_string_equal(got_, want_);				\
	free(got_);							\
	crown_buf_puts(&b_, "<");					\
	crown_buf_printf(&b_, __VA_ARGS__);				\
	assert_string_equal(b_.data + 1, want_);			\
	assert_int_equal(b_.len, strlen(want_) + 1);			\
	crown_buf_release(&b_);						\
} while (0)

static void
test_printf(void **state)
{
	static const double	 v[] = {
		0.0, -0.0, 0.004, -0.004, 0.005, -0.005, 2.675, 18, 9.995,
		1e13, 1e20, -3.25, INFINITY, -INFINITY, NAN
	};
	char			 s255[256], s256[257];
	uint64_t		 seed = 0x2545f4914f6cdd1dULL, r;
	size_t			 i;

	CHECK_PRINTF("%s", "");
	CHECK_PRINTF("plain words");
	CHECK_PRINTF("100%% and %%s");
	CHECK_PRINTF("%s's order to %s was not carried out: %s.", "1st Foot",
	    "fire", "it is 20.50 inches away");
	CHECK_PRINTF("[%c%c]", 'Q', '%');
	CHECK_PRINTF("%d %d %d %d %d", 0, 7, -1, INT_MIN, INT_MAX);
	CHECK_PRINTF("%+d %+d %+d %+d", 0, 5, -5, INT_MIN);
	CHECK_PRINTF("%u %u", 0u, UINT_MAX);
	CHECK_PRINTF("%ld %ld %lu", LONG_MIN, LONG_MAX, ULONG_MAX);
	CHECK_PRINTF("%zu %zu", (size_t)0, SIZE_MAX);
	for (i = 0; i < CROWN_NELEM(v); i++)
		CHECK_PRINTF("%.0f %.1f %.2f %.3f %.4f", v[i], v[i], v[i],
		    v[i], v[i]);
	CHECK_PRINTF("%s|%5d|%-4s|%02x|%g|%.5f|%f|%e|%x|%5.2f|%ld", "", 42,
	    "ab", 10, 0.1, 1.0 / 3, 2.5, 1e-7, 255u, 3.14159, -2L);
	CHECK_PRINTF("%+.2f %.2e %hd %lld %.3s", 1.5, 2.5, (short)3,
	    LLONG_MIN, "abcdef");
	/* the end of xasprintf's first 256 bytes, and past it */
	memset(s255, 'x', sizeof(s255) - 1);
	s255[sizeof(s255) - 1] = '\0';
	memset(s256, 'y', sizeof(s256) - 1);
	s256[sizeof(s256) - 1] = '\0';
	CHECK_PRINTF("%s", s255);
	CHECK_PRINTF("%s", s256);
	CHECK_PRINTF("%s%d", s255 + 1, 5);
	CHECK_PRINTF("%s%d", s255 + 2, 5);
	for (i = 0; i < 20000; i++) {
		r = next(&seed);
		CHECK_PRINTF("%s at %.2f, %d (%+d) of %zu; %.1f", i % 2 ? "a" :
		    "bc", (double)(r >> 11) / (double)(1ULL << 53) * 1e4,
		    (int)(r >> 32), (int)(r & 0xffff) - 30000, (size_t)r,
		    (double)(r >> 40) / 64.0);
	}
}

/*
 * crown_grow: the capacity starts at 8 and doubles; what was in the
 * array survives every move.
 */
static void
test_grow_steps(void **state)
{
	uint32_t	*v = NULL;
	size_t		 cap = 0, last = 0, n, i;

	(void)state;
	for (n = 1; n <= 1000000; n++) {
		crown_grow(&v, &cap, n, sizeof(*v));
		v[n - 1] = (uint32_t)(n * 2654435761u);
		if (cap == last)
			continue;
		if (last == 0)
			assert_int_equal(cap, 8);
		else
			assert_int_equal(cap, last * 2);
		last = cap;
	}
	/* 8 * 2^17 is 2^20, the first capacity over a million */
	assert_int_equal(cap, (size_t)1 << 20);
	for (i = 0; i < 1000000; i++)
		assert_int_equal(v[i], (uint32_t)((i + 1) * 2654435761u));
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_edges),
		cmocka_unit_test(test_fixed_random),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_printf),
		cmocka_unit_test(test_grow_steps),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
