/*
 * The slave core against fake remote calls: bounded retries, refusals,
 * A_i = 0 delivering what it holds before it idles, results kept under the
 * message limit, the emulated cost honoured, and asking ahead.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_sched.h"
#include "dls_time.h"
#include "mandel.h"
#include "slave.h"
#include "slave_ahead.h"
#include "master_testutil.h"
#include "suites.h"

/* A scripted master: serves [0, width) in chunks of `chunk`, then DONE. */
struct fake {
	int unreachable;       /* fail this many calls with DLS_EREMOTE */
	int timeouts;	       /* then this many requests with DLS_ETIMEDOUT */
	int refuse;	       /* refuse every request */
	int lost_submit_reply; /* the first submit gets through, its answer is lost */
	int64_t next, width, chunk;
	int64_t delivered;     /* iterations received, by request or submit */
	size_t max_bytes;      /* largest block seen */
	const char *workload;  /* NULL: mandelbrot */
	uint32_t result_bytes; /* 0: the right one */
	int calls, submits, requests;
	int64_t acp_seen[64];
	int nacp;
	int height;
	int delay_us;	       /* each request takes this long */
	int64_t last_count;    /* the last chunk given */
	int ahead, too_many;   /* requests that left a chunk in flight; that left more */
	int64_t measured;      /* iterations of the chunk times reported */
	int bad_measured;      /* reported times that make no sense, or a chunk not given */
	int scheme_kind;       /* the job's scheme (0: SS) */
	int leave_after;       /* asked to leave once this many requests came (0: never) */
	int leaves;	       /* leave calls */
	char leave_cause[128];
};

static void see(struct fake *f, const struct dls_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		f->delivered += res[i].count;
		if (res[i].nbytes > f->max_bytes)
			f->max_bytes = res[i].nbytes;
	}
}

static int f_register(void *ctx, const char *name, double speed, int *id, double *vpower,
		      struct dls_job *job, char *why, size_t len)
{
	struct fake *f = ctx;

	(void)name;
	(void)speed;
	f->calls++;
	if (f->unreachable-- > 0) {
		snprintf(why, len, "fake: unreachable");
		return DLS_EREMOTE;
	}
	*id = 0;
	*vpower = 2;
	memset(job, 0, sizeof(*job));
	tu_mandel_job(job, (int32_t)f->width, f->height, 32);
	if (f->workload)
		snprintf(job->workload, sizeof(job->workload), "%s", f->workload);
	if (f->result_bytes)
		job->result_bytes = f->result_bytes;
	job->scheme.kind = f->scheme_kind;
	return DLS_OK;
}

static int f_request(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		     size_t len)
{
	struct fake *f = ctx;

	f->calls++;
	f->requests++;
	if (f->timeouts-- > 0) {
		snprintf(why, len, "fake: took the call, no answer in time");
		return DLS_ETIMEDOUT;
	}
	if (f->refuse) {
		snprintf(why, len, "fake: refused");
		return DLS_ESTATE;
	}
	see(f, req->results, req->nresults);
	for (size_t i = 0; i < req->nmeasured; i++) {
		const struct dls_chunk_time *t = &req->measured[i];

		f->measured += t->count;
		f->bad_measured += !(t->compute_s > 0 && t->elapsed_s >= t->compute_s &&
				     t->start >= 0 && t->start + t->count <= f->next);
	}
	if (f->nacp < 64)
		f->acp_seen[f->nacp++] = req->acp;
	if (f->delay_us)
		dls_sleep_until(dls_now() + f->delay_us * 1e-6);
	/* one chunk in flight at most: the last one given (PROTOCOL.md 5) */
	f->ahead += f->next - f->delivered > 0;
	f->too_many += f->next - f->delivered > f->last_count;
	memset(out, 0, sizeof(*out));
	if (f->next >= f->width) {
		out->kind = f->delivered == f->width ? DLS_REPLY_DONE : DLS_REPLY_WAIT;
		out->wait_ms = 1;
		return DLS_OK;
	}
	out->kind = DLS_REPLY_WORK;
	out->start = f->next;
	out->count = f->chunk < f->width - f->next ? f->chunk : f->width - f->next;
	f->next += out->count;
	f->last_count = out->count;
	return DLS_OK;
}

