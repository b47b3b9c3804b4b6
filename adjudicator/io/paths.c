/*
 * paths.c: where crown's data files (rules, templates) are found.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crown/common.h"
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
