/*
 * test-mail.c: play by email (issue 12).  Reading mail with GMime
 * (multipart, quoted-printable, base64, charsets, HTML-only), Maildirs
 * and mbox files; building and delivering messages; times, receipts and
 * passwords; the roster's password_sha256 and game.deadline in the
 * state; the turn's reports; and `crown inbox` and `crown status` run
 * in-process on campaigns and mailboxes the tests make, with MIME
 * fixtures written here: forged From, wrong password, oversize, wrong
 * game and turn, a side the sender does not play, two mails from one
 * side, late mail, on both sides of every edge; and PGP/MIME
 * signatures made with throwaway keys (gpg --batch).
 */
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <gpgme.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/pgp.h"
#include "crown/report.h"
#include "crown/roster.h"
#include "crown/state.h"
#include "crown/xalloc.h"

#define DEADLINE	"2026-12-05T18:00:00Z"
#define DEADLINE_T	1796493600LL
#define BEFORE		"2026-12-05T12:00:00Z"

/* Helpers. */

static void
rm_rf(const char *dir)
{
	DIR		*dp;
	struct dirent	*de;
	struct stat	 st;
	char		*p;

	if ((dp = opendir(dir)) == NULL) {
		unlink(dir);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rm_rf(p);
		else
			unlink(p);
		free(p);
	}
	closedir(dp);
	rmdir(dir);
}

static void
put(const char *dir, const char *name, const char *text, size_t len)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*fp = fopen(p, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	fclose(fp);
	free(p);
}

static char *
replace(const char *s, const char *from, const char *to)
{
	struct crown_buf	 b = { 0 };
	const char		*p = strstr(s, from);

	assert_non_null(p);
	crown_buf_add(&b, s, (size_t)(p - s));
	crown_buf_puts(&b, to);
	crown_buf_puts(&b, p + strlen(from));
	return b.data;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir, sorted; NULL-terminated, caller frees. */
static char **
files(const char *dir, size_t *n)
{
	DIR		*dp;
	struct dirent	*de;
	char		**v = NULL;
	size_t		 cap = 0;

	*n = 0;
	crown_grow(&v, &cap, 1, sizeof(*v));
	if ((dp = opendir(dir)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			crown_grow(&v, &cap, *n + 2, sizeof(*v));
			v[(*n)++] = xstrdup(de->d_name);
		}
		closedir(dp);
	}
	qsort(v, *n, sizeof(*v), cmp_names);
	v[*n] = NULL;
	return v;
}

static void
free_files(char **v)
{
	size_t	i;

	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

static size_t
count_files(const char *dir)
{
	size_t	 n;
	char	**v = files(dir, &n);

	free_files(v);
	return n;
}

/* Give email the password pw in the credentials of campaign dir. */
static void
roster_password(const char *dir, const char *email, const char *pw)
{
	struct crown_roster	 r;
	struct crown_diags	 d = { 0 };
	char			*p = crown_roster_path(dir);

	assert_int_equal(crown_roster_load(&r, p, &d), 0);
	assert_int_equal(crown_roster_set_password(crown_roster_get(&r,
	    email), pw), 0);
	assert_int_equal(crown_roster_save(&r, p, &d), 0);
	crown_roster_release(&r);
	crown_diags_release(&d);
	free(p);
}

/* A campaign: the small table, milan with the password "tequila", a
 * deadline, and an empty Maildir at mail/. */
struct camp {
	char	 dir[32];
	char	*mail;
	char	*out;		/* stdout of the last command */
	char	*err;
};

/* An empty Maildir at c->dir/mail, c->mail. */
static void
camp_maildir(struct camp *c)
{
	char	*p;

	c->mail = xasprintf("%s/mail", c->dir);
	mkdir(c->mail, 0755);
	p = xasprintf("%s/new", c->mail);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/cur", c->mail);
	mkdir(p, 0755);
	free(p);
}

static void
camp_make(struct camp *c, bool with_deadline)
{
	char	*st, *t1, *t2, hex[CROWN_SHA256_HEX], *line;

	strcpy(c->dir, "/tmp/crown-mail-XXXXXX");
	assert_non_null(mkdtemp(c->dir));
	st = tu_slurp("tests/data/state-small.yaml");
	assert_non_null(st);
	/* the password's hash is in the roster's file, not the state */
	roster_password(c->dir, "milan@example.org", "tequila");
	(void)hex;
	line = NULL;
	t1 = xstrdup(st);
	t2 = with_deadline ? replace(t1, "  last_turn: 12\n",
	    "  last_turn: 12\n  deadline: \"" DEADLINE "\"\n") : xstrdup(t1);
	put(c->dir, "state.yaml", t2, strlen(t2));
	free(t2);
	free(t1);
	free(line);
	free(st);
	/* a campaign's rules are frozen in it */
	st = tu_slurp("rules/maximilian.yaml");
	assert_non_null(st);
	put(c->dir, "rules.yaml", st, strlen(st));
	free(st);
	camp_maildir(c);
	c->out = c->err = NULL;
}

static void
camp_free(struct camp *c)
{
	rm_rf(c->dir);
	free(c->mail);
	free(c->out);
	free(c->err);
}

/* A mail put in the Maildir's sub (new, cur) under name, the file's
 * modification time mtime. */
static void
camp_mail_at(struct camp *c, const char *sub, const char *name,
    const char *text, long long mtime)
{
	struct timespec	 ts[2];
	char		*p = xasprintf("%s/%s", c->mail, sub), *f;

	ts[0].tv_sec = ts[1].tv_sec = (time_t)mtime;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	put(p, name, text, strlen(text));
	f = xasprintf("%s/%s", p, name);
	assert_int_equal(utimensat(AT_FDCWD, f, ts, 0), 0);
	free(f);
	free(p);
}

/* A mail put in the Maildir under name, to count as delivered when it
 * is read: its time is after any --now of the tests, which it cannot be
 * delivered later than (a name that starts with a time says when). */
static void
camp_mail(struct camp *c, const char *name, const char *text)
{
	camp_mail_at(c, "new", name, text, 4102444800LL);
}

static char *
camp_file(const struct camp *c, const char *rel)
{
	char	*p = xasprintf("%s/%s", c->dir, rel), *s;

	s = tu_slurp(p);
	free(p);
	return s;
}

/* Run a command in-process with NULL-terminated arguments; its stdout
 * and stderr are kept in c->out and c->err. */
static int
run(struct camp *c, const struct crown_cmd *cmd, ...)
{
	va_list		 ap;
	const char	*args[16];
	struct run	 r;
	int		 n = 0;

	va_start(ap, cmd);
	while ((args[n] = va_arg(ap, const char *)) != NULL && n < 14)
		n++;
	va_end(ap);
	args[n] = NULL;
	/* beside the campaign, not in it */
	tu_run_at(&r, c->dir, cmd, args);
	free(c->out);
	free(c->err);
	c->out = r.out;
	c->err = r.err;
	return r.status;
}

/* crown inbox of campaign dir (NULL: c->dir) and c's Maildir, at now. */
static int
inbox_of(struct camp *c, const char *dir, const char *now)
{
	return run(c, &crown_cmd_inbox, dir != NULL ? dir : c->dir, c->mail,
	    "--now", now, NULL);
}

static int
inbox(struct camp *c, const char *now)
{
	return inbox_of(c, NULL, now);
}

/* The outbox message answering Message-ID id, or NULL; caller frees. */
static char *
reply(const struct camp *c, const char *id)
{
	char	**v, *dir, *p, *s, *want;
	size_t	  n, i;

	dir = xasprintf("%s/outbox/new", c->dir);
	want = xasprintf("In-Reply-To: <%s>", id);
	v = files(dir, &n);
	s = NULL;
	for (i = 0; i < n && s == NULL; i++) {
		p = xasprintf("%s/%s", dir, v[i]);
		s = tu_slurp(p);
		if (s != NULL && strstr(s, want) == NULL) {
			free(s);
			s = NULL;
		}
		free(p);
	}
	free_files(v);
	free(want);
	free(dir);
	return s;
}

/* The decoded text of a message crown wrote. */
static char *
text_of(const char *raw)
{
	struct crown_mail	*m;
	char			*t;

	assert_int_equal(crown_mail_parse(&m, raw, strlen(raw)), 0);
	assert_non_null(m->text);
	t = xstrdup(m->text);
	crown_mail_free(m);
	return t;
}

#define assert_has(hay, needle) do {					\
	const char *h_ = (hay), *n_ = (needle);				\
	if (h_ == NULL || strstr(h_, n_) == NULL) {			\
		print_error("\"%s\" not found in:\n%s\n", n_,		\
		    h_ != NULL ? h_ : "(null)");			\
		fail();							\
	}								\
} while (0)

/* The answer to Message-ID id, decoded, says want. */
#define assert_answer(c, id, want) do {					\
	char *r_ = reply((c), (id)), *t_;				\
	assert_non_null(r_);						\
	t_ = text_of(r_);						\
	assert_has(t_, (want));						\
	free(t_);							\
	free(r_);							\
} while (0)

#define assert_lacks(hay, needle) do {					\
	const char *h_ = (hay), *n_ = (needle);				\
	if (h_ != NULL && strstr(h_, n_) != NULL) {			\
		print_error("\"%s\" should not be in:\n%s\n", n_, h_);	\
		fail();							\
	}								\
} while (0)

/* MIME fixtures. */

#define HDR(from, id, subject)						\
	"From: " from "\n"						\
	"To: Test Umpire <umpire@example.org>\n"			\
	"Subject: " subject "\n"					\
	"Date: Sat, 05 Dec 2026 11:00:00 +0000\n"			\
	"Message-ID: <" id ">\n"					\
	"MIME-Version: 1.0\n"

#define DANJOU	"Jean Danjou <danjou@example.org>"
#define MILAN	"Francisco Milan <milan@example.org>"

/* multipart/mixed, the orders a YAML attachment named by its file name */
static const char m_yaml_attachment[] =
    HDR(DANJOU, "m1@example.org", "Turn 3")
    "Content-Type: multipart/mixed; boundary=\"XX\"\n"
    "\n"
    "--XX\n"
    "Content-Type: text/plain; charset=us-ascii\n"
    "\n"
    "Here are my orders.\n"
    "--XX\n"
    "Content-Type: application/octet-stream; name=\"french.yaml\"\n"
    "Content-Disposition: attachment; filename=\"french.yaml\"\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: french\n"
    "orders:\n"
    "  - unit: 1-legion\n"
    "    actions: [hold, reload]\n"
    "--XX--\n";

/* quoted-printable shorthand in Latin-1, with a soft line break and the
 * password */
static const char m_qp_shorthand[] =
    HDR(MILAN, "m2@example.org", "=?iso-8859-1?q?Ordres_de_Jalapa_=E9?=")
    "Content-Type: text/plain; charset=iso-8859-1\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "password: tequila\n"
    "2-militia: reload   # caf=E9\n"
    "3-cav: move 50,3=\n"
    "6 face 180\n"
    "\n"
    "-- \n"
    "Francisco\n";

/* base64 YAML attachment of type text/yaml, in CRLF lines */
static const char m_base64_attachment[] =
    "From: Jean Danjou <danjou@example.org>\r\n"
    "Subject: new orders\r\n"
    "Message-ID: <m3@example.org>\r\n"
    "MIME-Version: 1.0\r\n"
    "Content-Type: multipart/mixed; boundary=\"b64\"\r\n"
    "\r\n"
    "--b64\r\n"
    "Content-Type: text/yaml\r\n"
    "Content-Transfer-Encoding: base64\r\n"
    "\r\n"
    "Z2FtZTogVGVzdCBTa2lybWlzaAp0dXJuOiAzCnNpZGU6IGZyZW5jaApvcmRl\r\n"
    "cnM6CiAgLSB1bml0OiAxLWxlZ2lvbgogICAgYWN0aW9uczoKICAgICAgLSBt\r\n"
    "b3ZlOiB7dG86IFszMCwgMjBdLCBmYWNlOiAwfQogICAgICAtIGZpcmU6IDIt\r\n"
    "bWlsaXRpYQo=\r\n"
    "--b64--\r\n";

static const char m_html_only[] =
    HDR(MILAN, "m4@example.org", "orders")
    "Content-Type: text/html; charset=utf-8\n"
    "\n"
    "<p>password: tequila<br>2-militia: reload</p>\n";

static const char m_alternative[] =
    HDR(MILAN, "m5@example.org", "orders")
    "Content-Type: multipart/alternative; boundary=\"alt\"\n"
    "\n"
    "--alt\n"
    "Content-Type: text/plain; charset=utf-8\n"
    "\n"
    "password: \"tequila\"\n"
    "2-militia: reload\n"
    "--alt\n"
    "Content-Type: text/html; charset=utf-8\n"
    "\n"
    "<p>2-militia: reload</p>\n"
    "--alt--\n";

