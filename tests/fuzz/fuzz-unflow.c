/*
 * fuzz-unflow.c: libFuzzer target for a mail body's text as crown reads
 * it: format=flowed unflowed (crown_mail_unflow; the first byte of the
 * input says DelSp=yes when odd), then the one reader's skipping of
 * what is around the orders (the attribution line, quotes, the
 * signature, a password line, the header lines of a message forwarded
 * in the text: crown_orders_read_text) and the orders read
 * (crown_orders_read).
 *
 * Besides crashes, leaks and UB: unflowing removes only spaces, line
 * ends and the '>' of joined quoted lines, and adds only a line end or a
 * space a line (so every other byte stays, in order), and leaves a text
 * with nothing flowed, stuffed or quoted as it is; the reader only
 * blanks bytes in place (line ends stay) and cuts the text short, and
 * its password is a part of the text; a refusal has a reason.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/xalloc.h"

/* The bytes of s but spaces, line ends and '>', in order. */
static char *
fuzz_unflow_kept(const char *s, size_t len, size_t *n)
{
	char	*k = xmalloc(len + 1);
	size_t	 i;

	*n = 0;
	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\n' && s[i] != '>')
			k[(*n)++] = s[i];
	return k;
}

/* Is the n bytes of w in s? */
static bool
fuzz_unflow_has(const char *s, size_t len, const char *w, size_t n)
{
	size_t	i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(s + i, w, n) == 0)
			return true;
	return false;
}

/* Is there nothing to unflow: no line ends in a space or begins with a
 * space or a '>'? */
static bool
fuzz_unflow_fixed(const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++) {
		if ((i == 0 || s[i - 1] == '\n') && (s[i] == ' ' ||
		    s[i] == '>'))
			return false;
		if (s[i] == ' ' && (i + 1 == len || s[i + 1] == '\n'))
			return false;
	}
	return true;
}

static void
fuzz_unflow_reader(const char *u, size_t n)
{
	struct crown_orders_context	 ctx = { "Test Skirmish", 3, true };
	struct crown_orders_read	 r;
	struct crown_diags		 d = { 0 };
	size_t				 i;
	int				 error;

	crown_orders_read_text(&r, u, n);
	if (r.len > n)
		crown_fuzz_fail("the reader made the text longer", NULL);
	for (i = 0; i < r.len; i++)
		if (r.text[i] != u[i] && (r.text[i] != ' ' || u[i] == '\n'))
			crown_fuzz_fail("the reader changed a byte it did not "
			    "blank", NULL);
	if (r.password != NULL && !fuzz_unflow_has(u, n, r.password,
	    strlen(r.password)))
		crown_fuzz_fail("a password that is not in the text", NULL);
	crown_orders_read_release(&r);
	error = crown_orders_read(&r, "message", u, n, &ctx, &d);
	if (error != 0 && d.n == 0)
		crown_fuzz_fail("orders refused without a reason", NULL);
	crown_orders_read_release(&r);
	crown_diags_release(&d);
}

static int
fuzz_unflow(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data + 1;
	char		*u, *a, *b;
	size_t		 len, n, lines = 1, i, na, nb;
	bool		 delsp;

	if (size == 0)
		return 0;
	delsp = data[0] & 1;
	len = size - 1;
	u = crown_mail_unflow(s, len, delsp, &n);
	if (u[n] != '\0')
		crown_fuzz_fail("unflowed text not NUL-terminated", NULL);
	for (i = 0; i < len; i++)
		lines += s[i] == '\n';
	if (n > len + lines)
		crown_fuzz_fail("unflowing added more than a byte a line",
		    NULL);
	a = fuzz_unflow_kept(s, len, &na);
	b = fuzz_unflow_kept(u, n, &nb);
	if (na != nb || memcmp(a, b, na) != 0)
		crown_fuzz_fail("unflowing lost or changed text", NULL);
	if (fuzz_unflow_fixed(s, len) && (n != len || memcmp(u, s, n) != 0))
		crown_fuzz_fail("unflowing changed a text with nothing "
		    "flowed", NULL);
	fuzz_unflow_reader(u, n);
	free(b);
	free(a);
	free(u);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_unflow)
