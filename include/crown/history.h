/*
 * history.h: the campaign's git repository, through libgit2 (FORMATS.md
 * "Campaign repository").  Every use of libgit2 is in history/ (history.c;
 * gpgsign.c for signed commits and tags); the rest of crown sees commits
 * as 40-digit hex ids and files as named buffers.
 *
 * Atomicity: objects (blobs, trees, commits) are written first; they are
 * content-addressed and harmless until a reference names them.  Moving a
 * reference (compare-and-swap on its old target) is the single commit
 * point; the work tree and index are brought up to date afterwards, and
 * any command that writes repairs them first if a run was killed.
 */
#ifndef CROWN_HISTORY_H
#define CROWN_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/outputs.h"
#include "crown/xalloc.h"

#define CROWN_OID_HEX	40
#define CROWN_MAIN_REF	"refs/heads/main"

struct crown_history;

/* Who made a commit and when: an input, so history is reproducible. */
struct crown_stamp {
	const char	*name;
	const char	*email;
	long long	 time;		/* seconds since the epoch */
	int		 offset;	/* minutes east of UTC */
	/* the umpire's OpenPGP key (game.umpire.openpgp) that signs the
	 * commit or annotated tag (crown/gpgsign.h); NULL: unsigned */
	const char	*sign;
};

/* One commit of a first-parent chain. */
struct crown_hcommit {
	char		 id[CROWN_OID_HEX + 1];
	char		*subject;	/* first line of the message */
	char		*message;
	long long	 time;		/* committer time */
	int		 offset;
	unsigned	 nparents;
};

struct crown_hlist {
	struct crown_hcommit	*v;
	size_t			 n;
	size_t			 cap;
};

/*
 * Fault injection for the tests: crown_history_fail_after(n, kill) makes
 * the nth step from now fail (n = 0 turns it off).  A step is one write:
 * taking the lock, an object, a reference, a checkout, a file of the work
 * tree.  With kill the process _exit()s at that step, as if killed, with
 * no cleanup; otherwise the step returns CROWN_EWRITE.  The counter of
 * steps taken since the last call is crown_history_steps().
 */
void	crown_history_fail_after(unsigned long n, bool kill);
unsigned long crown_history_steps(void);

/* Count one step; CROWN_EWRITE (with a diagnostic) if it is to fail. */
int	crown_history_step(const char *what, struct crown_diags *d);

/*
 * Create a repository at dir (made if absent) with HEAD on
 * refs/heads/main and nothing committed, and take its lock.
 * CROWN_EWRITE if it cannot.
 */
int	crown_history_create(struct crown_history **out, const char *dir,
	    struct crown_diags *d);

/*
 * Open the repository at dir.  With `lock`, take the campaign's lock
 * (an flock on .git/crown.lock, held until crown_history_close or the
 * process ends): CROWN_ELOCKED if another run holds it.
 * CROWN_ENOTFOUND if dir is not a repository.
 */
int	crown_history_open(struct crown_history **out, const char *dir,
	    bool lock, struct crown_diags *d);

/*
 * The lock file says "PID HOST COMMAND\n" while it is held, and is
 * emptied when it is let go: one naming a holder that holds it no more
 * is a dead run's, taken over with a note in d.
 *
 * The locks libgit2 and git take (index.lock, HEAD.lock, a NAME.lock under refs)
 * left by a killed run: those made while a dead holder had crown's lock,
 * which this run took over, are removed (a note in d); any other is
 * CROWN_ELOCKED with a diagnostic naming it, as a git command run by hand
 * takes the same ones.  Checked under crown's lock, before any write.
 */
int	crown_history_check_locks(struct crown_history *,
	    struct crown_diags *d);

/* Remove what killed runs were writing, each with a note in d: objects
 * (objects/tmp_object_git2_*), and the temporaries whose process is gone
 * (crown_temps_sweep) in .git, its staged mails and the work tree; under
 * crown's lock. */
void	crown_history_sweep(struct crown_history *, struct crown_diags *d);

/*
 * Was a damaged loose object met since the repository was opened (its
 * zlib stream cut short, which libgit2 1.5 would inflate for ever; the
 * read fails instead, loose.c)?  Then its diagnostic, naming its file
 * and git fsck, goes into d the first time, and true: the command exits
 * CROWN_EDAMAGED.
 */
bool	crown_history_damage(struct crown_diags *d);

/* Release the lock (if held) and the repository. */
void	crown_history_close(struct crown_history *);

/*
 * Has a read found an object missing from the store (a shallow or
 * partial clone, CROWN_EMISSING), even one whose diagnostics the caller
 * set aside?
 */
bool	crown_history_missing(const struct crown_history *);

/* The .git directory (with a trailing slash) and the work tree. */
const char *crown_history_gitdir(const struct crown_history *);
const char *crown_history_workdir(const struct crown_history *);

/*
 * The first-parent chain of ref (a full name, "refs/heads/main"; a tag
 * names its commit), root first.  CROWN_ENOTFOUND (no diagnostic) if
 * ref does not exist.
 */
