/*
 * The master core without sockets: registration (V_i), the start gate and
 * ACPSA order, results checked whole before any is applied, retries,
 * requeueing the work of a lost slave, WAIT and DONE, end-of-run collection.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "mandel.h"
#include "dls_time.h"
#include "master.h"
#include "master_internal.h"
#include "master_testutil.h"
#include "suites.h"

#define W 40
#define H 10

static struct master *make(int nslaves, enum sched_kind kind, enum dls_collect collect)
{
	struct master_config c;
	struct master *m;
	int err;

	tu_master_config(&c, kind, nslaves, W, H, 1000);
	c.sched.css_k = 3;
	tu_set_maxit(&c, 64);
	c.collect = collect;
	c.start_timeout_ms = 0; /* serve whoever asked first */
	c.wait_ms = 5;
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	return m;
}

/* Correct counts for [start, start + count), natural order (maxit 64). */
#define counts_for(start, count) tu_mandel_counts(W, H, 64, start, count)

static void register_all(struct master *m, int n, const double *speeds, int *ids, double *v)
{
	const char *names[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
	uint64_t keys[8];
	char why[MASTER_WHY_LEN];

	CU_ASSERT_EQUAL_FATAL(
	    master_register_group(m, 0, names, speeds, (size_t)n, ids, keys, v, why), DLS_OK);
	for (int k = 0; k < n; k++) /* capabilities: random, never 0, each its own */
		CU_ASSERT(keys[k] != 0 && keys[k] == master_child_key(m, ids[k]) &&
			  (k == 0 || keys[k] != keys[k - 1]));
}

static void test_registration(void)
{
	struct master *m = make(2, SCHED_DTSS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {250.0, 500.0};
	double v[2], vx;
	int ids[2], id;
	uint64_t kx;
	char why[MASTER_WHY_LEN];

	CU_ASSERT_EQUAL(master_register(m, 0, "nan", 0.0 / 0.0, &id, &kx, &vx, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "speed"));
	CU_ASSERT_EQUAL(master_register(m, 0, "neg", -1, &id, &kx, &vx, why), DLS_EINVAL);
	register_all(m, 2, speeds, ids, v);
	CU_ASSERT_EQUAL(ids[0], 0);
	CU_ASSERT_EQUAL(ids[1], 1);
	CU_ASSERT_DOUBLE_EQUAL(v[0], 1.0, 1e-12); /* V_i = Speed_i / min Speed */
	CU_ASSERT_DOUBLE_EQUAL(v[1], 2.0, 1e-12);
	CU_ASSERT_EQUAL(master_register(m, 0, "late", 1, &id, &kx, &vx, why), DLS_ESTATE);
	/* a call must carry the caller's own capability */
	CU_ASSERT_EQUAL(master_check_caller(m, 1, master_child_key(m, 1), why), DLS_OK);
	CU_ASSERT_EQUAL(master_check_caller(m, 1, master_child_key(m, 0), why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "capability"));
	CU_ASSERT_EQUAL(master_check_caller(m, 1, 0, why), DLS_EINVAL);
	CU_ASSERT_EQUAL(master_check_caller(m, 5, 0, why), DLS_ENOENT);
	master_destroy(m);
}

/* A merged message of the four first requests in ACPSA order gives the
 * DTSS example of docs/schemes.md 4.3: the master adds nothing to the scheme. */
static void test_acpsa_order_dtss(void)
{
	struct master *m = make(4, SCHED_DTSS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1, 1, 2, 2};
	struct dls_request reqs[4];
	struct dls_reply out[4];
	const int order[] = {2, 3, 0, 1};
	double v[4];
	int ids[4];
	char why[MASTER_WHY_LEN];

	/* I = 1000 would not fit a 40-column image; scale: I = W = 40, A = 6:
	 * F = 3, N = ceil(80/4) = 20, D = floor(2/19) = 0 -> chunks 6 6 3 3 */
	register_all(m, 4, speeds, ids, v);
	for (int k = 0; k < 4; k++)
		reqs[k] = tu_request(m, order[k], 1, (int64_t)v[order[k]], NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request_group(m, reqs, 4, out, why), DLS_OK);
	CU_ASSERT(out[0].kind == DLS_REPLY_WORK && out[0].start == 0 && out[0].count == 6);
	CU_ASSERT(out[1].kind == DLS_REPLY_WORK && out[1].start == 6 && out[1].count == 6);
	CU_ASSERT(out[2].start == 12 && out[2].count == 3);
	CU_ASSERT(out[3].start == 15 && out[3].count == 3);
	master_destroy(m);
}

/* Bad results are refused whole; the state and the image are unharmed. */
static void test_refusals_leave_state(void)
{
	struct master *m = make(1, SCHED_CSS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1};
	struct dls_reply rep, rep2;
	struct dls_request r;
	struct dls_result res[2];
	struct dls_status s;
	uint16_t *good;
	double v[1];
	int ids[1];
	char why[MASTER_WHY_LEN];

	register_all(m, 1, speeds, ids, v);
	r = tu_request(m, 0, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 0 && rep.count == 3);
	/* a retry of the same request gets the same reply, nothing more assigned */
	CU_ASSERT_EQUAL(master_request(m, &r, &rep2, why), DLS_OK);
	CU_ASSERT(rep2.start == rep.start && rep2.count == rep.count);
	good = counts_for(0, 3);
	/* a stranger who guessed the id but not the capability: refused, nothing taken */
	res[0] = tu_counts(0, 3, good, 3 * H);
	r.key ^= 1;
	r.seq = 2;
	r.results = res;
	r.nresults = 1;
	CU_ASSERT_EQUAL(master_request(m, &r, &rep2, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "capability"));
	CU_ASSERT_EQUAL(master_submit(m, 0, r.key, res, 1, why), DLS_EINVAL);
	CU_ASSERT_EQUAL(tu_image(m)[0], 0);
	/* a good block and a bad one: nothing of the message is applied */
	res[0] = tu_counts(0, 2, good, 2 * H);
	res[1] = tu_counts(2, 1, good, H - 1);
	r = tu_request(m, 0, 2, 1, res, 2);
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "carries 18 octets"));
	res[1] = tu_counts(5, 1, good, H);
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not hold"));
	res[1] = tu_counts(1, 1, good, H); /* overlaps the first block */
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "twice"));
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.delivered, 0);
	CU_ASSERT_EQUAL(s.assigned, 3);
	dls_status_free(&s);
	CU_ASSERT_EQUAL(tu_image(m)[0], 0);
	/* counts the kernel cannot return (0, above maxit): refused, nothing applied */
	{
		uint16_t *bad = counts_for(0, 3);

		bad[H + 1] = 0;
		res[0] = tu_counts(0, 3, bad, 3 * H);
		r = tu_request(m, 0, 2, 1, res, 1);
		CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "iteration 1 refused: column 1 row 1 carries count 0"));
		bad[H + 1] = 257; /* maxit is 64 here */
		CU_ASSERT_EQUAL(master_submit(m, 0, master_child_key(m, 0), res, 1, why), DLS_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "count 257: a Mandelbrot count is 1..64"));
		free(bad);
	}
	/* the right message is accepted */
	res[0] = tu_counts(0, 3, good, 3 * H);
	r = tu_request(m, 0, 2, 1, res, 1);
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT_EQUAL(memcmp(tu_image(m), good, 3 * H * sizeof(uint16_t)), 0);
	/* the same results again: refused */
	CU_ASSERT_EQUAL(master_submit(m, 0, master_child_key(m, 0), res, 1, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "already delivered"));
	CU_ASSERT_EQUAL(master_submit(m, 7, master_child_key(m, 7), res, 1, why), DLS_ENOENT);
	free(good);
	master_destroy(m);
}

