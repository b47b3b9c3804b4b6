/*
 * test-fire.c: the services of fire.c, artillery.c and buildings.c that
 * the conformance cases cannot reach on their own: reaction fire (R9.2,
 * called by charges), crews made good (R6.4), abandoned guns (R6.5),
 * building cover, capacity and classification (R11.1-R11.3), and the
 * state keys they add.
 */
#include "testutil.h"

#include "crown/artillery.h"
#include "crown/buildings.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/fire.h"
#include "crown/firing.h"
#include "crown/melees.h"
#include "crown/move.h"
#include "crown/spatial.h"
#include "crown/xalloc.h"

struct fx {
	struct crown_rules	*rules;
	struct crown_state	*s;
	struct crown_dice	*dice;
	struct crown_diags	 d;
	struct crown_events	 ev;
	struct crown_engine	 e;
};

static const char *const head =
    "game: {name: Test, turn: 0, attacker: french}\n"
    "table: {width: 48, height: 48}\n"
    "sides:\n"
    "  - {id: french, home_edge: south}\n"
    "  - {id: republic, home_edge: north}\n";

/* An engine in the french half-turn, as charge.c would see it. */
static struct fx *
fx_open(const char *body, const char *script)
{
	struct fx	*f = xcalloc(1, sizeof(*f));
	char		*text;

	assert_int_equal(crown_rules_load(&f->rules, "rules/maximilian.yaml",
	    &f->d), 0);
	text = xasprintf("%s%s", head, body);
	if (crown_state_parse(&f->s, "state.yaml", text, strlen(text),
	    &f->d) != 0) {
		char *all = tu_diags(&f->d);

		print_error("state does not load:\n%s", all);
		free(all);
		fail();
	}
	free(text);
	assert_int_equal(crown_dice_script_parse(&f->dice, "dice", script,
	    strlen(script), &f->d), 0);
	f->e.s = f->s;
	f->e.rules = f->rules;
	f->e.dice = f->dice;
	f->e.ev = &f->ev;
	f->e.diags = &f->d;
	f->e.turn = 1;
	f->e.half = 0;
	f->e.phasing = "french";
	f->e.phase = CROWN_PHASE_CHARGE;
	f->e.tu = xcalloc(f->s->nunits + 1, sizeof(*f->e.tu));
	return f;
}

static void
fx_close(struct fx *f)
{
	crown_spatial_free(&f->e);
	free(f->e.tu);
	crown_dice_free(f->dice);
	crown_events_release(&f->ev);
	crown_state_free(f->s);
	crown_rules_free(f->rules);
	crown_diags_release(&f->d);
	free(f);
}

static struct crown_unit *
U(struct fx *f, const char *id)
{
	struct crown_unit	*u = crown_state_unit(f->s, id);

	assert_non_null(u);
	return u;
}

static struct crown_feature *
T(struct fx *f, const char *id)
{
	size_t	i;

	for (i = 0; i < f->s->nterrain; i++)
		if (strcmp(f->s->terrain[i].id, id) == 0)
			return &f->s->terrain[i];
	fail();
	return NULL;
}

static const struct crown_event *
last(struct fx *f, const char *kind)
{
	size_t	i;

	for (i = f->ev.n; i > 0; i--)
		if (strcmp(f->ev.v[i - 1].kind, kind) == 0)
			return &f->ev.v[i - 1];
	print_error("no '%s' event\n", kind);
	fail();
	return NULL;
}

/* R11.1, R11.2: cover steps down every `casualties` of damage. */

/* Reaction fire at the charger where it stands now (R9.2). */
static int
react(struct crown_engine *e, struct crown_unit *firer,
    struct crown_unit *target, enum crown_band_name band)
{
	struct crown_quad	q;

	crown_unit_footprint(&q, e->rules, target);
	return crown_fire_reaction(e, firer, target, band, band, &q,
	    (struct crown_point){ target->x, target->y }, NULL);
}

