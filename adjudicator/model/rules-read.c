/*
 * rules-read.c: reading the values of a rules file for rules.c's
 * sections: the shapes of the YAML tree (maps, sequences, known keys),
 * the plain numbers each section holds (one table, by R-id), dice rolls
 * ("1D6+4", matched with PCRE2) and the dice the game knows, and range
 * bands.  Each problem is reported with its place and R-id and reading
 * goes on, so that a file's every problem is found.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/rules-read.h"
#include "crown/rules.h"
#include "crown/types.h"
#include "crown/yaml.h"

/* "1D6+4", "2D6", "4", optionally signed: the sign comes back apart. */
#define DICE_PATTERN \
	"^([+-]?)(?:([0-9]{1,4})[Dd]([0-9]{1,4})(?:([+-])([0-9]{1,4}))?" \
	"|([0-9]{1,4}))\\z"
/* R12.1 D10 scores: "9-7" (either order) or one face. */
#define D10_PATTERN	"^([0-9])(?:-([0-9]))?\\z"

/* Plain numbers: section, key, type, range and where it goes. */
enum { F_INT, F_NUM };
#define OFF(m)	offsetof(struct crown_rules, m)

static const struct simple {
	const char	*rule;
	const char	*key;
	int		 type;
	double		 lo, hi;
	size_t		 off;
} simple[] = {
	{ "R1.1", "men_per_figure", F_INT, 1, 1000, OFF(org.men_per_figure) },
	{ "R1.2", "limbered_depth", F_NUM, 0.01, 100, OFF(limbered_depth) },
	{ "R3.5", "cost_factor", F_INT, 1, 10, OFF(undercrewed_cost_factor) },
	{ "R3.6", "repeater_shots", F_INT, 1, 20, OFF(repeater_shots) },
	{ "R3.7", "disorder_mod", F_INT, -10, 10, OFF(disorder_mod) },
	{ "R4.3", "stuck_move_per_stand", F_NUM, 0, 100,
	    OFF(stuck_move_per_stand) },
	{ "R4.3", "help_reach", F_NUM, 0, 100, OFF(help_reach) },
	{ "R4.5", "stop_short", F_NUM, 0, 100, OFF(stop_short) },
	{ "R4.6", "leader_move", F_NUM, 0, MAX_INCHES, OFF(leader_move) },
	{ "R4.7", "contact_crossing", F_NUM, 0, 1, OFF(contact_crossing) },
	{ "R5.2", "moved", F_INT, 1, 10, OFF(fire_moved_one_in) },
	{ "R5.2", "column", F_INT, 1, 10, OFF(fire_column_one_in) },
	{ "R5.2", "mounted_cavalry", F_INT, 1, 10, OFF(fire_cavalry_one_in) },
	{ "R5.4", "target_cavalry", F_INT, -10, 10,
	    OFF(fire_mod.target_cavalry) },
	{ "R5.4", "soft_cover", F_INT, -10, 10,
	    OFF(fire_mod.cover[CROWN_COVER_SOFT]) },
	{ "R5.4", "hard_cover", F_INT, -10, 10,
	    OFF(fire_mod.cover[CROWN_COVER_HARD]) },
	{ "R5.4", "target_skirmishers", F_INT, -10, 10,
	    OFF(fire_mod.target_skirmishers) },
	{ "R5.4", "disordered", F_INT, -10, 10, OFF(fire_mod.disordered) },
	{ "R5.4", "rallied", F_INT, -10, 10, OFF(fire_mod.rallied) },
	{ "R5.5", "wall_distance", F_NUM, 0, 100, OFF(wall_cover_distance) },
	{ "R5.5", "thick_woods_sight", F_NUM, 0, 100, OFF(thick_woods_sight) },
	{ "R6.3", "score", F_INT, -20, 20, OFF(ricochet_score) },
	{ "R6.3", "factor", F_INT, 1, 10, OFF(ricochet_factor) },
	{ "R6.4", "horse_artillery", F_INT, 1, 100,
	    OFF(min_crew[CROWN_HORSE_ART]) },
	{ "R6.4", "foot_artillery", F_INT, 1, 100,
	    OFF(min_crew[CROWN_FOOT_ART]) },
	{ "R6.4", "siege_artillery", F_INT, 1, 100,
	    OFF(min_crew[CROWN_SIEGE_ART]) },
	{ "R6.5", "retire_with_gun", F_INT, 0, 10, OFF(gun_retire_max) },
	{ "R7.1", "rout_radius", F_NUM, 0, MAX_INCHES,
	    OFF(morale_trigger_radius) },
	{ "R7.3", "breakthrough", F_INT, -10, 10,
	    OFF(morale_mod.breakthrough) },
	{ "R7.3", "general_killed", F_INT, -10, 10,
	    OFF(morale_mod.general_killed) },
	{ "R7.3", "charged_rear", F_INT, -10, 10,
	    OFF(morale_mod.charged_rear) },
	{ "R7.3", "rout_near", F_INT, -10, 10, OFF(morale_mod.rout_near) },
	{ "R7.3", "officer_killed", F_INT, -10, 10,
	    OFF(morale_mod.officer_killed) },
	{ "R7.3", "rout_far", F_INT, -10, 10, OFF(morale_mod.rout_far) },
	{ "R7.3", "artillery_fire", F_INT, -10, 10,
	    OFF(morale_mod.artillery_fire) },
	{ "R7.3", "charged_flank", F_INT, -10, 10,
	    OFF(morale_mod.charged_flank) },
	{ "R7.3", "stand_lost", F_INT, -10, 10, OFF(morale_mod.stand_lost) },
	{ "R7.3", "disordered", F_INT, -10, 10, OFF(morale_mod.disordered) },
	{ "R7.3", "charged_by_cavalry", F_INT, -10, 10,
	    OFF(morale_mod.charged_by_cavalry) },
	{ "R7.3", "repeat_test", F_INT, -10, 10,
	    OFF(morale_mod.repeat_test) },
	{ "R7.3", "officer_attached", F_INT, -10, 10,
	    OFF(morale_mod.officer_attached) },
	{ "R7.3", "general_near", F_INT, -10, 10,
	    OFF(morale_mod.general_near) },
	{ "R7.3", "per_two_stands", F_INT, -10, 10,
	    OFF(morale_mod.per_two_stands) },
	{ "R7.3", "stands_per_step", F_INT, 1, 100,
	    OFF(morale_mod.stands_per_step) },
	{ "R7.3", "hard_cover", F_INT, -10, 10, OFF(morale_mod.hard_cover) },
	{ "R7.3", "general_attached", F_INT, -10, 10,
	    OFF(morale_mod.general_attached) },
	{ "R7.3", "infantry_flank_rear", F_INT, -10, 10,
	    OFF(morale_mod.infantry_flank_rear) },
	{ "R7.3", "cavalry_flank_rear", F_INT, -10, 10,
	    OFF(morale_mod.cavalry_flank_rear) },
	{ "R7.3", "rout_near_radius", F_NUM, 0, MAX_INCHES,
	    OFF(morale_mod.rout_near_radius) },
	{ "R7.3", "rout_far_radius", F_NUM, 0, MAX_INCHES,
	    OFF(morale_mod.rout_far_radius) },
	{ "R7.3", "general_radius", F_NUM, 0, MAX_INCHES,
	    OFF(morale_mod.general_radius) },
	{ "R7.5", "charge_max_casualty_pct", F_INT, 0, 100,
	    OFF(charge_max_casualty_pct) },
	{ "R7.5", "retire_at_stands", F_INT, 0, 100, OFF(retire_at_stands) },
	{ "R8.3", "rally_radius", F_NUM, 0, MAX_INCHES, OFF(rally_radius) },
	{ "R8.3", "first_half_turn", F_INT, 1, 100,
	    OFF(rally_first_half_turn) },
	{ "R5.1", "die", F_INT, 2, MAX_SIDES, OFF(fire_die) },
	{ "R7.1", "test_die", F_INT, 2, MAX_SIDES, OFF(morale_die) },
	{ "R8.4", "die", F_INT, 2, MAX_SIDES, OFF(rally_die) },
	{ "R8.4", "target", F_INT, -10, 20, OFF(rally_target) },
	{ "R8.4", "officer", F_INT, -10, 10, OFF(rally_officer) },
	{ "R8.4", "general", F_INT, -10, 10, OFF(rally_general) },
	{ "R8.5", "max_failures", F_INT, 0, 100, OFF(rally_max_failures) },
	{ "R8.5", "max_routs", F_INT, 1, 100, OFF(rally_max_routs) },
	{ "R8.6", "dice_mod", F_INT, -10, 10, OFF(rallied_dice_mod) },
	{ "R9.4", "flank_first_round_stands", F_INT, 0, 100,
	    OFF(melee_flank_first_stands) },
	{ "R9.5", "die", F_INT, 2, MAX_SIDES, OFF(melee_die) },
	{ "R9.5", "charging", F_INT, -10, 10, OFF(melee_charging) },
	{ "R9.5", "per_stand", F_INT, -10, 10, OFF(melee_per_stand) },
	{ "R9.5", "cap_per_stand", F_INT, 0, 100, OFF(melee_cap_per_stand) },
	{ "R9.5", "rear_cap_per_stand", F_INT, 0, 100,
	    OFF(melee_rear_cap_per_stand) },
	{ "R9.8", "max_rounds", F_INT, 1, 100, OFF(melee_max_rounds) },
	{ "R9.8", "part_retire_moves", F_INT, 0, 10, OFF(melee_part_moves) },
	{ "R9.9", "lance_first_round", F_INT, -10, 10,
	    OFF(lance_first_round) },
	{ "R10.2", "bonus_min", F_INT, -10, 10, OFF(leader_bonus_min) },
	{ "R10.2", "bonus_max", F_INT, -10, 10, OFF(leader_bonus_max) },
	{ "R10.3", "kill_die", F_INT, 2, MAX_SIDES, OFF(leader_kill_die) },
	{ "R11.2", "siege_mod", F_INT, -10, 10, OFF(building_siege_mod) },
	{ "R13.1", "ruling_die", F_INT, 2, MAX_SIDES, OFF(ruling_die) },
	{ "R13.1", "defender_max", F_INT, 1, MAX_SIDES,
	    OFF(ruling_defender_max) },
};

