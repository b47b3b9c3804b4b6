/*
 * spatial.c: the engine's spatial indexes, so range, sight, stop-short,
 * rout-radius and terrain queries cost n log n over a turn rather than
 * n squared (issue 10).
 *
 * Units move, so their index is a uniform grid of cells holding unit
 * indices, updated in place when a unit moves; terrain does not, so it
 * uses geom.c's static grid.  Both answer with candidates in ascending
 * index order (deterministic); callers measure exact distances.  The
 * nearest enemy (R7.4) is found here too, from the same grid.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

/* Query results up to this many are sorted by insertion. */
#define SORT_INSERTION_MAX	32
/* Nearest enemy: the first radius searched, in inches (doubled until
 * one is found), and a margin far above rounding errors and below the
 * hundredths positions are kept to. */
#define NEAR_START	4.0
#define NEAR_MARGIN	0.005

struct cell {
	size_t	*v;
	size_t	 n;
	size_t	 cap;
};

struct crown_spatial {
	double			 ox, oy, size;	/* origin and cell size */
	int			 nx, ny;
	struct cell		*cells;
	size_t			 nunits;
	struct crown_geom_box	*box;		/* as indexed, per unit */
	/* query results */
	size_t			*out;
	size_t			 outn, outcap;
	unsigned		*mark;		/* per unit: last query seen */
	double			*gap;		/* per unit: box gap, for
						 * nearest_enemy */
	unsigned		 stamp;
	/* terrain */
	struct crown_geom_grid	*terrain;
	int			*tout;
	size_t			 tcap;
};

static struct crown_geom_box
unit_box(const struct crown_engine *e, const struct crown_unit *u)
{
	struct crown_quad	q;

	crown_unit_footprint(&q, e->rules, u);
	return crown_geom_bounds(q.c, 4);
}

static void
cell_range(const struct crown_spatial *sp, const struct crown_geom_box *b,
    int *x0, int *y0, int *x1, int *y1)
{
	double	v[4] = {
		(b->minx - sp->ox) / sp->size, (b->miny - sp->oy) / sp->size,
		(b->maxx - sp->ox) / sp->size, (b->maxy - sp->oy) / sp->size
	};
	int	c[4], i, lim;

	for (i = 0; i < 4; i++) {
		lim = (i % 2 == 0 ? sp->nx : sp->ny) - 1;
		/* off the table (or NaN): the edge cells */
		if (!(v[i] >= 0))
			c[i] = 0;
		else if (v[i] >= lim)
			c[i] = lim;
		else
			c[i] = (int)v[i];
	}
	*x0 = c[0];
	*y0 = c[1];
	*x1 = c[2];
	*y1 = c[3];
}

static void
cell_add(struct cell *c, size_t i)
{
	crown_grow(&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = i;
}

static void
cell_remove(struct cell *c, size_t i)
{
	size_t	k;

	for (k = 0; k < c->n; k++)
		if (c->v[k] == i) {
			c->v[k] = c->v[--c->n];
			return;
		}
}

static void
place(struct crown_spatial *sp, size_t i, bool add)
{
	int	x0, y0, x1, y1, x, y;

	cell_range(sp, &sp->box[i], &x0, &y0, &x1, &y1);
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			if (add)
				cell_add(&sp->cells[y * sp->nx + x], i);
			else
				cell_remove(&sp->cells[y * sp->nx + x], i);
		}
}

static void
spatial_build(struct crown_engine *e)
{
	struct crown_spatial	*sp;
	double			 area, size;
	size_t			 i, n = e->s->nunits;

	crown_spatial_free(e);
	sp = e->spatial = xcalloc(1, sizeof(*sp));
	/* about one unit a cell, but no cell under 4 inches */
	area = e->s->width * e->s->height;
	size = n > 0 ? area / (double)n : area;
	size = size > 16 ? sqrt(size) : 4;
	sp->size = size;
	sp->ox = 0;
	sp->oy = 0;
	sp->nx = (int)(e->s->width / size) + 1;
	sp->ny = (int)(e->s->height / size) + 1;
	if (sp->nx > 4096)
		sp->nx = 4096;
	if (sp->ny > 4096)
		sp->ny = 4096;
	sp->size = e->s->width / sp->nx > e->s->height / sp->ny ?
	    e->s->width / sp->nx : e->s->height / sp->ny;
	if (sp->size <= 0)
		sp->size = 1;
	sp->cells = xcalloc((size_t)sp->nx * (size_t)sp->ny,
	    sizeof(*sp->cells));
	sp->nunits = n;
	sp->box = xcalloc(n ? n : 1, sizeof(*sp->box));
	sp->mark = xcalloc(n ? n : 1, sizeof(*sp->mark));
	sp->gap = xcalloc(n ? n : 1, sizeof(*sp->gap));
	for (i = 0; i < n; i++) {
		sp->box[i] = unit_box(e, &e->s->units[i]);
		place(sp, i, true);
	}
}

void
crown_engine_unit_moved(struct crown_engine *e, const struct crown_unit *u)
{
	struct crown_spatial	*sp = e->spatial;
	size_t			 i = (size_t)(u - e->s->units);

	if (sp == NULL || sp->nunits != e->s->nunits)
		return;		/* built afresh at the next query */
	place(sp, i, false);
	sp->box[i] = unit_box(e, u);
	place(sp, i, true);
}

