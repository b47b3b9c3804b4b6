/*
 * test-history.c: the campaign history (issue 6): crown new, turn, log,
 * show, verify, reveal, rerun, adopt and publish on campaigns made under
 * mkdtemp directories, run in-process; fault injection at every step of
 * a turn, as an error and as a kill.
 *
 * Only this test runs git (system()): to check what crown made with
 * libgit2 (git fsck --strict, git status, git clone).  crown never does.
 *
 * This program defines fsync() and write() over the C library's, and so
 * over libgit2's calls too: to count the syncs of a turn, and to make the
 * disk fill up after a number of bytes.
 */
#define _GNU_SOURCE
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "testdisk.h"
#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/paths.h"
#include "crown/state.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"
/* what crown verify says of a turn it replayed, and at the end */
#define V0	"turn 0: ok (dice: replayed from k(0), the commitment)\n"
#define VK(n)	"turn " #n ": ok (dice: replayed from the turn's key)\n"
#define VSECRET	"(dice from each turn's key; secret from"

static char	base[] = "/tmp/crown-history-XXXXXX";

/* The seams: fsync() counted, and write() (testdisk.h). */
static unsigned long	nfsync;

int
fsync(int fd)
{
	static int	(*real)(int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fsync");
	nfsync++;
	return real(fd);
}

/* The standard output of a shell command (testutil.h). */
#define sh tu_sh

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static void
assert_fsck(const char *dir)
{
	char	*cmd = xasprintf("git -C '%s' fsck --strict >/dev/null 2>&1",
		    dir);

	if (system(cmd) != 0) {
		print_error("git fsck --strict fails on %s\n", dir);
		free(cmd);
		fail();
	}
	free(cmd);
}

/* The work tree and index match HEAD. */
static void
assert_clean(const char *dir)
{
	char	*st = sh("git -C '%s' status --porcelain 2>&1", dir);

	if (strcmp(st, "") != 0) {
		print_error("work tree of %s is not clean:\n%s\n", dir, st);
		free(st);
		fail();
	}
	free(st);
}

/* The commit of a reference, or "" when it does not exist. */
static void
ref_id(char *id, const char *dir, const char *ref)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };

	id[0] = '\0';
	assert_int_equal(crown_history_open(&h, dir, false, &d), 0);
	if (crown_history_ref_get(id, h, ref, &d) != 0)
		id[0] = '\0';
	crown_history_close(h);
	crown_diags_release(&d);
}

static bool
exists(const char *p)
{
	struct stat	st;

	return lstat(p, &st) == 0;
}

/* The campaign's lock file at dir names a holder: held, or its holder
 * died holding it (a lock let go is an empty file). */
static bool
lock_named(const char *dir)
{
	char	*p = xasprintf("%s/.git/crown.lock", dir), *text;
	bool	 named;

	text = tu_slurp(p);
	named = text != NULL && text[0] != '\0';
	free(text);
	free(p);
	return named;
}

static void
new_campaign(const char *dir)
{
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
}

static void
turn1(const char *dir)
{
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
}

/* The French send no orders for turn 2: they hold (R2.3). */
static void
turn2(const char *dir)
{
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
}

/*
 * crown blame (issue 20): a unit's story, and for each loss the dice and
 * the order behind it, with the order's place in the committed file.  A
 * secret of 32 bytes 0x11 and the French seed make the Legion's first
 * volley miss and its second hit.
 */
static void
test_blame(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *sec = path("secret.hex");
	char		*orders = path("french-1.yaml");
	FILE		*fp;
	int		 i;

	assert_non_null(fp = fopen(sec, "w"));
	for (i = 0; i < 32; i++)
		fputs("11", fp);
	fputs("\n", fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(fp = fopen(orders, "w"));
	fputs("game: Test Campaign\nturn: 1\nside: french\norders:\n"
	    "  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, reload, fire: 2-militia]\n"
	    /* the dice depend on the orders' bytes: this seed makes the
	     * first volley miss and the second hit */
	    "seed: \"19\"\n", fp);
	assert_int_equal(fclose(fp), 0);
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", sec, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, dir, orders, DATA "/republic-1.yaml",
	    "--templates", TMPL, "--date", "2026-03-08");
	RUN(&r, crown_cmd_blame, dir, "2-militia");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "2-militia: Militia of Veracruz, militia infantry "
	    "smoothbore of republic\n"
	    "  turn 0: 4 stands, 16 figures, ok, at (30.00, 22.00) facing "
	    "180\n");
	assert_has(r.out, "\nturn 1 (2026-03-08, ");
	/* the first volley missed: no loss, no explanation */
	assert_has(r.out, "rolled 9, 8, 9, scored 8, 7, 8 needing 3 or less: "
	    "no casualties.\n  4 fire");
	assert_has(r.out, "    lost 3 figures (fire, R5.1)\n"
	    "      D10 fire, stand 1: rolled 4, veteran -1 (R3.1), score 3\n"
	    "      D10 fire, stand 2: rolled 2, veteran -1 (R3.1), score 1\n"
	    "      D10 fire, stand 3: rolled 2, veteran -1 (R3.1), score 1\n"
	    "      order: 1-legion fire 2-militia "
	    "(orders/turn-001/french.yaml:6:40)\n");
	assert_has(r.out, "  after the turn: 4 stands, 13 figures, ok, at "
	    "(30.00, 22.00) facing 180\n");
	assert_has(r.out, "2-militia: 3 figures lost to the events above over "
	    "1 turn\n");
	run_release(&r);
	/* the rules' identifiers as words; a gun's arms are its gun */
	RUN(&r, crown_cmd_blame, dir, "gun-1");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "gun-1: Mountain Gun, regular foot artillery "
	    "howitzer of french\n");
	run_release(&r);
	RUN(&r, crown_cmd_blame, dir, "1-legion");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "1-legion: 3rd Company, Foreign Legion, veteran "
	    "infantry rifled musket of french\n");
	run_release(&r);
	/* a unit the campaign does not have */
	RUN(&r, crown_cmd_blame, dir, "3-ghost");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "no unit '3-ghost' in this campaign");
	run_release(&r);
	free(orders);
	free(sec);
	free(dir);
}

/*
 * crown orders (issue 20): a ready orders file for a side's next turn,
 * every unit holding, that crown check accepts as it is, in YAML and in
 * the mail's shorthand.
 */
static void
test_orders_file(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *yaml = path("french.yaml");
	char		*sh = path("french.txt");
	FILE		*fp;

	new_campaign(dir);
	RUN(&r, crown_cmd_orders, dir, "--side", "french");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "game: Test Campaign\nturn: 1\nside: french\n"
	    "orders:\n");
	assert_has(r.out, "  # 1-legion: 3rd Company, Foreign Legion, "
	    "veteran infantry rifled musket\n"
	    "  #   at (30.00, 12.50) facing 0, line, 3 stands, 12 figures; "
	    "3 actions a half-turn\n"
	    "  #   rifled musket: close to 6, medium to 12, long to 18 "
	    "inches\n"
	    "  #   in the open: no cover\n"
	    "  #   loaded\n"
	    "  #   open: move, charge, fire, formation, help, hold\n"
	    "  - unit: 1-legion\n    actions: [hold]\n");
	assert_has(r.out, "  #   not loaded, limbered\n"
	    "  #   open: move, unlimber, hold\n"
	    "  - unit: gun-1\n");
	assert_non_null(fp = fopen(yaml, "w"));
	fputs(r.out, fp);
	assert_int_equal(fclose(fp), 0);
	run_release(&r);
	EXPECT(0, crown_cmd_check, dir, yaml);
	RUN(&r, crown_cmd_orders, dir, "--side", "french", "--shorthand");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "side: french\n# 1-legion: ");
	assert_has(r.out, "\n1-legion: hold\n");
	assert_non_null(fp = fopen(sh, "w"));
	fputs(r.out, fp);
	assert_int_equal(fclose(fp), 0);
	run_release(&r);
	EXPECT(0, crown_cmd_check, dir, sh);
	RUN(&r, crown_cmd_orders, dir, "--side", "prussia");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "no side 'prussia' in this campaign");
	run_release(&r);
	EXPECT(2, crown_cmd_orders, dir);
	free(sh);
	free(yaml);
	free(dir);
}

/* A game whose name holds ": " and " #" still gets an orders file that
 * crown check takes: the header is written as YAML writes it. */
static void
test_orders_file_quoted(void **state)
{
	struct run	 r;
	char		*dir = path("q"), *scen = path("scen.yaml");
	char		*yaml = path("q.yaml"), *text, *at;
	FILE		*fp;

	text = tu_slurp(SCEN);
	assert_non_null(at = strstr(text, "Test Campaign"));
	assert_non_null(fp = fopen(scen, "w"));
	fprintf(fp, "%.*s\"Puebla: 5 May #1\"%s", (int)(at - text), text,
	    at + strlen("Test Campaign"));
	assert_int_equal(fclose(fp), 0);
	free(text);
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", scen,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	RUN(&r, crown_cmd_orders, dir, "--side", "french");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "game: 'Puebla: 5 May #1'\nturn: 1\n");
	assert_non_null(fp = fopen(yaml, "w"));
	fputs(r.out, fp);
	assert_int_equal(fclose(fp), 0);
	run_release(&r);
	EXPECT(0, crown_cmd_check, dir, yaml);
	free(yaml);
	free(scen);
	free(dir);
}

/*
 * The README's tour ("A short tour: the umpire's week"), command by
 * command, with the secret and the dates fixed: keep the two alike.
 */
static void
test_readme_tour(void **state)
{
	struct run	 r;
	char		*dir = path("camerone"), *text;

	/* the rules and templates given, for build/asan/tests/ */
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    "games/camerone/scenario.yaml", "--rules", RULES,
	    "--secret-file", SECRET, "--date", "2026-03-01");
	text = sh("cp games/camerone/orders/turn-001/*.yaml "
	    "'%s/orders/pending/' 2>&1 && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_status, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "Camerone: orders for turn 1, no deadline\n");
	assert_has(r.out, "2 of 2 sides have orders in\n");
	run_release(&r);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-08", "--deadline", "2026-03-15T18:00:00Z");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "turn 1 committed (");
	run_release(&r);
	RUN(&r, crown_cmd_log, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "turn 0    2026-03-01  ");
	assert_has(r.out, "turn 1    2026-03-08  ");
	run_release(&r);
	RUN(&r, crown_cmd_show, dir, "1", "--side", "legion");
	assert_int_equal(r.status, 0);
	run_release(&r);
	/* the briefing, with the game's victory conditions when the
	 * bundled games are found (not from build/asan/tests/) */
	RUN(&r, crown_cmd_show, dir, "0");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "# Camerone: the briefing\n");
	assert_has(r.out, "- leader `danjou`, Captain Jean Danjou: general, "
	    "bonus -1, with `legion-3`\n");
	text = crown_data_find("games");
	if (text != NULL)
		assert_has(r.out, "\n## Victory\n\nThe game lasts 12 turns "
		    "(`last_turn`); the Mexicans move first.\n");
	free(text);
	run_release(&r);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, V0 VK(1) "verify: 2 turns "
	    "match the replay " VSECRET " .git/crown-secret)\n");
	run_release(&r);
	free(dir);
}

/*
 * crown turn --dry-run (issue 20): the report the turn would make, and
 * not a byte written: HEAD, the work tree, .git and the pending files as
 * they were.  The real turn then makes the same report.
 */
static void
test_dry_run(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *before, *after, *text, *p;
	char		 ia[CROWN_OID_HEX + 1], ib[CROWN_OID_HEX + 1];
	const char	*every = "cd '%s' && find . -type f | LC_ALL=C sort | "
			    "xargs sha256sum";

	new_campaign(dir);
	text = sh("cp %s/french-1.yaml %s/republic-1.yaml "
	    "'%s/orders/pending/' && echo ok", DATA, DATA, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	ref_id(ia, dir, CROWN_MAIN_REF);
	before = sh(every, dir);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-08", "--dry-run");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "the umpire's report of turn 1\n");
	assert_string_equal(r.err, "crown turn: dry run of turn 1: nothing "
	    "written or committed\n");
	after = sh(every, dir);
	assert_string_equal(before, after);
	ref_id(ib, dir, CROWN_MAIN_REF);
	assert_string_equal(ia, ib);
	assert_clean(dir);
	EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-08");
	p = xasprintf("%s/turns/turn-001/report.md", dir);
	text = tu_slurp(p);
	assert_string_equal(r.out, text);
	free(text);
	free(p);
	run_release(&r);
	/* a dry run refuses as the turn does */
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--dry-run");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "no orders from side 'french' for turn 2");
	assert_string_equal(r.out, "");
	run_release(&r);
	free(after);
	free(before);
	free(dir);
}

/*
 * contrib/send-outbox.sh (issue 20): -n lists each message with its
 * recipient and subject decoded (GMime encodes what is not ASCII), and
 * -s takes a shell command line.
 */
#define JOSE	"Jos\xc3\xa9 \xc3\x91\xc3\xba\xc3\xb1" "ez"
#define LEGION	"L\xc3\xa9gion \xc3\xa9" "trang\xc3\xa8" "re"

static void
test_send_outbox(void **state)
{
	char	*dir = path("c"), *scen = path("scen.yaml"), *sent, *text;

	text = sh("sed 's/Jean Danjou/" JOSE "/; s/name: Foreign Legion/name: "
	    LEGION "/' %s >'%s' && echo ok", SCEN, scen);
	assert_string_equal(text, "ok\n");
	free(text);
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", scen,
	    "--rules", RULES, "--secret-file", SECRET, "--date", "2026-03-01");
	turn1(dir);
	text = sh("sh contrib/send-outbox.sh -n '%s' 2>&1", dir);
	assert_has(text, " to " JOSE " <danjou@example.org>: [Test Campaign] "
	    "Briefing for " LEGION "\n");
	assert_has(text, " to " JOSE " <danjou@example.org>: [Test Campaign] "
	    "Turn 1: report for " LEGION "\n");
	assert_true(strstr(text, "=?") == NULL);
	free(text);
	sent = path("sent.txt");
	text = sh("sh contrib/send-outbox.sh -s 'cat >>\"%s\"' '%s' 2>&1",
	    sent, dir);
	assert_has(text, "4 sent, 0 kept for the next run\n");
	free(text);
	text = sh("grep -c '^Subject: ' '%s'; ls '%s/outbox/new' | wc -l",
	    sent, dir);
	assert_string_equal(text, "4\n0\n");
	free(text);
	free(sent);
	free(scen);
	free(dir);
}

/*
 * The players' briefing by mail (issue 20): crown new mails each player
 * with an address the turn-0 briefing and the orders form of turn 1;
 * crown roster add mails the one who joins, with the campaign as it
 * stands after turn 1 and the form of turn 2.
 */
