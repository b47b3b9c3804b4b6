/*
 * context.c: the services every rule module shares while a turn is
 * resolved: dice rolled into events, new events, skipped orders (R2.2),
 * the turn record of each unit, the phasing side's orders.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/context.h"
#include "crown/xalloc.h"

int
crown_engine_roll(struct crown_engine *e, const char *who,
    const char *purpose, int sides, int *out)
{
	struct crown_roll_key	key;

	*out = 0;
	if (e->error != 0)
		return e->error;
	key.turn = e->turn;
	key.half = e->half;
	key.who = who != NULL ? who : "";
	key.purpose = purpose;
	if (crown_dice_roll(e->dice, &key, sides,
	    crown_rules_die_low(e->rules, sides), out) != 0) {
		crown_diag_add(e->diags, "dice", 0, 0, NULL, "%s",
		    crown_dice_error(e->dice));
		e->error = CROWN_EINVALID;
	}
	return e->error;
}

int
crown_engine_roll_into(struct crown_engine *e, size_t ev_i, const char *who,
    const char *purpose, int sides)
{
	int	v;

	if (crown_engine_roll(e, who, purpose, sides, &v) != 0)
		return -1;
	return (int)crown_event_die(crown_events_at(e->ev, ev_i), sides, v,
	    purpose);
}

size_t
crown_engine_event(struct crown_engine *e, const char *kind,
    const char *unit, const char *rule)
{
	return crown_events_add(e->ev, e->turn, e->phasing, e->phase, kind,
	    unit, rule);
}

size_t
crown_engine_skip(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a, const char *rule, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*reason;

	va_start(ap, fmt);
	reason = xvasprintf(fmt, ap);
	va_end(ap);
	return crown_engine_skip_why(e, u, a, rule, reason);
}

size_t
crown_engine_skip_why(struct crown_engine *e, const struct crown_unit *u,
    const struct crown_action_order *a, const char *rule, char *reason)
{
	struct crown_event	*ev;
	size_t			 i;

	i = crown_engine_event(e, "order_skipped", u->id, rule);
	ev = crown_events_at(e->ev, i);
	ev->reason = reason;
	if (a != NULL) {
		ev->order = xstrdup(crown_action_names[a->kind]);
		if (a->target != NULL)
			ev->target = xstrdup(a->target);
	}
	crown_event_set(&ev->text, "%s's order to %s was not carried out: "
	    "%s.", u->name, a != NULL ? crown_action_names[a->kind] : "act",
	    reason);
	return i;
}

/* *field set to a copy of s: crown_event_set with nothing to format, for
 * the words every move event has. */
void
crown_engine_set(char **field, const char *s)
{
	free(*field);
	*field = xstrdup(s);
}

struct crown_turn_unit *
crown_engine_tu(struct crown_engine *e, const struct crown_unit *u)
{
	return &e->tu[u - e->s->units];
}

const struct crown_orders *
crown_engine_side_orders(struct crown_engine *e, const char *side)
{
	size_t	i;

	for (i = 0; i < e->norders; i++)
		if (strcmp(e->orders[i]->side, side) == 0)
			return e->orders[i];
	return NULL;
}

int
crown_engine_home_edge(const struct crown_engine *e,
    const struct crown_unit *u)
{
	int	i = crown_state_side(e->s, u->side);

	return i < 0 ? CROWN_SOUTH : (int)e->s->sides[i].home_edge;
}
