/*
 * carried.c: the parts of a turn's report model that come from the orders
 * and the sides: each unit's orders as carried out or not and why
 * (carried[], not_carried[], not_carried_by_rule[]), the orders the turn
 * skipped, each side's tally of losses and routs, and what needs the
 * umpire's look.  render.c calls these beside report.c's parts.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crown/fmt.h"
#include "crown/report.h"
#include "crown/template.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "report-model.h"

static void
model_action(struct crown_tval *m, const struct model *mo,
    const struct crown_action_order *a)
{
	struct crown_tval	*path, *p;
	size_t			 i;

	crown_rm_put_words(m, "action", crown_action_names[a->kind]);
	crown_rm_put_flag(m, "action", crown_action_names[a->kind]);
	if (a->npath > 0) {
		crown_rm_put_point(m, "to", a->path[a->npath - 1]);
		if (a->npath > 1) {
			path = crown_tmap_list(m, "path");
			for (i = 0; i < a->npath; i++) {
				p = crown_tlist_map(path);
				crown_tmap_num2(p, "x", a->path[i].x);
				crown_tmap_num2(p, "y", a->path[i].y);
			}
		}
	}
	if (a->has_face) {
		crown_tmap_bool(m, "has_face", true);
		crown_tmap_int(m, "face", a->face);
	}
	if (a->road)
		crown_tmap_bool(m, "road", true);
	if (a->target != NULL) {
		crown_tmap_str(m, "target", a->target);
		crown_tmap_str(m, "target_name",
		    crown_rm_thing_name(mo, a->target));
		if (a->target_building)
			crown_tmap_bool(m, "building", true);
	}
	/* always set, so that a template inside a unit does not find the
	 * unit's own formation */
	crown_tmap_str(m, "formation", a->kind == CROWN_FORMATION ?
	    crown_formation_names[a->formation] : "");
}

/*
 * The actions a skipped order (an order_skipped event) names: the first
 * of its kind not yet marked; one the orders do not hold (the engine's
 * own) is added to not_carried[] alone.
 */
static struct crown_tval *
mark_skipped(struct crown_tval *um, struct crown_tval *not_carried,
    struct crown_tval **acts, bool *marked,
    const struct crown_unit_orders *uo, const struct crown_tval *ev,
    const struct crown_event *e)
{
	struct crown_tval	*a;
	size_t			 k;

	for (k = 0; k < uo->nactions; k++)
		if (!marked[k] && e->order != NULL && strcmp(e->order,
		    crown_action_names[uo->actions[k].kind]) == 0)
			break;
	if (k < uo->nactions) {
		marked[k] = true;
		a = acts[k];
	} else {
		a = crown_tmap_map(um, "unordered");
		crown_rm_put_words(a, "action", e->order);
		crown_tmap_str(a, "formation", "");
	}
	crown_tmap_bool(a, "skipped", true);
	crown_tmap_bool(a, "short", false);
	crown_tmap_str(a, "rule", e->rule != NULL ? e->rule : "");
	crown_tmap_ref(a, "why", ev);
	crown_tlist_ref(not_carried, a);
	return a;
}

/*
 * The action of the unit's orders that event e carries out: the first of
 * its kind not yet used (a move or manhandle names its order; a charge's
 * test uses a charge, its move the charge the test used, or else one of
 * its own); SIZE_MAX for
 * an event no order led to.
 */
static size_t
event_action(const struct crown_unit_orders *uo, bool *used, size_t *charge,
    const struct crown_event *e)
{
	const char	*kind;
	size_t		 k;

	if (strcmp(e->kind, "charge_move") == 0 && *charge != SIZE_MAX)
		return *charge;
	if (strncmp(e->kind, "charge_", 7) == 0)
		kind = "charge";
	else if (strcmp(e->kind, "move") == 0 && e->order != NULL)
		kind = e->order;
	else
		return SIZE_MAX;
	for (k = 0; k < uo->nactions; k++)
		if (!used[k] && strcmp(kind,
		    crown_action_names[uo->actions[k].kind]) == 0)
			break;
	if (k == uo->nactions)
		return SIZE_MAX;
	used[k] = true;
	if (strcmp(kind, "charge") == 0)
		*charge = k;
	return k;
}

