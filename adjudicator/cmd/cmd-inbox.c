/*
 * cmd-inbox.c: crown inbox: read the players' mail, check the orders in
 * it as `crown check` does, file the good ones in orders/pending/ and
 * answer every message from a player: a receipt, or the list of
 * problems (doc/umpire.md, "Mail").
 *
 * Who sent a message is the From address, found in the roster of the
 * state (sides[].players[]), and, as the roster in .git asks (roster.h),
 * the password given in a `password:` line or a PGP/MIME signature by
 * the player's key (pgp.h).  Mail from an address not in
 * the roster is never answered (crown does not mail strangers); it is
 * only recorded, as every refusal is, in orders/rejected/.
 *
 * The time a message is received is the time crown reads it (--now), not
 * its Date header, which the sender writes.  Orders received after
 * game.deadline are late: kept in orders/late/ for the umpire, not
 * filed.  Within a run messages are taken in order (a Maildir's new/ then
 * cur/, each in name order, which is delivery order; an mbox in file
 * order), so the last good orders of a side before the deadline win.
 *
 * orders/inbox.log has a line per message read: time, verdict, turn,
 * side, receipt, the message's SHA-256 and the sender; a message already
 * in it is not read again, so the same mailbox can be read twice.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/pgp.h"
#include "crown/roster.h"
#include "crown/shorthand.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define LOG_NAME	"orders/inbox.log"
#define PENDING_DIR	"orders/pending"
#define LATE_DIR	"orders/late"
#define REJECTED_DIR	"orders/rejected"
#define MAX_FILE_NAME	64

static int	cmd_inbox_exec(struct crown_run *);

/* Answers to one address in one run, by default (--max-answers). */
#define MAX_ANSWERS	5
#define MAX_ANSWERS_MAX	1000000

enum { INBOX_NOW, INBOX_MAX_BYTES, INBOX_MAX_ANSWERS, INBOX_NOPTS };

static const struct crown_option inbox_options[] = {
	[INBOX_NOW] = { "now", CROWN_OPT_VALUE },
	[INBOX_MAX_BYTES] = { "max-bytes", CROWN_OPT_VALUE },
	[INBOX_MAX_ANSWERS] = { "max-answers", CROWN_OPT_VALUE },
	[INBOX_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_inbox = {
	"inbox",
	"DIR MAILDIR|MBOX... [--now TIME] [--max-bytes N] [--max-answers N]",
	"Read the players' mail from Maildirs or mbox files and file the\n"
	"orders in it.  Orders come in a .yaml attachment, or in the body\n"
	"as an orders file or in shorthand, a unit a line:\n"
	"  2-militia: move 20,30 face 90; fire 1-legion\n"
	"The sender must be a player in the roster (sides[].players[]) and\n"
	"give the player's password in a line 'password: ...' when one is\n"
	"set (password_sha256).  Good orders are filed as\n"
	"DIR/orders/pending/SIDE.yaml (the last before the deadline win)\n"
	"and acknowledged with a receipt, the SHA-256 of the filed file; bad\n"
	"ones are answered with every problem and its rule.  Replies go to\n"
	"the Maildir DIR/outbox; mail from strangers and automatic mail\n"
	"(Auto-Submitted, Precedence: bulk, junk or list, List-Id) gets\n"
	"none, only a line in DIR/orders/inbox.log.  Answered refusals are\n"
	"kept in DIR/orders/rejected/, late orders in DIR/orders/late/.\n"
	"A campaign repository is repaired first and read from its last\n"
	"commit.  --now TIME is when the mail is read (default: now); it\n"
	"decides lateness against game.deadline.  --max-bytes N (default\n"
	"1M) refuses larger mail unread.  --max-answers N (default 5) is\n"
	"the most answers one address gets in a run; the rest are logged.\n"
	"\n" CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_LIMITS,
	.options = inbox_options,
	.operands = { 2, CROWN_OPERANDS_ANY,
	    "give a campaign DIR and at least one mailbox" },
	.exec = cmd_inbox_exec
};

/* The hashes of the messages in the log, an open-addressing table
 * (they are SHA-256s: their first digits are the hash). */
struct seen {
	char	(*v)[CROWN_SHA256_HEX];	/* "" for a free slot */
	size_t	  cap;			/* 0 or a power of two */
	size_t	  n;
};

struct answered {
	const char	*addr;		/* the roster's */
	unsigned	 n;
};

struct inbox {
	const char		*dir;
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_diags	*d;
	long long		 now;
	char			 nowstr[CROWN_CAL_TIME_LEN];
	bool			 has_deadline;
	long long		 deadline;
	size_t			 max;
	struct crown_mail_addr	 umpire;
	struct crown_roster	 roster;	/* credentials (.git) */
	struct seen		 seen;		/* message hashes in the log */
	unsigned		 max_answers;
	struct answered		*answered;	/* answers this run */
	size_t			 nanswered, answered_cap;
	int			 error;		/* first failure to write */
	size_t			 messages;
	unsigned		 accepted, late, refused, skipped, ignored;
};

/* What became of one message. */
struct verdict {
	const char			*what;	/* accepted late refused */
	int				 side;	/* or -1 */
	const struct crown_person	*player; /* to answer, or NULL */
	enum crown_proof		 proof;	/* how the sender proved it */
	struct crown_buf		 why;	/* the problems, a line each */
	char				 receipt[CROWN_SHA256_HEX];
};

/* The log. */

static size_t
seen_slot(const struct seen *st, const char *hash)
{
	size_t		 i, h = 0;
	unsigned	 c;

	for (i = 0; i < 16 && hash[i] != '\0'; i++) {
		c = (unsigned char)hash[i];
		h = h << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	for (i = h & (st->cap - 1); st->v[i][0] != '\0' &&
	    strcmp(st->v[i], hash) != 0; i = (i + 1) & (st->cap - 1))
		;
	return i;
}

static void
seen_add(struct seen *st, const char *hash)
{
	struct seen	 grown;
	size_t		 i;

	if (strlen(hash) != 64)
		return;
	if ((st->n + 1) * 2 > st->cap) {
		grown.cap = st->cap == 0 ? 1024 : st->cap * 2;
		grown.n = 0;
		grown.v = xcalloc(grown.cap, sizeof(*grown.v));
		for (i = 0; i < st->cap; i++)
			if (st->v[i][0] != '\0')
				seen_add(&grown, st->v[i]);
		free(st->v);
		*st = grown;
	}
	i = seen_slot(st, hash);
	if (st->v[i][0] == '\0') {
		memcpy(st->v[i], hash, CROWN_SHA256_HEX);
		st->n++;
	}
}

static bool
seen(const struct inbox *ib, const char *hash)
{
	return ib->seen.cap > 0 &&
	    ib->seen.v[seen_slot(&ib->seen, hash)][0] != '\0';
}

static void
load_log(struct inbox *ib)
{
	struct crown_diags	 d = { 0 };
	char			*path, *buf, *line, *next, *f[7];
	size_t			 len, k;

	path = xasprintf("%s/%s", ib->dir, LOG_NAME);
	if (crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX, &d) !=
	    0) {
		crown_diags_release(&d);
		free(path);
		return;
	}
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		for (k = 0; k < 7; k++) {
			f[k] = strsep(&line, " ");
			if (f[k] == NULL)
				break;
		}
		if (k == 7)
			seen_add(&ib->seen, f[5]);
	}
	free(buf);
	free(path);
}

static void
append_log(struct inbox *ib, const struct verdict *v,
    const struct crown_mail_raw *raw, const char *from)
{
	char	*path, *line;
	int	 fd;
	size_t	 len;

	path = xasprintf("%s/orders", ib->dir);
	if (crown_mkdirs(path, ib->d) != 0 && ib->error == 0)
		ib->error = CROWN_EWRITE;
	free(path);
	path = xasprintf("%s/%s", ib->dir, LOG_NAME);
	line = xasprintf("%s %s %d %s %s %s %s\n", ib->nowstr, v->what,
	    ib->s->turn + 1, v->side >= 0 ? ib->s->sides[v->side].id : "-",
	    v->receipt[0] != '\0' ? v->receipt : "-", raw->hash,
	    from != NULL ? from : "-");
	len = strlen(line);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0 || write(fd, line, len) != (ssize_t)len ||
	    fsync(fd) != 0) {
		crown_diag_add(ib->d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(errno));
		if (ib->error == 0)
			ib->error = CROWN_EWRITE;
	}
	if (fd >= 0)
		close(fd);
	seen_add(&ib->seen, raw->hash);
	free(line);
	free(path);
}