/* Shapes of the YAML tree. */

bool
crown_rules_is_map(struct crown_rules_ctx *c, const struct crown_ynode *n,
    const char *what, const char *rule)
{
	return crown_ykind(&c->r, n, CROWN_Y_MAP, what, rule) == 0;
}

bool
crown_rules_is_seq(struct crown_rules_ctx *c, const struct crown_ynode *n,
    const char *what, const char *rule)
{
	return crown_ykind(&c->r, n, CROWN_Y_SEQ, what, rule) == 0;
}

/* map[key], reported when missing or not a map. */
const struct crown_ynode *
crown_rules_get_map(struct crown_rules_ctx *c, const struct crown_ynode *map,
    const char *key, const char *rule)
{
	const struct crown_ynode *v;

	if ((v = crown_yrequire(&c->r, map, key, rule)) == NULL)
		return NULL;
	return crown_rules_is_map(c, v, key, rule) ? v : NULL;
}

/* Report every key of map that is in neither names[0..n) nor extra. */
void
crown_rules_check_keys(struct crown_rules_ctx *c,
    const struct crown_ynode *map, const char *const *names, int n,
    const char *const *extra, const char *rule)
{
	const char *const	*e;
	const char		*k;
	size_t			 i;
	int			 j;

	for (i = 0; i < map->n; i++) {
		k = map->key[i]->str;
		for (j = 0; j < n; j++)
			if (names[j] != NULL && strcmp(names[j], k) == 0)
				break;
		if (j < n)
			continue;
		for (e = extra; e != NULL && *e != NULL; e++)
			if (strcmp(*e, k) == 0)
				break;
		if (e != NULL && *e != NULL)
			continue;
		crown_yerror(&c->r, map->key[i], rule, "unknown key '%s'", k);
	}
}

