/*
 * cmd-rules.c: crown rules: load the rules of --rules FILE, of a
 * campaign DIR or the installed ones, and print them as a reference
 * (rulebook.c).
 */
#include <stdbool.h>
#include <stdio.h>

#include "crown/cmd.h"
#include "crown/rulebook.h"

static int	cmd_rules_exec(struct crown_run *);

#define ONE_SOURCE	"give --rules FILE or a campaign DIR, not both"

enum { RULES_MARKDOWN, RULES_RULES, RULES_NOPTS };

static const struct crown_option rules_options[] = {
	[RULES_MARKDOWN] = { "markdown", CROWN_OPT_FLAG },
	[RULES_RULES] = { "rules", CROWN_OPT_VALUE },
	[RULES_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_rules = {
	"rules",
	"[--markdown] [--rules FILE | DIR]",
	"Print every table and number of the rules crown plays by, under\n"
	"their rule ids: the campaign's frozen rules.yaml with DIR, the file\n"
	"given with --rules, or the installed Maximilian Rules!.  With\n"
	"--markdown the tables are Markdown, ready for a players' handbook.",
	.flags = CROWN_CMD_IN_ORDER,
	.options = rules_options,
	.operands = { 0, 1, ONE_SOURCE },
	.exec = cmd_rules_exec
};

static int
cmd_rules_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*rules = NULL;
	const char		*path, *dir;
	bool			 markdown;
	int			 error;

	markdown = r->opt[RULES_MARKDOWN].value != NULL;
	path = r->opt[RULES_RULES].value;
	dir = r->noperands == 1 ? r->operand[0] : NULL;
	if (dir != NULL && path != NULL)
		return crown_cmd_usage_error(r->cmd, ONE_SOURCE);
	if ((error = crown_cmd_load_rules(&rules, path, dir, NULL, &d)) != 0)
		return crown_cmd_fail(&d, error);
	crown_rulebook_print(stdout, rules, markdown);
	crown_rules_free(rules);
	return crown_cmd_fail(&d, 0);
}
