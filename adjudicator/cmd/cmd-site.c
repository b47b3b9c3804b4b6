/*
 * cmd-site.c: crown site: the campaign as a static web site (site.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/report.h"
#include "crown/site.h"

static int	cmd_site_exec(struct crown_run *);

enum { SITE_SIDE, SITE_NOPTS };

static const struct crown_option site_options[] = {
	[SITE_SIDE] = { "side", CROWN_OPT_VALUE },
	[SITE_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_site = {
	"site",
	"DIR OUT [--side SIDE]",
	"Write the campaign at DIR as a static web site in OUT: index.html\n"
	"(the turns, their dates, headlines and each side's losses, and a\n"
	"chart of each side's strength), a page per turn (its map, its\n"
	"reports, its orders and events.yaml) and a page per unit (its\n"
	"story, as crown blame tells it), linked from the maps and reports\n"
	"that name it.  Nothing refers outside OUT, so the site works from\n"
	"file:// or any static web server.  With --side, only what SIDE may\n"
	"see: its own reports and orders, the maps, and its own units'\n"
	"pages; never the umpire's report, events.yaml or another side's\n"
	"reports or orders.  Run again after a turn, it writes only the\n"
	"pages that changed (OUT/.crown-site records what each was made\n"
	"from) and the index.  OUT must be new, empty or such a site.  The\n"
	"pages come from the templates site-*.html.tmpl.  Reads only the\n"
	"history, so it works in a player's clone.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_TEMPLATES,
	.options = site_options,
	.operands = { 2, 2, "give DIR and OUT" },
	.exec = cmd_site_exec
};

static int
cmd_site_exec(struct crown_run *r)
{
	struct crown_site_input	 in = { 0 };
	struct crown_site_stats	 stats;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	char			*found = NULL, *victory = NULL;
	int			 error, status;

	in.h = r->h;
	in.chain = &r->chain;
	in.out = r->operand[1];
	in.side = r->opt[SITE_SIDE].value;
	in.templates = r->templates;
	if (in.templates == NULL)
		in.templates = found = crown_templates_find();
	if (in.templates == NULL) {
		crown_diag_add(&d, "templates", 0, 0, NULL, "cannot find the "
		    "templates (looked beside the program and in %s/"
		    "templates); give --templates DIR", CROWN_DATADIR);
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	/* nothing new: nothing to read */
	if (crown_site_current(&stats, &in))
		goto done;
	/* the victory conditions of the briefing, as crown show DIR 0 */
	if ((error = crown_campaign_load(&camp, r->h,
	    r->chain.l.v[r->chain.at[0]].id, "turn-0", &d)) != 0)
		goto cleanup;
	in.start = camp.state;
	in.victory = victory = crown_cmd_victory(camp.state->name);
	if ((error = crown_site_write(&stats, &in, &d)) != 0)
		goto cleanup;
done:
	printf("%s: %zu pages and files, %zu written, %zu removed\n",
	    in.out, stats.pages, stats.written, stats.removed);
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_diags_release(&d);
	crown_campaign_release(&camp);
	free(victory);
	free(found);
	return status;
}
