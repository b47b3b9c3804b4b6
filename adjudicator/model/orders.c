/*
 * orders.c: reading a side's orders and checking them before any die is
 * rolled (FORMATS.md "Orders").
 *
 * Parsing checks the shape of the file; validation checks it against the
 * state and the rules.  Both report every problem, with the place and the
 * rule, so a player can mend a whole file at once.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/orders.h"
#include "crown/track.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define MAX_TURN	100000
#define MAX_PATH	64	/* points in one move's path */
#define MAX_ACTIONS	32	/* actions listed for one unit */
#define MAX_COORD	100000.0

static const char *const top_keys[] = {
	"game", "turn", "side", "orders", "seed", NULL
};
static const char *const unit_keys[] = { "unit", "actions", NULL };
static const char *const leader_keys[] = {
	"leader", "move", "attach", "detach", NULL
};
static const char *const move_keys[] = {
	"to", "path", "face", "road", NULL
};

/* Actions written as a bare word, with no argument. */
static bool
takes_no_argument(enum crown_action a)
{
	return a == CROWN_RELOAD || a == CROWN_LIMBER ||
	    a == CROWN_UNLIMBER || a == CROWN_REFORM || a == CROWN_RALLY ||
	    a == CROWN_HOLD;
}

static int
read_point(struct crown_yreader *r, const struct crown_ynode *n,
    const char *what, struct crown_point *p)
{
	if (n == NULL || n->kind != CROWN_Y_SEQ || n->n != 2) {
		crown_yerror(r, n, "R4.2", "'%s' must be a point [x, y]",
		    what);
		return CROWN_EINVALID;
	}
	if (crown_ynum(r, n->item[0], "x", -MAX_COORD, MAX_COORD, "R4.2",
	    &p->x) != 0 ||
	    crown_ynum(r, n->item[1], "y", -MAX_COORD, MAX_COORD, "R4.2",
	    &p->y) != 0)
		return CROWN_EINVALID;
	p->x = crown_round2(p->x);
	p->y = crown_round2(p->y);
	return 0;
}

/* move: {to: [x, y] | path: [[x, y], ...], face: N, road: bool} */
static void
read_move(struct crown_yreader *r, const struct crown_ynode *n,
    struct crown_action_order *a, const char *what)
{
	const struct crown_ynode	*to, *path;
	long				 face;
	size_t				 i;

	if (crown_ykind(r, n, CROWN_Y_MAP, what, "R4.2") != 0)
		return;
	crown_ykeys(r, n, move_keys, "R4.2");
	to = crown_ymap_get(n, "to");
	path = crown_ymap_get(n, "path");
	if ((to == NULL) == (path == NULL)) {
		crown_yerror(r, n, "R4.2", "'%s' needs either 'to' or 'path'",
		    what);
	} else if (to != NULL) {
		a->path = xcalloc(1, sizeof(*a->path));
		if (read_point(r, to, "to", &a->path[0]) == 0)
			a->npath = 1;
	} else if (crown_ykind(r, path, CROWN_Y_SEQ, "path", "R4.2") == 0) {
		if (path->n == 0 || path->n > MAX_PATH)
			crown_yerror(r, path, "R4.2",
			    "a path has 1 to %d points", MAX_PATH);
		else {
			a->path = xcalloc(path->n, sizeof(*a->path));
			for (i = 0; i < path->n; i++)
				if (read_point(r, path->item[i], "path",
				    &a->path[a->npath]) == 0)
					a->npath++;
		}
	}
	if (crown_yfield_int(r, n, "face", false, 0, 359, "R4.2", &face) ==
	    0 && crown_ymap_get(n, "face") != NULL) {
		a->has_face = true;
		a->face = (int)face;
	}
	crown_yfield_bool(r, n, "road", false, "R4.2", &a->road);
}

static void
read_action(struct crown_yreader *r, const struct crown_ynode *n,
    struct crown_action_order *a)
{
	const struct crown_ynode	*arg;
	const char			*s;
	int				 k;

