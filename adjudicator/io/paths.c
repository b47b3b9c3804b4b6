/*
 * paths.c: where crown's data files (rules, templates) are found, and
 * the directories crown writes into kept inside the tree it writes.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/paths.h"
#include "crown/xalloc.h"

#ifndef CROWN_DATADIR
#define CROWN_DATADIR "/usr/local/share/crown"
#endif

/* The running program's directory (caller frees), or NULL. */
static char *
self_dir(void)
{
	char	*buf = NULL, *slash;
	size_t	 cap = 256;
	ssize_t	 n;

	for (;;) {
		buf = xrealloc(buf, cap);
		if ((n = readlink("/proc/self/exe", buf, cap)) < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap)
			break;
		if (cap > 65536) {
			free(buf);
			return NULL;
		}
		cap *= 2;
	}
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) != NULL)
		*slash = '\0';
	return buf;
}

static bool
exists(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 && access(path, R_OK) == 0;
}

char *
crown_data_find(const char *rel)
{
	/* beside the program, or one or two levels up: ./crown, build/crown
	 * and build/asan/crown in a source tree; PREFIX/bin/crown finds
	 * PREFIX/share/crown wherever the tree was installed */
	static const char *const ups[] = {
		"", "/..", "/../..", "/../share/crown"
	};
	char	*dir, *path;
	size_t	 i;

	if ((dir = self_dir()) != NULL) {
		for (i = 0; i < CROWN_NELEM(ups); i++) {
			path = xasprintf("%s%s/%s", dir, ups[i], rel);
			if (exists(path)) {
				free(dir);
				return path;
			}
			free(path);
		}
		free(dir);
	}
	path = xasprintf("%s/%s", CROWN_DATADIR, rel);
	if (exists(path))
		return path;
	free(path);
	return NULL;
}

/* One path: a link is refused, with what to put in its place. */
static int
refuse_link(const char *p, const char *inside, struct crown_diags *d)
{
	struct stat	st;

	if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	crown_diag_add(d, p, 0, 0, NULL, "a symbolic link; crown writes only "
	    "inside %s: replace it with a %s", inside, stat(p, &st) == 0 &&
	    !S_ISDIR(st.st_mode) ? "file" : "directory");
	return CROWN_EWRITE;
}

int
crown_paths_refuse_links(const char *root, const char *const *rel,
    size_t n, const char *inside, struct crown_diags *d)
{
	struct dirent	*de;
	DIR		*dp;
	char		*p, *q;
	size_t		 i, len = strlen(root), k;
	int		 error = 0;

	while (len > 1 && root[len - 1] == '/')
		len--;
	for (i = 0; i < n; i++) {
		k = strlen(rel[i]);
		if (k == 0 || rel[i][k - 1] != '/') {
			p = xasprintf("%.*s/%s", (int)len, root, rel[i]);
			if (refuse_link(p, inside, d) != 0)
				error = CROWN_EWRITE;
			free(p);
			continue;
		}
		/* every entry of a directory (itself checked on its own) */
		p = xasprintf("%.*s/%.*s", (int)len, root, (int)(k - 1),
		    rel[i]);
		if ((dp = opendir(p)) != NULL) {
			while ((de = readdir(dp)) != NULL) {
				if (de->d_type != DT_LNK &&
				    de->d_type != DT_UNKNOWN)
					continue;
				q = xasprintf("%s/%s", p, de->d_name);
				if (refuse_link(q, inside, d) != 0)
					error = CROWN_EWRITE;
				free(q);
			}
			closedir(dp);
		}
		free(p);
	}
	return error;
}