static void
test_briefing_mail(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;

	(void)state;
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date", "2026-03-01");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "2 briefings for the players in ");
	run_release(&r);
	text = sh("cd '%s/outbox/new' && grep -h '^To: \\|^Subject: ' * | "
	    "sort && grep -l 'filename=orders.yaml' * | wc -l && "
	    "grep -l 'filename=map.svg' * | wc -l && "
	    "grep -h '^ *turn: \\|^map.svg, attached' * | sort | uniq -c",
	    dir);
	assert_string_equal(text, "Subject: [Test Campaign] Briefing for "
	    "Foreign Legion\nSubject: [Test Campaign] Briefing for Mexican "
	    "Republic\nTo: Francisco Milan <milan@example.org>\n"
	    "To: Jean Danjou <danjou@example.org>\n2\n2\n"
	    "      2   turn: 0\n      2 map.svg, attached, is the table as "
	    "the game opens.\n      2 turn: 1\n");
	free(text);
	/* the opening map, where the maps of the turns go (issue 21) */
	text = sh("grep -c 'the opening positions</title>' "
	    "'%s/turns/turn-000/map.svg'", dir);
	assert_string_equal(text, "1\n");
	free(text);
	text = sh("rm -f '%s'/outbox/new/* && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	turn1(dir);
	text = sh("rm -f '%s'/outbox/new/* && echo ok", dir);
	free(text);
	RUN(&r, crown_cmd_roster, dir, "add", "french",
	    "Clement Maudet <maudet@example.org>", "--date", "2026-03-09");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "the briefing for maudet@example.org is in ");
	run_release(&r);
	text = sh("cd '%s/outbox/new' && ls | wc -l && grep -h '^To: \\|"
	    "^Subject: \\|^ *turn: \\|^You join\\|^map.svg, attached' * && "
	    "grep -l 'filename=map.svg' * | wc -l", dir);
	assert_string_equal(text, "1\nSubject: [Test Campaign] Briefing for "
	    "Foreign Legion\nTo: Clement Maudet <maudet@example.org>\n"
	    "You join after turn 1; the state attached is the campaign as it "
	    "stands.\nmap.svg, attached, is the table after turn 1.\n"
	    "  turn: 1\nturn: 2\n1\n");
	free(text);
	free(dir);
}

static int
setup(void **state)
{
	memcpy(base, "/tmp/crown-history-XXXXXX", sizeof(base));
	if (mkdtemp(base) == NULL)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	crown_history_fail_after(0, false);
	crown_campaign_remove_tree(base, false);
	return 0;
}

static void
test_new_turn_verify(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *p, *text;
	char		 id[CROWN_OID_HEX + 1], t2[CROWN_OID_HEX + 1];

	new_campaign(dir);
	/* turn 0: the files, the tag, the secret outside the tree */
	p = xasprintf("%s/.git/crown-secret", dir);
	text = tu_slurp(p);
	assert_string_equal(text, "000102030405060708090a0b0c0d0e0f1011121314"
	    "15161718191a1b1c1d1e1f\n");
	free(text);
	free(p);
	p = xasprintf("%s/state.yaml", dir);
	text = tu_slurp(p);
	/* k(0): SHA-256 4096 times over the 32 bytes 00 01 ... 1f */
	assert_has(text, "dice_commitment: fbd3136db367d4cb21dc522f7e8a28cc"
	    "ce1bec79ee01d51fcd31af5d31c08754\n");
	assert_has(text, "start_figures: 12");
	free(text);
	free(p);
	text = sh("git -C '%s' ls-files", dir);
	assert_string_equal(text, ".gitignore\nformat.yaml\nrules.yaml\n"
	    "scenario.yaml\nstate.yaml\nturns/turn-000/events.yaml\n"
	    "turns/turn-000/map.svg\n");
	free(text);
	text = sh("git -C '%s' log -1 --format='%%an <%%ae> %%ad %%s' "
	    "--date=iso", dir);
	assert_string_equal(text, "Test Umpire <umpire@example.org> "
	    "2026-03-01 10:00:00 +0100 Turn 0: Test Campaign, Foreign Legion "
	    "against Mexican Republic\n");
	free(text);
	ref_id(id, dir, "refs/tags/turn-0");
	assert_int_equal(strlen(id), CROWN_OID_HEX);
	assert_clean(dir);

	turn1(dir);
	turn2(dir);
	text = sh("git -C '%s' ls-files orders turns/turn-002", dir);
	assert_string_equal(text, "orders/turn-001/french.yaml\n"
	    "orders/turn-001/republic.yaml\norders/turn-002/republic.yaml\n"
	    "turns/turn-002/dice-key\nturns/turn-002/dice-salt\n"
	    "turns/turn-002/events.yaml\nturns/turn-002/map.svg\n"
	    "turns/turn-002/report-french.md\n"
	    "turns/turn-002/report-republic.md\nturns/turn-002/report.md\n");
	free(text);
	ref_id(t2, dir, "refs/tags/turn-2");
	ref_id(id, dir, CROWN_MAIN_REF);
	assert_string_equal(id, t2);
	assert_clean(dir);
	assert_fsck(dir);
	assert_false(lock_named(dir));

	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, V0 VK(1) VK(2)
	    "verify: 3 turns match the replay " VSECRET " "
	    ".git/crown-secret)\n");
	run_release(&r);

	RUN(&r, crown_cmd_log, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "turn 0    2026-03-01  ");
	assert_has(r.out, "Test Campaign, Foreign Legion against Mexican "
	    "Republic\nturn 1    2026-03-08  ");
	assert_has(r.out, "turn 2    2026-03-15  ");
	text = xasprintf("  %.7s  ", id);
	assert_has(r.out, text);
	free(text);
	run_release(&r);

	RUN(&r, crown_cmd_show, dir, "2");
	assert_int_equal(r.status, 0);
	p = xasprintf("%s/turns/turn-002/report.md", dir);
	text = tu_slurp(p);
	assert_string_equal(r.out, text);
	free(text);
	free(p);
	run_release(&r);
	RUN(&r, crown_cmd_show, dir, "last", "--side", "republic");
	assert_int_equal(r.status, 0);
	p = xasprintf("%s/turns/turn-002/report-republic.md", dir);
	text = tu_slurp(p);
	assert_string_equal(r.out, text);
	free(text);
	free(p);
	run_release(&r);
	/* turn 0 is the briefing (issue 20) */
	RUN(&r, crown_cmd_show, dir, "0");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "# Test Campaign: the briefing\n");
	assert_has(r.out, "\n## Foreign Legion (`french`)\n\nHome edge "
	    "south; moves first (R2.1).  Played by Jean Danjou.\n\n"
	    "- `1-legion`, 3rd Company, Foreign Legion: veteran infantry, "
	    "rifled musket; 3 stands, 12 figures, line, at (30.0, 12.5) "
	    "facing 0\n");
	assert_has(r.out, "\n## The opening map\n");
	assert_has(r.out, "    A  1-legion (french)\n");
	assert_has(r.out, "    a  2-militia (republic)\n");
	assert_has(r.out, "\n## Before the game\n\n- The class of hacienda "
	    "was in doubt");
	assert_true(strstr(r.out, "Nothing happened") == NULL);
	run_release(&r);
	EXPECT(66, crown_cmd_show, dir, "3");
	EXPECT(65, crown_cmd_show, dir, "1", "--side", "prussia");
	EXPECT(2, crown_cmd_show, dir, "one");
	free(dir);
}

/* Write text to dir/.git/crown-secret. */
static void
put_secret(const char *dir, const char *text)
{
	char	*p = xasprintf("%s/.git/crown-secret", dir);
	FILE	*fp;

	assert_non_null(fp = fopen(p, "w"));
	fputs(text, fp);
	fclose(fp);
	free(p);
}

/*
 * A secret that is not the committed dice_commitment's: turn, rerun and
 * reveal refuse it with exit 65 and say so (the message names the file,
 * which must still be alive then: run under ASan), and main stays where
 * it was.  A malformed one is called malformed, by verify too.
 */
static void
test_wrong_secret(void **state)
{
	static const char *const cmds[] = { "turn", "rerun", "reveal" };
	struct run	 r;
	char		*dir = path("c");
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];
	size_t		 i;

	new_campaign(dir);
	turn1(dir);
	ref_id(before, dir, CROWN_MAIN_REF);
	put_secret(dir, "ff0102030405060708090a0b0c0d0e0f10111213141516171819"
	    "1a1b1c1d1e1f\n");
	for (i = 0; i < 3; i++) {
		if (i == 0)
			RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml",
			    "--templates", TMPL, "--allow-missing");
		else if (i == 1)
			RUN(&r, crown_cmd_rerun, dir, "1", "--orders",
			    DATA "/republic-1-amended.yaml", "--templates",
			    TMPL);
		else
			RUN(&r, crown_cmd_reveal, dir);
		if (r.status != 65)
			print_error("crown %s: status %d\n%s", cmds[i],
			    r.status, r.err);
		assert_int_equal(r.status, 65);
		assert_has(r.err, "/.git/crown-secret: error: this secret "
		    "does not match the campaign's dice_commitment");
		run_release(&r);
		ref_id(after, dir, CROWN_MAIN_REF);
		assert_string_equal(before, after);
	}
	/* the rerun made no branch */
	ref_id(after, dir, "refs/heads/rerun/turn-1");
	assert_string_equal(after, "");
	put_secret(dir, "not a secret\n");
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--allow-missing");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "/.git/crown-secret: error: malformed");
	run_release(&r);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "/.git/crown-secret: error: malformed");
	if (strstr(r.out, "differs from its replay") != NULL) {
		print_error("verify says:\n%s", r.out);
		fail();
	}
	run_release(&r);
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(before, after);
	assert_clean(dir);
	free(dir);
}

/* The same inputs make the same commits, byte for byte. */
static void
test_deterministic(void **state)
{
	char	*a = path("a"), *b = path("b");
	char	 ia[CROWN_OID_HEX + 1], ib[CROWN_OID_HEX + 1];

	new_campaign(a);
	new_campaign(b);
	turn1(a);
	turn1(b);
	ref_id(ia, a, CROWN_MAIN_REF);
	ref_id(ib, b, CROWN_MAIN_REF);
	assert_string_equal(ia, ib);
	free(a);
	free(b);
}

/*
 * crown resolve with a campaign's secret plays the turn crown turn plays
 * with the same orders' bytes: the same salt (dice.c), taken from the
 * bytes it plays, so the same events, reports, map and state.  It reads
 * each orders file once: given a pipe whose writer sends other bytes to
 * a second reader, it plays and salts the first bytes and leaves the
 * second unread (it used to read the file again for the salt).
 */
static void
test_resolve_is_turn(void **state)
{
	static const char volleys[] = "game: Test Campaign\nturn: 1\n"
	    "side: french\norders:\n  - unit: 1-legion\n"
	    "    actions: [fire: 2-militia, reload, fire: 2-militia]\n";
	struct run	 r;
	char		*dir = path("c"), *out = path("out");
	char		*start = path("start.yaml"), *fifo = path("fifo");
	char		*first = path("french-1.yaml"), *second = path("other");
	char		*text, *want;
	FILE		*fp;

	assert_non_null(fp = fopen(first, "w"));
	fputs(volleys, fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(fp = fopen(second, "w"));
	fprintf(fp, "%s# not the orders played\n", volleys);
	assert_int_equal(fclose(fp), 0);
	new_campaign(dir);
	text = sh("git -C '%s' show main:state.yaml > '%s' && mkfifo '%s' && "
	    "echo ok", dir, start, fifo);
	assert_string_equal(text, "ok\n");
	free(text);
	/* the first reader of the pipe gets the orders, a second the
	 * others */
	text = sh("(cat '%s' > '%s'; sleep 1; cat '%s' > '%s') >/dev/null "
	    "2>&1 & echo ok", first, fifo, second, fifo);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_resolve, "--state", start, "--rules", RULES,
	    "--orders", fifo, "--orders", DATA "/republic-1.yaml",
	    "--secret-file", SECRET, "--templates", TMPL, "--out", out);
	assert_int_equal(r.status, 0);
	run_release(&r);
	text = sh("timeout 10 cat '%s' | wc -c", fifo);
	want = xasprintf("%zu\n", strlen(volleys) +
	    strlen("# not the orders played\n"));
	assert_string_equal(text, want);
	free(want);
	free(text);
	EXPECT(0, crown_cmd_turn, dir, first, DATA "/republic-1.yaml",
	    "--templates", TMPL, "--date", "2026-03-08");
	text = sh("cd '%s' && for f in events.yaml report.md "
	    "report-french.md report-republic.md map.svg; do "
	    "git show main:turns/turn-001/$f | cmp -s - '%s/'$f || "
	    "echo $f differs; done; git show main:state.yaml | "
	    "cmp -s - '%s/state.yaml' || echo state.yaml differs; "
	    "grep -c 'roll' '%s/events.yaml'", dir, out, out, out);
	assert_null(strstr(text, "differs"));
	/* dice were rolled: the salt decided them */
	assert_true(strtol(text, NULL, 10) > 0);
	free(text);
	free(second);
	free(first);
	free(fifo);
	free(start);
	free(out);
	free(dir);
}

/* A file of files with one line replaced (line 0: none); a file it does
 * not have is added, holding `with`. */
static void
edit_file(struct crown_outputs *files, const char *file, unsigned line,
    const char *with)
{
	struct crown_buf	 nb = { 0 };
	char			*p, *q;
	unsigned		 k;
	size_t			 i;

	for (i = 0; i < files->n; i++)
		if (strcmp(files->v[i].name, file) == 0)
			break;
	if (i == files->n)
		crown_buf_puts(crown_outputs_add(files, file), with);
	for (i = 0; i < files->n; i++) {
		if (strcmp(files->v[i].name, file) != 0 || line == 0)
			continue;
		p = files->v[i].data.data;
		for (k = 1; k < line; k++)
			p = strchr(p, '\n') + 1;
		q = strchr(p, '\n');
		crown_buf_add(&nb, files->v[i].data.data,
		    (size_t)(p - files->v[i].data.data));
		crown_buf_puts(&nb, with);
		crown_buf_puts(&nb, q);
		crown_buf_release(&files->v[i].data);
		files->v[i].data = nb;
	}
}

/*
 * Replace a line of a file in commit `at' of main (its index on the
 * line; -1: the last), keeping its message, and commit the ones after it
 * again on top, each with its own files: all of them when own, else all
 * but that one.
 */
