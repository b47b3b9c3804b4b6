/*
 * reminder.c: the mail crown remind writes to a player of a side whose
 * orders are not in as the deadline comes near (reminder.h): when they
 * are due, in UTC and in how long, what to send and how (from the
 * player's address, with the password or the PGP/MIME signature the
 * roster asks of the player), with the side's orders form attached as
 * every mail to a side has it (crown_mail_to_side).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/mail.h"
#include "crown/plaintext.h"
#include "crown/reminder.h"
#include "crown/xalloc.h"

/* A paragraph, filled to the mail's width, and a blank line. */
static void
para(struct crown_buf *text, const char *s)
{
	crown_text_fill(text, s, strlen(s), CROWN_MAIL_WIDTH, "", "");
	crown_buf_puts(text, "\n");
}

/* How the player proves who sends the orders: a sentence, or NULL. */
static const char *
how_proved(enum crown_proof proof)
{
	switch (proof) {
	case CROWN_PROOF_OPENPGP:
		return "Sign the mail with your OpenPGP key, as PGP/MIME: a "
		    "signature inline in the text is not read, and a mail "
		    "without yours is refused.";
	case CROWN_PROOF_PASSWORD:
		return "Give your password in the mail, on a line of its "
		    "own: \"password: ...\".";
	default:
		return NULL;
	}
}

int
crown_mail_reminder(struct crown_outputs *mails, const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_side *sd,
    const char *addr, enum crown_proof proof, long long now, long long span,
    size_t *sent, struct crown_diags *d)
{
	struct crown_buf	 text = { 0 };
	const char		*how;
	char			 in[64];
	char			*p, *subject, *sig;
	int			 error;

	crown_cal_format_span(in, sizeof(in), span);
	crown_buf_puts(&text, "");
	p = xasprintf("The orders of %s (side %s) for turn %d of %s have "
	    "not come in yet.  They are due by %s (UTC), in %s; after the "
	    "deadline a side without orders holds (R2.3).", sd->name, sd->id,
	    s->turn + 1, s->name, s->deadline, in);
	para(&text, p);
	free(p);
	p = xasprintf("Reply to this mail from %s (any subject will do) "
	    "with the orders in its text, as an orders file or in the "
	    "shorthand, a unit a line, or attached as an orders file, as "
	    "orders.yaml below.  Each mail is answered: with the receipt "
	    "when the orders are accepted, with every problem when they "
	    "are not.", addr);
	para(&text, p);
	free(p);
	if ((how = how_proved(proof)) != NULL)
		para(&text, how);
	para(&text, "If you have sent them already, the answer may not "
	    "have reached you yet: orders count from when they were "
	    "delivered, not when crown reads them.");
	subject = xasprintf("[%s] Reminder: orders for turn %d are due by %s",
	    s->name, s->turn + 1, s->deadline);
	sig = xasprintf("crown, umpiring %s: a reminder for side %s (%s).",
	    s->name, sd->id, sd->name);
	error = crown_mail_to_side(mails, s, rules, sd, addr, subject,
	    text.data, sig, now, sent, d);
	free(sig);
	free(subject);
	crown_buf_release(&text);
	return error;
}
