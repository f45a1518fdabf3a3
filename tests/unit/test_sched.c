/*
 * Exact vectors of docs/schemes.md: Chronopoulos et al. 2002 Table 1 in both profiles, the worked
 * examples of sections 1-4, and the refusals of out-of-range input.
 */
#include <CUnit/CUnit.h>
#include <string.h>

#include "dls/err.h"
#include "sched_testutil.h"
#include "suites.h"

static char buf[65536];
static const struct sched_drive_spec sorted = {SCHED_ORDER_SORTED, NULL, 0, NULL, 0};
static const int64_t acp1122[] = {1, 1, 2, 2};

static void check_function(enum sched_kind k, enum sched_profile prof, const char *want)
{
	struct sched_params p;

	tu_params(&p, k, 1000, 4, NULL);
	p.profile = prof;
	CU_ASSERT_EQUAL(tu_function(&p, buf, sizeof(buf)), DLS_OK);
	CU_ASSERT_STRING_EQUAL(buf, tu_expand(want));
}

static void check_realized(const struct sched_params *p, const struct sched_drive_spec *d,
			   const char *want)
{
	CU_ASSERT_EQUAL(tu_schedule(p, d ? d : &sorted, buf, sizeof(buf)), DLS_OK);
	CU_ASSERT_STRING_EQUAL(buf, tu_expand(want));
}

/* Chronopoulos et al. 2002 Table 1, all four rows, `table` profile. */
static void test_table1(void)
{
	check_function(SCHED_TSS, SCHED_PROFILE_TABLE,
		       "125 117 109 101 93 85 77 69 61 53 45 37 29 21 13 5");
	check_function(SCHED_FSS, SCHED_PROFILE_TABLE,
		       "125x4 62x4 32x4 16x4 8x4 4x4 2x4 1x4");
	check_function(SCHED_FISS, SCHED_PROFILE_TABLE, "50x4 83x4 117x4");
	check_function(SCHED_TFSS, SCHED_PROFILE_TABLE, "113x4 81x4 49x4 17x4");
}

/* docs/schemes.md 1.5-1.6: the printed formulas. */
static void test_text_profile(void)
{
	struct sched_params p;

	check_function(SCHED_FSS, SCHED_PROFILE_TEXT, "125x4 63x4 31x4 16x4 8x4 4x4 2x4 1x4");
	check_function(SCHED_FISS, SCHED_PROFILE_TEXT, "50x4 84x4 118x4");
	tu_params(&p, SCHED_FISS, 1000, 4, NULL);
	p.profile = SCHED_PROFILE_TEXT;
	check_realized(&p, NULL, "50x4 84x4 118x3 110");
	tu_params(&p, SCHED_FSS, 1000, 4, NULL);
	p.profile = SCHED_PROFILE_TEXT;
	check_realized(&p, NULL, "125x4 63x4 31x4 16x4 8x4 4x4 2x4 1x4");
}

static void test_realized_simple(void)
{
	struct sched_params p;

	tu_params(&p, SCHED_TSS, 1000, 4, NULL);
	check_realized(&p, NULL, "125 117 109 101 93 85 77 69 61 53 45 37 28");
	tu_params(&p, SCHED_TFSS, 1000, 4, NULL);
	check_realized(&p, NULL, "113x4 81x4 49x4 17 11");
	tu_params(&p, SCHED_FSS, 1000, 4, NULL);
	check_realized(&p, NULL, "125x4 62x4 32x4 16x4 8x4 4x4 2x4 1x4");
	tu_params(&p, SCHED_FISS, 1000, 4, NULL);
	check_realized(&p, NULL, "50x4 83x4 117x4");
	/* Sun MP C manual: gss(10) and self(120), I = 1000, 4 CPUs */
	tu_params(&p, SCHED_GSS, 1000, 4, NULL);
	p.gss_k = 10;
	check_realized(&p, NULL, "250 188 141 106 79 59 45 33 25 19 14 11 10 10 10");
	tu_params(&p, SCHED_CSS, 1000, 4, NULL);
	p.css_k = 120;
	check_realized(&p, NULL, "120x8 40");
	tu_params(&p, SCHED_SS, 5, 2, NULL);
	check_realized(&p, NULL, "1x5");
}

