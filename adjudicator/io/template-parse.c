/*
 * template-parse.c: report templates read (template.h): a template is
 * tokenised with PCRE2 (a pattern finds the tags; their names are checked
 * by hand), then built into a tree of text, value, section and partial
 * nodes (template-parse.h) that template.c renders; sets of templates,
 * loaded from a folder with their partials, every problem reported.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <errno.h>
#include <pcre2.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/template-parse.h"
#include "crown/template.h"
#include "crown/xalloc.h"

#define MAX_TEMPLATE_BYTES	(1024 * 1024)

/*
 * What one render may do by default (crown_tmpl_set_limits): tags and
 * pieces of text visited, and bytes written.  A report of 10,000 units a
 * side visits a few million and writes some 15 MB; sections of a list
 * inside themselves would go on for ever (3^100 visits) without the
 * first.
 */
#define MAX_RENDER_STEPS	(100UL * 1000 * 1000)
#define MAX_RENDER_BYTES	((size_t)256 * 1024 * 1024)

/*
 * A tag: "{{", then a comment (which may span lines), a triple mustache,
 * or anything else up to "}}" on the same line.  The inside is group 1.
 */
static const char tag_pattern[] =
    "\\{\\{((?s:!.*?)|\\{[^\\n]*?\\}|[^\\n]*?)\\}\\}";

/* A token of the source, before the tree is built. */
enum tok_kind {
	T_TEXT, T_VAR, T_RAW, T_SECTION, T_INVERTED, T_CLOSE, T_PARTIAL,
	T_COMMENT
};

struct token {
	enum tok_kind	 kind;
	size_t		 start, end;	/* the tag, or the text */
	size_t		 name_off, name_len;
	unsigned	 line, col;
};

static void
pcre2_text(int code, char *buf, size_t len)
{
	if (pcre2_get_error_message(code, (PCRE2_UCHAR *)buf, len) < 0)
		snprintf(buf, len, "PCRE2 error %d", code);
}

static pcre2_code *
compile(const char *pattern, struct crown_diags *d)
{
	pcre2_code	*re;
	PCRE2_SIZE	 off;
	char		 msg[256];
	int		 code;

	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
	    &code, &off, NULL);
	if (re == NULL) {
		pcre2_text(code, msg, sizeof(msg));
		crown_diag_add(d, "templates", 0, 0, NULL, "internal error: "
		    "pattern '%s' at offset %zu: %s", pattern, (size_t)off,
		    msg);
	}
	return re;
}

static int
set_compile(struct crown_tmpl_set *set, struct crown_diags *d)
{
	if (set->md != NULL || set->re_error != 0)
		return set->re_error;
	set->tag_re = compile(tag_pattern, d);
	if (set->tag_re == NULL)
		return set->re_error = CROWN_ERROR;
	set->md = pcre2_match_data_create_from_pattern(set->tag_re, NULL);
	if (set->md == NULL)
		return set->re_error = CROWN_ERROR;
	return 0;
}

/* Line and column (characters, from 1) of offset off, moving forward. */
struct cursor {
	const char	*text;
	size_t		 off;
	unsigned	 line, col;
};

static void
cursor_to(struct cursor *c, size_t off)
{
	for (; c->off < off; c->off++) {
		if (c->text[c->off] == '\n') {
			c->line++;
			c->col = 1;
		} else if (((unsigned char)c->text[c->off] & 0xc0) != 0x80)
			c->col++;
	}
}

static void
node_free(struct node *n)
{
	size_t	i;

	for (i = 0; i < n->nchild; i++)
		node_free(&n->child[i]);
	free(n->child);
	free(n->seg);
	free(n->s);
}

/* Split a value or section's name into its hashed parts. */
static void
node_name(struct node *n)
{
	static const struct {
		const char	*name;
		enum special	 sp;
	} specials[] = {
		{ "_index", SP_INDEX }, { "_first", SP_FIRST },
		{ "_last", SP_LAST }
	};
	const char	*p, *dot;
	size_t		 i;

	if (strcmp(n->s, ".") == 0) {
		n->special = SP_DOT;
		return;
	}
	for (p = n->s; p != NULL; p = dot != NULL ? dot + 1 : NULL) {
		struct seg *g;

		dot = strchr(p, '.');
		n->seg = xreallocarray(n->seg, n->nseg + 1, sizeof(*n->seg));
		g = &n->seg[n->nseg++];
		g->s = p;
		g->len = dot != NULL ? (size_t)(dot - p) : strlen(p);
		g->hash = crown_tkey_hash(p, g->len);
		g->bits = bloom_bits(g->hash);
		g->tree = 0;
		g->key = NULL;
	}
	for (i = 0; i < CROWN_NELEM(specials); i++)
		if (strlen(specials[i].name) == n->seg[0].len &&
		    strncmp(n->s, specials[i].name, n->seg[0].len) == 0)
			n->special = specials[i].sp;
}

