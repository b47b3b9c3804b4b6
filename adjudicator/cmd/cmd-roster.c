/*
 * cmd-roster.c: crown roster: the players of a campaign after crown new
 * (issue 19).  Names and addresses are in the state, and each change is
 * a commit "Roster: ..." of its own; passwords and OpenPGP keys are only
 * in .git (roster.h), never committed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/history.h"
#include "crown/mail.h"
#include "crown/pgp.h"
#include "crown/roster.h"
#include "crown/xalloc.h"

static int	cmd_roster_check(const struct crown_run *);
static int	cmd_roster_exec(struct crown_run *);

enum { ROSTER_PASSWORD_FILE, ROSTER_OPENPGP, ROSTER_KEY_FILE, ROSTER_NOPTS };

static const struct crown_option roster_options[] = {
	[ROSTER_PASSWORD_FILE] = { "password-file", CROWN_OPT_VALUE },
	[ROSTER_OPENPGP] = { "openpgp", CROWN_OPT_VALUE },
	[ROSTER_KEY_FILE] = { "key-file", CROWN_OPT_VALUE },
	[ROSTER_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_roster = {
	"roster",
	"DIR list\n"
	"       crown roster DIR add SIDE \"Name <email>\" [--password-file F]\n"
	"           [--openpgp FPR --key-file F]\n"
	"       crown roster DIR remove EMAIL\n"
	"       crown roster DIR password EMAIL --password-file F\n"
	"       [--umpire \"Name <email>\"] [--date DATE]",
	"The players of the campaign at DIR.  list prints each side's\n"
	"players and how each must prove who they are (From address,\n"
	"password, OpenPGP signature).  add makes \"Name <email>\" a player\n"
	"of SIDE, remove takes EMAIL off every side, and each is committed\n"
	"as \"Roster: ...\" (crown log shows it, crown verify checks that it\n"
	"changes only the players).  password sets EMAIL's password to the\n"
	"first line of F.  A password is kept only as an Argon2id hash, in\n"
	"DIR/.git/crown-roster, never in a commit.  --openpgp FPR makes the\n"
	"player sign every mail with the OpenPGP key of fingerprint FPR, as\n"
	"PGP/MIME (inline PGP is not read); the public key is imported from\n"
	"the file F of --key-file into a keyring in DIR/.git/crown-gnupg.",
	.flags = CROWN_CMD_CAMPAIGN | CROWN_CMD_LOCK | CROWN_CMD_WHO,
	.options = roster_options,
	.operands = { 2, 4, "give DIR and list, add SIDE \"Name <email>\", "
	    "remove EMAIL or password EMAIL" },
	.check = cmd_roster_check,
	.exec = cmd_roster_exec
};

static int
cmd_roster_check(const struct crown_run *r)
{
	const char	*what = r->operand[1];
	size_t		 want;

	if (strcmp(what, "list") == 0)
		want = 2;
	else if (strcmp(what, "add") == 0)
		want = 4;
	else if (strcmp(what, "remove") == 0 ||
	    strcmp(what, "password") == 0)
		want = 3;
	else
		return crown_cmd_usage_error(r->cmd, "'%s' is not list, add, "
		    "remove or password", what);
	if (r->noperands != want)
		return crown_cmd_usage_error(r->cmd, "%s takes %zu operand%s "
		    "after DIR", what, want - 2, want == 3 ? "" : "s");
	if (strcmp(what, "password") == 0 &&
	    r->opt[ROSTER_PASSWORD_FILE].value == NULL)
		return crown_cmd_usage_error(r->cmd, "password needs "
		    "--password-file F");
	if (strcmp(what, "add") != 0 && strcmp(what, "password") != 0 &&
	    r->opt[ROSTER_PASSWORD_FILE].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--password-file goes "
		    "with add or password");
	if (strcmp(what, "add") != 0 && r->opt[ROSTER_OPENPGP].value != NULL)
		return crown_cmd_usage_error(r->cmd, "--openpgp goes with add");
	if ((r->opt[ROSTER_OPENPGP].value != NULL) !=
	    (r->opt[ROSTER_KEY_FILE].value != NULL))
		return crown_cmd_usage_error(r->cmd, "--openpgp FPR and "
		    "--key-file F go together: the key's fingerprint and the "
		    "file of the public key");
	return 0;
}

/* "Name <email>" into its parts (caller frees); -1 when malformed. */
static int
split_person(char **name, char **email, const char *s)
{
	const char	*lt = strchr(s, '<'), *gt;
	size_t		 n;

	*name = *email = NULL;
	if (lt == NULL || (gt = strchr(lt, '>')) == NULL || gt[1] != '\0' ||
	    strchr(lt + 1, '<') != NULL)
		return -1;
	for (n = (size_t)(lt - s); n > 0 && s[n - 1] == ' '; n--)
		;
	if (n == 0 || gt - lt < 4 || memchr(lt, '@', (size_t)(gt - lt)) ==
	    NULL || strpbrk(s, "\r\n\t\"") != NULL ||
	    memchr(s, '>', n) != NULL)
		return -1;
	*name = xstrndup(s, n);
	*email = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	if (strchr(*email, ' ') != NULL) {
		free(*name);
		free(*email);
		*name = *email = NULL;
		return -1;
	}
	return 0;
}

