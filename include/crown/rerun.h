/*
 * rerun.h: crown rerun's replay (rerun.c): a turn played again from
 * the commit before it with amended orders, the later turns and the
 * roster and deadline changes between them replayed after it, each
 * committed on a branch of its own, rerun/turn-N; main is untouched.
 */
#ifndef CROWN_RERUN_H
#define CROWN_RERUN_H

#include <stddef.h>
#include <stdio.h>

#include "crown/campaign.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/outputs.h"

struct crown_rerun_input {
	struct crown_history		*h;
	const struct crown_chain	*chain;	/* main */
	const char			*dir;	/* the campaign, as named */
	int				 turn;	/* the turn rerun, from 1 */
	/* the amended orders: each replaces its side's for that turn */
	const char *const		*paths;
	size_t				 npaths;
	const char			*reason;	/* NULL: none */
	/* --umpire and --date (crown_campaign_who); NULL: not given */
	const char			*umpire;
	const char			*date;
	const char			*secret_file;	/* NULL: .git's */
	const char			*templates;	/* NULL: installed */
	/* where the account goes as the rerun runs: the branch, each
	 * turn's headline, new and old, the later orders skipped because
	 * they no longer pass validation, and at the end what differs
	 * from main's last turn, unit by unit, and how to adopt it */
	FILE				*out;
};

/*
 * Rerun in->turn and replay the turns after it, each with main's salt
 * for it and the campaign dice, onto branch rerun/turn-N (made, or
 * replacing an earlier rerun of that turn).  0; CROWN_EINVALID with the
 * problems in d (no such turn, an amended order refused: then nothing
 * is written); CROWN_EUSAGE for a bad --umpire or --date; the other
 * CROWN_E* codes.
 */
int	crown_campaign_rerun(const struct crown_rerun_input *,
	    struct crown_diags *d);

/* What a commit of main made by an adopted rerun says (adopt.c). */
struct crown_rerun_mark {
	int	 of;		/* the turn rerun; -1: no rerun's commit */
	char	*reason;	/* of = the commit's turn: the rerun's
				 * --reason, NULL: none */
	char	*adopted;	/* and the adoption's, NULL: none */
};

/*
 * The mark of the commit of turn whose message is message: of the turn
 * the rerun played again (with the reasons, from the message and the
 * last tag replaced/turn-N[-k] of that turn), or of a later turn it
 * replayed.  Release it after use.
 */
void	crown_campaign_rerun_mark(struct crown_rerun_mark *out,
	    struct crown_history *, const char *message, int turn);
/* The mark as crown log shows it: "rerun: REASON; adopted: REASON",
 * "replayed: rerun of turn N", or nothing, appended to b. */
void	crown_rerun_mark_text(struct crown_buf *b,
	    const struct crown_rerun_mark *, int turn);
void	crown_rerun_mark_release(struct crown_rerun_mark *);
/* The TEXT of the first line "Reason: TEXT" of message, or NULL; caller
 * frees. */
char	*crown_campaign_reason(const char *message);

/*
 * The mails of adopting rerun line b (a rerun of turn, reaching b->last):
 * to every player, as the players and deadline stand at b's tip, the
 * report of b's last turn, with its map, state and the orders form of
 * the next turn, as crown turn mails them, opened by a paragraph that
 * says which turns were played again, what the mail replaces and why
 * (the rerun's reason, and the adoption's reason when not NULL), added
 * to mails.  date as crown_mail_turn_reports takes it.  0 or an error,
 * problems to d.
 */
int	crown_campaign_adopt_mails(struct crown_outputs *mails,
	    struct crown_history *, const struct crown_chain *b, int turn,
	    const char *reason, const char *date, struct crown_diags *d);

#endif
