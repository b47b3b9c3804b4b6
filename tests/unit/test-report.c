/*
 * test-report.c: the reports and the map of a turn (report.c, svg.c and
 * the templates of templates/).
 *
 * Golden reports: a conformance case run through the engine, and a turn
 * whose events are written here by hand (fire, a charge, a melee, a rout),
 * so that the reports of every kind of event are pinned down whatever the
 * rule modules say.  Their outputs must equal the files under
 * tests/golden/expected/reports/NAME/ byte for byte; after a deliberate
 * change of wording, regenerate them with
 *
 *	CROWN_UPDATE_GOLDEN=1 ./build/tests/test-report
 *
 * and read the diff.  The map must be well-formed XML and must render:
 * rsvg-convert (librsvg2-bin) turns it into a PNG of the map's size that
 * is far bigger than the PNG of an empty page of the same size.
 */
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "testutil.h"
#include "svgread.h"

#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/report.h"
#include "crown/template.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define GOLDEN	"tests/golden/expected/reports"

static struct crown_rules *rules;

/* A resolved turn: the inputs of the reports. */
struct turn {
	struct crown_state	*before, *after;
	struct crown_orders	*orders[4];
	size_t			 norders;
	struct crown_events	 ev;
};

static void
turn_release(struct turn *t)
{
	size_t	i;

	crown_events_release(&t->ev);
	for (i = 0; i < t->norders; i++)
		crown_orders_free(t->orders[i]);
	crown_state_free(t->before);
	crown_state_free(t->after);
	memset(t, 0, sizeof(*t));
}

static int
render(struct crown_outputs *out, const struct turn *t, const char *dir,
    struct crown_diags *d)
{
	struct crown_report_input	in;

	memset(&in, 0, sizeof(in));
	in.before = t->before;
	in.after = t->after;
	in.events = &t->ev;
	in.orders = t->orders;
	in.norders = t->norders;
	in.rules = rules;
	in.templates = dir;
	return crown_report_render(out, &in, d);
}

static const struct crown_output *
output(const struct crown_outputs *o, const char *name)
{
	size_t	i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->v[i].name, name) == 0)
			return &o->v[i];
	return NULL;
}

/* Run tests/cases/NAME.yaml through the engine; false (and nothing to
 * release) for a case whose orders or dice are meant to fail. */
static bool
try_case(struct turn *t, const char *name)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*root, *list;
	struct crown_buf		 text = { 0 }, script = { 0 };
	struct crown_dice		*dice = NULL;
	char				*path;
	size_t				 i;
	bool				 ok;

	memset(t, 0, sizeof(*t));
	path = xasprintf("tests/cases/%s.yaml", name);
	assert_int_equal(crown_ydoc_load(&doc, path, NULL, &d), 0);
	root = crown_ydoc_root(doc);
	list = crown_ymap_get(root, "expect");
	if (crown_ymap_get(list, "invalid") != NULL ||
	    crown_ymap_get(list, "dice_error") != NULL) {
		crown_ydoc_free(doc);
		free(path);
		return false;
	}
	crown_ynode_emit(&text, crown_ymap_get(root, "state"));
	assert_int_equal(crown_state_parse(&t->after, path, text.data,
	    text.len, &d), 0);
	crown_buf_release(&text);
	list = crown_ymap_get(root, "orders");
	for (i = 0; list != NULL && i < list->n && i < 4; i++) {
		crown_ynode_emit(&text, list->item[i]);
		crown_orders_parse(&t->orders[t->norders++], path, text.data,
		    text.len, &d);
		assert_no_diags(&d);
		crown_buf_release(&text);
	}
	/* a case refused or failing in the engine is test-cases' to report */
	ok = crown_orders_validate_set(t->orders, t->norders, t->after, rules,
	    &d) == 0;
	crown_buf_puts(&script, "");
	list = crown_ymap_get(root, "dice");
	for (i = 0; list != NULL && i < list->n; i++)
		crown_buf_printf(&script, "%s\n", list->item[i]->str);
	assert_int_equal(crown_dice_script_parse(&dice, "dice", script.data,
	    script.len, &d), 0);
	t->before = crown_state_clone(t->after);
	if (ok)
		ok = crown_resolve(t->after, t->orders, t->norders, rules,
		    dice, &t->ev, &d) == 0;
	crown_diags_release(&d);
	crown_dice_free(dice);
	crown_buf_release(&script);
	crown_ydoc_free(doc);
	free(path);
	if (!ok)
		turn_release(t);
	return ok;
}

static void
load_case(struct turn *t, const char *name)
{
	assert_true(try_case(t, name));
}

static const char synthetic_french[] =
    "game: Test Skirmish\nturn: 3\nside: french\norders:\n"
    "  - unit: 1-legion\n"
    "    actions: [{move: {to: [30, 16.5], face: 0}}, {fire: 2-militia}]\n"
    "  - unit: gun-1\n    actions: [{fire: 2-militia}]\n"
    "  - leader: danjou\n    detach: true\n";
static const char synthetic_republic[] =
    "game: Test Skirmish\nturn: 3\nside: republic\norders:\n"
    "  - unit: 3-cav\n    actions: [{charge: 1-legion}]\n";

static size_t
event(struct turn *t, const char *half, enum crown_phase phase,
    const char *kind, const char *unit, const char *target,
    const char *rule, const char *text)
{
	size_t	i;

	i = crown_events_add(&t->ev, 3, half, phase, kind, unit, rule);
	if (target != NULL)
		crown_event_set(&crown_events_at(&t->ev, i)->target, "%s",
		    target);
	crown_event_set(&crown_events_at(&t->ev, i)->text, "%s", text);
	return i;
}

static struct crown_die_rec *
die(struct turn *t, size_t i, int faces, int roll, const char *purpose)
{
	struct crown_event	*e = crown_events_at(&t->ev, i);
	size_t			 k;

	/* the die first: adding it may move e->dice */
	k = crown_event_die(e, faces, roll, purpose);
	return &e->dice[k];
}

/*
 * A hand-made turn on tests/data/state-small.yaml: the Legion moves and
 * fires, the gun's order is skipped, the Lancers charge and melee, the
 * militia routs.
 */
