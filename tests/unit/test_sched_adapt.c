/* Unit tests of the fixed-size and adaptive techniques (common/sched/sched_adapt.c):
 * their chunks worked by hand from the formulas, what they learn from
 * measurements, nonsense measurements refused, and every iteration handed
 * out exactly once whatever they are told. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>

#include "dls/err.h"
#include "dls_sched.h"
#include "sched_testutil.h"
#include "suites.h"

/* The first n chunks of p's schedule, requests from PEs 0, 1, ... in turn. */
static void first_chunks(const struct sched_params *p, int64_t *got, int n)
{
	struct sched *s;
	struct dls_range c;

	CU_ASSERT_EQUAL_FATAL(sched_create(p, &s), DLS_OK);
	for (int k = 0; k < n; k++)
		got[k] = sched_next(s, k % p->npes, 1, &c) == DLS_OK ? c.count : 0;
	sched_destroy(s);
}

/* STATIC: ceil(I/p); mFSC: FAC(2) hands 32 chunks out for I = 1000, p = 4
 * (125 x4, 63 x4, 31 x4, 16 x4, 8 x4, 4 x4, 2 x4, 1 x4), so ceil(1000/32);
 * FSC with h = sigma: (sqrt(2) 1000 / (4 sqrt(ln 4)))^(2/3) = 44.8 -> 45. */
static void test_fixed_sizes(void)
{
	struct sched_params p;
	int64_t got[5];

	tu_params(&p, SCHED_STATIC, 1000, 4, NULL);
	first_chunks(&p, got, 5);
	CU_ASSERT(got[0] == 250 && got[3] == 250 && got[4] == 0);
	tu_params(&p, SCHED_MFSC, 1000, 4, NULL);
	first_chunks(&p, got, 2);
	CU_ASSERT(got[0] == 32 && got[1] == 32);
	tu_params(&p, SCHED_FSC, 1000, 4, NULL);
	p.fsc_h = p.fsc_sigma = 0.5;
	first_chunks(&p, got, 2);
	CU_ASSERT(got[0] == 45 && got[1] == 45);
	p.fsc_h = 4 * 0.5; /* K grows as h^(2/3): 44.84 * 4^(2/3) = 112.99 -> 113 */
	first_chunks(&p, got, 1);
	CU_ASSERT_EQUAL(got[0], 113);
	tu_params(&p, SCHED_FSC, 1000, 1, NULL);
	first_chunks(&p, got, 1);
	CU_ASSERT_EQUAL(got[0], 1000); /* one PE: one chunk */
}

/* AWF: weights from the measured rates, later chunks weighing more; B and
 * C from compute times, D and E from elapsed times. */
