/*
 * leaders.c: officers and generals (R4.6, R10).
 *
 * Leader orders (R4.6) are carried out after the units' actions of the
 * phasing side, leaders in the order of the orders file, each as: detach,
 * move, attach.  A leader walks at most leader_move inches a half-turn in
 * all, straight, with no dice and no terrain penalty, but never into
 * terrain N/A for cavalry.  An attached leader stands at his unit's
 * position; moving, or attaching elsewhere, detaches him first.  Joining a
 * unit is a walk to its position, within what is left of his allowance;
 * short of it he walks as far as he may and does not join.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/leaders.h"
#include "crown/track.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static const char *leader_name(const struct crown_leader *);
static size_t	leader_event(struct crown_engine *,
		    const struct crown_leader *, const char *);
static void	leader_skip(struct crown_engine *,
		    const struct crown_leader *, const char *, const char *,
		    const char *);
static void	leader_detach(struct crown_engine *, struct crown_leader *,
		    bool);
static double	leader_move(struct crown_engine *, struct crown_leader *,
		    struct crown_point, double, const struct crown_unit *);
static void	leader_orders(struct crown_engine *,
		    const struct crown_leader_orders *);

static const char *
leader_name(const struct crown_leader *ld)
{
	return ld->name != NULL ? ld->name : ld->id;
}

static size_t
leader_event(struct crown_engine *e, const struct crown_leader *ld,
    const char *kind)
{
	size_t	i;

	i = crown_engine_event(e, kind, NULL, "R4.6");
	crown_event_set(&crown_events_at(e->ev, i)->leader, "%s", ld->id);
	return i;
}

static void
leader_skip(struct crown_engine *e, const struct crown_leader *ld,
    const char *order, const char *rule, const char *reason)
{
	struct crown_event	*ev;
	size_t			 i;

	i = crown_engine_event(e, "order_skipped", NULL, rule);
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->leader, "%s", ld->id);
	crown_event_set(&ev->order, "%s", order);
	crown_event_set(&ev->reason, "%s", reason);
	crown_event_set(&ev->text, "%s's order to %s was not carried out: "
	    "%s.", leader_name(ld), order, reason);
}

/* He stays where his unit stands. */
static void
leader_detach(struct crown_engine *e, struct crown_leader *ld, bool ordered)
{
	struct crown_event	*ev;
	struct crown_point	 p;
	const struct crown_unit	*u;
	size_t			 i;

	if (ld->attached == NULL)
		return;
	p = crown_leader_pos(e->s, ld);
	u = crown_state_unit(e->s, ld->attached);
	i = leader_event(e, ld, "detach");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->target, "%s", ld->attached);
	crown_event_set(&ev->result, "detached");
	ev->has_from = ev->has_to = true;
	ev->from = ev->to = p;
	crown_event_set(&ev->text, "%s left %s%s.", leader_name(ld),
	    u != NULL ? u->name : ld->attached, ordered ? "" :
	    " to ride on his own");
	free(ld->attached);
	ld->attached = NULL;
	ld->x = p.x;
	ld->y = p.y;
}

/*
 * Walk towards `to' with `budget' inches left; returns the inches walked.
 * `join': the unit he is making for, for the sentence.
 */
static double
leader_move(struct crown_engine *e, struct crown_leader *ld,
    struct crown_point to, double budget, const struct crown_unit *join)
{
	const struct crown_feature	*blocked;
	struct crown_event		*ev;
	struct crown_point		 from, end;
	double				 want, walked;
	size_t				 i;
	char				*w, *o, *cap, *d;

