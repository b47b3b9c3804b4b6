/*
 * campaign.h: a campaign repository as crown sees it (FORMATS.md
 * "Campaign repository"): the turns on main and what a turn starts from
 * (play.h plays one).  Shared by new, turn, verify, rerun and the other
 * history commands; all git goes through history.h.
 */
#ifndef CROWN_CAMPAIGN_H
#define CROWN_CAMPAIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/dice.h"
#include "crown/events.h"
#include "crown/history.h"
#include "crown/orders.h"
#include "crown/report.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"

/* Files of the campaign (paths from its top) and of its .git directory. */
#define CROWN_CAMPAIGN_SCENARIO	"scenario.yaml"
#define CROWN_CAMPAIGN_RULES	"rules.yaml"
#define CROWN_CAMPAIGN_STATE	"state.yaml"
#define CROWN_CAMPAIGN_IGNORE	".gitignore"
/* what crown keeps in the work tree outside the history (crown inbox) */
#define CROWN_CAMPAIGN_IGNORE_TEXT \
	"/orders/pending/\n/orders/late/\n/orders/rejected/\n" \
	"/orders/inbox.log\n/outbox/\n"
#define CROWN_CAMPAIGN_PENDING	"orders/pending"
#define CROWN_CAMPAIGN_REVEALED	"secret.hex"	/* committed by reveal */
#define CROWN_CAMPAIGN_SECRET	"crown-secret"	/* in .git, never committed */
#define CROWN_CAMPAIGN_EVENTS	"events.yaml"
#define CROWN_CAMPAIGN_MAP	"map.svg"	/* turns/turn-000/ too */
/* turns/turn-NNN/dice-salt: the turn's salt as 64 hex digits and a
 * newline (dice.c); turns made before salts have none */
#define CROWN_CAMPAIGN_DICE_SALT "dice-salt"
/* turns/turn-NNN/dice-key: the turn's key of the dice chain, k(t), in
 * the same form (dice.c); turns of format 2 have none */
#define CROWN_CAMPAIGN_DICE_KEY	"dice-key"
/*
 * The campaign's format: the files crown writes into a campaign, their
 * keys and the reports, one number for every release that changes them
 * (doc/formats.md).  format.yaml ("format: 2") records it from turn 0 on;
 * a campaign without one was written by the first release: format 1.
 */
#define CROWN_CAMPAIGN_FORMAT	3
#define CROWN_CAMPAIGN_FORMAT_FILE "format.yaml"
#define CROWN_REVEAL_TAG	"reveal"
#define CROWN_REPLACED_TAG	"replaced"	/* replaced/turn-N[-k] */
#define CROWN_RERUN_BRANCH	"rerun"		/* rerun/turn-N */
/* a rerun's or an adoption's --reason, a line of its message */
#define CROWN_REASON_KEY	"Reason: "
/* in the message of each turn a rerun commits (rerun.c): "Rerun of turn
 * N with amended orders ..." */
#define CROWN_RERUN_OF		"\nRerun of turn "

/* "orders/turn-007", "turns/turn-007"; caller frees. */
char	*crown_campaign_orders_dir(int turn);
char	*crown_campaign_turn_dir(int turn);

/* The commits of a line of play (main, or a rerun branch). */
struct crown_chain {
	struct crown_hlist	 l;
	int			 last;		/* last turn on the line */
	size_t			*at;		/* at[k]: index of turn k */
	bool			 revealed;
	size_t			 reveal;	/* l.v index of the reveal */
	size_t			 tip;		/* l.v index of the commit the
						 * next turn starts from: the
						 * last turn, or a roster or
						 * deadline change after it */
};

/*
 * Read a line: its root is "Turn 0: ...", each next commit "Turn k: ..."
 * for the next k, and at most one "Reveal: ..." ends it.  CROWN_ENOTFOUND
 * with a diagnostic if ref does not exist; CROWN_EINVALID if the line is
 * not a campaign's.
 */
int	crown_campaign_chain(struct crown_chain *out, struct crown_history *,
	    const char *ref, struct crown_diags *d);
void	crown_chain_release(struct crown_chain *);
/*
 * When each turn of c was played: *times (caller frees) has the commit
 * time of turn k at k, turn 0's first, *n = c->last + 1; and *deadline
 * (caller frees; "" for none) the game.deadline the last turn was
 * played against, of the commit before it (turn 0: "").
 */
int	crown_campaign_played(long long **times, size_t *n, char **deadline,
	    struct crown_history *, const struct crown_chain *c,
	    struct crown_diags *d);