static int f_submit(void *ctx, int id, const struct dls_result *res, size_t n, char *why,
		    size_t len)
{
	struct fake *f = ctx;

	(void)id;
	f->submits++;
	if (f->lost_submit_reply == -1) { /* the retry: as a master refuses it */
		f->lost_submit_reply = 0;
		snprintf(why, len, "iteration %lld was already delivered", (long long)res[0].start);
		return DLS_ESTATE;
	}
	see(f, res, n);
	if (f->lost_submit_reply) {
		f->lost_submit_reply = -1;
		snprintf(why, len, "fake: the answer was lost");
		return DLS_EREMOTE;
	}
	return DLS_OK;
}

static int f_leave_asked(void *ctx)
{
	struct fake *f = ctx;

	return f->leave_after && f->requests >= f->leave_after ? SLAVE_STOP_LEAVE : SLAVE_RUNS;
}

static int f_leave(void *ctx, int id, const char *cause, char *why, size_t len)
{
	struct fake *f = ctx;

	(void)id;
	(void)why;
	(void)len;
	f->leaves++;
	snprintf(f->leave_cause, sizeof(f->leave_cause), "%s", cause);
	return DLS_OK;
}

static struct slave_ops ops_for(struct fake *f)
{
	struct slave_ops o = {.ctx = f, .register_slave = f_register, .request = f_request, .submit = f_submit};

	return o;
}

static void config(struct slave_config *c)
{
	slave_config_init(c);
	c->t_iter_ns = 0; /* no emulated sleeping in unit tests */
	c->retry_delay_ms = 0;
	c->poll_ms = 1;
}

static void test_runs_to_done(void)
{
	struct fake f = {.width = 50, .chunk = 7, .height = 16};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 50);
	CU_ASSERT_EQUAL(st.iterations, 50);
	CU_ASSERT_EQUAL(st.chunks, 8);
	CU_ASSERT_EQUAL(f.acp_seen[0], 2); /* floor(V/Q) = floor(2/1) */
}

static void test_bounded_retries(void)
{
	struct fake f = {.unreachable = 100, .width = 10, .chunk = 5, .height = 4};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	c.retries = 3;
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_EREMOTE);
	CU_ASSERT_EQUAL(f.calls, 3);
	/* two failures, then the master answers: the run completes */
	f = (struct fake){.unreachable = 2, .width = 10, .chunk = 5, .height = 4};
	ops = ops_for(&f);
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 10);
}

static int stop_after_ten_requests(void *ctx)
{
	return ((struct fake *)ctx)->requests >= 10;
}

/* A master that takes calls and does not answer in time is asked again for
 * the patience, not counted against the retries; then it counts as gone. */
static void test_patience(void)
{
	struct fake f = {.timeouts = 20, .width = 10, .chunk = 5, .height = 4};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];
	double t0;

	config(&c);
	c.retries = 3;
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 10);
	CU_ASSERT_EQUAL(f.requests, 20 + 3); /* 2 chunks, then DONE */
	/* no patience: each timeout is one of the retries */
	f = (struct fake){.timeouts = 100, .width = 10, .chunk = 5, .height = 4};
	ops = ops_for(&f);
	c.patience_ms = 0;
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_EREMOTE);
	CU_ASSERT_EQUAL(f.requests, 3);
	/* a patience that runs out: then the retries, then gone; a timeout that
	 * comes at once is asked again only after the retry delay */
	f = (struct fake){.timeouts = 1000000, .width = 10, .chunk = 5, .height = 4};
	ops = ops_for(&f);
	c.patience_ms = 100;
	c.retry_delay_ms = 10;
	t0 = dls_now();
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_EREMOTE);
	CU_ASSERT(dls_now() - t0 >= 0.1);
	CU_ASSERT(f.requests >= 3 && f.requests <= 100 / 10 + 3 + 1);
	/* a slave asked to stop waits no longer (an embedding program's stop) */
	f = (struct fake){.timeouts = 1000000, .width = 10, .chunk = 5, .height = 4};
	ops = ops_for(&f);
	ops.stop_requested = stop_after_ten_requests;
	c.patience_ms = 60000;
	c.retry_delay_ms = 0;
	t0 = dls_now();
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_EREMOTE);
	CU_ASSERT(dls_now() - t0 < 5);
	CU_ASSERT_EQUAL(f.requests, 10 + 2); /* the tenth is the first of 3 attempts */
}

