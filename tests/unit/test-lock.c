/*
 * test-lock.c: the campaign's lock and the writing commands' care of
 * the campaign's files, on campaigns made under mkdtemp directories.
 *
 * One holder: many processes take the lock at once, over and over, some
 * dying while they hold it, with the lock's system calls slowed so that
 * any window between them is wide; every holder finds no other, and a
 * counter each one adds to under the lock loses no addition.  And crown
 * inbox, crown turn and two crown deadline at once, from a lock a dead
 * run left, again and again: every one ends well, and the orders inbox
 * accepted are in the turn played or pending for the next.
 *
 * Leftovers: the temporaries of runs killed while they wrote (a file
 * of the campaign's, the roster, a pending order, the lock of an older
 * crown, a page of a site) are removed by the next writing command, and
 * said; those of a live process stay, and so do files of other names.
 *
 * Links: a directory of the campaign crown writes into (orders/pending,
 * outbox, turns, a turn's) or a folder of a site's that is a symbolic
 * link is refused, exit 73 naming it, and nothing is written through it.
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
#include "crown/outputs.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define TMPL	"templates"

TU_SCRATCH("lock")

/* The seams: the lock's calls slowed by WIDEN microseconds either side. */
#ifndef WIDEN
#define WIDEN	1500
#endif
static bool	widen;

static void
pause_if(const char *p)
{
	if (widen && (p == NULL || strstr(p, "crown.lock") != NULL))
		usleep(WIDEN);
}

typedef int	(*path_call)(const char *, const char *);

/* The C library's call `name' of from and to, slowed when watched is
 * the lock's. */
static int
slowed(path_call *real, const char *name, const char *from, const char *to,
    const char *watched)
{
	int	rc;

	if (*real == NULL)
		*(void **)real = dlsym(RTLD_NEXT, name);
	pause_if(watched);
	rc = (*real)(from, to);
	pause_if(watched);
	return rc;
}

int
rename(const char *from, const char *to)
{
	static path_call	real;

	return slowed(&real, "rename", from, to, from);
}

int
link(const char *from, const char *to)
{
	static path_call	real;

	return slowed(&real, "link", from, to, to);
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
		if (tries == 5000)
			return STARVED;
		usleep(1000);
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

/* 8 x 25, where the lock renamed aside to take it over (before the
 * flock) let two runs hold it in every run of this test; -D for others */
#ifndef CONTENDERS
#define CONTENDERS	8
#endif
#ifndef ROUNDS
#define ROUNDS		25
#endif

static void
test_one_holder(void **state)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	char			*dir = path("c"), *count = path("count");
	char			*text;
	struct timespec		 t0, t1;
	pid_t			 pid[CONTENDERS], run;
	int			 i, k, st, bad = 0;
	FILE			*fp;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
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
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("    %d holds by %d processes, one at a time: %ld ms\n",
	    CONTENDERS * ROUNDS, CONTENDERS, (long)((t1.tv_sec - t0.tv_sec) *
	    1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000));
	free(count);
	free(dir);
}

/* The standard output of a shell command (tests only). */
static char *
sh(const char *cmd)
{
	struct crown_buf	 b = { 0 };
	char			 chunk[512];
	size_t			 n;
	FILE			*fp;

	crown_buf_puts(&b, "");
	assert_non_null(fp = popen(cmd, "r"));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		crown_buf_add(&b, chunk, n);
	pclose(fp);
	return b.data;
}

/* In a child: cmd with args until it is not refused for the lock; its
 * standard output in at.out; the child's status is the command's. */
static pid_t
contender(const char *at, const struct crown_cmd *cmd,
    const char *const *args)
{
	struct run	r;
	pid_t		pid;
	char		*out;
	FILE		*fp;
	int		 tries;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) != 0)
		return pid;
	widen = true;
	for (tries = 0; tries < 2000; tries++) {
		tu_run_at(&r, at, cmd, args);
		if (r.status != 75)
			break;
		run_release(&r);
		usleep(1000);
	}
	out = xasprintf("%s.log", at);
	if ((fp = fopen(out, "w")) != NULL) {
		fputs(r.out != NULL ? r.out : "", fp);
		fputs(r.err != NULL ? r.err : "", fp);
		fclose(fp);
	}
	_exit(r.status);
}

