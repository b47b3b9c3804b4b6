/*
 * format.c: the campaign's format version (format.yaml, doc/formats.md)
 * and the upgrade of a campaign written in format 1 (the first release):
 * its frozen rules.yaml gains the sections and keys the rules of this
 * crown have and it lacks, as text, so that every line the umpire
 * committed stays as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A text split into lines: start[i] is the offset of line i + 1. */
struct lines {
	const char	*text;
	size_t		 len;
	size_t		*start;
	size_t		 n;
};

/* An insertion of text before line `before' (from 1; n + 1: the end). */
struct edit {
	size_t		 before;
	size_t		 order;
	struct crown_buf text;
};

struct merge {
	struct lines	 o, n;		/* the campaign's, this crown's */
	struct edit	*v;
	size_t		 nedits, cap;
	struct crown_buf added;		/* "dice, R6.2.die, ..." */
	struct crown_diags *d;
	const char	*file;
	int		 error;
};

static void
lines_split(struct lines *l, const char *text, size_t len)
{
	size_t	i, cap = 0;

	memset(l, 0, sizeof(*l));
	l->text = text;
	l->len = len;
	for (i = 0; i < len; i++)
		if (i == 0 || text[i - 1] == '\n') {
			crown_grow(&l->start, &cap, l->n + 1,
			    sizeof(*l->start));
			l->start[l->n++] = i;
		}
}

/* Line k (from 1) without its newline. */
static const char *
line_at(const struct lines *l, size_t k, size_t *len)
{
	size_t	a = l->start[k - 1];
	size_t	b = k < l->n ? l->start[k] : l->len;

	if (b > a && l->text[b - 1] == '\n')
		b--;
	*len = b - a;
	return l->text + a;
}

static bool
is_comment(const struct lines *l, size_t k)
{
	size_t		 len, i = 0;
	const char	*s = line_at(l, k, &len);

	while (i < len && s[i] == ' ')
		i++;
	return i < len && s[i] == '#';
}

/* The last line of a node and everything under it. */
static unsigned
last_line(const struct crown_ynode *v)
{
	unsigned	m = v->line, x;
	size_t		i;

	if (v->kind == CROWN_Y_SCALAR)
		return m;
	for (i = 0; i < v->n; i++) {
		if (v->key != NULL && v->key[i]->line > m)
			m = v->key[i]->line;
		if ((x = last_line(v->item[i])) > m)
			m = x;
	}
	return m;
}

/* The first line of entry i of map m with the comments just above it. */
static size_t
first_line(const struct lines *l, const struct crown_ynode *m, size_t i)
{
	size_t	k = m->key[i]->line;

	while (k > 1 && is_comment(l, k - 1))
		k--;
	return k;
}

/* Is node v written in flow style ({...} or [...])? */
static bool
flow(const struct lines *l, const struct crown_ynode *v)
{
	size_t		 len;
	const char	*s;

	if (v->line == 0 || v->line > l->n)
		return false;
	s = line_at(l, v->line, &len);
	return v->col >= 1 && v->col <= len && (s[v->col - 1] == '{' ||
	    s[v->col - 1] == '[');
}

static ssize_t
find_key(const struct crown_ynode *m, const char *key)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		if (strcmp(m->key[i]->str, key) == 0)
			return (ssize_t)i;
	return -1;
}

static void
add_edit(struct merge *g, size_t before, const struct crown_ynode *nm,
    size_t j, bool top, bool at_end, const char *path)
{
	struct edit	*e;
	size_t		 k, len, from, to;
	const char	*s;

	crown_grow(&g->v, &g->cap, g->nedits + 1, sizeof(*g->v));
	e = &g->v[g->nedits];
	memset(e, 0, sizeof(*e));
	e->before = before;
	e->order = g->nedits++;
	from = first_line(&g->n, nm, j);
	to = last_line(nm->item[j]);
	crown_buf_puts(&e->text, "");
	if (top && at_end)
		crown_buf_puts(&e->text, "\n");
	for (k = from; k <= to; k++) {
		s = line_at(&g->n, k, &len);
		crown_buf_add(&e->text, s, len);
		crown_buf_puts(&e->text, "\n");
	}
	if (top && !at_end)
		crown_buf_puts(&e->text, "\n");
	crown_buf_printf(&g->added, "%s%s", g->added.len > 0 ? ", " : "",
	    path);
}

