/*
 * adopt.c: what a rerun adopted into main says (rerun.h): the mark of a
 * commit a rerun made, with the reasons of the rerun and of its
 * adoption (crown log, crown site), and the mail that tells every player
 * of the turn played again (crown adopt), made by the one mail of a turn
 * (crown_mail_turn_reports) from the files the rerun committed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/rerun.h"
#include "crown/xalloc.h"

static char	*adoption_reason(struct crown_history *, long);
static void	 sentence(struct crown_buf *, const char *, const char *);

char *
crown_campaign_reason(const char *message)
{
	const char	*p = message, *end;
	size_t		 klen = strlen(CROWN_REASON_KEY);

	while (p != NULL && (p = strstr(p, CROWN_REASON_KEY)) != NULL) {
		if (p == message || p[-1] == '\n') {
			p += klen;
			end = strchr(p, '\n');
			return end != NULL ? xstrndup(p, (size_t)(end - p)) :
			    xstrdup(p);
		}
		p += klen;
	}
	return NULL;
}

/*
 * The reason of the last adoption of a rerun of turn of: that of the tag
 * replaced/turn-N[-k] with the highest k, since a later adoption of the
 * same turn would have replaced the commits of an earlier one.  NULL:
 * none given.
 */
static char *
adoption_reason(struct crown_history *h, long of)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 tagmsg = { 0 };
	const char		*p;
	char			*name, *end, *reason = NULL;
	char			**names = NULL;
	long			 k, best = 0;
	size_t			 i, n = 0;

	name = xasprintf("refs/tags/%s/turn-%ld*", CROWN_REPLACED_TAG, of);
	if (crown_history_refs(&names, &n, h, name, &quiet) == 0)
		for (i = 0; i < n; i++) {
			p = names[i] + strlen(name) - 1;
			if (*p == '\0')
				k = 1;
			else if (*p == '-')
				k = strtol(p + 1, &end, 10);
			else
				continue;	/* turn-1 is not turn-10 */
			if (k > best) {
				best = k;
				crown_buf_release(&tagmsg);
				crown_buf_puts(&tagmsg, "");
				if (crown_history_tag_message(&tagmsg, h,
				    names[i] + strlen("refs/tags/"),
				    &quiet) != 0)
					crown_buf_release(&tagmsg);
			}
		}
	if (tagmsg.data != NULL)
		reason = crown_campaign_reason(tagmsg.data);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(name);
	crown_buf_release(&tagmsg);
	crown_diags_release(&quiet);
	return reason;
}

void
crown_campaign_rerun_mark(struct crown_rerun_mark *out,
    struct crown_history *h, const char *message, int turn)
{
	const char	*p;
	char		*end;
	long		 of;

	memset(out, 0, sizeof(*out));
	out->of = -1;
	if ((p = strstr(message, CROWN_RERUN_OF)) == NULL)
		return;
	of = strtol(p + strlen(CROWN_RERUN_OF), &end, 10);
	if (end == p + strlen(CROWN_RERUN_OF) || of < 0 || of > turn)
		return;
	out->of = (int)of;
	if (of < turn)
		return;
	if (strstr(message, "\n" CROWN_REASON_KEY) != NULL)
		out->reason = crown_campaign_reason(message);
	out->adopted = adoption_reason(h, of);
}

void
crown_rerun_mark_text(struct crown_buf *b, const struct crown_rerun_mark *m,
    int turn)
{
	if (m->of < 0)
		return;
	if (m->of < turn) {
		crown_buf_printf(b, "replayed: rerun of turn %d", m->of);
		return;
	}
	crown_buf_puts(b, "rerun");
	if (m->reason != NULL)
		crown_buf_printf(b, ": %s", m->reason);
	if (m->adopted != NULL)
		crown_buf_printf(b, "; adopted: %s", m->adopted);
}

void
crown_rerun_mark_release(struct crown_rerun_mark *m)
{
	free(m->reason);
	free(m->adopted);
	memset(m, 0, sizeof(*m));
}

/* lead and text as a sentence: a full stop after it unless it has one. */
static void
sentence(struct crown_buf *b, const char *lead, const char *text)
{
	size_t	len = strlen(text);

	crown_buf_printf(b, "%s%s%s", lead, text, len > 0 &&
	    strchr(".!?", text[len - 1]) != NULL ? "" : ".");
}

int
crown_campaign_adopt_mails(struct crown_outputs *mails,
    struct crown_history *h, const struct crown_chain *b, int turn,
    const char *reason, const char *date, struct crown_diags *d)
{
	struct crown_campaign	 camp = { 0 };
	struct crown_buf	*reports = NULL, map = { 0 }, note = { 0 };
	const struct crown_state *s;
	const char		*tip = b->l.v[b->l.n - 1].id;
	char			*dir, *path, *why, *label;
	size_t			 i;
	int			 error, rc;

	/* the players and the deadline as the line ends, the turn's files
	 * as its last turn committed them */
	label = xasprintf("turn-%d", b->last);
	error = crown_campaign_load(&camp, h, tip, label, d);
	free(label);
	if (error != 0)
		return error;
	s = camp.state;
	dir = crown_campaign_turn_dir(b->last);
	reports = xcalloc(s->nsides ? s->nsides : 1, sizeof(*reports));
	for (i = 0; i < s->nsides && error == 0; i++) {
		path = xasprintf("%s/report-%s.md", dir, s->sides[i].id);
		rc = crown_history_read(&reports[i], h, tip, path, d);
		if (rc != 0 && rc != CROWN_ENOTFOUND)
			error = rc;
		free(path);
	}
	path = xasprintf("%s/%s", dir, CROWN_CAMPAIGN_MAP);
	if (error == 0 && (rc = crown_history_read(&map, h, tip, path,
	    d)) != 0 && rc != CROWN_ENOTFOUND)
		error = rc;
	free(path);
	if (error != 0)
		goto cleanup;
	crown_buf_printf(&note, "Turn %d was played again", turn);
	if (b->last == turn + 1)
		crown_buf_printf(&note, ", and turn %d after it replayed",
		    b->last);
	else if (b->last > turn + 1)
		crown_buf_printf(&note, ", and turns %d to %d after it "
		    "replayed", turn + 1, b->last);
	crown_buf_printf(&note, ": this report of turn %d replaces the one "
	    "you had", b->last);
	if (s->last_turn <= 0 || s->turn < s->last_turn)
		crown_buf_printf(&note, ", and the orders form attached, for "
		    "turn %d, the one sent with it", s->turn + 1);
	crown_buf_puts(&note, ".");
	why = crown_campaign_reason(b->l.v[b->at[turn]].message);
	if (why != NULL)
		sentence(&note, " Why: ", why);
	if (reason != NULL)
		sentence(&note, " Adopted: ", reason);
	free(why);
	error = crown_mail_turn_reports(mails, s, camp.rules, reports,
	    map.len > 0 ? &map : NULL, date, note.data, d);
cleanup:
	for (i = 0; i < s->nsides; i++)
		crown_buf_release(&reports[i]);
	free(reports);
	crown_buf_release(&note);
	crown_buf_release(&map);
	free(dir);
	crown_campaign_release(&camp);
	return error;
}
