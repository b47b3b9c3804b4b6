/*
 * report.c: the reports and the map of a turn.  The state before and after
 * the turn, the orders and the events become a tree of data
 * (template.h); the templates of the templates directory turn it into
 * report.md, report-SIDE.md and map.svg.  Nothing here chooses wording
 * beyond the names of things: an umpire rewords the reports in the
 * templates without recompiling.
 *
 * The model tells each event once, in the order they happened: a phase's
 * events come in runs of one unit's or leader's, as told[], a run of
 * routine events only (a move that ended where it was ordered to, an
 * ordered hold, a reload, an enemy seen to move) named in a group, any
 * other run a paragraph (also as routine[], by kind, and paragraphs[]),
 * and the orders not carried out
 * go with the orders (each action in carried[] or not_carried[], and by
 * rule in not_carried_by_rule[]).  doc/formats.md lists every key.
 *
 * What a side sees (report-SIDE.md): every event of its own units and
 * leaders, and every event in which an enemy acts on one of its units
 * (fire at them, charges, melee), in full with the dice; of the other
 * enemy events only moves, retirements, routs and losses, without dice or
 * the umpire's sentence (the template describes them from the unit and
 * where it went); rulings; and none of the enemy's orders.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/context.h"
#include "crown/firing.h"
#include "crown/fmt.h"
#include "crown/geom.h"
#include "crown/paths.h"
#include "crown/report.h"
#include "crown/spatial.h"
#include "crown/template.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "report-model.h"

/* Enemy events a side sees without their dice (see above). */
static const char *const seen_kinds[] = {
	"move", "charge_move", "retire", "rout_move", "lost", "drowned",
	"stuck", NULL
};

static void
shared_index_events(struct shared *sh)
{
	const struct crown_events	*evs = sh->in->events;
	const struct crown_state	*s = sh->in->after;
	const struct crown_unit		*u;
	size_t				 i, k, *tail;

	sh->ev_head = xcalloc(s->nunits + 1, sizeof(*sh->ev_head));
	tail = xcalloc(s->nunits + 1, sizeof(*tail));
	for (k = 0; k < s->nunits; k++)
		sh->ev_head[k] = tail[k] = SIZE_MAX;
	sh->ev_next = xcalloc(evs != NULL && evs->n ? evs->n : 1,
	    sizeof(*sh->ev_next));
	for (i = 0; evs != NULL && i < evs->n; i++) {
		sh->ev_next[i] = SIZE_MAX;
		if (evs->v[i].unit == NULL ||
		    (u = crown_state_unit(s, evs->v[i].unit)) == NULL)
			continue;
		k = (size_t)(u - s->units);
		if (tail[k] == SIZE_MAX)
			sh->ev_head[k] = i;
		else
			sh->ev_next[tail[k]] = i;
		tail[k] = i;
	}
	free(tail);
}

/* Where each unit's last ordered move ends. */
static void
shared_index_orders(struct shared *sh)
{
	const struct crown_state	*s = sh->in->after;
	const struct crown_unit		*u;
	size_t				 i, j, k;

	sh->dest = xcalloc(s->nunits + 1, sizeof(*sh->dest));
	sh->has_dest = xcalloc(s->nunits + 1, sizeof(*sh->has_dest));
	sh->unit_orders = xcalloc(s->nunits + 1, sizeof(*sh->unit_orders));
	for (i = 0; i < sh->in->norders; i++) {
		const struct crown_orders *o = sh->in->orders[i];

		for (j = 0; j < o->nunits; j++) {
			const struct crown_unit_orders *uo = &o->units[j];

			if (uo->unit == NULL ||
			    (u = crown_state_unit(s, uo->unit)) == NULL)
				continue;
			for (k = 0; k < uo->nactions; k++) {
				const struct crown_action_order *a =
				    &uo->actions[k];

				if (a->kind != CROWN_MOVE || a->npath == 0)
					continue;
				sh->dest[u - s->units] = a->path[a->npath - 1];
				sh->has_dest[u - s->units] = true;
			}
		}
	}
}

void
crown_rm_shared_init(struct shared *sh, const struct crown_report_input *in)
{
	size_t	nev = in->events != NULL ? in->events->n : 0;

	memset(sh, 0, sizeof(*sh));
	sh->in = in;
	sh->root = crown_tval_map();
	sh->made = crown_tmap_list(sh->root, "made");
	shared_index_events(sh);
	sh->ev_full = xcalloc(nev + 1, sizeof(*sh->ev_full));
	sh->ev_seen = xcalloc(nev + 1, sizeof(*sh->ev_seen));
	sh->ev_action = xcalloc(nev + 1, sizeof(*sh->ev_action));
	sh->ev_ask = xcalloc(2 * nev + 1, sizeof(*sh->ev_ask));
	sh->ev_sides = xcalloc(nev + 1, sizeof(*sh->ev_sides));
	sh->unit_ask = xcalloc(in->after->nunits + 1, sizeof(*sh->unit_ask));
	sh->unit = xcalloc(in->after->nunits + 1, sizeof(*sh->unit));
	sh->orders = xcalloc(in->norders + 1, sizeof(*sh->orders));
	shared_index_orders(sh);
}

void
crown_rm_shared_release(struct shared *sh)
{
	crown_tval_free(sh->root);
	free(sh->ev_head);
	free(sh->ev_next);
	free(sh->ev_full);
	free(sh->ev_seen);
	free(sh->ev_action);
	free(sh->ev_ask);
	free(sh->ev_sides);
	free(sh->unit_ask);
	free(sh->unit);
	free(sh->orders);
	free(sh->dest);
	free(sh->has_dest);
	free(sh->unit_orders);
	if (sh->view != NULL) {
		crown_spatial_free(sh->view);
		free(sh->view);
	}
}

char *
crown_templates_find(void)
{
	return crown_data_find("templates");
}


