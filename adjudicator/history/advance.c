/*
 * advance.c: a line of play moves on (advance.h): commit, the commit
 * point, then the tag, the work tree, the pending orders and the outbox,
 * each redone by the next run's repair when this one dies before it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define STAGE	"crown-outbox"		/* in .git: mails not yet out */

static int	set_tag(struct crown_history *,
		    const struct crown_advance_tag *,
		    const struct crown_advance *, const char *,
		    struct crown_diags *);
static int	stage_mails(struct crown_history *, const char *,
		    const struct crown_outputs *, struct crown_diags *);
static int	deliver(struct crown_history *, const char *,
		    const struct crown_outputs *, struct crown_diags *);
static void	unstage(const char *, struct crown_outputs *);
static int	drop_adopted(struct crown_history *, const char *,
		    struct crown_diags *);

/* In a signed history (the stamp names the umpire's key) a tag without
 * a stamp of its own is annotated with the commit's, and so signed. */
static int
set_tag(struct crown_history *h, const struct crown_advance_tag *t,
    const struct crown_advance *a, const char *id, struct crown_diags *d)
{
	bool	sign = t->stamp == NULL && a->stamp != NULL &&
		    a->stamp->sign != NULL;

	if (t->name == NULL)
		return 0;
	return crown_history_tag(h, t->name, t->target != NULL ? t->target :
	    id, sign ? a->stamp : t->stamp, sign ? a->message : t->message,
	    t->force, d);
}

static char *
stage_dir(struct crown_history *h, const char *id)
{
	return xasprintf("%s" STAGE "/%s", crown_history_gitdir(h), id);
}

/* The mails, each synced, under .git/crown-outbox/ID/ before the commit
 * point: the repair moves them into the outbox if it is passed. */
static int
stage_mails(struct crown_history *h, const char *id,
    const struct crown_outputs *mails, struct crown_diags *d)
{
	char			*dir = stage_dir(h, id), *p, *root;
	size_t			 i;
	int			 error, e;

	if ((error = crown_mkdirs(dir, d)) != 0)
		goto cleanup;
	for (i = 0; i < mails->n && error == 0; i++) {
		if ((error = crown_history_step(mails->v[i].name, d)) != 0)
			break;
		p = xasprintf("%s/%s", dir, mails->v[i].name);
		if ((e = crown_put_file(p, mails->v[i].data.data,
		    mails->v[i].data.len, 0600, true)) != 0) {
			crown_diag_add(d, p, 0, 0, NULL, "cannot write: %s",
			    strerror(e));
			error = CROWN_EWRITE;
		}
		free(p);
	}
	/* the names too, and the stage's own, before the commit point */
	if (error == 0) {
		root = xasprintf("%s" STAGE, crown_history_gitdir(h));
		if ((e = crown_sync_path(dir)) != 0 ||
		    (e = crown_sync_path(root)) != 0 ||
		    (e = crown_sync_path(crown_history_gitdir(h))) != 0) {
			crown_diag_add(d, dir, 0, 0, NULL, "cannot sync: %s",
			    strerror(e));
			error = CROWN_EWRITE;
		}
		free(root);
	}
	if (error != 0)
		unstage(dir, NULL);
cleanup:
	free(dir);
	return error;
}

/* Remove the staged directory dir; into (when not NULL) gets its files. */
static void
unstage(const char *dir, struct crown_outputs *into)
{
	struct crown_diags	 ignore = { 0 };
	struct dirent		*de;
	DIR			*dp;
	char			*p, *text;
	size_t			 len;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (into != NULL && crown_read_file(&text, &len, p, 0,
		    &ignore) == 0) {
			crown_buf_add(crown_outputs_add(into, de->d_name),
			    text, len);
			free(text);
		} else if (into == NULL)
			unlink(p);
		free(p);
	}
	closedir(dp);
	crown_diags_release(&ignore);
	if (into == NULL)
		rmdir(dir);
}

/* The staged mails of id into WORKDIR/outbox, and the stage removed. */
static int
deliver(struct crown_history *h, const char *id,
    const struct crown_outputs *mails, struct crown_diags *d)
{
	char	*outbox, *dir = stage_dir(h, id), *p;
	size_t	 i;
	int	 error = 0;

	outbox = xasprintf("%soutbox", crown_history_workdir(h));
	for (i = 0; i < mails->n && error == 0; i++)
		if ((error = crown_history_step(mails->v[i].name, d)) != 0 ||
		    (error = crown_maildir_put(outbox, mails->v[i].name,
		    mails->v[i].data.data, mails->v[i].data.len, d)) != 0)
			break;
	if (error == 0) {
		/* the outbox's names lasting before the staged copies go */
		p = xasprintf("%s/new", outbox);
		(void)crown_sync_path(p);
		free(p);
		for (i = 0; i < mails->n; i++) {
			p = xasprintf("%s/%s", dir, mails->v[i].name);
			unlink(p);
			free(p);
		}
	}
	if (error == 0 && rmdir(dir) == 0) {
		/* and the stage itself, when nothing else is in it */
		free(dir);
		dir = xasprintf("%s" STAGE, crown_history_gitdir(h));
		rmdir(dir);
	}
	free(dir);
	free(outbox);
	return error;
}

