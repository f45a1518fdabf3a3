/*
 * sched_auto.c - --scheme auto: picks the technique, and switches it during
 * the run, by simulating the rest of the loop under each candidate on what
 * the run has measured (the approach of SimAS: A. Mohammed and F. M.
 * Ciorba, "SimAS: A simulation-assisted approach for the scheduling
 * algorithm selection under perturbations", Concurrency and Computation 32,
 * 2020, which DLS4LB implements with SimGrid).
 *
 * What it learns, from every measured chunk (sched_measure): each PE's time
 * per iteration tau_j (its compute time over its iterations), the wait per
 * chunk h (elapsed - compute: the scheduling overhead a slave could not
 * hide), and the relative cost of the iterations each chunk covered,
 * c_k = compute_k / (count_k tau_j) (1 = an average iteration).
 *
 * Across the time steps of a run of many loops (sched_next_step) it keeps
 * what it measured: a new step starts with the technique it ran last, and
 * it decides at once over the whole step from the steps before (a probe
 * that never ended probes on).
 *
 * When it decides: the first time once every PE has measured a chunk and a
 * sixteenth of the loop is measured, or, in an order that mixes the costs,
 * once half of what was handed out is measured and the probe's requests
 * have cost the master a sixteenth of the loop's expected time (p PEs of
 * the measured mean tau over I iterations: what ends the probe when PEs
 * are many and iterations per PE few), or after 4p + I/16 chunks; running
 * SS until then (the probe: one iteration a request); again each time what
 * remains has halved, while at least 2p iterations remain.  A probe that
 * measured nothing (slaves that do not measure: PROTOCOL.md 6 allows it)
 * hands over to factoring (FSS).
 *
 * How it decides: it simulates every candidate (SS, FSC with the learnt h
 * and sigma, mFSC, GSS, TSS, FSS, AWF-C, AWF-E, AF; the adaptive ones start
 * from what the run learnt) over the iterations that remain, PE j taking
 * h + s + tau_j x (the chunk's cost) per chunk, on several futures, where s
 * is the master's service time per request (sched_params.service_s): the
 * master serves one request at a time, so a chunk starts no earlier than
 * its request's turn in the master's queue, and s is charged to the PE as
 * well (a request's messages cost its own side about as much, and a master
 * that shares the PEs' cores takes its time from them):
 *   - bootstrap futures: the remaining iterations take the relative costs
 *     of measured chunks drawn at random, a chunk's cost over a block as
 *     long as that chunk (costs as they were met, neighbours together);
 *   - when neighbouring iterations' costs may sit together (the natural
 *     order: params.correlated), band futures as well: a quarter of what
 *     remains costs AUTO_BAND_WEIGHT (100) times what was measured, at
 *     each of four places.  Nothing
 *     measured so far can say where the expensive part of a loop still to
 *     come lies, so a technique is judged by its worst band (the stress
 *     test the Mandelbrot's natural order is: its expensive columns sit in
 *     the middle, unseen until reached).
 * A candidate's score is its mean over the bootstrap futures or its worst
 * band, whichever is larger.  The best candidate replaces the running
 * technique when it is predicted at least 2% faster.  Every decision is
 * recorded (sched_auto_decisions).
 *
 * The futures' costs are coarse on purpose: at most max(2048, min(8p,
 * 65536)) model iterations (a model iteration is a run of ceil(R / that)
 * iterations, a part of one costing its share); each candidate hands out
 * the real remaining iterations, so that its requests, and the master's
 * time for them, are counted as they would come (a candidate whose
 * master's time alone passes the running technique's prediction is out),
 * the PEs all free at once, a request entering the master's queue when its
 * PE is free (asking ahead hides what h does not show), no end game.
 * Deterministic: the same measurements in the same order give the same
 * decisions (a resumed master replays them).  Each PE's sums of compute time and iterations are the
 * scheduler's own estimates (s->est: auto keeps them whatever runs).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sched_internal.h"

#define AUTO_MAX_OBS 4096	   /* measured chunks kept (the latest) */
#define AUTO_MODEL_ITERATIONS 2048 /* at least; 8 per PE when more ... */
#define AUTO_MODEL_MAX 65536	   /* ... up to this (a decision's cost) */
#define AUTO_GAIN 0.98		   /* switch when predicted <= 98% of the running one */
#define AUTO_BOOTSTRAPS 2
#define AUTO_BANDS 4		   /* a band is 1/AUTO_BANDS of what remains ... */
#define AUTO_BAND_WEIGHT 100.0  /* ... and costs this many times the rest */
#define AUTO_PROBE 16		   /* the probe measures 1/16 of the loop */

