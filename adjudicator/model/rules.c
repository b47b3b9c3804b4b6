/*
 * rules.c: the rule book as data (R1-R13).
 *
 * Reads rules/<id>.yaml, where every table and number of RULES.md sits
 * under its R-id, into struct crown_rules.  Everything is checked: missing
 * sections and keys, unknown keys, wrong types, numbers outside sane
 * ranges, tables that do not ascend or do not cover every score.  All the
 * problems of a file are reported, each with its place and the R-id of
 * its section, before the load fails.  This file has the sections, one
 * reader each, and the file as a whole; the values they are made of
 * (YAML shapes, plain numbers, dice, bands) are read by rules-read.c.
 * The look-ups at the end (range band, artillery casualties, morale
 * result) are the only places the engine reads these tables.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/fmt.h"
#include "crown/paths.h"
#include "crown/rules-read.h"
#include "crown/rules.h"
#include "crown/types.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#ifndef CROWN_DATADIR
#define CROWN_DATADIR "/usr/local/share/crown"
#endif

static void	parse_dice_faces(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_org(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_footprint(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_classes(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_actions(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_simple(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_move(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_terrain(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_weapons(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_cover(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_guns(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_crew(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_morale_table(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_morale_mods(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_leader_counts(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_leader_bonus(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_leader_fire(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_buildings(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_average_die(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_troops(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_rulings(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);
static void	parse_half_bonus(struct crown_rules_ctx *,
		    const struct crown_ynode *, const char *);

/* Sections in file order; each is a required top-level key. */
static const struct section {
	const char	*id;
	void		(*parse)(struct crown_rules_ctx *,
			    const struct crown_ynode *, const char *);
} sections[] = {
	{ "dice", parse_dice_faces },
	{ "R1.1", parse_org },
	{ "R1.2", parse_footprint },
	{ "R3.1", parse_classes },
	{ "R3.3", parse_actions },
	{ "R3.5", parse_simple },
	{ "R3.6", parse_simple },
	{ "R3.7", parse_simple },
	{ "R4.1", parse_move },
	{ "R4.3", parse_terrain },
	{ "R4.5", parse_simple },
	{ "R4.6", parse_simple },
	{ "R4.7", parse_simple },
	{ "R5.1", parse_simple },
	{ "R5.2", parse_simple },
	{ "R5.3", parse_weapons },
	{ "R5.4", parse_simple },
	{ "R5.5", parse_cover },
	{ "R6.2", parse_guns },
	{ "R6.3", parse_simple },
	{ "R6.4", parse_crew },
	{ "R6.5", parse_simple },
	{ "R7.1", parse_simple },
	{ "R7.2", parse_morale_table },
	{ "R7.3", parse_morale_mods },
	{ "R7.5", parse_simple },
	{ "R8.3", parse_simple },
	{ "R8.4", parse_simple },
	{ "R8.5", parse_simple },
	{ "R8.6", parse_simple },
	{ "R9.1", parse_half_bonus },
	{ "R9.4", parse_simple },
	{ "R9.5", parse_simple },
	{ "R9.8", parse_simple },
	{ "R9.9", parse_simple },
	{ "R10.1", parse_leader_counts },
	{ "R10.2", parse_leader_bonus },
	{ "R10.3", parse_simple },
	{ "R10.4", parse_leader_fire },
	{ "R11.1", parse_buildings },
	{ "R11.2", parse_simple },
	{ "R11.3", parse_average_die },
	{ "R12.1", parse_troops },
	{ "R13.1", parse_rulings },
};

static const char *const weapon_bands[CROWN_NBAND] = {
	"close", "medium", "long"
};
static const char *const gun_bands[CROWN_NBAND] = {
	"canister", "effective", "long"
};
const char *const crown_cover_names[CROWN_NCOVER] = {
	"none", "soft", "hard"
};
const char *const crown_cover_words[CROWN_NCOVER] = {
	"no", "soft", "hard"
};

#define RBIT(x)	(1u << (x))
/* R7.2: the results each column may give (FORMATS.md, events). */
static const unsigned column_results[CROWN_NCOLUMN] = {
	RBIT(CROWN_R_OK) | RBIT(CROWN_R_HOLD) | RBIT(CROWN_R_HOLD_DISORDERED) |
	    RBIT(CROWN_R_RETIRE_1) | RBIT(CROWN_R_RETIRE_2) |
	    RBIT(CROWN_R_ROUT),
	RBIT(CROWN_R_FIRE_CLOSE) | RBIT(CROWN_R_FIRE_MEDIUM) |
	    RBIT(CROWN_R_FIRE_LONG) | RBIT(CROWN_R_HOLD) |
	    RBIT(CROWN_R_HOLD_DISORDERED) | RBIT(CROWN_R_ROUT),
	RBIT(CROWN_R_CHARGE) | RBIT(CROWN_R_CHARGE_HALF) |
	    RBIT(CROWN_R_CHARGE_NO_BONUS) | RBIT(CROWN_R_HOLD) |
	    RBIT(CROWN_R_HOLD_DISORDERED)
};

/*
 * The dice section (RULES.md's conventions): "D10: 0-9" is a die of ten
 * faces read 0 to 9, "D6: 1-6" one of six read 1 to 6.  Every die a rule
 * rolls must be one of these; what a die reads is data, not code.
 */
