/*
 * fuzz-orders.c: libFuzzer target for orders files (orders.c over the
 * YAML layer): what strangers mail in.
 *
 * Each input is read as an orders file and validated against a fixed
 * state (tests/data/state-small.yaml) and the rules, as `crown check` and
 * `crown turn` do, including the partial orders the parser hands back
 * with its problems.  Nothing may crash, leak or exit; a refusal must say
 * why.
 */
#include "fuzz.h"

#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"

static struct crown_state *fuzz_orders_state;
static struct crown_rules *fuzz_orders_rules;

static void
fuzz_orders_setup(void)
{
	struct crown_diags	 d = { 0 };
	char			*p;

	if (fuzz_orders_state != NULL)
		return;
	p = crown_fuzz_path("tests/data/state-small.yaml");
	if (crown_state_load(&fuzz_orders_state, p, &d) != 0)
		crown_fuzz_fail("cannot load the fixture state", &d);
	free(p);
	p = crown_fuzz_path("rules/maximilian.yaml");
	if (crown_rules_load(&fuzz_orders_rules, p, &d) != 0)
		crown_fuzz_fail("cannot load the rules", &d);
	free(p);
	crown_diags_release(&d);
}

static int
fuzz_orders(const uint8_t *data, size_t size)
{
	struct crown_diags	 d = { 0 };
	struct crown_orders	*o = NULL;
	int			 error, verror;

	fuzz_orders_setup();
	error = crown_orders_parse(&o, "fuzz.yaml", (const char *)data, size,
	    &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("orders_parse: unexpected error", &d);
	if (error == CROWN_EINVALID && d.n == 0)
		crown_fuzz_fail("refused orders need a reason", &d);
	if (o != NULL) {
		verror = crown_orders_validate_set(&o, 1, fuzz_orders_state,
		    fuzz_orders_rules, &d);
		if (verror != 0 && verror != CROWN_EINVALID)
			crown_fuzz_fail("validate: unexpected error", &d);
		if (verror != 0 && d.n == 0)
			crown_fuzz_fail("invalid orders need a reason", &d);
	} else if (error == 0)
		crown_fuzz_fail("orders accepted but none returned", &d);
	crown_orders_free(o);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_orders)