/* One slave asks, computes and piggy-backs until it hears anything but WORK. */
static void run_to_done(struct master *m, int id, uint32_t *seq, struct dls_reply *last)
{
	struct dls_reply rep = {.kind = DLS_REPLY_WAIT};
	uint16_t *held = NULL;
	struct dls_result res;
	char why[MASTER_WHY_LEN];

	for (int guard = 0; guard < 1000; guard++) {
		struct dls_request r;

		res = tu_counts(rep.start, rep.count, held, (size_t)rep.count * H);
		r = tu_request(m, id, ++*seq, 1, &res, held ? 1 : 0);
		CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
		free(held);
		held = NULL;
		if (rep.kind != DLS_REPLY_WORK)
			break;
		held = counts_for(rep.start, rep.count);
	}
	*last = rep;
}

static void check_image_exact(struct master *m)
{
	uint16_t *all = counts_for(0, W);

	CU_ASSERT_EQUAL(memcmp(tu_image(m), all, (size_t)W * H * sizeof(uint16_t)), 0);
	free(all);
}

static void test_lost_slave_requeued(void)
{
	struct master *m = make(2, SCHED_GSS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1, 1};
	struct dls_reply rep, last;
	struct dls_request r;
	struct dls_status s;
	double v[2];
	int ids[2], holding[2];
	uint32_t seq = 1;
	char why[MASTER_WHY_LEN];

	register_all(m, 2, speeds, ids, v);
	r = tu_request(m, 0, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 0 && rep.count == 20);
	CU_ASSERT_EQUAL(master_slaves_holding(m, holding, 2), 1);
	CU_ASSERT_EQUAL(master_slave_lost(m, 0, "test"), DLS_OK);
	CU_ASSERT_EQUAL(master_slave_lost(m, 0, "test"), DLS_ENOENT);
	/* slave 1 gets the lost slave's range first, then the rest */
	r = tu_request(m, 1, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT(rep.start == 0 && rep.count == 20);
	/* a stranger's call for the lost slave is refused and takes nothing back */
	r = tu_request(m, 0, 2, 1, NULL, 0);
	r.key ^= 1;
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_EINVAL);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.slaves[0].state, DLS_SLAVE_LOST);
	dls_status_free(&s);
	/* the lost slave comes back (it was stopped) with the results of the
	 * chunk it lost: taken back, those results dropped (slave 1 holds that
	 * range now), a retry of its old seq served fresh, not answered with
	 * the chunk that went to slave 1 */
	{
		uint16_t *c = counts_for(0, 20);
		struct dls_result res = tu_counts(0, 20, c, 20 * H);

		r = tu_request(m, 0, 1, 1, &res, 1);
		CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
		CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start >= 20);
		free(c);
		master_snapshot(m, &s);
		CU_ASSERT_NOT_EQUAL(s.slaves[0].state, DLS_SLAVE_LOST);
		CU_ASSERT_EQUAL(s.delivered, 0);
		dls_status_free(&s);
		/* it delivers its new chunk outside a request */
		c = counts_for(rep.start, rep.count);
		res = tu_counts(rep.start, rep.count, c, (size_t)rep.count * H);
		CU_ASSERT_EQUAL(master_submit(m, 0, master_child_key(m, 0), &res, 1, why), DLS_OK);
		free(c);
		/* alive again, it can be lost again */
		CU_ASSERT_EQUAL(master_slave_lost(m, 0, "test, again"), DLS_OK);
	}
	/* slave 1 finishes everything: deliver [0,20) then the rest */
	{
		uint16_t *c = counts_for(0, 20);
		struct dls_result res = tu_counts(0, 20, c, 20 * H);

		r = tu_request(m, 1, 2, 1, &res, 1);
		CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
		free(c);
		c = counts_for(rep.start, rep.count);
		res = tu_counts(rep.start, rep.count, c, (size_t)rep.count * H);
		CU_ASSERT_EQUAL(master_submit(m, 1, master_child_key(m, 1), &res, 1, why), DLS_OK);
		free(c);
	}
	seq = 3;
	run_to_done(m, 1, &seq, &last);
	CU_ASSERT_EQUAL(last.kind, DLS_REPLY_DONE);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	check_image_exact(m);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.requeued, 20);
	CU_ASSERT_EQUAL(s.delivered, W);
	dls_status_free(&s);
	master_destroy(m);
}

