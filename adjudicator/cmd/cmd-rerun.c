/*
 * cmd-rerun.c: crown rerun: re-adjudicate a turn with amended orders on a
 * branch of its own, replay the later turns with their original orders,
 * and say what changed.  main is untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/history.h"
#include "crown/play.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

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
	"listed.  The new line goes on branch rerun/turn-TURN (replacing an\n"
	"earlier rerun of that turn); main is untouched.  Prints each\n"
	"turn's headline, new and old, and what differs at the end, unit by\n"
	"unit.  --reason TEXT (one line) is put in each commit's message as\n"
	"\"Reason: TEXT\", and crown log shows it once the rerun is adopted.\n"
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

/* The same file with some entries of its orders list left out. */
struct place {
	unsigned	line, col;
};

static int
drop_entries(struct crown_buf *out, const struct crown_output *in,
    const struct place *at, size_t nat, struct crown_diags *d)
{
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*root, *seq;
	struct crown_ynode		 root2, seq2;
	struct crown_ynode		**items = NULL, **rootitems = NULL;
	size_t				 i, j, k = 0;
	bool				 drop;
	int				 error;

	if ((error = crown_ydoc_parse(&doc, in->name, in->data.data,
	    in->data.len, &crown_ylimits_orders, d)) != 0)
		return error;
	root = crown_ydoc_root(doc);
	if (root == NULL || root->kind != CROWN_Y_MAP ||
	    (seq = crown_ymap_get(root, "orders")) == NULL ||
	    seq->kind != CROWN_Y_SEQ) {
		crown_ydoc_free(doc);
		return CROWN_EINVALID;
	}
	items = xcalloc(seq->n ? seq->n : 1, sizeof(*items));
	for (i = 0; i < seq->n; i++) {
		drop = false;
		for (j = 0; j < nat; j++)
			if (seq->item[i]->line == at[j].line &&
			    seq->item[i]->col == at[j].col)
				drop = true;
		if (!drop)
			items[k++] = seq->item[i];
	}
	seq2 = *seq;
	seq2.item = items;
	seq2.n = k;
	root2 = *root;
	rootitems = xcalloc(root->n, sizeof(*rootitems));
	for (i = 0; i < root->n; i++)
		rootitems[i] = root->item[i] == seq ?
		    &seq2 : root->item[i];
	root2.item = rootitems;
	if ((error = crown_ynode_emit(out, &root2)) != 0)
		crown_diag_add(d, in->name, 0, 0, NULL, "cannot write the "
		    "orders back");
	free(rootitems);
	free(items);
	crown_ydoc_free(doc);
	return error;
}

/*
 * Orders of a later turn against the state the rerun reached: each entry
 * is validated on its own; those that fail are left out and listed.
 */
static int
filter_orders(struct crown_outputs *out, const struct crown_outputs *in,
    const struct crown_state *s, const struct crown_rules *rules, int turn,
    struct crown_diags *d)
{
	struct crown_orders	*o, one;
	const struct crown_unit	*u;
	struct crown_geom_grid	*grid = NULL;	/* once, not per entry */
	const char		*who;
	struct crown_diags	 why;
	struct crown_buf	*b;
	struct place		*at;
	size_t			 i, j, k, n, nl;
	int			 error = 0;

