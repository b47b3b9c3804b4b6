/*
 * repo.h: the campaign's repository as the files of history/ that call
 * libgit2 see it (history.c, gpgsign.c).  Not a public header: the rest
 * of crown holds a struct crown_history it cannot look into.
 */
#ifndef CROWN_HISTORY_REPO_H
#define CROWN_HISTORY_REPO_H

#include <stdbool.h>

#include <git2.h>

#include "lock.h"

struct crown_history {
	git_repository	*repo;
	char		*dir;		/* as given, for messages */
	struct crown_lock lock;		/* crown's, when held (lock.c) */
	bool		 missing;	/* an object was not found */
};

#endif
