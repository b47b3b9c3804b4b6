/*
 * cmd-show.c: crown show: a turn's report, the umpire's or a side's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/paths.h"
#include "crown/report.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_show_exec(struct crown_run *);

enum { SHOW_SIDE, SHOW_NOPTS };

static const struct crown_option show_options[] = {
	[SHOW_SIDE] = { "side", CROWN_OPT_VALUE },
	[SHOW_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_show = {
	"show",
	"DIR TURN [--side SIDE]",
	"Print the report of turn TURN (a number, or \"last\") of the\n"
	"campaign at DIR as committed: turns/turn-NNN/report.md, or with\n"
	"--side the side's own report-SIDE.md.  When the turn has no\n"
	"report, the sentences of its events are printed instead.  Turn 0\n"
	"is the briefing: the scenario, the sides, their forces and\n"
	"leaders, the victory conditions of the bundled game of that name\n"
	"(games/NAME/README.md) and an opening map.  Reads only the\n"
	"history, so it works in a player's clone.",
	.flags = CROWN_CMD_CAMPAIGN,
	.options = show_options,
	.operands = { 2, 2, "give DIR and TURN" },
	.exec = cmd_show_exec
};

/* The sentences of events.yaml, one paragraph each; with heading, it
 * comes first and nothing is said when nothing happened. */
static int
print_events(const char *text, size_t len, const char *name,
    struct crown_diags *d, const char *heading)
{
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*root, *t;
	size_t				 i;
	int				 error;

	if ((error = crown_ydoc_parse(&doc, name, text, len,
	    &crown_ylimits_state, d)) != 0)
		return error;
	root = crown_ydoc_root(doc);
	for (i = 0; root != NULL && root->kind == CROWN_Y_SEQ &&
	    i < root->n; i++) {
		t = crown_ymap_get(root->item[i], "text");
		if (t != NULL && t->kind == CROWN_Y_SCALAR) {
			if (heading != NULL)
				fputs(heading, stdout);
			heading = NULL;
			printf("- %s\n", t->str);
		}
	}
	if (heading == NULL && (root == NULL || root->kind != CROWN_Y_SEQ ||
	    root->n == 0))
		printf("Nothing happened.\n");
	crown_ydoc_free(doc);
	return 0;
}

static int
cmd_show_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_buf	 b = { 0 };
	const char		*side, *id, *sub;
	char			*tdir = NULL, *path = NULL, *label = NULL;
	char			*end, *vic;
	long			 turn;
	int			 error = 0, status;

	side = r->opt[SHOW_SIDE].value;
	if (strcmp(r->operand[1], "last") == 0)
		turn = c->last;
	else {
		turn = strtol(r->operand[1], &end, 10);
		if (*end != '\0' || end == r->operand[1] || turn < 0) {
			status = crown_cmd_usage_error(r->cmd, "TURN is a "
			    "number or \"last\", not '%s'", r->operand[1]);
			goto out;
		}
	}
	if (turn > c->last) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no turn %ld: the "
		    "campaign is at turn %d", turn, c->last);
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	id = c->l.v[c->at[turn]].id;
	label = xasprintf("turn-%ld", turn);
	if (side != NULL) {
		if ((error = crown_campaign_load(&camp, r->h, id, label,
		    &d)) != 0)
			goto cleanup;
		if (crown_state_side(camp.state, side) < 0) {
			crown_diag_add(&d, r->dir, 0, 0, NULL, "no side '%s' "
			    "in this campaign", side);
			error = CROWN_EINVALID;
			goto cleanup;
		}
	}
	tdir = crown_campaign_turn_dir((int)turn);
	if (turn == 0) {
		/* the players' briefing, then what the scenario's dice
		 * settled (R11.3) */
		if (camp.state == NULL && (error = crown_campaign_load(&camp,
		    r->h, id, label, &d)) != 0)
			goto cleanup;
		vic = crown_cmd_victory(camp.state->name);
		crown_report_briefing(&b, camp.state, vic);
		free(vic);
		fwrite(b.data, 1, b.len, stdout);
		crown_buf_release(&b);
		path = xasprintf("%s/%s", tdir, CROWN_CAMPAIGN_EVENTS);
		if ((error = crown_history_read(&b, r->h, id, path, &d)) ==
		    0)
			error = print_events(b.data, b.len, path, &d,
			    "\n## Before the game\n\n");
		else if (error == CROWN_ENOTFOUND)
			error = 0;
		goto cleanup;
	}
	path = side != NULL ? xasprintf("%s/report-%s.md", tdir, side) :
	    xasprintf("%s/report.md", tdir);
	error = crown_history_read(&b, r->h, id, path, &d);
	if (error == 0) {
		fwrite(b.data, 1, b.len, stdout);
		goto cleanup;
	}
	if (error != CROWN_ENOTFOUND)
		goto cleanup;
	/* no report rendered: the events tell the turn */
	free(path);
	path = xasprintf("%s/%s", tdir, CROWN_CAMPAIGN_EVENTS);
	crown_buf_release(&b);
	sub = strchr(c->l.v[c->at[turn]].subject, ':');
	printf("# Turn %ld:%s\n\n", turn, sub != NULL ? sub + 1 : "");
	error = crown_history_read(&b, r->h, id, path, &d);
	if (error == CROWN_ENOTFOUND) {
		printf("Nothing happened.\n");
		error = 0;
	} else if (error == 0)
		error = print_events(b.data, b.len, path, &d, NULL);
cleanup:
	status = crown_cmd_fail(&d, error);
out:
	crown_diags_release(&d);
	crown_buf_release(&b);
	free(path);
	free(tdir);
	free(label);
	crown_campaign_release(&camp);
	return status;
}
