/*
 * template.c: the mustache subset of the report templates (template.h):
 * the data tree they read, escaping for Markdown and XML, and rendering.
 *
 * A template is read into a tree of text, value, section and partial
 * nodes by template-parse.c.  Rendering walks the tree with a stack of
 * contexts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/template-parse.h"
#include "crown/template.h"
#include "crown/xalloc.h"

#define MAX_PARTIAL_DEPTH	32	/* partials inside partials */

/*
 * The data tree, carved out of an arena of chunks: a model of a large
 * turn has hundreds of thousands of small values, and one malloc and free
 * each were most of a report's cost.  A string or boolean is a bare
 * struct crown_tval; a list or map is a struct cont, which begins with
 * one.  Keys are interned: each distinct key is copied once.
 */

#define ARENA_FIRST	(64 * 1024)
#define ARENA_MAX	(1024 * 1024)
#define ARENA_ALIGN	_Alignof(struct cont)	/* values; strings need 1 */
#define KEYS_FIRST	256			/* interned keys' table */
/* The tree takes its values from the arena a block at a time, and
 * carves them out of the block inline: a call of crown_arena_alloc a
 * value was a twentieth of a large report's model. */
#define BLOCK		(16 * 1024)

/* A key as map_put last saw it at an address (mostly a literal). */
struct key_seen {
	const char	*at;		/* the caller's pointer */
	const char	*key;		/* its interned copy */
	uint32_t	 hash;
};
#define KEY_SEEN_BITS	10
#define KEY_SEEN	(1 << KEY_SEEN_BITS)

struct crown_tarena {
	struct crown_arena	 mem;
	char			*at, *end;	/* the block's free part */
	/* interned keys: open addressing, a power of two, under half full */
	const char		**keys;
	size_t			  nkeys, capkeys;
	struct key_seen		  seen[KEY_SEEN];
	uint64_t		  gen;	/* this tree, of all of the process's */
};

/* A list or a map. */
struct cont {
	struct crown_tval	 v;
	size_t			 n;
	/* a list's items in order; a map's values, the latest first */
	struct crown_tval	*first, *last;
	uint64_t		 bloom;		/* a map: two bits per key */
	struct crown_tarena	*arena;
	/* a list made by ref_new: its chain is another list's, copied
	 * before it grows (see list_add) */
	bool			 shared;
	/* a map whose values are put when first asked for
	 * (crown_tmap_getter); what get made, and the keys it has not
	 * (CROWN_T_NULL), go into `made`, which the map's references share,
	 * so that each is asked for once however many lists show the map */
	crown_tget		 get;
	const void		*get_arg;
	struct cont		*made;
};

static struct cont *
cont(const struct crown_tval *v)
{
	return (struct cont *)v;
}

static bool
is_cont(const struct crown_tval *v)
{
	return v->kind == CROWN_T_LIST || v->kind == CROWN_T_MAP;
}

/* arena_alloc of n bytes (rounded up) that the block has not room for:
 * a new block, or for a large value its own place in the arena. */
static void *
arena_more(struct crown_tarena *a, size_t n)
{
	char	*p;

	if (n > BLOCK / 4)
		return crown_arena_alloc(&a->mem, n, ARENA_ALIGN);
	p = crown_arena_alloc(&a->mem, BLOCK, ARENA_ALIGN);
	a->at = p + n;
	a->end = p + BLOCK;
	return p;
}

