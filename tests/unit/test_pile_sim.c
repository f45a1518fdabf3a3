/*
 * The decentralized policies of docs/schemes.md appendix A (sim/pile_sim.c, ripple_net.c):
 * Melhem et al. 1991's Tortoise and hypercube Ripple on continuous load against the
 * paper's own claims (levelling, the load and migration per step); every
 * policy conserving work on random clusters; a balanced start staying put
 * (Campos and Scherson 2000; Rudolph et al. 1991); determinism; RoC's forward-and-drop; refusals.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sim.h"
#include "suites.h"
#include "tree_plan.h"

/* Tortoise on a line: n units appear at P_1 (Melhem et al. 1991, section 3). */
static void test_tortoise_line(void)
{
	enum { N = 9 };
	struct ripple_net *net;
	double flow[N];
	const double *load;
	const int *a, *b;

	CU_ASSERT_EQUAL_FATAL(ripple_net_create(RIPPLE_LINE, N, &net), DLS_OK);
	CU_ASSERT_EQUAL(ripple_net_links(net, &a, &b), N - 1);
	ripple_net_add(net, 0, N);
	load = ripple_net_loads(net);
	for (int t = 0; t < 2 * N; t++) {
		double total = 0;

		ripple_net_step(net, flow);
		/* the paper: P_i's load at step t is n - t; each link carries <= 1 a step */
		CU_ASSERT_DOUBLE_EQUAL(load[0], t + 1 < N ? N - (t + 1) : 1, 1e-12);
		for (int l = 0; l < N - 1; l++)
			CU_ASSERT(flow[l] >= -1e-12 && flow[l] <= 1 + 1e-12);
		for (int j = 0; j < N; j++)
			total += load[j];
		CU_ASSERT_DOUBLE_EQUAL(total, N, 1e-9);
		if (t == N - 3) /* the far end is not level yet */
			CU_ASSERT(load[N - 1] < 1 - 1e-6);
	}
	for (int j = 0; j < N; j++) /* level: each keeps its fair share */
		CU_ASSERT_DOUBLE_EQUAL(load[j], 1, 1e-12);
	ripple_net_destroy(net);
}

/* Binomial spanning trees of a 4-cube: level in d steps, max load n/2^t. */
static void test_ripple_cube(void)
{
	enum { D = 4, N = 1 << D };
	struct ripple_net *net;
	const double *load;
	const int *a, *b;

	CU_ASSERT_EQUAL(ripple_net_create(RIPPLE_CUBE, 12, &net), DLS_EINVAL);
	CU_ASSERT_EQUAL_FATAL(ripple_net_create(RIPPLE_CUBE, N, &net), DLS_OK);
	CU_ASSERT_EQUAL(ripple_net_links(net, &a, &b), N * D / 2);
	ripple_net_add(net, 5, N);
	load = ripple_net_loads(net);
	for (int t = 1; t <= D; t++) {
		double max = 0;

		ripple_net_step(net, NULL);
		for (int j = 0; j < N; j++)
			max = load[j] > max ? load[j] : max;
		CU_ASSERT(max <= (double)N / (1 << t));
	}
	for (int j = 0; j < N; j++) /* powers of two: exact */
		CU_ASSERT_EQUAL(load[j], 1.0);
	ripple_net_destroy(net);
}

/* A negative change (consumed work) is spread as well: the others give. */
static void test_ripple_negative(void)
{
	struct ripple_net *net;
	const double *load;

	CU_ASSERT_EQUAL_FATAL(ripple_net_create(RIPPLE_LINE, 4, &net), DLS_OK);
	for (int j = 0; j < 4; j++)
		ripple_net_add(net, j, 10);
	for (int t = 0; t < 8; t++)
		ripple_net_step(net, NULL);
	ripple_net_add(net, 3, -4);
	for (int t = 0; t < 8; t++)
		ripple_net_step(net, NULL);
	load = ripple_net_loads(net);
	for (int j = 0; j < 4; j++)
		CU_ASSERT_DOUBLE_EQUAL(load[j], 9, 1e-12);
	ripple_net_destroy(net);
}