static const char m_forged[] =
    HDR("Jean Danjou <danjou@evil.example>", "m6@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "1-legion: hold\n";

static const char m_wrong_password[] =
    HDR(MILAN, "m7@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "password: mezcal\n"
    "2-militia: reload\n";

static const char m_no_password[] =
    HDR(MILAN, "m8@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "2-militia: reload\n";

static const char m_wrong_game[] =
    HDR(DANJOU, "m9@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "game: Camerone\n"
    "1-legion: hold\n";

static const char m_wrong_turn[] =
    HDR(DANJOU, "m10@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "turn: 4\n"
    "1-legion: hold\n";

static const char m_other_side[] =
    HDR(DANJOU, "m11@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "side: republic\n"
    "2-militia: reload\n";

static const char m_two_attachments[] =
    HDR(DANJOU, "m12@example.org", "orders")
    "Content-Type: multipart/mixed; boundary=\"two\"\n"
    "\n"
    "--two\n"
    "Content-Type: application/x-yaml\n"
    "\n"
    "orders: []\n"
    "--two\n"
    "Content-Type: text/plain; name=\"b.yml\"\n"
    "Content-Disposition: attachment; filename=\"b.yml\"\n"
    "\n"
    "orders: []\n"
    "--two--\n";

static const char m_bad_orders[] =
    HDR(DANJOU, "m13@example.org", "orders")
    "Content-Type: text/plain\n"
    "\n"
    "> 1-legion: dance (quoted from an earlier mail)\n"
    "1-legion: fire 2-militia; reload; fire 2-militia; reload\n"
    "gun-1: dance\n";

/* the password inside the orders file, which is attached */
static const char m_password_in_yaml[] =
    HDR(MILAN, "m14@example.org", "orders")
    "Content-Type: multipart/mixed; boundary=\"p\"\n"
    "\n"
    "--p\n"
    "Content-Type: text/yaml; name=\"republic.yaml\"\n"
    "Content-Disposition: attachment; filename=\"republic.yaml\"\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "password: tequila\n"
    "side: republic\n"
    "orders:\n"
    "  - unit: 2-militia\n"
    "    actions: [reload]\n"
    "--p--\n";

/* the password in the body, the orders attached */
static const char m_password_in_body[] =
    HDR(MILAN, "m15@example.org", "orders")
    "Content-Type: multipart/mixed; boundary=\"q\"\n"
    "\n"
    "--q\n"
    "Content-Type: text/plain\n"
    "\n"
    "Hello umpire,\n"
    "  Password:   tequila  \n"
    "--q\n"
    "Content-Type: application/x-yaml\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: republic\n"
    "orders: []\n"
    "--q--\n";

/* a reply that only quotes crown's answer */
static const char m_only_quotes[] =
    HDR(DANJOU, "m16@example.org", "Re: orders accepted")
    "Content-Type: text/plain\n"
    "\n"
    "> Your orders for turn 3 of Test Skirmish are accepted.\n"
    ">   1-legion: hold; reload\n"
    "\n"
    "-- \n"
    "Jean\n";

/* not even YAML, attached: from a player with no password, and from
 * one with a password, who gave none */
#define BAD_YAML(from, id)						\
    HDR(from, id, "orders")						\
    "Content-Type: multipart/mixed; boundary=\"y\"\n"			\
    "\n"								\
    "--y\n"								\
    "Content-Type: text/plain; name=\"../my orders.yaml\"\n"		\
    "\n"								\
    "game: [Test Skirmish\n"						\
    "--y--\n"
static const char m_bad_yaml[] = BAD_YAML(DANJOU, "m17@example.org");
static const char m_bad_yaml_no_password[] = BAD_YAML(MILAN,
    "m18@example.org");

/* Unit tests of the pieces. */

static void
test_hashes_and_passwords(void **state)
{
	char	hex[CROWN_SHA256_HEX];

	(void)state;
	crown_mail_sha256_hex(hex, "abc", 3);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a3"
	    "96177a9cb410ff61f20015ad");
	crown_mail_sha256_hex(hex, "tequila", 7);
	assert_true(crown_mail_password_ok("tequila", hex));
	assert_false(crown_mail_password_ok("tequil", hex));
	assert_false(crown_mail_password_ok("Tequila", hex));
	assert_false(crown_mail_password_ok("", hex));
	assert_false(crown_mail_password_ok(NULL, hex));
	assert_false(crown_mail_password_ok("tequila", "abc"));
	assert_false(crown_mail_password_ok("tequila", NULL));
}

static void
test_parse_attachments(void **state)
{
	struct crown_mail	*m;

	(void)state;
	assert_int_equal(crown_mail_parse(&m, m_yaml_attachment,
	    strlen(m_yaml_attachment)), 0);
	assert_string_equal(m->from, "danjou@example.org");
	assert_string_equal(m->from_name, "Jean Danjou");
	assert_string_equal(m->subject, "Turn 3");
	assert_string_equal(m->message_id, "m1@example.org");
	assert_string_equal(m->text, "Here are my orders.");
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].name, "french.yaml");
	assert_string_equal(m->yaml[0].data, "game: Test Skirmish\nturn: 3\n"
	    "side: french\norders:\n  - unit: 1-legion\n"
	    "    actions: [hold, reload]");
	assert_int_equal(m->yaml[0].len, strlen(m->yaml[0].data));
	assert_false(m->html);
	crown_mail_free(m);

	/* base64, CRLF: decoded, "\n" lines */
	assert_int_equal(crown_mail_parse(&m, m_base64_attachment,
	    strlen(m_base64_attachment)), 0);
	assert_null(m->text);
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].name, "");
	assert_string_equal(m->yaml[0].data, "game: Test Skirmish\nturn: 3\n"
	    "side: french\norders:\n  - unit: 1-legion\n    actions:\n"
	    "      - move: {to: [30, 20], face: 0}\n"
	    "      - fire: 2-militia\n");
	crown_mail_free(m);

	/* application/x-yaml and a .yml file name both count */
	assert_int_equal(crown_mail_parse(&m, m_two_attachments,
	    strlen(m_two_attachments)), 0);
	assert_int_equal(m->nyaml, 2);
	assert_string_equal(m->yaml[1].name, "b.yml");
	assert_null(m->text);
	assert_int_equal(m->nparts, 2);
	crown_mail_free(m);
}

static void
test_parse_text(void **state)
{
	struct crown_mail	*m;

	(void)state;
	/* quoted-printable, Latin-1 to UTF-8, soft line breaks, RFC 2047 */
	assert_int_equal(crown_mail_parse(&m, m_qp_shorthand,
	    strlen(m_qp_shorthand)), 0);
	assert_string_equal(m->subject, "Ordres de Jalapa \xc3\xa9");
	assert_string_equal(m->text, "password: tequila\n"
	    "2-militia: reload   # caf\xc3\xa9\n"
	    "3-cav: move 50,36 face 180\n\n-- \nFrancisco\n");
	assert_int_equal(m->nyaml, 0);
	crown_mail_free(m);
	/* HTML only */
	assert_int_equal(crown_mail_parse(&m, m_html_only,
	    strlen(m_html_only)), 0);
	assert_null(m->text);
	assert_true(m->html);
	crown_mail_free(m);
	/* alternative: the plain text is the body */
	assert_int_equal(crown_mail_parse(&m, m_alternative,
	    strlen(m_alternative)), 0);
	assert_string_equal(m->text, "password: \"tequila\"\n"
	    "2-militia: reload");
	assert_true(m->html);
	crown_mail_free(m);
}

static void
test_parse_refuses(void **state)
{
	struct crown_mail	*m;
	struct crown_buf	 b = { 0 };
	int			 i;

	(void)state;
	assert_int_equal(crown_mail_parse(&m, "Subject: x\n\nhello\n", 18),
	    CROWN_EINVALID);
	assert_null(m);
	assert_int_equal(crown_mail_parse(&m, "From: nobody\n\nhi\n", 17),
	    CROWN_EINVALID);
	assert_int_equal(crown_mail_parse(&m, "From: undisclosed:;\n\nhi\n",
	    24), CROWN_EINVALID);
	assert_int_equal(crown_mail_parse(&m, "", 0), CROWN_EINVALID);
	/* an address with a blank cannot reach the log */
	assert_int_equal(crown_mail_parse(&m, "From: \"a b\"@example.org\n\n"
	    "hi\n", 29), CROWN_EINVALID);
	/* an empty body (here after a broken header line: found by
	 * fuzzing) is an empty text, not a NULL copied from */
	assert_int_equal(crown_mail_parse(&m, "From: a@example.org\n"
	    "Subject: x\n\xf7\xce-legion: rally\n", 48), 0);
	assert_string_equal(m->text, "");
	assert_int_equal(m->text_len, 0);
	crown_mail_free(m);
	/* nesting past any honest mail is refused before GMime sees it */
	crown_buf_puts(&b, "From: a@example.org\n");
	for (i = 0; i <= 64; i++)
		crown_buf_printf(&b, "Content-Type: multipart/mixed; "
		    "boundary=\"b%d\"\n\n--b%d\n", i, i);
	assert_int_equal(crown_mail_parse(&m, b.data, b.len),
	    CROWN_EINVALID);
	crown_buf_release(&b);
}

static void
test_build_and_deliver(void **state)
{
	struct crown_mail_addr		 to[2] = {
		{ "Jean Danjou", "danjou@example.org" },
		{ NULL, "second@example.org" }
	};
	struct crown_mail_attach	 att[2] = {
		{ "french.yaml", "text/yaml", "game: x\n", 8 },
		{ "map.svg", "image/svg+xml", "<svg>\xc3\xa9</svg>\n", 14 }
	};
	struct crown_mail_out		 o;
	struct crown_mail		*m;
	struct crown_buf		 a = { 0 }, b = { 0 };
	char				 dir[] = "/tmp/crown-mbox-XXXXXX";
	char				*name, *name2, *p, *got;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.from.name = "Test Umpire";
	o.from.addr = "umpire@example.org";
	o.to = to;
	o.nto = 1;
	o.cc = &to[1];
	o.ncc = 1;
	o.subject = "[Test Skirmish] Turn 3: caf\xc3\xa9";
	o.date = DEADLINE_T;
	o.in_reply_to = "m1@example.org";
	o.text = "Accepted: caf\xc3\xa9.\n";
	o.attach = att;
	o.nattach = 2;
	assert_int_equal(crown_mail_build(&a, &o), 0);
	assert_int_equal(crown_mail_build(&b, &o), 0);
	assert_string_equal(a.data, b.data);
	assert_has(a.data, "Date: Sat, 05 Dec 2026 18:00:00 +0000\n");
	assert_has(a.data, "From: Test Umpire <umpire@example.org>\n");
	assert_has(a.data, "To: Jean Danjou <danjou@example.org>\n");
	assert_has(a.data, "Cc: second@example.org\n");
	assert_has(a.data, "In-Reply-To: <m1@example.org>\n");
	assert_has(a.data, "References: <m1@example.org>\n");
	assert_has(a.data, "Auto-Submitted: auto-replied\n");
	assert_has(a.data, "Message-Id: <crown.");
	assert_has(a.data, "@example.org>\n");
	assert_has(a.data, "Content-Type: text/plain; charset=utf-8\n");
	assert_has(a.data, "filename=french.yaml");
	/* and it reads back */
	assert_int_equal(crown_mail_parse(&m, a.data, a.len), 0);
	assert_string_equal(m->from, "umpire@example.org");
	assert_string_equal(m->subject, "[Test Skirmish] Turn 3: caf\xc3\xa9");
	assert_string_equal(m->text, "Accepted: caf\xc3\xa9.\n");
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].data, "game: x\n");
	assert_int_equal(m->nparts, 3);
	crown_mail_free(m);
	/* another text, another boundary and id */
	o.text = "Refused.\n";
	b.len = 0;
	assert_int_equal(crown_mail_build(&b, &o), 0);
	assert_true(strncmp(strstr(a.data, "Message-Id:"),
	    strstr(b.data, "Message-Id:"), 60) != 0);
	assert_true(strncmp(strstr(a.data, "boundary="),
	    strstr(b.data, "boundary="), 40) != 0);

	/* into a Maildir made on the way: tmp/ left empty */
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/outbox", dir);
	{
		struct crown_diags d = { 0 };

		assert_int_equal(crown_maildir_deliver(p, a.data, a.len,
		    DEADLINE_T, &name, &d), 0);
		assert_int_equal(crown_maildir_deliver(p, a.data, a.len,
		    DEADLINE_T, &name2, &d), 0);
		assert_no_diags(&d);
	}
	assert_string_equal(name, name2);
	assert_int_equal(strncmp(name, "1796493600.", 11), 0);
	assert_int_equal(strlen(name), 11 + 16 + 6);
	assert_string_equal(name + 27, ".crown");
	free(name2);
	name2 = xasprintf("%s/new/%s", p, name);
	got = tu_slurp(name2);
	assert_string_equal(got, a.data);
	free(got);
	free(name2);
	name2 = xasprintf("%s/tmp", p);
	assert_int_equal(count_files(name2), 0);
	free(name2);
	name2 = xasprintf("%s/cur", p);
	assert_int_equal(count_files(name2), 0);
	free(name2);
	free(name);
	free(p);
	rm_rf(dir);
	crown_buf_release(&a);
	crown_buf_release(&b);
}

static void
test_read_sources(void **state)
{
	struct crown_mail_box	 box = { 0 };
	struct crown_diags	 d = { 0 };
	char			 dir[] = "/tmp/crown-src-XXXXXX";
	char			*p, big[3000];
	static const char	 mbox[] =
	    "From danjou@example.org Sat Dec  5 11:00:00 2026\n"
	    "From: danjou@example.org\n"
	    "\n"
	    "first\n"
	    ">From the hill\n"
	    ">>From the wood\n"
	    "\n"
	    "From milan@example.org Sat Dec  5 11:01:00 2026\n"
	    "From: milan@example.org\n"
	    "\n"
	    "second\n";

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/md", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/md/new", dir);
	mkdir(p, 0755);
	put(p, "2", "From: b@x.org\n\nb\n", 17);
	put(p, "10", "From: a@x.org\n\na\n", 17);
	put(p, ".hidden", "From: c@x.org\n\nc\n", 17);
	free(p);
	p = xasprintf("%s/md/cur", dir);
	mkdir(p, 0755);
	memset(big, 'x', sizeof(big));
	memcpy(big, "From: z@x.org\n\n", 15);
	/* the edge: 2000 bytes are read whole, 2001 only in part */
	put(p, "1:2,S", big, 2000);
	put(p, "2:2,S", big, 2001);
	free(p);
	p = xasprintf("%s/md", dir);
	assert_int_equal(crown_mail_read_source(&box, p, 2000, &d), 0);
	free(p);
	assert_no_diags(&d);
	assert_int_equal(box.n, 4);
	/* new/ then cur/, each in name order */
	assert_string_equal(box.v[0].ref, "new/10");
	assert_string_equal(box.v[0].data, "From: a@x.org\n\na\n");
	assert_string_equal(box.v[1].ref, "new/2");
	assert_string_equal(box.v[2].ref, "cur/1:2,S");
	assert_int_equal(box.v[2].len, 2000);
	assert_int_equal(box.v[2].size, 2000);
	assert_string_equal(box.v[3].ref, "cur/2:2,S");
	assert_int_equal(box.v[3].len, 2001);	/* under the head's size */
	assert_int_equal(box.v[3].size, 2001);
	assert_int_equal(strlen(box.v[0].hash), 64);
	crown_mail_box_release(&box);

	/* an mbox: From_ lines split, >From unquoted once */
	put(dir, "mbox", mbox, strlen(mbox));
	p = xasprintf("%s/mbox", dir);
	assert_int_equal(crown_mail_read_source(&box, p, 1 << 20, &d), 0);
	assert_int_equal(box.n, 2);
	assert_string_equal(box.v[0].ref, "mbox:1");
	assert_string_equal(box.v[0].data, "From: danjou@example.org\n\n"
	    "first\nFrom the hill\n>From the wood\n");
	assert_string_equal(box.v[1].ref, "mbox:2");
	assert_string_equal(box.v[1].data, "From: milan@example.org\n\n"
	    "second\n");
	crown_mail_box_release(&box);
	free(p);

	/* neither */
	put(dir, "junk", "hello\n", 6);
	p = xasprintf("%s/junk", dir);
	assert_int_equal(crown_mail_read_source(&box, p, 1 << 20, &d),
	    CROWN_ENOTFOUND);
	assert_diag(&d, "junk:1:1: error: not a Maildir or an mbox file");
	free(p);
	p = xasprintf("%s/none", dir);
	assert_int_equal(crown_mail_read_source(&box, p, 1 << 20, &d),
	    CROWN_ENOTFOUND);
	free(p);
	assert_int_equal(crown_mail_read_source(&box, dir, 1 << 20, &d),
	    CROWN_ENOTFOUND);
	assert_diag(&d, "not a Maildir (no new/ or cur/)");
	crown_mail_box_release(&box);
	crown_diags_release(&d);
	rm_rf(dir);
}

/* password_sha256 and game.deadline are read, checked and written back
 * byte for byte. */
static void
test_state_keys(void **state)
{
	struct crown_state	*s = NULL, *c;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 a = { 0 }, b = { 0 };
	struct camp		 cp;
	char			*p, *text, *bad, *line;
	char			 hex[CROWN_SHA256_HEX];

	(void)state;
	camp_make(&cp, true);
	/* a state of a campaign made before issue 19 */
	p = xasprintf("%s/state.yaml", cp.dir);
	text = tu_slurp(p);
	crown_mail_sha256_hex(hex, "tequila", 7);
	line = xasprintf("email: \"milan@example.org\", password_sha256: "
	    "\"%s\"", hex);
	bad = replace(text, "email: \"milan@example.org\"", line);
	put(cp.dir, "state.yaml", bad, strlen(bad));
	free(bad);
	free(line);
	free(text);
	assert_int_equal(crown_state_load(&s, p, &d), 0);
	assert_no_diags(&d);
	assert_string_equal(s->deadline, DEADLINE);
	assert_null(s->sides[0].players[0].password_sha256);
	assert_true(crown_mail_password_ok("tequila",
	    s->sides[1].players[0].password_sha256));
	assert_int_equal(crown_state_emit(&a, s), 0);
	assert_has(a.data, "  deadline: \"" DEADLINE "\"\n");
	assert_has(a.data, "password_sha256: ");
	c = crown_state_clone(s);
	assert_int_equal(crown_state_emit(&b, c), 0);
	assert_string_equal(a.data, b.data);
	crown_state_free(c);
	crown_state_free(s);
	s = NULL;
	assert_int_equal(crown_state_parse(&s, "s", a.data, a.len, &d), 0);
	b.len = 0;
	assert_int_equal(crown_state_emit(&b, s), 0);
	assert_string_equal(a.data, b.data);
	crown_state_free(s);
	s = NULL;
	/* what is refused */
	text = tu_slurp(p);
	bad = replace(text, DEADLINE, "2026-02-29T18:00:00Z");
	assert_int_equal(crown_state_parse(&s, "s", bad, strlen(bad), &d),
	    CROWN_EINVALID);
	assert_diag(&d, "'deadline' must be a UTC time written "
	    "YYYY-MM-DDTHH:MM:SSZ");
	crown_state_free(s);
	s = NULL;
	free(bad);
	crown_diags_release(&d);
	bad = replace(text, DEADLINE, "2026-12-05 18:00:00Z");
	assert_int_equal(crown_state_parse(&s, "s", bad, strlen(bad), &d),
	    CROWN_EINVALID);
	crown_state_free(s);
	s = NULL;
	free(bad);
	crown_diags_release(&d);
	bad = replace(text, DEADLINE, "2026-12-05T18:00:00+01:00");
	assert_int_equal(crown_state_parse(&s, "s", bad, strlen(bad), &d),
	    CROWN_EINVALID);
	crown_state_free(s);
	s = NULL;
	free(bad);
	crown_diags_release(&d);
	bad = replace(text, "password_sha256: \"", "password_sha256: \"X");
	assert_int_equal(crown_state_parse(&s, "s", bad, strlen(bad), &d),
	    CROWN_EINVALID);
	assert_diag(&d, "'password_sha256' must be 64 lower-case hex digits");
	crown_state_free(s);
	free(bad);
	free(text);
	free(p);
	crown_diags_release(&d);
	crown_buf_release(&a);
	crown_buf_release(&b);
	camp_free(&cp);
}

/* The reports' mails made, then put in dir/outbox, as a turn does. */
static int
turn_reports(const char *dir, const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_buf *rep,
    const struct crown_buf *map, const char *date, struct crown_diags *d)
{
	struct crown_outputs	 mails = { 0 };
	char			*outbox = xasprintf("%s/outbox", dir);
	size_t			 i;
	int			 error;

	error = crown_mail_turn_reports(&mails, s, rules, rep, map, date, NULL,
	    d);
	for (i = 0; i < mails.n && error == 0; i++)
		error = crown_maildir_put(outbox, mails.v[i].name,
		    mails.v[i].data.data, mails.v[i].data.len, d);
	crown_outputs_release(&mails);
	free(outbox);
	return error;
}

/* The longest line of text in characters, leaving out lines that begin
 * with `except' (a URL may be longer). */
static size_t
longest_line(const char *text, const char *except)
{
	const char	*p, *e;
	size_t		 max = 0, n;

	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		if ((e = strchr(p, '\n')) == NULL)
			e = p + strlen(p);
		if (strncmp(p, except, strlen(except)) == 0)
			continue;
		n = (size_t)g_utf8_strlen(p, e - p);
		if (n > max)
			max = n;
	}
	return max;
}