static const enum sched_kind candidates[] = {
	SCHED_SS,  SCHED_FSC, SCHED_MFSC,  SCHED_GSS,  SCHED_TSS,
	SCHED_FSS, SCHED_AWF_C, SCHED_AWF_E, SCHED_AF,
};
#define NCAND (sizeof(candidates) / sizeof(candidates[0]))

struct auto_obs {
	int pe;
	int64_t count;
	double compute;
};

struct sched_auto {
	struct auto_obs *obs; /* ring of the latest AUTO_MAX_OBS */
	size_t nobs, head;
	double wait_sum;
	int64_t wait_n;
	int64_t served, check_at; /* decide again when remaining <= check_at */
	int decided;
	struct sched_switch dec[SCHED_AUTO_MAX_DECISIONS];
	int ndec;

	/* scratch of a decision */
	double *tau;		 /* npes: time per average iteration */
	double *density;	 /* model iterations: a future's relative costs */
	double *cost;		 /* model iterations + 1: prefix sums of cost */
	double *heap_t;		 /* npes: free time of heap_pe[k] */
	int *heap_pe;
	uint64_t rng;
};

void sched_auto_free(struct sched_auto *a)
{
	if (!a)
		return;
	free(a->obs);
	free(a->tau);
	free(a->density);
	free(a->cost);
	free(a->heap_t);
	free(a->heap_pe);
	free(a);
}

static size_t model_iterations_max(int npes)
{
	size_t m = (size_t)npes * 8;

	m = m < AUTO_MODEL_MAX ? m : AUTO_MODEL_MAX;
	return m > AUTO_MODEL_ITERATIONS ? m : AUTO_MODEL_ITERATIONS;
}

int sched_auto_attach(struct sched *s)
{
	struct sched_auto *a = calloc(1, sizeof(*a));
	size_t p = (size_t)s->p.npes;

	if (!a)
		return DLS_ENOMEM;
	a->obs = calloc(AUTO_MAX_OBS, sizeof(*a->obs));
	a->tau = calloc(p, sizeof(double));
	a->density = calloc(model_iterations_max(s->p.npes), sizeof(double));
	a->cost = calloc(model_iterations_max(s->p.npes) + 1, sizeof(double));
	a->heap_t = calloc(p, sizeof(double));
	a->heap_pe = calloc(p, sizeof(int));
	if (!a->obs || !a->tau || !a->density || !a->cost || !a->heap_t || !a->heap_pe) {
		sched_auto_free(a);
		return DLS_ENOMEM;
	}
	s->sel = a;
	return DLS_OK;
}

void sched_auto_observe(struct sched *s, int pe, int64_t count, double compute_s,
			double elapsed_s)
{
	struct sched_auto *a = s->sel;

	a->obs[a->head] = (struct auto_obs){pe, count, compute_s};
	a->head = (a->head + 1) % AUTO_MAX_OBS;
	if (a->nobs < AUTO_MAX_OBS)
		a->nobs++;
	a->wait_sum += elapsed_s - compute_s;
	a->wait_n++;
}

/* tau_j of every PE (the unmeasured: the measured ones' mean); their mean. */
static double learn_tau(const struct sched *s)
{
	struct sched_auto *a = s->sel;
	double sum = 0;
	int n = 0;

	for (int j = 0; j < s->p.npes; j++)
		if (s->est[j].sum_n > 0) {
			a->tau[j] = s->est[j].sum_t / s->est[j].sum_n;
			sum += a->tau[j];
			n++;
		}
	for (int j = 0; j < s->p.npes; j++)
		if (!(s->est[j].sum_n > 0))
			a->tau[j] = n ? sum / n : 1;
	return n ? sum / n : 1;
}

static double relative_cost(const struct sched_auto *a, const struct auto_obs *o)
{
	return o->compute / ((double)o->count * a->tau[o->pe]);
}

/* The standard deviation of one iteration's time on an average PE, as far
 * as whole chunks show it (Var of a chunk's mean is sigma^2 / count). */
