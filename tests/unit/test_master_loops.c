/*
 * A run of many loops in the master core, without sockets: requests wait
 * between loops, the next loop's first chunk carries its job (dls.loop),
 * results of a loop before are dropped and of a loop not begun refused,
 * every loop's results are exact, and DONE comes after the last loop.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "master.h"
#include "master_internal.h"
#include "master_testutil.h"
#include "suites.h"

#define W 30
#define H 8
#define LOOPS 3

/* The driver's side: after each loop but the last, checks its image and
 * starts the next (as dls-master's run loop does). */
struct driver {
	struct master *m;
	int automatic; /* cfg.auto_loops: the master starts each next loop itself */
	int exact[LOOPS];
	int next_rc[LOOPS];
};

static void *drive(void *arg)
{
	struct driver *d = arg;
	char why[MASTER_WHY_LEN];

	for (int k = 0; k < LOOPS; k++) {
		uint16_t *all = tu_mandel_counts(W, H, 64, 0, W);
		const struct result_store *rs;

		if (master_wait_loop_done(d->m, 10000) != DLS_OK) {
			free(all);
			return NULL;
		}
		rs = master_loop_results(d->m);
		d->exact[k] = rs->loop == (uint32_t)k &&
			      !memcmp(rs->data, all, (size_t)W * H * sizeof(uint16_t));
		free(all);
		if (d->automatic) /* the next loop runs already, or this was the last */
			d->next_rc[k] = master_loop_consumed(d->m) == (k + 1 < LOOPS) ? DLS_OK : -1;
		else
			d->next_rc[k] = master_loop_consumed(d->m) && k + 1 < LOOPS
						? master_next_loop(d->m, NULL, 0, why)
						: DLS_OK;
	}
	return NULL;
}

/* dls.loop in a job's parameters, or -1. */
static long job_loop(const struct dls_job *j)
{
	for (int i = 0; i < j->nparams; i++)
		if (!strcmp(j->params[i].name, "dls.loop"))
			return atol(j->params[i].value);
	return -1;
}

/* Sends the results of rep's chunk stamped with `loop`; the reply in *rep. */
static int deliver(struct master *m, uint32_t *seq, uint32_t loop, struct dls_reply *rep, char *why)
{
	uint16_t *c = tu_mandel_counts(W, H, 64, rep->start, rep->count);
	struct dls_result res = tu_counts(rep->start, rep->count, c, (size_t)rep->count * H);
	struct dls_request r;
	int rc;

	res.loop = loop;
	r = tu_request(m, 0, ++*seq, 1, &res, 1);
	rc = master_request(m, &r, rep, why);
	free(c);
	return rc;
}

static void run_loops(int automatic)
{
	struct master_config c;
	struct driver d = {0};
	struct dls_reply rep;
	struct dls_request r;
	struct dls_status st;
	pthread_t th;
	const char *name = "a";
	const double speed = 1;
	double v;
	int id, err, loops_seen = 1;
	uint64_t key;
	uint32_t seq = 0, loop = 0;
	char why[MASTER_WHY_LEN];

	tu_master_config(&c, SCHED_SS, 1, W, H, 1000);
	tu_set_maxit(&c, 64);
	c.start_timeout_ms = 0;
	c.wait_ms = 5;
	c.loops = LOOPS;
	c.auto_loops = automatic;
	d.automatic = automatic;
	d.m = master_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.m);
	CU_ASSERT_EQUAL_FATAL(master_register_group(d.m, 0, &name, &speed, 1, &id, &key, &v, why),
			      DLS_OK);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, drive, &d), 0);
	r = tu_request(d.m, 0, ++seq, 1, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(master_request(d.m, &r, &rep, why), DLS_OK);
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && !rep.has_job); /* loop 0: the registration's job */
	for (int guard = 0; guard < 400 && rep.kind == DLS_REPLY_WORK; guard++) {
		struct dls_reply given = rep;

		if (rep.has_job) { /* a new loop: its job, its number */
			CU_ASSERT_EQUAL(job_loop(&rep.job), (long)loop + 1);
			CU_ASSERT_EQUAL(rep.job.iterations, W);
			loop++;
			loops_seen++;
			/* a copy of loop 0's results of this range: dropped, the
			 * request served (nothing delivered by it) */
			CU_ASSERT_EQUAL_FATAL(deliver(d.m, &seq, loop - 1, &rep, why), DLS_OK);
			CU_ASSERT(rep.kind == DLS_REPLY_WORK || rep.kind == DLS_REPLY_WAIT);
			master_snapshot(d.m, &st);
			CU_ASSERT_EQUAL(st.delivered, 0);
			CU_ASSERT_EQUAL(st.loop, loop);
			dls_status_free(&st);
			/* results of a loop not begun: refused, the state unharmed */
			CU_ASSERT_EQUAL(deliver(d.m, &seq, loop + 1, &given, why), DLS_EINVAL);
			CU_ASSERT_PTR_NOT_NULL(strstr(why, "the run is in loop"));
			seq--; /* the refused request's seq is free again */
			/* the chunk given with the job, and the one after it, delivered */
			CU_ASSERT_EQUAL_FATAL(rep.kind, DLS_REPLY_WORK);
			{
				struct dls_reply second = rep;
				uint16_t *c1 = tu_mandel_counts(W, H, 64, given.start, given.count);
				uint16_t *c2 =
				    tu_mandel_counts(W, H, 64, second.start, second.count);
				struct dls_result two[2] = {tu_counts(given.start, given.count, c1,
								      (size_t)given.count * H),
							    tu_counts(second.start, second.count,
								      c2,
								      (size_t)second.count * H)};

				two[0].loop = two[1].loop = loop;
				r = tu_request(d.m, 0, ++seq, 1, two, 2);
				CU_ASSERT_EQUAL_FATAL(master_request(d.m, &r, &rep, why), DLS_OK);
				free(c1);
				free(c2);
			}
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(deliver(d.m, &seq, loop, &rep, why), DLS_OK);
	}
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
	CU_ASSERT_EQUAL(loops_seen, LOOPS);
	pthread_join(th, NULL);
	for (int k = 0; k < LOOPS; k++) {
		CU_ASSERT(d.exact[k]);
		CU_ASSERT_EQUAL(d.next_rc[k], DLS_OK);
	}
	CU_ASSERT_EQUAL(master_next_loop(d.m, NULL, 0, why), DLS_ESTATE); /* no loop left */
	master_destroy(d.m);
}