static inline void *
arena_alloc(struct crown_tarena *a, size_t n)
{
	char	*p;

	n = (n + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	if ((size_t)(a->end - a->at) < n)
		return arena_more(a, n);
	p = a->at;
	a->at += n;
	return p;
}

static char *
arena_strndup(struct crown_tarena *a, const char *s, size_t len)
{
	return crown_arena_strndup(&a->mem, s, len);
}

static struct crown_tval *
tval_new(struct crown_tarena *a, enum crown_tkind kind)
{
	struct crown_tval	*v;
	struct cont		*c;

	if (kind == CROWN_T_LIST || kind == CROWN_T_MAP) {
		c = arena_alloc(a, sizeof(*c));
		memset(c, 0, sizeof(*c));
		c->arena = a;
		v = &c->v;
	} else {
		v = arena_alloc(a, sizeof(*v));
		memset(v, 0, sizeof(*v));
	}
	v->kind = (unsigned char)kind;
	return v;
}

static struct crown_tval *
root_new(enum crown_tkind kind)
{
	struct crown_tarena	*a;

	static uint64_t		 trees;

	a = xcalloc(1, sizeof(*a));
	a->gen = ++trees;
	crown_arena_init(&a->mem, ARENA_FIRST, ARENA_MAX);
	a->capkeys = KEYS_FIRST;
	a->keys = xcalloc(a->capkeys, sizeof(*a->keys));
	return tval_new(a, kind);
}

struct crown_tval *
crown_tval_map(void)
{
	return root_new(CROWN_T_MAP);
}

struct crown_tval *
crown_tval_list(void)
{
	return root_new(CROWN_T_LIST);
}

void
crown_tval_free(struct crown_tval *v)
{
	struct crown_tarena	*a;

	if (v == NULL)
		return;
	a = cont(v)->arena;
	crown_arena_release(&a->mem);
	free(a->keys);
	free(a);
}

bool
crown_tval_truthy(const struct crown_tval *v)
{
	if (v == NULL)
		return false;
	switch (v->kind) {
	case CROWN_T_STR:
		return v->str[0] != '\0';
	case CROWN_T_BOOL:
		return v->b;
	case CROWN_T_LIST:
		return cont(v)->n > 0;
	case CROWN_T_MAP:
		return true;
	default:
		return false;
	}
}

size_t
crown_tval_count(const struct crown_tval *v)
{
	return v != NULL && is_cont(v) ? cont(v)->n : 0;
}

/* The tree's copy of key (of len bytes, hash h), or NULL and in *slot
 * where it would go. */
static const char *
interned(const struct crown_tarena *a, const char *key, size_t len,
    uint32_t h, size_t *slot)
{
	const char	*k;
	size_t		 i, mask = a->capkeys - 1;

	for (i = h & mask; (k = a->keys[i]) != NULL; i = (i + 1) & mask)
		if (strncmp(k, key, len) == 0 && k[len] == '\0')
			return k;
	*slot = i;
	return NULL;
}

/* The tree's one copy of key (of len bytes, hash h). */
static const char *
intern(struct crown_tarena *a, const char *key, size_t len, uint32_t h)
{
	const char	**old, *k;
	size_t		  i, j, oldcap, mask;

	if ((k = interned(a, key, len, h, &i)) != NULL)
		return k;
	k = a->keys[i] = arena_strndup(a, key, len);
	if (++a->nkeys * 2 > a->capkeys) {
		old = a->keys;
		oldcap = a->capkeys;
		a->capkeys *= 2;
		a->keys = xcalloc(a->capkeys, sizeof(*a->keys));
		mask = a->capkeys - 1;
		for (j = 0; j < oldcap; j++) {
			if (old[j] == NULL)
				continue;
			i = crown_tkey_hash(old[j], strlen(old[j])) & mask;
			while (a->keys[i] != NULL)
				i = (i + 1) & mask;
			a->keys[i] = old[j];
		}
		free(old);
	}
	return k;
}

/* Put v, its key already set, into map: first, so that it hides an older
 * value. */
static struct crown_tval *
map_link(struct crown_tval *map, struct crown_tval *v)
{
	struct cont	*m = cont(map);

	m->bloom |= bloom_bits(v->hash);
	v->next = m->first;
	m->first = v;
	if (m->last == NULL)
		m->last = v;
	m->n++;
	return v;
}

/* Put v into map under key: first, so that it hides an older value. */
static struct crown_tval *
map_put(struct crown_tval *map, const char *key, struct crown_tval *v)
{
	struct cont	*m = cont(map);
	struct key_seen	*ks;
	size_t		 len;

	/* the models put the same literal keys hundreds of thousands of
	 * times: the key at this address last time, if it still reads the
	 * same (a key built in a buffer may not), saves hashing and
	 * interning it again.  Literals are packed a few bytes apart ("x1",
	 * "y1", "x2"), so the slot is of the whole address, mixed (Fibonacci
	 * hashing), not of its bits above the lowest */
	ks = &m->arena->seen[crown_addr_slot(key, KEY_SEEN_BITS)];
	if (ks->at == key && strcmp(ks->key, key) == 0) {
		v->hash = ks->hash;
		v->key = ks->key;
	} else {
		len = strlen(key);
		v->hash = crown_tkey_hash(key, len);
		v->key = intern(m->arena, key, len, v->hash);
		*ks = (struct key_seen){ key, v->key, v->hash };
	}
	return map_link(map, v);
}

static struct crown_tval	*ref_new(struct crown_tarena *,
			    const struct crown_tval *);

/*
 * Append v.  A list that shares its items with another (ref_new) first
 * takes a chain of its own, so that neither sees the other's new items:
 * both walk at most their own n items, and the other may have grown.
 */
static struct crown_tval *
list_add(struct crown_tval *list, struct crown_tval *v)
{
	struct cont		*l = cont(list);
	struct crown_tval	*it, *copy, *first = NULL, *last = NULL;
	size_t			 i;

	if (l->shared) {
		for (i = 0, it = l->first; i < l->n && it != NULL; i++,
		    it = it->next) {
			copy = ref_new(l->arena, it);
			if (last != NULL)
				last->next = copy;
			else
				first = copy;
			last = copy;
		}
		l->first = first;
		l->last = last;
		l->shared = false;
	}
	if (l->last != NULL)
		l->last->next = v;
	else
		l->first = v;
	l->last = v;
	l->n++;
	return v;
}

static struct crown_tval *
str_new(struct crown_tarena *a, const char *s, size_t len)
{
	struct crown_tval	*v;
	char			*p;

	/* the string just after its value: one allocation, not two (a
	 * large turn's model puts some 130,000) */
	v = arena_alloc(a, sizeof(*v) + len + 1);
	memset(v, 0, sizeof(*v));
	v->kind = CROWN_T_STR;
	v->str = p = (char *)(v + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return v;
}

void
crown_tmap_str(struct crown_tval *map, const char *key, const char *s)
{
	if (s != NULL)
		map_put(map, key, str_new(cont(map)->arena, s, strlen(s)));
}

void
crown_tmap_strn(struct crown_tval *map, const char *key, const char *s,
    size_t len)
{
	map_put(map, key, str_new(cont(map)->arena, s, len));
}

void
crown_tmap_printf(struct crown_tval *map, const char *key, const char *fmt,
    ...)
{
	struct crown_tarena	*a = cont(map)->arena;
	va_list			 ap;
	char			 buf[128], *p;
	int			 n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n < sizeof(buf)) {
		map_put(map, key, str_new(a, buf, (size_t)n));
		return;
	}
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	map_put(map, key, tval_new(a, CROWN_T_STR))->str = p;
}

void
crown_tmap_int(struct crown_tval *map, const char *key, long v)
{
	char	buf[CROWN_FMT_MAX];

	map_put(map, key, str_new(cont(map)->arena, buf,
	    crown_fmt_long(buf, v)));
}

void
crown_tmap_num2(struct crown_tval *map, const char *key, double v)
{
	char	buf[CROWN_FMT_MAX];

	map_put(map, key, str_new(cont(map)->arena, buf,
	    crown_fmt_fixed(buf, v, 2)));
}

void
crown_tmap_bool(struct crown_tval *map, const char *key, bool b)
{
	map_put(map, key, tval_new(cont(map)->arena, CROWN_T_BOOL))->b = b;
}

struct crown_tval *
crown_tmap_map(struct crown_tval *map, const char *key)
{
	return map_put(map, key, tval_new(cont(map)->arena, CROWN_T_MAP));
}

struct crown_tval *
crown_tmap_list(struct crown_tval *map, const char *key)
{
	return map_put(map, key, tval_new(cont(map)->arena, CROWN_T_LIST));
}

/* A shallow copy of v, sharing its items, to be put in a second place. */
static struct crown_tval *
ref_new(struct crown_tarena *a, const struct crown_tval *v)
{
	struct crown_tval	*r;
	struct cont		*c;

	if (!is_cont(v)) {
		r = tval_new(a, v->kind);
		r->b = v->b;
		r->str = v->str;
		return r;
	}
	/* all of v but its place: key, next and hash are the ref's own */
	c = arena_alloc(a, sizeof(*c));
	*c = *cont(v);
	c->v.key = NULL;
	c->v.next = NULL;
	c->v.hash = 0;
	c->arena = a;
	c->shared = v->kind == CROWN_T_LIST;
	return &c->v;
}

struct crown_tval *
crown_tmap_ref(struct crown_tval *map, const char *key,
    const struct crown_tval *v)
{
	return map_put(map, key, ref_new(cont(map)->arena, v));
}

/* The value of map put under key, if any. */
static const struct crown_tval *
chain_find(const struct cont *m, const char *key, size_t len, uint32_t hash)
{
	const struct crown_tval	*v;
	uint64_t		 bits = bloom_bits(hash);

	if ((m->bloom & bits) != bits)
		return NULL;
	for (v = m->first; v != NULL; v = v->next)
		if (v->hash == hash && strncmp(v->key, key, len) == 0 &&
		    v->key[len] == '\0')
			return v;
	return NULL;
}

/* The same, for the tree's own copy of the key (NULL: no value of the
 * tree has it), whose bloom bits are bits: keys compared by address. */
static const struct crown_tval *
chain_key(const struct cont *m, const char *key, uint64_t bits)
{
	const struct crown_tval	*v;

	if (key == NULL || (m->bloom & bits) != bits)
		return NULL;
	for (v = m->first; v != NULL; v = v->next)
		if (v->key == key)
			return v;
	return NULL;
}

/*
 * Ask the getter of m for key, which m's `made` has not.  It puts the
 * value into `made`, where the next lookup finds it, through m or any
 * reference to m; a key it has not is kept there as absent
 * (CROWN_T_NULL), so that a name looked for from the innermost context
 * outwards asks it once.  A tree is its own to change, so `made` is not
 * const to it.  ik: the tree's copy of key when the caller has it (a
 * template's name, bound), else NULL.
 */
static const struct crown_tval *
get_made(const struct cont *m, const char *key, size_t len, uint32_t hash,
    const char *ik)
{
	struct cont		*made = m->made;
	struct crown_tval	*absent;
	const struct crown_tval	*v;

	if (m->get(&made->v, key, len, m->get_arg)) {
		/* what the getter put last is mostly what was asked for */
		if (ik != NULL && made->first != NULL &&
		    made->first->key == ik)
			return made->first;
		if ((v = chain_find(made, key, len, hash)) != NULL)
			return v;
	}
	absent = tval_new(made->arena, CROWN_T_NULL);
	absent->hash = hash;
	absent->key = ik != NULL ? ik : intern(made->arena, key, len, hash);
	return map_link(&made->v, absent);
}

const struct crown_tval *
crown_tmap_find(const struct crown_tval *map, const char *key, size_t len,
    uint32_t hash)
{
	const struct crown_tval	*v;
	const struct cont	*m;

	if (map == NULL || map->kind != CROWN_T_MAP)
		return NULL;
	m = cont(map);
	if ((v = chain_find(m, key, len, hash)) != NULL || m->get == NULL)
		return v;
	if ((v = chain_find(m->made, key, len, hash)) == NULL)
		v = get_made(m, key, len, hash, NULL);
	return v->kind == CROWN_T_NULL ? NULL : v;
}

void
crown_tmap_getter(struct crown_tval *map, crown_tget get, const void *arg)
{
	struct cont	*m = cont(map);

	m->get = get;
	m->get_arg = arg;
	m->made = cont(tval_new(m->arena, CROWN_T_MAP));
}

const struct crown_tval *
crown_tmap_get(const struct crown_tval *map, const char *key)
{
	size_t	len = strlen(key);

	return crown_tmap_find(map, key, len, crown_tkey_hash(key, len));
}

struct crown_tval *
crown_tlist_map(struct crown_tval *list)
{
	return list_add(list, tval_new(cont(list)->arena, CROWN_T_MAP));
}

void
crown_tlist_str(struct crown_tval *list, const char *s)
{
	if (s == NULL)
		s = "";
	list_add(list, str_new(cont(list)->arena, s, strlen(s)));
}

struct crown_tval *
crown_tlist_ref(struct crown_tval *list, const struct crown_tval *v)
{
	return list_add(list, ref_new(cont(list)->arena, v));
}

/*
 * Escaping.
 */

static bool
ends_with(const char *s, const char *suffix)
{
	size_t	n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

enum crown_escape
crown_escape_for(const char *name)
{
	if (ends_with(name, ".md"))
		return CROWN_ESC_MARKDOWN;
	if (ends_with(name, ".svg") || ends_with(name, ".xml") ||
	    ends_with(name, ".html"))
		return CROWN_ESC_XML;
	return CROWN_ESC_NONE;
}

/* Characters escaped in Markdown only at the start of a line. */
static const char md_line_start[] = "#+-=";
/*
 * Bytes that end a run of plain text.  Markdown: NUL, the line breaks and
 * the characters escaped anywhere, and & (escaped before a letter, digit
 * or #).  XML: NUL, & < > and the quotes, and
 * the control characters XML 1.0 refuses.
 */
static const bool md_stop[256] = {
	[0] = true, ['\\'] = true, ['`'] = true, ['*'] = true, ['_'] = true,
	['&'] = true,
	['['] = true, [']'] = true, ['<'] = true, ['>'] = true, ['|'] = true,
	['\r'] = true, ['\n'] = true
};
static const bool xml_stop[256] = {
	[0] = true, ['&'] = true, ['<'] = true, ['>'] = true, ['"'] = true,
	['\''] = true, [0x01] = true, [0x02] = true, [0x03] = true,
	[0x04] = true, [0x05] = true, [0x06] = true, [0x07] = true,
	[0x08] = true, [0x0b] = true, [0x0c] = true, [0x0e] = true,
	[0x0f] = true, [0x10] = true, [0x11] = true, [0x12] = true,
	[0x13] = true, [0x14] = true, [0x15] = true, [0x16] = true,
	[0x17] = true, [0x18] = true, [0x19] = true, [0x1a] = true,
	[0x1b] = true, [0x1c] = true, [0x1d] = true, [0x1e] = true,
	[0x1f] = true
};

/* The length of the run of s that holds no byte of stop; four bytes a
 * turn of the loop (NUL stops it, so none is read past the end). */
static inline size_t
plain_run(const char *s, const bool *stop)
{
	const unsigned char	*p = (const unsigned char *)s;

	for (;; p += 4) {
		if (stop[p[0]])
			break;
		if (stop[p[1]]) {
			p += 1;
			break;
		}
		if (stop[p[2]]) {
			p += 2;
			break;
		}
		if (stop[p[3]]) {
			p += 3;
			break;
		}
	}
	return (size_t)(p - (const unsigned char *)s);
}

void
crown_markdown_plain(struct crown_buf *b, const char *md, size_t len)
{
	size_t	i, from = 0;

	crown_buf_puts(b, "");
	for (i = 0; i + 1 < len; i++)
		if (md[i] == '\\' && ispunct((unsigned char)md[i + 1]) &&
		    (unsigned char)md[i + 1] < 0x80) {
			crown_buf_add(b, md + from, i - from);
			from = ++i;	/* keep the escaped character */
		}
	crown_buf_add(b, md + from, len - from);
}

void
crown_escape_markdown(struct crown_buf *b, const char *s, bool start)
{
	const bool	*stop = md_stop;
	const char	*p = s;
	size_t		 run;

	while (*p != '\0') {
		if (!start) {
			/* the common case: a run of plain characters */
			run = plain_run(p, stop);
			crown_buf_add(b, p, run);
			if ((p += run)[0] == '\0')
				break;
		}
		if (*p == '\r' && p[1] == '\n') {
			p++;
			continue;
		}
		if (*p == '\n' || *p == '\r') {
			crown_buf_add(b, " ", 1);
			start = false;
			p++;
			continue;
		}
		if (*p == '&') {
			/* "&copy;" or "&#169;" would be read as an entity */
			if (isalnum((unsigned char)p[1]) || p[1] == '#')
				crown_buf_add(b, "\\", 1);
			crown_buf_add(b, p++, 1);
			start = false;
			continue;
		}
		if (md_stop[(unsigned char)*p] ||
		    (start && strchr(md_line_start, *p) != NULL)) {
			crown_buf_add(b, "\\", 1);
			crown_buf_add(b, p++, 1);
			start = false;
			continue;
		}
		if (start && isdigit((unsigned char)*p)) {
			/* "1." or "1)" would open an ordered list */
			for (run = 0; isdigit((unsigned char)p[run]); run++)
				;
			crown_buf_add(b, p, run);
			p += run;
			if (*p == '.' || *p == ')')
				crown_buf_add(b, "\\", 1);
			if (*p == '\0')
				break;
			crown_buf_add(b, p++, 1);
			start = false;
			continue;
		}
		if (*p != ' ')
			start = false;
		crown_buf_add(b, p++, 1);
	}
}

void
crown_escape_xml(struct crown_buf *b, const char *s)
{
	const bool	*stop = xml_stop;
	const char	*p = s;
	size_t		 run;

	for (;;) {
		run = plain_run(p, stop);
		crown_buf_add(b, p, run);
		p += run;
		switch (*p++) {
		case '\0':
			return;
		case '&':
			crown_buf_puts(b, "&amp;");
			break;
		case '<':
			crown_buf_puts(b, "&lt;");
			break;
		case '>':
			crown_buf_puts(b, "&gt;");
			break;
		case '"':
			crown_buf_puts(b, "&quot;");
			break;
		case '\'':
			crown_buf_puts(b, "&apos;");
			break;
		default:
			/* a control character XML 1.0 does not allow */
			break;
		}
	}
}

/*
 * Rendering.
 */

struct frame {
	const struct crown_tval	*v;
	bool			 iter;		/* an item of a list */
	struct crown_tval	 index, first, last;
	size_t			 index_no;	/* from 1 */
	char			 index_buf[24];
};

struct render {
	struct crown_buf	*out;
	struct crown_tmpl_set	*set;
	enum crown_escape	 esc;
	struct crown_diags	*d;
	const struct tmpl	*t;		/* being rendered */
	struct frame		 stack[MAX_NEST * 2 + 2];
	size_t			 depth;		/* frames in use */
	int			 partials;
	unsigned long		 steps, max_steps;
	size_t			 end;		/* of what it may write, in out */
	int			 error;
};

/* The tree's copy of name part g's key, bound again when the tree is
 * another or may have gained it since. */
static const char *
seg_key(struct seg *g, const struct crown_tarena *a)
{
	size_t	slot;

	if (g->tree != a->gen || (g->key == NULL && g->nkeys != a->nkeys)) {
		g->tree = a->gen;
		g->nkeys = a->nkeys;
		g->key = interned(a, g->s, g->len, g->hash, &slot);
	}
	return g->key;
}

/* crown_tmap_find for a name part of a template (inline: a quarter of
 * a million lookups a large report). */
static inline const struct crown_tval *
find_seg(const struct crown_tval *map, struct seg *g)
{
	const struct crown_tval	*v;
	const struct cont	*m;
	const char		*key;

	if (map == NULL || map->kind != CROWN_T_MAP)
		return NULL;
	m = cont(map);
	/* most maps looked in have not the name: their bloom says so before
	 * the name is bound to the tree */
	if ((m->bloom & g->bits) != g->bits && m->get == NULL)
		return NULL;
	key = seg_key(g, m->arena);
	if ((v = chain_key(m, key, g->bits)) != NULL || m->get == NULL)
		return v;
	if ((v = chain_key(m->made, key, g->bits)) == NULL)
		v = get_made(m, g->s, g->len, g->hash, key);
	return v->kind == CROWN_T_NULL ? NULL : v;
}

static const struct crown_tval *
lookup(struct render *r, const struct node *n)
{
	const struct crown_tval	*v = NULL;
	struct seg		*g = n->seg;
	size_t			 i;

	if (n->special == SP_DOT)
		return r->stack[r->depth - 1].v;
	for (i = r->depth; i-- > 0 && v == NULL;) {
		struct frame *f = &r->stack[i];

		if (n->special == SP_NONE || !f->iter)
			v = find_seg(f->v, g);
		else if (n->special == SP_INDEX) {
			snprintf(f->index_buf, sizeof(f->index_buf), "%zu",
			    f->index_no);
			f->index.kind = CROWN_T_STR;
			f->index.str = f->index_buf;
			v = &f->index;
		} else if (n->special == SP_FIRST)
			v = &f->first;
		else
			v = &f->last;
	}
	for (i = 1; v != NULL && i < n->nseg; i++)
		v = find_seg(v, &n->seg[i]);
	return v;
}

static bool
at_line_start(const struct crown_buf *b)
{
	size_t	i = b->len;

	while (i > 0 && b->data[i - 1] == ' ')
		i--;
	return i == 0 || b->data[i - 1] == '\n';
}

static void
put_value(struct render *r, const struct crown_tval *v, bool raw)
{
	const char	*s;

	if (v == NULL)
		return;
	if (v->kind == CROWN_T_STR)
		s = v->str;
	else if (v->kind == CROWN_T_BOOL)
		s = v->b ? "true" : "false";
	else
		return;
	if (raw || r->esc == CROWN_ESC_NONE)
		crown_buf_puts(r->out, s);
	else if (r->esc == CROWN_ESC_MARKDOWN)
		crown_escape_markdown(r->out, s, at_line_start(r->out));
	else
		crown_escape_xml(r->out, s);
}

static void	render_nodes(struct render *, const struct node *);

static bool
push(struct render *r, const struct node *n, const struct crown_tval *v,
    bool iter, size_t index, size_t count)
{
	struct frame	*f;

	if (r->depth == CROWN_NELEM(r->stack)) {
		crown_diag_add(r->d, r->t->file, n->line, n->col, NULL,
		    "sections nest deeper than %zu", CROWN_NELEM(r->stack));
		r->error = CROWN_EINVALID;
		return false;
	}
	/* not cleared: index is set when _index is asked for, first and
	 * last read only in a list's item */
	f = &r->stack[r->depth++];
	f->v = v;
	f->iter = iter;
	if (iter) {
		/* _index is formatted when a template asks for it */
		f->index_no = index + 1;
		f->first.kind = CROWN_T_BOOL;
		f->first.b = index == 0;
		f->last.kind = CROWN_T_BOOL;
		f->last.b = index + 1 == count;
	}
	return true;
}

static void
render_section(struct render *r, const struct node *n)
{
	const struct crown_tval	*v = lookup(r, n), *item;
	size_t			 i;

	if (n->kind == N_INVERTED) {
		if (!crown_tval_truthy(v))
			render_nodes(r, n);
		return;
	}
	if (!crown_tval_truthy(v))
		return;
	if (v->kind == CROWN_T_BOOL) {
		render_nodes(r, n);
		return;
	}
	if (v->kind != CROWN_T_LIST) {
		if (push(r, n, v, false, 0, 1)) {
			render_nodes(r, n);
			r->depth--;
		}
		return;
	}
	for (i = 0, item = cont(v)->first; item != NULL &&
	    i < cont(v)->n && r->error == 0; i++, item = item->next) {
		if (!push(r, n, item, true, i, cont(v)->n))
			return;
		render_nodes(r, n);
		r->depth--;
	}
}

static void
render_partial(struct render *r, const struct node *n)
{
	const struct tmpl	*saved = r->t;
	struct tmpl		*p;

	if (r->partials == MAX_PARTIAL_DEPTH) {
		crown_diag_add(r->d, r->t->file, n->line, n->col, NULL,
		    "partials nest deeper than %d (does '%s' include itself?)",
		    MAX_PARTIAL_DEPTH, n->s);
		r->error = CROWN_EINVALID;
		return;
	}
	/* the template its tag named when it loaded; a broken one is asked
	 * for again, for its diagnostic */
	if (((p = n->partial) == NULL || p->error != 0) &&
	    (r->error = crown_tmpl_load_at(r->set, n->s, r->d, r->t, n,
	    &p)) != 0)
		return;
	r->partials++;
	r->t = p;
	render_nodes(r, &p->root);
	r->t = saved;
	r->partials--;
}

/* Where a render stopped, for its diagnostic: a piece of text has no
 * place, its section's. */
static const struct node *
stop_at(const struct node *parent, const struct node *n)
{
	return n->kind == N_TEXT ? parent : n;
}

static void
render_nodes(struct render *r, const struct node *parent)
{
	const struct node	*n = parent->child, *end, *at;

	/* a node with no children has no array: NULL + 0 is undefined */
	end = n != NULL ? n + parent->nchild : NULL;
	for (; n != end && r->error == 0; n++) {
		if (++r->steps > r->max_steps) {
			at = stop_at(parent, n);
			crown_diag_add(r->d, r->t->file, at->line, at->col, NULL,
			    "the template renders more than %lu tags and "
			    "pieces of text (a section inside itself?)",
			    r->max_steps);
			r->error = CROWN_EINVALID;
			break;
		}
		switch (n->kind) {
		case N_TEXT:
			crown_buf_add(r->out, n->s, n->len);
			break;
		case N_VAR:
		case N_RAW:
			put_value(r, lookup(r, n), n->kind == N_RAW);
			break;
		case N_SECTION:
		case N_INVERTED:
			render_section(r, n);
			break;
		case N_PARTIAL:
			render_partial(r, n);
			break;
		}
		if (r->out->len > r->end && r->error == 0) {
			at = stop_at(parent, n);
			crown_diag_add(r->d, r->t->file, at->line, at->col, NULL,
			    "the template renders more than %zu bytes",
			    r->set->max_bytes);
			r->error = CROWN_EINVALID;
		}
	}
}

int
crown_tmpl_render(struct crown_buf *out, struct crown_tmpl_set *set,
    const char *name, enum crown_escape esc, const struct crown_tval *ctx,
    struct crown_diags *d)
{
	struct render	*r;
	struct tmpl	*t;
	int		 error;

	if ((error = crown_tmpl_load_at(set, name, d, NULL, NULL, &t)) != 0)
		return error;
	r = xcalloc(1, sizeof(*r));
	r->out = out;
	r->set = set;
	r->esc = esc;
	r->d = d;
	r->t = t;
	crown_buf_puts(out, "");
	r->end = set->max_bytes > SIZE_MAX - out->len ? SIZE_MAX : out->len +
	    set->max_bytes;
	r->max_steps = set->max_steps;
	if (push(r, &t->root, ctx, false, 0, 1))
		render_nodes(r, &t->root);
	error = r->error;
	free(r);
	return error;
}
