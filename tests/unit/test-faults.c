/*
 * test-faults.c: fault injection (issue 11).
 *
 * Allocation: xmalloc and friends end the program with "crown: out of
 * memory" and status 1 when an allocation fails (xalloc.c).  For every
 * allocation index n of loading a state, orders, rules and a dice script
 * and of resolving a turn, a forked child makes the nth allocation fail:
 * it must exit 1 with exactly that message, never crash on a signal, and
 * (under the sanitizers) report no error or leak.  n runs from 1 until the
 * operation completes.
 *
 * Interruption: the whole `crown resolve` command fails at allocations
 * all through it; its output directory must then hold nothing at all, not
 * a file half written nor a temporary left behind, and the state it read
 * is untouched.
 *
 * Writing: a directory that cannot be made (its parent is a file, or in
 * /proc), a full disk (a file over RLIMIT_FSIZE; /dev/full) all give exit
 * 73 and leave nothing behind.  The tests run as root, for whom chmod does
 * not make a directory unwritable, so these are the honest ways.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "crown/cmd.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/orders.h"
#include "crown/report.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define OOM_MESSAGE	"crown: out of memory\n"
#define MAX_INDEX	2000000UL

/*
 * A fork under AddressSanitizer costs tens of milliseconds (its shadow
 * memory, and LeakSanitizer's check at every child's exit), so there the
 * long runs fail every STEP-th allocation (and each of the last 64); the
 * normal build fails every one.
 */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED	1
#endif
#endif
#ifdef SANITIZED
#define STEP(n)		(n)
#define COMMAND_SAMPLES	100
#else
#define STEP(n)		1
#define COMMAND_SAMPLES	500
#endif

static struct crown_state *small;
static struct crown_rules *rules;
static char *state_text;

static int
setup(void **state)
{
	struct crown_diags	d = { 0 };

	if (crown_state_load(&small, "tests/data/state-small.yaml", &d) != 0 ||
	    crown_rules_load(&rules, "rules/maximilian.yaml", &d) != 0) {
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
		return -1;
	}
	state_text = tu_slurp("tests/data/state-small.yaml");
	return state_text == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	crown_state_free(small);
	crown_rules_free(rules);
	free(state_text);
	return 0;
}

/* Everything a child wrote to fd, NUL-terminated. */
static char *
drain(int fd)
{
	struct crown_buf	b = { 0 };
	char			chunk[4096];
	ssize_t			n;

	crown_buf_puts(&b, "");
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0)
			break;
		crown_buf_add(&b, chunk, (size_t)n);
	}
	return b.data;
}

/*
 * Run op(arg) in a child whose nth allocation from the start of op fails
 * (n 0: none).  Returns 0 when op ran to its end, 1 when it stopped as it
 * must: exit status 1 and exactly OOM_MESSAGE on stderr.  Anything else
 * fails the test.
 */
static int
fail_at(void (*op)(void *), void *arg, unsigned long n, const char *what)
{
	pid_t	 pid;
	int	 fds[2], status, devnull;
	char	*err;

	assert_int_equal(pipe(fds), 0);
	/* no buffered output of the parent may come out twice */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		crown_alloc_fail_at(n);
		op(arg);
		crown_alloc_fail_at(0);
		exit(0);
	}
	close(fds[1]);
	err = drain(fds[0]);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status)) {
		print_error("%s: allocation %lu: killed by signal %d\n%s\n",
		    what, n, WTERMSIG(status), err);
		free(err);
		fail();
	}
	if (WEXITSTATUS(status) == 0 && err[0] == '\0') {
		free(err);
		return 0;
	}
	if (WEXITSTATUS(status) != 1 || strcmp(err, OOM_MESSAGE) != 0) {
		print_error("%s: allocation %lu: exit %d, stderr:\n%s\n", what,
		    n, WEXITSTATUS(status), err);
		free(err);
		fail();
	}
	free(err);
	return 1;
}

/*
 * Fail every allocation of op in turn (every step-th, and each of the
 * last ones), until op completes.  Returns how many allocations op makes.
 */