static void test_loops(void)
{
	run_loops(0);
}

static void test_loops_automatic(void)
{
	run_loops(1);
}

#define NSL 4

/* One of NSL slaves of a run of many loops, in a thread of its own:
 * delivers each chunk's results stamped with its loop, until DONE. */
struct loop_slave {
	struct master *m;
	int id, chunks, rc;
};

static void *loop_slave_run(void *arg)
{
	struct loop_slave *ls = arg;
	struct dls_reply rep;
	struct dls_request r = tu_request(ls->m, ls->id, 1, ls->id + 1, NULL, 0);
	uint32_t seq = 1, loop = 0;
	char why[MASTER_WHY_LEN];

	ls->rc = master_request(ls->m, &r, &rep, why);
	while (!ls->rc && rep.kind != DLS_REPLY_DONE) {
		uint16_t *c = NULL;
		struct dls_result res;

		if (rep.kind == DLS_REPLY_WORK) {
			if (rep.has_job)
				loop = (uint32_t)job_loop(&rep.job);
			c = tu_mandel_counts(W, H, 64, rep.start, rep.count);
			res = tu_counts(rep.start, rep.count, c, (size_t)rep.count * H);
			res.loop = loop;
			ls->chunks++;
		}
		r = tu_request(ls->m, ls->id, ++seq, ls->id + 1, c ? &res : NULL, c ? 1 : 0);
		ls->rc = master_request(ls->m, &r, &rep, why);
		free(c);
	}
	return NULL;
}

/* Several slaves, each loop's last result: the requests held to the loop's
 * end are served at the next start gate together, by the thread that opens
 * it; every loop is exact, and the journal holds them in the order they
 * were served: a master resumed from it replays the run to the same state. */
static void test_held_served_together(void)
{
	struct master_config c, back;
	struct driver d = {0};
	struct loop_slave ls[NSL];
	pthread_t th, sl[NSL];
	struct dls_status s1, s2;
	char why[MASTER_WHY_LEN], dir[64], cmd[128];
	int err;

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-loops-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	tu_master_config(&c, SCHED_GSS, NSL, W, H, 1000);
	tu_set_maxit(&c, 64);
	c.start_timeout_ms = 10000; /* each loop's gate waits for every first request */
	c.wait_ms = 10000;	    /* held until the loop ends */
	c.loops = LOOPS;
	c.auto_loops = 1;
	snprintf(c.journal_dir, sizeof(c.journal_dir), "%s", dir);
	d.automatic = 1;
	d.m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.m);
	for (int i = 0; i < NSL; i++) {
		char name[8];
		const char *np = name;
		const double speed = 1;
		uint64_t key;
		double v;

		snprintf(name, sizeof(name), "s%d", i);
		CU_ASSERT_EQUAL_FATAL(master_register_group(d.m, 0, &np, &speed, 1, &ls[i].id,
							     &key, &v, why),
				      DLS_OK);
		ls[i].m = d.m;
		ls[i].chunks = 0;
	}
	CU_ASSERT_EQUAL_FATAL(pthread_create(&th, NULL, drive, &d), 0);
	for (int i = 0; i < NSL; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&sl[i], NULL, loop_slave_run, &ls[i]), 0);
	for (int i = 0; i < NSL; i++) {
		pthread_join(sl[i], NULL);
		CU_ASSERT_EQUAL(ls[i].rc, DLS_OK);
	}
	pthread_join(th, NULL);
	for (int k = 0; k < LOOPS; k++)
		CU_ASSERT(d.exact[k]);
	CU_ASSERT(d.m->held_served_together > 0);
	master_snapshot(d.m, &s1);
	master_destroy(d.m);

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &back, why), DLS_OK);
	back.rejoin_ms = 60000;
	d.m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL(d.m); /* a replayed chunk unlike the journal's would refuse */
	if (d.m) {
		master_snapshot(d.m, &s2);
		CU_ASSERT_EQUAL(s2.loop, s1.loop);
		CU_ASSERT_EQUAL(s2.delivered, s1.delivered);
		for (int i = 0; i < NSL && i < s2.nslaves; i++)
			CU_ASSERT_EQUAL(s2.slaves[i].chunks, s1.slaves[i].chunks);
		dls_status_free(&s2);
		master_destroy(d.m);
	}
	dls_status_free(&s1);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

int master_loops_suite_add(void)
{
	CU_pSuite s = CU_add_suite("master core: many loops", NULL, NULL);

	return !s || !CU_add_test(s, "loops in one run: job, stale and future results", test_loops) ||
	       !CU_add_test(s, "each loop started by the master itself", test_loops_automatic) ||
	       !CU_add_test(s, "held requests served together at the gate, journaled in order",
			    test_held_served_together);
}
