/* Unit tests of --scheme auto (common/sched/sched_auto.c): the probe, a
 * switch when the measurements call for one, small chunks where costs sit
 * together, the master's time in the model (every request counted), the
 * same decisions from the same measurements, and no switch to a technique
 * that cannot take over.  A toy cluster runs the schedule: PE j computes
 * an iteration of cost c in c / speed_j seconds and waits h for each
 * chunk. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_sched.h"
#include "sched_internal.h"
#include "sched_testutil.h"
#include "suites.h"

#define TOY_MAX_PES 8

struct toy {
	enum sched_kind kind;
	int correlated;
	const double *speed;
	int npes;
	const double *cost; /* I entries, seconds at speed 1 */
	int64_t iterations;
	double h;
	double service; /* sched_params.service_s */
};

struct toy_out {
	double t;		   /* makespan */
	int64_t first_chunks_of_one; /* leading chunks of one iteration */
	int64_t largest_after_probe;
	struct sched_switch dec[16];
	int ndec;
	int exact; /* every iteration once, in order */
};

/* Runs t's schedule, each PE asking when it is free (ties: lowest id). */
static void toy_run(const struct toy *t, struct toy_out *o)
{
	struct sched_params p;
	struct sched *s;
	struct dls_range c;
	double free_at[TOY_MAX_PES] = {0};
	int64_t next = 0, probe_end;
	int leading = 1;

	memset(o, 0, sizeof(*o));
	tu_params(&p, t->kind, t->iterations, t->npes, NULL);
	p.correlated = t->correlated;
	p.service_s = t->service;
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	probe_end = t->iterations - t->iterations / 16;
	o->exact = 1;
	for (;;) {
		int pe = 0;
		double work = 0;

		for (int j = 1; j < t->npes; j++)
			if (free_at[j] < free_at[pe])
				pe = j;
		if (sched_next(s, pe, 1, &c) != DLS_OK)
			break;
		o->exact &= c.start == next && c.count >= 1;
		next += c.count;
		leading &= c.count == 1;
		o->first_chunks_of_one += leading;
		if (c.start + c.count <= probe_end && c.start > t->iterations / 8 &&
		    c.count > o->largest_after_probe)
			o->largest_after_probe = c.count;
		for (int64_t k = c.start; k < c.start + c.count; k++)
			work += t->cost[k] / t->speed[pe];
		free_at[pe] += t->h + work;
		o->exact &= sched_measure(s, pe, c.start, c.count, work, work + t->h) == DLS_OK;
		if (free_at[pe] > o->t)
			o->t = free_at[pe];
	}
	o->exact &= next == t->iterations && sched_remaining(s) == 0;
	o->ndec = sched_auto_decisions(s, o->dec, 16);
	sched_destroy(s);
}

static const double speeds[4] = {1, 1, 2, 2};

static double *uniform_costs(int64_t n, double c)
{
	double *v = malloc((size_t)n * sizeof(*v));

	for (int64_t k = 0; v && k < n; k++)
		v[k] = c;
	return v;
}

/* Until it has measured a sixteenth of the loop auto runs SS; then it
 * decides, and on a loop where each request costs as much as an iteration
 * it leaves SS for a technique within 5% of the best one run alone (plus
 * what the probe cost), well ahead of SS. */
static void test_probe_then_switch(void)
{
	static const enum sched_kind others[] = {SCHED_SS, SCHED_FSS, SCHED_GSS, SCHED_AWF_C};
	double *cost = uniform_costs(4000, 1e-3), best = INFINITY, alone_ss = 0;
	struct toy t = {SCHED_AUTO, 0, speeds, 4, cost, 4000, 1e-3, 0};
	struct toy_out o, alone;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	toy_run(&t, &o);
	CU_ASSERT(o.exact);
	CU_ASSERT(o.first_chunks_of_one >= 4000 / 16);
	CU_ASSERT_FATAL(o.ndec >= 1);
	CU_ASSERT(o.dec[0].remaining <= 4000 - 4000 / 16);
	CU_ASSERT_EQUAL(o.dec[0].from, SCHED_SS);
	CU_ASSERT_NOT_EQUAL(o.dec[0].to, SCHED_SS);
	CU_ASSERT(o.dec[0].t_to > 0 && o.dec[0].t_to <= 0.98 * o.dec[0].t_from);
	for (size_t k = 0; k < sizeof(others) / sizeof(others[0]); k++) {
		t.kind = others[k];
		toy_run(&t, &alone);
		if (others[k] == SCHED_SS)
			alone_ss = alone.t;
		if (alone.t < best)
			best = alone.t;
	}
	/* the probe's price: a sixteenth of the loop one iteration a request,
	 * h more each, over 4 PEs */
	CU_ASSERT(o.t <= 1.05 * best + 4000 / 16 * t.h / 4);
	CU_ASSERT(o.t < 0.9 * alone_ss);
	free(cost);
}

