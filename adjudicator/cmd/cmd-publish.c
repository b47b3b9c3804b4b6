/*
 * cmd-publish.c: crown publish: push main and the tags to the campaign's
 * remote, so that players follow with a plain git pull.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/xalloc.h"

static int	cmd_publish_exec(struct crown_run *);

const struct crown_cmd crown_cmd_publish = {
	"publish",
	"DIR [REMOTE]",
	"Push main and every tag (turn-N, reveal, replaced/...) of the\n"
	"campaign at DIR to REMOTE: a configured remote's name (default\n"
	"origin), a URL or a path.  A URL or path is remembered as origin\n"
	"when there is none yet.  main is pushed with force, since adopting\n"
	"a rerun rewrites it; the remote should have main as its default\n"
	"branch (git init --bare --initial-branch=main) for git clone.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK,
	.operands = { 1, 2, "give DIR and at most one REMOTE" },
	.exec = cmd_publish_exec
};

static int
cmd_publish_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 };
	char			**tags = NULL, **specs = NULL;
	const char		*remote;
	size_t			 ntags = 0, n = 0, i;
	int			 error = 0, status;

	remote = r->noperands == 2 ? r->operand[1] : "origin";
	if ((error = crown_history_refs(&tags, &ntags, r->h, "refs/tags/*",
	    &d)) != 0)
		goto cleanup;
	specs = xcalloc(ntags + 1, sizeof(*specs));
	specs[n++] = xstrdup("+" CROWN_MAIN_REF ":" CROWN_MAIN_REF);
	for (i = 0; i < ntags; i++)
		specs[n++] = xasprintf("+%s:%s", tags[i], tags[i]);
	if ((error = crown_history_push(r->h, remote, specs, n, &d)) != 0)
		goto cleanup;
	printf("published turn %d%s and %zu tags to %s\n", r->chain.last,
	    r->chain.revealed ? " and the reveal" : "", ntags, remote);
cleanup:
	status = crown_cmd_fail(&d, error);
	for (i = 0; i < n; i++)
		free(specs[i]);
	free(specs);
	for (i = 0; i < ntags; i++)
		free(tags[i]);
	free(tags);
	return status;
}