static void
parse_dice_faces(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	const struct crown_ynode *k, *v;
	size_t			  i;
	long			  sides, lo, hi;
	char			 *end;

	for (i = 0; i <= MAX_SIDES; i++)
		c->rules->die_low[i] = -1;
	if (!crown_rules_is_map(c, sec, rule, NULL))
		return;
	if (sec->n == 0)
		crown_yerror(&c->r, sec, NULL, "'dice' must list the dice of "
		    "the game, like D10: \"0-9\"");
	for (i = 0; i < sec->n; i++) {
		k = sec->key[i];
		v = sec->item[i];
		errno = 0;
		sides = k->str[0] == 'D' && isdigit((unsigned char)k->str[1]) ?
		    strtol(k->str + 1, &end, 10) : -1;
		if (sides < 2 || sides > MAX_SIDES || *end != '\0' ||
		    errno != 0) {
			crown_yerror(&c->r, k, NULL, "a die is named D and "
			    "its sides, from D2 to D%d, not '%s'", MAX_SIDES,
			    k->str);
			continue;
		}
		if (crown_ykind(&c->r, v, CROWN_Y_SCALAR, k->str, NULL) != 0)
			continue;
		/* exactly "L-H": digits, a dash, digits, nothing else */
		lo = hi = -1;
		if (isdigit((unsigned char)v->str[0])) {
			lo = strtol(v->str, &end, 10);
			if (*end == '-' && isdigit((unsigned char)end[1]))
				hi = strtol(end + 1, &end, 10);
			if (*end != '\0')
				hi = -1;
		}
		if ((lo != 0 && lo != 1) || hi - lo + 1 != sides) {
			crown_yerror(&c->r, v, NULL, "'%s' reads its faces "
			    "as \"0-%ld\" or \"1-%ld\", not '%s'", k->str,
			    sides - 1, sides, v->str);
			continue;
		}
		c->rules->die_low[sides] = (int)lo;
	}
}

/* Sections. */

/* R1.1 organisation. */
static void
parse_org(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const extra[] = {
		"figures_per_stand", "stands_per_unit"
	};
	struct crown_rules	*R = c->rules;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, extra, (int)CROWN_NELEM(extra));
	crown_rules_min_max(c, sec, "figures_per_stand", rule,
	    &R->org.figures_min, &R->org.figures_max);
	crown_rules_min_max(c, sec, "stands_per_unit", rule,
	    &R->org.stands_min, &R->org.stands_max);
}

/* R1.2 footprints. */
static void
parse_footprint(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = { "frontage", "depth", "gap", NULL };
	const struct crown_ynode *m;
	int			  t;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, crown_utype_names, CROWN_NUTYPE);
	for (t = 0; t < CROWN_NUTYPE; t++) {
		if ((m = crown_rules_get_map(c, sec, crown_utype_names[t],
		    rule)) == NULL)
			continue;
		crown_ykeys(&c->r, m, keys, rule);
		crown_yfield_num(&c->r, m, "frontage", true, 0.01, 100, rule,
		    &c->rules->footprint[t].frontage);
		crown_yfield_num(&c->r, m, "depth", true, 0.01, 100, rule,
		    &c->rules->footprint[t].depth);
		crown_yfield_num(&c->r, m, "gap", false, 0, 100, rule,
		    &c->rules->footprint[t].gap);
	}
}

/* R3.1 classes. */
static void
parse_classes(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"actions", "firing", "melee", "morale", NULL
	};
	const struct crown_ynode *m;
	int			  k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_check_keys(c, sec, crown_class_names, CROWN_NCLASS, NULL,
	    rule);
	for (k = 0; k < CROWN_NCLASS; k++) {
		if ((m = crown_rules_get_map(c, sec, crown_class_names[k],
		    rule)) == NULL)
			continue;
		crown_ykeys(&c->r, m, keys, rule);
		crown_rules_get_int(c, m, "actions", 0, 10, rule,
		    &c->rules->cls[k].actions);
		crown_rules_get_int(c, m, "firing", -10, 10, rule,
		    &c->rules->cls[k].firing);
		crown_rules_get_int(c, m, "melee", -10, 10, rule,
		    &c->rules->cls[k].melee);
		crown_rules_get_int(c, m, "morale", -10, 10, rule,
		    &c->rules->cls[k].morale);
	}
}

/* R3.3, R3.4 actions. */
static void
parse_actions(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = { "cost", "is_move", NULL };
	const struct crown_ynode *m;
	int			  a;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_check_keys(c, sec, crown_action_names, CROWN_NACTION, NULL,
	    rule);
	for (a = 0; a < CROWN_NACTION; a++) {
		if ((m = crown_rules_get_map(c, sec, crown_action_names[a],
		    rule)) == NULL)
			continue;
		crown_ykeys(&c->r, m, keys, rule);
		crown_rules_get_int(c, m, "cost", 0, 10, rule,
		    &c->rules->action[a].cost);
		crown_yfield_bool(&c->r, m, "is_move", true, rule,
		    &c->rules->action[a].is_move);
	}
}

/* Sections of plain numbers only. */
static void
parse_simple(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	if (crown_rules_is_map(c, sec, rule, rule))
		crown_rules_read_simple(c, sec, rule, NULL, 0);
}

/* R4.1 movement rolls. */
static void
parse_move(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"normal", "charge_bonus", "road_bonus", "manhandle", NULL
	};
	const struct crown_ynode *m, *v;
	int			  t;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_check_keys(c, sec, crown_utype_names, CROWN_NUTYPE, NULL,
	    rule);
	for (t = 0; t < CROWN_NUTYPE; t++) {
		if ((m = crown_rules_get_map(c, sec, crown_utype_names[t],
		    rule)) == NULL)
			continue;
		crown_ykeys(&c->r, m, keys, rule);
		crown_rules_move_dice(c, m, "normal", false, rule,
		    &c->rules->move[t].normal, NULL);
		crown_rules_move_dice(c, m, "charge_bonus", true, rule,
		    &c->rules->move[t].bonus, &c->rules->move[t].has_bonus);
		crown_rules_move_dice(c, m, "road_bonus", true, rule,
		    &c->rules->move[t].road, NULL);
		if ((v = crown_yrequire(&c->r, m, "manhandle", rule)) == NULL)
			continue;
		if (crown_rules_absent(v))
			c->rules->move[t].manhandle = 0;
		else
			crown_ynum(&c->r, v, "manhandle", 0, 100, rule,
			    &c->rules->move[t].manhandle);
	}
}

