/*
 * test-cases.c: the conformance suite.  Every YAML file of tests/cases is one
 * case: a state, the orders, scripted dice and the expected outcome (see
 * tests/cases/README.md).  Each is run in-process through the engine; on
 * failure the case's expectation and what happened are printed side by
 * side.
 */
#include <dirent.h>
#include <math.h>

#include "testutil.h"

#include "crown/buildings.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/fire.h"
#include "crown/leaders.h"
#include "crown/officers.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

struct tcase {
	char	*path;
};

static struct crown_rules *rules;	/* rules/maximilian.yaml */
static char *rules_text;		/* its text, for house rules */
static size_t rules_len;

/* Everything that happened, one line an event, for failure reports. */
static char *
describe_events(const struct crown_events *ev)
{
	struct crown_buf	b = { 0 };
	size_t			i, j;

	crown_buf_puts(&b, "");
	for (i = 0; i < ev->n; i++) {
		const struct crown_event *e = &ev->v[i];

		crown_buf_printf(&b, "  %u %s/%s %s unit=%s target=%s "
		    "result=%s cas=%d rule=%s rolls=[", e->seq, e->half,
		    crown_phase_names[e->phase], e->kind,
		    e->unit ? e->unit : "-", e->target ? e->target : "-",
		    e->result ? e->result : "-",
		    e->has_casualties ? e->casualties : -1,
		    e->rule ? e->rule : "-");
		for (j = 0; j < e->ndice; j++)
			crown_buf_printf(&b, "%s%d->%d", j ? " " : "",
			    e->dice[j].roll, e->dice[j].score);
		crown_buf_printf(&b, "]\n    %s\n", e->text ? e->text : "");
	}
	return b.data;
}

static char *
node_text(const struct crown_ynode *n)
{
	struct crown_buf	b = { 0 };

	crown_ynode_emit(&b, n);
	return b.data;
}

static bool
str_field_matches(const struct crown_ynode *want, const char *key,
    const char *got)
{
	const struct crown_ynode *v = crown_ymap_get(want, key);

	if (v == NULL)
		return true;
	if (crown_yis_null(v))
		return got == NULL;
	return got != NULL && strcmp(v->str, got) == 0;
}

static bool
int_list_matches(const struct crown_ynode *want, const struct crown_event *e,
    bool scores)
{
	size_t	i;

	if (want == NULL)
		return true;
	if (want->n != e->ndice)
		return false;
	for (i = 0; i < want->n; i++)
		if (strtol(want->item[i]->str, NULL, 10) !=
		    (scores ? e->dice[i].score : e->dice[i].roll))
			return false;
	return true;
}

static bool
event_matches(const struct crown_ynode *want, const struct crown_event *e)
{
	const struct crown_ynode *v;

	if (!str_field_matches(want, "kind", e->kind) ||
	    !str_field_matches(want, "unit", e->unit) ||
	    !str_field_matches(want, "leader", e->leader) ||
	    !str_field_matches(want, "target", e->target) ||
	    !str_field_matches(want, "result", e->result) ||
	    !str_field_matches(want, "rule", e->rule) ||
	    !str_field_matches(want, "half", e->half) ||
	    !str_field_matches(want, "band", e->band) ||
	    !str_field_matches(want, "reason", e->reason) ||
	    !str_field_matches(want, "reason_rule", e->reason_rule) ||
	    !str_field_matches(want, "phase", crown_phase_names[e->phase]))
		return false;
	if ((v = crown_ymap_get(want, "casualties")) != NULL &&
	    (!e->has_casualties ||
	    strtol(v->str, NULL, 10) != e->casualties))
		return false;
	if (!int_list_matches(crown_ymap_get(want, "rolls"), e, false) ||
	    !int_list_matches(crown_ymap_get(want, "scores"), e, true))
		return false;
	if ((v = crown_ymap_get(want, "range")) != NULL && (!e->has_range ||
	    fabs(strtod(v->str, NULL) - e->range) > 0.01 + 1e-9))
		return false;
	if ((v = crown_ymap_get(want, "dice_count")) != NULL &&
	    strtol(v->str, NULL, 10) != (long)e->ndice)
		return false;
	if ((v = crown_ymap_get(want, "to")) != NULL && (!e->has_to ||
	    v->n != 2 ||
	    fabs(strtod(v->item[0]->str, NULL) - e->to.x) > 0.01 + 1e-9 ||
	    fabs(strtod(v->item[1]->str, NULL) - e->to.y) > 0.01 + 1e-9))
		return false;
	if ((v = crown_ymap_get(want, "text_has")) != NULL &&
	    (e->text == NULL || strstr(e->text, v->str) == NULL))
		return false;
	return true;
}

