/*
 * cmd-muster.c: crown muster: units from the troop tables (R12.1), for
 * scenarios with non-historical forces.
 *
 * One D10 per unit picks its class and arms from the table row of its type
 * and year.  Every die is printed as a YAML comment above its unit, and the
 * dice come from a seed that is printed too (or from --seed, or a dice
 * script), so anyone can check the draw or make it again.  The output is a
 * YAML list to paste under `units:` in a scenario.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/dice.h"
#include "crown/fmt.h"
#include "crown/geom.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define MUSTER_MAX_COUNT	100
#define MUSTER_MAX_STANDS	64
/* The side a unit is written with when no --side is given: not a valid
 * id, so a scenario refuses it until the umpire sets the real side. */
#define MUSTER_SIDE_PLACEHOLDER	"SIDE"
/* Figures in each stand when no --stands is given (not artillery). */
#define MUSTER_DEFAULT_FIGURES	4
#define MUSTER_DEFAULT_NSTANDS	4

struct muster_opts {
	long		 year;
	const char	*type;
	long		 count;
	const char	*side;
	const char	*prefix;
	int		 stands[MUSTER_MAX_STANDS];
	size_t		 nstands;
	bool		 at;
	double		 x, y;
	long		 facing;
	const char	*seed;
	const char	*script;
	const char	*rules;
	bool		 list;
};

static int	cmd_muster_exec(struct crown_run *);

enum {
	MUSTER_YEAR,
	MUSTER_TYPE,
	MUSTER_COUNT,
	MUSTER_SIDE,
	MUSTER_STANDS,
	MUSTER_PREFIX,
	MUSTER_AT,
	MUSTER_SEED,
	MUSTER_DICE_SCRIPT,
	MUSTER_RULES,
	MUSTER_LIST,
	MUSTER_NOPTS
};

static const struct crown_option muster_options[] = {
	[MUSTER_YEAR] = { "year", CROWN_OPT_VALUE },
	[MUSTER_TYPE] = { "type", CROWN_OPT_VALUE },
	[MUSTER_COUNT] = { "count", CROWN_OPT_VALUE },
	[MUSTER_SIDE] = { "side", CROWN_OPT_VALUE },
	[MUSTER_STANDS] = { "stands", CROWN_OPT_VALUE },
	[MUSTER_PREFIX] = { "prefix", CROWN_OPT_VALUE },
	[MUSTER_AT] = { "at", CROWN_OPT_VALUE },
	[MUSTER_SEED] = { "seed", CROWN_OPT_VALUE },
	[MUSTER_DICE_SCRIPT] = { "dice-script", CROWN_OPT_VALUE },
	[MUSTER_RULES] = { "rules", CROWN_OPT_VALUE },
	[MUSTER_LIST] = { "list", CROWN_OPT_FLAG },
	[MUSTER_NOPTS] = { NULL, CROWN_OPT_FLAG }
};
static int	parse_long(const char *, long, long, long *);
static int	parse_stands(struct muster_opts *, const char *);
static int	parse_at(struct muster_opts *, const char *);
static int	parse_seed(unsigned char *, const char *);
static void	hex(char *, const unsigned char *, size_t);
static void	yaml_quoted(struct crown_buf *, const char *);
static void	print_list(const struct crown_rules *);
static void	print_option(struct crown_buf *,
		    const struct crown_troop_option *);
static const struct crown_troop_row *find_row(const struct crown_rules *,
		    const char *, long, bool *);
static int	check_stands(const struct crown_rules *,
		    const struct crown_troop_row *, struct muster_opts *);
static int	muster(const struct crown_rules *,
		    const struct crown_troop_row *, struct muster_opts *,
		    struct crown_dice *, const char *, struct crown_diags *);