/*
 * Between turns a line may hold the umpire's changes of the players
 * ("Roster: ...", crown roster) and of the deadline ("Deadline: ...",
 * crown deadline): commits that change only those keys of state.yaml
 * (amend.c).  True for such a subject.
 */
bool	crown_campaign_subject_admin(const char *subject);
/*
 * Commit st as the state.yaml of a change on main's tip (c->tip), with
 * message msg, and bring the work tree to it, and mails (NULL: none) to
 * the outbox (crown_advance); id is the new commit.
 */
int	crown_campaign_commit_state(char *id, struct crown_history *,
	    const struct crown_chain *c, const struct crown_state *st,
	    const char *msg, const struct crown_stamp *stamp,
	    const struct crown_outputs *mails, struct crown_diags *d);
/*
 * Does after differ from before only in what a roster or deadline
 * change may change (the players, game.deadline, game.deadline_every,
 * and an old password_sha256 dropped)?  Compared by their emitted bytes.
 */
bool	crown_campaign_admin_only(const struct crown_state *before,
	    const struct crown_state *after);
/* Give to from's players and deadline (a rerun replays a roster or
 * deadline change on its branch); sides are matched by place. */
void	crown_campaign_take_admin(struct crown_state *to,
	    const struct crown_state *from);
/*
 * The deadline the state after a turn records: given (--deadline) when
 * not NULL; else, with game.deadline_every, the last deadline and that
 * long after it (from the last deadline, not from the clock, so a turn
 * played late does not push the next one back); else "" (none).
 * Caller frees.
 */
char	*crown_campaign_next_deadline(const struct crown_state *before,
	    const char *given);
/*
 * A hand edit of a tracked file of the work tree: a file that is
 * neither as the last commit nor as the one before has it (what a
 * killed run leaves) is an edit crown does not undo: CROWN_EINVALID with
 * a diagnostic naming the command that makes the change.
 */
int	crown_campaign_hand_edits(struct crown_history *,
	    const struct crown_chain *c, char *const *dirty, size_t n,
	    struct crown_diags *d);

/*
 * The format of commit (format.yaml; 1 when it has none) into *out: 0, or
 * CROWN_EINVALID with a diagnostic when the file is not a format.
 */
int	crown_campaign_format(int *out, struct crown_history *,
	    const char *commit, struct crown_diags *d);
/* files += format.yaml of this crown's format. */
void	crown_campaign_format_file(struct crown_outputs *files);
/* The diagnostic of a campaign (DIR) in another format than this crown's,
 * named "LABEL:format.yaml". */
void	crown_campaign_format_refuse(struct crown_diags *d, const char *label,
	    const char *dir, int format);
/* "Upgrade: ...": crown upgrade's commit, between turns. */
bool	crown_campaign_subject_upgrade(const char *subject);
/*
 * The campaign's rules text old with the sections and keys of this
 * crown's rules cur that it lacks, each taken with the comments above it
 * and put where cur has it, into out; every line of old stays, in order.
 * *added lists what was added ("dice, R6.2.die"; caller frees).
 * CROWN_EINVALID with diagnostics (named file) when old cannot take them
 * as text (a flow map lacking a key).
 */
int	crown_campaign_upgrade_rules(struct crown_buf *out, char **added,
	    const char *file, const char *old, size_t oldlen,
	    const char *cur, size_t curlen, struct crown_diags *d);

/*
 * The state.yaml of crown upgrade's commit: the old bytes with the line
 * game.dice_chain: {from_turn: from, commitment: "HEX"} after that of
 * game.dice_commitment, into out; -1 when the old state has no such
 * line.  verify builds the same bytes to compare.
 */
int	crown_campaign_upgrade_state(struct crown_buf *out, const char *old,
	    size_t len, int from, const char *commitment);

/* "Turn 7: ..." -> 7; -1 when the subject is not a turn's. */
int	crown_campaign_subject_turn(const char *subject);

/* What a turn starts from, read from a commit. */
struct crown_campaign {
	struct crown_state	*state;
	struct crown_rules	*rules;
};

/* Load state.yaml and rules.yaml of commit; diagnostics name the files
 * "LABEL:state.yaml" (label: "turn-3").  A commit in another format
 * than this crown's is refused (CROWN_EINVALID) before either is read,
 * with a diagnostic that says so. */
int	crown_campaign_load(struct crown_campaign *out,
	    struct crown_history *, const char *commit, const char *label,
	    struct crown_diags *d);
