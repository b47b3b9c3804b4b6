/*
 * artillery.c: guns (R6): their fire at units, leaders and buildings
 * (R6.1-R6.3, R11.2), crews made good by infantry (R6.4), abandoned guns
 * and their capture (R6.5).
 *
 * Choices where RULES.md is silent:
 * - R6.4: infantry make good a gun's crew with a `help: GUN` order (the
 *   gun not being stuck): a unit of a class in rules->crew_replace within
 *   rules->crew_replace.reach inches of the gun hands over figures, from
 *   its last stand (R1.3), until the crew is back to its starting
 *   strength.  The gun counts them in `crew_replaced`.  Casualties fall on
 *   the original gunners first, so the original crew left is the figures
 *   less `crew_replaced`.
 * - R6.5: an abandoned gun keeps its place as a marker: the unit gets
 *   `abandoned: true` and status lost (the crew is gone from the field).
 *   After each actions phase, a gun marker touching a unit in good order
 *   (not a gun or wagon) of another side, and none of its own, changes to
 *   that side: captured.  It can be taken back the same way.
 * - R11.2: the roll against a building's class takes only the siege
 *   modifier and the gun's own disorder and rallied marks (R3.7, R8.6),
 *   not the crew's class; the men inside take nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/artillery.h"
#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/context.h"
#include "crown/firing.h"
#include "crown/spatial.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

static bool	in_contact(const struct crown_rules *,
		    const struct crown_unit *, const struct crown_unit *);

int
crown_artillery_shoot(struct crown_engine *e, struct crown_unit *g,
    struct crown_fire_target *t, double range, enum crown_band_name b,
    const char *kind, const char *rule, const char *numbers)
{
	const struct crown_rules	*rules = e->rules;
	char				 ricochet[96];
	struct crown_fire_mods		 mods;
	struct crown_die_rec		*r;
	struct crown_event		*ev;
	enum crown_cover		 all, kept;
	const char			*crule;
	char				*mtext = NULL, *ctext = NULL;
	char				*what = NULL, *what2 = NULL;
	char				*note = NULL;
	size_t				 ev_i;
	int				 di, score, cas, taken = 0, lost = 0;
	int				 killed = 0;
	bool				 how = g->gun == CROWN_HOWITZER;

	/* R6.2: crew class and the R5.4 target modifiers; R6.1: a
	 * howitzer's shells drop behind everything but a building */
	crown_fire_mods_collect(&mods, e, g, t, how);
	if (how && t->kind == CROWN_AT_UNIT) {
		all = crown_fire_cover(&what, &crule, e, g, t, false);
		kept = crown_fire_cover(&what2, &crule, e, g, t, true);
		if (kept < all)
			note = xasprintf(" (a howitzer ignores %s cover %s, "
			    "R6.1)", crown_cover_words[all], what);
		free(what);
		free(what2);
	}
	ev_i = crown_engine_event(e, kind, g->id, rule);
	ev = crown_events_at(e->ev, ev_i);
	crown_fire_event_shot(ev, g, t, range, crown_gun_band_names[b]);
	di = crown_engine_roll_into(e, ev_i, g->id, "fire",
	    rules->gun_die);
	if (di < 0)
		goto out;
	r = &crown_events_at(e->ev, ev_i)->dice[di];
	r->who = xstrdup("gun");
	crown_fire_mods_apply(&mods, r);
	score = r->score;
	cas = crown_rules_art_casualties(rules, score, b);	/* R6.2-3 */
	crown_fire_unload(rules, g);
	crown_engine_tu(e, g)->fired = true;
	if (t->kind == CROWN_AT_UNIT)
		taken = crown_fire_casualties(e, t->unit, cas, true, &lost);
	else if (t->kind == CROWN_AT_LEADER &&
	    (killed = crown_fire_leader_hits(e, ev_i, t->leader, cas)) < 0)
		goto out;
	mtext = crown_fire_mods_text(&mods);
	ev = crown_events_at(e->ev, ev_i);
	ev->has_casualties = true;
	if (t->kind == CROWN_AT_LEADER) {
		ev->casualties = killed;
		crown_event_set(&ev->result, killed ? "killed" : "missed");
		ctext = xstrdup(killed ? "he was killed" : "he survived");
	} else {
		ev->casualties = taken;
		ctext = crown_fire_casualty_text(taken, lost);
	}
	/* R6.3: the factor is data */
	snprintf(ricochet, sizeof(ricochet), "the shot ricocheted through the "
	    "ranks, casualties x%d (R6.3): ", rules->ricochet_factor);
	if (numbers != NULL)
		crown_event_set(&ev->text, "%s fired at the charging %s at "
		    "%.2f inches, %s: ", g->name, t->name, range, numbers);
	else
		crown_event_set(&ev->text, "%s fired at %s at %.2f inches "
		    "(%s%s): ", g->name, t->name, range,
		    crown_gun_band_names[b],
		    b == CROWN_BAND_CLOSE ? "" : " range");
	crown_event_set(&ev->text, "%srolled %d, scored %d, %s%s: %s%s.",
	    ev->text, r->roll, score, mtext,
	    note != NULL ? note : "",
	    score <= rules->ricochet_score && cas > 0 ? ricochet : "",
	    ctext);