	a->line = n->line;
	a->col = n->col;
	if (n->kind == CROWN_Y_SCALAR) {
		if (crown_yenum(r, n, "action", crown_action_names,
		    CROWN_NACTION, "R3.4", &k) != 0)
			return;
		a->kind = k;
		if (!takes_no_argument(a->kind))
			crown_yerror(r, n, "R3.4",
			    "action '%s' needs an argument, as '{%s: ...}'",
			    n->str, n->str);
		return;
	}
	if (n->kind != CROWN_Y_MAP || n->n != 1) {
		crown_yerror(r, n, "R3.4", "an action is a name, or a map "
		    "with one key: the action's name");
		a->kind = CROWN_NACTION;
		return;
	}
	if (crown_yenum(r, n->key[0], "action", crown_action_names,
	    CROWN_NACTION, "R3.4", &k) != 0) {
		a->kind = CROWN_NACTION;
		return;
	}
	a->kind = k;
	arg = n->item[0];
	switch (a->kind) {
	case CROWN_MOVE:
	case CROWN_MANHANDLE:
		read_move(r, arg, a, crown_action_names[a->kind]);
		break;
	case CROWN_CHARGE:
	case CROWN_HELP:
		if (crown_yid(r, arg, crown_action_names[a->kind],
		    a->kind == CROWN_CHARGE ? "R9.1" : "R4.3", &s) == 0)
			a->target = xstrdup(s);
		break;
	case CROWN_FIRE:
		if (arg->kind == CROWN_Y_SCALAR &&
		    strncmp(arg->str, "building:", 9) == 0) {
			if (crown_id_valid(arg->str + 9)) {
				a->target = xstrdup(arg->str + 9);
				a->target_building = true;
			} else
				crown_yerror(r, arg, "R11.2", "'%s' is not a "
				    "valid building id", arg->str + 9);
		} else if (crown_yid(r, arg, "fire", "R5.1", &s) == 0)
			a->target = xstrdup(s);
		break;
	case CROWN_FORMATION:
		if (crown_yenum(r, arg, "formation", crown_formation_names,
		    CROWN_NFORMATION, "R3.4", &k) == 0)
			a->formation = k;
		break;
	default:
		if (!crown_yis_null(arg))
			crown_yerror(r, arg, "R3.4",
			    "action '%s' takes no argument",
			    crown_action_names[a->kind]);
		break;
	}
}

static void
read_unit_orders(struct crown_yreader *r, const struct crown_ynode *n,
    struct crown_unit_orders *uo)
{
	const struct crown_ynode	*acts;
	const char			*id;
	size_t				 i;

	uo->line = n->line;
	uo->col = n->col;
	crown_ykeys(r, n, unit_keys, "R3.4");
	if (crown_yid(r, crown_ymap_get(n, "unit"), "unit", NULL, &id) == 0)
		uo->unit = xstrdup(id);
	acts = crown_yrequire(r, n, "actions", "R3.4");
	if (acts == NULL)
		return;
	if (crown_ykind(r, acts, CROWN_Y_SEQ, "actions", "R3.4") != 0)
		return;
	if (acts->n > MAX_ACTIONS) {
		crown_yerror(r, acts, "R3.1", "more than %d actions",
		    MAX_ACTIONS);
		return;
	}
	uo->actions = xcalloc(acts->n ? acts->n : 1, sizeof(*uo->actions));
	for (i = 0; i < acts->n; i++)
		read_action(r, acts->item[i], &uo->actions[uo->nactions++]);
}

static void
read_leader_orders(struct crown_yreader *r, const struct crown_ynode *n,
    struct crown_leader_orders *lo)
{
	const struct crown_ynode	*m;
	const char			*id;

	lo->line = n->line;
	lo->col = n->col;
	crown_ykeys(r, n, leader_keys, "R4.6");
	if (crown_yid(r, crown_ymap_get(n, "leader"), "leader", NULL, &id) ==
	    0)
		lo->leader = xstrdup(id);
	if ((m = crown_ymap_get(n, "move")) != NULL &&
	    crown_ykind(r, m, CROWN_Y_MAP, "move", "R4.6") == 0) {
		crown_ykeys(r, m, (const char *const[]){ "to", NULL },
		    "R4.6");
		lo->move_line = m->line;
		lo->move_col = m->col;
		if (read_point(r, crown_yrequire(r, m, "to", "R4.6"), "to",
		    &lo->to) == 0)
			lo->has_move = true;
	}
	crown_yfield_id(r, n, "attach", false, "R10.3", &lo->attach);
	crown_yfield_bool(r, n, "detach", false, "R10.3", &lo->detach);
	if (lo->attach != NULL && lo->detach)
		crown_yerror(r, n, "R10.3", "a leader cannot attach and detach "
		    "in one order");
}

int
crown_orders_parse(struct crown_orders **out, const char *file,
    const char *buf, size_t len, struct crown_diags *d)
{
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root, *list, *v, *n;
	struct crown_yreader		 r = { file, d, 0 };
	struct crown_orders		*o;
	long				 turn;
	size_t				 i;
	int				 error;

	*out = NULL;
	error = crown_ydoc_parse(&doc, file, buf, len, &crown_ylimits_orders,
	    d);
	if (error != 0)
		return error;
	o = xcalloc(1, sizeof(*o));
	o->file = xstrdup(file);
	o->turn = -1;
	root = crown_ydoc_root(doc);
	if (crown_ykind(&r, root, CROWN_Y_MAP, "orders file", NULL) != 0)
		goto done;
	crown_ykeys(&r, root, top_keys, NULL);
	if ((v = crown_ymap_get(root, "game")) != NULL) {
		o->game_line = v->line;
		o->game_col = v->col;
	}
	if ((v = crown_ymap_get(root, "turn")) != NULL) {
		o->turn_line = v->line;
		o->turn_col = v->col;
	}
	crown_yfield_str(&r, root, "game", true, NULL, &o->game);
	if (crown_yfield_int(&r, root, "turn", true, 1, MAX_TURN, "R2.2",
	    &turn) == 0)
		o->turn = (int)turn;
	if ((v = crown_ymap_get(root, "side")) != NULL) {
		o->side_line = v->line;
		o->side_col = v->col;
	}
	crown_yfield_id(&r, root, "side", true, NULL, &o->side);
	/* read for its type only: it reaches the dice through the file's
	 * bytes (dice.c, the salt) */
	crown_yfield_str(&r, root, "seed", false, NULL, &o->seed);
	list = crown_yrequire(&r, root, "orders", NULL);
	if (list == NULL || crown_yis_null(list) ||
	    crown_ykind(&r, list, CROWN_Y_SEQ, "orders", NULL) != 0)
		goto done;
	o->units = xcalloc(list->n ? list->n : 1, sizeof(*o->units));
	o->leaders = xcalloc(list->n ? list->n : 1, sizeof(*o->leaders));
	for (i = 0; i < list->n; i++) {
		n = list->item[i];
		if (crown_ykind(&r, n, CROWN_Y_MAP, "order", NULL) != 0)
			continue;
		if (crown_ymap_get(n, "leader") != NULL)
			read_leader_orders(&r, n,
			    &o->leaders[o->nleaders++]);
		else if (crown_ymap_get(n, "unit") != NULL)
			read_unit_orders(&r, n, &o->units[o->nunits++]);
		else
			crown_yerror(&r, n, NULL, "an order names a 'unit' or "
			    "a 'leader'");
	}
done:
	crown_ydoc_free(doc);
	/* even with problems, hand back what was read, so validation can
	 * report the rest of the file's problems in the same run */
	*out = o;
	return r.errors > 0 ? CROWN_EINVALID : 0;
}

