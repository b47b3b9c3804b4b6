/*
 * morale.h: what the modules of charges, melee, morale, rout and leaders
 * (charge.c, melee.c, morale.c, rout.c, officers.c: R7-R10) share, and the
 * hooks the turn sequence (engine.c) calls.
 */
#ifndef CROWN_MORALE_H
#define CROWN_MORALE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/engine.h"

/*
 * Two footprints this close (inches) are in contact: positions are kept
 * to hundredths of an inch (state.c), so a charge that stopped touching
 * its target may be that far from it once rounded.  Precision, not a
 * rule.
 */
#define CROWN_CONTACT	0.01

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
/* Why a unit's orders were set aside (struct crown_turn_unit). */
#define CROWN_TAKEN_ROUT	1	/* R8: routing, rallying */
#define CROWN_TAKEN_LAST_STAND	2	/* R7.5 */

/*
 * Called by engine.c at the start of the phasing side's actions phase:
 * its routing units (R8.1, R8.3-R8.6) and units down to their last stand
 * (R7.5), in state order, whatever their orders.
 */
int	crown_morale_actions(struct crown_engine *);
/*
 * Called by engine.c before a unit's orders in the actions phase (uo may
 * be NULL for R2.3): true when they are not to be carried out, the unit
 * having been taken over above or being locked in melee (R9.8); each
 * order set aside gets an `order_skipped` event saying why.
 */
bool	crown_morale_override(struct crown_engine *, struct crown_unit *,
	    const struct crown_unit_orders *uo);

/* rout.c (R8, R7.4). */
/* The unit routs: status, counters, and its rout move at once (R8.1). */
int	crown_rout_begin(struct crown_engine *, struct crown_unit *,
	    const char *rule);
/* A routing unit of the phasing side, at the start of its actions
 * phase: the half-turn without moving (R8.1), rally (R8.3-R8.6), or
 * another rout move. */
int	crown_rout_half(struct crown_engine *, struct crown_unit *);
/* Retire n normal moves straight towards the home edge, keeping facing
 * (R7.4, R9.8); the event has kind `retire` and the given rule. */
int	crown_retire(struct crown_engine *, struct crown_unit *, int moves,
	    const char *rule, const char *why);
/* Greatest distance a move of this kind can reach (every die at its top),
 * terrain aside: charge reach (R2.2, R7.6), one move (R7.5). */
double	crown_move_reach(const struct crown_rules *,
	    const struct crown_unit *, enum crown_move_kind);

/* melee.c (R9). */
/* The melee u is in, and its side there (0 attackers, 1 defenders). */
struct crown_melee *crown_melee_find(const struct crown_state *,
	    const struct crown_unit *u, int *side);
/* Start a melee of attacker on defender, or join the defender's melee on
 * the side opposite it (R9.7). */
void	crown_melee_join(struct crown_engine *,
	    struct crown_unit *attacker, struct crown_unit *defender,
	    enum crown_attack);
/* u leaves every melee; a melee left without one side ends. */
void	crown_melee_leave(struct crown_engine *,
	    const struct crown_unit *);

/* officers.c (R10). */
/* The first leader of this rank (state order) attached to u, fit to lead;
 * NULL if none. */
struct crown_leader *crown_leader_attached(const struct crown_state *,
	    const struct crown_unit *, enum crown_rank);
/* A leader falls (killed or captured): his status, and the R7.1 flags of
 * the units that must test (only a death is a trigger). */
void	crown_leader_fall(struct crown_engine *, struct crown_leader *,
	    enum crown_leader_status);
/* R10.3: at the start of the morale phase. */
int	crown_leaders_check(struct crown_engine *);
/* R10.4: detached leaders contacted by enemies in melee. */
int	crown_leaders_melee(struct crown_engine *);

#endif
