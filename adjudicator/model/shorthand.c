/*
 * shorthand.c: orders one unit a line, as typed in a mail (shorthand.h
 * has the grammar), read with PCRE2 into struct crown_orders; and orders
 * written back as a canonical orders file or as shorthand.
 *
 * The parser checks the shape only, like crown_orders_parse; everything
 * that needs the state (units, targets, budgets) is left to
 * crown_orders_validate, so both forms of orders get the same checks and
 * the same messages.  Every problem is reported with its line and column
 * (columns count characters, as libyaml's do).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <glib.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/shorthand.h"
#include "crown/text.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

/* Sanity limits of an orders file (orders.c), not rules. */
#define MAX_TURN	100000
#define MAX_PATH	64
#define MAX_ACTIONS	32
#define MAX_COORD	100000.0
#define MAX_TOKENS	(MAX_PATH + 8)

enum {
	RE_LINE,	/* header | leader line | unit line | anything else */
	RE_ACTION,	/* an action's name and its arguments */
	RE_TOKEN,	/* one argument: a point X,Y or a word */
	RE_INT,
	NRE
};

static const char *const patterns[NRE] = {
	("^[ \\t]*(?:(game|turn|side|seed|password)[ \\t]*:[ \\t]*(.*?)"
	    "|leader[ \\t]+([^:\\s]*)[ \\t]*:(.*)"
	    "|([^:\\s]+)[ \\t]*:(.*)"
	    "|(.*?))[ \\t]*\\z"),
	"^([A-Za-z][A-Za-z_-]*)(?:[ \\t]+(.*))?\\z",
	("\\G[ \\t]*(?:(-?[0-9]+(?:\\.[0-9]*)?)[ \\t]*,[ \\t]*"
	    "(-?[0-9]+(?:\\.[0-9]*)?)|([^ \\t]+))"),
	"^-?[0-9]{1,9}\\z"
};

/* The capture groups of each pattern, by name. */
enum {
	L_KEY = 1, L_VALUE,		/* RE_LINE: a header */
	L_LEADER, L_LEADER_ORDERS,	/* a leader line */
	L_UNIT, L_UNIT_ORDERS,		/* a unit line */
	L_OTHER,			/* anything else */
	L_NGROUPS
};
enum { A_NAME = 1, A_ARGS };		/* RE_ACTION */
enum { T_X = 1, T_Y, T_WORD };		/* RE_TOKEN */

/* The header keys, by what a header line sets. */
enum header {
	H_GAME,
	H_TURN,
	H_SIDE,
	H_SEED,		/* the side's own entropy (doc/formats.md) */
	H_PASSWORD,	/* crown inbox reads and removes it */
	NHEADER
};

static pcre2_code	*re[NRE];
static pcre2_match_data	*md;

struct token {
	bool			 point;
	struct crown_point	 p;
	const char		*s;	/* a word: start and length */
	size_t			 len;
	size_t			 off;	/* in the line */
};

struct parser {
	const char		*file;
	struct crown_diags	*d;
	struct crown_orders	*o;
	int			 errors;
	unsigned		 line;
	const char		*text;	/* the current line */
	size_t			 len;
	size_t			 ucap, lcap;
	bool			 seen[NHEADER];	/* headers given */
	bool			 ordered;	/* past the first order line */
};

/*
 * Compile the patterns, once: they stay for the life of the process
 * (reachable, never a leak).  The patterns are constants, so only a
 * PCRE2 without memory fails: CROWN_ERROR with a diagnostic.
 */
static int
re_init(struct crown_diags *d)
{
	PCRE2_UCHAR	msg[120];
	PCRE2_SIZE	erroff;
	size_t		i;
	int		errcode;

	if (md != NULL)
		return 0;
	for (i = 0; i < NRE; i++) {
		if (re[i] != NULL)
			continue;
		re[i] = pcre2_compile((PCRE2_SPTR)patterns[i],
		    PCRE2_ZERO_TERMINATED, 0, &errcode, &erroff, NULL);
		if (re[i] == NULL) {
			pcre2_get_error_message(errcode, msg, sizeof(msg));
			crown_diag_add(d, "crown", 0, 0, NULL, "shorthand "
			    "pattern %zu at %zu: %s", i, (size_t)erroff,
			    (char *)msg);
			return CROWN_ERROR;
		}
	}
	/* enough pairs for the widest pattern */
	if ((md = pcre2_match_data_create(8, NULL)) == NULL) {
		crown_diag_add(d, "crown", 0, 0, NULL, "shorthand patterns: "
		    "out of memory");
		return CROWN_ERROR;
	}
	return 0;
}

