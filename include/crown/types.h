/*
 * types.h: the game's enumerations and their names as written in files.
 * The names are the FORMATS.md contract; the arrays index by the enums.
 */
#ifndef CROWN_TYPES_H
#define CROWN_TYPES_H

/* R3.1 morale classes */
enum crown_class {
	CROWN_MILITIA,
	CROWN_POOR,
	CROWN_REGULAR,
	CROWN_VETERAN,
	CROWN_ELITE,
	CROWN_NCLASS
};

/* R1.2, R4.1 troop types */
enum crown_utype {
	CROWN_INFANTRY,
	CROWN_CAVALRY,
	CROWN_SKIRMISHERS,
	CROWN_HORSE_ART,
	CROWN_FOOT_ART,
	CROWN_SIEGE_ART,
	CROWN_WAGON,
	CROWN_NUTYPE
};

/* R6.1 guns */
enum crown_gun {
	CROWN_GUN_NONE,
	CROWN_CANNON,
	CROWN_HOWITZER,
	CROWN_NGUN
};

/* R5.3 weapons */
enum crown_weapon {
	CROWN_CIVILIAN,
	CROWN_FLINTLOCK,
	CROWN_SMOOTHBORE,
	CROWN_RIFLED_MUSKET,
	CROWN_RIFLE,
	CROWN_REPEATING_RIFLE,
	CROWN_ML_CARBINE,
	CROWN_PISTOL,
	CROWN_LANCE,
	CROWN_NWEAPON
};

/* FORMATS.md terrain types (R4.3, R5.5, R11) */
enum crown_terrain {
	CROWN_HILL,
	CROWN_GULLY,
	CROWN_STREAM,
	CROWN_FORD,
	CROWN_RIVER,
	CROWN_SCRUB,
	CROWN_LIGHT_WOODS,
	CROWN_THICK_WOODS,
	CROWN_WALLS,
	CROWN_ROAD,
	CROWN_BUILDING,
	CROWN_EARTHWORKS,
	CROWN_NTERRAIN
};

/* R3.4 actions */
enum crown_action {
	CROWN_MOVE,
	CROWN_CHARGE,
	CROWN_FIRE,
	CROWN_RELOAD,
	CROWN_MANHANDLE,
	CROWN_LIMBER,
	CROWN_UNLIMBER,
	CROWN_FORMATION,
	CROWN_REFORM,
	CROWN_HELP,
	CROWN_RALLY,
	CROWN_HOLD,
	CROWN_NACTION
};

enum crown_formation {
	CROWN_LINE,
	CROWN_COLUMN,
	CROWN_NFORMATION
};

enum crown_status {
	CROWN_OK_STATUS,
	CROWN_ROUTING,
	CROWN_LOST,
	CROWN_NSTATUS
};

enum crown_edge {
	CROWN_NORTH,
	CROWN_SOUTH,
	CROWN_EAST,
	CROWN_WEST,
	CROWN_NEDGE
};

enum crown_rank {
	CROWN_OFFICER,
	CROWN_GENERAL,
	CROWN_NRANK
};

/* R7.2 columns of the morale table */
enum crown_morale_column {
	CROWN_COL_NORMAL,
	CROWN_COL_CHARGED,
	CROWN_COL_CHARGING,
	CROWN_NCOLUMN
};

/* R7.2 results of the three columns, as written in events */
enum crown_morale_result {
	CROWN_R_OK,
	CROWN_R_HOLD,
	CROWN_R_HOLD_DISORDERED,
	CROWN_R_RETIRE_1,
	CROWN_R_RETIRE_2,
	CROWN_R_ROUT,
	CROWN_R_FIRE_CLOSE,
	CROWN_R_FIRE_MEDIUM,
	CROWN_R_FIRE_LONG,
	CROWN_R_CHARGE,
	CROWN_R_CHARGE_HALF,
	CROWN_R_CHARGE_NO_BONUS,
	CROWN_NRESULT
};

extern const char *const crown_class_names[CROWN_NCLASS];
extern const char *const crown_utype_names[CROWN_NUTYPE];
extern const char *const crown_gun_names[CROWN_NGUN];
extern const char *const crown_weapon_names[CROWN_NWEAPON];
extern const char *const crown_terrain_names[CROWN_NTERRAIN];
extern const char *const crown_action_names[CROWN_NACTION];
extern const char *const crown_formation_names[CROWN_NFORMATION];
extern const char *const crown_status_names[CROWN_NSTATUS];
extern const char *const crown_edge_names[CROWN_NEDGE];
extern const char *const crown_rank_names[CROWN_NRANK];
extern const char *const crown_column_names[CROWN_NCOLUMN];
extern const char *const crown_result_names[CROWN_NRESULT];

static inline int
crown_is_artillery(int utype)
{
	return utype == CROWN_HORSE_ART || utype == CROWN_FOOT_ART ||
	    utype == CROWN_SIEGE_ART;
}

/* An identifier of the rules as words for a reader: "rifled_musket" is
 * "rifled musket".  Into buf (of len bytes, cut short if it must be);
 * returns buf. */
const char *crown_words(char *buf, size_t len, const char *id);
/* The same, whole, in a string of its own (NULL as ""); caller frees. */
char	*crown_words_dup(const char *id);

#endif
