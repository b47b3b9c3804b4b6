/*
 * test-rules.c: rules/maximilian.yaml against RULES.md, section by
 * section, and the loader's reports on broken rules files.
 *
 * Run from the top of the tree (the file is read as
 * "rules/maximilian.yaml").
 */
#include <sys/stat.h>

#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/rules.h"
#include "crown/types.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define RULES_FILE	"rules/maximilian.yaml"

struct fixture {
	struct crown_rules	*r;
	char			*text;		/* RULES_FILE as read */
	char			 dir[64];	/* scratch, for broken files */
};

static struct fixture	*fx;

/* Helpers. */

static char *
slurp(const char *path)
{
	struct crown_diags	 d = { 0 };
	char			*buf;
	size_t			 len;

	assert_int_equal(crown_read_file(&buf, &len, path, 0, &d), 0);
	crown_diags_release(&d);
	return buf;
}

/* src with its single occurrence of from replaced by to. */
static char *
subst(const char *src, const char *from, const char *to)
{
	struct crown_buf	 b = { 0 };
	const char		*p;

	p = strstr(src, from);
	assert_non_null(p);
	assert_null(strstr(p + 1, from));
	crown_buf_add(&b, src, (size_t)(p - src));
	crown_buf_puts(&b, to);
	crown_buf_puts(&b, p + strlen(from));
	return b.data;
}

/* Apply subst to *text in place. */
static void
edit(char **text, const char *from, const char *to)
{
	char	*t;

	t = subst(*text, from, to);
	free(*text);
	*text = t;
}

