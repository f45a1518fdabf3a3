/*
 * The Tree Scheduling simulator against Kim and Purtilo 1996: Example 4.3 exactly
 * (docs/schemes.md 6.6), the analytic checks of Theorems 4.1-4.3 (6.7), and
 * conservation of work on random clusters with every gamma, allocation and
 * direction.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "suites.h"
#include "sim.h"

/* Task level: unit costs, equal allocation of N tasks to each PE. */
static int run_tasks(const double *tau, int p, int64_t n, enum tree_gamma g,
		     struct tree_sim_result *r)
{
	struct tree_sim_config c;

	memset(&c, 0, sizeof(c));
	c.tau = tau;
	c.npes = p;
	c.iterations = n * p;
	c.t_unit = 1;
	c.alloc = TREE_ALLOC_EQUAL;
	c.gamma = g;
	return tree_sim_run(&c, r);
}

static void test_example_4_3(void)
{
	const double tau[] = {1, 2, 3, 4};
	struct tree_sim_result r;

	/* proportional gamma, N = 60: P4 takes 36 from P1, P3 takes 12 from P2 */
	CU_ASSERT_EQUAL_FATAL(run_tasks(tau, 4, 60, TREE_GAMMA_PROPORTIONAL, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 24.0, 1e-9); /* 2N/5 */
	CU_ASSERT_EQUAL(r.migrations, 2);
	CU_ASSERT_EQUAL(r.moved, 48);
	CU_ASSERT_EQUAL_FATAL(r.nunits, 2);
	CU_ASSERT_EQUAL(r.units[0].size, 12);
	CU_ASSERT_EQUAL(r.units[1].size, 36);
	/* chain P1 P4 P2 P3: P1->P4 is link 0, P2->P3 link 2, the root link idle */
	CU_ASSERT_EQUAL(r.link_migrations[0], 1);
	CU_ASSERT_EQUAL(r.link_migrations[1], 0);
	CU_ASSERT_EQUAL(r.link_migrations[2], 1);
	tree_sim_result_free(&r);
	/* gamma 1/2, N = 600: 9 migrations, 478 moved, 241 against the ideal 240 */
	CU_ASSERT_EQUAL_FATAL(run_tasks(tau, 4, 600, TREE_GAMMA_HALF, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 241.0, 1e-9);
	CU_ASSERT_EQUAL(r.migrations, 9);
	CU_ASSERT_EQUAL(r.moved, 478);
	tree_sim_result_free(&r);
}

static void test_theorems(void)
{
	const double pairs[][2] = {{1, 3}, {1, 2}, {1, 4}, {2, 3}, {1, 8}, {3, 5}};
	struct tree_sim_result r;

	/* tau = (1,3), N = 3000: 1498 moved, 7 migrations, time 1502 */
	CU_ASSERT_EQUAL_FATAL(run_tasks(pairs[0], 2, 3000, TREE_GAMMA_HALF, &r), DLS_OK);
	CU_ASSERT_EQUAL(r.moved, 1498);
	CU_ASSERT_EQUAL(r.migrations, 7);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 1502.0, 1e-9);
	tree_sim_result_free(&r);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		double v = pairs[i][0], w = pairs[i][1], n = 3000;
		double moved = (w - v) / (w + v) * n; /* Theorem 4.1 */
		double k = log(1 / n) / log((1 - v / w) / 2); /* Theorem 4.2 */
		double t = 2 * n / (v + w); /* Theorem 4.3 */

		CU_ASSERT_EQUAL_FATAL(run_tasks(pairs[i], 2, 3000, TREE_GAMMA_HALF, &r), DLS_OK);
		CU_ASSERT(fabs((double)r.moved - moved) <= (double)r.migrations + 1);
		CU_ASSERT(fabs((double)r.migrations - k) <= 1.5);
		CU_ASSERT(r.t_p >= t && r.t_p <= t * 1.01 + 2);
		tree_sim_result_free(&r);
	}
}

/* Random clusters: every iteration computed once, T_p >= the ideal. */
static void test_conservation(void)
{
	srand(7);
	for (int trial = 0; trial < 300; trial++) {
		int p = 1 + rand() % 12;
		double tau[12], sum = 0;
		uint64_t cost[500];
		int64_t iters = 1 + rand() % 500, total = 0, work = 0;
		struct tree_sim_config c;
		struct tree_sim_result r;

		for (int i = 0; i < p; i++) {
			tau[i] = 1 + rand() % 4;
			sum += tau[i];
		}
		for (int64_t i = 0; i < iters; i++) {
			cost[i] = 1 + (uint64_t)(rand() % 9);
			work += (int64_t)cost[i];
		}
		memset(&c, 0, sizeof(c));
		c.tau = tau;
		c.npes = p;
		c.iterations = iters;
		c.cost = cost;
		c.t_unit = 1;
		c.alloc = (enum tree_alloc)(trial % 3);
		c.gamma = (enum tree_gamma)((trial / 3) % 3);
		c.bidirectional = trial % 2;
		c.latency = (trial % 5) * 0.1;
		CU_ASSERT_EQUAL_FATAL(tree_sim_run(&c, &r), DLS_OK);
		for (int i = 0; i < p; i++)
			total += r.pe_iterations[i];
		CU_ASSERT_EQUAL(total, iters);
		CU_ASSERT(r.t_p >= (double)work / sum - 1e-9);
		tree_sim_result_free(&r);
	}
}

int tree_sim_suite_add(void)
{
	CU_pSuite s = CU_add_suite("tree scheduling simulator", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "Kim and Purtilo 1996 Example 4.3 exactly", test_example_4_3) ||
	       !CU_add_test(s, "Theorems 4.1-4.3 (docs/schemes.md 6.7)", test_theorems) ||
	       !CU_add_test(s, "random clusters: work conserved", test_conservation);
}
