/*
 * test_takeback.c - the end game (master_takeback.c, PROTOCOL.md 17) and
 * the slave's side of it (slave/slave_cut.c): a tail taken back from a
 * holder goes to the idle asker, the holder's late results of it are
 * dropped, the image stays exact, the journal replays it; the slave's
 * bound, progress and emulated deadline follow a cut.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dls/err.h"
#include "dls_time.h"
#include "ledger.h"
#include "mandel.h"
#include "master.h"
#include "master_testutil.h"
#include "slave_cut.h"
#include "suites.h"

#define W 40
#define H 10

/* The holders as the fake ORB adapter sees them: what progress() answers,
 * and the take_back() calls made. */
struct fake_slaves {
	struct dls_progress p[2];
	int progress_calls;
	int told, told_holder;
	int64_t told_start, told_end;
	int fail_tell;
};

static int fake_progress(void *ctx, int id, uint64_t key, struct dls_progress *out, char *why,
			 size_t len)
{
	struct fake_slaves *f = ctx;

	(void)key;
	(void)why;
	(void)len;
	f->progress_calls++;
	*out = f->p[id];
	return DLS_OK;
}

static int fake_take_back(void *ctx, int id, uint64_t key, int64_t start, int64_t end, char *why,
			  size_t len)
{
	struct fake_slaves *f = ctx;

	(void)key;
	f->told++;
	f->told_holder = id;
	f->told_start = start;
	f->told_end = end;
	if (f->fail_tell) {
		snprintf(why, len, "TIMEOUT");
		return DLS_EREMOTE;
	}
	return DLS_OK;
}

/* Correct counts for [start, start + count), natural order (maxit 64). */
#define counts_for(start, count) tu_mandel_counts(W, H, 64, start, count)

static char dir[64];

static struct master *make(struct fake_slaves *f, int journal, int resume)
{
	struct master_config c;
	struct master_callout co = {f, fake_progress, fake_take_back};
	struct master *m;
	char why[MASTER_WHY_LEN];
	int err;

	tu_master_config(&c, SCHED_CSS, 2, W, H, 1000);
	c.sched.css_k = 3;
	tu_set_maxit(&c, 64);
	c.start_timeout_ms = 0;
	c.wait_ms = 5;
	c.take_back = 1;
	c.rejoin_ms = 60000;
	if (journal)
		snprintf(c.journal_dir, sizeof(c.journal_dir), "%s", dir);
	c.resume = resume;
	m = master_open(&c, &err, why);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	master_set_callout(m, &co);
	if (!resume) {
		const char *names[2] = {"a", "b"};
		const double speeds[2] = {1, 1};
		uint64_t keys[2];
		double v[2];
		int ids[2];

		CU_ASSERT_EQUAL_FATAL(
		    master_register_group(m, 0, names, speeds, 2, ids, keys, v, why), DLS_OK);
	}
	return m;
}

/* Slave id delivers what it holds ([start, +count), count 0: nothing) and asks. */
static struct dls_reply ask(struct master *m, int id, uint32_t seq, int64_t start, int64_t count)
{
	uint16_t *c = counts_for(start, count);
	struct dls_result res = tu_counts(start, count, c, (size_t)count * H);
	struct dls_request r = tu_request(m, id, seq, 1, &res, count ? 1 : 0);
	struct dls_reply rep;
	char why[MASTER_WHY_LEN];

	memset(&rep, 0, sizeof(rep));
	rep.kind = DLS_REPLY_DONE; /* a refusal ends the callers' loops */
	if (master_request(m, &r, &rep, why)) {
		CU_FAIL("request refused");
		fprintf(stderr, "slave %d seq %u refused: %s\n", id, (unsigned)seq, why);
	}
	free(c);
	return rep;
}

/*
 * Slave 1 takes [0, 3) and computes slowly; slave 0 takes every other
 * chunk.  Its request at the end finds the scheme exhausted: the master
 * asks slave 1 how far it is and gives slave 0 the tail of [0, 3).
 * Returns slave 0's last seq.
 */