	from = crown_leader_pos(e->s, ld);
	end = crown_track_leader_walk(e->s, e->rules, from, to, budget,
	    &blocked);
	want = crown_geom_dist(from, to);
	walked = crown_geom_dist(from, end);
	ld->x = end.x;
	ld->y = end.y;
	i = leader_event(e, ld, "move");
	ev = crown_events_at(e->ev, i);
	ev->has_from = ev->has_to = true;
	ev->from = from;
	ev->to = end;
	crown_event_set(&ev->order, "move");
	w = crown_inches(walked);
	o = crown_inches(want);
	cap = crown_inches(e->rules->leader_move);
	crown_event_set(&ev->result, "%s", blocked != NULL ? "blocked" :
	    end.x == to.x && end.y == to.y ? "moved" : "out_of_reach");
	if (walked > 0)
		d = xasprintf("went %s inch%s %s", w, strcmp(w, "1") == 0 ?
		    "" : "es", crown_geom_compass(crown_geom_bearing(from,
		    end)));
	else
		d = xstrdup("stayed where he was");
	crown_event_set(&ev->text, "%s %s%s%s%s%s%s%s.", leader_name(ld), d,
	    join != NULL ? " towards " : "",
	    join != NULL ? join->name : "",
	    blocked != NULL ? ", halting at " : "",
	    blocked != NULL ? (blocked->name != NULL ? blocked->name :
	    blocked->id) : "",
	    blocked != NULL ? ", which he may not cross (R4.3)" : "",
	    blocked == NULL && (end.x != to.x || end.y != to.y) ?
	    ": the rest is beyond a leader's move" : "");
	if (blocked == NULL && (end.x != to.x || end.y != to.y)) {
		char *t = ev->text;

		ev->text = NULL;
		crown_event_set(&ev->text, "%s (%s of the %s inches ordered; "
		    "leaders move up to %s)", t, w, o, cap);
		free(t);
	}
	free(d);
	free(w);
	free(o);
	free(cap);
	return walked;
}

static void
leader_orders(struct crown_engine *e, const struct crown_leader_orders *lo)
{
	struct crown_leader	*ld;
	struct crown_unit	*u;
	struct crown_event	*ev;
	struct crown_point	 p, from;
	double			 budget;
	size_t			 i;

	ld = crown_state_leader(e->s, lo->leader);
	if (ld == NULL)
		return;		/* refused at validation */
	if (ld->status != CROWN_LEADER_OK) {
		leader_skip(e, ld, lo->has_move ? "move" : lo->attach != NULL ?
		    "attach" : "detach", "R10.3",
		    crown_leader_status_names[ld->status]);
		return;
	}
	budget = e->rules->leader_move;
	if (lo->detach || lo->has_move || (lo->attach != NULL &&
	    ld->attached != NULL && strcmp(lo->attach, ld->attached) != 0))
		leader_detach(e, ld, lo->detach);
	if (lo->has_move)
		budget -= leader_move(e, ld, lo->to, budget, NULL);
	if (lo->attach == NULL)
		return;
	u = crown_state_unit(e->s, lo->attach);
	if (u == NULL || u->status == CROWN_LOST) {
		leader_skip(e, ld, "attach", "R2.2", "the unit is lost");
		return;
	}
	if (ld->attached != NULL) {
		i = leader_event(e, ld, "attach");
		ev = crown_events_at(e->ev, i);
		crown_event_set(&ev->target, "%s", u->id);
		crown_event_set(&ev->result, "already_attached");
		crown_event_set(&ev->text, "%s stayed with %s.",
		    leader_name(ld), u->name);
		return;
	}
	p.x = u->x;
	p.y = u->y;
	from = crown_leader_pos(e->s, ld);
	if (from.x != p.x || from.y != p.y) {
		if (budget < 0)
			budget = 0;
		leader_move(e, ld, p, budget, u);
		if (ld->x != p.x || ld->y != p.y) {
			leader_skip(e, ld, "attach", "R4.6", "he could not "
			    "reach the unit this half-turn");
			return;
		}
	}
	free(ld->attached);
	ld->attached = xstrdup(u->id);
	i = leader_event(e, ld, "attach");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->target, "%s", u->id);
	crown_event_set(&ev->result, "attached");
	ev->has_to = true;
	ev->to = p;
	crown_event_set(&ev->text, "%s joined %s.", leader_name(ld),
	    u->name);
}

int
crown_leaders_actions(struct crown_engine *e, const struct crown_orders *o)
{
	size_t	i;

	for (i = 0; i < o->nleaders && e->error == 0; i++)
		if (o->leaders[i].leader != NULL)
			leader_orders(e, &o->leaders[i]);
	return e->error;
}