static void
test_turn_reports(void **state)
{
	struct crown_state	*s = NULL;
	struct crown_rules	*rules = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 rep[2] = { { 0 } }, map = { 0 };
	struct camp		 cp;
	char			*p, **v, *raw, *text;
	size_t			 n, i;
	struct crown_mail	*m;

	(void)state;
	camp_make(&cp, true);
	assert_int_equal(crown_rules_load(&rules, "rules/maximilian.yaml",
	    &d), 0);
	p = xasprintf("%s/state.yaml", cp.dir);
	assert_int_equal(crown_state_load(&s, p, &d), 0);
	free(p);
	s->turn = 3;
	/* one report a side, in the order of the sides */
	assert_int_equal(s->nsides, 2);
	for (i = 0; i < s->nsides; i++)
		crown_buf_puts(&rep[i], strcmp(s->sides[i].id, "french") ==
		    0 ? "# Turn 3\nThe Legion held.\n\\*Lanceros\\* "
		    "\\<de\\> Jalapa \\| \\#1 took a charge\\_test.\n"
		    "\n| Unit | Orders | Status |\n|---|---|---:|\n"
		    "| 3rd Company, Foreign Legion | move to (30, 16.5), "
		    "facing 0°; fire at Militia of Veracruz | ok, "
		    "unloaded |\n| Guns \\| Battery | hold | |\n\n"
		    "A long sentence of the report that says a great deal "
		    "about the turn, more than one line of a mail can hold, "
		    "and a link: https://example.org/a/very/long/address/of/"
		    "the/site/with/many/parts/turn-003.html#u-1-legion\n" :
		    "# Turn 3\nThe militia reloaded.\n");
	crown_buf_puts(&map, "<svg/>\n");
	assert_int_equal(turn_reports(cp.dir, s, rules, rep, &map, "bad",
	    &d), CROWN_EUSAGE);
	assert_diag(&d, "'bad' is not a time");
	crown_diags_release(&d);
	assert_int_equal(turn_reports(cp.dir, s, rules, rep, &map,
	    "2026-12-06T09:00:00Z", &d), 0);
	assert_no_diags(&d);
	p = xasprintf("%s/outbox/new", cp.dir);
	v = files(p, &n);
	assert_int_equal(n, 2);		/* one player a side */
	for (i = 0; i < n; i++) {
		char *f = xasprintf("%s/%s", p, v[i]);

		raw = tu_slurp(f);
		free(f);
		assert_int_equal(strncmp(v[i], "1796547600.", 11), 0);
		assert_has(raw, "Date: Sun, 06 Dec 2026 09:00:00 +0000\n");
		assert_has(raw, "From: Test Umpire <umpire@example.org>\n");
		assert_has(raw, "Auto-Submitted: auto-generated\n");
		assert_has(raw, "filename=map.svg");
		assert_has(raw, "filename=state.yaml");
		assert_int_equal(crown_mail_parse(&m, raw, strlen(raw)), 0);
		text = m->text;
		assert_lacks(text, "umpire only");
		if (strstr(raw, "To: Jean Danjou <danjou@example.org>")) {
			assert_string_equal(m->subject, "[Test Skirmish] Turn "
			    "3: report for Foreign Legion");
			assert_has(text, "The Legion held.\n");
			assert_lacks(text, "militia");
			/* text for mail: no Markdown escapes (issue 21) */
			assert_has(text, "\n*Lanceros* <de> Jalapa | #1 took "
			    "a charge_test.\n");
			assert_lacks(text, "\\");
			/* in mail a table is a list, every line at most 78
			 * columns but a URL's (FORMATS.md) */
			assert_has(text, "\n- Unit: 3rd Company, Foreign "
			    "Legion; Orders: move to (30, 16.5), facing 0°;\n"
			    "  fire at Militia of Veracruz; Status: ok, "
			    "unloaded\n- Unit: Guns | Battery; Orders: hold\n");
			assert_has(text, "\nhttps://example.org/a/very/long/"
			    "address/of/the/site/with/many/parts/turn-003."
			    "html#u-1-legion\n");
			assert_lacks(text, "\n|");
			assert_true(longest_line(text, "https://") <= 78);
		} else {
			assert_has(raw, "To: Francisco Milan "
			    "<milan@example.org>");
			assert_has(text, "The militia reloaded.\n");
		}
		assert_has(text, "Orders for turn 4 are due by " DEADLINE);
		/* the state goes out without the passwords' hashes */
		assert_int_equal(m->nyaml, 2);
		assert_string_equal(m->yaml[0].name, "state.yaml");
		assert_has(m->yaml[0].data, "turn: 3\n");
		assert_lacks(m->yaml[0].data, "password_sha256");
		/* and the side's orders form for turn 4, its units only */
		assert_has(text, "orders.yaml, attached, has every unit of "
		    "yours holding");
		assert_string_equal(m->yaml[1].name, "orders.yaml");
		assert_has(m->yaml[1].data, "\nturn: 4\n");
		if (strstr(raw, "To: Jean Danjou") != NULL) {
			assert_has(m->yaml[1].data, "\nside: french\n");
			assert_lacks(m->yaml[1].data, "side: republic");
		} else
			assert_has(m->yaml[1].data, "\nside: republic\n");
		assert_has(m->yaml[1].data, "    actions: [hold]\n");
		crown_mail_free(m);
		free(raw);
	}
	for (i = 0; i < n; i++) {
		char *f = xasprintf("%s/%s", p, v[i]);

		assert_int_equal(unlink(f), 0);
		free(f);
	}
	free_files(v);
	/* after the last turn: no form and no deadline */
	s->last_turn = 3;
	assert_int_equal(turn_reports(cp.dir, s, rules, rep, &map,
	    "2026-12-06T09:00:00Z", &d), 0);
	v = files(p, &n);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++) {
		char *f = xasprintf("%s/%s", p, v[i]);

		raw = tu_slurp(f);
		free(f);
		assert_has(raw, "filename=state.yaml");
		assert_lacks(raw, "orders.yaml");
		assert_lacks(raw, "are due by");
		free(raw);
	}
	free_files(v);
	free(p);
	crown_buf_release(&rep[0]);
	crown_buf_release(&rep[1]);
	crown_buf_release(&map);
	crown_rules_free(rules);
	crown_state_free(s);
	camp_free(&cp);
}

/* crown inbox. */

static void
test_inbox_accepts(void **state)
{
	struct camp	 c;
	char		*f, *r, *t, *log, hex[CROWN_SHA256_HEX];

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_yaml_attachment);
	camp_mail(&c, "2", m_qp_shorthand);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_string_equal(c.err, "");
	assert_has(c.out, "new/1: accepted: side french, turn 3, from "
	    "danjou@example.org, receipt ");
	assert_has(c.out, "new/2: accepted: side republic, turn 3, from "
	    "milan@example.org, receipt ");
	assert_has(c.out, "2 messages: 2 accepted, 0 late, 0 refused, 0 "
	    "already read\n");

	/* filed in the canonical form; the receipt is its SHA-256 */
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_string_equal(f, "game: Test Skirmish\nturn: 3\nside: french\n"
	    "orders:\n- unit: 1-legion\n  actions:\n  - hold\n  - reload\n");
	crown_mail_sha256_hex(hex, f, strlen(f));
	assert_has(c.out, hex);
	r = reply(&c, "m1@example.org");
	assert_non_null(r);
	assert_has(r, "To: Jean Danjou <danjou@example.org>\n");
	assert_has(r, "Subject: [Test Skirmish] Turn 3: orders accepted for "
	    "Foreign Legion\n");
	t = text_of(r);
	assert_has(t, "Your orders for turn 3 of Test Skirmish, side french "
	    "(Foreign Legion),\nare accepted and filed.\n");
	assert_has(t, hex);
	assert_has(t, "  1-legion: hold; reload\n");
	assert_has(t, "deadline, 2026-12-05T18:00:00Z");
	assert_has(t, "No password is set for you");
	free(t);
	free(r);
	free(f);

	/* the shorthand: soft line break mended, password gone */
	f = camp_file(&c, "orders/pending/republic.yaml");
	assert_string_equal(f, "game: Test Skirmish\nturn: 3\n"
	    "side: republic\norders:\n- unit: 2-militia\n  actions:\n"
	    "  - reload\n- unit: 3-cav\n  actions:\n"
	    "  - move: {to: [50.00, 36.00], face: 180}\n");
	crown_mail_sha256_hex(hex, f, strlen(f));
	r = reply(&c, "m2@example.org");
	assert_non_null(r);
	assert_lacks(r, "tequila");
	t = text_of(r);
	assert_has(t, hex);
	assert_has(t, "  3-cav: move 50,36 face 180\n");
	assert_lacks(t, "No password");
	free(t);
	free(r);
	free(f);

	log = camp_file(&c, "orders/inbox.log");
	assert_has(log, BEFORE " accepted 3 french ");
	assert_has(log, BEFORE " accepted 3 republic ");
	assert_has(log, " milan@example.org\n");
	assert_lacks(log, "tequila");
	free(log);

	/* read again: nothing new */
	assert_int_equal(inbox(&c, "2026-12-05T13:00:00Z"), 0);
	assert_string_equal(c.out, "2 messages: 0 accepted, 0 late, 0 "
	    "refused, 2 already read\n");
	assert_has(c.out, "2 messages: 0 accepted, 0 late, 0 refused, 2 "
	    "already read\n");
	f = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(f), 2);
	free(f);

	/* status: both in */
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now",
	    "2026-12-05T16:59:30Z", NULL), 0);
	assert_has(c.out, "Test Skirmish: orders for turn 3, deadline "
	    DEADLINE " (in 1h 00m)\n");
	assert_has(c.out, "  french    in       received " BEFORE
	    ", receipt ");
	assert_has(c.out, "  republic  in       received " BEFORE);
	assert_has(c.out, "2 of 2 sides have orders in\n");
	camp_free(&c);
}

/*
 * Issue 20: a line of prose before the orders is skipped with a warning,
 * said in the answer; the errors of a mailed body are at their own lines
 * and columns (the password line blanked, not removed); a comment after
 * game: is a comment.
 */
static void
test_inbox_prose_and_places(void **state)
{
	struct camp	 c;
	char		*r, *t;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", HDR(DANJOU, "p1@example.org", "orders")
	    "Content-Type: text/plain\n\nRevised orders:\n1-legion: hold\n");
	camp_mail(&c, "2", HDR(MILAN, "p2@example.org", "orders")
	    "Content-Type: text/plain\n\npassword: tequila\n"
	    "game: Test Skirmish # ours\nturn: 4\n2-militia: dance\n");
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side french, turn 3, from "
	    "danjou@example.org, receipt ");
	assert_has(c.out, "\n  message:1:1: warning: skipped 'Revised "
	    "orders:': not an order line, and no order came before it\n");
	r = reply(&c, "p1@example.org");
	t = text_of(r);
	assert_has(t, "Warnings (the orders stand as they are):\n\n"
	    "  message:1:1: warning: skipped 'Revised orders:'");
	free(t);
	free(r);
	assert_has(c.out, "new/2: refused, answered to milan@example.org:\n"
	    "  message:3:7: error: orders for turn 4, but the next turn is 3 "
	    "(R2.2)\n  message:4:12: error: unknown action 'dance'");
	assert_lacks(c.out, "for game");
	camp_free(&c);
}

/* Two mails from one side: the later wins, and says what it replaces. */
static void
test_inbox_latest_wins(void **state)
{
	struct camp	 c;
	char		*f, *r, *t, first[CROWN_SHA256_HEX];
	char		 second[CROWN_SHA256_HEX];

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_yaml_attachment);
	assert_int_equal(inbox(&c, BEFORE), 0);
	f = camp_file(&c, "orders/pending/french.yaml");
	crown_mail_sha256_hex(first, f, strlen(f));
	free(f);
	camp_mail(&c, "2", m_base64_attachment);
	assert_int_equal(inbox(&c, "2026-12-05T13:00:00Z"), 0);
	assert_has(c.out, "new/2: accepted: side french");
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_string_equal(f, "game: Test Skirmish\nturn: 3\nside: french\n"
	    "orders:\n- unit: 1-legion\n  actions:\n"
	    "  - move: {to: [30.00, 20.00], face: 0}\n"
	    "  - fire: 2-militia\n");
	crown_mail_sha256_hex(second, f, strlen(f));
	free(f);
	r = reply(&c, "m3@example.org");
	t = text_of(r);
	assert_has(t, second);
	assert_has(t, "They replace the orders filed before, whose receipt "
	    "was\n\n  ");
	assert_has(t, first);
	free(t);
	free(r);
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now",
	    "2026-12-05T13:00:00Z", NULL), 0);
	assert_has(c.out, "  french    in       received "
	    "2026-12-05T13:00:00Z, receipt ");
	assert_has(c.out, second);
	assert_has(c.out, "  republic  missing\n");
	assert_has(c.out, "1 of 2 sides have orders in\n");
	camp_free(&c);
}

/* Each refusal: what is said, to whom, and nothing filed. */
static void
test_inbox_refusals(void **state)
{
	struct camp	 c;
	char		*r, *t, *p;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "01", m_html_only);
	camp_mail(&c, "02", m_forged);
	camp_mail(&c, "03", m_wrong_password);
	camp_mail(&c, "04", m_no_password);
	camp_mail(&c, "05", m_wrong_game);
	camp_mail(&c, "06", m_wrong_turn);
	camp_mail(&c, "07", m_other_side);
	camp_mail(&c, "08", m_two_attachments);
	camp_mail(&c, "09", m_bad_orders);
	camp_mail(&c, "10", "this is not mail\n");
	camp_mail(&c, "11", m_bad_yaml);
	camp_mail(&c, "12", m_bad_yaml_no_password);
	/* six of them from danjou: past the default of five answers */
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail, "--now",
	    BEFORE, "--max-answers", "6", NULL), 0);
	assert_has(c.out, "12 messages: 0 accepted, 0 late, 12 refused, 0 "
	    "already read\n");
	p = xasprintf("%s/orders/pending", c.dir);
	assert_int_equal(count_files(p), 0);
	free(p);
	/* strangers are not answered, nor kept but in the log: 10 replies
	 * and 10 records for 12 refusals */
	p = xasprintf("%s/orders/rejected", c.dir);
	assert_int_equal(count_files(p), 10);
	free(p);
	p = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(p), 10);
	free(p);

	r = reply(&c, "m4@example.org");
	t = text_of(r);
	assert_has(t, "the mail has only HTML, no plain text: send it as "
	    "plain text");
	assert_has(t, "Nothing was filed: Mexican Republic has no orders for "
	    "turn 3 yet.");
	free(t);
	free(r);

	assert_has(c.out, "new/02: refused, not answered (not from a "
	    "player):\n  'danjou@evil.example' is not a player of Test "
	    "Skirmish\n");
	assert_null(reply(&c, "m6@example.org"));

	r = reply(&c, "m7@example.org");
	assert_has(r, "To: Francisco Milan <milan@example.org>\n");
	assert_lacks(r, "mezcal");
	t = text_of(r);
	assert_has(t, "  wrong password\n");
	/* nothing about the orders goes with a wrong password */
	assert_lacks(t, "2-militia");
	free(t);
	free(r);
	r = reply(&c, "m8@example.org");
	t = text_of(r);
	assert_has(t, "  no password: give yours in a line 'password: ...'\n");
	free(t);
	free(r);

	r = reply(&c, "m9@example.org");
	t = text_of(r);
	/* a problem longer than a mail's line hangs under its start */
	assert_has(t, "  message:1:7: error: orders for game 'Camerone', but "
	    "this game is 'Test\n      Skirmish'\n");
	free(t);
	free(r);
	r = reply(&c, "m10@example.org");
	t = text_of(r);
	assert_has(t, "  message:1:7: error: orders for turn 4, but the next "
	    "turn is 3 (R2.2)\n");
	free(t);
	free(r);
	r = reply(&c, "m11@example.org");
	assert_has(r, "To: Jean Danjou <danjou@example.org>\n");
	t = text_of(r);
	assert_has(t, "  message:1:7: error: 'danjou@example.org' does not "
	    "play side 'republic'\n");
	assert_lacks(t, "2-militia");
	free(t);
	free(r);
	r = reply(&c, "m12@example.org");
	t = text_of(r);
	assert_has(t, "  attach one orders file to a mail, not 2\n");
	free(t);
	free(r);
	/* every problem, in the order of the text, quoted lines skipped */
	r = reply(&c, "m13@example.org");
	t = text_of(r);
	assert_has(t, "  message:2:51: error: over budget: '1-legion' has 3 "
	    "actions a half-turn\n      (R3.1)\n"
	    "  message:3:8: error: unknown action 'dance'");
	assert_has(t, "Mend them and send them again before " DEADLINE);
	assert_lacks(t, "quoted");
	free(t);
	free(r);
	/* the attachment's name, made safe, names the file */
	r = reply(&c, "m17@example.org");
	t = text_of(r);
	assert_has(t, "  my_orders.yaml:1:7: error: YAML syntax: the list "
	    "opened with '[' here is not\n      closed");
	free(t);
	free(r);
	r = reply(&c, "m18@example.org");
	t = text_of(r);
	assert_has(t, "  no password: give yours");
	assert_lacks(t, "YAML");
	free(t);
	free(r);
	assert_has(c.out, "new/10: refused, not answered (not from a "
	    "player):\n  not a mail message with a From address\n");

	/* the record of a refusal */
	p = xasprintf("%s/orders/rejected", c.dir);
	{
		size_t	  n, i;
		char	**v = files(p, &n), *f, *s;
		bool	  found = false;

		for (i = 0; i < n; i++) {
			f = xasprintf("%s/%s", p, v[i]);
			s = tu_slurp(f);
			assert_int_equal(strncmp(v[i], "20261205T120000Z-",
			    17), 0);
			assert_lacks(s, "danjou@evil.example");
			if (strstr(s, "message-id: m7@example.org\n")) {
				assert_has(s, "read: " BEFORE "\n");
				assert_has(s, "message: new/03\n");
				assert_has(s, "from: milan@example.org\n");
				assert_has(s, "answered: milan@example.org\n");
				assert_has(s, "problems:\n  wrong password\n");
				found = true;
			}
			free(s);
			free(f);
		}
		assert_true(found);
		free_files(v);
	}
	free(p);
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now", BEFORE,
	    NULL), 0);
	assert_has(c.out, "  french    missing\n  republic  missing\n"
	    "0 of 2 sides have orders in\n");
	camp_free(&c);
}

