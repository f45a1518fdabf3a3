/*
 * sched_adapt.c - the fixed-size and the adaptive techniques:
 *
 *   STATIC  one chunk of ceil(I/p) per request (block scheduling).
 *   FSC     fixed-size chunking, Kruskal & Weiss, "Allocating independent
 *           subtasks on parallel processors", IEEE TSE 11(10), 1985:
 *           K = ceil((sqrt(2) I h / (sigma p sqrt(ln p)))^(2/3)), h the
 *           scheduling overhead of a chunk, sigma the iteration time's
 *           standard deviation (the same time unit); K = I when p = 1.
 *   mFSC    FSC's fixed size with factoring's number of chunks (Banicescu
 *           et al.; DLS4LB): K = ceil(I / n_FAC), n_FAC the number of chunks
 *           FAC (alpha = 2) hands out for I and p, counted exactly here.
 *   AWF-B/C/D/E  adaptive weighted factoring, Carino & Banicescu,
 *           "Dynamic load balancing with adaptive factoring methods in
 *           scientific applications", J. Supercomputing 44(1), 2008: WF
 *           whose weights come from each PE's measured performance.  The
 *           weighted performance of PE i is pi_i = sum_k k t_k / sum_k k n_k
 *           over its chunks k = 1, 2, ... (later chunks weigh more), t_k the
 *           compute time (B, C) or the compute time plus the wait for the
 *           chunk (D, E: the scheduling overhead counted); its weight is
 *           w_i = p (1/pi_i) / sum_j (1/pi_j).  B and D share a batch
 *           (p requests, as WF) of R_j: chunk ceil(w_i R_j / (alpha p)); C
 *           and E recompute from the current R at every chunk.  B and D
 *           start as DLS4LB does (its DLS.c): a PE that has measured
 *           nothing gets a probe of min(p, I / (8 p)) iterations (at least
 *           1; DLS4LB's default minimum chunk is p), outside the batches,
 *           so that no batch is cut before any rate is known (without it,
 *           the first batch, half the loop, is plain factoring's).  Two
 *           probes at most (a slave that asks ahead asks again before its
 *           first is measured); a PE that still has measured nothing then
 *           counts as below.
 *   AF      adaptive factoring, Banicescu & Liu, "Adaptive factoring: a
 *           dynamic scheduling method tuned to the rate of weight
 *           changes", HPC 2000 (and Banicescu, Velusamy &
 *           Devaprasad, Cluster Computing 6, 2003): with mu_j, sigma_j the
 *           mean and standard deviation of an iteration's time on PE j,
 *           D = sum_j sigma_j^2 / mu_j and T = 1 / sum_j (1/mu_j),
 *           K_i = (D + 2 T R - sqrt(D^2 + 4 D T R)) / (2 mu_i), at most
 *           ceil(I / (alpha p)) (DLS4LB's bound).  mu_i and sigma_i are
 *           estimated from whole chunks: mu = sum t / sum n and, for iid
 *           iterations (Var t_k = n_k sigma^2), sigma^2 =
 *           sum_k (t_k - n_k mu)^2 / n_k / (K - 1).
 *   AWF     adaptive weighted factoring for time-stepping loops, Banicescu,
 *           Velusamy & Devaprasad, "On the scalability of dynamic scheduling
 *           scientific applications with adaptive weighted factoring",
 *           Cluster Computing 6(3), 2003: WF within a time step, its
 *           weights fixed for the step; at the start of step t + 1 each PE's
 *           weighted performance over the steps so far is pi_i =
 *           sum_j j T_ij / sum_j j N_ij (T_ij, N_ij its compute time and
 *           iterations in step j: later steps weigh more) and its weight
 *           w_i = p (1/pi_i) / sum_k (1/pi_k).  The first step runs on the
 *           given weights (sched_params.acp, as WF; DLS4LB's DLS_StartLoop
 *           gives every PE 1 there).  A measurement counts in the step that
 *           is current when it is handed in (sched_next_step asks for each
 *           step's before the next).
 *
 * Before a PE has measured anything it counts as the mean of those that
 * have (as 1 when none has): AWF-C/E and AF start as plain factoring (a
 * probe start measured worse for them: BENCHMARKS.md 4.2).  Every chunk
 * is at least 1.
 */