/* Match pattern k against s[0..len) from off; groups in ov (pairs). */
static bool
match(int k, const char *s, size_t len, size_t off, PCRE2_SIZE **ov)
{
	int	rc;

	rc = pcre2_match(re[k], (PCRE2_SPTR)s, len, off, 0, md, NULL);
	if (rc < 0)
		return false;
	*ov = pcre2_get_ovector_pointer(md);
	return true;
}

static bool
group(const PCRE2_SIZE *ov, int g)
{
	return ov[2 * g] != PCRE2_UNSET;
}

/* Where group g starts and ends (offsets into the subject). */
static size_t
gstart(const PCRE2_SIZE *ov, int g)
{
	return ov[2 * g];
}

static size_t
gend(const PCRE2_SIZE *ov, int g)
{
	return ov[2 * g + 1];
}

/* Column (1-based, in characters) of byte off of the current line. */
static unsigned
column(const struct parser *p, size_t off)
{
	unsigned	col = 1;
	size_t		i;

	for (i = 0; i < off && i < p->len; i++)
		if (((unsigned char)p->text[i] & 0xc0) != 0x80)
			col++;
	return col;
}

static void
problem(struct parser *p, size_t off, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
problem(struct parser *p, size_t off, const char *rule, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	crown_diag_add(p->d, p->file, p->line, column(p, off), rule, "%s",
	    msg);
	free(msg);
	p->errors++;
}

static char *
word(const struct token *t)
{
	return xstrndup(t->s, t->len);
}

static bool
word_is(const struct token *t, const char *w)
{
	return !t->point && t->len == strlen(w) &&
	    strncasecmp(t->s, w, t->len) == 0;
}

/* A number of a point, rounded as positions are kept (R4.2). */
static bool
number(struct parser *p, const PCRE2_SIZE *ov, int g, double *out)
{
	char	*s, *end;
	double	 v;

	s = xstrndup(p->text + gstart(ov, g), gend(ov, g) - gstart(ov, g));
	v = strtod(s, &end);
	if (*end != '\0' || v < -MAX_COORD || v > MAX_COORD) {
		problem(p, gstart(ov, g), "R4.2", "'%s' is not a number from "
		    "%.0f to %.0f", s, -MAX_COORD, MAX_COORD);
		free(s);
		return false;
	}
	free(s);
	*out = crown_round2(v);
	return true;
}

/* Split s[off..end) of the line into tokens; false after a problem. */
static bool
tokenize(struct parser *p, size_t off, size_t end, struct token *t,
    size_t *nt)
{
	PCRE2_SIZE	*ov;
	struct token	*k;

	*nt = 0;
	while (off < end) {
		if (!match(RE_TOKEN, p->text, end, off, &ov)) {
			/* only blanks are left */
			break;
		}
		if (*nt == MAX_TOKENS) {
			problem(p, off, "R4.2", "too many arguments (a path "
			    "has at most %d points)", MAX_PATH);
			return false;
		}
		k = &t[(*nt)++];
		memset(k, 0, sizeof(*k));
		if (group(ov, T_X)) {
			k->point = true;
			k->off = gstart(ov, T_X);
			if (!number(p, ov, T_X, &k->p.x) ||
			    !number(p, ov, T_Y, &k->p.y))
				return false;
		} else {
			k->off = gstart(ov, T_WORD);
			k->s = p->text + gstart(ov, T_WORD);
			k->len = gend(ov, T_WORD) - gstart(ov, T_WORD);
		}
		off = gend(ov, 0);
	}
	return true;
}

static bool
read_id(struct parser *p, const struct token *t, const char *what,
    const char *rule, char **out)
{
	char	*s;

	if (t->point) {
		problem(p, t->off, rule, "'%s' needs an id, not a point",
		    what);
		return false;
	}
	s = word(t);
	if (!crown_id_valid(s)) {
		problem(p, t->off, rule, "'%s' is not a valid id: '%s' (ids "
		    "are 1-32 of a-z 0-9 _ -, starting with a letter or "
		    "digit)", what, s);
		free(s);
		return false;
	}
	*out = s;
	return true;
}

/* move, path, manhandle: X,Y [X,Y ...] [face N] [road] */
static void
read_move(struct parser *p, struct crown_action_order *a, const char *name,
    size_t off, const struct token *t, size_t nt)
{
	PCRE2_SIZE	*ov;
	char		*s;
	size_t		 i, npts = 0;
	long		 face;

	for (i = 0; i < nt; i++)
		if (t[i].point)
			npts++;
	if (npts == 0) {
		problem(p, off, "R4.2", "'%s' needs a destination X,Y (or a "
		    "path X,Y X,Y ...)", name);
		return;
	}
	if (npts > MAX_PATH) {
		problem(p, off, "R4.2", "a path has 1 to %d points",
		    MAX_PATH);
		return;
	}
	a->path = xcalloc(npts, sizeof(*a->path));
	for (i = 0; i < nt; i++) {
		if (t[i].point) {
			a->path[a->npath++] = t[i].p;
		} else if (word_is(&t[i], "road")) {
			if (a->road)
				problem(p, t[i].off, "R4.2", "'road' is given "
				    "twice");
			a->road = true;
		} else if (word_is(&t[i], "face")) {
			if (i + 1 == nt || t[i + 1].point ||
			    !match(RE_INT, t[i + 1].s, t[i + 1].len, 0,
			    &ov)) {
				problem(p, t[i].off, "R4.2", "'face' needs a "
				    "bearing in whole degrees, 0 to 359");
				continue;
			}
			s = word(&t[++i]);
			face = strtol(s, NULL, 10);
			free(s);
			if (face < 0 || face > 359)
				problem(p, t[i].off, "R4.2", "a bearing is "
				    "0 to 359 degrees, not %ld", face);
			else if (a->has_face)
				problem(p, t[i - 1].off, "R4.2", "'face' is "
				    "given twice");
			else {
				a->has_face = true;
				a->face = (int)face;
			}
		} else {
			s = word(&t[i]);
			problem(p, t[i].off, "R4.2", "unexpected '%s' in "
			    "'%s' (write %s X,Y [X,Y ...] [face N] [road])",
			    s, name, name);
			free(s);
		}
	}
}

/* One action: kind and arguments, from s[off..end) of the line. */
static void
read_action(struct parser *p, struct crown_action_order *a, size_t off,
    size_t end)
{
	struct token	 t[MAX_TOKENS];
	PCRE2_SIZE	*ov;
	size_t		 nt, wlen, k;
	const char	*w;
	char		*s, *names;
	bool		 path;

	a->kind = CROWN_NACTION;
	a->line = p->line;
	a->col = column(p, off);
	if (!match(RE_ACTION, p->text + off, end - off, 0, &ov)) {
		s = xstrndup(p->text + off, end - off);
		problem(p, off, "R3.4", "expected an action, as 'move X,Y' or "
		    "'fire ID', not '%s'", s);
		free(s);
		return;
	}
	w = p->text + off + gstart(ov, A_NAME);
	wlen = gend(ov, A_NAME) - gstart(ov, A_NAME);
	path = wlen == 4 && strncasecmp(w, "path", 4) == 0;
	for (k = 0; k < CROWN_NACTION; k++)
		if (strlen(crown_action_names[k]) == wlen &&
		    strncasecmp(w, crown_action_names[k], wlen) == 0)
			break;
	if (path)
		k = CROWN_MOVE;
	if (k == CROWN_NACTION) {
		struct crown_buf b = { 0 };

		for (k = 0; k < CROWN_NACTION; k++)
			crown_buf_printf(&b, "%s%s", k ? ", " : "",
			    crown_action_names[k]);
		names = b.data;
		s = xstrndup(w, wlen);
		problem(p, off, "R3.4", "unknown action '%s' (one of: %s; "
		    "or path)", s, names);
		free(s);
		free(names);
		return;
	}
	a->kind = (enum crown_action)k;
	nt = 0;
	if (group(ov, A_ARGS) && !tokenize(p, off + gstart(ov, A_ARGS),
	    off + gend(ov, A_ARGS), t, &nt))
		return;
	switch (a->kind) {
	case CROWN_MOVE:
	case CROWN_MANHANDLE:
		read_move(p, a, path ? "path" : crown_action_names[a->kind],
		    off, t, nt);
		break;
	case CROWN_CHARGE:
	case CROWN_HELP:
	case CROWN_FIRE:
	case CROWN_FORMATION:
		if (nt != 1) {
			problem(p, off, "R3.4", "'%s' takes one argument: "
			    "%s", crown_action_names[a->kind],
			    a->kind == CROWN_FORMATION ? "line or column" :
			    a->kind == CROWN_FIRE ? "a unit, a leader or "
			    "building:ID" : "a unit");
			break;
		}
		if (a->kind == CROWN_FORMATION) {
			if (word_is(&t[0], "line"))
				a->formation = CROWN_LINE;
			else if (word_is(&t[0], "column"))
				a->formation = CROWN_COLUMN;
			else
				problem(p, t[0].off, "R3.4", "a formation is "
				    "line or column");
		} else if (a->kind == CROWN_FIRE && !t[0].point &&
		    t[0].len > 9 && strncmp(t[0].s, "building:", 9) == 0) {
			s = xstrndup(t[0].s + 9, t[0].len - 9);
			if (crown_id_valid(s)) {
				a->target = s;
				a->target_building = true;
			} else {
				problem(p, t[0].off, "R11.2", "'%s' is not a "
				    "valid building id", s);
				free(s);
			}
		} else
			read_id(p, &t[0], crown_action_names[a->kind],
			    a->kind == CROWN_CHARGE ? "R9.1" :
			    a->kind == CROWN_FIRE ? "R5.1" : "R4.3",
			    &a->target);
		break;
	default:
		if (nt != 0)
			problem(p, t[0].off, "R3.4", "action '%s' takes no "
			    "argument", crown_action_names[a->kind]);
		break;
	}
}

/* The next action of s[*off..end): its bounds without blanks; false when
 * none is left.  Actions are separated by ';'. */
static bool
next_action(const struct parser *p, size_t *off, size_t end, size_t *a,
    size_t *b)
{
	const char	*s = p->text;
	size_t		 i;

	for (;;) {
		if (*off >= end)
			return false;
		i = *off;
		while (i < end && s[i] != ';')
			i++;
		*a = *off;
		*b = i;
		*off = i + 1;
		while (*a < *b && (s[*a] == ' ' || s[*a] == '\t'))
			(*a)++;
		while (*b > *a && (s[*b - 1] == ' ' || s[*b - 1] == '\t'))
			(*b)--;
		if (*a < *b)
			return true;
	}
}

static void
unit_line(struct parser *p, const PCRE2_SIZE *ov)
{
	struct crown_orders		*o = p->o;
	struct crown_unit_orders	*uo;
	struct token			 t;
	size_t				 off, a, b, cap = 0;

	crown_grow(&o->units, &p->ucap, o->nunits + 1, sizeof(*o->units));
	uo = &o->units[o->nunits++];
	memset(uo, 0, sizeof(*uo));
	uo->line = p->line;
	uo->col = column(p, gstart(ov, L_UNIT));
	memset(&t, 0, sizeof(t));
	t.s = p->text + gstart(ov, L_UNIT);
	t.len = gend(ov, L_UNIT) - gstart(ov, L_UNIT);
	t.off = gstart(ov, L_UNIT);
	read_id(p, &t, "unit", NULL, &uo->unit);
	off = gstart(ov, L_UNIT_ORDERS);
	while (next_action(p, &off, gend(ov, L_UNIT_ORDERS), &a, &b)) {
		if (uo->nactions == MAX_ACTIONS) {
			problem(p, a, "R3.1", "more than %d actions",
			    MAX_ACTIONS);
			break;
		}
		crown_grow(&uo->actions, &cap, uo->nactions + 1,
		    sizeof(*uo->actions));
		memset(&uo->actions[uo->nactions], 0,
		    sizeof(*uo->actions));
		read_action(p, &uo->actions[uo->nactions++], a, b);
	}
	if (uo->nactions == 0)
		problem(p, gend(ov, L_UNIT), "R3.4", "no actions for '%.*s' "
		    "(write 'hold' to hold)", (int)t.len, t.s);
}

/* The action name at s[a..b) of the line, if it is `w`. */
static bool
action_is(const struct parser *p, size_t a, size_t b, const char *w,
    size_t *args)
{
	size_t	n = strlen(w);

	if (b - a < n || strncasecmp(p->text + a, w, n) != 0 ||
	    (b - a > n && p->text[a + n] != ' ' && p->text[a + n] != '\t'))
		return false;
	*args = a + n;
	return true;
}

/* leader ID: move X,Y; attach UNIT; detach (R4.6, R10.3) */
static void
leader_line(struct parser *p, const PCRE2_SIZE *ov)
{
	struct crown_orders		*o = p->o;
	struct crown_leader_orders	*lo;
	struct crown_action_order	 act;
	struct token			 t[MAX_TOKENS];
	size_t				 off, a, b, args, nt;
	bool				 any = false;

	crown_grow(&o->leaders, &p->lcap, o->nleaders + 1,
	    sizeof(*o->leaders));
	lo = &o->leaders[o->nleaders++];
	memset(lo, 0, sizeof(*lo));
	lo->line = p->line;
	lo->col = column(p, gstart(ov, L_LEADER));
	memset(&t[0], 0, sizeof(t[0]));
	t[0].s = p->text + gstart(ov, L_LEADER);
	t[0].len = gend(ov, L_LEADER) - gstart(ov, L_LEADER);
	t[0].off = gstart(ov, L_LEADER);
	if (t[0].len == 0)
		problem(p, gstart(ov, L_LEADER), NULL, "'leader' needs the "
		    "leader's id, as 'leader ID: move X,Y'");
	else
		read_id(p, &t[0], "leader", NULL, &lo->leader);
	off = gstart(ov, L_LEADER_ORDERS);
	while (next_action(p, &off, gend(ov, L_LEADER_ORDERS), &a, &b)) {
		any = true;
		if (action_is(p, a, b, "detach", &args)) {
			if (args != b)
				problem(p, args, "R10.3", "'detach' takes no "
				    "argument");
			else if (lo->detach)
				problem(p, a, "R10.3", "'detach' is given "
				    "twice");
			lo->detach = true;
			continue;
		}
		if (action_is(p, a, b, "attach", &args)) {
			if (!tokenize(p, args, b, t, &nt))
				continue;
			if (nt != 1)
				problem(p, a, "R10.3", "'attach' takes one "
				    "unit id");
			else if (lo->attach != NULL)
				problem(p, a, "R10.3", "'attach' is given "
				    "twice");
			else
				read_id(p, &t[0], "attach", "R10.3",
				    &lo->attach);
			continue;
		}
		memset(&act, 0, sizeof(act));
		read_action(p, &act, a, b);
		switch (act.kind) {
		case CROWN_MOVE:
			if (act.npath == 0)
				break;	/* reported */
			if (lo->has_move)
				problem(p, a, "R4.6", "a leader moves once "
				    "a turn");
			else if (act.npath != 1 || act.has_face ||
			    act.road)
				problem(p, a, "R4.6", "a leader moves to one "
				    "point: 'move X,Y'");
			else {
				lo->has_move = true;
				lo->to = act.path[0];
				lo->move_line = act.line;
				lo->move_col = act.col;
			}
			break;
		case CROWN_NACTION:
			break;	/* reported */
		default:
			problem(p, a, "R10.3", "a leader can 'move X,Y', "
			    "'attach UNIT' or 'detach', not '%s'",
			    crown_action_names[act.kind]);
			break;
		}
		free(act.path);
		free(act.target);
	}
	if (!any)
		problem(p, gend(ov, L_LEADER_ORDERS), "R10.3", "no orders for "
		    "the leader (write 'move X,Y', 'attach UNIT' or 'detach')");
	if (lo->attach != NULL && lo->detach)
		problem(p, gstart(ov, L_LEADER), "R10.3", "a leader cannot "
		    "attach and detach in one order");
}

/* game: NAME | turn: N | side: ID | seed: TEXT | password: ... */
static void
header_line(struct parser *p, const PCRE2_SIZE *ov)
{
	static const char *const keys[NHEADER] = {
		[H_GAME] = "game",
		[H_TURN] = "turn",
		[H_SIDE] = "side",
		[H_SEED] = "seed",
		[H_PASSWORD] = "password"
	};
	struct crown_orders	*o = p->o;
	struct token		 t;
	PCRE2_SIZE		*iv;
	size_t			 k, klen = gend(ov, L_KEY) - gstart(ov, L_KEY);
	char			*v;
	long			 turn;

	for (k = 0; k < CROWN_NELEM(keys); k++)
		if (strlen(keys[k]) == klen &&
		    strncmp(p->text + gstart(ov, L_KEY), keys[k], klen) == 0)
			break;
	if (k == H_PASSWORD)	/* crown inbox reads and removes it */
		return;
	if (p->seen[k]) {
		problem(p, gstart(ov, L_KEY), NULL, "'%s' is given twice",
		    keys[k]);
		return;
	}
	p->seen[k] = true;
	v = xstrndup(p->text + gstart(ov, L_VALUE),
	    gend(ov, L_VALUE) - gstart(ov, L_VALUE));
	if (*v == '\0') {
		problem(p, gstart(ov, L_KEY), k == H_TURN ? "R2.2" : NULL,
		    "'%s' needs a value",
		    keys[k]);
		free(v);
		return;
	}
	switch ((enum header)k) {
	case H_GAME:
		o->game = v;
		o->game_line = p->line;
		o->game_col = column(p, gstart(ov, L_VALUE));
		return;
	case H_SEED:
		o->seed = v;
		return;
	case H_TURN:
		if (!match(RE_INT, v, strlen(v), 0, &iv) ||
		    (turn = strtol(v, NULL, 10)) < 1 || turn > MAX_TURN)
			problem(p, gstart(ov, L_VALUE), "R2.2", "'turn' must be "
			    "a whole number from 1 to %d, not '%s'", MAX_TURN,
			    v);
		else {
			o->turn = (int)turn;
			o->turn_line = p->line;
			o->turn_col = column(p, gstart(ov, L_VALUE));
		}
		break;
	case H_SIDE:
	case H_PASSWORD:
	case NHEADER:
		memset(&t, 0, sizeof(t));
		t.s = p->text + gstart(ov, L_VALUE);
		t.len = gend(ov, L_VALUE) - gstart(ov, L_VALUE);
		t.off = gstart(ov, L_VALUE);
		o->side_line = p->line;
		o->side_col = column(p, gstart(ov, L_VALUE));
		read_id(p, &t, "side", NULL, &o->side);
		break;
	}
	free(v);
}

/* Bytes of one line that may not be there: NUL, other control
 * characters than tab, bad UTF-8.  Reports the first; true if clean. */
static bool
line_clean(struct parser *p)
{
	const unsigned char	*s = (const unsigned char *)p->text;
	size_t			 i = 0;
	gunichar		 u;
	unsigned		 c;

	while (i < p->len) {
		c = s[i];
		if (c < 0x80) {
			if ((c < 0x20 && c != '\t') || c == 0x7f) {
				problem(p, i, NULL, "control character 0x%02x "
				    "(orders are plain text)", c);
				return false;
			}
			i++;
			continue;
		}
		u = g_utf8_get_char_validated(p->text + i, (gssize)(p->len - i));
		if (u == (gunichar)-1 || u == (gunichar)-2) {
			crown_text_not_utf8(p->d, p->file, p->line,
			    column(p, i), c);
			p->errors++;
			return false;
		}
		/* C1 controls U+0080-U+009F, refused like C0 (and by the
		 * YAML layer the orders are written to) */
		if (u <= 0x9f) {
			problem(p, i, NULL, "control character U+%04X (orders "
			    "are plain text)", (unsigned)u);
			return false;
		}
		i = (size_t)(g_utf8_next_char(p->text + i) - p->text);
	}
	return true;
}

/*
 * The first non-breaking space of the current line (crown_text_nbsp), or
 * its length; *blank when the line holds nothing else but blanks, and
 * *indent when only blanks come before it.
 */
static size_t
first_nbsp(const struct parser *p, bool *blank, bool *indent)
{
	size_t	i, k, first = p->len;

	*blank = *indent = true;
	for (i = 0; i < p->len; i += k ? k : 1) {
		if ((k = crown_text_nbsp(p->text, i, p->len)) != 0) {
			if (first == p->len)
				first = i;
		} else if (p->text[i] != ' ' && p->text[i] != '\t') {
			*blank = false;
			if (first == p->len)
				*indent = false;
		}
	}
	return first;
}

/* Report the non-breaking space at off of the current line. */
static void
nbsp_problem(struct parser *p, size_t off, bool indent)
{
	const unsigned char	*s = (const unsigned char *)p->text + off;

	crown_text_nbsp_error(p->d, p->file, p->line, column(p, off),
	    s[0] == 0xc2 ? 0xa0 : s[2] == 0x87 ? 0x2007 : 0x202f, indent);
	p->errors++;
}

/* Where a comment starts in the current line, or its length. */
static size_t
comment_start(const struct parser *p)
{
	const char	*s = p->text;
	size_t		 i;

	/* on every line alike, game: included: a name with " #" in it is
	 * given in an orders file instead */
	for (i = 0; i < p->len; i++)
		if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' ||
		    s[i - 1] == '\t'))
			return i;
	return p->len;
}

