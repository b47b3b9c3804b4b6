/*
 * notice.c: what a player is told of sending orders: how crown knows
 * him (the proof his credentials ask for, crown_roster_required), and
 * where and what to send, for each player (crown_mail_notes), made by
 * the callers of the briefing (mail.c) and of the mail crown deadline
 * writes (deadline.c), which never read the credentials themselves.
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

static void	how_to_send(struct crown_buf *, const char *,
		    const struct crown_person *, const struct crown_roster *);

/* What p is told, into text. */
static void
how_to_send(struct crown_buf *text, const char *umpire,
    const struct crown_person *p, const struct crown_roster *ro)
{
	const struct crown_cred	*c = NULL;
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
	    "to the sides it names, and never read as orders.", umpire));
	crown_buf_puts(text, "\n");
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

void
crown_mail_notes(struct crown_outputs *out, const struct crown_state *s,
    const struct crown_roster *ro)
{
	const struct crown_person	*p;
	struct crown_buf		*b;
	size_t				 i, j;

	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++) {
			p = &s->sides[i].players[j];
			if (!crown_mail_addr_ok(p->email))
				continue;
			b = crown_outputs_add(out, p->email);
			crown_buf_puts(b, "");
			how_to_send(b, crown_mail_umpire(s).addr, p, ro);
		}
}
