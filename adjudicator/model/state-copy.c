/*
 * state-copy.c: a state copied whole (crown_state_clone); state.c reads
 * and frees one.
 */
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/state.h"
#include "crown/xalloc.h"

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void *
dup_mem(const void *p, size_t n, size_t sz)
{
	void	*q;

	q = xreallocarray(NULL, n ? n : 1, sz);
	if (n > 0)
		memcpy(q, p, n * sz);
	return q;
}

static char **
dup_ids(char **ids, size_t n)
{
	char	**v;
	size_t	  i;

	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = xstrdup(ids[i]);
	return v;
}

static void
dup_person(struct crown_person *to, const struct crown_person *from)
{
	to->name = dup_or_null(from->name);
	to->email = dup_or_null(from->email);
	to->password_sha256 = dup_or_null(from->password_sha256);
	to->openpgp = dup_or_null(from->openpgp);
	to->away_until = dup_or_null(from->away_until);
}

struct crown_state *
crown_state_clone(const struct crown_state *s)
{
	struct crown_state	*c;
	size_t			 i, j;

	c = xcalloc(1, sizeof(*c));
	*c = *s;
	c->name = dup_or_null(s->name);
	c->rules = dup_or_null(s->rules);
	c->attacker = dup_or_null(s->attacker);
	dup_person(&c->umpire, &s->umpire);
	c->dice_commitment = dup_or_null(s->dice_commitment);
	c->dice_chain_commitment = dup_or_null(s->dice_chain_commitment);
	c->deadline = dup_or_null(s->deadline);
	c->deadline_every = dup_or_null(s->deadline_every);
	c->max_absence = dup_or_null(s->max_absence);
	c->file = dup_or_null(s->file);
	c->sides = dup_mem(s->sides, s->nsides, sizeof(*s->sides));
	for (i = 0; i < s->nsides; i++) {
		struct crown_side *sd = &c->sides[i];

		sd->id = xstrdup(s->sides[i].id);
		sd->name = xstrdup(s->sides[i].name);
		sd->players = dup_mem(s->sides[i].players, sd->nplayers,
		    sizeof(*sd->players));
		for (j = 0; j < sd->nplayers; j++)
			dup_person(&sd->players[j], &s->sides[i].players[j]);
	}
	c->terrain = dup_mem(s->terrain, s->nterrain, sizeof(*s->terrain));
	for (i = 0; i < s->nterrain; i++) {
		c->terrain[i].id = xstrdup(s->terrain[i].id);
		c->terrain[i].name = dup_or_null(s->terrain[i].name);
		c->terrain[i].pts = dup_mem(s->terrain[i].pts,
		    s->terrain[i].npts, sizeof(*s->terrain[i].pts));
	}
	c->units = dup_mem(s->units, s->nunits, sizeof(*s->units));
	for (i = 0; i < s->nunits; i++) {
		c->units[i].id = xstrdup(s->units[i].id);
		c->units[i].name = xstrdup(s->units[i].name);
		c->units[i].side = xstrdup(s->units[i].side);
		c->units[i].stands = dup_mem(s->units[i].stands,
		    s->units[i].nstands, sizeof(int));
	}
	c->leaders = dup_mem(s->leaders, s->nleaders, sizeof(*s->leaders));
	for (i = 0; i < s->nleaders; i++) {
		c->leaders[i].id = xstrdup(s->leaders[i].id);
		c->leaders[i].name = xstrdup(s->leaders[i].name);
		c->leaders[i].side = xstrdup(s->leaders[i].side);
		c->leaders[i].attached = dup_or_null(s->leaders[i].attached);
	}
	c->melees = dup_mem(s->melees, s->nmelees, sizeof(*s->melees));
	for (i = 0; i < s->nmelees; i++) {
		c->melees[i].attackers = dup_ids(s->melees[i].attackers,
		    s->melees[i].nattackers);
		c->melees[i].defenders = dup_ids(s->melees[i].defenders,
		    s->melees[i].ndefenders);
	}
	c->unit_order = NULL;
	c->unit_slots = NULL;
	crown_state_index(c);
	return c;
}