int
crown_shorthand_parse(struct crown_orders **out, const char *file,
    const char *buf, size_t len, struct crown_diags *d)
{
	struct parser	 p;
	PCRE2_SIZE	*ov, v[2 * L_NGROUPS];
	const char	*text = buf;
	size_t		 pos = 0, eol, n, nb, from = d->n, tlen = len;
	int		 error;
	bool		 blank, indent;

	memset(&p, 0, sizeof(p));
	p.file = file;
	p.d = d;
	p.o = xcalloc(1, sizeof(*p.o));
	p.o->file = xstrdup(file);
	p.o->turn = -1;
	*out = p.o;
	if ((error = re_init(d)) != 0)
		return error;
	if (len > crown_ylimits_orders.max_bytes) {
		unsigned line, col;

		/* the place of the first byte past the limit */
		crown_text_place(buf, crown_ylimits_orders.max_bytes, &line,
		    &col);
		crown_diag_add(d, file, line, col, NULL, "orders of %zu bytes "
		    "are over the limit of %zu", len,
		    crown_ylimits_orders.max_bytes);
		return CROWN_EINVALID;
	}
	/* a byte-order mark is not part of the first line */
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
		buf += 3;
		len -= 3;
	}
	while (pos < len) {
		p.line++;
		eol = pos;
		while (eol < len && buf[eol] != '\n')
			eol++;
		n = eol - pos;
		if (n > 0 && buf[pos + n - 1] == '\r')
			n--;
		p.text = buf + pos;
		p.len = n;
		pos = eol + 1;
		if (!line_clean(&p))
			continue;
		p.len = comment_start(&p);
		if (!match(RE_LINE, p.text, p.len, 0, &ov))
			continue;	/* cannot happen: the last branch */
		/* the groups, before other matches reuse the vector */
		memcpy(v, ov, sizeof(v));
		/* prose may hold non-breaking spaces, and a line of them
		 * is blank; an order or a header may not */
		nb = first_nbsp(&p, &blank, &indent);
		if (blank)
			continue;
		if (nb < p.len && !group(v, L_OTHER)) {
			nbsp_problem(&p, nb, indent);
			continue;
		}
		if (group(v, L_KEY))
			header_line(&p, v);
		else if (group(v, L_LEADER)) {
			leader_line(&p, v);
			p.ordered = true;
		} else if (group(v, L_UNIT)) {
			unit_line(&p, v);
			p.ordered = true;
		} else if (gend(v, L_OTHER) > gstart(v, L_OTHER)) {
			char *s = xstrndup(p.text + gstart(v, L_OTHER),
			    gend(v, L_OTHER) - gstart(v, L_OTHER));

			/* a mail's "Revised orders:" before the orders is
			 * prose; among them it may be a mistyped order */
			if (!p.ordered)
				crown_diag_warn(d, file, p.line, column(&p,
				    gstart(v, L_OTHER)), NULL, "skipped '%s': "
				    "not an order line, and no order came "
				    "before it", s);
			else
				problem(&p, gstart(v, L_OTHER), "R3.4",
				    "expected 'UNIT: ACTION; ACTION ...' or "
				    "'leader ID: ...', not '%s'", s);
			free(s);
		}
	}
	crown_diags_quote(d, from, text, tlen);
	return p.errors > 0 ? CROWN_EINVALID : 0;
}

