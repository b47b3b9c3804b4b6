/*
 * create.c: crown new's campaign: the scenario and the rules read and
 * checked whole before anything is written, turn 0's files (the scenario,
 * the rules frozen, the normalised state, its events and the opening map)
 * and the players' briefings made in memory, then a repository built
 * beside DIR, turn 0 committed and tagged through crown_advance, and the
 * whole renamed into place (create.h).
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
#include "crown/common.h"
#include "crown/create.h"
#include "crown/dice.h"
#include "crown/gpgsign.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/svg.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

#define NEW_SUFFIX	".crown-new."

static int	make_pending(const char *, struct crown_diags *);

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

/* The temporaries of crown new runs that died in parent, removed (a note
 * in d for each). */
static void
sweep(const char *parent, struct crown_diags *d)
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
		crown_diag_note(d, "crown", 0, 0, NULL, "removing %s, left by "
		    "a crown new that did not finish", p);
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

/*
 * The umpire of the campaign, kept in the state as game.umpire: --umpire
 * in place of the scenario's.  Every later commit is theirs and every mail
 * From them (crown_campaign_who, crown_mail_umpire), so the address must
 * be one mail can carry.
 */
static int
keep_umpire(struct crown_state *s, const struct crown_who *who,
    const struct crown_new_input *in, struct crown_diags *d)
{
	if (in->umpire != NULL) {
		free(s->umpire.name);
		free(s->umpire.email);
		s->umpire.name = xstrdup(who->name);
		s->umpire.email = xstrdup(who->email);
	}
	if (s->umpire.email == NULL ||
	    crown_mail_umpire(s).addr == s->umpire.email)
		return 0;
	crown_diag_add(d, in->umpire != NULL ? "--umpire" : in->scenario, 0, 0,
	    NULL, "the umpire's email '%s' is not a mail address",
	    s->umpire.email);
	return in->umpire != NULL ? CROWN_EUSAGE : CROWN_EINVALID;
}

/*
 * The key that signs the history, kept as game.umpire.openpgp: --sign in
 * place of the scenario's; either must be a key of the umpire's keyring
 * that can sign, before anything is written.
 */
static int
keep_signer(struct crown_state *s, struct crown_who *who,
    const struct crown_new_input *in, struct crown_diags *d)
{
	char	fpr[CROWN_FPR_HEX + 1];

	if (in->sign != NULL) {
		if (crown_gpgsign_fingerprint(fpr, in->sign) != 0) {
			crown_diag_add(d, "--sign", 0, 0, NULL, "'%s' is not "
			    "an OpenPGP fingerprint: give its 40 hex digits, "
			    "as gpg --list-secret-keys prints them",
			    in->sign);
			return CROWN_EUSAGE;
		}
		free(s->umpire.openpgp);
		s->umpire.openpgp = xstrdup(fpr);
		free(who->openpgp);
		who->openpgp = xstrdup(fpr);
		who->stamp.sign = who->openpgp;
	}
	if (s->umpire.openpgp == NULL)
		return 0;
	return crown_gpgsign_usable(s->umpire.openpgp, in->sign != NULL ?
	    "--sign" : in->scenario, d);
}

/* What crown new makes in memory before anything is written. */
struct turn0 {
	struct crown_state	*s;
	struct crown_rules	*rules;
	struct crown_events	 ev;
	struct crown_who	 who;
	struct crown_buf	 state_text;	/* state.yaml */
	struct crown_outputs	 files;		/* turn 0's commit */
	struct crown_outputs	 mails;		/* the briefings */
	unsigned char		 secret[CROWN_SECRET_BYTES];
	char			*scen_text, *rules_text, *rules_path;
	size_t			 scen_len, rules_len;
	char			*head, *msg;	/* headline, commit message */
	size_t			 sent;		/* briefings */
};

/* Everything checked: the scenario, the rules, the umpire, the secret and
 * DIR; the scenario normalised into t->state_text. */
static int
turn0_check(struct turn0 *t, const struct crown_new_input *in,
    struct crown_diags *d)
{
	const char	*dir = in->dir, *scenario = in->scenario;
	int		 error;