/*
 * Add to map om (of the campaign's text) the entries of map nm (this
 * crown's) it lacks, each before the next entry of nm it has, or after
 * its last; then the same inside the maps both have.
 */
static void
merge_map(struct merge *g, const struct crown_ynode *om,
    const struct crown_ynode *nm, const char *prefix, bool top)
{
	const struct crown_ynode	*ov;
	char				*path;
	size_t				 j, s;
	ssize_t				 at, next;

	for (j = 0; j < nm->n; j++) {
		path = xasprintf("%s%s%s", prefix, *prefix != '\0' ? "." : "",
		    nm->key[j]->str);
		at = find_key(om, nm->key[j]->str);
		if (at < 0) {
			if (flow(&g->o, om) || om->n == 0 ||
			    om->key[0]->col != nm->key[0]->col) {
				crown_diag_add(g->d, g->file, om->line,
				    om->col, NULL, "cannot add '%s' here "
				    "(written unlike this crown's rules); "
				    "add it by hand", path);
				g->error = CROWN_EINVALID;
				free(path);
				continue;
			}
			for (next = -1, s = j + 1; s < nm->n && next < 0; s++)
				next = find_key(om, nm->key[s]->str);
			if (next >= 0)
				add_edit(g, first_line(&g->o, om,
				    (size_t)next), nm, j, top, false, path);
			else
				add_edit(g, last_line(om) + 1, nm, j, top,
				    true, path);
		} else if ((ov = om->item[at])->kind == CROWN_Y_MAP &&
		    nm->item[j]->kind == CROWN_Y_MAP)
			merge_map(g, ov, nm->item[j], path, false);
		free(path);
	}
}

