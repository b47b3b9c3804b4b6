/*
 * fire.c: small-arms fire (R5), fire at detached leaders (R10.4), the
 * reaction fire of a charged unit (R9.2), and what artillery.c shares with
 * it: targets, range, arc and sight (R5.6), cover (R5.5), the modifiers of
 * a shot (R5.4) and casualties (R1.3, R7.1, R8.2).
 *
 * Choices where RULES.md is silent:
 * - the line of fire (R5.5 walls, R5.6 sight) runs from the firer's
 *   front-edge centre to the target's: a leader's position, or the mean
 *   of a building's corners;
 * - "the buildings they occupy" are those holding either end of that line
 *   or either unit's centre;
 * - a detached leader is shot at in rules->leader_fire_band, or in the
 *   weapon's farthest band when it has no such band, but only if he is
 *   within its reach at all;
 * - a unit firing at the nearest enemy (R2.3) passes over enemies locked
 *   in a melee; with nobody in range, arc and sight it holds (a `hold`
 *   event) and stays loaded;
 * - reaction fire (R9.2) comes in the enemy's half-turn and costs no
 *   action; it needs the firer loaded and the charger in its arc, not a
 *   clear line of sight (the charger is coming on), and unloads it like
 *   any fire.  A weapon without the band the test named does not fire.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fire.h"
#include "crown/morale.h"

const char *const crown_fire_band_names[CROWN_NBAND] = {
	"close", "medium", "long"
};
const char *const crown_gun_band_names[CROWN_NBAND] = {
	"canister", "effective", "long"
};

static const char *const cover_names[CROWN_NCOVER] = {
	"no", "soft", "hard"
};

static char	*label(const struct crown_feature *);
static bool	 in_melee(const struct crown_state *, const char *);
static bool	 ready(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);
static bool	 over_budget(struct crown_engine *, const struct crown_unit *,
		    const struct crown_action_order *);
static char	*reach_text(const struct crown_unit *,
		    const struct crown_band *, double);
static enum crown_band_name leader_band(const struct crown_rules *,
		    const struct crown_band *);
static int	 fire_at(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *,
		    struct crown_fire_target *);
static int	 fire_at_will(struct crown_engine *, struct crown_unit *,
		    const struct crown_action_order *);
static int	 one_in(struct crown_engine *, const struct crown_unit *,
		    const char **);
static int	 shoot(struct crown_engine *, struct crown_unit *,
		    struct crown_fire_target *, double, enum crown_band_name,
		    const char *, const char *);

/* "light woods 'Bosque'" for sentences; caller frees. */
static char *
label(const struct crown_feature *f)
{
	char	*kind, *p, *out;

	kind = xstrdup(crown_terrain_names[f->type]);
	for (p = kind; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	out = xasprintf("%s '%s'", kind, f->name != NULL ? f->name : f->id);
	free(kind);
	return out;
}

static bool
in_melee(const struct crown_state *s, const char *id)
{
	const struct crown_melee	*m;
	size_t				 i, j;

	for (i = 0; i < s->nmelees; i++) {
		m = &s->melees[i];
		for (j = 0; j < m->nattackers; j++)
			if (strcmp(m->attackers[j], id) == 0)
				return true;
		for (j = 0; j < m->ndefenders; j++)
			if (strcmp(m->defenders[j], id) == 0)
				return true;
	}
	return false;
}

/*
 * Targets.
 */

void
crown_fire_target_unit(struct crown_fire_target *t,
    const struct crown_rules *rules, struct crown_unit *u)
{
	struct crown_quad	q;

	memset(t, 0, sizeof(*t));
	t->kind = CROWN_AT_UNIT;
	t->unit = u;
	t->id = u->id;
	t->name = u->name;
	crown_unit_footprint(&q, rules, u);
	memcpy(t->shape, q.c, sizeof(t->shape));
	t->pts = t->shape;
	t->npts = 4;
	t->aim.x = u->x;
	t->aim.y = u->y;
}

void
crown_fire_target_leader(struct crown_fire_target *t, struct crown_leader *ld)
{
	memset(t, 0, sizeof(*t));
	t->kind = CROWN_AT_LEADER;
	t->leader = ld;
	t->id = ld->id;
	t->name = ld->name;
	t->shape[0].x = ld->x;
	t->shape[0].y = ld->y;
	t->pts = t->shape;
	t->npts = 1;
	t->aim = t->shape[0];
}

void
crown_fire_target_building(struct crown_fire_target *t,
    struct crown_feature *f)
{
	size_t	i;

	memset(t, 0, sizeof(*t));
	t->kind = CROWN_AT_BUILDING;
	t->building = f;
	t->id = f->id;
	t->name = f->name != NULL ? f->name : f->id;
	t->pts = f->pts;
	t->npts = f->npts;
	for (i = 0; i < f->npts; i++) {
		t->aim.x += f->pts[i].x;
		t->aim.y += f->pts[i].y;
	}
	if (f->npts > 0) {
		t->aim.x /= (double)f->npts;
		t->aim.y /= (double)f->npts;
	}
}

/*
 * Bands, range, arc and sight (R5.3, R5.6, R6.2).
 */

const struct crown_band *
crown_fire_bands(const struct crown_rules *rules, const struct crown_unit *u)
{
	if (crown_is_artillery(u->type))
		return rules->gun_band[u->type][u->gun];
	return rules->weapon[u->weapon];
}

const char *
crown_fire_band_name(const struct crown_unit *u, enum crown_band_name b)
{
	if ((int)b < 0 || b >= CROWN_NBAND)
		return "out of range";
	return crown_is_artillery(u->type) ? crown_gun_band_names[b] :
	    crown_fire_band_names[b];
}

bool
crown_fire_can_shoot(const struct crown_rules *rules,
    const struct crown_unit *u)
{
	const struct crown_band	*bands;
	int			 b;

	if (u->type == CROWN_WAGON)
		return false;
	bands = crown_fire_bands(rules, u);
	for (b = 0; b < CROWN_NBAND; b++)
		if (bands[b].present)
			return true;
	return false;
}

double
crown_fire_range(const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_fire_target *t)
{
	struct crown_quad	q;

	crown_unit_footprint(&q, rules, u);
	return crown_geom_dist_poly(q.c, 4, t->pts, t->npts);
}

bool
crown_fire_in_arc(const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_fire_target *t)
{
	/* R5.6, R13.1: on the line of the front edge counts as ahead */
	return crown_geom_zone_poly((struct crown_point){ u->x, u->y },
	    u->facing, 0, t->pts, t->npts) == CROWN_GEOM_IN_FRONT;
}

bool
crown_fire_sight(char **why, struct crown_engine *e,
    const struct crown_unit *u, const struct crown_fire_target *t)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_state	*s = e->s;
	const struct crown_feature	*f;
	const struct crown_unit		*o;
	struct crown_point		 a, b, uc, tc, seg[2];
	struct crown_geom_box		 box;
	struct crown_quad		 q;
	const size_t			*near;
	const int			*tnear;
	double				 len;
	char				*what;
	size_t				 i, n;

	*why = NULL;
	a.x = u->x;
	a.y = u->y;
	b = t->aim;
	seg[0] = a;
	seg[1] = b;
	box = crown_geom_bounds(seg, 2);
	crown_unit_footprint(&q, rules, u);
	uc = crown_geom_quad_centre(&q);
	tc = b;
	if (t->unit != NULL) {
		crown_unit_footprint(&q, rules, t->unit);
		tc = crown_geom_quad_centre(&q);
	}
	/* features in state order, found through the index */
	n = crown_engine_terrain_near(e, &box, 0, &tnear);
	for (i = 0; i < n; i++) {
		f = &s->terrain[tnear[i]];
		if (f->is_path || f->npts == 0)
			continue;
		if (f->type == CROWN_THICK_WOODS) {
			len = crown_geom_seg_length_inside(a, b, f->pts,
			    f->npts);
			if (len > rules->thick_woods_sight) {
				what = label(f);
				*why = xasprintf("%.2f inches of %s are in "
				    "the way (sight ends %.2f inches in)",
				    len, what, rules->thick_woods_sight);
				free(what);
				return false;
			}
		} else if (f->type == CROWN_BUILDING && f != t->building) {
			if (crown_geom_point_in_poly(a, f->pts, f->npts) ||
			    crown_geom_point_in_poly(uc, f->pts, f->npts) ||
			    crown_geom_point_in_poly(b, f->pts, f->npts) ||
			    crown_geom_point_in_poly(tc, f->pts, f->npts))
				continue;	/* one of theirs */
			if (crown_geom_seg_crosses_poly(a, b, f->pts,
			    f->npts)) {
				what = label(f);
				*why = xasprintf("%s is in the way", what);
				free(what);
				return false;
			}
		}
	}
	n = crown_engine_units_near(e, &box, 0, &near);
	for (i = 0; i < n; i++) {
		o = &s->units[near[i]];
		if (o == u || o == t->unit || o->status == CROWN_LOST ||
		    o->nstands == 0)
			continue;
		/* a building's garrison is part of the target */
		if (t->building != NULL &&
		    crown_building_contains(rules, t->building, o))
			continue;
		crown_unit_footprint(&q, rules, o);
		if (crown_geom_seg_crosses_poly(a, b, q.c, 4)) {
			*why = xasprintf("%s is in the way", o->name);
			return false;
		}
	}
	return true;
}

