/*
 * The liveness policy with a fake ORB: it pings exactly the targets the core
 * names, hands each silent one back to the core once the core stops naming
 * it, and stops when asked.  No sleeps: the test waits on a condition the
 * ping signals.
 */
#include <CUnit/CUnit.h>
#include <pthread.h>
#include <string.h>

#include "dls/err.h"
#include "dls_time.h"
#include "liveness.h"
#include "parent_watch.h"
#include "suites.h"

struct fake {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int holding[4]; /* who holds work: the targets */
	int pinged[4], lost[4];
};

static size_t targets(void *ctx, int *ids, size_t max)
{
	struct fake *f = ctx;
	size_t n = 0;

	pthread_mutex_lock(&f->lock);
	for (int i = 0; i < 4 && n < max; i++)
		if (f->holding[i])
			ids[n++] = i;
	pthread_mutex_unlock(&f->lock);
	return n;
}

static int ping(void *ctx, int id, char *why, size_t len)
{
	struct fake *f = ctx;

	pthread_mutex_lock(&f->lock);
	f->pinged[id]++;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	if (id == 2) {
		snprintf(why, len, "no answer");
		return DLS_EREMOTE;
	}
	if (id == 1) /* a ping that answers for a child in its grace (a relay's) */
		snprintf(why, len, "its relay does not answer");
	return DLS_OK;
}

