/*
 * testrun.h: run a crown command in-process, as the program's main would,
 * with its standard output and error captured (the tests of the
 * commands: history, roster, site, mail), and what they assert with it.  The
 * includer defines `base`, a scratch directory, where the captures are
 * written.
 */
#ifndef CROWN_TESTRUN_H
#define CROWN_TESTRUN_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "crown/cmd.h"
#include "testutil.h"

struct run {
	int	 status;
	char	*out;
	char	*err;
};

static inline void
run_release(struct run *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Run a command in-process with stdout and stderr captured, in the
 * files `at`.out and `at`.err while it runs. */
static inline int
tu_run_at(struct run *r, const char *at, const struct crown_cmd *cmd,
    const char *const *args)
{
	char	*argv[64], *outp, *errp;
	int	 argc = 0, so, se, fo, fe;

	memset(r, 0, sizeof(*r));
	argv[argc++] = xstrdup(cmd->name);
	while (*args != NULL && argc < 63)
		argv[argc++] = xstrdup(*args++);
	argv[argc] = NULL;
	outp = xasprintf("%s.out", at);
	errp = xasprintf("%s.err", at);
	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fo, 1);
	dup2(fe, 2);
	r->status = crown_cmd_run(cmd, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	r->out = tu_slurp(outp);
	r->err = tu_slurp(errp);
	unlink(outp);
	unlink(errp);
	free(outp);
	free(errp);
	while (argc > 0)
		free(argv[--argc]);
	return r->status;
}

/* The same, the captures in the scratch directory base. */
static inline int
tu_runv(struct run *r, const char *base, const struct crown_cmd *cmd,
    const char *const *args)
{
	char	*at = xasprintf("%s/", base);
	int	 status;

	status = tu_run_at(r, at, cmd, args);
	free(at);
	return status;
}

/* RUN(&r, crown_cmd_NAME, "arg", ...): the command, with base's captures. */
#define RUN(r, cmd, ...) \
	tu_runv((r), base, &(cmd), (const char *const []){ __VA_ARGS__, NULL })

/* Run and expect a status; show the output when it differs. */
#define EXPECT(status_, cmd, ...) do {					\
	struct run r_;							\
	RUN(&r_, cmd, __VA_ARGS__);					\
	if (r_.status != (status_)) {					\
		print_error("crown %s: status %d, expected %d\n"	\
		    "stdout:\n%s\nstderr:\n%s\n", (cmd).name,		\
		    r_.status, (status_), r_.out, r_.err);		\
		run_release(&r_);					\
		fail();							\
	}								\
	run_release(&r_);						\
} while (0)

/*
 * TU_CAMPAIGN(dir, scen, two): the campaign of tests/data/campaign at
 * dir from scenario scen, turn 1 played, and turn 2 (the republic's
 * orders alone) when two.
 */
#define TU_CAMPAIGN(dir, scen, two) do {				\
	EXPECT(0, crown_cmd_new, (dir), "--scenario", (scen),		\
	    "--rules", "rules/maximilian.yaml", "--secret-file",	\
	    "tests/data/campaign/secret.hex", "--templates",		\
	    "templates", "--date", "2026-03-01T10:00:00+01:00");	\
	EXPECT(0, crown_cmd_turn, (dir),				\
	    "tests/data/campaign/french-1.yaml",			\
	    "tests/data/campaign/republic-1.yaml", "--templates",	\
	    "templates", "--date", "2026-03-08");			\
	if (two)							\
		EXPECT(0, crown_cmd_turn, (dir),			\
		    "tests/data/campaign/republic-2.yaml",		\
		    "--templates", "templates", "--date",		\
		    "2026-03-15", "--allow-missing");			\
} while (0)

/* Assert that text holds want; show text when it does not. */
static inline void
assert_has(const char *text, const char *want)
{
	if (text == NULL || strstr(text, want) == NULL) {
		print_error("expected \"%s\" in:\n%.4000s\n", want,
		    text != NULL ? text : "(null)");
		fail();
	}
}

#endif