#define RACES	5

/*
 * crown inbox and crown turn at once, with two deadline commands, from a
 * lock a dead run left: the orders inbox accepts are played by that turn
 * or pending for the next, never lost.
 */
static void
test_no_order_lost(void **state)
{
	char		*dir = path("c"), *lock, *mail, *at[4], *cmd, *text;
	char		 id[64], host[256], now[32];
	time_t		 later;
	pid_t		 pid[4];
	int		 k, i, st, turn;
	FILE		*fp;

	(void)state;
	EXPECT(0, crown_cmd_new, dir, "--scenario",
	    "tests/data/scenario-small.yaml", "--rules",
	    "rules/maximilian.yaml", "--secret-file", DATA "/secret.hex",
	    "--templates", TMPL, "--date", "2026-03-01T10:00:00+01:00");
	lock = xasprintf("%s/.git/crown.lock", dir);
	for (k = 0; k < RACES; k++) {
		/* a dead run's lock, as an older crown wrote it too */
		assert_int_equal(gethostname(host, sizeof(host)), 0);
		host[sizeof(host) - 1] = '\0';
		assert_non_null(fp = fopen(lock, "w"));
		fprintf(fp, "%ld %s\n", tu_dead_pid(), host);
		fclose(fp);
		cmd = xasprintf("mkdir -p '%s/m%d/new' '%s/m%d/cur' "
		    "'%s/m%d/tmp'", base, k, base, k, base, k);
		assert_int_equal(system(cmd), 0);
		free(cmd);
		/*
		 * delivered (by its name) and read an hour on: after the
		 * turn this race may play, whichever second that is in, so
		 * the mail is for the turn open when the inbox reads it
		 */
		later = time(NULL) + 3600;
		strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ",
		    gmtime(&later));
		mail = xasprintf("%s/m%d/new/%lld.M1P1.race", base, k,
		    (long long)later);
		assert_non_null(fp = fopen(mail, "w"));
		snprintf(id, sizeof(id), "race%d@example.org", k);
		fprintf(fp, "From: Jean Danjou <danjou@example.org>\n"
		    "To: Test Umpire <umpire@example.org>\nSubject: orders\n"
		    "Date: Sat, 05 Dec 2026 11:00:00 +0000\n"
		    "Message-ID: <%s>\nMIME-Version: 1.0\n"
		    "Content-Type: text/plain\n\n1-legion: hold\n", id);
		fclose(fp);
		free(mail);
		mail = xasprintf("%s/m%d", base, k);
		for (i = 0; i < 4; i++)
			at[i] = xasprintf("%s/r%d-%d", base, k, i);
		pid[0] = contender(at[0], &crown_cmd_inbox,
		    (const char *const []){ dir, mail, "--now", now, NULL });
		pid[1] = contender(at[1], &crown_cmd_turn,
		    (const char *const []){ dir, "--templates", TMPL,
		    "--allow-missing", NULL });
		for (i = 2; i < 4; i++)
			pid[i] = contender(at[i], &crown_cmd_deadline,
			    (const char *const []){ dir, "none", NULL });
		for (i = 0; i < 4; i++) {
			assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
			assert_true(WIFEXITED(st));
			if (WEXITSTATUS(st) != 0) {
				cmd = xasprintf("%s.log", at[i]);
				text = tu_slurp(cmd);
				print_error("race %d, run %d: status %d\n%s\n",
				    k, i, WEXITSTATUS(st), text);
				free(text);
				free(cmd);
			}
			assert_int_equal(WEXITSTATUS(st), 0);
		}
		cmd = xasprintf("%s.log", at[0]);
		text = tu_slurp(cmd);
		assert_has(text, "accepted: side french, turn ");
		free(text);
		free(cmd);
		/* in the turn just played, or pending for the next */
		cmd = xasprintf("git -C '%s' log -1 --format=%%s --grep='^Turn' "
		    "main | sed 's/^Turn \\([0-9]*\\):.*/\\1/'", dir);
		text = sh(cmd);
		free(cmd);
		turn = (int)strtol(text, NULL, 10);
		free(text);
		cmd = xasprintf("git -C '%s' cat-file -e "
		    "main:orders/turn-%03d/french.yaml 2>/dev/null || "
		    "[ -f '%s/orders/pending/french.yaml' ]", dir, turn, dir);
		if (system(cmd) != 0)
			print_error("race %d: the orders accepted are neither "
			    "in turn %d nor pending\n", k, turn);
		assert_int_equal(system(cmd), 0);
		free(cmd);
		/* what is pending is played before the next race */
		EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL,
		    "--allow-missing");
		for (i = 0; i < 4; i++)
			free(at[i]);
		free(mail);
	}
	free(lock);
	free(dir);
}

