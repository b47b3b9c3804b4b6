/*
 * muster.c: units raised from the troop tables (R12.1; muster.h).
 *
 * The units are YAML through the emitter (one list of one unit each, so
 * that the die's comment stands above its unit: comments are no part of
 * a YAML tree); only the comments are written as text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/geom.h"
#include "crown/muster.h"
#include "crown/types.h"
#include "crown/yaml.h"

/* Figures in each stand when no stands are given (not artillery). */
#define DEFAULT_FIGURES	4
#define DEFAULT_NSTANDS	4

static void	emit_unit(struct crown_yemit *, const struct crown_muster *,
		    const struct crown_muster_unit *,
		    const struct crown_muster_spec *);
static void	list_option(struct crown_buf *,
		    const struct crown_troop_option *);
static const struct crown_troop_option *pick(const struct crown_troop_row *,
		    int);

const struct crown_troop_row *
crown_muster_row(const struct crown_rules *rules, const char *type,
    long year, const char *where, struct crown_diags *d)
{
	const struct crown_troop_row	*r;
	int				 i;
	bool				 known = false;

	for (i = 0; i < rules->troop_nrows; i++) {
		r = &rules->troop[i];
		if (strcmp(r->type, type) != 0)
			continue;
		known = true;
		if (year >= r->year_from && year <= r->year_to)
			return r;
	}
	if (known)
		crown_diag_add(d, where, 0, 0, "R12.1", "the troop tables "
		    "have no '%s' for %ld; `crown muster --list` shows their "
		    "years", type, year);
	else
		crown_diag_add(d, where, 0, 0, "R12.1", "unknown troop type "
		    "'%s'; `crown muster --list` shows the types", type);
	return NULL;
}

int
crown_muster_stands(struct crown_muster_spec *o,
    const struct crown_rules *rules, const struct crown_troop_row *row,
    const char *where, struct crown_diags *d)
{
	size_t	i;
	int	error = 0, lo;
	bool	gun = crown_is_artillery(row->utype);

	if (o->nstands == 0) {
		if (gun) {
			/* one figure above the minimum crew (R6.4), so the
			 * gun does not start short-handed (R3.5) */
			o->stands[0] = rules->min_crew[row->utype] + 1;
			o->nstands = 1;
		} else {
			for (i = 0; i < DEFAULT_NSTANDS; i++)
				o->stands[i] = DEFAULT_FIGURES;
			o->nstands = DEFAULT_NSTANDS;
		}
	}
	if (gun && o->nstands != 1) {
		crown_diag_add(d, where, 0, 0, "R1.1", "a gun and its crew "
		    "are one stand, not %zu", o->nstands);
		error = CROWN_EINVALID;
	} else if (!gun && ((int)o->nstands < rules->org.stands_min ||
	    (int)o->nstands > rules->org.stands_max)) {
		crown_diag_add(d, where, 0, 0, "R1.1", "a unit has %d to %d "
		    "stands, not %zu", rules->org.stands_min,
		    rules->org.stands_max, o->nstands);
		error = CROWN_EINVALID;
	}
	lo = gun ? 1 : rules->org.figures_min;
	for (i = 0; i < o->nstands; i++) {
		if (o->stands[i] >= lo &&
		    o->stands[i] <= rules->org.figures_max)
			continue;
		crown_diag_add(d, where, 0, 0, "R1.1", "stand %zu has %d "
		    "figure%s; a stand has %d to %d", i + 1, o->stands[i],
		    o->stands[i] == 1 ? "" : "s", lo, rules->org.figures_max);
		error = CROWN_EINVALID;
	}
	return error;
}

/* The option of row that a die of face picks, or NULL. */
static const struct crown_troop_option *
pick(const struct crown_troop_row *row, int face)
{
	int	k;

	for (k = 0; k < row->noptions; k++)
		if (face >= row->option[k].lo && face <= row->option[k].hi)
			return &row->option[k];
	return NULL;
}

