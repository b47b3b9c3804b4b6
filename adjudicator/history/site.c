/*
 * site.c: the campaign as a static web site (site.h).  Each page is
 * modelled as a template tree (template.h) and rendered by the templates
 * site-*.html.tmpl; the reports become HTML through cmark (html.h).
 *
 * What is read, and when: a turn's page reads its own reports, map and
 * orders, and only when it is written.  The index's figures (each side's
 * strength and losses by turn) are kept in the manifest beside the
 * turn's commit, so only turns new to the site have their state read.
 * A unit's page is made again only when a new turn touched the unit (or
 * the line changed under the site): the new turns are read first to
 * find out, then, if any page is to be made, the line once more, one
 * turn at a time, keeping only the stories of those units (story.h).  A
 * run with nothing new reads no turn's state at all.
 *
 * What a side's site holds (--side): its own reports, the maps (mailed to
 * every player), its own orders, the strengths of every side (from the
 * states, which every player is mailed too), and pages for its own units
 * only, whose stories name the enemy's orders without quoting them.
 * Never the umpire's report, another side's report or orders, or
 * events.yaml, which holds every die of both sides as the umpire's
 * report does.  Orders of a turn not yet played are never in a site:
 * they are in orders/pending/, outside the history.
 *
 * The press the sides sent each other (press.h) is not in the history:
 * it is read from the campaign's .git/crown-press, where crown inbox
 * keeps it, so only the umpire's campaign has it.  The umpire's index
 * lists every press; a side's, what that side sent and received.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/html.h"
#include "crown/outputs.h"
#include "crown/paths.h"
#include "crown/press.h"
#include "crown/report.h"
#include "crown/rerun.h"
#include "crown/site.h"
#include "crown/state.h"
#include "crown/story.h"
#include "crown/template.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

#define MANIFEST_HEAD	"crown-site 1"
#define UNITS_DIR	"units"

/* OUT's folders. */
static const char *const site_dirs[] = { UNITS_DIR };

/* The chart of the index, in pixels. */
#define CHART_W		640
#define CHART_H		240
#define CHART_LEFT	56
#define CHART_RIGHT	16
#define CHART_TOP	12
#define CHART_BOTTOM	32

/*
 * One turn of the line: what its commit says, and its figures on the
 * index: figures[2 * i] the strength of side i after the turn,
 * figures[2 * i + 1] what it lost in it, from the manifest (known) or
 * from the turn's state.
 */
struct turn {
	int			 t;
	const char		*commit;
	char			 date[32];
	const char		*headline;	/* in the commit's subject */
	struct crown_rerun_mark	 rerun;		/* of an adopted rerun */
	long			*figures;
	bool			 known;
};

/* A turn of the unit's page: its strength after it, its story. */
struct told {
	int			 t;
	char			*strength;	/* NULL: not in the state */
	struct crown_story	 story;
};

/* A unit with a page, and what the page is to show when it is made. */
struct unit {
	const char		*id;
	bool			 tell;		/* (maybe) made anew */
	char			*start;		/* strength at turn 0 */
	char			*last;		/* after the last walked */
	struct crown_buf	 keys;		/* commits that touched it */
	struct told		*told;
	size_t			 ntold, cap;
};

/* A page or file of the site and the key of what it is made from. */
struct page {
	char	*name;
	char	*key;
};

struct pages {
	struct page	*v;
	size_t		 n, cap;
	bool		 sorted;	/* by name, for pages_key */
};

/* A turn's line of the manifest: its commit and figures. */
struct record {
	int	 t;
	char	*commit;
	long	*figures;
};

struct site {
	const struct crown_site_input	*in;
	struct crown_tmpl_set		*set;
	struct turn			*turns;
	size_t				 nturns;
	const struct crown_state	*start;		/* turn 0 */
	size_t				 nfig;		/* 2 * sides */
	/* the units with a page, and their links from the top */
	struct crown_html_link		*links;
	size_t				 nlinks;
	const char			**ids;		/* of links[i] */
	struct unit			*units;		/* of links[i] */
	struct pages			 old, now;
	struct record			*records;	/* of the manifest */
	size_t				 nrecords;
	char				*head;		/* of the manifest */
	bool				 begun;		/* OUT has one */
	struct crown_site_stats		*stats;
	struct crown_press_list		 press;		/* of the view */
	char				 press_key[33];
};

static void
pages_add(struct pages *p, const char *name, const char *key)
{
	crown_grow(&p->v, &p->cap, p->n + 1, sizeof(*p->v));
	p->v[p->n].name = xstrdup(name);
	p->v[p->n++].key = xstrdup(key);
}

static void
pages_release(struct pages *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].key);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int	cmp_page(const void *, const void *);

static const char *
pages_key(const struct pages *p, const char *name)
{
	struct page	 k = { (char *)name, NULL }, *f;
	size_t		 i;

	if (p->sorted) {
		f = p->n > 0 ? bsearch(&k, p->v, p->n, sizeof(*p->v),
		    cmp_page) : NULL;
		return f != NULL ? f->key : NULL;
	}
	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i].name, name) == 0)
			return p->v[i].key;
	return NULL;
}

/* 32 hex digits of BLAKE2b over the bytes given. */
static void
hash_hex(char *hex, const struct crown_buf *b)
{
	unsigned char	h[16];

	crypto_generichash(h, sizeof(h), (const unsigned char *)b->data,
	    b->len, NULL, 0);
	sodium_bin2hex(hex, 33, h, sizeof(h));
}

/*
 * A file's bytes, NUL-terminated, appended to b.  CROWN_ENOTFOUND, and
 * nothing said, when there is no such file; `error' (a diagnostic with
 * the file's name) when it cannot be read.
 */
static int
slurp(struct crown_buf *b, const char *path, int error,
    struct crown_diags *d)
{
	FILE	*fp = fopen(path, "rb");
	char	 chunk[4096];
	size_t	 n;
	int	 e;

	if (fp == NULL) {
		if (errno == ENOENT)
			return CROWN_ENOTFOUND;
		crown_diag_add(d, path, 0, 0, NULL, "cannot read: %s",
		    strerror(errno));
		return error;
	}
	crown_buf_puts(b, "");
	errno = 0;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		crown_buf_add(b, chunk, n);
	e = errno;
	if (ferror(fp)) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot read: %s",
		    strerror(e));
		fclose(fp);
		return error;
	}
	fclose(fp);
	return 0;
}

