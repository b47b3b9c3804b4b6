/*
 * state.h: the table, the forces and where they stand (FORMATS.md
 * "State and scenario").  A scenario is a turn-0 state.
 */
#ifndef CROWN_STATE_H
#define CROWN_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/geom.h"
#include "crown/types.h"
#include "crown/xalloc.h"

struct crown_person {
	char	*name;
	char	*email;
	char	*password_sha256;	/* optional: hex SHA-256 (mail.h) */
	char	*openpgp;		/* the umpire's only: the key that
					 * signs the history, 40 hex digits */
	char	*away_until;		/* optional: a player's absence ends,
					 * "YYYY-MM-DDTHH:MM:SSZ" (crown
					 * roster away; absence.h) */
};

/* R10.1: which leader allowance a side has (optional `army` key). */
enum crown_army {
	CROWN_ARMY_UNKNOWN,	/* not given: leader counts not checked */
	CROWN_ARMY_IMPERIAL,	/* Intervention and Imperial forces */
	CROWN_ARMY_REPUBLICAN,
	CROWN_NARMY
};

struct crown_side {
	char			*id;
	char			*name;
	enum crown_edge		 home_edge;
	enum crown_army		 army;		/* R10.1 */
	struct crown_person	*players;
	size_t			 nplayers;
	unsigned		 line, col;
};

struct crown_feature {
	char			*id;
	char			*name;		/* optional */
	enum crown_terrain	 type;
	struct crown_point	*pts;		/* polygon or path */
	size_t			 npts;
	bool			 is_path;	/* path (road, walls) */
	double			 width;		/* roads: inches */
	int			 bclass;	/* buildings: R11.1 class 1-5 */
	int			 damage;	/* buildings: R11.2 casualties */
	unsigned		 line, col;	/* where it was read */
};

struct crown_unit {
	char			*id;
	char			*name;
	char			*side;
	enum crown_utype	 type;
	enum crown_gun		 gun;
	enum crown_class	 cls;
	enum crown_weapon	 weapon;
	int			*stands;	/* figures per stand */
	size_t			 nstands;
	int			 start_figures;
	int			 start_stands;
	double			 x, y;
	int			 facing;	/* whole degrees 0-359 */
	enum crown_formation	 formation;
	bool			 loaded;
	int			 shots_fired;
	bool			 limbered;
	bool			 disordered;
	enum crown_status	 status;
	int			 routs;
	int			 rally_failures;
	bool			 rallied;
	bool			 stuck;
	/* engine keys (written only when set) */
	bool			 holding;	/* R7.4: no closer next half */
	int			 rout_halves;	/* R8.3: half-turns in rout */
	bool			 skip_next;	/* R8.1: no move next half */
	int			 crew_replaced;	/* R6.4: infantry in the crew */
	bool			 abandoned;	/* R6.5: a gun marker */
	unsigned		 line, col;
};

struct crown_leader {
	char			*id;
	char			*name;
	char			*side;
	enum crown_rank		 rank;
	int			 bonus;		/* R10.2 */
	char			*attached;	/* unit id, or NULL */
	double			 x, y;		/* when detached */
	int			 figures;	/* R10.4: on his stand, >= 1 */
	enum crown_leader_status {
		CROWN_LEADER_OK,
		CROWN_LEADER_KILLED,
		CROWN_LEADER_CAPTURED,
		CROWN_NLEADER_STATUS
	}			 status;
	unsigned		 line, col;
};

/* A melee in progress (R9.8). */
struct crown_melee {
	char		**attackers;	/* unit ids */
	size_t		  nattackers;
	char		**defenders;
	size_t		  ndefenders;
	int		  rounds;	/* fought so far */
	int		  attacker_losses; /* R9.8: figures, all rounds */
	int		  defender_losses;
	enum crown_attack {
		CROWN_FRONT,
		CROWN_FLANK,
		CROWN_REAR,
		CROWN_NATTACK
	}		  attack;
};

struct crown_state {
	/* game */
	char			*name;
	char			*rules;		/* rule set id */
	int			 turn;
	char			*attacker;	/* side id */
	int			 last_turn;	/* 0: none */
	bool			 allow_elite;
	int			 year;		/* 0: unknown (R10.1) */
	struct crown_person	 umpire;
	char			*dice_commitment;
	/* game.dice_chain (crown upgrade; dice.c): the turn keys of turns
	 * from dice_chain_from on are of the chain whose k(0) is
	 * dice_chain_commitment; 0 and NULL when the state has none */
	int			 dice_chain_from;
	char			*dice_chain_commitment;
	char			*deadline;	/* optional: next orders due,
						 * "YYYY-MM-DDTHH:MM:SSZ" */
	char			*deadline_every; /* optional: "7d": the
						 * next deadline after a turn
						 * is this after the last */
	/* while every player of a side is away (game.absence): the
	 * deadline moves (extend, at most max_absence later) or the side
	 * holds (hold); and the turns in a row without orders after which
	 * a side is in civil disorder (game.missed_orders.limit, 0: never) */
	enum crown_absence {
		CROWN_ABSENCE_DEFAULT,	/* not given: extend */
		CROWN_ABSENCE_EXTEND,
		CROWN_ABSENCE_HOLD,
		CROWN_NABSENCE
	}			 absence;
	char			*max_absence;	/* optional: "14d" */
	int			 missed_limit;
	/* table */
	double			 width, height;
	struct crown_side	*sides;
	size_t			 nsides;
	struct crown_feature	*terrain;
	size_t			 nterrain;
	struct crown_unit	*units;
	size_t			 nunits;
	struct crown_leader	*leaders;
	size_t			 nleaders;
	struct crown_melee	*melees;
	size_t			 nmelees;
	char			*file;		/* where it was read */
	/* unit indices sorted by id, for crown_state_unit (n log n) */
	size_t			*unit_order;
	/* and by the hash of the id, open addressing, index + 1 (0: an
	 * empty slot); NULL while two units share an id */
	size_t			*unit_slots;
	size_t			 nslots;	/* a power of two */
};