int
crown_rules_get_int(struct crown_rules_ctx *c, const struct crown_ynode *map,
    const char *key, long lo, long hi, const char *rule, int *out)
{
	long	v;

	if (crown_yfield_int(&c->r, map, key, true, lo, hi, rule, &v) != 0)
		return CROWN_EINVALID;
	*out = (int)v;
	return 0;
}

/* "-", "none", "N/A" or null: a band, bonus or option that is not there. */
bool
crown_rules_absent(const struct crown_ynode *n)
{
	return crown_yis_null(n) || (n->kind == CROWN_Y_SCALAR &&
	    (strcmp(n->str, "-") == 0 || strcmp(n->str, "none") == 0 ||
	    strcmp(n->str, "N/A") == 0));
}

static bool
simple_key(const char *rule, const char *key)
{
	size_t	i;

	for (i = 0; i < CROWN_NELEM(simple); i++)
		if (strcmp(simple[i].rule, rule) == 0 &&
		    strcmp(simple[i].key, key) == 0)
			return true;
	return false;
}

/*
 * Read the plain numbers of section `rule` from sec (a map).  Keys that
 * are neither these nor extra[0..nextra) are reported.
 */
void
crown_rules_read_simple(struct crown_rules_ctx *c,
    const struct crown_ynode *sec, const char *rule,
    const char *const *extra, int nextra)
{
	const struct simple	*s;
	size_t			 i;
	int			 j, errors;
	long			 l;
	double			 d;
	char			*base = (char *)c->rules;

	for (i = 0; i < sec->n; i++) {
		if (simple_key(rule, sec->key[i]->str))
			continue;
		for (j = 0; j < nextra; j++)
			if (extra[j] != NULL &&
			    strcmp(extra[j], sec->key[i]->str) == 0)
				break;
		if (j == nextra)
			crown_yerror(&c->r, sec->key[i], rule,
			    "unknown key '%s'", sec->key[i]->str);
	}
	for (i = 0; i < CROWN_NELEM(simple); i++) {
		s = &simple[i];
		if (strcmp(s->rule, rule) != 0)
			continue;
		errors = c->r.errors;
		if (s->type == F_INT) {
			if (crown_yfield_int(&c->r, sec, s->key, true,
			    (long)s->lo, (long)s->hi, rule, &l) == 0)
				*(int *)(void *)(base + s->off) = (int)l;
			/* a die is one of the dice section's */
			if (strstr(s->key, "die") != NULL &&
			    c->r.errors == errors)
				crown_rules_known_die(c,
				    crown_ymap_get(sec, s->key), s->key,
				    (int)l, rule);
		} else if (crown_yfield_num(&c->r, sec, s->key, true, s->lo,
		    s->hi, rule, &d) == 0)
			*(double *)(void *)(base + s->off) = d;
	}
}

