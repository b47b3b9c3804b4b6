/*
 * cmd-muster.c: crown muster: units from the troop tables (R12.1), for
 * scenarios with non-historical forces.
 *
 * One D10 per unit picks its class and arms from the table row of its type
 * and year.  Every die is printed as a YAML comment above its unit, and the
 * dice come from a seed that is printed too (or from --seed, or a dice
 * script), so anyone can check the draw or make it again.  The output is a
 * YAML list to paste under `units:` in a scenario.  R12.1 and the YAML
 * are muster.c's (muster.h); this file reads the options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/dice.h"
#include "crown/fmt.h"
#include "crown/muster.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

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
static int	parse_stands(struct crown_muster_spec *, const char *);
static int	parse_at(struct crown_muster_spec *, const char *);
static int	parse_seed(unsigned char *, const char *);
static void	hex(char *, const unsigned char *, size_t);

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
parse_stands(struct crown_muster_spec *o, const char *arg)
{
	const char	*p = arg;
	char		*end;
	long		 v;

	o->nstands = 0;
	for (;;) {
		if (o->nstands == CROWN_MUSTER_MAX_STANDS)
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
parse_at(struct crown_muster_spec *o, const char *arg)
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

static int
cmd_muster_exec(struct crown_run *r)
{
	const struct crown_optval	*opt = r->opt;
	struct crown_muster_spec	 o;
	struct crown_muster		 m = { 0 };
	struct crown_buf		 out = { 0 };
	struct crown_diags		 d = { 0 };
	struct crown_rules		*rules = NULL;
	struct crown_dice		*dice = NULL;
	const struct crown_troop_row	*row;
	unsigned char			 secret[CROWN_SECRET_BYTES];
	char				 seedhex[2 * CROWN_SECRET_BYTES + 1];
	const char			*year_arg, *type, *seed, *arg;
	int				 error = 0, status;
	bool				 list;

	memset(&o, 0, sizeof(o));
	o.count = 1;
	year_arg = opt[MUSTER_YEAR].value;
	type = opt[MUSTER_TYPE].value;
	o.prefix = opt[MUSTER_PREFIX].value;
	seed = opt[MUSTER_SEED].value;
	o.script = opt[MUSTER_DICE_SCRIPT].value;
	list = opt[MUSTER_LIST].value != NULL;
	if ((arg = opt[MUSTER_COUNT].value) != NULL &&
	    parse_long(arg, 1, CROWN_MUSTER_MAX_COUNT, &o.count))
		return crown_cmd_usage_error(r->cmd, "--count must be 1 to "
		    "%d, not '%s'", CROWN_MUSTER_MAX_COUNT, arg);
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
	if (!list && (year_arg == NULL || type == NULL))
		return crown_cmd_usage_error(r->cmd,
		    "--year and --type are required (--list shows the types)");
	if (year_arg != NULL && parse_long(year_arg, 0, 9999, &o.year) != 0)
		return crown_cmd_usage_error(r->cmd,
		    "--year must be a year like 1866, not '%s'", year_arg);
	if (seed != NULL && o.script != NULL)
		return crown_cmd_usage_error(r->cmd,
		    "give at most one of --seed and --dice-script");
	if (seed != NULL && parse_seed(secret, seed) != 0)
		return crown_cmd_usage_error(r->cmd,
		    "--seed wants 1 to %d hex digits, not '%s'",
		    2 * CROWN_SECRET_BYTES, seed);

	if ((error = crown_cmd_load_rules(&rules, opt[MUSTER_RULES].value,
	    NULL, NULL, &d)) != 0)
		goto cleanup;
	if (list) {
		crown_muster_list(&out, rules);
		goto cleanup;
	}
	if ((row = crown_muster_row(rules, type, o.year, "crown muster",
	    &d)) == NULL) {
		error = CROWN_EINVALID;
		goto cleanup;
	}
	if ((error = crown_muster_stands(&o, rules, row, "crown muster",
	    &d)) != 0)
		goto cleanup;
	if (o.script != NULL) {
		if ((error = crown_dice_script_load(&dice, o.script, &d)) != 0)
			goto cleanup;
	} else {
		if (seed == NULL)
			crown_secret_new(secret);
		if ((dice = crown_dice_campaign(secret)) == NULL) {
			crown_diag_add(&d, "dice", 0, 0, NULL,
			    "cannot initialise libsodium");
			error = CROWN_ERROR;
			goto cleanup;
		}
		hex(seedhex, secret, sizeof(secret));
	}
	if ((error = crown_muster_raise(&m, rules, row, &o, dice,
	    "crown muster", &d)) != 0 ||
	    (error = crown_muster_emit(&out, &m, &o, o.script == NULL ?
	    seedhex : NULL)) != 0)
		goto cleanup;
	if (o.script != NULL && crown_dice_unused(dice) > 0)
		crown_diag_warn(&d, "crown muster", 0, 0, NULL, "%zu dice of "
		    "the script were not used", crown_dice_unused(dice));
cleanup:
	if (error == 0 && out.data != NULL)
		fputs(out.data, stdout);
	status = crown_cmd_fail(&d, error);
	crown_buf_release(&out);
	crown_muster_release(&m);
	crown_dice_free(dice);
	crown_rules_free(rules);
	return status;
}
