/*
 * --verify in the master core: chunks picked are computed again by another
 * slave and compared; an honest run is confirmed, a liar found, refused
 * and its results computed again (the image exact), a dispute that no
 * third slave can settle is said, and a journal replays every decision.
 */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "master.h"
#include "master_testutil.h"
#include "suites.h"

#define W 60
#define H 8
#define MAXIT 64
#define NS_MAX 4

#define counts_for(start, count) tu_mandel_counts(W, H, MAXIT, start, count)

static char dir[64];

static void fresh_dir(void)
{
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-verify-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static struct master_config config(int nslaves, double fraction, int journal)
{
	struct master_config c;

	tu_master_config(&c, SCHED_CSS, nslaves, W, H, 1000);
	c.sched.css_k = 4;
	tu_set_maxit(&c, MAXIT);
	c.start_timeout_ms = 0;
	c.wait_ms = 1;
	c.rejoin_ms = 60000;
	c.verify = fraction;
	if (journal)
		snprintf(c.journal_dir, sizeof(c.journal_dir), "%s", dir);
	return c;
}

/* One run's slaves as the test drives them: each holds its last chunk. */
struct driver {
	int ns, liar; /* liar: the slave that lies (-1: none) */
	uint32_t seq[NS_MAX];
	int64_t start[NS_MAX], count[NS_MAX];
	int done[NS_MAX];
	int refused[NS_MAX]; /* refused as untrusted */
	int next;
};

/* The counts slave s delivers for [start, +count): the liar's each one
 * higher below maxit (values the workload's check accepts). */
static uint16_t *counts_of(const struct driver *d, int s, int64_t start, int64_t count)
{
	uint16_t *c = counts_for(start, count);

	for (int64_t k = 0; s == d->liar && k < count * H; k++)
		c[k] += c[k] < MAXIT;
	return c;
}

/* Slave s asks with the results of its last chunk. */
static void step(struct master *m, struct driver *d, int s)
{
	uint16_t *c = counts_of(d, s, d->start[s], d->count[s]);
	struct dls_result res = tu_counts(d->start[s], d->count[s], c, (size_t)d->count[s] * H);
	struct dls_request r = tu_request(m, s, ++d->seq[s], 1, &res, d->count[s] ? 1 : 0);
	struct dls_reply rep;
	char why[MASTER_WHY_LEN];
	int rc = master_request(m, &r, &rep, why);

	free(c);
	if (rc) {
		if (s != d->liar)
			fprintf(stderr, "slave %d refused: %s\n", s, why);
		CU_ASSERT_EQUAL(s, d->liar);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "no longer trusted"));
		d->refused[s] = d->done[s] = 1;
		return;
	}
	d->start[s] = d->count[s] = 0;
	if (rep.kind == DLS_REPLY_WORK) {
		d->start[s] = rep.start;
		d->count[s] = rep.count;
	}
	d->done[s] = rep.kind == DLS_REPLY_DONE;
}

static void register_all(struct master *m, int ns)
{
	const char *names[NS_MAX] = {"a", "b", "c", "d"};
	const double speeds[NS_MAX] = {1, 1, 1, 1};
	uint64_t keys[NS_MAX];
	double v[NS_MAX];
	int ids[NS_MAX];
	char why[MASTER_WHY_LEN];

	CU_ASSERT_EQUAL_FATAL(
	    master_register_group(m, 0, names, speeds, (size_t)ns, ids, keys, v, why), DLS_OK);
}

/* A master of configuration c with its ns slaves registered. */
static struct master *open_registered(const struct master_config *c, int ns)
{
	char why[MASTER_WHY_LEN];
	int err;
	struct master *m = master_open(c, &err, why);

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	register_all(m, ns);
	return m;
}

/* Round robin over the slaves not done, `steps` requests (0: to the end). */
static void drive(struct master *m, struct driver *d, int steps)
{
	for (int k = 0; (steps == 0 || k < steps) && k < 5000; k++) {
		int left = 0;

		for (int i = 0; i < d->ns; i++)
			left += !d->done[i];
		if (!left)
			return;
		while (d->done[d->next])
			d->next = (d->next + 1) % d->ns;
		step(m, d, d->next);
		d->next = (d->next + 1) % d->ns;
	}
}

static void check_exact(struct master *m)
{
	uint16_t *c = counts_for(0, W);

	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	CU_ASSERT_EQUAL(memcmp(tu_image(m), c, (size_t)W * H * sizeof(*c)), 0);
	free(c);
}

static struct dls_verify_status verify_of(struct master *m)
{
	struct dls_status s;
	struct dls_verify_status v;

	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &s), DLS_OK);
	v = s.verify;
	dls_status_free(&s);
	return v;
}

/* Every chunk picked (fraction 1) and every copy equal: all confirmed. */
static void test_honest_confirmed(void)
{
	struct master_config c = config(3, 1.0, 0);
	struct driver d = {.ns = 3, .liar = -1};
	struct dls_verify_status v;
	struct master *m;

	m = open_registered(&c, 3);
	drive(m, &d, 0);
	check_exact(m);
	v = verify_of(m);
	CU_ASSERT_EQUAL(v.fraction, 1.0);
	CU_ASSERT(v.pieces >= W / 4); /* a chunk may be checked in pieces */
	CU_ASSERT_EQUAL(v.iterations, W);
	CU_ASSERT_EQUAL(v.agreed, v.pieces);
	CU_ASSERT_EQUAL(v.copies, v.pieces);
	CU_ASSERT_EQUAL(v.copied, W);
	CU_ASSERT_EQUAL(v.disputed + v.liars + v.unresolved + v.unverifiable, 0);
	master_destroy(m);
}

