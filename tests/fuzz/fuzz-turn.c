/*
 * fuzz-turn.c: libFuzzer target for a whole turn: state, orders, dice ->
 * resolve -> outputs (engine.c and the rule modules, through the loaders).
 *
 * The input is a conformance case (tests/cases/README.md): a YAML map with
 * `state`, `orders` (a list of orders files) and optionally `dice` (a
 * list of integers; without it, campaign dice from a fixed secret).  The
 * rules are rules/maximilian.yaml.  Orders that validate must resolve or
 * fail only for the dice, and a resolved turn must write a state that
 * reads back and events that are YAML.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/orders.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define FUZZ_TURN_MAX_ORDERS	8

static struct crown_rules *fuzz_turn_rules;

static void
fuzz_turn_setup(void)
{
	struct crown_diags	 d = { 0 };
	char			*p;

	if (fuzz_turn_rules != NULL)
		return;
	p = crown_fuzz_path("rules/maximilian.yaml");
	if (crown_rules_load(&fuzz_turn_rules, p, &d) != 0)
		crown_fuzz_fail("cannot load the rules", &d);
	free(p);
	crown_diags_release(&d);
}

/* The dice of the case: its script, or campaign dice. */
static struct crown_dice *
fuzz_turn_dice(const struct crown_ynode *list, struct crown_diags *d)
{
	static const unsigned char secret[CROWN_SECRET_BYTES] = "crown-fuzz";
	struct crown_dice	*dice = NULL;
	struct crown_buf	 script = { 0 };
	size_t			 i;

	if (list == NULL || list->kind != CROWN_Y_SEQ)
		return crown_dice_campaign(secret);
	crown_buf_puts(&script, "");
	for (i = 0; i < list->n; i++)
		if (list->item[i]->kind == CROWN_Y_SCALAR)
			crown_buf_printf(&script, "%s\n", list->item[i]->str);
	if (crown_dice_script_parse(&dice, "dice", script.data, script.len,
	    d) != 0)
		dice = NULL;
	crown_buf_release(&script);
	return dice;
}

static int
fuzz_turn(const uint8_t *data, size_t size)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc = NULL, *evdoc = NULL;
	const struct crown_ynode	*root, *v, *list;
	struct crown_state		*s = NULL, *again = NULL;
	struct crown_orders		*orders[FUZZ_TURN_MAX_ORDERS] = { 0 };
	struct crown_dice		*dice = NULL;
	struct crown_events		 ev = { 0 };
	struct crown_buf		 text = { 0 }, evtext = { 0 };
	size_t				 n = 0, i;
	int				 bad = 0, error, turn;

	fuzz_turn_setup();
	if (crown_ydoc_parse(&doc, "fuzz.yaml", (const char *)data, size,
	    &crown_ylimits_orders, &d) != 0)
		goto cleanup;
	root = crown_ydoc_root(doc);
	if ((v = crown_ymap_get(root, "state")) == NULL ||
	    crown_ynode_emit(&text, v) != 0 ||
	    crown_state_parse(&s, "state.yaml", text.data, text.len, &d) != 0)
		goto cleanup;
	crown_buf_release(&text);
	list = crown_ymap_get(root, "orders");
	for (i = 0; list != NULL && list->kind == CROWN_Y_SEQ &&
	    i < list->n && n < FUZZ_TURN_MAX_ORDERS; i++) {
		if (crown_ynode_emit(&text, list->item[i]) != 0)
			crown_fuzz_fail("cannot write a parsed tree", &d);
		if (crown_orders_parse(&orders[n], "orders.yaml", text.data,
		    text.len, &d) != 0)
			bad = 1;
		if (orders[n] != NULL)
			n++;
		crown_buf_release(&text);
	}
	if (crown_orders_validate_set(orders, n, s, fuzz_turn_rules, &d) != 0)
		bad = 1;
	if (bad)
		goto cleanup;
	if ((dice = fuzz_turn_dice(crown_ymap_get(root, "dice"), &d)) == NULL)
		goto cleanup;
	turn = s->turn;
	error = crown_resolve(s, orders, n, fuzz_turn_rules, dice, &ev, &d);
	if (error == CROWN_EINVALID && d.n > 0)
		goto cleanup;	/* the dice ran out or did not fit */
	if (error != 0)
		crown_fuzz_fail("resolve failed without a reason", &d);
	if (s->turn != turn + 1)
		crown_fuzz_fail("the turn did not advance", &d);
	if (crown_state_emit(&text, s) != 0 ||
	    crown_state_parse(&again, "new-state.yaml", text.data, text.len,
	    &d) != 0)
		crown_fuzz_fail("the new state does not read back", &d);
	if (crown_events_emit(&evtext, &ev) != 0 ||
	    crown_ydoc_parse(&evdoc, "events.yaml", evtext.data, evtext.len,
	    &crown_ylimits_state, &d) != 0)
		crown_fuzz_fail("the events are not YAML", &d);
cleanup:
	crown_ydoc_free(evdoc);
	crown_buf_release(&evtext);
	crown_buf_release(&text);
	crown_events_release(&ev);
	crown_dice_free(dice);
	for (i = 0; i < n; i++)
		crown_orders_free(orders[i]);
	crown_state_free(again);
	crown_state_free(s);
	crown_ydoc_free(doc);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_turn)
