/*
 * Trapezoid self-scheduling (Tzen & Ni 1993; Chronopoulos et al. 2002 section 2) and its
 * distributed form DTSS (Chronopoulos et al. 2002 section 3): chunks fall linearly from F to
 * L by the integer decrement D, so that early chunks are large (little
 * overhead) and the last ones small (good balance).  docs/schemes.md 1.4, 4.3.
 */
#include "sched_internal.h"

void sched_tss_setup(struct sched *s)
{
	int64_t I = s->i0, U = s->units;
	int64_t F, L, N;
	int first_time = s->recomputations == 0;

	/* User F and L apply to the first computation; a recomputation (ACPSA
	 * rule) derives F from the new I and A, as the paper prescribes. */
	F = first_time && s->p.tss_first ? s->p.tss_first : (int64_t)(I / (2 * (dls_i128)U));
	L = s->p.tss_last ? s->p.tss_last : 1;
	/* Guards of docs/schemes.md 1.4 and 7.6: I < 2p would give F = 0. */
	F = dls_max64(1, dls_min64(F, I));
	L = dls_max64(1, dls_min64(L, F));
	N = (int64_t)dls_ceil_div(2 * (dls_i128)I, F + L);
	s->F = F;
	s->L = L;
	s->N = N;
	s->D = N <= 1 ? 0 : (F - L) / (N - 1);
}

/* Sum of F - k*D for k in [a, b], a <= b. */
static dls_i128 linear_sum(const struct sched *s, int64_t a, int64_t b)
{
	dls_i128 cnt = (dls_i128)b - a + 1;

	return cnt * s->F - (dls_i128)s->D * (((dls_i128)a + b) * cnt / 2);
}

/*
 * Closed form of sum over slots of max(L, F - slot*D) (docs/schemes.md 4.3: the
 * seed's C_i = A_i(F - D(S + (A_i-1)/2)), clamped at L past the trapezoid).
 */
dls_i128 sched_tss_slots(const struct sched *s, int64_t first, int64_t n)
{
	int64_t last = first + n - 1, lim;
	dls_i128 sum = 0;

	if (n <= 0)
		return 0;
	if (s->D == 0)
		return (dls_i128)n * dls_max64(s->F, s->L);
	lim = (s->F - s->L) / s->D; /* last slot whose F - slot*D >= L */
	if (first <= lim)
		sum += linear_sum(s, first, dls_min64(last, lim));
	if (last > lim)
		sum += (dls_i128)(last - dls_max64(first, lim + 1) + 1) * s->L;
	return sum;
}

/*
 * TFSS (Chronopoulos et al. 2002 section 2, "[3]"): stage k of U slots gets the ceiling of
 * the average of its U TSS values (docs/schemes.md 1.7, 4.7; ceil per 7.5).
 */
int64_t sched_tfss_stage(const struct sched *s, int64_t j)
{
	dls_i128 first = (dls_i128)j * s->units;

	if (first > INT64_MAX - s->units)
		return s->L;
	return (int64_t)dls_ceil_div(sched_tss_slots(s, (int64_t)first, s->units), s->units);
}