/* R4.3: one cell, NONE, N/A, "-nD6" or {penalty, drown, stuck}. */
static void
terrain_cell(struct crown_rules_ctx *c, const struct crown_ynode *v,
    const char *what, const char *rule, struct crown_terrain_move *out)
{
	static const char *const keys[] = {
		"penalty", "drown", "stuck", NULL
	};
	const struct crown_ynode *p = v;
	struct crown_dice	  dice;
	bool			  neg, drown = false, stuck = false;

	memset(out, 0, sizeof(*out));
	if (v->kind == CROWN_Y_MAP) {
		crown_ykeys(&c->r, v, keys, rule);
		if (crown_yfield_bool(&c->r, v, "drown", false, rule,
		    &drown) != 0 || crown_yfield_bool(&c->r, v, "stuck",
		    false, rule, &stuck) != 0)
			return;
		if ((p = crown_yrequire(&c->r, v, "penalty", rule)) == NULL)
			return;
		what = "penalty";
	}
	if (crown_ykind(&c->r, p, CROWN_Y_SCALAR, what, rule) != 0)
		return;
	if (strcmp(p->str, "NONE") == 0 || strcmp(p->str, "none") == 0)
		out->dice = 0;
	else if (strcmp(p->str, "N/A") == 0 || strcmp(p->str, "n/a") == 0)
		out->na = true;
	else {
		if (crown_rules_match(c, c->dice_re, p, rule) != 0) {
			crown_yerror(&c->r, p, rule, "'%s' must be NONE, N/A "
			    "or a penalty like -1D6, not '%s'", what, p->str);
			return;
		}
		if (crown_rules_read_dice(c, p, what, rule, &neg, &dice) != 0)
			return;
		if (!neg || dice.n == 0 || dice.plus != 0) {
			crown_yerror(&c->r, p, rule, "'%s' must be NONE, N/A "
			    "or a penalty like -1D6, not '%s'", what, p->str);
			return;
		}
		out->dice = dice.n;
		out->sides = dice.sides;
	}
	if ((drown || stuck) && out->dice == 0) {
		crown_yerror(&c->r, p, rule, "'%s' is needed with 'drown' or "
		    "'stuck': they apply to a penalty roll", "penalty");
		return;
	}
	out->drown = drown;
	out->stuck = stuck;
}

/* R4.3 terrain penalties: [terrain][troop type]. */
static void
parse_terrain(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	const struct crown_ynode *m, *v;
	int			  t, u;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, crown_terrain_names,
	    CROWN_NTERRAIN);
	for (t = 0; t < CROWN_NTERRAIN; t++) {
		if ((m = crown_rules_get_map(c, sec, crown_terrain_names[t],
		    rule)) == NULL)
			continue;
		crown_rules_check_keys(c, m, crown_utype_names, CROWN_NUTYPE,
		    NULL, rule);
		for (u = 0; u < CROWN_NUTYPE; u++) {
			v = crown_yrequire(&c->r, m, crown_utype_names[u],
			    rule);
			if (v != NULL)
				terrain_cell(c, v, crown_utype_names[u], rule,
				    &c->rules->terrain_move[t][u]);
		}
	}
}

/* R5.3 weapons. */
static void
parse_weapons(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	const struct crown_ynode *m;
	int			  w;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_check_keys(c, sec, crown_weapon_names, CROWN_NWEAPON, NULL,
	    rule);
	for (w = 0; w < CROWN_NWEAPON; w++)
		if ((m = crown_rules_get_map(c, sec, crown_weapon_names[w],
		    rule)) != NULL)
			crown_rules_read_bands(c, m, weapon_bands, true, rule,
			    c->rules->weapon[w]);
}

/* R5.5 cover by terrain; buildings take theirs from R11.1. */
static void
parse_cover(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const extra[] = { "cover" };
	const struct crown_ynode *m, *v;
	int			  t, k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, extra, 1);
	if ((m = crown_rules_get_map(c, sec, "cover", rule)) == NULL)
		return;
	crown_rules_check_keys(c, m, crown_terrain_names, CROWN_NTERRAIN, NULL,
	    rule);
	for (t = 0; t < CROWN_NTERRAIN; t++) {
		v = crown_yrequire(&c->r, m, crown_terrain_names[t], rule);
		if (v == NULL)
			continue;
		if (t == CROWN_BUILDING) {
			if (v->kind != CROWN_Y_SCALAR ||
			    strcmp(v->str, "by_class") != 0)
				crown_yerror(&c->r, v, rule, "a building's "
				    "cover is set by its class (R11.1): "
				    "write 'by_class'");
			c->rules->terrain_cover[t] = CROWN_COVER_NONE;
			continue;
		}
		if (crown_yenum(&c->r, v, "cover", crown_cover_names, CROWN_NCOVER,
		    rule, &k) == 0)
			c->rules->terrain_cover[t] = (enum crown_cover)k;
	}
}