out:
	free(note);
	free(ctext);
	free(mtext);
	crown_fire_mods_release(&mods);
	return e->error;
}

int
crown_artillery_building(struct crown_engine *e, struct crown_unit *g,
    const struct crown_action_order *a, struct crown_feature *f)
{
	const struct crown_rules	*rules = e->rules;
	const struct crown_band		*bands;
	struct crown_fire_target	 t;
	struct crown_fire_mods		 mods;
	struct crown_die_rec		*r;
	struct crown_event		*ev;
	enum crown_band_name		 b;
	enum crown_cover		 cov;
	double				 range;
	char				*why = NULL, *mtext = NULL;
	char				*dmg = NULL;
	size_t				 ev_i;
	int				 di, per;
	bool				 hit, stepped;

	if (f->bclass < 1 || f->bclass > rules->nbuilding_class) {
		crown_engine_skip(e, g, a, "R11.3", "building '%s' has no "
		    "class (settle it with the average die)", f->id);
		return e->error;
	}
	crown_fire_target_building(&t, f);
	bands = crown_unit_bands(rules, g);
	range = crown_fire_range(rules, g, &t);
	if ((b = crown_rules_band(bands, range)) == CROWN_NBAND) {
		crown_engine_skip(e, g, a, "R6.2", "%s is %.2f inches away, "
		    "beyond the reach of its %s", t.name, range,
		    crown_gun_names[g->gun]);
		return e->error;
	}
	if (!crown_fire_in_arc(rules, g, &t)) {
		crown_engine_skip(e, g, a, "R5.6", "%s is not ahead of its "
		    "front edge", t.name);
		return e->error;
	}
	if (!crown_fire_sight(&why, e, g, &t)) {
		crown_engine_skip(e, g, a, "R5.6", "it cannot see %s: %s",
		    t.name, why);
		free(why);
		return e->error;
	}
	memset(&mods, 0, sizeof(mods));
	if (g->type == CROWN_SIEGE_ART)
		crown_fire_mods_add(&mods, rules->building_siege_mod, "R11.2",
		    "siege gun");
	if (g->disordered)
		crown_fire_mods_add(&mods, rules->fire_mod.disordered, "R3.7",
		    "disordered");
	if (g->rallied)
		crown_fire_mods_add(&mods, rules->fire_mod.rallied, "R8.6",
		    "rallied earlier");
	ev_i = crown_engine_event(e, "building_hit", g->id, "R11.2");
	ev = crown_events_at(e->ev, ev_i);
	crown_fire_event_shot(ev, g, &t, range, crown_gun_band_names[b]);
	di = crown_engine_roll_into(e, ev_i, g->id, "fire",
	    rules->gun_die);
	if (di < 0)
		goto out;
	r = &crown_events_at(e->ev, ev_i)->dice[di];
	r->who = xstrdup("gun");
	crown_fire_mods_apply(&mods, r);
	hit = r->score <= f->bclass;
	stepped = hit && crown_building_damage(rules, f);
	crown_fire_unload(rules, g);
	crown_engine_tu(e, g)->fired = true;
	mtext = crown_fire_mods_text(&mods);
	ev = crown_events_at(e->ev, ev_i);
	r = &ev->dice[di];
	ev->has_casualties = true;
	ev->casualties = hit ? 1 : 0;
	crown_event_set(&ev->result, hit ? "hit" : "miss");
	cov = crown_building_cover(rules, f);
	per = rules->building[f->bclass - 1].casualties;
	if (hit)
		dmg = xasprintf("a hit, which brings its casualties to %d "
		    "(every %d take its cover down a step)%s%s", f->damage,
		    per, stepped ? "; its cover is now " : "", !stepped ?
		    "" : cov == CROWN_COVER_NONE ? "gone" :
		    crown_cover_words[cov]);
	crown_event_set(&ev->text, "%s fired at %s (class %d) at %.2f inches: "
	    "rolled %d, scored %d, %s, needing %d or less: %s.", g->name,
	    t.name, f->bclass, range, r->roll, r->score, mtext, f->bclass,
	    hit ? dmg : "a miss");
out:
	free(dmg);
	free(mtext);
	crown_fire_mods_release(&mods);
	return e->error;
}

