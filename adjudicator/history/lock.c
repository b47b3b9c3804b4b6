/*
 * lock.c: crown's lock on a campaign (.git/crown.lock) and what a killed
 * run left in .git: the take-over of a dead holder's lock, git's own
 * locks (those the dead holder left removed, any other refused), and the
 * sweep of the objects it was writing.  Plain files under the git
 * directory; no libgit2 here (history.c holds the repository).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

#include "lock.h"

static bool	lock_holder(long *, char *, size_t, bool *, const char *);
static bool	lock_is_mine(const char *);
static bool	take_over(struct timespec *, const char *, long,
		    const char *);
static void	git_lock(const struct crown_lock *, const char *,
		    const struct stat *, struct crown_diags *, int *);
static void	git_locks(const struct crown_lock *, const char *,
		    const char *, struct crown_diags *, int *);

/*
 * The holder recorded in a lock: "PID HOST\n".  Returns true, with *dead
 * set, when the lock names a holder; a lock without one (written by an
 * older crown, or not yet written) proves nothing.
 */
static bool
lock_holder(long *pid, char *host, size_t hostlen, bool *dead,
    const char *path)
{
	char		 buf[320], me[256], *end;
	ssize_t		 n;
	size_t		 len;
	int		 fd;

	*dead = false;
	if ((fd = open(path, O_RDONLY)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	*pid = strtol(buf, &end, 10);
	if (end == buf || *end != ' ' || *pid <= 0)
		return false;
	len = strcspn(end + 1, "\n");
	if (len == 0 || len >= hostlen || end[1 + len] != '\n')
		return false;
	memcpy(host, end + 1, len);
	host[len] = '\0';
	/* only a process of this host can be asked whether it lives */
	if (gethostname(me, sizeof(me)) != 0)
		return true;
	me[sizeof(me) - 1] = '\0';
	*dead = strcmp(me, host) == 0 && kill((pid_t)*pid, 0) != 0 &&
	    errno == ESRCH;
	return true;
}

/* The lock at path names this process of this host. */
static bool
lock_is_mine(const char *path)
{
	char	host[256], me[256];
	long	pid;
	bool	dead;

	if (!lock_holder(&pid, host, sizeof(host), &dead, path))
		return false;
	if (gethostname(me, sizeof(me)) != 0)
		return false;
	me[sizeof(me) - 1] = '\0';
	return pid == (long)getpid() && strcmp(host, me) == 0;
}

/*
 * Move a dead holder's lock out of the way, atomically: renamed to a
 * name of our own and checked, so that of two runs taking it over at
 * once only one wins, and a lock a live run made meanwhile is put back.
 */
static bool
take_over(struct timespec *since, const char *path, long pid,
    const char *host)
{
	struct stat	 st;
	char		*mine, h2[256];
	long		 p2;
	bool		 dead, ok;

	mine = xasprintf("%s.dead.%ld", path, (long)getpid());
	if (rename(path, mine) != 0) {
		free(mine);
		return false;
	}
	ok = lock_holder(&p2, h2, sizeof(h2), &dead, mine) && dead &&
	    p2 == pid && strcmp(h2, host) == 0 && stat(mine, &st) == 0;
	if (ok)
		*since = st.st_mtim;
	if (!ok && link(mine, path) != 0) {
		/* someone holds it now; theirs stays */
	}
	unlink(mine);
	free(mine);
	return ok;
}

int
crown_lock_take(struct crown_lock *l, const char *gitdir, const char *dir,
    struct crown_diags *d)
{
	char	*path, *tmp, host[256], line[320];
	long	 pid;
	int	 fd, n, error, tries;
	bool	 dead;

	path = xasprintf("%scrown.lock", gitdir);
	/* written whole beside it and linked into place, so that a lock is
	 * never seen without its holder */
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	n = snprintf(line, sizeof(line), "%ld %s\n", (long)getpid(), host);
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	unlink(tmp);
	if (n <= 0 || (size_t)n >= sizeof(line) ||
	    (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0 ||
	    write(fd, line, (size_t)n) != (ssize_t)n || close(fd) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot create the lock: "
		    "%s", strerror(errno));
		unlink(tmp);
		free(tmp);
		free(path);
		return CROWN_EWRITE;
	}
	for (tries = 0; ; tries++) {
		if (link(tmp, path) == 0)
			break;
		if (errno != EEXIST) {
			crown_diag_add(d, path, 0, 0, NULL, "cannot create "
			    "the lock: %s", strerror(errno));
			error = CROWN_EWRITE;
			goto fail;
		}
		if (tries == 0 && lock_holder(&pid, host, sizeof(host),
		    &dead, path) && dead && take_over(&l->dead_since, path,
		    pid, host)) {
			crown_diag_note(d, "crown", 0, 0, NULL, "taking over "
			    "%s: crown %ld on %s, which held it, is no longer "
			    "running", path, pid, host);
			l->took_over = true;
			continue;
		}
		if (lock_holder(&pid, host, sizeof(host), &dead, path))
			crown_diag_add(d, dir, 0, 0, NULL, "the campaign "
			    "is locked by crown %ld on %s (%s); if it is not "
			    "running, remove that file", pid, host, path);
		else
			crown_diag_add(d, dir, 0, 0, NULL, "the campaign "
			    "is locked by another run (%s); if no crown is "
			    "running on it, remove that file", path);
		error = CROWN_ELOCKED;
		goto fail;
	}
	unlink(tmp);
	free(tmp);
	l->path = path;
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	free(path);
	return error;
}

void
crown_lock_release(struct crown_lock *l)
{
	if (l->path == NULL)
		return;
	/* only our own: should a takeover have gone wrong, another run's
	 * lock stays where it is */
	if (lock_is_mine(l->path))
		unlink(l->path);
	free(l->path);
	l->path = NULL;
}

/* Seconds a git lock must have lain untouched to be taken for the dead
 * run's. */
#define GIT_LOCK_QUIET	2

/*
 * A lock of git's at p: the dead run's when crown's lock was taken over
 * from it and p was made while it held that (removed, and said), else a
 * diagnostic.
 */
static void
git_lock(const struct crown_lock *l, const char *p, const struct stat *st,
    struct crown_diags *d, int *n)
{
	struct timespec	now;

	/* made while the dead run held the campaign, and not touched in
	 * the last seconds (a git command just started is not the dead
	 * run's) */
	clock_gettime(CLOCK_REALTIME, &now);
	if (l->took_over && (st->st_mtim.tv_sec > l->dead_since.tv_sec ||
	    (st->st_mtim.tv_sec == l->dead_since.tv_sec &&
	    st->st_mtim.tv_nsec >= l->dead_since.tv_nsec)) &&
	    st->st_mtim.tv_sec + GIT_LOCK_QUIET <= now.tv_sec &&
	    unlink(p) == 0) {
		crown_diag_note(d, "crown", 0, 0, NULL, "removed %s, left by "
		    "the run that died with the campaign's lock", p);
		return;
	}
	crown_diag_add(d, p, 0, 0, NULL, "a lock of git's: left by a killed "
	    "run, or a git command is running; if none is, remove this "
	    "file");
	(*n)++;
}

/* Every *.lock under sub (a directory of .git). */
static void
git_locks(const struct crown_lock *l, const char *gitdir, const char *sub,
    struct crown_diags *d, int *n)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*dp;
	char		*dir, *p;
	size_t		 len;

	dir = xasprintf("%s%s", gitdir, sub);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		len = strlen(de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *s2 = xasprintf("%s/%s", sub, de->d_name);

			git_locks(l, gitdir, s2, d, n);
			free(s2);
		} else if (len > 5 && strcmp(de->d_name + len - 5, ".lock")
		    == 0)
			git_lock(l, p, &st, d, n);
		free(p);
	}
	closedir(dp);
	free(dir);
}