const struct crown_cmd crown_cmd_muster = {
	"muster",
	"--year YEAR --type TYPE [--count N] [--side SIDE]\n"
	"       [--stands N,N,...] [--prefix ID] [--at X,Y[,FACING]]\n"
	"       [--seed HEX | --dice-script FILE] [--rules FILE]\n"
	"       crown muster --list [--rules FILE]",
	"Raise units from the troop tables of the rules (R12.1): for each\n"
	"of N units (default 1) of TYPE in YEAR, roll one D10 and look up\n"
	"its class and arms in the row for that year.  Prints the units as\n"
	"a YAML list to paste under `units:` in a scenario, each with its\n"
	"die as a comment, so the draw can be checked.\n"
	"\n"
	"  --list         the types and years the tables cover, and exit\n"
	"  --side SIDE    the side id to write (default: a placeholder\n"
	"                 that a scenario refuses until it is set)\n"
	"  --stands LIST  figures per stand, first stand first (default\n"
	"                 4,4,4,4; a gun: one stand of its minimum crew,\n"
	"                 R6.4, and one figure more); checked against R1.1\n"
	"  --prefix ID    ids are ID-1, ID-2, ... (default: the type,\n"
	"                 with '-' for '_')\n"
	"  --at X,Y[,F]   the first unit's front-edge centre and facing;\n"
	"                 the others stand in a row to the east of it, one\n"
	"                 stand's frontage apart (default 0,0,0: edit them)\n"
	"  --seed HEX     dice from this seed (up to 64 hex digits; missing\n"
	"                 digits are zero); without it a fresh seed is\n"
	"                 drawn and printed, so the units can be made again\n"
	"  --dice-script FILE\n"
	"                 the D10s, in order, from FILE\n"
	"\n"
	"Exit 0; 2 on a usage error; 65 when the tables have no TYPE for\n"
	"YEAR, the stands break R1.1, or the dice script is bad; 66 when a\n"
	"file is missing.",
	.flags = CROWN_CMD_IN_ORDER,
	.options = muster_options,
	.exec = cmd_muster_exec
};

static int
parse_long(const char *s, long lo, long hi, long *out)
{
	char	*end;
	long	 v;

	if (*s == '\0')
		return -1;
	v = strtol(s, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int
parse_stands(struct muster_opts *o, const char *arg)
{
	const char	*p = arg;
	char		*end;
	long		 v;

	o->nstands = 0;
	for (;;) {
		if (o->nstands == MUSTER_MAX_STANDS)
			return -1;
		v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > 1000)
			return -1;
		o->stands[o->nstands++] = (int)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

static int
parse_at(struct muster_opts *o, const char *arg)
{
	const char	*p = arg;
	char		*end;
	double		 v[3] = { 0, 0, 0 };
	int		 i;

	for (i = 0; i < 3; i++) {
		v[i] = strtod(p, &end);
		/* written so that a NaN fails too */
		if (end == p || !(v[i] >= 0 && v[i] <= 100000))
			return -1;
		if (*end == '\0')
			break;
		if (*end != ',' || i == 2)
			return -1;
		p = end + 1;
	}
	if (i < 1 || v[2] != (double)(long)v[2] || v[2] > 359)
		return -1;
	o->at = true;
	o->x = crown_round2(v[0]);
	o->y = crown_round2(v[1]);
	o->facing = (long)v[2];
	return 0;
}

/* Up to 64 hex digits fill the secret from its first byte; the rest is
 * zero, so a short seed like "1" is easy to type in a test. */
static int
parse_seed(unsigned char *secret, const char *s)
{
	size_t	i, n = strlen(s);
	int	v;

	if (n == 0 || n > 2 * CROWN_SECRET_BYTES)
		return -1;
	memset(secret, 0, CROWN_SECRET_BYTES);
	for (i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			v = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			v = s[i] - 'a' + 10;
		else if (s[i] >= 'A' && s[i] <= 'F')
			v = s[i] - 'A' + 10;
		else
			return -1;
		secret[i / 2] |= (unsigned char)(i % 2 == 0 ? v << 4 : v);
	}
	return 0;
}

static void
hex(char *out, const unsigned char *b, size_t n)
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 0xf];
	}
	out[2 * n] = '\0';
}

