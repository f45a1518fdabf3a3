/*
 * slave_steps.c - the step API of dls/embed.h: an embedded slave whose
 * loop body hands each chunk to the program's own thread and waits until
 * the program says it is done.  The slave's thread keeps the protocol
 * (requests, results, retries); the ORB's threads answer the pings.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/embed.h"
#include "dls/err.h"
#include "dls_time.h"
#include "host_peers.h"
#include "slave_embed.h"

enum hand { IDLE, OFFERED, TAKEN, RETURNED };

struct dls_steps {
	struct dls_embed_slave *slave;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	enum hand hand;
	struct dls_step step;
	int status; /* the program's verdict on the chunk */
	char why[200];
	int over;   /* the slave's run ended */
	int ending; /* dls_steps_end was called: no step is offered any more */
	uint32_t result_bytes;
	struct dls_job job; /* the run's, once registered */
	int have_job;
	int real_q;		 /* Q_i is read from the host (no q_override): */
	struct host_peers peers; /* the program's thread that computes the steps */
};

/* Offers a step to the program's thread and waits for its verdict; once
 * the program ended the slave (dls_steps_end, which may come between two
 * steps, before this one is offered), DLS_ESTOPPED at once. */
static int offer(struct dls_steps *s, int64_t first, int64_t count, void *out, char *why,
		 size_t len)
{
	int rc;

	pthread_mutex_lock(&s->lock);
	if (!s->ending) {
		s->step = (struct dls_step){first, count, out, s->result_bytes};
		s->hand = OFFERED;
		pthread_cond_broadcast(&s->cond);
	}
	while (s->hand != RETURNED && !s->ending)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->hand == RETURNED) {
		rc = s->status;
		if (rc)
			snprintf(why, len, "%s", s->why);
	} else {
		rc = DLS_ESTOPPED; /* as when asked between steps */
		snprintf(why, len, "the program ended the slave");
	}
	s->hand = IDLE;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* The slave's body: a step of a chunk. */
static int bridge(void *ctx, int64_t first, int64_t count, void *out, uint64_t *cost, char *why,
		  size_t len)
{
	int rc = offer(ctx, first, count, out, why, len);

	*cost += (uint64_t)count; /* real time: the program computed it */
	return rc;
}

/* The job, before any request: kept for dls_steps_job, then offered as a
 * step of no index, which the program accepts or refuses. */
static int job_ready(void *ctx, const struct dls_job *job, char *why, size_t len)
{
	struct dls_steps *s = ctx;

	pthread_mutex_lock(&s->lock);
	s->result_bytes = job->result_bytes;
	s->job = *job;
	s->have_job = 1;
	pthread_mutex_unlock(&s->lock);
	return offer(s, 0, 0, NULL, why, len);
}

static void ended(void *ctx)
{
	struct dls_steps *s = ctx;

	pthread_mutex_lock(&s->lock);
	s->over = 1;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

int dls_steps_start(const struct dls_embed_slave_options *o, struct dls_steps **out, char *why,
		    size_t len)
{
	struct dls_embed_slave_options so;
	struct dls_steps *s;
	int rc;

	*out = NULL;
	if ((rc = slave_embed_options(o, &so, why, len)))
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s || pthread_mutex_init(&s->lock, NULL) || dls_cond_init(&s->cond)) {
		free(s);
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	so.body = bridge;
	so.body_ctx = s;
	so.body_job = job_ready;
	so.emulated = 0; /* the program's own time is the cost */
	s->real_q = !(so.q_override > 0);
	rc = slave_embed_start(&so, ended, s, &s->slave, why, len);
	if (rc) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
		return rc;
	}
	*out = s;
	return DLS_OK;
}

int dls_steps_next(struct dls_steps *s, struct dls_step *step, int timeout_ms)
{
	double deadline = timeout_ms < 0 ? DLS_NEVER : dls_now() + timeout_ms / 1000.0;
	int rc = DLS_OK;

	pthread_mutex_lock(&s->lock);
	while (s->hand != OFFERED && !s->over)
		if (dls_cond_wait_until(&s->cond, &s->lock, deadline) && dls_now() >= deadline)
			break;
	if (s->hand == OFFERED) {
		s->hand = TAKEN;
		*step = s->step;
		/* the thread that computes the steps is the run's, not foreign load */
		if (step->count > 0 && s->real_q) {
			host_peers_join(&s->peers, s->job.run_name);
			s->real_q = 0; /* once */
		}
	} else {
		rc = s->over ? DLS_EDONE : DLS_ETIMEDOUT;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

const struct dls_job *dls_steps_job(struct dls_steps *s)
{
	const struct dls_job *j;

	pthread_mutex_lock(&s->lock);
	j = s->have_job ? &s->job : NULL;
	pthread_mutex_unlock(&s->lock);
	return j;
}

int dls_steps_done(struct dls_steps *s, const struct dls_step *step, int status, const char *why)
{
	int rc = DLS_OK;

	pthread_mutex_lock(&s->lock);
	if (s->hand != TAKEN || step->first != s->step.first || step->count != s->step.count) {
		rc = DLS_ESTATE; /* not the chunk dls_steps_next gave */
	} else {
		s->status = status;
		snprintf(s->why, sizeof(s->why), "%s", why ? why : "the program failed the chunk");
		s->hand = RETURNED;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int dls_steps_end(struct dls_steps *s, struct dls_slave_stats *st, char *why, size_t len)
{
	int rc;

	dls_embed_slave_stop(s->slave);
	pthread_mutex_lock(&s->lock);
	s->ending = 1; /* a step offered from now on ends the slave's run */
	pthread_cond_broadcast(&s->cond);
	if (s->hand == OFFERED || s->hand == TAKEN) { /* a chunk nobody will compute */
		s->status = DLS_ESTOPPED; /* the slave leaves, as when asked between steps */
		snprintf(s->why, sizeof(s->why), "the program ended the slave");
		s->hand = RETURNED;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->lock);
	rc = dls_embed_slave_wait(s->slave, st, why, len);
	host_peers_leave(&s->peers);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	return rc;
}
