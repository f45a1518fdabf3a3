/*
 * The cluster tree and migration chain (docs/schemes.md 6.1-6.3, 6.5 and the Tree
 * items of section 8): Example 4.2, Fig. 4, and properties over random
 * throughputs.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "suites.h"
#include "tree_plan.h"

static void test_example_4_2(void)
{
	const double tau[] = {1, 2, 3, 4};
	struct tree_plan *t;
	char buf[64];

	CU_ASSERT_EQUAL_FATAL(tree_plan_build(tau, 4, &t), DLS_OK);
	CU_ASSERT_EQUAL(tree_plan_format(t, buf, sizeof(buf)), DLS_OK);
	/* (P1,P4) and (P2,P3); the more balanced (P2,P3) is faster: right */
	CU_ASSERT_STRING_EQUAL(buf, "((0,3),(1,2))");
	CU_ASSERT_EQUAL(t->chain[0], 0);
	CU_ASSERT_EQUAL(t->chain[1], 3);
	CU_ASSERT_EQUAL(t->chain[2], 1);
	CU_ASSERT_EQUAL(t->chain[3], 2);
	CU_ASSERT_EQUAL(t->link_level[0], 1);
	CU_ASSERT_EQUAL(t->link_level[1], 2);
	CU_ASSERT_EQUAL(t->link_level[2], 1);
	CU_ASSERT_DOUBLE_EQUAL(t->nodes[t->root].tau, 10.0, 0);
	tree_plan_destroy(t);
}

/* Fig. 4: for any 8 throughputs the link levels are 1 2 1 3 1 2 1. */
static void test_fig4(void)
{
	const double sets[][8] = {{1, 2, 3, 4, 5, 6, 7, 8},
				  {1, 1, 1, 1, 2, 2, 2, 2},
				  {5, 1, 9, 2, 2, 7, 3, 3},
				  {1, 1, 1, 1, 1, 1, 1, 1}};
	const int want[] = {1, 2, 1, 3, 1, 2, 1};

	for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
		struct tree_plan *t;

		CU_ASSERT_EQUAL_FATAL(tree_plan_build(sets[s], 8, &t), DLS_OK);
		for (int k = 0; k < 7; k++)
			CU_ASSERT_EQUAL(t->link_level[k], want[k]);
		tree_plan_destroy(t);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Properties over random throughputs. */
static void test_random_properties(void)
{
	unsigned seed = 12345;
	int bad = 0;

	for (int r = 0; r < 2000; r++) {
		int p = 1 + (int)(rand_r(&seed) % 40);
		double tau[40], sorted[40], sum = 0;
		int seen[40] = {0};
		struct tree_plan *t;
		int64_t start[40], count[40], total = 0, I = 1 + rand_r(&seed) % 5000;

		for (int i = 0; i < p; i++) {
			tau[i] = 1 + rand_r(&seed) % 8;
			sum += tau[i];
		}
		if (tree_plan_build(tau, p, &t)) {
			bad++;
			continue;
		}
		for (int k = 0; k < p; k++)
			seen[t->chain[k]]++;
		for (int i = 0; i < p; i++)
			bad += seen[i] != 1;
		bad += t->nodes[t->root].tau != sum;
		bad += t->nnodes != 2 * p - 1;
		for (int n = p; n < t->nnodes; n++) {
			const struct tree_node *nd = &t->nodes[n];

			/* the right child is at least as fast as the left */
			bad += t->nodes[nd->right].tau < t->nodes[nd->left].tau;
		}
		/* level-1 pairs of an even count are bitonic: (k-th slowest, k-th fastest) */
		if (p % 2 == 0) {
			memcpy(sorted, tau, (size_t)p * sizeof(double));
			qsort(sorted, (size_t)p, sizeof(double), cmp_double);
			for (int n = p; n < p + p / 2; n++) {
				int k = n - p;
				const struct tree_node *nd = &t->nodes[n];

				bad += t->nodes[nd->left].tau != sorted[k] ||
				       t->nodes[nd->right].tau != sorted[p - 1 - k];
			}
		}
		for (int mode = 0; mode < 3; mode++) {
			total = 0;
			bad += tree_plan_allocate(t, tau, I, (enum tree_alloc)mode, start, count) !=
			       DLS_OK;
			for (int i = 0; i < p; i++)
				total += count[i];
			bad += total != I;
		}
		tree_plan_destroy(t);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void test_allocation(void)
{
	const double tau[] = {1, 2, 3, 4};
	struct tree_plan *t;
	int64_t start[4], count[4];

	CU_ASSERT_EQUAL_FATAL(tree_plan_build(tau, 4, &t), DLS_OK);
	/* equal: 10 = 2+2+3+3, extras to the rightmost of the chain 0 3 1 2 */
	CU_ASSERT_EQUAL(tree_plan_allocate(t, tau, 10, TREE_ALLOC_EQUAL, start, count), DLS_OK);
	CU_ASSERT_EQUAL(count[0], 2);
	CU_ASSERT_EQUAL(count[3], 2);
	CU_ASSERT_EQUAL(count[1], 3);
	CU_ASSERT_EQUAL(count[2], 3);
	CU_ASSERT_EQUAL(start[0], 0);
	CU_ASSERT_EQUAL(start[3], 2);
	CU_ASSERT_EQUAL(start[1], 4);
	CU_ASSERT_EQUAL(start[2], 7);
	/* proportional: floor(tau I / 10) = 1,2,3,4 for I = 11, the extra to the fastest */
	CU_ASSERT_EQUAL(tree_plan_allocate(t, tau, 11, TREE_ALLOC_PROPORTIONAL, start, count),
			DLS_OK);
	CU_ASSERT_EQUAL(count[0], 1);
	CU_ASSERT_EQUAL(count[1], 2);
	CU_ASSERT_EQUAL(count[2], 3);
	CU_ASSERT_EQUAL(count[3], 5);
	tree_plan_destroy(t);
}

static void test_refusals(void)
{
	const double bad[] = {1, 0, 2};
	struct tree_plan *t;

	CU_ASSERT_EQUAL(tree_plan_build(bad, 3, &t), DLS_EINVAL);
	CU_ASSERT_EQUAL(tree_plan_build(bad, 0, &t), DLS_EINVAL);
	tree_plan_destroy(NULL);
}

int tree_plan_suite_add(void)
{
	CU_pSuite s = CU_add_suite("tree_plan (docs/schemes.md 6)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "Example 4.2", test_example_4_2) ||
	       !CU_add_test(s, "Fig. 4 link levels", test_fig4) ||
	       !CU_add_test(s, "random throughputs", test_random_properties) ||
	       !CU_add_test(s, "initial allocation", test_allocation) ||
	       !CU_add_test(s, "refusals", test_refusals);
}
