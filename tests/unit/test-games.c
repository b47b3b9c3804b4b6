/*
 * test-games.c: the bundled scenarios of games/ (issue 9).  For each game:
 * the scenario loads as a state and passes the checks of `crown new`
 * (R1.1 organisation, R3.2 elite troops, R10.1 and R10.2 leaders, R11.1
 * buildings classified); its turn-1 orders validate against it; and
 * turns 1-3, played with campaign dice for a spread of secrets, leave the
 * bundled orders of every next turn valid, whatever the dice, with every
 * turn-1 move arriving where it was sent and no turn-1 order skipped, and
 * no unit overlapping another in the scenario or after any turn (R4.7).
 * `crown new` reports every problem of a scenario at once (R3.2, R10.1,
 * R10.2).  Also: what `crown muster` prints loads as part of a scenario
 * (R12.1).
 *
 * The maps (issue 21): the opening map and the map of every turn of a
 * few campaigns, drawn with the bundled templates, have no two labels
 * overlapping (boxes estimated as svgread.h says), as many stand shapes
 * in each unit's group as it has stands, and each shot's fire line
 * running from where the firer stood to where its target stood, as the
 * event records them; every map is well-formed XML, and rsvg-convert
 * draws the opening map and those of the first campaign.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "testutil.h"

#include "crown/campaign.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/leaders.h"
#include "crown/officers.h"
#include "crown/orders.h"
#include "crown/outputs.h"
#include "crown/report.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/svg.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#include "svgread.h"

#define GAMES_DIR	"games"
#define RULES_FILE	"rules/maximilian.yaml"
#define SAMPLE_TURNS	3	/* orders bundled for turns 1-3 */
/* campaigns played per game: enough for the rare dice that once made
 * units overlap (R4.7) */
#define SECRETS		200
#define MAP_SECRETS	4	/* campaigns whose maps are checked */
#define TEMPLATES_DIR	"templates"

struct game {
	char	*name;
};

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.yaml files of dir, sorted; NULL-terminated, caller frees. */
static char **
yaml_files(const char *dir, size_t *n)
{
	DIR		*dp;
	struct dirent	*de;
	char		**v = NULL;
	size_t		 cap = 0, len;

	*n = 0;
	if ((dp = opendir(dir)) == NULL)
		return NULL;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		crown_grow(&v, &cap, *n + 2, sizeof(*v));
		v[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
		v[*n] = NULL;
	}
	closedir(dp);
	if (v != NULL)
		qsort(v, *n, sizeof(*v), cmp_names);
	return v;
}

static void
free_names(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static struct crown_rules *
load_rules(void)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*rules = NULL;

	assert_int_equal(crown_rules_load(&rules, RULES_FILE, &d), 0);
	assert_no_diags(&d);
	return rules;
}

static struct crown_state *
load_scenario(const struct game *g)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	char			*path;

	path = xasprintf("%s/%s/scenario.yaml", GAMES_DIR, g->name);
	if (crown_state_load(&s, path, &d) != 0 || d.n != 0) {
		char *all = tu_diags(&d);

		print_error("%s does not load:\n%s", path, all);
		free(all);
		fail();
	}
	crown_diags_release(&d);
	free(path);
	return s;
}

/* Load the orders of a turn: one file per side, every one parsed. */
static struct crown_orders **
load_orders(const struct game *g, int turn, const struct crown_state *s,
    size_t *n)
{
	struct crown_diags	  d = { 0 };
	struct crown_orders	**v;
	char			 *dir, **files;
	size_t			  nfiles, i;

	dir = xasprintf("%s/%s/orders/turn-%03d", GAMES_DIR, g->name, turn);
	files = yaml_files(dir, &nfiles);
	if (nfiles != s->nsides) {
		print_error("%s: %zu order files for %zu sides", dir, nfiles,
		    s->nsides);
		fail();
	}
	v = xcalloc(nfiles, sizeof(*v));
	for (i = 0; i < nfiles; i++) {
		assert_int_equal(crown_orders_load(&v[i], files[i], &d), 0);
		assert_no_diags(&d);
		assert_int_equal(v[i]->turn, turn);
	}
	free_names(files, nfiles);
	free(dir);
	*n = nfiles;
	return v;
}

