/*
 * pack.c: the campaign's loose objects into a pack when there are many
 * (pack.h), with libgit2's pack builder: the loose objects are listed
 * from .git/objects/XX/, given to the builder, which finds the deltas
 * between them and writes the pack and its index into objects/pack/;
 * once both are synced, each loose object the new index holds is
 * removed.  Objects already packed are not packed again, so the cost is
 * that of the objects since the last pack.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/odb_backend.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/outputs.h"
#include "crown/pack.h"
#include "crown/xalloc.h"


#define HEX	"0123456789abcdef"

struct loose {
	git_oid	*v;
	size_t	 n, cap;
};

static size_t	threshold = CROWN_PACK_LOOSE;
static int	kill_at;

void
crown_pack_threshold(size_t n)
{
	threshold = n;
}

void
crown_pack_kill_at(int step)
{
	kill_at = step;
}

static void
step(int n)
{
	if (kill_at == n)
		_exit(9);
}

static int
pack_fail(struct crown_diags *d, const char *dir, const char *what)
{
	const git_error	*e = git_error_last();

	crown_diag_warn(d, dir, 0, 0, NULL, "cannot pack the history (%s: "
	    "%s); its loose objects stay", what, e != NULL &&
	    e->message != NULL ? e->message : "unknown error");
	return CROWN_EWRITE;
}

/* The loose objects under objects/: a file XX/ of 38 hex digits each. */
static void
loose_list(struct loose *out, const char *objects)
{
	struct dirent	*e;
	DIR		*dir;
	char		*path, hex[GIT_OID_HEXSZ + 1];
	int		 i;

	for (i = 0; i < 256; i++) {
		path = xasprintf("%s/%c%c", objects, HEX[i >> 4], HEX[i & 15]);
		dir = opendir(path);
		free(path);
		if (dir == NULL)
			continue;
		while ((e = readdir(dir)) != NULL) {
			if (strlen(e->d_name) != GIT_OID_HEXSZ - 2 ||
			    strspn(e->d_name, HEX) != GIT_OID_HEXSZ - 2)
				continue;
			hex[0] = HEX[i >> 4];
			hex[1] = HEX[i & 15];
			memcpy(hex + 2, e->d_name, GIT_OID_HEXSZ - 2 + 1);
			crown_grow(&out->v, &out->cap, out->n + 1,
			    sizeof(*out->v));
			if (git_oid_fromstr(&out->v[out->n], hex) == 0)
				out->n++;
		}
		closedir(dir);
	}
}

/* A file or directory of the pack synced (crown_sync_path). */
static int
sync_path(const char *path, struct crown_diags *d)
{
	int	e;

	if ((e = crown_sync_path(path)) == 0)
		return 0;
	crown_diag_warn(d, path, 0, 0, NULL, "cannot sync the pack (%s); the "
	    "loose objects stay", strerror(e));
	return CROWN_EWRITE;
}

/* Remove the loose objects the pack at idx holds, and the XX/ left
 * empty; a loose object it does not hold stays. */
static int
remove_packed(const struct loose *l, const char *objects, const char *idx,
    struct crown_diags *d)
{
	git_odb_backend	*one = NULL;
	git_odb		*odb = NULL;
	char		 hex[GIT_OID_HEXSZ + 1], *path;
	size_t		 i;
	int		 error = 0;

	if (git_odb_new(&odb) != 0 || git_odb_backend_one_pack(&one,
	    idx) != 0 || git_odb_add_backend(odb, one, 1) != 0) {
		if (one != NULL && odb != NULL)
			one->free(one);	/* not the odb's */
		error = pack_fail(d, idx, "cannot read the new pack");
		goto cleanup;
	}
	for (i = 0; i < l->n; i++) {
		if (i == l->n / 2)
			step(3);
		if (!git_odb_exists(odb, &l->v[i]))
			continue;
		git_oid_tostr(hex, sizeof(hex), &l->v[i]);
		path = xasprintf("%s/%.2s/%s", objects, hex, hex + 2);
		(void)unlink(path);
		*strrchr(path, '/') = '\0';
		(void)rmdir(path);	/* when it is empty */
		free(path);
	}
cleanup:
	git_odb_free(odb);
	return error;
}

int
crown_pack_auto(size_t *out, struct crown_history *h, struct crown_diags *d)
{
	const char	*dir = crown_history_workdir(h);
	git_repository	*repo = NULL;
	git_packbuilder	*pb = NULL;
	struct loose	 l = { 0 };
	char		*objects = NULL, *packs = NULL, *pack = NULL;
	char		*idx = NULL;
	size_t		 i;
	int		 error = 0;

	if (out != NULL)
		*out = 0;
	if (git_repository_open_ext(&repo, dir,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		error = pack_fail(d, dir, "cannot open the repository");
		goto cleanup;
	}
	objects = xasprintf("%sobjects", git_repository_path(repo));
	loose_list(&l, objects);
	if (l.n <= threshold)
		goto cleanup;
	packs = xasprintf("%s/pack", objects);
	if (git_packbuilder_new(&pb, repo) != 0) {
		error = pack_fail(d, dir, "cannot start a pack");
		goto cleanup;
	}
	for (i = 0; i < l.n; i++)
		if (git_packbuilder_insert(pb, &l.v[i], NULL) != 0) {
			error = pack_fail(d, dir, "cannot add an object");
			goto cleanup;
		}
	if (git_packbuilder_write(pb, packs, 0, NULL, NULL) != 0) {
		error = pack_fail(d, packs, "cannot write the pack");
		goto cleanup;
	}
	step(1);
	/* both files and their directory on the disk before anything
	 * loose goes, whether or not libgit2 synced them */
	pack = xasprintf("%s/pack-%s.pack", packs, git_packbuilder_name(pb));
	idx = xasprintf("%s/pack-%s.idx", packs, git_packbuilder_name(pb));
	if ((error = sync_path(pack, d)) != 0 ||
	    (error = sync_path(idx, d)) != 0 ||
	    (error = sync_path(packs, d)) != 0)
		goto cleanup;
	step(2);
	if ((error = remove_packed(&l, objects, idx, d)) != 0)
		goto cleanup;
	if (out != NULL)
		*out = l.n;
cleanup:
	git_packbuilder_free(pb);
	git_repository_free(repo);
	free(idx);
	free(pack);
	free(packs);
	free(objects);
	free(l.v);
	return error;
}
