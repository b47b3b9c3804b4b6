/*
 * svg.c: the map of a turn as data for map.svg.tmpl (svg.h).
 *
 * The table is drawn to scale, CROWN_SVG_SCALE pixels to the inch, with
 * north up: table point (x, y) is pixel (left + x * scale, top + (height -
 * y) * scale).  Geometry comes from geom.c and crown_unit_footprint; no
 * libm.  Every number is printed with one decimal, so the map is the same
 * bytes on every machine.
 *
 * Each unit is drawn stand by stand (its footprint divided as R1.2 lays
 * the stands out), with a label of its name and strength; leaders are
 * marks with their names.  Every text is laid out here, not in the
 * template, because where a label can go depends on its size: place.c
 * puts each label where it overlaps no other text and, if it can, no
 * unit, with a line back to what it names when it had to move away.  A
 * text's box is its font size high and CROWN_SVG_CHAR_EM of the size
 * wide a character (svg.h).  Fire lines run between where the firer and
 * its target stood when it fired, as the event records them.
 */
#include <math.h>		/* NAN */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/engine.h"
#include "crown/fmt.h"
#include "crown/geom.h"
#include "crown/paths.h"
#include "crown/place.h"
#include "crown/report.h"
#include "crown/svg.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

#define MARGIN		30.0	/* pixels around the table */
#define TITLE_HEIGHT	40.0	/* pixels above it */
#define LEGEND_ROW_H	22.0
#define LEGEND_SAMPLE	22.0	/* pixels from a legend entry to its text */
#define LEGEND_SPACE	16.0	/* and after its text */
#define GRID_INCHES	6	/* light grid lines every 6 inches */
#define SCALE_BAR_INCHES 12	/* the scale bar, ticked at GRID_INCHES */
#define FACING_TIP	0.6	/* facing mark: inches ahead of the front */
#define FACING_HALF	0.3	/* and its half width */
#define LEADER_R	3.5	/* a detached leader's mark, pixels */
#define LABEL_PAD	1.0	/* pixels kept free round a label */

/* Font sizes, pixels (the template writes them on each text). */
#define FONT_TITLE	16.0
#define FONT_UNIT	9.0	/* a unit's name */
#define FONT_STRENGTH	8.0	/* its stands and figures, under it */
#define FONT_LEADER	8.0
#define FONT_TERRAIN	8.0
#define FONT_COORD	8.0	/* the inches along the edges */
#define FONT_LEGEND	10.0

/* Symbols of the legend, after the sides and terrain types; drawn only
 * when the map has them. */
enum symbol {
	SYM_MOVE, SYM_CHARGE, SYM_RETIRE, SYM_ROUT, SYM_LEADER_MOVE, SYM_FIRE,
	SYM_MELEE, SYM_LEADER, SYM_ROUTING, SYM_LOST, NSYM
};
static const char *const symbol_names[NSYM] = {
	"move", "charge", "retire", "rout", "leader_move", "fire", "melee",
	"leader", "routing", "lost"
};
static const char *const symbol_labels[NSYM] = {
	"move", "charge", "retirement", "rout", "leader's move",
	"fire (a dot: hits)", "melee", "leader", "routing unit", "lost unit"
};

/*
 * The numbers the map wrote before, as text, in a table for x and one for
 * y: a unit's stands share their corners with each other and with its
 * outline, units in a line share their y, and most numbers were written
 * before (24 in 25 at 1,000 units a side, in rows).  A number has one
 * slot, found by a hash of its bits (as crown_addr_slot hashes an
 * address), and takes it from whatever held it: one comparison a
 * number, not a search of the last few written.  The two tables, 50 KB,
 * are the layout's, on the stack.
 */
#define MEMO_BITS	10
#define MEMO_TEXT	16	/* longer numbers are not kept */
struct memo {
	double			 v[1 << MEMO_BITS];	/* NaN: empty */
	char			 text[1 << MEMO_BITS][MEMO_TEXT];
	unsigned char		 len[1 << MEMO_BITS];
};

struct layout {
	double			 scale;
	double			 left, top;	/* the table's north-west */
	double			 height;	/* table height, inches */
	struct crown_place	*place;
	struct crown_tval	*labels;	/* every placed text */
	struct crown_tval	*lines;		/* label to what it names */
	/* each unit's box (model_forces) */
	struct crown_geom_box	*units;
	bool			 sym[NSYM];	/* drawn, for the legend */
	struct memo		 memo[2];	/* of x, of y */
};

static double
px(const struct layout *l, double x)
{
	return l->left + x * l->scale;
}

static double
py(const struct layout *l, double y)
{
	return l->top + (l->height - y) * l->scale;
}

static void
put1(struct crown_tval *m, const char *key, double v)
{
	char	buf[CROWN_FMT_MAX];

	crown_tmap_strn(m, key, buf, crown_fmt_fixed(buf, v, 1));
}

