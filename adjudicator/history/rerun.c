/*
 * rerun.c: crown rerun's replay (rerun.h): the amended orders merged
 * with the others of the turn, the later turns replayed with their
 * original orders less those no longer valid, the roster and deadline
 * changes between them committed again, each through the one turn
 * function (play.c) and the one commit path (advance.c), onto a branch
 * of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/history.h"
#include "crown/play.h"
#include "crown/rerun.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* A rerun under way. */
struct rerun {
	const struct crown_rerun_input *in;
	struct crown_history	*h;
	const struct crown_chain *c;
	struct crown_diags	*d;
	struct crown_campaign	 camp;		/* the start of the turn */
	struct crown_who	 who;
	unsigned char		 secret[CROWN_SECRET_BYTES];
	char			*branch;	/* refs/heads/rerun/turn-N */
	const char		*name;		/* rerun/turn-N */
	struct crown_state	*cur;		/* where the line is */
	char			 prev[CROWN_OID_HEX + 1];  /* its tip */
};

/* An entry of an orders list, by where it starts in its file. */
struct place {
	unsigned	line, col;
};

static int	drop_entries(struct crown_buf *, const struct crown_output *,
		    const struct place *, size_t, struct crown_diags *);
static int	filter_orders(struct crown_outputs *, FILE *,
		    const struct crown_outputs *, const struct crown_state *,
		    const struct crown_rules *, int, struct crown_diags *);
static void	unit_changes(FILE *, const struct crown_state *,
		    const struct crown_state *);
static int	commit(char *, struct crown_history *, const char *,
		    const struct crown_outputs *, const char *,
		    const struct crown_stamp *, struct crown_diags *);
static int	replay_admin(char *, struct crown_history *,
		    const struct crown_chain *, size_t, size_t,
		    struct crown_state *, const struct crown_stamp *,
		    struct crown_diags *);
static int	amended_orders(struct crown_outputs *, const struct rerun *);
static int	later_orders(struct crown_outputs *, const struct rerun *,
		    int);
static char	*turn_deadline(const struct rerun *, int);
static int	rerun_turn(struct rerun *, int,
		    const struct crown_outputs *);
static int	finish(struct rerun *);

/* The same file with some entries of its orders list left out. */
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
filter_orders(struct crown_outputs *out, FILE *say,
    const struct crown_outputs *in, const struct crown_state *s,
    const struct crown_rules *rules, int turn, struct crown_diags *d)
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
			fprintf(say, "turn %d: skipped the orders of '%s' "
			    "(%s:%u): %s", turn, u != NULL && u->name != NULL ?
			    u->name : who != NULL ? who : "?", in->v[i].name,
			    at[nl - 1].line, why.n > 0 ? why.v[k].msg : "");
			if (why.n > 0 && why.v[k].rule != NULL)
				fprintf(say, " (%s)", why.v[k].rule);
			fprintf(say, "\n");
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

/* What differs between main's last turn was and the rerun's now. */
static void
unit_changes(FILE *say, const struct crown_state *was,
    const struct crown_state *now)
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
		fprintf(say, "  %s (%s):%s\n", u->name != NULL ? u->name :
		    u->id, u->id, b.data + 1);
	}
	for (i = 0; i < now->nleaders; i++) {
		l = &now->leaders[i];
		if ((ol = crown_state_leader(was, l->id)) == NULL)
			continue;
		if (ol->status != l->status)
			fprintf(say, "  leader %s: %s -> %s\n", l->id,
			    crown_leader_status_names[ol->status],
			    crown_leader_status_names[l->status]);
	}
	if (same == now->nunits)
		fprintf(say, "  no unit differs\n");
	else if (same > 0)
		fprintf(say, "  %zu other unit%s as before\n", same,
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

/*
 * The orders of the turn rerun: the amended ones, checked against the
 * turn's start, each in place of its side's file; the others stand.
 */
static int
amended_orders(struct crown_outputs *orders, const struct rerun *x)
{
	const struct crown_chain *c = x->c;
	struct crown_outputs	  given = { 0 }, orig = { 0 };
	struct crown_orders	**ov = NULL;
	struct crown_buf	 *b;
	char			 *odir;
	size_t			  n = 0, i, j;
	int			  error;

	odir = crown_campaign_orders_dir(x->in->turn);
	if ((error = crown_play_read_files(&given, x->in->paths,
	    x->in->npaths, x->d)) != 0 ||
	    (error = crown_campaign_orders(&ov, &n, &given, x->camp.state,
	    x->camp.rules, x->d)) != 0)
		goto cleanup;
	if ((error = crown_history_files(&orig, x->h,
	    c->l.v[c->at[x->in->turn]].id, odir, x->d)) != 0 ||
	    (error = crown_campaign_orders_kept(orders, &given, ov, n, odir,
	    x->d)) != 0)
		goto cleanup;
	for (i = 0; i < orig.n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(orders->v[j].name, orig.v[i].name) == 0)
				break;
		if (j == n) {
			b = crown_outputs_add(orders, orig.v[i].name);
			crown_buf_add(b, orig.v[i].data.data,
			    orig.v[i].data.len);
		}
	}
cleanup:
	crown_campaign_orders_free(ov, n);
	crown_outputs_release(&orig);
	crown_outputs_release(&given);
	free(odir);
	return error;
}

