/*
 * leaders.h: scenario checks of officers and generals (R10.1, R10.2) and
 * of elite troops (R3.2), for `crown new`.
 */
#ifndef CROWN_LEADERS_H
#define CROWN_LEADERS_H

#include "crown/diag.h"
#include "crown/rules.h"
#include "crown/state.h"

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
