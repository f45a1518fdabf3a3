/*
 * idle_worker.c - the emulated slave's real computation at SCHED_IDLE (see
 * idle_worker.h).
 */
#include "idle_worker.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"

static void *work_loop(void *arg)
{
	struct idle_worker *w = arg;
	struct sched_param p;
	int e;

	dls_log_set_thread_label(w->log_label);
	memset(&p, 0, sizeof(p));
	e = pthread_setschedparam(pthread_self(), SCHED_IDLE, &p);
	if (e)
		log_warn("the real computation keeps the normal priority: SCHED_IDLE refused (%s)",
			 strerror(e));
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->quit && !(w->pending && w->fn))
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->quit)
			break;
		pthread_mutex_unlock(&w->lock);
		e = w->fn(w->arg);
		pthread_mutex_lock(&w->lock);
		w->rc = e;
		w->fn = NULL;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int idle_worker_start(struct idle_worker *w)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->log_label, sizeof(w->log_label), "%s", dls_log_thread_label());
	if (pthread_mutex_init(&w->lock, NULL))
		return DLS_ENOMEM;
	if (dls_cond_init(&w->cond)) {
		pthread_mutex_destroy(&w->lock);
		return DLS_ENOMEM;
	}
	if (pthread_create(&w->thread, NULL, work_loop, w)) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		return DLS_ENOMEM;
	}
	w->started = 1;
	return DLS_OK;
}

int idle_worker_call(struct idle_worker *w, int (*fn)(void *arg), void *arg)
{
	int rc;

	pthread_mutex_lock(&w->lock);
	w->fn = fn;
	w->arg = arg;
	w->pending = 1;
	pthread_cond_broadcast(&w->cond);
	while (w->fn)
		pthread_cond_wait(&w->cond, &w->lock);
	w->pending = 0;
	rc = w->rc;
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void idle_worker_stop(struct idle_worker *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	w->started = 0;
}