/* A mail of exactly --max-bytes is read; one byte more is refused unread
 * but answered, since it comes from a player. */
static void
test_inbox_oversize_edge(void **state)
{
	struct camp	 c;
	struct crown_buf b = { 0 };
	char		*r, *t, *lim, *p;
	size_t		 size;

	(void)state;
	camp_make(&c, true);
	crown_buf_puts(&b, HDR(DANJOU, "big@example.org", "orders")
	    "Content-Type: text/plain\n\n1-legion: hold\n");
	while (b.len < 4000)
		crown_buf_puts(&b, "# padding padding padding\n");
	size = b.len;
	camp_mail(&c, "1", b.data);
	lim = xasprintf("%zu", size);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail, "--now",
	    BEFORE, "--max-bytes", lim, NULL), 0);
	assert_has(c.out, "new/1: accepted: side french");
	free(lim);
	/* a byte more */
	crown_buf_puts(&b, "#");
	p = replace(b.data, "big@", "big2@");
	camp_mail(&c, "2", p);
	lim = xasprintf("%zu", strlen(p) - 1);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail, "--now",
	    BEFORE, "--max-bytes", lim, NULL), 0);
	assert_has(c.out, "new/2: refused, answered to danjou@example.org");
	r = reply(&c, "big2@example.org");
	t = text_of(r);
	free(lim);
	lim = xasprintf("  the mail is %zu bytes, over the limit of %zu:",
	    strlen(p), strlen(p) - 1);
	assert_has(t, lim);
	assert_has(t, "Nothing was filed for Foreign Legion: the orders filed "
	    "before stand,\nwith the receipt\n\n  ");
	free(lim);
	free(t);
	free(r);
	free(p);
	/* a bad limit */
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail,
	    "--max-bytes", "lots", NULL), 2);
	assert_has(c.err, "--max-bytes: 'lots' is not a size");
	crown_buf_release(&b);
	camp_free(&c);
}

/* Received exactly at the deadline is in time; a second later is late:
 * kept aside, not filed, and the side holds (R2.3). */
static void
test_inbox_deadline_edge(void **state)
{
	struct camp	 c;
	char		*f, *r, *t;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_yaml_attachment);
	assert_int_equal(inbox(&c, DEADLINE), 0);
	assert_has(c.out, "new/1: accepted: side french");
	camp_mail(&c, "2", m_qp_shorthand);
	camp_mail(&c, "3", m_base64_attachment);
	assert_int_equal(inbox(&c, "2026-12-05T18:00:01Z"), 0);
	assert_has(c.out, "new/2: late: side republic, turn 3, from "
	    "milan@example.org, after the deadline " DEADLINE "; kept in "
	    "orders/late/republic.yaml\n");
	assert_has(c.out, "new/3: late: side french");
	assert_has(c.out, "0 accepted, 2 late, 0 refused, 1 already read\n");
	f = camp_file(&c, "orders/pending/republic.yaml");
	assert_null(f);
	f = camp_file(&c, "orders/late/republic.yaml");
	assert_has(f, "side: republic\n");
	free(f);
	/* the French orders in time stand */
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_has(f, "  - hold\n");
	free(f);
	r = reply(&c, "m2@example.org");
	assert_has(r, "Subject: [Test Skirmish] Turn 3: orders late for "
	    "Mexican Republic\n");
	t = text_of(r);
	assert_has(t, "came at 2026-12-05T18:00:01Z, after the deadline,\n"
	    DEADLINE ".");
	assert_has(t, "every unit holds this turn\n(R2.3)");
	free(t);
	free(r);
	assert_answer(&c, "m3@example.org", "The orders filed before the "
	    "deadline stand, with the receipt\n\n  ");
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now",
	    "2026-12-06T19:30:00Z", NULL), 0);
	f = xasprintf("Test Skirmish: orders for turn 3, "
	    "deadline " DEADLINE " (passed 1d 1h 30m ago)\n"
	    "  french    in       received " DEADLINE ", receipt "
	    "a72ee419864fb80f54161ea028e90e892e9428ec8fe628ac77976e88b4436e34"
	    "; later orders came late, received 2026-12-05T18:00:01Z "
	    "(orders/late/french.yaml: played only if moved to "
	    "orders/pending/ in place of these; crown turn removes it)\n"
	    "  republic  late     received 2026-12-05T18:00:01Z, after the "
	    "deadline (orders/late/republic.yaml: played only if moved to "
	    "orders/pending/; crown turn removes it); holds (R2.3)\n"
	    "1 of 2 sides have orders in; the others hold (R2.3) if the "
	    "turn is played with --allow-missing\n"
	    "no unread mail in %s\n", c.mail);
	assert_string_equal(c.out, f);
	free(f);
	camp_free(&c);
}

/*
 * Issue 31: a mail counts as received when it was delivered, by the time
 * at the start of its Maildir name, else its file's modification time:
 * one second before the deadline and at it are in time, a second after
 * is late, however long after the deadline crown reads them.
 */
static void
test_inbox_delivery_time(void **state)
{
	static const char *const by_name[] = { "1796493599.M1P9.test",
	    "1796493600.M2P9.test", "1796493601.M3P9.test" };
	static const char *const by_mtime[] = { "a", "b", "c" };
	const char *const	*names;
	struct camp	 c;
	char		*f;
	int		 k;

	(void)state;
	for (k = 0; k < 2; k++) {
		names = k == 0 ? by_name : by_mtime;
		camp_make(&c, true);
		camp_mail_at(&c, "new", names[0], m_yaml_attachment,
		    k == 0 ? 4102444800LL : DEADLINE_T - 1);
		camp_mail_at(&c, "new", names[1], m_qp_shorthand,
		    k == 0 ? 4102444800LL : DEADLINE_T);
		camp_mail_at(&c, "new", names[2], m_base64_attachment,
		    k == 0 ? 4102444800LL : DEADLINE_T + 1);
		assert_int_equal(inbox(&c, "2026-12-06T09:00:00Z"), 0);
		f = xasprintf("new/%s: accepted: side french", names[0]);
		assert_has(c.out, f);
		free(f);
		f = xasprintf("new/%s: accepted: side republic", names[1]);
		assert_has(c.out, f);
		free(f);
		f = xasprintf("new/%s: late: side french", names[2]);
		assert_has(c.out, f);
		free(f);
		f = camp_file(&c, "orders/inbox.log");
		assert_has(f, "2026-12-05T17:59:59Z accepted 3 french ");
		assert_has(f, DEADLINE " accepted 3 republic ");
		assert_has(f, "2026-12-05T18:00:01Z late 3 french ");
		free(f);
		assert_answer(&c, "m3@example.org", "came at "
		    "2026-12-05T18:00:01Z, after the deadline");
		assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now",
		    "2026-12-06T09:00:00Z", NULL), 0);
		assert_has(c.out, "  french    in       received "
		    "2026-12-05T17:59:59Z, receipt ");
		assert_has(c.out, "  republic  in       received " DEADLINE);
		camp_free(&c);
	}
	/* crown check --mail: a saved message by its From_ line */
	camp_make(&c, true);
	f = xasprintf("From danjou@example.org Sat Dec  5 17:59:59 2026\n%s",
	    m_yaml_attachment);
	put(c.dir, "in-time.eml", f, strlen(f));
	free(f);
	f = xasprintf("From danjou@example.org Sat Dec  5 18:00:01 2026\n%s",
	    m_yaml_attachment);
	put(c.dir, "late.eml", f, strlen(f));
	free(f);
	f = xasprintf("%s/in-time.eml", c.dir);
	assert_int_equal(run(&c, &crown_cmd_check, c.dir, "--mail", f,
	    "--now", "2026-12-06T09:00:00Z", NULL), 0);
	assert_has(c.out, ": accepted: side french");
	free(f);
	f = xasprintf("%s/late.eml", c.dir);
	assert_int_equal(run(&c, &crown_cmd_check, c.dir, "--mail", f,
	    "--now", "2026-12-06T09:00:00Z", NULL), 65);
	assert_has(c.out, ": late: side french");
	free(f);
	camp_free(&c);
}

static void
test_inbox_mbox_and_no_deadline(void **state)
{
	struct camp	 c;
	struct crown_buf b = { 0 };
	char		*p;

	(void)state;
	camp_make(&c, false);
	crown_buf_printf(&b, "From danjou@example.org Sat Dec  5 11:00:00 "
	    "2026\n%s\nFrom milan@example.org Sat Dec  5 11:00:00 2026\n%s",
	    m_yaml_attachment, m_alternative);
	put(c.dir, "in.mbox", b.data, b.len);
	p = xasprintf("%s/in.mbox", c.dir);
	/* a day after any deadline there might have been: none is set */
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, p, "--now",
	    "2027-01-01T00:00:00Z", NULL), 0);
	assert_has(c.out, "mbox:1: accepted: side french");
	assert_has(c.out, "mbox:2: accepted: side republic");
	free(p);
	p = camp_file(&c, "orders/pending/republic.yaml");
	assert_has(p, "  - reload\n");
	free(p);
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now",
	    "2027-01-01T00:00:00Z", NULL), 0);
	assert_has(c.out, "Test Skirmish: orders for turn 3, no deadline\n");
	crown_buf_release(&b);
	camp_free(&c);
}

/* The password may be in the orders file or in the body; it is never
 * filed.  An empty body files nothing.  A failure to file answers
 * nothing, so the mail is read again. */
static void
test_inbox_passwords_and_empty(void **state)
{
	struct camp	 c;
	char		*f, *r, *t, *p;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_password_in_yaml);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side republic");
	f = camp_file(&c, "orders/pending/republic.yaml");
	assert_string_equal(f, "game: Test Skirmish\nturn: 3\n"
	    "side: republic\norders:\n- unit: 2-militia\n  actions:\n"
	    "  - reload\n");
	free(f);
	camp_mail(&c, "2", m_password_in_body);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/2: accepted: side republic");
	f = camp_file(&c, "orders/pending/republic.yaml");
	assert_string_equal(f, "game: Test Skirmish\nturn: 3\n"
	    "side: republic\norders: []\n");
	free(f);
	r = reply(&c, "m15@example.org");
	t = text_of(r);
	assert_has(t, "  (none: every unit holds, R2.3)\n");
	free(t);
	free(r);

	/* files nothing, answers why */
	camp_mail(&c, "3", m_yaml_attachment);
	camp_mail(&c, "4", m_only_quotes);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/4: refused, answered to danjou@example.org:\n"
	    "  message: error: no orders found: write a line 'UNIT: ACTION; "
	    "...' for each unit (to hold, 'UNIT: hold'), or attach an "
	    "orders file\n");
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_has(f, "  - hold\n");
	free(f);

	/* orders/late cannot be made: not filed, not answered, not logged */
	p = xasprintf("%s/orders", c.dir);
	put(p, "late", "a file in the way\n", 18);
	free(p);
	camp_mail(&c, "5", m_base64_attachment);
	assert_int_equal(inbox(&c, "2026-12-06T00:00:00Z"), 73);
	assert_has(c.out, "new/5: not filed: cannot write orders/late/"
	    "french.yaml\n");
	assert_has(c.err, "orders/late: error: cannot write: ");
	assert_null(reply(&c, "m3@example.org"));
	p = xasprintf("%s/orders/late", c.dir);
	unlink(p);
	free(p);
	assert_int_equal(inbox(&c, "2026-12-06T00:00:00Z"), 0);
	assert_has(c.out, "new/5: late: side french");
	r = reply(&c, "m3@example.org");
	assert_non_null(r);
	free(r);
	camp_free(&c);
}

static void
test_usage(void **state)
{
	struct camp	 c;
	char		*p;

	(void)state;
	camp_make(&c, true);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, NULL), 2);
	assert_has(c.err, "give a campaign DIR and at least one mailbox");
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail, "--now",
	    "soon", NULL), 2);
	assert_has(c.err, "--now: 'soon' is not a time");
	p = xasprintf("%s/nothing", c.dir);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, p, "--now", BEFORE,
	    NULL), 66);
	assert_has(c.err, "cannot read the mail");
	assert_int_equal(run(&c, &crown_cmd_inbox, p, c.mail, "--now",
	    BEFORE, NULL), 66);
	assert_int_equal(run(&c, &crown_cmd_status, p, "--now", BEFORE,
	    NULL), 66);
	free(p);
	assert_int_equal(run(&c, &crown_cmd_status, NULL), 2);
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now", "x",
	    NULL), 2);
	assert_int_equal(run(&c, &crown_cmd_inbox, "--help", NULL), 0);
	assert_has(c.out, "usage: crown inbox DIR MAILDIR|MBOX...");
	camp_free(&c);
}

/* Issue 17: hostile mail. */

/* No byte below 0x20 but newline, no DEL, no C1 (U+0080..U+009F). */
static void
assert_printable(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i;

	assert_non_null(s);
	for (i = 0; p[i] != '\0'; i++) {
		if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f ||
		    (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) ||
		    /* the bidi controls, U+061C, U+200E, U+200F,
		     * U+202A-U+202E, U+2066-U+2069 */
		    (p[i] == 0xd8 && p[i + 1] == 0x9c) ||
		    (p[i] == 0xe2 && p[i + 1] == 0x80 && (p[i + 2] == 0x8e ||
		    p[i + 2] == 0x8f || (p[i + 2] >= 0xaa &&
		    p[i + 2] <= 0xae))) ||
		    (p[i] == 0xe2 && p[i + 1] == 0x81 && p[i + 2] >= 0xa6 &&
		    p[i + 2] <= 0xa9)) {
			print_error("control byte 0x%02x at %zu in:\n%s\n",
			    p[i], i, s);
			fail();
		}
	}
}

/* The contents of every file of dir, one after another. */
static char *
all_files(const char *dir)
{
	struct crown_buf	 b = { 0 };
	char			**v, *p, *s;
	size_t			 n, i;

	crown_buf_puts(&b, "");
	v = files(dir, &n);
	for (i = 0; i < n; i++) {
		p = xasprintf("%s/%s", dir, v[i]);
		s = tu_slurp(p);
		if (s != NULL)
			crown_buf_puts(&b, s);
		free(s);
		free(p);
	}
	free_files(v);
	return b.data;
}

/* "1-legion: hold\nab\0cd\n" in base64: a NUL byte on line 2, column 3 */
static const char m_nul_body[] =
    HDR(DANJOU, "nul@example.org", "orders")
    "Content-Type: text/plain; charset=utf-8\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "MS1sZWdpb246IGhvbGQKYWIAY2QK\n";

/* Bullet 1: a NUL byte in a body is refused at its place, and nothing
 * of another message leaks into the answer. */
static void
test_inbox_nul_body(void **state)
{
	struct camp	 c;
	char		*r, *t;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_qp_shorthand);
	camp_mail(&c, "2", m_nul_body);
	camp_mail(&c, "3", m_alternative);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side republic");
	assert_has(c.out, "new/2: refused, answered to danjou@example.org:\n"
	    "  message:2:3: error: control character 0x00 (orders are plain "
	    "text)\n");
	r = reply(&c, "nul@example.org");
	t = text_of(r);
	assert_has(t, "  message:2:3: error: control character 0x00");
	assert_lacks(t, "militia");
	assert_lacks(t, "3-cav");
	free(t);
	free(r);
	camp_free(&c);
}

/* Bullet 7: a Subject with CR, LF and escapes is echoed without them;
 * a bidi control in the Subject or the orders is shown escaped. */
static const char m_escape_subject[] =
    HDR(DANJOU, "esc@example.org",
    "=?utf-8?b?T3JkZXJzDQpCY2M6IHhAZXZpbC5leGFtcGxlG1sySgcgwpsxbQ==?=")
    "Content-Type: text/plain\n"
    "\n"
    "1-legion: dance\n";

static const char m_bidi[] =
    HDR(DANJOU, "bidi@example.org", "=?utf-8?b?T3JkZXJzIOKArmZkcA==?=")
    "Content-Type: text/plain; charset=utf-8\n\n"
    "1-legion: d\xe2\x81\xa6" "ance\n";

/* Mail `name` refused and answered, the answer to Message-ID id
 * saying want and want2, nothing in it or on stdout unprintable. */
static void
refused_printable(struct camp *c, const char *name, const char *mail,
    const char *id, const char *want, const char *want2)
{
	char	*r, *t, *line;

	camp_mail(c, name, mail);
	assert_int_equal(inbox(c, BEFORE), 0);
	line = xasprintf("new/%s: refused, answered to danjou@example.org",
	    name);
	assert_has(c->out, line);
	free(line);
	assert_printable(c->out);
	r = reply(c, id);
	t = text_of(r);
	assert_has(t, want);
	assert_has(t, want2);
	assert_printable(t);
	free(t);
	free(r);
}