extern const char *const crown_leader_status_names[CROWN_NLEADER_STATUS];
extern const char *const crown_attack_names[CROWN_NATTACK];
extern const char *const crown_army_names[CROWN_NARMY];
extern const char *const crown_absence_names[CROWN_NABSENCE];

/*
 * Load a state or scenario.  Every problem of the file goes to d; returns
 * 0, CROWN_EINVALID or CROWN_ENOTFOUND.  *out is the caller's
 * (crown_state_free).  A scenario may leave out what `crown new` fills in
 * (start_figures, start_stands and the unit flags).
 */
int	crown_state_load(struct crown_state **out, const char *path,
	    struct crown_diags *d);
int	crown_state_parse(struct crown_state **out, const char *file,
	    const char *buf, size_t len, struct crown_diags *d);

/* Write s in a stable order, positions to 2 decimals.  0 or CROWN_ERROR. */
int	crown_state_emit(struct crown_buf *out, const struct crown_state *s);
struct crown_state *crown_state_clone(const struct crown_state *);
/* Rebuild the id index after adding or removing units. */
void	crown_state_index(struct crown_state *);
void	crown_state_free(struct crown_state *);

/* Look-ups; NULL or -1 when absent. */
/* The melee u is in, and its side there (0 attackers, 1 defenders). */
struct crown_melee *crown_state_melee(const struct crown_state *,
	    const struct crown_unit *u, int *side);
/*
 * R9.8: the melee u is locked in as the turn begins (NULL: none; a unit
 * not ok has left it), *foe the first unit of its other side (NULL if
 * none), *first whether u's side moves first (the attacker, R2.1: it
 * acts before any melee phase of the turn).
 */
const struct crown_melee *crown_state_locked(const struct crown_state *,
	    const struct crown_unit *u, const char **foe, bool *first);
struct crown_unit *crown_state_unit(const struct crown_state *,
	    const char *id);
struct crown_leader *crown_state_leader(const struct crown_state *,
	    const char *id);
int	crown_state_side(const struct crown_state *, const char *id);
struct crown_feature *crown_state_building(const struct crown_state *,
	    const char *id);

/*
 * A grid of the terrain features' bounding boxes (a road's or wall's
 * widened by half its width), for finding the features near a place
 * without a look at every one (crown_geom_grid_query: indices into
 * s->terrain, ascending).  Free with crown_geom_grid_free.
 */
struct crown_geom_grid *crown_terrain_grid_new(const struct crown_state *);

/*
 * R4.7: no two units on the table overlap (lost units and abandoned guns
 * take no room).  Each overlap goes to d at the later unit's place, naming
 * both; at most CROWN_STATE_MAX_OVERLAPS are told, and the search stops
 * there, so a state of stacked units costs no more than a clear one:
 * n log n through a grid of the footprints' boxes.  Returns 0 or
 * CROWN_EINVALID.
 */
struct crown_rules;
#define CROWN_STATE_MAX_OVERLAPS	20
int	crown_state_check_overlaps(const struct crown_state *,
	    const struct crown_rules *, struct crown_diags *d);

/* "general " or "officer " to put before a leader's name in a sentence,
 * or "" when the name starts with that word already ("General Carlos
 * Oronoz" is not "general General Carlos Oronoz"). */
const char *crown_leader_rank_word(const struct crown_leader *);
/* Where a leader stands: with his unit when attached, else on his own. */
struct crown_point crown_leader_pos(const struct crown_state *,
	    const struct crown_leader *);

/* R8.4: whether leader ld gives u's rally a modifier, in *mod (a general
 * always, an officer when attached to u). */
bool	crown_leader_rally_mod(const struct crown_rules *,
	    const struct crown_leader *ld, const struct crown_unit *u,
	    int *mod);
/* R8.3, R8.4: the leader within the rally radius of u whose modifier
 * (*mod) helps its rally most; NULL: none, so it cannot try. */
const struct crown_leader *crown_leader_rally(const struct crown_state *,
	    const struct crown_rules *, const struct crown_unit *u, int *mod);

/* The first leader of this rank (state order) attached to u, fit to lead;
 * NULL if none. */
struct crown_leader *crown_leader_attached(const struct crown_state *,
	    const struct crown_unit *, enum crown_rank);

/*
 * The deadline (game.deadline) a state's text records, "" for none, or
 * NULL when it cannot be read.  crown writes the game's map first, so
 * only its lines are parsed when the text starts with it (crown verify
 * takes the umpire's deadline from each committed state, which it does
 * not otherwise need to parse); any other text is parsed whole.  Caller
 * frees.
 */
char	*crown_state_deadline_of(const char *text, size_t len);

#endif
