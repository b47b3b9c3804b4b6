/*
 * loose.h: the check of each loose object before libgit2 inflates it, for
 * history.c, which sets it on every repository it opens or creates
 * (loose.c).  Not a public header: commands learn of a damaged object
 * through crown_history_damage (crown/history.h).
 */
#ifndef CROWN_HISTORY_LOOSE_H
#define CROWN_HISTORY_LOOSE_H

#include <git2.h>

/*
 * Put the check in front of the object database of repo, and forget the
 * damaged object of an earlier repository.  dir is the campaign as given,
 * for the message.  0, or CROWN_ERROR when libgit2 refuses it.
 */
int	crown_loose_guard(git_repository *repo, const char *dir);

#endif
