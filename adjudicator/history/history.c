/*
 * history.c: the campaign's git repository through libgit2.  Nothing else
 * in crown calls libgit2 but gpgsign.c, for the signed objects, and crown
 * never runs git.  The campaign's lock, and what a killed run left in
 * .git, are lock.c's.
 *
 * Each libgit2 error is wrapped once, where the call is made (git_fail):
 * git_error_last() may be NULL.  libgit2 is initialised when a repository
 * is opened or created and shut down when it is closed (the library
 * counts).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <git2.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/outputs.h"
#include "crown/xalloc.h"

#include "gpgsign.h"
#include "lock.h"
#include "loose.h"
#include "repo.h"

static int	git_fail(struct crown_diags *, const char *, int,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
static int	read_fail(struct crown_history *, int, struct crown_diags *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
static bool	disk_full(int, const git_error *);
static bool	no_room(struct crown_history *);
static int	stored(struct crown_history *, const git_oid *,
		    const char *, struct crown_diags *);
static void	init(void);
static int	oid_parse(git_oid *, const char *, struct crown_diags *,
		    const char *);
static int	guard(struct crown_history *, struct crown_diags *);
static int	take_lock(struct crown_history *, struct crown_diags *);
static int	path_ok(const char *);
static int	build_tree(git_oid *, struct crown_history *,
		    const git_tree *, const struct crown_output *const *,
		    size_t, size_t, struct crown_diags *);
static int	list_tree(struct crown_outputs *, struct crown_history *,
		    const git_tree *, const char *, struct crown_diags *);

/*
 * libgit2 once per process, with its writes to .git synced: a commit
 * point (main moved) that a power cut can undo must not name objects the
 * disk never got.  Objects read are not hashed again to check their ids,
 * as git itself does not (git fsck does): it was a sixth of crown
 * verify's work, which compares every byte it reads with its replay all
 * the same.  Set before each repository is opened, as libgit2 keeps them
 * in globals.
 */
static void
init(void)
{
	git_libgit2_init();
	(void)git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
	(void)git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}

/* The fault hook (see history.h). */
static unsigned long	fail_at;
static bool		fail_kill;
static unsigned long	steps;

void
crown_history_fail_after(unsigned long n, bool kill)
{
	fail_at = n;
	fail_kill = kill;
	steps = 0;
}

unsigned long
crown_history_steps(void)
{
	return steps;
}

int
crown_history_step(const char *what, struct crown_diags *d)
{
	steps++;
	if (fail_at == 0 || steps != fail_at)
		return 0;
	/* the one exit of library code: the fault simulator's kill, which
	 * only a test's crown_history_fail_after(n, true) arms, stands for
	 * a power cut at this step (no flushing, no cleanup) */
	if (fail_kill)
		_exit(CROWN_EXIT_INTERNAL);
	crown_diag_add(d, "crown", 0, 0, NULL, "injected failure at step "
	    "%lu (%s)", steps, what);
	return CROWN_EWRITE;
}

/* Wrap the last libgit2 error (it may be NULL) into a diagnostic. */
static int
git_fail(struct crown_diags *d, const char *where, int error,
    const char *fmt, ...)
{
	const git_error	*e = git_error_last();
	va_list		 ap;
	char		*what;
	int		 saved = errno;

	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	if (error == CROWN_EWRITE && disk_full(saved, e))
		crown_diag_add(d, where, 0, 0, NULL, "%s: no space left on "
		    "device", what);
	else
		crown_diag_add(d, where, 0, 0, NULL, "%s: %s", what,
		    e != NULL && e->message != NULL ? e->message :
		    "unknown libgit2 error");
	free(what);
	return error;
}

/*
 * Which incomplete clone h is: a shallow one (.git/shallow), a partial
 * one (a promisor remote, whose name goes to *remote when not NULL:
 * caller frees), or neither.
 */
enum clone { CLONE_FULL, CLONE_SHALLOW, CLONE_PARTIAL };

static enum clone
clone_kind(struct crown_history *h, char **remote)
{
	git_config		*cfg = NULL;
	git_config_iterator	*it = NULL;
	git_config_entry	*e;
	const char		*v = NULL;
	enum clone		 kind = CLONE_FULL;
	size_t			 n;
	int			 yes;

	*remote = NULL;
	if (git_repository_is_shallow(h->repo) == 1)
		return CLONE_SHALLOW;
	if (git_repository_config_snapshot(&cfg, h->repo) != 0)
		return CLONE_FULL;
	if (git_config_get_string(&v, cfg, "extensions.partialclone") == 0) {
		kind = CLONE_PARTIAL;
		*remote = xstrdup(v);
	} else if (git_config_iterator_new(&it, cfg) == 0) {
		/* remote.NAME.promisor, matched here: libgit2 1.5's regular
		 * expressions (git_config_iterator_glob_new) leak */
		while (kind == CLONE_FULL && git_config_next(&e, it) == 0)
			if (strncmp(e->name, "remote.", 7) == 0 &&
			    (n = strlen(e->name)) > 7 + 9 &&
			    strcmp(e->name + n - 9, ".promisor") == 0 &&
			    git_config_parse_bool(&yes, e->value) == 0 &&
			    yes) {
				kind = CLONE_PARTIAL;
				*remote = xstrndup(e->name + 7, n - 7 - 9);
			}
		git_config_iterator_free(it);
	}
	git_config_free(cfg);
	return kind;
}

/* Did the call that returned rc fail for an object not in the store? */
static bool
odb_missing(int rc)
{
	const git_error	*e = git_error_last();

	return rc == GIT_ENOTFOUND && e != NULL && e->klass == GIT_ERROR_ODB;
}

/*
 * A read that failed (rc, from libgit2): an object missing from the
 * store (GIT_ENOTFOUND from the object database) is named for what it is,
 * a shallow or a partial clone, with the git command that fetches it
 * (git 2.39), and is CROWN_EMISSING; any other failure CROWN_EINVALID.
 */