int	crown_history_log(struct crown_hlist *out, struct crown_history *,
	    const char *ref, struct crown_diags *d);
void	crown_hlist_release(struct crown_hlist *);

/* The target of a reference (an annotated tag's commit); CROWN_ENOTFOUND
 * (no diagnostic) if absent. */
int	crown_history_ref_get(char *id, struct crown_history *,
	    const char *ref, struct crown_diags *d);

/*
 * Point ref at id.  With expect, only if it still points at expect
 * (compare-and-swap); else create it, replacing it only when force.
 * The reflog says `log`.
 */
int	crown_history_ref_set(struct crown_history *, const char *ref,
	    const char *id, const char *expect, bool force, const char *log,
	    struct crown_diags *d);

/* Delete a reference; absent is not an error. */
int	crown_history_ref_delete(struct crown_history *, const char *ref,
	    struct crown_diags *d);

/*
 * Names of the references matching a glob ("refs/tags/turn-*"), sorted.
 * Caller frees each and the array.
 */
int	crown_history_refs(char ***out, size_t *n, struct crown_history *,
	    const char *glob, struct crown_diags *d);

/*
 * Tag id as refs/tags/name: lightweight, or annotated when stamp is
 * given (with message; signed when the stamp says so).  Replaces an
 * existing tag only when force.
 */
int	crown_history_tag(struct crown_history *, const char *name,
	    const char *id, const struct crown_stamp *stamp,
	    const char *message, bool force, struct crown_diags *d);

/*
 * The message of the annotated tag refs/tags/name, appended to out;
 * CROWN_ENOTFOUND (no diagnostic) when there is no such annotated tag.
 */
int	crown_history_tag_message(struct crown_buf *out,
	    struct crown_history *, const char *name, struct crown_diags *d);

/* True if ancestor is commit or one of its ancestors. */
bool	crown_history_is_ancestor(struct crown_history *,
	    const char *ancestor, const char *commit);

/*
 * Read path of commit into out (appended).  CROWN_ENOTFOUND (no
 * diagnostic) if the commit has no such file.
 */
int	crown_history_read(struct crown_buf *out, struct crown_history *,
	    const char *commit, const char *path, struct crown_diags *d);

/*
 * Every file of commit under dir ("" for the whole tree), recursively, in
 * the tree's order, as named buffers appended to out (names are paths
 * from the top).  A missing dir gives no files.
 */
int	crown_history_files(struct crown_outputs *out, struct crown_history *,
	    const char *commit, const char *dir, struct crown_diags *d);

/*
 * The files in which commits a and b differ, without reading what they
 * share: a's into a_out, b's into b_out (paths from the top, as
 * crown_history_files).  A file with the same object in both, or a
 * directory with the same tree, is left out of both, unless keep(path,
 * arg) is true for it: for a directory path ends with '/', and keep
 * should be true when a kept file may be under it.
 */
int	crown_history_files_diff(struct crown_outputs *a_out,
	    struct crown_outputs *b_out, struct crown_history *,
	    const char *a, const char *b, bool (*keep)(const char *, void *),
	    void *arg, struct crown_diags *d);

/*
 * Write a commit (objects only, no reference moves): the tree of parent
 * (none when parent is NULL) with files (names are paths; each added or
 * replaced), the message, author and committer stamp, signed when the
 * stamp says so (CROWN_EUNAVAILABLE when the key cannot sign).  *id is
 * the new commit.
 */
int	crown_history_commit(char *id, struct crown_history *,
	    const char *parent, const struct crown_outputs *files,
	    const char *message, const struct crown_stamp *,
	    struct crown_diags *d);

/*
 * The work tree: the tracked paths whose index or work tree content
 * differs from HEAD (caller frees), and a forced checkout of HEAD into
 * the work tree and the index (files of the old index that HEAD lacks are
 * removed; untracked files are left alone).
 */
int	crown_history_dirty(char ***out, size_t *n, struct crown_history *,
	    struct crown_diags *d);
int	crown_history_checkout(struct crown_history *, struct crown_diags *d);
/*
 * The same after a commit that wrote files on top of the work tree's
 * (a turn): those files written from memory and their index entries from
 * HEAD's ids, not read back from the objects just written; anything
 * unusual in the way, and the whole checkout is done.
 */
int	crown_history_checkout_files(struct crown_history *,
	    const struct crown_outputs *files, struct crown_diags *d);

/* Make HEAD the symbolic reference to ref if it is not (someone checked
 * out another branch); *moved says whether it was changed. */
int	crown_history_head_to(struct crown_history *, const char *ref,
	    bool *moved, struct crown_diags *d);

/* Set repository configuration (core.autocrlf, ...): a string value. */
int	crown_history_config_set(struct crown_history *, const char *key,
	    const char *value, struct crown_diags *d);

/*
 * Push refspecs to remote: a configured remote's name, or a URL or path
 * (saved as "origin" when there is no origin yet).  Every update the
 * remote refuses is a diagnostic.
 */
int	crown_history_push(struct crown_history *, const char *remote,
	    char *const *refspecs, size_t n, struct crown_diags *d);

#endif
