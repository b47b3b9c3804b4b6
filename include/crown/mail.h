/*
 * mail.h: mail in and out, through GMime 3 (issue 12).  Reading a
 * player's message (the sender, the text body, YAML attachments, with
 * quoted-printable, base64 and charsets decoded), reading Maildirs and
 * mbox files, building MIME messages, and delivering them into a Maildir
 * (tmp/, then a rename into new/).  Also the small services the inbox,
 * the status and the turn share: UTC times, SHA-256 receipts and player
 * passwords.
 *
 * Nothing here knows the rules; cmd-inbox.c decides what a message means.
 * Outgoing messages are the same bytes for the same inputs: the date is
 * an input, and the boundary, the Message-ID and the Maildir file name
 * are made from a hash of the content.
 */
#ifndef CROWN_MAIL_H
#define CROWN_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/outputs.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"

struct crown_roster;

/* A mail over this size is refused unread (crown inbox --max-bytes). */
#define CROWN_MAIL_MAX_BYTES	((size_t)1024 * 1024)
/* Of a refused oversize mail only this much is read, for its headers. */
#define CROWN_MAIL_HEAD_BYTES	((size_t)64 * 1024)
#define CROWN_SHA256_HEX	65	/* 64 digits and a NUL */

/* Hashes (libsodium). */

/* Lower-case hex SHA-256 of data into out (CROWN_SHA256_HEX bytes). */
void	crown_mail_sha256_hex(char *out, const void *data, size_t len);

/* True when password hashes to hex (a player's password_sha256); the
 * comparison takes the same time whatever the bytes (sodium_memcmp). */
bool	crown_mail_password_ok(const char *password, const char *hex);

/* A player's message, decoded. */

struct crown_mail_file {
	char	*name;		/* attachment file name, or "" */
	char	*data;		/* decoded bytes, NUL-terminated */
	size_t	 len;
};

/* A part crown did not read: an attachment that is not an orders file,
 * a picture, an Outlook winmail.dat. */
struct crown_mail_part {
	char	*name;		/* its file name, or "": printable */
	char	*type;		/* "application/ms-tnef": printable */
};

/* What a player can do instead of sending part p (a static string):
 * by its type and name, Outlook's winmail.dat, a picture, an encrypted
 * part, a text file of another name, anything else. */
const char	*crown_mail_part_advice(const struct crown_mail_part *p);

struct crown_mail {
	char			*from;		/* the first From address */
	char			*from_name;	/* or NULL */
	/* decoded, or "": printable (crown_mail_printable, one line) */
	char			*subject;
	char			*message_id;	/* without <>, or NULL */
	/* The first text/plain part that is not an attachment (nor in a
	 * forwarded message), in UTF-8 with "\n" line ends, unflowed when
	 * it is format=flowed; NULL when there is none. */
	char			*text;
	size_t			 text_len;
	bool			 html;		/* it has a text/html part */
	/* Attachments that are orders files, here or in a forwarded
	 * message: named *.yaml, *.yml or *.json (each also with ".txt"
	 * after it) or orders*.txt, or of type text/yaml, application/yaml,
	 * text/x-yaml, application/x-yaml, application/json or text/json. */
	struct crown_mail_file	*yaml;
	size_t			 nyaml;
	/* The bodies of the forwarded messages (message/rfc822, at any
	 * depth) that have one, outer first: as text above, name their
	 * subjects (printable, cut short). */
	struct crown_mail_file	*forwarded;
	size_t			 nforwarded;
	/* The parts not read, but a signature's (16 at most). */
	struct crown_mail_part	*ignored;
	size_t			 nignored;
	size_t			 nparts;	/* leaf parts seen */
	/* Why it is automatic mail, never to be answered (RFC 3834):
	 * "Auto-Submitted: auto-replied", "Precedence: bulk", "List-Id";
	 * NULL for a person's. */
	char			*automatic;
	/* The bytes parsed, the caller's (valid while they are): what
	 * an OpenPGP signature is checked on (pgp.h). */
	const char		*raw;
	size_t			 raw_len;
};

/*
 * s (UTF-8 or not) fit to echo into a reply, a record or a terminal, as
 * a new string (caller frees; "" for NULL): no control characters (C0,
 * DEL, C1) and no bytes that are not UTF-8, each one a '?'.  Tab, CR
 * and LF become blanks, or with lines LF stays.  A bidirectional control
 * (crown_diag_unsafe) is written as a message writes it, "\u202E".
 */
char	*crown_mail_printable(const char *s, bool lines);

/*
 * len bytes of text/plain; format=flowed (RFC 3676), in "\n" lines,
 * unflowed: soft line breaks joined (with delsp, DelSp=yes, the space
 * before each removed), space-stuffing removed, a paragraph kept to its
 * quote depth, the signature separator "-- " never flowed.  Quoted
 * lines come back as their '>' marks, a space and the text.  A new
 * NUL-terminated string of *outlen bytes, the caller's.
 */
char	*crown_mail_unflow(const char *s, size_t len, bool delsp,
	    size_t *outlen);