int
crown_advance(char *id, struct crown_history *h, const struct crown_advance *a,
    struct crown_diags *d)
{
	bool	staged = false, committed = false;
	size_t	i;
	int	error;

	if (a->to != NULL)
		memcpy(id, a->to, CROWN_OID_HEX + 1);
	else if ((error = crown_history_commit(id, h, a->parent, a->files,
	    a->message, a->stamp, d)) != 0)
		return error;
	if (a->ref == NULL)
		return 0;
	if ((error = set_tag(h, &a->keep, a, id, d)) != 0)
		goto cleanup;
	if (a->mails != NULL && a->mails->n > 0) {
		if ((error = stage_mails(h, id, a->mails, d)) != 0)
			goto cleanup;
		staged = true;
	}
	/* the commit point */
	if ((error = crown_history_ref_set(h, a->ref, id, a->expect, a->force,
	    a->log != NULL ? a->log : a->message, d)) != 0)
		goto cleanup;
	committed = true;
	if ((error = set_tag(h, &a->tag, a, id, d)) != 0)
		goto cleanup;
	if (a->tree == CROWN_ADVANCE_FILES)
		error = crown_history_checkout_files(h, a->files, d);
	else if (a->tree == CROWN_ADVANCE_CHECKOUT)
		error = crown_history_checkout(h, d);
	for (i = 0; i < a->npending && error == 0; i++)
		if ((error = crown_history_step(a->pending[i], d)) == 0)
			unlink(a->pending[i]);
	if (error == 0 && staged)
		error = deliver(h, id, a->mails, d);
	if (error == 0 && a->drop != NULL)
		error = crown_history_ref_delete(h, a->drop, d);
cleanup:
	if (error != 0 && staged && !committed) {
		char *dir = stage_dir(h, id);

		unstage(dir, NULL);
		free(dir);
	}
	if (error != 0 && committed && a->done != NULL)
		crown_diag_add(d, a->dir != NULL ? a->dir :
		    crown_history_workdir(h), 0, 0, NULL,
		    "%s; the next crown command on it finishes the work "
		    "tree", a->done);
	return error;
}

/* Rerun branches whose tip main holds: adopted, by a run that died
 * before it deleted them. */
static int
drop_adopted(struct crown_history *h, const char *tip, struct crown_diags *d)
{
	char	**refs = NULL, have[CROWN_OID_HEX + 1];
	size_t	  n = 0, i;
	int	  error;

	if ((error = crown_history_refs(&refs, &n, h,
	    "refs/heads/" CROWN_RERUN_BRANCH "/*", d)) != 0)
		return error;
	for (i = 0; i < n && error == 0; i++) {
		if (crown_history_ref_get(have, h, refs[i], d) != 0 ||
		    !crown_history_is_ancestor(h, have, tip))
			continue;
		crown_diag_note(d, "crown", 0, 0, NULL, "deleting %s: main "
		    "holds it, adopted", refs[i]);
		error = crown_history_ref_delete(h, refs[i], d);
	}
	for (i = 0; i < n; i++)
		free(refs[i]);
	free(refs);
	return error;
}

int
crown_advance_repair(struct crown_history *h, const char *tip,
    struct crown_diags *d)
{
	struct crown_outputs	 mails;
	struct dirent		*de;
	DIR			*dp;
	char			*root, *dir;
	int			 error = 0;

	root = xasprintf("%s" STAGE, crown_history_gitdir(h));
	if ((dp = opendir(root)) != NULL) {
		while (error == 0 && (de = readdir(dp)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			dir = xasprintf("%s/%s", root, de->d_name);
			memset(&mails, 0, sizeof(mails));
			if (crown_history_is_ancestor(h, de->d_name, tip)) {
				unstage(dir, &mails);
				crown_diag_note(d, "crown", 0, 0, NULL,
				    "%zu mail%s of commit %.7s, which a killed "
				    "run left, into the outbox", mails.n,
				    mails.n == 1 ? "" : "s", de->d_name);
				error = deliver(h, de->d_name, &mails, d);
			} else
				unstage(dir, NULL);
			crown_outputs_release(&mails);
			free(dir);
		}
		closedir(dp);
		rmdir(root);
	}
	free(root);
	if (error == 0)
		error = drop_adopted(h, tip, d);
	return error;
}