static void
tamper_commits(const char *dir, long at, const char *file, unsigned line,
    const char *with, bool own)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_chain	 c = { 0 };
	struct crown_outputs	 files = { 0 }, keep = { 0 };
	struct crown_stamp	 st = { "Mallory", "m@example.org", 0, 0, NULL };
	char			 id[CROWN_OID_HEX + 1], prev[CROWN_OID_HEX + 1];
	const char		*tip;
	size_t			 i, j, from;

	assert_int_equal(crown_history_open(&h, dir, true, &d), 0);
	assert_int_equal(crown_campaign_chain(&c, h, CROWN_MAIN_REF, &d), 0);
	tip = c.l.v[c.l.n - 1].id;
	from = at < 0 ? c.l.n - 1 : (size_t)at;
	assert_true(from > 0 && from < c.l.n);
	memcpy(prev, c.l.v[from - 1].id, sizeof(prev));
	for (i = from; i < c.l.n; i++) {
		assert_int_equal(crown_history_files(&files, h, c.l.v[i].id,
		    "", &d), 0);
		if (i == from)
			edit_file(&files, file, line, with);
		else
			for (j = 0; j < files.n; j++)
				if (own || strcmp(files.v[j].name, file) != 0)
					crown_buf_add(crown_outputs_add(&keep,
					    files.v[j].name),
					    files.v[j].data.data,
					    files.v[j].data.len);
		assert_int_equal(crown_history_commit(id, h, prev, i == from ?
		    &files : &keep, c.l.v[i].message, &st, &d), 0);
		memcpy(prev, id, sizeof(prev));
		crown_outputs_release(&files);
		crown_outputs_release(&keep);
	}
	assert_int_equal(crown_history_ref_set(h, CROWN_MAIN_REF, prev, tip,
	    false, "tamper", &d), 0);
	assert_no_diags(&d);
	crown_chain_release(&c);
	crown_history_close(h);
}

static void
tamper_at(const char *dir, long at, const char *file, unsigned line,
    const char *with)
{
	tamper_commits(dir, at, file, line, with, false);
}

/* The same in the last commit. */
static void
tamper(const char *dir, const char *file, unsigned line, const char *with)
{
	tamper_at(dir, -1, file, line, with);
}

/* crown verify of the campaign at dir. */
static void
verify(struct run *r, const char *dir)
{
	RUN(r, crown_cmd_verify, dir, "--templates", TMPL);
}

/*
 * A campaign of four turns at dir (with a roster change after turn 2 when
 * roster), and at copy the same with turn 2's events tampered with.
 */
static void
four_turns(const char *dir, const char *copy, bool roster)
{
	struct run	 r;
	char		*text;

	new_campaign(dir);
	turn1(dir);
	turn2(dir);
	if (roster) {
		RUN(&r, crown_cmd_roster, dir, "add", "french",
		    "Clement Maudet <maudet@example.org>", "--date",
		    "2026-03-16");
		assert_int_equal(r.status, 0);
		run_release(&r);
	}
	EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-22", "--allow-missing");
	EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-29", "--allow-missing");
	text = sh("cp -a '%s' '%s' && echo ok", dir, copy);
	assert_string_equal(text, "ok\n");
	free(text);
	tamper_at(copy, 2, "turns/turn-002/events.yaml", 3, "  turn: 7");
}

/*
 * crown verify replays the turns one after another, each from its
 * parent's committed bytes, across a roster change too; a turn tampered
 * with in the middle is found and named, the turns after it not printed.
 */
static void
test_verify_in_order(void **state)
{
	static const char differs[] = V0 VK(1) "turn 2: "
	    "turns/turn-002/events.yaml:3: differs\nverify: the campaign "
	    "differs from its replay\n";
	struct run	 r;
	char		*dir = path("c"), *copy = path("d"), *text, *p, *q;
	size_t		 k;

	for (k = 0; k < 2; k++) {
		four_turns(dir, copy, k == 1);
		verify(&r, dir);
		assert_int_equal(r.status, 0);
		assert_string_equal(r.err, "");
		text = xstrdup(r.out);
		/* "roster 1a2b3c4: ok" as "roster: ok" */
		if ((p = strstr(text, "\nroster ")) != NULL &&
		    (q = strstr(p, ": ok\n")) != NULL)
			memmove(p + strlen("\nroster"), q, strlen(q) + 1);
		assert_string_equal(text, k == 0 ? V0 VK(1)
		    VK(2) VK(3) VK(4) "verify: 5 turns "
		    "match the replay " VSECRET " .git/crown-secret)\n" :
		    V0 VK(1) VK(2) "roster: ok\n"
		    VK(3) VK(4) "verify: 5 turns match the "
		    "replay " VSECRET " .git/crown-secret)\n");
		free(text);
		run_release(&r);
		verify(&r, copy);
		assert_int_equal(r.status, 65);
		assert_string_equal(r.out, differs);
		run_release(&r);
		text = sh("rm -rf '%s' '%s' && echo ok", dir, copy);
		assert_string_equal(text, "ok\n");
		free(text);
	}
	free(copy);
	free(dir);
}

/*
 * A state the reader refuses stops the replay where a turn starts from
 * it: turn 1's committed state.yaml given a deadline that is not a time,
 * as the replay writes it (it takes the deadline from the commit),
 * matches its replay, and turn 2, which must start from it, cannot.
 */
static void
test_verify_refused_state(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *copy = path("d"), *text, *with;
	unsigned	 line;

	four_turns(dir, copy, false);
	text = sh("cd '%s' && git show main~3:state.yaml | grep -n "
	    "'^  dice_commitment: '", dir);
	line = (unsigned)strtoul(text, NULL, 10);
	assert_true(line > 0);
	/* that line as it is, then the deadline */
	*strchr(text, '\n') = '\0';
	with = xasprintf("%s\n  deadline: garbage", strchr(text, ':') + 1);
	free(text);
	tamper_commits(dir, 1, "state.yaml", line, with, true);
	free(with);
	verify(&r, dir);
	assert_int_equal(r.status, 65);
	assert_string_equal(r.out, V0 VK(1) "turn 2: the "
	    "state it starts from cannot be read\nverify: the campaign "
	    "differs from its replay\n");
	assert_has(r.err, "'deadline' must be a UTC time");
	run_release(&r);
	free(copy);
	free(dir);
}

static void
test_verify_names_difference(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *copy;

	new_campaign(dir);
	turn1(dir);
	turn2(dir);
	copy = sh("cp -a '%s' '%s/d' && cp -a '%s' '%s/e' && echo ok", dir,
	    base, dir, base);
	assert_string_equal(copy, "ok\n");
	free(copy);

	/* an event's line changed */
	tamper(dir, "turns/turn-002/events.yaml", 3, "  turn: 7");
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_string_equal(r.out, V0 VK(1)
	    "turn 2: turns/turn-002/events.yaml:3: differs\n"
	    "verify: the campaign differs from its replay\n");
	run_release(&r);

	/* a file carried over from an earlier turn changed */
	copy = path("d");
	tamper(copy, "scenario.yaml", 5, "  name: Another Campaign");
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "turn 2: scenario.yaml:5: differs\n");
	run_release(&r);
	/* without the secret too */
	RUN(&r, crown_cmd_verify, copy, "--secret-file", "/nonexistent");
	assert_int_equal(r.status, 66);
	run_release(&r);
	free(copy);

	/* a file slipped into an earlier turn's directory: verify reads
	 * only what a commit changes, and this is a change */
	copy = path("e");
	tamper(copy, "turns/turn-001/extra.md", 0, "a forged dispatch\n");
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "turn 2: turns/turn-001/extra.md:1: differs: the "
	    "commit has it, the replay does not\n");
	run_release(&r);
	free(copy);
	free(dir);
}


/*
 * Make the campaign at dir one the first release would have written: no
 * format.yaml and its rules (tests/data/rules-format1.yaml, the first
 * release's maximilian.yaml) in every commit, with the same messages.
 */
static void
as_first_release(const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_chain	 c = { 0 };
	struct crown_outputs	 files = { 0 }, keep = { 0 };
	struct crown_stamp	 st = { "Umpire", "u@example.org", 0, 0, NULL };
	char			 id[CROWN_OID_HEX + 1], prev[CROWN_OID_HEX + 1];
	char			*old = tu_slurp("tests/data/rules-format1.yaml");
	const char		*tip;
	size_t			 i, j;

	assert_non_null(old);
	assert_int_equal(crown_history_open(&h, dir, true, &d), 0);
	assert_int_equal(crown_campaign_chain(&c, h, CROWN_MAIN_REF, &d), 0);
	tip = c.l.v[c.l.n - 1].id;
	for (i = 0; i < c.l.n; i++) {
		assert_int_equal(crown_history_files(&files, h, c.l.v[i].id,
		    "", &d), 0);
		for (j = 0; j < files.n; j++) {
			if (strcmp(files.v[j].name,
			    CROWN_CAMPAIGN_FORMAT_FILE) == 0)
				continue;
			if (strcmp(files.v[j].name, CROWN_CAMPAIGN_RULES) == 0)
				crown_buf_puts(crown_outputs_add(&keep,
				    files.v[j].name), old);
			else
				crown_buf_add(crown_outputs_add(&keep,
				    files.v[j].name), files.v[j].data.data,
				    files.v[j].data.len);
		}
		assert_int_equal(crown_history_commit(id, h, i == 0 ? NULL :
		    prev, &keep, c.l.v[i].message, &st, &d), 0);
		memcpy(prev, id, sizeof(prev));
		crown_outputs_release(&files);
		crown_outputs_release(&keep);
	}
	assert_int_equal(crown_history_ref_set(h, CROWN_MAIN_REF, prev, tip,
	    false, "first release", &d), 0);
	assert_int_equal(crown_history_checkout(h, &d), 0);
	assert_no_diags(&d);
	crown_chain_release(&c);
	crown_history_close(h);
	free(old);
}

/* The line (from 1) of the first line of file in dir's work tree that
 * starts with text. */
static unsigned
line_of(const char *dir, const char *file, const char *text)
{
	char		*p = xasprintf("%s/%s", dir, file), *t = tu_slurp(p);
	const char	*q;
	unsigned	 line = 1;

	assert_non_null(t);
	for (q = t; strncmp(q, text, strlen(text)) != 0; line++) {
		q = strchr(q, '\n');
		assert_non_null(q);
		q++;
	}
	free(t);
	free(p);
	return line;
}

/*
 * A campaign of format 1 (issue 23): every command that plays on it is
 * refused with a message naming the format and crown upgrade; verify says
 * it cannot replay its turns (exit 69); crown upgrade commits the rules
 * this crown needs and format.yaml, and the campaign plays on; verify
 * checks the upgrade and replays the turns after it.
 */
static void
test_format_one(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *copy = path("d"), *text;
	unsigned	 line;

	new_campaign(dir);
	turn1(dir);
	as_first_release(dir);
	assert_fsck(dir);

	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "turn-1:format.yaml: error: the campaign is in "
	    "format 1 (the first release, no format.yaml); this crown reads "
	    "and writes format 3: 'crown upgrade ");
	/* that message, not the list of what the rules lack */
	assert_null(strstr(r.err, "missing section"));
	run_release(&r);

	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 69);
	assert_string_equal(r.out, "turn 0: not replayed (format 1: dice "
	    "checked at reveal): this crown writes format 3 and cannot "
	    "replay it byte for byte\nturn 1: not replayed (format 1: dice "
	    "checked at reveal): this crown writes format 3 and cannot "
	    "replay it byte for byte\nverify: 2 "
	    "turns written in format 1 not replayed: this crown writes "
	    "format 3, and a replay byte for byte needs a crown of format 1 "
	    "(the first release)\n");
	run_release(&r);

	RUN(&r, crown_cmd_upgrade, dir, "--rules", RULES, "--date",
	    "2026-03-10");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "upgraded from format 1 to 3");
	assert_has(r.out, "rules.yaml gains dice, R4.7, R5.1, R6.2.die");
	run_release(&r);
	assert_fsck(dir);
	assert_clean(dir);
	text = sh("git -C '%s' show --stat --format=%%s HEAD", dir);
	assert_has(text, "Upgrade: campaign format 1 to 3\n");
	assert_has(text, " format.yaml |");
	assert_has(text, " rules.yaml  |");
	assert_has(text, " state.yaml  |  1 +");
	assert_has(text, "3 files changed");
	assert_null(strstr(text, "deletion"));
	free(text);
	/* the dice chain of the turns to come: its seed from the secret
	 * (dice.c), its k(0) committed */
	text = sh("git -C '%s' show HEAD:state.yaml | grep dice_chain", dir);
	assert_has(text, "  dice_chain: {from_turn: 2, commitment: \"");
	free(text);
	/* the umpire of the state (game.umpire), not the author of the
	 * turns before it */
	text = sh("git -C '%s' log -1 --format='%%an <%%ae>|%%cn <%%ce>'",
	    dir);
	assert_string_equal(text, "Test Umpire <umpire@example.org>|"
	    "Test Umpire <umpire@example.org>\n");
	free(text);
	/* a second time: nothing to do */
	EXPECT(0, crown_cmd_upgrade, dir, "--rules", RULES);
	text = sh("cp -a '%s' '%s' && echo ok", dir, copy);
	assert_string_equal(text, "ok\n");
	free(text);

	turn2(dir);
	RUN(&r, crown_cmd_log, dir);
	assert_has(r.out, "upgrade ");
	run_release(&r);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 69);
	assert_has(r.out, ": ok: format 1 to 3, rules.yaml only gains "
	    "lines; the dice chain begins at turn 2 (the turns before: "
	    "format 1, dice checked at the reveal)\n" VK(2) "verify: 2 "
	    "turns written in format 1 not "
	    "replayed: this crown writes format 3, and a replay byte for "
	    "byte needs a crown of format 1 (the first release); the 1 "
	    "other is sound\n");
	run_release(&r);

	/* an upgrade that changes a rule is no upgrade */
	line = line_of(copy, "rules.yaml", "  rout_radius: 12");
	tamper(copy, "rules.yaml", line, "  rout_radius: 6");
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, ": rules.yaml:1: differs: an upgrade only adds "
	    "lines to it\nverify: the campaign differs from its replay\n");
	run_release(&r);
	free(copy);
	free(dir);
}

/* A campaign of a newer format than this crown's is refused, and verify
 * says which format it is in. */
/*
 * A campaign the second release wrote (format 2): crown turn refuses it
 * until crown upgrade carries it on, since this crown does not replay a
 * format-2 turn and one played on it would be checked by no crown; then
 * the campaign plays on, and verify says which turns it did not replay
 * (exit 69).
 */
