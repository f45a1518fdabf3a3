/*
 * The master's journal without sockets: a run driven by a fixed sequence
 * of requests is "crashed" part way (the master destroyed), resumed from
 * its journal, and driven on; every reply, before and after, must be the
 * one a master that never crashed gives to the same sequence, the retried
 * last request must get its journaled reply, and the image must be exact.
 * Also: the configuration read back, a lost slave and a submit replayed,
 * rejoining with the right and a wrong capability, and journals that must
 * be refused (existing, absent, of another run, tampered with).
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dls/err.h"
#include "journal.h"
#include "journal_testutil.h"
#include "mandel.h"
#include "master.h"
#include "master_testutil.h"
#include "suites.h"

#define W 200
#define H 8
#define NS 3

static char dir[64];

static void fresh_dir(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-journal-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void config(struct master_config *c, enum sched_kind kind, int journal)
{
	tu_master_config(c, kind, NS, W, H, 1000);
	tu_set_maxit(c, 64);
	c->start_timeout_ms = 0;
	c->rejoin_ms = 60000;
	if (journal)
		snprintf(c->journal_dir, sizeof(c->journal_dir), "%s", dir);
}

/* What the driver of one run keeps per slave: its last chunk and seq. */
struct driver {
	uint32_t seq[NS];
	int64_t start[NS], count[NS];
	int done[NS];
	struct dls_reply last[NS]; /* each slave's last reply */
	int next;		   /* the slave whose turn it is */
	char trace[8192];	   /* every reply, in order */
	size_t len;
};

/* Correct counts for [start, start + count), natural order (maxit 64). */
#define counts_for(start, count) tu_mandel_counts(W, H, 64, start, count)

/* Slave s asks (A_i = s + 1) with the results of its last chunk. */
static int step(struct master *m, struct driver *d, int s, int retry, struct dls_reply *rep)
{
	uint16_t *c = counts_for(d->start[s], d->count[s]);
	struct dls_result res = tu_counts(d->start[s], d->count[s], c, (size_t)d->count[s] * H);
	struct dls_request r;
	char why[MASTER_WHY_LEN];
	int rc;

	if (!retry)
		d->seq[s]++;
	r = tu_request(m, s, d->seq[s], s + 1, &res, d->count[s] ? 1 : 0);
	rc = master_request(m, &r, rep, why);
	free(c);
	if (rc)
		return rc;
	if (!retry) {
		d->len += (size_t)snprintf(d->trace + d->len, sizeof(d->trace) - d->len,
					   "%d:%d[%lld,%lld) ", s, (int)rep->kind,
					   (long long)rep->start, (long long)rep->count);
		d->start[s] = d->count[s] = 0;
		if (rep->kind == DLS_REPLY_WORK) {
			d->start[s] = rep->start;
			d->count[s] = rep->count;
		}
		d->done[s] = rep->kind == DLS_REPLY_DONE;
		d->last[s] = *rep;
	}
	return DLS_OK;
}

static void register_all(struct master *m)
{
	const char *names[NS] = {"a", "b", "c"};
	const double speeds[NS] = {1, 2, 3};
	uint64_t keys[NS];
	double v[NS];
	int ids[NS];
	char why[MASTER_WHY_LEN];

	CU_ASSERT_EQUAL_FATAL(master_register_group(m, 0, names, speeds, NS, ids, keys, v, why),
			      DLS_OK);
}

/* Drives the run for `steps` requests (round robin over the slaves not done); 0: to the end. */
static void drive(struct master *m, struct driver *d, int steps)
{
	struct dls_reply rep;

	for (int k = 0; steps == 0 || k < steps; k++) {
		int left = 0;

		for (int i = 0; i < NS; i++)
			left += !d->done[i];
		if (!left)
			break;
		while (d->done[d->next])
			d->next = (d->next + 1) % NS;
		CU_ASSERT_EQUAL_FATAL(step(m, d, d->next, 0, &rep), DLS_OK);
		d->next = (d->next + 1) % NS;
	}
}

static void check_exact(struct master *m)
{
	uint16_t *c = counts_for(0, W);

	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	CU_ASSERT_EQUAL(memcmp(tu_image(m), c, (size_t)W * H * sizeof(*c)), 0);
	free(c);
}

