/*
 * fuzz-state.c: libFuzzer target for the state loader (state.c over the
 * YAML layer, yaml.c).
 *
 * Any input must load or be refused with diagnostics, never crash, leak
 * or exit.  A state that loads must write out and read back to the same
 * bytes (README: "reading a state crown wrote and writing it again gives
 * the same bytes"), and a copy of it must write the same bytes too.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/state.h"
#include "crown/xalloc.h"

static int
fuzz_state(const uint8_t *data, size_t size)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL, *again = NULL, *copy = NULL;
	struct crown_buf	 a = { 0 }, b = { 0 }, c = { 0 };
	int			 error;

	error = crown_state_parse(&s, "fuzz.yaml", (const char *)data, size,
	    &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("state_parse: unexpected error", &d);
	if (error == CROWN_EINVALID && (s != NULL || d.n == 0))
		crown_fuzz_fail("a refused state needs a reason", &d);
	if (error != 0)
		goto cleanup;
	if (crown_state_emit(&a, s) != 0)
		crown_fuzz_fail("state_emit failed", &d);
	if (crown_state_parse(&again, "again.yaml", a.data, a.len, &d) != 0)
		crown_fuzz_fail("a written state does not read back", &d);
	if (crown_state_emit(&b, again) != 0)
		crown_fuzz_fail("state_emit failed on reading back", &d);
	if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
		crown_fuzz_fail("write(read(write(s))) != write(s)", &d);
	copy = crown_state_clone(s);
	if (crown_state_emit(&c, copy) != 0 || c.len != a.len ||
	    memcmp(c.data, a.data, a.len) != 0)
		crown_fuzz_fail("a copy writes differently", &d);
cleanup:
	crown_buf_release(&a);
	crown_buf_release(&b);
	crown_buf_release(&c);
	crown_state_free(copy);
	crown_state_free(again);
	crown_state_free(s);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_state)
