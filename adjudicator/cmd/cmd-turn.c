/*
 * cmd-turn.c: crown turn: adjudicate the next turn of a campaign and
 * commit it, whole or not at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/play.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_turn_check(const struct crown_run *);
static int	cmd_turn_refuse(struct crown_run *, struct crown_diags *);
static bool	cmd_turn_writes(const struct crown_run *);
static int	dry_run(const struct crown_turn *);
static const char *shown(const char *, const char *);
static void	say_orders(const char *const *, struct crown_orders *const *,
		    size_t, const char *const *, size_t, const char *);
static int	missing_sides(const struct crown_state *,
		    struct crown_orders *const *, size_t, const char *,
		    struct crown_diags *);
static int	cmd_turn_exec(struct crown_run *);

enum { TURN_DEADLINE, TURN_ALLOW_MISSING, TURN_DRY_RUN, TURN_NOPTS };

static const struct crown_option turn_options[] = {
	[TURN_DEADLINE] = { "deadline", CROWN_OPT_VALUE },
	[TURN_ALLOW_MISSING] = { "allow-missing", CROWN_OPT_FLAG },
	[TURN_DRY_RUN] = { "dry-run", CROWN_OPT_FLAG },
	[TURN_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_turn = {
	"turn",
	"DIR [ORDERS...] [--secret-file F] [--templates DIR]\n"
	"       [--umpire \"Name <email>\"] [--date DATE] [--deadline TIME]\n"
	"       [--allow-missing] [--dry-run]",
	"Adjudicate the next turn of the campaign at DIR.  Orders are the\n"
	"files given, else DIR/orders/pending/*.yaml.  Every order is\n"
	"validated first; any problem is printed (all of them) and the\n"
	"repository is left untouched (exit 65).  A side without orders\n"
	"stops the turn too (exit 65, every such side named), unless\n"
	"--allow-missing: then its units hold (R2.3).  The turn is resolved\n"
	"with the campaign dice (DIR/.git/crown-secret, or --secret-file),\n"
	"and orders/turn-NNN/SIDE.yaml, state.yaml and turns/turn-NNN/ are\n"
	"committed at once as \"Turn N: headline\", tagged turn-N; the work\n"
	"tree is left clean and the pending orders used are removed.  A\n"
	"second run while one holds the campaign's lock exits 75.  Reports\n"
	"come from --templates DIR, else the installed templates.  The new\n"
	"state records --deadline TIME (YYYY-MM-DDTHH:MM:SSZ) as the next\n"
	"orders deadline, or none.  Each player's report is left as a mail\n"
	"in DIR/outbox (contrib/send-outbox.sh sends them).  --dry-run\n"
	"checks and resolves the turn the same way and prints the umpire's\n"
	"report, but writes and commits nothing and takes no lock.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_SECRET |
	    CROWN_CMD_TEMPLATES | CROWN_CMD_WHO,
	.options = turn_options,
	.operands = { 1, CROWN_OPERANDS_ANY, "give DIR" },
	.check = cmd_turn_check,
	.exec = cmd_turn_exec,
	.refuse = cmd_turn_refuse,
	.writes = cmd_turn_writes
};

static bool
cmd_turn_writes(const struct crown_run *r)
{
	return r->opt[TURN_DRY_RUN].value == NULL;
}

static int
cmd_turn_check(const struct crown_run *r)
{
	const char	*deadline = r->opt[TURN_DEADLINE].value;

	if (deadline != NULL && !crown_cal_time_valid(deadline))
		return crown_cmd_usage_error(r->cmd, "--deadline must be a "
		    "UTC time as YYYY-MM-DDTHH:MM:SSZ");
	return 0;
}

/*
 * Every side of s without orders among ov, to d; CROWN_EINVALID when
 * there is one.  A forgotten file would otherwise play the turn with
 * that side holding (R2.3), which only --allow-missing asks for.
 */
static int
missing_sides(const struct crown_state *s, struct crown_orders *const *ov,
    size_t n, const char *dir, struct crown_diags *d)
{
	size_t	i, k;
	int	error = 0;

	for (i = 0; i < s->nsides; i++) {
		for (k = 0; k < n; k++)
			if (strcmp(ov[k]->side, s->sides[i].id) == 0)
				break;
		if (k < n)
			continue;
		crown_diag_add(d, dir, 0, 0, "R2.3", "no orders from side "
		    "'%s' for turn %d; give them, or --allow-missing to let "
		    "its units hold", s->sides[i].id, s->turn + 1);
		error = CROWN_EINVALID;
	}
	return error;
}

