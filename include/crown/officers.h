/*
 * officers.h: what happens to officers and generals (officers.c: R10): the
 * casualty roll (R10.3), capture in melee (R10.4), the scenario checks
 * (R10.1, R10.2, R3.2).
 */
#ifndef CROWN_OFFICERS_H
#define CROWN_OFFICERS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* R10.3: at the start of the morale phase. */
int	crown_leaders_check(struct crown_engine *);

/* R10.4: detached leaders contacted by enemies in melee. */
int	crown_leaders_melee(struct crown_engine *);

/*
 * Check a scenario's leaders against the rules: every leader's bonus in
 * the R10.2 range; for each side with an `army` key, its officers and
 * generals against the R10.1 allowance for its number of units (the
 * Republic's by game.year; with no year, either period's allowance is
 * accepted); elite units only where game.allow_elite (R3.2).  Every
 * problem goes to d with its place and rule id.  Returns 0 or
 * CROWN_EINVALID.
 */
int	crown_leaders_validate(const struct crown_state *,
	    const struct crown_rules *, struct crown_diags *d);

/*
 * Everything `crown new` checks of a scenario's forces, every problem at
 * once: the organisation of R1.1 (figures a stand, stands a unit; a gun
 * and its crew are one stand), then crown_leaders_validate (R3.2, R10.1,
 * R10.2).  Returns 0 or CROWN_EINVALID.
 */
int	crown_scenario_validate(const struct crown_state *,
	    const struct crown_rules *, struct crown_diags *d);

#endif