static void test_awf_weights(void)
{
	struct sched_params p;
	struct sched *s;
	struct dls_range c;

	tu_params(&p, SCHED_AWF_C, 1200, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 1.0, 1e-12); /* nothing measured */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 100, 1.0, 3.0), DLS_OK);
	/* PE 1 unmeasured counts as the mean of the measured */
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 1), 1.0, 1e-12);
	CU_ASSERT_EQUAL(sched_measure(s, 1, 0, 100, 2.0, 2.0), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 4.0 / 3, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 1), 2.0 / 3, 1e-12);
	/* w_0 R / (2 p) = 4/3 * 1200 / 4 = 400 exactly */
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 400);
	/* AWF-C recomputes from R = 800: 2/3 * 800 / 4 = 133.3 -> 134 */
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 134);
	/* a second chunk of PE 0 weighs twice: pi_0 = (1 + 2*3) / 300 = 7/300,
	 * pi_1 = 1/50, w_0 = 2 (300/7) / (300/7 + 50) = 12/13 */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 100, 3.0, 3.0), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 12.0 / 13, 1e-12);
	sched_destroy(s);

	tu_params(&p, SCHED_AWF_E, 1200, 2, NULL); /* elapsed: PE 1 is the faster */
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	sched_measure(s, 0, 0, 100, 1.0, 3.0);
	sched_measure(s, 1, 0, 100, 2.0, 2.0);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 0.8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 1), 1.2, 1e-12);
	sched_destroy(s);

	/* AWF-B keeps one batch of R_j for p requests, as WF */
	tu_params(&p, SCHED_AWF_B, 1200, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	sched_measure(s, 0, 0, 100, 1.0, 1.0);
	sched_measure(s, 1, 0, 100, 2.0, 2.0);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 400);
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 200); /* 2/3 * 1200 / 4, the batch's R */
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 200); /* a new batch: 4/3 * 600 / 4 */
	sched_destroy(s);

	/* AWF-B and D probe a PE that has measured nothing, with min(p, I/(8p))
	 * iterations outside the batches: the first batch waits for a rate */
	tu_params(&p, SCHED_AWF_D, 1200, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 2);
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 2);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK); /* asked ahead: again */
	CU_ASSERT_EQUAL(c.count, 2);
	sched_measure(s, 0, 0, 2, 1.0, 1.0);
	sched_measure(s, 1, 2, 2, 2.0, 2.0);
	/* the first batch: R = 1194, w_0 = 4/3, 4/3 * 1194 / 4 = 398 */
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 398);
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 199);
	sched_destroy(s);
	tu_params(&p, SCHED_AWF_B, 100, 4, NULL); /* I / (8p) = 3 < p */
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 3, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 3);
	CU_ASSERT_EQUAL(sched_next(s, 3, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 3);
	/* a PE that never measures: factoring's batch after two probes,
	 * ceil(94 / 8) = 12 */
	CU_ASSERT_EQUAL(sched_next(s, 3, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 12);
	sched_destroy(s);
}

/* AF: PE 0 measured 10 iterations in 10 s and 10 in 12 s (mu 1.1, sigma^2
 * ((100 + 144) / 10 - 1.1 * 22) / 1 = 0.2), PE 1 twice 10 in 20 s (mu 2,
 * sigma 0): D = 0.2/1.1, T = 1/(1/1.1 + 1/2); K_0 at R = 10000, 7500, 5000
 * is 6419, 4811, 3203, capped at ceil(I/4) = 2500; at R = 2500, 1596.66 ->
 * 1597; then at R = 903, 572.85 -> 573. */
static void test_af(void)
{
	static const int64_t want[] = {2500, 2500, 2500, 1597, 573};
	struct sched_params p;
	struct sched *s;
	struct dls_range c;

	tu_params(&p, SCHED_AF, 10000, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	sched_measure(s, 0, 0, 10, 10.0, 10.0);
	sched_measure(s, 0, 0, 10, 12.0, 12.0);
	sched_measure(s, 1, 0, 10, 20.0, 20.0);
	sched_measure(s, 1, 0, 10, 20.0, 20.0);
	for (int k = 0; k < 5; k++) {
		CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
		CU_ASSERT_EQUAL(c.count, want[k]);
	}
	sched_destroy(s);

	/* before any measurement: factoring's first batch, ceil(R / 2p) */
	tu_params(&p, SCHED_AF, 1000, 4, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 3, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 125);
	sched_destroy(s);
}

/* Nonsense measurements are refused and change nothing. */
static void test_bad_measurements(void)
{
	struct sched_params p;
	struct sched *s;

	tu_params(&p, SCHED_AWF_C, 1000, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	sched_measure(s, 0, 0, 100, 1.0, 1.0);
	sched_measure(s, 1, 0, 100, 1.0, 1.0);
	CU_ASSERT_EQUAL(sched_measure(s, 2, 0, 100, 1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, -1, 0, 100, 1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 0, 1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, -5, 1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 1001, 1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, 0.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, -1.0, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, NAN, 1.0), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, 1.0, NAN), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, INFINITY, INFINITY), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, 2.0, 1.0), DLS_EINVAL); /* elapsed < compute */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 10, 1e8, 1e8), DLS_EINVAL);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 1.0, 1e-12);
	sched_destroy(s);

	/* FSC's parameters: both or neither */
	tu_params(&p, SCHED_FSC, 1000, 2, NULL);
	p.fsc_h = 1;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	p.fsc_sigma = NAN;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
	p.fsc_sigma = -1;
	CU_ASSERT_EQUAL(sched_create(&p, &s), DLS_EINVAL);
}

/* Whatever they are told (junk, liars, nothing), the new techniques (and
 * auto, switching among them) hand every iteration out exactly once, in
 * order, chunks >= 1, and end; over up to three time steps, each the whole
 * loop again. */