static void
test_R11_2_cover_steps(void **state)
{
	static const struct {
		int			cls, damage;
		enum crown_cover	cover;
	} want[] = {
		{ 1, 0, CROWN_COVER_HARD }, { 1, 9, CROWN_COVER_HARD },
		{ 1, 10, CROWN_COVER_SOFT }, { 1, 19, CROWN_COVER_SOFT },
		{ 1, 20, CROWN_COVER_NONE }, { 1, 99, CROWN_COVER_NONE },
		{ 2, 7, CROWN_COVER_HARD }, { 2, 8, CROWN_COVER_SOFT },
		{ 2, 15, CROWN_COVER_SOFT }, { 2, 16, CROWN_COVER_NONE },
		{ 3, 5, CROWN_COVER_HARD }, { 3, 6, CROWN_COVER_SOFT },
		{ 3, 12, CROWN_COVER_NONE },
		{ 4, 3, CROWN_COVER_HARD }, { 4, 4, CROWN_COVER_SOFT },
		{ 4, 8, CROWN_COVER_NONE },
		{ 5, 0, CROWN_COVER_SOFT }, { 5, 1, CROWN_COVER_SOFT },
		{ 5, 2, CROWN_COVER_NONE },
		{ 0, 0, CROWN_COVER_NONE },	/* unclassified */
	};
	struct crown_rules	*rules = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_feature	 f;
	size_t			 i;
	int			 k, steps;

	assert_int_equal(crown_rules_load(&rules, "rules/maximilian.yaml",
	    &d), 0);
	memset(&f, 0, sizeof(f));
	f.type = CROWN_BUILDING;
	for (i = 0; i < CROWN_NELEM(want); i++) {
		f.bclass = want[i].cls;
		f.damage = want[i].damage;
		assert_int_equal(crown_building_cover(rules, &f),
		    want[i].cover);
	}
	/* crown_building_damage says exactly when the cover steps down */
	f.bclass = 4;
	f.damage = 0;
	steps = 0;
	for (k = 1; k <= 10; k++) {
		if (crown_building_damage(rules, &f)) {
			steps++;
			assert_true(k == 4 || k == 8);
		}
		assert_int_equal(f.damage, k);
	}
	assert_int_equal(steps, 2);
	crown_rules_free(rules);
	crown_diags_release(&d);
}

/* R11.1: capacity in stands; first come (state order), first housed. */
static void
test_R11_1_capacity(void **state)
{
	static const int cap[6] = { 0, 8, 6, 4, 2, 1 };
	struct fx	*f;
	int		 k;

	f = fx_open(
	    "terrain:\n"
	    "  - {id: house, type: building, class: 3,\n"
	    "     polygon: [[0, 0], [20, 0], [20, 10], [0, 10]]}\n"
	    "  - {id: hut, type: building, class: 5,\n"
	    "     polygon: [[30, 0], [36, 0], [36, 10], [30, 10]]}\n"
	    "units:\n"
	    "  - {id: a, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4, 4], x: 5, y: 5, facing: 0}\n"
	    "  - {id: b, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4], start_stands: 3,\n"
	    "     x: 10, y: 5, facing: 0}\n"
	    "  - {id: c, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4], start_stands: 3,\n"
	    "     x: 15, y: 5, facing: 0}\n"
	    "  - {id: d, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4, 4], x: 33, y: 5, facing: 0}\n"
	    "  - {id: out, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4, 4], x: 25, y: 5,\n"
	    "     facing: 0}\n", "");
	for (k = 1; k <= 5; k++) {
		T(f, "house")->bclass = k;
		assert_int_equal(crown_building_capacity(f->rules,
		    T(f, "house")), cap[k]);
	}
	T(f, "house")->bclass = 3;
	/* a (3) and b (1) fill the 4 stands; c (2 more) does not fit */
	assert_true(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "a")));
	assert_true(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "b")));
	assert_false(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "c")));
	assert_true(crown_building_contains(f->rules, T(f, "house"),
	    U(f, "c")));
	assert_false(crown_building_contains(f->rules, T(f, "house"),
	    U(f, "out")));
	/* a hut holds one stand: a unit of three is not sheltered */
	assert_false(crown_building_shelters(f->s, f->rules, T(f, "hut"),
	    U(f, "d")));
	/* once a is lost, c fits */
	U(f, "a")->status = CROWN_LOST;
	assert_true(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "c")));
	fx_close(f);
}

