/*
 * cmd-blame.c: crown blame: a unit's whole story over the campaign, turn
 * by turn, as the history holds it: what it did and what was done to it
 * (every event naming it as actor or target), its strength after each
 * turn, and for each loss what caused it: the event, its dice with their
 * modifiers, and the order behind it, with its place in the committed
 * orders file.  The umpire's answer to "why did my battalion die?".
 *
 * Everything comes from the commits of main (events.yaml, state.yaml and
 * the orders of each turn), so it works in a player's clone too.  A unit
 * fighting in a melee of several units is named by the events only when
 * it is the side's unit whose modifiers count (R9.7); its strength line
 * still shows every figure it lost.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/orders.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_blame_exec(struct crown_run *);

const struct crown_cmd crown_cmd_blame = {
	"blame",
	"DIR UNIT",
	"Print the story of UNIT over the campaign at DIR, turn by turn:\n"
	"every event that names it, its strength after each turn, and for\n"
	"each loss the event, its dice with every modifier and the order\n"
	"behind it (the committed orders file, line and column).  Reads\n"
	"only the history, so it works in a player's clone.",
	.flags = CROWN_CMD_CAMPAIGN,
	.operands = { 2, 2, "give DIR and UNIT" },
	.exec = cmd_blame_exec
};

/* What a turn's commit holds for the story. */
struct turn_files {
	struct crown_ydoc	*events;
	struct crown_orders	**orders;	/* one per side that sent some */
	size_t			 norders;
};

static const char *
str(const struct crown_ynode *map, const char *key)
{
	const struct crown_ynode *v = crown_ymap_get(map, key);

	return v != NULL && v->kind == CROWN_Y_SCALAR ? v->str : NULL;
}

