/*
 * master_takeback.c - the end game's take-back (PROTOCOL.md 17, BENCHMARKS.md
 * 5): once the scheme has handed out every iteration, an idle slave's
 * request does not just wait while the others compute; the master asks the
 * holders how far their chunks are (Slave::progress), picks the chunk that
 * would end last by the holders' own pace, and gives the asker the share of
 * its undone tail that the two rates call for.  The shrink is journaled
 * before the asker hears of it, and the holder is told (Slave::take_back)
 * before the asker's reply leaves; a holder that is not told in time (or
 * never) computes the tail too, and the master drops those results: every
 * iteration is delivered exactly once either way.
 *
 * A holder whose chunk has not advanced for far longer than its pace
 * allows (a loop body that hangs, a computing thread stuck while its ORB
 * answers) is a straggler: it is declared lost there and then, and the
 * asker computes its work again; the stall watch (master_stall.c) would
 * find it only after --stall-ms.  If it comes back, it is taken back as
 * any lost slave, and its results of that work are dropped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "master_internal.h"

/* The most holders one request asks (those holding the most). */
#define TAKEBACK_PROBES 64
/* What the holder may compute besides, between its answer and the cut's
 * arrival, beyond the two calls' round trips: the journal and the master's
 * own work (seconds). */
#define TAKEBACK_MARGIN_S 1e-3
/* A straggler: a chunk that has not advanced for STRAGGLER_PACES times the
 * time its holder's pace needs for what is left of it, and at least
 * STRAGGLER_MIN_S (a holder starved of the processor by a busy host for a
 * moment is no straggler). */
#define STRAGGLER_PACES 16.0
#define STRAGGLER_MIN_S 3.0

struct probe {
	int id;
	uint64_t key;
	int64_t held;
	int rc;
	struct dls_progress p;
	double rtt, at; /* the call's round trip, and when its answer came */
	double still;	/* seconds its chunk had not advanced then */
};

void master_set_callout(struct master *m, const struct master_callout *c)
{
	pthread_mutex_lock(&m->lock);
	m->callout = *c;
	pthread_mutex_unlock(&m->lock);
}

/* Whether the request of child id, answered WAIT, may take back: the run
 * takes back, the scheme is exhausted, nothing is requeued, the asker holds
 * nothing undelivered and no other request is asking.  The lock is held. */
static int may_take_back(const struct master *m, int id)
{
	return m->cfg.take_back && m->callout.progress && m->callout.take_back &&
	       !m->taking_back && !m->replaying && !m->gate.closing && !m->results.done &&
	       m->sched && sched_remaining(m->sched) == 0 &&
	       serve_ranges_left(&m->requeue) == 0 &&
	       m->roster.v[id].info.state != DLS_SLAVE_LOST &&
	       ledger_held_undelivered(&m->children[id].serve.held) == 0;
}

/* The holders other than id, those holding the most first, at most
 * TAKEBACK_PROBES (into v); how many.  The lock is held. */
static size_t holders(const struct master *m, int id, struct probe *v)
{
	size_t n = 0;

	for (int i = 0; i < m->roster.n; i++) {
		int64_t held = ledger_held_undelivered(&m->children[i].serve.held);
		size_t k;

		if (i == id || held <= 0 || !roster_alive(&m->roster, i) ||
		    m->roster.v[i].info.state == DLS_SLAVE_LOST)
			continue;
		if (n == TAKEBACK_PROBES && held <= v[n - 1].held)
			continue;
		k = n < TAKEBACK_PROBES ? n++ : n - 1;
		while (k > 0 && v[k - 1].held < held) { /* insertion, largest first */
			v[k] = v[k - 1];
			k--;
		}
		memset(&v[k], 0, sizeof(v[k]));
		v[k].id = i;
		v[k].key = m->roster.v[i].key;
		v[k].held = held;
	}
	return n;
}

/* Asks each holder how far it is; without the lock. */
static void ask_holders(const struct master_callout *co, struct probe *v, size_t n)
{
	char why[MASTER_WHY_LEN];

	for (size_t k = 0; k < n; k++) {
		double t0 = dls_now();

		v[k].rc = co->progress(co->ctx, v[k].id, v[k].key, &v[k].p, why, sizeof(why));
		v[k].at = dls_now();
		v[k].rtt = v[k].at - t0;
		if (v[k].rc)
			log_debug("take-back: slave %d did not say how far it is: %s", v[k].id, why);
	}
}