bool
crown_shorthand_is_yaml(const char *buf, size_t len)
{
	size_t	pos = 0, i;

	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < len) {
		if (len - pos >= 7 && strncmp(buf + pos, "orders:", 7) == 0)
			return true;
		/* YAML's flow style, JSON: no shorthand line holds them */
		for (i = pos; i < len && buf[i] != '\n' && buf[i] != ':' &&
		    buf[i] != '[' && buf[i] != '{' && buf[i] != ' ' &&
		    buf[i] != '\t'; i++)
			;
		if (i < len && buf[i] == ':')
			for (i++; i < len && (buf[i] == ' ' ||
			    buf[i] == '\t'); i++)
				;
		if (i < len && (buf[i] == '[' || buf[i] == '{'))
			return true;
		while (pos < len && buf[pos] != '\n')
			pos++;
		pos++;
	}
	return false;
}

/* Writing. */

static void
emit_point(struct crown_yemit *e, struct crown_point pt)
{
	crown_yemit_seq(e, true);
	crown_yemit_num2(e, pt.x);
	crown_yemit_num2(e, pt.y);
	crown_yemit_end(e);
}

static void
emit_action(struct crown_yemit *e, const struct crown_action_order *a)
{
	char	*s;
	size_t	 i;

	switch (a->kind) {
	case CROWN_MOVE:
	case CROWN_MANHANDLE:
		crown_yemit_map(e, false);
		crown_yemit_str(e, crown_action_names[a->kind]);
		crown_yemit_map(e, true);
		if (a->npath == 1) {
			crown_yemit_str(e, "to");
			emit_point(e, a->path[0]);
		} else {
			crown_yemit_str(e, "path");
			crown_yemit_seq(e, true);
			for (i = 0; i < a->npath; i++)
				emit_point(e, a->path[i]);
			crown_yemit_end(e);
		}
		if (a->has_face)
			crown_yemit_kint(e, "face", a->face);
		if (a->road)
			crown_yemit_kbool(e, "road", true);
		crown_yemit_end(e);
		crown_yemit_end(e);
		break;
	case CROWN_CHARGE:
	case CROWN_HELP:
	case CROWN_FIRE:
		crown_yemit_map(e, false);
		if (a->target_building) {
			s = xasprintf("building:%s", a->target);
			crown_yemit_kstr(e, "fire", s);
			free(s);
		} else
			crown_yemit_kstr(e, crown_action_names[a->kind],
			    a->target);
		crown_yemit_end(e);
		break;
	case CROWN_FORMATION:
		crown_yemit_map(e, false);
		crown_yemit_kstr(e, "formation",
		    crown_formation_names[a->formation]);
		crown_yemit_end(e);
		break;
	default:
		crown_yemit_str(e, crown_action_names[a->kind]);
		break;
	}
}

