/*
 * falls.c: a leader killed or captured (R10.3, R10.4), by fire, in melee
 * or by his own casualty roll: the one place that records the fall and
 * raises the morale flags a death sets (R7.1).
 */
#include <string.h>

#include "crown/context.h"
#include "crown/falls.h"

void
crown_leader_fall(struct crown_engine *e, struct crown_leader *ld,
    enum crown_leader_status how)
{
	struct crown_unit	*u;
	size_t			 i;

	ld->status = how;
	if (how != CROWN_LEADER_KILLED)
		return;		/* R7.1: only a death is a trigger */
	if (ld->attached != NULL &&
	    (u = crown_state_unit(e->s, ld->attached)) != NULL) {
		/* R7.1: its attached officer or general was killed */
		crown_engine_tu(e, u)->leader_killed = true;
		if (ld->rank == CROWN_OFFICER)
			crown_engine_tu(e, u)->officer_killed = true;
	}
	if (ld->rank != CROWN_GENERAL)
		return;
	/* R7.1: its side's general was killed */
	for (i = 0; i < e->s->nunits; i++)
		if (strcmp(e->s->units[i].side, ld->side) == 0)
			e->tu[i].general_killed = true;
}
