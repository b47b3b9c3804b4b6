/*
 * test-crashers.c: every input that once crashed a fuzz target, kept in
 * tests/fuzz/crashers/TARGET/, and the hand-made seeds of tests/fuzz/seeds,
 * fed again to the fuzz harnesses themselves (tests/fuzz/fuzz-*.c, built
 * here without libFuzzer): each to every loader, not only the one it broke.
 * A harness aborts when an invariant breaks; the sanitizers of `make test`
 * catch the rest.
 */
#include <dirent.h>
#include <sys/stat.h>

#include "testutil.h"

#define CROWN_FUZZ_NO_MAIN
#include "../fuzz/fuzz-dice.c"
#include "../fuzz/fuzz-inbox.c"
#include "../fuzz/fuzz-orders.c"
#include "../fuzz/fuzz-rules.c"
#include "../fuzz/fuzz-shorthand.c"
#include "../fuzz/fuzz-state.c"
#include "../fuzz/fuzz-template.c"
#include "../fuzz/fuzz-turn.c"
#include "../fuzz/fuzz-unflow.c"

static const struct harness {
	const char	*name;
	int		(*fn)(const uint8_t *, size_t);
} harnesses[] = {
	{ "dice", fuzz_dice },
	{ "inbox", fuzz_inbox },
	{ "orders", fuzz_orders },
	{ "rules", fuzz_rules },
	{ "shorthand", fuzz_shorthand },
	{ "state", fuzz_state },
	{ "template", fuzz_template },
	{ "turn", fuzz_turn },
	{ "unflow", fuzz_unflow },
};

static const char *const dirs[] = {
	"tests/fuzz/crashers", "tests/fuzz/seeds"
};

/* Read a whole file, binary; NULL if it is not a regular file. */
static char *
slurp(const char *path, size_t *len)
{
	struct crown_diags	 d = { 0 };
	struct stat		 st;
	char			*buf;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	if (crown_read_file(&buf, len, path, 0, &d) != 0)
		buf = NULL;
	crown_diags_release(&d);
	return buf;
}

/* Feed every file of dir/TARGET/ to every harness; the number fed. */
static size_t
feed_dir(const char *top)
{
	struct dirent	**targets, **files;
	char		 *sub, *path, *buf;
	size_t		  len, fed = 0, h;
	int		  nt, nf, i, j;

	nt = scandir(top, &targets, NULL, alphasort);
	for (i = 0; i < nt; i++) {
		sub = xasprintf("%s/%s", top, targets[i]->d_name);
		nf = targets[i]->d_name[0] == '.' ? -1 :
		    scandir(sub, &files, NULL, alphasort);
		for (j = 0; j < nf; j++) {
			path = xasprintf("%s/%s", sub, files[j]->d_name);
			if (files[j]->d_name[0] != '.' &&
			    (buf = slurp(path, &len)) != NULL) {
				print_message("    %s\n", path);
				for (h = 0; h < CROWN_NELEM(harnesses); h++)
					harnesses[h].fn((const uint8_t *)buf,
					    len);
				free(buf);
				fed++;
			}
			free(path);
			free(files[j]);
		}
		if (nf >= 0)
			free(files);
		free(sub);
		free(targets[i]);
	}
	if (nt >= 0)
		free(targets);
	return fed;
}

static void
test_crashers(void **state)
{
	size_t	i, fed = 0;

	for (i = 0; i < CROWN_NELEM(dirs); i++) {
		print_message("  inputs replayed from %s, each through every "
		    "harness:\n", dirs[i]);
		fed += feed_dir(dirs[i]);
	}
	/* the directories are there, and hold something */
	assert_true(fed > 0);
}

/* The harnesses see through a broken invariant: a state that writes
 * differently when read back would abort; here one that does not. */
static void
test_harness_smoke(void **state)
{
	static const char	 ok[] =
	    "game: {name: g, turn: 0, attacker: a}\n"
	    "table: {width: 10, height: 10}\n"
	    "sides: [{id: a, home_edge: south}, {id: b, home_edge: north}]\n"
	    "units: []\n";
	size_t			 h;

	for (h = 0; h < CROWN_NELEM(harnesses); h++) {
		assert_int_equal(harnesses[h].fn((const uint8_t *)ok,
		    sizeof(ok) - 1), 0);
		assert_int_equal(harnesses[h].fn((const uint8_t *)"", 0), 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_harness_smoke),
		cmocka_unit_test(test_crashers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
