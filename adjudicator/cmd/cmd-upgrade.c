/*
 * cmd-upgrade.c: crown upgrade: carry a campaign written in an older
 * format (the first release's, format 1) on with this crown, in a commit
 * "Upgrade: ..." of its own that adds to the frozen rules.yaml the
 * sections and keys this crown's rules have and it lacks, and records the
 * format in format.yaml.  Nothing else of the campaign changes, and every
 * line of the old rules.yaml stays: the commit is its own audit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_upgrade_exec(struct crown_run *);

enum { UPGRADE_RULES, UPGRADE_NOPTS };

static const struct crown_option upgrade_options[] = {
	[UPGRADE_RULES] = { "rules", CROWN_OPT_VALUE },
	[UPGRADE_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_upgrade = {
	"upgrade",
	"DIR [--rules FILE] [--secret-file F] [--umpire \"Name <email>\"]\n"
	"       [--date DATE]",
	"Carry on the campaign at DIR, written by an older crown (format 1:\n"
	"the first release, which recorded no format), with this one: commit\n"
	"\"Upgrade: campaign format 1 to 2\", which adds to DIR's rules.yaml\n"
	"the sections and keys of this crown's rules (or of --rules FILE)\n"
	"that it lacks, each with the comments above it, keeps every line\n"
	"it had, and writes format.yaml; state.yaml gains game.dice_chain,\n"
	"the commitment of the dice keys of the turns to come, seeded from\n"
	"the campaign secret (.git/crown-secret or --secret-file F).  The\n"
	"turns before it stay as they were written: crown verify says it\n"
	"cannot replay them byte for byte, and their dice are checked at\n"
	"crown reveal.  Nothing to do (exit 0) when DIR is in this crown's\n"
	"format.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_WHO |
	    CROWN_CMD_SECRET,
	.options = upgrade_options,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_upgrade_exec
};

/* The rule set's id of a rules text ("maximilian" when it has none). */
static char *
rules_id(const char *text, size_t len, struct crown_diags *d)
{
	struct crown_ydoc		*doc = NULL;
	const struct crown_ynode	*id;
	char				*out = NULL;

	if (crown_ydoc_parse(&doc, CROWN_CAMPAIGN_RULES, text, len,
	    &crown_ylimits_state, d) == 0 && (id = crown_ymap_get(
	    crown_ydoc_root(doc), "id")) != NULL && id->kind == CROWN_Y_SCALAR)
		out = xstrdup(id->str);
	crown_ydoc_free(doc);
	return out != NULL ? out : xstrdup("maximilian");
}

/* text (words apart by spaces) into b in lines of at most 72 columns */
static void
wrap(struct crown_buf *b, const char *text)
{
	const char	*p = text, *sp;
	size_t		 col = 0, n;

	while (*p != '\0') {
		n = (sp = strchr(p, ' ')) != NULL ? (size_t)(sp - p) :
		    strlen(p);
		if (col > 0 && col + 1 + n > 72) {
			crown_buf_puts(b, "\n");
			col = 0;
		} else if (col > 0) {
			crown_buf_puts(b, " ");
			col++;
		}
		crown_buf_add(b, p, n);
		col += n;
		p += n;
		while (*p == ' ')
			p++;
	}
}

/*
 * files += the state with the dice chain of the turns to come (dice.c):
 * its seed from the campaign secret, so that crown reveal's secret still
 * opens every die; the turns played keep theirs, checked at the reveal.
 */
static int
begin_chain(struct crown_outputs *files, struct crown_run *r,
    const struct crown_state *s, const struct crown_buf *state,
    struct crown_diags *d)
{
	unsigned char	secret[CROWN_SECRET_BYTES];
	char		hex[2 * CROWN_SECRET_BYTES + 1];
	int		error;

	if (s->dice_chain_commitment != NULL)
		return 0;
	if ((error = crown_campaign_secret(secret, r->h, r->secret_file,
	    s->dice_commitment, false, d)) != 0) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "cannot upgrade: the "
		    "dice chain of the turns to come is seeded from the "
		    "campaign secret");
		return error;
	}
	crown_campaign_upgrade_chain(hex, secret);
	sodium_memzero(secret, sizeof(secret));
	if (crown_campaign_upgrade_state(crown_outputs_add(files,
	    CROWN_CAMPAIGN_STATE), state->data, state->len, s->turn + 1,
	    hex) != 0) {
		crown_diag_add(d, CROWN_CAMPAIGN_STATE, 0, 0, NULL, "cannot "
		    "upgrade: no line game.dice_commitment to begin the dice "
		    "chain after");
		return CROWN_EINVALID;
	}
	return 0;
}

