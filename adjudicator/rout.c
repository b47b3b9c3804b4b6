/*
 * rout.c: rout and rally (R8).
 */
#include "crown/engine.h"

int
crown_action_rally(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	return crown_engine_not_adjudicated(e, u, a);
}
