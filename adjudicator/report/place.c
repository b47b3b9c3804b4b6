/*
 * place.c: labels of the map that do not collide (place.h).
 *
 * Every box taken (a label, a text, a unit to avoid, the dots of a line
 * a run at a time) is listed in the cells of a grid of CELL pixels that
 * it covers; a candidate is tested against the boxes of its own cells
 * only.  Candidates: next to the thing named (below, above, right, left,
 * the four corners), then RINGS rings further out, each STEP pixels
 * beyond the last and with more places round it, the places below
 * first.  Directions come from the whole-degree table of geom.c (no
 * libm): the same layout on every machine.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/geom.h"
#include "crown/place.h"
#include "crown/xalloc.h"

#define CELL	40.0	/* pixels a side of a grid cell */
#define GAP	2.0	/* pixels between a label and what it names */
#define RINGS	10	/* rings of candidates beyond the first */
#define FAR	40	/* rings tried, clear of texts only, when those fail */
#define STEP	12.0	/* pixels from one ring to the next */
#define NEAR	9	/* candidates next to the thing named */
#define MAXCAND	(NEAR + RINGS * 8 + 4 * RINGS * (RINGS + 1) / 2)
#define DOT	4.0	/* a line is kept as boxes this size, this far apart */
#define RUN	8	/* dots of a line an entry */

/* What a box is, from what labels keep off least to most. */
enum weight { LINE, THING, TEXT, NWEIGHT };

/*
 * A line kept off, as crown_place_line lays its dots: dot i (of 0 to n)
 * is centred on (x1 + dx * i / n, y1 + dy * i / n).
 */
struct line {
	double	x1, y1, dx, dy;
	int	n;
};

/*
 * A box in a cell, or a run of RUN dots of a line: their box, and a
 * label that overlaps it is tested against each dot.  A line's dots were
 * an entry each in every cell they covered, 15,000 at 1,000 units a
 * side; a run costs one entry, and a label clear of its box tests none
 * of them.  The boxes of a cell are chains, a chain for each weight, so
 * that a test looks only at the boxes it minds.  Entries are carved from
 * blocks of an arena, never moved (not an array a cell, allocated and
 * grown for each of thousands of cells; nor one array, copied each time
 * it grew).  A box over two cells is in both, and tested in each (that
 * costs less than marking it seen).
 */
#define BLOCK	(32 * 1024)	/* bytes carved at a time from the arena */

struct entry {
	struct crown_geom_box	 box;
	struct entry		*next;
	const struct line	*line;		/* a run of its dots; or NULL */
	int			 from, to;	/* the run's dots */
};

struct cell {
	struct entry	*head[NWEIGHT];
};

struct crown_place {
	struct crown_geom_box	 bounds;
	struct cell		*cells;
	int			 nx, ny;
	struct crown_arena	 arena;
	char			*block;		/* carved from, BLOCK bytes */
	size_t			 used;		/* of it */
};

struct crown_place *
crown_place_new(struct crown_geom_box bounds)
{
	struct crown_place	*p;

	p = xcalloc(1, sizeof(*p));
	p->bounds = bounds;
	p->nx = (int)((bounds.maxx - bounds.minx) / CELL) + 1;
	p->ny = (int)((bounds.maxy - bounds.miny) / CELL) + 1;
	if (p->nx < 1)
		p->nx = 1;
	if (p->ny < 1)
		p->ny = 1;
	p->cells = xcalloc((size_t)p->nx * (size_t)p->ny, sizeof(*p->cells));
	crown_arena_init(&p->arena, BLOCK, BLOCK);
	p->used = BLOCK;
	return p;
}

void
crown_place_free(struct crown_place *p)
{
	if (p == NULL)
		return;
	crown_arena_release(&p->arena);
	free(p->cells);
	free(p);
}

/* size bytes (of an entry or a line: a multiple of 8) from the block,
 * inline, as each box asks; a new block when it is full. */
static inline void *
carve(struct crown_place *p, size_t size)
{
	void	*v;

	if (BLOCK - p->used < size) {
		p->block = crown_arena_alloc(&p->arena, BLOCK,
		    _Alignof(struct entry));
		p->used = 0;
	}
	v = p->block + p->used;
	p->used += size;
	return v;
}

static inline int
clampi(double v, int n)
{
	int	i;

	if (!(v > 0))
		return 0;
	i = (int)v;
	return i >= n ? n - 1 : i;
}

/* The cells a box covers, clamped to the grid (inline: each box added
 * and each candidate tested asks). */
static inline void
cell_range(const struct crown_place *p, const struct crown_geom_box *b,
    int *x0, int *y0, int *x1, int *y1)
{
	*x0 = clampi((b->minx - p->bounds.minx) / CELL, p->nx);
	*x1 = clampi((b->maxx - p->bounds.minx) / CELL, p->nx);
	*y0 = clampi((b->miny - p->bounds.miny) / CELL, p->ny);
	*y1 = clampi((b->maxy - p->bounds.miny) / CELL, p->ny);
}