void
crown_artillery_abandon(struct crown_engine *e, struct crown_unit *u)
{
	struct crown_event	*ev;
	size_t			 ev_i;

	if (!crown_is_artillery(u->type) || u->abandoned)
		return;
	/* R6.5: the crew leaves; the gun stays where it is, a marker */
	u->abandoned = true;
	u->status = CROWN_LOST;
	u->loaded = false;
	ev_i = crown_engine_event(e, "abandoned", u->id, "R6.5");
	ev = crown_events_at(e->ev, ev_i);
	ev->has_to = true;
	ev->to.x = u->x;
	ev->to.y = u->y;
	crown_event_set(&ev->result, "abandoned");
	crown_event_set(&ev->text, "The crew of %s left its gun, which stands "
	    "abandoned at (%.2f, %.2f).", u->name, u->x, u->y);
}

/* Footprints touch or overlap. */
static bool
in_contact(const struct crown_rules *rules, const struct crown_unit *a,
    const struct crown_unit *b)
{
	struct crown_quad	qa, qb;

	crown_unit_footprint(&qa, rules, a);
	crown_unit_footprint(&qb, rules, b);
	return crown_geom_dist_quad(&qa, &qb) <= CROWN_CONTACT;
}

int
crown_artillery_captures(struct crown_engine *e)
{
	struct crown_unit	*g, *o, *captor;
	struct crown_event	*ev;
	struct crown_geom_box	 box;
	struct crown_quad	 q;
	const size_t		*near;
	size_t			 i, j, n, ev_i;
	bool			 guarded;
	char			*old;
	int			 k;

	for (i = 0; i < e->s->nunits && e->error == 0; i++) {
		g = &e->s->units[i];
		if (!g->abandoned)
			continue;
		captor = NULL;
		guarded = false;
		crown_unit_footprint(&q, e->rules, g);
		box = crown_geom_bounds(q.c, 4);
		n = crown_engine_units_near(e, &box, CROWN_CONTACT, &near);
		for (j = 0; j < n; j++) {
			o = &e->s->units[near[j]];
			if (o == g || o->status != CROWN_OK_STATUS ||
			    o->nstands == 0 || crown_is_artillery(o->type) ||
			    o->type == CROWN_WAGON ||
			    !in_contact(e->rules, o, g))
				continue;
			if (strcmp(o->side, g->side) == 0)
				guarded = true;
			else if (captor == NULL)
				captor = o;	/* first in state order */
		}
		if (captor == NULL || guarded)
			continue;
		old = g->side;
		g->side = xstrdup(captor->side);
		ev_i = crown_engine_event(e, "captured", g->id, "R6.5");
		ev = crown_events_at(e->ev, ev_i);
		ev->target = xstrdup(captor->id);
		crown_event_set(&ev->result, "captured");
		k = crown_state_side(e->s, old);
		crown_event_set(&ev->text, "%s captured the abandoned gun of "
		    "%s from %s.", captor->name, g->name,
		    k >= 0 && e->s->sides[k].name != NULL ?
		    e->s->sides[k].name : old);
		free(old);
	}
	return e->error;
}

