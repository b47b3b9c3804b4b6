/*
 * cmd-adopt.c: crown adopt: make a rerun the campaign's history, keeping
 * the line it replaces under a tag.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/rerun.h"
#include "crown/xalloc.h"

static int	cmd_adopt_check(const struct crown_run *);
static int	cmd_adopt_exec(struct crown_run *);

enum { ADOPT_REASON, ADOPT_NOPTS };

static const struct crown_option adopt_options[] = {
	[ADOPT_REASON] = { "reason", CROWN_OPT_VALUE },
	[ADOPT_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_adopt = {
	"adopt",
	"DIR rerun/turn-N [--umpire \"Name <email>\"] [--date DATE]\n"
	"       [--reason TEXT]",
	"Make the rerun branch rerun/turn-N (made by crown rerun) the\n"
	"history of the campaign at DIR: main moves to it, the tags\n"
	"turn-N... follow, and the line it replaces is kept under an\n"
	"annotated tag replaced/turn-N (replaced/turn-N-2, ... when that\n"
	"exists) by the umpire, dated --date.  The rerun must start from\n"
	"main's turn N-1 and reach main's last turn.  The branch is deleted.\n"
	"Players must fetch the rewritten main (crown publish pushes it with\n"
	"force).  --reason TEXT (one line) is put in the tag's message as\n"
	"\"Reason: TEXT\", and crown log and crown site show it beside the\n"
	"adopted turn.  Every player gets a mail in DIR/outbox: the report of\n"
	"the last turn, with the map, the state and the next orders form, and\n"
	"which turns were played again and why.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_WHO,
	.options = adopt_options,
	.operands = { 2, 2, "give DIR and the rerun branch" },
	.check = cmd_adopt_check,
	.exec = cmd_adopt_exec
};

/* "rerun/turn-N" (or refs/heads/rerun/turn-N): its name without
 * refs/heads/ and N; -1 if it is not a rerun branch. */
static int
parse_branch(const char **name, long *turn, const char *arg)
{
	const char	*prefix = CROWN_RERUN_BRANCH "/turn-";
	char		*end;

	*name = arg;
	if (strncmp(*name, "refs/heads/", 11) == 0)
		*name += 11;
	if (strncmp(*name, prefix, strlen(prefix)) != 0 ||
	    (*turn = strtol(*name + strlen(prefix), &end, 10)) < 1 ||
	    *end != '\0')
		return -1;
	return 0;
}

static int
cmd_adopt_check(const struct crown_run *r)
{
	const char	*name;
	long		 turn;

	if (parse_branch(&name, &turn, r->operand[1]) != 0)
		return crown_cmd_usage_error(r->cmd, "'%s' is not a rerun "
		    "branch (rerun/turn-N)", r->operand[1]);
	if (crown_cmd_reason_check(r->cmd, r->opt[ADOPT_REASON].value) != 0)
		return CROWN_EXIT_USAGE;
	return 0;
}

static int
cmd_adopt_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	struct crown_history	*h = r->h;
	struct crown_chain	*c = &r->chain, b = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_who	 who = { 0 };
	struct crown_advance	 step = { 0 };
	char			 have[CROWN_OID_HEX + 1], *ref = NULL;
	char			 old[CROWN_OID_HEX + 1], id[CROWN_OID_HEX + 1];
	char			 tip[CROWN_OID_HEX + 1];
	char			*tag = NULL, *tagref = NULL, *msg = NULL, *when;
	struct crown_outputs	 mails = { 0 };
	const char		*name, *reason;
	long			 turn;
	int			 error = 0, status, k, rc;

	(void)parse_branch(&name, &turn, r->operand[1]);
	ref = xasprintf("refs/heads/%s", name);
	if ((error = crown_campaign_chain(&b, h, ref, &d)) != 0) {
		if (error == CROWN_ENOTFOUND) {
			crown_diags_release(&d);
			crown_diag_add(&d, r->dir, 0, 0, NULL, "no branch "
			    "'%s' (crown rerun makes it)", name);
		}
		goto cleanup;
	}
	if (c->revealed) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "the secret is "
		    "revealed: the history can no longer change");
		error = CROWN_EINVALID;
		goto cleanup;
	}
	for (k = 0; k < turn; k++)
		if (k > c->last || k > b.last ||
		    strcmp(c->l.v[c->at[k]].id, b.l.v[b.at[k]].id) != 0) {
			crown_diag_add(&d, r->dir, 0, 0, NULL, "%s does not "
			    "start from main's turn %ld", name, turn - 1);
			error = CROWN_EINVALID;
			goto cleanup;
		}
	if (b.last != c->last || b.revealed) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "%s reaches turn %d "
		    "but main is at turn %d: run crown rerun again", name,
		    b.last, c->last);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	memcpy(old, c->l.v[c->l.n - 1].id, sizeof(old));
	memcpy(tip, b.l.v[b.l.n - 1].id, sizeof(tip));
	if ((error = crown_campaign_load(&camp, h, old, "main", &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0)
		goto cleanup;
	/* the old line keeps a name: replaced/turn-N, -2, -3, ... */
	for (k = 1; ; k++) {
		free(tag);
		free(tagref);
		tag = k == 1 ? xasprintf("%s/turn-%ld", CROWN_REPLACED_TAG,
		    turn) : xasprintf("%s/turn-%ld-%d", CROWN_REPLACED_TAG,
		    turn, k);
		tagref = xasprintf("refs/tags/%s", tag);
		rc = crown_history_ref_get(have, h, tagref, &d);
		if (rc == CROWN_ENOTFOUND)
			break;
		if (rc != 0) {
			error = rc;
			goto cleanup;
		}
	}
	reason = r->opt[ADOPT_REASON].value;
	/* every player told, in the outbox once main has moved */
	when = xasprintf("@%lld", (long long)who.stamp.time);
	error = crown_campaign_adopt_mails(&mails, h, &b, (int)turn, reason,
	    when, &d);
	free(when);
	if (error != 0)
		goto cleanup;
	msg = xasprintf("main before adopting %s\n\nTurns %ld to %d of this "
	    "line were replaced by a rerun of turn %ld.\n%s%s%s", name, turn,
	    c->last, turn, reason != NULL ? CROWN_REASON_KEY : "",
	    reason != NULL ? reason : "", reason != NULL ? "\n" : "");
	/* the old line keeps its name before main leaves it */
	step.ref = CROWN_MAIN_REF;
	step.expect = old;
	step.log = "crown adopt";
	step.to = tip;
	step.keep.name = tag;
	step.keep.target = old;
	step.keep.stamp = &who.stamp;
	step.keep.message = msg;
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.mails = &mails;
	step.drop = ref;
	step.done = "main is moved to the rerun";
	step.dir = r->dir;
	if ((error = crown_advance(id, h, &step, &d)) != 0)
		goto cleanup;
	/* the turn tags of the new line */
	crown_chain_release(c);
	if ((error = crown_campaign_chain(c, h, CROWN_MAIN_REF, &d)) != 0 ||
	    (error = crown_campaign_repair(h, c, &d)) != 0)
		goto cleanup;
	printf("main is now %s (%.7s); the old line is tag %s (%.7s)\n",
	    name, tip, tag, old);
	if (mails.n > 0)
		printf("%zu report%s for the players in %s/outbox\n", mails.n,
		    mails.n == 1 ? "" : "s", r->dir);
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_outputs_release(&mails);
	free(msg);
	free(tagref);
	free(tag);
	free(ref);
	crown_who_release(&who);
	crown_campaign_release(&camp);
	crown_chain_release(&b);
	return status;
}