/* R6.2 artillery: bands by type and gun, casualties by score. */
static void
parse_guns(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"die", "bands", "casualties", NULL
	};
	static const char *const row_keys[] = {
		"max", "canister", "effective", "long", NULL
	};
	const char		 *art[CROWN_NUTYPE];
	const struct crown_ynode *bands, *list, *g, *m, *row, *v;
	struct crown_rules	 *R = c->rules;
	long			  mx, prev = 0;
	int			  t, gun, nart = 0, b;
	size_t			  i;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	if (crown_rules_get_int(c, sec, "die", 2, MAX_SIDES, rule,
	    &R->gun_die) == 0)
		crown_rules_known_die(c, crown_ymap_get(sec, "die"), "die",
		    R->gun_die, rule);
	for (t = 0; t < CROWN_NUTYPE; t++)
		if (crown_is_artillery(t))
			art[nart++] = crown_utype_names[t];
	if ((bands = crown_rules_get_map(c, sec, "bands", rule)) != NULL) {
		crown_rules_check_keys(c, bands, art, nart, NULL, rule);
		for (t = 0; t < CROWN_NUTYPE; t++) {
			if (!crown_is_artillery(t))
				continue;
			g = crown_rules_get_map(c, bands, crown_utype_names[t],
			    rule);
			if (g == NULL)
				continue;
			crown_rules_check_keys(c, g, crown_gun_names,
			    CROWN_NGUN, NULL, rule);
			for (gun = CROWN_CANNON; gun < CROWN_NGUN; gun++) {
				m = crown_rules_get_map(c, g,
				    crown_gun_names[gun], rule);
				if (m != NULL)
					crown_rules_read_bands(c, m, gun_bands,
					    false, rule, R->gun_band[t][gun]);
			}
		}
	}
	if ((list = crown_yrequire(&c->r, sec, "casualties", rule)) == NULL ||
	    !crown_rules_is_seq(c, list, "casualties", rule))
		return;
	if (list->n < 1 || list->n > CROWN_MAX_ART_ROWS) {
		crown_yerror(&c->r, list, rule, "'casualties' must have 1 to "
		    "%d rows, not %zu", CROWN_MAX_ART_ROWS, list->n);
		return;
	}
	R->art_nrows = (int)list->n;
	for (i = 0; i < list->n; i++) {
		row = list->item[i];
		if (!crown_rules_is_map(c, row, "casualties", rule))
			continue;
		crown_ykeys(&c->r, row, row_keys, rule);
		for (b = 0; b < CROWN_NBAND; b++)
			crown_rules_get_int(c, row, gun_bands[b], 0, 100, rule,
			    &R->art_row[i].casualties[b]);
		if ((v = crown_yrequire(&c->r, row, "max", rule)) == NULL)
			continue;
		if (crown_yis_null(v)) {
			if (i + 1 != list->n)
				crown_yerror(&c->r, v, rule, "only the last "
				    "row may leave 'max' open (null)");
			R->art_row[i].max_score = INT_MAX;
			continue;
		}
		if (i + 1 == list->n) {
			crown_yerror(&c->r, v, rule, "the last row must have "
			    "'max' null, to take every higher score");
			continue;
		}
		if (crown_yint(&c->r, v, "max", -100, 100, rule, &mx) != 0)
			continue;
		if (i > 0 && mx <= prev)
			crown_yerror(&c->r, v, rule, "rows must ascend: 'max' "
			    "must be over %ld, not %ld", prev, mx);
		R->art_row[i].max_score = (int)mx;
		prev = mx;
	}
}

/* R6.4 minimum crews and their replacements. */
static void
parse_crew(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const extra[] = { "crew_replacement" };
	static const char *const keys[] = {
		"classes", "min_original", "reach", NULL
	};
	const struct crown_ynode *m, *list;
	size_t			  i;
	int			  k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, extra, 1);
	if ((m = crown_rules_get_map(c, sec, "crew_replacement",
	    rule)) == NULL)
		return;
	crown_ykeys(&c->r, m, keys, rule);
	crown_rules_get_int(c, m, "min_original", 0, 100, rule,
	    &c->rules->crew_replace.min_original);
	crown_yfield_num(&c->r, m, "reach", true, 0, MAX_INCHES, rule,
	    &c->rules->crew_replace.reach);
	if ((list = crown_yrequire(&c->r, m, "classes", rule)) == NULL ||
	    !crown_rules_is_seq(c, list, "classes", rule))
		return;
	for (i = 0; i < list->n; i++)
		if (crown_yenum(&c->r, list->item[i], "class",
		    crown_class_names, CROWN_NCLASS, rule, &k) == 0)
			c->rules->crew_replace.cls[k] = true;
}

/* R7.2 morale table. */
static void
parse_morale_table(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"min", "normal", "being_charged", "charging", NULL
	};
	const struct crown_ynode *row, *v;
	struct crown_morale_row	 *mr;
	size_t			  i;
	int			  col, res, prev = 0;
	bool			  have_prev = false;

	if (!crown_rules_is_seq(c, sec, rule, rule))
		return;
	if (sec->n < 1 || sec->n > CROWN_MAX_MORALE_ROWS) {
		crown_yerror(&c->r, sec, rule, "'%s' must have 1 to %d rows, "
		    "not %zu", rule, CROWN_MAX_MORALE_ROWS, sec->n);
		return;
	}
	c->rules->morale_nrows = (int)sec->n;
	for (i = 0; i < sec->n; i++) {
		row = sec->item[i];
		mr = &c->rules->morale_row[i];
		if (!crown_rules_is_map(c, row, "row", rule))
			continue;
		crown_ykeys(&c->r, row, keys, rule);
		if (crown_rules_get_int(c, row, "min", -100, 100, rule,
		    &mr->min) == 0) {
			if (i == 0 && mr->min > 0)
				crown_yerror(&c->r, crown_ymap_get(row, "min"),
				    rule, "the first row must start at 0 or "
				    "lower, so that every score has a row, "
				    "not %d", mr->min);
			else if (have_prev && mr->min <= prev)
				crown_yerror(&c->r, crown_ymap_get(row, "min"),
				    rule, "rows must ascend: 'min' must be "
				    "over %d, not %d", prev, mr->min);
			prev = mr->min;
			have_prev = true;
		}
		for (col = 0; col < CROWN_NCOLUMN; col++) {
			if (crown_yfield_enum(&c->r, row,
			    crown_column_names[col], true, crown_result_names,
			    CROWN_NRESULT, rule, &res) != 0)
				continue;
			v = crown_ymap_get(row, crown_column_names[col]);
			if ((column_results[col] & RBIT(res)) == 0)
				crown_yerror(&c->r, v, rule, "'%s' is not a "
				    "result of the '%s' column",
				    crown_result_names[res],
				    crown_column_names[col]);
			mr->result[col] = (enum crown_morale_result)res;
		}
	}
}

/* R7.3 morale modifiers. */
static void
parse_morale_mods(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	const struct crown_morale_mods *m = &c->rules->morale_mod;
	int			  errors = c->r.errors;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, NULL, 0);
	if (c->r.errors == errors && m->rout_far_radius < m->rout_near_radius)
		crown_yerror(&c->r, crown_ymap_get(sec, "rout_far_radius"),
		    rule, "'rout_far_radius' must not be under "
		    "'rout_near_radius' (%g), not %g", m->rout_near_radius,
		    m->rout_far_radius);
}