/*
 * An action begun but not carried out in full (its event has a reason):
 * a move stopped short or spent before its way's end, a charge that did
 * not go in or fell short.  `became` says so in brief, `rule` the rule.
 */
static void
mark_short(struct crown_tval *a, struct crown_tval *not_carried,
    const struct crown_tval *ev, const struct crown_event *e)
{
	char	d[CROWN_FMT_MAX], len[CROWN_FMT_MAX];

	/* both set, so that a template inside the action does not find
	 * the unit's skipped[] */
	crown_tmap_bool(a, "short", true);
	crown_tmap_bool(a, "skipped", false);
	crown_tmap_ref(a, "why", ev);
	crown_tmap_str(a, "rule", e->reason_rule != NULL ? e->reason_rule :
	    e->rule != NULL ? e->rule : "");
	if (strcmp(e->kind, "charge_test") == 0)
		crown_tmap_printf(a, "became", "did not charge: %s",
		    e->reason);
	else if (strcmp(e->kind, "charge_move") == 0)
		crown_tmap_printf(a, "became", "charged, %s", e->reason);
	else if (e->has_distance && e->distance > 0) {
		crown_fmt_inches(d, e->distance);
		crown_fmt_inches(len, e->path_length);
		crown_tmap_printf(a, "became", "moved %s of %s inches: %s", d,
		    len, e->reason);
	} else
		crown_tmap_printf(a, "became", "did not move: %s", e->reason);
	crown_tlist_ref(not_carried, a);
}

/*
 * A unit's orders and what they led to in its own half-turn's charge and
 * action phases: outcome[] every event, skipped[] the orders not carried
 * out (events); each action is in carried[] or, with its `why`, in
 * not_carried[]: skipped, or begun and cut short.
 */
static void
model_unit_orders(struct crown_tval *um, const struct model *mo,
    const struct crown_orders *o, const struct crown_unit_orders *uo)
{
	const struct crown_events	*evs = mo->in->events;
	const struct crown_state	*s = mo->in->after;
	const struct crown_unit		*u;
	struct crown_tval		*list, *outs, *skips, *carried, **acts;
	struct crown_tval		*not_carried;
	const struct crown_tval		*ev;
	bool				*marked, *used;
	size_t				 j, k, charge = SIZE_MAX;

	crown_tmap_str(um, "unit", uo->unit);
	crown_tmap_str(um, "unit_name", crown_rm_thing_name(mo, uo->unit));
	list = crown_tmap_list(um, "actions");
	acts = xcalloc(uo->nactions + 1, sizeof(*acts));
	marked = xcalloc(uo->nactions + 1, sizeof(*marked));
	used = xcalloc(uo->nactions + 1, sizeof(*used));
	for (k = 0; k < uo->nactions; k++)
		model_action(acts[k] = crown_tlist_map(list), mo,
		    &uo->actions[k]);
	outs = crown_tmap_list(um, "outcome");
	skips = crown_tmap_list(um, "skipped");
	not_carried = crown_tmap_list(um, "not_carried");
	u = crown_state_unit(s, uo->unit);
	if (u != NULL)
		mo->sh->unit_orders[u - s->units] = um;
	j = u != NULL ? mo->sh->ev_head[u - s->units] : SIZE_MAX;
	for (; evs != NULL && j != SIZE_MAX; j = mo->sh->ev_next[j]) {
		const struct crown_event *e = &evs->v[j];

		if (e->unit == NULL || e->half == NULL ||
		    strcmp(e->unit, uo->unit) != 0 ||
		    strcmp(e->half, o->side) != 0 ||
		    (e->phase != CROWN_PHASE_CHARGE &&
		    e->phase != CROWN_PHASE_ACTIONS))
			continue;
		ev = crown_rm_event_map(mo, j, SIGHT_FULL);
		crown_tlist_ref(outs, ev);
		if (strcmp(e->kind, "order_skipped") == 0) {
			crown_tlist_ref(skips, ev);
			mo->sh->ev_action[j] = mark_skipped(um, not_carried,
			    acts, marked, uo, ev, e);
			continue;
		}
		k = event_action(uo, used, &charge, e);
		if (k == SIZE_MAX || marked[k] || e->reason == NULL)
			continue;
		marked[k] = true;
		mark_short(mo->sh->ev_action[j] = acts[k], not_carried, ev,
		    e);
	}
	carried = crown_tmap_list(um, "carried");
	for (k = 0; k < uo->nactions; k++)
		if (!marked[k])
			crown_tlist_ref(carried, acts[k]);
	crown_tmap_bool(um, "carried_out", crown_tval_count(not_carried) ==
	    0);
	free(acts);
	free(marked);
	free(used);
}

