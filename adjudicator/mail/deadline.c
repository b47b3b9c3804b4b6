/*
 * deadline.c: the mail crown deadline writes when it sets, moves or
 * clears the deadline after the briefings went out: to every player,
 * the deadline as the briefing would have said it (and the one it
 * replaces, and the umpire's reason, when there are), and what it says
 * of sending orders (the player's note, notice.c); and the notice of a
 * deadline an absence moved (crown roster away), to every player.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/mail.h"
#include "crown/plaintext.h"
#include "crown/state.h"
#include "crown/xalloc.h"

static void	sentence(struct crown_buf *, char *);

/* A sentence filled to the mail's width, and freed. */
static void
sentence(struct crown_buf *text, char *s)
{
	crown_text_fill(text, s, strlen(s), CROWN_MAIL_WIDTH, "", "");
	free(s);
}

int
crown_mail_deadline(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_outputs *notes, const char *old, const char *reason,
    long long date, size_t *sent, struct crown_diags *d)
{
	const struct crown_side	*sd;
	const struct crown_person *p;
	const struct crown_buf	*how;
	struct crown_buf	 text = { 0 };
	char			*subject;
	size_t			 i, j;
	int			 error = 0;

	(void)d;
	*sent = 0;
	if (s->deadline != NULL)
		subject = xasprintf("[%s] Deadline: orders for turn %d by %s",
		    s->name, s->turn + 1, s->deadline);
	else
		subject = xasprintf("[%s] Deadline: none for turn %d",
		    s->name, s->turn + 1);
	for (i = 0; i < s->nsides && error == 0; i++) {
		sd = &s->sides[i];
		for (j = 0; j < sd->nplayers && error == 0; j++) {
			p = &sd->players[j];
			if (!crown_mail_addr_ok(p->email))
				continue;
			text.len = 0;
			crown_buf_puts(&text, "");
			if (s->deadline != NULL && old != NULL &&
			    strcmp(old, s->deadline) != 0)
				sentence(&text, xasprintf("The deadline for "
				    "the orders of turn %d moves from %s to %s "
				    "(UTC)%s%s.", s->turn + 1, old,
				    s->deadline, s->deadline_every != NULL ?
				    "; then every " : "",
				    s->deadline_every != NULL ?
				    s->deadline_every : ""));
			else if (s->deadline != NULL)
				sentence(&text, xasprintf("Orders for turn %d "
				    "are due by %s (UTC)%s%s.", s->turn + 1,
				    s->deadline, s->deadline_every != NULL ?
				    "; then every " : "",
				    s->deadline_every != NULL ?
				    s->deadline_every : ""));
			else
				sentence(&text, xasprintf("There is no "
				    "deadline for the orders of turn %d now%s%s%s: "
				    "a mail will say when one is set.",
				    s->turn + 1, old != NULL ? " (it was " : "",
				    old != NULL ? old : "", old != NULL ? ")" :
				    ""));
			if (reason != NULL)
				sentence(&text, xasprintf("Reason: %s",
				    reason));
			if ((how = crown_mail_note(notes, p->email)) != NULL)
				crown_buf_add(&text, how->data, how->len);
			crown_buf_puts(&text, "\n-- \n");
			sentence(&text, xasprintf("crown, umpiring %s: the "
			    "deadline, for side %s (%s).", s->name, sd->id,
			    sd->name));
			if ((error = crown_mail_to(mails, s, p, subject,
			    text.data, NULL, 0, date)) == 0)
				(*sent)++;
		}
	}
	crown_buf_release(&text);
	free(subject);
	return error;
}

int
crown_mail_notice(struct crown_outputs *mails, const struct crown_state *s,
    const char *subject, const char *text, long long t)
{
	const struct crown_side	*sd;
	struct crown_buf	 body = { 0 };
	char			*subj;
	size_t			 i, j;
	int			 error = 0;

	subj = xasprintf("[%s] %s", s->name, subject);
	for (i = 0; i < s->nsides && error == 0; i++) {
		sd = &s->sides[i];
		body.len = 0;
		crown_buf_puts(&body, "");
		sentence(&body, xstrdup(text));
		crown_buf_puts(&body, "\n-- \n");
		sentence(&body, xasprintf("crown, umpiring %s: side %s (%s).",
		    s->name, sd->id, sd->name));
		for (j = 0; j < sd->nplayers && error == 0; j++)
			if (crown_mail_addr_ok(sd->players[j].email))
				error = crown_mail_to(mails, s,
				    &sd->players[j], subj, body.data, NULL, 0,
				    t);
	}
	crown_buf_release(&body);
	free(subj);
	return error;
}