/* 40 hex digits (spaces dropped, upper-cased) into out; -1 if not. */
static int
fingerprint(char *out, const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++) {
		if (*s == ' ')
			continue;
		if (!isxdigit((unsigned char)*s) || n == 40)
			return -1;
		out[n++] = (char)toupper((unsigned char)*s);
	}
	out[n] = '\0';
	return n == 40 ? 0 : -1;
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
				printf("OpenPGP signature, key %s\n",
				    c->openpgp);
			else if (c != NULL && c->password != NULL)
				printf("password\n");
			else if (p->password_sha256 != NULL)
				printf("password (an old unsalted hash in the "
				    "state: set it again with crown roster "
				    "password)\n");
			else
				printf("From address only\n");
		}
	}
}

/* The first player of any side with email, or NULL. */
static struct crown_person *
find(struct crown_state *s, const char *email)
{
	size_t	i, j;

	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++)
			if (s->sides[i].players[j].email != NULL &&
			    strcasecmp(s->sides[i].players[j].email, email) ==
			    0)
				return &s->sides[i].players[j];
	return NULL;
}

static int
add(struct crown_state *s, struct crown_roster *ro, struct crown_run *r,
    char **msg, struct crown_diags *d)
{
	struct crown_side	*sd;
	struct crown_person	*p;
	struct crown_cred	*c;
	char			*name, *email, *pw = NULL, fpr[41], *home;
	const char		*file = r->opt[ROSTER_PASSWORD_FILE].value;
	const char		*key = r->opt[ROSTER_OPENPGP].value;
	int			 side, error = 0;
	size_t			 j, cap;

	if ((side = crown_state_side(s, r->operand[2])) < 0) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "no side '%s' in the "
		    "campaign", r->operand[2]);
		return CROWN_EINVALID;
	}
	if (split_person(&name, &email, r->operand[3]) != 0) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "give the player as "
		    "\"Name <email>\", not '%s'", r->operand[3]);
		return CROWN_EUSAGE;
	}
	if (key != NULL && fingerprint(fpr, key) != 0) {
		crown_diag_add(d, "--openpgp", 0, 0, NULL, "'%s' is not a "
		    "key's fingerprint (40 hex digits)", key);
		error = CROWN_EUSAGE;
		goto cleanup;
	}
	sd = &s->sides[side];
	for (j = 0; j < sd->nplayers; j++)
		if (sd->players[j].email != NULL &&
		    strcasecmp(sd->players[j].email, email) == 0) {
			crown_diag_add(d, r->dir, 0, 0, NULL, "'%s' already "
			    "plays side '%s'", email, sd->id);
			error = CROWN_EINVALID;
			goto cleanup;
		}
	if (file != NULL &&
	    (error = crown_roster_read_password(&pw, file, d)) != 0)
		goto cleanup;
	if (key != NULL) {
		/* the key before the roster names it: a fingerprint without
		 * its key in the keyring would refuse all the player's mail */
		home = crown_roster_keyring(r->dir);
		error = crown_pgp_import(home, fpr,
		    r->opt[ROSTER_KEY_FILE].value, d);
		free(home);
		if (error != 0)
			goto cleanup;
	}
	/* the credentials first: without the player they are harmless */
	if (pw != NULL || key != NULL) {
		c = crown_roster_get(ro, email);
		if (pw != NULL && crown_roster_set_password(c, pw) != 0) {
			crown_diag_add(d, file, 0, 0, NULL, "cannot hash the "
			    "password (libsodium)");
			error = CROWN_ERROR;
			goto cleanup;
		}
		if (key != NULL) {
			free(c->openpgp);
			c->openpgp = xstrdup(fpr);
		}
		if ((error = crown_roster_save_in(ro, r->dir, d)) != 0)
			goto cleanup;
	}
	cap = sd->nplayers;
	crown_grow(&sd->players, &cap, sd->nplayers + 1,
	    sizeof(*sd->players));
	p = &sd->players[sd->nplayers++];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->email = email;
	*msg = xasprintf("Roster: add %s <%s> to %s\n\nIdentified by %s; "
	    "credentials are kept in .git, never\ncommitted.\n", name, email,
	    sd->id, key != NULL ? "an OpenPGP signature" : pw != NULL ?
	    "a password" : "the From address alone");
	name = email = NULL;
