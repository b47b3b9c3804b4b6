/*
 * morale.h: morale (morale.c: R7): the tests charges and melee call, the
 * morale phase, and the hooks the turn sequence (turn.c) calls.
 */
#ifndef CROWN_MORALE_H
#define CROWN_MORALE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* One morale test (R7.1-R7.3): which column and what it is about. */
struct crown_test {
	enum crown_morale_column	 col;
	const char			*kind;	/* event kind */
	const char			*purpose; /* die purpose */
	const char			*rule;
	/* the charger (being charged) or the target (charging) */
	const struct crown_unit		*other;
	enum crown_attack		 attack;	/* R9.4 */
	bool				 breakthrough;	/* R7.6 */
	/* R9.7: the unit whose class counts (NULL: the tester) */
	const struct crown_unit		*class_of;
	const char			*why;	/* the R7.1 triggers */
};

/*
 * morale.c.  Test u: roll a D10, add every R7.3 modifier one by one, look
 * the score up in the column (R7.2).  The event (kind t->kind) is *ev_out;
 * the result is *out.  Counts the test for R7.3's "2nd and later".
 * Returns 0 or e->error; applies nothing.
 */
int	crown_morale_test(struct crown_engine *, struct crown_unit *u,
	    const struct crown_test *t, size_t *ev_out,
	    enum crown_morale_result *out);

/* R7.4: carry out a result of the normal column. */
int	crown_morale_apply(struct crown_engine *, struct crown_unit *,
	    enum crown_morale_result);

/* R9.4: front, flank or rear, by where the attacker's footprint is (its
 * start: the footprint before the charge move). */
enum crown_attack crown_charge_attack(const struct crown_engine *,
	    const struct crown_quad *attacker,
	    const struct crown_unit *defender);

/*
 * R7.5: whether u, in good order and not in melee, is a battalion down to
 * its last stand, whose orders the actions phase replaces (a charge's
 * too: charge.c asks before the charge is declared).
 */
bool	crown_morale_last_stand(struct crown_engine *, const struct crown_unit *);

/*
 * Called by turn.c at the start of the phasing side's actions phase:
 * its routing units (R8.1, R8.3-R8.6) and units down to their last stand
 * (R7.5), in state order, whatever their orders.
 */
int	crown_morale_actions(struct crown_engine *);

/*
 * Called by turn.c before a unit's orders in the actions phase (uo may
 * be NULL for R2.3): true when they are not to be carried out, the unit
 * having been taken over above or being locked in melee (R9.8); each
 * order set aside gets an `order_skipped` event saying why.
 */
bool	crown_morale_override(struct crown_engine *, struct crown_unit *,
	    const struct crown_unit_orders *uo);

/* The morale phase of the phasing side's half-turn (R7). */
int	crown_morale_phase(struct crown_engine *);

#endif
