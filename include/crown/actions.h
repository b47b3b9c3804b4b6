/*
 * actions.h: the simple actions (actions.c): hold, reload, reform (R3.4-R3.7).
 */
#ifndef CROWN_ACTIONS_H
#define CROWN_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

int	crown_action_hold(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_reload(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);
int	crown_action_reform(struct crown_engine *, struct crown_unit *,
	    const struct crown_action_order *);

#endif
