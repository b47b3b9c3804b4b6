/*
 * falls.h: a leader killed or captured (falls.c: R10.3, R10.4, R7.1).
 */
#ifndef CROWN_FALLS_H
#define CROWN_FALLS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* A leader falls (killed or captured): his status, and the R7.1 flags of
 * the units that must test (only a death is a trigger). */
void	crown_leader_fall(struct crown_engine *, struct crown_leader *,
	    enum crown_leader_status);

#endif