static bool
exists(const char *p)
{
	struct stat	st;

	return lstat(p, &st) == 0;
}

/* dir/name made, "name" in it; returns the path. */
static char *
put(const char *dir, const char *name)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*fp;

	assert_non_null(fp = fopen(p, "w"));
	fprintf(fp, "%s\n", name);
	fclose(fp);
	return p;
}

/* The leftovers named stem and a pid, of a dead run and of a live one
 * (this program's parent, as this one's may be a writer's own),
 * in directory `in` of dir: those of the dead run go in gone, the rest
 * in kept. */
struct leftovers {
	char	*gone[16];
	char	*kept[16];
	size_t	 ngone, nkept;
};

static void
leave(struct leftovers *l, const char *dir, const char *in, const char *stem,
    long dead, bool kept_too)
{
	struct crown_diags	 d = { 0 };
	char			*where, *name;

	where = strcmp(in, ".") == 0 ? xstrdup(dir) :
	    xasprintf("%s/%s", dir, in);
	assert_int_equal(crown_mkdirs(where, &d), 0);
	name = xasprintf("%s%ld", stem, dead);
	l->gone[l->ngone++] = put(where, name);
	free(name);
	if (kept_too) {
		name = xasprintf("%s%ld", stem, (long)getppid());
		l->kept[l->nkept++] = put(where, name);
		free(name);
	}
	free(where);
}

static void
check_leftovers(struct leftovers *l, const char *err)
{
	size_t	i;
	char	*said;

	for (i = 0; i < l->ngone; i++) {
		if (exists(l->gone[i]))
			print_error("%s: left\n", l->gone[i]);
		assert_false(exists(l->gone[i]));
		said = xasprintf("crown: removed %s, left by a killed run",
		    l->gone[i]);
		assert_has(err, said);
		free(said);
		free(l->gone[i]);
	}
	for (i = 0; i < l->nkept; i++) {
		if (!exists(l->kept[i]))
			print_error("%s: removed\n", l->kept[i]);
		assert_true(exists(l->kept[i]));
		free(l->kept[i]);
	}
	memset(l, 0, sizeof(*l));
}

static void
test_leftovers(void **state)
{
	struct leftovers l = { 0 };
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *stage;
	long		 dead = tu_dead_pid();

	(void)state;
	TU_CAMPAIGN(dir, "tests/data/scenario-small.yaml", false);
	leave(&l, dir, ".git", ".crown-roster.tmp.", dead, true);
	leave(&l, dir, ".git", ".crown-secret.tmp.", dead, false);
	leave(&l, dir, ".git", "crown.lock.", dead, true);
	leave(&l, dir, ".git", "crown.lock.dead.", dead, false);
	leave(&l, dir, ".git/crown-outbox/0123", ".1.mail.tmp.", dead,
	    false);
	leave(&l, dir, "orders/pending", ".legion.yaml.tmp.", dead, true);
	leave(&l, dir, ".", ".state.yaml.tmp.", dead, false);
	leave(&l, dir, "turns/turn-001", ".map.svg.tmp.", dead, true);
	/* not crown's temporaries: another name, or no pid */
	l.kept[l.nkept++] = put(dir, "orders/pending/legion.yaml.tmp.1");
	l.kept[l.nkept++] = put(dir, "orders/pending/.legion.yaml.tmp.");
	l.kept[l.nkept++] = put(dir, "orders/pending/.legion.yaml.tmp.1x");
	/* a reader leaves them */
	EXPECT(0, crown_cmd_log, dir);
	assert_true(exists(l.gone[0]));
	RUN(&r, crown_cmd_deadline, dir, "none", "--date", "2026-03-09");
	assert_int_equal(r.status, 0);
	check_leftovers(&l, r.err);
	run_release(&r);
	stage = xasprintf("%s/.git/crown-outbox/0123", dir);
	assert_false(exists(stage));
	free(stage);

	/* a site's, in OUT and its folders */
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	leave(&l, out, ".", ".turn-002.html.tmp.", dead, true);
	leave(&l, out, "units", ".1-legion.html.tmp.", dead, false);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	check_leftovers(&l, r.err);
	run_release(&r);
	free(out);
	free(dir);
}

