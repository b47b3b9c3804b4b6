/*
 * verify.c: crown verify's replay (verify.h): every committed turn
 * played again from its parent with its committed orders and the
 * campaign dice, through the one turn function (play.h), one turn after
 * another, and every file of each commit compared with the replay, byte
 * for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/gpgsign.h"
#include "crown/history.h"
#include "crown/play.h"
#include "crown/report.h"
#include "crown/svg.h"
#include "crown/verify.h"
#include "crown/xalloc.h"

struct verify {
	struct crown_history	*h;
	const char		*dir;
	struct crown_diags	*d;
	const char		*templates;
	bool			 have_secret;
	unsigned char		 secret[CROWN_SECRET_BYTES];
	const char		*secret_from;
	bool			 salted;	/* a turn so far had a salt */
	int			 other;		/* turns of another format */
	int			 other_format;	/* the first one's */
	/* the tags adopt left (replaced/turn-N) are not here: a clone made
	 * with --no-tags */
	bool			 no_tags;
	int			 tags_missing;	/* turn-N tags not here */
	const char		*message;	/* of the commit verified */
	/* the rules of main's tip, parsed once for every turn with the
	 * same bytes (NULL: none) */
	struct crown_buf	 rules_text;
	struct crown_rules	*rules;
	/* the umpire's key is not in the reader's keyring: the signatures
	 * are not checked (check_signatures) */
	bool			 key_missing;
};

/*
 * What a commit after the first writes: its files are read from it and
 * its parent whatever they hold; the rest of the two trees is compared
 * by object, unread (crown_history_files_diff), so that a long campaign
 * costs each turn only its own files.
 */
struct writes {
	const char	*files[3];	/* files at the top (NULL: none) */
	const char	*dirs[2];	/* directories (NULL: none) */
};

static bool
under(const char *path, const char *dir)
{
	size_t	n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static bool
written(const char *path, void *arg)
{
	const struct writes	*w = arg;
	size_t			 i, n = strlen(path);

	for (i = 0; i < CROWN_NELEM(w->files); i++)
		if (w->files[i] != NULL && strcmp(path, w->files[i]) == 0)
			return true;
	for (i = 0; i < CROWN_NELEM(w->dirs); i++) {
		if (w->dirs[i] == NULL)
			continue;
		/* in it, or a directory that holds it */
		if (under(path, w->dirs[i]) || (n > 0 &&
		    path[n - 1] == '/' && strncmp(w->dirs[i], path, n) == 0))
			return true;
	}
	return false;
}

static int
cmp_output(const void *a, const void *b)
{
	const struct crown_output *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

static const struct crown_output **
sorted(const struct crown_outputs *o)
{
	const struct crown_output	**v;
	size_t				  i;

	v = xcalloc(o->n ? o->n : 1, sizeof(*v));
	for (i = 0; i < o->n; i++)
		v[i] = &o->v[i];
	qsort(v, o->n, sizeof(*v), cmp_output);
	return v;
}

/* The line (from 1) of the first byte where a and b differ. */
static unsigned long
first_diff_line(const struct crown_buf *a, const struct crown_buf *b)
{
	size_t		i, n = a->len < b->len ? a->len : b->len;
	unsigned long	line = 1;

	for (i = 0; i < n && a->data[i] == b->data[i]; i++)
		if (a->data[i] == '\n')
			line++;
	return line;
}

/*
 * Compare the files of a commit with those expected; print the first
 * difference and return 1, or 0 when they are the same.
 */
static int
compare(FILE *out, const char *what, const struct crown_outputs *got,
    const struct crown_outputs *want)
{
	const struct crown_output	**g, **w;
	size_t				  i = 0, j = 0;
	int				  c, differs = 1;

	g = sorted(got);
	w = sorted(want);
	for (;;) {
		if (i == got->n && j == want->n) {
			differs = 0;
			break;
		}
		c = i == got->n ? 1 : j == want->n ? -1 :
		    strcmp(g[i]->name, w[j]->name);
		if (c < 0) {
			fprintf(out, "%s: %s:1: differs: the commit has "
			    "it, the replay does not\n", what, g[i]->name);
			break;
		}
		if (c > 0) {
			fprintf(out, "%s: %s:1: differs: missing from the "
			    "commit\n", what, w[j]->name);
			break;
		}
		if (g[i]->data.len != w[j]->data.len ||
		    memcmp(g[i]->data.data, w[j]->data.data,
		    g[i]->data.len) != 0) {
			fprintf(out, "%s: %s:%lu: differs\n", what, g[i]->name,
			    first_diff_line(&g[i]->data, &w[j]->data));
			break;
		}
		i++;
		j++;
	}
	free(g);
	free(w);
	return differs;
}

static void
add_copy(struct crown_outputs *to, const struct crown_output *o)
{
	struct crown_buf	*b;

	b = crown_outputs_add(to, o->name);
	crown_buf_add(b, o->data.data, o->data.len);
}

/* to += the files of from under prefix (all when NULL). */
static void
add_under(struct crown_outputs *to, const struct crown_outputs *from,
    const char *prefix)
{
	size_t	i;

	for (i = 0; i < from->n; i++)
		if (prefix == NULL || under(from->v[i].name, prefix))
			add_copy(to, &from->v[i]);
}

static const struct crown_output *
find(const struct crown_outputs *o, const char *name)
{
	size_t	i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->v[i].name, name) == 0)
			return &o->v[i];
	return NULL;
}

