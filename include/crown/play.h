/*
 * play.h: playing one turn, the one path from the orders' bytes to a
 * turn's files: the orders read and validated (crown_campaign_orders),
 * the salt, the resolution, the new state and events emitted and the
 * reports and the map rendered.  crown resolve, turn, turn --dry-run,
 * rerun and verify all play through crown_play, and lay what it returns
 * out as files with crown_play_files.
 */
#ifndef CROWN_PLAY_H
#define CROWN_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/events.h"
#include "crown/orders.h"
#include "crown/outputs.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"

/* What a turn is played from. */
struct crown_play_input {
	const struct crown_state	*before;	/* the turn's start */
	const struct crown_rules	*rules;
	/* the orders files, each named by its path (diagnostics quote
	 * it), as read from files, a mail or a commit */
	const struct crown_outputs	*orders;
	/*
	 * The dice: a script (crown resolve --dice-script; the caller's,
	 * rolled from where it stands), else the campaign's of secret and
	 * the salt.  With neither, crown_play stops once the orders are
	 * read and validated and their salt taken (CROWN_PLAY_READ).
	 */
	struct crown_dice		*dice;
	const unsigned char		*secret;
	/* a campaign turn of format 3: the turn's key of the dice chain,
	 * k(t) (dice.c), which keys its dice in the secret's place (secret
	 * is then not needed) and which the turn records as dice-key */
	const unsigned char		*key;
	/* the salt: NULL for that of the orders; else this one (a rerun
	 * keeps main's, dice.c) */
	const unsigned char		*salt;
	/* the keying of the turns made before salts: none */
	bool				 unsalted;
	/* the report templates' directory; NULL: crown_templates_find() */
	const char			*templates;
	/* the next orders deadline the new state records (game.deadline):
	 * NULL keeps the old one, "" clears it */
	const char			*deadline;
	/* called after each step with its name (crown resolve --timings);
	 * may be NULL */
	void				(*mark)(void *, const char *step);
	void				*mark_arg;
};

/* How far a turn got: on an error, the step that failed. */
enum crown_play_step {
	CROWN_PLAY_READ,	/* reading and validating the orders */
	CROWN_PLAY_RESOLVE,	/* the dice and the resolution */
	CROWN_PLAY_EMIT,	/* the new state and the events as YAML */
	CROWN_PLAY_RENDER,	/* the reports and the map */
	CROWN_PLAY_DONE
};

/* One turn played in memory. */
struct crown_turn {
	int			 turn;		/* the turn played */
	enum crown_play_step	 step;
	/* the orders as read, in the order given, and what the turn
	 * commits of each (orders_text.v[i], named orders/turn-NNN/SIDE.yaml:
	 * orders[i]'s file as it came when it is an orders file as it is,
	 * else its orders written as one; the salt is of these bytes) */
	struct crown_orders	**orders;
	size_t			 norders;
	struct crown_outputs	 orders_text;
	bool			 salted;	/* false: the old keying */
	unsigned char		 salt[CROWN_SALT_BYTES];
	bool			 keyed;		/* by a chain key: */
	unsigned char		 key[CROWN_SECRET_BYTES];
	struct crown_state	*after;		/* the new state */
	struct crown_buf	 state_text;	/* as state.yaml */
	struct crown_events	 ev;
	struct crown_buf	 events_text;	/* as events.yaml */
	struct crown_buf	 umpire;	/* the umpire's report.md */
	struct crown_buf	*reports;	/* reports[i]: the report of
						 * side after->sides[i] */
	size_t			 nreports;
	struct crown_buf	 map;		/* map.svg */
	char			*headline;	/* without "Turn N: " */
};

/*
 * Play the turn after in->before: 0, with *out filled up to
 * CROWN_PLAY_DONE (or CROWN_PLAY_READ without dice); else the error,
 * problems to d, and out->step the step that failed (out holds what the
 * steps before it made: the orders read, when the resolution failed).
 * The same inputs give the same bytes, which is what verify and rerun
 * rely on.  Free *out with crown_turn_release, whatever the result.
 */
int	crown_play(struct crown_turn *out, const struct crown_play_input *,
	    struct crown_diags *d);
/*
 * crown_play in its two halves, for a command that checks the orders
 * read, or takes the dice, between them: crown_play_read reads and
 * validates the orders and takes the salt (out->orders, out->salt);
 * crown_play_resolve goes on from there with the dice of in (the salt
 * is t->salt, which the caller may have set), to CROWN_PLAY_DONE.
 */
int	crown_play_read(struct crown_turn *out,
	    const struct crown_play_input *, struct crown_diags *d);
int	crown_play_resolve(struct crown_turn *t,
	    const struct crown_play_input *, struct crown_diags *d);
void	crown_turn_release(struct crown_turn *);

/* Where crown_play_files lays a turn out. */
enum crown_play_layout {
	/* a campaign's commit: orders/turn-NNN/SIDE.yaml, state.yaml,
	 * turns/turn-NNN/ (events.yaml, dice-salt when salted, dice-key when
	 * keyed,
	 * report.md, report-SIDE.md, map.svg) */
	CROWN_PLAY_COMMIT,
	/* crown resolve --out DIR: report.md, report-SIDE.md, map.svg,
	 * events.yaml and, last, state.yaml */
	CROWN_PLAY_FLAT
};

/* out += the files of a turn played (CROWN_PLAY_DONE). */
void	crown_play_files(struct crown_outputs *out,
	    const struct crown_turn *, enum crown_play_layout);

/*
 * files += each of paths, named by its path, read once: what crown_play
 * plays and salts.  Every file is tried; the first error (a missing file
 * before any other) is returned, problems to d.
 */
int	crown_play_read_files(struct crown_outputs *files,
	    const char *const *paths, size_t n, struct crown_diags *d);

#endif
