/*
 * master_tree.c - the coordinator of Tree Scheduling (see master_tree.h).
 */
#include "master_tree.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "master_internal.h"
#include "tree_plan.h"

void master_tree_free(struct master *m)
{
	struct tree_state *t = &m->tree;

	tree_plan_destroy(t->plan);
	free(t->pos);
	free(t->owner);
	free(t->owned);
	free(t->computed);
	free(t->mig_in);
	free(t->link);
	free(t->units);
	memset(t, 0, sizeof(*t));
}

/* Builds the chain over the registered slaves; the lock is held. */
static int build_chain(struct master *m)
{
	struct tree_state *t = &m->tree;
	int n = m->nregistered, rc;
	double *tau = calloc((size_t)n, sizeof(*tau));
	int64_t *start = calloc((size_t)n, sizeof(*start)), *count = calloc((size_t)n, sizeof(*count));

	t->pos = calloc((size_t)n, sizeof(*t->pos));
	t->owner = calloc((size_t)m->cfg.width, sizeof(*t->owner));
	t->owned = calloc((size_t)n, sizeof(*t->owned));
	t->computed = calloc((size_t)n, sizeof(*t->computed));
	t->mig_in = calloc((size_t)n, sizeof(*t->mig_in));
	t->link = calloc((size_t)n, sizeof(*t->link));
	rc = !tau || !start || !count || !t->pos || !t->owner || !t->owned || !t->computed ||
			     !t->mig_in || !t->link
		     ? DLS_ENOMEM
		     : DLS_OK;
	for (int i = 0; !rc && i < n; i++)
		tau[i] = m->slaves[i].info.speed;
	if (!rc)
		rc = tree_plan_build(tau, n, &t->plan);
	if (!rc)
		rc = tree_plan_allocate(t->plan, tau, m->cfg.width, (enum tree_alloc)m->cfg.tree.alloc,
					start, count);
	for (int k = 0; !rc && k < n; k++)
		t->pos[t->plan->chain[k]] = k;
	for (int i = 0; !rc && i < n; i++) {
		int64_t stride = m->cfg.tree.alloc == TREE_ALLOC_ROUND_ROBIN ? n : 1;

		for (int64_t j = 0; j < count[i]; j++)
			t->owner[start[i] + j * stride] = i;
		t->owned[i] = count[i];
		m->slaves[i].tree_start = start[i];
		m->slaves[i].tree_count = count[i];
		m->slaves[i].tree_stride = stride;
		m->slaves[i].info.state = DLS_SLAVE_ACTIVE;
	}
	free(tau);
	free(start);
	free(count);
	if (rc) {
		master_tree_free(m);
		return rc;
	}
	m->gate_open = 1;
	m->t_start = dls_now();
	log_info("chain of %d slaves built; Tree Scheduling starts", n);
	return DLS_OK;
}

static int alive(const struct master *m, int id)
{
	return m->slaves[id].registered && m->slaves[id].info.state != DLS_SLAVE_LOST;
}

/* The nearest living slave on one side of chain position k (-1: none). */
static int living_at(const struct master *m, int k, int step)
{
	for (k += step; k >= 0 && k < m->tree.plan->npes; k += step)
		if (alive(m, m->tree.plan->chain[k]))
			return m->tree.plan->chain[k];
	return -1;
}

void master_tree_neighbours(struct master *m, int id, int *left, double *left_tau, int *right,
			    double *right_tau)
{
	pthread_mutex_lock(&m->lock);
	*left = *right = -1;
	*left_tau = *right_tau = 0;
	if (m->tree.plan && id >= 0 && id < m->tree.plan->npes) {
		*left = living_at(m, m->tree.pos[id], -1);
		*right = living_at(m, m->tree.pos[id], +1);
		if (*left >= 0)
			*left_tau = m->slaves[*left].info.speed;
		if (*right >= 0)
			*right_tau = m->slaves[*right].info.speed;
	}
	pthread_mutex_unlock(&m->lock);
}

int master_tree_register(struct master *m, const char *name, double speed, int *id,
			 struct master_tree_place *place, char *why)
{
	double vp;
	int rc = master_register(m, name, speed, id, &vp, why);
	struct slave_rec *s;

