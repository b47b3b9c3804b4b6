/*
 * rulebook.c: the rule tables of a loaded rules file as a reference,
 * aligned text or Markdown (crown rules), so the reference players read
 * is made from the very data the engine uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/paths.h"
#include "crown/rulebook.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A table of text cells, printed as Markdown or aligned columns. */
struct table {
	size_t	  ncols;
	char	**cell;		/* row-major; row 0 is the header */
	size_t	  n;		/* cells */
	size_t	  cap;
};

struct printer {
	FILE			*fp;
	bool			 markdown;
	const struct crown_rules *r;
	const struct crown_ynode *index;	/* rules/index.yaml, or NULL */
};

static void
cell(struct table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
cell(struct table *t, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[256];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	crown_grow(&t->cell, &t->cap, t->n + 1, sizeof(*t->cell));
	t->cell[t->n++] = xstrdup(buf);
}

static void
table_print(struct printer *p, struct table *t)
{
	size_t	 rows = t->n / t->ncols, r, c, w, *width;

	width = xcalloc(t->ncols, sizeof(*width));
	for (r = 0; r < rows; r++)
		for (c = 0; c < t->ncols; c++) {
			w = strlen(t->cell[r * t->ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	for (r = 0; r < rows; r++) {
		for (c = 0; c < t->ncols; c++) {
			const char *s = t->cell[r * t->ncols + c];

			if (p->markdown)
				fprintf(p->fp, "| %s ", s);
			else
				fprintf(p->fp, "%s%-*s", c ? "  " : "  ",
				    c + 1 < t->ncols ? (int)width[c] : 0, s);
		}
		fputs(p->markdown ? "|\n" : "\n", p->fp);
		if (r == 0 && p->markdown) {
			for (c = 0; c < t->ncols; c++)
				fputs("|---", p->fp);
			fputs("|\n", p->fp);
		}
	}
	fputc('\n', p->fp);
	for (r = 0; r < t->n; r++)
		free(t->cell[r]);
	free(t->cell);
	free(width);
	t->cell = NULL;
	t->n = t->cap = 0;	/* the same columns may be used again */
}

static void
heading(struct printer *p, const char *id)
{
	const struct crown_ynode	*list, *title = NULL;
	size_t				 i;

	list = crown_ymap_get(p->index, "rules");
	for (i = 0; list != NULL && i < list->n; i++)
		if (crown_ymap_get(list->item[i], "id") != NULL &&
		    strcmp(crown_ymap_get(list->item[i], "id")->str, id) == 0)
			title = crown_ymap_get(list->item[i], "title");
	if (p->markdown)
		fprintf(p->fp, "### %s %s\n\n", id, title ? title->str : "");
	else
		fprintf(p->fp, "%s  %s\n\n", id, title ? title->str : "");
}

static void
line(struct printer *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
line(struct printer *p, const char *fmt, ...)
{
	va_list	ap;

	fputs(p->markdown ? "- " : "  ", p->fp);
	va_start(ap, fmt);
	vfprintf(p->fp, fmt, ap);
	va_end(ap);
	fputc('\n', p->fp);
}

static void
end_lines(struct printer *p)
{
	fputc('\n', p->fp);
}

static const char *
dice(char *buf, size_t len, const struct crown_dice *d, bool present)
{
	if (!present)
		return "-";
	crown_rules_dice_str(buf, len, d);
	return buf;
}

static void
band_cells(struct table *t, const struct crown_band *b, bool hits)
{
	int	k;

	for (k = 0; k < CROWN_NBAND; k++) {
		if (!b[k].present) {
			cell(t, "-");
			if (hits)
				cell(t, "-");
			continue;
		}
		cell(t, "%g-%g", b[k].min, b[k].max);
		if (hits)
			cell(t, "%d", b[k].hit);
	}
}

static const char *const cover_names[CROWN_NCOVER] = {
	"open", "soft", "hard"
};

/* The dice section: what each die of the game reads. */
static void
print_dice(struct printer *p)
{
	int	n;

	fputs(p->markdown ? "### Dice\n\n" : "Dice\n\n", p->fp);
	for (n = 2; n <= CROWN_MAX_SIDES; n++)
		if (p->r->die_low[n] >= 0)
			line(p, "D%d reads %d-%d", n, p->r->die_low[n],
			    p->r->die_low[n] + n - 1);
	end_lines(p);
}

static void
print_organisation(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 4, NULL, 0, 0 };
	int				 i;

	heading(p, "R1.1");
	line(p, "one figure is %d men; a stand has %d-%d figures; a unit "
	    "%d-%d stands", r->org.men_per_figure, r->org.figures_min,
	    r->org.figures_max, r->org.stands_min, r->org.stands_max);
	end_lines(p);
	heading(p, "R1.2");
	cell(&t, "type");
	cell(&t, "frontage");
	cell(&t, "depth");
	cell(&t, "gap");
	for (i = 0; i < CROWN_NUTYPE; i++) {
		cell(&t, "%s", crown_utype_names[i]);
		cell(&t, "%.2f", r->footprint[i].frontage);
		cell(&t, "%.2f", r->footprint[i].depth);
		cell(&t, "%.2f", r->footprint[i].gap);
	}
	table_print(p, &t);
	line(p, "a limbered gun is %.2f inches deep", r->limbered_depth);
	end_lines(p);
}

static void
print_classes(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 5, NULL, 0, 0 };
	int				 i;

	heading(p, "R3.1");
	cell(&t, "class");
	cell(&t, "actions");
	cell(&t, "firing");
	cell(&t, "melee");
	cell(&t, "morale");
	for (i = 0; i < CROWN_NCLASS; i++) {
		cell(&t, "%s", crown_class_names[i]);
		cell(&t, "%d", r->cls[i].actions);
		cell(&t, "%+d", r->cls[i].firing);
		cell(&t, "%+d", r->cls[i].melee);
		cell(&t, "%+d", r->cls[i].morale);
	}
	table_print(p, &t);
	heading(p, "R3.3");
	t.ncols = 3;
	cell(&t, "action");
	cell(&t, "cost");
	cell(&t, "a move");
	for (i = 0; i < CROWN_NACTION; i++) {
		cell(&t, "%s", crown_action_names[i]);
		cell(&t, "%d", r->action[i].cost);
		cell(&t, "%s", r->action[i].is_move ? "yes" : "no");
	}
	table_print(p, &t);
	heading(p, "R3.5");
	line(p, "a gun below its minimum crew pays %d times for every action",
	    r->undercrewed_cost_factor);
	end_lines(p);
	heading(p, "R3.6");
	line(p, "repeating rifles fire %d times before they must reload",
	    r->repeater_shots);
	end_lines(p);
	heading(p, "R3.7");
	line(p, "disordered: %+d to every die", r->disorder_mod);
	end_lines(p);
}

static void
print_movement(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 5, NULL, 0, 0 };
	char				 b[32];
	int				 i, k;

	heading(p, "R4.1");
	cell(&t, "type");
	cell(&t, "normal");
	cell(&t, "charge/rout bonus");
	cell(&t, "road bonus");
	cell(&t, "manhandle");
	for (i = 0; i < CROWN_NUTYPE; i++) {
		cell(&t, "%s", crown_utype_names[i]);
		cell(&t, "%s", dice(b, sizeof(b), &r->move[i].normal, true));
		cell(&t, "%s", dice(b, sizeof(b), &r->move[i].bonus,
		    r->move[i].has_bonus));
		cell(&t, "%s", dice(b, sizeof(b), &r->move[i].road, true));
		if (r->move[i].manhandle > 0)
			cell(&t, "%g", r->move[i].manhandle);
		else
			cell(&t, "-");
	}
	table_print(p, &t);
	heading(p, "R4.3");
	t.ncols = 1 + CROWN_NUTYPE;
	cell(&t, "terrain");
	for (i = 0; i < CROWN_NUTYPE; i++)
		cell(&t, "%s", crown_utype_names[i]);
	for (k = 0; k < CROWN_NTERRAIN; k++) {
		cell(&t, "%s", crown_terrain_names[k]);
		for (i = 0; i < CROWN_NUTYPE; i++) {
			const struct crown_terrain_move *m =
			    &r->terrain_move[k][i];

			if (m->na)
				cell(&t, "N/A");
			else if (m->dice == 0)
				cell(&t, "none");
			else
				cell(&t, "-%dD%d%s%s", m->dice, m->sides,
				    m->drown ? " drown" : "",
				    m->stuck ? " stuck" : "");
		}
	}
	table_print(p, &t);
	heading(p, "R4.5");
	line(p, "a move stops %g inch(es) short of the enemy", r->stop_short);
	end_lines(p);
	heading(p, "R4.6");
	line(p, "officers and generals move up to %g inches",
	    r->leader_move);
	line(p, "a stuck gun or wagon moves %g inch(es) per helping stand; "
	    "helpers must be within %g inch(es)", r->stuck_move_per_stand,
	    r->help_reach);
	end_lines(p);
	heading(p, "R4.7");
	line(p, "no move ends with footprints overlapping; touching, or "
	    "crossing by %g inch, is contact, not overlap",
	    r->contact_crossing);
	end_lines(p);
}

static void
print_fire(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 7, NULL, 0, 0 };
	int				 i, k;

	heading(p, "R5.1");
	line(p, "each firing stand rolls a D%d; a modified score at or below "
	    "the weapon's number for the band (R5.3) is a casualty",
	    r->fire_die);
	end_lines(p);
	heading(p, "R5.2");
	line(p, "moved earlier this half-turn: one stand in %d",
	    r->fire_moved_one_in);
	line(p, "in column: one stand in %d", r->fire_column_one_in);
	line(p, "mounted cavalry: one stand in %d", r->fire_cavalry_one_in);
	end_lines(p);
	heading(p, "R5.3");
	cell(&t, "weapon");
	cell(&t, "close");
	cell(&t, "hit");
	cell(&t, "medium");
	cell(&t, "hit");
	cell(&t, "long");
	cell(&t, "hit");
	for (i = 0; i < CROWN_NWEAPON; i++) {
		cell(&t, "%s", crown_weapon_names[i]);
		band_cells(&t, r->weapon[i], true);
	}
	table_print(p, &t);
	heading(p, "R5.4");
	line(p, "firer's class: the R3.1 firing column");
	line(p, "target is cavalry: %+d", r->fire_mod.target_cavalry);
	line(p, "target in soft cover: %+d, hard cover: %+d",
	    r->fire_mod.cover[CROWN_COVER_SOFT],
	    r->fire_mod.cover[CROWN_COVER_HARD]);
	line(p, "target is skirmishers: %+d", r->fire_mod.target_skirmishers);
	line(p, "firer disordered: %+d", r->fire_mod.disordered);
	line(p, "firer rallied earlier: %+d", r->fire_mod.rallied);
	end_lines(p);
	heading(p, "R5.5");
	t.ncols = 2;
	cell(&t, "terrain");
	cell(&t, "cover");
	for (k = 0; k < CROWN_NTERRAIN; k++) {
		cell(&t, "%s", crown_terrain_names[k]);
		cell(&t, "%s", k == CROWN_BUILDING ? "by class (R11.1)" :
		    cover_names[r->terrain_cover[k]]);
	}
	table_print(p, &t);
	line(p, "behind a wall: the line of fire crosses it within %g inches "
	    "of the target", r->wall_cover_distance);
	end_lines(p);
	heading(p, "R5.6");
	line(p, "thick woods block sight beyond %g inches into them",
	    r->thick_woods_sight);
	end_lines(p);
}

static void
print_artillery(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 4, NULL, 0, 0 };
	int				 i, g, k, lo;

	heading(p, "R6.2");
	line(p, "each gun rolls a D%d", r->gun_die);
	end_lines(p);
	cell(&t, "gun");
	cell(&t, "canister");
	cell(&t, "effective");
	cell(&t, "long");
	for (i = 0; i < CROWN_NUTYPE; i++) {
		if (!crown_is_artillery(i))
			continue;
		for (g = CROWN_CANNON; g < CROWN_NGUN; g++) {
			cell(&t, "%s %s", crown_utype_names[i],
			    crown_gun_names[g]);
			band_cells(&t, r->gun_band[i][g], false);
		}
	}
	table_print(p, &t);
	cell(&t, "score");
	cell(&t, "canister");
	cell(&t, "effective");
	cell(&t, "long");
	lo = 0;
	for (i = 0; i < r->art_nrows; i++) {
		if (i == 0)
			cell(&t, "%d or less", r->art_row[i].max_score);
		else if (i + 1 == r->art_nrows)
			cell(&t, "%d or more", lo);
		else if (lo == r->art_row[i].max_score)
			cell(&t, "%d", lo);
		else
			cell(&t, "%d-%d", lo, r->art_row[i].max_score);
		for (k = 0; k < CROWN_NBAND; k++)
			cell(&t, "%d", r->art_row[i].casualties[k]);
		if (i + 1 < r->art_nrows)	/* the last row is unbounded */
			lo = r->art_row[i].max_score + 1;
	}
	table_print(p, &t);
	heading(p, "R6.3");
	line(p, "a score of %d or below multiplies casualties by %d",
	    r->ricochet_score, r->ricochet_factor);
	end_lines(p);
	heading(p, "R6.4");
	for (i = 0; i < CROWN_NUTYPE; i++)
		if (crown_is_artillery(i))
			line(p, "%s: minimum crew %d figures",
			    crown_utype_names[i], r->min_crew[i]);
	fputs(p->markdown ? "- crew replaced by" : "  crew replaced by",
	    p->fp);
	for (i = 0; i < CROWN_NCLASS; i++)
		if (r->crew_replace.cls[i])
			fprintf(p->fp, " %s", crown_class_names[i]);
	fprintf(p->fp, " infantry within %g inch(es), while %d original "
	    "crew remain\n", r->crew_replace.reach,
	    r->crew_replace.min_original);
	end_lines(p);
}

