/*
 * state.c: loading, copying and freeing the state of a game (FORMATS.md
 * "State and scenario"); writing it is state-emit.c's.
 *
 * Loading reports every problem of the file at once.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crown/calendar.h"
#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/rules.h"
#include "crown/state.h"
#include "crown/unit.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

const char *const crown_leader_status_names[CROWN_NLEADER_STATUS] = {
	"ok", "killed", "captured"
};
const char *const crown_attack_names[CROWN_NATTACK] = {
	"front", "flank", "rear"
};
/* R10.1; no name for "unknown": a side without the key */
const char *const crown_army_names[CROWN_NARMY] = {
	NULL, "imperial", "republican"
};

/* Limits of sanity for numbers in a state; rules-specific bounds (R1.1,
 * R10.2) are checked against the rules at `crown new`. */
#define MAX_TURN	100000
/* Inches a side: 83 feet, past any table; what the map draws (a grid
 * line every 6 inches) and the spatial grid's cells (4 inches at the
 * least) stay within a few MiB.  A table of 100,000 inches drew 33,000
 * grid lines for four units (doc/limits.md). */
#define MAX_TABLE	1000.0
#define MAX_FIGURES	1000
#define MAX_STANDS	1000
#define MAX_COUNT	1000
#define MAX_SIDES	256	/* each side is looked up by a linear search */
#define MAX_FACING	359	/* whole degrees */
#define MIN_YEAR	1800	/* R10.1 */
#define MAX_YEAR	1900
#define MAX_BONUS	9	/* R10.2, either way */
#define MIN_ROAD	0.01	/* a road's width, inches */
#define MAX_ROAD	100.0

static const char *const game_keys[] = {
	"name", "rules", "turn", "attacker", "last_turn", "allow_elite",
	"year", "umpire", "dice_commitment", "dice_chain", "deadline",
	"deadline_every", "absence", "max_absence", "missed_orders", NULL
};
static const char *const person_keys[] = {
	"name", "email", "password_sha256", "away_until", NULL
};
static const char *const missed_keys[] = { "limit", NULL };
const char *const crown_absence_names[CROWN_NABSENCE] = {
	NULL, "extend", "hold"
};
static const char *const umpire_keys[] = {
	"name", "email", "password_sha256", "openpgp", NULL
};
static const char *const side_keys[] = {
	"id", "name", "home_edge", "army", "players", NULL
};
static const char *const feature_keys[] = {
	"id", "name", "type", "polygon", "path", "width", "class", "damage",
	NULL
};
static const char *const unit_keys[] = {
	"id", "name", "side", "type", "gun", "class", "weapon", "stands",
	"start_figures", "start_stands", "x", "y", "facing", "formation",
	"loaded", "shots_fired", "limbered", "disordered", "status", "routs",
	"rally_failures", "rallied", "stuck", "holding", "rout_halves",
	"skip_next", "crew_replaced", "abandoned", NULL
};
static const char *const leader_keys[] = {
	"id", "name", "side", "rank", "bonus", "attached", "x", "y", "status",
	"figures", NULL
};
static const char *const melee_keys[] = {
	"attackers", "defenders", "rounds", "attack", "attacker_losses",
	"defender_losses", NULL
};
static const char *const top_keys[] = {
	"game", "table", "sides", "terrain", "units", "leaders", "melees",
	NULL
};

static bool	is_hex64(const char *);
static bool	is_fpr(const char *);

static int
cmp_unit_order(size_t a, size_t b, const struct crown_state *s)
{
	return strcmp(s->units[a].id, s->units[b].id);
}

/* qsort_r is not C11; a small merge sort keeps the index portable. */
static void
sort_order(size_t *v, size_t n, const struct crown_state *s)
{
	size_t	*tmp, width, i, lo, mid, hi, a, b, k;

	tmp = xreallocarray(NULL, n ? n : 1, sizeof(*tmp));
	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			mid = lo + width < n ? lo + width : n;
			hi = lo + 2 * width < n ? lo + 2 * width : n;
			a = lo;
			b = mid;
			for (k = lo; k < hi; k++) {
				if (a < mid && (b >= hi ||
				    cmp_unit_order(v[a], v[b], s) <= 0))
					tmp[k] = v[a++];
				else
					tmp[k] = v[b++];
			}
		}
		for (i = 0; i < n; i++)
			v[i] = tmp[i];
	}
	free(tmp);
}

/*
 * The slot of the unit table where a search for id starts: FNV-1a, as
 * crown_tkey_hash, taken up to the NUL so that a look-up does not first
 * measure the id.
 */
static size_t
id_slot(const struct crown_state *s, const char *id)
{
	uint32_t	h = 2166136261u;

	for (; *id != '\0'; id++) {
		h ^= (unsigned char)*id;
		h *= 16777619u;
	}
	return h & (s->nslots - 1);
}

/* Are ids a and b the same?  strcmp's call costs more than an id's few
 * bytes. */