/*
 * R11.1: a charger that reached the holders of a building and stands in
 * it, in melee with them, does not take the building's cover, even when
 * it comes first in the state; the holders keep theirs.
 */
static void
test_R11_1_storming_no_cover(void **state)
{
	struct fx	*f;

	f = fx_open(
	    "terrain:\n"
	    "  - {id: house, type: building, class: 3,\n"
	    "     polygon: [[0, 0], [20, 0], [20, 10], [0, 10]]}\n"
	    "units:\n"
	    "  - {id: storm, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4, 4], x: 10, y: 4, facing: 180}\n"
	    "  - {id: holder, side: french, type: infantry, class: regular,\n"
	    "     weapon: rifle, stands: [4], x: 10, y: 6, facing: 0}\n"
	    "melees:\n"
	    "  - {attackers: [storm], defenders: [holder], rounds: 1,\n"
	    "     attack: front}\n", "");
	assert_true(crown_building_contains(f->rules, T(f, "house"),
	    U(f, "storm")));
	assert_false(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "storm")));
	assert_true(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "holder")));
	/* once the melee is over, a unit inside is inside */
	crown_melee_remove(f->s, 0);
	assert_true(crown_building_shelters(f->s, f->rules, T(f, "house"),
	    U(f, "storm")));
	fx_close(f);
}

/* R11.3: unclassified buildings get a class from the average die. */
static void
test_R11_3_classify(void **state)
{
	static const int want[6] = { 2, 3, 3, 4, 4, 5 };
	struct fx	*f;
	char		 id[8];
	size_t		 i;

	f = fx_open(
	    "terrain:\n"
	    "  - {id: b1, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: b2, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: fort, type: building, class: 1,\n"
	    "     polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: b3, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: wood, type: light_woods, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: b4, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: b5, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "  - {id: b6, type: building, polygon: [[0,0],[1,0],[1,1]]}\n"
	    "units: []\n", "1 2 3 4 5 6");
	assert_int_equal(crown_building_classify(f->s, f->rules, f->dice,
	    &f->ev), 0);
	for (i = 0; i < 6; i++) {
		snprintf(id, sizeof(id), "b%zu", i + 1);
		assert_int_equal(T(f, id)->bclass, want[i]);
		assert_string_equal(f->ev.v[i].kind, "building_class");
		assert_string_equal(f->ev.v[i].target, id);
		assert_string_equal(f->ev.v[i].rule, "R11.3");
		assert_int_equal(f->ev.v[i].ndice, 1);
		assert_int_equal(f->ev.v[i].dice[0].die, 6);
		assert_int_equal(f->ev.v[i].dice[0].roll, (int)i + 1);
	}
	assert_int_equal(f->ev.n, 6);
	assert_int_equal(T(f, "fort")->bclass, 1);
	assert_int_equal(T(f, "wood")->bclass, 0);
	assert_non_null(strstr(f->ev.v[5].text, "class 5 building with soft "
	    "cover for 1 stands"));
	/* nothing left to classify: no dice wanted */
	assert_int_equal(crown_building_classify(f->s, f->rules, f->dice,
	    NULL), 0);
	/* dice that run out fail */
	T(f, "b1")->bclass = 0;
	assert_int_equal(crown_building_classify(f->s, f->rules, f->dice,
	    NULL), CROWN_EINVALID);
	fx_close(f);
}