/* R10.1 leaders per army. */
static void
parse_leader_counts(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"imperial", "republican", NULL
	};
	static const char *const imp_keys[] = {
		"units_per_officer", "generals", NULL
	};
	static const char *const rep_keys[] = {
		"split_year", "early", "late", NULL
	};
	static const char *const early_keys[] = {
		"general_units", "units_per_officer", "generals", NULL
	};
	static const char *const late_keys[] = {
		"units_per_officer", "generals", NULL
	};
	const struct crown_ynode *m, *e;
	struct crown_rules	 *R = c->rules;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	if ((m = crown_rules_get_map(c, sec, "imperial", rule)) != NULL) {
		crown_ykeys(&c->r, m, imp_keys, rule);
		crown_rules_min_max(c, m, "units_per_officer", rule,
		    &R->leaders.imperial_units_per_officer_min,
		    &R->leaders.imperial_units_per_officer_max);
		crown_rules_get_int(c, m, "generals", 0, 100, rule,
		    &R->leaders.imperial_generals);
	}
	if ((m = crown_rules_get_map(c, sec, "republican", rule)) == NULL)
		return;
	crown_ykeys(&c->r, m, rep_keys, rule);
	crown_rules_get_int(c, m, "split_year", 1800, 1900, rule,
	    &R->leaders.republican_split_year);
	if ((e = crown_rules_get_map(c, m, "early", rule)) != NULL) {
		crown_ykeys(&c->r, e, early_keys, rule);
		crown_rules_get_int(c, e, "general_units", 1, 100, rule,
		    &R->leaders.early_general_units);
		crown_rules_get_int(c, e, "units_per_officer", 1, 100, rule,
		    &R->leaders.early_units_per_officer);
		crown_rules_get_int(c, e, "generals", 0, 100, rule,
		    &R->leaders.early_generals);
	}
	if ((e = crown_rules_get_map(c, m, "late", rule)) != NULL) {
		crown_ykeys(&c->r, e, late_keys, rule);
		crown_rules_get_int(c, e, "units_per_officer", 1, 100, rule,
		    &R->leaders.late_units_per_officer);
		crown_rules_get_int(c, e, "generals", 0, 100, rule,
		    &R->leaders.late_generals);
	}
}

/* R10.2 leader bonuses. */
static void
parse_leader_bonus(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	int	errors = c->r.errors;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, NULL, 0);
	if (c->r.errors == errors &&
	    c->rules->leader_bonus_max < c->rules->leader_bonus_min)
		crown_yerror(&c->r, crown_ymap_get(sec, "bonus_max"), rule,
		    "'bonus_max' must not be under 'bonus_min' (%d), not %d",
		    c->rules->leader_bonus_min, c->rules->leader_bonus_max);
}

/* R10.4 fire at a detached leader. */
static void
parse_leader_fire(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"fire_band", "fire_cover", NULL
	};
	int	k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	if (crown_yfield_enum(&c->r, sec, "fire_band", true, weapon_bands,
	    CROWN_NBAND, rule, &k) == 0)
		c->rules->leader_fire_band = (enum crown_band_name)k;
	if (crown_yfield_enum(&c->r, sec, "fire_cover", true, crown_cover_names,
	    CROWN_NCOVER, rule, &k) == 0)
		c->rules->leader_fire_cover = (enum crown_cover)k;
}

/* R11.1 building classes 1..5, in order. */
static void
parse_buildings(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"class", "example", "cover", "casualties", "stands", NULL
	};
	const struct crown_ynode *row, *v;
	const char		 *s;
	size_t			  i;
	int			  k, cls;

	if (!crown_rules_is_seq(c, sec, rule, rule))
		return;
	/* the published five, or as many as a house rule has */
	if (sec->n < 1 || sec->n > CROWN_MAX_BUILDING_CLASS) {
		crown_yerror(&c->r, sec, rule, "'%s' must list the building "
		    "classes, 1 to %d of them, not %zu rows", rule,
		    CROWN_MAX_BUILDING_CLASS, sec->n);
		return;
	}
	c->rules->nbuilding_class = (int)sec->n;
	for (i = 0; i < sec->n; i++) {
		row = sec->item[i];
		if (!crown_rules_is_map(c, row, "building class", rule))
			continue;
		crown_ykeys(&c->r, row, keys, rule);
		if (crown_rules_get_int(c, row, "class", 1,
		    CROWN_MAX_BUILDING_CLASS, rule, &cls) == 0 &&
		    cls != (int)i + 1)
			crown_yerror(&c->r, crown_ymap_get(row, "class"), rule,
			    "building classes must be 1 to %zu in order: "
			    "expected %zu, not %d", sec->n, i + 1, cls);
		if ((v = crown_ymap_get(row, "example")) != NULL)
			crown_ystr(&c->r, v, "example", rule, &s);
		if (crown_yfield_enum(&c->r, row, "cover", true, crown_cover_names,
		    CROWN_NCOVER, rule, &k) == 0)
			c->rules->building[i].cover = (enum crown_cover)k;
		crown_rules_get_int(c, row, "casualties", 0, 1000, rule,
		    &c->rules->building[i].casualties);
		crown_rules_get_int(c, row, "stands", 0, 100, rule,
		    &c->rules->building[i].capacity);
	}
}

/* R11.3 the average die: exactly six faces. */
static void
parse_average_die(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = { "average_die", NULL };
	const struct crown_ynode *list;
	size_t			  i;
	long			  v;
	int			  nface;

	nface = (int)CROWN_NELEM(c->rules->average_die);
	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	if ((list = crown_yrequire(&c->r, sec, "average_die", rule)) == NULL ||
	    !crown_rules_is_seq(c, list, "average_die", rule))
		return;
	if (list->n != (size_t)nface) {
		crown_yerror(&c->r, list, rule, "'average_die' must have "
		    "exactly %d faces, not %zu", nface, list->n);
		return;
	}
	for (i = 0; i < list->n; i++)
		if (crown_yint(&c->r, list->item[i], "face", 1,
		    c->rules->nbuilding_class > 0 ?
		    c->rules->nbuilding_class : CROWN_MAX_BUILDING_CLASS,
		    rule, &v) == 0)
			c->rules->average_die[i] = (int)v;
}

