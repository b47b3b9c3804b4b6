/*
 * press.h: press between the sides (press.c; doc/players.md, "Press").
 * A roster player's mail whose subject begins "Press:" (after any "Re:"
 * or "Fwd:") is never read as orders: crown inbox relays its text to
 * the players of the sides its first line names ("to: SIDE, SIDE" or
 * "to: all", every side but the sender's), From the umpire, naming the
 * sender's side and never his address; the other players of his own
 * side get a copy that names him.  Attachments are never relayed, and
 * neither is a password line, a quotation or a signature (the one
 * reader's text, orders-read.h).  Each press relayed is kept in the
 * campaign's .git/crown-press/, one YAML file a press named so that
 * their order is the order they were relayed in, for crown site.
 */
#ifndef CROWN_PRESS_H
#define CROWN_PRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/mail.h"
#include "crown/outputs.h"
#include "crown/state.h"

#define CROWN_PRESS_DIR		"crown-press"	/* in .git */

/* One press. */
struct crown_press {
	char	 *name;		/* its file in .git/crown-press, or NULL */
	int	  turn;		/* the turn open when it came */
	char	 *delivered;	/* when it came, as calendar.h writes it */
	char	 *hash;		/* the SHA-256 of the message, hex */
	char	 *from;		/* the sender's side, an id */
	char	 *sender;	/* the sender's address */
	char	**to;		/* the sides it went to, ids, in state
				 * order */
	size_t	  nto;
	char	 *subject;	/* the sender's, after "Press:" */
	char	 *text;		/* as relayed: lines, printable */
};

struct crown_press_list {
	struct crown_press	*v;
	size_t			 n, cap;
};

/* Does subject begin with "Press:", after blanks and any "Re:", "Fw:"
 * or "Fwd:"?  *rest (may be NULL) is what follows it, blanks skipped. */
bool	crown_press_subject(const char *subject, const char **rest);

/*
 * The press m carries from side from of s (-1: the sender plays more
 * than one side) into out (turn, from, to, subject and text; the
 * caller adds the rest): its text as the one reader leaves it, the
 * first line "to: ..." naming the sides, the rest relayed.  *password is
 * the password line's value, or NULL (caller frees), for the inbox to
 * prove the sender with before anything else is said.  CROWN_EINVALID
 * with every problem, a line each, in why (an unknown side named with
 * the sides there are).
 */
int	crown_press_read(struct crown_press *out, char **password,
	    struct crown_buf *why, const struct crown_state *s, int from,
	    const struct crown_mail *m);

/*
 * The mails that relay p, added to mails under their Maildir names,
 * dated date so that the same press makes the same files: one to each
 * player with an address of the sides p went to, and a copy to each
 * other player of the sender's side, who is named there (player is the
 * sender's entry).  *sent counts them.  0 or CROWN_ERROR.
 */
int	crown_press_relay(struct crown_outputs *mails,
	    const struct crown_press *p, const struct crown_state *s,
	    const struct crown_person *player, long long date, size_t *sent);

/* The answer's text to the sender: where p went, to how many, and the
 * parts of m not relayed. */
void	crown_press_answer(struct crown_buf *b, const struct crown_press *p,
	    const struct crown_state *s, size_t sent,
	    const struct crown_mail *m);

/*
 * What crown inbox makes of press p read (crown_press_read) from the
 * message of SHA-256 hash, sent by player, delivered at: p's delivery,
 * hash, sender and name (the seq-th press), the mails that relay it
 * (crown_press_relay) and its file, into file.  0 or CROWN_ERROR.
 */
int	crown_press_make(struct crown_press *p, struct crown_outputs *mails,
	    struct crown_buf *file, const struct crown_state *s,
	    const struct crown_person *player, const char *hash,
	    long long at, size_t seq, size_t *sent);
/* Write file data as .git/crown-press/name of campaign dir, whole and
 * synced, once the Maildir outbox's new/ (where the mails that relay it
 * went) is synced: 0, or CROWN_EWRITE with a diagnostic. */
int	crown_press_keep(const char *dir, const char *outbox,
	    const char *name, const struct crown_buf *data,
	    struct crown_diags *d);

/* p as its file in .git/crown-press (YAML), into out. */
void	crown_press_emit(struct crown_buf *out, const struct crown_press *p);
/* "NNNNNN-HASH.yaml": the file of the seq-th press; caller frees. */
char	*crown_press_name(size_t seq, const char *hash);

/*
 * Every press kept in campaign directory dir, in the order relayed (the
 * names' order), into out.  No folder: none.  A file that cannot be
 * read or parsed is said in d (a warning) and left out: the site goes
 * on without what it cannot read.
 */
void	crown_press_load(struct crown_press_list *out, const char *dir,
	    struct crown_diags *d);
/* The press of message hash in l, or NULL. */
const struct crown_press *crown_press_find(const struct crown_press_list *l,
	    const char *hash);
/* Did p go to or come from side? */
bool	crown_press_of(const struct crown_press *p, const char *side);
/* Add p to l, taken whole (*p left empty). */
void	crown_press_take(struct crown_press_list *l, struct crown_press *p);
void	crown_press_release(struct crown_press *);
void	crown_press_list_release(struct crown_press_list *);

#endif