static void
free_orders(struct crown_orders **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		crown_orders_free(v[i]);
	free(v);
}

/* Validate orders against a state; print every problem on failure. */
static void
assert_valid(struct crown_orders **v, size_t n, const struct crown_state *s,
    const struct crown_rules *rules, const char *what)
{
	struct crown_diags	d = { 0 };
	char			*all;

	if (crown_orders_validate_set(v, n, s, rules, &d) != 0 || d.n != 0) {
		all = tu_diags(&d);
		print_error("%s: bundled orders invalid:\n%s", what, all);
		free(all);
		fail();
	}
	crown_diags_release(&d);
}

/*
 * The scenario checks of `crown new`: it loads with no problem, is a
 * turn-0 state with a year (R10.1, R12.1), units organised as R1.1 says,
 * every building classified (R11.1), and the leaders and elite troops of
 * R10.1, R10.2 and R3.2.  A README with sources sits beside it.
 */
static void
test_scenario(void **state)
{
	const struct game	*g = *state;
	struct crown_rules	*rules = load_rules();
	struct crown_state	*s = load_scenario(g);
	struct crown_diags	 d = { 0 };
	const struct crown_unit	*u;
	char			*path, *text;
	size_t			 i, j;
	int			 side_units[8] = { 0 };

	assert_int_equal(s->turn, 0);
	assert_true(s->year >= 1861 && s->year <= 1867);
	assert_true(s->nsides == 2);
	for (i = 0; i < s->nsides; i++)
		assert_true(s->sides[i].army != CROWN_ARMY_UNKNOWN);
	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		side_units[crown_state_side(s, u->side)]++;
		if (crown_is_artillery(u->type)) {
			/* R1.1: each gun with its crew is one unit */
			assert_int_equal(u->nstands, 1);
			assert_true(u->stands[0] >= rules->min_crew[u->type]);
			continue;
		}
		if ((int)u->nstands < rules->org.stands_min ||
		    (int)u->nstands > rules->org.stands_max) {
			print_error("%s: '%s' has %zu stands (R1.1)", g->name,
			    u->id, u->nstands);
			fail();
		}
		for (j = 0; j < u->nstands; j++)
			if (u->stands[j] < rules->org.figures_min ||
			    u->stands[j] > rules->org.figures_max) {
				print_error("%s: '%s' stand %zu has %d "
				    "figures (R1.1)", g->name, u->id, j + 1,
				    u->stands[j]);
				fail();
			}
	}
	for (i = 0; i < s->nsides; i++)
		assert_true(side_units[i] > 0);
	for (i = 0; i < s->nterrain; i++)
		if (s->terrain[i].type == CROWN_BUILDING &&
		    (s->terrain[i].bclass < 1 ||
		    s->terrain[i].bclass > CROWN_MAX_BUILDING_CLASS)) {
			print_error("%s: building '%s' is not classified "
			    "(R11.1)", g->name, s->terrain[i].id);
			fail();
		}
	if (crown_leaders_validate(s, rules, &d) != 0 || d.n != 0) {
		char *all = tu_diags(&d);

		print_error("%s: leaders or elite troops:\n%s", g->name, all);
		free(all);
		fail();
	}
	path = xasprintf("%s/%s/README.md", GAMES_DIR, g->name);
	text = tu_slurp(path);
	assert_non_null(text);
	assert_non_null(strstr(text, "## History"));
	assert_non_null(strstr(text, "## Victory"));
	assert_non_null(strstr(text, "## Sources"));
	free(text);
	free(path);
	crown_state_free(s);
	crown_rules_free(rules);
}

/* Every bundled orders file of turn 1 passes validation. */
static void
test_turn1_orders(void **state)
{
	const struct game	 *g = *state;
	struct crown_rules	 *rules = load_rules();
	struct crown_state	 *s = load_scenario(g);
	struct crown_orders	**o;
	size_t			  n;

	o = load_orders(g, 1, s, &n);
	assert_valid(o, n, s, rules, g->name);
	free_orders(o, n);
	crown_state_free(s);
	crown_rules_free(rules);
}