static int
write_or_note(struct inbox *ib, const char *sub, const char *name,
    const char *data, size_t len)
{
	char	*dir;
	int	 error;

	dir = xasprintf("%s/%s", ib->dir, sub);
	error = crown_mkdirs(dir, ib->d);
	if (error == 0)
		error = crown_write_file(dir, name, data, len, ib->d);
	if (error != 0 && ib->error == 0)
		ib->error = error;
	free(dir);
	return error;
}

/* Text helpers. */

/* A file name fit for a diagnostic: the attachment's base name with
 * only [A-Za-z0-9._-]. */
static char *
safe_name(const char *name)
{
	const char	*b;
	char		*s;
	size_t		 i;

	b = strrchr(name, '/');
	b = b != NULL ? b + 1 : name;
	if (*b == '\0')
		return xstrdup("orders.yaml");
	s = xstrndup(b, strnlen(b, MAX_FILE_NAME));
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		    s[i] == '_' || s[i] == '-'))
			s[i] = '_';
	return s;
}

/*
 * A mail body as orders: lines quoted with '>' become blank and the
 * signature (from a "-- " line on) is cut, so a reply quoting crown's
 * last answer still reads.  Lines keep their numbers.
 */
static size_t
clean_body(char *s, size_t len)
{
	size_t	i = 0, e;

	while (i < len) {
		e = i;
		while (e < len && s[e] != '\n')
			e++;
		if ((e - i == 3 && memcmp(s + i, "-- ", 3) == 0) ||
		    (e - i == 2 && memcmp(s + i, "--", 2) == 0)) {
			s[i] = '\0';
			return i;
		}
		if (s[i] == '>')
			memset(s + i, ' ', e - i);
		i = e + 1;
	}
	return len;
}

/*
 * Find the first "password: ..." line of s (the rest of the line,
 * trimmed, without surrounding quotes) and blank every such line, so
 * the password is never filed, echoed or parsed.  *pw (caller frees) is
 * left alone when there is none.
 */
static void
take_password(char *s, size_t len, char **pw)
{
	size_t	i = 0, e, a, b;

	while (i < len) {
		e = i;
		while (e < len && s[e] != '\n')
			e++;
		a = i;
		while (a < e && (s[a] == ' ' || s[a] == '\t'))
			a++;
		if (e - a >= 8 && strncasecmp(s + a, "password", 8) == 0) {
			b = a + 8;
			while (b < e && (s[b] == ' ' || s[b] == '\t'))
				b++;
			if (b < e && s[b] == ':') {
				b++;
				while (b < e && (s[b] == ' ' || s[b] == '\t'))
					b++;
				a = e;
				while (a > b && (s[a - 1] == ' ' ||
				    s[a - 1] == '\t' || s[a - 1] == '\r'))
					a--;
				if (a - b >= 2 && (s[b] == '"' ||
				    s[b] == '\'') && s[a - 1] == s[b]) {
					b++;
					a--;
				}
				if (*pw == NULL)
					*pw = xstrndup(s + b, a - b);
				memset(s + i, ' ', e - i);
			}
		}
		i = e + 1;
	}
}