static void
pcre2_text(int code, char *buf, size_t len)
{
	if (pcre2_get_error_message(code, (PCRE2_UCHAR *)buf, len) < 0)
		snprintf(buf, len, "PCRE2 error %d", code);
}

/* Match n (a scalar) against re; 0 or a diagnostic and CROWN_EINVALID. */
int
crown_rules_match(struct crown_rules_ctx *c, pcre2_code *re,
    const struct crown_ynode *n, const char *rule)
{
	char	msg[256];
	int	rc;

	rc = pcre2_match(re, (PCRE2_SPTR)n->str, n->len, 0, 0, c->md, NULL);
	if (rc >= 0)
		return 0;
	if (rc != PCRE2_ERROR_NOMATCH) {
		pcre2_text(rc, msg, sizeof(msg));
		crown_yerror(&c->r, n, rule, "cannot match '%s': %s", n->str,
		    msg);
	}
	return CROWN_EINVALID;
}

/* Capture group i of the last match as a number; -1 when unset. */
long
crown_rules_group(const struct crown_rules_ctx *c, const char *s, int i)
{
	PCRE2_SIZE	*ov = pcre2_get_ovector_pointer(c->md);
	PCRE2_SIZE	 k;
	long		 v = 0;

	if (ov[2 * i] == PCRE2_UNSET || ov[2 * i] == ov[2 * i + 1])
		return -1;
	for (k = ov[2 * i]; k < ov[2 * i + 1]; k++)
		v = v * 10 + (s[k] - '0');
	return v;
}