const char *
crown_report_arms(char *buf, size_t len, const struct crown_unit *u)
{
	return crown_words(buf, len, crown_is_artillery(u->type) &&
	    u->gun != CROWN_GUN_NONE ? crown_gun_names[u->gun] :
	    crown_weapon_names[u->weapon]);
}


void
crown_rm_put_words(struct crown_tval *m, const char *key, const char *name)
{
	char	*w;

	if (name == NULL)
		return;
	if (strchr(name, '_') == NULL) {	/* most: no copy */
		crown_tmap_str(m, key, name);
		return;
	}
	w = crown_words_dup(name);
	crown_tmap_str(m, key, w);
	free(w);
}

/* A flag named prefix_name ("kind_fire"), true; names are the engine's
 * own words, short. */
void
crown_rm_put_flag(struct crown_tval *m, const char *prefix, const char *name)
{
	char	key[64];
	size_t	np = strlen(prefix), nn = strlen(name);

	if (np + 1 + nn >= sizeof(key))
		return;
	memcpy(key, prefix, np);
	key[np] = '_';
	memcpy(key + np + 1, name, nn + 1);
	crown_tmap_bool(m, key, true);
}

/* A modifier or bonus: always signed, "+0" for none. */
static void
put_signed(struct crown_tval *m, const char *key, long v)
{
	char	buf[CROWN_FMT_MAX + 1];

	buf[0] = '+';
	crown_fmt_long(v < 0 ? buf : buf + 1, v);
	crown_tmap_str(m, key, buf);
}

/* "pos": a place as orders write it, "9, 138.5". */
static void
put_pos(struct crown_tval *m, double x, double y)
{
	char	buf[2 * CROWN_FMT_MAX + 3];
	size_t	n;

	n = crown_fmt_inches(buf, x);
	memcpy(buf + n, ", ", 2);
	crown_fmt_inches(buf + n + 2, y);
	crown_tmap_str(m, "pos", buf);
}

void
crown_rm_put_point(struct crown_tval *m, const char *key, struct crown_point p)
{
	struct crown_tval	*pt;

	pt = crown_tmap_map(m, key);
	crown_tmap_num2(pt, "x", p.x);
	crown_tmap_num2(pt, "y", p.y);
	put_pos(pt, p.x, p.y);
}

const struct crown_unit *
crown_rm_find_unit(const struct model *mo, const char *id)
{
	const struct crown_unit	*u;

	if (id == NULL)
		return NULL;
	if ((u = crown_state_unit(mo->in->after, id)) != NULL)
		return u;
	return mo->in->before != NULL ? crown_state_unit(mo->in->before, id) :
	    NULL;
}

static const struct crown_leader *
find_leader(const struct model *mo, const char *id)
{
	const struct crown_leader	*l;

	if (id == NULL)
		return NULL;
	if ((l = crown_state_leader(mo->in->after, id)) != NULL)
		return l;
	return mo->in->before != NULL ?
	    crown_state_leader(mo->in->before, id) : NULL;
}

const char *
crown_rm_side_name(const struct model *mo, const char *id)
{
	int	i;

	if (id == NULL)
		return NULL;
	i = crown_state_side(mo->in->after, id);
	return i < 0 ? id : mo->in->after->sides[i].name;
}

/* The name of a unit, leader or building for sentences. */
const char *
crown_rm_thing_name(const struct model *mo, const char *id)
{
	const struct crown_unit		*u;
	const struct crown_leader	*l;
	const struct crown_state	*s = mo->in->after;
	const char			*fid;
	size_t				 i;

	if (id == NULL)
		return NULL;
	if ((u = crown_rm_find_unit(mo, id)) != NULL)
		return u->name;
	if ((l = find_leader(mo, id)) != NULL)
		return l->name;
	fid = strncmp(id, "building:", 9) == 0 ? id + 9 : id;
	for (i = 0; i < s->nterrain; i++)
		if (strcmp(s->terrain[i].id, fid) == 0)
			return s->terrain[i].name != NULL ?
			    s->terrain[i].name : s->terrain[i].id;
	return id;
}

/* The side an event's actor (unit or leader) belongs to, or NULL. */
static const char *
actor_side(const struct model *mo, const struct crown_event *e)
{
	const struct crown_unit		*u;
	const struct crown_leader	*l;

	if ((u = crown_rm_find_unit(mo, e->unit)) != NULL)
		return u->side;
	if ((l = find_leader(mo, e->leader)) != NULL)
		return l->side;
	return NULL;
}


enum sight
crown_rm_sight(const struct model *mo, const struct crown_event *e)
{
	struct ev_sides		*es;
	const struct crown_unit	*t;
	const char		*who;
	size_t			 i;

	if (mo->side == NULL || strcmp(e->kind, "ruling") == 0)
		return SIGHT_FULL;
	es = &mo->sh->ev_sides[e - mo->in->events->v];
	if (!es->done) {
		es->actor = actor_side(mo, e);
		t = crown_rm_find_unit(mo, e->target);
		es->target = t != NULL ? t->side : NULL;
		es->done = true;
	}
	who = es->actor;
	if (who == NULL)	/* no actor: the half-turn's own notices */
		return (e->half != NULL && strcmp(e->half, mo->side) == 0) ||
		    strcmp(e->kind, "half_turn") == 0 ? SIGHT_FULL :
		    SIGHT_NONE;
	if (strcmp(who, mo->side) == 0)
		return SIGHT_FULL;
	if (strcmp(e->kind, "order_skipped") == 0)
		return SIGHT_NONE;
	if (es->target != NULL && strcmp(es->target, mo->side) == 0)
		return SIGHT_FULL;
	for (i = 0; seen_kinds[i] != NULL; i++)
		if (strcmp(e->kind, seen_kinds[i]) == 0)
			return SIGHT_SEEN;
	if (e->result != NULL && strcmp(e->result, "rout") == 0)
		return SIGHT_SEEN;
	return SIGHT_NONE;
}