static void test_refused_stops(void)
{
	struct fake f = {.refuse = 1, .width = 10, .chunk = 5, .height = 4};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_EQUAL(f.requests, 1); /* a refusal is not retried */
	CU_ASSERT_STRING_EQUAL(why, "fake: refused");
}

/* Results larger than a message travel in blocks: all but one by submit. */
static void test_blocks_under_limit(void)
{
	struct fake f = {.width = 40, .chunk = 40, .height = 100};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	c.max_block_bytes = 2 * 100 * 6; /* six columns a message */
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 40);
	CU_ASSERT(f.max_bytes <= 1200);
	CU_ASSERT_EQUAL(f.submits, 6); /* 7 blocks: one rides on the request */
}

/* A submit whose answer was lost, then refused on retry as already
 * delivered (a master refuses with DLS_ESTATE): it got through. */
static void test_retried_submit_delivered(void)
{
	struct fake f = {.width = 40, .chunk = 40, .height = 100, .lost_submit_reply = 1};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	c.max_block_bytes = 2 * 100 * 6;
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 40);
	CU_ASSERT_EQUAL(f.submits, 7); /* six blocks, one of them twice */
}

/* V = 2 and Q = 1 at first, 3 from 5 ms on; the emulated chunk lasts
 * longer than that, so the next A_i is floor(2/3) = 0. */
static void loaded_config(struct slave_config *c)
{
	config(c);
	CU_ASSERT_PTR_NULL_FATAL(emul_steps_parse("0:1,0.005:3", &c->load));
	c->speed = 2;
	c->t_iter_ns = 1e5;
}

/* That load under a simple scheme, which does not weigh A_i: the slave
 * asks on, reporting A_i = 1, and finishes the loop. */
static void test_acp_zero_simple_scheme_asks(void)
{
	struct fake f = {.width = 12, .chunk = 3, .height = 4};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	loaded_config(&c);
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(f.delivered, 12);
	CU_ASSERT_EQUAL(f.acp_seen[0], 2);
	CU_ASSERT_FATAL(f.nacp >= 2);
	CU_ASSERT_EQUAL(f.acp_seen[f.nacp - 1], 1);
}

static volatile int hog_stop;

static void *hog(void *arg)
{
	volatile uint64_t n = 0;

	(void)arg;
	while (!hog_stop)
		n++;
	return NULL;
}

/* Speed is the core's: a calibration that shares its core with a busy
 * thread measures about what it measures alone (the share of the core is
 * Q_i's business), where a wall-clock one halved. */
static void test_calibrate_counts_cpu_time(void)
{
	cpu_set_t one, before;
	pthread_t t;
	double alone, shared;

	CU_ASSERT_EQUAL_FATAL(pthread_getaffinity_np(pthread_self(), sizeof(before), &before), 0);
	CPU_ZERO(&one);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &before)) {
			CPU_SET(c, &one);
			break;
		}
	CU_ASSERT_EQUAL_FATAL(pthread_setaffinity_np(pthread_self(), sizeof(one), &one), 0);
	alone = slave_calibrate(100);
	hog_stop = 0;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, hog, NULL), 0);
	pthread_setaffinity_np(t, sizeof(one), &one);
	shared = slave_calibrate(100);
	hog_stop = 1;
	pthread_join(t, NULL);
	pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
	CU_ASSERT(alone > 0);
	CU_ASSERT(shared > 0.6 * alone && shared < 1.6 * alone);
}

