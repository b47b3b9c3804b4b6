/*
 * rules.h: every table and number of the rules, loaded from
 * rules/<id>.yaml where each sits under its R-id.  No rule number is a
 * literal in C: code reads it from here.
 */
#ifndef CROWN_RULES_H
#define CROWN_RULES_H

#include <stdbool.h>

#include "crown/diag.h"
#include "crown/types.h"

/* "1D6+4": n dice of `sides` faces plus `plus`; n == 0 is a fixed amount. */
struct crown_dice {
	int	n;
	int	sides;
	int	plus;
};

/* A weapon or gun range band: up to `max` inches inclusive (R5.3, R13.1). */
struct crown_band {
	double	min;		/* lower bound; bands start where the last ends */
	double	max;
	int	hit;		/* R5.3: highest score that hits */
	bool	present;	/* "-" in the table: no such band */
};

enum crown_band_name {
	CROWN_BAND_CLOSE,	/* canister for guns */
	CROWN_BAND_MEDIUM,	/* effective for guns */
	CROWN_BAND_LONG,
	CROWN_NBAND
};

/* R4.3: a terrain's effect on one troop type's movement. */
struct crown_terrain_move {
	bool	na;		/* may not enter */
	int	dice;		/* dice subtracted (0: NONE) */
	int	sides;		/* of each: 6 for "-2D6" */
	bool	drown;		/* note (a): penalty over the roll drowns */
	bool	stuck;		/* note (b): a negative net roll sticks */
};

enum crown_cover {
	CROWN_COVER_NONE,
	CROWN_COVER_SOFT,
	CROWN_COVER_HARD,
	CROWN_NCOVER
};
/* As the rules file names them ("none"), and as a sentence does ("no
 * cover"). */
extern const char *const crown_cover_names[CROWN_NCOVER];
extern const char *const crown_cover_words[CROWN_NCOVER];

/* R7.3 modifiers, one per line of the table. */
struct crown_morale_mods {
	int	breakthrough;		/* +3 receiving a breakthrough charge */
	int	general_killed;		/* +2 */
	int	charged_rear;		/* +2 */
	int	rout_near;		/* +2 rout within rout_near_radius */
	int	officer_killed;		/* +1 */
	int	rout_far;		/* +1 rout within rout_far_radius */
	int	artillery_fire;		/* +1 under artillery fire */
	int	charged_flank;		/* +1 */
	int	stand_lost;		/* +1 each stand lost */
	int	disordered;		/* +1 */
	int	charged_by_cavalry;	/* +1 */
	int	repeat_test;		/* +1 2nd and later test in a game turn */
	int	officer_attached;	/* -1 */
	int	general_near;		/* -1 general within general_radius */
	int	per_two_stands;		/* -1 for each 2 whole stands */
	int	stands_per_step;	/* the 2 of "each 2 whole stands" */
	int	hard_cover;		/* -1 */
	int	general_attached;	/* -2 */
	int	infantry_flank_rear;	/* -2 infantry charging flank or rear */
	int	cavalry_flank_rear;	/* -4 cavalry charging flank or rear */
	double	rout_near_radius;	/* 12 */
	double	rout_far_radius;	/* 24 */
	double	general_radius;		/* 12 */
};

/* R7.2: one row of the morale table, for scores from `min` up. */
struct crown_morale_row {
	int	min;			/* lowest score of the row */
	enum crown_morale_result result[CROWN_NCOLUMN];
};

#define CROWN_MAX_MORALE_ROWS	16
#define CROWN_MAX_ART_ROWS	16
#define CROWN_MAX_BUILDING_CLASS 9	/* room for house rules */
#define CROWN_MAX_SIDES		100
#define CROWN_MAX_TROOP_ROWS	64
#define CROWN_MAX_TROOP_OPTIONS	8

/* R12.1: one row of the troop tables: a D10 range per outcome. */
struct crown_troop_option {
	int			lo, hi;		/* D10 scores, inclusive */
	enum crown_class	cls;
	enum crown_weapon	weapon;
	bool			lances;
};

struct crown_troop_row {
	int			 year_from, year_to;
	char			*type;		/* "militia_foot", "french_line" */
	char			*label;		/* "Militia Foot" */
	enum crown_utype	 utype;
	enum crown_gun		 gun;		/* artillery rows: cannon */
	int			 noptions;
	struct crown_troop_option option[CROWN_MAX_TROOP_OPTIONS];
};

struct crown_rules {
	char	*id;			/* "maximilian" */
	char	*title;
	char	*file;			/* where it was loaded from */

	/* R1.1 organisation */
	struct {
		int	figures_min, figures_max;	/* per stand: 2-5 */
		int	stands_min, stands_max;		/* per unit: 3-8 */
		int	men_per_figure;			/* 20 */
	} org;

