/*
 * tidy.h: the work files crown inbox leaves beside the pending orders
 * (orders/late/SIDE.yaml, orders/pending/SIDE.proof), what becomes of
 * each, and their removal once a turn makes them obsolete (tidy.c).
 *
 * Late orders for the open turn stay for the umpire, who may move them
 * to orders/pending/ (an extension); the turn played removes them, and
 * any late orders of a turn already played.  A proof goes with the
 * pending orders it is the proof of (its receipt is theirs): one whose
 * orders are gone, or changed, is obsolete.  A late file that cannot be
 * read as orders of a turn is not crown's to remove: it is left alone.
 * crown turn removes what its turn makes obsolete just after the
 * commit, with the pending orders it played; every writing command's
 * repair removes what a run killed before then left.
 */
#ifndef CROWN_TIDY_H
#define CROWN_TIDY_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/mail.h"

enum crown_tidy_kind {
	CROWN_TIDY_LATE,	/* late orders for the open turn */
	CROWN_TIDY_LATE_PLAYED,	/* late orders of a turn played: obsolete */
	CROWN_TIDY_PROOF,	/* the proof of orders pending */
	CROWN_TIDY_PROOF_GONE,	/* of orders no longer pending: obsolete */
	CROWN_TIDY_UNREADABLE	/* not orders of a turn: left alone */
};

struct crown_tidy_file {
	char			*path;		/* from the top of the campaign */
	enum crown_tidy_kind	 kind;
	int			 turn;		/* late orders: their turn */
	char			*side;		/* the side named, or NULL */
	char			 rec[CROWN_SHA256_HEX];	/* late: receipt */
};

struct crown_tidy {
	struct crown_tidy_file	*v;		/* by name */
	size_t			 n;
};

/*
 * The work files of the campaign at workdir once turn played is played
 * (the last turn played, or the one being committed), given that the
 * pending orders gone[] (paths as crown_campaign_pending gives them) go
 * with it.  Release out after use.
 */
void	crown_campaign_tidy(struct crown_tidy *out, const char *workdir,
	    int played, char *const *gone, size_t ngone);
void	crown_tidy_release(struct crown_tidy *);
/* Is f obsolete (crown removes it)? */
bool	crown_tidy_obsolete(const struct crown_tidy_file *f);
/*
 * paths += the obsolete files of t, each workdir/PATH (caller frees
 * each and *paths), for crown_advance to remove after the commit.
 */
void	crown_tidy_paths(char ***paths, size_t *n, const struct crown_tidy *t,
	    const char *workdir);
/*
 * The repair's share: the files obsolete once turn played is played,
 * removed, each said as a note.
 */
void	crown_campaign_tidy_repair(const char *workdir, int played,
	    struct crown_diags *d);

#endif
