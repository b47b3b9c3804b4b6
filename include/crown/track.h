/*
 * track.h: a footprint carried along a path (track.c, R4): what it
 * sweeps, where blockers stop it; the R4.3 order check and the R4.6
 * leader walk.
 */
#ifndef CROWN_TRACK_H
#define CROWN_TRACK_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/geom.h"
#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"

/* Positions are kept to hundredths of an inch (state.c). */
#define CROWN_TRACK_STEP	0.01
/* Bisection: halvings of the travel, enough to reach 1e-12 inch. */
#define CROWN_TRACK_BISECT_STEPS	64
/* Steps back (of CROWN_TRACK_STEP) tried to find a clear rounded point. */
#define CROWN_TRACK_BACKOFF_STEPS	100
/*
 * R4.3 forbids entering N/A terrain, not touching it: a gun may stand
 * against a wall and move along it, but not cross it.  A footprint is
 * "in" a feature when the footprint shrunk by CROWN_TRACK_INSET on every
 * side touches it; the inset is below the hundredth positions are kept
 * to.
 */
#define CROWN_TRACK_INSET		(CROWN_TRACK_STEP / 2)

enum crown_block_kind {
	CROWN_BLOCK_ENEMY,		/* R4.5: 1 inch short; R4.7 */
	CROWN_BLOCK_CONTACT,		/* R9.1: a charge stops at contact */
	CROWN_BLOCK_TERRAIN,		/* R4.3: N/A terrain */
	CROWN_BLOCK_EDGE,		/* R4.5: leaving the table */
	CROWN_BLOCK_FRIEND,		/* R4.7: crossed, not ended on */
	CROWN_BLOCK_HELD		/* R11.1: another side's building */
};

struct crown_blocker {
	enum crown_block_kind			 kind;
	/* the enemy; or the friend, or the building's holder */
	const struct crown_unit		*enemy;
	const struct crown_feature	*f;
	/* the unit's footprint; an enemy's may be come no nearer than thr
	 * (R4.5), nor crossed deeper than at the start (cross: touching
	 * units may cross by a hundredth, R4.7) */
	struct crown_quad		 q;
	struct crown_geom_box		 box;	/* q's bounds */
	double				 thr;
	double				 cross;
};

struct crown_track {
	const struct crown_state	*s;
	const struct crown_rules	*rules;
	struct crown_quad		 q0;	/* at the start */
	struct crown_quad		 qin;	/* q0 less CROWN_TRACK_INSET */
	struct crown_point		*pts;	/* start, path */
	size_t				 m;
	double				*cum;	/* to each point */
	double				 len;
	struct crown_point		 coff;	/* centre - start */
	struct crown_geom_box		 box;	/* crown_track_box */
	struct crown_blocker		*b;
	size_t				 nb, capb;
};

/* Where a track run ended. */
struct crown_stop {
	double			 s;	/* inches along the track */
	struct crown_point	 at;	/* rounded position */
	const struct crown_blocker	*by;	/* what stopped it, or NULL */
};

/* A track from `start' (the unit's position, footprint q0) along path
 * (n points).  Release with crown_track_free. */
void	crown_track_init(struct crown_track *, const struct crown_state *,
	    const struct crown_rules *, struct crown_point start,
	    const struct crown_quad *q0, const struct crown_point *path,
	    size_t n);
void	crown_track_free(struct crown_track *);

/* The point s inches along the track. */
struct crown_point crown_track_at(const struct crown_track *, double s);

/* The start footprint carried to p. */
void	crown_track_quad_at(struct crown_quad *out,
	    const struct crown_track *, struct crown_point p);

/* q shrunk by CROWN_TRACK_INSET on every side. */
void	crown_track_inset(struct crown_quad *out, const struct crown_quad *q);

/* The footprint (inset: shrunk, for N/A terrain) swept along the first s
 * inches touches feature f. */
bool	crown_track_feature_swept(const struct crown_track *,
	    const struct crown_feature *f, double s, bool inset);