/* Turn 0: the scenario made into the first state. */
static int
verify_turn0(struct verify *v, const char *id, const struct crown_outputs *got)
{
	const struct crown_output	*scen, *rules_f, *state_f, *ign;
	const struct crown_output	*map;
	struct crown_outputs		 want = { 0 };
	struct crown_state		*s = NULL, *committed = NULL;
	struct crown_rules		*rules = NULL;
	struct crown_events		 ev = { 0 };
	struct crown_buf		*b;
	unsigned char			 k0[CROWN_SECRET_BYTES];
	int				 bad = 1;

	scen = find(got, CROWN_CAMPAIGN_SCENARIO);
	rules_f = find(got, CROWN_CAMPAIGN_RULES);
	state_f = find(got, CROWN_CAMPAIGN_STATE);
	if (scen == NULL || rules_f == NULL || state_f == NULL) {
		printf("turn 0: %s:1: differs: missing from the commit\n",
		    scen == NULL ? CROWN_CAMPAIGN_SCENARIO : rules_f == NULL ?
		    CROWN_CAMPAIGN_RULES : CROWN_CAMPAIGN_STATE);
		return 1;
	}
	if (crown_rules_parse(&rules, "turn-0:" CROWN_CAMPAIGN_RULES,
	    rules_f->data.data, rules_f->data.len, v->d) != 0 ||
	    crown_state_parse(&committed, "turn-0:" CROWN_CAMPAIGN_STATE,
	    state_f->data.data, state_f->data.len, v->d) != 0 ||
	    crown_state_parse(&s, "turn-0:" CROWN_CAMPAIGN_SCENARIO,
	    scen->data.data, scen->data.len, v->d) != 0) {
		printf("turn 0: cannot be read\n");
		goto cleanup;
	}
	add_copy(&want, scen);
	add_copy(&want, rules_f);
	crown_campaign_format_file(&want);
	/* the ignore list is the work tree's business, not the game's: as
	 * committed (crown versions may list more) */
	if ((ign = find(got, CROWN_CAMPAIGN_IGNORE)) != NULL)
		add_copy(&want, ign);
	else
		crown_buf_puts(crown_outputs_add(&want, CROWN_CAMPAIGN_IGNORE),
		    CROWN_CAMPAIGN_IGNORE_TEXT);
	/* the umpire is crown new's input (--umpire), like the date: as
	 * committed */
	if (committed->umpire.name != NULL ||
	    committed->umpire.email != NULL) {
		free(s->umpire.name);
		free(s->umpire.email);
		s->umpire.name = committed->umpire.name != NULL ?
		    xstrdup(committed->umpire.name) : NULL;
		s->umpire.email = committed->umpire.email != NULL ?
		    xstrdup(committed->umpire.email) : NULL;
	}
	/* and so is the key that signs (--sign) */
	if (committed->umpire.openpgp != NULL) {
		free(s->umpire.openpgp);
		s->umpire.openpgp = xstrdup(committed->umpire.openpgp);
	}
	/* turn 0 rolls with k(0), the committed dice_commitment (dice.c):
	 * replayed without the secret, which find_secret checked against it
	 * when there is one */
	if (committed->dice_commitment == NULL ||
	    crown_campaign_secret_parse(k0, committed->dice_commitment,
	    strlen(committed->dice_commitment)) != 0) {
		printf("turn 0: state.yaml: no dice_commitment\n");
		goto cleanup;
	}
	b = crown_outputs_add(&want, CROWN_CAMPAIGN_STATE);
	if (crown_campaign_normalise_key(b, s, rules, scen->data.data,
	    scen->data.len, k0, &ev, v->d) != 0) {
		printf("turn 0: the scenario is not sound\n");
		goto cleanup;
	}
	b = crown_outputs_add(&want, "turns/turn-000/" CROWN_CAMPAIGN_EVENTS);
	if (crown_events_emit(b, &ev) != 0) {
		printf("turn 0: the events cannot be written\n");
		goto cleanup;
	}
	/* the opening map (campaigns begun before it have none): drawn
	 * again, as the turns' reports are */
	if ((map = find(got, "turns/turn-000/" CROWN_CAMPAIGN_MAP)) != NULL &&
	    crown_svg_opening(crown_outputs_add(&want,
	    "turns/turn-000/" CROWN_CAMPAIGN_MAP), s, rules, v->templates,
	    v->d) != 0) {
		printf("turn 0: the opening map cannot be drawn\n");
		goto cleanup;
	}
	if (compare(stdout, "turn 0", got, &want) != 0)
		goto cleanup;
	printf("turn 0: ok (dice: replayed from k(0), the commitment)\n");
	bad = 0;
cleanup:
	crown_events_release(&ev);
	crown_outputs_release(&want);
	crown_rules_free(rules);
	crown_state_free(committed);
	crown_state_free(s);
	(void)id;
	return bad;
}

/* The salt of turn k from the orders files of commit id, as first
 * adjudicated there: 0, or -1 if they cannot be read. */
static int
salt_of_commit(unsigned char *salt, struct verify *v, const char *id, int k)
{
	struct crown_outputs	  files = { 0 };
	struct crown_diags	  quiet = { 0 };
	struct crown_orders	**ov;
	char			 *odir;
	size_t			  i;
	int			  bad = 0;

	odir = crown_campaign_orders_dir(k);
	if (crown_history_files(&files, v->h, id, odir, &quiet) != 0)
		bad = -1;
	ov = xcalloc(files.n ? files.n : 1, sizeof(*ov));
	for (i = 0; i < files.n; i++)
		if (crown_orders_parse(&ov[i], files.v[i].name,
		    files.v[i].data.data, files.v[i].data.len, &quiet) != 0)
			bad = -1;
	if (bad == 0)
		crown_campaign_salt(salt, k, &files, ov, files.n);
	crown_campaign_orders_free(ov, files.n);
	crown_outputs_release(&files);
	crown_diags_release(&quiet);
	free(odir);
	return bad;
}

/*
 * Is salt that of turn k as first adjudicated on a line main replaced
 * (a rerun keeps the salt of the turn it replaces, dice.c)?  The tag
 * that keeps the line goes to *tag (caller frees), or NULL.
 */
