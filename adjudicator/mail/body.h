/*
 * body.h: where in a mail the orders are (body.c), for inbox.c only;
 * nothing outside mail/ includes it.
 */
#ifndef CROWN_MAIL_BODY_H
#define CROWN_MAIL_BODY_H

#include <stdbool.h>

#include "crown/diag.h"
#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/xalloc.h"

/* Has m one text to read orders from: one orders file, else a body?
 * If not, why not, a line each, to why (with the parts not read). */
bool	crown_mail_has_orders_text(struct crown_buf *why,
	    const struct crown_mail *m);

/*
 * Read m's orders (crown_orders_read) from its orders file, else its
 * text, else the text of the first forwarded message that holds orders
 * (when none does, the mail's own reading stays, with its problems in
 * d).  The password is taken from the mail's own text when the orders
 * came from elsewhere.  *file names what was read: the attachment's base
 * name made safe, "message" or "forwarded-message" (caller frees).
 * *found: orders were found (an orders file, or a line for a unit or a
 * leader).  r is released by the caller.
 */
int	crown_mail_read_orders(struct crown_orders_read *r, char **file,
	    bool *found, const struct crown_mail *m,
	    const struct crown_orders_context *ctx, struct crown_diags *d);

/* The parts of m not read, a line each with what to do, to why. */
void	crown_mail_not_read(struct crown_buf *why,
	    const struct crown_mail *m);

#endif
