/*
 * form.c: an orders file for a side's next turn, ready to edit, that
 * `crown check` accepts as it is (crown orders prints it; each player's
 * turn mail carries it): every unit of the side with `hold` (a routing
 * unit, which may only rally, is left to rout on, R8.2), and before
 * each, as comments, what a player needs to write its orders: place,
 * facing, strength, formation, the actions of its half-turn (R3.1,
 * R3.5), its weapon's ranges, what it stands in and the cover that
 * gives, its state (loaded, disordered, limbered, stuck, holding, in
 * melee) and the actions open to it now: only those `crown check` lets
 * it have (R9.8 locks a unit in melee, R5.3 lances do not fire, R8.3
 * and R8.5 say when a rally can be tried).  YAML, or the mail syntax.
 * It says nothing the side's own report would not.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/context.h"
#include "crown/firing.h"
#include "crown/report.h"
#include "crown/spatial.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/yaml.h"

/* The actions a unit may be given now, as a player would choose them. */
static void
open_actions(char *buf, size_t len, const struct crown_rules *rules,
    const struct crown_unit *u)
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
			open = u->loaded && crown_unit_can_fire(rules, u) &&
			    (!gun || !u->limbered);
			break;
		case CROWN_RELOAD:
			open = !u->loaded && crown_unit_can_fire(rules, u) &&
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

/* "loaded, disordered": what is true of the unit now ("ready" for one
 * that does not fire, so has no load). */
