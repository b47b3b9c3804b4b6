/*
 * charge.c: the charge declaration phase (R9.1-R9.4, R7.6).
 */
#include <string.h>

#include "crown/engine.h"

int
crown_charge_phase(struct crown_engine *e)
{
	const struct crown_orders	*o;
	struct crown_unit		*u;
	size_t				 i, j;

	e->phase = CROWN_PHASE_CHARGE;
	o = crown_engine_side_orders(e, e->phasing);
	for (i = 0; o != NULL && i < o->nunits && e->error == 0; i++) {
		u = crown_state_unit(e->s, o->units[i].unit);
		for (j = 0; u != NULL && j < o->units[i].nactions; j++)
			if (o->units[i].actions[j].kind == CROWN_CHARGE)
				crown_engine_skip(e, u,
				    &o->units[i].actions[j], "R9.1",
				    "this version of crown does not "
				    "adjudicate charges yet");
	}
	return e->error;
}
