/*
 * officers.c: what happens to officers and generals (R10): the casualty
 * roll of attached leaders (R10.3), capture in melee (R10.4), the morale
 * flags their fall raises (R7.1), and the scenario check of how many each
 * army has (R10.1, R10.2, R3.2).  Leader orders (moves, attach, detach)
 * are in leaders.c.
 */
#include <stdio.h>
#include <string.h>

#include "crown/common.h"
#include "crown/falls.h"
#include "crown/officers.h"
#include "crown/orders.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

static int	ceil_div(int, int);
static void	count_side(const struct crown_state *, const char *side,
		    int *units, int *officers, int *generals);
static int	check_imperial(const struct crown_state *,
		    const struct crown_rules *, const struct crown_side *,
		    struct crown_diags *);
static int	check_republican(const struct crown_state *,
		    const struct crown_rules *, const struct crown_side *,
		    struct crown_diags *);

/*
 * R10.3: after a half-turn in which its unit took casualties, an attached
 * leader dies on a D10 at or below the casualties taken.  Units in state
 * order, then leaders in state order.
 */
int
crown_leaders_check(struct crown_engine *e)
{
	struct crown_event	*ev;
	struct crown_unit	*u;
	struct crown_leader	*ld;
	size_t			 i, j, ev_i;
	int			 cas, d, roll;

	for (i = 0; i < e->s->nunits && e->error == 0; i++) {
		u = &e->s->units[i];
		cas = e->tu[i].casualties_half;
		if (cas <= 0)
			continue;
		for (j = 0; j < e->s->nleaders && e->error == 0; j++) {
			ld = &e->s->leaders[j];
			if (ld->status != CROWN_LEADER_OK ||
			    ld->attached == NULL ||
			    strcmp(ld->attached, u->id) != 0)
				continue;
			ev_i = crown_engine_event(e, "leader_check", u->id,
			    "R10.3");
			d = crown_engine_roll_into(e, ev_i, ld->id,
			    "leader_check", e->rules->leader_kill_die);
			if (d < 0)
				return e->error;
			ev = crown_events_at(e->ev, ev_i);
			ev->leader = xstrdup(ld->id);
			ev->has_casualties = true;
			ev->casualties = cas;
			roll = ev->dice[d].roll;
			crown_event_set(&ev->result, roll <= cas ? "killed" :
			    "survived");
			crown_event_set(&ev->text, "%s, with %s, which lost "
			    "%d figure%s this half-turn, rolled %d on a D%d, "
			    "where %d or less kills: %s.", ld->name, u->name,
			    cas, cas == 1 ? "" : "s", roll,
			    e->rules->leader_kill_die, cas, roll <= cas ?
			    "he is killed" : "he survives");
			if (roll <= cas)
				crown_leader_fall(e, ld, CROWN_LEADER_KILLED);
		}
	}
	return e->error;
}

/*
 * R10.4: a detached leader contacted in melee is captured or killed.  The
 * rules do not say which: a ruling die settles it (R13.1), the
 * defender's way (captured: he does not die, so no R7.1 test follows) on
 * 1 to defender_max, else killed.  Contact: his place touches the
 * footprint of an enemy unit in a melee.
 */
int
crown_leaders_melee(struct crown_engine *e)
{
	struct crown_quad	 q;
	struct crown_point	 p;
	struct crown_geom_box	 box;
	struct crown_event	*ev;
	struct crown_leader	*ld;
	struct crown_unit	*u, *by;
	const size_t		*near;
	size_t			 i, j, n, ev_i;
	int			 d, roll, side;
	bool			 captured;

	for (i = 0; i < e->s->nleaders && e->error == 0; i++) {
		ld = &e->s->leaders[i];
		if (ld->status != CROWN_LEADER_OK || ld->attached != NULL)
			continue;
		p = (struct crown_point){ ld->x, ld->y };
		box = (struct crown_geom_box){ p.x, p.y, p.x, p.y };
		n = crown_engine_units_near(e, &box, CROWN_CONTACT, &near);
		by = NULL;
		for (j = 0; j < n && by == NULL; j++) {
			u = &e->s->units[near[j]];
			if (u->status != CROWN_OK_STATUS ||
			    strcmp(u->side, ld->side) == 0 ||
			    crown_state_melee(e->s, u, &side) == NULL)
				continue;
			crown_unit_footprint(&q, e->rules, u);
			if (crown_geom_dist_poly(&p, 1, q.c, 4) <=
			    CROWN_CONTACT)
				by = u;
		}
		if (by == NULL)
			continue;
		ev_i = crown_engine_event(e, "ruling", by->id, "R10.4");
		d = crown_engine_roll_into(e, ev_i, ld->id, "ruling",
		    e->rules->ruling_die);
		if (d < 0)
			return e->error;
		ev = crown_events_at(e->ev, ev_i);
		ev->leader = xstrdup(ld->id);
		roll = ev->dice[d].roll;
		captured = roll <= e->rules->ruling_defender_max;
		crown_event_set(&ev->reason, "captured or killed (R10.4): "
		    "D%d, 1-%d captured, higher killed (R13.1)",
		    e->rules->ruling_die, e->rules->ruling_defender_max);
		crown_event_set(&ev->result, captured ? "captured" :
		    "killed");
		crown_event_set(&ev->text, "%s, on his own, was caught in the "
		    "melee by %s; captured or killed, the rules say: a D%d "
		    "rolled %d (1-%d captured): %s.", ld->name, by->name,
		    e->rules->ruling_die, roll,
		    e->rules->ruling_defender_max,
		    captured ? "he is captured" : "he is killed");
		crown_leader_fall(e, ld, captured ? CROWN_LEADER_CAPTURED :
		    CROWN_LEADER_KILLED);
	}
	return e->error;
}