/* What a die and the dice alike it share: kind, purpose, modifiers. */
static void
model_die_kind(struct crown_tval *m, const struct crown_die_rec *r)
{
	struct crown_tval	*mods, *mm;
	char			 die[CROWN_FMT_MAX + 1];
	size_t			 i;

	die[0] = 'D';
	crown_fmt_long(die + 1, r->die);
	crown_tmap_str(m, "die", die);
	crown_tmap_int(m, "faces", r->die);
	crown_rm_put_words(m, "for", r->purpose);	/* "leader check" */
	mods = crown_tmap_list(m, "mods");
	for (i = 0; i < r->nmods; i++) {
		mm = crown_tlist_map(mods);
		/* "foot_artillery base" in words */
		crown_rm_put_words(mm, "name", r->mods[i].name);
		put_signed(mm, "value", r->mods[i].value);
		/* always set, so that a modifier without a rule does not
		 * show its event's */
		crown_tmap_str(mm, "rule", r->mods[i].rule != NULL ?
		    r->mods[i].rule : "");
	}
}

static void
model_die(struct crown_tval *m, const struct crown_die_rec *r)
{
	model_die_kind(m, r);
	crown_tmap_str(m, "who", r->who);
	crown_tmap_int(m, "roll", r->roll);
	crown_tmap_int(m, "score", r->score);
}

/* Whether two dice read alike: the same die, purpose and modifiers. */
static bool
dice_alike(const struct crown_die_rec *a, const struct crown_die_rec *b)
{
	size_t	i;

	if (a->die != b->die || a->nmods != b->nmods ||
	    strcmp(a->purpose != NULL ? a->purpose : "",
	    b->purpose != NULL ? b->purpose : "") != 0)
		return false;
	for (i = 0; i < a->nmods; i++)
		if (a->mods[i].value != b->mods[i].value ||
		    strcmp(a->mods[i].name, b->mods[i].name) != 0 ||
		    strcmp(a->mods[i].rule != NULL ? a->mods[i].rule : "",
		    b->mods[i].rule != NULL ? b->mods[i].rule : "") != 0)
			return false;
	return true;
}

/* The most list_int writes: ", " and a long. */
#define LIST_INT_MAX	24
/* The dice of an event whose lists are written on the stack. */
#define LIST_DICE	32

/* ", 4" (or "4" for the first) at p, without printf's cost: a report at
 * 1,000 a side lists 60,000 rolls and scores.  Where it ends. */
static char *
list_int(char *p, bool more, long v)
{
	char	num[CROWN_FMT_MAX];
	size_t	n = crown_fmt_long(num, v);

	if (more) {
		*p++ = ',';
		*p++ = ' ';
	}
	memcpy(p, num, n);
	return p + n;
}

/*
 * The dice of an event, compactly: a run of dice alike (a volley's, stand
 * by stand) is one group with its rolls and scores listed, its modifiers
 * once; `modified` when any modifier changed the score.
 */
static void
model_dice_groups(struct crown_tval *m, const struct crown_event *e)
{
	struct crown_tval	*groups, *g = NULL;
	/* the lists of a group, on the stack for all but the largest
	 * events (not a buffer of the heap each event) */
	char			 small[2 * LIST_DICE * LIST_INT_MAX];
	char			*rolls = small, *scores, *pr, *ps;
	size_t			 i, j, k, most = LIST_DICE;

	if (e->ndice > LIST_DICE) {
		most = e->ndice;
		rolls = xreallocarray(NULL, 2 * most, LIST_INT_MAX);
	}
	scores = rolls + most * LIST_INT_MAX;
	groups = crown_tmap_list(m, "dice_groups");
	for (i = 0; i < e->ndice; i = j) {
		const struct crown_die_rec *r = &e->dice[i];

		for (j = i + 1; j < e->ndice && dice_alike(r, &e->dice[j]);
		    j++)
			;
		g = crown_tlist_map(groups);
		pr = rolls;
		ps = scores;
		for (k = i; k < j; k++) {
			pr = list_int(pr, k > i, e->dice[k].roll);
			ps = list_int(ps, k > i, e->dice[k].score);
		}
		model_die_kind(g, r);
		/* one die: whose it is; many: the first's "stand 1" would
		 * mislead, so none */
		if (j - i == 1)
			crown_tmap_str(g, "who", r->who);
		crown_tmap_int(g, "count", (long)(j - i));
		crown_tmap_bool(g, "many", j - i > 1);
		crown_tmap_strn(g, "rolls", rolls, (size_t)(pr - rolls));
		crown_tmap_strn(g, "scores", scores, (size_t)(ps - scores));
		for (k = 0; k < r->nmods && r->mods[k].value == 0; k++)
			;
		crown_tmap_bool(g, "modified", k < r->nmods);
	}
	if (rolls != small)
		free(rolls);
}

/* Whether key (len bytes) is lit. */
#define IS(lit)	(len == sizeof(lit) - 1 && memcmp(key, (lit), len) == 0)

/* Whether key is prefix_name ("kind_fire"), the flag put_flag puts.  The
 * prefix first, and inline (its length known): most keys asked for are
 * no flag at all. */
static inline bool
is_flag(const char *key, size_t len, const char *prefix, const char *name)
{
	size_t	np = strlen(prefix);

	return len > np && key[np] == '_' && memcmp(key, prefix, np) == 0 &&
	    name != NULL && len == np + 1 + strlen(name) &&
	    memcmp(key + np + 1, name, len - np - 1) == 0;
}

/*
 * The value of an event's map under key, put into m when a template first
 * asks for it (crown_tmap_getter): an event has some forty keys and a
 * report reads a few of them, most events being told in a line or by
 * name.  The keys are those of doc/formats.md: `seq kind kind_KIND phase
 * rule unit unit_name leader leader_name target target_name actor_side
 * from to`, then for an event seen from afar `seen routed`, and for one
 * told in full `full text result result_RESULT casualties range band
 * reason brief order dice dice_groups`.
 */