int
crown_artillery_crew(struct crown_engine *e, struct crown_unit *h,
    struct crown_unit *g, const struct crown_action_order *a)
{
	const struct crown_rules	*rules = e->rules;
	struct crown_event		*ev;
	struct crown_quad		 qh, qg;
	double				 d;
	size_t				 ev_i;
	int				 figs, original, want, n;

	if (e->error != 0)
		return e->error;
	figs = crown_unit_figures(g);
	original = figs - (g->crew_replaced < figs ? g->crew_replaced :
	    figs);
	if (!crown_is_artillery(g->type) || g->status != CROWN_OK_STATUS ||
	    strcmp(g->side, h->side) != 0) {
		crown_engine_skip(e, h, a, "R6.4", "%s is not a gun of its "
		    "side in action", g->name);
		return e->error;
	}
	if (h->type != CROWN_INFANTRY || !rules->crew_replace.cls[h->cls]) {
		crown_engine_skip(e, h, a, "R6.4", "%s is %s %s, not infantry "
		    "of a class that may serve a gun", h->name,
		    crown_class_names[h->cls], crown_utype_names[h->type]);
		return e->error;
	}
	if (original < rules->crew_replace.min_original ||
	    original <= 0) {
		crown_engine_skip(e, h, a, "R6.4", "none of the original crew "
		    "of %s is left to show them how", g->name);
		return e->error;
	}
	want = g->start_figures - figs;
	if (want <= 0) {
		crown_engine_skip(e, h, a, "R6.4", "%s has its full crew",
		    g->name);
		return e->error;
	}
	crown_unit_footprint(&qh, rules, h);
	crown_unit_footprint(&qg, rules, g);
	d = crown_geom_dist_quad(&qh, &qg);
	if (!crown_rules_within(rules, d, rules->crew_replace.reach)) {
		crown_engine_skip(e, h, a, "R6.4", "%s is %.2f inches from "
		    "%s; it must be within %.2f", h->name, d, g->name,
		    rules->crew_replace.reach);
		return e->error;
	}
	/* R1.3: the men come from the helper's last stand first */
	n = crown_unit_take_casualties(h, want);
	crown_engine_unit_moved(e, h);
	g->stands[g->nstands - 1] += n;
	g->crew_replaced += n;
	ev_i = crown_engine_event(e, "crew_replaced", h->id, "R6.4");
	ev = crown_events_at(e->ev, ev_i);
	ev->target = xstrdup(g->id);
	ev->has_casualties = true;
	ev->casualties = n;
	crown_event_set(&ev->result, "crew_replaced");
	crown_event_set(&ev->text, "%s sent %d %s to serve %s, which now has "
	    "%d crew (%d of them infantry).", h->name, n,
	    n == 1 ? "man" : "men", g->name, crown_unit_figures(g),
	    g->crew_replaced);
	if (h->status == CROWN_LOST) {
		ev_i = crown_engine_event(e, "lost", h->id, "R1.3");
		ev = crown_events_at(e->ev, ev_i);
		crown_event_set(&ev->result, "lost");
		crown_event_set(&ev->text, "%s gave its last men to the guns "
		    "and is no more.", h->name);
	}
	return e->error;
}
