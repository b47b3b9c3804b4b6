/*
 * cmd-orders.c: crown orders: an orders file for a side's next turn,
 * ready to edit, that `crown check` accepts as it is: every unit of the
 * side with `hold` (a routing unit, which may only rally, is left to
 * rout on, R8.2), and before each, as comments, what a player needs to
 * write its orders: place, facing, strength, formation, the actions of
 * its half-turn (R3.1, R3.5), its state (loaded, disordered, limbered,
 * stuck, holding) and the actions open to it now.  YAML, or with
 * --shorthand the mail syntax.
 *
 * It reads the campaign from its last commit, so it works in a player's
 * clone, and it says nothing the side's own report would not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_orders_exec(struct crown_run *);

enum { ORDERS_SIDE, ORDERS_SHORTHAND, ORDERS_NOPTS };

static const struct crown_option orders_options[] = {
	[ORDERS_SIDE] = { "side", CROWN_OPT_VALUE },
	[ORDERS_SHORTHAND] = { "shorthand", CROWN_OPT_FLAG },
	[ORDERS_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_orders = {
	"orders",
	"DIR --side SIDE [--shorthand]",
	"Print an orders file for SIDE's next turn of the campaign at DIR,\n"
	"as committed: every unit of the side with 'hold', and before each,\n"
	"as comments, its place, facing, strength, formation, the actions\n"
	"of its half-turn, its state and the actions open to it.  `crown\n"
	"check` accepts it as it is; edit it and mail it.  With --shorthand\n"
	"it is written in the mail syntax.  A routing unit, which may only\n"
	"rally, is left out (it routs on), with a comment saying so.",
	.flags = CROWN_CMD_CAMPAIGN,
	.options = orders_options,
	.operands = { 1, 1, "give DIR" },
	.exec = cmd_orders_exec
};

/* The actions a unit may be given now, as a player would choose them. */
static void
open_actions(char *buf, size_t len, const struct crown_unit *u)
{
	bool		 gun = crown_is_artillery(u->type);
	size_t		 n = 0;
	int		 k;
	static const enum crown_action order[] = {
		CROWN_MOVE, CROWN_CHARGE, CROWN_FIRE, CROWN_RELOAD,
		CROWN_MANHANDLE, CROWN_LIMBER, CROWN_UNLIMBER,
		CROWN_FORMATION, CROWN_REFORM, CROWN_HELP, CROWN_HOLD
	};
	bool		 open;

	buf[0] = '\0';
	for (k = 0; k < (int)CROWN_NELEM(order); k++) {
		switch (order[k]) {
		case CROWN_MOVE:
			open = !u->stuck && (!gun || u->limbered);
			break;
		case CROWN_CHARGE:
			open = !gun && u->type != CROWN_WAGON && !u->stuck;
			break;
		case CROWN_FIRE:
			open = u->loaded && u->type != CROWN_WAGON &&
			    (!gun || !u->limbered);
			break;
		case CROWN_RELOAD:
			open = !u->loaded && u->type != CROWN_WAGON &&
			    (!gun || !u->limbered);
			break;
		case CROWN_MANHANDLE:
			open = gun && !u->limbered && !u->stuck;
			break;
		case CROWN_LIMBER:
			open = gun && !u->limbered;
			break;
		case CROWN_UNLIMBER:
			open = gun && u->limbered;
			break;
		case CROWN_FORMATION:
			open = !gun && u->type != CROWN_WAGON;
			break;
		case CROWN_REFORM:
			open = u->disordered;
			break;
		case CROWN_HELP:
			open = u->type == CROWN_INFANTRY;
			break;
		default:
			open = true;
			break;
		}
		if (open && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
			    n ? ", " : "", crown_action_names[order[k]]);
	}
}

/* "loaded, disordered": what is true of the unit now. */
static void
state_words(char *buf, size_t len, const struct crown_unit *u)
{
	size_t	n = 0;

	n += (size_t)snprintf(buf + n, len - n, "%s",
	    u->loaded ? "loaded" : "not loaded");
	if (u->disordered && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", disordered");
	if (crown_is_artillery(u->type) && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", %s",
		    u->limbered ? "limbered" : "unlimbered");
	if (u->stuck && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", stuck (R4.3)");
	if (u->holding && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", holding: may not "
		    "move closer to an enemy (R7.4)");
	if (u->rallied && n < len)
		snprintf(buf + n, len - n, ", rallied once (R8.6)");
}

