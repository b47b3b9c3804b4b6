/*
 * xalloc.c: allocation that dies on failure, behind one fault hook.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/xalloc.h"

static unsigned long alloc_count;
static unsigned long alloc_fail_at;

void
crown_alloc_fail_at(unsigned long n)
{
	alloc_fail_at = n == 0 ? 0 : alloc_count + n;
}

unsigned long
crown_alloc_count(void)
{
	return alloc_count;
}

static void
oom(void)
{
	fputs("crown: out of memory\n", stderr);
	fflush(stdout);
	exit(CROWN_EXIT_INTERNAL);
}

static void *
checked(void *p)
{
	if (p == NULL)
		oom();
	return p;
}

static void
fault(void)
{
	alloc_count++;
	if (alloc_fail_at != 0 && alloc_count == alloc_fail_at)
		oom();
}

void *
xmalloc(size_t n)
{
	fault();
	return checked(malloc(n == 0 ? 1 : n));
}

void *
xcalloc(size_t n, size_t sz)
{
	fault();
	return checked(calloc(n == 0 ? 1 : n, sz == 0 ? 1 : sz));
}

void *
xrealloc(void *p, size_t n)
{
	fault();
	return checked(realloc(p, n == 0 ? 1 : n));
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	if (sz != 0 && n > SIZE_MAX / sz)
		oom();
	return xrealloc(p, n * sz);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 aq;
	char	 buf[256], *p;
	int	 n;

	va_copy(aq, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	if (n < 0)
		oom();
	p = xmalloc((size_t)n + 1);
	if ((size_t)n < sizeof(buf))
		memcpy(p, buf, (size_t)n + 1);
	else
		vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void
crown_grow_to(void *vp, size_t *cap, size_t n, size_t sz)
{
	void	**v = vp;
	size_t	  ncap;

	if (n <= *cap)
		return;
	ncap = *cap < 8 ? 8 : *cap;
	/* doubling: growing four times over saved nothing under the C
	 * library's malloc (doc/performance.md) */
	while (ncap < n)
		ncap = ncap > SIZE_MAX / 2 ? n : ncap * 2;
	*v = xreallocarray(*v, ncap, sz);
	*cap = ncap;
}

void
crown_buf_puts(struct crown_buf *b, const char *s)
{
	crown_buf_add(b, s, strlen(s));
}

void
crown_buf_printf(struct crown_buf *b, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 room;
	int	 n;

	crown_grow(&b->data, &b->cap, b->len + 64, 1);
	room = b->cap - b->len;
	va_start(ap, fmt);
	n = vsnprintf(b->data + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	if ((size_t)n >= room) {
		crown_grow(&b->data, &b->cap, b->len + (size_t)n + 1, 1);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void
crown_buf_release(struct crown_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

struct crown_arena_chunk {
	struct crown_arena_chunk	*next;
	size_t				 size, used;
	max_align_t			 data[];
};

void
crown_arena_init(struct crown_arena *a, size_t first, size_t max)
{
	a->chunks = NULL;
	a->next_size = first;
	a->max_size = max;
}

void *
crown_arena_alloc(struct crown_arena *a, size_t n, size_t align)
{
	struct crown_arena_chunk	*c = a->chunks;
	size_t				 at, size;

	at = c != NULL ? (c->used + align - 1) & ~(align - 1) : 0;
	if (c == NULL || at > c->size || c->size - at < n) {
		size = n > a->next_size ? n : a->next_size;
		if (a->next_size < a->max_size)
			a->next_size *= 2;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->next = a->chunks;
		a->chunks = c;
		at = 0;
	}
	c->used = at + n;
	return (char *)c->data + at;
}

char *
crown_arena_strndup(struct crown_arena *a, const char *s, size_t len)
{
	char	*p = crown_arena_alloc(a, len + 1, 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
crown_arena_release(struct crown_arena *a)
{
	struct crown_arena_chunk	*c, *next;

	for (c = a->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->chunks = NULL;
}
