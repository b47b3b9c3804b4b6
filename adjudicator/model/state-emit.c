/*
 * state-emit.c: writing the state of a game (FORMATS.md "State and
 * scenario").
 *
 * Writing goes through libyaml's emitter (io/yemit.c) in a fixed order with
 * positions to 2 decimals, so that load(write(s)) == s and
 * write(load(write(s))) is byte-identical; reading is state.c's.
 */
#include "crown/common.h"
#include "crown/state.h"
#include "crown/types.h"
#include "crown/yaml.h"

static void
emit_points(struct crown_yemit *e, const char *key,
    const struct crown_point *p, size_t n)
{
	size_t	i;

	crown_yemit_str(e, key);
	crown_yemit_seq(e, true);
	for (i = 0; i < n; i++) {
		crown_yemit_seq(e, true);
		crown_yemit_num2(e, p[i].x);
		crown_yemit_num2(e, p[i].y);
		crown_yemit_end(e);
	}
	crown_yemit_end(e);
}

static void
emit_ids(struct crown_yemit *e, const char *key, char **ids, size_t n)
{
	size_t	i;

	crown_yemit_str(e, key);
	crown_yemit_seq(e, true);
	for (i = 0; i < n; i++)
		crown_yemit_str(e, ids[i]);
	crown_yemit_end(e);
}

static void
emit_unit(struct crown_yemit *e, const struct crown_unit *u)
{
	size_t	i;

	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "id", u->id);
	crown_yemit_kstr(e, "name", u->name);
	crown_yemit_kstr(e, "side", u->side);
	crown_yemit_kstr(e, "type", crown_utype_names[u->type]);
	if (crown_is_artillery(u->type))
		crown_yemit_kstr(e, "gun", crown_gun_names[u->gun]);
	crown_yemit_kstr(e, "class", crown_class_names[u->cls]);
	crown_yemit_kstr(e, "weapon", crown_weapon_names[u->weapon]);
	crown_yemit_str(e, "stands");
	crown_yemit_seq(e, true);
	for (i = 0; i < u->nstands; i++)
		crown_yemit_int(e, u->stands[i]);
	crown_yemit_end(e);
	crown_yemit_kint(e, "start_figures", u->start_figures);
	crown_yemit_kint(e, "start_stands", u->start_stands);
	crown_yemit_knum2(e, "x", u->x);
	crown_yemit_knum2(e, "y", u->y);
	crown_yemit_kint(e, "facing", u->facing);
	crown_yemit_kstr(e, "formation", crown_formation_names[u->formation]);
	crown_yemit_kbool(e, "loaded", u->loaded);
	crown_yemit_kint(e, "shots_fired", u->shots_fired);
	crown_yemit_kbool(e, "limbered", u->limbered);
	crown_yemit_kbool(e, "disordered", u->disordered);
	crown_yemit_kstr(e, "status", crown_status_names[u->status]);
	crown_yemit_kint(e, "routs", u->routs);
	crown_yemit_kint(e, "rally_failures", u->rally_failures);
	crown_yemit_kbool(e, "rallied", u->rallied);
	crown_yemit_kbool(e, "stuck", u->stuck);
	if (u->holding)
		crown_yemit_kbool(e, "holding", true);
	if (u->rout_halves != 0)
		crown_yemit_kint(e, "rout_halves", u->rout_halves);
	if (u->skip_next)
		crown_yemit_kbool(e, "skip_next", true);
	if (u->crew_replaced != 0)
		crown_yemit_kint(e, "crew_replaced", u->crew_replaced);
	if (u->abandoned)
		crown_yemit_kbool(e, "abandoned", true);
	crown_yemit_end(e);
}

/* The umpire or a player: a flow map of what is known of them. */
static void
emit_person(struct crown_yemit *e, const struct crown_person *p)
{
	crown_yemit_map(e, true);
	if (p->name != NULL)
		crown_yemit_kstr(e, "name", p->name);
	if (p->email != NULL)
		crown_yemit_kstr(e, "email", p->email);
	if (p->password_sha256 != NULL)
		crown_yemit_kstr(e, "password_sha256", p->password_sha256);
	if (p->openpgp != NULL)
		crown_yemit_kstr(e, "openpgp", p->openpgp);
	if (p->away_until != NULL)
		crown_yemit_kstr(e, "away_until", p->away_until);
	crown_yemit_end(e);
}

static void
emit_game(struct crown_yemit *e, const struct crown_state *s)
{
	crown_yemit_str(e, "game");
	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "name", s->name);
	crown_yemit_kstr(e, "rules", s->rules);
	crown_yemit_kint(e, "turn", s->turn);
	crown_yemit_kstr(e, "attacker", s->attacker);
	if (s->last_turn != 0)
		crown_yemit_kint(e, "last_turn", s->last_turn);
	crown_yemit_kbool(e, "allow_elite", s->allow_elite);
	if (s->year != 0)
		crown_yemit_kint(e, "year", s->year);
	if (s->umpire.name != NULL || s->umpire.email != NULL ||
	    s->umpire.openpgp != NULL) {
		crown_yemit_str(e, "umpire");
		emit_person(e, &s->umpire);
	}
	if (s->dice_commitment != NULL)
		crown_yemit_kstr(e, "dice_commitment", s->dice_commitment);
	if (s->dice_chain_commitment != NULL) {
		crown_yemit_str(e, "dice_chain");
		crown_yemit_map(e, true);
		crown_yemit_kint(e, "from_turn", s->dice_chain_from);
		crown_yemit_kstr(e, "commitment", s->dice_chain_commitment);
		crown_yemit_end(e);
	}
	if (s->deadline != NULL)
		crown_yemit_kstr(e, "deadline", s->deadline);
	if (s->deadline_every != NULL)
		crown_yemit_kstr(e, "deadline_every", s->deadline_every);
	if (s->absence != CROWN_ABSENCE_DEFAULT)
		crown_yemit_kstr(e, "absence",
		    crown_absence_names[s->absence]);
	if (s->max_absence != NULL)
		crown_yemit_kstr(e, "max_absence", s->max_absence);
	if (s->missed_limit > 0) {
		crown_yemit_str(e, "missed_orders");
		crown_yemit_map(e, true);
		crown_yemit_kint(e, "limit", s->missed_limit);
		crown_yemit_end(e);
	}
	crown_yemit_end(e);
}

