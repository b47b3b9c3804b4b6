/*
 * track.c: a footprint carried along a path (R4).  The engine's moves
 * (move.c), the order checks (orders.c: R4.3) and leaders' walks (R4.6)
 * all go through it; it knows the state and the rules, not the engine.
 *
 * A move is a track: the unit's position, then the ordered points.  The
 * footprint is carried along the track without turning (geom.c's sweeps)
 * and takes its final facing at the end.  What can cut a move short is a
 * list of blockers, each a condition that, once met somewhere along the
 * first s inches, stays met for every longer s: coming within 1 inch of
 * an enemy (R4.5) or crossing into one (R4.7), touching one (a charge,
 * R9.1), entering terrain the unit may not enter (R4.3), or the
 * footprint's centre leaving the table (R4.5).  The first point each is
 * met is found by bisection, which needs nothing but that monotony, and
 * the unit stops at the earliest.
 *
 * Friends may be passed through, not ended on (R4.7), and so may a
 * building another side holds (R11.1: its cover is the holders'): from
 * where the blockers stop it the unit is drawn back to the last point of
 * its path clear of every unit, with its centre out of such buildings.
 * Along one straight leg the points where the footprint overlaps a given
 * unit are one interval (both are convex), so the way back crosses each
 * (unit, leg) at most once, found by bisection.
 *
 * Positions are kept to hundredths of an inch (state.c), so a stopping
 * point is rounded, then stepped back a hundredth at a time until the
 * rounded footprint satisfies every blocker too.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/track.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static size_t	subpath(struct crown_point **, const struct crown_track *,
		    double, double);
static double	sweep_dist(const struct crown_track *, double, double,
		    const struct crown_quad *);
static bool	edge_crossed(const struct crown_track *, double);
static struct crown_geom_box sweep_box(const struct crown_track *);
static bool	violated(const struct crown_track *,
		    const struct crown_blocker *, double);
static bool	clear_at(const struct crown_track *, const struct crown_quad *,
		    struct crown_point, const struct crown_blocker *);
static void	inset_by(struct crown_quad *, const struct crown_quad *,
		    double);
static bool	is_unit(const struct crown_blocker *);
static bool	on_unit(const struct crown_rules *,
		    const struct crown_quad *, const struct crown_geom_box *,
		    const struct crown_blocker *);
static bool	ends_on_quad(const struct crown_track *,
		    const struct crown_blocker *, const struct crown_quad *,
		    const struct crown_geom_box *);
static bool	ends_on(const struct crown_track *,
		    const struct crown_blocker *, double);
static void	bisect(const struct crown_track *,
		    const struct crown_blocker *,
		    bool (*)(const struct crown_track *,
		    const struct crown_blocker *, double), double *, double *);
static bool	held_at(const struct crown_blocker *,
		    const struct crown_quad *);
static double	draw_back(const struct crown_track *, double,
		    const struct crown_blocker **);

void
crown_track_init(struct crown_track *t, const struct crown_state *s,
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
	crown_track_inset(&t->qin, q0);
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
	t->box = sweep_box(t);
}

void
crown_track_free(struct crown_track *t)
{
	free(t->pts);
	free(t->cum);
	free(t->b);
}

struct crown_point
crown_track_at(const struct crown_track *t, double s)
{
	return crown_geom_path_point(t->pts, t->m, s);
}

/* The start footprint carried to p. */
void
crown_track_quad_at(struct crown_quad *out, const struct crown_track *t,
    struct crown_point p)
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
subpath(struct crown_point **out, const struct crown_track *t, double s0,
    double s1)
{
	size_t	i, k;

	*out = xreallocarray(NULL, t->m + 2, sizeof(**out));
	k = 0;
	(*out)[k++] = crown_track_at(t, s0);
	for (i = 1; i < t->m; i++)
		if (t->cum[i] > s0 && t->cum[i] < s1)
			(*out)[k++] = t->pts[i];
	if (s1 > s0)
		(*out)[k++] = crown_track_at(t, s1);
	return k;
}

/* Least distance from q to the footprint swept from s0 to s1. */
static double
sweep_dist(const struct crown_track *t, double s0, double s1,
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
	crown_track_quad_at(&qs, t, sp[0]);
	d = crown_geom_sweep_dist_poly(&qs, sp, k, HUGE_VAL, q->c, 4);
	free(sp);
	return d;
}