static void test_random_measurements(void)
{
	static const enum sched_kind kinds[] = {SCHED_STATIC, SCHED_FSC,   SCHED_MFSC,	SCHED_AWF_B,
						SCHED_AWF_C,  SCHED_AWF_D, SCHED_AWF_E, SCHED_AF,
						SCHED_AWF,    SCHED_AUTO};
	const int nkinds = (int)(sizeof(kinds) / sizeof(kinds[0]));
	unsigned seed = 14;
	int ok = 1;

	for (int trial = 0; trial < 400; trial++) {
		struct sched_params p;
		struct sched *s;
		struct dls_range c;
		int npes = 1 + rand_r(&seed) % 40, steps = 1 + rand_r(&seed) % 3;
		int64_t I = 1 + rand_r(&seed) % 20000;

		tu_params(&p, kinds[trial % nkinds], I, npes, NULL);
		if (sched_create(&p, &s) != DLS_OK) {
			ok = 0;
			continue;
		}
		for (int step = 1; step <= steps; step++) {
			int64_t next = 0, n = 0;

			if (step > 1 && sched_next_step(s) != DLS_OK) {
				ok = 0;
				break;
			}
			ok &= sched_step(s) == step;
			while (sched_next(s, rand_r(&seed) % npes, 1, &c) == DLS_OK) {
				double t = (rand_r(&seed) % 1000) * 1e-3 * c.count;
				int pe = rand_r(&seed) % npes;

				ok &= c.count >= 1 && c.start == next;
				next += c.count;
				switch (rand_r(&seed) % 5) {
				case 0: /* a liar: absurdly fast */
					sched_measure(s, pe, c.start, c.count, 1e-300, 1e-300);
					break;
				case 1: /* junk */
					sched_measure(s, pe, c.start, -c.count, NAN, -t);
					break;
				default:
					sched_measure(s, pe, c.start, c.count, t + 1e-6,
						      t * 1.5 + 1e-6);
				}
				if (++n > I)
					break;
			}
			ok &= next == I && sched_remaining(s) == 0 && n <= I;
		}
		sched_destroy(s);
	}
	CU_ASSERT(ok);
}

/* Time-stepping AWF (worked by hand from sched_adapt.c's header): WF on
 * the given weights in the first step; from the second, weights from the
 * measured compute times, step j's weighing j; fixed within a step. */
static void test_awf_time_steps(void)
{
	static const int64_t declared[2] = {3, 1};
	struct sched_params p;
	struct sched *s;
	struct dls_range c;

	tu_params(&p, SCHED_AWF, 1200, 2, declared);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_step(s), 1);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 450); /* WF: 3 * 1200 / (2 * 4) */
	sched_destroy(s);

	tu_params(&p, SCHED_AWF, 1200, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 300);			 /* equal weights: 1200 / 4 */
	CU_ASSERT_EQUAL(sched_next_step(s), DLS_EINVAL); /* 900 still unassigned */
	while (sched_next(s, 1, 1, &c) == DLS_OK)
		;
	/* step 1: PE 0 600 iterations in 1 s, PE 1 600 in 2 s */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 600, 1.0, 1.0), DLS_OK);
	CU_ASSERT_EQUAL(sched_measure(s, 1, 600, 600, 2.0, 2.0), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 1.0, 1e-12); /* fixed in a step */
	CU_ASSERT_EQUAL(sched_next_step(s), DLS_OK);
	CU_ASSERT_EQUAL(sched_step(s), 2);
	CU_ASSERT_EQUAL(sched_remaining(s), 1200);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 4.0 / 3, 1e-12);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT(c.start == 0 && c.count == 400); /* 4/3 * 1200 / 4 */
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT(c.start == 400 && c.count == 200); /* 2/3 * 1200 / 4, same batch */
	while (sched_next(s, 0, 1, &c) == DLS_OK)
		;
	/* step 2: PE 0 slowed to 3 s for 600, PE 1 2 s again.  pi_0 = (1 + 2*3)
	 * / (600 + 2*600) = 7/1800, pi_1 = (2 + 2*2) / 1800 = 6/1800, so w_0 =
	 * 2 (1800/7) / (1800/7 + 300) = 12/13 and w_1 = 14/13 */
	sched_measure(s, 0, 0, 600, 3.0, 3.0);
	sched_measure(s, 1, 600, 600, 2.0, 2.0);
	CU_ASSERT_EQUAL(sched_next_step(s), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 0), 12.0 / 13, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(sched_weight(s, 1), 14.0 / 13, 1e-12);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 277); /* 12/13 * 300 = 276.9 */
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(c.count, 324); /* 14/13 * 300 = 323.1 */
	sched_destroy(s);

	tu_params(&p, SCHED_AUTO, 100, 2, NULL); /* auto: steps too (test_sched_auto.c) */
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(sched_next_step(s), DLS_EINVAL); /* 99 still unassigned */
	while (sched_next(s, 0, 1, &c) == DLS_OK)
		;
	CU_ASSERT_EQUAL(sched_next_step(s), DLS_OK);
	CU_ASSERT_EQUAL(sched_step(s), 2);
	CU_ASSERT_EQUAL(sched_remaining(s), 100);
	sched_destroy(s);
}

