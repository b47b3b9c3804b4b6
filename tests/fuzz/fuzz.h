/*
 * fuzz.h: what the libFuzzer targets of tests/fuzz share.
 *
 * Each fuzz-NAME.c defines a static harness, fuzz_NAME(data, size), and
 * CROWN_FUZZ_ENTRY(fuzz_NAME) makes it libFuzzer's entry point.  The unit
 * test tests/unit/test-crashers.c includes the same files with
 * CROWN_FUZZ_NO_MAIN defined and feeds every saved crasher to the same
 * harnesses, so a crash found once stays a test.
 *
 * A harness returns 0; a broken invariant (a state that does not read
 * back as written, a die off its faces) calls crown_fuzz_fail, which
 * aborts, so libFuzzer saves the input.
 */
#ifndef CROWN_FUZZ_H
#define CROWN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "crown/common.h"
#include "crown/diag.h"
#include "crown/xalloc.h"

#ifndef CROWN_SRCDIR
#define CROWN_SRCDIR "."
#endif

#ifdef CROWN_FUZZ_NO_MAIN
#define CROWN_FUZZ_ENTRY(fn)
#else
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
#define CROWN_FUZZ_ENTRY(fn)						\
int									\
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
{									\
	return fn(data, size);						\
}
#endif

static inline void
crown_fuzz_fail(const char *what, const struct crown_diags *d)
{
	fprintf(stderr, "crown fuzz: invariant broken: %s\n", what);
	if (d != NULL)
		crown_diags_print(stderr, d);
	abort();
}

/* Load a fixture of the source tree once; abort if it does not load (the
 * harness would test nothing). */
static inline char *
crown_fuzz_path(const char *rel)
{
	return xasprintf("%s/%s", CROWN_SRCDIR, rel);
}

#endif