static void
test_inbox_subject_controls(void **state)
{
	struct camp	 c;
	char		*t, *p;

	(void)state;
	camp_make(&c, true);
	refused_printable(&c, "1", m_escape_subject, "esc@example.org",
	    "Your mail \"Orders Bcc: x@evil.example?[2J? ?1m\"", "dance");
	p = xasprintf("%s/orders/rejected", c.dir);
	t = all_files(p);
	assert_has(t, "subject: Orders  Bcc: x@evil.example?[2J? ?1m\n");
	assert_printable(t);
	free(t);
	free(p);
	refused_printable(&c, "2", m_bidi, "bidi@example.org",
	    "Your mail \"Orders \\u202Efdp\"", "d\\u2066ance");
	camp_free(&c);
}

/* Bullet 3: automatic mail (RFC 3834) is logged, never answered. */
static void
test_inbox_automatic(void **state)
{
	/* RFC 3834's, and what auto-responders write beside or instead
	 * of them */
	static const struct {
		const char	*head, *why;
	} autos[] = {
		{ "Auto-Submitted: auto-replied", "Auto-Submitted: "
		    "auto-replied" },
		{ "Precedence: bulk", "Precedence: bulk" },
		{ "List-Id: <players.example.org>", "List-Id" },
		{ "Precedence: JUNK", "Precedence: JUNK" },
		{ "Return-Path: <>", "Return-Path: <>" },
		{ "X-Autoreply: yes", "X-Autoreply" },
		{ "X-Autorespond: Re: orders", "X-Autorespond" },
		{ "X-Auto-Response-Suppress: DR, OOF, AutoReply",
		    "X-Auto-Response-Suppress" },
		{ "List-Unsubscribe: <mailto:u@example.org>",
		    "List-Unsubscribe" },
		{ "Precedence: list", "Precedence: list" },
	};
	struct camp	 c;
	char		*p, *log, *r, *m, *name;
	size_t		 i;

	(void)state;
	camp_make(&c, true);
	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++) {
		m = xasprintf("%s\nFrom: " DANJOU "\nSubject: Away\n"
		    "Message-ID: <a%zu@example.org>\n"
		    "Content-Type: text/plain\n\n1-legion: hold\n",
		    autos[i].head, i + 1);
		name = xasprintf("%zu", i + 1);
		camp_mail(&c, name, m);
		free(name);
		free(m);
	}
	/* answered: "no" says a person wrote it, and a Precedence that is
	 * none of bulk, junk, list */
	camp_mail(&c, "p", "Auto-Submitted: No (a person)\n"
	    "Precedence: first-class\n"
	    "Return-Path: <danjou@example.org>\n"
	    "X-Auto-Response-Suppress: RN, NRN\n"
	    HDR(DANJOU, "a0@example.org", "orders")
	    "Content-Type: text/plain\n\n1-legion: hold\n");
	assert_int_equal(inbox(&c, BEFORE), 0);
	for (i = 0; i < sizeof(autos) / sizeof(autos[0]); i++) {
		m = xasprintf("new/%zu: ignored, not answered: automatic "
		    "mail (%s)\n", i + 1, autos[i].why);
		assert_has(c.out, m);
		free(m);
	}
	assert_has(c.out, "new/p: accepted: side french");
	assert_has(c.out, "11 messages: 1 accepted, 0 late, 0 refused, 0 "
	    "already read, 10 ignored\n");
	p = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(p), 1);
	free(p);
	r = reply(&c, "a0@example.org");
	assert_non_null(r);
	free(r);
	p = xasprintf("%s/orders/rejected", c.dir);
	assert_int_equal(count_files(p), 0);
	free(p);
	log = camp_file(&c, "orders/inbox.log");
	assert_has(log, BEFORE " ignored 3 french - ");
	free(log);
	/* read once: a second run skips them all */
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "11 messages: 0 accepted, 0 late, 0 refused, 11 "
	    "already read\n");
	camp_free(&c);
}

/* Bad orders from danjou, as new/first ... new/last. */
static void
loop_mails(struct camp *c, int first, int last)
{
	char	*m, *name;
	int	 i;

	for (i = first; i <= last; i++) {
		m = xasprintf("From: " DANJOU "\nSubject: orders\n"
		    "Message-ID: <loop%d@example.org>\n\n1-legion: dance%d\n",
		    i, i);
		name = xasprintf("%d", i);
		camp_mail(c, name, m);
		free(name);
		free(m);
	}
}

/* Bullet 4: a few answers to one address a run, the rest logged. */
static void
test_inbox_max_answers(void **state)
{
	struct camp	 c;
	FILE		*fp;
	char		*p, *p2, *log;

	(void)state;
	camp_make(&c, true);
	loop_mails(&c, 1, 7);
	camp_mail(&c, "8", m_qp_shorthand);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/5: refused, answered to danjou@example.org");
	assert_has(c.out, "new/6: refused, not answered (5 answers to "
	    "danjou@example.org this turn: --max-answers 5):\n");
	assert_has(c.out, "new/7: refused, not answered (5 answers");
	assert_has(c.out, "new/8: accepted: side republic");
	p = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(p), 6);
	free(p);
	assert_null(reply(&c, "loop6@example.org"));
	log = camp_file(&c, "orders/inbox.log");
	assert_has(log, " refused 3 french - ");
	free(log);
	p = xasprintf("%s/orders/rejected", c.dir);
	assert_int_equal(count_files(p), 5);
	free(p);

	/* the limit is a turn's, whatever the number of runs: the count is
	 * kept beside the credentials (in .git) */
	p = crown_roster_private(c.dir, "crown-answers");
	log = tu_slurp(p);
	assert_non_null(log);
	assert_has(log, " 5 danjou@example.org\n");
	free(log);
	loop_mails(&c, 9, 9);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/9: refused, not answered (5 answers to "
	    "danjou@example.org this turn: --max-answers 5):\n");
	p2 = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(p2), 6);
	/* a count of another turn is not this turn's; the option lowers
	 * the limit */
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs("0 5 danjou@example.org\n", fp);
	assert_int_equal(fclose(fp), 0);
	loop_mails(&c, 10, 11);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail, "--now",
	    BEFORE, "--max-answers", "1", NULL), 0);
	assert_has(c.out, "new/10: refused, answered to danjou@example.org");
	assert_has(c.out, "new/11: refused, not answered (1 answer to "
	    "danjou@example.org this turn: --max-answers 1):\n");
	assert_int_equal(count_files(p2), 7);
	log = tu_slurp(p);
	assert_non_null(strstr(log, " 1 danjou@example.org\n"));
	assert_null(strstr(log, "0 5 "));
	free(log);
	free(p2);
	free(p);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, c.mail,
	    "--max-answers", "many", NULL), 2);
	assert_has(c.err, "--max-answers: 'many' is not a number");
	camp_free(&c);
}

/* Bullet 5: strangers cost a log line, no file. */
static void
test_inbox_strangers(void **state)
{
	struct camp	 c;
	char		*p, *m, *name, *log;
	int		 i;

	(void)state;
	camp_make(&c, true);
	for (i = 1; i <= 3; i++) {
		m = xasprintf("From: spam%d@evil.example\nSubject: buy\n\n"
		    "buy now\n", i);
		name = xasprintf("%d", i);
		camp_mail(&c, name, m);
		free(name);
		free(m);
	}
	camp_mail(&c, "4", "this is not mail\n");
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: refused, not answered (not from a player):\n"
	    "  'spam1@evil.example' is not a player of Test Skirmish\n");
	assert_has(c.out, "new/4: refused, not answered (not from a player):\n"
	    "  not a mail message with a From address\n");
	p = xasprintf("%s/orders/rejected", c.dir);
	assert_int_equal(count_files(p), 0);
	free(p);
	p = xasprintf("%s/outbox/new", c.dir);
	assert_int_equal(count_files(p), 0);
	free(p);
	log = camp_file(&c, "orders/inbox.log");
	assert_has(log, BEFORE " refused 3 - - ");
	assert_has(log, " spam3@evil.example\n");
	free(log);
	camp_free(&c);
}

/* Bullet 6: the nesting limit counts the MIME structure, not words. */
static void
test_parse_nesting(void **state)
{
	struct crown_mail	*m;
	struct crown_buf	 b = { 0 };
	struct camp		 c;
	int			 i;

	(void)state;
	/* the text "multipart/" in a body, 100 times: a valid mail */
	crown_buf_puts(&b, HDR(DANJOU, "words@example.org", "orders")
	    "Content-Type: text/plain\n\n1-legion: hold\n");
	for (i = 0; i < 100; i++)
		crown_buf_puts(&b, "# multipart/mixed\n");
	assert_int_equal(crown_mail_parse(&m, b.data, b.len), 0);
	assert_has(m->text, "1-legion: hold\n");
	crown_mail_free(m);
	camp_make(&c, true);
	camp_mail(&c, "1", b.data);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side french");
	camp_free(&c);
	crown_buf_release(&b);

	/* 64 nested multiparts are read, 65 are not */
	crown_buf_puts(&b, "From: a@example.org\n");
	for (i = 0; i < 64; i++)
		crown_buf_printf(&b, "Content-Type: multipart/mixed; "
		    "boundary=\"b%d\"\n\n--b%d\n", i, i);
	crown_buf_puts(&b, "Content-Type: text/plain\n\ndeep\n");
	assert_int_equal(crown_mail_parse(&m, b.data, b.len), 0);
	assert_string_equal(m->text, "deep\n");
	crown_mail_free(m);
	crown_buf_release(&b);
	crown_buf_puts(&b, "From: a@example.org\n");
	for (i = 0; i < 65; i++)
		crown_buf_printf(&b, "Content-Type: multipart/mixed; "
		    "boundary=\"b%d\"\n\n--b%d\n", i, i);
	crown_buf_puts(&b, "Content-Type: text/plain\n\ndeep\n");
	assert_int_equal(crown_mail_parse(&m, b.data, b.len),
	    CROWN_EINVALID);
	crown_buf_release(&b);
	/* siblings are not nesting: 100 parts side by side */
	crown_buf_puts(&b, "From: a@example.org\nContent-Type: multipart/"
	    "mixed; boundary=\"s\"\n\n");
	for (i = 0; i < 100; i++)
		crown_buf_puts(&b, "--s\nContent-Type: multipart/mixed; "
		    "boundary=\"t\"\n\n--t\nContent-Type: text/plain\n\n"
		    "x\n--t--\n");
	crown_buf_puts(&b, "--s--\n");
	assert_int_equal(crown_mail_parse(&m, b.data, b.len), 0);
	assert_int_equal(m->nparts, 100);
	crown_mail_free(m);
	crown_buf_release(&b);
	/* forwarded messages nest too, boundaries or not */
	crown_buf_puts(&b, "From: a@example.org\n");
	for (i = 0; i < 20000; i++)
		crown_buf_puts(&b, "Content-Type: message/rfc822\n\n");
	assert_int_equal(crown_mail_parse(&m, b.data, b.len),
	    CROWN_EINVALID);
	crown_buf_release(&b);
}


/* The output of a shell command; caller frees. */
static char *
sh(const char *fmt, ...)
{
	struct crown_buf	 b = { 0 };
	va_list			 ap;
	char			 buf[4096], *cmd;
	size_t			 n;
	FILE			*fp;
	int			 len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	cmd = xstrdup(buf);
	crown_buf_puts(&b, "");
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		crown_buf_add(&b, buf, n);
	pclose(fp);
	free(cmd);
	return b.data;
}

/*
 * Bullet 2: a turn killed between its commit point and its checkout
 * leaves the work tree at the turn before.  crown status reads the last
 * commit, crown inbox repairs first: neither takes orders for the turn
 * already played.
 */
static void
test_inbox_after_killed_turn(void **state)
{
	struct camp	 c;
	char		 base[] = "/tmp/crown-kill-XXXXXX";
	char		*zero, *dir = NULL, *t, *main0, *mainn;
	unsigned long	 steps, n;
	pid_t		 pid;
	int		 st;
	bool		 found = false;

	(void)state;
	assert_non_null(mkdtemp(base));
	zero = xasprintf("%s/zero", base);
	memset(&c, 0, sizeof(c));
	memcpy(c.dir, base, sizeof(base));
	assert_int_equal(run(&c, &crown_cmd_new, zero, "--templates",
	    "templates", "--scenario", "tests/data/scenario-small.yaml",
	    "--rules",
	    "rules/maximilian.yaml", "--secret-file",
	    "tests/data/campaign/secret.hex", "--date",
	    "2026-03-01T10:00:00+01:00", NULL), 0);
	main0 = sh("git -C '%s' rev-parse main", zero);
	/* the steps of a turn */
	t = sh("cp -a '%s' '%s/count' && echo ok", zero, base);
	assert_string_equal(t, "ok\n");
	free(t);
	dir = xasprintf("%s/count", base);
	crown_history_fail_after(0, false);
	assert_int_equal(run(&c, &crown_cmd_turn, dir,
	    "tests/data/campaign/french-1.yaml",
	    "tests/data/campaign/republic-1.yaml", "--templates",
	    "templates", "--date", "2026-03-08", NULL), 0);
	steps = crown_history_steps();
	free(dir);
	/* the first step after which main has moved and the work tree has
	 * not: killed there */
	for (n = 1; n <= steps && !found; n++) {
		dir = xasprintf("%s/k%lu", base, n);
		t = sh("cp -a '%s' '%s' && echo ok", zero, dir);
		assert_string_equal(t, "ok\n");
		free(t);
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid == 0) {
			int fd = open("/dev/null", O_WRONLY);

			dup2(fd, 1);
			dup2(fd, 2);
			crown_history_fail_after(n, true);
			crown_cmd_run(&crown_cmd_turn, 8, (char *[]){
			    "turn", dir, "tests/data/campaign/french-1.yaml",
			    "tests/data/campaign/republic-1.yaml",
			    "--templates", "templates", "--date",
			    "2026-03-08", NULL });
			_exit(0);
		}
		assert_true(pid > 0);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		mainn = sh("git -C '%s' rev-parse main", dir);
		t = sh("grep -c '^  turn: 0$' '%s/state.yaml'", dir);
		if (strcmp(mainn, main0) != 0 && strcmp(t, "1\n") == 0)
			found = true;
		else {
			crown_campaign_remove_tree(dir, false);
			free(dir);
		}
		free(t);
		free(mainn);
	}
	assert_true(found);
	/* the killed run's lock ended with it: nothing to remove */

	/* status: turn 1 is played, orders are for turn 2 */
	assert_int_equal(run(&c, &crown_cmd_status, dir, "--now",
	    "2026-03-09T12:00:00Z", NULL), 0);
	assert_has(c.out, "Test Campaign: orders for turn 2");

	/* inbox: orders for turn 1 are refused, the next are for turn 2 */
	c.mail = xasprintf("%s/mail", base);
	mkdir(c.mail, 0755);
	t = xasprintf("%s/new", c.mail);
	mkdir(t, 0755);
	free(t);
	camp_mail(&c, "1", HDR(DANJOU, "k1@example.org", "orders")
	    "Content-Type: text/plain\n\nturn: 1\n1-legion: hold\n");
	camp_mail(&c, "2", HDR(DANJOU, "k2@example.org", "orders")
	    "Content-Type: text/plain\n\n1-legion: hold\n");
	assert_int_equal(inbox_of(&c, dir, "2026-03-09T12:00:00Z"), 0);
	assert_has(c.out, "new/1: refused, answered to danjou@example.org:\n"
	    "  message:1:7: error: orders for turn 1, but the next turn is 2 "
	    "(R2.2)\n");
	assert_has(c.out, "new/2: accepted: side french, turn 2, from "
	    "danjou@example.org");
	/* repaired: the work tree is the last commit's */
	t = sh("grep -c '^  turn: 1$' '%s/state.yaml'", dir);
	assert_string_equal(t, "1\n");
	free(t);
	free(dir);
	free(main0);
	free(zero);
	free(c.mail);
	free(c.out);
	free(c.err);
	crown_campaign_remove_tree(base, false);
}

/*
 * A campaign repository at c->dir/camp of the small scenario, turn 1
 * played and committed at date against the deadline
 * 2026-03-07T18:00:00Z, the next deadline 2026-03-14T18:00:00Z; and an
 * empty Maildir at c->mail.  Returns the campaign's path.
 */
static char *
played_campaign(struct camp *c, const char *date)
{
	char	*dir;

	memset(c, 0, sizeof(*c));
	strcpy(c->dir, "/tmp/crown-played-XXXXXX");
	assert_non_null(mkdtemp(c->dir));
	dir = xasprintf("%s/camp", c->dir);
	assert_int_equal(run(c, &crown_cmd_new, dir, "--templates",
	    "templates", "--scenario", "tests/data/scenario-small.yaml",
	    "--rules", "rules/maximilian.yaml", "--secret-file",
	    "tests/data/campaign/secret.hex", "--date",
	    "2026-03-01T10:00:00Z", NULL), 0);
	assert_int_equal(run(c, &crown_cmd_deadline, dir,
	    "2026-03-07T18:00:00Z", NULL), 0);
	assert_int_equal(run(c, &crown_cmd_turn, dir,
	    "tests/data/campaign/french-1.yaml",
	    "tests/data/campaign/republic-1.yaml", "--templates",
	    "templates", "--date", date, "--deadline",
	    "2026-03-14T18:00:00Z", NULL), 0);
	camp_maildir(c);
	return dir;
}

#define SHORT(from, id, body)						\
	HDR(from, id, "orders") "Content-Type: text/plain\n\n" body

/*
 * Issue 31: a mail delivered while turn 1 was open, read after turn 1
 * was played, is not filed for turn 2: in time for turn 1 it is logged
 * as missed and crown status lists it for the umpire; after turn 1's
 * deadline, or at its commit, it is refused.  Then the mail not read
 * yet: crown status counts it, crown turn waits for it unless
 * --ignore-unread.
 */