static bool
event_get(struct crown_tval *m, const char *key, size_t len,
    const void *arg)
{
	const struct event_ask		*a = arg;
	const struct model		 mo = { a->sh->in, NULL,
					    (struct shared *)a->sh };
	const struct crown_event	*e = &mo.in->events->v[a->i];
	struct crown_tval		*dice;
	char				 num[CROWN_FMT_MAX];
	size_t				 i;

	if (IS("seq"))
		crown_tmap_int(m, "seq", e->seq);
	else if (IS("kind"))
		crown_tmap_str(m, "kind", e->kind);
	else if (is_flag(key, len, "kind", e->kind))
		crown_rm_put_flag(m, "kind", e->kind);
	else if (IS("phase"))
		crown_tmap_str(m, "phase", crown_phase_names[e->phase]);
	else if (IS("rule"))
		crown_tmap_str(m, "rule", e->rule != NULL ? e->rule : "");
	else if (IS("unit"))
		crown_tmap_str(m, "unit", e->unit);
	else if (IS("unit_name"))
		crown_tmap_str(m, "unit_name",
		    crown_rm_thing_name(&mo, e->unit));
	else if (IS("leader"))
		crown_tmap_str(m, "leader", e->leader);
	else if (IS("leader_name"))
		crown_tmap_str(m, "leader_name",
		    crown_rm_thing_name(&mo, e->leader));
	else if (IS("target"))
		crown_tmap_str(m, "target", e->target);
	else if (IS("target_name"))
		crown_tmap_str(m, "target_name",
		    crown_rm_thing_name(&mo, e->target));
	else if (IS("actor_side"))
		crown_tmap_str(m, "actor_side", crown_rm_side_name(&mo,
		    actor_side(&mo, e)));
	else if (IS("from") && e->has_from)
		crown_rm_put_point(m, "from", e->from);
	else if (IS("to") && e->has_to)
		crown_rm_put_point(m, "to", e->to);
	else if (a->how == SIGHT_SEEN) {
		if (IS("seen"))
			crown_tmap_bool(m, "seen", true);
		else if (IS("routed") && e->result != NULL &&
		    strcmp(e->result, "rout") == 0)
			crown_tmap_bool(m, "routed", true);
		else
			return false;
	} else if (IS("full"))
		crown_tmap_bool(m, "full", true);
	else if (IS("text"))
		crown_tmap_str(m, "text", e->text != NULL ? e->text : "");
	else if (IS("result") && e->result != NULL)
		crown_tmap_str(m, "result", e->result);
	else if (is_flag(key, len, "result", e->result))
		crown_rm_put_flag(m, "result", e->result);
	else if (IS("casualties") && e->has_casualties)
		crown_tmap_int(m, "casualties", e->casualties);
	else if (IS("range") && e->has_range)
		crown_tmap_num2(m, "range", e->range);
	else if (IS("band") && e->band != NULL)
		crown_tmap_str(m, "band", e->band);
	else if (IS("reason") && e->reason != NULL)
		crown_tmap_str(m, "reason", e->reason);
	else if (IS("brief") && e->reason != NULL) {
		/* a skipped order's reason in brief: for a shot out of
		 * range, the distance (the unit's reach is its own, in the
		 * briefing) */
		if (e->has_range && e->band != NULL) {
			crown_fmt_fixed(num, e->range, 2);
			crown_tmap_printf(m, "brief", "%s at %s inches",
			    e->band, num);
		} else
			crown_tmap_str(m, "brief", e->reason);
	} else if (IS("order") && e->order != NULL)
		crown_tmap_str(m, "order", e->order);
	else if (IS("dice")) {
		dice = crown_tmap_list(m, "dice");
		for (i = 0; i < e->ndice; i++)
			model_die(crown_tlist_map(dice), &e->dice[i]);
	} else if (IS("dice_groups"))
		model_dice_groups(m, e);
	else
		return false;
	return true;
}

/* The map of event i as `how` shows it, made once for every model. */
const struct crown_tval *
crown_rm_event_map(const struct model *mo, size_t i, enum sight how)
{
	struct shared		 *sh = mo->sh;
	struct crown_tval	**slot;
	struct event_ask	 *ask;

	slot = how == SIGHT_SEEN ? &sh->ev_seen[i] : &sh->ev_full[i];
	if (*slot == NULL) {
		*slot = crown_tlist_map(sh->made);
		ask = &sh->ev_ask[2 * i + (how == SIGHT_SEEN)];
		*ask = (struct event_ask){ sh, i, how };
		crown_tmap_getter(*slot, event_get, ask);
	}
	return *slot;
}

/*
 * Routine events, which a report lists by name instead of telling each:
 * a move that ended where it was ordered to, an ordered hold, a reload,
 * and an enemy seen to move (where it stands is in the report's table
 * and on the map).  Every die of them stays in events.yaml.
 */
static bool
routine(const struct model *mo, const struct crown_event *e, enum sight how)
{
	const struct crown_state	*s = mo->in->after;
	const struct crown_unit		*u;
	size_t				 k;

	if (strcmp(e->kind, "move") == 0) {
		if (how == SIGHT_SEEN)
			return true;
		if (e->unit == NULL || !e->has_to || e->result == NULL ||
		    strcmp(e->result, "moved") != 0 ||
		    (u = crown_state_unit(s, e->unit)) == NULL)
			return false;
		k = (size_t)(u - s->units);
		return mo->sh->has_dest[k] && mo->sh->dest[k].x == e->to.x &&
		    mo->sh->dest[k].y == e->to.y;
	}
	if (how != SIGHT_FULL)
		return false;
	/* a hold with a result (no target, cannot fire) has more to say */
	return (strcmp(e->kind, "hold") == 0 && e->result == NULL) ||
	    strcmp(e->kind, "reload") == 0;
}