static void
replaced_salt(char **tag, struct verify *v, int k, const unsigned char *salt)
{
	struct crown_chain	 line;
	struct crown_diags	 quiet = { 0 };
	unsigned char		 was[CROWN_SALT_BYTES];
	char			**tags = NULL;
	const char		*rerun;
	size_t			 i, n = 0;

	*tag = NULL;
	if (crown_history_refs(&tags, &n, v->h, "refs/tags/"
	    CROWN_REPLACED_TAG "/*", &quiet) != 0)
		n = 0;
	/* a rerun's salt and no line adopt kept at all, in a clone that
	 * lacks turn tags too: the tags were not fetched (--no-tags), not a
	 * difference; with every turn's tag here, nothing checks the salt */
	if (n == 0 && v->tags_missing > 0 && v->message != NULL &&
	    (rerun = strstr(v->message, CROWN_RERUN_OF)) != NULL) {
		v->no_tags = true;
		crown_diag_add(v->d, v->dir, 0, 0, NULL, "turn %d is a "
		    "rerun's: its dice salt is checked against the line adopt "
		    "replaced, tag %s/turn-%ld, which is not here: fetch the "
		    "tags with `git fetch --tags`", k, CROWN_REPLACED_TAG,
		    strtol(rerun + strlen(CROWN_RERUN_OF), NULL, 10));
	}
	for (i = 0; i < n; i++) {
		if (*tag == NULL && crown_campaign_chain(&line, v->h, tags[i],
		    &quiet) == 0) {
			if (line.last >= k && salt_of_commit(was, v,
			    line.l.v[line.at[k]].id, k) == 0 &&
			    sodium_memcmp(was, salt, sizeof(was)) == 0)
				*tag = xstrdup(tags[i] +
				    strlen("refs/tags/"));
			crown_chain_release(&line);
		}
		free(tags[i]);
	}
	free(tags);
	crown_diags_release(&quiet);
}

/*
 * The salt turn k (commit id) must have, into t: that of its committed
 * orders (crown_play_read took it); for an adopted rerun, that of the
 * turn it replaced (*tag names the line kept); none (the old keying) for
 * a turn without a salt, one made before salts, which none of the turns
 * after a salted one may be.
 */
static void
want_salt(char **tag, struct verify *v, int k, const char *id,
    struct crown_turn *t)
{
	struct crown_diags	quiet = { 0 };
	unsigned char		recorded[CROWN_SALT_BYTES];
	int			rc;

	*tag = NULL;
	rc = crown_campaign_salt_read(recorded, v->h, id, k, &quiet);
	crown_diags_release(&quiet);
	if (rc == CROWN_ENOTFOUND) {
		t->salted = v->salted;
		return;
	}
	v->salted = true;
	if (rc != 0 || sodium_memcmp(recorded, t->salt, sizeof(recorded)) ==
	    0)
		return;
	replaced_salt(tag, v, k, recorded);
	if (*tag != NULL)
		memcpy(t->salt, recorded, sizeof(recorded));
}

/*
 * The key turn k (commit id) is replayed with: its committed dice-key,
 * which must come back to the commitment of the dice chain of start (the
 * state it starts from) and, with the secret, be the secret's.  0, or 1
 * when it is missing or wrong (printed, naming the turn).
 */
static int
turn_key(unsigned char *key, struct verify *v, int k, const char *id,
    const struct crown_state *start)
{
	struct crown_diags	 quiet = { 0 };
	unsigned char		 mine[CROWN_SECRET_BYTES];
	char			*dir;
	const char		*why = NULL;
	int			 rc;

	rc = crown_campaign_dice_key_read(key, v->h, id, k, &quiet);
	crown_diags_release(&quiet);
	/* a clone that lacks the object: said on stderr, no difference */
	if (rc != 0 && crown_history_missing(v->h))
		return 1;
	if (rc == CROWN_ENOTFOUND)
		why = "differs: missing from the commit";
	else if (rc != 0)
		why = "differs: not a dice key (64 hex digits)";
	else if (!crown_campaign_dice_key_ok(start, k, key))
		why = "differs: the key does not chain back to the dice "
		    "commitment";
	else if (v->have_secret) {
		rc = crown_campaign_dice_key(mine, start, v->secret, k,
		    &quiet);
		crown_diags_release(&quiet);
		if (rc != 0 || sodium_memcmp(mine, key, sizeof(mine)) != 0)
			why = "differs: not the key of the campaign secret";
		sodium_memzero(mine, sizeof(mine));
	}
	if (why == NULL)
		return 0;
	dir = crown_campaign_turn_dir(k);
	printf("turn %d: %s/%s:1: %s\n", k, dir, CROWN_CAMPAIGN_DICE_KEY,
	    why);
	free(dir);
	return 1;
}

/*
 * What a turn starts from, its parent's: the state from pfiles (the turn
 * writes state.yaml, so the diff read it already) and, when the parent's
 * rules are the bytes of v->rules_text, v->rules (*shared: not the
 * caller's to free) rather than parsed again; else crown_campaign_load.
 */
static int
load_start(struct crown_campaign *camp, bool *shared, struct verify *v,
    const char *parent, const struct crown_outputs *pfiles,
    const char *label)
{
	const struct crown_output *st = find(pfiles, CROWN_CAMPAIGN_STATE);
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 b = { 0 };
	char			*name;
	int			 error, format = 0;
	bool			 same;

	memset(camp, 0, sizeof(*camp));
	*shared = false;
	same = st != NULL && v->rules != NULL && crown_campaign_format(&format,
	    v->h, parent, &quiet) == 0 && format == CROWN_CAMPAIGN_FORMAT &&
	    crown_history_read(&b, v->h, parent, CROWN_CAMPAIGN_RULES,
	    &quiet) == 0 && b.len == v->rules_text.len &&
	    memcmp(b.data, v->rules_text.data, b.len) == 0;
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	if (!same)
		return crown_campaign_load(camp, v->h, parent, label, v->d);
	camp->rules = v->rules;
	*shared = true;
	name = xasprintf("%s:%s", label, CROWN_CAMPAIGN_STATE);
	error = crown_state_parse(&camp->state, name, st->data.data,
	    st->data.len, v->d);
	free(name);
	return error;
}

