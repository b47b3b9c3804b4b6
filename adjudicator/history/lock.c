/*
 * lock.c: crown's lock on a campaign (.git/crown.lock) and what a killed
 * run left in .git: the lock, an flock(2) on a file that is never
 * removed, so that a dead holder's lock frees itself; git's own locks
 * (those a dead holder left removed, any other refused); and the sweep
 * of the objects it was writing.  Plain files under the git directory;
 * no libgit2 here (history.c holds the repository).
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

#include "lock.h"

struct holder {
	long	pid;
	char	host[256];
	char	command[LOCK_COMMAND_MAX];
};

static bool	holder_read(struct holder *, int);
static size_t	holder_line(char *, size_t);
static void	git_lock(const struct crown_lock *, const char *,
		    const struct stat *, struct crown_diags *, int *);
static void	git_locks(const struct crown_lock *, const char *,
		    const char *, struct crown_diags *, int *);

/*
 * The holder the lock file fd names: "PID HOST COMMAND\n", the command
 * optional (an older crown wrote none).  False when it names none: an
 * empty file (released), or one whose holder has not written it yet.
 */
static bool
holder_read(struct holder *h, int fd)
{
	char		 buf[sizeof(h->host) + sizeof(h->command) + 32], *end;
	const char	*p;
	ssize_t		 n;
	size_t		 len;

	memset(h, 0, sizeof(*h));
	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return false;
	buf[n] = '\0';
	h->pid = strtol(buf, &end, 10);
	if (end == buf || *end != ' ' || h->pid <= 0)
		return false;
	p = end + 1;
	len = strcspn(p, " \n");
	if (len == 0 || len >= sizeof(h->host) || p[len] == '\0')
		return false;
	memcpy(h->host, p, len);
	p += len;
	if (*p == ' ') {
		p++;
		len = strcspn(p, "\n");
		if (p[len] != '\n' || len >= sizeof(h->command))
			return false;
		memcpy(h->command, p, len);
	}
	return true;
}

/*
 * This process as a holder: "PID HOST COMMAND\n" into buf, the command
 * line from /proc (where there is one) with its arguments joined by
 * spaces, cut to LOCK_COMMAND_MAX - 1 bytes, control characters as '?'.
 * Returns the length.
 */
static size_t
holder_line(char *buf, size_t cap)
{
	char	host[256], cmd[LOCK_COMMAND_MAX];
	ssize_t	n = -1;
	size_t	i;
	int	fd, k;

	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	host[strcspn(host, " \n")] = '\0';
	if ((fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	if (n < 0)
		n = 0;
	while (n > 0 && cmd[n - 1] == '\0')
		n--;
	for (i = 0; i < (size_t)n; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
		else if ((unsigned char)cmd[i] < ' ' || cmd[i] == 0x7f)
			cmd[i] = '?';
	cmd[n] = '\0';
	k = snprintf(buf, cap, "%ld %s %s\n", (long)getpid(), host, cmd);
	return k > 0 && (size_t)k < cap ? (size_t)k : 0;
}

int
crown_lock_take(struct crown_lock *l, const char *gitdir, const char *dir,
    struct crown_diags *d)
{
	struct holder	 was;
	struct stat	 st;
	char		*path, line[sizeof(was.host) + LOCK_COMMAND_MAX + 32];
	size_t		 n;
	int		 fd, e;

	path = xasprintf("%scrown.lock", gitdir);
	/* the file stays; holding it is holding the flock on it, which
	 * ends with the holder's process however it ends */
	if ((fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	    0644)) < 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot open the lock: "
		    "%s", strerror(errno));
		free(path);
		return CROWN_EWRITE;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if ((e = errno) != EWOULDBLOCK)
			crown_diag_add(d, path, 0, 0, NULL, "cannot lock: %s",
			    strerror(e));
		else if (holder_read(&was, fd))
			crown_diag_add(d, dir, 0, 0, NULL, "the campaign "
			    "is locked by crown %ld on %s%s%s%s (%s); try "
			    "again when it has finished", was.pid, was.host,
			    was.command[0] != '\0' ? ", running '" : "",
			    was.command, was.command[0] != '\0' ? "'" : "",
			    path);
		else
			crown_diag_add(d, dir, 0, 0, NULL, "the campaign "
			    "is locked by another run (%s); try again when "
			    "it has finished", path);
		close(fd);
		free(path);
		return e == EWOULDBLOCK ? CROWN_ELOCKED : CROWN_EWRITE;
	}
	/* a holder named in a lock no one holds died holding it (it
	 * empties the file before it lets go) */
	if (holder_read(&was, fd) && fstat(fd, &st) == 0) {
		crown_diag_note(d, "crown", 0, 0, NULL, "taking over %s: "
		    "crown %ld on %s, which held it, is no longer running",
		    path, was.pid, was.host);
		l->took_over = true;
		l->dead_since = st.st_mtim;
		l->dead = xasprintf("%ld %s%s%s\n", was.pid, was.host,
		    was.command[0] != '\0' ? " " : "", was.command);
	}
	n = holder_line(line, sizeof(line));
	if (ftruncate(fd, 0) != 0 || n == 0 ||
	    write(fd, line, n) != (ssize_t)n) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot write the lock: "
		    "%s", n == 0 ? "holder too long" : strerror(errno));
		(void)ftruncate(fd, 0);
		close(fd);
		free(path);
		free(l->dead);
		l->dead = NULL;
		return CROWN_EWRITE;
	}
	l->fd = fd;
	l->path = path;
	return 0;
}

void
crown_lock_release(struct crown_lock *l)
{
	struct timespec	t[2];
	size_t		n;

	if (l->path == NULL)
		return;
	/* emptied first: a lock that names a holder nobody holds is a
	 * dead run's; or, when this run left a git lock of that run's
	 * (too fresh to be sure of), that run named again as it was, so
	 * that the next run takes it over and removes it */
	(void)ftruncate(l->fd, 0);
	if (l->keep_dead && l->dead != NULL) {
		n = strlen(l->dead);
		t[0].tv_sec = 0;
		t[0].tv_nsec = UTIME_OMIT;
		t[1] = l->dead_since;
		if (pwrite(l->fd, l->dead, n, 0) != (ssize_t)n ||
		    futimens(l->fd, t) != 0)
			(void)ftruncate(l->fd, 0);
	}
	close(l->fd);
	free(l->dead);
	l->dead = NULL;
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
crown_lock_check_git(struct crown_lock *l, const char *gitdir,
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
	l->keep_dead = n > 0 && l->took_over;
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