static int
read_fail(struct crown_history *h, int rc, struct crown_diags *d,
    const char *fmt, ...)
{
	va_list		 ap;
	char		*what, *remote;
	int		 error = CROWN_EMISSING;

	va_start(ap, fmt);
	what = xvasprintf(fmt, ap);
	va_end(ap);
	if (!odb_missing(rc)) {
		error = git_fail(d, h->dir, CROWN_EINVALID, "%s", what);
		free(what);
		return error;
	}
	h->missing = true;
	switch (clone_kind(h, &remote)) {
	case CLONE_SHALLOW:
		crown_diag_add(d, h->dir, 0, 0, NULL, "%s: this is a shallow "
		    "clone: run `git fetch --unshallow`", what);
		break;
	case CLONE_PARTIAL:
		crown_diag_add(d, h->dir, 0, 0, NULL, "%s: this is a partial "
		    "clone: objects are missing; fetch them with `git fetch "
		    "--refetch --no-filter%s%s` (or clone without --filter)",
		    what, strcmp(remote, "origin") != 0 ? " " : "",
		    strcmp(remote, "origin") != 0 ? remote : "");
		break;
	default:
		crown_diag_add(d, h->dir, 0, 0, NULL, "%s: objects are "
		    "missing from the repository (`git fsck` lists them): "
		    "clone the campaign again", what);
		break;
	}
	free(remote);
	free(what);
	return error;
}

bool
crown_history_missing(const struct crown_history *h)
{
	return h->missing;
}

/* Did a write fail for want of room?  libgit2 keeps strerror() in its
 * message; errno is what the failed call left. */
static bool
disk_full(int saved, const git_error *e)
{
	if (saved == ENOSPC || saved == EDQUOT)
		return true;
	return e != NULL && e->message != NULL &&
	    (strstr(e->message, strerror(ENOSPC)) != NULL ||
	    strstr(e->message, strerror(EDQUOT)) != NULL);
}

/*
 * Is there room for a page in .git/objects?  Asked when libgit2 said an
 * object was written and it is not there: libgit2 1.5 can report a loose
 * object as written when its write failed (ENOSPC), and its errno is gone
 * by then.
 */
