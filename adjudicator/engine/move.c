/*
 * move.c: movement, terrain and formations (R4, R6.6), and the movement
 * services that charges (R9.1), retirement (R7.4) and routs (R8.1) use.
 *
 * A move is a track: the unit's position, then the ordered points.  The
 * footprint is carried along the track without turning (geom.c's sweeps)
 * and takes its final facing at the end.  What can cut a move short is a
 * list of blockers, each a condition that, once met somewhere along the
 * first s inches, stays met for every longer s: coming within 1 inch of
 * an enemy (R4.5), touching one (a charge, R9.1), entering terrain the
 * unit may not enter (R4.3), or the footprint's centre leaving the table
 * (R4.5).  The first point each is met is found by bisection, which needs
 * nothing but that monotony, and the unit stops at the earliest.
 *
 * Positions are kept to hundredths of an inch (state.c), so a stopping
 * point is rounded, then stepped back a hundredth at a time until the
 * rounded footprint satisfies every blocker too.
 *
 * Choices where RULES.md is silent:
 * - The road bonus is opt-in (`road: true`), and then only when every leg
 *   from the unit's position lies within the half-width of some road.
 * - A unit does not turn while it moves; it wheels about its front-edge
 *   centre at the end, unless the wheel would put it into N/A terrain,
 *   off the table or nearer than 1 inch to an enemy (then it keeps its
 *   facing).  Without an ordered facing it faces along the leg it stopped
 *   on; a unit that did not get forward keeps its facing.
 * - R4.3 N/A terrain is entered, not touched: a footprint standing
 *   against a wall may move along it, not across it.  Terrain a unit
 *   already stands in does not stop it.
 * - Drowning (R4.3a): when any feature with the drown note is touched and
 *   all the penalty dice together exceed the roll; the figures count as
 *   casualties of the half-turn (R10.3) but not as fire casualties (R7.1).
 * - Sticking (R4.3b): where the unit stands; it comes free when a haul
 *   leaves its footprint touching no terrain that sticks its type.
 * - Help: see crown_action_help.  Manhandling pays no terrain dice.
 * - Leaving the table (R4.5): when the footprint's centre goes off it;
 *   orders may lead off the table.  A unit placed with its centre off the
 *   table is not lost for that.
 * - Holding (R7.4): judged before the dice, by the ordered destination.
 * - Friendly units do not block a move.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/engine.h"
#include "crown/yaml.h"

/* Positions are kept to hundredths of an inch (state.c). */
#define STEP		0.01
/* Bisection: halvings of the travel, enough to reach 1e-12 inch. */
#define BISECT_STEPS	64
/* Steps back (of STEP) tried to find a rounded point that is clear. */
#define BACKOFF_STEPS	100
/*
 * R4.3 forbids entering N/A terrain, not touching it: a gun may stand
 * against a wall and move along it, but not cross it.  A footprint is
 * "in" a feature when the footprint shrunk by INSET on every side touches
 * it; INSET is below the hundredth positions are kept to.
 */
#define INSET		(STEP / 2)

enum block_kind {
	BLOCK_ENEMY,		/* R4.5: no nearer than 1 inch */
	BLOCK_CONTACT,		/* R9.1: a charge stops at contact */
	BLOCK_TERRAIN,		/* R4.3: N/A terrain */
	BLOCK_EDGE		/* R4.5: leaving the table */
};

struct blocker {
	enum block_kind			 kind;
	const struct crown_unit		*enemy;
	const struct crown_feature	*f;
	/* the enemy's footprint; come no nearer to it than thr, watched
	 * from s0 inches on; at_start: any move at all breaks it */
	struct crown_quad		 q;
	double				 thr;
	double				 s0;
	bool				 at_start;
};

struct track {
	const struct crown_state	*s;
	const struct crown_rules	*rules;
	struct crown_quad		 q0;	/* at the start */
	struct crown_quad		 qin;	/* q0 less INSET */
	struct crown_point		*pts;	/* start, path */
	size_t				 m;
	double				*cum;	/* to each point */
	double				 len;
	struct crown_point		 coff;	/* centre - start */
	struct blocker			*b;
	size_t				 nb, capb;
};

/* Where a track run ended. */
struct stop {
	double			 s;	/* inches along the track */
	struct crown_point	 at;	/* rounded position */
	const struct blocker	*by;	/* what stopped it, or NULL */
};

/* A terrain feature that cost dice (R4.4), from die `first' on. */
struct penalty {
	const struct crown_feature	*f;
	int				 ndice;
	int				 sum;
	size_t				 first;
};

static void	track_init(struct track *, const struct crown_state *,
		    const struct crown_rules *, struct crown_point,
		    const struct crown_quad *, const struct crown_point *,
		    size_t);
static void	track_free(struct track *);
static struct crown_point track_at(const struct track *, double);
static void	quad_at(struct crown_quad *, const struct track *,
		    struct crown_point);
static size_t	subpath(struct crown_point **, const struct track *,
		    double, double);
static double	sweep_dist(const struct track *, double, double,
		    const struct crown_quad *);
static void	quad_inset(struct crown_quad *, const struct crown_quad *);
static bool	feature_swept(const struct track *,
		    const struct crown_feature *, double, bool);
static bool	feature_touches(const struct crown_feature *,
		    const struct crown_point *, size_t);
static bool	off_table(const struct crown_state *, struct crown_point);
static bool	edge_crossed(const struct track *, double);
static struct blocker *add_blocker(struct track *, enum block_kind);
static double	pdist(struct crown_point, struct crown_point);
static struct crown_geom_box track_box(const struct track *);
static size_t	near_units(size_t **, struct crown_engine *,
		    const struct track *, double);
static size_t	near_terrain(size_t **, struct crown_engine *,
		    const struct track *);
static void	add_enemy_blockers(struct track *, struct crown_engine *,
		    const struct crown_unit *, bool);
static void	add_terrain_blockers(struct track *, struct crown_engine *,
		    enum crown_utype);
static bool	violated(const struct track *, const struct blocker *,
		    double);
static bool	clear_at(const struct track *, const struct crown_quad *,
		    struct crown_point, const struct blocker *);
static void	track_run(const struct track *, double, struct stop *);
static int	leg_bearing(const struct track *, double);
static void	unit_quad(struct crown_quad *, const struct crown_rules *,
		    const struct crown_unit *, struct crown_point, int);
static bool	turn_ok(const struct track *, const struct crown_rules *,
		    const struct crown_unit *, struct crown_point, int);
static const char *feature_name(const struct crown_feature *);
static void	describe_roll(struct crown_buf *,
		    const struct crown_event *, double);
static int	move_core(struct crown_engine *, struct crown_unit *, size_t,
		    const struct crown_point *, size_t, double, unsigned, int,
		    double *, const char *);
static bool	may_move(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);
static bool	legs_on_road(struct crown_engine *,
		    const struct crown_unit *, const struct crown_point *,
		    size_t);
static const struct crown_action_order *own_move(struct crown_engine *,
		    const struct crown_unit *);

/*
 * The track.
 */

