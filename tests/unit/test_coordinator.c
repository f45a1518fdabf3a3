/*
 * Tree Scheduling's coordinator, without sockets: the chain
 * and placement of Example 4.2 (tau 1,2,3,4 -> chain P1 P4 P2 P3), results
 * from anyone and duplicates skipped, migrations moving ownership, and a
 * lost slave's iterations going to its nearest living left neighbour while
 * the chain closes around it.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dls/err.h"
#include "coordinator.h"
#include "dls_time.h"
#include "pair_counts.h"
#include "master_testutil.h"
#include "suites.h"

#define W 100

struct reg {
	struct coordinator *m;
	double speed;
	int id, rc;
	struct coordinator_place place;
};

static void *register_one(void *arg)
{
	struct reg *r = arg;
	char why[COORDINATOR_WHY_LEN], name[16];

	snprintf(name, sizeof(name), "s%g", r->speed);
	r->rc = coordinator_register(r->m, name, r->speed, NULL, &r->id, &r->place, why);
	return NULL;
}

/* A coordinator of 4 slaves over a W x 1 image (maxit 16), counts of 1 in buf. */
static void setup(struct coordinator_config *c, uint16_t *buf)
{
	for (int i = 0; i < W; i++)
		buf[i] = 1; /* a count the kernel can return */
	memset(c, 0, sizeof(*c));
	strcpy(c->run_name, "t");
	strcpy(c->workload, "mandelbrot");
	c->nslaves = 4;
	tu_mandel_params(c->params, &c->nparams, W, 1, 16);
	c->register_timeout_ms = 5000;
	pile_params_init(&c->pile);
}

/* How many slaves m has registered (its roster, before the chain). */
static int registered(struct coordinator *m)
{
	struct dls_status st;
	int n = -1;

	if (coordinator_snapshot(m, &st) == DLS_OK) {
		n = (int)st.nslaves;
		dls_status_free(&st);
	}
	return n;
}

/* n (at most 4) slaves of throughputs 1..n register, each once the one
 * before is in, so that their ids are 0..n-1: DLS_OK, or the first
 * registration's failure. */
static int register_slaves(struct coordinator *m, struct reg *regs, int n)
{
	pthread_t tid[4];
	int rc = DLS_OK;

	for (int i = 0; i < n; i++) {
		struct timespec ts = {0, 1000000};

		memset(&regs[i], 0, sizeof(regs[i]));
		regs[i].m = m;
		regs[i].speed = i + 1.0;
		regs[i].id = regs[i].rc = -1;
		pthread_create(&tid[i], NULL, register_one, &regs[i]);
		for (int k = 0; k < 10000 && i + 1 < n && registered(m) >= 0 && registered(m) < i + 1;
		     k++)
			nanosleep(&ts, NULL);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		if (!rc && regs[i].rc)
			rc = regs[i].rc;
		if (!rc && regs[i].id != i)
			rc = DLS_ESTATE;
	}
	return rc;
}

static struct dls_result block(int64_t start, int64_t count, uint16_t *buf)
{
	return tu_counts(start, count, buf, (size_t)count);
}

/* The capability slave i got at registration. */
#define K(i) (regs[i].place.key)