/* A crash after `at` requests, in a run of scheme kind, against no crash. */
static void crash_and_resume(enum sched_kind kind, int at)
{
	struct master_config c, back;
	struct master *m;
	struct driver ref = {0}, d = {0};
	struct dls_reply again, before;
	struct dls_status s1, s2;
	char why[MASTER_WHY_LEN];
	int err, last;

	fresh_dir();
	config(&c, kind, 0);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m);
	drive(m, &ref, 0);
	check_exact(m);
	master_destroy(m);

	config(&c, kind, 1);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m);
	drive(m, &d, at);
	last = (d.next + NS - 1) % NS; /* the slave of the last request */
	before = d.last[last];
	master_snapshot(m, &s1);
	master_destroy(m); /* the crash: everything acknowledged is journaled */

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &back, why), DLS_OK);
	CU_ASSERT_EQUAL(back.nslaves, NS);
	CU_ASSERT_EQUAL(back.sched.kind, kind);
	CU_ASSERT_STRING_EQUAL(back.workload, "mandelbrot");
	CU_ASSERT_EQUAL(back.nparams, c.nparams);
	/* not journaled, but not zero: a second request that overtook its
	 * predecessor waits for it in a resumed run too */
	CU_ASSERT_EQUAL(back.early_wait_ms, MASTER_EARLY_WAIT_MS);
	back.rejoin_ms = 60000;
	m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT(master_resumed(m));
	master_snapshot(m, &s2);
	CU_ASSERT_EQUAL(s2.assigned, s1.assigned);
	CU_ASSERT_EQUAL(s2.delivered, s1.delivered);
	CU_ASSERT_EQUAL(s2.recomputations, s1.recomputations);
	CU_ASSERT_EQUAL(s2.nslaves, s1.nslaves);
	for (int i = 0; i < s1.nslaves && i < s2.nslaves; i++) {
		CU_ASSERT_EQUAL(s2.slaves[i].chunks, s1.slaves[i].chunks);
		CU_ASSERT_EQUAL(s2.slaves[i].held, s1.slaves[i].held);
		CU_ASSERT_EQUAL(s2.slaves[i].state, s1.slaves[i].state);
	}
	dls_status_free(&s1);
	dls_status_free(&s2);
	/* the slaves rejoin: the right capability only */
	for (int i = 0; i < NS; i++) {
		double v;

		CU_ASSERT(master_awaiting_rejoin(m, i));
		CU_ASSERT_EQUAL(master_rejoin(m, i, master_child_key(m, i) ^ 1, &v, why), DLS_EINVAL);
		CU_ASSERT_EQUAL(master_rejoin(m, i, master_child_key(m, i), &v, why), DLS_OK);
		CU_ASSERT(!master_awaiting_rejoin(m, i));
	}
	/* the last request, retried (its reply was lost with the master) */
	CU_ASSERT_EQUAL(step(m, &d, last, 1, &again), DLS_OK);
	CU_ASSERT_EQUAL(again.kind, before.kind);
	CU_ASSERT(again.kind != DLS_REPLY_WORK ||
		  (again.start == before.start && again.count == before.count));
	drive(m, &d, 0);
	CU_ASSERT_STRING_EQUAL(d.trace, ref.trace); /* as if nothing happened */
	check_exact(m);
	master_destroy(m);
}

static void test_resume_dtss(void)
{
	crash_and_resume(SCHED_DTSS, 4);
}

static void test_resume_fss_late(void)
{
	crash_and_resume(SCHED_FSS, 17);
}

static void test_resume_gss_first(void)
{
	crash_and_resume(SCHED_GSS, 1);
}