static void
load_synthetic(struct turn *t)
{
	struct crown_diags	 d = { 0 };
	struct crown_unit	*u;
	struct crown_event	*e;
	struct crown_die_rec	*r;
	size_t			 i;

	memset(t, 0, sizeof(*t));
	assert_int_equal(crown_state_load(&t->before,
	    "tests/data/state-small.yaml", &d), 0);
	assert_int_equal(crown_orders_parse(&t->orders[0], "french.yaml",
	    synthetic_french, strlen(synthetic_french), &d), 0);
	assert_int_equal(crown_orders_parse(&t->orders[1], "republic.yaml",
	    synthetic_republic, strlen(synthetic_republic), &d), 0);
	t->norders = 2;
	assert_no_diags(&d);

	i = event(t, "french", CROWN_PHASE_CHARGE, "half_turn", NULL, NULL,
	    "R2.1", "Turn 3: Foreign Legion moves.");
	i = event(t, "french", CROWN_PHASE_ACTIONS, "move", "1-legion", NULL,
	    "R4.1", "3rd Company, Foreign Legion advanced 4.00 inches north.");
	e = crown_events_at(&t->ev, i);
	e->has_from = e->has_to = true;
	e->from = (struct crown_point){ 30, 12.5 };
	e->to = (struct crown_point){ 30, 16.5 };
	r = die(t, i, 6, 3, "move");
	crown_die_mod(r, "infantry", 4, "R4.1");
	crown_die_mod(r, "hill", -3, "R4.3");
	i = event(t, "french", CROWN_PHASE_ACTIONS, "fire", "1-legion",
	    "2-militia", "R5.1", "3rd Company, Foreign Legion fired at the "
	    "Militia of Veracruz at 13.50 inches (long range): rolled 1, 4, "
	    "0, scored 0, 3, -1 needing 1 or less: 2 casualties.");
	e = crown_events_at(&t->ev, i);
	/* from the Legion's new place to the militia before it routed */
	e->has_at = true;
	e->at = (struct crown_point){ 30, 16.5 };
	e->target_at = (struct crown_point){ 30, 30 };
	e->has_range = true;
	e->range = 13.5;
	crown_event_set(&e->band, "long");
	e->has_casualties = true;
	e->casualties = 2;
	crown_event_set(&e->result, "hit");
	r = die(t, i, 10, 1, "fire");
	crown_event_set(&r->who, "stand 1");
	crown_die_mod(r, "veteran", -1, "R3.1");
	r = die(t, i, 10, 4, "fire");
	crown_event_set(&r->who, "stand 2");
	crown_die_mod(r, "veteran", -1, "R3.1");
	r = die(t, i, 10, 0, "fire");
	crown_event_set(&r->who, "stand 3");
	crown_die_mod(r, "veteran", -1, "R3.1");
	crown_die_mod(r, "unnamed", 0, NULL);
	i = event(t, "french", CROWN_PHASE_ACTIONS, "order_skipped", "gun-1",
	    "2-militia", "R2.2", "Mountain Gun's order to fire was not "
	    "carried out: the target is out of sight.");
	e = crown_events_at(&t->ev, i);
	crown_event_set(&e->reason, "the target is out of sight");
	crown_event_set(&e->order, "fire");
	i = event(t, "french", CROWN_PHASE_MORALE, "morale", "2-militia",
	    NULL, "R7.2", "Militia of Veracruz tested its morale: 11, rout.");
	e = crown_events_at(&t->ev, i);
	crown_event_set(&e->result, "rout");
	r = die(t, i, 10, 9, "morale");
	crown_die_mod(r, "militia", 2, "R3.1");
	i = event(t, "french", CROWN_PHASE_MORALE, "rout_move", "2-militia",
	    NULL, "R8.1", "Militia of Veracruz fled 14.00 inches north.");
	e = crown_events_at(&t->ev, i);
	e->has_from = e->has_to = true;
	e->from = (struct crown_point){ 30, 30 };
	e->to = (struct crown_point){ 30, 44 };
	r = die(t, i, 6, 5, "rout");

	i = event(t, "republic", CROWN_PHASE_CHARGE, "half_turn", NULL, NULL,
	    "R2.1", "Turn 3: Mexican Republic moves.");
	i = event(t, "republic", CROWN_PHASE_CHARGE, "charge_test", "3-cav",
	    "1-legion", "R7.2", "Lancers of Jalapa tested to charge the 3rd "
	    "Company, Foreign Legion: 3, charge.");
	crown_event_set(&crown_events_at(&t->ev, i)->result, "charge");
	r = die(t, i, 10, 2, "charge test");
	crown_die_mod(r, "poor", 1, "R3.1");
	i = event(t, "republic", CROWN_PHASE_CHARGE, "charge_move", "3-cav",
	    "1-legion", "R9.1", "Lancers of Jalapa charged home into the 3rd "
	    "Company, Foreign Legion.");
	e = crown_events_at(&t->ev, i);
	e->has_from = e->has_to = true;
	e->from = (struct crown_point){ 50, 40 };
	e->to = (struct crown_point){ 31, 17.5 };
	i = event(t, "republic", CROWN_PHASE_MELEE, "melee", "3-cav",
	    "1-legion", "R9.5", "Lancers of Jalapa & the 3rd Company met in "
	    "melee: the Legion lost 2 figures.");
	e = crown_events_at(&t->ev, i);
	e->has_casualties = true;
	e->casualties = 2;
	r = die(t, i, 10, 1, "melee");
	crown_event_set(&r->who, "Lancers of Jalapa");
	crown_die_mod(r, "charging", -1, "R9.5");
	crown_die_mod(r, "3 stands", -3, "R9.5");
	r = die(t, i, 10, 3, "melee");
	crown_event_set(&r->who, "3rd Company, Foreign Legion");
	crown_die_mod(r, "veteran", -1, "R3.1");
	i = event(t, "republic", CROWN_PHASE_MORALE, "morale", "3-cav", NULL,
	    "R7.2", "Lancers of Jalapa tested their morale: 2, ok.");
	crown_event_set(&crown_events_at(&t->ev, i)->result, "ok");
	r = die(t, i, 10, 1, "morale");
	crown_die_mod(r, "poor", 1, "R3.1");

	t->after = crown_state_clone(t->before);
	t->after->turn = 3;
	u = crown_state_unit(t->after, "1-legion");
	u->y = 16.5;
	u->loaded = false;
	crown_unit_take_casualties(u, 2);
	u = crown_state_unit(t->after, "2-militia");
	crown_unit_take_casualties(u, 2);
	u->y = 44;
	u->status = CROWN_ROUTING;
	u->routs = 1;
	u = crown_state_unit(t->after, "3-cav");
	u->x = 31;
	u->y = 17.5;
	u->disordered = true;
	free(t->after->melees);		/* the clone's empty list */
	t->after->melees = xcalloc(1, sizeof(*t->after->melees));
	t->after->nmelees = 1;
	t->after->melees[0].attackers = xcalloc(1, sizeof(char *));
	t->after->melees[0].attackers[0] = xstrdup("3-cav");
	t->after->melees[0].nattackers = 1;
	t->after->melees[0].defenders = xcalloc(1, sizeof(char *));
	t->after->melees[0].defenders[0] = xstrdup("1-legion");
	t->after->melees[0].ndefenders = 1;
	t->after->melees[0].rounds = 1;
	free(crown_state_leader(t->after, "danjou")->attached);
	crown_state_leader(t->after, "danjou")->attached = NULL;
	crown_state_leader(t->after, "danjou")->x = 31;
	crown_state_leader(t->after, "danjou")->y = 15;
}

static void
compare_golden(const struct crown_outputs *o, const char *name)
{
	char	*dir, *path, *want;
	size_t	 i;
	FILE	*fp;
	bool	 update = getenv("CROWN_UPDATE_GOLDEN") != NULL;

	dir = xasprintf("%s/%s", GOLDEN, name);
	if (update)
		mkdir(dir, 0777);
	for (i = 0; i < o->n; i++) {
		path = xasprintf("%s/%s", dir, o->v[i].name);
		if (update) {
			assert_non_null(fp = fopen(path, "w"));
			fwrite(o->v[i].data.data, 1, o->v[i].data.len, fp);
			fclose(fp);
		}
		want = tu_slurp(path);
		if (want == NULL) {
			print_error("%s is missing\n", path);
			fail();
		}
		if (strcmp(want, o->v[i].data.data) != 0) {
			print_error("%s differs; got:\n%s\n", path,
			    o->v[i].data.data);
			fail();
		}
		free(want);
		free(path);
	}
	free(dir);
}