/* Scenario checks (R10.1, R10.2, R3.2). */

static int
ceil_div(int a, int b)
{
	if (a <= 0 || b <= 0)
		return 0;
	return (a + b - 1) / b;
}

/* Units (not lost), and leaders fit to lead, of a side. */
static void
count_side(const struct crown_state *s, const char *side, int *units,
    int *officers, int *generals)
{
	size_t	i;

	*units = *officers = *generals = 0;
	for (i = 0; i < s->nunits; i++)
		if (strcmp(s->units[i].side, side) == 0 &&
		    s->units[i].status != CROWN_LOST)
			(*units)++;
	for (i = 0; i < s->nleaders; i++) {
		const struct crown_leader *ld = &s->leaders[i];

		if (ld->side == NULL || strcmp(ld->side, side) != 0 ||
		    ld->status != CROWN_LEADER_OK)
			continue;
		if (ld->rank == CROWN_GENERAL)
			(*generals)++;
		else
			(*officers)++;
	}
}

/*
 * R10.1 Intervention and Imperial: an officer per 2-3 units, so between
 * units / max (rounded up) and units / min (rounded down, at least the
 * former) officers; and the generals.
 */
static int
check_imperial(const struct crown_state *s, const struct crown_rules *R,
    const struct crown_side *sd, struct crown_diags *d)
{
	int	n, off, gen, lo, hi, bad = 0;

	count_side(s, sd->id, &n, &off, &gen);
	lo = ceil_div(n, R->leaders.imperial_units_per_officer_max);
	hi = n / R->leaders.imperial_units_per_officer_min;
	if (hi < lo)
		hi = lo;
	if (off < lo || off > hi) {
		char	need[64];

		if (lo == hi)
			snprintf(need, sizeof(need), "%d", lo);
		else
			snprintf(need, sizeof(need), "%d to %d", lo, hi);
		crown_diag_add(d, s->file, sd->line, sd->col, "R10.1",
		    "side '%s' (imperial) has %d unit%s and %d brigade "
		    "officer%s: it needs %s (one per %d-%d units)", sd->id,
		    n, n == 1 ? "" : "s", off, off == 1 ? "" : "s", need,
		    R->leaders.imperial_units_per_officer_min,
		    R->leaders.imperial_units_per_officer_max);
		bad = 1;
	}
	if (gen != R->leaders.imperial_generals) {
		crown_diag_add(d, s->file, sd->line, sd->col, "R10.1",
		    "side '%s' (imperial) has %d general%s: it needs %d",
		    sd->id, gen, gen == 1 ? "" : "s",
		    R->leaders.imperial_generals);
		bad = 1;
	}
	return bad;
}

/*
 * R10.1 Republicans: before split_year a general for the first
 * general_units units and an officer per units_per_officer more; from it
 * an officer per units_per_officer units and the generals.  A part group
 * of units still needs its officer.  game.year 0 (unknown): either
 * allowance will do.
 */
