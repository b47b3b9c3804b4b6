/*
 * move.h: movement, terrain and formations (move.c: R4, R6.6), and the
 * movement services of charges (R9.1), retirement (R7.4) and routs (R8.1).
 */
#ifndef CROWN_MOVE_H
#define CROWN_MOVE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

int	crown_action_move(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_manhandle(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_limber(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_unlimber(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_formation(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_help(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

/*
 * Movement services of move.c, for charges (R9.1), retirement (R7.4) and
 * routs (R8.1) as well as ordered moves.
 */
enum crown_move_kind {
	CROWN_MOVE_NORMAL,	/* R4.1 normal roll */
	CROWN_MOVE_CHARGE,	/* normal + charge bonus (R9.1) */
	CROWN_MOVE_CHARGE_HALF,	/* normal + half the bonus, rounded up */
	CROWN_MOVE_CHARGE_NONE,	/* normal only */
	CROWN_MOVE_ROUT,	/* normal + rout bonus (R8.1) */
	CROWN_MOVE_RETIRE	/* one normal move (R7.4) */
};

#define CROWN_MOVE_IGNORE_TERRAIN 0x01	/* R8.1: routs pay no penalty */
#define CROWN_MOVE_INTO_CONTACT	  0x02	/* R9.1: no stop short of enemy */
#define CROWN_MOVE_KEEP_FACING	  0x04	/* R7.4: retire facing the enemy */
/*
 * Roll a unit's gross movement (R4.1): base, then the charge or rout bonus,
 * then the road bonus when `road` (FORMATS.md dice order), each die added
 * to event ev_i.  Sets *gross in inches; returns 0 or e->error.
 */
int	crown_move_roll(struct crown_engine *, struct crown_unit *,
	    size_t ev_i, enum crown_move_kind, bool road, double *gross);

/*
 * Move u along path (n points) with a gross roll: terrain penalties for
 * each feature the footprint touches within the gross distance (R4.4,
 * rolled into ev_i unless CROWN_MOVE_IGNORE_TERRAIN), drowning (R4.3a),
 * sticking (R4.3b), stopping 1 inch short of enemies (R4.5) unless
 * CROWN_MOVE_INTO_CONTACT, leaving the table (lost).  Ends facing `face`
 * (-1: along the last leg, or the old facing with KEEP_FACING).  Fills the
 * event's from/to; *moved is the distance covered.
 */
int	crown_move_along(struct crown_engine *, struct crown_unit *,
	    size_t ev_i, const struct crown_point *path, size_t n,
	    double gross, unsigned flags, int face, double *moved);

/* A point off the unit's home edge, straight back (R7.4, R8.1). */
struct crown_point crown_move_home_point(const struct crown_engine *,
	    const struct crown_unit *);

#endif