static void
track_init(struct track *t, const struct crown_state *s,
    const struct crown_rules *rules, struct crown_point start,
    const struct crown_quad *q0, const struct crown_point *path, size_t n)
{
	struct crown_point	c;
	double			dx, dy;
	size_t			i;

	memset(t, 0, sizeof(*t));
	t->s = s;
	t->rules = rules;
	t->q0 = *q0;
	quad_inset(&t->qin, q0);
	t->m = n + 1;
	t->pts = xreallocarray(NULL, t->m, sizeof(*t->pts));
	t->cum = xreallocarray(NULL, t->m, sizeof(*t->cum));
	t->pts[0] = start;
	if (n > 0)
		memcpy(t->pts + 1, path, n * sizeof(*path));
	t->cum[0] = 0;
	for (i = 1; i < t->m; i++) {
		dx = t->pts[i].x - t->pts[i - 1].x;
		dy = t->pts[i].y - t->pts[i - 1].y;
		t->cum[i] = t->cum[i - 1] + sqrt(dx * dx + dy * dy);
	}
	t->len = crown_geom_path_length(t->pts, t->m);
	c = crown_geom_quad_centre(q0);
	t->coff.x = c.x - start.x;
	t->coff.y = c.y - start.y;
}

static void
track_free(struct track *t)
{
	free(t->pts);
	free(t->cum);
	free(t->b);
}

static struct crown_point
track_at(const struct track *t, double s)
{
	return crown_geom_path_point(t->pts, t->m, s);
}

/* The start footprint carried to p. */
static void
quad_at(struct crown_quad *out, const struct track *t, struct crown_point p)
{
	int	i;

	for (i = 0; i < 4; i++) {
		out->c[i].x = t->q0.c[i].x + (p.x - t->pts[0].x);
		out->c[i].y = t->q0.c[i].y + (p.y - t->pts[0].y);
	}
}

/* The track from s0 to s1: the point at s0, the vertices between, the
 * point at s1.  *out is the caller's. */
static size_t
subpath(struct crown_point **out, const struct track *t, double s0,
    double s1)
{
	size_t	i, k;

	*out = xreallocarray(NULL, t->m + 2, sizeof(**out));
	k = 0;
	(*out)[k++] = track_at(t, s0);
	for (i = 1; i < t->m; i++)
		if (t->cum[i] > s0 && t->cum[i] < s1)
			(*out)[k++] = t->pts[i];
	if (s1 > s0)
		(*out)[k++] = track_at(t, s1);
	return k;
}

/* Least distance from q to the footprint swept from s0 to s1. */
static double
sweep_dist(const struct track *t, double s0, double s1,
    const struct crown_quad *q)
{
	struct crown_point	*sp;
	struct crown_quad	 qs;
	double			 d;
	size_t			 k;

	if (s0 <= 0)
		return crown_geom_sweep_dist_poly(&t->q0, t->pts, t->m, s1,
		    q->c, 4);
	k = subpath(&sp, t, s0, s1);
	quad_at(&qs, t, sp[0]);
	d = crown_geom_sweep_dist_poly(&qs, sp, k, HUGE_VAL, q->c, 4);
	free(sp);
	return d;
}

/* q shrunk by INSET on every side; a footprint too thin (or a leader's
 * point) is left as it is. */
static void
quad_inset(struct crown_quad *out, const struct crown_quad *q)
{
	double	ax, ay, al, rx, ry, rl;

	*out = *q;
	ax = q->c[0].x - q->c[3].x;
	ay = q->c[0].y - q->c[3].y;
	rx = q->c[1].x - q->c[0].x;
	ry = q->c[1].y - q->c[0].y;
	al = sqrt(ax * ax + ay * ay);
	rl = sqrt(rx * rx + ry * ry);
	if (!(al > 4 * INSET) || !(rl > 4 * INSET))
		return;
	ax = ax / al * INSET;
	ay = ay / al * INSET;
	rx = rx / rl * INSET;
	ry = ry / rl * INSET;
	out->c[0].x = q->c[0].x + rx - ax;
	out->c[0].y = q->c[0].y + ry - ay;
	out->c[1].x = q->c[1].x - rx - ax;
	out->c[1].y = q->c[1].y - ry - ay;
	out->c[2].x = q->c[2].x - rx + ax;
	out->c[2].y = q->c[2].y - ry + ay;
	out->c[3].x = q->c[3].x + rx + ax;
	out->c[3].y = q->c[3].y + ry + ay;
}

/*
 * The footprint (inset: shrunk, for N/A terrain) swept along the first s
 * inches touches the feature: a polygon, or a path with a width (roads;
 * walls have width 0).
 */
static bool
feature_swept(const struct track *t, const struct crown_feature *f, double s,
    bool inset)
{
	const struct crown_quad	*q = inset ? &t->qin : &t->q0;

	if (f->npts == 0)
		return false;
	if (f->is_path)
		return crown_geom_sweep_touches_polyline(q, t->pts, t->m, s,
		    f->pts, f->npts, f->width);
	return crown_geom_sweep_touches_poly(q, t->pts, t->m, s, f->pts,
	    f->npts);
}

static bool
feature_touches(const struct crown_feature *f, const struct crown_point *p,
    size_t n)
{
	if (f->npts == 0)
		return false;
	if (f->is_path)
		return crown_geom_poly_touches_polyline(p, n, f->pts, f->npts,
		    f->width);
	return crown_geom_poly_intersect(p, n, f->pts, f->npts);
}

/* Strictly outside the table: its edges are on it (R13.1). */
static bool
off_table(const struct crown_state *s, struct crown_point p)
{
	return p.x < 0 || p.x > s->width || p.y < 0 || p.y > s->height;
}

/* The footprint's centre leaves the table within the first s inches. */
static bool
edge_crossed(const struct track *t, double s)
{
	struct crown_point	p;
	size_t			i;

	/* The table is convex: a leg leaves it only if an end does. */
	for (i = 1; i < t->m && t->cum[i] < s; i++) {
		p.x = t->pts[i].x + t->coff.x;
		p.y = t->pts[i].y + t->coff.y;
		if (off_table(t->s, p))
			return true;
	}
	p = track_at(t, s);
	p.x += t->coff.x;
	p.y += t->coff.y;
	return off_table(t->s, p);
}

static double
pdist(struct crown_point a, struct crown_point b)
{
	double	dx = b.x - a.x, dy = b.y - a.y;

	return sqrt(dx * dx + dy * dy);
}

/* Bounding box of all the footprint sweeps along the whole track. */
static struct crown_geom_box
track_box(const struct track *t)
{
	struct crown_geom_box	b, c;
	struct crown_quad	q;
	size_t			i;

	b = crown_geom_bounds(t->q0.c, 4);
	for (i = 1; i < t->m; i++) {
		quad_at(&q, t, t->pts[i]);
		c = crown_geom_bounds(q.c, 4);
		if (c.minx < b.minx)
			b.minx = c.minx;
		if (c.miny < b.miny)
			b.miny = c.miny;
		if (c.maxx > b.maxx)
			b.maxx = c.maxx;
		if (c.maxy > b.maxy)
			b.maxy = c.maxy;
	}
	return b;
}

/* 0 to n-1, without an engine's index to narrow them. */
static size_t
every_index(size_t **out, size_t n)
{
	size_t	i;

	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = i;
	return n;
}

/*
 * State indices of the units within `radius' of the track's box, in
 * state order: from the engine's spatial index (issue 10) when there is
 * an engine, else every unit.  *out is the caller's.
 */
