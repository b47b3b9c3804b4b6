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

static int	cmd_publish_exec(int, char **);

const struct crown_cmd crown_cmd_publish = {
	"publish",
	"DIR [REMOTE]",
	"Push main and every tag (turn-N, reveal, replaced/...) of the\n"
	"campaign at DIR to REMOTE: a configured remote's name (default\n"
	"origin), a URL or a path.  A URL or path is remembered as origin\n"
	"when there is none yet.  main is pushed with force, since adopting\n"
	"a rerun rewrites it; the remote should have main as its default\n"
	"branch (git init --bare --initial-branch=main) for git clone.",
	cmd_publish_exec
};

static int
cmd_publish_exec(int argc, char **argv)
{
	struct crown_opt	 opts[] = {
		{ NULL, false, false, NULL, NULL, 0 }
	};
	struct crown_diags	 d = { 0 };
	struct crown_history	*h = NULL;
	struct crown_chain	 c = { 0 };
	char			**tags = NULL, **specs = NULL;
	const char		**ops = NULL, *remote;
	size_t			 nops = 0, ntags = 0, n = 0, i;
	int			 error = 0, status;

	if (crown_cmd_wants_help(&crown_cmd_publish, argc, argv))
		return 0;
	if ((status = crown_cmd_args(&crown_cmd_publish, argc, argv,
	    opts, &ops, &nops)) != 0)
		return status;
	if (nops < 1 || nops > 2) {
		crown_cmd_args_free(opts, ops);
		return crown_cmd_usage_error(&crown_cmd_publish,
		    "give DIR and at most one REMOTE");
	}
	remote = nops == 2 ? ops[1] : "origin";
	if ((error = crown_history_open(&h, ops[0], true, &d)) != 0 ||
	    (error = crown_campaign_chain(&c, h, CROWN_MAIN_REF, &d)) != 0 ||
	    (error = crown_campaign_repair(h, &c, &d)) != 0 ||
	    (error = crown_history_refs(&tags, &ntags, h, "refs/tags/*", &d))
	    != 0)
		goto cleanup;
	specs = xcalloc(ntags + 1, sizeof(*specs));
	specs[n++] = xstrdup("+" CROWN_MAIN_REF ":" CROWN_MAIN_REF);
	for (i = 0; i < ntags; i++)
		specs[n++] = xasprintf("+%s:%s", tags[i], tags[i]);
	if ((error = crown_history_push(h, remote, specs, n, &d)) != 0)
		goto cleanup;
	printf("published turn %d%s and %zu tags to %s\n", c.last,
	    c.revealed ? " and the reveal" : "", ntags, remote);
cleanup:
	status = crown_cmd_fail(&d, error);
	for (i = 0; i < n; i++)
		free(specs[i]);
	free(specs);
	for (i = 0; i < ntags; i++)
		free(tags[i]);
	free(tags);
	crown_chain_release(&c);
	crown_history_close(h);
	crown_cmd_args_free(opts, ops);
	return status;
}