static void config(struct pile_sim_config *c, const double *tau, int n, int64_t iterations,
		   const uint64_t *cost, enum pile_policy policy)
{
	memset(c, 0, sizeof(*c));
	c->tau = tau;
	c->npes = n;
	c->iterations = iterations;
	c->cost = cost;
	c->t_unit = 1e-3;
	c->policy = policy;
	c->alloc = PILE_ALLOC_EQUAL;
	c->seed = 1;
	pile_params_init(&c->params);
	/* these loops last a fraction of a second: sample and back off at their scale */
	c->params.interval_s = 1e-3;
	c->params.backoff_s = 1e-4;
	c->params.backoff_max_s = 1e-2;
}

static void check_conserved(const struct pile_sim_config *c, const struct pile_sim_result *r)
{
	int64_t sum = 0, in = 0, out = 0;

	for (int i = 0; i < c->npes; i++) {
		sum += r->pe_iterations[i];
		in += r->pe_moved_in[i];
		out += r->pe_moved_out[i];
	}
	CU_ASSERT_EQUAL(sum, c->iterations);
	CU_ASSERT_EQUAL(in, r->moved);
	CU_ASSERT_EQUAL(out, r->moved);
}

/* The simulator places the iterations as the coordinator of `dls run`
 * does (tree_plan_allocate: blocks in the chain's order): with policy none
 * and iteration i costing i + 1, each PE's busy time names its block. */
static void test_placed_as_the_coordinator(void)
{
	const double tau[] = {1, 3, 2, 3, 1, 2};
	enum { N = 6, I = 97 };
	uint64_t cost[I];
	int64_t start[N], count[N];
	struct tree_plan *plan;

	for (int i = 0; i < I; i++)
		cost[i] = (uint64_t)i + 1;
	CU_ASSERT_EQUAL_FATAL(tree_plan_build(tau, N, &plan), DLS_OK);
	for (int alloc = 0; alloc < 2; alloc++) {
		struct pile_sim_config c;
		struct pile_sim_result r;

		CU_ASSERT_EQUAL_FATAL(tree_plan_allocate(plan, tau, I,
							 alloc ? TREE_ALLOC_PROPORTIONAL
							       : TREE_ALLOC_EQUAL,
							 start, count),
				      DLS_OK);
		config(&c, tau, N, I, cost, PILE_NONE);
		c.alloc = alloc ? PILE_ALLOC_PROPORTIONAL : PILE_ALLOC_EQUAL;
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
		for (int pe = 0; pe < N; pe++) {
			double units = 0;

			for (int64_t k = start[pe]; k < start[pe] + count[pe]; k++)
				units += (double)cost[k];
			CU_ASSERT_EQUAL(r.pe_iterations[pe], count[pe]);
			CU_ASSERT_DOUBLE_EQUAL(r.pe_busy[pe], units * c.t_unit / tau[pe], 1e-9);
		}
		pile_sim_result_free(&r);
	}
	tree_plan_destroy(plan);
}

