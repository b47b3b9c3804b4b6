/*
 * cmd-verify.c: crown verify: replay every committed turn from its parent
 * with its committed orders and the campaign dice, and compare every file
 * of the commit with the replay, byte for byte (verify.c).
 */
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/verify.h"

static int	cmd_verify_exec(struct crown_run *);

const struct crown_cmd crown_cmd_verify = {
	"verify",
	"DIR [--secret-file F] [--templates DIR]",
	"Replay every turn of the campaign at DIR from its parent commit's\n"
	"state.yaml and rules.yaml with the turn's committed orders and the\n"
	"campaign dice, and compare every file of each commit with the\n"
	"replay byte for byte (turn 0: the scenario made into state.yaml and\n"
	"the opening map; the reveal: the secret against the commitment).\n"
	"Each turn's dice are replayed from its key,\n"
	"turns/turn-NNN/dice-key, which must come back to the dice\n"
	"commitment by SHA-256 (hashed as many times as the turn's place in\n"
	"the dice chain): no secret is needed, so a player's clone checks\n"
	"every die after each turn.  Prints \"turn N: ok (dice: replayed\n"
	"from the turn's key)\" for each turn, or the first difference as\n"
	"\"turn N: FILE:LINE: differs\" (a key that does not chain back:\n"
	"turns/turn-NNN/dice-key) and exits 65.  With the secret\n"
	"(DIR/.git/crown-secret, --secret-file, or the revealed secret.hex)\n"
	"it also checks that each key is the secret's.  Turns written in\n"
	"another format than this crown's (format.yaml; none: format 1, the\n"
	"first release) cannot be replayed byte for byte: it says so for\n"
	"each (an older format's dice are checked at the reveal) and, when\n"
	"nothing else differs, exits 69.  A shallow or partial clone that\n"
	"lacks objects of the history, or a clone without the tags a rerun's\n"
	"dice salt is checked against, is no difference: it says which,\n"
	"names the git command that fetches what is missing, and exits 66.\n"
	"Reports and maps are rendered again from --templates DIR, else the\n"
	"installed templates.  In a signed history (crown new --sign) every\n"
	"commit from the first signed one, and every annotated tag turn-N\n"
	"and reveal, must be signed with the key game.umpire.openpgp names,\n"
	"as git verify-commit and git verify-tag check them against your\n"
	"keyring (GNUPGHOME, else ~/.gnupg): an unsigned commit or one\n"
	"signed with another key differs (65); without the umpire's public\n"
	"key it says which key to import and exits 69.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_SECRET | CROWN_CMD_TEMPLATES,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_verify_exec
};

static int
cmd_verify_exec(struct crown_run *r)
{
	struct crown_diags		d = { 0 };
	struct crown_verify_input	in;
	int				error, status, other;

	memset(&in, 0, sizeof(in));
	in.h = r->h;
	in.chain = &r->chain;
	in.dir = r->dir;
	in.secret_file = r->secret_file;
	in.templates = r->templates;
	error = crown_campaign_verify(&other, &in, &d);
	status = crown_cmd_fail(&d, error);
	if (status == CROWN_EXIT_OK && other > 0)
		status = CROWN_EXIT_UNAVAILABLE;
	return status;
}
