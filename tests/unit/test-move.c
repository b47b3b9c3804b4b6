/*
 * test-move.c: the movement services of move.c that the conformance
 * cases cannot reach through orders: the charge, rout and retire rolls
 * (R4.1, R9.1), moving into contact (R9.1), keeping the facing and the
 * home point (R7.4, R8.1), ignoring terrain (R8.1), units touching an
 * enemy, the final wheel, bad positions and degenerate terrain, and the
 * leader's walk (R4.6).
 */
#include <math.h>

#include "testutil.h"

#include "crown/context.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/fmt.h"
#include "crown/move.h"
#include "crown/spatial.h"
#include "crown/track.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

struct fixture {
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_dice	*dice;
	struct crown_diags	 d;
	struct crown_events	 ev;
	struct crown_engine	 e;
};

static const char base_state[] =
    "game: {name: Move, turn: 0, attacker: french}\n"
    "table: {width: 100, height: 48}\n"
    "sides:\n"
    "  - {id: french, home_edge: south}\n"
    "  - {id: republic, home_edge: north}\n";

static struct fixture *
fixture(void **state, const char *rest, const char *script)
{
	struct fixture	*f = calloc(1, sizeof(*f));
	char		*text;

	assert_non_null(f);
	*state = f;
	text = xasprintf("%s%s", base_state, rest);
	if (crown_state_parse(&f->s, "state.yaml", text, strlen(text),
	    &f->d) != 0 ||
	    crown_rules_load(&f->rules, "rules/maximilian.yaml", &f->d) != 0 ||
	    crown_dice_script_parse(&f->dice, "dice", script, strlen(script),
	    &f->d) != 0) {
		char *all = tu_diags(&f->d);

		free(text);
		fail_msg("setup: %s", all);
	}
	free(text);
	f->e.s = f->s;
	f->e.rules = f->rules;
	f->e.dice = f->dice;
	f->e.ev = &f->ev;
	f->e.diags = &f->d;
	f->e.turn = 1;
	f->e.half = 0;
	f->e.phasing = "french";
	f->e.phase = CROWN_PHASE_ACTIONS;
	f->e.tu = xcalloc(f->s->nunits, sizeof(*f->e.tu));
	return f;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	if (f == NULL)
		return 0;
	free(f->e.tu);
	crown_spatial_free(&f->e);
	crown_state_free(f->s);
	crown_rules_free(f->rules);
	crown_dice_free(f->dice);
	crown_events_release(&f->ev);
	crown_diags_release(&f->d);
	free(f);
	return 0;
}

static struct crown_unit *
unit(struct fixture *f, const char *id)
{
	struct crown_unit	*u = crown_state_unit(f->s, id);

	assert_non_null(u);
	return u;
}

static struct crown_event *
event(struct fixture *f, size_t i)
{
	return crown_events_at(&f->ev, i);
}

static void
assert_text_has(const struct crown_event *ev, const char *want)
{
	if (ev->text == NULL || strstr(ev->text, want) == NULL)
		fail_msg("text \"%s\" lacks \"%s\"", ev->text ? ev->text : "",
		    want);
}

#define UNIT(id, type, extra)						\
	"  - {id: " id ", name: " id ", side: french, type: " type	\
	", class: regular, weapon: rifled_musket, " extra "}\n"
#define ENEMY(id, type, extra)						\
	"  - {id: " id ", name: " id ", side: republic, type: " type	\
	", class: militia, weapon: smoothbore, " extra "}\n"

