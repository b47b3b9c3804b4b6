/*
 * lock.h: crown's lock on a campaign and what a killed run left in .git,
 * for history.c, which holds a struct crown_lock in each open history
 * (lock.c).  Not a public header: nothing outside history/ includes it;
 * commands reach these through crown_history_open, _check_locks and
 * _sweep (crown/history.h).
 */
#ifndef CROWN_HISTORY_LOCK_H
#define CROWN_HISTORY_LOCK_H

#include <stdbool.h>
#include <time.h>

#include "crown/diag.h"

/* The longest command line a lock keeps of its holder, with its NUL. */
#define LOCK_COMMAND_MAX	200

struct crown_lock {
	char		*path;		/* lock file held, or NULL */
	int		 fd;		/* open on it, flocked, when held */
	bool		 took_over;	/* from a dead holder, whose lock */
	struct timespec	 dead_since;	/* was written then, */
	char		*dead;		/* saying this; */
	bool		 keep_dead;	/* said again on release, as a lock
					 * of its stays */
};

/*
 * Take GITDIR/crown.lock: an flock on that file, held until
 * crown_lock_release or the end of the process, and the file saying who
 * holds it ("PID HOST COMMAND\n").  A lock file naming a holder that no
 * one holds any more is a dead run's: taken over, with a note in d.
 * CROWN_ELOCKED, naming the holder, if another run holds it; CROWN_EWRITE
 * if it cannot be made.  dir is the campaign as given, for the messages.
 */
int	crown_lock_take(struct crown_lock *, const char *gitdir,
	    const char *dir, struct crown_diags *d);

/* Let go of the lock if held: the file emptied (or naming the dead
 * holder again, when crown_lock_check_git left a lock of its), the flock
 * ended. */
void	crown_lock_release(struct crown_lock *);

/* The locks of git's under gitdir (crown_history_check_locks). */
int	crown_lock_check_git(struct crown_lock *, const char *gitdir,
	    struct crown_diags *d);

/* The temporaries a killed run left in gitdir/objects
 * (crown_history_sweep). */
void	crown_lock_sweep(const char *gitdir, struct crown_diags *d);

#endif
