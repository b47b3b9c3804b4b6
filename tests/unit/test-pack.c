/*
 * test-pack.c: the history's loose objects packed (pack.h) on campaigns
 * made under mkdtemp directories, run in-process, the threshold lowered:
 * a turn past it leaves no loose object, one below it leaves them; and a
 * packing killed at each of its steps loses nothing: git fsck --full and
 * crown verify pass, and the next packing finishes the job.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/pack.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define TMPL	"templates"

TU_SCRATCH("pack")

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

/* The loose objects of the campaign at dir. */
static size_t
loose(const char *dir)
{
	struct dirent	*e;
	DIR		*d;
	char		*p;
	size_t		 n = 0;
	int		 i;

	for (i = 0; i < 256; i++) {
		p = xasprintf("%s/.git/objects/%02x", dir, i);
		if ((d = opendir(p)) != NULL) {
			while ((e = readdir(d)) != NULL)
				n += strlen(e->d_name) == 38;
			closedir(d);
		}
		free(p);
	}
	return n;
}

/* git fsck --full and crown verify pass on the campaign at dir. */
static void
sound(const char *dir)
{
	struct run	 r;
	char		*cmd;

	cmd = xasprintf("git -C '%s' fsck --full >/dev/null 2>&1", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
}

static void
campaign(const char *dir)
{
	TU_CAMPAIGN(dir, "tests/data/scenario-small.yaml", false);
}

/* Pack the campaign at dir in-process, the threshold at one. */
static size_t
pack(const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	size_t			 n;

	crown_pack_threshold(1);
	assert_int_equal(crown_history_open(&h, dir, true, &d), 0);
	assert_int_equal(crown_pack_auto(&n, h, &d), 0);
	/* notes only: the lock of a packer killed before is taken over */
	assert_int_equal(crown_diags_errors(&d), 0);
	crown_diags_release(&d);
	crown_history_close(h);
	crown_pack_threshold(CROWN_PACK_LOOSE);
	return n;
}

/* A writing command past the threshold packs; below it, not. */
static void
test_pack_auto(void **state)
{
	char	*dir = path("c");
	size_t	 before;

	(void)state;
	campaign(dir);
	before = loose(dir);
	assert_true(before > 20);
	sound(dir);
	/* turn 2 passes a threshold of 20: everything is packed */
	crown_pack_threshold(20);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml",
	    "--templates", TMPL, "--date", "2026-03-15", "--allow-missing");
	crown_pack_threshold(CROWN_PACK_LOOSE);
	assert_int_equal(loose(dir), 0);
	sound(dir);
	/* nothing loose: nothing to pack */
	assert_int_equal(pack(dir), 0);
	free(dir);
}

/* Killed at each step of packing: nothing is lost, the next run packs. */
static void
test_pack_killed(void **state)
{
	struct crown_history	*h;
	struct crown_diags	 d = { 0 };
	char			*dir;
	pid_t			 pid;
	int			 step, status;

	(void)state;
	for (step = 1; step <= 3; step++) {
		dir = xasprintf("%s/k%d", base, step);
		campaign(dir);
		assert_true(loose(dir) > 20);
		fflush(NULL);
		if ((pid = fork()) == 0) {
			crown_pack_threshold(1);
			crown_pack_kill_at(step);
			if (crown_history_open(&h, dir, true, &d) == 0)
				(void)crown_pack_auto(NULL, h, &d);
			_exit(0);
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 9);
		if (step < 3)
			assert_true(loose(dir) > 20);
		sound(dir);
		assert_true(pack(dir) > 0);
		assert_int_equal(loose(dir), 0);
		sound(dir);
		free(dir);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_pack_auto, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_pack_killed, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
