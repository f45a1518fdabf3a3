/*
 * workload.h - loop bodies looked up by name.  A slave computes iteration i
 * by calling the workload's function on the column the iteration order
 * gives; a host program embeds a slave by registering its own workload.
 * Registration is not thread-safe: register before starting slaves.
 */
#ifndef DLS_WORKLOAD_H
#define DLS_WORKLOAD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a workload sees of the job. */
struct workload_job {
	int32_t width;	/* number of columns (iterations) */
	int32_t height; /* values per column */
	int32_t maxit;
};

/*
 * Computes column x into out[0..height-1] and returns its cost in unit
 * iterations (the emulation charges cost x t_iter).  Must be thread-safe.
 */
typedef uint64_t (*workload_fn)(const struct workload_job *job, int64_t x, uint16_t *out);

/* Adds or replaces a workload; DLS_OK, DLS_EINVAL (bad name) or DLS_ENOMEM. */
int workload_register(const char *name, workload_fn fn);

/* The function registered under name ("mandelbrot" is built in), or NULL. */
workload_fn workload_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
