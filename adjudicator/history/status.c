/*
 * status.c: where the orders of the next turn stand (crown status).
 *
 * The orders in are the files of orders/pending/ as crown turn DIR plays
 * them: any *.yaml there, for the side it names.  Their receipt is the
 * SHA-256 of the file, and when they came is read from orders/inbox.log
 * (a file put there by hand has no time).  The mail crown inbox has not
 * read yet is counted in the mailboxes it last read (inbox.h), and the
 * mail it found delivered in time for the turn played last, but read
 * after, is listed from the log.  The late orders and the proofs
 * beside the pending ones are classed as tidy.c does: kept for the
 * turn, or obsolete, to be removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/status.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/*
 * The line of orders/inbox.log at *at, split into its first seven
 * fields f (in *copy, which the caller frees); *at moves to the next.
 * False for a line of fewer fields.
 */
static bool
log_line(const char **at, char **copy, char *f[7])
{
	const char	*next = strchr(*at, '\n');
	char		*p;
	size_t		 k;

	*copy = next != NULL ? xstrndup(*at, (size_t)(next - *at)) :
	    xstrdup(*at);
	*at = next != NULL ? next + 1 : NULL;
	p = *copy;
	for (k = 0; k < 7; k++)
		if ((f[k] = strsep(&p, " ")) == NULL)
			break;
	return k == 7;
}

/* The last line of orders/inbox.log with this verdict, side and turn
 * (and receipt, when given): its time, or NULL (caller frees). */
static char *
log_time(const char *log, const char *verdict, const char *side, int turn,
    const char *receipt)
{
	const char	*line;
	char		*copy, *f[7], *found = NULL;

	for (line = log; line != NULL && *line != '\0'; free(copy)) {
		if (log_line(&line, &copy, f) && strcmp(f[1], verdict) == 0 &&
		    strcmp(f[3], side) == 0 &&
		    strtol(f[2], NULL, 10) == turn &&
		    (receipt == NULL || strcmp(f[4], receipt) == 0)) {
			free(found);
			found = xstrdup(f[0]);
		}
	}
	return found;
}

/* The log's "missed" mail of turn: delivered in time for it, read after
 * it was played (inbox.c). */
static void
log_missed(struct crown_orders_status *st, const char *log, int turn)
{
	struct crown_missed_mail *mm;
	const char		*line;
	char			*copy, *f[7];
	size_t			 cap = 0;

	for (line = log; line != NULL && *line != '\0'; free(copy)) {
		if (!log_line(&line, &copy, f) ||
		    strcmp(f[1], "missed") != 0 ||
		    strtol(f[2], NULL, 10) != turn)
			continue;
		crown_grow(&st->missed, &cap, st->nmissed + 1,
		    sizeof(*st->missed));
		mm = &st->missed[st->nmissed++];
		mm->when = xstrdup(f[0]);
		mm->side = xstrdup(f[3]);
		mm->from = xstrdup(f[6]);
	}
}

/* The pending files of dir, read as crown turn reads them (problems
 * kept quiet). */
static void
load_pending(struct crown_orders_status *st, const char *dir,
    const struct crown_state *s)
{
	struct crown_orders_context ctx = { s->name, s->turn + 1, false };
	struct crown_orders_read r;
	struct crown_diags	 quiet = { 0 };
	struct crown_pending_file *v;
	char			**paths, *buf;
	size_t			 i, len, skip, n;

	crown_campaign_pending(&paths, &n, dir);
	v = xcalloc(n ? n : 1, sizeof(*v));
	skip = strlen(dir) + (dir[strlen(dir) - 1] == '/' ? 0 : 1);
	for (i = 0; i < n; i++) {
		v[i].path = xstrdup(paths[i] + skip);
		v[i].side = -1;
		if (crown_read_file(&buf, &len, paths[i],
		    crown_ylimits_orders.max_bytes, &quiet) == 0) {
			crown_mail_sha256_hex(v[i].rec, buf, len);
			crown_orders_read(&r, paths[i], buf, len, &ctx,
			    &quiet);
			v[i].o = r.orders;
			r.orders = NULL;
			crown_orders_read_release(&r);
			free(buf);
		}
		crown_diags_release(&quiet);
		free(paths[i]);
	}
	free(paths);
	st->file = v;
	st->nfile = n;
}

/* Does the file look like side id's (its side, or else its name)? */
static bool
is_sides(const struct crown_pending_file *f, const char *id)
{
	const char	*base;
	size_t		 len;

	if (f->o != NULL && f->o->side != NULL)
		return strcmp(f->o->side, id) == 0;
	base = strrchr(f->path, '/');
	base = base != NULL ? base + 1 : f->path;
	len = strlen(id);
	return strncmp(base, id, len) == 0 && strcmp(base + len, ".yaml") == 0;
}

/* The last component of path is "SIDE.yaml". */
static bool
named_for(const char *path, const char *id)
{
	char	*want = xasprintf("%s/%s.yaml", CROWN_CAMPAIGN_PENDING, id);
	bool	 same = strcmp(path, want) == 0;

	free(want);
	return same;
}

/* Side i's orders: the first file of the side's for the next turn is
 * played; every other of its files that crown turn would refuse is
 * shown with it when it has none. */
