/*
 * svg.c: the map of a turn as data for map.svg.tmpl (svg.h).
 *
 * The table is drawn to scale, CROWN_SVG_SCALE pixels to the inch, with
 * north up: table point (x, y) is pixel (left + x * scale, top + (height -
 * y) * scale).  Geometry comes from geom.c and crown_unit_footprint; no
 * libm.  Every number is printed with one decimal, so the map is the same
 * bytes on every machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/engine.h"
#include "crown/fmt.h"
#include "crown/geom.h"
#include "crown/svg.h"
#include "crown/unit.h"
#include "crown/xalloc.h"

#define MARGIN		30.0	/* pixels around the table */
#define TITLE_HEIGHT	40.0	/* pixels above it */
#define LEGEND_ITEM_W	170.0	/* one legend entry */
#define LEGEND_ROW_H	22.0
#define GRID_INCHES	6	/* light grid lines every 6 inches */
#define SCALE_BAR_INCHES 12	/* the scale bar, ticked at GRID_INCHES */
#define LABEL_GAP	12.0	/* pixels from a footprint to its label */
#define FACING_TIP	0.6	/* facing mark: inches ahead of the front */
#define FACING_HALF	0.3	/* and its half width */

/* Symbols of the legend, after the sides and terrain types. */
static const char *const legend_symbols[] = {
	"move", "charge", "retire", "rout", "fire", "melee", "routing"
};

struct layout {
	double	scale;
	double	left, top;		/* pixel of the table's north-west */
	double	height;			/* table height, inches */
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

	crown_fmt_fixed(buf, v, 1);
	crown_tmap_str(m, key, buf);
}

/* "x,y x,y ..." in pixels. */
static void
put_points(struct crown_tval *m, const char *key, const struct layout *l,
    const struct crown_point *p, size_t n)
{
	struct crown_buf	b = { 0 };
	char			num[CROWN_FMT_MAX];
	size_t			i;

	crown_buf_puts(&b, "");
	for (i = 0; i < n; i++) {
		if (i > 0)
			crown_buf_add(&b, " ", 1);
		crown_buf_add(&b, num, crown_fmt_fixed(num, px(l, p[i].x), 1));
		crown_buf_add(&b, ",", 1);
		crown_buf_add(&b, num, crown_fmt_fixed(num, py(l, p[i].y), 1));
	}
	crown_tmap_str(m, key, b.data);
	crown_buf_release(&b);
}

static void
put_line(struct crown_tval *m, const struct layout *l, struct crown_point a,
    struct crown_point b)
{
	put1(m, "x1", px(l, a.x));
	put1(m, "y1", py(l, a.y));
	put1(m, "x2", px(l, b.x));
	put1(m, "y2", py(l, b.y));
}

/* "light_woods" -> "light woods", for labels. */
static char *
words(const char *name)
{
	char	*s, *p;

	s = xstrdup(name != NULL ? name : "");
	for (p = s; *p != '\0'; p++)
		if (*p == '_')
			*p = ' ';
	return s;
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

static void
model_terrain(struct crown_tval *list, const struct layout *l,
    const struct crown_report_input *in, int pass)
{
	const struct crown_feature	*f;
	struct crown_tval		*m;
	struct crown_point		 c;
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
		type = words(crown_terrain_names[f->type]);
		crown_tmap_str(m, "type_name", type);
		free(type);
		put_points(m, "points", l, f->pts, f->npts);
		crown_tmap_bool(m, f->is_path ? "line" : "area", true);
		/* a road's width to scale; walls and bare paths a thin line */
		put1(m, "width", f->width > 0 ? f->width * l->scale : 3.0);
		c = feature_centre(f);
		put1(m, "label_x", px(l, c.x));
		put1(m, "label_y", py(l, c.y));
		if (f->type == CROWN_BUILDING) {
			crown_tmap_bool(m, "building", true);
			crown_tmap_int(m, "bclass", f->bclass);
			if (f->damage > 0)
				crown_tmap_int(m, "damage", f->damage);
		}
	}
}

