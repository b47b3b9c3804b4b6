/*
 * test-remind.c: crown remind (history/remind.c, mail/reminder.c), run
 * in-process: a reminder in the outbox for each side whose orders are
 * not in once the deadline is within --before, once a side a deadline
 * however often it runs, nothing on a quiet week; and contrib/
 * crown-week.sh, the week's steps over every campaign of a directory,
 * run over three campaigns at once.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/plaintext.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"
#define DUE	"2026-03-08T18:00:00Z"

TU_SCRATCH("remind")

/* A campaign at base/name, turn 0, its deadline DUE, the French orders
 * in when french. */
static char *
campaign(const char *name, bool french)
{
	char	*dir = xasprintf("%s/%s", base, name);
	char	*p;

	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    SCEN, "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00Z");
	EXPECT(0, crown_cmd_deadline, dir, DUE, "--date",
	    "2026-03-01T11:00:00Z");
	if (french) {
		p = tu_sh("cp " DATA "/french-1.yaml %s/orders/pending/ && "
		    "echo ok", dir);
		assert_string_equal(p, "ok\n");
		free(p);
	}
	return dir;
}

/* How many messages of dir's outbox name a reminder in their subject. */
static int
reminders(const char *dir)
{
	char	*out = tu_sh("cat %s/outbox/new/* %s/outbox/cur/* "
		    "2>/dev/null | grep -c '^Subject: .*Reminder:'", dir, dir);
	int	 n = atoi(out);

	free(out);
	return n;
}

/* The reminder in dir's outbox/new (there is one). */
static char *
reminder(const char *dir)
{
	char	*name = tu_sh("grep -l '^Subject: .*Reminder:' "
		    "%s/outbox/new/* | head -n 1 | tr -d '\\n'", dir);
	char	*text;

	assert_true(name[0] != '\0');
	assert_non_null(text = tu_slurp(name));
	free(name);
	return text;
}

/* text with its lines joined, as a reader reads a filled paragraph */
static char *
flat(const char *text)
{
	char	*f = xstrdup(text), *p;

	for (p = f; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	return f;
}

/* The record of the reminders, or "" when there is none. */
static char *
record(const char *dir)
{
	char	*p = xasprintf("%s/.git/crown-reminders", dir);
	char	*text = tu_slurp(p);

	free(p);
	return text != NULL ? text : xstrdup("");
}

/* No deadline near, or none, or passed, or every side in: silence. */
static void
test_quiet(void **state)
{
	struct run	 r;
	char		*dir = campaign("c", true), *p;

	(void)state;
	/* a week before: further than the 24h of --before */
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-01T18:00:00Z");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "");
	run_release(&r);
	/* after the deadline a reminder is too late */
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-08T18:00:01Z");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	run_release(&r);
	assert_int_equal(reminders(dir), 0);
	/* every side in */
	p = tu_sh("cp " DATA "/republic-1.yaml %s/orders/pending/ && echo ok",
	    dir);
	assert_string_equal(p, "ok\n");
	free(p);
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	run_release(&r);
	/* no deadline */
	EXPECT(0, crown_cmd_deadline, dir, "none");
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(reminders(dir), 0);
	p = record(dir);
	assert_string_equal(p, "");
	free(p);
	free(dir);
}

/* Within --before, the side without orders is reminded, once; the side
 * in is not. */
static void
test_once(void **state)
{
	struct run	 r;
	char		*dir = campaign("c", true), *text, *p;

	(void)state;
	/* 2d before: not within the default 24h, within --before 2d */
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-06T18:00:00Z");
	assert_int_equal(reminders(dir), 0);
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-06T18:00:00Z",
	    "--before", "2d");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "Test Campaign: reminded side republic of "
	    "turn 1, due by " DUE " (in 2d 0h 00m): milan@example.org\n");
	assert_string_equal(r.err, "");
	run_release(&r);
	assert_int_equal(reminders(dir), 1);
	p = record(dir);
	assert_string_equal(p, DUE " republic\n");
	free(p);

	text = reminder(dir);
	assert_non_null(strstr(text, "From: Test Umpire <umpire@example.org>"));
	assert_non_null(strstr(text, "To: Francisco Milan "
	    "<milan@example.org>"));
	assert_non_null(strstr(text, "Subject: [Test Campaign] Reminder: "
	    "orders for turn 1 are due by\n " DUE));
	p = flat(text);
	assert_non_null(strstr(p, "due by " DUE " (UTC), in 2d 0h 00m;"));
	assert_non_null(strstr(p, "Reply to this mail from "
	    "milan@example.org"));
	free(p);
	assert_non_null(strstr(text, "filename=orders.yaml"));
	assert_non_null(strstr(text, "side: republic"));
	/* no password asked of a player who has none */
	assert_null(strstr(text, "password: ..."));
	free(text);

	/* again, later, and again: nothing more */
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	run_release(&r);
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-08T17:00:00Z");
	assert_int_equal(reminders(dir), 1);
	free(dir);
}