/* R4.1, R9.1, R8.1: base, then the bonus, then the road die. */
static void
test_roll_kinds(void **state)
{
	struct fixture	*f;
	struct crown_unit *u, *g;
	struct crown_point to;
	double		 gross, moved;
	size_t		 i;

	f = fixture(state, "units:\n"
	    UNIT("cav", "cavalry", "stands: [3, 3, 3], x: 10, y: 10, "
	    "facing: 0")
	    UNIT("gun", "foot_artillery", "gun: cannon, stands: [4], x: 40, "
	    "y: 10, facing: 0, limbered: true"),
	    "3 2 5  3 2 5  3  3 6 4 4  4  4 1");
	u = unit(f, "cav");
	g = unit(f, "gun");
	/* full charge bonus: 1D6+10 + 2D6 */
	i = crown_engine_event(&f->e, "charge_move", u->id, "R9.1");
	assert_int_equal(crown_move_roll(&f->e, u, i, CROWN_MOVE_CHARGE,
	    false, &gross), 0);
	assert_true(gross == 20);
	assert_int_equal(event(f, i)->ndice, 3);
	assert_int_equal(event(f, i)->dice[0].score, 13);
	assert_string_equal(event(f, i)->dice[1].purpose, "charge bonus");
	/* half bonus: 7 halved, rounding up, to 4: the last die carries -3 */
	i = crown_engine_event(&f->e, "charge_move", u->id, "R9.1");
	assert_int_equal(crown_move_roll(&f->e, u, i,
	    CROWN_MOVE_CHARGE_HALF, false, &gross), 0);
	assert_true(gross == 17);
	assert_int_equal(event(f, i)->dice[2].roll, 5);
	assert_int_equal(event(f, i)->dice[2].score, 2);
	assert_string_equal(event(f, i)->dice[2].mods[0].name, "half bonus");
	/* their words, a sentence: each kind of dice with what it is for,
	 * the fixed part and the halving's negative one named */
	to.x = 10;
	to.y = 40;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, gross, 0, -1,
	    &moved), 0);
	assert_string_equal(event(f, i)->text, "cav charged 17 inches north "
	    "(rolled 3, +10 for cavalry, 2 and 5 for the charge, less 3 for "
	    "half the bonus: 17 inches).");
	/* no bonus */
	i = crown_engine_event(&f->e, "charge_move", u->id, "R9.1");
	assert_int_equal(crown_move_roll(&f->e, u, i,
	    CROWN_MOVE_CHARGE_NONE, false, &gross), 0);
	assert_true(gross == 13);
	assert_int_equal(event(f, i)->ndice, 1);
	/* rout bonus and road */
	i = crown_engine_event(&f->e, "rout_move", u->id, "R8.1");
	assert_int_equal(crown_move_roll(&f->e, u, i, CROWN_MOVE_ROUT, true,
	    &gross), 0);
	assert_true(gross == 27);
	assert_string_equal(event(f, i)->dice[1].purpose, "rout bonus");
	assert_string_equal(event(f, i)->dice[3].purpose, "road bonus");
	/* guns have no rout bonus: the base only */
	i = crown_engine_event(&f->e, "rout_move", g->id, "R8.1");
	assert_int_equal(crown_move_roll(&f->e, g, i, CROWN_MOVE_ROUT, false,
	    &gross), 0);
	assert_true(gross == 8);
	assert_int_equal(event(f, i)->ndice, 1);
	/* retire: one normal move, with a road die if asked */
	i = crown_engine_event(&f->e, "retire", g->id, "R7.4");
	assert_int_equal(crown_move_roll(&f->e, g, i, CROWN_MOVE_RETIRE, true,
	    &gross), 0);
	assert_true(gross == 9);
	assert_int_equal(crown_dice_unused(f->dice), 0);
	/* out of dice: the error sticks and the roll says so */
	i = crown_engine_event(&f->e, "move", g->id, "R4.1");
	assert_int_not_equal(crown_move_roll(&f->e, g, i, CROWN_MOVE_NORMAL,
	    false, &gross), 0);
	assert_int_not_equal(f->e.error, 0);
}

