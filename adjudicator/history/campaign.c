/*
 * campaign.c: the campaign repository as crown sees it: the line of turns
 * on main, loading what a turn starts from out of a commit, and playing
 * one turn in memory (the function crown turn, verify and rerun share, so
 * that a replay gives the same bytes as the turn it checks).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/buildings.h"
#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/common.h"
#include "crown/diag.h"
#include "crown/engine.h"
#include "crown/fire.h"
#include "crown/leaders.h"
#include "crown/mail.h"
#include "crown/officers.h"
#include "crown/orders-read.h"
#include "crown/outputs.h"
#include "crown/paths.h"
#include "crown/tidy.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"


static bool	ident_ok(const char *);
static void	fallen_leaders(const struct crown_state *,
		    const struct crown_state *, int *, const char **, int *,
		    const char **);
static void	headline_count(struct crown_buf *, int, const char *,
		    const char *, const char *);

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *
crown_campaign_orders_dir(int turn)
{
	return xasprintf("orders/turn-%03d", turn);
}

char *
crown_campaign_turn_dir(int turn)
{
	return xasprintf("turns/turn-%03d", turn);
}

int
crown_campaign_subject_turn(const char *s)
{
	const char	*p;
	long		 n = 0;

	if (strncmp(s, "Turn ", 5) != 0)
		return -1;
	for (p = s + 5; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > 1000000)
			return -1;
	}
	if (p == s + 5 || *p != ':')
		return -1;
	return (int)n;
}

int
crown_campaign_chain(struct crown_chain *c, struct crown_history *h,
    const char *ref, struct crown_diags *d)
{
	struct crown_hcommit	*hc;
	size_t			 i;
	int			 error, k;

	memset(c, 0, sizeof(*c));
	error = crown_history_log(&c->l, h, ref, d);
	if (error == CROWN_ENOTFOUND) {
		crown_diag_add(d, crown_history_workdir(h), 0, 0, NULL,
		    "not a campaign: nothing committed on %s (did crown new "
		    "finish?)", ref);
		return error;
	}
	if (error != 0)
		return error;
	c->at = xcalloc(c->l.n, sizeof(*c->at));
	c->last = -1;
	for (i = 0; i < c->l.n; i++) {
		hc = &c->l.v[i];
		k = crown_campaign_subject_turn(hc->subject);
		if (hc->nparents > 1) {
			crown_diag_add(d, crown_history_workdir(h), 0, 0,
			    NULL, "commit %.7s is a merge; a campaign's line "
			    "is straight", hc->id);
			error = CROWN_EINVALID;
		} else if (c->revealed) {
			crown_diag_add(d, crown_history_workdir(h), 0, 0,
			    NULL, "commit %.7s ('%s') comes after the reveal",
			    hc->id, hc->subject);
			error = CROWN_EINVALID;
		} else if (k >= 0 && k == c->last + 1) {
			c->at[k] = i;
			c->last = k;
			c->tip = i;
			continue;
		} else if (i > 0 && (crown_campaign_subject_admin(hc->subject)
		    || crown_campaign_subject_upgrade(hc->subject))) {
			c->tip = i;
			continue;
		} else if (i > 0 && strncmp(hc->subject, "Reveal:", 7) == 0) {
			c->revealed = true;
			c->reveal = i;
			continue;
		} else {
			crown_diag_add(d, crown_history_workdir(h), 0, 0,
			    NULL, "commit %.7s ('%s') is not turn %d of the "
			    "campaign", hc->id, hc->subject, c->last + 1);
			error = CROWN_EINVALID;
		}
		break;
	}
	if (error != 0)
		crown_chain_release(c);
	return error;
}

int
crown_campaign_played(long long **times, size_t *n, char **deadline,
    struct crown_history *h, const struct crown_chain *c,
    struct crown_diags *d)
{
	struct crown_buf	 st = { 0 };
	size_t			 k;
	int			 error = 0;

	*n = (size_t)c->last + 1;
	*times = xcalloc(*n, sizeof(**times));
	for (k = 0; k < *n; k++)
		(*times)[k] = c->l.v[c->at[k]].time;
	*deadline = NULL;
	if (c->last > 0 && (error = crown_history_read(&st, h,
	    c->l.v[c->at[c->last] - 1].id, "state.yaml", d)) == 0)
		*deadline = crown_state_deadline_of(st.data, st.len);
	crown_buf_release(&st);
	if (*deadline == NULL)
		*deadline = xstrdup("");
	return error;
}

void
crown_chain_release(struct crown_chain *c)
{
	crown_hlist_release(&c->l);
	free(c->at);
	memset(c, 0, sizeof(*c));
}

/*
 * The rules of main's upgrade to this crown's format (crown upgrade) into
 * out: 0, or CROWN_ENOTFOUND when main has none.
 */
