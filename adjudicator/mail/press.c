/*
 * press.c: press between the sides (press.h): the "to:" line and the
 * text of a press mail, the mails that relay it, the answer to its
 * sender, and the files of .git/crown-press.  crown inbox (inbox.c)
 * identifies the sender and decides; crown site lists what is kept.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crown/calendar.h"
#include "crown/mail.h"
#include "crown/orders-read.h"
#include "crown/plaintext.h"
#include "crown/press.h"
#include "crown/roster.h"
#include "crown/xalloc.h"
#include "crown/yaml.h"

static const char *skip_word(const char *, const char *);
static const char *side_name(const struct crown_side *);
static void	add_to(struct crown_press *, const struct crown_state *, int);
static int	read_to(struct crown_press *, struct crown_buf *,
		    const struct crown_state *, int, const char *, size_t);
static void	keep_text(struct crown_press *, const char *);
static void	quoted(struct crown_buf *, const char *);
static void	to_names(struct crown_buf *, const struct crown_press *,
		    const struct crown_state *);
static void	read_one(struct crown_press_list *, const char *,
		    const char *, struct crown_diags *);
static int	cmp_name(const void *, const void *);

/* s after word (any case) and blanks, or NULL when s does not begin
 * with it. */
static const char *
skip_word(const char *s, const char *word)
{
	size_t	n = strlen(word);

	if (strncasecmp(s, word, n) != 0)
		return NULL;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static const char *
side_name(const struct crown_side *sd)
{
	return sd->name != NULL ? sd->name : sd->id;
}

bool
crown_press_subject(const char *subject, const char **rest)
{
	static const char *const replies[] = { "re:", "fwd:", "fw:" };
	const char	*s = subject, *t;
	size_t		 i;

	if (s == NULL)
		return false;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		for (i = 0; i < CROWN_NELEM(replies); i++)
			if ((t = skip_word(s, replies[i])) != NULL)
				break;
		if (i == CROWN_NELEM(replies))
			break;
		s = t;
	}
	if ((t = skip_word(s, "press:")) == NULL)
		return false;
	if (rest != NULL)
		*rest = t;
	return true;
}

/* Side k of s among p's, once, in the state's order. */
static void
add_to(struct crown_press *p, const struct crown_state *s, int k)
{
	size_t	i, at;

	for (i = 0; i < p->nto; i++)
		if (strcmp(p->to[i], s->sides[k].id) == 0)
			return;
	for (at = 0; at < p->nto && crown_state_side(s, p->to[at]) < k; at++)
		;
	p->to = xreallocarray(p->to, p->nto + 1, sizeof(*p->to));
	memmove(p->to + at + 1, p->to + at, (p->nto - at) * sizeof(*p->to));
	p->to[at] = xstrdup(s->sides[k].id);
	p->nto++;
}

/*
 * The "to:" line, line[0, len): side ids, or "all", parted by commas or
 * blanks.  Every problem to why; CROWN_EINVALID when there is one.
 */
static int
read_to(struct crown_press *p, struct crown_buf *why,
    const struct crown_state *s, int from, const char *line, size_t len)
{
	struct crown_buf	 sides = { 0 };
	char			*l = xstrndup(line, len), *w, *next;
	size_t			 i, n;
	int			 k, error = 0;

	crown_buf_puts(&sides, "");
	for (i = 0; i < s->nsides; i++)
		crown_buf_printf(&sides, "%s, ", s->sides[i].id);
	for (w = l; *w != '\0'; w = next) {
		n = strcspn(w, ", \t");
		next = w + n + strspn(w + n, ", \t");
		w[n] = '\0';
		/* ids are lower case: "to: Republic" means it */
		for (i = 0; i < n; i++)
			if (w[i] >= 'A' && w[i] <= 'Z')
				w[i] = (char)(w[i] - 'A' + 'a');
		if (strcmp(w, "all") == 0) {
			for (i = 0; i < s->nsides; i++)
				if ((int)i != from)
					add_to(p, s, (int)i);
		} else if ((k = crown_state_side(s, w)) < 0) {
			crown_buf_printf(why, "message: error: '%.40s' is not "
			    "a side of %s: name %sor all\n", w, s->name,
			    sides.data);
			error = CROWN_EINVALID;
		} else if (k == from) {
			crown_buf_printf(why, "message: error: '%s' is your "
			    "own side: its other players get a copy of the "
			    "press you send to the others\n", w);
			error = CROWN_EINVALID;
		} else
			add_to(p, s, k);
	}
	if (error == 0 && p->nto == 0) {
		crown_buf_printf(why, "message: error: the press goes to no "
		    "side: name %sor all\n", sides.data);
		error = CROWN_EINVALID;
	}
	crown_buf_release(&sides);
	free(l);
	return error;
}