static void test_coordinator(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[4];
	struct dls_times t = {0};
	struct coordinator_repair rep;
	struct dls_status snap;
	uint16_t buf[W];
	struct dls_result res;
	char why[COORDINATOR_WHY_LEN];
	struct coordinator_side left, right;
	int err;

	setup(&c, buf);
	c.report_interval = 0.5;
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	/* registration order = ids 0..3, throughputs 1, 2, 3, 4 */
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	/* chain 0 3 1 2, equal allocation: 25 each in chain order */
	CU_ASSERT_EQUAL(regs[0].place.start, 0);
	CU_ASSERT_EQUAL(regs[3].place.start, 25);
	CU_ASSERT_EQUAL(regs[1].place.start, 50);
	CU_ASSERT_EQUAL(regs[2].place.start, 75);
	CU_ASSERT_EQUAL(regs[2].place.count, 25);
	CU_ASSERT_EQUAL(regs[0].place.left_id, -1);
	CU_ASSERT_EQUAL(regs[0].place.right_id, 3);
	CU_ASSERT_EQUAL(regs[3].place.right_id, 1);
	CU_ASSERT_DOUBLE_EQUAL(regs[3].place.right_tau, 2.0, 1e-12);
	CU_ASSERT_EQUAL(regs[2].place.right_id, -1);
	/* keys: each its own capability and peer key; a neighbour learns the peer key */
	CU_ASSERT(K(0) != 0 && K(0) != K(1) && regs[0].place.peer_key != K(0));
	CU_ASSERT_EQUAL(regs[0].place.right_key, regs[3].place.peer_key);
	CU_ASSERT_EQUAL(regs[3].place.left_key, regs[0].place.peer_key);
	CU_ASSERT_EQUAL(regs[0].place.left_key, 0);
	CU_ASSERT_EQUAL(coordinator_child_key(m, 2), K(2));

	/* a stranger who guessed an id, a slave reporting what it does not hold
	 * (slave 1's; 0's only neighbour is 3), or claiming to hand it on: refused */
	res = block(0, 25, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 0, K(0) ^ 1, &res, 1, &t, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "capability"));
	res = block(50, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 0, K(0), &res, 1, &t, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not hold iteration 50"));
	CU_ASSERT_EQUAL(coordinator_migrated(m, 0, K(0), 3, 60, 2, 1, &rep, why), DLS_EINVAL);
	coordinator_repair_free(&rep);
	/* a neighbour's iterations: handed over, the notice on its way */
	res = block(25, 1, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 0, K(0), &res, 1, &t, why), DLS_OK);

	/* results of what a slave holds; a second copy is skipped */
	res = block(0, 25, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 0, K(0), &res, 1, &t, why), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_report(m, 3, K(3), &res, 1, &t, why), DLS_OK);
	buf[3] = 17; /* above maxit 16 */
	res = block(0, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 3, K(3), &res, 1, &t, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "count 17"));
	buf[3] = 1;
	res = tu_counts(25, 5, buf, 4); /* wrong number of counts */
	CU_ASSERT_EQUAL(coordinator_report(m, 3, K(3), &res, 1, &t, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "carries 8 octets"));

	/* slave 1 hands [70, 75) to slave 2, then slave 2 dies */
	CU_ASSERT_EQUAL(coordinator_migrated(m, 1, K(1), 2, 70, 5, 1, &rep, why), DLS_OK);
	CU_ASSERT_EQUAL(rep.nranges, 0);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, 1, K(1), 9, 0, 1, 1, &rep, why), DLS_EINVAL);
	coordinator_repair_free(&rep);
	/* ranges whose end overflows 64 bits are outside the loop, not a crash */
	CU_ASSERT_EQUAL(coordinator_migrated(m, 1, K(1), 2, 0, ((int64_t)1 << 62) + 1, 1, &rep, why),
			DLS_EINVAL);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, 1, K(1), 2, 1, 2, INT64_MAX, &rep, why), DLS_EINVAL);
	coordinator_repair_free(&rep);
	CU_ASSERT(tree_migrate_range_ok(0, W, 1, W));
	CU_ASSERT(tree_migrate_range_ok(3, 10, 9, W)); /* 3 + 9 x 9 = 84 */
	CU_ASSERT(!tree_migrate_range_ok(3, 12, 9, W)); /* 3 + 11 x 9 = 102 */
	CU_ASSERT(!tree_migrate_range_ok(W, 1, 1, W));
	CU_ASSERT(!tree_migrate_range_ok(0, INT64_MAX, INT64_MAX, W));
	CU_ASSERT_EQUAL_FATAL(coordinator_lost(m, 2, "test", &rep), DLS_OK);
	CU_ASSERT_EQUAL(rep.to, 1);
	CU_ASSERT_EQUAL_FATAL(rep.nranges, 1);
	CU_ASSERT_EQUAL(rep.ranges[0].start, 70);
	CU_ASSERT_EQUAL(rep.ranges[0].count, 30);
	CU_ASSERT_EQUAL(rep.left, 1);
	CU_ASSERT_EQUAL(rep.right, -1);
	coordinator_repair_free(&rep);
	coordinator_neighbours(m, 1, &left, &right);
	CU_ASSERT_EQUAL(left.id, 3);
	CU_ASSERT_EQUAL(left.peer_key, regs[3].place.peer_key);
	CU_ASSERT_EQUAL(right.id, -1);
	res = block(75, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 2, K(2), &res, 1, &t, why), DLS_ESTATE);

	/* the rest (3's are its left neighbour's), and the run ends */
	res = block(26, 74, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, 1, K(1), &res, 1, &t, why), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_wait_done(m, 0), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(coordinator_snapshot(m, &snap), DLS_OK);
	CU_ASSERT_STRING_EQUAL(snap.scheme, "trees");
	CU_ASSERT_EQUAL(snap.slaves[0].id, 0); /* chain order */
	CU_ASSERT_EQUAL(snap.slaves[1].id, 3);
	CU_ASSERT_EQUAL(snap.requeued, 30);
	dls_status_free(&snap);
	coordinator_destroy(m);
}

