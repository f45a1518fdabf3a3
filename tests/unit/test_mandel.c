/*
 * The Mandelbrot kernel against known totals: docs/emulation.md's 200x100, and a
 * size of our own whose total was computed independently (a Python
 * transcription of docs/emulation.md 1 with IEEE doubles, no fused multiply-add).
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "dls/err.h"
#include "dls/workload.h"
#include "mandel.h"
#include "suites.h"

static uint64_t image_total(int32_t w, int32_t h, int32_t maxit)
{
	struct mandel_params m = {w, h, maxit};
	uint16_t *col = malloc((size_t)h * sizeof(*col));
	uint64_t total = 0, check = 0;

	for (int32_t x = 0; x < w; x++) {
		total += mandel_column(&m, x, col);
		for (int32_t y = 0; y < h; y++)
			check += col[y];
	}
	free(col);
	CU_ASSERT_EQUAL(total, check); /* the returned cost is the column's sum */
	return total;
}

static void test_known_totals(void)
{
	CU_ASSERT_EQUAL(image_total(200, 100, 256), 1060194);
	CU_ASSERT_EQUAL(image_total(123, 77, 1000), 1849188);
	CU_ASSERT_EQUAL(image_total(64, 48, 256), 162026);
}

static void test_check(void)
{
	struct dls_param ok[3] = {{"width", "10"}, {"height", "10"}, {"maxit", "256"}};
	struct dls_param bad_w[3] = {{"width", "0"}, {"height", "10"}, {"maxit", "256"}};
	struct dls_param bad_it[3] = {{"width", "10"}, {"height", "10"}, {"maxit", "70000"}};
	struct mandel_params m;
	char why[200];

	CU_ASSERT_EQUAL(mandel_params_from(ok, 3, &m, why, sizeof(why)), DLS_OK);
	CU_ASSERT(m.width == 10 && m.height == 10 && m.maxit == 256);
	CU_ASSERT_EQUAL(mandel_params_from(bad_w, 3, &m, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_EQUAL(mandel_params_from(bad_it, 3, &m, why, sizeof(why)), DLS_EINVAL);
}

int mandel_suite_add(void)
{
	CU_pSuite s = CU_add_suite("mandel (docs/emulation.md 1)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "known totals", test_known_totals) ||
	       !CU_add_test(s, "parameter check", test_check);
}