static void
state_words(char *buf, size_t len, const struct crown_rules *rules,
    const struct crown_unit *u)
{
	size_t	n = 0;

	n += (size_t)snprintf(buf + n, len - n, "%s",
	    !crown_unit_can_fire(rules, u) ? "ready" :
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

/* "rifled musket: close to 6, medium to 12, long to 18 inches" (R5.3,
 * R6.2); nothing for a weapon that does not fire. */
static void
form_ranges(struct crown_buf *out, const char *c,
    const struct crown_rules *rules, const struct crown_unit *u)
{
	const struct crown_band	*bands = crown_unit_bands(rules, u);
	bool			 gun = crown_is_artillery(u->type);
	const char		*sep = ": ";
	char			*d, arms[32];
	int			 b;

	if (!crown_unit_can_fire(rules, u))
		return;
	crown_buf_printf(out, "%s  %s", c, crown_report_arms(arms,
	    sizeof(arms), u));
	for (b = 0; b < CROWN_NBAND; b++) {
		if (!bands[b].present)
			continue;
		d = crown_inches(bands[b].max);
		crown_buf_printf(out, "%s%s to %s", sep, gun ?
		    crown_gun_band_names[b] : crown_fire_band_names[b], d);
		free(d);
		sep = ", ";
	}
	crown_buf_puts(out, " inches\n");
}

/* "in scrub 'Maguey field': soft cover (R5.5)", or in the open. */
static void
form_ground(struct crown_buf *out, const char *c, struct crown_engine *e,
    const struct crown_unit *u)
{
	enum crown_cover	 cov;
	const char		*rule;
	char			*what;

	cov = crown_fire_cover_here(&what, &rule, e, u);
	if (cov == CROWN_COVER_NONE)
		crown_buf_printf(out, "%s  in the open: no cover\n", c);
	else
		crown_buf_printf(out, "%s  %s: %s cover (%s)\n", c, what,
		    crown_cover_words[cov], rule);
	free(what);
}

/*
 * R9.8: the melee the unit is locked in, as check judges it: its side
 * moves first, so only hold (true); or second, so its orders are carried
 * out only if the melee ends in the first half-turn.
 */
static bool
form_melee(struct crown_buf *out, const char *c, const struct crown_state *s,
    const struct crown_unit *u)
{
	const struct crown_melee	*m;
	const struct crown_unit		*foe;
	const char			*id;
	bool				 first;

	if ((m = crown_state_locked(s, u, &id, &first)) == NULL)
		return false;
	foe = id != NULL ? crown_state_unit(s, id) : NULL;
	crown_buf_printf(out, "%s  locked in melee with %s (round %d of the "
	    "melee fought): %s (R9.8)\n", c, foe != NULL ? foe->name : "?",
	    m->rounds, first ? "it can only hold" : "it holds unless the "
	    "melee ends in the first half-turn; then the orders below are "
	    "carried out");
	return first;
}

/* R8.3-R8.5: whether a routing unit can try to rally, as things stand. */
static void
form_rally(struct crown_buf *out, const char *c, const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_unit *u)
{
	const struct crown_leader	*ld;
	int				 mod;

	crown_buf_printf(out, "%s  routing: it routs on unless ordered to "
	    "rally (R8.2, R8.3)", c);
	if (u->routs >= rules->rally_max_routs)
		crown_buf_printf(out, "; routed %d times, it cannot rally "
		    "(R8.5)", u->routs);
	else if (u->skip_next)
		crown_buf_puts(out, "; it routed last half-turn and does "
		    "nothing this one (R8.1)");
	else if ((ld = crown_leader_rally(s, rules, u, &mod)) != NULL)
		crown_buf_printf(out, "; %s%s is within %g inches: it may try "
		    "(`rally`)", crown_leader_rank_word(ld), ld->name,
		    rules->rally_radius);
	else
		crown_buf_printf(out, "; no officer or general is within %g "
		    "inches, so it cannot try now", rules->rally_radius);
	crown_buf_puts(out, "\n");
}

static void
form_unit(struct crown_buf *out, struct crown_engine *e,
    const struct crown_unit *u, bool shorthand)
{
	const struct crown_rules *rules = e->rules;
	char		 open[160], st[200], type[32], arms[32];
	int		 budget = rules->cls[u->cls].actions;
	int		 stands = crown_unit_stands(u);
	int		 figures = crown_unit_figures(u);
	bool		 gun = crown_is_artillery(u->type);
	const char	*c = shorthand ? "# " : "  # ";

	crown_buf_printf(out, "%s%s: %s, %s %s %s\n", c, u->id, u->name,
	    crown_class_names[u->cls], crown_words(type, sizeof(type),
	    crown_utype_names[u->type]), crown_report_arms(arms,
	    sizeof(arms), u));
	crown_buf_printf(out, "%s  at (%.2f, %.2f) facing %d, %s, %d stand%s, "
	    "%d figure%s; %d action%s a half-turn%s\n", c, u->x, u->y,
	    u->facing, gun ? "a gun and its crew" :
	    crown_formation_names[u->formation], stands, stands == 1 ? "" :
	    "s", figures, figures == 1 ? "" : "s", budget, budget == 1 ? "" :
	    "s", crown_unit_undercrewed(rules, u) ?
	    " (too few crew: each costs double, R3.5)" : "");
	form_ranges(out, c, rules, u);
	form_ground(out, c, e, u);
	state_words(st, sizeof(st), rules, u);
	crown_buf_printf(out, "%s  %s\n", c, st);
	if (u->status == CROWN_ROUTING) {
		form_rally(out, c, e->s, rules, u);
		return;
	}
	if (form_melee(out, c, e->s, u))
		crown_buf_printf(out, "%s  open: hold\n", c);
	else {
		open_actions(open, sizeof(open), rules, u);
		crown_buf_printf(out, "%s  open: %s\n", c, open);
	}
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
	struct crown_engine	 e;
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
	/* the engine's view of the state, for the cover (R5.5, R11.1) */
	memset(&e, 0, sizeof(e));
	e.s = (struct crown_state *)s;	/* only read */
	e.rules = rules;
	for (i = 0; i < s->nunits; i++) {
		if (strcmp(s->units[i].side, side) != 0 ||
		    s->units[i].status == CROWN_LOST)
			continue;
		form_unit(out, &e, &s->units[i], sh);
		if (s->units[i].status != CROWN_ROUTING)
			n++;
	}
	crown_spatial_free(&e);
	if (n == 0 && !sh)
		crown_buf_puts(out, "  []\n");
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (strcmp(ld->side, side) != 0 ||
		    ld->status != CROWN_LEADER_OK)
			continue;
		if (ld->attached != NULL)
			crown_buf_printf(out, "# leader %s (%s%s) is with "
			    "%s\n", ld->id, crown_leader_rank_word(ld),
			    ld->name, ld->attached);
		else
			crown_buf_printf(out, "# leader %s (%s%s) is at "
			    "(%.2f, %.2f)\n", ld->id,
			    crown_leader_rank_word(ld), ld->name, ld->x,
			    ld->y);
	}
	return 0;
}