static bool
action_ok(const struct crown_action_order *a)
{
	switch (a->kind) {
	case CROWN_MOVE:
	case CROWN_MANHANDLE:
		return a->npath > 0;
	case CROWN_CHARGE:
	case CROWN_HELP:
	case CROWN_FIRE:
		return a->target != NULL;
	case CROWN_NACTION:
		return false;
	default:
		return true;
	}
}

int
crown_shorthand_to_yaml(struct crown_buf *out, const struct crown_orders *o)
{
	struct crown_yemit		*e;
	const struct crown_unit_orders	*uo;
	const struct crown_leader_orders *lo;
	size_t				 i, j;
	int				 error;

	e = crown_yemit_new(out);
	crown_yemit_map(e, false);
	crown_yemit_kstr(e, "game", o->game != NULL ? o->game : "");
	crown_yemit_kint(e, "turn", o->turn);
	crown_yemit_kstr(e, "side", o->side != NULL ? o->side : "");
	/* the side's own entropy reaches the dice with the file's bytes */
	if (o->seed != NULL)
		crown_yemit_kstr(e, "seed", o->seed);
	crown_yemit_str(e, "orders");
	crown_yemit_seq(e, o->nunits + o->nleaders == 0);
	for (i = 0; i < o->nunits; i++) {
		uo = &o->units[i];
		if (uo->unit == NULL)
			continue;
		crown_yemit_map(e, false);
		crown_yemit_kstr(e, "unit", uo->unit);
		crown_yemit_str(e, "actions");
		crown_yemit_seq(e, false);
		for (j = 0; j < uo->nactions; j++)
			if (action_ok(&uo->actions[j]))
				emit_action(e, &uo->actions[j]);
		crown_yemit_end(e);
		crown_yemit_end(e);
	}
	for (i = 0; i < o->nleaders; i++) {
		lo = &o->leaders[i];
		if (lo->leader == NULL)
			continue;
		crown_yemit_map(e, false);
		crown_yemit_kstr(e, "leader", lo->leader);
		if (lo->has_move) {
			crown_yemit_str(e, "move");
			crown_yemit_map(e, true);
			crown_yemit_str(e, "to");
			emit_point(e, lo->to);
			crown_yemit_end(e);
		}
		if (lo->attach != NULL)
			crown_yemit_kstr(e, "attach", lo->attach);
		if (lo->detach)
			crown_yemit_kbool(e, "detach", true);
		crown_yemit_end(e);
	}
	crown_yemit_end(e);
	crown_yemit_end(e);
	error = crown_yemit_finish(e);
	crown_yemit_free(e);
	return error;
}

