/*
 * cmd.h: the command table and what the commands share.  One file per
 * command (cmd-<name>.c); main.c only dispatches.
 */
#ifndef CROWN_CMD_H
#define CROWN_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "crown/diag.h"
#include "crown/orders.h"
#include "crown/outputs.h"
#include "crown/rules.h"
#include "crown/state.h"

struct crown_cmd {
	const char	*name;
	const char	*usage;		/* after "crown NAME " */
	const char	*summary;
	/* argv[0] is the command name; returns an exit status */
	int		(*exec)(int argc, char **argv);
};

extern const struct crown_cmd crown_cmd_check;
extern const struct crown_cmd crown_cmd_inbox;
/* issue 6: the campaign history (cmd-new.c ... cmd-publish.c) */
extern const struct crown_cmd crown_cmd_adopt;
extern const struct crown_cmd crown_cmd_log;
extern const struct crown_cmd crown_cmd_new;
extern const struct crown_cmd crown_cmd_publish;
extern const struct crown_cmd crown_cmd_rerun;
extern const struct crown_cmd crown_cmd_reveal;
extern const struct crown_cmd crown_cmd_show;
extern const struct crown_cmd crown_cmd_turn;
extern const struct crown_cmd crown_cmd_verify;
extern const struct crown_cmd crown_cmd_muster;
extern const struct crown_cmd crown_cmd_resolve;
extern const struct crown_cmd crown_cmd_rules;
extern const struct crown_cmd crown_cmd_status;

/* Print "usage: crown NAME USAGE" to fp. */
void	crown_cmd_usage(const struct crown_cmd *, FILE *fp);
/* Common options: returns true (and prints usage to stdout) for --help. */
bool	crown_cmd_wants_help(const struct crown_cmd *, int argc, char **argv);
int	crown_cmd_usage_error(const struct crown_cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Command lines of the history commands: "--name VALUE", "--name=VALUE"
 * and "--flag" anywhere, "--" ends the options, the rest are operands
 * (in order).  A repeatable option collects its values.  Returns 0, or
 * prints the problem and the usage and returns CROWN_EXIT_USAGE.
 */
struct crown_opt {
	const char	 *name;		/* without the dashes */
	bool		  arg;		/* takes a value */
	bool		  many;		/* may be repeated */
	const char	 *value;	/* the (last) value; "" for a flag */
	const char	**values;	/* every value, when many */
	size_t		  nvalues;
};

int	crown_cmd_args(const struct crown_cmd *, int argc, char **argv,
	    struct crown_opt *opts, const char ***operands, size_t *n);
void	crown_cmd_args_free(struct crown_opt *opts,
	    const char **operands);

/* Print the problems, free them, and return the exit status of error. */
int	crown_cmd_fail(struct crown_diags *, int error);

/*
 * The limits on input files (yaml.h) as options of the commands that read
 * them: put CROWN_LIMIT_OPTIONS in the getopt_long table and hand its two
 * cases to crown_cmd_limit, which returns 0 or the usage error's status.
 */
#define CROWN_OPT_LIMIT_ORDERS	0x100
#define CROWN_OPT_LIMIT_STATE	0x101
#define CROWN_LIMIT_OPTIONS						\
	{ "limit-orders-bytes", required_argument, NULL,		\
	    CROWN_OPT_LIMIT_ORDERS },					\
	{ "limit-state-bytes", required_argument, NULL,		\
	    CROWN_OPT_LIMIT_STATE }
#define CROWN_LIMIT_HELP						\
	"--limit-orders-bytes N and --limit-state-bytes N change the\n"	\
	"limits on the size of orders files (default 1M) and of states and\n" \
	"rules files (64M), N in bytes or with k or M."
int	crown_cmd_limit(const struct crown_cmd *, int opt, const char *arg);

/*
 * Load the rules: from `path` if given, else from rules.yaml in campaign
 * dir `dir` if given, else the rule set the state names (crown_rules_find).
 */
int	crown_cmd_load_rules(struct crown_rules **out, const char *path,
	    const char *dir, const char *id, struct crown_diags *d);
/* Load and validate order files against s; all problems to d. */
int	crown_cmd_load_orders(struct crown_orders ***out, size_t *n,
	    char *const *paths, size_t npaths, const struct crown_state *s,
	    const struct crown_rules *rules, struct crown_diags *d);

/*
 * --timings: where a command's time goes.  crown_timings_mark prints, on
 * standard error, the wall time since the previous mark (or since
 * crown_timings_start) as "crown CMD: timing: STEP N.N ms"; nothing when
 * off.  crown_timings_end prints the total the same way.
 */
struct crown_timings {
	const char	*cmd;
	bool		 on;
	double		 start, last;
};

void	crown_timings_start(struct crown_timings *, const char *cmd, bool on);
void	crown_timings_mark(struct crown_timings *, const char *step);
void	crown_timings_end(struct crown_timings *);

#endif