/* Coordinator::peer under workpile: any slave of the run learns any other's
 * peer key with its own capability; a stranger's key, an id out of the run
 * and a bad caller are refused; a lost slave is said to be lost. */
static void peer_lookups(struct coordinator *m, struct reg *regs)
{
	char why[COORDINATOR_WHY_LEN];
	uint64_t pk;
	int lost;

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			CU_ASSERT_EQUAL(coordinator_peer(m, i, regs[i].place.key, j, &pk, &lost, why),
					DLS_OK);
			CU_ASSERT_EQUAL(pk, regs[j].place.peer_key);
			CU_ASSERT_EQUAL(lost, 0);
		}
	CU_ASSERT_EQUAL(coordinator_peer(m, 0, regs[0].place.key + 1, 1, &pk, &lost, why),
			DLS_EINVAL);
	CU_ASSERT_EQUAL(pk, 0);
	CU_ASSERT_EQUAL(coordinator_peer(m, 7, regs[0].place.key, 1, &pk, &lost, why), DLS_ENOENT);
	CU_ASSERT_EQUAL(coordinator_peer(m, 0, regs[0].place.key, 4, &pk, &lost, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no slave 4"));
	CU_ASSERT_EQUAL(coordinator_peer(m, 0, regs[0].place.key, -1, &pk, &lost, why),
			DLS_EINVAL);
}

/* Under Tree Scheduling there is no peer to look up; a lost peer is lost. */
static void test_peer_lookups_refused(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[4];
	struct coordinator_repair rep;
	uint16_t buf[W];
	char why[COORDINATOR_WHY_LEN];
	uint64_t pk;
	int err, lost;

	setup(&c, buf);
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_peer(m, 0, regs[0].place.key, 1, &pk, &lost, why), DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "Tree Scheduling"));
	coordinator_destroy(m);

	setup(&c, buf);
	strcpy(c.policy, "roc");
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_lost(m, 2, "test", &rep), DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_peer(m, 0, regs[0].place.key, 2, &pk, &lost, why), DLS_OK);
	CU_ASSERT_EQUAL(lost, 1);
	CU_ASSERT_EQUAL(pk, 0);
	/* the lost slave itself may ask nothing */
	CU_ASSERT_EQUAL(coordinator_peer(m, 2, regs[2].place.key, 0, &pk, &lost, why), DLS_ESTATE);
	coordinator_destroy(m);
}

/* Registers as a servant does: entered, the call (it waits for the
 * others), left. */