cleanup:
	if (pw != NULL)
		sodium_memzero(pw, strlen(pw));
	free(pw);
	free(name);
	free(email);
	return error;
}

static int
remove_player(struct crown_state *s, const char *email, char **msg,
    struct crown_diags *d, const char *dir)
{
	struct crown_side	*sd;
	struct crown_buf	 sides = { 0 };
	size_t			 i, j;

	crown_buf_puts(&sides, "");
	for (i = 0; i < s->nsides; i++) {
		sd = &s->sides[i];
		for (j = 0; j < sd->nplayers; j++) {
			if (sd->players[j].email == NULL ||
			    strcasecmp(sd->players[j].email, email) != 0)
				continue;
			free(sd->players[j].name);
			free(sd->players[j].email);
			free(sd->players[j].password_sha256);
			memmove(&sd->players[j], &sd->players[j + 1],
			    (sd->nplayers - j - 1) * sizeof(*sd->players));
			sd->nplayers--;
			crown_buf_printf(&sides, "%s%s", sides.len > 0 ?
			    ", " : "", sd->id);
			j--;
		}
	}
	if (sides.len == 0) {
		crown_diag_add(d, dir, 0, 0, NULL, "'%s' is not a player",
		    email);
		crown_buf_release(&sides);
		return CROWN_EINVALID;
	}
	*msg = xasprintf("Roster: remove %s from %s\n", email, sides.data);
	crown_buf_release(&sides);
	return 0;
}

static int
password(struct crown_state *s, struct crown_roster *ro,
    struct crown_run *r, char **msg, struct crown_diags *d)
{
	struct crown_person	*p;
	const char		*email = r->operand[2];
	const char		*file = r->opt[ROSTER_PASSWORD_FILE].value;
	char			*pw = NULL;
	size_t			 i, j;
	int			 error;