#define REACT_UNITS							\
    "units:\n"								\
    "  - {id: militia, name: Militia, side: republic, type: infantry,\n" \
    "     class: militia, weapon: smoothbore, stands: [4, 4, 4, 4],\n"	\
    "     x: 10, y: 10, facing: 0}\n"					\
    "  - {id: lancers, name: Lancers, side: french, type: cavalry,\n"	\
    "     class: regular, weapon: lance, stands: [3, 3, 3],\n"		\
    "     x: 10, y: 20, facing: 180}\n"					\
    "  - {id: civ, name: Civilians, side: republic, type: infantry,\n"	\
    "     class: militia, weapon: civilian, stands: [4, 4, 4],\n"	\
    "     x: 30, y: 10, facing: 0}\n"					\
    "  - {id: gun, name: Battery, side: republic,\n"			\
    "     type: foot_artillery, gun: cannon, class: regular,\n"		\
    "     stands: [4], x: 20, y: 14, facing: 0}\n"

/* R9.2: the charged unit fires with the band its test named, whatever the
 * range; it unloads; the charger's casualties count for R7.1. */
static void
test_R9_2_reaction_fire(void **state)
{
	struct fx		*f;
	const struct crown_event *ev;

	f = fx_open(REACT_UNITS, "0 1 2 3  0");
	/* medium: smoothbore hits on 2; militia +2, cavalry -1 */
	assert_int_equal(react(&f->e, U(f, "militia"),
	    U(f, "lancers"), CROWN_BAND_MEDIUM), 0);
	ev = last(f, "reaction_fire");
	assert_string_equal(ev->rule, "R9.2");
	assert_string_equal(ev->unit, "militia");
	assert_string_equal(ev->target, "lancers");
	assert_string_equal(ev->band, "medium");
	assert_true(ev->has_range && ev->range == 10.0);
	assert_int_equal(ev->ndice, 4);
	assert_int_equal(ev->dice[0].score, 1);
	assert_int_equal(ev->dice[1].score, 2);
	assert_int_equal(ev->dice[2].score, 3);
	assert_int_equal(ev->dice[3].score, 4);
	assert_int_equal(ev->dice[1].nmods, 2);
	assert_string_equal(ev->dice[1].mods[0].rule, "R3.1");
	assert_string_equal(ev->dice[1].mods[1].rule, "R5.4");
	assert_int_equal(ev->casualties, 2);
	assert_non_null(strstr(ev->text, "charging Lancers"));
	assert_false(U(f, "militia")->loaded);
	assert_int_equal(crown_unit_figures(U(f, "lancers")), 7);
	assert_int_equal(f->e.tu[1].fire_casualties, 2);
	assert_int_equal(f->e.tu[1].casualties_half, 2);
	assert_false(f->e.tu[1].under_artillery_fire);
	/* unloaded now: no fire, no dice */
	assert_int_equal(react(&f->e, U(f, "militia"),
	    U(f, "lancers"), CROWN_BAND_CLOSE), 0);
	ev = last(f, "reaction_fire");
	assert_string_equal(ev->result, "no_fire");
	assert_int_equal(ev->ndice, 0);
	assert_non_null(strstr(ev->reason, "R3.6"));
	/* shotguns have no medium range */
	assert_int_equal(react(&f->e, U(f, "civ"),
	    U(f, "lancers"), CROWN_BAND_MEDIUM), 0);
	ev = last(f, "reaction_fire");
	assert_string_equal(ev->result, "no_fire");
	assert_non_null(strstr(ev->reason, "no medium range"));
	/* a gun fires canister at the named band: score 0 kills 4 */
	assert_int_equal(react(&f->e, U(f, "gun"),
	    U(f, "lancers"), CROWN_BAND_CLOSE), 0);
	ev = last(f, "reaction_fire");
	assert_string_equal(ev->band, "canister");
	assert_int_equal(ev->dice[0].score, -1);	/* cavalry -1 */
	assert_int_equal(ev->casualties, 4);
	assert_true(f->e.tu[1].under_artillery_fire);
	assert_int_equal(crown_unit_figures(U(f, "lancers")), 3);
	assert_false(U(f, "gun")->loaded);
	assert_int_equal(crown_dice_unused(f->dice), 0);
	fx_close(f);
}