/* memo_fmt of a number not in slot i of the memo: written, and kept. */
static size_t
memo_miss(struct memo *mo, size_t i, char *out, double v)
{
	size_t	n;

	n = crown_fmt_fixed(out, v, 1);
	if (n < MEMO_TEXT) {
		mo->v[i] = v;
		mo->len[i] = (unsigned char)n;
		memcpy(mo->text[i], out, n + 1);
	}
	return n;
}

/* v with one decimal at out (CROWN_FMT_MAX bytes); its length.  Small, to
 * be inlined: it runs for every number of the map. */
static inline size_t
memo_fmt(struct memo *mo, char *out, double v)
{
	uint64_t	bits;
	size_t		i;

	memcpy(&bits, &v, sizeof(bits));
	i = (size_t)(bits * 0x9e3779b97f4a7c15u >> (64 - MEMO_BITS));
	if (mo->v[i] != v)
		return memo_miss(mo, i, out, v);
	/* -0.0 == 0.0, but neither has a minus sign */
	memcpy(out, mo->text[i], MEMO_TEXT);
	return mo->len[i];
}

/* "x,y x,y ..." in pixels. */
static void
put_points(struct crown_tval *m, const char *key, struct layout *l,
    const struct crown_point *p, size_t n)
{
	/* a unit's outline or a stand: four points, written in place (not
	 * cleared: 5 KB a call) */
	char	 small[8 * (2 * CROWN_FMT_MAX + 2)], *out = small;
	size_t	 i, len = 0;

	if (n > 8)
		out = xreallocarray(NULL, n, 2 * CROWN_FMT_MAX + 2);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			out[len++] = ' ';
		len += memo_fmt(&l->memo[0], out + len, px(l, p[i].x));
		out[len++] = ',';
		len += memo_fmt(&l->memo[1], out + len, py(l, p[i].y));
	}
	crown_tmap_strn(m, key, out, len);
	if (out != small)
		free(out);
}

/* A number of a point, x (axis 0) or y, by the memo; inline, as
 * memo_fmt. */
static inline void
put_xy(struct crown_tval *m, const char *key, struct layout *l, int axis,
    double v)
{
	char	buf[CROWN_FMT_MAX];

	crown_tmap_strn(m, key, buf, memo_fmt(&l->memo[axis], buf, v));
}

static void
put_line(struct crown_tval *m, struct layout *l, struct crown_point a,
    struct crown_point b)
{
	put_xy(m, "x1", l, 0, px(l, a.x));
	put_xy(m, "y1", l, 1, py(l, a.y));
	put_xy(m, "x2", l, 0, px(l, b.x));
	put_xy(m, "y2", l, 1, py(l, b.y));
}

static const struct crown_unit *
find_unit(const struct crown_report_input *in, const char *id)
{
	const struct crown_unit	*u;

	if (id == NULL)
		return NULL;
	if ((u = crown_state_unit(in->after, id)) != NULL)
		return u;
	return in->before != NULL ? crown_state_unit(in->before, id) : NULL;
}

static const struct crown_feature *
find_feature(const struct crown_state *s, const char *id)
{
	size_t	i;

	if (id == NULL)
		return NULL;
	if (strncmp(id, "building:", 9) == 0)
		id += 9;
	for (i = 0; i < s->nterrain; i++)
		if (strcmp(s->terrain[i].id, id) == 0)
			return &s->terrain[i];
	return NULL;
}

static struct crown_point
feature_centre(const struct crown_feature *f)
{
	struct crown_geom_box	b;
	double			len;

	if (f->npts == 0)
		return (struct crown_point){ 0, 0 };
	if (f->is_path) {
		len = crown_geom_path_length(f->pts, f->npts);
		return crown_geom_path_point(f->pts, f->npts, len / 2);
	}
	b = crown_geom_bounds(f->pts, f->npts);
	return (struct crown_point){ (b.minx + b.maxx) / 2,
	    (b.miny + b.maxy) / 2 };
}

static struct crown_point
unit_centre(const struct crown_report_input *in, const struct crown_unit *u)
{
	struct crown_quad	q;

	crown_unit_footprint(&q, in->rules, u);
	return crown_geom_quad_centre(&q);
}