/* A lost slave's requeue and results sent by submit survive a resume. */
static void test_resume_lost_and_submit(void)
{
	struct master_config c;
	struct master *m;
	struct driver d = {0};
	struct dls_reply rep;
	struct dls_status s;
	char why[MASTER_WHY_LEN];
	int err;

	fresh_dir();
	config(&c, SCHED_GSS, 1);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m);
	drive(m, &d, 3); /* each slave holds a chunk */
	{ /* slave 1 sends its chunk outside a request */
		uint16_t *cs = counts_for(d.start[1], d.count[1]);
		struct dls_result res = tu_counts(d.start[1], d.count[1], cs, (size_t)d.count[1] * H);

		CU_ASSERT_EQUAL(master_submit(m, 1, master_child_key(m, 1), &res, 1, why), DLS_OK);
		free(cs);
		d.start[1] = d.count[1] = 0;
	}
	CU_ASSERT_EQUAL(master_slave_lost(m, 2, "test"), DLS_OK);
	d.done[2] = 1;
	master_destroy(m);

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &c, why), DLS_OK);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.slaves[2].state, DLS_SLAVE_LOST);
	CU_ASSERT(s.requeued > 0);
	CU_ASSERT_EQUAL(s.slaves[1].held, 0);
	dls_status_free(&s);
	/* it comes back with its lost chunk's results: taken back, they are
	 * dropped, it is served fresh; that is journaled */
	CU_ASSERT_EQUAL(step(m, &d, 2, 0, &rep), DLS_OK);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WORK);
	d.done[2] = 0;
	master_destroy(m);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.slaves[2].state, DLS_SLAVE_ACTIVE);
	CU_ASSERT_EQUAL(s.slaves[2].held, d.count[2]);
	dls_status_free(&s);
	drive(m, &d, 0);
	check_exact(m);
	master_destroy(m);
}

/* The end of a resumed run, in a thread: the slaves to stop, and how many
 * slaves had heard DONE again when it returned. */
struct ender {
	struct master *m;
	size_t nstop;
	int heard, heard_then;
	pthread_mutex_t lock;
};

static void *end_run(void *arg)
{
	struct ender *e = arg;
	int ids[NS];

	e->nstop = master_slaves_to_stop(e->m, ids, NS);
	pthread_mutex_lock(&e->lock);
	e->heard_then = e->heard;
	pthread_mutex_unlock(&e->lock);
	return NULL;
}

/*
 * A master dies after journaling that it told every slave DONE, before
 * the replies left: the resumed master's end waits for the slaves to
 * rejoin and hear DONE again (it returned at once, and the slaves found no
 * master); slaves that never come back hold it only within its window.
 */
static void test_done_owed_after_resume(void)
{
	struct master_config c, back;
	struct ender e = {.lock = PTHREAD_MUTEX_INITIALIZER};
	struct driver d = {0};
	struct dls_reply rep;
	char why[MASTER_WHY_LEN];
	pthread_t t;
	int err, ids[NS];

	fresh_dir();
	config(&c, SCHED_GSS, 1);
	e.m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
	register_all(e.m);
	drive(e.m, &d, 0);
	check_exact(e.m);
	master_destroy(e.m); /* every DONE journaled; say none was heard */

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &back, why), DLS_OK);
	back.rejoin_ms = 60000;
	e.m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, end_run, &e), 0);
	usleep(50000); /* the end is waiting by now */
	for (int i = 0; i < NS; i++) {
		double v;

		CU_ASSERT_EQUAL(master_rejoin(e.m, i, master_child_key(e.m, i), &v, why), DLS_OK);
		CU_ASSERT_EQUAL(step(e.m, &d, i, 1, &rep), DLS_OK); /* the lost reply, again */
		CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
		pthread_mutex_lock(&e.lock);
		e.heard++;
		pthread_mutex_unlock(&e.lock);
	}
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(e.heard_then, NS);
	CU_ASSERT_EQUAL(e.nstop, 0);
	master_destroy(e.m);

	back.rejoin_ms = 300; /* none comes back: the end ends with the window */
	e.m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e.m);
	CU_ASSERT_EQUAL(master_slaves_to_stop(e.m, ids, NS), 0);
	master_destroy(e.m);
}

/*
 * A registration whose answer was lost with the master (it died after its
 * journal recorded the registration): the same process registering again
 * with the resumed master gets the same ids and capabilities, nothing new
 * recorded; another process, one that acted, or a different speed does not.
 */