static void
test_format_two(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("p"), *text, *want;

	new_campaign(dir);
	turn1(dir);
	tamper(dir, "format.yaml", 1, "format: 2");
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "turn-1:format.yaml: error: the campaign is in "
	    "format 2 (an older crown); this crown reads and writes format 3: "
	    "'crown upgrade ");
	run_release(&r);
	/* the chain of the turns to come needs the secret: without it, no
	 * upgrade and nothing committed */
	text = sh("mv '%s/.git/crown-secret' '%s/secret' && git -C '%s' "
	    "rev-parse main", dir, base, dir);
	RUN(&r, crown_cmd_upgrade, dir, "--rules", RULES, "--date",
	    "2026-03-14");
	assert_int_equal(r.status, 66);
	assert_has(r.err, "cannot upgrade: the dice chain of the turns to "
	    "come is seeded from the campaign secret");
	run_release(&r);
	want = sh("git -C '%s' rev-parse main && mv '%s/secret' "
	    "'%s/.git/crown-secret'", dir, base, dir);
	assert_string_equal(text, want);
	free(want);
	free(text);
	RUN(&r, crown_cmd_upgrade, dir, "--rules", RULES, "--date",
	    "2026-03-14");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "upgraded from format 2 to 3");
	run_release(&r);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 69);
	assert_has(r.out, "turn 1: not replayed (format 2: dice checked at "
	    "reveal): this crown writes format 3");
	assert_has(r.out, VK(2));
	run_release(&r);

	/* a player's clone: which turns are checked how */
	text = sh("git clone -q '%s' '%s' 2>&1 && echo ok", dir, clone);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_verify, clone, "--templates", TMPL);
	assert_int_equal(r.status, 69);
	assert_has(r.out, "turn 1: not replayed (format 2: dice checked at "
	    "reveal): this crown writes format 3");
	assert_has(r.out, ": ok: format 2 to 3, rules.yaml only gains lines; "
	    "the dice chain begins at turn 2 (the turns before: format 2, "
	    "dice checked at the reveal)\n" VK(2));
	run_release(&r);
	/* turn 2 is the chain's first: its key hashes once to k(0), the
	 * commitment of game.dice_chain (hashlib) */
	text = sh("cd '%s' && python3 -c 'import hashlib, sys; "
	    "print(hashlib.sha256(bytes.fromhex(sys.argv[1])).hexdigest())' "
	    "$(git show main:turns/turn-002/dice-key) && git show "
	    "main:state.yaml | sed -n 's/.*dice_chain: {from_turn: 2, "
	    "commitment: \"*\\([0-9a-f]*\\).*/\\1/p'", clone);
	assert_int_equal(strlen(text), 130);
	assert_memory_equal(text, text + 65, 65);
	free(text);
	/* a chain not of the campaign secret, found with the secret */
	tamper_commits(clone, 2, "state.yaml", line_of(clone, "state.yaml",
	    "  dice_chain: "), "  dice_chain: {from_turn: 2, commitment: "
	    "\"0000000000000000000000000000000000000000000000000000000000"
	    "000000\"}", true);
	RUN(&r, crown_cmd_verify, clone, "--templates", TMPL, "--secret-file",
	    SECRET);
	assert_int_equal(r.status, 65);
	assert_has(r.out, ": state.yaml:1: differs: game.dice_chain is not "
	    "the chain of the campaign secret\n");
	run_release(&r);
	free(clone);
	free(dir);
}

static void
test_format_newer(void **state)
{
	struct run	 r;
	char		*dir = path("c");

	new_campaign(dir);
	turn1(dir);
	tamper(dir, "format.yaml", 1, "format: 4");
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "turn-1:format.yaml: error: the campaign is in "
	    "format 4, written by a newer crown; this crown reads and writes "
	    "format 3\n");
	run_release(&r);
	RUN(&r, crown_cmd_upgrade, dir);
	assert_int_equal(r.status, 65);
	run_release(&r);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 69);
	assert_has(r.out, V0 "turn 1: not replayed: written in "
	    "format 4; this crown writes format 3");
	run_release(&r);
	free(dir);
}

/* The upgrade of the rules as text: what it adds, where, and what it
 * cannot add. */
static void
test_upgrade_rules(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_buf	 out = { 0 };
	struct crown_rules	*rules = NULL;
	char			*old = tu_slurp("tests/data/rules-format1.yaml");
	char			*cur = tu_slurp(RULES), *added, *p, *q;
	const char		*flow = "id: x\nR9.8: {max_rounds: 4}\n";
	const char		*flow2 = "id: x\nR9.8: {max_rounds: 4, "
				    "part_retire_moves: 1}\n";

	(void)state;
	assert_int_equal(crown_campaign_upgrade_rules(&out, &added, "r",
	    old, strlen(old), cur, strlen(cur), &d), 0);
	assert_string_equal(added, "dice, R4.7, R5.1, R6.2.die, "
	    "R7.1.test_die, R8.4.die, R9.1, R9.5.die, R9.8.part_retire_moves, "
	    "R12.1.die, R13.1.hundredths");
	assert_int_equal(crown_rules_parse(&rules, "r", out.data, out.len,
	    &d), 0);
	assert_no_diags(&d);
	/* every line of the old rules, in order, whole */
	for (p = old, q = out.data; *p != '\0'; p = strchr(p, '\n') + 1) {
		size_t n = (size_t)(strchr(p, '\n') - p) + 1;

		while (*q != '\0' && (strncmp(q, p, n) != 0))
			q = strchr(q, '\n') + 1;
		assert_true(*q != '\0');
		q += n;
	}
	/* dice in front of R1.1, with its comment; a key at its section's
	 * end */
	assert_has(out.data, "dice:\n  D10: \"0-9\"\n  D6: \"1-6\"\n\n"
	    "# How big things are");
	assert_has(out.data, "R9.8:\n  max_rounds: 4\n  part_retire_moves: "
	    "1\n");
	crown_rules_free(rules);
	crown_buf_release(&out);
	free(added);
	/* a flow map cannot take a key as text */
	assert_int_equal(crown_campaign_upgrade_rules(&out, &added, "r",
	    flow, strlen(flow), flow2, strlen(flow2), &d), CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	assert_has(d.v[0].msg, "cannot add 'R9.8.part_retire_moves' here");
	assert_null(added);
	crown_diags_release(&d);
	crown_buf_release(&out);
	free(old);
	free(cur);
}

/*
 * A campaign copied with cp has new inodes and times: the first command
 * that checks the work tree hashes it and writes the index back, so that
 * the next does not hash it again (issue 23).  The index's inode of a
 * file no turn rewrites is the file's after one turn in the copy.
 */
static void
test_copied_campaign(void **state)
{
	char	*dir = path("c"), *copy = path("d"), *text, *want;

	new_campaign(dir);
	turn1(dir);
	text = sh("cp -a '%s' '%s' && echo ok", dir, copy);
	assert_string_equal(text, "ok\n");
	free(text);
	turn2(copy);
	assert_clean(copy);
	text = sh("git -C '%s' ls-files --debug scenario.yaml | "
	    "sed -n 's/.*ino: //p'", copy);
	want = sh("stat -c %%i '%s/scenario.yaml'", copy);
	assert_string_equal(text, want);
	free(want);
	free(text);
	free(copy);
	free(dir);
}

/*
 * After its commit crown turn writes the turn's files from memory, not
 * through a checkout that reads them back (issue 23): the work tree and
 * index are HEAD's, and a link planted where a file goes is replaced,
 * what it points to left alone.
 */
static void
test_turn_writes_files(void **state)
{
	char	*dir = path("c"), *outside = path("outside"), *text;

	new_campaign(dir);
	text = sh("mkdir -p '%s/turns/turn-001' && echo keep > '%s' && "
	    "ln -s '%s' '%s/turns/turn-001/report.md' && echo ok", dir,
	    outside, outside, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	turn1(dir);
	assert_clean(dir);
	assert_fsck(dir);
	text = tu_slurp(outside);
	assert_string_equal(text, "keep\n");
	free(text);
	text = sh("test -L '%s/turns/turn-001/report.md' || echo file", dir);
	assert_string_equal(text, "file\n");
	free(text);
	turn2(dir);
	assert_clean(dir);
	free(outside);
	free(dir);
}

/*
 * A shallow clone (git clone --depth 1) holds the last commit without
 * its parent: crown log says which commit's parent is missing.
 */
static void
test_shallow_clone(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("s"), *text, *want;
	char		 id[CROWN_OID_HEX + 1];

	new_campaign(dir);
	turn1(dir);
	turn2(dir);
	ref_id(id, dir, CROWN_MAIN_REF);
	text = sh("git clone -q --depth 1 'file://%s' '%s' 2>&1 && echo ok",
	    dir, clone);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_log, clone);
	assert_int_not_equal(r.status, 0);
	want = xasprintf("cannot read the parent of %s", id);
	assert_has(r.err, want);
	free(want);
	run_release(&r);
	free(clone);
	free(dir);
}

static void
test_player_clone(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("p");
	char		*clone2 = path("q");
	char		*text, *p;

	new_campaign(dir);
	turn1(dir);
	turn2(dir);
	text = sh("git clone -q '%s' '%s' 2>&1 && echo ok", dir, clone);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_verify, clone, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	/* every die replayed, from each turn's key: no secret needed */
	assert_string_equal(r.out, V0 VK(1) VK(2) "verify: 3 turns match the "
	    "replay (dice from each turn's key; no secret needed)\n");
	run_release(&r);
	RUN(&r, crown_cmd_show, clone, "1", "--side", "french");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "Foreign Legion");
	run_release(&r);
	/* a clone cannot play: it has no secret */
	EXPECT(66, crown_cmd_turn, clone, "--templates", TMPL,
	    "--allow-missing");

	EXPECT(0, crown_cmd_reveal, dir, "--date", "2026-04-01");
	text = sh("git -C '%s' show reveal:secret.hex", dir);
	assert_string_equal(text, "000102030405060708090a0b0c0d0e0f1011121314"
	    "15161718191a1b1c1d1e1f\n");
	free(text);
	assert_clean(dir);
	assert_fsck(dir);
	EXPECT(65, crown_cmd_reveal, dir);
	/* a turn after the reveal refuses before it touches anything: the
	 * repair would remove these orders, which turn 2 holds (issue 20) */
	text = sh("cp %s/republic-2.yaml '%s/orders/pending/' && echo ok",
	    DATA, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	p = xasprintf("%s: error: the campaign secret was revealed after "
	    "turn 2: the game is over\n", dir);
	assert_string_equal(r.err, p);
	free(p);
	run_release(&r);
	p = xasprintf("%s/orders/pending/republic-2.yaml", dir);
	assert_true(exists(p));
	unlink(p);
	free(p);
	text = sh("git clone -q '%s' '%s' 2>&1 && echo ok", dir, clone2);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_verify, clone2, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, V0 VK(1) VK(2)
	    "reveal: ok: the secret matches the commitment of turn 0\n"
	    "verify: 3 turns match the replay " VSECRET " "
	    "secret.hex)\n");
	run_release(&r);
	RUN(&r, crown_cmd_log, clone2);
	assert_has(r.out, "\nreveal    2026-04-01  ");
	run_release(&r);
	free(clone2);
	free(clone);
	free(dir);
}

static void
test_rerun_adopt(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];
	char		 branch[CROWN_OID_HEX + 1], id[CROWN_OID_HEX + 1];

	new_campaign(dir);
	turn1(dir);
	turn2(dir);
	ref_id(before, dir, CROWN_MAIN_REF);
	RUN(&r, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20", "--reason", "the militia's orders were misfiled");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "rerun of turn 1 on rerun/turn-1 (main is "
	    "untouched):\nturn 1: ");
	assert_has(r.out, "turn 2: skipped the orders of 'Militia of "
	    "Veracruz' (orders/turn-002/republic.yaml:5): '2-militia' is not "
	    "loaded: reload before firing (R3.6)\n");
	assert_has(r.out, "  Militia of Veracruz (2-militia): line -> "
	    "column");
	run_release(&r);
	/* main untouched, the branch holds the new line */
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(before, after);
	ref_id(branch, dir, "refs/heads/rerun/turn-1");
	assert_int_equal(strlen(branch), CROWN_OID_HEX);
	text = sh("git -C '%s' show rerun/turn-1:orders/turn-002/"
	    "republic.yaml", dir);
	assert_string_equal(text, "game: Test Campaign\nturn: 2\nside: "
	    "republic\norders:\n- unit: 3-cav\n  actions:\n  - hold\n");
	free(text);
	text = sh("git -C '%s' show rerun/turn-1:orders/turn-001/"
	    "french.yaml", dir);
	assert_has(text, "- unit: 1-legion");
	free(text);
	assert_clean(dir);

	EXPECT(2, crown_cmd_adopt, dir, "main");
	EXPECT(66, crown_cmd_adopt, dir, "rerun/turn-2");
	EXPECT(2, crown_cmd_adopt, dir, "rerun/turn-1", "--reason",
	    "two\nlines");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21", "--reason", "agreed by both players");
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(after, branch);
	ref_id(id, dir, "refs/tags/turn-2");
	assert_string_equal(id, branch);
	ref_id(id, dir, "refs/heads/rerun/turn-1");
	assert_string_equal(id, "");
	text = sh("git -C '%s' rev-parse 'replaced/turn-1^{commit}'", dir);
	assert_int_equal(strncmp(text, before, CROWN_OID_HEX), 0);
	free(text);
	text = sh("git -C '%s' cat-file -p replaced/turn-1 | sed -n 3,4p",
	    dir);
	assert_string_equal(text, "tag replaced/turn-1\ntagger Test Umpire "
	    "<umpire@example.org> 1774051200 +0000\n");
	free(text);
	/* the reasons on the record (issue 20) */
	text = sh("git -C '%s' log -1 --format=%%b turn-1", dir);
	assert_has(text, "\nReason: the militia's orders were misfiled\n");
	free(text);
	text = sh("git -C '%s' cat-file -p replaced/turn-1", dir);
	assert_has(text, "\nReason: agreed by both players\n");
	free(text);
	RUN(&r, crown_cmd_log, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "  no casualties  [rerun: the militia's orders were "
	    "misfiled; adopted: agreed by both players]\nturn 2    ");
	assert_has(r.out, "  [replayed: rerun of turn 1]\n");
	run_release(&r);
	assert_clean(dir);
	assert_fsck(dir);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	/* a second rerun and adoption keeps both old lines */
	EXPECT(0, crown_cmd_rerun, dir, "2", DATA "/republic-2-amended.yaml",
	    "--templates", TMPL, "--date", "2026-03-22");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-2", "--date",
	    "2026-03-23");
	ref_id(id, dir, "refs/tags/replaced/turn-2");
	assert_int_equal(strlen(id), CROWN_OID_HEX);
	/* without reasons: marked all the same */
	RUN(&r, crown_cmd_log, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "  [rerun: the militia's orders were misfiled; "
	    "adopted: agreed by both players]\nturn 2    ");
	assert_has(r.out, "casualties  [rerun]\n");
	run_release(&r);
	EXPECT(65, crown_cmd_rerun, dir, "3", DATA "/republic-2.yaml",
	    "--templates", TMPL);
	EXPECT(65, crown_cmd_rerun, dir, "1", DATA "/republic-2.yaml",
	    "--templates", TMPL);
	free(dir);
}

/*
 * Issue 34: rerun and adopt keep the --every schedule (the adopted turn's
 * deadline is the one crown turn set), and adopt mails every player the
 * adopted turn's report, the next orders form and the reason.
 */