/* The destination of u's move in orders o, if it has one. */
static const struct crown_point *
ordered_to(struct crown_orders **o, size_t n, const char *unit)
{
	const struct crown_action_order	*a;
	size_t				 i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < o[i]->nunits; j++) {
			if (strcmp(o[i]->units[j].unit, unit) != 0)
				continue;
			for (k = 0; k < o[i]->units[j].nactions; k++) {
				a = &o[i]->units[j].actions[k];
				if (a->kind == CROWN_MOVE && a->npath > 0)
					return &a->path[a->npath - 1];
			}
		}
	return NULL;
}

/* R4.7: no two units of s overlap. */
static void
assert_no_overlap(const struct crown_state *s,
    const struct crown_rules *rules, const char *what)
{
	struct crown_diags	 d = { 0 };
	char			*all;

	if (crown_state_check_overlaps(s, rules, &d) != 0) {
		all = tu_diags(&d);
		print_error("%s: units overlap:\n%s", what, all);
		free(all);
		fail();
	}
	crown_diags_release(&d);
}

/* One turn played: the states before and after, its events and orders. */
struct played {
	const struct crown_state	 *before, *after;
	const struct crown_events	 *ev;
	struct crown_orders		**o;
	size_t				  n;
	const struct crown_rules	 *rules;
	int				  turn, secret;
	const char			 *what;	/* game, secret, turn */
};

/*
 * The problems of a turn's reports (issue 21): an event told more than
 * once in a report (its sentence more often than events have it: a unit
 * that fires and reloads twice reloads twice in its paragraph), or a
 * Markdown escape in a word of the engine's ("leader\_check").
 */
static int
check_reports(const struct crown_outputs *out, const struct crown_events *ev,
    const char *what)
{
	const char	*rep, *p;
	size_t		 i, j, k, times, same;
	int		 bad = 0;

	for (k = 0; k < out->n; k++) {
		if (strstr(out->v[k].name, ".md") == NULL)
			continue;
		rep = out->v[k].data.data;
		if ((p = strstr(rep, "\\_")) != NULL) {
			print_error("%s: %s has an escape: %.40s\n", what,
			    out->v[k].name, p);
			bad++;
		}
		for (i = 0; i < ev->n; i++) {
			if (ev->v[i].text == NULL)
				continue;
			for (times = 0, p = rep; (p = strstr(p,
			    ev->v[i].text)) != NULL; p++)
				times++;
			for (same = 0, j = 0; j < ev->n; j++)
				same += ev->v[j].text != NULL &&
				    strcmp(ev->v[j].text, ev->v[i].text) == 0;
			if (times > same) {
				print_error("%s: %s tells \"%s\" %zu times\n",
				    what, out->v[k].name, ev->v[i].text, times);
				bad++;
			}
		}
	}
	return bad;
}

/*
 * Play turns 1-3 of g for `secrets` campaign secrets, the bundled orders
 * validated against the state the dice have made before each turn, and
 * call each(arg, turn) after every turn.
 */
static void
play_campaigns(const struct game *g, const struct crown_rules *rules,
    const struct crown_state *s0, int secrets,
    void (*each)(void *, const struct played *), void *arg)
{
	struct crown_state	 *s, *before;
	struct crown_orders	**o;
	struct crown_dice	 *dice;
	struct crown_events	  ev;
	struct crown_diags	  d = { 0 };
	struct played		  p;
	unsigned char		  secret[CROWN_SECRET_BYTES];
	char			  what[128];
	size_t			  n, i;
	int			  k, t;

	for (k = 0; k < secrets; k++) {
		for (i = 0; i < sizeof(secret); i++)
			secret[i] = (unsigned char)(k * 37 + i * 11 + 1);
		s = crown_state_clone(s0);
		for (t = 1; t <= SAMPLE_TURNS; t++) {
			snprintf(what, sizeof(what), "%s, secret %d, turn %d",
			    g->name, k, t);
			o = load_orders(g, t, s, &n);
			assert_valid(o, n, s, rules, what);
			memset(&ev, 0, sizeof(ev));
			dice = crown_dice_campaign(secret);
			assert_non_null(dice);
			before = crown_state_clone(s);
			if (crown_resolve(s, o, n, rules, dice, &ev,
			    &d) != 0) {
				char *all = tu_diags(&d);

				print_error("%s: resolve failed:\n%s", what,
				    all);
				free(all);
				fail();
			}
			p.before = before;
			p.after = s;
			p.ev = &ev;
			p.o = o;
			p.n = n;
			p.rules = rules;
			p.turn = t;
			p.secret = k;
			p.what = what;
			each(arg, &p);
			crown_state_free(before);
			crown_events_release(&ev);
			crown_dice_free(dice);
			free_orders(o, n);
		}
		crown_state_free(s);
	}
	crown_diags_release(&d);
}

