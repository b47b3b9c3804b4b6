/*
 * engine.h: crown_resolve, the pure function at the heart of crown, and the
 * context the rule modules (move.c, fire.c, melee.c, morale.c, ...) share
 * while a turn is resolved.
 *
 * resolve(state, orders, rules, dice) -> state', events: it knows nothing
 * of files, git or mail.
 */
#ifndef CROWN_ENGINE_H
#define CROWN_ENGINE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "crown/dice.h"
#include "crown/diag.h"
#include "crown/events.h"
#include "crown/geom.h"
#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"

/*
 * Resolve one game turn: the attacker's half-turn, then the defender's
 * (R2.1), each through charge declaration, actions, melee and morale.
 * Mutates s (turn + 1) and appends to ev.  Returns 0, or CROWN_EINVALID
 * when the dice fail (a script ran out or held a bad value; the problem is
 * in d); then s is half-resolved and must be thrown away.
 */
int	crown_resolve(struct crown_state *s, struct crown_orders *const *orders,
	    size_t norders, const struct crown_rules *rules,
	    struct crown_dice *dice, struct crown_events *ev,
	    struct crown_diags *d);

#endif
