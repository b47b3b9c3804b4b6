/*
 * buildings.c: buildings (R11): their class, cover, capacity and the
 * damage guns do to them.
 *
 * A building's cover is not stored: it follows from its class and its
 * `damage` (R11.2 casualties so far).  Every rules->building[class -
 * 1].casualties of damage take it one step down, hard -> soft -> open, so
 * a class 2 house (hard, 8) is soft from 8 damage and open from 16, and a
 * class 5 hut (soft, 2) is open from 2.
 */
#include <stdlib.h>
#include <string.h>

#include "crown/buildings.h"
#include "crown/common.h"
#include "crown/xalloc.h"

static bool	classified(const struct crown_rules *,
		    const struct crown_feature *);
static bool	storming(const struct crown_state *,
		    const struct crown_rules *, const struct crown_feature *,
		    const struct crown_unit *);

static bool
classified(const struct crown_rules *rules, const struct crown_feature *f)
{
	return f->type == CROWN_BUILDING && f->bclass >= 1 &&
	    f->bclass <= rules->nbuilding_class;
}

/*
 * u attacks, in a melee, a unit whose centre is in building f: a charger
 * that reached the holders fights its way in, and the cover stays theirs
 * (R11.1, R5.5), wherever the charger stands in the state's order.
 */
static bool
storming(const struct crown_state *s, const struct crown_rules *rules,
    const struct crown_feature *f, const struct crown_unit *u)
{
	const struct crown_melee	*m;
	const struct crown_unit		*v;
	size_t				 j;
	int				 side;

	if ((m = crown_state_melee(s, u, &side)) == NULL || side != 0)
		return false;
	for (j = 0; j < m->ndefenders; j++)
		if ((v = crown_state_unit(s, m->defenders[j])) != NULL &&
		    crown_building_contains(rules, f, v))
			return true;
	return false;
}

enum crown_cover
crown_building_cover(const struct crown_rules *rules,
    const struct crown_feature *f)
{
	int	cover, per, steps;

	if (!classified(rules, f))
		return CROWN_COVER_NONE;
	cover = (int)rules->building[f->bclass - 1].cover;
	per = rules->building[f->bclass - 1].casualties;
	steps = per > 0 && f->damage > 0 ? f->damage / per : 0;
	cover -= steps;
	return cover > (int)CROWN_COVER_NONE ? (enum crown_cover)cover :
	    CROWN_COVER_NONE;
}

int
crown_building_capacity(const struct crown_rules *rules,
    const struct crown_feature *f)
{
	return classified(rules, f) ?
	    rules->building[f->bclass - 1].capacity : 0;
}

bool
crown_building_contains(const struct crown_rules *rules,
    const struct crown_feature *f, const struct crown_unit *u)
{
	struct crown_quad	q;

	if (f->type != CROWN_BUILDING || f->npts == 0 ||
	    u->status == CROWN_LOST || u->nstands == 0)
		return false;
	crown_unit_footprint(&q, rules, u);
	return crown_geom_point_in_poly(crown_geom_quad_centre(&q), f->pts,
	    f->npts);
}

bool
crown_building_shelters(const struct crown_state *s,
    const struct crown_rules *rules, const struct crown_feature *f,
    const struct crown_unit *u)
{
	int	cap, stands = 0;
	size_t	i;

	if (!crown_building_contains(rules, f, u) || storming(s, rules, f, u))
		return false;
	cap = crown_building_capacity(rules, f);
	/* R11.1: those who came first (in state order) have the rooms */
	for (i = 0; i < s->nunits; i++) {
		if (!crown_building_contains(rules, f, &s->units[i]) ||
		    storming(s, rules, f, &s->units[i]))
			continue;
		stands += crown_unit_stands(&s->units[i]);
		if (&s->units[i] == u)
			break;
	}
	return stands <= cap;
}

bool
crown_building_damage(const struct crown_rules *rules,
    struct crown_feature *f)
{
	enum crown_cover	before;

	before = crown_building_cover(rules, f);
	f->damage++;
	return crown_building_cover(rules, f) != before;
}

int
crown_building_classify(struct crown_state *s,
    const struct crown_rules *rules, struct crown_dice *dice,
    struct crown_events *ev)
{
	struct crown_roll_key	 key;
	struct crown_feature	*f;
	struct crown_event	*e;
	size_t			 i, ev_i, di;
	int			 face, cls;

	for (i = 0; i < s->nterrain; i++) {
		f = &s->terrain[i];
		if (f->type != CROWN_BUILDING || f->bclass != 0)
			continue;
		/* R11.3: one D6 read on the average die */
		memset(&key, 0, sizeof(key));
		key.turn = 0;
		key.half = 0;
		key.who = f->id;
		key.purpose = "building_class";
		/* an index into the die's faces, whatever its sides
		 * read elsewhere: 1..6 */
		if (crown_dice_roll(dice, &key,
		    (int)CROWN_NELEM(rules->average_die), 1, &face) != 0)
			return CROWN_EINVALID;
		if (face < 1 || face > (int)CROWN_NELEM(rules->average_die))
			return CROWN_EINVALID;
		cls = rules->average_die[face - 1];
		if (cls < 1 || cls > rules->nbuilding_class)
			return CROWN_EINVALID;
		f->bclass = cls;
		if (ev == NULL)
			continue;
		ev_i = crown_events_add(ev, s->turn, s->attacker != NULL ?
		    s->attacker : "", CROWN_PHASE_ACTIONS, "building_class",
		    NULL, "R11.3");
		e = crown_events_at(ev, ev_i);
		e->target = xstrdup(f->id);
		di = crown_event_die(e, (int)CROWN_NELEM(rules->average_die),
		    face, "building_class");
		e->dice[di].who = xstrdup(f->id);
		crown_event_set(&e->result, "class_%d", cls);
		crown_event_set(&e->text, "The class of %s was in doubt: the "
		    "average die came up %d (rolled %d on a D6), so it is a "
		    "class %d building with %s cover for %d stands.",
		    f->name != NULL ? f->name : f->id, cls, face, cls,
		    crown_cover_words[rules->building[cls - 1].cover],
		    rules->building[cls - 1].capacity);
	}
	return 0;
}
