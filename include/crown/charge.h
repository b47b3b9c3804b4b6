/*
 * charge.h: charge declaration (charge.c: R9.1-R9.4).
 */
#ifndef CROWN_CHARGE_H
#define CROWN_CHARGE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* The charge phase of the phasing side (R9.1-R9.4). */
int	crown_charge_phase(struct crown_engine *);

#endif