/*
 * A holder's answer is a remote party's word: it counts only for a chunk
 * the holder holds (a range that begins at its start), cut to what the
 * ledger still leaves it (a cut it was not told of yet), with 0 <= done <=
 * count and a finite elapsed >= 0; else it is set aside (rc).  The lock
 * is held.
 */
static void check_answer(const struct master *m, struct probe *v)
{
	struct dls_progress *p = &v->p;
	int64_t held;

	if (v->rc)
		return;
	held = ledger_held_count(&m->children[v->id].serve.held, p->start);
	if (p->count > held)
		p->count = held;
	if (p->count < 1 || p->done < 0 || !isfinite(p->elapsed) || p->elapsed < 0) {
		if (p->count >= 1 && !m->replaying)
			log_warn("take-back: slave %d says it did %lld of chunk [%lld, +%lld) in "
				 "%g s: not an answer, set aside",
				 v->id, (long long)p->done, (long long)p->start, (long long)p->count,
				 p->elapsed);
		v->rc = DLS_EINVAL;
		return;
	}
	if (p->done > p->count)
		p->done = p->count;
}

/* The chunk that would end last by its holder's pace (none done yet: above
 * every estimate, the larger first), among those that can be cut; -1 when
 * none. */
static long pick_victim(const struct probe *v, size_t n)
{
	double latest = -1;
	long victim = -1;

	for (size_t k = 0; k < n; k++) {
		const struct dls_progress *p = &v[k].p;
		double est;

		if (v[k].rc || !p->cuttable || p->count < 2 || p->done >= p->count)
			continue;
		est = p->done > 0 ? (double)(p->count - p->done) * p->elapsed / (double)p->done
				  : 1e300 / 4 + (double)p->count;
		if (est > latest) {
			latest = est;
			victim = (long)k;
		}
	}
	return victim;
}

/* Iterations a second child id computes, from the chunk times it reported
 * (0: none yet). */
static double rate_of(const struct master *m, int id)
{
	const struct master_child *ch = &m->children[id];

	return ch->claimed_s > 0 && ch->claimed_n > 0 ? ch->claimed_n / ch->claimed_s : 0;
}


/* Iterations a second holder h computes: its measured pace, else its
 * chunk's, else the asker's scaled by their declared powers (0: none). */
static double pace_of(const struct master *m, int asker, const struct probe *v)
{
	double pace = rate_of(m, v->id), ra = rate_of(m, asker);
	double va = m->roster.v[asker].info.vpower, vh = m->roster.v[v->id].info.vpower;

	if (!(pace > 0) && v->p.done > 0 && v->p.elapsed > 0)
		pace = (double)v->p.done / v->p.elapsed;
	if (!(pace > 0) && ra > 0 && va > 0 && vh > 0)
		pace = ra * vh / va;
	return isfinite(pace) && pace > 0 ? pace : 0;
}

/* The straggler furthest past what its pace allows (-1: none), with the
 * cause of its loss in cause.  The lock is held. */
static long pick_straggler(const struct master *m, int asker, const struct probe *v, size_t n,
			   char *cause, size_t len)
{
	double now = dls_now(), worst = 0;
	long who = -1;

	for (size_t k = 0; k < n; k++) {
		double pace = pace_of(m, asker, &v[k]), still, allowed;

		if (v[k].rc || !(pace > 0)) /* (done == count: computed, never delivered) */
			continue;
		still = v[k].still + (now - v[k].at);
		allowed = STRAGGLER_PACES * (double)(v[k].p.count - v[k].p.done + 1) / pace;
		if (allowed < STRAGGLER_MIN_S)
			allowed = STRAGGLER_MIN_S;
		if (still > allowed && still / allowed > worst) {
			worst = still / allowed;
			who = (long)k;
			snprintf(cause, len,
				 "a straggler: its chunk [%lld, +%lld) stayed at %lld computed for "
				 "%.1f s, where its pace (%.3g iterations/s) allows %.1f s, while "
				 "slave %d waited for work",
				 (long long)v[k].p.start, (long long)v[k].p.count,
				 (long long)v[k].p.done, still, pace, allowed, asker);
		}
	}
	return who;
}

/* How many iterations of victim v's chunk asker id takes (0: none): of
 * what the holder will not have done when the cut reaches it (and the one
 * it is on), the asker's share by the two rates.  The lock is held. */