static uint32_t play_to_takeback(struct master *m, struct fake_slaves *f)
{
	struct dls_reply rep = ask(m, 1, 1, 0, 0);
	uint32_t seq = 0;

	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 0 && rep.count == 3);
	f->p[1] = (struct dls_progress){0, 3, 0, 0.5, 1}; /* nothing done yet */
	rep = ask(m, 0, ++seq, 0, 0);
	for (int guard = 0; guard < 100 && rep.kind == DLS_REPLY_WORK && rep.start != 2; guard++)
		rep = ask(m, 0, ++seq, rep.start, rep.count);
	/* no rates yet: the V_i, 1:1; of the 2 not begun, the asker takes 1 */
	CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 2 && rep.count == 1);
	CU_ASSERT(f->progress_calls >= 1);
	CU_ASSERT(f->told == 1 && f->told_holder == 1 && f->told_start == 0 && f->told_end == 2);
	return seq;
}

/* The rest of the run: slave 1 was not told in time and sends all of
 * [0, 3) (the tail's results are dropped), slave 0 delivers the tail. */
static void finish(struct master *m, uint32_t seq)
{
	struct dls_status st;
	struct dls_reply rep = ask(m, 1, 2, 0, 3);

	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT); /* [2, 3) is still out */
	rep = ask(m, 0, seq + 1, 2, 1);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
	{
		uint16_t *all = counts_for(0, W);

		CU_ASSERT_EQUAL(memcmp(tu_image(m), all, (size_t)W * H * sizeof(uint16_t)), 0);
		free(all);
	}
	CU_ASSERT_EQUAL_FATAL(master_snapshot(m, &st), DLS_OK);
	CU_ASSERT_EQUAL(st.takebacks, 1);
	CU_ASSERT_EQUAL(st.taken_back, 1);
	CU_ASSERT_EQUAL(st.delivered, W);
	CU_ASSERT_EQUAL(st.slaves[1].iterations, 2); /* given 3, one taken back */
	dls_status_free(&st);
}

static void test_takeback_live(void)
{
	struct fake_slaves f;
	struct master *m;

	memset(&f, 0, sizeof(f));
	f.fail_tell = 1; /* a holder that is not told changes nothing */
	m = make(&f, 0, 0);
	finish(m, play_to_takeback(m, &f));
	master_destroy(m);
}

/* The master crashes right after the take-back; the resumed one replays
 * it: the asker's retry gets the same tail, the holder's results of it
 * are dropped. */
