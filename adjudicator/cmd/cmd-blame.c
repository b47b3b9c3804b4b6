/*
 * cmd-blame.c: crown blame: a unit's whole story over the campaign, turn
 * by turn, as the history holds it: what it did and what was done to it
 * (every event naming it as actor or target), its strength after each
 * turn, and for each loss what caused it: the event, its dice with their
 * modifiers, and the order behind it, with its place in the committed
 * orders file.  The umpire's answer to "why did my battalion die?".
 *
 * Everything comes from the commits of main (events.yaml, state.yaml and
 * the orders of each turn), so it works in a player's clone too.  A unit
 * fighting in a melee of several units is named by the events only when
 * it is the side's unit whose modifiers count (R9.7); its strength line
 * still shows every figure it lost.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/report.h"
#include "crown/story.h"
#include "crown/types.h"
#include "crown/xalloc.h"

static int	cmd_blame_exec(struct crown_run *);

const struct crown_cmd crown_cmd_blame = {
	"blame",
	"DIR UNIT",
	"Print the story of UNIT over the campaign at DIR, turn by turn:\n"
	"every event that names it, its strength after each turn, and for\n"
	"each loss the event, its dice with every modifier and the order\n"
	"behind it (the committed orders file, line and column).  Reads\n"
	"only the history, so it works in a player's clone.",
	.flags = CROWN_CMD_CAMPAIGN,
	.operands = { 2, 2, "give DIR and UNIT" },
	.exec = cmd_blame_exec
};

/* Strength and place after a turn, from its state. */
static void
print_strength(const struct crown_state *s, const char *id, const char *what)
{
	char	*line = crown_story_strength(s, id);

	printf("  %s: %s\n", what, line != NULL ? line : "not in the state");
	free(line);
}

static int
cmd_blame_exec(struct crown_run *r)
{
	const struct crown_chain	*c = &r->chain;
	const struct crown_unit		*u;
	struct crown_diags		 d = { 0 };
	struct crown_campaign		 camp = { 0 };
	struct crown_story_turn	 tf = { 0 };
	struct crown_story		 story = { 0 };
	const char			*id = r->operand[1], *cid, *sub;
	char				 date[32], type[32], arms[32];
	char				*label = NULL;
	char				*line = NULL;
	long				 total = 0;
	size_t				 i;
	int				 t, error = 0, seen, format;

	/* who it is, from turn 0 */
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->at[0]].id,
	    "turn-0", &d)) != 0)
		goto cleanup;
	if ((u = crown_state_unit(camp.state, id)) == NULL) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no unit '%s' in this "
		    "campaign", id);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	printf("%s: %s, %s %s %s of %s\n", id, u->name,
	    crown_class_names[u->cls], crown_words(type, sizeof(type),
	    crown_utype_names[u->type]), crown_report_arms(arms, sizeof(arms),
	    u), u->side);
	print_strength(camp.state, id, "turn 0");
	crown_campaign_release(&camp);
	for (t = 1; t <= c->last; t++) {
		cid = c->l.v[c->at[t]].id;
		if ((error = crown_story_turn_load(&tf, r->h, cid, t,
		    &d)) != 0 || (crown_story_lost(&tf, id) > 0 &&
		    (error = crown_story_turn_orders(&tf, r->h, cid, t,
		    &d)) != 0))
			goto cleanup;
		crown_cal_format_date(date, sizeof(date),
		    c->l.v[c->at[t]].time, c->l.v[c->at[t]].offset);
		sub = strchr(c->l.v[c->at[t]].subject, ':');
		printf("\nturn %d (%s, %.7s):%s\n", t, date, cid,
		    sub != NULL ? sub + 1 : "");
		crown_story_unit(&story, &tf, id, NULL);
		for (i = 0; i < story.n; i++)
			printf("%*s%s\n", 2 + 2 * story.v[i].level, "",
			    story.v[i].text);
		total += story.lost;
		seen = story.events != 0;
		crown_story_release(&story);
		if (seen == 0)
			printf("  no event names %s\n", id);
		label = xasprintf("turn-%d", t);
		if ((error = crown_campaign_format(&format, r->h, cid,
		    &d)) == 0 && format > CROWN_CAMPAIGN_FORMAT) {
			crown_campaign_format_refuse(&d, label,
			    crown_history_workdir(r->h), format);
			error = CROWN_EINVALID;
		}
		if (error == 0)
			error = crown_story_strength_read(&line, r->h, cid,
			    label, id, &d);
		free(label);
		label = NULL;
		if (error != 0)
			goto cleanup;
		printf("  after the turn: %s\n", line != NULL ? line :
		    "not in the state");
		free(line);
		line = NULL;
		crown_story_turn_release(&tf);
	}
	printf("\n%s: %ld figure%s lost to the events above over %d "
	    "turn%s\n", id, total, total == 1 ? "" : "s", c->last,
	    c->last == 1 ? "" : "s");
cleanup:
	crown_story_release(&story);
	crown_story_turn_release(&tf);
	crown_campaign_release(&camp);
	error = crown_cmd_fail(&d, error);
	crown_diags_release(&d);
	return error;
}