/*
 * Cover (R5.5, R11.1).
 */

enum crown_cover
crown_fire_cover(char **what, const char **rule, struct crown_engine *e,
    const struct crown_unit *firer, const struct crown_unit *t,
    bool buildings_only)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_state	*s = e->s;
	const struct crown_feature	*f;
	enum crown_cover		 best = CROWN_COVER_NONE, cov;
	struct crown_point		 a, b, c;
	struct crown_geom_box		 box;
	struct crown_quad		 q;
	const int			*near;
	const char			*rl;
	double				 d;
	char				*desc, *l;
	size_t				 i, n;

	*what = NULL;
	*rule = NULL;
	crown_unit_footprint(&q, rules, t);
	c = crown_geom_quad_centre(&q);
	a.x = firer != NULL ? firer->x : t->x;
	a.y = firer != NULL ? firer->y : t->y;
	b.x = t->x;
	b.y = t->y;
	/* what holds its centre, or a wall within reach of its front */
	box = crown_geom_bounds(q.c, 4);
	n = crown_engine_terrain_near(e, &box, rules->wall_cover_distance,
	    &near);
	for (i = 0; i < n; i++) {
		f = &s->terrain[near[i]];
		if (f->npts == 0)
			continue;
		if (f->type == CROWN_BUILDING) {
			if (!crown_building_shelters(s, rules, f, t))
				continue;
			cov = crown_building_cover(rules, f);
			l = label(f);
			desc = xasprintf("in %s (class %d%s)", l, f->bclass,
			    f->damage > 0 ? ", damaged" : "");
			free(l);
			rl = f->damage > 0 ? "R11.2" : "R11.1";
		} else if (buildings_only ||
		    rules->terrain_cover[f->type] == CROWN_COVER_NONE) {
			continue;
		} else if (f->is_path) {
			/* R5.5: the line of fire crosses it near the target */
			if (firer == NULL ||
			    !crown_geom_seg_polyline_nearest(&d, a, b, f->pts,
			    f->npts) || d > rules->wall_cover_distance)
				continue;
			cov = rules->terrain_cover[f->type];
			l = label(f);
			desc = xasprintf("behind %s (%.2f inches before "
			    "it)", l, d);
			free(l);
			rl = "R5.5";
		} else {
			if (!crown_geom_point_in_poly(c, f->pts, f->npts))
				continue;
			cov = rules->terrain_cover[f->type];
			l = label(f);
			desc = xasprintf("in %s", l);
			free(l);
			rl = "R5.5";
		}
		if (cov > best) {
			free(*what);
			*what = desc;
			*rule = rl;
			best = cov;
		} else
			free(desc);
	}
	if (best == CROWN_COVER_NONE) {
		free(*what);
		*what = NULL;
		*rule = NULL;
	}
	return best;
}

