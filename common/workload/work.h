/*
 * work.h - a job's workload, opened: its loop and what the master, the
 * hmasters, the coordinator and the slaves do with it (compute a chunk in
 * the job's iteration order, check and cost delivered results).
 */
#ifndef DLS_WORK_H
#define DLS_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "dls/workload.h"
#include "iter_order.h"

#ifdef __cplusplus
extern "C" {
#endif

struct work {
	const struct dls_workload *w;
	void *state;
	char name[DLS_WORKLOAD_NAME_LEN];
	struct dls_loop loop;
	struct iter_order order; /* iteration -> loop index */
	/* what work_compute calls: the workload's body, or one set in its place
	 * (the step API's hand-over to the host) */
	int (*body)(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		    char *why, size_t len);
	void *body_state;
};

/*
 * Opens workload `name` with the parameters.  The reserved parameters
 * dls.iterations, dls.result_bytes and dls.dtype declare the loop: a
 * workload this process does not have can then still be scheduled, stored
 * and written (not computed: work_is_declared), and for one it has they
 * must match what it makes.  DLS_OK; DLS_ENOENT (unknown workload and no
 * declared loop; why lists the known ones); DLS_EINVAL (bad parameters, or
 * a loop described badly: why says which); DLS_ENOMEM.
 */
int work_open(struct work *wk, const char *name, const struct dls_param *params, size_t n,
	      enum iter_order_mode order, char *why, size_t len);

/* The most loops a run holds (dls.loop is below it). */
#define WORK_MAX_LOOPS 100000000

/*
 * Sets the reserved parameter dls.loop = number in params (*n in use): the
 * parameters of loop `number` of a run.  Loop 0 has no dls.loop (a run of
 * one loop sends what it always sent).  DLS_OK, or DLS_ENOMEM when every
 * place is taken.
 */
int work_params_set_loop(struct dls_param *params, int *n, uint32_t number);

/*
 * The loop number the reserved dls.loop of params (n of them) gives, 0
 * when absent, into *number: DLS_OK, or DLS_EINVAL with why for a value
 * that is not one (below 0, or WORK_MAX_LOOPS or more).
 */
int work_params_loop_number(const struct dls_param *params, size_t n, uint32_t *number,
			    char *why, size_t len);

/* The reserved parameter dls.loop among params (n of them), or NULL. */
const struct dls_param *work_params_loop(const struct dls_param *params, int n);

/* Non-zero when the loop was only declared (no body in this process). */
int work_is_declared(const struct work *wk);

/* Frees what work_open made; a zeroed work is a no-op. */
void work_close(struct work *wk);

/* Fills the job's workload, parameters and loop from an open work. */
void work_describe(const struct work *wk, const char *name, const struct dls_param *params,
		   size_t n, struct dls_job *job);

/*
 * Computes iterations [start, start + count) (the job's order maps each to
 * its loop index) into out, count * result_bytes octets, adding their cost
 * to *cost.  Runs of consecutive loop indices go to the body together.
 */
int work_compute(const struct work *wk, int64_t start, int64_t count, void *out, uint64_t *cost,
		 char *why, size_t len);

/*
 * Computes every loop index in order, one at a time, as a single process
 * would (`dls reference`, `dls simulate --workload`): the results into out
 * (iterations x result_bytes; NULL: dropped) and each index's cost into
 * cost[x].  DLS_OK; DLS_ENOMEM; or the body's error with why.
 */
int work_sequential(const struct work *wk, uint8_t *out, uint64_t *cost, char *why, size_t len);

/*
 * Checks iteration i's result (result_bytes octets at data, its loop index
 * x) with the workload's check: DLS_OK, or DLS_EINVAL with why naming the
 * iteration and the workload's reason.  The one check of every ingest path.
 */
int work_check_one(const struct work *wk, int64_t i, int64_t x, const void *data, char *why,
		   size_t len);

/*
 * Checks the values of n result blocks (their sizes are the ledger's to
 * check) with the workload's check: DLS_OK, or DLS_EINVAL with why naming
 * the block's iteration and the value.
 */
int work_check_results(const struct work *wk, const struct dls_result *res, size_t n, char *why,
		       size_t len);

/*
 * The loop's total cost from a complete result array (loop index order),
 * or 0 when the workload cannot tell.
 */
uint64_t work_total_cost(const struct work *wk, const uint8_t *results);

#ifdef __cplusplus
}
#endif
#endif
