/*
 * dls_ticker.c - a periodic thread (see dls_ticker.h).
 */
#include "dls_ticker.h"

#include <pthread.h>
#include <stdlib.h>

#include "dls_time.h"

struct dls_ticker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* stop was asked */
	int stop;
	int period_ms;
	int (*tick)(void *ctx);
	void *ctx;
};

static void *run(void *arg)
{
	struct dls_ticker *t = arg;

	pthread_mutex_lock(&t->lock);
	while (!t->stop) {
		dls_cond_wait_until(&t->cond, &t->lock, dls_now() + t->period_ms / 1000.0);
		if (t->stop)
			break;
		pthread_mutex_unlock(&t->lock);
		if (t->tick(t->ctx)) {
			pthread_mutex_lock(&t->lock);
			break;
		}
		pthread_mutex_lock(&t->lock);
	}
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

struct dls_ticker *dls_ticker_start(int period_ms, int (*tick)(void *ctx), void *ctx)
{
	struct dls_ticker *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->period_ms = period_ms > 0 ? period_ms : 1000;
	t->tick = tick;
	t->ctx = ctx;
	if (pthread_mutex_init(&t->lock, NULL)) {
		free(t);
		return NULL;
	}
	if (dls_cond_init(&t->cond)) {
		pthread_mutex_destroy(&t->lock);
		free(t);
		return NULL;
	}
	if (pthread_create(&t->thread, NULL, run, t)) {
		pthread_cond_destroy(&t->cond);
		pthread_mutex_destroy(&t->lock);
		free(t);
		return NULL;
	}
	return t;
}

void dls_ticker_stop(struct dls_ticker *t)
{
	if (!t)
		return;
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	pthread_join(t->thread, NULL);
	pthread_cond_destroy(&t->cond);
	pthread_mutex_destroy(&t->lock);
	free(t);
}