static void test_takeback_resumed(void)
{
	struct fake_slaves f;
	struct master *m;
	struct dls_reply rep;
	uint32_t seq;
	char cmd[128];

	snprintf(dir, sizeof(dir), "/tmp/dls-unit-takeback-%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	memset(&f, 0, sizeof(f));
	m = make(&f, 1, 0);
	seq = play_to_takeback(m, &f);
	master_destroy(m); /* crash */
	memset(&f, 0, sizeof(f));
	m = make(&f, 1, 1);
	CU_ASSERT(master_resumed(m));
	{
		struct dls_request r = tu_request(m, 0, seq, 1, NULL, 0);
		char why[MASTER_WHY_LEN];
		double v;

		/* the retry of the request that got the tail: its reply again */
		CU_ASSERT_EQUAL(master_rejoin(m, 0, master_child_key(m, 0), &v, why), DLS_OK);
		CU_ASSERT_EQUAL(master_rejoin(m, 1, master_child_key(m, 1), &v, why), DLS_OK);
		CU_ASSERT_EQUAL(master_request(m, &r, &rep, why), DLS_OK);
		CU_ASSERT(rep.kind == DLS_REPLY_WORK && rep.start == 2 && rep.count == 1);
	}
	finish(m, seq);
	CU_ASSERT_EQUAL(f.told, 0); /* nothing new was decided */
	master_destroy(m);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Nothing is taken back from a holder that cannot cut, that is done, or
 * while the asker itself holds work. */
static void test_takeback_declined(void)
{
	struct fake_slaves f;
	struct master *m;
	struct dls_reply rep;
	uint32_t seq = 0;

	memset(&f, 0, sizeof(f));
	m = make(&f, 0, 0);
	rep = ask(m, 1, 1, 0, 0);
	f.p[1] = (struct dls_progress){0, 3, 0, 0.5, 0}; /* not cuttable */
	rep = ask(m, 0, ++seq, 0, 0);
	for (int guard = 0; guard < 100 && rep.kind == DLS_REPLY_WORK; guard++)
		rep = ask(m, 0, ++seq, rep.start, rep.count);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	f.p[1] = (struct dls_progress){0, 3, 2, 0.5, 1}; /* on its last one */
	rep = ask(m, 0, ++seq, 0, 0);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	/* a holder whose answer is nonsense is set aside, not believed */
	f.p[1] = (struct dls_progress){0, INT64_MAX, -5, NAN, 1};
	rep = ask(m, 0, ++seq, 0, 0);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	f.p[1] = (struct dls_progress){0, INT64_MAX, INT64_MAX, 1e-300, 1};
	rep = ask(m, 0, ++seq, 0, 0);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	f.p[1] = (struct dls_progress){1, 2, 0, 0.5, 1}; /* a chunk it does not hold */
	rep = ask(m, 0, ++seq, 0, 0);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_WAIT);
	CU_ASSERT_EQUAL(f.told, 0);
	rep = ask(m, 1, 2, 0, 3);
	CU_ASSERT_EQUAL(rep.kind, DLS_REPLY_DONE);
	master_destroy(m);
}

/* The ledger's side: a tail is cut only when held whole and undelivered. */
static void test_ledger_cut_tail(void)
{
	struct ledger l;
	struct ledger_held h = {0};

	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 10, 2), DLS_OK);
	CU_ASSERT_EQUAL(ledger_hold(&h, 2, 6), DLS_OK);
	CU_ASSERT_EQUAL(ledger_cut_tail(&l, &h, 3, 5), DLS_ENOENT);
	CU_ASSERT_EQUAL(ledger_cut_tail(&l, &h, 2, 2), DLS_EINVAL);
	CU_ASSERT_EQUAL(ledger_cut_tail(&l, &h, 2, 8), DLS_EINVAL);
	l.state[7] = 1; /* delivered */
	CU_ASSERT_EQUAL(ledger_cut_tail(&l, &h, 2, 5), DLS_ESTATE);
	l.state[7] = 0;
	CU_ASSERT_EQUAL(ledger_cut_tail(&l, &h, 2, 5), DLS_OK);
	CU_ASSERT(h.v[0].count == 3 && h.v[0].undelivered == 3);
	CU_ASSERT_EQUAL(ledger_held_undelivered(&h), 3);
	ledger_held_free(&h);
	ledger_free(&l);
}

/* The slave's side: a real chunk stops at the bound; an emulated one's
 * progress and deadline follow the timeline and the cut. */
