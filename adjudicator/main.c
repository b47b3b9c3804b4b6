/*
 * main.c: crown, the Phantom Crown: dispatch to a command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/diag.h"

static const struct crown_cmd *const cmd_table[] = {
	&crown_cmd_check,
	&crown_cmd_inbox,
	&crown_cmd_muster,
	&crown_cmd_resolve,
	&crown_cmd_rules,
	&crown_cmd_status,
	&crown_cmd_remind,
	/* the campaign history (issue 6) */
	&crown_cmd_new,
	&crown_cmd_turn,
	&crown_cmd_log,
	&crown_cmd_show,
	&crown_cmd_verify,
	&crown_cmd_reveal,
	&crown_cmd_rerun,
	&crown_cmd_adopt,
	&crown_cmd_publish,
	&crown_cmd_blame,
	&crown_cmd_orders,
	&crown_cmd_roster,
	&crown_cmd_deadline,
	&crown_cmd_site,
	&crown_cmd_upgrade,
	NULL
};

/*
 * A bash completion script made from the command table, so that it
 * cannot drift from the commands (make install writes it).
 */
static void
completion(FILE *fp)
{
	const struct crown_cmd *const	*c;

	fputs("# bash completion for crown, made by crown --bash-completion\n"
	    "_crown()\n{\n"
	    "\tlocal cur=${COMP_WORDS[COMP_CWORD]} opts cmds\n"
	    "\tcmds=\"", fp);
	for (c = cmd_table; *c != NULL; c++)
		fprintf(fp, "%s ", (*c)->name);
	fputs("help\"\n"
	    "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$cmds --help --version\" -- "
	    "\"$cur\"))\n"
	    "\t\treturn\n"
	    "\tfi\n"
	    "\tcase ${COMP_WORDS[1]} in\n"
	    "\thelp)\tCOMPREPLY=($(compgen -W \"$cmds\" -- \"$cur\"))\n"
	    "\t\treturn ;;\n", fp);
	for (c = cmd_table; *c != NULL; c++) {
		fprintf(fp, "\t%s)\topts=\"", (*c)->name);
		crown_cmd_print_options(fp, *c);
		fputs("\" ;;\n", fp);
	}
	fputs("\t*)\treturn ;;\n"
	    "\tesac\n"
	    "\tcase $cur in\n"
	    "\t-*)\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
	    "\t*)\tCOMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	    "\tesac\n"
	    "}\n"
	    "complete -o filenames -F _crown crown\n", fp);
}

static void
usage(FILE *fp)
{
	const struct crown_cmd *const	*c;

	fputs("usage: crown [--version] [--help] COMMAND [ARGS]\n\n"
	    "commands:\n", fp);
	for (c = cmd_table; *c != NULL; c++)
		fprintf(fp, "  crown %s %s\n", (*c)->name, (*c)->usage);
	fputs("\n`crown help COMMAND` (or `crown COMMAND --help`) describes a "
	    "command.\n", fp);
}

/* name is not a command: said, quoted as every message quotes what it
 * was given (crown_diag_escape), and the usage. */
static void
unknown(const char *name)
{
	char	*q = crown_diag_escape(name);

	fprintf(stderr, "crown: unknown command '%s'\n", q);
	free(q);
	usage(stderr);
}

/* Flush stdout and fail on a write error (a full disk, a closed pipe). */
static int
finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("crown: cannot write to standard output\n", stderr);
		return status == 0 ? CROWN_EXIT_CANTCREAT : status;
	}
	return status;
}

int
main(int argc, char **argv)
{
	const struct crown_cmd *const	*c;

	if (argc < 2) {
		usage(stderr);
		return CROWN_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("crown %s\n", CROWN_VERSION);
		return finish(0);
	}
	if (strcmp(argv[1], "--bash-completion") == 0 && argc == 2) {
		completion(stdout);
		return finish(0);
	}
	/* crown help COMMAND is crown COMMAND --help */
	if (strcmp(argv[1], "help") == 0 && argc == 3) {
		for (c = cmd_table; *c != NULL; c++)
			if (strcmp((*c)->name, argv[2]) == 0)
				return finish(crown_cmd_run(*c, 2,
				    (char *[]){ argv[2], "--help", NULL }));
		unknown(argv[2]);
		return CROWN_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return finish(0);
	}
	for (c = cmd_table; *c != NULL; c++)
		if (strcmp((*c)->name, argv[1]) == 0)
			return finish(crown_cmd_run(*c, argc - 1, argv + 1));
	unknown(argv[1]);
	return CROWN_EXIT_USAGE;
}