/* A group of routine events of one kind and sight. */
struct routine_group {
	const char		*kind;
	enum sight		 how;
	struct crown_tval	*events;
	const char		*last;		/* its last unit or leader */
};

/*
 * A phase's routine events twice over: in routine[], one group for each
 * kind and sight, and in told[], in the order they happened, a group for
 * each run of them of one kind and sight (the last of told[]).
 */
struct routine_groups {
	struct crown_tval	*list;		/* the phase's routine[] */
	struct crown_tval	*told;		/* the phase's told[] */
	struct routine_group	 g[8];
	size_t			 n;
	struct routine_group	 run;		/* .events NULL: none last */
};

/* A group of e's kind and sight, new in list. */
static void
group_new(struct routine_group *out, struct crown_tval *list,
    const struct crown_event *e, enum sight how)
{
	struct crown_tval	*g = crown_tlist_map(list);

	crown_tmap_str(g, "kind", e->kind);
	crown_rm_put_flag(g, "kind", e->kind);
	crown_tmap_str(g, "rule", e->rule != NULL ? e->rule : "");
	crown_tmap_bool(g, "group", true);
	if (how == SIGHT_SEEN)
		crown_tmap_bool(g, "seen", true);
	out->kind = e->kind;
	out->how = how;
	out->events = crown_tmap_list(g, "events");
	out->last = NULL;
}

/* Event i into group g; a unit held twice is named once. */
static void
group_add(struct routine_group *g, const struct model *mo, size_t i,
    enum sight how)
{
	const struct crown_event	*e = &mo->in->events->v[i];
	const char			*who = e->unit != NULL ? e->unit :
					    e->leader;

	if (who != NULL && g->last != NULL && strcmp(who, g->last) == 0)
		return;
	g->last = who;
	crown_tlist_ref(g->events, crown_rm_event_map(mo, i, how));
}

/* Add event i to the group of its kind and sight, made when its first
 * event comes, and to told[]'s last group if it is of the same kind. */
static void
routine_add(struct routine_groups *rg, const struct model *mo, size_t i,
    enum sight how)
{
	const struct crown_event	*e = &mo->in->events->v[i];
	size_t				 k;

	for (k = 0; k < rg->n; k++)
		if (rg->g[k].how == how && strcmp(rg->g[k].kind, e->kind) == 0)
			break;
	if (k == rg->n && rg->n < CROWN_NELEM(rg->g))	/* routine() has
							 * fewer */
		group_new(&rg->g[rg->n++], rg->list, e, how);
	if (k < rg->n)
		group_add(&rg->g[k], mo, i, how);
	if (rg->run.events == NULL || rg->run.how != how ||
	    strcmp(rg->run.kind, e->kind) != 0)
		group_new(&rg->run, rg->told, e, how);
	group_add(&rg->run, mo, i, how);
}

/*
 * The run of events of one unit or leader in run[0..n-1] into the phase:
 * all routine, by name in their groups; else as a paragraph, told in
 * full one after another (in paragraphs[] and told[]).
 */
static void
run_flush(struct routine_groups *rg, struct crown_tval *paras,
    const struct model *mo, const size_t *run, const enum sight *how,
    size_t n)
{
	struct crown_tval	*para, *events;
	size_t			 k;

	for (k = 0; k < n && routine(mo, &mo->in->events->v[run[k]],
	    how[k]); k++)
		;
	if (k == n) {
		for (k = 0; k < n; k++)
			routine_add(rg, mo, run[k], how[k]);
		return;
	}
	para = crown_tlist_map(paras);
	crown_tmap_bool(para, "paragraph", true);
	events = crown_tmap_list(para, "events");
	for (k = 0; k < n; k++)
		crown_tlist_ref(events, crown_rm_event_map(mo, run[k],
		    how[k]));
	crown_tlist_ref(rg->told, para);
	rg->run.events = NULL;
}

/* A phase of a half-turn, made when its first event to tell comes. */
struct phase_at {
	struct crown_tval	*phases;	/* the half-turn's phases[] */
	struct crown_tval	*events;	/* NULL: not made yet */
	struct crown_tval	*paras;
	size_t			 first;		/* its first event */
};

/* The phase of event i, made with every event it saw from pa->first on
 * (the orders not carried out before i, told with the orders). */
static void
phase_make(struct phase_at *pa, struct routine_groups *rg,
    const struct model *mo, size_t i)
{
	const struct crown_event	*e = &mo->in->events->v[i];
	struct crown_tval		*phase;
	enum sight			 how;
	size_t				 j;

	phase = crown_tlist_map(pa->phases);
	crown_tmap_str(phase, "phase", crown_phase_names[e->phase]);
	crown_rm_put_flag(phase, "phase", crown_phase_names[e->phase]);
	pa->events = crown_tmap_list(phase, "events");
	pa->paras = crown_tmap_list(phase, "paragraphs");
	rg->list = crown_tmap_list(phase, "routine");
	rg->told = crown_tmap_list(phase, "told");
	rg->n = 0;
	rg->run.events = NULL;
	for (j = pa->first; j < i; j++)
		if ((how = crown_rm_sight(mo, &mo->in->events->v[j])) !=
		    SIGHT_NONE)
			crown_tlist_ref(pa->events, crown_rm_event_map(mo, j,
			    how));
}

/*
 * Events by half-turn and phase, as the side (or the umpire) sees them,
 * in the order they happened: a phase only with something to tell, and
 * in it a run of events of one unit or leader told together.
 */