static void
test_golden_case(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };

	load_case(&t, "R2.1-report-turn-dispatch");
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_no_diags(&d);
	/* report.md, then each side in the order of the sides, then map */
	assert_int_equal(o.n, 4);
	assert_string_equal(o.v[0].name, "report.md");
	assert_string_equal(o.v[1].name, "report-french.md");
	assert_string_equal(o.v[2].name, "report-republic.md");
	assert_string_equal(o.v[3].name, "map.svg");
	compare_golden(&o, "R2.1-report-turn-dispatch");
	crown_outputs_release(&o);
	turn_release(&t);
}

static void
test_golden_synthetic(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 }, again = { 0 };
	struct crown_diags	 d = { 0 };
	size_t			 i;

	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_no_diags(&d);
	compare_golden(&o, "synthetic");
	/* the same inputs give the same bytes */
	assert_int_equal(render(&again, &t, "templates", &d), 0);
	assert_int_equal(again.n, o.n);
	for (i = 0; i < o.n; i++)
		assert_string_equal(again.v[i].data.data, o.v[i].data.data);
	crown_outputs_release(&again);
	crown_outputs_release(&o);
	turn_release(&t);
}

#define assert_has(text, want) do {					\
	if (strstr((text), (want)) == NULL) {				\
		print_error("no \"%s\" in:\n%s\n", (want), (text));	\
		fail();							\
	}								\
} while (0)
#define assert_lacks(text, want) do {					\
	if (strstr((text), (want)) != NULL) {				\
		print_error("\"%s\" should not be in:\n%s\n", (want),	\
		    (text));						\
		fail();							\
	}								\
} while (0)

/* What each side sees of the other. */
static void
test_side_view(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*um, *fr, *re;

	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	um = output(&o, "report.md")->data.data;
	fr = output(&o, "report-french.md")->data.data;
	re = output(&o, "report-republic.md")->data.data;

	/* the umpire sees everything, with every die */
	assert_has(um, "Lancers of Jalapa tested their morale: 2, ok. (R7.2)");
	assert_has(um, "[D10 fire ×2: 1, 4, veteran -1 (R3.1) = 0, 3; D10 fire "
	    "(stand 3): 0, veteran -1 (R3.1), unnamed +0 = -1]");
	assert_has(um, "R2.2: 1 order.\n\n- Mountain Gun: fire at Militia of "
	    "Veracruz: the target is out of sight.\n");

	/* the French: their own rolls, the enemy's against them, not the
	 * Lancers' own morale test; the militia's rout only as seen */
	assert_has(fr, "[D6 move: 3, infantry +4 (R4.1), hill -3 (R4.3) = "
	    "4]");
	assert_has(fr, "[D10 charge test: 2, poor +1 (R3.1) = 3]");
	assert_has(fr, "Lancers of Jalapa & the 3rd Company met in melee");
	assert_lacks(fr, "tested their morale");
	assert_lacks(fr, "rolled 9");
	assert_has(fr, "\nMilitia of Veracruz broke and routed. Militia of "
	    "Veracruz ran for the rear as far as (30.00, 44.00).\n");
	assert_has(fr, "| Mountain Gun | fire at Militia of Veracruz | no "
	    "fire: the target is out of sight (R2.2) |");
	assert_lacks(fr, "### Mexican Republic");

	/* the Republic: the Legion's fire at them in full, its move as
	 * seen, none of the Legion's orders or their skipped gun */
	assert_has(re, "[D10 fire ×2: 1, 4, veteran -1 (R3.1) = 0, 3;");
	assert_has(re, "\n3rd Company, Foreign Legion was seen to move to "
	    "(30.00, 16.50). 3rd Company, Foreign Legion fired at the "
	    "Militia of Veracruz");
	assert_has(re, "- infantry, 3 stands, ok, facing north: 3rd Company, "
	    "Foreign Legion (30, 16.5), in melee.\n");
	/* where its own units stand, and what the enemy's are doing */
	assert_has(re, "## Where your units stand\n\n- Militia of Veracruz: "
	    "in the open; its smoothbore reaches close to 4, medium to 8, "
	    "long to 12 inches; now unloaded.\n");
	assert_has(re, "Mountain Gun (35, 10), limbered.\n");
	assert_lacks(re, "rolled 3, infantry");
	assert_lacks(re, "out of sight");
	assert_lacks(re, "Foreign Legion moved");
	assert_lacks(re, "### Foreign Legion");
	assert_has(re, "Militia of Veracruz tested its morale: 11, rout.");
	assert_lacks(re, "Danjou");

	crown_outputs_release(&o);
	turn_release(&t);
}

/* Danjou, detached, rides from (30, 12.5) to (30, 15.5). */
static void
leader_move(struct turn *t)
{
	struct crown_event	*e;
	size_t			 i;

	i = event(t, "french", CROWN_PHASE_ACTIONS, "move", NULL, NULL,
	    "R4.6", "Captain Danjou rode 3 inches north.");
	e = crown_events_at(&t->ev, i);
	crown_event_set(&e->leader, "danjou");
	e->has_from = e->has_to = true;
	e->from = (struct crown_point){ 30, 12.5 };
	e->to = (struct crown_point){ 30, 15.5 };
}

/*
 * An enemy leader's move is seen with his name (issue 21: it read "-
 * was seen to move to ..." with none), and a general named "General
 * ..." is not "general General ..." in a die's modifier.
 */
static void
test_seen_leader_move(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*re;

	load_synthetic(&t);
	leader_move(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	re = output(&o, "report-republic.md")->data.data;
	assert_has(re, "\nSeen to move: danjou.\n");
	assert_lacks(re, "Seen to move: .");
	crown_outputs_release(&o);
	turn_release(&t);
	crown_diags_release(&d);
}

/*
 * "Carried out" only of an order carried out in full (FORMATS.md, "What a
 * player is shown"): a move halted short of a friend it may not end on
 * (R4.7) or spent before its way's end (R4.1), a charge that fell short
 * (R9.3) or did not go in (R9.1), says so and why in the side's report,
 * and the umpire's "What needs a look" lists it, one line each, and not
 * among the orders carried out.
 */
static void
test_carried_in_full(void **state)
{
	static const struct {
		const char	*name, *report, *side[3], *umpire[3], *not;
	} c[] = {
		{ "R4.7-pass-through-friend", "report-french.md", {
		    "| a | move to (10, 20) | carried out |",
		    "| c | move to (30, 30) | moved 8.76 of 20 inches: halted "
		    "at the last point of its way clear of d, on which it "
		    "may not end (R4.7) |",
		    "| e | move to (50, 30) | moved 9 of 20 inches: its move "
		    "was spent (R4.1) |" }, {
		    "R4.7: 2 orders.\n\n- c: move to (30, 30): moved 8.76 of "
		    "20 inches: halted at the last point of its way clear of "
		    "d, on which it may not end.\n- i: move to (90, 30): "
		    "moved 8.99 of 20 inches: ",
		    "R4.1: 2 orders.\n\n- e: move to (50, 30): moved 9 of 20 "
		    "inches: its move was spent.\n",
		    "- a: move to (10, 20).\n" },
		    "- c: move to (30, 30).\n" },
		{ "R9.3-contact-or-not", "report-red.md", {
		    "| Red A | charge Blue A | carried out |",
		    "| Red B | charge Blue B | charged, fell 0.61 inches short "
		    "of Blue B and is disordered (R9.3) |", NULL }, {
		    "R9.3: 1 order.\n\n- Red B: charge Blue B: charged, fell "
		    "0.61 inches short of Blue B and is disordered.\n",
		    "- Red A: charge Blue A.\n", NULL },
		    "- Red B: charge Blue B.\n" },
		{ "R7.2-charging-column-edges", "report-red.md", {
		    "| Red 6 | charge Blue 6 | did not charge: the charge test "
		    "said hold (R9.1) |",
		    "| Red 8 | charge Blue 8 | did not charge: the charge test "
		    "said hold, and it is disordered (R9.1) |", NULL }, {
		    "R9.1: 3 orders.\n\n- Red 6: charge Blue 6: did not "
		    "charge: the charge test said hold.\n", NULL, NULL },
		    "- Red 6: charge Blue 6.\n" },
	};
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*um, *side;
	size_t			 i, k;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		load_case(&t, c[i].name);
		assert_int_equal(render(&o, &t, "templates", &d), 0);
		assert_no_diags(&d);
		side = output(&o, c[i].report)->data.data;
		um = output(&o, "report.md")->data.data;
		for (k = 0; k < 3; k++) {
			if (c[i].side[k] != NULL)
				assert_has(side, c[i].side[k]);
			if (c[i].umpire[k] != NULL)
				assert_has(um, c[i].umpire[k]);
		}
		assert_lacks(um, c[i].not);
		crown_outputs_release(&o);
		turn_release(&t);
	}
}

