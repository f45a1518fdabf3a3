/*
 * The shared serving core and the registration barrier, without sockets:
 * retries answered from the cache, older requests and bad A_i refused,
 * the piggy-back completeness rule (one chunk in flight, and the exemption
 * for a child that prefetches further), a second request on its way (depth
 * 2), the ACPSA waiting line, the requeue of a lost child's work.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_sched.h"
#include "master_testutil.h"
#include "serve.h"
#include "serve_request.h"
#include "suites.h"

static void test_take(void)
{
	struct ledger l;
	struct serve_child c;
	struct dls_reply out, given = {DLS_REPLY_WORK, 0, 10, 0, 1, 0, {0}};
	uint8_t data[20] = {0};
	struct dls_result half = {0, 5, data, 5, 0}, all = {0, 10, data, 10, 0};
	struct dls_result second = {10, 10, data, 10, 0};
	struct dls_request r;
	char why[256];
	int retry;

	memset(&c, 0, sizeof(c));
	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 100, 1), DLS_OK);
	r = tu_request(NULL, 0, 1, 2, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(retry, 0);
	serve_remember(&c, &r, &given);
	CU_ASSERT_EQUAL(ledger_hold(&c.held, 0, 10), DLS_OK);

	/* the same seq again: the same reply, nothing checked */
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(retry, 1);
	CU_ASSERT_EQUAL(out.start, 0);
	CU_ASSERT_EQUAL(out.count, 10);
	/* an older seq, an A_i out of range */
	r = tu_request(NULL, 0, 0, 2, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "older"));
	r = tu_request(NULL, 0, 2, 0, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_EINVAL);
	r = tu_request(NULL, 0, 2, SCHED_MAX_ACP + 1, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_EINVAL);
	/* part of the only chunk: the newest may stay in flight */
	r = tu_request(NULL, 0, 2, 2, &half, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	ledger_unmark(&l, &half, 1);
	/* a second chunk given: the first must now be delivered whole */
	CU_ASSERT_EQUAL(ledger_hold(&c.held, 10, 10), DLS_OK);
	r = tu_request(NULL, 0, 2, 2, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "complete every chunk but the last one given"));
	r = tu_request(NULL, 0, 2, 2, &half, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	for (int i = 0; i < 20; i++)
		CU_ASSERT_EQUAL(l.state[i], 0);
	/* the newest delivered and the older not: refused all the same */
	r = tu_request(NULL, 0, 2, 2, &second, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	/* allowed at the end of the run, or for a child that prefetches */
	r = tu_request(NULL, 0, 2, 2, &half, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 0, &out, &retry, why, sizeof(why)), DLS_OK);
	ledger_unmark(&l, &half, 1);
	c.may_prefetch = 1;
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	ledger_unmark(&l, &half, 1);
	c.may_prefetch = 0;
	/* the older chunk whole, the newest in flight: accepted, marked for the commit */
	r = tu_request(NULL, 0, 2, 2, &all, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	ledger_commit(&l, &c.held, &all, 1);
	CU_ASSERT_EQUAL(l.ndelivered, 10);
	CU_ASSERT_EQUAL(ledger_held_undelivered(&c.held), 10);
	/* a third chunk: the second (now the older) must go, in the order given */
	CU_ASSERT_EQUAL(ledger_hold(&c.held, 20, 10), DLS_OK);
	r = tu_request(NULL, 0, 3, 2, &second, 1);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	ledger_commit(&l, &c.held, &second, 1);
	CU_ASSERT_EQUAL(c.held.n, 1);
	CU_ASSERT_EQUAL(c.held.v[0].start, 20);
	ledger_held_free(&c.held);
	ledger_free(&l);
}

/* Depth 2: a second request on its way is taken only right after its
 * predecessor and with the leave of the reply before; the last two
 * replies answer retries; depth is granted while the chunk is small
 * against what is left. */
static void test_second(void)
{
	struct ledger l;
	struct serve_child c;
	struct dls_reply out, r1 = {DLS_REPLY_WORK, 0, 10, 0, 2, 0, {0}}, r2 = {DLS_REPLY_WORK, 10, 10, 0, 2, 0, {0}};
	struct dls_reply r3 = {DLS_REPLY_WORK, 20, 10, 0, 2, 0, {0}};
	uint8_t data[10] = {0};
	struct dls_result first = {0, 10, data, 10, 0};
	struct dls_request r;
	char why[256];
	int retry;

	memset(&c, 0, sizeof(c));
	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 100, 1), DLS_OK);
	/* a second request before any of its child was served (a resumed
	 * master): early, it waits for its predecessor */
	r = tu_request(NULL, 0, 5, 1, NULL, 0);
	r.second = 1;
	CU_ASSERT(serve_early(&c, &r));
	r = tu_request(NULL, 0, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	serve_remember(&c, &r, &r1);
	ledger_hold(&c.held, 0, 10);
	/* seq 2 asked ahead while [0,10) computes; seq 3, the second on its
	 * way, overtakes it: early until seq 2 is served, refused if taken so */
	r = tu_request(NULL, 0, 3, 1, &first, 1);
	r.second = 1;
	CU_ASSERT(serve_early(&c, &r));
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "its predecessor was not served before it"));
	r = tu_request(NULL, 0, 2, 1, NULL, 0);
	CU_ASSERT(!serve_early(&c, &r)); /* not a second one */
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	serve_remember(&c, &r, &r2);
	ledger_hold(&c.held, 10, 10);
	/* now seq 3 is next: it delivers [0,10), [10,20) stays in flight */
	r = tu_request(NULL, 0, 3, 1, &first, 1);
	r.second = 1;
	CU_ASSERT(!serve_early(&c, &r));
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	CU_ASSERT_EQUAL(retry, 0);
	ledger_commit(&l, &c.held, &first, 1);
	serve_remember(&c, &r, &r3);
	/* a retry of either of the last two gets its own reply */
	r = tu_request(NULL, 0, 2, 1, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	CU_ASSERT(retry && out.start == 10);
	r = tu_request(NULL, 0, 3, 1, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_OK);
	CU_ASSERT(retry && out.start == 20);
	r = tu_request(NULL, 0, 1, 1, NULL, 0);
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "older"));
	/* a second one without leave: the reply before it said depth 1 */
	c.prev_reply.depth = 1;
	r = tu_request(NULL, 0, 4, 1, NULL, 0);
	r.second = 1;
	CU_ASSERT_EQUAL(serve_take(&l, &c, &r, 1, &out, &retry, why, sizeof(why)), DLS_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "did not allow two"));
	for (int i = 10; i < 30; i++)
		CU_ASSERT_EQUAL(l.state[i], 0);
	ledger_held_free(&c.held);
	ledger_free(&l);

	/* depth 2 while the chunk is at most a quarter of an even share of what is left */
	CU_ASSERT_EQUAL(serve_depth(1, 4000, 8), 2);
	CU_ASSERT_EQUAL(serve_depth(125, 4000, 8), 2);
	CU_ASSERT_EQUAL(serve_depth(126, 4000, 8), 1);
	CU_ASSERT_EQUAL(serve_depth(1, 31, 8), 1);
	CU_ASSERT_EQUAL(serve_depth(1, 0, 8), 1);
	CU_ASSERT_EQUAL(serve_depth(0, 4000, 8), 1);
	CU_ASSERT_EQUAL(serve_depth(1, 4000, 0), 1);
}