/* R12.1: one option of a troop row; sets the faces it takes in *faces. */
static void
troop_option(struct crown_rules_ctx *c, const struct crown_ynode *o,
    const struct crown_troop_row *tr, bool utype_ok, const char *rule,
    struct crown_troop_option *out, unsigned *faces)
{
	static const char *const keys[] = {
		"d10", "class", "weapon", "lances", NULL
	};
	const struct crown_ynode *v;
	long			  lo, hi, t;
	int			  k, f;

	if (!crown_rules_is_map(c, o, "option", rule))
		return;
	crown_ykeys(&c->r, o, keys, rule);
	if ((v = crown_yrequire(&c->r, o, "d10", rule)) != NULL &&
	    crown_ykind(&c->r, v, CROWN_Y_SCALAR, "d10", rule) == 0) {
		if (crown_rules_match(c, c->d10_re, v, rule) != 0)
			crown_yerror(&c->r, v, rule, "'d10' must be a D10 "
			    "score or range like \"9-7\", not '%s'", v->str);
		else {
			lo = crown_rules_group(c, v->str, 1);
			hi = crown_rules_group(c, v->str, 2);
			if (hi < 0)
				hi = lo;
			if (hi < lo) {
				t = lo;
				lo = hi;
				hi = t;
			}
			out->lo = (int)lo;
			out->hi = (int)hi;
			if (lo < c->rules->die_low[c->rules->muster_die] ||
			    hi > c->rules->die_low[c->rules->muster_die] +
			    c->rules->muster_die - 1)
				crown_yerror(&c->r, v, rule, "'d10' score "
				    "'%s' is not a face of the D%d", v->str,
				    c->rules->muster_die);
			for (f = out->lo; f <= out->hi; f++) {
				if (*faces & RBIT(f))
					crown_yerror(&c->r, v, rule, "D10 "
					    "score %d is in two options of "
					    "this row", f);
				*faces |= RBIT(f);
			}
		}
	}
	if (crown_yfield_enum(&c->r, o, "class", true, crown_class_names,
	    CROWN_NCLASS, rule, &k) == 0)
		out->cls = (enum crown_class)k;
	if (crown_yfield_enum(&c->r, o, "weapon", true, crown_weapon_names,
	    CROWN_NWEAPON, rule, &k) == 0)
		out->weapon = (enum crown_weapon)k;
	if (crown_yfield_bool(&c->r, o, "lances", false, rule,
	    &out->lances) == 0 && out->lances && utype_ok &&
	    tr->utype != CROWN_CAVALRY)
		crown_yerror(&c->r, crown_ymap_get(o, "lances"), rule,
		    "only cavalry carry lances");
}

/* R12.1: one row of the troop tables; *years is its years node if good. */
static void
troop_row(struct crown_rules_ctx *c, const struct crown_ynode *row,
    const char *rule, struct crown_troop_row *tr,
    const struct crown_ynode **years)
{
	static const char *const keys[] = {
		"type", "label", "utype", "gun", "years", "options", NULL
	};
	const struct crown_ynode *v, *list;
	struct crown_buf	  miss = { 0 };
	unsigned		  faces = 0;
	size_t			  i;
	long			  y[2];
	int			  k, f, lo, hi;
	bool			  utype_ok = false;

	*years = NULL;
	if (!crown_rules_is_map(c, row, "troop row", rule))
		return;
	crown_ykeys(&c->r, row, keys, rule);
	crown_yfield_id(&c->r, row, "type", true, rule, &tr->type);
	crown_yfield_str(&c->r, row, "label", true, rule, &tr->label);
	if (crown_yfield_enum(&c->r, row, "utype", true, crown_utype_names,
	    CROWN_NUTYPE, rule, &k) == 0) {
		tr->utype = (enum crown_utype)k;
		utype_ok = true;
	}
	v = crown_ymap_get(row, "gun");
	if (utype_ok && crown_is_artillery(tr->utype)) {
		if (crown_yfield_enum(&c->r, row, "gun", true,
		    crown_gun_names, CROWN_NGUN, rule, &k) == 0)
			tr->gun = (enum crown_gun)k;
	} else if (v != NULL && utype_ok)
		crown_yerror(&c->r, v, rule, "'gun' is only for artillery");
	if ((v = crown_yrequire(&c->r, row, "years", rule)) != NULL &&
	    crown_rules_is_seq(c, v, "years", rule)) {
		if (v->n != 2)
			crown_yerror(&c->r, v, rule, "'years' must be [first, "
			    "last], not %zu numbers", v->n);
		else if (crown_yint(&c->r, v->item[0], "years", 1800, 1900,
		    rule, &y[0]) == 0 && crown_yint(&c->r, v->item[1],
		    "years", 1800, 1900, rule, &y[1]) == 0) {
			if (y[1] < y[0])
				crown_yerror(&c->r, v, rule, "'years' must "
				    "not end (%ld) before they start (%ld)",
				    y[1], y[0]);
			else {
				tr->year_from = (int)y[0];
				tr->year_to = (int)y[1];
				*years = v;
			}
		}
	}
	if ((list = crown_yrequire(&c->r, row, "options", rule)) == NULL ||
	    !crown_rules_is_seq(c, list, "options", rule))
		return;
	if (list->n < 1 || list->n > CROWN_MAX_TROOP_OPTIONS) {
		crown_yerror(&c->r, list, rule, "'options' must have 1 to %d "
		    "entries, not %zu", CROWN_MAX_TROOP_OPTIONS, list->n);
		return;
	}
	tr->noptions = (int)list->n;
	for (i = 0; i < list->n; i++)
		troop_option(c, list->item[i], tr, utype_ok, rule,
		    &tr->option[i], &faces);
	lo = c->rules->die_low[c->rules->muster_die];
	hi = lo + c->rules->muster_die - 1;
	for (f = lo; f <= hi; f++)
		if ((faces & RBIT(f)) == 0)
			crown_buf_printf(&miss, "%s%d", miss.len ? ", " : "",
			    f);
	if (miss.len > 0)
		crown_yerror(&c->r, list, rule, "no option takes D%d "
		    "score %s: a row's options must use %d to %d",
		    c->rules->muster_die, miss.data, lo, hi);
	crown_buf_release(&miss);
}

