/*
 * The hmaster core talking to an in-process master core.  Relay: merged
 * messages (a child hmaster's requests for four slaves at once) reproduce
 * flat DTSS in the same service order (docs/schemes.md 5 relay mode, 4.3's
 * example), also when the hmaster dies midway and a resumed one takes the
 * slaves back, and the image is exact.  Two-level: four slave threads behind
 * one hmaster that the master sees as one child; the image is exact, every
 * scheme, with a slave lost in the middle.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_time.h"
#include "hmaster.h"
#include "mandel.h"
#include "master.h"
#include "master_testutil.h"
#include "suites.h"
#include "work.h"

#define W 1000

static void test_relay_is_flat_dtss(void)
{
	struct master_config c;
	struct master *m;
	struct hmaster *h;
	struct hmaster_parent ops;
	const char *names[] = {"s0", "s1", "s2", "s3"};
	const double speeds[] = {1, 1, 2, 2};
	/* docs/schemes.md 4.3: I = 1000, A = (1,1,2,2), ACPSA order 2,3,0,1 */
	const int order[] = {2, 3, 0, 1};
	const int64_t want[] = {163, 151, 71, 68, 127, 115, 53, 50, 91, 79, 32};
	struct mandel_params mp = {W, 1, 256};
	struct dls_request reqs[4];
	struct dls_reply out[4];
	struct dls_result res[4];
	uint16_t *held[4] = {0};
	int64_t start[4] = {0}, count[4] = {0}, got[16];
	int ids[4], err, ngot = 0, done = 0;
	uint64_t keys[4];
	double vp[4];
	struct dls_job job;
	char why[MASTER_WHY_LEN];

	tu_master_config(&c, SCHED_DTSS, 4, W, 1, 1000);
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	ops = tu_master_parent(m);
	h = hmaster_create("h", HMASTER_RELAY, 4, 1000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL_FATAL(hmaster_register(h, 0, names, speeds, 4, ids, keys, vp, &job, why),
			      DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(vp[2], 2.0, 1e-12);
	/* the master's capabilities pass through; a wrong one is refused here */
	CU_ASSERT_EQUAL(keys[1], master_child_key(m, ids[1]));
	CU_ASSERT_EQUAL(hmaster_check_caller(h, ids[1], keys[1], why), DLS_OK);
	CU_ASSERT_EQUAL(hmaster_check_caller(h, ids[1], keys[0], why), DLS_EINVAL);
	memset(&reqs[0], 0, sizeof(reqs[0]));
	reqs[0].slave_id = ids[0];
	reqs[0].key = keys[1];
	reqs[0].seq = 1;
	reqs[0].acp = 1;
	CU_ASSERT_EQUAL(hmaster_request(h, reqs, 1, out, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "capability"));
	for (uint32_t seq = 1; !done && seq < 20; seq++) {
		if (seq == 3) { /* it dies; a resumed one takes its name, the slaves rejoin */
			struct hmaster *h2;
			double v;

			hmaster_destroy(h);
			h2 = hmaster_create("h", HMASTER_RELAY, 4, 1000, 0, &ops, &err);
			CU_ASSERT_PTR_NOT_NULL_FATAL(h2);
			CU_ASSERT_EQUAL(hmaster_rejoin(h2, ids[0], keys[0], &v, &job, why),
					DLS_ESTATE); /* not resumed: its slaves register */
			CU_ASSERT_EQUAL_FATAL(hmaster_resume(h2, NULL, why), DLS_OK);
			/* a relay decides when a slave registers (afresh if none rejoined yet) */
			CU_ASSERT_EQUAL(hmaster_may_register(h2, HMASTER_RELAY, why), DLS_OK);
			CU_ASSERT_EQUAL(hmaster_rejoin(h2, ids[0], keys[1], &v, &job, why),
					DLS_EINVAL); /* the master vouches for no stranger */
			CU_ASSERT_EQUAL(hmaster_resumed_idle(h2), 1); /* nobody back yet */
			CU_ASSERT_EQUAL(hmaster_wait_finished(h2, 0), DLS_ETIMEDOUT);
			for (int s = 3; s >= 0; s--) {
				CU_ASSERT_EQUAL(hmaster_rejoin(h2, ids[s], keys[s], &v, &job, why),
						DLS_OK);
				CU_ASSERT_DOUBLE_EQUAL(v, vp[s], 1e-12);
			}
			CU_ASSERT_EQUAL(job.iterations, W);
			CU_ASSERT_EQUAL(hmaster_rejoin(h2, ids[2], keys[3], &v, &job, why),
					DLS_EINVAL); /* its key is known here now */
			{ /* slaves rejoined: none registers */
				const char *nm = "late";
				double sp = 1, vpl;
				int idl;
				uint64_t kl;

				CU_ASSERT_EQUAL(hmaster_register(h2, 0, &nm, &sp, 1, &idl, &kl,
								 &vpl, &job, why),
						DLS_ESTATE);
				CU_ASSERT_PTR_NOT_NULL(strstr(why, "none registers"));
			}
			CU_ASSERT_EQUAL(hmaster_resumed_idle(h2), 0);
			h = h2;
		}
		for (int k = 0; k < 4; k++) {
			int s = order[k];

			memset(&reqs[k], 0, sizeof(reqs[k]));
			reqs[k].slave_id = ids[s];
			reqs[k].key = keys[s];
			reqs[k].seq = seq;
			reqs[k].acp = (int64_t)vp[s];
			if (held[s]) {
				res[k] = tu_counts(start[s], count[s], held[s],
							     (size_t)count[s]);
				reqs[k].results = &res[k];
				reqs[k].nresults = 1;
			}
		}
		CU_ASSERT_EQUAL_FATAL(hmaster_request(h, reqs, 4, out, why), DLS_OK);
		for (int k = 0; k < 4; k++) {
			int s = order[k];

			free(held[s]);
			held[s] = NULL;
			if (out[k].kind == DLS_REPLY_DONE)
				done = 1;
			if (out[k].kind != DLS_REPLY_WORK)
				continue;
			if (ngot < 16)
				got[ngot++] = out[k].count;
			start[s] = out[k].start;
			count[s] = out[k].count;
			held[s] = malloc((size_t)count[s] * sizeof(uint16_t));
			for (int64_t i = 0; i < count[s]; i++)
				mandel_column(&mp, (int32_t)(start[s] + i), &held[s][i]);
		}
	}
	CU_ASSERT_EQUAL(ngot, 11);
	for (int i = 0; i < 11 && i < ngot; i++)
		CU_ASSERT_EQUAL(got[i], want[i]);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	{
		uint16_t ref[W];

		for (int x = 0; x < W; x++)
			mandel_column(&mp, x, &ref[x]);
		CU_ASSERT_EQUAL(memcmp(tu_image(m), ref, sizeof(ref)), 0);
	}
	CU_ASSERT_EQUAL(hmaster_wait_finished(h, 0), DLS_OK);
	CU_ASSERT_EQUAL(hmaster_resumed_idle(h), 1);
	hmaster_destroy(h);
	master_destroy(m);
}

/* --- two-level ------------------------------------------------------------ */

struct tl_slave {
	struct hmaster *h;
	double speed;
	int vanish_at; /* it vanishes holding its chunk number vanish_at (0: never) */
	double give_up_at; /* told to wait past this time (dls_now), it fails (0: never) */
	int id, chunks, rc;
	uint64_t key;
	int64_t iterations;
	int comes_back; /* declared lost at vanish_at, it goes on (it was stopped) */
	uint32_t loop;	/* the loop it computes (a run of many loops) */
	int jobs;	/* jobs of a later loop it was given, each of a loop after */
	struct master *lose_parent_of; /* at its chunk lose_parent_at, this master */
	int lose_parent_at;	       /* declares the hmaster (child 0) lost */
};

/* A slave of the two-level hmaster: docs/schemes.md 4.1 with A_i = V_i. */
static void *tl_slave_main(void *arg)
{
	struct tl_slave *s = arg;
	struct mandel_params mp = {W, 1, 256};
	struct dls_job job;
	char why[HMASTER_WHY_LEN], name[] = "s";
	const char *names[] = {name};
	double vp;
	uint16_t *held = NULL;
	struct dls_result res;
	struct dls_reply out;
	int64_t start = 0, count = 0;

	s->rc = hmaster_register(s->h, 0, names, &s->speed, 1, &s->id, &s->key, &vp, &job, why);
	for (uint32_t seq = 1; !s->rc; seq++) {
		struct dls_request req;

		memset(&req, 0, sizeof(req));
		req.slave_id = s->id;
		req.key = s->key;
		req.seq = seq;
		req.acp = (int64_t)vp;

		if (held) {
			res = tu_counts(start, count, held, (size_t)count);
			res.loop = s->loop;
			req.results = &res;
			req.nresults = 1;
		}
		s->rc = hmaster_request(s->h, &req, 1, &out, why);
		free(held);
		held = NULL;
		if (s->rc || out.kind == DLS_REPLY_DONE)
			break;
		if (out.kind == DLS_REPLY_WAIT) {
			struct timespec ts = {0, 1000000};

			if (s->give_up_at && dls_now() > s->give_up_at) {
				s->rc = DLS_ETIMEDOUT;
				break;
			}

			nanosleep(&ts, NULL);
			continue;
		}
		if (out.has_job) { /* its first chunk of a later loop */
			const struct dls_param *lp =
			    work_params_loop(out.job.params, out.job.nparams);
			uint32_t k = lp ? (uint32_t)strtoul(lp->value, NULL, 10) : 0;

			s->jobs += k > s->loop && out.job.iterations == W;
			s->loop = k;
		}
		s->iterations += out.count; /* handed out to it */
		if (s->lose_parent_at && s->chunks + 1 == s->lose_parent_at)
			master_slave_lost(s->lose_parent_of, 0, "the test declared the hmaster lost");
		if (s->vanish_at && s->chunks + 1 == s->vanish_at) {
			hmaster_slave_lost(s->h, s->id, "the test made it vanish");
			if (!s->comes_back)
				break;
		}
		s->chunks++;
		start = out.start;
		count = out.count;
		held = malloc((size_t)count * sizeof(uint16_t));
		for (int64_t i = 0; i < count; i++)
			mandel_column(&mp, (int32_t)(start + i), &held[i]);
		{ /* a chunk takes time: requests are not all pending at once */
			struct timespec ts = {0, 2000000};

			nanosleep(&ts, NULL);
		}
	}
	free(held);
	return NULL;
}

/* The parent takes the next submit that carries results but its answer is
 * lost (DLS_EREMOTE after it was delivered). */
static int lose_next_submit;

static int lossy_submit(void *ctx, int id, uint64_t key, const struct dls_result *res, size_t n,
			char *why, size_t len)
{
	int rc = master_submit(ctx, id, key, res, n, why);

	if (rc == DLS_OK && n > 0 && lose_next_submit) {
		struct timespec ts = {0, 30000000}; /* more results reach the hmaster */

		lose_next_submit = 0;
		nanosleep(&ts, NULL);
		snprintf(why, len, "the test lost the answer");
		return DLS_EREMOTE;
	}
	return rc;
}

/* A master with one child, a two-level hmaster with four slave threads;
 * lose_one: a slave vanishes holding its first chunk (2: it is declared
 * lost but goes on, and is taken back); lose_answer: the answer to the
 * hmaster's first submit of results is lost; lose_hmaster: the master
 * declares the hmaster lost while its slaves compute (it calls again, is
 * taken back, and is given again the work it held). */
static void run_twolevel_with(enum sched_kind kind, int lose_one, int lose_answer,
			      int lose_hmaster)
{
	struct master_config c;
	struct master *m;
	struct hmaster *h;
	struct hmaster_parent ops;
	struct tl_slave sl[4] = {{.speed = 1}, {.speed = 1}, {.speed = 2}, {.speed = 2}};
	pthread_t tid[4];
	struct mandel_params mp = {W, 1, 256};
	struct dls_status snap;
	int64_t total = 0;
	int err;

	tu_master_config(&c, kind, 1, W, 1, 5000);
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	ops = tu_master_parent(m);
	if (lose_answer)
		ops.submit = lossy_submit;
	lose_next_submit = lose_answer;
	h = hmaster_create("h", HMASTER_TWOLEVEL, 4, 5000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL(hmaster_mode_of(h), HMASTER_TWOLEVEL);
	if (lose_one)
		sl[1].vanish_at = 1; /* every slave gets a first chunk: the start gate */
	if (lose_hmaster) {
		sl[2].lose_parent_of = m;
		sl[2].lose_parent_at = 3;
	}
	sl[1].comes_back = lose_one == 2;
	for (int i = 0; i < 4; i++) {
		sl[i].h = h;
		sl[i].give_up_at = dls_now() + 10; /* a run takes well under a second */
		pthread_create(&tid[i], NULL, tl_slave_main, &sl[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		CU_ASSERT_EQUAL(sl[i].rc, DLS_OK);
		total += sl[i].iterations;
	}
	CU_ASSERT_EQUAL(lose_next_submit, 0); /* the answer to lose was lost */
	CU_ASSERT_EQUAL_FATAL(master_wait_done(m, 5000), DLS_OK);
	{
		uint16_t ref[W];

		for (int x = 0; x < W; x++)
			mandel_column(&mp, x, &ref[x]);
		CU_ASSERT_EQUAL(memcmp(tu_image(m), ref, sizeof(ref)), 0);
	}
	/* the master saw one child, which took several chunks */
	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &snap), DLS_OK);
	CU_ASSERT_EQUAL(snap.nslaves, 1);
	CU_ASSERT(snap.slaves[0].chunks >= 2);
	CU_ASSERT_DOUBLE_EQUAL(snap.slaves[0].vpower, 6.0, 1e-9);
	CU_ASSERT(lose_hmaster ? snap.requeued > 0 : snap.requeued == 0);
	dls_status_free(&snap);
	if (lose_hmaster) {
		CU_ASSERT(total >= W); /* what it held was given again: some computed twice */
	} else if (lose_one) {
		CU_ASSERT(total > W); /* the lost chunk was handed out twice */
		if (lose_one == 2)    /* taken back, it was served again */
			CU_ASSERT(sl[1].chunks >= 2);
	} else {
		CU_ASSERT_EQUAL(total, W);
	}
	CU_ASSERT_EQUAL(hmaster_wait_finished(h, 5000), DLS_OK);
	hmaster_destroy(h);
	master_destroy(m);
}

static void run_twolevel(enum sched_kind kind, int lose_one, int lose_answer)
{
	run_twolevel_with(kind, lose_one, lose_answer, 0);
}

/* The master declares the two-level hmaster lost and takes it back: the
 * work it held comes back to it as new chunks, while its slaves still hold
 * and deliver parts of it, and its outbox still holds results of it; what
 * it already has stays where it is (no slave is refused for delivering an
 * iteration twice), what it had sent up is computed again, and the image
 * is exact. */
static void test_twolevel_taken_back(void)
{
	for (int rep = 0; rep < 5; rep++)
		run_twolevel_with(SCHED_DTSS, 0, 0, 1);
}

/* The driver of a master that starts each next loop itself: each loop's
 * image checked as it ends (exact: how many were). */
struct tl_driver {
	struct master *m;
	int loops, exact;
};

static void *tl_drive(void *arg)
{
	struct tl_driver *d = arg;
	struct mandel_params mp = {W, 1, 256};
	uint16_t ref[W];

	for (int x = 0; x < W; x++)
		mandel_column(&mp, x, &ref[x]);
	for (int k = 0; k < d->loops; k++) {
		const struct result_store *rs;

		if (master_wait_loop_done(d->m, 10000) != DLS_OK)
			return NULL;
		rs = master_loop_results(d->m);
		d->exact += rs->loop == (uint32_t)k && !memcmp(rs->data, ref, sizeof(ref));
		master_loop_consumed(d->m);
	}
	return NULL;
}

/* A run of three loops through a two-level hmaster: each slave gets the job
 * of loop k with its first chunk of it, each loop is exact, and the whole
 * loop is handed out once a loop. */
static void test_twolevel_loops(void)
{
	struct master_config c;
	struct master *m;
	struct hmaster *h;
	struct hmaster_parent ops;
	struct tl_slave sl[4] = {{.speed = 1}, {.speed = 1}, {.speed = 2}, {.speed = 2}};
	struct tl_driver d = {NULL, 3, 0};
	pthread_t tid[4], drv;
	int64_t total = 0;
	int err, told_all = 0;

	tu_master_config(&c, SCHED_DTSS, 1, W, 1, 5000);
	c.loops = d.loops;
	c.auto_loops = 1;
	c.wait_ms = 5;
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	d.m = m;
	ops = tu_master_parent(m);
	h = hmaster_create("h", HMASTER_TWOLEVEL, 4, 5000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&drv, NULL, tl_drive, &d), 0);
	for (int i = 0; i < 4; i++) {
		sl[i].h = h;
		sl[i].give_up_at = dls_now() + 20;
		pthread_create(&tid[i], NULL, tl_slave_main, &sl[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		CU_ASSERT_EQUAL(sl[i].rc, DLS_OK);
		total += sl[i].iterations;
		/* each job of a later loop than its own (a slave given no chunk
		 * in a loop is told that loop's job with its next chunk) */
		CU_ASSERT(sl[i].jobs <= d.loops - 1 && sl[i].loop <= (uint32_t)d.loops - 1);
		told_all += sl[i].jobs == d.loops - 1;
	}
	CU_ASSERT(told_all >= 1);
	pthread_join(drv, NULL);
	CU_ASSERT_EQUAL(d.exact, d.loops);
	CU_ASSERT_EQUAL(total, (int64_t)d.loops * W);
	CU_ASSERT_EQUAL(master_loop(m), (uint32_t)d.loops - 1);
	CU_ASSERT_EQUAL(hmaster_wait_finished(h, 5000), DLS_OK);
	hmaster_destroy(h);
	master_destroy(m);
}

static void test_twolevel_exact(void)
{
	run_twolevel(SCHED_DTSS, 0, 0);
	run_twolevel(SCHED_DFSS, 0, 0);
	run_twolevel(SCHED_DFISS, 0, 0);
	run_twolevel(SCHED_DTFSS, 0, 0);
}

static void test_twolevel_lost_slave(void)
{
	run_twolevel(SCHED_DTSS, 1, 0);
	run_twolevel(SCHED_DTSS, 2, 0); /* it comes back: taken back, exact */
}

/* A submit whose answer was lost is sent again with the same blocks: the
 * master refuses them as delivered, and the results that reached the
 * hmaster meanwhile go in the next one (sent with them, they were refused
 * whole and dropped, and the run never ended). */
static void test_twolevel_lost_submit_answer(void)
{
	run_twolevel(SCHED_DTSS, 0, 1);
}

/* register_cluster: V_i over the slowest slave of the run, at any depth. */
static void test_cluster_registration(void)
{
	struct master_config c;
	struct master *m;
	const double speeds[] = {2, 4};
	double vp[2];
	int id, err;
	char why[MASTER_WHY_LEN];
	struct dls_reply out;
	struct dls_request req;
	struct dls_result res;
	uint16_t counts[1] = {1};

	tu_master_config(&c, SCHED_DTSS, 1, W, 1, 1000);
	memset(&req, 0, sizeof(req));
	req.seq = 1;
	req.acp = 3;
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(master_register_cluster(m, 0, "h", speeds, 0, &id, &req.key, vp, why),
			DLS_EINVAL);
	CU_ASSERT_EQUAL_FATAL(master_register_cluster(m, 0, "h", speeds, 2, &id, &req.key, vp, why),
			      DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(vp[0], 1.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(vp[1], 2.0, 1e-12);
	/* A = 3: the first chunk is the first 3 slots of TSS with p = 3 */
	CU_ASSERT_EQUAL_FATAL(master_request(m, &req, &out, why), DLS_OK);
	CU_ASSERT_EQUAL(out.kind, DLS_REPLY_WORK);
	/* a two-level hmaster may ask again before delivering (it prefetches) */
	req.seq = 2;
	res = tu_counts(out.start, 1, counts, 1);
	req.results = &res;
	req.nresults = 1;
	CU_ASSERT_EQUAL(master_request(m, &req, &out, why), DLS_OK);
	CU_ASSERT_EQUAL(out.kind, DLS_REPLY_WORK);
	master_destroy(m);
}

struct waiting_registration {
	struct hmaster *h;
	int rc, left;
	char why[HMASTER_WHY_LEN];
};

/* Registers one slave as a servant does (entered, the call, left), taking
 * 200 ms to make its reply before it leaves. */
static void *register_inside(void *arg)
{
	struct waiting_registration *w = arg;
	const char *names[] = {"s0"};
	const double speeds[] = {1};
	struct dls_job job;
	uint64_t key;
	double vp;
	int id;

	w->rc = hmaster_enter(w->h, w->why);
	if (w->rc == DLS_OK) {
		w->rc = hmaster_register(w->h, 0, names, speeds, 1, &id, &key, &vp, &job, w->why);
		dls_sleep_ms(200);
		w->left = 1;
		hmaster_leave(w->h);
	}
	return NULL;
}

/* hmaster_destroy while a caller waits inside (a registration waiting for
 * the other slave): the caller is refused and has left before the core is
 * freed, in both modes. */
static void test_destroy_waits_for_callers(void)
{
	for (int mode = 0; mode < 2; mode++) {
		struct master_config c;
		struct master *m;
		struct hmaster_parent ops;
		struct waiting_registration w = {0};
		pthread_t t;
		int err;

		tu_master_config(&c, SCHED_DTSS, 2, W, 1, 60000);
		m = master_create(&c, &err, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		ops = tu_master_parent(m);
		w.h = hmaster_create("h", mode ? HMASTER_TWOLEVEL : HMASTER_RELAY, 2, 60000, 0,
				     &ops, &err);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w.h);
		w.rc = -1;
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, register_inside, &w), 0);
		dls_sleep_ms(100); /* it waits for the second slave */
		hmaster_destroy(w.h);
		CU_ASSERT_EQUAL(w.left, 1); /* it was not freed under the caller */
		pthread_join(t, NULL);
		CU_ASSERT_NOT_EQUAL(w.rc, DLS_OK);
		CU_ASSERT_NOT_EQUAL(w.rc, -1);
		CU_ASSERT_PTR_NOT_NULL(strstr(w.why, "stopping"));
		master_destroy(m);
	}
}

struct one_registration {
	struct hmaster *h;
	uint64_t caller;
	const char *name;
	int rc, id;
	uint64_t key;
	double vp;
	char why[HMASTER_WHY_LEN];
};

static void *register_one(void *arg)
{
	struct one_registration *r = arg;
	const char *names[] = {r->name};
	const double speeds[] = {1};
	struct dls_job job;

	r->rc = hmaster_register(r->h, r->caller, names, speeds, 1, &r->id, &r->key, &r->vp, &job,
				 r->why);
	return NULL;
}

/* A master and, below it in this process, an hmaster of mode 0 (relay: the
 * master counts its 2 slaves) or 1 (two-level: its 1 child) awaiting
 * `below` slaves, each window a minute.  *m set; the hmaster returned. */
static struct hmaster *hmaster_below_master(int mode, int below, struct master **m)
{
	struct master_config c;
	struct hmaster_parent ops;
	struct hmaster *h;
	int err;

	tu_master_config(&c, SCHED_DTSS, mode ? 1 : 2, W, 1, 60000);
	*m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(*m);
	ops = tu_master_parent(*m); /* copied by hmaster_create */
	h = hmaster_create("h", mode ? HMASTER_TWOLEVEL : HMASTER_RELAY, below, 60000, 0, &ops,
			   &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	return h;
}

/* A slave below that will not come is withdrawn: the hmaster registers
 * with its parent as soon as the other is in (its window is a minute), in
 * both modes; a second withdrawal, one that would leave nothing to wait
 * for, and one after the registration went up are refused. */
static void test_withdraw_below(void)
{
	for (int mode = 0; mode < 2; mode++) {
		struct master *m;
		struct hmaster *h = hmaster_below_master(mode, 3, &m);
		struct one_registration a = {0};
		char why[HMASTER_WHY_LEN];
		double t0 = dls_now();

		CU_ASSERT_EQUAL(hmaster_withdraw(h, "gone", why), DLS_OK);
		CU_ASSERT_EQUAL(hmaster_withdraw(h, "gone2", why), DLS_OK);
		CU_ASSERT_EQUAL(hmaster_withdraw(h, "gone3", why), DLS_ESTATE); /* none left */
		if (!mode)
			CU_ASSERT_EQUAL(master_withdraw(m, "gone", why), DLS_OK);
		a.h = h;
		a.name = "a";
		a.caller = 1;
		register_one(&a); /* the other is in: it returns once registered above */
		CU_ASSERT_EQUAL(a.rc, DLS_OK);
		CU_ASSERT(dls_now() - t0 < 30); /* not the window of a minute */
		CU_ASSERT_EQUAL(hmaster_withdraw(h, "late", why), DLS_ESTATE);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "registration is over"));
		hmaster_destroy(h);
		master_destroy(m);
	}
}

/* A slave whose registration call timed out on its side asks again while
 * the first call still waits for the other slave: both calls get the same
 * id and capability, and the other slave its place (before, the second
 * call took a place of its own and the other slave was refused), in both
 * modes.  Another process of the same name is not it. */
static void test_register_asked_again(void)
{
	for (int mode = 0; mode < 2; mode++) {
		struct master *m;
		struct hmaster *h = hmaster_below_master(mode, 2, &m);
		struct one_registration r[3] = {{.caller = 5, .name = "a"},
						{.caller = 5, .name = "a"},
						{.caller = 6, .name = "b"}};
		pthread_t t[3];
		for (int i = 0; i < 3; i++) {
			r[i].h = h;
			r[i].rc = -1;
			CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, register_one, &r[i]), 0);
			dls_sleep_ms(50); /* in that order */
		}
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(r[0].rc, DLS_OK);
		CU_ASSERT_EQUAL(r[1].rc, DLS_OK);
		CU_ASSERT_EQUAL(r[2].rc, DLS_OK);
		CU_ASSERT_EQUAL(r[1].id, r[0].id);
		CU_ASSERT_EQUAL(r[1].key, r[0].key);
		CU_ASSERT_DOUBLE_EQUAL(r[1].vp, r[0].vp, 0);
		CU_ASSERT_NOT_EQUAL(r[2].id, r[0].id);
		{ /* asked again once answered; another process of that name */
			struct one_registration again = {
			    .h = h, .caller = 5, .name = "a", .rc = -1};
			struct one_registration other = {
			    .h = h, .caller = 7, .name = "a", .rc = -1};

			register_one(&again);
			CU_ASSERT_EQUAL(again.rc, DLS_OK);
			CU_ASSERT_EQUAL(again.key, r[0].key);
			register_one(&other);
			CU_ASSERT_EQUAL(other.rc, DLS_ESTATE);
		}
		hmaster_destroy(h);
		master_destroy(m);
	}
}

