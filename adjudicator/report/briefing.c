/*
 * briefing.c: what the players read before turn 1 (crown show DIR 0):
 * the scenario, the sides and their players, each side's forces and
 * leaders, the victory conditions where the game gives them, and an
 * opening map in text, so that the briefing is whole in a plain mail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/geom.h"
#include "crown/report.h"
#include "crown/template.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

/* The map is at most this many characters wide; a character is twice as
 * tall as it is wide, so a row covers twice the inches of a column. */
#define MAP_COLS	72

static void	forces(struct crown_buf *, const struct crown_state *,
		    const struct crown_side *);
static char	terrain_char(const struct crown_state *, struct crown_point,
		    double);
static void	map(struct crown_buf *, struct crown_buf *,
		    const struct crown_state *);
static void	name(struct crown_buf *, const char *);

/*
 * A name of the scenario's (the game's, a side's, a player's, a unit's,
 * a leader's), Markdown-escaped as the reports' templates escape names:
 * the site renders the briefing as Markdown, and a name is text there,
 * never a heading, a link or an image; the mail's plain text drops the
 * backslashes again (crown_markdown_plain).
 */
static void
name(struct crown_buf *b, const char *s)
{
	crown_escape_markdown(b, s, false);
}

/* A side's units and leaders, a line each. */
static void
forces(struct crown_buf *b, const struct crown_state *s,
    const struct crown_side *sd)
{
	const struct crown_unit		*u;
	const struct crown_leader	*ld;
	size_t				 i, n = 0;
	char				 type[32], arms[32];
	bool				 gun;

	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		if (strcmp(u->side, sd->id) != 0 || u->status == CROWN_LOST)
			continue;
		gun = crown_is_artillery(u->type);
		crown_buf_printf(b, "- `%s`, ", u->id);
		name(b, u->name);
		crown_buf_printf(b, ": %s %s, %s; %d stand%s, %d "
		    "figure%s, %s, at (%.1f, %.1f) facing %d\n",
		    crown_class_names[u->cls], crown_words(type,
		    sizeof(type), crown_utype_names[u->type]),
		    crown_report_arms(arms, sizeof(arms), u),
		    crown_unit_stands(u), crown_unit_stands(u) == 1 ? "" : "s",
		    crown_unit_figures(u), crown_unit_figures(u) == 1 ? "" :
		    "s", gun ? (u->limbered ? "limbered" : "unlimbered") :
		    crown_formation_names[u->formation], u->x, u->y,
		    u->facing);
		n++;
	}
	if (n == 0)
		crown_buf_puts(b, "- no units\n");
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (strcmp(ld->side, sd->id) != 0 ||
		    ld->status != CROWN_LEADER_OK)
			continue;
		crown_buf_printf(b, "- leader `%s`", ld->id);
		if (ld->name != NULL) {
			crown_buf_puts(b, ", ");
			name(b, ld->name);
		}
		crown_buf_printf(b, ": %s, bonus %+d, ",
		    crown_rank_names[ld->rank], ld->bonus);
		if (ld->attached != NULL)
			crown_buf_printf(b, "with `%s`\n", ld->attached);
		else
			crown_buf_printf(b, "at (%.1f, %.1f)\n", ld->x, ld->y);
	}
}

/* The character of the terrain at pt: the last feature that covers it,
 * buildings and paths drawn over areas. */
static char
terrain_char(const struct crown_state *s, struct crown_point pt,
    double cell)
{
	static const char	 glyph[CROWN_NTERRAIN] = {
		/* no letters or digits: those are the units */
		[CROWN_HILL] = '^', [CROWN_GULLY] = '_',
		[CROWN_STREAM] = '~', [CROWN_FORD] = '=',
		[CROWN_RIVER] = '~', [CROWN_SCRUB] = ',',
		[CROWN_LIGHT_WOODS] = ';', [CROWN_THICK_WOODS] = '%',
		[CROWN_WALLS] = '+', [CROWN_ROAD] = ':',
		[CROWN_BUILDING] = '#', [CROWN_EARTHWORKS] = '&'
	};
	const struct crown_feature	*f;
	char				 area = '.', line = 0, house = 0;
	double				 reach;
	size_t				 i;

	for (i = 0; i < s->nterrain; i++) {
		f = &s->terrain[i];
		if (f->npts == 0 || f->type >= CROWN_NTERRAIN)
			continue;
		if (f->is_path) {
			reach = f->width / 2 > cell / 2 ? f->width / 2 :
			    cell / 2;
			if (crown_geom_dist_point_polyline(pt, f->pts,
			    f->npts) <= reach)
				line = glyph[f->type];
		} else if (crown_geom_point_in_poly(pt, f->pts, f->npts)) {
			if (f->type == CROWN_BUILDING)
				house = glyph[f->type];
			else
				area = glyph[f->type];
		}
	}
	return house != 0 ? house : line != 0 ? line : area;
}

/*
 * The table in text, north up: terrain, then each unit as a letter at
 * its place (A, B, ... for the first side, a, b, ... for the second,
 * digits after) and detached leaders as '*'; which letter is which unit
 * goes to key.
 */