static void
indent(struct crown_buf *b, const char *text)
{
	const char	*p, *e;

	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if (e > p)
			crown_buf_printf(b, "  %.*s\n", (int)(e - p), p);
		else
			crown_buf_puts(b, "\n");
	}
}

static void
why(struct verdict *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
why(struct verdict *v, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	va_end(ap);
	crown_buf_printf(&v->why, "%s\n", s);
	free(s);
}

/* The receipt of the orders now filed for side, or "". */
static void
pending_receipt(const struct inbox *ib, const char *sub, int side,
    char *out)
{
	struct crown_diags	 d = { 0 };
	char			*path, *buf;
	size_t			 len;

	out[0] = '\0';
	path = xasprintf("%s/%s/%s.yaml", ib->dir, sub, ib->s->sides[side].id);
	if (crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX, &d) ==
	    0) {
		crown_mail_sha256_hex(out, buf, len);
		free(buf);
	}
	crown_diags_release(&d);
	free(path);
}

/* Replies. */

/*
 * Fill the paragraphs of text to WRAP columns; indented lines (orders,
 * problems) and the signature are kept as they are.
 */
#define WRAP	72
static void
wrap(struct crown_buf *b, const char *text)
{
	const char	*p, *e, *w, *we;
	size_t		 col;

	crown_buf_puts(b, "");
	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if (*p == ' ' || (e - p == 3 && memcmp(p, "-- ", 3) == 0)) {
			crown_buf_add(b, p, (size_t)(e - p));
			crown_buf_puts(b, "\n");
			continue;
		}
		col = 0;
		for (w = p; w < e; w = we) {
			while (w < e && *w == ' ')
				w++;
			if (w == e)
				break;
			for (we = w; we < e && *we != ' '; we++)
				;
			if (col > 0 && col + 1 + (size_t)(we - w) > WRAP) {
				crown_buf_puts(b, "\n");
				col = 0;
			} else if (col > 0) {
				crown_buf_puts(b, " ");
				col++;
			}
			crown_buf_add(b, w, (size_t)(we - w));
			col += (size_t)(we - w);
		}
		crown_buf_puts(b, "\n");
	}
}

static void
deliver(struct inbox *ib, const struct crown_mail *m,
    const struct verdict *v, const char *subject, const char *text,
    const struct crown_mail_attach *att, size_t natt, bool cc_side)
{
	struct crown_mail_addr	 to, *cc = NULL;
	struct crown_mail_out	 o;
	struct crown_buf	 msg = { 0 }, wrapped = { 0 };
	const struct crown_side	*sd;
	size_t			 j, ncc = 0;
	char			*clean;
	int			 error;

	/* nothing crown echoes carries a control character */
	clean = crown_mail_printable(text, true);
	wrap(&wrapped, clean);
	free(clean);

	to.name = v->player->name;
	to.addr = v->player->email;
	if (cc_side && v->side >= 0) {
		sd = &ib->s->sides[v->side];
		cc = xcalloc(sd->nplayers + 1, sizeof(*cc));
		for (j = 0; j < sd->nplayers; j++) {
			if (&sd->players[j] == v->player ||
			    sd->players[j].email == NULL ||
			    strchr(sd->players[j].email, '@') == NULL ||
			    strcasecmp(sd->players[j].email,
			    v->player->email) == 0)
				continue;
			cc[ncc].name = sd->players[j].name;
			cc[ncc++].addr = sd->players[j].email;
		}
	}
	memset(&o, 0, sizeof(o));
	o.from = ib->umpire;
	o.to = &to;
	o.nto = 1;
	o.cc = cc;
	o.ncc = ncc;
	o.subject = subject;
	o.date = ib->now;
	o.in_reply_to = m->message_id;
	o.text = wrapped.data;
	o.attach = att;
	o.nattach = natt;
	error = crown_mail_build(&msg, &o);
	if (error == 0) {
		char *outbox = xasprintf("%s/outbox", ib->dir);

		error = crown_maildir_deliver(outbox, msg.data, msg.len,
		    ib->now, NULL, ib->d);
		free(outbox);
	} else
		crown_diag_add(ib->d, "outbox", 0, 0, NULL, "cannot build a "
		    "reply to %s", to.addr);
	if (error != 0 && ib->error == 0)
		ib->error = error;
	crown_buf_release(&wrapped);
	crown_buf_release(&msg);
	free(cc);
}

static void
signoff(struct inbox *ib, struct crown_buf *b)
{
	crown_buf_printf(b, "\n-- \ncrown, umpiring %s\n", ib->s->name);
}

static void
reply_refused(struct inbox *ib, const struct crown_mail *m,
    const struct verdict *v, bool late)
{
	struct crown_buf	 b = { 0 };
	char			 prev[CROWN_SHA256_HEX], *subject;
	const struct crown_side	*sd = v->side >= 0 ? &ib->s->sides[v->side] :
	    NULL;

	crown_buf_printf(&b, "Your mail \"%s\", read at %s, was not "
	    "accepted:\n\n", m->subject, ib->nowstr);
	indent(&b, v->why.data);
	if (late)
		crown_buf_printf(&b, "\nIt also came after the deadline, "
		    "%s.\n", ib->s->deadline);
	if (sd != NULL) {
		pending_receipt(ib, PENDING_DIR, v->side, prev);
		if (prev[0] != '\0')
			crown_buf_printf(&b, "\nNothing was filed for %s: the "
			    "orders filed before stand, with the "
			    "receipt\n\n  %s\n\n", sd->name, prev);
		else
			crown_buf_printf(&b, "\nNothing was filed: %s has no "
			    "orders for turn %d yet.\n", sd->name,
			    ib->s->turn + 1);
	} else
		crown_buf_puts(&b, "\nNothing was filed.\n");
	if (!late)
		crown_buf_printf(&b, "Mend them and send them again%s%s.\n",
		    ib->s->deadline != NULL ? " before " : "",
		    ib->s->deadline != NULL ? ib->s->deadline : "");
	signoff(ib, &b);
	subject = xasprintf("[%s] Turn %d: orders not accepted", ib->s->name,
	    ib->s->turn + 1);
	deliver(ib, m, v, subject, b.data, NULL, 0, false);
	free(subject);
	crown_buf_release(&b);
}

