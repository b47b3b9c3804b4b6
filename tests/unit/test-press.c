/*
 * test-press.c: press between the sides (press.h): crown inbox relays a
 * "Press:" mail to the sides its "to:" line names, From the umpire,
 * naming the sender's side and not his address; the password line, a
 * quotation and the signature are not relayed, nor is an attachment;
 * a press is never filed as orders, and orders are never relayed; the
 * sender is proved as for orders; a press is relayed once, even after a
 * run killed before it logged the mail; crown site lists the press for
 * the umpire, and for a side what it sent and received, escaped.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/press.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

TU_SCRATCH("press")

#define DANJOU	"Jean Danjou <danjou@example.org>"
#define MILAN	"Francisco Milan <milan@example.org>"
#define NOW	"2026-03-05T12:00:00Z"

#define MAIL(from, id, subject, body)					\
	"From: " from "\n"						\
	"To: Umpire <umpire@example.org>\n"				\
	"Subject: " subject "\n"					\
	"Date: Thu, 05 Mar 2026 09:00:00 +0000\n"			\
	"Message-ID: <" id ">\n"					\
	"MIME-Version: 1.0\n"						\
	"Content-Type: text/plain; charset=utf-8\n\n" body

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static void
put(const char *p, const char *text)
{
	FILE	*fp = fopen(p, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	fclose(fp);
}

/* A campaign at base/c with milan's password "tequila", and an empty
 * Maildir at base/mail. */
static char *
campaign(void)
{
	char	*dir = path("c"), *pw = path("pw"), *m;

	EXPECT(0, crown_cmd_new, dir, "--templates", "templates",
	    "--scenario", "tests/data/scenario-small.yaml", "--rules",
	    "rules/maximilian.yaml", "--secret-file",
	    "tests/data/campaign/secret.hex", "--date",
	    "2026-03-01T10:00:00Z");
	put(pw, "tequila\n");
	EXPECT(0, crown_cmd_roster, dir, "password", "milan@example.org",
	    "--password-file", pw, "--date", "2026-03-01T11:00:00Z");
	m = tu_sh("rm -rf '%s/outbox' && mkdir -p '%s/mail/new' "
	    "'%s/mail/cur' && echo ok", dir, base, base);
	assert_string_equal(m, "ok\n");
	free(m);
	free(pw);
	return dir;
}

/* A mail delivered into base/mail/new as name. */
static void
deliver(const char *name, const char *text)
{
	char	*p = xasprintf("%s/mail/new/%s", base, name);

	put(p, text);
	free(p);
}

/* crown inbox of dir at NOW, its output in *r. */
static void
inbox(struct run *r, const char *dir)
{
	char	*mail = path("mail");

	RUN(r, crown_cmd_inbox, dir, mail, "--now", NOW);
	free(mail);
}

/* The outbox's mails to addr whose subject has what, one after another
 * (caller frees; "" for none). */
static char *
mails_to(const char *dir, const char *addr, const char *what)
{
	return tu_sh("cd '%s/outbox/new' 2>/dev/null && for f in $(grep -l "
	    "'^To: .*<%s>' * 2>/dev/null); do grep -q '^Subject: .*%s' $f && "
	    "cat $f; done; true", dir, addr, what);
}

static char *
count(const char *cmd_fmt, const char *dir)
{
	return tu_sh(cmd_fmt, dir);
}

static void
test_subject(void **state)
{
	const char	*rest;

	(void)state;
	assert_true(crown_press_subject("Press: terms", &rest));
	assert_string_equal(rest, "terms");
	assert_true(crown_press_subject("  press:terms", &rest));
	assert_string_equal(rest, "terms");
	assert_true(crown_press_subject("Re: RE: Fwd: Press: terms", &rest));
	assert_string_equal(rest, "terms");
	assert_false(crown_press_subject("Orders, and Press: no", NULL));
	assert_false(crown_press_subject("Pressing matters", NULL));
	assert_false(crown_press_subject("Re: orders", NULL));
	assert_false(crown_press_subject(NULL, NULL));
}

