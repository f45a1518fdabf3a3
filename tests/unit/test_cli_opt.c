/* Command-line value parsing: every refusal has a cause. */
#include <CUnit/CUnit.h>
#include <stdlib.h>

#include "cli_opt.h"
#include "suites.h"

static void test_i64(void)
{
	int64_t v;

	CU_ASSERT_PTR_NULL(cli_parse_i64("42", 1, 100, &v));
	CU_ASSERT_EQUAL(v, 42);
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64("-5", 1, 100, &v));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64("12abc", 1, 100, &v));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64("", 1, 100, &v));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64("99999999999999999999999", 1, INT64_MAX, &v));
}

static void test_lists(void)
{
	int64_t *l;
	double *d;
	size_t n;

	CU_ASSERT_PTR_NULL(cli_parse_i64_list("1,1,2,2", 0, 4, &l, &n));
	CU_ASSERT_EQUAL(n, 4);
	CU_ASSERT_EQUAL(l[3], 2);
	free(l);
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64_list("1,,2", 0, 4, &l, &n));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64_list("1,x", 0, 4, &l, &n));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_i64_list("1,2,", 0, 4, &l, &n));
	CU_ASSERT_PTR_NULL(cli_parse_double_list("1,2.5", 0.1, 10, &d, &n));
	CU_ASSERT_DOUBLE_EQUAL(d[1], 2.5, 0);
	free(d);
	CU_ASSERT_PTR_NOT_NULL(cli_parse_double_list("1,nan", 0.1, 10, &d, &n));
}

static void test_ratio(void)
{
	int64_t num, den;

	CU_ASSERT_PTR_NULL(cli_parse_ratio("2", &num, &den));
	CU_ASSERT(num == 2 && den == 1);
	CU_ASSERT_PTR_NULL(cli_parse_ratio("1.5", &num, &den));
	CU_ASSERT(num == 15 && den == 10);
	CU_ASSERT_PTR_NULL(cli_parse_ratio("3/2", &num, &den));
	CU_ASSERT(num == 3 && den == 2);
	CU_ASSERT_PTR_NOT_NULL(cli_parse_ratio("0", &num, &den));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_ratio("-1", &num, &den));
	CU_ASSERT_PTR_NOT_NULL(cli_parse_ratio("1.2.3", &num, &den));
}

int cli_opt_suite_add(void)
{
	CU_pSuite s = CU_add_suite("cli_opt", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "integers", test_i64) || !CU_add_test(s, "lists", test_lists) ||
	       !CU_add_test(s, "ratios", test_ratio);
}