static void *register_inside(void *arg)
{
	struct reg *r = arg;
	char why[COORDINATOR_WHY_LEN] = "";

	r->rc = coordinator_enter(r->m, why);
	if (r->rc == DLS_OK) {
		r->rc = coordinator_register(r->m, "s", r->speed, NULL, &r->id, &r->place, why);
		coordinator_leave(r->m);
	}
	CU_ASSERT(r->rc == DLS_OK || strstr(why, "the coordinator is closing") != NULL);
	return NULL;
}

/* coordinator_close ends a registration's wait for the others (a window of
 * a minute): it is refused, and later callers are too. */
static void test_close_ends_registration(void)
{
	struct coordinator_config c;
	struct reg r = {0};
	uint16_t buf[W];
	pthread_t t;
	double t0;
	char why[COORDINATOR_WHY_LEN] = "";
	int err;

	setup(&c, buf);
	c.register_timeout_ms = 60000;
	r.m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.m);
	r.speed = 1;
	r.rc = -1;
	CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, register_inside, &r), 0);
	dls_sleep_ms(100);
	t0 = dls_now();
	coordinator_close(r.m);
	CU_ASSERT(dls_now() - t0 < 2);
	pthread_join(t, NULL);
	CU_ASSERT_EQUAL(r.rc, DLS_ESTATE);
	CU_ASSERT_EQUAL(coordinator_enter(r.m, why), DLS_ESTATE);
	coordinator_destroy(r.m);
}

/* Workpile and roc: work moves between any two slaves; a giver may deliver
 * what it handed over (a failed transfer: it kept it), also once the
 * receiver was lost and its heir holds it too, and so may whoever it handed
 * that copy on to; nobody else may. */
