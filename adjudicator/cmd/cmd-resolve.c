/*
 * cmd-resolve.c: crown resolve: the pure engine from the command line.
 * State and orders in; new state and events out; no git.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/dice.h"
#include "crown/engine.h"
#include "crown/events.h"
#include "crown/report.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

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
	"bytes) and the salt of the orders files, as a campaign's turn.\n"
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

/* The salt of a campaign turn with these orders (dice.c), from their
 * files' bytes as a campaign would have committed them. */
static int
orders_salt(unsigned char *salt, int turn, struct crown_orders *const *ov,
    size_t n, struct crown_diags *d)
{
	struct crown_outputs	 files = { 0 };
	char			*text;
	size_t			 i, len;
	int			 error = 0;

	for (i = 0; i < n && error == 0; i++)
		if ((error = crown_read_file(&text, &len, ov[i]->file,
		    crown_ylimits_orders.max_bytes, d)) == 0) {
			crown_buf_add(crown_outputs_add(&files, ov[i]->file),
			    text, len);
			free(text);
		}
	if (error == 0)
		crown_campaign_salt(salt, turn, &files, ov, n);
	crown_outputs_release(&files);
	return error;
}

static int
cmd_resolve_exec(struct crown_run *r)
{
	const struct crown_optval *order_paths = &r->opt[RESOLVE_ORDERS];
	struct crown_diags	  d = { 0 };
	struct crown_state	 *s = NULL, *before = NULL;
	struct crown_rules	 *rules = NULL;
	struct crown_orders	**orders = NULL;
	struct crown_dice	 *dice = NULL;
	struct crown_events	  ev = { 0 };
	struct crown_buf	  state_out = { 0 }, events_out = { 0 };
	struct crown_outputs	  reports = { 0 };
	struct crown_timings	  tm;
	struct crown_report_input rin;
	unsigned char		  secret[CROWN_SECRET_BYTES];
	unsigned char		  salt[CROWN_SALT_BYTES];
	const char		 *state_path, *rules_path, *out, *script;
	const char		 *secret_path = r->secret_file;
	const char		 *templates = r->templates;
	char			 *found_templates = NULL;
	size_t			  n = 0;
	int			  error = 0, status;
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
	if ((error = crown_cmd_load_orders(&orders, &n, order_paths->values,
	    order_paths->nvalues, s, rules, &d)) != 0)
		goto cleanup;
	crown_timings_mark(&tm, "load and check orders");
	if (script != NULL)
		error = crown_dice_script_load(&dice, script, &d);
	else if ((error = crown_secret_read(secret, secret_path, &d)) == 0 &&
	    (error = orders_salt(salt, s->turn + 1, orders, n, &d)) == 0)
		dice = crown_dice_campaign_salted(secret, salt);
	if (error != 0)
		goto cleanup;

	if (templates == NULL)
		templates = found_templates = crown_templates_find();

	before = crown_state_clone(s);
	crown_timings_mark(&tm, "dice and copy");
	if ((error = crown_resolve(s, orders, n, rules, dice, &ev, &d)) != 0)
		goto cleanup;
	crown_timings_mark(&tm, "resolve");
	if (crown_state_emit(&state_out, s) != 0 ||
	    crown_events_emit(&events_out, &ev) != 0) {
		crown_diag_add(&d, out, 0, 0, NULL, "cannot format output");
		error = CROWN_ERROR;
		goto cleanup;
	}
	crown_timings_mark(&tm, "emit state and events");
	/* the reports and the map, before anything is written */
	memset(&rin, 0, sizeof(rin));
	rin.before = before;
	rin.after = s;
	rin.events = &ev;
	rin.orders = orders;
	rin.norders = n;
	rin.rules = rules;
	rin.templates = templates;
	if ((error = crown_report_render(&reports, &rin, &d)) != 0)
		goto cleanup;
	crown_timings_mark(&tm, "reports and map");
	if ((error = crown_mkdirs(out, &d)) != 0)
		goto cleanup;
	/* all files or none (a full disk): the new state goes last */
	crown_outputs_take(&reports, "events.yaml", &events_out);
	crown_outputs_take(&reports, "state.yaml", &state_out);
	error = crown_write_outputs(out, &reports, &d);
	crown_timings_mark(&tm, "write");
	if (error == 0 && script != NULL && crown_dice_unused(dice) > 0)
		fprintf(stderr, "crown resolve: warning: %zu dice of the "
		    "script were not used\n", crown_dice_unused(dice));
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_outputs_release(&reports);
	free(found_templates);
	crown_state_free(before);
	crown_buf_release(&state_out);
	crown_buf_release(&events_out);
	crown_events_release(&ev);
	crown_dice_free(dice);
	crown_campaign_orders_free(orders, n);
	crown_rules_free(rules);
	crown_state_free(s);
	if (error == 0)
		crown_timings_end(&tm);
	return status;
}