/* In turn 1 nothing is skipped and every move arrives where sent. */
static void
check_turn(void *arg, const struct played *p)
{
	const struct crown_point *to;
	const struct crown_event *e;
	size_t			  i;
	int			  moves = 0;

	(void)arg;
	assert_int_equal(p->after->turn, p->turn);
	assert_no_overlap(p->after, p->rules, p->what);
	for (i = 0; p->turn == 1 && i < p->ev->n; i++) {
		e = &p->ev->v[i];
		if (strcmp(e->kind, "order_skipped") == 0) {
			print_error("%s: skipped: %s", p->what, e->text);
			fail();
		}
		if (strcmp(e->kind, "move") != 0 || e->unit == NULL ||
		    !e->has_to || (to = ordered_to(p->o, p->n,
		    e->unit)) == NULL)
			continue;
		moves++;
		assert_float_equal(e->to.x, to->x, 1e-9);
		assert_float_equal(e->to.y, to->y, 1e-9);
	}
	if (p->turn == 1)
		assert_true(moves > 0);
}

/*
 * Play turns 1-3 for SECRETS campaign secrets: before each turn the
 * bundled orders must validate against the state the dice have made.
 * In turn 1 nothing is skipped and every move arrives (R4.2).  No state,
 * the scenario's or any turn's, has a unit overlapping another (R4.7).
 */
static void
test_sample_turns(void **state)
{
	const struct game	*g = *state;
	struct crown_rules	*rules = load_rules();
	struct crown_state	*s0 = load_scenario(g);

	assert_no_overlap(s0, rules, g->name);
	play_campaigns(g, rules, s0, SECRETS, check_turn, NULL);
	crown_state_free(s0);
	crown_rules_free(rules);
}

/* A pixel of the map against a point of the table (one decimal). */
static bool
near_px(double px, double want)
{
	return px > want - 0.051 && px < want + 0.051;
}

/*
 * The checks of the map of s after the events ev (NULL: the opening
 * map): labels apart, stands drawn, fire lines where the shots were.
 * Every problem is printed; the count of them is returned.
 */