static void test_piles(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[4];
	struct dls_times t = {0};
	struct coordinator_repair rep;
	struct run_report_tree tree;
	struct dls_status snap;
	uint16_t buf[W];
	struct dls_result res;
	char why[COORDINATOR_WHY_LEN];
	int err;

	setup(&c, buf);
	strcpy(c.policy, "heap"); /* no such policy */
	CU_ASSERT_PTR_NULL(coordinator_create(&c, &err, why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown"));
	strcpy(c.policy, "workpile");
	c.pile.threshold = -1;
	CU_ASSERT_PTR_NULL(coordinator_create(&c, &err, why));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "threshold"));
	c.pile.threshold = 1;
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_placed(m), 4);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(coordinator_peer_key(m, i), regs[i].place.peer_key);
	peer_lookups(m, regs);
	/* the slave holding [0, 25) hands 5 to one that is not its neighbour */
	int a = -1, b = -1, other = -1;

	for (int i = 0; i < 4; i++)
		if (regs[i].place.start == 0)
			a = i;
	for (int i = 0; i < 4; i++)
		if (i != a && regs[a].place.left_id != i && regs[a].place.right_id != i)
			b = i;
	for (int i = 0; i < 4; i++) /* nor its neighbour, nor b */
		if (i != a && i != b && regs[a].place.left_id != i && regs[a].place.right_id != i)
			other = i;
	CU_ASSERT_FATAL(a >= 0 && b >= 0 && other >= 0);
	CU_ASSERT_EQUAL(coordinator_migrated(m, a, regs[a].place.key, b, 0, 5, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	/* the transfer failed: the giver computes them itself */
	res = block(0, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, a, regs[a].place.key, &res, 1, &t, why), DLS_OK);
	/* a slave that handed nothing to the holder may not deliver its work */
	res = block(5, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, other, regs[other].place.key, &res, 1, &t, why),
			DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not hold iteration 5"));
	/* a hand-over whose receiver died after the notice: the giver keeps the
	 * work while the repair gives it to the receiver's heir (here `other`,
	 * b's left neighbour), so both may deliver it, the second a duplicate */
	int n3 = regs[a].place.right_id;

	CU_ASSERT_EQUAL(regs[b].place.left_id, other);
	CU_ASSERT_EQUAL(coordinator_migrated(m, a, regs[a].place.key, b, 10, 5, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	/* n3 hands 30, 31 to b, its transfer fails and it hands them on to a
	 * (no neighbour of b's heir): a may deliver them after b is lost */
	CU_ASSERT_EQUAL(coordinator_migrated(m, n3, regs[n3].place.key, b, 30, 2, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, n3, regs[n3].place.key, a, 30, 2, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL_FATAL(coordinator_lost(m, b, "test", &rep), DLS_OK);
	CU_ASSERT_EQUAL(rep.to, other);
	coordinator_repair_free(&rep);
	res = block(30, 2, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, a, regs[a].place.key, &res, 1, &t, why), DLS_OK);
	/* ... even after the heir handed them on */
	CU_ASSERT_EQUAL(coordinator_migrated(m, other, regs[other].place.key, n3, 10, 5, 1, &rep,
					     why),
			DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, n3, regs[n3].place.key, other, 10, 5, 1, &rep,
					     why),
			DLS_OK); /* and back: the owner is no neighbour of a's */
	coordinator_repair_free(&rep);
	res = block(10, 2, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, a, regs[a].place.key, &res, 1, &t, why), DLS_OK);
	res = block(10, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, n3, regs[n3].place.key, &res, 1, &t, why), DLS_OK);
	/* the giver's kept copy may go on, and its new holder deliver it */

	CU_ASSERT_EQUAL(coordinator_migrated(m, a, regs[a].place.key, b, 15, 5, 1, &rep, why),
			DLS_OK); /* b is lost by now: the repair gives it to `other` */
	CU_ASSERT_EQUAL(rep.to, other);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, a, regs[a].place.key, n3, 15, 3, 1, &rep, why),
			DLS_OK);
	coordinator_repair_free(&rep);
	res = block(15, 3, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, n3, regs[n3].place.key, &res, 1, &t, why), DLS_OK);
	res = block(20, 2, buf); /* a's, never handed on: still refused to others */
	CU_ASSERT_EQUAL(coordinator_report(m, other, regs[other].place.key, &res, 1, &t, why),
			DLS_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "does not hold iteration 20"));
	CU_ASSERT_EQUAL_FATAL(coordinator_snapshot(m, &snap), DLS_OK);
	CU_ASSERT_STRING_EQUAL(snap.scheme, "workpile");
	dls_status_free(&snap);
	CU_ASSERT_EQUAL_FATAL(coordinator_tree_stats(m, &tree), DLS_OK);
	CU_ASSERT(tree.piles);
	CU_ASSERT_EQUAL_FATAL(tree.npairs, 6); /* a>b 3, a>n3, other>n3, n3>a, n3>other, n3>b */
	CU_ASSERT(a < other);
	CU_ASSERT_EQUAL(tree.pair_from[0], a);
	CU_ASSERT_EQUAL(tree.pair_to[0], b < n3 ? b : n3);
	CU_ASSERT_EQUAL(tree.pair_count[0], b < n3 ? 3 : 1);
	CU_ASSERT_EQUAL(tree.pair_from[2], other);
	CU_ASSERT_EQUAL(tree.pair_to[2], n3);
	run_report_tree_free(&tree);
	coordinator_destroy(m);
}

/* A giver lost after its notice of a hand-over and (maybe) before the
 * transfer: the receiver may never have got the work the books give it, so
 * the giver's heir computes it too, and either may deliver it: with the
 * receiver alone in the books, the run would wait for ever. */
