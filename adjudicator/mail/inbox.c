/*
 * inbox.c: the players' mail (inbox.h): the orders in each message read
 * as `crown check` reads a file (orders-read.h), the good ones filed in
 * orders/pending/, and every message from a player answered: a receipt,
 * or the list of problems (doc/umpire.md, "Mail").
 *
 * Who sent a message is the From address, found in the roster of the
 * state (sides[].players[]), and, as the roster in .git asks (roster.h),
 * the password given in a `password:` line or a PGP/MIME signature by
 * the player's key (pgp.h).  Mail from an address not in
 * the roster is never answered (crown does not mail strangers); it is
 * only recorded, as every refusal is, in orders/rejected/.
 *
 * The time a message is received is when it was delivered into the
 * mailbox (crown_maildir_time, crown_mbox_time; never later than --now,
 * when crown reads it), not its Date header, which the sender writes.
 * Orders received after game.deadline are late: kept in orders/late/
 * for the umpire, not filed.  A message delivered while a turn now
 * played was open is for that turn, not the next: refused (played()).
 * A signature carries orders once (fresh()): each one that filed
 * orders is remembered in .git/crown-signatures with the message that
 * used it.  Within a run messages are taken in order (a Maildir's new/ then
 * cur/, each in name order, which is delivery order; an mbox in file
 * order), so the last good orders of a side before the deadline win.
 *
 * orders/inbox.log has a line per message read: time received, verdict,
 * turn, side, receipt, the message's SHA-256 and the sender; a message
 * already in it is not read again, so the same mailbox can be read
 * twice.  The mailboxes read are remembered in
 * .git/crown-maildir, for crown status and crown turn to count the
 * messages not read yet (crown_inbox_unread).
 *
 * What must last is written once a batch (at most BATCH_BYTES of
 * answers, and at the end of the run): the orders filed, each file once
 * however many mails changed it, synced, then the answers, then the
 * batch's lines of the log with one sync; the signatures that filed
 * orders are appended to their file, synced, after the orders and
 * before the answers; a press's mails before its file in .git/crown-press
 * (press.h), which stops a second relay.  A mail is thus answered only
 * once what it filed is on disk, and logged (not read again) only once
 * answered; a run killed before leaves the mail to be read again.
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

#include <glib.h>

#include "crown/calendar.h"
#include "crown/common.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/plaintext.h"
#include "crown/outputs.h"
#include "crown/pgp.h"
#include "crown/press.h"
#include "crown/roster.h"
#include "crown/shorthand.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"
#include "received.h"

#include "body.h"

#define LOG_NAME	CROWN_RECEIVED_LOG
#define PENDING_DIR	"orders/pending"
#define LATE_DIR	"orders/late"
#define REJECTED_DIR	"orders/rejected"
/* The answers a batch holds before what it filed is written. */
#define BATCH_BYTES	((size_t)4 * 1024 * 1024)

/* What is filed for a side (orders/pending/SIDE.yaml and SIDE.proof, or
 * orders/late/SIDE.yaml): read once, kept here, written once a batch. */
struct filed {
	char			 receipt[CROWN_SHA256_HEX];	/* or "" */
	enum crown_proof	 proof;		/* NONE: nothing filed */
	struct crown_buf	 yaml;		/* when changed */
	bool			 changed;
};

/* A file of orders/rejected/, an answer, a mail relaying press or the
 * press's file, held until the batch ends. */
enum held_kind { HELD_ANSWER, HELD_RECORD, HELD_RELAY, HELD_PRESS };

struct held {
	enum held_kind		 kind;
	char			*name;		/* a file's, or NULL */
	long long		 date;		/* a mail's */
	struct crown_buf	 data;
};

struct crown_inbox {
	const char		*dir;
	const struct crown_state *s;
	const struct crown_rules *rules;
	struct crown_diags	*d;
	bool			 dry;
	struct filed		*pending, *late;	/* a side each */
	struct held		*held;
	size_t			 nheld, held_cap, held_bytes;
	struct crown_buf	 log;		/* the batch's lines */
	long long		 now;
	char			 nowstr[CROWN_CAL_TIME_LEN];
	bool			 has_deadline;
	long long		 deadline;
	size_t			 max;
	struct crown_mail_addr	 umpire;
	struct crown_roster	 roster;	/* credentials (.git) */
	struct crown_received	 seen;		/* message hashes in the log */
	unsigned		 max_answers;
	struct crown_answers	 answers;	/* to each address, this
						 * turn */
	int			 error;		/* first failure to write */
	size_t			 messages;
	unsigned		 accepted, nlate, refused, skipped, ignored;
	unsigned		 relayed;	/* press */
	struct crown_press_list	 press;		/* .git/crown-press */
	long long		 at;		/* the message's delivery */
	char			 atstr[CROWN_CAL_TIME_LEN];
	const long long		*played;	/* inbox.h */
	size_t			 nplayed;
	const char		*played_deadline;
	struct crown_sigs	 sigs;		/* .git/crown-signatures */
	struct crown_buf	 mailboxes;	/* read, a line each */
};