/* The text of the reminder fits a mail: 78 columns, and the password
 * the roster asks for is asked. */
static void
test_text(void **state)
{
	char	*dir = campaign("c", true), *pw, *text, *at, *end, *nl;

	(void)state;
	pw = xasprintf("%s/pw", base);
	text = tu_sh("printf 'secret words\\n' > %s && echo ok", pw);
	assert_string_equal(text, "ok\n");
	free(text);
	EXPECT(0, crown_cmd_roster, dir, "password", "milan@example.org",
	    "--password-file", pw);
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	text = reminder(dir);
	at = flat(text);
	assert_non_null(strstr(at, "in 6h 00m"));
	assert_non_null(strstr(at, "\"password: ...\""));
	free(at);
	assert_null(strstr(text, "secret words"));
	/* the text part, to the next boundary */
	assert_non_null(at = strstr(text, "Content-Disposition: inline\n\n"));
	at += strlen("Content-Disposition: inline\n\n");
	assert_non_null(end = strstr(at, "\n--=-crown"));
	for (; at < end; at = nl + 1) {
		nl = strchr(at, '\n');
		if (nl - at > CROWN_MAIL_WIDTH)
			fail_msg("a line of %d columns: %.*s", (int)(nl - at),
			    (int)(nl - at), at);
	}
	free(text);
	free(pw);
	free(dir);
}

/* A new deadline is reminded again; a record line cut short by a kill
 * is none. */
static void
test_new_deadline(void **state)
{
	char	*dir = campaign("c", false), *p, *rec;

	(void)state;
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(reminders(dir), 2);
	p = record(dir);
	assert_string_equal(p, DUE " french\n" DUE " republic\n");
	free(p);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-09T18:00:00Z");
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-09T12:00:00Z");
	assert_int_equal(reminders(dir), 4);
	/* the old deadline's lines are dropped */
	p = record(dir);
	assert_string_equal(p, "2026-03-09T18:00:00Z french\n"
	    "2026-03-09T18:00:00Z republic\n");
	free(p);
	/* the last line without its newline, as a kill leaves it */
	rec = xasprintf("%s/.git/crown-reminders", dir);
	p = tu_sh("printf '2026-03-09T18:00:00Z french\\n"
	    "2026-03-09T18:00:00Z repub' > %s && echo ok", rec);
	assert_string_equal(p, "ok\n");
	free(p);
	EXPECT(0, crown_cmd_remind, dir, "--now", "2026-03-09T13:00:00Z");
	assert_int_equal(reminders(dir), 5);
	free(rec);
	free(dir);
}

/* Mail crown inbox has not read, delivered by the deadline, may hold a
 * side's orders: no one is reminded until it is read. */
static void
test_unread(void **state)
{
	struct run	 r;
	char		*dir = campaign("c", true), *box, *p, *want;

	(void)state;
	box = xasprintf("%s/mail", base);
	p = tu_sh("mkdir -p %s/new %s/cur %s/tmp && echo ok", box, box, box);
	assert_string_equal(p, "ok\n");
	free(p);
	EXPECT(0, crown_cmd_inbox, dir, box, "--now", "2026-03-08T11:00:00Z");
	/* delivered 2026-03-08T10:00:00Z, not read yet */
	p = tu_sh("printf 'From: x@example.com\\nSubject: hi\\n\\nhello\\n' "
	    "> %s/new/1772964000.M1P1.host && echo ok", box);
	assert_string_equal(p, "ok\n");
	free(p);
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(r.status, 0);
	want = xasprintf("Test Campaign: 1 message in %s not read yet, "
	    "delivered by the deadline: no reminder until crown inbox has "
	    "read them\n", box);
	assert_string_equal(r.out, want);
	free(want);
	run_release(&r);
	assert_int_equal(reminders(dir), 0);
	EXPECT(0, crown_cmd_inbox, dir, box, "--now", "2026-03-08T12:00:00Z");
	RUN(&r, crown_cmd_remind, dir, "--now", "2026-03-08T12:00:00Z");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "reminded side republic"));
	run_release(&r);
	assert_int_equal(reminders(dir), 1);
	free(box);
	free(dir);
}