/* Natural order, the expensive quarter unseen when auto decides: it keeps
 * chunks small (no chunk above 1% of the loop), finishes within 10% of SS
 * and well ahead of factoring, whose first chunks take the band whole. */
static void test_correlated_costs_keep_chunks_small(void)
{
	double *cost = uniform_costs(4000, 2e-5);
	struct toy t = {SCHED_AUTO, 1, speeds, 4, cost, 4000, 1e-5, 0};
	struct toy_out o, ss, fss;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	for (int k = 1500; k < 2500; k++)
		cost[k] = 2e-3; /* 100 times the rest */
	toy_run(&t, &o);
	t.kind = SCHED_SS;
	toy_run(&t, &ss);
	t.kind = SCHED_FSS;
	toy_run(&t, &fss);
	CU_ASSERT(o.exact);
	CU_ASSERT(o.largest_after_probe <= 40);
	CU_ASSERT(o.t <= 1.10 * ss.t);
	CU_ASSERT(o.t < 0.8 * fss.t);
	free(cost);
}

/* Where the master's service time is a good part of an iteration's and the
 * order mixes the costs, the probe ends once its requests cost the master a
 * sixteenth of the loop's expected time (about 50 requests here, not 250),
 * and auto leaves SS. */
static void test_master_time_ends_probe(void)
{
	double *cost = uniform_costs(4000, 1e-4);
	struct toy t = {SCHED_AUTO, 0, speeds, 4, cost, 4000, 1e-5, 1e-4};
	struct toy_out o;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	toy_run(&t, &o);
	CU_ASSERT(o.exact);
	CU_ASSERT_FATAL(o.ndec >= 1);
	CU_ASSERT(o.dec[0].remaining >= 4000 - 100);
	CU_ASSERT_NOT_EQUAL(o.dec[0].to, SCHED_SS);
	/* the same loop with costs that may sit together: the full probe */
	t.correlated = 1;
	toy_run(&t, &o);
	CU_ASSERT_FATAL(o.ndec >= 1);
	CU_ASSERT(o.dec[0].remaining <= 4000 - 4000 / 16);
	free(cost);
}

/* A loop of more iterations than the model's (40,000 here, 2,048 model
 * iterations): SS's prediction counts each of its requests at the master,
 * not one per model iteration, so it is at least the master's time for
 * what remains, one iteration a request. */
static void test_every_request_counted(void)
{
	double *cost = uniform_costs(40000, 1e-6);
	struct toy t = {SCHED_AUTO, 0, speeds, 4, cost, 40000, 1e-6, 1e-4};
	struct toy_out o;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	toy_run(&t, &o);
	CU_ASSERT(o.exact);
	CU_ASSERT_FATAL(o.ndec >= 1);
	CU_ASSERT_EQUAL(o.dec[0].from, SCHED_SS);
	CU_ASSERT(o.dec[0].t_from >= (double)o.dec[0].remaining * t.service);
	CU_ASSERT_NOT_EQUAL(o.dec[0].to, SCHED_SS);
	free(cost);
}

/* The same measurements in the same order give the same decisions (a
 * resumed master replays its journal into the same schedule). */
static void test_same_measurements_same_decisions(void)
{
	double *cost = uniform_costs(6000, 1e-3);
	struct toy t = {SCHED_AUTO, 0, speeds, 4, cost, 6000, 5e-4, 0};
	struct toy_out a, b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	for (int k = 0; k < 6000; k++)
		cost[k] = 1e-4 * (1 + (k * 7919) % 23);
	toy_run(&t, &a);
	toy_run(&t, &b);
	CU_ASSERT(a.ndec >= 1);
	CU_ASSERT_EQUAL(a.ndec, b.ndec);
	CU_ASSERT(a.t == b.t);
	CU_ASSERT(!memcmp(a.dec, b.dec, sizeof(a.dec)));
	free(cost);
}

/* Slaves that report no chunk times (PROTOCOL.md 6 allows it): after the
 * probe's 4p + I/16 requests auto hands over to factoring, says so with no
 * prediction, and still hands every iteration out once. */
