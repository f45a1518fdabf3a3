/*
 * Tree Scheduling's coordinator comes back (PROTOCOL.md 15), without
 * sockets: a run journaled through registration, reports, a hand-over and a
 * loss whose repair was not carried out; the coordinator "crashes"
 * (destroyed), a new one resumes the journal and must hold the same state
 * (who delivered and holds what, Table 2's figures, the contacts), carry out
 * the pending repair, let the slaves rejoin with their capabilities only,
 * refuse new registrations, and finish the run with the exact results.
 * Then the journals it must refuse: none, a master's, another
 * configuration, and a tampered report.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "coordinator.h"
#include "dls/err.h"
#include "journal.h"
#include "journal_testutil.h"
#include "master_testutil.h"
#include "suites.h"

#define W 100
#define NS 4

static char dir[64];

static void fresh_dir(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-cjournal-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static void config(struct coordinator_config *c)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->run_name, "t");
	strcpy(c->workload, "mandelbrot");
	c->nslaves = NS;
	tu_mandel_params(c->params, &c->nparams, W, 1, 16);
	c->register_timeout_ms = 5000;
	c->report_interval = 0.5;
	snprintf(c->journal_dir, sizeof(c->journal_dir), "%s", dir);
	c->journal_os = 1;
}

struct reg {
	struct coordinator *c;
	double speed;
	int id, rc;
	struct coordinator_place place;
};

static void *register_one(void *arg)
{
	struct reg *r = arg;
	char why[COORDINATOR_WHY_LEN], name[32], contact[32];

	snprintf(name, sizeof(name), "s%g", r->speed);
	snprintf(contact, sizeof(contact), "IOR:s%g", r->speed);
	r->rc = coordinator_register(r->c, name, r->speed, contact, &r->id, &r->place, why);
	return NULL;
}

/* How many slaves c has registered (its roster, before the chain). */
static int registered(struct coordinator *c)
{
	struct dls_status st;
	int n;

	CU_ASSERT_EQUAL_FATAL(coordinator_snapshot(c, &st), DLS_OK);
	n = (int)st.nslaves;
	dls_status_free(&st);
	return n;
}

/* Registers slaves of speeds 1..4 in that order (ids 0..3; chain 0 3 1 2):
 * each registration is in before the next begins. */
static void register_all(struct coordinator *c, struct reg *regs)
{
	pthread_t tid[NS];

	for (int i = 0; i < NS; i++) {
		struct timespec ts = {0, 1000000};

		memset(&regs[i], 0, sizeof(regs[i]));
		regs[i].c = c;
		regs[i].speed = i + 1.0;
		pthread_create(&tid[i], NULL, register_one, &regs[i]);
		for (int k = 0; k < 10000 && registered(c) < i + 1 && i + 1 < NS; k++)
			nanosleep(&ts, NULL);
	}
	for (int i = 0; i < NS; i++) {
		pthread_join(tid[i], NULL);
		CU_ASSERT_EQUAL_FATAL(regs[i].rc, DLS_OK);
		CU_ASSERT_EQUAL_FATAL(regs[i].id, i);
	}
}

/* Slave i of register_all registers again: the same process has its place
 * back; another process of the same name and speed has none. */
static void register_again(struct coordinator *c, const struct reg *regs, int i)
{
	const struct coordinator_place *b = &regs[i].place;
	struct coordinator_place a;
	char why[COORDINATOR_WHY_LEN], name[32], contact[32];
	int id = -1;

	snprintf(name, sizeof(name), "s%g", regs[i].speed);
	snprintf(contact, sizeof(contact), "IOR:s%g", regs[i].speed);
	CU_ASSERT_EQUAL_FATAL(coordinator_register(c, name, regs[i].speed, contact, &id, &a, why),
			      DLS_OK);
	CU_ASSERT_EQUAL(id, i);
	CU_ASSERT_EQUAL(a.key, b->key);
	CU_ASSERT_EQUAL(a.peer_key, b->peer_key);
	CU_ASSERT_EQUAL(a.start, b->start);
	CU_ASSERT_EQUAL(a.count, b->count);
	CU_ASSERT_EQUAL(a.stride, b->stride);
	CU_ASSERT_EQUAL(a.left_id, b->left_id);
	CU_ASSERT_EQUAL(a.right_id, b->right_id);
	CU_ASSERT_DOUBLE_EQUAL(a.vpower, b->vpower, 0);
	CU_ASSERT_EQUAL(coordinator_register(c, name, regs[i].speed, "IOR:other", &id, &a, why),
			DLS_ESTATE);
}