struct late_request {
	struct master *m;
	struct dls_request r;
	struct dls_reply rep;
	int rc;
};

/* Sends its request 100 ms late, as a predecessor overtaken on another
 * connection. */
static void *send_late(void *arg)
{
	struct late_request *q = arg;
	char why[MASTER_WHY_LEN];

	dls_sleep_ms(100);
	q->rc = master_request(q->m, &q->r, &q->rep, why);
	return NULL;
}

/* Depth 2: a second request on its way that reaches the master before its
 * predecessor waits for it, and each is served in its turn. */
static void test_second_waits_for_predecessor(void)
{
	struct master_config c;
	struct master *m;
	const double speeds[] = {1};
	struct late_request late;
	struct dls_reply rep;
	struct dls_request r;
	pthread_t t;
	double v[1], t0;
	int ids[1], err;
	char why[MASTER_WHY_LEN];
	uint16_t *counts = counts_for(0, 1);
	struct dls_result res = tu_counts(0, 1, counts, H);

	tu_master_config(&c, SCHED_SS, 1, W, H, 1000);
	tu_set_maxit(&c, 64);
	c.start_timeout_ms = 0;
	c.early_wait_ms = 5000;
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m, 1, speeds, ids, v);
	r = tu_request(m, 0, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 0 && rep.count == 1);
	CU_ASSERT_EQUAL(rep.depth, 2); /* one column of 40 */
	late.m = m;
	late.r = tu_request(m, 0, 2, 1, NULL, 0); /* asked ahead while [0,1) computed */
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, send_late, &late), 0);
	r = tu_request(m, 0, 3, 1, &res, 1); /* [0,1) done: the second leaves */
	r.second = 1;
	t0 = dls_now();
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT(dls_now() - t0 > 0.05);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(late.rc, DLS_OK);
	CU_ASSERT(late.rep.kind == DLS_REPLY_WORK && late.rep.start == 1);
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 2);
	{
		struct dls_status st;

		CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &st), DLS_OK);
		CU_ASSERT_EQUAL(st.delivered, 1);
		dls_status_free(&st);
	}
	free(counts);
	master_destroy(m);
}