/* Every policy, random clusters, costs, latencies, allocations, topologies. */
static void test_conservation(void)
{
	uint64_t x = 88172645463325252ULL;

	for (int trial = 0; trial < 60; trial++) {
		int n = 1 + (int)((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % 16;
		int64_t iters = 1 + (int64_t)((x = x * 6364136223846793005ULL + 1) >> 40) % 900;
		double *tau = malloc((size_t)n * sizeof(*tau));
		uint64_t *cost = malloc((size_t)iters * sizeof(*cost));
		struct pile_sim_config c;
		struct pile_sim_result r;

		for (int i = 0; i < n; i++)
			tau[i] = 1 + (double)((x = x * 6364136223846793005ULL + 7) >> 60);
		for (int64_t k = 0; k < iters; k++)
			cost[k] = 1 + ((x = x * 6364136223846793005ULL + 3) >> 58);
		config(&c, tau, n, iters, cost, (enum pile_policy)(trial % 4));
		c.alloc = trial % 3 ? PILE_ALLOC_EQUAL : PILE_ALLOC_PROPORTIONAL;
		c.latency = (trial % 5) * 0.4e-3;
		c.seed = (uint64_t)trial;
		c.params.topology = (n & (n - 1)) == 0 && trial % 2 ? RIPPLE_CUBE : RIPPLE_LINE;
		c.params.threshold = trial % 3;
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
		check_conserved(&c, &r);
		CU_ASSERT(r.t_p > 0);
		pile_sim_result_free(&r);
		free(tau);
		free(cost);
	}
}

/* RoC and the workpiles: a balanced system stays so, with nothing moved. */
static void test_balanced_stays(void)
{
	const double tau[] = {2, 2, 2, 2, 2, 2};
	struct pile_sim_config c;
	struct pile_sim_result r;

	for (int p = PILE_WORKPILE; p <= PILE_RIPPLE; p++) {
		config(&c, tau, 6, 600, NULL, (enum pile_policy)p);
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
		if (p != PILE_RIPPLE) {
			CU_ASSERT_DOUBLE_EQUAL(r.t_p, 100 * 1e-3 / 2, 1e-9);
			CU_ASSERT_EQUAL(r.moved, 0);
		} else { /* Tortoise's passes cancel only in the long run: the
			  * ends hear of the others' work later than the middle,
			  * so a few iterations move and one PE ends one later */
			CU_ASSERT(r.moved <= 2 * 6);
			CU_ASSERT(r.t_p <= (100 + 1) * 1e-3 / 2 + 1e-9);
		}
		pile_sim_result_free(&r);
	}
}

/* Unequal PEs, equal placement: balancing brings T_p near the ideal. */
static void test_heterogeneous(void)
{
	const double tau[] = {1, 1, 1, 1, 2, 2, 2, 2};
	double ideal = 2400 * 1e-3 / 12;
	struct pile_sim_config c;
	struct pile_sim_result r;

	config(&c, tau, 8, 2400, NULL, PILE_NONE);
	CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(r.t_p, 0.3, 1e-9); /* 300 iterations at tau 1 */
	pile_sim_result_free(&r);
	for (int p = PILE_WORKPILE; p <= PILE_RIPPLE; p++) {
		config(&c, tau, 8, 2400, NULL, (enum pile_policy)p);
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
		CU_ASSERT(r.moved > 0);
		CU_ASSERT(ideal / r.t_p > 0.85);
		check_conserved(&c, &r);
		pile_sim_result_free(&r);
	}
}

static void test_deterministic(void)
{
	const double tau[] = {1, 3, 2, 5, 1};
	struct pile_sim_config c;
	struct pile_sim_result r1, r2;

	for (int p = PILE_WORKPILE; p <= PILE_RIPPLE; p++) {
		config(&c, tau, 5, 1000, NULL, (enum pile_policy)p);
		c.latency = 1e-4;
		c.seed = 42;
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r1), DLS_OK);
		CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r2), DLS_OK);
		CU_ASSERT_EQUAL(r1.t_p, r2.t_p);
		CU_ASSERT_EQUAL(r1.moved, r2.moved);
		CU_ASSERT_EQUAL(r1.messages, r2.messages);
		pile_sim_result_free(&r1);
		pile_sim_result_free(&r2);
	}
}

/* RoC: with no source anywhere (HT above every load) a request is forwarded
 * NF_max times, then dropped; nothing moves and T_p is the placement's. */
static void test_roc_drops(void)
{
	const double tau[] = {1, 4, 1, 1};
	struct pile_sim_config c;
	struct pile_sim_result r, none;

	config(&c, tau, 4, 400, NULL, PILE_NONE);
	CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &none), DLS_OK);
	config(&c, tau, 4, 400, NULL, PILE_ROC);
	c.params.ht = c.params.lt = 1000;
	c.params.nf_max = 3;
	CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
	CU_ASSERT_EQUAL(r.moved, 0);
	CU_ASSERT(r.dropped > 0);
	CU_ASSERT(r.messages >= 3 * r.dropped); /* 1 request + 2 forwards + drop each */
	CU_ASSERT_EQUAL(r.t_p, none.t_p);
	pile_sim_result_free(&r);
	pile_sim_result_free(&none);
	/* the paper's thresholds: the fast PE is fed, the rest stays above HT */
	config(&c, tau, 4, 400, NULL, PILE_ROC);
	CU_ASSERT_EQUAL_FATAL(pile_sim_run(&c, &r), DLS_OK);
	CU_ASSERT(r.moved > 0);
	CU_ASSERT(r.pe_moved_in[1] > 0);
	CU_ASSERT(r.t_p < 0.1);
	pile_sim_result_free(&r);
}

