/*
 * inbox.h: the players' mail read against a campaign (doc/umpire.md,
 * "Mail"): who sent each message (the roster, a password, a PGP/MIME
 * signature), the orders in it through the one reader (orders-read.h),
 * the verdict, the answer, and the filing in orders/pending/.  crown
 * inbox files and answers; crown check --mail runs the same and only
 * prints what the inbox would answer.
 */
#ifndef CROWN_INBOX_H
#define CROWN_INBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/rules.h"
#include "crown/state.h"

struct crown_inbox;

struct crown_inbox_options {
	const char		*dir;		/* the campaign */
	const struct crown_state *s;		/* main's last turn */
	const struct crown_rules *rules;
	long long		 now;		/* when the mail is read */
	size_t			 max_bytes;	/* larger mail is refused */
	unsigned		 max_answers;	/* to one address, a run */
	bool			 dry;		/* print the answers; file,
						 * send and log nothing */
	/* the commit time of each turn played, turn 0's (crown new) first,
	 * and the deadline the last was played against (NULL or "": none);
	 * nplayed 0 for a campaign without history */
	const long long		*played;
	size_t			 nplayed;
	const char		*played_deadline;
};

/* Open the campaign's inbox: its roster (.git) and the log of the mail
 * already read (not in a dry run).  *out is the caller's
 * (crown_inbox_close). */
int	crown_inbox_open(struct crown_inbox **out,
	    const struct crown_inbox_options *, struct crown_diags *d);

/* Every message of a Maildir or an mbox file (crown_mail_each), each
 * judged, answered and filed, a line on stdout each. */
int	crown_inbox_read(struct crown_inbox *, const char *mailbox,
	    struct crown_diags *d);

/* One file as one whole message (RFC 5322), judged as above. */
int	crown_inbox_read_message(struct crown_inbox *, const char *path,
	    struct crown_diags *d);

/* "N messages: N accepted, ..." on stdout. */
void	crown_inbox_summary(const struct crown_inbox *);

/*
 * Make durable what the run filed, then deliver its answers and write
 * its lines of the log (a mail is answered only once the orders it
 * filed are on disk), and free the inbox.  0, or the
 * first failure to write (CROWN_EWRITE).  *accepted_all: every message
 * was accepted (crown check --mail's verdict); may be NULL.
 */
int	crown_inbox_close(struct crown_inbox *, bool *accepted_all,
	    struct crown_diags *d);

/*
 * The messages crown inbox has not read (none of orders/inbox.log) in
 * the mailboxes it last read for campaign dir (remembered in
 * .git/crown-maildir), received (crown_mail_received, read at now) at or
 * before s's game.deadline (any,
 * with none): *out, and *where (caller frees, whatever the result)
 * names the mailboxes.  CROWN_ENOTFOUND, with no diagnostic, when no
 * mailbox is remembered; CROWN_ENOTFOUND with one when a remembered
 * mailbox cannot be read.
 */
int	crown_inbox_unread(size_t *out, char **where, const char *dir,
	    const struct crown_state *s, long long now,
	    struct crown_diags *d);

#endif
