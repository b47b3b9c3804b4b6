/*
 * melee.h: the melee phase (melee.c: R9.5-R9.9).
 */
#ifndef CROWN_MELEE_H
#define CROWN_MELEE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* One round of every melee in progress (R9.5-R9.9). */
int	crown_melee_phase(struct crown_engine *);

#endif
