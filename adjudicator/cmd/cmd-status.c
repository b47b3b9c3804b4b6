/*
 * cmd-status.c: crown status: which sides have orders in for the next
 * turn, which are late and which are missing, against game.deadline
 * (doc/umpire.md, "Mail").
 *
 * The orders in are the files of orders/pending/ as crown turn DIR plays
 * them: any *.yaml there, for the side it names.  Their receipt is the
 * SHA-256 of the file, and when they came is read from orders/inbox.log
 * (a file put there by hand has no time).  It is a display command: the
 * time defaults to the clock, and --now makes it reproducible.  Of a
 * campaign repository the state is main's last commit's, never the work
 * tree's, which a turn killed before its checkout leaves behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static int	cmd_status_exec(struct crown_run *);

enum { STATUS_NOW, STATUS_NOPTS };

static const struct crown_option status_options[] = {
	[STATUS_NOW] = { "now", CROWN_OPT_VALUE },
	[STATUS_NOPTS] = { NULL, CROWN_OPT_FLAG }
};

const struct crown_cmd crown_cmd_status = {
	"status",
	"DIR [--now TIME]",
	"Show, for each side of the campaign at DIR, whether its orders for\n"
	"the next turn are in (when they came and their receipt), late, or\n"
	"missing, and how long until game.deadline.  After the deadline a\n"
	"side without orders holds (R2.3).  --now TIME\n"
	"(YYYY-MM-DDTHH:MM:SSZ) is the time to compare with the deadline\n"
	"(default: now).  Of a campaign repository it reads the state of\n"
	"the last commit.\n\n"
	CROWN_LIMIT_HELP,
	.flags = CROWN_CMD_LIMITS,
	.options = status_options,
	.operands = { 1, 1, "give one campaign DIR" },
	.exec = cmd_status_exec
};

/* The last line of orders/inbox.log with this verdict, side and turn
 * (and receipt, when given): its time, or NULL (caller frees). */
static char *
log_time(const char *log, const char *verdict, const char *side, int turn,
    const char *receipt)
{
	const char	*line, *next;
	char		*copy, *p, *f[7], *found = NULL;
	size_t		 k;

	for (line = log; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		copy = next != NULL ? xstrndup(line, (size_t)(next - line)) :
		    xstrdup(line);
		if (next != NULL)
			next++;
		p = copy;
		for (k = 0; k < 7; k++)
			if ((f[k] = strsep(&p, " ")) == NULL)
				break;
		if (k == 7 && strcmp(f[1], verdict) == 0 &&
		    strcmp(f[3], side) == 0 &&
		    strtol(f[2], NULL, 10) == turn &&
		    (receipt == NULL || strcmp(f[4], receipt) == 0)) {
			free(found);
			found = xstrdup(f[0]);
		}
		free(copy);
	}
	return found;
}

/*
 * A file of orders/pending as crown turn DIR sees it: every *.yaml there
 * (crown_campaign_pending, the one listing both commands use), whatever
 * its name, is played for the side it names.
 */
struct pending {
	char			*path;		/* from the top of DIR */
	char			 rec[CROWN_SHA256_HEX];
	struct crown_orders	*o;		/* NULL: cannot be read */
	bool			 used;		/* shown on a side's line */
};

/* The pending files of dir, read as crown turn reads them (problems
 * kept quiet). */
static void
load_pending(struct pending **out, size_t *n, const char *dir,
    const struct crown_state *s)
{
	struct crown_orders_context ctx = { s->name, s->turn + 1, false };
	struct crown_orders_read r;
	struct crown_diags	 quiet = { 0 };
	struct pending		*v;
	char			**paths, *buf;
	size_t			 i, len, skip;

	crown_campaign_pending(&paths, n, dir);
	v = xcalloc(*n ? *n : 1, sizeof(*v));
	skip = strlen(dir) + (dir[strlen(dir) - 1] == '/' ? 0 : 1);
	for (i = 0; i < *n; i++) {
		v[i].path = xstrdup(paths[i] + skip);
		if (crown_read_file(&buf, &len, paths[i],
		    crown_ylimits_orders.max_bytes, &quiet) == 0) {
			crown_mail_sha256_hex(v[i].rec, buf, len);
			crown_orders_read(&r, paths[i], buf, len, &ctx,
			    &quiet);
			v[i].o = r.orders;
			r.orders = NULL;
			crown_orders_read_release(&r);
			free(buf);
		}
		crown_diags_release(&quiet);
		free(paths[i]);
	}
	free(paths);
	*out = v;
}

/* Does the file look like side id's (its side, or else its name)? */
static bool
is_sides(const struct pending *f, const char *id)
{
	const char	*base;
	size_t		 len;

	if (f->o != NULL && f->o->side != NULL)
		return strcmp(f->o->side, id) == 0;
	base = strrchr(f->path, '/');
	base = base != NULL ? base + 1 : f->path;
	len = strlen(id);
	return strncmp(base, id, len) == 0 && strcmp(base + len, ".yaml") == 0;
}