static bool
no_room(struct crown_history *h)
{
	static const char	 page[4096];
	char			*probe;
	int			 fd, saved = 0;

	probe = xasprintf("%sobjects/crown-room.%ld",
	    git_repository_path(h->repo), (long)getpid());
	if ((fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		saved = errno;
	else {
		if (write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
			saved = errno;
		close(fd);
		unlink(probe);
	}
	free(probe);
	return saved == ENOSPC || saved == EDQUOT;
}

/*
 * Read back an object just written, which git_odb_read checks against
 * its hash: main must never name an object the disk did not get.
 */
static int
stored(struct crown_history *h, const git_oid *id, const char *what,
    struct crown_diags *d)
{
	git_odb		*odb = NULL;
	git_odb_object	*o = NULL;
	int		 rc;

	if (git_repository_odb(&odb, h->repo) != 0)
		return git_fail(d, h->dir, CROWN_EWRITE, "cannot store %s",
		    what);
	rc = git_odb_read(&o, odb, id);
	git_odb_object_free(o);
	git_odb_free(odb);
	if (rc == 0)
		return 0;
	if (no_room(h))
		crown_diag_add(d, h->dir, 0, 0, NULL, "cannot store %s: no "
		    "space left on device", what);
	else
		crown_diag_add(d, h->dir, 0, 0, NULL, "cannot store %s: "
		    "written, but not in the object store", what);
	return CROWN_EWRITE;
}

static int
oid_parse(git_oid *out, const char *hex, struct crown_diags *d,
    const char *where)
{
	if (hex == NULL || strlen(hex) != CROWN_OID_HEX ||
	    git_oid_fromstr(out, hex) != 0) {
		crown_diag_add(d, where, 0, 0, NULL, "bad commit id '%s'",
		    hex != NULL ? hex : "");
		return CROWN_ERROR;
	}
	return 0;
}

static void
oid_hex(char *out, const git_oid *id)
{
	git_oid_tostr(out, CROWN_OID_HEX + 1, id);
}

/* Every loose object checked before libgit2 inflates it (loose.c). */
static int
guard(struct crown_history *h, struct crown_diags *d)
{
	if (crown_loose_guard(h->repo, h->dir) != 0)
		return git_fail(d, h->dir, CROWN_ERROR, "cannot set up the "
		    "check of loose objects");
	return 0;
}

/* The lock is a step of the fault hook, as every write is. */
static int
take_lock(struct crown_history *h, struct crown_diags *d)
{
	int	error;

	if ((error = crown_history_step("lock", d)) != 0)
		return error;
	return crown_lock_take(&h->lock, git_repository_path(h->repo),
	    h->dir, d);
}

int
crown_history_create(struct crown_history **out, const char *dir,
    struct crown_diags *d)
{
	git_repository_init_options	 o;
	struct crown_history		*h;
	int				 error;

	*out = NULL;
	init();
	h = xcalloc(1, sizeof(*h));
	h->dir = xstrdup(dir);
	if ((error = crown_history_step("init", d)) != 0)
		goto fail;
	git_repository_init_options_init(&o,
	    GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	o.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_REINIT;
	o.initial_head = "main";
	if (git_repository_init_ext(&h->repo, dir, &o) != 0) {
		error = git_fail(d, dir, CROWN_EWRITE,
		    "cannot create a git repository");
		goto fail;
	}
	if ((error = guard(h, d)) != 0)
		goto fail;
	if ((error = take_lock(h, d)) != 0)
		goto fail;
	*out = h;
	return 0;
fail:
	crown_history_close(h);
	return error;
}

int
crown_history_open(struct crown_history **out, const char *dir, bool lock,
    struct crown_diags *d)
{
	struct crown_history	*h;
	int			 error = 0;

	*out = NULL;
	init();
	h = xcalloc(1, sizeof(*h));
	h->dir = xstrdup(dir);
	if (git_repository_open_ext(&h->repo, dir,
	    GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		error = git_fail(d, dir, CROWN_ENOTFOUND,
		    "not a campaign repository");
		goto fail;
	}
	if ((error = guard(h, d)) != 0)
		goto fail;
	if (git_repository_is_bare(h->repo)) {
		crown_diag_add(d, dir, 0, 0, NULL, "not a campaign "
		    "repository: a bare repository has no work tree");
		error = CROWN_ENOTFOUND;
		goto fail;
	}
	if (lock && (error = take_lock(h, d)) != 0)
		goto fail;
	*out = h;
	return 0;
fail:
	crown_history_close(h);
	return error;
}

void
crown_history_close(struct crown_history *h)
{
	if (h == NULL)
		return;
	crown_lock_release(&h->lock);
	git_repository_free(h->repo);
	free(h->dir);
	free(h);
	git_libgit2_shutdown();
}

int
crown_history_check_locks(struct crown_history *h, struct crown_diags *d)
{
	return crown_lock_check_git(&h->lock, git_repository_path(h->repo), d);
}

void
crown_history_sweep(struct crown_history *h, struct crown_diags *d)
{
	const char	*git = git_repository_path(h->repo);
	char		*stage;

	crown_lock_sweep(git, d);
	/* the temporaries of killed runs: the roster's, the secret's, the
	 * staged mails', the work tree's and the pending orders' */
	crown_temps_sweep(git, false, d);
	stage = xasprintf("%scrown-outbox", git);
	crown_temps_sweep(stage, true, d);
	free(stage);
	crown_temps_sweep(git_repository_workdir(h->repo), true, d);
}

const char *
crown_history_gitdir(const struct crown_history *h)
{
	return git_repository_path(h->repo);
}

const char *
crown_history_workdir(const struct crown_history *h)
{
	const char	*w = git_repository_workdir(h->repo);

	return w != NULL ? w : h->dir;
}

int
crown_history_log(struct crown_hlist *out, struct crown_history *h,
    const char *ref, struct crown_diags *d)
{
	git_oid			 id;
	git_object		*o;
	git_commit		*c = NULL, *parent;
	struct crown_hcommit	*hc, tmp;
	const char		*msg, *nl;
	size_t			 i;
	int			 rc;

	memset(out, 0, sizeof(*out));
	rc = git_reference_name_to_id(&id, h->repo, ref);
	if (rc == GIT_ENOTFOUND)
		return CROWN_ENOTFOUND;
	if (rc != 0)
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot read %s",
		    ref);
	/* an annotated tag (replaced/turn-N) names its commit */
	rc = git_object_lookup(&o, h->repo, &id, GIT_OBJECT_ANY);
	if (rc == 0) {
		rc = git_object_peel((git_object **)&c, o, GIT_OBJECT_COMMIT);
		git_object_free(o);
	}
	if (rc != 0)
		return read_fail(h, rc, d, "cannot read the commit of %s",
		    ref);
	for (;;) {
		crown_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
		hc = &out->v[out->n++];
		memset(hc, 0, sizeof(*hc));
		oid_hex(hc->id, git_commit_id(c));
		msg = git_commit_message(c);
		if (msg == NULL)
			msg = "";
		hc->message = xstrdup(msg);
		nl = strchr(msg, '\n');
		hc->subject = nl != NULL ? xstrndup(msg, (size_t)(nl - msg)) :
		    xstrdup(msg);
		hc->time = (long long)git_commit_time(c);
		hc->offset = git_commit_time_offset(c);
		hc->nparents = git_commit_parentcount(c);
		if (hc->nparents == 0)
			break;
		if ((rc = git_commit_parent(&parent, c, 0)) != 0) {
			/* the message first: hc goes with the list */
			rc = read_fail(h, rc, d, "cannot read the parent of "
			    "%s", hc->id);
			git_commit_free(c);
			crown_hlist_release(out);
			return rc;
		}
		git_commit_free(c);
		c = parent;
	}
	git_commit_free(c);
	/* root first */
	for (i = 0; i < out->n / 2; i++) {
		tmp = out->v[i];
		out->v[i] = out->v[out->n - 1 - i];
		out->v[out->n - 1 - i] = tmp;
	}
	return 0;
}

void
crown_hlist_release(struct crown_hlist *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].subject);
		free(l->v[i].message);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int
crown_history_ref_get(char *idhex, struct crown_history *h, const char *ref,
    struct crown_diags *d)
{
	git_tag	*t;
	git_oid	 id;
	int	 rc;

	rc = git_reference_name_to_id(&id, h->repo, ref);
	if (rc == GIT_ENOTFOUND)
		return CROWN_ENOTFOUND;
	/* an annotated tag (a signed history's turn-N): its commit */
	if (rc == 0 && strncmp(ref, "refs/tags/", 10) == 0 &&
	    git_tag_lookup(&t, h->repo, &id) == 0) {
		git_oid_cpy(&id, git_tag_target_id(t));
		git_tag_free(t);
	}
	if (rc != 0)
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot read %s",
		    ref);
	oid_hex(idhex, &id);
	return 0;
}

int
crown_history_ref_set(struct crown_history *h, const char *ref,
    const char *idhex, const char *expect, bool force, const char *log,
    struct crown_diags *d)
{
	git_reference	*r = NULL;
	git_oid		 id, old;
	int		 error, rc;

	if ((error = oid_parse(&id, idhex, d, h->dir)) != 0)
		return error;
	if (expect != NULL &&
	    (error = oid_parse(&old, expect, d, h->dir)) != 0)
		return error;
	if ((error = crown_history_step(ref, d)) != 0)
		return error;
	if (expect != NULL)
		rc = git_reference_create_matching(&r, h->repo, ref, &id, 1,
		    &old, log);
	else
		rc = git_reference_create(&r, h->repo, ref, &id, force, log);
	git_reference_free(r);
	if (rc == GIT_EMODIFIED || rc == GIT_EEXISTS) {
		crown_diag_add(d, h->dir, 0, 0, NULL, "%s was changed by "
		    "someone else meanwhile; nothing done", ref);
		return CROWN_ELOCKED;
	}
	if (rc != 0)
		return git_fail(d, h->dir, CROWN_EWRITE, "cannot update %s",
		    ref);
	return 0;
}

int
crown_history_ref_delete(struct crown_history *h, const char *ref,
    struct crown_diags *d)
{
	int	rc, error;

	if ((error = crown_history_step(ref, d)) != 0)
		return error;
	rc = git_reference_remove(h->repo, ref);
	if (rc != 0 && rc != GIT_ENOTFOUND)
		return git_fail(d, h->dir, CROWN_EWRITE, "cannot delete %s",
		    ref);
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct refs_ctx {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

static int
refs_cb(const char *name, void *payload)
{
	struct refs_ctx	*c = payload;

	crown_grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = xstrdup(name);
	return 0;
}

int
crown_history_refs(char ***out, size_t *n, struct crown_history *h,
    const char *glob, struct crown_diags *d)
{
	struct refs_ctx	c = { 0 };
	size_t		i;

	*out = NULL;
	*n = 0;
	if (git_reference_foreach_glob(h->repo, glob, refs_cb, &c) != 0) {
		for (i = 0; i < c.n; i++)
			free(c.v[i]);
		free(c.v);
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot list %s",
		    glob);
	}
	if (c.n > 0)
		qsort(c.v, c.n, sizeof(*c.v), cmp_str);
	*out = c.v;
	*n = c.n;
	return 0;
}

int
crown_history_tag(struct crown_history *h, const char *name,
    const char *idhex, const struct crown_stamp *st, const char *message,
    bool force, struct crown_diags *d)
{
	git_object	*target = NULL;
	git_signature	*sig = NULL;
	git_oid		 id, tag;
	int		 error, rc;

	if ((error = oid_parse(&id, idhex, d, h->dir)) != 0)
		return error;
	if ((error = crown_history_step(name, d)) != 0)
		return error;
	if (git_object_lookup(&target, h->repo, &id, GIT_OBJECT_COMMIT) != 0)
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot tag %s",
		    idhex);
	if (st != NULL) {
		if (git_signature_new(&sig, st->name, st->email,
		    (git_time_t)st->time, st->offset) != 0) {
			error = git_fail(d, h->dir, CROWN_EINVALID,
			    "bad umpire '%s <%s>'", st->name, st->email);
			goto cleanup;
		}
		if (st->sign != NULL) {
			error = crown_gpgsign_tag(h, name, target, sig,
			    message != NULL ? message : "", force, st->sign, d);
			goto cleanup;
		}
		rc = git_tag_create(&tag, h->repo, name, target, sig,
		    message != NULL ? message : "", force);
	} else
		rc = git_tag_create_lightweight(&tag, h->repo, name, target,
		    force);
	if (rc == GIT_EEXISTS) {
		crown_diag_add(d, h->dir, 0, 0, NULL, "tag '%s' exists",
		    name);
		error = CROWN_EWRITE;
	} else if (rc != 0)
		error = git_fail(d, h->dir, CROWN_EWRITE, "cannot tag '%s'",
		    name);
cleanup:
	git_signature_free(sig);
	git_object_free(target);
	return error;
}

int
crown_history_tag_message(struct crown_buf *out, struct crown_history *h,
    const char *name, struct crown_diags *d)
{
	git_reference	*ref = NULL;
	git_tag		*tag = NULL;
	const char	*msg;
	char		*full = xasprintf("refs/tags/%s", name);
	int		 error = 0;

	/* a lightweight tag has no message: not found, as no tag */
	if (git_reference_lookup(&ref, h->repo, full) != 0 ||
	    git_reference_target(ref) == NULL ||
	    git_tag_lookup(&tag, h->repo, git_reference_target(ref)) != 0)
		error = CROWN_ENOTFOUND;
	else if ((msg = git_tag_message(tag)) != NULL)
		crown_buf_add(out, msg, crown_gpgsign_message_len(msg));
	git_tag_free(tag);
	git_reference_free(ref);
	free(full);
	(void)d;
	return error;
}

bool
crown_history_is_ancestor(struct crown_history *h, const char *a,
    const char *c)
{
	git_oid	ia, ic;

	if (git_oid_fromstr(&ia, a) != 0 || git_oid_fromstr(&ic, c) != 0)
		return false;
	if (git_oid_equal(&ia, &ic))
		return true;
	return git_graph_descendant_of(h->repo, &ic, &ia) == 1;
}

/* The tree of a commit given in hex. */
static int
commit_tree(git_tree **out, struct crown_history *h, const char *idhex,
    struct crown_diags *d)
{
	git_commit	*c = NULL;
	git_oid		 id;
	int		 error, rc;

	*out = NULL;
	if ((error = oid_parse(&id, idhex, d, h->dir)) != 0)
		return error;
	if ((rc = git_commit_lookup(&c, h->repo, &id)) != 0)
		return read_fail(h, rc, d, "cannot read commit %s", idhex);
	if ((rc = git_commit_tree(out, c)) != 0)
		error = read_fail(h, rc, d, "cannot read the tree of %s",
		    idhex);
	git_commit_free(c);
	return error;
}

int
crown_history_read(struct crown_buf *out, struct crown_history *h,
    const char *commit, const char *path, struct crown_diags *d)
{
	git_tree	*t = NULL;
	git_tree_entry	*e = NULL;
	git_blob	*b = NULL;
	int		 error, rc;

	if ((error = commit_tree(&t, h, commit, d)) != 0)
		return error;
	/* a path not in the tree is a file the commit lacks; a directory
	 * on the way missing from the store is not */
	rc = git_tree_entry_bypath(&e, t, path);
	if ((rc == GIT_ENOTFOUND && !odb_missing(rc)) || (rc == 0 &&
	    git_tree_entry_type(e) != GIT_OBJECT_BLOB)) {
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	if (rc == 0)
		rc = git_blob_lookup(&b, h->repo, git_tree_entry_id(e));
	if (rc != 0) {
		error = read_fail(h, rc, d, "cannot read %s of %.7s", path,
		    commit);
		goto cleanup;
	}
	crown_buf_puts(out, "");
	crown_buf_add(out, git_blob_rawcontent(b),
	    (size_t)git_blob_rawsize(b));
cleanup:
	git_blob_free(b);
	git_tree_entry_free(e);
	git_tree_free(t);
	return error;
}

/* One entry of a tree, at path: a file, or every file of a directory. */
static int
read_entry(struct crown_outputs *out, struct crown_history *h,
    const git_tree_entry *e, const char *path, struct crown_diags *d)
{
	git_tree		*sub;
	git_blob		*b;
	struct crown_buf	*buf;
	char			*prefix;
	int			 error = 0, rc;

	if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
		if ((rc = git_tree_lookup(&sub, h->repo,
		    git_tree_entry_id(e))) != 0)
			return read_fail(h, rc, d, "cannot read %s", path);
		prefix = xasprintf("%s/", path);
		error = list_tree(out, h, sub, prefix, d);
		free(prefix);
		git_tree_free(sub);
	} else if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
		if ((rc = git_blob_lookup(&b, h->repo,
		    git_tree_entry_id(e))) != 0)
			return read_fail(h, rc, d, "cannot read %s", path);
		buf = crown_outputs_add(out, path);
		crown_buf_add(buf, git_blob_rawcontent(b),
		    (size_t)git_blob_rawsize(b));
		git_blob_free(b);
	}
	return error;
}

static int
list_tree(struct crown_outputs *out, struct crown_history *h,
    const git_tree *t, const char *prefix, struct crown_diags *d)
{
	const git_tree_entry	*e;
	char			*path;
	size_t			 i, n;
	int			 error = 0;

	n = git_tree_entrycount(t);
	for (i = 0; i < n && error == 0; i++) {
		e = git_tree_entry_byindex(t, i);
		path = xasprintf("%s%s", prefix, git_tree_entry_name(e));
		error = read_entry(out, h, e, path, d);
		free(path);
	}
	return error;
}

struct diff {
	struct crown_outputs	*a, *b;
	struct crown_history	*h;
	bool			(*keep)(const char *, void *);
	void			*arg;
	struct crown_diags	*d;
};

/* Is e (at path) the same object in both trees, and not one to keep? */
static bool
shared(const struct diff *df, const git_tree_entry *ea,
    const git_tree_entry *eb, const char *path)
{
	char	*dir;
	bool	 keep;

	if (ea == NULL || git_tree_entry_type(ea) != git_tree_entry_type(eb) ||
	    !git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)))
		return false;
	if (git_tree_entry_type(eb) != GIT_OBJECT_TREE)
		return !df->keep(path, df->arg);
	dir = xasprintf("%s/", path);
	keep = df->keep(dir, df->arg);
	free(dir);
	return !keep;
}

