/*
 * cmd-new.c: crown new: a campaign repository from a scenario, committed
 * as turn 0 and tagged turn-0 (the making is crown_campaign_create's,
 * history/create.c).
 */
#include <stdio.h>

#include "crown/cmd.h"
#include "crown/create.h"

static int	cmd_new_exec(struct crown_run *);

enum { NEW_SCENARIO, NEW_RULES, NEW_SIGN, NEW_NOPTS };

static const struct crown_option new_options[] = {
	[NEW_SCENARIO] = { "scenario", CROWN_OPT_VALUE },
	[NEW_RULES] = { "rules", CROWN_OPT_VALUE },
	[NEW_SIGN] = { "sign", CROWN_OPT_VALUE },
	[NEW_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_new = {
	"new",
	"DIR --scenario FILE [--rules FILE] [--secret-file F]\n"
	"       [--templates DIR] [--umpire \"Name <email>\"] [--date DATE]\n"
	"       [--sign FPR]",
	"Create a campaign repository at DIR (absent or empty) from a\n"
	"scenario: the scenario is checked first (every problem at once) and\n"
	"nothing is written unless it is sound.  The commit \"Turn 0: ...\",\n"
	"tagged turn-0, holds scenario.yaml, the rules frozen in rules.yaml\n"
	"(--rules, else the rule set the scenario names) and state.yaml, the\n"
	"scenario with its defaults filled in, its buildings classified\n"
	"(R11.3) and game.dice_commitment set to k(0) of the dice chain the\n"
	"campaign secret seeds: SHA-256 4096 times over the secret; turn t's\n"
	"dice key is SHA-256 4096 - t times over it.  The secret, 32 random\n"
	"bytes (or those of --secret-file), stays outside the committed tree\n"
	"in DIR/.git/crown-secret.\n"
	"turns/turn-000/map.svg is the opening map (from --templates DIR,\n"
	"else the installed templates), mailed with each player's briefing.\n"
	"--umpire \"Name <email>\" (else the scenario's game.umpire) is the\n"
	"campaign's umpire, kept in state.yaml as game.umpire: the author\n"
	"of every commit and the From of every mail crown makes; --date\n"
	"(YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM] or seconds since 1970) is the\n"
	"commit's date, now when not given.  --sign FPR (else the\n"
	"scenario's game.umpire.openpgp) is the fingerprint of the umpire's\n"
	"OpenPGP key in the umpire's own keyring (GNUPGHOME, else\n"
	"~/.gnupg), kept as game.umpire.openpgp: every commit and tag crown\n"
	"makes is signed with it and turn tags are annotated, for crown\n"
	"verify, git verify-commit and git verify-tag; a key that is not\n"
	"there or cannot sign is refused (exit 69) and nothing is made.\n"
	"The campaign is built beside DIR and renamed into place whole: a\n"
	"crown new stopped at any moment leaves no DIR or a complete\n"
	"campaign (an empty DIR that no rename can replace, such as \".\",\n"
	"is built in place).",
	.flags = CROWN_CMD_SECRET | CROWN_CMD_WHO | CROWN_CMD_TEMPLATES,
	.options = new_options,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_new_exec
};

static int
cmd_new_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	struct crown_new_input	 in = { 0 };
	struct crown_new_result	 made = { 0 };
	int			 error, status;

	if ((in.scenario = r->opt[NEW_SCENARIO].value) == NULL)
		return crown_cmd_usage_error(r->cmd, "--scenario is required");
	in.dir = r->operand[0];
	in.rules = r->opt[NEW_RULES].value;
	in.secret_file = r->secret_file;
	in.templates = r->templates;
	in.umpire = r->umpire;
	in.date = r->date;
	in.sign = r->opt[NEW_SIGN].value;
	in.victory = crown_cmd_victory;
	if ((error = crown_campaign_create(&made, &in, &d)) == 0) {
		printf("%s: turn 0 committed (%.7s): %s\n", in.dir, made.id,
		    made.headline);
		printf("dice commitment: %s\n", made.commitment);
		if (made.briefings > 0)
			printf("%zu briefing%s for the players in %s/outbox\n",
			    made.briefings, made.briefings == 1 ? "" : "s",
			    in.dir);
	}
	status = crown_cmd_fail(&d, error);
	crown_new_result_release(&made);
	return status;
}
