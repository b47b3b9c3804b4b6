/*
 * received.c: what crown inbox keeps of the mail it received
 * (received.h): the messages of orders/inbox.log, the signatures that
 * filed orders and the mailboxes read, and from them the mail of those
 * mailboxes not read yet (crown_inbox_unread, inbox.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crown/calendar.h"
#include "crown/common.h"
#include "crown/inbox.h"
#include "crown/mail.h"
#include "crown/outputs.h"
#include "crown/roster.h"
#include "crown/state.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"
#include "received.h"

#define CROWN_RECEIVED_SIGS	"crown-signatures"	/* in .git */
#define CROWN_RECEIVED_MAILDIR	"crown-maildir"	/* in .git */

/* The log's messages. */

static size_t
slot(const struct crown_received *st, const char *hash)
{
	size_t		 i, h = 0;
	unsigned	 c;

	for (i = 0; i < 16 && hash[i] != '\0'; i++) {
		c = (unsigned char)hash[i];
		h = h << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	for (i = h & (st->cap - 1); st->v[i][0] != '\0' &&
	    strcmp(st->v[i], hash) != 0; i = (i + 1) & (st->cap - 1))
		;
	return i;
}

void
crown_received_add(struct crown_received *st, const char *hash)
{
	struct crown_received	 grown;
	size_t		 i;

	if (strlen(hash) != 64)
		return;
	if ((st->n + 1) * 2 > st->cap) {
		grown.cap = st->cap == 0 ? 1024 : st->cap * 2;
		grown.n = 0;
		grown.v = xcalloc(grown.cap, sizeof(*grown.v));
		for (i = 0; i < st->cap; i++)
			if (st->v[i][0] != '\0')
				crown_received_add(&grown, st->v[i]);
		free(st->v);
		*st = grown;
	}
	i = slot(st, hash);
	if (st->v[i][0] == '\0') {
		memcpy(st->v[i], hash, CROWN_SHA256_HEX);
		st->n++;
	}
}

bool
crown_received_has(const struct crown_received *st, const char *hash)
{
	return st->cap > 0 && st->v[slot(st, hash)][0] != '\0';
}

void
crown_received_load(struct crown_received *st, const char *dir)
{
	struct crown_diags	 d = { 0 };
	char			*path, *buf, *line, *next, *f[7];
	size_t			 len, k;

	path = xasprintf("%s/%s", dir, CROWN_RECEIVED_LOG);
	if (crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX, &d) !=
	    0) {
		crown_diags_release(&d);
		free(path);
		return;
	}
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		for (k = 0; k < 7; k++) {
			f[k] = strsep(&line, " ");
			if (f[k] == NULL)
				break;
		}
		if (k == 7)
			crown_received_add(st, f[5]);
	}
	free(buf);
	free(path);
}

void
crown_received_release(struct crown_received *st)
{
	free(st->v);
	memset(st, 0, sizeof(*st));
}

/* The signatures that filed orders (.git/crown-signatures): a line
 * each, its key (pgp.h) and the message that used it. */

const char *
crown_received_sig_used(const struct crown_sigs *sg, const char *key)
{
	size_t	i;

	for (i = 0; i < sg->n; i++)
		if (strcmp(sg->v[i].key, key) == 0)
			return sg->v[i].msg;
	return NULL;
}

static void
sig_keep(struct crown_sigs *sg, const char *key, const char *msg)
{
	struct crown_used_sig	*u;

	crown_grow(&sg->v, &sg->cap, sg->n + 1, sizeof(*sg->v));
	u = &sg->v[sg->n++];
	memcpy(u->key, key, CROWN_SHA256_HEX);
	memcpy(u->msg, msg, CROWN_SHA256_HEX);
}

void
crown_received_sig_add(struct crown_sigs *sg, const char *key,
    const char *msg)
{
	sig_keep(sg, key, msg);
	crown_buf_printf(&sg->batch, "%s %s\n", key, msg);
}

void
crown_received_sigs_load(struct crown_sigs *sg, const char *dir)
{
	struct crown_diags	 d = { 0 };
	char			*path, *buf, *line, *next, *key;
	size_t			 len;

	path = crown_roster_private(dir, CROWN_RECEIVED_SIGS);
	if (crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX, &d) !=
	    0) {
		crown_diags_release(&d);
		free(path);
		return;
	}
	sg->torn = len > 0 && buf[len - 1] != '\n';
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			break;
		*next++ = '\0';
		key = strsep(&line, " ");
		if (strlen(key) == 64 && line != NULL && strlen(line) == 64)
			sig_keep(sg, key, line);
	}
	free(buf);
	free(path);
}

