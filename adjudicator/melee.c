/*
 * melee.c: the melee phase (R9.5-R9.9).
 */
#include "crown/engine.h"

int
crown_melee_phase(struct crown_engine *e)
{
	/* melees start only from charges (R9.1); none are in progress
	 * until charge.c makes them */
	return e->error;
}