	for (i = 0; i < in->n && error == 0; i++) {
		o = NULL;
		if (crown_orders_parse(&o, in->v[i].name, in->v[i].data.data,
		    in->v[i].data.len, d) != 0) {
			crown_orders_free(o);
			error = CROWN_EINVALID;
			break;
		}
		n = o->nunits + o->nleaders;
		at = xcalloc(n ? n : 1, sizeof(*at));
		nl = 0;
		for (j = 0; j < n; j++) {
			one = *o;
			if (j < o->nunits) {
				one.units = &o->units[j];
				one.nunits = 1;
				one.leaders = NULL;
				one.nleaders = 0;
			} else {
				one.units = NULL;
				one.nunits = 0;
				one.leaders = &o->leaders[j - o->nunits];
				one.nleaders = 1;
			}
			memset(&why, 0, sizeof(why));
			if (grid == NULL)
				grid = crown_terrain_grid_new(s);
			if (crown_orders_validate_grid(&one, s, rules, grid,
			    &why) == 0) {
				crown_diags_release(&why);
				continue;
			}
			at[nl].line = j < o->nunits ? one.units[0].line :
			    one.leaders[0].line;
			at[nl++].col = j < o->nunits ? one.units[0].col :
			    one.leaders[0].col;
			who = j < o->nunits ? one.units[0].unit :
			    one.leaders[0].leader;
			u = j < o->nunits && who != NULL ?
			    crown_state_unit(s, who) : NULL;
			/* the first error says why, not a warning */
			for (k = 0; k + 1 < why.n &&
			    why.v[k].severity != CROWN_DIAG_ERROR; k++)
				;
			printf("turn %d: skipped the orders of '%s' (%s:%u): "
			    "%s", turn, u != NULL && u->name != NULL ?
			    u->name : who != NULL ? who : "?", in->v[i].name,
			    at[nl - 1].line, why.n > 0 ? why.v[k].msg : "");
			if (why.n > 0 && why.v[k].rule != NULL)
				printf(" (%s)", why.v[k].rule);
			printf("\n");
			crown_diags_release(&why);
		}
		b = crown_outputs_add(out, in->v[i].name);
		if (nl == 0)
			crown_buf_add(b, in->v[i].data.data,
			    in->v[i].data.len);
		else
			error = drop_entries(b, &in->v[i], at, nl, d);
		free(at);
		crown_orders_free(o);
	}
	crown_geom_grid_free(grid);
	return error;
}

static void
unit_changes(const struct crown_state *was, const struct crown_state *now)
{
	const struct crown_unit	*u, *o;
	const struct crown_leader *l, *ol;
	struct crown_buf	 b = { 0 };
	size_t			 i, same = 0;

	for (i = 0; i < now->nunits; i++) {
		u = &now->units[i];
		if ((o = crown_state_unit(was, u->id)) == NULL)
			continue;
		crown_buf_release(&b);
		crown_buf_puts(&b, "");
		if (crown_unit_figures(o) != crown_unit_figures(u))
			crown_buf_printf(&b, "; figures %d -> %d",
			    crown_unit_figures(o), crown_unit_figures(u));
		if (crown_unit_stands(o) != crown_unit_stands(u))
			crown_buf_printf(&b, "; stands %d -> %d",
			    crown_unit_stands(o), crown_unit_stands(u));
		if (crown_round2(o->x) != crown_round2(u->x) ||
		    crown_round2(o->y) != crown_round2(u->y))
			crown_buf_printf(&b, "; at (%.2f, %.2f) -> "
			    "(%.2f, %.2f)", o->x, o->y, u->x, u->y);
		if (o->facing != u->facing)
			crown_buf_printf(&b, "; facing %d -> %d", o->facing,
			    u->facing);
		if (o->status != u->status)
			crown_buf_printf(&b, "; %s -> %s",
			    crown_status_names[o->status],
			    crown_status_names[u->status]);
		if (o->formation != u->formation)
			crown_buf_printf(&b, "; %s -> %s",
			    crown_formation_names[o->formation],
			    crown_formation_names[u->formation]);
		if (o->disordered != u->disordered)
			crown_buf_printf(&b, "; %s", u->disordered ?
			    "now disordered" : "no longer disordered");
		if (o->loaded != u->loaded)
			crown_buf_printf(&b, "; %s", u->loaded ?
			    "now loaded" : "now unloaded");
		if (o->limbered != u->limbered)
			crown_buf_printf(&b, "; %s", u->limbered ?
			    "now limbered" : "now unlimbered");
		if (b.len == 0) {
			same++;
			continue;
		}
		printf("  %s (%s):%s\n", u->name != NULL ? u->name : u->id,
		    u->id, b.data + 1);
	}
	for (i = 0; i < now->nleaders; i++) {
		l = &now->leaders[i];
		if ((ol = crown_state_leader(was, l->id)) == NULL)
			continue;
		if (ol->status != l->status)
			printf("  leader %s: %s -> %s\n", l->id,
			    crown_leader_status_names[ol->status],
			    crown_leader_status_names[l->status]);
	}
	if (same == now->nunits)
		printf("  no unit differs\n");
	else if (same > 0)
		printf("  %zu other unit%s as before\n", same,
		    same == 1 ? "" : "s");
	crown_buf_release(&b);
}

/* A commit of the rerun line, its branch not moved yet. */
static int
commit(char *id, struct crown_history *h, const char *parent,
    const struct crown_outputs *files, const char *msg,
    const struct crown_stamp *stamp, struct crown_diags *d)
{
	struct crown_advance	step = { 0 };

	step.parent = parent;
	step.files = files;
	step.message = msg;
	step.stamp = stamp;
	return crown_advance(id, h, &step, d);
}

