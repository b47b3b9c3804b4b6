/*
 * report.h: what a resolved turn produces besides the state and events:
 * the umpire's report, one report per side, and the map (FORMATS.md
 * "Outputs").  Rendered from templates (templates/) so an umpire can
 * change the wording without recompiling.
 */
#ifndef CROWN_REPORT_H
#define CROWN_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/events.h"
#include "crown/orders.h"
#include "crown/outputs.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/xalloc.h"

struct crown_report_input {
	const struct crown_state	*before;	/* the turn's start */
	const struct crown_state	*after;
	const struct crown_events	*events;
	struct crown_orders *const	*orders;
	size_t				 norders;
	const struct crown_rules	*rules;
	const char			*templates;	/* directory */
};

/* Render every report and the map into out (appended, in a fixed order:
 * report.md, report-SIDE.md in the order of the sides, map.svg).  Returns
 * 0, or CROWN_EINVALID / CROWN_ENOTFOUND for bad or missing templates
 * (problems in d). */
int	crown_report_render(struct crown_outputs *out,
	    const struct crown_report_input *, struct crown_diags *d);

/*
 * From now on keep the templates crown_report_render loads, for the next
 * render from the same directory, and load those of dir now (NULL: none
 * yet).  For crown verify, which renders turn after turn from templates
 * that do not change while it runs (their parse was 5 M instructions a
 * turn).  A set with a problem is never kept: each render reports it.
 */
void	crown_report_keep(const char *dir);

/* Stop keeping them, and free the set kept (verify, when it is done:
 * a later render in the same process, a test's, loads its own). */
void	crown_report_keep_end(void);

/*
 * The briefing of a campaign before turn 1 (crown show DIR 0), from its
 * turn-0 state, appended to out in Markdown: the scenario, each side
 * with its players, units and leaders, victory (the text given, the
 * "Victory" section of the game's README, or NULL) and an opening map
 * in text with its key.
 */
void	crown_report_briefing(struct crown_buf *out,
	    const struct crown_state *, const char *victory);

/* A unit's arms as words: its gun for a gun ("howitzer"), else its
 * weapon ("rifled musket").  Into buf, as crown_words (types.h). */
const char *crown_report_arms(char *buf, size_t len,
	    const struct crown_unit *);

/*
 * An orders file for side's next turn (after s->turn), appended to out:
 * every unit of the side with `hold` and, as comments, its place,
 * facing, strength, budget, state and open actions; a routing unit is
 * left to rout on.  YAML, or with shorthand the mail syntax; `crown
 * check` accepts it as it is.  0, CROWN_EINVALID for an unknown side,
 * or CROWN_ERROR.
 */
int	crown_orders_form(struct crown_buf *out, const struct crown_state *s,
	    const struct crown_rules *rules, const char *side, bool shorthand);

/* Where the templates are when no --templates is given: templates/
 * beside the program (or up to two levels above it: a source tree),
 * else CROWN_DATADIR/templates.  Caller frees; NULL if none. */
char	*crown_templates_find(void);

#endif