/* What follows the "to:" line, as relayed: printable, blank lines at
 * either end dropped, a run of them one. */
static void
keep_text(struct crown_press *p, const char *rest)
{
	struct crown_buf	 b = { 0 };
	char			*clean = crown_mail_printable(rest, true);
	const char		*l, *e;
	size_t			 blank = 0, n;

	crown_buf_puts(&b, "");
	for (l = clean; *l != '\0'; l = *e != '\0' ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		for (n = (size_t)(e - l); n > 0 && l[n - 1] == ' '; n--)
			;
		if (n == 0) {
			blank++;
			continue;
		}
		if (b.len > 0)
			crown_buf_puts(&b, blank > 0 ? "\n\n" : "\n");
		blank = 0;
		crown_buf_add(&b, l, n);
	}
	if (b.len > 0)
		crown_buf_puts(&b, "\n");
	p->text = b.data != NULL ? b.data : xstrdup("");
	free(clean);
}

int
crown_press_read(struct crown_press *out, char **password,
    struct crown_buf *why, const struct crown_state *s, int from,
    const struct crown_mail *m)
{
	struct crown_orders_read r;
	const char		*rest, *l, *e, *t;
	int			 error = 0;

	*password = NULL;
	out->turn = s->turn + 1;
	(void)crown_press_subject(m->subject, &rest);
	out->subject = crown_mail_printable(rest, false);
	if (m->text == NULL) {
		crown_buf_printf(why, "message: error: no plain text: send "
		    "the press as plain text, its first line 'to: SIDE' "
		    "(or 'to: all')\n");
		return CROWN_EINVALID;
	}
	/* the one reader's text: no password, quotation or signature */
	crown_orders_read_text(&r, m->text, m->text_len);
	*password = r.password;
	r.password = NULL;
	for (l = r.text; *l != '\0'; l = *e != '\0' ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		if (strspn(l, " \t\r") < (size_t)(e - l))
			break;
	}
	while (*l == ' ' || *l == '\t')
		l++;
	if (from < 0) {
		crown_buf_printf(why, "message: error: you play more than one "
		    "side, and press comes from one: ask the umpire\n");
		error = CROWN_EINVALID;
	} else if ((t = skip_word(l, "to:")) == NULL) {
		crown_buf_printf(why, "message: error: the first line of a "
		    "press says where it goes: 'to: SIDE', 'to: SIDE, SIDE' "
		    "or 'to: all'\n");
		error = CROWN_EINVALID;
	} else {
		out->from = xstrdup(s->sides[from].id);
		e = t + strcspn(t, "\n");
		error = read_to(out, why, s, from, t, (size_t)(e - t) -
		    (e > t && e[-1] == '\r'));
		keep_text(out, e);
		if (error == 0 && out->text[0] == '\0') {
			crown_buf_printf(why, "message: error: nothing to "
			    "relay after the 'to:' line\n");
			error = CROWN_EINVALID;
		}
	}
	crown_orders_read_release(&r);
	return error;
}