/* Asks as a servant does: entered, the request, left. */
static void *ask_inside(void *arg)
{
	struct late_request *q = arg;
	char why[MASTER_WHY_LEN] = "";

	q->rc = master_enter(q->m, why);
	if (q->rc == DLS_OK) {
		q->rc = master_request(q->m, &q->r, &q->rep, why);
		master_leave(q->m);
	}
	CU_ASSERT(q->rc == DLS_OK || strstr(why, "closing") != NULL);
	return NULL;
}

struct waiting_registration {
	struct master *m;
	int rc;
	char why[MASTER_WHY_LEN];
};

/* Registers one slave as a servant does: it waits for the others. */
static void *register_inside(void *arg)
{
	struct waiting_registration *w = arg;
	uint64_t key;
	double v;
	int id;

	w->rc = master_enter(w->m, w->why);
	if (w->rc == DLS_OK) {
		w->rc = master_register(w->m, 0, "a", 1, &id, &key, &v, w->why);
		master_leave(w->m);
	}
	return NULL;
}

struct first_request {
	struct master *m;
	struct dls_request req;
	struct dls_reply out;
	int rc;
	char why[MASTER_WHY_LEN];
};

static void *ask_first(void *arg)
{
	struct first_request *f = arg;

	f->rc = master_request(f->m, &f->req, &f->out, f->why);
	return NULL;
}