static int
upgraded_rules(struct crown_buf *out, struct crown_history *h)
{
	struct crown_chain	 c;
	struct crown_diags	 quiet = { 0 };
	size_t			 i;
	int			 error = CROWN_ENOTFOUND, format;

	if (crown_campaign_chain(&c, h, CROWN_MAIN_REF, &quiet) == 0) {
		for (i = 0; i < c.l.n && error != 0; i++)
			if (crown_campaign_subject_upgrade(c.l.v[i].subject) &&
			    crown_campaign_format(&format, h, c.l.v[i].id,
			    &quiet) == 0 && format == CROWN_CAMPAIGN_FORMAT &&
			    crown_history_read(out, h, c.l.v[i].id,
			    CROWN_CAMPAIGN_RULES, &quiet) == 0)
				error = 0;
		crown_chain_release(&c);
	}
	crown_diags_release(&quiet);
	return error;
}

int
crown_campaign_load(struct crown_campaign *out, struct crown_history *h,
    const char *commit, const char *label, struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	struct crown_diags	 quiet = { 0 };
	char			*name;
	int			 error, format;

	memset(out, 0, sizeof(*out));
	if ((error = crown_campaign_format(&format, h, commit, d)) != 0)
		goto fail;
	if (format > CROWN_CAMPAIGN_FORMAT) {
		crown_campaign_format_refuse(d, label,
		    crown_history_workdir(h), format);
		error = CROWN_EINVALID;
		goto fail;
	}
	name = xasprintf("%s:%s", label, CROWN_CAMPAIGN_STATE);
	error = crown_history_read(&b, h, commit, CROWN_CAMPAIGN_STATE, d);
	if (error == CROWN_ENOTFOUND)
		crown_diag_add(d, name, 0, 0, NULL, "missing");
	if (error == 0)
		error = crown_state_parse(&out->state, name, b.data, b.len,
		    d);
	free(name);
	crown_buf_release(&b);
	if (error != 0)
		goto fail;
	name = xasprintf("%s:%s", label, CROWN_CAMPAIGN_RULES);
	error = crown_history_read(&b, h, commit, CROWN_CAMPAIGN_RULES, d);
	if (error == CROWN_ENOTFOUND)
		crown_diag_add(d, name, 0, 0, NULL, "missing");
	if (error == 0)
		error = crown_rules_parse(&out->rules, name, b.data, b.len,
		    format == CROWN_CAMPAIGN_FORMAT ? d : &quiet);
	/*
	 * A turn of an older format, before main's upgrade: its rules are
	 * the upgrade's without what the upgrade added, which crown reads as
	 * the older crown played them (crown upgrade); without an upgrade,
	 * say so rather than what its rules lack.
	 */
	if (error != 0 && format < CROWN_CAMPAIGN_FORMAT) {
		crown_buf_release(&b);
		if (upgraded_rules(&b, h) == 0)
			error = crown_rules_parse(&out->rules, name, b.data,
			    b.len, d);
		else
			crown_campaign_format_refuse(d, label,
			    crown_history_workdir(h), format);
	}
	free(name);
	crown_buf_release(&b);
	crown_diags_release(&quiet);
	if (error != 0)
		goto fail;
	return 0;
fail:
	/* a file missing from a commit is a broken campaign, not a
	 * missing input */
	crown_campaign_release(out);
	return error == CROWN_ENOTFOUND ? CROWN_EINVALID : error;
}

void
crown_campaign_release(struct crown_campaign *c)
{
	crown_state_free(c->state);
	crown_rules_free(c->rules);
	memset(c, 0, sizeof(*c));
}

int
crown_campaign_orders(struct crown_orders ***out, size_t *n,
    const struct crown_outputs *orders, const struct crown_state *s,
    const struct crown_rules *rules, struct crown_diags *d)
{
	struct crown_orders_context	  ctx;
	struct crown_orders_read	  r;
	struct crown_orders		**v;
	size_t				  i, k = 0;
	int				  error = 0;

	*out = NULL;
	*n = 0;
	ctx.game = s->name;
	ctx.turn = s->turn + 1;
	ctx.sender = false;
	v = xcalloc(orders->n ? orders->n : 1, sizeof(*v));
	for (i = 0; i < orders->n; i++) {
		if (crown_orders_read(&r, orders->v[i].name,
		    orders->v[i].data.data, orders->v[i].data.len, &ctx, d) !=
		    0)
			error = CROWN_EINVALID;
		if ((v[k] = r.orders) != NULL)
			k++;
		r.orders = NULL;
		crown_orders_read_release(&r);
	}
	if (crown_orders_validate_set(v, k, s, rules, d) != 0)
		error = CROWN_EINVALID;
	if (error != 0) {
		crown_campaign_orders_free(v, k);
		return error;
	}
	*out = v;
	*n = k;
	return 0;
}