/* R12.1 troop generation tables. */
static void
parse_troops(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = {
		"die", "irregular", "intervention", NULL
	};
	const struct crown_ynode *years[CROWN_MAX_TROOP_ROWS];
	const struct crown_ynode *list;
	struct crown_rules	 *R = c->rules;
	const struct crown_troop_row *a, *b;
	size_t			  i;
	int			  g, j, k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	/* the scores of the rows are faces of this die, one digit each */
	if (crown_rules_get_int(c, sec, "die", 2, 10, rule,
	    &R->muster_die) != 0 ||
	    !crown_rules_known_die(c, crown_ymap_get(sec, "die"), "die",
	    R->muster_die, rule))
		return;
	for (g = 1; keys[g] != NULL; g++) {
		if ((list = crown_yrequire(&c->r, sec, keys[g], rule)) ==
		    NULL || !crown_rules_is_seq(c, list, keys[g], rule))
			continue;
		for (i = 0; i < list->n; i++) {
			if (R->troop_nrows == CROWN_MAX_TROOP_ROWS) {
				crown_yerror(&c->r, list->item[i], rule,
				    "more than %d troop rows",
				    CROWN_MAX_TROOP_ROWS);
				break;
			}
			troop_row(c, list->item[i], rule,
			    &R->troop[R->troop_nrows],
			    &years[R->troop_nrows]);
			R->troop_nrows++;
		}
	}
	/* one answer per type and year */
	for (j = 0; j < R->troop_nrows; j++) {
		for (k = 0; k < j; k++) {
			a = &R->troop[k];
			b = &R->troop[j];
			if (years[j] == NULL || years[k] == NULL ||
			    a->type == NULL || b->type == NULL ||
			    strcmp(a->type, b->type) != 0)
				continue;
			if (a->year_from <= b->year_to &&
			    b->year_from <= a->year_to) {
				crown_yerror(&c->r, years[j], rule, "years of "
				    "'%s' overlap those of line %u",
				    b->type, years[k]->line);
				break;
			}
		}
	}
}

/* R9.1: which way a halved charge bonus rounds. */
static void
parse_half_bonus(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const keys[] = { "half_bonus_rounds", NULL };
	static const char *const ways[] = { "down", "up" };
	int	k;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_ykeys(&c->r, sec, keys, rule);
	if (crown_yfield_enum(&c->r, sec, "half_bonus_rounds", true, ways, 2,
	    rule, &k) == 0)
		c->rules->half_bonus_up = k == 1;
}

/* R13.1 rulings. */
static void
parse_rulings(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *rule)
{
	static const char *const	 extra[] = { "hundredths" };
	int				 errors = c->r.errors;

	if (!crown_rules_is_map(c, sec, rule, rule))
		return;
	crown_rules_read_simple(c, sec, rule, extra, CROWN_NELEM(extra));
	(void)crown_yfield_bool(&c->r, sec, "hundredths", false, rule,
	    &c->rules->hundredths);
	if (c->r.errors == errors &&
	    c->rules->ruling_defender_max >= c->rules->ruling_die)
		crown_yerror(&c->r, crown_ymap_get(sec, "defender_max"), rule,
		    "'defender_max' must be under 'ruling_die' (%d), not %d",
		    c->rules->ruling_die, c->rules->ruling_defender_max);
}

/* The whole file. */

/* Length of an R-id ("R4.3") at the start of s, or 0. */
static size_t
rule_id_len(const char *s, size_t len)
{
	size_t	i;

	if (len < 2 || s[0] != 'R' || !isdigit((unsigned char)s[1]))
		return 0;
	for (i = 1; i < len && (isdigit((unsigned char)s[i]) || s[i] == '.');
	    i++)
		continue;
	return s[i - 1] == '.' ? 0 : i;
}

static void
read_root(struct crown_rules_ctx *c, const struct crown_ynode *root)
{
	const struct crown_ynode *v;
	const char		 *k;
	size_t			  i, j;

	if (!crown_rules_is_map(c, root, "rules file", NULL))
		return;
	for (i = 0; i < root->n; i++) {
		k = root->key[i]->str;
		if (strcmp(k, "id") == 0 || strcmp(k, "title") == 0)
			continue;
		for (j = 0; j < CROWN_NELEM(sections); j++)
			if (strcmp(sections[j].id, k) == 0)
				break;
		if (j < CROWN_NELEM(sections))
			continue;
		crown_yerror(&c->r, root->key[i],
		    rule_id_len(k, strlen(k)) == strlen(k) ? k : NULL,
		    "unknown section '%s'", k);
	}
	crown_yfield_id(&c->r, root, "id", true, NULL, &c->rules->id);
	crown_yfield_str(&c->r, root, "title", true, NULL, &c->rules->title);
	for (j = 0; j < CROWN_NELEM(sections); j++) {
		if ((v = crown_ymap_get(root, sections[j].id)) == NULL) {
			crown_yerror(&c->r, root, sections[j].id,
			    "missing section '%s'", sections[j].id);
			continue;
		}
		sections[j].parse(c, v, sections[j].id);
	}
}

/*
 * The YAML layer knows nothing of sections, so its problems (syntax,
 * duplicate keys) come without an R-id: give each the id of the top-level
 * key whose lines it falls in.
 */
/* A diagnostic to tag, by line; ties in the order found. */
struct tag_at {
	unsigned	line;
	size_t		i;
};

