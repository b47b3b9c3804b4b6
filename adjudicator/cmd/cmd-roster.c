/*
 * cmd-roster.c: crown roster: the players of a campaign after crown new
 * (issue 19).  Names and addresses are in the state, and each change is
 * a commit "Roster: ..." of its own; passwords and OpenPGP keys are only
 * in .git (roster.h), never committed.  The changes are mail/roster.c's,
 * the new player's briefing history/enrol.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/plaintext.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

static int	cmd_roster_check(const struct crown_run *);
static int	cmd_roster_exec(struct crown_run *);

enum {
	ROSTER_PASSWORD_FILE, ROSTER_OPENPGP, ROSTER_KEY_FILE, ROSTER_UNTIL,
	ROSTER_NOPTS
};

static const struct crown_option roster_options[] = {
	[ROSTER_PASSWORD_FILE] = { "password-file", CROWN_OPT_VALUE },
	[ROSTER_OPENPGP] = { "openpgp", CROWN_OPT_VALUE },
	[ROSTER_KEY_FILE] = { "key-file", CROWN_OPT_VALUE },
	[ROSTER_UNTIL] = { "until", CROWN_OPT_VALUE },
	[ROSTER_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_roster = {
	"roster",
	"DIR list\n"
	"       crown roster DIR add SIDE \"Name <email>\" [--password-file F]\n"
	"           [--openpgp FPR --key-file F]\n"
	"       crown roster DIR remove EMAIL\n"
	"       crown roster DIR password EMAIL --password-file F\n"
	"       crown roster DIR away EMAIL --until TIME\n"
	"       crown roster DIR back EMAIL\n"
	"       crown roster DIR replace OLD_EMAIL \"Name <email>\"\n"
	"           [--password-file F] [--openpgp FPR --key-file F]\n"
	"       [--umpire \"Name <email>\"] [--date DATE]",
	"The players of the campaign at DIR.  list prints each side's\n"
	"players and how each must prove who they are (From address,\n"
	"password, OpenPGP signature), and until when one is away.  add\n"
	"makes \"Name <email>\" a player of SIDE, remove takes EMAIL off\n"
	"every side, and each is committed as \"Roster: ...\" (crown log\n"
	"shows it, crown verify checks that it changes only the players).\n"
	"password sets EMAIL's password to the first line of F.  A password\n"
	"is kept only as an Argon2id hash, in DIR/.git/crown-roster, never\n"
	"in a commit.  --openpgp FPR makes the player sign every mail with\n"
	"the OpenPGP key of fingerprint FPR, as PGP/MIME (inline PGP is not\n"
	"read); the public key is imported from the file F of --key-file\n"
	"into a keyring in DIR/.git/crown-gnupg.  away marks EMAIL away\n"
	"until TIME (YYYY-MM-DDTHH:MM:SSZ, or with an offset, made UTC);\n"
	"while every player of a side is away, the deadline follows\n"
	"game.absence: extend (the default) moves it to the end of the\n"
	"absence, at most game.max_absence (default 14d) after the deadline\n"
	"set, and tells every player why; hold leaves it, and the side's\n"
	"units hold (R2.3).  back ends the absence early; a deadline it\n"
	"moved stays.  replace hands OLD_EMAIL's side to \"Name <email>\"\n"
	"(identified as add does, and sent the briefing); crown log shows\n"
	"who held each side for which turns.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_WHO,
	.options = roster_options,
	.operands = { 2, 4, "give DIR and list, add SIDE \"Name <email>\", "
	    "remove EMAIL, password EMAIL, away EMAIL, back EMAIL or "
	    "replace OLD_EMAIL \"Name <email>\"" },
	.check = cmd_roster_check,
	.exec = cmd_roster_exec
};

static int
cmd_roster_check(const struct crown_run *r)
{
	const char	*what = r->operand[1];
	const char	*until = r->opt[ROSTER_UNTIL].value;
	long long	 t;
	size_t		 want;

	if (strcmp(what, "list") == 0)
		want = 2;
	else if (strcmp(what, "add") == 0 || strcmp(what, "replace") == 0)
		want = 4;
	else if (strcmp(what, "remove") == 0 ||
	    strcmp(what, "password") == 0 || strcmp(what, "away") == 0 ||
	    strcmp(what, "back") == 0)
		want = 3;
	else
		return crown_cmd_usage_error(r->cmd, "'%s' is not list, add, "
		    "remove, password, away, back or replace", what);
	if (r->noperands != want)
		return crown_cmd_usage_error(r->cmd, "%s takes %zu operand%s "
		    "after DIR", what, want - 2, want == 3 ? "" : "s");
	if (strcmp(what, "password") == 0 &&
	    r->opt[ROSTER_PASSWORD_FILE].value == NULL)
		return crown_cmd_usage_error(r->cmd, "password needs "
		    "--password-file F");
	if (strcmp(what, "add") != 0 && strcmp(what, "password") != 0 &&
	    strcmp(what, "replace") != 0 &&
	    r->opt[ROSTER_PASSWORD_FILE].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--password-file goes "
		    "with add, replace or password");
	if (strcmp(what, "add") != 0 && strcmp(what, "replace") != 0 &&
	    r->opt[ROSTER_OPENPGP].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--openpgp goes with add "
		    "or replace");
	if ((strcmp(what, "away") == 0) != (until != NULL))
		return crown_cmd_usage_error(r->cmd, until != NULL ?
		    "--until goes with away" : "away needs --until TIME");
	if (until != NULL && crown_cal_parse_time(&t, until) != 0)
		return crown_cmd_usage_error(r->cmd, "--until: '%s' is not a "
		    "time (YYYY-MM-DDTHH:MM:SSZ)", until);
	if ((r->opt[ROSTER_OPENPGP].value != NULL) !=
	    (r->opt[ROSTER_KEY_FILE].value != NULL))
		return crown_cmd_usage_error(r->cmd, "--openpgp FPR and "
		    "--key-file F go together: the key's fingerprint and the "
		    "file of the public key");
	return 0;
}

static void
list(const struct crown_state *s, const struct crown_roster *ro)
{
	const struct crown_cred	*c;
	const struct crown_person *p;
	size_t			 i, j;

	for (i = 0; i < s->nsides; i++) {
		printf("%s (%s):%s\n", s->sides[i].id, s->sides[i].name !=
		    NULL ? s->sides[i].name : s->sides[i].id,
		    s->sides[i].nplayers == 0 ? " no players" : "");
		for (j = 0; j < s->sides[i].nplayers; j++) {
			p = &s->sides[i].players[j];
			c = crown_roster_find(ro, p->email);
			printf("  %s <%s>: ", p->name != NULL ? p->name : "",
			    p->email != NULL ? p->email : "");
			if (c != NULL && c->openpgp != NULL)
				printf("OpenPGP signature, key %s",
				    c->openpgp);
			else if (c != NULL && c->password != NULL)
				printf("password");
			else if (p->password_sha256 != NULL)
				printf("password (an old unsalted hash in the "
				    "state: set it again with crown roster "
				    "password)");
			else
				printf("From address only");
			if (p->away_until != NULL)
				printf("; away until %s", p->away_until);
			printf("\n");
		}
	}
}

/* The change crown roster DIR add, remove, password, away, back or
 * replace makes. */