/* The orders main played in a later turn k, less those that no longer
 * pass against where the rerun has got to. */
static int
later_orders(struct crown_outputs *orders, const struct rerun *x, int k)
{
	const struct crown_chain *c = x->c;
	struct crown_outputs	  orig = { 0 };
	char			 *odir;
	int			  error;

	odir = crown_campaign_orders_dir(k);
	if ((error = crown_history_files(&orig, x->h, c->l.v[c->at[k]].id,
	    odir, x->d)) == 0)
		error = filter_orders(orders, x->in->out, &orig, x->cur,
		    x->camp.rules, k, x->d);
	crown_outputs_release(&orig);
	free(odir);
	return error;
}

/*
 * The deadline turn k sets on the rerun line: the one main's turn k set
 * (crown turn's, of --every or --deadline, which the rerun's start
 * shares with main's), else the next of --every after the line's (a
 * state that cannot be read).  Caller frees.
 */
static char *
turn_deadline(const struct rerun *x, int k)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 st = { 0 };
	char			*deadline = NULL;

	if (crown_history_read(&st, x->h, x->c->l.v[x->c->at[k]].id,
	    CROWN_CAMPAIGN_STATE, &quiet) == 0)
		deadline = crown_state_deadline_of(st.data, st.len);
	if (deadline == NULL)
		deadline = crown_campaign_next_deadline(x->cur, NULL);
	crown_buf_release(&st);
	crown_diags_release(&quiet);
	return deadline;
}

/* Turn k played from where the line is, with orders, and committed. */
static int
rerun_turn(struct rerun *x, int k, const struct crown_outputs *orders)
{
	const struct crown_chain *c = x->c;
	const char		 *reason = x->in->reason, *sub;
	struct crown_outputs	  files = { 0 };
	struct crown_play_input	  in;
	struct crown_turn	  t = { 0 };
	unsigned char		  salt[CROWN_SALT_BYTES];
	unsigned char		  key[CROWN_SECRET_BYTES];
	char			  id[CROWN_OID_HEX + 1];
	char			 *msg = NULL, *deadline;
	int			  error, rc;

	/* main's salt for the turn, so that an amended order changes only
	 * the rolls it touches; none for a turn made before salts */
	rc = crown_campaign_salt_read(salt, x->h, c->l.v[c->at[k]].id, k,
	    x->d);
	if (rc != 0 && rc != CROWN_ENOTFOUND)
		return rc;
	/* and the turn's key of the dice chain, as main's turn had it */
	if ((error = crown_campaign_dice_key(key, x->cur, x->secret, k,
	    x->d)) != 0)
		return error;
	memset(&in, 0, sizeof(in));
	in.before = x->cur;
	in.rules = x->camp.rules;
	in.orders = orders;
	in.key = key;
	in.salt = rc == 0 ? salt : NULL;
	in.unsalted = rc != 0;
	in.templates = x->in->templates;
	deadline = turn_deadline(x, k);
	in.deadline = deadline;
	error = crown_play(&t, &in, x->d);
	free(deadline);
	if (error != 0)
		goto cleanup;
	crown_play_files(&files, &t, CROWN_PLAY_COMMIT);
	msg = xasprintf("Turn %d: %s\n" CROWN_RERUN_OF "%d with amended "
	    "orders (%s).\n%s%s%s%zu events.\n", k, t.headline, x->in->turn,
	    x->name, reason != NULL ? CROWN_REASON_KEY : "",
	    reason != NULL ? reason : "", reason != NULL ? "\n" : "",
	    t.ev.n);
	if ((error = commit(id, x->h, x->prev, &files, msg, &x->who.stamp,
	    x->d)) != 0)
		goto cleanup;
	sub = strchr(c->l.v[c->at[k]].subject, ':');
	fprintf(x->in->out, "turn %d: %s (was:%s)\n", k, t.headline,
	    sub != NULL ? sub + 1 : "");
	memcpy(x->prev, id, sizeof(x->prev));
	crown_state_free(x->cur);
	x->cur = t.after;
	t.after = NULL;
cleanup:
	sodium_memzero(key, sizeof(key));
	free(msg);
	crown_outputs_release(&files);
	crown_turn_release(&t);
	return error;
}