int
crown_orders_load(struct crown_orders **out, const char *path,
    struct crown_diags *d)
{
	char	*buf;
	size_t	 len;
	int	 error;

	*out = NULL;
	error = crown_read_file(&buf, &len, path,
	    crown_ylimits_orders.max_bytes, d);
	if (error != 0)
		return error;
	error = crown_orders_parse(out, path, buf, len, d);
	free(buf);
	return error;
}

void
crown_orders_free(struct crown_orders *o)
{
	size_t	i, j;

	if (o == NULL)
		return;
	for (i = 0; i < o->nunits; i++) {
		for (j = 0; j < o->units[i].nactions; j++) {
			free(o->units[i].actions[j].path);
			free(o->units[i].actions[j].target);
		}
		free(o->units[i].actions);
		free(o->units[i].unit);
	}
	free(o->units);
	for (i = 0; i < o->nleaders; i++) {
		free(o->leaders[i].leader);
		free(o->leaders[i].attach);
	}
	free(o->leaders);
	free(o->file);
	free(o->game);
	free(o->seed);
	free(o->side);
	free(o);
}

/* Validation. */

struct checker {
	const struct crown_orders	*o;
	const struct crown_state	*s;
	const struct crown_rules	*rules;
	struct crown_diags		*d;
	int				 errors;
	struct crown_geom_grid		*terrain;	/* made at need */
};

static void	problem(struct checker *, unsigned line, unsigned col,
		    const char *rule, const char *fmt, ...)
		    __attribute__((format(printf, 5, 6)));
static void	note(struct checker *, bool, unsigned, unsigned, const char *,
		    const char *, va_list)
		    __attribute__((format(printf, 6, 0)));
static void	warning(struct checker *, unsigned line, unsigned col,
		    const char *rule, const char *fmt, ...)
		    __attribute__((format(printf, 5, 6)));

/* A problem (counted: the orders are refused) or a warning (not). */
static void
note(struct checker *c, bool error, unsigned line, unsigned col,
    const char *rule, const char *fmt, va_list ap)
{
	char	*msg;

	msg = xvasprintf(fmt, ap);
	if (error) {
		crown_diag_add(c->d, c->o->file, line, col, rule, "%s", msg);
		c->errors++;
	} else
		crown_diag_warn(c->d, c->o->file, line, col, rule, "%s", msg);
	free(msg);
}

static void
problem(struct checker *c, unsigned line, unsigned col, const char *rule,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	note(c, true, line, col, rule, fmt, ap);
	va_end(ap);
}

/* An order the rules allow that surely does not do what was meant: the
 * orders stand (a warning is not counted), the player is told. */
static void
warning(struct checker *c, unsigned line, unsigned col, const char *rule,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	note(c, false, line, col, rule, fmt, ap);
	va_end(ap);
}

/*
 * R7.4: a holding unit may not move closer to any enemy, the nearest or
 * another: by the ordered destination, facing as ordered, from where the
 * unit stands.  The check (here) and the engine (move.c) ask the same.
 */
bool
crown_orders_closer_to_enemy(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_unit	*v;
	struct crown_quad	 q, qd, qv;
	size_t			 i;

	if (a->npath == 0)
		return false;
	crown_unit_footprint(&q, rules, u);
	crown_orders_destination_quad(&qd, rules, u, a);
	for (i = 0; i < s->nunits; i++) {
		v = &s->units[i];
		if (v->status == CROWN_LOST || strcmp(v->side, u->side) == 0)
			continue;
		crown_unit_footprint(&qv, rules, v);
		if (crown_geom_dist_quad(&qd, &qv) <
		    crown_geom_dist_quad(&q, &qv))
			return true;
	}
	return false;
}

