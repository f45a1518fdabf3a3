/*
 * The hmaster core relaying to an in-process master core: merged messages
 * (a child hmaster's requests for four slaves at once) reproduce flat DTSS
 * in the same service order (SCHEMES.md 5 relay mode, 4.3's example), and
 * the image is exact.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "dls_err.h"
#include "hmaster.h"
#include "mandel.h"
#include "master.h"
#include "suites.h"

#define W 1000

static int p_register(void *ctx, const char *const *names, const double *speeds, size_t n,
		      int *ids, double *vp, struct dls_job *job, char *why, size_t len)
{
	(void)len;
	memset(job, 0, sizeof(*job));
	job->width = W;
	job->height = 1;
	return master_register_group(ctx, names, speeds, n, ids, vp, why);
}

static int p_request(void *ctx, const struct dls_request *reqs, size_t n, struct dls_reply *out,
		     char *why, size_t len)
{
	(void)len;
	return master_request_group(ctx, reqs, n, out, why);
}

static int p_submit(void *ctx, int id, const struct dls_result *res, size_t n, char *why,
		    size_t len)
{
	(void)len;
	return master_submit(ctx, id, res, n, why);
}

static int p_lost(void *ctx, int id, const char *cause, char *why, size_t len)
{
	(void)why;
	(void)len;
	return master_slave_lost(ctx, id, cause);
}

static void test_relay_is_flat_dtss(void)
{
	struct master_config c;
	struct master *m;
	struct hmaster *h;
	struct hmaster_parent ops = {NULL, p_register, p_request, p_submit, p_lost};
	const char *names[] = {"s0", "s1", "s2", "s3"};
	const double speeds[] = {1, 1, 2, 2};
	/* SCHEMES.md 4.3: I = 1000, A = (1,1,2,2), ACPSA order 2,3,0,1 */
	const int order[] = {2, 3, 0, 1};
	const int64_t want[] = {163, 151, 71, 68, 127, 115, 53, 50, 91, 79, 32};
	struct mandel_params mp = {W, 1, 256};
	struct dls_request reqs[4];
	struct dls_reply out[4];
	struct dls_result res[4];
	uint16_t *held[4] = {0};
	int64_t start[4] = {0}, count[4] = {0}, got[16];
	int ids[4], err, ngot = 0, done = 0;
	double vp[4];
	struct dls_job job;
	char why[MASTER_WHY_LEN];

	memset(&c, 0, sizeof(c));
	strcpy(c.run_name, "h");
	strcpy(c.workload, "mandelbrot");
	sched_params_init(&c.sched);
	c.sched.kind = SCHED_DTSS;
	c.nslaves = 4;
	c.width = W;
	c.height = 1;
	c.maxit = 256;
	c.register_timeout_ms = 1000;
	c.start_timeout_ms = 1000;
	c.wait_ms = 1;
	m = master_create(&c, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	ops.ctx = m;
	h = hmaster_create("h", 4, 1000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL_FATAL(hmaster_register(h, names, speeds, 4, ids, vp, &job, why), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(vp[2], 2.0, 1e-12);
	for (uint32_t seq = 1; !done && seq < 20; seq++) {
		for (int k = 0; k < 4; k++) {
			int s = order[k];

			memset(&reqs[k], 0, sizeof(reqs[k]));
			reqs[k].slave_id = ids[s];
			reqs[k].seq = seq;
			reqs[k].acp = (int64_t)vp[s];
			if (held[s]) {
				res[k] = (struct dls_result){start[s], count[s], held[s],
							     (size_t)count[s]};
				reqs[k].results = &res[k];
				reqs[k].nresults = 1;
			}
		}
		CU_ASSERT_EQUAL_FATAL(hmaster_request(h, reqs, 4, out, why), DLS_OK);
		for (int k = 0; k < 4; k++) {
			int s = order[k];

			free(held[s]);
			held[s] = NULL;
			if (out[k].kind == DLS_REPLY_DONE)
				done = 1;
			if (out[k].kind != DLS_REPLY_WORK)
				continue;
			if (ngot < 16)
				got[ngot++] = out[k].count;
			start[s] = out[k].start;
			count[s] = out[k].count;
			held[s] = malloc((size_t)count[s] * sizeof(uint16_t));
			for (int64_t i = 0; i < count[s]; i++)
				mandel_column(&mp, (int32_t)(start[s] + i), &held[s][i]);
		}
	}
	CU_ASSERT_EQUAL(ngot, 11);
	for (int i = 0; i < 11 && i < ngot; i++)
		CU_ASSERT_EQUAL(got[i], want[i]);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	{
		uint16_t ref[W];

		for (int x = 0; x < W; x++)
			mandel_column(&mp, x, &ref[x]);
		CU_ASSERT_EQUAL(memcmp(master_image(m), ref, sizeof(ref)), 0);
	}
	CU_ASSERT_EQUAL(hmaster_wait_finished(h, 0), DLS_OK);
	hmaster_destroy(h);
	master_destroy(m);
}

int hmaster_suite_add(void)
{
	CU_pSuite s = CU_add_suite("hmaster core (relay)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "relay reproduces flat DTSS", test_relay_is_flat_dtss);
}