static size_t
near_units(size_t **out, struct crown_engine *e, const struct track *t,
    double radius)
{
	struct crown_geom_box	 box;
	const size_t		*v;
	size_t			 n;

	if (e == NULL)
		return every_index(out, t->s->nunits);
	box = track_box(t);
	n = crown_engine_units_near(e, &box, radius, &v);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	if (n > 0)
		memcpy(*out, v, n * sizeof(**out));
	return n;
}

/* The same for terrain features touching the track's box, in state
 * order. */
static size_t
near_terrain(size_t **out, struct crown_engine *e, const struct track *t)
{
	struct crown_geom_box	 box;
	const int		*v;
	size_t			 n, i;

	if (e == NULL)
		return every_index(out, t->s->nterrain);
	box = track_box(t);
	n = crown_engine_terrain_near(e, &box, 0, &v);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = (size_t)v[i];
	return n;
}

/*
 * Blockers.
 */

static struct blocker *
add_blocker(struct track *t, enum block_kind kind)
{
	struct blocker	*b;

	crown_grow(&t->b, &t->capb, t->nb + 1, sizeof(*t->b));
	b = &t->b[t->nb++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	return b;
}

/*
 * R4.5: every enemy on the table, in state order.  An ordinary move may
 * not bring the footprint within stop_short of one; a unit already that
 * close may not come any closer (it may still draw off), and one already
 * touching may only move if its first step parts it from the enemy.  A
 * charge (contact) stops at the first enemy it touches instead.
 */
static void
add_enemy_blockers(struct track *t, struct crown_engine *e,
    const struct crown_unit *u, bool contact)
{
	const struct crown_unit	*v;
	struct crown_quad	 q;
	struct blocker		*b;
	double			 d0, de, eps, reach;
	size_t			*idx, n, i;

	/* the final wheel swings the footprint at most its width + depth */
	reach = t->rules->stop_short + pdist(t->q0.c[0], t->q0.c[1]) +
	    pdist(t->q0.c[1], t->q0.c[2]);
	n = near_units(&idx, e, t, reach);
	for (i = 0; i < n; i++) {
		v = &t->s->units[idx[i]];
		if (v == u || v->status == CROWN_LOST ||
		    strcmp(v->side, u->side) == 0)
			continue;
		b = add_blocker(t, contact ? BLOCK_CONTACT : BLOCK_ENEMY);
		b->enemy = v;
		crown_unit_footprint(&b->q, t->rules, v);
		if (contact)
			continue;
		d0 = crown_geom_dist_quad(&t->q0, &b->q);
		b->thr = t->rules->stop_short;
		if (d0 >= b->thr)
			continue;
		if (d0 > 0) {
			b->thr = d0;
			continue;
		}
		eps = t->len < STEP ? t->len : STEP;
		quad_at(&q, t, track_at(t, eps));
		de = crown_geom_dist_quad(&q, &b->q);
		if (!(de > 0)) {
			b->at_start = true;
			continue;
		}
		b->s0 = eps;
		if (de < b->thr)
			b->thr = de;
	}
	free(idx);
}

/* R4.3: terrain N/A for the type, except what the unit stands in. */
static void
add_terrain_blockers(struct track *t, struct crown_engine *e,
    enum crown_utype type)
{
	const struct crown_feature	*f;
	struct blocker			*b;
	size_t				*idx, n, i;

	n = near_terrain(&idx, e, t);
	for (i = 0; i < n; i++) {
		f = &t->s->terrain[idx[i]];
		if (!t->rules->terrain_move[f->type][type].na ||
		    feature_touches(f, t->qin.c, 4))
			continue;
		b = add_blocker(t, BLOCK_TERRAIN);
		b->f = f;
	}
	free(idx);
}

/* The blocker's condition is met somewhere in the first s inches. */
static bool
violated(const struct track *t, const struct blocker *b, double s)
{
	switch (b->kind) {
	case BLOCK_ENEMY:
		if (b->at_start)
			return s > 0;
		if (s <= b->s0)
			return false;
		return sweep_dist(t, b->s0, s, &b->q) < b->thr;
	case BLOCK_CONTACT:
		return !(sweep_dist(t, 0, s, &b->q) > 0);
	case BLOCK_TERRAIN:
		return feature_swept(t, b->f, s, true);
	case BLOCK_EDGE:
		return edge_crossed(t, s);
	}
	return false;
}

/* The footprint q at p meets every blocker but `skip`. */
static bool
clear_at(const struct track *t, const struct crown_quad *q,
    struct crown_point p, const struct blocker *skip)
{
	const struct blocker	*b;
	struct crown_quad	 qi;
	size_t			 i;

	quad_inset(&qi, q);
	for (i = 0; i < t->nb; i++) {
		b = &t->b[i];
		if (b == skip)
			continue;
		switch (b->kind) {
		case BLOCK_ENEMY:
			if (b->at_start ||
			    crown_geom_dist_quad(q, &b->q) < b->thr)
				return false;
			break;
		case BLOCK_CONTACT:
			break;
		case BLOCK_TERRAIN:
			if (feature_touches(b->f, qi.c, 4))
				return false;
			break;
		case BLOCK_EDGE:
			p.x += t->coff.x;
			p.y += t->coff.y;
			if (off_table(t->s, p))
				return false;
			break;
		}
	}
	return true;
}

/*
 * Move along the track as far as `travel` inches or the first blocker.
 * The stopping point is rounded to hundredths; a rounded point that a
 * blocker would not allow is stepped back along the track.  A charge
 * that makes contact is stepped forward instead, so that the footprints
 * touch after rounding (they may overlap by a hundredth).
 */
static void
track_run(const struct track *t, double travel, struct stop *out)
{
	const struct blocker	*b;
	struct crown_quad	 q;
	struct crown_point	 p;
	double			 best, best_hi, lo, hi, mid, s;
	size_t			 i;
	int			 k;

	best = travel;
	best_hi = travel;
	out->by = NULL;
	for (i = 0; i < t->nb; i++) {
		b = &t->b[i];
		if (!violated(t, b, travel))
			continue;
		lo = 0;
		hi = travel;
		if (violated(t, b, 0))
			hi = 0;
		for (k = 0; k < BISECT_STEPS && hi - lo > 0; k++) {
			mid = lo + (hi - lo) / 2;
			if (mid <= lo || mid >= hi)
				break;
			if (violated(t, b, mid))
				hi = mid;
			else
				lo = mid;
		}
		if (lo < best || (out->by == NULL && lo <= best)) {
			best = lo;
			best_hi = hi;
			out->by = b;
		}
	}
	if (out->by != NULL && out->by->kind == BLOCK_CONTACT) {
		for (k = 0; k <= 8; k++) {
			s = best_hi + k * (STEP / 2);
			if (s > t->len)
				s = t->len;
			p = track_at(t, s);
			p.x = crown_round2(p.x);
			p.y = crown_round2(p.y);
			quad_at(&q, t, p);
			if (crown_geom_dist_quad(&q, &out->by->q) == 0 &&
			    clear_at(t, &q, p, out->by)) {
				out->s = s;
				out->at = p;
				return;
			}
		}
	}
	for (k = 0; k < BACKOFF_STEPS; k++) {
		s = best - k * STEP;
		if (s <= 0)
			break;
		p = track_at(t, s);
		p.x = crown_round2(p.x);
		p.y = crown_round2(p.y);
		quad_at(&q, t, p);
		if (clear_at(t, &q, p, out->by != NULL &&
		    out->by->kind == BLOCK_EDGE ? out->by : NULL)) {
			out->s = s;
			out->at = p;
			return;
		}
	}
	out->s = 0;
	out->at = t->pts[0];
}

/* Bearing of the leg the track is on at s (s > 0). */
static int
leg_bearing(const struct track *t, double s)
{
	size_t	i;

	for (i = 1; i + 1 < t->m && t->cum[i] < s; i++)
		continue;
	for (; i > 1 && t->cum[i] == t->cum[i - 1]; i--)
		continue;
	return crown_geom_bearing(t->pts[i - 1], t->pts[i]);
}

/* u's footprint at p facing `facing`. */
static void
unit_quad(struct crown_quad *out, const struct crown_rules *rules,
    const struct crown_unit *u, struct crown_point p, int facing)
{
	struct crown_unit	tmp = *u;

	tmp.x = p.x;
	tmp.y = p.y;
	tmp.facing = crown_geom_norm(facing);
	crown_unit_footprint(out, rules, &tmp);
}

/*
 * The final wheel about the front-edge centre (R4.2) is made only if the
 * turned footprint breaks no blocker the unturned one keeps: it may not
 * swing into N/A terrain, off the table, or nearer an enemy than 1 inch
 * (nor nearer than it already is).
 */
static bool
turn_ok(const struct track *t, const struct crown_rules *rules,
    const struct crown_unit *u, struct crown_point p, int facing)
{
	const struct blocker	*b;
	struct crown_quad	 qn, qo, qi;
	struct crown_point	 c;
	double			 lim, d;
	size_t			 i;

	unit_quad(&qn, rules, u, p, facing);
	quad_inset(&qi, &qn);
	quad_at(&qo, t, p);
	for (i = 0; i < t->nb; i++) {
		b = &t->b[i];
		switch (b->kind) {
		case BLOCK_ENEMY:
			lim = b->thr;
			if ((d = crown_geom_dist_quad(&qo, &b->q)) < lim)
				lim = d;
			if (crown_geom_dist_quad(&qn, &b->q) < lim)
				return false;
			break;
		case BLOCK_CONTACT:
			break;
		case BLOCK_TERRAIN:
			if (feature_touches(b->f, qi.c, 4))
				return false;
			break;
		case BLOCK_EDGE:
			c = crown_geom_quad_centre(&qn);
			if (off_table(t->s, c))
				return false;
			break;
		}
	}
	return true;
}

/*
 * Words.
 */

static const char *
feature_name(const struct crown_feature *f)
{
	return f->name != NULL ? f->name : f->id;
}

/* "rolled 3+4 + 5 = 12": the movement dice of an event (not terrain). */
static void
describe_roll(struct crown_buf *b, const struct crown_event *ev,
    double gross)
{
	const struct crown_die_rec	*d;
	size_t				 i, j, n = 0;
	int				 sum = 0;
	char				*g;

	for (i = 0; i < ev->ndice; i++) {
		d = &ev->dice[i];
		if (strncmp(d->purpose, "terrain", 7) == 0)
			continue;
		crown_buf_printf(b, "%s%d", n++ == 0 ? "rolled " : " + ",
		    d->roll);
		for (j = 0; j < d->nmods; j++)
			crown_buf_printf(b, "%+d", d->mods[j].value);
		sum += d->score;
	}
	g = crown_inches(gross);
	if (n == 0)
		crown_buf_printf(b, "%s inches", g);
	else {
		if (gross != sum) {
			char *f = crown_inches(gross - sum);

			crown_buf_printf(b, " + %s", f);
			free(f);
		}
		crown_buf_printf(b, " = %s", g);
	}
	free(g);
}

/*
 * Rolls (R4.1).
 */

/* Roll d into ev_i; the fixed part is a modifier of the first die. */
static int
roll_dice(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct crown_dice *d, const char *purpose, const char *plus_name,
    int *sum, int *last)
{
	struct crown_event	*ev;
	int			 i, k;

	*sum = 0;
	*last = -1;
	for (i = 0; i < d->n; i++) {
		k = crown_engine_roll_into(e, ev_i, u->id, purpose, d->sides);
		if (k < 0)
			return e->error;
		ev = crown_events_at(e->ev, ev_i);
		if (i == 0 && d->plus != 0)
			crown_die_mod(&ev->dice[k], plus_name, d->plus,
			    "R4.1");
		*sum += ev->dice[k].score;
		*last = k;
	}
	if (d->n == 0)
		*sum = d->plus;
	return 0;
}

int
crown_move_roll(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    enum crown_move_kind kind, bool road, double *gross)
{
	const struct crown_rules	*r = e->rules;
	const char			*purpose = NULL;
	struct crown_event		*ev;
	char				*name;
	int				 base, bonus = 0, extra = 0;
	int				 last, half;

	*gross = 0;
	if (e->error != 0)
		return e->error;
	name = xasprintf("%s base", crown_utype_names[u->type]);
	roll_dice(e, u, ev_i, &r->move[u->type].normal, "move", name, &base,
	    &last);
	free(name);
	if (e->error != 0)
		return e->error;
	if (kind == CROWN_MOVE_CHARGE || kind == CROWN_MOVE_CHARGE_HALF)
		purpose = "charge bonus";
	else if (kind == CROWN_MOVE_ROUT)
		purpose = "rout bonus";
	if (purpose != NULL && r->move[u->type].has_bonus) {
		roll_dice(e, u, ev_i, &r->move[u->type].bonus, purpose,
		    "bonus", &bonus, &last);
		if (e->error != 0)
			return e->error;
		/* R7.2 "charge, half bonus": halved, rounding up (R9.1) */
		if (kind == CROWN_MOVE_CHARGE_HALF && bonus > 0) {
			half = (bonus + 1) / 2;
			if (last >= 0) {
				ev = crown_events_at(e->ev, ev_i);
				crown_die_mod(&ev->dice[last], "half bonus",
				    half - bonus, "R9.1");
			}
			bonus = half;
		}
	}
	if (road) {
		roll_dice(e, u, ev_i, &r->move[u->type].road, "road bonus",
		    "road", &extra, &last);
		if (e->error != 0)
			return e->error;
	}
	*gross = base + bonus + extra;
	return 0;
}

/*
 * Moving.
 */

struct crown_point
crown_move_home_point(const struct crown_engine *e,
    const struct crown_unit *u)
{
	struct crown_quad	q;
	struct crown_point	p;
	double			margin;

	/* Far enough out that a unit standing there is wholly off. */
	crown_unit_footprint(&q, e->rules, u);
	margin = crown_round2(pdist(q.c[0], q.c[1]) + pdist(q.c[1], q.c[2])) +
	    STEP;
	p.x = u->x;
	p.y = u->y;
	switch (crown_engine_home_edge(e, u)) {
	case CROWN_NORTH:
		p.y = e->s->height + margin;
		break;
	case CROWN_EAST:
		p.x = e->s->width + margin;
		break;
	case CROWN_WEST:
		p.x = -margin;
		break;
	default:
		p.y = -margin;
		break;
	}
	return p;
}

/*
 * The move itself.  how: words for the distance when it was not rolled
 * (manhandling); NULL to describe the event's dice.
 */
static int
move_core(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct crown_point *path, size_t n, double gross, unsigned flags,
    int face, double *moved, const char *how)
{
	const struct crown_rules	*r = e->rules;
	const struct crown_feature	*f;
	const struct crown_terrain_move	*tm;
	struct crown_turn_unit		*tu;
	struct crown_event		*ev;
	struct crown_buf		 b = { 0 }, where = { 0 };
	struct crown_buf		 text = { 0 };
	struct crown_quad		 q0;
	struct track			 t;
	struct stop			 st;
	struct penalty			*pen = NULL;
	size_t				*near = NULL, nnear;
	size_t				 npen = 0, cap = 0, i, k;
	double				 reach, net, travel;
	int				 total = 0, nf, dk, taken;
	bool				 drown = false, stick = false;
	char				*d1, *d2;
	const char			*verb, *result;

	*moved = 0;
	if (e->error != 0)
		return e->error;
	if (u->status == CROWN_LOST)
		return 0;
	tu = crown_engine_tu(e, u);
	tu->moved = true;
	tu->moved_this_half = true;
	ev = crown_events_at(e->ev, ev_i);
	verb = strcmp(ev->kind, "charge_move") == 0 ? "charged" :
	    strcmp(ev->kind, "retire") == 0 ? "fell back" :
	    strcmp(ev->kind, "rout_move") == 0 ? "fled" : "moved";
	ev->has_from = ev->has_to = true;
	ev->from.x = ev->to.x = u->x;
	ev->from.y = ev->to.y = u->y;
	crown_buf_puts(&b, "");
	if (how != NULL)
		crown_buf_puts(&b, how);
	else
		describe_roll(&b, ev, gross);

	/* R4.3b: only friends helping move a stuck unit */
	if (u->stuck) {
		crown_event_set(&ev->result, "stuck");
		crown_event_set(&ev->text, "%s is stuck and cannot move "
		    "until friends help it (%s).", u->name, b.data);
		crown_buf_release(&b);
		return 0;
	}
	crown_unit_footprint(&q0, r, u);
	track_init(&t, e->s, r, (struct crown_point){ u->x, u->y }, &q0,
	    path, n);

	/* R4.4: each feature touched within the gross roll pays once, in
	 * state order */
	reach = gross < t.len ? gross : t.len;
	nnear = flags & CROWN_MOVE_IGNORE_TERRAIN ? 0 :
	    near_terrain(&near, e, &t);
	for (i = 0; i < nnear; i++) {
		f = &e->s->terrain[near[i]];
		tm = &r->terrain_move[f->type][u->type];
		if (tm->na || tm->dice <= 0 ||
		    !feature_swept(&t, f, reach, false))
			continue;
		crown_grow(&pen, &cap, npen + 1, sizeof(*pen));
		pen[npen].f = f;
		pen[npen].ndice = tm->dice;
		pen[npen].sum = 0;
		pen[npen].first = crown_events_at(e->ev, ev_i)->ndice;
		for (k = 0; k < (size_t)tm->dice; k++) {
			char *purpose = xasprintf("terrain %s", f->id);

			dk = crown_engine_roll_into(e, ev_i, u->id, purpose,
			    6);
			free(purpose);
			if (dk < 0)
				goto cleanup;
			pen[npen].sum += crown_events_at(e->ev,
			    ev_i)->dice[dk].score;
		}
		total += pen[npen].sum;
		drown = drown || tm->drown;
		stick = stick || tm->stuck;
		npen++;
	}
	ev = crown_events_at(e->ev, ev_i);
	net = gross - total;
	crown_buf_puts(&where, "");
	for (i = 0; i < npen; i++) {
		crown_buf_printf(&b, "%s%s (-%dD6: ", i == 0 ?
		    ", slowed by " : i + 1 == npen ? " and " : ", ",
		    feature_name(pen[i].f), pen[i].ndice);
		for (k = 0; k < (size_t)pen[i].ndice; k++)
			crown_buf_printf(&b, "%s%d", k ? "+" : "",
			    ev->dice[pen[i].first + k].roll);
		crown_buf_puts(&b, ")");
		crown_buf_printf(&where, "%s%s", i == 0 ? "" :
		    i + 1 == npen ? " and " : ", ", feature_name(pen[i].f));
	}
	if (npen > 0) {
		d1 = crown_inches(net);
		crown_buf_printf(&b, ": net %s", d1);
		free(d1);
	}

	/* R4.3 (a): penalty dice over the roll drown the difference */
	if (drown && total > gross) {
		taken = (int)ceil(total - gross);
		taken = crown_unit_take_casualties(u, taken);
		crown_engine_unit_moved(e, u);
		tu->casualties_half += taken;
		crown_event_set(&ev->result, "drowned");
		crown_event_set(&ev->text, "%s tried to cross %s but stayed "
		    "where it was (%s).", u->name, where.data, b.data);
		k = crown_engine_event(e, "drowned", u->id, "R4.3");
		ev = crown_events_at(e->ev, k);
		ev->has_casualties = true;
		ev->casualties = taken;
		d1 = crown_inches(gross);
		crown_event_set(&ev->text, "%s lost %d figure%s drowned in "
		    "%s: the penalty of %d exceeded the roll of %s.", u->name,
		    taken, taken == 1 ? "" : "s", where.data, total, d1);
		free(d1);
		if (u->status == CROWN_LOST) {
			k = crown_engine_event(e, "lost", u->id, "R1.3");
			crown_event_set(&crown_events_at(e->ev, k)->text,
			    "%s has no figures left and is lost.", u->name);
		}
		goto cleanup;
	}
	/* R4.3 (b): a negative net roll sticks guns and wagons */
	if (stick && net < 0) {
		u->stuck = true;
		crown_event_set(&ev->result, "stuck");
		crown_event_set(&ev->text, "%s could not move (%s).", u->name,
		    b.data);
		k = crown_engine_event(e, "stuck", u->id, "R4.3");
		crown_event_set(&crown_events_at(e->ev, k)->text,
		    "%s is stuck in %s: it moves only as friendly units help "
		    "it.", u->name, where.data);
		goto cleanup;
	}

	travel = net < 0 ? 0 : net < t.len ? net : t.len;
	add_enemy_blockers(&t, e, u, (flags & CROWN_MOVE_INTO_CONTACT) != 0);
	add_terrain_blockers(&t, e, u->type);
	if (!off_table(e->s, (struct crown_point){ u->x + t.coff.x,
	    u->y + t.coff.y }))
		add_blocker(&t, BLOCK_EDGE);
	track_run(&t, travel, &st);
	*moved = st.s;

	/* R4.2: the ordered facing, else along the last leg */
	nf = u->facing;
	if (face >= 0)
		nf = crown_geom_norm(face);
	else if (!(flags & CROWN_MOVE_KEEP_FACING) && st.s > 0)
		nf = leg_bearing(&t, st.s);
	if (st.by != NULL && st.by->kind == BLOCK_EDGE)
		nf = u->facing;
	if (nf != u->facing && !turn_ok(&t, r, u, st.at, nf)) {
		crown_buf_printf(&b, "; it could not turn to face %s there",
		    crown_geom_compass(nf));
		nf = u->facing;
	}
	u->x = st.at.x;
	u->y = st.at.y;
	u->facing = nf;
	crown_engine_unit_moved(e, u);
	ev = crown_events_at(e->ev, ev_i);
	ev->to = st.at;

	result = st.s > 0 ? "moved" : "no_move";
	d1 = crown_inches(st.s);
	if (st.s > 0)
		crown_buf_printf(&text, "%s %s %s inch%s %s (%s).", u->name,
		    verb, d1, strcmp(d1, "1") == 0 ? "" : "es",
		    crown_geom_compass(crown_geom_bearing(ev->from, ev->to)),
		    b.data);
	else
		crown_buf_printf(&text, "%s did not get forward (%s).",
		    u->name, b.data);
	free(d1);
	if (st.by != NULL) {
		switch (st.by->kind) {
		case BLOCK_ENEMY:
			result = "stopped_short";
			d2 = crown_inches(r->stop_short);
			crown_buf_printf(&text, " It halted %s inch%s short "
			    "of %s (R4.5).", d2, strcmp(d2, "1") == 0 ? "" :
			    "es", st.by->enemy->name);
			free(d2);
			break;
		case BLOCK_CONTACT:
			result = "contact";
			crown_buf_printf(&text, " It made contact with %s.",
			    st.by->enemy->name);
			break;
		case BLOCK_TERRAIN:
			result = "blocked";
			crown_buf_printf(&text, " It halted at %s, which %s "
			    "may not enter (R4.3).", feature_name(st.by->f),
			    crown_utype_names[u->type]);
			break;
		case BLOCK_EDGE:
			result = "lost";
			crown_buf_puts(&text, " It left the table and is "
			    "out of the game (R4.5).");
			break;
		}
	}
	if (st.by == NULL && st.s > 0 && travel < net)
		crown_buf_puts(&text, " It reached the end of its path.");
	crown_event_set(&ev->result, "%s", result);
	free(ev->text);
	ev->text = text.data;		/* the event's now */
	text.data = NULL;
	if (st.by != NULL && st.by->kind == BLOCK_EDGE) {
		u->status = CROWN_LOST;
		k = crown_engine_event(e, "lost", u->id, "R4.5");
		crown_event_set(&crown_events_at(e->ev, k)->text,
		    "%s left the table and is out of the game.", u->name);
	}
cleanup:
	track_free(&t);
	free(near);
	free(pen);
	crown_buf_release(&b);
	crown_buf_release(&where);
	crown_buf_release(&text);
	return e->error;
}

int
crown_move_along(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct crown_point *path, size_t n, double gross, unsigned flags,
    int face, double *moved)
{
	return move_core(e, u, ev_i, path, n, gross, flags, face, moved, NULL);
}

/*
 * Orders.
 */

/* The stuck unit's own move or manhandle order this turn, if any. */
static const struct crown_action_order *
own_move(struct crown_engine *e, const struct crown_unit *u)
{
	const struct crown_orders	*o;
	const struct crown_unit_orders	*uo;
	size_t				 i, j;

	if ((o = crown_engine_side_orders(e, u->side)) == NULL)
		return NULL;
	for (i = 0; i < o->nunits; i++) {
		uo = &o->units[i];
		if (uo->unit == NULL || strcmp(uo->unit, u->id) != 0)
			continue;
		for (j = 0; j < uo->nactions; j++)
			if ((uo->actions[j].kind == CROWN_MOVE ||
			    uo->actions[j].kind == CROWN_MANHANDLE) &&
			    uo->actions[j].npath > 0)
				return &uo->actions[j];
	}
	return NULL;
}

/*
 * R4.2: every leg, from the unit's position, lies on a road: the parts of
 * it within each road's half-width of its centre line cover it.  Roads
 * that meet join; a leg cutting a bend leaves the road.
 */
static bool
legs_on_road(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_point *path, size_t n)
{
	const struct crown_feature	*f;
	struct crown_point		 a, b, ends[2];
	struct crown_geom_box		 box;
	const int			*near;
	double				*lo = NULL, *hi = NULL;
	double				 l, h, covered, t;
	size_t				 cap = 0, cap2 = 0, k, i, j, seg;
	size_t				 nseg, nnear;
	bool				 ok = n > 0;

	a.x = u->x;
	a.y = u->y;
	for (i = 0; ok && i < n; i++, a = b) {
		b = path[i];
		k = 0;
		/* the roads whose (widened) boxes meet the leg's */
		ends[0] = a;
		ends[1] = b;
		box = crown_geom_bounds(ends, 2);
		nnear = crown_engine_terrain_near(e, &box, 0, &near);
		for (j = 0; j < nnear; j++) {
			f = &e->s->terrain[near[j]];
			if (f->type != CROWN_ROAD || !f->is_path ||
			    f->npts == 0)
				continue;
			nseg = f->npts > 1 ? f->npts - 1 : 1;
			for (seg = 0; seg < nseg; seg++) {
				if (!crown_geom_seg_capsule(&l, &h, a, b,
				    f->pts[seg], f->pts[seg + (f->npts > 1)],
				    f->width / 2))
					continue;
				crown_grow(&lo, &cap, k + 1, sizeof(*lo));
				crown_grow(&hi, &cap2, k + 1, sizeof(*hi));
				lo[k] = l;
				hi[k] = h;
				k++;
			}
		}
		/* sort the intervals by start (few: insertion) */
		for (j = 1; j < k; j++)
			for (seg = j; seg > 0 && lo[seg - 1] > lo[seg];
			    seg--) {
				t = lo[seg];
				lo[seg] = lo[seg - 1];
				lo[seg - 1] = t;
				t = hi[seg];
				hi[seg] = hi[seg - 1];
				hi[seg - 1] = t;
			}
		covered = 0;
		for (j = 0; j < k && lo[j] <= covered; j++)
			if (hi[j] > covered)
				covered = hi[j];
		ok = k > 0 && lo[0] <= 0 && covered >= 1;
	}
	free(lo);
	free(hi);
	return ok;
}

/*
 * R7.4: a holding unit may not move closer to any enemy: judged by where
 * the order would take it (its last point, facing as ordered), before any
 * die is rolled.
 */
static bool
holding_refuses(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_quad	q;
	struct crown_point	prev, dest;
	double			now;
	int			face;

	if (!u->holding || a->npath == 0)
		return false;
	crown_unit_footprint(&q, e->rules, u);
	now = crown_engine_nearest_enemy(e, u->side, &q);
	dest = a->path[a->npath - 1];
	prev = a->npath > 1 ? a->path[a->npath - 2] :
	    (struct crown_point){ u->x, u->y };
	face = u->facing;
	if (a->has_face)
		face = a->face;
	else if (prev.x != dest.x || prev.y != dest.y)
		face = crown_geom_bearing(prev, dest);
	unit_quad(&q, e->rules, u, dest, face);
	return crown_engine_nearest_enemy(e, u->side, &q) < now;
}

/* What stops any move order before the dice (R3.3, R4.3b, R7.4, R8.1). */
static bool
may_move(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	if (u->stuck) {
		crown_engine_skip(e, u, a, "R4.3", "it is stuck, and only "
		    "friendly units helping it can move it");
		return false;
	}
	if (crown_engine_tu(e, u)->moved) {
		crown_engine_skip(e, u, a, "R3.3", "it has already moved "
		    "this turn");
		return false;
	}
	if (u->skip_next) {
		crown_engine_skip(e, u, a, "R8.1", "it may not move in the "
		    "half-turn after its rout");
		return false;
	}
	if (holding_refuses(e, u, a)) {
		crown_engine_skip(e, u, a, "R7.4", "it is holding and may not "
		    "move closer to the enemy");
		return false;
	}
	return true;
}

int
crown_action_move(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	double			 gross, moved;
	size_t			 ev_i;
	bool			 road;
	char			*text;

	if (crown_is_artillery(u->type) && !u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "an unlimbered gun moves "
		    "only by manhandling");
		return 0;
	}
	if (!may_move(e, u, a))
		return e->error;
	/* R4.2: the bonus only when asked for and on a road all the way */
	road = a->road && legs_on_road(e, u, a->path, a->npath);
	ev_i = crown_engine_event(e, "move", u->id, "R4.1");
	crown_event_set(&crown_events_at(e->ev, ev_i)->order, "move");
	if (crown_move_roll(e, u, ev_i, CROWN_MOVE_NORMAL, road,
	    &gross) != 0)
		return e->error;
	move_core(e, u, ev_i, a->path, a->npath, gross, 0,
	    a->has_face ? a->face : -1, &moved, NULL);
	if (e->error == 0 && a->road && !road) {
		ev = crown_events_at(e->ev, ev_i);
		text = ev->text;
		ev->text = NULL;
		crown_event_set(&ev->text, "%s Its way did not lie on a road "
		    "all along, so it had no road bonus (R4.2).", text);
		free(text);
	}
	return e->error;
}