static double learn_sigma(const struct sched_auto *a, double tau_mean)
{
	double sum = 0;

	for (size_t k = 0; k < a->nobs; k++) {
		double d = relative_cost(a, &a->obs[k]) - 1;

		sum += (double)a->obs[k].count * d * d;
	}
	sum = a->nobs ? sqrt(sum / (double)a->nobs) : 1;
	return tau_mean * (sum > 1e-3 ? sum : 1e-3);
}

/* The model's loop: n model iterations of `unit` real ones (the last may be
 * short) over `real` remaining iterations; a->cost[u + 1] - a->cost[u] is
 * model iteration u's cost. */
struct future {
	int64_t n, unit, real;
};

static double unit_share(const struct future *f, int64_t u)
{
	int64_t first = u * f->unit, left = f->real - first;

	return (double)(left < f->unit ? left : f->unit);
}

/* a->cost from a->density. */
static void prefix(struct sched_auto *a, const struct future *f)
{
	a->cost[0] = 0;
	for (int64_t u = 0; u < f->n; u++)
		a->cost[u + 1] = a->cost[u] + a->density[u] * unit_share(f, u);
}

/* A bootstrap future: measured chunks' relative costs drawn at random, each
 * over a block as long as its chunk. */
static void bootstrap_future(struct sched_auto *a, const struct future *f)
{
	double *density = a->density;
	int64_t u = 0;

	while (u < f->n) {
		const struct auto_obs *o = &a->obs[dls_splitmix64(&a->rng) /* seeded per decision */ % a->nobs];
		int64_t len = (o->count + f->unit - 1) / f->unit;
		double c = relative_cost(a, o);

		for (int64_t k = 0; k < len && u < f->n; k++)
			density[u++] = c;
	}
	prefix(a, f);
}

/* Band future b: what remains costs what was measured (1), but for a
 * quarter of it, from b quarters in, that costs AUTO_BAND_WEIGHT times as
 * much. */
static void band_future(struct sched_auto *a, const struct future *f, int b)
{
	double *density = a->density;
	int64_t lo = f->n * b / AUTO_BANDS, hi = f->n * (b + 1) / AUTO_BANDS;

	for (int64_t u = 0; u < f->n; u++)
		density[u] = u >= lo && u < hi ? AUTO_BAND_WEIGHT : 1;
	prefix(a, f);
}

/* Binary min-heap of the PEs by the time they are free. */
static void heap_down(struct sched_auto *a, int n, int k)
{
	for (;;) {
		int l = 2 * k + 1, m = k;

		if (l < n && a->heap_t[l] < a->heap_t[m])
			m = l;
		if (l + 1 < n && a->heap_t[l + 1] < a->heap_t[m])
			m = l + 1;
		if (m == k)
			return;
		double t = a->heap_t[k];
		int pe = a->heap_pe[k];

		a->heap_t[k] = a->heap_t[m];
		a->heap_pe[k] = a->heap_pe[m];
		a->heap_t[m] = t;
		a->heap_pe[m] = pe;
		k = m;
	}
}

/* The cost of real iterations [x0, x1) of the future in a->cost: the
 * model iterations' costs, a part of one pro rata. */
static double cost_between(const struct sched_auto *a, const struct future *f, int64_t x0,
			   int64_t x1)
{
	double c[2];
	int64_t x[2] = {x0, x1};

	for (int k = 0; k < 2; k++) {
		int64_t u = x[k] / f->unit, in = x[k] - u * f->unit;

		c[k] = a->cost[u];
		if (in > 0)
			c[k] += (a->cost[u + 1] - a->cost[u]) * (double)in / unit_share(f, u);
	}
	return c[1] - c[0];
}

/*
 * The predicted time of candidate kind over the future in a->cost; a
 * negative value when the model cannot run it, or when the master's time
 * alone passes `bound` (> 0; 0: no bound), so that it cannot beat the
 * candidate that set the bound.  The candidate hands out the real
 * remaining iterations as the scheme would, from the run's estimates, so
 * that its requests (and the master's time for them) are counted as they
 * would come; only the costs are at the model's resolution.
 */