static void test_slave_cut(void)
{
	struct slave_cut c;
	struct dls_progress p;
	struct emul_steps power;
	char why[128];
	double t0 = dls_now(), d_all, d_cut;

	CU_ASSERT_EQUAL_FATAL(slave_cut_init(&c), DLS_OK);
	slave_cut_progress(&c, &p);
	CU_ASSERT_EQUAL(p.count, 0); /* no chunk */
	CU_ASSERT_EQUAL(slave_cut_begin(&c, 100, 10, t0, NULL, 0, 0), DLS_OK);
	CU_ASSERT(slave_cut_computed(&c, 0, 1));
	CU_ASSERT_EQUAL(slave_cut_take(&c, 100, 111, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_EQUAL(slave_cut_take(&c, 100, 100, why, sizeof(why)), DLS_EINVAL);
	CU_ASSERT_EQUAL(slave_cut_take(&c, 99, 101, why, sizeof(why)), DLS_OK); /* not this one */
	CU_ASSERT_EQUAL(slave_cut_end(&c), 110);
	CU_ASSERT_EQUAL(slave_cut_take(&c, 100, 103, why, sizeof(why)), DLS_OK);
	CU_ASSERT(slave_cut_computed(&c, 1, 1));  /* 102 is below 103 */
	CU_ASSERT(!slave_cut_computed(&c, 2, 1)); /* 102 was the last */
	slave_cut_progress(&c, &p);
	CU_ASSERT(p.start == 100 && p.count == 3 && p.done == 3 && p.cuttable);
	slave_cut_finish(&c);
	CU_ASSERT_EQUAL(slave_cut_take(&c, 100, 101, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(slave_cut_end(&c), 103); /* over: unchanged */

	/* emulated: power 1, 10 ms a unit iteration, 4 iterations of 1, 2, 3, 4 */
	emul_steps_const(&power, 1);
	t0 = dls_now();
	CU_ASSERT_EQUAL(slave_cut_begin(&c, 0, 4, t0, &power, t0, 0.01), DLS_OK);
	for (int k = 0; k < 4; k++)
		slave_cut_computed(&c, k, k + 1);
	d_all = slave_cut_deadline(&c);
	CU_ASSERT_DOUBLE_EQUAL(d_all - t0, 0.10, 1e-9);
	slave_cut_progress(&c, &p);
	CU_ASSERT(p.done <= 1); /* 10 ms for the first one */
	CU_ASSERT_EQUAL(slave_cut_take(&c, 0, 2, why, sizeof(why)), DLS_OK);
	d_cut = slave_cut_deadline(&c);
	CU_ASSERT_DOUBLE_EQUAL(d_cut - t0, 0.03, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(slave_cut_sleep(&c, 0, NULL), d_cut, 1e-12);
	CU_ASSERT(dls_now() >= d_cut && dls_now() < d_all);
	slave_cut_progress(&c, &p);
	CU_ASSERT(p.count == 2 && p.done == 2);
	slave_cut_finish(&c);
	slave_cut_destroy(&c);
}

/* The stall watch: a holder that shows the same chunk at the same point is
 * stalled once stall_ms passed (asked at most once a second); one that
 * advanced, or computes no chunk, is not. */
static void test_stall_watch(void)
{
	struct fake_slaves f;
	struct master *m;
	char why[256] = "";

	memset(&f, 0, sizeof(f));
	m = make(&f, 0, 0);
	/* (3 s: a loaded machine's late wake-ups cannot make 1.1 s look like it) */
	f.p[1] = (struct dls_progress){0, 3, 1, 0.5, 1};
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 3000, why, sizeof(why)), 0); /* seen first */
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 3000, why, sizeof(why)), 0); /* not asked again */
	CU_ASSERT_EQUAL(f.progress_calls, 1);
	dls_sleep_ms(1100);
	f.p[1].done = 2; /* it advanced */
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 3000, why, sizeof(why)), 0);
	dls_sleep_ms(1100);
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 3000, why, sizeof(why)), 0); /* 1.1 s still */
	dls_sleep_ms(2100);
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 3000, why, sizeof(why)), 1); /* 3.2 s */
	CU_ASSERT(strstr(why, "stalled: its chunk [0, +3) stayed at 2 computed") != NULL);
	f.p[0] = (struct dls_progress){0, 0, 0, 0, 0}; /* between chunks: never stalled */
	CU_ASSERT_EQUAL(master_check_stall(m, 0, 1, why, sizeof(why)), 0);
	dls_sleep_ms(1100);
	CU_ASSERT_EQUAL(master_check_stall(m, 0, 1, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(master_check_stall(m, 1, 0, why, sizeof(why)), 0); /* 0: never */
	master_destroy(m);
}

int takeback_suite_add(void)
{
	CU_pSuite s = CU_add_suite("takeback", NULL, NULL);

	return !s || !CU_add_test(s, "a tail taken back, the holder's copy dropped", test_takeback_live) ||
	       !CU_add_test(s, "replayed from the journal after a crash", test_takeback_resumed) ||
	       !CU_add_test(s, "declined: cannot cut, nothing left, or a lying holder", test_takeback_declined) ||
	       !CU_add_test(s, "the ledger cuts a held tail only", test_ledger_cut_tail) ||
	       !CU_add_test(s, "the slave's bound, progress and deadline", test_slave_cut) ||
	       !CU_add_test(s, "the stall watch", test_stall_watch);
}