/* A side's orders: its units' (above) and its leaders'. */
static void
model_side_orders(struct crown_tval *m, const struct model *mo,
    const struct crown_orders *o)
{
	struct crown_tval	*units, *lds, *lm;
	size_t			 i;

	crown_tmap_str(m, "side", o->side);
	crown_tmap_str(m, "side_name", crown_rm_side_name(mo, o->side));
	units = crown_tmap_list(m, "units");
	for (i = 0; i < o->nunits; i++)
		model_unit_orders(crown_tlist_map(units), mo, o,
		    &o->units[i]);
	lds = crown_tmap_list(m, "leaders");
	for (i = 0; i < o->nleaders; i++) {
		const struct crown_leader_orders *lo = &o->leaders[i];

		lm = crown_tlist_map(lds);
		crown_tmap_str(lm, "leader", lo->leader);
		crown_tmap_str(lm, "leader_name",
		    crown_rm_thing_name(mo, lo->leader));
		if (lo->has_move)
			crown_rm_put_point(lm, "to", lo->to);
		if (lo->attach != NULL) {
			crown_tmap_str(lm, "attach", lo->attach);
			crown_tmap_str(lm, "attach_name",
			    crown_rm_thing_name(mo, lo->attach));
		}
		if (lo->detach)
			crown_tmap_bool(lm, "detach", true);
	}
}

void
crown_rm_orders(struct crown_tval *root, const struct model *mo)
{
	const struct crown_state	*s = mo->in->after;
	struct crown_tval		*list, *m;
	size_t				 i, j;

	list = crown_tmap_list(root, "orders");
	/* in the order of the sides, whatever order the files came in */
	for (i = 0; i < s->nsides; i++) {
		if (mo->side != NULL && strcmp(s->sides[i].id, mo->side) != 0)
			continue;
		for (j = 0; j < mo->in->norders; j++)
			if (strcmp(mo->in->orders[j]->side,
			    s->sides[i].id) == 0)
				break;
		if (j == mo->in->norders) {
			m = crown_tlist_map(list);
			crown_tmap_str(m, "side", s->sides[i].id);
			crown_tmap_str(m, "side_name", s->sides[i].name);
			crown_tmap_bool(m, "none", true);
			/* empty, so that a template does not find the
			 * state's units and leaders instead */
			crown_tmap_list(m, "units");
			crown_tmap_list(m, "leaders");
			continue;
		}
		/* the same for the umpire and the side: made once */
		if (mo->sh->orders[j] == NULL)
			model_side_orders(mo->sh->orders[j] =
			    crown_tlist_map(mo->sh->made), mo,
			    mo->in->orders[j]);
		crown_tlist_ref(list, mo->sh->orders[j]);
	}
}

/* Orders skipped (R2.2): all for the umpire, the side's own for a side. */
void
crown_rm_skipped(struct crown_tval *root, const struct model *mo)
{
	const struct crown_events	*evs = mo->in->events;
	struct crown_tval		*list;
	size_t				 i;

	list = crown_tmap_list(root, "skipped");
	for (i = 0; evs != NULL && i < evs->n; i++) {
		const struct crown_event *e = &evs->v[i];

		if (strcmp(e->kind, "order_skipped") != 0 ||
		    crown_rm_sight(mo, e) != SIGHT_FULL)
			continue;
		crown_tlist_ref(list, crown_rm_event_map(mo, i, SIGHT_FULL));
	}
}

/* n, and n_one when it is 1, so that a template can say "1 figure". */
static void
put_count(struct crown_tval *m, const char *key, long n)
{
	char	one[64];

	crown_tmap_int(m, key, n);
	if (n == 1 && strlen(key) + sizeof("_one") <= sizeof(one)) {
		memcpy(one, key, strlen(key));
		memcpy(one + strlen(key), "_one", sizeof("_one"));
		crown_tmap_bool(m, one, true);
	}
}