static int stop_when_all_delivered(void *ctx)
{
	struct fake *f = ctx;

	return f->delivered == f->width;
}

/* Its own side asks the slave to leave: every iteration it computed is
 * delivered, asking ahead or not, the master is told once, and the run
 * ends with DLS_ESTOPPED and a line that says so. */
static void test_leave_delivers(void)
{
	for (int overlap = 0; overlap <= 1; overlap++) {
		struct fake f = {.width = 100, .chunk = 7, .height = 8, .leave_after = 3};
		struct slave_ops ops = ops_for(&f);
		struct slave_config c;
		struct dls_slave_stats st;
		char why[SLAVE_WHY_LEN];

		config(&c);
		c.overlap = overlap;
		ops.stop_requested = f_leave_asked;
		ops.leave = f_leave;
		CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_ESTOPPED);
		CU_ASSERT(st.iterations > 0 && st.iterations < f.width);
		CU_ASSERT_EQUAL(f.delivered, st.iterations);
		CU_ASSERT_EQUAL(f.leaves, 1);
		CU_ASSERT_STRING_EQUAL(f.leave_cause, "it left: its program stopped it");
		CU_ASSERT(strstr(why, "stopped on request before the run ended") != NULL);
	}
}

/* A_i = 0 (V = 2, Q = 3) under a distributed scheme: the slave stops
 * requesting, but first delivers the results it holds, or nobody could
 * finish the run. */
static void test_acp_zero_delivers_then_waits(void)
{
	struct fake f = {.width = 10, .chunk = 10, .height = 4, .scheme_kind = SCHED_DTSS};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	loaded_config(&c);
	ops.stop_requested = stop_when_all_delivered;
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
	CU_ASSERT_STRING_EQUAL(why, "stopped on request");
	CU_ASSERT_EQUAL(f.requests, 1);
	CU_ASSERT_EQUAL(f.submits, 1);
	CU_ASSERT_EQUAL(f.delivered, 10);
	CU_ASSERT(st.times.t_comp > 0.005);
}

/*
 * Asking ahead, emulated (the request leaves in the chunk's sleep) and real
 * (from the sending thread): with requests that take 1 ms and chunks of
 * 10-20 ms, requests leave while a chunk is in flight, never two, every
 * iteration arrives once, and so does every chunk's measured time; without
 * it, none leaves early.
 */
static void test_asks_ahead(void)
{
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	for (int mode = 0; mode < 3; mode++) {
		struct fake f = {.width = 60, .chunk = 4, .height = 8, .delay_us = 1000};
		struct slave_ops ops = ops_for(&f);

		config(&c);
		c.overlap = mode != 2;
		if (mode == 1) { /* real: the chunk's time is its own */
			c.emulated = 0;
			c.q_override = 1;
			f.height = 20000; /* a few ms a chunk here */
		} else {
			c.t_iter_ns = 1e4; /* about 10 ms a chunk */
		}
		CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_OK);
		CU_ASSERT_EQUAL(f.delivered, 60);
		CU_ASSERT_EQUAL(st.iterations, 60);
		CU_ASSERT_EQUAL(f.too_many, 0);
		/* every chunk's times ride on a later request (protocol 5) */
		CU_ASSERT_EQUAL(f.measured, 60);
		CU_ASSERT_EQUAL(f.bad_measured, 0);
		if (mode == 2) {
			CU_ASSERT_EQUAL(f.ahead, 0);
		} else {
			CU_ASSERT(f.ahead >= 5); /* the first two chunks cannot */
		}
	}
}

/*
 * The lead's model: the first exchange (the start gate) is skipped; then
 * 0.1 ms without results and 1.1 ms with 1 MB give a line of 0.1 ms + 1 ns
 * an octet, and a lead of at least two expected exchanges.
 */