/* A text's width in pixels, by the estimate of svg.h. */
static double
text_w(const char *s, double size)
{
	size_t	n = 0;

	for (; s != NULL && *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return (double)n * size * CROWN_SVG_CHAR_EM;
}

/* The box of a text centred on x with its baseline at y. */
static struct crown_geom_box
text_box(double x, double y, double w, double size)
{
	return (struct crown_geom_box){ x - w / 2, y - 0.8 * size, x + w / 2,
	    y + 0.2 * size };
}

static struct crown_geom_box
pad(struct crown_geom_box b, double by)
{
	return (struct crown_geom_box){ b.minx - by, b.miny - by,
	    b.maxx + by, b.maxy + by };
}

/* A text of the map at (x, baseline y), centred, that labels avoid. */
static void
put_text(struct layout *l, double x, double y, const char *text,
    const char *kind, double size, bool fixed)
{
	struct crown_tval	*m;

	m = crown_tlist_map(l->labels);
	put_xy(m, "x", l, 0, x);
	put_xy(m, "y", l, 1, y);
	crown_tmap_str(m, "text", text);
	crown_tmap_str(m, "kind", kind);
	if (fixed)
		crown_place_text(l->place, pad(text_box(x, y, text_w(text,
		    size), size), LABEL_PAD));
}

/* The pixel box of points of the table. */
static struct crown_geom_box
px_box(const struct layout *l, const struct crown_point *p, size_t n)
{
	struct crown_geom_box	b = { 0, 0, 0, 0 };
	size_t			i;

	for (i = 0; i < n; i++) {
		if (i == 0 || px(l, p[i].x) < b.minx)
			b.minx = px(l, p[i].x);
		if (i == 0 || px(l, p[i].x) > b.maxx)
			b.maxx = px(l, p[i].x);
		if (i == 0 || py(l, p[i].y) < b.miny)
			b.miny = py(l, p[i].y);
		if (i == 0 || py(l, p[i].y) > b.maxy)
			b.maxy = py(l, p[i].y);
	}
	return b;
}

static double
clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Place a label of up to two lines (the second may be NULL) for what
 * lies in box `at`; with a line back to its centre when it had to move
 * away.
 */
static void
place_label(struct layout *l, struct crown_geom_box at, const char *line1,
    const char *kind1, double size1, const char *line2, const char *kind2,
    double size2, bool centred)
{
	struct crown_geom_box	b;
	struct crown_tval	*m;
	double			w, h, cx, cy, x;

	w = text_w(line1, size1);
	h = size1;
	if (line2 != NULL) {
		if (text_w(line2, size2) > w)
			w = text_w(line2, size2);
		h += size2;
	}
	if (!crown_place_label(&b, l->place, at, w + 2 * LABEL_PAD,
	    h + 2 * LABEL_PAD, centred)) {
		cx = (at.minx + at.maxx) / 2;
		cy = (at.miny + at.maxy) / 2;
		m = crown_tlist_map(l->lines);
		put1(m, "x1", cx);
		put1(m, "y1", cy);
		put1(m, "x2", clamp(cx, b.minx, b.maxx));
		put1(m, "y2", clamp(cy, b.miny, b.maxy));
	}
	x = (b.minx + b.maxx) / 2;
	put_text(l, x, b.miny + LABEL_PAD + 0.8 * size1, line1, kind1, size1,
	    false);
	if (line2 != NULL)
		put_text(l, x, b.miny + LABEL_PAD + size1 + 0.8 * size2, line2,
		    kind2, size2, false);
}

static void
model_terrain(struct crown_tval *list, struct layout *l,
    const struct crown_report_input *in, int pass)
{
	const struct crown_feature	*f;
	struct crown_tval		*m;
	char				*type;
	size_t				 i;
	int				 want;

	for (i = 0; i < in->after->nterrain; i++) {
		f = &in->after->terrain[i];
		/* areas, then paths (roads over hills), then buildings */
		want = f->type == CROWN_BUILDING ? 2 : f->is_path ? 1 : 0;
		if (want != pass || f->npts == 0)
			continue;
		m = crown_tlist_map(list);
		crown_tmap_str(m, "id", f->id);
		crown_tmap_str(m, "label", f->name != NULL ? f->name : f->id);
		crown_tmap_str(m, "type", crown_terrain_names[f->type]);
		type = crown_words_dup(crown_terrain_names[f->type]);
		crown_tmap_str(m, "type_name", type);
		free(type);
		put_points(m, "points", l, f->pts, f->npts);
		crown_tmap_bool(m, f->is_path ? "line" : "area", true);
		/* a road's width to scale; walls and bare paths a thin line */
		put1(m, "width", f->width > 0 ? f->width * l->scale : 3.0);
		if (f->type == CROWN_BUILDING) {
			crown_tmap_bool(m, "building", true);
			crown_tmap_int(m, "bclass", f->bclass);
			if (f->damage > 0)
				crown_tmap_int(m, "damage", f->damage);
		}
	}
}

/* The names of buildings, then of the other areas, round their middle. */
static void
label_terrain(struct layout *l, const struct crown_report_input *in)
{
	const struct crown_feature	*f;
	struct crown_geom_box		 at;
	struct crown_point		 c;
	char				*text;
	size_t				 i;
	int				 pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < in->after->nterrain; i++) {
			f = &in->after->terrain[i];
			if (f->npts == 0 || f->is_path ||
			    (f->type == CROWN_BUILDING) != (pass == 0))
				continue;
			if (pass == 0) {
				at = px_box(l, f->pts, f->npts);
				text = f->damage > 0 ? xasprintf("%s (class "
				    "%d, %d hit%s)", f->name != NULL ?
				    f->name : f->id, f->bclass, f->damage,
				    f->damage == 1 ? "" : "s") :
				    xasprintf("%s (class %d)", f->name !=
				    NULL ? f->name : f->id, f->bclass);
			} else {
				c = feature_centre(f);
				at.minx = at.maxx = px(l, c.x);
				at.miny = at.maxy = py(l, c.y);
				text = xstrdup(f->name != NULL ? f->name :
				    f->id);
			}
			place_label(l, at, text, pass == 0 ? "building-name" :
			    "terrain-name", FONT_TERRAIN, NULL, NULL, 0, true);
			free(text);
		}
}