void
crown_orders_destination_quad(struct crown_quad *out,
    const struct crown_rules *rules, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_point	prev, dest;
	int			face;

	dest = a->path[a->npath - 1];
	prev = a->npath > 1 ? a->path[a->npath - 2] :
	    (struct crown_point){ u->x, u->y };
	face = u->facing;
	if (a->has_face)
		face = a->face;
	else if (prev.x != dest.x || prev.y != dest.y)
		face = crown_geom_bearing(prev, dest);
	crown_track_unit_quad(out, rules, u, dest, face);
}

/* A target: an enemy unit (or a detached enemy leader for fire, R10.4,
 * or a building for guns, R11.2). */
static void
check_target(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_unit		*t;
	const struct crown_leader	*ld;
	const char			*verb = crown_action_names[a->kind];
	bool				 friendly = a->kind == CROWN_HELP;

	if (a->target == NULL)
		return;
	if (a->target_building) {
		if (crown_state_building(c->s, a->target) == NULL)
			problem(c, a->line, a->col, "R11.2",
			    "unknown building '%s'", a->target);
		else if (!crown_is_artillery(u->type))
			problem(c, a->line, a->col, "R11.2",
			    "only guns fire at buildings; '%s' is %s",
			    u->id, crown_utype_names[u->type]);
		return;
	}
	t = crown_state_unit(c->s, a->target);
	if (t == NULL && a->kind == CROWN_FIRE &&
	    (ld = crown_state_leader(c->s, a->target)) != NULL) {
		if (strcmp(ld->side, u->side) == 0)
			problem(c, a->line, a->col, "R10.4",
			    "'%s' is a leader of your own side", a->target);
		else if (ld->attached != NULL)
			problem(c, a->line, a->col, "R10.4",
			    "leader '%s' is attached to '%s': fire at the "
			    "unit", a->target, ld->attached);
		return;
	}
	if (t == NULL) {
		problem(c, a->line, a->col, friendly ? "R4.3" :
		    a->kind == CROWN_CHARGE ? "R9.1" : "R5.1",
		    "%s target '%s' is not a unit", verb, a->target);
		return;
	}
	if (friendly && strcmp(t->side, u->side) != 0)
		problem(c, a->line, a->col, "R4.3",
		    "'%s' is not of your side: help only your own %s",
		    a->target, "guns and wagons");
	else if (friendly && t->type != CROWN_WAGON &&
	    !crown_is_artillery(t->type))
		problem(c, a->line, a->col, "R4.3",
		    "'%s' is %s: only guns and wagons are helped", a->target,
		    crown_utype_names[t->type]);
	else if (!friendly && strcmp(t->side, u->side) == 0)
		problem(c, a->line, a->col,
		    a->kind == CROWN_CHARGE ? "R9.1" : "R5.1",
		    "cannot %s '%s', a unit of your own side", verb,
		    a->target);
	else if (!friendly && t->status == CROWN_LOST)
		problem(c, a->line, a->col,
		    a->kind == CROWN_CHARGE ? "R9.1" : "R5.1",
		    "target '%s' is lost", a->target);
	else if (friendly && t == u)
		problem(c, a->line, a->col, "R4.3",
		    "'%s' cannot help itself", a->target);
}

static bool
off_table(const struct crown_state *s, struct crown_point p)
{
	return p.x < 0 || p.x > s->width || p.y < 0 || p.y > s->height;
}

/*
 * A charge from where the unit stands (no move before it) at a target
 * whose side moves after it, so that nothing can close the gap first:
 * beyond the longest charge move (the dice's maximum, with the charge
 * bonus: crown_move_reach), it cannot reach (R9.1).
 */
static void
check_reach(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*R = c->rules;
	const struct crown_unit		*t;
	struct crown_quad		 qu, qt;
	double				 dist, reach;

	t = a->target != NULL ? crown_state_unit(c->s, a->target) : NULL;
	if (t == NULL || t->status == CROWN_LOST ||
	    strcmp(t->side, u->side) == 0 || c->s->attacker == NULL ||
	    strcmp(c->s->attacker, u->side) != 0)
		return;
	reach = crown_rules_dice_max(R, &R->move[u->type].normal);
	if (R->move[u->type].has_bonus)
		reach += crown_rules_dice_max(R, &R->move[u->type].bonus);
	crown_unit_footprint(&qu, R, u);
	crown_unit_footprint(&qt, R, t);
	dist = crown_geom_dist_quad(&qu, &qt);
	if (!crown_rules_within(R, dist, reach))
		warning(c, a->line, a->col, "R9.1", "'%s' is %.2f inches "
		    "from '%s', beyond its longest charge (%g inches): the "
		    "charge cannot reach", t->id, dist, u->id, reach);
}

/* A unit as its orders leave it, action after action (R3.6, R6.6). */
struct as_ordered {
	const struct crown_action_order	*first_move;
	enum crown_formation		 formation;
	int				 shots;
	bool				 loaded, limbered;
};