/* docs/schemes.md 4.3 */
static void test_dtss_example(void)
{
	struct sched_params p;

	tu_params(&p, SCHED_DTSS, 1000, 4, acp1122);
	check_realized(&p, NULL,
		       "(2,163) (3,151) (0,71) (1,68) (2,127) (3,115) (0,53) (1,50) (2,91) "
		       "(3,79) (0,32)");
}

/* docs/schemes.md 4.4: the ACPSA example, --requests 0:1,1:1,2:2,3:2,0:2 */
static void test_acpsa_example(void)
{
	static const struct sched_request reqs[] = {{0, 1}, {1, 1}, {2, 2}, {3, 2}, {0, 2}};
	struct sched_params p;
	struct sched *s;
	struct dls_range c;
	const int64_t want[] = {125, 117, 210, 178, 52};

	tu_params(&p, SCHED_DTSS, 1000, 4, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	for (int i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(sched_next(s, reqs[i].pe, reqs[i].acp, &c), DLS_OK);
		CU_ASSERT_EQUAL(c.count, want[i]);
		/* exactly half changed (request 3) does not recompute; 3 of 4 does */
		CU_ASSERT_EQUAL(sched_recomputations(s), i == 4 ? 1 : 0);
	}
	CU_ASSERT_EQUAL(sched_units(s), 7);
	CU_ASSERT_EQUAL(sched_remaining(s), 370 - 52);
	sched_destroy(s);
}

/* docs/schemes.md 4.5 */
static void test_dfss_example(void)
{
	struct sched_params p;
	static const int order[] = {0, 0, 2, 3, 1};
	struct sched_drive_spec d = {SCHED_ORDER_LIST, order, 5, NULL, 0};

	tu_params(&p, SCHED_DFSS, 1000, 4, acp1122);
	CU_ASSERT_EQUAL(tu_schedule(&p, &sorted, buf, sizeof(buf)), DLS_OK);
	{
		const char *want = "(2,166) (3,166) (0,83) (1,83) (2,84) (3,84) (0,42) (1,42) "
				   "(2,42) (3,42) (0,21) (1,21) (2,20) (3,20) (0,10) (1,10) ";

		CU_ASSERT_EQUAL(strncmp(buf, want, strlen(want)), 0);
	}
	/* PE 3's request at slots 11-12 straddles stages 1 and 2: 42 + 21 */
	CU_ASSERT_EQUAL(tu_schedule(&p, &d, buf, sizeof(buf)), DLS_OK);
	{
		const char *want = "(0,83) (0,83) (2,166) (3,166) (1,42) (0,42) (0,42) (2,84) (3,63) ";

		CU_ASSERT_EQUAL(strncmp(buf, want, strlen(want)), 0);
	}
}

/* docs/schemes.md 4.6 and 4.7 */
static void test_dfiss_dtfss_examples(void)
{
	struct sched_params p;

	tu_params(&p, SCHED_DFISS, 1000, 4, acp1122);
	check_realized(&p, NULL,
		       "(2,66) (3,66) (0,33) (1,33) (2,112) (3,112) (0,56) (1,56) (2,156) "
		       "(3,156) (0,78) (1,76)");
	tu_params(&p, SCHED_DTFSS, 1000, 4, acp1122);
	check_realized(&p, NULL,
		       "(2,152) (3,152) (0,76) (1,76) (2,116) (3,116) (0,58) (1,58) (2,80) "
		       "(3,80) (0,36)");
}

/* Out-of-range input gives an error code, never a crash or an endless loop. */
static void test_refusals(void)
{
	struct sched_params p;
	struct sched *s;
	struct dls_range c;
	static const int64_t zeros[] = {0, 0, 0};
	static const int64_t neg[] = {1, -1, 1};

	tu_params(&p, SCHED_TSS, 0, 4, NULL);
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	CU_ASSERT_PTR_NULL(s);
	tu_params(&p, SCHED_TSS, 100, 0, NULL);
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	tu_params(&p, SCHED_CSS, 100, 4, NULL); /* K = 0: CSS requires K */
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	tu_params(&p, SCHED_DTSS, 100, 3, zeros);
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_ENOPOWER);
	tu_params(&p, SCHED_DTSS, 100, 3, neg);
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	tu_params(&p, SCHED_TSS, SCHED_MAX_ITERATIONS + 1, 3, NULL);
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	tu_params(&p, SCHED_FISS, 100, 3, NULL);
	p.fiss_sigma = 1;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	p.fiss_sigma = 3;
	p.fiss_x = 3;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	tu_params(&p, SCHED_FSS, 100, 3, NULL);
	p.fac = 1;
	p.fac_mu = 0;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);

	/* a distributed request with A = 0, or a bad PE, is refused, state unharmed */
	tu_params(&p, SCHED_DTSS, 1000, 4, acp1122);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 1, 0, &c), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_next(s, 4, 1, &c), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_next(s, -1, 1, &c), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_remaining(s), 1000);
	CU_ASSERT_EQUAL(sched_next(s, 2, 2, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 163);
	sched_destroy(s);
	sched_destroy(NULL);
}