static void
test_adopt_keeps_schedule(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;

	(void)state;
	new_campaign(dir);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-07T18:00:00Z", "--every",
	    "7d", "--date", "2026-03-02");
	turn1(dir);
	turn2(dir);
	text = sh("git -C '%s' show turn-2:state.yaml | grep '^  deadline:'",
	    dir);
	assert_string_equal(text, "  deadline: \"2026-03-21T18:00:00Z\"\n");
	free(text);
	/* a rerun of turn 1 replays turn 2: each keeps its deadline */
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-16");
	text = sh("for t in rerun/turn-1~1 rerun/turn-1; do git -C '%s' show "
	    "$t:state.yaml | grep '^  deadline:'; done", dir);
	assert_string_equal(text, "  deadline: \"2026-03-14T18:00:00Z\"\n"
	    "  deadline: \"2026-03-21T18:00:00Z\"\n");
	free(text);
	/* the trial's: the last turn rerun and adopted */
	EXPECT(0, crown_cmd_rerun, dir, "2", DATA "/republic-2-amended.yaml",
	    "--templates", TMPL, "--date", "2026-03-16", "--reason",
	    "the militia's orders were misfiled");
	text = sh("rm -f '%s'/outbox/new/* && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-2", "--date",
	    "2026-03-16T12:00:00Z", "--reason", "agreed by both players");
	RUN(&r, crown_cmd_status, dir, "--now", "2026-03-17T12:00:00Z");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "orders for turn 3, deadline 2026-03-21T18:00:00Z "
	    "(in 4d 6h 00m)\n");
	run_release(&r);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	/* every player told: the report, the form of turn 3, the reasons */
	text = sh("cd '%s/outbox/new' && ls | wc -l && grep -h '^To: \\|"
	    "^Subject: ' * | sort && grep -l 'filename=orders.yaml' * | "
	    "wc -l && grep -h '^turn: \\|^Orders for turn' * | sort | uniq -c",
	    dir);
	assert_string_equal(text, "2\nSubject: [Test Campaign] Turn 2, "
	    "played again: report for Foreign Legion\nSubject: [Test "
	    "Campaign] Turn 2, played again: report for Mexican Republic\n"
	    "To: Francisco Milan <milan@example.org>\n"
	    "To: Jean Danjou <danjou@example.org>\n2\n"
	    "      2 Orders for turn 3 are due by 2026-03-21T18:00:00Z (UTC).\n"
	    "      2 turn: 3\n");
	free(text);
	text = sh("cd '%s/outbox/new' && for f in *; do perl -0pe "
	    "'s/=\\n//g; s/\\n/ /g' \"$f\" | grep -o 'Turn 2 was played "
	    "again: .* Adopted: agreed by both players\\.'; done | uniq -c",
	    dir);
	assert_string_equal(text, "      2 Turn 2 was played again: this "
	    "report of turn 2 replaces the one you had, and the orders form "
	    "attached, for turn 3, the one sent with it. Why: the militia's "
	    "orders were misfiled. Adopted: agreed by both players.\n");
	free(text);
	/* mail for turn 3 before that deadline is in time */
	text = sh("m='%s/mail' && mkdir -p \"$m/new\" \"$m/cur\" \"$m/tmp\" && "
	    "printf 'From: Jean Danjou <danjou@example.org>\\nTo: "
	    "umpire@example.org\\nSubject: orders\\nMessage-ID: "
	    "<t3@example.org>\\n\\ngame: Test Campaign\\nturn: 3\\nside: "
	    "french\\norders:\\n  - unit: 1-legion\\n    actions: [hold]\\n' "
	    ">\"$m/new/1773835200.M1P1.host\" && echo ok", base);
	assert_string_equal(text, "ok\n");
	free(text);
	text = path("mail");
	RUN(&r, crown_cmd_inbox, dir, text, "--now", "2026-03-18T13:00:00Z");
	free(text);
	assert_int_equal(r.status, 0);
	assert_has(r.out, ": accepted: side french, turn 3");
	run_release(&r);
	assert_clean(dir);
	free(dir);
}

/*
 * Issue 34, housekeeping: crown turn removes, after its commit, what it
 * makes obsolete (the late orders of the turn it plays, the proofs of
 * the pending orders it played) and leaves what is not crown's; what a
 * killed run left is removed by the next writing command's repair.
 */
static void
test_turn_tidies(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;

	(void)state;
	new_campaign(dir);
	text = sh("d='%s' && mkdir -p \"$d/orders/late\" && cp " DATA
	    "/french-1.yaml \"$d/orders/pending/french.yaml\" && cp " DATA
	    "/republic-1.yaml \"$d/orders/pending/republic.yaml\" && echo "
	    "\"$(sha256sum <\"$d/orders/pending/french.yaml\" | cut -c1-64) "
	    "from\" >\"$d/orders/pending/french.proof\" && cp " DATA
	    "/republic-1-amended.yaml \"$d/orders/late/republic.yaml\" && "
	    "echo '{{{' >\"$d/orders/late/junk.yaml\" && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_status, dir, "--now", "2026-03-02T00:00:00Z");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "; later orders came late (orders/late/republic.yaml: "
	    "played only if moved to orders/pending/ in place of these; crown "
	    "turn removes it)\n");
	assert_has(r.out, "  orders/late/junk.yaml cannot be read as orders of "
	    "a turn: left alone\n");
	run_release(&r);
	EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-08");
	text = sh("cd '%s' && ls -A orders/pending orders/late", dir);
	assert_string_equal(text, "orders/late:\njunk.yaml\n\n"
	    "orders/pending:\n");
	free(text);
	assert_clean(dir);
	/* left by a run killed after its commit: the next writing command
	 * removes them */
	text = sh("d='%s' && cp " DATA "/republic-1-amended.yaml "
	    "\"$d/orders/late/republic.yaml\" && echo '00 from' "
	    ">\"$d/orders/pending/french.proof\" && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_status, dir, "--now", "2026-03-09T00:00:00Z");
	assert_has(r.out, "  orders/late/republic.yaml: late orders of turn "
	    "1, which is played: obsolete, removed by crown's next writing "
	    "command\n  orders/pending/french.proof: the proof of orders no "
	    "longer pending: obsolete, removed by crown's next writing "
	    "command\n");
	run_release(&r);
	RUN(&r, crown_cmd_deadline, dir, "+7d", "--date", "2026-03-09");
	assert_int_equal(r.status, 0);
	assert_has(r.err, "/orders/late/republic.yaml: its turn is played\n");
	assert_has(r.err, "/orders/pending/french.proof: the orders it is the "
	    "proof of are gone\n");
	run_release(&r);
	text = sh("cd '%s' && ls -A orders/pending orders/late", dir);
	assert_string_equal(text, "orders/late:\njunk.yaml\n\n"
	    "orders/pending:\n");
	free(text);
	free(dir);
}

/*
 * Issue 19, dice nobody can know before the orders are in: a turn's dice
 * are keyed by the secret and a salt of the accepted orders files,
 * recorded as turns/turn-NNN/dice-salt.
 */
#define VOLLEYS	"game: Test Campaign\nturn: 1\nside: french\norders:\n" \
	"  - unit: 1-legion\n" \
	"    actions: [fire: 2-militia, reload, fire: 2-militia]\n"

static char *
put_file(const char *name, const char *text)
{
	char	*p = path(name);
	FILE	*fp;

	assert_non_null(fp = fopen(p, "w"));
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	return p;
}

/* A campaign of its own whose turn 1 has these orders. */
static char *
volleys(const char *name, const char *french, const char *republic)
{
	char	*dir = path(name);

	new_campaign(dir);
	EXPECT(0, crown_cmd_turn, dir, french, republic, "--templates", TMPL,
	    "--date", "2026-03-08");
	return dir;
}

static char *
salt_at(const char *dir, const char *ref)
{
	return sh("git -C '%s' show '%s:turns/turn-001/dice-salt'", dir, ref);
}

/* The Legion's fire dice of turn 1 at ref, as rolled. */
static char *
fire_rolls(const char *dir, const char *ref)
{
	return sh("git -C '%s' show '%s:turns/turn-001/events.yaml' | "
	    "grep 'for: fire' | grep -o 'roll: [0-9]*'", dir, ref);
}

static void
test_dice_salt(void **state)
{
	struct run		 r;
	struct crown_salt_part	 parts[2];
	unsigned char		 salt[CROWN_SALT_BYTES];
	char			*french = put_file("french.yaml", VOLLEYS);
	char			*seeded = put_file("seeded.yaml", VOLLEYS
				    "seed: \"my own entropy\"\n");
	char			*rep, *rep1, *a, *b, *c, *clone;
	char			*sa, *sb, *sc, *da, *db, *dc, *hex, *line;

	rep = tu_slurp(DATA "/republic-1.yaml");
	line = xasprintf("%s\n", rep);
	/* one byte more, the same orders */
	rep1 = put_file("republic-1.yaml", line);
	free(line);
	a = volleys("a", french, DATA "/republic-1.yaml");
	b = volleys("b", french, rep1);
	c = volleys("c", seeded, DATA "/republic-1.yaml");

	/* recorded: the salt of the two files as committed (dice.c) */
	sa = salt_at(a, "main");
	line = tu_slurp(french);
	parts[0] = (struct crown_salt_part){ "republic", rep, strlen(rep) };
	parts[1] = (struct crown_salt_part){ "french", line, strlen(line) };
	crown_dice_salt(salt, 1, parts, 2);
	hex = crown_campaign_secret_hex(salt);
	assert_string_equal(sa, hex);
	free(hex);
	free(line);
	da = fire_rolls(a, "main");
	assert_int_equal(strlen(da), 6 * strlen("roll: 0\n"));

	/* a byte of one side's file, or the other side's seed: other
	 * dice */
	sb = salt_at(b, "main");
	sc = salt_at(c, "main");
	assert_string_not_equal(sa, sb);
	assert_string_not_equal(sa, sc);
	db = fire_rolls(b, "main");
	dc = fire_rolls(c, "main");
	assert_string_not_equal(da, db);
	assert_string_not_equal(da, dc);

	/* verify recomputes it, with the secret and without */
	EXPECT(0, crown_cmd_verify, b, "--templates", TMPL);
	RUN(&r, crown_cmd_verify, a, "--templates", TMPL);
	assert_string_equal(r.out, V0 VK(1) "verify: 2 turns "
	    "match the replay " VSECRET " .git/crown-secret)\n");
	run_release(&r);
	line = xstrndup(sb, 64);
	tamper(a, "turns/turn-001/dice-salt", 1, line);
	free(line);
	RUN(&r, crown_cmd_verify, a, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_string_equal(r.out, V0
	    "turn 1: turns/turn-001/dice-salt:1: differs\n"
	    "verify: the campaign differs from its replay\n");
	run_release(&r);
	clone = path("p");
	line = sh("git clone -q '%s' '%s' 2>&1 && echo ok", a, clone);
	assert_string_equal(line, "ok\n");
	free(line);
	RUN(&r, crown_cmd_verify, clone, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "turn 1: turns/turn-001/dice-salt:1: differs\n");
	run_release(&r);

	free(clone);
	free(da);
	free(db);
	free(dc);
	free(sa);
	free(sb);
	free(sc);
	free(a);
	free(b);
	free(c);
	free(rep);
	free(rep1);
	free(seeded);
	free(french);
}

/*
 * The dice chain (issue 35): the keys each turn commits, worked out
 * again here with Python's hashlib from the secret: k(t) is SHA-256
 * 4096 - t times over it, t times more is the commitment.  argv[1] is the
 * campaign, argv[2] the secret's file, argv[3] the last turn.
 */
static const char chain_py[] =
    "import hashlib, subprocess, sys\n"
    "d, sec, last = sys.argv[1], sys.argv[2], int(sys.argv[3])\n"
    "def sha(k, n):\n"
    "    for _ in range(n):\n"
    "        k = hashlib.sha256(k).digest()\n"
    "    return k\n"
    "def show(p):\n"
    "    return subprocess.run([\"git\", \"-C\", d, \"show\",\n"
    "        \"main:\" + p], capture_output=True, text=True,\n"
    "        check=True).stdout\n"
    "s = bytes.fromhex(open(sec).read().strip())\n"
    "st = show(\"state.yaml\")\n"
    "c = st.split(\"dice_commitment: \")[1].split()[0].strip(\"\\\"\")\n"
    "assert c == sha(s, 4096).hex(), \"commitment\"\n"
    "for t in range(1, last + 1):\n"
    "    k = show(\"turns/turn-%03d/dice-key\" % t)\n"
    "    assert k == sha(s, 4096 - t).hex() + \"\\n\", t\n"
    "    assert sha(bytes.fromhex(k), t).hex() == c, t\n"
    "print(\"chain ok\", last)\n";

/* Run chain_py on the campaign at dir up to turn last: its output. */
static char *
chain_check(const char *dir, int last)
{
	char	*py = path("chain.py"), *text;
	FILE	*fp;

	assert_non_null(fp = fopen(py, "w"));
	fputs(chain_py, fp);
	assert_int_equal(fclose(fp), 0);
	text = sh("python3 '%s' '%s' '%s' %d 2>&1", py, dir, SECRET, last);
	free(py);
	return text;
}

/*
 * Dice anyone can check after every turn: a player's clone, without the
 * secret, replays every turn's dice from the turn's key after each turn;
 * the keys are those of the chain (checked by hashlib); a forged key and
 * a replaced roll are differences (65) naming the turn.
 */
static void
test_dice_chain(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *clone = path("p");
	char		*copy = path("q"), *text, *want, *roll;
	unsigned	 line;
	int		 k;

	new_campaign(dir);
	turn1(dir);
	text = sh("git clone -q '%s' '%s' 2>&1 && echo ok", dir, clone);
	assert_string_equal(text, "ok\n");
	free(text);
	for (k = 1; k <= 3; k++) {
		if (k == 2)
			turn2(dir);
		else if (k == 3)
			EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL,
			    "--date", "2026-03-22", "--allow-missing");
		text = sh("git -C '%s' pull -q 2>&1 && echo ok", clone);
		assert_string_equal(text, "ok\n");
		free(text);
		RUN(&r, crown_cmd_verify, clone, "--templates", TMPL);
		assert_int_equal(r.status, 0);
		want = xasprintf("turn %d: ok (dice: replayed from the turn's "
		    "key)\nverify: %d turns match the replay (dice from each "
		    "turn's key; no secret needed)\n", k, k + 1);
		assert_has(r.out, want);
		free(want);
		run_release(&r);
		text = chain_check(clone, k);
		want = xasprintf("chain ok %d\n", k);
		assert_string_equal(text, want);
		free(want);
		free(text);
	}
	/* the test's own check fails on a wrong key */
	text = sh("git clone -q '%s' '%s' 2>&1 && echo ok", clone, copy);
	assert_string_equal(text, "ok\n");
	free(text);
	tamper_at(copy, 2, "turns/turn-002/dice-key", 1, "0000000000000000"
	    "000000000000000000000000000000000000000000000000");
	text = chain_check(copy, 3);
	assert_null(strstr(text, "chain ok"));
	free(text);
	/* a forged key: it does not chain back to the commitment */
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, V0 VK(1) "turn 2: turns/turn-002/dice-key:1: "
	    "differs: the key does not chain back to the dice commitment\n"
	    "verify: the campaign differs from its replay\n");
	run_release(&r);
	/* a later turn's key in an earlier turn: no more use */
	text = sh("rm -rf '%s' && git clone -q '%s' '%s' 2>&1 && echo ok",
	    copy, clone, copy);
	assert_string_equal(text, "ok\n");
	free(text);
	text = sh("git -C '%s' show main:turns/turn-003/dice-key | tr -d "
	    "'\\n'", copy);
	tamper_at(copy, 2, "turns/turn-002/dice-key", 1, text);
	free(text);
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.out, "turn 2: turns/turn-002/dice-key:1: differs: the "
	    "key does not chain back to the dice commitment\n");
	run_release(&r);
	/* a roll replaced in the events: the key's dice say otherwise */
	text = sh("rm -rf '%s' && git clone -q '%s' '%s' 2>&1 && echo ok",
	    copy, clone, copy);
	assert_string_equal(text, "ok\n");
	free(text);
	text = sh("git -C '%s' checkout -q turn-2 2>&1 && echo ok", copy);
	assert_string_equal(text, "ok\n");
	free(text);
	line = line_of(copy, "turns/turn-002/events.yaml", "  - {die: ");
	text = sh("sed -n %up '%s/turns/turn-002/events.yaml' | tr -d '\\n'",
	    line, copy);
	assert_non_null(roll = strstr(text, "roll: "));
	roll += strlen("roll: ");
	*roll = *roll == '9' ? '0' : (char)(*roll + 1);
	free(sh("git -C '%s' checkout -q main", copy));
	tamper_at(copy, 2, "turns/turn-002/events.yaml", line, text);
	free(text);
	RUN(&r, crown_cmd_verify, copy, "--templates", TMPL);
	assert_int_equal(r.status, 65);
	want = xasprintf(V0 VK(1) "turn 2: turns/turn-002/events.yaml:%u: "
	    "differs\nverify: the campaign differs from its replay\n", line);
	assert_string_equal(r.out, want);
	free(want);
	run_release(&r);
	free(copy);
	free(clone);
	free(dir);
}

