/*
 * outputs.h: files held in memory and written to disk whole or not at
 * all.  A turn's state, events, reports and map are made in memory first
 * (report.h, campaign.h), read from and committed to the history
 * (history.h), left in the outbox (mail.h) or written by crown resolve:
 * every layer above io shares these.
 */
#ifndef CROWN_OUTPUTS_H
#define CROWN_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

/* A named output file held in memory: "report.md", "report-french.md",
 * "map.svg". */
struct crown_output {
	char		*name;
	struct crown_buf data;
};

struct crown_outputs {
	struct crown_output	*v;
	size_t			 n;
	size_t			 cap;
};

struct crown_buf *crown_outputs_add(struct crown_outputs *, const char *name);
/* Add the file name holding what *b holds, taken whole: *b is left empty
 * (a turn's events are megabytes, not copied again). */
void	crown_outputs_take(struct crown_outputs *, const char *name,
	    struct crown_buf *b);
void	crown_outputs_release(struct crown_outputs *);

/* Write data to path through a new temporary file beside it (of mode,
 * synced when sync) renamed into place, which replaces a link there,
 * never what it points to: 0, or the errno (the temporary removed). */
int	crown_put_file(const char *path, const char *data, size_t len,
	    mode_t mode, bool sync);

/* Write data to dir/name atomically (temporary file, fsync, rename);
 * CROWN_EWRITE with a diagnostic on failure. */
int	crown_write_file(const char *dir, const char *name, const char *data,
	    size_t len, struct crown_diags *d);
/*
 * Write every file of files (names relative to dir, whose directories must
 * exist) all or none: each to a temporary file beside it, synced, and only
 * when all are written, each renamed into place.  On a failure (a full
 * disk, a directory that cannot be written) the temporaries are removed,
 * and so are the files this call had renamed; CROWN_EWRITE with a
 * diagnostic.
 */
int	crown_write_outputs(const char *dir, const struct crown_outputs *files,
	    struct crown_diags *d);
/* mkdir -p; CROWN_EWRITE on failure. */
int	crown_mkdirs(const char *path, struct crown_diags *d);
/* Make what path holds lasting: one fsync of the file, or of the
 * directory (the names put into it).  0, or the errno. */
int	crown_sync_path(const char *path);

/* No process has this pid (kill(pid, 0) says ESRCH): a run that had it
 * is gone.  A pid that is alive may be another program's now. */
bool	crown_pid_gone(long pid);
/*
 * Remove the temporaries that runs killed while they wrote left in dir,
 * and, when deep, in the directories below it (never a link's, nor a
 * .git): those of crown_put_file and crown_write_outputs (.NAME.tmp.PID)
 * and of an older crown's lock (crown.lock.PID, crown.lock.dead.PID)
 * whose process is gone (crown_pid_gone), each with a note in d.
 * Whatever cannot be read or removed stays, unsaid.
 */
void	crown_temps_sweep(const char *dir, bool deep, struct crown_diags *d);

#endif
