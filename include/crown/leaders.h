/*
 * leaders.h: the leaders' orders in the actions phase (leaders.c: R4.6,
 * R10): moves, attach, detach.
 */
#ifndef CROWN_LEADERS_H
#define CROWN_LEADERS_H

#include "crown/context.h"

/* leaders.c: R4.6, R10: the phasing side's leader orders, after its
 * units' actions */
int	crown_leaders_actions(struct crown_engine *,
	    const struct crown_orders *);

#endif