static void
map(struct crown_buf *b, struct crown_buf *key, const struct crown_state *s)
{
	struct crown_point	 pt;
	char			*grid, mark;
	double			 cw, ch;
	size_t			 cols, rows, r, k, i, side, nmark[3] = { 0 };
	long			 cx, cy;

	if (s->width <= 0 || s->height <= 0)
		return;
	cw = ceil(s->width / MAP_COLS);
	ch = 2 * cw;
	cols = (size_t)ceil(s->width / cw);
	rows = (size_t)ceil(s->height / ch);
	grid = xcalloc(rows * cols, 1);
	for (r = 0; r < rows; r++)
		for (k = 0; k < cols; k++) {
			pt.x = (k + 0.5) * cw;
			pt.y = s->height - (r + 0.5) * ch;
			grid[r * cols + k] = terrain_char(s, pt, cw);
		}
	crown_buf_printf(b, "\n## The opening map\n\nNorth is up; a "
	    "character is %.0f\" wide and %.0f\" tall; the table is "
	    "%.0f\" by %.0f\".\n\n", cw, ch, s->width, s->height);
	for (i = 0; i < s->nunits + s->nleaders; i++) {
		const char *sid;

		if (i < s->nunits) {
			if (s->units[i].status == CROWN_LOST)
				continue;
			sid = s->units[i].side;
			cx = (long)(s->units[i].x / cw);
			cy = (long)((s->height - s->units[i].y) / ch);
		} else {
			const struct crown_leader *ld =
			    &s->leaders[i - s->nunits];

			if (ld->attached != NULL ||
			    ld->status != CROWN_LEADER_OK)
				continue;
			sid = ld->side;
			cx = (long)(ld->x / cw);
			cy = (long)((s->height - ld->y) / ch);
		}
		for (side = 0; side < s->nsides; side++)
			if (strcmp(s->sides[side].id, sid) == 0)
				break;
		/* A-Z for the first side, a-z for the second, then
		 * digits for the others and the overflow */
		k = side < 2 ? side : 2;
		if (i >= s->nunits)
			mark = '*';
		else if (k < 2 && nmark[k] < 26)
			mark = (char)((k == 0 ? 'A' : 'a') + nmark[k]);
		else
			mark = (char)('0' + nmark[2]++ % 10);
		if (i < s->nunits) {
			crown_buf_printf(key, "    %c  %s (%s)\n", mark,
			    s->units[i].id, sid);
			if (k < 2)
				nmark[k]++;
		}
		if (cx < 0 || cy < 0 || (size_t)cx >= cols ||
		    (size_t)cy >= rows)
			continue;
		grid[(size_t)cy * cols + (size_t)cx] = mark;
	}
	crown_buf_puts(b, "    +");
	for (k = 0; k < cols; k++)
		crown_buf_puts(b, "-");
	crown_buf_puts(b, "+\n");
	for (r = 0; r < rows; r++) {
		crown_buf_puts(b, "    |");
		crown_buf_add(b, grid + r * cols, cols);
		crown_buf_puts(b, "|\n");
	}
	crown_buf_puts(b, "    +");
	for (k = 0; k < cols; k++)
		crown_buf_puts(b, "-");
	crown_buf_puts(b, "+\n\n    . open  ^ hill  _ gully  ~ stream or "
	    "river  = ford  , scrub\n    ; light woods  % thick woods  + "
	    "walls  : road  # building\n    & earthworks  * a leader on his "
	    "own\n\n");
	free(grid);
}

void
crown_report_briefing(struct crown_buf *out, const struct crown_state *s,
    const char *victory)
{
	struct crown_buf	 key = { 0 };
	const struct crown_side	*sd;
	size_t			 i, j, len;

	crown_buf_puts(out, "# ");
	name(out, s->name != NULL ? s->name : "A new campaign");
	crown_buf_puts(out, ": the briefing\n\nPlayed under the rule set '");
	name(out, s->rules);
	crown_buf_puts(out, "'");
	if (s->year > 0)
		crown_buf_printf(out, ", in %d", s->year);
	crown_buf_printf(out, ", on a table %.0f\" by %.0f\" (north up, "
	    "the origin at its south-west corner).", s->width, s->height);
	if (s->last_turn > 0)
		crown_buf_printf(out, "  The game lasts %d turns.",
		    s->last_turn);
	crown_buf_puts(out, "\n");
	for (i = 0; i < s->nsides; i++) {
		sd = &s->sides[i];
		crown_buf_puts(out, "\n## ");
		name(out, sd->name != NULL ? sd->name : sd->id);
		crown_buf_printf(out, " (`%s`)\n\nHome edge %s%s.", sd->id,
		    crown_edge_names[sd->home_edge], s->attacker != NULL &&
		    strcmp(s->attacker, sd->id) == 0 ? "; moves first "
		    "(R2.1)" : "");
		if (sd->nplayers > 0) {
			crown_buf_puts(out, "  Played by ");
			for (j = 0; j < sd->nplayers; j++) {
				crown_buf_puts(out, j == 0 ? "" :
				    j + 1 == sd->nplayers ? " and " : ", ");
				name(out, sd->players[j].name != NULL ?
				    sd->players[j].name : "?");
			}
			crown_buf_puts(out, ".");
		}
		crown_buf_puts(out, "\n\n");
		forces(out, s, sd);
	}
	if (victory != NULL && victory[0] != '\0') {
		crown_buf_puts(out, "\n## Victory\n\n");
		len = strlen(victory);
		while (len > 0 && victory[len - 1] == '\n')
			len--;
		crown_buf_add(out, victory, len);
		crown_buf_puts(out, "\n");
	}
	crown_buf_puts(&key, "");
	map(out, &key, s);
	crown_buf_puts(out, "    The units:\n\n");
	crown_buf_puts(out, key.data);
	crown_buf_release(&key);
}
