/*
 * muster.h: units raised from the troop tables (R12.1), for scenarios
 * with non-historical forces (muster.c; crown muster prints them).
 *
 * One die per unit (rules->muster_die, a D10) picks its class and arms
 * from the row of its type and year.  The units are written as a YAML
 * list to paste under `units:` in a scenario, each with its die as a
 * comment above it, so that anyone can check the draw.
 */
#ifndef CROWN_MUSTER_H
#define CROWN_MUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/rules.h"
#include "crown/xalloc.h"

#define CROWN_MUSTER_MAX_COUNT	100
#define CROWN_MUSTER_MAX_STANDS	64
/* The side a unit is written with when none is given: not a valid id,
 * so a scenario refuses it until the umpire sets the real side. */
#define CROWN_MUSTER_SIDE_PLACEHOLDER	"SIDE"

/* What the umpire asks for. */
struct crown_muster_spec {
	long		 year;
	long		 count;		/* 1 to CROWN_MUSTER_MAX_COUNT */
	const char	*side;		/* NULL: the placeholder */
	const char	*prefix;	/* NULL: the type, '-' for '_' */
	int		 stands[CROWN_MUSTER_MAX_STANDS];
	size_t		 nstands;	/* 0: the default */
	bool		 at;		/* x, y and facing given */
	double		 x, y;		/* the first unit's place */
	long		 facing;
	const char	*script;	/* the dice script, or NULL */
};

/* One unit raised. */
struct crown_muster_unit {
	char				*id;
	char				*name;
	int				 face;	/* the die */
	const struct crown_troop_option	*op;	/* what it picked */
	double				 x;
};

struct crown_muster {
	const struct crown_troop_row	*row;
	struct crown_muster_unit	*v;
	size_t				 n;
};

/*
 * The row of the tables for type in year, or NULL with a diagnostic
 * (R12.1) naming what the tables lack.  where names the problems' source
 * in d (crown muster: the command).
 */
const struct crown_troop_row *crown_muster_row(const struct crown_rules *,
	    const char *type, long year, const char *where,
	    struct crown_diags *d);

/*
 * R1.1 for the stands of spec: 2-5 figures a stand, 3-8 stands a unit;
 * a gun and its crew are one stand (R1.1, R1.2).  With no stands given,
 * fills the default: four stands of four, or for a gun one stand of its
 * minimum crew (R6.4) and one figure more.  Every problem to d; 0 or
 * CROWN_EINVALID.
 */
int	crown_muster_stands(struct crown_muster_spec *,
	    const struct crown_rules *, const struct crown_troop_row *,
	    const char *where, struct crown_diags *d);

/*
 * Raise spec->count units of row, one die each from dice (turn 0, key
 * "muster", the unit's id as who), standing in a row to the east of
 * spec's place one stand's frontage apart.  0; CROWN_EUSAGE when the ids
 * would not be valid (a prefix too long); CROWN_EINVALID when the dice
 * fail (a script run out; named by spec->script).  Release out with
 * crown_muster_release (done already when it fails).
 */
int	crown_muster_raise(struct crown_muster *out,
	    const struct crown_rules *, const struct crown_troop_row *,
	    const struct crown_muster_spec *, struct crown_dice *,
	    const char *where, struct crown_diags *d);
void	crown_muster_release(struct crown_muster *);

/*
 * The units as YAML to paste under `units:`, appended to out after
 * comments that say where the dice came from: the seed in hex
 * (seedhex), else spec->script.  0, or CROWN_ERROR when the emitter
 * fails.
 */
int	crown_muster_emit(struct crown_buf *out, const struct crown_muster *,
	    const struct crown_muster_spec *, const char *seedhex);

/* Every type of the tables and its rows (crown muster --list). */
void	crown_muster_list(struct crown_buf *out, const struct crown_rules *);

#endif