/*
 * A press relayed: to milan, From the umpire, the Legion named and not
 * danjou's address; its answer; its file; no orders filed though it
 * holds some.  Then milan's reply to all, with his password and a
 * signature, neither relayed; then orders, answered and never relayed.
 */
static void
test_relay(void **state)
{
	struct run	 r;
	char		*dir = campaign(), *m, *f;

	(void)state;
	/* a second player of the Legion, who gets a copy naming danjou */
	EXPECT(0, crown_cmd_roster, dir, "add", "french", "Clement Maudet "
	    "<maudet@example.org>", "--date", "2026-03-01T12:00:00Z");
	deliver("1772690000.M1P1.t", MAIL(DANJOU, "p1@example.org",
	    "Press: Terms for the hacienda",
	    "to: republic\n\nWe offer you terms: leave the hacienda by "
	    "noon and keep your arms, your colours and your honour, for we "
	    "have no quarrel with brave men.\n\n1-legion: hold\n"));
	inbox(&r, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "new/1772690000.M1P1.t: press from side french, "
	    "relayed in 2 mails\n");
	assert_has(r.out, "0 accepted, 0 late, 0 refused, 0 already read, "
	    "1 press relayed\n");
	run_release(&r);
	m = mails_to(dir, "milan@example.org", "Press: Terms");
	assert_has(m, "Subject: [Test Campaign] Press: Terms for the "
	    "hacienda\n");
	assert_has(m, "From: Test Umpire <umpire@example.org>\n");
	assert_has(m, "\nFrom the Foreign Legion command:\n\n> We offer you "
	    "terms: leave the hacienda by noon and keep your arms, your\n> "
	    "colours and your honour, for we have no quarrel with brave "
	    "men.\n>\n> 1-legion: hold\n");
	assert_null(strstr(m, "danjou"));
	free(m);
	m = mails_to(dir, "maudet@example.org", "Press: Terms");
	/* (quoted-printable breaks the line of 78 columns) */
	assert_has(m, "\nFrom the Foreign Legion command (sent by Jean Danjou "
	    "<danjou@example.org>)");
	assert_has(m, "\nthe Mexican Republic command:\n\n> We offer you "
	    "terms");
	free(m);
	m = mails_to(dir, "danjou@example.org", "Press relayed");
	assert_has(m, "Your press \"Terms for the hacienda\" was relayed to "
	    "the Mexican Republic\ncommand");
	assert_has(m, "In-Reply-To: <p1@example.org>");
	free(m);
	/* never filed as orders, though it holds some */
	f = xasprintf("%s/orders/pending/french.yaml", dir);
	assert_int_equal(access(f, F_OK), -1);
	free(f);
	m = count("ls '%s/.git/crown-press'", dir);
	assert_non_null(strstr(m, "000001-"));
	free(m);
	m = count("cat '%s'/.git/crown-press/000001-*", dir);
	assert_has(m, "from: french\n");
	assert_has(m, "to: [republic]\n");
	assert_has(m, "sender: danjou@example.org\n");
	free(m);

	/* a reply to all: the password and the signature stay home */
	deliver("1772690100.M2P1.t", MAIL(MILAN, "p2@example.org",
	    "Re: Press: Terms for the hacienda",
	    "password: tequila\nTo: ALL\n\nNever.\n\n"
	    "> We offer you terms\n\n-- \nFrancisco Milan, colonel\n"));
	deliver("1772690200.M3P1.t", MAIL(DANJOU, "p3@example.org",
	    "orders", "1-legion: hold\n"));
	inbox(&r, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "new/1772690100.M2P1.t: press from side republic, "
	    "relayed in 2 mails\n");
	assert_has(r.out, "new/1772690200.M3P1.t: accepted: side french");
	run_release(&r);
	m = tu_sh("cd '%s/outbox/new' && grep -l '^From the Mexican Republic "
	    "command:' * | xargs cat", dir);
	assert_has(m, "To: Jean Danjou <danjou@example.org>\n");
	assert_has(m, "> Never.\n");
	assert_null(strstr(m, "tequila"));
	assert_null(strstr(m, "colonel"));
	assert_null(strstr(m, "We offer"));
	assert_null(strstr(m, "milan@"));
	free(m);
	/* orders are never relayed: one mail to milan all along */
	m = tu_sh("cd '%s/outbox/new' && grep -l '^To: .*milan@' * | wc -l",
	    dir);
	assert_string_equal(m, "2\n");	/* the press, the answer */
	free(m);
	m = count("ls '%s/.git/crown-press' | wc -l", dir);
	assert_string_equal(m, "2\n");
	free(m);
	free(dir);
}

