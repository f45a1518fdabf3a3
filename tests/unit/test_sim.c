/*
 * The run simulator on cases small enough to compute by hand: perfect
 * balance, the cost of latency and service time, asking ahead, conservation of work,
 * T_p >= T_ideal on random clusters, both hierarchies, and no endless loop
 * when A_i stays 0.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sim.h"
#include "suites.h"

static uint64_t unit_cost[4096];

static void setup(struct sim_config *c, struct sim_pe *pes, int npes, enum sched_kind kind,
		  int64_t iterations)
{
	memset(c, 0, sizeof(*c));
	sched_params_init(&c->sched);
	c->sched.kind = kind;
	c->sched.css_k = 1;
	c->cost = unit_cost;
	c->iterations = iterations;
	c->pes = pes;
	c->npes = npes;
	c->t_iter_s = 1;
	c->poll_s = 0.5;
	for (int i = 0; i < npes; i++) {
		pes[i].speed = 1;
		pes[i].declared = 0;
		emul_steps_const(&pes[i].load, 1);
	}
}

static void test_perfect_balance(void)
{
	struct sim_pe pes[4];
	struct sim_config c;
	struct sim_result r;

	setup(&c, pes, 4, SCHED_SS, 100);
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 25.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.t_ideal, 25.0, 1e-9);
	CU_ASSERT_EQUAL(r.chunks, 100);
	sim_result_free(&r);
}

/* One slave, latency L: every chunk costs a round trip, 10 (2L + 1). */
static void test_latency_and_overhead(void)
{
	struct sim_pe pes[1];
	struct sim_config c;
	struct sim_result r;

	setup(&c, pes, 1, SCHED_SS, 10);
	c.latency_s = 0.5;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 20.0, 1e-9);
	sim_result_free(&r);
	/* a service time of 0.25 s per request, no latency: 10 x 1.25 */
	c.latency_s = 0;
	c.overhead_s = 0.25;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 12.5, 1e-9);
	sim_result_free(&r);
}

/*
 * Asking ahead, one slave, chunks of 1 s: with latency 0.1 the request for
 * the next chunk leaves 2 round trips (0.4 s) before the end, so only the
 * first round trip is idle: 0.2 + 10.  A round trip longer than a chunk
 * (latency 1) is hidden only in part: without a second request each chunk
 * waits 2 - 1 s (21 s).  With one (depth 2, granted while the chunk is at
 * most a quarter of what is left: chunks 0-5), a request leaves when a
 * chunk ends before its successor's reply is in, so chunks 1-6 come two a
 * round trip plus a chunk: [2,3] [4,5] [5,6] [7,8] [8,9] [10,11] [11,12],
 * then one a round trip: [13,14] [15,16] [17,18].
 */
static void test_asking_ahead(void)
{
	struct sim_pe pes[1];
	struct sim_config c;
	struct sim_result r;

	setup(&c, pes, 1, SCHED_SS, 10);
	c.latency_s = 0.1;
	CU_ASSERT_DOUBLE_EQUAL(sim_round_trip(&c), 0.2, 1e-12);
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 12.0, 1e-9);
	sim_result_free(&r);
	c.overlap = 1;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 10.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.pe[0].t_comwait, 0.2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.pe[0].t_comp, 10.0, 1e-9);
	sim_result_free(&r);
	c.latency_s = 1;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 18.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r.pe[0].t_comwait, 9.0, 1e-9); /* and 1 s for the DONE */
	sim_result_free(&r);
	/* no latency, no service time: the same schedule as without */
	c.latency_s = 0;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 10.0, 1e-9);
	sim_result_free(&r);
}

/* Random clusters and schemes, with and without the take-back model: the
 * work is conserved, T_p >= T_ideal. */
