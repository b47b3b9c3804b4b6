/*
 * enrol.c: a player added by crown roster is sent the briefing of turn 0
 * with the campaign as it stands (issue 20).  Apart from amend.c, which
 * campaign.c calls, because this loads a turn through campaign.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

int
crown_campaign_brief_player(struct crown_outputs *mails,
    struct crown_history *h, const struct crown_chain *c,
    const struct crown_campaign *now, const char *side,
    const struct crown_stamp *stamp, const char *victory,
    struct crown_diags *d)
{
	const struct crown_side	*sd;
	struct crown_campaign	 opening = { 0 };
	struct crown_buf	 map = { 0 };
	struct crown_roster	 ro = { 0 };
	struct crown_outputs	 notes = { 0 };
	char			*when, *path;
	size_t			 sent;
	int			 error;

	sd = &now->state->sides[crown_state_side(now->state, side)];
	if ((error = crown_campaign_load(&opening, h, c->l.v[c->at[0]].id,
	    "turn-0", d)) != 0)
		return error;
	/* a campaign begun before opening maps has none for turn 0 */
	path = xasprintf("turns/turn-%03d/map.svg", c->last);
	error = crown_history_read(&map, h, c->l.v[c->at[c->last]].id,
	    path, d);
	free(path);
	if (error == CROWN_ENOTFOUND)
		map.len = 0;
	else if (error != 0) {
		crown_campaign_release(&opening);
		return error;
	}
	/* the credentials crown roster add saved: how the player proves he
	 * is */
	path = crown_roster_path(crown_history_workdir(h));
	error = crown_roster_load(&ro, path, d);
	free(path);
	when = xasprintf("@%lld", stamp->time);
	if (error == 0) {
		crown_mail_notes(&notes, now->state, &ro);
		error = crown_mail_briefing(mails, opening.state, now->state,
		    now->rules, &notes, victory, &map,
		    sd->players[sd->nplayers - 1].email, when, &sent, d);
	}
	crown_outputs_release(&notes);
	crown_roster_release(&ro);
	crown_buf_release(&map);
	free(when);
	crown_campaign_release(&opening);
	return error;
}
