/*
 * testsettle.h: the check that crown verify may go on from a turn's state
 * in memory (crown_state_settle) instead of parsing what it wrote: a
 * state the engine made, settled, is field for field what the reader
 * makes of its written form.  Every field is compared but where it was
 * read (line, column), which only diagnostics quote, and the indices,
 * which follow from the units.
 */
#ifndef CROWN_TESTSETTLE_H
#define CROWN_TESTSETTLE_H

#include "testutil.h"

#include "crown/state.h"

#define TS_FILE	"turn:state.yaml"

/* a field of the settled state, then of the parsed */
#define TS_INT(what, f, a, b) do {					\
	if ((long long)(a) != (long long)(b)) {				\
		print_error("%s: %s: settled %lld, read %lld\n", what,	\
		    f, (long long)(a), (long long)(b));			\
		return false;						\
	}								\
} while (0)
#define TS_NUM(what, f, a, b) do {					\
	if (memcmp(&(a), &(b), sizeof(double)) != 0) {			\
		print_error("%s: %s: settled %.17g, read %.17g\n",	\
		    what, f, (a), (b));					\
		return false;						\
	}								\
} while (0)
#define TS_STR(what, f, a, b) do {					\
	if (((a) == NULL) != ((b) == NULL) ||				\
	    ((a) != NULL && strcmp((a), (b)) != 0)) {			\
		print_error("%s: %s: settled '%s', read '%s'\n", what,	\
		    f, (a) ? (a) : "(none)", (b) ? (b) : "(none)");	\
		return false;						\
	}								\
} while (0)

static inline bool
ts_person(const char *what, const struct crown_person *a,
    const struct crown_person *b)
{
	TS_STR(what, "person name", a->name, b->name);
	TS_STR(what, "person email", a->email, b->email);
	TS_STR(what, "person password", a->password_sha256,
	    b->password_sha256);
	return true;
}