/*
 * Refusals: a stranger (not answered), milan without his password, an
 * unknown side (the answer names the sides), no "to:" line, nothing to
 * relay, the sender's own side.  Nothing relayed, nothing kept.
 */
static void
test_refused(void **state)
{
	struct run	 r;
	char		*dir = campaign(), *m;

	(void)state;
	deliver("1772690000.M1P1.t", MAIL("Spy <spy@example.org>",
	    "q1@example.org", "Press: hello", "to: all\n\nhi\n"));
	deliver("1772690001.M2P1.t", MAIL(MILAN, "q2@example.org",
	    "Press: no password", "to: french\n\nhi\n"));
	deliver("1772690002.M3P1.t", MAIL(DANJOU, "q3@example.org",
	    "Press: lost", "to: prussia, republic\n\nhi\n"));
	deliver("1772690003.M4P1.t", MAIL(DANJOU, "q4@example.org",
	    "Press: nowhere", "Dear colonel,\n\nhi\n"));
	deliver("1772690004.M5P1.t", MAIL(DANJOU, "q5@example.org",
	    "Press: empty", "to: republic\n\n-- \nJean\n"));
	deliver("1772690005.M6P1.t", MAIL(DANJOU, "q6@example.org",
	    "Press: mine", "to: french\n\nhi\n"));
	inbox(&r, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "M1P1.t: refused, not answered (not from a "
	    "player):\n  'spy@example.org' is not a player");
	assert_has(r.out, "M2P1.t: refused, answered to milan@example.org:\n"
	    "  no password: give yours in a line 'password: ...'\n");
	assert_has(r.out, "M3P1.t: refused, answered to danjou@example.org:\n"
	    "  message: error: 'prussia' is not a side of Test Campaign: name "
	    "french, republic, or all\n");
	assert_has(r.out, "M4P1.t: refused, answered to danjou@example.org:\n"
	    "  message: error: the first line of a press says where it goes: "
	    "'to: SIDE', 'to: SIDE, SIDE' or 'to: all'\n");
	assert_has(r.out, "M5P1.t: refused, answered to danjou@example.org:\n"
	    "  message: error: nothing to relay after the 'to:' line\n");
	assert_has(r.out, "M6P1.t: refused, answered to danjou@example.org:\n"
	    "  message: error: 'french' is your own side");
	assert_has(r.out, "6 messages: 0 accepted, 0 late, 6 refused");
	run_release(&r);
	m = mails_to(dir, "danjou@example.org", "Press not relayed");
	assert_has(m, "Nothing was relayed; a press mail is never read as "
	    "orders.");
	free(m);
	m = tu_sh("grep -l '^Subject: .*Press: ' '%s'/outbox/new/* | wc -l",
	    dir);
	assert_string_equal(m, "0\n");
	free(m);
	m = count("ls '%s/.git/crown-press' 2>/dev/null | wc -l", dir);
	assert_string_equal(m, "0\n");
	free(m);
	free(dir);
}

/*
 * An attachment is not relayed, and the answer says so; a run killed
 * after the press was kept but before the mail was logged relays it
 * no second time.
 */