/* The side's orders filed (or held, when late): answer with the receipt
 * and the orders as filed. */
static void
reply_filed(struct inbox *ib, const struct crown_mail *m,
    const struct verdict *v, const struct crown_orders *o,
    const struct crown_buf *yaml, const char *prev, bool late)
{
	const struct crown_side		*sd = &ib->s->sides[v->side];
	struct crown_buf		 b = { 0 }, sh = { 0 };
	struct crown_mail_attach	 att;
	char				*subject, *name;

	if (late) {
		crown_buf_printf(&b, "Your orders for turn %d of %s, side %s "
		    "(%s), came at %s, after the deadline, %s.  They are not "
		    "filed, and will not be played unless the umpire "
		    "extends the deadline.\n\n", o->turn, ib->s->name,
		    sd->id, sd->name, ib->nowstr, ib->s->deadline);
		if (prev[0] != '\0')
			crown_buf_printf(&b, "The orders filed before the "
			    "deadline stand, with the receipt\n\n  %s\n\n",
			    prev);
		else
			crown_buf_printf(&b, "%s sent no orders in time: "
			    "every unit holds this turn (R2.3): loaded units "
			    "fire at the nearest enemy in range and arc, the "
			    "others reload.\n\n", sd->name);
		crown_buf_printf(&b, "Receipt of the late orders (the SHA-256 "
		    "of the attached %s.yaml, the orders as kept):\n\n  "
		    "%s\n", sd->id, v->receipt);
	} else {
		crown_buf_printf(&b, "Your orders for turn %d of %s, side %s "
		    "(%s), are accepted and filed.\n\n", o->turn,
		    ib->s->name, sd->id, sd->name);
		crown_buf_printf(&b, "Receipt (the SHA-256 of the attached "
		    "%s.yaml, the orders as filed):\n\n  %s\n", sd->id,
		    v->receipt);
	}
	if (!late && prev[0] != '\0' && strcmp(prev, v->receipt) != 0)
		crown_buf_printf(&b, "\nThey replace the orders filed before, "
		    "whose receipt was\n\n  %s\n", prev);
	if (!late && ib->s->deadline != NULL)
		crown_buf_printf(&b, "\nYou may send new orders until the "
		    "deadline, %s; the last accepted before it are "
		    "played.\n", ib->s->deadline);
	else if (!late)
		crown_buf_puts(&b, "\nYou may send new orders until the turn "
		    "is played; the last accepted are played.\n");
	if (v->why.len > 0) {
		crown_buf_puts(&b, "\nWarnings (the orders stand as they "
		    "are):\n\n");
		indent(&b, v->why.data);
	}
	crown_shorthand_format(&sh, o);
	crown_buf_puts(&b, "\nThe orders:\n\n");
	if (sh.len > 0)
		indent(&b, sh.data);
	else
		crown_buf_puts(&b, "  (none: every unit holds, R2.3)\n");
	crown_buf_printf(&b, "\nYou were identified by %s.\n",
	    v->proof == CROWN_PROOF_OPENPGP ? "your OpenPGP signature" :
	    v->proof == CROWN_PROOF_PASSWORD ? "your password" :
	    "your From address alone");
	if (v->proof == CROWN_PROOF_FROM)
		crown_buf_puts(&b, "No password is set for you, so anyone "
		    "can send orders in your name: ask the umpire for one.\n");
	signoff(ib, &b);
	name = xasprintf("%s.yaml", sd->id);
	att.name = name;
	att.type = "text/yaml";
	att.data = yaml->data;
	att.len = yaml->len;
	subject = xasprintf("[%s] Turn %d: orders %s for %s", ib->s->name,
	    o->turn, late ? "late" : "accepted", sd->name);
	deliver(ib, m, v, subject, b.data, &att, 1, !late);
	free(subject);
	free(name);
	crown_buf_release(&sh);
	crown_buf_release(&b);
}

/* Keep a refused message's story in orders/rejected/. */
static void
record(struct inbox *ib, const struct crown_mail_raw *raw, const char *ref,
    const struct crown_mail *m, const struct verdict *v)
{
	struct crown_buf	 b = { 0 };
	char			*name, stamp[CROWN_CAL_TIME_LEN], *clean;
	size_t			 i, j;

	/* 2026-12-05T18:00:00Z -> 20261205T180000Z */
	for (i = j = 0; ib->nowstr[i] != '\0'; i++)
		if (ib->nowstr[i] != '-' && ib->nowstr[i] != ':')
			stamp[j++] = ib->nowstr[i];
	stamp[j] = '\0';
	name = xasprintf("%s-%.16s.txt", stamp, raw->hash);
	crown_buf_printf(&b, "read: %s\nmessage: %s\nsha256: %s\nsize: %zu\n",
	    ib->nowstr, ref, raw->hash, raw->size);
	if (m != NULL)
		crown_buf_printf(&b, "from: %s\nsubject: %s\nmessage-id: %s\n",
		    m->from, m->subject, m->message_id != NULL ?
		    m->message_id : "-");
	crown_buf_printf(&b, "answered: %s\n", v->player != NULL ?
	    v->player->email : "no (not a player)");
	crown_buf_puts(&b, "problems:\n");
	indent(&b, v->why.data);
	clean = crown_mail_printable(b.data, true);
	write_or_note(ib, REJECTED_DIR, name, clean, strlen(clean));
	free(clean);
	free(name);
	crown_buf_release(&b);
}

