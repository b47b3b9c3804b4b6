/*
 * remind.c: crown remind's policy (remind.h).  Which sides are in is
 * crown status's finding (status.c), so a reminder never goes to a side
 * whose orders crown turn would play.  The record of the reminders sent,
 * .git/crown-reminders, has a line "DEADLINE SIDE" a side reminded; only
 * the current deadline's lines are kept, so a deadline moved by crown
 * deadline or crown turn is a new one, of which each side is reminded
 * again.  The mails go first and the record after: of a reminder twice
 * and none, twice is the lesser harm.  While crown inbox has mail to
 * read that came by the deadline, no one is reminded: a side's orders
 * may be in it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crown/mail.h"
#include "crown/outputs.h"
#include "crown/remind.h"
#include "crown/reminder.h"
#include "crown/roster.h"
#include "crown/status.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define REMINDERS_MAX	((size_t)1024 * 1024)

/* The record's lines of deadline (the whole file, when it reads), one
 * "DEADLINE SIDE\n" after another, into out. */
static void
record_load(struct crown_buf *out, const char *path, const char *deadline)
{
	struct crown_diags	 quiet = { 0 };
	char			*buf, *line, *next, *sp;
	size_t			 len;

	crown_buf_puts(out, "");
	if (access(path, F_OK) != 0 || crown_read_file(&buf, &len, path,
	    REMINDERS_MAX, &quiet) != 0) {
		crown_diags_release(&quiet);
		return;
	}
	/* a line cut short by a kill has no newline: it is none */
	for (line = buf; (next = strchr(line, '\n')) != NULL; line = next) {
		*next++ = '\0';
		if ((sp = strchr(line, ' ')) == NULL ||
		    (size_t)(sp - line) != strlen(deadline) ||
		    strncmp(line, deadline, strlen(deadline)) != 0 ||
		    sp[1] == '\0' || strchr(sp + 1, ' ') != NULL)
			continue;
		crown_buf_printf(out, "%s\n", line);
	}
	free(buf);
}

/* Is side in the record? */
static bool
recorded(const struct crown_buf *rec, const char *deadline, const char *side)
{
	char		*want = xasprintf("%s %s\n", deadline, side);
	const char	*at, *next;
	bool		 found = false;

	for (at = rec->data; at != NULL && *at != '\0' && !found; at = next) {
		found = strncmp(at, want, strlen(want)) == 0;
		next = strchr(at, '\n');
		next = next != NULL ? next + 1 : NULL;
	}
	free(want);
	return found;
}

/*
 * Is player p of side sd to be reminded?  Every player with an address
 * is; this is the one place that chooses, for a player away (absences)
 * to be left out.
 */
static bool
recipient(const struct crown_state *s, const struct crown_side *sd,
    const struct crown_person *p, long long now)
{
	(void)s;
	(void)sd;
	(void)now;
	return p->email != NULL && p->email[0] != '\0';
}

/* What p proves with: the roster's credentials, else an old campaign's
 * password hash in the state. */
static enum crown_proof
proof_of(const struct crown_roster *ro, const struct crown_person *p)
{
	enum crown_proof	pr;

	pr = crown_roster_required(crown_roster_find(ro, p->email));
	if (pr == CROWN_PROOF_FROM && p->password_sha256 != NULL)
		pr = CROWN_PROOF_PASSWORD;
	return pr;
}

/* The reminders of side sd into mails; the addresses in *to. */
static int
remind_side(struct crown_outputs *mails, struct crown_buf *to,
    const struct crown_state *s, const struct crown_rules *rules,
    const struct crown_side *sd, const struct crown_roster *ro,
    long long now, long long span, struct crown_diags *d)
{
	const struct crown_person *p;
	size_t			 j, sent;
	int			 error = 0;

	for (j = 0; j < sd->nplayers && error == 0; j++) {
		p = &sd->players[j];
		if (!recipient(s, sd, p, now))
			continue;
		sent = 0;
		error = crown_mail_reminder(mails, s, rules, sd, p->email,
		    proof_of(ro, p), now, span, &sent, d);
		if (error == 0 && sent > 0)
			crown_buf_printf(to, "%s%s", to->len > 0 ? ", " : "",
			    p->email);
	}
	return error;
}