static void test_queue(void)
{
	struct serve_queue q = {0};
	struct serve_waiter w[4];
	const int64_t acp[4] = {1, 3, 2, 3};

	for (int i = 0; i < 4; i++)
		serve_queue_join(&q, &w[i], acp[i]);
	/* larger A_i first, then arrival */
	CU_ASSERT_PTR_EQUAL(q.head, &w[1]);
	CU_ASSERT_PTR_EQUAL(q.head->next, &w[3]);
	CU_ASSERT_PTR_EQUAL(q.head->next->next, &w[2]);
	CU_ASSERT_PTR_EQUAL(q.head->next->next->next, &w[0]);
	serve_queue_leave(&q, &w[2]); /* from the middle */
	serve_queue_leave(&q, &w[1]);
	CU_ASSERT_PTR_EQUAL(q.head, &w[3]);
	serve_queue_leave(&q, &w[3]);
	serve_queue_leave(&q, &w[0]);
	CU_ASSERT_PTR_NULL(q.head);
	CU_ASSERT(sched_acpsa_before(3, 5, 2, 1));
	CU_ASSERT(sched_acpsa_before(2, 1, 2, 5));
	CU_ASSERT(!sched_acpsa_before(2, 5, 2, 1));
}

static void test_requeue(void)
{
	struct ledger l;
	struct serve_child c;
	struct serve_ranges q = {0};
	struct dls_range r;
	uint8_t data[4] = {0};
	struct dls_result part = {12, 4, data, 4, 0};
	int64_t total;
	char why[256];

	memset(&c, 0, sizeof(c));
	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 100, 1), DLS_OK);
	ledger_hold(&c.held, 0, 10);
	ledger_hold(&c.held, 10, 10);
	CU_ASSERT_EQUAL(ledger_check(&l, &c.held, 0, &part, 1, &total, why, sizeof(why)), DLS_OK);
	ledger_commit(&l, &c.held, &part, 1);
	/* lost: [0,10), [10,12) and [16,20) go back; [12,16) was delivered */
	CU_ASSERT_EQUAL(serve_release(&l, &c, 0, &q), 16);
	CU_ASSERT_EQUAL(serve_ranges_left(&q), 16);
	CU_ASSERT_EQUAL(ledger_held_undelivered(&c.held), 0);
	CU_ASSERT(serve_ranges_pop(&q, &r));
	CU_ASSERT_EQUAL(r.start, 0);
	CU_ASSERT_EQUAL(r.count, 10);
	CU_ASSERT(serve_ranges_pop(&q, &r));
	CU_ASSERT_EQUAL(r.start, 10);
	CU_ASSERT_EQUAL(r.count, 2);
	CU_ASSERT(serve_ranges_pop(&q, &r));
	CU_ASSERT_EQUAL(r.start, 16);
	CU_ASSERT_EQUAL(r.count, 4);
	CU_ASSERT(!serve_ranges_pop(&q, &r));
	serve_ranges_free(&q);
	ledger_held_free(&c.held);
	ledger_free(&l);
}