/* R9.2: a charger outside the arc is not fired at. */
static void
test_R9_2_reaction_arc(void **state)
{
	struct fx		*f;
	const struct crown_event *ev;

	f = fx_open(REACT_UNITS, "");
	U(f, "militia")->facing = 180;
	crown_engine_unit_moved(&f->e, U(f, "militia"));
	assert_int_equal(react(&f->e, U(f, "militia"),
	    U(f, "lancers"), CROWN_BAND_LONG), 0);
	ev = last(f, "reaction_fire");
	assert_string_equal(ev->result, "no_fire");
	assert_non_null(strstr(ev->reason, "R5.6"));
	assert_true(U(f, "militia")->loaded);
	fx_close(f);
}

#define CREW_UNITS							\
    "units:\n"								\
    "  - {id: gun, name: Battery, side: french, type: foot_artillery,\n" \
    "     gun: cannon, class: regular, stands: [2], start_figures: 5,\n" \
    "     x: 10, y: 10, facing: 0}\n"					\
    "  - {id: line, name: Line, side: french, type: infantry,\n"	\
    "     class: regular, weapon: rifled_musket, stands: [4, 4, 2],\n"	\
    "     x: 13.25, y: 10, facing: 0}\n"				\
    "  - {id: militia, name: Militia, side: french, type: infantry,\n"	\
    "     class: militia, weapon: smoothbore, stands: [4, 4, 4],\n"	\
    "     x: 7.25, y: 10, facing: 0}\n"					\
    "  - {id: far, name: Far, side: french, type: infantry,\n"		\
    "     class: veteran, weapon: rifled_musket, stands: [4, 4, 4],\n"	\
    "     x: 10, y: 3, facing: 0}\n"

/*
 * R5.3, R6.2: the words of a shot out of reach, written piece by piece,
 * are what printf's "%.2f" and "%s" wrote: out of range (a weapon whose
 * name has an underscore) and too close (a howitzer's least range).
 */
