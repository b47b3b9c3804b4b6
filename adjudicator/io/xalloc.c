/*
 * xalloc.c: allocation that dies on failure, behind one fault hook.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crown/common.h"
#include "crown/fmt.h"
#include "crown/xalloc.h"

static int	quick_vsnprintf(char *, size_t, const char *, va_list);
static size_t	put_decimal(char *, unsigned long long, bool, bool);

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

/* u in decimal, after a minus (neg) or a plus (plus), into buf of
 * CROWN_FMT_MAX bytes, as printf writes it. */
static size_t
put_decimal(char *buf, unsigned long long u, bool neg, bool plus)
{
	size_t	n = 0;

	if (neg)
		buf[n++] = '-';
	else if (plus)
		buf[n++] = '+';
	return n + crown_fmt_ulong(buf + n, u);
}

/*
 * vsnprintf for the conversions crown's sentences are made of, "%s",
 * "%c", "%d", "%+d", "%u", "%ld", "%lu", "%zu", "%.Nf" (N up to
 * CROWN_FMT_DECIMALS) and "%%", without printf's general machinery,
 * which was a quarter of resolving a large turn.  -1 for any other
 * conversion, for output that does not fit in size bytes, and for a
 * NULL string: the caller asks vsnprintf.  "%.Nf" is
 * crown_fmt_fixed_printf's, printf's bytes for a sign bit or NaN too.
 */
static int
quick_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	char			 num[CROWN_FMT_MAX];
	const char		*s;
	unsigned long long	 u;
	long			 v;
	double			 f;
	size_t			 n = 0, k;
	int			 prec;
	bool			 plus;

	for (; *fmt != '\0'; fmt++) {
		if (*fmt != '%') {
			s = fmt;
			k = strcspn(fmt, "%");
			fmt += k - 1;
			goto put;
		}
		fmt++;
		plus = *fmt == '+';
		if (plus)
			fmt++;
		prec = -1;
		if (fmt[0] == '.' && fmt[1] >= '0' && fmt[1] <= '9') {
			prec = fmt[1] - '0';
			fmt += 2;
		}
		if ((prec >= 0 && *fmt != 'f') || (plus && *fmt != 'd'))
			return -1;
		s = num;
		switch (*fmt) {
		case '%':
			s = "%";
			k = 1;
			break;
		case 's':
			if ((s = va_arg(ap, const char *)) == NULL)
				return -1;
			k = strlen(s);
			break;
		case 'c':
			num[0] = (char)va_arg(ap, int);
			k = 1;
			break;
		case 'd':
			v = va_arg(ap, int);
			goto put_signed;
		case 'u':
			u = va_arg(ap, unsigned int);
			goto put_unsigned;
		case 'l':
			fmt++;
			if (*fmt == 'u') {
				u = va_arg(ap, unsigned long);
				goto put_unsigned;
			}
			if (*fmt != 'd')
				return -1;
			v = va_arg(ap, long);
			goto put_signed;
		case 'z':
			if (*++fmt != 'u')
				return -1;
			u = va_arg(ap, size_t);
			goto put_unsigned;
		case 'f':
			f = va_arg(ap, double);
			if (prec < 0 || prec > CROWN_FMT_DECIMALS)
				return -1;
			k = crown_fmt_fixed_printf(num, f, prec);
			break;
		default:
			return -1;
		}
		goto put;
put_signed:
		k = put_decimal(num, v < 0 ? 0ULL - (unsigned long long)v :
		    (unsigned long long)v, v < 0, plus);
		goto put;
put_unsigned:
		k = put_decimal(num, u, false, false);
put:
		if (k >= size - n)
			return -1;
		memcpy(buf + n, s, k);
		n += k;
	}
	buf[n] = '\0';
	return (int)n;
}

int
crown_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	va_list	 aq;
	int	 n;

	va_copy(aq, ap);
	n = quick_vsnprintf(buf, size, fmt, aq);
	va_end(aq);
	return n >= 0 ? n : vsnprintf(buf, size, fmt, ap);
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 aq;
	char	 buf[256], *p;
	int	 n;

	va_copy(aq, ap);
	n = crown_vsnprintf(buf, sizeof(buf), fmt, aq);
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
	char	 tmp[256];
	size_t	 room;
	int	 n;

	va_start(ap, fmt);
	n = quick_vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	/* the buffer grows as it would for vsnprintf's text */
	crown_grow(&b->data, &b->cap, b->len + 64, 1);
	room = b->cap - b->len;
	if (n >= 0) {
		if ((size_t)n >= room)
			crown_grow(&b->data, &b->cap, b->len + (size_t)n + 1,
			    1);
		memcpy(b->data + b->len, tmp, (size_t)n + 1);
		b->len += (size_t)n;
		return;
	}
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
