/*
 * Workloads: the table (built-ins, a host's own body, replacement), the
 * parameter helpers, the loop a workload describes, work_compute in both
 * iteration orders, the result checks of Mandelbrot and the pendulum, and
 * the .npy header numpy expects.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/workload.h"
#include "mandel.h"
#include "npy_file.h"
#include "pendulum.h"
#include "suites.h"
#include "work.h"

static void test_params(void)
{
	struct dls_param p[DLS_MAX_PARAMS];
	int n = 0;
	int64_t i = 7;
	double d = 0.5;
	char why[200];
	static const char *const known[] = {"a", "b", NULL};

	CU_ASSERT_EQUAL(dls_params_set(p, &n, "a", "12"), DLS_OK);
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "b", "2.5e-1"), DLS_OK);
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "a", "13"), DLS_OK); /* replaces */
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(dls_param_int(p, 2, "a", 0, 100, &i, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(i, 13);
	CU_ASSERT_EQUAL(dls_param_double(p, 2, "b", 0, 1, &d, why, sizeof(why)), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(d, 0.25, 0);
	i = 7;
	CU_ASSERT_EQUAL(dls_param_int(p, 2, "absent", 0, 100, &i, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(i, 7); /* the default stays */
	CU_ASSERT_EQUAL(dls_param_int(p, 2, "a", 0, 10, &i, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "parameter a: '13' is not an integer in 0..10");
	CU_ASSERT_EQUAL(dls_param_int(p, 2, "b", 0, 10, &i, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_EQUAL(dls_params_known(p, 2, known, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "c", "1"), DLS_OK);
	CU_ASSERT_EQUAL(dls_params_known(p, 3, known, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "unknown parameter 'c' (known: a b)");
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "", "1"), DLS_EINVAL);
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "x", "0123456789012345678901234567890123456789"
						 "012345678901234567890123"),
			DLS_EINVAL);
	for (int k = 0; n < DLS_MAX_PARAMS; k++) {
		char name[16];

		snprintf(name, sizeof(name), "p%d", k);
		CU_ASSERT_EQUAL(dls_params_set(p, &n, name, "1"), DLS_OK);
	}
	CU_ASSERT_EQUAL(dls_params_set(p, &n, "one-too-many", "1"), DLS_ENOMEM);
}

/* A host's loop body: result = the loop index as a little-endian int64,
 * cost = index; refuses to run index 13 when asked to. */
static int64_t host_calls;

static int host_open(void *user, const struct dls_param *p, size_t n, struct dls_loop *loop,
		     void **state, char *why, size_t len)
{
	int64_t count = 20;

	if (dls_param_int(p, n, "count", 1, 1000, &count, why, len))
		return DLS_EINVAL;
	*state = user;
	loop->iterations = count;
	loop->result_bytes = 8;
	snprintf(loop->dtype, sizeof(loop->dtype), "<i8");
	return DLS_OK;
}

static int host_body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		     char *why, size_t len)
{
	int64_t *o = out;

	host_calls++;
	for (int64_t x = first; x < first + count; x++) {
		if (x == 13 && state) {
			snprintf(why, len, "index 13 is unlucky");
			return DLS_EINVAL;
		}
		o[x - first] = x;
		*cost += (uint64_t)x;
	}
	return DLS_OK;
}

static void test_table_and_host_body(void)
{
	struct dls_workload w = {"host", NULL, host_open, NULL, host_body, NULL, NULL};
	struct dls_param p[1] = {{"count", "30"}};
	struct work wk;
	int64_t out[30];
	uint64_t cost = 0;
	char why[256];

	CU_ASSERT_PTR_NOT_NULL(dls_workload_find("mandelbrot"));
	CU_ASSERT_PTR_NOT_NULL(dls_workload_find("pendulum"));
	CU_ASSERT_PTR_NULL(dls_workload_find("host"));
	CU_ASSERT_EQUAL(dls_workload_register(&w), DLS_OK);
	CU_ASSERT_PTR_NOT_NULL(strstr(dls_workload_names(), "mandelbrot, pendulum, host"));
	CU_ASSERT_EQUAL(work_open(&wk, "host", p, 1, ITER_ORDER_INTERLEAVED, why, sizeof(why)),
			DLS_OK);
	CU_ASSERT_EQUAL(wk.loop.iterations, 30);
	/* interleaved: every iteration computes its own loop index, one call each */
	host_calls = 0;
	CU_ASSERT_EQUAL(work_compute(&wk, 0, 30, out, &cost, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(cost, 29 * 30 / 2);
	CU_ASSERT_EQUAL(host_calls, 30);
	for (int i = 0; i < 30; i++)
		CU_ASSERT_EQUAL(out[i], iter_order_column(&wk.order, i));
	work_close(&wk);
	/* natural: a chunk is one call */
	CU_ASSERT_EQUAL(work_open(&wk, "host", p, 1, ITER_ORDER_NATURAL, why, sizeof(why)), DLS_OK);
	host_calls = 0;
	CU_ASSERT_EQUAL(work_compute(&wk, 5, 10, out, &cost, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(host_calls, 1);
	CU_ASSERT(out[0] == 5 && out[9] == 14);
	work_close(&wk);
	/* the body's refusal comes back with its reason; so does a bad loop */
	w.user = &w;
	CU_ASSERT_EQUAL(dls_workload_register(&w), DLS_OK); /* replaces */
	CU_ASSERT_EQUAL(work_open(&wk, "host", p, 1, ITER_ORDER_NATURAL, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(work_compute(&wk, 10, 10, out, &cost, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "index 13 is unlucky");
	work_close(&wk);
	CU_ASSERT_EQUAL(work_open(&wk, "nosuch", p, 1, ITER_ORDER_NATURAL, why, sizeof(why)),
			DLS_ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown workload 'nosuch' (known: mandelbrot"));
	w.name = NULL;
	CU_ASSERT_EQUAL(dls_workload_register(&w), DLS_EINVAL);
	w.name = "this name is far too long for the table";
	CU_ASSERT_EQUAL(dls_workload_register(&w), DLS_EINVAL);
}

/* Results the kernel could not produce are named: iteration, column, row, value. */
static void test_mandel_checks(void)
{
	struct dls_param p[3] = {{"width", "8"}, {"height", "4"}, {"maxit", "50"}};
	uint16_t counts[2 * 4];
	struct dls_result r = {3, 2, counts, sizeof(counts), 0};
	struct work wk;
	uint64_t cost = 0;
	char why[256];

	CU_ASSERT_EQUAL_FATAL(
		work_open(&wk, "mandelbrot", p, 3, ITER_ORDER_NATURAL, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(wk.loop.result_bytes, 8);
	CU_ASSERT_STRING_EQUAL(wk.loop.dtype, "<u2");
	CU_ASSERT_EQUAL(work_compute(&wk, 3, 2, counts, &cost, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(work_check_results(&wk, &r, 1, why, sizeof(why)), DLS_OK);
	counts[6] = 51;
	CU_ASSERT_EQUAL(work_check_results(&wk, &r, 1, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "result of iteration 4 refused: column 4 row 2 carries count "
				    "51: a Mandelbrot count is 1..50 (maxit)");
	work_close(&wk);
	p[2] = (struct dls_param){"maxit", "0"};
	CU_ASSERT_EQUAL(work_open(&wk, "mandelbrot", p, 3, ITER_ORDER_NATURAL, why, sizeof(why)),
			DLS_EINVAL);
	CU_ASSERT_STRING_EQUAL(why, "parameter maxit: '0' is not an integer in 1..65535");
}

/* The pendulum: deterministic, its cost rising along the sweep, and its
 * check refusing what an integration cannot give. */
static void test_pendulum(void)
{
	struct pendulum_params pp;
	double a[PENDULUM_HEADER + 32], b[PENDULUM_HEADER + 32];
	struct dls_param p[1] = {{"count", "1000"}};
	struct work wk;
	char why[256];
	uint64_t c0, c1;

	pendulum_params_init(&pp);
	c0 = pendulum_run(&pp, 0, a);
	c1 = pendulum_run(&pp, 999, b);
	CU_ASSERT(c1 > 5 * c0);
	CU_ASSERT_DOUBLE_EQUAL(a[1], 2 * 3.14159265358979, 1e-3); /* small swings: 2 pi */
	CU_ASSERT(b[1] > 6 * a[1]);				      /* near the separatrix */
	pendulum_run(&pp, 999, a);
	CU_ASSERT_EQUAL(memcmp(a, b, sizeof(a)), 0); /* bit-identical again */
	CU_ASSERT_EQUAL_FATAL(work_open(&wk, "pendulum", p, 1, ITER_ORDER_NATURAL, why, sizeof(why)),
			      DLS_OK);
	CU_ASSERT_EQUAL(wk.loop.result_bytes, sizeof(a));
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(wk.w->cost(wk.state, 999, a), c1);
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 998, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "iteration 998: theta0"));
	a[3] = 1.5;
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "steps is not a whole number"));
	memcpy(a, b, sizeof(a));
	a[PENDULUM_HEADER] += 0.5;
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "histogram sums to"));
	/* out of 0..1 with the sum kept at 1: in the last lane, then in the first */
	memcpy(a, b, sizeof(a));
	a[PENDULUM_HEADER + 31] -= 2.0;
	a[PENDULUM_HEADER + 30] += 2.0;
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "bin 30 is"));
	memcpy(a, b, sizeof(a));
	a[PENDULUM_HEADER + 0] -= 0.75;
	a[PENDULUM_HEADER + 1] += 0.75;
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "bin 0 is"));
	memcpy(a, b, sizeof(a));
	a[PENDULUM_HEADER + 17] = NAN;
	CU_ASSERT_EQUAL(wk.w->check(wk.state, 999, a, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "histogram sums to nan"));
	work_close(&wk);
}

/* numpy's format 1.0: magic, version, a 64-aligned header ending in '\n'. */
static void test_npy_header(void)
{
	const char *path = "/tmp/dls-unit-test.npy";
	uint16_t data[6] = {1, 2, 3, 4, 5, 6};
	char head[256];
	FILE *f;
	size_t n;

	CU_ASSERT_EQUAL_FATAL(npy_file_write(path, "<u2", data, 2, 6), DLS_OK);
	f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	remove(path);
	CU_ASSERT_EQUAL(n, 128 + sizeof(data)); /* 10 + 59 + '\n' padded to 128 */
	CU_ASSERT_EQUAL(memcmp(head, "\x93NUMPY\x01\x00", 8), 0);
	CU_ASSERT_EQUAL((unsigned char)head[8] | (unsigned char)head[9] << 8, 128 - 10);
	CU_ASSERT_EQUAL(head[127], '\n');
	CU_ASSERT_EQUAL(head[126], ' ');
	CU_ASSERT_EQUAL(
		memcmp(head + 10, "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }", 59),
		0);
	CU_ASSERT_EQUAL(memcmp(head + 128, data, sizeof(data)), 0);
	CU_ASSERT_EQUAL(npy_file_write(path, "<u2", data, 1, 3), DLS_EINVAL); /* 3 octets */
	CU_ASSERT_EQUAL(npy_file_write(path, "x", data, 1, 2), DLS_EINVAL);
}

int workload_suite_add(void)
{
	CU_pSuite s = CU_add_suite("workloads", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "parameters", test_params) ||
	       !CU_add_test(s, "table and a host's body", test_table_and_host_body) ||
	       !CU_add_test(s, "Mandelbrot's result check", test_mandel_checks) ||
	       !CU_add_test(s, "pendulum", test_pendulum) ||
	       !CU_add_test(s, ".npy header", test_npy_header);
}