/*
 * A dice roll "1D6+4", "2D6" or a fixed "4", with an optional sign in
 * front that comes back in *neg.
 */
int
crown_rules_read_dice(struct crown_rules_ctx *c, const struct crown_ynode *n,
    const char *what, const char *rule, bool *neg, struct crown_dice *out)
{
	PCRE2_SIZE	*ov;
	long		 nd, sides, plus;

	if (crown_ykind(&c->r, n, CROWN_Y_SCALAR, what, rule) != 0)
		return CROWN_EINVALID;
	if (crown_rules_match(c, c->dice_re, n, rule) != 0) {
		crown_yerror(&c->r, n, rule, "'%s' is not a dice roll: '%s' "
		    "(write like 1D6+4, 2D6 or 4)", what, n->str);
		return CROWN_EINVALID;
	}
	ov = pcre2_get_ovector_pointer(c->md);
	*neg = ov[3] > ov[2] && n->str[ov[2]] == '-';
	memset(out, 0, sizeof(*out));
	if ((plus = crown_rules_group(c, n->str, 6)) >= 0) {
		if (plus > MAX_PLUS) {
			crown_yerror(&c->r, n, rule, "'%s': a fixed amount "
			    "must be from 0 to %d, not %ld", what, MAX_PLUS,
			    plus);
			return CROWN_EINVALID;
		}
		out->plus = (int)plus;
		return 0;
	}
	nd = crown_rules_group(c, n->str, 2);
	sides = crown_rules_group(c, n->str, 3);
	plus = crown_rules_group(c, n->str, 5);
	if (nd < 1 || nd > MAX_DICE) {
		crown_yerror(&c->r, n, rule, "'%s': the number of dice must "
		    "be from 1 to %d, not %ld", what, MAX_DICE, nd);
		return CROWN_EINVALID;
	}
	if (sides < 2 || sides > MAX_SIDES) {
		crown_yerror(&c->r, n, rule, "'%s': dice must have from 2 to "
		    "%d sides, not %ld", what, MAX_SIDES, sides);
		return CROWN_EINVALID;
	}
	if (!crown_rules_known_die(c, n, what, (int)sides, rule))
		return CROWN_EINVALID;
	if (plus > MAX_PLUS) {
		crown_yerror(&c->r, n, rule, "'%s': the amount added must be "
		    "from 0 to %d, not %ld", what, MAX_PLUS, plus);
		return CROWN_EINVALID;
	}
	out->n = (int)nd;
	out->sides = (int)sides;
	if (plus > 0)
		out->plus = n->str[ov[8]] == '-' ? (int)-plus : (int)plus;
	return 0;
}

/* A die of `sides' sides is one of the dice section's (n: the node that
 * names it, for the message). */
bool
crown_rules_known_die(struct crown_rules_ctx *c, const struct crown_ynode *n,
    const char *what, int sides, const char *rule)
{
	if (sides >= 2 && sides <= MAX_SIDES && c->rules->die_low[sides] >= 0)
		return true;
	crown_yerror(&c->r, n, rule, "'%s': the rules have no D%d (the "
	    "'dice' section lists the dice of the game)", what, sides);
	return false;
}

/* R4.1: a roll added to a move; "-" when may_absent (then *present). */
void
crown_rules_move_dice(struct crown_rules_ctx *c, const struct crown_ynode *map,
    const char *key, bool may_absent, const char *rule, struct crown_dice *out,
    bool *present)
{
	const struct crown_ynode *v;
	bool			  neg;

	if ((v = crown_yrequire(&c->r, map, key, rule)) == NULL)
		return;
	if (present != NULL)
		*present = false;
	if (may_absent && crown_rules_absent(v)) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (crown_rules_read_dice(c, v, key, rule, &neg, out) != 0)
		return;
	if (neg) {
		crown_yerror(&c->r, v, rule, "'%s' must not be negative, not "
		    "'%s'", key, v->str);
		return;
	}
	if (present != NULL)
		*present = true;
}

/*
 * R5.3, R6.2: three bands in order, each "-" or {min?, max, hit?}.  A band
 * starts where the one before it ends unless it gives a later min.
 */
