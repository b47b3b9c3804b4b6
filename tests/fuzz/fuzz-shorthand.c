/*
 * fuzz-shorthand.c: libFuzzer target for the order shorthand of mailed
 * orders (shorthand.c, issue 12): what strangers type in a mail body.
 *
 * Each input is read as shorthand and validated against a fixed state
 * (tests/data/state-small.yaml), as `crown inbox` does.  Besides crashes,
 * leaks and UB: a refusal has a reason; orders read without a problem
 * write a canonical orders file that orders.c reads back without a
 * problem and that writes the same bytes again; and written back as
 * shorthand (which has no headers) they read as the same orders.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/shorthand.h"
#include "crown/state.h"
#include "crown/xalloc.h"

static struct crown_state *fuzz_shorthand_state;
static struct crown_rules *fuzz_shorthand_rules;

static void
fuzz_shorthand_setup(void)
{
	struct crown_diags	 d = { 0 };
	char			*p;

	if (fuzz_shorthand_state != NULL)
		return;
	p = crown_fuzz_path("tests/data/state-small.yaml");
	if (crown_state_load(&fuzz_shorthand_state, p, &d) != 0)
		crown_fuzz_fail("cannot load the fixture state", &d);
	free(p);
	p = crown_fuzz_path("rules/maximilian.yaml");
	if (crown_rules_load(&fuzz_shorthand_rules, p, &d) != 0)
		crown_fuzz_fail("cannot load the rules", &d);
	free(p);
	crown_diags_release(&d);
}

/* The orders as a canonical file, headers filled in as crown inbox
 * does. */
static void
fuzz_shorthand_yaml(struct crown_buf *out, struct crown_orders *o,
    struct crown_diags *d)
{
	if (o->game == NULL)
		o->game = xstrdup("Test Skirmish");
	if (o->turn < 0)
		o->turn = 3;
	if (o->side == NULL)
		o->side = xstrdup("french");
	if (crown_shorthand_to_yaml(out, o) != 0)
		crown_fuzz_fail("shorthand_to_yaml failed", d);
}

static int
fuzz_shorthand(const uint8_t *data, size_t size)
{
	struct crown_diags	 d = { 0 };
	struct crown_orders	*o = NULL, *back = NULL, *again = NULL;
	struct crown_buf	 y1 = { 0 }, y2 = { 0 }, y3 = { 0 }, sh = { 0 };
	int			 error;

	fuzz_shorthand_setup();
	error = crown_shorthand_parse(&o, "fuzz", (const char *)data, size,
	    &d);
	if (o == NULL)
		crown_fuzz_fail("shorthand_parse returned no orders", &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("shorthand_parse: unexpected error", &d);
	if (error == CROWN_EINVALID && d.n == 0)
		crown_fuzz_fail("refused shorthand needs a reason", &d);
	if (error == 0) {
		fuzz_shorthand_yaml(&y1, o, &d);
		if (crown_orders_parse(&back, "y1", y1.data, y1.len, &d) != 0)
			crown_fuzz_fail("canonical orders do not read back",
			    &d);
		if (crown_shorthand_to_yaml(&y2, back) != 0 ||
		    strcmp(y1.data, y2.data) != 0)
			crown_fuzz_fail("canonical orders change when read "
			    "back", &d);
		/* shorthand written back reads as the same orders */
		crown_shorthand_format(&sh, back);
		if (crown_shorthand_parse(&again, "sh", sh.data, sh.len,
		    &d) != 0)
			crown_fuzz_fail("formatted shorthand does not read "
			    "back", &d);
		/* shorthand is written without its headers */
		again->game = xstrdup(back->game);
		again->turn = back->turn;
		again->side = xstrdup(back->side);
		fuzz_shorthand_yaml(&y3, again, &d);
		if (strcmp(y1.data, y3.data) != 0)
			crown_fuzz_fail("formatted shorthand reads as other "
			    "orders", &d);
	}
	if (o->game == NULL)
		o->game = xstrdup("Test Skirmish");
	if (o->turn < 0)
		o->turn = 3;
	error = crown_orders_validate(o, fuzz_shorthand_state,
	    fuzz_shorthand_rules, &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("validate: unexpected error", &d);
	if (error != 0 && d.n == 0)
		crown_fuzz_fail("invalid orders need a reason", &d);
	crown_buf_release(&y1);
	crown_buf_release(&y2);
	crown_buf_release(&y3);
	crown_buf_release(&sh);
	crown_orders_free(again);
	crown_orders_free(back);
	crown_orders_free(o);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_shorthand)
