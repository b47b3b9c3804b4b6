/*
 * orders.h: a side's orders for one game turn (FORMATS.md "Orders"), and
 * their validation against the state and the rules before any die is
 * rolled.
 */
#ifndef CROWN_ORDERS_H
#define CROWN_ORDERS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/geom.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/types.h"

struct crown_action_order {
	enum crown_action	 kind;
	unsigned		 line, col;
	/* move, manhandle: a destination or path; optional final facing */
	struct crown_point	*path;
	size_t			 npath;
	bool			 has_face;
	int			 face;
	bool			 road;		/* asks for the road bonus */
	/* charge, fire, help: the target id; fire at a building is
	 * "building:<id>" in the file and target_building here */
	char			*target;
	bool			 target_building;
	enum crown_formation	 formation;	/* formation */
};

struct crown_unit_orders {
	char				*unit;
	unsigned			 line, col;
	struct crown_action_order	*actions;
	size_t				 nactions;
};

struct crown_leader_orders {
	char			*leader;
	unsigned		 line, col;
	bool			 has_move;
	struct crown_point	 to;
	unsigned		 move_line, move_col;
	char			*attach;	/* unit id */
	bool			 detach;
};

struct crown_orders {
	char				*file;
	char				*game;
	int				 turn;
	char				*side;
	/* where game, turn and side are given (0: not given, or not
	 * known: the problem is put at 1:1) */
	unsigned			 game_line, game_col;
	unsigned			 turn_line, turn_col;
	unsigned			 side_line, side_col;
	char				*seed;		/* optional: the side's
							 * own entropy */
	struct crown_unit_orders	*units;
	size_t				 nunits;
	struct crown_leader_orders	*leaders;
	size_t				 nleaders;
};

/*
 * The footprint of u where the move or manhandle a (npath > 0) would
 * take it: its last point, facing as ordered, else along the last leg,
 * else as now.  R7.4 judges a holding unit's move by it, at check and at
 * resolution alike.
 */
/* R7.4: the move of a (to its destination) brings u closer to some
 * enemy. */
bool	crown_orders_closer_to_enemy(const struct crown_state *,
	    const struct crown_rules *, const struct crown_unit *u,
	    const struct crown_action_order *a);
void	crown_orders_destination_quad(struct crown_quad *out,
	    const struct crown_rules *, const struct crown_unit *,
	    const struct crown_action_order *);

/* Parse an orders file (syntax and types only).  Every problem goes to d;
 * 0, CROWN_EINVALID or CROWN_ENOTFOUND.  With CROWN_EINVALID *out may
 * still hold what could be read (entries with bad parts have a NULL id or
 * an action kind of CROWN_NACTION), so that validation can report the rest
 * of the file's problems; the caller frees it either way. */
int	crown_orders_load(struct crown_orders **out, const char *path,
	    struct crown_diags *d);
int	crown_orders_parse(struct crown_orders **out, const char *file,
	    const char *buf, size_t len, struct crown_diags *d);
void	crown_orders_free(struct crown_orders *);

/*
 * Check parsed orders against the state the turn starts from and the
 * rules: game, turn and side, units of the side, duplicates, class budget
 * (R3.1, R3.5), one move (R3.3), loading (R3.6), limbered guns (R6.6),
 * charges (R7.5), routing units (R8.2), targets.  Every problem goes to d
 * with the rule id; returns 0 or CROWN_EINVALID.
 */
int	crown_orders_validate(const struct crown_orders *,
	    const struct crown_state *, const struct crown_rules *,
	    struct crown_diags *d);
/* The same with the state's terrain grid (crown_terrain_grid_new) made
 * once by the caller, who frees it: for checking many orders against one
 * state (crown rerun checks each entry on its own).  NULL: made here. */
int	crown_orders_validate_grid(const struct crown_orders *,
	    const struct crown_state *, const struct crown_rules *,
	    struct crown_geom_grid *terrain, struct crown_diags *d);

/*
 * What the state itself must satisfy before any orders are played on it:
 * elite units only where game.allow_elite (R3.2).  crown new checks it of
 * a scenario, crown check, resolve and turn of every state.  Every problem
 * goes to d with its place; returns 0 or CROWN_EINVALID.
 */
int	crown_orders_validate_state(const struct crown_state *,
	    struct crown_diags *d);

/*
 * Validate a set: the state as above, each file as crown_orders_validate,
 * and at most one file per side.
 */
int	crown_orders_validate_set(struct crown_orders *const *, size_t n,
	    const struct crown_state *, const struct crown_rules *,
	    struct crown_diags *d);

#endif