/*
 * The roster and deadline changes main has between its commits from and
 * to (indices of c), each committed again after prev on the rerun line
 * with cur's players and deadline as main's had them; prev moves on.
 */
static int
replay_admin(char *prev, struct crown_history *h,
    const struct crown_chain *c, size_t from, size_t to,
    struct crown_state *cur, const struct crown_stamp *stamp,
    struct crown_diags *d)
{
	struct crown_campaign	 camp = { 0 };
	struct crown_outputs	 files = { 0 };
	char			 id[CROWN_OID_HEX + 1];
	size_t			 i;
	int			 error = 0;

	for (i = from + 1; i < to && error == 0; i++) {
		if ((error = crown_campaign_load(&camp, h, c->l.v[i].id,
		    c->l.v[i].subject, d)) != 0)
			break;
		crown_campaign_take_admin(cur, camp.state);
		crown_campaign_release(&camp);
		if (crown_state_emit(crown_outputs_add(&files,
		    CROWN_CAMPAIGN_STATE), cur) != 0) {
			crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL,
			    "cannot format the state");
			error = CROWN_ERROR;
		} else if ((error = commit(id, h, prev, &files,
		    c->l.v[i].message, stamp, d)) == 0)
			memcpy(prev, id, CROWN_OID_HEX + 1);
		crown_outputs_release(&files);
	}
	return error;
}

