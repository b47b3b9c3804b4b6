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
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_show_exec(int, char **);

const struct crown_cmd crown_cmd_show = {
	"show",
	"DIR TURN [--side SIDE]",
	"Print the report of turn TURN (a number, or \"last\") of the\n"
	"campaign at DIR as committed: turns/turn-NNN/report.md, or with\n"
	"--side the side's own report-SIDE.md.  When the turn has no\n"
	"report, the sentences of its events are printed instead.  Reads\n"
	"only the history, so it works in a player's clone.",
	cmd_show_exec
};

/* The sentences of events.yaml, one paragraph each. */
static int
print_events(const char *text, size_t len, const char *name,
    struct crown_diags *d)
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
		if (t != NULL && t->kind == CROWN_Y_SCALAR)
			printf("- %s\n", t->str);
	}
	if (root == NULL || root->kind != CROWN_Y_SEQ || root->n == 0)
		printf("Nothing happened.\n");
	crown_ydoc_free(doc);
	return 0;
}

static int
cmd_show_exec(int argc, char **argv)
{
	struct crown_opt	 opts[] = {
		{ "side", true, false, NULL, NULL, 0 },
		{ NULL, false, false, NULL, NULL, 0 }
	};
	struct crown_diags	 d = { 0 };
	struct crown_history	*h = NULL;
	struct crown_chain	 c = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_buf	 b = { 0 };
	const char		**ops = NULL, *side, *id, *sub;
	char			*tdir = NULL, *path = NULL, *label = NULL;
	char			*end;
	size_t			 nops = 0;
	long			 turn;
	int			 error = 0, status;

	if (crown_cmd_wants_help(&crown_cmd_show, argc, argv))
		return 0;
	if ((status = crown_cmd_args(&crown_cmd_show, argc, argv, opts,
	    &ops, &nops)) != 0)
		return status;
	if (nops != 2) {
		crown_cmd_args_free(opts, ops);
		return crown_cmd_usage_error(&crown_cmd_show,
		    "give DIR and TURN");
	}
	side = opts[0].value;
	if ((error = crown_history_open(&h, ops[0], false, &d)) != 0 ||
	    (error = crown_campaign_chain(&c, h, CROWN_MAIN_REF, &d)) != 0)
		goto cleanup;
	if (strcmp(ops[1], "last") == 0)
		turn = c.last;
	else {
		turn = strtol(ops[1], &end, 10);
		if (*end != '\0' || end == ops[1] || turn < 0) {
			status = crown_cmd_usage_error(&crown_cmd_show,
			    "TURN is a number or \"last\", not '%s'", ops[1]);
			goto out;
		}
	}
	if (turn > c.last) {
		crown_diag_add(&d, ops[0], 0, 0, NULL, "no turn %ld: the "
		    "campaign is at turn %d", turn, c.last);
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	id = c.l.v[c.at[turn]].id;
	label = xasprintf("turn-%ld", turn);
	if (side != NULL) {
		if ((error = crown_campaign_load(&camp, h, id, label, &d))
		    != 0)
			goto cleanup;
		if (crown_state_side(camp.state, side) < 0) {
			crown_diag_add(&d, ops[0], 0, 0, NULL, "no side '%s' "
			    "in this campaign", side);
			error = CROWN_EINVALID;
			goto cleanup;
		}
	}
	tdir = crown_campaign_turn_dir((int)turn);
	path = side != NULL ? xasprintf("%s/report-%s.md", tdir, side) :
	    xasprintf("%s/report.md", tdir);
	error = crown_history_read(&b, h, id, path, &d);
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
	sub = strchr(c.l.v[c.at[turn]].subject, ':');
	printf("# Turn %ld:%s\n\n", turn, sub != NULL ? sub + 1 : "");
	error = crown_history_read(&b, h, id, path, &d);
	if (error == CROWN_ENOTFOUND) {
		printf("Nothing happened.\n");
		error = 0;
	} else if (error == 0)
		error = print_events(b.data, b.len, path, &d);
cleanup:
	status = crown_cmd_fail(&d, error);
out:
	crown_diags_release(&d);
	crown_buf_release(&b);
	free(path);
	free(tdir);
	free(label);
	crown_campaign_release(&camp);
	crown_chain_release(&c);
	crown_history_close(h);
	crown_cmd_args_free(opts, ops);
	return status;
}