static void
print_morale(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	const struct crown_morale_mods	*m = &r->morale_mod;
	struct table			 t = { 4, NULL, 0, 0 };
	int				 i, c, hi;

	heading(p, "R7.2");
	line(p, "a morale test rolls a D%d (R7.1)", r->morale_die);
	end_lines(p);
	cell(&t, "score");
	for (c = 0; c < CROWN_NCOLUMN; c++)
		cell(&t, "%s", crown_column_names[c]);
	for (i = 0; i < r->morale_nrows; i++) {
		hi = i + 1 < r->morale_nrows ? r->morale_row[i + 1].min - 1 :
		    -1;
		if (i + 1 == r->morale_nrows)
			cell(&t, "%d+", r->morale_row[i].min);
		else if (i == 0)
			cell(&t, "%d or less", hi);
		else if (hi == r->morale_row[i].min)
			cell(&t, "%d", hi);
		else
			cell(&t, "%d-%d", r->morale_row[i].min, hi);
		for (c = 0; c < CROWN_NCOLUMN; c++)
			cell(&t, "%s",
			    crown_result_names[r->morale_row[i].result[c]]);
	}
	table_print(p, &t);
	heading(p, "R7.3");
	line(p, "receiving a breakthrough charge %+d", m->breakthrough);
	line(p, "general killed %+d", m->general_killed);
	line(p, "charged in rear %+d", m->charged_rear);
	line(p, "rout within %g\" %+d", m->rout_near_radius, m->rout_near);
	line(p, "officer killed %+d", m->officer_killed);
	line(p, "rout within %g\" %+d (not with the nearer one)",
	    m->rout_far_radius, m->rout_far);
	line(p, "under artillery fire %+d", m->artillery_fire);
	line(p, "charged in flank %+d", m->charged_flank);
	line(p, "each stand lost %+d", m->stand_lost);
	line(p, "disordered %+d", m->disordered);
	line(p, "charged by cavalry %+d", m->charged_by_cavalry);
	line(p, "2nd and later test in a game turn %+d", m->repeat_test);
	line(p, "officer attached %+d", m->officer_attached);
	line(p, "general within %g\" %+d", m->general_radius,
	    m->general_near);
	line(p, "for each %d whole stands %+d", m->stands_per_step,
	    m->per_two_stands);
	line(p, "in hard cover %+d", m->hard_cover);
	line(p, "general attached %+d", m->general_attached);
	line(p, "infantry charging into flank or rear %+d",
	    m->infantry_flank_rear);
	line(p, "cavalry charging into flank or rear %+d",
	    m->cavalry_flank_rear);
	line(p, "class: the R3.1 morale column");
	end_lines(p);
	heading(p, "R7.5");
	line(p, "over %d%% casualties: no charge",
	    r->charge_max_casualty_pct);
	line(p, "%d stand(s) left: retire to hard cover or leave the field",
	    r->retire_at_stands);
	end_lines(p);
}

