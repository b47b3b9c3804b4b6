/*
 * firing.c: what small-arms fire (fire.c) and artillery (artillery.c)
 * share: targets, range, arc and sight (R5.6), cover (R5.5), the
 * modifiers of a shot (R5.4) and casualties (R1.3, R7.1, R8.2, R10.4).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/context.h"
#include "crown/falls.h"
#include "crown/firing.h"
#include "crown/spatial.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

const char *const crown_fire_band_names[CROWN_NBAND] = {
	"close", "medium", "long"
};
const char *const crown_gun_band_names[CROWN_NBAND] = {
	"canister", "effective", "long"
};

static char	*label(const struct crown_feature *);

/* "light woods 'Bosque'" for sentences; caller frees. */
static char *
label(const struct crown_feature *f)
{
	char	*kind, *out;

	kind = crown_words_dup(crown_terrain_names[f->type]);
	out = xasprintf("%s '%s'", kind, f->name != NULL ? f->name : f->id);
	free(kind);
	return out;
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

void
crown_fire_event_shot(struct crown_event *ev, const struct crown_unit *u,
    const struct crown_fire_target *t, double range, const char *band)
{
	ev->target = xstrdup(t->id);
	ev->has_range = true;
	ev->range = range;
	ev->band = xstrdup(band);
	ev->has_at = true;
	ev->at = (struct crown_point){ u->x, u->y };
	ev->target_at = t->aim;
}

/*
 * Bands, range, arc and sight (R5.3, R5.6, R6.2).
 */

const char *
crown_fire_band_name(const struct crown_unit *u, enum crown_band_name b)
{
	if ((int)b < 0 || b >= CROWN_NBAND)
		return "out of range";
	return crown_is_artillery(u->type) ? crown_gun_band_names[b] :
	    crown_fire_band_names[b];
}

double
crown_fire_range(const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_fire_target *t)
{
	struct crown_quad	q;

	crown_unit_footprint(&q, rules, u);
	/* R13.1: the range as the bands judge it */
	return crown_rules_distance(rules, crown_geom_dist_poly(q.c, 4,
	    t->pts, t->npts));
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
			if (!crown_rules_within(rules, len,
			    rules->thick_woods_sight)) {
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
    const struct crown_unit *firer, const struct crown_fire_target *at,
    bool buildings_only)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_state	*s = e->s;
	const struct crown_unit		*t = at->unit;
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
	memcpy(q.c, at->shape, sizeof(q.c));
	c = crown_geom_quad_centre(&q);
	b = at->aim;
	a.x = firer != NULL ? firer->x : b.x;
	a.y = firer != NULL ? firer->y : b.y;
	/* what holds its centre, or a wall within reach of its front */
	box = crown_geom_bounds(q.c, 4);
	n = crown_engine_terrain_near(e, &box, rules->wall_cover_distance,
	    &near);
	for (i = 0; i < n; i++) {
		f = &s->terrain[near[i]];
		if (f->npts == 0)
			continue;
		if (f->type == CROWN_BUILDING) {
			if (!crown_geom_point_in_poly(c, f->pts, f->npts) ||
			    !crown_building_shelters(s, rules, f, t))
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
			    f->npts) || !crown_rules_within(rules, d,
			    rules->wall_cover_distance))
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

enum crown_cover
crown_fire_cover_here(char **what, const char **rule, struct crown_engine *e,
    const struct crown_unit *u)
{
	struct crown_fire_target	t;

	crown_fire_target_unit(&t, e->rules, (struct crown_unit *)u);
	return crown_fire_cover(what, rule, e, NULL, &t, false);
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
		    "detached leader, %s cover", crown_cover_words[cov]);
	} else if (t->kind == CROWN_AT_UNIT) {
		if (t->unit->type == CROWN_CAVALRY)
			crown_fire_mods_add(m, rules->fire_mod.target_cavalry,
			    "R5.4", "target is cavalry");
		cov = crown_fire_cover(&what, &rule, e, u, t, howitzer);
		if (cov != CROWN_COVER_NONE)
			crown_fire_mods_add(m, rules->fire_mod.cover[cov],
			    rule, "%s cover %s", crown_cover_words[cov], what);
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