static int
check_republican(const struct crown_state *s, const struct crown_rules *R,
    const struct crown_side *sd, struct crown_diags *d)
{
	int	n, off, gen, e_off, l_off;
	bool	early_ok, late_ok;

	count_side(s, sd->id, &n, &off, &gen);
	e_off = ceil_div(n - R->leaders.early_general_units,
	    R->leaders.early_units_per_officer);
	l_off = ceil_div(n, R->leaders.late_units_per_officer);
	early_ok = off == e_off && gen == R->leaders.early_generals;
	late_ok = off == l_off && gen == R->leaders.late_generals;
	if (s->year != 0 && s->year < R->leaders.republican_split_year) {
		if (early_ok)
			return 0;
		crown_diag_add(d, s->file, sd->line, sd->col, "R10.1",
		    "side '%s' (republican, %d) has %d unit%s, %d officer%s "
		    "and %d general%s: it needs %d general%s for the first "
		    "%d units and %d officer%s (one per %d more)", sd->id,
		    s->year, n, n == 1 ? "" : "s", off, off == 1 ? "" : "s",
		    gen, gen == 1 ? "" : "s", R->leaders.early_generals,
		    R->leaders.early_generals == 1 ? "" : "s",
		    R->leaders.early_general_units, e_off,
		    e_off == 1 ? "" : "s", R->leaders.early_units_per_officer);
		return 1;
	}
	if (s->year != 0) {
		if (late_ok)
			return 0;
		crown_diag_add(d, s->file, sd->line, sd->col, "R10.1",
		    "side '%s' (republican, %d) has %d unit%s, %d officer%s "
		    "and %d general%s: it needs %d officer%s (one per %d "
		    "units) and %d general%s", sd->id, s->year, n,
		    n == 1 ? "" : "s", off, off == 1 ? "" : "s", gen,
		    gen == 1 ? "" : "s", l_off, l_off == 1 ? "" : "s",
		    R->leaders.late_units_per_officer,
		    R->leaders.late_generals,
		    R->leaders.late_generals == 1 ? "" : "s");
		return 1;
	}
	if (early_ok || late_ok)
		return 0;
	crown_diag_add(d, s->file, sd->line, sd->col, "R10.1",
	    "side '%s' (republican, year unknown) has %d unit%s, %d "
	    "officer%s and %d general%s: it needs %d officer%s and %d "
	    "general%s (before %d) or %d officer%s and %d general%s (from "
	    "%d)", sd->id, n, n == 1 ? "" : "s", off, off == 1 ? "" : "s",
	    gen, gen == 1 ? "" : "s", e_off, e_off == 1 ? "" : "s",
	    R->leaders.early_generals,
	    R->leaders.early_generals == 1 ? "" : "s",
	    R->leaders.republican_split_year, l_off, l_off == 1 ? "" : "s",
	    R->leaders.late_generals,
	    R->leaders.late_generals == 1 ? "" : "s",
	    R->leaders.republican_split_year);
	return 1;
}

int
crown_leaders_validate(const struct crown_state *s,
    const struct crown_rules *R, struct crown_diags *d)
{
	size_t	i;
	int	bad = 0;

	if (crown_orders_validate_state(s, d) != 0)
		bad = 1;	/* R3.2 */
	for (i = 0; i < s->nleaders; i++) {
		const struct crown_leader *ld = &s->leaders[i];

		if (ld->bonus < R->leader_bonus_min ||
		    ld->bonus > R->leader_bonus_max) {
			crown_diag_add(d, s->file, ld->line, ld->col, "R10.2",
			    "leader '%s' has a bonus of %+d; a scenario may "
			    "give from %+d to %+d", ld->id, ld->bonus,
			    R->leader_bonus_min, R->leader_bonus_max);
			bad = 1;
		}
	}
	for (i = 0; i < s->nsides; i++) {
		const struct crown_side *sd = &s->sides[i];

		if (sd->army == CROWN_ARMY_IMPERIAL)
			bad |= check_imperial(s, R, sd, d);
		else if (sd->army == CROWN_ARMY_REPUBLICAN)
			bad |= check_republican(s, R, sd, d);
	}
	return bad ? CROWN_EINVALID : 0;
}

int
crown_scenario_validate(const struct crown_state *s,
    const struct crown_rules *rules, struct crown_diags *d)
{
	const struct crown_unit	*u;
	size_t			 i, k;
	int			 bad = 0, lo, hi;

	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		if (u->status == CROWN_LOST)
			continue;
		if (crown_is_artillery(u->type) || u->type == CROWN_WAGON) {
			/* R1.1: each gun with its crew is one unit, one
			 * stand (R1.2); a wagon is one model */
			if (u->nstands != 1) {
				crown_diag_add(d, s->file, u->line, u->col,
				    "R1.1", "%s '%s' is one stand, not %zu",
				    crown_utype_names[u->type], u->id,
				    u->nstands);
				bad = 1;
			}
			continue;
		}
		lo = rules->org.stands_min;
		hi = rules->org.stands_max;
		if ((int)u->nstands < lo || (int)u->nstands > hi) {
			crown_diag_add(d, s->file, u->line, u->col, "R1.1",
			    "unit '%s' has %zu stands; a unit has %d to %d",
			    u->id, u->nstands, lo, hi);
			bad = 1;
		}
		lo = rules->org.figures_min;
		hi = rules->org.figures_max;
		for (k = 0; k < u->nstands; k++)
			if (u->stands[k] < lo || u->stands[k] > hi) {
				crown_diag_add(d, s->file, u->line, u->col,
				    "R1.1", "stand %zu of unit '%s' has %d "
				    "figures; a stand has %d to %d", k + 1,
				    u->id, u->stands[k], lo, hi);
				bad = 1;
			}
	}
	/* R11.1: a building's class is one the rules have */
	for (i = 0; i < s->nterrain; i++)
		if (s->terrain[i].type == CROWN_BUILDING &&
		    s->terrain[i].bclass > rules->nbuilding_class) {
			crown_diag_add(d, s->file, s->terrain[i].line,
			    s->terrain[i].col, "R11.1", "building '%s' is of "
			    "class %d; the rules have classes 1 to %d",
			    s->terrain[i].id, s->terrain[i].bclass,
			    rules->nbuilding_class);
			bad = 1;
		}
	if (crown_leaders_validate(s, rules, d) != 0)
		bad = 1;
	if (crown_state_check_overlaps(s, rules, d) != 0)
		bad = 1;		/* R4.7 */
	return bad ? CROWN_EINVALID : 0;
}