/* Registration that closes at its deadline with 2 of 3 slaves: the start
 * gate still waits for both first requests (start timeout 2 s), so DTSS
 * starts with A = 2, F = 40 / 4.  Before, the waiting registration closed
 * the roster itself, the gate's deadline was never set, and the first
 * request opened it alone (A = 1, F = 20): a dls run whose slave failed to
 * start handed out half the loop in its first chunk. */
static void test_registration_deadline_gate(void)
{
	struct master_config c;
	struct master *m;
	struct first_request a = {0}, b = {0};
	const char *names[2] = {"a", "b"};
	const double speeds[2] = {1, 1};
	uint64_t keys[2];
	double v[2], t0 = dls_now();
	int ids[2], err;
	pthread_t t;
	char why[MASTER_WHY_LEN];

	tu_master_config(&c, SCHED_DTSS, 3, W, H, 200);
	tu_set_maxit(&c, 64);
	c.start_timeout_ms = 2000;
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(master_register_group(m, 0, names, speeds, 2, ids, keys, v, why),
			      DLS_OK);
	CU_ASSERT(dls_now() - t0 >= 0.19); /* it waited for the third until the deadline */
	a.m = b.m = m;
	a.req = tu_request(m, ids[0], 1, 1, NULL, 0);
	b.req = tu_request(m, ids[1], 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, ask_first, &a), 0);
	dls_sleep_ms(100);
	CU_ASSERT_EQUAL(m->gate_open, 0); /* waiting for b's first request */
	CU_ASSERT_EQUAL(master_request(m, &b.req, &b.out, b.why), DLS_OK);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(a.rc, DLS_OK);
	CU_ASSERT(a.out.kind == DLS_REPLY_WORK && b.out.kind == DLS_REPLY_WORK);
	/* TSS over A = 2 slots: F = 40 / 4 = 10, N = 8, D = 1: 10 then 9 */
	CU_ASSERT(a.out.count == 10 && b.out.count == 9);
	master_destroy(m);
}

/* master_close ends a registration's wait for the others (the window is
 * a minute): it is refused. */
static void test_close_ends_registration(void)
{
	struct master_config c;
	struct waiting_registration w = {0};
	pthread_t t;
	double t0;
	int err;

	tu_master_config(&c, SCHED_SS, 2, W, H, 60000);
	tu_set_maxit(&c, 64);
	w.m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w.m);
	w.rc = -1;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, register_inside, &w), 0);
	dls_sleep_ms(100);
	t0 = dls_now();
	master_close(w.m);
	CU_ASSERT(dls_now() - t0 < 2);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(w.rc, DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.why, "the master is closing"));
	master_destroy(w.m);
}

/* master_close ends the waits at the start gate (the head's, with a
 * deadline, and the one behind it, without), returns once both callers
 * left, and refuses every later caller. */
static void test_close_ends_waits(void)
{
	struct master_config c;
	struct master *m;
	const double speeds[] = {1, 1, 1};
	struct late_request q[2];
	pthread_t t[2];
	double v[3], t0;
	int ids[3], err;
	char why[MASTER_WHY_LEN] = "";

	tu_master_config(&c, SCHED_SS, 3, W, H, 60000); /* the gate waits for all 3 */
	tu_set_maxit(&c, 64);
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m, 3, speeds, ids, v);
	for (int k = 0; k < 2; k++) {
		q[k].m = m;
		q[k].r = tu_request(m, k, 1, 1, NULL, 0);
		q[k].rc = -1;
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t[k], NULL, ask_inside, &q[k]), 0);
	}
	dls_sleep_ms(100); /* both wait at the gate: slave 2 never asks */
	t0 = dls_now();
	master_close(m);
	CU_ASSERT(dls_now() - t0 < 2);
	for (int k = 0; k < 2; k++) {
		pthread_join(t[k], NULL);
		CU_ASSERT_EQUAL(q[k].rc, DLS_ESTATE);
	}
	CU_ASSERT_EQUAL(master_enter(m, why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "the master is closing"));
	master_close(m); /* idempotent */
	master_destroy(m);
}

