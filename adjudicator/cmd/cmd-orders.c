/*
 * cmd-orders.c: crown orders: the orders form of report/form.c for a
 * side's next turn, printed.  It reads the campaign from its last
 * commit, so it works in a player's clone.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/report.h"
#include "crown/xalloc.h"

static int	cmd_orders_exec(struct crown_run *);

enum { ORDERS_SIDE, ORDERS_SHORTHAND, ORDERS_NOPTS };

static const struct crown_option orders_options[] = {
	[ORDERS_SIDE] = { "side", CROWN_OPT_VALUE },
	[ORDERS_SHORTHAND] = { "shorthand", CROWN_OPT_FLAG },
	[ORDERS_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_orders = {
	"orders",
	"DIR --side SIDE [--shorthand]",
	"Print an orders file for SIDE's next turn of the campaign at DIR,\n"
	"as committed: every unit of the side with 'hold', and before each,\n"
	"as comments, its place, facing, strength, formation, the actions\n"
	"of its half-turn, its state and the actions open to it.  `crown\n"
	"check` accepts it as it is; edit it and mail it.  With --shorthand\n"
	"it is written in the mail syntax.  A routing unit, which may only\n"
	"rally, is left out (it routs on), with a comment saying so.",
	.flags = CROWN_CMD_CAMPAIGN,
	.options = orders_options,
	.operands = { 1, 1, "give DIR" },
	.exec = cmd_orders_exec
};

static int
cmd_orders_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	const struct crown_state *s;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	const char		*side = r->opt[ORDERS_SIDE].value;
	bool			 sh = r->opt[ORDERS_SHORTHAND].value != NULL;
	struct crown_buf	 form = { 0 };
	char			*label;
	int			 error;

	if (side == NULL)
		return crown_cmd_usage_error(r->cmd, "give --side SIDE");
	label = xasprintf("turn-%d", c->last);
	error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d);
	free(label);
	if (error != 0)
		goto cleanup;
	s = camp.state;
	if (crown_state_side(s, side) < 0) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no side '%s' in this "
		    "campaign", side);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	if ((error = crown_orders_form(&form, s, camp.rules, side, sh)) == 0)
		fwrite(form.data, 1, form.len, stdout);
	else
		crown_diag_add(&d, r->dir, 0, 0, NULL, "cannot write the "
		    "orders form of side '%s'", side);
cleanup:
	crown_buf_release(&form);
	crown_campaign_release(&camp);
	error = crown_cmd_fail(&d, error);
	crown_diags_release(&d);
	return error;
}
