/*
 * The journal's chain of MACs: the construction against test vectors
 * computed with another implementation (Python's hmac), and journals
 * changed after they were written (a record edited, removed, inserted, a
 * block's data changed, another secret) refused naming the first record
 * that does not match, while an untouched one replays whole.
 */
#include <CUnit/CUnit.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "journal.h"
#include "journal_testutil.h"
#include "run_auth.h"
#include "suites.h"

static char dir[64], path[96];

static void fresh_dir(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-jmac-%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/journal.db", dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void test_vectors(void)
{
	struct journal_key k = {1, {0}};
	struct run_secret s = {1, 32, "0123456789abcdef0123456789abcdef"};
	static const uint8_t data[] = {1, 2, 3, 4};
	struct dls_result b = {0, 2, data, sizeof(data), 0};
	uint8_t run[JOURNAL_MAC_LEN], ev[JOURNAL_MAC_LEN], jk[RUN_AUTH_PROOF_LEN];
	char h[2 * JOURNAL_MAC_LEN + 1];

	for (int i = 0; i < JOURNAL_KEY_LEN; i++)
		k.bytes[i] = (uint8_t)i;
	journal_mac_run(&k, 2, "{\"run\":\"v\"}", run);
	hex(run, sizeof(run), h);
	CU_ASSERT_STRING_EQUAL(h, "8ace22de75725bf7c657e556db264999f8eae55a24c2d02acbe44840cb0647bb");
	journal_mac_event(&k, run, 1, "result", "{\"slave\":0}", &b, 1, ev);
	hex(ev, sizeof(ev), h);
	CU_ASSERT_STRING_EQUAL(h, "7a3154d84acdbd2d1144426e4a05faee1205aa4fb0dc98bdc210a22b908af25d");
	journal_mac_run(NULL, 2, "{\"run\":\"v\"}", run); /* an open run: the empty key */
	hex(run, sizeof(run), h);
	CU_ASSERT_STRING_EQUAL(h, "b44e245fc9f02d190c1b6a1085c1ffcbd3147176bcce8c91cc16c22e53ca9e5e");
	CU_ASSERT_EQUAL(run_auth_journal_key(&s, jk), 1);
	hex(jk, sizeof(jk), h);
	CU_ASSERT_STRING_EQUAL(h, "5f4bc9ef1912901815ac8498cf602757d64da5d71675bd44f1c9b81080b0df91");
	s.set = 0;
	CU_ASSERT_EQUAL(run_auth_journal_key(&s, jk), 0);
}

static int count_events(void *ctx, const char *kind, const char *body,
			const struct dls_result *blocks, size_t n, char *why, size_t len)
{
	(void)kind, (void)body, (void)blocks, (void)n, (void)why, (void)len;
	++*(int *)ctx;
	return DLS_OK;
}

/* A journal of five events under key, the third and fourth with a block each. */
static void write_journal(const struct journal_key *key)
{
	static const uint8_t data[2][3] = {{7, 8, 9}, {10, 11, 12}};
	struct journal *j;
	char why[256];
	uint64_t t = 0;

	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(journal_create(dir, "{\"run\":\"m\"}", 0, key, &j, why, sizeof(why)),
			      DLS_OK);
	for (int i = 0; i < 5; i++) {
		struct dls_result b = {10 * i, 3, data[i % 2], 3, 0};
		char *body = malloc(32);

		snprintf(body, 32, "{\"n\":%d}", i);
		t = journal_append(j, i == 4 ? "done" : "event", body, &b, i == 2 || i == 3);
	}
	journal_wait(j, t);
	journal_close(j);
}

/* Resumes the journal under key: DLS_OK or the refusal, with why and the
 * events replayed before it. */
static int resume(const struct journal_key *key, char *why, size_t len, int *seen)
{
	struct journal *j;
	size_t n;
	int rc;

	*seen = 0;
	rc = journal_start(dir, "{\"run\":\"m\"}", 0, key, 1, count_events, seen, &n, &j, why, len);
	if (!rc)
		journal_close(j);
	return rc;
}

static void sql(const char *stmt)
{
	sqlite3 *db;

	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, stmt, NULL, NULL, NULL), SQLITE_OK);
	CU_ASSERT(sqlite3_changes(db) > 0);
	sqlite3_close(db);
}