static void test_giver_lost_mid_handover(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[4];
	struct dls_times t = {0};
	struct coordinator_repair rep;
	uint16_t buf[W];
	struct dls_result res;
	char why[COORDINATOR_WHY_LEN];
	int err, a = -1, b = -1, heir, seen[W] = {0};
	int64_t s0, h0;

	setup(&c, buf);
	strcpy(c.policy, "workpile");
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	for (int i = 0; i < 4 && a < 0; i++) /* one with a left neighbour: its heir */
		if (regs[i].place.left_id >= 0)
			a = i;
	CU_ASSERT_FATAL(a >= 0);
	heir = regs[a].place.left_id;
	for (int i = 0; i < 4 && b < 0; i++) /* the receiver: any other */
		if (i != a && i != heir)
			b = i;
	s0 = regs[a].place.start; /* a holds [s0, s0 + 25) */
	CU_ASSERT_FATAL(regs[a].place.count == 25 && regs[a].place.stride == 1);
	h0 = s0 + 20;
	CU_ASSERT_EQUAL(coordinator_migrated(m, a, K(a), b, h0, 5, 1, &rep, why), DLS_OK);
	coordinator_repair_free(&rep);
	res = block(s0, 5, buf); /* a delivered its first 5, handed its last 5, and died */
	CU_ASSERT_EQUAL(coordinator_report(m, a, K(a), &res, 1, &t, why), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(coordinator_lost(m, a, "test", &rep), DLS_OK);
	CU_ASSERT_EQUAL(rep.to, heir);
	for (size_t k = 0; k < rep.nranges; k++)
		for (int64_t i = rep.ranges[k].start; i < rep.ranges[k].start + rep.ranges[k].count;
		     i++)
			seen[i]++;
	for (int i = 0; i < W; i++) /* what it held and what it handed */
		CU_ASSERT_EQUAL(seen[i], i >= s0 + 5 && i < s0 + 25);
	CU_ASSERT_EQUAL(rep.iterations, 20);
	coordinator_repair_free(&rep);
	/* the heir delivers part of it, the receiver (it got the transfer) all */
	res = block(h0, 3, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, heir, K(heir), &res, 1, &t, why), DLS_OK);
	res = block(h0, 5, buf);
	CU_ASSERT_EQUAL(coordinator_report(m, b, K(b), &res, 1, &t, why), DLS_OK);
	coordinator_destroy(m);
}

/* A slave that will not come is withdrawn: the other three are placed in a
 * chain of three as soon as they are in (the window is 60 s), the whole
 * loop theirs; a withdrawn name's registration, and a withdrawal once the
 * chain is built, are refused. */
static void test_withdrawn_slave(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[3];
	uint16_t buf[W];
	char why[COORDINATOR_WHY_LEN];
	struct coordinator_place place;
	double t0 = dls_now();
	int64_t placed = 0;
	int err, id;

	setup(&c, buf);
	c.register_timeout_ms = 60000;
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(coordinator_withdraw(m, "s9", why), DLS_OK);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 3), DLS_OK);
	for (int i = 0; i < 3; i++)
		placed += regs[i].place.count;
	CU_ASSERT(dls_now() - t0 < 30); /* not the window */
	CU_ASSERT_EQUAL(placed, W);
	CU_ASSERT_EQUAL(coordinator_register(m, "s9", 1, NULL, &id, &place, why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "'s9' was withdrawn"));
	CU_ASSERT_EQUAL(coordinator_withdraw(m, "s8", why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "registration has closed"));
	coordinator_destroy(m);
}

/* The dead giver's heir is the receiver of its last notice: told to compute
 * those iterations again (the transfer may not have come), it may hold two
 * copies, give one on, and deliver the other: that report is its due, however
 * far the copy it gave on travelled.  Chain positions 0-3: a at 1, its heir at 0, b at 2, c at 3. */
