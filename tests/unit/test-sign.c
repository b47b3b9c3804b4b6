/*
 * test-sign.c: a signed history (crown new --sign FPR, issue 35).  Every
 * commit and tag crown makes is signed with the umpire's OpenPGP key from
 * the umpire's own keyring; git verify-commit and git verify-tag agree;
 * crown verify finds an unsigned commit, a commit or a tag signed with
 * another key (65), and says what it needs without the key (69).  A key
 * that cannot sign is refused before anything is made, and a turn that
 * cannot be signed commits nothing.
 *
 * Each test makes a throwaway GnuPG home in its scratch directory with
 * passphrase-less keys, sets GNUPGHOME to it (crown and git read it), and
 * kills the agent gpg started there at the end.
 */
#include <sys/stat.h>

#include <stdarg.h>
#include <stdlib.h>
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
#define UMPIRE	"Jane Doe <jane@example.org>"
/* a well-formed fingerprint of no key */
#define NOKEY	"0123456789ABCDEF0123456789ABCDEF01234567"
#define GIT	"git -c user.name=Jane -c user.email=jane@example.org " \
		"-c commit.gpgsign=false"

TU_SCRATCH("sign")

static char	*home;		/* the umpire's GnuPG home */

/* The scratch directory and, in it, a GnuPG home GNUPGHOME names. */
static int
setup_gpg(void **state)
{
	if (setup(state) != 0)
		return -1;
	home = xasprintf("%s/gnupg", base);
	if (mkdir(home, 0700) != 0)
		return -1;
	return setenv("GNUPGHOME", home, 1);
}

/* The agent gpg started for the home, then the scratch directory. */
static int
teardown_gpg(void **state)
{
	free(tu_sh("GNUPGHOME='%s' gpgconf --kill all 2>/dev/null", home));
	unsetenv("GNUPGHOME");
	free(home);
	home = NULL;
	return teardown(state);
}

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

/* A signing key for uid in the home; its fingerprint (caller frees). */
static char *
gen_key(const char *uid)
{
	char	*out, *fpr;

	out = tu_sh("gpg --batch --pinentry-mode loopback --passphrase '' "
	    "--quick-gen-key '%s' ed25519 sign never >/dev/null 2>&1; gpg "
	    "--batch --with-colons --list-keys '%s' 2>/dev/null | awk -F: "
	    "'/^fpr/ { print $10; exit }'", uid, uid);
	out[strcspn(out, "\n")] = '\0';
	assert_int_equal(strlen(out), 40);
	fpr = xstrdup(out);
	free(out);
	return fpr;
}

static int	sh_status(const char *, ...)
		    __attribute__((format(printf, 1, 2)));

/* The exit status of a shell command, its output thrown away. */
static int
sh_status(const char *fmt, ...)
{
	va_list	 ap;
	char	*cmd, *out;
	int	 st;

	va_start(ap, fmt);
	cmd = xvasprintf(fmt, ap);
	va_end(ap);

	out = tu_sh("%s >/dev/null 2>&1; echo $?", cmd);
	st = (int)strtol(out, NULL, 10);
	free(out);
	free(cmd);
	return st;
}

/* A campaign at dir signed with fpr (as given), turns 1 and 2 played. */
static void
signed_campaign(const char *dir, const char *fpr)
{
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00", "--umpire", UMPIRE, "--sign", fpr);
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	EXPECT(0, crown_cmd_turn, dir, DATA "/republic-2.yaml", "--templates",
	    TMPL, "--date", "2026-03-15", "--allow-missing");
}

/* crown verify dir: its status, with what it printed wanted in it. */
static void
verify_says(const char *dir, int status, const char *want)
{
	struct run	r;

	RUN(&r, crown_cmd_verify, dir, "--templates", TMPL);
	if (r.status != status)
		print_error("crown verify: status %d, expected %d\nstdout:\n"
		    "%s\nstderr:\n%s\n", r.status, status, r.out, r.err);
	assert_int_equal(r.status, status);
	assert_has(r.out, want);
	run_release(&r);
}