int
crown_received_sigs_write(struct crown_sigs *sg, const char *dir,
    struct crown_diags *d)
{
	struct stat	 st;
	char		*path, *slash;
	bool		 fresh_file;
	int		 fd, error = 0;

	if (sg->batch.len == 0)
		return 0;
	path = crown_roster_private(dir, CROWN_RECEIVED_SIGS);
	fresh_file = stat(path, &st) != 0;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd < 0 || (sg->torn && write(fd, "\n", 1) != 1) ||
	    write(fd, sg->batch.data, sg->batch.len) !=
	    (ssize_t)sg->batch.len || fsync(fd) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(errno));
		error = CROWN_EWRITE;
	} else
		sg->torn = false;
	if (fd >= 0)
		close(fd);
	if (error == 0 && fresh_file && (slash = strrchr(path, '/')) !=
	    NULL) {
		*slash = '\0';
		(void)crown_sync_path(path);
	}
	free(path);
	sg->batch.len = 0;
	return error;
}

void
crown_received_sigs_release(struct crown_sigs *sg)
{
	free(sg->v);
	crown_buf_release(&sg->batch);
	memset(sg, 0, sizeof(*sg));
}

/* The mailboxes read (.git/crown-maildir). */

/* Do lines ("MAX PATH" each) name the mailbox path[0, n)? */
static bool
has_mailbox(const struct crown_buf *lines, const char *path, size_t n)
{
	const char	*l, *e, *sp, *end = lines->data + lines->len;

	for (l = lines->data; l < end; l = e + 1) {
		if ((e = memchr(l, '\n', (size_t)(end - l))) == NULL)
			e = end;
		if ((sp = memchr(l, ' ', (size_t)(e - l))) != NULL &&
		    (size_t)(e - sp - 1) == n && memcmp(sp + 1, path, n) == 0)
			return true;
	}
	return false;
}

int
crown_received_mailboxes_write(const char *dir,
    const struct crown_buf *lines, struct crown_diags *d)
{
	struct crown_diags	 quiet = { 0 };
	struct crown_buf	 all = { 0 };
	char			*path, *old = NULL, *l, *e, *sp;
	size_t			 len = 0;
	int			 err = 0;

	if (lines->len == 0)
		return 0;
	path = crown_roster_private(dir, CROWN_RECEIVED_MAILDIR);
	if (crown_read_file(&old, &len, path, CROWN_LIMIT_BYTES_MAX,
	    &quiet) != 0) {
		old = NULL;
		len = 0;
	}
	/* this run's mailboxes, then the others an earlier run read: the
	 * mail of each is counted until it is read */
	crown_buf_add(&all, lines->data, lines->len);
	for (l = old; l != NULL && l < old + len; l = e + 1) {
		if ((e = memchr(l, '\n', (size_t)(old + len - l))) == NULL)
			break;
		if ((sp = memchr(l, ' ', (size_t)(e - l))) == NULL)
			continue;
		if (!has_mailbox(lines, sp + 1, (size_t)(e - sp - 1)))
			crown_buf_add(&all, l, (size_t)(e - l + 1));
	}
	/* the same mailboxes as last week's: nothing to write, or sync */
	if (old == NULL || len != all.len || memcmp(old, all.data, len) != 0)
		err = crown_put_file(path, all.data, all.len, 0600, true);
	crown_diags_release(&quiet);
	crown_buf_release(&all);
	free(old);
	if (err != 0)
		crown_diag_add(d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(err));
	free(path);
	return err != 0 ? CROWN_EWRITE : 0;
}

/* The mail not read yet. */

/* crown_inbox_unread's count of one mailbox. */
struct unread {
	struct crown_received seen;		/* the log's */
	bool		 has_deadline;
	long long	 deadline;
	long long	 now;
	size_t		 n;
};

static int
count_unread(void *arg, const struct crown_mail_raw *raw)
{
	struct unread	*u = arg;

	/* received as crown inbox will judge it, reading it now */
	if (!crown_received_has(&u->seen, raw->hash) && (!u->has_deadline ||
	    crown_mail_received(raw, u->now) <= u->deadline))
		u->n++;
	return 0;
}