static struct node *
node_add(struct node *parent, enum node_kind kind, const char *s,
    size_t len, unsigned line, unsigned col)
{
	struct node	*n;

	crown_grow(&parent->child, &parent->capchild, parent->nchild + 1,
	    sizeof(*parent->child));
	n = &parent->child[parent->nchild++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	/* all len bytes: a template's text may hold NUL bytes */
	n->s = xmalloc(len + 1);
	memcpy(n->s, s, len);
	n->s[len] = '\0';
	n->len = len;
	n->line = line;
	n->col = col;
	if (kind != N_TEXT && kind != N_PARTIAL)
		node_name(n);
	return n;
}

static const char *
tok_sigil(enum tok_kind k)
{
	switch (k) {
	case T_SECTION:
		return "#";
	case T_INVERTED:
		return "^";
	case T_CLOSE:
		return "/";
	case T_PARTIAL:
		return ">";
	default:
		return "";
	}
}

/* A byte of a name's words: A-Z a-z 0-9 _ - (not isalnum: the locale's
 * letters are not the templates'). */
static bool
name_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* A name: "." or dotted words.  By hand, not with a pattern: a match
 * data and a match a tag were a quarter of reading the templates. */
static bool
name_ok(const char *s, size_t len)
{
	size_t	i, word = 0;

	if (len == 1 && s[0] == '.')
		return true;
	for (i = 0; i < len; i++) {
		if (name_char((unsigned char)s[i]))
			word++;
		else if (s[i] == '.' && word > 0)
			word = 0;
		else
			return false;
	}
	return word > 0;
}

/*
 * Classify the inside of a tag [is, ie) into tok; false (with a
 * diagnostic) when it is malformed.
 */
static bool
classify(struct crown_tmpl_set *set, struct tmpl *t, const char *text,
    size_t is, size_t ie, struct token *tok, struct crown_diags *d)
{
	size_t	ns, ne;

	tok->kind = T_VAR;
	ns = is;
	ne = ie;
	if (is < ie) {
		switch (text[is]) {
		case '!':
			tok->kind = T_COMMENT;
			return true;
		case '{':
			if (ie - is < 2 || text[ie - 1] != '}') {
				crown_diag_add(d, t->file, tok->line, tok->col,
				    NULL, "'{{{' is not closed by '}}}'");
				return false;
			}
			tok->kind = T_RAW;
			ns = is + 1;
			ne = ie - 1;
			break;
		case '&':
			tok->kind = T_RAW;
			ns++;
			break;
		case '#':
			tok->kind = T_SECTION;
			ns++;
			break;
		case '^':
			tok->kind = T_INVERTED;
			ns++;
			break;
		case '/':
			tok->kind = T_CLOSE;
			ns++;
			break;
		case '>':
			tok->kind = T_PARTIAL;
			ns++;
			break;
		case '=':
			crown_diag_add(d, t->file, tok->line, tok->col, NULL,
			    "changing the delimiters ('{{=') is not "
			    "supported");
			return false;
		default:
			break;
		}
	}
	while (ns < ne && isspace((unsigned char)text[ns]))
		ns++;
	while (ne > ns && isspace((unsigned char)text[ne - 1]))
		ne--;
	tok->name_off = ns;
	tok->name_len = ne - ns;
	if (ne == ns) {
		crown_diag_add(d, t->file, tok->line, tok->col, NULL,
		    "a tag without a name: '%.*s'", (int)(ie - is + 4),
		    text + is - 2);
		return false;
	}
	if (!name_ok(text + ns, ne - ns) || (tok->kind == T_PARTIAL &&
	    ne - ns == 1 && text[ns] == '.')) {
		crown_diag_add(d, t->file, tok->line, tok->col, NULL,
		    "bad name '%.*s' in '{{%s' (names are words of letters, "
		    "digits, '_' and '-' joined by '.')", (int)(ne - ns),
		    text + ns, tok_sigil(tok->kind));
		return false;
	}
	return true;
}

/* Report each "{{" of a stretch of text: a tag that was never closed. */
static int
stray_opens(struct tmpl *t, const char *text, size_t from, size_t to,
    struct cursor *cur, struct crown_diags *d)
{
	size_t	i;
	int	bad = 0;

	for (i = from; i + 1 < to; i++) {
		if (text[i] != '{' || text[i + 1] != '{')
			continue;
		cursor_to(cur, i);
		crown_diag_add(d, t->file, cur->line, cur->col, NULL,
		    "'{{' is not closed by '}}' on its line");
		bad = 1;
		while (i + 1 < to && text[i + 1] == '{')
			i++;
	}
	return bad;
}

/*
 * A section, comment or partial tag alone on its line takes the line
 * with it: widen [start, end) to the line's start and past its newline.
 */
static void
standalone(const char *text, size_t len, struct token *tok)
{
	size_t	ls = tok->start, le = tok->end;

	while (ls > 0 && (text[ls - 1] == ' ' || text[ls - 1] == '\t'))
		ls--;
	if (ls > 0 && text[ls - 1] != '\n')
		return;
	while (le < len && (text[le] == ' ' || text[le] == '\t'))
		le++;
	if (le + 1 < len && text[le] == '\r' && text[le + 1] == '\n')
		le += 2;
	else if (le < len && text[le] == '\n')
		le++;
	else if (le != len)
		return;
	tok->start = ls;
	tok->end = le;
}

/* Tokenise text into *toks (caller frees); 0 or CROWN_EINVALID. */
static int
tokenise(struct crown_tmpl_set *set, struct tmpl *t, const char *text,
    size_t len, struct token **toks, size_t *ntoks, struct crown_diags *d)
{
	struct token	 tok;
	struct cursor	 cur = { text, 0, 1, 1 };
	PCRE2_SIZE	*ov;
	size_t		 pos = 0, cap = 0;
	char		 msg[256];
	int		 rc, bad = 0;

	*toks = NULL;
	*ntoks = 0;
	for (;;) {
		rc = pcre2_match(set->tag_re, (PCRE2_SPTR)text, len, pos, 0,
		    set->md, NULL);
		if (rc == PCRE2_ERROR_NOMATCH)
			break;
		if (rc < 0) {
			pcre2_text(rc, msg, sizeof(msg));
			cursor_to(&cur, pos);
			crown_diag_add(d, t->file, cur.line, cur.col, NULL,
			    "cannot read the template: %s", msg);
			return CROWN_EINVALID;
		}
		ov = pcre2_get_ovector_pointer(set->md);
		bad |= stray_opens(t, text, pos, ov[0], &cur, d);
		memset(&tok, 0, sizeof(tok));
		tok.start = ov[0];
		tok.end = ov[1];
		cursor_to(&cur, ov[0]);
		tok.line = cur.line;
		tok.col = cur.col;
		if (!classify(set, t, text, ov[2], ov[3], &tok, d))
			bad = 1;
		else {
			if (tok.kind != T_VAR && tok.kind != T_RAW)
				standalone(text, len, &tok);
			crown_grow(toks, &cap, *ntoks + 1, sizeof(**toks));
			(*toks)[(*ntoks)++] = tok;
		}
		pos = ov[1];
	}
	bad |= stray_opens(t, text, pos, len, &cur, d);
	return bad ? CROWN_EINVALID : 0;
}

/* Build t->root from the tokens; every problem to d. */
static int
build(struct tmpl *t, const char *text, size_t len,
    const struct token *toks, size_t ntoks, struct crown_diags *d)
{
	struct node	*stack[MAX_NEST + 1];
	struct node	*top, *n;
	size_t		 depth = 0, pos = 0, i;
	int		 bad = 0;
	const char	*name;

	stack[0] = &t->root;
	for (i = 0; i <= ntoks; i++) {
		size_t end = i < ntoks ? toks[i].start : len;
		const struct token *k;

		top = stack[depth];
		if (end > pos)
			node_add(top, N_TEXT, text + pos, end - pos, 0, 0);
		if (i == ntoks)
			break;
		k = &toks[i];
		pos = k->end;
		name = text + k->name_off;
		switch (k->kind) {
		case T_COMMENT:
			break;
		case T_VAR:
		case T_RAW:
		case T_PARTIAL:
			node_add(top, k->kind == T_VAR ? N_VAR : k->kind ==
			    T_RAW ? N_RAW : N_PARTIAL, name, k->name_len,
			    k->line, k->col);
			break;
		case T_SECTION:
		case T_INVERTED:
			n = node_add(top, k->kind == T_SECTION ? N_SECTION :
			    N_INVERTED, name, k->name_len, k->line, k->col);
			if (depth == MAX_NEST) {
				crown_diag_add(d, t->file, k->line, k->col,
				    NULL, "sections nest deeper than %d",
				    MAX_NEST);
				return CROWN_EINVALID;
			}
			stack[++depth] = n;
			break;
		case T_CLOSE:
			if (depth == 0) {
				crown_diag_add(d, t->file, k->line, k->col,
				    NULL, "'{{/%.*s}}' closes no section",
				    (int)k->name_len, name);
				bad = 1;
				break;
			}
			if (strlen(top->s) != k->name_len ||
			    strncmp(top->s, name, k->name_len) != 0) {
				crown_diag_add(d, t->file, k->line, k->col,
				    NULL, "'{{/%.*s}}' does not close "
				    "'{{%s%s}}' (opened at line %u, column "
				    "%u)", (int)k->name_len, name,
				    top->kind == N_SECTION ? "#" : "^",
				    top->s, top->line, top->col);
				bad = 1;
			}
			depth--;
			break;
		default:
			break;
		}
	}
	for (; depth > 0; depth--) {
		top = stack[depth];
		crown_diag_add(d, t->file, top->line, top->col, NULL,
		    "'{{%s%s}}' is never closed", top->kind == N_SECTION ?
		    "#" : "^", top->s);
		bad = 1;
	}
	return bad ? CROWN_EINVALID : 0;
}

static struct tmpl *
tmpl_find(const struct crown_tmpl_set *set, const char *name)
{
	size_t	i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->v[i]->name, name) == 0)
			return set->v[i];
	return NULL;
}