static int64_t share(const struct master *m, int id, const struct probe *v)
{
	const struct dls_progress *p = &v->p;
	double pace = p->done > 0 && p->elapsed > 0 ? (double)p->done / p->elapsed : 0;
	double rate_a = rate_of(m, id), rate_h = pace;
	double dt = dls_now() - v->at + 2 * v->rtt + TAKEBACK_MARGIN_S;
	/* in doubles: a pace a holder claims may be absurd */
	double keep = (double)p->done + ceil(pace * dt) + 1, undone;

	if (!(rate_a > 0) || !(rate_h > 0)) { /* no pace yet: the declared powers */
		rate_a = m->roster.v[id].info.vpower;
		rate_h = m->roster.v[v->id].info.vpower;
	}
	undone = keep < (double)p->count ? (double)p->count - keep : 0;
	if (!(rate_a > 0) || !(rate_h > 0) || !isfinite(rate_a) || !isfinite(rate_h))
		return 0;
	return (int64_t)floor(undone * (rate_a / (rate_a + rate_h)));
}

/* Gives asker id the requeue's next range (its own first), as
 * master_serve_one would, so that a replay gives the same: DLS_OK with
 * *out, else the range stays in the requeue for a later request.  The lock
 * is held. */
static int give_requeued(struct master *m, int id, struct dls_reply *out)
{
	struct dls_range c;

	if (!serve_ranges_pop_for(&m->requeue, id, &c))
		return DLS_ENOENT;
	if (master_give_work(m, id, c, out)) { /* out of memory */
		(void)serve_ranges_push(&m->requeue, c.start, c.count);
		return DLS_ENOMEM;
	}
	m->roster.v[id].info.requeued_chunks++;
	return DLS_OK;
}

void master_take_back(struct master *m, int id, struct dls_reply *out, struct master_cut *told)
{
	struct probe v[TAKEBACK_PROBES];
	char cause[MASTER_WHY_LEN];
	struct master_callout co = m->callout;
	size_t n;
	long k;
	int64_t take, end;
	int rc;

	told->holder = -1;
	if (!may_take_back(m, id) || (n = holders(m, id, v)) == 0)
		return;
	m->taking_back = 1;
	pthread_mutex_unlock(&m->lock);
	ask_holders(&co, v, n);
	pthread_mutex_lock(&m->lock);
	m->taking_back = 0;
	for (size_t j = 0; j < n; j++) {
		check_answer(m, &v[j]);
		if (!v[j].rc)
			v[j].still = master_progress_still(&m->children[v[j].id], &v[j].p, v[j].at);
	}
	if (!may_take_back(m, id))
		return;
	if ((k = pick_straggler(m, id, v, n, cause, sizeof(cause))) >= 0) {
		master_release_lost(m, v[k].id, cause);
		pthread_cond_broadcast(&m->cond);
		(void)give_requeued(m, id, out); /* else the next request takes it */
		return;
	}
	if ((k = pick_victim(v, n)) < 0 || (take = share(m, id, &v[k])) < 1)
		return;
	end = v[k].p.start + v[k].p.count - take;
	rc = master_cut_tail(m, v[k].id, v[k].p.start, end);
	if (rc) { /* it finished or delivered meanwhile: nothing to take */
		log_debug("take-back from slave %d of [%lld, +%lld): %s", v[k].id, (long long)end,
			  (long long)take, dls_strerror(rc));
		return;
	}
	if (give_requeued(m, id, out)) {
		/* kept in the requeue: the next request takes it */
		log_warn("take-back: the tail [%lld, +%lld) could not be given to slave %d now",
			 (long long)end, (long long)take, id);
		return;
	}
	*told = (struct master_cut){v[k].id, v[k].key, v[k].p.start, end};
	log_info("took back [%lld, +%lld) of slave %d's chunk [%lld, +%lld) (%lld done in "
		 "%.3f s) for slave %d",
		 (long long)end, (long long)take, v[k].id, (long long)v[k].p.start,
		 (long long)v[k].p.count, (long long)v[k].p.done, v[k].p.elapsed, id);
}

void master_take_back_tell(struct master *m, const struct master_cut *told)
{
	char why[MASTER_WHY_LEN];

	if (told->holder < 0)
		return;
	if (m->callout.take_back(m->callout.ctx, told->holder, told->key, told->start, told->end,
				 why, sizeof(why)))
		log_warn("slave %d was not told that its chunk [%lld, ...) now ends at %lld (%s): "
			 "its results past that are dropped",
			 told->holder, (long long)told->start, (long long)told->end, why);
}
