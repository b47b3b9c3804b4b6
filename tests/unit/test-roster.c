/*
 * test-roster.c: the players' identity and the campaign's secrets (issue
 * 19).  Credentials live in .git/crown-roster and never in a commit: a
 * walk over every object of the repository finds no password-derived
 * bytes; crown new refuses a scenario with password_sha256; crown roster
 * and crown deadline commit their changes, which crown log shows and
 * crown verify accepts; a hand edit is refused, not undone.
 */
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <git2.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"


TU_SCRATCH("roster")


/* Run, expect a status and text in stdout or stderr ("" for any). */
/* this test's EXPECT also wants an output */
#undef EXPECT
#define EXPECT(status_, want, cmd, ...) do {				\
	struct run r_;							\
	RUN(&r_, cmd, __VA_ARGS__);					\
	if (r_.status != (status_) || (strstr(r_.out, (want)) == NULL &&\
	    strstr(r_.err, (want)) == NULL)) {				\
		print_error("crown %s: status %d, expected %d and "	\
		    "\"%s\"\nstdout:\n%s\nstderr:\n%s\n", (cmd).name,	\
		    r_.status, (status_), (want), r_.out, r_.err);	\
		run_release(&r_);					\
		fail();							\
	}								\
	run_release(&r_);						\
} while (0)

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

static void
new_campaign(const char *dir)
{
	EXPECT(0, "turn 0 committed", crown_cmd_new, dir, "--templates", TMPL,
	    "--scenario", SCEN, "--rules", RULES, "--secret-file", SECRET,
	    "--date",
	    "2026-03-01T10:00:00+01:00");
}

/* Every object of the repository, searched for each needle. */
struct walk {
	git_odb		 *odb;
	const char *const *needles;
	size_t		  nobjects;
	int		  found;
};

static bool
contains(const char *hay, size_t len, const char *needle, size_t n)
{
	size_t	i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return true;
	return false;
}

static int
walk_one(const git_oid *id, void *arg)
{
	struct walk	*w = arg;
	git_odb_object	*o;
	const char	*data;
	size_t		 len, i, n;

	if (git_odb_read(&o, w->odb, id) != 0)
		return -1;
	w->nobjects++;
	data = git_odb_object_data(o);
	len = git_odb_object_size(o);
	for (i = 0; w->needles[i] != NULL; i++) {
		n = strlen(w->needles[i]);
		if (contains(data, len, w->needles[i], n)) {
			print_error("object %s holds \"%s\"\n",
			    git_oid_tostr_s(id), w->needles[i]);
			w->found++;
		}
	}
	git_odb_object_free(o);
	return 0;
}

/*
 * No object of dir's repository (reachable or not: the whole object
 * database, which holds every blob of every ref) holds any needle.
 */
