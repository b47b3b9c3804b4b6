/*
 * move.c: movement, terrain and formations (R4, R6.6).
 */
#include "crown/engine.h"

int
crown_action_move(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}

int
crown_action_manhandle(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}

int
crown_action_limber(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}

int
crown_action_unlimber(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}

int
crown_action_formation(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}

int
crown_action_help(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}