static void test_tampered(void)
{
	struct journal_key k = {1, {0}}, other = {1, {0}};
	struct journal *j;
	char why[512];
	int seen;
	uint64_t t;

	memset(k.bytes, 0x5a, sizeof(k.bytes));
	memset(other.bytes, 0xa5, sizeof(other.bytes));
	write_journal(&k);
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_OK);
	CU_ASSERT_EQUAL(seen, 5);
	/* resumed and appended to: the chain goes on across the resume */
	CU_ASSERT_EQUAL_FATAL(journal_start(dir, "{\"run\":\"m\"}", 0, &k, 1, count_events, &seen,
					    NULL, &j, why, sizeof(why)),
			      DLS_OK);
	t = journal_append(j, "more", NULL, NULL, 0);
	journal_wait(j, t);
	journal_close(j);
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_OK);
	CU_ASSERT_EQUAL(seen, 6);
	/* another secret, and an open run's empty key */
	CU_ASSERT_EQUAL(resume(&other, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "the run's record does not match its MAC"));
	CU_ASSERT_EQUAL(resume(NULL, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_EQUAL(seen, 0);

	write_journal(&k); /* an event's body edited */
	sql("UPDATE event SET body = '{\"n\":9}' WHERE id = 3");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 3 (event 'event') does not match its MAC"));
	CU_ASSERT_EQUAL(seen, 2); /* the ones before it only */

	write_journal(&k); /* a block's data */
	sql("UPDATE block SET data = x'070809' WHERE event = 4");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 4 "));

	write_journal(&k); /* a block's count */
	sql("UPDATE block SET count = 2 WHERE event = 3");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 3 "));

	write_journal(&k); /* a record removed: the next one breaks */
	sql("DELETE FROM event WHERE id = 2");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 3 "));

	write_journal(&k); /* a block removed */
	sql("DELETE FROM block WHERE event = 3");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 3 "));

	write_journal(&k); /* a record inserted, with its MAC copied from another */
	sql("INSERT INTO event(id, kind, body, mac) SELECT 6, kind, body, mac FROM event "
	    "WHERE id = 5");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 6 (event 'done')"));

	write_journal(&k); /* a block after the last event */
	sql("INSERT INTO block(event, start, count, data) VALUES(9, 0, 1, x'01')");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a block of no event (9)"));

	write_journal(&k); /* the configuration edited */
	sql("UPDATE run SET config = '{\"run\":\"n\"}'");
	CU_ASSERT_EQUAL(resume(&k, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "the run's record does not match its MAC"));

	write_journal(NULL); /* an open run: the empty key catches an edit by hand */
	CU_ASSERT_EQUAL(resume(NULL, why, sizeof(why), &seen), DLS_OK);
	sql("UPDATE event SET kind = 'other' WHERE id = 1");
	CU_ASSERT_EQUAL(resume(NULL, why, sizeof(why), &seen), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "record 1 (event 'other')"));
	CU_ASSERT_EQUAL(tu_journal_rechain(path, NULL), 0); /* and a forger who knows it */
	CU_ASSERT_EQUAL(resume(NULL, why, sizeof(why), &seen), DLS_OK);
	fresh_dir();
}

int journal_mac_suite_add(void)
{
	CU_pSuite s = CU_add_suite("journal's MACs", NULL, NULL);

	return !s || !CU_add_test(s, "test vectors", test_vectors) ||
	       !CU_add_test(s, "journals changed after they were written", test_tampered);
}