void
crown_track_inset(struct crown_quad *out, const struct crown_quad *q)
{
	inset_by(out, q, CROWN_TRACK_INSET);
}

/* q shrunk by d on every side; a footprint too thin (or a leader's point)
 * is left as it is. */
static void
inset_by(struct crown_quad *out, const struct crown_quad *q, double d)
{
	double	ax, ay, al, rx, ry, rl;

	*out = *q;
	ax = q->c[0].x - q->c[3].x;
	ay = q->c[0].y - q->c[3].y;
	rx = q->c[1].x - q->c[0].x;
	ry = q->c[1].y - q->c[0].y;
	al = sqrt(ax * ax + ay * ay);
	rl = sqrt(rx * rx + ry * ry);
	if (!(al > 4 * d) || !(rl > 4 * d))
		return;
	ax = ax / al * d;
	ay = ay / al * d;
	rx = rx / rl * d;
	ry = ry / rl * d;
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
bool
crown_track_feature_swept(const struct crown_track *t,
    const struct crown_feature *f, double s, bool inset)
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

bool
crown_track_feature_touches(const struct crown_feature *f,
    const struct crown_point *p, size_t n)
{
	if (f->npts == 0)
		return false;
	if (f->is_path)
		return crown_geom_poly_touches_polyline(p, n, f->pts, f->npts,
		    f->width);
	return crown_geom_poly_intersect(p, n, f->pts, f->npts);
}

/* Strictly outside the table: its edges are on it (R13.1). */
bool
crown_track_off_table(const struct crown_state *s, struct crown_point p)
{
	return p.x < 0 || p.x > s->width || p.y < 0 || p.y > s->height;
}

/* The footprint's centre leaves the table within the first s inches. */
static bool
edge_crossed(const struct crown_track *t, double s)
{
	struct crown_point	p;
	size_t			i;

	/* The table is convex: a leg leaves it only if an end does. */
	for (i = 1; i < t->m && t->cum[i] < s; i++) {
		p.x = t->pts[i].x + t->coff.x;
		p.y = t->pts[i].y + t->coff.y;
		if (crown_track_off_table(t->s, p))
			return true;
	}
	p = crown_track_at(t, s);
	p.x += t->coff.x;
	p.y += t->coff.y;
	return crown_track_off_table(t->s, p);
}

/* Bounding box of all the footprint sweeps along the whole track: the
 * engine asks for it once for the units near a move and again for each
 * look at the terrain, so it is worked out once, by crown_track_init. */
struct crown_geom_box
crown_track_box(const struct crown_track *t)
{
	return t->box;
}

static struct crown_geom_box
sweep_box(const struct crown_track *t)
{
	struct crown_geom_box	b, c;
	struct crown_quad	q;
	size_t			i;

	b = crown_geom_bounds(t->q0.c, 4);
	for (i = 1; i < t->m; i++) {
		crown_track_quad_at(&q, t, t->pts[i]);
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

struct crown_blocker *
crown_track_add_blocker(struct crown_track *t, enum crown_block_kind kind)
{
	struct crown_blocker	*b;

	crown_grow(&t->b, &t->capb, t->nb + 1, sizeof(*t->b));
	b = &t->b[t->nb++];
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	return b;
}

/* How far beyond a track's box an enemy may stand and still matter: the
 * final wheel swings the footprint at most its width + depth. */
double
crown_track_enemy_reach(const struct crown_track *t)
{
	return t->rules->stop_short + crown_geom_dist(t->q0.c[0],
	    t->q0.c[1]) + crown_geom_dist(t->q0.c[1], t->q0.c[2]);
}

/*
 * R4.5: an ordinary move may not bring the footprint within stop_short of
 * an enemy; a unit already that close may not come any closer, and may
 * draw off.  R4.7: nor may it cross into an enemy (one it touches at the
 * start included); friends it may cross, not end on.  A charge (contact)
 * stops at the first enemy it touches instead.  Lost units (abandoned
 * guns among them, markers of R6.5) take no room.
 */
void
crown_track_add_units(struct crown_track *t, const struct crown_unit *u,
    const size_t *idx, size_t n, bool contact)
{
	const struct crown_unit	*v;
	struct crown_blocker	*b;
	double			 d0;
	size_t			 i;
	bool			 friend;

	if (idx == NULL)
		n = t->s->nunits;
	/* room for them all, and the table's edge, at once */
	crown_grow(&t->b, &t->capb, t->nb + n + 1, sizeof(*t->b));
	for (i = 0; i < n; i++) {
		v = &t->s->units[idx != NULL ? idx[i] : i];
		if (v == u || !crown_unit_on_table(v))
			continue;
		friend = strcmp(v->side, u->side) == 0;
		b = crown_track_add_blocker(t, friend ? CROWN_BLOCK_FRIEND :
		    contact ? CROWN_BLOCK_CONTACT : CROWN_BLOCK_ENEMY);
		b->enemy = v;
		crown_unit_footprint(&b->q, t->rules, v);
		b->box = crown_geom_bounds(b->q.c, 4);
		if (friend || contact)
			continue;
		d0 = crown_geom_dist_quad(&t->q0, &b->q);
		b->thr = d0 < t->rules->stop_short ? d0 : t->rules->stop_short;
		b->cross = crown_unit_crossing(&t->q0, &b->q);
	}
}

/* R4.3: terrain N/A for the type among features idx[0..n-1] (NULL:
 * every feature), except what the unit stands in. */
void
crown_track_add_terrain(struct crown_track *t, const size_t *idx, size_t n,
    enum crown_utype type)
{
	const struct crown_feature	*f;
	struct crown_blocker		*b;
	size_t				 i;

	if (idx == NULL)
		n = t->s->nterrain;
	for (i = 0; i < n; i++) {
		f = &t->s->terrain[idx != NULL ? idx[i] : i];
		if (!t->rules->terrain_move[f->type][type].na ||
		    crown_track_feature_touches(f, t->qin.c, 4))
			continue;
		b = crown_track_add_blocker(t, CROWN_BLOCK_TERRAIN);
		b->f = f;
	}
}

void
crown_track_add_held(struct crown_track *t, const struct crown_feature *f,
    const struct crown_unit *holder)
{
	struct crown_blocker	*b;

	b = crown_track_add_blocker(t, CROWN_BLOCK_HELD);
	b->f = f;
	b->enemy = holder;
}

/* The footprint q has its centre in held building b (R5.5's "in"). */
static bool
held_at(const struct crown_blocker *b, const struct crown_quad *q)
{
	return crown_geom_point_in_poly(crown_geom_quad_centre(q), b->f->pts,
	    b->f->npts);
}

/* The blocker's condition is met somewhere in the first s inches. */
static bool
violated(const struct crown_track *t, const struct crown_blocker *b, double s)
{
	struct crown_quad	qc;

	switch (b->kind) {
	case CROWN_BLOCK_ENEMY:
		if (sweep_dist(t, 0, s, &b->q) < b->thr)
			return true;
		/* crossing in deeper than at the start: what is left of the
		 * footprint less that depth touches the enemy */
		inset_by(&qc, &t->q0, b->cross + CROWN_OVERLAP_SLACK);
		return crown_geom_sweep_touches_poly(&qc, t->pts, t->m, s,
		    b->q.c, 4);
	case CROWN_BLOCK_CONTACT:
		return !(sweep_dist(t, 0, s, &b->q) > 0);
	case CROWN_BLOCK_FRIEND:
	case CROWN_BLOCK_HELD:
		return false;
	case CROWN_BLOCK_TERRAIN:
		return crown_track_feature_swept(t, b->f, s, true);
	case CROWN_BLOCK_EDGE:
		return edge_crossed(t, s);
	}
	return false;
}

static bool
is_unit(const struct crown_blocker *b)
{
	return b->kind == CROWN_BLOCK_ENEMY ||
	    b->kind == CROWN_BLOCK_CONTACT || b->kind == CROWN_BLOCK_FRIEND;
}

/* The footprint q, of bounds qb, overlaps unit b (R4.7).  Most of a
 * track's units are nowhere near the point asked about: the boxes say
 * so before the projections are worked out. */
static bool
on_unit(const struct crown_rules *rules, const struct crown_quad *q,
    const struct crown_geom_box *qb, const struct crown_blocker *b)
{
	return is_unit(b) && !crown_unit_boxes_apart(qb, &b->box) &&
	    crown_unit_quads_overlap(rules, q, &b->q);
}

/* The footprint q at p meets every blocker but `skip`, and overlaps no
 * unit, skip's included (R4.7). */
static bool
clear_at(const struct crown_track *t, const struct crown_quad *q,
    struct crown_point p, const struct crown_blocker *skip)
{
	const struct crown_blocker	*b;
	struct crown_geom_box		 qb;
	struct crown_quad		 qi;
	size_t				 i;

	crown_track_inset(&qi, q);
	qb = crown_geom_bounds(q->c, 4);
	for (i = 0; i < t->nb; i++) {
		b = &t->b[i];
		if (on_unit(t->rules, q, &qb, b))
			return false;
		if (b == skip)
			continue;
		switch (b->kind) {
		case CROWN_BLOCK_ENEMY:
			if (crown_geom_dist_quad(q, &b->q) < b->thr ||
			    crown_unit_crossing(q, &b->q) > b->cross +
			    CROWN_OVERLAP_SLACK)
				return false;
			break;
		case CROWN_BLOCK_CONTACT:
		case CROWN_BLOCK_FRIEND:
			break;
		case CROWN_BLOCK_HELD:
			/* a charger in contact fights the holders where it
			 * stands (R9.1) */
			if ((skip == NULL || skip->kind != CROWN_BLOCK_CONTACT)
			    && held_at(b, q))
				return false;
			break;
		case CROWN_BLOCK_TERRAIN:
			if (crown_track_feature_touches(b->f, qi.c, 4))
				return false;
			break;
		case CROWN_BLOCK_EDGE:
			p.x += t->coff.x;
			p.y += t->coff.y;
			if (crown_track_off_table(t->s, p))
				return false;
			break;
		}
	}
	return true;
}

/* Narrow [*lo, *hi] to where met(t, b, s) turns true: false at *lo, true
 * at *hi. */
static void
bisect(const struct crown_track *t, const struct crown_blocker *b,
    bool (*met)(const struct crown_track *, const struct crown_blocker *,
    double), double *lo, double *hi)
{
	double	mid;
	int	k;

	for (k = 0; k < CROWN_TRACK_BISECT_STEPS && *hi - *lo > 0; k++) {
		mid = *lo + (*hi - *lo) / 2;
		if (mid <= *lo || mid >= *hi)
			break;
		if (met(t, b, mid))
			*hi = mid;
		else
			*lo = mid;
	}
}

/* The footprint q, of bounds qb, may not end there for b: it overlaps
 * unit b (R4.7), or has its centre in held building b (R11.1). */
static bool
ends_on_quad(const struct crown_track *t, const struct crown_blocker *b,
    const struct crown_quad *q, const struct crown_geom_box *qb)
{
	if (b->kind == CROWN_BLOCK_HELD)
		return held_at(b, q);
	return on_unit(t->rules, q, qb, b);
}

/* The same for the footprint s inches along. */
static bool
ends_on(const struct crown_track *t, const struct crown_blocker *b, double s)
{
	struct crown_geom_box	qb;
	struct crown_quad	q;

	crown_track_quad_at(&q, t, crown_track_at(t, s));
	qb = crown_geom_bounds(q.c, 4);
	return ends_on_quad(t, b, &q, &qb);
}

/*
 * R4.7: the last point at or before s where the footprint overlaps no
 * unit, nor has its centre in a held building (R11.1).  *by: the unit or
 * building it was first drawn back off (unchanged if none).
 */
static double
draw_back(const struct crown_track *t, double s,
    const struct crown_blocker **by)
{
	const struct crown_blocker	*b;
	struct crown_geom_box		 qb;
	struct crown_quad		 q;
	double				 lo, hi;
	size_t				 i, leg, iter;

	for (iter = 0; iter < (t->nb + 1) * t->m + 1 && s > 0; iter++) {
		/* the footprint at s, once for every blocker */
		crown_track_quad_at(&q, t, crown_track_at(t, s));
		qb = crown_geom_bounds(q.c, 4);
		for (i = 0, b = NULL; i < t->nb && b == NULL; i++)
			if (ends_on_quad(t, &t->b[i], &q, &qb))
				b = &t->b[i];
		if (b == NULL)
			return s;
		if (iter == 0)
			*by = b;
		/* the leg s is on: cum[leg - 1] < s <= cum[leg] */
		for (leg = 1; leg + 1 < t->m && t->cum[leg] < s; leg++)
			continue;
		lo = t->cum[leg - 1];
		if (ends_on(t, b, lo)) {
			s = lo;
			continue;
		}
		hi = s;
		bisect(t, b, ends_on, &lo, &hi);
		s = lo;
	}
	return s > 0 ? s : 0;
}

/*
 * Move along the track as far as `travel` inches or the first blocker.
 * The stopping point is rounded to hundredths; a rounded point that a
 * blocker would not allow is stepped back along the track.  A charge
 * that makes contact is stepped forward instead, so that the footprints
 * touch after rounding (they may cross by a hundredth, R4.7).  A point
 * on a friend is drawn back off it (R4.7).
 */
void
crown_track_run(const struct crown_track *t, double travel,
    struct crown_stop *out)
{
	const struct crown_blocker	*b, *skip;
	struct crown_quad		 q;
	struct crown_point		 p;
	double				 best, best_hi, lo, hi, s;
	size_t				 i;
	int				 k;

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
		bisect(t, b, violated, &lo, &hi);
		if (lo < best || (out->by == NULL && lo <= best)) {
			best = lo;
			best_hi = hi;
			out->by = b;
		}
	}
	if (out->by != NULL && out->by->kind == CROWN_BLOCK_CONTACT) {
		for (k = 0; k <= 8; k++) {
			s = best_hi + k * (CROWN_TRACK_STEP / 2);
			if (s > t->len)
				s = t->len;
			p = crown_track_at(t, s);
			p.x = crown_round2(p.x);
			p.y = crown_round2(p.y);
			crown_track_quad_at(&q, t, p);
			if (crown_geom_dist_quad(&q, &out->by->q) == 0 &&
			    clear_at(t, &q, p, out->by)) {
				out->s = s;
				out->at = p;
				return;
			}
		}
	}
	best = draw_back(t, best, &out->by);
	skip = out->by != NULL && out->by->kind == CROWN_BLOCK_EDGE ?
	    out->by : NULL;
	out->s = 0;
	out->at = t->pts[0];
	for (k = 0; k < CROWN_TRACK_BACKOFF_STEPS; k++) {
		s = best - k * CROWN_TRACK_STEP;
		if (s <= 0)
			break;
		p = crown_track_at(t, s);
		p.x = crown_round2(p.x);
		p.y = crown_round2(p.y);
		crown_track_quad_at(&q, t, p);
		if (clear_at(t, &q, p, skip)) {
			/* rounded back onto the start: it did not move */
			out->s = p.x == t->pts[0].x && p.y == t->pts[0].y ?
			    0 : s;
			out->at = p;
			break;
		}
	}
	/* a charge drawn back out of contact made none */
	if (out->by != NULL && out->by->kind == CROWN_BLOCK_CONTACT) {
		crown_track_quad_at(&q, t, out->at);
		if (crown_geom_dist_quad(&q, &out->by->q) > CROWN_CONTACT)
			out->by = NULL;
	}
}

/* Bearing of the leg the track is on at s (s > 0). */
int
crown_track_leg_bearing(const struct crown_track *t, double s)
{
	size_t	i;

	for (i = 1; i + 1 < t->m && t->cum[i] < s; i++)
		continue;
	for (; i > 1 && t->cum[i] == t->cum[i - 1]; i--)
		continue;
	return crown_geom_bearing(t->pts[i - 1], t->pts[i]);
}

/* u's footprint at p facing `facing`. */
void
crown_track_unit_quad(struct crown_quad *out, const struct crown_rules *rules,
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
bool
crown_track_turn_ok(const struct crown_track *t,
    const struct crown_rules *rules, const struct crown_unit *u,
    struct crown_point p, int facing, const struct crown_blocker *keep)
{
	const struct crown_blocker	*b;
	struct crown_geom_box		 qb;
	struct crown_quad		 qn, qo, qi;
	struct crown_point		 c;
	double				 lim, d;
	size_t				 i;

	crown_track_unit_quad(&qn, rules, u, p, facing);
	crown_track_inset(&qi, &qn);
	qb = crown_geom_bounds(qn.c, 4);
	crown_track_quad_at(&qo, t, p);
	if (keep != NULL &&
	    crown_geom_dist_quad(&qn, &keep->q) > CROWN_CONTACT)
		return false;
	for (i = 0; i < t->nb; i++) {
		b = &t->b[i];
		if (on_unit(rules, &qn, &qb, b))
			return false;
		switch (b->kind) {
		case CROWN_BLOCK_ENEMY:
			lim = b->thr;
			if ((d = crown_geom_dist_quad(&qo, &b->q)) < lim)
				lim = d;
			if (crown_geom_dist_quad(&qn, &b->q) < lim)
				return false;
			lim = b->cross;
			if ((d = crown_unit_crossing(&qo, &b->q)) > lim)
				lim = d;
			if (crown_unit_crossing(&qn, &b->q) > lim +
			    CROWN_OVERLAP_SLACK)
				return false;
			break;
		case CROWN_BLOCK_CONTACT:
		case CROWN_BLOCK_FRIEND:
			break;
		case CROWN_BLOCK_HELD:
			if (held_at(b, &qn))
				return false;
			break;
		case CROWN_BLOCK_TERRAIN:
			if (crown_track_feature_touches(b->f, qi.c, 4))
				return false;
			break;
		case CROWN_BLOCK_EDGE:
			c = crown_geom_quad_centre(&qn);
			if (crown_track_off_table(t->s, c))
				return false;
			break;
		}
	}
	return true;
}

const char *
crown_track_feature_name(const struct crown_feature *f)
{
	return f->name != NULL ? f->name : f->id;
}

/*
 * Validation (R4.3), before any die: the footprint carried along the
 * whole path, and turned to its final facing at the end, may not touch
 * terrain N/A for its type, other than terrain it already touches.
 */
int
crown_track_validate(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_action_order *a, const struct crown_geom_grid *terrain,
    char **why)
{
	const struct crown_feature	*f;
	struct crown_quad		 q0, qf, qi;
	struct crown_point		 start, prev, dest;
	struct crown_geom_box		 box, fb;
	struct crown_track		 t;
	int				*near = NULL;
	size_t				 i, n, cap = 0;
	int				 face;

	*why = NULL;
	if (a->npath == 0)
		return 0;
	start.x = u->x;
	start.y = u->y;
	crown_unit_footprint(&q0, rules, u);
	crown_track_init(&t, s, rules, start, &q0, a->path, a->npath);
	dest = a->path[a->npath - 1];
	prev = a->npath > 1 ? a->path[a->npath - 2] : start;
	face = u->facing;
	if (a->has_face)
		face = a->face;
	else if (prev.x != dest.x || prev.y != dest.y)
		face = crown_geom_bearing(prev, dest);
	crown_track_unit_quad(&qf, rules, u, dest, face);
	crown_track_inset(&qi, &qf);
	n = s->nterrain;
	if (terrain != NULL) {
		/* what the swept track and the final footprint may touch */
		box = crown_track_box(&t);
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
		    crown_track_feature_touches(f, t.qin.c, 4))
			continue;
		if (crown_track_feature_swept(&t, f, t.len, true) ||
		    crown_track_feature_touches(f, qi.c, 4))
			*why = xasprintf("'%s' may not enter %s (%s is N/A "
			    "for %s)", u->id, crown_track_feature_name(f),
			    crown_terrain_names[f->type],
			    crown_utype_names[u->type]);
	}
	free(near);
	crown_track_free(&t);
	return *why != NULL ? CROWN_EINVALID : 0;
}

/*
 * R4.6: a leader walks straight, at most `budget` inches, and stops short
 * of terrain N/A for cavalry (other than terrain he stands in).
 */
struct crown_point
crown_track_leader_walk(const struct crown_state *s,
    const struct crown_rules *rules, struct crown_point from,
    struct crown_point to, double budget,
    const struct crown_feature **blocked)
{
	struct crown_quad	q;
	struct crown_track	t;
	struct crown_stop	st;
	int			i;

	for (i = 0; i < 4; i++)
		q.c[i] = from;
	crown_track_init(&t, s, rules, from, &q, &to, 1);
	crown_track_add_terrain(&t, NULL, 0, CROWN_CAVALRY);
	crown_track_run(&t, budget < t.len ? budget : t.len, &st);
	*blocked = st.by != NULL ? st.by->f : NULL;
	crown_track_free(&t);
	return st.at;
}

int
crown_track_validate_leader(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_leader *ld,
    const struct crown_leader_orders *lo, char **why)
{
	const struct crown_feature	*f;

	*why = NULL;
	if (!lo->has_move)
		return 0;
	crown_track_leader_walk(s, rules, crown_leader_pos(s, ld), lo->to,
	    rules->leader_move, &f);
	if (f == NULL)
		return 0;
	*why = xasprintf("leader '%s' may not cross %s (%s is N/A for "
	    "cavalry)", ld->id, crown_track_feature_name(f),
	    crown_terrain_names[f->type]);
	return CROWN_EINVALID;
}