static bool
is(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* "D10 6, elite -2, soft cover +1 = 5" for each die, one line each. */
static void
print_dice(const struct crown_ynode *ev, const char *indent)
{
	const struct crown_ynode *dice, *die, *mods, *m;
	const char		 *who;
	size_t			  i, j;

	dice = crown_ymap_get(ev, "dice");
	for (i = 0; dice != NULL && dice->kind == CROWN_Y_SEQ &&
	    i < dice->n; i++) {
		die = dice->item[i];
		who = str(die, "who");
		printf("%s%s %s%s%s: rolled %s", indent, str(die, "die") ?
		    str(die, "die") : "die", str(die, "for") ?
		    str(die, "for") : "", who != NULL ? ", " : "",
		    who != NULL ? who : "", str(die, "roll") ?
		    str(die, "roll") : "?");
		mods = crown_ymap_get(die, "modifiers");
		for (j = 0; mods != NULL && mods->kind == CROWN_Y_SEQ &&
		    j < mods->n; j++) {
			m = mods->item[j];
			printf(", %s %s%s (%s)", str(m, "name") ?
			    str(m, "name") : "?", str(m, "value") &&
			    str(m, "value")[0] != '-' ? "+" : "",
			    str(m, "value") ? str(m, "value") : "?",
			    str(m, "rule") ? str(m, "rule") : "");
		}
		printf(", score %s\n", str(die, "score") ? str(die, "score") :
		    "?");
	}
}

/*
 * The order of `actor' behind an event of kind `kind' at `target': the
 * action of its side's orders that asked for it, the nth such (the
 * second fire of a unit at the same target is its second fire order).  NULL when none did (a
 * side without orders held and fired, R2.3; reaction fire, R9.2; a
 * routing or retiring unit's move).
 */
static const struct crown_action_order *
order_for(const struct turn_files *tf, const char *actor, const char *kind,
    const char *target, size_t nth, const struct crown_orders **in)
{
	const struct crown_unit_orders	*uo;
	const struct crown_action_order	*a;
	enum crown_action		 want;
	size_t				 i, j, k;

	if (is(kind, "fire") || is(kind, "artillery_fire"))
		want = CROWN_FIRE;
	else if (is(kind, "melee") || is(kind, "charge_move"))
		want = CROWN_CHARGE;
	else if (is(kind, "move") || is(kind, "drowned"))
		want = CROWN_MOVE;
	else
		return NULL;
	for (i = 0; i < tf->norders; i++)
		for (j = 0; j < tf->orders[i]->nunits; j++) {
			uo = &tf->orders[i]->units[j];
			if (!is(uo->unit, actor))
				continue;
			for (k = 0; k < uo->nactions; k++) {
				a = &uo->actions[k];
				if (a->kind != want)
					continue;
				if (want != CROWN_MOVE && target != NULL &&
				    !is(a->target, target))
					continue;
				if (nth-- > 0)
					continue;	/* an earlier event's */
				*in = tf->orders[i];
				return a;
			}
		}
	return NULL;
}

/* Did the unit lose figures by this event, and how many? */
static long
loss_of(const struct crown_ynode *ev, const char *id)
{
	const char	*kind = str(ev, "kind"), *res = str(ev, "result");
	const char	*c = str(ev, "casualties");
	long		 n = c != NULL ? strtol(c, NULL, 10) : 0;

	if (n <= 0)
		return 0;
	if (is(kind, "melee")) {
		if (is(res, "attackers_win") && is(str(ev, "target"), id))
			return n;
		if (is(res, "defenders_win") && is(str(ev, "unit"), id))
			return n;
		return 0;
	}
	if (is(kind, "drowned"))
		return is(str(ev, "unit"), id) ? n : 0;
	return is(str(ev, "target"), id) ? n : 0;
}

/* For a loss: the dice and the order that brought it about. */
static void
explain_loss(const struct crown_ynode *ev, size_t nth,
    const struct turn_files *tf, const char *id, long n)
{
	const struct crown_action_order	*a;
	const struct crown_orders	*o = NULL;
	const char			*kind = str(ev, "kind"), *actor;
	const char			*target;

	printf("    lost %ld figure%s (%s, %s)\n", n, n == 1 ? "" : "s",
	    kind != NULL ? kind : "?", str(ev, "rule") ? str(ev, "rule") :
	    "");
	print_dice(ev, "      ");
	/* the order behind it: the firer's or charger's, or the unit's own
	 * move for a drowning */
	actor = str(ev, "unit");
	target = is(kind, "drowned") ? NULL : is(actor, id) ?
	    str(ev, "target") : id;
	if (is(kind, "melee") && is(str(ev, "target"), id))
		target = id;
	/* a unit moves once a game turn (R3.3): a drowning is its move */
	if (is(kind, "drowned"))
		nth = 0;
	a = actor != NULL ? order_for(tf, actor, kind, target, nth, &o) :
	    NULL;
	if (a != NULL)
		printf("      order: %s %s%s%s (%s:%u:%u)\n", actor,
		    crown_action_names[a->kind], a->target ? " " : "",
		    a->target ? a->target : "", o->file, a->line, a->col);
	else if (is(kind, "reaction_fire"))
		printf("      order: none; reaction fire of the charged unit "
		    "(R9.2)\n");
	else if (is(kind, "melee"))
		printf("      order: none for this round; the melee goes on "
		    "from an earlier charge (R9.8)\n");
	else
		printf("      order: none; %s acted without one (R2.3, R7, "
		    "R8)\n", actor != NULL ? actor : "the unit");
}

/* Events before item i of the same kind by the same unit at the same
 * target: which of its orders item i carried out. */
static size_t
earlier(const struct crown_ynode *root, size_t i)
{
	const struct crown_ynode	*ev = root->item[i], *p;
	size_t				 k, n = 0;

	for (k = 0; k < i; k++) {
		p = root->item[k];
		if (is(str(p, "kind"), str(ev, "kind")) &&
		    is(str(p, "unit"), str(ev, "unit")) &&
		    (str(ev, "target") == NULL ||
		    is(str(p, "target"), str(ev, "target"))))
			n++;
	}
	return n;
}

/* Strength and place after a turn, from its state. */
static void
print_strength(const struct crown_state *s, const char *id, const char *what)
{
	const struct crown_unit	*u = crown_state_unit(s, id);

	if (u == NULL) {
		printf("  %s: not in the state\n", what);
		return;
	}
	printf("  %s: %d stand%s, %d figure%s, %s, at (%.2f, %.2f) facing "
	    "%d\n", what, crown_unit_stands(u), crown_unit_stands(u) == 1 ?
	    "" : "s", crown_unit_figures(u), crown_unit_figures(u) == 1 ?
	    "" : "s", crown_status_names[u->status], u->x, u->y, u->facing);
}

static void
turn_files_release(struct turn_files *tf)
{
	crown_ydoc_free(tf->events);
	crown_campaign_orders_free(tf->orders, tf->norders);
	memset(tf, 0, sizeof(*tf));
}

/* The events and the orders of turn t, from its commit. */
static int
turn_files_load(struct turn_files *tf, struct crown_history *h,
    const char *commit, int t, struct crown_diags *d)
{
	struct crown_outputs	 files = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_orders	*o;
	char			*dir, *path;
	size_t			 i;
	int			 error;

	memset(tf, 0, sizeof(*tf));
	dir = crown_campaign_turn_dir(t);
	path = xasprintf("%s/%s", dir, CROWN_CAMPAIGN_EVENTS);
	error = crown_history_read(&b, h, commit, path, d);
	if (error == 0)
		error = crown_ydoc_parse(&tf->events, path, b.data, b.len,
		    &crown_ylimits_state, d);
	crown_buf_release(&b);
	free(path);
	free(dir);
	if (error != 0)
		return error;
	dir = crown_campaign_orders_dir(t);
	error = crown_history_files(&files, h, commit, dir, d);
	free(dir);
	if (error == CROWN_ENOTFOUND)
		error = 0;	/* no side sent orders */
	for (i = 0; error == 0 && i < files.n; i++) {
		o = NULL;
		if ((error = crown_orders_parse(&o, files.v[i].name,
		    files.v[i].data.data, files.v[i].data.len, d)) != 0) {
			crown_orders_free(o);
			break;
		}
		tf->orders = xreallocarray(tf->orders, tf->norders + 1,
		    sizeof(*tf->orders));
		tf->orders[tf->norders++] = o;
	}
	crown_outputs_release(&files);
	return error;
}

static int
cmd_blame_exec(struct crown_run *r)
{
	const struct crown_chain	*c = &r->chain;
	const struct crown_ynode	*root, *ev;
	const struct crown_unit		*u;
	struct crown_diags		 d = { 0 };
	struct crown_campaign		 camp = { 0 };
	struct turn_files		 tf = { 0 };
	const char			*id = r->operand[1], *cid, *sub;
	char				 date[32], *label = NULL;
	long				 lost, total = 0;
	size_t				 i;
	int				 t, error = 0, seen;

	/* who it is, from turn 0 */
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->at[0]].id,
	    "turn-0", &d)) != 0)
		goto cleanup;
	if ((u = crown_state_unit(camp.state, id)) == NULL) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no unit '%s' in this "
		    "campaign", id);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	printf("%s: %s, %s %s %s of %s\n", id, u->name,
	    crown_class_names[u->cls], crown_utype_names[u->type],
	    crown_weapon_names[u->weapon], u->side);
	print_strength(camp.state, id, "turn 0");
	crown_campaign_release(&camp);
	for (t = 1; t <= c->last; t++) {
		cid = c->l.v[c->at[t]].id;
		if ((error = turn_files_load(&tf, r->h, cid, t, &d)) != 0)
			goto cleanup;
		crown_campaign_format_date(date, sizeof(date),
		    c->l.v[c->at[t]].time, c->l.v[c->at[t]].offset);
		sub = strchr(c->l.v[c->at[t]].subject, ':');
		printf("\nturn %d (%s, %.7s):%s\n", t, date, cid,
		    sub != NULL ? sub + 1 : "");
		root = crown_ydoc_root(tf.events);
		seen = 0;
		for (i = 0; root != NULL && root->kind == CROWN_Y_SEQ &&
		    i < root->n; i++) {
			ev = root->item[i];
			if (!is(str(ev, "unit"), id) &&
			    !is(str(ev, "target"), id))
				continue;
			seen++;
			printf("  %s %s (%s, %s): %s\n", str(ev, "seq") ?
			    str(ev, "seq") : "?", str(ev, "kind") ?
			    str(ev, "kind") : "?",
			    str(ev, "phase") ? str(ev, "phase") : "",
			    str(ev, "rule") ? str(ev, "rule") : "",
			    str(ev, "text") ? str(ev, "text") : "");
			if ((lost = loss_of(ev, id)) > 0) {
				explain_loss(ev, earlier(root, i), &tf, id,
				    lost);
				total += lost;
			}
		}
		if (seen == 0)
			printf("  no event names %s\n", id);
		label = xasprintf("turn-%d", t);
		error = crown_campaign_load(&camp, r->h, cid, label, &d);
		free(label);
		label = NULL;
		if (error != 0)
			goto cleanup;
		print_strength(camp.state, id, "after the turn");
		crown_campaign_release(&camp);
		turn_files_release(&tf);
	}
	printf("\n%s: %ld figure%s lost to the events above over %d "
	    "turn%s\n", id, total, total == 1 ? "" : "s", c->last,
	    c->last == 1 ? "" : "s");
cleanup:
	turn_files_release(&tf);
	crown_campaign_release(&camp);
	error = crown_cmd_fail(&d, error);
	crown_diags_release(&d);
	return error;
}