/* A YAML double-quoted scalar: labels come from the rules file and may
 * hold anything. */
static void
yaml_quoted(struct crown_buf *b, const char *s)
{
	const unsigned char	*p;

	crown_buf_puts(b, "\"");
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			crown_buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			crown_buf_printf(b, "\\x%02x", *p);
		else
			crown_buf_add(b, p, 1);
	}
	crown_buf_puts(b, "\"");
}

static void
print_option(struct crown_buf *b, const struct crown_troop_option *op)
{
	if (op->lo == op->hi)
		crown_buf_printf(b, "%d", op->lo);
	else
		crown_buf_printf(b, "%d-%d", op->hi, op->lo);
	crown_buf_printf(b, " %s %s%s", crown_class_names[op->cls],
	    crown_weapon_names[op->weapon], op->lances ? " (L)" : "");
}

/* R12.1: every type and its rows, in the order of the rules file. */
static void
print_list(const struct crown_rules *rules)
{
	struct crown_buf		 b = { 0 };
	const struct crown_troop_row	*r, *q;
	int				 i, j, k;
	bool				 seen;

	crown_buf_printf(&b, "# R12.1 troop tables of %s: crown muster "
	    "--type TYPE --year YEAR\n# D10 scores are read high to low as in "
	    "the printed tables; (L): lances too.\n", rules->id);
	for (i = 0; i < rules->troop_nrows; i++) {
		r = &rules->troop[i];
		seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = strcmp(rules->troop[j].type, r->type) == 0;
		if (seen)
			continue;
		crown_buf_printf(&b, "%s: %s (%s%s%s)\n", r->type, r->label,
		    crown_utype_names[r->utype],
		    crown_is_artillery(r->utype) ? ", " : "",
		    crown_is_artillery(r->utype) ?
		    crown_gun_names[r->gun] : "");
		for (j = i; j < rules->troop_nrows; j++) {
			q = &rules->troop[j];
			if (strcmp(q->type, r->type) != 0)
				continue;
			crown_buf_printf(&b, "  %d-%d:", q->year_from,
			    q->year_to);
			for (k = 0; k < q->noptions; k++) {
				crown_buf_puts(&b, k == 0 ? " " : "; ");
				print_option(&b, &q->option[k]);
			}
			crown_buf_puts(&b, "\n");
		}
	}
	fputs(b.data != NULL ? b.data : "", stdout);
	crown_buf_release(&b);
}

/* The row of `type` whose years hold `year`; *known says whether the
 * type is in the tables at all. */
static const struct crown_troop_row *
find_row(const struct crown_rules *rules, const char *type, long year,
    bool *known)
{
	const struct crown_troop_row	*r;
	int				 i;

	*known = false;
	for (i = 0; i < rules->troop_nrows; i++) {
		r = &rules->troop[i];
		if (strcmp(r->type, type) != 0)
			continue;
		*known = true;
		if (year >= r->year_from && year <= r->year_to)
			return r;
	}
	return NULL;
}

/*
 * R1.1: 2-5 figures a stand, 3-8 stands a unit; a gun and its crew are
 * one unit of one stand (R1.1, R1.2).  Fills the default when no --stands
 * was given.  Problems go to stderr; returns 0 or CROWN_EINVALID.
 */