/*
 * Modifiers (R5.4).
 */

void
crown_fire_mods_add(struct crown_fire_mods *m, int value, const char *rule,
    const char *fmt, ...)
{
	va_list	ap;

	if (value == 0 || m->n >= CROWN_FIRE_MAX_MODS)
		return;
	va_start(ap, fmt);
	m->m[m->n].name = xvasprintf(fmt, ap);
	va_end(ap);
	m->m[m->n].value = value;
	m->m[m->n].rule = rule;
	m->n++;
}

void
crown_fire_mods_collect(struct crown_fire_mods *m, struct crown_engine *e,
    const struct crown_unit *u, const struct crown_fire_target *t,
    bool howitzer)
{
	const struct crown_rules	*rules = e->rules;
	enum crown_cover		 cov;
	const char			*rule;
	char				*what;

	memset(m, 0, sizeof(*m));
	crown_fire_mods_add(m, rules->cls[u->cls].firing, "R3.1",
	    crown_is_artillery(u->type) ? "%s crew" : "%s",
	    crown_class_names[u->cls]);
	if (t->kind == CROWN_AT_LEADER) {
		cov = rules->leader_fire_cover;
		crown_fire_mods_add(m, rules->fire_mod.cover[cov], "R10.4",
		    "detached leader, %s cover", cover_names[cov]);
	} else if (t->kind == CROWN_AT_UNIT) {
		if (t->unit->type == CROWN_CAVALRY)
			crown_fire_mods_add(m, rules->fire_mod.target_cavalry,
			    "R5.4", "target is cavalry");
		cov = crown_fire_cover(&what, &rule, e, u, t->unit,
		    howitzer);
		if (cov != CROWN_COVER_NONE)
			crown_fire_mods_add(m, rules->fire_mod.cover[cov],
			    rule, "%s cover %s", cover_names[cov], what);
		free(what);
		if (t->unit->type == CROWN_SKIRMISHERS)
			crown_fire_mods_add(m,
			    rules->fire_mod.target_skirmishers, "R5.4",
			    "target is skirmishers");
	}
	if (u->disordered)
		crown_fire_mods_add(m, rules->fire_mod.disordered, "R3.7",
		    "disordered");
	if (u->rallied)
		crown_fire_mods_add(m, rules->fire_mod.rallied, "R8.6",
		    "rallied earlier");
}