static int
diff_tree(struct diff *df, const git_tree *ta, const git_tree *tb,
    const char *prefix)
{
	const git_tree_entry	*ea, *eb;
	git_tree		*sa = NULL, *sb = NULL;
	char			*path, *sub;
	size_t			 i, n;
	int			 error = 0, rc;

	n = git_tree_entrycount(tb);
	for (i = 0; i < n && error == 0; i++) {
		eb = git_tree_entry_byindex(tb, i);
		ea = git_tree_entry_byname(ta, git_tree_entry_name(eb));
		path = xasprintf("%s%s", prefix, git_tree_entry_name(eb));
		if (shared(df, ea, eb, path)) {
			free(path);
			continue;
		}
		if (ea != NULL && git_tree_entry_type(ea) == GIT_OBJECT_TREE &&
		    git_tree_entry_type(eb) == GIT_OBJECT_TREE) {
			/* both directories: only what differs inside */
			if ((rc = git_tree_lookup(&sa, df->h->repo,
			    git_tree_entry_id(ea))) != 0 ||
			    (rc = git_tree_lookup(&sb, df->h->repo,
			    git_tree_entry_id(eb))) != 0)
				error = read_fail(df->h, rc, df->d,
				    "cannot read %s", path);
			else {
				sub = xasprintf("%s/", path);
				error = diff_tree(df, sa, sb, sub);
				free(sub);
			}
			git_tree_free(sa);
			git_tree_free(sb);
			sa = sb = NULL;
		} else {
			error = read_entry(df->b, df->h, eb, path, df->d);
			if (error == 0 && ea != NULL)
				error = read_entry(df->a, df->h, ea, path,
				    df->d);
		}
		free(path);
	}
	/* what only a has */
	n = git_tree_entrycount(ta);
	for (i = 0; i < n && error == 0; i++) {
		ea = git_tree_entry_byindex(ta, i);
		if (git_tree_entry_byname(tb, git_tree_entry_name(ea)) != NULL)
			continue;
		path = xasprintf("%s%s", prefix, git_tree_entry_name(ea));
		error = read_entry(df->a, df->h, ea, path, df->d);
		free(path);
	}
	return error;
}