/* What became of one message. */
struct verdict {
	const char			*what;	/* accepted late refused */
	int				 side;	/* or -1 */
	const struct crown_person	*player; /* to answer, or NULL */
	enum crown_proof		 proof;	/* how the sender proved it */
	struct crown_buf		 why;	/* the problems, a line each */
	char				 receipt[CROWN_SHA256_HEX];
	int				 turn;	/* for; 0: the next */
	const char			*hash;	/* the message's */
	struct crown_pgp_sig		 sig;	/* OPENPGP: its signature */
	bool				 press;	/* a press mail */
};

/* The log. */

static bool
seen(const struct crown_inbox *ib, const char *hash)
{
	return crown_received_has(&ib->seen, hash);
}

static void
append_log(struct crown_inbox *ib, const struct verdict *v,
    const struct crown_mail_raw *raw, const char *from)
{
	crown_buf_printf(&ib->log, "%s %s %d %s %s %s %s\n", ib->atstr,
	    v->what, v->turn > 0 ? v->turn : ib->s->turn + 1, v->side >= 0 ?
	    ib->s->sides[v->side].id : "-", v->receipt[0] != '\0' ?
	    v->receipt : "-", raw->hash, from != NULL ? from : "-");
	crown_received_add(&ib->seen, raw->hash);
}

/* The batch's lines at the end of the log, synced once. */
static int
write_log(struct crown_inbox *ib)
{
	char	*path;
	int	 fd, error = 0;

	if (ib->log.len == 0)
		return 0;
	path = xasprintf("%s/orders", ib->dir);
	error = crown_mkdirs(path, ib->d);
	free(path);
	path = xasprintf("%s/%s", ib->dir, LOG_NAME);
	fd = error == 0 ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
	if (error == 0 && (fd < 0 || write(fd, ib->log.data, ib->log.len) !=
	    (ssize_t)ib->log.len || fsync(fd) != 0)) {
		crown_diag_add(ib->d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(errno));
		error = CROWN_EWRITE;
	}
	if (fd >= 0)
		close(fd);
	free(path);
	ib->log.len = 0;
	return error;
}

/* The signature of v, which filed orders, remembered. */
static void
remember_sig(struct crown_inbox *ib, const struct verdict *v)
{
	if (v->proof == CROWN_PROOF_OPENPGP &&
	    crown_received_sig_used(&ib->sigs, v->sig.key) == NULL)
		crown_received_sig_add(&ib->sigs, v->sig.key, v->hash);
}

/* Can sub (orders/pending, orders/late, orders/rejected) be written
 * into?  Made when missing; noted when not. */
static int
dir_ok(struct crown_inbox *ib, const char *sub)
{
	struct stat	 st;
	char		*dir;
	int		 error;

	if (ib->dry)
		return 0;
	dir = xasprintf("%s/%s", ib->dir, sub);
	error = crown_mkdirs(dir, ib->d);
	if (error == 0 && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
		crown_diag_add(ib->d, dir, 0, 0, NULL, "cannot write: %s",
		    strerror(ENOTDIR));
		error = CROWN_EWRITE;
	}
	if (error != 0 && ib->error == 0)
		ib->error = error;
	free(dir);
	return error;
}

/* Hold data until the batch ends: a file named name, or a mail for the
 * outbox dated date. */
static void
hold(struct crown_inbox *ib, enum held_kind kind, const char *name,
    long long date, const char *data, size_t len)
{
	struct held	*h;

	if (ib->dry)
		return;
	crown_grow(&ib->held, &ib->held_cap, ib->nheld + 1,
	    sizeof(*ib->held));
	h = &ib->held[ib->nheld++];
	h->kind = kind;
	h->date = date;
	h->name = name != NULL ? xstrdup(name) : NULL;
	memset(&h->data, 0, sizeof(h->data));
	crown_buf_add(&h->data, data, len);
	ib->held_bytes += len;
}
/* Text helpers. */

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

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	crown_buf_printf(&v->why, "%s\n", s);
	free(s);
}

/* The receipt of the orders now filed for side, or "". */
static void
pending_receipt(const struct crown_inbox *ib, int side, char *out)
{
	memcpy(out, ib->pending[side].receipt, CROWN_SHA256_HEX);
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
	const char	*p, *e, *ind, *bar;
	char		*lead, *hang;

	crown_buf_puts(b, "");
	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		for (ind = p; ind < e && *ind == ' '; ind++)
			;
		/* the signature's mark; a short indented line (an order, a
		 * problem) or a quoted line with its caret, as it is */
		bar = g_strstr_len(p, e - p, " | ");
		if ((e - p == 3 && memcmp(p, "-- ", 3) == 0) || (ind > p &&
		    (e - p <= CROWN_MAIL_WIDTH || bar != NULL))) {
			crown_buf_add(b, p, (size_t)(e - p));
			crown_buf_puts(b, "\n");
			continue;
		}
		/* a long problem: filled, hanging under its first word */
		lead = xasprintf("%.*s", (int)(ind - p), p);
		hang = xasprintf("%.*s%s", (int)(ind - p), p, ind > p ?
		    "    " : "");
		crown_text_fill(b, ind, (size_t)(e - ind), ind > p ?
		    CROWN_MAIL_WIDTH : WRAP, lead, hang);
		free(lead);
		free(hang);
	}
}