static void lost(void *ctx, int id, const char *why)
{
	struct fake *f = ctx;

	pthread_mutex_lock(&f->lock);
	CU_ASSERT_STRING_EQUAL(why, "no answer");
	f->lost[id]++;
	f->holding[id] = 0; /* the core requeued its work */
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

static void test_watch(void)
{
	struct fake f;
	struct liveness_ops ops = {&f, targets, ping, lost};
	struct liveness *l;
	double deadline = dls_now() + 10;
	int err;

	memset(&f, 0, sizeof(f));
	pthread_mutex_init(&f.lock, NULL);
	dls_cond_init(&f.cond);
	f.holding[1] = f.holding[2] = f.holding[3] = 1;
	CU_ASSERT_PTR_NULL(liveness_start(&ops, 0, &err));
	CU_ASSERT_EQUAL(err, DLS_EINVAL);
	l = liveness_start(&ops, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	pthread_mutex_lock(&f.lock);
	/* three rounds at least (a round's pings run at once, in any order) */
	while ((f.pinged[1] < 3 || f.pinged[3] < 3) && dls_now() < deadline)
		dls_cond_wait_until(&f.cond, &f.lock, deadline);
	pthread_mutex_unlock(&f.lock);
	liveness_stop(l);
	CU_ASSERT(f.pinged[3] >= 3);
	CU_ASSERT_EQUAL(f.pinged[0], 0); /* holds nothing: not watched */
	CU_ASSERT(f.pinged[1] >= 3);
	CU_ASSERT_EQUAL(f.lost[1], 0);
	CU_ASSERT_EQUAL(f.pinged[2], 1); /* lost once, then no longer a target */
	CU_ASSERT_EQUAL(f.lost[2], 1);
	liveness_stop(NULL);
	pthread_cond_destroy(&f.cond);
	pthread_mutex_destroy(&f.lock);
}

/* A host cut off: its 6 children silent together.  Each ping blocks until 6
 * are in flight at once (or 5 s pass): serial pings would never get there. */
struct cut_off {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int in_flight, most, lost, holding;
};

static size_t cut_targets(void *ctx, int *ids, size_t max)
{
	struct cut_off *c = ctx;
	size_t n = 0;

	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < 6 && n < max; i++)
		if (c->holding & (1 << i))
			ids[n++] = i;
	pthread_mutex_unlock(&c->lock);
	return n;
}

static int cut_ping(void *ctx, int id, char *why, size_t len)
{
	struct cut_off *c = ctx;
	double deadline = dls_now() + 5;

	(void)id;
	pthread_mutex_lock(&c->lock);
	if (++c->in_flight > c->most)
		c->most = c->in_flight;
	pthread_cond_broadcast(&c->cond);
	while (c->most < 6 && dls_now() < deadline)
		dls_cond_wait_until(&c->cond, &c->lock, deadline);
	c->in_flight--;
	pthread_mutex_unlock(&c->lock);
	snprintf(why, len, "timeout");
	return DLS_EREMOTE;
}

static void cut_lost(void *ctx, int id, const char *why)
{
	struct cut_off *c = ctx;

	pthread_mutex_lock(&c->lock);
	CU_ASSERT_STRING_EQUAL(why, "timeout");
	c->lost++;
	c->holding &= ~(1 << id);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

static void test_pings_at_once(void)
{
	struct cut_off c;
	struct liveness_ops ops = {&c, cut_targets, cut_ping, cut_lost};
	struct liveness *l;
	double deadline = dls_now() + 10;
	int err;

	memset(&c, 0, sizeof(c));
	pthread_mutex_init(&c.lock, NULL);
	dls_cond_init(&c.cond);
	c.holding = 0x3f;
	l = liveness_start(&ops, 1, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(l);
	pthread_mutex_lock(&c.lock);
	while (c.lost < 6 && dls_now() < deadline)
		dls_cond_wait_until(&c.cond, &c.lock, deadline);
	pthread_mutex_unlock(&c.lock);
	liveness_stop(l);
	CU_ASSERT_EQUAL(c.most, 6); /* all six pinged at once */
	CU_ASSERT_EQUAL(c.lost, 6); /* each lost once */
	pthread_cond_destroy(&c.cond);
	pthread_mutex_destroy(&c.lock);
}

/* A parent gone for good: unreachable past the window and the checks,
 * silent past the patience; any answer starts the counts again. */
static void test_parent_watch(void)
{
	struct parent_watch w;
	char why[512] = "";

	/* a window of 2 s: unreachable at 0, 1, 2 s, gone at the third check */
	parent_watch_init(&w, 2000, 10000);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 100.0, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 101.0, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 101.9, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 102.0, DLS_EREMOTE, "refused", why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(why, "cannot be reached for 2.0 s, past the rejoin window "
				    "(--rejoin-ms 2000): refused");
	/* an answer in between starts again */
	parent_watch_init(&w, 2000, 10000);
	parent_watch_check(&w, 100.0, DLS_EREMOTE, "refused", why, sizeof(why));
	parent_watch_check(&w, 101.0, DLS_EREMOTE, "refused", why, sizeof(why));
	CU_ASSERT_EQUAL(parent_watch_check(&w, 101.5, DLS_OK, "", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 102.0, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 103.0, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 104.0, DLS_EREMOTE, "refused", why, sizeof(why)), 1);
	/* no window: the checks are the retries */
	parent_watch_init(&w, 0, 10000);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 100.0, DLS_EREMOTE, "gone", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 100.1, DLS_EREMOTE, "gone", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 100.2, DLS_EREMOTE, "gone", why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(why, "cannot be reached (3 checks in 0.2 s; no --rejoin-ms): gone");
	/* silent: the patience, not the window; a refusal does not add to it */
	parent_watch_init(&w, 2000, 10000);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 100.0, DLS_ETIMEDOUT, "timeout", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 105.0, DLS_ETIMEDOUT, "timeout", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 109.9, DLS_ETIMEDOUT, "timeout", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 110.0, DLS_ETIMEDOUT, "timeout", why, sizeof(why)), 1);
	CU_ASSERT_STRING_EQUAL(why, "has not answered for 10.0 s, past the patience "
				    "(--patience-ms 10000): timeout");
	parent_watch_init(&w, 2000, 10000);
	parent_watch_check(&w, 100.0, DLS_ETIMEDOUT, "timeout", why, sizeof(why));
	CU_ASSERT_EQUAL(parent_watch_check(&w, 105.0, DLS_EREMOTE, "refused", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(parent_watch_check(&w, 111.0, DLS_ETIMEDOUT, "timeout", why, sizeof(why)), 0);
}

int liveness_suite_add(void)
{
	CU_pSuite s = CU_add_suite("liveness policy", NULL, NULL);

	if (!s)
		return 1;
	return !CU_add_test(s, "targets pinged, a silent one lost once, stop", test_watch) ||
	       !CU_add_test(s, "a cut-off host's children pinged at once, all lost",
			    test_pings_at_once) ||
	       !CU_add_test(s, "a parent gone for good: window, checks, patience",
			    test_parent_watch);
}