int
crown_history_files_diff(struct crown_outputs *a_out,
    struct crown_outputs *b_out, struct crown_history *h, const char *a,
    const char *b, bool (*keep)(const char *, void *), void *arg,
    struct crown_diags *d)
{
	struct diff	 df = { a_out, b_out, h, keep, arg, d };
	git_tree	*ta = NULL, *tb = NULL;
	int		 error;

	if ((error = commit_tree(&ta, h, a, d)) == 0 &&
	    (error = commit_tree(&tb, h, b, d)) == 0)
		error = diff_tree(&df, ta, tb, "");
	git_tree_free(ta);
	git_tree_free(tb);
	return error;
}

int
crown_history_files(struct crown_outputs *out, struct crown_history *h,
    const char *commit, const char *dir, struct crown_diags *d)
{
	git_tree	*t = NULL, *sub = NULL;
	git_tree_entry	*e = NULL;
	char		*prefix;
	int		 error, rc;

	if ((error = commit_tree(&t, h, commit, d)) != 0)
		return error;
	if (dir == NULL || *dir == '\0') {
		error = list_tree(out, h, t, "", d);
		git_tree_free(t);
		return error;
	}
	rc = git_tree_entry_bypath(&e, t, dir);
	if (rc == 0 && git_tree_entry_type(e) == GIT_OBJECT_TREE &&
	    (rc = git_tree_lookup(&sub, h->repo, git_tree_entry_id(e))) == 0) {
		prefix = xasprintf("%s/", dir);
		error = list_tree(out, h, sub, prefix, d);
		free(prefix);
	} else if (rc != 0 && (rc != GIT_ENOTFOUND || odb_missing(rc)))
		error = read_fail(h, rc, d, "cannot read %s", dir);
	git_tree_free(sub);
	git_tree_entry_free(e);
	git_tree_free(t);
	return error;
}