/* R5.3, R6.6, R3.6: a fire order. */
static void
check_fire(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, struct as_ordered *now)
{
	const struct crown_rules	*rules = c->rules;

	if (!crown_unit_can_fire(rules, u))
		problem(c, a->line, a->col, "R5.3",
		    "'%s' has no weapon that fires (%s)", u->id,
		    u->type == CROWN_WAGON ? "wagon" :
		    crown_weapon_names[u->weapon]);
	else if (crown_is_artillery(u->type) && now->limbered)
		problem(c, a->line, a->col, "R6.6",
		    "'%s' is limbered and cannot fire", u->id);
	else if (!now->loaded)
		problem(c, a->line, a->col, "R3.6",
		    "'%s' is not loaded: reload before firing", u->id);
	if (u->weapon == CROWN_REPEATING_RIFLE &&
	    !crown_is_artillery(u->type)) {
		if (++now->shots >= rules->repeater_shots)
			now->loaded = false;
	} else
		now->loaded = false;
}

/* R6.6, R3.6: a reload order. */
static void
check_reload(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, struct as_ordered *now)
{
	if (crown_is_artillery(u->type) && now->limbered)
		problem(c, a->line, a->col, "R6.6",
		    "'%s' is limbered and cannot reload", u->id);
	/* a repeater that has fired tops up its tube */
	else if (now->loaded && now->shots == 0)
		warning(c, a->line, a->col, "R3.6", "'%s' is already loaded: "
		    "the reload does nothing", u->id);
	now->loaded = true;
	now->shots = 0;
}

/* R6.6: a limber or unlimber order. */
static void
check_limber(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, struct as_ordered *now)
{
	if (!crown_is_artillery(u->type))
		problem(c, a->line, a->col, "R6.6",
		    "'%s' is %s: only guns limber and unlimber", u->id,
		    crown_utype_names[u->type]);
	else if (now->limbered == (a->kind == CROWN_LIMBER))
		problem(c, a->line, a->col, "R6.6", "'%s' is already %s",
		    u->id, now->limbered ? "limbered" : "unlimbered");
	now->limbered = a->kind == CROWN_LIMBER;
	/* R6.6: a gun travels unloaded (move.c) */
	if (now->limbered)
		now->loaded = false;
}

/* R4.1, R6.6, R7.4, R4.5, R4.3: a move or manhandle order. */
/*
 * R4.2: a gun manhandled with no `face` ends facing along its last leg;
 * hauled back, that turns it away from its front.  Surely not meant: a
 * warning that says how to keep it facing.
 */
static void
check_manhandle_face(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_point	prev, dest;
	int			end, turn;

	if (a->npath == 0)
		return;
	dest = a->path[a->npath - 1];
	prev = a->npath > 1 ? a->path[a->npath - 2] :
	    (struct crown_point){ u->x, u->y };
	if (prev.x == dest.x && prev.y == dest.y)
		return;
	end = crown_geom_bearing(prev, dest);
	turn = crown_geom_norm(end - u->facing);
	if (turn > 180)
		turn = 360 - turn;
	if (turn > 90)
		warning(c, a->line, a->col, "R4.2", "'%s' would end facing "
		    "%d, along its way, turned %d degrees from its front: "
		    "add `face: %d` to keep it facing as it is", u->id, end,
		    turn, u->facing);
}

static void
check_move(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, const struct as_ordered *now)
{
	const struct crown_rules	*rules = c->rules;
	struct crown_unit		 then;
	char				*why;

	/* R4.1: guns and wagons have a manhandle distance */
	if (a->kind == CROWN_MANHANDLE && rules->move[u->type].manhandle <= 0)
		problem(c, a->line, a->col, "R4.1",
		    "'%s' is %s and cannot be manhandled", u->id,
		    crown_utype_names[u->type]);
	else if (a->kind == CROWN_MANHANDLE && now->limbered)
		problem(c, a->line, a->col, "R6.6", "'%s' is limbered: move "
		    "it, don't manhandle it", u->id);
	if (a->kind == CROWN_MOVE && crown_is_artillery(u->type) &&
	    !now->limbered)
		problem(c, a->line, a->col, "R6.6", "'%s' is unlimbered: "
		    "limber it first, or manhandle it", u->id);
	if (u->holding && crown_orders_closer_to_enemy(c->s, rules, u, a))
		problem(c, a->line, a->col, "R7.4", "'%s' is holding this "
		    "half-turn and may not move closer to the enemy", u->id);
	if (a->kind == CROWN_MANHANDLE && !a->has_face)
		check_manhandle_face(c, u, a);
	if (a->npath > 0 && off_table(c->s, a->path[a->npath - 1]))
		warning(c, a->line, a->col, "R4.5", "the destination (%.2f, "
		    "%.2f) is off the table: '%s' would leave the game",
		    a->path[a->npath - 1].x, a->path[a->npath - 1].y, u->id);
	/* R4.3: no N/A terrain along the way */
	then = *u;
	then.limbered = now->limbered;
	then.formation = now->formation;
	if (c->terrain == NULL)
		c->terrain = crown_terrain_grid_new(c->s);
	if (crown_track_validate(c->s, rules, &then, a, c->terrain,
	    &why) != 0) {
		problem(c, a->line, a->col, "R4.3", "%s", why);
		free(why);
	}
}

