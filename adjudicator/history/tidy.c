/*
 * tidy.c: the work files beside the pending orders, what becomes of
 * each, and their removal once obsolete (tidy.h).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/mail.h"
#include "crown/orders.h"
#include "crown/tidy.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define LATE_DIR	"orders/late"

static char	*under(const char *, const char *);
static void	 names(char ***, size_t *, const char *, const char *);
static void	 late_file(struct crown_tidy_file *, const char *, int);
static void	 proof_file(struct crown_tidy_file *, const char *,
		    char *const *, size_t);
static int	 cmp_file(const void *, const void *);

/* workdir/sub, with one slash between. */
static char *
under(const char *workdir, const char *sub)
{
	size_t	len = strlen(workdir);

	return xasprintf("%s%s%s", workdir, len > 0 &&
	    workdir[len - 1] == '/' ? "" : "/", sub);
}

/* The names in dir that end in suffix, not hidden; sorted. */
static void
names(char ***out, size_t *n, const char *dir, const char *suffix)
{
	struct dirent	*de;
	DIR		*dp;
	size_t		 len, slen = strlen(suffix), cap = 0;

	*out = NULL;
	*n = 0;
	if ((dp = opendir(dir)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len <= slen ||
		    strcmp(de->d_name + len - slen, suffix) != 0)
			continue;
		crown_grow(out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(dp);
}

/* orders/late/NAME at path: for which turn, and is that one played? */
static void
late_file(struct crown_tidy_file *f, const char *path, int played)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_orders	*o = NULL;
	char			*buf;
	size_t			 len;

	f->kind = CROWN_TIDY_UNREADABLE;
	f->turn = -1;
	if (crown_read_file(&buf, &len, path, crown_ylimits_orders.max_bytes,
	    &quiet) != 0)
		goto done;
	crown_mail_sha256_hex(f->rec, buf, len);
	/* what crown inbox files there is YAML with its turn and side */
	if (crown_orders_parse(&o, f->path, buf, len, &quiet) == 0 &&
	    o->turn_line > 0 && o->side != NULL) {
		f->turn = o->turn;
		f->side = xstrdup(o->side);
		f->kind = o->turn <= played ? CROWN_TIDY_LATE_PLAYED :
		    CROWN_TIDY_LATE;
	}
	crown_orders_free(o);
	free(buf);
done:
	crown_diags_release(&quiet);
}

/* orders/pending/SIDE.proof in dir: are its orders there still, with the
 * receipt it names, and staying (not among gone)? */
static void
proof_file(struct crown_tidy_file *f, const char *dir, char *const *gone,
    size_t ngone)
{
	struct crown_diags	 quiet = { 0 };
	const char		*base = strrchr(f->path, '/') + 1;
	char			*yaml, *proof, *buf = NULL, *text = NULL;
	char			 rec[CROWN_SHA256_HEX];
	size_t			 len, i;

	f->kind = CROWN_TIDY_PROOF_GONE;
	f->turn = -1;
	f->side = xstrndup(base, strlen(base) - strlen(".proof"));
	yaml = xasprintf("%s/%s.yaml", dir, f->side);
	proof = xasprintf("%s/%s", dir, base);
	for (i = 0; i < ngone; i++)
		if (strcmp(gone[i], yaml) == 0)
			goto done;
	if (crown_read_file(&buf, &len, yaml, CROWN_LIMIT_BYTES_MAX,
	    &quiet) != 0)
		goto done;
	crown_mail_sha256_hex(rec, buf, len);
	if (crown_read_file(&text, &len, proof, 4096, &quiet) == 0 &&
	    len > strlen(rec) && memcmp(text, rec, strlen(rec)) == 0 &&
	    text[strlen(rec)] == ' ')
		f->kind = CROWN_TIDY_PROOF;
done:
	free(text);
	free(buf);
	free(proof);
	free(yaml);
	crown_diags_release(&quiet);
}

static int
cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct crown_tidy_file *)a)->path,
	    ((const struct crown_tidy_file *)b)->path);
}

void
crown_campaign_tidy(struct crown_tidy *out, const char *workdir, int played,
    char *const *gone, size_t ngone)
{
	char	**late, **proofs, *ldir, *pdir, *p;
	size_t	  nlate, nproofs, i, k = 0;

	memset(out, 0, sizeof(*out));
	ldir = under(workdir, LATE_DIR);
	pdir = under(workdir, CROWN_CAMPAIGN_PENDING);
	names(&late, &nlate, ldir, ".yaml");
	names(&proofs, &nproofs, pdir, ".proof");
	out->v = xcalloc(nlate + nproofs + 1, sizeof(*out->v));
	for (i = 0; i < nlate; i++, k++) {
		out->v[k].path = xasprintf("%s/%s", LATE_DIR, late[i]);
		p = xasprintf("%s/%s", ldir, late[i]);
		late_file(&out->v[k], p, played);
		free(p);
		free(late[i]);
	}
	for (i = 0; i < nproofs; i++, k++) {
		out->v[k].path = xasprintf("%s/%s", CROWN_CAMPAIGN_PENDING,
		    proofs[i]);
		proof_file(&out->v[k], pdir, gone, ngone);
		free(proofs[i]);
	}
	out->n = k;
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_file);
	free(proofs);
	free(late);
	free(pdir);
	free(ldir);
}

void
crown_tidy_release(struct crown_tidy *t)
{
	size_t	i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].side);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

bool
crown_tidy_obsolete(const struct crown_tidy_file *f)
{
	return f->kind == CROWN_TIDY_LATE_PLAYED ||
	    f->kind == CROWN_TIDY_PROOF_GONE;
}

void
crown_tidy_paths(char ***paths, size_t *n, const struct crown_tidy *t,
    const char *workdir)
{
	size_t	i, cap = *n;

	for (i = 0; i < t->n; i++) {
		if (!crown_tidy_obsolete(&t->v[i]))
			continue;
		crown_grow(paths, &cap, *n + 1, sizeof(**paths));
		(*paths)[(*n)++] = under(workdir, t->v[i].path);
	}
}

void
crown_campaign_tidy_repair(const char *workdir, int played,
    struct crown_diags *d)
{
	struct crown_tidy	 t;
	char			*p;
	size_t			 i;

	crown_campaign_tidy(&t, workdir, played, NULL, 0);
	for (i = 0; i < t.n; i++) {
		if (!crown_tidy_obsolete(&t.v[i]))
			continue;
		p = under(workdir, t.v[i].path);
		crown_diag_note(d, "crown", 0, 0, NULL, "removing %s: %s", p,
		    t.v[i].kind == CROWN_TIDY_LATE_PLAYED ? "its turn is "
		    "played" : "the orders it is the proof of are gone");
		unlink(p);
		free(p);
	}
	crown_tidy_release(&t);
}