static void
print_rout_melee(struct printer *p)
{
	const struct crown_rules	*r = p->r;

	heading(p, "R8.3");
	line(p, "a leader within %g\" lets a unit rally from its half-turn "
	    "%d of rout", r->rally_radius, r->rally_first_half_turn);
	end_lines(p);
	heading(p, "R8.4");
	line(p, "D%d + class morale + disorder + attached officer %+d or "
	    "general %+d + leader bonus: %d or less rallies", r->rally_die,
	    r->rally_officer, r->rally_general, r->rally_target);
	end_lines(p);
	heading(p, "R8.5");
	line(p, "after %d failed rallies a unit is lost for good; after %d "
	    "routs it cannot rally", r->rally_max_failures,
	    r->rally_max_routs);
	end_lines(p);
	heading(p, "R8.6");
	line(p, "a rallied unit has %+d on every die from then on",
	    r->rallied_dice_mod);
	end_lines(p);
	heading(p, "R9.5");
	line(p, "D%d + class melee %+d charging (first round) %+d per stand "
	    "fighting + disorder + rallied", r->melee_die, r->melee_charging,
	    r->melee_per_stand);
	line(p, "the loser loses the difference, at most %d per stand of the "
	    "winner (%d against a rear charge)", r->melee_cap_per_stand,
	    r->melee_rear_cap_per_stand);
	end_lines(p);
	heading(p, "R9.4");
	line(p, "in a flank attack the defender fights with %d stand(s) in "
	    "the first round", r->melee_flank_first_stands);
	end_lines(p);
	heading(p, "R9.1");
	line(p, "a charge with half bonus halves the bonus rolled, rounding "
	    "%s", r->half_bonus_up ? "up" : "down");
	end_lines(p);
	heading(p, "R9.8");
	line(p, "at most %d rounds, one each half-turn; then the side that "
	    "lost more retires %d move%s", r->melee_max_rounds,
	    r->melee_part_moves, r->melee_part_moves == 1 ? "" : "s");
	end_lines(p);
	heading(p, "R9.9");
	line(p, "lances: %+d more in the first round of a charge",
	    r->lance_first_round);
	end_lines(p);
}

