/*
 * mandel_workload.c - the Mandelbrot kernel as the "mandelbrot" workload
 * (see mandel.h).
 */
#include "mandel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/workload.h"
#include "dls_simd.h"

static const char *const known[] = {"width", "height", "maxit", NULL};

int mandel_params_from(const struct dls_param *p, size_t n, struct mandel_params *m, char *why,
		       size_t len)
{
	int64_t w = 400, h = 200, it = MANDEL_DEFAULT_MAXIT;

	if (dls_params_known(p, n, known, why, len) ||
	    dls_param_int(p, n, "width", 1, MANDEL_MAX_SIDE, &w, why, len) ||
	    dls_param_int(p, n, "height", 1, DLS_MAX_RESULT_BYTES / 2, &h, why, len) ||
	    dls_param_int(p, n, "maxit", 1, MANDEL_MAX_MAXIT, &it, why, len))
		return DLS_EINVAL;
	*m = (struct mandel_params){(int32_t)w, (int32_t)h, (int32_t)it};
	return DLS_OK;
}

static int mandel_open(void *user, const struct dls_param *p, size_t n, struct dls_loop *loop,
		       void **state, char *why, size_t len)
{
	struct mandel_params *m = malloc(sizeof(*m));

	(void)user;
	if (!m) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	if (mandel_params_from(p, n, m, why, len)) {
		free(m);
		return DLS_EINVAL;
	}
	*state = m;
	loop->iterations = m->width;
	loop->result_bytes = (uint32_t)(2 * m->height);
	snprintf(loop->dtype, sizeof(loop->dtype), "<u2");
	return DLS_OK;
}

static int mandel_body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		       char *why, size_t len)
{
	const struct mandel_params *m = state;
	uint16_t *col = out;

	(void)why;
	(void)len;
	for (int64_t x = first; x < first + count; x++, col += m->height)
		*cost += mandel_column(m, (int32_t)x, col);
	return DLS_OK;
}

/* Whether any of n counts is 0 or above top + 1, in one branch-free pass
 * the compiler vectorizes (the master checks every count it takes): c - 1
 * wraps 0 to 65535, so one comparison finds both. */
static DLS_VECTOR_CLONES unsigned counts_out_of_range(const uint16_t *c, int32_t n, uint16_t top)
{
	unsigned bad = 0;

	for (int32_t y = 0; y < n; y++)
		bad |= (uint16_t)(c[y] - 1u) > top;
	return bad;
}

static int mandel_result_check(void *state, int64_t index, const void *data, char *why,
			       size_t len)
{
	const struct mandel_params *m = state;
	const uint16_t *c = data;

	if (!counts_out_of_range(c, m->height, (uint16_t)(m->maxit - 1)))
		return DLS_OK;
	for (int32_t y = 0; y < m->height; y++) /* the first culprit */
		if (c[y] < 1 || c[y] > m->maxit) {
			snprintf(why, len,
				 "column %lld row %d carries count %u: a Mandelbrot count is "
				 "1..%d (maxit)",
				 (long long)index, y, (unsigned)c[y], (int)m->maxit);
			return DLS_EINVAL;
		}
	return DLS_OK;
}

static uint64_t mandel_cost(void *state, int64_t index, const void *data)
{
	const struct mandel_params *m = state;
	const uint16_t *c = data;
	uint64_t sum = 0;

	(void)index;
	for (int32_t y = 0; y < m->height; y++)
		sum += c[y];
	return sum;
}

const struct dls_workload mandel_workload = {
	.name = "mandelbrot",
	.open = mandel_open,
	.close = free,
	.body = mandel_body,
	.check = mandel_result_check,
	.cost = mandel_cost,
};
