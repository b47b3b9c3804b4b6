/*
 * received.h: what crown inbox keeps of the mail it received, which
 * nothing outside mail/ includes: the messages of orders/inbox.log, the
 * signatures that filed orders (.git/crown-signatures) and the
 * mailboxes it read (.git/crown-maildir), the answers it sent each
 * address this turn (.git/crown-answers), for inbox.c, and the count of
 * the mail not read yet for crown status and crown turn
 * (crown_inbox_unread, inbox.h).
 */
#ifndef CROWN_RECEIVED_H
#define CROWN_RECEIVED_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/diag.h"
#include "crown/mail.h"
#include "crown/xalloc.h"

#define CROWN_RECEIVED_LOG	"orders/inbox.log"

/* The hashes of the messages in the log, an open-addressing table
 * (they are SHA-256s: their first digits are the hash). */
struct crown_received {
	char	(*v)[CROWN_SHA256_HEX];	/* "" for a free slot */
	size_t	  cap;			/* 0 or a power of two */
	size_t	  n;
};

void	crown_received_add(struct crown_received *, const char *hash);
bool	crown_received_has(const struct crown_received *, const char *hash);
/* The messages of campaign dir's log, added. */
void	crown_received_load(struct crown_received *, const char *dir);
void	crown_received_release(struct crown_received *);

/* A signature that filed orders (its key, pgp.h), and the message that
 * carried it. */
struct crown_used_sig {
	char	key[CROWN_SHA256_HEX];
	char	msg[CROWN_SHA256_HEX];
};

struct crown_sigs {
	struct crown_used_sig	*v;
	size_t			 n, cap;
	bool			 torn;	/* its last line is cut */
	struct crown_buf	 batch;	/* lines not written yet */
};

/* The signatures of campaign dir; a line cut short by a kill is none. */
void	crown_received_sigs_load(struct crown_sigs *, const char *dir);
/* The message that used the signature key, or NULL. */
const char *crown_received_sig_used(const struct crown_sigs *,
	    const char *key);
/* Remember key as used by the message msg, to be written. */
void	crown_received_sig_add(struct crown_sigs *, const char *key,
	    const char *msg);
/* The signatures added since the last write at the end of their file,
 * synced (and its directory when the file is new); CROWN_EWRITE with a
 * diagnostic.  The batch is emptied whatever the result. */
int	crown_received_sigs_write(struct crown_sigs *, const char *dir,
	    struct crown_diags *d);
void	crown_received_sigs_release(struct crown_sigs *);

/* The answers sent to each address this turn, this run's and earlier
 * runs' (.git/crown-answers, "TURN COUNT ADDRESS" a line). */
struct crown_answers {
	struct crown_answered {
		char		*addr;
		unsigned	 n;
	}		*v;
	size_t		 n, cap;
	bool		 more;		/* counted since the last write */
};

/* The counts of turn earlier runs wrote in campaign dir; a line that
 * does not read is skipped (the file is crown's own). */
void	crown_received_answers_load(struct crown_answers *, const char *dir,
	    int turn);
/* How many answers addr has had this turn. */
unsigned crown_received_answered(struct crown_answers *, const char *addr);
/* May addr be answered once more, at most max a turn?  Counted. */
bool	crown_received_answer(struct crown_answers *, const char *addr,
	    unsigned max);
/* The counts of turn, written whole over the file's, before the answers
 * go out; CROWN_EWRITE with a diagnostic. */
int	crown_received_answers_write(struct crown_answers *, const char *dir,
	    int turn, struct crown_diags *d);
void	crown_received_answers_release(struct crown_answers *);

/* The mailboxes read (lines "MAX PATH") in place of the last run's. */
int	crown_received_mailboxes_write(const char *dir,
	    const struct crown_buf *lines, struct crown_diags *d);

#endif
