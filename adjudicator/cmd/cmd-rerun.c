/*
 * cmd-rerun.c: crown rerun: re-adjudicate a turn with amended orders on a
 * branch of its own, replay the later turns with their original orders,
 * and say what changed.  main is untouched.
 */
#include <stdio.h>
#include <stdlib.h>

#include "crown/cmd.h"
#include "crown/rerun.h"
#include "crown/xalloc.h"

static int	cmd_rerun_check(const struct crown_run *);
static int	cmd_rerun_exec(struct crown_run *);

enum { RERUN_ORDERS, RERUN_REASON, RERUN_NOPTS };

static const struct crown_option rerun_options[] = {
	[RERUN_ORDERS] = { "orders", CROWN_OPT_LIST },
	[RERUN_REASON] = { "reason", CROWN_OPT_VALUE },
	[RERUN_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_rerun = {
	"rerun",
	"DIR TURN --orders FILE... [--secret-file F] [--templates DIR]\n"
	"       [--umpire \"Name <email>\"] [--date DATE] [--reason TEXT]",
	"Re-adjudicate turn TURN of the campaign at DIR from turn TURN-1\n"
	"with amended orders: each file given replaces the orders of its\n"
	"side for that turn (the other sides keep theirs).  Each turn keeps\n"
	"the dice salt main's turn recorded, so an amended order changes\n"
	"only the rolls it touches.  The later turns are replayed with their\n"
	"original orders and the same campaign dice; an order that has\n"
	"become impossible (it no longer passes validation) is skipped and\n"
	"listed.  Each turn sets the deadline main's turn set (--every or\n"
	"--deadline).  The new line goes on branch rerun/turn-TURN\n"
	"(replacing an earlier rerun of that turn); main is untouched.\n"
	"Prints each turn's headline, new and old, and what differs at the\n"
	"end, unit by unit.  --reason TEXT (one line) is put in each commit's\n"
	"message as \"Reason: TEXT\", and crown log shows it once the rerun\n"
	"is adopted.\n"
	"crown adopt makes the rerun the history.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_SECRET |
	    CROWN_CMD_TEMPLATES | CROWN_CMD_WHO,
	.options = rerun_options,
	.operands = { 2, CROWN_OPERANDS_ANY, "give DIR and TURN" },
	.check = cmd_rerun_check,
	.exec = cmd_rerun_exec
};

/* The turn to rerun: 1 to 999, or -1. */
static long
parse_turn(const char *arg)
{
	char	*end;
	long	 turn;

	turn = strtol(arg, &end, 10);
	if (*end != '\0' || end == arg || turn < 1 || turn > 999)
		return -1;
	return turn;
}

static int
cmd_rerun_check(const struct crown_run *r)
{
	if (parse_turn(r->operand[1]) < 0)
		return crown_cmd_usage_error(r->cmd, "TURN is a turn number "
		    "from 1, not '%s'", r->operand[1]);
	if (crown_cmd_reason_check(r->cmd, r->opt[RERUN_REASON].value) != 0)
		return CROWN_EXIT_USAGE;
	if (r->opt[RERUN_ORDERS].nvalues == 0 && r->noperands == 2)
		return crown_cmd_usage_error(r->cmd, "give the amended orders "
		    "with --orders FILE");
	return 0;
}

static int
cmd_rerun_exec(struct crown_run *r)
{
	const struct crown_optval *amended = &r->opt[RERUN_ORDERS];
	struct crown_rerun_input   in = { 0 };
	struct crown_diags	   d = { 0 };
	const char		 **paths;
	size_t			   npaths = 0, i;
	int			   error;

	/* the amended orders: --orders FILE..., and any file after TURN */
	paths = xcalloc(amended->nvalues + r->noperands, sizeof(*paths));
	for (i = 0; i < amended->nvalues; i++)
		paths[npaths++] = amended->values[i];
	for (i = 2; i < r->noperands; i++)
		paths[npaths++] = r->operand[i];
	in.h = r->h;
	in.chain = &r->chain;
	in.dir = r->dir;
	in.turn = (int)parse_turn(r->operand[1]);
	in.paths = paths;
	in.npaths = npaths;
	in.reason = r->opt[RERUN_REASON].value;
	in.umpire = r->umpire;
	in.date = r->date;
	in.secret_file = r->secret_file;
	in.templates = r->templates;
	in.out = stdout;
	error = crown_campaign_rerun(&in, &d);
	free(paths);
	return crown_cmd_fail(&d, error);
}
