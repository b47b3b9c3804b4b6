/*
 * render.c: a turn's reports and map rendered (crown_report_render): the
 * umpire's model and each side's made in one tree (report.c makes the
 * events, units and leaders, carried.c what comes from the orders), then
 * report.md, report-SIDE.md and map.svg from the templates of the
 * templates directory, which crown_report_keep can keep loaded for a run
 * of many turns.
 */
#include <stdlib.h>
#include <string.h>

#include "crown/paths.h"
#include "crown/report.h"
#include "crown/svg.h"
#include "crown/template.h"
#include "crown/xalloc.h"
#include "report-model.h"

/* The model of the umpire's report (side NULL) or a side's, in sh's tree. */
static struct crown_tval *
model_new(struct shared *sh, const char *side)
{
	const struct crown_report_input	*in = sh->in;
	struct model			 mo = { in, side, sh };
	struct crown_tval		*root, *g, *m;
	int				 i;

	root = crown_tmap_map(sh->root, side != NULL ? side : "umpire");
	g = crown_tmap_map(root, "game");
	crown_tmap_str(g, "name", in->after->name);
	crown_tmap_int(g, "turn", in->after->turn);
	crown_tmap_str(g, "attacker",
	    crown_rm_side_name(&mo, in->after->attacker));
	if (in->after->last_turn > 0) {
		crown_tmap_int(g, "last_turn", in->after->last_turn);
		crown_tmap_bool(g, "final_turn",
		    in->after->turn >= in->after->last_turn);
	}
	if (in->rules != NULL) {
		crown_tmap_str(g, "rules", in->rules->id);
		crown_tmap_str(g, "rules_title", in->rules->title);
	}
	if (side == NULL)
		crown_tmap_bool(root, "umpire", true);
	else if ((i = crown_state_side(in->after, side)) >= 0) {
		m = crown_tmap_map(root, "side");
		crown_tmap_str(m, "id", side);
		crown_tmap_str(m, "name", in->after->sides[i].name);
		crown_rm_put_words(m, "home_edge",
		    crown_edge_names[in->after->sides[i].home_edge]);
	}
	crown_rm_sides(root, &mo);
	crown_rm_halves(root, &mo);
	crown_rm_orders(root, &mo);
	crown_rm_skipped(root, &mo);
	crown_rm_attention(root, &mo);
	crown_rm_units(root, &mo);
	crown_rm_leaders(root, &mo);
	return root;
}

static int
render_one(struct crown_outputs *out, struct crown_tmpl_set *set,
    const char *tmpl, const char *name, const struct crown_tval *ctx,
    struct crown_diags *d)
{
	struct crown_buf	*b;

	b = crown_outputs_add(out, name);
	return crown_tmpl_render(b, set, tmpl, crown_escape_for(name), ctx, d);
}

/*
 * The templates kept from one render to the next (crown_report_keep).
 * Off by default: a process that renders once gains nothing, and one
 * that changes the files between renders (the tests) must see them anew.
 */
static struct {
	bool			 on;
	char			*dir;
	struct crown_tmpl_set	*set;
} kept;

/* The report templates of dir, every one loaded, in *out; or an error
 * (problems in d). */
static int
templates_load(struct crown_tmpl_set **out, const char *dir,
    struct crown_diags *d)
{
	static const char *const templates[] = {
		"report.md", "report-side.md", "map.svg"
	};
	size_t	i;
	int	error = 0, e;

	*out = NULL;
	if (dir == NULL) {
		crown_diag_add(d, "templates", 0, 0, NULL, "cannot find the "
		    "report templates (looked beside the program and in %s/"
		    "templates); give --templates DIR", CROWN_DATADIR);
		return CROWN_ENOTFOUND;
	}
	if (kept.set != NULL && strcmp(kept.dir, dir) == 0) {
		*out = kept.set;
		return 0;
	}
	*out = crown_tmpl_set_new(dir);
	/* every template first, so that all their problems come out at
	 * once and nothing is rendered from a broken set */
	for (i = 0; i < CROWN_NELEM(templates); i++) {
		e = crown_tmpl_load(*out, templates[i], d);
		if (e == CROWN_ENOTFOUND || error == 0)
			error = e != 0 ? e : error;
	}
	if (error != 0) {
		crown_tmpl_set_free(*out);
		*out = NULL;
		return error;
	}
	if (kept.on) {
		free(kept.dir);
		crown_tmpl_set_free(kept.set);
		kept.dir = xstrdup(dir);
		kept.set = *out;
	}
	return 0;
}

void
crown_report_keep_end(void)
{
	free(kept.dir);
	crown_tmpl_set_free(kept.set);
	memset(&kept, 0, sizeof(kept));
}

void
crown_report_keep(const char *dir)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_tmpl_set	*set;

	kept.on = true;
	/* a problem with them is each render's to report */
	(void)templates_load(&set, dir, &quiet);
	crown_diags_release(&quiet);
}

int
crown_report_render(struct crown_outputs *out,
    const struct crown_report_input *in, struct crown_diags *d)
{
	struct crown_tmpl_set	*set;
	struct crown_tval	*umpire, *ctx;
	struct shared		 sh;
	char			*name;
	size_t			 i;
	int			 error;

	if ((error = templates_load(&set, in->templates, d)) != 0)
		return error;

	crown_rm_shared_init(&sh, in);
	umpire = model_new(&sh, NULL);
	error = render_one(out, set, "report.md", "report.md", umpire, d);
	for (i = 0; i < in->after->nsides && error == 0; i++) {
		ctx = model_new(&sh, in->after->sides[i].id);
		name = xasprintf("report-%s.md", in->after->sides[i].id);
		error = render_one(out, set, "report-side.md", name, ctx, d);
		free(name);
	}
	if (error == 0) {
		/* the map: the umpire's model and the drawing */
		crown_svg_model(crown_tmap_map(umpire, "map"), in);
		error = render_one(out, set, "map.svg", "map.svg", umpire, d);
	}
	crown_rm_shared_release(&sh);
	if (set != kept.set)
		crown_tmpl_set_free(set);
	return error;
}
