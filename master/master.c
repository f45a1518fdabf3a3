/*
 * master.c - the master's lifecycle, registration (seed 001 DTSS master
 * step 1, over the shared roster) and snapshots.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "mandel.h"
#include "master_internal.h"

void master_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return;
	va_start(ap, fmt);
	vsnprintf(why, MASTER_WHY_LEN, fmt, ap);
	va_end(ap);
}

static int check_config(const struct master_config *c)
{
	struct mandel_params mp = {c->width, c->height, c->maxit};

	if (c->nslaves < 1 || c->nslaves > MASTER_MAX_SLAVES || mandel_check(&mp))
		return DLS_EINVAL;
	if (c->collect != DLS_COLLECT_PIGGYBACK && c->collect != DLS_COLLECT_END)
		return DLS_EINVAL;
	if (c->register_timeout_ms < 1 || c->start_timeout_ms < 0 || c->wait_ms < 1)
		return DLS_EINVAL;
	return DLS_OK;
}

struct master *master_create(const struct master_config *cfg, int *err)
{
	struct master *m;
	struct sched *probe;
	int rc = check_config(cfg);

	if (rc) {
		*err = rc;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		*err = DLS_ENOMEM;
		return NULL;
	}
	m->cfg = *cfg;
	m->cfg.sched.iterations = cfg->width;
	m->cfg.sched.npes = cfg->nslaves;
	m->cfg.sched.acp = NULL;
	/* Check the scheme's parameters now, not when the first request comes. */
	rc = sched_create(&m->cfg.sched, &probe);
	sched_destroy(probe);
	if (rc) {
		free(m);
		*err = rc;
		return NULL;
	}
	m->children = calloc((size_t)cfg->nslaves, sizeof(*m->children));
	if (!m->children || roster_init(&m->roster, cfg->nslaves, cfg->register_timeout_ms) ||
	    result_store_init(&m->results, cfg->width, cfg->height, cfg->order) ||
	    pthread_mutex_init(&m->lock, NULL) || dls_cond_init(&m->cond)) {
		free(m->children);
		roster_free(&m->roster);
		result_store_free(&m->results);
		free(m);
		*err = DLS_ENOMEM;
		return NULL;
	}
	*err = DLS_OK;
	return m;
}

void master_destroy(struct master *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->cfg.nslaves; i++)
		ledger_held_free(&m->children[i].serve.held);
	sched_destroy(m->sched);
	free(m->children);
	roster_free(&m->roster);
	result_store_free(&m->results);
	serve_ranges_free(&m->requeue);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	free(m);
}

void master_close_registration_if_due(struct master *m, double now)
{
	if (!roster_close_if_due(&m->roster, now))
		return;
	m->gate_deadline = now + m->cfg.start_timeout_ms / 1000.0;
	pthread_cond_broadcast(&m->cond);
	serve_queue_wake_head(&m->queue); /* the start gate may open now */
}

/* Registers n slaves (or one two-level hmaster); the lock is held. */
static int add_slaves(struct master *m, const char *const *names, const double *speeds, size_t n,
		      const double *min_leaf, int *ids, char *why)
{
	int rc = roster_add(&m->roster, names, speeds, n, min_leaf, ids, why, MASTER_WHY_LEN);

	for (size_t k = 0; !rc && k < n; k++)
		m->children[ids[k]].serve.may_prefetch = min_leaf != NULL;
	if (!rc)
		master_close_registration_if_due(m, dls_now());
	return rc;
}