/* Problems in the order of the file, parsing's and validation's
 * together (stable: the same place keeps the order found). */
static void
sort_diags(struct crown_diags *d)
{
	struct crown_diag	t;
	size_t			i, j;

	for (i = 1; i < d->n; i++) {
		t = d->v[i];
		for (j = i; j > 0 && (d->v[j - 1].line > t.line ||
		    (d->v[j - 1].line == t.line && d->v[j - 1].col > t.col));
		    j--)
			d->v[j] = d->v[j - 1];
		d->v[j] = t;
	}
}

/* Identity. */

/* The sides the address plays, as a bit per side (at most 64 sides are
 * looked at; a game has two or three). */
static int
find_player(const struct inbox *ib, const char *addr, int side)
{
	const struct crown_side	*sd = &ib->s->sides[side];
	size_t			 j;

	for (j = 0; j < sd->nplayers; j++)
		if (sd->players[j].email != NULL &&
		    strcasecmp(sd->players[j].email, addr) == 0)
			return (int)j;
	return -1;
}

/* len bytes of s and a NUL (s may hold NUL bytes: it is not a string). */
static char *
copy_bytes(const char *s, size_t len)
{
	char	*t = xmalloc(len + 1);

	memcpy(t, s, len);
	t[len] = '\0';
	return t;
}

/* Orders from the message: text (caller frees), its name for
 * diagnostics, and whether it is an orders file; NULL after a refusal
 * (in v). */
static char *
orders_text(const struct crown_mail *m, struct verdict *v, char **file,
    bool *yaml, size_t *len, char **pw)
{
	char	*t, *body;
	size_t	 blen;

	*pw = NULL;
	if (m->nyaml > 1) {
		why(v, "attach one orders file to a mail, not %zu", m->nyaml);
		return NULL;
	}
	if (m->nyaml == 1) {
		t = copy_bytes(m->yaml[0].data, m->yaml[0].len);
		*len = m->yaml[0].len;
		*file = safe_name(m->yaml[0].name);
		*yaml = true;
		take_password(t, *len, pw);
		if (m->text != NULL) {
			body = copy_bytes(m->text, m->text_len);
			blen = clean_body(body, m->text_len);
			take_password(body, blen, pw);
			free(body);
		}
		return t;
	}
	if (m->text == NULL) {
		if (m->html)
			why(v, "the mail has only HTML: send the orders as "
			    "plain text, or attach them as a .yaml file");
		else
			why(v, "no orders found: write them in the body as "
			    "plain text, or attach a .yaml file");
		return NULL;
	}
	/* a NUL byte is the shorthand's or YAML's to refuse, at its place */
	t = copy_bytes(m->text, m->text_len);
	*len = clean_body(t, m->text_len);
	take_password(t, *len, pw);
	*file = xstrdup("message");
	*yaml = crown_shorthand_is_yaml(t, *len);
	return t;
}

/*
 * Who sent m: v->player is the sender's entry in the roster (the first
 * found) and v->side its side when the sender plays only one.  false,
 * with the reason in v, for a stranger.
 */
static bool
identify(const struct inbox *ib, const struct crown_mail *m,
    struct verdict *v)
{
	size_t	i;
	int	first = -1, nsides = 0;

	for (i = 0; i < ib->s->nsides; i++)
		if (find_player(ib, m->from, (int)i) >= 0) {
			if (nsides++ == 0)
				first = (int)i;
		}
	if (nsides == 0) {
		why(v, "'%s' is not a player of %s", m->from, ib->s->name);
		return false;
	}
	v->player = &ib->s->sides[first].players[find_player(ib, m->from,
	    first)];
	v->side = nsides == 1 ? first : -1;
	return true;
}

/* Is m a PGP/MIME message signed by the key of fingerprint fpr, in the
 * campaign's keyring? */
static bool
signed_by(const struct inbox *ib, const struct crown_mail *m,
    struct verdict *v, const char *fpr)
{
	char	*home, *msg;
	bool	 ok;

	home = crown_roster_keyring(ib->dir);
	ok = crown_pgp_verify(&msg, home, fpr, m->raw, m->raw_len) == 0;
	if (!ok)
		why(v, "%s", msg);
	free(msg);
	free(home);
	return ok;
}

/*
 * Does the sender prove to be v->player as strongly as the roster asks
 * (roster.h)?  v->proof is what was proved; false, with the reason in
 * v, when it falls short.  A state of a campaign made before issue 19
 * may still carry a password_sha256, read as a password.
 */
static bool
prove(const struct inbox *ib, const struct crown_mail *m,
    struct verdict *v, const char *pw)
{
	const struct crown_cred	*c;

	c = crown_roster_find(&ib->roster, v->player->email);
	v->proof = CROWN_PROOF_FROM;
	switch (crown_roster_required(c)) {
	case CROWN_PROOF_OPENPGP:
		if (!signed_by(ib, m, v, c->openpgp))
			return false;
		v->proof = CROWN_PROOF_OPENPGP;
		return true;
	case CROWN_PROOF_PASSWORD:
		if (!crown_roster_password_ok(c, pw)) {
			why(v, pw == NULL ? "no password: give yours in a "
			    "line 'password: ...'" : "wrong password");
			return false;
		}
		v->proof = CROWN_PROOF_PASSWORD;
		return true;
	default:
		break;
	}
	if (v->player->password_sha256 != NULL) {
		if (!crown_mail_password_ok(pw, v->player->password_sha256)) {
			why(v, pw == NULL ? "no password: give yours in a "
			    "line 'password: ...'" : "wrong password");
			return false;
		}
		v->proof = CROWN_PROOF_PASSWORD;
	}
	return true;
}

