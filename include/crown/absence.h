/*
 * absence.h: a player's absence and a side's missed orders (doc/
 * umpire.md, "Absences and civil disorder").  A player is away while
 * the state's away_until (crown roster away) is later than the time
 * asked about; a side is away while every one of its players is.
 */
#ifndef CROWN_ABSENCE_H
#define CROWN_ABSENCE_H

#include <stdbool.h>

#include "crown/state.h"

/* game.max_absence when none is given */
#define CROWN_MAX_ABSENCE_DEFAULT	"14d"

/*
 * Is every player of sd away at time now (seconds of the epoch)?  A side
 * without players is not.  *until (may be NULL) is the earliest end of
 * their absences: when the first of them is back.
 */
bool	crown_side_away(const struct crown_side *sd, long long now,
	    long long *until);
/* game.max_absence in seconds (CROWN_MAX_ABSENCE_DEFAULT when none). */
long long crown_state_max_absence(const struct crown_state *s);
/* Is a side that missed the orders of `missed' turns in a row in civil
 * disorder (game.missed_orders.limit)? */
bool	crown_state_disorder(const struct crown_state *s, int missed);

#endif