static void
test_R5_3_reach_words(void **state)
{
	static const char *const units =
	    "units:\n"
	    "  - {id: rm, name: Rifles, side: french, type: infantry,\n"
	    "     class: regular, weapon: rifled_musket, stands: [4, 4],\n"
	    "     x: 10, y: 2, facing: 0}\n"
	    "  - {id: far, name: Far Off, side: republic, type: infantry,\n"
	    "     class: regular, weapon: rifled_musket, stands: [4, 4],\n"
	    "     x: 10.5, y: 40.37, facing: 180}\n"
	    "  - {id: how, name: Howitzer, side: french,\n"
	    "     type: siege_artillery, gun: howitzer, class: regular,\n"
	    "     stands: [4], x: 30, y: 2, facing: 0}\n"
	    "  - {id: near, name: Near By, side: republic, type: infantry,\n"
	    "     class: regular, weapon: rifled_musket, stands: [4, 4],\n"
	    "     x: 30, y: 10, facing: 180, formation: column}\n";
	static const struct {
		const char	*firer, *target, *band, *what;
		bool		 close;
	} cases[] = {
		{ "rm", "far", "out of range", "rifled musket", false },
		{ "how", "near", "too close", "howitzer", true },
	};
	struct crown_action_order	 a;
	struct crown_fire_target	 t;
	const struct crown_band		*bands;
	const struct crown_event	*ev;
	struct crown_unit		*u;
	struct fx			*f;
	double				 range, lo, hi;
	char				*why, *text;
	size_t				 i;
	int				 b;

	(void)state;
	f = fx_open(units, "");
	f->e.phase = CROWN_PHASE_ACTIONS;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		u = U(f, cases[i].firer);
		u->loaded = true;
		memset(&a, 0, sizeof(a));
		a.kind = CROWN_FIRE;
		a.target = (char *)cases[i].target;
		assert_int_equal(crown_action_fire(&f->e, u, &a), 0);
		ev = last(f, "order_skipped");
		crown_fire_target_unit(&t, f->rules, U(f, cases[i].target));
		range = crown_fire_range(f->rules, u, &t);
		bands = crown_unit_bands(f->rules, u);
		lo = -1;
		hi = 0;
		for (b = 0; b < CROWN_NBAND; b++)
			if (bands[b].present) {
				if (lo < 0)
					lo = bands[b].min;
				hi = bands[b].max;
			}
		why = cases[i].close ? xasprintf("%s is %.2f inches away, "
		    "too close: its %s fires only beyond %.2f inches",
		    t.name, range, cases[i].what, lo) : xasprintf("%s is %.2f "
		    "inches away, out of range: its %s reaches %.2f inches",
		    t.name, range, cases[i].what, hi);
		text = xasprintf("%s's order to fire was not carried out: %s.",
		    u->name, why);
		assert_string_equal(ev->band, cases[i].band);
		assert_string_equal(ev->reason, why);
		assert_string_equal(ev->text, text);
		assert_true(ev->range == range);
		free(why);
		free(text);
	}
	fx_close(f);
}

/* R6.4: help by regular or veteran infantry within reach makes good the
 * crew, from its last stand; not while no original gunner is left. */
static void
test_R6_4_crew(void **state)
{
	struct crown_action_order	 a;
	struct fx			*f;
	const struct crown_event	*ev;

	f = fx_open(CREW_UNITS, "");
	f->e.phase = CROWN_PHASE_ACTIONS;
	memset(&a, 0, sizeof(a));
	a.kind = CROWN_HELP;
	a.target = "gun";
	/* militia may not serve a gun */
	assert_int_equal(crown_action_help(&f->e, U(f, "militia"), &a), 0);
	ev = last(f, "order_skipped");
	assert_string_equal(ev->rule, "R6.4");
	/* too far: the line exactly 1 inch beside it is in reach, 'far'
	 * (5 inches behind) is not */
	assert_int_equal(crown_artillery_crew(&f->e, U(f, "far"),
	    U(f, "gun"), &a), 0);
	ev = last(f, "order_skipped");
	assert_non_null(strstr(ev->reason, "must be within 1.00"));
	/* through help (move.c hands it on): 3 men from the last stand */
	assert_int_equal(crown_action_help(&f->e, U(f, "line"), &a), 0);
	ev = last(f, "crew_replaced");
	assert_string_equal(ev->rule, "R6.4");
	assert_string_equal(ev->target, "gun");
	assert_int_equal(ev->casualties, 3);
	assert_int_equal(U(f, "gun")->stands[0], 5);
	assert_int_equal(U(f, "gun")->crew_replaced, 3);
	assert_int_equal(U(f, "line")->nstands, 2);
	assert_int_equal(U(f, "line")->stands[1], 3);
	assert_int_equal(crown_unit_figures(U(f, "line")), 7);
	/* a full crew needs nobody */
	assert_int_equal(crown_artillery_crew(&f->e, U(f, "line"),
	    U(f, "gun"), &a), 0);
	ev = last(f, "order_skipped");
	assert_non_null(strstr(ev->reason, "full crew"));
	/* the two gunners fall: only infantry left, nobody to teach them */
	assert_int_equal(crown_unit_take_casualties(U(f, "gun"), 2), 2);
	assert_int_equal(crown_artillery_crew(&f->e, U(f, "line"),
	    U(f, "gun"), &a), 0);
	ev = last(f, "order_skipped");
	assert_non_null(strstr(ev->reason, "none of the original crew"));
	assert_int_equal(crown_dice_unused(f->dice), 0);
	fx_close(f);
}

