/*
 * taketurn.h: crown turn's policy (taketurn.c): the next turn of a
 * campaign played from the pending orders or the files given, through
 * the one turn function (play.h), and committed on main with its
 * players' mails through the one commit path (advance.h).
 */
#ifndef CROWN_TAKETURN_H
#define CROWN_TAKETURN_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/campaign.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/play.h"

struct crown_taketurn_input {
	struct crown_history		*h;
	const struct crown_chain	*chain;	/* main */
	const char			*dir;	/* the campaign, as named */
	/* the campaign of commit start_id, loaded already (crown turn's
	 * refusals): taken, and start_id emptied, when it is main's tip;
	 * else read again.  May be NULL. */
	struct crown_campaign		*start;
	char				*start_id;
	/* the orders files given; NULL: those of DIR/orders/pending */
	const char *const		*paths;
	size_t				 npaths;
	/* --umpire and --date (crown_campaign_who); NULL: not given */
	const char			*umpire;
	const char			*date;
	const char			*secret_file;	/* NULL: .git's */
	const char			*templates;	/* NULL: installed */
	/* the next deadline (--deadline); NULL: game.deadline_every's
	 * (crown_campaign_next_deadline) */
	const char			*deadline;
	bool				 allow_missing;	/* R2.3: they hold */
	/* --force: --allow-missing before game.deadline has passed */
	bool				 force;
	/* play though the mailboxes crown inbox last read hold mail it
	 * has not read (crown_inbox_unread) */
	bool				 ignore_unread;
	bool				 dry_run;	/* nothing written */
};

/* A turn taken. */
struct crown_taketurn {
	struct crown_turn	  t;		/* the turn played */
	char			  id[CROWN_OID_HEX + 1];  /* its commit;
						 * "" on a dry run */
	/* the files played, in order (t.orders[i] is of paths[i]) */
	const char *const	 *paths;
	size_t			  npaths;
	/* the pending files left alone because others were given */
	const char *const	 *ignored;
	size_t			  nignored;
	char			**pending;	/* DIR/orders/pending/ */
	size_t			  npending;
	/* sides held though the deadline had not passed (--force) */
	bool			  early;
};

/*
 * The refusals of a turn that need only the history, before anything is
 * touched: after the reveal, after game.last_turn, or when the last
 * turn's state.yaml is not of its commit's turn: CROWN_EINVALID with the
 * problem in d.  On 0, *start (empty before) holds the campaign of
 * main's tip when that is the last turn's commit (no roster or deadline
 * change after it), for crown_campaign_turn to take; else it stays
 * empty.
 */
int	crown_campaign_turn_refuse(struct crown_campaign *start,
	    struct crown_history *, const struct crown_chain *c,
	    const char *dir, struct crown_diags *d);
/*
 * Take the next turn of in->chain: the orders read and validated, all of
 * them, before any die (CROWN_EINVALID with every problem, and with every
 * side that has none unless in->allow_missing, nothing touched; a side
 * without orders before game.deadline has passed at the commit's date
 * only with in->force, the commit message then saying so), and
 * in civil disorder, game.missed_orders, or whose every player is away
 * at the turn's date holds without it, as the commit message says), and
 * not while the mailboxes crown inbox last read hold mail it has not
 * read, delivered by the deadline, unless in->ignore_unread; the
 * turn resolved with the campaign dice; then, unless in->dry_run,
 * "Turn N: headline" committed on main, tagged turn-N, the work tree
 * brought to it, the pending orders played removed and each player's
 * report left in the outbox.  CROWN_EUSAGE for a bad --umpire or
 * --date; the other CROWN_E* codes with their problems in d.  Free *out
 * with crown_taketurn_release, whatever the result.
 */
int	crown_campaign_turn(struct crown_taketurn *out,
	    const struct crown_taketurn_input *, struct crown_diags *d);
void	crown_taketurn_release(struct crown_taketurn *);

#endif