	/* R1.2 footprints (inches); gap: between skirmisher stands */
	struct {
		double	frontage, depth, gap;
	} footprint[CROWN_NUTYPE];
	double	limbered_depth;			/* 3.0 */

	/* R3.1 classes */
	struct {
		int	actions, firing, melee, morale;
	} cls[CROWN_NCLASS];

	/* R3.3, R3.4 actions: cost and whether each counts as a move */
	struct {
		int	cost;
		bool	is_move;
	} action[CROWN_NACTION];
	int	undercrewed_cost_factor;	/* R3.5: x2 */
	int	repeater_shots;			/* R3.6: 3 */
	int	disorder_mod;			/* R3.7: +1 on every die */

	/* R4.1 movement; manhandle 0 when not allowed */
	struct {
		struct crown_dice	normal;
		struct crown_dice	bonus;		/* charge/rout; n 0 = none */
		bool			has_bonus;
		struct crown_dice	road;
		double			manhandle;
	} move[CROWN_NUTYPE];

	/* R4.3 terrain: [terrain][type] */
	struct crown_terrain_move terrain_move[CROWN_NTERRAIN][CROWN_NUTYPE];
	double	stop_short;			/* R4.5: 1 inch */
	double	leader_move;			/* R4.6: 12 inches */
	double	contact_crossing;		/* R4.7: 0.01 inch */
	double	stuck_move_per_stand;		/* R4.3b: 1 inch */
	double	help_reach;			/* R4.3b: helpers within 1 */

	/* R5.2 fractions of stands firing (1 in n) */
	int	fire_moved_one_in;		/* 2 */
	int	fire_column_one_in;		/* 3 */
	int	fire_cavalry_one_in;		/* 2 */

	/* R5.3 weapons */
	struct crown_band weapon[CROWN_NWEAPON][CROWN_NBAND];

	/* R5.4 fire modifiers */
	struct {
		int	target_cavalry;		/* -1 */
		int	cover[CROWN_NCOVER];	/* 0, +1, +2 */
		int	target_skirmishers;	/* +1 */
		int	disordered;		/* +1 */
		int	rallied;		/* +1 */
	} fire_mod;

	/* R5.5, R5.6 cover and sight; building: see building[] (R11.1) */
	enum crown_cover terrain_cover[CROWN_NTERRAIN];
	double	wall_cover_distance;		/* 2 inches */
	double	thick_woods_sight;		/* 2 inches */

	/* R6.2 guns: bands by [type][gun], casualties by row */
	struct crown_band gun_band[CROWN_NUTYPE][CROWN_NGUN][CROWN_NBAND];
	int	art_nrows;
	struct {
		int	max_score;		/* row applies up to this score */
		int	casualties[CROWN_NBAND];
	} art_row[CROWN_MAX_ART_ROWS];
	int	ricochet_score;			/* R6.3: -2 or below */
	int	ricochet_factor;		/* R6.3: x2 */
	int	min_crew[CROWN_NUTYPE];		/* R6.4 */
	struct {
		bool	cls[CROWN_NCLASS];	/* regular, veteran infantry */
		int	min_original;		/* 1 original crew left */
		double	reach;			/* helpers within, inches */
	} crew_replace;				/* R6.4 */
	int	gun_retire_max;			/* R6.5: keeps gun to retire 1 */

	/* R7 morale */
	int			morale_nrows;
	struct crown_morale_row	morale_row[CROWN_MAX_MORALE_ROWS];
	struct crown_morale_mods morale_mod;
	double	morale_trigger_radius;		/* R7.1: rout within 12 */
	int	charge_max_casualty_pct;	/* R7.5: 60 */
	int	retire_at_stands;		/* R7.5: 1 stand left */

	/* R8 rout and rally */
	double	rally_radius;			/* R8.3: 2 inches */
	int	rally_first_half_turn;		/* R8.3: from 2nd of rout */
	int	rally_target;			/* R8.4: 5 or less */
	int	rally_officer;			/* R8.4: -1 */
	int	rally_general;			/* R8.4: -2 */
	int	rally_max_failures;		/* R8.5: 2 */
	int	rally_max_routs;		/* R8.5: routed twice: no rally */
	int	rallied_dice_mod;		/* R8.6: +1 */

	/* R9 melee */
	int	melee_charging;			/* R9.5: -1 */
	int	melee_per_stand;		/* R9.5: -1 */
	int	melee_rear_cap_per_stand;	/* R9.5: 2 */
	int	melee_cap_per_stand;		/* R9.5: 1 */
	int	melee_flank_first_stands;	/* R9.4: 1 */
	int	melee_max_rounds;		/* R9.8: 4 */
	int	melee_part_moves;		/* R9.8: retires 1 move */
	bool	half_bonus_up;			/* R9.1: rounds up */
	int	lance_first_round;		/* R9.9: -1 */