/* A path crown may write: components of [A-Za-z0-9._-], none "." or ".."
 * or ".git", no empty one. */
static int
path_ok(const char *p)
{
	const char	*s, *c;
	size_t		 len;

	if (p == NULL || *p == '\0')
		return 0;
	for (s = p; ; s = c + 1) {
		c = strchr(s, '/');
		len = c != NULL ? (size_t)(c - s) : strlen(s);
		if (len == 0 || (len == 1 && s[0] == '.') ||
		    (len == 2 && s[0] == '.' && s[1] == '.') ||
		    (len == 4 && strncmp(s, ".git", 4) == 0))
			return 0;
		if (c == NULL)
			break;
	}
	for (s = p; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
		    *s == '-' || *s == '/'))
			return 0;
	return 1;
}

/*
 * Build the tree of base with files[0..n) (sorted by name, all under the
 * same directory, whose name takes the first skip bytes) put in.
 */
static int
build_tree(git_oid *out, struct crown_history *h, const git_tree *base,
    const struct crown_output *const *files, size_t n, size_t skip,
    struct crown_diags *d)
{
	git_treebuilder		*tb = NULL;
	const git_tree_entry	*e;
	git_tree		*sub;
	git_oid			 id;
	const char		*rest, *slash;
	char			*name;
	size_t			 i, j, len;
	int			 error = 0;

	if (git_treebuilder_new(&tb, h->repo, base) != 0)
		return git_fail(d, h->dir, CROWN_EWRITE,
		    "cannot build a tree");
	for (i = 0; i < n && error == 0; i = j) {
		rest = files[i]->name + skip;
		slash = strchr(rest, '/');
		if (slash == NULL) {
			j = i + 1;
			if ((error = crown_history_step(files[i]->name, d))
			    != 0)
				break;
			if (git_blob_create_from_buffer(&id, h->repo,
			    files[i]->data.data, files[i]->data.len) != 0)
				error = git_fail(d, h->dir, CROWN_EWRITE,
				    "cannot store %s", files[i]->name);
			else if ((error = stored(h, &id, files[i]->name, d))
			    == 0 && git_treebuilder_insert(NULL, tb, rest,
			    &id, GIT_FILEMODE_BLOB) != 0)
				error = git_fail(d, h->dir, CROWN_EWRITE,
				    "cannot store %s", files[i]->name);
			continue;
		}
		len = (size_t)(slash - rest);
		for (j = i + 1; j < n; j++)
			if (strncmp(files[j]->name + skip, rest, len + 1) != 0)
				break;
		name = xstrndup(rest, len);
		sub = NULL;
		e = base != NULL ? git_tree_entry_byname(base, name) : NULL;
		if (e != NULL && git_tree_entry_type(e) == GIT_OBJECT_TREE &&
		    git_tree_lookup(&sub, h->repo, git_tree_entry_id(e)) != 0)
			error = git_fail(d, h->dir, CROWN_EINVALID,
			    "cannot read %s", name);
		if (error == 0)
			error = build_tree(&id, h, sub, files + i, j - i,
			    skip + len + 1, d);
		if (error == 0 && git_treebuilder_insert(NULL, tb, name, &id,
		    GIT_FILEMODE_TREE) != 0)
			error = git_fail(d, h->dir, CROWN_EWRITE,
			    "cannot store %s", name);
		git_tree_free(sub);
		free(name);
	}
	if (error == 0 && (error = crown_history_step("tree", d)) == 0) {
		if (git_treebuilder_write(out, tb) != 0)
			error = git_fail(d, h->dir, CROWN_EWRITE,
			    "cannot write a tree");
		else
			error = stored(h, out, "a tree", d);
	}
	git_treebuilder_free(tb);
	return error;
}

static int
cmp_output(const void *a, const void *b)
{
	const struct crown_output *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int
crown_history_commit(char *idhex, struct crown_history *h,
    const char *parent, const struct crown_outputs *files,
    const char *message, const struct crown_stamp *st,
    struct crown_diags *d)
{
	const struct crown_output	**sorted = NULL;
	const git_commit		*parents[1];
	git_commit			*pc = NULL;
	git_tree			*base = NULL, *tree = NULL;
	git_signature			*sig = NULL;
	git_oid				 pid, tid, cid;
	size_t				 i;
	int				 error = 0;

	if (parent != NULL) {
		if ((error = oid_parse(&pid, parent, d, h->dir)) != 0)
			return error;
		if (git_commit_lookup(&pc, h->repo, &pid) != 0 ||
		    git_commit_tree(&base, pc) != 0) {
			error = git_fail(d, h->dir, CROWN_EINVALID,
			    "cannot read commit %s", parent);
			goto cleanup;
		}
	}
	sorted = xcalloc(files->n ? files->n : 1, sizeof(*sorted));
	for (i = 0; i < files->n; i++) {
		if (!path_ok(files->v[i].name)) {
			crown_diag_add(d, h->dir, 0, 0, NULL, "cannot commit "
			    "'%s': not a plain relative path",
			    files->v[i].name);
			error = CROWN_ERROR;
			goto cleanup;
		}
		sorted[i] = &files->v[i];
	}
	qsort(sorted, files->n, sizeof(*sorted), cmp_output);
	for (i = 1; i < files->n; i++)
		if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0 ||
		    (strncmp(sorted[i - 1]->name, sorted[i]->name,
		    strlen(sorted[i - 1]->name)) == 0 &&
		    sorted[i]->name[strlen(sorted[i - 1]->name)] == '/')) {
			crown_diag_add(d, h->dir, 0, 0, NULL, "cannot commit "
			    "'%s' twice", sorted[i]->name);
			error = CROWN_ERROR;
			goto cleanup;
		}
	if ((error = build_tree(&tid, h, base, sorted, files->n, 0, d)) != 0)
		goto cleanup;
	if (git_tree_lookup(&tree, h->repo, &tid) != 0) {
		error = git_fail(d, h->dir, CROWN_EWRITE, "cannot read the "
		    "tree just written");
		goto cleanup;
	}
	if (git_signature_new(&sig, st->name, st->email, (git_time_t)st->time,
	    st->offset) != 0) {
		error = git_fail(d, h->dir, CROWN_EINVALID, "bad umpire "
		    "'%s <%s>'", st->name, st->email);
		goto cleanup;
	}
	if ((error = crown_history_step("commit", d)) != 0)
		goto cleanup;
	parents[0] = pc;
	if (st->sign != NULL)
		error = crown_gpgsign_commit(&cid, h, sig, message, tree, pc,
		    st->sign, d);
	else if (git_commit_create(&cid, h->repo, NULL, sig, sig, NULL,
	    message, tree, pc != NULL ? 1 : 0, parents) != 0)
		error = git_fail(d, h->dir, CROWN_EWRITE, "cannot write the "
		    "commit");
	if (error != 0)
		goto cleanup;
	if ((error = stored(h, &cid, "the commit", d)) != 0)
		goto cleanup;
	oid_hex(idhex, &cid);
cleanup:
	git_signature_free(sig);
	git_tree_free(tree);
	free(sorted);
	git_tree_free(base);
	git_commit_free(pc);
	return error;
}

