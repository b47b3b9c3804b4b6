/*
 * outputs.c: files held in memory (a turn's state, events, reports and
 * map) and writing them to disk whole or not at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/outputs.h"
#include "crown/xalloc.h"

struct crown_buf *
crown_outputs_add(struct crown_outputs *o, const char *name)
{
	struct crown_output	*out;

	crown_grow(&o->v, &o->cap, o->n + 1, sizeof(*o->v));
	out = &o->v[o->n++];
	memset(out, 0, sizeof(*out));
	out->name = xstrdup(name);
	crown_buf_puts(&out->data, "");
	return &out->data;
}

void
crown_outputs_take(struct crown_outputs *o, const char *name,
    struct crown_buf *b)
{
	struct crown_buf	*to = crown_outputs_add(o, name);

	if (b->data == NULL)
		return;
	crown_buf_release(to);
	*to = *b;
	memset(b, 0, sizeof(*b));
}

void
crown_outputs_release(struct crown_outputs *o)
{
	size_t	i;

	for (i = 0; i < o->n; i++) {
		free(o->v[i].name);
		crown_buf_release(&o->v[i].data);
	}
	free(o->v);
	memset(o, 0, sizeof(*o));
}

int
crown_mkdirs(const char *path, struct crown_diags *d)
{
	char	*p, *q;
	int	 error = 0;

	p = xstrdup(path);
	for (q = p + 1; error == 0; q++) {
		if (*q != '/' && *q != '\0')
			continue;
		char c = *q;
		*q = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST) {
			crown_diag_add(d, p, 0, 0, NULL,
			    "cannot create directory: %s", strerror(errno));
			error = CROWN_EWRITE;
		}
		*q = c;
		if (c == '\0')
			break;
	}
	free(p);
	return error;
}

static long	temp_pid(const char *);

/* dir/.name.tmp.PID: beside the file, so rename never crosses a disk. */
static char *
temp_name(const char *path)
{
	const char	*slash = strrchr(path, '/');
	size_t		 n = slash != NULL ? (size_t)(slash - path) + 1 : 0;

	return xasprintf("%.*s.%s.tmp.%ld", (int)n, path, path + n,
	    (long)getpid());
}

/* Write a whole file (made with mode when new), synced when sync; 0 or
 * the errno. */
static int
write_temp(const char *tmp, const char *data, size_t len, mode_t mode,
    bool sync)
{
	size_t	off = 0;
	ssize_t	n;
	int	fd, e;

	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, mode)) < 0)
		return errno;
	while (off < len) {
		n = write(fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			close(fd);
			return e;
		}
		off += (size_t)n;
	}
	if (sync && fsync(fd) != 0) {
		e = errno;
		close(fd);
		return e;
	}
	return close(fd) != 0 ? errno : 0;
}

int
crown_put_file(const char *path, const char *data, size_t len, mode_t mode,
    bool sync)
{
	char	*tmp = temp_name(path);
	int	 e;

	/* a temporary left by an earlier run goes first, so the file is
	 * made here, with this mode */
	unlink(tmp);
	if ((e = write_temp(tmp, data, len, mode, sync)) == 0 &&
	    rename(tmp, path) != 0)
		e = errno;
	if (e != 0)
		unlink(tmp);
	free(tmp);
	return e;
}

int
crown_write_outputs(const char *dir, const struct crown_outputs *files,
    struct crown_diags *d)
{
	char	**path, **tmp;
	size_t	  i, j, n = files->n, bad = 0;
	int	  e = 0, fd;

