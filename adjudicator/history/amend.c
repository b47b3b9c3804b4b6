/*
 * amend.c: the umpire's changes between turns (issue 19): the players
 * (crown roster) and the deadline (crown deadline), each a commit of
 * its own on main that changes only those keys of state.yaml, so that
 * crown log shows it and crown verify can tell it from a tampered
 * state; the next deadline of --every; and telling a hand edit of the
 * work tree, which crown refuses, from what a killed run leaves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/advance.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

bool
crown_campaign_subject_admin(const char *s)
{
	return strncmp(s, "Roster: ", 8) == 0 ||
	    strncmp(s, "Deadline: ", 10) == 0;
}

int
crown_campaign_commit_state(char *id, struct crown_history *h,
    const struct crown_chain *c, const struct crown_state *st,
    const char *msg, const struct crown_stamp *stamp,
    const struct crown_outputs *mails, struct crown_diags *d)
{
	struct crown_outputs	 files = { 0 };
	struct crown_advance	 step = { 0 };
	const char		*tip = c->l.v[c->tip].id;
	int			 error;

	if (crown_state_emit(crown_outputs_add(&files, CROWN_CAMPAIGN_STATE),
	    st) != 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL, "cannot "
		    "format the state");
		error = CROWN_ERROR;
		goto cleanup;
	}
	step.ref = CROWN_MAIN_REF;
	step.expect = tip;
	step.parent = tip;
	step.files = &files;
	step.message = msg;
	step.stamp = stamp;
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.mails = mails;
	step.done = "the change is committed";
	error = crown_advance(id, h, &step, d);
cleanup:
	crown_outputs_release(&files);
	return error;
}

bool
crown_campaign_admin_only(const struct crown_state *before,
    const struct crown_state *after)
{
	struct crown_state	 t = *after;	/* shallow: nothing freed */
	struct crown_buf	 a = { 0 }, b = { 0 };
	size_t			 i;
	bool			 same;

	if (after->nsides != before->nsides)
		return false;
	/* after with before's players and deadline must be before */
	t.sides = xcalloc(after->nsides, sizeof(*t.sides));
	for (i = 0; i < after->nsides; i++) {
		t.sides[i] = after->sides[i];
		t.sides[i].players = before->sides[i].players;
		t.sides[i].nplayers = before->sides[i].nplayers;
	}
	t.deadline = before->deadline;
	t.deadline_every = before->deadline_every;
	same = crown_state_emit(&a, &t) == 0 &&
	    crown_state_emit(&b, before) == 0 && a.len == b.len &&
	    memcmp(a.data, b.data, a.len) == 0;
	free(t.sides);
	crown_buf_release(&a);
	crown_buf_release(&b);
	return same;
}

char *
crown_campaign_next_deadline(const struct crown_state *before,
    const char *given)
{
	char		 buf[CROWN_CAL_TIME_LEN];
	long long	 t, every;

	if (given != NULL)
		return xstrdup(given);
	if (before->deadline == NULL || before->deadline_every == NULL ||
	    crown_cal_parse_time(&t, before->deadline) != 0 ||
	    crown_cal_duration_parse(&every, before->deadline_every) != 0)
		return xstrdup("");
	crown_cal_format_time(buf, sizeof(buf), t + every);
	return xstrdup(buf);
}

/* The command that makes a change to path, for the refusal. */
static const char *
command_for(const char *path)
{
	if (strcmp(path, CROWN_CAMPAIGN_STATE) == 0)
		return "the players change with crown roster and the deadline "
		    "with crown deadline, each in a commit of its own";
	if (strncmp(path, "orders/", 7) == 0 ||
	    strncmp(path, "turns/", 6) == 0)
		return "a played turn changes only by crown rerun and crown "
		    "adopt";
	return "it is frozen at crown new";
}

int
crown_campaign_hand_edits(struct crown_history *h,
    const struct crown_chain *c, char *const *dirty, size_t n,
    struct crown_diags *d)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 head = { 0 }, prev = { 0 };
	const char		*tip = c->l.v[c->l.n - 1].id;
	const char		*parent = c->l.n > 1 ? c->l.v[c->l.n - 2].id :
	    NULL;
	char			*p, *buf;
	size_t			 i, len;
	int			 error = 0;

	for (i = 0; i < n; i++) {
		p = xasprintf("%s%s", crown_history_workdir(h), dirty[i]);
		buf = NULL;
		if (crown_read_file(&buf, &len, p, CROWN_LIMIT_BYTES_MAX,
		    &quiet) != 0) {
			/* gone: nothing of the game is changed by that */
			free(p);
			continue;
		}
		head.len = prev.len = 0;
		/* the last commit's file, or a start of it: what a checkout
		 * stopped by a kill or a full disk leaves, for the repair */
		if (crown_history_read(&head, h, tip, dirty[i], &quiet) == 0 &&
		    len <= head.len && memcmp(head.data, buf, len) == 0)
			goto next;
		if (parent != NULL && crown_history_read(&prev, h, parent,
		    dirty[i], &quiet) == 0 && prev.len == len &&
		    memcmp(prev.data, buf, len) == 0)
			goto next;
		crown_diag_add(d, p, 0, 0, NULL, "edited by hand, and crown "
		    "will not undo it: %s; to drop the edit, git checkout -- "
		    "%s", command_for(dirty[i]), dirty[i]);
		error = CROWN_EINVALID;
next:
		free(buf);
		free(p);
	}
	crown_diags_release(&quiet);
	crown_buf_release(&head);
	crown_buf_release(&prev);
	return error;
}

void
crown_campaign_take_admin(struct crown_state *to,
    const struct crown_state *from)
{
	struct crown_state	*t = crown_state_clone(from);
	struct crown_person	*p;
	size_t			 i, n;
	char			*s;

	/* swap in a copy of from's, and free to's with the copy */
	for (i = 0; i < to->nsides && i < t->nsides; i++) {
		p = to->sides[i].players;
		n = to->sides[i].nplayers;
		to->sides[i].players = t->sides[i].players;
		to->sides[i].nplayers = t->sides[i].nplayers;
		t->sides[i].players = p;
		t->sides[i].nplayers = n;
	}
	s = to->deadline;
	to->deadline = t->deadline;
	t->deadline = s;
	s = to->deadline_every;
	to->deadline_every = t->deadline_every;
	t->deadline_every = s;
	crown_state_free(t);
}