static void test_lead_model(void)
{
	struct run r;
	struct ahead a;

	memset(&r, 0, sizeof(r));
	CU_ASSERT_EQUAL_FATAL(ahead_start(&a, &r), DLS_OK);
	CU_ASSERT_EQUAL(ahead_lead(&a, 0), 0);
	ahead_note_rtt(&a, 3.0, 0); /* the gate */
	CU_ASSERT_EQUAL(ahead_lead(&a, 0), 0);
	for (int i = 0; i < 200; i++) {
		ahead_note_rtt(&a, 1e-4, 0);
		ahead_note_rtt(&a, 1.1e-3, 1000000);
	}
	CU_ASSERT_DOUBLE_EQUAL(ahead_round_trip(&a), 1e-4, 1e-6);
	CU_ASSERT(ahead_lead(&a, 0) >= 2e-4 - 1e-9);
	CU_ASSERT(ahead_lead(&a, 1000000) >= 2.2e-3 - 1e-9);
	CU_ASSERT(ahead_lead(&a, 1000000) < 3e-3);
	ahead_note_rtt(&a, NAN, 0); /* nonsense is not learnt */
	ahead_note_rtt(&a, -1, 0);
	CU_ASSERT_DOUBLE_EQUAL(ahead_round_trip(&a), 1e-4, 1e-6);
	ahead_stop(&a);
}

/* An emulated link delay (dls_sleep_emulated): nothing for 0, a negative
 * or a NaN time; aimed early by the wake-up latency it learns, yet never
 * cutting a delay short by more than that latency (here: 40 delays of
 * 2 ms take at least 90% of 80 ms). */
static void test_emulated_delay(void)
{
	double t0 = dls_now();

	dls_sleep_emulated(0);
	dls_sleep_emulated(-1);
	dls_sleep_emulated(NAN);
	CU_ASSERT(dls_now() - t0 < 1e-3);
	t0 = dls_now();
	for (int i = 0; i < 40; i++)
		dls_sleep_emulated(2e-3);
	CU_ASSERT(dls_now() - t0 >= 0.9 * 40 * 2e-3);
}

/* A job this slave cannot compute as described: refused with the reason,
 * nothing requested. */
static void test_bad_jobs(void)
{
	struct fake f = {.width = 10, .chunk = 5, .height = 4, .workload = "nosuch"};
	struct slave_ops ops = ops_for(&f);
	struct slave_config c;
	struct dls_slave_stats st;
	char why[SLAVE_WHY_LEN];

	config(&c);
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown workload 'nosuch' (known: mandelbrot, pendulum"));
	f = (struct fake){.width = 10, .chunk = 5, .height = 4, .result_bytes = 7};
	CU_ASSERT_EQUAL(slave_run(&c, &ops, &st, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "10 iterations of 7 octets"));
	CU_ASSERT_EQUAL(f.requests, 0);
}

int slave_suite_add(void)
{
	CU_pSuite s = CU_add_suite("slave core", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "runs to DONE", test_runs_to_done) ||
	       !CU_add_test(s, "bounded retries", test_bounded_retries) ||
	       !CU_add_test(s, "a slow master is waited out", test_patience) ||
	       !CU_add_test(s, "a refusal stops the slave", test_refused_stops) ||
	       !CU_add_test(s, "a retried submit already delivered", test_retried_submit_delivered) ||
	       !CU_add_test(s, "results in blocks under the message limit",
			    test_blocks_under_limit) ||
	       !CU_add_test(s, "A_i = 0 delivers, then waits", test_acp_zero_delivers_then_waits) ||
	       !CU_add_test(s, "A_i = 0 under a simple scheme: asks on",
			    test_acp_zero_simple_scheme_asks) ||
	       !CU_add_test(s, "Speed counts the core's time, not the wall's",
			    test_calibrate_counts_cpu_time) ||
	       !CU_add_test(s, "asks ahead, one chunk in flight", test_asks_ahead) ||
	       !CU_add_test(s, "the lead's model of an exchange", test_lead_model) ||
	       !CU_add_test(s, "an emulated link delay", test_emulated_delay) ||
	       !CU_add_test(s, "jobs it cannot compute are refused", test_bad_jobs) ||
	       !CU_add_test(s, "leaving delivers what it computed", test_leave_delivers);
}
