/*
 * test-umpire.c: the umpire's identity (game.umpire).  A campaign made
 * with crown new --umpire keeps the umpire in its state; every commit and
 * tag crown makes after it (turn, roster, deadline, rerun, adopt, reveal)
 * is the umpire's, author and committer, and every mail crown writes
 * (briefings, reports, the inbox's answers) is From the umpire.  With
 * no umpire anywhere, "crown <crown@localhost>".  A password
 * hash of the umpire's in the state reaches no mail and no page.
 *
 * It runs git (popen) to read what crown wrote with libgit2.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"
#define JANE	"Jane Doe <jane@example.org>"
#define HASH	"5e884898da28047151d0e56f8dc62927" \
		"73603d0d6aabbdd62a11ef721d1542d8"

TU_SCRATCH("umpire")

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static void
new_campaign(const char *dir, const char *scen, const char *umpire)
{
	if (umpire != NULL)
		EXPECT(0, crown_cmd_new, dir, "--templates", TMPL,
		    "--scenario", scen, "--rules", RULES, "--secret-file",
		    SECRET, "--date", "2026-03-01T10:00:00+01:00",
		    "--umpire", umpire);
	else
		EXPECT(0, crown_cmd_new, dir, "--templates", TMPL,
		    "--scenario", scen, "--rules", RULES, "--secret-file",
		    SECRET, "--date", "2026-03-01T10:00:00+01:00");
}

static void
turns(const char *dir)
{
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
}

/* Every line of text is want (and there is one at least). */
static void
assert_all_lines(const char *text, const char *want)
{
	const char	*p, *nl;
	size_t		 n = strlen(want), lines = 0;

	for (p = text; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		assert_non_null(nl);
		if ((size_t)(nl - p) != n || strncmp(p, want, n) != 0) {
			print_error("expected every line to be \"%s\":\n%s\n",
			    want, text);
			fail();
		}
		lines++;
	}
	assert_true(lines > 0);
}

/* The From line of every mail in dir's outbox, one a line. */
static char *
outbox_from(const char *dir)
{
	return tu_sh("cat '%s'/outbox/new/* | grep '^From:'", dir);
}

/* A player's mail with orders in shorthand, into maildir's new/. */
static void
player_mail(const char *maildir)
{
	char	*text;

	text = tu_sh("mkdir -p '%s/new' '%s/cur' '%s/tmp' && printf '%%s\\n' "
	    "'From: Jean Danjou <danjou@example.org>' "
	    "'To: " JANE "' 'Subject: orders' "
	    "'Date: Sat, 21 Mar 2026 11:00:00 +0000' "
	    "'Message-ID: <o3@example.org>' '' 'side: french' "
	    "'1-legion: hold' 'gun-1: hold' >'%s/new/1774090800.a.host' && "
	    "echo ok", maildir, maildir, maildir, maildir);
	assert_string_equal(text, "ok\n");
	free(text);
	/* and one the inbox refuses */
	text = tu_sh("printf '%%s\\n' "
	    "'From: Francisco Milan <milan@example.org>' "
	    "'To: " JANE "' 'Subject: orders' "
	    "'Date: Sat, 21 Mar 2026 11:10:00 +0000' "
	    "'Message-ID: <o4@example.org>' '' 'side: republic' "
	    "'2-militia: dance' >'%s/new/1774091400.b.host' && echo ok",
	    maildir);
	assert_string_equal(text, "ok\n");
	free(text);
}

/*
 * crown new --umpire: the umpire in the state, in place of the
 * scenario's; every command after it commits as the umpire and writes
 * mail From the umpire.
 */
static void
test_umpire_everywhere(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *mail = path("mail"), *text;

	(void)state;
	new_campaign(dir, SCEN, JANE);
	text = tu_sh("grep '  umpire:' '%s/state.yaml'", dir);
	assert_string_equal(text, "  umpire: {name: Jane Doe, email: "
	    "jane@example.org}\n");
	free(text);
	turns(dir);
	player_mail(mail);
	RUN(&r, crown_cmd_inbox, dir, mail, "--now", "2026-03-21T12:00:00Z");
	assert_has(r.out, "1 accepted, 0 late, 1 refused");
	run_release(&r);
	EXPECT(0, crown_cmd_roster, dir, "add", "french",
	    "Clement Maudet <maudet@example.org>", "--date", "2026-03-16");
	EXPECT(0, crown_cmd_deadline, dir, "2026-04-01T18:00:00Z", "--date",
	    "2026-03-17");
	EXPECT(0, crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL, "--date",
	    "2026-03-20");
	EXPECT(0, crown_cmd_adopt, dir, "rerun/turn-1", "--date",
	    "2026-03-21", "--reason", "agreed");
	EXPECT(0, crown_cmd_reveal, dir, "--date", "2026-04-02");

	/* every commit, on main and on the line adopt replaced */
	text = tu_sh("git -C '%s' log --all --format='%%an <%%ae>|%%cn "
	    "<%%ce>|%%s'", dir);
	assert_has(text, "|Roster: add ");
	assert_has(text, "|Deadline: ");
	assert_has(text, "|Reveal: ");
	assert_has(text, "|Turn 0: ");
	free(text);
	text = tu_sh("git -C '%s' log --all --format='%%an <%%ae>|%%cn "
	    "<%%ce>'", dir);
	assert_all_lines(text, JANE "|" JANE);
	free(text);
	/* and the annotated tags */
	text = tu_sh("git -C '%s' for-each-ref refs/tags --format="
	    "'%%(taggername) %%(taggeremail)' | grep -v '^ $'", dir);
	assert_all_lines(text, JANE);
	free(text);
	/* briefings, the roster's briefing, reports, the inbox's receipt
	 * and refusal: all From the umpire */
	text = tu_sh("ls '%s'/outbox/new | wc -l", dir);
	assert_true(strtol(text, NULL, 10) >= 9);
	free(text);
	text = outbox_from(dir);
	assert_all_lines(text, "From: " JANE);
	free(text);
	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "turn 0: ok (dice: replayed from k(0), the "
	    "commitment)\n");
	run_release(&r);
	free(mail);
	free(dir);
}

