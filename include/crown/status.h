/*
 * status.h: where the orders of a campaign's next turn stand (crown
 * status): which sides have orders in, which are late and which are
 * missing, against game.deadline (doc/umpire.md, "Mail"), the files
 * of orders/pending/ that crown turn DIR would refuse, and what becomes
 * of the late orders and the proofs beside them.
 */
#ifndef CROWN_STATUS_H
#define CROWN_STATUS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/mail.h"
#include "crown/orders.h"
#include "crown/state.h"
#include "crown/tidy.h"

/* What crown turn DIR makes of a file of orders/pending/. */
enum crown_pending_verdict {
	CROWN_PENDING_PLAYED,		/* the orders of its side */
	CROWN_PENDING_UNREADABLE,	/* cannot be read */
	CROWN_PENDING_OTHER_TURN,	/* for another turn than the next */
	CROWN_PENDING_SECOND,		/* a second file for its side */
	CROWN_PENDING_NO_SIDE		/* for no side of the game */
};

/* A file of orders/pending/: every *.yaml there, whatever its name, is
 * played for the side it names (crown_campaign_pending). */
struct crown_pending_file {
	char			*path;		/* from the top of DIR */
	char			 rec[CROWN_SHA256_HEX];	/* the receipt */
	struct crown_orders	*o;		/* NULL: cannot be read */
	enum crown_pending_verdict verdict;
	int			 side;		/* the side it is shown with
						   (-1: none) */
	bool			 named;		/* its name is SIDE.yaml */
};

enum crown_orders_in {
	CROWN_ORDERS_IN,
	CROWN_ORDERS_LATE,		/* came after the deadline */
	CROWN_ORDERS_MISSING
};

struct crown_side_orders {
	enum crown_orders_in	 in;
	size_t			 file;	/* IN: its file */
	char			*when;	/* IN: when the inbox accepted it
					   (NULL: filed by hand); LATE: when
					   it came (NULL: not in the log) */
	int			 late;	/* its late orders for the turn in
					   orders/late/ (index of tidy.v), or
					   -1 */
	char			*late_when;	/* when those came, or NULL */
};

/* A mail delivered in time for the turn played last, but read after it
 * was played (orders/inbox.log's "missed"): for the umpire to rerun. */
struct crown_missed_mail {
	char	*when;		/* delivered */
	char	*side;		/* "-": the sender plays more than one */
	char	*from;
};

struct crown_orders_status {
	bool			 over;		/* no turn follows */
	int			 next;		/* the turn the orders are for */
	bool			 deadline;	/* game.deadline is a time */
	bool			 passed;	/* now is after it */
	long long		 span;		/* seconds to it, or since */
	struct crown_side_orders *side;		/* one a side of the state */
	size_t			 nside;
	size_t			 nin;		/* sides with orders in */
	struct crown_pending_file *file;		/* in the order of names */
	size_t			 nfile;
	/* the mailboxes crown inbox last read (NULL: none remembered), and
	 * their messages it has not read, delivered by the deadline; or
	 * the problem of reading them */
	char			*mailboxes;
	size_t			 unread;
	struct crown_diags	 unread_problem;
	struct crown_missed_mail *missed;
	size_t			 nmissed;
	/* the late orders and the proofs beside the pending orders, and
	 * what becomes of each (tidy.h) */
	struct crown_tidy	 tidy;
};

/*
 * Where the orders for the turn after s stand in campaign directory dir
 * at time now (seconds of the epoch): the pending files read as crown
 * turn DIR reads them (their problems kept quiet), their receipts, and
 * when each came from orders/inbox.log.  Release out after use.
 */
void	crown_campaign_status(struct crown_orders_status *out, const char *dir,
	    const struct crown_state *s, long long now);
void	crown_campaign_status_release(struct crown_orders_status *);

#endif