/* text as quoted lines, each filled to the mail's width. */
static void
quoted(struct crown_buf *b, const char *text)
{
	const char	*l, *e;

	for (l = text; *l != '\0'; l = *e != '\0' ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		if (e == l)
			crown_buf_puts(b, ">\n");
		else
			crown_text_fill(b, l, (size_t)(e - l),
			    CROWN_MAIL_WIDTH, "> ", "> ");
	}
}

/* "the Mexican Republic command and the ... command" */
static void
to_names(struct crown_buf *b, const struct crown_press *p,
    const struct crown_state *s)
{
	size_t	i;
	int	k;

	for (i = 0; i < p->nto; i++) {
		k = crown_state_side(s, p->to[i]);
		crown_buf_printf(b, "%sthe %s command", i == 0 ? "" :
		    i + 1 == p->nto ? " and " : ", ", k >= 0 ?
		    side_name(&s->sides[k]) : p->to[i]);
	}
}

int
crown_press_relay(struct crown_outputs *mails, const struct crown_press *p,
    const struct crown_state *s, const struct crown_person *player,
    long long date, size_t *sent)
{
	const struct crown_side	*sd, *own;
	struct crown_buf	 body = { 0 }, text = { 0 };
	char			*subject, *head, *sig;
	size_t			 i, j;
	int			 error = 0;

	*sent = 0;
	own = &s->sides[crown_state_side(s, p->from)];
	subject = xasprintf("[%s] Press: %s", s->name, p->subject);
	crown_buf_puts(&body, "\n");
	quoted(&body, p->text);
	crown_buf_puts(&body, "\n-- \n");
	sig = xasprintf("crown, umpiring %s: press relayed by the umpire. "
	    "To answer, mail the umpire with a subject beginning \"Press:\" "
	    "and the first line \"to: %s\".", s->name, own->id);
	crown_text_fill(&body, sig, strlen(sig), CROWN_MAIL_WIDTH, "", "");
	free(sig);
	for (i = 0; i < s->nsides && error == 0; i++) {
		sd = &s->sides[i];
		/* the sides named, and the sender's own, for the copy */
		for (j = 0; j < p->nto; j++)
			if (strcmp(p->to[j], sd->id) == 0)
				break;
		if (j == p->nto && sd != own)
			continue;
		text.len = 0;
		crown_buf_puts(&text, "");
		if (sd != own)
			head = xasprintf("From the %s command:",
			    side_name(own));
		else {
			to_names(&text, p, s);
			head = xasprintf("From the %s command (sent by %s "
			    "<%s>), to %s:", side_name(own), player->name != NULL ?
			    player->name : player->email, player->email,
			    text.data);
			text.len = 0;
		}
		crown_text_fill(&text, head, strlen(head), CROWN_MAIL_WIDTH,
		    "", "");
		free(head);
		crown_buf_add(&text, body.data, body.len);
		for (j = 0; j < sd->nplayers && error == 0; j++) {
			if (!crown_mail_addr_ok(sd->players[j].email) ||
			    strcasecmp(sd->players[j].email,
			    player->email) == 0)
				continue;
			if ((error = crown_mail_to(mails, s, &sd->players[j],
			    subject, text.data, NULL, 0, date)) == 0)
				(*sent)++;
		}
	}
	crown_buf_release(&text);
	crown_buf_release(&body);
	free(subject);
	return error;
}

