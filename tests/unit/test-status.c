/*
 * test-status.c: crown_campaign_status (history/status.c), in-process:
 * for each side whether its orders for the next turn are in, late or
 * missing, what crown turn DIR makes of every pending file, and what
 * becomes of the late orders and the proofs (tidy.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

#include "crown/calendar.h"
#include "crown/campaign.h"
#include "crown/mail.h"
#include "crown/state.h"
#include "crown/status.h"

#define DATA	"tests/data"

static char	base[64];

/* Write text to DIR/name. */
static void
put(const char *name, const char *text)
{
	char	*path = xasprintf("%s/%s", base, name);
	FILE	*fp;

	assert_non_null(fp = fopen(path, "w"));
	fputs(text, fp);
	fclose(fp);
	free(path);
}

/* The French orders with each edit[2k] replaced by edit[2k + 1]. */
static void
put_orders(const char *name, const char *const *edit)
{
	char	*text = tu_slurp(DATA "/orders-french-ok.yaml"), *at, *next;

	assert_non_null(text);
	for (; edit[0] != NULL; edit += 2) {
		assert_non_null(at = strstr(text, edit[0]));
		next = xasprintf("%.*s%s%s", (int)(at - text), text, edit[1],
		    at + strlen(edit[0]));
		free(text);
		text = next;
	}
	put(name, text);
	free(text);
}

static const struct crown_pending_file *
file(const struct crown_orders_status *st, const char *path)
{
	size_t	k;

	for (k = 0; k < st->nfile; k++)
		if (strcmp(st->file[k].path, path) == 0)
			return &st->file[k];
	fail_msg("no pending file %s", path);
	return NULL;
}

/* Every verdict at once: a side with two files for the turn (the first
 * played, under another name; the second refused), a late side with a
 * file for another turn shown on its line, a file for no side and one
 * that cannot be read. */
static void
test_verdicts(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_orders_status st;
	const struct crown_pending_file *f;
	char			*log, *text, rec[CROWN_SHA256_HEX];
	long long		 now;

	(void)state;
	assert_int_equal(crown_state_load(&s, DATA "/state-small.yaml", &d),
	    0);
	put_orders("orders/pending/a.yaml", (const char *[]){ NULL });
	put_orders("orders/pending/french.yaml", (const char *[]){ NULL });
	put_orders("orders/pending/republic.yaml", (const char *[]){
	    "side: french", "side: republic", "turn: 3", "turn: 5", NULL });
	put_orders("orders/pending/x.yaml", (const char *[]){
	    "side: french", "side: prussia", NULL });
	put("orders/pending/y.yaml", "{{{\n");
	text = tu_slurp(DATA "/orders-french-ok.yaml");
	crown_mail_sha256_hex(rec, text, strlen(text));
	free(text);
	log = xasprintf("2026-12-04T10:00:00Z accepted 3 french %s m a@b\n"
	    "2026-12-05T19:00:00Z late 3 republic 00 m c@d\n", rec);
	put("orders/inbox.log", log);
	free(log);
	assert_int_equal(crown_cal_parse_time(&now, "2026-12-06T00:00:00Z"),
	    0);

	crown_campaign_status(&st, base, s, now);
	assert_false(st.over);
	assert_int_equal(st.next, s->turn + 1);
	assert_int_equal(st.nin, 1);
	assert_int_equal(st.nside, 2);
	assert_int_equal(st.nfile, 5);

	assert_int_equal(st.side[0].in, CROWN_ORDERS_IN);
	f = &st.file[st.side[0].file];
	assert_string_equal(f->path, "orders/pending/a.yaml");
	assert_string_equal(f->rec, rec);
	assert_false(f->named);
	assert_int_equal(f->verdict, CROWN_PENDING_PLAYED);
	assert_string_equal(st.side[0].when, "2026-12-04T10:00:00Z");
	assert_int_equal(file(&st, "orders/pending/french.yaml")->verdict,
	    CROWN_PENDING_SECOND);
	assert_int_equal(file(&st, "orders/pending/french.yaml")->side, -1);

	assert_int_equal(st.side[1].in, CROWN_ORDERS_LATE);
	assert_string_equal(st.side[1].when, "2026-12-05T19:00:00Z");
	f = file(&st, "orders/pending/republic.yaml");
	assert_int_equal(f->verdict, CROWN_PENDING_OTHER_TURN);
	assert_int_equal(f->side, 1);

	assert_int_equal(file(&st, "orders/pending/x.yaml")->verdict,
	    CROWN_PENDING_NO_SIDE);
	f = file(&st, "orders/pending/y.yaml");
	assert_int_equal(f->verdict, CROWN_PENDING_UNREADABLE);
	assert_null(f->o);
	assert_int_equal(f->side, -1);
	crown_campaign_status_release(&st);
	crown_state_free(s);
	crown_diags_release(&d);
}

static const struct crown_tidy_file *
work(const struct crown_tidy *t, const char *path)
{
	size_t	k;

	for (k = 0; k < t->n; k++)
		if (strcmp(t->v[k].path, path) == 0)
			return &t->v[k];
	fail_msg("no work file %s", path);
	return NULL;
}

/*
 * Issue 34, housekeeping: late orders for the open turn are on their
 * side's line, even beside orders in; those of a turn played, and a
 * proof of orders no longer pending, are obsolete; a late file that is
 * not orders is left alone.  Once the turn is played (the pending
 * orders gone with it), the open turn's late orders and the proof of
 * the orders played are obsolete too.
 */