/*
 * Turn k: replayed from its parent with its committed orders and
 * compared.  got: the files of the turn's commit that are not in its
 * parent as they are, or that the turn writes; pfiles: the parent's of
 * the same.
 */
static int
verify_turn(struct verify *v, int k, const char *parent, const char *id,
    const struct crown_outputs *pfiles, const struct crown_outputs *got)
{
	struct crown_campaign	 camp = { 0 };
	struct crown_outputs	 orders = { 0 }, want = { 0 };
	struct crown_play_input	 in;
	struct crown_turn	 t = { 0 };
	const struct crown_output *st;
	unsigned char		 key[CROWN_SECRET_BYTES];
	char			*label, *odir, *what = NULL;
	char			*deadline = NULL, *tag = NULL;
	size_t			 i;
	int			 bad = 1;
	bool			 shared = false;

	label = xasprintf("turn-%d", k - 1);
	odir = crown_campaign_orders_dir(k);
	if (load_start(&camp, &shared, v, parent, pfiles, label) != 0) {
		printf("turn %d: the state it starts from cannot be read\n",
		    k);
		goto cleanup;
	}
	add_under(&orders, got, odir);
	/* what the turn carries over from its parent */
	for (i = 0; i < pfiles->n; i++)
		if (strcmp(pfiles->v[i].name, CROWN_CAMPAIGN_STATE) != 0)
			add_copy(&want, &pfiles->v[i]);
	memset(&in, 0, sizeof(in));
	in.before = camp.state;
	in.rules = camp.rules;
	in.orders = &orders;
	in.templates = v->templates;
	if (crown_play_read(&t, &in, v->d) != 0) {
		printf("turn %d: the committed orders are not valid\n", k);
		goto cleanup;
	}
	/* each side's orders under its own name, as crown turn puts them */
	for (i = 0; i < t.norders; i++) {
		free(what);
		what = xasprintf("%s/%s.yaml", odir, t.orders[i]->side);
		if (strcmp(what, t.orders[i]->file) != 0) {
			printf("turn %d: %s:1: differs: the orders of side "
			    "'%s' belong in %s\n", k, t.orders[i]->file,
			    t.orders[i]->side, what);
			goto cleanup;
		}
	}
	free(what);
	what = NULL;
	want_salt(&tag, v, k, id, &t);
	if (v->no_tags || turn_key(key, v, k, id, camp.state) != 0)
		goto cleanup;
	/* the deadline is the umpire's input, like the date: take it from
	 * the committed state; a broken state shows up in the comparison
	 * below */
	if ((st = find(got, CROWN_CAMPAIGN_STATE)) != NULL)
		deadline = crown_state_deadline_of(st->data.data,
		    st->data.len);
	in.key = key;
	in.deadline = deadline;
	if (crown_play_resolve(&t, &in, v->d) != 0) {
		printf("turn %d: cannot be replayed from its committed "
		    "orders\n", k);
		goto cleanup;
	}
	crown_play_files(&want, &t, CROWN_PLAY_COMMIT);
	what = xasprintf("turn %d", k);
	if (compare(stdout, what, got, &want) != 0)
		goto cleanup;
	printf("turn %d: ok (dice: replayed from the turn's key", k);
	if (tag != NULL)
		printf("; the dice salt of turn %d of %s", k, tag);
	printf(")\n");
	bad = 0;
cleanup:
	free(tag);
	free(deadline);
	crown_turn_release(&t);
	crown_outputs_release(&want);
	crown_outputs_release(&orders);
	if (shared)
		camp.rules = NULL;
	crown_campaign_release(&camp);
	free(what);
	free(odir);
	free(label);
	return bad;
}

/*
 * A roster or deadline change (amend.c): it may change state.yaml, and
 * only its players and deadline.
 */
static int
verify_admin(struct verify *v, const struct crown_hcommit *hc,
    const struct crown_outputs *pfiles, const struct crown_outputs *got)
{
	struct crown_state	*before = NULL, *after = NULL;
	const struct crown_output *a = find(got, CROWN_CAMPAIGN_STATE);
	const struct crown_output *b = find(pfiles, CROWN_CAMPAIGN_STATE);
	const char		*what = hc->subject[0] == 'R' ? "roster" :
	    "deadline";
	size_t			 i;
	int			 bad = 1;

	for (i = 0; i < got->n; i++)
		if (strcmp(got->v[i].name, CROWN_CAMPAIGN_STATE) != 0) {
			printf("%s %.7s: %s:1: differs: a %s change changes "
			    "only %s\n", what, hc->id, got->v[i].name, what,
			    CROWN_CAMPAIGN_STATE);
			return 1;
		}
	if (a == NULL || b == NULL || crown_state_parse(&before,
	    CROWN_CAMPAIGN_STATE, b->data.data, b->data.len, v->d) != 0 ||
	    crown_state_parse(&after, CROWN_CAMPAIGN_STATE, a->data.data,
	    a->data.len, v->d) != 0)
		printf("%s %.7s: %s cannot be read\n", what, hc->id,
		    CROWN_CAMPAIGN_STATE);
	else if (!crown_campaign_admin_only(before, after))
		printf("%s %.7s: %s:1: differs: a %s change changes only the "
		    "players and the deadline\n", what, hc->id,
		    CROWN_CAMPAIGN_STATE, what);
	else {
		printf("%s %.7s: ok\n", what, hc->id);
		bad = 0;
	}
	crown_state_free(before);
	crown_state_free(after);
	return bad;
}