/* I near 2^62: exact 128-bit arithmetic, finite schedules that sum to I. */
static void test_huge_iterations(void)
{
	static const enum sched_kind kinds[] = {SCHED_GSS,  SCHED_TSS,	 SCHED_FSS,  SCHED_FISS,
						SCHED_TFSS, SCHED_DTSS,	 SCHED_DFSS, SCHED_DFISS,
						SCHED_DTFSS, SCHED_WF};
	static const int64_t acp[] = {1, 3, 1024, 7};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct sched_params p;
		struct sched *s;
		struct dls_range c;
		int64_t sum = 0, n = 0, next = 0;
		int ok = 1;

		tu_params(&p, kinds[k], SCHED_MAX_ITERATIONS, 4, acp);
		CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
		while (n < 100000 && sched_next(s, (int)(n % 4), acp[n % 4], &c) == DLS_OK) {
			ok &= c.count >= 1 && c.start == next;
			next += c.count;
			sum += c.count;
			n++;
		}
		CU_ASSERT(ok);
		CU_ASSERT_EQUAL(sum, SCHED_MAX_ITERATIONS);
		CU_ASSERT(n < 100000);
		sched_destroy(s);
	}
}

static void test_names(void)
{
	enum sched_kind k;

	CU_ASSERT_EQUAL(sched_kind_parse("DtSs", &k), DLS_OK);
	CU_ASSERT_EQUAL(k, SCHED_DTSS);
	CU_ASSERT_EQUAL(sched_kind_parse("nope", &k), DLS_ENOENT);
	for (int i = 0; i < SCHED_KIND_COUNT; i++) {
		CU_ASSERT_EQUAL(sched_kind_parse(sched_kind_name((enum sched_kind)i), &k), DLS_OK);
		CU_ASSERT_EQUAL(k, (enum sched_kind)i);
	}
}

int sched_suite_add(void)
{
	CU_pSuite s = CU_add_suite("sched (docs/schemes.md vectors)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "Chronopoulos et al. 2002 Table 1, table profile", test_table1) ||
	       !CU_add_test(s, "text profile (1.5-1.6)", test_text_profile) ||
	       !CU_add_test(s, "realized simple schedules, GSS(10), CSS(120)",
			    test_realized_simple) ||
	       !CU_add_test(s, "DTSS example (4.3)", test_dtss_example) ||
	       !CU_add_test(s, "ACPSA example (4.4)", test_acpsa_example) ||
	       !CU_add_test(s, "DFSS example (4.5)", test_dfss_example) ||
	       !CU_add_test(s, "DFISS, DTFSS examples (4.6-4.7)", test_dfiss_dtfss_examples) ||
	       !CU_add_test(s, "out-of-range input refused", test_refusals) ||
	       !CU_add_test(s, "I = 2^62", test_huge_iterations) ||
	       !CU_add_test(s, "scheme names", test_names);
}
