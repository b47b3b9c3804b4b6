/*
 * cmd-new.c: crown new: a campaign repository from a scenario, committed
 * as turn 0 and tagged turn-0.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "crown/advance.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/dice.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/svg.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define NEW_SUFFIX	".crown-new."

static int	cmd_new_exec(struct crown_run *);
static int	make_pending(const char *, struct crown_diags *);

enum { NEW_SCENARIO, NEW_RULES, NEW_NOPTS };

static const struct crown_option new_options[] = {
	[NEW_SCENARIO] = { "scenario", CROWN_OPT_VALUE },
	[NEW_RULES] = { "rules", CROWN_OPT_VALUE },
	[NEW_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_new = {
	"new",
	"DIR --scenario FILE [--rules FILE] [--secret-file F]\n"
	"       [--templates DIR] [--umpire \"Name <email>\"] [--date DATE]",
	"Create a campaign repository at DIR (absent or empty) from a\n"
	"scenario: the scenario is checked first (every problem at once) and\n"
	"nothing is written unless it is sound.  The commit \"Turn 0: ...\",\n"
	"tagged turn-0, holds scenario.yaml, the rules frozen in rules.yaml\n"
	"(--rules, else the rule set the scenario names) and state.yaml, the\n"
	"scenario with its defaults filled in, its buildings classified\n"
	"(R11.3) and game.dice_commitment set to the SHA-256 of the campaign\n"
	"secret.  The secret, 32 random bytes (or those of --secret-file),\n"
	"stays outside the committed tree in DIR/.git/crown-secret.\n"
	"turns/turn-000/map.svg is the opening map (from --templates DIR,\n"
	"else the installed templates), mailed with each player's briefing.\n"
	"--umpire (else game.umpire) names the commit's author; --date\n"
	"(YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM] or seconds since 1970) is its\n"
	"date, now when not given.  The campaign is built beside DIR and\n"
	"renamed into place whole: a crown new stopped at any moment leaves\n"
	"no DIR or a complete campaign.",
	.flags = CROWN_CMD_SECRET | CROWN_CMD_WHO | CROWN_CMD_TEMPLATES,
	.options = new_options,
	.operands = { 1, 1, "give one DIR" },
	.exec = cmd_new_exec
};

/* 1: dir does not exist; 0: an empty directory; -1 otherwise. */
static int
dir_free(const char *dir)
{
	struct stat	 st;
	struct dirent	*de;
	DIR		*dp;
	int		 n = 0;

	if (stat(dir, &st) != 0)
		return errno == ENOENT ? 1 : -1;
	if (!S_ISDIR(st.st_mode) || (dp = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(dp)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(dp);
	return n == 0 ? 0 : -1;
}

/* Is dir a campaign: a repository whose main is a line of turns? */
static bool
is_campaign(const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_chain	 c = { 0 };
	struct crown_diags	 ignore = { 0 };
	bool			 yes;

	yes = crown_history_open(&h, dir, false, &ignore) == 0 &&
	    crown_campaign_chain(&c, h, CROWN_MAIN_REF, &ignore) == 0;
	crown_chain_release(&c);
	crown_history_close(h);
	crown_diags_release(&ignore);
	return yes;
}

/*
 * Where crown new builds DIR: ".DIR.crown-new.PID" beside it, renamed
 * into place when whole; *parent is DIR's directory.  Caller frees both.
 */
static char *
temporary(char **parent, const char *dir)
{
	char		*copy = xstrdup(dir), *slash, *t;
	size_t		 len = strlen(copy);

	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	if ((slash = strrchr(copy, '/')) == NULL) {
		*parent = xstrdup(".");
		t = xasprintf(".%s" NEW_SUFFIX "%ld", copy, (long)getpid());
	} else {
		*parent = slash == copy ? xstrdup("/") :
		    xstrndup(copy, (size_t)(slash - copy));
		t = xasprintf("%s/.%s" NEW_SUFFIX "%ld", *parent, slash + 1,
		    (long)getpid());
	}
	free(copy);
	return t;
}

/* The temporaries of crown new runs that died in parent, removed. */
static void
sweep(const char *parent)
{
	struct dirent	*de;
	DIR		*dp;
	const char	*suf;
	char		*end, *p;
	long		 pid;

	if ((dp = opendir(parent)) == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (de->d_name[0] != '.' ||
		    (suf = strstr(de->d_name, NEW_SUFFIX)) == NULL)
			continue;
		pid = strtol(suf + strlen(NEW_SUFFIX), &end, 10);
		if (*end != '\0' || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		p = xasprintf("%s/%s", parent, de->d_name);
		fprintf(stderr, "crown: removing %s, left by a crown new that "
		    "did not finish\n", p);
		crown_campaign_remove_tree(p, false);
		free(p);
	}
	closedir(dp);
}

/* DIR/orders/pending, and DIR/orders above it. */
static int
make_pending(const char *dir, struct crown_diags *d)
{
	char	*p;
	int	 error = 0;

	p = xasprintf("%s/orders", dir);
	if (mkdir(p, 0777) != 0 && errno != EEXIST)
		error = -1;
	free(p);
	p = xasprintf("%s/" CROWN_CAMPAIGN_PENDING, dir);
	if (error == 0 && mkdir(p, 0777) != 0 && errno != EEXIST)
		error = -1;
	if (error != 0) {
		crown_diag_add(d, p, 0, 0, NULL, "cannot make the directory: "
		    "%s", strerror(errno));
		error = CROWN_EWRITE;
	}
	free(p);
	return error;
}

/* "Test Skirmish, Foreign Legion against Mexican Republic" */
static char *
headline(const struct crown_state *s)
{
	struct crown_buf	b = { 0 };
	size_t			i;

	crown_buf_puts(&b, s->name != NULL ? s->name : "a new campaign");
	for (i = 0; i < s->nsides; i++) {
		if (i == 0)
			crown_buf_puts(&b, ", ");
		else if (i + 1 == s->nsides)
			crown_buf_puts(&b, i == 1 ? " against " : " and ");
		else
			crown_buf_puts(&b, i == 1 ? " against " : ", ");
		crown_buf_puts(&b, s->sides[i].name != NULL ?
		    s->sides[i].name : s->sides[i].id);
	}
	return b.data;
}

/*
 * A scenario with a player's password_sha256 would commit it, and crown
 * publish push it to every player (issue 19): refuse it, at each place
 * the key is written, and say what to use instead.
 */
static int
no_credentials(const char *file, const char *text, const struct crown_state *s,
    struct crown_diags *d)
{
	const char	*p, *bol;
	unsigned	 line;
	size_t		 i, j;
	bool		 any = s->umpire.password_sha256 != NULL;

	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++)
			if (s->sides[i].players[j].password_sha256 != NULL)
				any = true;
	if (!any)
		return 0;
	line = 1;
	bol = text;
	for (p = text; *p != '\0'; p++) {
		if (*p == '\n') {
			line++;
			bol = p + 1;
		} else if (strncmp(p, "password_sha256", 15) == 0)
			crown_diag_add(d, file, line, (unsigned)(p - bol) + 1,
			    NULL, "'password_sha256' would put the password's "
			    "hash in the history, where every player reads "
			    "it: remove it, and set passwords after crown new "
			    "with crown roster DIR password EMAIL "
			    "--password-file F");
	}
	return CROWN_EINVALID;
}

static int
cmd_new_exec(struct crown_run *r)
{
	struct crown_diags	  d = { 0 };
	struct crown_state	 *s = NULL;
	struct crown_rules	 *rules = NULL;
	struct crown_history	 *h = NULL;
	struct crown_events	  ev = { 0 };
	struct crown_outputs	  files = { 0 }, mails = { 0 };
	struct crown_advance	  step = { 0 };
	struct crown_who	  who = { 0 };
	struct crown_buf	  state_text = { 0 }, *b, *map;
	unsigned char		  secret[CROWN_SECRET_BYTES];
	char			  id[CROWN_OID_HEX + 1];
	char			 *scen_text = NULL, *rules_text = NULL;
	char			 *rules_path = NULL, *msg = NULL, *head = NULL;
	char			 *when = NULL, *vic = NULL;
	char			 *tmp = NULL, *parent = NULL;
	size_t			  sent;
	const char		 *dir = r->operand[0], *scenario;
	size_t			  scen_len = 0, rules_len = 0;
	int			  error = 0, status;

	if ((scenario = r->opt[NEW_SCENARIO].value) == NULL)
		return crown_cmd_usage_error(r->cmd, "--scenario is required");

	/* everything is checked before anything is written */
	if ((error = crown_read_file(&scen_text, &scen_len, scenario,
	    crown_ylimits_state.max_bytes, &d)) != 0)
		goto cleanup;
	if ((error = crown_state_parse(&s, scenario, scen_text, scen_len,
	    &d)) != 0)
		goto cleanup;
	if ((error = no_credentials(scenario, scen_text, s, &d)) != 0)
		goto cleanup;
	if (r->opt[NEW_RULES].value != NULL)
		rules_path = xstrdup(r->opt[NEW_RULES].value);
	else if ((rules_path = crown_rules_find(s->rules)) == NULL) {
		crown_diag_add(&d, scenario, 0, 0, NULL, "cannot find "
		    "the rules '%s' (looked beside the program and in "
		    "%s/rules); give --rules FILE", s->rules, CROWN_DATADIR);
		error = CROWN_ENOTFOUND;
		goto cleanup;
	}
	if ((error = crown_read_file(&rules_text, &rules_len, rules_path,
	    crown_ylimits_state.max_bytes, &d)) != 0)
		goto cleanup;
	if ((error = crown_rules_parse(&rules, rules_path, rules_text,
	    rules_len, &d)) != 0)
		goto cleanup;
	if ((error = crown_campaign_who(&who, r->umpire, r->date, s, &d))
	    != 0)
		goto cleanup;
	if (r->secret_file != NULL) {
		if ((error = crown_secret_read(secret, r->secret_file, &d))
		    != 0)
			goto cleanup;
	} else
		crown_secret_new(secret);
	if ((error = crown_campaign_normalise(&state_text, s, rules,
	    scen_text, scen_len, secret, &ev, &d)) != 0)
		goto cleanup;
	if (dir_free(dir) < 0) {
		if (is_campaign(dir))
			crown_diag_add(&d, dir, 0, 0, NULL, "is a campaign "
			    "already: use it, e.g. crown status %s", dir);
		else
			crown_diag_add(&d, dir, 0, 0, NULL, "exists and is not "
			    "a campaign: remove it or choose another name");
		error = CROWN_EWRITE;
		goto cleanup;
	}

	b = crown_outputs_add(&files, CROWN_CAMPAIGN_SCENARIO);
	crown_buf_add(b, scen_text, scen_len);
	b = crown_outputs_add(&files, CROWN_CAMPAIGN_RULES);
	crown_buf_add(b, rules_text, rules_len);
	b = crown_outputs_add(&files, CROWN_CAMPAIGN_STATE);
	crown_buf_add(b, state_text.data, state_text.len);
	b = crown_outputs_add(&files, CROWN_CAMPAIGN_IGNORE);
	crown_buf_puts(b, CROWN_CAMPAIGN_IGNORE_TEXT);
	crown_campaign_format_file(&files);
	b = crown_outputs_add(&files, "turns/turn-000/" CROWN_CAMPAIGN_EVENTS);
	if (crown_events_emit(b, &ev) != 0) {
		crown_diag_add(&d, dir, 0, 0, NULL, "cannot format events");
		error = CROWN_ERROR;
		goto cleanup;
	}
	map = crown_outputs_add(&files, "turns/turn-000/" CROWN_CAMPAIGN_MAP);
	if ((error = crown_svg_opening(map, s, rules, r->templates, &d)) != 0)
		goto cleanup;
	head = headline(s);
	msg = xasprintf("Turn 0: %s\n\nScenario '%s', rules '%s'.\n"
	    "Dice commitment (SHA-256 of the campaign secret): %s\n",
	    head, s->name != NULL ? s->name : "", rules->id != NULL ?
	    rules->id : "", s->dice_commitment);

	/* each player's briefing, with the orders form of turn 1, for
	 * DIR/outbox (issue 20) */
	when = xasprintf("@%lld", (long long)who.stamp.time);
	vic = crown_cmd_victory(s->name);
	if ((error = crown_mail_briefing(&mails, s, s, rules, vic, map, NULL,
	    when, &sent, &d)) != 0)
		goto cleanup;

	/* built beside DIR and renamed into place whole */
	tmp = temporary(&parent, dir);
	sweep(parent);
	crown_campaign_remove_tree(tmp, false);
	if ((error = crown_history_create(&h, tmp, &d)) != 0 ||
	    (error = crown_history_config_set(h, "core.autocrlf", "false",
	    &d)) != 0 ||
	    (error = crown_campaign_secret_save(h, secret, &d)) != 0)
		goto cleanup;
	step.ref = CROWN_MAIN_REF;
	step.log = "crown new";
	step.files = &files;
	step.message = msg;
	step.stamp = &who.stamp;
	step.tag.name = "turn-0";
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.mails = &mails;
	/* where the mail (crown inbox) or the umpire puts the orders of
	 * turn 1; ignored by git, so not in the commit */
	if ((error = crown_advance(id, h, &step, &d)) != 0 ||
	    (error = make_pending(tmp, &d)) != 0)
		goto cleanup;
	crown_history_close(h);
	h = NULL;
	if ((error = crown_history_step("rename", &d)) != 0)
		goto cleanup;
	if (rename(tmp, dir) != 0) {
		crown_diag_add(&d, dir, 0, 0, NULL, "cannot make the "
		    "campaign: %s", strerror(errno));
		error = CROWN_EWRITE;
		goto cleanup;
	}
	printf("%s: turn 0 committed (%.7s): %s\n", dir, id, head);
	printf("dice commitment: %s\n", s->dice_commitment);
	if (sent > 0)
		printf("%zu briefing%s for the players in %s/outbox\n", sent,
		    sent == 1 ? "" : "s", dir);
cleanup:
	crown_history_close(h);
	/* a failed crown new leaves nothing behind */
	if (error != 0 && tmp != NULL)
		crown_campaign_remove_tree(tmp, false);
	status = crown_cmd_fail(&d, error);
	sodium_memzero(secret, sizeof(secret));
	free(parent);
	free(tmp);
	free(vic);
	free(when);
	free(head);
	free(msg);
	crown_buf_release(&state_text);
	crown_outputs_release(&mails);
	crown_outputs_release(&files);
	crown_events_release(&ev);
	crown_who_release(&who);
	crown_rules_free(rules);
	crown_state_free(s);
	free(rules_path);
	free(rules_text);
	free(scen_text);
	return status;
}