/* Polygon p (n corners) touches feature f. */
bool	crown_track_feature_touches(const struct crown_feature *f,
	    const struct crown_point *p, size_t n);

/* Strictly outside the table: its edges are on it (R13.1). */
bool	crown_track_off_table(const struct crown_state *, struct crown_point);

/* Bounding box of all the footprint sweeps along the whole track. */
struct crown_geom_box crown_track_box(const struct crown_track *);
struct crown_blocker *crown_track_add_blocker(struct crown_track *,
	    enum crown_block_kind);
double	crown_track_enemy_reach(const struct crown_track *);
/*
 * The units other than u among idx[0..n-1] (state indices; NULL: every
 * unit), in that order: enemies as R4.5 (or, contact, R9.1) blockers,
 * friends as R4.7 ones.
 */
void	crown_track_add_units(struct crown_track *,
	    const struct crown_unit *u, const size_t *idx, size_t n,
	    bool contact);
void	crown_track_add_terrain(struct crown_track *, const size_t *idx,
	    size_t n, enum crown_utype);
/* R11.1, R4.7: building f is held by `holder', of another side: the
 * footprint's centre may pass through it, not end in it. */
void	crown_track_add_held(struct crown_track *,
	    const struct crown_feature *f, const struct crown_unit *holder);

/*
 * Move along the track as far as `travel' inches or the first blocker,
 * and back to the last point where the footprint overlaps no unit (R4.7).
 * out->by is what stopped it: a contact blocker only if the footprint
 * ends in contact with that enemy, a friend if it was drawn back off one.
 */
void	crown_track_run(const struct crown_track *, double travel,
	    struct crown_stop *out);

/* Bearing of the leg the track is on at s (s > 0). */
int	crown_track_leg_bearing(const struct crown_track *, double s);

/* u's footprint at p facing `facing'. */
void	crown_track_unit_quad(struct crown_quad *out,
	    const struct crown_rules *, const struct crown_unit *u,
	    struct crown_point p, int facing);

/* The final wheel at p to `facing' breaks no blocker (R4.2) and
 * overlaps no unit (R4.7); keep (or NULL): an enemy the footprint is in
 * contact with and must stay so. */
bool	crown_track_turn_ok(const struct crown_track *,
	    const struct crown_rules *, const struct crown_unit *u,
	    struct crown_point p, int facing,
	    const struct crown_blocker *keep);

/* A feature's name, or its id. */
const char *crown_track_feature_name(const struct crown_feature *);

/*
 * R4.6: where a leader walking straight from `from' towards `to' ends: at
 * most `budget' inches, short of terrain N/A for cavalry (*blocked is
 * then that feature, else NULL).  Rounded to hundredths.
 */
struct crown_point crown_track_leader_walk(const struct crown_state *,
	    const struct crown_rules *, struct crown_point from,
	    struct crown_point to, double budget,
	    const struct crown_feature **blocked);

/*
 * R4.3: a move or manhandle order whose footprint, carried along
 * its path and turned to its final facing, would enter terrain N/A for
 * the unit's type (terrain it already stands in excepted).  u may be a copy
 * with the formation and limber state the unit will have by then.
 * terrain: crown_terrain_grid_new's grid of the state, so that only the
 * features near the move are looked at, or NULL to look at every one.
 * Returns 0, or CROWN_EINVALID with *why a message (caller frees): the
 * first feature in state order that the move may not enter.
 */
int	crown_track_validate(const struct crown_state *,
	    const struct crown_rules *, const struct crown_unit *u,
	    const struct crown_action_order *,
	    const struct crown_geom_grid *terrain, char **why);

/* R4.6: the same for a leader's move: terrain N/A for cavalry. */
int	crown_track_validate_leader(const struct crown_state *,
	    const struct crown_rules *, const struct crown_leader *,
	    const struct crown_leader_orders *, char **why);

#endif