static int
check_map(const char *svg, const struct crown_state *s,
    const struct crown_events *ev, const char *what)
{
	struct svgread		 r;
	const struct crown_unit	*u;
	const struct crown_event *e;
	const char		*bad_xml;
	char			 id[40];
	size_t			 i, j, nfire = 0;
	int			 bad = 0, want, overlaps = 0;

	if ((bad_xml = svgread_xml_check(svg)) != NULL) {
		print_error("%s: map not well-formed: %s\n", what, bad_xml);
		return 1;
	}
	if (!svgread_parse(&r, svg)) {
		print_error("%s: map unreadable: %s\n", what, r.error);
		return 1;
	}
	for (i = 0; i < r.ntexts; i++)
		for (j = i + 1; j < r.ntexts; j++)
			if (svgread_overlap(&r.texts[i], &r.texts[j])) {
				if (overlaps++ < 10)
					print_error("%s: labels overlap: '%s' "
					    "and '%s'\n", what,
					    r.texts[i].text, r.texts[j].text);
			}
	if (overlaps > 0)
		print_error("%s: %d pairs of labels overlap\n", what,
		    overlaps);
	bad += overlaps;
	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		want = u->status == CROWN_LOST ? 0 : crown_unit_stands(u);
		snprintf(id, sizeof(id), "u-%s", u->id);
		for (j = 0; j < r.nunits; j++)
			if (strcmp(r.units[j].id, id) == 0)
				break;
		if (j == r.nunits || r.units[j].stands != want) {
			print_error("%s: '%s' has %d stands, %d drawn\n", what,
			    u->id, want, j == r.nunits ? -1 :
			    r.units[j].stands);
			bad++;
		}
	}
	for (i = 0; ev != NULL && i < ev->n; i++) {
		const struct svgread_line *l;

		e = &ev->v[i];
		if (!e->has_at)
			continue;
		if (nfire >= r.nfire) {
			nfire++;
			continue;
		}
		l = &r.fire[nfire++];
		if (!near_px(l->x1, r.table_x + e->at.x * CROWN_SVG_SCALE) ||
		    !near_px(l->y1, r.table_y + r.table_h - e->at.y *
		    CROWN_SVG_SCALE) ||
		    !near_px(l->x2, r.table_x + e->target_at.x *
		    CROWN_SVG_SCALE) ||
		    !near_px(l->y2, r.table_y + r.table_h - e->target_at.y *
		    CROWN_SVG_SCALE)) {
			print_error("%s: fire line %zu of event %u runs from "
			    "(%.1f, %.1f) to (%.1f, %.1f), not from (%.2f, "
			    "%.2f) to (%.2f, %.2f) inches\n", what, nfire,
			    e->seq, l->x1, l->y1, l->x2, l->y2, e->at.x,
			    e->at.y, e->target_at.x, e->target_at.y);
			bad++;
		}
	}
	if (nfire != r.nfire) {
		print_error("%s: %zu shots, %zu fire lines\n", what, nfire,
		    r.nfire);
		bad++;
	}
	svgread_release(&r);
	return bad;
}

/* rsvg-convert (librsvg2-bin) draws svg without an error: 0, or 1. */
static int
rasterises(const char *svg, const char *what)
{
	char	 dir[] = "/tmp/crown-map-XXXXXX", *in, *cmd;
	FILE	*fp;
	int	 rc;

	assert_non_null(mkdtemp(dir));
	in = xasprintf("%s/map.svg", dir);
	assert_non_null(fp = fopen(in, "w"));
	fputs(svg, fp);
	assert_int_equal(fclose(fp), 0);
	cmd = xasprintf("rsvg-convert -f png -o '%s/map.png' '%s'", dir, in);
	if ((rc = system(cmd)) != 0)
		print_error("%s: '%s' failed (status %d); rsvg-convert comes "
		    "with Debian's librsvg2-bin (make deps)\n", what, cmd, rc);
	free(cmd);
	cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(in);
	return rc != 0;
}

/* Render the reports and the map of a turn (before NULL: the opening
 * map) and check the map and the reports, drawing the map with
 * rsvg-convert if draw; the count of problems. */
static int
render_and_check(const struct crown_state *before,
    const struct crown_state *after, const struct crown_events *ev,
    struct crown_orders **o, size_t n, const struct crown_rules *rules,
    const char *what, bool draw)
{
	struct crown_report_input	 in;
	struct crown_outputs		 out = { 0 };
	struct crown_diags		 d = { 0 };
	struct crown_events		 none = { 0 };
	size_t				 i;
	int				 bad = 0;

	memset(&in, 0, sizeof(in));
	in.before = before != NULL ? before : after;
	in.after = after;
	in.events = ev != NULL ? ev : &none;
	in.orders = o;
	in.norders = n;
	in.rules = rules;
	in.templates = TEMPLATES_DIR;
	assert_int_equal(crown_report_render(&out, &in, &d), 0);
	assert_no_diags(&d);
	for (i = 0; i < out.n; i++)
		if (strcmp(out.v[i].name, "map.svg") == 0) {
			bad += check_map(out.v[i].data.data, after, ev, what);
			if (draw)
				bad += rasterises(out.v[i].data.data, what);
		}
	if (ev != NULL)
		bad += check_reports(&out, ev, what);
	crown_outputs_release(&out);
	return bad;
}

