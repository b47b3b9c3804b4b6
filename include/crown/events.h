/*
 * events.h: the structured log of a turn (FORMATS.md "Outputs"): one
 * entry per thing that happened, with every die, its modifiers one by
 * one, the result, the rule and a sentence.
 */
#ifndef CROWN_EVENTS_H
#define CROWN_EVENTS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/geom.h"
#include "crown/xalloc.h"

enum crown_phase {
	CROWN_PHASE_CHARGE,
	CROWN_PHASE_ACTIONS,
	CROWN_PHASE_MELEE,
	CROWN_PHASE_MORALE,
	CROWN_NPHASE
};

extern const char *const crown_phase_names[CROWN_NPHASE];

/* One modifier of a die: "militia +2 (R3.1)". */
struct crown_mod {
	char	*name;
	int	 value;
	char	*rule;
};

struct crown_die_rec {
	int			 die;		/* faces: 6 or 10 */
	int			 roll;
	struct crown_mod	*mods;
	size_t			 nmods;
	size_t			 capmods;
	int			 score;		/* roll + modifiers */
	char			*purpose;
	char			*who;		/* stand, figure... optional */
};

struct crown_event {
	unsigned		 seq;
	int			 turn;
	char			*half;		/* phasing side id */
	enum crown_phase	 phase;
	char			*kind;
	char			*unit;
	char			*leader;
	char			*target;
	struct crown_die_rec	*dice;
	size_t			 ndice;
	size_t			 capdice;
	char			*result;
	bool			 has_casualties;
	int			 casualties;
	char			*rule;
	char			*text;
	/* optional details */
	bool			 has_from, has_to;
	struct crown_point	 from, to;
	bool			 has_at;	/* fire: where both stood */
	struct crown_point	 at, target_at;
	bool			 has_range;
	double			 range;
	char			*band;
	char			*reason;	/* order_skipped, ruling; a
						 * move cut short: why */
	char			*reason_rule;	/* its rule, when not `rule` */
	char			*order;		/* the action ordered */
	/* a move: the inches it went and the length of its way */
	bool			 has_distance;
	double			 distance, path_length;
};

struct crown_events {
	struct crown_event	*v;
	size_t			 n;
	size_t			 cap;
};

/* Append an event; returns its index (pointers move as the log grows). */
size_t	crown_events_add(struct crown_events *, int turn, const char *half,
	    enum crown_phase, const char *kind, const char *unit,
	    const char *rule);
struct crown_event *crown_events_at(struct crown_events *, size_t i);
void	crown_event_set(char **field, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Add a die to an event; returns its index in ev->dice. */
size_t	crown_event_die(struct crown_event *, int die, int roll,
	    const char *purpose);

/* Add a modifier to a die and to its score. */
void	crown_die_mod(struct crown_die_rec *, const char *name, int value,
	    const char *rule);
/* The same with the name formatted (no length limit: unit and leader
 * names are the players'). */
void	crown_die_modf(struct crown_die_rec *, int value, const char *rule,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void	crown_die_vmodf(struct crown_die_rec *, int value, const char *rule,
	    const char *fmt, va_list) __attribute__((format(printf, 4, 0)));

/* "7", "6.5", "6.25": inches for sentences, to the hundredth without
 * trailing zeros.  Caller frees. */
char	*crown_inches(double);

/* "3 (roll 1, militia +2)" for sentences; caller frees. */
char	*crown_die_describe(const struct crown_die_rec *);

int	crown_events_emit(struct crown_buf *, const struct crown_events *);
void	crown_events_release(struct crown_events *);

#endif
