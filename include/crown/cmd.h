/*
 * cmd.h: the command table and what the commands share.  One file per
 * command (cmd-<name>.c); main.c only dispatches.
 */
#ifndef CROWN_CMD_H
#define CROWN_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "crown/campaign.h"
#include "crown/diag.h"
#include "crown/history.h"
#include "crown/orders.h"
#include "crown/outputs.h"
#include "crown/rules.h"
#include "crown/state.h"

/*
 * A command's options: options[K] is its option K, K from an enum of the
 * command's own, so that the command reads run->opt[K] by name; a NULL
 * name ends the table.
 */
enum crown_opt_kind {
	CROWN_OPT_FLAG,		/* --name */
	CROWN_OPT_VALUE,	/* --name VALUE or --name=VALUE, once */
	CROWN_OPT_LIST		/* the same, repeatable: every value kept */
};

struct crown_option {
	const char		*name;		/* without the dashes */
	enum crown_opt_kind	 kind;
};

/* What the command line gave for one option. */
struct crown_optval {
	const char	 *value;	/* the (last) value; "" for a flag;
					 * NULL when not given */
	const char	**values;	/* every value, CROWN_OPT_LIST */
	size_t		  nvalues;
};

/*
 * What a command shares with others, as flags of the command table (git's
 * RUN_SETUP): the options they take alike, and the campaign they work on.
 */
#define CROWN_CMD_IN_ORDER	0x01	/* options end at the first operand */
#define CROWN_CMD_LIMITS	0x02	/* --limit-orders-bytes N,
					 * --limit-state-bytes N (yaml.h) */
#define CROWN_CMD_SECRET	0x04	/* --secret-file F */
#define CROWN_CMD_TEMPLATES	0x08	/* --templates DIR */
#define CROWN_CMD_WHO		0x10	/* --umpire "Name <email>",
					 * --date DATE (crown_campaign_who) */
#define CROWN_CMD_CAMPAIGN	0x20	/* the first operand is a campaign:
					 * its history and main's line are
					 * read before exec */
#define CROWN_CMD_LOCK		0x40	/* with CAMPAIGN, the command writes:
					 * hold the campaign's lock and
					 * repair it (crown_campaign_repair)
					 * first */
#define CROWN_OPERANDS_ANY	((size_t)-1)	/* operands.max: no limit */

/* One run of a command, ready for its exec. */
struct crown_run {
	const struct crown_cmd	 *cmd;
	struct crown_optval	 *opt;		/* by the command's enum */
	const char		**operand;	/* in order */
	size_t			  noperands;
	/* the shared options the flags turn on; NULL when not given */
	const char		 *secret_file;
	const char		 *templates;
	const char		 *umpire;
	const char		 *date;
	/* CROWN_CMD_CAMPAIGN */
	const char		 *dir;		/* operand[0] */
	struct crown_history	 *h;
	struct crown_chain	  chain;	/* main */
	/* what the command starts from when its refuse loaded it already,
	 * from commit start_id ("": nothing); exec may take it (and clear
	 * start_id), else crown_cmd_run releases it */
	struct crown_campaign	  start;
	char			  start_id[CROWN_OID_HEX + 1];
};

struct crown_cmd {
	const char	*name;
	const char	*usage;		/* after "crown NAME " */
	const char	*summary;
	unsigned	 flags;		/* CROWN_CMD_* */
	const struct crown_option *options;	/* NULL: none of its own */
	/* How many operands it takes, and the usage error when not that
	 * many (NULL: "unexpected argument 'X'" for the first too many). */
	struct {
		size_t		 min, max;
		const char	*error;
	}		 operands;
	/* Optional: more checks of the command line, before any file is
	 * read, so that a bad TURN is a usage error (exit 2) even where
	 * the campaign is missing; 0, or the usage error's exit status. */
	int		(*check)(const struct crown_run *);
	/* Returns an exit status; the campaign (flags) is open. */
	int		(*exec)(struct crown_run *);
	/* Optional, with CROWN_CMD_CAMPAIGN: refusals that need the
	 * campaign but must come before anything is touched, the repair
	 * of CROWN_CMD_LOCK included (crown turn after the reveal): 0, or
	 * a CROWN_E* code with its problems in d. */
	int		(*refuse)(struct crown_run *, struct crown_diags *d);
	/* Optional, with CROWN_CMD_LOCK: whether this run writes at all;
	 * when not (crown turn --dry-run), no lock is taken and nothing
	 * repaired.  NULL: every run writes. */
	bool		(*writes)(const struct crown_run *);
};

/*
 * Run a command: argv[0] is its name.  --help (or -h) anywhere before
 * "--" prints the usage and the summary.  The command line is parsed
 * (crown_cmd_args), the operands counted and checked, the campaign opened
 * as the flags say, then exec runs; returns the exit status.
 */
