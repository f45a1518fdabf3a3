/*
 * result_store.c - the image and T_p of a run (see result_store.h).
 */
#include "result_store.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"

int result_store_init(struct result_store *rs, int32_t width, int32_t height,
		      enum iter_order_mode order)
{
	*rs = (struct result_store){0};
	iter_order_init(&rs->order, order, width);
	rs->width = width;
	rs->height = height;
	rs->image = calloc((size_t)width * (size_t)height, sizeof(uint16_t));
	if (!rs->image || ledger_init(&rs->ledger, width, height)) {
		free(rs->image);
		rs->image = NULL;
		return DLS_ENOMEM;
	}
	return DLS_OK;
}

void result_store_free(struct result_store *rs)
{
	ledger_free(&rs->ledger);
	free(rs->image);
	rs->image = NULL;
}

void result_store_start(struct result_store *rs)
{
	rs->started = 1;
	rs->t_start = dls_now();
}

void result_store_put(struct result_store *rs, int64_t i, const uint16_t *counts)
{
	size_t h = (size_t)rs->height;
	int64_t col = iter_order_column(&rs->order, i);

	memcpy(rs->image + (size_t)col * h, counts, h * sizeof(uint16_t));
}

void result_store_write(struct result_store *rs, const struct dls_result *res, size_t n)
{
	size_t h = (size_t)rs->height;

	for (size_t b = 0; b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++)
			result_store_put(rs, i, res[b].counts + (size_t)(i - res[b].start) * h);
}

int result_store_complete(struct result_store *rs)
{
	if (rs->done || rs->ledger.ndelivered != rs->width)
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