/* A die's purpose and a modifier named for identifiers of the rules are
 * in words: a gun's move is "foot artillery base" (issue 32). */
static void
test_modifier_words(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_die_rec	*r;
	const char		*um;
	size_t			 i;

	(void)state;
	load_synthetic(&t);
	i = event(&t, "french", CROWN_PHASE_ACTIONS, "leader_check", "gun-1",
	    NULL, "R4.1", "Mountain Gun stayed where it was.");
	r = die(&t, i, 6, 2, "leader_check");
	crown_die_mod(r, "foot_artillery base", 4, "R4.1");
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	um = output(&o, "report.md")->data.data;
	assert_has(um, "[D6 leader check: 2, foot artillery base +4 (R4.1) = ");
	assert_lacks(um, "foot_artillery");
	crown_outputs_release(&o);
	turn_release(&t);
	crown_diags_release(&d);
}

/* Names are escaped for Markdown in the reports and for XML in the map. */
static void
test_escaping(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_unit	*u;

	load_synthetic(&t);
	u = crown_state_unit(t.after, "3-cav");
	free(u->name);
	u->name = xstrdup("*Lanceros* <de> Jalapa & [Co] | #1");
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_has(output(&o, "report-republic.md")->data.data,
	    "| \\*Lanceros\\* \\<de\\> Jalapa & \\[Co\\] \\| #1 | "
	    "charge 3rd Company, Foreign Legion | carried out | cavalry | "
	    "3/3 | 9/9 | ok, disordered, in melee | (31, 17.5) south |");
	assert_has(output(&o, "map.svg")->data.data,
	    ">*Lanceros* &lt;de&gt; Jalapa &amp; [Co] | #1</text>");
	crown_outputs_release(&o);
	turn_release(&t);
}

static void
test_xml_checker(void **state)
{
	assert_null(svgread_xml_check("<?xml version=\"1.0\"?>\n"
	    "<a x=\"1\"><b/>"
	    "t &amp; u</a>\n"));
	assert_non_null(svgread_xml_check("<a><b></a></b>"));
	assert_non_null(svgread_xml_check("<a>fish & chips</a>"));
	assert_non_null(svgread_xml_check("<a x=1></a>"));
	assert_non_null(svgread_xml_check("<a></a><b></b>"));
	assert_non_null(svgread_xml_check("<a>"));
	assert_non_null(svgread_xml_check("<a t=\"<\"/>"));
}

static void
test_svg_wellformed(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*svg, *bad;

	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	svg = output(&o, "map.svg")->data.data;
	if ((bad = svgread_xml_check(svg)) != NULL) {
		print_error("map.svg is not well-formed: %s\n", bad);
		fail();
	}
	/* what must be on the map */
	assert_has(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "version=\"1.1\" width=\"780.0\"");
	assert_has(svg, "<polygon class=\"hill\" points=\"130.0,420.0 "
	    "230.0,420.0 230.0,340.0 130.0,340.0\">");
	assert_has(svg, "<polyline class=\"road\" points=\"30.0,280.0 "
	    "750.0,280.0\" stroke-width=\"10.0\">");
	assert_has(svg, ">hacienda (class 2)</text>");
	/* the Legion: three stands of 1 inch abreast, 0.75 deep, facing
	 * north from (30, 16.5), each drawn */
	assert_has(svg, "<g class=\"unit side-0\" id=\"u-1-legion\">");
	assert_has(svg, "<polygon class=\"stand\" points=\"315.0,355.0 "
	    "325.0,355.0 325.0,362.5 315.0,362.5\"/>");
	assert_has(svg, "<polygon class=\"stand\" points=\"335.0,355.0 "
	    "345.0,355.0 345.0,362.5 335.0,362.5\"/>");
	assert_has(svg, ">3rd Company, Foreign Legion</text>");
	/* in melee with the lancers (R9.8) */
	assert_has(svg, ">3 st, 10 fig, in melee</text>");
	assert_has(svg, ">4 st, 14 fig, routing</text>");
	/* the inches along the edges: 0 to 72 across, 0 to 48 up */
	assert_has(svg, "<text class=\"coord\" x=\"750.0\" y=\"36.0\">72"
	    "</text>");
	assert_has(svg, ">48</text>");
	/* leaders, with their names; the attached one on his unit */
	assert_has(svg, "<circle class=\"leader-mark side-1\" cx=\"530.0\" "
	    "cy=\"80.0\" r=\"3.5\"><title>milan</title></circle>");
	assert_has(svg, "<text class=\"leader-name\"");
	assert_has(svg, ">danjou</text>");
	assert_has(svg, "<line class=\"move\" x1=\"330.0\" y1=\"395.0\" "
	    "x2=\"330.0\" y2=\"355.0\" marker-end=\"url(#arrow-move)\">");
	assert_has(svg, "<line class=\"charge\" x1=\"530.0\" y1=\"120.0\" "
	    "x2=\"340.0\" y2=\"345.0\" marker-end=\"url(#arrow-charge)\">");
	assert_has(svg, "<line class=\"rout\" x1=\"330.0\" y1=\"220.0\" "
	    "x2=\"330.0\" y2=\"80.0\"");
	/* fire from where the Legion stood to where the militia stood
	 * when it fired, not to where the militia routed to */
	assert_has(svg, "<line class=\"fire\" x1=\"330.0\" y1=\"355.0\" "
	    "x2=\"330.0\" y2=\"220.0\">");
	assert_has(svg, "<circle class=\"melee-ring\" cx=\"335.0\" "
	    "cy=\"350.0\" r=\"8\"/>");
	assert_has(svg, "<g class=\"unit side-1 routing\" "
	    "id=\"u-2-militia\">");
	assert_has(svg, ">Militia of Veracruz</text>");
	assert_has(svg, ">Foreign Legion</text>");
	assert_has(svg, "inches (10.0 pixels to the inch)</text>");
	/* the legend has what the map draws, and only that */
	assert_has(svg, ">rout</text>");
	assert_has(svg, ">charge</text>");
	assert_has(svg, ">routing unit</text>");
	assert_lacks(svg, ">retirement</text>");
	assert_lacks(svg, ">lost unit</text>");
	/* move, charge, retirement, rout and fire each in a style of its
	 * own */
	{
		static const char *const cls[] = {
			"\n.move {", "\n.charge {", "\n.retire {",
			"\n.rout {", "\n.fire {", "\n.leader {"
		};
		char	*body[CROWN_NELEM(cls)];
		size_t	 a, b;

		for (a = 0; a < CROWN_NELEM(cls); a++) {
			const char *p = strstr(svg, cls[a]);

			assert_non_null(p);
			p += strlen(cls[a]);
			body[a] = xstrndup(p, strcspn(p, "}"));
		}
		for (a = 0; a < CROWN_NELEM(cls); a++)
			for (b = a + 1; b < CROWN_NELEM(cls); b++)
				if (strcmp(body[a], body[b]) == 0) {
					print_error("%s and %s look alike\n",
					    cls[a] + 1, cls[b] + 1);
					fail();
				}
		for (a = 0; a < CROWN_NELEM(cls); a++)
			free(body[a]);
	}
	crown_outputs_release(&o);
	turn_release(&t);
}