static void
test_inbox_played_turn(void **state)
{
	struct camp	 c;
	char		*dir, *f, *main1, *t;

	(void)state;
	dir = played_campaign(&c, "2026-03-08T00:00:00Z");
	/* 17:30, 20:00, the commit's second, after it */
	camp_mail(&c, "1772904600.M1P1.t", SHORT(DANJOU, "p1@example.org",
	    "1-legion: hold\n"));
	camp_mail(&c, "1772913600.M2P1.t", SHORT(MILAN, "p2@example.org",
	    "2-militia: reload\n"));
	camp_mail(&c, "1772928000.M3P1.t", SHORT(DANJOU, "p3@example.org",
	    "1-legion: hold\n"));
	camp_mail(&c, "1772971200.M4P1.t", SHORT(DANJOU, "p4@example.org",
	    "1-legion: hold\n"));
	assert_int_equal(inbox_of(&c, dir, "2026-03-09T12:00:00Z"), 0);
	assert_has(c.out, "new/1772904600.M1P1.t: refused, answered to "
	    "danjou@example.org:\n  the mail was delivered at "
	    "2026-03-07T17:30:00Z, while turn 1 was open (its deadline: "
	    "2026-03-07T18:00:00Z), but turn 1 was played at "
	    "2026-03-08T00:00:00Z, before crown read it: it is not filed for "
	    "turn 2, which it was not written for; ask the umpire to rerun "
	    "turn 1 with it\n");
	assert_has(c.out, "new/1772913600.M2P1.t: refused, answered to "
	    "milan@example.org:\n  the mail was delivered at "
	    "2026-03-07T20:00:00Z, before turn 1 was played at "
	    "2026-03-08T00:00:00Z, and after its deadline, "
	    "2026-03-07T18:00:00Z: it cannot carry orders for turn 2");
	assert_has(c.out, "new/1772928000.M3P1.t: refused");
	assert_has(c.out, "new/1772971200.M4P1.t: accepted: side french, "
	    "turn 2");
	f = xasprintf("%s/orders/inbox.log", dir);
	t = tu_slurp(f);
	assert_has(t, "2026-03-07T17:30:00Z missed 1 french - ");
	assert_has(t, "2026-03-07T20:00:00Z refused 2 republic - ");
	free(t);
	free(f);
	assert_int_equal(run(&c, &crown_cmd_status, dir, "--now",
	    "2026-03-09T12:00:00Z", NULL), 0);
	assert_has(c.out, "mail delivered in time for turn 1, read after it "
	    "was played (kept in orders/rejected/; crown rerun plays it):\n"
	    "  french  from danjou@example.org, delivered "
	    "2026-03-07T17:30:00Z\n");
	f = xasprintf("no unread mail in %s\n", c.mail);
	assert_has(c.out, f);
	free(f);

	/* at turn 2's deadline, unread in new/; in cur/, unread before the
	 * deadline, and after it */
	camp_mail(&c, "1773511200.M5P1.t", SHORT(MILAN, "p5@example.org",
	    "2-militia: reload\n"));
	camp_mail_at(&c, "cur", "1772971300.M6P1.t:2,S", SHORT(MILAN,
	    "p6@example.org", "2-militia: reload\n"), 4102444800LL);
	camp_mail_at(&c, "cur", "1773511201.M7P1.t:2,S", SHORT(MILAN,
	    "p7@example.org", "2-militia: reload\n"), 4102444800LL);
	assert_int_equal(run(&c, &crown_cmd_status, dir, "--now",
	    "2026-03-15T12:00:00Z", NULL), 0);
	f = xasprintf("2 unread messages in %s, delivered by the deadline: "
	    "run crown inbox before crown turn\n", c.mail);
	assert_has(c.out, f);
	free(f);
	main1 = sh("git -C '%s' rev-parse main", dir);
	assert_int_equal(run(&c, &crown_cmd_turn, dir, "--templates",
	    "templates", "--date", "2026-03-15T12:00:00Z", "--allow-missing",
	    NULL), 65);
	f = xasprintf("%s: error: 2 unread messages delivered by the "
	    "deadline: run crown inbox first, or give --ignore-unread to "
	    "play the turn without them\n", c.mail);
	assert_has(c.err, f);
	free(f);
	t = sh("git -C '%s' rev-parse main", dir);
	assert_string_equal(t, main1);
	free(t);
	assert_int_equal(run(&c, &crown_cmd_turn, dir, "--templates",
	    "templates", "--date", "2026-03-15T12:00:00Z", "--allow-missing",
	    "--ignore-unread", NULL), 0);
	assert_has(c.out, "turn 2 committed");
	/* the mailbox gone: not counted, and the turn waits for it */
	rm_rf(c.mail);
	assert_int_equal(run(&c, &crown_cmd_status, dir, "--now",
	    "2026-03-16T12:00:00Z", NULL), 0);
	assert_has(c.out, "unread mail cannot be counted: ");
	assert_int_equal(run(&c, &crown_cmd_turn, dir, "--templates",
	    "templates", "--date", "2026-03-22T12:00:00Z", "--allow-missing",
	    NULL), 66);
	assert_has(c.err, "error: the unread mail cannot be counted: mend "
	    "the mailbox, or give --ignore-unread\n");
	free(main1);
	free(dir);
	camp_free(&c);
}

/* Bullet 8: a mailbox is read a message at a time: an mbox of 4 mails of
 * 16 MiB is read with 40 MiB more address space than the test has (the
 * whole mbox would need 64 MiB and more).  Not under AddressSanitizer,
 * whose shadow memory cannot live under such a limit. */
#if defined(__SANITIZE_ADDRESS__)
#define CROWN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CROWN_TEST_ASAN 1
#endif
#endif

#ifndef CROWN_TEST_ASAN
static size_t
vm_size(void)
{
	char	*s = tu_slurp("/proc/self/statm");
	size_t	 pages = 0;

	if (s != NULL)
		pages = strtoul(s, NULL, 10);
	free(s);
	return pages * (size_t)sysconf(_SC_PAGESIZE);
}
#endif

static void
test_inbox_streams(void **state)
{
	struct camp	 c;
	FILE		*fp;
	char		*p, line[80];
	size_t		 i, k;
	pid_t		 pid;
	int		 st, rc;

	(void)state;
	camp_make(&c, true);
	p = xasprintf("%s/big.mbox", c.dir);
	fp = fopen(p, "w");
	assert_non_null(fp);
	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	for (i = 0; i < 4; i++) {
		fprintf(fp, "From danjou@example.org Sat Dec  5 11:00:00 "
		    "2026\nFrom: " DANJOU "\nSubject: big\nMessage-ID: "
		    "<big%zu@example.org>\n\n", i);
		for (k = 0; k < 16 * 1024 * 1024 / sizeof(line); k++)
			fwrite(line, 1, sizeof(line), fp);
		fputs("\n", fp);
	}
	assert_int_equal(fclose(fp), 0);
#ifndef CROWN_TEST_ASAN
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		struct rlimit	rl;

		rl.rlim_cur = rl.rlim_max = vm_size() + 40 * 1024 * 1024;
		setrlimit(RLIMIT_AS, &rl);
		rc = run(&c, &crown_cmd_inbox, c.dir, p, "--now", BEFORE,
		    NULL);
		_exit(rc == 0 && strstr(c.out, "4 messages: 0 accepted, 0 "
		    "late, 4 refused, 0 already read") != NULL ? 0 : 3);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
#else
	(void)pid;
	(void)st;
	(void)rc;
#endif
	/* and without the limit, what it says (the log and the count of
	 * answers forgotten, so the mail is new again) */
	free(p);
	p = xasprintf("%s/orders/inbox.log", c.dir);
	unlink(p);
	free(p);
	p = crown_roster_private(c.dir, "crown-answers");
	unlink(p);
	free(p);
	p = xasprintf("%s/big.mbox", c.dir);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, p, "--now",
	    BEFORE, NULL), 0);
	assert_has(c.out, "mbox:4: refused, answered to danjou@example.org:\n"
	    "  the mail is 16777284 bytes, over the limit of 1048576");
	free(p);
	camp_free(&c);
}

/* Bullet 8: 1,000 messages already read are skipped, each found in the
 * log's index. */
static void
test_inbox_many_read(void **state)
{
	struct camp	 c;
	FILE		*fp;
	char		*p;
	size_t		 i;

	(void)state;
	camp_make(&c, true);
	p = xasprintf("%s/many.mbox", c.dir);
	fp = fopen(p, "w");
	assert_non_null(fp);
	for (i = 0; i < 1000; i++)
		fprintf(fp, "From x@example.net Sat Dec  5 11:00:00 2026\n"
		    "From: stranger%zu@example.net\nSubject: hi\n\n"
		    "hello %zu\n\n", i, i);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, p, "--now", BEFORE,
	    NULL), 0);
	assert_has(c.out, "1000 messages: 0 accepted, 0 late, 1000 refused, "
	    "0 already read\n");
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, p, "--now", BEFORE,
	    NULL), 0);
	/* counted, not listed (issue 20) */
	assert_lacks(c.out, "mbox:1000");
	assert_has(c.out, "1000 messages: 0 accepted, 0 late, 0 refused, "
	    "1000 already read\n");
	free(p);
	camp_free(&c);
}

/* OpenPGP (issue 19). */

/* The fingerprint of the key gpg makes for uid in the GnuPG home gh. */
static char *
gen_key(const char *gh, const char *uid)
{
	char	*out, *fpr;

	out = sh("GNUPGHOME=%s gpg --batch --pinentry-mode loopback "
	    "--passphrase '' --quick-gen-key '%s' default default never "
	    ">/dev/null 2>&1; GNUPGHOME=%s gpg --batch --with-colons "
	    "--list-keys '%s' 2>/dev/null | awk -F: '/^fpr/ { print $10; "
	    "exit }'", gh, uid, gh, uid);
	out[strcspn(out, "\n")] = '\0';
	assert_int_equal(strlen(out), 40);
	fpr = xstrdup(out);
	free(out);
	return fpr;
}

/* A PGP/MIME mail from `from`, its text body signed by the key fpr of
 * the GnuPG home gh, as GMime writes it. */
static char *
signed_mail(const char *gh, const char *fpr, const char *from,
    const char *id, const char *body)
{
	GMimeCryptoContext	*ctx;
	GMimeTextPart		*tp;
	GMimeMultipartSigned	*mps;
	GError			*err = NULL;
	char			*s, *mail;

	g_mime_init();
	assert_int_equal(gpgme_set_engine_info(GPGME_PROTOCOL_OpenPGP, NULL,
	    gh), GPG_ERR_NO_ERROR);
	ctx = g_mime_gpg_context_new();
	assert_non_null(ctx);
	tp = g_mime_text_part_new_with_subtype("plain");
	g_mime_text_part_set_text(tp, body);
	mps = g_mime_multipart_signed_sign(ctx, GMIME_OBJECT(tp), fpr, &err);
	if (mps == NULL)
		print_error("cannot sign: %s\n", err != NULL ? err->message :
		    "?");
	assert_non_null(mps);
	s = g_mime_object_to_string(GMIME_OBJECT(mps), NULL);
	mail = xasprintf("From: %s\nTo: Test Umpire <umpire@example.org>\n"
	    "Subject: orders\nMessage-ID: <%s>\nMIME-Version: 1.0\n%s",
	    from, id, s);
	g_free(s);
	g_object_unref(mps);
	g_object_unref(tp);
	g_object_unref(ctx);
	return mail;
}

/* Milan's key fpr, of the GnuPG home gh, his in the roster of campaign
 * dir, as crown roster add --openpgp --key-file does; the campaign's
 * keyring home is returned (caller frees). */
static char *
pgp_player(const char *dir, const char *gh, const char *fpr)
{
	struct crown_roster	 ro;
	struct crown_diags	 d = { 0 };
	char			*pub, *home, *p;

	pub = xasprintf("%s/pub.asc", gh);
	free(sh("GNUPGHOME=%s gpg --batch --armor --export %s > %s "
	    "2>/dev/null", gh, fpr, pub));
	home = crown_roster_keyring(dir);
	assert_int_equal(crown_pgp_import(home, fpr, pub, &d), 0);
	p = crown_roster_path(dir);
	assert_int_equal(crown_roster_load(&ro, p, &d), 0);
	crown_roster_get(&ro, "milan@example.org")->openpgp = xstrdup(fpr);
	assert_int_equal(crown_roster_save(&ro, p, &d), 0);
	crown_roster_release(&ro);
	crown_diags_release(&d);
	free(p);
	free(pub);
	return home;
}

/*
 * Bullet 4: milan signs with his key; juarez, of the same side, has a
 * password only.  Good, unsigned, wrongly signed and tampered mail, and
 * the side's strength rule.
 */
/* Is a gpg-agent of GnuPG home `home` running (its command line names
 * the home), or its socket there? */
static bool
agent_of(const char *home)
{
	DIR		*d;
	struct dirent	*e;
	char		*p, buf[4096];
	size_t		 n, i;
	FILE		*fp;
	bool		 found = false;

	p = xasprintf("%s/S.gpg-agent", home);
	found = access(p, F_OK) == 0;
	free(p);
	assert_non_null(d = opendir("/proc"));
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		p = xasprintf("/proc/%s/cmdline", e->d_name);
		fp = fopen(p, "rb");
		free(p);
		if (fp == NULL)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		buf[n] = '\0';
		if (strstr(buf, "gpg-agent") == NULL)
			continue;
		for (i = 0; i < n; i += strlen(buf + i) + 1)
			if (strcmp(buf + i, home) == 0)
				found = true;
	}
	closedir(d);
	return found;
}

static void
test_inbox_openpgp(void **state)
{
	struct camp		 c;
	struct crown_diags	 d = { 0 };
	char			 gh[32], *milan, *other, *pub, *home, *m, *t;
	char			*r, *p, *st, *st2, *why;

	(void)state;
	strcpy(gh, "/tmp/crown-gpg-XXXXXX");
	assert_non_null(mkdtemp(gh));
	milan = gen_key(gh, "Francisco Milan <milan@example.org>");
	other = gen_key(gh, "Mallory <mallory@example.net>");
	camp_make(&c, true);
	/* a second player of the republic, with a password */
	st = camp_file(&c, "state.yaml");
	st2 = replace(st, "email: \"milan@example.org\"}]", "email: "
	    "\"milan@example.org\"}, {name: \"Benito Juarez\", email: "
	    "\"juarez@example.org\"}]");
	put(c.dir, "state.yaml", st2, strlen(st2));
	free(st2);
	free(st);
	roster_password(c.dir, "juarez@example.org", "mezcal");
	home = pgp_player(c.dir, gh, milan);
	/* the key file holds milan's key, not the other */
	pub = xasprintf("%s/pub.asc", gh);
	assert_int_equal(crown_pgp_import(home, other, pub, &d),
	    CROWN_EINVALID);
	assert_int_equal(d.n, 1);
	crown_diags_release(&d);

	/* unsigned, with the right password even: refused and answered */
	camp_mail(&c, "1", HDR(MILAN, "g1@example.org", "orders")
	    "Content-Type: text/plain\n\npassword: tequila\n"
	    "2-militia: reload\n");
	/* signed by a key not his */
	m = signed_mail(gh, other, MILAN, "g2@example.org",
	    "2-militia: reload\n");
	camp_mail(&c, "2", m);
	free(m);
	/* his signature, the orders changed after */
	m = signed_mail(gh, milan, MILAN, "g3@example.org",
	    "2-militia: reload\n");
	assert_non_null(strstr(m, "2-militia: reload"));
	t = replace(m, "2-militia: reload", "2-militia: hold  ");
	camp_mail(&c, "3", t);
	free(t);
	/* the same as signed (the headers are not signed) */
	t = replace(m, "<g3@example.org>", "<g4@example.org>");
	camp_mail(&c, "4", t);
	free(t);
	free(m);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: refused, answered to milan@example.org:\n"
	    "  your mail must be signed with your OpenPGP key as PGP/MIME");
	assert_has(c.out, "new/2: refused, answered to milan@example.org:\n"
	    "  the mail is signed with a key that is not yours");
	assert_has(c.out, "new/3: refused, answered to milan@example.org:\n"
	    "  the signature does not match the mail");
	assert_has(c.out, "new/4: accepted: side republic");
	r = reply(&c, "g1@example.org");
	t = text_of(r);
	assert_has(t, "inline PGP is not read");
	free(t);
	free(r);
	r = reply(&c, "g4@example.org");
	t = text_of(r);
	assert_has(t, "You were identified by your OpenPGP signature.\n");
	free(t);
	free(r);
	p = camp_file(&c, "orders/pending/republic.proof");
	assert_has(p, " openpgp\n");
	free(p);

	/* the side's orders came signed: a password cannot replace them */
	camp_mail(&c, "5", HDR("Benito Juarez <juarez@example.org>",
	    "g5@example.org", "orders")
	    "Content-Type: text/plain\n\npassword: mezcal\n"
	    "2-militia: hold\n");
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/5: refused, answered to juarez@example.org:\n"
	    "  the orders filed for side 'republic' came with an OpenPGP "
	    "signature; you are identified by a password only");
	p = camp_file(&c, "orders/pending/republic.yaml");
	assert_has(p, "reload");
	free(p);

	/* the library's answer for a mail that is not one */
	assert_int_equal(crown_pgp_verify(&why, NULL, home, milan, "", 0),
	    CROWN_EINVALID);
	assert_non_null(why);
	free(why);
	/* checking a signature needs no secret key: no agent was started
	 * for the keyring, and none is left running */
	assert_false(agent_of(home));
	free(sh("GNUPGHOME=%s gpgconf --kill all", gh));
	free(home);
	free(pub);
	free(milan);
	free(other);
	camp_free(&c);
	rm_rf(gh);
}