void
crown_fire_mods_apply(const struct crown_fire_mods *m,
    struct crown_die_rec *r)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		crown_die_mod(r, m->m[i].name, m->m[i].value, m->m[i].rule);
}

char *
crown_fire_mods_text(const struct crown_fire_mods *m)
{
	struct crown_buf	b = { 0 };
	size_t			i;

	if (m->n == 0)
		return xstrdup("no modifiers");
	for (i = 0; i < m->n; i++)
		crown_buf_printf(&b, "%s%s %+d", i > 0 ? ", " : "",
		    m->m[i].name, m->m[i].value);
	return b.data;
}

void
crown_fire_mods_release(struct crown_fire_mods *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		free(m->m[i].name);
	m->n = 0;
}

/*
 * Results.
 */

void
crown_fire_unload(const struct crown_rules *rules, struct crown_unit *u)
{
	/* R3.6: repeating rifles fire repeater_shots times per loading */
	if (!crown_is_artillery(u->type) &&
	    u->weapon == CROWN_REPEATING_RIFLE) {
		u->shots_fired++;
		if (u->shots_fired >= rules->repeater_shots)
			u->loaded = false;
		return;
	}
	u->loaded = false;
}

int
crown_fire_casualties(struct crown_engine *e, struct crown_unit *u,
    int figures, bool artillery, int *stands_lost)
{
	struct crown_turn_unit	*tu = crown_engine_tu(e, u);
	struct crown_event	*ev;
	size_t			 before, ev_i;
	bool			 routing;
	int			 taken;

	*stands_lost = 0;
	if (artillery)
		tu->under_artillery_fire = true;	/* R7.3 */
	if (figures <= 0 || u->status == CROWN_LOST)
		return 0;
	routing = u->status == CROWN_ROUTING;
	before = u->nstands;
	taken = crown_unit_take_casualties(u, figures);	/* R1.3 */
	*stands_lost = (int)(before - u->nstands);
	if (u->nstands != before)
		crown_engine_unit_moved(e, u);	/* a narrower footprint */
	if (u->crew_replaced > crown_unit_figures(u))
		u->crew_replaced = crown_unit_figures(u);
	tu->fire_casualties += taken;			/* R7.1 */
	tu->casualties_half += taken;			/* R10.3 */
	if (u->status == CROWN_LOST) {
		ev_i = crown_engine_event(e, "lost", u->id, "R1.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "lost");
		crown_event_set(&ev->text, "%s has no stands left and is "
		    "lost.", u->name);
	} else if (routing && taken > 0) {
		u->status = CROWN_LOST;
		ev_i = crown_engine_event(e, "lost", u->id, "R8.2");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "lost");
		crown_event_set(&ev->text, "%s was routing and took "
		    "casualties: it is lost for good.", u->name);
	}
	return taken;
}

int
crown_fire_leader_hits(struct crown_engine *e, size_t ev_i,
    struct crown_leader *ld, int hits)
{
	struct crown_die_rec	*r;
	struct crown_event	*ev;
	bool			 killed = false;
	size_t			 i;
	int			 k, di;

	for (k = 0; k < hits && !killed; k++) {
		if (ld->figures <= 1) {
			killed = true;
			break;
		}
		/* R10.4: several figures: a die says which one was hit */
		di = crown_engine_roll_into(e, ev_i, ld->id, "leader_hit",
		    ld->figures);
		if (di < 0)
			return e->error;
		r = &crown_events_at(e->ev, ev_i)->dice[di];
		r->who = xstrdup(ld->id);
		killed = r->score == 1;
	}
	if (!killed)
		return 0;
	crown_leader_fall(e, ld, CROWN_LEADER_KILLED);	/* R7.1 flags */
	i = crown_engine_event(e, "leader_killed", NULL, "R10.4");
	ev = crown_events_at(e->ev, i);
	ev->leader = xstrdup(ld->id);
	crown_event_set(&ev->result, "killed");
	crown_event_set(&ev->text, "%s %s was shot down.",
	    ld->rank == CROWN_GENERAL ? "General" : "Officer", ld->name);
	return 1;
}