/* Box b of weight in every cell it covers: a run of the dots from to to
 * of line l (that b holds), or when l is NULL a box alone. */
static void
add(struct crown_place *p, struct crown_geom_box b, enum weight weight,
    const struct line *l, int from, int to)
{
	struct cell	*c;
	struct entry	*e;
	int		 x0, y0, x1, y1, x, y;

	cell_range(p, &b, &x0, &y0, &x1, &y1);
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			c = &p->cells[(size_t)y * (size_t)p->nx + (size_t)x];
			e = carve(p, sizeof(*e));
			*e = (struct entry){ b, c->head[weight], l, from, to };
			c->head[weight] = e;
		}
}

void
crown_place_text(struct crown_place *p, struct crown_geom_box b)
{
	add(p, b, TEXT, NULL, 0, 0);
}

void
crown_place_avoid(struct crown_place *p, struct crown_geom_box b)
{
	add(p, b, THING, NULL, 0, 0);
}

/* The centre of dot i of line l. */
static struct crown_point
centre(const struct line *l, int i)
{
	return (struct crown_point){ l->x1 + l->dx * i / l->n,
	    l->y1 + l->dy * i / l->n };
}

/* The box of the dots centred in b (a point: one dot's): the same bits
 * as their boxes put together, as rounding keeps the order of numbers
 * (the least x - DOT / 2 is the least x, less DOT / 2). */
static struct crown_geom_box
dot_box(struct crown_geom_box b)
{
	return (struct crown_geom_box){ b.minx - DOT / 2, b.miny - DOT / 2,
	    b.maxx + DOT / 2, b.maxy + DOT / 2 };
}

void
crown_place_line(struct crown_place *p, double x1, double y1, double x2,
    double y2)
{
	struct crown_point	 c[RUN];
	struct line		*l;
	double			 dx = x2 - x1, dy = y2 - y1, len;
	int			 i, k;

	/* the length by the larger side: no libm, a little more dots on a
	 * diagonal than needed */
	len = (dx < 0 ? -dx : dx) > (dy < 0 ? -dy : dy) ? (dx < 0 ? -dx : dx) :
	    (dy < 0 ? -dy : dy);
	l = carve(p, sizeof(*l));
	*l = (struct line){ x1, y1, dx, dy, (int)(len / DOT) + 1 };
	for (i = 0; i <= l->n; i = k) {
		for (k = i; k < i + RUN && k <= l->n; k++)
			c[k - i] = centre(l, k);
		add(p, dot_box(crown_geom_bounds(c, (size_t)(k - i))), LINE,
		    l, i, k - 1);
	}
}

/* a and b share more than a line (touching is no overlap). */
static bool
overlap(const struct crown_geom_box *a, const struct crown_geom_box *b)
{
	return a->minx < b->maxx && b->minx < a->maxx &&
	    a->miny < b->maxy && b->miny < a->maxy;
}

/* b overlaps a dot of run e (whose box it overlaps). */
static bool
on_dots(const struct entry *e, const struct crown_geom_box *b)
{
	struct crown_geom_box	d;
	struct crown_point	c;
	int			i;

	for (i = e->from; i <= e->to; i++) {
		c = centre(e->line, i);
		d = dot_box((struct crown_geom_box){ c.x, c.y, c.x, c.y });
		if (overlap(&d, b))
			return true;
	}
	return false;
}

/* b overlaps a box taken of at least weight least (in whatever order
 * they are tried). */
static bool
taken(const struct crown_place *p, const struct crown_geom_box *b,
    enum weight least)
{
	const struct cell	*c;
	const struct entry	*e;
	int			 x0, y0, x1, y1, x, y, w;

	cell_range(p, b, &x0, &y0, &x1, &y1);
	for (y = y0; y <= y1; y++)
		for (x = x0; x <= x1; x++) {
			c = &p->cells[(size_t)y * (size_t)p->nx + (size_t)x];
			for (w = least; w < NWEIGHT; w++)
				for (e = c->head[w]; e != NULL; e = e->next)
					if (overlap(&e->box, b) &&
					    (e->line == NULL || on_dots(e, b)))
						return true;
		}
	return false;
}

static bool
inside(const struct crown_place *p, const struct crown_geom_box *b)
{
	return b->minx >= p->bounds.minx && b->maxx <= p->bounds.maxx &&
	    b->miny >= p->bounds.miny && b->maxy <= p->bounds.maxy;
}

static struct crown_geom_box
box_at(double x, double y, double w, double h)
{
	return (struct crown_geom_box){ x, y, x + w, y + h };
}

/* The candidates next to `at` for a w by h label, best first; their
 * count (NEAR, or NEAR - 1 when not centred). */
