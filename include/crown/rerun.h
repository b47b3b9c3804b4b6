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

#endif