/* The last component of path is "SIDE.yaml". */
static bool
named_for(const char *path, const char *id)
{
	char	*want = xasprintf("%s/%s.yaml", CROWN_CAMPAIGN_PENDING, id);
	bool	 same = strcmp(path, want) == 0;

	free(want);
	return same;
}

static int
cmd_status_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 }, quiet = { 0 };
	struct crown_state	*s = NULL;
	struct crown_history	*h = NULL;
	struct pending		*pv = NULL, *f, *in_file;
	const char		*now_arg, *dir;
	char			*p, *log = NULL, *when;
	char			 dl[64];
	long long		 now, deadline = 0;
	size_t			 i, k, len, width = 0, in = 0, npending = 0;
	bool			 passed = false;
	int			 error, next;

	now_arg = r->opt[STATUS_NOW].value;
	dir = r->operand[0];
	if (now_arg != NULL && crown_cal_parse_time(&now, now_arg) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' "
		    "is not a time (YYYY-MM-DDTHH:MM:SSZ)", now_arg);
	if (now_arg == NULL)
		now = crown_cal_now();

	if ((error = crown_cmd_mail_campaign(&s, NULL, &h, dir, false,
	    &d)) != 0)
		goto cleanup;
	next = s->turn + 1;
	p = xasprintf("%s/orders/inbox.log", dir);
	if (crown_read_file(&log, &len, p, CROWN_LIMIT_BYTES_MAX, &quiet) !=
	    0)
		log = NULL;
	crown_diags_release(&quiet);
	free(p);

	if (s->last_turn != 0 && s->turn >= s->last_turn) {
		printf("%s: the game is over (turn %d was the last)\n",
		    s->name, s->last_turn);
		goto cleanup;
	}
	load_pending(&pv, &npending, dir, s);
	printf("%s: orders for turn %d", s->name, next);
	if (s->deadline != NULL &&
	    crown_cal_parse_time(&deadline, s->deadline) == 0) {
		passed = now > deadline;
		crown_cal_format_span(dl, sizeof(dl), passed ? now - deadline :
		    deadline - now);
		printf(", deadline %s (%s%s%s)\n", s->deadline,
		    passed ? "passed " : "in ", dl, passed ? " ago" : "");
	} else
		printf(", no deadline\n");
	for (i = 0; i < s->nsides; i++)
		if (strlen(s->sides[i].id) > width)
			width = strlen(s->sides[i].id);
	for (i = 0; i < s->nsides; i++) {
		const char *id = s->sides[i].id;

		printf("  %-*s  ", (int)width, id);
		in_file = NULL;
		for (k = 0; k < npending && in_file == NULL; k++)
			if (pv[k].o != NULL && pv[k].o->turn == next &&
			    is_sides(&pv[k], id))
				in_file = &pv[k];
		if (in_file != NULL) {
			in++;
			in_file->used = true;
			when = log_time(log, "accepted", id, next,
			    in_file->rec);
			printf("in       received %s, receipt %s",
			    when != NULL ? when : "(filed by hand)",
			    in_file->rec);
			if (!named_for(in_file->path, id))
				printf(" (%s)", in_file->path);
			printf("\n");
			free(when);
			continue;
		}
		when = log_time(log, "late", id, next, NULL);
		if (when != NULL)
			printf("late     received %s, after the deadline "
			    "(kept in orders/late/%s.yaml)", when, id);
		else
			printf("missing");
		free(when);
		/* a file of the side's that crown turn would refuse */
		for (k = 0; k < npending; k++) {
			if (pv[k].used || !is_sides(&pv[k], id))
				continue;
			pv[k].used = true;
			if (pv[k].o != NULL)
				printf(" (%s is for turn %d)", pv[k].path,
				    pv[k].o->turn);
			else
				printf(" (%s cannot be read)", pv[k].path);
		}
		printf("%s\n", passed ? "; holds (R2.3)" : "");
	}
	/* crown turn DIR refuses these, with every other problem */
	for (k = 0; k < npending; k++) {
		f = &pv[k];
		if (f->used)
			continue;
		if (f->o == NULL)
			printf("  %s cannot be read\n", f->path);
		else if (f->o->turn != next)
			printf("  %s is for turn %d\n", f->path, f->o->turn);
		else if (f->o->side != NULL && crown_state_side(s,
		    f->o->side) >= 0)
			printf("  %s: a second file for side '%s'\n",
			    f->path, f->o->side);
		else
			printf("  %s: no side '%s' in this game\n", f->path,
			    f->o->side != NULL ? f->o->side : "");
	}
	printf("%zu of %zu sides have orders in%s\n", in, s->nsides,
	    passed && in < s->nsides ? "; the others hold (R2.3) if the "
	    "turn is played with --allow-missing" : "");
cleanup:
	for (k = 0; k < npending; k++) {
		free(pv[k].path);
		crown_orders_free(pv[k].o);
	}
	free(pv);
	free(log);
	crown_state_free(s);
	crown_history_close(h);
	return crown_cmd_fail(&d, error);
}