	/* R10 leaders */
	struct {
		int	imperial_units_per_officer_min;	/* 2 */
		int	imperial_units_per_officer_max;	/* 3 */
		int	imperial_generals;		/* 1 */
		int	republican_split_year;		/* 1865 */
		int	early_general_units;		/* 4 */
		int	early_units_per_officer;	/* 3 */
		int	early_generals;			/* 1 */
		int	late_units_per_officer;		/* 3 */
		int	late_generals;			/* 1 */
	} leaders;
	int	leader_bonus_min, leader_bonus_max;	/* R10.2: -1, +2 */
	int	leader_kill_die;			/* R10.3: 10 */
	enum crown_band_name leader_fire_band;	/* R10.4: long */
	enum crown_cover leader_fire_cover;	/* R10.4: hard */

	/* R11 buildings, class 1..nbuilding_class at index 0.. */
	int	nbuilding_class;		/* R11.1: 5 */
	struct {
		enum crown_cover cover;
		int		 casualties;	/* to destroy its cover */
		int		 capacity;	/* stands */
	} building[CROWN_MAX_BUILDING_CLASS];
	int	building_siege_mod;		/* R11.2: -2 */
	int	average_die[6];			/* R11.3: 2 3 3 4 4 5 */

	/* R12 troop generation */
	int			troop_nrows;
	struct crown_troop_row	troop[CROWN_MAX_TROOP_ROWS];

	/*
	 * The dice (the `dice` section): the lowest face of a die of n
	 * sides, die_low[n] (the D10 reads 0-9, a D6 1-6), -1 for a die
	 * the rules do not have; and the die of each roll, by its sides.
	 */
	int	die_low[CROWN_MAX_SIDES + 1];
	int	fire_die;			/* R5.1: D10 */
	int	gun_die;			/* R6.2: D10 */
	int	morale_die;			/* R7.1: D10 */
	int	rally_die;			/* R8.4: D10 */
	int	melee_die;			/* R9.5: D10 */
	int	muster_die;			/* R12.1: D10 */

	/* R13.1 rulings: D6, defender on 1..ruling_defender_max */
	int	ruling_die;
	int	ruling_defender_max;
	/* R13.1: distances judged to the hundredth of an inch positions are
	 * kept to (crown_rules_within); false for a rules file without
	 * R13.1's hundredths, as the campaigns made before it were played */
	bool	hundredths;
};

/*
 * Load a rules file.  Every problem goes to d (file:line:col and the R-id
 * of the section); returns 0, CROWN_EINVALID or CROWN_ENOTFOUND.  On
 * success *out is owned by the caller (crown_rules_free).
 */
int	crown_rules_load(struct crown_rules **out, const char *path,
	    struct crown_diags *d);
int	crown_rules_parse(struct crown_rules **out, const char *file,
	    const char *buf, size_t len, struct crown_diags *d);
void	crown_rules_free(struct crown_rules *);

/*
 * Where the rules come from when no --rules is given: the campaign's
 * rules.yaml, else rules/<id>.yaml beside the executable (a source tree),
 * else CROWN_DATADIR/rules/<id>.yaml.  Returns a path (caller frees) or
 * NULL.
 */
char	*crown_rules_find(const char *id);

/* The lowest face of the rules' die of `sides' sides (0 for the D10, 1
 * for a D6): what a script or a draw of that die reads. */
int	crown_rules_die_low(const struct crown_rules *, int sides);

/* R9.1: a charge bonus halved ("charge, half bonus"), rounded the way
 * the rules say (up in the published rules). */
int	crown_rules_half_bonus(const struct crown_rules *, int bonus);
/* The most a roll can come to, every die on its highest face. */
int	crown_rules_dice_max(const struct crown_rules *,
	    const struct crown_dice *);

/* "1D6+4", "2D6", "4" (no dice) into buf. */
void	crown_rules_dice_str(char *buf, size_t len, const struct crown_dice *);

/* R6.2: casualties for a gun's modified score in band b (R6.3 applied). */
int	crown_rules_art_casualties(const struct crown_rules *, int score,
	    enum crown_band_name b);
/* R7.2: the result of a modified score on a column. */
enum crown_morale_result crown_rules_morale(const struct crown_rules *,
	    int score, enum crown_morale_column);
/* R5.3, R6.2, R13.1: the band of a range (exactly on an edge: the nearer
 * band); CROWN_NBAND when out of range. */
enum crown_band_name crown_rules_band(const struct crown_band *bands,
	    double range);
/*
 * A distance as the rules judge it against their thresholds (ranges,
 * radii, reaches, a wall's cover): with R13.1's hundredths, taken to the
 * hundredth of an inch first, so that from y 10.10 to 16.10, which is
 * 6.000000000000002 in doubles, is 6.00.  crown_rules_within is d within
 * limit so judged.
 */
double	crown_rules_distance(const struct crown_rules *, double d);
bool	crown_rules_within(const struct crown_rules *, double d,
	    double limit);

#endif