static int
change(char **msg, const char **side, struct crown_state *s,
    struct crown_roster *ro, const struct crown_run *r,
    struct crown_diags *d)
{
	const char			*what = r->operand[1];
	struct crown_roster_player	 np = { 0 };
	char				 until[CROWN_CAL_TIME_LEN];
	long long			 t;

	if (strcmp(what, "remove") == 0)
		return crown_roster_remove_player(msg, s, r->dir,
		    r->operand[2], d);
	if (strcmp(what, "password") == 0)
		return crown_roster_new_password(msg, s, ro, r->dir,
		    r->operand[2], r->opt[ROSTER_PASSWORD_FILE].value, d);
	if (strcmp(what, "back") == 0)
		return crown_roster_away(msg, s, r->dir, r->operand[2], NULL,
		    d);
	if (strcmp(what, "away") == 0) {
		(void)crown_cal_parse_time(&t, r->opt[ROSTER_UNTIL].value);
		crown_cal_format_time(until, sizeof(until), t);
		return crown_roster_away(msg, s, r->dir, r->operand[2], until,
		    d);
	}
	np.side = *side = r->operand[2];
	np.person = r->operand[3];
	np.password_file = r->opt[ROSTER_PASSWORD_FILE].value;
	np.openpgp = r->opt[ROSTER_OPENPGP].value;
	np.key_file = r->opt[ROSTER_KEY_FILE].value;
	if (strcmp(what, "replace") == 0)
		return crown_roster_replace_player(msg, side, s, ro, r->dir,
		    r->operand[2], &np, d);
	return crown_roster_add_player(msg, s, ro, r->dir, &np, d);
}

/* An absence ends after the change that records it. */
static int
future(const struct crown_run *r, const struct crown_who *who,
    struct crown_diags *d)
{
	char		 at[CROWN_CAL_TIME_LEN];
	long long	 t;

	if (strcmp(r->operand[1], "away") != 0)
		return 0;
	(void)crown_cal_parse_time(&t, r->opt[ROSTER_UNTIL].value);
	if (t > who->stamp.time)
		return 0;
	crown_cal_format_time(at, sizeof(at), who->stamp.time);
	crown_diag_add(d, r->dir, 0, 0, NULL, "--until %s is not after the "
	    "time of the change, %s: that absence is over",
	    r->opt[ROSTER_UNTIL].value, at);
	return CROWN_EINVALID;
}