/* crown remind takes the campaign's lock: held by another, exit 75 and
 * nothing written. */
static void
test_locked(void **state)
{
	const char	*bin = getenv("CROWN_BIN");
	char		*dir = campaign("c", true), *out;

	(void)state;
	if (bin == NULL)
		bin = "build/crown";
	out = tu_sh("flock %s/.git/crown.lock %s remind %s --now "
	    "2026-03-08T12:00:00Z 2>/dev/null; echo rc=$?", dir, bin, dir);
	assert_string_equal(out, "rc=75\n");
	free(out);
	assert_int_equal(reminders(dir), 0);
	out = record(dir);
	assert_string_equal(out, "");
	free(out);
	free(dir);
}

/* Usage: a bad --before or --now is exit 2, before the campaign is
 * looked at; a directory that is no campaign is 66. */
static void
test_usage(void **state)
{
	struct run	r;

	(void)state;
	RUN(&r, crown_cmd_remind, base, "--before", "soon");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--before: 'soon' is not a duration"));
	run_release(&r);
	RUN(&r, crown_cmd_remind, base, "--now", "tomorrow");
	assert_int_equal(r.status, 2);
	run_release(&r);
	RUN(&r, crown_cmd_remind, base);
	assert_int_equal(r.status, 66);
	run_release(&r);
}

/* A shell command's output, which must end with "rc=0\n" (the caller
 * frees). */
static char *
sh_ok(const char *cmd)
{
	char	*out = tu_sh("%s; echo rc=$?", cmd);
	size_t	 n = strlen(out);

	if (n < 5 || strcmp(out + n - 5, "rc=0\n") != 0)
		fail_msg("%s:\n%s", cmd, out);
	return out;
}

/* contrib/crown-week.sh over three campaigns at once: "played" has
 * every side in and its deadline passed (the turn is played and its
 * reports sent), "quiet" has no deadline (nothing), "remind" is due in
 * 12 hours with no orders in (both sides reminded).  played's turn is
 * published to its forge, a bare repository.  A second run finds
 * nothing to do and prints nothing; a campaign that fails is named and
 * the others go on. */