/* R6.6, R4.1: an unlimbered gun (or a wagon: R4.1 gives it a manhandle
 * distance) moves a fixed distance by hand.  It pays no terrain dice
 * (RULES.md gives manhandling none) but may not enter N/A terrain. */
int
crown_action_manhandle(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*r = e->rules;
	double				 moved;
	size_t				 ev_i;
	char				*d, *how;

	if (r->move[u->type].manhandle <= 0) {
		crown_engine_skip(e, u, a, "R4.1", "only guns and wagons are "
		    "manhandled");
		return 0;
	}
	if (crown_is_artillery(u->type) && u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "a limbered gun moves with "
		    "the movement table, not by hand");
		return 0;
	}
	if (!may_move(e, u, a))
		return e->error;
	ev_i = crown_engine_event(e, "move", u->id, "R6.6");
	crown_event_set(&crown_events_at(e->ev, ev_i)->order, "manhandle");
	d = crown_inches(r->move[u->type].manhandle);
	how = xasprintf("manhandled, %s inches", d);
	move_core(e, u, ev_i, a->path, a->npath, r->move[u->type].manhandle,
	    CROWN_MOVE_IGNORE_TERRAIN, a->has_face ? a->face : -1, &moved,
	    how);
	free(how);
	free(d);
	return e->error;
}