#include <math.h>
#include <stdlib.h>

#include "dls/err.h"
#include "sched_internal.h"

/* FAC's (alpha = 2) number of chunks for I iterations on p PEs. */
static int64_t fac_chunks(int64_t iterations, int64_t p)
{
	int64_t rem = iterations, n = 0;

	while (rem > 0) {
		int64_t c = (int64_t)dls_ceil_div(rem, 2 * p);

		for (int64_t k = 0; k < p && rem > 0; k++, n++)
			rem -= c < rem ? c : rem;
	}
	return n;
}

/* ceil(k) within [1, hi]; a k within rounding error of an integer is that
 * integer (4/3 * 1200 / 4 is 400, not 401). */
static int64_t clamp_chunk(double k, int64_t hi)
{
	double r = nearbyint(k);

	k = fabs(k - r) <= 1e-9 * fabs(k) ? r : ceil(k);
	if (!(k >= 1)) /* NaN too */
		return 1;
	return k >= (double)hi ? hi : (int64_t)k;
}

int sched_adapt_setup(struct sched *s)
{
	int64_t I = s->i0, p = s->p.npes; /* the loop, or what remained at a switch */

	switch (s->p.kind) {
	case SCHED_STATIC:
		s->fixed_chunk = (int64_t)dls_ceil_div(I, p);
		break;
	case SCHED_FSC:
		if (p == 1) {
			s->fixed_chunk = I;
		} else {
			double k = M_SQRT2 * (double)I * s->p.fsc_h /
				   (s->p.fsc_sigma * (double)p * sqrt(log((double)p)));

			s->fixed_chunk = clamp_chunk(pow(k, 2.0 / 3.0), I);
		}
		break;
	case SCHED_MFSC:
		s->fixed_chunk = (int64_t)dls_ceil_div(I, fac_chunks(I, p));
		break;
	default:
		break;
	}
	if ((sched_kind_is_adaptive(s->p.kind) || s->learns) && !s->est) {
		s->est = calloc((size_t)p, sizeof(*s->est));
		if (!s->est)
			return DLS_ENOMEM;
	}
	return DLS_OK;
}

void sched_adapt_measure(struct sched *s, int pe, int64_t count, double compute_s,
			 double elapsed_s)
{
	struct sched_pe_est *e;
	double k;

	if (!s->est)
		return; /* a technique that does not learn */
	e = &s->est[pe];
	e->chunks++;
	k = (double)e->chunks;
	e->wt_comp += k * compute_s;
	e->wt_elapsed += k * elapsed_s;
	e->wn += k * (double)count;
	e->sum_t += compute_s;
	e->sum_n += (double)count;
	e->sum_t2n += compute_s * compute_s / (double)count;
	e->wt_load += k * compute_s * (double)(e->acp >= 1 ? e->acp : 1);
	e->ws_t += (double)s->step * compute_s;
	e->ws_n += (double)s->step * (double)count;
}

/* Time per iteration of PE i as the technique weighs it; 0 if unmeasured. */
static double time_per_iteration(const struct sched *s, int i)
{
	const struct sched_pe_est *e = &s->est[i];

	if (!e->chunks)
		return 0;
	switch (s->p.kind) {
	case SCHED_AWF_D:
	case SCHED_AWF_E:
		return e->wt_elapsed / e->wn;
	case SCHED_AF:
		return e->sum_t / e->sum_n;
	case SCHED_AWF:
		return e->ws_t / e->ws_n;
	default:
		return e->wt_comp / e->wn;
	}
}

