/*
 * mandel.h - the reference workload (WORKLOAD.md section 1): one Mandelbrot
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

/* DLS_OK, or DLS_EINVAL when a dimension or maxit is out of range. */
int mandel_check(const struct mandel_params *m);

/*
 * Computes column x (0 <= x < width) into counts[0..height-1] and returns the
 * column's iteration sum (its cost).
 */
uint64_t mandel_column(const struct mandel_params *m, int32_t x, uint16_t *counts);

/*
 * Checks that n result blocks could have come from mandel_column: every
 * count in 1..maxit (the first step never escapes; maxit caps the rest).
 * DLS_OK, or DLS_EINVAL with why naming the first bad iteration, row and
 * value.  Pure; the blocks' sizes are the ledger's to check.
 */
struct dls_result;
int mandel_check_results(const struct dls_result *res, size_t n, int32_t height, int32_t maxit,
			 char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