/* R6.5: the crew leaves; the gun stays, a marker; state round trip. */
static void
test_R6_5_abandon(void **state)
{
	struct fx		*f;
	struct crown_state	*s2 = NULL;
	struct crown_buf	 b = { 0 };
	struct crown_unit	*g;
	size_t			 n;

	f = fx_open(CREW_UNITS
	    "leaders:\n"
	    "  - {id: cortes, side: french, rank: general, figures: 3,\n"
	    "     x: 30, y: 30}\n", "");
	g = U(f, "gun");
	crown_artillery_abandon(&f->e, g);
	assert_true(g->abandoned);
	assert_int_equal(g->status, CROWN_LOST);
	assert_false(g->loaded);
	assert_true(g->x == 10 && g->y == 10);
	assert_string_equal(last(f, "abandoned")->rule, "R6.5");
	n = f->ev.n;
	crown_artillery_abandon(&f->e, g);		/* once only */
	crown_artillery_abandon(&f->e, U(f, "line"));	/* guns only */
	assert_int_equal(f->ev.n, n);
	assert_false(U(f, "line")->abandoned);
	assert_int_equal(crown_state_emit(&b, f->s), 0);
	assert_non_null(strstr(b.data, "abandoned: true"));
	assert_non_null(strstr(b.data, "figures: 3\n"));
	assert_int_equal(crown_state_parse(&s2, "again.yaml", b.data, b.len,
	    &f->d), 0);
	assert_true(crown_state_unit(s2, "gun")->abandoned);
	assert_false(crown_state_unit(s2, "line")->abandoned);
	assert_int_equal(crown_state_leader(s2, "cortes")->figures, 3);
	crown_state_free(s2);
	crown_buf_release(&b);
	fx_close(f);
}

/* R6.5: contact with an enemy captures; touching is contact. */
static void
test_R6_5_capture(void **state)
{
	struct fx	*f;

	f = fx_open(CREW_UNITS
	    "  - {id: enemy, side: republic, type: infantry, class: regular,\n"
	    "     weapon: rifled_musket, stands: [4, 4, 4], x: 10, y: 10.5,\n"
	    "     facing: 180}\n", "");
	/* nobody touches the live gun: nothing happens */
	assert_int_equal(crown_artillery_captures(&f->e), 0);
	assert_int_equal(f->ev.n, 0);
	crown_artillery_abandon(&f->e, U(f, "gun"));
	/* the enemy is 0.5 inch from the gun's front: not yet */
	assert_int_equal(crown_artillery_captures(&f->e), 0);
	assert_string_equal(U(f, "gun")->side, "french");
	U(f, "enemy")->y = 10;			/* touching its front */
	crown_engine_unit_moved(&f->e, U(f, "enemy"));
	assert_int_equal(crown_artillery_captures(&f->e), 0);
	/* the line beside it (1 inch off) does not guard it */
	assert_string_equal(U(f, "gun")->side, "republic");
	assert_string_equal(last(f, "captured")->target, "enemy");
	fx_close(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_R11_2_cover_steps),
		cmocka_unit_test(test_R11_1_capacity),
		cmocka_unit_test(test_R11_1_storming_no_cover),
		cmocka_unit_test(test_R11_3_classify),
		cmocka_unit_test(test_R9_2_reaction_fire),
		cmocka_unit_test(test_R9_2_reaction_arc),
		cmocka_unit_test(test_R5_3_reach_words),
		cmocka_unit_test(test_R6_4_crew),
		cmocka_unit_test(test_R6_5_abandon),
		cmocka_unit_test(test_R6_5_capture),
	};

	return cmocka_run_group_tests_name("fire", tests, NULL, NULL);
}
