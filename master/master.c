/*
 * master.c - the master's lifecycle, registration (seed 001 DTSS master
 * step 1: Speed -> V_i = Speed_i / min Speed) and snapshots.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "master_internal.h"
#include "mandel.h"

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

	if (c->nslaves < 1 || c->nslaves > 4096 || mandel_check(&mp))
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
	if (cfg->tree.enabled) /* no scheme at the master: a valid one for the probe */
		m->cfg.sched.kind = SCHED_SS;
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
	iter_order_init(&m->order, cfg->order, cfg->width);
	m->slaves = calloc((size_t)cfg->nslaves, sizeof(*m->slaves));
	m->image = calloc((size_t)cfg->width * (size_t)cfg->height, sizeof(uint16_t));
	if (!m->slaves || ledger_init(&m->ledger, cfg->width, cfg->height) || !m->image ||
	    pthread_mutex_init(&m->lock, NULL) || dls_cond_init(&m->cond)) {
		free(m->slaves);
		ledger_free(&m->ledger);
		free(m->image);
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
		ledger_held_free(&m->slaves[i].held);
	while (m->queue) {
		struct waiter *w = m->queue;

		m->queue = w->next;
		free(w);
	}
	sched_destroy(m->sched);
	master_tree_free(m);
	free(m->slaves);
	ledger_free(&m->ledger);
	free(m->image);
	free(m->requeue);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->cond);
	free(m);
}

void master_close_registration_if_due(struct master *m, double now)
{
	if (m->registration_closed || m->nregistered == 0)
		return;
	if (m->nregistered < m->cfg.nslaves &&
	    now < m->first_register_time + m->cfg.register_timeout_ms / 1000.0)
		return;
	m->registration_closed = 1;
	m->min_speed = INFINITY;
	for (int i = 0; i < m->cfg.nslaves; i++) /* the slowest slave, at any depth */
		if (m->slaves[i].registered && m->slaves[i].min_leaf_speed < m->min_speed)
			m->min_speed = m->slaves[i].min_leaf_speed;
	for (int i = 0; i < m->cfg.nslaves; i++)
		if (m->slaves[i].registered)
			m->slaves[i].info.vpower = m->slaves[i].info.speed / m->min_speed;
	m->gate_deadline = now + m->cfg.start_timeout_ms / 1000.0;
	if (m->nregistered < m->cfg.nslaves)
		log_warn("registration closed with %d of %d slaves", m->nregistered,
			 m->cfg.nslaves);
	else
		log_info("all %d slaves registered", m->nregistered);
	pthread_cond_broadcast(&m->cond);
}

/* Registers n slaves atomically (or one two-level hmaster, whose slowest
 * slave is *min_leaf); the lock is held. */
static int add_slaves(struct master *m, const char *const *names, const double *speeds, size_t n,
		      const double *min_leaf, int *ids, char *why)
{
	double now = dls_now();

	for (size_t k = 0; k < n; k++) {
		if (!isfinite(speeds[k]) || speeds[k] <= 0) {
			master_why(why, "speed %g of '%s' must be a positive finite number",
				   speeds[k], names[k]);
			return DLS_EINVAL;
		}
	}
	if ((size_t)(m->cfg.nslaves - m->nregistered) < n) {
		master_why(why, "the run expects %d slaves and has %d of them registered",
			   m->cfg.nslaves, m->nregistered);
		return DLS_ESTATE;
	}
	if (m->nregistered == 0)
		m->first_register_time = now;
	for (size_t k = 0; k < n; k++) {
		struct slave_rec *s = &m->slaves[m->nregistered];

		s->registered = 1;
		s->info.id = m->nregistered;
		snprintf(s->info.name, sizeof(s->info.name), "%s", names[k]);
		s->info.speed = speeds[k];
		s->min_leaf_speed = min_leaf ? *min_leaf : speeds[k];
		s->cluster = min_leaf != NULL;
		s->info.state = DLS_SLAVE_REGISTERED;
		/* A late slave (registration already closed) counts at least 1. */
		if (m->registration_closed) {
			s->info.vpower = speeds[k] / m->min_speed;
			if (s->info.vpower < 1)
				s->info.vpower = 1;
		}
		ids[k] = m->nregistered++;
		log_info("slave %d '%s' registered, speed %g", ids[k], names[k], speeds[k]);
	}
	master_close_registration_if_due(m, now);
	return DLS_OK;
}