int
crown_history_dirty(char ***out, size_t *n, struct crown_history *h,
    struct crown_diags *d)
{
	git_status_options	 o;
	git_status_list		*l = NULL;
	const git_status_entry	*e;
	const char		*p;
	size_t			 i, cnt, cap = 0;

	*out = NULL;
	*n = 0;
	git_status_options_init(&o, GIT_STATUS_OPTIONS_VERSION);
	o.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
	/* the stat data of files found unchanged written back to the
	 * index: a campaign copied with cp (new inodes and times) is
	 * hashed whole once, not at every command; on a full disk, not
	 * written */
	o.flags = GIT_STATUS_OPT_EXCLUDE_SUBMODULES |
	    GIT_STATUS_OPT_UPDATE_INDEX;
	if (git_status_list_new(&l, h->repo, &o) != 0) {
		o.flags &= ~(unsigned)GIT_STATUS_OPT_UPDATE_INDEX;
		l = NULL;
	}
	if (l == NULL && git_status_list_new(&l, h->repo, &o) != 0)
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot compare "
		    "the work tree with the last commit");
	cnt = git_status_list_entrycount(l);
	for (i = 0; i < cnt; i++) {
		e = git_status_byindex(l, i);
		if (e == NULL || e->status == GIT_STATUS_CURRENT ||
		    (e->status & (GIT_STATUS_WT_NEW | GIT_STATUS_IGNORED)) ==
		    e->status)
			continue;
		p = NULL;
		if (e->head_to_index != NULL)
			p = e->head_to_index->old_file.path;
		if (p == NULL && e->index_to_workdir != NULL)
			p = e->index_to_workdir->old_file.path;
		crown_grow(out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = xstrdup(p != NULL ? p : "?");
	}
	git_status_list_free(l);
	return 0;
}

static int	checkout_head(struct crown_history *, struct crown_diags *);

int
crown_history_checkout(struct crown_history *h, struct crown_diags *d)
{
	int	error;

	if ((error = crown_history_step("checkout", d)) != 0)
		return error;
	return checkout_head(h, d);
}

