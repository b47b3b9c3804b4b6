/*
 * svg.h: the map of a turn (map.svg).  svg.c lays the table out to scale
 * (terrain, units as their footprints, this turn's moves, fire, melees and
 * routs, a legend and a scale in inches) as data for the template
 * map.svg.tmpl, which draws it; the umpire can restyle the map there.
 */
#ifndef CROWN_SVG_H
#define CROWN_SVG_H

#include "crown/diag.h"
#include "crown/report.h"
#include "crown/template.h"

/* Pixels per inch of the drawing. */
#define CROWN_SVG_SCALE 10.0

/*
 * The width of a character, in ems, that the layout reckons with when it
 * places labels so that they do not collide: one figure for every glyph
 * (DejaVu Sans averages about 0.55 em in mixed text; capitals are wider,
 * hence some margin).  A line of text takes its font size in height.
 */
#define CROWN_SVG_CHAR_EM 0.6

/*
 * Fill map (a template map) with the drawing of in->after and the events
 * of the turn: every coordinate in pixels with one decimal, y down.  Keys
 * are listed in doc/formats.md ("Report templates").
 */
void	crown_svg_model(struct crown_tval *map,
	    const struct crown_report_input *in);

/*
 * The opening map (turns/turn-000/map.svg, which crown new writes and the
 * briefing mails): the turn-0 state s drawn by map.svg.tmpl of the
 * templates directory (crown_templates_find() when NULL), appended to
 * out.  0, or CROWN_ENOTFOUND / CROWN_EINVALID with the problems in d.
 */
int	crown_svg_opening(struct crown_buf *out, const struct crown_state *s,
	    const struct crown_rules *rules, const char *templates,
	    struct crown_diags *d);

#endif