int
crown_inbox_unread(size_t *out, char **where, const char *dir,
    const struct crown_state *s, long long now, struct crown_diags *d)
{
	struct crown_diags	 quiet = { 0 };
	struct unread		 u;
	struct crown_buf	 names = { 0 };
	char			*path, *buf, *line, *next, *end;
	size_t			 len, max;
	int			 error = 0;

	*out = 0;
	*where = NULL;
	path = crown_roster_private(dir, CROWN_RECEIVED_MAILDIR);
	error = crown_read_file(&buf, &len, path, CROWN_LIMIT_BYTES_MAX,
	    &quiet);
	crown_diags_release(&quiet);
	free(path);
	if (error != 0)
		return CROWN_ENOTFOUND;
	memset(&u, 0, sizeof(u));
	u.now = now;
	u.has_deadline = s->deadline != NULL &&
	    crown_cal_parse_time(&u.deadline, s->deadline) == 0;
	crown_received_load(&u.seen, dir);
	crown_buf_puts(&names, "");
	for (line = buf; error == 0 && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) == NULL)
			break;
		*next++ = '\0';
		max = (size_t)strtoull(line, &end, 10);
		if (end == line || *end != ' ' || end[1] == '\0')
			continue;
		crown_buf_printf(&names, "%s%s", names.len > 0 ? ", " : "",
		    end + 1);
		error = crown_mail_each(end + 1, max, count_unread, &u, d);
	}
	free(buf);
	crown_received_release(&u.seen);
	*out = u.n;
	if (names.len == 0 && error == 0)
		error = CROWN_ENOTFOUND;
	*where = names.data;
	return error;
}

/*
 * The answers to each address.  The limit holds however often crown
 * inbox runs: an auto-responder that crown's answers set off, or a flood
 * in a player's name, costs a few answers a turn.
 */

#define ANSWERS_NAME	"crown-answers"
#define ANSWERS_MAX	((size_t)1024 * 1024)

static struct crown_answered *
answers_of(struct crown_answers *a, const char *addr)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		if (strcasecmp(a->v[i].addr, addr) == 0)
			return &a->v[i];
	crown_grow(&a->v, &a->cap, i + 1, sizeof(*a->v));
	a->v[i].addr = xstrdup(addr);
	a->v[i].n = 0;
	a->n++;
	return &a->v[i];
}

void
crown_received_answers_load(struct crown_answers *a, const char *dir,
    int turn)
{
	struct crown_diags	 d = { 0 };
	char			*path, *buf, *line, *next, *end, *addr;
	unsigned long		 n;
	long			 t;
	size_t			 len;

	path = crown_roster_private(dir, ANSWERS_NAME);
	if (access(path, F_OK) != 0 ||
	    crown_read_file(&buf, &len, path, ANSWERS_MAX, &d) != 0) {
		crown_diags_release(&d);
		free(path);
		return;
	}
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		errno = 0;
		t = strtol(line, &end, 10);
		if (end == line || *end != ' ' || errno != 0 || t != turn)
			continue;
		n = strtoul(end + 1, &addr, 10);
		if (addr == end + 1 || *addr != ' ' || errno != 0 ||
		    n > 1000000 || addr[1] == '\0' ||
		    strchr(addr + 1, ' ') != NULL)
			continue;
		answers_of(a, addr + 1)->n = (unsigned)n;
	}
	free(buf);
	free(path);
}

unsigned
crown_received_answered(struct crown_answers *a, const char *addr)
{
	return answers_of(a, addr)->n;
}

bool
crown_received_answer(struct crown_answers *a, const char *addr,
    unsigned max)
{
	struct crown_answered	*w = answers_of(a, addr);

	if (w->n >= max)
		return false;
	w->n++;
	a->more = true;
	return true;
}

int
crown_received_answers_write(struct crown_answers *a, const char *dir,
    int turn, struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	char			*path;
	size_t			 i;
	int			 e;

	if (!a->more)
		return 0;
	crown_buf_puts(&b, "");
	for (i = 0; i < a->n; i++)
		if (a->v[i].n > 0)
			crown_buf_printf(&b, "%d %u %s\n", turn, a->v[i].n,
			    a->v[i].addr);
	path = crown_roster_private(dir, ANSWERS_NAME);
	if ((e = crown_put_file(path, b.data, b.len, 0600, true)) != 0)
		crown_diag_add(d, path, 0, 0, NULL, "cannot write the count "
		    "of answers: %s", strerror(e));
	else
		a->more = false;
	free(path);
	crown_buf_release(&b);
	return e != 0 ? CROWN_EWRITE : 0;
}

void
crown_received_answers_release(struct crown_answers *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		free(a->v[i].addr);
	free(a->v);
	memset(a, 0, sizeof(*a));
}
