/*
 * fuzz-rules.c: libFuzzer target for the rules loader (rules.c): a
 * house-ruled rules file is input like any other.
 *
 * Any input must load or be refused with diagnostics.  Rules that load
 * must answer every look-up (R6.2, R7.2, R13.1 bands) without reading
 * outside their tables.
 */
#include "fuzz.h"

#include "crown/rules.h"

static int
fuzz_rules(const uint8_t *data, size_t size)
{
	struct crown_diags	 d = { 0 };
	struct crown_rules	*r = NULL;
	char			 buf[64];
	int			 error, score, col, b, w;
	enum crown_morale_result m;

	error = crown_rules_parse(&r, "fuzz.yaml", (const char *)data, size,
	    &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("rules_parse: unexpected error", &d);
	if (error == CROWN_EINVALID && (r != NULL || d.n == 0))
		crown_fuzz_fail("refused rules need a reason", &d);
	if (error != 0)
		goto cleanup;
	for (score = -30; score <= 30; score++) {
		for (col = 0; col < CROWN_NCOLUMN; col++) {
			m = crown_rules_morale(r, score, col);
			if ((int)m < 0 || m >= CROWN_NRESULT)
				crown_fuzz_fail("morale result off the table",
				    &d);
		}
		for (b = 0; b < CROWN_NBAND; b++)
			(void)crown_rules_art_casualties(r, score, b);
	}
	for (w = 0; w < CROWN_NWEAPON; w++)
		for (score = -1; score <= 100; score++)
			(void)crown_rules_band(r->weapon[w], score / 2.0);
	for (w = 0; w < CROWN_NUTYPE; w++) {
		crown_rules_dice_str(buf, sizeof(buf), &r->move[w].normal);
		crown_rules_dice_str(buf, sizeof(buf), &r->move[w].bonus);
		crown_rules_dice_str(buf, sizeof(buf), &r->move[w].road);
	}
cleanup:
	crown_rules_free(r);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_rules)