static void
print_leaders_buildings(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 4, NULL, 0, 0 };
	int				 i, k;

	heading(p, "R10.1");
	line(p, "Intervention and Imperial: one officer per %d-%d units and "
	    "%d general", r->leaders.imperial_units_per_officer_min,
	    r->leaders.imperial_units_per_officer_max,
	    r->leaders.imperial_generals);
	line(p, "Republicans before %d: %d general(s) for the first %d "
	    "units, one officer per %d more",
	    r->leaders.republican_split_year, r->leaders.early_generals,
	    r->leaders.early_general_units,
	    r->leaders.early_units_per_officer);
	line(p, "Republicans from %d: one officer per %d units and %d "
	    "general", r->leaders.republican_split_year,
	    r->leaders.late_units_per_officer, r->leaders.late_generals);
	end_lines(p);
	heading(p, "R10.2");
	line(p, "scenario bonuses from %+d to %+d", r->leader_bonus_min,
	    r->leader_bonus_max);
	end_lines(p);
	heading(p, "R10.3");
	line(p, "an attached leader dies on a D%d at or below his unit's "
	    "casualties that half-turn", r->leader_kill_die);
	end_lines(p);
	heading(p, "R11.1");
	cell(&t, "class");
	cell(&t, "cover");
	cell(&t, "casualties to destroy cover");
	cell(&t, "holds stands");
	for (i = 0; i < r->nbuilding_class; i++) {
		cell(&t, "%d", i + 1);
		cell(&t, "%s", cover_names[r->building[i].cover]);
		cell(&t, "%d", r->building[i].casualties);
		cell(&t, "%d", r->building[i].capacity);
	}
	table_print(p, &t);
	heading(p, "R11.2");
	line(p, "a gun hits a building on a D%d at or below its class; siege "
	    "guns %+d", r->gun_die, r->building_siege_mod);
	end_lines(p);
	heading(p, "R11.3");
	fputs(p->markdown ? "- the average die reads" : "  the average die "
	    "reads", p->fp);
	for (k = 0; k < 6; k++)
		fprintf(p->fp, " %d", r->average_die[k]);
	fputs("\n\n", p->fp);
}