/* Requests of child 0 (its two slaves' A_i summed), the first with the
 * results of `had`, each with the next *seq, until one is not WAIT: that
 * reply, or the failure. */
static int ask(struct hmaster *h, int id, uint64_t key, uint32_t *seq, const struct dls_reply *had,
	       struct dls_reply *out, char *why)
{
	struct mandel_params mp = {W, 1, 256};
	struct dls_request req;
	struct dls_result res;
	uint16_t col[W];
	int rc;

	memset(&req, 0, sizeof(req));
	req.slave_id = id;
	req.key = key;
	req.acp = 3;
	if (had && had->kind == DLS_REPLY_WORK) {
		for (int64_t i = 0; i < had->count; i++)
			mandel_column(&mp, (int32_t)(had->start + i), &col[i]);
		res = tu_counts(had->start, had->count, col, (size_t)had->count);
		req.results = &res;
		req.nresults = 1;
	}
	do {
		req.seq = (*seq)++;
		rc = hmaster_request(h, &req, 1, out, why);
		req.nresults = 0; /* delivered, or refused */
	} while (!rc && out->kind == DLS_REPLY_WAIT);
	return rc;
}

/* A two-level hmaster keeps a record (0600) once registered; it dies
 * holding work; a successor resumes from the record: the master requeues
 * what the dead one held and takes it back, its child rejoins with its
 * capability (another is refused), its results of the old work are
 * dropped, and the image is exact.  Bad records are refused with reasons. */