/* R6.6.  A gun travels unloaded: limbering unloads it (R3.6's guns that
 * start limbered are unloaded), so an unlimbered gun reloads before it
 * fires. */
int
crown_action_limber(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	if (!crown_is_artillery(u->type)) {
		crown_engine_skip(e, u, a, "R6.6", "only guns limber");
		return 0;
	}
	if (u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "it is limbered already");
		return 0;
	}
	i = crown_engine_event(e, "limber", u->id, "R6.6");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->result, "limbered");
	crown_event_set(&ev->text, "%s limbered up%s.", u->name, u->loaded ?
	    ", drawing the charge from its gun" : "");
	u->limbered = true;
	u->loaded = false;
	u->shots_fired = 0;
	crown_engine_unit_moved(e, u);
	return 0;
}

int
crown_action_unlimber(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	if (!crown_is_artillery(u->type)) {
		crown_engine_skip(e, u, a, "R6.6", "only guns unlimber");
		return 0;
	}
	if (!u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "it is unlimbered "
		    "already");
		return 0;
	}
	i = crown_engine_event(e, "unlimber", u->id, "R6.6");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->result, "unlimbered");
	crown_event_set(&ev->text, "%s unlimbered%s.", u->name, u->loaded ?
	    "" : "; it must load before it can fire");
	u->limbered = false;
	crown_engine_unit_moved(e, u);
	return 0;
}