	if ((error = crown_read_file(&t->scen_text, &t->scen_len, scenario,
	    crown_ylimits_state.max_bytes, d)) != 0)
		return error;
	if ((error = crown_state_parse(&t->s, scenario, t->scen_text,
	    t->scen_len, d)) != 0)
		return error;
	if ((error = no_credentials(scenario, t->scen_text, t->s, d)) != 0)
		return error;
	if (in->rules != NULL)
		t->rules_path = xstrdup(in->rules);
	else if ((t->rules_path = crown_rules_find(t->s->rules)) == NULL) {
		crown_diag_add(d, scenario, 0, 0, NULL, "cannot find "
		    "the rules '%s' (looked beside the program and in "
		    "%s/rules); give --rules FILE", t->s->rules,
		    CROWN_DATADIR);
		return CROWN_ENOTFOUND;
	}
	if ((error = crown_read_file(&t->rules_text, &t->rules_len,
	    t->rules_path, crown_ylimits_state.max_bytes, d)) != 0)
		return error;
	if ((error = crown_rules_parse(&t->rules, t->rules_path,
	    t->rules_text, t->rules_len, d)) != 0)
		return error;
	if ((error = crown_campaign_who(&t->who, in->umpire, in->date, t->s,
	    d)) != 0 || (error = keep_umpire(t->s, &t->who, in, d)) != 0 ||
	    (error = keep_signer(t->s, &t->who, in, d)) != 0)
		return error;
	if (in->secret_file != NULL) {
		if ((error = crown_secret_read(t->secret, in->secret_file, d))
		    != 0)
			return error;
	} else
		crown_secret_new(t->secret);
	if ((error = crown_campaign_normalise(&t->state_text, t->s, t->rules,
	    t->scen_text, t->scen_len, t->secret, &t->ev, d)) != 0)
		return error;
	if (dir_free(dir) < 0) {
		if (is_campaign(dir))
			crown_diag_add(d, dir, 0, 0, NULL, "is a campaign "
			    "already: use it, e.g. crown status %s", dir);
		else
			crown_diag_add(d, dir, 0, 0, NULL, "exists and is not "
			    "a campaign: remove it or choose another name");
		return CROWN_EWRITE;
	}
	return 0;
}

/* Turn 0's files, its commit message and the players' briefings. */
static int
turn0_make(struct turn0 *t, const struct crown_new_input *in,
    struct crown_diags *d)
{
	const struct crown_state	*s = t->s;
	struct crown_buf		*b, *map;
	struct crown_outputs		 notes = { 0 };
	char				*when, *vic;
	int				 error;

	b = crown_outputs_add(&t->files, CROWN_CAMPAIGN_SCENARIO);
	crown_buf_add(b, t->scen_text, t->scen_len);
	b = crown_outputs_add(&t->files, CROWN_CAMPAIGN_RULES);
	crown_buf_add(b, t->rules_text, t->rules_len);
	b = crown_outputs_add(&t->files, CROWN_CAMPAIGN_STATE);
	crown_buf_add(b, t->state_text.data, t->state_text.len);
	b = crown_outputs_add(&t->files, CROWN_CAMPAIGN_IGNORE);
	crown_buf_puts(b, CROWN_CAMPAIGN_IGNORE_TEXT);
	crown_campaign_format_file(&t->files);
	b = crown_outputs_add(&t->files,
	    "turns/turn-000/" CROWN_CAMPAIGN_EVENTS);
	if (crown_events_emit(b, &t->ev) != 0) {
		crown_diag_add(d, in->dir, 0, 0, NULL, "cannot format "
		    "events");
		return CROWN_ERROR;
	}
	map = crown_outputs_add(&t->files,
	    "turns/turn-000/" CROWN_CAMPAIGN_MAP);
	if ((error = crown_svg_opening(map, s, t->rules, in->templates, d))
	    != 0)
		return error;
	t->head = headline(s);
	t->msg = xasprintf("Turn 0: %s\n\nScenario '%s', rules '%s'.\n"
	    "Dice commitment (SHA-256 of the campaign secret): %s\n",
	    t->head, s->name != NULL ? s->name : "", t->rules->id != NULL ?
	    t->rules->id : "", s->dice_commitment);

	/* each player's briefing, with the orders form of turn 1, for
	 * DIR/outbox (issue 20) */
	when = xasprintf("@%lld", (long long)t->who.stamp.time);
	vic = in->victory != NULL ? in->victory(s->name) : NULL;
	/* no credentials yet: every player is known by his address */
	crown_mail_notes(&notes, s, NULL);
	error = crown_mail_briefing(&t->mails, s, s, t->rules, &notes, vic,
	    map, NULL, when, &t->sent, d);
	crown_outputs_release(&notes);
	free(vic);
	free(when);
	return error;
}

/* The repository at tmp, turn 0 committed and tagged (*id), the orders'
 * directory made; closed, lock released, for the rename. */
static int
turn0_commit(char *id, const char *tmp, const struct turn0 *t,
    struct crown_diags *d)
{
	struct crown_history	*h = NULL;
	struct crown_advance	 step = { 0 };
	int			 error;