/* R9.1: a charge stops at contact, footprints touching after rounding. */
static void
test_into_contact(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u, *v, *w;
	struct crown_quad	 qu, qv;
	struct crown_point	 to;
	double			 moved;
	size_t			 i;

	f = fixture(state, "units:\n"
	    UNIT("a", "cavalry", "stands: [3, 3, 3], x: 10, y: 10, "
	    "facing: 0")
	    UNIT("b", "cavalry", "stands: [3, 3, 3], x: 40, y: 10, "
	    "facing: 30")
	    ENEMY("e1", "infantry", "stands: [4, 4, 4], x: 10, y: 20, "
	    "facing: 180")
	    ENEMY("e2", "infantry", "stands: [4, 4, 4], x: 47.13, y: 21.7, "
	    "facing: 200"), "");
	u = unit(f, "a");
	v = unit(f, "e1");
	i = crown_engine_event(&f->e, "charge_move", u->id, "R9.1");
	to.x = 10;
	to.y = 40;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 15,
	    CROWN_MOVE_INTO_CONTACT, -1, &moved), 0);
	assert_true(u->x == 10 && u->y == 20);
	assert_true(fabs(moved - 10) < 1e-9);
	assert_string_equal(event(f, i)->result, "contact");
	assert_true(crown_engine_tu(&f->e, u)->moved);
	/* at an angle: touching (or overlapping by under a hundredth) */
	w = unit(f, "b");
	v = unit(f, "e2");
	i = crown_engine_event(&f->e, "charge_move", w->id, "R9.1");
	to.x = 55;
	to.y = 36;
	assert_int_equal(crown_move_along(&f->e, w, i, &to, 1, 25,
	    CROWN_MOVE_INTO_CONTACT, -1, &moved), 0);
	assert_string_equal(event(f, i)->result, "contact");
	crown_unit_footprint(&qu, f->rules, w);
	crown_unit_footprint(&qv, f->rules, v);
	assert_true(crown_geom_dist_quad(&qu, &qv) == 0);
	assert_true(w->x == crown_round2(w->x) && w->y == crown_round2(w->y));
	assert_int_equal(w->facing, crown_geom_bearing((struct crown_point){
	    40, 10 }, to));
}

/* R4.5: a unit touching an enemy (a melee) may draw off, not push in. */
static void
test_touching_enemy(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u;
	struct crown_point	 to;
	double			 moved;
	size_t			 i;

	f = fixture(state, "units:\n"
	    UNIT("a", "infantry", "stands: [4, 4, 4], x: 10, y: 20, "
	    "facing: 0")
	    ENEMY("e", "infantry", "stands: [4, 4, 4], x: 10, y: 20, "
	    "facing: 180"), "");
	u = unit(f, "a");
	i = crown_engine_event(&f->e, "move", u->id, "R4.1");
	to.x = 10;
	to.y = 30;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 5, 0, -1,
	    &moved), 0);
	assert_true(moved == 0 && u->y == 20);
	assert_string_equal(event(f, i)->result, "stopped_short");
	/* backing away, keeping its facing (R7.4) */
	i = crown_engine_event(&f->e, "retire", u->id, "R7.4");
	to.y = 5;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 5,
	    CROWN_MOVE_KEEP_FACING, -1, &moved), 0);
	assert_true(moved == 5 && u->y == 15 && u->facing == 0);
	assert_string_equal(event(f, i)->result, "moved");
	assert_text_has(event(f, i), "fell back 5 inches south");
}

/* R7.4, R8.1: the home point lies off the home edge, straight back. */
static void
test_home_point(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u, *v;
	struct crown_point	 p;
	double			 moved;
	size_t			 i;

	f = fixture(state, "units:\n"
	    UNIT("a", "infantry", "stands: [4, 4, 4], x: 10, y: 5, "
	    "facing: 0")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 60, y: 40, "
	    "facing: 180"), "");
	u = unit(f, "a");
	v = unit(f, "e");
	p = crown_move_home_point(&f->e, u);
	/* south: 3 wide + 0.75 deep, and a hundredth */
	assert_true(p.x == 10 && p.y == -3.76);
	p = crown_move_home_point(&f->e, v);
	assert_true(p.x == 60 && p.y == 48 + 4.51);
	f->s->sides[1].home_edge = CROWN_EAST;
	p = crown_move_home_point(&f->e, v);
	assert_true(p.x == 100 + 4.51 && p.y == 40);
	f->s->sides[1].home_edge = CROWN_WEST;
	p = crown_move_home_point(&f->e, v);
	assert_true(p.x == -4.51 && p.y == 40);
	/* a rout that reaches it leaves the table: the unit is lost */
	p = crown_move_home_point(&f->e, u);
	i = crown_engine_event(&f->e, "rout_move", u->id, "R8.1");
	assert_int_equal(crown_move_along(&f->e, u, i, &p, 1, 12,
	    CROWN_MOVE_IGNORE_TERRAIN, -1, &moved), 0);
	assert_int_equal(u->status, CROWN_LOST);
	assert_string_equal(event(f, i)->result, "lost");
	assert_string_equal(event(f, i + 1)->kind, "lost");
	assert_text_has(event(f, i), "a fled");
}