static void
test_week(void **state)
{
	const char	*bin = getenv("CROWN_BIN");
	char		*dir, *out, *cmd, *p, *week, *want;
	const char	*name[] = { "played", "quiet", "remind" };
	size_t		 i;

	(void)state;
	if (bin == NULL)
		bin = "build/crown";
	/* the campaigns, under base/campaigns, their Maildirs under
	 * base/mail, the briefings sent already */
	p = xasprintf("mkdir -p %s/campaigns", base);
	free(sh_ok(p));
	free(p);
	for (i = 0; i < 3; i++) {
		dir = campaign(name[i], i == 0);
		p = xasprintf("mkdir -p %s/mail/%s/new %s/mail/%s/cur "
		    "%s/mail/%s/tmp && rm -f %s/outbox/new/* && mv %s "
		    "%s/campaigns/", base, name[i], base, name[i], base,
		    name[i], dir, dir, base);
		free(sh_ok(p));
		free(p);
		free(dir);
	}
	p = xasprintf("cp " DATA "/republic-1.yaml "
	    "%s/campaigns/played/orders/pending/", base);
	free(sh_ok(p));
	free(p);
	dir = xasprintf("%s/campaigns/quiet", base);
	EXPECT(0, crown_cmd_deadline, dir, "none");
	free(dir);
	dir = xasprintf("%s/campaigns/remind", base);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-09T12:00:00Z");
	free(dir);
	/* the players were told of those deadlines: sent already */
	p = xasprintf("rm -f %s/campaigns/quiet/outbox/new/* "
	    "%s/campaigns/remind/outbox/new/*", base, base);
	free(sh_ok(p));
	free(p);

	/* played's history goes to a forge: a bare repository, origin */
	dir = xasprintf("%s/campaigns/played", base);
	p = xasprintf("git init -q --bare --initial-branch=main %s/forge.git",
	    base);
	free(sh_ok(p));
	free(p);
	p = xasprintf("%s/forge.git", base);
	EXPECT(0, crown_cmd_publish, dir, p);
	free(p);
	free(dir);

	week = xasprintf("CROWN=%s sh contrib/crown-week.sh -m %s/mail "
	    "-s 'cat >> %s/sent' -t 2026-03-09T00:00:00Z %s/campaigns",
	    bin, base, base, base);
	out = sh_ok(week);
	/* played: the turn, and its two reports sent */
	assert_non_null(strstr(out, "played: turn 1 committed ("));
	assert_non_null(strstr(out, "played: played orders/pending/"));
	assert_non_null(strstr(out, "played: 2 sent, 0 kept"));
	/* remind: both sides, and the two reminders sent */
	assert_non_null(strstr(out, "remind: Test Campaign: reminded side "
	    "french of turn 1, due by 2026-03-09T12:00:00Z (in 12h 00m): "
	    "danjou@example.org\n"));
	assert_non_null(strstr(out, "remind: Test Campaign: reminded side "
	    "republic of turn 1"));
	assert_non_null(strstr(out, "remind: 2 sent, 0 kept"));
	/* quiet: silence */
	assert_null(strstr(out, "quiet:"));
	free(out);
	p = xasprintf("grep -c '^Subject: ' %s/sent", base);
	out = tu_sh("%s", p);
	assert_string_equal(out, "4\n");
	free(out);
	dir = xasprintf("%s/campaigns/played", base);
	out = tu_sh("%s log %s | sed '/^held by:/,$d' | wc -l", bin, dir);
	assert_string_equal(out, "3\n");	/* turn 0, deadline, turn 1 */
	free(out);
	/* and published */
	out = tu_sh("git --git-dir=%s/forge.git tag", base);
	assert_string_equal(out, "turn-0\nturn-1\n");
	free(out);

	/* again: nothing to do, nothing said, nothing sent */
	out = sh_ok(week);
	assert_string_equal(out, "rc=0\n");
	free(out);
	out = tu_sh("%s", p);
	assert_string_equal(out, "4\n");
	free(out);
	/* a campaign another run holds is skipped, and no failure */
	out = tu_sh("flock %s/campaigns/remind/.git/crown-week.lock env %s; "
	    "echo rc=$?", base, week);
	assert_string_equal(out, "remind: another crown-week has it; "
	    "skipped\nrc=0\n");
	free(out);

	/* remind's deadline passed with no side in: it waits, and says so
	 * once; with "missing: hold" the turn is played */
	cmd = xasprintf("CROWN=%s sh contrib/crown-week.sh -m %s/mail "
	    "-s 'cat >> %s/sent' -t 2026-03-09T13:00:00Z %s/campaigns", bin,
	    base, base, base);
	out = sh_ok(cmd);
	want = xasprintf("remind: the deadline 2026-03-09T12:00:00Z has "
	    "passed with 0 of 2 sides in; waiting (crown turn "
	    "%s/campaigns/remind --allow-missing plays it, the others "
	    "holding)\nrc=0\n", base);
	assert_string_equal(out, want);
	free(want);
	free(out);
	out = sh_ok(cmd);
	assert_string_equal(out, "rc=0\n");
	free(out);
	want = xasprintf("echo 'missing: hold' > %s/campaigns/remind/.git/"
	    "crown-week", base);
	free(sh_ok(want));
	free(want);
	out = sh_ok(cmd);
	assert_non_null(strstr(out, "remind: turn 1 committed ("));
	assert_non_null(strstr(out, "remind: 2 sent, 0 kept"));
	free(out);
	free(cmd);

	/* a campaign that fails (its roster does not read) is named; the
	 * others still run */
	cmd = xasprintf("printf 'bogus\\n' > %s/campaigns/quiet/.git/"
	    "crown-roster", base);
	free(sh_ok(cmd));
	free(cmd);
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-09T06:00:00Z");
	cmd = xasprintf("%s 2>&1; echo rc=$?", week);
	out = tu_sh("%s", cmd);
	free(cmd);
	assert_non_null(strstr(out, "quiet: "));
	assert_non_null(strstr(out, "crown-week.sh: failed: quiet\n"));
	assert_non_null(strstr(out, "played: Test Campaign: reminded side "
	    "republic of turn 2"));
	assert_non_null(strstr(out, "rc=1\n"));
	free(out);
	free(p);
	free(dir);
	free(week);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_quiet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_deadline, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unread, setup, teardown),
		cmocka_unit_test_setup_teardown(test_locked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_week, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