char *
crown_fire_casualty_text(int n, int stands_lost)
{
	if (n <= 0)
		return xstrdup("no casualties");
	if (stands_lost <= 0)
		return xasprintf("%d %s", n, n == 1 ? "casualty" :
		    "casualties");
	return xasprintf("%d %s, %d stand%s lost", n, n == 1 ? "casualty" :
	    "casualties", stands_lost, stands_lost == 1 ? "" : "s");
}

/*
 * Small arms (R5.1-R5.4).
 */

/* R5.2: one stand in how many fires, and why. */
static int
one_in(struct crown_engine *e, const struct crown_unit *u, const char **why)
{
	const struct crown_rules	*rules = e->rules;
	int				 n = 1;

	*why = NULL;
	if (crown_is_artillery(u->type))
		return 1;
	if (crown_engine_tu(e, u)->moved_this_half &&
	    rules->fire_moved_one_in > n) {
		n = rules->fire_moved_one_in;
		*why = "it moved earlier this half-turn";
	}
	if (u->type == CROWN_CAVALRY && rules->fire_cavalry_one_in > n) {
		n = rules->fire_cavalry_one_in;
		*why = "mounted cavalry";
	}
	if (u->formation == CROWN_COLUMN && rules->fire_column_one_in > n) {
		n = rules->fire_column_one_in;
		*why = "in column";
	}
	return n;
}

static int
shoot(struct crown_engine *e, struct crown_unit *u,
    struct crown_fire_target *t, double range, enum crown_band_name b,
    const char *kind, const char *rule)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*band = &rules->weapon[u->weapon][b];
	struct crown_fire_mods		 mods;
	struct crown_die_rec		*r;
	struct crown_event		*ev;
	struct crown_buf		 rolls = { 0 }, scores = { 0 };
	const char			*why;
	char				*mtext = NULL, *ctext = NULL;
	char				*head = NULL, *frac = NULL;
	size_t				 ev_i, i;
	int				 nst, nfire, div, k = 0, hits = 0;
	int				 taken = 0, lost = 0, di, killed = 0;

	nst = crown_unit_stands(u);
	div = one_in(e, u, &why);
	nfire = (nst + div - 1) / div;			/* R5.2: round up */
	crown_fire_mods_collect(&mods, e, u, t, false);
	ev_i = crown_engine_event(e, kind, u->id, rule);
	ev = crown_events_at(e->ev, ev_i);
	ev->target = xstrdup(t->id);
	ev->has_range = true;
	ev->range = range;
	ev->band = xstrdup(crown_fire_band_names[b]);
	crown_buf_puts(&rolls, "");
	crown_buf_puts(&scores, "");
	for (i = 0; i < u->nstands && k < nfire; i++) {
		if (u->stands[i] <= 0)
			continue;
		k++;
		/* FORMATS.md: stand by stand, first stand first */
		di = crown_engine_roll_into(e, ev_i, u->id, "fire", 10);
		if (di < 0)
			goto out;
		r = &crown_events_at(e->ev, ev_i)->dice[di];
		r->who = xasprintf("stand %zu", i + 1);
		crown_fire_mods_apply(&mods, r);
		if (r->score <= band->hit)		/* R5.1 */
			hits++;
		crown_buf_printf(&rolls, "%s%d", k > 1 ? ", " : "", r->roll);
		crown_buf_printf(&scores, "%s%d", k > 1 ? ", " : "",
		    r->score);
	}
	crown_fire_unload(rules, u);
	crown_engine_tu(e, u)->fired = true;
	if (t->kind == CROWN_AT_UNIT)
		taken = crown_fire_casualties(e, t->unit, hits, false, &lost);
	else if (t->kind == CROWN_AT_LEADER &&
	    (killed = crown_fire_leader_hits(e, ev_i, t->leader, hits)) < 0)
		goto out;
	mtext = crown_fire_mods_text(&mods);
	if (div > 1)
		frac = xasprintf("%d of %d stands (one in %d: %s, R5.2)",
		    nfire, nst, div, why);
	else
		frac = xasprintf("%d stand%s", nfire, nfire == 1 ? "" : "s");
	if (strcmp(kind, "reaction_fire") == 0)
		head = xasprintf("%s fired at the charging %s with the "
		    "numbers of %s range its morale test allowed (%.2f "
		    "inches away)", u->name, t->name,
		    crown_fire_band_names[b], range);
	else
		head = xasprintf("%s fired at %s at %.2f inches (%s range)",
		    u->name, t->name, range, crown_fire_band_names[b]);
	ev = crown_events_at(e->ev, ev_i);
	ev->has_casualties = true;
	if (t->kind == CROWN_AT_LEADER) {
		ev->casualties = killed;
		crown_event_set(&ev->result, killed ? "killed" : "missed");
		crown_event_set(&ev->text, "%s with %s, %s: rolled %s, "
		    "scored %s needing %d or less: %d hit%s on his stand; %s.",
		    head, frac, mtext, rolls.data, scores.data, band->hit,
		    hits, hits == 1 ? "" : "s", killed ? "he was killed" :
		    "he survived");
	} else {
		ev->casualties = taken;
		ctext = crown_fire_casualty_text(taken, lost);
		crown_event_set(&ev->text, "%s with %s, %s: rolled %s, "
		    "scored %s needing %d or less: %s.", head, frac, mtext,
		    rolls.data, scores.data, band->hit, ctext);
	}