/* Compare one expected unit; returns a description of the mismatch. */
static char *
unit_mismatch(const struct crown_ynode *want, const struct crown_state *s)
{
	const struct crown_ynode	*v;
	const struct crown_unit		*u;
	const char			*id;
	size_t				 i;

	v = crown_ymap_get(want, "id");
	id = v != NULL ? v->str : "?";
	if ((u = crown_state_unit(s, id)) == NULL)
		return xasprintf("no unit '%s'", id);
#define NUM(key, val) do {						\
	if ((v = crown_ymap_get(want, key)) != NULL &&			\
	    fabs(strtod(v->str, NULL) - (double)(val)) > 0.01 + 1e-9)	\
		return xasprintf("unit '%s': %s is %g, expected %s", id,	\
		    key, (double)(val), v->str);				\
} while (0)
#define BOOL(key, val) do {						\
	if ((v = crown_ymap_get(want, key)) != NULL &&			\
	    (strcmp(v->str, "true") == 0) != (val))			\
		return xasprintf("unit '%s': %s is %s, expected %s", id,	\
		    key, (val) ? "true" : "false", v->str);		\
} while (0)
#define NAME(key, names, val) do {					\
	if ((v = crown_ymap_get(want, key)) != NULL &&			\
	    strcmp(v->str, names[val]) != 0)				\
		return xasprintf("unit '%s': %s is %s, expected %s", id,	\
		    key, names[val], v->str);				\
} while (0)
	NUM("x", u->x);
	NUM("y", u->y);
	NUM("facing", u->facing);
	NUM("figures", crown_unit_figures(u));
	NUM("shots_fired", u->shots_fired);
	NUM("routs", u->routs);
	NUM("rally_failures", u->rally_failures);
	BOOL("loaded", u->loaded);
	BOOL("disordered", u->disordered);
	BOOL("limbered", u->limbered);
	BOOL("stuck", u->stuck);
	BOOL("rallied", u->rallied);
	BOOL("holding", u->holding);
	NAME("status", crown_status_names, u->status);
	NAME("formation", crown_formation_names, u->formation);
	if ((v = crown_ymap_get(want, "stands")) != NULL) {
		bool same = v->n == u->nstands;

		for (i = 0; same && i < v->n; i++)
			same = strtol(v->item[i]->str, NULL, 10) ==
			    u->stands[i];
		if (!same) {
			struct crown_buf b = { 0 };

			crown_buf_puts(&b, "");
			for (i = 0; i < u->nstands; i++)
				crown_buf_printf(&b, "%s%d", i ? ", " : "",
				    u->stands[i]);
			char *m = xasprintf("unit '%s': stands are [%s]",
			    id, b.data);
			crown_buf_release(&b);
			return m;
		}
	}
#undef NUM
#undef BOOL
#undef NAME
	return NULL;
}

static char *
leader_mismatch(const struct crown_ynode *want, const struct crown_state *s)
{
	const struct crown_ynode	*v;
	const struct crown_leader	*ld;
	const char			*id;

	v = crown_ymap_get(want, "id");
	id = v != NULL ? v->str : "?";
	if ((ld = crown_state_leader(s, id)) == NULL)
		return xasprintf("no leader '%s'", id);
	if ((v = crown_ymap_get(want, "status")) != NULL &&
	    strcmp(v->str, crown_leader_status_names[ld->status]) != 0)
		return xasprintf("leader '%s' is %s, expected %s", id,
		    crown_leader_status_names[ld->status], v->str);
	if (!str_field_matches(want, "attached", ld->attached))
		return xasprintf("leader '%s' is attached to %s", id,
		    ld->attached ? ld->attached : "nobody");
	return NULL;
}

