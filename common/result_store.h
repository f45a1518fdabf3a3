/*
 * result_store.h - where a run's results land: the image (column-major,
 * width x height counts, the iteration order mapping iterations to columns),
 * the ledger of delivered iterations, and T_p (from the start of scheduling
 * to the last result).  The master and Tree Scheduling's coordinator each
 * own one.
 *
 * Not thread-safe: the owner holds its lock around every call.
 */
#ifndef DLS_RESULT_STORE_H
#define DLS_RESULT_STORE_H

#include <pthread.h>
#include <stdint.h>

#include "dls/proto.h"
#include "iter_order.h"
#include "ledger.h"

#ifdef __cplusplus
extern "C" {
#endif

struct result_store {
	struct iter_order order;
	int32_t width, height;
	uint16_t *image;
	struct ledger ledger; /* iterations = width, rows = height */
	int started, done;
	double t_start, t_end;
};

/* An empty store: DLS_OK or DLS_ENOMEM. */
int result_store_init(struct result_store *rs, int32_t width, int32_t height,
		      enum iter_order_mode order);
void result_store_free(struct result_store *rs);

/* Scheduling starts now: T_p counts from here. */
void result_store_start(struct result_store *rs);

/* Writes the counts of iteration i (height of them) into its column. */
void result_store_put(struct result_store *rs, int64_t i, const uint16_t *counts);

/* Writes checked result blocks into the image (the ledger is the caller's). */
void result_store_write(struct result_store *rs, const struct dls_result *res, size_t n);

/*
 * Marks the run done if every iteration is delivered: returns 1 when it
 * became done in this call (the owner wakes its waiters).
 */
int result_store_complete(struct result_store *rs);

/*
 * Waits on cond (lock held) until the run is done or the monotonic
 * deadline passed: DLS_OK or DLS_ETIMEDOUT.
 */
int result_store_wait_done(struct result_store *rs, pthread_mutex_t *lock, pthread_cond_t *cond,
			   double deadline);

/* Seconds since scheduling started; T_p once done; 0 before the start. */
double result_store_elapsed(const struct result_store *rs);

#ifdef __cplusplus
}
#endif
#endif