int
crown_muster_raise(struct crown_muster *out, const struct crown_rules *rules,
    const struct crown_troop_row *row, const struct crown_muster_spec *o,
    struct crown_dice *dice, const char *where, struct crown_diags *d)
{
	struct crown_muster_unit	*u;
	struct crown_roll_key		 key;
	char				*prefix, *id, *p;
	double				 width, depth, x;
	long				 i;
	int				 error = 0;

	memset(out, 0, sizeof(*out));
	out->row = row;
	prefix = xstrdup(o->prefix != NULL ? o->prefix : row->type);
	for (p = prefix; *p != '\0'; p++)
		if (*p == '_' && o->prefix == NULL)
			*p = '-';
	/* the last id is the longest */
	id = xasprintf("%s-%ld", prefix, o->count);
	if (!crown_id_valid(id)) {
		crown_diag_add(d, where, 0, 0, NULL, "'%s' is not a valid id "
		    "(ids are 1-32 of a-z 0-9 _ -, starting with a letter or "
		    "digit); give a shorter --prefix", id);
		free(id);
		free(prefix);
		return CROWN_EUSAGE;
	}
	free(id);

	crown_geom_formation_size(&width, &depth, CROWN_LINE,
	    crown_is_artillery(row->utype) ? 1 : (int)o->nstands,
	    rules->footprint[row->utype].frontage,
	    rules->footprint[row->utype].depth,
	    rules->footprint[row->utype].gap);
	out->v = xcalloc((size_t)o->count, sizeof(*out->v));
	x = o->x;
	for (i = 1; i <= o->count; i++) {
		u = &out->v[out->n];
		u->id = xasprintf("%s-%ld", prefix, i);
		key.turn = 0;
		key.half = 0;
		key.who = u->id;
		key.purpose = "muster";
		if (crown_dice_roll(dice, &key, rules->muster_die,
		    crown_rules_die_low(rules, rules->muster_die),
		    &u->face) != 0) {
			crown_diag_add(d, o->script != NULL ? o->script :
			    "dice", 0, 0, "R12.1", "%s",
			    crown_dice_error(dice));
			error = CROWN_EINVALID;
			free(u->id);
			break;
		}
		if ((u->op = pick(row, u->face)) == NULL) {
			/* the rules loader insists every face has an
			 * option; a die off 0-9 cannot come from dice.c */
			crown_diag_add(d, rules->file, 0, 0, "R12.1",
			    "no option of '%s' %d-%d for D10 score %d",
			    row->type, row->year_from, row->year_to, u->face);
			error = CROWN_ERROR;
			free(u->id);
			break;
		}
		u->name = xasprintf("%s %ld%s", row->label, i,
		    u->op->lances ? " (lancers)" : "");
		u->x = crown_round2(x);
		out->n++;
		x += width + rules->footprint[row->utype].frontage;
	}
	free(prefix);
	if (error != 0)
		crown_muster_release(out);
	return error;
}

void
crown_muster_release(struct crown_muster *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++) {
		free(m->v[i].id);
		free(m->v[i].name);
	}
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* One unit, as a list of one under `units:`. */
static void
emit_unit(struct crown_yemit *e, const struct crown_muster *m,
    const struct crown_muster_unit *u, const struct crown_muster_spec *o)
{
	bool	gun = crown_is_artillery(m->row->utype);
	size_t	j;

	crown_yemit_seq(e, false);
	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "id", u->id);
	crown_yemit_str(e, "name");
	crown_yemit_quoted(e, u->name);
	crown_yemit_kstr(e, "side", o->side != NULL ? o->side :
	    CROWN_MUSTER_SIDE_PLACEHOLDER);
	crown_yemit_kstr(e, "type", crown_utype_names[m->row->utype]);
	if (gun)
		crown_yemit_kstr(e, "gun", crown_gun_names[m->row->gun]);
	crown_yemit_kstr(e, "class", crown_class_names[u->op->cls]);
	if (!gun)
		crown_yemit_kstr(e, "weapon",
		    crown_weapon_names[u->op->weapon]);
	crown_yemit_str(e, "stands");
	crown_yemit_seq(e, true);
	for (j = 0; j < o->nstands; j++)
		crown_yemit_int(e, o->stands[j]);
	crown_yemit_end(e);
	crown_yemit_knum2(e, "x", u->x);
	crown_yemit_knum2(e, "y", o->y);
	crown_yemit_kint(e, "facing", o->facing);
	crown_yemit_end(e);
	crown_yemit_end(e);
}