/* The proof the orders filed for side were sent with: the word in
 * orders/pending/SIDE.proof beside their receipt; FROM when there is
 * none for these orders (filed by hand), NONE when none are filed. */
static enum crown_proof
pending_proof(const struct inbox *ib, int side)
{
	struct crown_diags	 d = { 0 };
	char			 receipt[CROWN_SHA256_HEX], *path, *buf;
	size_t			 len, n;
	enum crown_proof	 p = CROWN_PROOF_FROM;

	pending_receipt(ib, PENDING_DIR, side, receipt);
	if (receipt[0] == '\0')
		return CROWN_PROOF_NONE;
	path = xasprintf("%s/%s/%s.proof", ib->dir, PENDING_DIR,
	    ib->s->sides[side].id);
	if (crown_read_file(&buf, &len, path, 4096, &d) == 0) {
		n = strlen(receipt);
		if (len > n + 1 && memcmp(buf, receipt, n) == 0 &&
		    buf[n] == ' ') {
			buf[strcspn(buf, "\n")] = '\0';
			p = crown_proof_parse(buf + n + 1);
			if (p == CROWN_PROOF_NONE)
				p = CROWN_PROOF_FROM;
		}
		free(buf);
	}
	crown_diags_release(&d);
	free(path);
	return p;
}

/*
 * Authentication per player, consistent per side (doc/umpire.md): the
 * orders filed for a side are replaced only by a sender who proved to
 * be a player at least as strongly as the one who sent them, so that a
 * side is as safe as its best-kept player and not its weakest.
 */
static bool
as_strong(const struct inbox *ib, struct verdict *v)
{
	enum crown_proof	 p;

	if (v->side < 0)
		return true;
	p = pending_proof(ib, v->side);
	if (p == CROWN_PROOF_NONE || v->proof >= p)
		return true;
	why(v, "the orders filed for side '%s' came with %s; you are "
	    "identified by %s only, so they stand: only a player who "
	    "proves as much may replace them", ib->s->sides[v->side].id,
	    crown_proof_name(p), crown_proof_name(v->proof));
	return false;
}

/*
 * Check one message's orders.  Fills v; returns the parsed orders when
 * they are good (caller frees), else NULL.
 */
static struct crown_orders *
check(struct inbox *ib, const struct crown_mail *m, struct verdict *v)
{
	struct crown_diags	 d = { 0 };
	struct crown_orders	*o = NULL;
	char			*text, *file = NULL, *pw = NULL, *line;
	size_t			 len = 0, i;
	bool			 yaml = false;
	int			 side, player, error;

	if (!identify(ib, m, v))
		return NULL;
	if (ib->s->last_turn != 0 && ib->s->turn >= ib->s->last_turn) {
		why(v, "the game is over: turn %d was its last",
		    ib->s->last_turn);
		return NULL;
	}
	if ((text = orders_text(m, v, &file, &yaml, &len, &pw)) == NULL)
		return NULL;
	if (yaml)
		error = crown_orders_parse(&o, file, text, len, &d);
	else
		error = crown_shorthand_parse(&o, file, text, len, &d);
	free(text);
	/* the side: the one named, which the sender must play, or the
	 * sender's only side (o is NULL when the text is not even a YAML
	 * document: every problem is in d) */
	if (o != NULL && o->side != NULL &&
	    (side = crown_state_side(ib->s, o->side)) >= 0) {
		if ((player = find_player(ib, m->from, side)) < 0) {
			why(v, "%s:%u:%u: error: '%s' does not play side '%s'",
			    file, o->side_line, o->side_col, m->from,
			    o->side);
			v->side = -1;
			goto out;
		}
		v->side = side;
		v->player = &ib->s->sides[side].players[player];
	} else if (o != NULL && o->side == NULL && v->side >= 0 && !yaml)
		o->side = xstrdup(ib->s->sides[v->side].id);
	else if (o != NULL && o->side == NULL && !yaml) {
		why(v, "%s: error: you play more than one side: say which "
		    "with a line 'side: ID'", file);
		goto out;
	}
	/* the proof of identity, before anything about the orders is
	 * said; then the side's: orders filed with a stronger proof stand */
	if (!prove(ib, m, v, pw) || !as_strong(ib, v)) {
		crown_diags_release(&d);
		goto out;
	}
	if (o == NULL)
		goto problems;
	/* an empty body (a reply quoting crown's answer, say) must not
	 * replace real orders with none: holding is said in so many words */
	if (!yaml && error == 0 && o->nunits == 0 && o->nleaders == 0) {
		why(v, "%s: error: no orders found: write a line 'UNIT: "
		    "ACTION; ...' for each unit (to hold, 'UNIT: hold'), or "
		    "attach an orders file", file);
		goto out;
	}
	if (o->game == NULL)
		o->game = xstrdup(ib->s->name);
	if (o->turn < 0 && !yaml)
		o->turn = ib->s->turn + 1;
	if (crown_orders_validate(o, ib->s, ib->rules, &d) != 0 ||
	    error != 0)
		goto problems;
	/* accepted with warnings: said in the answer all the same */
	sort_diags(&d);
	for (i = 0; i < d.n; i++) {
		line = crown_diag_format(&d.v[i]);
		why(v, "%s", line);
		free(line);
	}
	crown_diags_release(&d);
	free(file);
	free(pw);
	return o;
problems:
	sort_diags(&d);
	for (i = 0; i < d.n; i++) {
		line = crown_diag_format(&d.v[i]);
		why(v, "%s", line);
		free(line);
	}
	if (d.n == 0)
		why(v, "%s: error: the orders cannot be read", file);
out:
	crown_diags_release(&d);
	crown_orders_free(o);
	free(file);
	free(pw);
	return NULL;
}