static void
print_unit(const struct crown_unit *u, const struct crown_rules *rules,
    bool shorthand)
{
	char	open[160], st[200];
	int	budget = rules->cls[u->cls].actions;

	bool	gun = crown_is_artillery(u->type);

	printf("%s%s: %s, %s %s %s\n", shorthand ? "# " : "  # ", u->id,
	    u->name, crown_class_names[u->cls], crown_utype_names[u->type],
	    gun ? crown_gun_names[u->gun] : crown_weapon_names[u->weapon]);
	printf("%s  at (%.2f, %.2f) facing %d, %s, %d stand%s, %d figure%s; "
	    "%d action%s a half-turn%s\n", shorthand ? "# " : "  # ", u->x,
	    u->y, u->facing, gun ? "a gun and its crew" :
	    crown_formation_names[u->formation],
	    crown_unit_stands(u), crown_unit_stands(u) == 1 ? "" : "s",
	    crown_unit_figures(u), crown_unit_figures(u) == 1 ? "" : "s",
	    budget, budget == 1 ? "" : "s", crown_unit_undercrewed(rules, u) ?
	    " (too few crew: each costs double, R3.5)" : "");
	state_words(st, sizeof(st), u);
	printf("%s  %s\n", shorthand ? "# " : "  # ", st);
	if (u->status == CROWN_ROUTING) {
		printf("%s  routing: it routs on unless ordered to rally "
		    "(R8.2, R8.3)\n", shorthand ? "# " : "  # ");
		return;
	}
	open_actions(open, sizeof(open), u);
	printf("%s  open: %s\n", shorthand ? "# " : "  # ", open);
	if (shorthand)
		printf("%s: hold\n", u->id);
	else
		printf("  - unit: %s\n    actions: [hold]\n", u->id);
}

/* game, turn and side, written as YAML writes them: a game's name may
 * hold ": " or " #". */
static int
print_header(const struct crown_state *s, const char *side)
{
	struct crown_buf	 b = { 0 };
	struct crown_yemit	*y;
	int			 error;

	y = crown_yemit_new(&b);
	crown_yemit_map(y, false);
	crown_yemit_kstr(y, "game", s->name);
	crown_yemit_kint(y, "turn", s->turn + 1);
	crown_yemit_kstr(y, "side", side);
	crown_yemit_end(y);
	if ((error = crown_yemit_finish(y)) == 0)
		printf("%sorders:\n", b.data);
	crown_yemit_free(y);
	crown_buf_release(&b);
	return error;
}

static int
cmd_orders_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	const struct crown_state *s;
	const struct crown_leader *ld;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	const char		*side = r->opt[ORDERS_SIDE].value;
	bool			 sh = r->opt[ORDERS_SHORTHAND].value != NULL;
	char			*label;
	size_t			 i, n = 0;
	int			 error, k;

	if (side == NULL)
		return crown_cmd_usage_error(r->cmd, "give --side SIDE");
	label = xasprintf("turn-%d", c->last);
	error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d);
	free(label);
	if (error != 0)
		goto cleanup;
	s = camp.state;
	if ((k = crown_state_side(s, side)) < 0) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no side '%s' in this "
		    "campaign", side);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	printf("# Orders of %s for turn %d of %s (crown orders).\n"
	    "# Every unit holds until you give it other actions.\n",
	    s->sides[k].name, s->turn + 1, s->name);
	if (sh)
		printf("side: %s\n", side);
	else if ((error = print_header(s, side)) != 0)
		goto cleanup;
	for (i = 0; i < s->nunits; i++) {
		if (strcmp(s->units[i].side, side) != 0 ||
		    s->units[i].status == CROWN_LOST)
			continue;
		print_unit(&s->units[i], camp.rules, sh);
		if (s->units[i].status != CROWN_ROUTING)
			n++;
	}
	if (n == 0 && !sh)
		printf("  []\n");
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (strcmp(ld->side, side) != 0 ||
		    ld->status != CROWN_LEADER_OK)
			continue;
		if (ld->attached != NULL)
			printf("# leader %s (%s %s) is with %s\n", ld->id,
			    crown_rank_names[ld->rank], ld->name,
			    ld->attached);
		else
			printf("# leader %s (%s %s) is at (%.2f, %.2f)\n",
			    ld->id, crown_rank_names[ld->rank], ld->name,
			    ld->x, ld->y);
	}
cleanup:
	crown_campaign_release(&camp);
	error = crown_cmd_fail(&d, error);
	crown_diags_release(&d);
	return error;
}