void
crown_rules_read_bands(struct crown_rules_ctx *c,
    const struct crown_ynode *map, const char *const *names, bool want_hit,
    const char *rule, struct crown_band *out)
{
	static const char *const hit_keys[] = { "min", "max", "hit", NULL };
	static const char *const gun_keys[] = { "min", "max", NULL };
	const struct crown_ynode *v, *n;
	double			  prev = 0, lo, hi;
	int			  b, hit = 0;

	crown_rules_check_keys(c, map, names, CROWN_NBAND, NULL, rule);
	for (b = 0; b < CROWN_NBAND; b++) {
		memset(&out[b], 0, sizeof(out[b]));
		if ((v = crown_yrequire(&c->r, map, names[b], rule)) == NULL)
			continue;
		if (crown_rules_absent(v))
			continue;
		if (!crown_rules_is_map(c, v, names[b], rule))
			continue;
		crown_ykeys(&c->r, v, want_hit ? hit_keys : gun_keys, rule);
		lo = prev;
		if ((n = crown_ymap_get(v, "min")) != NULL) {
			if (crown_ynum(&c->r, n, "min", 0, MAX_INCHES, rule,
			    &lo) != 0)
				continue;
			if (lo < prev) {
				crown_yerror(&c->r, n, rule, "band '%s' must "
				    "not start before %g, where the band "
				    "before it ends", names[b], prev);
				continue;
			}
		}
		if (crown_yfield_num(&c->r, v, "max", true, 0, MAX_INCHES,
		    rule, &hi) != 0)
			continue;
		if (!(hi > lo)) {
			crown_yerror(&c->r, crown_ymap_get(v, "max"), rule,
			    "bands must increase: 'max' of '%s' must be over "
			    "%g, not %g", names[b], lo, hi);
			continue;
		}
		if (want_hit && crown_rules_get_int(c, v, "hit", -10, 20, rule,
		    &hit) != 0)
			continue;
		out[b].min = lo;
		out[b].max = hi;
		out[b].hit = hit;
		out[b].present = true;
		prev = hi;
	}
}

void
crown_rules_min_max(struct crown_rules_ctx *c, const struct crown_ynode *sec,
    const char *key, const char *rule, int *lo, int *hi)
{
	static const char *const keys[] = { "min", "max", NULL };
	const struct crown_ynode *m;

	if ((m = crown_rules_get_map(c, sec, key, rule)) == NULL)
		return;
	crown_ykeys(&c->r, m, keys, rule);
	if (crown_rules_get_int(c, m, "min", 1, 100, rule, lo) != 0 ||
	    crown_rules_get_int(c, m, "max", 1, 100, rule, hi) != 0)
		return;
	if (*hi < *lo)
		crown_yerror(&c->r, crown_ymap_get(m, "max"), rule,
		    "'max' of '%s' must not be under its min %d, not %d", key,
		    *lo, *hi);
}

static int
compile(pcre2_code **out, const char *pattern, const char *file,
    struct crown_diags *d)
{
	char		msg[256];
	PCRE2_SIZE	off;
	int		code;

	*out = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
	    &code, &off, NULL);
	if (*out != NULL)
		return 0;
	pcre2_text(code, msg, sizeof(msg));
	crown_diag_add(d, file, 0, 0, NULL, "internal error: pattern '%s' "
	    "at offset %zu: %s", pattern, (size_t)off, msg);
	return CROWN_ERROR;
}

int
crown_rules_ctx_init(struct crown_rules_ctx *c, const char *file,
    struct crown_diags *d)
{
	int	error;

	if ((error = compile(&c->dice_re, DICE_PATTERN, file, d)) != 0 ||
	    (error = compile(&c->d10_re, D10_PATTERN, file, d)) != 0)
		return error;
	/* the dice pattern has the most groups */
	c->md = pcre2_match_data_create_from_pattern(c->dice_re, NULL);
	if (c->md == NULL)
		return CROWN_ERROR;
	return 0;
}

void
crown_rules_ctx_release(struct crown_rules_ctx *c)
{
	pcre2_match_data_free(c->md);
	pcre2_code_free(c->d10_re);
	pcre2_code_free(c->dice_re);
}