static int
check_stands(const struct crown_rules *rules,
    const struct crown_troop_row *row, struct muster_opts *o)
{
	size_t	i;
	int	error = 0;
	bool	gun = crown_is_artillery(row->utype);

	if (o->nstands == 0) {
		if (gun) {
			/* one figure above the minimum crew (R6.4), so the
			 * gun does not start short-handed (R3.5) */
			o->stands[0] = rules->min_crew[row->utype] + 1;
			o->nstands = 1;
		} else {
			for (i = 0; i < MUSTER_DEFAULT_NSTANDS; i++)
				o->stands[i] = MUSTER_DEFAULT_FIGURES;
			o->nstands = MUSTER_DEFAULT_NSTANDS;
		}
	}
	if (gun && o->nstands != 1) {
		fprintf(stderr, "crown muster: error: a gun and its crew are "
		    "one stand, not %zu (R1.1)\n", o->nstands);
		error = CROWN_EINVALID;
	} else if (!gun && ((int)o->nstands < rules->org.stands_min ||
	    (int)o->nstands > rules->org.stands_max)) {
		fprintf(stderr, "crown muster: error: a unit has %d to %d "
		    "stands, not %zu (R1.1)\n", rules->org.stands_min,
		    rules->org.stands_max, o->nstands);
		error = CROWN_EINVALID;
	}
	for (i = 0; i < o->nstands; i++) {
		if (gun && o->stands[i] >= 1 &&
		    o->stands[i] <= rules->org.figures_max)
			continue;
		if (!gun && o->stands[i] >= rules->org.figures_min &&
		    o->stands[i] <= rules->org.figures_max)
			continue;
		fprintf(stderr, "crown muster: error: stand %zu has %d "
		    "figure%s; a stand has %d to %d (R1.1)\n", i + 1,
		    o->stands[i], o->stands[i] == 1 ? "" : "s",
		    gun ? 1 : rules->org.figures_min,
		    rules->org.figures_max);
		error = CROWN_EINVALID;
	}
	return error;
}

static int
muster(const struct crown_rules *rules, const struct crown_troop_row *row,
    struct muster_opts *o, struct crown_dice *dice, const char *seedhex,
    struct crown_diags *d)
{
	struct crown_buf		 b = { 0 };
	const struct crown_troop_option	*op;
	struct crown_roll_key		 key;
	char				*prefix, *id, *p;
	double				 width, depth, x;
	long				 i;
	int				 k, face, error = 0;
	size_t				 j;

	prefix = xstrdup(o->prefix != NULL ? o->prefix : row->type);
	for (p = prefix; *p != '\0'; p++)
		if (*p == '_' && o->prefix == NULL)
			*p = '-';
	id = xasprintf("%s-%ld", prefix, o->count);
	if (!crown_id_valid(id)) {
		fprintf(stderr, "crown muster: error: '%s' is not a valid id "
		    "(ids are 1-32 of a-z 0-9 _ -, starting with a letter or "
		    "digit); give a shorter --prefix\n", id);
		free(id);
		free(prefix);
		return CROWN_EUSAGE;
	}
	free(id);

	crown_buf_printf(&b, "# crown muster: %ld %s of %ld (R12.1 table for "
	    "%d-%d),\n# one D10 each, ", o->count, row->label, o->year,
	    row->year_from, row->year_to);
	if (seedhex != NULL)
		crown_buf_printf(&b, "dice from seed\n# %s\n# (the same "
		    "seed, --type, --year and --prefix give the same "
		    "units).\n", seedhex);
	else
		crown_buf_printf(&b, "dice from the script %s, in order.\n",
		    o->script);
	crown_buf_puts(&b, "# Paste under `units:` in a scenario");
	if (o->side == NULL || !o->at)
		crown_buf_printf(&b, " and set%s%s", o->side == NULL ?
		    " side" : "", !o->at ? (o->side == NULL ?
		    ", x, y and facing" : " x, y and facing") : "");
	crown_buf_puts(&b, ".\n");