/* Without --umpire the scenario's game.umpire; with neither, crown's
 * default, and the state names no umpire. */
static void
test_umpire_default(void **state)
{
	char	*dir = path("c"), *bare = path("bare"), *scen = path("s.yaml");
	char	*text;

	(void)state;
	new_campaign(dir, SCEN, NULL);
	turns(dir);
	text = tu_sh("git -C '%s' log --format='%%an <%%ae>|%%cn <%%ce>'",
	    dir);
	assert_all_lines(text, "Test Umpire <umpire@example.org>|"
	    "Test Umpire <umpire@example.org>");
	free(text);
	text = outbox_from(dir);
	assert_all_lines(text, "From: Test Umpire <umpire@example.org>");
	free(text);

	text = tu_sh("grep -v '^  umpire:' %s >'%s' && echo ok", SCEN, scen);
	assert_string_equal(text, "ok\n");
	free(text);
	new_campaign(bare, scen, NULL);
	turns(bare);
	text = tu_sh("grep -c umpire: '%s/state.yaml'", bare);
	assert_string_equal(text, "0\n");
	free(text);
	text = tu_sh("git -C '%s' log --format='%%an <%%ae>|%%cn <%%ce>'",
	    bare);
	assert_all_lines(text, "crown <crown@localhost>|crown "
	    "<crown@localhost>");
	free(text);
	text = outbox_from(bare);
	assert_all_lines(text, "From: crown <crown@localhost>");
	free(text);
	free(scen);
	free(bare);
	free(dir);
}

/* An umpire mail cannot go From is refused before anything is made. */
static void
test_umpire_refused(void **state)
{
	struct run	 r;
	char		*dir = path("c"), *scen = path("s.yaml"), *text;
	struct stat	 st;

	(void)state;
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--umpire", "Jane Doe <jane>");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "--umpire: error: the umpire's email "
	    "'jane' is not a mail address\n");
	run_release(&r);
	assert_int_not_equal(lstat(dir, &st), 0);
	text = tu_sh("sed 's/\"umpire@example.org\"/\"nobody\"/' "
	    "%s >'%s' && grep -c nobody '%s'", SCEN, scen, scen);
	assert_string_equal(text, "1\n");
	free(text);
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", scen,
	    "--rules", RULES);
	assert_int_equal(r.status, 65);
	assert_has(r.err, "error: the umpire's email 'nobody' is not a mail "
	    "address\n");
	run_release(&r);
	assert_int_not_equal(lstat(dir, &st), 0);
	free(scen);
	free(dir);
}

/*
 * A password hash of the umpire's put in the state by hand reaches no
 * mail (the roster's briefing, a turn's reports, each with the state
 * attached) and no page of the site.
 */
static void
test_umpire_hash_private(void **state)
{
	char	*dir = path("c"), *site = path("site"), *text;

	(void)state;
	new_campaign(dir, SCEN, JANE);
	text = tu_sh("cd '%s' && sed -i 's/email: jane@example.org}/email: "
	    "jane@example.org, password_sha256: " HASH "}/' state.yaml && "
	    "git -c user.name=Jane -c user.email=jane@example.org commit -q "
	    "-am 'Roster: the umpire password' && grep -c " HASH
	    " state.yaml", dir);
	assert_string_equal(text, "1\n");
	free(text);
	EXPECT(0, crown_cmd_roster, dir, "add", "french",
	    "Clement Maudet <maudet@example.org>", "--date", "2026-03-02");
	turns(dir);
	EXPECT(0, crown_cmd_site, dir, site, "--templates", TMPL);
	text = tu_sh("grep -c 'filename=state.yaml' '%s'/outbox/new/* | "
	    "grep -vc ':0$'", dir);
	assert_true(strtol(text, NULL, 10) >= 3);
	free(text);
	/* base64 or not, the hash's text is in none of them */
	text = tu_sh("for f in '%s'/outbox/new/*; do python3 -c 'import "
	    "email,sys; m=email.message_from_binary_file(open(sys.argv[1],"
	    "\"rb\")); print(b\"\".join(p.get_payload(decode=True) or b\"\" "
	    "for p in m.walk()).decode(\"utf-8\",\"replace\"))' \"$f\"; done "
	    "| grep -c " HASH, dir);
	assert_string_equal(text, "0\n");
	free(text);
	text = tu_sh("grep -rl " HASH " '%s' | wc -l", site);
	assert_string_equal(text, "0\n");
	free(text);
	free(site);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_umpire_everywhere, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_umpire_default, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_umpire_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_umpire_hash_private,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
