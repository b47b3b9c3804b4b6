/*
 * cmd-resolve.c: crown resolve: the pure engine from the command line.
 * State and orders in; new state and events out; no git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/dice.h"
#include "crown/play.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static void	timing(void *, const char *);
static int	cmd_resolve_exec(struct crown_run *);

enum {
	RESOLVE_STATE,
	RESOLVE_RULES,
	RESOLVE_ORDERS,
	RESOLVE_OUT,
	RESOLVE_DICE_SCRIPT,
	RESOLVE_TIMINGS,
	RESOLVE_NOPTS
};

static const struct crown_option resolve_options[] = {
	[RESOLVE_STATE] = { "state", CROWN_OPT_VALUE },
	[RESOLVE_RULES] = { "rules", CROWN_OPT_VALUE },
	[RESOLVE_ORDERS] = { "orders", CROWN_OPT_LIST },
	[RESOLVE_OUT] = { "out", CROWN_OPT_VALUE },
	[RESOLVE_DICE_SCRIPT] = { "dice-script", CROWN_OPT_VALUE },
	[RESOLVE_TIMINGS] = { "timings", CROWN_OPT_FLAG },
	[RESOLVE_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_resolve = {
	"resolve",
	"--state FILE [--rules FILE] [--orders FILE]... --out DIR\n"
	"       (--dice-script FILE | --secret-file FILE) [--templates DIR]\n"
	"       [--timings]",
	"Resolve one game turn from a state and the sides' orders, without\n"
	"git: write DIR/state.yaml (the turn advanced by one),\n"
	"DIR/events.yaml, the umpire's DIR/report.md, one DIR/report-SIDE.md\n"
	"for each side and the map DIR/map.svg.  Dice come from a script\n"
	"(integers in the order rolled) or from a campaign secret (32\n"
	"bytes) and the salt of the orders files, as a campaign's turn:\n"
	"a state with a dice commitment is keyed by its turn's key of the\n"
	"dice chain the secret seeds.\n"
	"The reports come from the templates in --templates DIR\n"
	"(default: crown's own).  Orders are checked first; nothing is\n"
	"written unless the whole turn resolves and every report renders.\n"
	"--timings prints, on standard error, how long each step took.\n\n"
	CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_IN_ORDER | CROWN_CMD_LIMITS | CROWN_CMD_SECRET |
	    CROWN_CMD_TEMPLATES,
	.options = resolve_options,
	.exec = cmd_resolve_exec
};

#define MAX_ORDER_FILES 64

static void
timing(void *arg, const char *step)
{
	crown_timings_mark(arg, step);
}

static int
cmd_resolve_exec(struct crown_run *r)
{
	const struct crown_optval *order_paths = &r->opt[RESOLVE_ORDERS];
	struct crown_diags	  d = { 0 };
	struct crown_state	 *s = NULL;
	struct crown_rules	 *rules = NULL;
	struct crown_dice	 *dice = NULL;
	struct crown_outputs	  orders = { 0 }, files = { 0 };
	struct crown_play_input	  in;
	struct crown_turn	  t = { 0 };
	struct crown_timings	  tm;
	unsigned char		  secret[CROWN_SECRET_BYTES];
	unsigned char		  key[CROWN_SECRET_BYTES];
	const char		 *state_path, *rules_path, *out, *script;
	const char		 *secret_path = r->secret_file;
	int			  error = 0, status, from;
	bool			  timings;

	state_path = r->opt[RESOLVE_STATE].value;
	rules_path = r->opt[RESOLVE_RULES].value;
	out = r->opt[RESOLVE_OUT].value;
	script = r->opt[RESOLVE_DICE_SCRIPT].value;
	timings = r->opt[RESOLVE_TIMINGS].value != NULL;
	if (order_paths->nvalues > MAX_ORDER_FILES)
		return crown_cmd_usage_error(r->cmd, "more than %d order "
		    "files", MAX_ORDER_FILES);
	if (state_path == NULL || out == NULL)
		return crown_cmd_usage_error(r->cmd,
		    "--state and --out are required");
	if ((script == NULL) == (secret_path == NULL))
		return crown_cmd_usage_error(r->cmd,
		    "give one of --dice-script and --secret-file");

	crown_timings_start(&tm, "resolve", timings);
	if ((error = crown_state_load(&s, state_path, &d)) != 0)
		goto cleanup;
	crown_timings_mark(&tm, "load state");
	if ((error = crown_cmd_load_rules(&rules, rules_path, NULL, s->rules,
	    &d)) != 0)
		goto cleanup;
	crown_timings_mark(&tm, "load rules");
	/* the orders' bytes, read once: what is played is what is salted */
	if ((error = crown_play_read_files(&orders,
	    (const char *const *)order_paths->values, order_paths->nvalues,
	    &d)) != 0)
		goto cleanup;
	memset(&in, 0, sizeof(in));
	in.before = s;
	in.rules = rules;
	in.orders = &orders;
	in.unsalted = script != NULL;
	in.templates = r->templates;
	in.mark = timing;
	in.mark_arg = &tm;
	if ((error = crown_play_read(&t, &in, &d)) != 0)
		goto cleanup;
	if (script != NULL)
		error = crown_dice_script_load(&dice, script, &d);
	else if ((error = crown_secret_read(secret, secret_path, &d)) == 0 &&
	    crown_campaign_dice_chain(&from, key, s) == 0) {
		/* a campaign's state: the turn's key of its dice chain, as
		 * crown turn keys it */
		error = crown_campaign_dice_key(key, s, secret, t.turn, &d);
		in.key = key;
	}
	if (error != 0)
		goto cleanup;
	in.dice = dice;
	in.secret = secret;
	if ((error = crown_play_resolve(&t, &in, &d)) != 0)
		goto cleanup;
	if ((error = crown_mkdirs(out, &d)) != 0)
		goto cleanup;
	crown_play_files(&files, &t, CROWN_PLAY_FLAT);
	error = crown_write_outputs(out, &files, &d);
	crown_timings_mark(&tm, "write");
	if (error == 0 && script != NULL && crown_dice_unused(dice) > 0)
		fprintf(stderr, "crown resolve: warning: %zu dice of the "
		    "script were not used\n", crown_dice_unused(dice));
cleanup:
	sodium_memzero(key, sizeof(key));
	sodium_memzero(secret, sizeof(secret));
	status = crown_cmd_fail(&d, error);
	crown_outputs_release(&files);
	crown_turn_release(&t);
	crown_outputs_release(&orders);
	crown_dice_free(dice);
	crown_rules_free(rules);
	crown_state_free(s);
	if (error == 0)
		crown_timings_end(&tm);
	return status;
}