void
crown_rm_halves(struct crown_tval *root, const struct model *mo)
{
	const struct crown_events	*evs = mo->in->events;
	struct crown_tval		*halves, *half = NULL;
	struct routine_groups		 rg = { 0 };
	struct phase_at			 pa = { 0 };
	const char			*cur = NULL, *actor = NULL, *who;
	enum sight			 how, *runhow = NULL;
	int				 curphase = -1, nhalf = 0;
	size_t				 i, *run = NULL, nrun = 0, cap = 0;

	halves = crown_tmap_list(root, "halves");
	for (i = 0; evs != NULL && i < evs->n; i++) {
		const struct crown_event *e = &evs->v[i];

		if (e->half == NULL)
			continue;	/* not of any half-turn */
		if (half == NULL || strcmp(e->kind, "half_turn") == 0 ||
		    strcmp(cur, e->half) != 0) {
			run_flush(&rg, pa.paras, mo, run, runhow, nrun);
			nrun = 0;
			half = crown_tlist_map(halves);
			cur = e->half;
			crown_tmap_int(half, "number", ++nhalf);
			crown_tmap_int(half, "turn", e->turn);
			crown_tmap_str(half, "side", e->half);
			crown_tmap_str(half, "side_name", crown_rm_side_name(mo,
			    e->half));
			if (mo->side != NULL)
				crown_tmap_bool(half, strcmp(e->half,
				    mo->side) == 0 ? "own" : "enemy", true);
			pa.phases = crown_tmap_list(half, "phases");
			curphase = -1;
		}
		if (strcmp(e->kind, "half_turn") == 0) {
			crown_tmap_str(half, "text", e->text);
			crown_tmap_str(half, "rule", e->rule);
			continue;
		}
		if ((how = crown_rm_sight(mo, e)) == SIGHT_NONE)
			continue;
		if ((int)e->phase != curphase) {
			run_flush(&rg, pa.paras, mo, run, runhow, nrun);
			nrun = 0;
			curphase = (int)e->phase;
			pa.events = NULL;
			pa.first = i;
		}
		if (strcmp(e->kind, "order_skipped") == 0) {
			/* told with the orders */
			if (pa.events != NULL)
				crown_tlist_ref(pa.events,
				    crown_rm_event_map(mo, i, how));
			continue;
		}
		if (pa.events == NULL)
			phase_make(&pa, &rg, mo, i);
		crown_tlist_ref(pa.events, crown_rm_event_map(mo, i, how));
		/* a run of events of one unit or leader */
		who = e->unit != NULL ? e->unit : e->leader;
		if (nrun > 0 && (who == NULL || actor == NULL ||
		    strcmp(who, actor) != 0)) {
			run_flush(&rg, pa.paras, mo, run, runhow, nrun);
			nrun = 0;
		}
		actor = who;
		if (nrun == cap) {
			cap = cap == 0 ? 16 : 2 * cap;
			run = xreallocarray(run, cap, sizeof(*run));
			runhow = xreallocarray(runhow, cap, sizeof(*runhow));
		}
		run[nrun] = i;
		runhow[nrun++] = how;
	}
	run_flush(&rg, pa.paras, mo, run, runhow, nrun);
	free(run);
	free(runhow);
}

/* The figures of u at the start of the turn (its figures now if it was
 * not on the table). */
static int
figures_before(const struct model *mo, const struct crown_unit *u)
{
	const struct crown_unit	*b = NULL;

	if (mo->in->before != NULL)
		b = crown_state_unit(mo->in->before, u->id);
	return b != NULL ? crown_unit_figures(b) : crown_unit_figures(u);
}

/* "unloaded, disordered": the state's own words for what is not plain
 * "ok". */
static void
put_notes(struct crown_tval *m, const struct crown_state *s,
    const struct crown_unit *u)
{
	/* all eight words and their commas: 73 bytes */
	char	notes[80];
	size_t	len = 0;
	int	side;

	/* by hand, not crown_buf_printf: a buffer of the heap a unit */
#define NOTE(cond, word) do {						\
	if (cond) {							\
		if (len > 0) {						\
			memcpy(notes + len, ", ", 2);			\
			len += 2;					\
		}							\
		memcpy(notes + len, (word), sizeof(word) - 1);		\
		len += sizeof(word) - 1;				\
	}								\
} while (0)
	NOTE(u->status != CROWN_LOST && !u->loaded, "unloaded");
	NOTE(u->disordered, "disordered");
	NOTE(u->formation == CROWN_COLUMN, "column");
	NOTE(crown_is_artillery(u->type) && u->limbered, "limbered");
	NOTE(u->stuck, "stuck");
	NOTE(u->rallied, "rallied");
	NOTE(u->holding, "holding");
	NOTE(u->status == CROWN_OK_STATUS && crown_state_melee(s, u, &side) !=
	    NULL, "in melee");
#undef NOTE
	crown_tmap_strn(m, "notes", notes, len);
}


/* R5.5, R11.1: the cover u stands in, by the state after the turn;
 * *what (the caller's) names it. */
static enum crown_cover
ground(char **what, struct shared *sh, const struct crown_unit *u)
{
	const char	*rule;

	if (sh->view == NULL) {
		sh->view = xcalloc(1, sizeof(*sh->view));
		sh->view->s = (struct crown_state *)sh->in->after; /* read */
		sh->view->rules = sh->in->rules;
	}
	return crown_fire_cover_here(what, &rule, sh->view, u);
}

/* "in scrub 'Maguey': soft cover", "in the open". */
static void
put_ground(struct crown_tval *m, struct shared *sh,
    const struct crown_unit *u)
{
	enum crown_cover	 cov;
	char			*what, *text;

	cov = ground(&what, sh, u);
	if (cov == CROWN_COVER_NONE)
		crown_tmap_str(m, "ground", "in the open");
	else {
		text = xasprintf("%s: %s cover", what, crown_cover_words[cov]);
		crown_tmap_str(m, "ground", text);
		free(text);
	}
	free(what);
}

/* "close to 6, medium to 12, long to 18 inches"; "" for a unit that
 * does not fire (R5.3, R6.2). */