/* A leader's move is drawn in its own style, named, and in the legend;
 * the leader's mark at its end carries his name (issue 21). */
static void
test_svg_leader_move(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*svg;

	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_lacks(output(&o, "map.svg")->data.data, ">leader&apos;s move<");
	crown_outputs_release(&o);
	leader_move(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	svg = output(&o, "map.svg")->data.data;
	assert_has(svg, "<line class=\"leader\" x1=\"330.0\" y1=\"395.0\" "
	    "x2=\"330.0\" y2=\"365.0\" marker-end=\"url(#arrow-leader)\">"
	    "<title>danjou: move</title></line>");
	assert_has(svg, ">leader&apos;s move</text>");
	assert_null(svgread_xml_check(svg));
	crown_outputs_release(&o);
	turn_release(&t);
	crown_diags_release(&d);
}

/* A unit of more stands than svg.c makes room for at first (sixteen):
 * each is drawn all the same, the last where it stands (the table of
 * state-small is 48 inches high, its north-west corner at pixel (30,
 * 40)). */
static void
test_svg_many_stands(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_unit	*u;
	struct crown_quad	 st[20];
	struct svgread		 r = { 0 };
	const char		*svg;
	char			 want[256];
	size_t			 i;

	(void)state;
	load_synthetic(&t);
	assert_non_null(u = crown_state_unit(t.after, "1-legion"));
	u->stands = xreallocarray(u->stands, 20, sizeof(*u->stands));
	for (i = 0; i < 20; i++)
		u->stands[i] = 4;
	u->nstands = 20;
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	svg = output(&o, "map.svg")->data.data;
	assert_true(svgread_parse(&r, svg));
	for (i = 0; i < r.nunits; i++)
		if (strcmp(r.units[i].id, "u-1-legion") == 0)
			break;
	assert_true(i < r.nunits);
	assert_int_equal(r.units[i].stands, 20);
	assert_int_equal(crown_unit_stand_footprints(st, 20, rules, u), 20);
	snprintf(want, sizeof(want), "<polygon class=\"stand\" points=\""
	    "%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
	    30 + st[19].c[0].x * 10, 40 + (48 - st[19].c[0].y) * 10,
	    30 + st[19].c[1].x * 10, 40 + (48 - st[19].c[1].y) * 10,
	    30 + st[19].c[2].x * 10, 40 + (48 - st[19].c[2].y) * 10,
	    30 + st[19].c[3].x * 10, 40 + (48 - st[19].c[3].y) * 10);
	assert_has(svg, want);
	svgread_release(&r);
	crown_outputs_release(&o);
	turn_release(&t);
	crown_diags_release(&d);
}

static long
file_size(const char *path)
{
	struct stat	st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static unsigned long
be32(const unsigned char *p)
{
	return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 |
	    (unsigned long)p[2] << 8 | p[3];
}

/* Convert svg to PNG with rsvg-convert; returns the PNG's bytes. */
static char *
rasterise(const char *dir, const char *name, const char *svg, size_t len,
    long *size)
{
	char	*in, *out, *cmd, *png;
	FILE	*fp;
	int	 rc;

	in = xasprintf("%s/%s.svg", dir, name);
	out = xasprintf("%s/%s.png", dir, name);
	assert_non_null(fp = fopen(in, "w"));
	fwrite(svg, 1, len, fp);
	fclose(fp);
	cmd = xasprintf("rsvg-convert -f png -o '%s' '%s'", out, in);
	rc = system(cmd);
	if (rc != 0) {
		print_error("'%s' failed (status %d); rsvg-convert comes with "
		    "Debian's librsvg2-bin (make deps)\n", cmd, rc);
		fail();
	}
	*size = file_size(out);
	png = tu_slurp(out);
	assert_non_null(png);
	unlink(in);
	unlink(out);
	free(cmd);
	free(in);
	free(out);
	return png;
}

static void
test_svg_renders(void **state)
{
	struct turn		 t, q;
	struct crown_outputs	 o = { 0 }, oq = { 0 };
	struct crown_diags	 d = { 0 };
	const struct crown_output *map, *mapq;
	char			 dir[] = "/tmp/crown-svg-XXXXXX";
	char			*png, *pngq, *blank, *blank_svg;
	long			 size, sizeq, blank_size;

	assert_non_null(mkdtemp(dir));
	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	map = output(&o, "map.svg");
	png = rasterise(dir, "map", map->data.data, map->data.len, &size);
	/* a PNG of the map's size (780 x 664 pixels) */
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	assert_int_equal(be32((unsigned char *)png + 16), 780);
	assert_int_equal(be32((unsigned char *)png + 20), 664);

	/* an empty page of the same size compresses to almost nothing;
	 * the map, full of shapes and words, to far more */
	blank_svg = xasprintf("<?xml version=\"1.0\"?>\n<svg xmlns=\"http:"
	    "//www.w3.org/2000/svg\" width=\"780.0\" height=\"664.0\">"
	    "<rect width=\"780\" height=\"664\" fill=\"#f4efe1\"/></svg>\n");
	blank = rasterise(dir, "blank", blank_svg, strlen(blank_svg),
	    &blank_size);
	if (size < 10 * blank_size || size < 20000) {
		print_error("map.png is %ld bytes, an empty page %ld: the "
		    "map looks blank\n", size, blank_size);
		fail();
	}

	/* another turn draws another picture */
	load_case(&q, "R2.1-report-turn-dispatch");
	assert_int_equal(render(&oq, &q, "templates", &d), 0);
	mapq = output(&oq, "map.svg");
	pngq = rasterise(dir, "mapq", mapq->data.data, mapq->data.len,
	    &sizeq);
	assert_true(sizeq > 10 * blank_size);
	assert_true(sizeq != size || memcmp(png, pngq, (size_t)size) != 0);
	assert_null(svgread_xml_check(mapq->data.data));
	rmdir(dir);

	free(blank_svg);
	free(blank);
	free(pngq);
	free(png);
	crown_outputs_release(&oq);
	crown_outputs_release(&o);
	turn_release(&q);
	turn_release(&t);
}

static void
write_file(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*fp = fopen(p, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(p);
}

static void
remove_file(const char *dir, const char *name)
{
	char	*p = xasprintf("%s/%s", dir, name);

	unlink(p);
	free(p);
}

/* --templates DIR: another set; its problems name file, line, column. */
static void
test_other_templates(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	char			 dir[] = "/tmp/crown-tset-XXXXXX";
	char			*all;

	assert_non_null(mkdtemp(dir));
	load_synthetic(&t);
	write_file(dir, "report.md.tmpl", "Turn {{game.turn}}\n"
	    "{{#halves}}\n{{> half}}\n{{/halves}}\n");
	write_file(dir, "half.tmpl", "{{side_name}}: {{#phases}}"
	    "{{#events}}{{kind}} {{/events}}{{/phases}}\n");
	write_file(dir, "report-side.md.tmpl", "To {{side.name}}\n");
	write_file(dir, "map.svg.tmpl", "<svg>{{map.title}}</svg>\n");
	assert_int_equal(render(&o, &t, dir, &d), 0);
	assert_no_diags(&d);
	assert_string_equal(output(&o, "report.md")->data.data, "Turn 3\n"
	    "Foreign Legion: move fire order\\_skipped morale rout\\_move \n"
	    "Mexican Republic: charge\\_test charge\\_move melee morale \n");
	assert_string_equal(output(&o, "report-republic.md")->data.data,
	    "To Mexican Republic\n");
	assert_string_equal(output(&o, "map.svg")->data.data,
	    "<svg>Test Skirmish</svg>\n");
	crown_outputs_release(&o);

	/* a syntax error: CROWN_EINVALID (exit 65), with its place */
	write_file(dir, "report-side.md.tmpl", "To {{side.name}}\n"
	    "{{#units}}\n{{name}\n");
	assert_int_equal(render(&o, &t, dir, &d), CROWN_EINVALID);
	all = tu_diags(&d);
	assert_has(all, "/report-side.md.tmpl:3:1: error: '{{' is not "
	    "closed by '}}' on its line\n");
	assert_has(all, "/report-side.md.tmpl:2:1: error: '{{#units}}' is "
	    "never closed\n");
	free(all);
	crown_diags_release(&d);
	crown_outputs_release(&o);

	/* a missing partial: CROWN_ENOTFOUND (exit 66) */
	write_file(dir, "report-side.md.tmpl", "To {{side.name}}\n");
	remove_file(dir, "half.tmpl");
	assert_int_equal(render(&o, &t, dir, &d), CROWN_ENOTFOUND);
	assert_diag(&d, "/report.md.tmpl:3:1: error: no partial 'half'");
	crown_diags_release(&d);
	crown_outputs_release(&o);

	/* no templates at all */
	assert_int_equal(render(&o, &t, NULL, &d), CROWN_ENOTFOUND);
	assert_diag(&d, "give --templates DIR");
	crown_diags_release(&d);
	crown_outputs_release(&o);

	remove_file(dir, "report.md.tmpl");
	remove_file(dir, "report-side.md.tmpl");
	remove_file(dir, "map.svg.tmpl");
	rmdir(dir);
	turn_release(&t);
}

/*
 * FORMATS.md: every entry of events.yaml has a rule and a sentence, in
 * every conformance case; and every case's turn renders.
 */
static void
test_events_have_rule_and_text(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	DIR			*dp;
	struct dirent		*de;
	char			*name;
	size_t			 i, len, ncases = 0;

	assert_non_null(dp = opendir("tests/cases"));
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		name = xstrndup(de->d_name, len - 5);
		if (!try_case(&t, name)) {
			free(name);
			continue;
		}
		ncases++;
		for (i = 0; i < t.ev.n; i++) {
			const struct crown_event *e = &t.ev.v[i];

			if (e->rule == NULL || e->rule[0] == '\0' ||
			    e->text == NULL || e->text[0] == '\0') {
				print_error("%s: event %u (%s) has no %s\n",
				    name, e->seq, e->kind, e->rule == NULL ||
				    e->rule[0] == '\0' ? "rule" : "text");
				fail();
			}
		}
		assert_int_equal(render(&o, &t, "templates", &d), 0);
		assert_no_diags(&d);
		crown_outputs_release(&o);
		turn_release(&t);
		free(name);
	}
	closedir(dp);
	assert_true(ncases > 0);
}

/* How many times needle is in hay. */
static size_t
count_of(const char *hay, const char *needle)
{
	size_t	n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/*
 * Issue 21: each event is told once in each report (a side's report told
 * its own events twice, under its orders and in the turn), and each order
 * is listed once in the umpire's, with its outcome.
 */
static void
test_each_event_once(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*rep;
	size_t			 i, k;

	load_synthetic(&t);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	for (k = 0; k < o.n; k++) {
		if (strstr(o.v[k].name, ".md") == NULL)
			continue;
		rep = o.v[k].data.data;
		for (i = 0; i < t.ev.n; i++) {
			const char *text = t.ev.v[i].text;

			if (text == NULL || count_of(rep, text) <= 1)
				continue;
			print_error("%s tells \"%s\" %zu times\n",
			    o.v[k].name, text, count_of(rep, text));
			fail();
		}
	}
	rep = output(&o, "report.md")->data.data;
	assert_int_equal(count_of(rep, "Mountain Gun: fire at Militia"), 1);
	assert_int_equal(count_of(rep, "3rd Company, Foreign Legion: move "
	    "to (30, 16.5)"), 1);
	assert_int_equal(count_of(rep, "Lancers of Jalapa: charge"), 1);
	/* and the not carried out is under "what needs a look" */
	assert_true(strstr(rep, "Mountain Gun: fire at Militia") <
	    strstr(rep, "## The turn"));
	crown_outputs_release(&o);
	turn_release(&t);
}

/*
 * Issue 21: the summaries count in good English ("1 figure", not "1
 * figures") and a side's name with brackets is not followed by another
 * bracket ("Mexican Republic (Milán) (attacking)").
 */
static void
test_summary_wording(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_state	*s;
	const char		*um, *re;

	memset(&t, 0, sizeof(t));
	assert_int_equal(crown_state_load(&t.before,
	    "tests/data/state-small.yaml", &d), 0);
	s = t.before;
	free(s->sides[1].name);
	s->sides[1].name = xstrdup("Mexican Republic (Milán)");
	free(s->attacker);
	s->attacker = xstrdup(s->sides[1].id);
	t.after = crown_state_clone(t.before);
	crown_unit_take_casualties(crown_state_unit(t.after, "3-cav"), 1);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	um = output(&o, "report.md")->data.data;
	re = output(&o, "report-republic.md")->data.data;
	assert_has(um, "- Mexican Republic (Milán), attacking: lost 1 figure "
	    "and 0 stands, inflicted 0 figures and 0 stands;");
	assert_has(um, "- Foreign Legion: lost 0 figures and 0 stands, "
	    "inflicted 1 figure and 0 stands;");
	assert_lacks(um, ") (attacking)");
	assert_has(re, "Sir, this turn we lost 1 figure and 0 stands, and "
	    "inflicted none.\n");
	assert_has(output(&o, "report-french.md")->data.data,
	    "Sir, this turn we suffered no loss, and inflicted 1 figure and "
	    "0 stands on the enemy.\n");
	assert_lacks(um, "1 figures");
	crown_outputs_release(&o);
	turn_release(&t);
}

/*
 * Issue 21: a side's enemy in sight by type, stands, status and facing
 * (most stands first, a group's units in the state's order, the lost
 * left out), and a shot out of range or too close in brief in its own
 * table, in full for the umpire.
 */
static void
test_enemy_in_sight(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	const char		*um, *fr, *re;

	load_case(&t, "R6.2-siege-artillery-howitzer-bands");
	crown_state_unit(t.after, "t3")->status = CROWN_LOST;
	crown_state_unit(t.after, "t5")->status = CROWN_ROUTING;
	crown_unit_take_casualties(crown_state_unit(t.after, "t4"), 4);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	um = output(&o, "report.md")->data.data;
	fr = output(&o, "report-french.md")->data.data;
	re = output(&o, "report-republic.md")->data.data;
	assert_has(fr, "## The enemy in sight\n\n"
	    "- infantry, 4 stands, ok, facing south, 3 units: Target 1 "
	    "(4, 10); Target 2 (11, 10.01); Target 6 (39, 62.01).\n"
	    "- infantry, 4 stands, routing, facing south: Target 5 "
	    "(32, 62).\n"
	    "- infantry, 3 stands, ok, facing south: Target 4 (25, 38.01).\n");
	assert_lacks(fr, "Target 3 (18, 38)");
	assert_has(re, "- siege artillery, 1 stand, ok, facing north, 6 "
	    "units: Gun 1 (4, 2); Gun 2 (11, 2);");
	assert_has(fr, "| Gun 1 | fire at Target 1 | no fire: too close at "
	    "8.00 inches (R6.2) |");
	assert_has(fr, "| Gun 6 | fire at Target 6 | no fire: out of range at "
	    "60.01 inches (R6.2) |");
	assert_has(um, "Gun 6: fire at Target 6: Target 6 is 60.01 inches "
	    "away, out of range: its howitzer reaches 60.00 inches.");
	crown_outputs_release(&o);
	turn_release(&t);
}

/* Degenerate inputs: no events, a unit with no stands, no terrain. */
static void
test_degenerate(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_unit	*u;

	memset(&t, 0, sizeof(t));
	assert_int_equal(crown_state_load(&t.before,
	    "tests/data/state-small.yaml", &d), 0);
	t.after = crown_state_clone(t.before);
	u = crown_state_unit(t.after, "2-militia");
	crown_unit_take_casualties(u, 100);
	u->x = -5;	/* off the table */
	assert_int_equal(u->status, CROWN_LOST);
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_no_diags(&d);
	assert_has(output(&o, "report-republic.md")->data.data,
	    "| Militia of Veracruz | none | held (R2.3) | infantry | 0/4 | "
	    "0/16 (-16) | lost | (-5, 30) south |");
	assert_has(output(&o, "report-french.md")->data.data,
	    "## The turn\n\n## Your orders");
	assert_has(output(&o, "report-republic.md")->data.data,
	    "Sir, this turn we lost 16 figures and 4 stands, and inflicted "
	    "none.\n\n- Militia of Veracruz (Mexican Republic) was lost.\n");
	assert_has(output(&o, "report-french.md")->data.data,
	    "Sir, this turn we suffered no loss, and inflicted 16 figures and "
	    "4 stands on the enemy.\n");
	assert_has(output(&o, "report.md")->data.data,
	    "- Mexican Republic: lost 16 figures and 4 stands, inflicted 0 "
	    "figures and 0 stands; units routed: 0, lost: 1; leaders "
	    "fallen: 0.\n");
	assert_null(svgread_xml_check(output(&o, "map.svg")->data.data));
	crown_outputs_release(&o);
	turn_release(&t);
}

/*
 * The orders form offers only what each unit can do now, as crown check
 * judges it (FORMATS.md, "What a player is shown"): a unit locked in
 * melee is offered `hold` only when its side moves first (R9.8), lancers
 * no fire (R5.3), a routing unit a rally only with a leader within 2
 * inches (R8.3) and not once routed twice (R8.5); each unit's weapon
 * ranges and the cover of what it stands in.
 */
static const char form_state[] =
    "game: {name: Form, turn: 3, attacker: red}\n"
    "table: {width: 60, height: 40}\n"
    "sides:\n"
    "  - {id: red, name: Red Army, home_edge: north}\n"
    "  - {id: blue, name: Blue Army, home_edge: south}\n"
    "terrain:\n"
    "  - {id: chap, name: Chaparral, type: scrub,\n"
    "     polygon: [[0, 0], [20, 0], [20, 10], [0, 10]]}\n"
    "units:\n"
    "  - {id: r1, name: Red Line, side: red, type: infantry, class: regular,\n"
    "     weapon: rifled_musket, stands: [4, 4, 4], x: 30, y: 20, facing: 180}\n"
    "  - {id: b1, name: Blue Line, side: blue, type: infantry,\n"
    "     class: regular, weapon: rifled_musket, stands: [4, 4, 4], x: 30,\n"
    "     y: 20, facing: 0}\n"
    "  - {id: lan, name: Red Lancers, side: red, type: cavalry,\n"
    "     class: regular, weapon: lance, stands: [3, 3, 3], x: 10, y: 5,\n"
    "     facing: 0}\n"
    "  - {id: run1, name: Red Runners, side: red, type: infantry,\n"
    "     class: regular, weapon: smoothbore, stands: [4, 4, 4], x: 50,\n"
    "     y: 30, facing: 0, status: routing, routs: 1, rout_halves: 1}\n"
    "  - {id: run2, name: Red Lonely, side: red, type: infantry,\n"
    "     class: regular, weapon: smoothbore, stands: [4, 4, 4], x: 50,\n"
    "     y: 10, facing: 0, status: routing, routs: 1, rout_halves: 1}\n"
    "  - {id: run3, name: Red Twice, side: red, type: infantry,\n"
    "     class: regular, weapon: smoothbore, stands: [4, 4, 4], x: 40,\n"
    "     y: 30, facing: 0, status: routing, routs: 2, rout_halves: 1}\n"
    "leaders:\n"
    "  - {id: cap, name: Captain Cap, side: red, rank: officer, x: 50, y: 31}\n"
    "  - {id: zar, name: General Ignacio Zaragoza, side: red, rank: general,\n"
    "     x: 2, y: 38}\n"
    "melees:\n"
    "  - {attackers: [r1], defenders: [b1], rounds: 1, attack: front}\n";

static void
test_orders_form(void **state)
{
	struct crown_state	*s = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };

	(void)state;
	assert_int_equal(crown_state_parse(&s, "form.yaml", form_state,
	    strlen(form_state), &d), 0);
	assert_int_equal(crown_orders_form(&b, s, rules, "red", false), 0);
	assert_has(b.data, "  # r1: Red Line, regular infantry rifled musket\n"
	    "  #   at (30.00, 20.00) facing 180, line, 3 stands, 12 figures; "
	    "2 actions a half-turn\n"
	    "  #   rifled musket: close to 6, medium to 12, long to 18 "
	    "inches\n"
	    "  #   in the open: no cover\n"
	    "  #   loaded\n"
	    "  #   locked in melee with Blue Line (round 1 of the melee "
	    "fought): it can only hold (R9.8)\n"
	    "  #   open: hold\n");
	assert_has(b.data, "  # lan: Red Lancers, regular cavalry lance\n");
	assert_has(b.data, "  #   in scrub 'Chaparral': soft cover (R5.5)\n"
	    "  #   ready\n"
	    "  #   open: move, charge, formation, hold\n");
	assert_has(b.data, "routing: it routs on unless ordered to rally "
	    "(R8.2, R8.3); officer Captain Cap is within 2 inches: it may try "
	    "(`rally`)\n");
	assert_has(b.data, "routing: it routs on unless ordered to rally "
	    "(R8.2, R8.3); no officer or general is within 2 inches, so it "
	    "cannot try now\n");
	assert_has(b.data, "routing: it routs on unless ordered to rally "
	    "(R8.2, R8.3); routed 2 times, it cannot rally (R8.5)\n");
	/* a leader's rank before his name, unless his name says it */
	assert_has(b.data, "# leader cap (officer Captain Cap) is at (50.00, "
	    "31.00)\n");
	assert_has(b.data, "# leader zar (General Ignacio Zaragoza) is at "
	    "(2.00, 38.00)\n");
	crown_buf_release(&b);
	/* the side that moves second: its orders stand if the melee ends */
	assert_int_equal(crown_orders_form(&b, s, rules, "blue", false), 0);
	assert_has(b.data, "  #   locked in melee with Red Line (round 1 of "
	    "the melee fought): it holds unless the melee ends in the first "
	    "half-turn; then the orders below are carried out (R9.8)\n"
	    "  #   open: move, charge, fire, formation, help, hold\n");
	crown_buf_release(&b);
	crown_state_free(s);
	crown_diags_release(&d);
}

/* Where a unit stands and the cover that gives, in its side's report and
 * as the enemy sees it (R5.5, R11.1; FORMATS.md, "What a player is
 * shown"). */
static void
test_ground_and_cover(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_unit	*u;

	(void)state;
	load_synthetic(&t);
	u = crown_state_unit(t.after, "2-militia");
	u->x = 43;
	u->y = 33;
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_has(output(&o, "report-republic.md")->data.data,
	    "- Militia of Veracruz: in building 'hacienda' (class 2): hard "
	    "cover; its smoothbore reaches close to 4, medium to 8, long to "
	    "12 inches; now unloaded.\n");
	assert_has(output(&o, "report-french.md")->data.data,
	    "facing south: Militia of Veracruz (43, 33), in building "
	    "'hacienda' (class 2), hard cover.\n");
	assert_has(output(&o, "report-republic.md")->data.data,
	    "- Lancers of Jalapa: in the open;");
	crown_outputs_release(&o);
	turn_release(&t);
}

/*
 * Events are told in the order they happened (issue 32: a reload was
 * listed before the fire that came first): a run of one unit's events is
 * one paragraph, its routine ones in it; a run of routine events of one
 * kind is a line by name, with their dice for the umpire written out
 * (they read "(3)"); a unit's events with another's between them are
 * two paragraphs; a phase with nothing to tell, only an order not
 * carried out, has no heading.
 */
static void
test_told_in_order(void **state)
{
	struct turn		 t;
	struct crown_outputs	 o = { 0 };
	struct crown_diags	 d = { 0 };
	struct crown_event	*e;
	size_t			 i;

	load_synthetic(&t);
	event(&t, "french", CROWN_PHASE_CHARGE, "half_turn", NULL, NULL,
	    "R2.1", "Turn 3: Foreign Legion moves.");
	i = event(&t, "french", CROWN_PHASE_CHARGE, "order_skipped", "gun-1",
	    "2-militia", "R2.2", "Mountain Gun's order to fire was not "
	    "carried out: the target is out of sight.");
	e = crown_events_at(&t.ev, i);
	crown_event_set(&e->reason, "the target is out of sight");
	crown_event_set(&e->order, "fire");
	i = event(&t, "french", CROWN_PHASE_ACTIONS, "move", "1-legion", NULL,
	    "R4.1", "3rd Company, Foreign Legion moved 4 inches north.");
	e = crown_events_at(&t.ev, i);
	e->has_from = e->has_to = true;
	e->from = (struct crown_point){ 30, 12.5 };
	e->to = (struct crown_point){ 30, 16.5 };
	crown_event_set(&e->result, "moved");
	crown_die_mod(die(&t, i, 6, 3, "move"), "infantry base", 4, "R4.1");
	event(&t, "french", CROWN_PHASE_ACTIONS, "artillery_fire", "gun-1",
	    "2-militia", "R6.2", "Mountain Gun fired.");
	event(&t, "french", CROWN_PHASE_ACTIONS, "reload", "gun-1", NULL,
	    "R3.6", "Mountain Gun reloaded.");
	event(&t, "french", CROWN_PHASE_ACTIONS, "hold", "1-legion", NULL,
	    "R3.4", "3rd Company, Foreign Legion held its ground.");
	/* after another unit's event: a paragraph of its own */
	event(&t, "french", CROWN_PHASE_ACTIONS, "limber", "gun-1", NULL,
	    "R6.6", "Mountain Gun limbered.");
	assert_int_equal(render(&o, &t, "templates", &d), 0);
	assert_has(output(&o, "report.md")->data.data, "### Half-turn 3: "
	    "Foreign Legion\n\nTurn 3: Foreign Legion moves. (R2.1)\n\n"
	    "#### Actions\n\nMoved as ordered, to the end of their paths "
	    "(R4.1): 3rd Company, Foreign Legion [D6 move: 3, infantry base "
	    "+4 (R4.1) = 7].\n\nMountain Gun fired. (R6.2) Mountain Gun "
	    "reloaded. (R3.6)\n\nHeld their ground (R3.4): 3rd Company, "
	    "Foreign Legion.\n\nMountain Gun limbered. (R6.6)\n\n## Orders "
	    "carried out");
	crown_outputs_release(&o);
	turn_release(&t);
	crown_diags_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_case),
		cmocka_unit_test(test_golden_synthetic),
		cmocka_unit_test(test_side_view),
		cmocka_unit_test(test_told_in_order),
		cmocka_unit_test(test_seen_leader_move),
		cmocka_unit_test(test_carried_in_full),
		cmocka_unit_test(test_modifier_words),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_each_event_once),
		cmocka_unit_test(test_summary_wording),
		cmocka_unit_test(test_enemy_in_sight),
		cmocka_unit_test(test_xml_checker),
		cmocka_unit_test(test_svg_wellformed),
		cmocka_unit_test(test_svg_leader_move),
		cmocka_unit_test(test_svg_many_stands),
		cmocka_unit_test(test_svg_renders),
		cmocka_unit_test(test_other_templates),
		cmocka_unit_test(test_events_have_rule_and_text),
		cmocka_unit_test(test_degenerate),
		cmocka_unit_test(test_orders_form),
		cmocka_unit_test(test_ground_and_cover),
	};
	struct crown_diags	d = { 0 };
	int			rc;

	if (crown_rules_load(&rules, "rules/maximilian.yaml", &d) != 0) {
		crown_diags_print(stderr, &d);
		return 1;
	}
	rc = cmocka_run_group_tests_name("report", tests, NULL, NULL);
	crown_rules_free(rules);
	return rc;
}