/* Lines of s ended by CRLF; caller frees. */
static char *
crlf(const char *s)
{
	struct crown_buf	 b = { 0 };

	crown_buf_puts(&b, "");
	for (; *s != '\0'; s++)
		if (*s == '\n')
			crown_buf_puts(&b, "\r\n");
		else
			crown_buf_add(&b, s, 1);
	return b.data;
}

/*
 * Issue 31: a signature carries orders once.  The same signed mail sent
 * again with new headers, or with CRLF line ends, is refused as a
 * replay; read again as it was (a run killed before it was logged) it is
 * no replay; a line of the signatures cut short by a kill counts for
 * nothing.  And a mail signed before the last turn was played is a
 * replay of an old one, even with no `turn:` line.
 */
static void
test_inbox_replays(void **state)
{
	struct camp	 c;
	char		 gh[32], *milan, *home, *m, *t, *t2, *p, *dir;
	FILE		*fp;

	(void)state;
	strcpy(gh, "/tmp/crown-gpg-XXXXXX");
	assert_non_null(mkdtemp(gh));
	milan = gen_key(gh, "Francisco Milan <milan@example.org>");
	camp_make(&c, true);
	home = pgp_player(c.dir, gh, milan);
	m = signed_mail(gh, milan, MILAN, "r1@example.org",
	    "2-militia: reload\n");
	camp_mail(&c, "1", m);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side republic");
	t = replace(m, "<r1@example.org>", "<r2@example.org>");
	t2 = replace(t, "Subject: orders", "Subject: Re: orders");
	camp_mail(&c, "2", t2);
	free(t2);
	free(t);
	t = crlf(m);
	camp_mail(&c, "3", t);
	free(t);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/2: refused, answered to milan@example.org:\n"
	    "  a replay: this signature carried orders before, in another "
	    "mail, and a signature is used once; sign your orders again to "
	    "send them again\n");
	assert_has(c.out, "new/3: refused, answered to milan@example.org:\n"
	    "  a replay: ");
	/* the log lost, as by a kill before it was written: the mail that
	 * used the signature is read again and accepted again */
	p = xasprintf("%s/orders/inbox.log", c.dir);
	unlink(p);
	free(p);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side republic");
	assert_has(c.out, "new/2: refused");
	/* a line cut short: the next is whole, and still counts */
	p = xasprintf("%s/crown-signatures", c.dir);
	assert_non_null(fp = fopen(p, "a"));
	fputs("0123abc", fp);
	fclose(fp);
	free(m);
	m = signed_mail(gh, milan, MILAN, "r4@example.org",
	    "2-militia: hold\n");
	camp_mail(&c, "4", m);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/4: accepted: side republic");
	t = tu_slurp(p);
	assert_has(t, "0123abc\n");
	free(t);
	free(p);
	t = replace(m, "<r4@example.org>", "<r5@example.org>");
	camp_mail(&c, "5", t);
	free(t);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/5: refused");
	free(sh("GNUPGHOME=%s gpgconf --kill all", home));
	free(home);
	camp_free(&c);

	/* signed now, before a turn played later: its shorthand names no
	 * turn, and would otherwise be filed for the next */
	dir = played_campaign(&c, "2030-01-01T00:00:00Z");
	home = pgp_player(dir, gh, milan);
	camp_mail(&c, "1893542400.M1P1.t", m);
	assert_int_equal(inbox_of(&c, dir, "2030-01-03T00:00:00Z"), 0);
	assert_has(c.out, "new/1893542400.M1P1.t: refused, answered to "
	    "milan@example.org:\n  a replay of an old mail: it was signed "
	    "at ");
	assert_has(c.out, ", before turn 1 was played at "
	    "2030-01-01T00:00:00Z, so it cannot carry orders for turn 2");
	p = xasprintf("%s/orders/pending/republic.yaml", dir);
	assert_null(tu_slurp(p));
	free(p);
	free(sh("GNUPGHOME=%s gpgconf --kill all; GNUPGHOME=%s gpgconf "
	    "--kill all", gh, home));
	free(home);
	free(dir);
	free(m);
	free(milan);
	camp_free(&c);
	rm_rf(gh);
}

/*
 * Mail as real clients send it: format=flowed (RFC 3676), forwarded
 * messages, orders attached under the names players give them, and the
 * parts crown does not read, named in the answer.  The fixtures are
 * shaped as Thunderbird, Apple Mail, Gmail, Outlook and mutt write them.
 */

static void
test_unflow(void **state)
{
	static const struct {
		const char	*in;
		bool		 delsp;
		const char	*out;
	} t[] = {
		/* a soft line break: the space stays, or with DelSp goes */
		{ "a \nb\n", false, "a b\n" },
		{ "a \nb\n", true, "ab\n" },
		{ "move 50,3 \n6 face 180\n", true, "move 50,36 face 180\n" },
		{ "a  \nb\n", true, "a b\n" },
		/* a line ending in a space at the end of the part */
		{ "a \n", false, "a \n" },
		{ "a \n", true, "a\n" },
		{ "a ", false, "a " },
		{ "a ", true, "a" },
		/* the empty line ends the paragraph (and is its end) */
		{ "a \n\nb\n", false, "a \nb\n" },
		/* the signature separator is not flowed, nor joined to */
		{ "orders \n-- \nJean \nDanjou\n", false,
		    "orders \n-- \nJean Danjou\n" },
		{ "orders \n-- \nJean\n", true, "orders\n-- \nJean\n" },
		{ "> x \n> -- \n> y\n", false, "> x \n> -- \n> y\n" },
		/* space-stuffing removed: " From", an indented YAML line */
		{ " From here\n   - unit: x\n", false,
		    "From here\n  - unit: x\n" },
		{ "  \nx\n", true, "x\n" },
		/* quotes: a paragraph keeps to its depth */
		{ "> a \n> b\n>> c \n>>d\ne\n", false, "> a b\n>> c d\ne\n" },
		{ "> a \n>> b\n", false, "> a \n>> b\n" },
		{ ">\n> \n", false, ">\n>\n" },
		{ "a\nb", false, "a\nb" },
		{ "", false, "" },
	};
	char	*u;
	size_t	 i, n;

	(void)state;
	for (i = 0; i < CROWN_NELEM(t); i++) {
		u = crown_mail_unflow(t[i].in, strlen(t[i].in), t[i].delsp,
		    &n);
		if (strcmp(u, t[i].out) != 0) {
			print_error("unflow %zu: got \"%s\"\n", i, u);
			fail();
		}
		assert_int_equal(n, strlen(t[i].out));
		free(u);
	}
}

/* Thunderbird, plain text: format=flowed, a long comment wrapped, the
 * indented lines space-stuffed, a flowed quotation below */
static const char m_thunderbird_flowed[] =
    HDR(DANJOU, "tb1@example.org", "Re: [Test Skirmish] Turn 2: report")
    "User-Agent: Mozilla Thunderbird\n"
    "Content-Language: en-GB\n"
    "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
    "Content-Transfer-Encoding: 7bit\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: french\n"
    "orders:\n"
    "   - unit: 1-legion\n"
    "     actions: [hold, reload]   # the legion holds the ridge above "
    "the \n"
    "village and reloads before the cavalry comes\n"
    "\n"
    "On 05/12/2026 09:00, Test Umpire wrote:\n"
    "> Orders for turn 3 are due by 2026-12-05T18:00:00Z: change the "
    "form, \n"
    "> `crown check` it and send it back.\n"
    "\n"
    "-- \n"
    "Jean Danjou\n";

/* Apple Mail: DelSp=yes (a break inside a word), the parameters folded,
 * an HTML alternative */
static const char m_apple_delsp[] =
    HDR(MILAN, "ap1@example.org", "orders")
    "Content-Type: multipart/alternative;\n"
    "\tboundary=\"Apple-Mail=_5F1A2B3C-0000-4D5E-8F90-A1B2C3D4E5F6\"\n"
    "X-Mailer: Apple Mail (2.3774.300.61.1.2)\n"
    "\n"
    "\n"
    "--Apple-Mail=_5F1A2B3C-0000-4D5E-8F90-A1B2C3D4E5F6\n"
    "Content-Transfer-Encoding: 7bit\n"
    "Content-Type: text/plain;\n"
    "\tcharset=us-ascii;\n"
    "\tdelsp=yes;\n"
    "\tformat=flowed\n"
    "\n"
    "password: tequila\n"
    "2-militia: reload\n"
    "3-cav: move 50,3 \n"
    "6 face 180\n"
    "\n"
    "--Apple-Mail=_5F1A2B3C-0000-4D5E-8F90-A1B2C3D4E5F6\n"
    "Content-Transfer-Encoding: 7bit\n"
    "Content-Type: text/html;\n"
    "\tcharset=us-ascii\n"
    "\n"
    "<html><body>password: tequila<br>2-militia: reload<br>3-cav: move "
    "50,36 face 180</body></html>\n"
    "--Apple-Mail=_5F1A2B3C-0000-4D5E-8F90-A1B2C3D4E5F6--\n";

/* Gmail, "Forward as attachment": a note, and the player's own mail
 * from another address as message/rfc822 */
static const char m_gmail_forward[] =
    HDR(DANJOU, "gm1@mail.gmail.com", "Fwd: orders")
    "Content-Type: multipart/mixed; boundary=\"000000000000a1b2c3d4e5f6\"\n"
    "\n"
    "--000000000000a1b2c3d4e5f6\n"
    "Content-Type: multipart/alternative; "
    "boundary=\"000000000000a1b2c3d4e5f4\"\n"
    "\n"
    "--000000000000a1b2c3d4e5f4\n"
    "Content-Type: text/plain; charset=\"UTF-8\"\n"
    "\n"
    "Sent from my other account, the orders are in the mail attached.\n"
    "\n"
    "--000000000000a1b2c3d4e5f4\n"
    "Content-Type: text/html; charset=\"UTF-8\"\n"
    "\n"
    "<div dir=\"ltr\">Sent from my other account, the orders are in the "
    "mail attached.</div>\n"
    "\n"
    "--000000000000a1b2c3d4e5f4--\n"
    "--000000000000a1b2c3d4e5f6\n"
    "Content-Type: message/rfc822; name=\"orders.eml\"\n"
    "Content-Disposition: attachment; filename=\"orders.eml\"\n"
    "\n"
    "From: Jean Danjou <jean.danjou@gmail.example>\n"
    "Subject: orders\n"
    "Content-Type: text/plain; charset=\"UTF-8\"\n"
    "\n"
    "1-legion: hold; reload\n"
    "--000000000000a1b2c3d4e5f6--\n";

/* Gmail's "Forward": the message forwarded in the text, below its
 * header lines */
static const char m_gmail_forward_inline[] =
    HDR(DANJOU, "gm4@mail.gmail.com", "Fwd: orders")
    "Content-Type: multipart/alternative; boundary=\"000000000000778899aa\"\n"
    "\n"
    "--000000000000778899aa\n"
    "Content-Type: text/plain; charset=\"UTF-8\"\n"
    "\n"
    "---------- Forwarded message ---------\n"
    "From: Jean Danjou <jean.danjou@gmail.example>\n"
    "Date: Sat, Dec 5, 2026 at 9:00 AM\n"
    "Subject: orders\n"
    "To: <umpire@example.org>\n"
    "\n"
    "\n"
    "1-legion: hold; reload\n"
    "\n"
    "--000000000000778899aa\n"
    "Content-Type: text/html; charset=\"UTF-8\"\n"
    "\n"
    "<div dir=\"ltr\">---------- Forwarded message ---------<br>"
    "1-legion: hold; reload</div>\n"
    "\n"
    "--000000000000778899aa--\n";

/* forwarded twice, inline: the orders a Windows user's
 * "orders.yaml.txt" two messages down, the password in the outer body */
static const char m_nested_forward[] =
    HDR(MILAN, "ap2@example.org", "Fwd: Fwd: orders")
    "Content-Type: multipart/mixed; boundary=\"Apple-Mail=_OUTER\"\n"
    "\n"
    "--Apple-Mail=_OUTER\n"
    "Content-Type: text/plain; charset=us-ascii\n"
    "\n"
    "password: tequila\n"
    "Forwarding the orders my brother typed for me.\n"
    "\n"
    "--Apple-Mail=_OUTER\n"
    "Content-Type: message/rfc822\n"
    "Content-Disposition: inline\n"
    "\n"
    "From: Paco <paco@example.net>\n"
    "Subject: Fwd: orders\n"
    "MIME-Version: 1.0\n"
    "Content-Type: multipart/mixed; boundary=\"mid\"\n"
    "\n"
    "--mid\n"
    "Content-Type: text/plain\n"
    "\n"
    "see attached\n"
    "--mid\n"
    "Content-Type: message/rfc822\n"
    "\n"
    "From: Hermano <hermano@example.net>\n"
    "Subject: orders\n"
    "MIME-Version: 1.0\n"
    "Content-Type: multipart/mixed; boundary=\"in\"\n"
    "\n"
    "--in\n"
    "Content-Type: text/plain\n"
    "\n"
    "Here they are.\n"
    "--in\n"
    "Content-Type: text/plain; name=\"orders.yaml.txt\"\n"
    "Content-Disposition: attachment; filename=\"orders.yaml.txt\"\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: republic\n"
    "orders:\n"
    "  - unit: 2-militia\n"
    "    actions: [reload]\n"
    "--in--\n"
    "\n"
    "--mid--\n"
    "\n"
    "--Apple-Mail=_OUTER--\n";

/* the password in the mail's note, the orders in the body of the mail
 * forwarded (Thunderbird, "Forward As > Attachment") */
static const char m_forward_password[] =
    HDR(MILAN, "fw4@example.org", "Fwd: orders")
    "Content-Type: multipart/mixed;\n"
    " boundary=\"------------0aB1cD2eF3gH4iJ5kL6mN7oP\"\n"
    "\n"
    "This is a multi-part message in MIME format.\n"
    "--------------0aB1cD2eF3gH4iJ5kL6mN7oP\n"
    "Content-Type: text/plain; charset=UTF-8; format=flowed\n"
    "Content-Transfer-Encoding: 7bit\n"
    "\n"
    "password: tequila\n"
    "My orders, sent from my phone.\n"
    "\n"
    "--------------0aB1cD2eF3gH4iJ5kL6mN7oP\n"
    "Content-Type: message/rfc822; name=\"orders.eml\"\n"
    "Content-Disposition: attachment; filename=\"orders.eml\"\n"
    "\n"
    "From: Francisco Milan <paco@phone.example>\n"
    "Subject: orders\n"
    "Content-Type: text/plain; charset=utf-8\n"
    "\n"
    "2-militia: reload\n"
    "\n"
    "--------------0aB1cD2eF3gH4iJ5kL6mN7oP--\n";

/* last week's mail forwarded, with the password of then; the sender's
 * password now, in the note above it, is the one that counts */
static const char m_forward_old_password[] =
    HDR(MILAN, "fw5@example.org", "Fwd: orders")
    "Content-Type: multipart/mixed; boundary=\"g\"\n"
    "\n"
    "--g\n"
    "Content-Type: text/plain; charset=utf-8\n"
    "\n"
    "password: tequila\n"
    "The same orders as last week.\n"
    "--g\n"
    "Content-Type: message/rfc822\n"
    "\n"
    "From: Francisco Milan <milan@example.org>\n"
    "Subject: orders\n"
    "\n"
    "password: mezcal\n"
    "2-militia: reload\n"
    "--g--\n";

/* a player forwards another side's orders: the outer sender is who
 * sends them */
static const char m_forward_other[] =
    HDR(DANJOU, "fw3@example.org", "Fwd: orders")
    "Content-Type: multipart/mixed; boundary=\"f\"\n"
    "\n"
    "--f\n"
    "Content-Type: message/rfc822\n"
    "\n"
    "From: Francisco Milan <milan@example.org>\n"
    "Subject: orders\n"
    "\n"
    "side: republic\n"
    "2-militia: reload\n"
    "--f--\n";

/* mutt: the orders attached as orders.txt, a body that is a note */
static const char m_mutt_orders_txt[] =
    HDR(DANJOU, "mutt1@example.org", "orders")
    "User-Agent: Mutt/2.2.12 (2023-09-09)\n"
    "Content-Type: multipart/mixed; boundary=\"k1lZvvs/B4yU6o8G\"\n"
    "Content-Disposition: inline\n"
    "\n"
    "\n"
    "--k1lZvvs/B4yU6o8G\n"
    "Content-Type: text/plain; charset=us-ascii; format=flowed\n"
    "Content-Disposition: inline\n"
    "\n"
    "My orders are attached.\n"
    "\n"
    "--k1lZvvs/B4yU6o8G\n"
    "Content-Type: text/plain; charset=us-ascii\n"
    "Content-Disposition: attachment; filename=\"orders.txt\"\n"
    "\n"
    "1-legion: hold; reload\n"
    "\n"
    "--k1lZvvs/B4yU6o8G--\n";

