/*
 * paths.h: finding crown's data files (paths.c).
 */
#ifndef CROWN_PATHS_H
#define CROWN_PATHS_H

/*
 * Find a data file (rel: "rules/maximilian.yaml", "templates") beside the
 * program or up to two directories above it (a source tree), else under
 * CROWN_DATADIR.  Returns the path (caller frees) or NULL.
 */
char	*crown_data_find(const char *rel);

#endif
