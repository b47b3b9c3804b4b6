/*
 * move.c: movement, terrain and formations (R4, R6.6), and the movement
 * services that charges (R9.1), retirement (R7.4) and routs (R8.1) use.
 *
 * A move is a track (track.c): the footprint carried along the ordered
 * points, cut short by the first of its blockers.  This module rolls the
 * dice, pays for terrain, finds the blockers near the track from the
 * engine's spatial index, and tells what happened.
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
 * - Holding (R7.4): judged before the dice, by the ordered destination,
 *   against every enemy.
 * - Friendly units do not block a move, but it may not end on one (R4.7):
 *   it stops at the last point of its path clear of every unit.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "crown/artillery.h"
#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/move.h"
#include "crown/orders.h"
#include "crown/spatial.h"
#include "crown/track.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A terrain feature that cost dice (R4.4), from die `first' on. */
struct penalty {
	const struct crown_feature	*f;
	int				 ndice;
	int				 sides;		/* of each die */
	int				 sum;
	size_t				 first;
};

static size_t	near_terrain(size_t **, struct crown_engine *,
		    const struct crown_track *);
static void	add_enemy_blockers(struct crown_track *,
		    struct crown_engine *, const struct crown_unit *, bool);
static const char *purpose_words(const char *);
static void	describe_mod(struct crown_buf *, const struct crown_mod *,
		    const char *);
static void	describe_roll(struct crown_buf *,
		    const struct crown_event *, double);
static void	cut_short(struct crown_event *, const char *, const char *,
		    ...) __attribute__((format(printf, 3, 4)));
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
 * What is near a track, from the engine's spatial index (issue 10), so
 * that no move looks at every unit or feature.
 */

/* The same for terrain features touching the track's box, in state
 * order. */
static size_t
near_terrain(size_t **out, struct crown_engine *e,
    const struct crown_track *t)
{
	struct crown_geom_box	 box;
	const int		*v;
	size_t			 n, i;

	box = crown_track_box(t);
	n = crown_engine_terrain_near(e, &box, 0, &v);
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = (size_t)v[i];
	return n;
}

/* The R4.5 (or R9.1, contact) blockers of the enemies within reach of
 * t's box, and the R4.7 ones of the friends, in state order.  The index's
 * answer is read where it lies: adding blockers asks nothing more of it. */
static void
add_enemy_blockers(struct crown_track *t, struct crown_engine *e,
    const struct crown_unit *u, bool contact)
{
	static const size_t	 none[1];
	struct crown_geom_box	 box;
	const size_t		*idx;
	size_t			 n;

	box = crown_track_box(t);
	n = crown_engine_units_near(e, &box, crown_track_enemy_reach(t), &idx);
	/* never NULL, which would be every unit */
	crown_track_add_units(t, u, n > 0 ? idx : none, n, contact);
}

/* R11.1, R4.7: the buildings near t, among idx[0..n-1], that a unit of a
 * side other than u's is in (R5.5: its centre inside): u may not end in
 * them. */
static void
add_held_blockers(struct crown_track *t, struct crown_engine *e,
    const size_t *idx, size_t n, const struct crown_unit *u)
{
	const struct crown_feature	*f;
	const struct crown_unit		*v;
	struct crown_geom_box		 box;
	const size_t			*near;
	size_t				 i, j, k;

	for (i = 0; i < n; i++) {
		f = &e->s->terrain[idx[i]];
		if (f->type != CROWN_BUILDING || f->npts == 0)
			continue;
		box = crown_geom_bounds(f->pts, f->npts);
		k = crown_engine_units_near(e, &box, 0, &near);
		for (j = 0; j < k; j++) {
			v = &e->s->units[near[j]];
			if (strcmp(v->side, u->side) != 0 &&
			    crown_building_contains(e->rules, f, v)) {
				crown_track_add_held(t, f, v);
				break;
			}
		}
	}
}