/* Is every line of a in b, in order (b only adds lines)? */
static bool
only_adds(const struct crown_buf *a, const struct crown_buf *b)
{
	const char	*p = a->data, *q = b->data, *pe, *qe;
	const char	*aend = a->data + a->len, *bend = b->data + b->len;

	while (p < aend) {
		pe = memchr(p, '\n', (size_t)(aend - p));
		pe = pe != NULL ? pe + 1 : aend;
		for (;; q = qe) {
			if (q >= bend)
				return false;
			qe = memchr(q, '\n', (size_t)(bend - q));
			qe = qe != NULL ? qe + 1 : bend;
			if (qe - q == pe - p && memcmp(p, q,
			    (size_t)(pe - p)) == 0)
				break;
		}
		q = qe;
		p = pe;
	}
	return true;
}

/*
 * The state.yaml of crown upgrade's commit: its parent's with
 * game.dice_chain from the next turn on, nothing else.  The chain's
 * commitment is checked against the secret when there is one; else at
 * the reveal.  The turn it begins at, or 0 (printed).
 */
static int
upgrade_chain(struct verify *v, const struct crown_hcommit *hc,
    const struct crown_outputs *pfiles, const struct crown_outputs *got)
{
	const struct crown_output *a = find(pfiles, CROWN_CAMPAIGN_STATE);
	const struct crown_output *b = find(got, CROWN_CAMPAIGN_STATE);
	struct crown_state	*before = NULL, *after = NULL;
	struct crown_buf	 want = { 0 };
	char			 hex[2 * CROWN_SECRET_BYTES + 1];
	const char		*why = NULL;
	int			 from = 0;

	if (b == NULL)
		why = "missing from the commit: an upgrade begins the dice "
		    "chain in game.dice_chain";
	else if (a == NULL || crown_state_parse(&before, "turn:"
	    CROWN_CAMPAIGN_STATE, a->data.data, a->data.len, v->d) != 0 ||
	    crown_state_parse(&after, "upgrade:" CROWN_CAMPAIGN_STATE,
	    b->data.data, b->data.len, v->d) != 0)
		why = "cannot be read";
	else if (before->dice_chain_commitment != NULL ||
	    after->dice_chain_commitment == NULL ||
	    after->dice_chain_from != before->turn + 1)
		why = "differs: game.dice_chain begins at the turn after the "
		    "upgrade";
	else if (crown_campaign_upgrade_state(&want, a->data.data,
	    a->data.len, after->dice_chain_from,
	    after->dice_chain_commitment) != 0 || want.len != b->data.len ||
	    memcmp(want.data, b->data.data, want.len) != 0)
		why = "differs: an upgrade only adds game.dice_chain to it";
	else if (v->have_secret) {
		crown_campaign_upgrade_chain(hex, v->secret);
		if (strcmp(hex, after->dice_chain_commitment) != 0)
			why = "differs: game.dice_chain is not the chain of "
			    "the campaign secret";
	}
	if (why != NULL)
		printf("upgrade %.7s: %s:1: %s\n", hc->id,
		    CROWN_CAMPAIGN_STATE, why);
	else
		from = after->dice_chain_from;
	crown_buf_release(&want);
	crown_state_free(before);
	crown_state_free(after);
	return from;
}

/*
 * crown upgrade's commit: from an older format to this crown's, it
 * writes format.yaml and adds lines to rules.yaml, which must load as
 * this crown's rules; nothing else.
 */
static int
verify_upgrade(struct verify *v, const struct crown_hcommit *hc, int from,
    const struct crown_outputs *pfiles, const struct crown_outputs *got)
{
	const struct crown_output *a = find(pfiles, CROWN_CAMPAIGN_RULES);
	const struct crown_output *b = find(got, CROWN_CAMPAIGN_RULES);
	const struct crown_output *f = find(got, CROWN_CAMPAIGN_FORMAT_FILE);
	struct crown_outputs	 want = { 0 };
	struct crown_rules	*rules = NULL;
	size_t			 i;
	int			 bad = 1, from_turn;

	for (i = 0; i < got->n; i++)
		if (strcmp(got->v[i].name, CROWN_CAMPAIGN_RULES) != 0 &&
		    strcmp(got->v[i].name, CROWN_CAMPAIGN_FORMAT_FILE) != 0 &&
		    strcmp(got->v[i].name, CROWN_CAMPAIGN_STATE) != 0) {
			printf("upgrade %.7s: %s:1: differs: an upgrade "
			    "changes only %s, %s and %s\n", hc->id,
			    got->v[i].name, CROWN_CAMPAIGN_RULES,
			    CROWN_CAMPAIGN_FORMAT_FILE, CROWN_CAMPAIGN_STATE);
			return 1;
		}
	crown_campaign_format_file(&want);
	if (from >= CROWN_CAMPAIGN_FORMAT)
		printf("upgrade %.7s: %s:1: differs: the campaign was in "
		    "format %d already\n", hc->id, CROWN_CAMPAIGN_FORMAT_FILE,
		    from);
	else if (f == NULL || f->data.len != want.v[0].data.len ||
	    memcmp(f->data.data, want.v[0].data.data, f->data.len) != 0)
		printf("upgrade %.7s: %s:1: differs: not format %d\n", hc->id,
		    CROWN_CAMPAIGN_FORMAT_FILE, CROWN_CAMPAIGN_FORMAT);
	else if (a == NULL || b == NULL || !only_adds(&a->data, &b->data))
		printf("upgrade %.7s: %s:1: differs: an upgrade only adds "
		    "lines to it\n", hc->id, CROWN_CAMPAIGN_RULES);
	else if (crown_rules_parse(&rules, "upgrade:" CROWN_CAMPAIGN_RULES,
	    b->data.data, b->data.len, v->d) != 0)
		printf("upgrade %.7s: %s: not rules this crown reads\n",
		    hc->id, CROWN_CAMPAIGN_RULES);
	else if ((from_turn = upgrade_chain(v, hc, pfiles, got)) > 0) {
		printf("upgrade %.7s: ok: format %d to %d, %s only gains "
		    "lines; the dice chain begins at turn %d (the turns "
		    "before: format %d, dice checked at the reveal)\n",
		    hc->id, from, CROWN_CAMPAIGN_FORMAT, CROWN_CAMPAIGN_RULES,
		    from_turn, from);
		bad = 0;
	}
	crown_rules_free(rules);
	crown_outputs_release(&want);
	return bad;
}

