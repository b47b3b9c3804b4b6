/*
 * report-model.h: what the files of the report model share inside
 * report/ (report.c: the turn's events, units and leaders; carried.c: the
 * orders, the sides' tallies and what needs the umpire's look; render.c:
 * the models made and rendered, calling both).  Not a public header:
 * nothing outside report/ includes it.
 */
#ifndef CROWN_REPORT_MODEL_H
#define CROWN_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/events.h"
#include "crown/geom.h"
#include "crown/report.h"
#include "crown/template.h"

/* How much of an event a model shows. */
enum sight {
	SIGHT_NONE,
	SIGHT_SEEN,		/* without dice or sentence */
	SIGHT_FULL
};

/*
 * What every model of a turn shares.  The models of the umpire's report,
 * each side's and the map live in one tree (template.h); an event or a
 * unit is made into a map once and put, uncopied, in each list that shows
 * it.
 */
struct shared {
	const struct crown_report_input	*in;
	struct crown_tval		*root;	/* owns the tree */
	struct crown_tval		*made;	/* the maps below, unrendered */
	/* events by the unit they name: ev_head[unit index of the state
	 * after the turn] is its first event, ev_next[] the one after (both
	 * SIZE_MAX-terminated), so a unit's events cost no scan of all */
	size_t				*ev_head;
	size_t				*ev_next;
	struct crown_tval		**ev_full;	/* per event, or NULL */
	struct crown_tval		**ev_seen;
	struct crown_tval		**unit;		/* per unit after */
	struct crown_tval		**orders;	/* per orders file */
	/* per unit after: where its last ordered move ends (the
	 * routine check below) */
	struct crown_point		 *dest;
	bool				 *has_dest;
	struct crown_tval		**unit_orders;	/* per unit after */
	struct crown_tval		**ev_action;	/* per order_skipped
							 * event: its action */
	struct event_ask		 *ev_ask;	/* per event and sight:
							 * its getter's */
	struct unit_ask			 *unit_ask;	/* per unit after */
	struct ev_sides			 *ev_sides;	/* per event */
	/* the engine's view of the state after, for the cover a unit
	 * stands in (R5.5, R11.1); made at need */
	struct crown_engine		 *view;
};

/* The sides of an event's actor and of the unit it aims at (either
 * NULL), which sight() asks for in every side's model, some events more
 * than once: looked up the first time. */
struct ev_sides {
	const char	*actor, *target;
	bool		 done;
};

/* What a unit's map needs to make its values when asked (unit_get). */
struct unit_ask {
	const struct shared	*sh;
	size_t			 i;		/* in->after->units[i] */
};

/* What an event's map needs to make its values when asked (event_get). */
struct event_ask {
	const struct shared	*sh;
	size_t			 i;		/* in->events->v[i] */
	int			 how;		/* enum sight */
};

struct model {
	const struct crown_report_input	*in;
	const char			*side;	/* NULL: the umpire's */
	struct shared			*sh;
};


/* "foot_artillery" -> "foot artillery", under key. */
void	crown_rm_put_words(struct crown_tval *m, const char *key,
	    const char *name);
/* A flag named prefix_name ("kind_fire"), true. */
void	crown_rm_put_flag(struct crown_tval *m, const char *prefix,
	    const char *name);
/* A point as a map of x, y and "pos". */
void	crown_rm_put_point(struct crown_tval *m, const char *key,
	    struct crown_point p);
/* A unit of the state after the turn, or else before it; NULL. */
const struct crown_unit *crown_rm_find_unit(const struct model *mo,
	    const char *id);
/* A side's name (its id when it has none; NULL for NULL). */
const char *crown_rm_side_name(const struct model *mo, const char *id);
/* The name of a unit, leader or building for sentences. */
const char *crown_rm_thing_name(const struct model *mo, const char *id);
/* How much of event e the model's reader sees. */
enum sight crown_rm_sight(const struct model *mo,
	    const struct crown_event *e);
/* The map of event i as `how` shows it, made once for every model. */
const struct crown_tval *crown_rm_event_map(const struct model *mo,
	    size_t i, enum sight how);

/* What every model of a turn shares, made and freed once a turn. */
void	crown_rm_shared_init(struct shared *sh,
	    const struct crown_report_input *in);
void	crown_rm_shared_release(struct shared *sh);
/* report.c: the half-turns' events, the units and the leaders. */
void	crown_rm_halves(struct crown_tval *root, const struct model *mo);
void	crown_rm_units(struct crown_tval *root, const struct model *mo);
void	crown_rm_leaders(struct crown_tval *root, const struct model *mo);

/* carried.c: the parts of a model that come from the orders. */
void	crown_rm_sides(struct crown_tval *root,
	    const struct model *mo);
void	crown_rm_orders(struct crown_tval *root,
	    const struct model *mo);
void	crown_rm_skipped(struct crown_tval *root,
	    const struct model *mo);
void	crown_rm_attention(struct crown_tval *root,
	    const struct model *mo);

#endif
