/*
 * form.c: an orders file for a side's next turn, ready to edit, that
 * `crown check` accepts as it is (crown orders prints it; each player's
 * turn mail carries it): every unit of the side with `hold` (a routing
 * unit, which may only rally, is left to rout on, R8.2), and before
 * each, as comments, what a player needs to write its orders: place,
 * facing, strength, formation, the actions of its half-turn (R3.1,
 * R3.5), its state (loaded, disordered, limbered, stuck, holding) and
 * the actions open to it now.  YAML, or the mail syntax.  It says
 * nothing the side's own report would not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "crown/common.h"
#include "crown/report.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/yaml.h"

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
form_unit(struct crown_buf *out, const struct crown_unit *u,
    const struct crown_rules *rules, bool shorthand)
{
	char		 open[160], st[200];
	int		 budget = rules->cls[u->cls].actions;
	int		 stands = crown_unit_stands(u);
	int		 figures = crown_unit_figures(u);
	bool		 gun = crown_is_artillery(u->type);
	const char	*c = shorthand ? "# " : "  # ";

	crown_buf_printf(out, "%s%s: %s, %s %s %s\n", c, u->id, u->name,
	    crown_class_names[u->cls], crown_utype_names[u->type],
	    gun ? crown_gun_names[u->gun] : crown_weapon_names[u->weapon]);
	crown_buf_printf(out, "%s  at (%.2f, %.2f) facing %d, %s, %d stand%s, "
	    "%d figure%s; %d action%s a half-turn%s\n", c, u->x, u->y,
	    u->facing, gun ? "a gun and its crew" :
	    crown_formation_names[u->formation], stands, stands == 1 ? "" :
	    "s", figures, figures == 1 ? "" : "s", budget, budget == 1 ? "" :
	    "s", crown_unit_undercrewed(rules, u) ?
	    " (too few crew: each costs double, R3.5)" : "");
	state_words(st, sizeof(st), u);
	crown_buf_printf(out, "%s  %s\n", c, st);
	if (u->status == CROWN_ROUTING) {
		crown_buf_printf(out, "%s  routing: it routs on unless ordered "
		    "to rally (R8.2, R8.3)\n", c);
		return;
	}
	open_actions(open, sizeof(open), u);
	crown_buf_printf(out, "%s  open: %s\n", c, open);
	if (shorthand)
		crown_buf_printf(out, "%s: hold\n", u->id);
	else
		crown_buf_printf(out, "  - unit: %s\n    actions: [hold]\n",
		    u->id);
}

/* game, turn and side, written as YAML writes them: a game's name may
 * hold ": " or " #". */
static int
form_header(struct crown_buf *out, const struct crown_state *s,
    const char *side)
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
		crown_buf_printf(out, "%sorders:\n", b.data);
	crown_yemit_free(y);
	crown_buf_release(&b);
	return error;
}

int
crown_orders_form(struct crown_buf *out, const struct crown_state *s,
    const struct crown_rules *rules, const char *side, bool sh)
{
	const struct crown_leader *ld;
	size_t			 i, n = 0;
	int			 error, k;

	if ((k = crown_state_side(s, side)) < 0)
		return CROWN_EINVALID;
	crown_buf_printf(out, "# Orders of %s for turn %d of %s (crown "
	    "orders).\n# Every unit holds until you give it other "
	    "actions.\n", s->sides[k].name, s->turn + 1, s->name);
	if (sh)
		crown_buf_printf(out, "side: %s\n", side);
	else if ((error = form_header(out, s, side)) != 0)
		return error;
	for (i = 0; i < s->nunits; i++) {
		if (strcmp(s->units[i].side, side) != 0 ||
		    s->units[i].status == CROWN_LOST)
			continue;
		form_unit(out, &s->units[i], rules, sh);
		if (s->units[i].status != CROWN_ROUTING)
			n++;
	}
	if (n == 0 && !sh)
		crown_buf_puts(out, "  []\n");
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (strcmp(ld->side, side) != 0 ||
		    ld->status != CROWN_LEADER_OK)
			continue;
		if (ld->attached != NULL)
			crown_buf_printf(out, "# leader %s (%s %s) is with "
			    "%s\n", ld->id, crown_rank_names[ld->rank],
			    ld->name, ld->attached);
		else
			crown_buf_printf(out, "# leader %s (%s %s) is at "
			    "(%.2f, %.2f)\n", ld->id,
			    crown_rank_names[ld->rank], ld->name, ld->x,
			    ld->y);
	}
	return 0;
}