static void
emit_table(struct crown_yemit *e, const struct crown_state *s)
{
	crown_yemit_str(e, "table");
	crown_yemit_map(e, true);
	crown_yemit_knum2(e, "width", s->width);
	crown_yemit_knum2(e, "height", s->height);
	crown_yemit_end(e);
}

static void
emit_side(struct crown_yemit *e, const struct crown_side *sd)
{
	size_t	j;

	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "id", sd->id);
	crown_yemit_kstr(e, "name", sd->name);
	crown_yemit_kstr(e, "home_edge", crown_edge_names[sd->home_edge]);
	if (sd->army != CROWN_ARMY_UNKNOWN)
		crown_yemit_kstr(e, "army", crown_army_names[sd->army]);
	crown_yemit_str(e, "players");
	crown_yemit_seq(e, false);
	for (j = 0; j < sd->nplayers; j++)
		emit_person(e, &sd->players[j]);
	crown_yemit_end(e);
	crown_yemit_end(e);
}

static void
emit_feature(struct crown_yemit *e, const struct crown_feature *f)
{
	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "id", f->id);
	if (f->name != NULL)
		crown_yemit_kstr(e, "name", f->name);
	crown_yemit_kstr(e, "type", crown_terrain_names[f->type]);
	emit_points(e, f->is_path ? "path" : "polygon", f->pts, f->npts);
	if (f->type == CROWN_ROAD)
		crown_yemit_knum2(e, "width", f->width);
	if (f->type == CROWN_BUILDING && f->bclass != 0)
		crown_yemit_kint(e, "class", f->bclass);
	if (f->type == CROWN_BUILDING && f->damage != 0)
		crown_yemit_kint(e, "damage", f->damage);
	crown_yemit_end(e);
}

static void
emit_leader(struct crown_yemit *e, const struct crown_leader *ld)
{
	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "id", ld->id);
	crown_yemit_kstr(e, "name", ld->name);
	crown_yemit_kstr(e, "side", ld->side);
	crown_yemit_kstr(e, "rank", crown_rank_names[ld->rank]);
	crown_yemit_kint(e, "bonus", ld->bonus);
	if (ld->figures > 1)
		crown_yemit_kint(e, "figures", ld->figures);
	if (ld->attached != NULL)
		crown_yemit_kstr(e, "attached", ld->attached);
	else {
		crown_yemit_knum2(e, "x", ld->x);
		crown_yemit_knum2(e, "y", ld->y);
	}
	crown_yemit_kstr(e, "status", crown_leader_status_names[ld->status]);
	crown_yemit_end(e);
}

static void
emit_melee(struct crown_yemit *e, const struct crown_melee *m)
{
	crown_yemit_map(e, false);
	emit_ids(e, "attackers", m->attackers, m->nattackers);
	emit_ids(e, "defenders", m->defenders, m->ndefenders);
	crown_yemit_kint(e, "rounds", m->rounds);
	crown_yemit_kstr(e, "attack", crown_attack_names[m->attack]);
	if (m->attacker_losses != 0)
		crown_yemit_kint(e, "attacker_losses", m->attacker_losses);
	if (m->defender_losses != 0)
		crown_yemit_kint(e, "defender_losses", m->defender_losses);
	crown_yemit_end(e);
}

/*
 * The top-level keys in FORMATS.md's order: the game and the table, then
 * one block sequence each of sides, terrain, units, leaders and melees.
 */
int
crown_state_emit(struct crown_buf *out, const struct crown_state *s)
{
	struct crown_yemit	*e;
	size_t			 i;
	int			 error;

	e = crown_yemit_new(out);
	crown_yemit_map(e, false);
	emit_game(e, s);
	emit_table(e, s);

	crown_yemit_str(e, "sides");
	crown_yemit_seq(e, false);
	for (i = 0; i < s->nsides; i++)
		emit_side(e, &s->sides[i]);
	crown_yemit_end(e);

	crown_yemit_str(e, "terrain");
	crown_yemit_seq(e, false);
	for (i = 0; i < s->nterrain; i++)
		emit_feature(e, &s->terrain[i]);
	crown_yemit_end(e);

	crown_yemit_str(e, "units");
	crown_yemit_seq(e, false);
	for (i = 0; i < s->nunits; i++)
		emit_unit(e, &s->units[i]);
	crown_yemit_end(e);

	crown_yemit_str(e, "leaders");
	crown_yemit_seq(e, false);
	for (i = 0; i < s->nleaders; i++)
		emit_leader(e, &s->leaders[i]);
	crown_yemit_end(e);

	crown_yemit_str(e, "melees");
	crown_yemit_seq(e, false);
	for (i = 0; i < s->nmelees; i++)
		emit_melee(e, &s->melees[i]);
	crown_yemit_end(e);

	crown_yemit_end(e);
	error = crown_yemit_finish(e);
	crown_yemit_free(e);
	return error;
}