/* A child taken back sends results of its old work that overlap work
 * given to it again, partly delivered since: the runs it holds undelivered
 * are kept, the rest dropped; a block that does not fit the loop is kept
 * whole (serve_take refuses it). */
static void test_drop_lost_work(void)
{
	struct ledger l;
	struct serve_child c;
	uint8_t data[100];
	struct dls_result first = {10, 5, data, 5, 0};
	struct dls_result res[3] = {{5, 20, data, 20, 0}, {40, 5, data, 5, 0}, {98, 5, data, 5, 0}};
	const struct dls_result *in = res;
	struct dls_result *kept;
	size_t n = 3;
	int64_t total, dropped;
	char why[256];

	for (int i = 0; i < 100; i++)
		data[i] = (uint8_t)i;
	memset(&c, 0, sizeof(c));
	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 100, 1), DLS_OK);
	ledger_hold(&c.held, 10, 20); /* given [10, 30) again */
	CU_ASSERT_EQUAL(ledger_check(&l, &c.held, 0, &first, 1, &total, why, sizeof(why)), DLS_OK);
	ledger_commit(&l, &c.held, &first, 1); /* [10, 15) delivered */
	CU_ASSERT_EQUAL_FATAL(serve_drop_lost_work(&l, &c, 0, &in, &n, &kept, &dropped, why,
						   sizeof(why)),
			      DLS_OK);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT(in == kept);
	CU_ASSERT(kept[0].start == 15 && kept[0].count == 10 && kept[0].nbytes == 10);
	CU_ASSERT_EQUAL(((const uint8_t *)kept[0].data)[0], 10); /* data[15 - 5] */
	CU_ASSERT(kept[1].start == 98 && kept[1].count == 5); /* does not fit: kept whole */
	CU_ASSERT_EQUAL(ledger_check(&l, &c.held, 0, kept, 1, &total, why, sizeof(why)), DLS_OK);
	ledger_unmark(&l, kept, 1);
	free(kept);
	/* a block cut in two, then one kept whole: more blocks kept than sent */
	{
		struct dls_result mid = {18, 2, data, 2, 0};
		struct dls_result two[2] = {{10, 20, data, 20, 0}, {98, 5, data, 5, 0}};

		CU_ASSERT_EQUAL(ledger_check(&l, &c.held, 0, &mid, 1, &total, why, sizeof(why)),
				DLS_OK);
		ledger_commit(&l, &c.held, &mid, 1); /* [18, 20) delivered too */
		in = two;
		n = 2;
		CU_ASSERT_EQUAL_FATAL(serve_drop_lost_work(&l, &c, 0, &in, &n, &kept, &dropped,
							   why, sizeof(why)),
				      DLS_OK);
		CU_ASSERT_EQUAL_FATAL(n, 3);
		CU_ASSERT(kept[0].start == 15 && kept[0].count == 3);
		CU_ASSERT(kept[1].start == 20 && kept[1].count == 10);
		CU_ASSERT(kept[2].start == 98 && kept[2].count == 5);
		free(kept);
	}
	/* given again as two ranges side by side, [40, 46) and [46, 52): a
	 * block of the old work across both is cut where they meet, or the
	 * ledger refuses it whole ("does not hold") */
	{
		struct dls_result across = {42, 8, data, 8, 0};

		ledger_hold(&c.held, 40, 6);
		ledger_hold(&c.held, 46, 6);
		in = &across;
		n = 1;
		CU_ASSERT_EQUAL_FATAL(serve_drop_lost_work(&l, &c, 0, &in, &n, &kept, &dropped,
							   why, sizeof(why)),
				      DLS_OK);
		CU_ASSERT_EQUAL_FATAL(n, 2);
		CU_ASSERT(kept[0].start == 42 && kept[0].count == 4 && kept[0].nbytes == 4);
		CU_ASSERT(kept[1].start == 46 && kept[1].count == 4 && kept[1].data == data + 4);
		CU_ASSERT_EQUAL(dropped, 0);
		CU_ASSERT_EQUAL(ledger_check(&l, &c.held, 0, kept, n, &total, why, sizeof(why)),
				DLS_OK);
		CU_ASSERT_EQUAL(total, 8);
		ledger_unmark(&l, kept, n);
		free(kept);
	}
	ledger_held_free(&c.held);
	ledger_free(&l);
}