/* WAIT while another slave holds work; DONE once every result is in. */
static void test_wait_then_done(void)
{
	struct master *m = make(2, SCHED_CSS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1, 1};
	struct dls_reply rep, last;
	struct dls_request r;
	double v[2];
	int ids[2];
	uint32_t seq = 0;
	char why[MASTER_WHY_LEN];

	register_all(m, 2, speeds, ids, v);
	r = tu_request(m, 1, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK); /* holds [0,3) */
	run_to_done(m, 0, &seq, &last); /* slave 0 takes everything else */
	CU_ASSERT_EQUAL(last.kind, DLS_REPLY_WAIT);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_ETIMEDOUT);
	{
		uint16_t *c = counts_for(0, 3);
		struct dls_result res = tu_counts(0, 3, c, 3 * H);

		r = tu_request(m, 1, 2, 1, &res, 1);
		CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
		CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
		free(c);
	}
	check_image_exact(m);
	r = tu_request(m, 0, ++seq, 1, NULL, 0);
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
	CU_ASSERT_EQUAL(master_wait_dismissed(m, 0), DLS_OK);
	/* a slave that heard DONE and left is not "lost" (a late stop() that
	 * finds it gone must not say so in the table) */
	CU_ASSERT_EQUAL(master_slave_lost(m, 0, "no answer to stop"), DLS_ESTATE);
	{
		struct dls_status st;

		CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &st), DLS_OK);
		CU_ASSERT_EQUAL(st.slaves[0].state, DLS_SLAVE_DONE);
		dls_status_free(&st);
	}
	master_destroy(m);
}

/* COLLECT_END: requests carry no results; the slave keeps them until the
 * loop is exhausted (WAIT), then submits everything and hears DONE. */
static void test_collect_end(void)
{
	struct master *m = make(1, SCHED_TSS, DLS_COLLECT_END);
	const double speeds[] = {1};
	struct dls_result res[64];
	struct dls_reply rep;
	struct dls_request r;
	size_t n = 0;
	double v[1];
	int ids[1];
	uint32_t seq = 0;
	char why[MASTER_WHY_LEN];

	register_all(m, 1, speeds, ids, v);
	do {
		r = tu_request(m, 0, ++seq, 1, NULL, 0);
		CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
		if (rep.kind == DLS_REPLY_WORK && n < 64)
			res[n++] = tu_counts(rep.start, rep.count,
						       counts_for(rep.start, rep.count),
						       (size_t)rep.count * H);
	} while (rep.kind == DLS_REPLY_WORK);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_ETIMEDOUT);
	CU_ASSERT_EQUAL(master_submit(m, 0, master_child_key(m, 0), res, n, why), DLS_OK);
	r = tu_request(m, 0, ++seq, 1, NULL, 0);
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
	check_image_exact(m);
	for (size_t i = 0; i < n; i++)
		free((void *)res[i].data);
	master_destroy(m);
}

/* A request of slave id with its results and the chunk times it reports. */
static struct dls_reply ask_measured(struct master *m, int id, uint32_t seq,
				     const struct dls_result *res, const struct dls_chunk_time *t,
				     size_t nt)
{
	struct dls_request r = tu_request(m, id, seq, 1, res, res ? 1 : 0);
	struct dls_reply rep = {0};
	char why[MASTER_WHY_LEN];

	r.measured = t;
	r.nmeasured = nt;
	CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
	return rep;
}