int
crown_campaign_orders_kept(struct crown_outputs *out,
    const struct crown_outputs *given, struct crown_orders *const *ov,
    size_t n, const char *dir, struct crown_diags *d)
{
	struct crown_buf	*b;
	size_t			 i;
	char			*p;

	for (i = 0; i < n && i < given->n; i++) {
		p = xasprintf("%s/%s.yaml", dir, ov[i]->side);
		b = crown_outputs_add(out, p);
		free(p);
		if (crown_orders_read_kept(b, given->v[i].data.data,
		    given->v[i].data.len, ov[i]) != 0) {
			crown_diag_add(d, given->v[i].name, 0, 0, NULL,
			    "cannot write the orders as an orders file");
			return CROWN_ERROR;
		}
	}
	return 0;
}

void
crown_campaign_orders_free(struct crown_orders **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		crown_orders_free(v[i]);
	free(v);
}

static const char *
unit_label(const struct crown_unit *u)
{
	return u->name != NULL ? u->name : u->id;
}

/* The leaders killed and captured this turn: how many, the first's name. */
static void
fallen_leaders(const struct crown_state *before,
    const struct crown_state *after, int *nkilled, const char **killed,
    int *ncaptured, const char **captured)
{
	const struct crown_leader	*ld, *b;
	size_t				 i;

	*nkilled = *ncaptured = 0;
	*killed = *captured = NULL;
	for (i = 0; i < after->nleaders; i++) {
		ld = &after->leaders[i];
		b = crown_state_leader(before, ld->id);
		if (b == NULL || b->status == ld->status)
			continue;
		if (ld->status == CROWN_LEADER_KILLED && (*nkilled)++ == 0)
			*killed = ld->name != NULL ? ld->name : ld->id;
		else if (ld->status == CROWN_LEADER_CAPTURED &&
		    (*ncaptured)++ == 0)
			*captured = ld->name != NULL ? ld->name : ld->id;
	}
}

/* ", Danjou killed" or ", 2 leaders killed" */
static void
headline_count(struct crown_buf *out, int n, const char *first,
    const char *what, const char *plural)
{
	if (n == 0)
		return;
	crown_buf_puts(out, out->len > 0 ? ", " : "");
	if (n == 1)
		crown_buf_printf(out, "%s %s", first, what);
	else
		crown_buf_printf(out, "%d %s %s", n, plural, what);
}

char *
crown_campaign_headline(const struct crown_state *before,
    const struct crown_state *after)
{
	const struct crown_unit	*u, *b;
	const struct crown_unit	*routed = NULL, *lost = NULL, *rallied = NULL;
	struct crown_buf	 out = { 0 };
	size_t			 i;
	long			 casualties = 0;
	const char		*killed, *captured;
	int			 nrouted = 0, nlost = 0, nrallied = 0, diff;
	int			 nkilled, ncaptured;

	for (i = 0; i < after->nunits; i++) {
		u = &after->units[i];
		if ((b = crown_state_unit(before, u->id)) == NULL)
			continue;
		diff = crown_unit_figures(b) - crown_unit_figures(u);
		if (diff > 0)
			casualties += diff;
		if (u->status == CROWN_LOST && b->status != CROWN_LOST) {
			if (nlost++ == 0)
				lost = u;
		} else if (u->status == CROWN_ROUTING &&
		    b->status != CROWN_ROUTING) {
			if (nrouted++ == 0)
				routed = u;
		} else if (u->status == CROWN_OK_STATUS &&
		    b->status == CROWN_ROUTING) {
			if (nrallied++ == 0)
				rallied = u;
		}
	}
	crown_buf_puts(&out, "");
	fallen_leaders(before, after, &nkilled, &killed, &ncaptured,
	    &captured);
	if (casualties == 0 && nrouted + nlost + nrallied + nkilled +
	    ncaptured == 0) {
		crown_buf_puts(&out, "no casualties");
		return out.data;
	}
	if (casualties > 0)
		crown_buf_printf(&out, "%ld %s", casualties,
		    casualties == 1 ? "casualty" : "casualties");
	headline_count(&out, nkilled, killed, "killed", "leaders");
	headline_count(&out, ncaptured, captured, "captured", "leaders");
	if (nrouted > 0) {
		crown_buf_puts(&out, out.len > 0 ? ", " : "");
		if (nrouted == 1)
			crown_buf_printf(&out, "%s routed",
			    unit_label(routed));
		else
			crown_buf_printf(&out, "%d units routed", nrouted);
	}
	if (nlost > 0) {
		crown_buf_puts(&out, out.len > 0 ? ", " : "");
		if (nlost == 1)
			crown_buf_printf(&out, "%s lost", unit_label(lost));
		else
			crown_buf_printf(&out, "%d units lost", nlost);
	}
	if (nrallied > 0) {
		crown_buf_puts(&out, out.len > 0 ? ", " : "");
		if (nrallied == 1)
			crown_buf_printf(&out, "%s rallied",
			    unit_label(rallied));
		else
			crown_buf_printf(&out, "%d units rallied", nrallied);
	}
	return out.data;
}

