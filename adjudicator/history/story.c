/*
 * story.c: a unit's story over the campaign (story.h), from the events and
 * orders each turn committed, its identifiers ("order_skipped") as
 * words for a reader.  A unit fighting in a melee of several
 * units is named by the events only when it is the side's unit whose
 * modifiers count (R9.7); its strength still shows every figure it lost.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/orders.h"
#include "crown/report.h"
#include "crown/story.h"
#include "crown/types.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static const char *
str(const struct crown_ynode *map, const char *key)
{
	const struct crown_ynode *v = crown_ymap_get(map, key);

	return v != NULL && v->kind == CROWN_Y_SCALAR ? v->str : NULL;
}

static const char *
nz(const char *s, const char *dflt)
{
	return s != NULL ? s : dflt;
}

static bool
is(const char *a, const char *b)
{
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* Append a line of the story; takes text. */
static void
add(struct crown_story *out, int level, char *text)
{
	crown_grow(&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	out->v[out->n].level = level;
	out->v[out->n++].text = text;
}

/* "D10 6, elite -2, soft cover +1 = 5" for each die, a line each. */
static void
add_dice(struct crown_story *out, const struct crown_ynode *ev)
{
	const struct crown_ynode *dice, *die, *mods, *m;
	struct crown_buf	  b;
	const char		 *who, *v;
	char			 *w;
	size_t			  i, j;

	dice = crown_ymap_get(ev, "dice");
	for (i = 0; dice != NULL && dice->kind == CROWN_Y_SEQ &&
	    i < dice->n; i++) {
		die = dice->item[i];
		who = str(die, "who");
		memset(&b, 0, sizeof(b));
		w = crown_words_dup(str(die, "for"));
		crown_buf_printf(&b, "%s %s%s%s: rolled %s",
		    nz(str(die, "die"), "die"), w, who != NULL ? ", " : "",
		    nz(who, ""), nz(str(die, "roll"), "?"));
		free(w);
		mods = crown_ymap_get(die, "modifiers");
		for (j = 0; mods != NULL && mods->kind == CROWN_Y_SEQ &&
		    j < mods->n; j++) {
			m = mods->item[j];
			v = str(m, "value");
			w = crown_words_dup(nz(str(m, "name"), "?"));
			crown_buf_printf(&b, ", %s %s%s (%s)", w,
			    v != NULL && v[0] != '-' ? "+" : "", nz(v, "?"),
			    nz(str(m, "rule"), ""));
			free(w);
		}
		crown_buf_printf(&b, ", score %s", nz(str(die, "score"),
		    "?"));
		add(out, 2, b.data);
	}
}

/*
 * The order of `actor' behind an event of kind `kind' at `target': the
 * action of its side's orders that asked for it, the nth such (the
 * second fire of a unit at the same target is its second fire order).
 * NULL when none did (a side without orders held and fired, R2.3;
 * reaction fire, R9.2; a routing or retiring unit's move).
 */
static const struct crown_action_order *
order_for(const struct crown_story_turn *tf, const char *actor,
    const char *kind, const char *target, size_t nth,
    const struct crown_orders **in)
{
	const struct crown_unit_orders	*uo;
	const struct crown_action_order	*a;
	enum crown_action		 want;
	size_t				 i, j, k;

	if (is(kind, "fire") || is(kind, "artillery_fire"))
		want = CROWN_FIRE;
	else if (is(kind, "melee") || is(kind, "charge_move"))
		want = CROWN_CHARGE;
	else if (is(kind, "move") || is(kind, "drowned"))
		want = CROWN_MOVE;
	else
		return NULL;
	for (i = 0; i < tf->norders; i++)
		for (j = 0; j < tf->orders[i]->nunits; j++) {
			uo = &tf->orders[i]->units[j];
			if (!is(uo->unit, actor))
				continue;
			for (k = 0; k < uo->nactions; k++) {
				a = &uo->actions[k];
				if (a->kind != want)
					continue;
				if (want != CROWN_MOVE && target != NULL &&
				    !is(a->target, target))
					continue;
				if (nth-- > 0)
					continue;	/* an earlier event's */
				*in = tf->orders[i];
				return a;
			}
		}
	return NULL;
}

/* Did the unit lose figures by this event, and how many? */
static long
loss_of(const struct crown_ynode *ev, const char *id)
{
	const char	*kind = str(ev, "kind"), *res = str(ev, "result");
	const char	*c = str(ev, "casualties");
	long		 n = c != NULL ? strtol(c, NULL, 10) : 0;

	if (n <= 0)
		return 0;
	if (is(kind, "melee")) {
		if (is(res, "attackers_win") && is(str(ev, "target"), id))
			return n;
		if (is(res, "defenders_win") && is(str(ev, "unit"), id))
			return n;
		return 0;
	}
	if (is(kind, "drowned"))
		return is(str(ev, "unit"), id) ? n : 0;
	return is(str(ev, "target"), id) ? n : 0;
}

/* For a loss: the dice and the order that brought it about. */
static void
explain_loss(struct crown_story *out, const struct crown_ynode *ev,
    size_t nth, const struct crown_story_turn *tf, const char *id, long n,
    const char *side)
{
	const struct crown_action_order	*a;
	const struct crown_orders	*o = NULL;
	const char			*kind = str(ev, "kind"), *actor;
	const char			*target;
	char				*w;

	w = crown_words_dup(nz(kind, "?"));
	add(out, 1, xasprintf("lost %ld figure%s (%s, %s)", n, n == 1 ?
	    "" : "s", w, nz(str(ev, "rule"), "")));
	free(w);
	add_dice(out, ev);
	/* the order behind it: the firer's or charger's, or the unit's own
	 * move for a drowning */
	actor = str(ev, "unit");
	target = is(kind, "drowned") ? NULL : is(actor, id) ?
	    str(ev, "target") : id;
	if (is(kind, "melee") && is(str(ev, "target"), id))
		target = id;
	/* a unit moves once a game turn (R3.3): a drowning is its move */
	if (is(kind, "drowned"))
		nth = 0;
	a = actor != NULL ? order_for(tf, actor, kind, target, nth, &o) :
	    NULL;
	if (a != NULL && side != NULL && !is(o->side, side))
		add(out, 2, xasprintf("order: %s's, of side %s (not shown "
		    "here)", actor, nz(o->side, "?")));
	else if (a != NULL)
		add(out, 2, xasprintf("order: %s %s%s%s (%s:%u:%u)", actor,
		    crown_action_names[a->kind], a->target ? " " : "",
		    a->target ? a->target : "", o->file, a->line, a->col));
	else if (is(kind, "reaction_fire"))
		add(out, 2, xstrdup("order: none; reaction fire of the "
		    "charged unit (R9.2)"));
	else if (is(kind, "melee"))
		add(out, 2, xstrdup("order: none for this round; the melee "
		    "goes on from an earlier charge (R9.8)"));
	else
		add(out, 2, xasprintf("order: none; %s acted without one "
		    "(R2.3, R7, R8)", nz(actor, "the unit")));
}

/* Events before item i of the same kind by the same unit at the same
 * target: which of its orders item i carried out. */
static size_t
earlier(const struct crown_ynode *root, size_t i)
{
	const struct crown_ynode	*ev = root->item[i], *p;
	size_t				 k, n = 0;

	for (k = 0; k < i; k++) {
		p = root->item[k];
		if (is(str(p, "kind"), str(ev, "kind")) &&
		    is(str(p, "unit"), str(ev, "unit")) &&
		    (str(ev, "target") == NULL ||
		    is(str(p, "target"), str(ev, "target"))))
			n++;
	}
	return n;
}

static int
cmp_mention(const void *a, const void *b)
{
	const struct crown_story_mention *x = a, *y = b;
	int				  c = strcmp(x->id, y->id);

	if (c != 0)
		return c;
	return x->event < y->event ? -1 : x->event > y->event;
}

/* The events' mentions of units, sorted, each event once per unit. */
static void
index_mentions(struct crown_story_turn *tf)
{
	static const char *const	 keys[] = { "unit", "target" };
	const struct crown_ynode	*root = crown_ydoc_root(tf->events);
	const char			*id;
	size_t				 i, k, n = 0, cap = 0;

	for (i = 0; root != NULL && root->kind == CROWN_Y_SEQ &&
	    i < root->n; i++)
		for (k = 0; k < CROWN_NELEM(keys); k++) {
			if ((id = str(root->item[i], keys[k])) == NULL ||
			    (k == 1 && is(id, str(root->item[i], "unit"))))
				continue;
			crown_grow(&tf->mentions, &cap, n + 1,
			    sizeof(*tf->mentions));
			tf->mentions[n].id = id;
			tf->mentions[n++].event = i;
		}
	if (n > 0)
		qsort(tf->mentions, n, sizeof(*tf->mentions), cmp_mention);
	tf->nmentions = n;
}

/* The first mention of id, or nmentions. */
static size_t
first_mention(const struct crown_story_turn *tf, const char *id)
{
	size_t	lo = 0, hi = tf->nmentions, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(tf->mentions[mid].id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool
crown_story_names(const struct crown_story_turn *tf, const char *id)
{
	size_t	k = first_mention(tf, id);

	return k < tf->nmentions && is(tf->mentions[k].id, id);
}

void
crown_story_unit(struct crown_story *out, const struct crown_story_turn *tf,
    const char *id, const char *side)
{
	const struct crown_ynode	*root, *ev;
	long				 lost;
	size_t				 i, k;
	char				*w;

	root = crown_ydoc_root(tf->events);
	for (k = first_mention(tf, id); k < tf->nmentions &&
	    is(tf->mentions[k].id, id); k++) {
		i = tf->mentions[k].event;
		ev = root->item[i];
		out->events++;
		w = crown_words_dup(nz(str(ev, "kind"), "?"));
		add(out, 0, xasprintf("%s %s (%s, %s): %s",
		    nz(str(ev, "seq"), "?"), w, nz(str(ev, "phase"), ""),
		    nz(str(ev, "rule"), ""), nz(str(ev, "text"), "")));
		free(w);
		if ((lost = loss_of(ev, id)) > 0) {
			explain_loss(out, ev, earlier(root, i), tf, id, lost,
			    side);
			out->lost += lost;
		}
	}
}

long
crown_story_lost(const struct crown_story_turn *tf, const char *id)
{
	const struct crown_ynode	*root = crown_ydoc_root(tf->events);
	long				 lost = 0;
	size_t				 k;

	for (k = first_mention(tf, id); k < tf->nmentions &&
	    is(tf->mentions[k].id, id); k++)
		lost += loss_of(root->item[tf->mentions[k].event], id);
	return lost;
}

void
crown_story_release(struct crown_story *s)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].text);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

char *
crown_story_strength(const struct crown_state *s, const char *id)
{
	const struct crown_unit	*u = crown_state_unit(s, id);

	if (u == NULL)
		return NULL;
	return xasprintf("%d stand%s, %d figure%s, %s, at (%.2f, %.2f) "
	    "facing %d", crown_unit_stands(u), crown_unit_stands(u) == 1 ?
	    "" : "s", crown_unit_figures(u), crown_unit_figures(u) == 1 ?
	    "" : "s", crown_status_names[u->status], u->x, u->y, u->facing);
}

static bool
starts(const char *p, const char *end, const char *word)
{
	size_t	n = strlen(word);

	return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/*
 * The part of a state's text that unit id's strength line needs: the
 * game, the table and the sides, and the unit's own item of the units,
 * which crown writes as a line "- id: ID" below a line "units:", its
 * fields indented below it.  NULL when the text is not laid out so.
 * Caller frees.
 */
static char *
unit_part(const char *buf, size_t len, const char *id)
{
	struct crown_buf	 out = { 0 };
	const char		*p, *eol, *end = buf + len;
	char			*item;
	enum { SKIP, KEEP, UNITS } in = SKIP;
	bool			 found = false, mine = false;

	item = xasprintf("- id: %s\n", id);
	crown_buf_puts(&out, "");
	for (p = buf; p < end; p = eol) {
		eol = memchr(p, '\n', (size_t)(end - p));
		eol = eol != NULL ? eol + 1 : end;
		if (*p != ' ' && *p != '-' && *p != '#' && *p != '\n') {
			/* a key of the state */
			mine = false;
			in = starts(p, eol, "game:") || starts(p, eol,
			    "table:") || starts(p, eol, "sides:") ? KEEP :
			    starts(p, eol, "units:\n") ? UNITS : SKIP;
		} else if (in == UNITS && *p == '-') {
			mine = !found && starts(p, eol, item) &&
			    (size_t)(eol - p) == strlen(item);
			if (mine) {
				found = true;
				crown_buf_puts(&out, "units:\n");
			}
		}
		if (in == KEEP || (in == UNITS && mine))
			crown_buf_add(&out, p, (size_t)(eol - p));
	}
	free(item);
	if (!found || out.data[out.len - 1] != '\n') {
		crown_buf_release(&out);
		return NULL;
	}
	return out.data;
}

int
crown_story_strength_read(char **out, struct crown_history *h,
    const char *commit, const char *label, const char *id,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	struct crown_diags	 quiet = { 0 };
	struct crown_state	*s = NULL;
	char			*name, *part;
	int			 error;

	*out = NULL;
	name = xasprintf("%s:%s", label, CROWN_CAMPAIGN_STATE);
	error = crown_history_read(&b, h, commit, CROWN_CAMPAIGN_STATE, d);
	if (error == CROWN_ENOTFOUND)
		crown_diag_add(d, name, 0, 0, NULL, "missing");
	if (error != 0)
		goto cleanup;
	/* the unit's own part, or else (and for every problem) all */
	if ((part = unit_part(b.data, b.len, id)) != NULL &&
	    crown_state_parse(&s, name, part, strlen(part), &quiet) == 0)
		*out = crown_story_strength(s, id);
	free(part);
	crown_diags_release(&quiet);
	if (*out == NULL) {
		crown_state_free(s);
		s = NULL;
		if ((error = crown_state_parse(&s, name, b.data, b.len,
		    d)) == 0)
			*out = crown_story_strength(s, id);
	}
cleanup:
	crown_state_free(s);
	crown_buf_release(&b);
	free(name);
	return error;
}

void
crown_story_turn_release(struct crown_story_turn *tf)
{
	crown_ydoc_free(tf->events);
	crown_campaign_orders_free(tf->orders, tf->norders);
	free(tf->mentions);
	memset(tf, 0, sizeof(*tf));
}

int
crown_story_turn_load(struct crown_story_turn *tf, struct crown_history *h,
    const char *commit, int t, struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	char			*dir, *path;
	int			 error;

	memset(tf, 0, sizeof(*tf));
	dir = crown_campaign_turn_dir(t);
	path = xasprintf("%s/%s", dir, CROWN_CAMPAIGN_EVENTS);
	error = crown_history_read(&b, h, commit, path, d);
	if (error == 0)
		error = crown_ydoc_parse(&tf->events, path, b.data, b.len,
		    &crown_ylimits_state, d);
	crown_buf_release(&b);
	free(path);
	free(dir);
	if (error != 0)
		return error;
	index_mentions(tf);
	return 0;
}

int
crown_story_turn_orders(struct crown_story_turn *tf,
    struct crown_history *h, const char *commit, int t,
    struct crown_diags *d)
{
	struct crown_outputs	 files = { 0 };
	struct crown_orders	*o;
	char			*dir;
	size_t			 i;
	int			 error;

	dir = crown_campaign_orders_dir(t);
	error = crown_history_files(&files, h, commit, dir, d);
	free(dir);
	if (error == CROWN_ENOTFOUND)
		error = 0;	/* no side sent orders */
	for (i = 0; error == 0 && i < files.n; i++) {
		o = NULL;
		if ((error = crown_orders_parse(&o, files.v[i].name,
		    files.v[i].data.data, files.v[i].data.len, d)) != 0) {
			crown_orders_free(o);
			break;
		}
		tf->orders = xreallocarray(tf->orders, tf->norders + 1,
		    sizeof(*tf->orders));
		tf->orders[tf->norders++] = o;
	}
	crown_outputs_release(&files);
	return error;
}