/* A rerun keeps the salt: an amended order changes only the rolls it
 * touches, and verify finds the salt of an adopted rerun's turn in the
 * turn it replaced. */
static void
test_rerun_keeps_salt(void **state)
{
	struct run	 r;
	char		*french = put_file("french.yaml", VOLLEYS);
	char		*dir, *fresh, *s1, *s2, *s3, *d1, *d2, *d3;

	dir = volleys("c", french, DATA "/republic-1.yaml");
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20");
	s1 = salt_at(dir, "main");
	s2 = salt_at(dir, "rerun/turn-1");
	assert_string_equal(s1, s2);
	/* and the turn's key of the dice chain */
	d1 = sh("git -C '%s' show main:turns/turn-001/dice-key", dir);
	d2 = sh("git -C '%s' show rerun/turn-1:turns/turn-001/dice-key", dir);
	assert_int_equal(strlen(d1), 65);
	assert_string_equal(d1, d2);
	free(d1);
	free(d2);
	/* the Legion's orders were not amended: its dice stand */
	d1 = fire_rolls(dir, "main");
	d2 = fire_rolls(dir, "rerun/turn-1");
	assert_string_equal(d1, d2);
	/* which they would not with the amended orders' own salt */
	fresh = volleys("f", french, DATA "/republic-1-amended.yaml");
	s3 = salt_at(fresh, "main");
	d3 = fire_rolls(fresh, "main");
	assert_string_not_equal(s1, s3);
	assert_string_not_equal(d1, d3);

	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21");
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "turn 1: ok (dice: replayed from the turn's key; "
	    "the dice salt of turn 1 of "
	    "replaced/turn-1)\n");
	run_release(&r);
	RUN(&r, crown_cmd_verify, fresh, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, VK(1));
	run_release(&r);

	free(d1);
	free(d2);
	free(d3);
	free(s1);
	free(s2);
	free(s3);
	free(fresh);
	free(dir);
	free(french);
}

/* Someone checked out another branch in the campaign: the next command
 * puts HEAD back on main and the work tree with it. */
static void
test_repair_head(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;

	new_campaign(dir);
	turn1(dir);
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL);
	text = sh("git -C '%s' checkout -q rerun/turn-1 2>&1 && echo ok",
	    dir);
	assert_string_equal(text, "ok\n");
	free(text);
	/* the repair's notes, printed before the command's output */
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(r.status, 0);
	print_message("%s", r.err);
	assert_has(r.err, "crown: HEAD was not on main; it is again\n");
	run_release(&r);
	text = sh("git -C '%s' symbolic-ref HEAD", dir);
	assert_string_equal(text, "refs/heads/main\n");
	free(text);
	assert_clean(dir);
	text = sh("git -C '%s' show HEAD:orders/turn-001/republic.yaml", dir);
	assert_has(text, "actions: [reload]");
	free(text);
	free(dir);
}

static void
test_publish(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *bare = path("b.git");
	char		*clone = path("p"), *text;
	char		 id[CROWN_OID_HEX + 1];

	new_campaign(dir);
	turn1(dir);
	text = sh("git init -q --bare --initial-branch=main '%s' && echo ok",
	    bare);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_publish, dir, bare);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "published turn 1 and 2 tags to");
	run_release(&r);
	ref_id(id, dir, CROWN_MAIN_REF);
	text = sh("git -C '%s' rev-parse main turn-1", bare);
	assert_int_equal(strncmp(text, id, CROWN_OID_HEX), 0);
	assert_int_equal(strncmp(text + CROWN_OID_HEX + 1, id,
	    CROWN_OID_HEX), 0);
	free(text);
	/* the remote is remembered as origin */
	turn2(dir);
	EXPECT(0, crown_cmd_publish, dir);
	text = sh("git clone -q '%s' '%s' 2>&1 && "
	    "git -C '%s' log --format=%%s", bare, clone, clone);
	assert_string_equal(text, "Turn 2: 2 casualties\nTurn 1: no "
	    "casualties\nTurn 0: Test Campaign, Foreign Legion against "
	    "Mexican Republic\n");
	free(text);
	RUN(&r, crown_cmd_verify, clone, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	run_release(&r);
	/* after an adoption main is pushed again, with force */
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20");
	EXPECT(2, crown_cmd_adopt, dir, "rerun/turn-1", "--reason",
	    "two\nlines");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21", "--reason", "agreed by both players");
	EXPECT(0, crown_cmd_publish, dir, "origin");
	ref_id(id, dir, CROWN_MAIN_REF);
	text = sh("git -C '%s' rev-parse main replaced/turn-1", bare);
	assert_int_equal(strncmp(text, id, CROWN_OID_HEX), 0);
	free(text);
	EXPECT(66, crown_cmd_publish, dir, "nowhere");
	free(clone);
	free(bare);
	free(dir);
}

/* The lock file naming pid on host (this one when NULL) as its holder. */
static void
put_lock(const char *lock, long pid, const char *host)
{
	char	 me[256];
	FILE	*fp;

	if (host == NULL) {
		assert_int_equal(gethostname(me, sizeof(me)), 0);
		me[sizeof(me) - 1] = '\0';
		host = me;
	}
	assert_non_null(fp = fopen(lock, "w"));
	fprintf(fp, "%ld %s crown turn c\n", pid, host);
	fclose(fp);
}

/* Hold the campaign's lock at path as another run would (an flock of
 * an open file of its own); close the descriptor returned to let go. */
static int
hold_lock(const char *lock)
{
	int	fd;

	assert_true((fd = open(lock, O_RDWR | O_CREAT, 0644)) >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	return fd;
}

static void
test_lock(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *lock, *text;
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];
	int		 fd;

	new_campaign(dir);
	ref_id(before, dir, CROWN_MAIN_REF);
	lock = xasprintf("%s/.git/crown.lock", dir);
	/* released, the lock file stays, empty */
	assert_true(exists(lock));
	text = tu_slurp(lock);
	assert_string_equal(text, "");
	free(text);
	/* held by a run that has not said who it is yet */
	fd = hold_lock(lock);
	RUN(&r, crown_cmd_turn, dir, DATA "/french-1.yaml", "--templates",
	    TMPL);
	assert_int_equal(r.status, 75);
	assert_has(r.err, "is locked by another run");
	assert_has(r.err, "try again when it has finished");
	run_release(&r);
	/* and once it has: its pid, host and command line */
	put_lock(lock, 4242, "there.invalid");
	RUN(&r, crown_cmd_turn, dir, DATA "/french-1.yaml", "--templates",
	    TMPL);
	assert_int_equal(r.status, 75);
	assert_has(r.err, "is locked by crown 4242 on there.invalid, running "
	    "'crown turn c' (");
	run_release(&r);
	EXPECT(75, crown_cmd_reveal, dir);
	EXPECT(75, crown_cmd_rerun, dir, "1", DATA "/french-1.yaml");
	/* readers do not need the lock */
	EXPECT(0, crown_cmd_log, dir);
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(before, after);
	/* let go (emptied): the next run takes it, says nothing of it, and
	 * says who it is while it holds it */
	assert_int_equal(ftruncate(fd, 0), 0);
	close(fd);
	RUN(&r, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	assert_int_equal(r.status, 0);
	assert_true(strstr(r.err, "taking over") == NULL);
	run_release(&r);
	text = tu_slurp(lock);
	assert_string_equal(text, "");
	free(text);
	/* a lock file naming a holder no one holds: a dead run's, of this
	 * host or another, taken over and said */
	put_lock(lock, 4242, "elsewhere.invalid");
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--allow-missing");
	assert_int_equal(r.status, 0);
	assert_has(r.err, "crown: taking over ");
	assert_has(r.err, "crown 4242 on elsewhere.invalid, which held it, "
	    "is no longer running");
	run_release(&r);
	text = tu_slurp(lock);
	assert_string_equal(text, "");
	free(text);
	free(lock);
	free(dir);
}

/*
 * Locks of libgit2's a killed run left: the next command stops before
 * writing anything (exit 75) and names the file; once it is removed the
 * turn runs.  Objects a killed run was writing are removed.
 */
/* Make p's times `ago' seconds in the past. */
static void
set_age(const char *p, int ago)
{
	struct timespec	t[2];

	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= ago;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, p, t, 0), 0);
}

static void
test_stale_git_locks(void **state)
{
	static const char *const locks[] = {
		"refs/heads/main.lock", "refs/tags/turn-2.lock", "index.lock"
	};
	struct run	 r;
	char		*dir = path("c"), *p, *q;
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];
	size_t		 i;
	struct stat	 st;
	FILE		*fp;

	new_campaign(dir);
	turn1(dir);
	ref_id(before, dir, CROWN_MAIN_REF);
	for (i = 0; i < sizeof(locks) / sizeof(locks[0]); i++) {
		p = xasprintf("%s/.git/%s", dir, locks[i]);
		assert_non_null(fp = fopen(p, "w"));
		fclose(fp);
		RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml",
		    "--templates", TMPL, "--date", "2026-03-15",
		    "--allow-missing");
		if (r.status != 75)
			print_error("%s: status %d\n%s", locks[i], r.status,
			    r.err);
		assert_int_equal(r.status, 75);
		assert_has(r.err, p);
		assert_has(r.err, "remove this file");
		run_release(&r);
		ref_id(after, dir, CROWN_MAIN_REF);
		assert_string_equal(before, after);
		ref_id(after, dir, "refs/tags/turn-2");
		assert_string_equal(after, "");
		unlink(p);
		free(p);
	}
	/* made while a dead crown held the campaign: its, and removed; but
	 * not one touched a moment ago (a git command running now) */
	p = xasprintf("%s/.git/crown.lock", dir);
	put_lock(p, tu_dead_pid(), NULL);
	set_age(p, 10);
	free(p);
	p = xasprintf("%s/.git/refs/heads/main.lock", dir);
	assert_non_null(fp = fopen(p, "w"));
	fclose(fp);
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15",
	    "--allow-missing");
	assert_int_equal(r.status, 75);
	assert_has(r.err, "main.lock: error: a lock of git's");
	run_release(&r);
	assert_true(exists(p));
	set_age(p, 5);
	/* the run that left it names the dead run again, as of when it
	 * did: the next run takes over from it again */
	assert_true(lock_named(dir));
	q = xasprintf("%s/.git/crown.lock", dir);
	assert_int_equal(stat(q, &st), 0);
	assert_true(st.st_mtime + 9 <= time(NULL));
	free(q);
	RUN(&r, crown_cmd_log, dir);	/* a reader: no lock, no repair */
	run_release(&r);
	assert_true(exists(p));
	free(p);
	p = xasprintf("%s/.git/objects/tmp_object_git2_0123abcd", dir);
	assert_non_null(fp = fopen(p, "w"));
	fputs("half an object", fp);
	fclose(fp);
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15",
	    "--allow-missing");
	assert_int_equal(r.status, 0);
	assert_has(r.err, "tmp_object_git2_0123abcd, left by a killed run");
	assert_has(r.err, "main.lock, left by the run that died");
	run_release(&r);
	assert_false(exists(p));
	free(p);
	assert_fsck(dir);
	assert_clean(dir);
	free(dir);
}

static void
test_bad_orders_untouched(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *pend, *text;
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];

	new_campaign(dir);
	ref_id(before, dir, CROWN_MAIN_REF);
	/* orders for the wrong turn, and a missing file */
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL);
	assert_int_equal(r.status, 65);
	assert_has(r.err, DATA "/republic-2.yaml:2:7: error: orders for turn "
	    "2, but the next turn is 1 (R2.2)");
	run_release(&r);
	EXPECT(66, crown_cmd_turn, dir, DATA "/nonexistent.yaml");
	EXPECT(2, crown_cmd_turn, dir, "--date", "yesterday");
	EXPECT(2, crown_cmd_turn, dir, "--umpire", "nobody");
	/* the same in orders/pending: left where they are */
	text = sh("mkdir -p '%s/orders/pending' && cp %s/republic-2.yaml "
	    "'%s/orders/pending/' && echo ok", dir, DATA, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	EXPECT(65, crown_cmd_turn, dir, "--templates", TMPL);
	pend = xasprintf("%s/orders/pending/republic-2.yaml", dir);
	assert_true(exists(pend));
	free(pend);
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(before, after);
	assert_clean(dir);
	free(dir);
}

/*
 * --allow-missing before the deadline: refused without --force, nothing
 * touched; with it the commit message says the turn was early.  Once
 * the deadline has passed, --allow-missing alone plays.
 */
static void
test_allow_missing_early(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;
	char		 before[CROWN_OID_HEX + 1], after[CROWN_OID_HEX + 1];

	new_campaign(dir);
	turn1(dir);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-15T18:00:00Z", "--date",
	    "2026-03-09");
	ref_id(before, dir, CROWN_MAIN_REF);
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15T12:00:00Z", "--allow-missing");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "error: the deadline (2026-03-15T18:00:00Z) has "
	    "not passed: the sides without orders may still send them; "
	    "--force plays the turn anyway (R2.3)");
	run_release(&r);
	EXPECT(2, crown_cmd_turn, dir, "--force");
	ref_id(after, dir, CROWN_MAIN_REF);
	assert_string_equal(before, after);
	assert_clean(dir);
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15T12:00:00Z", "--allow-missing",
	    "--force");
	text = sh("git -C '%s' log -1 --format=%%b", dir);
	assert_has(text, "The turn was played before its deadline "
	    "2026-03-15T18:00:00Z (--force).\n");
	free(text);
	free(dir);
}