/*
 * May crown answer addr once more in this run?  Counted, so a loop with
 * an auto-responder, or a flood in a player's name, costs a few answers.
 */
static bool
may_answer(struct inbox *ib, const char *addr)
{
	size_t	i;

	for (i = 0; i < ib->nanswered; i++)
		if (strcasecmp(ib->answered[i].addr, addr) == 0)
			break;
	if (i == ib->nanswered) {
		crown_grow(&ib->answered, &ib->answered_cap, i + 1,
		    sizeof(*ib->answered));
		ib->answered[i].addr = addr;
		ib->answered[i].n = 0;
		ib->nanswered++;
	}
	if (ib->answered[i].n >= ib->max_answers)
		return false;
	ib->answered[i].n++;
	return true;
}

static void
print_why(const struct verdict *v)
{
	struct crown_buf	 b = { 0 };
	char			*clean;

	indent(&b, v->why.data);
	clean = crown_mail_printable(b.data, true);
	fputs(clean, stdout);
	free(clean);
	crown_buf_release(&b);
}

static void
over_limit(const struct inbox *ib, const char *addr)
{
	printf("%u answer%s to %s this run: --max-answers %u", ib->max_answers,
	    ib->max_answers == 1 ? "" : "s", addr, ib->max_answers);
}

/* Keep beside the filed orders how their sender was identified
 * (pending_proof); a file the inbox cannot write is only a weaker
 * guard, noted like any other. */
static void
file_proof(struct inbox *ib, const struct verdict *v)
{
	char	*name, *text;

	name = xasprintf("%s.proof", ib->s->sides[v->side].id);
	text = xasprintf("%s %s\n", v->receipt, crown_proof_word(v->proof));
	write_or_note(ib, PENDING_DIR, name, text, strlen(text));
	free(text);
	free(name);
}

static int
process(void *arg, const struct crown_mail_raw *raw)
{
	struct inbox		*ib = arg;
	struct crown_mail	*m = NULL;
	struct crown_orders	*o = NULL;
	struct crown_buf	 yaml = { 0 };
	struct verdict		 v;
	char			 prev[CROWN_SHA256_HEX], *name, *ref;
	bool			 late, answer;

	ib->messages++;
	/* a Maildir's file names are anyone's */
	ref = crown_mail_printable(raw->ref, false);
	memset(&v, 0, sizeof(v));
	/* counted in the summary, not listed: old mail stays in a
	 * mailbox, week after week */
	if (seen(ib, raw->hash)) {
		ib->skipped++;
		goto cleanup;
	}
	v.what = "refused";
	v.side = -1;
	crown_buf_puts(&v.why, "");
	late = ib->has_deadline && ib->now > ib->deadline;
	if (crown_mail_parse(&m, raw->data, raw->len) != 0) {
		why(&v, "not a mail message with a From address");
		goto refused;
	}
	if (m->automatic != NULL) {
		/* RFC 3834: never answer it, or two robots talk forever */
		identify(ib, m, &v);
		v.what = "ignored";
		v.player = NULL;
		ib->ignored++;
		printf("%s: ignored, not answered: automatic mail (%s)\n", ref,
		    m->automatic);
		append_log(ib, &v, raw, m->from);
		goto cleanup;
	}
	if (raw->size > ib->max) {
		/* answer a player, but read no further */
		identify(ib, m, &v);
		why(&v, "the mail is %zu bytes, over the limit of %zu: send "
		    "the orders as plain text or a small .yaml attachment",
		    raw->size, ib->max);
		goto refused;
	}
	if ((o = check(ib, m, &v)) == NULL)
		goto refused;
	if (crown_shorthand_to_yaml(&yaml, o) != 0) {
		why(&v, "internal error: the orders cannot be written");
		goto refused;
	}
	crown_mail_sha256_hex(v.receipt, yaml.data, yaml.len);
	pending_receipt(ib, PENDING_DIR, v.side, prev);
	name = xasprintf("%s.yaml", ib->s->sides[v.side].id);
	if (write_or_note(ib, late ? LATE_DIR : PENDING_DIR, name, yaml.data,
	    yaml.len) != 0) {
		/* not answered, not logged: read again next time */
		printf("%s: not filed: cannot write %s/%s\n", ref,
		    late ? LATE_DIR : PENDING_DIR, name);
		free(name);
		goto cleanup;
	}
	if (!late)
		file_proof(ib, &v);
	if (late) {
		v.what = "late";
		ib->late++;
		printf("%s: late: side %s, turn %d, from %s, after the "
		    "deadline %s; kept in %s/%s", ref,
		    ib->s->sides[v.side].id, o->turn, m->from,
		    ib->s->deadline, LATE_DIR, name);
	} else {
		v.what = "accepted";
		ib->accepted++;
		printf("%s: accepted: side %s, turn %d, from %s, receipt "
		    "%s", ref, ib->s->sides[v.side].id, o->turn,
		    m->from, v.receipt);
	}
	free(name);
	answer = may_answer(ib, v.player->email);
	if (!answer) {
		printf(" (not answered: ");
		over_limit(ib, v.player->email);
		printf(")");
	}
	printf("\n");
	if (v.why.len > 0)
		print_why(&v);
	if (answer)
		reply_filed(ib, m, &v, o, &yaml, prev, late);
	append_log(ib, &v, raw, m->from);
	goto cleanup;
refused:
	ib->refused++;
	answer = v.player != NULL && may_answer(ib, v.player->email);
	if (answer)
		printf("%s: refused, answered to %s:\n", ref,
		    v.player->email);
	else if (v.player != NULL) {
		printf("%s: refused, not answered (", ref);
		over_limit(ib, v.player->email);
		printf("):\n");
	} else
		printf("%s: refused, not answered (not from a player):\n",
		    ref);
	print_why(&v);
	/* only what is answered is kept: mail from strangers, or past the
	 * limit of answers, costs a line of the log and no more */
	if (answer) {
		reply_refused(ib, m, &v, late);
		record(ib, raw, ref, m, &v);
	}
	append_log(ib, &v, raw, m != NULL ? m->from : NULL);
cleanup:
	free(ref);
	crown_buf_release(&yaml);
	crown_buf_release(&v.why);
	crown_orders_free(o);
	crown_mail_free(m);
	return 0;
}