/* a salt is read and written as a secret is, in hex */
_Static_assert(CROWN_SALT_BYTES == CROWN_SECRET_BYTES, "salt size");

void
crown_campaign_salt(unsigned char *salt, int turn,
    const struct crown_outputs *orders, struct crown_orders *const *ov,
    size_t n)
{
	struct crown_salt_part	*v;
	size_t			 i;

	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].side = ov[i]->side;
		v[i].data = orders->v[i].data.data;
		v[i].len = orders->v[i].data.len;
	}
	crown_dice_salt(salt, turn, v, n);
	free(v);
}

/* turns/turn-NNN/name of commit, 32 bytes in hex (a salt, a key) into
 * out; what names it in the diagnostic. */
static int
turn_hex_read(unsigned char *out, struct crown_history *h,
    const char *commit, int turn, const char *name, const char *what,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	char			*dir, *path;
	int			 error;

	dir = crown_campaign_turn_dir(turn);
	path = xasprintf("%s/%s", dir, name);
	error = crown_history_read(&b, h, commit, path, d);
	/* the same form as a secret's hex: 32 bytes, 64 digits */
	if (error == 0 && crown_campaign_secret_parse(out, b.data, b.len) !=
	    0) {
		crown_diag_add(d, path, 1, 1, NULL, "not a %s (64 lower-case "
		    "hex digits and a newline)", what);
		error = CROWN_EINVALID;
	}
	crown_buf_release(&b);
	free(path);
	free(dir);
	return error;
}

int
crown_campaign_salt_read(unsigned char *salt, struct crown_history *h,
    const char *commit, int turn, struct crown_diags *d)
{
	return turn_hex_read(salt, h, commit, turn, CROWN_CAMPAIGN_DICE_SALT,
	    "dice salt", d);
}

int
crown_campaign_dice_chain(int *from, unsigned char *k0,
    const struct crown_state *s)
{
	const char	*hex = s->dice_chain_commitment;

	*from = s->dice_chain_from;
	if (hex == NULL) {
		/* begun in format 3: the chain of dice_commitment */
		*from = 1;
		hex = s->dice_commitment;
	}
	if (hex == NULL || *from < 1 || crown_campaign_secret_parse(k0, hex,
	    strlen(hex)) != 0)
		return -1;
	return 0;
}

/* Turn `turn''s place in the chain that begins at turn from, 1..N; else
 * -1. */
static int
chain_index(int from, int turn)
{
	if (turn < from || turn - from + 1 > CROWN_DICE_CHAIN_N)
		return -1;
	return turn - from + 1;
}

bool
crown_campaign_dice_key_ok(const struct crown_state *s, int turn,
    const unsigned char *key)
{
	unsigned char	k0[CROWN_SECRET_BYTES], back[CROWN_SECRET_BYTES];
	int		from, i;

	if (crown_campaign_dice_chain(&from, k0, s) != 0 ||
	    (i = chain_index(from, turn)) < 0)
		return false;
	crown_dice_chain_back(back, key, i);
	return sodium_memcmp(back, k0, sizeof(k0)) == 0;
}

int
crown_campaign_dice_key(unsigned char *key, const struct crown_state *s,
    const unsigned char *secret, int turn, struct crown_diags *d)
{
	unsigned char	k0[CROWN_SECRET_BYTES], seed[CROWN_SECRET_BYTES];
	int		from, i, error = 0;

	if (crown_campaign_dice_chain(&from, k0, s) != 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL, "no dice "
		    "chain: neither game.dice_chain nor game.dice_commitment");
		return CROWN_EINVALID;
	}
	if ((i = chain_index(from, turn)) < 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL, "turn %d "
		    "is not one of the %d turns of the dice chain from turn "
		    "%d", turn, CROWN_DICE_CHAIN_N, from);
		return CROWN_EINVALID;
	}
	/* a chain begun by crown upgrade has a seed of its own, from the
	 * secret; a campaign begun in format 3, the secret itself */
	if (s->dice_chain_commitment != NULL && (s->dice_commitment == NULL ||
	    strcmp(s->dice_chain_commitment, s->dice_commitment) != 0))
		crown_dice_chain_seed(seed, secret);
	else
		memcpy(seed, secret, sizeof(seed));
	crown_dice_chain_key(key, seed, i);
	sodium_memzero(seed, sizeof(seed));
	if (!crown_campaign_dice_key_ok(s, turn, key)) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL, "the "
		    "campaign secret does not seed the dice chain of "
		    "game.%s", s->dice_chain_commitment != NULL ?
		    "dice_chain" : "dice_commitment");
		sodium_memzero(key, CROWN_SECRET_BYTES);
		error = CROWN_EINVALID;
	}
	return error;
}