static int
cmp_tag_at(const void *a, const void *b)
{
	const struct tag_at	*x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * One pass over the file for all the diagnostics, taken by line: a file
 * with a million duplicate keys must not be read a million times.
 */
static void
tag_sections(struct crown_diags *d, size_t first, const char *buf,
    size_t len)
{
	const char	*p = buf, *eol, *end = buf + len, *id = NULL;
	struct tag_at	*v;
	size_t		 i, k = 0, n, idlen = 0;
	unsigned	 line = 1;

	v = xcalloc(d->n - first + 1, sizeof(*v));
	for (i = first; i < d->n; i++)
		if (d->v[i].rule == NULL && d->v[i].line != 0) {
			v[k].line = d->v[i].line;
			v[k++].i = i;
		}
	if (k > 1)
		qsort(v, k, sizeof(*v), cmp_tag_at);
	for (i = 0; i < k; i++) {
		/* read on to the diagnostic's line, included */
		for (; p < end && line <= v[i].line; line++) {
			if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
				eol = end;
			/* a top-level key starts in column 1 */
			if (p < eol && *p != ' ' && *p != '\t' && *p != '#' &&
			    *p != '-' && *p != '}' && *p != ']' &&
			    *p != '\r') {
				n = rule_id_len(p, (size_t)(eol - p));
				id = n > 0 ? p : NULL;
				idlen = n;
			}
			p = eol + 1;
		}
		if (id != NULL)
			d->v[v[i].i].rule = xstrndup(id, idlen);
	}
	free(v);
}

int
crown_rules_parse(struct crown_rules **out, const char *file,
    const char *buf, size_t len, struct crown_diags *d)
{
	struct crown_ydoc	*doc = NULL;
	struct crown_rules_ctx	 c;
	size_t			 first = d->n;
	int			 error;

	*out = NULL;
	memset(&c, 0, sizeof(c));
	error = crown_ydoc_parse(&doc, file, buf, len, &crown_ylimits_state,
	    d);
	if (error != 0) {
		tag_sections(d, first, buf, len);
		return error;
	}
	c.r.file = file;
	c.r.diags = d;
	c.rules = xcalloc(1, sizeof(*c.rules));
	c.rules->file = xstrdup(file);
	if ((error = crown_rules_ctx_init(&c, file, d)) != 0)
		goto cleanup;
	read_root(&c, crown_ydoc_root(doc));
	if (c.r.errors > 0)
		error = CROWN_EINVALID;

cleanup:
	crown_rules_ctx_release(&c);
	crown_ydoc_free(doc);
	if (error != 0) {
		crown_rules_free(c.rules);
		return error;
	}
	*out = c.rules;
	return 0;
}

int
crown_rules_load(struct crown_rules **out, const char *path,
    struct crown_diags *d)
{
	char	*buf;
	size_t	 len;
	int	 error;

	*out = NULL;
	error = crown_read_file(&buf, &len, path,
	    crown_ylimits_state.max_bytes, d);
	if (error != 0)
		return error;
	error = crown_rules_parse(out, path, buf, len, d);
	free(buf);
	return error;
}

void
crown_rules_free(struct crown_rules *R)
{
	int	i;

	if (R == NULL)
		return;
	for (i = 0; i < CROWN_MAX_TROOP_ROWS; i++) {
		free(R->troop[i].type);
		free(R->troop[i].label);
	}
	free(R->file);
	free(R->title);
	free(R->id);
	free(R);
}

char *
crown_rules_find(const char *id)
{
	char	*rel, *path;

	if (id == NULL || !crown_id_valid(id))
		return NULL;
	rel = xasprintf("rules/%s.yaml", id);
	path = crown_data_find(rel);
	free(rel);
	return path;
}

/* Look-ups. */

int
crown_rules_art_casualties(const struct crown_rules *R, int score,
    enum crown_band_name b)
{
	int	i, n;

	if ((int)b < 0 || b >= CROWN_NBAND || R->art_nrows < 1)
		return 0;
	/* R6.2: the first row whose max the score does not exceed */
	for (i = 0; i < R->art_nrows - 1; i++)
		if (score <= R->art_row[i].max_score)
			break;
	n = R->art_row[i].casualties[b];
	/* R6.3 ricochet */
	if (score <= R->ricochet_score)
		n *= R->ricochet_factor;
	return n;
}

enum crown_morale_result
crown_rules_morale(const struct crown_rules *R, int score,
    enum crown_morale_column col)
{
	int	i, row = 0;

	if ((int)col < 0 || col >= CROWN_NCOLUMN || R->morale_nrows < 1)
		return CROWN_R_OK;
	/* R7.2: the last row whose min the score reaches; below: the first */
	for (i = 1; i < R->morale_nrows; i++) {
		if (R->morale_row[i].min > score)
			break;
		row = i;
	}
	return R->morale_row[row].result[col];
}

enum crown_band_name
crown_rules_band(const struct crown_band *bands, double range)
{
	int	b;

	if (range != range)
		return CROWN_NBAND;
	if (range < 0)
		range = 0;
	/*
	 * R13.1: bands are (min, max], the nearest also holding 0, so a
	 * range exactly on an edge is in the nearer band.
	 */
	for (b = 0; b < CROWN_NBAND; b++) {
		if (!bands[b].present)
			continue;
		if (range <= bands[b].max &&
		    (range > bands[b].min || bands[b].min <= 0))
			return (enum crown_band_name)b;
	}
	return CROWN_NBAND;
}

double
crown_rules_distance(const struct crown_rules *R, double d)
{
	return R->hundredths ? crown_round2(d) : d;
}

bool
crown_rules_within(const struct crown_rules *R, double d, double limit)
{
	return crown_rules_distance(R, d) <= limit;
}

int
crown_rules_die_low(const struct crown_rules *r, int sides)
{
	if (sides < 2 || sides > CROWN_MAX_SIDES || r->die_low[sides] < 0)
		return 1;	/* the loader lets no such die through */
	return r->die_low[sides];
}

int
crown_rules_half_bonus(const struct crown_rules *r, int bonus)
{
	return r->half_bonus_up ? (bonus + 1) / 2 : bonus / 2;
}

int
crown_rules_dice_max(const struct crown_rules *r, const struct crown_dice *d)
{
	return d->n * (crown_rules_die_low(r, d->sides) + d->sides - 1) +
	    d->plus;
}

void
crown_rules_dice_str(char *buf, size_t len, const struct crown_dice *d)
{
	if (d->n == 0)
		snprintf(buf, len, "%d", d->plus);
	else if (d->plus == 0)
		snprintf(buf, len, "%dD%d", d->n, d->sides);
	else
		snprintf(buf, len, "%dD%d%+d", d->n, d->sides, d->plus);
}
