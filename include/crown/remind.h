/*
 * remind.h: crown remind's policy (history/remind.c): as the deadline
 * comes near, a reminder in the outbox to the players of each side whose
 * orders for the next turn are not in, once a side a deadline, however
 * often it runs (remembered in .git/crown-reminders).
 */
#ifndef CROWN_REMIND_H
#define CROWN_REMIND_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/rules.h"
#include "crown/state.h"

/* The record of the reminders sent, in DIR/.git: "DEADLINE SIDE" a
 * line. */
#define CROWN_REMINDERS_FILE	"crown-reminders"
/* How long before the deadline crown remind writes, by default. */
#define CROWN_REMIND_BEFORE	"24h"

/* A side reminded, and to whom. */
struct crown_reminded {
	const char	*side;		/* the state's id */
	char		*to;		/* "a@b, c@d" */
};

struct crown_reminders {
	bool			 due;	/* the deadline is near: within
					   before, not passed */
	long long		 span;	/* seconds to the deadline */
	struct crown_reminded	*v;	/* in the order of the sides */
	size_t			 n;
	size_t			 mails;
	/* messages crown inbox has not read, delivered by the deadline, in
	 * the mailboxes it read last (any: no reminder is written, since
	 * a side's orders may be among them) */
	size_t			 unread;
	char			*mailboxes;
};

/*
 * In campaign directory dir, whose state s (and rules, for the orders
 * form; NULL: none) is main's last commit's, at time now: when
 * game.deadline is at most before seconds away and not passed, and
 * the mailboxes crown inbox read last hold no mail it has not read, a
 * reminder into DIR/outbox for each player of each side whose orders
 * for the next turn are not in (crown_campaign_status) and that has
 * not been reminded of this deadline, then the sides written to
 * .git/crown-reminders.  The mails are delivered first and the record
 * after, each synced: a kill between the two reminds those sides again
 * next time, and never leaves one unreminded.  The caller holds the
 * campaign's lock.  0, or CROWN_EWRITE (or CROWN_EINVALID, a roster
 * that does not read) with a diagnostic, and nothing recorded (the
 * mails delivered before it are written again next time); release out
 * after use, whatever the result.
 */
int	crown_campaign_remind(struct crown_reminders *out, const char *dir,
	    const struct crown_state *s, const struct crown_rules *rules,
	    long long now, long long before, struct crown_diags *d);
void	crown_campaign_reminders_release(struct crown_reminders *);

#endif
