/*
 * coordinator_repair.c - the coordinator's books of who holds which
 * iteration (coordinator_internal.h): a hand-over noticed before it moves
 * (coordinator_migrated), a lost slave's work given to its nearest living
 * neighbour, with what it handed on that may not have arrived
 * (coordinator_lost), and the check that a slave holds what it reports.
 */
#include "coordinator_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "tree_migrate.h"

/*
 * May slave id hold every iteration start + j * stride (j < count), inside
 * the loop?  Its own, a living neighbour's (a transfer whose notice is on
 * its way), delivered ones, or ones it handed on: a transfer that fails
 * after its notice was taken leaves them with the giver while the books
 * name the receiver, and once the receiver is lost, whoever inherits its
 * work (so two hold them until one delivers; `kept` remembers the giver);
 * and the heir of a giver that died after its notice (`kept` again).
 * The lock is held.
 */
static int gave_to(const struct coordinator *c, int from, int to)
{
	return to >= 0 && pair_counts_get(&c->pairs, from, to) > 0;
}

int coordinator_check_holds(struct coordinator *c, int id, int64_t start, int64_t count,
			    int64_t stride, char *why)
{
	int left = coordinator_living_at(c, c->pos[id], -1);
	int right = coordinator_living_at(c, c->pos[id], +1);

	for (int64_t j = 0; j < count; j++) {
		int64_t i = start + j * stride;
		int o = c->owner[i];

		if (c->results.ledger.state[i] == 1 || o == id || (o == left && o >= 0) ||
		    (o == right && o >= 0) || gave_to(c, id, o) || c->giver[i] == id ||
		    c->kept[i] == id || gave_to(c, id, c->kept[i]))
			continue;
		why_f(why, "slave %d does not hold iteration %lld (slave %d does): refused", id,
		      (long long)i, o);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

/*
 * Does `to`, the heir of `dead`, compute iteration i?  Yes when dead holds
 * it: it becomes to's.  Yes too when dead's last notice handed it to a
 * living slave: dead may have died before the transfer, so the receiver
 * may never have got it (a giver notifies first); to computes it as a
 * second holder, and whichever delivers first counts.  The lock is held.
 */
static int inherits(struct coordinator *c, int dead, int to, int64_t i)
{
	if (c->results.ledger.state[i] == 1)
		return 0;
	if (c->owner[i] == dead) {
		if (c->giver[i] >= 0 && c->giver[i] != to && coordinator_alive(c, c->giver[i]) &&
		    (c->kept[i] < 0 || !coordinator_alive(c, c->kept[i])))
			c->kept[i] = c->giver[i]; /* it may still hold them: see check_holds */
		c->giver[i] = -1;
		c->owner[i] = to;
		c->owned[dead]--;
		c->owned[to]++;
		return 1;
	}
	if (c->giver[i] != dead || !coordinator_alive(c, c->owner[i]))
		return 0;
	c->giver[i] = -1;
	if (c->owner[i] == to) {
		/* the receiver is the heir: told to compute it, maybe again, so it
		 * may hold two copies, give one on and deliver the other */
		if (c->kept[i] < 0 || !coordinator_alive(c, c->kept[i]))
			c->kept[i] = to;
		return 1;
	}
	if (c->kept[i] >= 0 && c->kept[i] != to && coordinator_alive(c, c->kept[i]))
		return 0; /* a second holder that kept its copy goes on */
	c->kept[i] = to;
	return 1;
}

/* Gives what `dead` holds, and what it handed on without a transfer known
 * to have arrived (inherits), to its nearest living left (else right)
 * neighbour. */
static int reassign(struct coordinator *c, int dead, struct coordinator_repair *rep)
{
	int to = coordinator_living_at(c, c->pos[dead], -1);

	if (to < 0)
		to = coordinator_living_at(c, c->pos[dead], +1);
	rep->to = to;
	rep->serial = ++c->nrepairs;
	if (to < 0)
		return DLS_OK;
	for (int64_t i = 0; i < coordinator_iterations(c); i++) {
		struct dls_range *r;

		if (!inherits(c, dead, to, i))
			continue;
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
	c->reassigned += rep->iterations;
	return DLS_OK;
}

static void repair_init(struct coordinator_repair *rep)
{
	memset(rep, 0, sizeof(*rep));
	rep->to = rep->left = rep->right = -1;
}

int coordinator_migrated(struct coordinator *c, int from, uint64_t key, int to, int64_t start,
			 int64_t count, int64_t stride, struct coordinator_repair *rep, char *why)
{
	uint64_t ticket = 0;
	int rc;

	repair_init(rep);
	pthread_mutex_lock(&c->lock);
	rc = coordinator_check_slave(c, from, key, why);
	if (!rc && (!c->plan || to < 0 || to >= c->plan->npes || to == from)) {
		why_f(why, "slave %d cannot hand work to slave %d", from, to);
		rc = DLS_EINVAL;
	}
	if (!rc && !tree_migrate_range_ok(start, count, stride, coordinator_iterations(c))) {
		why_f(why, "migrated range %lld + %lld x %lld is outside the loop [0, %lld)",
		      (long long)start, (long long)count, (long long)stride,
		      (long long)coordinator_iterations(c));
		rc = DLS_EINVAL;
	}
	if (!rc)
		rc = coordinator_check_holds(c, from, start, count, stride, why);
	if (!rc) {
		int lo = c->pos[from] < c->pos[to] ? c->pos[from] : c->pos[to];

		for (int64_t j = 0; j < count; j++) {
			int64_t i = start + j * stride;

			if (c->results.ledger.state[i] == 1)
				continue;
			if (c->owner[i] == from) {
				c->owner[i] = to;
				c->owned[from]--;
				c->owned[to]++;
				c->giver[i] = from;
			} else { /* a second holder's copy goes on; the owner keeps its own */
				c->kept[i] = to;
			}
		}
		c->migrations++;
		c->moved += count;
		c->mig_in[to]++;
		c->link[lo]++;
		if (coordinator_piles(&c->cfg))
			rc = pair_counts_add(&c->pairs, from, to);
		ticket = coordinator_log_migrated(c, from, to, start, count, stride);
		if (!rc)
			rc = tree_migrate_units_count(&c->units, &c->nunits, count);
		if (!rc && !coordinator_alive(c, to)) /* it died meanwhile: the work goes on */
			rc = reassign(c, to, rep);
	}
	pthread_mutex_unlock(&c->lock);
	journal_wait(c->journal, ticket);
	return rc;
}

int coordinator_lost(struct coordinator *c, int id, const char *cause,
		     struct coordinator_repair *rep)
{
	uint64_t ticket;
	int rc;

	repair_init(rep);
	pthread_mutex_lock(&c->lock);
	if (!c->plan || id < 0 || id >= c->plan->npes || !coordinator_alive(c, id)) {
		pthread_mutex_unlock(&c->lock);
		return DLS_ENOENT;
	}
	ticket = coordinator_log_lost(c, id, cause);
	c->roster.v[id].info.state = DLS_SLAVE_LOST;
	rep->left = coordinator_living_at(c, c->pos[id], -1);
	rep->right = coordinator_living_at(c, c->pos[id], +1);
	rc = reassign(c, id, rep);
	log_warn("slave %d '%s' lost (%s): %lld undelivered iterations go to slave %d", id,
		 c->roster.v[id].info.name, cause, (long long)rep->iterations, rep->to);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	journal_wait(c->journal, ticket); /* durable before the repair is carried out */
	return rc;
}

void coordinator_repair_free(struct coordinator_repair *rep)
{
	free(rep->ranges);
	rep->ranges = NULL;
	rep->nranges = 0;
}