static void
side_status(struct crown_orders_status *st, const struct crown_state *s,
    size_t i, const char *log)
{
	struct crown_side_orders *sv = &st->side[i];
	struct crown_pending_file *f;
	const char		*id = s->sides[i].id;
	size_t			 k;

	for (k = 0; k < st->nfile; k++) {
		f = &st->file[k];
		if (f->o != NULL && f->o->turn == st->next &&
		    is_sides(f, id)) {
			sv->in = CROWN_ORDERS_IN;
			sv->file = k;
			sv->when = log_time(log, "accepted", id, st->next,
			    f->rec);
			f->side = (int)i;
			f->named = named_for(f->path, id);
			st->nin++;
			return;
		}
	}
	sv->when = log_time(log, "late", id, st->next, NULL);
	sv->in = sv->when != NULL ? CROWN_ORDERS_LATE : CROWN_ORDERS_MISSING;
	for (k = 0; k < st->nfile; k++) {
		f = &st->file[k];
		if (f->side < 0 && is_sides(f, id))
			f->side = (int)i;
	}
}

/*
 * Side i's late orders for the next turn, in orders/late/: on its line.
 * A side without orders in is late when they are there, even when the
 * log does not say so (a file put there by hand).
 */
static void
side_late(struct crown_orders_status *st, const char *id, size_t i,
    const char *log)
{
	struct crown_side_orders *sv = &st->side[i];
	const struct crown_tidy_file *f;
	size_t			 k;

	sv->late = -1;
	for (k = 0; k < st->tidy.n; k++) {
		f = &st->tidy.v[k];
		if (f->kind == CROWN_TIDY_LATE && f->turn == st->next &&
		    strcmp(f->side, id) == 0)
			sv->late = (int)k;
	}
	if (sv->late < 0)
		return;
	sv->late_when = log_time(log, "late", id, st->next,
	    st->tidy.v[sv->late].rec);
	if (sv->in == CROWN_ORDERS_MISSING)
		sv->in = CROWN_ORDERS_LATE;
}

/* What crown turn DIR makes of f. */
static enum crown_pending_verdict
verdict(const struct crown_pending_file *f, const struct crown_state *s,
    int next, bool played)
{
	if (f->o == NULL)
		return CROWN_PENDING_UNREADABLE;
	if (f->o->turn != next)
		return CROWN_PENDING_OTHER_TURN;
	if (played)
		return CROWN_PENDING_PLAYED;
	if (f->o->side != NULL && crown_state_side(s, f->o->side) >= 0)
		return CROWN_PENDING_SECOND;
	return CROWN_PENDING_NO_SIDE;
}

void
crown_campaign_status(struct crown_orders_status *out, const char *dir,
    const struct crown_state *s, long long now)
{
	struct crown_diags	 quiet = { 0 };
	long long		 deadline;
	char			*p, *log = NULL;
	size_t			 i, k, len;

	memset(out, 0, sizeof(*out));
	out->next = s->turn + 1;
	if (s->last_turn != 0 && s->turn >= s->last_turn) {
		out->over = true;
		return;
	}
	if (s->deadline != NULL &&
	    crown_cal_parse_time(&deadline, s->deadline) == 0) {
		out->deadline = true;
		out->passed = now > deadline;
		out->span = out->passed ? now - deadline : deadline - now;
	}
	p = xasprintf("%s/orders/inbox.log", dir);
	if (crown_read_file(&log, &len, p, CROWN_LIMIT_BYTES_MAX, &quiet) !=
	    0)
		log = NULL;
	crown_diags_release(&quiet);
	free(p);
	load_pending(out, dir, s);
	crown_campaign_tidy(&out->tidy, dir, s->turn, NULL, 0);
	out->side = xcalloc(s->nsides ? s->nsides : 1, sizeof(*out->side));
	out->nside = s->nsides;
	for (i = 0; i < s->nsides; i++) {
		side_status(out, s, i, log);
		side_late(out, s->sides[i].id, i, log);
	}
	log_missed(out, log, s->turn);
	if (crown_inbox_unread(&out->unread, &out->mailboxes, dir, s, now,
	    &out->unread_problem) == CROWN_ENOTFOUND &&
	    out->unread_problem.n == 0) {
		free(out->mailboxes);
		out->mailboxes = NULL;
	}
	for (k = 0; k < out->nfile; k++)
		out->file[k].verdict = verdict(&out->file[k], s, out->next,
		    out->file[k].side >= 0 &&
		    out->side[out->file[k].side].in == CROWN_ORDERS_IN &&
		    out->side[out->file[k].side].file == k);
	free(log);
}

void
crown_campaign_status_release(struct crown_orders_status *st)
{
	size_t	k;

	for (k = 0; k < st->nside; k++) {
		free(st->side[k].when);
		free(st->side[k].late_when);
	}
	for (k = 0; k < st->nfile; k++) {
		free(st->file[k].path);
		crown_orders_free(st->file[k].o);
	}
	for (k = 0; k < st->nmissed; k++) {
		free(st->missed[k].when);
		free(st->missed[k].side);
		free(st->missed[k].from);
	}
	free(st->missed);
	crown_tidy_release(&st->tidy);
	free(st->mailboxes);
	crown_diags_release(&st->unread_problem);
	free(st->file);
	free(st->side);
	memset(st, 0, sizeof(*st));
}
