/*
 * unit.c: facts about one unit that the rules look up again and again:
 * its figures and stands (R1.3), its footprint on the table (R1.2), what
 * an action costs it (R3.3, R3.5), and casualties taken from it (R1.3).
 */
#include <stdbool.h>

#include "crown/geom.h"
#include "crown/types.h"
#include "crown/unit.h"

int
crown_unit_figures(const struct crown_unit *u)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < u->nstands; i++)
		n += u->stands[i];
	return n;
}

int
crown_unit_stands(const struct crown_unit *u)
{
	size_t	i;
	int	n = 0;

	for (i = 0; i < u->nstands; i++)
		if (u->stands[i] > 0)
			n++;
	return n;
}

int
crown_unit_take_casualties(struct crown_unit *u, int figures)
{
	int	taken = 0, k;

	/* R1.3: from the last stand of the list first */
	while (figures > 0 && u->nstands > 0) {
		k = u->stands[u->nstands - 1];
		if (k > figures)
			k = figures;
		u->stands[u->nstands - 1] -= k;
		figures -= k;
		taken += k;
		if (u->stands[u->nstands - 1] == 0)
			u->nstands--;
	}
	if (u->nstands == 0)
		u->status = CROWN_LOST;
	return taken;
}

void
crown_unit_footprint(struct crown_quad *out, const struct crown_rules *rules,
    const struct crown_unit *u)
{
	double	width, depth, sdepth;
	int	n;

	sdepth = rules->footprint[u->type].depth;
	if (crown_is_artillery(u->type) && u->limbered)
		sdepth = rules->limbered_depth;
	/* R1.2: a gun with its crew is one stand, whatever its figures */
	n = crown_is_artillery(u->type) ? 1 : crown_unit_stands(u);
	if (n < 1)
		n = 1;
	crown_geom_formation_size(&width, &depth, u->formation, n,
	    rules->footprint[u->type].frontage, sdepth,
	    rules->footprint[u->type].gap);
	crown_geom_footprint(out, (struct crown_point){ u->x, u->y },
	    u->facing, width, depth);
}

bool
crown_unit_undercrewed(const struct crown_rules *rules,
    const struct crown_unit *u)
{
	return crown_is_artillery(u->type) &&
	    crown_unit_figures(u) < rules->min_crew[u->type];
}

int
crown_action_cost(const struct crown_rules *rules, const struct crown_unit *u,
    enum crown_action a)
{
	int	cost = rules->action[a].cost;

	if (crown_unit_undercrewed(rules, u))
		cost *= rules->undercrewed_cost_factor;	/* R3.5 */
	return cost;
}
