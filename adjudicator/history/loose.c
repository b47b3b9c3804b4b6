/*
 * loose.c: a loose object's compressed data checked before libgit2 reads
 * it.  libgit2 1.5 loops for ever in inflate() on a zlib stream that ends
 * early (a loose object cut short by a full disk or a crash): crown would
 * spin at full CPU holding the campaign's lock.  So a backend of the
 * object database, tried before libgit2's own, inflates the object's file
 * with zlib into a scratch buffer, to the end of its stream: a whole one
 * passes the read on to libgit2's backends (GIT_PASSTHROUGH), a short or
 * broken one fails the read and is remembered, for the command's message
 * naming its file and its exit status (crown_history_damage).  An object
 * with no loose file (packed, or missing) passes on untouched.  The check
 * costs one more inflate of each loose object read: libgit2 caches what
 * it has read, so an object is checked once a run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <zlib.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/xalloc.h"

#include "loose.h"

struct guard {
	git_odb_backend	 parent;	/* first: libgit2 casts to it */
	char		*objects;	/* GITDIR/objects/ */
	char		*dir;		/* the campaign as given */
};

static int	guard_read(void **, size_t *, git_object_t *,
		    git_odb_backend *, const git_oid *);
static void	guard_free(git_odb_backend *);
static bool	whole(int);

/* The first damaged object met since a repository was last opened:
 * its file, and whether the command has been told. */
static char	*damage;
static char	*damage_dir;
static bool	 told;

bool
crown_history_damage(struct crown_diags *d)
{
	if (damage == NULL)
		return false;
	if (!told)
		crown_diag_add(d, damage, 0, 0, NULL, "a damaged object (its "
		    "compressed data is cut short or broken): 'git fsck' in "
		    "%s lists every damaged object, and a player's clone or a "
		    "backup holds whole copies", damage_dir);
	told = true;
	return true;
}

int
crown_loose_guard(git_repository *repo, const char *dir)
{
	struct guard	*g;
	git_odb		*odb = NULL;

	free(damage);
	free(damage_dir);
	damage = damage_dir = NULL;
	told = false;
	g = xcalloc(1, sizeof(*g));
	if (git_odb_init_backend(&g->parent, GIT_ODB_BACKEND_VERSION) != 0 ||
	    git_repository_odb(&odb, repo) != 0) {
		free(g);
		return CROWN_ERROR;
	}
	g->parent.read = guard_read;
	g->parent.free = guard_free;
	g->objects = xasprintf("%sobjects/", git_repository_path(repo));
	g->dir = xstrdup(dir);
	/* above the packs (2) and the loose objects (1): tried first */
	if (git_odb_add_backend(odb, &g->parent, 100) != 0) {
		guard_free(&g->parent);
		git_odb_free(odb);
		return CROWN_ERROR;
	}
	git_odb_free(odb);
	return 0;
}

static void
guard_free(git_odb_backend *b)
{
	struct guard	*g = (struct guard *)b;

	free(g->objects);
	free(g->dir);
	free(g);
}

static int
guard_read(void **data, size_t *len, git_object_t *type, git_odb_backend *b,
    const git_oid *id)
{
	struct guard	*g = (struct guard *)b;
	char		 hex[GIT_OID_HEXSZ + 1], *path, *msg;
	int		 fd;
	bool		 ok;

	(void)data;
	(void)len;
	(void)type;
	git_oid_tostr(hex, sizeof(hex), id);
	path = xasprintf("%s%.2s/%s", g->objects, hex, hex + 2);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		free(path);
		return GIT_PASSTHROUGH;
	}
	ok = whole(fd);
	close(fd);
	if (ok) {
		free(path);
		return GIT_PASSTHROUGH;
	}
	msg = xasprintf("the object %s is damaged", hex);
	git_error_set_str(GIT_ERROR_ODB, msg);
	free(msg);
	if (damage == NULL) {
		damage = path;
		damage_dir = xstrdup(g->dir);
	} else
		free(path);
	return GIT_ERROR;
}

/*
 * Is the file one whole zlib stream?  Inflated into a scratch buffer to
 * its end, whose checksum zlib checks; each pass of the loop reads input,
 * consumes it or makes output, so it ends.
 */
static bool
whole(int fd)
{
	unsigned char	in[16384], out[16384];
	z_stream	z;
	ssize_t		n;
	int		rc = Z_OK;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return false;
	while (rc != Z_STREAM_END) {
		if (z.avail_in == 0) {
			n = read(fd, in, sizeof(in));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			z.next_in = in;
			z.avail_in = (uInt)n;
		}
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END)
			break;
	}
	inflateEnd(&z);
	return rc == Z_STREAM_END;
}