static int
cmp_size(const void *a, const void *b)
{
	size_t	x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* Ascending: by insertion when few (most queries), else qsort. */
static void
sort_indices(size_t *v, size_t n)
{
	size_t	i, j, x;

	if (n > SORT_INSERTION_MAX) {
		qsort(v, n, sizeof(*v), cmp_size);
		return;
	}
	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* The units whose boxes come within radius of b, each once, in no
 * particular order, into sp->out. */
static void
gather(struct crown_engine *e, const struct crown_geom_box *b,
    double radius)
{
	struct crown_spatial	*sp = e->spatial;
	struct crown_geom_box	 q = *b;
	int			 x0, y0, x1, y1, x, y;
	size_t			 k, i;

	if (sp == NULL || sp->nunits != e->s->nunits)
		spatial_build(e);
	sp = e->spatial;
	radius += CROWN_GEOM_SLACK;
	q.minx -= radius;
	q.miny -= radius;
	q.maxx += radius;
	q.maxy += radius;
	if (++sp->stamp == 0) {
		memset(sp->mark, 0, sp->nunits * sizeof(*sp->mark));
		sp->stamp = 1;
	}
	sp->outn = 0;
	cell_range(sp, &q, &x0, &y0, &x1, &y1);
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			struct cell *c = &sp->cells[y * sp->nx + x];

			for (k = 0; k < c->n; k++) {
				i = c->v[k];
				if (sp->mark[i] == sp->stamp ||
				    !crown_geom_box_overlap(&sp->box[i], &q))
					continue;
				sp->mark[i] = sp->stamp;
				crown_grow(&sp->out, &sp->outcap, sp->outn + 1,
				    sizeof(*sp->out));
				sp->out[sp->outn++] = i;
			}
		}
}

size_t
crown_engine_units_near(struct crown_engine *e, const struct crown_geom_box *b,
    double radius, const size_t **out)
{
	gather(e, b, radius);
	sort_indices(e->spatial->out, e->spatial->outn);
	*out = e->spatial->out;
	return e->spatial->outn;
}

/* Least distance between the boxes: no footprints inside them are
 * nearer. */
static double
box_gap(const struct crown_geom_box *a, const struct crown_geom_box *b)
{
	double	dx = 0, dy = 0;

	if (b->minx > a->maxx)
		dx = b->minx - a->maxx;
	else if (a->minx > b->maxx)
		dx = a->minx - b->maxx;
	if (b->miny > a->maxy)
		dy = b->miny - a->maxy;
	else if (a->miny > b->maxy)
		dy = a->miny - b->maxy;
	return sqrt(dx * dx + dy * dy);
}

/*
 * The units within a radius that doubles until the nearest enemy found
 * lies well inside it (none outside can then be nearer), or spans the
 * table (then every unit).  Within it, the enemy whose box is nearest
 * is measured first; then only those whose boxes are no farther than
 * the nearest so far, give or take NEAR_MARGIN.
 */
double
crown_engine_nearest_enemy(struct crown_engine *e, const char *side,
    const struct crown_quad *q)
{
	const struct crown_unit	*v;
	struct crown_geom_box	 b = crown_geom_bounds(q->c, 4);
	struct crown_quad	 qv;
	double			 best, d, gap, radius;
	size_t			 k, i, first;
	bool			 all;

	for (radius = NEAR_START; ; radius *= 2) {
		all = !(radius < e->s->width + e->s->height);
		gather(e, &b, all ? HUGE_VAL : radius);
		first = SIZE_MAX;
		gap = HUGE_VAL;
		for (k = 0; k < e->spatial->outn; k++) {
			i = e->spatial->out[k];
			v = &e->s->units[i];
			e->spatial->gap[i] = HUGE_VAL;
			if (v->status == CROWN_LOST ||
			    strcmp(v->side, side) == 0)
				continue;
			d = box_gap(&b, &e->spatial->box[i]);
			e->spatial->gap[i] = d;
			if (d < gap) {
				gap = d;
				first = i;
			}
		}
		best = HUGE_VAL;
		if (first != SIZE_MAX) {
			crown_unit_footprint(&qv, e->rules,
			    &e->s->units[first]);
			best = crown_geom_dist_quad(q, &qv);
		}
		for (k = 0; first != SIZE_MAX && k < e->spatial->outn; k++) {
			i = e->spatial->out[k];
			if (i == first ||
			    !(e->spatial->gap[i] <= best + NEAR_MARGIN))
				continue;
			crown_unit_footprint(&qv, e->rules, &e->s->units[i]);
			if ((d = crown_geom_dist_quad(q, &qv)) < best)
				best = d;
		}
		if (all || best < radius - NEAR_MARGIN)
			return best;
	}
}

size_t
crown_engine_terrain_near(struct crown_engine *e,
    const struct crown_geom_box *b, double radius, const int **out)
{
	struct crown_spatial	*sp;
	struct crown_geom_box	 q = *b;
	size_t			 n;

	if (e->spatial == NULL || e->spatial->nunits != e->s->nunits)
		spatial_build(e);
	sp = e->spatial;
	if (sp->terrain == NULL)
		sp->terrain = crown_terrain_grid_new(e->s);
	radius += CROWN_GEOM_SLACK;
	q.minx -= radius;
	q.miny -= radius;
	q.maxx += radius;
	q.maxy += radius;
	n = crown_geom_grid_query(&sp->tout, &sp->tcap, sp->terrain, &q);
	*out = sp->tout;
	return n;
}

void
crown_spatial_free(struct crown_engine *e)
{
	struct crown_spatial	*sp = e->spatial;
	size_t			 i;

	if (sp == NULL)
		return;
	for (i = 0; i < (size_t)sp->nx * (size_t)sp->ny; i++)
		free(sp->cells[i].v);
	free(sp->cells);
	free(sp->box);
	free(sp->mark);
	free(sp->gap);
	free(sp->out);
	crown_geom_grid_free(sp->terrain);
	free(sp->tout);
	free(sp);
	e->spatial = NULL;
}
