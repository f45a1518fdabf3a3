/*
 * slave_cut.c - the current chunk and its take-back bound (slave_cut.h).
 */
#include "slave_cut.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dls/err.h"
#include "dls_time.h"

int slave_cut_init(struct slave_cut *c)
{
	memset(c, 0, sizeof(*c));
	if (pthread_mutex_init(&c->lock, NULL))
		return DLS_ENOMEM;
	if (dls_cond_init(&c->cond)) {
		pthread_mutex_destroy(&c->lock);
		return DLS_ENOMEM;
	}
	if (pthread_mutex_init(&c->seen_lock, NULL)) {
		pthread_cond_destroy(&c->cond);
		pthread_mutex_destroy(&c->lock);
		return DLS_ENOMEM;
	}
	return DLS_OK;
}

void slave_cut_destroy(struct slave_cut *c)
{
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->seen_lock);
	free(c->cum);
	c->cum = NULL;
}

int slave_cut_begin(struct slave_cut *c, int64_t start, int64_t count, double c0,
		    const struct emul_steps *power, double t0, double t_iter_s)
{
	int rc = DLS_OK;

	pthread_mutex_lock(&c->lock);
	if (power && count > c->cap) {
		double *v = realloc(c->cum, (size_t)count * sizeof(*v));

		if (v) {
			c->cum = v;
			c->cap = count;
		} else {
			rc = DLS_ENOMEM;
		}
	}
	c->on = 1;
	c->cuttable = rc == DLS_OK;
	c->start = start;
	c->count = count;
	c->end = start + count;
	c->computed = 0;
	c->c0 = c0;
	c->emulated = power != NULL;
	c->power = power;
	c->t0 = t0;
	c->t_iter_s = t_iter_s;
	pthread_mutex_unlock(&c->lock);
	return rc;
}

int slave_cut_computed(struct slave_cut *c, int64_t k, double work)
{
	int more;

	pthread_mutex_lock(&c->lock);
	if (c->emulated && c->cuttable)
		c->cum[k] = (k > 0 ? c->cum[k - 1] : 0) + work;
	c->computed = k + 1;
	more = c->start + k + 1 < c->end;
	pthread_mutex_unlock(&c->lock);
	return more;
}

int64_t slave_cut_end(struct slave_cut *c)
{
	int64_t end;

	pthread_mutex_lock(&c->lock);
	end = c->end;
	pthread_mutex_unlock(&c->lock);
	return end;
}

/* When the emulated work of the first n iterations ends; the lock is held. */
static double finish_of(const struct slave_cut *c, int64_t n)
{
	double work = n > 0 ? c->cum[n - 1] : 0;

	return c->t0 + emul_finish(c->power, c->c0 - c->t0, work * c->t_iter_s);
}

static double deadline_locked(const struct slave_cut *c)
{
	return finish_of(c, c->end - c->start);
}

double slave_cut_deadline(struct slave_cut *c)
{
	double d;

	pthread_mutex_lock(&c->lock);
	d = deadline_locked(c);
	pthread_mutex_unlock(&c->lock);
	return d;
}

double slave_cut_sleep(struct slave_cut *c, double lead, double *aimed)
{
	double lag = aimed ? *aimed : 0, d, target;

	pthread_mutex_lock(&c->lock);
	for (;;) {
		d = deadline_locked(c);
		target = d - lead - lag;
		if (dls_now() >= target)
			break;
		dls_cond_wait_until(&c->cond, &c->lock, target);
	}
	pthread_mutex_unlock(&c->lock);
	if (aimed) { /* as dls_sleep_aimed: how late it woke teaches the next aim */
		double late = dls_now() - target;

		*aimed += ((late > 0 ? late : 0) - *aimed) / 8;
	}
	return d;
}

void slave_cut_finish(struct slave_cut *c)
{
	pthread_mutex_lock(&c->lock);
	c->on = 0;
	pthread_mutex_unlock(&c->lock);
}

void slave_cut_progress(struct slave_cut *c, struct dls_progress *p)
{
	double now = dls_now(), c0 = 0;
	struct timespec until;

	memset(p, 0, sizeof(*p));
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += SLAVE_CUT_LOCK_WAIT_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	if (pthread_mutex_timedlock(&c->lock, &until)) {
		/* the computing thread holds the lock and does not let go: it
		 * is stuck, and its chunk is where it showed it last */
		pthread_mutex_lock(&c->seen_lock);
		*p = c->seen;
		if (p->count > 0)
			p->elapsed = now > c->seen_c0 ? now - c->seen_c0 : 0;
		pthread_mutex_unlock(&c->seen_lock);
		return;
	}
	if (c->on) {
		int64_t done = c->computed;

		if (c->emulated && c->cuttable) { /* the last whose emulated time passed */
			int64_t lo = 0, hi = c->computed;

			while (lo < hi) {
				int64_t mid = lo + (hi - lo + 1) / 2;

				if (finish_of(c, mid) <= now)
					lo = mid;
				else
					hi = mid - 1;
			}
			done = lo;
		}
		p->start = c->start;
		p->count = c->end - c->start;
		p->done = done < p->count ? done : p->count;
		p->elapsed = now > c->c0 ? now - c->c0 : 0;
		p->cuttable = c->cuttable;
		c0 = c->c0;
	}
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_lock(&c->seen_lock);
	c->seen = *p;
	c->seen_c0 = c0;
	pthread_mutex_unlock(&c->seen_lock);
}

int slave_cut_take(struct slave_cut *c, int64_t start, int64_t end, char *why, size_t len)
{
	int rc = DLS_OK;

	pthread_mutex_lock(&c->lock);
	if (!c->on || c->start != start || !c->cuttable) {
		/* not the chunk the master means: it was finished meanwhile */
	} else if (end <= start || end > c->end) {
		snprintf(why, len,
			 "take_back: end %lld is outside the chunk [%lld, %lld) computed now",
			 (long long)end, (long long)start, (long long)c->end);
		rc = DLS_EINVAL;
	} else if (end < c->end) {
		c->takebacks++;
		c->taken += c->end - end;
		c->end = end;
		pthread_cond_broadcast(&c->cond);
	}
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void slave_cut_short(struct slave_cut *c)
{
	struct dls_progress p;
	char why[128];

	slave_cut_progress(c, &p);
	if (p.count > 0 && p.cuttable)
		slave_cut_take(c, p.start, p.start + (p.done > 0 ? p.done : 1), why, sizeof(why));
}