static void
print_troops(struct printer *p)
{
	const struct crown_rules	*r = p->r;
	struct table			 t = { 4, NULL, 0, 0 };
	int				 i, k;
	char				 opts[512];
	size_t				 len;

	heading(p, "R12.1");
	cell(&t, "years");
	cell(&t, "type");
	cell(&t, "troops");
	cell(&t, "D%d", r->muster_die);
	for (i = 0; i < r->troop_nrows; i++) {
		const struct crown_troop_row *row = &r->troop[i];

		len = 0;
		opts[0] = '\0';
		for (k = 0; k < row->noptions; k++) {
			const struct crown_troop_option *o = &row->option[k];
			int n;

			char range[16];

			if (o->lo == o->hi)
				snprintf(range, sizeof(range), "%d", o->lo);
			else
				snprintf(range, sizeof(range), "%d-%d", o->lo,
				    o->hi);
			n = snprintf(opts + len, sizeof(opts) - len,
			    "%s%s %s %s%s", k ? "; " : "", range,
			    crown_class_names[o->cls],
			    crown_weapon_names[o->weapon],
			    o->lances ? " (lances)" : "");
			if (n < 0 || (size_t)n >= sizeof(opts) - len)
				break;
			len += (size_t)n;
		}
		cell(&t, "%d-%d", row->year_from, row->year_to);
		cell(&t, "%s", row->type);
		cell(&t, "%s", crown_utype_names[row->utype]);
		cell(&t, "%s", opts);
	}
	table_print(p, &t);
	heading(p, "R13.1");
	line(p, "other rulings: a D%d, 1-%d for the defender, the rest for "
	    "the attacker", r->ruling_die, r->ruling_defender_max);
	end_lines(p);
}


void
crown_rulebook_print(FILE *fp, const struct crown_rules *rules, bool markdown)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_ydoc	*index = NULL;
	struct printer		 p = { fp, markdown, rules, NULL };
	char			*index_path;

	/* titles of the rules, if the index is installed */
	if ((index_path = crown_data_find("rules/index.yaml")) != NULL) {
		(void)crown_ydoc_load(&index, index_path,
		    &crown_ylimits_state, &quiet);
		free(index_path);
	}
	crown_diags_release(&quiet);
	p.index = index != NULL ? crown_ydoc_root(index) : NULL;
	if (p.markdown)
		fprintf(p.fp, "# %s\n\nRules file: `%s`\n\n", rules->title,
		    rules->file);
	else
		fprintf(p.fp, "%s\nrules file: %s\n\n", rules->title,
		    rules->file);
	print_dice(&p);
	print_organisation(&p);
	print_classes(&p);
	print_movement(&p);
	print_fire(&p);
	print_artillery(&p);
	print_morale(&p);
	print_rout_melee(&p);
	print_leaders_buildings(&p);
	print_troops(&p);
	crown_ydoc_free(index);
}