int
crown_lock_check_git(const struct crown_lock *l, const char *gitdir,
    struct crown_diags *d)
{
	static const char *const top[] = {
		"index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"
	};
	struct stat	 st;
	char		*p;
	size_t		 i;
	int		 n = 0;

	for (i = 0; i < sizeof(top) / sizeof(top[0]); i++) {
		p = xasprintf("%s%s", gitdir, top[i]);
		if (lstat(p, &st) == 0)
			git_lock(l, p, &st, d, &n);
		free(p);
	}
	git_locks(l, gitdir, "refs", d, &n);
	return n > 0 ? CROWN_ELOCKED : 0;
}

void
crown_lock_sweep(const char *gitdir, struct crown_diags *d)
{
	struct dirent	*de;
	DIR		*dp;
	char		*dir, *p;

	/* under crown's lock no other libgit2 writer is at work here:
	 * these are objects a killed run was writing, or its probe */
	dir = xasprintf("%sobjects", gitdir);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strncmp(de->d_name, "tmp_object_git2_", 16) != 0 &&
		    strncmp(de->d_name, "crown-room.", 11) != 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (unlink(p) == 0)
			crown_diag_note(d, "crown", 0, 0, NULL, "removed %s, "
			    "left by a killed run", p);
		free(p);
	}
	closedir(dp);
	free(dir);
}