static void
put_ranges(struct crown_tval *m, const struct crown_rules *rules,
    const struct crown_unit *u)
{
	const struct crown_band	*bands = crown_unit_bands(rules, u);
	struct crown_buf	 b = { 0 };
	char			*d;
	int			 k;

	crown_buf_puts(&b, "");
	for (k = 0; crown_unit_can_fire(rules, u) && k < CROWN_NBAND; k++) {
		if (!bands[k].present)
			continue;
		d = crown_inches(bands[k].max);
		crown_buf_printf(&b, "%s%s to %s", b.len > 0 ? ", " : "",
		    crown_fire_band_name(u, (enum crown_band_name)k), d);
		free(d);
	}
	if (b.len > 0)
		crown_buf_puts(&b, " inches");
	crown_tmap_str(m, "ranges", b.data);
	crown_buf_release(&b);
}

/* What the enemy sees of u besides its status: "disordered, limbered,
 * holding, in melee, in soft cover" (R3.7, R6.6, R7.4, R9.8, R5.5). */
static void
put_seen_notes(struct crown_tval *m, struct shared *sh,
    const struct crown_unit *u)
{
	struct crown_buf	 b = { 0 };
	enum crown_cover	 cov;
	char			*what;
	int			 side;

	crown_buf_puts(&b, "");
	if (u->status != CROWN_LOST) {
		if (u->disordered)
			crown_buf_printf(&b, "%sdisordered", b.len ? ", " : "");
		if (crown_is_artillery(u->type) && u->limbered)
			crown_buf_printf(&b, "%slimbered", b.len ? ", " : "");
		if (u->holding)
			crown_buf_printf(&b, "%sholding", b.len ? ", " : "");
		if (u->status == CROWN_OK_STATUS &&
		    crown_state_melee(sh->in->after, u, &side) != NULL)
			crown_buf_printf(&b, "%sin melee", b.len ? ", " : "");
		if ((cov = ground(&what, sh, u)) != CROWN_COVER_NONE)
			crown_buf_printf(&b, "%s%s, %s cover", b.len ? ", " :
			    "", what, crown_cover_words[cov]);
		free(what);
	}
	crown_tmap_str(m, "seen_notes", b.data);
	crown_buf_release(&b);
}

/*
 * The value of a unit's map under key, put into m when first asked for,
 * as event_get does for an event: a report's table reads a few of a
 * unit's thirty keys (doc/formats.md, `units[]`).
 */
static bool
unit_get(struct crown_tval *m, const char *key, size_t len, const void *arg)
{
	const struct unit_ask		*a = arg;
	const struct model		 mo = { a->sh->in, NULL,
					    (struct shared *)a->sh };
	const struct crown_unit		*u = &mo.in->after->units[a->i];
	char				 arms[32];

	if (IS("id"))
		crown_tmap_str(m, "id", u->id);
	else if (IS("name"))
		crown_tmap_str(m, "name", u->name);
	else if (IS("side"))
		crown_tmap_str(m, "side", u->side);
	else if (IS("side_name"))
		crown_tmap_str(m, "side_name",
		    crown_rm_side_name(&mo, u->side));
	else if (IS("type"))
		crown_rm_put_words(m, "type", crown_utype_names[u->type]);
	else if (IS("class"))
		crown_tmap_str(m, "class", crown_class_names[u->cls]);
	else if (IS("arms"))
		crown_tmap_str(m, "arms", crown_report_arms(arms,
		    sizeof(arms), u));
	else if (IS("stands"))
		crown_tmap_int(m, "stands", crown_unit_stands(u));
	else if (IS("start_stands"))
		crown_tmap_int(m, "start_stands", u->start_stands);
	else if (IS("figures"))
		crown_tmap_int(m, "figures", crown_unit_figures(u));
	else if (IS("start_figures"))
		crown_tmap_int(m, "start_figures", u->start_figures);
	else if (IS("figures_before"))
		crown_tmap_int(m, "figures_before", figures_before(&mo, u));
	else if (IS("lost_this_turn"))
		crown_tmap_int(m, "lost_this_turn", figures_before(&mo, u) -
		    crown_unit_figures(u));
	else if (IS("took_losses"))
		crown_tmap_bool(m, "took_losses", figures_before(&mo, u) >
		    crown_unit_figures(u));
	else if (IS("status"))
		crown_tmap_str(m, "status", crown_status_names[u->status]);
	else if (IS("status_ok"))
		crown_tmap_bool(m, "status_ok", u->status == CROWN_OK_STATUS);
	else if (IS("routing"))
		crown_tmap_bool(m, "routing", u->status == CROWN_ROUTING);
	else if (IS("lost"))
		crown_tmap_bool(m, "lost", u->status == CROWN_LOST);
	else if (IS("formation"))
		crown_tmap_str(m, "formation",
		    crown_formation_names[u->formation]);
	else if (IS("loaded"))
		crown_tmap_bool(m, "loaded", u->loaded);
	else if (IS("disordered"))
		crown_tmap_bool(m, "disordered", u->disordered);
	else if (IS("limbered"))
		crown_tmap_bool(m, "limbered", u->limbered);
	else if (IS("stuck"))
		crown_tmap_bool(m, "stuck", u->stuck);
	else if (IS("rallied"))
		crown_tmap_bool(m, "rallied", u->rallied);
	else if (IS("holding"))
		crown_tmap_bool(m, "holding", u->holding);
	else if (IS("routs"))
		crown_tmap_int(m, "routs", u->routs);
	else if (IS("x"))
		crown_tmap_num2(m, "x", u->x);
	else if (IS("y"))
		crown_tmap_num2(m, "y", u->y);
	else if (IS("pos"))
		put_pos(m, u->x, u->y);
	else if (IS("facing"))
		crown_tmap_int(m, "facing", u->facing);
	else if (IS("compass"))
		crown_tmap_str(m, "compass", crown_geom_compass(u->facing));
	else if (IS("notes"))
		put_notes(m, mo.in->after, u);
	else if (IS("ground"))
		put_ground(m, mo.sh, u);
	else if (IS("ranges"))
		put_ranges(m, mo.in->rules, u);
	else if (IS("seen_notes"))
		put_seen_notes(m, mo.sh, u);
	else
		return false;
	return true;
}

