/*
 * test-reader.c: the one reader of orders (orders-read.h), at every door.
 * Each file of tests/data/reader/ (YAML, shorthand, JSON, with a
 * password line, quotations and the attribution line above them in
 * three languages, a signature, a byte-order mark, CRLF, and broken
 * ones) is given to crown check, crown turn FILE --dry-run, crown
 * resolve --orders, crown rerun --orders, and to crown inbox as an
 * attachment and as a mail's text (base64, so the bytes arrive as they
 * are), and to crown check --mail; every door must give the same
 * verdict (accepted for the files named ok-*, refused for bad-*) and
 * the same problems, at the same places (shorthand without a side line
 * aside: a mail has the sender's).  And the reader itself: what
 * it skips, where the problems are put, and what a turn keeps.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/cmd.h"
#include "crown/orders-read.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define CORPUS	"tests/data/reader"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	"tests/data/campaign/secret.hex"
#define NOW	"2026-03-05T12:00:00Z"

/* check, turn, resolve and rerun come first in test_corpus's doors */
#define FILE_DOORS	4

static char	base[] = "/tmp/crown-reader-XXXXXX";

/*
 * What every door says of some files of the corpus: the cause a player
 * can act on, at the line of the player's text (quotations, a password
 * and a signature skipped, every line where it was), and that line
 * quoted under it with a caret.
 */
static const struct {
	const char	*file;
	const char	*says;
} says[] = {
	{ "bad-yaml-tab.yaml", "F:6:1: error: YAML syntax: a tab indents this "
	    "line: use spaces, not tabs, to indent\n"
	    "    6 |         actions: [hold]\n"
	    "      | ^\n" },
	{ "bad-yaml-tab-quoted.yaml", "F:10:1: error: YAML syntax: a tab "
	    "indents this line: use spaces, not tabs, to indent\n"
	    "    10 |         - unit: 1-legion\n"
	    "       | ^\n" },
	{ "bad-yaml-nbsp-indent.yaml", "F:5:1: error: this line is indented "
	    "with non-breaking spaces (U+00A0), not plain ones: your mail "
	    "program put it there; send the orders as plain text (not rich "
	    "text or HTML), or attach them as a file\n"
	    "    5 | \xc2\xa0 - unit: 1-legion\n"
	    "      | ^\n"
	    "F:6:1: error: this line is indented with non-breaking" },
	{ "bad-yaml-nbsp-colon.yaml", "F:3:5: error: a non-breaking space "
	    "(U+202F) here, where a plain space belongs: your mail program "
	    "put it there" },
	{ "bad-yaml-nbsp-colon.yaml", "F:8:21: error: a non-breaking space "
	    "(U+00A0) here" },
	{ "bad-yaml-utf16le-bom.yaml", "F:1:1: error: the text is in UTF-16 "
	    "(little-endian), not UTF-8: save the file as UTF-8 (in the "
	    "editor's 'Save as', the encoding UTF-8) and send it again\n" },
	{ "bad-yaml-utf16be.yaml", "F:1:1: error: the text is in UTF-16 "
	    "(big-endian), not UTF-8" },
	{ "bad-shorthand-utf16le.txt", "F:1:1: error: the text is in UTF-16 "
	    "(little-endian), not UTF-8" },
	{ "bad-yaml-missing-colon.yaml", "F:7:3: error: YAML syntax: this "
	    "line is neither 'key: value' nor '- item': a ':' is missing, here or "
	    "at the end of the line above\n"
	    "    7 |   - unit gun-1\n"
	    "      |   ^\n" },
	{ "bad-yaml-second-colon.yaml", "F:1:20: error: YAML syntax: a ':' "
	    "where no key can begin: a second ': ' on one line (put the text "
	    "in quotes)" },
	{ "bad-yaml-latin1.yaml", "F:4:17: error: text is not UTF-8: the byte "
	    "0xE9 here is no UTF-8 character (Latin-1 or Windows-1252 text?): "
	    "save the file as UTF-8 (in the editor's 'Save as', the encoding "
	    "UTF-8)\n"
	    "    4 | # ordres de la l?gion\n"
	    "      |                 ^\n" },
	{ "bad-shorthand-nbsp.txt", "F:2:10: error: a non-breaking space "
	    "(U+00A0) here" },
	{ "bad-shorthand-nbsp.txt", "F:3:12: error: a non-breaking space "
	    "(U+00A0) here" },
	{ "bad-shorthand.txt", "F:4:8: error: unknown action 'dance'" },
	{ "bad-shorthand.txt", "(R3.4)\n    4 | gun-1: dance 3\n"
	    "      |        ^\n" },
	{ "bad-yaml-syntax.yaml", "F:1:7: error: YAML syntax: the list opened "
	    "with '[' here is not closed" },
};