	/* every name first, so that no allocation (which may fail and end
	 * the program) happens while temporaries exist */
	path = xcalloc(n ? n : 1, sizeof(*path));
	tmp = xcalloc(n ? n : 1, sizeof(*tmp));
	for (i = 0; i < n; i++) {
		path[i] = xasprintf("%s/%s", dir, files->v[i].name);
		tmp[i] = temp_name(path[i]);
	}
	for (i = 0; i < n && e == 0; i++)
		if ((e = write_temp(tmp[i], files->v[i].data.data,
		    files->v[i].data.len, 0644, true)) != 0)
			bad = i;
	if (e != 0) {
		for (j = 0; j <= bad; j++)
			unlink(tmp[j]);
	} else {
		for (i = 0; i < n && e == 0; i++)
			if (rename(tmp[i], path[i]) != 0) {
				e = errno;
				bad = i;
			}
		if (e != 0) {
			/* all or none: take back what this call put */
			for (j = 0; j < bad; j++)
				unlink(path[j]);
			for (j = bad; j < n; j++)
				unlink(tmp[j]);
		} else if ((fd = open(dir, O_RDONLY)) >= 0) {
			/* make the renames durable; best effort */
			(void)fsync(fd);
			close(fd);
		}
	}
	if (e != 0)
		crown_diag_add(d, path[bad], 0, 0, NULL, "cannot write: %s",
		    strerror(e));
	for (i = 0; i < n; i++) {
		free(path[i]);
		free(tmp[i]);
	}
	free(path);
	free(tmp);
	return e != 0 ? CROWN_EWRITE : 0;
}

int
crown_write_file(const char *dir, const char *name, const char *data,
    size_t len, struct crown_diags *d)
{
	struct crown_output	o;
	struct crown_outputs	files = { &o, 1, 1 };

	o.name = (char *)name;
	o.data.data = (char *)data;
	o.data.len = o.data.cap = len;
	return crown_write_outputs(dir, &files, d);
}

int
crown_sync_path(const char *path)
{
	int	fd, e = 0;

	if ((fd = open(path, O_RDONLY)) < 0)
		return errno;
	if (fsync(fd) != 0)
		e = errno;
	close(fd);
	return e;
}

/*
 * The pid in the name of a temporary of crown's, or 0: temp_name's
 * ".NAME.tmp.PID", and the "crown.lock.PID" and "crown.lock.dead.PID"
 * that the lock of older crowns made in .git.
 */
static long
temp_pid(const char *name)
{
	const char	*dot = strrchr(name, '.');
	char		*end;
	size_t		 stem;
	long		 pid;

	if (dot == NULL || dot[1] < '1' || dot[1] > '9')
		return 0;
	errno = 0;
	pid = strtol(dot + 1, &end, 10);
	if (*end != '\0' || errno != 0 || (long)(pid_t)pid != pid)
		return 0;
	stem = (size_t)(dot - name);
	if ((name[0] == '.' && stem > 5 && strncmp(dot - 4, ".tmp", 4) == 0) ||
	    (stem == 10 && strncmp(name, "crown.lock", stem) == 0) ||
	    (stem == 15 && strncmp(name, "crown.lock.dead", stem) == 0))
		return pid;
	return 0;
}

bool
crown_pid_gone(long pid)
{
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void
crown_temps_sweep(const char *dir, bool deep, struct crown_diags *d)
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*dp;
	char		*p;
	size_t		 len = strlen(dir);
	long		 pid;
	bool		 sub;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, ".git") == 0)
			continue;
		pid = temp_pid(de->d_name);
		if (pid == 0 && !deep)
			continue;
		p = xasprintf("%.*s/%s", (int)len, dir, de->d_name);
		/* never into a link: only what is below dir */
		sub = de->d_type == DT_DIR || (de->d_type == DT_UNKNOWN &&
		    lstat(p, &st) == 0 && S_ISDIR(st.st_mode));
		if (pid != 0 && !sub && crown_pid_gone(pid) && unlink(p) == 0)
			crown_diag_note(d, "crown", 0, 0, NULL, "removed %s, "
			    "left by a killed run", p);
		else if (pid == 0 && sub)
			crown_temps_sweep(p, true, d);
		free(p);
	}
	closedir(dp);
}