static void test_register_again_after_resume(void)
{
	const char *names[NS] = {"a", "b", "c"};
	const double speeds[NS] = {1, 2, 3}, other[NS] = {1, 2, 4};
	const uint64_t caller = 0xc0ffee;
	struct master_config c;
	struct master *m;
	struct driver d = {0};
	struct dls_status s;
	uint64_t keys[NS], again[NS];
	double v[NS], v2[NS];
	int ids[NS], ids2[NS], err;
	char why[MASTER_WHY_LEN];

	fresh_dir();
	config(&c, SCHED_GSS, 1);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(
	    master_register_group(m, caller, names, speeds, NS, ids, keys, v, why), DLS_OK);
	/* asked again before anyone acted, in the same master: the same */
	CU_ASSERT_EQUAL(master_register_group(m, caller, names, speeds, NS, ids2, again, v2, why),
			DLS_OK);
	CU_ASSERT_EQUAL(memcmp(ids2, ids, sizeof(ids)), 0);
	CU_ASSERT_EQUAL(memcmp(again, keys, sizeof(keys)), 0);
	master_destroy(m); /* the crash, before any answer arrived */

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &c, why), DLS_OK);
	c.rejoin_ms = 60000;
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT(master_awaiting_rejoin(m, 0));
	/* another process, or the same one with other speeds: one too many */
	CU_ASSERT_EQUAL(
	    master_register_group(m, caller + 1, names, speeds, NS, ids2, again, v2, why),
	    DLS_ESTATE);
	CU_ASSERT_EQUAL(master_register_group(m, caller, names, other, NS, ids2, again, v2, why),
			DLS_ESTATE);
	CU_ASSERT_EQUAL(master_register_group(m, 0, names, speeds, NS, ids2, again, v2, why),
			DLS_ESTATE);
	/* the same process: its ids, capabilities and V_i again */
	CU_ASSERT_EQUAL(master_register_group(m, caller, names, speeds, NS, ids2, again, v2, why),
			DLS_OK);
	CU_ASSERT_EQUAL(memcmp(ids2, ids, sizeof(ids)), 0);
	CU_ASSERT_EQUAL(memcmp(again, keys, sizeof(keys)), 0);
	CU_ASSERT_EQUAL(memcmp(v2, v, sizeof(v)), 0);
	CU_ASSERT(!master_awaiting_rejoin(m, 0));
	drive(m, &d, 1); /* slave 0 acts: its registration is used */
	CU_ASSERT_EQUAL(master_register(m, caller, "a", 1, ids2, again, v2, why), DLS_ESTATE);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.nslaves, NS);
	dls_status_free(&s);
	drive(m, &d, 0);
	check_exact(m);
	master_destroy(m);
}

/* A child withdrawn before registration closed (dls run saw it exit) is
 * journaled: the resumed master expects the same two, refuses a late
 * registration of that name and a second withdrawal. */
static void test_withdrawn_after_resume(void)
{
	const char *names[2] = {"a", "b"};
	const double speeds[2] = {1, 2};
	struct master_config c;
	struct master *m;
	struct dls_status s;
	uint64_t keys[2], key;
	double v[2], v1;
	int ids[2], id, err;
	char why[MASTER_WHY_LEN];

	fresh_dir();
	config(&c, SCHED_GSS, 1);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(master_withdraw(m, "c", why), DLS_OK);
	/* the two others close registration: the window need not pass */
	CU_ASSERT_EQUAL_FATAL(master_register_group(m, 0, names, speeds, 2, ids, keys, v, why),
			      DLS_OK);
	master_destroy(m); /* the crash */

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &c, why), DLS_OK);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(master_register(m, 0, "c", 1, &id, &key, &v1, why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "'c' was withdrawn"));
	CU_ASSERT_EQUAL(master_withdraw(m, "c", why), DLS_ESTATE);
	master_snapshot(m, &s);
	CU_ASSERT_EQUAL(s.nslaves, 2);
	dls_status_free(&s);
	master_destroy(m);
}