/* A lost child's work goes to the requeue marked as its own: a child taken
 * back is served its own old work first (it may be computing it still, and
 * its results of it are then kept: it holds it again); anyone else takes
 * the oldest. */
static void test_requeue_own_first(void)
{
	struct ledger l;
	struct serve_child c0, c1;
	struct serve_ranges q = {0};
	uint8_t data[10] = {0};
	struct dls_result old = {12, 3, data, 3, 0};
	const struct dls_result *in = &old;
	struct dls_result *kept;
	struct dls_range k;
	size_t n = 1;
	int64_t dropped;
	char why[256];

	memset(&c0, 0, sizeof(c0));
	memset(&c1, 0, sizeof(c1));
	CU_ASSERT_EQUAL_FATAL(ledger_init(&l, 100, 1), DLS_OK);
	ledger_hold(&c1.held, 50, 10);
	ledger_hold(&c0.held, 10, 20);
	CU_ASSERT_EQUAL(serve_release(&l, &c1, 1, &q), 10);
	CU_ASSERT_EQUAL(serve_release(&l, &c0, 0, &q), 20);
	CU_ASSERT(serve_ranges_push(&q, 70, 5) == DLS_OK); /* from no child */
	CU_ASSERT(serve_ranges_pop_for(&q, 0, &k) && k.start == 10 && k.count == 20);
	ledger_hold(&c0.held, k.start, k.count); /* taken back, given its own again */
	CU_ASSERT_EQUAL(serve_drop_lost_work(&l, &c0, 0, &in, &n, &kept, &dropped, why,
					     sizeof(why)),
			DLS_OK);
	CU_ASSERT_EQUAL(n, 1); /* its late results of [12, 15) are kept */
	CU_ASSERT_EQUAL(dropped, 0);
	free(kept);
	CU_ASSERT(serve_ranges_pop_for(&q, 2, &k) && k.start == 50 && k.count == 10);
	CU_ASSERT(serve_ranges_pop_for(&q, 0, &k) && k.start == 70 && k.count == 5);
	CU_ASSERT(!serve_ranges_pop_for(&q, 0, &k));
	serve_ranges_free(&q);
	ledger_held_free(&c0.held);
	ledger_held_free(&c1.held);
	ledger_free(&l);
}

/* The steps serve_request ran, in order ("aktrsmf"), and where to refuse. */
struct steps_seen {
	char order[16];
	int n;
	char refuse_at; /* the step that refuses (0: none) */
	int retry;	/* take answers a retry */
	int after_rc;	/* the rc `after` was given */
	size_t kept_n;	/* the results that reached take */
};

