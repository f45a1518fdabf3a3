/*
 * slave_tree.c - a slave's loop in Tree Scheduling (see slave_tree.h).
 */
#include "slave_tree.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "slave_call.h"
#include "slave_internal.h"
#include "stride_ranges.h"
#include "tree_migrate.h"

#define EARLY_MAX 8

struct slave_tree {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work arrived, neighbours changed, or stop */
	struct stride_ranges held; /* unstarted iterations */
	int placed, id, stop;
	int loop_over; /* a run of many loops: this loop is over here (slave_tree_end_loop) */
	int64_t iterations; /* the loop's, once placed */
	int left, right; /* -1: none */
	double tau, left_tau, right_tau;
	int pending[2]; /* a demand waits here from TREE_LEFT / TREE_RIGHT */
	int early[EARLY_MAX], nearly; /* demands from slaves not (yet) known as neighbours */
	int asked;			/* demands outstanding */
	struct placed_stats ts;
};

struct slave_tree *slave_tree_create(void)
{
	struct slave_tree *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (pthread_mutex_init(&t->lock, NULL) || dls_cond_init(&t->cond)) {
		free(t);
		return NULL;
	}
	t->left = t->right = -1;
	return t;
}

void slave_tree_destroy(struct slave_tree *t)
{
	if (!t)
		return;
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	stride_ranges_free(&t->held);
	free(t);
}

/* Demands that came before their sender was known as a neighbour. */
static void adopt_early(struct slave_tree *t)
{
	int k = 0;

	for (int i = 0; i < t->nearly; i++) {
		if (t->early[i] >= 0 && t->early[i] == t->left)
			t->pending[TREE_LEFT] = 1;
		else if (t->early[i] >= 0 && t->early[i] == t->right)
			t->pending[TREE_RIGHT] = 1;
		else
			t->early[k++] = t->early[i];
	}
	t->nearly = k;
}

int slave_tree_on_demand(struct slave_tree *t, int from)
{
	pthread_mutex_lock(&t->lock);
	if (t->placed && from == t->right)
		t->pending[TREE_RIGHT] = 1;
	else if (t->placed && from == t->left)
		t->pending[TREE_LEFT] = 1;
	else if (t->nearly < EARLY_MAX) /* not placed yet, or the chain is being repaired */
		t->early[t->nearly++] = from;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return DLS_OK;
}

