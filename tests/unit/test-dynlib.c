/*
 * test-dynlib.c: libraries loaded when first called (crown/dynlib.h).
 * This test is linked with libgit2, GMime and GPGME, as every test is, so
 * what crown finds can be held against what the link found.  That crown
 * itself loads them only when called is test-cli's `libraries`.
 */
#define _GNU_SOURCE		/* dlinfo */
#include <sys/wait.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <git2.h>
#include <gmime/gmime.h>
#include <gpgme.h>

#include "testutil.h"

#include "crown/dynlib.h"

/* The C library, which every process has loaded. */
static struct crown_dl	libc_dl = { "the C library", "libc.so.6", NULL,
			    { { 0 } } };

/* The file lib was opened from names want: the library, not the program
 * (which dlopen of an empty name would give, and whose symbols this test,
 * linked with the libraries, would find all the same). */
static void
assert_opened(const struct crown_dl *lib, const char *want)
{
	struct link_map	*lm;

	assert_true(crown_dl_loaded(lib));
	assert_int_equal(dlinfo(lib->handle, RTLD_DI_LINKMAP, &lm), 0);
	if (strstr(lm->l_name, want) == NULL) {
		print_error("%s opened from '%s', not %s\n", lib->what,
		    lm->l_name, want);
		fail();
	}
}

/* What crown finds is what the link found, for a function and for a
 * variable, and the library counts as loaded after, opened from its own
 * file. */
static void
test_same_as_linked(void **state)
{
	(void)state;
	assert_true(crown_dl_fn_of(&crown_dl_git2, "git_libgit2_init") ==
	    (crown_dl_fn)git_libgit2_init);
	assert_true(crown_dl_loaded(&crown_dl_git2));
	assert_true(crown_dl_fn_of(&crown_dl_gmime, "g_mime_init") ==
	    (crown_dl_fn)g_mime_init);
	/* GLib, through GMime */
	assert_true(crown_dl_fn_of(&crown_dl_gmime, "g_free") ==
	    (crown_dl_fn)g_free);
	assert_ptr_equal(crown_dl_var_of(&crown_dl_gmime, "g_utf8_skip"),
	    (const void *)&g_utf8_skip);
	assert_true(crown_dl_fn_of(&crown_dl_gpgme, "gpgme_new") ==
	    (crown_dl_fn)gpgme_new);
	assert_opened(&crown_dl_git2, "/libgit2.so.");
	assert_opened(&crown_dl_gmime, "/libgmime-3.0.so.");
	assert_opened(&crown_dl_gpgme, "/libgpgme.so.");
}

/* The macro a file's list of calls uses: a call, and a function passed
 * as a value. */
#define abs_dl		CROWN_DL(libc_dl, abs)
#define qsort_dl	CROWN_DL(libc_dl, qsort)

static int
cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void
test_macro(void **state)
{
	int	v[] = { 3, -7, 1 };
	int	(*f)(int) = abs_dl;

	(void)state;
	assert_int_equal(abs_dl(-5), 5);
	assert_true(f == abs);
	qsort_dl(v, 3, sizeof(*v), cmp_int);
	assert_int_equal(v[0], -7);
	assert_int_equal(v[2], 3);
}

/*
 * A name is remembered by its address, in one of 256 slots: 600 names at
 * 600 addresses, six functions among them, share slots, and each finds
 * its own function the first time and every time after.
 */
static void
test_slots(void **state)
{
	static const char *const fn[] = {
		"atoi", "abs", "getenv", "qsort", "strtol", "labs"
	};
	crown_dl_fn	 want[6];
	static char	 names[600][8];
	int		 round;
	size_t		 i;

	(void)state;
	want[0] = (crown_dl_fn)atoi;
	want[1] = (crown_dl_fn)abs;
	want[2] = (crown_dl_fn)getenv;
	want[3] = (crown_dl_fn)qsort;
	want[4] = (crown_dl_fn)strtol;
	want[5] = (crown_dl_fn)labs;
	for (i = 0; i < 600; i++)
		strcpy(names[i], fn[i % 6]);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 600; i++)
			assert_true(crown_dl_fn_of(&libc_dl, names[i]) ==
			    want[i % 6]);
}

/* Run f in a child whose standard error goes to a file; its exit status,
 * and what it said in *said. */
static int
in_child(void (*f)(void), char **said)
{
	char	 path[] = "/tmp/crown-dynlib-XXXXXX";
	int	 fd, status;
	pid_t	 pid;

	assert_true((fd = mkstemp(path)) >= 0);
	fflush(NULL);
	if ((pid = fork()) == 0) {
		dup2(fd, 2);
		f();
		_exit(99);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(fd);
	*said = tu_slurp(path);
	unlink(path);
	assert_non_null(*said);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
load_missing(void)
{
	static struct crown_dl	none = { "libnothing",
				    "libcrown-nothing.so.0", NULL, { { 0 } } };

	(void)crown_dl_fn_of(&none, "nothing_init");
}

static void
call_missing(void)
{
	(void)crown_dl_fn_of(&libc_dl, "crown_no_such_function");
}

/* A library that is not there, or lacks a function, is said and exits 1,
 * as running out of memory does. */
static void
test_missing(void **state)
{
	char	*said;

	(void)state;
	assert_int_equal(in_child(load_missing, &said), CROWN_EXIT_INTERNAL);
	assert_non_null(strstr(said, "crown: cannot load libnothing, which "
	    "this command needs: libcrown-nothing.so.0: cannot open shared "
	    "object file"));
	free(said);
	assert_int_equal(in_child(call_missing, &said), CROWN_EXIT_INTERNAL);
	assert_non_null(strstr(said, "crown: the C library (libc.so.6) has "
	    "no crown_no_such_function: "));
	free(said);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_linked),
		cmocka_unit_test(test_macro),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