static inline bool
ts_same(const char *what, const struct crown_state *a,
    const struct crown_state *b)
{
	size_t	i, j;

	TS_STR(what, "name", a->name, b->name);
	TS_STR(what, "rules", a->rules, b->rules);
	TS_INT(what, "turn", a->turn, b->turn);
	TS_STR(what, "attacker", a->attacker, b->attacker);
	TS_INT(what, "last_turn", a->last_turn, b->last_turn);
	TS_INT(what, "allow_elite", a->allow_elite, b->allow_elite);
	TS_INT(what, "year", a->year, b->year);
	if (!ts_person(what, &a->umpire, &b->umpire))
		return false;
	TS_STR(what, "dice_commitment", a->dice_commitment,
	    b->dice_commitment);
	TS_STR(what, "deadline", a->deadline, b->deadline);
	TS_STR(what, "deadline_every", a->deadline_every, b->deadline_every);
	TS_NUM(what, "width", a->width, b->width);
	TS_NUM(what, "height", a->height, b->height);
	TS_STR(what, "file", a->file, b->file);
	TS_INT(what, "sides", a->nsides, b->nsides);
	for (i = 0; i < a->nsides; i++) {
		const struct crown_side *x = &a->sides[i], *y = &b->sides[i];

		TS_STR(what, "side id", x->id, y->id);
		TS_STR(what, "side name", x->name, y->name);
		TS_INT(what, "side home_edge", x->home_edge, y->home_edge);
		TS_INT(what, "side army", x->army, y->army);
		TS_INT(what, "side players", x->nplayers, y->nplayers);
		for (j = 0; j < x->nplayers; j++)
			if (!ts_person(what, &x->players[j], &y->players[j]))
				return false;
	}
	TS_INT(what, "terrain", a->nterrain, b->nterrain);
	for (i = 0; i < a->nterrain; i++) {
		const struct crown_feature *x = &a->terrain[i];
		const struct crown_feature *y = &b->terrain[i];

		TS_STR(what, "feature id", x->id, y->id);
		TS_STR(what, "feature name", x->name, y->name);
		TS_INT(what, "feature type", x->type, y->type);
		TS_INT(what, "feature is_path", x->is_path, y->is_path);
		TS_NUM(what, "feature width", x->width, y->width);
		TS_INT(what, "feature class", x->bclass, y->bclass);
		TS_INT(what, "feature damage", x->damage, y->damage);
		TS_INT(what, "feature points", x->npts, y->npts);
		for (j = 0; j < x->npts; j++) {
			TS_NUM(what, "feature x", x->pts[j].x, y->pts[j].x);
			TS_NUM(what, "feature y", x->pts[j].y, y->pts[j].y);
		}
	}
	TS_INT(what, "units", a->nunits, b->nunits);
	for (i = 0; i < a->nunits; i++) {
		const struct crown_unit *x = &a->units[i], *y = &b->units[i];

		TS_STR(what, "unit id", x->id, y->id);
		TS_STR(what, "unit name", x->name, y->name);
		TS_STR(what, "unit side", x->side, y->side);
		TS_INT(what, "unit type", x->type, y->type);
		TS_INT(what, "unit gun", x->gun, y->gun);
		TS_INT(what, "unit class", x->cls, y->cls);
		TS_INT(what, "unit weapon", x->weapon, y->weapon);
		TS_INT(what, "unit stands", x->nstands, y->nstands);
		for (j = 0; j < x->nstands; j++)
			TS_INT(what, "unit stand", x->stands[j], y->stands[j]);
		TS_INT(what, "unit start_figures", x->start_figures,
		    y->start_figures);
		TS_INT(what, "unit start_stands", x->start_stands,
		    y->start_stands);
		TS_NUM(what, "unit x", x->x, y->x);
		TS_NUM(what, "unit y", x->y, y->y);
		TS_INT(what, "unit facing", x->facing, y->facing);
		TS_INT(what, "unit formation", x->formation, y->formation);
		TS_INT(what, "unit loaded", x->loaded, y->loaded);
		TS_INT(what, "unit shots_fired", x->shots_fired,
		    y->shots_fired);
		TS_INT(what, "unit limbered", x->limbered, y->limbered);
		TS_INT(what, "unit disordered", x->disordered, y->disordered);
		TS_INT(what, "unit status", x->status, y->status);
		TS_INT(what, "unit routs", x->routs, y->routs);
		TS_INT(what, "unit rally_failures", x->rally_failures,
		    y->rally_failures);
		TS_INT(what, "unit rallied", x->rallied, y->rallied);
		TS_INT(what, "unit stuck", x->stuck, y->stuck);
		TS_INT(what, "unit holding", x->holding, y->holding);
		TS_INT(what, "unit rout_halves", x->rout_halves,
		    y->rout_halves);
		TS_INT(what, "unit skip_next", x->skip_next, y->skip_next);
		TS_INT(what, "unit crew_replaced", x->crew_replaced,
		    y->crew_replaced);
		TS_INT(what, "unit abandoned", x->abandoned, y->abandoned);
	}
	TS_INT(what, "leaders", a->nleaders, b->nleaders);
	for (i = 0; i < a->nleaders; i++) {
		const struct crown_leader *x = &a->leaders[i];
		const struct crown_leader *y = &b->leaders[i];

		TS_STR(what, "leader id", x->id, y->id);
		TS_STR(what, "leader name", x->name, y->name);
		TS_STR(what, "leader side", x->side, y->side);
		TS_INT(what, "leader rank", x->rank, y->rank);
		TS_INT(what, "leader bonus", x->bonus, y->bonus);
		TS_STR(what, "leader attached", x->attached, y->attached);
		TS_NUM(what, "leader x", x->x, y->x);
		TS_NUM(what, "leader y", x->y, y->y);
		TS_INT(what, "leader figures", x->figures, y->figures);
		TS_INT(what, "leader status", x->status, y->status);
	}
	TS_INT(what, "melees", a->nmelees, b->nmelees);
	for (i = 0; i < a->nmelees; i++) {
		const struct crown_melee *x = &a->melees[i];
		const struct crown_melee *y = &b->melees[i];

		TS_INT(what, "melee attackers", x->nattackers, y->nattackers);
		for (j = 0; j < x->nattackers; j++)
			TS_STR(what, "melee attacker", x->attackers[j],
			    y->attackers[j]);
		TS_INT(what, "melee defenders", x->ndefenders, y->ndefenders);
		for (j = 0; j < x->ndefenders; j++)
			TS_STR(what, "melee defender", x->defenders[j],
			    y->defenders[j]);
		TS_INT(what, "melee rounds", x->rounds, y->rounds);
		TS_INT(what, "melee attacker_losses", x->attacker_losses,
		    y->attacker_losses);
		TS_INT(what, "melee defender_losses", x->defender_losses,
		    y->defender_losses);
		TS_INT(what, "melee attack", x->attack, y->attack);
	}
	return true;
}

/*
 * Assert that `after`, a state the engine made, settles to what the
 * reader makes of its written form; or, when it cannot settle, that the
 * reader refuses that form.  Returns whether it settled.
 */
static inline bool
tu_assert_settles(const struct crown_state *after, const char *what)
{
	struct crown_state	*settled, *read = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	bool			 ok;

	assert_int_equal(crown_state_emit(&b, after), 0);
	settled = crown_state_clone(after);
	ok = crown_state_settle(settled, TS_FILE);
	if (crown_state_parse(&read, TS_FILE, b.data, b.len, &d) != 0) {
		if (ok) {
			char *all = tu_diags(&d);

			print_error("%s: settled, but its state.yaml is "
			    "refused:\n%s", what, all);
			free(all);
			fail();
		}
	} else if (!ok) {
		print_error("%s: not settled, but its state.yaml reads\n",
		    what);
		fail();
	} else if (!ts_same(what, settled, read))
		fail();
	crown_state_free(read);
	crown_state_free(settled);
	crown_diags_release(&d);
	crown_buf_release(&b);
	return ok;
}

#endif