/* R8.1: routs ignore terrain penalties, but not N/A terrain. */
static void
test_ignore_terrain(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u;
	struct crown_point	 to;
	double			 moved;
	size_t			 i;

	f = fixture(state, "terrain:\n"
	    "  - {id: hill, type: hill, polygon: [[0, 12], [20, 12], "
	    "[20, 14], [0, 14]]}\n"
	    "  - {id: wall, name: the wall, type: walls, path: [[0, 20], "
	    "[20, 20]]}\n"
	    "units:\n"
	    UNIT("gun", "horse_artillery", "gun: cannon, stands: [4], x: 10, "
	    "y: 10, facing: 0, limbered: true")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 60, y: 40, "
	    "facing: 180"), "");
	u = unit(f, "gun");
	i = crown_engine_event(&f->e, "rout_move", u->id, "R8.1");
	to.x = 10;
	to.y = 40;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 14,
	    CROWN_MOVE_IGNORE_TERRAIN, -1, &moved), 0);
	assert_int_equal(event(f, i)->ndice, 0);
	/* stopped against the wall (walls are N/A for guns) */
	assert_true(u->y == 20);
	assert_string_equal(event(f, i)->result, "blocked");
	assert_text_has(event(f, i), "It halted at the wall");
}

/*
 * Rules as data (issue 18): a house rule of -1D4 for hills, with a D4 in
 * the rules' dice, rolls a D4 for the hill; a D4 face that the die does
 * not have is refused, naming the die.
 */
/* src with its one occurrence of from replaced by to (caller frees). */
static char *
replace1(const char *src, const char *from, const char *to)
{
	const char	*p = strstr(src, from);

	assert_non_null(p);
	return xasprintf("%.*s%s%s", (int)(p - src), src, to,
	    p + strlen(from));
}

/* The bundled rules with a D4 among the dice and `hill' as the hill's
 * penalty for infantry. */
static void
house_rules(struct fixture *f, const char *hill)
{
	char	*text, *t1, *t2, *want;
	size_t	 len;

	assert_int_equal(crown_read_file(&text, &len, "rules/maximilian.yaml",
	    0, &f->d), 0);
	t1 = replace1(text, "  D6: \"1-6\"\n",
	    "  D6: \"1-6\"\n  D4: \"1-4\"\n");
	want = xasprintf("  hill:\n    infantry: \"%s\"", hill);
	t2 = replace1(t1, "  hill:\n    infantry: \"-1D6\"", want);
	crown_rules_free(f->rules);
	f->rules = NULL;
	assert_int_equal(crown_rules_parse(&f->rules, "house.yaml", t2,
	    strlen(t2), &f->d), 0);
	f->e.rules = f->rules;
	free(want);
	free(t2);
	free(t1);
	free(text);
}

static void
test_house_rule_dice(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u;
	struct crown_point	 to = { 10, 30 };
	double			 moved;
	size_t			 i;

	f = fixture(state, "terrain:\n"
	    "  - {id: cerro, name: Cerro, type: hill, polygon: [[0, 12], "
	    "[20, 12], [20, 14], [0, 14]]}\n"
	    "units:\n"
	    UNIT("inf", "infantry", "stands: [4, 4, 4], x: 10, y: 10, "
	    "facing: 0")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 60, y: 40, "
	    "facing: 180"), "3 4");
	house_rules(f, "-1D4");
	assert_int_equal(f->rules->terrain_move[CROWN_HILL][CROWN_INFANTRY]
	    .sides, 4);
	u = unit(f, "inf");
	i = crown_engine_event(&f->e, "move", u->id, "R4.1");
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 7, 0, -1,
	    &moved), 0);
	assert_int_equal(event(f, i)->ndice, 1);
	assert_int_equal(event(f, i)->dice[0].die, 4);
	assert_int_equal(event(f, i)->dice[0].roll, 3);
	assert_text_has(event(f, i), "slowed by Cerro (-1D4: 3): net 4");
	/* a 5 is no face of the D4 */
	crown_dice_free(f->dice);
	assert_int_equal(crown_dice_script_parse(&f->dice, "dice", "5", 1,
	    &f->d), 0);
	f->e.dice = f->dice;
	u->x = 10;
	u->y = 10;
	crown_engine_unit_moved(&f->e, u);
	i = crown_engine_event(&f->e, "move", u->id, "R4.1");
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 7, 0, -1,
	    &moved), CROWN_EINVALID);
	assert_non_null(strstr(crown_dice_error(f->dice), "is not a face of "
	    "a D4 (1-4)"));
}