static char *
terrain_mismatch(const struct crown_ynode *want, const struct crown_state *s)
{
	const struct crown_ynode	*v;
	const struct crown_feature	*f = NULL;
	const char			*id;
	size_t				 i;

	v = crown_ymap_get(want, "id");
	id = v != NULL ? v->str : "?";
	for (i = 0; i < s->nterrain; i++)
		if (strcmp(s->terrain[i].id, id) == 0)
			f = &s->terrain[i];
	if (f == NULL)
		return xasprintf("no terrain '%s'", id);
	if ((v = crown_ymap_get(want, "damage")) != NULL &&
	    strtol(v->str, NULL, 10) != f->damage)
		return xasprintf("terrain '%s': damage is %d, expected %s", id,
		    f->damage, v->str);
	if ((v = crown_ymap_get(want, "class")) != NULL &&
	    strtol(v->str, NULL, 10) != f->bclass)
		return xasprintf("terrain '%s': class is %d, expected %s", id,
		    f->bclass, v->str);
	return NULL;
}

static void
case_fail(const char *path, const char *what, const struct crown_ynode *exp,
    const struct crown_events *ev, const struct crown_diags *d)
{
	char	*want = exp != NULL ? node_text(exp) : xstrdup("");
	char	*got = describe_events(ev);
	char	*diags = tu_diags(d);

	print_error("case %s: %s\n=== expected\n%s=== actual events\n%s"
	    "=== diagnostics\n%s", path, what, want, got, diags);
	free(want);
	free(got);
	free(diags);
	fail();
}

/*
 * A case's house rules: `house_rules: [{from: TEXT, to: TEXT}, ...]`, each
 * a change to the text of rules/maximilian.yaml (TEXT found exactly once),
 * for rules that only a house rule can reach.  NULL: none.
 */
static struct crown_rules *
house_rules(const char *path, const struct crown_ynode *list)
{
	struct crown_diags	 d = { 0 };
	struct crown_events	 none = { 0 };
	struct crown_rules	*R = NULL;
	const struct crown_ynode *from, *to;
	char			*text, *at = NULL, *next;
	size_t			 i, flen;

	if (list == NULL)
		return NULL;
	text = xstrdup(rules_text);
	for (i = 0; i < list->n; i++) {
		from = crown_ymap_get(list->item[i], "from");
		to = crown_ymap_get(list->item[i], "to");
		if (from == NULL || to == NULL ||
		    (at = strstr(text, from->str)) == NULL ||
		    strstr(at + 1, from->str) != NULL)
			case_fail(path, "a house rule's `from` is not in the "
			    "rules exactly once", list->item[i], &none, &d);
		flen = strlen(from->str);
		next = xasprintf("%.*s%s%s", (int)(at - text), text, to->str,
		    at + flen);
		free(text);
		text = next;
	}
	if (crown_rules_parse(&R, path, text, strlen(text), &d) != 0)
		case_fail(path, "the house rules do not load", list, &none,
		    &d);
	free(text);
	crown_diags_release(&d);
	return R;
}

/* Every problem or warning of `list` is among the diagnostics. */
static void
expect_diags(const char *path, const struct crown_ynode *list,
    const struct crown_events *ev, const struct crown_diags *d)
{
	char	*all = tu_diags(d);
	size_t	 i;

	for (i = 0; list != NULL && i < list->n; i++)
		if (strstr(all, list->item[i]->str) == NULL) {
			free(all);
			case_fail(path, "a problem was not reported",
			    list->item[i], ev, d);
		}
	free(all);
}

/*
 * A case that may expect a refusal: `refused` says whether there was one,
 * `list` is expect.invalid (NULL: none expected), each of whose problems
 * must be reported.
 */
static void
expect_refused(const char *path, const char *what, bool refused,
    const struct crown_ynode *list, const struct crown_events *ev,
    const struct crown_diags *d)
{
	char	*m;

	if ((list == NULL) != !refused) {
		m = xasprintf(refused ? "the %s is refused" :
		    "the %s should be refused", what);
		case_fail(path, m, list, ev, d);
	}
	expect_diags(path, list, ev, d);
}