void
crown_campaign_upgrade_chain(char *hex65, const unsigned char *secret)
{
	unsigned char	seed[CROWN_SECRET_BYTES], k0[CROWN_SECRET_BYTES];

	crown_dice_chain_seed(seed, secret);
	crown_dice_chain_key(k0, seed, 0);
	crown_dice_hex(hex65, k0);
	sodium_memzero(seed, sizeof(seed));
}

int
crown_campaign_dice_key_read(unsigned char *key, struct crown_history *h,
    const char *commit, int turn, struct crown_diags *d)
{
	return turn_hex_read(key, h, commit, turn, CROWN_CAMPAIGN_DICE_KEY,
	    "dice key", d);
}

int
crown_campaign_normalise(struct crown_buf *out, struct crown_state *s,
    const struct crown_rules *rules, const char *text, size_t len,
    const unsigned char *secret, struct crown_events *ev,
    struct crown_diags *d)
{
	unsigned char	k0[CROWN_SECRET_BYTES];
	int		error;

	if (secret == NULL)
		return crown_campaign_normalise_key(out, s, rules, text, len,
		    NULL, ev, d);
	crown_dice_chain_key(k0, secret, 0);
	error = crown_campaign_normalise_key(out, s, rules, text, len, k0,
	    ev, d);
	sodium_memzero(k0, sizeof(k0));
	return error;
}

int
crown_campaign_normalise_key(struct crown_buf *out, struct crown_state *s,
    const struct crown_rules *rules, const char *text, size_t len,
    const unsigned char *key0, struct crown_events *ev,
    struct crown_diags *d)
{
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*g, *t;
	struct crown_dice		*dice = NULL;
	char				 hex[2 * CROWN_SECRET_BYTES + 1];
	size_t				 i;
	unsigned			 line = 0, col = 0;
	int				 error = 0;

	if (s->turn != 0) {
		/* find where it says so, for the message */
		if (crown_ydoc_parse(&doc, s->file, text, len,
		    &crown_ylimits_state, d) == 0 &&
		    (g = crown_ymap_get(crown_ydoc_root(doc), "game")) !=
		    NULL && (t = crown_ymap_get(g, "turn")) != NULL) {
			line = t->line;
			col = t->col;
		}
		crown_ydoc_free(doc);
		crown_diag_add(d, s->file, line, col, NULL, "a scenario "
		    "starts at turn 0, not %d", s->turn);
		return CROWN_EINVALID;
	}
	/* R1.1 organisation, R3.2 elite troops, R10.1 leader counts, R10.2
	 * bonuses: every problem at once */
	if (crown_scenario_validate(s, rules, d) != 0)
		error = CROWN_EINVALID;
	if (error != 0)
		return error;
	if (key0 != NULL) {
		/* turn 0 rolls with k(0), the commitment: anyone can replay
		 * it */
		crown_dice_hex(hex, key0);
		free(s->dice_commitment);
		s->dice_commitment = xstrdup(hex);
		if ((dice = crown_dice_campaign(key0)) == NULL) {
			crown_diag_add(d, "crown", 0, 0, NULL, "cannot "
			    "initialise the campaign dice (libsodium)");
			return CROWN_ERROR;
		}
	} else {
		for (i = 0; i < s->nterrain; i++)
			if (s->terrain[i].type == CROWN_BUILDING &&
			    s->terrain[i].bclass == 0)
				return CROWN_ENOTFOUND;
	}
	/* R11.3: buildings without a class get one from the dice */
	if (dice != NULL && crown_building_classify(s, rules, dice, ev) != 0) {
		crown_diag_add(d, s->file, 0, 0, "R11.3", "cannot classify "
		    "the buildings: %s", crown_dice_error(dice));
		error = CROWN_EINVALID;
	}
	crown_dice_free(dice);
	if (error == 0 && crown_state_emit(out, s) != 0) {
		crown_diag_add(d, s->file, 0, 0, NULL, "cannot format the "
		    "state");
		error = CROWN_ERROR;
	}
	return error;
}

int
crown_campaign_secret(unsigned char *secret, struct crown_history *h,
    const char *path, const char *commitment, bool quiet,
    struct crown_diags *d)
{
	struct crown_diags	 mine = { 0 };
	char			*own = NULL;
	size_t			 i;
	int			 error;