/*
 * Signed through: each commit (git log %G?: G, a good signature) and the
 * turn tags, annotated; git verify-commit and verify-tag say so, the state
 * keeps the fingerprint as gpg prints it (given in lower case, spaced).
 */
static void
test_sign_history(void **state)
{
	char	*dir = path("camp"), *fpr = gen_key(UMPIRE), *text, *given;
	char	*want;
	size_t	 i;

	(void)state;
	given = xstrdup(fpr);
	for (i = 0; given[i] != '\0'; i++)
		if (given[i] >= 'A' && given[i] <= 'F')
			given[i] = (char)(given[i] - 'A' + 'a');
	want = xasprintf("%.20s %s", given, given + 20);
	signed_campaign(dir, want);
	free(want);
	text = tu_sh("git -C '%s' log --format=%%G?%%GF main", dir);
	want = xasprintf("G%s\nG%s\nG%s\n", fpr, fpr, fpr);
	assert_string_equal(text, want);
	free(want);
	free(text);
	assert_int_equal(sh_status("git -C '%s' verify-commit %s", dir,
	    "HEAD"), 0);
	for (i = 0; i < 3; i++) {
		want = xasprintf("turn-%zu", i);
		text = tu_sh("git -C '%s' cat-file -t %s", dir, want);
		assert_string_equal(text, "tag\n");
		free(text);
		assert_int_equal(sh_status("git -C '%s' verify-tag %s", dir,
		    want), 0);
		free(want);
	}
	/* the tag's message without its signature, as crown log reads it */
	text = tu_sh("git -C '%s' tag -l --format='%%(contents:subject)' "
	    "turn-2", dir);
	assert_has(text, "Turn 2: ");
	free(text);
	/* quoted or not, as the emitter finds it reads back as a string */
	text = tu_sh("sed -n 's/.*openpgp: \"*\\([0-9A-F]*\\).*/\\1/p' "
	    "'%s/state.yaml'", dir);
	want = xasprintf("%s\n", fpr);
	assert_string_equal(text, want);
	free(want);
	free(text);
	want = xasprintf("signatures: 3 commits and 3 tags signed by the "
	    "umpire's key %s\n", fpr);
	verify_says(dir, 0, want);
	free(want);
	/* a deadline commit is the umpire's too; the repair before it makes
	 * a lost turn tag again, annotated and signed */
	free(tu_sh("git -C '%s' tag -d turn-2", dir));
	EXPECT(0, crown_cmd_deadline, dir, "2026-03-20T18:00:00Z", "--date",
	    "2026-03-16");
	text = tu_sh("git -C '%s' cat-file -t turn-2", dir);
	assert_string_equal(text, "tag\n");
	free(text);
	assert_int_equal(sh_status("git -C '%s' verify-tag %s", dir,
	    "turn-2"), 0);
	assert_int_equal(sh_status("git -C '%s' verify-commit %s", dir,
	    "HEAD"), 0);
	verify_says(dir, 0, "signatures: 4 commits and 3 tags");
	free(given);
	free(fpr);
	free(dir);
}

/*
 * Every command that commits signs: roster, deadline, rerun, adopt
 * (and the tags its repair makes again on the adopted line), reveal;
 * every commit on every line and every tag, replaced/turn-1 among them.
 */
