/*
 * common.h: the error codes and exit statuses every module shares.
 *
 * Library-style code returns 0 or a negative CROWN_E* code and never exits;
 * only main.c and cmd-*.c turn codes into exit statuses (crown_exit_status,
 * cmd.h).
 */
#ifndef CROWN_COMMON_H
#define CROWN_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CROWN_VERSION "0.1.0"

enum crown_error {
	CROWN_OK = 0,
	CROWN_ERROR = -1,	/* internal error: exit 1 */
	CROWN_EINVALID = -2,	/* bad input: exit 65 */
	CROWN_ENOTFOUND = -3,	/* missing input file: exit 66 */
	CROWN_EWRITE = -4,	/* cannot write output: exit 73 */
	CROWN_ELOCKED = -5,	/* campaign locked: exit 75 */
	CROWN_EUSAGE = -6,	/* usage: exit 2 */
	CROWN_EDAMAGED = -7,	/* a damaged object in .git: exit 74 */
	CROWN_EMISSING = -8,	/* objects of the history not here (a shallow
				 * or partial clone): exit 66 */
	CROWN_EUNAVAILABLE = -9	/* the umpire's OpenPGP key cannot be used
				 * (not in the keyring, no agent): exit 69 */
};

/* sysexits values of FORMATS.md */
#define CROWN_EXIT_OK		0
#define CROWN_EXIT_INTERNAL	1
#define CROWN_EXIT_USAGE	2
#define CROWN_EXIT_DATAERR	65
#define CROWN_EXIT_NOINPUT	66
#define CROWN_EXIT_CANTCREAT	73
#define CROWN_EXIT_IOERR	74
#define CROWN_EXIT_TEMPFAIL	75
/* crown verify: turns of another format, not replayed (doc/formats.md);
 * the umpire's OpenPGP key not at hand (CROWN_EUNAVAILABLE) */
#define CROWN_EXIT_UNAVAILABLE	69

#define CROWN_NELEM(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The slot of a table of 2^bits entries for the address p (Fibonacci
 * hashing: the high bits of p times 2^64 / phi).  Short string literals
 * lie a few bytes apart, and the low bits of their addresses alone put
 * many in one slot.
 */
static inline size_t
crown_addr_slot(const void *p, unsigned bits)
{
	return (size_t)((uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15u >>
	    (64 - bits));
}

#endif
