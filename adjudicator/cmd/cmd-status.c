/*
 * cmd-status.c: crown status: which sides have orders in for the next
 * turn, which are late and which are missing, against game.deadline
 * (doc/umpire.md, "Mail").
 *
 * The orders in are the files of orders/pending/; their receipt is the
 * SHA-256 of the file, and when they came is read from orders/inbox.log
 * (a file put there by hand has no time).  It is a display command: the
 * time defaults to the clock, and --now makes it reproducible.  Of a
 * campaign repository the state is main's last commit's, never the work
 * tree's, which a turn killed before its checkout leaves behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/cmd.h"
#include "crown/common.h"
#include "crown/mail.h"
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

/* "2d 3h 05m" */
static void
span(char *buf, size_t len, long long secs)
{
	long long	d = secs / 86400, h = secs / 3600 % 24;
	long long	m = secs / 60 % 60;

	if (d > 0)
		snprintf(buf, len, "%lldd %lldh %02lldm", d, h, m);
	else if (h > 0)
		snprintf(buf, len, "%lldh %02lldm", h, m);
	else if (secs >= 60)
		snprintf(buf, len, "%lldm", m);
	else
		snprintf(buf, len, "%llds", secs);
}

static int
cmd_status_exec(struct crown_run *r)
{
	struct crown_diags	 d = { 0 }, quiet = { 0 };
	struct crown_state	*s = NULL;
	struct crown_history	*h = NULL;
	struct crown_orders	*o;
	const char		*now_arg, *dir;
	char			*p, *log = NULL, *buf, *when;
	char			 dl[64], rec[CROWN_SHA256_HEX];
	long long		 now, deadline = 0;
	size_t			 i, len, width = 0, in = 0;
	bool			 passed = false, stale;
	int			 error, next;

	now_arg = r->opt[STATUS_NOW].value;
	dir = r->operand[0];
	if (now_arg != NULL && crown_mail_parse_time(&now, now_arg) != 0)
		return crown_cmd_usage_error(r->cmd, "--now: '%s' "
		    "is not a time (YYYY-MM-DDTHH:MM:SSZ)", now_arg);
	if (now_arg == NULL)
		now = crown_mail_now();

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
	printf("%s: orders for turn %d", s->name, next);
	if (s->deadline != NULL &&
	    crown_mail_parse_time(&deadline, s->deadline) == 0) {
		passed = now > deadline;
		span(dl, sizeof(dl), passed ? now - deadline :
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
		p = xasprintf("%s/orders/pending/%s.yaml", dir, id);
		o = NULL;
		if (crown_read_file(&buf, &len, p, CROWN_LIMIT_BYTES_MAX,
		    &quiet) == 0) {
			crown_mail_sha256_hex(rec, buf, len);
			crown_orders_parse(&o, p, buf, len, &quiet);
			free(buf);
		} else
			rec[0] = '\0';
		crown_diags_release(&quiet);
		free(p);
		stale = rec[0] != '\0' && (o == NULL || o->turn != next);
		if (rec[0] != '\0' && !stale) {
			in++;
			when = log_time(log, "accepted", id, next, rec);
			printf("in       received %s, receipt %s\n",
			    when != NULL ? when : "(filed by hand)", rec);
			free(when);
			crown_orders_free(o);
			continue;
		}
		when = log_time(log, "late", id, next, NULL);
		if (when != NULL)
			printf("late     received %s, after the deadline "
			    "(kept in orders/late/%s.yaml)", when, id);
		else
			printf("missing");
		if (stale && o != NULL)
			printf(" (orders/pending/%s.yaml is for turn %d)", id,
			    o->turn);
		else if (stale)
			printf(" (orders/pending/%s.yaml cannot be read)", id);
		crown_orders_free(o);
		free(when);
		printf("%s\n", passed ? "; holds (R2.3)" : "");
	}
	printf("%zu of %zu sides have orders in%s\n", in, s->nsides,
	    passed && in < s->nsides ? "; the others hold (R2.3)" : "");
cleanup:
	free(log);
	crown_state_free(s);
	crown_history_close(h);
	return crown_cmd_fail(&d, error);
}
