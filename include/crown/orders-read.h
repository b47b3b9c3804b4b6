/*
 * orders-read.h: the one reader of orders (FORMATS.md, "One reader of
 * orders, everywhere").  crown check, crown inbox, crown turn FILES,
 * crown rerun --orders and crown resolve --orders all read a file, or a
 * mail's text, through it, so the same bytes get the same verdict.
 *
 * What may be around the orders, as a mail body carries it:
 *
 *	a byte-order mark, CRLF line ends	read as the parsers read them
 *	password: WORDS				taken out (the first is kept)
 *	> quoted lines				skipped
 *	On ..., X <x@y> wrote:			the attribution line directly
 *						above quoted lines, skipped
 *	-- 					a signature: the rest skipped
 *	-------- Forwarded Message --------	a message forwarded in the
 *	From: ...				text: that line and the header
 *						lines below it skipped
 *	-----Original Message-----		the same, or, below text of
 *	From: ...				the sender's own, the mail a
 *						reply answers: the rest
 *						skipped
 *
 * Skipped lines become blank, so every diagnostic's line and column are
 * those of the bytes given.  Text in UTF-16 or UTF-32 is refused first,
 * saying to save it as UTF-8 (crown_text_check_encoding); a problem of
 * the text (YAML's, the shorthand's) quotes its line.  What is left is YAML or shorthand, told
 * apart by content (crown_shorthand_is_yaml); shorthand may leave out
 * game and turn (the next turn of the campaign's game) and, in a mail,
 * the side (the sender's).
 */
#ifndef CROWN_ORDERS_READ_H
#define CROWN_ORDERS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/orders.h"

/* What shorthand may leave out, and who fills it in. */
struct crown_orders_context {
	const char	*game;		/* the campaign's game */
	int		 turn;		/* the turn to be played */
	bool		 sender;	/* a mail: the side may come from the
					 * sender; else it must be given */
};

struct crown_orders_read {
	struct crown_orders	*orders;	/* what could be read */
	char			*password;	/* the first password line's
						 * value, or NULL */
	bool			 yaml;		/* an orders file, not
						 * shorthand */
	bool			 plain;		/* nothing was skipped: the
						 * bytes are the orders as
						 * they are */
	char			*text;		/* the bytes, skipped lines
						 * blank, the signature cut */
	size_t			 len;
};

/*
 * Read len bytes of buf (file names them in diagnostics) as orders.
 * Every problem goes to d with its line, column and rule id; a line of
 * prose skipped before shorthand orders is a warning.  Returns 0 or
 * CROWN_EINVALID; out is filled either way (out->orders may hold what
 * could be read, for validation to report the rest), and released with
 * crown_orders_read_release.  The orders are not validated against the
 * state: crown_orders_validate does that for every reader alike.
 */
int	crown_orders_read(struct crown_orders_read *out, const char *file,
	    const char *buf, size_t len, const struct crown_orders_context *,
	    struct crown_diags *d);
void	crown_orders_read_release(struct crown_orders_read *);

/*
 * Only the text around the orders: out's text, len, password, plain and
 * yaml, no orders read (crown inbox takes a password from a mail's body
 * beside an attached orders file).
 */
void	crown_orders_read_text(struct crown_orders_read *out, const char *buf,
	    size_t len);

/*
 * The bytes a campaign keeps of orders o read from buf: buf itself when
 * it is an orders file and nothing was skipped, else o as a canonical
 * orders file (crown_shorthand_to_yaml), so that no password, quotation
 * or signature reaches the history.  Appended to out; 0 or CROWN_ERROR.
 */
int	crown_orders_read_kept(struct crown_buf *out, const char *buf,
	    size_t len, const struct crown_orders *o);

#endif