void
crown_press_answer(struct crown_buf *b, const struct crown_press *p,
    const struct crown_state *s, size_t sent, const struct crown_mail *m)
{
	struct crown_buf	 to = { 0 };
	const char		*l, *e;
	size_t			 i, n;

	/* lines as they are: the inbox fills its answers (inbox.c) */
	crown_buf_puts(&to, "");
	to_names(&to, p, s);
	crown_buf_printf(b, "Your press \"%s\" was relayed to %s, from "
	    "the umpire, naming your side and not you (%zu mail%s, the "
	    "copies to the other players of your side among them).\n",
	    p->subject, to.data, sent, sent == 1 ? "" : "s");
	n = m->nyaml + m->nignored + m->nforwarded;
	if (n > 0) {
		crown_buf_puts(b, "\nAttachments are never relayed; these "
		    "were not:\n\n");
		for (i = 0; i < m->nyaml; i++)
			crown_buf_printf(b, "  %s\n", m->yaml[i].name[0] !=
			    '\0' ? m->yaml[i].name : "(a file without a "
			    "name)");
		for (i = 0; i < m->nignored; i++)
			crown_buf_printf(b, "  %s\n", m->ignored[i].name[0] !=
			    '\0' ? m->ignored[i].name : m->ignored[i].type);
		for (i = 0; i < m->nforwarded; i++)
			crown_buf_puts(b, "  a forwarded message\n");
	}
	crown_buf_puts(b, "\nWhat was relayed:\n\n");
	for (l = p->text; *l != '\0'; l = *e != '\0' ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		crown_buf_printf(b, "%s%.*s\n", e > l ? "  " : "",
		    (int)(e - l), l);
	}
	crown_buf_release(&to);
}

int
crown_press_make(struct crown_press *p, struct crown_outputs *mails,
    struct crown_buf *file, const struct crown_state *s,
    const struct crown_person *player, const char *hash, long long at,
    size_t seq, size_t *sent)
{
	char	when[CROWN_CAL_TIME_LEN];
	int	error;

	crown_cal_format_time(when, sizeof(when), at);
	p->delivered = xstrdup(when);
	p->hash = xstrdup(hash);
	p->sender = xstrdup(player->email);
	p->name = crown_press_name(seq, hash);
	if ((error = crown_press_relay(mails, p, s, player, at, sent)) != 0)
		return error;
	crown_press_emit(file, p);
	return 0;
}

int
crown_press_keep(const char *dir, const char *outbox, const char *name,
    const struct crown_buf *data, struct crown_diags *d)
{
	char	*folder, *path;
	int	 e, error;

	/* after the mails that relay it are on disk */
	folder = xasprintf("%s/new", outbox);
	(void)crown_sync_path(folder);
	free(folder);
	folder = crown_roster_private(dir, CROWN_PRESS_DIR);
	path = xasprintf("%s/%s", folder, name);
	if ((error = crown_mkdirs(folder, d)) == 0 &&
	    (e = crown_put_file(path, data->data, data->len, 0600,
	    true)) != 0) {
		crown_diag_add(d, path, 0, 0, NULL, "cannot write: %s",
		    strerror(e));
		error = CROWN_EWRITE;
	}
	if (error == 0)
		(void)crown_sync_path(folder);
	free(path);
	free(folder);
	return error;
}

void
crown_press_emit(struct crown_buf *out, const struct crown_press *p)
{
	struct crown_yemit	*e = crown_yemit_new(out);
	size_t			 i;

	crown_yemit_map(e, false);
	crown_yemit_kint(e, "turn", p->turn);
	crown_yemit_kstr(e, "delivered", p->delivered);
	crown_yemit_kstr(e, "message", p->hash);
	crown_yemit_kstr(e, "from", p->from);
	crown_yemit_kstr(e, "sender", p->sender);
	crown_yemit_str(e, "to");
	crown_yemit_seq(e, true);
	for (i = 0; i < p->nto; i++)
		crown_yemit_str(e, p->to[i]);
	crown_yemit_end(e);
	crown_yemit_kstr(e, "subject", p->subject);
	crown_yemit_kstr(e, "text", p->text);
	crown_yemit_end(e);
	(void)crown_yemit_finish(e);
	crown_yemit_free(e);
}

char *
crown_press_name(size_t seq, const char *hash)
{
	return xasprintf("%06zu-%.16s.yaml", seq, hash);
}

