/*
 * melees.c: the bookkeeping of state->melees (R9.5-R9.8): a charger
 * joining a melee, a unit leaving, a melee that has no one left on a side
 * ending (which melee a unit is in: crown_state_melee, state.c).  Below the rule modules: charges, morale,
 * routs and the melee phase all keep the list through these.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/context.h"
#include "crown/melees.h"
#include "crown/xalloc.h"

static void	remove_id(char **ids, size_t *n, size_t i);

static void
remove_id(char **ids, size_t *n, size_t i)
{
	free(ids[i]);
	memmove(&ids[i], &ids[i + 1], (*n - i - 1) * sizeof(*ids));
	(*n)--;
}

void
crown_melee_remove(struct crown_state *s, size_t i)
{
	struct crown_melee	*m = &s->melees[i];
	size_t			 j;

	for (j = 0; j < m->nattackers; j++)
		free(m->attackers[j]);
	free(m->attackers);
	for (j = 0; j < m->ndefenders; j++)
		free(m->defenders[j]);
	free(m->defenders);
	memmove(&s->melees[i], &s->melees[i + 1],
	    (s->nmelees - i - 1) * sizeof(*s->melees));
	s->nmelees--;
}

void
crown_melee_join(struct crown_engine *e, struct crown_unit *a,
    struct crown_unit *d, enum crown_attack attack)
{
	struct crown_state	*s = e->s;
	struct crown_melee	*m;
	char			***ids;
	size_t			 *n;
	int			  side;

	if ((m = crown_state_melee(s, d, &side)) != NULL) {
		/* R9.7: on the side opposite its target */
		ids = side == 1 ? &m->attackers : &m->defenders;
		n = side == 1 ? &m->nattackers : &m->ndefenders;
		*ids = xreallocarray(*ids, *n + 1, sizeof(**ids));
		(*ids)[(*n)++] = xstrdup(a->id);
		return;
	}
	s->melees = xreallocarray(s->melees, s->nmelees + 1,
	    sizeof(*s->melees));
	m = &s->melees[s->nmelees++];
	memset(m, 0, sizeof(*m));
	m->attackers = xcalloc(1, sizeof(*m->attackers));
	m->attackers[m->nattackers++] = xstrdup(a->id);
	m->defenders = xcalloc(1, sizeof(*m->defenders));
	m->defenders[m->ndefenders++] = xstrdup(d->id);
	m->attack = attack;
}

/* Routing and lost units leave; a melee without one side ends. */
void
crown_melee_prune(struct crown_engine *e, size_t mi)
{
	struct crown_melee	*m = &e->s->melees[mi];
	struct crown_unit	*u;
	size_t			 j, ev_i;
	char			*left;

	for (j = m->nattackers; j-- > 0;) {
		u = crown_state_unit(e->s, m->attackers[j]);
		if (u == NULL || u->status != CROWN_OK_STATUS)
			remove_id(m->attackers, &m->nattackers, j);
	}
	for (j = m->ndefenders; j-- > 0;) {
		u = crown_state_unit(e->s, m->defenders[j]);
		if (u == NULL || u->status != CROWN_OK_STATUS)
			remove_id(m->defenders, &m->ndefenders, j);
	}
	if (m->nattackers > 0 && m->ndefenders > 0)
		return;
	left = m->nattackers > 0 ? m->attackers[0] : m->ndefenders > 0 ?
	    m->defenders[0] : NULL;
	ev_i = crown_engine_event(e, "melee_end", left, "R9.8");
	u = left != NULL ? crown_state_unit(e->s, left) : NULL;
	crown_event_set(&crown_events_at(e->ev, ev_i)->result, "ended");
	crown_event_set(&crown_events_at(e->ev, ev_i)->text, "The melee is "
	    "over%s%s%s.", u != NULL ? ": " : "", u != NULL ? u->name : "",
	    u != NULL ? " has no one left to fight" : "");
	crown_melee_remove(e->s, mi);
}

void
crown_melee_leave(struct crown_engine *e, const struct crown_unit *u)
{
	struct crown_melee	*m;
	size_t			 i, j;
	bool			 found;

	for (i = e->s->nmelees; i-- > 0;) {
		m = &e->s->melees[i];
		found = false;
		for (j = m->nattackers; j-- > 0;)
			if (strcmp(m->attackers[j], u->id) == 0) {
				remove_id(m->attackers, &m->nattackers, j);
				found = true;
			}
		for (j = m->ndefenders; j-- > 0;)
			if (strcmp(m->defenders[j], u->id) == 0) {
				remove_id(m->defenders, &m->ndefenders, j);
				found = true;
			}
		if (found)
			crown_melee_prune(e, i);
	}
}
