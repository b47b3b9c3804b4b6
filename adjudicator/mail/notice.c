/*
 * notice.c: what a player is told of sending orders: how crown knows
 * him (the proof his credentials ask for, crown_roster_required), where
 * and what to send, and the deadline; in the briefing (mail.c) and in
 * the mail crown deadline writes when it sets, moves or clears the
 * deadline after the briefing went out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/mail.h"
#include "crown/plaintext.h"
#include "crown/roster.h"
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

void
crown_mail_how_to_send(struct crown_buf *text, const struct crown_state *s,
    const struct crown_person *p, const struct crown_roster *ro)
{
	const struct crown_cred	*c = NULL;
	struct crown_mail_addr	 u = crown_mail_umpire(s);
	enum crown_proof	 proof;

	if (ro != NULL && p->email != NULL)
		c = crown_roster_find(ro, p->email);
	proof = crown_roster_required(c);
	/* an unsalted hash of an older release asks for a password too */
	if (proof == CROWN_PROOF_FROM && p->password_sha256 != NULL)
		proof = CROWN_PROOF_PASSWORD;
	crown_buf_puts(text, "\n");
	sentence(text, xasprintf("Send your orders in a reply to this mail "
	    "(to %s), as orders.yaml attached or in the text of the mail. "
	    "A mail whose subject begins with \"Press:\" is press, relayed "
	    "to the sides it names, and never read as orders.", u.addr));
	switch (proof) {
	case CROWN_PROOF_OPENPGP:
		sentence(text, xasprintf("You are identified by your PGP/MIME "
		    "signature (key %s): sign every mail you send with it. "
		    "A mail not signed by it is refused.", c->openpgp));
		break;
	case CROWN_PROOF_PASSWORD:
		sentence(text, xasprintf("You are identified by the password "
		    "line: put \"password: \" and the password the umpire "
		    "gave you on a line of its own in every mail you send, "
		    "from %s. The line is never filed, echoed or relayed.",
		    p->email));
		break;
	default:
		sentence(text, xasprintf("You are identified by your address "
		    "alone: send from %s. Anyone who writes that address can "
		    "send orders in your name: ask the umpire for a password "
		    "if you want one.", p->email));
		break;
	}
}

int
crown_mail_deadline(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_roster *ro, long long date, size_t *sent,
    struct crown_diags *d)
{
	const struct crown_side	*sd;
	const struct crown_person *p;
	struct crown_buf	 text = { 0 }, msg = { 0 };
	struct crown_mail_addr	 to;
	struct crown_mail_out	 o;
	char			*subject, *name;
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
			if (s->deadline != NULL)
				sentence(&text, xasprintf("Orders for turn %d "
				    "are due by %s%s%s.", s->turn + 1,
				    s->deadline, s->deadline_every != NULL ?
				    "; then every " : "",
				    s->deadline_every != NULL ?
				    s->deadline_every : ""));
			else
				sentence(&text, xasprintf("There is no "
				    "deadline for the orders of turn %d now: "
				    "a mail will say when one is set.",
				    s->turn + 1));
			crown_mail_how_to_send(&text, s, p, ro);
			crown_buf_printf(&text, "\n-- \ncrown, umpiring %s: "
			    "the deadline, for side %s (%s).\n", s->name,
			    sd->id, sd->name);
			to.name = p->name;
			to.addr = p->email;
			memset(&o, 0, sizeof(o));
			o.from = crown_mail_umpire(s);
			o.to = &to;
			o.nto = 1;
			o.subject = subject;
			o.date = date;
			o.text = text.data;
			if ((error = crown_mail_build(&msg, &o)) != 0)
				break;
			name = crown_maildir_name(msg.data, msg.len, date);
			crown_outputs_take(mails, name, &msg);
			free(name);
			(*sent)++;
		}
	}
	crown_buf_release(&msg);
	crown_buf_release(&text);
	free(subject);
	return error;
}