/* The most strength writes: three numbers and its words. */
#define STRENGTH_MAX	(3 * CROWN_FMT_MAX + 48)

/* s at p; where it ends. */
static char *
put_word(char *p, const char *s)
{
	size_t	n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* "4 st, 16 fig", "3 of 4 st, 10 fig, routing", "gun, 4 crew, limbered",
 * "4 st, 16 fig, in melee" (R9.8) at buf (STRENGTH_MAX bytes), without
 * printf's cost. */
static void
strength(char *buf, const struct crown_state *s, const struct crown_unit *u)
{
	int	side;
	char	*p = buf;
	int	 st = crown_unit_stands(u);

	if (u->status == CROWN_LOST) {
		strcpy(buf, u->abandoned ? "abandoned" : "lost");
		return;
	}
	if (crown_is_artillery(u->type)) {
		p = put_word(p, "gun, ");
		p += crown_fmt_long(p, crown_unit_figures(u));
		p = put_word(p, " crew");
	} else {
		p += crown_fmt_long(p, st);
		if (st < u->start_stands) {
			p = put_word(p, " of ");
			p += crown_fmt_long(p, u->start_stands);
		}
		p = put_word(p, " st, ");
		p += crown_fmt_long(p, crown_unit_figures(u));
		p = put_word(p, " fig");
	}
	if (u->status == CROWN_ROUTING)
		p = put_word(p, ", routing");
	if (u->disordered)
		p = put_word(p, ", disordered");
	if (crown_is_artillery(u->type) && u->limbered)
		p = put_word(p, ", limbered");
	if (u->status == CROWN_OK_STATUS && crown_state_melee(s, u, &side))
		p = put_word(p, ", in melee");
	*p = '\0';
}

/* Unit u, of footprint q. */
static void
model_unit(struct crown_tval *m, struct layout *l,
    const struct crown_report_input *in, const struct crown_unit *u,
    const struct crown_quad *q)
{
	struct crown_quad	few[16], *st = few;
	struct crown_point	front, dir, side, tri[3];
	struct crown_tval	*list;
	int			si, n, k;

	si = crown_state_side(in->after, u->side);
	crown_tmap_str(m, "id", u->id);
	crown_tmap_str(m, "name", u->name);
	crown_tmap_str(m, "side", u->side);
	crown_tmap_int(m, "side_index", si < 0 ? 0 : si);
	crown_tmap_str(m, "status", crown_status_names[u->status]);
	crown_tmap_str(m, "type", crown_utype_names[u->type]);
	if (u->status == CROWN_ROUTING) {
		crown_tmap_bool(m, "routing", true);
		l->sym[SYM_ROUTING] = true;
	}
	if (u->disordered)
		crown_tmap_bool(m, "disordered", true);
	put_points(m, "points", l, q->c, 4);
	list = crown_tmap_list(m, "stands");
	if (u->status == CROWN_LOST) {
		/* a marker where it was lost, no stands */
		crown_tmap_bool(m, "lost", true);
		l->sym[SYM_LOST] = true;
		return;
	}
	/* a unit has a few stands: laid out once, not counted first */
	n = crown_unit_stand_footprints(few, CROWN_NELEM(few), in->rules, u);
	if ((size_t)n > CROWN_NELEM(few)) {
		st = xreallocarray(NULL, (size_t)n, sizeof(*st));
		crown_unit_stand_footprints(st, (size_t)n, in->rules, u);
	}
	for (k = 0; k < n; k++)
		put_points(crown_tlist_map(list), "points", l, st[k].c, 4);
	if (st != few)
		free(st);
	put_line(m, l, q->c[0], q->c[1]);
	/* the facing: a small triangle ahead of the front edge's centre */
	front = (struct crown_point){ u->x, u->y };
	dir = crown_geom_dir(u->facing);
	side = crown_geom_dir(u->facing + 90);
	tri[0] = (struct crown_point){ front.x + dir.x * FACING_TIP,
	    front.y + dir.y * FACING_TIP };
	tri[1] = (struct crown_point){ front.x + side.x * FACING_HALF,
	    front.y + side.y * FACING_HALF };
	tri[2] = (struct crown_point){ front.x - side.x * FACING_HALF,
	    front.y - side.y * FACING_HALF };
	put_points(m, "facing", l, tri, 3);
}

/* Where a leader's mark goes: his place, or the middle of his unit. */
static bool
leader_mark(struct crown_point *out, const struct crown_report_input *in,
    const struct crown_leader *ld)
{
	const struct crown_unit	*u;

	if (ld->status != CROWN_LEADER_OK)
		return false;
	if (ld->attached != NULL &&
	    (u = crown_state_unit(in->after, ld->attached)) != NULL)
		*out = unit_centre(in, u);
	else
		*out = crown_leader_pos(in->after, ld);
	return true;
}

static struct crown_geom_box
mark_box(const struct layout *l, struct crown_point p)
{
	return (struct crown_geom_box){ px(l, p.x) - LEADER_R,
	    py(l, p.y) - LEADER_R, px(l, p.x) + LEADER_R,
	    py(l, p.y) + LEADER_R };
}

/* Units and leaders, for their labels to avoid; each unit's box kept for
 * its label. */
static void
model_forces(struct crown_tval *map, struct layout *l,
    const struct crown_report_input *in)
{
	const struct crown_state	*s = in->after;
	const struct crown_leader	*ld;
	const struct crown_unit		*u;
	struct crown_tval		*list, *m;
	struct crown_quad		 q;
	struct crown_point		 p;
	size_t				 i;
	int				 si;

	list = crown_tmap_list(map, "units");
	l->units = xreallocarray(NULL, s->nunits, sizeof(*l->units));
	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		crown_unit_footprint(&q, in->rules, u);
		model_unit(crown_tlist_map(list), l, in, u, &q);
		l->units[i] = px_box(l, q.c, 4);
		crown_place_avoid(l->place, l->units[i]);
	}
	list = crown_tmap_list(map, "leaders");
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (!leader_mark(&p, in, ld))
			continue;
		m = crown_tlist_map(list);
		si = crown_state_side(s, ld->side);
		crown_tmap_str(m, "id", ld->id);
		crown_tmap_str(m, "name", ld->name != NULL ? ld->name :
		    ld->id);
		crown_tmap_int(m, "side_index", si < 0 ? 0 : si);
		put1(m, "x", px(l, p.x));
		put1(m, "y", py(l, p.y));
		if (ld->attached != NULL)
			crown_tmap_bool(m, "attached", true);
		crown_place_avoid(l->place, mark_box(l, p));
		l->sym[SYM_LEADER] = true;
	}
}