static void test_heir_of_its_own_transfer(void)
{
	struct coordinator_config c;
	struct coordinator *m;
	struct reg regs[4];
	struct dls_times t = {0};
	struct coordinator_repair rep;
	uint16_t buf[W];
	struct dls_result res;
	char why[COORDINATOR_WHY_LEN];
	int err, a = -1, heir, b, d;
	int64_t h0;

	setup(&c, buf);
	strcpy(c.policy, "workpile");
	m = coordinator_create(&c, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(register_slaves(m, regs, 4), DLS_OK);
	for (int i = 0; i < 4 && a < 0; i++) /* at position 1 */
		if (regs[i].place.left_id >= 0 && regs[regs[i].place.left_id].place.left_id < 0)
			a = i;
	CU_ASSERT_FATAL(a >= 0);
	heir = regs[a].place.left_id;
	b = regs[a].place.right_id;
	d = regs[b].place.right_id;
	CU_ASSERT_FATAL(b >= 0 && d >= 0);
	h0 = regs[a].place.start + 20;
	CU_ASSERT_EQUAL(coordinator_migrated(m, a, K(a), heir, h0, 5, 1, &rep, why), DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL_FATAL(coordinator_lost(m, a, "test", &rep), DLS_OK);
	CU_ASSERT_EQUAL(rep.to, heir);
	coordinator_repair_free(&rep);
	/* the heir gives one copy on, to b, which gives it on to d */
	CU_ASSERT_EQUAL(coordinator_migrated(m, heir, K(heir), b, h0, 5, 1, &rep, why), DLS_OK);
	coordinator_repair_free(&rep);
	CU_ASSERT_EQUAL(coordinator_migrated(m, b, K(b), d, h0, 5, 1, &rep, why), DLS_OK);
	coordinator_repair_free(&rep);
	res = block(h0, 5, buf); /* and delivers its other copy */
	CU_ASSERT_EQUAL(coordinator_report(m, heir, K(heir), &res, 1, &t, why), DLS_OK);
	CU_ASSERT_EQUAL(coordinator_report(m, d, K(d), &res, 1, &t, why), DLS_OK);
	coordinator_destroy(m);
}

/* Pairs are counted at any size (ids past 256 and far apart), sorted by
 * giver then receiver for the report. */
static void test_pair_counts(void)
{
	struct pair_counts p = {NULL, NULL, 0, 0};
	const int from[] = {4095, 3, 4095, 3, 0, 3}, to[] = {0, 4000, 0, 2, 4095, 4000};

	for (size_t k = 0; k < sizeof(from) / sizeof(*from); k++)
		CU_ASSERT_EQUAL_FATAL(pair_counts_add(&p, from[k], to[k]), DLS_OK);
	CU_ASSERT_EQUAL(p.n, 4);
	CU_ASSERT_EQUAL(pair_counts_get(&p, 4095, 0), 2);
	CU_ASSERT_EQUAL(pair_counts_get(&p, 3, 4000), 2);
	CU_ASSERT_EQUAL(pair_counts_get(&p, 0, 4095), 1);
	CU_ASSERT_EQUAL(pair_counts_get(&p, 4000, 3), 0); /* a pair has a direction */
	pair_counts_sort(&p);
	CU_ASSERT(p.v[0]->from == 0 && p.v[1]->from == 3 && p.v[1]->to == 2 &&
		  p.v[2]->to == 4000 && p.v[3]->from == 4095);
	CU_ASSERT_EQUAL(pair_counts_get(&p, 3, 2), 1); /* still found after the sort */
	pair_counts_free(&p);
	CU_ASSERT(p.n == 0 && p.root == NULL);
}

int coordinator_suite_add(void)
{
	CU_pSuite s = CU_add_suite("tree scheduling coordinator", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "chain, reports, migrations, a lost slave", test_coordinator) ||
	       !CU_add_test(s, "workpile: any pair, a giver's kept work", test_piles) ||
	       !CU_add_test(s, "a slave withdrawn: the others are placed at once",
			    test_withdrawn_slave) ||
	       !CU_add_test(s, "the dead giver's heir is the receiver of its notice",
			    test_heir_of_its_own_transfer) ||
	       !CU_add_test(s, "a giver lost between its notice and its transfer",
			    test_giver_lost_mid_handover) ||
	       !CU_add_test(s, "peer lookups: trees refused, the lost said lost",
			    test_peer_lookups_refused) ||
	       !CU_add_test(s, "migrations per pair at any size", test_pair_counts) ||
	       !CU_add_test(s, "closing ends a registration's wait for the others",
			    test_close_ends_registration);
}