static int
cmd_upgrade_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	const char		*tip = c->l.v[c->tip].id;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 old = { 0 }, merged = { 0 }, state = { 0 };
	struct crown_buf	 body = { 0 };
	struct crown_outputs	 files = { 0 };
	struct crown_advance	 step = { 0 };
	struct crown_rules	*rules = NULL;
	struct crown_state	*s = NULL;
	struct crown_who	 who = { 0 };
	char			 id[CROWN_OID_HEX + 1];
	char			*path = NULL, *cur = NULL, *added = NULL;
	char			*rid = NULL, *msg = NULL, *text = NULL, *label;
	size_t			 len;
	int			 error, format;

	label = xasprintf("turn-%d", c->last);
	if ((error = crown_campaign_format(&format, r->h, tip, &d)) != 0)
		goto cleanup;
	if (format == CROWN_CAMPAIGN_FORMAT) {
		printf("%s: already in format %d: nothing to do\n", r->dir,
		    format);
		goto cleanup;
	}
	if (format > CROWN_CAMPAIGN_FORMAT) {
		crown_campaign_format_refuse(&d, label, r->dir, format);
		error = CROWN_EINVALID;
		goto cleanup;
	}
	if ((error = crown_cmd_game_over(r, &d)) != 0)
		goto cleanup;
	if ((error = crown_history_read(&state, r->h, tip,
	    CROWN_CAMPAIGN_STATE, &d)) != 0 ||
	    (error = crown_state_parse(&s, CROWN_CAMPAIGN_STATE, state.data,
	    state.len, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, s, &d)) != 0
	    || (error = crown_history_read(&old, r->h, tip,
	    CROWN_CAMPAIGN_RULES, &d)) != 0)
		goto cleanup;
	rid = rules_id(old.data, old.len, &d);
	if (r->opt[UPGRADE_RULES].value != NULL)
		path = xstrdup(r->opt[UPGRADE_RULES].value);
	else if ((path = crown_rules_find(rid)) == NULL) {
		crown_diag_add(&d, "rules", 0, 0, NULL, "cannot find the rules "
		    "'%s' (looked beside the program and in %s/rules); give "
		    "--rules FILE", rid, CROWN_DATADIR);
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	if ((error = crown_read_file(&cur, &len, path,
	    crown_ylimits_state.max_bytes, &d)) != 0 ||
	    (error = crown_campaign_upgrade_rules(&merged, &added,
	    CROWN_CAMPAIGN_RULES, old.data, old.len, cur, len, &d)) != 0)
		goto cleanup;
	/* what it commits must load as this crown's rules */
	if ((error = crown_rules_parse(&rules, "upgraded " CROWN_CAMPAIGN_RULES,
	    merged.data, merged.len, &d)) != 0) {
		crown_diag_add(&d, r->dir, 0, 0, NULL, "cannot upgrade: the "
		    "rules with what this crown's add do not load");
		goto cleanup;
	}
	if ((error = begin_chain(&files, r, s, &state, &d)) != 0)
		goto cleanup;
	crown_buf_add(crown_outputs_add(&files, CROWN_CAMPAIGN_RULES),
	    merged.data, merged.len);
	crown_campaign_format_file(&files);
	crown_buf_printf(&body, "Upgrade: campaign format %d to %d\n\n",
	    format, CROWN_CAMPAIGN_FORMAT);
	text = xasprintf("crown %s carries on this campaign, written in "
	    "format %d. rules.yaml gains what the rules of this crown have "
	    "and it lacked: %s. Every line it had stays; nothing else "
	    "changes but game.dice_chain, which begins a chain of dice keys "
	    "at turn %d: from it on, every turn's dice can be checked on any "
	    "clone once the turn is played. The turns before this commit "
	    "stay as they were written, their dice checked at the reveal.",
	    CROWN_VERSION, format, *added != '\0' ? added : "nothing",
	    s->turn + 1);
	wrap(&body, text);
	crown_buf_puts(&body, "\n");
	msg = body.data;
	body.data = NULL;
	step.ref = CROWN_MAIN_REF;
	step.expect = tip;
	step.log = "crown upgrade";
	step.parent = tip;
	step.files = &files;
	step.message = msg;
	step.stamp = &who.stamp;
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.done = "the upgrade is committed";
	step.dir = r->dir;
	if ((error = crown_advance(id, r->h, &step, &d)) != 0)
		goto cleanup;
	printf("%s: upgraded from format %d to %d (%.7s); rules.yaml gains "
	    "%s\n", r->dir, format, CROWN_CAMPAIGN_FORMAT, id,
	    *added != '\0' ? added : "nothing");
cleanup:
	crown_rules_free(rules);
	crown_state_free(s);
	crown_who_release(&who);
	crown_outputs_release(&files);
	crown_buf_release(&state);
	crown_buf_release(&merged);
	crown_buf_release(&old);
	free(msg);
	free(text);
	free(rid);
	free(added);
	free(cur);
	free(path);
	free(label);
	return crown_cmd_fail(&d, error);
}
