/*
 * unit.c: facts about one unit that the rules look up again and again:
 * its figures and stands (R1.3), its footprint on the table (R1.2), what
 * an action costs it (R3.3, R3.5), and casualties taken from it (R1.3).
 */
#include <math.h>
#include <stdbool.h>

#include "crown/geom.h"
#include "crown/types.h"
#include "crown/unit.h"

int
crown_unit_figures(const struct crown_unit *u)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < u->nstands; i++)
		n += u->stands[i];
	return n;
}

int
crown_unit_stands(const struct crown_unit *u)
{
	size_t	i;
	int	n = 0;

	/* counted without a branch: every footprint asks */
	for (i = 0; i < u->nstands; i++)
		n += u->stands[i] > 0;
	return n;
}

int
crown_unit_take_casualties(struct crown_unit *u, int figures)
{
	int	taken = 0, k;

	/* R1.3: from the last stand of the list first */
	while (figures > 0 && u->nstands > 0) {
		k = u->stands[u->nstands - 1];
		if (k > figures)
			k = figures;
		u->stands[u->nstands - 1] -= k;
		figures -= k;
		taken += k;
		if (u->stands[u->nstands - 1] == 0)
			u->nstands--;
	}
	if (u->nstands == 0)
		u->status = CROWN_LOST;
	return taken;
}

/* R1.2: stands laid out, and a stand's depth (limbered guns deeper). */
static int
laid_out(const struct crown_rules *rules, const struct crown_unit *u,
    double *sdepth)
{
	int	n;

	*sdepth = rules->footprint[u->type].depth;
	if (crown_is_artillery(u->type) && u->limbered)
		*sdepth = rules->limbered_depth;
	/* R1.2: a gun with its crew is one stand, whatever its figures */
	n = crown_is_artillery(u->type) ? 1 : crown_unit_stands(u);
	return n < 1 ? 1 : n;
}

void
crown_unit_footprint(struct crown_quad *out, const struct crown_rules *rules,
    const struct crown_unit *u)
{
	double	width, depth, sdepth;
	int	n;

	n = laid_out(rules, u, &sdepth);
	crown_geom_formation_size(&width, &depth, u->formation, n,
	    rules->footprint[u->type].frontage, sdepth,
	    rules->footprint[u->type].gap);
	crown_geom_footprint(out, (struct crown_point){ u->x, u->y },
	    u->facing, width, depth);
}

int
crown_unit_stand_footprints(struct crown_quad *out, size_t max,
    const struct crown_rules *rules, const struct crown_unit *u)
{
	struct crown_point	ahead, right, at;
	double			width, depth, sdepth, f, gap, off;
	int			n, i;

	n = laid_out(rules, u, &sdepth);
	f = rules->footprint[u->type].frontage;
	gap = rules->footprint[u->type].gap;
	crown_geom_formation_size(&width, &depth, u->formation, n, f, sdepth,
	    gap);
	ahead = crown_geom_dir(u->facing);
	right = crown_geom_dir(crown_geom_norm(u->facing) + 90);
	for (i = 0; i < n && (size_t)i < max; i++) {
		/* the front edge's centre of stand i: along the line from
		 * the left, or file by file back from the front */
		if (u->formation == CROWN_COLUMN) {
			off = i * (sdepth + gap);
			at.x = u->x - ahead.x * off;
			at.y = u->y - ahead.y * off;
		} else {
			off = -width / 2 + f / 2 + i * (f + gap);
			at.x = u->x + right.x * off;
			at.y = u->y + right.y * off;
		}
		crown_geom_footprint(&out[i], at, u->facing, f, sdepth);
	}
	return n;
}

/* fmin and fmax, which the compiler leaves to calls into libm: the one
 * that is not NaN, else the lesser (greater; negation is exact).  Which
 * of two zeros comes back does not matter here. */
static double
least(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return b < a ? b : a;
}

static double
most(double a, double b)
{
	return -least(-a, -b);
}