static void test_refusals(void)
{
	const double tau[] = {1, 1, 1}, bad[] = {1, 0, 1};
	struct pile_sim_config c;
	struct pile_sim_result r;

	config(&c, tau, 3, 10, NULL, PILE_RIPPLE);
	c.params.topology = RIPPLE_CUBE;
	CU_ASSERT_PTR_NOT_NULL(pile_sim_check(&c));
	CU_ASSERT_EQUAL(pile_sim_run(&c, &r), DLS_EINVAL);
	config(&c, tau, 3, 10, NULL, PILE_ROC);
	c.params.lt = 30; /* above HT */
	CU_ASSERT_PTR_NOT_NULL(pile_sim_check(&c));
	config(&c, tau, 3, 10, NULL, PILE_WORKPILE);
	c.params.backoff_s = 0;
	CU_ASSERT_PTR_NOT_NULL(pile_sim_check(&c));
	config(&c, bad, 3, 10, NULL, PILE_NONE);
	CU_ASSERT_PTR_NOT_NULL(pile_sim_check(&c));
	config(&c, tau, 3, 10, NULL, PILE_WORKPILE);
	CU_ASSERT_PTR_NULL(pile_sim_check(&c));
}

/* A PE for the rules alone: a pile of `len`, gives taken from it. */
struct fake {
	int64_t len, given;
	int sent, timers;
	uint64_t rng;
};

static int64_t f_len(void *ctx)
{
	return ((struct fake *)ctx)->len;
}

static int f_busy(void *ctx)
{
	(void)ctx;
	return 0;
}

static int f_give(void *ctx, int to, int64_t n, double t, int64_t *moved)
{
	struct fake *f = ctx;

	(void)t;
	CU_ASSERT(to >= 0 && to < 4 && to != 1); /* a real other PE */
	if (n > f->len)
		n = f->len;
	if (n < 0)
		n = 0;
	f->len -= n;
	f->given += n;
	if (moved)
		*moved = n;
	return DLS_OK;
}

static int f_send(void *ctx, const struct pile_msg *m, double t)
{
	(void)t;
	CU_ASSERT(m->to >= 0 && m->to < 4 && m->to != 1);
	((struct fake *)ctx)->sent++;
	return DLS_OK;
}

static int f_timer(void *ctx, int kind, double at)
{
	(void)kind;
	CU_ASSERT(at >= 0 && at < 1e9);
	((struct fake *)ctx)->timers++;
	return DLS_OK;
}

static uint64_t f_rand(void *ctx)
{
	return ((struct fake *)ctx)->rng = ((struct fake *)ctx)->rng * 6364136223846793005ULL + 1;
}

/* Nonsense from peers (any kind, negative or huge values): the rules never
 * give more than the pile holds, never address a PE that does not exist,
 * never fail. */
static void test_rules_nonsense(void)
{
	static const int64_t v[] = {0, 1, -1, 7, 1000, INT64_MAX, INT64_MIN, 3, -1000000};
	struct pile_params p;

	pile_params_init(&p);
	for (int pol = PILE_WORKPILE; pol <= PILE_RIPPLE; pol++) {
		const struct pile_policy_ops *r = pile_policy_ops((enum pile_policy)pol);
		struct fake f = {500, 0, 0, 0, 42};
		struct pile_host h = {&f, 1, 4, &p, 0, f_len, f_busy, f_give, f_send,
				      f_timer, f_rand, NULL, NULL};
		char state[4096] = {0};

		CU_ASSERT_FATAL(r && r->size <= sizeof(state));
		CU_ASSERT_EQUAL(r->init ? r->init(state, &h, 0) : DLS_OK, DLS_OK);
		for (int k = 0; k < 4000; k++) {
			struct pile_msg m = {(int)(f_rand(&f) % 5) - 1, (int)(f_rand(&f) % 6) - 1, 1,
					     v[f_rand(&f) % 9], v[f_rand(&f) % 9], v[f_rand(&f) % 9],
					     v[f_rand(&f) % 9]};
			int64_t before = f.len + f.given;

			/* the host says who sent it: a real PE, never itself */
			if (m.from == 1 || m.from > 3)
				m.from = 0;
			if (m.from < 0)
				m.from = 3;
			CU_ASSERT_EQUAL(r->on_message(state, &h, &m, k * 1e-3), DLS_OK);
			if (r->on_timer)
				CU_ASSERT_EQUAL(r->on_timer(state, &h, k % 3, k * 1e-3), DLS_OK);
			if (r->before_next && f.len > 0)
				CU_ASSERT_EQUAL(r->before_next(state, &h, k * 1e-3), DLS_OK);
			CU_ASSERT_EQUAL(f.len + f.given, before);
			CU_ASSERT(f.len >= 0);
			if (k % 500 == 0)
				f.len += 100; /* work arrives */
		}
		if (r->fini)
			r->fini(state);
	}
}