/* The names and strengths of units, the names of leaders. */
static void
label_forces(struct layout *l, const struct crown_report_input *in)
{
	const struct crown_state	*s = in->after;
	const struct crown_leader	*ld;
	const struct crown_unit		*u;
	struct crown_point		 p;
	char				 text[STRENGTH_MAX];
	size_t				 i;

	for (i = 0; i < s->nunits; i++) {
		u = &s->units[i];
		strength(text, s, u);
		place_label(l, l->units[i], u->name, "unit-name",
		    FONT_UNIT, text, "strength", FONT_STRENGTH, false);
	}
	for (i = 0; i < s->nleaders; i++) {
		ld = &s->leaders[i];
		if (leader_mark(&p, in, ld))
			place_label(l, mark_box(l, p), ld->name != NULL ?
			    ld->name : ld->id, "leader-name", FONT_LEADER,
			    NULL, NULL, 0, false);
	}
}

static const char *
move_class(const char *kind)
{
	if (strcmp(kind, "charge_move") == 0)
		return "charge";
	if (strcmp(kind, "rout_move") == 0)
		return "rout";
	if (strcmp(kind, "retire") == 0)
		return "retire";
	return "move";
}

static enum symbol
move_symbol(const char *cls)
{
	if (strcmp(cls, "charge") == 0)
		return SYM_CHARGE;
	if (strcmp(cls, "rout") == 0)
		return SYM_ROUT;
	if (strcmp(cls, "retire") == 0)
		return SYM_RETIRE;
	if (strcmp(cls, "leader") == 0)
		return SYM_LEADER_MOVE;
	return SYM_MOVE;
}

/* A melee between a and b, drawn once however often it is named. */
struct pairs {
	const char	**v;
	size_t		  n, cap;
};

static bool
pair_seen(struct pairs *p, const char *a, const char *b)
{
	size_t	i;

	for (i = 0; i + 1 < p->n; i += 2)
		if ((strcmp(p->v[i], a) == 0 && strcmp(p->v[i + 1], b) == 0) ||
		    (strcmp(p->v[i], b) == 0 && strcmp(p->v[i + 1], a) == 0))
			return true;
	crown_grow(&p->v, &p->cap, p->n + 2, sizeof(*p->v));
	p->v[p->n++] = a;
	p->v[p->n++] = b;
	return false;
}

static void
add_melee(struct crown_tval *list, struct pairs *seen, struct layout *l,
    const struct crown_report_input *in, const char *a, const char *b)
{
	const struct crown_unit	*ua = find_unit(in, a), *ub = find_unit(in, b);
	struct crown_tval	*m;
	struct crown_point	 ca, cb;

	if (ua == NULL || ub == NULL || pair_seen(seen, a, b))
		return;
	ca = (struct crown_point){ ua->x, ua->y };
	cb = (struct crown_point){ ub->x, ub->y };
	m = crown_tlist_map(list);
	crown_tmap_str(m, "unit_name", ua->name);
	crown_tmap_str(m, "target_name", ub->name);
	put1(m, "x", px(l, (ca.x + cb.x) / 2));
	put1(m, "y", py(l, (ca.y + cb.y) / 2));
	l->sym[SYM_MELEE] = true;
}