/*
 * The manifest's first lines: what every page depends on besides its
 * commits: crown's version, the side, and the page templates' bytes.
 * Caller frees *out.  CROWN_ENOTFOUND when a template cannot be read.
 */
static int
manifest_head(char **out, const struct crown_site_input *in,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	struct dirent		**ents = NULL;
	char			 hex[33], *path;
	int			 n, i, error = 0;

	*out = NULL;
	crown_buf_puts(&b, "");
	n = scandir(in->templates, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (error == 0 && strncmp(ents[i]->d_name, "site-", 5) == 0) {
			path = xasprintf("%s/%s", in->templates,
			    ents[i]->d_name);
			crown_buf_printf(&b, "%s\n", ents[i]->d_name);
			error = slurp(&b, path, CROWN_ENOTFOUND, d);
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	hash_hex(hex, &b);
	crown_buf_release(&b);
	if (error == 0)
		*out = xasprintf(MANIFEST_HEAD "\ncrown %s\nside %s\n"
		    "templates %s\n", CROWN_VERSION, in->side != NULL ?
		    in->side : "-", hex);
	return error;
}

static int
cmp_page(const void *a, const void *b)
{
	const struct page *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* A line "turn N COMMIT FIGURES..." of the manifest, into s->records;
 * a line that does not read so is left out (its turn is read again). */
static void
record_read(struct site *s, const char *line)
{
	struct record	 r;
	const char	*p = line;
	char		*end;
	size_t		 i, n;

	errno = 0;
	r.t = (int)strtol(p, &end, 10);
	if (end == p || *end != ' ' || errno != 0 || r.t < 0)
		return;
	p = end + 1;
	if ((n = strcspn(p, " ")) != strlen(s->turns[0].commit))
		return;
	r.commit = xstrndup(p, n);
	r.figures = xcalloc(s->nfig, sizeof(*r.figures));
	for (p += n, i = 0; i < s->nfig && *p == ' '; i++) {
		r.figures[i] = strtol(++p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (i < s->nfig || *p != '\0' || errno != 0) {
		free(r.figures);
		free(r.commit);
		return;
	}
	s->records = xreallocarray(s->records, s->nrecords + 1,
	    sizeof(*s->records));
	s->records[s->nrecords++] = r;
}

/*
 * Is name a temporary file of OUT's manifest (crown_write_file's
 * ".NAME.tmp.PID")?  A first run killed while writing it leaves one.
 */
static bool
manifest_temp(const char *name)
{
	return strncmp(name, "." CROWN_SITE_MANIFEST ".tmp.",
	    strlen("." CROWN_SITE_MANIFEST ".tmp.")) == 0;
}

/*
 * Read OUT's manifest into s->old: its keys only when its head is this
 * run's, else every page is made again.  OUT must be absent (it is
 * made), empty (but for a temporary of the manifest), or a site, which
 * a first run marks before its first page (manifest_begin).
 */
static int
manifest_read(struct site *s, struct crown_diags *d)
{
	const char	*out = s->in->out;
	struct crown_buf b = { 0 };
	struct stat	 st;
	struct dirent	*e;
	DIR		*dir;
	char		*path, *line, *next, *sp;
	bool		 empty = true, same;
	int		 error;

	if (stat(out, &st) != 0) {
		if (errno != ENOENT) {
			crown_diag_add(d, out, 0, 0, NULL, "cannot read: %s",
			    strerror(errno));
			return CROWN_EWRITE;
		}
		return crown_mkdirs(out, d);
	}
	if (!S_ISDIR(st.st_mode)) {
		crown_diag_add(d, out, 0, 0, NULL, "not a directory");
		return CROWN_EWRITE;
	}
	path = xasprintf("%s/%s", out, CROWN_SITE_MANIFEST);
	error = slurp(&b, path, CROWN_EWRITE, d);
	free(path);
	if (error == CROWN_EWRITE) {
		crown_buf_release(&b);
		return error;
	}
	if (error == CROWN_ENOTFOUND) {
		if ((dir = opendir(out)) != NULL) {
			while ((e = readdir(dir)) != NULL)
				if (strcmp(e->d_name, ".") != 0 &&
				    strcmp(e->d_name, "..") != 0 &&
				    !manifest_temp(e->d_name))
					empty = false;
			closedir(dir);
		}
		if (empty)
			return 0;
		crown_diag_add(d, out, 0, 0, NULL, "holds files but no site "
		    "made by crown site (no %s): give a new or empty "
		    "directory", CROWN_SITE_MANIFEST);
		return CROWN_EWRITE;
	}
	s->begun = true;
	same = strncmp(b.data, s->head, strlen(s->head)) == 0;
	for (line = b.data; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (same && strncmp(line, "turn ", 5) == 0)
			record_read(s, line + 5);
		if (strncmp(line, "page ", 5) != 0)
			continue;
		line += 5;
		if ((sp = strchr(line, ' ')) == NULL)
			continue;
		*sp = '\0';
		/* a name of ours only, never a way out of OUT */
		if (strstr(line, "..") != NULL || line[0] == '/')
			continue;
		pages_add(&s->old, line, same ? sp + 1 : "");
	}
	crown_buf_release(&b);
	if (s->old.n > 0)
		qsort(s->old.v, s->old.n, sizeof(*s->old.v), cmp_page);
	s->old.sorted = true;
	return 0;
}

/*
 * A new or empty OUT marked as the site's before any page is written: a
 * manifest of the head alone, which names no page and no turn.  A run
 * killed or out of room after it leaves a site the next run finishes
 * (every page made again, as none has a key), never a directory of
 * pages that crown would refuse as someone else's.
 */
static int
manifest_begin(struct site *s, struct crown_diags *d)
{
	if (s->begun)
		return 0;
	return crown_write_file(s->in->out, CROWN_SITE_MANIFEST, s->head,
	    strlen(s->head), d);
}

static int
manifest_write(struct site *s, struct crown_diags *d)
{
	struct crown_buf	b = { 0 };
	size_t			i, k;
	int			error;

	crown_buf_puts(&b, s->head);
	crown_buf_printf(&b, "press %s\n", s->press_key);
	for (i = 0; i < s->now.n; i++)
		crown_buf_printf(&b, "page %s %s\n", s->now.v[i].name,
		    s->now.v[i].key);
	for (i = 0; i < s->nturns; i++) {
		crown_buf_printf(&b, "turn %d %s", s->turns[i].t,
		    s->turns[i].commit);
		for (k = 0; k < s->nfig; k++)
			crown_buf_printf(&b, " %ld", s->turns[i].figures[k]);
		crown_buf_puts(&b, "\n");
	}
	error = crown_write_file(s->in->out, CROWN_SITE_MANIFEST, b.data,
	    b.len, d);
	crown_buf_release(&b);
	return error;
}

/*
 * Is page `name', made from `key', to be written: its key changed, or
 * its file is missing?  It is the site's either way.
 */
static bool
needs(struct site *s, const char *name, const char *key)
{
	const char	*old = pages_key(&s->old, name);
	char		*path;
	bool		 there;

	pages_add(&s->now, name, key);
	s->stats->pages++;
	if (old == NULL || strcmp(old, key) != 0)
		return true;
	path = xasprintf("%s/%s", s->in->out, name);
	there = access(path, F_OK) == 0;
	free(path);
	return !there;
}

static int
put(struct site *s, const char *name, const char *data, size_t len,
    struct crown_diags *d)
{
	int	error;

	if ((error = crown_write_file(s->in->out, name, data, len, d)) == 0)
		s->stats->written++;
	return error;
}

/* Render template tmpl with root into page `name'. */
static int
render(struct site *s, const char *tmpl, const char *name,
    const struct crown_tval *root, struct crown_diags *d)
{
	struct crown_buf	b = { 0 };
	int			error;

	crown_buf_puts(&b, "");
	error = crown_tmpl_render(&b, s->set, tmpl, CROWN_ESC_XML, root, d);
	if (error == 0)
		error = put(s, name, b.data, b.len, d);
	crown_buf_release(&b);
	return error;
}

/* Pages of an earlier run that are no longer the site's. */
static void
remove_stale(struct site *s)
{
	char	*path;
	size_t	 i;

	if (s->now.n > 0)
		qsort(s->now.v, s->now.n, sizeof(*s->now.v), cmp_page);
	s->now.sorted = true;
	for (i = 0; i < s->old.n; i++) {
		if (pages_key(&s->now, s->old.v[i].name) != NULL)
			continue;
		path = xasprintf("%s/%s", s->in->out, s->old.v[i].name);
		if (unlink(path) == 0)
			s->stats->removed++;
		free(path);
	}
}

static char *
turn_page(int t)
{
	return xasprintf("turn-%03d.html", t);
}

static char *
unit_page(const char *id)
{
	return xasprintf(UNITS_DIR "/%s.html", id);
}

/* Figures of a side's units still in the field (not lost). */
static long
strength(const struct crown_state *st, const char *side)
{
	long	n = 0;
	size_t	i;

	for (i = 0; i < st->nunits; i++)
		if (strcmp(st->units[i].side, side) == 0 &&
		    st->units[i].status != CROWN_LOST)
			n += crown_unit_figures(&st->units[i]);
	return n;
}

/* Figures a side lost from before to after. */
static long
losses(const struct crown_state *before, const struct crown_state *after,
    const char *side)
{
	const struct crown_unit	*u;
	long			 n = 0, f;
	size_t			 i;

	for (i = 0; i < before->nunits; i++) {
		if (strcmp(before->units[i].side, side) != 0)
			continue;
		u = crown_state_unit(after, before->units[i].id);
		f = crown_unit_figures(&before->units[i]) -
		    (u != NULL ? crown_unit_figures(u) : 0);
		if (f > 0)
			n += f;
	}
	return n;
}

/* What every page shows: the campaign, the sides, whose site it is. */
static struct crown_tval *
model_common(const struct site *s, const char *up)
{
	const struct crown_state	*st = s->start;
	struct crown_tval		*root = crown_tval_map(), *l, *m;
	size_t				 i;
	int				 k;

	crown_tmap_str(root, "up", up);
	m = crown_tmap_map(root, "game");
	crown_tmap_str(m, "name", st->name);
	crown_tmap_int(m, "last_turn", (long)s->nturns - 1);
	l = crown_tmap_list(root, "sides");
	for (i = 0; i < st->nsides; i++) {
		m = crown_tlist_map(l);
		crown_tmap_str(m, "id", st->sides[i].id);
		crown_tmap_str(m, "name", st->sides[i].name);
		crown_tmap_int(m, "index", (long)(i % 5));
	}
	if (s->in->side != NULL &&
	    (k = crown_state_side(st, s->in->side)) >= 0) {
		m = crown_tmap_map(root, "side_view");
		crown_tmap_str(m, "id", st->sides[k].id);
		crown_tmap_str(m, "name", st->sides[k].name);
	}
	return root;
}

/* The chart of the index: each side's strength by turn. */
static void
model_chart(struct crown_tval *chart, const struct site *s)
{
	const struct crown_state	*st = s->start;
	struct crown_tval		*l, *m;
	struct crown_buf		 pts;
	long				 maxv = 1, v, step;
	double				 x, y, pw, ph;
	size_t				 i, t, last = s->nturns - 1;

	for (i = 0; i < st->nsides; i++)
		for (t = 0; t < s->nturns; t++)
			if ((v = s->turns[t].figures[2 * i]) > maxv)
				maxv = v;
	pw = CHART_W - CHART_LEFT - CHART_RIGHT;
	ph = CHART_H - CHART_TOP - CHART_BOTTOM;
	crown_tmap_int(chart, "width", CHART_W);
	crown_tmap_int(chart, "height", CHART_H);
	crown_tmap_int(chart, "left", CHART_LEFT);
	crown_tmap_int(chart, "right", CHART_W - CHART_RIGHT);
	crown_tmap_int(chart, "top", CHART_TOP);
	crown_tmap_int(chart, "bottom", CHART_H - CHART_BOTTOM);
	l = crown_tmap_list(chart, "sides");
	for (i = 0; i < st->nsides; i++) {
		m = crown_tlist_map(l);
		crown_tmap_str(m, "name", st->sides[i].name);
		crown_tmap_int(m, "index", (long)(i % 5));
		memset(&pts, 0, sizeof(pts));
		crown_buf_puts(&pts, "");
		for (t = 0; t < s->nturns; t++) {
			v = s->turns[t].figures[2 * i];
			x = CHART_LEFT + pw * (double)t /
			    (double)(last > 0 ? last : 1);
			y = CHART_TOP + ph * (double)(maxv - v) /
			    (double)maxv;
			crown_buf_printf(&pts, "%s%.1f,%.1f", t ? " " : "",
			    x, y);
			if (t == last) {
				crown_tmap_printf(m, "end_x", "%.1f", x);
				crown_tmap_printf(m, "end_y", "%.1f", y);
				crown_tmap_int(m, "figures", v);
			}
		}
		crown_tmap_str(m, "points", pts.data);
		crown_buf_release(&pts);
	}
	l = crown_tmap_list(chart, "xticks");
	step = last <= 12 ? 1 : last <= 30 ? 5 : 10;
	for (t = 0; t <= last; t += (size_t)step) {
		m = crown_tlist_map(l);
		crown_tmap_printf(m, "x", "%.1f", CHART_LEFT + pw *
		    (double)t / (double)(last > 0 ? last : 1));
		crown_tmap_int(m, "label", (long)t);
	}
	l = crown_tmap_list(chart, "yticks");
	for (i = 0; i <= 2; i++) {
		m = crown_tlist_map(l);
		crown_tmap_printf(m, "y", "%.1f", CHART_TOP + ph *
		    (double)(2 - i) / 2.0);
		crown_tmap_int(m, "label", maxv * (long)i / 2);
	}
}

/* A turn played again by an adopted rerun, or replayed by one: its
 * "rerun" (of, reason, adopted; replayed for a later turn). */
static void
model_rerun(struct crown_tval *m, const struct turn *tu)
{
	struct crown_tval	*r;

	if (tu->rerun.of < 0)
		return;
	r = crown_tmap_map(m, "rerun");
	crown_tmap_int(r, "of", (long)tu->rerun.of);
	crown_tmap_bool(r, "replayed", tu->rerun.of < tu->t);
	if (tu->rerun.reason != NULL)
		crown_tmap_str(r, "reason", tu->rerun.reason);
	if (tu->rerun.adopted != NULL)
		crown_tmap_str(r, "adopted", tu->rerun.adopted);
}

/*
 * The press the site shows (press.h): every press for the umpire's,
 * what the side sent and received for a side's; and *key, the hash of
 * their names, which changes with a press more.
 */
static void
press_of_view(struct crown_press_list *out, char *key,
    const struct crown_site_input *in, struct crown_diags *d)
{
	struct crown_buf	 names = { 0 };
	size_t			 i, n;

	crown_press_load(out, crown_history_workdir(in->h), d);
	crown_buf_puts(&names, "");
	for (i = n = 0; i < out->n; i++) {
		if (in->side != NULL &&
		    !crown_press_of(&out->v[i], in->side)) {
			crown_press_release(&out->v[i]);
			continue;
		}
		crown_buf_printf(&names, "%s\n", out->v[i].name);
		out->v[n++] = out->v[i];
	}
	out->n = n;
	hash_hex(key, &names);
	crown_buf_release(&names);
}

/* The index's list of press, when there is any. */
static void
model_press(struct crown_tval *root, const struct site *s)
{
	const struct crown_state	*st = s->start;
	const struct crown_press	*p;
	struct crown_tval		*l, *m, *to;
	size_t				 i, j;
	int				 k;

	if (s->press.n == 0)
		return;
	l = crown_tmap_list(crown_tmap_map(root, "press"), "items");
	for (i = 0; i < s->press.n; i++) {
		p = &s->press.v[i];
		m = crown_tlist_map(l);
		crown_tmap_int(m, "turn", p->turn);
		crown_tmap_str(m, "delivered", p->delivered);
		k = crown_state_side(st, p->from);
		crown_tmap_str(m, "from", k >= 0 ? st->sides[k].name :
		    p->from);
		if (s->in->side != NULL)
			crown_tmap_str(m, strcmp(p->from, s->in->side) == 0 ?
			    "sent" : "received", "yes");
		to = crown_tmap_list(m, "to");
		for (j = 0; j < p->nto; j++) {
			k = crown_state_side(st, p->to[j]);
			crown_tmap_str(crown_tlist_map(to), "name", k >= 0 ?
			    st->sides[k].name : p->to[j]);
		}
		crown_tmap_str(m, "subject", p->subject);
		crown_tmap_str(m, "text", p->text);
	}
}

static int
write_index(struct site *s, struct crown_diags *d)
{
	const struct crown_state	*st = s->start;
	struct crown_tval		*root, *l, *m, *ll;
	const struct crown_unit		*u;
	struct crown_buf		 keys = { 0 };
	char				*name, hex[33];
	size_t				 i, t;
	int				 k, error;

	/* what it shows is the line's: its commits are its key */
	crown_buf_puts(&keys, "");
	for (t = 0; t < s->nturns; t++)
		crown_buf_printf(&keys, "%s\n", s->turns[t].commit);
	crown_buf_printf(&keys, "press %s\n", s->press_key);
	hash_hex(hex, &keys);
	crown_buf_release(&keys);
	if (!needs(s, "index.html", hex))
		return 0;
	root = model_common(s, "");
	l = crown_tmap_list(root, "turns");
	for (t = 0; t < s->nturns; t++) {
		m = crown_tlist_map(l);
		crown_tmap_int(m, "number", (long)t);
		name = turn_page((int)t);
		crown_tmap_str(m, "href", name);
		free(name);
		crown_tmap_str(m, "date", s->turns[t].date);
		crown_tmap_str(m, "headline", s->turns[t].headline);
		model_rerun(m, &s->turns[t]);
		if (t == 0)
			continue;
		ll = crown_tmap_list(m, "losses");
		for (i = 0; i < st->nsides; i++)
			crown_tmap_int(crown_tlist_map(ll), "figures",
			    s->turns[t].figures[2 * i + 1]);
	}
	model_chart(crown_tmap_map(root, "chart"), s);
	model_press(root, s);
	l = crown_tmap_list(root, "units");
	for (i = 0; i < s->nlinks; i++) {
		m = crown_tlist_map(l);
		crown_tmap_str(m, "href", s->links[i].href);
		crown_tmap_str(m, "name", s->links[i].name);
		u = crown_state_unit(st, s->ids[i]);
		if (u != NULL && (k = crown_state_side(st, u->side)) >= 0)
			crown_tmap_str(m, "side_name", st->sides[k].name);
	}
	error = render(s, "site-index.html", "index.html", root, d);
	crown_tval_free(root);
	return error;
}

/* A report of turn t as HTML, in the list of the turn's reports; absent
 * files are left out. */
static int
add_report(struct crown_tval *list, const struct site *s,
    const struct turn *tu, const char *file, const char *title,
    struct crown_diags *d)
{
	struct crown_buf	 md = { 0 }, html = { 0 };
	struct crown_tval	*m;
	char			*dir, *path;
	int			 error;

	dir = crown_campaign_turn_dir(tu->t);
	path = xasprintf("%s/%s", dir, file);
	error = crown_history_read(&md, s->in->h, tu->commit, path, d);
	if (error == 0) {
		crown_buf_puts(&html, "");
		crown_html_markdown(&html, md.data, md.len, s->links,
		    s->nlinks);
		m = crown_tlist_map(list);
		crown_tmap_str(m, "title", title);
		crown_tmap_str(m, "html", html.data);
	} else if (error == CROWN_ENOTFOUND)
		error = 0;
	crown_buf_release(&md);
	crown_buf_release(&html);
	free(path);
	free(dir);
	return error;
}

/* The map of turn t, inline, its units linked; or why it is left out. */
static int
model_map(struct crown_tval *root, const struct site *s,
    const struct turn *tu, struct crown_diags *d)
{
	struct crown_buf	 svg = { 0 }, clean = { 0 }, html = { 0 };
	char			*dir, *path;
	int			 error;

	dir = crown_campaign_turn_dir(tu->t);
	path = xasprintf("%s/map.svg", dir);
	error = crown_history_read(&svg, s->in->h, tu->commit, path, d);
	if (error == 0 && crown_html_svg_clean(&clean, svg.data,
	    svg.len) == 0) {
		crown_buf_puts(&html, "");
		crown_html_svg(&html, clean.data, clean.len, s->links,
		    s->nlinks);
		crown_tmap_str(root, "map", html.data);
	} else if (error == 0)
		crown_tmap_bool(root, "map_left_out", true);
	else if (error == CROWN_ENOTFOUND)
		error = 0;
	crown_buf_release(&svg);
	crown_buf_release(&clean);
	crown_buf_release(&html);
	free(path);
	free(dir);
	return error;
}

/* The orders of turn t the site may show: every side's for the umpire,
 * the side's own for a side. */
static int
model_orders(struct crown_tval *root, const struct site *s,
    const struct turn *tu, struct crown_diags *d)
{
	struct crown_outputs	 files = { 0 };
	struct crown_tval	*l, *m;
	const char		*base;
	char			*dir, *own = NULL, *side;
	size_t			 i;
	int			 error, k;

	dir = crown_campaign_orders_dir(tu->t);
	error = crown_history_files(&files, s->in->h, tu->commit, dir, d);
	free(dir);
	if (error == CROWN_ENOTFOUND)
		error = 0;
	if (s->in->side != NULL)
		own = xasprintf("%s.yaml", s->in->side);
	l = crown_tmap_list(root, "orders");
	for (i = 0; error == 0 && i < files.n; i++) {
		base = strrchr(files.v[i].name, '/');
		base = base != NULL ? base + 1 : files.v[i].name;
		if (own != NULL && strcmp(base, own) != 0)
			continue;
		m = crown_tlist_map(l);
		crown_tmap_str(m, "file", files.v[i].name);
		side = xstrndup(base, strcspn(base, "."));
		if ((k = crown_state_side(s->start, side)) >= 0)
			crown_tmap_str(m, "side_name", s->start->sides[k].name);
		else
			crown_tmap_str(m, "side_name", side);
		free(side);
		crown_tmap_str(m, "text", files.v[i].data.data);
	}
	free(own);
	crown_outputs_release(&files);
	return error;
}

static int
write_turn(struct site *s, size_t t, struct crown_diags *d)
{
	const struct crown_state	*st = s->start;
	const struct turn		*tu = &s->turns[t];
	struct crown_tval		*root, *m, *l;
	struct crown_buf		 b = { 0 }, html = { 0 };
	char				*name, *key, *events, *title, *file;
	char				*dir, *path;
	size_t				 i;
	int				 error = 0;
	bool				 last = t + 1 == s->nturns;

	name = turn_page((int)t);
	key = xasprintf("%s %s", tu->commit, last ? "last" : "next");
	events = xasprintf("turn-%03zu-events.yaml", t);
	if (s->in->side == NULL && needs(s, events, tu->commit)) {
		/* events.yaml, for the auditor: as committed */
		dir = crown_campaign_turn_dir((int)t);
		path = xasprintf("%s/%s", dir, CROWN_CAMPAIGN_EVENTS);
		error = crown_history_read(&b, s->in->h, tu->commit, path, d);
		if (error == 0)
			error = put(s, events, b.data, b.len, d);
		else if (error == CROWN_ENOTFOUND)
			error = 0;
		crown_buf_release(&b);
		free(path);
		free(dir);
	}
	if (error != 0 || !needs(s, name, key))
		goto cleanup;

	root = model_common(s, "");
	m = crown_tmap_map(root, "turn");
	crown_tmap_int(m, "number", (long)t);
	crown_tmap_str(m, "date", tu->date);
	crown_tmap_str(m, "headline", tu->headline);
	model_rerun(m, tu);
	crown_tmap_printf(m, "commit", "%.12s", tu->commit);
	if (t > 0) {
		m = crown_tmap_map(root, "prev");
		crown_tmap_int(m, "number", (long)t - 1);
		file = turn_page((int)t - 1);
		crown_tmap_str(m, "href", file);
		free(file);
	}
	if (!last) {
		m = crown_tmap_map(root, "next");
		crown_tmap_int(m, "number", (long)t + 1);
		file = turn_page((int)t + 1);
		crown_tmap_str(m, "href", file);
		free(file);
	}
	if (s->in->side == NULL)
		crown_tmap_str(root, "events_href", events);
	l = crown_tmap_list(root, "reports");
	if (t == 0) {
		/* the players' briefing, as crown show DIR 0 prints it */
		crown_buf_puts(&b, "");
		crown_report_briefing(&b, s->start, s->in->victory);
		crown_buf_puts(&html, "");
		crown_html_markdown(&html, b.data, b.len, s->links,
		    s->nlinks);
		m = crown_tlist_map(l);
		crown_tmap_str(m, "title", "The briefing");
		crown_tmap_str(m, "html", html.data);
		crown_buf_release(&html);
		crown_buf_release(&b);
	} else if (s->in->side == NULL) {
		error = add_report(l, s, tu, "report.md", "The umpire's "
		    "report", d);
		for (i = 0; error == 0 && i < st->nsides; i++) {
			file = xasprintf("report-%s.md", st->sides[i].id);
			title = xasprintf("Dispatch to %s",
			    st->sides[i].name);
			error = add_report(l, s, tu, file, title, d);
			free(title);
			free(file);
		}
	} else {
		file = xasprintf("report-%s.md", s->in->side);
		error = add_report(l, s, tu, file, "Your dispatch", d);
		free(file);
	}
	if (error == 0)
		error = model_map(root, s, tu, d);
	if (error == 0)
		error = model_orders(root, s, tu, d);
	if (error == 0)
		error = render(s, "site-turn.html", name, root, d);
	crown_tval_free(root);
cleanup:
	free(events);
	free(key);
	free(name);
	return error;
}

/* The story of a turn as the unit page's list of events, each with its
 * losses, each with its dice and order. */
static void
model_story(struct crown_tval *m, const struct crown_story *story)
{
	struct crown_tval	*el, *ev = NULL, *ll = NULL, *loss = NULL;
	struct crown_tval	*dl = NULL;
	size_t			 i;

	el = crown_tmap_list(m, "events");
	for (i = 0; i < story->n; i++) {
		if (story->v[i].level == 0) {
			ev = crown_tlist_map(el);
			crown_tmap_str(ev, "text", story->v[i].text);
			ll = crown_tmap_list(ev, "losses");
			loss = NULL;
		} else if (story->v[i].level == 1 && ll != NULL) {
			loss = crown_tlist_map(ll);
			crown_tmap_str(loss, "text", story->v[i].text);
			dl = crown_tmap_list(loss, "details");
		} else if (loss != NULL)
			crown_tlist_str(dl, story->v[i].text);
	}
}

/* Turn t's state (t > 0), from its commit.  Caller frees *out. */
static int
state_read(struct crown_state **out, const struct site *s, int t,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	char			*label;
	int			 error;

	*out = NULL;
	label = xasprintf("turn-%d:%s", t, CROWN_CAMPAIGN_STATE);
	error = crown_history_read(&b, s->in->h, s->turns[t].commit,
	    CROWN_CAMPAIGN_STATE, d);
	if (error == CROWN_ENOTFOUND) {
		crown_diag_add(d, label, 0, 0, NULL, "missing");
		error = CROWN_EINVALID;
	}
	if (error == 0)
		error = crown_state_parse(out, label, b.data, b.len, d);
	crown_buf_release(&b);
	free(label);
	return error;
}

/* Turn t's figures on the index, unless the manifest gave them. */
static void
figures_of(struct site *s, int t, const struct crown_state *before,
    const struct crown_state *after)
{
	struct turn	*tu = &s->turns[t];
	size_t		 i;

	if (tu->known)
		return;
	for (i = 0; i < s->start->nsides; i++) {
		tu->figures[2 * i] = strength(after, s->start->sides[i].id);
		tu->figures[2 * i + 1] = before == NULL ? 0 :
		    losses(before, after, s->start->sides[i].id);
	}
	tu->known = true;
}

static bool
same_line(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Turn t touched unit u: its strength line now, its story. */
static void
tell_turn(struct site *s, struct unit *u, int t, const char *strength,
    const struct crown_story_turn *tf)
{
	struct told	*to;

	crown_buf_printf(&u->keys, "%s\n", s->turns[t].commit);
	crown_grow(&u->told, &u->cap, u->ntold + 1, sizeof(*u->told));
	to = &u->told[u->ntold++];
	memset(to, 0, sizeof(*to));
	to->t = t;
	to->strength = strength != NULL ? xstrdup(strength) : NULL;
	crown_story_unit(&to->story, tf, u->id, s->in->side);
}

/*
 * Walk the turns from `from' to the last, one state at a time: the
 * figures of the turns the manifest did not give, and for the units
 * whose u->tell is `tell', which turns after `from' touched them (an
 * event names the unit, or its strength, place or state changed).
 * Without tell, a unit touched gets u->tell; with it, each turn that
 * touched it is told: its commit joins the page's key, its strength and
 * story are kept for the page.
 */
static int
walk(struct site *s, int from, bool tell, struct crown_diags *d)
{
	const struct crown_state	*now, *before = NULL;
	struct crown_story_turn		 tf = { 0 };
	struct crown_state		*st = NULL, *prev = NULL;
	struct unit			*u;
	char				*line;
	size_t				 k;
	int				 t, error = 0;

	for (t = from; t < (int)s->nturns; t++) {
		if (t > 0 && (error = state_read(&st, s, t, d)) != 0)
			break;
		now = t > 0 ? st : s->start;
		if (t > from && (error = crown_story_turn_load(&tf, s->in->h,
		    s->turns[t].commit, t, d)) == 0 && tell)
			error = crown_story_turn_orders(&tf, s->in->h,
			    s->turns[t].commit, t, d);
		if (error != 0)
			break;
		figures_of(s, t, before, now);
		for (k = 0; k < s->nlinks; k++) {
			u = &s->units[k];
			if (u->tell != tell)
				continue;
			line = crown_story_strength(now, u->id);
			if (t == from && tell) {
				crown_buf_printf(&u->keys, "%s\n",
				    s->turns[t].commit);
				u->start = line != NULL ? xstrdup(line) :
				    NULL;
			} else if (t > from && (!same_line(line, u->last) ||
			    crown_story_names(&tf, u->id))) {
				if (tell)
					tell_turn(s, u, t, line, &tf);
				else
					u->tell = true;
			}
			free(u->last);
			u->last = line;
		}
		crown_story_turn_release(&tf);
		crown_state_free(prev);
		prev = st;
		st = NULL;
		before = now;
	}
	crown_story_turn_release(&tf);
	crown_state_free(st);
	crown_state_free(prev);
	for (k = 0; k < s->nlinks; k++) {
		free(s->units[k].last);
		s->units[k].last = NULL;
	}
	return error;
}

/* Is `name' in the manifest with a key of this head, its file there? */
static bool
fresh(const struct site *s, const char *name)
{
	const char	*old = pages_key(&s->old, name);
	char		*path;
	bool		 there;

	if (old == NULL || *old == '\0')
		return false;
	path = xasprintf("%s/%s", s->in->out, name);
	there = access(path, F_OK) == 0;
	free(path);
	return there;
}

/*
 * Which unit pages are to be made again, and what they show.  The turns
 * whose commits the manifest records are known: their figures are the
 * manifest's.  When the line only grew since the site was made, a unit
 * page whose file is there changes only if a new turn touched the unit:
 * the new turns are walked to find out.  When a turn of the site's line
 * was replaced (crown rerun) every page's key is made again.  Then, if
 * any page is to be made, the whole line is walked for those units.
 */
static int
units_decide(struct site *s, struct crown_diags *d)
{
	const struct record	*r;
	struct turn		*tu;
	char			*name;
	size_t			 i, k;
	int			 last = -1, error = 0;
	bool			 grew = true, any = false;

	for (i = 0; i < s->nrecords; i++) {
		r = &s->records[i];
		if ((size_t)r->t >= s->nturns ||
		    strcmp(r->commit, s->turns[r->t].commit) != 0) {
			grew = false;
			continue;
		}
		tu = &s->turns[r->t];
		memcpy(tu->figures, r->figures, s->nfig * sizeof(*r->figures));
		tu->known = true;
	}
	while ((size_t)(last + 1) < s->nturns && s->turns[last + 1].known)
		last++;
	for (i = 0; i < s->nrecords; i++)
		if (s->records[i].t > last)
			grew = false;
	for (k = 0; k < s->nlinks; k++) {
		name = unit_page(s->units[k].id);
		s->units[k].tell = last < 0 || !grew || !fresh(s, name);
		free(name);
	}
	if (last >= 0 && grew && (size_t)last + 1 < s->nturns)
		error = walk(s, last, false, d);
	for (k = 0; k < s->nlinks; k++)
		any = any || s->units[k].tell;
	for (i = 0; i < s->nturns; i++)
		any = any || !s->turns[i].known;
	if (error == 0 && any)
		error = walk(s, 0, true, d);
	return error;
}

/*
 * The page of unit links[k]: the turns that touched it, each with its
 * story.  A page changes only when a turn touches the unit: its key is
 * the commits of those turns, found before any story is told.
 */
static int
write_unit(struct site *s, size_t k, struct crown_diags *d)
{
	const struct crown_state	*st = s->start;
	struct unit			*u = &s->units[k];
	const struct crown_unit		*cu = crown_state_unit(st, u->id);
	const struct told		*to;
	struct crown_tval		*root = NULL, *m, *tl;
	char				 hex[33], words[32], *name, *file;
	size_t				 i;
	long				 total = 0;
	int				 side, error = 0;

	name = unit_page(u->id);
	if (!u->tell) {
		/* no turn touched it since its page was made */
		pages_add(&s->now, name, pages_key(&s->old, name));
		s->stats->pages++;
		goto cleanup;
	}
	hash_hex(hex, &u->keys);
	if (!needs(s, name, hex))
		goto cleanup;
	root = model_common(s, "../");
	m = crown_tmap_map(root, "unit");
	crown_tmap_str(m, "id", u->id);
	crown_tmap_str(m, "name", cu->name);
	if ((side = crown_state_side(st, cu->side)) >= 0)
		crown_tmap_str(m, "side_name", st->sides[side].name);
	crown_tmap_str(m, "class", crown_class_names[cu->cls]);
	crown_tmap_str(m, "type", crown_words(words, sizeof(words),
	    crown_utype_names[cu->type]));
	crown_tmap_str(m, "weapon", crown_words(words, sizeof(words),
	    crown_weapon_names[cu->weapon]));
	crown_tmap_str(m, "arms", crown_report_arms(words, sizeof(words),
	    cu));
	crown_tmap_str(m, "start", u->start);
	tl = crown_tmap_list(root, "turns");
	for (i = 0; i < u->ntold; i++) {
		to = &u->told[i];
		m = crown_tlist_map(tl);
		crown_tmap_int(m, "number", (long)to->t);
		file = turn_page(to->t);
		crown_tmap_str(m, "href", file);
		free(file);
		crown_tmap_str(m, "date", s->turns[to->t].date);
		crown_tmap_str(m, "headline", s->turns[to->t].headline);
		crown_tmap_str(m, "strength", to->strength != NULL ?
		    to->strength : "not in the state");
		model_story(m, &to->story);
		total += to->story.lost;
	}
	crown_tmap_int(root, "total_lost", total);
	error = render(s, "site-unit.html", name, root, d);
cleanup:
	crown_tval_free(root);
	free(name);
	return error;
}

static void
site_release(struct site *s)
{
	struct unit	*u;
	size_t		 i, k;

	for (i = 0; i < s->nlinks; i++) {
		free((char *)s->links[i].href);
		u = &s->units[i];
		for (k = 0; k < u->ntold; k++) {
			free(u->told[k].strength);
			crown_story_release(&u->told[k].story);
		}
		free(u->told);
		free(u->start);
		free(u->last);
		crown_buf_release(&u->keys);
	}
	free(s->units);
	free(s->links);
	free(s->ids);
	for (i = 0; i < s->nrecords; i++) {
		free(s->records[i].commit);
		free(s->records[i].figures);
	}
	free(s->records);
	for (i = 0; i < s->nturns; i++) {
		free(s->turns[i].figures);
		crown_rerun_mark_release(&s->turns[i].rerun);
	}
	free(s->turns);
	free(s->head);
	pages_release(&s->old);
	pages_release(&s->now);
	crown_press_list_release(&s->press);
	crown_tmpl_set_free(s->set);
}

/* Every turn of the line, as its commit says; the figures to come. */
static void
turns_make(struct site *s)
{
	const struct crown_chain	*c = s->in->chain;
	const struct crown_hcommit	*hc;
	struct turn			*tu;
	const char			*sub;
	int				 t;

	s->nturns = (size_t)c->last + 1;
	s->turns = xcalloc(s->nturns, sizeof(*s->turns));
	for (t = 0; t <= c->last; t++) {
		tu = &s->turns[t];
		hc = &c->l.v[c->at[t]];
		tu->t = t;
		tu->commit = hc->id;
		crown_cal_format_date(tu->date, sizeof(tu->date),
		    hc->time, hc->offset);
		sub = strchr(hc->subject, ':');
		sub = sub != NULL ? sub + 1 : hc->subject;
		while (*sub == ' ')
			sub++;
		tu->headline = sub;
		crown_campaign_rerun_mark(&tu->rerun, s->in->h, hc->message,
		    t);
		tu->figures = xcalloc(s->nfig, sizeof(*tu->figures));
	}
}

/* The units that have a page: all, or the side's. */
static void
links_make(struct site *s)
{
	const struct crown_state	*st = s->start;
	size_t				 i;

	s->links = xcalloc(st->nunits + 1, sizeof(*s->links));
	s->ids = xcalloc(st->nunits + 1, sizeof(*s->ids));
	s->units = xcalloc(st->nunits + 1, sizeof(*s->units));
	for (i = 0; i < st->nunits; i++) {
		if (s->in->side != NULL &&
		    strcmp(st->units[i].side, s->in->side) != 0)
			continue;
		s->links[s->nlinks].name = st->units[i].name;
		s->links[s->nlinks].href = unit_page(st->units[i].id);
		s->units[s->nlinks].id = st->units[i].id;
		s->ids[s->nlinks++] = st->units[i].id;
	}
}

/* Is the turn line "N COMMIT ..." that of turn n of c? */
static bool
same_turn(const char *line, int n, const struct crown_chain *c)
{
	const char	*id = c->l.v[c->at[n]].id;
	char		*end;
	long		 t;

	errno = 0;
	t = strtol(line, &end, 10);
	return end != line && errno == 0 && t == n && *end == ' ' &&
	    strncmp(end + 1, id, strlen(id)) == 0 &&
	    (end[1 + strlen(id)] == ' ' || end[1 + strlen(id)] == '\0');
}

bool
crown_site_current(struct crown_site_stats *out,
    const struct crown_site_input *in)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_press_list	 press;
	char			*head = NULL, *path, *line, *next, *sp;
	char			 key[33];
	int			 turns = 0;
	bool			 ok, same_press = false;

	memset(out, 0, sizeof(*out));
	/* a press more is a change of the index, and no commit says so */
	press_of_view(&press, key, in, &quiet);
	crown_press_list_release(&press);
	path = xasprintf("%s/%s", in->out, CROWN_SITE_MANIFEST);
	ok = manifest_head(&head, in, &quiet) == 0 &&
	    slurp(&b, path, CROWN_EWRITE, &quiet) == 0 &&
	    strncmp(b.data, head, strlen(head)) == 0;
	free(path);
	for (line = b.data; ok && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			break;
		*next++ = '\0';
		if (strncmp(line, "turn ", 5) == 0)
			ok = turns <= in->chain->last &&
			    same_turn(line + 5, turns++, in->chain);
		else if (strncmp(line, "press ", 6) == 0)
			same_press = strcmp(line + 6, key) == 0;
		else if (strncmp(line, "page ", 5) == 0 &&
		    (sp = strchr(line + 5, ' ')) != NULL) {
			*sp = '\0';
			path = xasprintf("%s/%s", in->out, line + 5);
			ok = strstr(line + 5, "..") == NULL &&
			    access(path, F_OK) == 0;
			free(path);
			out->pages++;
		}
	}
	ok = ok && turns == in->chain->last + 1 && same_press;
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	free(head);
	return ok;
}

int
crown_site_write(struct crown_site_stats *out,
    const struct crown_site_input *in, struct crown_diags *d)
{
	static const char *const templates[] = { CROWN_SITE_TEMPLATES };
	struct site	 s;
	char		*units;
	size_t		 i;
	int		 error = 0, e;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.in = in;
	s.stats = out;
	/* every template first, all their problems at once, nothing
	 * written from a broken set */
	s.set = crown_tmpl_set_new(in->templates);
	for (i = 0; i < CROWN_NELEM(templates); i++) {
		e = crown_tmpl_load(s.set, templates[i], d);
		if (e == CROWN_ENOTFOUND || error == 0)
			error = e != 0 ? e : error;
	}
	if (error != 0)
		goto cleanup;
	s.start = in->start;
	if (in->side != NULL && crown_state_side(s.start, in->side) < 0) {
		crown_diag_add(d, in->side, 0, 0, NULL, "no side '%s' in this "
		    "campaign", in->side);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	s.nfig = 2 * s.start->nsides;
	press_of_view(&s.press, s.press_key, in, d);
	links_make(&s);
	turns_make(&s);
	if ((error = manifest_head(&s.head, in, d)) != 0 ||
	    (error = manifest_read(&s, d)) != 0 ||
	    (error = manifest_begin(&s, d)) != 0)
		goto cleanup;
	/* the pages go inside OUT, never through a link in it */
	if ((error = crown_paths_refuse_links(in->out, site_dirs,
	    CROWN_NELEM(site_dirs), in->out, d)) != 0)
		goto cleanup;
	crown_temps_sweep(in->out, true, d);
	units = xasprintf("%s/" UNITS_DIR, in->out);
	error = crown_mkdirs(units, d);
	free(units);
	for (i = 0; error == 0 && i < s.nturns; i++)
		error = write_turn(&s, i, d);
	if (error == 0)
		error = units_decide(&s, d);
	for (i = 0; error == 0 && i < s.nlinks; i++)
		error = write_unit(&s, i, d);
	if (error == 0)
		error = write_index(&s, d);
	if (error == 0)
		error = manifest_write(&s, d);
	if (error == 0)
		remove_stale(&s);
cleanup:
	site_release(&s);
	return error;
}