/* What the dice of `purpose' are for, in a sentence ("the charge"), or
 * NULL for the move's own. */
static const char *
purpose_words(const char *purpose)
{
	static const char *const words[][2] = {
		{ "charge bonus", "the charge" },
		{ "rout bonus", "the rout" },
		{ "road bonus", "the road" },
	};
	size_t	i;

	for (i = 0; i < CROWN_NELEM(words); i++)
		if (strcmp(purpose, words[i][0]) == 0)
			return words[i][1];
	return NULL;
}

/* ", +4 for infantry", ", less 5 for half the bonus": modifier m of a
 * die for `what' (purpose_words) onto b. */
static void
describe_mod(struct crown_buf *b, const struct crown_mod *m,
    const char *what)
{
	size_t	n = strlen(m->name);
	char	type[32], words[32];

	if (n > 5 && strcmp(m->name + n - 5, " base") == 0 &&
	    n - 5 < sizeof(type)) {				/* R4.1 */
		/* the troop type's base, "foot_artillery base", in words */
		memcpy(type, m->name, n - 5);
		type[n - 5] = '\0';
		crown_buf_printf(b, ", %+d for %s", m->value,
		    crown_words(words, sizeof(words), type));
	} else
		crown_buf_printf(b, m->value < 0 ? ", less %d for %s" :
		    ", %+d for %s", m->value < 0 ? -m->value : m->value,
		    strcmp(m->name, "half bonus") == 0 ? "half the bonus" :
		    what != NULL ? what : m->name);
}

/*
 * "rolled 5, +10 for cavalry, 5 and 6 for the charge, less 5 for half
 * the bonus: 21 inches": the movement dice of an event (not terrain) as
 * a sentence, each kind of dice with what it is for.
 */