static void
test_sign_everywhere(void **state)
{
	char		*dir = path("camp"), *fpr = gen_key(UMPIRE), *text;
	char		*want;
	struct run	 r;

	(void)state;
	signed_campaign(dir, fpr);
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
	text = tu_sh("git -C '%s' log --all --format=%%G?%%GF | sort -u",
	    dir);
	want = xasprintf("G%s\n", fpr);
	assert_string_equal(text, want);
	free(want);
	free(text);
	text = tu_sh("cd '%s' && for t in $(git tag -l); do git cat-file -t "
	    "$t; git verify-tag $t >/dev/null 2>&1 && echo good; done | sort "
	    "| uniq -c | sed 's/^ *//'; git tag -l | wc -l", dir);
	/* turn-0 to turn-2, reveal and replaced/turn-1 */
	assert_string_equal(text, "5 good\n5 tag\n5\n");
	free(text);
	verify_says(dir, 0, "signatures: 6 commits and 4 tags signed by the "
	    "umpire's key");
	/* the reason adopt kept in its signed tag, as crown log reads it */
	RUN(&r, crown_cmd_log, dir);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "; adopted: agreed]");
	run_release(&r);
	text = tu_sh("git -C '%s' tag -l --format='%%(contents:body)' "
	    "replaced/turn-1", dir);
	assert_has(text, "Reason: agreed\n");
	free(text);
	free(fpr);
	free(dir);
}

/*
 * An unsigned commit after the signed ones: one appended with git, and
 * the last turn committed again unsigned with the same tree (the replay
 * alone would find nothing).
 */
static void
test_sign_unsigned(void **state)
{
	char	*dir = path("camp"), *fpr = gen_key(UMPIRE), *tip;

	(void)state;
	signed_campaign(dir, fpr);
	tip = tu_sh("git -C '%s' rev-parse HEAD", dir);
	tip[strcspn(tip, "\n")] = '\0';
	assert_int_equal(sh_status("cd '%s' && " GIT " commit -q --allow-empty"
	    " -m 'Roster: by hand'", dir), 0);
	verify_says(dir, 65, "(Roster: by hand): not signed, though "
	    "game.umpire.openpgp names the umpire's key");
	assert_int_equal(sh_status("cd '%s' && git reset -q --hard %s", dir,
	    tip), 0);
	verify_says(dir, 0, "signatures: 3 commits");
	assert_int_equal(sh_status("cd '%s' && GIT_COMMITTER_DATE=\"$(git log "
	    "-1 --format=%%cI)\" " GIT " commit -q --amend --no-edit", dir), 0);
	verify_says(dir, 65, "turn 2: commit ");
	verify_says(dir, 65, ": not signed, though game.umpire.openpgp");
	free(tip);
	free(fpr);
	free(dir);
}

/* The last turn, and a tag, signed again with another key of the same
 * keyring: not the umpire's. */
static void
test_sign_other_key(void **state)
{
	char	*dir = path("camp"), *fpr = gen_key(UMPIRE), *tip, *want;
	char	*other = gen_key("Mallory <mallory@example.org>");

	(void)state;
	signed_campaign(dir, fpr);
	tip = tu_sh("git -C '%s' rev-parse HEAD", dir);
	tip[strcspn(tip, "\n")] = '\0';
	assert_int_equal(sh_status("cd '%s' && GIT_COMMITTER_DATE=\"$(git log "
	    "-1 --format=%%cI)\" " GIT " commit -q --amend --no-edit -S%s", dir,
	    other), 0);
	/* git finds a good signature: only the key tells */
	assert_int_equal(sh_status("git -C '%s' verify-commit %s", dir,
	    "HEAD"), 0);
	want = xasprintf(": signed by key %s, not the umpire's %s\n", other,
	    fpr);
	verify_says(dir, 65, want);
	verify_says(dir, 65, "turn 2: commit ");
	free(want);
	assert_int_equal(sh_status("cd '%s' && git reset -q --hard %s", dir,
	    tip), 0);
	verify_says(dir, 0, "signatures: 3 commits and 3 tags");
	assert_int_equal(sh_status("cd '%s' && " GIT " tag -f -m 'Turn 1' "
	    "-u %s turn-1 turn-1^{commit}", dir, other), 0);
	want = xasprintf("turn 1: tag turn-1: signed by key %s, not the "
	    "umpire's %s\n", other, fpr);
	verify_says(dir, 65, want);
	free(want);
	free(tip);
	free(other);
	free(fpr);
	free(dir);
}