static unsigned long
fail_each(void (*op)(void *), void *arg, unsigned long step,
    const char *what)
{
	unsigned long	n, total;

	/* first count them, in-process, with nothing failing */
	total = crown_alloc_count();
	op(arg);
	total = crown_alloc_count() - total;
	assert_true(total > 0);
	for (n = 1; n <= total + 1 && n < MAX_INDEX; n++) {
		/* with a step, still every one of the last 64 (writing) */
		if (step > 1 && n % step != 1 && n + 64 < total)
			continue;
		if (fail_at(op, arg, n, what) == 0)
			break;
	}
	/* it completed exactly when no allocation was left to fail */
	assert_int_equal(n, total + 1);
	print_message("    %s: %lu allocations, %s failed in turn\n", what,
	    total, step > 1 ? "a sample" : "each");
	return total;
}

static void
op_load_state(void *arg)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;

	if (crown_state_load(&s, "tests/data/state-small.yaml", &d) != 0)
		abort();
	crown_state_free(s);
	crown_diags_release(&d);
}

/* A state full of problems reports them all: those paths allocate too. */
static void
op_load_bad_state(void *arg)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;

	if (crown_state_load(&s, "tests/data/state-bad.yaml", &d) !=
	    CROWN_EINVALID || d.n == 0)
		abort();
	crown_diags_release(&d);
}

static void
op_load_orders(void *arg)
{
	const char		*path = arg;
	struct crown_diags	 d = { 0 };
	struct crown_orders	*o = NULL;

	(void)crown_orders_load(&o, path, &d);
	if (o == NULL)
		abort();
	(void)crown_orders_validate_set(&o, 1, small, rules, &d);
	crown_orders_free(o);
	crown_diags_release(&d);
}

static void
op_load_rules(void *arg)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r = NULL;

	if (crown_rules_load(&r, "rules/maximilian.yaml", &d) != 0)
		abort();
	crown_rules_free(r);
	crown_diags_release(&d);
}

static void
op_load_dice(void *arg)
{
	static const char	 script[] = "1 2 3, 4 # five\n6\n0\nx\n";
	struct crown_diags	 d = { 0 };
	struct crown_dice	*dice = NULL;

	(void)crown_dice_script_parse(&dice, "dice.txt", script,
	    sizeof(script) - 1, &d);
	(void)crown_dice_script_parse(&dice, "dice.txt", script,
	    sizeof(script) - 5, &d);
	crown_dice_free(dice);
	crown_diags_release(&d);
}

static void
test_alloc_loading(void **state)
{
	unsigned long	n;

	n = fail_each(op_load_state, NULL, 1, "loading a state");
	assert_true(n > 50);
	fail_each(op_load_bad_state, NULL, 1, "loading a bad state");
	fail_each(op_load_orders, "tests/data/orders-french-ok.yaml", 1,
	    "loading orders");
	fail_each(op_load_orders, "tests/data/orders-bad.yaml", 1,
	    "loading bad orders");
	fail_each(op_load_dice, NULL, 1, "loading a dice script");
}

static void
test_alloc_rules(void **state)
{
	/* the YAML tree takes its nodes from an arena: few allocations,
	 * so every one of them is failed */
	assert_true(fail_each(op_load_rules, NULL, 1, "loading rules") >
	    40);
}

/* Resolving a turn, from loaded inputs to the new state and the events
 * written in memory. */
struct turn {
	struct crown_orders	*orders[2];
	const char		*script;
};

static void
op_resolve(void *arg)
{
	struct turn		*t = arg;
	struct crown_diags	 d = { 0 };
	struct crown_state	*s;
	struct crown_dice	*dice = NULL;
	struct crown_events	 ev = { 0 };
	struct crown_buf	 a = { 0 }, b = { 0 };

	s = crown_state_clone(small);
	if (crown_dice_script_parse(&dice, "dice", t->script,
	    strlen(t->script), &d) != 0 ||
	    crown_resolve(s, t->orders, 2, rules, dice, &ev, &d) != 0 ||
	    crown_state_emit(&a, s) != 0 || crown_events_emit(&b, &ev) != 0)
		abort();
	crown_buf_release(&a);
	crown_buf_release(&b);
	crown_events_release(&ev);
	crown_dice_free(dice);
	crown_state_free(s);
	crown_diags_release(&d);
}

