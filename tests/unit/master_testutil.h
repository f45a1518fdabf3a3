/*
 * master_testutil.h - the master configuration the master, hmaster and
 * coordinator suites start from.
 */
#ifndef DLS_MASTER_TESTUTIL_H
#define DLS_MASTER_TESTUTIL_H

#include "master.h"

/*
 * A run "t" of `width` x `height` Mandelbrot columns (maxit 256) for
 * `nslaves` with scheme `kind`; registration and start gates of
 * timeout_ms; WAIT replies of 1 ms.  Callers change what their test needs.
 */
void tu_master_config(struct master_config *c, enum sched_kind kind, int nslaves, int32_t width,
		      int32_t height, int timeout_ms);

/* A request of slave id (every other field zero). */
struct dls_request tu_request(int id, uint32_t seq, int64_t acp, const struct dls_result *res,
			      size_t n);

#endif
