/*
 * test-lock.c: the campaign's lock and the writing commands' care of
 * the campaign's files, on campaigns made under mkdtemp directories.
 *
 * One holder: many processes take the lock at once, over and over, some
 * dying while they hold it, with the lock's system calls slowed so that
 * any window between them is wide; every holder finds no other, and a
 * counter each one adds to under the lock loses no addition.
 *
 * This program defines rename(), link() and flock() over the C
 * library's, and so over libgit2's calls too: slowed, when `widen` is
 * set, for the lock's files.
 */
#define _GNU_SOURCE
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/xalloc.h"

static char	base[] = "/tmp/crown-lock-XXXXXX";

/* The seams: the lock's calls slowed by WIDEN microseconds either side. */
#define WIDEN	1500
static bool	widen;

static void
pause_if(const char *p)
{
	if (widen && (p == NULL || strstr(p, "crown.lock") != NULL))
		usleep(WIDEN);
}

int
rename(const char *from, const char *to)
{
	static int	(*real)(const char *, const char *);
	int		 rc;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	pause_if(from);
	rc = real(from, to);
	pause_if(from);
	return rc;
}

int
link(const char *from, const char *to)
{
	static int	(*real)(const char *, const char *);
	int		 rc;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "link");
	pause_if(to);
	rc = real(from, to);
	pause_if(to);
	return rc;
}

int
flock(int fd, int op)
{
	static int	(*real)(int, int);
	int		 rc;

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "flock");
	pause_if(NULL);
	rc = real(fd, op);
	pause_if(NULL);
	return rc;
}

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

/* Exit statuses of a contender. */
#define HELD		0	/* held the lock and added one */
#define TWO_HOLDERS	10	/* found another holder */
#define STARVED		11	/* never got the lock */
#define BROKEN		12	/* another error */

/*
 * One run: take the lock of the repository at dir, check that no one
 * else holds it (a file only a holder makes), add one to the counter,
 * and release it, or die holding it when `die`.
 */
static int
contend(const char *dir, bool die)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	char			*mark = path("holder"), *count = path("count");
	char			 buf[32];
	ssize_t			 n;
	long			 v;
	int			 fd, tries, error;

	for (tries = 0; ; tries++) {
		error = crown_history_open(&h, dir, true, &d);
		crown_diags_release(&d);
		if (error == 0)
			break;
		if (error != CROWN_ELOCKED)
			return BROKEN;
		if (tries == 20000)
			return STARVED;
		usleep(200);
	}
	if ((fd = open(mark, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
		return errno == EEXIST ? TWO_HOLDERS : BROKEN;
	close(fd);
	/* read, wait, write: two holders at once lose an addition */
	if ((fd = open(count, O_RDWR)) < 0)
		return BROKEN;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	v = strtol(buf, NULL, 10);
	usleep(300);
	n = snprintf(buf, sizeof(buf), "%ld\n", v + 1);
	if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		return BROKEN;
	close(fd);
	if (unlink(mark) != 0)
		return BROKEN;
	if (die)
		_exit(HELD);	/* killed holding it: no release */
	crown_history_close(h);
	free(mark);
	free(count);
	return HELD;
}

#define CONTENDERS	8
#define ROUNDS		25

static void
test_one_holder(void **state)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	char			*dir = path("c"), *count = path("count");
	char			*text;
	pid_t			 pid[CONTENDERS], run;
	int			 i, k, st, bad = 0;
	FILE			*fp;

	(void)state;
	assert_int_equal(crown_history_create(&h, dir, &d), 0);
	crown_history_close(h);
	assert_non_null(fp = fopen(count, "w"));
	fputs("0\n", fp);
	fclose(fp);
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < CONTENDERS; i++) {
		if ((pid[i] = fork()) != 0)
			continue;
		widen = true;
		/* each round a process of its own, every third one dies
		 * holding the lock; reaped at once, so that it is gone */
		for (k = 0; k < ROUNDS; k++) {
			if ((run = fork()) == 0)
				_exit(contend(dir, (i + k) % 3 == 0));
			if (run < 0 || waitpid(run, &st, 0) != run ||
			    !WIFEXITED(st))
				_exit(BROKEN);
			if (WEXITSTATUS(st) != HELD)
				_exit(WEXITSTATUS(st));
		}
		_exit(HELD);
	}
	for (i = 0; i < CONTENDERS; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st));
		if (WEXITSTATUS(st) != HELD) {
			print_error("contender %d: status %d\n", i,
			    WEXITSTATUS(st));
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	text = tu_slurp(count);
	assert_non_null(text);
	assert_int_equal(strtol(text, NULL, 10), CONTENDERS * ROUNDS);
	free(text);
	free(count);
	free(dir);
}

static int
setup(void **state)
{
	(void)state;
	memcpy(base, "/tmp/crown-lock-XXXXXX", sizeof(base));
	return mkdtemp(base) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	crown_campaign_remove_tree(base, false);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_holder, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