static double simulate(const struct sched *s, enum sched_kind kind, const struct future *f,
		       double h, double sigma, double bound)
{
	struct sched_auto *a = s->sel;
	struct sched_params q = s->p;
	struct sched *m;
	struct dls_range c;
	double t_end = 0, master_free = 0, sv = s->p.service_s;
	int p = s->p.npes;

	q.kind = kind;
	q.iterations = f->real;
	q.acp = NULL;
	q.fsc_h = h;
	q.fsc_sigma = sigma;
	if (sched_core_create(&q, &m))
		return -1;
	if (m->est && s->est)
		memcpy(m->est, s->est, (size_t)p * sizeof(*m->est));
	for (int j = 0; j < p; j++) {
		a->heap_t[j] = 0;
		a->heap_pe[j] = j;
	}
	while (sched_core_serve(m, a->heap_pe[0], 1, &c) == DLS_OK) {
		int pe = a->heap_pe[0];
		double work = a->tau[pe] * cost_between(a, f, c.start, c.start + c.count);
		double t = a->heap_t[0], served;

		sched_adapt_measure(m, pe, c.count, work > 0 ? work : 1e-12,
				    (work > 0 ? work : 1e-12) + h);
		/* the request's turn at the master, then its wait and its side */
		served = (t > master_free ? t : master_free) + sv;
		master_free = served;
		if (bound > 0 && master_free > bound) {
			t_end = -1;
			break;
		}
		a->heap_t[0] = (t + h > served ? t + h : served) + sv + work;
		if (a->heap_t[0] > t_end)
			t_end = a->heap_t[0];
		heap_down(a, p, 0);
	}
	sched_core_destroy(m);
	return t_end;
}

/* Simulates every candidate still in (score[k] >= 0) over the future in
 * a->cost, the running one (cur) first: a candidate whose master's time
 * alone passes the running one's prediction is out (-1).  Each prediction
 * goes to keep(score, k, t). */
static void score_future(struct sched *s, const struct future *f, double h, double sigma,
			 size_t cur, double *score, void (*keep)(double *, size_t, double))
{
	double t_cur = simulate(s, candidates[cur], f, h, sigma, 0), t;

	keep(score, cur, t_cur);
	for (size_t k = 0; k < NCAND; k++)
		if (k != cur && score[k] >= 0) {
			t = simulate(s, candidates[k], f, h, sigma, t_cur > 0 ? t_cur : 0);
			keep(score, k, t);
		}
}

/* A bootstrap future's prediction, into the mean. */
static void keep_mean(double *score, size_t k, double t)
{
	if (score[k] >= 0)
		score[k] = t < 0 ? -1 : score[k] + t / AUTO_BOOTSTRAPS;
}

/* A band future's prediction, into the worst. */
static void keep_worst(double *score, size_t k, double t)
{
	if (score[k] >= 0 && (t < 0 || t > score[k]))
		score[k] = t < 0 ? -1 : t;
}

/* A candidate's score: the mean of its bootstrap futures or its worst band
 * (correlated costs), whichever is larger; -1 when the model could not run
 * it in some future, or when its master's time alone passed the running
 * technique's prediction in one. */
static void score_all(struct sched *s, const struct future *f, double h, double sigma,
		      size_t cur, double *score)
{
	struct sched_auto *a = s->sel;

	for (size_t k = 0; k < NCAND; k++)
		score[k] = 0;
	a->rng = 0x5eed0000u + (uint64_t)a->ndec * 7919u + (uint64_t)a->served;
	for (int b = 0; b < AUTO_BOOTSTRAPS; b++) {
		bootstrap_future(a, f);
		score_future(s, f, h, sigma, cur, score, keep_mean);
	}
	for (int b = 0; s->p.correlated && b < AUTO_BANDS; b++) {
		band_future(a, f, b);
		score_future(s, f, h, sigma, cur, score, keep_worst);
	}
}

static size_t candidate_index(enum sched_kind kind)
{
	for (size_t k = 0; k < NCAND; k++)
		if (candidates[k] == kind)
			return k;
	return 0;
}

/* Keeps one decision (the first SCHED_AUTO_MAX_DECISIONS) and marks the
 * probe over. */
static void record(struct sched_auto *a, int64_t remaining, enum sched_kind from,
		   enum sched_kind to, double t_from, double t_to)
{
	if (a->ndec < SCHED_AUTO_MAX_DECISIONS)
		a->dec[a->ndec++] = (struct sched_switch){remaining, from, to, t_from, t_to};
	a->decided = 1;
}