static void
test_alloc_resolving(void **state)
{
	struct crown_diags	d = { 0 };
	struct turn		t = { { NULL, NULL }, "" };

	assert_int_equal(crown_orders_load(&t.orders[0],
	    "tests/data/orders-french-ok.yaml", &d), 0);
	assert_int_equal(crown_orders_load(&t.orders[1],
	    "tests/data/orders-republic-ok.yaml", &d), 0);
	assert_int_equal(crown_orders_validate_set(t.orders, 2, small, rules,
	    &d), 0);
	assert_true(fail_each(op_resolve, &t, 1, "resolving a turn") > 20);
	crown_orders_free(t.orders[0]);
	crown_orders_free(t.orders[1]);
	crown_diags_release(&d);
}

/* The command: out/ holds every output or nothing. */

/* Names in dir (not . and ..), sorted, one a line; "" if none or absent. */
static char *
listing(const char *dir)
{
	struct crown_buf	  b = { 0 };
	struct dirent		**v;
	int			  n, i;

	crown_buf_puts(&b, "");
	n = scandir(dir, &v, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") != 0 &&
		    strcmp(v[i]->d_name, "..") != 0)
			crown_buf_printf(&b, "%s\n", v[i]->d_name);
		free(v[i]);
	}
	if (n >= 0)
		free(v);
	return b.data;
}

static void
rm_dir(const char *dir)
{
	struct dirent	**v;
	char		 *p;
	int		  n, i;

	n = scandir(dir, &v, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") != 0 &&
		    strcmp(v[i]->d_name, "..") != 0) {
			p = xasprintf("%s/%s", dir, v[i]->d_name);
			unlink(p);
			free(p);
		}
		free(v[i]);
	}
	if (n >= 0)
		free(v);
	rmdir(dir);
}

struct command {
	char	*out;
	int	 status;
};

static void
op_command(void *arg)
{
	struct command	*c = arg;
	char		*argv[] = {
		"resolve", "--state", "tests/data/state-small.yaml",
		"--orders", "tests/data/orders-french-ok.yaml",
		"--orders", "tests/data/orders-republic-ok.yaml",
		"--dice-script", "tests/data/dice-empty.txt",
		"--rules", "rules/maximilian.yaml", "--templates", "templates",
		"--out", c->out, NULL
	};

	c->status = crown_cmd_run(&crown_cmd_resolve,
	    (int)CROWN_NELEM(argv) - 1, argv);
	/* the command's own exit: a child stops here */
	if (c->status != 0) {
		fflush(stdout);
		exit(c->status);
	}
}

static void
test_alloc_command(void **state)
{
	struct command	 c;
	char		 tmp[] = "/tmp/crown-faults-XXXXXX";
	char		*all, *now, *before;
	unsigned long	 n, total, step;

	assert_non_null(mkdtemp(tmp));
	c.out = xasprintf("%s/out", tmp);
	/* the outputs of a whole turn */
	total = crown_alloc_count();
	op_command(&c);
	total = crown_alloc_count() - total;
	assert_int_equal(c.status, 0);
	all = listing(c.out);
	assert_non_null(strstr(all, "events.yaml\n"));
	assert_non_null(strstr(all, "state.yaml\n"));
	/* a fault at a sample of the allocations (COMMAND_SAMPLES of them)
	 * and at each of the last ones, around writing: out/ is empty or
	 * absent, and nothing else is written */
	step = total / COMMAND_SAMPLES + 1;
	for (n = 1; n <= total + 1; n++) {
		if (n % step != 1 && n + 64 < total)
			continue;
		rm_dir(c.out);
		if (fail_at(op_command, &c, n, "crown resolve") == 0)
			break;
		now = listing(c.out);
		if (now[0] != '\0') {
			print_error("crown resolve, allocation %lu of %lu: "
			    "out/ holds:\n%s", n, total, now);
			free(now);
			fail();
		}
		free(now);
		now = listing(tmp);
		assert_true(strcmp(now, "") == 0 || strcmp(now, "out\n") == 0);
		free(now);
	}
	assert_int_equal(n, total + 1);
	print_message("    crown resolve: %lu allocations, one in %lu and "
	    "the last 64 failed in turn\n", total, step);
	now = listing(c.out);
	assert_string_equal(now, all);
	free(now);
	/* the state read is as it was */
	before = tu_slurp("tests/data/state-small.yaml");
	assert_string_equal(before, state_text);
	free(before);
	free(all);
	rm_dir(c.out);
	rmdir(tmp);
	free(c.out);
}