static bool
same_id(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/*
 * The reports look a unit up by its id some 70,000 times in a turn of
 * 1,000 a side: a hash table finds one in about one string comparison
 * where the sorted order takes eleven.  While two units share an id (a
 * state with problems, being read) the sorted order answers, so that
 * which of them is found does not change.
 */
void
crown_state_index(struct crown_state *s)
{
	const char	*id;
	size_t		 i, h;

	free(s->unit_order);
	s->unit_order = xreallocarray(NULL, s->nunits ? s->nunits : 1,
	    sizeof(*s->unit_order));
	for (i = 0; i < s->nunits; i++)
		s->unit_order[i] = i;
	sort_order(s->unit_order, s->nunits, s);
	free(s->unit_slots);
	s->unit_slots = NULL;
	for (i = 1; i < s->nunits; i++)
		if (cmp_unit_order(s->unit_order[i - 1], s->unit_order[i],
		    s) == 0)
			return;
	for (s->nslots = 8; s->nslots < 2 * s->nunits; s->nslots *= 2)
		continue;
	s->unit_slots = xcalloc(s->nslots, sizeof(*s->unit_slots));
	for (i = 0; i < s->nunits; i++) {
		id = s->units[i].id;
		h = id_slot(s, id);
		while (s->unit_slots[h] != 0)
			h = (h + 1) & (s->nslots - 1);
		s->unit_slots[h] = i + 1;
	}
}

/*
 * The unit of id in the sorted order, while two units share an id.  Not
 * inline: its calls to strcmp would make every look-up through the hash
 * table save and restore registers it has no use for.
 */
static struct crown_unit * __attribute__((noinline))
unit_in_order(const struct crown_state *s, const char *id)
{
	size_t	lo = 0, hi = s->nunits, mid;
	int	c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(id, s->units[s->unit_order[mid]].id);
		if (c == 0)
			return &s->units[s->unit_order[mid]];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

struct crown_melee *
crown_state_melee(const struct crown_state *s, const struct crown_unit *u,
    int *side)
{
	size_t	i, j;

	for (i = 0; i < s->nmelees; i++) {
		struct crown_melee *m = &s->melees[i];

		for (j = 0; j < m->nattackers; j++)
			if (strcmp(m->attackers[j], u->id) == 0) {
				*side = 0;
				return m;
			}
		for (j = 0; j < m->ndefenders; j++)
			if (strcmp(m->defenders[j], u->id) == 0) {
				*side = 1;
				return m;
			}
	}
	return NULL;
}

const struct crown_melee *
crown_state_locked(const struct crown_state *s, const struct crown_unit *u,
    const char **foe, bool *first)
{
	const struct crown_melee	*m;
	int				 side;

	*foe = NULL;
	*first = false;
	if (u->status != CROWN_OK_STATUS ||
	    (m = crown_state_melee(s, u, &side)) == NULL)
		return NULL;
	if (side == 0 && m->ndefenders > 0)
		*foe = m->defenders[0];
	else if (side == 1 && m->nattackers > 0)
		*foe = m->attackers[0];
	*first = s->attacker != NULL && strcmp(u->side, s->attacker) == 0;
	return m;
}

struct crown_unit *
crown_state_unit(const struct crown_state *s, const char *id)
{
	size_t	h;

	if (id == NULL || s->unit_order == NULL)
		return NULL;
	if (s->unit_slots == NULL)
		return unit_in_order(s, id);
	h = id_slot(s, id);
	for (; s->unit_slots[h] != 0; h = (h + 1) & (s->nslots - 1))
		if (same_id(s->units[s->unit_slots[h] - 1].id, id))
			return &s->units[s->unit_slots[h] - 1];
	return NULL;
}

struct crown_leader *
crown_state_leader(const struct crown_state *s, const char *id)
{
	size_t	i;

	/* ids are NULL only while a state with problems is read */
	for (i = 0; id != NULL && i < s->nleaders; i++)
		if (s->leaders[i].id != NULL &&
		    strcmp(s->leaders[i].id, id) == 0)
			return &s->leaders[i];
	return NULL;
}

struct crown_feature *
crown_state_building(const struct crown_state *s, const char *id)
{
	size_t	i;

	for (i = 0; id != NULL && i < s->nterrain; i++)
		if (s->terrain[i].type == CROWN_BUILDING &&
		    strcmp(s->terrain[i].id, id) == 0)
			return &s->terrain[i];
	return NULL;
}

static struct crown_geom_box
feature_box(const struct crown_feature *f)
{
	struct crown_geom_box	b = crown_geom_bounds(f->pts, f->npts);

	b.minx -= f->width / 2;
	b.miny -= f->width / 2;
	b.maxx += f->width / 2;
	b.maxy += f->width / 2;
	return b;
}

struct crown_geom_grid *
crown_terrain_grid_new(const struct crown_state *s)
{
	struct crown_geom_box	*boxes;
	struct crown_geom_grid	*g;
	size_t			 i;

	boxes = xcalloc(s->nterrain ? s->nterrain : 1, sizeof(*boxes));
	for (i = 0; i < s->nterrain; i++)
		boxes[i] = feature_box(&s->terrain[i]);
	g = crown_geom_grid_new(boxes, NULL, s->nterrain);
	free(boxes);
	return g;
}

int
crown_state_check_overlaps(const struct crown_state *s,
    const struct crown_rules *rules, struct crown_diags *d)
{
	const struct crown_unit	*u, *v;
	struct crown_geom_box	*boxes;
	struct crown_geom_grid	*g;
	struct crown_quad	*q;
	int			*ids, *near = NULL;
	size_t			 i, j, k, n = 0, nnear, cap = 0;
	size_t			 found = 0;

	q = xcalloc(s->nunits ? s->nunits : 1, sizeof(*q));
	boxes = xcalloc(s->nunits ? s->nunits : 1, sizeof(*boxes));
	ids = xcalloc(s->nunits ? s->nunits : 1, sizeof(*ids));
	for (i = 0; i < s->nunits; i++) {
		if (!crown_unit_on_table(&s->units[i]))
			continue;
		crown_unit_footprint(&q[i], rules, &s->units[i]);
		boxes[n] = crown_geom_bounds(q[i].c, 4);
		ids[n++] = (int)i;
	}
	g = crown_geom_grid_new(boxes, ids, n);
	/* each pair once: v before u in state order */
	for (k = 0; k < n && found < CROWN_STATE_MAX_OVERLAPS; k++) {
		i = (size_t)ids[k];
		u = &s->units[i];
		nnear = crown_geom_grid_query(&near, &cap, g, &boxes[k]);
		for (j = 0; j < nnear && (size_t)near[j] < i; j++) {
			v = &s->units[near[j]];
			if (!crown_unit_quads_overlap(rules, &q[i],
			    &q[near[j]]))
				continue;
			crown_diag_add(d, s->file, u->line, u->col, "R4.7",
			    "unit '%s' overlaps unit '%s': footprints may "
			    "touch, or cross by %g inch, no more", u->id,
			    v->id, rules->contact_crossing);
			found++;
			break;
		}
	}
	free(near);
	crown_geom_grid_free(g);
	free(ids);
	free(boxes);
	free(q);
	return found > 0 ? CROWN_EINVALID : 0;
}

struct crown_point
crown_leader_pos(const struct crown_state *s, const struct crown_leader *ld)
{
	const struct crown_unit	*u;

	if (ld->attached != NULL &&
	    (u = crown_state_unit(s, ld->attached)) != NULL)
		return (struct crown_point){ u->x, u->y };
	return (struct crown_point){ ld->x, ld->y };
}

/*
 * R8.4: what leader ld does for u's rally: a general -2, an officer -1
 * only when attached to u, each with his scenario bonus.  An officer
 * within reach but not attached lets the unit try (R8.3) and gives
 * nothing: his bonus goes with his modifier, as R7.3's goes to the unit
 * he is attached to.  Returns whether he gives a modifier, in *mod.
 */
bool
crown_leader_rally_mod(const struct crown_rules *R,
    const struct crown_leader *ld,
    const struct crown_unit *u, int *mod)
{
	*mod = 0;
	if (ld->rank == CROWN_GENERAL)
		*mod = R->rally_general + ld->bonus;
	else if (ld->attached != NULL && strcmp(ld->attached, u->id) == 0)
		*mod = R->rally_officer + ld->bonus;
	else
		return false;
	return true;
}

/*
 * R8.3, R8.4: the officer or general within the rally radius whose
 * modifier helps most; ties: state order.  NULL: none, so no rally.
 */
const struct crown_leader *
crown_leader_rally(const struct crown_state *s, const struct crown_rules *R,
    const struct crown_unit *u, int *mod)
{
	const struct crown_leader	*best = NULL;
	struct crown_quad		 q;
	struct crown_point		 p;
	size_t				 i;
	int				 m;

	crown_unit_footprint(&q, R, u);
	for (i = 0; i < s->nleaders; i++) {
		const struct crown_leader *ld = &s->leaders[i];

		if (ld->status != CROWN_LEADER_OK ||
		    strcmp(ld->side, u->side) != 0)
			continue;
		p = crown_leader_pos(s, ld);
		if (!crown_rules_within(R, crown_geom_dist_poly(&p, 1,
		    q.c, 4), R->rally_radius))
			continue;
		crown_leader_rally_mod(R, ld, u, &m);
		if (best == NULL || m < *mod) {
			best = ld;
			*mod = m;
		}
	}
	return best;
}

int
crown_state_side(const struct crown_state *s, const char *id)
{
	size_t	i;

	for (i = 0; id != NULL && i < s->nsides; i++)
		if (s->sides[i].id != NULL && strcmp(s->sides[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* Loading. */

struct loader {
	struct crown_yreader	 r;
	struct crown_state	*s;
};

static void	read_absence(struct loader *, const struct crown_ynode *);
static void	read_time(struct loader *, const struct crown_ynode *,
		    const char *, char **);
static void	read_duration(struct loader *, const struct crown_ynode *,
		    const char *, const char *, char **);

/* map[key], if there, into *out: a UTC time as crown writes it. */
static void
read_time(struct loader *l, const struct crown_ynode *map, const char *key,
    char **out)
{
	crown_yfield_str(&l->r, map, key, false, NULL, out);
	if (*out != NULL && !crown_cal_time_valid(*out))
		crown_yerror(&l->r, crown_ymap_get(map, key), NULL, "'%s' "
		    "must be a UTC time written YYYY-MM-DDTHH:MM:SSZ, as "
		    "2026-12-05T18:00:00Z", key);
}

/* map[key], if there, into *out: a duration (examples: "7d or 36h"). */
static void
read_duration(struct loader *l, const struct crown_ynode *map,
    const char *key, const char *examples, char **out)
{
	long long	span;

	crown_yfield_str(&l->r, map, key, false, NULL, out);
	if (*out != NULL && crown_cal_duration_parse(&span, *out) != 0)
		crown_yerror(&l->r, crown_ymap_get(map, key), NULL, "'%s' "
		    "must be a duration, as %s", key, examples);
}

static void
read_person(struct loader *l, const struct crown_ynode *n,
    struct crown_person *p, const char *what)
{
	bool	umpire;

	if (crown_ykind(&l->r, n, CROWN_Y_MAP, what, NULL) != 0)
		return;
	umpire = strcmp(what, "umpire") == 0;
	crown_ykeys(&l->r, n, umpire ? umpire_keys : person_keys, NULL);
	crown_yfield_name(&l->r, n, "name", false, &p->name);
	crown_yfield_str(&l->r, n, "email", false, NULL, &p->email);
	crown_yfield_str(&l->r, n, "password_sha256", false, NULL,
	    &p->password_sha256);
	if (p->password_sha256 != NULL && !is_hex64(p->password_sha256))
		crown_yerror(&l->r, crown_ymap_get(n, "password_sha256"),
		    NULL, "'password_sha256' must be 64 lower-case hex "
		    "digits (the SHA-256 of the password)");
	if (!umpire) {
		read_time(l, n, "away_until", &p->away_until);
		return;
	}
	crown_yfield_str(&l->r, n, "openpgp", false, NULL, &p->openpgp);
	if (p->openpgp != NULL && !is_fpr(p->openpgp))
		crown_yerror(&l->r, crown_ymap_get(n, "openpgp"), NULL,
		    "'openpgp' must be the 40 upper-case hex digits of the "
		    "umpire's OpenPGP fingerprint");
}

static bool
is_hex64(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64;
}

/* An OpenPGP v4 fingerprint as gpg prints it, without spaces. */
static bool
is_fpr(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789ABCDEF") == 40;
}

/* game.dice_chain: {from_turn: T, commitment: HEX} (dice.c) */
static void
read_dice_chain(struct loader *l, const struct crown_ynode *c)
{
	struct crown_state	*s = l->s;
	long			 n = 0;

	if (crown_ykind(&l->r, c, CROWN_Y_MAP, "dice_chain", NULL) != 0)
		return;
	crown_ykeys(&l->r, c, (const char *const[]){ "from_turn",
	    "commitment", NULL }, NULL);
	if (crown_yfield_int(&l->r, c, "from_turn", true, 1, MAX_TURN, NULL,
	    &n) == 0)
		s->dice_chain_from = (int)n;
	crown_yfield_str(&l->r, c, "commitment", true, NULL,
	    &s->dice_chain_commitment);
	if (s->dice_chain_commitment != NULL &&
	    !is_hex64(s->dice_chain_commitment))
		crown_yerror(&l->r, crown_ymap_get(c, "commitment"), NULL,
		    "'commitment' must be 64 lower-case hex digits (a "
		    "SHA-256)");
}

static void
read_game(struct loader *l, const struct crown_ynode *g)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*v;
	long				 n;

	if (crown_ykind(&l->r, g, CROWN_Y_MAP, "game", NULL) != 0)
		return;
	crown_ykeys(&l->r, g, game_keys, NULL);
	crown_yfield_name(&l->r, g, "name", true, &s->name);
	crown_yfield_id(&l->r, g, "rules", false, NULL, &s->rules);
	if (s->rules == NULL)
		s->rules = xstrdup("maximilian");
	if (crown_yfield_int(&l->r, g, "turn", true, 0, MAX_TURN, "R2.1",
	    &n) == 0)
		s->turn = (int)n;
	crown_yfield_id(&l->r, g, "attacker", true, "R2.1", &s->attacker);
	n = 0;
	if (crown_yfield_int(&l->r, g, "last_turn", false, 0, MAX_TURN, NULL,
	    &n) == 0)
		s->last_turn = (int)n;
	crown_yfield_bool(&l->r, g, "allow_elite", false, "R3.2",
	    &s->allow_elite);
	n = 0;
	if (crown_yfield_int(&l->r, g, "year", false, MIN_YEAR, MAX_YEAR,
	    "R10.1", &n) == 0)
		s->year = (int)n;
	if ((v = crown_ymap_get(g, "umpire")) != NULL)
		read_person(l, v, &s->umpire, "umpire");
	crown_yfield_str(&l->r, g, "dice_commitment", false, NULL,
	    &s->dice_commitment);
	if (s->dice_commitment != NULL && !is_hex64(s->dice_commitment))
		crown_yerror(&l->r, crown_ymap_get(g, "dice_commitment"),
		    NULL, "'dice_commitment' must be 64 lower-case hex "
		    "digits (a SHA-256)");
	if ((v = crown_ymap_get(g, "dice_chain")) != NULL)
		read_dice_chain(l, v);
	read_time(l, g, "deadline", &s->deadline);
	read_duration(l, g, "deadline_every", "7d or 36h", &s->deadline_every);
	read_absence(l, g);
}

/* game.absence, game.max_absence and game.missed_orders (absence.h). */
static void
read_absence(struct loader *l, const struct crown_ynode *g)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*v;
	long				 n;
	int				 k = CROWN_ABSENCE_DEFAULT;

	crown_yfield_enum(&l->r, g, "absence", false, crown_absence_names,
	    CROWN_NABSENCE, NULL, &k);
	s->absence = k;
	read_duration(l, g, "max_absence", "14d or 2w", &s->max_absence);
	if ((v = crown_ymap_get(g, "missed_orders")) == NULL ||
	    crown_ykind(&l->r, v, CROWN_Y_MAP, "missed_orders", NULL) != 0)
		return;
	crown_ykeys(&l->r, v, missed_keys, NULL);
	if (crown_yfield_int(&l->r, v, "limit", true, 1, MAX_TURN, NULL,
	    &n) == 0)
		s->missed_limit = (int)n;
}

static void
read_table(struct loader *l, const struct crown_ynode *t)
{
	if (crown_ykind(&l->r, t, CROWN_Y_MAP, "table", NULL) != 0)
		return;
	crown_ykeys(&l->r, t, (const char *const[]){ "width", "height",
	    NULL }, NULL);
	crown_yfield_num(&l->r, t, "width", true, 1, MAX_TABLE, "R1.2",
	    &l->s->width);
	crown_yfield_num(&l->r, t, "height", true, 1, MAX_TABLE, "R1.2",
	    &l->s->height);
}

/* An entry's id, where it is among its list's entries, and its id's node. */
struct id_ref {
	const char			*id;
	size_t				 i;
	const struct crown_ynode	*node;
	bool				 dup;
};

static int
cmp_id_ref(const void *a, const void *b)
{
	const struct id_ref	*x = a, *y = b;
	int			 r;

	if ((r = strcmp(x->id, y->id)) != 0)
		return r;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
cmp_id_ref_place(const void *a, const void *b)
{
	const struct id_ref	*x = a, *y = b;

	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Report every entry whose id an earlier entry has, in the file's order.
 * Sorting keeps it n log n: a state of 200,000 terrain features must not
 * cost 10^10 comparisons.  Frees v.
 */
static void
report_duplicates(struct loader *l, struct id_ref *v, size_t k,
    const char *what)
{
	size_t	a, b;

	if (k > 1) {
		qsort(v, k, sizeof(*v), cmp_id_ref);
		for (a = 0; a < k; a = b)
			for (b = a + 1; b < k && strcmp(v[a].id, v[b].id) == 0;
			    b++)
				v[b].dup = true;
		qsort(v, k, sizeof(*v), cmp_id_ref_place);
	}
	for (a = 0; a < k; a++)
		if (v[a].dup)
			crown_yerror(&l->r, v[a].node, NULL,
			    "duplicate %s id '%s'", what, v[a].id);
	free(v);
}

static void
read_sides(struct loader *l, const struct crown_ynode *list)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*n, *p;
	struct crown_side		*sd;
	struct id_ref			*ids;
	size_t				 i, j, nids = 0;
	int				 e;

	if (crown_ykind(&l->r, list, CROWN_Y_SEQ, "sides", NULL) != 0)
		return;
	if (list->n > MAX_SIDES) {
		crown_yerror(&l->r, list, "R2.1", "more than %d sides",
		    MAX_SIDES);
		return;
	}
	s->sides = xcalloc(list->n, sizeof(*s->sides));
	ids = xcalloc(list->n + 1, sizeof(*ids));
	for (i = 0; i < list->n; i++) {
		n = list->item[i];
		if (crown_ykind(&l->r, n, CROWN_Y_MAP, "side", NULL) != 0)
			continue;
		sd = &s->sides[s->nsides++];
		sd->line = n->line;
		sd->col = n->col;
		crown_ykeys(&l->r, n, side_keys, NULL);
		crown_yfield_id(&l->r, n, "id", true, NULL, &sd->id);
		crown_yfield_name(&l->r, n, "name", false, &sd->name);
		if (sd->name == NULL && sd->id != NULL)
			sd->name = xstrdup(sd->id);
		e = CROWN_SOUTH;
		crown_yfield_enum(&l->r, n, "home_edge", true,
		    crown_edge_names, CROWN_NEDGE, "R7.4", &e);
		sd->home_edge = e;
		e = CROWN_ARMY_UNKNOWN;
		crown_yfield_enum(&l->r, n, "army", false, crown_army_names,
		    CROWN_NARMY, "R10.1", &e);
		sd->army = e;
		if (sd->id != NULL) {
			ids[nids].id = sd->id;
			ids[nids].i = i;
			ids[nids++].node = crown_ymap_get(n, "id");
		}
		p = crown_ymap_get(n, "players");
		if (p == NULL || crown_ykind(&l->r, p, CROWN_Y_SEQ, "players",
		    NULL) != 0)
			continue;
		sd->players = xcalloc(p->n, sizeof(*sd->players));
		for (j = 0; j < p->n; j++)
			read_person(l, p->item[j], &sd->players[sd->nplayers++],
			    "player");
	}
	report_duplicates(l, ids, nids, "side");
	if (s->nsides < 2)
		crown_yerror(&l->r, list, "R2.1",
		    "a game needs at least two sides");
}

/* [[x, y], ...] within the table (or its edge). */
static int
read_points(struct loader *l, const struct crown_ynode *n, const char *what,
    size_t min, struct crown_point **out, size_t *nout)
{
	const struct crown_ynode	*p;
	struct crown_point		*v;
	size_t				 i;
	int				 bad = 0;

	if (crown_ykind(&l->r, n, CROWN_Y_SEQ, what, NULL) != 0)
		return CROWN_EINVALID;
	if (n->n < min) {
		crown_yerror(&l->r, n, NULL, "'%s' needs at least %zu points",
		    what, min);
		return CROWN_EINVALID;
	}
	v = xcalloc(n->n, sizeof(*v));
	for (i = 0; i < n->n; i++) {
		p = n->item[i];
		if (p->kind != CROWN_Y_SEQ || p->n != 2) {
			crown_yerror(&l->r, p, NULL,
			    "a point of '%s' must be [x, y]", what);
			bad = 1;
			continue;
		}
		if (crown_ynum(&l->r, p->item[0], "x", 0, l->s->width,
		    "R1.2", &v[i].x) != 0 ||
		    crown_ynum(&l->r, p->item[1], "y", 0, l->s->height,
		    "R1.2", &v[i].y) != 0)
			bad = 1;
		v[i].x = crown_round2(v[i].x);
		v[i].y = crown_round2(v[i].y);
	}
	*out = v;
	*nout = n->n;
	return bad ? CROWN_EINVALID : 0;
}

static void
read_terrain(struct loader *l, const struct crown_ynode *list)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*n, *poly, *path;
	struct crown_feature		*f;
	struct id_ref			*ids;
	size_t				 i, nids = 0;
	long				 v;
	int				 e;

	if (crown_ykind(&l->r, list, CROWN_Y_SEQ, "terrain", NULL) != 0)
		return;
	s->terrain = xcalloc(list->n, sizeof(*s->terrain));
	ids = xcalloc(list->n + 1, sizeof(*ids));
	for (i = 0; i < list->n; i++) {
		n = list->item[i];
		if (crown_ykind(&l->r, n, CROWN_Y_MAP, "terrain feature",
		    NULL) != 0)
			continue;
		f = &s->terrain[s->nterrain++];
		f->line = n->line;
		f->col = n->col;
		crown_ykeys(&l->r, n, feature_keys, "R4.3");
		crown_yfield_id(&l->r, n, "id", true, NULL, &f->id);
		crown_yfield_name(&l->r, n, "name", false, &f->name);
		e = CROWN_HILL;
		crown_yfield_enum(&l->r, n, "type", true, crown_terrain_names,
		    CROWN_NTERRAIN, "R4.3", &e);
		f->type = e;
		if (f->id != NULL) {
			ids[nids].id = f->id;
			ids[nids].i = i;
			ids[nids++].node = crown_ymap_get(n, "id");
		}
		poly = crown_ymap_get(n, "polygon");
		path = crown_ymap_get(n, "path");
		f->is_path = f->type == CROWN_ROAD || f->type == CROWN_WALLS;
		if (f->is_path && path != NULL)
			read_points(l, path, "path", 2, &f->pts, &f->npts);
		else if (!f->is_path && poly != NULL)
			read_points(l, poly, "polygon", 3, &f->pts, &f->npts);
		else
			crown_yerror(&l->r, n, "R4.3", "%s '%s' needs a '%s'",
			    crown_terrain_names[f->type],
			    f->id ? f->id : "?",
			    f->is_path ? "path" : "polygon");
		if (f->is_path ? poly != NULL : path != NULL)
			crown_yerror(&l->r, f->is_path ? poly : path, "R4.3",
			    "%s takes a '%s', not a '%s'",
			    crown_terrain_names[f->type],
			    f->is_path ? "path" : "polygon",
			    f->is_path ? "polygon" : "path");
		f->width = f->type == CROWN_ROAD ? 1.0 : 0.0;
		if (crown_ymap_get(n, "width") != NULL &&
		    f->type != CROWN_ROAD)
			crown_yerror(&l->r, crown_ymap_get(n, "width"), NULL,
			    "only roads have a 'width'");
		else
			crown_yfield_num(&l->r, n, "width", false, MIN_ROAD,
			    MAX_ROAD, NULL, &f->width);
		f->width = crown_round2(f->width);
		if (f->type == CROWN_BUILDING) {
			v = 0;
			if (crown_yfield_int(&l->r, n, "class", false, 1,
			    CROWN_MAX_BUILDING_CLASS, "R11.1", &v) == 0)
				f->bclass = (int)v;
			v = 0;
			if (crown_yfield_int(&l->r, n, "damage", false, 0,
			    MAX_COUNT, "R11.2", &v) == 0)
				f->damage = (int)v;
		} else if (crown_ymap_get(n, "class") != NULL ||
		    crown_ymap_get(n, "damage") != NULL)
			crown_yerror(&l->r, crown_ymap_get(n, "class") ?
			    crown_ymap_get(n, "class") :
			    crown_ymap_get(n, "damage"), "R11.1",
			    "only buildings have a class and damage");
	}
	report_duplicates(l, ids, nids, "terrain");
}

static void
read_stands(struct loader *l, const struct crown_ynode *n,
    struct crown_unit *u)
{
	size_t	i;
	long	v;

	if (crown_ykind(&l->r, n, CROWN_Y_SEQ, "stands", "R1.1") != 0)
		return;
	if (n->n > MAX_STANDS) {
		crown_yerror(&l->r, n, "R1.1", "more than %d stands",
		    MAX_STANDS);
		return;
	}
	u->stands = xcalloc(n->n, sizeof(*u->stands));
	for (i = 0; i < n->n; i++) {
		/* R1.3: a stand with no figures is lost, so not listed */
		if (crown_yint(&l->r, n->item[i], "stands", 1, MAX_FIGURES,
		    "R1.3", &v) == 0)
			u->stands[u->nstands++] = (int)v;
	}
}

static void
read_unit(struct loader *l, const struct crown_ynode *n, struct crown_unit *u)
{
	const struct crown_ynode	*v;
	long				 k;
	int				 e;

	u->line = n->line;
	u->col = n->col;
	crown_ykeys(&l->r, n, unit_keys, NULL);
	crown_yfield_id(&l->r, n, "id", true, NULL, &u->id);
	crown_yfield_name(&l->r, n, "name", false, &u->name);
	if (u->name == NULL && u->id != NULL)
		u->name = xstrdup(u->id);
	if (crown_yfield_id(&l->r, n, "side", true, NULL, &u->side) == 0 &&
	    u->side != NULL && crown_state_side(l->s, u->side) < 0)
		crown_yerror(&l->r, crown_ymap_get(n, "side"), NULL,
		    "unknown side '%s'", u->side);
	e = CROWN_INFANTRY;
	crown_yfield_enum(&l->r, n, "type", true, crown_utype_names,
	    CROWN_NUTYPE, "R4.1", &e);
	u->type = e;
	e = CROWN_REGULAR;
	crown_yfield_enum(&l->r, n, "class", true, crown_class_names,
	    CROWN_NCLASS, "R3.1", &e);
	u->cls = e;
	if (crown_is_artillery(u->type)) {
		e = CROWN_CANNON;
		crown_yfield_enum(&l->r, n, "gun", false, crown_gun_names,
		    CROWN_NGUN, "R6.1", &e);
		u->gun = e;
	} else if ((v = crown_ymap_get(n, "gun")) != NULL)
		crown_yerror(&l->r, v, "R6.1", "only artillery has a 'gun'");
	e = CROWN_RIFLED_MUSKET;
	crown_yfield_enum(&l->r, n, "weapon",
	    !crown_is_artillery(u->type) && u->type != CROWN_WAGON,
	    crown_weapon_names, CROWN_NWEAPON, "R5.3", &e);
	u->weapon = e;
	if ((v = crown_yrequire(&l->r, n, "stands", "R1.1")) != NULL)
		read_stands(l, v, u);
	k = crown_unit_figures(u);
	if (crown_yfield_int(&l->r, n, "start_figures", false, 1,
	    MAX_FIGURES * MAX_STANDS, "R1.3", &k) == 0)
		u->start_figures = (int)k;
	k = (long)u->nstands;
	if (crown_yfield_int(&l->r, n, "start_stands", false, 1, MAX_STANDS,
	    "R7.3", &k) == 0)
		u->start_stands = (int)k;
	/*
	 * R4.5: a unit is on the table while its footprint's centre is, so
	 * the centre of its front edge (x, y) may be past the edge, and a
	 * lost unit keeps the place where it left.  The engine writes such
	 * states and the next turn must read them: allow a table's size
	 * beyond each edge.
	 */
	crown_yfield_num(&l->r, n, "x", true, -l->s->width, 2 * l->s->width,
	    "R1.2", &u->x);
	crown_yfield_num(&l->r, n, "y", true, -l->s->height,
	    2 * l->s->height, "R1.2", &u->y);
	u->x = crown_round2(u->x);
	u->y = crown_round2(u->y);
	if (crown_yfield_int(&l->r, n, "facing", true, 0, MAX_FACING, "R1.2",
	    &k) == 0)
		u->facing = (int)k;
	e = CROWN_LINE;
	crown_yfield_enum(&l->r, n, "formation", false,
	    crown_formation_names, CROWN_NFORMATION, "R3.4", &e);
	u->formation = e;
	crown_yfield_bool(&l->r, n, "limbered", false, "R6.6", &u->limbered);
	if (u->limbered && !crown_is_artillery(u->type))
		crown_yerror(&l->r, crown_ymap_get(n, "limbered"), "R6.6",
		    "only artillery can be limbered");
	/* R3.6: guns that start limbered are unloaded, and limbering
	 * unloads a gun: a limbered gun is never loaded */
	u->loaded = !u->limbered;
	crown_yfield_bool(&l->r, n, "loaded", false, "R3.6", &u->loaded);
	if (u->limbered && u->loaded)
		crown_yerror(&l->r, crown_ymap_get(n, "loaded"), "R3.6",
		    "'%s' is limbered, so it is not loaded: remove "
		    "'loaded: true' or unlimber it", u->id);
	k = 0;
	if (crown_yfield_int(&l->r, n, "shots_fired", false, 0, MAX_COUNT,
	    "R3.6", &k) == 0)
		u->shots_fired = (int)k;
	crown_yfield_bool(&l->r, n, "disordered", false, "R3.7",
	    &u->disordered);
	e = CROWN_OK_STATUS;
	crown_yfield_enum(&l->r, n, "status", false, crown_status_names,
	    CROWN_NSTATUS, "R8.2", &e);
	u->status = e;
	k = 0;
	if (crown_yfield_int(&l->r, n, "routs", false, 0, MAX_COUNT, "R8.5",
	    &k) == 0)
		u->routs = (int)k;
	k = 0;
	if (crown_yfield_int(&l->r, n, "rally_failures", false, 0, MAX_COUNT,
	    "R8.5", &k) == 0)
		u->rally_failures = (int)k;
	crown_yfield_bool(&l->r, n, "rallied", false, "R8.6", &u->rallied);
	crown_yfield_bool(&l->r, n, "stuck", false, "R4.3", &u->stuck);
	crown_yfield_bool(&l->r, n, "holding", false, "R7.4", &u->holding);
	k = 0;
	if (crown_yfield_int(&l->r, n, "rout_halves", false, 0, MAX_TURN * 2,
	    "R8.3", &k) == 0)
		u->rout_halves = (int)k;
	crown_yfield_bool(&l->r, n, "skip_next", false, "R8.1",
	    &u->skip_next);
	k = 0;
	if (crown_yfield_int(&l->r, n, "crew_replaced", false, 0, MAX_FIGURES,
	    "R6.4", &k) == 0)
		u->crew_replaced = (int)k;
	crown_yfield_bool(&l->r, n, "abandoned", false, "R6.5",
	    &u->abandoned);
	if (u->abandoned && !crown_is_artillery(u->type))
		crown_yerror(&l->r, crown_ymap_get(n, "abandoned"), "R6.5",
		    "only guns are abandoned");
	if (u->status != CROWN_LOST && u->nstands == 0 &&
	    crown_ymap_get(n, "stands") != NULL)
		crown_yerror(&l->r, crown_ymap_get(n, "stands"), "R1.3",
		    "a unit with no stands must have status 'lost'");
}

static void
read_units(struct loader *l, const struct crown_ynode *list)
{
	struct crown_state	*s = l->s;
	size_t			 i;

	if (crown_ykind(&l->r, list, CROWN_Y_SEQ, "units", NULL) != 0)
		return;
	s->units = xcalloc(list->n, sizeof(*s->units));
	for (i = 0; i < list->n; i++) {
		if (crown_ykind(&l->r, list->item[i], CROWN_Y_MAP, "unit",
		    NULL) != 0)
			continue;
		read_unit(l, list->item[i], &s->units[s->nunits++]);
	}
	/* duplicates: sort the ids once, n log n */
	for (i = 0; i < s->nunits; i++)
		if (s->units[i].id == NULL)
			s->units[i].id = xstrdup("");
	crown_state_index(s);
	for (i = 1; i < s->nunits; i++) {
		struct crown_unit *a = &s->units[s->unit_order[i - 1]];
		struct crown_unit *b = &s->units[s->unit_order[i]];

		if (a->id[0] != '\0' && strcmp(a->id, b->id) == 0)
			crown_diag_add(l->r.diags, l->r.file,
			    a->line > b->line ? a->line : b->line,
			    a->line > b->line ? a->col : b->col, NULL,
			    "duplicate unit id '%s'", a->id), l->r.errors++;
	}
}

static void
read_leaders(struct loader *l, const struct crown_ynode *list)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*n;
	struct crown_leader		*ld;
	struct crown_unit		*u;
	struct id_ref			*ids;
	size_t				 i, nids = 0;
	long				 k;
	int				 e;

	if (crown_ykind(&l->r, list, CROWN_Y_SEQ, "leaders", NULL) != 0)
		return;
	s->leaders = xcalloc(list->n, sizeof(*s->leaders));
	ids = xcalloc(list->n + 1, sizeof(*ids));
	for (i = 0; i < list->n; i++) {
		n = list->item[i];
		if (crown_ykind(&l->r, n, CROWN_Y_MAP, "leader", NULL) != 0)
			continue;
		ld = &s->leaders[s->nleaders++];
		ld->line = n->line;
		ld->col = n->col;
		crown_ykeys(&l->r, n, leader_keys, "R10");
		crown_yfield_id(&l->r, n, "id", true, NULL, &ld->id);
		crown_yfield_name(&l->r, n, "name", false, &ld->name);
		if (ld->name == NULL && ld->id != NULL)
			ld->name = xstrdup(ld->id);
		if (ld->id != NULL) {
			ids[nids].id = ld->id;
			ids[nids].i = i;
			ids[nids++].node = crown_ymap_get(n, "id");
		}
		if (ld->id != NULL && crown_state_unit(s, ld->id) != NULL)
			crown_yerror(&l->r, crown_ymap_get(n, "id"), NULL,
			    "leader id '%s' is also a unit id", ld->id);
		if (crown_yfield_id(&l->r, n, "side", true, NULL, &ld->side)
		    == 0 && ld->side != NULL &&
		    crown_state_side(s, ld->side) < 0)
			crown_yerror(&l->r, crown_ymap_get(n, "side"), NULL,
			    "unknown side '%s'", ld->side);
		e = CROWN_OFFICER;
		crown_yfield_enum(&l->r, n, "rank", true, crown_rank_names,
		    CROWN_NRANK, "R10.1", &e);
		ld->rank = e;
		k = 0;
		if (crown_yfield_int(&l->r, n, "bonus", false, -MAX_BONUS,
		    MAX_BONUS, "R10.2", &k) == 0)
			ld->bonus = (int)k;
		k = 1;
		if (crown_yfield_int(&l->r, n, "figures", false, 1,
		    MAX_FIGURES, "R10.4", &k) == 0)
			ld->figures = (int)k;
		e = CROWN_LEADER_OK;
		crown_yfield_enum(&l->r, n, "status", false,
		    crown_leader_status_names, CROWN_NLEADER_STATUS, "R10.3",
		    &e);
		ld->status = e;
		crown_yfield_id(&l->r, n, "attached", false, "R10.3",
		    &ld->attached);
		if (ld->attached != NULL) {
			u = crown_state_unit(s, ld->attached);
			if (u == NULL)
				crown_yerror(&l->r,
				    crown_ymap_get(n, "attached"), "R10.3",
				    "attached to unknown unit '%s'",
				    ld->attached);
			else if (ld->side != NULL && u->side != NULL &&
			    strcmp(u->side, ld->side) != 0)
				crown_yerror(&l->r,
				    crown_ymap_get(n, "attached"), "R10.3",
				    "attached to '%s' of another side",
				    ld->attached);
			else {
				ld->x = u->x;
				ld->y = u->y;
			}
			if (crown_ymap_get(n, "x") != NULL ||
			    crown_ymap_get(n, "y") != NULL)
				crown_yerror(&l->r, n, "R10.3",
				    "an attached leader has no 'x' and 'y' "
				    "of his own");
		} else {
			crown_yfield_num(&l->r, n, "x", true, 0, s->width,
			    "R4.6", &ld->x);
			crown_yfield_num(&l->r, n, "y", true, 0, s->height,
			    "R4.6", &ld->y);
			ld->x = crown_round2(ld->x);
			ld->y = crown_round2(ld->y);
		}
	}
	report_duplicates(l, ids, nids, "leader");
}

static void
read_ids(struct loader *l, const struct crown_ynode *n, const char *what,
    char ***out, size_t *nout)
{
	size_t		 i;
	const char	*id;

	if (crown_ykind(&l->r, n, CROWN_Y_SEQ, what, "R9.7") != 0)
		return;
	*out = xcalloc(n->n, sizeof(**out));
	for (i = 0; i < n->n; i++) {
		if (crown_yid(&l->r, n->item[i], what, "R9.7", &id) != 0)
			continue;
		if (crown_state_unit(l->s, id) == NULL)
			crown_yerror(&l->r, n->item[i], "R9.7",
			    "unknown unit '%s'", id);
		(*out)[(*nout)++] = xstrdup(id);
	}
}

static void
read_melees(struct loader *l, const struct crown_ynode *list)
{
	struct crown_state		*s = l->s;
	const struct crown_ynode	*n;
	struct crown_melee		*m;
	size_t				 i;
	long				 k;
	int				 e;

	if (crown_ykind(&l->r, list, CROWN_Y_SEQ, "melees", NULL) != 0)
		return;
	s->melees = xcalloc(list->n, sizeof(*s->melees));
	for (i = 0; i < list->n; i++) {
		n = list->item[i];
		if (crown_ykind(&l->r, n, CROWN_Y_MAP, "melee", "R9.8") != 0)
			continue;
		m = &s->melees[s->nmelees++];
		crown_ykeys(&l->r, n, melee_keys, "R9.8");
		if (crown_yrequire(&l->r, n, "attackers", "R9.7") != NULL)
			read_ids(l, crown_ymap_get(n, "attackers"),
			    "attackers", &m->attackers, &m->nattackers);
		if (crown_yrequire(&l->r, n, "defenders", "R9.7") != NULL)
			read_ids(l, crown_ymap_get(n, "defenders"),
			    "defenders", &m->defenders, &m->ndefenders);
		k = 0;
		if (crown_yfield_int(&l->r, n, "rounds", false, 0, MAX_COUNT,
		    "R9.8", &k) == 0)
			m->rounds = (int)k;
		e = CROWN_FRONT;
		crown_yfield_enum(&l->r, n, "attack", false,
		    crown_attack_names, CROWN_NATTACK, "R9.4", &e);
		m->attack = e;
		k = 0;
		if (crown_yfield_int(&l->r, n, "attacker_losses", false, 0,
		    MAX_FIGURES * MAX_STANDS, "R9.8", &k) == 0)
			m->attacker_losses = (int)k;
		k = 0;
		if (crown_yfield_int(&l->r, n, "defender_losses", false, 0,
		    MAX_FIGURES * MAX_STANDS, "R9.8", &k) == 0)
			m->defender_losses = (int)k;
	}
}

int
crown_state_parse(struct crown_state **out, const char *file,
    const char *buf, size_t len, struct crown_diags *d)
{
	struct crown_ydoc		*doc;
	const struct crown_ynode	*root, *v;
	struct loader			 l;
	int				 error;

	*out = NULL;
	error = crown_ydoc_parse(&doc, file, buf, len, &crown_ylimits_state,
	    d);
	if (error != 0)
		return error;
	memset(&l, 0, sizeof(l));
	l.r.file = file;
	l.r.diags = d;
	l.s = xcalloc(1, sizeof(*l.s));
	l.s->file = xstrdup(file);
	root = crown_ydoc_root(doc);
	if (crown_ykind(&l.r, root, CROWN_Y_MAP, "state", NULL) == 0) {
		crown_ykeys(&l.r, root, top_keys, NULL);
		if ((v = crown_yrequire(&l.r, root, "table", NULL)) != NULL)
			read_table(&l, v);
		if ((v = crown_yrequire(&l.r, root, "game", NULL)) != NULL)
			read_game(&l, v);
		if ((v = crown_yrequire(&l.r, root, "sides", NULL)) != NULL)
			read_sides(&l, v);
		if (l.s->attacker != NULL &&
		    crown_state_side(l.s, l.s->attacker) < 0)
			crown_yerror(&l.r, crown_ymap_get(crown_ymap_get(root,
			    "game"), "attacker"), "R2.1",
			    "attacker '%s' is not one of the sides",
			    l.s->attacker);
		if ((v = crown_ymap_get(root, "terrain")) != NULL)
			read_terrain(&l, v);
		if ((v = crown_yrequire(&l.r, root, "units", NULL)) != NULL)
			read_units(&l, v);
		if ((v = crown_ymap_get(root, "leaders")) != NULL)
			read_leaders(&l, v);
		if ((v = crown_ymap_get(root, "melees")) != NULL &&
		    !crown_yis_null(v))
			read_melees(&l, v);
	}
	crown_ydoc_free(doc);
	if (l.s->unit_order == NULL)
		crown_state_index(l.s);
	if (l.r.errors > 0) {
		crown_state_free(l.s);
		return CROWN_EINVALID;
	}
	*out = l.s;
	return 0;
}

int
crown_state_load(struct crown_state **out, const char *path,
    struct crown_diags *d)
{
	char	*buf;
	size_t	 len;
	int	 error;

	*out = NULL;
	error = crown_read_file(&buf, &len, path,
	    crown_ylimits_state.max_bytes, d);
	if (error != 0)
		return error;
	error = crown_state_parse(out, path, buf, len, d);
	free(buf);
	return error;
}

/* Freeing. */

static void
free_ids(char **ids, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

void
crown_state_free(struct crown_state *s)
{
	size_t	i, j;

	if (s == NULL)
		return;
	for (i = 0; i < s->nmelees; i++) {
		free_ids(s->melees[i].attackers, s->melees[i].nattackers);
		free_ids(s->melees[i].defenders, s->melees[i].ndefenders);
	}
	free(s->melees);
	for (i = 0; i < s->nleaders; i++) {
		free(s->leaders[i].id);
		free(s->leaders[i].name);
		free(s->leaders[i].side);
		free(s->leaders[i].attached);
	}
	free(s->leaders);
	for (i = 0; i < s->nunits; i++) {
		free(s->units[i].id);
		free(s->units[i].name);
		free(s->units[i].side);
		free(s->units[i].stands);
	}
	free(s->units);
	for (i = 0; i < s->nterrain; i++) {
		free(s->terrain[i].id);
		free(s->terrain[i].name);
		free(s->terrain[i].pts);
	}
	free(s->terrain);
	for (i = 0; i < s->nsides; i++) {
		for (j = 0; j < s->sides[i].nplayers; j++) {
			free(s->sides[i].players[j].name);
			free(s->sides[i].players[j].email);
			free(s->sides[i].players[j].password_sha256);
			free(s->sides[i].players[j].away_until);
		}
		free(s->sides[i].players);
		free(s->sides[i].id);
		free(s->sides[i].name);
	}
	free(s->sides);
	free(s->name);
	free(s->rules);
	free(s->attacker);
	free(s->umpire.name);
	free(s->umpire.email);
	free(s->umpire.password_sha256);
	free(s->umpire.openpgp);
	free(s->dice_commitment);
	free(s->dice_chain_commitment);
	free(s->deadline);
	free(s->deadline_every);
	free(s->max_absence);
	free(s->file);
	free(s->unit_order);
	free(s->unit_slots);
	free(s);
}

struct crown_leader *
crown_leader_attached(const struct crown_state *s,
    const struct crown_unit *u, enum crown_rank rank)
{
	size_t	i;

	for (i = 0; i < s->nleaders; i++) {
		struct crown_leader *ld = &s->leaders[i];

		if (ld->status == CROWN_LEADER_OK && ld->rank == rank &&
		    ld->attached != NULL && strcmp(ld->attached, u->id) == 0)
			return ld;
	}
	return NULL;
}

const char *
crown_leader_rank_word(const struct crown_leader *ld)
{
	static const char *const words[] = {
		[CROWN_OFFICER] = "officer ", [CROWN_GENERAL] = "general "
	};
	const char	*w = words[ld->rank];
	size_t		 n = strlen(w);

	if (ld->name != NULL && strncasecmp(ld->name, w, n - 1) == 0 &&
	    ld->name[n - 1] == ' ')
		return "";
	return w;
}

char *
crown_state_deadline_of(const char *text, size_t len)
{
	struct crown_diags		 quiet = { 0 };
	struct crown_ydoc		*doc = NULL;
	struct crown_state		*s = NULL;
	const struct crown_ynode	*g, *dl;
	const char			*p = text, *end = text + len;
	char				*out = NULL;

	if (len > 6 && memcmp(p, "game:\n", 6) == 0) {
		/* to the first line after it that is not indented */
		for (p += 6; p < end && (*p == ' ' || *p == '\n'); ) {
			p = memchr(p, '\n', (size_t)(end - p));
			p = p != NULL ? p + 1 : end;
		}
		if (crown_ydoc_parse(&doc, "state", text, (size_t)(p - text),
		    &crown_ylimits_state, &quiet) == 0 &&
		    (g = crown_ymap_get(crown_ydoc_root(doc), "game")) != NULL) {
			dl = crown_ymap_get(g, "deadline");
			out = xstrdup(dl != NULL && dl->kind == CROWN_Y_SCALAR &&
			    !crown_yis_null(dl) ? dl->str : "");
		}
		crown_ydoc_free(doc);
	} else if (crown_state_parse(&s, "state", text, len, &quiet) == 0)
		out = xstrdup(s->deadline != NULL ? s->deadline : "");
	crown_state_free(s);
	crown_diags_release(&quiet);
	return out;
}