static int
verify_reveal(struct verify *v, const struct crown_outputs *pfiles,
    const struct crown_outputs *got)
{
	struct crown_outputs	 want = { 0 };
	struct crown_buf	*b;
	char			*hex;
	size_t			 i;
	int			 bad;

	for (i = 0; i < pfiles->n; i++)
		add_copy(&want, &pfiles->v[i]);
	b = crown_outputs_add(&want, CROWN_CAMPAIGN_REVEALED);
	hex = crown_campaign_secret_hex(v->secret);
	crown_buf_puts(b, hex);
	free(hex);
	bad = compare(stdout, "reveal", got, &want);
	if (!bad)
		printf("reveal: ok: the secret matches the commitment of "
		    "turn 0\n");
	crown_outputs_release(&want);
	return bad;
}

/*
 * The secret: --secret-file, .git/crown-secret, or the revealed
 * secret.hex; checked against turn 0's commitment.  Returns 1 if a
 * secret is there but wrong, 2 if the file holds no secret (malformed:
 * nothing to replay with, rather than a campaign that differs).
 */
static int
find_secret(struct verify *v, const struct crown_chain *c,
    const char *path)
{
	struct crown_state	*s0 = NULL;
	struct crown_buf	b = { 0 };
	struct crown_diags	quiet = { 0 };
	int			error, bad = 0;

	/* the state alone: the rules of a campaign of another format may
	 * not load */
	error = crown_history_read(&b, v->h, c->l.v[c->at[0]].id,
	    CROWN_CAMPAIGN_STATE, v->d);
	if (error == 0)
		error = crown_state_parse(&s0, "turn-0:" CROWN_CAMPAIGN_STATE,
		    b.data, b.len, v->d);
	crown_buf_release(&b);
	if (error != 0)
		return 1;
	error = crown_campaign_secret(v->secret, v->h, path, NULL, path ==
	    NULL, v->d);
	if (error == 0)
		v->secret_from = path != NULL ? path : ".git/crown-secret";
	else if (error == CROWN_ENOTFOUND && path == NULL && c->revealed &&
	    crown_history_read(&b, v->h, c->l.v[c->reveal].id,
	    CROWN_CAMPAIGN_REVEALED, &quiet) == 0) {
		error = crown_campaign_secret_parse(v->secret, b.data, b.len);
		if (error == 0)
			v->secret_from = CROWN_CAMPAIGN_REVEALED;
		else {
			printf("reveal: %s: not a secret\n",
			    CROWN_CAMPAIGN_REVEALED);
			bad = 1;
		}
	} else if (error == CROWN_EINVALID)
		bad = 2;
	else if (error != CROWN_ENOTFOUND)
		bad = 1;
	if (error == 0) {
		v->have_secret = true;
		if (!crown_secret_matches(v->secret, s0->dice_commitment)) {
			printf("turn 0: %s: the secret (%s) does not match "
			    "the dice_commitment\n", CROWN_CAMPAIGN_STATE,
			    v->secret_from);
			bad = 1;
		}
	}
	crown_diags_release(&quiet);
	crown_buf_release(&b);
	crown_state_free(s0);
	return bad;
}

/* Tags are conveniences: say when one does not name main's turn. */
static void
check_tags(struct verify *v, const struct crown_chain *c)
{
	struct crown_diags	 quiet = { 0 };
	char			 have[CROWN_OID_HEX + 1], *ref;
	int			 k, rc, missing = 0;

	for (k = 0; k <= c->last; k++) {
		ref = xasprintf("refs/tags/turn-%d", k);
		rc = crown_history_ref_get(have, v->h, ref, &quiet);
		if (rc == CROWN_ENOTFOUND)
			missing++;
		else if (rc != 0 || strcmp(have, c->l.v[c->at[k]].id) != 0)
			fprintf(stderr, "crown verify: warning: tag turn-%d "
			    "does not name turn %d of main (fetch the tags "
			    "again with `git fetch --tags --force`)\n", k, k);
		free(ref);
	}
	/* a clone made with --no-tags: once, not a line a turn */
	v->tags_missing = missing;
	if (missing > 0)
		fprintf(stderr, "crown verify: warning: %d of the %d tags "
		    "turn-N %s missing (fetch the tags with `git fetch "
		    "--tags`)\n", missing, c->last + 1, missing > 1 ? "are" :
		    "is");
	crown_diags_release(&quiet);
}

/*
 * What a signature found wrong, on standard output: the commit i of the
 * line, or the tag (NULL: none).  Consumes why.
 */
static void
sig_wrong(const struct crown_chain *c, size_t i, const char *tag, int rc,
    char *why, const char *fpr)
{
	const struct crown_hcommit	*hc = &c->l.v[i];
	int				 k;

	k = crown_campaign_subject_turn(hc->subject);
	if (k >= 0)
		printf("turn %d: ", k);
	if (tag != NULL)
		printf("tag %s", tag);
	else
		printf("commit %.7s%s%s%s", hc->id, k < 0 ? " (" : "",
		    k < 0 ? hc->subject : "", k < 0 ? ")" : "");
	if (rc == CROWN_ENOTFOUND)
		printf(": not signed, though game.umpire.openpgp names the "
		    "umpire's key %s\n", fpr);
	else
		printf(": %s\n", why != NULL ? why : "cannot be checked");
	free(why);
}

