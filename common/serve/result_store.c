/*
 * result_store.c - the results and T_p of a run (see result_store.h).
 */
#include "result_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"

/*
 * Writes every page of fresh (calloc'ed, so still unmapped) memory now,
 * before the run: a first touch while results arrive costs a page fault
 * per 4 KiB inside T_p (BENCHMARKS.md 3.2).  Through a volatile pointer, as
 * the compiler may drop a memset of calloc'ed memory.
 */
static void prefault(uint8_t *p, size_t n)
{
	volatile uint8_t *v = p;

	for (size_t i = 0; i < n; i += 4096)
		v[i] = 0;
}

int result_store_init(struct result_store *rs, const char *workload,
		      const struct dls_param *params, size_t n, enum iter_order_mode order,
		      char *why, size_t len)
{
	int rc;

	*rs = (struct result_store){0};
	rc = work_open(&rs->work, workload, params, n, order, why, len);
	if (rc)
		return rc;
	rs->data = calloc((size_t)rs->work.loop.iterations, rs->work.loop.result_bytes);
	if (!rs->data ||
	    ledger_init(&rs->ledger, rs->work.loop.iterations, rs->work.loop.result_bytes)) {
		snprintf(why, len, "no memory for %lld results of %u octets",
			 (long long)rs->work.loop.iterations, (unsigned)rs->work.loop.result_bytes);
		result_store_free(rs);
		return DLS_ENOMEM;
	}
	prefault(rs->data, (size_t)rs->work.loop.iterations * rs->work.loop.result_bytes);
	return DLS_OK;
}

void result_store_free(struct result_store *rs)
{
	ledger_free(&rs->ledger);
	free(rs->data);
	rs->data = NULL;
	work_close(&rs->work);
}

void result_store_start(struct result_store *rs)
{
	rs->started = 1;
	rs->t_start = dls_now();
}

void result_store_put(struct result_store *rs, int64_t i, const void *data)
{
	size_t rb = rs->work.loop.result_bytes;
	int64_t x = iter_order_column(&rs->work.order, i);

	memcpy(rs->data + (size_t)x * rb, data, rb);
	if (rs->sink)
		rs->sink(rs->sink_ctx, rs->loop, x, rs->data + (size_t)x * rb, rb);
}

int result_store_take(struct result_store *rs, const struct dls_result *res, size_t n, char *why,
		      size_t len)
{
	const struct work *wk = &rs->work;
	size_t rb = wk->loop.result_bytes;

	for (size_t b = 0; b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++) {
			int64_t x = iter_order_column(&wk->order, i);
			const uint8_t *from = (const uint8_t *)res[b].data + (size_t)(i - res[b].start) * rb;

			if (work_check_one(wk, i, x, from, why, len)) {
				result_store_discard(rs, res, n);
				return DLS_EINVAL;
			}
			memcpy(rs->data + (size_t)x * rb, from, rb);
		}
	return DLS_OK;
}

void result_store_discard(struct result_store *rs, const struct dls_result *res, size_t n)
{
	size_t rb = rs->work.loop.result_bytes;

	for (size_t b = 0; b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++)
			memset(rs->data + (size_t)iter_order_column(&rs->work.order, i) * rb, 0, rb);
}

void result_store_accept(struct result_store *rs, const struct dls_result *res, size_t n)
{
	size_t rb = rs->work.loop.result_bytes;

	for (size_t b = 0; rs->sink && b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++) {
			int64_t x = iter_order_column(&rs->work.order, i);

			rs->sink(rs->sink_ctx, rs->loop, x, rs->data + (size_t)x * rb, rb);
		}
}

int result_store_complete(struct result_store *rs)
{
	if (rs->done || rs->ledger.ndelivered != rs->work.loop.iterations)
		return 0;
	rs->done = 1;
	rs->t_end = dls_now();
	log_info("every result is in: T_p = %.3f s", rs->t_end - rs->t_start);
	return 1;
}

int result_store_wait_done(struct result_store *rs, pthread_mutex_t *lock, pthread_cond_t *cond,
			   double deadline)
{
	while (!rs->done)
		if (dls_cond_wait_until(cond, lock, deadline) && dls_now() >= deadline)
			return rs->done ? DLS_OK : DLS_ETIMEDOUT;
	return DLS_OK;
}

double result_store_elapsed(const struct result_store *rs)
{
	if (!rs->started)
		return 0;
	return rs->done ? rs->t_end - rs->t_start : dls_now() - rs->t_start;
}