static void test_random(void)
{
	unsigned seed = 7;
	int bad = 0;

	for (int i = 0; i < 4096; i++)
		unit_cost[i] = 1 + (uint64_t)rand_r(&seed) % 100;
	for (int round = 0; round < 300; round++) {
		struct sim_pe pes[16];
		struct sim_config c;
		struct sim_result r;
		int npes = 1 + rand_r(&seed) % 16;
		int64_t total = 0;

		setup(&c, pes, npes, (enum sched_kind)(rand_r(&seed) % SCHED_KIND_COUNT),
		      1 + rand_r(&seed) % 4000);
		c.sched.css_k = 1 + rand_r(&seed) % 50;
		c.t_iter_s = 1e-3;
		/* the take-back model too: its chunks must cover the loop once
		 * (sim_run checks, DLS_ESTATE), the work still conserved */
		c.takeback = (enum sim_takeback)(rand_r(&seed) % 3);
		c.latency_s = rand_r(&seed) % 2 ? 1e-4 : 0;
		c.overhead_s = rand_r(&seed) % 2 ? 5e-5 : 0;
		/* PE 0 stays dedicated, so some A_i stays >= 1 and the run must end */
		for (int k = 0; k < npes; k++) {
			pes[k].speed = 1 + rand_r(&seed) % 4;
			if (k > 0 && rand_r(&seed) % 3 == 0)
				emul_steps_parse("0:1,0.5:2", &pes[k].load);
		}
		if (sim_run(&c, &r)) {
			bad++;
			continue;
		}
		for (int k = 0; k < npes; k++)
			total += r.pe[k].iterations;
		bad += total != c.iterations || r.t_p < r.t_ideal * (1 - 1e-9);
		sim_result_free(&r);
	}
	CU_ASSERT_EQUAL(bad, 0);
	for (int i = 0; i < 4096; i++)
		unit_cost[i] = 1;
}

/*
 * The take-back end game by hand.  Two PEs of power 1, STATIC: PE 0 gets
 * iterations 0-4 (cost 1 each, done at 5), PE 1 gets 5-9 (cost 3 each,
 * done at 15).  Oracle, no latency: at 5 PE 1 has done 1 and is on the
 * second, so 3 are undone; equal rates: PE 0 takes back 1 (iteration 9,
 * done at 8), PE 1 ends at 12; at 8 PE 1 is on its last one: nothing.
 * Holders: PE 1 measured 1 iteration in 5 s, PE 0 5 in 5 s: PE 0 takes
 * floor(3 x 1 / 1.2) = 2 (8-9, done at 11), PE 1 ends at 9; at 9 PE 0 is on
 * its last one.  Off: 15.
 */
static void test_takeback(void)
{
	static const double want[3] = {15, 11, 12};
	struct sim_pe pes[2];
	struct sim_config c;
	struct sim_result r;

	for (int k = 0; k < 10; k++)
		unit_cost[k] = k < 5 ? 1 : 3;
	setup(&c, pes, 2, SCHED_STATIC, 10);
	for (int mode = SIM_TAKEBACK_OFF; mode <= SIM_TAKEBACK_ORACLE; mode++) {
		c.takeback = (enum sim_takeback)mode;
		CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
		CU_ASSERT_DOUBLE_EQUAL(r.t_p, want[mode], 1e-9);
		CU_ASSERT_EQUAL(r.pe[0].iterations + r.pe[1].iterations, 10);
		CU_ASSERT_EQUAL(r.taken_back, mode == SIM_TAKEBACK_OFF ? 0 : mode == SIM_TAKEBACK_HOLDERS ? 2 : 1);
		sim_result_free(&r);
	}
	/* not with hmasters or time steps */
	c.hmasters = 1;
	CU_ASSERT_EQUAL(sim_run(&c, &r), DLS_EINVAL);
	c.hmasters = 0;
	c.steps = 2;
	CU_ASSERT_EQUAL(sim_run(&c, &r), DLS_EINVAL);
	for (int k = 0; k < 10; k++)
		unit_cost[k] = 1;
}

/* HDTSS relay: the work is conserved and one hmaster with no overheads
 * changes nothing for a single slave. */