/* --dry-run: the umpire's report of the turn played in memory. */
static int
dry_run(const struct crown_turn *t)
{
	fwrite(t->umpire.data, 1, t->umpire.len, stdout);
	fprintf(stderr, "crown turn: dry run of turn %d: nothing written or "
	    "committed\n", t->turn);
	return 0;
}

/* A pending file's path from the top of the campaign. */
static const char *
shown(const char *path, const char *workdir)
{
	size_t	len = strlen(workdir);

	if (strncmp(path, workdir, len) == 0) {
		path += len;
		if (*path == '/')
			path++;
	}
	return path;
}

/*
 * Which files the turn played, for which side, and the pending files it
 * left alone because others were named: the umpire sees that what
 * crown status counted is not what was played.
 */
static void
say_orders(const char *const *paths, struct crown_orders *const *ov,
    size_t n, const char *const *ignored, size_t nignored,
    const char *workdir)
{
	size_t	i;

	for (i = 0; i < n; i++)
		printf("%s %s (%s)", i == 0 ? "played" : ",",
		    shown(paths[i], workdir), ov[i]->side);
	if (n > 0)
		printf("\n");
	for (i = 0; i < nignored; i++)
		printf("%s %s", i == 0 ? "ignored, left pending:" : ",",
		    shown(ignored[i], workdir));
	if (nignored > 0)
		printf("\n");
}

/*
 * The refusals that need only the history, before the repair: a refused
 * turn touches nothing, not even the pending orders the repair would
 * tidy away.
 */
static int
cmd_turn_refuse(struct crown_run *r, struct crown_diags *d)
{
	const struct crown_chain *c = &r->chain;
	struct crown_campaign	  camp = { 0 };
	const struct crown_state *s;
	char			 *label;
	int			  error;

	if (c->revealed) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "the campaign secret "
		    "was revealed after turn %d: the game is over", c->last);
		return CROWN_EINVALID;
	}
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&camp, r->h,
	    c->l.v[c->at[c->last]].id, label, d)) != 0)
		goto cleanup;
	s = camp.state;
	if (s->turn != c->last) {
		crown_diag_add(d, label, 0, 0, NULL, "state.yaml says turn "
		    "%d, the commit says turn %d", s->turn, c->last);
		error = CROWN_EINVALID;
	} else if (s->last_turn > 0 && s->turn >= s->last_turn) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "the game ended with "
		    "turn %d (game.last_turn)", s->last_turn);
		error = CROWN_EINVALID;
	}
cleanup:
	/* the start of the turn when no roster or deadline change came
	 * after the last turn: exec takes it rather than read it again */
	if (error == 0 && c->tip == c->at[c->last]) {
		r->start = camp;
		memcpy(r->start_id, c->l.v[c->tip].id, sizeof(r->start_id));
	} else
		crown_campaign_release(&camp);
	free(label);
	return error;
}