	if ((p = find(s, email)) == NULL) {
		crown_diag_add(d, r->dir, 0, 0, NULL, "'%s' is not a player",
		    email);
		return CROWN_EINVALID;
	}
	if ((error = crown_roster_read_password(&pw, file, d)) != 0)
		return error;
	if (crown_roster_set_password(crown_roster_get(ro, email), pw) != 0) {
		crown_diag_add(d, file, 0, 0, NULL, "cannot hash the password "
		    "(libsodium)");
		error = CROWN_ERROR;
	} else
		error = crown_roster_save_in(ro, r->dir, d);
	sodium_memzero(pw, strlen(pw));
	free(pw);
	if (error != 0)
		return error;
	/* an old campaign's unsalted hash leaves the state from now on */
	for (i = 0; i < s->nsides; i++)
		for (j = 0; j < s->sides[i].nplayers; j++) {
			p = &s->sides[i].players[j];
			if (p->email != NULL &&
			    strcasecmp(p->email, email) == 0) {
				free(p->password_sha256);
				p->password_sha256 = NULL;
			}
		}
	*msg = xasprintf("Roster: new password for %s\n\nThe password's hash "
	    "is kept in .git, never committed.\n", email);
	return 0;
}

/* The briefing of turn 0, for the player just added (the last of the
 * side's players), with the campaign as it stands (the map of the last
 * turn played, when it has one) and the orders form of the next turn,
 * added to mails for DIR/outbox (issue 20). */
static int
mail_briefing(struct crown_outputs *mails, const struct crown_run *r,
    const struct crown_campaign *now, const struct crown_who *who,
    struct crown_diags *d)
{
	const struct crown_chain *c = &r->chain;
	const struct crown_side	*sd;
	struct crown_campaign	 opening = { 0 };
	struct crown_buf	 map = { 0 };
	char			*when, *vic, *path;
	size_t			 sent;
	int			 error;

	sd = &now->state->sides[crown_state_side(now->state,
	    r->operand[2])];
	if ((error = crown_campaign_load(&opening, r->h, c->l.v[c->at[0]].id,
	    "turn-0", d)) != 0)
		return error;
	/* a campaign begun before opening maps has none for turn 0 */
	path = xasprintf("turns/turn-%03d/map.svg", c->last);
	error = crown_history_read(&map, r->h, c->l.v[c->at[c->last]].id,
	    path, d);
	free(path);
	if (error == CROWN_ENOTFOUND)
		map.len = 0;
	else if (error != 0) {
		crown_campaign_release(&opening);
		return error;
	}
	when = xasprintf("@%lld", (long long)who->stamp.time);
	vic = crown_cmd_victory(opening.state->name);
	error = crown_mail_briefing(mails, opening.state, now->state,
	    now->rules, vic, &map, sd->players[sd->nplayers - 1].email, when,
	    &sent, d);
	crown_buf_release(&map);
	free(vic);
	free(when);
	crown_campaign_release(&opening);
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
	char			*label, *path, *msg = NULL;
	const char		*what = r->operand[1];
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
	if ((error = crown_cmd_game_over(r, &d)) != 0)
		goto cleanup;
	if ((error = crown_campaign_who(&who, r->umpire, r->date, camp.state,
	    &d)) != 0)
		goto cleanup;
	if (strcmp(what, "add") == 0)
		error = add(camp.state, &ro, r, &msg, &d);
	else if (strcmp(what, "remove") == 0)
		error = remove_player(camp.state, r->operand[2], &msg, &d,
		    r->dir);
	else
		error = password(camp.state, &ro, r, &msg, &d);
	if (error == 0 && strcmp(what, "add") == 0)
		error = mail_briefing(&mails, r, &camp, &who, &d);
	if (error != 0 || (error = crown_campaign_commit_state(id, r->h, c,
	    camp.state, msg, &who.stamp, &mails, &d)) != 0)
		goto cleanup;
	/* the player is gone from the state: the credentials can go */
	if (strcmp(what, "remove") == 0 && crown_roster_find(&ro,
	    r->operand[2]) != NULL) {
		crown_roster_remove(&ro, r->operand[2]);
		error = crown_roster_save(&ro, path, &d);
	}
	printf("%.*s (%.7s)\n", (int)strcspn(msg, "\n"), msg, id);
	if (mails.n > 0) {
		sd = &camp.state->sides[crown_state_side(camp.state,
		    r->operand[2])];
		printf("the briefing for %s is in %s/outbox\n",
		    sd->players[sd->nplayers - 1].email, r->dir);
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
