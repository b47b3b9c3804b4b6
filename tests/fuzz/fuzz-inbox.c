/*
 * fuzz-inbox.c: libFuzzer target for the whole inbox path (cmd-inbox.c
 * and mail.c): one raw message, in a Maildir, read by `crown inbox`
 * against a fixed campaign: parsed (GMime), its sender identified, its
 * orders extracted and checked, filed or refused, and answered.
 *
 * The campaign is a directory built once (tests/data/state-small.yaml,
 * milan with the password "tequila", a deadline, the rules), not a
 * repository, so no input costs a git write, and loaded once (its state
 * and rules, as crown inbox loads them, crown_cmd_mail_campaign); each
 * input is one run of the inbox on it, as crown inbox runs it
 * (crown_inbox_open, _read, _summary, _close).  It lives in /dev/shm
 * when there is one, where a sync costs nothing.  What a run writes
 * (the log, orders/, outbox/) is removed before the next.  Besides
 * crashes, leaks and UB: the run succeeds (a refused mail is an answer,
 * not a failure), at most one answer is written, and only to a player
 * of the roster, and its text has no control characters.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static char			 fuzz_inbox_dir[64];
static bool			 fuzz_inbox_ready;
static struct crown_state	*fuzz_inbox_state;
static struct crown_rules	*fuzz_inbox_rules;

static void
fuzz_inbox_put(const char *path, const void *data, size_t len)
{
	int	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		crown_fuzz_fail("cannot write the campaign", NULL);
	close(fd);
}

/* A fixture of the source tree, with `from` replaced by `to` (if given). */
static void
fuzz_inbox_copy(const char *rel, const char *name, const char *from,
    const char *to)
{
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	char			*src, *dst, *text, *at;
	size_t			 len;

	src = crown_fuzz_path(rel);
	if (crown_read_file(&text, &len, src, 0, &d) != 0)
		crown_fuzz_fail("cannot read a fixture", &d);
	crown_buf_puts(&b, "");
	if (from != NULL && (at = strstr(text, from)) != NULL) {
		crown_buf_add(&b, text, (size_t)(at - text));
		crown_buf_puts(&b, to);
		crown_buf_puts(&b, at + strlen(from));
	} else
		crown_buf_add(&b, text, len);
	dst = xasprintf("%s/%s", fuzz_inbox_dir, name);
	fuzz_inbox_put(dst, b.data, b.len);
	free(dst);
	free(text);
	free(src);
	crown_buf_release(&b);
}

/* The campaign goes with the process. */
static void
fuzz_inbox_cleanup(void)
{
	crown_rules_free(fuzz_inbox_rules);
	crown_state_free(fuzz_inbox_state);
	crown_campaign_remove_tree(fuzz_inbox_dir, false);
}