int master_register_group(struct master *m, const char *const *names, const double *speeds,
			  size_t n, int *ids, double *vpowers, char *why)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = add_slaves(m, names, speeds, n, NULL, ids, why);
	if (!rc)
		roster_wait_closed(&m->roster, &m->lock, &m->cond);
	for (size_t k = 0; !rc && k < n; k++)
		vpowers[k] = m->roster.v[ids[k]].info.vpower;
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_register_cluster(struct master *m, const char *name, const double *speeds, size_t n,
			    int *id, double *vpowers, char *why)
{
	double sum = 0, min = INFINITY;
	int rc;

	if (n < 1) {
		master_why(why, "hmaster '%s' registers no slaves", name);
		return DLS_EINVAL;
	}
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(speeds[k]) || speeds[k] <= 0) {
			master_why(why, "speed %g of slave %zu below '%s' must be a positive finite "
				   "number", speeds[k], k, name);
			return DLS_EINVAL;
		}
		sum += speeds[k];
		if (speeds[k] < min)
			min = speeds[k];
	}
	pthread_mutex_lock(&m->lock);
	rc = add_slaves(m, &name, &sum, 1, &min, id, why);
	if (!rc) {
		roster_wait_closed(&m->roster, &m->lock, &m->cond);
		for (size_t k = 0; k < n; k++) /* as if each had registered here */
			vpowers[k] = roster_vpower(&m->roster, speeds[k]);
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_register(struct master *m, const char *name, double speed, int *id, double *vpower,
		    char *why)
{
	return master_register_group(m, &name, &speed, 1, id, vpower, why);
}

int master_wait_done(struct master *m, int timeout_ms)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = result_store_wait_done(&m->results, &m->lock, &m->cond,
				    dls_now() + timeout_ms / 1000.0);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

static int all_dismissed(const struct master *m)
{
	for (int i = 0; i < m->roster.n; i++) {
		enum dls_slave_state st = m->roster.v[i].info.state;

		if (st != DLS_SLAVE_DONE && st != DLS_SLAVE_LOST)
			return 0;
	}
	return 1;
}

int master_wait_dismissed(struct master *m, int timeout_ms)
{
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_OK;

	pthread_mutex_lock(&m->lock);
	while (!all_dismissed(m)) {
		if (dls_cond_wait_until(&m->cond, &m->lock, deadline) && dls_now() >= deadline) {
			rc = all_dismissed(m) ? DLS_OK : DLS_ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_all_lost(struct master *m)
{
	int all;

	pthread_mutex_lock(&m->lock);
	all = roster_all_lost(&m->roster);
	pthread_mutex_unlock(&m->lock);
	return all;
}

int master_snapshot(struct master *m, struct dls_status *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&m->lock);
	out->slaves = calloc((size_t)m->cfg.nslaves, sizeof(*out->slaves));
	if (!out->slaves) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOMEM;
	}
	out->scheme = sched_kind_name(m->cfg.sched.kind);
	out->iterations = m->cfg.width;
	out->assigned = m->assigned;
	out->delivered = m->results.ledger.ndelivered;
	out->requeued = m->requeued_total;
	out->recomputations = m->sched ? sched_recomputations(m->sched) : 0;
	out->started = m->gate_open;
	out->done = m->results.done;
	out->elapsed = result_store_elapsed(&m->results);
	for (int i = 0; i < m->roster.n; i++) {
		out->slaves[out->nslaves] = m->roster.v[i].info;
		out->slaves[out->nslaves].held =
			ledger_held_undelivered(&m->children[i].serve.held);
		out->nslaves++;
	}
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

const uint16_t *master_image(const struct master *m)
{
	return m->results.image;
}

const struct master_config *master_config_of(const struct master *m)
{
	return &m->cfg;
}

void master_job(const struct master *m, struct dls_job *out)
{
	const struct master_config *c = &m->cfg;

	memset(out, 0, sizeof(*out));
	snprintf(out->run_name, sizeof(out->run_name), "%s", c->run_name);
	snprintf(out->workload, sizeof(out->workload), "%s", c->workload);
	out->width = c->width;
	out->height = c->height;
	out->maxit = c->maxit;
	out->iterations = c->width;
	out->order = c->order;
	out->collect = c->collect;
	sched_params_to_scheme(&c->sched, &out->scheme);
}