/* R4.2: the final wheel is not made when it would swing into a wall. */
static void
test_wheel_refused(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u;
	struct crown_point	 to;
	double			 moved;
	size_t			 i;

	f = fixture(state, "terrain:\n"
	    "  - {id: wall, name: the wall, type: walls, path: [[0, 20], "
	    "[40, 20]]}\n"
	    "units:\n"
	    UNIT("gun", "foot_artillery", "gun: cannon, stands: [4], x: 10, "
	    "y: 20, facing: 0, limbered: true")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 60, y: 40, "
	    "facing: 180"), "");
	u = unit(f, "gun");
	i = crown_engine_event(&f->e, "move", u->id, "R4.1");
	to.x = 30;
	to.y = 20;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 6, 0, -1,
	    &moved), 0);
	assert_true(u->x == 16 && u->y == 20 && u->facing == 0);
	assert_text_has(event(f, i), "it could not turn to face east there");
}

/* R4.3b: a stuck unit does not move, whatever moves it. */
static void
test_stuck(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u;
	struct crown_point	 to;
	double			 moved;
	size_t			 i;

	f = fixture(state, "units:\n"
	    UNIT("w", "wagon", "stands: [2], x: 10, y: 10, facing: 0, "
	    "stuck: true")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 60, y: 40, "
	    "facing: 180"), "");
	u = unit(f, "w");
	i = crown_engine_event(&f->e, "retire", u->id, "R7.4");
	to.x = 10;
	to.y = 0;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 6,
	    CROWN_MOVE_KEEP_FACING, -1, &moved), 0);
	assert_true(moved == 0 && u->y == 10);
	assert_string_equal(event(f, i)->result, "stuck");
}

/*
 * Bad positions never crash: a unit placed half off the table is not
 * lost for moving along the edge; a unit with no stands left still has a
 * footprint; terrain with no points, or a single point, or two, is
 * handled as geom.h says.
 */

/* R4.3 checked looking at every feature, then through the terrain grid
 * (as orders are checked): the same answer, the same message. */
static int
validate_both(const struct crown_state *s, const struct crown_rules *rules,
    const struct crown_unit *u, const struct crown_action_order *a,
    char **why)
{
	struct crown_geom_grid	*g = crown_terrain_grid_new(s);
	char			*why2;
	int			 e1, e2;

	e1 = crown_track_validate(s, rules, u, a, NULL, why);
	e2 = crown_track_validate(s, rules, u, a, g, &why2);
	assert_int_equal(e1, e2);
	if (*why == NULL)
		assert_null(why2);
	else
		assert_string_equal(*why, why2);
	free(why2);
	crown_geom_grid_free(g);
	return e1;
}
static void
test_degenerate(void **state)
{
	struct fixture		*f;
	struct crown_unit	*u, *z;
	struct crown_feature	*ft;
	struct crown_action_order a;
	struct crown_point	 to, seg[2];
	char			*why;
	double			 moved;
	size_t			 i;

	f = fixture(state, "terrain:\n"
	    "  - {id: g1, name: Barranca, type: gully, polygon: [[0, 30], "
	    "[20, 30], [20, 32], [0, 32]]}\n"
	    "  - {id: g2, type: gully, polygon: [[50, 30], [60, 30], "
	    "[60, 32], [50, 32]]}\n"
	    "units:\n"
	    UNIT("edge", "cavalry", "stands: [3, 3, 3], x: 10, y: 0.5, "
	    "facing: 0, formation: column")
	    UNIT("siege", "siege_artillery", "gun: cannon, stands: [4], "
	    "x: 10, y: 20, facing: 0, limbered: true")
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 90, y: 40, "
	    "facing: 180"), "");
	u = unit(f, "edge");
	i = crown_engine_event(&f->e, "move", u->id, "R4.1");
	to.x = 40;
	to.y = 0.5;
	assert_int_equal(crown_move_along(&f->e, u, i, &to, 1, 10, 0, -1,
	    &moved), 0);
	assert_int_equal(u->status, CROWN_OK_STATUS);
	assert_true(u->x == 20);
	/* a unit with no figures left still moves as one stand */
	z = unit(f, "siege");
	z->nstands = 0;
	memset(&a, 0, sizeof(a));
	a.kind = CROWN_MOVE;
	a.path = &to;
	a.npath = 1;
	to.x = 10;
	to.y = 40;
	assert_int_equal(validate_both(f->s, f->rules, z, &a, &why),
	    CROWN_EINVALID);
	assert_string_equal(why, "'siege' may not enter Barranca (gully is "
	    "N/A for siege_artillery)");
	free(why);
	/* the gully shrunk to a segment still bars the way; to a point on
	 * the path, too; to nothing, not */
	ft = &f->s->terrain[0];
	seg[0] = (struct crown_point){ 0, 30 };
	seg[1] = (struct crown_point){ 20, 30 };
	ft->pts[0] = seg[0];
	ft->pts[1] = seg[1];
	ft->npts = 2;
	assert_int_equal(validate_both(f->s, f->rules, z, &a, &why),
	    CROWN_EINVALID);
	free(why);
	ft->pts[0] = (struct crown_point){ 10, 30 };
	ft->npts = 1;
	assert_int_equal(validate_both(f->s, f->rules, z, &a, &why),
	    CROWN_EINVALID);
	free(why);
	ft->npts = 0;
	assert_int_equal(validate_both(f->s, f->rules, z, &a, &why), 0);
	assert_null(why);
	/* a path of no legs: nothing to check */
	a.npath = 0;
	assert_int_equal(validate_both(f->s, f->rules, z, &a, &why), 0);
}