static void
test_once(void **state)
{
	struct run	 r;
	char		*dir = campaign(), *m, *before, *after;

	(void)state;
	deliver("1772690000.M1P1.t",
	    "From: " DANJOU "\n"
	    "To: Umpire <umpire@example.org>\n"
	    "Subject: Press: a map\n"
	    "Message-ID: <a1@example.org>\n"
	    "MIME-Version: 1.0\n"
	    "Content-Type: multipart/mixed; boundary=\"XX\"\n\n"
	    "--XX\n"
	    "Content-Type: text/plain\n\n"
	    "to: all\n\nSee the map.\n"
	    "--XX\n"
	    "Content-Type: image/png; name=\"camerone.png\"\n"
	    "Content-Disposition: attachment; filename=\"camerone.png\"\n"
	    "Content-Transfer-Encoding: base64\n\n"
	    "iVBORw0KGgo=\n"
	    "--XX--\n");
	inbox(&r, dir);
	assert_int_equal(r.status, 0);
	run_release(&r);
	m = mails_to(dir, "danjou@example.org", "Press relayed");
	assert_has(m, "Attachments are never relayed; these were not:\n\n"
	    "  camerone.png\n");
	free(m);
	m = mails_to(dir, "milan@example.org", "Press: a map");
	assert_null(strstr(m, "camerone.png"));
	assert_null(strstr(m, "iVBOR"));
	free(m);
	/* as if killed after the press was kept, before the log */
	before = tu_sh("ls '%s/outbox/new' '%s/.git/crown-press'", dir, dir);
	m = tu_sh("rm '%s/orders/inbox.log' && echo ok", dir);
	assert_string_equal(m, "ok\n");
	free(m);
	inbox(&r, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "M1P1.t: press from side french relayed before\n");
	run_release(&r);
	after = tu_sh("ls '%s/outbox/new' '%s/.git/crown-press'", dir, dir);
	assert_string_equal(before, after);
	free(before);
	free(after);
	free(dir);
}

/*
 * crown site: the umpire's index lists every press; the republic's
 * shows what it sent and received; the French site, both of them too;
 * a name and a text of markup escaped.  A new press makes the site out
 * of date.
 */
static void
test_site(void **state)
{
	struct run	 r;
	char		*dir = campaign(), *out = path("site"), *m, *side;

	(void)state;
	deliver("1772690000.M1P1.t", MAIL(DANJOU, "s1@example.org",
	    "Press: <script>alert(1)</script>",
	    "to: republic\n\nA <b>bold</b> & \"plain\" offer.\n"));
	inbox(&r, dir);
	run_release(&r);
	EXPECT(0, crown_cmd_site, dir, out, "--templates", "templates");
	m = tu_sh("cat '%s/index.html'", out);
	assert_has(m, "<h2>Press</h2>");
	assert_has(m, "<h3>&lt;script&gt;alert(1)&lt;/script&gt;</h3>");
	assert_has(m, "Turn 1, 2026-03-05T05:53:20Z: from the Foreign Legion "
	    "command to the Mexican Republic command.");
	assert_has(m, "A &lt;b&gt;bold&lt;/b&gt; &amp; &quot;plain&quot; "
	    "offer.");
	assert_null(strstr(m, "<script>"));
	assert_null(strstr(m, "danjou@"));
	free(m);
	side = path("site-r");
	EXPECT(0, crown_cmd_site, dir, side, "--side", "republic",
	    "--templates", "templates");
	m = tu_sh("cat '%s/index.html'", side);
	assert_has(m, "received from the Foreign Legion command");
	free(m);
	free(side);
	/* one more press: the index is made again */
	deliver("1772690100.M2P1.t", MAIL(MILAN, "s2@example.org",
	    "Press: answer", "password: tequila\nto: french\n\nNo.\n"));
	inbox(&r, dir);
	run_release(&r);
	RUN(&r, crown_cmd_site, dir, out, "--templates", "templates");
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, " 0 written"));
	run_release(&r);
	m = tu_sh("grep -c '<section class=\"press\">' '%s/index.html'", out);
	assert_string_equal(m, "2\n");
	free(m);
	free(out);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject),
		cmocka_unit_test_setup_teardown(test_relay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_site, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
