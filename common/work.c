/*
 * work.c - an opened workload (see work.h).
 */
#include "work.h"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"

/* The octets of one value of a numpy dtype such as "<f8" or "|u1". */
static size_t dtype_size(const char *dtype)
{
	int n = 0;

	if ((dtype[0] == '<' || dtype[0] == '|') && strchr("uif", dtype[1]) &&
	    sscanf(dtype + 2, "%d", &n) == 1 && n > 0 && n <= 16)
		return (size_t)n;
	return 0;
}

int work_open(struct work *wk, const char *name, const struct dls_param *params, size_t n,
	      enum iter_order_mode order, char *why, size_t len)
{
	struct dls_loop *l = &wk->loop;
	size_t vsize;
	int rc;

	memset(wk, 0, sizeof(*wk));
	wk->w = dls_workload_find(name);
	if (!wk->w) {
		snprintf(why, len, "unknown workload '%s' (known: %s)", name, dls_workload_names());
		return DLS_ENOENT;
	}
	rc = wk->w->open(wk->w->user, params, n, l, &wk->state, why, len);
	if (rc)
		return rc;
	vsize = dtype_size(l->dtype);
	if (l->iterations < 1 || l->result_bytes < 1 || l->result_bytes > DLS_MAX_RESULT_BYTES ||
	    !vsize || l->result_bytes % vsize) {
		snprintf(why, len,
			 "workload '%s' describes a loop of %lld iterations of %u octets of '%s': "
			 "it needs >= 1 iterations of 1..%d octets, a whole number of values",
			 name, (long long)l->iterations, (unsigned)l->result_bytes, l->dtype,
			 DLS_MAX_RESULT_BYTES);
		work_close(wk);
		return DLS_EINVAL;
	}
	iter_order_init(&wk->order, order, l->iterations);
	return DLS_OK;
}

void work_close(struct work *wk)
{
	if (wk->w && wk->w->close && wk->state)
		wk->w->close(wk->state);
	memset(wk, 0, sizeof(*wk));
}

void work_describe(const struct work *wk, const char *name, const struct dls_param *params,
		   size_t n, struct dls_job *job)
{
	job->version = DLS_PROTOCOL_VERSION;
	snprintf(job->workload, sizeof(job->workload), "%s", name);
	job->nparams = (int)(n < DLS_MAX_PARAMS ? n : DLS_MAX_PARAMS);
	memcpy(job->params, params, (size_t)job->nparams * sizeof(*params));
	job->iterations = wk->loop.iterations;
	job->result_bytes = wk->loop.result_bytes;
	job->order = wk->order.mode;
}

int work_compute(const struct work *wk, int64_t start, int64_t count, void *out, uint64_t *cost,
		 char *why, size_t len)
{
	uint8_t *o = out;
	int64_t i = start;

	while (i < start + count) {
		int64_t x = iter_order_column(&wk->order, i), run = 1;
		int rc;

		while (i + run < start + count && iter_order_column(&wk->order, i + run) == x + run)
			run++;
		rc = wk->w->body(wk->state, x, run, o, cost, why, len);
		if (rc)
			return rc;
		o += (size_t)run * wk->loop.result_bytes;
		i += run;
	}
	return DLS_OK;
}

int work_check_results(const struct work *wk, const struct dls_result *res, size_t n, char *why,
		       size_t len)
{
	size_t rb = wk->loop.result_bytes;

	if (!wk->w->check)
		return DLS_OK;
	for (size_t b = 0; b < n; b++)
		for (int64_t k = 0; k < res[b].count; k++) {
			int64_t i = res[b].start + k;
			const uint8_t *d = (const uint8_t *)res[b].data + (size_t)k * rb;
			char w[200];

			if (wk->w->check(wk->state, iter_order_column(&wk->order, i), d, w,
					 sizeof(w))) {
				snprintf(why, len, "result of iteration %lld refused: %s",
					 (long long)i, w);
				return DLS_EINVAL;
			}
		}
	return DLS_OK;
}

uint64_t work_total_cost(const struct work *wk, const uint8_t *results)
{
	uint64_t sum = 0;

	if (!wk->w->cost)
		return 0;
	for (int64_t x = 0; x < wk->loop.iterations; x++)
		sum += wk->w->cost(wk->state, x, results + (size_t)x * wk->loop.result_bytes);
	return sum;
}