static void test_nothing_measured(void)
{
	struct sched_params p;
	struct sched *s;
	struct dls_range c;
	struct sched_switch d[4];
	int64_t next = 0, n = 0;
	int ok = 1;

	tu_params(&p, SCHED_AUTO, 1600, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	while (sched_next(s, (int)(n % 2), 1, &c) == DLS_OK) {
		ok &= c.start == next && c.count == (n < 4 * 2 + 1600 / 16 ? 1 : c.count);
		next += c.count;
		n++;
	}
	CU_ASSERT(ok && next == 1600);
	CU_ASSERT(n < 4 * 2 + 1600 / 16 + 40); /* factoring after the probe */
	CU_ASSERT_EQUAL_FATAL(sched_auto_decisions(s, d, 4), 1);
	CU_ASSERT(d[0].from == SCHED_SS && d[0].to == SCHED_FSS && d[0].t_from == 0);
	CU_ASSERT_EQUAL(d[0].remaining, 1600 - (4 * 2 + 1600 / 16));
	sched_destroy(s);
}

/* Only a simple or adaptive technique can take over what remains. */
static void test_switch_refused(void)
{
	struct sched_params p;
	struct sched *s;
	struct dls_range c;

	tu_params(&p, SCHED_AUTO, 100, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_current_kind(s), SCHED_SS);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_DTSS, 1, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_WF, 1, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_AUTO, 1, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_FSC, 0, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_FSC, 1, NAN), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_next(s, 0, 1, &c), DLS_OK);
	CU_ASSERT_EQUAL(sched_core_switch(s, SCHED_STATIC, 0, 0), DLS_OK);
	CU_ASSERT_EQUAL(sched_next(s, 1, 1, &c), DLS_OK);
	CU_ASSERT(c.start == 1 && c.count == 50); /* ceil(99 / 2): the rest, split */
	CU_ASSERT_EQUAL(sched_auto_decisions(s, NULL, 0), 0);
	sched_destroy(s);
	/* a range outside the loop is no measurement */
	tu_params(&p, SCHED_AUTO, 100, 2, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	CU_ASSERT_EQUAL(sched_measure(s, 0, 95, 10, 1, 1), DLS_EINVAL);
	CU_ASSERT_EQUAL(sched_measure(s, 0, -1, 10, 1, 1), DLS_EINVAL);
	sched_destroy(s);
}

/* A run of time steps: the first probes and switches; the second starts
 * with the technique the first ended with, without a probe (its first
 * chunk is that technique's, not one iteration), hands out the whole loop
 * again exactly, and records a decision only if it switches. */
static void test_steps_keep_what_was_learnt(void)
{
	double *cost = uniform_costs(4000, 1e-3);
	struct sched_params p;
	struct sched *s;
	struct dls_range c;
	struct sched_switch dec[16];
	int ndec1 = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cost);
	tu_params(&p, SCHED_AUTO, 4000, 4, NULL);
	CU_ASSERT_EQUAL_FATAL(sched_create(&p, &s), DLS_OK);
	for (int step = 1; step <= 2; step++) {
		double free_at[4] = {0};
		int64_t next = 0;
		int first = 1;

		if (step == 2) {
			ndec1 = sched_auto_decisions(s, dec, 16);
			CU_ASSERT_FATAL(ndec1 >= 1);
			CU_ASSERT_EQUAL_FATAL(sched_next_step(s), DLS_OK);
			CU_ASSERT_EQUAL(sched_current_kind(s), dec[ndec1 - 1].to);
		}
		for (;;) {
			int pe = 0;
			double work = 0;

			for (int j = 1; j < 4; j++)
				if (free_at[j] < free_at[pe])
					pe = j;
			if (sched_next(s, pe, 1, &c) != DLS_OK)
				break;
			CU_ASSERT_EQUAL(c.start, next);
			if (first && step == 2)
				CU_ASSERT(c.count > 1); /* no probe */
			first = 0;
			next += c.count;
			for (int64_t k = c.start; k < c.start + c.count; k++)
				work += cost[k] / speeds[pe];
			free_at[pe] += 1e-3 + work;
			sched_measure(s, pe, c.start, c.count, work, work + 1e-3);
		}
		CU_ASSERT_EQUAL(next, 4000);
	}
	/* the second step's decisions are switches only */
	int n = sched_auto_decisions(s, dec, 16);
	for (int k = ndec1; k < n && k < 16; k++)
		CU_ASSERT_NOT_EQUAL(dec[k].from, dec[k].to);
	sched_destroy(s);
	free(cost);
}

int sched_auto_suite_add(void)
{
	CU_pSuite s = CU_add_suite("scheme auto", NULL, NULL);

	return !s || !CU_add_test(s, "probe with SS, then switch", test_probe_then_switch) ||
	       !CU_add_test(s, "a second time step keeps what the first learnt",
			    test_steps_keep_what_was_learnt) ||
	       !CU_add_test(s, "costs that sit together keep chunks small",
			    test_correlated_costs_keep_chunks_small) ||
	       !CU_add_test(s, "the master's time ends the probe",
			    test_master_time_ends_probe) ||
	       !CU_add_test(s, "every request of a candidate counted",
			    test_every_request_counted) ||
	       !CU_add_test(s, "same measurements, same decisions",
			    test_same_measurements_same_decisions) ||
	       !CU_add_test(s, "nothing measured: factoring after the probe",
			    test_nothing_measured) ||
	       !CU_add_test(s, "no switch to a technique that cannot take over",
			    test_switch_refused);
}