static int
cmp_name(const void *a, const void *b)
{
	const struct crown_press	*x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* The press of file name in folder dir, added to l. */
static void
read_one(struct crown_press_list *l, const char *dir, const char *name,
    struct crown_diags *d)
{
	static const char *const keys[] = { "delivered", "message", "from",
	    "sender", "subject", "text" };
	struct crown_press	 p = { 0 };
	struct crown_ydoc	*doc = NULL;
	struct crown_diags	 quiet = { 0 };
	const struct crown_ynode *root, *v, *to;
	char			*path, **field[CROWN_NELEM(keys)];
	size_t			 i;

	field[0] = &p.delivered;
	field[1] = &p.hash;
	field[2] = &p.from;
	field[3] = &p.sender;
	field[4] = &p.subject;
	field[5] = &p.text;
	path = xasprintf("%s/%s", dir, name);
	if (crown_ydoc_load(&doc, path, &crown_ylimits_orders, &quiet) != 0 ||
	    (root = crown_ydoc_root(doc))->kind != CROWN_Y_MAP)
		goto bad;
	v = crown_ymap_get(root, "turn");
	if (v == NULL || v->kind != CROWN_Y_SCALAR)
		goto bad;
	p.turn = (int)strtol(v->str, NULL, 10);
	for (i = 0; i < CROWN_NELEM(keys); i++) {
		v = crown_ymap_get(root, keys[i]);
		if (v == NULL || v->kind != CROWN_Y_SCALAR)
			goto bad;
		*field[i] = xstrdup(v->str);
	}
	if ((to = crown_ymap_get(root, "to")) == NULL ||
	    to->kind != CROWN_Y_SEQ)
		goto bad;
	p.to = xcalloc(to->n + 1, sizeof(*p.to));
	for (i = 0; i < to->n; i++) {
		if (to->item[i]->kind != CROWN_Y_SCALAR)
			goto bad;
		p.to[p.nto++] = xstrdup(to->item[i]->str);
	}
	p.name = xstrdup(name);
	crown_press_take(l, &p);
	goto cleanup;
bad:
	crown_diag_warn(d, path, 0, 0, NULL, "not a press crown kept: left "
	    "out");
	crown_press_release(&p);
cleanup:
	crown_diags_release(&quiet);
	crown_ydoc_free(doc);
	free(path);
}

void
crown_press_load(struct crown_press_list *out, const char *dir,
    struct crown_diags *d)
{
	struct dirent	*e;
	DIR		*dp;
	char		*folder;
	size_t		 n;

	memset(out, 0, sizeof(*out));
	folder = crown_roster_private(dir, CROWN_PRESS_DIR);
	if ((dp = opendir(folder)) != NULL) {
		while ((e = readdir(dp)) != NULL) {
			n = strlen(e->d_name);
			/* a temporary of a killed run (.NAME.tmp.PID) is not
			 * one */
			if (e->d_name[0] == '.' || n < 5 ||
			    strcmp(e->d_name + n - 5, ".yaml") != 0)
				continue;
			read_one(out, folder, e->d_name, d);
		}
		closedir(dp);
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_name);
	free(folder);
}

const struct crown_press *
crown_press_find(const struct crown_press_list *l, const char *hash)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].hash, hash) == 0)
			return &l->v[i];
	return NULL;
}

bool
crown_press_of(const struct crown_press *p, const char *side)
{
	size_t	i;

	if (strcmp(p->from, side) == 0)
		return true;
	for (i = 0; i < p->nto; i++)
		if (strcmp(p->to[i], side) == 0)
			return true;
	return false;
}

void
crown_press_take(struct crown_press_list *l, struct crown_press *p)
{
	crown_grow(&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = *p;
	memset(p, 0, sizeof(*p));
}

void
crown_press_release(struct crown_press *p)
{
	size_t	i;

	for (i = 0; i < p->nto; i++)
		free(p->to[i]);
	free(p->to);
	free(p->name);
	free(p->delivered);
	free(p->hash);
	free(p->from);
	free(p->sender);
	free(p->subject);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

void
crown_press_list_release(struct crown_press_list *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		crown_press_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}
