/*
 * leaders.c: officers and generals (R4.6, R10).
 */
#include "crown/engine.h"

int
crown_leaders_actions(struct crown_engine *e, const struct crown_orders *o)
{
	return e->error;
}