static void
test_case(void **state)
{
	struct tcase			*tc = *state;
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*root, *exp, *list, *v;
	struct crown_state		*s = NULL;
	struct crown_orders		*orders[8] = { 0 };
	struct crown_dice		*dice = NULL;
	struct crown_rules		*house = NULL;
	const struct crown_rules	*R = rules;
	struct crown_events		 ev = { 0 };
	struct crown_buf		 text = { 0 }, script = { 0 };
	size_t				 norders = 0, i, j;
	int				 error = 0, verr = 0;
	char				*m, *all;

	assert_int_equal(crown_ydoc_load(&doc, tc->path, NULL, &d), 0);
	root = crown_ydoc_root(doc);
	exp = crown_ymap_get(root, "expect");
	assert_non_null(exp);
	if ((house = house_rules(tc->path, crown_ymap_get(root,
	    "house_rules"))) != NULL)
		R = house;
	/* the state */
	v = crown_ymap_get(root, "state");
	assert_non_null(v);
	crown_ynode_emit(&text, v);
	error = crown_state_parse(&s, tc->path, text.data, text.len, &d);
	crown_buf_release(&text);
	v = crown_ymap_get(root, "check");
	if (v != NULL && strcmp(v->str, "state") == 0) {
		/* what loading a state or scenario refuses (R3.6) */
		expect_refused(tc->path, "state", error != 0,
		    crown_ymap_get(exp, "invalid"), &ev, &d);
		error = 0;
		goto cleanup;
	}
	if (error != 0)
		case_fail(tc->path, "the state does not load", NULL, &ev, &d);
	if (v != NULL && strcmp(v->str, "scenario") == 0) {
		/* what crown new checks of a scenario (R1.1, R3.2, R10) */
		verr = crown_scenario_validate(s, R, &d);
		expect_refused(tc->path, "scenario", verr != 0,
		    crown_ymap_get(exp, "invalid"), &ev, &d);
		goto cleanup;
	}
	if (v != NULL && strcmp(v->str, "classify") == 0) {
		/* crown new: unclassified buildings (R11.3) */
		crown_buf_puts(&script, "");
		list = crown_ymap_get(root, "dice");
		for (i = 0; list != NULL && i < list->n; i++)
			crown_buf_printf(&script, "%s\n", list->item[i]->str);
		assert_int_equal(crown_dice_script_parse(&dice, "dice",
		    script.data, script.len, &d), 0);
		if (crown_building_classify(s, R, dice, &ev) != 0)
			case_fail(tc->path, "classification failed", NULL,
			    &ev, &d);
		goto outcome;
	}
	/* the orders, validated as crown turn would */
	list = crown_ymap_get(root, "orders");
	if (list != NULL && list->n > CROWN_NELEM(orders))
		case_fail(tc->path, "more order files than the runner takes",
		    list, &ev, &d);
	for (i = 0; list != NULL && i < list->n; i++) {
		crown_ynode_emit(&text, list->item[i]);
		if (crown_orders_parse(&orders[norders], tc->path, text.data,
		    text.len, &d) != 0)
			verr = CROWN_EINVALID;
		if (orders[norders] != NULL)
			norders++;
		crown_buf_release(&text);
	}
	if (crown_orders_validate_set(orders, norders, s, R, &d) != 0)
		verr = CROWN_EINVALID;
	if ((v = crown_ymap_get(exp, "invalid")) != NULL) {
		expect_refused(tc->path, "orders", verr != 0, v, &ev, &d);
		goto cleanup;
	}
	if (verr != 0)
		case_fail(tc->path, "orders refused", NULL, &ev, &d);
	/* orders that stand, with the warnings the player is given */
	expect_diags(tc->path, crown_ymap_get(exp, "warnings"), &ev, &d);
	if ((list = crown_ymap_get(exp, "not_reported")) != NULL) {
		all = tu_diags(&d);
		for (i = 0; i < list->n; i++)
			if (strstr(all, list->item[i]->str) != NULL) {
				free(all);
				case_fail(tc->path, "a problem was reported "
				    "that should not be", list->item[i], &ev,
				    &d);
			}
		free(all);
	}
	/* the dice */
	crown_buf_puts(&script, "");
	list = crown_ymap_get(root, "dice");
	for (i = 0; list != NULL && i < list->n; i++)
		crown_buf_printf(&script, "%s\n", list->item[i]->str);
	assert_int_equal(crown_dice_script_parse(&dice, "dice", script.data,
	    script.len, &d), 0);
	error = crown_resolve(s, orders, norders, R, dice, &ev, &d);
	if ((v = crown_ymap_get(exp, "dice_error")) != NULL) {
		all = tu_diags(&d);
		if (error == 0 || strstr(all, v->str) == NULL) {
			free(all);
			case_fail(tc->path, "the dice should fail", v, &ev,
			    &d);
		}
		free(all);
		goto cleanup;
	}
	if (error != 0)
		case_fail(tc->path, "resolution failed", NULL, &ev, &d);
	if (crown_dice_unused(dice) != 0) {
		m = xasprintf("%zu scripted dice were not used",
		    crown_dice_unused(dice));
		case_fail(tc->path, m, crown_ymap_get(root, "dice"), &ev, &d);
	}
	/* the outcome */
outcome:
	list = crown_ymap_get(exp, "units");
	for (i = 0; list != NULL && i < list->n; i++)
		if ((m = unit_mismatch(list->item[i], s)) != NULL)
			case_fail(tc->path, m, list->item[i], &ev, &d);
	list = crown_ymap_get(exp, "terrain");
	for (i = 0; list != NULL && i < list->n; i++)
		if ((m = terrain_mismatch(list->item[i], s)) != NULL)
			case_fail(tc->path, m, list->item[i], &ev, &d);
	if ((v = crown_ymap_get(exp, "melees")) != NULL &&
	    strtol(v->str, NULL, 10) != (long)s->nmelees) {
		m = xasprintf("%zu melees in progress", s->nmelees);
		case_fail(tc->path, m, v, &ev, &d);
	}
	if ((v = crown_ymap_get(exp, "turn")) != NULL &&
	    strtol(v->str, NULL, 10) != s->turn) {
		m = xasprintf("the state's turn is %d", s->turn);
		case_fail(tc->path, m, v, &ev, &d);
	}
	list = crown_ymap_get(exp, "leaders");
	for (i = 0; list != NULL && i < list->n; i++)
		if ((m = leader_mismatch(list->item[i], s)) != NULL)
			case_fail(tc->path, m, list->item[i], &ev, &d);
	/* expected events appear in this order (others may come between) */
	list = crown_ymap_get(exp, "events");
	for (i = 0, j = 0; list != NULL && i < list->n; i++) {
		while (j < ev.n && !event_matches(list->item[i], &ev.v[j]))
			j++;
		if (j == ev.n)
			case_fail(tc->path, "an expected event is missing "
			    "(or out of order)", list->item[i], &ev, &d);
		j++;
	}
	list = crown_ymap_get(exp, "no_events");
	for (i = 0; list != NULL && i < list->n; i++)
		for (j = 0; j < ev.n; j++)
			if (strcmp(ev.v[j].kind, list->item[i]->str) == 0)
				case_fail(tc->path, "an event that should not "
				    "happen did", list->item[i], &ev, &d);
cleanup:
	crown_buf_release(&script);
	crown_events_release(&ev);
	crown_dice_free(dice);
	for (i = 0; i < norders; i++)
		crown_orders_free(orders[i]);
	crown_state_free(s);
	crown_ydoc_free(doc);
	crown_rules_free(house);
	crown_diags_release(&d);
}