/* The roster and deadline changes after main's last turn, the branch
 * made or replaced (main and the work tree stay), and what differs. */
static int
finish(struct rerun *x)
{
	const struct crown_chain *c = x->c;
	struct crown_campaign	  last = { 0 };
	struct crown_advance	  step = { 0 };
	char			  id[CROWN_OID_HEX + 1];
	char			 *label;
	int			  error;

	if ((error = replay_admin(x->prev, x->h, c, c->at[c->last],
	    c->tip + 1, x->cur, &x->who.stamp, x->d)) != 0)
		return error;
	step.ref = x->branch;
	step.force = true;
	step.log = "crown rerun";
	step.to = x->prev;
	if ((error = crown_advance(id, x->h, &step, x->d)) != 0)
		return error;
	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_load(&last, x->h,
	    c->l.v[c->at[c->last]].id, label, x->d)) == 0) {
		fprintf(x->in->out, "after turn %d, against main "
		    "(%.7s -> %.7s):\n", c->last, c->l.v[c->at[c->last]].id,
		    x->prev);
		unit_changes(x->in->out, last.state, x->cur);
		fprintf(x->in->out, "adopt it with: crown adopt %s %s\n",
		    x->in->dir, x->name);
	}
	crown_campaign_release(&last);
	free(label);
	return error;
}

int
crown_campaign_rerun(const struct crown_rerun_input *in,
    struct crown_diags *d)
{
	const struct crown_chain *c = in->chain;
	struct crown_outputs	  orders = { 0 };
	struct rerun		  x;
	char			 *label = NULL;
	int			  error, k;

	memset(&x, 0, sizeof(x));
	x.in = in;
	x.h = in->h;
	x.c = c;
	x.d = d;
	if (in->turn > c->last) {
		crown_diag_add(d, in->dir, 0, 0, NULL, "no turn %d to rerun: "
		    "the campaign is at turn %d", in->turn, c->last);
		return CROWN_EINVALID;
	}
	label = xasprintf("turn-%d", in->turn - 1);
	/* from the commit before the turn: the turn before it, or a roster
	 * or deadline change after that */
	if ((error = crown_campaign_load(&x.camp, x.h,
	    c->l.v[c->at[in->turn] - 1].id, label, d)) != 0 ||
	    (error = crown_campaign_who(&x.who, in->umpire, in->date,
	    x.camp.state, d)) != 0 ||
	    (error = crown_campaign_secret(x.secret, x.h, in->secret_file,
	    x.camp.state->dice_commitment, false, d)) != 0 ||
	    (error = amended_orders(&orders, &x)) != 0)
		goto cleanup;

	x.branch = xasprintf("refs/heads/%s/turn-%d", CROWN_RERUN_BRANCH,
	    in->turn);
	x.name = x.branch + strlen("refs/heads/");
	fprintf(in->out, "rerun of turn %d on %s (main is untouched):\n",
	    in->turn, x.name);
	memcpy(x.prev, c->l.v[c->at[in->turn] - 1].id, sizeof(x.prev));
	x.cur = crown_state_clone(x.camp.state);
	for (k = in->turn; k <= c->last; k++) {
		if (k > in->turn) {
			crown_outputs_release(&orders);
			if ((error = replay_admin(x.prev, x.h, c,
			    c->at[k - 1], c->at[k], x.cur, &x.who.stamp,
			    d)) != 0 ||
			    (error = later_orders(&orders, &x, k)) != 0)
				goto cleanup;
		}
		if ((error = rerun_turn(&x, k, &orders)) != 0)
			goto cleanup;
	}
	error = finish(&x);
cleanup:
	sodium_memzero(x.secret, sizeof(x.secret));
	crown_state_free(x.cur);
	free(x.branch);
	free(label);
	crown_who_release(&x.who);
	crown_outputs_release(&orders);
	crown_campaign_release(&x.camp);
	return error;
}