/* A line of the turn, which labels keep off where they can. */
static void
keep_off(struct layout *l, struct crown_point a, struct crown_point b)
{
	crown_place_line(l->place, px(l, a.x), py(l, a.y), px(l, b.x),
	    py(l, b.y));
}

/* The name of what a shot was aimed at: a unit, a leader, a building. */
static const char *
target_name(const struct crown_report_input *in, const char *id)
{
	const struct crown_unit		*u;
	const struct crown_leader	*ld;
	const struct crown_feature	*f;

	if ((u = find_unit(in, id)) != NULL)
		return u->name;
	if (id != NULL && (ld = crown_state_leader(in->after, id)) != NULL)
		return ld->name != NULL ? ld->name : ld->id;
	if ((f = find_feature(in->after, id)) != NULL)
		return f->name != NULL ? f->name : f->id;
	return id != NULL ? id : "";
}

static void
model_events(struct crown_tval *map, struct layout *l,
    const struct crown_report_input *in)
{
	struct crown_tval		*moves, *fire, *melees, *m;
	const struct crown_unit		*u;
	const struct crown_leader	*ld;
	struct pairs			 seen = { 0 };
	const char			*cls, *who;
	size_t				 i;

	moves = crown_tmap_list(map, "moves");
	fire = crown_tmap_list(map, "fire");
	melees = crown_tmap_list(map, "melees");
	for (i = 0; in->events != NULL && i < in->events->n; i++) {
		const struct crown_event *e = &in->events->v[i];

		u = find_unit(in, e->unit);
		if (e->has_from && e->has_to && (e->from.x != e->to.x ||
		    e->from.y != e->to.y)) {
			m = crown_tlist_map(moves);
			put_line(m, l, e->from, e->to);
			keep_off(l, e->from, e->to);
			cls = e->leader != NULL && e->unit == NULL ? "leader" :
			    move_class(e->kind);
			crown_tmap_str(m, "kind", cls);
			l->sym[move_symbol(cls)] = true;
			who = u != NULL ? u->name : NULL;
			if (who == NULL && e->leader != NULL) {
				ld = crown_state_leader(in->after, e->leader);
				who = ld != NULL && ld->name != NULL ?
				    ld->name : e->leader;
			}
			crown_tmap_str(m, "name", who != NULL ? who : "");
			crown_tmap_str(m, "what", strcmp(cls, "leader") == 0 ?
			    "move" : strcmp(cls, "retire") == 0 ?
			    "retirement" : cls);
		}
		/* a shot: from where the firer stood to where its target
		 * stood, when it fired */
		if (e->has_at && u != NULL) {
			m = crown_tlist_map(fire);
			put_line(m, l, e->at, e->target_at);
			keep_off(l, e->at, e->target_at);
			crown_tmap_str(m, "unit_name", u->name);
			crown_tmap_str(m, "target_name", target_name(in,
			    e->target));
			if (crown_is_artillery(u->type))
				crown_tmap_bool(m, "artillery", true);
			if (e->has_casualties) {
				crown_tmap_int(m, "casualties", e->casualties);
				if (e->casualties > 0)
					crown_tmap_bool(m, "hit", true);
			}
			l->sym[SYM_FIRE] = true;
		}
		if (strcmp(e->kind, "melee") == 0 && e->unit != NULL &&
		    e->target != NULL)
			add_melee(melees, &seen, l, in, e->unit, e->target);
	}
	for (i = 0; i < in->after->nmelees; i++) {
		const struct crown_melee *me = &in->after->melees[i];

		if (me->nattackers > 0 && me->ndefenders > 0)
			add_melee(melees, &seen, l, in, me->attackers[0],
			    me->defenders[0]);
	}
	free(seen.v);
}

/* Legend entries from left to right, a new row when one would not fit. */
struct legend {
	struct crown_tval	*list;
	double			 x0, x, y, right;
};

static struct crown_tval *
legend_item(struct legend *lg, const char *label)
{
	struct crown_tval	*m;
	double			 w;

	w = LEGEND_SAMPLE + text_w(label, FONT_LEGEND) + LEGEND_SPACE;
	if (lg->x > lg->x0 && lg->x + w > lg->right) {
		lg->x = lg->x0;
		lg->y += LEGEND_ROW_H;
	}
	m = crown_tlist_map(lg->list);
	put1(m, "x", lg->x);
	put1(m, "y", lg->y);
	put1(m, "x2", lg->x + 16);
	put1(m, "xm", lg->x + 8);
	put1(m, "ym", lg->y + 5);
	put1(m, "tx", lg->x + LEGEND_SAMPLE);
	put1(m, "ty", lg->y + 9);
	crown_tmap_str(m, "label", label);
	lg->x += w;
	return m;
}

