/*
 * rules-read.h: reading the values of a rules file (rules-read.c), for
 * the sections of rules.c: the reader's state, YAML shapes, the plain
 * numbers of a section, dice and range bands.  Each function reports
 * what is wrong through c->r (the rules file's R-id as `rule`) and goes
 * on; none is for code outside the rules' reader.
 */
#ifndef CROWN_RULES_READ_H
#define CROWN_RULES_READ_H

#include <stdbool.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "crown/diag.h"
#include "crown/rules.h"
#include "crown/types.h"
#include "crown/yaml.h"

#define MAX_DICE	20
#define MAX_SIDES	CROWN_MAX_SIDES
#define MAX_PLUS	100
#define MAX_INCHES	1000.0

struct crown_rules_ctx {
	struct crown_yreader	 r;
	struct crown_rules	*rules;
	pcre2_code		*dice_re;
	pcre2_code		*d10_re;
	pcre2_match_data	*md;
};

/* The patterns compiled and the match data made (c->r, c->rules set by
 * the caller); 0, or a diagnostic in d and CROWN_ERROR.  Release frees
 * them, after a failed init too. */
int	 crown_rules_ctx_init(struct crown_rules_ctx *c, const char *file,
	    struct crown_diags *d);
void	 crown_rules_ctx_release(struct crown_rules_ctx *c);

/* n is a map (a sequence), else reported. */
bool	 crown_rules_is_map(struct crown_rules_ctx *c,
	    const struct crown_ynode *n, const char *what, const char *rule);
bool	 crown_rules_is_seq(struct crown_rules_ctx *c,
	    const struct crown_ynode *n, const char *what, const char *rule);
/* map[key], reported when missing or not a map. */
const struct crown_ynode *crown_rules_get_map(struct crown_rules_ctx *c,
	    const struct crown_ynode *map, const char *key, const char *rule);
/* Report every key of map that is in neither names[0..n) nor extra. */
void	 crown_rules_check_keys(struct crown_rules_ctx *c,
	    const struct crown_ynode *map, const char *const *names, int n,
	    const char *const *extra, const char *rule);
/* map[key], a whole number from lo to hi, into *out; else reported and
 * CROWN_EINVALID. */
int	 crown_rules_get_int(struct crown_rules_ctx *c,
	    const struct crown_ynode *map, const char *key, long lo, long hi,
	    const char *rule, int *out);
/* "-", "none", "N/A" or null: a band, bonus or option that is not there. */
bool	 crown_rules_absent(const struct crown_ynode *n);
/* The plain numbers of section `rule` from sec (a map) into c->rules;
 * keys that are neither these nor extra[0..nextra) are reported. */
void	 crown_rules_read_simple(struct crown_rules_ctx *c,
	    const struct crown_ynode *sec, const char *rule,
	    const char *const *extra, int nextra);
/* Match n (a scalar) against re (c->dice_re, c->d10_re); 0, or
 * CROWN_EINVALID (reported only when PCRE2 fails). */
int	 crown_rules_match(struct crown_rules_ctx *c, pcre2_code *re,
	    const struct crown_ynode *n, const char *rule);
/* Capture group i of the last match in s as a number; -1 when unset. */
long	 crown_rules_group(const struct crown_rules_ctx *c, const char *s,
	    int i);
/* A dice roll "1D6+4", "2D6" or a fixed "4", with an optional sign in
 * front that comes back in *neg; 0, or reported and CROWN_EINVALID. */
int	 crown_rules_read_dice(struct crown_rules_ctx *c,
	    const struct crown_ynode *n, const char *what, const char *rule,
	    bool *neg, struct crown_dice *out);
/* A die of `sides' sides is one of the dice section's (n: the node that
 * names it, for the message). */
bool	 crown_rules_known_die(struct crown_rules_ctx *c,
	    const struct crown_ynode *n, const char *what, int sides,
	    const char *rule);
/* R4.1: a roll added to a move; "-" when may_absent (then *present). */
void	 crown_rules_move_dice(struct crown_rules_ctx *c,
	    const struct crown_ynode *map, const char *key, bool may_absent,
	    const char *rule, struct crown_dice *out, bool *present);
/* R5.3, R6.2: three bands in order, each "-" or {min?, max, hit?}. */
void	 crown_rules_read_bands(struct crown_rules_ctx *c,
	    const struct crown_ynode *map, const char *const *names,
	    bool want_hit, const char *rule, struct crown_band *out);
/* sec[key], {min, max} from 1 to 100, min not over max, into lo, hi. */
void	 crown_rules_min_max(struct crown_rules_ctx *c,
	    const struct crown_ynode *sec, const char *key, const char *rule,
	    int *lo, int *hi);

#endif