	crown_geom_formation_size(&width, &depth, CROWN_LINE,
	    crown_is_artillery(row->utype) ? 1 : (int)o->nstands,
	    rules->footprint[row->utype].frontage,
	    rules->footprint[row->utype].depth,
	    rules->footprint[row->utype].gap);
	x = o->x;
	for (i = 1; i <= o->count && error == 0; i++) {
		id = xasprintf("%s-%ld", prefix, i);
		key.turn = 0;
		key.half = 0;
		key.who = id;
		key.purpose = "muster";
		if (crown_dice_roll(dice, &key, rules->muster_die,
		    crown_rules_die_low(rules, rules->muster_die),
		    &face) != 0) {
			crown_diag_add(d, o->script != NULL ? o->script :
			    "dice", 0, 0, "R12.1", "%s",
			    crown_dice_error(dice));
			error = CROWN_EINVALID;
			free(id);
			break;
		}
		op = NULL;
		for (k = 0; k < row->noptions && op == NULL; k++)
			if (face >= row->option[k].lo &&
			    face <= row->option[k].hi)
				op = &row->option[k];
		if (op == NULL) {
			/* the rules loader insists every face has an
			 * option; a die off 0-9 cannot come from dice.c */
			crown_diag_add(d, rules->file, 0, 0, "R12.1",
			    "no option of '%s' %d-%d for D10 score %d",
			    row->type, row->year_from, row->year_to, face);
			error = CROWN_ERROR;
			free(id);
			break;
		}
		crown_buf_printf(&b, "# D10 rolled %d: %s, %s%s (R12.1)\n",
		    face, crown_class_names[op->cls],
		    crown_is_artillery(row->utype) ?
		    crown_gun_names[row->gun] :
		    crown_weapon_names[op->weapon],
		    op->lances ? ", with lances (L)" : "");
		if (op->lances)
			crown_buf_puts(&b, "# (L): a state holds one "
			    "weapon; write `weapon: lance` for a unit that\n"
			    "# fights with its lances (R9.9) rather than "
			    "shoots (R5.3).\n");
		crown_buf_printf(&b, "- id: %s\n  name: ", id);
		p = xasprintf("%s %ld%s", row->label, i,
		    op->lances ? " (lancers)" : "");
		yaml_quoted(&b, p);
		free(p);
		crown_buf_printf(&b, "\n  side: %s\n  type: %s\n",
		    o->side != NULL ? o->side : MUSTER_SIDE_PLACEHOLDER,
		    crown_utype_names[row->utype]);
		if (crown_is_artillery(row->utype))
			crown_buf_printf(&b, "  gun: %s\n",
			    crown_gun_names[row->gun]);
		crown_buf_printf(&b, "  class: %s\n",
		    crown_class_names[op->cls]);
		if (!crown_is_artillery(row->utype))
			crown_buf_printf(&b, "  weapon: %s\n",
			    crown_weapon_names[op->weapon]);
		crown_buf_puts(&b, "  stands: [");
		for (j = 0; j < o->nstands; j++)
			crown_buf_printf(&b, "%s%d", j ? ", " : "",
			    o->stands[j]);
		crown_buf_printf(&b, "]\n  x: %.2f\n  y: %.2f\n"
		    "  facing: %ld\n", crown_round2(x), o->y, o->facing);
		x += width + rules->footprint[row->utype].frontage;
		free(id);
	}
	if (error == 0)
		fputs(b.data, stdout);
	crown_buf_release(&b);
	free(prefix);
	return error;
}