/* At the deadline, --allow-missing needs nothing more, and says nothing
 * of it. */
static void
test_allow_missing_late(void **state)
{
	char	*dir = path("c"), *text;

	new_campaign(dir);
	turn1(dir);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-15T12:00:00Z", "--date",
	    "2026-03-09");
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15T12:00:00Z", "--allow-missing");
	text = sh("git -C '%s' log -1 --format=%%b", dir);
	assert_null(strstr(text, "before its deadline"));
	assert_has(text, "(--allow-missing)");
	free(text);
	free(dir);
}

/* Orders dropped in orders/pending are used and then removed. */
static void
test_pending(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *a = path("a"), *p, *text;
	char		 ia[CROWN_OID_HEX + 1], ib[CROWN_OID_HEX + 1];

	new_campaign(dir);
	new_campaign(a);
	turn1(a);
	text = sh("mkdir -p '%s/orders/pending' && cp %s/french-1.yaml "
	    "%s/republic-1.yaml '%s/orders/pending/' && echo ok", dir, DATA,
	    DATA, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	/* status counts what turn plays, whatever the files' names */
	RUN(&r, crown_cmd_status, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "  french    in       received (filed by hand), "
	    "receipt ");
	assert_has(r.out, " (orders/pending/french-1.yaml)\n");
	assert_has(r.out, " (orders/pending/republic-1.yaml)\n");
	assert_has(r.out, "2 of 2 sides have orders in\n");
	run_release(&r);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-08");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "\nplayed orders/pending/french-1.yaml (french), "
	    "orders/pending/republic-1.yaml (republic)\n");
	assert_true(strstr(r.out, "ignored") == NULL);
	run_release(&r);
	p = xasprintf("%s/orders/pending/french-1.yaml", dir);
	assert_false(exists(p));
	free(p);
	ref_id(ia, a, CROWN_MAIN_REF);
	ref_id(ib, dir, CROWN_MAIN_REF);
	assert_string_equal(ia, ib);
	assert_clean(dir);
	/* no orders at all: the turn stops, every side named (issue 20) */
	ref_id(ia, dir, CROWN_MAIN_REF);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-15");
	assert_int_equal(r.status, 65);
	p = xasprintf("%s: error: no orders from side 'french' for turn 2; "
	    "give them, or --allow-missing to let its units hold (R2.3)\n"
	    "%s: error: no orders from side 'republic' for turn 2; give "
	    "them, or --allow-missing to let its units hold (R2.3)\n", dir,
	    dir);
	assert_string_equal(r.err, p);
	free(p);
	run_release(&r);
	ref_id(ib, dir, CROWN_MAIN_REF);
	assert_string_equal(ia, ib);
	/* one side missing: named too */
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15");
	assert_int_equal(r.status, 65);
	assert_has(r.err, "no orders from side 'french' for turn 2");
	assert_true(strstr(r.err, "'republic'") == NULL);
	run_release(&r);
	/* stale files (not turn 1's own, which the repair removes): status
	 * shows them, turn with files leaves them */
	text = sh("{ cat %s/republic-1.yaml; echo '# again'; } >"
	    "'%s/orders/pending/old.yaml' && { cat %s/french-1.yaml; "
	    "echo '# again'; } >'%s/orders/pending/french.yaml' && echo ok",
	    DATA, dir, DATA, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	RUN(&r, crown_cmd_status, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "  french    missing (orders/pending/french.yaml "
	    "is for turn 1)\n  republic  missing (orders/pending/old.yaml is "
	    "for turn 1)\n0 of 2 sides have orders in\ncrown turn DIR "
	    "refuses to play while those files are in orders/pending/: move "
	    "them out, or give crown turn the files to play\n");
	run_release(&r);
	/* with --allow-missing the French hold (R2.3) */
	RUN(&r, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "\nplayed " DATA "/republic-2.yaml (republic)\n"
	    "ignored, left pending: orders/pending/french.yaml, "
	    "orders/pending/old.yaml\n");
	run_release(&r);
	p = xasprintf("%s/orders/pending/old.yaml", dir);
	assert_true(exists(p));
	free(p);
	text = sh("git -C '%s' log -1 --format=%%b", dir);
	assert_has(text, "Orders from republic.\nThe other sides had none "
	    "(--allow-missing): their units held (R2.3).\n");
	free(text);
	/* none at all, with --allow-missing: every unit holds */
	text = sh("rm '%s'/orders/pending/*.yaml && echo ok", dir);
	assert_string_equal(text, "ok\n");
	free(text);
	EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-22", "--allow-missing");
	text = sh("git -C '%s' log -1 --format=%%b", dir);
	assert_has(text, "No orders: every unit held (R2.3).\n");
	free(text);
	free(a);
	free(dir);
}

static void
test_new_checks_first(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *text;

	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    "tests/data/state-bad.yaml", "--rules", RULES);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "tests/data/state-bad.yaml:3:9: error: ");
	assert_has(r.err, "tests/data/state-bad.yaml:14:13: error: ");
	run_release(&r);
	assert_false(exists(dir));
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    "tests/data/state-small.yaml", "--rules", RULES);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "tests/data/state-small.yaml:5:9: error: a scenario "
	    "starts at turn 0, not 2");
	run_release(&r);
	assert_false(exists(dir));
	EXPECT(66, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    "nonexistent.yaml");
	EXPECT(2, crown_cmd_new, dir);
	EXPECT(2, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--bogus");
	new_campaign(dir);
	/* not again over a campaign */
	EXPECT(73, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES);
	/* a fresh secret when none is given */
	EXPECT(0, crown_cmd_new, text = path("f"), "--templates", TMPL,
	    "--scenario", SCEN, "--rules", RULES, "--umpire",
	    "Anne Umpire <anne@example.org>");
	free(text);
	text = sh("git -C '%s/f' log -1 --format='%%an <%%ae>'", base);
	assert_string_equal(text, "Anne Umpire <anne@example.org>\n");
	free(text);
	free(dir);
}

/* main of dir is one of the two commits, and nothing else is half
 * done. */
static void
assert_at(const char *dir, const char *a, const char *b, int step)
{
	char	id[CROWN_OID_HEX + 1];

	ref_id(id, dir, CROWN_MAIN_REF);
	if (strcmp(id, a) != 0 && strcmp(id, b) != 0) {
		print_error("step %d: main is %s, neither %s nor %s\n", step,
		    id, a, b);
		fail();
	}
}

/*
 * Fail (or kill) every step of a turn in turn; each time the repository
 * is at turn 0 or turn 1, and the next turns bring it to the same commits
 * as a run without failure.
 */
static void
fault_injection(bool kill)
{
	struct run	 r;
	char		*ref = path("ref"), *zero = path("zero"), *dir;
	char		*text;
	char		 id0[CROWN_OID_HEX + 1], id1[CROWN_OID_HEX + 1];
	char		 id2[CROWN_OID_HEX + 1], id[CROWN_OID_HEX + 1];
	unsigned long	 steps, n;
	pid_t		 pid;
	int		 st;

	/* turn 0 with the orders of turn 1 pending, copied for each run */
	new_campaign(zero);
	text = sh("mkdir -p '%s/orders/pending' && cp %s/french-1.yaml "
	    "%s/republic-1.yaml '%s/orders/pending/' && cp -a '%s' '%s' && "
	    "echo ok", zero, DATA, DATA, zero, zero, ref);
	assert_string_equal(text, "ok\n");
	free(text);
	ref_id(id0, ref, CROWN_MAIN_REF);
	crown_history_fail_after(0, false);
	EXPECT(0, crown_cmd_turn, ref, "--templates", TMPL, "--date",
	    "2026-03-08");
	steps = crown_history_steps();
	assert_true(steps > 10);
	ref_id(id1, ref, CROWN_MAIN_REF);
	EXPECT(0, crown_cmd_turn, ref, "--templates", TMPL, "--date",
	    "2026-03-15", "--allow-missing");
	ref_id(id2, ref, CROWN_MAIN_REF);

	for (n = 1; n <= steps + 1; n++) {
		dir = xasprintf("%s/f%lu", base, n);
		text = sh("cp -a '%s' '%s' && echo ok", zero, dir);
		assert_string_equal(text, "ok\n");
		free(text);
		if (kill) {
			fflush(stdout);
			fflush(stderr);
			pid = fork();
			if (pid == 0) {
				int fd = open("/dev/null", O_WRONLY);

				dup2(fd, 1);
				dup2(fd, 2);
				crown_history_fail_after(n, true);
				RUN(&r, crown_cmd_turn, dir, "--templates",
				    TMPL, "--date", "2026-03-08");
				_exit(r.status == 0 ? 0 : 3);
			}
			assert_true(pid > 0);
			assert_int_equal(waitpid(pid, &st, 0), pid);
			assert_true(WIFEXITED(st));
			/* killed at step n, or done when n is past the end */
			assert_int_equal(WEXITSTATUS(st), n <= steps ?
			    CROWN_EXIT_INTERNAL : 0);
			/* a killed run leaves its lock naming it, which
			 * the next command takes over: its holder is dead */
			assert_int_equal(lock_named(dir), n > 1 &&
			    n <= steps);
		} else {
			crown_history_fail_after(n, false);
			RUN(&r, crown_cmd_turn, dir, "--templates", TMPL,
			    "--date", "2026-03-08");
			crown_history_fail_after(0, false);
			if (n <= steps) {
				assert_int_equal(r.status, 73);
				assert_has(r.err, "injected failure at step");
			} else
				assert_int_equal(r.status, 0);
			run_release(&r);
			assert_false(lock_named(dir));
		}
		assert_at(dir, id0, id1, (int)n);
		assert_fsck(dir);
		ref_id(id, dir, CROWN_MAIN_REF);
		if (strcmp(id, id0) == 0)
			EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL,
			    "--date", "2026-03-08");
		ref_id(id, dir, CROWN_MAIN_REF);
		assert_string_equal(id, id1);
		/* the next turn repairs whatever the failure left */
		EXPECT(0, crown_cmd_turn, dir, "--templates", TMPL, "--date",
		    "2026-03-15", "--allow-missing");
		ref_id(id, dir, CROWN_MAIN_REF);
		assert_string_equal(id, id2);
		ref_id(id, dir, "refs/tags/turn-1");
		assert_string_equal(id, id1);
		assert_clean(dir);
		text = sh("ls -A '%s/orders/pending'", dir);
		assert_string_equal(text, "");
		free(text);
		crown_campaign_remove_tree(dir, false);
		free(dir);
	}
	free(zero);
	free(ref);
}

/*
 * A turn syncs what it writes before and at its commit point: libgit2's
 * objects and references (GIT_OPT_ENABLE_FSYNC_GITDIR), so that a power
 * cut cannot leave main naming objects that were never on the disk.
 */
static void
test_fsync(void **state)
{
	char		*dir = path("c");
	unsigned long	 n;

	new_campaign(dir);
	nfsync = 0;
	turn1(dir);
	n = nfsync;
	/* at least the blobs, trees and commit, main, the tag, the index */
	if (n < 10) {
		print_error("a turn made %lu fsync calls\n", n);
		fail();
	}
	free(dir);
}

/*
 * The disk fills up at every point of a turn in turn: the turn is whole
 * or not there, the message says "no space left on device" and the
 * status is 73, never "object not found"; once there is room again, the
 * next turns run and the repository checks.
 */
static void
test_disk_full(void **state)
{
	struct run	 r;
	char		*zero = path("zero"), *dir, *text;
	char		 id0[CROWN_OID_HEX + 1], id1[CROWN_OID_HEX + 1];
	char		 id[CROWN_OID_HEX + 1];
	long long	 at[4096], left;
	size_t		 nat, k;

	new_campaign(zero);
	ref_id(id0, zero, CROWN_MAIN_REF);
	dir = path("c");
	text = sh("cp -a '%s' '%s' && echo ok", zero, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	disk_used = 0;
	disk_nat = 0;
	turn1(dir);
	nat = disk_nat;
	memcpy(at, disk_at, sizeof(at));
	ref_id(id1, dir, CROWN_MAIN_REF);
	crown_campaign_remove_tree(dir, false);
	/* the disk is full from the kth write of the turn on */
	for (k = 0; k < nat; k++) {
		left = at[k];
		text = sh("cp -a '%s' '%s' && echo ok", zero, dir);
		assert_string_equal(text, "ok\n");
		free(text);
		disk_left = left;
		RUN(&r, crown_cmd_turn, dir, DATA "/french-1.yaml",
		    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
		    "2026-03-08");
		disk_left = -1;
		if (r.status != 0 && (r.status != 73 ||
		    strcasestr(r.err, "no space left on device") == NULL ||
		    strstr(r.err, "not found") != NULL ||
		    strstr(r.err, "doesn't exist") != NULL)) {
			print_error("%lld bytes of room: status %d\n%s",
			    left, r.status, r.err);
			fail();
		}
		run_release(&r);
		assert_at(dir, id0, id1, (int)left);
		assert_fsck(dir);
		ref_id(id, dir, CROWN_MAIN_REF);
		if (strcmp(id, id0) == 0)
			turn1(dir);
		ref_id(id, dir, CROWN_MAIN_REF);
		assert_string_equal(id, id1);
		turn2(dir);
		assert_clean(dir);
		assert_fsck(dir);
		crown_campaign_remove_tree(dir, false);
	}
	free(dir);
	free(zero);
}

static void
test_fault_error(void **state)
{
	fault_injection(false);
}

static void
test_fault_kill(void **state)
{
	fault_injection(true);
}

/* A failed crown new leaves no directory behind. */
static void
test_fault_new(void **state)
{
	struct run	 r;
	char		*dir = path("n");
	unsigned long	 steps, n;

	crown_history_fail_after(0, false);
	new_campaign(dir);
	steps = crown_history_steps();
	crown_campaign_remove_tree(dir, false);
	for (n = 1; n <= steps; n++) {
		crown_history_fail_after(n, false);
		RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
		    SCEN, "--rules", RULES, "--secret-file", SECRET, "--date",
		    "2026-03-01");
		crown_history_fail_after(0, false);
		assert_int_not_equal(r.status, 0);
		run_release(&r);
		/* before main exists nothing is left; after, turn 0 is
		 * whole and the next command finishes the work tree */
		if (exists(dir)) {
			struct run	v;

			RUN(&v, crown_cmd_verify, dir, "--templates", TMPL);
			assert_int_equal(v.status, 0);
			run_release(&v);
			assert_fsck(dir);
			crown_campaign_remove_tree(dir, false);
		}
	}
	free(dir);
}