/* The seam: fsync() counted, and failed (EIO) while fail_fsync. */
static unsigned long	nfsync;
static bool		fail_fsync;

int
fsync(int fd)
{
	static int	(*real)(int);

	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fsync");
	nfsync++;
	if (fail_fsync) {
		errno = EIO;
		return -1;
	}
	return real(fd);
}

static char *
path(const char *name)
{
	return xasprintf("%s/%s", base, name);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is p (a line, indent spaces in) the quotation under a problem:
 * "    3 | text" or "      |   ^"? */
static bool
quotation(const char *p, const char *e, size_t indent)
{
	const char	*bar;

	if ((size_t)(e - p) < indent + 6 || strncmp(p, "          ",
	    indent + 4) != 0)
		return false;
	bar = p + indent + 4 + strspn(p + indent + 4, "0123456789 ");
	return bar < e && bar[0] == '|' && bar[-1] == ' ';
}

/*
 * The problems in text: the lines that begin with prefix (after indent
 * spaces), the name replaced by "F", each with the quotation of its line
 * under it, sorted (crown inbox sorts them by place, the other doors say
 * them as found), a line each.
 */
static char *
problems(const char *text, const char *prefix, size_t indent)
{
	struct crown_buf	  b = { 0 };
	char			**v = NULL, *line;
	const char		 *p, *e;
	size_t			  n = 0, cap = 0, i, k = strlen(prefix);
	bool			  under = false;	/* a problem's
							 * lines */

	crown_buf_puts(&b, "");
	for (p = text != NULL ? text : ""; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if (under && quotation(p, e, indent)) {
			line = xasprintf("%s\n%.*s", v[n - 1],
			    (int)(e - p - (ptrdiff_t)indent), p + indent);
			free(v[n - 1]);
			v[n - 1] = line;
			continue;
		}
		under = false;
		if ((size_t)(e - p) < indent + k ||
		    strncmp(p, "        ", indent) != 0 ||
		    strncmp(p + indent, prefix, k) != 0 ||
		    (p[indent + k] != ':' && p[indent + k] != ' '))
			continue;
		under = true;
		line = xasprintf("F%.*s", (int)(e - p - (ptrdiff_t)(indent +
		    k)), p + indent + k);
		crown_grow(&v, &cap, n + 1, sizeof(*v));
		v[n++] = line;
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		crown_buf_printf(&b, "%s\n", v[i]);
		free(v[i]);
	}
	free(v);
	return b.data;
}

/* The bytes of a file of the corpus (NUL bytes and all), and their
 * length. */
static char *
slurp(const char *f, size_t *len)
{
	struct crown_diags	 d = { 0 };
	char			*text;

	assert_int_equal(crown_read_file(&text, len, f, 0, &d), 0);
	crown_diags_release(&d);
	return text;
}

static void
base64(struct crown_buf *b, const char *data, size_t len)
{
	static const char	 abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*s = (const unsigned char *)data;
	size_t			 i, col = 0;
	unsigned		 v;

	for (i = 0; i < len; i += 3) {
		v = (unsigned)s[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		crown_buf_printf(b, "%c%c%c%c", abc[v >> 18 & 63],
		    abc[v >> 12 & 63], i + 1 < len ? abc[v >> 6 & 63] : '=',
		    i + 2 < len ? abc[v & 63] : '=');
		if ((col += 4) >= 72) {
			crown_buf_puts(b, "\n");
			col = 0;
		}
	}
	crown_buf_puts(b, "\n");
}

/*
 * data as a client writes format=flowed (RFC 3676, DelSp=no): each line
 * without the spaces that end it (but the signature separator), broken
 * after a space at FLOW_WIDTH columns, space-stuffed when it begins
 * with a space or "From " (or a '>' it does not quote with: a quoted
 * line keeps its '>' as its depth, and is not broken).  Unflowed, it
 * is data but for those spaces.
 */
#define FLOW_WIDTH	30
static void
flow(struct crown_buf *b, const char *data, size_t len)
{
	const char	*nl;
	size_t		 i, e, k, cut, start;

	for (i = 0; i < len; i = e < len ? e + 1 : len) {
		nl = memchr(data + i, '\n', len - i);
		e = nl != NULL ? (size_t)(nl - data) : len;
		k = e;
		if (k - i != 3 || memcmp(data + i, "-- ", 3) != 0)
			while (k > i && data[k - 1] == ' ')
				k--;
		for (start = i; i < k; ) {
			cut = k;
			if (data[i] != '>' && k - i > FLOW_WIDTH)
				for (cut = i + FLOW_WIDTH; cut > i + 1 &&
				    data[cut - 1] != ' '; cut--)
					;
			if (cut == i + 1)
				cut = k;
			if (data[i] == ' ' || (data[i] == '>' && i > start) ||
			    (k - i >= 5 && memcmp(data + i, "From ", 5) == 0))
				crown_buf_puts(b, " ");
			crown_buf_add(b, data + i, cut - i);
			if (cut < k)
				crown_buf_puts(b, "\n");
			i = cut;
		}
		if (e < len)
			crown_buf_puts(b, "\n");
	}
}

/* A mail from the French player with data as its text (format=flowed
 * when flowed), or attached as orders.yaml. */
static char *
mail_as(const char *data, size_t len, bool attached, bool flowed,
    unsigned id)
{
	struct crown_buf	b = { 0 }, f = { 0 };

	crown_buf_printf(&b, "From: Jean Danjou <danjou@example.org>\n"
	    "To: Test Umpire <umpire@example.org>\nSubject: orders\n"
	    "Date: Thu, 05 Mar 2026 11:00:00 +0000\n"
	    "Message-ID: <reader-%u@example.org>\nMIME-Version: 1.0\n", id);
	if (attached)
		crown_buf_puts(&b, "Content-Type: multipart/mixed; "
		    "boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n"
		    "My orders.\n--b\nContent-Type: application/octet-stream; "
		    "name=\"orders.yaml\"\nContent-Disposition: attachment; "
		    "filename=\"orders.yaml\"\n"
		    "Content-Transfer-Encoding: base64\n\n");
	else
		crown_buf_printf(&b, "Content-Type: text/plain; "
		    "charset=utf-8%s\nContent-Transfer-Encoding: base64\n\n",
		    flowed ? "; format=flowed" : "");
	if (flowed) {
		crown_buf_puts(&f, "");
		flow(&f, data, len);
		base64(&b, f.data, f.len);
		crown_buf_release(&f);
	} else
		base64(&b, data, len);
	if (attached)
		crown_buf_puts(&b, "--b--\n");
	return b.data;
}

static char *
mail(const char *data, size_t len, bool attached, unsigned id)
{
	return mail_as(data, len, attached, false, id);
}

static void
put(const char *p, const char *data, size_t len)
{
	FILE	*fp = fopen(p, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
}

/* What one door said of one file. */
struct door {
	const char	*name;
	bool		 accepted;
	char		*problems;
};

static void
same(const char *file, const struct door *want, const struct door *got)
{
	if (want->accepted != got->accepted ||
	    strcmp(want->problems, got->problems) != 0) {
		print_error("%s: %s %s with\n%s\nbut %s %s with\n%s\n", file,
		    want->name, want->accepted ? "accepts" : "refuses",
		    want->problems, got->name, got->accepted ? "accepts" :
		    "refuses", got->problems);
		fail();
	}
}

/* crown inbox on a Maildir holding one message: its verdict and the
 * problems it answers with. */
static void
inbox(struct door *out, const char *camp, const char *msg, unsigned id,
    const char *name)
{
	struct run	 r;
	char		*box, *p;

	p = xasprintf("mail-%u", id);
	box = path(p);
	free(p);
	assert_int_equal(mkdir(box, 0755), 0);
	p = xasprintf("%s/new", box);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/new/1", box);
	put(p, msg, strlen(msg));
	free(p);
	/* every message of the corpus answered: the limit of answers is
	 * a turn's, and the corpus is one turn's mail from one player */
	RUN(&r, crown_cmd_inbox, camp, box, "--now", NOW, "--max-answers",
	    "1000000");
	assert_int_equal(r.status, 0);
	out->accepted = strstr(r.out, "new/1: accepted:") != NULL;
	if (!out->accepted)
		assert_has(r.out, "new/1: refused, answered to");
	out->problems = problems(r.out, name, 2);
	run_release(&r);
	free(box);
}

static void
test_corpus(void **state)
{
	struct door	 d[8];
	struct run	 r;
	struct dirent	*de;
	DIR		*dp;
	char		**files = NULL, *a, *b, *f, *text, *msg, *out, *eml;
	size_t		 nfiles = 0, cap = 0, i, k, len, nd;
	unsigned	 id = 0;

	(void)state;
	a = path("a");
	b = path("b");
	out = path("out");
	/* a for check, turn, resolve and the inbox; b has played turn 1
	 * (no orders), for a rerun of it from the same start */
	EXPECT(0, crown_cmd_new, a, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_new, b, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, b, "--allow-missing", "--templates", TMPL,
	    "--date", "2026-03-08");
	for (k = 0; k < CROWN_NELEM(says); k++) {
		f = xasprintf("%s/%s", CORPUS, says[k].file);
		assert_int_equal(access(f, R_OK), 0);
		free(f);
	}
	assert_non_null(dp = opendir(CORPUS));
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		crown_grow(&files, &cap, nfiles + 1, sizeof(*files));
		files[nfiles++] = xasprintf("%s/%s", CORPUS, de->d_name);
	}
	closedir(dp);
	qsort(files, nfiles, sizeof(*files), cmp_str);
	assert_true(nfiles >= 20);
	for (i = 0; i < nfiles; i++) {
		f = files[i];
		text = slurp(f, &len);
		nd = 0;

		RUN(&r, crown_cmd_check, a, f);
		d[nd].name = "check";
		d[nd].accepted = r.status == 0;
		d[nd++].problems = problems(r.err, f, 0);
		if (!d[0].accepted)
			assert_int_equal(r.status, 65);
		run_release(&r);

		RUN(&r, crown_cmd_turn, a, f, "--dry-run", "--allow-missing",
		    "--templates", TMPL);
		d[nd].name = "turn --dry-run";
		d[nd].accepted = r.status == 0;
		d[nd++].problems = problems(r.err, f, 0);
		run_release(&r);

		RUN(&r, crown_cmd_resolve, "--state", SCEN, "--rules", RULES,
		    "--orders", f, "--secret-file", SECRET, "--out", out,
		    "--templates", TMPL);
		d[nd].name = "resolve --orders";
		d[nd].accepted = r.status == 0;
		d[nd++].problems = problems(r.err, f, 0);
		run_release(&r);

		RUN(&r, crown_cmd_rerun, b, "1", "--orders", f, "--reason",
		    "the corpus", "--templates", TMPL, "--date", "2026-03-09");
		d[nd].name = "rerun --orders";
		d[nd].accepted = r.status == 0;
		d[nd++].problems = problems(r.err, f, 0);
		run_release(&r);

		msg = mail(text, len, true, ++id);
		d[nd].name = "inbox (attached)";
		inbox(&d[nd++], a, msg, id, "orders.yaml");
		free(msg);
		msg = mail(text, len, false, ++id);
		d[nd].name = "inbox (text)";
		inbox(&d[nd++], a, msg, id, "message");
		free(msg);
		msg = mail_as(text, len, false, true, ++id);
		d[nd].name = "inbox (text, format=flowed)";
		inbox(&d[nd++], a, msg, id, "message");
		free(msg);

		/* crown check --mail: the inbox's verdict, nothing filed */
		eml = path("one.eml");
		msg = mail(text, len, false, ++id);
		put(eml, msg, strlen(msg));
		RUN(&r, crown_cmd_check, a, "--mail", eml, "--now", NOW);
		d[nd].name = "check --mail";
		d[nd].accepted = r.status == 0;
		d[nd++].problems = problems(r.out, "message", 2);
		assert_has(r.out, d[nd - 1].accepted ? ": accepted: side "
		    "french" : ": refused, answered to danjou@example.org");
		run_release(&r);
		free(msg);
		free(eml);
		free(text);

		assert_int_equal(d[0].accepted, strncmp(f + strlen(CORPUS),
		    "/ok-", 4) == 0);
		for (k = 0; k < CROWN_NELEM(says); k++)
			if (strcmp(f + strlen(CORPUS) + 1, says[k].file) == 0)
				assert_has(d[0].problems, says[k].says);
		/* the doors that read files (check, turn, resolve, rerun)
		 * agree, and so do the mail's; and the mail's with the
		 * files', but for shorthand without a side line, whose side
		 * in a mail is the sender's */
		for (k = 1; k < nd; k++)
			same(f, &d[k < FILE_DOORS ? 0 : FILE_DOORS], &d[k]);
		if (strstr(f, "no-side") == NULL)
			same(f, &d[0], &d[FILE_DOORS]);
		else
			assert_true(d[FILE_DOORS].accepted);
		/* a refusal says why; the prose skipped is said too */
		if (!d[0].accepted)
			assert_has(d[0].problems, "F:");
		if (strstr(f, "everything") != NULL)
			assert_has(d[0].problems, "F:1:1: warning: skipped "
			    "'Revised orders:'");
		for (k = 0; k < nd; k++)
			free(d[k].problems);
	}
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	free(out);
	free(b);
	free(a);
}

/* The reader itself: what it skips, in place. */
static void
test_text(void **state)
{
	static const char	 mailed[] =
	    "\xef\xbb\xbfside: french\r\n"
	    "  PASSWORD : 'two words'\r\n"
	    "password: second\n"
	    "1-legion: hold\n"
	    "\n"
	    "On Sun, 15 Mar 2026 at 18:00, crown <crown@example.org> wrote:\n"
	    "\n"
	    "> quoted: 1\n"
	    ">\n"
	    "I wrote: not above a quotation\n"
	    "-- \n"
	    "> signature\n";
	struct crown_orders_read	 r;
	const char			*p;

	(void)state;
	crown_orders_read_text(&r, mailed, sizeof(mailed) - 1);
	assert_false(r.plain);
	assert_false(r.yaml);
	assert_string_equal(r.password, "two words");
	/* the signature cut, every other byte where it was */
	p = strstr(mailed, "-- \n");
	assert_int_equal(r.len, (size_t)(p - mailed));
	assert_memory_equal(r.text, mailed, 3 + 14);
	assert_null(strstr(r.text, "PASSWORD"));
	assert_null(strstr(r.text, "second"));
	assert_null(strstr(r.text, "crown@example.org"));
	assert_null(strstr(r.text, "quoted"));
	assert_non_null(strstr(r.text, "1-legion: hold\n"));
	assert_non_null(strstr(r.text, "I wrote: not above a quotation\n"));
	assert_int_equal(strchr(r.text, '1') - r.text,
	    strstr(mailed, "1-legion") - mailed);
	crown_orders_read_release(&r);

	/* an orders file as it is */
	crown_orders_read_text(&r, "game: g\r\norders: []\r\n", 22);
	assert_true(r.plain);
	assert_true(r.yaml);
	assert_null(r.password);
	crown_orders_read_release(&r);
	/* JSON and YAML's flow style are YAML */
	crown_orders_read_text(&r, "{\"game\": \"g\"}", 13);
	assert_true(r.yaml);
	crown_orders_read_release(&r);
}

/* A turn keeps a mailed file as its canonical orders file: no password
 * in the history, and verify replays it. */
/* A message forwarded in the text: its line and its header lines
 * skipped in place, its text read; a line like it with no header below
 * it, or a header line with no such line above, stays. */
static void
test_forwarded_text(void **state)
{
	static const char	 fwd[] =
	    "see below\n"
	    "---------- Forwarded message ---------\n"
	    "From: Jean Danjou <jean@other.example>\n"
	    "Date: Sun, Mar 15, 2026 at 9:00 AM\n"
	    "Subject: orders\n"
	    "To: <crown@example.org>,\n"
	    "  <umpire@example.org>\n"
	    "\n"
	    "1-legion: hold\n";
	static const char	 fr[] =
	    "-------- Message transf\xc3\xa9r\xc3\xa9 --------\n"
	    "Objet\xc2\xa0: \tordres\n"
	    "De\xc2\xa0: \tJean <jean@other.example>\n"
	    "\n"
	    "1-legion: hold\n";
	static const char	 kept[] =
	    "__________\n"
	    "1-legion: hold\n"
	    "From: the ridge\n";
	/* Outlook: the mail answered, unquoted below the reply, is cut as a
	 * signature is; with only a password above, it is a forward */
	static const char	 reply[] =
	    "1-legion: hold\n"
	    "\n"
	    "-----Original Message-----\n"
	    "From: crown <crown@example.org>\n"
	    "Sent: Sunday, March 15, 2026 6:00 PM\n"
	    "\n"
	    "  gun-1: dance\n";
	static const char	 pw_fwd[] =
	    "password: tequila\n"
	    "-----Original Message-----\n"
	    "From: Jean <jean@other.example>\n"
	    "\n"
	    "1-legion: hold\n";
	struct crown_orders_read	 r;
	const char			*p;

	(void)state;
	crown_orders_read_text(&r, reply, sizeof(reply) - 1);
	assert_int_equal(r.len, strstr(reply, "-----") - reply);
	assert_string_equal(r.text, "1-legion: hold\n\n");
	crown_orders_read_release(&r);
	crown_orders_read_text(&r, pw_fwd, sizeof(pw_fwd) - 1);
	assert_int_equal(r.len, sizeof(pw_fwd) - 1);
	assert_string_equal(r.password, "tequila");
	assert_null(strstr(r.text, "jean@"));
	assert_non_null(strstr(r.text, "\n1-legion: hold\n"));
	crown_orders_read_release(&r);
	crown_orders_read_text(&r, fwd, sizeof(fwd) - 1);
	assert_int_equal(r.len, sizeof(fwd) - 1);
	assert_false(r.plain);
	p = strstr(fwd, "1-legion");
	assert_memory_equal(r.text, "see below\n", 10);
	assert_string_equal(r.text + (p - fwd), "1-legion: hold\n");
	assert_null(strstr(r.text, "Forwarded"));
	assert_null(strstr(r.text, "example.org"));
	assert_null(strstr(r.text, "Subject"));
	crown_orders_read_release(&r);
	crown_orders_read_text(&r, fr, sizeof(fr) - 1);
	assert_null(strstr(r.text, "Objet"));
	assert_null(strstr(r.text, "jean@"));
	assert_non_null(strstr(r.text, "\n1-legion: hold\n"));
	crown_orders_read_release(&r);
	crown_orders_read_text(&r, kept, sizeof(kept) - 1);
	assert_true(r.plain);
	assert_string_equal(r.text, kept);
	crown_orders_read_release(&r);
}

static void
test_turn_keeps(void **state)
{
	char	*c, *f;

	(void)state;
	c = path("kept");
	EXPECT(0, crown_cmd_new, c, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, c, CORPUS "/ok-shorthand-everything.txt",
	    "--allow-missing", "--templates", TMPL, "--date", "2026-03-08");
	EXPECT(0, crown_cmd_verify, c, "--templates", TMPL);
	f = xasprintf("%s/orders/turn-001/french.yaml", c);
	free(c);
	c = tu_slurp(f);
	assert_non_null(c);
	assert_null(strstr(c, "tequila"));
	assert_has(c, "game: Test Campaign\nturn: 1\nside: french\n");
	free(c);
	free(f);
}

/* A fresh campaign c, and the Maildir box with n mails of the French
 * player's orders, each another (gun-1 moves to 20,20+i). */
static void
campaign_and_mail(const char *c, const char *box, unsigned n, unsigned id)
{
	char		*p, *text, *msg;
	unsigned	 i;

	EXPECT(0, crown_cmd_new, c, "--templates", TMPL, "--scenario", SCEN,
	    "--rules", RULES, "--secret-file", SECRET, "--date",
	    "2026-03-01T10:00:00+01:00");
	assert_int_equal(mkdir(box, 0755), 0);
	p = xasprintf("%s/new", box);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	for (i = 0; i < n; i++) {
		text = xasprintf("side: french\n1-legion: hold\ngun-1: move "
		    "20,%u\n", 20 + i);
		msg = mail(text, strlen(text), false, id + i);
		p = xasprintf("%s/new/%04u", box, i);
		put(p, msg, strlen(msg));
		free(p);
		free(msg);
		free(text);
	}
}

/*
 * crown inbox syncs each file it changes once a run, however many mails
 * change it, and its log once: n accepted mails cost n answers' syncs
 * and a few more, not five each.
 */
static void
test_inbox_syncs(void **state)
{
	struct run	 r;
	char		*c, *box, *p, *text;
	unsigned	 n = 40;
	unsigned long	 before;

	(void)state;
	c = path("syncs");
	box = path("syncs-mail");
	campaign_and_mail(c, box, n, 1000);
	before = nfsync;
	RUN(&r, crown_cmd_inbox, c, box, "--now", NOW, "--max-answers",
	    "1000");
	assert_int_equal(r.status, 0);
	assert_has(r.out, "40 messages: 40 accepted");
	run_release(&r);
	/* an answer each; the orders and their proof, their folder, the
	 * count of answers, the outbox's folder, the log and the mailboxes
	 * read once */
	assert_true(nfsync - before <= n + 7);
	assert_true(nfsync - before >= n + 1);
	/* the last mail's orders are filed */
	p = xasprintf("%s/orders/pending/french.yaml", c);
	text = tu_slurp(p);
	assert_has(text, "to: [20.00, 59.00]");
	free(text);
	free(p);
	free(box);
	free(c);
}

static size_t
count(const char *dir)
{
	struct dirent	*de;
	DIR		*dp;
	size_t		 n = 0;

	if ((dp = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(dp)) != NULL)
		n += de->d_name[0] != '.';
	closedir(dp);
	return n;
}

/*
 * A mail is answered only once the orders it filed are on disk: when
 * they cannot be synced, no answer reaches the outbox and the log does
 * not take the mail, which the next run reads again.
 */
static void
test_inbox_answers_after_filing(void **state)
{
	struct run	 r;
	char		*c, *box, *p, *text, *outbox;
	size_t		 before;

	(void)state;
	c = path("durable");
	box = path("durable-mail");
	campaign_and_mail(c, box, 3, 2000);
	/* crown new mailed the players their turn-0 reports */
	outbox = xasprintf("%s/outbox/new", c);
	before = count(outbox);
	fail_fsync = true;
	RUN(&r, crown_cmd_inbox, c, box, "--now", NOW);
	fail_fsync = false;
	assert_int_equal(r.status, 73);
	assert_has(r.err, "orders/pending/french.yaml: error: cannot write");
	run_release(&r);
	assert_int_equal(count(outbox), before);
	p = xasprintf("%s/orders/inbox.log", c);
	text = tu_slurp(p);
	assert_true(text == NULL || *text == '\0');
	free(text);
	free(p);
	/* read again: filed, then answered */
	RUN(&r, crown_cmd_inbox, c, box, "--now", NOW);
	assert_int_equal(r.status, 0);
	assert_has(r.out, "3 messages: 3 accepted, 0 late, 0 refused, 0 "
	    "already read");
	run_release(&r);
	assert_int_equal(count(outbox), before + 3);
	free(outbox);
	free(box);
	free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_forwarded_text),
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_turn_keeps),
		cmocka_unit_test(test_inbox_syncs),
		cmocka_unit_test(test_inbox_answers_after_filing),
	};
	char	*rm;
	int	 status;

	if (mkdtemp(base) == NULL)
		return 1;
	status = cmocka_run_group_tests(tests, NULL, NULL);
	rm = xasprintf("rm -rf '%s'", base);
	if (system(rm) != 0)
		status = 1;
	free(rm);
	return status;
}
