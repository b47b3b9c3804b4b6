/*
 * body.c: where in a player's mail the orders are read from (body.h):
 * one orders file, attached here or in a forwarded message; else the
 * mail's own text; else, when that holds no orders (a forwarding mail's
 * note), the text of the first forwarded message that does.  And the
 * mail-level refusals: more than one orders file, nothing to read
 * (HTML only, or no text at all), and the parts that were not read,
 * each with what to do instead.  Identification stays the outer mail's
 * (inbox.c): a forwarded message's From and signature are not looked at.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/xalloc.h"

#include "body.h"

#define MAX_FILE_NAME	64

/* A file name fit for a diagnostic: the attachment's base name with
 * only [A-Za-z0-9._-]. */
static char *
safe_name(const char *name)
{
	const char	*b;
	char		*s;
	size_t		 i;

	b = strrchr(name, '/');
	b = b != NULL ? b + 1 : name;
	if (*b == '\0')
		return xstrdup("orders.yaml");
	s = xstrndup(b, strnlen(b, MAX_FILE_NAME));
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '.' ||
		    s[i] == '_' || s[i] == '-'))
			s[i] = '_';
	return s;
}

/* Did the reader find orders: an orders file, or a line of shorthand
 * for a unit or a leader? */
static bool
has_orders(const struct crown_orders_read *r)
{
	return r->yaml || (r->orders != NULL && (r->orders->nunits > 0 ||
	    r->orders->nleaders > 0));
}

/*
 * The orders of a mail without an orders file: its body, else the body
 * of the first forwarded message that holds orders (a forwarding mail's
 * own body is often a note, or empty).  When none does, the first read
 * stays, with its problems in d.  *file names what was read ("message"
 * for the body; caller frees); *body says it was the mail's own.
 */
static int
read_body(struct crown_orders_read *r, char **file, bool *body,
    const struct crown_mail *m, const struct crown_orders_context *ctx,
    struct crown_diags *d)
{
	struct crown_orders_read	 t;
	struct crown_diags		 td;
	size_t				 i = 0;
	int				 error, e;

	*body = m->text != NULL;
	if (m->text != NULL) {
		*file = xstrdup("message");
		error = crown_orders_read(r, *file, m->text, m->text_len, ctx,
		    d);
	} else {
		*file = xstrdup("forwarded-message");
		error = crown_orders_read(r, *file, m->forwarded[0].data,
		    m->forwarded[0].len, ctx, d);
		i = 1;
	}
	for (; i < m->nforwarded && !has_orders(r); i++) {
		memset(&td, 0, sizeof(td));
		e = crown_orders_read(&t, "forwarded-message",
		    m->forwarded[i].data, m->forwarded[i].len, ctx, &td);
		if (!has_orders(&t)) {
			crown_orders_read_release(&t);
			crown_diags_release(&td);
			continue;
		}
		crown_orders_read_release(r);
		crown_diags_release(d);
		*r = t;
		*d = td;
		error = e;
		free(*file);
		*file = xstrdup("forwarded-message");
		*body = false;
	}
	return error;
}

void
crown_mail_not_read(struct crown_buf *why, const struct crown_mail *m)
{
	const struct crown_mail_part	*p;
	size_t				 i;

	for (i = 0; i < m->nignored; i++) {
		p = &m->ignored[i];
		if (p->name[0] != '\0')
			crown_buf_printf(why, "the attachment '%s' (%s) was "
			    "not read: %s\n", p->name, p->type,
			    crown_mail_part_advice(p));
		else
			crown_buf_printf(why, "a part of type %s was not "
			    "read: %s\n", p->type, crown_mail_part_advice(p));
	}
}

bool
crown_mail_has_orders_text(struct crown_buf *why, const struct crown_mail *m)
{
	if (m->nyaml > 1) {
		crown_buf_printf(why, "attach one orders file to a mail, not "
		    "%zu\n", m->nyaml);
		return false;
	}
	if (m->nyaml == 1 || m->text != NULL || m->nforwarded > 0)
		return true;
	if (m->html)
		crown_buf_puts(why, "the mail has only HTML, no plain text: "
		    "send it as plain text (Thunderbird: Options > Delivery "
		    "Format > Plain Text Only; Apple Mail: Format > Make Plain "
		    "Text; Gmail: More options > Plain text mode; Outlook: "
		    "Format Text > Plain Text), or attach the orders as "
		    "orders.yaml\n");
	else
		crown_buf_puts(why, "no orders found: write them in the body "
		    "as plain text, or attach them as orders.yaml\n");
	crown_mail_not_read(why, m);
	return false;
}

int
crown_mail_read_orders(struct crown_orders_read *r, char **file,
    bool *found, const struct crown_mail *m,
    const struct crown_orders_context *ctx, struct crown_diags *d)
{
	struct crown_orders_read	 body;
	bool				 own = false;
	int				 error;

	if (m->nyaml == 1) {
		*file = safe_name(m->yaml[0].name);
		error = crown_orders_read(r, *file, m->yaml[0].data,
		    m->yaml[0].len, ctx, d);
	} else
		error = read_body(r, file, &own, m, ctx, d);
	/* the password may be in the text beside the file or the
	 * forwarded message, and is the sender's own there: it wins over
	 * one in an old mail forwarded */
	if (m->text != NULL && !own) {
		crown_orders_read_text(&body, m->text, m->text_len);
		if (body.password != NULL) {
			free(r->password);
			r->password = body.password;
			body.password = NULL;
		}
		crown_orders_read_release(&body);
	}
	*found = has_orders(r);
	return error;
}