static struct tmpl *
tmpl_new(struct crown_tmpl_set *set, const char *name, const char *file)
{
	struct tmpl	*t;

	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->file = xstrdup(file);
	crown_grow(&set->v, &set->cap, set->n + 1, sizeof(*set->v));
	set->v[set->n++] = t;
	return t;
}

/* Load every partial that the nodes under n name. */
static int
load_partials(struct crown_tmpl_set *set, const struct tmpl *t,
    struct node *n, struct crown_diags *d)
{
	struct tmpl	*p;
	size_t		 i;
	int		 error, worst = 0;

	for (i = 0; i < n->nchild; i++) {
		struct node *c = &n->child[i];

		error = 0;
		if (c->kind == N_PARTIAL &&
		    (error = crown_tmpl_load_at(set, c->s, d, t, c, &p)) == 0)
			c->partial = p;
		else if (c->kind == N_SECTION || c->kind == N_INVERTED)
			error = load_partials(set, t, c, d);
		if (error == CROWN_ENOTFOUND || worst == 0)
			worst = error != 0 ? error : worst;
	}
	return worst;
}

static int
parse_into(struct crown_tmpl_set *set, struct tmpl *t, const char *text,
    size_t len, struct crown_diags *d)
{
	struct token	*toks = NULL;
	size_t		 ntoks = 0;
	int		 error;

	if ((error = set_compile(set, d)) != 0)
		return t->error = error;
	/* build from the good tags even after a bad one, so that every
	 * problem of the file is reported at once */
	error = tokenise(set, t, text, len, &toks, &ntoks, d);
	if (build(t, text, len, toks, ntoks, d) != 0)
		error = CROWN_EINVALID;
	free(toks);
	if (error != 0)
		return t->error = error;
	return t->error = load_partials(set, t, &t->root, d);
}