/* A liar among three: found at its first chunk (every chunk is picked:
 * the draw's key is random, so any smaller fraction could miss it),
 * refused, its results computed again; the image is exact. */
static void test_liar_found(void)
{
	struct master_config c = config(3, 1.0, 0);
	struct driver d = {.ns = 3, .liar = 2};
	struct dls_verify_status v;
	struct dls_status s;
	struct master *m;

	m = open_registered(&c, 3);
	drive(m, &d, 0);
	check_exact(m);
	CU_ASSERT(d.refused[2]);
	v = verify_of(m);
	CU_ASSERT_EQUAL(v.liars, 1);
	CU_ASSERT(v.recomputed > 0);
	CU_ASSERT_EQUAL(v.unresolved, 0);
	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &s), DLS_OK);
	CU_ASSERT(s.slaves[2].distrusted && !s.slaves[0].distrusted && !s.slaves[1].distrusted);
	CU_ASSERT_EQUAL(s.slaves[2].state, DLS_SLAVE_LOST);
	dls_status_free(&s);
	master_destroy(m);
}

/* Two slaves, one lying: no third copy can settle a dispute; the run ends
 * and says so. */
static void test_dispute_unresolved(void)
{
	struct master_config c = config(2, 1.0, 0);
	struct driver d = {.ns = 2, .liar = 1};
	struct dls_verify_status v;
	struct master *m;

	m = open_registered(&c, 2);
	drive(m, &d, 0);
	CU_ASSERT_EQUAL(master_wait_done(m, 0), DLS_OK);
	v = verify_of(m);
	CU_ASSERT(v.unresolved > 0);
	CU_ASSERT_EQUAL(v.liars, 0);
	master_destroy(m);
}

/* A master that journals, stopped after its liar was found, and resumed:
 * the replay makes the same decisions (the same counts, the liar refused
 * at its rejoin), and the run ends exact. */
static void test_replay_same(void)
{
	struct master_config c, back;
	struct driver d = {.ns = 4, .liar = 3};
	struct dls_verify_status before, after;
	struct master *m;
	char why[MASTER_WHY_LEN];
	double vp;
	int err;

	fresh_dir();
	c = config(4, 1.0, 1);
	m = open_registered(&c, 4);
	for (int k = 0; k < 200 && !d.refused[3]; k++)
		drive(m, &d, 1);
	CU_ASSERT_FATAL(d.refused[3]);
	drive(m, &d, 3);
	before = verify_of(m);
	master_destroy(m);

	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &back, why), DLS_OK);
	CU_ASSERT_EQUAL(back.verify, 1.0);
	CU_ASSERT(back.verify_key_set);
	back.rejoin_ms = 60000;
	m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	after = verify_of(m);
	CU_ASSERT(before.pieces == after.pieces && before.iterations == after.iterations &&
		  before.agreed == after.agreed && before.disputed == after.disputed &&
		  before.of_liars == after.of_liars && before.copies == after.copies &&
		  before.copied == after.copied && before.recomputed == after.recomputed &&
		  before.liars == after.liars && before.unresolved == after.unresolved &&
		  before.unverifiable == after.unverifiable);
	CU_ASSERT_EQUAL(master_rejoin(m, 3, master_child_key(m, 3), &vp, why), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "no longer trusted"));
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(master_rejoin(m, i, master_child_key(m, i), &vp, why), DLS_OK);
	drive(m, &d, 0);
	check_exact(m);
	master_destroy(m);
	fresh_dir();
}

/* The draw's key travels in the journal: a resumed master at F = 0.5
 * picked what the first one picked, and picks on the same way. */
static void test_draw_key_journaled(void)
{
	struct master_config c, back;
	struct driver d = {.ns = 3, .liar = -1};
	struct dls_verify_status before, after;
	struct master *m;
	char why[MASTER_WHY_LEN];
	double vp;
	int err;

	fresh_dir();
	c = config(3, 0.5, 1);
	for (size_t k = 0; k < sizeof(c.verify_key); k++)
		c.verify_key[k] = (uint8_t)(k * 37 + 11);
	c.verify_key_set = 1;
	m = open_registered(&c, 3);
	drive(m, &d, 9);
	before = verify_of(m);
	master_destroy(m);
	CU_ASSERT_EQUAL_FATAL(master_journal_config(dir, &back, why), DLS_OK);
	CU_ASSERT(back.verify_key_set);
	CU_ASSERT_EQUAL(memcmp(back.verify_key, c.verify_key, sizeof(c.verify_key)), 0);
	back.rejoin_ms = 60000;
	m = master_open(&back, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	after = verify_of(m);
	CU_ASSERT_EQUAL(after.pieces, before.pieces);
	CU_ASSERT_EQUAL(after.agreed, before.agreed);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(master_rejoin(m, i, master_child_key(m, i), &vp, why), DLS_OK);
	drive(m, &d, 0);
	check_exact(m);
	after = verify_of(m);
	CU_ASSERT(after.iterations > 0 && after.iterations < W); /* a sample, not every chunk */
	CU_ASSERT_EQUAL(after.agreed, after.pieces);
	master_destroy(m);
	fresh_dir();
}

int verify_suite_add(void)
{
	CU_pSuite s = CU_add_suite("verify", NULL, NULL);

	return !s || !CU_add_test(s, "an honest run: every copy agrees", test_honest_confirmed) ||
	       !CU_add_test(s, "a liar found, refused, its results computed again",
			    test_liar_found) ||
	       !CU_add_test(s, "a dispute no third slave can settle", test_dispute_unresolved) ||
	       !CU_add_test(s, "a journal replays every decision", test_replay_same) ||
	       !CU_add_test(s, "the draw's key travels in the journal", test_draw_key_journaled);
}