/* R7.5, R9.1, R7.4: a charge order. */
static void
check_charge(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, const struct as_ordered *now)
{
	const struct crown_rules	*rules = c->rules;
	char				 buf[32];

	/* R7.5: over 60% casualties, no charge */
	if (u->start_figures > 0 &&
	    (u->start_figures - crown_unit_figures(u)) * 100 >
	    rules->charge_max_casualty_pct * u->start_figures) {
		snprintf(buf, sizeof(buf), "%d%%",
		    rules->charge_max_casualty_pct);
		problem(c, a->line, a->col, "R7.5", "'%s' has lost over %s "
		    "of its figures and cannot charge", u->id, buf);
	}
	if (crown_is_artillery(u->type) || u->type == CROWN_WAGON)
		problem(c, a->line, a->col, "R9.1",
		    "'%s' is %s and cannot charge", u->id,
		    crown_utype_names[u->type]);
	else if (u->holding)
		problem(c, a->line, a->col, "R7.4", "'%s' is holding this "
		    "half-turn and may not charge", u->id);
	else if (now->first_move == a)
		check_reach(c, u, a);
}

/* R8.2, R8.3, R3.1, R3.5, R3.3: what any action of u must meet, with
 * *spent the cost of its actions so far. */
static void
check_budget(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a, int *spent, struct as_ordered *now)
{
	const struct crown_rules	*rules = c->rules;
	char				 buf[128];
	int				 budget = rules->cls[u->cls].actions;
	bool				 few;

	few = crown_unit_undercrewed(rules, u);
	*spent += crown_action_cost(rules, u, a->kind);
	if (*spent > budget) {
		snprintf(buf, sizeof(buf), "%d action%s a half-turn%s",
		    budget, budget == 1 ? "" : "s", few ?
		    ", each costing double with too few crew" : "");
		problem(c, a->line, a->col, few ? "R3.5" : "R3.1",
		    "over budget: '%s' has %s", u->id, buf);
	}
	if (rules->action[a->kind].is_move) {
		if (now->first_move != NULL)
			problem(c, a->line, a->col, "R3.3", "'%s' may move "
			    "only once a turn (first move at line %u)", u->id,
			    now->first_move->line);
		now->first_move = a;
	}
}

/*
 * R8.3, R8.5: a rally the rules will not let the unit try, as things
 * stand when the turn begins (a leader may still walk up: a warning).
 */
static void
check_rally(struct checker *c, const struct crown_unit *u,
    const struct crown_action_order *a)
{
	const struct crown_rules	*R = c->rules;
	int				 mod;

	if (u->routs >= R->rally_max_routs)
		problem(c, a->line, a->col, "R8.5", "'%s' has routed %d "
		    "times and cannot rally", u->id, u->routs);
	else if (u->skip_next)
		warning(c, a->line, a->col, "R8.1", "'%s' routed last "
		    "half-turn and does nothing this one: the rally is not "
		    "tried", u->id);
	else if (u->rout_halves + 1 < R->rally_first_half_turn)
		warning(c, a->line, a->col, "R8.3", "'%s' may try to rally "
		    "from its half-turn number %d of rout; this is number %d",
		    u->id, R->rally_first_half_turn, u->rout_halves + 1);
	else if (crown_leader_rally(c->s, R, u, &mod) == NULL)
		warning(c, a->line, a->col, "R8.3", "no officer or general is "
		    "within %g inches of '%s' now: it tries to rally only if "
		    "one is when it rallies", R->rally_radius, u->id);
}

/*
 * R9.8: a unit in a melee when the turn begins does nothing but hold
 * while the melee lasts.  The side that moves first is still in it when
 * it acts: anything but `hold` is refused.  The other side's melee may
 * end in the first half's melee phase, so its orders stand with a
 * warning.  True when the unit's orders are refused for it (its other
 * actions are then not checked further).
 */
static bool
locked_in_melee(struct checker *c, const struct crown_unit *u,
    const struct crown_unit_orders *uo)
{
	const struct crown_action_order	*a;
	const char			*foe;
	size_t				 i;
	bool				 first;

	if (crown_state_locked(c->s, u, &foe, &first) == NULL)
		return false;
	if (foe == NULL)
		foe = "?";
	for (i = 0; i < uo->nactions; i++) {
		a = &uo->actions[i];
		if (a->kind >= CROWN_NACTION || a->kind == CROWN_HOLD)
			continue;
		if (first)
			problem(c, a->line, a->col, "R9.8", "'%s' is locked in "
			    "melee with '%s': it can only hold, not %s",
			    u->id, foe, crown_action_names[a->kind]);
		else
			warning(c, a->line, a->col, "R9.8", "'%s' is locked in "
			    "melee with '%s': its orders are carried out only "
			    "if the melee ends in the first half-turn; "
			    "otherwise it holds", u->id, foe);
		if (!first)
			break;	/* once is enough */
	}
	return first;
}

