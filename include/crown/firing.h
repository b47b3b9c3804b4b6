/*
 * firing.h: what fire.c and artillery.c share (firing.c): targets, bands,
 * range, arc and sight, cover, the modifiers of a shot, casualties.
 */
#ifndef CROWN_FIRING_H
#define CROWN_FIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/context.h"

/* Names of the bands in events: small arms, and guns (R5.3, R6.2). */
extern const char *const crown_fire_band_names[CROWN_NBAND];
extern const char *const crown_gun_band_names[CROWN_NBAND];

enum crown_fire_kind {
	CROWN_AT_UNIT,
	CROWN_AT_LEADER,	/* R10.4: a detached leader */
	CROWN_AT_BUILDING	/* R11.2: guns only */
};

/* What a shot is aimed at, and its shape on the table. */
struct crown_fire_target {
	enum crown_fire_kind	 kind;
	struct crown_unit	*unit;
	struct crown_leader	*leader;
	struct crown_feature	*building;
	const char		*id;
	const char		*name;
	struct crown_point	 shape[4];	/* footprint or leader */
	const struct crown_point *pts;		/* shape or the polygon */
	size_t			 npts;
	struct crown_point	 aim;		/* end of the line of sight */
};
void	crown_fire_target_unit(struct crown_fire_target *,
	    const struct crown_rules *, struct crown_unit *);
void	crown_fire_target_leader(struct crown_fire_target *,
	    struct crown_leader *);
void	crown_fire_target_building(struct crown_fire_target *,
	    struct crown_feature *);

/*
 * The facts of a shot in its event: the target, the range and band, and
 * where the firer stood (its position) and the target (the end of the
 * line of sight) when it fired, for the map.
 */
void	crown_fire_event_shot(struct crown_event *,
	    const struct crown_unit *firer, const struct crown_fire_target *,
	    double range, const char *band);

/* "close", "canister", ... as the firer calls band b. */
const char *crown_fire_band_name(const struct crown_unit *,
	    enum crown_band_name);

/* R5.6: shortest distance between the firer's footprint and the target. */
double	crown_fire_range(const struct crown_rules *,
	    const struct crown_unit *, const struct crown_fire_target *);

/* R5.6: the target lies at least partly ahead of the front edge. */
bool	crown_fire_in_arc(const struct crown_rules *,
	    const struct crown_unit *, const struct crown_fire_target *);

/*
 * R5.6: the line between the firer's front-edge centre and the target's
 * aim point is clear of thick woods (beyond rules->thick_woods_sight),
 * buildings other than those the two occupy, and other units.  When it
 * is not, *why (the caller's) says what is in the way.
 */
bool	crown_fire_sight(char **why, struct crown_engine *,
	    const struct crown_unit *, const struct crown_fire_target *);

/*
 * R5.5, R11.1: the best cover the target unit has against this firer
 * where the shot meets it (t->shape, t->aim: for reaction fire, R9.2,
 * where the volley met the charger): terrain the centre of that
 * footprint is in, a wall the line of fire crosses near it, the building
 * it garrisons.  buildings_only for howitzers (R6.1).  *what (the
 * caller's, or NULL when in the open) names it; *rule is its rule id.
 */
enum crown_cover crown_fire_cover(char **what, const char **rule,
	    struct crown_engine *, const struct crown_unit *firer,
	    const struct crown_fire_target *t, bool buildings_only);

/*
 * The same for u where it stands, against no firer in particular (the
 * terrain it is in, the building it garrisons; a wall depends on the line
 * of fire and is not counted), for what a player is shown.  e needs only
 * its state and rules (its spatial index is made at need: free it with
 * crown_spatial_free).
 */
enum crown_cover crown_fire_cover_here(char **what, const char **rule,
	    struct crown_engine *e, const struct crown_unit *u);

/* The modifiers of one shot, named, each with its rule (R5.4). */
#define CROWN_FIRE_MAX_MODS 8
struct crown_fire_mods {
	size_t	n;
	struct {
		char		*name;
		int		 value;
		const char	*rule;
	} m[CROWN_FIRE_MAX_MODS];
};

/*
 * Collect the R5.4 modifiers of a shot by u at t: class (unless
 * `no_class`), cavalry, cover (buildings only for howitzers), skirmishers,
 * disorder (R3.7), rallied (R8.6).  Zero modifiers are left out.
 */
void	crown_fire_mods_collect(struct crown_fire_mods *,
	    struct crown_engine *, const struct crown_unit *u,
	    const struct crown_fire_target *t, bool howitzer);
void	crown_fire_mods_add(struct crown_fire_mods *, int value,
	    const char *rule, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
void	crown_fire_mods_apply(const struct crown_fire_mods *,
	    struct crown_die_rec *);

/* "militia +2, target is cavalry -1" or "no modifiers"; caller frees. */
char	*crown_fire_mods_text(const struct crown_fire_mods *);
void	crown_fire_mods_release(struct crown_fire_mods *);

/* R3.6: a shot unloads; repeating rifles after rules->repeater_shots. */
void	crown_fire_unload(const struct crown_rules *, struct crown_unit *);

/*
 * Casualties of fire on a unit: from the last stand (R1.3), the R7.1 and
 * R7.3 flags for the morale phase, a `lost` event when the unit has no
 * stands left or was routing (R8.2).  Returns the figures taken; sets
 * *stands_lost.
 */
int	crown_fire_casualties(struct crown_engine *, struct crown_unit *,
	    int figures, bool artillery, int *stands_lost);

/*
 * R10.4: `hits` shots struck a detached leader's stand; with several
 * figures a die of that many faces says for each hit whether it is he
 * (face 1).  Adds the dice to event ev_i.  Returns 1 if he was killed, 0
 * if not, or e->error.
 */
int	crown_fire_leader_hits(struct crown_engine *, size_t ev_i,
	    struct crown_leader *, int hits);

/* "1 casualty", "no casualties"; static for n <= 0, else caller frees. */
char	*crown_fire_casualty_text(int n, int stands_lost);

#endif
