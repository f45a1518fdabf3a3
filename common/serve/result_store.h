/*
 * result_store.h - where a run's results land: the job's workload (opened,
 * with its iteration order), the results of every loop index
 * (iterations x result_bytes octets, in loop-index order), the ledger of
 * delivered iterations, and T_p (from the start of scheduling to the last
 * result).  The master and Tree Scheduling's coordinator each own one.  An
 * optional sink sees each iteration's result as it is accepted (a program
 * that embeds the master).
 *
 * Not thread-safe: the owner holds its lock around every call.
 */
#ifndef DLS_RESULT_STORE_H
#define DLS_RESULT_STORE_H

#include <pthread.h>
#include <stdint.h>

#include "dls_proto.h"
#include "iter_order.h"
#include "ledger.h"
#include "work.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called for each accepted iteration: the run's loop it is of (0 first),
 * its loop index and result_bytes octets. */
typedef void (*result_sink_fn)(void *ctx, uint32_t loop, int64_t index, const void *data,
			       size_t bytes);

struct result_store {
	struct work work;
	uint8_t *data;	      /* loop index x at data + x * result_bytes */
	struct ledger ledger; /* over iterations */
	result_sink_fn sink;  /* may be NULL */
	void *sink_ctx;
	int started, done;
	double t_start, t_end;
	double all_given; /* the master's: seconds from the start until the last
			     child was given its first chunk */
	uint32_t loop;	  /* the run's loop these are the results of, 0 first (its
			     owner sets it; the sink hears it) */
};

/*
 * An empty store for the workload and parameters: DLS_OK, or the error of
 * work_open (why filled), or DLS_ENOMEM.
 */
int result_store_init(struct result_store *rs, const char *workload,
		      const struct dls_param *params, size_t n, enum iter_order_mode order,
		      char *why, size_t len);
void result_store_free(struct result_store *rs);

/* Scheduling starts now: T_p counts from here. */
void result_store_start(struct result_store *rs);

/* Stores iteration i's result (result_bytes octets) at its loop index. */
void result_store_put(struct result_store *rs, int64_t i, const void *data);

/*
 * The master's ingest path in one pass over the octets: copies each
 * iteration of blocks whose ranges the ledger accepted (and marked) into
 * its place, and checks it there with the workload while it is in the
 * cache.  DLS_OK, or DLS_EINVAL with why and the places zeroed again
 * (result_store_discard): nothing of a refused message stays.
 * result_store_accept then hands taken blocks to the sink.
 */
int result_store_take(struct result_store *rs, const struct dls_result *res, size_t n, char *why,
		      size_t len);
void result_store_accept(struct result_store *rs, const struct dls_result *res, size_t n);

/* Zeroes the places of blocks taken and then refused (not yet delivered). */
void result_store_discard(struct result_store *rs, const struct dls_result *res, size_t n);

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