/*
 * Rule coverage: every id of rules/index.yaml against the `rules:` lists
 * of the cases.  Prints the count for each id.
 */
struct coverage {
	char	**ids;
	size_t	 *count;
	size_t	  n;
};

static struct coverage cov;

static void	coverage_count(char **, size_t);

static void
coverage_load(char **names, size_t n)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*index = NULL;
	const struct crown_ynode	*list, *id;
	size_t				 i;

	if (crown_ydoc_load(&index, "rules/index.yaml", NULL, &d) != 0) {
		crown_diags_print(stderr, &d);
		crown_diags_release(&d);
		return;
	}
	list = crown_ymap_get(crown_ydoc_root(index), "rules");
	cov.n = list != NULL ? list->n : 0;
	cov.ids = xcalloc(cov.n + 1, sizeof(*cov.ids));
	cov.count = xcalloc(cov.n + 1, sizeof(*cov.count));
	for (i = 0; i < cov.n; i++) {
		id = crown_ymap_get(list->item[i], "id");
		cov.ids[i] = xstrdup(id != NULL ? id->str : "?");
	}
	crown_ydoc_free(index);
	coverage_count(names, n);
}

static void
coverage_count(char **names, size_t n)
{
	struct crown_diags		 d = { 0 };
	struct crown_ydoc		*doc;
	const struct crown_ynode	*ids;
	size_t				 i, j, k;

	for (j = 0; j < n; j++) {
		if (crown_ydoc_load(&doc, names[j], NULL, &d) != 0) {
			crown_diags_release(&d);
			continue;
		}
		ids = crown_ymap_get(crown_ydoc_root(doc), "rules");
		for (k = 0; ids != NULL && k < ids->n; k++)
			for (i = 0; i < cov.n; i++)
				if (strcmp(ids->item[k]->str, cov.ids[i]) == 0)
					cov.count[i]++;
		crown_ydoc_free(doc);
	}
}