/* Writing: exit 73, and nothing half-written. */

/* Run the binary; its exit status (128 + signal when killed), stderr in
 * *err.  fsize > 0: under that RLIMIT_FSIZE, SIGXFSZ ignored.  dev_full:
 * before exec, make "out/.state.yaml.tmp.PID" lead to /dev/full. */
static int
run_crown(char *const *args, char **err, rlim_t fsize, const char *full_dir)
{
	const char	*bin = getenv("CROWN_BIN");
	char		*argv[24], *link;
	pid_t		 pid;
	int		 fds[2], status, i, devnull;
	struct rlimit	 rl;

	if (bin == NULL)
		bin = "build/crown";
	argv[0] = (char *)bin;
	for (i = 0; args[i] != NULL && i < 22; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	assert_int_equal(pipe(fds), 0);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		if (fsize > 0) {
			signal(SIGXFSZ, SIG_IGN);
			rl.rlim_cur = rl.rlim_max = fsize;
			setrlimit(RLIMIT_FSIZE, &rl);
		}
		if (full_dir != NULL) {
			/* exec keeps the pid, so this is the name crown
			 * will write its new state to */
			link = xasprintf("%s/.state.yaml.tmp.%ld", full_dir,
			    (long)getpid());
			if (symlink("/dev/full", link) != 0)
				_exit(126);
			free(link);
		}
		execv(bin, argv);
		_exit(127);
	}
	close(fds[1]);
	*err = drain(fds[0]);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

#define RESOLVE_ARGS(out)						\
	"resolve", "--state", "tests/data/state-small.yaml",		\
	"--orders", "tests/data/orders-french-ok.yaml",			\
	"--orders", "tests/data/orders-republic-ok.yaml",		\
	"--dice-script", "tests/data/dice-empty.txt", "--out", (out)

static void
test_unwritable(void **state)
{
	char	 tmp[] = "/tmp/crown-faults-XXXXXX";
	char	*file, *out, *err, *all;
	int	 fd;

	assert_non_null(mkdtemp(tmp));
	/* a directory under a regular file: ENOTDIR, even for root */
	file = xasprintf("%s/file", tmp);
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	out = xasprintf("%s/out", file);
	assert_int_equal(run_crown((char *[]){ RESOLVE_ARGS(out), NULL },
	    &err, 0, NULL), 73);
	assert_non_null(strstr(err, ": error: cannot create directory: Not a "
	    "directory"));
	free(err);
	free(out);
	all = listing(tmp);
	assert_string_equal(all, "file\n");
	free(all);
	/* --out that is a file */
	assert_int_equal(run_crown((char *[]){ RESOLVE_ARGS(file), NULL },
	    &err, 0, NULL), 73);
	free(err);
	/* /proc takes no new directories, even from root */
	assert_int_equal(run_crown((char *[]){
	    RESOLVE_ARGS("/proc/crown-test/out"), NULL }, &err, 0, NULL), 73);
	assert_non_null(strstr(err, "/proc/crown-test: error: cannot create "
	    "directory"));
	free(err);
	assert_int_equal(access("/proc/crown-test", F_OK), -1);
	unlink(file);
	free(file);
	rmdir(tmp);
}

static void
test_disk_full(void **state)
{
	char		 tmp[] = "/tmp/crown-faults-XXXXXX";
	char		*out, *err, *all;
	struct stat	 st;

	assert_non_null(mkdtemp(tmp));
	out = xasprintf("%s/out", tmp);
	/* a disk that fills after 1000 bytes: the first file larger than
	 * that is cut short (EFBIG), and nothing at all is left */
	assert_int_equal(run_crown((char *[]){ RESOLVE_ARGS(out), NULL },
	    &err, 1000, NULL), 73);
	assert_non_null(strstr(err, "error: cannot write: File too large"));
	free(err);
	all = listing(out);
	assert_string_equal(all, "");
	free(all);
	/* /dev/full: the last file, the new state, cannot be written
	 * (ENOSPC) after every other was: none may stay */
	assert_int_equal(mkdir(out, 0755) == 0 || errno == EEXIST, 1);
	assert_int_equal(run_crown((char *[]){ RESOLVE_ARGS(out), NULL },
	    &err, 0, out), 73);
	assert_non_null(strstr(err, "/state.yaml: error: cannot write: No "
	    "space left on device"));
	free(err);
	all = listing(out);
	assert_string_equal(all, "");
	free(all);
	/* and with room, the same command writes everything */
	assert_int_equal(run_crown((char *[]){ RESOLVE_ARGS(out), NULL },
	    &err, 0, NULL), 0);
	assert_string_equal(err, "");
	free(err);
	all = listing(out);
	assert_non_null(strstr(all, "events.yaml\n"));
	assert_non_null(strstr(all, "state.yaml\n"));
	assert_null(strstr(all, ".tmp"));
	free(all);
	assert_int_equal(stat(out, &st), 0);
	rm_dir(out);
	free(out);
	rmdir(tmp);
}

/* dir's listing is list, and its file name holds want. */
static void
assert_written(const char *dir, const char *list, const char *name,
    const char *want)
{
	char	*p, *got;

	got = listing(dir);
	assert_string_equal(got, list);
	free(got);
	p = xasprintf("%s/%s", dir, name);
	got = tu_slurp(p);
	assert_string_equal(got, want);
	free(got);
	free(p);
}

/* crown_write_outputs directly: a failure after some files leaves none. */
static void
test_write_all_or_none(void **state)
{
	struct crown_diags	d = { 0 };
	struct crown_output	v[3];
	struct crown_outputs	files = { v, 3, 3 };
	char			tmp[] = "/tmp/crown-faults-XXXXXX";
	char			*p, *all;
	int			i;

	assert_non_null(mkdtemp(tmp));
	for (i = 0; i < 3; i++) {
		v[i].name = xasprintf("f%d", i);
		memset(&v[i].data, 0, sizeof(v[i].data));
		crown_buf_printf(&v[i].data, "file %d\n", i);
	}
	/* the third cannot be renamed into place: a directory is there */
	p = xasprintf("%s/f2", tmp);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(crown_write_outputs(tmp, &files, &d), CROWN_EWRITE);
	assert_diag(&d, "/f2: error: cannot write: Is a directory");
	crown_diags_release(&d);
	all = listing(tmp);
	assert_string_equal(all, "f2\n");
	free(all);
	rmdir(p);
	free(p);
	assert_int_equal(crown_write_outputs(tmp, &files, &d), 0);
	assert_written(tmp, "f0\nf1\nf2\n", "f1", "file 1\n");
	for (i = 0; i < 3; i++) {
		free(v[i].name);
		crown_buf_release(&v[i].data);
	}
	rm_dir(tmp);
}

/* crown_outputs_take: the file holds the buffer's bytes, the buffer is
 * left empty (and usable), and an empty buffer makes an empty file. */
static void
test_outputs_take(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_outputs	 files = { 0 };
	struct crown_buf	 b = { 0 }, none = { 0 };
	char			 tmp[] = "/tmp/crown-faults-XXXXXX";
	const char		*was;

	assert_non_null(mkdtemp(tmp));
	crown_buf_puts(&b, "first: 1\n");
	was = b.data;
	crown_outputs_take(&files, "a.yaml", &b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_ptr_equal(files.v[0].data.data, was);
	crown_buf_puts(&b, "second\n");
	crown_outputs_take(&files, "b.yaml", &b);
	crown_outputs_take(&files, "c.yaml", &none);
	assert_int_equal(files.n, 3);
	assert_int_equal(crown_write_outputs(tmp, &files, &d), 0);
	assert_written(tmp, "a.yaml\nb.yaml\nc.yaml\n", "a.yaml",
	    "first: 1\n");
	assert_written(tmp, "a.yaml\nb.yaml\nc.yaml\n", "c.yaml", "");
	crown_outputs_release(&files);
	rm_dir(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc_loading),
		cmocka_unit_test(test_alloc_rules),
		cmocka_unit_test(test_alloc_resolving),
		cmocka_unit_test(test_alloc_command),
		cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_disk_full),
		cmocka_unit_test(test_write_all_or_none),
		cmocka_unit_test(test_outputs_take),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
