/*
 * events.c: the structured log of a turn and its YAML form.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/events.h"
#include "crown/fmt.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

const char *const crown_phase_names[CROWN_NPHASE] = {
	"charge", "actions", "melee", "morale"
};

size_t
crown_events_add(struct crown_events *evs, int turn, const char *half,
    enum crown_phase phase, const char *kind, const char *unit,
    const char *rule)
{
	struct crown_event	*e;

	crown_grow(&evs->v, &evs->cap, evs->n + 1, sizeof(*evs->v));
	e = &evs->v[evs->n];
	memset(e, 0, sizeof(*e));
	e->seq = (unsigned)evs->n + 1;
	e->turn = turn;
	e->half = xstrdup(half);
	e->phase = phase;
	e->kind = xstrdup(kind);
	e->unit = unit != NULL ? xstrdup(unit) : NULL;
	e->rule = rule != NULL ? xstrdup(rule) : NULL;
	return evs->n++;
}

struct crown_event *
crown_events_at(struct crown_events *evs, size_t i)
{
	return &evs->v[i];
}

void
crown_event_set(char **field, const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	free(*field);
	*field = p;
}

size_t
crown_event_die(struct crown_event *e, int die, int roll,
    const char *purpose)
{
	struct crown_die_rec	*r;

	crown_grow(&e->dice, &e->capdice, e->ndice + 1, sizeof(*e->dice));
	r = &e->dice[e->ndice];
	memset(r, 0, sizeof(*r));
	r->die = die;
	r->roll = roll;
	r->score = roll;
	r->purpose = xstrdup(purpose);
	return e->ndice++;
}

void
crown_die_mod(struct crown_die_rec *r, const char *name, int value,
    const char *rule)
{
	struct crown_mod	*m;

	crown_grow(&r->mods, &r->capmods, r->nmods + 1, sizeof(*r->mods));
	m = &r->mods[r->nmods++];
	m->name = xstrdup(name);
	m->value = value;
	m->rule = rule != NULL ? xstrdup(rule) : NULL;
	r->score += value;
}

void
crown_die_vmodf(struct crown_die_rec *r, int value, const char *rule,
    const char *fmt, va_list ap)
{
	char	*name;

	name = xvasprintf(fmt, ap);
	crown_die_mod(r, name, value, rule);
	free(name);
}

void
crown_die_modf(struct crown_die_rec *r, int value, const char *rule,
    const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	crown_die_vmodf(r, value, rule, fmt, ap);
	va_end(ap);
}

char *
crown_inches(double v)
{
	char	s[CROWN_FMT_MAX];

	crown_fmt_inches(s, v);
	return xstrdup(s);
}

char *
crown_die_describe(const struct crown_die_rec *r)
{
	struct crown_buf	b = { 0 };
	size_t			i;

	crown_buf_printf(&b, "%d (rolled %d", r->score, r->roll);
	for (i = 0; i < r->nmods; i++)
		crown_buf_printf(&b, ", %s %+d", r->mods[i].name,
		    r->mods[i].value);
	crown_buf_puts(&b, ")");
	return b.data;
}

static void
emit_point(struct crown_yemit *y, const char *key, struct crown_point p)
{
	crown_yemit_str(y, key);
	crown_yemit_seq(y, true);
	crown_yemit_num2(y, p.x);
	crown_yemit_num2(y, p.y);
	crown_yemit_end(y);
}

static void
emit_die(struct crown_yemit *y, const struct crown_die_rec *r)
{
	char	die[CROWN_FMT_MAX + 1];
	size_t	i;

	die[0] = 'D';
	crown_fmt_long(die + 1, r->die);
	crown_yemit_map(y, true);
	crown_yemit_kstr(y, "die", die);
	crown_yemit_kstr(y, "for", r->purpose);
	if (r->who != NULL)
		crown_yemit_kstr(y, "who", r->who);
	crown_yemit_kint(y, "roll", r->roll);
	crown_yemit_str(y, "modifiers");
	crown_yemit_seq(y, true);
	for (i = 0; i < r->nmods; i++) {
		crown_yemit_map(y, true);
		crown_yemit_kstr(y, "name", r->mods[i].name);
		crown_yemit_kint(y, "value", r->mods[i].value);
		if (r->mods[i].rule != NULL)
			crown_yemit_kstr(y, "rule", r->mods[i].rule);
		crown_yemit_end(y);
	}
	crown_yemit_end(y);
	crown_yemit_kint(y, "score", r->score);
	crown_yemit_end(y);
}

int
crown_events_emit(struct crown_buf *out, const struct crown_events *evs)
{
	struct crown_yemit	*y;
	size_t			 i, j;
	int			 error;

	y = crown_yemit_new(out);
	crown_yemit_seq(y, false);
	for (i = 0; i < evs->n; i++) {
		const struct crown_event *e = &evs->v[i];

		crown_yemit_map(y, false);
		crown_yemit_kint(y, "seq", e->seq);
		crown_yemit_kint(y, "turn", e->turn);
		crown_yemit_kstr(y, "half", e->half);
		crown_yemit_kstr(y, "phase", crown_phase_names[e->phase]);
		crown_yemit_kstr(y, "kind", e->kind);
		if (e->unit != NULL)
			crown_yemit_kstr(y, "unit", e->unit);
		if (e->leader != NULL)
			crown_yemit_kstr(y, "leader", e->leader);
		if (e->target != NULL)
			crown_yemit_kstr(y, "target", e->target);
		if (e->order != NULL)
			crown_yemit_kstr(y, "order", e->order);
		if (e->has_from)
			emit_point(y, "from", e->from);
		if (e->has_to)
			emit_point(y, "to", e->to);
		if (e->has_at) {
			emit_point(y, "at", e->at);
			emit_point(y, "target_at", e->target_at);
		}
		if (e->has_range)
			crown_yemit_knum2(y, "range", e->range);
		if (e->band != NULL)
			crown_yemit_kstr(y, "band", e->band);
		if (e->has_distance) {
			crown_yemit_knum2(y, "distance", e->distance);
			crown_yemit_knum2(y, "path_length", e->path_length);
		}
		if (e->ndice > 0) {
			crown_yemit_str(y, "dice");
			crown_yemit_seq(y, false);
			for (j = 0; j < e->ndice; j++)
				emit_die(y, &e->dice[j]);
			crown_yemit_end(y);
		}
		if (e->result != NULL)
			crown_yemit_kstr(y, "result", e->result);
		if (e->has_casualties)
			crown_yemit_kint(y, "casualties", e->casualties);
		if (e->reason != NULL)
			crown_yemit_kstr(y, "reason", e->reason);
		if (e->reason_rule != NULL)
			crown_yemit_kstr(y, "reason_rule", e->reason_rule);
		crown_yemit_kstr(y, "rule", e->rule != NULL ? e->rule : "");
		crown_yemit_kstr(y, "text", e->text != NULL ? e->text : "");
		crown_yemit_end(y);
	}
	crown_yemit_end(y);
	error = crown_yemit_finish(y);
	crown_yemit_free(y);
	return error;
}

void
crown_events_release(struct crown_events *evs)
{
	size_t	i, j, k;

	for (i = 0; i < evs->n; i++) {
		struct crown_event *e = &evs->v[i];

		for (j = 0; j < e->ndice; j++) {
			for (k = 0; k < e->dice[j].nmods; k++) {
				free(e->dice[j].mods[k].name);
				free(e->dice[j].mods[k].rule);
			}
			free(e->dice[j].mods);
			free(e->dice[j].purpose);
			free(e->dice[j].who);
		}
		free(e->dice);
		free(e->half);
		free(e->kind);
		free(e->unit);
		free(e->leader);
		free(e->target);
		free(e->result);
		free(e->rule);
		free(e->text);
		free(e->band);
		free(e->reason);
		free(e->reason_rule);
		free(e->order);
	}
	free(evs->v);
	memset(evs, 0, sizeof(*evs));
}
