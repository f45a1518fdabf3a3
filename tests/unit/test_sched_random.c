/*
 * The sanity properties of docs/schemes.md 8 over many seeded random
 * inputs (I in [1, 5000], p in [1, 40], A_i in [0, 4]), checked against an
 * independent re-derivation of the TSS parameters where a formula is needed.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sched_testutil.h"
#include "suites.h"

#define ROUNDS 3000

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
	/* xorshift64*: deterministic across runs and machines */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static int64_t rnd_in(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

#define MAXCH 20000

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

struct sched_run {
	int n;
	int pe[MAXCH];
	int64_t size[MAXCH];
	int contiguous; /* every chunk starts where the previous ended, from 0 */
	int64_t sum;
};

static int record(void *arg, int pe, const struct dls_range *c)
{
	struct sched_run *r = arg;

	if (r->n == MAXCH)
		return 1;
	if (c->start != r->sum || c->count < 1)
		r->contiguous = 0;
	r->pe[r->n] = pe;
	r->size[r->n++] = c->count;
	r->sum += c->count;
	return 0;
}

static struct sched_run run;

static int drive(const struct sched_params *p, const struct sched_drive_spec *d)
{
	memset(&run, 0, sizeof(run));
	run.contiguous = 1;
	return sched_drive(p, d, record, &run, MAXCH);
}

/* Independent TSS parameters (docs/schemes.md 1.4 with its guards). */
static void tss_params(int64_t I, int64_t p, int64_t *F, int64_t *N, int64_t *D)
{
	int64_t f = I / (2 * p), L = 1;

	if (f < 1)
		f = 1;
	if (f > I)
		f = I;
	*F = f;
	*N = (2 * I + f + L - 1) / (f + L);
	*D = *N <= 1 ? 0 : (f - L) / (*N - 1);
}

static void test_simple_properties(void)
{
	static const struct sched_drive_spec rr = {SCHED_ORDER_RR, NULL, 0, NULL, 0};
	int bad_sum = 0, bad_cover = 0, bad_mono = 0, bad_specific = 0;

	for (int r = 0; r < ROUNDS; r++) {
		int64_t I = rnd_in(1, 5000);
		int npes = (int)rnd_in(1, 40);

		for (int k = SCHED_SS; k <= SCHED_TFSS; k++) {
			struct sched_params p;

			tu_params(&p, (enum sched_kind)k, I, npes, NULL);
			if (k == SCHED_CSS)
				p.css_k = rnd_in(1, 300);
			if (rnd() % 2)
				p.profile = SCHED_PROFILE_TEXT;
			if (drive(&p, &rr) != DLS_OK) {
				bad_sum++;
				continue;
			}
			bad_sum += run.sum != I;
			bad_cover += !run.contiguous;
			for (int i = 1; i + 1 < run.n; i++) {
				int grows = run.size[i] > run.size[i - 1];
				int shrinks = run.size[i] < run.size[i - 1];

				if ((k == SCHED_GSS || k == SCHED_TSS || k == SCHED_FSS ||
				     k == SCHED_TFSS) && grows)
					bad_mono++;
				if (k == SCHED_FISS && shrinks)
					bad_mono++;
				/* FSS: equal within a stage of p requests */
				if (k == SCHED_FSS && i % npes != 0 && run.size[i] != run.size[i - 1])
					bad_mono++;
			}
			switch (k) {
			case SCHED_SS:
				bad_specific += run.n != I;
				break;
			case SCHED_CSS:
				bad_specific += run.n != (I + p.css_k - 1) / p.css_k;
				break;
			case SCHED_GSS:
				bad_specific += run.size[0] != (run.n == 1 ? I : (I + npes - 1) / npes);
				break;
			case SCHED_TSS: {
				int64_t F, N, D;

				tss_params(I, npes, &F, &N, &D);
				bad_specific += run.n > N || F - (N - 1) * D < 1;
				for (int i = 0; i + 1 < run.n; i++)
					bad_specific += run.size[i] != F - i * D;
				break;
			}
			default:
				break;
			}
		}
	}
	CU_ASSERT_EQUAL(bad_sum, 0);
	CU_ASSERT_EQUAL(bad_cover, 0);
	CU_ASSERT_EQUAL(bad_mono, 0);
	CU_ASSERT_EQUAL(bad_specific, 0);
}

/* Only the last chunk may be shorter than the function value (simple schemes). */
static void test_only_last_truncated(void)
{
	static const struct sched_drive_spec rr = {SCHED_ORDER_RR, NULL, 0, NULL, 0};
	static const enum sched_kind kinds[] = {SCHED_TSS, SCHED_FSS, SCHED_FISS, SCHED_TFSS};
	int64_t f[4096];
	int bad = 0;

	for (int r = 0; r < ROUNDS / 3; r++) {
		for (size_t k = 0; k < 4; k++) {
			struct sched_params p;
			size_t n;

			tu_params(&p, kinds[k], rnd_in(1, 5000), (int)rnd_in(1, 40), NULL);
			if (sched_function(&p, f, 4096, &n) || drive(&p, &rr)) {
				bad++;
				continue;
			}
			for (int i = 0; i < run.n; i++)
				bad += (size_t)i >= n || (i + 1 < run.n ? run.size[i] != f[i]
									: run.size[i] > f[i]);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void random_order(int npes, const int64_t *acp, int *list, size_t *n)
{
	*n = 0;
	for (int i = 0; i < npes; i++)
		if (acp[i] >= 1)
			list[(*n)++] = i;
	for (size_t i = *n; i > 1; i--) {
		size_t j = (size_t)(rnd() % i);
		int t = list[i - 1];

		list[i - 1] = list[j];
		list[j] = t;
	}
}

/* With all A_i = 1 each distributed scheme equals its simple counterpart. */
static void test_distributed_reduce_to_simple(void)
{
	static const enum sched_kind d[] = {SCHED_DTSS, SCHED_DFSS, SCHED_DFISS, SCHED_DTFSS};
	static const enum sched_kind s[] = {SCHED_TSS, SCHED_FSS, SCHED_FISS, SCHED_TFSS};
	static int64_t ones[40], simple[MAXCH];
	static int list[40];
	int bad = 0;

	for (int i = 0; i < 40; i++)
		ones[i] = 1;
	for (int r = 0; r < ROUNDS / 3; r++) {
		int64_t I = rnd_in(1, 5000);
		int npes = (int)rnd_in(1, 40);
		size_t nlist;

		random_order(npes, ones, list, &nlist);
		for (int k = 0; k < 4; k++) {
			struct sched_params p;
			struct sched_drive_spec spec = {SCHED_ORDER_RR, NULL, 0, NULL, 0};
			int nsimple;

			tu_params(&p, s[k], I, npes, NULL);
			p.profile = r % 2 ? SCHED_PROFILE_TEXT : SCHED_PROFILE_TABLE;
			drive(&p, &spec);
			nsimple = run.n;
			memcpy(simple, run.size, (size_t)run.n * sizeof(int64_t));
			p.kind = d[k];
			p.acp = ones;
			for (int o = 0; o < 3; o++) {
				spec.order = o == 0 ? SCHED_ORDER_RR
					     : o == 1 ? SCHED_ORDER_SORTED
						      : SCHED_ORDER_LIST;
				spec.list = list;
				spec.nlist = nlist;
				drive(&p, &spec);
				bad += run.n != nsimple ||
				       memcmp(run.size, simple, (size_t)run.n * sizeof(int64_t));
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* Random A vectors and orders: sums, minimum chunk, A_i = 0 never served,
 * and DTSS's closed form C = A(F - D(S + (A-1)/2)) inside the trapezoid. */
static void test_distributed_random(void)
{
	static int64_t acp[40];
	static int list[40];
	int bad_sum = 0, bad_zero = 0, bad_closed = 0;

	for (int r = 0; r < ROUNDS; r++) {
		int64_t I = rnd_in(1, 5000), A = 0;
		int npes = (int)rnd_in(1, 40);
		size_t nlist;

		for (int i = 0; i < npes; i++) {
			acp[i] = rnd_in(0, 4);
			A += acp[i];
		}
		if (A == 0)
			acp[rnd_in(0, npes - 1)] = A = 1;
		random_order(npes, acp, list, &nlist);
		for (int k = SCHED_DTSS; k <= SCHED_DTFSS; k++) {
			struct sched_params p;
			struct sched_drive_spec spec = {SCHED_ORDER_LIST, list, nlist, NULL, 0};

			tu_params(&p, (enum sched_kind)k, I, npes, acp);
			if (r % 2)
				spec.order = SCHED_ORDER_SORTED;
			if (drive(&p, &spec)) {
				bad_sum++;
				continue;
			}
			bad_sum += run.sum != I || !run.contiguous;
			for (int i = 0; i < run.n; i++)
				bad_zero += acp[run.pe[i]] == 0;
			if (k == SCHED_DTSS) {
				int64_t F, N, D, S = 0;

				tss_params(I, A, &F, &N, &D);
				for (int i = 0; i + 1 < run.n; i++) {
					int64_t a = acp[run.pe[i]];

					/* 2C = A(2F - D(2S + A - 1)), exact in integers */
					if (S + a <= N)
						bad_closed += 2 * run.size[i] !=
							      a * (2 * F - D * (2 * S + a - 1));
					S += a;
				}
			}
		}
	}
	CU_ASSERT_EQUAL(bad_sum, 0);
	CU_ASSERT_EQUAL(bad_zero, 0);
	CU_ASSERT_EQUAL(bad_closed, 0);
}

/* With all A_i = k, DTSS chunks are sums of k consecutive TSS(I, kp) values. */
static void test_dtss_uniform_k(void)
{
	static int64_t acp[40];
	int64_t f[8192];
	int bad = 0;

	for (int r = 0; r < ROUNDS / 3; r++) {
		int64_t I = rnd_in(1, 5000), kk = rnd_in(1, 4);
		int npes = (int)rnd_in(1, 40);
		struct sched_params p;
		struct sched_drive_spec rr = {SCHED_ORDER_RR, NULL, 0, NULL, 0};
		size_t n;

		for (int i = 0; i < npes; i++)
			acp[i] = kk;
		tu_params(&p, SCHED_TSS, I, (int)(kk * npes), NULL);
		if (sched_function(&p, f, 8192, &n)) {
			bad++;
			continue;
		}
		tu_params(&p, SCHED_DTSS, I, npes, acp);
		drive(&p, &rr);
		for (int i = 0; i + 1 < run.n; i++) {
			int64_t want = 0;

			for (int64_t j = i * kk; j < (i + 1) * kk; j++)
				want += (size_t)j < n ? f[j] : 1;
			bad += run.size[i] != want;
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* ACPSA: <= p/2 changes never recompute, > p/2 do; then I0 = R, S = 0. */
static void test_acpsa_rule(void)
{
	int bad = 0;

	for (int r = 0; r < ROUNDS / 3; r++) {
		int npes = (int)rnd_in(2, 40);
		int64_t I = rnd_in(1000, 100000), acp[40], A = 0, a;
		struct sched_params p;
		struct sched *s;
		struct dls_range c;
		int changes = 0, pe;

		for (int i = 0; i < npes; i++)
			acp[i] = rnd_in(1, 4);
		tu_params(&p, SCHED_DTSS, I, npes, acp);
		if (sched_create(&p, &s)) {
			bad++;
			continue;
		}
		/* change PEs one by one; each request reports a new value */
		for (pe = 0; pe < npes; pe++) {
			int64_t before = sched_remaining(s);

			a = acp[pe] % 4 + 1;
			changes++;
			if (sched_next(s, pe, a, &c))
				break;
			if (2 * changes <= npes) {
				bad += sched_recomputations(s) != 0;
			} else {
				int64_t F, N, D;

				A = 0;
				for (int j = 0; j < npes; j++)
					A += j <= pe ? acp[j] % 4 + 1 : acp[j];
				tss_params(before, A, &F, &N, &D);
				bad += sched_recomputations(s) != 1 || sched_units(s) != A;
				/* first chunk after it uses S = 0 */
				bad += 2 * c.count != min64(2 * before,
								    a * (2 * F - D * (a - 1)));
				break;
			}
		}
		sched_destroy(s);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

int sched_random_suite_add(void)
{
	CU_pSuite s = CU_add_suite("sched (section 8 properties, random)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "simple schemes: sums, cover, monotone, specific",
			    test_simple_properties) ||
	       !CU_add_test(s, "only the last chunk is truncated", test_only_last_truncated) ||
	       !CU_add_test(s, "all A_i = 1 reduces to the simple scheme",
			    test_distributed_reduce_to_simple) ||
	       !CU_add_test(s, "random A and orders; DTSS closed form", test_distributed_random) ||
	       !CU_add_test(s, "all A_i = k: sums of k TSS(I,kp) chunks", test_dtss_uniform_k) ||
	       !CU_add_test(s, "ACPSA recomputation rule", test_acpsa_rule);
}