static int
cmp_edit(const void *a, const void *b)
{
	const struct edit	*x = a, *y = b;

	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int
crown_campaign_upgrade_rules(struct crown_buf *out, char **added,
    const char *file, const char *old, size_t oldlen, const char *cur,
    size_t curlen, struct crown_diags *d)
{
	struct crown_ydoc	*od = NULL, *nd = NULL;
	const struct crown_ynode *oroot, *nroot;
	struct merge		 g;
	size_t			 i, k, len;
	const char		*s;
	int			 error;

	*added = NULL;
	memset(&g, 0, sizeof(g));
	g.d = d;
	g.file = file;
	if ((error = crown_ydoc_parse(&od, file, old, oldlen,
	    &crown_ylimits_state, d)) != 0 ||
	    (error = crown_ydoc_parse(&nd, "rules", cur, curlen,
	    &crown_ylimits_state, d)) != 0)
		goto cleanup;
	oroot = crown_ydoc_root(od);
	nroot = crown_ydoc_root(nd);
	if (oroot == NULL || nroot == NULL || oroot->kind != CROWN_Y_MAP ||
	    nroot->kind != CROWN_Y_MAP) {
		crown_diag_add(d, file, 1, 1, NULL, "not a rules file");
		error = CROWN_EINVALID;
		goto cleanup;
	}
	lines_split(&g.o, old, oldlen);
	lines_split(&g.n, cur, curlen);
	crown_buf_puts(&g.added, "");
	merge_map(&g, oroot, nroot, "", true);
	if ((error = g.error) != 0)
		goto cleanup;
	if (g.nedits > 0)	/* rules.yaml may gain nothing */
		qsort(g.v, g.nedits, sizeof(*g.v), cmp_edit);
	crown_buf_puts(out, "");
	for (i = 0, k = 1; k <= g.o.n + 1; k++) {
		for (; i < g.nedits && g.v[i].before == k; i++)
			crown_buf_add(out, g.v[i].text.data,
			    g.v[i].text.len);
		if (k > g.o.n)
			break;
		s = line_at(&g.o, k, &len);
		crown_buf_add(out, s, len);
		crown_buf_puts(out, "\n");
	}
	*added = g.added.data;
	g.added.data = NULL;
cleanup:
	for (i = 0; i < g.nedits; i++)
		crown_buf_release(&g.v[i].text);
	free(g.v);
	free(g.o.start);
	free(g.n.start);
	crown_buf_release(&g.added);
	crown_ydoc_free(nd);
	crown_ydoc_free(od);
	return error;
}

bool
crown_campaign_subject_upgrade(const char *s)
{
	return strncmp(s, "Upgrade: ", 9) == 0;
}

void
crown_campaign_format_file(struct crown_outputs *files)
{
	crown_buf_printf(crown_outputs_add(files, CROWN_CAMPAIGN_FORMAT_FILE),
	    "format: %d\n", CROWN_CAMPAIGN_FORMAT);
}

int
crown_campaign_format(int *out, struct crown_history *h, const char *commit,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	struct crown_ydoc	*doc = NULL;
	struct crown_yreader	 rd = { CROWN_CAMPAIGN_FORMAT_FILE, d, 0 };
	const struct crown_ynode *root;
	long			 v = 0;
	int			 error;

	*out = 1;
	error = crown_history_read(&b, h, commit, CROWN_CAMPAIGN_FORMAT_FILE,
	    d);
	if (error == CROWN_ENOTFOUND)
		return 0;	/* the first release wrote none */
	if (error == 0 && (error = crown_ydoc_parse(&doc,
	    CROWN_CAMPAIGN_FORMAT_FILE, b.data, b.len, &crown_ylimits_orders,
	    d)) == 0) {
		root = crown_ydoc_root(doc);
		if (root == NULL || crown_ykind(&rd, root, CROWN_Y_MAP,
		    "the format file", NULL) != 0 ||
		    crown_yfield_int(&rd, root, "format", true, 1, 1000000,
		    NULL, &v) != 0)
			error = CROWN_EINVALID;
		else
			*out = (int)v;
	}
	crown_ydoc_free(doc);
	crown_buf_release(&b);
	return error;
}

void
crown_campaign_format_refuse(struct crown_diags *d, const char *label,
    const char *dir, int format)
{
	char	*name = xasprintf("%s:%s", label, CROWN_CAMPAIGN_FORMAT_FILE);
	int	 n = (int)strlen(dir);

	/* a work tree's path ends in '/' */
	if (n > 1 && dir[n - 1] == '/')
		n--;
	if (format < CROWN_CAMPAIGN_FORMAT)
		crown_diag_add(d, name, 0, 0, NULL, "the campaign is in "
		    "format %d (%s); this crown reads and writes format %d: "
		    "'crown upgrade %.*s' carries it on", format, format == 1 ?
		    "the first release, no format.yaml" : "an older crown",
		    CROWN_CAMPAIGN_FORMAT, n, dir);
	else
		crown_diag_add(d, name, 0, 0, NULL, "the campaign is in "
		    "format %d, written by a newer crown; this crown reads "
		    "and writes format %d", format, CROWN_CAMPAIGN_FORMAT);
	free(name);
}

/* The line crown upgrade adds to game: in state.yaml, as the state's
 * emitter writes it. */
#define DICE_CHAIN_LINE \
	"  dice_chain: {from_turn: %d, commitment: \"%s\"}\n"
#define DICE_COMMITMENT_KEY	"  dice_commitment: "

int
crown_campaign_upgrade_state(struct crown_buf *out, const char *old,
    size_t len, int from, const char *commitment)
{
	const char	*p, *end = old + len, *eol;

	/* after the line of the dice commitment, where the emitter puts
	 * it; every byte of the old state stays */
	for (p = old; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return -1;
		if ((size_t)(eol - p) > strlen(DICE_COMMITMENT_KEY) &&
		    memcmp(p, DICE_COMMITMENT_KEY,
		    strlen(DICE_COMMITMENT_KEY)) == 0)
			break;
	}
	if (p >= end)
		return -1;
	crown_buf_add(out, old, (size_t)(eol + 1 - old));
	crown_buf_printf(out, DICE_CHAIN_LINE, from, commitment);
	crown_buf_add(out, eol + 1, (size_t)(end - eol - 1));
	return 0;
}