/*
 * A signed history (game.umpire.openpgp in the state at the end of the
 * line): every commit of the line from the first signed one, and every
 * annotated tag turn-N and reveal of those, signed by the umpire's key,
 * as git verify-commit and git verify-tag would find them.  1 when one
 * is not (said on standard output), else 0; when the reader's keyring
 * lacks the key, v->key_missing and what to import.
 */
static int
check_signatures(struct verify *v, const struct crown_chain *c)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 text = { 0 };
	struct crown_state	*s = NULL;
	const char		*fpr;
	char			*why = NULL, *tag;
	size_t			 i, first = c->l.n, ncommits = 0, ntags = 0;
	int			 k, rc, bad = 0;

	if (c->l.n == 0 || crown_history_read(&text, v->h,
	    c->l.v[c->l.n - 1].id, CROWN_CAMPAIGN_STATE, &quiet) != 0 ||
	    crown_state_parse(&s, CROWN_CAMPAIGN_STATE, text.data, text.len,
	    &quiet) != 0 || (fpr = s->umpire.openpgp) == NULL)
		goto cleanup;
	for (i = 0; i < c->l.n && !bad; i++) {
		rc = crown_history_commit_signed(&why, v->h, c->l.v[i].id,
		    fpr);
		if (rc == CROWN_ENOTFOUND && first == c->l.n &&
		    i + 1 < c->l.n)
			continue;	/* before the first signed one */
		if (rc == CROWN_EUNAVAILABLE) {
			printf("verify: the signatures %s\n", why);
			free(why);
			v->key_missing = true;
			goto cleanup;
		}
		if (first == c->l.n)
			first = i;
		if (rc != 0) {
			sig_wrong(c, i, NULL, rc, why, fpr);
			bad = 1;
		} else
			ncommits++;
	}
	/* the tags of the turns (and the reveal) signed since */
	for (k = 0; k <= c->last + 1 && !bad; k++) {
		if (k > c->last && !c->revealed)
			break;
		i = k > c->last ? c->reveal : c->at[k];
		tag = k > c->last ? xstrdup(CROWN_REVEAL_TAG) :
		    xasprintf("turn-%d", k);
		rc = crown_history_tag_signed(&why, v->h, tag, fpr);
		if (i >= first && rc != CROWN_ENOTFOUND && rc != 0) {
			sig_wrong(c, i, tag, rc, why, fpr);
			bad = 1;
		} else {
			free(why);
			ntags += rc == 0;
		}
		free(tag);
	}
	if (!bad)
		printf("signatures: %zu commit%s and %zu tag%s signed by the "
		    "umpire's key %s\n", ncommits, ncommits == 1 ? "" : "s",
		    ntags, ntags == 1 ? "" : "s", fpr);
cleanup:
	crown_state_free(s);
	crown_buf_release(&text);
	crown_diags_release(&quiet);
	return bad;
}

/* Has the replay found the clone lacking objects or tags it needs? */
static bool
incomplete(const struct verify *v)
{
	return v->no_tags || crown_history_missing(v->h);
}

/* What verifying one commit of the line found. */
enum {
	COMMIT_OK,
	COMMIT_DIFFERS,		/* printed; the campaign differs */
	COMMIT_OTHER_FORMAT	/* a turn of another format: not replayed */
};

/*
 * Verify commit i of the line c against its parent (each commit on its
 * own: what it needs of the turns before is in v, set beforehand): print
 * what it finds, problems of the files to v->d.  *format is the commit's
 * format.
 */
static int
verify_commit(struct verify *v, const struct crown_chain *c, size_t i,
    int *format)
{
	struct crown_outputs	 got = { 0 }, pfiles = { 0 };
	struct writes		 w;
	const struct crown_hcommit *hc = &c->l.v[i];
	char			*odir, *tdir;
	int			 k, bad = 0, from = 1;

	k = crown_campaign_subject_turn(hc->subject);
	v->message = hc->message;
	if (crown_campaign_format(format, v->h, hc->id, v->d) != 0 ||
	    (i > 0 && crown_campaign_format(&from, v->h, c->l.v[i - 1].id,
	    v->d) != 0)) {
		if (!crown_history_missing(v->h))
			printf("commit %.7s: %s cannot be read\n", hc->id,
			    CROWN_CAMPAIGN_FORMAT_FILE);
		return COMMIT_DIFFERS;
	}
	if (k >= 0 && *format != CROWN_CAMPAIGN_FORMAT) {
		/* the bytes of another crown: nothing to compare */
		if (*format < CROWN_CAMPAIGN_FORMAT)
			printf("turn %d: not replayed (format %d: dice "
			    "checked at reveal): this crown writes format %d "
			    "and cannot replay it byte for byte\n", k,
			    *format, CROWN_CAMPAIGN_FORMAT);
		else
			printf("turn %d: not replayed: written in format %d; "
			    "this crown writes format %d and cannot replay it "
			    "byte for byte\n", k, *format,
			    CROWN_CAMPAIGN_FORMAT);
		return COMMIT_OTHER_FORMAT;
	}
	odir = crown_campaign_orders_dir(k);
	tdir = crown_campaign_turn_dir(k);
	memset(&w, 0, sizeof(w));
	if (k < 0 && crown_campaign_subject_admin(hc->subject))
		w.files[0] = CROWN_CAMPAIGN_STATE;
	else if (k < 0 && crown_campaign_subject_upgrade(hc->subject)) {
		w.files[0] = CROWN_CAMPAIGN_RULES;
		w.files[1] = CROWN_CAMPAIGN_FORMAT_FILE;
		w.files[2] = CROWN_CAMPAIGN_STATE;
	} else if (k > 0) {
		w.files[0] = CROWN_CAMPAIGN_STATE;
		w.dirs[0] = odir;
		w.dirs[1] = tdir;
	} else
		w.files[0] = CROWN_CAMPAIGN_REVEALED;
	if (i == 0 ? crown_history_files(&got, v->h, hc->id, "", v->d) != 0 :
	    crown_history_files_diff(&pfiles, &got, v->h, c->l.v[i - 1].id,
	    hc->id, written, &w, v->d) != 0) {
		/* objects missing: said on stderr (crown_history_missing) */
		if (!crown_history_missing(v->h))
			printf("commit %.7s cannot be read\n", hc->id);
		bad = 1;
	} else if (i == 0)
		bad = verify_turn0(v, hc->id, &got);
	else if (k < 0 && crown_campaign_subject_admin(hc->subject))
		bad = verify_admin(v, hc, &pfiles, &got);
	else if (k < 0 && crown_campaign_subject_upgrade(hc->subject))
		bad = verify_upgrade(v, hc, from, &pfiles, &got);
	else if (k > 0)
		bad = verify_turn(v, k, c->l.v[i - 1].id, hc->id, &pfiles,
		    &got);
	else if (v->have_secret)
		bad = verify_reveal(v, &pfiles, &got);
	crown_outputs_release(&got);
	crown_outputs_release(&pfiles);
	free(odir);
	free(tdir);
	return bad ? COMMIT_DIFFERS : COMMIT_OK;
}