static int seen(struct steps_seen *v, char step)
{
	v->order[v->n++] = step;
	return v->refuse_at == step ? DLS_EINVAL : DLS_OK;
}

static int st_admit(void *ctx, int id, uint64_t key, char *why)
{
	(void)id, (void)key, (void)why;
	return seen(ctx, 'a');
}

static int st_keep(void *ctx, int id, const struct dls_result **res, size_t *n, char *why)
{
	(void)id, (void)res, (void)why;
	*n = 1; /* a block dropped */
	return seen(ctx, 'k');
}

static int st_take(void *ctx, const struct dls_request *r, struct dls_reply *out, int *retry,
		   char *why)
{
	struct steps_seen *v = ctx;

	(void)out, (void)why;
	v->kept_n = r->nresults;
	*retry = v->retry;
	return seen(ctx, 't');
}

static int st_record(void *ctx, const struct dls_request *r, char *why)
{
	(void)r, (void)why;
	return seen(ctx, 'r');
}

static int st_serve(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why)
{
	(void)r, (void)why;
	out->kind = DLS_REPLY_WORK;
	return seen(ctx, 's');
}

static void st_remember(void *ctx, const struct dls_request *r, const struct dls_reply *out)
{
	(void)r;
	CU_ASSERT_EQUAL(out->kind, DLS_REPLY_WORK);
	seen(ctx, 'm');
}

static int st_after(void *ctx, const struct dls_request *r, struct dls_reply *out, int rc,
		    char *why)
{
	struct steps_seen *v = ctx;

	(void)r, (void)out, (void)why;
	v->after_rc = rc;
	seen(ctx, 'f');
	return rc;
}

/* serve_request: the steps in their order; a refusal skips the later ones
 * but `after` (once past take); a retry ends at take; keep's results are
 * what take sees. */
static void test_request_steps(void)
{
	static const struct serve_steps steps = {st_admit, st_keep,	st_take, st_record,
						 st_serve, st_remember, st_after};
	static const struct {
		char refuse_at;
		int retry;
		const char *order;
		int rc;
	} cases[] = {{0, 0, "aktrsmf", DLS_OK},	  {'a', 0, "a", DLS_EINVAL},
		     {'k', 0, "ak", DLS_EINVAL},  {'t', 0, "akt", DLS_EINVAL},
		     {0, 1, "akt", DLS_OK},	  {'r', 0, "aktrf", DLS_EINVAL},
		     {'s', 0, "aktrsf", DLS_EINVAL}};
	struct dls_result two[2] = {{0, 1, NULL, 0, 0}, {1, 1, NULL, 0, 0}};
	struct dls_request req;
	struct dls_reply out;
	char why[64];

	memset(&req, 0, sizeof(req));
	req.results = two;
	req.nresults = 2;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct steps_seen v = {.refuse_at = cases[k].refuse_at, .retry = cases[k].retry,
				       .after_rc = -1};

		memset(&out, 0, sizeof(out));
		CU_ASSERT_EQUAL(serve_request(&steps, &v, &req, &out, why), cases[k].rc);
		CU_ASSERT_STRING_EQUAL(v.order, cases[k].order);
		if (strchr(cases[k].order, 't'))
			CU_ASSERT_EQUAL(v.kept_n, 1);
		if (strchr(cases[k].order, 'f'))
			CU_ASSERT_EQUAL(v.after_rc, cases[k].rc);
	}
	CU_ASSERT_EQUAL(req.nresults, 2); /* the caller's request is not changed */
}

int serve_suite_add(void)
{
	CU_pSuite s = CU_add_suite("serving core", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "requests: retries, refusals, completeness rule", test_take) ||
	       !CU_add_test(s, "a second request on its way (depth 2)", test_second) ||
	       !CU_add_test(s, "ACPSA waiting line", test_queue) ||
	       !CU_add_test(s, "a lost child's work requeued", test_requeue) ||
	       !CU_add_test(s, "results of work lost: the runs still held kept",
			    test_drop_lost_work) ||
	       !CU_add_test(s, "a request's steps, in order", test_request_steps) ||
	       !CU_add_test(s, "a child taken back is served its own old work first",
			    test_requeue_own_first);
}