out:
	free(ctext);
	free(head);
	free(frac);
	free(mtext);
	crown_buf_release(&rolls);
	crown_buf_release(&scores);
	crown_fire_mods_release(&mods);
	return e->error;
}

/*
 * Orders.
 */

/* R3.5: with too few crew every action costs double; the fire order may
 * have come to lie beyond the budget since the orders were checked. */
static bool
over_budget(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_orders	*o;
	const struct crown_unit_orders	*uo;
	size_t				 i, j;
	int				 spent;

	if (!crown_unit_undercrewed(rules, u) ||
	    (o = crown_engine_side_orders(e, u->side)) == NULL)
		return false;
	for (i = 0; i < o->nunits; i++) {
		uo = &o->units[i];
		if (uo->unit == NULL || strcmp(uo->unit, u->id) != 0)
			continue;
		spent = 0;
		for (j = 0; j < uo->nactions; j++) {
			if (uo->actions[j].kind >= CROWN_NACTION)
				continue;
			spent += crown_action_cost(rules, u,
			    uo->actions[j].kind);
			if (&uo->actions[j] == a)
				return spent > rules->cls[u->cls].actions;
		}
	}
	return false;
}

/* Can u fire at all now?  If not, the order is skipped (R2.2). */
static bool
ready(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	if (crown_is_artillery(u->type) && u->limbered) {
		crown_engine_skip(e, u, a, "R6.6", "%s is limbered and cannot "
		    "fire", u->name);
		return false;
	}
	if (!crown_fire_can_shoot(e->rules, u)) {
		crown_engine_skip(e, u, a, "R5.3", "%s has no weapon that "
		    "fires (%s)", u->name, u->type == CROWN_WAGON ? "wagon" :
		    crown_weapon_names[u->weapon]);
		return false;
	}
	if (!u->loaded) {
		crown_engine_skip(e, u, a, "R3.6", "%s is not loaded%s",
		    u->name, u->weapon == CROWN_REPEATING_RIFLE &&
		    !crown_is_artillery(u->type) ? " (its repeaters are "
		    "empty)" : "");
		return false;
	}
	if (crown_is_artillery(u->type) && over_budget(e, u, a)) {
		crown_engine_skip(e, u, a, "R3.5", "with only %d crew every "
		    "action of %s costs double, and this one is over its "
		    "budget", crown_unit_figures(u), u->name);
		return false;
	}
	return true;
}