/* Journals that must not be taken. */
static void test_journal_refusals(void)
{
	struct master_config c;
	struct master *m;
	struct driver d = {0};
	char why[MASTER_WHY_LEN], path[128];
	sqlite3 *db;
	int err;

	fresh_dir();
	CU_ASSERT_EQUAL(master_journal_config(dir, &c, why), DLS_ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "nothing to resume"));
	config(&c, SCHED_DTSS, 1);
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m);
	drive(m, &d, 4);
	master_destroy(m);
	/* a new run over an existing journal */
	CU_ASSERT_PTR_NULL(master_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "exists already"));
	/* resuming with another configuration */
	c.resume = 1;
	c.sched.kind = SCHED_GSS;
	CU_ASSERT_PTR_NULL(master_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "another run"));
	/* a journal whose replies were changed */
	snprintf(path, sizeof(path), "%s/journal.db", dir);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db,
				     "UPDATE event SET body = replace(body, '\"reply\":[0,0,', "
				     "'\"reply\":[0,1,') WHERE kind = 'message'",
				     NULL, NULL, NULL),
			SQLITE_OK);
	CU_ASSERT(sqlite3_changes(db) > 0);
	sqlite3_close(db);
	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &c, why), DLS_OK);
	CU_ASSERT_PTR_NULL(master_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not match its MAC")); /* the edit, caught */
	/* the same edit by a forger who knows the key (an open run's is empty):
	 * the replay's own checks still refuse a reply the scheme would not give */
	CU_ASSERT_EQUAL_FATAL(tu_journal_rechain(path, NULL), 0);
	CU_ASSERT_PTR_NULL(master_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not this program's journal"));
	CU_ASSERT_EQUAL(journal_discard_unborn(dir, why, sizeof(why)), DLS_ESTATE); /* a run */
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	/* a journal whose creator died before it recorded its run (the file,
	 * not a table): nothing was acknowledged, and it says so */
	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	CU_ASSERT_EQUAL(master_journal_config(dir, &c, why), DLS_ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "holds no run"));
	/* such a journal may be removed for a fresh start; one with a run not */
	CU_ASSERT_EQUAL(journal_discard_unborn(dir, why, sizeof(why)), DLS_OK);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	CU_ASSERT_EQUAL(journal_discard_unborn(dir, why, sizeof(why)), DLS_OK); /* absent */
	fresh_dir();
}

/* An observer sees the events the owner made durable, while it writes. */
static void test_has_event_while_written(void)
{
	struct journal *j;
	char why[512];

	fresh_dir();
	CU_ASSERT_EQUAL(journal_has_event(dir, "gate"), 0); /* no journal */
	CU_ASSERT_EQUAL_FATAL(journal_create(dir, "{\"run\":\"m\"}", 0, NULL, &j, why,
					     sizeof(why)),
			      DLS_OK);
	CU_ASSERT_EQUAL(journal_has_event(dir, "gate"), 0); /* none yet */
	journal_wait(j, journal_append(j, "register", NULL, NULL, 0));
	CU_ASSERT_EQUAL(journal_has_event(dir, "gate"), 0);
	journal_wait(j, journal_append(j, "gate", NULL, NULL, 0));
	CU_ASSERT_EQUAL(journal_has_event(dir, "gate"), 1);
	CU_ASSERT_EQUAL(journal_has_event(dir, "done"), 0);
	journal_close(j);
	CU_ASSERT_EQUAL(journal_has_event(dir, "gate"), 1); /* after its owner */
	fresh_dir();
}

int journal_suite_add(void)
{
	CU_pSuite s = CU_add_suite("journal", NULL, NULL);

	return !s || !CU_add_test(s, "crash and resume: DTSS", test_resume_dtss) ||
	       !CU_add_test(s, "crash and resume: FSS, late", test_resume_fss_late) ||
	       !CU_add_test(s, "crash and resume: GSS, first request", test_resume_gss_first) ||
	       !CU_add_test(s, "lost slave, submit and taking back replayed",
			    test_resume_lost_and_submit) ||
	       !CU_add_test(s, "a withdrawn child stays withdrawn after a resume",
			    test_withdrawn_after_resume) ||
	       !CU_add_test(s, "a registration answered again after a resume",
			    test_register_again_after_resume) ||
	       !CU_add_test(s, "a DONE lost with the master is heard before the end",
			    test_done_owed_after_resume) ||
	       !CU_add_test(s, "journals refused", test_journal_refusals) ||
	       !CU_add_test(s, "an observer sees the events made durable",
			    test_has_event_while_written);
}