static void
check_unit(struct checker *c, const struct crown_unit_orders *uo)
{
	const struct crown_unit		*u;
	const struct crown_action_order	*a;
	struct as_ordered		 now;
	int				 spent = 0;
	size_t				 i;
	bool				 locked;

	u = crown_state_unit(c->s, uo->unit);
	if (u == NULL) {
		problem(c, uo->line, uo->col, NULL, "unknown unit '%s'",
		    uo->unit);
		return;
	}
	if (c->o->side != NULL && strcmp(u->side, c->o->side) != 0) {
		problem(c, uo->line, uo->col, NULL,
		    "unit '%s' belongs to side '%s'", u->id, u->side);
		return;
	}
	if (u->status == CROWN_LOST) {
		problem(c, uo->line, uo->col, "R1.3",
		    "unit '%s' is lost and cannot act", u->id);
		return;
	}
	locked = locked_in_melee(c, u, uo);
	memset(&now, 0, sizeof(now));
	now.loaded = u->loaded;
	now.limbered = u->limbered;
	now.formation = u->formation;
	now.shots = u->shots_fired;
	for (i = 0; i < uo->nactions; i++) {
		a = &uo->actions[i];
		if (a->kind >= CROWN_NACTION ||
		    (locked && a->kind != CROWN_HOLD))
			continue;
		/* R8.2: a routing unit may only try to rally */
		if (u->status == CROWN_ROUTING && a->kind != CROWN_RALLY &&
		    a->kind != CROWN_HOLD) {
			problem(c, a->line, a->col, "R8.2",
			    "'%s' is routing and can only rally, not %s",
			    u->id, crown_action_names[a->kind]);
			continue;
		}
		if (a->kind == CROWN_RALLY && u->status != CROWN_ROUTING) {
			problem(c, a->line, a->col, "R8.3",
			    "'%s' is not routing: nothing to rally", u->id);
			continue;
		}
		if (a->kind == CROWN_RALLY)
			check_rally(c, u, a);
		check_budget(c, u, a, &spent, &now);
		check_target(c, u, a);
		switch (a->kind) {
		case CROWN_FIRE:
			check_fire(c, u, a, &now);
			break;
		case CROWN_RELOAD:
			check_reload(c, u, a, &now);
			break;
		case CROWN_LIMBER:
		case CROWN_UNLIMBER:
			check_limber(c, u, a, &now);
			break;
		case CROWN_FORMATION:
			now.formation = a->formation;
			break;
		case CROWN_MANHANDLE:
		case CROWN_MOVE:
			check_move(c, u, a, &now);
			break;
		case CROWN_CHARGE:
			check_charge(c, u, a, &now);
			break;
		default:
			break;
		}
	}
}

static void
check_leader(struct checker *c, const struct crown_leader_orders *lo)
{
	const struct crown_leader	*ld;
	const struct crown_unit		*u;
	char				*why;

	ld = crown_state_leader(c->s, lo->leader);
	if (ld == NULL) {
		problem(c, lo->line, lo->col, "R10.1", "unknown leader '%s'",
		    lo->leader);
		return;
	}
	if (c->o->side != NULL && strcmp(ld->side, c->o->side) != 0) {
		problem(c, lo->line, lo->col, "R10.1",
		    "leader '%s' belongs to side '%s'", ld->id, ld->side);
		return;
	}
	if (ld->status != CROWN_LEADER_OK) {
		problem(c, lo->line, lo->col, "R10.3", "leader '%s' is %s",
		    ld->id, crown_leader_status_names[ld->status]);
		return;
	}
	if (lo->has_move && (lo->to.x < 0 || lo->to.x > c->s->width ||
	    lo->to.y < 0 || lo->to.y > c->s->height))
		problem(c, lo->move_line, lo->move_col, "R4.6",
		    "leader '%s' cannot move off the table", ld->id);
	else if (crown_track_validate_leader(c->s, c->rules, ld, lo,
	    &why) != 0) {
		problem(c, lo->move_line, lo->move_col, "R4.6", "%s", why);
		free(why);
	}
	if (lo->attach != NULL) {
		u = crown_state_unit(c->s, lo->attach);
		if (u == NULL)
			problem(c, lo->line, lo->col, "R10.3",
			    "cannot attach to unknown unit '%s'",
			    lo->attach);
		else if (strcmp(u->side, ld->side) != 0)
			problem(c, lo->line, lo->col, "R10.3",
			    "cannot attach to '%s' of side '%s'", u->id,
			    u->side);
	}
	if (lo->detach && ld->attached == NULL)
		problem(c, lo->line, lo->col, "R10.3",
		    "leader '%s' is not attached", ld->id);
}

/* An entry's id and its place in the file, for finding second entries. */
struct id_at {
	const char	*id;
	size_t		 i;
};