/* The least overlap of a's and b's projections on the normals of p's
 * edges; negative when an axis parts them. */
static double
axis_crossing(const struct crown_quad *p, const struct crown_quad *a,
    const struct crown_quad *b)
{
	double	nx, ny, len, v, amin, amax, bmin, bmax, o;
	double	best = HUGE_VAL;
	int	i, k;

	for (i = 0; i < 2; i++) {
		/* a rectangle has two edge directions */
		nx = -(p->c[i + 1].y - p->c[i].y);
		ny = p->c[i + 1].x - p->c[i].x;
		len = sqrt(nx * nx + ny * ny);
		if (!(len > 0))
			continue;
		nx /= len;
		ny /= len;
		amin = bmin = HUGE_VAL;
		amax = bmax = -HUGE_VAL;
		for (k = 0; k < 4; k++) {
			v = a->c[k].x * nx + a->c[k].y * ny;
			amin = least(amin, v);
			amax = most(amax, v);
			v = b->c[k].x * nx + b->c[k].y * ny;
			bmin = least(bmin, v);
			bmax = most(bmax, v);
		}
		o = least(amax - bmin, bmax - amin);
		if (o < best)
			best = o;
	}
	return best;
}

double
crown_unit_crossing(const struct crown_quad *a, const struct crown_quad *b)
{
	double	da, db;

	da = axis_crossing(a, a, b);
	db = axis_crossing(b, a, b);
	if (db < da)
		da = db;
	return da > 0 && da != HUGE_VAL ? da : 0;
}

/*
 * Most pairs asked about are apart, and their bounding boxes say so far
 * more cheaply than the projections.  Boxes that touch or are apart mean
 * footprints that cross by nothing: the least push that parts two convex
 * shapes is no longer than the push along x, or along y.  What the
 * projections' rounding could add is under a millionth of
 * CROWN_OVERLAP_SLACK on the largest table a state may have, so the
 * answer is the one the projections give.
 */
bool
crown_unit_boxes_apart(const struct crown_geom_box *a,
    const struct crown_geom_box *b)
{
	return a->maxx <= b->minx || b->maxx <= a->minx ||
	    a->maxy <= b->miny || b->maxy <= a->miny;
}

bool
crown_unit_quads_overlap(const struct crown_rules *rules,
    const struct crown_quad *a, const struct crown_quad *b)
{
	struct crown_geom_box	ba, bb;

	ba = crown_geom_bounds(a->c, 4);
	bb = crown_geom_bounds(b->c, 4);
	if (crown_unit_boxes_apart(&ba, &bb))
		return false;
	return crown_unit_crossing(a, b) > rules->contact_crossing +
	    CROWN_OVERLAP_SLACK;
}

bool
crown_unit_on_table(const struct crown_unit *u)
{
	return u->status != CROWN_LOST && !u->abandoned;
}

bool
crown_unit_undercrewed(const struct crown_rules *rules,
    const struct crown_unit *u)
{
	return crown_is_artillery(u->type) &&
	    crown_unit_figures(u) < rules->min_crew[u->type];
}

const struct crown_band *
crown_unit_bands(const struct crown_rules *rules, const struct crown_unit *u)
{
	if (crown_is_artillery(u->type))
		return rules->gun_band[u->type][u->gun];
	return rules->weapon[u->weapon];
}

bool
crown_unit_can_fire(const struct crown_rules *rules,
    const struct crown_unit *u)
{
	const struct crown_band	*bands;
	int			 b;

	if (u->type == CROWN_WAGON)
		return false;
	bands = crown_unit_bands(rules, u);
	for (b = 0; b < CROWN_NBAND; b++)
		if (bands[b].present)
			return true;
	return false;
}

int
crown_action_cost(const struct crown_rules *rules, const struct crown_unit *u,
    enum crown_action a)
{
	int	cost = rules->action[a].cost;

	if (crown_unit_undercrewed(rules, u))
		cost *= rules->undercrewed_cost_factor;	/* R3.5 */
	return cost;
}