/* Blocks until registration closes; the lock is held. */
static void wait_registration_closed(struct master *m)
{
	while (!m->registration_closed) {
		double deadline = m->first_register_time + m->cfg.register_timeout_ms / 1000.0;

		dls_cond_wait_until(&m->cond, &m->lock, deadline);
		master_close_registration_if_due(m, dls_now());
	}
}

int master_register_group(struct master *m, const char *const *names, const double *speeds,
			  size_t n, int *ids, double *vpowers, char *why)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = add_slaves(m, names, speeds, n, NULL, ids, why);
	if (!rc)
		wait_registration_closed(m);
	for (size_t k = 0; !rc && k < n; k++)
		vpowers[k] = m->slaves[ids[k]].info.vpower;
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
		wait_registration_closed(m);
		for (size_t k = 0; k < n; k++) /* as if each had registered here */
			vpowers[k] = m->registration_closed && speeds[k] / m->min_speed >= 1
					     ? speeds[k] / m->min_speed
					     : 1;
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
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_OK;

	pthread_mutex_lock(&m->lock);
	while (!m->done) {
		if (dls_cond_wait_until(&m->cond, &m->lock, deadline) && dls_now() >= deadline) {
			rc = m->done ? DLS_OK : DLS_ETIMEDOUT;
			break;
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

static int all_dismissed(const struct master *m)
{
	for (int i = 0; i < m->cfg.nslaves; i++) {
		const struct slave_rec *s = &m->slaves[i];

		if (s->registered && s->info.state != DLS_SLAVE_DONE &&
		    s->info.state != DLS_SLAVE_LOST)
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

int master_snapshot(struct master *m, struct dls_status *out)
{
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&m->lock);
	out->slaves = calloc((size_t)m->cfg.nslaves, sizeof(*out->slaves));
	if (!out->slaves) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOMEM;
	}
	out->scheme = m->cfg.tree.enabled ? "trees" : sched_kind_name(m->cfg.sched.kind);
	out->iterations = m->cfg.width;
	out->assigned = m->assigned;
	out->delivered = m->ledger.ndelivered;
	out->requeued = m->requeued_total;
	out->recomputations = m->sched ? sched_recomputations(m->sched) : 0;
	out->started = m->gate_open;
	out->done = m->done;
	out->elapsed = !m->gate_open ? 0 : m->done ? m->t_end - m->t_start : dls_now() - m->t_start;
	for (int k = 0; k < m->cfg.nslaves; k++) {
		/* Tree Scheduling lists the slaves in chain order */
		int i = m->tree.plan && k < m->tree.plan->npes ? m->tree.plan->chain[k] : k;

		if (!m->slaves[i].registered || (m->tree.plan && k >= m->tree.plan->npes))
			continue;
		out->slaves[out->nslaves] = m->slaves[i].info;
		out->slaves[out->nslaves].held = m->tree.plan ? m->tree.owned[i]
							      : ledger_held_undelivered(&m->slaves[i].held);
		if (m->tree.plan) {
			out->slaves[out->nslaves].iterations = m->tree.computed[i];
			out->slaves[out->nslaves].chunks = m->tree.mig_in[i];
		}
		out->nslaves++;
	}
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

const uint16_t *master_image(const struct master *m)
{
	return m->image;
}

const struct master_config *master_config_of(const struct master *m)
{
	return &m->cfg;
}