/* A lockstep net of per-PE Ripple rules (pile_ripple.c): the PEs' own
 * clocks tick together and every PASS is in before the next tick. */
#define LN 7
struct lock_net {
	struct pile_params p;
	struct lock_pe {
		int64_t started, len, given;
		int gone, inited, gave_to, blind[LN]; /* dead; started; bit i: gave to PE i;
							 the PEs it sees dead */
		struct pile_host h;
		char state[256];
	} pe[LN];
	struct pile_msg q[4 * LN];
	int nq;
};

static int64_t l_len(void *ctx)
{
	return ((struct lock_pe *)ctx)->len;
}

static int64_t l_started(void *ctx)
{
	return ((struct lock_pe *)ctx)->started;
}

static int l_give(void *ctx, int to, int64_t n, double t, int64_t *moved)
{
	struct lock_pe *e = ctx;

	(void)t;
	e->len -= n;
	e->given += n;
	e->gave_to |= 1 << to;
	*moved = n;
	return DLS_OK;
}

static struct lock_net *the_net;

static int l_send(void *ctx, const struct pile_msg *m, double t)
{
	(void)ctx, (void)t;
	CU_ASSERT_FATAL(the_net->nq < 4 * LN);
	the_net->q[the_net->nq++] = *m;
	return DLS_OK;
}

static int l_timer(void *ctx, int kind, double at)
{
	(void)ctx, (void)kind, (void)at;
	return DLS_OK;
}

static int l_alive(void *ctx, int pe)
{
	return !((struct lock_pe *)ctx)->blind[pe];
}

/* One lockstep tick of the living PEs of net: each timer, then every
 * PASS delivered; fluid follows what crossed. */
static void lock_tick(struct lock_net *net, const struct pile_policy_ops *r, int t,
		      double *fluid)
{
	net->nq = 0;
	for (int i = 0; i < LN; i++)
		if (!net->pe[i].gone)
			CU_ASSERT_EQUAL(r->on_timer(net->pe[i].state, &net->pe[i].h, 0, t), DLS_OK);
	for (int k = 0; k < net->nq; k++) {
		struct pile_msg m = net->q[k];
		double rho;

		CU_ASSERT_FALSE_FATAL(net->pe[m.to].gone); /* nothing for the dead */
		memcpy(&rho, &m.a, sizeof(rho));
		CU_ASSERT_EQUAL(r->on_message(net->pe[m.to].state, &net->pe[m.to].h, &m, t), DLS_OK);
		fluid[m.from] -= rho;
		fluid[m.to] += rho;
	}
}

/* net's PEs started under Ripple with a least flow of pass_min, each
 * holding 1000 iterations; PE `dead` (-1: none) is gone from the start,
 * holds nothing, and every PE sees it dead. */