/* Counts 1 + i % 7 for iteration i: results that tell iterations apart. */
static struct dls_result block(int64_t start, int64_t count, uint16_t *buf)
{
	for (int64_t i = 0; i < count; i++)
		buf[i] = (uint16_t)(1 + (start + i) % 7);
	return tu_counts(start, count, buf, (size_t)count);
}

static int report(struct coordinator *c, const struct reg *regs, int id, int64_t start,
		  int64_t count)
{
	uint16_t buf[W];
	struct dls_result res = block(start, count, buf);
	struct dls_times t = {0.25 * id, 0.5, 0, 0, 0, 0};
	char why[COORDINATOR_WHY_LEN];

	return coordinator_report(c, id, regs[id].place.key, &res, 1, &t, why);
}

/* The state a resumed coordinator must have rebuilt. */
struct seen {
	struct dls_status st;
	struct run_report_tree tree;
};

static void look(struct coordinator *c, struct seen *s)
{
	CU_ASSERT_EQUAL_FATAL(coordinator_snapshot(c, &s->st), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(coordinator_tree_stats(c, &s->tree), DLS_OK);
}

static void same(struct seen *a, struct seen *b)
{
	CU_ASSERT_EQUAL(a->st.delivered, b->st.delivered);
	CU_ASSERT_EQUAL(a->st.requeued, b->st.requeued);
	CU_ASSERT_EQUAL_FATAL(a->st.nslaves, b->st.nslaves);
	for (int k = 0; k < (int)a->st.nslaves; k++) {
		CU_ASSERT_EQUAL(a->st.slaves[k].id, b->st.slaves[k].id);
		CU_ASSERT_EQUAL(a->st.slaves[k].held, b->st.slaves[k].held);
		CU_ASSERT_EQUAL(a->st.slaves[k].iterations, b->st.slaves[k].iterations);
		CU_ASSERT_EQUAL(a->st.slaves[k].state, b->st.slaves[k].state);
		CU_ASSERT_DOUBLE_EQUAL(a->st.slaves[k].vpower, b->st.slaves[k].vpower, 0);
		CU_ASSERT_DOUBLE_EQUAL(a->st.slaves[k].times.t_comp, b->st.slaves[k].times.t_comp,
				       0);
	}
	CU_ASSERT_EQUAL(a->tree.migrations, b->tree.migrations);
	CU_ASSERT_EQUAL(a->tree.moved, b->tree.moved);
	CU_ASSERT_EQUAL(a->tree.reassigned, b->tree.reassigned);
	CU_ASSERT_EQUAL(a->tree.nunits, b->tree.nunits);
	for (int k = 0; k + 1 < a->tree.npes; k++)
		CU_ASSERT_EQUAL(a->tree.link_migrations[k], b->tree.link_migrations[k]);
	dls_status_free(&a->st);
	dls_status_free(&b->st);
	run_report_tree_free(&a->tree);
	run_report_tree_free(&b->tree);
}

static struct coordinator *resume(void)
{
	struct coordinator_config c;
	struct coordinator *co;
	char why[COORDINATOR_WHY_LEN];
	int err;

	CU_ASSERT_EQUAL_FATAL(coordinator_journal_config(dir, &c, why), DLS_OK);
	CU_ASSERT_EQUAL(c.nslaves, NS);
	c.journal_os = 1;
	co = coordinator_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(co);
	CU_ASSERT(coordinator_resumed(co));
	return co;
}

static void test_coordinator_resume(void)
{
	struct coordinator_config c;
	struct coordinator *co;
	struct coordinator_repair rep, live, *pend;
	struct reg regs[NS];
	struct seen before, after;
	struct coordinator_place place;
	char why[COORDINATOR_WHY_LEN], contact[32];
	double vpower, t_end;
	size_t n;
	int err, id;

	fresh_dir();
	config(&c);
	co = coordinator_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(co);
	CU_ASSERT(!coordinator_resumed(co));
	register_all(co, regs);
	/* a registration asked again by the same process (its answer lost):
	 * its place again; the same name from another process is not it */
	register_again(co, regs, 1);
	CU_ASSERT_EQUAL(coordinator_register(co, "s2", 3.0, "IOR:s2", &id, &place, why),
			DLS_ESTATE);
	/* chain 0 3 1 2, 25 iterations each: 0 [0,25) 3 [25,50) 1 [50,75) 2 [75,100) */
	CU_ASSERT_EQUAL(report(co, regs, 0, 0, 25), DLS_OK);
	CU_ASSERT_EQUAL(report(co, regs, 0, 25, 1), DLS_OK); /* its neighbour's */
	CU_ASSERT_EQUAL(coordinator_migrated(co, 1, regs[1].place.key, 2, 70, 5, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	/* slave 2 dies; the coordinator dies before it carried out the repair */
	CU_ASSERT_EQUAL_FATAL(coordinator_lost(co, 2, "test", &live), DLS_OK);
	CU_ASSERT_EQUAL(live.to, 1);
	CU_ASSERT_EQUAL(report(co, regs, 1, 50, 10), DLS_OK);
	look(co, &before);
	coordinator_destroy(co);

	co = resume();
	look(co, &after);
	same(&before, &after);
	CU_ASSERT_EQUAL(coordinator_contact(co, 3, contact, sizeof(contact)), DLS_OK);
	CU_ASSERT_STRING_EQUAL(contact, "IOR:s4");
	CU_ASSERT_EQUAL(coordinator_contact(co, NS, contact, sizeof(contact)), DLS_ENOENT);
	CU_ASSERT_EQUAL(coordinator_contact(co, 3, contact, 4), DLS_ENOENT); /* too long */
	/* the repair the dead coordinator decided, to carry out again */
	CU_ASSERT_EQUAL(coordinator_take_pending(co, &pend, &n), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(pend[0].serial, live.serial);
	CU_ASSERT_EQUAL(pend[0].to, live.to);
	CU_ASSERT_EQUAL(pend[0].left, live.left);
	CU_ASSERT_EQUAL_FATAL(pend[0].nranges, live.nranges);
	CU_ASSERT_EQUAL(pend[0].ranges[0].start, live.ranges[0].start);
	CU_ASSERT_EQUAL(pend[0].ranges[0].count, live.ranges[0].count);
	coordinator_repaired(co, pend[0].serial);
	coordinator_repair_free(&pend[0]);
	free(pend);
	coordinator_repair_free(&live);
	/* rejoining: its own capability only; not a lost slave; no newcomer */
	CU_ASSERT_EQUAL(coordinator_rejoin(co, 3, regs[3].place.key, &vpower, why), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(vpower, 4.0, 1e-12);
	CU_ASSERT_EQUAL(coordinator_rejoin(co, 3, regs[3].place.key ^ 1, &vpower, why),
			DLS_EINVAL);
	CU_ASSERT_EQUAL(coordinator_rejoin(co, 2, regs[2].place.key, &vpower, why), DLS_ESTATE);
	CU_ASSERT_EQUAL(coordinator_rejoin(co, 7, 1, &vpower, why), DLS_ENOENT);
	CU_ASSERT_EQUAL(coordinator_register(co, "late", 1.0, NULL, &id, &place, why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "rejoins instead"));
	/* the coordinator died after its journal recorded the chain and before
	 * slave 0 had its answer: it registers again and has its place back */
	register_again(co, regs, 0);
	/* a lost slave's place is not given again */
	CU_ASSERT_EQUAL(coordinator_register(co, "s3", 3.0, "IOR:s3", &id, &place, why),
			DLS_ESTATE);
	/* a report the dead coordinator acknowledged comes again: skipped */
	CU_ASSERT_EQUAL(report(co, regs, 1, 50, 10), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_wait_done(co, 0), DLS_ETIMEDOUT);
	coordinator_destroy(co);

	/* a second crash: the repair was recorded, nothing is pending */
	co = resume();
	CU_ASSERT_EQUAL(coordinator_take_pending(co, &pend, &n), DLS_OK);
	CU_ASSERT_EQUAL(n, 0);
	free(pend);
	CU_ASSERT_EQUAL(report(co, regs, 3, 26, 24), DLS_OK);
	CU_ASSERT_EQUAL(report(co, regs, 1, 60, 40), DLS_OK); /* its own and 2's */
	CU_ASSERT_EQUAL(coordinator_wait_done(co, 0), DLS_OK);
	t_end = coordinator_results(co)->t_end;
	coordinator_destroy(co);

	/* resumed after the end: done, T_p kept, every result exact */
	co = resume();
	CU_ASSERT_EQUAL(coordinator_wait_done(co, 0), DLS_OK);
	CU_ASSERT_DOUBLE_EQUAL(coordinator_results(co)->t_end, t_end, 1e-6);
	for (int64_t i = 0; i < W; i++)
		CU_ASSERT_EQUAL(coordinator_results(co)->ledger.state[i], 1);
	{
		uint16_t want[W];

		block(0, W, want);
		CU_ASSERT_EQUAL(memcmp(coordinator_results(co)->data, want, sizeof(want)), 0);
	}
	coordinator_destroy(co);
	fresh_dir();
}

static void test_coordinator_journal_refusals(void)
{
	struct coordinator_config c;
	struct coordinator *co;
	struct journal *j;
	struct reg regs[NS];
	char why[COORDINATOR_WHY_LEN], path[128];
	sqlite3 *db;
	int err;

	fresh_dir();
	CU_ASSERT_EQUAL(coordinator_journal_config(dir, &c, why), DLS_ENOENT);
	/* a master's journal */
	CU_ASSERT_EQUAL_FATAL(journal_create(dir, "{\"run\":\"m\"}", 0, NULL, &j, why,
					     sizeof(why)),
			      DLS_OK);
	journal_close(j);
	CU_ASSERT_EQUAL(coordinator_journal_config(dir, &c, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "not a Tree Scheduling coordinator's journal"));
	fresh_dir();

	config(&c);
	co = coordinator_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(co);
	register_all(co, regs);
	CU_ASSERT_EQUAL(report(co, regs, 0, 0, 25), DLS_OK);
	coordinator_destroy(co);
	/* a new run over it; resuming with other options */
	CU_ASSERT_PTR_NULL(coordinator_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_ESTATE);
	c.resume = 1;
	c.gamma = TREE_GAMMA_RATIO;
	CU_ASSERT_PTR_NULL(coordinator_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "another run"));
	/* a report moved to a slave that never held those iterations */
	snprintf(path, sizeof(path), "%s/journal.db", dir);
	CU_ASSERT_EQUAL_FATAL(sqlite3_open(path, &db), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(db,
				     "UPDATE event SET body = replace(body, '\"id\":0', '\"id\":2') "
				     "WHERE kind = 'report'",
				     NULL, NULL, NULL),
			SQLITE_OK);
	CU_ASSERT(sqlite3_changes(db) > 0);
	sqlite3_close(db);
	CU_ASSERT_EQUAL_FATAL(coordinator_journal_config(dir, &c, why), DLS_OK);
	CU_ASSERT_PTR_NULL(coordinator_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not match its MAC"));
	/* by a forger who knows the key: the replay's own checks refuse it */
	CU_ASSERT_EQUAL_FATAL(tu_journal_rechain(path, NULL), 0);
	CU_ASSERT_PTR_NULL(coordinator_open(&c, &err, why));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not hold iteration 0"));
	fresh_dir();
}

int coordinator_journal_suite_add(void)
{
	CU_pSuite s = CU_add_suite("tree scheduling coordinator's journal", NULL, NULL);

	return !s || !CU_add_test(s, "crash and resume", test_coordinator_resume) ||
	       !CU_add_test(s, "journals refused", test_coordinator_journal_refusals);
}