/* R3.4: line or column; the front-edge centre stays where it is. */
int
crown_action_formation(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	i = crown_engine_event(e, "formation", u->id, "R3.4");
	ev = crown_events_at(e->ev, i);
	if (u->formation == a->formation) {
		crown_event_set(&ev->result, "unchanged");
		crown_event_set(&ev->text, "%s stayed in %s.", u->name,
		    crown_formation_names[u->formation]);
		return 0;
	}
	crown_event_set(&ev->result, "%s",
	    crown_formation_names[a->formation]);
	crown_event_set(&ev->text, "%s formed %s.", u->name,
	    crown_formation_names[a->formation]);
	u->formation = a->formation;
	crown_engine_unit_moved(e, u);
	return 0;
}

/*
 * R4.3 (b): the helper, within help_reach of the stuck gun or wagon,
 * hauls it stuck_move_per_stand inches for each of its stands, at once,
 * along the stuck unit's own move order of this turn if it has one, else
 * straight ahead; it keeps its facing.  No dice and no terrain dice (the
 * hauling is the slow crossing), but no N/A terrain, no nearer than 1 inch
 * to an enemy, and off the table it is lost.  The haul counts as the
 * helper's move and the stuck unit's (R3.3).  The unit comes free when a
 * haul leaves its footprint touching no terrain that sticks its type.
 */