/* Does dir hold a main?  Its commit in id. */
static bool
has_main(char *id, const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	bool			 ok;

	ok = crown_history_open(&h, dir, false, &d) == 0 &&
	    crown_history_ref_get(id, h, CROWN_MAIN_REF, &d) == 0;
	crown_history_close(h);
	crown_diags_release(&d);
	return ok;
}

/*
 * A crown new killed at each step in turn: before main exists, the next
 * crown new on the same directory makes the campaign (it refused with
 * "already exists"); after, turn 0 is whole.
 */
static void
test_fault_new_kill(void **state)
{
	struct run	 r;
	char		*dir = path("n"), id[CROWN_OID_HEX + 1];
	unsigned long	 steps, n;
	pid_t		 pid;
	int		 st;

	crown_history_fail_after(0, false);
	new_campaign(dir);
	steps = crown_history_steps();
	crown_campaign_remove_tree(dir, false);
	for (n = 1; n <= steps; n++) {
		fflush(stdout);
		fflush(stderr);
		if ((pid = fork()) == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
			crown_history_fail_after(n, true);
			RUN(&r, crown_cmd_new, dir, "--templates", TMPL,
			    "--scenario", SCEN, "--rules", RULES,
			    "--secret-file", SECRET,
			    "--date", "2026-03-01T10:00:00+01:00");
			_exit(3);
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), CROWN_EXIT_INTERNAL);
		if (!has_main(id, dir)) {
			RUN(&r, crown_cmd_new, dir, "--templates", TMPL,
			    "--scenario", SCEN, "--rules", RULES,
			    "--secret-file", SECRET,
			    "--date", "2026-03-01T10:00:00+01:00");
			if (r.status != 0)
				print_error("killed at step %lu: %s", n,
				    r.err);
			assert_int_equal(r.status, 0);
			run_release(&r);
		}
		turn1(dir);
		assert_fsck(dir);
		assert_clean(dir);
		crown_campaign_remove_tree(dir, false);
	}
	free(dir);
}

/* op(dir) run in a child killed at its nth write step, as by kill -9
 * (its output thrown away): the child's exit status. */
static int
killed_at(unsigned long n, void (*op)(const char *), const char *dir)
{
	pid_t	pid;
	int	st, fd;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		crown_history_fail_after(n, true);
		op(dir);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/*
 * crown new . in an empty directory: no rename can put a campaign in
 * place of a shell's working directory, so it is built in it.
 */
static void
test_new_in_dot(void **state)
{
	struct run	 r;
	char		*dir = path("dot"), *scen, *rules, *tmpl, *text;
	char		 cwd[4096];

	(void)state;
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_non_null(scen = realpath(SCEN, NULL));
	assert_non_null(rules = realpath(RULES, NULL));
	assert_non_null(tmpl = realpath(TMPL, NULL));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	RUN(&r, crown_cmd_new, ".", "--templates", tmpl, "--scenario", scen,
	    "--rules", rules, "--date", "2026-03-01");
	assert_int_equal(chdir(cwd), 0);
	if (r.status != 0)
		fail_msg("crown new .: status %d\n%s", r.status, r.err);
	assert_has(r.out, ".: turn 0 committed");
	run_release(&r);
	EXPECT(0, crown_cmd_verify, dir, "--templates", TMPL);
	assert_fsck(dir);
	/* nothing of the build left beside it or in it */
	text = sh("ls -A '%s' '%s' | grep -c crown-new", base, dir);
	assert_string_equal(text, "0\n");
	free(text);
	free(scen);
	free(rules);
	free(tmpl);
	free(dir);
}

/*
 * crown new killed at each of its steps (issue 30): it builds the
 * campaign beside DIR and renames it into place, so DIR is absent or a
 * whole campaign (verified, clean, its briefings in the outbox), and
 * the next crown new removes what the killed one left.
 */
static void
test_new_whole_or_nothing(void **state)
{
	struct run	 r;
	char		*dir = path("n"), *text;
	unsigned long	 steps, n, left = 0;

	crown_history_fail_after(0, false);
	new_campaign(dir);
	steps = crown_history_steps();
	crown_campaign_remove_tree(dir, false);
	for (n = 1; n <= steps + 1; n++) {
		assert_int_equal(killed_at(n, new_campaign, dir), n <= steps ?
		    CROWN_EXIT_INTERNAL : 0);
		if (exists(dir) != (n > steps)) {
			print_error("killed at step %lu of %lu: DIR %s\n", n,
			    steps, exists(dir) ? "exists" : "is absent");
			fail();
		}
		if (!exists(dir)) {
			/* and the next one says what it removes */
			text = sh("ls -A '%s' | grep -c crown-new", base);
			RUN(&r, crown_cmd_new, dir, "--templates", TMPL,
			    "--scenario", SCEN, "--rules", RULES,
			    "--secret-file", SECRET, "--date",
			    "2026-03-01T10:00:00+01:00");
			assert_int_equal(r.status, 0);
			if (strcmp(text, "0\n") != 0)
				left++;
			assert_int_equal(strcmp(text, "0\n") != 0,
			    strstr(r.err, "left by a crown new that did not "
			    "finish\n") != NULL);
			run_release(&r);
			free(text);
		}
		/* whatever the killed run left beside it is gone */
		text = sh("ls -A '%s'", base);
		assert_string_equal(text, "n\n");
		free(text);
		RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
		assert_int_equal(r.status, 0);
		run_release(&r);
		assert_fsck(dir);
		assert_clean(dir);
		text = sh("ls '%s/outbox/new' | wc -l; ls -A '%s/orders'", dir,
		    dir);
		assert_string_equal(text + strspn(text, " "), "2\npending\n");
		free(text);
		crown_campaign_remove_tree(dir, false);
	}
	/* most kills come after the temporary is made */
	assert_true(left > 0);
	free(dir);
}

/*
 * A turn killed at each of its steps: the players' mails of turn 1 reach
 * the outbox once, whole, whether the kill came before the commit point
 * (the turn is played again) or after it (the next command's repair
 * moves them out of .git/crown-outbox).
 */
static void
test_outbox_after_kill(void **state)
{
	char		*zero = path("zero"), *dir, *text, *want;
	char		 id0[CROWN_OID_HEX + 1], id[CROWN_OID_HEX + 1];
	unsigned long	 steps, n;

	new_campaign(zero);
	text = sh("rm -rf '%s/outbox' && echo ok", zero);
	assert_string_equal(text, "ok\n");
	free(text);
	ref_id(id0, zero, CROWN_MAIN_REF);
	dir = path("c");
	text = sh("cp -a '%s' '%s' && echo ok", zero, dir);
	assert_string_equal(text, "ok\n");
	free(text);
	crown_history_fail_after(0, false);
	turn1(dir);
	steps = crown_history_steps();
	want = sh("ls '%s/outbox/new'", dir);
	assert_int_equal(strlen(want), 2 * strlen("1772928000.0123456789abcdef"
	    ".crown\n"));
	crown_campaign_remove_tree(dir, false);
	for (n = 1; n <= steps; n++) {
		text = sh("cp -a '%s' '%s' && echo ok", zero, dir);
		assert_string_equal(text, "ok\n");
		free(text);
		assert_int_equal(killed_at(n, turn1, dir),
		    CROWN_EXIT_INTERNAL);
		ref_id(id, dir, CROWN_MAIN_REF);
		if (strcmp(id, id0) == 0)
			turn1(dir);
		else
			EXPECT(0, crown_cmd_deadline, dir, "none");
		text = sh("ls '%s/outbox/new'; ls -A '%s/.git/crown-outbox' "
		    "2>/dev/null", dir, dir);
		if (strcmp(text, want) != 0) {
			print_error("killed at step %lu of %lu: the outbox "
			    "holds\n%s\nnot\n%s", n, steps, text, want);
			fail();
		}
		free(text);
		crown_campaign_remove_tree(dir, false);
	}
	free(want);
	free(dir);
	free(zero);
}

static void
test_subject_turn(void **state)
{
	assert_int_equal(crown_campaign_subject_turn("Turn 0: x"), 0);
	assert_int_equal(crown_campaign_subject_turn("Turn 12: x"), 12);
	assert_int_equal(crown_campaign_subject_turn("Turn : x"), -1);
	assert_int_equal(crown_campaign_subject_turn("Turn 3 x"), -1);
	assert_int_equal(crown_campaign_subject_turn("Reveal: x"), -1);
}

/* The turn's headline names the leaders who fell (issue 18: "2
 * casualties" on the turn Danjou and Vilain fell). */
static void
test_headline_leaders(void **state)
{
	static const char	 text[] =
	    "game: {name: H, turn: 1, attacker: a}\n"
	    "table: {width: 20, height: 20}\n"
	    "sides: [{id: a, home_edge: south}, {id: b, home_edge: north}]\n"
	    "units:\n"
	    "  - {id: u, side: a, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4, 4], x: 5, y: 5, facing: 0}\n"
	    "leaders:\n"
	    "  - {id: danjou, name: Danjou, side: a, rank: officer,\n"
	    "     attached: u}\n"
	    "  - {id: vilain, name: Vilain, side: a, rank: officer,\n"
	    "     attached: u}\n"
	    "  - {id: maudet, side: a, rank: officer, x: 9, y: 9}\n";
	struct crown_diags	 d = { 0 };
	struct crown_state	*before, *after;
	char			*h;

	(void)state;
	assert_int_equal(crown_state_parse(&before, "h", text,
	    sizeof(text) - 1, &d), 0);
	assert_int_equal(crown_state_parse(&after, "h", text,
	    sizeof(text) - 1, &d), 0);
	h = crown_campaign_headline(before, after);
	assert_string_equal(h, "no casualties");
	free(h);
	after->units[0].stands[2] = 2;
	after->leaders[0].status = CROWN_LEADER_KILLED;
	h = crown_campaign_headline(before, after);
	assert_string_equal(h, "2 casualties, Danjou killed");
	free(h);
	after->leaders[1].status = CROWN_LEADER_KILLED;
	after->leaders[2].status = CROWN_LEADER_CAPTURED;
	h = crown_campaign_headline(before, after);
	assert_string_equal(h, "2 casualties, 2 leaders killed, maudet "
	    "captured");
	free(h);
	after->units[0].stands[2] = 4;
	h = crown_campaign_headline(before, after);
	assert_string_equal(h, "2 leaders killed, maudet captured");
	free(h);
	crown_state_free(before);
	crown_state_free(after);
	crown_diags_release(&d);
}

/*
 * A command run in a child that an alarm kills after 20 s: libgit2 1.5
 * inflates a loose object cut short for ever.  Its status (or 128 + the
 * signal that ended it), its standard error in err.
 */
static int
run_bounded(char **err, const struct crown_cmd *cmd, const char *const *args)
{
	struct run	 r;
	char		*at = path("bounded."), *errp = path("bounded..err");
	pid_t		 pid;
	int		 ws;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == 0) {
		FILE	*fp;

		alarm(20);
		tu_run_at(&r, at, cmd, args);
		/* the captures are read and gone: write stderr again */
		if ((fp = fopen(errp, "w")) != NULL) {
			fputs(r.err != NULL ? r.err : "", fp);
			fclose(fp);
		}
		_exit(r.status);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	*err = tu_slurp(errp);
	unlink(errp);
	free(at);
	free(errp);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* A loose object cut short (a full disk, a crash): each command that
 * reads it ends at once with exit 74, naming the object's file and git
 * fsck, and leaves the lock free. */
static void
test_damaged_object(void **state)
{
	char	*dir = path("c"), *out = path("site"), *mail = path("mail");
	char	*id, *obj, *lockp, *err, *cmd, *text;
	const char *const status_args[] = { dir, NULL };
	const char *const turn_args[] = { dir, DATA "/republic-2.yaml",
	    "--templates", TMPL, "--allow-missing", NULL };
	const char *const verify_args[] = { dir, "--templates", TMPL, NULL };
	const char *const site_args[] = { dir, out, "--templates", TMPL,
	    NULL };
	const char *const inbox_args[] = { dir, mail, "--now",
	    "2026-03-10T10:00:00Z", NULL };
	static const struct {
		const struct crown_cmd	*cmd;
		size_t			 args;
	} runs[] = {
		{ &crown_cmd_status, 0 }, { &crown_cmd_turn, 1 },
		{ &crown_cmd_verify, 2 }, { &crown_cmd_site, 3 },
		{ &crown_cmd_inbox, 4 },
	};
	const char *const *args[] = { status_args, turn_args, verify_args,
	    site_args, inbox_args };
	size_t	 i;

	(void)state;
	TU_CAMPAIGN(dir, SCEN, false);
	cmd = xasprintf("mkdir -p '%s/cur' '%s/new' '%s/tmp'", mail, mail,
	    mail);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	id = sh("git -C '%s' rev-parse HEAD:state.yaml | tr -d '\\n'", dir);
	obj = xasprintf("%s/.git/objects/%.2s/%s", dir, id, id + 2);
	cmd = xasprintf("f='%s'; n=$(wc -c < \"$f\"); chmod u+w \"$f\"; "
	    "head -c $((n / 2)) \"$f\" > \"$f.cut\" && mv \"$f.cut\" \"$f\"",
	    obj);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	lockp = xasprintf("%s/.git/crown.lock", dir);
	for (i = 0; i < CROWN_NELEM(runs); i++) {
		int	st = run_bounded(&err, runs[i].cmd,
			    args[runs[i].args]);

		if (st != CROWN_EXIT_IOERR) {
			print_error("crown %s: status %d, expected 74\n%s\n",
			    runs[i].cmd->name, st, err);
			fail();
		}
		assert_has(err, obj);
		assert_has(err, "'git fsck'");
		/* the lock let go: no holder, naming none */
		close(hold_lock(lockp));
		text = tu_slurp(lockp);
		assert_true(text == NULL || text[0] == '\0');
		free(text);
		free(err);
	}
	free(lockp);
	free(obj);
	free(id);
	free(mail);
	free(out);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject_turn),
		cmocka_unit_test(test_headline_leaders),
		cmocka_unit_test_setup_teardown(test_blame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orders_file, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_orders_file_quoted, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_readme_tour, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_briefing_mail, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_send_outbox, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_new_turn_verify, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_deterministic, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_resolve_is_turn, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_verify_names_difference,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_refused_state,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_in_order, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_copied_campaign, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_turn_writes_files, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_player_clone, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_shallow_clone, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_format_one, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_format_two, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_format_newer, setup,
		    teardown),
		cmocka_unit_test(test_upgrade_rules),
		cmocka_unit_test_setup_teardown(test_rerun_adopt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_dice_salt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_turn_tidies, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_adopt_keeps_schedule,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_dice_chain, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rerun_keeps_salt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_repair_head, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_publish, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_git_locks, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_wrong_secret, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_allow_missing_early,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_allow_missing_late,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_orders_untouched,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_checks_first, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fault_new, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fsync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disk_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fault_new_kill, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_new_in_dot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_whole_or_nothing,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_outbox_after_kill,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_fault_error, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_damaged_object, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fault_kill, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("history", tests, NULL, NULL);
}