/* PE pe's rate (iterations per second, up to a common factor) and the sum
 * over every PE; the unmeasured count as the measured ones' mean. */
static void rates(const struct sched *s, int pe, double *mine, double *sum)
{
	double measured = 0, mine_t;
	int n = 0;

	for (int i = 0; i < s->p.npes; i++) {
		double t = time_per_iteration(s, i);

		if (t > 0) {
			measured += 1 / t;
			n++;
		}
	}
	if (!n) {
		*mine = 1;
		*sum = s->p.npes;
		return;
	}
	*sum = measured + (s->p.npes - n) * (measured / n);
	mine_t = time_per_iteration(s, pe);
	*mine = mine_t > 0 ? 1 / mine_t : measured / n;
}

/* AWF-B/D: probes a PE gets at most before it has measured a chunk. */
#define AWF_PROBES 2

/* AWF-B/D's probe for a PE that has measured nothing: min(p, I / (8 p)),
 * at least 1 (the header). */
static int64_t awf_probe(const struct sched *s)
{
	int64_t p = s->p.npes, share = s->i0 / (8 * p);

	return share < 1 ? 1 : share < p ? share : p;
}

/* AWF-B/C/D/E: ceil(w_i R / (alpha p)), w_i = p rate_i / sum of rates. */
static int64_t awf_chunk(struct sched *s, int pe, int batched)
{
	double mine, sum, r;

	if (batched) {
		if (!s->est[pe].chunks && s->est[pe].probes < AWF_PROBES) {
			s->est[pe].probes++;
			return clamp_chunk((double)awf_probe(s), s->remaining);
		}
		if (s->batch_served++ % s->p.npes == 0)
			s->batch_rem = s->remaining;
		r = (double)s->batch_rem;
	} else {
		r = (double)s->remaining;
	}
	rates(s, pe, &mine, &sum);
	return clamp_chunk(mine / sum * r * (double)s->p.alpha_den / (double)s->p.alpha_num,
			   s->remaining);
}

/* AF's chunk for PE pe (the formula in the header). */
static int64_t af_chunk(struct sched *s, int pe)
{
	double mu_sum = 0, inv = 0, D = 0, T, R = (double)s->remaining, mu_pe = 0, k;
	int64_t cap = (int64_t)dls_ceil_div((dls_i128)s->i0 * s->p.alpha_den,
					    (dls_i128)s->p.alpha_num * s->p.npes);
	int n = 0;

	for (int i = 0; i < s->p.npes; i++)
		if (s->est[i].chunks) {
			mu_sum += s->est[i].sum_t / s->est[i].sum_n;
			n++;
		}
	if (!n) /* nothing measured yet: factoring's first batch */
		return clamp_chunk(R * (double)s->p.alpha_den / ((double)s->p.alpha_num * s->p.npes),
				   cap);
	for (int i = 0; i < s->p.npes; i++) {
		const struct sched_pe_est *e = &s->est[i];
		double mu = e->chunks ? e->sum_t / e->sum_n : mu_sum / n, var = 0;

		if (e->chunks > 1) {
			var = (e->sum_t2n - mu * e->sum_t) / (double)(e->chunks - 1);
			if (!(var > 0))
				var = 0;
		}
		D += var / mu;
		inv += 1 / mu;
		if (i == pe)
			mu_pe = mu;
	}
	T = 1 / inv;
	k = (D + 2 * T * R - sqrt(D * D + 4 * D * T * R)) / (2 * mu_pe);
	return clamp_chunk(k, cap);
}

/* AWF: WF's chunk on the step's weights, ceil(w_i R_j / (alpha p)). */
static int64_t awf_step_chunk(struct sched *s, int pe)
{
	if (!s->awf_w)
		return sched_wf_chunk(s, pe); /* the first step: the given weights */
	if (s->requests % s->p.npes == 0)
		s->batch_rem = s->remaining;
	return clamp_chunk(s->awf_w[pe] / (double)s->p.npes * (double)s->batch_rem *
			       (double)s->p.alpha_den / (double)s->p.alpha_num,
			   s->remaining);
}

