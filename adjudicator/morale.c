/*
 * morale.c: the morale phase (R7).
 */
#include "crown/engine.h"

int
crown_morale_phase(struct crown_engine *e)
{
	/* the triggers of R7.1 come from fire and melee */
	return e->error;
}