static int
cmd_turn_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	  d = { 0 };
	struct crown_history	 *h = r->h;
	struct crown_campaign	  camp = { 0 };
	struct crown_outputs	  given = { 0 }, files = { 0 };
	struct crown_outputs	  mails = { 0 };
	struct crown_play_input	  in;
	struct crown_advance	  step = { 0 };
	struct crown_turn	  t = { 0 };
	struct crown_who	  who = { 0 };
	struct crown_buf	  body = { 0 };
	unsigned char		  secret[CROWN_SECRET_BYTES];
	char			  id[CROWN_OID_HEX + 1], **pending = NULL;
	char			 *msg = NULL;
	char			 *tag = NULL, *label = NULL, *when = NULL;
	char			 *done = NULL;
	char			 *next_deadline;
	const char		**paths, *dir = r->dir, *head, *deadline;
	size_t			  npending = 0, npaths;
	size_t			  i;
	int			  error = 0, status, next;
	bool			  from_pending;

	deadline = r->opt[TURN_DEADLINE].value;
	/* the last turn, or the roster or deadline changed after it */
	head = c->l.v[c->tip].id;
	label = xasprintf("turn-%d", c->last);
	if (strcmp(r->start_id, head) == 0) {
		camp = r->start;
		memset(&r->start, 0, sizeof(r->start));
		r->start_id[0] = '\0';
	} else if ((error = crown_campaign_load(&camp, h, head, label, &d)) !=
	    0)
		goto cleanup;
	next = camp.state->turn + 1;
	/* a usage error (exit 2) before any problem of the orders */
	if ((error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0)
		goto cleanup;

	/* the orders: read and validated, all of them, before any die */
	from_pending = r->noperands == 1;
	/* the files given leave the pending ones aside, said at the end */
	crown_campaign_pending(&pending, &npending, crown_history_workdir(h));
	if (from_pending) {
		paths = (const char **)pending;
		npaths = npending;
	} else {
		paths = r->operand + 1;
		npaths = r->noperands - 1;
	}
	memset(&in, 0, sizeof(in));
	in.before = camp.state;
	in.rules = camp.rules;
	in.orders = &given;
	in.templates = r->templates;
	if ((error = crown_play_read_files(&given, paths, npaths, &d)) != 0 ||
	    (error = crown_play_read(&t, &in, &d)) != 0)
		goto cleanup;
	if (r->opt[TURN_ALLOW_MISSING].value == NULL &&
	    (error = missing_sides(camp.state, t.orders, t.norders, dir,
	    &d)) != 0)
		goto cleanup;

	if ((error = crown_campaign_secret(secret, h, r->secret_file,
	    camp.state->dice_commitment, false, &d)) != 0)
		goto cleanup;
	/* the old deadline has passed: the new state has the next (given,
	 * or game.deadline_every after it) or none */
	next_deadline = crown_campaign_next_deadline(camp.state, deadline);
	in.secret = secret;
	in.deadline = next_deadline;
	error = crown_play_resolve(&t, &in, &d);
	free(next_deadline);
	sodium_memzero(secret, sizeof(secret));
	if (error != 0)
		goto cleanup;

	if (!cmd_turn_writes(r)) {
		error = dry_run(&t);
		goto cleanup;
	}
	crown_play_files(&files, &t, CROWN_PLAY_COMMIT);
	crown_buf_puts(&body, "");
	if (t.norders == 0)
		crown_buf_puts(&body, "No orders: every unit held (R2.3).\n");
	else {
		crown_buf_puts(&body, "Orders from");
		for (i = 0; i < t.norders; i++)
			crown_buf_printf(&body, "%s %s", i == 0 ? "" :
			    i + 1 == t.norders ? " and" : ",",
			    t.orders[i]->side);
		crown_buf_puts(&body, ".\n");
		if (t.norders < camp.state->nsides)
			crown_buf_puts(&body, "The other sides had none "
			    "(--allow-missing): their units held (R2.3).\n");
	}
	crown_buf_printf(&body, "%zu events.\n", t.ev.n);
	msg = xasprintf("Turn %d: %s\n\n%s", next, t.headline, body.data);
	/* each player's report as a mail in the outbox (issue 12) */
	when = xasprintf("@%lld", (long long)who.stamp.time);
	if ((error = crown_mail_turn_reports(&mails, t.after, camp.rules,
	    t.reports, &t.map, when, &d)) != 0)
		goto cleanup;
	tag = xasprintf("turn-%d", next);
	done = xasprintf("turn %d is committed", next);
	step.ref = CROWN_MAIN_REF;
	step.expect = head;
	step.parent = head;
	step.files = &files;
	step.message = msg;
	step.stamp = &who.stamp;
	step.tag.name = tag;
	step.tag.force = true;
	step.tree = CROWN_ADVANCE_FILES;
	step.pending = from_pending ? pending : NULL;
	step.npending = from_pending ? npending : 0;
	step.mails = &mails;
	step.done = done;
	step.dir = dir;
	if ((error = crown_advance(id, h, &step, &d)) != 0)
		goto cleanup;
	printf("turn %d committed (%.7s): %s\n", next, id, t.headline);
	say_orders(paths, t.orders, t.norders, from_pending ? NULL :
	    (const char *const *)pending, from_pending ? 0 : npending,
	    crown_history_workdir(h));
cleanup:
	status = crown_cmd_fail(&d, error);
	free(done);
	free(tag);
	free(when);
	free(msg);
	crown_buf_release(&body);
	crown_turn_release(&t);
	crown_who_release(&who);
	crown_outputs_release(&mails);
	crown_outputs_release(&files);
	crown_outputs_release(&given);
	for (i = 0; i < npending; i++)
		free(pending[i]);
	free(pending);
	crown_campaign_release(&camp);
	free(label);
	return status;
}