static void
check_turn_map(void *arg, const struct played *p)
{
	/* the first campaign's maps drawn, all checked */
	*(int *)arg += render_and_check(p->before, p->after, p->ev, p->o,
	    p->n, p->rules, p->what, p->secret == 0);
}

/*
 * The opening map, and the maps and reports of turns 1-3 of MAP_SECRETS
 * campaigns (issue 21): labels apart, every stand drawn, fire where it
 * happened; each event told once.
 */
static void
test_maps(void **state)
{
	const struct game	*g = *state;
	struct crown_rules	*rules = load_rules();
	struct crown_state	*s0 = load_scenario(g);
	char			 what[128];
	int			 bad;

	snprintf(what, sizeof(what), "%s, opening map", g->name);
	bad = render_and_check(NULL, s0, NULL, NULL, 0, rules, what, true);
	play_campaigns(g, rules, s0, MAP_SECRETS, check_turn_map, &bad);
	crown_state_free(s0);
	crown_rules_free(rules);
	if (bad > 0) {
		print_error("%s: %d problems in the maps and reports\n",
		    g->name, bad);
		fail();
	}
}

/* Replace the first `from` in *text by `to`. */
static void
edit(char **text, const char *from, const char *to)
{
	struct crown_buf	 b = { 0 };
	char			*p = strstr(*text, from);

	assert_non_null(p);
	crown_buf_add(&b, *text, (size_t)(p - *text));
	crown_buf_puts(&b, to);
	crown_buf_puts(&b, p + strlen(from));
	free(*text);
	*text = b.data;
}

/*
 * `crown new` (crown_campaign_normalise) checks a scenario's troops and
 * leaders and reports every problem at once: Camerone with elite troops
 * not allowed (R3.2), a leader's bonus out of range (R10.2) and the
 * Mexicans' officer gone (R10.1).
 */
static void
test_new_reports_all(void **state)
{
	struct crown_rules	*rules = load_rules();
	struct crown_state	*s = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_events	 ev = { 0 };
	struct crown_buf	 out = { 0 };
	char			*text;

	(void)state;
	text = tu_slurp(GAMES_DIR "/camerone/scenario.yaml");
	assert_non_null(text);
	edit(&text, "allow_elite: true", "allow_elite: false");
	edit(&text, "bonus: -1, attached: legion-3", "bonus: -3, attached: "
	    "legion-3");
	edit(&text, "rank: officer, bonus: 0, attached: cordoba-bn",
	    "rank: officer, bonus: 0, attached: cordoba-bn, status: killed");
	assert_int_equal(crown_state_parse(&s, "camerone.yaml", text,
	    strlen(text), &d), 0);
	assert_no_diags(&d);
	assert_int_equal(crown_campaign_normalise(&out, s, rules, text,
	    strlen(text), NULL, &ev, &d), CROWN_EINVALID);
	assert_int_equal(d.n, 3);
	assert_diag(&d, "'legion-3' is elite");
	assert_diag(&d, "(R3.2)");
	assert_diag(&d, "leader 'danjou' has a bonus of -3");
	assert_diag(&d, "(R10.2)");
	assert_diag(&d, "side 'republic' (republican, 1863) has 7 units, 0 "
	    "officers and 1 general");
	assert_diag(&d, "(R10.1)");
	crown_buf_release(&out);
	crown_events_release(&ev);
	crown_diags_release(&d);
	crown_state_free(s);
	free(text);
	crown_rules_free(rules);
}

/* A small scenario with `units:` taken from a golden muster run. */
static int
parse_with_units(struct crown_state **s, const char *golden,
    struct crown_diags *d)
{
	static const char head[] =
	    "game: {name: Muster, rules: maximilian, turn: 0, "
	    "attacker: republic, year: 1866}\n"
	    "table: {width: 72, height: 48}\n"
	    "sides:\n"
	    "  - {id: republic, home_edge: south, army: republican}\n"
	    "  - {id: imperial, home_edge: north, army: imperial}\n"
	    "units:\n";
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*out;
	struct crown_buf		 b = { 0 };
	int				 error;