	if (rc)
		return rc;
	pthread_mutex_lock(&m->lock);
	if (!m->tree.plan && (rc = build_chain(m)))
		master_why(why, "cannot build the chain: %s", dls_strerror(rc));
	if (!rc && *id >= m->tree.plan->npes) {
		master_why(why, "slave '%s' registered after the chain was built", name);
		rc = DLS_ESTATE;
	}
	pthread_mutex_unlock(&m->lock);
	if (rc)
		return rc;
	s = &m->slaves[*id];
	memset(place, 0, sizeof(*place));
	place->vpower = vp;
	place->start = s->tree_start;
	place->count = s->tree_count;
	place->stride = s->tree_stride;
	place->tau = speed;
	master_tree_neighbours(m, *id, &place->left_id, &place->left_tau, &place->right_id,
			       &place->right_tau);
	return DLS_OK;
}

static int check_slave(struct master *m, int id, char *why)
{
	if (!m->tree.plan || id < 0 || id >= m->tree.plan->npes) {
		master_why(why, "unknown slave id %d", id);
		return DLS_ENOENT;
	}
	if (!alive(m, id)) {
		master_why(why, "slave %d was declared lost; its work went to others", id);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

int master_tree_report(struct master *m, int id, const struct dls_result *res, size_t n,
		       const struct dls_times *times, char *why)
{
	struct tree_state *t = &m->tree;
	size_t h = (size_t)m->cfg.height;
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = check_slave(m, id, why);
	for (size_t b = 0; !rc && b < n; b++) {
		const struct dls_result *r = &res[b];

		if (r->count < 1 || r->start < 0 || r->start > m->cfg.width - r->count) {
			master_why(why, "result range [%lld, +%lld) is outside the loop [0, %d)",
				   (long long)r->start, (long long)r->count, m->cfg.width);
			rc = DLS_EINVAL;
		} else if (r->ncounts != (size_t)r->count * h) {
			master_why(why, "result [%lld, +%lld) carries %zu counts, expected %lld",
				   (long long)r->start, (long long)r->count, r->ncounts,
				   (long long)r->count * m->cfg.height);
			rc = DLS_EINVAL;
		}
	}
	for (size_t b = 0; !rc && b < n; b++)
		for (int64_t i = res[b].start; i < res[b].start + res[b].count; i++) {
			int64_t col = iter_order_column(&m->order, i);

			if (m->ledger.state[i] == 1) { /* computed twice after a failure */
				t->duplicates++;
				continue;
			}
			memcpy(m->image + (size_t)col * h,
			       res[b].counts + (size_t)(i - res[b].start) * h, h * sizeof(uint16_t));
			m->ledger.state[i] = 1;
			m->ledger.ndelivered++;
			t->computed[id]++;
			t->owned[t->owner[i]]--;
		}
	if (!rc) {
		m->slaves[id].info.times = *times;
		if (m->ledger.ndelivered == m->cfg.width && !m->done) {
			m->done = 1;
			m->t_end = dls_now();
			log_info("every result is in: T_p = %.3f s", m->t_end - m->t_start);
			pthread_cond_broadcast(&m->cond);
		}
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

/* Gives what `dead` holds to its nearest living left (else right) neighbour. */
static int reassign(struct master *m, int dead, struct master_tree_repair *rep)
{
	struct tree_state *t = &m->tree;
	int to = living_at(m, t->pos[dead], -1);

	if (to < 0)
		to = living_at(m, t->pos[dead], +1);
	rep->to = to;
	if (to < 0)
		return DLS_OK;
	for (int64_t i = 0; i < m->cfg.width; i++) {
		struct dls_range *r;

		if (t->owner[i] != dead || m->ledger.state[i] == 1)
			continue;
		t->owner[i] = to;
		t->owned[dead]--;
		t->owned[to]++;
		rep->iterations++;
		if (rep->nranges && rep->ranges[rep->nranges - 1].start +
						   rep->ranges[rep->nranges - 1].count == i) {
			rep->ranges[rep->nranges - 1].count++;
			continue;
		}
		r = realloc(rep->ranges, (rep->nranges + 1) * sizeof(*r));
		if (!r)
			return DLS_ENOMEM;
		rep->ranges = r;
		rep->ranges[rep->nranges++] = (struct dls_range){i, 1};
	}
	t->reassigned += rep->iterations;
	m->requeued_total += rep->iterations;
	return DLS_OK;
}

int master_tree_migrated(struct master *m, int from, int to, int64_t start, int64_t count,
			 int64_t stride, struct master_tree_repair *rep, char *why)
{
	struct tree_state *t = &m->tree;
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->to = rep->left = rep->right = -1;
	pthread_mutex_lock(&m->lock);
	rc = check_slave(m, from, why);
	if (!rc && (!t->plan || to < 0 || to >= t->plan->npes || to == from)) {
		master_why(why, "slave %d cannot hand work to slave %d", from, to);
		rc = DLS_EINVAL;
	}
	if (!rc && (count < 1 || stride < 1 || start < 0 ||
		    start + (count - 1) * stride >= m->cfg.width)) {
		master_why(why, "migrated range %lld + %lld x %lld is outside the loop [0, %d)",
			   (long long)start, (long long)count, (long long)stride, m->cfg.width);
		rc = DLS_EINVAL;
	}
	if (!rc) {
		int lo = t->pos[from] < t->pos[to] ? t->pos[from] : t->pos[to];

		for (int64_t j = 0; j < count; j++) {
			int64_t i = start + j * stride;

			if (m->ledger.state[i] != 1 && t->owner[i] == from) {
				t->owner[i] = to;
				t->owned[from]--;
				t->owned[to]++;
			}
		}
		t->migrations++;
		t->moved += count;
		t->mig_in[to]++;
		t->link[lo]++;
		rc = tree_units_count(&t->units, &t->nunits, count);
		if (!rc && !alive(m, to)) /* it died meanwhile: the work goes on */
			rc = reassign(m, to, rep);
	}
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_tree_lost(struct master *m, int id, const char *cause, struct master_tree_repair *rep)
{
	int rc;

	memset(rep, 0, sizeof(*rep));
	rep->to = rep->left = rep->right = -1;
	pthread_mutex_lock(&m->lock);
	if (!m->tree.plan || id < 0 || id >= m->tree.plan->npes || !alive(m, id)) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOENT;
	}
	m->slaves[id].info.state = DLS_SLAVE_LOST;
	rep->left = living_at(m, m->tree.pos[id], -1);
	rep->right = living_at(m, m->tree.pos[id], +1);
	rc = reassign(m, id, rep);
	log_warn("slave %d '%s' lost (%s): %lld undelivered iterations go to slave %d", id,
		 m->slaves[id].info.name, cause, (long long)rep->iterations, rep->to);
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

void master_tree_repair_free(struct master_tree_repair *rep)
{
	free(rep->ranges);
	rep->ranges = NULL;
	rep->nranges = 0;
}

size_t master_tree_living(struct master *m, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; m->tree.plan && i < m->tree.plan->npes && n < max; i++)
		if (alive(m, i) && m->slaves[i].info.state != DLS_SLAVE_DONE)
			ids[n++] = i;
	pthread_mutex_unlock(&m->lock);
	return n;
}

int master_tree_stats_get(struct master *m, struct master_tree_stats *out)
{
	struct tree_state *t = &m->tree;
	int n;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&m->lock);
	if (!t->plan) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOENT;
	}
	n = t->plan->npes;
	out->migrations = t->migrations;
	out->moved = t->moved;
	out->duplicates = t->duplicates;
	out->reassigned = t->reassigned;
	out->nunits = t->nunits;
	out->npes = n;
	out->unit_size = calloc(t->nunits + 1, sizeof(int64_t));
	out->unit_count = calloc(t->nunits + 1, sizeof(int64_t));
	out->chain = calloc((size_t)n, sizeof(int));
	out->link_level = calloc((size_t)n, sizeof(int));
	out->link_migrations = calloc((size_t)n, sizeof(int64_t));
	if (!out->unit_size || !out->unit_count || !out->chain || !out->link_level ||
	    !out->link_migrations) {
		pthread_mutex_unlock(&m->lock);
		master_tree_stats_free(out);
		return DLS_ENOMEM;
	}
	for (size_t k = 0; k < t->nunits; k++) {
		out->unit_size[k] = t->units[k].size;
		out->unit_count[k] = t->units[k].count;
	}
	for (int k = 0; k < n; k++) {
		out->chain[k] = t->plan->chain[k];
		if (k + 1 < n) {
			out->link_level[k] = t->plan->link_level[k];
			out->link_migrations[k] = t->link[k];
		}
	}
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

void master_tree_stats_free(struct master_tree_stats *s)
{
	free(s->unit_size);
	free(s->unit_count);
	free(s->chain);
	free(s->link_level);
	free(s->link_migrations);
	memset(s, 0, sizeof(*s));
}
