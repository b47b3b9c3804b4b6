/*
 * fuzz-dice.c: libFuzzer target for dice scripts (dice.c,
 * --dice-script FILE).
 *
 * Any input must load or be refused with a diagnostic per bad value.  A
 * script that loads hands out its values in order, each within its die's
 * faces, until one does not fit or the script runs out: then the roll
 * fails with a message naming the roll wanted and uses up nothing.
 */
#include <string.h>

#include "fuzz.h"

#include "crown/dice.h"

static int
fuzz_dice(const uint8_t *data, size_t size)
{
	struct crown_diags	 d = { 0 };
	struct crown_dice	*dice = NULL;
	struct crown_roll_key	 key = { 1, 0, "unit", "fuzz" };
	const struct crown_roll	*log;
	size_t			 before, n, i;
	int			 error, sides, v;

	error = crown_dice_script_parse(&dice, "fuzz.txt",
	    (const char *)data, size, &d);
	if (error != 0 && error != CROWN_EINVALID)
		crown_fuzz_fail("dice_script_parse: unexpected error", &d);
	if (error == CROWN_EINVALID && (dice != NULL || d.n == 0))
		crown_fuzz_fail("a refused script needs a reason", &d);
	if (error != 0)
		goto cleanup;
	for (i = 0;; i++) {
		/* D6 and D10 by turns, as a turn asks for them */
		sides = i % 3 == 2 ? 10 : 6;
		before = crown_dice_unused(dice);
		if (crown_dice_roll(dice, &key, sides, sides == 10 ? 0 : 1,
		    &v) != 0) {
			if (crown_dice_unused(dice) != before ||
			    strlen(crown_dice_error(dice)) == 0)
				crown_fuzz_fail("a failed roll used a value "
				    "or said nothing", &d);
			break;
		}
		if (sides == 10 ? v < 0 || v > 9 : v < 1 || v > sides)
			crown_fuzz_fail("a die off its faces", &d);
		if (crown_dice_unused(dice) + 1 != before)
			crown_fuzz_fail("a roll did not take one value", &d);
	}
	log = crown_dice_log(dice, &n);
	if (n != i || (n > 0 && log == NULL))
		crown_fuzz_fail("the log lost a roll", &d);
cleanup:
	crown_dice_free(dice);
	crown_diags_release(&d);
	return 0;
}

CROWN_FUZZ_ENTRY(fuzz_dice)
