/*
 * test-clone.c: clones an auditor or a player may have of a campaign.  A
 * shallow clone (git clone --depth 1) and a partial one (--filter=
 * blob:none) lack objects of the history: every command that needs them
 * says which kind of clone it is and the git command that fetches them,
 * and exits 66, never 65 (a difference).  A clone made with --no-tags
 * lacks the tags: crown verify says `git fetch --tags`.  After the git
 * command named, each verifies (exit 0).
 *
 * It runs git (popen) to make the clones, as an auditor would.
 */
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"

#define SHALLOW	"this is a shallow clone: run `git fetch --unshallow`\n"
#define PARTIAL	"this is a partial clone: objects are missing; fetch them " \
	"with `git fetch --refetch --no-filter` (or clone without --filter)\n"

TU_SCRATCH("clone")

/*
 * LeakSanitizer, in this program only: libgit2 1.5 built with PCRE2 leaks
 * the match data of each config entry it tests against a regular
 * expression, which git_repository_open_ext does for the extensions of a
 * repository of format version 1, as git writes a partial clone.  PCRE2
 * has no frame pointers, so the stack ends there.
 */
const char	*__lsan_default_suppressions(void);

const char *
__lsan_default_suppressions(void)
{
	return "leak:libpcre2-8.so\n";
}

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

/* Three turns at dir; its main's commit into tip. */
static void
campaign(const char *dir, char *tip)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };

	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(crown_history_open(&h, dir, false, &d), 0);
	assert_int_equal(crown_history_ref_get(tip, h, CROWN_MAIN_REF, &d), 0);
	crown_history_close(h);
	crown_diags_release(&d);
}

/* Run git in a shell; it must succeed. */
static void	git(const char *, ...) __attribute__((format(printf, 1, 2)));

static void
git(const char *fmt, ...)
{
	va_list	 ap;
	char	*cmd, *text;

	va_start(ap, fmt);
	cmd = xvasprintf(fmt, ap);
	va_end(ap);

	text = tu_sh("%s >/dev/null 2>&1 && echo ok", cmd);
	if (strcmp(text, "ok\n") != 0) {
		print_error("failed: %s\n", cmd);
		fail();
	}
	free(text);
	free(cmd);
}

/* crown verify of dir, the templates given. */
static int
verify(struct run *r, const char *dir)
{
	return RUN(r, crown_cmd_verify, dir, "--templates", TMPL);
}

/* Every command that walks the line names the shallow clone, exit 66;
 * after git fetch --unshallow all is well. */
static void
test_shallow(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("s");
	char		*site = path("site");
	char		 tip[CROWN_OID_HEX + 1], *want;

	(void)state;
	campaign(dir, tip);
	git("git clone -q --depth 1 'file://%s' '%s'", dir, clone);
	/* the message names the commit whose parent is not here, in full:
	 * read before the list it came from is freed (ASan) */
	want = xasprintf("%s: error: cannot read the parent of %s: " SHALLOW,
	    clone, tip);
	RUN(&r, crown_cmd_log, clone);
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	run_release(&r);
	RUN(&r, crown_cmd_show, clone, "2");
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	run_release(&r);
	RUN(&r, crown_cmd_blame, clone, "1-legion");
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	run_release(&r);
	RUN(&r, crown_cmd_status, clone);
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	run_release(&r);
	RUN(&r, crown_cmd_site, clone, site, "--templates", TMPL);
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	run_release(&r);
	verify(&r, clone);
	assert_int_equal(r.status, 66);
	assert_string_equal(r.err, want);
	assert_string_equal(r.out, "");
	run_release(&r);
	free(want);

	git("git -C '%s' fetch -q --unshallow", clone);
	verify(&r, clone);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_has(r.out, "verify: 3 turns match the replay (dice from each "
	    "turn's key; no secret needed)\n");
	run_release(&r);
	free(site);
	free(clone);
	free(dir);
}

/*
 * A partial clone has the commits and trees, and the blobs of the work
 * tree git checked out: what reads only those works, what reads an older
 * blob names the partial clone, exit 66; after git fetch --refetch
 * --no-filter all is well.
 */