/* Line and column (1-based) of needle in text, plus skip columns. */
static void
where(const char *text, const char *needle, size_t skip, unsigned *line,
    unsigned *col)
{
	const char	*p, *q;

	p = strstr(text, needle);
	assert_non_null(p);
	*line = 1;
	*col = 1;
	for (q = text; q < p; q++) {
		if (*q == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
	*col += (unsigned)skip;
}

/* Write text as a rules file in the scratch directory and load it. */
static int
load_text(const char *name, const char *text, struct crown_diags *d,
    struct crown_rules **out, char **path)
{
	FILE	*fp;
	int	 error;

	*path = xasprintf("%s/%s.yaml", fx->dir, name);
	assert_non_null(fp = fopen(*path, "w"));
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	error = crown_rules_load(out, *path, d);
	unlink(*path);
	return error;
}

/*
 * Is there a problem "path:line:col: error: ...msg... (rule)"?  Prints
 * them all when not, to show what came instead.
 */
static bool
has_diag(const struct crown_diags *d, const char *path, unsigned line,
    unsigned col, const char *rule, const char *msg)
{
	char	*s, *head, *tail;
	size_t	 i, ls, lt;
	bool	 found = false;

	head = xasprintf("%s:%u:%u: error: ", path, line, col);
	tail = xasprintf(" (%s)", rule);
	lt = strlen(tail);
	for (i = 0; i < d->n && !found; i++) {
		s = crown_diag_format(&d->v[i]);
		/* the problem's line, without the quotation under it */
		s[strcspn(s, "\n")] = '\0';
		ls = strlen(s);
		found = strncmp(s, head, strlen(head)) == 0 && ls >= lt &&
		    strcmp(s + ls - lt, tail) == 0 && strstr(s, msg) != NULL;
		free(s);
	}
	if (!found) {
		fprintf(stderr, "wanted %s...%s...%s; got:\n", head, msg,
		    tail);
		crown_diags_print(stderr, d);
	}
	free(head);
	free(tail);
	return found;
}

static const struct crown_troop_row *
troop(const struct crown_rules *r, const char *type, int year)
{
	int	i;

	for (i = 0; i < r->troop_nrows; i++)
		if (strcmp(r->troop[i].type, type) == 0 &&
		    r->troop[i].year_from <= year &&
		    year <= r->troop[i].year_to)
			return &r->troop[i];
	fail_msg("no troop row %s in %d", type, year);
	return NULL;
}

static const struct crown_troop_option *
option(const struct crown_troop_row *row, int d10)
{
	int	i;

	for (i = 0; i < row->noptions; i++)
		if (row->option[i].lo <= d10 && d10 <= row->option[i].hi)
			return &row->option[i];
	fail_msg("no option for %d in %s", d10, row->type);
	return NULL;
}

static void
assert_dice(const struct crown_dice *d, int n, int sides, int plus)
{
	assert_int_equal(d->n, n);
	if (n > 0)
		assert_int_equal(d->sides, sides);
	assert_int_equal(d->plus, plus);
}

static void
assert_band(const struct crown_band *b, double min, double max, int hit)
{
	assert_true(b->present);
	assert_true(b->min == min);
	assert_true(b->max == max);
	assert_int_equal(b->hit, hit);
}

static void
assert_tm(const struct crown_terrain_move *t, bool na, int dice,
    bool drown, bool stuck)
{
	assert_int_equal(t->na, na);
	assert_int_equal(t->dice, dice);
	assert_int_equal(t->drown, drown);
	assert_int_equal(t->stuck, stuck);
}

/* Fixture. */

static int
setup(void **state)
{
	struct crown_diags	d = { 0 };

	fx = calloc(1, sizeof(*fx));
	if (fx == NULL)
		return -1;
	if (crown_rules_load(&fx->r, RULES_FILE, &d) != 0) {
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
		return -1;
	}
	crown_diags_release(&d);
	fx->text = slurp(RULES_FILE);
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test-rules.XXXXXX");
	if (mkdtemp(fx->dir) == NULL)
		return -1;
	*state = fx;
	return 0;
}

static int
teardown(void **state)
{
	rmdir(fx->dir);
	crown_rules_free(fx->r);
	free(fx->text);
	free(fx);
	fx = NULL;
	return 0;
}

/* The shipped rules, against RULES.md. */

static void
test_rules_header(void **state)
{
	const struct crown_rules *r = fx->r;

	assert_string_equal(r->id, "maximilian");
	assert_non_null(strstr(r->title, "Maximilian Rules!"));
	assert_string_equal(r->file, RULES_FILE);
}

static void
test_R1_organisation_and_footprints(void **state)
{
	const struct crown_rules *r = fx->r;
	int			  t;

	/* R1.1 */
	assert_int_equal(r->org.figures_min, 2);
	assert_int_equal(r->org.figures_max, 5);
	assert_int_equal(r->org.stands_min, 3);
	assert_int_equal(r->org.stands_max, 8);
	assert_int_equal(r->org.men_per_figure, 20);
	/* R1.2 */
	assert_true(r->footprint[CROWN_INFANTRY].frontage == 1.0);
	assert_true(r->footprint[CROWN_INFANTRY].depth == 0.75);
	assert_true(r->footprint[CROWN_INFANTRY].gap == 0);
	assert_true(r->footprint[CROWN_SKIRMISHERS].frontage == 1.0);
	assert_true(r->footprint[CROWN_SKIRMISHERS].depth == 0.75);
	assert_true(r->footprint[CROWN_SKIRMISHERS].gap == 1.0);
	assert_true(r->footprint[CROWN_CAVALRY].frontage == 1.0);
	assert_true(r->footprint[CROWN_CAVALRY].depth == 1.5);
	for (t = CROWN_HORSE_ART; t <= CROWN_WAGON; t++) {
		assert_true(r->footprint[t].frontage == 1.5);
		assert_true(r->footprint[t].depth == 2.0);
	}
	assert_true(r->limbered_depth == 3.0);
}

static void
test_R3_1_classes(void **state)
{
	static const int want[CROWN_NCLASS][4] = {
		{ 1, 2, 1, 2 },		/* militia */
		{ 1, 1, 0, 1 },		/* poor */
		{ 2, 0, 0, 0 },		/* regular */
		{ 3, -1, -1, -1 },	/* veteran */
		{ 3, -2, -2, -2 },	/* elite */
	};
	const struct crown_rules *r = fx->r;
	int			  k;

	for (k = 0; k < CROWN_NCLASS; k++) {
		assert_int_equal(r->cls[k].actions, want[k][0]);
		assert_int_equal(r->cls[k].firing, want[k][1]);
		assert_int_equal(r->cls[k].melee, want[k][2]);
		assert_int_equal(r->cls[k].morale, want[k][3]);
	}
}

static void
test_R3_actions(void **state)
{
	const struct crown_rules *r = fx->r;
	int			  a;

	/* R3.3: one each; move, charge, manhandle and help are moves */
	for (a = 0; a < CROWN_NACTION; a++) {
		assert_int_equal(r->action[a].cost, 1);
		assert_int_equal(r->action[a].is_move, a == CROWN_MOVE ||
		    a == CROWN_CHARGE || a == CROWN_MANHANDLE ||
		    a == CROWN_HELP);
	}
	assert_int_equal(r->undercrewed_cost_factor, 2);	/* R3.5 */
	assert_int_equal(r->repeater_shots, 3);			/* R3.6 */
	assert_int_equal(r->disorder_mod, 1);			/* R3.7 */
}

static void
test_R4_1_movement(void **state)
{
	const struct crown_rules *r = fx->r;
	int			  t;

	assert_dice(&r->move[CROWN_INFANTRY].normal, 1, 6, 4);
	assert_dice(&r->move[CROWN_SKIRMISHERS].normal, 1, 6, 4);
	assert_dice(&r->move[CROWN_CAVALRY].normal, 1, 6, 10);
	assert_dice(&r->move[CROWN_HORSE_ART].normal, 1, 6, 8);
	assert_dice(&r->move[CROWN_FOOT_ART].normal, 1, 6, 4);
	assert_dice(&r->move[CROWN_SIEGE_ART].normal, 1, 6, 0);
	assert_dice(&r->move[CROWN_WAGON].normal, 1, 6, 2);

	assert_true(r->move[CROWN_INFANTRY].has_bonus);
	assert_dice(&r->move[CROWN_INFANTRY].bonus, 1, 6, 0);
	assert_true(r->move[CROWN_SKIRMISHERS].has_bonus);
	assert_dice(&r->move[CROWN_SKIRMISHERS].bonus, 1, 6, 0);
	assert_true(r->move[CROWN_CAVALRY].has_bonus);
	assert_dice(&r->move[CROWN_CAVALRY].bonus, 2, 6, 0);
	assert_true(r->move[CROWN_HORSE_ART].has_bonus);
	assert_dice(&r->move[CROWN_HORSE_ART].bonus, 1, 6, 0);
	assert_false(r->move[CROWN_FOOT_ART].has_bonus);
	assert_false(r->move[CROWN_SIEGE_ART].has_bonus);
	assert_false(r->move[CROWN_WAGON].has_bonus);

	for (t = 0; t < CROWN_NUTYPE; t++)
		assert_dice(&r->move[t].road, 1, 6, 0);

	assert_true(r->move[CROWN_INFANTRY].manhandle == 0);
	assert_true(r->move[CROWN_SKIRMISHERS].manhandle == 0);
	assert_true(r->move[CROWN_CAVALRY].manhandle == 0);
	assert_true(r->move[CROWN_HORSE_ART].manhandle == 4);
	assert_true(r->move[CROWN_FOOT_ART].manhandle == 3);
	assert_true(r->move[CROWN_SIEGE_ART].manhandle == 2);
	assert_true(r->move[CROWN_WAGON].manhandle == 2);
}

static void
test_R4_3_terrain(void **state)
{
	const struct crown_rules *r = fx->r;
	const struct crown_terrain_move (*tm)[CROWN_NUTYPE] = r->terrain_move;
	int			  u;

	assert_tm(&tm[CROWN_HILL][CROWN_INFANTRY], false, 1, false, false);
	assert_tm(&tm[CROWN_HILL][CROWN_SKIRMISHERS], false, 0, false, false);
	assert_tm(&tm[CROWN_GULLY][CROWN_SKIRMISHERS], false, 1, false,
	    false);
	assert_tm(&tm[CROWN_GULLY][CROWN_SIEGE_ART], true, 0, false, false);
	assert_tm(&tm[CROWN_GULLY][CROWN_WAGON], true, 0, false, false);
	/* "stream / ford" is both */
	assert_tm(&tm[CROWN_STREAM][CROWN_CAVALRY], false, 0, false, false);
	assert_tm(&tm[CROWN_FORD][CROWN_CAVALRY], false, 0, false, false);
	assert_tm(&tm[CROWN_STREAM][CROWN_SIEGE_ART], false, 1, false, false);
	assert_tm(&tm[CROWN_FORD][CROWN_SIEGE_ART], false, 1, false, false);
	/* river: (a) drowning for infantry, (b) stuck guns and wagons */
	assert_tm(&tm[CROWN_RIVER][CROWN_INFANTRY], false, 2, true, false);
	assert_tm(&tm[CROWN_RIVER][CROWN_CAVALRY], false, 1, false, false);
	assert_tm(&tm[CROWN_RIVER][CROWN_SKIRMISHERS], false, 1, false,
	    false);
	assert_tm(&tm[CROWN_RIVER][CROWN_HORSE_ART], false, 2, false, true);
	assert_tm(&tm[CROWN_RIVER][CROWN_FOOT_ART], false, 2, false, true);
	assert_tm(&tm[CROWN_RIVER][CROWN_SIEGE_ART], true, 0, false, false);
	assert_tm(&tm[CROWN_RIVER][CROWN_WAGON], false, 2, false, true);
	/* "scrub / light woods" is both */
	assert_tm(&tm[CROWN_SCRUB][CROWN_INFANTRY], false, 0, false, false);
	assert_tm(&tm[CROWN_LIGHT_WOODS][CROWN_FOOT_ART], false, 1, false,
	    false);
	assert_tm(&tm[CROWN_SCRUB][CROWN_SIEGE_ART], false, 2, false, true);
	assert_tm(&tm[CROWN_LIGHT_WOODS][CROWN_WAGON], false, 2, false, true);
	assert_tm(&tm[CROWN_THICK_WOODS][CROWN_INFANTRY], false, 2, false,
	    false);
	assert_tm(&tm[CROWN_THICK_WOODS][CROWN_CAVALRY], false, 1, false,
	    false);
	assert_tm(&tm[CROWN_THICK_WOODS][CROWN_HORSE_ART], false, 2, false,
	    true);
	assert_tm(&tm[CROWN_THICK_WOODS][CROWN_SIEGE_ART], true, 0, false,
	    false);
	assert_tm(&tm[CROWN_WALLS][CROWN_INFANTRY], false, 1, false, false);
	assert_tm(&tm[CROWN_WALLS][CROWN_CAVALRY], false, 0, false, false);
	assert_tm(&tm[CROWN_WALLS][CROWN_HORSE_ART], true, 0, false, false);
	/* rows RULES.md lacks: see the YAML */
	for (u = 0; u < CROWN_NUTYPE; u++) {
		assert_tm(&tm[CROWN_ROAD][u], false, 0, false, false);
		assert_tm(&tm[CROWN_EARTHWORKS][u], tm[CROWN_WALLS][u].na,
		    tm[CROWN_WALLS][u].dice, false, false);
		assert_tm(&tm[CROWN_BUILDING][u], u != CROWN_INFANTRY &&
		    u != CROWN_SKIRMISHERS, 0, false, false);
	}
	assert_true(r->stuck_move_per_stand == 1);	/* R4.3 (b) */
	assert_true(r->help_reach == 1);		/* R4.3 (b) */
	assert_true(r->stop_short == 1);		/* R4.5 */
	assert_true(r->leader_move == 12);		/* R4.6 */
}

static void
test_R5_fire(void **state)
{
	const struct crown_rules *r = fx->r;
	const struct crown_band	(*w)[CROWN_NBAND] = r->weapon;
	int			  b;

	/* R5.2 */
	assert_int_equal(r->fire_moved_one_in, 2);
	assert_int_equal(r->fire_column_one_in, 3);
	assert_int_equal(r->fire_cavalry_one_in, 2);
	/* R5.3, every weapon */
	assert_band(&w[CROWN_CIVILIAN][0], 0, 3, 3);
	assert_false(w[CROWN_CIVILIAN][1].present);
	assert_false(w[CROWN_CIVILIAN][2].present);
	assert_band(&w[CROWN_FLINTLOCK][0], 0, 4, 3);
	assert_band(&w[CROWN_FLINTLOCK][1], 4, 8, 1);
	assert_false(w[CROWN_FLINTLOCK][2].present);
	assert_band(&w[CROWN_SMOOTHBORE][0], 0, 4, 4);
	assert_band(&w[CROWN_SMOOTHBORE][1], 4, 8, 2);
	assert_band(&w[CROWN_SMOOTHBORE][2], 8, 12, 1);
	assert_band(&w[CROWN_RIFLED_MUSKET][0], 0, 6, 4);
	assert_band(&w[CROWN_RIFLED_MUSKET][1], 6, 12, 3);
	assert_band(&w[CROWN_RIFLED_MUSKET][2], 12, 18, 1);
	assert_band(&w[CROWN_RIFLE][0], 0, 6, 5);
	assert_band(&w[CROWN_RIFLE][1], 6, 12, 3);
	assert_band(&w[CROWN_RIFLE][2], 12, 18, 2);
	assert_band(&w[CROWN_REPEATING_RIFLE][0], 0, 4, 5);
	assert_band(&w[CROWN_REPEATING_RIFLE][1], 4, 8, 3);
	assert_band(&w[CROWN_REPEATING_RIFLE][2], 8, 12, 1);
	assert_band(&w[CROWN_ML_CARBINE][0], 0, 3, 3);
	assert_band(&w[CROWN_ML_CARBINE][1], 3, 6, 2);
	assert_band(&w[CROWN_ML_CARBINE][2], 6, 9, 1);
	assert_band(&w[CROWN_PISTOL][0], 0, 2, 3);
	assert_false(w[CROWN_PISTOL][1].present);
	assert_false(w[CROWN_PISTOL][2].present);
	for (b = 0; b < CROWN_NBAND; b++)
		assert_false(w[CROWN_LANCE][b].present);
	/* R5.4 */
	assert_int_equal(r->fire_mod.target_cavalry, -1);
	assert_int_equal(r->fire_mod.cover[CROWN_COVER_NONE], 0);
	assert_int_equal(r->fire_mod.cover[CROWN_COVER_SOFT], 1);
	assert_int_equal(r->fire_mod.cover[CROWN_COVER_HARD], 2);
	assert_int_equal(r->fire_mod.target_skirmishers, 1);
	assert_int_equal(r->fire_mod.disordered, 1);
	assert_int_equal(r->fire_mod.rallied, 1);
	/* R5.5 */
	assert_int_equal(r->terrain_cover[CROWN_SCRUB], CROWN_COVER_SOFT);
	assert_int_equal(r->terrain_cover[CROWN_LIGHT_WOODS],
	    CROWN_COVER_SOFT);
	assert_int_equal(r->terrain_cover[CROWN_GULLY], CROWN_COVER_SOFT);
	assert_int_equal(r->terrain_cover[CROWN_THICK_WOODS],
	    CROWN_COVER_SOFT);
	assert_int_equal(r->terrain_cover[CROWN_WALLS], CROWN_COVER_HARD);
	assert_int_equal(r->terrain_cover[CROWN_EARTHWORKS],
	    CROWN_COVER_HARD);
	assert_int_equal(r->terrain_cover[CROWN_HILL], CROWN_COVER_NONE);
	assert_int_equal(r->terrain_cover[CROWN_ROAD], CROWN_COVER_NONE);
	assert_int_equal(r->terrain_cover[CROWN_RIVER], CROWN_COVER_NONE);
	assert_true(r->wall_cover_distance == 2);
	assert_true(r->thick_woods_sight == 2);
}

/* R5.3, R13.1: exactly on an edge is the nearer band. */
static void
test_R13_1_band_edges(void **state)
{
	const struct crown_rules *r = fx->r;
	const struct crown_band	 *rm = r->weapon[CROWN_RIFLED_MUSKET];
	const struct crown_band	 *sh;

	assert_int_equal(crown_rules_band(rm, 0), CROWN_BAND_CLOSE);
	assert_int_equal(crown_rules_band(rm, 6.0), CROWN_BAND_CLOSE);
	assert_int_equal(crown_rules_band(rm, 6.01), CROWN_BAND_MEDIUM);
	assert_int_equal(crown_rules_band(rm, 12.0), CROWN_BAND_MEDIUM);
	assert_int_equal(crown_rules_band(rm, 12.01), CROWN_BAND_LONG);
	assert_int_equal(crown_rules_band(rm, 18.0), CROWN_BAND_LONG);
	assert_int_equal(crown_rules_band(rm, 18.01), CROWN_NBAND);
	assert_int_equal(crown_rules_band(r->weapon[CROWN_CIVILIAN], 3.0),
	    CROWN_BAND_CLOSE);
	assert_int_equal(crown_rules_band(r->weapon[CROWN_CIVILIAN], 3.01),
	    CROWN_NBAND);
	assert_int_equal(crown_rules_band(r->weapon[CROWN_LANCE], 0),
	    CROWN_NBAND);
	/* the siege howitzer has no canister: nothing at 8 or nearer */
	sh = r->gun_band[CROWN_SIEGE_ART][CROWN_HOWITZER];
	assert_int_equal(crown_rules_band(sh, 2), CROWN_NBAND);
	assert_int_equal(crown_rules_band(sh, 8.0), CROWN_NBAND);
	assert_int_equal(crown_rules_band(sh, 8.01), CROWN_BAND_MEDIUM);
	assert_int_equal(crown_rules_band(sh, 36.0), CROWN_BAND_MEDIUM);
	assert_int_equal(crown_rules_band(sh, 36.01), CROWN_BAND_LONG);
	assert_int_equal(crown_rules_band(sh, 60.0), CROWN_BAND_LONG);
	assert_int_equal(crown_rules_band(sh, 60.01), CROWN_NBAND);
	/* R13.1 rulings */
	assert_int_equal(r->ruling_die, 6);
	assert_int_equal(r->ruling_defender_max, 3);
}

/*
 * R13.1's hundredths: a distance is judged to the hundredth positions are
 * kept to, so 16.10 - 10.10 (6.000000000000002 in doubles) is on the
 * rifled musket's close edge, and 6.01 beyond it; a rules file without
 * the key, as a campaign made before it froze, compares as computed.
 */
static void
test_R13_1_hundredths(void **state)
{
	const struct crown_rules *r = fx->r;
	const struct crown_band	 *rm = r->weapon[CROWN_RIFLED_MUSKET];
	struct crown_rules	 *old = NULL;
	struct crown_diags	  d = { 0 };
	char			 *text, *path;
	double			  six = 16.10 - 10.10;

	assert_true(six > 6.0);		/* what binary doubles make of it */
	assert_true(r->hundredths);
	assert_true(crown_rules_distance(r, six) == 6.0);
	assert_int_equal(crown_rules_band(rm, crown_rules_distance(r, six)),
	    CROWN_BAND_CLOSE);
	assert_int_equal(crown_rules_band(rm, crown_rules_distance(r,
	    16.11 - 10.10)), CROWN_BAND_MEDIUM);
	assert_true(crown_rules_within(r, 12.10 - 10.10, 2));
	assert_false(crown_rules_within(r, 12.11 - 10.10, 2));
	assert_true(crown_rules_within(r, 2.004, 2));
	assert_false(crown_rules_within(r, 2.006, 2));

	text = subst(fx->text, "  hundredths: true\n", "");
	assert_int_equal(load_text("no-hundredths", text, &d, &old, &path),
	    0);
	assert_false(old->hundredths);
	assert_true(crown_rules_distance(old, six) == six);
	assert_false(crown_rules_within(old, six, 6));
	crown_rules_free(old);
	crown_diags_release(&d);
	free(path);
	free(text);
}

/* R5.7: the seed's fire example, from the tables. */
static void
test_R5_7_seed_fire_example(void **state)
{
	static const int rolls[] = { 1, 4, 0, 1 };
	const struct crown_rules *r = fx->r;
	const struct crown_band	 *b = r->weapon[CROWN_SMOOTHBORE];
	int			  mod, hits = 0;
	size_t			  i;

	mod = r->cls[CROWN_MILITIA].firing + r->fire_mod.target_cavalry;
	assert_int_equal(mod, 1);
	assert_int_equal(crown_rules_band(b, 10), CROWN_BAND_LONG);
	for (i = 0; i < CROWN_NELEM(rolls); i++)
		if (rolls[i] + mod <= b[CROWN_BAND_LONG].hit)
			hits++;
	assert_int_equal(hits, 1);
}

static void
test_R6_artillery(void **state)
{
	static const int want[][4] = {	/* score, canister, effective, long */
		{ -5, 8, 6, 4 }, { -2, 8, 6, 4 }, { -1, 4, 3, 2 },
		{ 0, 4, 3, 2 }, { 1, 3, 2, 1 }, { 2, 3, 2, 1 },
		{ 3, 2, 1, 0 }, { 4, 2, 1, 0 }, { 5, 1, 0, 0 },
		{ 6, 1, 0, 0 }, { 7, 0, 0, 0 }, { 15, 0, 0, 0 },
	};
	const struct crown_rules *r = fx->r;
	const struct crown_band (*g)[CROWN_NGUN][CROWN_NBAND] = r->gun_band;
	size_t			  i;
	int			  b, gun;

	/* R6.2 bands; horse guns the same for both kinds */
	for (gun = CROWN_CANNON; gun <= CROWN_HOWITZER; gun++) {
		assert_band(&g[CROWN_HORSE_ART][gun][0], 0, 6, 0);
		assert_band(&g[CROWN_HORSE_ART][gun][1], 6, 24, 0);
		assert_band(&g[CROWN_HORSE_ART][gun][2], 24, 36, 0);
	}
	assert_band(&g[CROWN_FOOT_ART][CROWN_CANNON][0], 0, 8, 0);
	assert_band(&g[CROWN_FOOT_ART][CROWN_CANNON][1], 8, 30, 0);
	assert_band(&g[CROWN_FOOT_ART][CROWN_CANNON][2], 30, 48, 0);
	assert_band(&g[CROWN_FOOT_ART][CROWN_HOWITZER][0], 0, 6, 0);
	assert_band(&g[CROWN_FOOT_ART][CROWN_HOWITZER][1], 6, 24, 0);
	assert_band(&g[CROWN_FOOT_ART][CROWN_HOWITZER][2], 24, 36, 0);
	assert_band(&g[CROWN_SIEGE_ART][CROWN_CANNON][0], 0, 8, 0);
	assert_band(&g[CROWN_SIEGE_ART][CROWN_CANNON][1], 8, 36, 0);
	assert_band(&g[CROWN_SIEGE_ART][CROWN_CANNON][2], 36, 60, 0);
	assert_false(g[CROWN_SIEGE_ART][CROWN_HOWITZER][0].present);
	assert_band(&g[CROWN_SIEGE_ART][CROWN_HOWITZER][1], 8, 36, 0);
	assert_band(&g[CROWN_SIEGE_ART][CROWN_HOWITZER][2], 36, 60, 0);
	for (b = 0; b < CROWN_NBAND; b++) {
		assert_false(g[CROWN_INFANTRY][CROWN_GUN_NONE][b].present);
		assert_false(g[CROWN_FOOT_ART][CROWN_GUN_NONE][b].present);
	}
	/* R6.2 every casualty row; R6.3 doubles at -2 and below only */
	assert_int_equal(r->art_nrows, 5);
	assert_int_equal(r->art_row[4].max_score, INT_MAX);
	for (i = 0; i < CROWN_NELEM(want); i++)
		for (b = 0; b < CROWN_NBAND; b++)
			assert_int_equal(crown_rules_art_casualties(r,
			    want[i][0], (enum crown_band_name)b),
			    want[i][b + 1]);
	assert_int_equal(r->ricochet_score, -2);
	assert_int_equal(r->ricochet_factor, 2);
	/* R6.4 */
	assert_int_equal(r->min_crew[CROWN_HORSE_ART], 3);
	assert_int_equal(r->min_crew[CROWN_FOOT_ART], 3);
	assert_int_equal(r->min_crew[CROWN_SIEGE_ART], 4);
	assert_int_equal(r->min_crew[CROWN_INFANTRY], 0);
	assert_false(r->crew_replace.cls[CROWN_MILITIA]);
	assert_false(r->crew_replace.cls[CROWN_POOR]);
	assert_true(r->crew_replace.cls[CROWN_REGULAR]);
	assert_true(r->crew_replace.cls[CROWN_VETERAN]);
	assert_false(r->crew_replace.cls[CROWN_ELITE]);
	assert_int_equal(r->crew_replace.min_original, 1);
	assert_true(r->crew_replace.reach == 1.0);
	/* R6.5 */
	assert_int_equal(r->gun_retire_max, 1);
}

static void
test_R7_2_morale_table(void **state)
{
	const struct crown_rules *r = fx->r;
	enum crown_morale_result  n, bc, ch;
	int			  s;

	for (s = -5; s <= 20; s++) {
		if (s <= 3) {
			n = CROWN_R_OK;
			bc = CROWN_R_FIRE_CLOSE;
			ch = CROWN_R_CHARGE;
		} else if (s <= 5) {
			n = CROWN_R_HOLD;
			bc = CROWN_R_FIRE_MEDIUM;
			ch = CROWN_R_CHARGE_HALF;
		} else if (s <= 7) {
			n = CROWN_R_HOLD_DISORDERED;
			bc = CROWN_R_FIRE_LONG;
			ch = CROWN_R_CHARGE_NO_BONUS;
		} else if (s == 8) {
			n = CROWN_R_RETIRE_1;
			bc = CROWN_R_HOLD_DISORDERED;
			ch = CROWN_R_HOLD;
		} else if (s == 9) {
			n = CROWN_R_RETIRE_2;
			bc = CROWN_R_HOLD;
			ch = CROWN_R_HOLD;
		} else {
			n = CROWN_R_ROUT;
			bc = CROWN_R_ROUT;
			ch = CROWN_R_HOLD_DISORDERED;
		}
		assert_int_equal(crown_rules_morale(r, s, CROWN_COL_NORMAL),
		    n);
		assert_int_equal(crown_rules_morale(r, s, CROWN_COL_CHARGED),
		    bc);
		assert_int_equal(crown_rules_morale(r, s, CROWN_COL_CHARGING),
		    ch);
	}
	/* the edges named in the brief, spelled out */
	assert_int_equal(crown_rules_morale(r, 3, CROWN_COL_NORMAL),
	    CROWN_R_OK);
	assert_int_equal(crown_rules_morale(r, 4, CROWN_COL_NORMAL),
	    CROWN_R_HOLD);
	assert_int_equal(crown_rules_morale(r, 7, CROWN_COL_CHARGED),
	    CROWN_R_FIRE_LONG);
	assert_int_equal(crown_rules_morale(r, 8, CROWN_COL_CHARGED),
	    CROWN_R_HOLD_DISORDERED);
	assert_int_equal(crown_rules_morale(r, 9, CROWN_COL_NORMAL),
	    CROWN_R_RETIRE_2);
	assert_int_equal(crown_rules_morale(r, 10, CROWN_COL_NORMAL),
	    CROWN_R_ROUT);
	assert_int_equal(crown_rules_morale(r, 15, CROWN_COL_CHARGING),
	    CROWN_R_HOLD_DISORDERED);
}

static void
test_R7_morale(void **state)
{
	const struct crown_rules	*r = fx->r;
	const struct crown_morale_mods	*m = &r->morale_mod;

	assert_true(r->morale_trigger_radius == 12);	/* R7.1 */
	/* R7.3, every line */
	assert_int_equal(m->breakthrough, 3);
	assert_int_equal(m->general_killed, 2);
	assert_int_equal(m->charged_rear, 2);
	assert_int_equal(m->rout_near, 2);
	assert_int_equal(m->officer_killed, 1);
	assert_int_equal(m->rout_far, 1);
	assert_int_equal(m->artillery_fire, 1);
	assert_int_equal(m->charged_flank, 1);
	assert_int_equal(m->stand_lost, 1);
	assert_int_equal(m->disordered, 1);
	assert_int_equal(m->charged_by_cavalry, 1);
	assert_int_equal(m->repeat_test, 1);
	assert_int_equal(m->officer_attached, -1);
	assert_int_equal(m->general_near, -1);
	assert_int_equal(m->per_two_stands, -1);
	assert_int_equal(m->stands_per_step, 2);
	assert_int_equal(m->hard_cover, -1);
	assert_int_equal(m->general_attached, -2);
	assert_int_equal(m->infantry_flank_rear, -2);
	assert_int_equal(m->cavalry_flank_rear, -4);
	assert_true(m->rout_near_radius == 12);
	assert_true(m->rout_far_radius == 24);
	assert_true(m->general_radius == 12);
	/* the class lines of R7.3 are R3.1's morale column */
	assert_int_equal(r->cls[CROWN_MILITIA].morale, 2);
	assert_int_equal(r->cls[CROWN_POOR].morale, 1);
	assert_int_equal(r->cls[CROWN_VETERAN].morale, -1);
	assert_int_equal(r->cls[CROWN_ELITE].morale, -2);
	/* R7.5 */
	assert_int_equal(r->charge_max_casualty_pct, 60);
	assert_int_equal(r->retire_at_stands, 1);
}

static void
test_R8_rout_and_rally(void **state)
{
	const struct crown_rules *r = fx->r;

	assert_true(r->rally_radius == 2);		/* R8.3 */
	assert_int_equal(r->rally_first_half_turn, 2);
	assert_int_equal(r->rally_target, 5);		/* R8.4 */
	assert_int_equal(r->rally_officer, -1);
	assert_int_equal(r->rally_general, -2);
	assert_int_equal(r->rally_max_failures, 2);	/* R8.5 */
	assert_int_equal(r->rally_max_routs, 2);
	assert_int_equal(r->rallied_dice_mod, 1);	/* R8.6 */
}

static void
test_R9_melee(void **state)
{
	const struct crown_rules *r = fx->r;
	int			  mex, fr, won;

	assert_int_equal(r->melee_flank_first_stands, 1);	/* R9.4 */
	assert_int_equal(r->melee_charging, -1);		/* R9.5 */
	assert_int_equal(r->melee_per_stand, -1);
	assert_int_equal(r->melee_cap_per_stand, 1);
	assert_int_equal(r->melee_rear_cap_per_stand, 2);
	assert_int_equal(r->melee_max_rounds, 4);		/* R9.8 */
	assert_int_equal(r->lance_first_round, -1);		/* R9.9 */
	/* R9.6 from the tables: 8 -1 -7 +1 = +1; 0 -4 = -4; 4 lost */
	mex = 8 + r->melee_charging + 7 * r->melee_per_stand +
	    r->cls[CROWN_MILITIA].melee;
	fr = 0 + 4 * r->melee_per_stand + r->cls[CROWN_REGULAR].melee;
	assert_int_equal(mex, 1);
	assert_int_equal(fr, -4);
	won = mex - fr;
	if (won > 4 * r->melee_cap_per_stand)
		won = 4 * r->melee_cap_per_stand;
	assert_int_equal(won, 4);
}

static void
test_R10_leaders(void **state)
{
	const struct crown_rules *r = fx->r;

	/* R10.1 */
	assert_int_equal(r->leaders.imperial_units_per_officer_min, 2);
	assert_int_equal(r->leaders.imperial_units_per_officer_max, 3);
	assert_int_equal(r->leaders.imperial_generals, 1);
	assert_int_equal(r->leaders.republican_split_year, 1865);
	assert_int_equal(r->leaders.early_general_units, 4);
	assert_int_equal(r->leaders.early_units_per_officer, 3);
	assert_int_equal(r->leaders.early_generals, 1);
	assert_int_equal(r->leaders.late_units_per_officer, 3);
	assert_int_equal(r->leaders.late_generals, 1);
	/* R10.2, R10.3, R10.4 */
	assert_int_equal(r->leader_bonus_min, -1);
	assert_int_equal(r->leader_bonus_max, 2);
	assert_int_equal(r->leader_kill_die, 10);
	assert_int_equal(r->leader_fire_band, CROWN_BAND_LONG);
	assert_int_equal(r->leader_fire_cover, CROWN_COVER_HARD);
}

static void
test_R11_buildings(void **state)
{
	static const int want[5][3] = {	/* cover, casualties, stands */
		{ CROWN_COVER_HARD, 10, 8 },
		{ CROWN_COVER_HARD, 8, 6 },
		{ CROWN_COVER_HARD, 6, 4 },
		{ CROWN_COVER_HARD, 4, 2 },
		{ CROWN_COVER_SOFT, 2, 1 },
	};
	static const int faces[6] = { 2, 3, 3, 4, 4, 5 };
	const struct crown_rules *r = fx->r;
	int			  k;

	assert_int_equal(r->nbuilding_class, 5);		/* R11.1 */
	for (k = 0; k < r->nbuilding_class; k++) {
		assert_int_equal(r->building[k].cover, want[k][0]);
		assert_int_equal(r->building[k].casualties, want[k][1]);
		assert_int_equal(r->building[k].capacity, want[k][2]);
	}
	assert_int_equal(r->building_siege_mod, -2);		/* R11.2 */
	for (k = 0; k < 6; k++)					/* R11.3 */
		assert_int_equal(r->average_die[k], faces[k]);
}

static void
test_R12_troop_tables(void **state)
{
	const struct crown_rules	*r = fx->r;
	const struct crown_troop_row	*t;
	const struct crown_troop_option	*o;
	int				 i, j;

	assert_int_equal(r->troop_nrows, 18);
	/* every row uses each D10 face once */
	for (i = 0; i < r->troop_nrows; i++)
		for (j = 0; j <= 9; j++)
			assert_non_null(option(&r->troop[i], j));

	t = troop(r, "militia_foot", 1862);
	assert_int_equal(t->utype, CROWN_INFANTRY);
	assert_int_equal(t->noptions, 4);
	o = option(t, 8);
	assert_int_equal(o->lo, 7);
	assert_int_equal(o->hi, 9);
	assert_int_equal(o->cls, CROWN_MILITIA);
	assert_int_equal(o->weapon, CROWN_CIVILIAN);
	assert_int_equal(option(t, 5)->weapon, CROWN_FLINTLOCK);
	assert_int_equal(option(t, 2)->weapon, CROWN_SMOOTHBORE);
	assert_int_equal(option(t, 0)->weapon, CROWN_RIFLED_MUSKET);

	t = troop(r, "militia_foot", 1866);
	assert_int_equal(t->noptions, 6);
	assert_int_equal(option(t, 1)->cls, CROWN_POOR);
	assert_int_equal(option(t, 0)->cls, CROWN_REGULAR);

	t = troop(r, "irregular_cavalry", 1863);
	assert_int_equal(t->utype, CROWN_CAVALRY);
	assert_int_equal(t->noptions, 5);
	assert_true(option(t, 9)->lances);
	assert_false(option(t, 4)->lances);
	assert_int_equal(option(t, 4)->weapon, CROWN_SMOOTHBORE);
	assert_int_equal(option(t, 1)->weapon, CROWN_ML_CARBINE);
	assert_int_equal(option(t, 0)->cls, CROWN_POOR);
	assert_true(option(t, 0)->lances);

	t = troop(r, "irregular_cavalry", 1867);
	assert_int_equal(option(t, 9)->weapon, CROWN_FLINTLOCK);
	assert_int_equal(option(t, 3)->cls, CROWN_POOR);
	assert_int_equal(option(t, 0)->cls, CROWN_REGULAR);
	assert_false(option(t, 0)->lances);

	t = troop(r, "french_line", 1864);
	assert_string_equal(t->label, "French Line");
	assert_int_equal(option(t, 2)->cls, CROWN_REGULAR);
	assert_int_equal(option(t, 1)->cls, CROWN_VETERAN);
	assert_int_equal(option(t, 1)->weapon, CROWN_RIFLED_MUSKET);
	t = troop(r, "french_line", 1861);
	assert_int_equal(t->noptions, 1);

	t = troop(r, "austrian_legion", 1865);
	assert_int_equal(option(t, 7)->cls, CROWN_REGULAR);
	assert_int_equal(option(t, 6)->cls, CROWN_VETERAN);
	assert_int_equal(option(t, 6)->weapon, CROWN_RIFLE);

	t = troop(r, "french_artillery", 1863);
	assert_int_equal(t->utype, CROWN_FOOT_ART);
	assert_int_equal(t->gun, CROWN_CANNON);
	assert_int_equal(option(t, 4)->cls, CROWN_REGULAR);
	assert_int_equal(option(t, 3)->cls, CROWN_VETERAN);

	t = troop(r, "chasseurs_dafrique", 1866);
	assert_int_equal(t->utype, CROWN_CAVALRY);
	assert_int_equal(option(t, 5)->weapon, CROWN_ML_CARBINE);
	assert_int_equal(option(t, 4)->cls, CROWN_VETERAN);
}

static void
test_rules_find(void **state)
{
	char		 exe[PATH_MAX], *dir, *path, *want;
	ssize_t		 n;
	bool		 made;
	FILE		*fp;

	assert_null(crown_rules_find("../etc/passwd"));
	assert_null(crown_rules_find("Maximilian"));
	assert_null(crown_rules_find(""));
	assert_null(crown_rules_find("no-such-rules-here"));

	/* rules/<id>.yaml beside the running program is found first */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	dir = xasprintf("%s/rules", exe);
	made = mkdir(dir, 0755) == 0;
	want = xasprintf("%s/zz-find-%ld.yaml", dir, (long)getpid());
	assert_non_null(fp = fopen(want, "w"));
	fclose(fp);
	path = xasprintf("zz-find-%ld", (long)getpid());
	free(dir);
	dir = crown_rules_find(path);
	unlink(want);
	if (made) {
		char *d = xasprintf("%s/rules", exe);

		rmdir(d);
		free(d);
	}
	assert_non_null(dir);
	assert_string_equal(dir, want);
	free(dir);
	free(path);
	free(want);
}

/* Broken rules files. */

static void
test_missing_file(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;

	assert_int_equal(crown_rules_load(&r, "rules/no-such-file.yaml", &d),
	    CROWN_ENOTFOUND);
	assert_null(r);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.v[0].file, "rules/no-such-file.yaml");
	crown_diags_release(&d);
}

static void
test_bad_yaml_syntax(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;
	char			*text, *path;
	unsigned		 line, col;

	text = subst(fx->text, "  poor:    {actions: 1,",
	    "  poor:    {actions: 1],");
	where(text, "  poor:    {actions: 1]",
	    strlen("  poor:    {actions: 1"), &line, &col);
	assert_int_equal(load_text("syntax", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_null(r);
	assert_true(has_diag(&d, path, line, col, "R3.1", "YAML syntax"));

	/* a duplicate key is the YAML layer's too, tagged all the same */
	crown_diags_release(&d);
	free(path);
	free(text);
	text = subst(fx->text, "  stop_short: 1\n",
	    "  stop_short: 1\n  stop_short: 2\n");
	where(text, "  stop_short: 2", 2, &line, &col);
	assert_int_equal(load_text("dup", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_true(has_diag(&d, path, line, col, "R4.5",
	    "duplicate key 'stop_short'"));
	crown_diags_release(&d);
	free(path);
	free(text);
}

/* One edit of the shipped file, one problem, at the place given. */
struct broken {
	const char	*name;
	const char	*from, *to;	/* the edit */
	const char	*at;		/* text whose place is reported */
	size_t		 skip;		/* columns into `at` */
	const char	*rule;
	const char	*msg;
};

static const struct broken broken[] = {
	{ "unknown-key",
	    "melee: 1, morale: 2}", "melee: 1, morale: 2, bravery: 3}",
	    "bravery: 3", 0, "R3.1", "unknown key 'bravery'" },
	{ "wrong-type",
	    "repeater_shots: 3", "repeater_shots: three",
	    "repeater_shots: three", 16, "R3.6",
	    "'repeater_shots' must be a whole number, not 'three'" },
	{ "wrong-kind",
	    "  dice_mod: 1\n", "  dice_mod: [1]\n",
	    "dice_mod: [1]", 10, "R8.6", "'dice_mod' must be a whole number" },
	{ "section-not-map",
	    "R9.9:\n  lance_first_round: -1\n", "R9.9: -1\n",
	    "R9.9: -1", 6, "R9.9",
	    "'R9.9' must be a map, not a single value" },
	{ "out-of-range",
	    "kill_die: 10", "kill_die: 1",
	    "kill_die: 1", 10, "R10.3",
	    "'kill_die' must be from 2 to 100, not 1" },
	{ "class-actions",
	    "militia: {actions: 1,", "militia: {actions: 11,",
	    "militia: {actions: 11", 19, "R3.1",
	    "'actions' must be from 0 to 10, not 11" },
	{ "bad-dice",
	    "{normal: \"1D6+8\"", "{normal: \"1D6+X\"",
	    "\"1D6+X\"", 0, "R4.1", "'normal' is not a dice roll: '1D6+X'" },
	{ "dice-sides",
	    "{normal: \"1D6+8\"", "{normal: \"1D1+8\"",
	    "\"1D1+8\"", 0, "R4.1",
	    "dice must have from 2 to 100 sides, not 1" },
	{ "bad-penalty",
	    "    infantry: {penalty: \"-2D6\", drown: true}",
	    "    infantry: {penalty: \"+2D6\", drown: true}",
	    "\"+2D6\"", 0, "R4.3",
	    "must be NONE, N/A or a penalty like -1D6" },
	{ "bands-not-increasing",
	    "rifled_musket:   {close: {max: 6, hit: 4}, medium: {max: 12,",
	    "rifled_musket:   {close: {max: 6, hit: 4}, medium: {max: 5,",
	    "medium: {max: 5,", 14, "R5.3",
	    "bands must increase: 'max' of 'medium' must be over 6, not 5" },
	{ "gun-bands-not-increasing",
	    "cannon:   {canister: {max: 8}, effective: {max: 30}, "
	    "long: {max: 48}}",
	    "cannon:   {canister: {max: 8}, effective: {max: 30}, "
	    "long: {max: 30}}",
	    "long: {max: 30}", 12, "R6.2",
	    "'max' of 'long' must be over 30, not 30" },
	{ "art-rows-open",
	    "{max: null, canister: 0,", "{max: 7, canister: 0,",
	    "{max: 7, canister: 0,", 6, "R6.2",
	    "the last row must have 'max' null" },
	{ "morale-rows-ascend",
	    "{min: 9,  normal: retire_2,", "{min: 8,  normal: retire_2,",
	    "{min: 8,  normal: retire_2", 6, "R7.2",
	    "rows must ascend: 'min' must be over 8, not 8" },
	{ "morale-first-row",
	    "{min: 0,  normal: ok,", "{min: 1,  normal: ok,",
	    "{min: 1,  normal: ok,", 6, "R7.2",
	    "the first row must start at 0 or lower" },
	{ "morale-column",
	    "normal: hold,            being_charged: fire_medium,",
	    "normal: fire_close,      being_charged: fire_medium,",
	    "normal: fire_close,", 8, "R7.2",
	    "'fire_close' is not a result of the 'normal' column" },
	{ "building-class-order",
	    "{class: 3, example:", "{class: 4, example:",
	    "{class: 4, example:", 8, "R11.1",
	    "building classes must be 1 to 5 in order: expected 3, not 4" },
	{ "average-die-faces",
	    "average_die: [2, 3, 3, 4, 4, 5]", "average_die: [2, 3, 3, 4, 4]",
	    "[2, 3, 3, 4, 4]", 0, "R11.3",
	    "'average_die' must have exactly 6 faces, not 5" },
	{ "troop-d10-twice",
	    "{d10: \"6-4\", class: militia, weapon: flintlock}",
	    "{d10: \"6-3\", class: militia, weapon: flintlock}",
	    "\"3-1\"", 0, "R12.1", "D10 score 3 is in two options" },
	{ "troop-bad-weapon",
	    "{d10: \"9-6\", class: regular, weapon: rifle}",
	    "{d10: \"9-6\", class: regular, weapon: needle_gun}",
	    "needle_gun", 0, "R12.1", "unknown weapon 'needle_gun'" },
	{ "ruling-die",
	    "defender_max: 3", "defender_max: 6",
	    "defender_max: 6", 14, "R13.1",
	    "'defender_max' must be under 'ruling_die' (6), not 6" },
	{ "unknown-section",
	    "R13.1:\n", "R13.2:\n  x: 1\nR13.1:\n",
	    "R13.2:", 0, "R13.2", "unknown section 'R13.2'" },
};

static void
test_broken_files(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;
	char			*text, *path;
	unsigned		 line, col;
	size_t			 i;

	for (i = 0; i < CROWN_NELEM(broken); i++) {
		text = subst(fx->text, broken[i].from, broken[i].to);
		where(text, broken[i].at, broken[i].skip, &line, &col);
		assert_int_equal(load_text(broken[i].name, text, &d, &r,
		    &path), CROWN_EINVALID);
		assert_null(r);
		if (!has_diag(&d, path, line, col, broken[i].rule,
		    broken[i].msg))
			fail_msg("case %s", broken[i].name);
		/* exactly that problem and no knock-on ones */
		assert_int_equal(d.n, 1);
		crown_diags_release(&d);
		free(path);
		free(text);
	}
}

static void
test_missing_section(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;
	char			*text, *path;
	unsigned		 line, col;

	text = subst(fx->text, "R9.8:\n  max_rounds: 4\n"
	    "  part_retire_moves: 1\n", "");
	/* a missing section is placed at the top of the document */
	where(text, "id: maximilian", 0, &line, &col);
	assert_int_equal(load_text("missing", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_true(has_diag(&d, path, line, col, "R9.8",
	    "missing section 'R9.8'"));
	assert_int_equal(d.n, 1);
	crown_diags_release(&d);
	free(path);
	free(text);

	/* and a missing key inside one, at its section's map */
	text = subst(fx->text, "  rout_far_radius: 24\n", "");
	where(text, "  breakthrough: 3", 2, &line, &col);
	assert_int_equal(load_text("missing-key", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_true(has_diag(&d, path, line, col, "R7.3",
	    "missing key 'rout_far_radius'"));
	assert_int_equal(d.n, 1);
	crown_diags_release(&d);
	free(path);
	free(text);
}

/* Is there a problem whose text holds want?  Prints them all if not. */
static void
assert_some_diag(const struct crown_diags *d, const char *want)
{
	char	*s;
	size_t	 i;

	for (i = 0; i < d->n; i++) {
		s = crown_diag_format(&d->v[i]);
		if (strstr(s, want) != NULL) {
			free(s);
			return;
		}
		free(s);
	}
	for (i = 0; i < d->n; i++) {
		s = crown_diag_format(&d->v[i]);
		print_message("  %s\n", s);
		free(s);
	}
	fail_msg("no problem says \"%s\"", want);
}

/*
 * The dice are data (issue 18): what each die reads comes from the dice
 * section, every rule's die is one of them, and a house rule can add a
 * die, read a D10 1-10, or add a sixth class of building.
 */
static void
test_dice_are_data(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r = NULL;
	const struct crown_rules *R = fx->r;
	char			*text, *t2, *path;
	unsigned		 line, col;

	assert_int_equal(R->die_low[10], 0);
	assert_int_equal(R->die_low[6], 1);
	assert_int_equal(R->die_low[4], -1);
	assert_int_equal(crown_rules_die_low(R, 10), 0);
	assert_int_equal(crown_rules_die_low(R, 6), 1);
	assert_int_equal(R->fire_die, 10);
	assert_int_equal(R->gun_die, 10);
	assert_int_equal(R->morale_die, 10);
	assert_int_equal(R->rally_die, 10);
	assert_int_equal(R->melee_die, 10);
	assert_int_equal(R->muster_die, 10);
	assert_int_equal(R->terrain_move[CROWN_RIVER][CROWN_INFANTRY].dice, 2);
	assert_int_equal(R->terrain_move[CROWN_RIVER][CROWN_INFANTRY].sides,
	    6);

	/* a die the dice section does not have */
	text = subst(fx->text, "  hill:\n    infantry: \"-1D6\"",
	    "  hill:\n    infantry: \"-1D4\"");
	where(text, "\"-1D4\"", 0, &line, &col);
	assert_int_equal(load_text("no-d4", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_true(has_diag(&d, path, line, col, "R4.3", "'infantry': the "
	    "rules have no D4 (the 'dice' section lists the dice of the "
	    "game)"));
	crown_diags_release(&d);
	free(path);
	/* ... and with it */
	t2 = subst(text, "  D6: \"1-6\"\n", "  D6: \"1-6\"\n  D4: \"1-4\"\n");
	assert_int_equal(load_text("d4", t2, &d, &r, &path), 0);
	assert_int_equal(r->die_low[4], 1);
	assert_int_equal(r->terrain_move[CROWN_HILL][CROWN_INFANTRY].sides, 4);
	crown_rules_free(r);
	free(path);
	free(t2);
	free(text);

	/* faces that are not the die's */
	text = subst(fx->text, "  D10: \"0-9\"", "  D10: \"0-8\"");
	assert_int_equal(load_text("faces", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_some_diag(&d, "error: 'D10' reads its faces as \"0-9\" or "
	    "\"1-10\", not '0-8'");
	crown_diags_release(&d);
	free(path);
	free(text);
	/* nothing but "L-H" */
	text = subst(fx->text, "  D10: \"0-9\"", "  D10: \"0-9abc\"");
	assert_int_equal(load_text("junk", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_some_diag(&d, "not '0-9abc'");
	crown_diags_release(&d);
	free(path);
	free(text);
	text = subst(fx->text, "  D10: \"0-9\"", "  D10: \"0-+9\"");
	assert_int_equal(load_text("plus", text, &d, &r, &path),
	    CROWN_EINVALID);
	crown_diags_release(&d);
	free(path);
	free(text);
	/* a D10 read 1-10: the troop tables' 0 is then no face of it */
	text = subst(fx->text, "  D10: \"0-9\"", "  D10: \"1-10\"");
	assert_int_equal(load_text("d10", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_some_diag(&d, "'d10' score '0' is not a face of the D10 "
	    "(R12.1)");
	crown_diags_release(&d);
	free(path);
	free(text);
	/* a rule's die must be one of the game's */
	text = subst(fx->text, "R9.5:\n  die: 10\n", "R9.5:\n  die: 12\n");
	assert_int_equal(load_text("d12", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_some_diag(&d, "'die': the rules have no D12");
	crown_diags_release(&d);
	free(path);
	free(text);

	/* R11.1: a sixth class of building */
	text = subst(fx->text, "stands: 1}\n", "stands: 1}\n"
	    "  - {class: 6, example: \"tent\", cover: soft, casualties: 1, "
	    "stands: 1}\n");
	assert_int_equal(load_text("classes", text, &d, &r, &path), 0);
	assert_int_equal(r->nbuilding_class, 6);
	assert_int_equal(r->building[5].capacity, 1);
	crown_rules_free(r);
	free(path);
	free(text);

	/* R9.1's rounding and R9.8's retire are numbers of the file too */
	assert_int_equal(crown_rules_half_bonus(R, 5), 3);
	assert_int_equal(crown_rules_half_bonus(R, 4), 2);
	assert_int_equal(R->melee_part_moves, 1);
	text = subst(fx->text, "half_bonus_rounds: up", "half_bonus_rounds: "
	    "down");
	assert_int_equal(load_text("down", text, &d, &r, &path), 0);
	assert_int_equal(crown_rules_half_bonus(r, 5), 2);
	crown_rules_free(r);
	free(path);
	free(text);
	/* the most a roll comes to, from the faces: 2D6+1 is 13 */
	{
		struct crown_dice dd = { 2, 6, 1 };

		assert_int_equal(crown_rules_dice_max(R, &dd), 13);
		dd.sides = 10;
		assert_int_equal(crown_rules_dice_max(R, &dd), 19);
	}
}

/* Every problem of a file is reported, not just the first. */
static void
test_all_problems_reported(void **state)
{
	/* unknown key, wrong type and kind, section not a map, out of
	 * range, bad dice, bands not increasing, troop table */
	static const size_t pick[] = { 0, 1, 2, 3, 4, 6, 9, 17 };
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;
	char			*text, *path;
	unsigned		 line[CROWN_NELEM(pick)];
	unsigned		 col[CROWN_NELEM(pick)];
	unsigned		 l, c;
	size_t			 i;

	text = xstrdup(fx->text);
	for (i = 0; i < CROWN_NELEM(pick); i++)
		edit(&text, broken[pick[i]].from, broken[pick[i]].to);
	edit(&text, "R9.8:\n  max_rounds: 4\n  part_retire_moves: 1\n", "");
	for (i = 0; i < CROWN_NELEM(pick); i++)
		where(text, broken[pick[i]].at, broken[pick[i]].skip,
		    &line[i], &col[i]);
	assert_int_equal(load_text("several", text, &d, &r, &path),
	    CROWN_EINVALID);
	assert_null(r);
	for (i = 0; i < CROWN_NELEM(pick); i++)
		assert_true(has_diag(&d, path, line[i], col[i],
		    broken[pick[i]].rule, broken[pick[i]].msg));
	where(text, "id: maximilian", 0, &l, &c);
	assert_true(has_diag(&d, path, l, c, "R9.8",
	    "missing section 'R9.8'"));
	assert_int_equal(d.n, CROWN_NELEM(pick) + 1);
	crown_diags_release(&d);
	free(path);
	free(text);
}

/* A file of the wrong shape altogether. */
static void
test_not_a_rules_file(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r;
	char			*path;

	assert_int_equal(load_text("list", "- 1\n- 2\n", &d, &r, &path),
	    CROWN_EINVALID);
	assert_null(r);
	assert_int_equal(d.n, 1);
	assert_non_null(strstr(d.v[0].msg, "must be a map"));
	crown_diags_release(&d);
	free(path);

	/* an empty map: id, title and every section missing */
	assert_int_equal(load_text("empty", "{}\n", &d, &r, &path),
	    CROWN_EINVALID);
	assert_true(d.n > 30);
	assert_true(has_diag(&d, path, 1, 1, "R12.1",
	    "missing section 'R12.1'"));
	crown_diags_release(&d);
	free(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules_header),
		cmocka_unit_test(test_R1_organisation_and_footprints),
		cmocka_unit_test(test_R3_1_classes),
		cmocka_unit_test(test_R3_actions),
		cmocka_unit_test(test_R4_1_movement),
		cmocka_unit_test(test_R4_3_terrain),
		cmocka_unit_test(test_R5_fire),
		cmocka_unit_test(test_R13_1_band_edges),
		cmocka_unit_test(test_R13_1_hundredths),
		cmocka_unit_test(test_R5_7_seed_fire_example),
		cmocka_unit_test(test_R6_artillery),
		cmocka_unit_test(test_R7_2_morale_table),
		cmocka_unit_test(test_R7_morale),
		cmocka_unit_test(test_R8_rout_and_rally),
		cmocka_unit_test(test_R9_melee),
		cmocka_unit_test(test_R10_leaders),
		cmocka_unit_test(test_R11_buildings),
		cmocka_unit_test(test_R12_troop_tables),
		cmocka_unit_test(test_dice_are_data),
		cmocka_unit_test(test_rules_find),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_bad_yaml_syntax),
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_missing_section),
		cmocka_unit_test(test_all_problems_reported),
		cmocka_unit_test(test_not_a_rules_file),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