/* mkdir -p of the directories above path (from the work tree on). */
static bool
parents_made(char *path, size_t from)
{
	char	*p;

	for (p = path + from; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	return true;
}

int
crown_history_checkout_files(struct crown_history *h,
    const struct crown_outputs *files, struct crown_diags *d)
{
	git_object		*tree = NULL;
	git_index		*idx = NULL;
	git_tree_entry		*te = NULL;
	git_index_entry		 e;
	struct stat		 st;
	const char		*wd = git_repository_workdir(h->repo);
	char			*path;
	size_t			 i;
	int			 error;
	bool			 ok;

	if ((error = crown_history_step("checkout", d)) != 0)
		return error;
	ok = wd != NULL && git_revparse_single(&tree, h->repo,
	    "HEAD^{tree}") == 0 && git_repository_index(&idx, h->repo) == 0;
	for (i = 0; ok && i < files->n; i++) {
		/* what HEAD holds there: a file of these bytes */
		ok = git_tree_entry_bypath(&te, (git_tree *)tree,
		    files->v[i].name) == 0 && git_tree_entry_filemode(te) ==
		    GIT_FILEMODE_BLOB;
		path = xasprintf("%s%s", wd, files->v[i].name);
		/* not synced, as a checkout's files are not */
		ok = ok && parents_made(path, strlen(wd)) && crown_put_file(path,
		    files->v[i].data.data, files->v[i].data.len, 0644,
		    false) == 0 && lstat(path, &st) == 0;
		if (ok) {
			memset(&e, 0, sizeof(e));
			e.ctime.seconds = (int32_t)st.st_ctim.tv_sec;
			e.ctime.nanoseconds = (uint32_t)st.st_ctim.tv_nsec;
			e.mtime.seconds = (int32_t)st.st_mtim.tv_sec;
			e.mtime.nanoseconds = (uint32_t)st.st_mtim.tv_nsec;
			e.dev = (uint32_t)st.st_dev;
			e.ino = (uint32_t)st.st_ino;
			e.mode = GIT_FILEMODE_BLOB;
			e.uid = (uint32_t)st.st_uid;
			e.gid = (uint32_t)st.st_gid;
			e.file_size = (uint32_t)st.st_size;
			git_oid_cpy(&e.id, git_tree_entry_id(te));
			e.path = files->v[i].name;
			ok = git_index_add(idx, &e) == 0;
		}
		free(path);
		git_tree_entry_free(te);
		te = NULL;
	}
	ok = ok && git_index_write(idx) == 0;
	git_index_free(idx);
	git_object_free(tree);
	/* anything unusual there (a directory where a file goes): the
	 * checkout of HEAD puts it right */
	return ok ? 0 : checkout_head(h, d);
}

/* A forced checkout of HEAD, from the old index. */
static int
checkout_head(struct crown_history *h, struct crown_diags *d)
{
	git_checkout_options	 o;
	git_index		*idx = NULL;
	int			 error = 0;

	if (git_repository_index(&idx, h->repo) != 0)
		return git_fail(d, h->dir, CROWN_EWRITE, "cannot read the "
		    "index");
	/* the old index is what the work tree held: files it has and HEAD
	 * lacks are removed; untracked files are not touched */
	git_checkout_options_init(&o, GIT_CHECKOUT_OPTIONS_VERSION);
	o.checkout_strategy = GIT_CHECKOUT_FORCE;
	o.baseline_index = idx;
	if (git_checkout_head(h->repo, &o) != 0)
		error = git_fail(d, h->dir, CROWN_EWRITE, "cannot update the "
		    "work tree");
	git_index_free(idx);
	return error;
}

int
crown_history_head_to(struct crown_history *h, const char *ref, bool *moved,
    struct crown_diags *d)
{
	git_reference	*head = NULL;
	int		 rc, error;

	*moved = false;
	rc = git_reference_lookup(&head, h->repo, "HEAD");
	if (rc == 0 && git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    strcmp(git_reference_symbolic_target(head), ref) == 0) {
		git_reference_free(head);
		return 0;
	}
	git_reference_free(head);
	if ((error = crown_history_step("HEAD", d)) != 0)
		return error;
	if (git_repository_set_head(h->repo, ref) != 0)
		return git_fail(d, h->dir, CROWN_EWRITE, "cannot point HEAD "
		    "at %s", ref);
	*moved = true;
	return 0;
}

int
crown_history_config_set(struct crown_history *h, const char *key,
    const char *value, struct crown_diags *d)
{
	git_config	*cfg = NULL;
	int		 error = 0;

	if ((error = crown_history_step(key, d)) != 0)
		return error;
	if (git_repository_config(&cfg, h->repo) != 0 ||
	    git_config_set_string(cfg, key, value) != 0)
		error = git_fail(d, h->dir, CROWN_EWRITE, "cannot set %s",
		    key);
	git_config_free(cfg);
	return error;
}

struct push_ctx {
	struct crown_diags	*d;
	const char		*remote;
	int			 refused;
};

static int
push_update_cb(const char *ref, const char *status, void *payload)
{
	struct push_ctx	*c = payload;

	if (status != NULL) {
		crown_diag_add(c->d, c->remote, 0, 0, NULL, "the remote "
		    "refused %s: %s", ref, status);
		c->refused++;
	}
	return 0;
}

/*
 * The remote's URL: a configured remote's, or name itself when it is a
 * URL or a path.  Read from the configuration by exact key: libgit2 1.5
 * leaks on its regular-expression paths (remote lookup applying
 * url.*.insteadOf), which crown therefore avoids.
 */
static int
remote_url(char **url, bool *configured, struct crown_history *h,
    const char *name, struct crown_diags *d)
{
	git_config	*cfg = NULL;
	git_buf		 b = { 0 };
	char		*key;
	int		 rc, valid = 0, error = 0;

	*url = NULL;
	*configured = false;
	if (git_repository_config_snapshot(&cfg, h->repo) != 0)
		return git_fail(d, h->dir, CROWN_EINVALID, "cannot read the "
		    "configuration");
	if (git_remote_name_is_valid(&valid, name) == 0 && valid) {
		key = xasprintf("remote.%s.url", name);
		rc = git_config_get_string_buf(&b, cfg, key);
		free(key);
		if (rc == 0) {
			*url = xstrdup(b.ptr);
			*configured = true;
		} else if (rc != GIT_ENOTFOUND)
			error = git_fail(d, h->dir, CROWN_EINVALID, "cannot "
			    "read remote '%s'", name);
	}
	if (error == 0 && *url == NULL) {
		if (strchr(name, '/') == NULL && strchr(name, ':') == NULL) {
			crown_diag_add(d, h->dir, 0, 0, NULL, "no remote "
			    "'%s': give a URL or a path", name);
			error = CROWN_ENOTFOUND;
		} else
			*url = xstrdup(name);
	}
	git_buf_dispose(&b);
	git_config_free(cfg);
	return error;
}

int
crown_history_push(struct crown_history *h, const char *name,
    char *const *refspecs, size_t n, struct crown_diags *d)
{
	git_remote_create_options	 co;
	git_push_options		 po;
	git_remote			*r = NULL;
	git_config			*cfg = NULL;
	git_buf				 b = { 0 };
	git_strarray			 specs;
	struct push_ctx			 c = { d, name, 0 };
	char				*url = NULL;
	bool				 configured;
	int				 error, rc;

	if ((error = remote_url(&url, &configured, h, name, d)) != 0)
		return error;
	git_remote_create_options_init(&co, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	co.repository = h->repo;
	co.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF |
	    GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
	if (git_remote_create_with_opts(&r, url, &co) != 0) {
		error = git_fail(d, name, CROWN_ENOTFOUND,
		    "cannot use remote");
		goto cleanup;
	}
	/* remember a URL as origin, so that the next publish needs none */
	if (!configured) {
		if (git_repository_config(&cfg, h->repo) != 0) {
			error = git_fail(d, h->dir, CROWN_EWRITE,
			    "cannot read the configuration");
			goto cleanup;
		}
		rc = git_config_get_string_buf(&b, cfg, "remote.origin.url");
		if (rc == GIT_ENOTFOUND) {
			if ((error = crown_history_step("remote", d)) != 0)
				goto cleanup;
			if (git_config_set_string(cfg, "remote.origin.url",
			    url) != 0 || git_config_set_string(cfg,
			    "remote.origin.fetch",
			    "+refs/heads/*:refs/remotes/origin/*") != 0) {
				error = git_fail(d, h->dir, CROWN_EWRITE,
				    "cannot save remote 'origin'");
				goto cleanup;
			}
		}
	}
	if ((error = crown_history_step("push", d)) != 0)
		goto cleanup;
	git_push_options_init(&po, GIT_PUSH_OPTIONS_VERSION);
	specs.strings = (char **)refspecs;
	specs.count = n;
	po.callbacks.push_update_reference = push_update_cb;
	po.callbacks.payload = &c;
	if (git_remote_push(r, &specs, &po) != 0)
		error = git_fail(d, name, CROWN_EWRITE, "cannot push");
	else if (c.refused > 0)
		error = CROWN_EWRITE;
cleanup:
	git_buf_dispose(&b);
	git_config_free(cfg);
	git_remote_free(r);
	free(url);
	return error;
}
