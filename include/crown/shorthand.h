/*
 * shorthand.h: orders written one unit a line, as players type them in
 * the body of a mail (issue 12), read into the same struct crown_orders
 * as an orders file; and orders written back out, as a canonical orders
 * file (what `crown inbox` files) or as shorthand (what it echoes).
 *
 * The grammar, a line at a time (doc/players.md, "The shorthand"):
 *
 *	game: NAME			optional headers, each at most once
 *	turn: N
 *	side: ID
 *	password: WORDS			read by crown inbox; ignored here
 *	UNIT: ACTION [ARGS]; ACTION [ARGS]; ...
 *	leader ID: move X,Y; attach UNIT; detach
 *
 * ACTION is one of R3.4's names:
 *
 *	move X,Y [X,Y ...] [face N] [road]	(more points: a path)
 *	path X,Y [X,Y ...] [face N] [road]	(the same)
 *	charge ID	fire ID		fire building:ID	help ID
 *	manhandle X,Y [face N]		formation line|column
 *	reload  limber  unlimber  reform  rally  hold
 *
 * Blank lines are skipped; `#` at the start of a line or after a blank
 * starts a comment, on every line (`game:` included).  A line of prose
 * before the first unit or leader line ("Revised orders:") is skipped
 * with a warning; after it, it is an error.  Units named game, turn,
 * side or password are ordered with an orders file instead.
 */
#ifndef CROWN_SHORTHAND_H
#define CROWN_SHORTHAND_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/orders.h"
#include "crown/xalloc.h"

/*
 * Parse shorthand (len bytes of buf; file names it in diagnostics).
 * Headers left out stay unset: game NULL, turn -1, side NULL; the caller
 * fills them in (crown inbox: the campaign's game and next turn, and the
 * sender's side).  Every problem goes to d with line:col and rule id.
 * Returns 0 or CROWN_EINVALID; as crown_orders_parse, *out holds what
 * could be read either way (caller frees with crown_orders_free).
 */
int	crown_shorthand_parse(struct crown_orders **out, const char *file,
	    const char *buf, size_t len, struct crown_diags *d);

/* True when text is an orders file rather than shorthand: it has a
 * line starting "orders:" (the orders file's list), or a line that
 * begins with '[' or '{', or "KEY: [" or "KEY: {" (YAML's flow style,
 * JSON), as no shorthand line does. */
bool	crown_shorthand_is_yaml(const char *buf, size_t len);

/*
 * Write o as a canonical orders file (FORMATS.md "Orders"): game, turn,
 * side, then the units and the leaders in their order, positions to two
 * decimals.  Reading it back gives the same orders.  0 or CROWN_ERROR.
 */
int	crown_shorthand_to_yaml(struct crown_buf *out,
	    const struct crown_orders *o);

/* Append o as shorthand, a line per unit or leader (no headers). */
void	crown_shorthand_format(struct crown_buf *out,
	    const struct crown_orders *o);

#endif
