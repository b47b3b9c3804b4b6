/*
 * actions.c: the simple actions of R3.4: hold, reload (R3.6) and reform
 * (R3.7), which need nothing but an event.
 */
#include <stdbool.h>

#include "crown/actions.h"
#include "crown/common.h"
#include "crown/context.h"
#include "crown/types.h"

int
crown_action_hold(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	size_t	i;

	i = crown_engine_event(e, "hold", u->id, "R3.4");
	crown_event_set(&crown_events_at(e->ev, i)->text,
	    "%s held its ground.", u->name);
	return 0;
}

int
crown_action_reload(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	if (crown_is_artillery(u->type) && u->limbered) {
		crown_engine_skip(e, u, a, "R6.6",
		    "a limbered gun cannot be loaded");
		return 0;
	}
	i = crown_engine_event(e, "reload", u->id, "R3.6");
	ev = crown_events_at(e->ev, i);
	if (u->loaded && u->shots_fired == 0) {
		crown_event_set(&ev->result, "already_loaded");
		crown_event_set(&ev->text, "%s reloaded, though already "
		    "loaded.", u->name);
	} else {
		crown_event_set(&ev->result, "loaded");
		crown_event_set(&ev->text, "%s reloaded.", u->name);
	}
	u->loaded = true;
	u->shots_fired = 0;
	return 0;
}

int
crown_action_reform(struct crown_engine *e, struct crown_unit *u,
    const struct crown_action_order *a)
{
	struct crown_event	*ev;
	size_t			 i;

	i = crown_engine_event(e, "reform", u->id, "R3.7");
	ev = crown_events_at(e->ev, i);
	crown_event_set(&ev->result, u->disordered ? "reformed" :
	    "in_order");
	crown_event_set(&ev->text, u->disordered ?
	    "%s reformed its ranks and is no longer disordered." :
	    "%s dressed its ranks; it was in good order already.", u->name);
	u->disordered = false;
	return 0;
}