/*
 * Parse len bytes as one message (RFC 5322, MIME).  A message nested
 * deeper than 64 MIME levels (multiparts and embedded messages, counted
 * in its structure) is refused before it is parsed.  0, or CROWN_EINVALID
 * when it is not a message with a From address (no *out then).  *out is
 * the caller's (crown_mail_free).
 */
int	crown_mail_parse(struct crown_mail **out, const char *data,
	    size_t len);
void	crown_mail_free(struct crown_mail *);

/* Mail sources: a Maildir (new/ then cur/, each in name order, which is
 * delivery order) or an mbox file (in file order). */

struct crown_mail_raw {
	char	*ref;		/* "new/NAME", "cur/NAME", "mbox:N" */
	char	*data;		/* the message, or its head when oversize */
	size_t	 len;		/* bytes in data */
	size_t	 size;		/* the whole message's size */
	char	 hash[CROWN_SHA256_HEX];	/* of data */
	long long delivered;	/* when it came into the mailbox
				   (crown_maildir_time, crown_mbox_time) */
};

/* When a message read at `now' was received: when it was delivered, never
 * later than now, and now when the mailbox does not say. */
long long crown_mail_received(const struct crown_mail_raw *, long long now);

struct crown_mail_box {
	struct crown_mail_raw	*v;
	size_t			 n;
	size_t			 cap;
};

/*
 * Read the messages of path (a Maildir or an mbox file) one at a time,
 * handing each to fn (raw and its bytes are fn's only during the call):
 * a mailbox of any size costs one message's memory.  A nonzero return
 * of fn stops the reading and is returned.  Messages over max bytes are
 * read only in part (CROWN_MAIL_HEAD_BYTES), their size noted.
 * CROWN_ENOTFOUND when path is neither (a diagnostic says why).
 */
int	crown_mail_each(const char *path, size_t max,
	    int (*fn)(void *, const struct crown_mail_raw *), void *arg,
	    struct crown_diags *d);

/*
 * When a message came into a Maildir, by its file name: the seconds at
 * the start of a name "1700000000.M123P456.host" (digits, then a dot),
 * else mtime (the file's modification time).
 */
long long crown_maildir_time(const char *name, long long mtime);
/*
 * When a message came into an mbox, by its "From " line of len bytes
 * ("From addr Sat Dec  5 17:30:00 2026"): the date after the address,
 * else otherwise (the mbox file's modification time).
 */
long long crown_mbox_time(const char *line, size_t len, long long otherwise);

/* Every message of path at once, into a box (crown_mail_each). */
int	crown_mail_read_source(struct crown_mail_box *out, const char *path,
	    size_t max, struct crown_diags *d);
void	crown_mail_box_release(struct crown_mail_box *);

/* Building messages. */

struct crown_mail_addr {
	const char	*name;		/* or NULL */
	const char	*addr;
};

struct crown_mail_attach {
	const char	*name;		/* file name */
	const char	*type;		/* "text/yaml", "image/svg+xml" */
	const char	*data;
	size_t		 len;
};

struct crown_mail_out {
	struct crown_mail_addr		 from;
	const struct crown_mail_addr	*to;
	size_t				 nto;
	const struct crown_mail_addr	*cc;
	size_t				 ncc;
	const char			*subject;
	long long			 date;
	const char			*in_reply_to;	/* without <> */
	const char			*text;		/* UTF-8 */
	const struct crown_mail_attach	*attach;
	size_t				 nattach;
};

/*
 * A MIME message (multipart/mixed: the text as text/plain in UTF-8, then
 * the attachments) into out.  The Message-ID and the boundary come from
 * a hash of the content, so the same message gives the same bytes.
 * 0 or CROWN_ERROR.
 */
int	crown_mail_build(struct crown_buf *out, const struct crown_mail_out *);

/*
 * Deliver a message into Maildir dir (made with tmp/, new/ and cur/ if
 * absent): written to tmp/ then renamed into new/, as
 * "DATE.HASH.crown" (the hash of the message, crown_maildir_name), so
 * the same message delivered twice is one file.  *name (caller frees;
 * may be NULL) is the file name.  CROWN_EWRITE with a diagnostic on
 * failure.  crown_maildir_put delivers a message under a name of its
 * own.
 */
int	crown_maildir_deliver(const char *dir, const char *data, size_t len,
	    long long date, char **name, struct crown_diags *d);
int	crown_maildir_put(const char *dir, const char *name, const char *data,
	    size_t len, struct crown_diags *d);
/* "DATE.HASH.crown"; caller frees. */
char	*crown_maildir_name(const char *data, size_t len, long long date);

/* The umpire's address for outgoing mail: game.umpire, or
 * crown@localhost. */
struct crown_mail_addr crown_mail_umpire(const struct crown_state *);