static void
assert_no_object_has(const char *dir, const char *const *needles)
{
	git_repository	*repo;
	struct walk	 w = { 0 };

	git_libgit2_init();
	assert_int_equal(git_repository_open(&repo, dir), 0);
	assert_int_equal(git_repository_odb(&w.odb, repo), 0);
	w.needles = needles;
	assert_int_equal(git_odb_foreach(w.odb, walk_one, &w), 0);
	assert_true(w.nobjects > 10);
	assert_int_equal(w.found, 0);
	git_odb_free(w.odb);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

static const char mail_milan[] =
    "From: Francisco Milan <milan@example.org>\n"
    "To: Test Umpire <umpire@example.org>\n"
    "Subject: orders\n"
    "Date: Sun, 01 Mar 2026 12:00:00 +0000\n"
    "Message-ID: <milan-1@example.org>\n"
    "Content-Type: text/plain\n"
    "\n"
    "password: tequila\n"
    "2-militia: reload\n";

static const char mail_pedro[] =
    "From: Pedro Rio <pedro@example.org>\n"
    "Subject: orders\n"
    "Message-ID: <pedro-1@example.org>\n"
    "Content-Type: text/plain\n"
    "\n"
    "2-militia: hold\n";

static const char mail_wrong[] =
    "From: Francisco Milan <milan@example.org>\n"
    "Subject: orders\n"
    "Message-ID: <milan-2@example.org>\n"
    "Content-Type: text/plain\n"
    "\n"
    "password: mezcal\n"
    "2-militia: hold\n";

static const char mail_forged[] =
    "From: Francisco Milan <milan@evil.example>\n"
    "Subject: orders\n"
    "Message-ID: <forged-1@example.org>\n"
    "Content-Type: text/plain\n"
    "\n"
    "password: tequila\n"
    "2-militia: hold\n";

/* The answer in dir's outbox to Message-ID <id@example.org>, or NULL. */
static char *
ack(const char *dir, const char *id)
{
	char	*cmd, *s = NULL, *name;
	FILE	*fp;
	char	 line[512];

	cmd = xasprintf("grep -l 'In-Reply-To: <%s@example.org>' "
	    "'%s'/outbox/new/* 2>/dev/null", id, dir);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	if (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		name = xstrdup(line);
		s = tu_slurp(name);
		free(name);
	}
	pclose(fp);
	free(cmd);
	return s;
}

static void
mailbox(const char *dir, const char *name, const char *text)
{
	char	*p;

	p = xasprintf("%s/mail", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/mail/new", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/mail/cur", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/mail/new/%s", dir, name);
	put(p, text);
	free(p);
}

/*
 * A password given to a player, a mail with it filed, a turn played:
 * the hash is in .git/crown-roster (0600), and no object holds the
 * password, its SHA-256 or its Argon2id string.
 */
static void
test_no_credentials_in_history(void **state)
{
	struct crown_roster	 r;
	struct crown_diags	 d = { 0 };
	struct stat		 st;
	char			*dir = path("c"), *p, *mail, *hash, *t;
	char			 hex[CROWN_SHA256_HEX];
	struct run		 run;

	(void)state;
	new_campaign(dir);
	p = crown_roster_path(dir);
	assert_int_equal(crown_roster_load(&r, p, &d), 0);
	assert_int_equal(crown_roster_set_password(crown_roster_get(&r,
	    "milan@example.org"), "tequila"), 0);
	assert_int_equal(crown_roster_save(&r, p, &d), 0);
	hash = xstrdup(r.v[0].password);
	assert_non_null(strstr(hash, "$argon2id$"));
	crown_roster_release(&r);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_non_null(strstr(p, "/.git/crown-roster"));
	free(p);

	mailbox(dir, "1", mail_milan);
	mail = xasprintf("%s/mail", dir);
	EXPECT(0, "accepted: side republic", crown_cmd_inbox, dir, mail,
	    "--now", "2026-03-01T12:00:00Z");
	/* a password-less player of the side cannot replace them, nor can
	 * a wrong password or a forged From */
	/* a name is one line of plain text, quoted escaped when refused */
	EXPECT(2, "not 'Pedro \\u202ERio <pedro@example.org>'",
	    crown_cmd_roster, dir, "add", "republic",
	    "Pedro \xe2\x80\xaeRio <pedro@example.org>");
	EXPECT(2, "not 'Pedro\\u000ARio <pedro@example.org>'",
	    crown_cmd_roster, dir, "add", "republic",
	    "Pedro\nRio <pedro@example.org>");
	EXPECT(0, "Roster: add Pedro", crown_cmd_roster, dir, "add",
	    "republic", "Pedro Rio <pedro@example.org>");
	mailbox(dir, "2", mail_pedro);
	mailbox(dir, "3", mail_wrong);
	mailbox(dir, "4", mail_forged);
	EXPECT(0, "the orders filed for side 'republic' came with a "
	    "password; you are identified by the From address alone only",
	    crown_cmd_inbox, dir, mail, "--now", "2026-03-01T12:10:00Z");
	EXPECT(0, "", crown_cmd_status, dir);
	p = xasprintf("%s/orders/inbox.log", dir);
	t = tu_slurp(p);
	free(p);
	assert_non_null(t);
	assert_non_null(strstr(t, " refused 1 republic "));
	free(t);
	t = ack(dir, "milan-1");
	assert_non_null(strstr(t, "You were identified by your password."));
	free(t);
	t = ack(dir, "milan-2");
	assert_non_null(strstr(t, "wrong password"));
	free(t);
	assert_null(ack(dir, "forged-1"));
	RUN(&run, crown_cmd_turn, dir, "--allow-missing", "--templates",
	    TMPL, "--date", "2026-03-08");
	if (run.status != 0)	/* before --allow-missing existed */
		EXPECT(0, "", crown_cmd_turn, dir, "--templates", TMPL,
		    "--date", "2026-03-08");
	run_release(&run);
	crown_mail_sha256_hex(hex, "tequila", 7);
	assert_no_object_has(dir, (const char *const []){ "tequila", hex,
	    hash, "$argon2", "password_sha256", NULL });
	free(hash);
	free(mail);
	free(dir);
	crown_diags_release(&d);
}

/* crown new refuses password_sha256, naming crown roster. */
static void
test_new_refuses_hash(void **state)
{
	char	*text, *with, *scen = path("s.yaml"), *dir = path("c");
	char	*at;

	(void)state;
	text = tu_slurp(SCEN);
	assert_non_null(text);
	at = strstr(text, "email: \"milan@example.org\"");
	assert_non_null(at);
	with = xasprintf("%.*semail: \"milan@example.org\", password_sha256: "
	    "\"%064d\"%s", (int)(at - text), text, 0,
	    at + strlen("email: \"milan@example.org\""));
	put(scen, with);
	EXPECT(65, "'password_sha256' would put the password's hash in the "
	    "history", crown_cmd_new, dir, "--templates", TMPL, "--scenario",
	    scen, "--rules", RULES, "--secret-file", SECRET);
	EXPECT(65, "crown roster DIR password EMAIL", crown_cmd_new, dir,
	    "--templates", TMPL, "--scenario", scen, "--rules", RULES,
	    "--secret-file", SECRET);
	assert_int_equal(access(dir, F_OK), -1);
	free(with);
	free(text);
	free(scen);
	free(dir);
}

static char *
state_of(const char *dir)
{
	char	*p = xasprintf("%s/state.yaml", dir), *s;

	s = tu_slurp(p);
	free(p);
	assert_non_null(s);
	return s;
}

static void
has(const char *text, const char *want)
{
	if (strstr(text, want) == NULL) {
		print_error("\"%s\" not in:\n%s\n", want, text);
		fail();
	}
}

/*
 * crown roster add --openpgp FPR --key-file F with a throwaway key: the
 * key file must hold the key named; the roster then lists it.
 */
static void
openpgp(const char *dir)
{
	char	*gh = path("gnupg"), *pub = path("pub.asc"), *cmd, *list;
	char	 fpr[64];
	FILE	*fp;

	assert_int_equal(mkdir(gh, 0700), 0);
	cmd = xasprintf("GNUPGHOME=%s gpg --batch --pinentry-mode loopback "
	    "--passphrase '' --quick-gen-key 'Rosa <rosa@example.org>' "
	    "default default never >/dev/null 2>&1 && GNUPGHOME=%s gpg "
	    "--batch --armor --export rosa@example.org >%s 2>/dev/null && "
	    "GNUPGHOME=%s gpg --batch --with-colons --list-keys "
	    "rosa@example.org 2>/dev/null | awk -F: '/^fpr/ { print $10; "
	    "exit }'", gh, gh, pub, gh);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	assert_non_null(fgets(fpr, sizeof(fpr), fp));
	pclose(fp);
	free(cmd);
	fpr[strcspn(fpr, "\n")] = '\0';
	assert_int_equal(strlen(fpr), 40);
	EXPECT(2, "--openpgp FPR and --key-file F go together",
	    crown_cmd_roster, dir, "add", "republic", "Rosa "
	    "<rosa@example.org>", "--openpgp", fpr);
	EXPECT(65, "no key of fingerprint", crown_cmd_roster, dir, "add",
	    "republic", "Rosa <rosa@example.org>", "--openpgp",
	    "0123456789ABCDEF0123456789ABCDEF01234567", "--key-file", pub);
	EXPECT(0, "Roster: add Rosa <rosa@example.org> to republic",
	    crown_cmd_roster, dir, "add", "republic", "Rosa "
	    "<rosa@example.org>", "--openpgp", fpr, "--key-file", pub);
	list = xasprintf("rosa@example.org>: OpenPGP signature, key %s",
	    fpr);
	EXPECT(0, list, crown_cmd_roster, dir, "list");
	free(list);
	cmd = xasprintf("GNUPGHOME=%s gpgconf --kill all; GNUPGHOME=%s/.git/"
	    "crown-gnupg gpgconf --kill all", gh, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(pub);
	free(gh);
}

/* The text of the mail in dir's outbox to addr whose subject has what,
 * its lines joined by spaces (a sentence is filled across lines);
 * caller frees. */
static char *
mail_to(const char *dir, const char *addr, const char *what)
{
	return tu_sh("cd '%s/outbox/new' && for f in $(grep -l '^To: .*<%s>' "
	    "*); do grep -q '^Subject: .*%s' $f && tr '\\n' ' ' <$f; done",
	    dir, addr, what);
}

/*
 * The briefing tells each player how he is identified (his address, the
 * password line, his OpenPGP key) and that there is no deadline yet;
 * crown deadline then mails every player the deadline with the same
 * words on sending orders.
 */
static void
test_briefing_identifies(void **state)
{
	char		*dir = path("c"), *pw = path("pw"), *m, *fpr, *want;
	struct run	 r;

	(void)state;
	new_campaign(dir);
	m = mail_to(dir, "milan@example.org", "Briefing");
	has(m, "No deadline is set for the orders of turn 1 yet");
	has(m, "You are identified by your address alone: send from "
	    "milan@example.org.");
	has(m, "(to umpire@example.org), as orders.yaml attached or in the "
	    "text of the mail.");
	free(m);
	put(pw, "mezcal\n");
	EXPECT(0, "the briefing for ana@example.org", crown_cmd_roster, dir,
	    "add", "republic", "Ana Ruiz <ana@example.org>",
	    "--password-file", pw, "--date", "2026-03-01T11:00:00Z");
	m = mail_to(dir, "ana@example.org", "Briefing");
	has(m, "You are identified by the password line: put \"password: \" "
	    "and the password the umpire gave you on a line of its own in "
	    "every mail you send, from ana@example.org.");
	if (strstr(m, "mezcal") != NULL)
		fail();
	free(m);
	openpgp(dir);
	RUN(&r, crown_cmd_roster, dir, "list");
	fpr = strstr(r.out, "rosa@example.org>: OpenPGP signature, key ");
	assert_non_null(fpr);
	fpr += strlen("rosa@example.org>: OpenPGP signature, key ");
	want = xasprintf("You are identified by your PGP/MIME signature "
	    "(key %.40s): sign every mail you send with it.", fpr);
	run_release(&r);
	m = mail_to(dir, "rosa@example.org", "Briefing");
	has(m, want);
	free(m);

	/* the deadline set after the briefings: every player told */
	EXPECT(0, "4 mails to the players in ", crown_cmd_deadline, dir,
	    "2026-03-08T19:00:00+01:00", "--every", "7d", "--date",
	    "2026-03-01T12:00:00Z");
	m = mail_to(dir, "rosa@example.org", "Deadline: orders for turn 1 by "
	    "2026-03-08T18:00:00Z");
	has(m, "Orders for turn 1 are due by 2026-03-08T18:00:00Z (UTC); "
	    "then every 7d.");
	has(m, want);
	free(m);
	m = mail_to(dir, "ana@example.org", "Deadline: orders");
	has(m, "You are identified by the password line");
	free(m);
	m = mail_to(dir, "danjou@example.org", "Deadline: orders");
	has(m, "You are identified by your address alone");
	free(m);
	EXPECT(0, "Deadline: none", crown_cmd_deadline, dir, "none", "--date",
	    "2026-03-01T13:00:00Z");
	m = mail_to(dir, "milan@example.org", "Deadline: none for turn 1");
	has(m, "There is no deadline for the orders of turn 1 now");
	free(m);
	free(want);
	free(pw);
	free(dir);
}

/*
 * crown roster and crown deadline: each change a commit that crown log
 * shows and crown verify accepts; --every from the previous deadline; a
 * hand edit refused, naming the command; a rerun over the changes.
 */
static void
test_roster_and_deadline(void **state)
{
	char		*dir = path("c"), *pw = path("pw"), *st, *p, *ed;
	struct run	 r;

	(void)state;
	new_campaign(dir);
	put(pw, "mezcal\n");
	EXPECT(0, "milan@example.org>: From address only", crown_cmd_roster,
	    dir, "list");
	EXPECT(0, "Roster: add Ana Ruiz <ana@example.org> to republic",
	    crown_cmd_roster, dir, "add", "republic", "Ana Ruiz "
	    "<ana@example.org>", "--password-file", pw, "--date",
	    "2026-03-01T11:00:00Z");
	EXPECT(65, "already plays side 'republic'", crown_cmd_roster, dir,
	    "add", "republic", "Ana <ana@example.org>");
	EXPECT(2, "not list, add, remove, password, away, back or replace",
	    crown_cmd_roster, dir,
	    "rename", "x");
	EXPECT(2, "password needs --password-file", crown_cmd_roster, dir,
	    "password", "ana@example.org");
	EXPECT(65, "'nobody@example.org' is not a player", crown_cmd_roster,
	    dir, "password", "nobody@example.org", "--password-file", pw);
	EXPECT(0, "Roster: new password for milan@example.org",
	    crown_cmd_roster, dir, "password", "milan@example.org",
	    "--password-file", pw);
	EXPECT(0, "ana@example.org>: password", crown_cmd_roster, dir,
	    "list");
	openpgp(dir);
	st = state_of(dir);
	has(st, "Ana Ruiz");
	if (strstr(st, "argon") != NULL || strstr(st, "mezcal") != NULL)
		fail();
	free(st);
	EXPECT(2, "is not a time", crown_cmd_deadline, dir, "tomorrow");
	EXPECT(2, "--every: 'often' is not a duration", crown_cmd_deadline,
	    dir, "+7d", "--every", "often");
	EXPECT(0, "Deadline: 2026-03-08T18:00:00Z, then every 7d",
	    crown_cmd_deadline, dir, "2026-03-08T19:00:00+01:00", "--every",
	    "7d", "--date", "2026-03-01T12:00:00Z");
	EXPECT(0, "roster    2026-03-01", crown_cmd_log, dir);
	EXPECT(0, "deadline  2026-03-01", crown_cmd_log, dir);
	EXPECT(0, "verify: 1 turn matches", crown_cmd_verify, dir,
	    "--templates", TMPL);

	/* the turn is played late: the next deadline is a week after the
	 * last, not after the turn */
	EXPECT(0, "turn 1 committed", crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-10");
	st = state_of(dir);
	has(st, "deadline: \"2026-03-15T18:00:00Z\"");
	has(st, "deadline_every: \"7d\"");
	has(st, "Ana Ruiz");
	free(st);
	RUN(&r, crown_cmd_turn, dir, "--templates", TMPL, "--date",
	    "2026-03-16", "--allow-missing");
	if (r.status != 0)	/* before --allow-missing existed */
		EXPECT(0, "turn 2 committed", crown_cmd_turn, dir,
		    "--templates", TMPL, "--date", "2026-03-16");
	run_release(&r);
	st = state_of(dir);
	has(st, "deadline: \"2026-03-22T18:00:00Z\"");
	free(st);
	EXPECT(0, "verify: 3 turns match", crown_cmd_verify, dir,
	    "--templates", TMPL);
	EXPECT(0, "deadline ", crown_cmd_verify, dir,
	    "--templates", TMPL);

	/* a hand edit is refused and left as it is */
	p = xasprintf("%s/state.yaml", dir);
	st = state_of(dir);
	ed = xasprintf("%s# mine\n", st);
	put(p, ed);
	EXPECT(65, "edited by hand, and crown will not undo it: the players "
	    "change with crown roster", crown_cmd_deadline, dir, "none");
	free(st);
	st = state_of(dir);
	assert_string_equal(st, ed);
	free(st);
	free(ed);
	EXPECT(0, "", crown_cmd_verify, dir,
	    "--templates", TMPL);
	ed = xasprintf("git -C '%s' checkout -q -- state.yaml", dir);
	assert_int_equal(system(ed), 0);
	free(ed);
	EXPECT(0, "Roster: remove ana@example.org from republic",
	    crown_cmd_roster, dir, "remove", "ana@example.org");
	EXPECT(0, "Deadline: none", crown_cmd_deadline, dir, "none");
	EXPECT(0, "roster ", crown_cmd_verify, dir,
	    "--templates", TMPL);

	/* a rerun of turn 1 replays the changes after it */
	EXPECT(0, "rerun of turn 1", crown_cmd_rerun, dir, "1", "--orders",
	    DATA "/republic-1-amended.yaml", "--templates", TMPL);
	assert_no_object_has(dir, (const char *const []){ "mezcal",
	    "$argon2", NULL });
	free(p);
	free(pw);
	free(dir);
}

/* A campaign at dir of the small scenario with the game settings extra
 * ("  absence: hold\n"...) added. */
static void
new_campaign_with(const char *dir, const char *extra)
{
	char	*text, *with, *scen = path("scen.yaml"), *at;

	text = tu_slurp(SCEN);
	assert_non_null(text);
	at = strstr(text, "  last_turn: 12\n");
	assert_non_null(at);
	at += strlen("  last_turn: 12\n");
	with = xasprintf("%.*s%s%s", (int)(at - text), text, extra, at);
	put(scen, with);
	EXPECT(0, "turn 0 committed", crown_cmd_new, dir, "--templates", TMPL,
	    "--scenario", scen, "--rules", RULES, "--secret-file", SECRET,
	    "--date", "2026-03-01T10:00:00Z");
	free(with);
	free(text);
	free(scen);
}

/* crown status DIR --now now succeeds and does not say text. */
static void
status_lacks(const char *dir, const char *now, const char *text)
{
	struct run	r;

	RUN(&r, crown_cmd_status, dir, "--now", now);
	assert_int_equal(r.status, 0);
	has(r.out, "sides have orders in\n");
	if (strstr(r.out, text) != NULL) {
		print_error("\"%s\" in:\n%s\n", text, r.out);
		fail();
	}
	run_release(&r);
}

/* How many mails of dir's outbox hold text. */
static int
mails_with(const char *dir, const char *text)
{
	char	*n = tu_sh("grep -lF '%s' '%s'/outbox/new/* 2>/dev/null | "
	    "wc -l", text, dir);
	int	 k = (int)strtol(n, NULL, 10);

	free(n);
	return k;
}

/* side's orders for turn (the french orders of turn 1 made over), in
 * base; caller frees. */
static char *
french(int turn)
{
	char	*text, *p, *with;

	text = tu_slurp(DATA "/french-1.yaml");
	assert_non_null(text);
	p = strstr(text, "turn: 1\n");
	assert_non_null(p);
	with = xasprintf("%.*sturn: %d\n%s", (int)(p - text), text, turn,
	    p + strlen("turn: 1\n"));
	p = xasprintf("%s/french-%d.yaml", base, turn);
	put(p, with);
	free(with);
	free(text);
	return p;
}

/*
 * crown roster away and back with game.absence extend (the default):
 * the deadline moves to the end of the absence in the same commit, and
 * every player is told why; at most max_absence after the deadline the
 * turn or crown deadline set (both sides of the cap); back leaves it; a
 * side with a player at home keeps its deadline.
 */
static void
test_away_extends(void **state)
{
	char		*dir = path("c"), *st;

	(void)state;
	new_campaign(dir);
	EXPECT(0, "Deadline: 2026-03-08T18:00:00Z", crown_cmd_deadline, dir,
	    "2026-03-08T18:00:00Z", "--every", "7d", "--date",
	    "2026-03-01T11:00:00Z");
	assert_int_equal(mails_with(dir, "Orders for turn 1 are due by "
	    "2026-03-08T18:00:00Z (UTC)"), 2);
	EXPECT(2, "away needs --until TIME", crown_cmd_roster, dir, "away",
	    "danjou@example.org");
	EXPECT(2, "--until goes with away", crown_cmd_roster, dir, "back",
	    "danjou@example.org", "--until", "2026-03-12T00:00:00Z");
	EXPECT(2, "--until: 'friday' is not a time", crown_cmd_roster, dir,
	    "away", "danjou@example.org", "--until", "friday");
	EXPECT(65, "'nobody@example.org' is not a player", crown_cmd_roster,
	    dir, "away", "nobody@example.org", "--until",
	    "2026-03-12T00:00:00Z", "--date", "2026-03-02T00:00:00Z");
	EXPECT(65, "'danjou@example.org' is not away", crown_cmd_roster, dir,
	    "back", "danjou@example.org");
	EXPECT(65, "--until 2026-03-02T00:00:00Z is not after the time of the "
	    "change, 2026-03-02T00:00:00Z", crown_cmd_roster, dir, "away",
	    "danjou@example.org", "--until", "2026-03-02T00:00:00Z", "--date",
	    "2026-03-02T00:00:00Z");
	EXPECT(0, "The deadline moves from 2026-03-08T18:00:00Z to "
	    "2026-03-12T00:00:00Z\nbecause every player of french is away "
	    "until 2026-03-12T00:00:00Z\n", crown_cmd_roster, dir, "away",
	    "danjou@example.org", "--until", "2026-03-12T01:00:00+01:00",
	    "--date", "2026-03-02T00:00:00Z");
	st = state_of(dir);
	has(st, "deadline: \"2026-03-12T00:00:00Z\"");
	has(st, "away_until: \"2026-03-12T00:00:00Z\"");
	free(st);
	EXPECT(0, "danjou@example.org>: From address only; away until "
	    "2026-03-12T00:00:00Z\n", crown_cmd_roster, dir, "list");
	EXPECT(0, "french: every player is away until 2026-03-12T00:00:00Z "
	    "(game.absence: extend)", crown_cmd_status, dir, "--now",
	    "2026-03-11T23:59:59Z");
	/* one mail to each player, and the commit says it too */
	assert_int_equal(mails_with(dir, "Subject: [Test Campaign] The "
	    "deadline moves to 2026-03-12T00:00:00Z"), 2);
	st = tu_sh("git -C '%s' log -1 --format=%%B", dir);
	has(st, "Roster: danjou@example.org away until 2026-03-12T00:00:00Z\n"
	    "\nThe deadline moves from 2026-03-08T18:00:00Z to "
	    "2026-03-12T00:00:00Z");
	free(st);
	/* the cap, exactly: 14d after the deadline set */
	EXPECT(0, "to 2026-03-22T18:00:00Z\nbecause", crown_cmd_roster, dir,
	    "away", "danjou@example.org", "--until", "2026-03-22T18:00:00Z",
	    "--date", "2026-03-02T01:00:00Z");
	/* a second past it: no further */
	EXPECT(0, "the deadline,\n2026-03-22T18:00:00Z, stays (it was moved "
	    "as far as game.max_absence\nlets it)", crown_cmd_roster, dir,
	    "away", "danjou@example.org", "--until", "2026-03-22T18:00:01Z",
	    "--date", "2026-03-02T02:00:00Z");
	assert_int_equal(mails_with(dir, "The deadline moves to "
	    "2026-03-22T18:00:00Z"), 2);
	EXPECT(0, "Roster: danjou@example.org back", crown_cmd_roster, dir,
	    "back", "danjou@example.org", "--date", "2026-03-03T00:00:00Z");
	st = state_of(dir);
	has(st, "deadline: \"2026-03-22T18:00:00Z\"");
	if (strstr(st, "away_until") != NULL)
		fail();
	free(st);
	/* a side with a player at home: the deadline stays */
	EXPECT(0, "Roster: add Ana", crown_cmd_roster, dir, "add", "french",
	    "Ana Ruiz <ana@example.org>", "--date", "2026-03-03T01:00:00Z");
	EXPECT(0, "Roster: danjou@example.org away until 2026-03-30T00:00:00Z "
	    "(", crown_cmd_roster, dir, "away", "danjou@example.org",
	    "--until", "2026-03-30T00:00:00Z", "--date",
	    "2026-03-03T02:00:00Z");
	st = state_of(dir);
	has(st, "deadline: \"2026-03-22T18:00:00Z\"");
	free(st);
	status_lacks(dir, "2026-03-04T00:00:00Z", "away");
	/* crown deadline tells every player too, with the reason */
	EXPECT(2, "--reason is one line", crown_cmd_deadline, dir, "+1d",
	    "--reason", "");
	EXPECT(0, "3 mails to the players", crown_cmd_deadline, dir,
	    "2026-03-23T18:00:00Z", "--reason", "the post is slow");
	assert_int_equal(mails_with(dir, "Subject: [Test Campaign] Deadline: "
	    "orders for turn 1 by 2026-03-23T18:00:00Z"), 3);
	assert_int_equal(mails_with(dir, "moves from 2026-03-22T18:00:00Z"),
	    3);
	assert_int_equal(mails_with(dir, "the post is slow"), 3);
	st = tu_sh("git -C '%s' log -1 --format=%%B", dir);
	has(st, "\nReason: the post is slow\n");
	free(st);
	EXPECT(0, "verify: 1 turn matches", crown_cmd_verify, dir,
	    "--templates", TMPL);
	free(dir);
}

/*
 * game.absence hold: the deadline stays, and a turn played while every
 * player of a side is away does not wait for its orders; once the
 * absence is over it does.
 */
static void
test_away_holds(void **state)
{
	char	*dir = path("c"), *st;

	(void)state;
	new_campaign_with(dir, "  absence: hold\n");
	EXPECT(0, "Deadline: 2026-03-08T18:00:00Z", crown_cmd_deadline, dir,
	    "2026-03-08T18:00:00Z", "--date", "2026-03-01T11:00:00Z");
	EXPECT(0, "the deadline\nstays (game.absence: hold)", crown_cmd_roster,
	    dir, "away", "danjou@example.org", "--until",
	    "2026-03-09T00:00:00Z", "--date", "2026-03-02T00:00:00Z");
	st = state_of(dir);
	has(st, "deadline: \"2026-03-08T18:00:00Z\"");
	free(st);
	assert_int_equal(mails_with(dir, "The deadline moves"), 0);
	/* after the absence, the side is waited for again */
	EXPECT(65, "no orders from side 'french' for turn 1", crown_cmd_turn,
	    dir, DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-09T00:00:00Z");
	EXPECT(0, "turn 1 committed", crown_cmd_turn, dir, DATA
	    "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08T23:59:59Z");
	st = tu_sh("git -C '%s' log -1 --format=%%B", dir);
	has(st, "Orders from republic.\nAway: every player of french, until "
	    "2026-03-09T00:00:00Z: its units held (R2.3).\n");
	free(st);
	EXPECT(0, "verify: 2 turns match", crown_cmd_verify, dir,
	    "--templates", TMPL);
	free(dir);
}

/*
 * game.missed_orders {limit: 2}: one turn missed is not civil disorder,
 * two are; a side in civil disorder does not hold up crown turn, which
 * says so in its commit and in the mailed reports, and crown log marks
 * it; crown roster replace hands the side to a new player, which ends
 * it, and crown log shows who held the side for which turns.
 */
static void
test_civil_disorder(void **state)
{
	char		*dir = path("c"), *pw = path("pw"), *f1, *f2, *f3, *f4;
	char		*st;

	(void)state;
	new_campaign_with(dir, "  missed_orders: {limit: 2}\n");
	put(pw, "mezcal\n");
	f1 = french(1);
	f2 = french(2);
	f3 = french(3);
	f4 = french(4);
	EXPECT(0, "turn 1 committed", crown_cmd_turn, dir, f1, "--templates",
	    TMPL, "--allow-missing", "--date", "2026-03-02T00:00:00Z");
	EXPECT(0, "republic: 1 turn in a row without orders (civil disorder "
	    "at 2)", crown_cmd_status, dir, "--now", "2026-03-02T01:00:00Z");
	EXPECT(65, "no orders from side 'republic' for turn 2", crown_cmd_turn,
	    dir, f2, "--templates", TMPL, "--date", "2026-03-03T00:00:00Z");
	EXPECT(0, "turn 2 committed", crown_cmd_turn, dir, f2, "--templates",
	    TMPL, "--allow-missing", "--date", "2026-03-03T00:00:00Z");
	EXPECT(0, "republic: in civil disorder (2 turns in a row without "
	    "orders", crown_cmd_status, dir, "--now", "2026-03-03T01:00:00Z");
	/* no --allow-missing: the side in civil disorder holds */
	EXPECT(0, "turn 3 committed", crown_cmd_turn, dir, f3, "--templates",
	    TMPL, "--date", "2026-03-04T00:00:00Z");
	st = tu_sh("git -C '%s' log -1 --format=%%B", dir);
	has(st, "Orders from french.\nCivil disorder: republic (2 turns in a "
	    "row without orders, game.missed_orders): its units held "
	    "(R2.3).\n");
	if (strstr(st, "--allow-missing") != NULL)
		fail();
	free(st);
	assert_int_equal(mails_with(dir, "Civil disorder:"), 2);
	EXPECT(0, "no casualties  [civil disorder: republic]\nheld by:",
	    crown_cmd_log, dir);
	EXPECT(65, "'nobody@example.org' is not a player", crown_cmd_roster,
	    dir, "replace", "nobody@example.org",
	    "Ana Ruiz <ana@example.org>");
	EXPECT(0, "Roster: replace milan@example.org by Ana Ruiz "
	    "<ana@example.org> on republic", crown_cmd_roster, dir, "replace",
	    "milan@example.org", "Ana Ruiz <ana@example.org>",
	    "--password-file", pw, "--date", "2026-03-04T01:00:00Z");
	assert_int_equal(mails_with(dir, "To: Ana Ruiz <ana@example.org>"), 1);
	EXPECT(0, "  Ana Ruiz <ana@example.org>: password\n", crown_cmd_roster,
	    dir, "list");
	st = state_of(dir);
	if (strstr(st, "milan@example.org") != NULL)
		fail();
	free(st);
	st = tu_sh("cat '%s'/.git/crown-roster", dir);
	if (strstr(st, "milan@example.org") != NULL)
		fail();
	free(st);
	/* the new player's side is waited for again */
	status_lacks(dir, "2026-03-04T02:00:00Z", "civil disorder");
	EXPECT(65, "no orders from side 'republic' for turn 4", crown_cmd_turn,
	    dir, f4, "--templates", TMPL, "--date", "2026-03-05T00:00:00Z");
	EXPECT(0, "held by:\n  french: Jean Danjou (turns 1-)\n  republic: "
	    "Francisco Milan (turns 1-3), Ana Ruiz (turns 4-)\n",
	    crown_cmd_log, dir);
	EXPECT(0, "verify: 4 turns match", crown_cmd_verify, dir,
	    "--templates", TMPL);
	free(f1);
	free(f2);
	free(f3);
	free(f4);
	free(pw);
	free(dir);
}

/*
 * game.missed_orders {limit: 1}: a side in civil disorder whose player
 * sends orders again has them played, and is no longer in it.
 */
static void
test_disorder_ends_with_orders(void **state)
{
	char		*dir = path("c"), *f1, *f2;

	(void)state;
	new_campaign_with(dir, "  missed_orders: {limit: 1}\n");
	f1 = french(1);
	f2 = french(2);
	EXPECT(0, "turn 1 committed", crown_cmd_turn, dir, f1, "--templates",
	    TMPL, "--allow-missing", "--date", "2026-03-02T00:00:00Z");
	EXPECT(0, "republic: in civil disorder (1 turn in a row without "
	    "orders", crown_cmd_status, dir, "--now", "2026-03-02T01:00:00Z");
	EXPECT(0, "turn 2 committed", crown_cmd_turn, dir, f2, DATA
	    "/republic-2.yaml", "--templates", TMPL, "--date",
	    "2026-03-03T00:00:00Z");
	status_lacks(dir, "2026-03-03T01:00:00Z", "civil disorder");
	status_lacks(dir, "2026-03-03T01:00:00Z", "in a row");
	free(f1);
	free(f2);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_credentials_in_history,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_refuses_hash, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_briefing_identifies,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_roster_and_deadline,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_away_extends, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_away_holds, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_civil_disorder, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_disorder_ends_with_orders,
		    setup, teardown),
	};

	return cmocka_run_group_tests_name("roster", tests, NULL, NULL);
}