int
crown_muster_emit(struct crown_buf *out, const struct crown_muster *m,
    const struct crown_muster_spec *o, const char *seedhex)
{
	const struct crown_troop_row	*row = m->row;
	const struct crown_muster_unit	*u;
	struct crown_yemit		*e;
	size_t				 i;
	int				 error = 0;

	crown_buf_printf(out, "# crown muster: %ld %s of %ld (R12.1 table for "
	    "%d-%d),\n# one D10 each, ", o->count, row->label, o->year,
	    row->year_from, row->year_to);
	if (seedhex != NULL)
		crown_buf_printf(out, "dice from seed\n# %s\n# (the same "
		    "seed, --type, --year and --prefix give the same "
		    "units).\n", seedhex);
	else
		crown_buf_printf(out, "dice from the script %s, in order.\n",
		    o->script);
	crown_buf_puts(out, "# Paste under `units:` in a scenario");
	if (o->side == NULL || !o->at)
		crown_buf_printf(out, " and set%s%s", o->side == NULL ?
		    " side" : "", !o->at ? (o->side == NULL ?
		    ", x, y and facing" : " x, y and facing") : "");
	crown_buf_puts(out, ".\n");
	for (i = 0; i < m->n && error == 0; i++) {
		u = &m->v[i];
		crown_buf_printf(out, "# D10 rolled %d: %s, %s%s (R12.1)\n",
		    u->face, crown_class_names[u->op->cls],
		    crown_is_artillery(row->utype) ?
		    crown_gun_names[row->gun] :
		    crown_weapon_names[u->op->weapon],
		    u->op->lances ? ", with lances (L)" : "");
		if (u->op->lances)
			crown_buf_puts(out, "# (L): a state holds one "
			    "weapon; write `weapon: lance` for a unit that\n"
			    "# fights with its lances (R9.9) rather than "
			    "shoots (R5.3).\n");
		e = crown_yemit_new(out);
		emit_unit(e, m, u, o);
		error = crown_yemit_finish(e);
		crown_yemit_free(e);
	}
	return error;
}

static void
list_option(struct crown_buf *b, const struct crown_troop_option *op)
{
	if (op->lo == op->hi)
		crown_buf_printf(b, "%d", op->lo);
	else
		crown_buf_printf(b, "%d-%d", op->hi, op->lo);
	crown_buf_printf(b, " %s %s%s", crown_class_names[op->cls],
	    crown_weapon_names[op->weapon], op->lances ? " (L)" : "");
}

void
crown_muster_list(struct crown_buf *b, const struct crown_rules *rules)
{
	const struct crown_troop_row	*r, *q;
	int				 i, j, k;
	bool				 seen;

	crown_buf_printf(b, "# R12.1 troop tables of %s: crown muster "
	    "--type TYPE --year YEAR\n# D10 scores are read high to low as in "
	    "the printed tables; (L): lances too.\n", rules->id);
	for (i = 0; i < rules->troop_nrows; i++) {
		r = &rules->troop[i];
		seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = strcmp(rules->troop[j].type, r->type) == 0;
		if (seen)
			continue;
		crown_buf_printf(b, "%s: %s (%s%s%s)\n", r->type, r->label,
		    crown_utype_names[r->utype],
		    crown_is_artillery(r->utype) ? ", " : "",
		    crown_is_artillery(r->utype) ?
		    crown_gun_names[r->gun] : "");
		for (j = i; j < rules->troop_nrows; j++) {
			q = &rules->troop[j];
			if (strcmp(q->type, r->type) != 0)
				continue;
			crown_buf_printf(b, "  %d-%d:", q->year_from,
			    q->year_to);
			for (k = 0; k < q->noptions; k++) {
				crown_buf_puts(b, k == 0 ? " " : "; ");
				list_option(b, &q->option[k]);
			}
			crown_buf_puts(b, "\n");
		}
	}
}
