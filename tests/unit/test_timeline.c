/*
 * test_timeline.c - the master's record of every chunk: a chunk is
 * delivered when its last iteration came, from its own PE only; a cut
 * chunk ends at its new bound; a measured time goes to the chunk that
 * begins there.
 */
#include <CUnit/CUnit.h>

#include "suites.h"
#include "timeline.h"

static void test_deliver_cut_measure(void)
{
	struct timeline t = {0}, copy;

	CU_ASSERT_EQUAL(timeline_give(&t, 0, 0, 10, 0.1), 0);
	CU_ASSERT_EQUAL(timeline_give(&t, 1, 10, 10, 0.2), 0);
	CU_ASSERT_EQUAL(timeline_give(&t, 0, 20, 5, 0.3), 0);
	timeline_deliver(&t, 0, 0, 4, 0.5);	/* part of chunk 0 */
	CU_ASSERT(t.v[0].delivered < 0);
	timeline_deliver(&t, 1, 0, 10, 0.55); /* not PE 1's: ignored */
	CU_ASSERT_EQUAL(t.v[0].done, 4);
	timeline_deliver(&t, 0, 4, 6, 0.6); /* the rest: delivered now */
	CU_ASSERT_DOUBLE_EQUAL(t.v[0].delivered, 0.6, 1e-12);
	timeline_cut(&t, 1, 10, 14);	     /* its tail went elsewhere */
	CU_ASSERT_EQUAL(t.v[1].count, 4);
	CU_ASSERT(t.v[1].cut);
	timeline_deliver(&t, 1, 10, 6, 0.9); /* the two beyond the bound do not count */
	CU_ASSERT_EQUAL(t.v[1].done, 4);
	CU_ASSERT_DOUBLE_EQUAL(t.v[1].delivered, 0.9, 1e-12);
	timeline_measured(&t, 0, 20, 5, 0.25);
	timeline_measured(&t, 0, 21, 4, 9.0); /* begins no chunk: ignored */
	CU_ASSERT_DOUBLE_EQUAL(t.v[2].compute, 0.25, 1e-12);
	CU_ASSERT(t.v[2].delivered < 0);
	CU_ASSERT_EQUAL(timeline_copy(&copy, &t), 0);
	CU_ASSERT_EQUAL(copy.n, 3);
	CU_ASSERT_EQUAL(copy.v[1].count, 4);
	timeline_free(&copy);
	timeline_free(&t);
	CU_ASSERT_PTR_NULL(t.v);
}

int timeline_suite_add(void)
{
	CU_pSuite s = CU_add_suite("timeline", NULL, NULL);

	return !s || !CU_add_test(s, "delivered, cut and measured chunks", test_deliver_cut_measure);
}