static double
model_legend(struct crown_tval *map, const struct layout *l,
    const struct crown_report_input *in, double top, double width)
{
	const struct crown_state *s = in->after;
	struct legend		 lg;
	struct crown_tval	*m;
	bool			 present[CROWN_NTERRAIN] = { false };
	char			*type, flag[32];
	size_t			 i;

	lg.list = crown_tmap_list(map, "legend");
	lg.x0 = lg.x = l->left;
	lg.y = top;
	lg.right = l->left + width;
	for (i = 0; i < s->nsides; i++) {
		m = legend_item(&lg, s->sides[i].name);
		crown_tmap_bool(m, "side", true);
		crown_tmap_int(m, "side_index", (long)i);
	}
	for (i = 0; i < s->nterrain; i++)
		present[s->terrain[i].type] = true;
	for (i = 0; i < CROWN_NTERRAIN; i++) {
		if (!present[i])
			continue;
		type = crown_words_dup(crown_terrain_names[i]);
		m = legend_item(&lg, type);
		free(type);
		crown_tmap_bool(m, "terrain", true);
		crown_tmap_str(m, "type", crown_terrain_names[i]);
		crown_tmap_bool(m, i == CROWN_ROAD || i == CROWN_WALLS ?
		    "line" : "area", true);
	}
	for (i = 0; i < NSYM; i++) {
		if (!l->sym[i])
			continue;
		m = legend_item(&lg, symbol_labels[i]);
		snprintf(flag, sizeof(flag), "sym_%s", symbol_names[i]);
		crown_tmap_bool(m, flag, true);
		crown_tmap_str(m, "symbol", symbol_names[i]);
	}
	return lg.y + LEGEND_ROW_H;
}

static double
model_scale(struct crown_tval *map, const struct layout *l, double top,
    double table_w)
{
	struct crown_tval	*m, *ticks, *t;
	int			 inches, k;

	inches = table_w >= SCALE_BAR_INCHES ? SCALE_BAR_INCHES :
	    (int)table_w;
	if (inches < 1)
		inches = 1;
	m = crown_tmap_map(map, "scale");
	put1(m, "x", l->left);
	put1(m, "y", top);
	put1(m, "y_top", top - 4);
	put1(m, "y_bottom", top + 4);
	put1(m, "y_text", top + 16);
	put1(m, "y_label", top + 4);
	put1(m, "x_end", l->left + inches * l->scale);
	crown_tmap_int(m, "inches", inches);
	put1(m, "label_x", l->left + inches * l->scale + 20.0);
	ticks = crown_tmap_list(m, "ticks");
	for (k = 0; k <= inches; k += GRID_INCHES) {
		t = crown_tlist_map(ticks);
		put1(t, "x", l->left + k * l->scale);
		crown_tmap_int(t, "inches", k);
	}
	if (inches % GRID_INCHES != 0) {
		t = crown_tlist_map(ticks);
		put1(t, "x", l->left + inches * l->scale);
		crown_tmap_int(t, "inches", inches);
	}
	return top + 2 * LEGEND_ROW_H;
}

/* The inches along the four edges, at every grid line and the corners. */
static void
model_coords(struct layout *l, double w_in, double h_in)
{
	char	num[CROWN_FMT_MAX];
	double	w, right, bottom;
	int	k;

	right = px(l, w_in);
	bottom = py(l, 0);
	for (k = 0; k <= w_in; k += GRID_INCHES) {
		crown_fmt_long(num, k);
		put_text(l, px(l, k), l->top - 4, num, "coord", FONT_COORD,
		    true);
		put_text(l, px(l, k), bottom + 4 + 0.8 * FONT_COORD, num,
		    "coord", FONT_COORD, true);
	}
	for (k = 0; k <= h_in; k += GRID_INCHES) {
		crown_fmt_long(num, k);
		w = text_w(num, FONT_COORD);
		/* clear of the inches along the top and bottom */
		put_text(l, l->left - 7 - w / 2, py(l, k) + 0.3 * FONT_COORD,
		    num, "coord", FONT_COORD, true);
		put_text(l, right + 7 + w / 2, py(l, k) + 0.3 * FONT_COORD,
		    num, "coord", FONT_COORD, true);
	}
}