	if ((error = crown_history_create(&h, tmp, d)) != 0 ||
	    (error = crown_history_config_set(h, "core.autocrlf", "false",
	    d)) != 0 ||
	    (error = crown_campaign_secret_save(h, t->secret, d)) != 0)
		goto cleanup;
	step.ref = CROWN_MAIN_REF;
	step.log = "crown new";
	step.files = &t->files;
	step.message = t->msg;
	step.stamp = &t->who.stamp;
	step.tag.name = "turn-0";
	step.tree = CROWN_ADVANCE_CHECKOUT;
	step.mails = &t->mails;
	/* where the mail (crown inbox) or the umpire puts the orders of
	 * turn 1; ignored by git, so not in the commit */
	if ((error = crown_advance(id, h, &step, d)) == 0)
		error = make_pending(tmp, d);
cleanup:
	crown_history_close(h);
	return error;
}

static void
turn0_release(struct turn0 *t)
{
	sodium_memzero(t->secret, sizeof(t->secret));
	free(t->msg);
	free(t->head);
	crown_buf_release(&t->state_text);
	crown_outputs_release(&t->mails);
	crown_outputs_release(&t->files);
	crown_events_release(&t->ev);
	crown_who_release(&t->who);
	crown_rules_free(t->rules);
	crown_state_free(t->s);
	free(t->rules_path);
	free(t->rules_text);
	free(t->scen_text);
}

/*
 * Turn 0 built at tmp and renamed to dir: 0, an error with its
 * diagnostics, or CROWN_ENOTFOUND (none in d) when dir is an empty
 * directory that the rename cannot replace or whose parent cannot hold
 * tmp, for the caller to build in dir itself.
 */
static int
beside(char *id, const char *tmp, const struct turn0 *t, const char *dir,
    struct crown_diags *d)
{
	struct crown_diags	 mine = { 0 };
	int			 error, e;
	bool			 empty = dir_free(dir) == 0;

	if (empty && mkdir(tmp, 0777) != 0 && (errno == EACCES ||
	    errno == EPERM || errno == EROFS)) {
		error = CROWN_ENOTFOUND;
		goto done;
	}
	if ((error = turn0_commit(id, tmp, t, &mine)) != 0 ||
	    (error = crown_history_step("rename", &mine)) != 0)
		goto done;
	if (rename(tmp, dir) != 0) {
		e = errno;
		if (empty && (e == EBUSY || e == EXDEV || e == EACCES ||
		    e == EPERM))
			error = CROWN_ENOTFOUND;
		else {
			crown_diag_add(&mine, dir, 0, 0, NULL, "cannot make "
			    "the campaign: %s", strerror(e));
			error = CROWN_EWRITE;
		}
	}
done:
	if (error != CROWN_ENOTFOUND)
		crown_diags_move(d, &mine);
	crown_diags_release(&mine);
	return error;
}

int
crown_campaign_create(struct crown_new_result *out,
    const struct crown_new_input *in, struct crown_diags *d)
{
	struct turn0	 t = { 0 };
	char		 id[CROWN_OID_HEX + 1];
	char		*tmp = NULL, *parent = NULL;
	int		 error;

	memset(out, 0, sizeof(*out));
	/* everything is checked before anything is written */
	if ((error = turn0_check(&t, in, d)) != 0 ||
	    (error = turn0_make(&t, in, d)) != 0)
		goto cleanup;

	/* built beside DIR and renamed into place whole */
	tmp = temporary(&parent, in->dir);
	sweep(parent, d);
	crown_campaign_remove_tree(tmp, false);
	if ((error = beside(id, tmp, &t, in->dir, d)) == CROWN_ENOTFOUND) {
		/*
		 * An empty DIR that no rename can replace (".", a mount
		 * point) or whose parent crown may not write: built in it,
		 * as it is; a run killed there leaves DIR to be emptied by
		 * hand (crown new says so).
		 */
		crown_campaign_remove_tree(tmp, false);
		error = turn0_commit(id, in->dir, &t, d);
	}
	if (error != 0)
		goto cleanup;
	memcpy(out->id, id, sizeof(out->id));
	out->headline = t.head;
	t.head = NULL;
	out->commitment = xstrdup(t.s->dice_commitment);
	out->briefings = t.sent;
cleanup:
	/* a failed crown new leaves nothing behind */
	if (error != 0 && tmp != NULL)
		crown_campaign_remove_tree(tmp, false);
	free(parent);
	free(tmp);
	turn0_release(&t);
	return error;
}

void
crown_new_result_release(struct crown_new_result *r)
{
	free(r->headline);
	free(r->commitment);
	memset(r, 0, sizeof(*r));
}