/* An adaptive scheme learns from the chunk times requests report, when each
 * request is served; nonsense is skipped.  AWF-C on 40 columns, 2 slaves:
 * nothing measured, 10 then ceil(30/4) = 8; slave 0 measured 10 columns in
 * 1 s (slave 1 counts as its mean): ceil(22/4) = 6; slave 1 measured 8 in
 * 1.6 s, half as fast: w_1 = 2/3, ceil(2/3 * 16/4) = 3; junk from slave 0
 * changes nothing: w_0 = 4/3, ceil(4/3 * 13/4) = 5. */
static void test_adaptive_learns(void)
{
	struct master *m = make(2, SCHED_AWF_C, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1, 1};
	static const struct dls_chunk_time t0 = {0, 10, 1.0, 1.0}, t1 = {10, 8, 1.6, 1.6};
	static const struct dls_chunk_time junk[] = {{18, 6, NAN, 1}, {-1, 5, 1, 1}, {18, 6, 2, 1}};
	struct dls_reply rep;
	struct dls_result res;
	uint16_t *c0 = counts_for(0, 10), *c1 = counts_for(10, 8), *c2 = counts_for(18, 6);
	double v[2];
	int ids[2];

	register_all(m, 2, speeds, ids, v);
	rep = ask_measured(m, 0, 1, NULL, NULL, 0);
	CU_ASSERT(rep.start == 0 && rep.count == 10);
	rep = ask_measured(m, 1, 1, NULL, NULL, 0);
	CU_ASSERT(rep.start == 10 && rep.count == 8);
	res = tu_counts(0, 10, c0, 10 * H);
	rep = ask_measured(m, 0, 2, &res, &t0, 1);
	CU_ASSERT(rep.start == 18 && rep.count == 6);
	res = tu_counts(10, 8, c1, 8 * H);
	rep = ask_measured(m, 1, 2, &res, &t1, 1);
	CU_ASSERT(rep.start == 24 && rep.count == 3);
	res = tu_counts(18, 6, c2, 6 * H);
	rep = ask_measured(m, 0, 3, &res, junk, 3);
	CU_ASSERT(rep.start == 27 && rep.count == 5);
	free(c0);
	free(c1);
	free(c2);
	master_destroy(m);
}

/* A slave that claims to compute far faster than it delivers is slowed:
 * slave 1 claims a microsecond a chunk; slave 0, honest, 3 ms a column.
 * While slave 1 holds each chunk 30 ms the master cannot tell its
 * computing from its exchanges (MASTER_RATE_FLOOR_S): not judged.  Once
 * its chunks take longer, its claims count as at most MASTER_RATE_TRUST
 * times what it delivered: believed it would weigh ~2 (all of AWF-C's
 * weight), slowed clearly less. */
static void test_liar_slowed_to_seen(void)
{
	struct master *m = make(2, SCHED_AWF_C, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1, 1};
	static const struct dls_chunk_time lies[] = {{10, 4, 1e-6, 1e-6}, {14, 4, 1e-6, 1e-6}};
	static const struct dls_chunk_time honest = {0, 10, 0.03, 0.03};
	struct dls_chunk_time lie;
	struct dls_reply rep, next;
	struct dls_result res;
	uint16_t *c0 = counts_for(0, 10), *c1 = counts_for(10, 8), *c2, *c3;
	double v[2];
	int ids[2];

	register_all(m, 2, speeds, ids, v);
	rep = ask_measured(m, 0, 1, NULL, NULL, 0);
	rep = ask_measured(m, 1, 1, NULL, NULL, 0);
	CU_ASSERT(rep.start == 10 && rep.count == 8);
	dls_sleep_ms(30);
	res = tu_counts(10, 8, c1, 8 * H);
	next = ask_measured(m, 1, 2, &res, lies, 2);
	res = tu_counts(0, 10, c0, 10 * H);
	ask_measured(m, 0, 2, &res, &honest, 1);
	CU_ASSERT_EQUAL(m->children[1].slowed, 0); /* one delivery: nothing seen yet */
	dls_sleep_ms(30);
	c2 = counts_for(next.start, next.count);
	res = tu_counts(next.start, next.count, c2, (size_t)next.count * H);
	lie = (struct dls_chunk_time){next.start, next.count, 1e-6, 1e-6};
	next = ask_measured(m, 1, 3, &res, &lie, 1);
	CU_ASSERT_EQUAL(m->children[1].slowed, 0); /* 30 ms a chunk: exchanges */
	CU_ASSERT_FATAL(next.count > 0);
	dls_sleep_ms(250);
	c3 = counts_for(next.start, next.count);
	res = tu_counts(next.start, next.count, c3, (size_t)next.count * H);
	lie = (struct dls_chunk_time){next.start, next.count, 1e-6, 1e-6};
	ask_measured(m, 1, 4, &res, &lie, 1);
	CU_ASSERT_EQUAL(m->children[1].slowed, 1); /* 140 ms a chunk: judged */
	/* as journaled: a hundred times longer than claimed, at least */
	CU_ASSERT(m->children[1].applied[0].compute_s > 1e-4);
	CU_ASSERT(sched_weight(m->sched, 1) < 1.99);
	free(c0);
	free(c1);
	free(c2);
	free(c3);
	master_destroy(m);
}

