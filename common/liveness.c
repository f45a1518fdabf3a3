/*
 * liveness.c - the watching thread (see liveness.h).
 */
#include "liveness.h"

#include <pthread.h>
#include <stdlib.h>

#include "dls/err.h"
#include "dls_time.h"

/* The most children one round pings (a master has at most 4096, an hmaster 65536). */
#define LIVENESS_MAX_TARGETS 65536

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

static void *watch(void *arg)
{
	struct liveness *l = arg;

	while (!stopping(l)) {
		size_t n = l->ops.targets(l->ops.ctx, l->ids, LIVENESS_MAX_TARGETS);

		for (size_t i = 0; i < n && !stopping(l); i++) {
			char why[256] = "";

			if (l->ops.ping(l->ops.ctx, l->ids[i], why, sizeof(why)))
				l->ops.lost(l->ops.ctx, l->ids[i], why);
		}
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