static int
cmd_rerun_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	const struct crown_optval *amended = &r->opt[RERUN_ORDERS];
	struct crown_diags	  d = { 0 };
	struct crown_history	 *h = r->h;
	struct crown_campaign	  camp = { 0 }, last = { 0 };
	struct crown_outputs	  given = { 0 }, orig = { 0 }, orders = { 0 };
	struct crown_outputs	  files = { 0 };
	struct crown_advance	  step = { 0 };
	struct crown_orders	**ov = NULL;
	struct crown_play_input	  in;
	struct crown_turn	  t = { 0 };
	struct crown_who	  who = { 0 };
	struct crown_state	 *cur = NULL;
	struct crown_buf	 *b;
	unsigned char		  secret[CROWN_SECRET_BYTES];
	unsigned char		  salt[CROWN_SALT_BYTES];
	char			  id[CROWN_OID_HEX + 1];
	char			  prev[CROWN_OID_HEX + 1];
	char			 *label = NULL, *odir = NULL, *msg = NULL;
	char			 *branch = NULL;
	const char		**paths = NULL, *sub, *reason;
	size_t			  npaths = 0, n = 0, i, j;
	long			  turn;
	int			  error = 0, status, k, rc;

	memset(secret, 0, sizeof(secret));
	reason = r->opt[RERUN_REASON].value;
	turn = parse_turn(r->operand[1]);
	paths = xcalloc(amended->nvalues + r->noperands, sizeof(*paths));
	for (i = 0; i < amended->nvalues; i++)
		paths[npaths++] = amended->values[i];
	for (i = 2; i < r->noperands; i++)
		paths[npaths++] = r->operand[i];
	if (turn > c->last) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "no turn %ld to rerun: "
		    "the campaign is at turn %d", turn, c->last);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	label = xasprintf("turn-%ld", turn - 1);
	/* from the commit before the turn: the turn before it, or a roster
	 * or deadline change after that */
	if ((error = crown_campaign_load(&camp, h, c->l.v[c->at[turn] - 1].id,
	    label, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0 ||
	    (error = crown_campaign_secret(secret, h, r->secret_file,
	    camp.state->dice_commitment, false, &d)) != 0)
		goto cleanup;

	/* the amended orders, checked against the turn's start */
	if ((error = crown_play_read_files(&given, paths, npaths, &d)) != 0 ||
	    (error = crown_campaign_orders(&ov, &n, &given,
	    camp.state, camp.rules, &d)) != 0)
		goto cleanup;
	/* each replaces its side's file; the others stand */
	odir = crown_campaign_orders_dir((int)turn);
	if ((error = crown_history_files(&orig, h, c->l.v[c->at[turn]].id,
	    odir, &d)) != 0)
		goto cleanup;
	if ((error = crown_campaign_orders_kept(&orders, &given, ov, n, odir,
	    &d)) != 0)
		goto cleanup;
	for (i = 0; i < orig.n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(orders.v[j].name, orig.v[i].name) == 0)
				break;
		if (j == n) {
			b = crown_outputs_add(&orders, orig.v[i].name);
			crown_buf_add(b, orig.v[i].data.data,
			    orig.v[i].data.len);
		}
	}

	branch = xasprintf("refs/heads/%s/turn-%ld", CROWN_RERUN_BRANCH, turn);
	printf("rerun of turn %ld on %s (main is untouched):\n", turn,
	    branch + strlen("refs/heads/"));
	memcpy(prev, c->l.v[c->at[turn] - 1].id, sizeof(prev));
	cur = crown_state_clone(camp.state);
	for (k = (int)turn; k <= c->last; k++) {
		if (k > turn && (error = replay_admin(prev, h, c, c->at[k - 1],
		    c->at[k], cur, &who.stamp, &d)) != 0)
			goto cleanup;
		if (k > turn) {
			crown_outputs_release(&orders);
			crown_outputs_release(&orig);
			free(odir);
			odir = crown_campaign_orders_dir(k);
			if ((error = crown_history_files(&orig, h,
			    c->l.v[c->at[k]].id, odir, &d)) != 0 ||
			    (error = filter_orders(&orders, &orig, cur,
			    camp.rules, k, &d)) != 0)
				goto cleanup;
		}
		/* main's salt for the turn, so that an amended order changes
		 * only the rolls it touches; none for a turn made before
		 * salts */
		rc = crown_campaign_salt_read(salt, h, c->l.v[c->at[k]].id, k,
		    &d);
		if (rc != 0 && rc != CROWN_ENOTFOUND) {
			error = rc;
			goto cleanup;
		}
		memset(&in, 0, sizeof(in));
		in.before = cur;
		in.rules = camp.rules;
		in.orders = &orders;
		in.secret = secret;
		in.salt = rc == 0 ? salt : NULL;
		in.unsalted = rc != 0;
		in.templates = r->templates;
		if ((error = crown_play(&t, &in, &d)) != 0)
			goto cleanup;
		crown_outputs_release(&files);
		crown_play_files(&files, &t, CROWN_PLAY_COMMIT);
		free(msg);
		msg = xasprintf("Turn %d: %s\n\nRerun of turn %ld with "
		    "amended orders (%s).\n%s%s%s%zu events.\n", k,
		    t.headline, turn, branch + strlen("refs/heads/"),
		    reason != NULL ? CROWN_REASON_KEY : "",
		    reason != NULL ? reason : "", reason != NULL ? "\n" : "",
		    t.ev.n);
		if ((error = commit(id, h, prev, &files, msg, &who.stamp,
		    &d)) != 0)
			goto cleanup;
		sub = strchr(c->l.v[c->at[k]].subject, ':');
		printf("turn %d: %s (was:%s)\n", k, t.headline,
		    sub != NULL ? sub + 1 : "");
		memcpy(prev, id, sizeof(prev));
		crown_state_free(cur);
		cur = t.after;
		t.after = NULL;
		crown_turn_release(&t);
	}
	if ((error = replay_admin(prev, h, c, c->at[c->last], c->tip + 1,
	    cur, &who.stamp, &d)) != 0)
		goto cleanup;
	/* the branch, made or replaced: main and the work tree stay */
	step.ref = branch;
	step.force = true;
	step.log = "crown rerun";
	step.to = prev;
	if ((error = crown_advance(id, h, &step, &d)) != 0)
		goto cleanup;
	free(label);
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&last, h, c->l.v[c->at[c->last]].id,
	    label, &d)) != 0)
		goto cleanup;
	printf("after turn %d, against main (%.7s -> %.7s):\n", c->last,
	    c->l.v[c->at[c->last]].id, prev);
	unit_changes(last.state, cur);
	printf("adopt it with: crown adopt %s %s\n", r->dir,
	    branch + strlen("refs/heads/"));
cleanup:
	status = crown_cmd_fail(&d, error);
	sodium_memzero(secret, sizeof(secret));
	crown_state_free(cur);
	free(branch);
	free(msg);
	free(odir);
	free(label);
	crown_turn_release(&t);
	crown_who_release(&who);
	crown_campaign_orders_free(ov, n);
	crown_outputs_release(&files);
	crown_outputs_release(&orders);
	crown_outputs_release(&orig);
	crown_outputs_release(&given);
	crown_campaign_release(&last);
	crown_campaign_release(&camp);
	free(paths);
	return status;
}