int
crown_cmd_mail_campaign(struct crown_state **state, struct crown_rules **rules,
    struct crown_history **h, const char *dir, bool lock,
    struct crown_diags *d)
{
	struct crown_chain	 chain = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct stat		 st;
	char			*p, *label = NULL, *rules_dir;
	int			 error, k;

	*state = NULL;
	if (rules != NULL)
		*rules = NULL;
	*h = NULL;
	p = xasprintf("%s/.git", dir);
	k = stat(p, &st);
	free(p);
	if (k != 0) {
		p = xasprintf("%s/state.yaml", dir);
		error = crown_state_load(state, p, d);
		free(p);
		if (error != 0 || rules == NULL)
			return error;
		p = xasprintf("%s/rules.yaml", dir);
		rules_dir = stat(p, &st) == 0 ? (char *)dir : NULL;
		free(p);
		return crown_cmd_load_rules(rules, NULL, rules_dir,
		    (*state)->rules, d);
	}
	/* the work tree may be a killed turn's, behind its commit */
	if ((error = crown_history_open(h, dir, lock, d)) != 0 ||
	    (error = crown_campaign_chain(&chain, *h, CROWN_MAIN_REF,
	    d)) != 0 ||
	    (lock && (error = crown_campaign_repair(*h, &chain, d)) != 0))
		goto cleanup;
	label = xasprintf("turn-%d", chain.last);
	if ((error = crown_campaign_load(&camp, *h, chain.l.v[chain.tip].id,
	    label, d)) != 0)
		goto cleanup;
	*state = camp.state;
	if (rules != NULL)
		*rules = camp.rules;
	else
		crown_rules_free(camp.rules);
cleanup:
	free(label);
	crown_chain_release(&chain);
	return error;
}

static int
load_roster(struct inbox *ib, struct crown_diags *d)
{
	char	*path = crown_roster_path(ib->dir);
	int	 error;

	error = crown_roster_load(&ib->roster, path, d);
	free(path);
	return error;
}

static int
cmd_inbox_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	struct crown_history	*h = NULL;
	struct inbox		 ib;
	const char		*now, *max, *answers;
	char			*end;
	unsigned long		 n;
	size_t			 i;
	int			 error = 0;

	memset(&ib, 0, sizeof(ib));
	ib.max = CROWN_MAIL_MAX_BYTES;
	ib.max_answers = MAX_ANSWERS;
	ib.d = &d;
	now = r->opt[INBOX_NOW].value;
	max = r->opt[INBOX_MAX_BYTES].value;
	answers = r->opt[INBOX_MAX_ANSWERS].value;
	if (max != NULL && crown_limits_parse_bytes(&ib.max, max) != 0)
		return crown_cmd_usage_error(r->cmd, "--max-bytes: '%s' is "
		    "not a size (bytes, or with k or M)", max);
	if (answers != NULL) {
		errno = 0;
		n = strtoul(answers, &end, 10);
		if (answers[0] < '0' || answers[0] > '9' || *end != '\0' ||
		    errno != 0 || n > MAX_ANSWERS_MAX)
			return crown_cmd_usage_error(r->cmd, "--max-answers: "
			    "'%s' is not a number from 0 to %d", answers,
			    MAX_ANSWERS_MAX);
		ib.max_answers = (unsigned)n;
	}
	if (now != NULL && crown_cal_parse_time(&ib.now, now) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' "
		    "is not a time (YYYY-MM-DDTHH:MM:SSZ)", now);
	if (now == NULL)
		ib.now = crown_cal_now();
	crown_cal_format_time(ib.nowstr, sizeof(ib.nowstr), ib.now);
	ib.dir = r->operand[0];

	/* a campaign repository: hold its lock, as crown turn does */
	if ((error = crown_cmd_mail_campaign(&ib.s, &ib.rules, &h, ib.dir,
	    true, &d)) != 0)
		goto cleanup;
	if (ib.s->deadline != NULL &&
	    crown_cal_parse_time(&ib.deadline, ib.s->deadline) == 0)
		ib.has_deadline = true;
	ib.umpire = crown_mail_umpire(ib.s);
	if ((error = load_roster(&ib, &d)) != 0)
		goto cleanup;
	load_log(&ib);
	/* a message at a time: a mailbox of any size fits */
	for (i = 1; i < r->noperands; i++)
		if ((error = crown_mail_each(r->operand[i], ib.max, process,
		    &ib, &d)) != 0)
			goto cleanup;
	printf("%zu message%s: %u accepted, %u late, %u refused, %u already "
	    "read", ib.messages, ib.messages == 1 ? "" : "s", ib.accepted,
	    ib.late, ib.refused, ib.skipped);
	if (ib.ignored > 0)
		printf(", %u ignored", ib.ignored);
	printf("\n");
	error = ib.error;
cleanup:
	free(ib.seen.v);
	free(ib.answered);
	crown_roster_release(&ib.roster);
	crown_rules_free(ib.rules);
	crown_state_free(ib.s);
	crown_history_close(h);
	return crown_cmd_fail(&d, error);
}