/*
 * Every commit of the line, in order, each from its committed parent,
 * up to the first that differs.  Returns 1 when the campaign differs,
 * else 0.
 */
static int
verify_line(struct verify *v, const struct crown_chain *c)
{
	struct crown_diags quiet = { 0 };
	unsigned char	 salt[CROWN_SALT_BYTES];
	char		*tdir;
	size_t		 i;
	int		 bad = 0, format = 0, rc, k;
	bool		 salted = false;

	/* the rules most turns start from, parsed once */
	if (crown_history_read(&v->rules_text, v->h, c->l.v[c->tip].id,
	    CROWN_CAMPAIGN_RULES, &quiet) != 0 || crown_rules_parse(&v->rules,
	    CROWN_CAMPAIGN_RULES, v->rules_text.data, v->rules_text.len,
	    &quiet) != 0)
		v->rules = NULL;
	/* the templates as well, which every turn renders from */
	tdir = v->templates != NULL ? xstrdup(v->templates) :
	    crown_templates_find();
	crown_report_keep(tdir);
	free(tdir);
	for (i = 0; i < c->l.n && bad == 0 && !incomplete(v); i++) {
		/* whether a turn before this commit recorded a salt (no turn
		 * after a salted one may lack one, want_salt) */
		v->salted = salted;
		rc = verify_commit(v, c, i, &format);
		if (rc == COMMIT_DIFFERS)
			bad = 1;
		else if (rc == COMMIT_OTHER_FORMAT && v->other++ == 0)
			v->other_format = format;
		k = crown_campaign_subject_turn(c->l.v[i].subject);
		if (k > 0 && !salted && crown_campaign_salt_read(salt, v->h,
		    c->l.v[i].id, k, &quiet) != CROWN_ENOTFOUND)
			salted = true;
	}
	crown_diags_release(&quiet);
	crown_report_keep_end();
	crown_rules_free(v->rules);
	v->rules = NULL;
	crown_buf_release(&v->rules_text);
	return bad;
}

int
crown_campaign_verify(int *other, const struct crown_verify_input *in,
    struct crown_diags *d)
{
	const struct crown_chain *c = in->chain;
	struct verify		 v;
	int			 error = 0, bad = 0;

	*other = 0;
	memset(&v, 0, sizeof(v));
	v.dir = in->dir;
	v.d = d;
	v.templates = in->templates;
	v.h = in->h;
	bad = find_secret(&v, c, in->secret_file);
	if (!v.have_secret && (in->secret_file != NULL || bad == 2)) {
		error = in->secret_file != NULL &&
		    access(in->secret_file, R_OK) != 0 ? CROWN_ENOTFOUND :
		    CROWN_EINVALID;
		goto cleanup;
	}
	check_tags(&v, c);
	if (!bad)
		bad = check_signatures(&v, c);
	if (!bad)
		bad = verify_line(&v, c);
	if (bad && crown_history_damage(d)) {
		printf("verify: a damaged object stops the replay\n");
		error = CROWN_EDAMAGED;
	} else if (incomplete(&v)) {
		/* not a difference: what is missing is named on stderr */
		printf("verify: not finished: this clone lacks %s of the "
		    "history\n", v.no_tags ? "tags" : "objects");
		error = CROWN_EMISSING;
	} else if (bad) {
		printf("verify: the campaign differs from its replay\n");
		error = CROWN_EINVALID;
	} else if (v.key_missing) {
		/* the replay is sound; the signatures wait for the key */
		printf("verify: the turns match the replay, but the "
		    "signatures are not checked: import the umpire's key\n");
		error = CROWN_EUNAVAILABLE;
	} else if (v.other > 0) {
		printf("verify: %d turn%s written in format %d not replayed: "
		    "this crown writes format %d, and a replay byte for byte "
		    "needs a crown of format %d%s", v.other,
		    v.other > 1 ? "s" : "", v.other_format,
		    CROWN_CAMPAIGN_FORMAT, v.other_format,
		    v.other_format == 1 ? " (the first release)" : "");
		if (c->last + 1 > v.other)
			printf("; the %d other%s sound", c->last + 1 - v.other,
			    c->last > v.other ? "s are" : " is");
		printf("\n");
	} else
		printf("verify: %d turn%s match%s the replay (dice from each "
		    "turn's key; %s%s)\n", c->last + 1, c->last > 0 ? "s" :
		    "", c->last > 0 ? "" : "es", v.have_secret ? "secret from "
		    : "no secret needed", v.have_secret ? v.secret_from : "");
	*other = v.other;
cleanup:
	sodium_memzero(v.secret, sizeof(v.secret));
	return error;
}
