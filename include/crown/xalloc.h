/*
 * xalloc.h: memory (xalloc.c): allocation behind one failure hook, the
 * arena, growable arrays and byte buffers.
 */
#ifndef CROWN_XALLOC_H
#define CROWN_XALLOC_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

/*
 * Allocation.  Every allocation goes through these; on failure they print
 * "crown: out of memory" and exit 1.  crown_alloc_fail_at(n) makes the nth
 * allocation from now fail (0 turns it off), the SQLite-style fault hook
 * used by the tests.
 */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xvasprintf(const char *, va_list)
	    __attribute__((format(printf, 1, 0)));
char	*xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
void	 crown_alloc_fail_at(unsigned long);
unsigned long crown_alloc_count(void);

/*
 * An arena: many small allocations freed together (a YAML tree, the data
 * of a turn's reports).  Chunks start at `first` bytes and double up to
 * `max`; a request bigger than that gets a chunk of its own.  Start with
 * crown_arena_init; crown_arena_release frees every chunk.
 */
struct crown_arena_chunk;

struct crown_arena {
	struct crown_arena_chunk	*chunks;
	size_t				 next_size, max_size;
};
void	 crown_arena_init(struct crown_arena *, size_t first, size_t max);

/* n bytes aligned to align (a power of two, at most max_align_t's). */
void	*crown_arena_alloc(struct crown_arena *, size_t n, size_t align);
char	*crown_arena_strndup(struct crown_arena *, const char *, size_t);
void	 crown_arena_release(struct crown_arena *);

/* Grow *v (of *cap elements of size sz) to hold at least n elements.
 * Inline, as most calls find the room there already: a call each was a
 * twentieth of a large turn's reports. */
void	 crown_grow_to(void *vp, size_t *cap, size_t n, size_t sz);
static inline void
crown_grow(void *vp, size_t *cap, size_t n, size_t sz)
{
	if (n > *cap)
		crown_grow_to(vp, cap, n, sz);
}

/* A growable byte buffer, always NUL-terminated. */
struct crown_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};
static inline void
crown_buf_add(struct crown_buf *b, const void *p, size_t n)
{
	crown_grow(&b->data, &b->cap, b->len + n + 1, 1);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}
void	 crown_buf_puts(struct crown_buf *, const char *);
void	 crown_buf_printf(struct crown_buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 crown_buf_release(struct crown_buf *);

#endif
