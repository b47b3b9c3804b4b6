/*
 * advance.h: a line of play (main, or a rerun branch) moves on: the one
 * place crown makes a commit, moves a reference, tags, and brings the
 * work tree, the pending orders and the outbox after it.  new, turn,
 * rerun, adopt, reveal, upgrade, deadline and roster all go through it.
 *
 * The commit point is the compare-and-swap on the line's reference.
 * Before it: the commit's objects, a tag that keeps the line left behind
 * (adopt's replaced/turn-N), and the mails, staged in
 * .git/crown-outbox/COMMIT/; a run killed there leaves nothing a reader
 * sees.  After it, every step is one the next run's repair
 * (crown_campaign_repair, crown_advance_repair) does again: the tag of
 * the new tip, the work tree, the pending orders the commit holds, the
 * staged mails moved into the outbox, a rerun branch adopted into main
 * deleted.
 */
#ifndef CROWN_ADVANCE_H
#define CROWN_ADVANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/history.h"
#include "crown/outputs.h"

/* How the work tree follows the line. */
enum crown_advance_tree {
	CROWN_ADVANCE_NONE,	/* not checked out (a rerun branch) */
	CROWN_ADVANCE_FILES,	/* the files committed, over the work
				 * tree's (a turn) */
	CROWN_ADVANCE_CHECKOUT	/* the whole of HEAD */
};

/* A tag: lightweight, or annotated when stamp is given; in a signed
 * history (the step's stamp has sign) annotated with the step's stamp and
 * message when it has no stamp of its own, and signed. */
struct crown_advance_tag {
	const char		 *name;		/* "turn-3"; NULL: none */
	const char		 *target;	/* NULL: the new tip */
	const struct crown_stamp *stamp;
	const char		 *message;
	bool			  force;	/* replace one of that name */
};

struct crown_advance {
	const char		 *ref;		/* NULL: the commit only */
	const char		 *expect;	/* ref's target now; NULL: a
						 * new ref */
	bool			  force;	/* a new ref replaces one */
	const char		 *log;		/* reflog; NULL: message */
	/* the new tip: the commit to (made already), or one of parent's
	 * tree (none when NULL) with files, message and stamp */
	const char		 *to;
	const char		 *parent;
	const struct crown_outputs *files;
	const char		 *message;
	const struct crown_stamp *stamp;
	struct crown_advance_tag  keep;		/* set before the commit
						 * point */
	struct crown_advance_tag  tag;		/* after it */
	enum crown_advance_tree	  tree;
	char *const		 *pending;	/* paths removed after it */
	size_t			  npending;
	const struct crown_outputs *mails;	/* Maildir name -> message,
						 * into WORKDIR/outbox */
	const char		 *drop;		/* ref deleted at the end */
	const char		 *done;		/* "turn 3 is committed" */
	const char		 *dir;		/* the campaign, as named */
	/* done: said on a failure after the commit point (NULL: nothing
	 * to say, crown new removes what it built) */
};

/*
 * Make the step a describes; *id is the new tip.  A failure before the
 * commit point leaves the line as it was; after it, the diagnostics say
 * a->done and that the next crown command finishes the work tree.
 */
int	crown_advance(char *id, struct crown_history *,
	    const struct crown_advance *a, struct crown_diags *d);

/*
 * The repair's share (under the campaign's lock, main at tip): the mails
 * of a commit on main still staged are moved into the outbox, those of a
 * commit that never reached main removed, and rerun branches adopted into
 * main (their tip one of main's commits) deleted.  Notes to stderr.
 */
int	crown_advance_repair(struct crown_history *, const char *tip,
	    struct crown_diags *d);

#endif