/* R4.6: the leader's walk: capped at 12, short of N/A-for-cavalry. */
static void
test_leader_walk(void **state)
{
	struct fixture			*f;
	const struct crown_feature	*b;
	struct crown_point		 p;

	f = fixture(state, "terrain:\n"
	    "  - {id: casa, type: building, class: 4, polygon: [[5, 20], "
	    "[15, 20], [15, 25], [5, 25]]}\n"
	    "  - {id: cerro, type: hill, polygon: [[30, 12], [50, 12], "
	    "[50, 14], [30, 14]]}\n"
	    "units:\n"
	    ENEMY("e", "cavalry", "stands: [3, 3, 3], x: 90, y: 40, "
	    "facing: 180"), "");
	p = crown_track_leader_walk(f->s, f->rules, (struct crown_point){
	    10, 10 }, (struct crown_point){ 10, 40 }, 12, &b);
	assert_non_null(b);
	assert_string_equal(b->id, "casa");
	assert_true(p.x == 10 && p.y == 19.99);
	p = crown_track_leader_walk(f->s, f->rules, (struct crown_point){
	    40, 10 }, (struct crown_point){ 40, 40 }, 12, &b);
	assert_null(b);
	assert_true(p.x == 40 && p.y == 22);
	p = crown_track_leader_walk(f->s, f->rules, (struct crown_point){
	    40, 10 }, (struct crown_point){ 49, 22 }, 15, &b);
	assert_true(p.x == 49 && p.y == 22);
	/* standing in the building, he may walk out */
	p = crown_track_leader_walk(f->s, f->rules, (struct crown_point){
	    10, 22 }, (struct crown_point){ 10, 30 }, 12, &b);
	assert_null(b);
	assert_true(p.y == 30);
}

/* The rule of R4.7 as the projections alone decide it. */
static bool
crosses(const struct crown_rules *r, const struct crown_quad *a,
    const struct crown_quad *b)
{
	return crown_unit_crossing(a, b) > r->contact_crossing +
	    CROWN_OVERLAP_SLACK;
}

static double
unit_rand(uint32_t *seed)
{
	*seed = *seed * 1664525u + 1013904223u;
	return (double)(*seed >> 8) / 16777216.0;
}

/*
 * R4.7: footprints whose bounding boxes touch or are apart are passed by
 * without the separating axis test; the answer must be the test's, for
 * touching units, units crossing by a hundredth, rotated units, and on
 * the smallest and the largest tables a state may have.
 */