int	crown_cmd_run(const struct crown_cmd *, int argc, char **argv);

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
/* issue 34: the weekly loop, for cron */
extern const struct crown_cmd crown_cmd_remind;
extern const struct crown_cmd crown_cmd_blame;
extern const struct crown_cmd crown_cmd_orders;
/* issue 19: the players and the deadline between turns */
extern const struct crown_cmd crown_cmd_deadline;
extern const struct crown_cmd crown_cmd_upgrade;
extern const struct crown_cmd crown_cmd_roster;
/* issue 22: the campaign as a web site */
extern const struct crown_cmd crown_cmd_site;

/* Print every option the command takes, "--name" separated by blanks,
 * --help last (the bash completion, crown --bash-completion). */
void	crown_cmd_print_options(FILE *fp, const struct crown_cmd *);
/* Print "usage: crown NAME USAGE" to fp. */
void	crown_cmd_usage(const struct crown_cmd *, FILE *fp);
int	crown_cmd_usage_error(const struct crown_cmd *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/*
 * Parse argv into run (run->cmd set): "--name VALUE", "--name=VALUE" and
 * "--flag" anywhere (with CROWN_CMD_IN_ORDER only before the first
 * operand), "--" ends the options, the rest are operands.  The limits are
 * set as they come.  Returns 0, or prints the problem and the usage and
 * returns CROWN_EXIT_USAGE; crown_cmd_args_free either way.
 */
int	crown_cmd_args(struct crown_run *, int argc, char **argv);
void	crown_cmd_args_free(struct crown_run *);

/*
 * --reason TEXT of rerun and adopt: one line of the message, "Reason:
 * TEXT" (CROWN_REASON_KEY, campaign.h), that crown log shows.
 * crown_cmd_reason_check: a usage error (its exit status) for an empty
 * text or one of several lines, else 0.
 */
int	crown_cmd_reason_check(const struct crown_cmd *, const char *reason);

/* The exit status (sysexits, doc/formats.md) of a CROWN_E* code. */
int	crown_exit_status(int error);
/* Print the problems, free them, and return the exit status of error. */
int	crown_cmd_fail(struct crown_diags *, int error);
/* After the reveal nothing more is committed: CROWN_EINVALID with a
 * diagnostic then, else 0. */
int	crown_cmd_game_over(const struct crown_run *, struct crown_diags *);

/*
 * The "Victory" section of games/NAME/README.md, for the bundled game
 * whose scenario has this name (a campaign does not say which file it
 * came from, and the umpire's copy adds players); NULL when none.
 * Caller frees.
 */
char	*crown_cmd_victory(const char *game);

/* The help of the limits (CROWN_CMD_LIMITS). */
#define CROWN_LIMIT_HELP						\
	"--limit-orders-bytes N and --limit-state-bytes N change the\n"	\
	"limits on the size of orders files (default 1M) and of states and\n" \
	"rules files (64M), N in bytes or with k or M."

/*
 * Load the rules: from `path` if given, else from rules.yaml in campaign
 * dir `dir` if given, else the rule set the state names (crown_rules_find).
 */
int	crown_cmd_load_rules(struct crown_rules **out, const char *path,
	    const char *dir, const char *id, struct crown_diags *d);
/*
 * The campaign the mail commands read (inbox, status).  Of a campaign
 * repository (DIR/.git), the state and rules of main's last turn: with
 * lock, the lock is taken (*h holds it, crown_history_close) and a run
 * killed midway repaired first (crown_campaign_repair); without, nothing
 * is written and the work tree is never read.  Of another directory,
 * DIR/state.yaml and DIR/rules.yaml (else the installed rules).  With
 * rules NULL no rules are loaded.  chain (may be NULL) is given main's
 * line of a repository (crown_chain_release), left empty for another
 * directory.
 */
struct crown_chain;
int	crown_cmd_mail_campaign(struct crown_state **state,
	    struct crown_rules **rules, struct crown_history **h,
	    struct crown_chain *chain, const char *dir, bool lock,
	    struct crown_diags *d);
/*
 * crown inbox and crown check --mail: the mail of the campaign opt->dir
 * (crown_cmd_mail_campaign, locked unless opt->dry) judged by inbox.h,
 * read at opt->now when now_given, else now; from n mailboxes, or with
 * messages n files of one message each (all read; CROWN_EINVALID when
 * a dry run would not accept them all).
 */
struct crown_inbox_options;
int	crown_cmd_inbox_run(struct crown_inbox_options *opt, bool now_given,
	    const char *const *src, size_t n, bool messages,
	    struct crown_diags *d);
/* Load and validate order files against s through the one reader
 * (orders-read.h), as crown turn reads them; all problems to d. */
int	crown_cmd_load_orders(struct crown_orders ***out, size_t *n,
	    const char *const *paths, size_t npaths,
	    const struct crown_state *s, const struct crown_rules *rules,
	    struct crown_diags *d);

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