int
crown_action_help(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*r = e->rules;
	const struct crown_action_order	*own;
	const struct crown_feature	*f;
	struct crown_unit		*t;
	struct crown_event		*ev;
	struct crown_quad		 qh, qt;
	struct crown_point		 ahead, dir;
	struct track			 tr;
	struct stop			 st;
	double				 d, dist;
	size_t				 i, ev_i;
	bool				 still;
	char				*s1, *s2, *s3;

	t = a->target != NULL ? crown_state_unit(e->s, a->target) : NULL;
	if (t == NULL || t->status == CROWN_LOST) {
		crown_engine_skip(e, u, a, "R2.2", "there is no such unit to "
		    "help any more");
		return 0;
	}
	/* R6.4: help to a gun that is not stuck makes good its crew */
	if (!t->stuck && crown_is_artillery(t->type))
		return crown_artillery_crew(e, u, t, a);
	if (!t->stuck) {
		crown_engine_skip(e, u, a, "R4.3", "'%s' is not stuck", t->id);
		return 0;
	}
	if (crown_engine_tu(e, u)->moved) {
		crown_engine_skip(e, u, a, "R3.3", "it has already moved "
		    "this turn");
		return 0;
	}
	crown_unit_footprint(&qh, r, u);
	crown_unit_footprint(&qt, r, t);
	if ((dist = crown_geom_dist_quad(&qh, &qt)) > r->help_reach) {
		s1 = crown_inches(dist);
		s2 = crown_inches(r->help_reach);
		crown_engine_skip(e, u, a, "R4.3", "'%s' is %s inches away; "
		    "helpers must be within %s", t->id, s1, s2);
		free(s1);
		free(s2);
		return 0;
	}
	d = r->stuck_move_per_stand * crown_unit_stands(u);
	own = own_move(e, t);
	if (own != NULL)
		track_init(&tr, e->s, r, (struct crown_point){ t->x, t->y },
		    &qt, own->path, own->npath);
	else {
		dir = crown_geom_dir(t->facing);
		ahead.x = t->x + dir.x * d;
		ahead.y = t->y + dir.y * d;
		track_init(&tr, e->s, r, (struct crown_point){ t->x, t->y },
		    &qt, &ahead, 1);
	}
	add_enemy_blockers(&tr, e, t, false);
	add_terrain_blockers(&tr, e, t->type);
	if (!off_table(e->s, (struct crown_point){ t->x + tr.coff.x,
	    t->y + tr.coff.y }))
		add_blocker(&tr, BLOCK_EDGE);
	track_run(&tr, d < tr.len ? d : tr.len, &st);

	crown_engine_tu(e, u)->moved = true;
	crown_engine_tu(e, u)->moved_this_half = true;
	crown_engine_tu(e, t)->moved = true;
	crown_engine_tu(e, t)->moved_this_half = true;
	ev_i = crown_engine_event(e, "help", u->id, "R4.3");
	ev = crown_events_at(e->ev, ev_i);
	crown_event_set(&ev->order, "help");
	ev->target = xstrdup(t->id);
	ev->has_from = ev->has_to = true;
	ev->from.x = t->x;
	ev->from.y = t->y;
	ev->to = st.at;
	t->x = st.at.x;
	t->y = st.at.y;
	crown_engine_unit_moved(e, t);
	crown_unit_footprint(&qt, r, t);
	still = false;
	for (i = 0; i < e->s->nterrain; i++) {
		f = &e->s->terrain[i];
		if (r->terrain_move[f->type][t->type].stuck &&
		    feature_touches(f, qt.c, 4))
			still = true;
	}
	if (st.by != NULL && st.by->kind == BLOCK_EDGE) {
		t->status = CROWN_LOST;
		still = false;
	}
	t->stuck = still;
	crown_event_set(&ev->result, "%s", st.by != NULL &&
	    st.by->kind == BLOCK_EDGE ? "lost" : still ? "still_stuck" :
	    "freed");
	s1 = crown_inches(st.s);
	s2 = crown_inches(d);
	s3 = crown_inches(r->stuck_move_per_stand);
	crown_event_set(&ev->text, "%s hauled %s %s inch%s %s (%d stand%s x "
	    "%s inch%s, up to %s inches)%s", u->name, t->name, s1,
	    strcmp(s1, "1") == 0 ? "" : "es", st.s > 0 ?
	    crown_geom_compass(crown_geom_bearing(ev->from, ev->to)) :
	    "forward", crown_unit_stands(u),
	    crown_unit_stands(u) == 1 ? "" : "s", s3,
	    strcmp(s3, "1") == 0 ? "" : "es", s2,
	    st.by != NULL && st.by->kind == BLOCK_EDGE ?
	    "; it was dragged off the table and is out of the game." :
	    still ? "; it is still stuck." : "; it is free.");
	free(s1);
	free(s2);
	free(s3);
	if (st.by != NULL && st.by->kind == BLOCK_EDGE) {
		i = crown_engine_event(e, "lost", t->id, "R4.5");
		crown_event_set(&crown_events_at(e->ev, i)->text,
		    "%s left the table and is out of the game.", t->name);
	}
	track_free(&tr);
	return e->error;
}