/* "it reaches 18.00 inches" or why it is too close; caller frees. */
static char *
reach_text(const struct crown_unit *u, const struct crown_band *bands,
    double range)
{
	char		*what, *p, *out;
	double		 lo = -1, hi = 0;
	int		 b;

	for (b = 0; b < CROWN_NBAND; b++) {
		if (!bands[b].present)
			continue;
		if (lo < 0)
			lo = bands[b].min;
		hi = bands[b].max;
	}
	what = xstrdup(crown_is_artillery(u->type) ?
	    crown_gun_names[u->gun] : crown_weapon_names[u->weapon]);
	for (p = what; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	if (lo > 0 && range <= lo)
		out = xasprintf("too close: its %s fires only beyond %.2f "
		    "inches", what, lo);
	else
		out = xasprintf("out of range: its %s reaches %.2f inches",
		    what, hi);
	free(what);
	return out;
}

/* R10.4: the band fire at a detached leader counts as. */
static enum crown_band_name
leader_band(const struct crown_rules *rules, const struct crown_band *bands)
{
	int	b;

	if (bands[rules->leader_fire_band].present)
		return rules->leader_fire_band;
	for (b = CROWN_NBAND - 1; b > 0; b--)
		if (bands[b].present)
			break;
	return (enum crown_band_name)b;
}

static int
fire_at(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a, struct crown_fire_target *t)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*bands;
	enum crown_band_name		 b;
	double				 range;
	char				*why = NULL;
	bool				 art = crown_is_artillery(u->type);

	bands = crown_fire_bands(rules, u);
	range = crown_fire_range(rules, u, t);
	b = crown_rules_band(bands, range);		/* R13.1 */
	if (b == CROWN_NBAND) {
		why = reach_text(u, bands, range);
		crown_engine_skip(e, u, a, art ? "R6.2" : "R5.3",
		    "%s is %.2f inches away, %s", t->name, range, why);
		free(why);
		return e->error;
	}
	if (t->kind == CROWN_AT_LEADER)
		b = leader_band(rules, bands);
	if (!crown_fire_in_arc(rules, u, t)) {
		crown_engine_skip(e, u, a, "R5.6", "%s is not ahead of its "
		    "front edge", t->name);
		return e->error;
	}
	if (!crown_fire_sight(&why, e, u, t)) {
		crown_engine_skip(e, u, a, "R5.6", "it cannot see %s: %s",
		    t->name, why);
		free(why);
		return e->error;
	}
	if (art)
		return crown_artillery_shoot(e, u, t, range, b,
		    "artillery_fire", t->kind == CROWN_AT_LEADER ? "R10.4" :
		    "R6.2");
	return shoot(e, u, t, range, b, "fire",
	    t->kind == CROWN_AT_LEADER ? "R10.4" : "R5.1");
}

