/*
 * paths.h: finding crown's data files, and keeping what crown writes
 * inside the tree it writes (paths.c).
 */
#ifndef CROWN_PATHS_H
#define CROWN_PATHS_H

#include <stddef.h>

#include "crown/diag.h"

/*
 * Find a data file (rel: "rules/maximilian.yaml", "templates") beside the
 * program or up to two directories above it (a source tree), else under
 * CROWN_DATADIR.  Returns the path (caller frees) or NULL.
 */
char	*crown_data_find(const char *rel);

/*
 * Refuse the paths crown writes into, or appends to, under root that are
 * symbolic links: each of the n rel[i] ("orders/pending"), and for one
 * ending in a slash ("turns/") every entry of it, that is a link is an
 * error in d, "ROOT/REL:
 * a symbolic link; crown writes only inside INSIDE: replace it with a
 * directory" (or "a file", for a link to one).  Each is checked with
 * lstat, never followed.  CROWN_EWRITE if any is a link, else 0 (a path
 * that is absent is no link: crown makes it).
 */
int	crown_paths_refuse_links(const char *root, const char *const *rel,
	    size_t n, const char *inside, struct crown_diags *d);

#endif