#undef IS

/* An enemy unit in a side's report, for enemy_groups. */
struct seen {
	const char	*type, *compass;
	int		 stands, status;
	size_t		 i;		/* in the state */
};

/* Type, then stands (most first), status, facing. */
static int
cmp_group(const struct seen *a, const struct seen *b)
{
	int	c;

	if ((c = strcmp(a->type, b->type)) != 0)
		return c;
	if (a->stands != b->stands)
		return a->stands > b->stands ? -1 : 1;
	if (a->status != b->status)
		return a->status < b->status ? -1 : 1;
	return strcmp(a->compass, b->compass);
}

/* A group's units in the state's order. */
static int
cmp_seen(const void *pa, const void *pb)
{
	const struct seen	*a = pa, *b = pb;
	int			 c;

	if ((c = cmp_group(a, b)) != 0)
		return c;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void
group_count(struct crown_tval *g, size_t count)
{
	if (g == NULL)
		return;
	crown_tmap_int(g, "count", (long)count);
	crown_tmap_bool(g, "one_unit", count == 1);
}

/*
 * A side's enemy in sight, by what tells units apart at a glance: one
 * group for each type, number of stands, status and facing, with its
 * units and their positions.  At a thousand units a side a table row
 * each restated "infantry | 4 | ok" a thousand times (issue 21).
 */
static void
model_enemy_groups(struct crown_tval *root, const struct model *mo)
{
	const struct crown_state	*s = mo->in->after;
	struct crown_tval		*groups, *g = NULL, *units = NULL;
	struct seen			*v;
	size_t				 i, n = 0, count = 0;

	groups = crown_tmap_list(root, "enemy_groups");
	v = xcalloc(s->nunits + 1, sizeof(*v));
	for (i = 0; i < s->nunits; i++) {
		const struct crown_unit *u = &s->units[i];

		if (strcmp(u->side, mo->side) == 0 ||
		    u->status == CROWN_LOST)
			continue;
		v[n++] = (struct seen){ crown_utype_names[u->type],
		    crown_geom_compass(u->facing), crown_unit_stands(u),
		    (int)u->status, i };
	}
	qsort(v, n, sizeof(*v), cmp_seen);
	for (i = 0; i < n; i++) {
		if (i == 0 || cmp_group(&v[i], &v[i - 1]) != 0) {
			group_count(g, count);
			g = crown_tlist_map(groups);
			crown_rm_put_words(g, "type", v[i].type);
			crown_tmap_int(g, "stands", v[i].stands);
			crown_tmap_bool(g, "one_stand", v[i].stands == 1);
			crown_tmap_str(g, "status",
			    crown_status_names[v[i].status]);
			crown_tmap_str(g, "compass", v[i].compass);
			units = crown_tmap_list(g, "units");
			count = 0;
		}
		crown_tlist_ref(units, mo->sh->unit[v[i].i]);
		count++;
	}
	group_count(g, count);
	free(v);
}

void
crown_rm_units(struct crown_tval *root, const struct model *mo)
{
	const struct crown_state	*s = mo->in->after;
	struct shared			*sh = mo->sh;
	struct crown_tval		*all, *own = NULL, *enemy = NULL, *m;
	bool				 ours;
	size_t				 i;

	all = crown_tmap_list(root, "units");
	if (mo->side != NULL) {
		own = crown_tmap_list(root, "own_units");
		enemy = crown_tmap_list(root, "enemy_units");
	}
	for (i = 0; i < s->nunits; i++) {
		const struct crown_unit *u = &s->units[i];

		/* the umpire's map of the unit, made once; a side's adds
		 * whose it is */
		if (sh->unit[i] == NULL) {
			sh->unit[i] = crown_tlist_map(sh->made);
			sh->unit_ask[i] = (struct unit_ask){ sh, i };
			crown_tmap_getter(sh->unit[i], unit_get,
			    &sh->unit_ask[i]);
		}
		m = crown_tlist_ref(all, sh->unit[i]);
		/* its orders: a side sees only its own */
		ours = mo->side == NULL || strcmp(u->side, mo->side) == 0;
		if (ours && sh->unit_orders[i] != NULL)
			crown_tmap_ref(m, "ordered", sh->unit_orders[i]);
		if (mo->side == NULL)
			continue;
		crown_tmap_bool(m, ours ? "own" : "enemy", true);
		crown_tlist_ref(ours ? own : enemy, m);
	}
	if (mo->side != NULL)
		model_enemy_groups(root, mo);
}

void
crown_rm_leaders(struct crown_tval *root, const struct model *mo)
{
	const struct crown_state	*s = mo->in->after;
	struct crown_tval		*list, *m;
	size_t				 i;

	list = crown_tmap_list(root, "leaders");
	for (i = 0; i < s->nleaders; i++) {
		const struct crown_leader *l = &s->leaders[i];

		if (mo->side != NULL && strcmp(l->side, mo->side) != 0)
			continue;
		m = crown_tlist_map(list);
		crown_tmap_str(m, "id", l->id);
		crown_tmap_str(m, "name", l->name);
		crown_tmap_str(m, "side_name",
		    crown_rm_side_name(mo, l->side));
		crown_tmap_str(m, "rank", crown_rank_names[l->rank]);
		put_signed(m, "bonus", l->bonus);
		crown_tmap_str(m, "status",
		    crown_leader_status_names[l->status]);
		if (l->attached != NULL) {
			crown_tmap_str(m, "attached", l->attached);
			crown_tmap_str(m, "attached_name",
			    crown_rm_thing_name(mo, l->attached));
		} else {
			crown_tmap_bool(m, "detached", true);
			crown_tmap_num2(m, "x", l->x);
			crown_tmap_num2(m, "y", l->y);
			put_pos(m, l->x, l->y);
		}
	}
}