/* Gmail: orders.json */
static const char m_gmail_json[] =
    HDR(DANJOU, "gm2@mail.gmail.com", "orders")
    "Content-Type: multipart/mixed; boundary=\"0000000000001122\"\n"
    "\n"
    "--0000000000001122\n"
    "Content-Type: text/plain; charset=\"UTF-8\"\n"
    "\n"
    "\n"
    "--0000000000001122\n"
    "Content-Type: application/json; name=\"orders.json\"\n"
    "Content-Disposition: attachment; filename=\"orders.json\"\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "eyJnYW1lIjogIlRlc3QgU2tpcm1pc2giLCAidHVybiI6IDMsICJzaWRlIjogImZy\n"
    "ZW5jaCIsCiAib3JkZXJzIjogW3sidW5pdCI6ICIxLWxlZ2lvbiIsICJhY3Rpb25z\n"
    "IjogWyJob2xkIiwgInJlbG9hZCJdfV19Cg==\n"
    "--0000000000001122--\n";

/* Outlook in Rich Text: a note in the text, the orders in winmail.dat */
static const char m_outlook_tnef[] =
    HDR(DANJOU, "ol1@example.org", "orders")
    "X-MS-Has-Attach: yes\n"
    "X-MS-TNEF-Correlator: <DB9PR01MB1234ABCD@DB9PR01MB.example.org>\n"
    "Content-Type: multipart/mixed; boundary=\"_000_DB9PR01MB1234_\"\n"
    "\n"
    "--_000_DB9PR01MB1234_\n"
    "Content-Type: text/plain; charset=\"us-ascii\"\n"
    "Content-Transfer-Encoding: quoted-printable\n"
    "\n"
    "Please find my orders attached.\n"
    "\n"
    "--_000_DB9PR01MB1234_\n"
    "Content-Type: application/ms-tnef; name=\"winmail.dat\"\n"
    "Content-Transfer-Encoding: base64\n"
    "Content-Disposition: attachment; filename=\"winmail.dat\"\n"
    "\n"
    "eJ8+IhIAAQaQCAAEAAAAAAABAAEAAQeQBgAIAAAA5AQAAAAAAADoAAEIgAcAGAAAAElQ\n"
    "--_000_DB9PR01MB1234_--\n";

/* Outlook, HTML: the orders in a Word file, a logo inline */
static const char m_outlook_docx[] =
    HDR(DANJOU, "ol2@example.org", "orders")
    "Content-Type: multipart/mixed; boundary=\"_004_mixed_\"\n"
    "\n"
    "--_004_mixed_\n"
    "Content-Type: multipart/related; boundary=\"_003_related_\";\n"
    "\ttype=\"text/html\"\n"
    "\n"
    "--_003_related_\n"
    "Content-Type: text/html; charset=\"us-ascii\"\n"
    "\n"
    "<html><body><p>Orders attached.</p><img src=\"cid:image001.png\">"
    "</body></html>\n"
    "--_003_related_\n"
    "Content-Type: image/png; name=\"image001.png\"\n"
    "Content-Disposition: inline; filename=\"image001.png\"\n"
    "Content-ID: <image001.png>\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "iVBORw0KGgo=\n"
    "--_003_related_--\n"
    "\n"
    "--_004_mixed_\n"
    "Content-Type: application/vnd.openxmlformats-officedocument."
    "wordprocessingml.document; name=\"orders.docx\"\n"
    "Content-Disposition: attachment; filename=\"orders.docx\"\n"
    "Content-Transfer-Encoding: base64\n"
    "\n"
    "UEsDBBQABgAIAAAAIQA=\n"
    "--_004_mixed_--\n";

static void
test_parse_clients(void **state)
{
	struct crown_mail	*m;

	(void)state;
	/* flowed: unflowed, the stuffing gone, the quotation one line */
	assert_int_equal(crown_mail_parse(&m, m_thunderbird_flowed,
	    strlen(m_thunderbird_flowed)), 0);
	assert_has(m->text, "orders:\n  - unit: 1-legion\n    actions: "
	    "[hold, reload]   # the legion holds the ridge above the village "
	    "and reloads before the cavalry comes\n\n");
	assert_has(m->text, "\n> Orders for turn 3 are due by "
	    "2026-12-05T18:00:00Z: change the form, `crown check` it and "
	    "send it back.\n\n-- \nJean Danjou\n");
	crown_mail_free(m);
	assert_int_equal(crown_mail_parse(&m, m_apple_delsp,
	    strlen(m_apple_delsp)), 0);
	assert_string_equal(m->text, "password: tequila\n2-militia: reload\n"
	    "3-cav: move 50,36 face 180\n");
	assert_true(m->html);
	assert_int_equal(m->nignored, 0);
	crown_mail_free(m);
	/* a forwarded message's body, apart from the mail's */
	assert_int_equal(crown_mail_parse(&m, m_gmail_forward,
	    strlen(m_gmail_forward)), 0);
	assert_has(m->text, "Sent from my other account");
	assert_int_equal(m->nforwarded, 1);
	assert_string_equal(m->forwarded[0].name, "orders");
	assert_string_equal(m->forwarded[0].data, "1-legion: hold; reload");
	assert_string_equal(m->from, "danjou@example.org");
	assert_int_equal(m->nignored, 0);
	crown_mail_free(m);
	/* two deep: each forwarded body, and the orders file in the inner */
	assert_int_equal(crown_mail_parse(&m, m_nested_forward,
	    strlen(m_nested_forward)), 0);
	assert_int_equal(m->nforwarded, 2);
	assert_string_equal(m->forwarded[0].data, "see attached");
	assert_string_equal(m->forwarded[1].data, "Here they are.");
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].name, "orders.yaml.txt");
	assert_has(m->yaml[0].data, "side: republic\n");
	assert_string_equal(m->from, "milan@example.org");
	crown_mail_free(m);
	/* a forwarded message without a subject (found by fuzzing) */
	assert_int_equal(crown_mail_parse(&m, "From: a@example.org\n"
	    "Content-Type: message/rfc822\n\nFrom: b@example.org\n\n"
	    "1-legion: hold\n", 86), 0);
	assert_int_equal(m->nforwarded, 1);
	assert_string_equal(m->forwarded[0].name, "");
	assert_string_equal(m->forwarded[0].data, "1-legion: hold\n");
	assert_null(m->text);
	crown_mail_free(m);
	/* by name: orders.txt, orders.json */
	assert_int_equal(crown_mail_parse(&m, m_mutt_orders_txt,
	    strlen(m_mutt_orders_txt)), 0);
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].data, "1-legion: hold; reload\n");
	crown_mail_free(m);
	assert_int_equal(crown_mail_parse(&m, m_gmail_json,
	    strlen(m_gmail_json)), 0);
	assert_int_equal(m->nyaml, 1);
	assert_string_equal(m->yaml[0].name, "orders.json");
	assert_has(m->yaml[0].data, "{\"game\": \"Test Skirmish\"");
	crown_mail_free(m);
	/* the parts not read, by name and type */
	assert_int_equal(crown_mail_parse(&m, m_outlook_tnef,
	    strlen(m_outlook_tnef)), 0);
	assert_int_equal(m->nyaml, 0);
	assert_int_equal(m->nignored, 1);
	assert_string_equal(m->ignored[0].name, "winmail.dat");
	assert_string_equal(m->ignored[0].type, "application/ms-tnef");
	crown_mail_free(m);
	assert_int_equal(crown_mail_parse(&m, m_outlook_docx,
	    strlen(m_outlook_docx)), 0);
	assert_null(m->text);
	assert_true(m->html);
	assert_int_equal(m->nignored, 2);
	assert_string_equal(m->ignored[0].name, "image001.png");
	assert_string_equal(m->ignored[1].name, "orders.docx");
	crown_mail_free(m);
}

/* The text of the outbox message answering Message-ID id, each problem
 * that the answer filled over several lines one line again. */
static char *
answer(const struct camp *c, const char *id)
{
	char	*r = reply(c, id), *t, *p, *q;

	assert_non_null(r);
	t = text_of(r);
	free(r);
	for (p = q = t; *p != '\0'; p++) {
		if (strncmp(p, "\n      ", 7) == 0 && p[7] != ' ' &&
		    p[7] != '|') {
			*q++ = ' ';
			p += 6;
			continue;
		}
		*q++ = *p;
	}
	*q = '\0';
	return t;
}

#define FRENCH_FILED							\
	"game: Test Skirmish\nturn: 3\nside: french\norders:\n"		\
	"- unit: 1-legion\n  actions:\n  - hold\n  - reload\n"

static void
test_inbox_clients(void **state)
{
	/* each mail read on its own, and what it filed */
	static const struct {
		const char	*mail, *side, *filed;
	} ok[] = {
		/* exactly the orders written, the wrapped comment and all */
		{ m_thunderbird_flowed, "french", FRENCH_FILED },
		{ m_apple_delsp, "republic", "game: Test Skirmish\nturn: 3\n"
		    "side: republic\norders:\n- unit: 2-militia\n  actions:\n"
		    "  - reload\n- unit: 3-cav\n  actions:\n"
		    "  - move: {to: [50.00, 36.00], face: 180}\n" },
		/* forwarded: the body of the mail attached, then the file
		 * two deep, the password beside them */
		{ m_gmail_forward, "french", FRENCH_FILED },
		{ m_gmail_forward_inline, "french", FRENCH_FILED },
		{ m_nested_forward, "republic", "game: Test Skirmish\n"
		    "turn: 3\nside: republic\norders:\n- unit: 2-militia\n"
		    "  actions:\n  - reload\n" },
		{ m_forward_password, "republic", "game: Test Skirmish\n"
		    "turn: 3\nside: republic\norders:\n- unit: 2-militia\n"
		    "  actions:\n  - reload\n" },
		{ m_forward_old_password, "republic", "game: Test Skirmish\n"
		    "turn: 3\nside: republic\norders:\n- unit: 2-militia\n"
		    "  actions:\n  - reload\n" },
		{ m_mutt_orders_txt, "french", FRENCH_FILED },
		{ m_gmail_json, "french", FRENCH_FILED },
	};
	struct camp	 c;
	char		*f, *t, name[8], *want;
	size_t		 i;

	(void)state;
	camp_make(&c, true);
	for (i = 0; i < CROWN_NELEM(ok); i++) {
		snprintf(name, sizeof(name), "%02zu", i);
		camp_mail(&c, name, ok[i].mail);
		assert_int_equal(inbox(&c, BEFORE), 0);
		want = xasprintf("new/%s: accepted: side %s", name,
		    ok[i].side);
		assert_has(c.out, want);
		free(want);
		want = xasprintf("orders/pending/%s.yaml", ok[i].side);
		f = camp_file(&c, want);
		assert_string_equal(f, ok[i].filed);
		free(f);
		free(want);
	}
	camp_free(&c);

	camp_make(&c, true);
	camp_mail(&c, "02", m_forward_other);
	camp_mail(&c, "03", m_outlook_tnef);
	camp_mail(&c, "04", m_outlook_docx);
	camp_mail(&c, "05", m_html_only);
	assert_int_equal(inbox(&c, BEFORE), 0);
	/* the outer sender sends what is forwarded */
	assert_has(c.out, "new/02: refused");
	t = answer(&c, "fw3@example.org");
	assert_has(t, "forwarded-message:1:7: error: 'danjou@example.org' "
	    "does not play side 'republic'");
	free(t);
	/* each part not read named, with what to do */
	t = answer(&c, "ol1@example.org");
	assert_has(t, "the attachment 'winmail.dat' (application/ms-tnef) "
	    "was not read: Outlook sent the mail as Rich Text");
	assert_has(t, "Format Text > Plain Text");
	free(t);
	t = answer(&c, "ol2@example.org");
	assert_has(t, "the mail has only HTML, no plain text");
	assert_has(t, "'image001.png' (image/png) was not read: a picture");
	assert_has(t, "'orders.docx' (application/vnd.openxmlformats-"
	    "officedocument.wordprocessingml.document) was not read: crown "
	    "reads only plain text");
	free(t);
	t = answer(&c, "m4@example.org");
	assert_has(t, "the mail has only HTML, no plain text");
	assert_lacks(t, "was not read");
	free(t);
	camp_free(&c);
}

/*
 * Issue 31: a side's own `seed:` (doc/formats.md, "Dice") travels by
 * mail: kept in the orders filed from a YAML body and from shorthand, so
 * it changes the side's rolls as the guide says.
 */
static const char m_seed_yaml[] =
    HDR(DANJOU, "seed1@example.org", "orders")
    "Content-Type: text/plain; charset=utf-8\n"
    "\n"
    "game: Test Skirmish\n"
    "turn: 3\n"
    "side: french\n"
    "seed: \"Camerone, 30 April\"\n"
    "orders:\n"
    "  - {unit: 1-legion, actions: [hold]}\n";

static const char m_seed_shorthand[] =
    HDR(MILAN, "seed2@example.org", "orders")
    "Content-Type: text/plain; charset=utf-8\n"
    "\n"
    "password: tequila\n"
    "seed: viva la republica 1862\n"
    "2-militia: reload\n";

static void
test_inbox_seed_kept(void **state)
{
	struct camp	 c;
	char		*f;

	(void)state;
	camp_make(&c, true);
	camp_mail(&c, "1", m_seed_yaml);
	camp_mail(&c, "2", m_seed_shorthand);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_has(c.out, "new/1: accepted: side french");
	assert_has(c.out, "new/2: accepted: side republic");
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_has(f, "\nseed: Camerone, 30 April\n");
	free(f);
	f = camp_file(&c, "orders/pending/republic.yaml");
	assert_has(f, "\nseed: viva la republica 1862\n");
	assert_lacks(f, "tequila");
	free(f);
	camp_free(&c);
}

/* Two mailboxes read by two runs: both are remembered, and the unread
 * mail of the first still counts (crown status) after the second run. */
static void
test_inbox_two_mailboxes(void **state)
{
	struct camp	 c;
	char		*other, *cmd, *f;

	(void)state;
	camp_make(&c, true);
	other = xasprintf("%s/other", c.dir);
	cmd = xasprintf("mkdir -p '%s/new' '%s/cur' '%s/tmp'", other, other,
	    other);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(inbox(&c, BEFORE), 0);
	assert_int_equal(run(&c, &crown_cmd_inbox, c.dir, other, "--now",
	    BEFORE, NULL), 0);
	f = camp_file(&c, "crown-maildir");
	assert_has(f, c.mail);
	assert_has(f, other);
	free(f);
	/* mail comes into the first: still counted */
	camp_mail(&c, "1", m_yaml_attachment);
	assert_int_equal(run(&c, &crown_cmd_status, c.dir, "--now", BEFORE,
	    NULL), 0);
	assert_has(c.out, "1 unread message");
	free(other);
	camp_free(&c);
}

/*
 * A correction delivered after the first orders stands, though the
 * umpire's mail program moved the first to cur/ (read) and left the
 * correction in new/: the Maildir is read in the order of delivery.
 */
static void
test_inbox_delivery_order(void **state)
{
	struct camp	 c;
	char		*f;

	(void)state;
	camp_make(&c, true);
	/* 10:00 and 11:00 on the day of BEFORE: both french orders */
	camp_mail_at(&c, "cur", "1796464800.M1P1.host:2,S",
	    m_yaml_attachment, 1796464800LL);
	camp_mail_at(&c, "new", "1796468400.M2P2.host", m_seed_yaml,
	    1796468400LL);
	assert_int_equal(inbox(&c, BEFORE), 0);
	f = camp_file(&c, "orders/pending/french.yaml");
	assert_has(f, "seed: Camerone, 30 April\n");
	free(f);
	camp_free(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hashes_and_passwords),
		cmocka_unit_test(test_parse_attachments),
		cmocka_unit_test(test_parse_text),
		cmocka_unit_test(test_parse_refuses),
		cmocka_unit_test(test_build_and_deliver),
		cmocka_unit_test(test_read_sources),
		cmocka_unit_test(test_state_keys),
		cmocka_unit_test(test_turn_reports),
		cmocka_unit_test(test_inbox_accepts),
		cmocka_unit_test(test_inbox_prose_and_places),
		cmocka_unit_test(test_inbox_latest_wins),
		cmocka_unit_test(test_inbox_refusals),
		cmocka_unit_test(test_inbox_oversize_edge),
		cmocka_unit_test(test_inbox_deadline_edge),
		cmocka_unit_test(test_inbox_delivery_time),
		cmocka_unit_test(test_inbox_mbox_and_no_deadline),
		cmocka_unit_test(test_inbox_passwords_and_empty),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_inbox_nul_body),
		cmocka_unit_test(test_inbox_subject_controls),
		cmocka_unit_test(test_inbox_automatic),
		cmocka_unit_test(test_inbox_max_answers),
		cmocka_unit_test(test_inbox_strangers),
		cmocka_unit_test(test_parse_nesting),
		cmocka_unit_test(test_inbox_after_killed_turn),
		cmocka_unit_test(test_inbox_played_turn),
		cmocka_unit_test(test_inbox_streams),
		cmocka_unit_test(test_inbox_many_read),
		cmocka_unit_test(test_inbox_openpgp),
		cmocka_unit_test(test_inbox_replays),
		cmocka_unit_test(test_unflow),
		cmocka_unit_test(test_parse_clients),
		cmocka_unit_test(test_inbox_clients),
		cmocka_unit_test(test_inbox_seed_kept),
		cmocka_unit_test(test_inbox_two_mailboxes),
		cmocka_unit_test(test_inbox_delivery_order),
	};

	return cmocka_run_group_tests_name("mail", tests, NULL, NULL);
}