static void lock_start(struct lock_net *net, const struct pile_policy_ops *r, double pass_min,
		       int dead)
{
	the_net = net;
	memset(net, 0, sizeof(*net));
	pile_params_init(&net->p);
	net->p.pass_min = pass_min;
	CU_ASSERT_FATAL(r && r->size <= sizeof(net->pe[0].state));
	for (int i = 0; i < LN; i++) {
		struct lock_pe *e = &net->pe[i];

		e->len = i == dead ? 0 : 1000;
		e->gone = i == dead;
		if (dead >= 0)
			e->blind[dead] = 1;
		e->h = (struct pile_host){e,	  i,	    LN,
					  &net->p, 0, l_len,
					  f_busy, l_give, l_send,
					  l_timer, f_rand, dead >= 0 ? l_alive : NULL,
					  l_started};
		if (!e->gone) {
			CU_ASSERT_EQUAL_FATAL(r->init(e->state, &e->h, 0), DLS_OK);
			e->inited = 1;
		}
	}
}

/* fini of every PE lock_start started. */
static void lock_stop(struct lock_net *net, const struct pile_policy_ops *r)
{
	for (int i = 0; i < LN; i++)
		if (net->pe[i].inited)
			r->fini(net->pe[i].state);
}

/* Tortoise bridges a dead PE: with PE 3 of 7 dead from the start, the six
 * living follow the paper's model on a line of six step by step; when PE 5
 * dies mid-run (seen by its neighbours only) and its pile arrives at PE 4
 * from the coordinator, PEs 4 and 6 become neighbours, the counts travel
 * down the line, and nothing more goes to PE 5. */
static void test_ripple_bridges_the_dead(void)
{
	static struct lock_net net;
	const struct pile_policy_ops *r = pile_policy_ops(PILE_RIPPLE);
	struct ripple_net *ref;
	const double *load;
	double fluid[LN] = {0};
	int link46 = 0;

	lock_start(&net, r, 0, 3); /* pass_min 0: the paper's, every flow at once */
	CU_ASSERT_EQUAL_FATAL(ripple_net_create(RIPPLE_LINE, LN - 1, &ref), DLS_OK);
	load = ripple_net_loads(ref);
	for (int t = 0; t < 3 * LN; t++) {
		for (int i = 0; i < LN; i++) {
			int64_t c = t < LN && i != 3 ? (i * 3 + t) % 5 : 0;

			net.pe[i].started += c;
			fluid[i] -= (double)c;
			if (i != 3)
				ripple_net_add(ref, i < 3 ? i : i - 1, -(double)c);
		}
		lock_tick(&net, r, t, fluid);
		ripple_net_step(ref, NULL);
		for (int i = 0; i < LN; i++)
			if (i != 3)
				CU_ASSERT_DOUBLE_EQUAL(fluid[i], load[i < 3 ? i : i - 1], 1e-9);
	}
	ripple_net_destroy(ref);
	/* PE 5 dies: its neighbours see it, its pile goes to PE 4 */
	net.pe[5].gone = net.pe[4].blind[5] = net.pe[6].blind[5] = 1;
	CU_ASSERT_EQUAL(r->on_arrival(net.pe[4].state, &net.pe[4].h, -1, net.pe[5].len, 3 * LN),
			DLS_OK);
	net.pe[4].len += net.pe[5].len;
	net.pe[4].gave_to = net.pe[6].gave_to = 0;
	for (int t = 3 * LN; t < 8 * LN; t++) {
		lock_tick(&net, r, t, fluid);
		for (int k = 0; k < net.nq; k++)
			link46 += net.q[k].from == 4 && net.q[k].to == 6;
		CU_ASSERT_FALSE((net.pe[4].gave_to | net.pe[6].gave_to) & 1 << 5);
	}
	CU_ASSERT(link46 > 0);		/* the arrival spreads across the gap */
	CU_ASSERT(net.pe[4].gave_to & 1 << 6); /* in whole iterations too */
	lock_stop(&net, r);
}

/* The per-PE rules in lockstep are the paper's synchronous model: every PE
 * consumes at its own rate, and each PE's load (its consumption, plus what
 * crossed its links) is ripple_net's, step by step; the level is reached. */