/* Deliver mails into DIR/outbox, synced. */
static int
deliver(const struct crown_outputs *mails, const char *dir,
    struct crown_diags *d)
{
	char	*outbox, *p;
	size_t	 i;
	int	 error = 0;

	if (mails->n == 0)
		return 0;
	outbox = xasprintf("%s/outbox", dir);
	for (i = 0; i < mails->n && error == 0; i++)
		error = crown_maildir_put(outbox, mails->v[i].name,
		    mails->v[i].data.data, mails->v[i].data.len, d);
	p = xasprintf("%s/new", outbox);
	if (error == 0 && crown_sync_path(p) != 0) {
		crown_diag_add(d, p, 0, 0, NULL, "cannot sync: %s",
		    strerror(errno));
		error = CROWN_EWRITE;
	}
	free(p);
	free(outbox);
	return error != 0 ? CROWN_EWRITE : 0;
}

int
crown_campaign_remind(struct crown_reminders *out, const char *dir,
    const struct crown_state *s, const struct crown_rules *rules,
    long long now, long long before, struct crown_diags *d)
{
	struct crown_orders_status st;
	struct crown_outputs	 mails = { 0 };
	struct crown_roster	 ro = { 0 };
	struct crown_buf	 rec = { 0 }, to = { 0 };
	char			*path = NULL, *roster;
	size_t			 i, n0, recn;
	int			 error, e;

	memset(out, 0, sizeof(*out));
	crown_campaign_status(&st, dir, s, now);
	out->span = st.span;
	out->due = !st.over && st.deadline && !st.passed && st.span <= before;
	if (out->due && st.nin < st.nside && st.unread > 0) {
		out->unread = st.unread;
		out->mailboxes = xstrdup(st.mailboxes);
	}
	if (!out->due || st.nin == st.nside || out->unread > 0) {
		crown_campaign_status_release(&st);
		return 0;
	}
	roster = crown_roster_path(dir);
	error = crown_roster_load(&ro, roster, d);
	free(roster);
	if (error != 0)
		goto cleanup;
	path = crown_roster_private(dir, CROWN_REMINDERS_FILE);
	record_load(&rec, path, s->deadline);
	recn = rec.len;
	out->v = xcalloc(s->nsides ? s->nsides : 1, sizeof(*out->v));
	for (i = 0; i < s->nsides && error == 0; i++) {
		if (st.side[i].in == CROWN_ORDERS_IN ||
		    recorded(&rec, s->deadline, s->sides[i].id))
			continue;
		n0 = mails.n;
		to.len = 0;
		crown_buf_puts(&to, "");
		error = remind_side(&mails, &to, s, rules, &s->sides[i], &ro,
		    now, st.span, d);
		if (error != 0 || mails.n == n0)
			continue;
		out->v[out->n].side = s->sides[i].id;
		out->v[out->n++].to = xstrdup(to.data);
		crown_buf_printf(&rec, "%s %s\n", s->deadline,
		    s->sides[i].id);
	}
	if (error != 0 || (error = deliver(&mails, dir, d)) != 0)
		goto cleanup;
	out->mails = mails.n;
	if (rec.len > recn && (e = crown_put_file(path, rec.data, rec.len,
	    0600, true)) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot write the record "
		    "of the reminders: %s", strerror(e));
		error = CROWN_EWRITE;
	}
cleanup:
	free(path);
	crown_buf_release(&to);
	crown_buf_release(&rec);
	crown_outputs_release(&mails);
	crown_roster_release(&ro);
	crown_campaign_status_release(&st);
	return error;
}

void
crown_campaign_reminders_release(struct crown_reminders *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].to);
	free(r->v);
	free(r->mailboxes);
	memset(r, 0, sizeof(*r));
}