/* A unit or leader named in a side's summary. */
static void
put_named(struct crown_tval *list, const char *id, const char *name,
    const char *side_name, const char *status)
{
	struct crown_tval	*m;

	m = crown_tlist_map(list);
	crown_tmap_str(m, "id", id);
	crown_tmap_str(m, "name", name);
	crown_tmap_str(m, "side_name", side_name);
	crown_tmap_str(m, "status", status);
}

struct side_tally {
	int	fig, stands, routed, lost, fallen;
};

/* What side k lost this turn; the units and leaders it names go into m's
 * lists routed_units[], lost_units[] and fallen[]. */
static struct side_tally
tally_side(const struct model *mo, size_t k, struct crown_tval *m)
{
	const struct crown_state	*s = mo->in->after;
	const struct crown_state	*b = mo->in->before;
	const struct crown_unit		*u, *ub;
	const struct crown_leader	*l, *lb;
	struct crown_tval		*routed, *lost, *fallen;
	struct side_tally		 t = { 0 };
	size_t				 j;

	routed = crown_tmap_list(m, "routed_units");
	lost = crown_tmap_list(m, "lost_units");
	fallen = crown_tmap_list(m, "fallen");
	for (j = 0; b != NULL && j < s->nunits; j++) {
		u = &s->units[j];
		if (strcmp(u->side, s->sides[k].id) != 0 ||
		    (ub = crown_state_unit(b, u->id)) == NULL)
			continue;
		t.fig += crown_unit_figures(ub) - crown_unit_figures(u);
		t.stands += crown_unit_stands(ub) - crown_unit_stands(u);
		if (u->status == CROWN_LOST && ub->status != CROWN_LOST) {
			t.lost++;
			put_named(lost, u->id, u->name, s->sides[k].name,
			    NULL);
		} else if (u->routs > ub->routs) {
			t.routed++;
			put_named(routed, u->id, u->name,
			    s->sides[k].name, NULL);
		}
	}
	for (j = 0; b != NULL && j < s->nleaders; j++) {
		l = &s->leaders[j];
		if (strcmp(l->side, s->sides[k].id) != 0 ||
		    l->status == CROWN_LEADER_OK ||
		    ((lb = crown_state_leader(b, l->id)) != NULL &&
		    lb->status != CROWN_LEADER_OK))
			continue;
		t.fallen++;
		put_named(fallen, l->id, l->name, s->sides[k].name,
		    crown_leader_status_names[l->status]);
	}
	return t;
}

/*
 * Each side's losses this turn: figures, stands, units routed and lost,
 * leaders killed or captured; what it inflicted (the other sides'
 * losses); and, for the umpire, whether anything needs a look.
 */
void
crown_rm_sides(struct crown_tval *root, const struct model *mo)
{
	const struct crown_state	*s = mo->in->after;
	struct crown_tval		*list, **ms;
	struct side_tally		*t, all = { 0 };
	size_t				 i;

	list = crown_tmap_list(root, "sides");
	ms = xcalloc(s->nsides + 1, sizeof(*ms));
	t = xcalloc(s->nsides + 1, sizeof(*t));
	for (i = 0; i < s->nsides; i++) {
		ms[i] = crown_tlist_map(list);
		t[i] = tally_side(mo, i, ms[i]);
		all.fig += t[i].fig;
		all.stands += t[i].stands;
		all.routed += t[i].routed;
		all.lost += t[i].lost;
		all.fallen += t[i].fallen;
	}
	for (i = 0; i < s->nsides; i++) {
		struct crown_tval *m = ms[i];

		crown_tmap_str(m, "id", s->sides[i].id);
		crown_tmap_str(m, "name", s->sides[i].name);
		crown_rm_put_words(m, "home_edge", crown_edge_names[
		    s->sides[i].home_edge]);
		crown_tmap_bool(m, "attacker", s->attacker != NULL &&
		    strcmp(s->attacker, s->sides[i].id) == 0);
		if (mo->side != NULL)
			crown_tmap_bool(m, strcmp(s->sides[i].id,
			    mo->side) == 0 ? "own" : "enemy", true);
		put_count(m, "figures_lost", t[i].fig);
		put_count(m, "stands_lost", t[i].stands);
		put_count(m, "units_routed", t[i].routed);
		put_count(m, "units_lost", t[i].lost);
		put_count(m, "leaders_fallen", t[i].fallen);
		put_count(m, "figures_inflicted", all.fig - t[i].fig);
		put_count(m, "stands_inflicted", all.stands - t[i].stands);
		crown_tmap_bool(m, "losses", t[i].fig > 0 || t[i].lost > 0);
		crown_tmap_bool(m, "inflicted", all.fig > t[i].fig ||
		    all.lost > t[i].lost);
	}
	crown_tmap_bool(root, "routs", all.routed > 0 || all.lost > 0);
	crown_tmap_bool(root, "leaders_fell", all.fallen > 0);
	free(ms);
	free(t);
}