static void
test_overlap_boxes(void **state)
{
	static const double	 scales[] = { 1, 48, 100000, 200000 };
	struct crown_rules	 r;
	struct crown_quad	 a, b;
	struct crown_point	 p, q, side;
	uint32_t		 seed = 7;
	double			 w, d, scale, off;
	size_t			 k, i, yes = 0, no = 0;
	int			 fa, fb, kind;
	bool			 got;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.contact_crossing = 0.01;
	/* side by side, touching: contact, not overlap */
	crown_geom_footprint(&a, (struct crown_point){ 10, 10 }, 0, 4, 1);
	crown_geom_footprint(&b, (struct crown_point){ 14, 10 }, 0, 4, 1);
	assert_false(crown_unit_quads_overlap(&r, &a, &b));
	/* crossing by a hundredth is still contact; by two, overlap */
	crown_geom_footprint(&b, (struct crown_point){ 13.99, 10 }, 0, 4, 1);
	assert_false(crown_unit_quads_overlap(&r, &a, &b));
	crown_geom_footprint(&b, (struct crown_point){ 13.98, 10 }, 0, 4, 1);
	assert_true(crown_unit_quads_overlap(&r, &a, &b));
	/* rotated: the boxes overlap, the footprints are apart */
	crown_geom_footprint(&a, (struct crown_point){ 10, 10 }, 45, 4, 1);
	crown_geom_footprint(&b, (struct crown_point){ 12, 12.5 }, 45, 4, 1);
	assert_false(crown_unit_quads_overlap(&r, &a, &b));
	assert_false(crosses(&r, &a, &b));
	/* one inside the other */
	crown_geom_footprint(&a, (struct crown_point){ 10, 10 }, 30, 8, 4);
	crown_geom_footprint(&b, (struct crown_point){ 10, 9 }, 300, 1, 1);
	assert_true(crown_unit_quads_overlap(&r, &a, &b));

	for (k = 0; k < CROWN_NELEM(scales); k++) {
		scale = scales[k];
		for (i = 0; i < 20000; i++) {
			/* footprints of a tenth of an inch to ten inches */
			w = crown_round2(0.1 + unit_rand(&seed) * 10);
			d = crown_round2(0.1 + unit_rand(&seed) * 3);
			fa = (int)(unit_rand(&seed) * 360);
			fb = (int)(unit_rand(&seed) * 360);
			kind = (int)(unit_rand(&seed) * 3);
			p.x = crown_round2(unit_rand(&seed) * scale);
			p.y = crown_round2(unit_rand(&seed) * scale);
			if (kind == 0) {
				/* anywhere near */
				q.x = crown_round2(p.x + (unit_rand(&seed) -
				    0.5) * 2.5 * w);
				q.y = crown_round2(p.y + (unit_rand(&seed) -
				    0.5) * 2.5 * w);
			} else {
				/* abreast, the same facing, touching or
				 * within a few hundredths of it */
				fb = fa;
				side = crown_geom_dir(fa + 90);
				off = w + (kind == 1 ? 0 :
				    ((int)(unit_rand(&seed) * 7) - 3) * 0.01);
				q.x = crown_round2(p.x + side.x * off);
				q.y = crown_round2(p.y + side.y * off);
			}
			crown_geom_footprint(&a, p, fa, w, d);
			crown_geom_footprint(&b, q, fb, w, d);
			got = crown_unit_quads_overlap(&r, &a, &b);
			if (got != crosses(&r, &a, &b))
				fail_msg("scale %g: (%.2f, %.2f) facing %d "
				    "and (%.2f, %.2f) facing %d, %.2f by "
				    "%.2f: %d", scale, p.x, p.y, fa, q.x,
				    q.y, fb, w, d, got);
			assert_true(got == crown_unit_quads_overlap(&r, &b,
			    &a));
			if (got)
				yes++;
			else
				no++;
		}
	}
	/* both answers were asked for, many times */
	assert_true(yes > 10000 && no > 10000);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_roll_kinds, teardown),
		cmocka_unit_test_teardown(test_into_contact, teardown),
		cmocka_unit_test_teardown(test_touching_enemy, teardown),
		cmocka_unit_test_teardown(test_home_point, teardown),
		cmocka_unit_test_teardown(test_ignore_terrain, teardown),
		cmocka_unit_test_teardown(test_house_rule_dice, teardown),
		cmocka_unit_test_teardown(test_wheel_refused, teardown),
		cmocka_unit_test_teardown(test_stuck, teardown),
		cmocka_unit_test_teardown(test_degenerate, teardown),
		cmocka_unit_test_teardown(test_leader_walk, teardown),
		cmocka_unit_test(test_overlap_boxes),
	};

	return cmocka_run_group_tests_name("move", tests, NULL, NULL);
}
