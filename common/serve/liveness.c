/*
 * liveness.c - the watching thread (see liveness.h).
 */
#include "liveness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dls/err.h"
#include "dls_time.h"

/* The most children one round pings (a master has at most 4096, an hmaster 65536). */
#define LIVENESS_MAX_TARGETS 65536
/* The most pings in flight at once. */
#define LIVENESS_PARALLEL 32

struct liveness {
	struct liveness_ops ops;
	int period_ms;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* stop */
	int stop;	     /* guarded by lock */
	pthread_t thread;
	int *ids;
};

static int stopping(struct liveness *l)
{
	int stop;

	pthread_mutex_lock(&l->lock);
	stop = l->stop;
	pthread_mutex_unlock(&l->lock);
	return stop;
}

/* One round's pings, shared by its pinging threads. */
struct round {
	struct liveness *l;
	size_t n, next;	      /* targets, and the next to ping (guarded by lock) */
	char (*why)[256];     /* per target: why it did not answer ("" if it did) */
	pthread_mutex_t lock;
};

static void *pinger(void *arg)
{
	struct round *r = arg;

	for (;;) {
		size_t i;

		pthread_mutex_lock(&r->lock);
		i = r->next++;
		pthread_mutex_unlock(&r->lock);
		if (i >= r->n || stopping(r->l))
			return NULL;
		if (!r->l->ops.ping(r->l->ops.ctx, r->l->ids[i], r->why[i], sizeof(r->why[i])))
			r->why[i][0] = '\0'; /* it answered (or may not count yet) */
		else if (!r->why[i][0])
			snprintf(r->why[i], sizeof(r->why[i]), "no answer");
	}
}

/*
 * Pings the n targets of this round at once (up to LIVENESS_PARALLEL calls
 * in flight), so that children cut off together, a host whose link went
 * down, are all found within one ping timeout and do not delay the pings
 * of the others; then hands the silent ones to the core, one at a time.
 */
static void ping_round(struct liveness *l, size_t n)
{
	pthread_t threads[LIVENESS_PARALLEL];
	struct round r = {l, n, 0, calloc(n ? n : 1, sizeof(*r.why)), PTHREAD_MUTEX_INITIALIZER};
	size_t started = 0;

	if (!r.why)
		return;
	while (started < LIVENESS_PARALLEL && started < n &&
	       !pthread_create(&threads[started], NULL, pinger, &r))
		started++;
	if (!started) /* no thread to spare: ping from this one */
		pinger(&r);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < n && !stopping(l); i++)
		if (r.why[i][0])
			l->ops.lost(l->ops.ctx, l->ids[i], r.why[i]);
	free(r.why);
}

static void *watch(void *arg)
{
	struct liveness *l = arg;

	while (!stopping(l)) {
		ping_round(l, l->ops.targets(l->ops.ctx, l->ids, LIVENESS_MAX_TARGETS));
		pthread_mutex_lock(&l->lock);
		if (!l->stop)
			dls_cond_wait_until(&l->cond, &l->lock, dls_now() + l->period_ms / 1000.0);
		pthread_mutex_unlock(&l->lock);
	}
	return NULL;
}

struct liveness *liveness_start(const struct liveness_ops *ops, int period_ms, int *err)
{
	struct liveness *l;

	*err = DLS_EINVAL;
	if (period_ms < 1 || !ops->targets || !ops->ping || !ops->lost)
		return NULL;
	*err = DLS_ENOMEM;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->ids = calloc(LIVENESS_MAX_TARGETS, sizeof(*l->ids));
	if (!l->ids || pthread_mutex_init(&l->lock, NULL)) {
		free(l->ids);
		free(l);
		return NULL;
	}
	if (dls_cond_init(&l->cond)) {
		pthread_mutex_destroy(&l->lock);
		free(l->ids);
		free(l);
		return NULL;
	}
	l->ops = *ops;
	l->period_ms = period_ms;
	if (pthread_create(&l->thread, NULL, watch, l)) {
		pthread_cond_destroy(&l->cond);
		pthread_mutex_destroy(&l->lock);
		free(l->ids);
		free(l);
		return NULL;
	}
	*err = DLS_OK;
	return l;
}

void liveness_stop(struct liveness *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->lock);
	l->stop = 1;
	pthread_cond_signal(&l->cond);
	pthread_mutex_unlock(&l->lock);
	pthread_join(l->thread, NULL);
	pthread_cond_destroy(&l->cond);
	pthread_mutex_destroy(&l->lock);
	free(l->ids);
	free(l);
}