/* A slave's running totals are statistics: hostile ones are bounded as they
 * come in (no sum of them overflows: found by fuzz_twolevel), never refused. */
static void test_hostile_times_bounded(void)
{
	struct master *m = make(1, SCHED_SS, DLS_COLLECT_PIGGYBACK);
	const double speeds[] = {1};
	struct dls_request r;
	struct dls_reply rep;
	struct dls_status st;
	double v[1];
	int ids[1];
	char why[MASTER_WHY_LEN];

	register_all(m, 1, speeds, ids, v);
	r = tu_request(m, 0, 1, 1, NULL, 0);
	r.times.t_comp = NAN;
	r.times.t_comwait = -5;
	r.times.emul_bias = INFINITY;
	r.times.late_chunks = INT64_MAX;
	CU_ASSERT_EQUAL_FATAL(master_request(m, &r, &rep, why), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &st), DLS_OK);
	CU_ASSERT(st.slaves[0].times.t_comp == 0 && st.slaves[0].times.t_comwait == 0);
	CU_ASSERT(st.slaves[0].times.emul_bias == 0);
	CU_ASSERT_EQUAL(st.slaves[0].times.late_chunks, (int64_t)1 << 40);
	dls_status_free(&st);
	master_destroy(m);
}

int master_suite_add(void)
{
	CU_pSuite s = CU_add_suite("master core", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "registration and V_i", test_registration) ||
	       !CU_add_test(s, "ACPSA order reproduces DTSS", test_acpsa_order_dtss) ||
	       !CU_add_test(s, "refusals leave the state unharmed", test_refusals_leave_state) ||
	       !CU_add_test(s, "lost slave's work requeued, the slave taken back",
			    test_lost_slave_requeued) ||
	       !CU_add_test(s, "WAIT then DONE", test_wait_then_done) ||
	       !CU_add_test(s, "registration closed by its deadline: the gate waits",
			    test_registration_deadline_gate) ||
	       !CU_add_test(s, "a second request waits for its predecessor",
			    test_second_waits_for_predecessor) ||
	       !CU_add_test(s, "end-of-run collection", test_collect_end) ||
	       !CU_add_test(s, "a slave faster than it delivers is slowed to it",
			    test_liar_slowed_to_seen) ||
	       !CU_add_test(s, "an adaptive scheme learns from measured chunks",
			    test_adaptive_learns) ||
	       !CU_add_test(s, "hostile running totals bounded", test_hostile_times_bounded) ||
	       !CU_add_test(s, "closing ends every wait and refuses later callers",
			    test_close_ends_waits) ||
	       !CU_add_test(s, "closing ends a registration's wait for the others",
			    test_close_ends_registration);
}