/*
 * The orders not carried out, by the rule that stopped them, in the order
 * the rules first come: not_carried_by_rule[]{rule orders[]}, an order
 * being its action with the unit's `unit_name` and `why`.
 */
static void
model_not_carried(struct crown_tval *root, const struct model *mo)
{
	const struct crown_events	*evs = mo->in->events;
	struct crown_tval		*groups, *a;
	const char			*rule;
	struct {
		const char		*rule;
		struct crown_tval	*map, *orders;
	}				*g = NULL;
	size_t				 i, k, n = 0, cap = 0;

	groups = crown_tmap_list(root, "not_carried_by_rule");
	for (i = 0; evs != NULL && i < evs->n; i++) {
		const struct crown_event *e = &evs->v[i];

		if (mo->sh->ev_action[i] == NULL ||
		    crown_rm_sight(mo, e) != SIGHT_FULL)
			continue;
		rule = e->reason_rule != NULL ? e->reason_rule :
		    e->rule != NULL ? e->rule : "";
		for (k = 0; k < n && strcmp(g[k].rule, rule) != 0; k++)
			;
		if (k == n) {
			struct crown_tval *gm = crown_tlist_map(groups);

			if (n == cap)
				g = xreallocarray(g, cap = cap ? 2 * cap : 8,
				    sizeof(*g));
			g[n].rule = rule;
			g[n].map = gm;
			crown_tmap_str(gm, "rule", g[n].rule);
			g[n++].orders = crown_tmap_list(gm, "orders");
		}
		a = crown_tlist_ref(g[k].orders, mo->sh->ev_action[i]);
		crown_tmap_str(a, "unit_name",
		    crown_rm_thing_name(mo, e->unit));
	}
	for (k = 0; k < n; k++)
		put_count(g[k].map, "count", (long)crown_tval_count(
		    g[k].orders));
	free(g);
}

/* Rulings of the turn (R13.1), and whether the umpire's report has
 * anything under "what needs a look". */
void
crown_rm_attention(struct crown_tval *root, const struct model *mo)
{
	const struct crown_events	*evs = mo->in->events;
	const struct crown_tval		*v;
	struct crown_tval		*list;
	size_t				 i;
	bool				 any;

	model_not_carried(root, mo);
	list = crown_tmap_list(root, "rulings");
	for (i = 0; evs != NULL && i < evs->n; i++)
		if (strcmp(evs->v[i].kind, "ruling") == 0 &&
		    crown_rm_sight(mo, &evs->v[i]) == SIGHT_FULL)
			crown_tlist_ref(list,
			    crown_rm_event_map(mo, i, SIGHT_FULL));
	any = crown_tval_count(list) > 0;
	/* the orders skipped (a leader's too) or cut short */
	any |= (v = crown_tmap_get(root, "skipped")) != NULL &&
	    crown_tval_count(v) > 0;
	any |= (v = crown_tmap_get(root, "not_carried_by_rule")) != NULL &&
	    crown_tval_count(v) > 0;
	any |= crown_tval_truthy(crown_tmap_get(root, "routs"));
	any |= crown_tval_truthy(crown_tmap_get(root, "leaders_fell"));
	crown_tmap_bool(root, "attention", any);
}