/*
 * Validation (R4.3), before any die: the footprint carried along the
 * whole path, and turned to its final facing at the end, may not touch
 * terrain N/A for its type, other than terrain it already touches.
 */
int
crown_move_validate(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_action_order *a, const struct crown_geom_grid *terrain,
    char **why)
{
	const struct crown_feature	*f;
	struct crown_quad		 q0, qf, qi;
	struct crown_point		 start, prev, dest;
	struct crown_geom_box		 box, fb;
	struct track			 t;
	int				*near = NULL;
	size_t				 i, n, cap = 0;
	int				 face;

	*why = NULL;
	if (a->npath == 0)
		return 0;
	start.x = u->x;
	start.y = u->y;
	crown_unit_footprint(&q0, rules, u);
	track_init(&t, s, rules, start, &q0, a->path, a->npath);
	dest = a->path[a->npath - 1];
	prev = a->npath > 1 ? a->path[a->npath - 2] : start;
	face = u->facing;
	if (a->has_face)
		face = a->face;
	else if (prev.x != dest.x || prev.y != dest.y)
		face = crown_geom_bearing(prev, dest);
	unit_quad(&qf, rules, u, dest, face);
	quad_inset(&qi, &qf);
	n = s->nterrain;
	if (terrain != NULL) {
		/* what the swept track and the final footprint may touch */
		box = track_box(&t);
		fb = crown_geom_bounds(qf.c, 4);
		box.minx = fmin(box.minx, fb.minx);
		box.miny = fmin(box.miny, fb.miny);
		box.maxx = fmax(box.maxx, fb.maxx);
		box.maxy = fmax(box.maxy, fb.maxy);
		n = crown_geom_grid_query(&near, &cap, terrain, &box);
	}
	for (i = 0; i < n && *why == NULL; i++) {
		f = &s->terrain[near != NULL ? (size_t)near[i] : i];
		if (!rules->terrain_move[f->type][u->type].na ||
		    feature_touches(f, t.qin.c, 4))
			continue;
		if (feature_swept(&t, f, t.len, true) ||
		    feature_touches(f, qi.c, 4))
			*why = xasprintf("'%s' may not enter %s (%s is N/A "
			    "for %s)", u->id, feature_name(f),
			    crown_terrain_names[f->type],
			    crown_utype_names[u->type]);
	}
	free(near);
	track_free(&t);
	return *why != NULL ? CROWN_EINVALID : 0;
}

/*
 * R4.6: a leader walks straight, at most `budget` inches, and stops short
 * of terrain N/A for cavalry (other than terrain he stands in).
 */
struct crown_point
crown_move_leader_walk(const struct crown_state *s,
    const struct crown_rules *rules, struct crown_point from,
    struct crown_point to, double budget,
    const struct crown_feature **blocked)
{
	struct crown_quad	q;
	struct track		t;
	struct stop		st;
	int			i;

	for (i = 0; i < 4; i++)
		q.c[i] = from;
	track_init(&t, s, rules, from, &q, &to, 1);
	add_terrain_blockers(&t, NULL, CROWN_CAVALRY);
	track_run(&t, budget < t.len ? budget : t.len, &st);
	*blocked = st.by != NULL ? st.by->f : NULL;
	track_free(&t);
	return st.at;
}

int
crown_move_validate_leader(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_leader *ld,
    const struct crown_leader_orders *lo, char **why)
{
	const struct crown_feature	*f;

	*why = NULL;
	if (!lo->has_move)
		return 0;
	crown_move_leader_walk(s, rules, crown_leader_pos(s, ld), lo->to,
	    rules->leader_move, &f);
	if (f == NULL)
		return 0;
	*why = xasprintf("leader '%s' may not cross %s (%s is N/A for "
	    "cavalry)", ld->id, feature_name(f),
	    crown_terrain_names[f->type]);
	return CROWN_EINVALID;
}