	/* own is freed last: every message below names path */
	if (path == NULL)
		path = own = xasprintf("%s%s", crown_history_gitdir(h),
		    CROWN_CAMPAIGN_SECRET);
	error = crown_secret_read(secret, path, &mine);
	if (error == CROWN_ENOTFOUND && own != NULL) {
		if (!quiet)
			crown_diag_add(d, path, 0, 0, NULL, "no campaign "
			    "secret here (a player's clone?); give "
			    "--secret-file FILE");
		goto done;
	}
	if (error != 0) {
		/* a file that holds no secret at all is malformed, which
		 * is not a campaign that differs from its replay */
		for (i = 0; i < mine.n; i++)
			crown_diag_add(d, mine.v[i].file, mine.v[i].line,
			    mine.v[i].col, mine.v[i].rule, "%s%s",
			    error == CROWN_EINVALID ? "malformed: " : "",
			    mine.v[i].msg);
		goto done;
	}
	if (commitment != NULL) {
		if (!crown_secret_matches(secret, commitment)) {
			crown_diag_add(d, path, 0, 0, NULL, "this secret "
			    "does not match the campaign's dice_commitment "
			    "%.12s...", commitment);
			sodium_memzero(secret, CROWN_SECRET_BYTES);
			error = CROWN_EINVALID;
		}
	}
done:
	crown_diags_release(&mine);
	free(own);
	return error;
}