/* --rates measured: once a PE has measured, a distributed scheme weighs
 * its request by round(slowest time per iteration / its own), whatever it
 * reports; before that, and for a reported 0, by what it reports. */
static void test_measured_rates(void)
{
	struct sched_params p;
	struct sched *s, *twice;
	struct dls_range c, d;

	tu_params(&p, SCHED_DTSS, 1000, 2, NULL);
	p.measured_rates = 1;
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK); /* nothing measured: A = 1 */
	CU_ASSERT_EQUAL(c.count, 250);			   /* TSS F = floor(1000 / 4) */
	/* PE 1 computes an iteration in 1 ms, PE 0 in 3 ms: PE 1 weighs 3 */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 100, 0.3, 0.3), DLS_OK);
	CU_ASSERT_EQUAL(sched_measure(s, 1, 250, 100, 0.1, 0.1), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	/* the same request reporting A = 3 on a declared-rates DTSS */
	p.measured_rates = 0;
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &twice), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(twice, 0, 1, &d), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(twice, 1, 3, &d), DLS_OK);
	CU_ASSERT(c.start == d.start && c.count == d.count);
	CU_ASSERT_EQUAL(sched_next(s, 1, 0, &c), DLS_EINVAL); /* A = 0 is never served */
	sched_destroy(twice);
	sched_destroy(s);
}

/* --rates measured follows a load the PEs report: a chunk's time counts
 * at the A_k its PE reported then, so a PE whose load doubles (its A_k
 * halves) weighs at once what its declared twin would, where its measured
 * times alone would still say it is twice as fast as the other. */
static void test_measured_rates_follow_the_load(void)
{
	struct sched_params p;
	struct sched *s, *twin;
	struct dls_range c, d;

	tu_params(&p, SCHED_DTSS, 10000, 2, NULL);
	p.measured_rates = 1;
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	p.measured_rates = 0;
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &twin), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 0, 2, &c), DLS_OK); /* V 2, unloaded */
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK); /* V 1 */
	CU_ASSERT_EQUAL(sched_next(twin, 0, 2, &d), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(twin, 1, 1, &d), DLS_OK);
	/* PE 0 computed at 1 ms an iteration, PE 1 at 2 ms: as declared */
	CU_ASSERT_EQUAL(sched_measure(s, 0, 0, 100, 0.1, 0.1), DLS_OK);
	CU_ASSERT_EQUAL(sched_measure(s, 1, 5000, 100, 0.2, 0.2), DLS_OK);
	/* PE 0's load doubles: it reports A = 1 and weighs 1, not 2 */
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(twin, 0, 1, &d), DLS_OK);
	CU_ASSERT(c.start == d.start && c.count == d.count);
	/* PE 1, whose load did not change, weighs 1, as its twin */
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(twin, 1, 1, &d), DLS_OK);
	CU_ASSERT(c.start == d.start && c.count == d.count);
	sched_destroy(twin);
	sched_destroy(s);
}

int sched_adapt_suite_add(void)
{
	CU_pSuite s = CU_add_suite("fixed-size and adaptive techniques", NULL, NULL);

	return !s || !CU_add_test(s, "STATIC, FSC, mFSC chunks", test_fixed_sizes) ||
	       !CU_add_test(s, "AWF-B/C/D/E weights from measured rates", test_awf_weights) ||
	       !CU_add_test(s, "AF's chunks from mean and sd", test_af) ||
	       !CU_add_test(s, "AWF: weights learnt between time steps", test_awf_time_steps) ||
	       !CU_add_test(s, "nonsense measurements refused", test_bad_measurements) ||
	       !CU_add_test(s, "--rates measured weighs DTSS by the measured rates",
			    test_measured_rates) ||
	       !CU_add_test(s, "--rates measured follows a reported load change",
			    test_measured_rates_follow_the_load) ||
	       !CU_add_test(s, "every iteration once, whatever is measured",
			    test_random_measurements);
}
