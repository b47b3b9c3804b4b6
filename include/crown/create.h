/*
 * create.h: crown new's campaign (create.c): a scenario checked whole,
 * then committed as turn 0 of a new repository built beside DIR and
 * renamed into place, so that a crown new stopped at any moment leaves
 * no DIR or a complete campaign.
 */
#ifndef CROWN_CREATE_H
#define CROWN_CREATE_H

#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"

struct crown_new_input {
	const char	*dir;		/* absent or an empty directory */
	const char	*scenario;	/* the scenario's file */
	const char	*rules;		/* NULL: those the scenario names */
	const char	*secret_file;	/* NULL: 32 random bytes */
	const char	*templates;	/* NULL: installed */
	const char	*umpire;	/* "Name <email>"; NULL: game.umpire */
	const char	*date;		/* NULL: now */
	/* --sign: the umpire's OpenPGP fingerprint; NULL: the scenario's
	 * game.umpire.openpgp, or an unsigned history */
	const char	*sign;
	/* the "Victory" text of the briefings for the game of that name,
	 * malloc'd, or NULL (crown_cmd_victory) */
	char		*(*victory)(const char *game);
};

/* What crown new tells the umpire; crown_new_result_release frees it. */
struct crown_new_result {
	char	 id[CROWN_OID_HEX + 1];	/* turn 0's commit */
	char	*headline;		/* "NAME, SIDE against SIDE" */
	char	*commitment;		/* game.dice_commitment */
	size_t	 briefings;		/* mails put in DIR/outbox */
};

/*
 * Make the campaign in->dir: every problem of the scenario and the rules
 * found before anything is written (CROWN_EINVALID, CROWN_ENOTFOUND), a
 * DIR that is neither absent nor empty refused, saying whether it is a
 * campaign (CROWN_EWRITE); then the repository made beside DIR as
 * ".DIR.crown-new.PID" (what dead runs left there removed first, a note
 * in d), turn 0 committed and tagged through crown_advance, orders/pending
 * made, and the whole renamed into place.  On any failure nothing of it
 * is left.  *out is filled on success.
 */
int	crown_campaign_create(struct crown_new_result *out,
	    const struct crown_new_input *, struct crown_diags *d);
void	crown_new_result_release(struct crown_new_result *);

#endif