static void
test_work_files(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_orders_status st;
	struct crown_tidy	 t;
	char			*text, *proof, rec[CROWN_SHA256_HEX];
	char			*gone[1], **paths = NULL;
	size_t			 n = 0;

	(void)state;
	assert_int_equal(crown_state_load(&s, DATA "/state-small.yaml", &d),
	    0);
	put_orders("orders/pending/french.yaml", (const char *[]){ NULL });
	text = tu_slurp(DATA "/orders-french-ok.yaml");
	crown_mail_sha256_hex(rec, text, strlen(text));
	free(text);
	proof = xasprintf("%s openpgp\n", rec);
	put("orders/pending/french.proof", proof);
	free(proof);
	put("orders/pending/republic.proof", "00 password\n");
	put_orders("orders/late/french.yaml", (const char *[]){
	    "[hold]", "[hold, hold]", NULL });
	put_orders("orders/late/republic.yaml", (const char *[]){
	    "side: french", "side: republic", "turn: 3", "turn: 2", NULL });
	put("orders/late/x.yaml", "{{{\n");

	crown_campaign_status(&st, base, s, 0);
	assert_int_equal(st.tidy.n, 5);
	assert_int_equal(st.side[0].in, CROWN_ORDERS_IN);
	assert_true(st.side[0].late >= 0);
	assert_string_equal(st.tidy.v[st.side[0].late].path,
	    "orders/late/french.yaml");
	assert_int_equal(st.tidy.v[st.side[0].late].kind, CROWN_TIDY_LATE);
	assert_null(st.side[0].late_when);
	assert_int_equal(st.side[1].in, CROWN_ORDERS_MISSING);
	assert_int_equal(st.side[1].late, -1);
	assert_int_equal(work(&st.tidy, "orders/late/republic.yaml")->kind,
	    CROWN_TIDY_LATE_PLAYED);
	assert_int_equal(work(&st.tidy, "orders/late/x.yaml")->kind,
	    CROWN_TIDY_UNREADABLE);
	assert_int_equal(work(&st.tidy, "orders/pending/french.proof")->kind,
	    CROWN_TIDY_PROOF);
	assert_int_equal(work(&st.tidy, "orders/pending/republic.proof")->kind,
	    CROWN_TIDY_PROOF_GONE);
	assert_true(crown_tidy_obsolete(work(&st.tidy,
	    "orders/pending/republic.proof")));
	assert_false(crown_tidy_obsolete(work(&st.tidy,
	    "orders/late/x.yaml")));
	crown_campaign_status_release(&st);

	/* turn 3 played with orders/pending/french.yaml */
	gone[0] = xasprintf("%s/orders/pending/french.yaml", base);
	crown_campaign_tidy(&t, base, 3, gone, 1);
	assert_int_equal(work(&t, "orders/late/french.yaml")->kind,
	    CROWN_TIDY_LATE_PLAYED);
	assert_int_equal(work(&t, "orders/pending/french.proof")->kind,
	    CROWN_TIDY_PROOF_GONE);
	crown_tidy_paths(&paths, &n, &t, base);
	assert_int_equal(n, 4);
	text = xasprintf("%s/orders/late/french.yaml", base);
	assert_string_equal(paths[0], text);
	free(text);
	text = xasprintf("%s/orders/pending/republic.proof", base);
	assert_string_equal(paths[3], text);
	free(text);
	for (; n > 0; n--)
		free(paths[n - 1]);
	free(paths);
	free(gone[0]);
	crown_tidy_release(&t);
	crown_state_free(s);
	crown_diags_release(&d);
}

/* No deadline, nothing pending, no log: every side missing. */
static void
test_nothing_in(void **state)
{
	struct crown_diags	 d = { 0 };
	struct crown_state	*s = NULL;
	struct crown_orders_status st;

	(void)state;
	assert_int_equal(crown_state_load(&s, DATA "/state-small.yaml", &d),
	    0);
	crown_campaign_status(&st, base, s, 0);
	assert_false(st.deadline);
	assert_false(st.passed);
	assert_int_equal(st.nin, 0);
	assert_int_equal(st.nfile, 0);
	assert_int_equal(st.side[0].in, CROWN_ORDERS_MISSING);
	assert_int_equal(st.side[1].in, CROWN_ORDERS_MISSING);
	assert_null(st.side[1].when);
	crown_campaign_status_release(&st);
	crown_state_free(s);
	crown_diags_release(&d);
}

static int
setup(void **state)
{
	char	*p;
	int	 error;

	(void)state;
	memcpy(base, "/tmp/crown-status-XXXXXX", sizeof("/tmp/crown-status-"
	    "XXXXXX"));
	if (mkdtemp(base) == NULL)
		return -1;
	p = xasprintf("%s/orders", base);
	error = mkdir(p, 0777);
	free(p);
	p = xasprintf("%s/orders/pending", base);
	error = error != 0 ? error : mkdir(p, 0777);
	free(p);
	p = xasprintf("%s/orders/late", base);
	error = error != 0 ? error : mkdir(p, 0777);
	free(p);
	return error;
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
		cmocka_unit_test_setup_teardown(test_verdicts, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_nothing_in, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_work_files, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("status", tests, NULL, NULL);
}
