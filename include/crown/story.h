/*
 * story.h: a unit's story over the campaign, turn by turn, as the history
 * holds it: every event naming it as actor or target, and for each loss
 * the event's dice with their modifiers and the order behind it, with its
 * place in the committed orders file.  crown blame prints it; the unit
 * pages of crown site show it.
 */
#ifndef CROWN_STORY_H
#define CROWN_STORY_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/history.h"
#include "crown/orders.h"
#include "crown/state.h"
#include "crown/yaml.h"

/* An event naming a unit (as unit or target): the index of the turn. */
struct crown_story_mention {
	const char	*id;		/* in the events' tree */
	size_t		 event;
};

/* What a turn's commit holds for the story: its events, and its orders
 * once crown_story_turn_orders has read them. */
struct crown_story_turn {
	struct crown_ydoc		 *events;
	struct crown_orders		**orders;	/* one per side that
							 * sent some */
	size_t				  norders;
	/* by id, then event: a unit's events without a scan of all */
	struct crown_story_mention	 *mentions;
	size_t				  nmentions;
};

/* Does an event of the turn name unit id? */
bool	crown_story_names(const struct crown_story_turn *, const char *id);

/* The events of turn t, from its commit. */
int	crown_story_turn_load(struct crown_story_turn *,
	    struct crown_history *, const char *commit, int t,
	    struct crown_diags *d);
/* Its orders too, which crown_story_unit needs to explain a loss. */
int	crown_story_turn_orders(struct crown_story_turn *,
	    struct crown_history *, const char *commit, int t,
	    struct crown_diags *d);

/* The figures unit id lost by the turn's events. */
long	crown_story_lost(const struct crown_story_turn *, const char *id);
void	crown_story_turn_release(struct crown_story_turn *);

/*
 * One line of a story: level 0 an event ("4 fire (actions, R5.1): ..."),
 * 1 a loss it caused ("lost 1 figure (fire, R5.1)"), 2 a die of that
 * event or the order behind the loss.
 */
struct crown_story_line {
	int	 level;
	char	*text;
};

struct crown_story {
	struct crown_story_line	*v;
	size_t			 n, cap;
	long			 lost;		/* figures, over the events */
	size_t			 events;	/* lines of level 0 */
};

/*
 * The lines of the turn's events that name unit id, appended to out.
 * With side not NULL only that side's orders are shown: the order behind
 * a loss from another side's file is said to be theirs, not quoted.
 */
void	crown_story_unit(struct crown_story *out,
	    const struct crown_story_turn *, const char *id, const char *side);
void	crown_story_release(struct crown_story *);

/* "4 stands, 16 figures, ok, at (30.00, 22.00) facing 180" of unit id
 * in s; NULL when s has no such unit.  Caller frees. */
char	*crown_story_strength(const struct crown_state *s, const char *id);

/*
 * The same of unit id after the turn of `commit', from its state.yaml,
 * reading only the unit's own part of it (and the game, table and sides
 * it is checked against) where the file is laid out as crown writes it.
 * *out NULL when the state has no such unit; label names the turn in
 * diagnostics ("turn-3").  Caller frees *out.
 */
int	crown_story_strength_read(char **out, struct crown_history *,
	    const char *commit, const char *label, const char *id,
	    struct crown_diags *d);

#endif