int
crown_tmpl_set_add(struct crown_tmpl_set *set, const char *name,
    const char *text, size_t len, struct crown_diags *d)
{
	struct tmpl	*t;
	char		*file;

	file = xasprintf("%s.tmpl", name);
	t = tmpl_new(set, name, file);
	free(file);
	return parse_into(set, t, text, len, d);
}

/* Read a template file; CROWN_ENOTFOUND (no diagnostic) if absent. */
static int
read_template(char **out, size_t *len, const char *path,
    struct crown_diags *d)
{
	struct crown_buf	 b = { 0 };
	FILE			*fp;
	char			 chunk[8192];
	size_t			 n;

	*out = NULL;
	if ((fp = fopen(path, "rb")) == NULL) {
		if (errno == ENOENT || errno == ENOTDIR)
			return CROWN_ENOTFOUND;
		crown_diag_add(d, path, 0, 0, NULL, "cannot read template: %s",
		    strerror(errno));
		return CROWN_EINVALID;
	}
	crown_buf_puts(&b, "");
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		crown_buf_add(&b, chunk, n);
		if (b.len > MAX_TEMPLATE_BYTES) {
			fclose(fp);
			crown_buf_release(&b);
			crown_diag_add(d, path, 0, 0, NULL, "template larger "
			    "than %d bytes", MAX_TEMPLATE_BYTES);
			return CROWN_EINVALID;
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		crown_buf_release(&b);
		crown_diag_add(d, path, 0, 0, NULL, "cannot read template");
		return CROWN_EINVALID;
	}
	fclose(fp);
	*out = b.data;
	*len = b.len;
	return 0;
}