static int
cmd_muster_exec(struct crown_run *r)
{
	const struct crown_optval	*opt = r->opt;
	struct muster_opts		 o;
	struct crown_diags		 d = { 0 };
	struct crown_rules		*rules = NULL;
	struct crown_dice		*dice = NULL;
	const struct crown_troop_row	*row;
	unsigned char			 secret[CROWN_SECRET_BYTES];
	char				 seedhex[2 * CROWN_SECRET_BYTES + 1];
	const char			*year_arg, *arg;
	int				 error = 0, status;
	bool				 known;

	memset(&o, 0, sizeof(o));
	o.count = 1;
	year_arg = opt[MUSTER_YEAR].value;
	o.type = opt[MUSTER_TYPE].value;
	o.prefix = opt[MUSTER_PREFIX].value;
	o.seed = opt[MUSTER_SEED].value;
	o.script = opt[MUSTER_DICE_SCRIPT].value;
	o.rules = opt[MUSTER_RULES].value;
	o.list = opt[MUSTER_LIST].value != NULL;
	if ((arg = opt[MUSTER_COUNT].value) != NULL &&
	    parse_long(arg, 1, MUSTER_MAX_COUNT, &o.count))
		return crown_cmd_usage_error(r->cmd, "--count must be 1 to "
		    "%d, not '%s'", MUSTER_MAX_COUNT, arg);
	if ((arg = opt[MUSTER_SIDE].value) != NULL && !crown_id_valid(arg))
		return crown_cmd_usage_error(r->cmd, "--side '%s' is not a "
		    "valid id (1-32 of a-z 0-9 _ -, starting with a letter or "
		    "digit)", arg);
	o.side = arg;
	if ((arg = opt[MUSTER_STANDS].value) != NULL &&
	    parse_stands(&o, arg) != 0)
		return crown_cmd_usage_error(r->cmd, "--stands wants figures "
		    "per stand like 4,4,3, not '%s'", arg);
	if ((arg = opt[MUSTER_AT].value) != NULL && parse_at(&o, arg) != 0)
		return crown_cmd_usage_error(r->cmd, "--at wants X,Y or "
		    "X,Y,FACING (inches, whole degrees 0-359), not '%s'", arg);
	if (!o.list && (year_arg == NULL || o.type == NULL))
		return crown_cmd_usage_error(r->cmd,
		    "--year and --type are required (--list shows the types)");
	if (year_arg != NULL && parse_long(year_arg, 0, 9999, &o.year) != 0)
		return crown_cmd_usage_error(r->cmd,
		    "--year must be a year like 1866, not '%s'", year_arg);
	if (o.seed != NULL && o.script != NULL)
		return crown_cmd_usage_error(r->cmd,
		    "give at most one of --seed and --dice-script");
	if (o.seed != NULL && parse_seed(secret, o.seed) != 0)
		return crown_cmd_usage_error(r->cmd,
		    "--seed wants 1 to %d hex digits, not '%s'",
		    2 * CROWN_SECRET_BYTES, o.seed);

	if ((error = crown_cmd_load_rules(&rules, o.rules, NULL, NULL, &d))
	    != 0)
		goto cleanup;
	if (o.list) {
		print_list(rules);
		goto cleanup;
	}
	row = find_row(rules, o.type, o.year, &known);
	if (row == NULL) {
		if (known)
			fprintf(stderr, "crown muster: error: the troop "
			    "tables have no '%s' for %ld; `crown muster "
			    "--list` shows their years (R12.1)\n", o.type,
			    o.year);
		else
			fprintf(stderr, "crown muster: error: unknown troop "
			    "type '%s'; `crown muster --list` shows the types "
			    "(R12.1)\n", o.type);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	if ((error = check_stands(rules, row, &o)) != 0)
		goto cleanup;
	if (o.script != NULL) {
		if ((error = crown_dice_script_load(&dice, o.script, &d)) != 0)
			goto cleanup;
	} else {
		if (o.seed == NULL)
			crown_secret_new(secret);
		if ((dice = crown_dice_campaign(secret)) == NULL) {
			crown_diag_add(&d, "dice", 0, 0, NULL,
			    "cannot initialise libsodium");
			error = CROWN_ERROR;
			goto cleanup;
		}
		hex(seedhex, secret, sizeof(secret));
	}
	error = muster(rules, row, &o, dice, o.script == NULL ? seedhex :
	    NULL, &d);
	if (error == 0 && o.script != NULL && crown_dice_unused(dice) > 0)
		fprintf(stderr, "crown muster: warning: %zu dice of the "
		    "script were not used\n", crown_dice_unused(dice));
cleanup:
	status = crown_cmd_fail(&d, error);
	crown_dice_free(dice);
	crown_rules_free(rules);
	return status;
}