/*
 * After a turn: one message per player of each side, added to mails
 * under its Maildir name (crown_maildir_name; crown_advance writes the
 * outbox after the commit point): the side's report (reports[i] for
 * after->sides[i], as crown_play renders them; NULL: none) as the text,
 * with the map (map.svg, when map is not NULL) and the new state
 * (state.yaml, without the players'
 * password hashes) attached, and while the game goes on (rules not
 * NULL, before game.last_turn) the side's orders form for the next turn
 * (orders.yaml, crown_orders_form) and the deadline.  date is the turn's date (as
 * crown_cal_parse_time reads it; NULL: now).  replaced, when not NULL,
 * is a paragraph put before the report of a turn played again (crown
 * adopt: why, and what the mail replaces), the subject saying "played
 * again".  Players without an email address are skipped.  0, CROWN_EUSAGE
 * for a bad date, or CROWN_ERROR; problems to d.
 */
int	crown_mail_turn_reports(struct crown_outputs *mails,
	    const struct crown_state *after, const struct crown_rules *rules,
	    const struct crown_buf *reports, const struct crown_buf *map,
	    const char *date, const char *replaced, struct crown_diags *d);

/*
 * The players' briefing (crown_report_briefing of the opening state, the
 * turn-0 one, with victory), one message per player of now's sides with
 * an address (only that address when only is not NULL: a player who
 * joins later), added to mails as crown_mail_turn_reports does, with
 * the map (map.svg, when map is not NULL: the opening map, or the latest
 * turn's for a player who joins later), now's public state, and while
 * the game goes on the side's orders form and the deadline, as for a
 * turn; *sent is the number of messages.  0, CROWN_EUSAGE for a bad
 * date, or CROWN_ERROR; problems to d.
 */
int	crown_mail_briefing(struct crown_outputs *mails,
	    const struct crown_state *opening, const struct crown_state *now,
	    const struct crown_rules *rules, const struct crown_outputs *notes,
	    const char *victory, const struct crown_buf *map,
	    const char *only, const char *date, size_t *sent,
	    struct crown_diags *d);

/*
 * A message From the umpire of s to player p (text, and natt
 * attachments att), dated date, added to mails under its Maildir name
 * (crown_maildir_name) for crown_advance or the inbox to deliver.  0 or
 * CROWN_ERROR.
 */
int	crown_mail_to(struct crown_outputs *mails, const struct crown_state *s,
	    const struct crown_person *p, const char *subject,
	    const char *text, const struct crown_mail_attach *att,
	    size_t natt, long long date);

/* Is a a printable address without blanks, one crown writes to? */
bool	crown_mail_addr_ok(const char *a);

/*
 * What each player of s with an address is told of sending orders
 * (notice.c), added to out under his address, filled to the mail's
 * width: where to send them and what, and how he is identified, by the
 * proof his credentials in ro ask for (crown_roster_required; ro NULL:
 * none): his PGP/MIME signature (the key's fingerprint), the password
 * line, or his address alone.  For crown_mail_briefing and
 * crown_mail_deadline.
 */
void	crown_mail_notes(struct crown_outputs *out,
	    const struct crown_state *s, const struct crown_roster *ro);
/* The note of address email in notes (may be NULL), or NULL. */
const struct crown_buf *crown_mail_note(const struct crown_outputs *notes,
	    const char *email);
/*
 * The mail crown deadline writes (deadline.c): to each player of s with
 * an address, the deadline of turn s->turn + 1 as s records it
 * (game.deadline, game.deadline_every; or that there is none), the
 * deadline it replaces (old, NULL: none) and why (reason, NULL: not
 * said), and what the briefing says of sending orders (his note in
 * notes, crown_mail_notes), dated date (seconds since 1970), added to
 * mails under its Maildir name; *sent is the number of messages.  0 or
 * CROWN_ERROR.
 */
int	crown_mail_deadline(struct crown_outputs *mails,
	    const struct crown_state *s, const struct crown_outputs *notes,
	    const char *old, const char *reason, long long date, size_t *sent,
	    struct crown_diags *d);

/*
 * A message of text to each player of side sd of s with an address (only
 * that address, when only is not NULL), added to mails as
 * crown_mail_turn_reports does, with what every mail to a side carries:
 * while the game goes on the deadline and the side's orders form
 * (orders.yaml) for the next turn, s's public state (state.yaml), and
 * the signature (filled, after "-- ").  date is the mail's time;
 * *sent (may be NULL) counts the messages.  0 or CROWN_ERROR; problems
 * to d.
 */
int	crown_mail_to_side(struct crown_outputs *mails,
	    const struct crown_state *s, const struct crown_rules *rules,
	    const struct crown_side *sd, const char *only,
	    const char *subject, const char *text, const char *signature,
	    long long date, size_t *sent, struct crown_diags *d);

/*
 * A notice from the umpire (a deadline moved, and why) to every player
 * of s with an address, one message each, added to mails as
 * crown_mail_turn_reports does: text (one paragraph, filled to the mail's
 * width) under the subject "[GAME] subject", dated t.  0 or CROWN_ERROR.
 */
int	crown_mail_notice(struct crown_outputs *mails,
	    const struct crown_state *s, const char *subject,
	    const char *text, long long t);

#endif