int sched_adapt_new_step(struct sched *s)
{
	double sum, mine;
	int measured = 0;

	for (int i = 0; i < s->p.npes; i++)
		measured += s->est[i].chunks > 0;
	if (!measured)
		return DLS_OK; /* nothing learnt: the given weights stay */
	if (!s->awf_w) {
		s->awf_w = calloc((size_t)s->p.npes, sizeof(*s->awf_w));
		if (!s->awf_w)
			return DLS_ENOMEM;
	}
	for (int i = 0; i < s->p.npes; i++) {
		rates(s, i, &mine, &sum);
		s->awf_w[i] = mine / sum * s->p.npes;
	}
	return DLS_OK;
}

int64_t sched_adapt_chunk(struct sched *s, int pe)
{
	switch (s->p.kind) {
	case SCHED_STATIC:
	case SCHED_FSC:
	case SCHED_MFSC:
		return s->fixed_chunk;
	case SCHED_AWF_B:
	case SCHED_AWF_D:
		return awf_chunk(s, pe, 1);
	case SCHED_AWF_C:
	case SCHED_AWF_E:
		return awf_chunk(s, pe, 0);
	case SCHED_AF:
		return af_chunk(s, pe);
	case SCHED_AWF:
		return awf_step_chunk(s, pe);
	default:
		return 0;
	}
}

double sched_weight(const struct sched *s, int pe)
{
	double mine, sum;

	if (!s->est || pe < 0 || pe >= s->p.npes)
		return 1;
	if (s->p.kind == SCHED_AWF) /* the step's weights, not the latest rates */
		return s->awf_w	       ? s->awf_w[pe]
		       : s->weight_sum ? (double)s->cur[pe] * s->p.npes / (double)s->weight_sum
				       : 1;
	rates(s, pe, &mine, &sum);
	return mine / sum * s->p.npes;
}

/*
 * --rates measured.  A chunk's time per iteration is t = c Q / V (c the
 * iterations' cost, Q the PE's load, V its true speed), and the A_k the PE
 * reports is V_declared / Q: so t A_k does not move with the load, and
 * t A_k / A_now is what an iteration takes the PE now.  Declared speeds
 * that are wrong show in t A_k (C8-mis: every A_k 1, the fast PEs' t half
 * the others'); a load that changes shows in A_now at once (C8-var), where
 * the measured times alone lag behind it by the chunks measured before.
 * Each chunk's t weighs with the A_k its PE reported last before the
 * measurement came (the request that asked during or after that chunk),
 * AWF's later-chunks-weigh-more sums.  0 while PE i has measured nothing.
 */
static double time_now(const struct sched *s, int i, int64_t acp_now)
{
	const struct sched_pe_est *e = &s->est[i];

	if (!e->chunks || !(e->wn > 0))
		return 0;
	return e->wt_load / e->wn / (double)(acp_now >= 1 ? acp_now : 1);
}

int64_t sched_adapt_rate_acp(struct sched *s, int pe, int64_t reported)
{
	double slowest = 0, mine, ratio;

	if (!s->est)
		return reported;
	s->est[pe].acp = reported;
	if (!s->est[pe].chunks)
		return reported;
	for (int i = 0; i < s->p.npes; i++) {
		double t = time_now(s, i, s->est[i].acp);

		if (t > slowest)
			slowest = t;
	}
	mine = time_now(s, pe, reported);
	if (!(mine > 0))
		return reported;
	ratio = nearbyint(slowest / mine);
	if (!(ratio < (double)SCHED_MAX_ACP))
		return SCHED_MAX_ACP;
	return ratio < 1 ? 1 : (int64_t)ratio;
}