static void
describe_roll(struct crown_buf *b, const struct crown_event *ev,
    double gross)
{
	const struct crown_die_rec	*d;
	const char			*what;
	size_t				 i, j, k, m, n = 0;
	int				 sum = 0;
	char				 g[CROWN_FMT_MAX], f[CROWN_FMT_MAX];

	for (i = 0; i < ev->ndice; i = j) {
		d = &ev->dice[i];
		for (j = i + 1; j < ev->ndice &&
		    strcmp(ev->dice[j].purpose, d->purpose) == 0; j++)
			;
		if (strncmp(d->purpose, "terrain", 7) == 0)
			continue;
		crown_buf_puts(b, n++ == 0 ? "rolled " : ", ");
		for (k = i; k < j; k++)
			crown_buf_printf(b, "%s%d", k == i ? "" : k + 1 == j ?
			    " and " : ", ", ev->dice[k].roll);
		what = purpose_words(d->purpose);
		if (what != NULL)
			crown_buf_printf(b, " for %s", what);
		for (k = i; k < j; k++) {
			for (m = 0; m < ev->dice[k].nmods; m++)
				describe_mod(b, &ev->dice[k].mods[m], what);
			sum += ev->dice[k].score;
		}
	}
	crown_fmt_inches(g, gross);
	if (n > 0 && gross != sum) {
		crown_fmt_inches(f, gross - sum);
		crown_buf_printf(b, ", %s%s", gross > sum ? "+" : "", f);
	}
	crown_buf_printf(b, "%s%s inches", n > 0 ? ": " : "", g);
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
		/* R7.2 "charge, half bonus": halved (R9.1) */
		if (kind == CROWN_MOVE_CHARGE_HALF && bonus > 0) {
			half = crown_rules_half_bonus(r, bonus);
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
	margin = crown_round2(crown_geom_dist(q.c[0], q.c[1]) +
	    crown_geom_dist(q.c[1], q.c[2])) + CROWN_TRACK_STEP;
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
 * The move itself, in the steps of R4: the roll is described, terrain
 * touched within it pays its dice (R4.4), drowning (R4.3a) or sticking
 * (R4.3b) may end the move there, the track is run to its first blocker
 * (R4.3, R4.5, R9.1), the unit wheels to its facing (R4.2), and the
 * event tells what happened.
 */

/* The terrain dice of one move (R4.4) and what they bring on. */
struct terrain_pay {
	struct penalty	*pen;
	size_t		 npen, cap;
	int		 total;		/* every penalty die together */
	bool		 drown;		/* a feature with R4.3a's note */
	bool		 stick;		/* one that sticks the type (R4.3b) */
};

/* R4.4: each feature touched within the gross roll, of those near t
 * (near_terrain), pays once, in state order; its dice go into event
 * ev_i.  Returns 0 or e->error. */
static int
pay_terrain(struct crown_engine *e, const struct crown_unit *u, size_t ev_i,
    const struct crown_track *t, const size_t *near, size_t nnear,
    double gross, struct terrain_pay *pay)
{
	const struct crown_terrain_move	*tm;
	const struct crown_feature	*f;
	struct penalty			*pen;
	size_t				 i, k;
	double				 reach;
	char				*purpose;
	int				 dk;

	reach = gross < t->len ? gross : t->len;
	for (i = 0; i < nnear && e->error == 0; i++) {
		f = &e->s->terrain[near[i]];
		tm = &e->rules->terrain_move[f->type][u->type];
		if (tm->na || tm->dice <= 0 ||
		    !crown_track_feature_swept(t, f, reach, false))
			continue;
		crown_grow(&pay->pen, &pay->cap, pay->npen + 1,
		    sizeof(*pay->pen));
		pen = &pay->pen[pay->npen];
		pen->f = f;
		pen->ndice = tm->dice;
		pen->sides = tm->sides;
		pen->sum = 0;
		pen->first = crown_events_at(e->ev, ev_i)->ndice;
		purpose = xasprintf("terrain %s", f->id);
		for (k = 0; k < (size_t)tm->dice; k++) {
			dk = crown_engine_roll_into(e, ev_i, u->id, purpose,
			    tm->sides);
			if (dk < 0)
				break;
			pen->sum += crown_events_at(e->ev,
			    ev_i)->dice[dk].score;
		}
		free(purpose);
		if (e->error != 0)
			break;
		pay->total += pen->sum;
		pay->drown = pay->drown || tm->drown;
		pay->stick = pay->stick || tm->stuck;
		pay->npen++;
	}
	return e->error;
}

/* ", slowed by Bosque (-1D6: 4) and Arroyo (-2D6: 3+5): net 2.5" onto b,
 * and "Bosque and Arroyo" into where. */
static void
describe_terrain(struct crown_buf *b, struct crown_buf *where,
    const struct crown_event *ev, const struct terrain_pay *pay, double net)
{
	const struct penalty	*pen;
	size_t			 i, k;
	char			*d;

	crown_buf_puts(where, "");
	for (i = 0; i < pay->npen; i++) {
		pen = &pay->pen[i];
		crown_buf_printf(b, "%s%s (-%dD%d: ", i == 0 ?
		    ", slowed by " : i + 1 == pay->npen ? " and " : ", ",
		    crown_track_feature_name(pen->f), pen->ndice, pen->sides);
		for (k = 0; k < (size_t)pen->ndice; k++)
			crown_buf_printf(b, "%s%d", k ? "+" : "",
			    ev->dice[pen->first + k].roll);
		crown_buf_puts(b, ")");
		crown_buf_printf(where, "%s%s", i == 0 ? "" :
		    i + 1 == pay->npen ? " and " : ", ",
		    crown_track_feature_name(pen->f));
	}
	if (pay->npen > 0) {
		d = crown_inches(net);
		crown_buf_printf(b, ": net %s", d);
		free(d);
	}
}

/* R4.3 (a): penalty dice over the roll drown the difference, and the unit
 * stays where it was.  roll: the words of the roll; where: the terrain. */
static void
drown(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct terrain_pay *pay, double gross, const char *roll,
    const char *where)
{
	struct crown_event	*ev;
	size_t			 k;
	int			 taken;
	char			*d;

	taken = (int)ceil(pay->total - gross);
	taken = crown_unit_take_casualties(u, taken);
	crown_engine_unit_moved(e, u);
	crown_engine_tu(e, u)->casualties_half += taken;
	ev = crown_events_at(e->ev, ev_i);
	crown_event_set(&ev->result, "drowned");
	crown_event_set(&ev->text, "%s tried to cross %s but stayed where it "
	    "was (%s).", u->name, where, roll);
	cut_short(ev, "R4.3", "stayed where it was: crossing %s cost more than "
	    "its roll",
	    where);
	k = crown_engine_event(e, "drowned", u->id, "R4.3");
	ev = crown_events_at(e->ev, k);
	ev->has_casualties = true;
	ev->casualties = taken;
	d = crown_inches(gross);
	crown_event_set(&ev->text, "%s lost %d figure%s drowned in %s: the "
	    "penalty of %d exceeded the roll of %s.", u->name, taken,
	    taken == 1 ? "" : "s", where, pay->total, d);
	free(d);
	if (u->status == CROWN_LOST) {
		k = crown_engine_event(e, "lost", u->id, "R1.3");
		crown_event_set(&crown_events_at(e->ev, k)->text,
		    "%s has no figures left and is lost.", u->name);
	}
}

/* R4.3 (b): a negative net roll sticks guns and wagons where they are. */
static void
stick(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const char *roll, const char *where)
{
	struct crown_event	*ev = crown_events_at(e->ev, ev_i);
	size_t			 k;

	u->stuck = true;
	crown_event_set(&ev->result, "stuck");
	crown_event_set(&ev->text, "%s could not move (%s).", u->name, roll);
	cut_short(ev, "R4.3", "stuck in %s", where);
	k = crown_engine_event(e, "stuck", u->id, "R4.3");
	crown_event_set(&crown_events_at(e->ev, k)->text, "%s is stuck in %s: "
	    "it moves only as friendly units help it.", u->name, where);
}

/* Run the track as far as `travel': enemies (R4.5, or contact for a
 * charge, R9.1), N/A terrain among near[0..nnear-1] (R4.3) and, for a
 * unit that starts on the table, its edge (R4.5). */
static void
run_track(struct crown_engine *e, const struct crown_unit *u,
    struct crown_track *t, const size_t *near, size_t nnear, double travel,
    unsigned flags, struct crown_stop *st)
{
	add_enemy_blockers(t, e, u, (flags & CROWN_MOVE_INTO_CONTACT) != 0);
	crown_track_add_terrain(t, near, nnear, u->type);
	add_held_blockers(t, e, near, nnear, u);
	if (!crown_track_off_table(e->s, (struct crown_point){
	    u->x + t->coff.x, u->y + t->coff.y }))
		crown_track_add_blocker(t, CROWN_BLOCK_EDGE);
	crown_track_run(t, travel, st);
}

/* The facing the move means to end with (R4.2), before any blocker has
 * its say: the ordered one, else along the last leg, else kept. */
static int
meant_facing(const struct crown_unit *u, const struct crown_track *t,
    const struct crown_stop *st, int face, unsigned flags)
{
	if (st->by != NULL && st->by->kind == CROWN_BLOCK_EDGE)
		return u->facing;
	if (face >= 0)
		return crown_geom_norm(face);
	if (!(flags & CROWN_MOVE_KEEP_FACING) && st->s > 0)
		return crown_track_leg_bearing(t, st->s);
	return u->facing;
}

/* R4.2: the facing at the end, the one it means to end with unless a
 * blocker forbids the wheel: then it is not made, and b says so. */
static int
end_facing(const struct crown_engine *e, const struct crown_unit *u,
    const struct crown_track *t, const struct crown_stop *st, int face,
    unsigned flags, struct crown_buf *b)
{
	int	nf = meant_facing(u, t, st, face, flags);

	if (nf != u->facing && !crown_track_turn_ok(t, e->rules, u, st->at,
	    nf, st->by != NULL && st->by->kind == CROWN_BLOCK_CONTACT ?
	    st->by : NULL)) {
		crown_buf_printf(b, "; it could not turn to face %s there",
		    crown_geom_compass(nf));
		nf = u->facing;
	}
	return nf;
}

/*
 * R4.7: a unit that turns at the end of its move is clear in its final
 * facing.  The track carries the footprint the unit started with, so
 * when a friend stopped the move, or the turn at the end could not be
 * made, the move is run again carrying the footprint of the facing it
 * means to end with; that stop is taken when nothing but friends stopped
 * it and the wheel could be made there.  A charge keeps its own rules
 * (R9.1).  On success *t and *st are the new run's and *nf the facing.
 */
static bool
refaced(struct crown_engine *e, const struct crown_unit *u,
    struct crown_track *t, const size_t *near, size_t nnear, double travel,
    unsigned flags, int face, struct crown_stop *st, int *nf)
{
	struct crown_track	 t2;
	struct crown_stop	 st2;
	struct crown_quad	 q;
	int			 want = meant_facing(u, t, st, face, flags);
	bool			 ok;

	if ((flags & CROWN_MOVE_INTO_CONTACT) || want == u->facing ||
	    (*nf == want && (st->by == NULL ||
	    st->by->kind != CROWN_BLOCK_FRIEND)))
		return false;
	crown_track_unit_quad(&q, e->rules, u, t->pts[0], want);
	crown_track_init(&t2, e->s, e->rules, t->pts[0], &q, t->pts + 1,
	    t->m - 1);
	run_track(e, u, &t2, near, nnear, travel, flags, &st2);
	/* the wheel judged against the first run's blockers, from the
	 * footprint the unit really has (terrain, enemies: R4.2, R4.5) */
	ok = (st2.by == NULL || st2.by->kind == CROWN_BLOCK_FRIEND) &&
	    meant_facing(u, &t2, &st2, face, flags) == want &&
	    crown_track_turn_ok(t, e->rules, u, st2.at, want, NULL);
	if (!ok) {
		crown_track_free(&t2);
		return false;
	}
	crown_track_free(t);
	*t = t2;
	*st = st2;
	*nf = want;
	return true;
}

/* Why a move ended short of its way's end (the event's reason and its
 * rule), the words its sentence says as well. */
static void
cut_short(struct crown_event *ev, const char *rule, const char *fmt, ...)
{
	va_list	ap;

	free(ev->reason);
	va_start(ap, fmt);
	ev->reason = xvasprintf(fmt, ap);
	va_end(ap);
	crown_engine_set(&ev->reason_rule, rule);
}

/* The event of a move that was run: how far, where to, and what stopped
 * it; a unit that left the table is lost.  path_end: the way ended before
 * the move was spent. */
static void
describe_move(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct crown_stop *st, const char *verb, const char *roll,
    double path_length, bool path_end)
{
	struct crown_event	*ev = crown_events_at(e->ev, ev_i);
	struct crown_buf	 text = { 0 };
	const char		*result;
	size_t			 k;
	char			*d, dist[CROWN_FMT_MAX];

	result = st->s > 0 ? "moved" : "no_move";
	ev->has_distance = true;
	ev->distance = st->s;
	ev->path_length = path_length;
	crown_fmt_inches(dist, st->s);
	if (st->s > 0)
		crown_buf_printf(&text, "%s %s %s inch%s %s (%s).", u->name,
		    verb, dist, strcmp(dist, "1") == 0 ? "" : "es",
		    crown_geom_compass(crown_geom_bearing(ev->from, ev->to)),
		    roll);
	else
		crown_buf_printf(&text, "%s did not get forward (%s).",
		    u->name, roll);
	if (st->by != NULL) {
		switch (st->by->kind) {
		case CROWN_BLOCK_ENEMY:
			result = "stopped_short";
			d = crown_inches(e->rules->stop_short);
			if (st->by->thr >= e->rules->stop_short)
				cut_short(ev, "R4.5", "halted %s inch%s short "
				    "of %s", d, strcmp(d, "1") == 0 ? "" :
				    "es", st->by->enemy->name);
			else if (st->by->thr > 0)
				cut_short(ev, "R4.5", "halted where it would "
				    "have come closer to %s than it started",
				    st->by->enemy->name);
			else
				cut_short(ev, "R4.7", "halted against %s, "
				    "which it may not pass through",
				    st->by->enemy->name);
			free(d);
			break;
		case CROWN_BLOCK_HELD:
			result = "stopped_short";
			cut_short(ev, "R11.1, R4.7", "halted outside %s, which "
			    "%s holds", crown_track_feature_name(st->by->f),
			    st->by->enemy->name);
			break;
		case CROWN_BLOCK_FRIEND:
			result = "stopped_short";
			cut_short(ev, "R4.7", "halted at the last point of "
			    "its way clear of %s, on which it may not end",
			    st->by->enemy->name);
			break;
		case CROWN_BLOCK_CONTACT:
			result = "contact";
			crown_buf_printf(&text, " It made contact with %s.",
			    st->by->enemy->name);
			break;
		case CROWN_BLOCK_TERRAIN:
			result = "blocked";
			cut_short(ev, "R4.3", "halted at %s, which %s may not "
			    "enter", crown_track_feature_name(st->by->f),
			    crown_utype_names[u->type]);
			break;
		case CROWN_BLOCK_EDGE:
			result = "lost";
			cut_short(ev, "R4.5", "left the table and is out of "
			    "the game");
			break;
		}
		if (ev->reason != NULL)
			crown_buf_printf(&text, " It %s (%s).", ev->reason,
			    ev->reason_rule);
	} else if (!path_end && st->s + 0.005 < path_length)
		cut_short(ev, "R4.1", "its move was spent");
	if (st->by == NULL && st->s > 0 && path_end)
		crown_buf_puts(&text, " It reached the end of its path.");
	crown_engine_set(&ev->result, result);
	free(ev->text);
	ev->text = text.data;		/* the event's now */
	if (st->by != NULL && st->by->kind == CROWN_BLOCK_EDGE) {
		u->status = CROWN_LOST;
		k = crown_engine_event(e, "lost", u->id, "R4.5");
		crown_event_set(&crown_events_at(e->ev, k)->text,
		    "%s left the table and is out of the game.", u->name);
	}
}

/* how: words for the distance when it was not rolled (manhandling); NULL
 * to describe the event's dice. */
static int
move_core(struct crown_engine *e, struct crown_unit *u, size_t ev_i,
    const struct crown_point *path, size_t n, double gross, unsigned flags,
    int face, double *moved, const char *how)
{
	struct terrain_pay	 pay = { 0 };
	struct crown_event	*ev;
	struct crown_buf	 roll = { 0 }, where = { 0 }, turn = { 0 };
	struct crown_quad	 q0;
	struct crown_track	 t;
	struct crown_stop	 st;
	double			 net, travel;
	size_t			*near, nnear;
	const char		*verb;
	int			 nf;

	*moved = 0;
	if (e->error != 0)
		return e->error;
	if (u->status == CROWN_LOST)
		return 0;
	crown_engine_tu(e, u)->moved = true;
	crown_engine_tu(e, u)->moved_this_half = true;
	ev = crown_events_at(e->ev, ev_i);
	verb = strcmp(ev->kind, "charge_move") == 0 ? "charged" :
	    strcmp(ev->kind, "retire") == 0 ? "fell back" :
	    strcmp(ev->kind, "rout_move") == 0 ? "fled" : "moved";
	ev->has_from = ev->has_to = true;
	ev->from.x = ev->to.x = u->x;
	ev->from.y = ev->to.y = u->y;
	crown_buf_puts(&roll, "");
	if (how != NULL)
		crown_buf_puts(&roll, how);
	else
		describe_roll(&roll, ev, gross);

	/* R4.3b: only friends helping move a stuck unit */
	if (u->stuck) {
		crown_event_set(&ev->result, "stuck");
		crown_event_set(&ev->text, "%s is stuck and cannot move "
		    "until friends help it (%s).", u->name, roll.data);
		cut_short(ev, "R4.3", "is stuck and cannot move until "
		    "friends help it");
		crown_buf_release(&roll);
		return 0;
	}
	crown_unit_footprint(&q0, e->rules, u);
	crown_track_init(&t, e->s, e->rules, (struct crown_point){ u->x,
	    u->y }, &q0, path, n);
	/* the terrain the move may pay for and may be stopped by, once */
	nnear = near_terrain(&near, e, &t);
	if (!(flags & CROWN_MOVE_IGNORE_TERRAIN) &&
	    pay_terrain(e, u, ev_i, &t, near, nnear, gross, &pay) != 0)
		goto cleanup;
	net = gross - pay.total;
	describe_terrain(&roll, &where, crown_events_at(e->ev, ev_i), &pay,
	    net);
	if (pay.drown && pay.total > gross)
		drown(e, u, ev_i, &pay, gross, roll.data, where.data);
	else if (pay.stick && net < 0)
		stick(e, u, ev_i, roll.data, where.data);
	else {
		travel = net < 0 ? 0 : net < t.len ? net : t.len;
		run_track(e, u, &t, near, nnear, travel, flags, &st);
		crown_buf_puts(&turn, "");
		nf = end_facing(e, u, &t, &st, face, flags, &turn);
		if (!refaced(e, u, &t, near, nnear, travel, flags, face, &st,
		    &nf))
			crown_buf_puts(&roll, turn.data);
		*moved = st.s;
		u->facing = nf;
		u->x = st.at.x;
		u->y = st.at.y;
		crown_engine_unit_moved(e, u);
		crown_events_at(e->ev, ev_i)->to = st.at;
		describe_move(e, u, ev_i, &st, verb, roll.data, t.len,
		    travel < net);
	}
cleanup:
	crown_track_free(&t);
	free(near);
	free(pay.pen);
	crown_buf_release(&roll);
	crown_buf_release(&where);
	crown_buf_release(&turn);
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
 * R7.4: a holding unit may not move closer to any enemy, the nearest or
 * another: judged by where the order would take it (its last point,
 * facing as ordered), before any die is rolled.  Any enemy on the table
 * may be the one it comes closer to, so each is measured: a look at every
 * unit, but only for the few orders of holding units.
 */
static bool
holding_refuses(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	return u->holding && crown_orders_closer_to_enemy(e->s, e->rules, u,
	    a);
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
	crown_engine_set(&crown_events_at(e->ev, ev_i)->order, "move");
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
 * R4.3 (b): the haul of t, d inches along its own move order of this turn
 * if it has one, else straight ahead; enemies (no nearer than 1 inch), N/A
 * terrain and, for a unit on the table, its edge stop it.  tr is the
 * caller's to free.
 */
static void
haul(struct crown_engine *e, const struct crown_unit *t, double d,
    struct crown_track *tr, struct crown_stop *st)
{
	const struct crown_rules	*r = e->rules;
	const struct crown_action_order	*own;
	struct crown_quad		 qt;
	struct crown_point		 ahead, dir, start;
	size_t				*near, nnear;

	crown_unit_footprint(&qt, r, t);
	own = own_move(e, t);
	start.x = t->x;
	start.y = t->y;
	if (own != NULL)
		crown_track_init(tr, e->s, r, start, &qt, own->path,
		    own->npath);
	else {
		dir = crown_geom_dir(t->facing);
		ahead.x = t->x + dir.x * d;
		ahead.y = t->y + dir.y * d;
		crown_track_init(tr, e->s, r, start, &qt, &ahead, 1);
	}
	add_enemy_blockers(tr, e, t, false);
	nnear = near_terrain(&near, e, tr);
	crown_track_add_terrain(tr, near, nnear, t->type);
	free(near);
	if (!crown_track_off_table(e->s, (struct crown_point){
	    t->x + tr->coff.x, t->y + tr->coff.y }))
		crown_track_add_blocker(tr, CROWN_BLOCK_EDGE);
	crown_track_run(tr, d < tr->len ? d : tr->len, st);
}

/* R4.3: whether t's footprint still touches terrain that sticks its type. */
static bool
still_stuck(const struct crown_engine *e, const struct crown_unit *t)
{
	const struct crown_rules	*r = e->rules;
	const struct crown_feature	*f;
	struct crown_quad		 qt;
	size_t				 i;
	bool				 still;

	crown_unit_footprint(&qt, r, t);
	still = false;
	for (i = 0; i < e->s->nterrain; i++) {
		f = &e->s->terrain[i];
		if (r->terrain_move[f->type][t->type].stuck &&
		    crown_track_feature_touches(f, qt.c, 4))
			still = true;
	}
	return still;
}

/* The help event's sentence: how far u hauled t of the d it could, and
 * what came of it. */
static void
describe_haul(struct crown_engine *e, struct crown_event *ev,
    const struct crown_unit *u, const struct crown_unit *t,
    const struct crown_stop *st, double d)
{
	char	*s1, *s2, *s3;

	s1 = crown_inches(st->s);
	s2 = crown_inches(d);
	s3 = crown_inches(e->rules->stuck_move_per_stand);
	crown_event_set(&ev->text, "%s hauled %s %s inch%s %s (%d stand%s x "
	    "%s inch%s, up to %s inches)%s", u->name, t->name, s1,
	    strcmp(s1, "1") == 0 ? "" : "es", st->s > 0 ?
	    crown_geom_compass(crown_geom_bearing(ev->from, ev->to)) :
	    "forward", crown_unit_stands(u),
	    crown_unit_stands(u) == 1 ? "" : "s", s3,
	    strcmp(s3, "1") == 0 ? "" : "es", s2,
	    t->status == CROWN_LOST ?
	    "; it was dragged off the table and is out of the game." :
	    t->stuck ? "; it is still stuck." : "; it is free.");
	free(s1);
	free(s2);
	free(s3);
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
	struct crown_unit		*t;
	struct crown_event		*ev;
	struct crown_quad		 qh, qt;
	struct crown_track		 tr;
	struct crown_stop		 st;
	double				 d, dist;
	size_t				 i, ev_i;
	bool				 off;
	char				*s1, *s2;

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
	if (!crown_rules_within(r, dist = crown_geom_dist_quad(&qh, &qt),
	    r->help_reach)) {
		s1 = crown_inches(dist);
		s2 = crown_inches(r->help_reach);
		crown_engine_skip(e, u, a, "R4.3", "'%s' is %s inches away; "
		    "helpers must be within %s", t->id, s1, s2);
		free(s1);
		free(s2);
		return 0;
	}
	d = r->stuck_move_per_stand * crown_unit_stands(u);
	haul(e, t, d, &tr, &st);

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
	off = st.by != NULL && st.by->kind == CROWN_BLOCK_EDGE;
	if (off)
		t->status = CROWN_LOST;
	t->stuck = !off && still_stuck(e, t);
	crown_event_set(&ev->result, "%s", off ? "lost" : t->stuck ?
	    "still_stuck" : "freed");
	describe_haul(e, ev, u, t, &st, d);
	if (off) {
		i = crown_engine_event(e, "lost", t->id, "R4.5");
		crown_event_set(&crown_events_at(e->ev, i)->text,
		    "%s left the table and is out of the game.", t->name);
	}
	crown_track_free(&tr);
	return e->error;
}
