/*
 * sched_drive.h - deterministic request streams for a scheduler
 * (docs/schemes.md 9): `sorted` (ACPSA order), `rr`, an explicit cyclic list, with
 * an optional prefix of explicit (pe, A) requests.  Used by `dls chunks` and
 * the tests; never wall-clock order.
 */
#ifndef DLS_SCHED_DRIVE_H
#define DLS_SCHED_DRIVE_H

#include <stddef.h>
#include <stdint.h>

#include "dls_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

enum sched_order {
	SCHED_ORDER_SORTED, /* A_i >= 1 in decreasing A_i, ties by id, cycled */
	SCHED_ORDER_RR,	    /* A_i >= 1 in increasing id, cycled */
	SCHED_ORDER_LIST    /* the given list, cycled */
};

struct sched_request {
	int pe;
	int64_t acp;
};

struct sched_drive_spec {
	enum sched_order order;
	const int *list; /* SCHED_ORDER_LIST: PEs, cycled */
	size_t nlist;
	const struct sched_request *prefix; /* served first, in order */
	size_t nprefix;
};

/* Called once per served request, in service order; non-zero stops the run. */
typedef int (*sched_emit_fn)(void *arg, int pe, const struct dls_range *c);

/*
 * Creates a scheduler for *p and serves the stream *d until the loop is
 * exhausted, calling emit for each chunk.  Each request reports its PE's
 * current A (the --acp value, or the last one a prefix request reported).
 * Returns DLS_OK; DLS_EOVERFLOW after max_chunks chunks; DLS_EINVAL for a PE
 * out of range or a request of a PE with A = 0; any error of sched_create;
 * or what emit returned.
 */
int sched_drive(const struct sched_params *p, const struct sched_drive_spec *d, sched_emit_fn emit,
		void *arg, int64_t max_chunks);

#ifdef __cplusplus
}
#endif
#endif