static void
model_unit(struct crown_tval *m, const struct layout *l,
    const struct crown_report_input *in, const struct crown_unit *u)
{
	struct crown_quad	q;
	struct crown_point	front, dir, side, tri[3];
	double			bottom;
	int			k, si;

	crown_unit_footprint(&q, in->rules, u);
	si = crown_state_side(in->after, u->side);
	crown_tmap_str(m, "id", u->id);
	crown_tmap_str(m, "name", u->name);
	crown_tmap_str(m, "side", u->side);
	crown_tmap_int(m, "side_index", si < 0 ? 0 : si);
	crown_tmap_str(m, "status", crown_status_names[u->status]);
	crown_tmap_str(m, "type", crown_utype_names[u->type]);
	if (u->status == CROWN_ROUTING)
		crown_tmap_bool(m, "routing", true);
	if (u->status == CROWN_LOST)
		crown_tmap_bool(m, "lost", true);
	if (u->disordered)
		crown_tmap_bool(m, "disordered", true);
	put_points(m, "points", l, q.c, 4);
	put_line(m, l, q.c[0], q.c[1]);
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
	bottom = py(l, q.c[0].y);
	for (k = 1; k < 4; k++)
		if (py(l, q.c[k].y) > bottom)
			bottom = py(l, q.c[k].y);
	put1(m, "label_x", px(l, crown_geom_quad_centre(&q).x));
	put1(m, "label_y", bottom + LABEL_GAP);
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

static bool
is_fire(const char *kind)
{
	return strcmp(kind, "fire") == 0 ||
	    strcmp(kind, "artillery_fire") == 0 ||
	    strcmp(kind, "reaction_fire") == 0 ||
	    strcmp(kind, "building_hit") == 0;
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
add_melee(struct crown_tval *list, struct pairs *seen, const struct layout *l,
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
}

static void
model_events(struct crown_tval *map, const struct layout *l,
    const struct crown_report_input *in)
{
	struct crown_tval	*moves, *fire, *melees, *m;
	const struct crown_unit	*u, *t;
	const struct crown_feature *f;
	struct pairs		 seen = { 0 };
	struct crown_point	 a, b;
	size_t			 i;

	moves = crown_tmap_list(map, "moves");
	fire = crown_tmap_list(map, "fire");
	melees = crown_tmap_list(map, "melees");
	for (i = 0; in->events != NULL && i < in->events->n; i++) {
		const struct crown_event *e = &in->events->v[i];

		if (e->has_from && e->has_to && (e->from.x != e->to.x ||
		    e->from.y != e->to.y)) {
			m = crown_tlist_map(moves);
			put_line(m, l, e->from, e->to);
			crown_tmap_str(m, "kind", e->leader != NULL &&
			    e->unit == NULL ? "leader" : move_class(e->kind));
			if ((u = find_unit(in, e->unit)) != NULL)
				crown_tmap_str(m, "unit_name", u->name);
		}
		if (is_fire(e->kind) && (u = find_unit(in, e->unit)) != NULL) {
			t = find_unit(in, e->target);
			f = t == NULL ? find_feature(in->after, e->target) :
			    NULL;
			if (t == NULL && f == NULL)
				continue;
			a = (struct crown_point){ u->x, u->y };
			b = t != NULL ? unit_centre(in, t) : feature_centre(f);
			m = crown_tlist_map(fire);
			put_line(m, l, a, b);
			crown_tmap_str(m, "unit_name", u->name);
			crown_tmap_str(m, "target_name", t != NULL ? t->name :
			    f->name != NULL ? f->name : f->id);
			if (crown_is_artillery(u->type))
				crown_tmap_bool(m, "artillery", true);
			if (e->has_casualties)
				crown_tmap_int(m, "casualties", e->casualties);
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

/* Legend entries in rows of as many as fit across the drawing. */
struct legend {
	struct crown_tval	*list;
	double			 x0, y0, width;
	size_t			 n;
};

static struct crown_tval *
legend_item(struct legend *lg)
{
	struct crown_tval	*m;
	size_t			 per_row;

	per_row = (size_t)(lg->width / LEGEND_ITEM_W);
	if (per_row < 1)
		per_row = 1;
	m = crown_tlist_map(lg->list);
	put1(m, "x", lg->x0 + (double)(lg->n % per_row) * LEGEND_ITEM_W);
	put1(m, "y", lg->y0 + (double)(lg->n / per_row) * LEGEND_ROW_H);
	lg->n++;
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
	size_t			 i, per_row;

	lg.list = crown_tmap_list(map, "legend");
	lg.x0 = l->left;
	lg.y0 = top;
	lg.width = width;
	lg.n = 0;
	for (i = 0; i < s->nsides; i++) {
		m = legend_item(&lg);
		crown_tmap_bool(m, "side", true);
		crown_tmap_int(m, "side_index", (long)i);
		crown_tmap_str(m, "label", s->sides[i].name);
	}
	for (i = 0; i < s->nterrain; i++)
		present[s->terrain[i].type] = true;
	for (i = 0; i < CROWN_NTERRAIN; i++) {
		if (!present[i])
			continue;
		m = legend_item(&lg);
		crown_tmap_bool(m, "terrain", true);
		crown_tmap_str(m, "type", crown_terrain_names[i]);
		type = words(crown_terrain_names[i]);
		crown_tmap_str(m, "label", type);
		free(type);
		crown_tmap_bool(m, i == CROWN_ROAD || i == CROWN_WALLS ?
		    "line" : "area", true);
	}
	for (i = 0; i < CROWN_NELEM(legend_symbols); i++) {
		m = legend_item(&lg);
		snprintf(flag, sizeof(flag), "sym_%s", legend_symbols[i]);
		crown_tmap_bool(m, flag, true);
		crown_tmap_str(m, "symbol", legend_symbols[i]);
	}
	per_row = (size_t)(width / LEGEND_ITEM_W);
	if (per_row < 1)
		per_row = 1;
	return top + (double)((lg.n + per_row - 1) / per_row) * LEGEND_ROW_H;
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

void
crown_svg_model(struct crown_tval *map, const struct crown_report_input *in)
{
	const struct crown_state *s = in->after;
	struct crown_tval	*tbl, *list, *m;
	struct layout		 l;
	double			 w, h, width, bottom;
	size_t			 i;
	int			 k;

	l.scale = CROWN_SVG_SCALE;
	l.left = MARGIN;
	l.top = TITLE_HEIGHT;
	l.height = s->height;
	w = s->width * l.scale;
	h = s->height * l.scale;
	width = w + 2 * MARGIN;
	if (width < 2 * MARGIN + 2 * LEGEND_ITEM_W)
		width = 2 * MARGIN + 2 * LEGEND_ITEM_W;

	crown_tmap_str(map, "title", s->name);
	crown_tmap_int(map, "turn", s->turn);
	put1(map, "title_x", MARGIN);
	put1(map, "title_y", TITLE_HEIGHT - 14.0);
	put1(map, "scale_px", l.scale);
	tbl = crown_tmap_map(map, "table");
	put1(tbl, "x", l.left);
	put1(tbl, "y", l.top);
	put1(tbl, "w", w);
	put1(tbl, "h", h);
	put1(tbl, "inches_w", s->width);
	put1(tbl, "inches_h", s->height);
	/* north is up: the mark sits at the table's north-east corner */
	m = crown_tmap_map(map, "north");
	put1(m, "x", l.left + w - 10.0);
	put1(m, "y", l.top - 14.0);

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

	list = crown_tmap_list(map, "terrain");
	for (k = 0; k < 3; k++)
		model_terrain(list, &l, in, k);

	list = crown_tmap_list(map, "units");
	for (i = 0; i < s->nunits; i++)
		model_unit(crown_tlist_map(list), &l, in, &s->units[i]);

	model_events(map, &l, in);

	bottom = model_legend(map, &l, in, l.top + h + MARGIN,
	    width - 2 * MARGIN);
	bottom = model_scale(map, &l, bottom + LEGEND_ROW_H / 2, s->width);
	put1(map, "width", width);
	put1(map, "height", bottom + MARGIN / 2);
}
