/*
 * testutil.h: small helpers shared by the cmocka tests (header-only so
 * each test stays one file).
 */
#ifndef CROWN_TESTUTIL_H
#define CROWN_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

/* All diagnostics as one string, a line each, for assertions. */
static inline char *
tu_diags(const struct crown_diags *d)
{
	struct crown_buf	b = { 0 };
	size_t			i;
	char			*s;

	crown_buf_puts(&b, "");
	for (i = 0; i < d->n; i++) {
		s = crown_diag_format(&d->v[i]);
		crown_buf_printf(&b, "%s\n", s);
		free(s);
	}
	return b.data;
}

/* Assert that some diagnostic line contains `want`. */
#define assert_diag(d, want) do {					\
	char *all_ = tu_diags(d);					\
	if (strstr(all_, (want)) == NULL) {				\
		print_error("no diagnostic contains \"%s\"; got:\n%s",	\
		    (want), all_);					\
		free(all_);						\
		fail();							\
	}								\
	free(all_);							\
} while (0)

#define assert_no_diags(d) do {						\
	if ((d)->n != 0) {						\
		char *all_ = tu_diags(d);				\
		print_error("unexpected diagnostics:\n%s", all_);	\
		free(all_);						\
		fail();							\
	}								\
} while (0)

static inline char *
tu_slurp(const char *path)
{
	FILE	*fp = fopen(path, "rb");
	struct crown_buf b = { 0 };
	char	 chunk[4096];
	size_t	 n;

	if (fp == NULL)
		return NULL;
	crown_buf_puts(&b, "");
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		crown_buf_add(&b, chunk, n);
	fclose(fp);
	return b.data;
}

/* The standard output of a shell command (tests only; the caller
 * frees). */
static inline char *
tu_sh(const char *fmt, ...)
{
	struct crown_buf	 b = { 0 };
	va_list			 ap;
	char			*cmd, chunk[512];
	FILE			*fp;
	size_t			 n;

	va_start(ap, fmt);
	cmd = xvasprintf(fmt, ap);
	va_end(ap);
	crown_buf_puts(&b, "");
	fflush(stdout);
	if ((fp = popen(cmd, "r")) != NULL) {
		while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
			crown_buf_add(&b, chunk, n);
		pclose(fp);
	}
	free(cmd);
	return b.data;
}

/* The pid of a process that has ended (and been reaped). */
static inline long
tu_dead_pid(void)
{
	pid_t	pid;
	int	st;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0)
		_exit(0);
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return (long)pid;
}


/*
 * A test file's scratch directory, /tmp/crown-NAME-XXXXXX, as `base':
 * made by setup before each test, removed by teardown after it (a
 * cmocka_unit_test_setup_teardown pair).  The file includes
 * crown/campaign.h, for crown_campaign_remove_tree.
 */
#define TU_SCRATCH(name)						\
static char	base[] = "/tmp/crown-" name "-XXXXXX";			\
static int								\
setup(void **state)							\
{									\
	(void)state;							\
	memcpy(base, "/tmp/crown-" name "-XXXXXX", sizeof(base));	\
	return mkdtemp(base) == NULL ? -1 : 0;				\
}									\
static int								\
teardown(void **state)							\
{									\
	(void)state;							\
	crown_campaign_remove_tree(base, false);			\
	return 0;							\
}

#endif