static void test_twolevel_resume(void)
{
	struct master_config c;
	struct master *m;
	struct hmaster *h;
	struct hmaster_parent ops;
	const char *names[] = {"pair"};
	const double speeds[] = {1, 2};
	struct dls_reply out, held;
	struct dls_job job;
	struct dls_status st;
	struct mandel_params mp = {W, 1, 256};
	char dir[64], path[128], bad[160], why[HMASTER_WHY_LEN];
	double vp[2], v;
	uint64_t key;
	uint32_t seq = 1;
	struct stat sb;
	FILE *f;
	int id, err, rc;

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-record-%d", (int)getpid());
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/h.record", dir);
	tu_master_config(&c, SCHED_DTSS, 1, W, 1, 1000);
	m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	ops = tu_master_parent(m);
	h = hmaster_create("h", HMASTER_TWOLEVEL, 2, 1000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	hmaster_keep_record(h, path);
	CU_ASSERT_EQUAL_FATAL(hmaster_register(h, 0, names, speeds, 2, &id, &key, vp, &job, why),
			      DLS_OK);
	CU_ASSERT_EQUAL_FATAL(stat(path, &sb), 0);
	CU_ASSERT_EQUAL(sb.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL_FATAL(ask(h, id, key, &seq, NULL, &held, why), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(held.kind, DLS_REPLY_WORK);
	hmaster_destroy(h); /* it dies holding that chunk */

	/* refused: no record, another hmaster's, a tampered one; a relay's */
	h = hmaster_create("h", HMASTER_TWOLEVEL, 2, 1000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	snprintf(bad, sizeof(bad), "%s/none", dir);
	CU_ASSERT_EQUAL(hmaster_resume(h, bad, why), DLS_ENOENT);
	CU_ASSERT_EQUAL(hmaster_resume(h, NULL, why), DLS_EINVAL);
	snprintf(bad, sizeof(bad), "%s/bad.record", dir);
	f = fopen(bad, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("{\"name\": \"h\", \"slaves\": 2, \"leaves\": 2, \"id\": 0, \"key\": \"xyz\", "
	      "\"children\": []}",
	      f);
	fclose(f);
	CU_ASSERT_EQUAL(hmaster_resume(h, bad, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "'key': not a capability"));
	hmaster_destroy(h);
	h = hmaster_create("other", HMASTER_TWOLEVEL, 2, 1000, 0, &ops, &err);
	CU_ASSERT_EQUAL(hmaster_resume(h, path, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not this one's"));
	hmaster_destroy(h);

	h = hmaster_create("h", HMASTER_TWOLEVEL, 2, 1000, 0, &ops, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(h);
	CU_ASSERT_EQUAL_FATAL(hmaster_resume(h, path, why), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &st), DLS_OK);
	CU_ASSERT(st.requeued >= held.count); /* what the dead one held (and prefetched) */
	dls_status_free(&st);
	CU_ASSERT_EQUAL(hmaster_may_register(h, HMASTER_TWOLEVEL, why), DLS_ESTATE);
	CU_ASSERT_EQUAL(hmaster_rejoin(h, id, key ^ 1, &v, &job, why), DLS_EINVAL);
	CU_ASSERT_EQUAL(hmaster_resumed_idle(h), 1);
	CU_ASSERT_EQUAL(hmaster_rejoin(h, id, key, &v, &job, why), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(v, vp[0] + vp[1], 1e-12);
	CU_ASSERT_EQUAL(job.iterations, W);
	/* it resends its last request (same seq) with the old chunk's results:
	 * dropped, and it is served fresh */
	seq = 1;
	for (rc = ask(h, id, key, &seq, &held, &out, why); !rc && out.kind == DLS_REPLY_WORK;
	     rc = ask(h, id, key, &seq, &out, &out, why))
		CU_ASSERT_EQUAL(hmaster_resumed_idle(h), 0);
	CU_ASSERT_EQUAL(rc, DLS_OK);
	CU_ASSERT_EQUAL(out.kind, DLS_REPLY_DONE);
	CU_ASSERT_EQUAL(hmaster_wait_finished(h, 5000), DLS_OK);
	CU_ASSERT_EQUAL(master_wait_done(m, 5000), DLS_OK);
	{
		uint16_t ref[W];

		for (int x = 0; x < W; x++)
			mandel_column(&mp, x, &ref[x]);
		CU_ASSERT_EQUAL(memcmp(tu_image(m), ref, sizeof(ref)), 0);
	}
	hmaster_destroy(h);
	master_destroy(m);
	unlink(path);
	unlink(bad);
	rmdir(dir);
}

int hmaster_suite_add(void)
{
	CU_pSuite s = CU_add_suite("hmaster core (relay, two-level)", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "relay reproduces flat DTSS", test_relay_is_flat_dtss) ||
	       !CU_add_test(s, "two-level: many loops, the job passed on, each exact",
			    test_twolevel_loops) ||
	       !CU_add_test(s, "two-level: exact image, every distributed scheme",
			    test_twolevel_exact) ||
	       !CU_add_test(s, "two-level: resumed from its record, its child rejoins",
			    test_twolevel_resume) ||
	       !CU_add_test(s, "two-level: a submit whose answer was lost, sent again",
			    test_twolevel_lost_submit_answer) ||
	       !CU_add_test(s,
			    "two-level: a lost slave's chunk goes to a sibling; it is taken back",
			    test_twolevel_lost_slave) ||
	       !CU_add_test(s, "two-level: taken back by its parent, given again what it held",
			    test_twolevel_taken_back) ||
	       !CU_add_test(s, "register_cluster: V over the slowest slave; prefetch allowed",
			    test_cluster_registration) ||
	       !CU_add_test(s, "a registration asked again: the same place, both modes",
			    test_register_asked_again) ||
	       !CU_add_test(s, "a slave withdrawn below: the hmaster goes on, both modes",
			    test_withdraw_below) ||
	       !CU_add_test(s, "destroyed with a caller inside: it is refused first",
			    test_destroy_waits_for_callers);
}