/* A coordinate as a player writes it: 20, 20.5, 20.25. */
static void
format_num(struct crown_buf *b, double v)
{
	char	buf[64], *p;

	v = crown_round2(v);
	if (v == 0)
		v = 0;
	snprintf(buf, sizeof(buf), "%.2f", v);
	p = buf + strlen(buf) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	crown_buf_puts(b, buf);
}

static void
format_point(struct crown_buf *b, struct crown_point pt)
{
	format_num(b, pt.x);
	crown_buf_puts(b, ",");
	format_num(b, pt.y);
}

void
crown_shorthand_format(struct crown_buf *out, const struct crown_orders *o)
{
	const struct crown_action_order	*a;
	const struct crown_leader_orders *lo;
	size_t				 i, j, k;
	const char			*sep;

	crown_buf_puts(out, "");
	for (i = 0; i < o->nunits; i++) {
		if (o->units[i].unit == NULL)
			continue;
		crown_buf_printf(out, "%s:", o->units[i].unit);
		sep = " ";
		for (j = 0; j < o->units[i].nactions; j++) {
			a = &o->units[i].actions[j];
			if (!action_ok(a))
				continue;
			crown_buf_printf(out, "%s%s", sep,
			    crown_action_names[a->kind]);
			sep = "; ";
			switch (a->kind) {
			case CROWN_MOVE:
			case CROWN_MANHANDLE:
				for (k = 0; k < a->npath; k++) {
					crown_buf_puts(out, " ");
					format_point(out, a->path[k]);
				}
				if (a->has_face)
					crown_buf_printf(out, " face %d",
					    a->face);
				if (a->road)
					crown_buf_puts(out, " road");
				break;
			case CROWN_CHARGE:
			case CROWN_HELP:
			case CROWN_FIRE:
				crown_buf_printf(out, " %s%s",
				    a->target_building ? "building:" : "",
				    a->target);
				break;
			case CROWN_FORMATION:
				crown_buf_printf(out, " %s",
				    crown_formation_names[a->formation]);
				break;
			default:
				break;
			}
		}
		crown_buf_puts(out, "\n");
	}
	for (i = 0; i < o->nleaders; i++) {
		lo = &o->leaders[i];
		if (lo->leader == NULL)
			continue;
		crown_buf_printf(out, "leader %s:", lo->leader);
		sep = " ";
		if (lo->has_move) {
			crown_buf_printf(out, "%smove ", sep);
			format_point(out, lo->to);
			sep = "; ";
		}
		if (lo->attach != NULL) {
			crown_buf_printf(out, "%sattach %s", sep, lo->attach);
			sep = "; ";
		}
		if (lo->detach)
			crown_buf_printf(out, "%sdetach", sep);
		crown_buf_puts(out, "\n");
	}
}
