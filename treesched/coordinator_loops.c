/*
 * coordinator_loops.c - a run of many loops under Tree Scheduling or a
 * balancing policy (coordinator.h): the next loop's job, its books and
 * every living slave's first iterations of it, over the same chain.
 */
#include "coordinator_internal.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"

uint32_t coordinator_loop(struct coordinator *c)
{
	uint32_t k;

	pthread_mutex_lock(&c->lock);
	k = c->loop;
	pthread_mutex_unlock(&c->lock);
	return k;
}

/* The lock is held. */
static int more_loops(const struct coordinator *c)
{
	return c->loop + 1 < (uint32_t)(c->cfg.loops > 1 ? c->cfg.loops : 1);
}

int coordinator_more_loops(struct coordinator *c)
{
	int more;

	pthread_mutex_lock(&c->lock);
	more = more_loops(c);
	pthread_mutex_unlock(&c->lock);
	return more;
}

/*
 * The first iterations of every living slave in a loop of `iterations`
 * after some were lost: contiguous blocks in chain order over the living
 * ones, equal or by throughput as the configuration says (the largest
 * remainders one each, from the right), or round-robin over them; the
 * lost get none.  The lock is held; DLS_OK, DLS_ESTATE (none is living)
 * or DLS_ENOMEM.
 */
static int allocate_living(struct coordinator *c, int64_t iterations)
{
	int n = c->plan->npes, nl = 0, rc = DLS_OK;
	int *living = calloc(n > 0 ? (size_t)n : 1, sizeof(*living));
	double *share = calloc(n > 0 ? (size_t)n : 1, sizeof(*share)), sum = 0;
	int64_t given = 0, at = 0;

	if (!living || !share) {
		rc = DLS_ENOMEM;
		goto out;
	}
	for (int k = 0; k < n; k++) {
		int id = c->plan->chain[k];

		c->start[id] = c->count[id] = 0;
		c->stride[id] = 1;
		if (coordinator_alive(c, id)) {
			living[nl++] = id;
			sum += c->cfg.alloc == TREE_ALLOC_PROPORTIONAL ? c->roster.v[id].info.speed
								       : 1;
		}
	}
	if (nl == 0) { /* every slave lost: no loop can run */
		rc = DLS_ESTATE;
		goto out;
	}
	if (c->cfg.alloc == TREE_ALLOC_ROUND_ROBIN) {
		for (int r = 0; r < nl; r++) {
			c->start[living[r]] = r;
			c->count[living[r]] = iterations / nl + (r < iterations % nl);
			c->stride[living[r]] = nl;
		}
		goto out;
	}
	for (int r = 0; r < nl; r++) {
		double w = c->cfg.alloc == TREE_ALLOC_PROPORTIONAL
				   ? c->roster.v[living[r]].info.speed
				   : 1;

		share[r] = w * (double)iterations / sum;
		c->count[living[r]] = (int64_t)share[r];
		share[r] -= (double)c->count[living[r]];
		given += c->count[living[r]];
	}
	while (given < iterations) { /* the largest remainder, ties to the right */
		int best = nl - 1;

		for (int r = nl - 1; r >= 0; r--)
			if (share[r] > share[best])
				best = r;
		c->count[living[best]]++;
		share[best] = -1;
		given++;
	}
	for (int r = 0; r < nl; r++) {
		c->start[living[r]] = at;
		at += c->count[living[r]];
	}
out:
	free(living);
	free(share);
	return rc;
}

/* Books of one loop of `iterations`, every living slave's first
 * iterations placed; the lock is held.  DLS_OK, DLS_ESTATE (no slave is
 * living) or DLS_ENOMEM. */
static int new_books(struct coordinator *c, int64_t iterations)
{
	int n = c->plan->npes, lost = 0, rc;
	size_t len = iterations > 0 ? (size_t)iterations : 1;
	int32_t *owner = calloc(len, sizeof(*owner));
	int32_t *giver = malloc(len * sizeof(*giver));
	int32_t *kept = malloc(len * sizeof(*kept));

	if (!owner || !giver || !kept) {
		free(owner);
		free(giver);
		free(kept);
		return DLS_ENOMEM;
	}
	free(c->owner);
	free(c->giver);
	free(c->kept);
	c->owner = owner;
	c->giver = giver;
	c->kept = kept;
	for (int i = 0; i < n; i++)
		lost += !coordinator_alive(c, i);
	if (lost) {
		rc = allocate_living(c, iterations);
	} else { /* as the first loop's */
		double *tau = calloc(n > 0 ? (size_t)n : 1, sizeof(*tau));

		for (int i = 0; tau && i < n; i++)
			tau[i] = c->roster.v[i].info.speed;
		rc = tau ? tree_plan_allocate(c->plan, tau, iterations, c->cfg.alloc, c->start,
					      c->count)
			 : DLS_ENOMEM;
		free(tau);
		for (int i = 0; i < n; i++)
			c->stride[i] = c->cfg.alloc == TREE_ALLOC_ROUND_ROBIN ? n : 1;
	}
	if (rc)
		return rc;
	for (int64_t i = 0; i < iterations; i++)
		c->giver[i] = c->kept[i] = -1;
	for (int i = 0; i < n; i++) {
		for (int64_t j = 0; j < c->count[i]; j++)
			c->owner[c->start[i] + j * c->stride[i]] = i;
		c->owned[i] = c->count[i];
	}
	return DLS_OK;
}

int coordinator_next_loop(struct coordinator *c, char *why)
{
	struct dls_param params[DLS_MAX_PARAMS];
	struct result_store fresh;
	uint64_t ticket = 0;
	int n = c->cfg.nparams, rc;

	pthread_mutex_lock(&c->lock);
	if (!c->plan || !c->results.done || !more_loops(c) || c->gate.closing) {
		why_f(why, "loop %u: %s", c->loop,
		      !c->results.done ? "results are still missing" : "no loop is left");
		pthread_mutex_unlock(&c->lock);
		return DLS_ESTATE;
	}
	memcpy(params, c->cfg.params, sizeof(params));
	rc = work_params_set_loop(params, &n, c->loop + 1);
	if (rc)
		why_f(why, "loop %u: no room for the parameter dls.loop (%d parameters at most)",
		      c->loop + 1, DLS_MAX_PARAMS);
	else
		rc = result_store_init(&fresh, c->cfg.workload, params, (size_t)n, c->cfg.order,
				       why, COORDINATOR_WHY_LEN);
	if (!rc) {
		rc = new_books(c, fresh.work.loop.iterations);
		if (rc) {
			why_f(why, "loop %u: %s", c->loop + 1,
			      rc == DLS_ESTATE ? "every slave was lost" : "out of memory");
			result_store_free(&fresh);
		}
	}
	if (!rc) {
		result_store_free(&c->results);
		c->results = fresh;
		c->results.loop = ++c->loop;
		memcpy(c->loop_params, params, sizeof(params));
		c->nloop_params = n;
		result_store_start(&c->results);
		ticket = coordinator_log_loop(c);
		log_info("loop %u of %d: %lld iterations", c->loop, c->cfg.loops,
			 (long long)coordinator_iterations(c));
	}
	pthread_mutex_unlock(&c->lock);
	journal_wait(c->journal, ticket); /* durable before any slave is placed for it */
	return rc;
}