/* R2.3: fire at the nearest enemy in range, arc and sight, else hold. */
static int
fire_at_will(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*bands;
	struct crown_fire_target	 t;
	struct crown_unit		*o, *best = NULL;
	struct crown_event		*ev;
	struct crown_geom_box		 box;
	struct crown_quad		 q;
	const size_t			*near;
	size_t				*cand;
	double				 range, best_range = 0, reach = 0;
	char				*why;
	size_t				 i, n, ev_i;
	int				 b;

	bands = crown_fire_bands(rules, u);
	for (b = 0; b < CROWN_NBAND; b++)
		if (bands[b].present && bands[b].max > reach)
			reach = bands[b].max;
	/* the units within reach, in state order (copied: sight queries
	 * the index again) */
	crown_unit_footprint(&q, rules, u);
	box = crown_geom_bounds(q.c, 4);
	n = crown_engine_units_near(e, &box, reach, &near);
	cand = xreallocarray(NULL, n ? n : 1, sizeof(*cand));
	if (n > 0)
		memcpy(cand, near, n * sizeof(*cand));
	for (i = 0; i < n; i++) {
		o = &e->s->units[cand[i]];
		if (o == u || o->status == CROWN_LOST || o->nstands == 0 ||
		    strcmp(o->side, u->side) == 0 || in_melee(e->s, o->id))
			continue;
		crown_fire_target_unit(&t, rules, o);
		range = crown_fire_range(rules, u, &t);
		/* ties: the first in state order */
		if (best != NULL && range >= best_range)
			continue;
		if (crown_rules_band(bands, range) == CROWN_NBAND ||
		    !crown_fire_in_arc(rules, u, &t))
			continue;
		if (!crown_fire_sight(&why, e, u, &t)) {
			free(why);
			continue;
		}
		best = o;
		best_range = range;
	}
	free(cand);
	if (best == NULL) {
		ev_i = crown_engine_event(e, "hold", u->id, "R2.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "no_target");
		crown_event_set(&ev->text, "%s held its fire: no enemy was in "
		    "range, ahead of it and in sight.", u->name);
		return e->error;
	}
	crown_fire_target_unit(&t, rules, best);
	return fire_at(e, u, a, &t);
}

int
crown_action_fire(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_fire_target	 t;
	struct crown_unit		*tu;
	struct crown_leader		*ld;
	struct crown_feature		*f;
	struct crown_event		*ev;
	size_t				 ev_i;

	if (e->error != 0)
		return e->error;
	/* R2.3: a wagon, lancers or a limbered gun simply hold */
	if (a->target == NULL && (!crown_fire_can_shoot(e->rules, u) ||
	    (crown_is_artillery(u->type) && u->limbered))) {
		ev_i = crown_engine_event(e, "hold", u->id, "R2.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "cannot_fire");
		crown_event_set(&ev->text, "%s held its ground.", u->name);
		return e->error;
	}
	if (!ready(e, u, a))
		return e->error;
	if (a->target == NULL)
		return fire_at_will(e, u, a);
	if (a->target_building) {
		if ((f = crown_state_building(e->s, a->target)) == NULL ||
		    !crown_is_artillery(u->type)) {
			crown_engine_skip(e, u, a, "R11.2", "only a gun can "
			    "fire at building '%s'", a->target);
			return e->error;
		}
		return crown_artillery_building(e, u, a, f);
	}
	if ((tu = crown_state_unit(e->s, a->target)) != NULL) {
		if (tu->status == CROWN_LOST || tu->nstands == 0) {
			crown_engine_skip(e, u, a, "R2.2", "%s is %s",
			    tu->name, tu->abandoned ? "an abandoned gun" :
			    "lost");
			return e->error;
		}
		if (strcmp(tu->side, u->side) == 0) {
			crown_engine_skip(e, u, a, "R5.1", "%s is of its own "
			    "side", tu->name);
			return e->error;
		}
		crown_fire_target_unit(&t, e->rules, tu);
	} else if ((ld = crown_state_leader(e->s, a->target)) != NULL) {
		if (ld->status != CROWN_LEADER_OK) {
			crown_engine_skip(e, u, a, "R2.2", "%s was %s",
			    ld->name, crown_leader_status_names[ld->status]);
			return e->error;
		}
		if (ld->attached != NULL) {
			crown_engine_skip(e, u, a, "R10.4", "%s is with '%s' "
			    "now: fire at the unit", ld->name, ld->attached);
			return e->error;
		}
		if (strcmp(ld->side, u->side) == 0) {
			crown_engine_skip(e, u, a, "R10.4", "%s is of its own "
			    "side", ld->name);
			return e->error;
		}
		crown_fire_target_leader(&t, ld);
	} else {
		crown_engine_skip(e, u, a, "R2.2", "there is no '%s' to fire "
		    "at", a->target);
		return e->error;
	}
	return fire_at(e, u, a, &t);
}

int
crown_fire_reaction(struct crown_engine *e, struct crown_unit *u,
    struct crown_unit *target, enum crown_band_name band)
{
	const struct crown_rules	*rules = e->rules;
	struct crown_fire_target	 t;
	struct crown_event		*ev;
	const char			*rule = NULL;
	char				*why = NULL;
	size_t				 ev_i;

	if (e->error != 0)
		return e->error;
	crown_fire_target_unit(&t, rules, target);
	/* R9.2: only a loaded unit with the charger in its arc fires */
	if (u->status != CROWN_OK_STATUS) {
		rule = "R8.2";
		why = xasprintf("it is %s", crown_status_names[u->status]);
	} else if (crown_is_artillery(u->type) && u->limbered) {
		rule = "R6.6";
		why = xstrdup("it is limbered");
	} else if (!crown_fire_can_shoot(rules, u)) {
		rule = "R5.3";
		why = xstrdup("it has no weapon that fires");
	} else if (!u->loaded) {
		rule = "R3.6";
		why = xstrdup("it is not loaded");
	} else if ((int)band < 0 || band >= CROWN_NBAND ||
	    !crown_fire_bands(rules, u)[band].present) {
		rule = crown_is_artillery(u->type) ? "R6.2" : "R5.3";
		why = xasprintf("its %s has no %s range",
		    crown_is_artillery(u->type) ? crown_gun_names[u->gun] :
		    crown_weapon_names[u->weapon],
		    crown_fire_band_name(u, band));
	} else if (!crown_fire_in_arc(rules, u, &t)) {
		rule = "R5.6";
		why = xasprintf("%s is not ahead of its front edge",
		    target->name);
	}
	if (why != NULL) {
		ev_i = crown_engine_event(e, "reaction_fire", u->id, "R9.2");
		ev = crown_events_at(e->ev, ev_i);
		ev->target = xstrdup(target->id);
		ev->reason = xasprintf("%s (%s)", why, rule);
		crown_event_set(&ev->result, "no_fire");
		crown_event_set(&ev->text, "%s could not fire at the charging "
		    "%s: %s (%s).", u->name, target->name, why, rule);
		free(why);
		return e->error;
	}
	if (crown_is_artillery(u->type))
		return crown_artillery_shoot(e, u, &t,
		    crown_fire_range(rules, u, &t), band, "reaction_fire",
		    "R9.2");
	return shoot(e, u, &t, crown_fire_range(rules, u, &t), band,
	    "reaction_fire", "R9.2");
}