	assert_int_equal(crown_ydoc_load(&doc, golden, NULL, d), 0);
	out = crown_ymap_get(crown_ydoc_root(doc), "stdout");
	assert_non_null(out);
	crown_buf_puts(&b, head);
	crown_buf_puts(&b, out->str);
	error = crown_state_parse(s, "muster.yaml", b.data, b.len, d);
	crown_buf_release(&b);
	crown_ydoc_free(doc);
	return error;
}

/* R12.1: the units crown muster prints paste into a scenario as they
 * are once --side and --at are given, and are refused until the
 * placeholder side is set otherwise. */
static void
test_muster_pastes(void **state)
{
	struct crown_state	*s = NULL;
	struct crown_diags	 d = { 0 };

	(void)state;
	assert_int_equal(parse_with_units(&s,
	    "tests/golden/muster-script.yaml", &d), 0);
	assert_no_diags(&d);
	assert_int_equal(s->nunits, 3);
	/* D10 9, 0, 5 on the 1865-67 militia foot row */
	assert_int_equal(s->units[0].cls, CROWN_MILITIA);
	assert_int_equal(s->units[0].weapon, CROWN_CIVILIAN);
	assert_int_equal(s->units[1].cls, CROWN_REGULAR);
	assert_int_equal(s->units[1].weapon, CROWN_RIFLED_MUSKET);
	assert_int_equal(s->units[2].cls, CROWN_MILITIA);
	assert_int_equal(s->units[2].weapon, CROWN_SMOOTHBORE);
	assert_string_equal(s->units[2].id, "militia-foot-3");
	assert_string_equal(s->units[2].side, "republic");
	assert_float_equal(s->units[2].x, 20.0, 1e-9);
	assert_int_equal(s->units[2].facing, 180);
	assert_int_equal(s->units[2].nstands, 4);
	crown_state_free(s);
	s = NULL;

	assert_int_equal(parse_with_units(&s,
	    "tests/golden/muster-seed.yaml", &d), CROWN_EINVALID);
	assert_diag(&d, "SIDE");
	crown_state_free(s);
	crown_diags_release(&d);
}

int
main(void)
{
	struct CMUnitTest	*tests;
	struct game		*g;
	DIR			*dp;
	struct dirent		*de;
	struct stat		 st;
	char			**names = NULL, *p;
	size_t			 n = 0, cap = 0, i, k = 0;
	int			 rc;

	if ((dp = opendir(GAMES_DIR)) == NULL) {
		perror(GAMES_DIR);
		return 1;
	}
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s/scenario.yaml", GAMES_DIR, de->d_name);
		if (stat(p, &st) == 0) {
			crown_grow(&names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
		free(p);
	}
	closedir(dp);
	if (n < 3) {
		fprintf(stderr, "test-games: %zu bundled scenarios in %s/, "
		    "issue 9 wants at least 3\n", n, GAMES_DIR);
		return 1;
	}
	qsort(names, n, sizeof(*names), cmp_names);
	tests = xcalloc(4 * n + 2, sizeof(*tests));
	g = xcalloc(n, sizeof(*g));
	for (i = 0; i < n; i++) {
		g[i].name = names[i];
		tests[k].name = xasprintf("%s: scenario", names[i]);
		tests[k].test_func = test_scenario;
		tests[k++].initial_state = &g[i];
		tests[k].name = xasprintf("%s: turn-1 orders", names[i]);
		tests[k].test_func = test_turn1_orders;
		tests[k++].initial_state = &g[i];
		tests[k].name = xasprintf("%s: turns 1-3", names[i]);
		tests[k].test_func = test_sample_turns;
		tests[k++].initial_state = &g[i];
		tests[k].name = xasprintf("%s: maps", names[i]);
		tests[k].test_func = test_maps;
		tests[k++].initial_state = &g[i];
	}
	tests[k].name = xstrdup("crown new reports every problem at once");
	tests[k++].test_func = test_new_reports_all;
	tests[k].name = xstrdup("muster output pastes into a scenario");
	tests[k++].test_func = test_muster_pastes;
	rc = _cmocka_run_group_tests("games", tests, k, NULL, NULL);
	for (i = 0; i < k; i++)
		free((char *)tests[i].name);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(tests);
	free(g);
	return rc;
}