/* crown check --mail: the answer as its reader sees it, set off by
 * four spaces from what the inbox prints of the mail. */
static void
show_answer(const char *to, const char *subject, const char *text)
{
	const char	*p, *e;

	printf("\n    To: %s\n    Subject: %s\n\n", to, subject);
	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		printf("%s%.*s\n", e > p ? "    " : "", (int)(e - p), p);
	}
	printf("\n");
}

static void
deliver(struct crown_inbox *ib, const struct crown_mail *m,
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
	if (error == 0 && ib->dry)
		show_answer(to.addr, subject, wrapped.data);
	else if (error == 0)
		hold(ib, HELD_ANSWER, NULL, ib->now, msg.data, msg.len);
	else
		crown_diag_add(ib->d, "outbox", 0, 0, NULL, "cannot build a "
		    "reply to %s", to.addr);
	if (error != 0 && ib->error == 0)
		ib->error = error;
	crown_buf_release(&wrapped);
	crown_buf_release(&msg);
	free(cc);
}

static void
signoff(struct crown_inbox *ib, struct crown_buf *b)
{
	crown_buf_printf(b, "\n-- \ncrown, umpiring %s\n", ib->s->name);
}

static void
reply_refused(struct crown_inbox *ib, const struct crown_mail *m,
    const struct verdict *v, bool late)
{
	struct crown_buf	 b = { 0 };
	char			 prev[CROWN_SHA256_HEX], *subject;
	const struct crown_side	*sd = v->side >= 0 ? &ib->s->sides[v->side] :
	    NULL;

	crown_buf_printf(&b, "Your mail \"%s\", read at %s, was not "
	    "%s:\n\n", m->subject, ib->nowstr, v->press ? "relayed" :
	    "accepted");
	indent(&b, v->why.data);
	if (late)
		crown_buf_printf(&b, "\nIt also came after the deadline, "
		    "%s.\n", ib->s->deadline);
	if (v->press)
		crown_buf_puts(&b, "\nNothing was relayed; a press mail is "
		    "never read as orders.\n");
	else if (sd != NULL) {
		pending_receipt(ib, v->side, prev);
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
	if (!late && !v->press)
		crown_buf_printf(&b, "Mend them and send them again%s%s.\n",
		    ib->s->deadline != NULL ? " before " : "",
		    ib->s->deadline != NULL ? ib->s->deadline : "");
	signoff(ib, &b);
	subject = v->press ? xasprintf("[%s] Press not relayed", ib->s->name) :
	    xasprintf("[%s] Turn %d: orders not accepted", ib->s->name,
	    ib->s->turn + 1);
	deliver(ib, m, v, subject, b.data, NULL, 0, false);
	free(subject);
	crown_buf_release(&b);
}

/* The side's orders filed (or held, when late): answer with the receipt
 * and the orders as filed. */
static void
reply_filed(struct crown_inbox *ib, const struct crown_mail *m,
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
		    sd->id, sd->name, ib->atstr, ib->s->deadline);
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
record(struct crown_inbox *ib, const struct crown_mail_raw *raw,
    const char *ref, const struct crown_mail *m, const struct verdict *v)
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
	crown_buf_printf(&b, "read: %s\ndelivered: %s\nmessage: %s\n"
	    "sha256: %s\nsize: %zu\n", ib->nowstr, ib->atstr, ref, raw->hash,
	    raw->size);
	if (m != NULL)
		crown_buf_printf(&b, "from: %s\nsubject: %s\nmessage-id: %s\n",
		    m->from, m->subject, m->message_id != NULL ?
		    m->message_id : "-");
	crown_buf_printf(&b, "answered: %s\n", v->player != NULL ?
	    v->player->email : "no (not a player)");
	crown_buf_puts(&b, "problems:\n");
	indent(&b, v->why.data);
	clean = crown_mail_printable(b.data, true);
	if (dir_ok(ib, REJECTED_DIR) == 0)
		hold(ib, HELD_RECORD, name, 0, clean, strlen(clean));
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
find_player(const struct crown_inbox *ib, const char *addr, int side)
{
	const struct crown_side	*sd = &ib->s->sides[side];
	size_t			 j;

	for (j = 0; j < sd->nplayers; j++)
		if (sd->players[j].email != NULL &&
		    strcasecmp(sd->players[j].email, addr) == 0)
			return (int)j;
	return -1;
}

/*
 * Who sent m: v->player is the sender's entry in the roster (the first
 * found) and v->side its side when the sender plays only one.  false,
 * with the reason in v, for a stranger.
 */
static bool
identify(const struct crown_inbox *ib, const struct crown_mail *m,
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
signed_by(const struct crown_inbox *ib, const struct crown_mail *m,
    struct verdict *v, const char *fpr)
{
	char	*home, *msg;
	bool	 ok;

	home = crown_roster_keyring(ib->dir);
	ok = crown_pgp_verify(&msg, &v->sig, home, fpr, m->raw,
	    m->raw_len) == 0;
	if (!ok)
		why(v, "%s", msg);
	free(msg);
	free(home);
	return ok;
}

/* "turn N was played at TIME", or the campaign's beginning for turn 0. */
static char *
played_at(const struct crown_inbox *ib, size_t k)
{
	char	when[CROWN_CAL_TIME_LEN];

	crown_cal_format_time(when, sizeof(when), ib->played[k]);
	return k == 0 ? xasprintf("the campaign began at %s", when) :
	    xasprintf("turn %zu was played at %s", k, when);
}

/*
 * A signature carries orders once, and only for a turn after the one
 * played last when it was made (doc/umpire.md, "Replays"): false, with
 * the reason in v, for a replay.  The same message read again (by a
 * run after one killed before it logged it) is no replay.
 */
static bool
fresh(const struct crown_inbox *ib, struct verdict *v)
{
	char		 made[CROWN_CAL_TIME_LEN], *last;
	const char	*used;
	size_t		 k = ib->nplayed - 1;

	if (ib->nplayed > 0 && v->sig.created <= ib->played[k]) {
		crown_cal_format_time(made, sizeof(made), v->sig.created);
		last = played_at(ib, k);
		why(v, "a replay of an old mail: it was signed at %s, before "
		    "%s, so it cannot carry orders for turn %zu; sign your "
		    "orders again and send them", made, last, k + 1);
		free(last);
		return false;
	}
	used = crown_received_sig_used(&ib->sigs, v->sig.key);
	if (used != NULL && strcmp(used, v->hash) != 0) {
		why(v, "a replay: this signature carried orders before, in "
		    "another mail, and a signature is used once; sign your "
		    "orders again to send them again");
		return false;
	}
	return true;
}

/*
 * Was the message delivered while a turn now played was open, at or
 * before its commit (doc/umpire.md, "When mail counts")?  Then it is for
 * that turn, not the next, which it was not written for: true, with the
 * reason in v; v->what is "missed" when it came in time for the turn
 * played last, for the umpire to rerun that turn with it.
 */
static bool
played(const struct crown_inbox *ib, const struct crown_mail *m,
    struct verdict *v)
{
	const char	*dl = ib->played_deadline;
	char		*last;
	long long	 t;
	size_t		 k, n = ib->nplayed - 1;
	bool		 late;

	if (ib->nplayed == 0 || ib->at > ib->played[n])
		return false;
	if (!identify(ib, m, v))
		return true;
	for (k = 0; k < n && ib->played[k] < ib->at; k++)
		;
	last = played_at(ib, k);
	late = dl != NULL && dl[0] != '\0' &&
	    (crown_cal_parse_time(&t, dl) != 0 || ib->at > t);
	if (k == 0 || k < n || late)
		why(v, "the mail was delivered at %s, before %s%s%s: it "
		    "cannot carry orders for turn %d; send them again",
		    ib->atstr, last, k == n && late ? ", and after its "
		    "deadline, " : "", k == n && late ? dl : "",
		    ib->s->turn + 1);
	else {
		v->what = "missed";
		v->turn = (int)k;
		why(v, "the mail was delivered at %s, while turn %zu was "
		    "open%s%s%s, but %s, before crown read it: it is not "
		    "filed for turn %d, which it was not written for; ask "
		    "the umpire to rerun turn %zu with it", ib->atstr, k,
		    dl != NULL && dl[0] != '\0' ? " (its deadline: " : "",
		    dl != NULL ? dl : "", dl != NULL && dl[0] != '\0' ?
		    ")" : "", last, ib->s->turn + 1, k);
	}
	free(last);
	return true;
}

/*
 * Does the sender prove to be v->player as strongly as the roster asks
 * (roster.h)?  v->proof is what was proved; false, with the reason in
 * v, when it falls short.  A state of a campaign made before issue 19
 * may still carry a password_sha256, read as a password.
 */
static bool
prove(const struct crown_inbox *ib, const struct crown_mail *m,
    struct verdict *v, const char *pw)
{
	const struct crown_cred	*c;

	c = crown_roster_find(&ib->roster, v->player->email);
	v->proof = CROWN_PROOF_FROM;
	switch (crown_roster_required(c)) {
	case CROWN_PROOF_OPENPGP:
		if (!signed_by(ib, m, v, c->openpgp) || !fresh(ib, v))
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

/* The proof the orders filed for side were sent with (the word in
 * orders/pending/SIDE.proof beside their receipt); FROM when there is
 * none for these orders (filed by hand), NONE when none are filed. */
static enum crown_proof
pending_proof(const struct crown_inbox *ib, int side)
{
	return ib->pending[side].proof;
}
/*
 * Authentication per player, consistent per side (doc/umpire.md): the
 * orders filed for a side are replaced only by a sender who proved to
 * be a player at least as strongly as the one who sent them, so that a
 * side is as safe as its best-kept player and not its weakest.
 */
static bool
as_strong(const struct crown_inbox *ib, struct verdict *v)
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
check(struct crown_inbox *ib, const struct crown_mail *m, struct verdict *v)
{
	struct crown_orders_context ctx = { ib->s->name, ib->s->turn + 1,
	    true };
	struct crown_diags	 d = { 0 };
	struct crown_orders_read r;
	struct crown_orders	*o = NULL;
	char			*file = NULL, *pw = NULL, *line;
	size_t			 i;
	bool			 yaml = false, found = true;
	int			 side, player, error;

	if (!identify(ib, m, v))
		return NULL;
	if (ib->s->last_turn != 0 && ib->s->turn >= ib->s->last_turn) {
		why(v, "the game is over: turn %d was its last",
		    ib->s->last_turn);
		return NULL;
	}
	/* the orders: one attached file, else the text (body.c); the same
	 * reader as crown check's, a NUL byte left to it to refuse at its
	 * place */
	if (!crown_mail_has_orders_text(&v->why, m))
		return NULL;
	error = crown_mail_read_orders(&r, &file, &found, m, &ctx, &d);
	o = r.orders;
	pw = r.password;
	yaml = r.yaml;
	r.orders = NULL;
	r.password = NULL;
	crown_orders_read_release(&r);
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
	if (!found)
		crown_mail_not_read(&v->why, m);
out:
	crown_diags_release(&d);
	crown_orders_free(o);
	free(file);
	free(pw);
	return NULL;
}

/* addr's count of answers for the turn, made 0 when new. */
/* May crown answer addr once more for this turn?  Counted. */
static bool
may_answer(struct crown_inbox *ib, const char *addr)
{
	return crown_received_answer(&ib->answers, addr, ib->max_answers);
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
over_limit(struct crown_inbox *ib, const char *addr)
{
	unsigned	n = crown_received_answered(&ib->answers, addr);

	printf("%u answer%s to %s this turn: --max-answers %u", n,
	    n == 1 ? "" : "s", addr, ib->max_answers);
}

/* File the orders of v's side, and beside them how their sender was
 * identified (pending_proof), in memory until the batch ends. */
static void
file_orders(struct crown_inbox *ib, const struct verdict *v,
    const struct crown_buf *yaml, bool late)
{
	struct filed	*f = late ? &ib->late[v->side] : &ib->pending[v->side];

	memcpy(f->receipt, v->receipt, CROWN_SHA256_HEX);
	f->proof = v->proof;
	f->yaml.len = 0;
	crown_buf_add(&f->yaml, yaml->data, yaml->len);
	f->changed = true;
}
static int	flush(struct crown_inbox *);

/* A refused message: said, answered when it may be, kept, logged. */
static void
refuse(struct crown_inbox *ib, const struct crown_mail_raw *raw,
    const char *ref, const struct crown_mail *m, struct verdict *v,
    bool late)
{
	bool	answer;

	ib->refused++;
	answer = v->player != NULL && may_answer(ib, v->player->email);
	if (answer)
		printf("%s: refused, answered to %s:\n", ref,
		    v->player->email);
	else if (v->player != NULL) {
		printf("%s: refused, not answered (", ref);
		over_limit(ib, v->player->email);
		printf("):\n");
	} else
		printf("%s: refused, not answered (not from a player):\n",
		    ref);
	print_why(v);
	/* only what is answered is kept: mail from strangers, or past the
	 * limit of answers, costs a line of the log and no more */
	if (answer) {
		reply_refused(ib, m, v, late);
		record(ib, raw, ref, m, v);
	}
	append_log(ib, v, raw, m != NULL ? m->from : NULL);
}

/*
 * A press mail (press.h), never read as orders: the sender identified
 * and proved as for orders, then its "to:" line and text read, its
 * mails and file held, and the sender answered.  A press kept already
 * (a run killed before it logged the mail) is not relayed again.
 */
static void
press(struct crown_inbox *ib, const struct crown_mail_raw *raw,
    const char *ref, const struct crown_mail *m, struct verdict *v)
{
	struct crown_press	 p = { 0 };
	struct crown_outputs	 mails = { 0 };
	struct crown_buf	 b = { 0 }, why = { 0 };
	char			*pw = NULL, *subject;
	size_t			 i, sent = 0;
	int			 error;

	v->press = true;
	/* who sent it first, as for orders; then what is wrong with it */
	if (identify(ib, m, v)) {
		error = crown_press_read(&p, &pw, &why, ib->s, v->side, m);
		if (prove(ib, m, v, pw) && error != 0)
			crown_buf_puts(&v->why, why.data);
	}
	if (v->why.len > 0) {
		refuse(ib, raw, ref, m, v, false);
		goto cleanup;
	}
	v->what = "press";
	ib->relayed++;
	if (crown_press_find(&ib->press, raw->hash) != NULL) {
		printf("%s: press from side %s relayed before\n", ref, p.from);
		append_log(ib, v, raw, m->from);
		goto cleanup;
	}
	if ((error = crown_press_make(&p, &mails, &b, ib->s, v->player,
	    raw->hash, ib->at, ib->press.n + 1, &sent)) != 0) {
		ib->error = ib->error != 0 ? ib->error : error;
		goto cleanup;
	}
	for (i = 0; i < mails.n; i++)
		hold(ib, HELD_RELAY, NULL, ib->at, mails.v[i].data.data,
		    mails.v[i].data.len);
	hold(ib, HELD_PRESS, p.name, 0, b.data, b.len);
	remember_sig(ib, v);
	printf("%s: press from side %s, relayed in %zu mail%s\n", ref,
	    p.from, sent, sent == 1 ? "" : "s");
	if (may_answer(ib, v->player->email)) {
		b.len = 0;
		crown_press_answer(&b, &p, ib->s, sent, m);
		signoff(ib, &b);
		subject = xasprintf("[%s] Press relayed: %s", ib->s->name,
		    p.subject);
		deliver(ib, m, v, subject, b.data, NULL, 0, false);
		free(subject);
	}
	append_log(ib, v, raw, m->from);
	crown_press_take(&ib->press, &p);
cleanup:
	crown_outputs_release(&mails);
	crown_buf_release(&why);
	crown_buf_release(&b);
	crown_press_release(&p);
	free(pw);
}

static int
process(void *arg, const struct crown_mail_raw *raw)
{
	struct crown_inbox		*ib = arg;
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
	v.hash = raw->hash;
	crown_buf_puts(&v.why, "");
	/* never later than it is read */
	ib->at = crown_mail_received(raw, ib->now);
	crown_cal_format_time(ib->atstr, sizeof(ib->atstr), ib->at);
	late = ib->has_deadline && ib->at > ib->deadline;
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
	if (crown_press_subject(m->subject, NULL)) {
		press(ib, raw, ref, m, &v);
		goto cleanup;
	}
	if (played(ib, m, &v) || (o = check(ib, m, &v)) == NULL)
		goto refused;
	if (crown_shorthand_to_yaml(&yaml, o) != 0) {
		why(&v, "internal error: the orders cannot be written");
		goto refused;
	}
	crown_mail_sha256_hex(v.receipt, yaml.data, yaml.len);
	pending_receipt(ib, v.side, prev);
	name = xasprintf("%s.yaml", ib->s->sides[v.side].id);
	if (dir_ok(ib, late ? LATE_DIR : PENDING_DIR) != 0) {
		/* not answered, not logged: read again next time */
		printf("%s: not filed: cannot write %s/%s\n", ref,
		    late ? LATE_DIR : PENDING_DIR, name);
		free(name);
		goto cleanup;
	}
	file_orders(ib, &v, &yaml, late);
	remember_sig(ib, &v);
	if (late) {
		v.what = "late";
		ib->nlate++;
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
	refuse(ib, raw, ref, m, &v, late);
cleanup:
	free(ref);
	crown_buf_release(&yaml);
	crown_buf_release(&v.why);
	crown_orders_free(o);
	crown_mail_free(m);
	/* a run that cannot write stops: what it did not write is read
	 * again the next time */
	return ib->held_bytes >= BATCH_BYTES ? flush(ib) : 0;
}

/* Opening and closing. */

/* What is filed for each side now: its receipt, hashed once a run, and
 * the proof it came with. */
static void
load_filed(struct crown_inbox *ib)
{
	struct crown_diags	 d = { 0 };
	struct filed		*f;
	char			*path, *buf;
	size_t			 i, len, n;
	enum crown_proof	 p;

	ib->pending = xcalloc(ib->s->nsides ? ib->s->nsides : 1,
	    sizeof(*ib->pending));
	ib->late = xcalloc(ib->s->nsides ? ib->s->nsides : 1,
	    sizeof(*ib->late));
	for (i = 0; i < ib->s->nsides; i++) {
		f = &ib->pending[i];
		f->proof = CROWN_PROOF_NONE;
		path = xasprintf("%s/%s/%s.yaml", ib->dir, PENDING_DIR,
		    ib->s->sides[i].id);
		if (crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX,
		    &d) == 0) {
			crown_mail_sha256_hex(f->receipt, buf, len);
			f->proof = CROWN_PROOF_FROM;
			free(buf);
		}
		free(path);
		if (f->receipt[0] == '\0')
			continue;
		path = xasprintf("%s/%s/%s.proof", ib->dir, PENDING_DIR,
		    ib->s->sides[i].id);
		if (crown_read_file(&buf, &len, path, 4096, &d) == 0) {
			n = strlen(f->receipt);
			if (len > n + 1 && memcmp(buf, f->receipt, n) == 0 &&
			    buf[n] == ' ') {
				buf[strcspn(buf, "\n")] = '\0';
				p = crown_proof_parse(buf + n + 1);
				f->proof = p == CROWN_PROOF_NONE ?
				    CROWN_PROOF_FROM : p;
			}
			free(buf);
		}
		free(path);
	}
	crown_diags_release(&d);
}

/* One file, synced, in place of the old (crown_put_file). */
static int
put(struct crown_inbox *ib, const char *sub, const char *name,
    const char *data, size_t len)
{
	char	*path;
	int	 e;

	path = xasprintf("%s/%s/%s", ib->dir, sub, name);
	if ((e = crown_put_file(path, data, len, 0644, true)) != 0)
		crown_diag_add(ib->d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(e));
	free(path);
	return e != 0 ? CROWN_EWRITE : 0;
}

/* The orders filed in this batch, each file once; false when one
 * cannot be written. */
static bool
flush_filed(struct crown_inbox *ib, struct filed *v, const char *sub)
{
	char	*name, *text, *dir;
	size_t	 i;
	bool	 any = false, ok = true;

	for (i = 0; i < ib->s->nsides; i++) {
		if (!v[i].changed)
			continue;
		v[i].changed = false;
		any = true;
		name = xasprintf("%s.yaml", ib->s->sides[i].id);
		ok = put(ib, sub, name, v[i].yaml.data, v[i].yaml.len) == 0 &&
		    ok;
		free(name);
		if (v != ib->pending)
			continue;
		name = xasprintf("%s.proof", ib->s->sides[i].id);
		text = xasprintf("%s %s\n", v[i].receipt,
		    crown_proof_word(v[i].proof));
		ok = put(ib, sub, name, text, strlen(text)) == 0 && ok;
		free(text);
		free(name);
	}
	if (any) {
		dir = xasprintf("%s/%s", ib->dir, sub);
		(void)crown_sync_path(dir);
		free(dir);
	}
	return ok;
}

/*
 * The end of a batch: the orders filed, then the records of refusals
 * and the answers, then the log.  When the orders cannot be written,
 * nothing after them is: the batch's mail is read again next time.
 */
static int
flush(struct crown_inbox *ib)
{
	struct held	*h;
	char		*outbox, *dir;
	size_t		 i;
	bool	 ok, records = false, answers = false;
	int	 error = 0;

	if (ib->dry)
		return 0;
	ok = flush_filed(ib, ib->pending, PENDING_DIR);
	ok = flush_filed(ib, ib->late, LATE_DIR) && ok;
	/* a signature is remembered once what it filed is on disk */
	ok = ok && crown_received_sigs_write(&ib->sigs, ib->dir,
	    ib->d) == 0;
	if (!ok)
		error = CROWN_EWRITE;
	/* counted before they go: a count lost would let a loop go on */
	if (ok && crown_received_answers_write(&ib->answers, ib->dir,
	    ib->s->turn, ib->d) != 0) {
		ok = false;
		error = CROWN_EWRITE;
	}
	ib->sigs.batch.len = 0;
	outbox = xasprintf("%s/outbox", ib->dir);
	for (i = 0; i < ib->nheld && error == 0; i++) {
		h = &ib->held[i];
		if (h->kind == HELD_RECORD) {
			if (put(ib, REJECTED_DIR, h->name, h->data.data,
			    h->data.len) != 0)
				error = CROWN_EWRITE;
			records = true;
		} else if (h->kind == HELD_PRESS)
			error = crown_press_keep(ib->dir, outbox, h->name,
			    &h->data, ib->d);
		else {
			if (crown_maildir_deliver(outbox, h->data.data,
			    h->data.len, h->date, NULL, ib->d) != 0)
				error = CROWN_EWRITE;
			answers = true;
		}
	}
	if (records) {
		dir = xasprintf("%s/%s", ib->dir, REJECTED_DIR);
		(void)crown_sync_path(dir);
		free(dir);
	}
	if (answers) {
		dir = xasprintf("%s/new", outbox);
		(void)crown_sync_path(dir);
		free(dir);
	}
	free(outbox);
	for (i = 0; i < ib->nheld; i++) {
		free(ib->held[i].name);
		crown_buf_release(&ib->held[i].data);
	}
	ib->nheld = ib->held_bytes = 0;
	/* a mail is logged as read only once all of its batch is written,
	 * its answer too: else the next run reads it again (filing the
	 * same orders again changes nothing; an answer may come twice, never
	 * not at all) */
	if (error == 0 && write_log(ib) != 0)
		error = CROWN_EWRITE;
	ib->log.len = 0;
	if (error != 0 && ib->error == 0)
		ib->error = error;
	return error;
}

int
crown_inbox_open(struct crown_inbox **out,
    const struct crown_inbox_options *opt, struct crown_diags *d)
{
	struct crown_inbox	*ib;
	char			*path;
	int			 error;

	*out = ib = xcalloc(1, sizeof(*ib));
	ib->dir = opt->dir;
	ib->s = opt->s;
	ib->rules = opt->rules;
	ib->d = d;
	ib->dry = opt->dry;
	ib->now = opt->now;
	ib->max = opt->max_bytes;
	ib->max_answers = opt->max_answers;
	ib->played = opt->played;
	ib->nplayed = opt->nplayed;
	ib->played_deadline = opt->played_deadline;
	crown_cal_format_time(ib->nowstr, sizeof(ib->nowstr), ib->now);
	if (ib->s->deadline != NULL &&
	    crown_cal_parse_time(&ib->deadline, ib->s->deadline) == 0)
		ib->has_deadline = true;
	ib->umpire = crown_mail_umpire(ib->s);
	path = crown_roster_path(ib->dir);
	error = crown_roster_load(&ib->roster, path, d);
	free(path);
	load_filed(ib);
	/* crown check --mail judges a message read before all the same,
	 * and answers it however many answers the turn has had */
	if (!ib->dry) {
		crown_received_load(&ib->seen, ib->dir);
		crown_received_answers_load(&ib->answers, ib->dir,
		    ib->s->turn);
	}
	crown_received_sigs_load(&ib->sigs, ib->dir);
	crown_press_load(&ib->press, ib->dir, d);
	return error;
}

int
crown_inbox_read(struct crown_inbox *ib, const char *mailbox,
    struct crown_diags *d)
{
	char	*abs;
	int	 error;

	/* a message at a time: a mailbox of any size fits */
	error = crown_mail_each(mailbox, ib->max, process, ib, d);
	/* for crown status and crown turn to count what is not read yet,
	 * with the limit that decides what of a message is hashed */
	if (error == 0 && !ib->dry && (abs = realpath(mailbox, NULL)) !=
	    NULL) {
		if (strchr(abs, '\n') == NULL)
			crown_buf_printf(&ib->mailboxes, "%zu %s\n", ib->max,
			    abs);
		free(abs);
	}
	return error;
}

int
crown_inbox_read_message(struct crown_inbox *ib, const char *path,
    struct crown_diags *d)
{
	struct crown_mail_raw	 raw;
	struct stat		 st;
	const char		*base;
	char			*buf;
	size_t			 len, skip = 0;
	long long		 mtime;
	int			 error;

	if ((error = crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX,
	    d)) != 0)
		return error;
	mtime = stat(path, &st) == 0 ? (long long)st.st_mtime : 0;
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	/* a message saved from an mbox begins with its "From " line */
	if (len >= 5 && memcmp(buf, "From ", 5) == 0) {
		while (skip < len && buf[skip] != '\n')
			skip++;
		if (skip < len)
			skip++;
	}
	memset(&raw, 0, sizeof(raw));
	/* delivered when a mailbox would say: the From_ line's date, the
	 * Maildir name's, else the file's time */
	raw.delivered = skip > 0 ? crown_mbox_time(buf, skip,
	    crown_maildir_time(base, mtime)) : crown_maildir_time(base, mtime);
	raw.ref = (char *)path;
	raw.data = buf + skip;
	raw.size = len - skip;
	/* read as crown_mail_each reads a message over the limit */
	raw.len = raw.size > ib->max && raw.size > CROWN_MAIL_HEAD_BYTES ?
	    CROWN_MAIL_HEAD_BYTES : raw.size;
	crown_mail_sha256_hex(raw.hash, raw.data, raw.len);
	error = process(ib, &raw);
	free(buf);
	return error;
}

void
crown_inbox_summary(const struct crown_inbox *ib)
{
	printf("%zu message%s: %u accepted, %u late, %u refused, %u already "
	    "read", ib->messages, ib->messages == 1 ? "" : "s", ib->accepted,
	    ib->nlate, ib->refused, ib->skipped);
	if (ib->ignored > 0)
		printf(", %u ignored", ib->ignored);
	if (ib->relayed > 0)
		printf(", %u press relayed", ib->relayed);
	printf("\n");
}

int
crown_inbox_close(struct crown_inbox *ib, bool *accepted_all,
    struct crown_diags *d)
{
	size_t	i;
	int	error;

	if (ib == NULL)
		return 0;
	flush(ib);
	if (accepted_all != NULL)
		*accepted_all = ib->accepted + ib->relayed == ib->messages;
	if (ib->error == 0)
		ib->error = crown_received_mailboxes_write(ib->dir,
		    &ib->mailboxes, ib->d);
	error = ib->error;
	for (i = 0; i < ib->s->nsides; i++) {
		crown_buf_release(&ib->pending[i].yaml);
		crown_buf_release(&ib->late[i].yaml);
	}
	free(ib->pending);
	free(ib->late);
	free(ib->held);
	crown_buf_release(&ib->log);
	crown_received_answers_release(&ib->answers);
	crown_buf_release(&ib->mailboxes);
	crown_received_sigs_release(&ib->sigs);
	crown_received_release(&ib->seen);
	crown_roster_release(&ib->roster);
	crown_press_list_release(&ib->press);
	free(ib);
	return error;
}