void	crown_campaign_release(struct crown_campaign *);
/*
 * The briefing of turn 0 for the player just added to side (the last of
 * its players), with the campaign now as it stands (the map of the last
 * turn played, when it has one) and the orders form of the next turn,
 * added to mails for DIR/outbox (issue 20); victory is the game's
 * conditions, or NULL.
 */
int	crown_campaign_brief_player(struct crown_outputs *mails,
	    struct crown_history *, const struct crown_chain *c,
	    const struct crown_campaign *now, const char *side,
	    const struct crown_stamp *stamp, const char *victory,
	    struct crown_diags *d);

/*
 * Absences and missed orders (history/attendance.c; doc/umpire.md,
 * "Absences and civil disorder").
 *
 * After crown roster away has marked a player of s away, at time now:
 * when every player of a side is away and game.absence is extend, the
 * deadline of s moves to the end of their absence, but no further than
 * game.max_absence after the deadline the last turn or crown deadline
 * set (read from c's commits); 1 when it moved, else 0.  *why (caller
 * frees; NULL when no side is away) is the sentence that says what
 * became of the deadline, and why, for the commit and the players.
 */
int	crown_campaign_absence_deadline(char **why, struct crown_state *s,
	    struct crown_history *, const struct crown_chain *c,
	    long long now);
/*
 * missed[i] (now->nsides of them): the turns in a row, back from c's
 * last, that side i of now played without orders while it had the
 * players it has now (a player who joined since ends the count, and so
 * does a turn played while every player was away), counted up to
 * game.missed_orders.limit; all 0 without a limit.
 */
void	crown_campaign_missed(int *missed, struct crown_history *,
	    const struct crown_chain *c, const struct crown_state *now);
/*
 * Who held each side for which turns, a line "  SIDE: A (turns 1-4), B
 * (turns 5-)" a side, appended to out; from turn 0's players and each
 * "Roster: ..." commit's.  1 when some side changed hands, else 0.
 */
int	crown_campaign_tenure(struct crown_buf *out, struct crown_history *,
	    const struct crown_chain *c);
/* The line of a turn's commit message that names the sides in civil
 * disorder ("Civil disorder: french, republic ..."), which crown log
 * marks. */
#define CROWN_DISORDER_KEY	"Civil disorder: "

/*
 * Parse orders held in memory (names are their paths) and validate them
 * together against the state the turn starts from.  *out (caller frees
 * with crown_campaign_orders_free) only on success.
 */
int	crown_campaign_orders(struct crown_orders ***out, size_t *n,
	    const struct crown_outputs *orders, const struct crown_state *,
	    const struct crown_rules *, struct crown_diags *d);
/*
 * What a turn commits of the orders read as above (given->v[i] is ov[i]'s
 * file): DIR/SIDE.yaml for each, the file's bytes when it is an orders
 * file as it is, else its orders as a canonical orders file
 * (crown_orders_read_kept).  Appended to out; 0 or CROWN_ERROR.
 */
int	crown_campaign_orders_kept(struct crown_outputs *out,
	    const struct crown_outputs *given, struct crown_orders *const *ov,
	    size_t n, const char *dir, struct crown_diags *d);
/* Free n orders and their array (also those of crown_cmd_load_orders). */
void	crown_campaign_orders_free(struct crown_orders **, size_t n);

/*
 * The salt of turn `turn' from its orders as crown_campaign_orders read
 * them (orders->v[i] is ov[i]'s file): their bytes, by side.
 */
void	crown_campaign_salt(unsigned char *salt, int turn,
	    const struct crown_outputs *orders, struct crown_orders *const *ov,
	    size_t n);
/*
 * The salt recorded by turn `turn' of commit: 0; CROWN_ENOTFOUND (no
 * diagnostic) when the turn has none (made before salts);
 * CROWN_EINVALID, with a diagnostic, when it is not a salt.
 */
int	crown_campaign_salt_read(unsigned char *salt, struct crown_history *,
	    const char *commit, int turn, struct crown_diags *d);

/*
 * The dice chain of a campaign in state s (doc/formats.md): the turn it
 * begins at (*from: that turn's key is k(1)) and its k(0) (32 bytes):
 * game.dice_chain, else the chain from turn 1 of game.dice_commitment.
 * 0, or -1 when s has neither.
 */
int	crown_campaign_dice_chain(int *from, unsigned char *k0,
	    const struct crown_state *s);