static void
not_found(const struct tmpl *t, const struct tmpl *from,
    const struct node *tag, struct crown_diags *d)
{
	if (from != NULL)
		crown_diag_add(d, from->file, tag->line, tag->col, NULL,
		    "no partial '%s' (looked for %s)", t->name, t->file);
	else
		crown_diag_add(d, t->file, 0, 0, NULL, "no template '%s'",
		    t->name);
}

/*
 * Load template `name` into the set (once).  from and tag: the template
 * and partial tag that asked for it, for the diagnostic when it is
 * missing.
 */
int
crown_tmpl_load_at(struct crown_tmpl_set *set, const char *name,
    struct crown_diags *d, const struct tmpl *from, const struct node *tag, struct tmpl **out)
{
	struct tmpl	*t;
	char		*path, *text = NULL;
	size_t		 len = 0;
	int		 error;

	if ((t = *out = tmpl_find(set, name)) != NULL) {
		/* known already: say so again where it is asked for, so that
		 * every failure comes with its reason */
		if (t->error == CROWN_ENOTFOUND)
			not_found(t, from, tag, d);
		else if (t->error != 0 && from == NULL)
			crown_diag_add(d, t->file, 0, 0, NULL, "template '%s' "
			    "cannot be used: its problems were reported when "
			    "it was read", name);
		return t->error;
	}
	path = set->dir != NULL ? xasprintf("%s/%s.tmpl", set->dir, name) :
	    xasprintf("%s.tmpl", name);
	t = *out = tmpl_new(set, name, path);
	free(path);
	error = set->dir != NULL ? read_template(&text, &len, t->file, d) :
	    CROWN_ENOTFOUND;
	if (error == CROWN_ENOTFOUND)
		not_found(t, from, tag, d);
	if (error != 0)
		return t->error = error;
	error = parse_into(set, t, text, len, d);
	free(text);
	return error;
}

struct crown_tmpl_set *
crown_tmpl_set_new(const char *dir)
{
	struct crown_tmpl_set	*set;

	set = xcalloc(1, sizeof(*set));
	set->dir = dir != NULL ? xstrdup(dir) : NULL;
	set->max_steps = MAX_RENDER_STEPS;
	set->max_bytes = MAX_RENDER_BYTES;
	return set;
}

void
crown_tmpl_set_free(struct crown_tmpl_set *set)
{
	size_t	i;

	if (set == NULL)
		return;
	for (i = 0; i < set->n; i++) {
		node_free(&set->v[i]->root);
		free(set->v[i]->name);
		free(set->v[i]->file);
		free(set->v[i]);
	}
	free(set->v);
	pcre2_match_data_free(set->md);
	pcre2_code_free(set->tag_re);
	free(set->dir);
	free(set);
}

void
crown_tmpl_set_limits(struct crown_tmpl_set *set, unsigned long max_steps,
    size_t max_bytes)
{
	set->max_steps = max_steps;
	set->max_bytes = max_bytes;
}

int
crown_tmpl_load(struct crown_tmpl_set *set, const char *name,
    struct crown_diags *d)
{
	struct tmpl	*t;

	return crown_tmpl_load_at(set, name, d, NULL, NULL, &t);
}
