/*
 * types.c: names of the game's enumerations as written in files, and
 * those names as words for a reader.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "crown/types.h"
#include "crown/xalloc.h"

const char *const crown_class_names[CROWN_NCLASS] = {
	"militia", "poor", "regular", "veteran", "elite"
};
const char *const crown_utype_names[CROWN_NUTYPE] = {
	"infantry", "cavalry", "skirmishers", "horse_artillery",
	"foot_artillery", "siege_artillery", "wagon"
};
/* "none" is never written: units without a gun have no gun key */
const char *const crown_gun_names[CROWN_NGUN] = {
	NULL, "cannon", "howitzer"
};
const char *const crown_weapon_names[CROWN_NWEAPON] = {
	"civilian", "flintlock", "smoothbore", "rifled_musket", "rifle",
	"repeating_rifle", "ml_carbine", "pistol", "lance"
};
const char *const crown_terrain_names[CROWN_NTERRAIN] = {
	"hill", "gully", "stream", "ford", "river", "scrub", "light_woods",
	"thick_woods", "walls", "road", "building", "earthworks"
};
const char *const crown_action_names[CROWN_NACTION] = {
	"move", "charge", "fire", "reload", "manhandle", "limber", "unlimber",
	"formation", "reform", "help", "rally", "hold"
};
const char *const crown_formation_names[CROWN_NFORMATION] = {
	"line", "column"
};
const char *const crown_status_names[CROWN_NSTATUS] = {
	"ok", "routing", "lost"
};
const char *const crown_edge_names[CROWN_NEDGE] = {
	"north", "south", "east", "west"
};
const char *const crown_rank_names[CROWN_NRANK] = {
	"officer", "general"
};
const char *const crown_column_names[CROWN_NCOLUMN] = {
	"normal", "being_charged", "charging"
};
const char *const crown_result_names[CROWN_NRESULT] = {
	"ok", "hold", "hold_disordered", "retire_1", "retire_2", "rout",
	"fire_close", "fire_medium", "fire_long", "charge", "charge_half",
	"charge_no_bonus"
};

const char *
crown_words(char *buf, size_t len, const char *id)
{
	char	*p;

	if (len == 0)
		return buf;
	snprintf(buf, len, "%s", id != NULL ? id : "");
	for (p = buf; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	return buf;
}

char *
crown_words_dup(const char *id)
{
	size_t	 n = id != NULL ? strlen(id) + 1 : 1;
	char	*s = xmalloc(n);

	crown_words(s, n, id);
	return s;
}