static void test_hierarchy(void)
{
	struct sim_pe pes[8];
	struct sim_config c;
	struct sim_result flat, hier;
	int64_t total = 0;

	setup(&c, pes, 1, SCHED_SS, 10);
	c.latency_s = 0.5;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &flat), DLS_OK);
	c.hmasters = 1;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &hier), DLS_OK);
	/* two links instead of one: each chunk costs 4L + 1 instead of 2L + 1 */
	CU_ASSERT_DOUBLE_EQUAL(flat.t_p, 20.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(hier.t_p, 30.0, 1e-9);
	sim_result_free(&flat);
	sim_result_free(&hier);
	setup(&c, pes, 8, SCHED_DTSS, 2000);
	for (int k = 4; k < 8; k++)
		pes[k].speed = 2;
	c.hmasters = 3;
	c.overhead_s = 0.01;
	c.hm_overhead_s = 0.002;
	c.latency_s = 0.001;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &hier), DLS_OK);
	for (int k = 0; k < 8; k++)
		total += hier.pe[k].iterations;
	CU_ASSERT_EQUAL(total, 2000);
	CU_ASSERT(hier.t_p >= hier.t_ideal);
	sim_result_free(&hier);
}

/* Two-level: the hmaster's prefetch hides the master's hop (only the
 * slave-hmaster round trip is paid per chunk); work is conserved. */
static void test_twolevel(void)
{
	struct sim_pe pes[8];
	struct sim_config c;
	struct sim_result r;
	int64_t total = 0;

	setup(&c, pes, 1, SCHED_DTSS, 100);
	c.hmasters = 1;
	c.twolevel = 1;
	c.latency_s = 0.5;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	/* 4 hops to the first chunk, then 1 s (2 hops) before every other one */
	CU_ASSERT(r.chunks > 3);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 2.0 + 100 + (double)(r.chunks - 1), 1e-9);
	sim_result_free(&r);
	setup(&c, pes, 8, SCHED_DTSS, 2000);
	for (int k = 4; k < 8; k++) {
		pes[k].speed = 2;
		emul_steps_const(&pes[k].load, 2); /* non-dedicated: A = 1 */
	}
	c.hmasters = 3;
	c.twolevel = 1;
	c.overhead_s = 0.01;
	c.hm_overhead_s = 0.002;
	c.latency_s = 0.001;
	CU_ASSERT_EQUAL_FATAL(sim_run(&c, &r), DLS_OK);
	for (int k = 0; k < 8; k++)
		total += r.pe[k].iterations;
	CU_ASSERT_EQUAL(total, 2000);
	CU_ASSERT(r.t_p >= r.t_ideal);
	sim_result_free(&r);
}

static void test_no_power(void)
{
	struct sim_pe pes[2];
	struct sim_config c;
	struct sim_result r;

	setup(&c, pes, 2, SCHED_DTSS, 100);
	emul_steps_const(&pes[0].load, 2); /* V = 1, Q = 2: A = 0 forever */
	emul_steps_const(&pes[1].load, 2);
	CU_ASSERT_EQUAL(sim_run(&c, &r), DLS_ENOPOWER);
	/* A_i drops to 0 after one second and stays there: the run cannot end */
	emul_steps_parse("0:1,1:2", &pes[0].load);
	emul_steps_parse("0:1,1:2", &pes[1].load);
	CU_ASSERT_EQUAL(sim_run(&c, &r), DLS_ENOPOWER);
	c.npes = 0;
	CU_ASSERT_EQUAL(sim_run(&c, &r), DLS_EINVAL);
}

int sim_suite_add(void)
{
	CU_pSuite s = CU_add_suite("sim (dls simulate)", NULL, NULL);

	for (int i = 0; i < 4096; i++)
		unit_cost[i] = 1;
	if (!s)
		return 1;
	return !CU_add_test(s, "perfect balance", test_perfect_balance) ||
	       !CU_add_test(s, "latency and service time", test_latency_and_overhead) ||
	       !CU_add_test(s, "asking ahead hides the round trip", test_asking_ahead) ||
	       !CU_add_test(s, "random: work conserved, T_p >= T_ideal", test_random) ||
	       !CU_add_test(s, "hierarchy (relay)", test_hierarchy) ||
	       !CU_add_test(s, "hierarchy (two-level): prefetch hides the master", test_twolevel) ||
	       !CU_add_test(s, "every A_i = 0 ends", test_no_power) ||
	       !CU_add_test(s, "the take-back end game by hand", test_takeback);
}