/* The number of entries under p, all the way down. */
static size_t
count_tree(const char *p)
{
	char	*cmd = xasprintf("find '%s' | wc -l", p), line[32] = "";
	FILE	*fp;

	assert_non_null(fp = popen(cmd, "r"));
	assert_non_null(fgets(line, sizeof(line), fp));
	pclose(fp);
	free(cmd);
	return (size_t)strtoul(line, NULL, 10);
}

/* Make dir/rel a link to a directory outside the campaign (rel moved
 * there when it exists), run a writing command, and check it is refused
 * and writes nothing there; then put rel back. */
static void
refuse_link(const char *dir, const char *rel, const char *in)
{
	struct run	 r;
	char		*p = xasprintf("%s/%s", dir, rel);
	char		*away = path("outside"), *cmd, *want;
	size_t		 before;
	int		 rc;

	cmd = xasprintf("rm -rf '%s' && mkdir -p '%s' && { [ ! -e '%s' ] || "
	    "mv '%s' '%s/x'; } && mkdir -p '%s/x' && ln -s '%s/x' '%s'",
	    away, away, p, p, away, away, away, p);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	before = count_tree(away);
	RUN(&r, crown_cmd_deadline, dir, "none", "--date", "2026-03-09");
	if (r.status != 73)
		print_error("%s: status %d\n%s", rel, r.status, r.err);
	assert_int_equal(r.status, 73);
	want = xasprintf("%s: error: a symbolic link; crown writes only "
	    "inside %s: replace it with a directory", p, in);
	assert_has(r.err, want);
	free(want);
	assert_true(strstr(r.err, "restoring") == NULL);
	run_release(&r);
	assert_int_equal(count_tree(away), before);
	cmd = xasprintf("rm '%s' && mv '%s/x' '%s'", p, away, p);
	rc = system(cmd);
	assert_int_equal(rc, 0);
	free(cmd);
	free(away);
	free(p);
}

static void
test_links(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *out = path("site"), *units, *cmd;
	char		*away = path("outside");
	size_t		 before;

	(void)state;
	TU_CAMPAIGN(dir, "tests/data/scenario-small.yaml", false);
	refuse_link(dir, "orders/pending", "the campaign");
	refuse_link(dir, "orders", "the campaign");
	refuse_link(dir, "outbox", "the campaign");
	refuse_link(dir, "outbox/new", "the campaign");
	refuse_link(dir, "turns", "the campaign");
	refuse_link(dir, "turns/turn-001", "the campaign");
	refuse_link(dir, "orders/turn-001", "the campaign");
	/* put back, the campaign is whole and writes again */
	EXPECT(0, crown_cmd_deadline, dir, "none", "--date", "2026-03-09");
	EXPECT(0, crown_cmd_verify, dir, "--templates", TMPL);

	/* a site's folder */
	EXPECT(0, crown_cmd_site, dir, out, "--templates", TMPL);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	units = xasprintf("%s/units", out);
	cmd = xasprintf("mkdir -p '%s' && mv '%s' '%s/units' && ln -s "
	    "'%s/units' '%s'", away, units, away, away, units);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	before = count_tree(away);
	RUN(&r, crown_cmd_site, dir, out, "--templates", TMPL);
	assert_int_equal(r.status, 73);
	cmd = xasprintf("%s: error: a symbolic link; crown writes only inside "
	    "%s: replace it with a directory", units, out);
	assert_has(r.err, cmd);
	free(cmd);
	run_release(&r);
	assert_int_equal(count_tree(away), before);
	free(units);
	free(away);
	free(out);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_holder, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_order_lost, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_leftovers, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_links, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