static size_t
candidates_near(struct crown_geom_box *c, struct crown_geom_box at,
    double w, double h, bool centred)
{
	double	cx, cy;
	size_t	n = 0;

	cx = (at.minx + at.maxx) / 2;
	cy = (at.miny + at.maxy) / 2;
	if (centred)
		c[n++] = box_at(cx - w / 2, cy - h / 2, w, h);
	c[n++] = box_at(cx - w / 2, at.maxy + GAP, w, h);	/* below */
	c[n++] = box_at(cx - w / 2, at.miny - GAP - h, w, h);	/* above */
	c[n++] = box_at(at.maxx + GAP, cy - h / 2, w, h);	/* right */
	c[n++] = box_at(at.minx - GAP - w, cy - h / 2, w, h);	/* left */
	c[n++] = box_at(at.maxx + GAP, at.maxy + GAP, w, h);
	c[n++] = box_at(at.minx - GAP - w, at.maxy + GAP, w, h);
	c[n++] = box_at(at.maxx + GAP, at.miny - GAP - h, w, h);
	c[n++] = box_at(at.minx - GAP - w, at.miny - GAP - h, w, h);
	return n;
}

/* The bearing of place i of a ring of m: 180 (below) first, then
 * either side of it. */
static int
ring_deg(int i, int m)
{
	return 180 + ((i + 1) / 2) * (i % 2 == 0 ? -1 : 1) * 360 / m;
}

/* Ring k's directions (8 + 4k of them): the same for every label, so
 * worked out once. */
static const struct crown_point *
ring_dirs(int k)
{
	static struct crown_point	dirs[RINGS + 1][8 + 4 * RINGS];
	static bool			ready;
	int				r, i, m;

	if (!ready) {
		for (r = 1; r <= RINGS; r++) {
			m = 8 + 4 * r;
			for (i = 0; i < m; i++)
				dirs[r][i] = crown_geom_dir(ring_deg(i, m));
		}
		ready = true;
	}
	return dirs[k];
}

/* Ring k of the candidates further out, after *n of them; made only
 * when the loop reaches it, as nine labels in ten take a place next to
 * what they name or in the first rings.  A ring beyond RINGS (the last
 * resort, far_place) works its directions out each time. */
static void
candidates_ring(struct crown_geom_box *c, size_t *n, int k,
    struct crown_geom_box at, double w, double h)
{
	const struct crown_point	*d = k <= RINGS ? ring_dirs(k) : NULL;
	struct crown_point		 dir;
	double				 cx, cy, rx, ry;
	int				 i, m = 8 + 4 * k;

	cx = (at.minx + at.maxx) / 2;
	cy = (at.miny + at.maxy) / 2;
	/* half the sizes of both and the ring's distance */
	rx = (at.maxx - at.minx + w) / 2 + GAP + k * STEP;
	ry = (at.maxy - at.miny + h) / 2 + GAP + k * STEP;
	for (i = 0; i < m; i++) {
		dir = d != NULL ? d[i] : crown_geom_dir(ring_deg(i, m));
		c[(*n)++] = box_at(cx + dir.x * rx - w / 2,
		    cy - dir.y * ry - h / 2, w, h);
	}
}

/*
 * Nothing in the rings is clear of the texts: the rings beyond, out to
 * FAR, a place clear of texts only (a label is read with a line back to
 * what it names, which beats one text over another).  False if none.
 */
static bool
far_place(struct crown_geom_box *out, struct crown_place *p,
    struct crown_geom_box at, double w, double h)
{
	struct crown_geom_box	c[8 + 4 * FAR];
	size_t			n, i;
	int			k;

	for (k = RINGS + 1; k <= FAR; k++) {
		n = 0;
		candidates_ring(c, &n, k, at, w, h);
		for (i = 0; i < n; i++)
			if (inside(p, &c[i]) && !taken(p, &c[i], TEXT)) {
				*out = c[i];
				return true;
			}
	}
	return false;
}

bool
crown_place_label(struct crown_geom_box *out, struct crown_place *p,
    struct crown_geom_box at, double w, double h, bool centred)
{
	struct crown_geom_box	c[MAXCAND + 1];
	size_t			n, i, pick, near;
	int			pass, ring = 0;

	n = near = candidates_near(c, at, w, h, centred);
	pick = SIZE_MAX;
	/* next to it and clear of everything; else anywhere clear of units
	 * and texts; else of texts (a line is not worth moving far for) */
	for (pass = LINE; pass <= TEXT && pick == SIZE_MAX; pass++)
		for (i = 0; pick == SIZE_MAX; i++) {
			if (i == n && pass != LINE && ring < RINGS)
				candidates_ring(c, &n, ++ring, at, w, h);
			if (i == (pass == LINE ? near : n))
				break;
			if (inside(p, &c[i]) && !taken(p, &c[i],
			    (enum weight)pass))
				pick = i;
		}
	if (pick == SIZE_MAX && far_place(out, p, at, w, h)) {
		crown_place_text(p, *out);
		return false;
	}
	if (pick == SIZE_MAX)
		pick = 0;
	*out = c[pick];
	crown_place_text(p, c[pick]);
	/* below, above or beside it: plainly its label; at a corner or
	 * further out it could be taken for a neighbour's */
	return pick < near - 4;
}