static void test_ripple_rules_lockstep(void)
{
	static struct lock_net net;
	const struct pile_policy_ops *r = pile_policy_ops(PILE_RIPPLE);
	struct ripple_net *ref;
	const double *load;
	double fluid[LN] = {0};

	lock_start(&net, r, 0, -1); /* pass_min 0: the paper's, every flow at once */
	CU_ASSERT_EQUAL_FATAL(ripple_net_create(RIPPLE_LINE, LN, &ref), DLS_OK);
	load = ripple_net_loads(ref);
	for (int t = 0; t < 3 * LN; t++) {
		for (int i = 0; i < LN; i++) { /* each consumes at its own rate for a while */
			int64_t c = t < LN ? (i * 3 + t) % 5 : 0;

			net.pe[i].started += c;
			fluid[i] -= (double)c;
			ripple_net_add(ref, i, -(double)c);
		}
		lock_tick(&net, r, t, fluid);
		ripple_net_step(ref, NULL);
		for (int i = 0; i < LN; i++)
			CU_ASSERT_DOUBLE_EQUAL(fluid[i], load[i], 1e-9);
	}
	for (int i = 1; i < LN; i++) /* level: each has its fair share of the loss */
		CU_ASSERT_DOUBLE_EQUAL(fluid[i], fluid[0], 1e-9);
	ripple_net_destroy(ref);
	lock_stop(&net, r);
}

/* With pass_min = 1 a flow under one iteration waits for the next step:
 * fewer PASSes than the paper's every step (5-6 fold on the reference
 * clusters, a third here), and the loads still level (each within two
 * iterations of the fair share: the deferred rests). */
static void test_ripple_defers_small_flows(void)
{
	static struct lock_net net;
	const struct pile_policy_ops *r = pile_policy_ops(PILE_RIPPLE);
	int sent[2] = {0, 0};

	struct pile_params defaults;

	pile_params_init(&defaults);
	CU_ASSERT_DOUBLE_EQUAL(defaults.pass_min, 1, 0); /* the default */
	for (int pass = 0; pass < 2; pass++) {
		double fluid[LN] = {0}, mean = 0;

		lock_start(&net, r, pass ? 1 : 0, -1);
		for (int t = 0; t < 6 * LN; t++) {
			for (int i = 0; i < LN; i++) {
				int64_t c = t < LN ? (i * 3 + t) % 5 : 0;

				net.pe[i].started += c;
				fluid[i] -= (double)c;
			}
			lock_tick(&net, r, t, fluid);
			sent[pass] += net.nq;
		}
		for (int i = 0; i < LN; i++)
			mean += fluid[i] / LN;
		for (int i = 0; i < LN; i++)
			CU_ASSERT(fabs(fluid[i] - mean) < 2 * net.p.pass_min + 1e-9);
		lock_stop(&net, r);
	}
	CU_ASSERT(sent[1] * 4 < sent[0] * 3); /* 107 against 171 */
}

int pile_sim_suite_add(void)
{
	CU_pSuite s = CU_add_suite("pile_sim", NULL, NULL);

	if (!s || !CU_add_test(s, "Tortoise on a line (Melhem et al. 1991)", test_tortoise_line) ||
	    !CU_add_test(s, "Ripple on a hypercube (Melhem et al. 1991)", test_ripple_cube) ||
	    !CU_add_test(s, "Ripple spreads a loss", test_ripple_negative) ||
	    !CU_add_test(s, "placed as the coordinator places", test_placed_as_the_coordinator) ||
	    !CU_add_test(s, "every policy conserves work", test_conservation) ||
	    !CU_add_test(s, "a balanced start stays put", test_balanced_stays) ||
	    !CU_add_test(s, "unequal PEs are balanced", test_heterogeneous) ||
	    !CU_add_test(s, "deterministic for a seed", test_deterministic) ||
	    !CU_add_test(s, "RoC forwards and drops", test_roc_drops) ||
	    !CU_add_test(s, "the rules take nonsense from peers", test_rules_nonsense) ||
	    !CU_add_test(s, "Ripple's rules in lockstep are the paper's model",
			 test_ripple_rules_lockstep) ||
	    !CU_add_test(s, "Ripple bridges a dead PE", test_ripple_bridges_the_dead) ||
	    !CU_add_test(s, "Ripple defers flows under an iteration",
			 test_ripple_defers_small_flows) ||
	    !CU_add_test(s, "bad configurations refused", test_refusals))
		return -1;
	return 0;
}