/* Does key come back to the chain's k(0) as turn `turn''s key must? */
bool	crown_campaign_dice_key_ok(const struct crown_state *s, int turn,
	    const unsigned char *key);
/*
 * The key of turn `turn' from the campaign secret (32 bytes into key):
 * 0, or CROWN_EINVALID with a diagnostic when the turn is not in the
 * chain or the secret does not seed it.
 */
int	crown_campaign_dice_key(unsigned char *key, const struct crown_state *,
	    const unsigned char *secret, int turn, struct crown_diags *d);
/* The commitment (hex, k(0)) of the chain crown upgrade begins, whose
 * seed is crown_dice_chain_seed of the secret. */
void	crown_campaign_upgrade_chain(char *hex65, const unsigned char *secret);
/* The key recorded by turn `turn' of commit, as crown_campaign_salt_read
 * reads a salt. */
int	crown_campaign_dice_key_read(unsigned char *key,
	    struct crown_history *, const char *commit, int turn,
	    struct crown_diags *d);

/* What happened, in a few words, from the states before and after. */
char	*crown_campaign_headline(const struct crown_state *before,
	    const struct crown_state *after);

/*
 * Make a scenario the turn-0 state: check it is at turn 0, set its dice
 * commitment (k(0) of the secret's chain), classify its buildings (R11.3,
 * dice keyed by k(0); events to ev) and write it.  With secret NULL,
 * buildings must be classified.  crown_campaign_normalise_key: the same
 * from k(0) itself (verify has no secret, and needs none).
 */
int	crown_campaign_normalise(struct crown_buf *out, struct crown_state *,
	    const struct crown_rules *, const char *scenario_text,
	    size_t scenario_len, const unsigned char *secret,
	    struct crown_events *ev, struct crown_diags *d);
int	crown_campaign_normalise_key(struct crown_buf *out,
	    struct crown_state *, const struct crown_rules *,
	    const char *scenario_text, size_t scenario_len,
	    const unsigned char *key0, struct crown_events *ev,
	    struct crown_diags *d);

/*
 * The campaign secret: from path when given, else .git/crown-secret.
 * Checked against commitment when not NULL.  CROWN_ENOTFOUND when there
 * is none (a diagnostic only if !quiet); CROWN_EINVALID when the file is
 * malformed (the diagnostic says so) or does not match the commitment.
 */
int	crown_campaign_secret(unsigned char *secret, struct crown_history *,
	    const char *path, const char *commitment, bool quiet,
	    struct crown_diags *d);

/* Store a secret as .git/crown-secret (64 hex digits, mode 0600). */
int	crown_campaign_secret_save(struct crown_history *,
	    const unsigned char *secret, struct crown_diags *d);

/* Read 64 hex digits (and an optional newline): 0, or -1. */
int	crown_campaign_secret_parse(unsigned char *secret, const char *buf,
	    size_t len);

/* 64 hex digits and a newline, the reveal's secret.hex; caller frees. */
char	*crown_campaign_secret_hex(const unsigned char *secret);

/*
 * Who commits and when: --umpire "Name <email>", else the umpire mail is
 * From (crown_mail_umpire: game.umpire, else "crown <crown@localhost>");
 * --date (ISO 8601 or seconds since the epoch, "@" optional) or now.
 * CROWN_EUSAGE with a diagnostic when an option is malformed.
 */
struct crown_who {
	char			*name;
	char			*email;
	char			*openpgp;	/* game.umpire.openpgp: the
						 * stamp signs with it */
	struct crown_stamp	 stamp;
};

int	crown_campaign_who(struct crown_who *out, const char *umpire,
	    const char *date, const struct crown_state *,
	    struct crown_diags *d);
void	crown_who_release(struct crown_who *);

/*
 * Before a command writes: make tags turn-N (and reveal) point at main's
 * commits, bring the work tree back to the last commit if a killed run
 * left it behind, and remove pending orders a committed turn already
 * holds.  What it did goes to d as notes (crown_diag_note), for the
 * command to print.
 */
int	crown_campaign_repair(struct crown_history *,
	    const struct crown_chain *, struct crown_diags *d);

/* Remove a directory and everything under it (symbolic links are removed,
 * not followed); with keep, only its contents. */
void	crown_campaign_remove_tree(const char *path, bool keep);

/*
 * The orders files waiting in DIR/orders/pending (*.yaml, sorted by
 * name).  Caller frees each and the array.
 */
void	crown_campaign_pending(char ***out, size_t *n, const char *workdir);

#endif