static void
test_partial(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("p");
	char		*site = path("site");
	char		 tip[CROWN_OID_HEX + 1], *text;

	(void)state;
	campaign(dir, tip);
	git("git -C '%s' config uploadpack.allowFilter true", dir);
	git("git clone -q --filter=blob:none 'file://%s' '%s'", dir, clone);
	text = tu_sh("git -C '%s' rev-list --objects --all --missing=print | "
	    "grep -c '^?'", clone);
	assert_true(strtol(text, NULL, 10) > 0);
	free(text);
	EXPECT(0, crown_cmd_log, clone);
	EXPECT(0, crown_cmd_status, clone);
	EXPECT(0, crown_cmd_show, clone, "2");

	RUN(&r, crown_cmd_blame, clone, "1-legion");
	assert_int_equal(r.status, 66);
	assert_has(r.err, ": " PARTIAL);
	assert_has(r.err, "error: cannot read state.yaml of ");
	run_release(&r);
	RUN(&r, crown_cmd_site, clone, site, "--templates", TMPL);
	assert_int_equal(r.status, 66);
	assert_has(r.err, ": " PARTIAL);
	run_release(&r);
	verify(&r, clone);
	assert_int_equal(r.status, 66);
	assert_has(r.err, ": " PARTIAL);
	assert_has(r.out, "verify: not finished: this clone lacks objects of "
	    "the history\n");
	assert_null(strstr(r.out, "differs"));
	run_release(&r);

	git("git -C '%s' fetch -q --refetch --no-filter", clone);
	text = tu_sh("git -C '%s' rev-list --objects --all --missing=print | "
	    "grep -c '^?'", clone);
	assert_string_equal(text, "0\n");
	free(text);
	verify(&r, clone);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_release(&r);
	EXPECT(0, crown_cmd_blame, clone, "1-legion");
	free(site);
	free(clone);
	free(dir);
}

/*
 * A clone without tags: verify says once that the turn tags are missing
 * and how to fetch them; an adopted rerun's dice salt, checked against
 * the line adopt kept as a tag, is not a difference but exit 66 with
 * `git fetch --tags`.  A tag that names another commit is fetched again
 * with --force.
 */
static void
test_no_tags(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("n"), *text;
	char		 tip[CROWN_OID_HEX + 1];

	(void)state;
	campaign(dir, tip);
	git("git clone -q --no-tags 'file://%s' '%s'", dir, clone);
	verify(&r, clone);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "crown verify: warning: 3 of the 3 tags "
	    "turn-N are missing (fetch the tags with `git fetch --tags`)\n");
	run_release(&r);
	git("git -C '%s' tag -f turn-1 turn-0", dir);
	git("git -C '%s' fetch -q --tags", clone);
	verify(&r, clone);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "crown verify: warning: tag turn-1 does "
	    "not name turn 1 of main (fetch the tags again with `git fetch "
	    "--tags --force`)\n");
	run_release(&r);

	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21");
	text = path("m");
	git("git clone -q --no-tags 'file://%s' '%s'", dir, text);
	verify(&r, text);
	assert_int_equal(r.status, 66);
	assert_has(r.err, "error: turn 1 is a rerun's: its dice salt is "
	    "checked against the line adopt replaced, tag replaced/turn-1, "
	    "which is not here: fetch the tags with `git fetch --tags`\n");
	assert_has(r.out, "verify: not finished: this clone lacks tags of the "
	    "history\n");
	assert_null(strstr(r.out, "differs"));
	run_release(&r);
	git("git -C '%s' fetch -q --tags", text);
	verify(&r, text);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	run_release(&r);
	/* every turn's tag here but not the line adopt replaced: no clone
	 * lacks just that, so a rerun's salt with nothing to check it by is
	 * a difference, never "fetch the tags" */
	git("git -C '%s' tag -d replaced/turn-1 >/dev/null", text);
	verify(&r, text);
	assert_int_equal(r.status, 65);
	assert_null(strstr(r.err, "git fetch --tags"));
	run_release(&r);
	free(text);
	free(clone);
	free(dir);
}

/*
 * verify's statuses in clones: 0 for a full clone; 65 for one whose
 * history differs (a file of turn 1 changed in turn 2's commit), and
 * still 65 once a partial clone of it has fetched what it lacked.
 */
static void
test_clone_differs(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("f"), *text;
	char		 tip[CROWN_OID_HEX + 1];

	(void)state;
	campaign(dir, tip);
	git("git clone -q 'file://%s' '%s'", dir, clone);
	verify(&r, clone);
	assert_int_equal(r.status, 0);
	run_release(&r);
	git("cd '%s' && echo more >>turns/turn-001/report.md && git -c "
	    "user.name=X -c user.email=x@example.org commit -q --amend "
	    "--no-edit -a", clone);
	verify(&r, clone);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "turn 2: turns/turn-001/report.md:");
	assert_has(r.out, "verify: the campaign differs from its replay\n");
	run_release(&r);
	/* the same history, cloned partially and made whole */
	git("git -C '%s' config uploadpack.allowFilter true", clone);
	text = path("p");
	git("git clone -q --filter=blob:none 'file://%s' '%s'", clone, text);
	verify(&r, text);
	assert_int_equal(r.status, 66);
	run_release(&r);
	git("git -C '%s' fetch -q --refetch --no-filter", text);
	verify(&r, text);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "verify: the campaign differs from its replay\n");
	run_release(&r);
	free(text);
	free(clone);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shallow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_tags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone_differs, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
