/*
 * mandel.h - the reference workload (docs/emulation.md 1): one Mandelbrot
 * column per loop iteration, counts as uint16, bit-exact (the file is built
 * with -ffp-contract=off).  Pure functions; thread-safe.
 */
#ifndef DLS_MANDEL_H
#define DLS_MANDEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MANDEL_DEFAULT_MAXIT 256
#define MANDEL_MAX_SIDE 1000000
#define MANDEL_MAX_MAXIT 65535

struct mandel_params {
	int32_t width;	/* W: columns, one loop iteration each */
	int32_t height; /* H: rows */
	int32_t maxit;	/* 1..65535 */
};

/*
 * Reads the workload's parameters (width, height, maxit; the defaults
 * 400, 200, 256 for those absent): DLS_OK, or DLS_EINVAL with why naming
 * an unknown parameter or a bad value.
 */
struct dls_param;
int mandel_params_from(const struct dls_param *p, size_t n, struct mandel_params *m, char *why,
		       size_t len);

/*
 * Computes column x (0 <= x < width) into counts[0..height-1] and returns the
 * column's iteration sum (its cost).
 */
uint64_t mandel_column(const struct mandel_params *m, int32_t x, uint16_t *counts);

/*
 * The "mandelbrot" workload: parameters width (columns, one iteration
 * each; default 400), height (rows, counts per iteration; 200) and maxit
 * (256); results are height uint16 counts per iteration ("<u2"), each in
 * 1..maxit (the first step never escapes; maxit caps the rest), which its
 * check enforces; an iteration's cost is the sum of its counts.
 */
struct dls_workload;
extern const struct dls_workload mandel_workload;

#ifdef __cplusplus
}
#endif
#endif