static int
cmp_id_at(const void *a, const void *b)
{
	const struct id_at	*x = a, *y = b;
	int			 r;

	if ((r = strcmp(x->id, y->id)) != 0)
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * For each of n entries, the index of the first entry with the same id
 * (itself when it is the first).  v holds the k entries that have an id.
 * Sorting keeps it n log n: a mailed file of 30,000 entries must not cost
 * a billion comparisons.  Caller frees.
 */
static size_t *
first_entries(struct id_at *v, size_t k, size_t n)
{
	size_t	*first, a, b;

	first = xreallocarray(NULL, n ? n : 1, sizeof(*first));
	for (a = 0; a < n; a++)
		first[a] = a;
	if (k > 1)
		qsort(v, k, sizeof(*v), cmp_id_at);
	for (a = 0; a < k; a = b)
		for (b = a + 1; b < k && strcmp(v[a].id, v[b].id) == 0; b++)
			first[v[b].i] = v[a].i;
	return first;
}

int
crown_orders_validate(const struct crown_orders *o,
    const struct crown_state *s, const struct crown_rules *rules,
    struct crown_diags *d)
{
	return crown_orders_validate_grid(o, s, rules, NULL, d);
}

int
crown_orders_validate_grid(const struct crown_orders *o,
    const struct crown_state *s, const struct crown_rules *rules,
    struct crown_geom_grid *terrain, struct crown_diags *d)
{
	struct checker	 c = { o, s, rules, d, 0, terrain };
	struct id_at	*ids;
	size_t		*first;
	size_t		 i, j, k;

	if (o->game != NULL && s->name != NULL && strcmp(o->game, s->name))
		problem(&c, o->game_line > 0 ? o->game_line : 1,
		    o->game_line > 0 ? o->game_col : 1, NULL, "orders for "
		    "game '%s', but this game is '%s'", o->game, s->name);
	if (o->turn >= 0 && o->turn != s->turn + 1) {
		problem(&c, o->turn_line > 0 ? o->turn_line : 1,
		    o->turn_line > 0 ? o->turn_col : 1, "R2.2", "orders for "
		    "turn %d, but the next turn is %d", o->turn,
		    s->turn + 1);
	}
	if (o->side != NULL && crown_state_side(s, o->side) < 0) {
		problem(&c, o->side_line, o->side_col, NULL,
		    "unknown side '%s'", o->side);
		return CROWN_EINVALID;
	}
	ids = xreallocarray(NULL, o->nunits + o->nleaders + 1,
	    sizeof(*ids));
	for (i = k = 0; i < o->nunits; i++)
		if (o->units[i].unit != NULL) {
			ids[k].id = o->units[i].unit;
			ids[k++].i = i;
		}
	first = first_entries(ids, k, o->nunits);
	for (i = 0; i < o->nunits; i++) {
		if (o->units[i].unit == NULL)
			continue;
		if ((j = first[i]) < i) {
			problem(&c, o->units[i].line, o->units[i].col,
			    "R3.3", "second entry for unit '%s' (first at "
			    "line %u)", o->units[i].unit, o->units[j].line);
			continue;
		}
		check_unit(&c, &o->units[i]);
	}
	free(first);
	for (i = k = 0; i < o->nleaders; i++)
		if (o->leaders[i].leader != NULL) {
			ids[k].id = o->leaders[i].leader;
			ids[k++].i = i;
		}
	first = first_entries(ids, k, o->nleaders);
	for (i = 0; i < o->nleaders; i++) {
		if (o->leaders[i].leader == NULL)
			continue;
		if ((j = first[i]) < i) {
			problem(&c, o->leaders[i].line, o->leaders[i].col,
			    "R4.6", "second entry for leader '%s' (first at "
			    "line %u)", o->leaders[i].leader,
			    o->leaders[j].line);
			continue;
		}
		check_leader(&c, &o->leaders[i]);
	}
	free(first);
	free(ids);
	if (terrain == NULL)
		crown_geom_grid_free(c.terrain);
	return c.errors > 0 ? CROWN_EINVALID : 0;
}

int
crown_orders_validate_state(const struct crown_state *s,
    struct crown_diags *d)
{
	size_t	i;
	int	bad = 0;

	for (i = 0; i < s->nunits; i++) {
		const struct crown_unit *u = &s->units[i];

		if (u->cls == CROWN_ELITE && !s->allow_elite) {
			crown_diag_add(d, s->file, u->line, u->col, "R3.2",
			    "'%s' is elite, but this scenario does not allow "
			    "elite troops (game.allow_elite)", u->id);
			bad = 1;
		}
	}
	return bad ? CROWN_EINVALID : 0;
}

int
crown_orders_validate_set(struct crown_orders *const *v, size_t n,
    const struct crown_state *s, const struct crown_rules *rules,
    struct crown_diags *d)
{
	size_t	i, j;
	int	bad = 0;

	if (crown_orders_validate_state(s, d) != 0)
		bad = 1;
	for (i = 0; i < n; i++) {
		if (crown_orders_validate(v[i], s, rules, d) != 0)
			bad = 1;
		for (j = 0; j < i; j++) {
			if (v[i]->side != NULL && v[j]->side != NULL &&
			    strcmp(v[i]->side, v[j]->side) == 0) {
				crown_diag_add(d, v[i]->file, v[i]->side_line,
				    v[i]->side_col, "R2.2", "second orders "
				    "file for side '%s' (first: %s)",
				    v[i]->side, v[j]->file);
				bad = 1;
				break;
			}
		}
	}
	return bad ? CROWN_EINVALID : 0;
}
