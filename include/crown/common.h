/*
 * common.h: error codes, allocation and small helpers shared by every module.
 *
 * Library-style code returns 0 or a negative CROWN_E* code and never exits;
 * only main.c and cmd-*.c turn codes into exit statuses (crown_exit_status).
 */
#ifndef CROWN_COMMON_H
#define CROWN_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define CROWN_VERSION "0.1.0"

enum crown_error {
	CROWN_OK = 0,
	CROWN_ERROR = -1,	/* internal error: exit 1 */
	CROWN_EINVALID = -2,	/* bad input: exit 65 */
	CROWN_ENOTFOUND = -3,	/* missing input file: exit 66 */
	CROWN_EWRITE = -4,	/* cannot write output: exit 73 */
	CROWN_ELOCKED = -5,	/* campaign locked: exit 75 */
	CROWN_EUSAGE = -6	/* usage: exit 2 */
};

/* sysexits values of FORMATS.md */
#define CROWN_EXIT_OK		0
#define CROWN_EXIT_INTERNAL	1
#define CROWN_EXIT_USAGE	2
#define CROWN_EXIT_DATAERR	65
#define CROWN_EXIT_NOINPUT	66
#define CROWN_EXIT_CANTCREAT	73
#define CROWN_EXIT_TEMPFAIL	75

int	crown_exit_status(int error);

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
 * Numbers as text (fmt.c), into buf of CROWN_FMT_MAX bytes; each returns
 * the length written.  crown_fmt_fixed writes what printf's "%.*f" would,
 * byte for byte, except that a value that rounds to zero has no minus
 * sign ("0.00", never "-0.00"); decimals from 0 to CROWN_FMT_DECIMALS.
 */
#define CROWN_FMT_MAX		320	/* -DBL_MAX with 4 decimals, NUL */
#define CROWN_FMT_DECIMALS	4
size_t	 crown_fmt_long(char *buf, long v);
size_t	 crown_fmt_fixed(char *buf, double v, int decimals);

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

/* Grow *v (of *cap elements of size sz) to hold at least n elements. */
void	 crown_grow(void *vp, size_t *cap, size_t n, size_t sz);

/* A growable byte buffer, always NUL-terminated. */
struct crown_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};
void	 crown_buf_add(struct crown_buf *, const void *, size_t);
void	 crown_buf_puts(struct crown_buf *, const char *);
void	 crown_buf_printf(struct crown_buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 crown_buf_release(struct crown_buf *);

/*
 * Find a data file (rel: "rules/maximilian.yaml", "templates") beside the
 * program or up to two directories above it (a source tree), else under
 * CROWN_DATADIR.  Returns the path (caller frees) or NULL.
 */
char	*crown_data_find(const char *rel);

#define CROWN_NELEM(a) (sizeof(a) / sizeof((a)[0]))

#endif