/*
 * What an absence makes of the deadline (crown roster away), said in
 * the commit message *msg; when the deadline moves, every player is
 * told, by mails.  back leaves the deadline.
 */
static int
absence(char **msg, struct crown_outputs *mails, struct crown_state *s,
    const struct crown_run *r, const struct crown_who *who)
{
	struct crown_buf	 b = { 0 };
	char			*why, *subject, *m;
	int			 moved, error = 0;

	if (strcmp(r->operand[1], "back") == 0) {
		m = xasprintf("%s\nA deadline the absence moved stays where "
		    "it is.\n", *msg);
		free(*msg);
		*msg = m;
		return 0;
	}
	moved = crown_campaign_absence_deadline(&why, s, r->h, &r->chain,
	    who->stamp.time);
	if (why == NULL)
		return 0;
	/* the message's lines as git wants them, 72 columns */
	crown_buf_puts(&b, *msg);
	crown_buf_puts(&b, "\n");
	crown_text_fill(&b, why, strlen(why), 72, "", "");
	free(*msg);
	*msg = xstrdup(b.data);
	crown_buf_release(&b);
	if (moved) {
		subject = xasprintf("The deadline moves to %s", s->deadline);
		error = crown_mail_notice(mails, s, subject, why,
		    who->stamp.time);
		free(subject);
	}
	free(why);
	return error;
}

static int
cmd_roster_exec(struct crown_run *r)
{
	const struct crown_chain *c = &r->chain;
	struct crown_diags	 d = { 0 };
	struct crown_campaign	 camp = { 0 };
	struct crown_roster	 ro = { 0 };
	struct crown_who	 who = { 0 };
	struct crown_outputs	 mails = { 0 };
	const struct crown_side	*sd;
	char			 id[CROWN_OID_HEX + 1];
	char			*label, *path, *msg = NULL, *vic;
	const char		*body;
	const char		*what = r->operand[1], *side = NULL;
	int			 error;

	label = xasprintf("turn-%d", c->last);
	path = crown_roster_path(r->dir);
	if ((error = crown_campaign_load(&camp, r->h, c->l.v[c->tip].id,
	    label, &d)) != 0 ||
	    (error = crown_roster_load(&ro, path, &d)) != 0)
		goto cleanup;
	if (strcmp(what, "list") == 0) {
		list(camp.state, &ro);
		goto cleanup;
	}
	if ((error = crown_cmd_game_over(r, &d)) != 0 ||
	    (error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0 || (error = future(r, &who, &d)) != 0 ||
	    (error = change(&msg, &side, camp.state, &ro, r, &d)) != 0)
		goto cleanup;
	if (strcmp(what, "add") == 0 || strcmp(what, "replace") == 0) {
		vic = crown_cmd_victory(camp.state->name);
		error = crown_campaign_brief_player(&mails, r->h, c, &camp,
		    side, &who.stamp, vic, &d);
		free(vic);
	} else if (strcmp(what, "away") == 0 || strcmp(what, "back") == 0)
		error = absence(&msg, &mails, camp.state, r, &who);
	if (error != 0 || (error = crown_campaign_commit_state(id, r->h, c,
	    camp.state, msg, &who.stamp, &mails, &d)) != 0)
		goto cleanup;
	/* the player is gone from the state: the credentials can go */
	if (strcmp(what, "remove") == 0 || strcmp(what, "replace") == 0)
		error = crown_roster_forget(&ro, path, r->operand[2], &d);
	printf("%.*s (%.7s)\n", (int)strcspn(msg, "\n"), msg, id);
	if (mails.n > 0 && (strcmp(what, "add") == 0 ||
	    strcmp(what, "replace") == 0)) {
		sd = &camp.state->sides[crown_state_side(camp.state, side)];
		printf("the briefing for %s is in %s/outbox\n",
		    sd->players[sd->nplayers - 1].email, r->dir);
	} else if (strcmp(what, "away") == 0 || strcmp(what, "back") == 0) {
		/* what became of the deadline */
		if ((body = strstr(msg, "\n\n")) != NULL)
			printf("%s", body + 2);
		if (mails.n > 0)
			printf("%zu mail%s to the players in %s/outbox\n",
			    mails.n, mails.n == 1 ? "" : "s", r->dir);
	}
cleanup:
	crown_outputs_release(&mails);
	free(msg);
	free(path);
	free(label);
	crown_who_release(&who);
	crown_roster_release(&ro);
	crown_campaign_release(&camp);
	return crown_cmd_fail(&d, error);
}
