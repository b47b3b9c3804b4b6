/*
 * cmd-turn.c: crown turn: adjudicate the next turn of a campaign and
 * commit it, whole or not at all.
 */
#include <stdio.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/taketurn.h"

static int	cmd_turn_check(const struct crown_run *);
static int	cmd_turn_refuse(struct crown_run *, struct crown_diags *);
static bool	cmd_turn_writes(const struct crown_run *);
static void	dry_run(const struct crown_turn *);
static const char *shown(const char *, const char *);
static void	say_orders(const char *const *, struct crown_orders *const *,
		    size_t, const char *const *, size_t, const char *);
static int	cmd_turn_exec(struct crown_run *);

enum { TURN_DEADLINE, TURN_ALLOW_MISSING, TURN_FORCE, TURN_DRY_RUN,
	TURN_IGNORE_UNREAD, TURN_NOPTS };

static const struct crown_option turn_options[] = {
	[TURN_DEADLINE] = { "deadline", CROWN_OPT_VALUE },
	[TURN_ALLOW_MISSING] = { "allow-missing", CROWN_OPT_FLAG },
	[TURN_FORCE] = { "force", CROWN_OPT_FLAG },
	[TURN_DRY_RUN] = { "dry-run", CROWN_OPT_FLAG },
	[TURN_IGNORE_UNREAD] = { "ignore-unread", CROWN_OPT_FLAG },
	[TURN_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_turn = {
	"turn",
	"DIR [ORDERS...] [--secret-file F] [--templates DIR]\n"
	"       [--umpire \"Name <email>\"] [--date DATE] [--deadline TIME]\n"
	"       [--allow-missing [--force]] [--dry-run] [--ignore-unread]",
	"Adjudicate the next turn of the campaign at DIR.  Orders are the\n"
	"files given, else DIR/orders/pending/*.yaml.  Every order is\n"
	"validated first; any problem is printed (all of them) and the\n"
	"repository is left untouched (exit 65).  A side without orders\n"
	"stops the turn too (exit 65, every such side named), unless\n"
	"--allow-missing: then its units hold (R2.3).  Before the deadline\n"
	"(game.deadline, against --date) that needs --force as well, and\n"
	"the commit message says the turn was played before its deadline.\n"
	"Mail crown inbox has not read in the mailboxes it last read,\n"
	"delivered by the deadline, stops the turn too (exit 65, saying how\n"
	"many), unless --ignore-unread.  The\n"
	"turn is resolved with the campaign dice (DIR/.git/crown-secret, or\n"
	"--secret-file), and orders/turn-NNN/SIDE.yaml, state.yaml and\n"
	"turns/turn-NNN/ are committed at once as \"Turn N: headline\",\n"
	"tagged turn-N; the work tree is left clean and the pending orders\n"
	"used are removed.  A second run while one holds the campaign's\n"
	"lock exits 75.  Reports come from --templates DIR, else the\n"
	"installed templates.  The new state records --deadline TIME\n"
	"(YYYY-MM-DDTHH:MM:SSZ) as the next orders deadline, or none.  Each\n"
	"player's report is left as a mail in DIR/outbox\n"
	"(contrib/send-outbox.sh sends them).  --dry-run checks and resolves\n"
	"the turn the same way and prints the umpire's report, but writes\n"
	"and commits nothing and takes no lock.",
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
	if (r->opt[TURN_FORCE].value != NULL &&
	    r->opt[TURN_ALLOW_MISSING].value == NULL)
		return crown_cmd_usage_error(r->cmd, "--force goes with "
		    "--allow-missing");
	return 0;
}

/* --dry-run: the umpire's report of the turn played in memory. */
static void
dry_run(const struct crown_turn *t)
{
	fwrite(t->umpire.data, 1, t->umpire.len, stdout);
	fprintf(stderr, "crown turn: dry run of turn %d: nothing written or "
	    "committed\n", t->turn);
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
	int			  error;

	error = crown_campaign_turn_refuse(&r->start, r->h, c, r->dir, d);
	/* exec takes what it loaded rather than read it again */
	if (error == 0 && r->start.state != NULL)
		memcpy(r->start_id, c->l.v[c->tip].id, sizeof(r->start_id));
	return error;
}

static int
cmd_turn_exec(struct crown_run *r)
{
	struct crown_taketurn_input in = { 0 };
	struct crown_taketurn	 out;
	struct crown_diags	 d = { 0 };
	const struct crown_turn	*t = &out.t;
	int			 error, status;

	in.h = r->h;
	in.chain = &r->chain;
	in.dir = r->dir;
	in.start = &r->start;
	in.start_id = r->start_id;
	if (r->noperands > 1) {
		in.paths = r->operand + 1;
		in.npaths = r->noperands - 1;
	}
	in.umpire = r->umpire;
	in.date = r->date;
	in.secret_file = r->secret_file;
	in.templates = r->templates;
	in.deadline = r->opt[TURN_DEADLINE].value;
	in.allow_missing = r->opt[TURN_ALLOW_MISSING].value != NULL;
	in.force = r->opt[TURN_FORCE].value != NULL;
	in.ignore_unread = r->opt[TURN_IGNORE_UNREAD].value != NULL;
	in.dry_run = !cmd_turn_writes(r);
	error = crown_campaign_turn(&out, &in, &d);
	if (error == 0 && in.dry_run)
		dry_run(t);
	else if (error == 0) {
		printf("turn %d committed (%.7s): %s\n", t->turn, out.id,
		    t->headline);
		say_orders(out.paths, t->orders, t->norders, out.ignored,
		    out.nignored, crown_history_workdir(r->h));
	}
	status = crown_cmd_fail(&d, error);
	crown_taketurn_release(&out);
	return status;
}
