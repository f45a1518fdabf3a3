/*
 * slave_watch.c - a master-slave slave's watch on its master while it
 * computes (see slave_watch.h).
 */
#include "slave_watch.h"

#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "parent_watch.h"
#include "slave_cut.h"
#include "slave_internal.h"

static void *watch(void *arg)
{
	struct slave_watch *w = arg;
	struct run *r = w->r;
	struct parent_watch pw;

	dls_log_set_thread_label(r->log_label);
	parent_watch_init(&pw, r->cfg->rejoin_ms, r->cfg->patience_ms);
	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		char cause[256] = "", gone[512];
		int rc;

		dls_cond_wait_until(&w->cond, &w->lock, dls_now() + 1.0);
		if (w->stop)
			break;
		pthread_mutex_unlock(&w->lock);
		rc = r->ops->reach(r->ops->ctx, SLAVE_WATCH_TIMEOUT_MS, cause, sizeof(cause));
		if (parent_watch_check(&pw, dls_now(), rc, cause, gone, sizeof(gone))) {
			log_err("gave up: the %s %s", slave_parent(r), gone);
			atomic_store(&r->parent_gone, 1);
			if (r->cut)
				slave_cut_short(r->cut);
			pthread_mutex_lock(&w->lock);
			break;
		}
		pthread_mutex_lock(&w->lock);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int slave_watch_start(struct slave_watch *w, struct run *r)
{
	memset(w, 0, sizeof(*w));
	w->r = r;
	if (!r->ops->reach)
		return DLS_OK;
	pthread_mutex_init(&w->lock, NULL);
	dls_cond_init(&w->cond);
	if (pthread_create(&w->thread, NULL, watch, w)) {
		pthread_cond_destroy(&w->cond);
		pthread_mutex_destroy(&w->lock);
		return DLS_ENOMEM;
	}
	w->started = 1;
	return DLS_OK;
}

void slave_watch_stop(struct slave_watch *w)
{
	if (!w->started)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
	w->started = 0;
}