int slave_tree_on_transfer(struct slave_tree *t, int from, int64_t start, int64_t count,
			   int64_t stride, char *why, size_t len)
{
	int rc;

	pthread_mutex_lock(&t->lock);
	/* a transfer comes after a demand, so after placement */
	if (!t->placed || !tree_migrate_range_ok(start, count, stride, t->iterations)) {
		snprintf(why, len,
			 "transfer from %d of %lld + %lld x %lld: not inside the loop [0, %lld)%s",
			 from, (long long)start, (long long)count, (long long)stride,
			 (long long)t->iterations, t->placed ? "" : " (not placed yet)");
		pthread_mutex_unlock(&t->lock);
		return DLS_EINVAL;
	}
	rc = stride_ranges_push(&t->held, start, count, stride);
	if (!rc) {
		t->asked = 0;
		t->ts.migrations_in++;
		t->ts.moved_in += count;
		log_debug("got %lld iterations from %d", (long long)count, from);
	}
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void slave_tree_on_neighbours(struct slave_tree *t, int left, double left_tau, int right,
			      double right_tau)
{
	pthread_mutex_lock(&t->lock);
	if (left != t->left)
		t->pending[TREE_LEFT] = 0;
	if (right != t->right)
		t->pending[TREE_RIGHT] = 0;
	t->left = left;
	t->right = right;
	t->left_tau = left_tau;
	t->right_tau = right_tau;
	t->asked = 0; /* an idle slave asks its new neighbour */
	adopt_early(t);
	log_info("new neighbours: left %d, right %d", left, right);
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

void slave_tree_on_stop(struct slave_tree *t)
{
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

void slave_tree_end_loop(struct slave_tree *t)
{
	pthread_mutex_lock(&t->lock);
	t->loop_over = 1;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

/* What a loop leaves behind, gone before the next (its placement, work,
 * demands); the lock is held.  The counts of what moved stay. */
static void forget_loop(struct slave_tree *t)
{
	stride_ranges_free(&t->held);
	memset(&t->held, 0, sizeof(t->held));
	t->placed = 0;
	t->loop_over = 0;
	t->pending[TREE_LEFT] = t->pending[TREE_RIGHT] = 0;
	t->nearly = 0;
	t->asked = 0;
}

/* The coordinator's migrated(), as slave_call makes it. */
struct migrated_call {
	const struct placed_ops *ops;
	int from, to;
	struct stride_range tail;
};

static int migrated_once(void *arg, char *why, size_t len)
{
	struct migrated_call *c = arg;

	return c->ops->migrated(c->ops->ctx, c->from, c->to, c->tail.start, c->tail.count,
				c->tail.stride, why, len);
}

/* Serves the demands waiting here, between iterations; the lock is held. */
static void serve_demands(struct run *r, struct slave_tree *t, const struct placed_ops *ops,
			  const struct placement *a)
{
	for (int side = TREE_RIGHT; side >= TREE_LEFT; side--) {
		int64_t rem = stride_ranges_count(&t->held), n;
		struct stride_range tail;
		int to = side == TREE_RIGHT ? t->right : t->left, rc;
		char why[SLAVE_WHY_LEN];

		if (!t->pending[side] || rem == 0 || to < 0)
			continue;
		n = tree_migrate_count((enum tree_gamma)a->gamma, t->tau,
				       side == TREE_RIGHT ? t->right_tau : t->left_tau, rem);
		if (a->bidirectional && n >= rem)
			n = rem - 1; /* two idle neighbours would pass it back and forth */
		if (n <= 0)
			continue;
		tail = stride_ranges_tail(&t->held, n); /* the tail of the newest range */
		n = tail.count;
		stride_ranges_drop_tail(&t->held, n);
		t->pending[side] = 0;
		pthread_mutex_unlock(&t->lock);
		/* the coordinator learns who holds them before they move, so that
		 * its books are never behind: a report from the receiver, or a
		 * hand-over further along the chain, always finds them there */
		struct migrated_call mc = {ops, t->id, to, tail};

		rc = slave_call(r, migrated_once, &mc, why, sizeof(why));
		if (rc) {
			log_warn("the coordinator did not take the hand-over of %lld iterations to "
				 "slave %d, kept: %s",
				 (long long)n, to, why);
		} else {
			slave_link_delay(r->cfg->link_latency_us);
			rc = ops->transfer(ops->ctx, (enum tree_side)side, t->id, tail.start,
					   tail.count, tail.stride, why, sizeof(why));
			if (rc) /* its books say `to`; that slave is its neighbour, and a
				 * dead one's work comes back to the chain */
				log_warn("cannot hand %lld iterations to slave %d: %s", (long long)n,
					 to, why);
		}
		pthread_mutex_lock(&t->lock);
		if (rc) { /* it keeps them; the coordinator will close the chain */
			stride_ranges_push(&t->held, tail.start, tail.count, tail.stride);
		} else {
			t->ts.migrations_out++;
			t->ts.moved_out += n;
		}
	}
}

/* Sends one demand to each neighbour it may ask; the lock is held. */
static void ask(struct run *r, struct slave_tree *t, const struct placed_ops *ops,
		const struct placement *a)
{
	int sides[2], n = 0;

	if (t->left >= 0)
		sides[n++] = TREE_LEFT;
	if (a->bidirectional && t->right >= 0)
		sides[n++] = TREE_RIGHT;
	t->asked = n;
	pthread_mutex_unlock(&t->lock);
	for (int i = 0; i < n; i++) {
		char why[SLAVE_WHY_LEN];

		slave_link_delay(r->cfg->link_latency_us);
		if (ops->demand(ops->ctx, (enum tree_side)sides[i], t->id, why, sizeof(why)))
			log_warn("demand to the %s neighbour failed: %s",
				 sides[i] == TREE_LEFT ? "left" : "right", why);
	}
	pthread_mutex_lock(&t->lock);
}

/* Takes placement a: the slave's id, neighbours and first iterations,
 * and the demands that came before it.  DLS_OK or DLS_ENOMEM. */
static int take_place(struct slave_tree *t, const struct placement *a)
{
	int rc;

	pthread_mutex_lock(&t->lock);
	t->id = a->id;
	t->iterations = a->job.iterations;
	t->tau = a->tau;
	t->left = a->left_id;
	t->right = a->right_id;
	t->left_tau = a->left_tau;
	t->right_tau = a->right_tau;
	rc = stride_ranges_push(&t->held, a->start, a->count, a->stride);
	t->placed = 1;
	adopt_early(t);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

/* Out of work: the results computed go now; else one demand to the
 * neighbours, and a wait of 0.2 s for work, counted as waiting.  The lock
 * is held on entry and on return.  DLS_OK or the error of the report. */
static int idle_step(struct run *r, struct slave_tree *t, const struct placed_ops *ops,
		     const struct placement *a, struct report_clock *clock)
{
	if (r->store.n)
		return slave_report_unlocked(r, clock, &t->lock);
	if (!t->asked)
		ask(r, t, ops, a);
	if (!t->stop && !t->loop_over && t->held.n == 0)
		slave_wait_for_work(r, &t->cond, &t->lock);
	return DLS_OK;
}

int slave_tree_loop(struct slave_tree *t, struct run *r, const struct placed_ops *ops,
		    const struct placement *a, struct placed_stats *ts)
{
	struct stretch stretch = {0, 0};
	struct report_clock clock = {ops->report, ops->ctx, a->id, a->report_interval, 0};
	int rc = take_place(t, a);

	if (rc)
		return rc;
	log_info("placed as slave %d: %lld iterations from %lld (stride %lld), neighbours %d and "
		 "%d",
		 a->id, (long long)a->count, (long long)a->start, (long long)a->stride, a->left_id,
		 a->right_id);
	clock.last = dls_now();
	pthread_mutex_lock(&t->lock);
	while (!t->stop && !t->loop_over && !rc) {
		int64_t before = t->ts.migrations_out;

		serve_demands(r, t, ops, a);
		if (t->ts.migrations_out != before)
			stretch.t0 = 0; /* the calls took their time: start afresh */
		if (t->held.n > 0) { /* the next iteration */
			int64_t it = stride_ranges_take(&t->held);

			pthread_mutex_unlock(&t->lock);
			rc = slave_compute_reporting(r, it, &stretch, &clock);
			pthread_mutex_lock(&t->lock);
			continue;
		}
		stretch.t0 = 0; /* out of work: results go now, then one demand, then wait */
		rc = idle_step(r, t, ops, a, &clock);
	}
	if (t->loop_over && !t->stop)
		forget_loop(t);
	pthread_mutex_unlock(&t->lock);
	if (!rc && r->store.n) /* cannot happen: a loop ends once every result is in */
		log_warn("stopped with %zu result blocks unsent", r->store.n);
	if (ts)
		*ts = t->ts;
	return rc;
}