static int
hexdigit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
crown_campaign_secret_parse(unsigned char *secret, const char *buf,
    size_t len)
{
	size_t	i;
	int	hi, lo;

	if (len == 2 * CROWN_SECRET_BYTES + 1 && buf[len - 1] == '\n')
		len--;
	if (len != 2 * CROWN_SECRET_BYTES)
		return -1;
	for (i = 0; i < CROWN_SECRET_BYTES; i++) {
		hi = hexdigit((unsigned char)buf[2 * i]);
		lo = hexdigit((unsigned char)buf[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		secret[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

char *
crown_campaign_secret_hex(const unsigned char *secret)
{
	static const char	 digits[] = "0123456789abcdef";
	char			*s;
	size_t			 i;

	s = xmalloc(2 * CROWN_SECRET_BYTES + 2);
	for (i = 0; i < CROWN_SECRET_BYTES; i++) {
		s[2 * i] = digits[secret[i] >> 4];
		s[2 * i + 1] = digits[secret[i] & 0xf];
	}
	s[2 * CROWN_SECRET_BYTES] = '\n';
	s[2 * CROWN_SECRET_BYTES + 1] = '\0';
	return s;
}

int
crown_campaign_secret_save(struct crown_history *h,
    const unsigned char *secret, struct crown_diags *d)
{
	char	*path, *hex;
	size_t	 len;
	int	 e, error;

	if ((error = crown_history_step(CROWN_CAMPAIGN_SECRET, d)) != 0)
		return error;
	path = xasprintf("%s%s", crown_history_gitdir(h),
	    CROWN_CAMPAIGN_SECRET);
	hex = crown_campaign_secret_hex(secret);
	len = strlen(hex);
	/* the owner's alone, synced before it counts */
	error = 0;
	if ((e = crown_put_file(path, hex, len, 0600, true)) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot write the campaign "
		    "secret: %s", strerror(e));
		error = CROWN_EWRITE;
	}
	sodium_memzero(hex, len);
	free(hex);
	free(path);
	return error;
}

/* A name or an email git accepts in a signature, with no control or
 * bidi character (crown_diag_unsafe) to show. */
static bool
ident_ok(const char *s)
{
	if (s == NULL || *s == '\0' ||
	    crown_diag_unsafe_in(s, strlen(s), NULL) != 0)
		return false;
	for (; *s != '\0'; s++)
		if (*s == '<' || *s == '>' || *s == '\n' || *s == '\r')
			return false;
	return true;
}

int
crown_campaign_who(struct crown_who *out, const char *umpire,
    const char *date, const struct crown_state *s, struct crown_diags *d)
{
	struct crown_mail_addr	 a;
	const char		*lt, *gt;
	size_t			 n;

	memset(out, 0, sizeof(*out));
	if (umpire != NULL) {
		lt = strchr(umpire, '<');
		gt = lt != NULL ? strchr(lt, '>') : NULL;
		if (lt == NULL || gt == NULL || gt[1] != '\0') {
			crown_diag_add(d, "--umpire", 0, 0, NULL, "give the "
			    "umpire as \"Name <email>\", not '%s'", umpire);
			return CROWN_EUSAGE;
		}
		n = (size_t)(lt - umpire);
		while (n > 0 && umpire[n - 1] == ' ')
			n--;
		out->name = xstrndup(umpire, n);
		out->email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	} else {
		/* the umpire the mail is From: game.umpire, else the default
		 * (crown_mail_umpire), so commits and mail agree */
		a = crown_mail_umpire(s);
		out->name = xstrdup(a.name != NULL ? a.name : a.addr);
		out->email = xstrdup(a.addr);
	}
	if (!ident_ok(out->name) || !ident_ok(out->email)) {
		crown_diag_add(d, umpire != NULL ? "--umpire" : "game.umpire",
		    0, 0, NULL, "the umpire's name and email must be "
		    "non-empty, without '<', '>', control characters or "
		    "bidirectional controls");
		crown_who_release(out);
		return CROWN_EUSAGE;
	}
	if (date != NULL) {
		if (crown_cal_parse_date(&out->stamp.time,
		    &out->stamp.offset, date) != 0) {
			crown_diag_add(d, "--date", 0, 0, NULL, "'%s' is not "
			    "a date: give YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM] "
			    "or seconds since 1970", date);
			crown_who_release(out);
			return CROWN_EUSAGE;
		}
	} else {
		out->stamp.time = crown_cal_now();
		out->stamp.offset = 0;
	}
	out->stamp.name = out->name;
	out->stamp.email = out->email;
	/* a signed history stays signed, whoever --umpire names */
	if (s != NULL && s->umpire.openpgp != NULL)
		out->openpgp = xstrdup(s->umpire.openpgp);
	out->stamp.sign = out->openpgp;
	return 0;
}

void
crown_who_release(struct crown_who *w)
{
	free(w->name);
	free(w->email);
	free(w->openpgp);
	memset(w, 0, sizeof(*w));
}

/*
 * Who tags again in a signed history (game.umpire.openpgp at the line's
 * end): the umpire, signing; *who is left empty in an unsigned one.
 */
static void
repair_signer(struct crown_who *who, struct crown_history *h,
    const struct crown_chain *c)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 text = { 0 };
	struct crown_state	*s = NULL;

	memset(who, 0, sizeof(*who));
	if (crown_history_read(&text, h, c->l.v[c->l.n - 1].id,
	    CROWN_CAMPAIGN_STATE, &quiet) == 0 && crown_state_parse(&s,
	    CROWN_CAMPAIGN_STATE, text.data, text.len, &quiet) == 0 &&
	    s->umpire.openpgp != NULL)
		(void)crown_campaign_who(who, NULL, NULL, s, &quiet);
	crown_state_free(s);
	crown_buf_release(&text);
	crown_diags_release(&quiet);
}

/* Tag commit i of the line again: lightweight, or in a signed history
 * annotated as crown_advance made it, with the commit's time and
 * message, and signed. */
static int
retag(struct crown_history *h, const struct crown_chain *c, size_t i,
    const char *name, struct crown_who *who, bool *looked,
    struct crown_diags *d)
{
	const struct crown_hcommit	*hc = &c->l.v[i];
	struct crown_stamp		 st;

	/* the state read once, and only when a tag is made again */
	if (!*looked)
		repair_signer(who, h, c);
	*looked = true;
	if (who->openpgp == NULL)
		return crown_history_tag(h, name, hc->id, NULL, NULL, true, d);
	st = who->stamp;
	st.time = hc->time;
	st.offset = hc->offset;
	return crown_history_tag(h, name, hc->id, &st, hc->message, true, d);
}

/* Make tags turn-N and reveal name main's commits, and no other. */
static int
repair_tags(struct crown_history *h, const struct crown_chain *c,
    struct crown_diags *d)
{
	struct crown_who who;
	const char	*id, *num;
	char		 have[CROWN_OID_HEX + 1], *ref, **tags = NULL, *end;
	size_t		 ntags = 0, i;
	long		 v;
	int		 k, error = 0, rc;
	bool		 looked = false;

	memset(&who, 0, sizeof(who));
	for (k = 0; k <= c->last && error == 0; k++) {
		id = c->l.v[c->at[k]].id;
		ref = xasprintf("refs/tags/turn-%d", k);
		rc = crown_history_ref_get(have, h, ref, d);
		if (rc == CROWN_ENOTFOUND || (rc == 0 &&
		    strcmp(have, id) != 0)) {
			char *name = xasprintf("turn-%d", k);

			error = retag(h, c, c->at[k], name, &who, &looked,
			    d);
			free(name);
		} else if (rc != 0)
			error = rc;
		free(ref);
	}
	if (error != 0)
		goto cleanup;
	if ((error = crown_history_refs(&tags, &ntags, h, "refs/tags/turn-*",
	    d)) != 0)
		goto cleanup;
	/* a tag "turn-N" past the line's last turn names a lost line */
	for (i = 0; i < ntags && error == 0; i++) {
		num = tags[i] + strlen("refs/tags/turn-");
		v = strtol(num, &end, 10);
		if (*end == '\0' && end != num && v > c->last)
			error = crown_history_ref_delete(h, tags[i], d);
	}
	for (i = 0; i < ntags; i++)
		free(tags[i]);
	free(tags);
	if (error != 0 || !c->revealed)
		goto cleanup;
	id = c->l.v[c->reveal].id;
	rc = crown_history_ref_get(have, h, "refs/tags/" CROWN_REVEAL_TAG, d);
	if (rc == CROWN_ENOTFOUND || (rc == 0 && strcmp(have, id) != 0))
		error = retag(h, c, c->reveal, CROWN_REVEAL_TAG, &who,
		    &looked, d);
cleanup:
	crown_who_release(&who);
	return error;
}

/* Remove pending orders that the last turn's commit already holds: a
 * run killed after its commit left them behind. */
static void
repair_pending(struct crown_history *h, const struct crown_chain *c,
    struct crown_diags *d)
{
	struct crown_outputs	 held = { 0 };
	struct crown_diags	 ignore = { 0 };
	struct dirent		*de;
	DIR			*dp;
	char			*dir, *odir, *path, *text;
	size_t			 i, len;

	if (c->last < 1)
		return;
	dir = xasprintf("%s%s", crown_history_workdir(h),
	    CROWN_CAMPAIGN_PENDING);
	odir = crown_campaign_orders_dir(c->last);
	if ((dp = opendir(dir)) == NULL ||
	    crown_history_files(&held, h, c->l.v[c->at[c->last]].id, odir,
	    &ignore) != 0 || held.n == 0)
		goto done;
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (crown_read_file(&text, &len, path,
		    crown_ylimits_orders.max_bytes, &ignore)
		    == 0) {
			for (i = 0; i < held.n; i++)
				if (held.v[i].data.len == len &&
				    memcmp(held.v[i].data.data, text, len) ==
				    0) {
					crown_diag_note(d, "crown", 0, 0, NULL,
					    "removing %s: turn %d already "
					    "holds it", path, c->last);
					unlink(path);
					break;
				}
			free(text);
		}
		free(path);
	}
done:
	if (dp != NULL)
		closedir(dp);
	crown_diags_release(&ignore);
	crown_outputs_release(&held);
	free(odir);
	free(dir);
}

/* What the writing commands write into, or append to, in the work tree
 * (orders/pending and orders/inbox.log, a turn's orders, the outbox's
 * folders, a turn's reports): never through a link, to outside the
 * campaign. */
static const char *const written[] = {
	"orders", "orders/", "outbox", "outbox/", "turns", "turns/"
};

int
crown_campaign_repair(struct crown_history *h, const struct crown_chain *c,
    struct crown_diags *d)
{
	struct crown_buf	  list = { 0 };
	char			**dirty = NULL;
	size_t			  n = 0, i;
	int			  error;
	bool			  moved;

	if ((error = crown_paths_refuse_links(crown_history_workdir(h),
	    written, CROWN_NELEM(written), "the campaign", d)) != 0)
		return error;
	crown_history_sweep(h, d);
	if ((error = crown_history_check_locks(h, d)) != 0)
		return error;
	if ((error = repair_tags(h, c, d)) != 0)
		return error;
	if ((error = crown_history_head_to(h, CROWN_MAIN_REF, &moved, d)) != 0)
		return error;
	if (moved)
		crown_diag_note(d, "crown", 0, 0, NULL, "HEAD was not on "
		    "main; it is again");
	if ((error = crown_history_dirty(&dirty, &n, h, d)) != 0)
		return error;
	/* a work tree of another branch's checkout is no hand edit */
	if (n > 0 && !moved &&
	    (error = crown_campaign_hand_edits(h, c, dirty, n, d)) != 0)
		goto done;
	if (n > 0) {
		for (i = 0; i < n; i++)
			crown_buf_printf(&list, "%s%s", i > 0 ? ", " : "",
			    dirty[i]);
		crown_diag_note(d, "crown", 0, 0, NULL, "the work tree "
		    "differs from the last commit (%s); restoring it",
		    list.data);
		error = crown_history_checkout(h, d);
	}
done:
	crown_buf_release(&list);
	for (i = 0; i < n; i++)
		free(dirty[i]);
	free(dirty);
	if (error == 0) {
		repair_pending(h, c, d);
		crown_campaign_tidy_repair(crown_history_workdir(h), c->last,
		    d);
	}
	if (error == 0)
		error = crown_advance_repair(h, c->l.v[c->l.n - 1].id, d);
	return error;
}

void
crown_campaign_remove_tree(const char *path, bool keep)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*dp;
	char		*p;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	if ((dp = opendir(path)) != NULL) {
		while ((de = readdir(dp)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			p = xasprintf("%s/%s", path, de->d_name);
			crown_campaign_remove_tree(p, false);
			free(p);
		}
		closedir(dp);
	}
	if (!keep)
		rmdir(path);
}

void
crown_campaign_pending(char ***out, size_t *n, const char *workdir)
{
	struct dirent	*de;
	DIR		*dp;
	char		*dir;
	size_t		 len, cap = 0;

	*out = NULL;
	*n = 0;
	dir = xasprintf("%s%s%s", workdir,
	    workdir[0] != '\0' && workdir[strlen(workdir) - 1] == '/' ? "" :
	    "/", CROWN_CAMPAIGN_PENDING);
	if ((dp = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		crown_grow(out, &cap, *n + 1, sizeof(**out));
		(*out)[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(dp);
	free(dir);
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_path);
}