/* Golden command-line tests that name rules count too (crown muster is
 * exercised there, R12.1). */
static void
coverage_golden(void)
{
	DIR		*dp;
	struct dirent	*de;
	char		**names = NULL;
	size_t		  n = 0, cap = 0, len, i;

	if ((dp = opendir("tests/golden")) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		crown_grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xasprintf("tests/golden/%s", de->d_name);
	}
	closedir(dp);
	coverage_count(names, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void
coverage_print(void)
{
	size_t	i, missing = 0;

	printf("rule coverage (cases per rule id):\n");
	for (i = 0; i < cov.n; i++) {
		printf("  %-6s %3zu%s", cov.ids[i], cov.count[i],
		    (i + 1) % 6 == 0 || i + 1 == cov.n ? "\n" : "");
		if (cov.count[i] == 0)
			missing++;
	}
	printf("%zu rule ids, %zu without a case\n", cov.n, missing);
}

/* Issue 8: every rule id of the rule book has at least one case. */
static void
test_rule_coverage(void **state)
{
	size_t	i, missing = 0;

	assert_true(cov.n > 0);
	for (i = 0; i < cov.n; i++)
		if (cov.count[i] == 0) {
			print_error("rule %s has no case\n", cov.ids[i]);
			missing++;
		}
	assert_int_equal(missing, 0);
}

static void
coverage_release(void)
{
	size_t	i;

	for (i = 0; i < cov.n; i++)
		free(cov.ids[i]);
	free(cov.ids);
	free(cov.count);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	struct crown_diags	 d = { 0 };
	struct CMUnitTest	*tests;
	struct tcase		*tc;
	DIR			*dp;
	struct dirent		*de;
	char			**names = NULL;
	size_t			 n = 0, cap = 0, i, len;
	int			 rc;

	if (crown_rules_load(&rules, "rules/maximilian.yaml", &d) != 0 ||
	    crown_read_file(&rules_text, &rules_len, "rules/maximilian.yaml",
	    crown_ylimits_state.max_bytes, &d) != 0) {
		crown_diags_print(stderr, &d);
		return 1;
	}
	if ((dp = opendir("tests/cases")) == NULL) {
		perror("tests/cases");
		return 1;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		crown_grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xasprintf("tests/cases/%s", de->d_name);
	}
	closedir(dp);
	qsort(names, n, sizeof(*names), cmp_names);
	tests = xcalloc(n + 1, sizeof(*tests));
	tc = xcalloc(n ? n : 1, sizeof(*tc));
	for (i = 0; i < n; i++) {
		tc[i].path = names[i];
		tests[i].name = names[i] + strlen("tests/cases/");
		tests[i].test_func = test_case;
		tests[i].initial_state = &tc[i];
	}
	tests[n].name = "every rule id has a case";
	tests[n].test_func = test_rule_coverage;
	coverage_load(names, n);
	coverage_golden();
	coverage_print();
	rc = _cmocka_run_group_tests("conformance", tests, n + 1, NULL,
	    NULL);
	coverage_release();
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(tests);
	free(tc);
	crown_rules_free(rules);
	free(rules_text);
	return rc;
}