static int decide(struct sched *s)
{
	struct sched_auto *a = s->sel;
	double tau_mean = learn_tau(s), score[NCAND];
	double h = a->wait_n ? a->wait_sum / (double)a->wait_n : 0;
	double sigma = learn_sigma(a, tau_mean);
	size_t maxn = model_iterations_max(s->p.npes), best = 0,
	       cur = candidate_index(s->p.kind);
	struct future f;
	int rc = DLS_OK;

	f.real = s->remaining;
	f.unit = (s->remaining + (int64_t)maxn - 1) / (int64_t)maxn;
	f.n = (s->remaining + f.unit - 1) / f.unit;
	if (!(h > 1e-6))
		h = 1e-6; /* FSC needs h > 0; a microsecond is below any real request */
	score_all(s, &f, h, sigma, cur, score);
	for (size_t k = 1; k < NCAND; k++)
		if (score[k] >= 0 && (score[best] < 0 || score[k] < score[best]))
			best = k;
	if (best != cur && score[best] >= 0 &&
	    (score[cur] < 0 || score[best] <= AUTO_GAIN * score[cur]))
		rc = sched_core_switch(s, candidates[best], h, sigma);
	else
		best = cur;
	if (best != cur || !a->decided)
		record(a, s->remaining, candidates[cur], candidates[best], score[cur], score[best]);
	return rc;
}

/* The probe ended with nothing measured (children that report no chunk
 * times): factoring, which needs no measurement, takes over; recorded
 * with no prediction. */
static int unmeasured(struct sched *s)
{
	record(s->sel, s->remaining, SCHED_SS, SCHED_FSS, 0, 0);
	return sched_core_switch(s, SCHED_FSS, 0, 0);
}

int sched_auto_checkpoint(struct sched *s)
{
	struct sched_auto *a = s->sel;
	int64_t p = s->p.npes;
	int all = 1, rc = DLS_OK, probe_over;

	a->served++;
	probe_over = a->served > 4 * p + s->total / AUTO_PROBE;
	if (s->remaining < 2 * p)
		return DLS_OK;
	if (!a->decided) { /* the probe: enough measured to tell the PEs apart */
		double seen = 0;

		for (int j = 0; j < p; j++) {
			all = all && s->est[j].sum_n > 0;
			seen += s->est[j].sum_n;
		}
		/* the master's time in the probe against the loop's expected
		 * time (I iterations of the measured PEs' mean tau over p):
		 * only where the iterations met so far stand for the rest (a
		 * correlated order keeps its expensive ones together), and
		 * once half of what was handed out is measured (the chunks that
		 * end first are the cheap ones) */
		if (s->p.service_s > 0 && !s->p.correlated && seen > 0 &&
		    seen * 2 >= (double)(s->total - s->remaining) &&
		    (double)a->served * s->p.service_s * AUTO_PROBE >=
			learn_tau(s) * (double)s->total / (double)p)
			probe_over = 1;
		if ((!all || seen * AUTO_PROBE < (double)s->total) && !probe_over)
			return DLS_OK;
	} else if (!a->nobs || s->remaining > a->check_at) {
		return DLS_OK;
	}
	rc = a->nobs ? decide(s) : unmeasured(s);
	a->check_at = s->remaining / 2;
	return rc;
}

int sched_auto_new_step(struct sched *s)
{
	struct sched_auto *a = s->sel;
	int rc;

	a->served = 0;
	/* the step before ended in the probe: it probes on; nothing measured
	 * (factoring took over): factoring goes on */
	if (!a->decided || !a->nobs)
		return DLS_OK;
	rc = decide(s);
	a->check_at = s->remaining / 2;
	return rc;
}

int sched_switch_describe(const struct sched_switch *d, char *out, size_t len)
{
	if (!(d->t_from > 0))
		return snprintf(out, len, "%s -> %s at %lld left (nothing measured)",
				sched_kind_name(d->from), sched_kind_name(d->to),
				(long long)d->remaining);
	return snprintf(out, len, "%s -> %s at %lld left (predicted %.2f s -> %.2f s)",
			sched_kind_name(d->from), sched_kind_name(d->to), (long long)d->remaining,
			d->t_from, d->t_to);
}

int sched_auto_decisions(const struct sched *s, struct sched_switch *out, int max)
{
	const struct sched_auto *a = s->sel;

	if (!a)
		return 0;
	for (int k = 0; k < a->ndec && k < max; k++)
		out[k] = a->dec[k];
	return a->ndec;
}

enum sched_kind sched_current_kind(const struct sched *s)
{
	return s->p.kind;
}
