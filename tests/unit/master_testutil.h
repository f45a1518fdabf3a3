/*
 * master_testutil.h - the master configuration the master, hmaster and
 * coordinator suites start from.
 */
#ifndef DLS_MASTER_TESTUTIL_H
#define DLS_MASTER_TESTUTIL_H

#include "hmaster.h"
#include "master.h"

/*
 * A run "t" of `width` x `height` Mandelbrot columns (maxit 256) for
 * `nslaves` with scheme `kind`; registration and start gates of
 * timeout_ms; WAIT replies of 1 ms.  Callers change what their test needs.
 */
void tu_master_config(struct master_config *c, enum sched_kind kind, int nslaves, int32_t width,
		      int32_t height, int timeout_ms);

/* A request of slave id, with its capability at m (m NULL: key 0; other fields zero). */
struct dls_request tu_request(struct master *m, int id, uint32_t seq, int64_t acp,
			      const struct dls_result *res, size_t n);

/* Mandelbrot's parameters width, height, maxit into p (*n of them). */
void tu_mandel_params(struct dls_param *p, int *n, int32_t width, int32_t height, int32_t maxit);

/* A Mandelbrot job as a master would send it (workload, parameters, loop). */
void tu_mandel_job(struct dls_job *job, int32_t width, int32_t height, int32_t maxit);

/* The correct Mandelbrot counts of columns [start, start + count) of a
 * width x height image, natural order (malloc'ed: free them). */
uint16_t *tu_mandel_counts(int32_t width, int32_t height, int32_t maxit, int64_t start,
			   int64_t count);

/* A result block of ncounts uint16 counts. */
struct dls_result tu_counts(int64_t start, int64_t count, const uint16_t *counts, size_t ncounts);

/* The master's results as the Mandelbrot image (column-major counts). */
#define tu_image(m) ((const uint16_t *)master_results(m)->data)

/*
 * The parent operations of an hmaster whose parent is master m in this
 * process, called as the master's servant calls the core (slave_lost
 * checks the capability first): relay and two-level operations both.
 */
struct hmaster_parent tu_master_parent(struct master *m);

/* Sets the Mandelbrot maxit of a configuration. */
void tu_set_maxit(struct master_config *c, int32_t maxit);

#endif