void
crown_svg_model(struct crown_tval *map, const struct crown_report_input *in)
{
	const struct crown_state *s = in->after;
	struct crown_tval	*tbl, *list, *m;
	struct layout		 l;
	char			*title;
	double			 w, h, width, bottom, tw;
	int			 k;

	memset(&l, 0, sizeof(l));
	for (k = 0; k < 1 << MEMO_BITS; k++)
		l.memo[0].v[k] = l.memo[1].v[k] = NAN;
	l.scale = CROWN_SVG_SCALE;
	l.left = MARGIN;
	l.top = TITLE_HEIGHT;
	l.height = s->height;
	w = s->width * l.scale;
	h = s->height * l.scale;
	width = w + 2 * MARGIN;
	if (s->turn == 0)
		title = xasprintf("%s: the opening positions", s->name !=
		    NULL ? s->name : "");
	else
		title = xasprintf("%s: the field after turn %d", s->name !=
		    NULL ? s->name : "", s->turn);
	tw = text_w(title, FONT_TITLE);
	if (width < 2 * MARGIN + tw + 40)
		width = 2 * MARGIN + tw + 40;

	crown_tmap_str(map, "title", s->name);
	crown_tmap_str(map, "heading", title);
	crown_tmap_int(map, "turn", s->turn);
	if (s->turn == 0)
		crown_tmap_bool(map, "opening", true);
	put1(map, "title_x", MARGIN + tw / 2);
	put1(map, "title_y", TITLE_HEIGHT - 14.0);
	put1(map, "scale_px", l.scale);
	m = crown_tmap_map(map, "font");
	put1(m, "title", FONT_TITLE);
	put1(m, "unit", FONT_UNIT);
	put1(m, "strength", FONT_STRENGTH);
	put1(m, "leader", FONT_LEADER);
	put1(m, "terrain", FONT_TERRAIN);
	put1(m, "coord", FONT_COORD);
	put1(m, "legend", FONT_LEGEND);
	tbl = crown_tmap_map(map, "table");
	put1(tbl, "x", l.left);
	put1(tbl, "y", l.top);
	put1(tbl, "w", w);
	put1(tbl, "h", h);
	put1(tbl, "inches_w", s->width);
	put1(tbl, "inches_h", s->height);
	/* north is up: the mark in the title's row, at the right */
	m = crown_tmap_map(map, "north");
	put1(m, "x", width - MARGIN - 14.0);
	put1(m, "y", TITLE_HEIGHT - 26.0);
	put1(m, "tx", width - MARGIN - 4.0);
	put1(m, "ty", TITLE_HEIGHT - 16.0);

	l.place = crown_place_new((struct crown_geom_box){ 2.0,
	    TITLE_HEIGHT - 12.0, width - 2.0, l.top + h + MARGIN - 2.0 });
	l.labels = crown_tmap_list(map, "labels");
	l.lines = crown_tmap_list(map, "label_lines");

	list = crown_tmap_list(map, "grid");
	for (k = GRID_INCHES; k < s->width; k += GRID_INCHES) {
		m = crown_tlist_map(list);
		put_line(m, &l, (struct crown_point){ k, 0 },
		    (struct crown_point){ k, s->height });
	}
	for (k = GRID_INCHES; k < s->height; k += GRID_INCHES) {
		m = crown_tlist_map(list);
		put_line(m, &l, (struct crown_point){ 0, k },
		    (struct crown_point){ s->width, k });
	}
	model_coords(&l, s->width, s->height);

	list = crown_tmap_list(map, "terrain");
	for (k = 0; k < 3; k++)
		model_terrain(list, &l, in, k);
	/* what is drawn first, then the labels, which keep off it */
	model_forces(map, &l, in);
	model_events(map, &l, in);
	label_forces(&l, in);
	label_terrain(&l, in);

	bottom = model_legend(map, &l, in, l.top + h + MARGIN,
	    width - 2 * MARGIN);
	bottom = model_scale(map, &l, bottom + LEGEND_ROW_H / 2, s->width);
	put1(map, "width", width);
	put1(map, "height", bottom + MARGIN / 2);
	crown_place_free(l.place);
	free(l.units);
	free(title);
}

int
crown_svg_opening(struct crown_buf *out, const struct crown_state *s,
    const struct crown_rules *rules, const char *templates,
    struct crown_diags *d)
{
	struct crown_report_input	 in;
	struct crown_events		 none = { 0 };
	struct crown_tmpl_set		*set = NULL;
	struct crown_tval		*root;
	char				*found = NULL;
	int				 error;

	/* as crown_templates_find() finds them (report.c calls this file) */
	if (templates == NULL && (templates = found =
	    crown_data_find("templates")) == NULL) {
		crown_diag_add(d, "templates", 0, 0, NULL, "cannot find the "
		    "map template (looked beside the program and in %s/"
		    "templates); give --templates DIR", CROWN_DATADIR);
		return CROWN_ENOTFOUND;
	}
	memset(&in, 0, sizeof(in));
	in.before = in.after = s;
	in.events = &none;
	in.rules = rules;
	in.templates = templates;
	set = crown_tmpl_set_new(templates);
	root = crown_tval_map();
	if ((error = crown_tmpl_load(set, "map.svg", d)) == 0) {
		crown_svg_model(crown_tmap_map(root, "map"), &in);
		error = crown_tmpl_render(out, set, "map.svg",
		    crown_escape_for("map.svg"), root, d);
	}
	crown_tval_free(root);
	crown_tmpl_set_free(set);
	free(found);
	return error;
}
