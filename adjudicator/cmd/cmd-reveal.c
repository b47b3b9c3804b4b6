/*
 * cmd-reveal.c: crown reveal: at the end of the game, commit the campaign
 * secret so that every roll can be checked against the commitment made
 * at turn 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/xalloc.h"

static int	cmd_reveal_exec(struct crown_run *);

const struct crown_cmd crown_cmd_reveal = {
	"reveal",
	"DIR [--secret-file F] [--umpire \"Name <email>\"] [--date DATE]",
	"At the end of the game, commit the campaign secret of DIR (from\n"
	"DIR/.git/crown-secret or --secret-file) as secret.hex, 64 hex\n"
	"digits, in a commit \"Reveal: ...\" on main tagged reveal, after\n"
	"checking it against game.dice_commitment.  Every turn's dice can be\n"
	"checked on a clone before it, from the turn's key; the secret opens\n"
	"the rest: the turns of an older format before crown upgrade, and\n"
	"that every key is the secret's.  No further turn can be played.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_SECRET |
	    CROWN_CMD_WHO,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_reveal_exec
};

static int
cmd_reveal_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_outputs	 files = { 0 };
	struct crown_advance	 step = { 0 };
	struct crown_who	 who = { 0 };
	unsigned char		 secret[CROWN_SECRET_BYTES];
	char			 id[CROWN_OID_HEX + 1];
	char			*hex = NULL, *msg = NULL, *label = NULL;
	const char		*head;
	int			 error = 0, status;

	memset(secret, 0, sizeof(secret));
	if (c->revealed) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "the secret is already "
		    "revealed (commit %.7s)", c->l.v[c->reveal].id);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	head = c->l.v[c->tip].id;
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&camp, r->h, head, label, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0 ||
	    (error = crown_campaign_secret(secret, r->h, r->secret_file,
	    camp.state->dice_commitment, false, &d)) != 0)
		goto cleanup;
	if (camp.state->dice_commitment == NULL) {
		crown_diag_add(&d, label, 0, 0, NULL, "the state has no "
		    "dice_commitment to reveal against");
		error = CROWN_EINVALID;
		goto cleanup;
	}
	hex = crown_campaign_secret_hex(secret);
	crown_buf_puts(crown_outputs_add(&files, CROWN_CAMPAIGN_REVEALED),
	    hex);
	msg = xasprintf("Reveal: the campaign secret after turn %d\n\n"
	    "secret.hex holds the 32-byte secret whose SHA-256 is the\n"
	    "dice_commitment %s\nof turn 0: run crown verify to replay every "
	    "die.\n", c->last, camp.state->dice_commitment);
	step.ref = CROWN_MAIN_REF;
	step.expect = head;
	step.log = "crown reveal";
	step.parent = head;
	step.files = &files;
	step.message = msg;
	step.stamp = &who.stamp;
	step.tag.name = CROWN_REVEAL_TAG;
	step.tag.force = true;
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.done = "the reveal is committed";
	step.dir = r->dir;
	if ((error = crown_advance(id, r->h, &step, &d)) != 0)
		goto cleanup;
	printf("revealed the secret after turn %d (%.7s): %s", c->last, id,
	    hex);
cleanup:
	status = crown_cmd_fail(&d, error);
	sodium_memzero(secret, sizeof(secret));
	if (hex != NULL)
		sodium_memzero(hex, strlen(hex));
	free(hex);
	free(msg);
	free(label);
	crown_outputs_release(&files);
	crown_who_release(&who);
	crown_campaign_release(&camp);
	return status;
}
