/*
 * test-story.c: a unit's strength after a turn read from the unit's own
 * part of the committed state (crown_story_strength_read, story.h) is
 * the line the whole state gives, for every unit; and the same when the
 * state is laid out otherwise than crown writes it, where the whole
 * file is read.
 */
#include <sys/stat.h>
#include <unistd.h>

#include "testrun.h"
#include "testutil.h"

#include "crown/campaign.h"
#include "crown/cmd.h"
#include "crown/history.h"
#include "crown/state.h"
#include "crown/story.h"
#include "crown/xalloc.h"

#define DATA	"tests/data/campaign"
#define SCEN	"tests/data/scenario-small.yaml"
#define RULES	"rules/maximilian.yaml"
#define TMPL	"templates"
#define SECRET	DATA "/secret.hex"

static char	base[] = "/tmp/crown-story-XXXXXX";

/* Every unit's line from the part of main's state is the whole one's;
 * an id of no unit gives none. */
static void
same_lines(const char *dir)
{
	struct crown_history	*h = NULL;
	struct crown_diags	 d = { 0 };
	struct crown_buf	 b = { 0 };
	struct crown_state	*s = NULL;
	char			 id[41], *whole, *part;
	size_t			 i;

	assert_int_equal(crown_history_open(&h, dir, false, &d), 0);
	assert_int_equal(crown_history_ref_get(id, h, CROWN_MAIN_REF, &d),
	    0);
	assert_int_equal(crown_history_read(&b, h, id, CROWN_CAMPAIGN_STATE,
	    &d), 0);
	assert_int_equal(crown_state_parse(&s, "state.yaml", b.data, b.len,
	    &d), 0);
	assert_true(s->nunits > 2);
	for (i = 0; i < s->nunits; i++) {
		whole = crown_story_strength(s, s->units[i].id);
		assert_int_equal(crown_story_strength_read(&part, h, id,
		    "turn-1", s->units[i].id, &d), 0);
		assert_non_null(part);
		assert_string_equal(part, whole);
		free(part);
		free(whole);
	}
	assert_int_equal(crown_story_strength_read(&part, h, id, "turn-1",
	    "no-such-unit", &d), 0);
	assert_null(part);
	assert_int_equal(d.n, 0);
	crown_state_free(s);
	crown_buf_release(&b);
	crown_history_close(h);
}

static void
test_strength_read(void **state)
{
	char	*dir = xasprintf("%s/c", base), *cmd;

	(void)state;
	EXPECT(0, crown_cmd_new, dir, "--scenario", SCEN, "--rules", RULES,
	    "--secret-file", SECRET, "--templates", TMPL, "--date",
	    "2026-03-01T10:00:00+01:00");
	EXPECT(0, crown_cmd_turn, dir, DATA "/french-1.yaml",
	    DATA "/republic-1.yaml", "--templates", TMPL, "--date",
	    "2026-03-08");
	same_lines(dir);
	/* the units indented below "units:": no line "- id: ID" at the
	 * start, so the whole file is read, with the same lines */
	cmd = xasprintf("cd '%s' && awk '/^[a-z]/ { u = ($0 == \"units:\") "
	    "} { print (u && !/^units:/ ? \"  \" : \"\") $0 }' state.yaml "
	    "> s && mv s state.yaml && grep -q '^  - id: ' state.yaml && "
	    "git -c user.name=t -c user.email=t@example.org commit -q "
	    "-m 'Turn 1: by hand' state.yaml", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	same_lines(dir);
	free(dir);
}

static int
setup(void **state)
{
	(void)state;
	memcpy(base, "/tmp/crown-story-XXXXXX", sizeof(base));
	return mkdtemp(base) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	crown_campaign_remove_tree(base, false);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_strength_read, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