/* A fingerprint of no key, or no fingerprint: refused, nothing made. */
static void
test_sign_refused(void **state)
{
	char		*dir = path("camp"), *scen;
	struct run	 r;
	struct stat	 sb;

	(void)state;
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--sign", NOKEY);
	assert_int_equal(r.status, CROWN_EXIT_UNAVAILABLE);
	assert_has(r.err, "--sign: error: the umpire's key '" NOKEY "' has "
	    "no secret key in the keyring");
	run_release(&r);
	assert_int_not_equal(stat(dir, &sb), 0);
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--sign", "0123 4567");
	assert_int_equal(r.status, CROWN_EXIT_USAGE);
	assert_has(r.err, "'0123 4567' is not an OpenPGP fingerprint");
	run_release(&r);
	assert_int_not_equal(stat(dir, &sb), 0);
	/* the scenario's key, without --sign, is checked the same way */
	scen = path("scenario.yaml");
	free(tu_sh("sed 's/email: \"umpire@example.org\"}/email: "
	    "\"umpire@example.org\", openpgp: \"" NOKEY "\"}/' " SCEN
	    " > '%s'", scen));
	RUN(&r, crown_cmd_new, dir, "--templates", TMPL, "--scenario", scen,
	    "--rules", RULES, "--secret-file", SECRET);
	assert_int_equal(r.status, CROWN_EXIT_UNAVAILABLE);
	assert_has(r.err, "scenario.yaml: error: the umpire's key '" NOKEY
	    "' has no secret key");
	run_release(&r);
	/* nor anything beside it */
	free(dir);
	dir = tu_sh("ls -A '%s'", base);
	assert_string_equal(dir, "gnupg\nscenario.yaml\n");
	free(dir);
	free(scen);
}

/*
 * The umpire's key out of reach (another keyring, as with the agent
 * gone): the turn commits nothing, and plays once the key is back; a
 * reader without the key is told what to import (69).
 */
static void
test_sign_key_gone(void **state)
{
	char	*dir = path("camp"), *fpr = gen_key(UMPIRE), *before, *after;
	char	*empty = path("empty"), *text;

	(void)state;
	EXPECT(0, crown_cmd_new, dir, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00", "--umpire", UMPIRE, "--sign", fpr);
	assert_int_equal(mkdir(empty, 0700), 0);
	before = tu_sh("git -C '%s' for-each-ref; git -C '%s' status "
	    "--porcelain; ls '%s/outbox/new' | wc -l", dir, dir, dir);
	setenv("GNUPGHOME", empty, 1);
	EXPECT(CROWN_EXIT_UNAVAILABLE, crown_cmd_turn, dir,
	    DATA "/french-1.yaml", DATA "/republic-1.yaml", "--templates",
	    TMPL, "--date", "2026-03-08");
	after = tu_sh("git -C '%s' for-each-ref; git -C '%s' status "
	    "--porcelain; ls '%s/outbox/new' | wc -l", dir, dir, dir);
	assert_string_equal(after, before);
	free(after);
	text = xasprintf("cannot be checked: the umpire's key %s is not in "
	    "your keyring", fpr);
	verify_says(dir, CROWN_EXIT_UNAVAILABLE, text);
	free(text);
	setenv("GNUPGHOME", home, 1);
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	verify_says(dir, 0, "signatures: 2 commits and 2 tags");
	free(tu_sh("GNUPGHOME='%s' gpgconf --kill all 2>/dev/null", empty));
	free(before);
	free(empty);
	free(fpr);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sign_history, setup_gpg,
		    teardown_gpg),
		cmocka_unit_test_setup_teardown(test_sign_everywhere,
		    setup_gpg, teardown_gpg),
		cmocka_unit_test_setup_teardown(test_sign_unsigned, setup_gpg,
		    teardown_gpg),
		cmocka_unit_test_setup_teardown(test_sign_other_key,
		    setup_gpg, teardown_gpg),
		cmocka_unit_test_setup_teardown(test_sign_refused, setup_gpg,
		    teardown_gpg),
		cmocka_unit_test_setup_teardown(test_sign_key_gone, setup_gpg,
		    teardown_gpg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