static void
fuzz_inbox_setup(void)
{
	char	*p, hex[CROWN_SHA256_HEX], *to;

	struct crown_diags	 d = { 0 };
	struct crown_history	*h = NULL;
	struct stat		 st;

	if (fuzz_inbox_ready)
		return;
	snprintf(fuzz_inbox_dir, sizeof(fuzz_inbox_dir),
	    "%s/crown-fuzz-inbox-XXXXXX", stat("/dev/shm", &st) == 0 &&
	    S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0 ?
	    "/dev/shm" : "/tmp");
	if (mkdtemp(fuzz_inbox_dir) == NULL)
		crown_fuzz_fail("cannot make the campaign", NULL);
	crown_mail_sha256_hex(hex, "tequila", 7);
	to = xasprintf("email: \"milan@example.org\", password_sha256: \"%s\"",
	    hex);
	fuzz_inbox_copy("tests/data/state-small.yaml", "state.yaml",
	    "email: \"milan@example.org\"", to);
	free(to);
	fuzz_inbox_copy("rules/maximilian.yaml", "rules.yaml", NULL, NULL);
	p = xasprintf("%s/mail", fuzz_inbox_dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/mail/new", fuzz_inbox_dir);
	mkdir(p, 0755);
	free(p);
	if (crown_cmd_mail_campaign(&fuzz_inbox_state, &fuzz_inbox_rules, &h,
	    NULL, fuzz_inbox_dir, false, &d) != 0 || h != NULL)
		crown_fuzz_fail("cannot load the campaign", &d);
	crown_diags_release(&d);
	atexit(fuzz_inbox_cleanup);
	fuzz_inbox_ready = true;
}

/* The answer crown wrote, if any: one at most, to a player, printable. */
static void
fuzz_inbox_answers(void)
{
	struct crown_mail_box	 box = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_mail	*m;
	const unsigned char	*t;
	char			*p;
	size_t			 i;

	p = xasprintf("%s/outbox", fuzz_inbox_dir);
	if (crown_mail_read_source(&box, p, CROWN_LIMIT_BYTES_MAX, &d) == 0) {
		if (box.n > 1)
			crown_fuzz_fail("more than one answer", NULL);
		for (i = 0; i < box.n; i++) {
			if (strstr(box.v[i].data, "\nTo: Jean Danjou "
			    "<danjou@example.org>\n") == NULL &&
			    strstr(box.v[i].data, "\nTo: Francisco Milan "
			    "<milan@example.org>\n") == NULL)
				crown_fuzz_fail("an answer to a stranger",
				    NULL);
			if (crown_mail_parse(&m, box.v[i].data,
			    box.v[i].len) != 0 || m->text == NULL)
				crown_fuzz_fail("an answer that does not read",
				    NULL);
			for (t = (const unsigned char *)m->text; *t != '\0';
			    t++)
				if ((*t < 0x20 && *t != '\n') || *t == 0x7f)
					crown_fuzz_fail("a control character "
					    "in an answer", NULL);
			crown_mail_free(m);
		}
	}
	crown_mail_box_release(&box);
	crown_diags_release(&d);
	free(p);
}

static int
fuzz_inbox(const uint8_t *data, size_t size)
{
	struct crown_inbox_options	 opt;
	struct crown_inbox		*ib = NULL;
	struct crown_diags		 d = { 0 };
	char				*mail, *msg, *p;
	int				 error, e, out, null;

	fuzz_inbox_setup();
	msg = xasprintf("%s/mail/new/1", fuzz_inbox_dir);
	fuzz_inbox_put(msg, data, size);
	mail = xasprintf("%s/mail", fuzz_inbox_dir);
	memset(&opt, 0, sizeof(opt));
	opt.dir = fuzz_inbox_dir;
	opt.s = fuzz_inbox_state;
	opt.rules = fuzz_inbox_rules;
	/* crown inbox's defaults, --now 2026-12-05T12:00:00Z */
	opt.now = 1796472000LL;
	opt.max_bytes = CROWN_MAIL_MAX_BYTES;
	opt.max_answers = 5;
	/* what it prints is not the point, and would drown libFuzzer's */
	fflush(stdout);
	out = dup(1);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	close(null);
	if ((error = crown_inbox_open(&ib, &opt, &d)) == 0 &&
	    (error = crown_inbox_read(ib, mail, &d)) == 0)
		crown_inbox_summary(ib);
	e = crown_inbox_close(ib, NULL, &d);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	if (error != 0 || e != 0)
		crown_fuzz_fail("crown inbox did not succeed", &d);
	crown_diags_release(&d);
	fuzz_inbox_answers();
	/* the next input starts from the same campaign */
	p = xasprintf("%s/orders", fuzz_inbox_dir);
	crown_campaign_remove_tree(p, false);
	free(p);
	p = xasprintf("%s/outbox", fuzz_inbox_dir);
	crown_campaign_remove_tree(p, false);
	free(p);
	unlink(msg);
	free(msg);
	free(mail);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_inbox)
