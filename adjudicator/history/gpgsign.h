/*
 * gpgsign.h: the signed commits and tags of history.c (gpgsign.c), made
 * with the umpire's OpenPGP key as git commit -S and git tag -s make
 * them.  Not a public header: what the rest of crown calls is in
 * crown/gpgsign.h.
 */
#ifndef CROWN_HISTORY_GPGSIGN_H
#define CROWN_HISTORY_GPGSIGN_H

#include <stdbool.h>
#include <stddef.h>

#include <git2.h>

#include "crown/diag.h"

#include "repo.h"

/*
 * Write the commit of tree (on parent, none when NULL) by sig with
 * message, signed by the key fpr (a "gpgsig" header); *out is its id.
 * CROWN_EUNAVAILABLE when the key cannot sign, CROWN_EWRITE.
 */
int	crown_gpgsign_commit(git_oid *out, struct crown_history *,
	    const git_signature *sig, const char *message,
	    const git_tree *tree, const git_commit *parent, const char *fpr,
	    struct crown_diags *d);

/*
 * The annotated tag refs/tags/name of target by tagger with message,
 * signed by the key fpr (the signature after the message); an existing
 * one replaced only when force.
 */
int	crown_gpgsign_tag(struct crown_history *, const char *name,
	    const git_object *target, const git_signature *tagger,
	    const char *message, bool force, const char *fpr,
	    struct crown_diags *d);

/* How much of a tag's message comes before its signature (all of it
 * when it has none). */
size_t	crown_gpgsign_message_len(const char *message);

#endif
