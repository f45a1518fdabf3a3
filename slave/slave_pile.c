/*
 * slave_pile.c - a slave's loop under workpile, roc or ripple (see slave_pile.h).
 */
#include "slave_pile.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_math.h"
#include "dls_time.h"
#include "stride_ranges.h"
#include "tree_migrate.h"

enum { IN_MSG, IN_ARRIVAL };
struct in_item {
	int kind, from;
	struct pile_msg m; /* IN_MSG */
	int64_t n;	   /* IN_ARRIVAL */
};

enum { OUT_SEND, OUT_GIVE };
struct out_item {
	int kind, to;
	struct pile_msg m; /* OUT_SEND */
	struct stride_range r;   /* OUT_GIVE */
};

struct ptimer {
	int kind;
	double at;
};

struct slave_pile {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work, a message, an action, a timer or stop */
	struct stride_ranges held; /* the pile: unstarted iterations, head first */
	int64_t len;
	int busy, stop, id, npes;
	int64_t iterations;
	enum pile_policy policy;
	struct pile_params params;
	const struct pile_policy_ops *rules; /* NULL: none (no balancing) */
	void *state;
	struct pile_host host;
	struct in_item *in;
	size_t nin, capin;
	struct out_item *out;
	size_t nout, capout;
	struct ptimer *timers;
	size_t ntimers, captimers;
	unsigned char *dead; /* by id: a call to it failed */
	uint64_t rng;
	double t0;
	int err; /* a rule ran out of memory: the run ends */
	int64_t started; /* iterations taken from the pile */
	struct placed_stats ts;
	struct run *r;
	const struct placed_ops *ops;
};

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return DLS_OK;
	size_t c = *cap ? *cap : 8;

	while (c < need)
		c *= 2;
	void *nv = realloc(*v, c * size);

	if (!nv)
		return DLS_ENOMEM;
	*v = nv;
	*cap = c;
	return DLS_OK;
}

static int add_range(struct slave_pile *p, int64_t start, int64_t count, int64_t stride)
{
	if (count <= 0)
		return DLS_OK;
	if (stride_ranges_push(&p->held, start, count, stride))
		return DLS_ENOMEM;
	p->len += count;
	return DLS_OK;
}

static double now_of(const struct slave_pile *p)
{
	return dls_now() - p->t0;
}

/* --- what the rules may do (the lock is held) ---------------------------- */

static int64_t h_len(void *ctx)
{
	return ((struct slave_pile *)ctx)->len;
}

static int h_busy(void *ctx)
{
	return ((struct slave_pile *)ctx)->busy;
}

static int h_alive(void *ctx, int pe)
{
	struct slave_pile *p = ctx;

	return pe >= 0 && pe < p->npes && !p->dead[pe];
}

static int push_out(struct slave_pile *p, const struct out_item *o)
{
	if (grow((void **)&p->out, &p->capout, p->nout + 1, sizeof(*p->out)))
		return DLS_ENOMEM;
	p->out[p->nout++] = *o;
	pthread_cond_broadcast(&p->cond);
	return DLS_OK;
}

/* The tail of the pile, n iterations, out as one GIVE per range it spans. */
static int h_give(void *ctx, int to, int64_t n, double t, int64_t *moved)
{
	struct slave_pile *p = ctx;
	int64_t done = 0;
	int rc = DLS_OK;

	(void)t;
	if (n > p->len)
		n = p->len;
	if (!h_alive(p, to) || to == p->id)
		n = 0;
	while (done < n && !rc) {
		struct out_item o = {OUT_GIVE, to, {0, 0, 0, 0, 0, 0, 0},
				     stride_ranges_tail(&p->held, n - done)};
		int64_t k = o.r.count;

		if ((rc = push_out(p, &o)))
			break;
		stride_ranges_drop_tail(&p->held, k);
		p->len -= k;
		done += k;
	}
	if (moved)
		*moved = done;
	return rc;
}

static int h_send(void *ctx, const struct pile_msg *m, double t)
{
	struct slave_pile *p = ctx;
	struct out_item o = {OUT_SEND, m->to, *m, {0, 0, 0}};

	(void)t;
	if (!h_alive(p, m->to) || m->to == p->id)
		return DLS_OK;
	o.m.from = p->id;
	return push_out(p, &o);
}

static int h_timer(void *ctx, int kind, double at)
{
	struct slave_pile *p = ctx;

	if (grow((void **)&p->timers, &p->captimers, p->ntimers + 1, sizeof(*p->timers)))
		return DLS_ENOMEM;
	p->timers[p->ntimers++] = (struct ptimer){kind, at};
	pthread_cond_broadcast(&p->cond);
	return DLS_OK;
}

static int64_t h_started(void *ctx)
{
	return ((struct slave_pile *)ctx)->started;
}

static uint64_t h_rand(void *ctx)
{
	return dls_splitmix64(&((struct slave_pile *)ctx)->rng);
}

/* Notes a rule's error: only running out of memory can be one. */
static void ruled(struct slave_pile *p, int rc)
{
	if (rc && !p->err) {
		p->err = rc;
		pthread_cond_broadcast(&p->cond);
	}
}

/* --- creation, incoming calls ------------------------------------------- */

struct slave_pile *slave_pile_create(const struct placement *a)
{
	struct slave_pile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->id = a->id;
	p->npes = a->npes > a->id ? a->npes : a->id + 1;
	p->iterations = a->job.iterations;
	p->policy = a->policy;
	p->params = a->pile;
	p->rules = pile_policy_ops(a->policy);
	p->dead = calloc((size_t)p->npes, 1);
	p->state = calloc(1, p->rules && p->rules->size ? p->rules->size : 1);
	p->rng = 0x2545f4914f6cdd1dULL * (uint64_t)(a->id + 1) ^ (uint64_t)(dls_now() * 1e9);
	if (!p->dead || !p->state || pthread_mutex_init(&p->lock, NULL) ||
	    dls_cond_init(&p->cond) || add_range(p, a->start, a->count, a->stride)) {
		free(p->dead);
		free(p->state);
		stride_ranges_free(&p->held);
		free(p);
		return NULL;
	}
	p->host = (struct pile_host){p,	     p->id,  p->npes, &p->params, 0,	  h_len,
				     h_busy, h_give, h_send,  h_timer,	  h_rand, h_alive,
				     h_started};
	return p;
}

void slave_pile_destroy(struct slave_pile *p)
{
	if (!p)
		return;
	if (p->rules && p->rules->fini)
		p->rules->fini(p->state);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
	stride_ranges_free(&p->held);
	free(p->in);
	free(p->out);
	free(p->timers);
	free(p->dead);
	free(p->state);
	free(p);
}

static int push_in(struct slave_pile *p, const struct in_item *it)
{
	if (grow((void **)&p->in, &p->capin, p->nin + 1, sizeof(*p->in)))
		return DLS_ENOMEM;
	p->in[p->nin++] = *it;
	pthread_cond_broadcast(&p->cond);
	return DLS_OK;
}

int slave_pile_on_message(struct slave_pile *p, int from, const struct pile_msg *m)
{
	struct in_item it = {IN_MSG, from, *m, 0};
	int rc = DLS_OK;

	it.m.from = from; /* the caller, as its key showed it */
	it.m.to = p->id;
	pthread_mutex_lock(&p->lock);
	if (from >= 0 && from < p->npes)
		p->dead[from] = 0; /* it calls: it lives */
	if (!p->stop && p->rules)
		rc = push_in(p, &it);
	pthread_mutex_unlock(&p->lock);
	return rc;
}

int slave_pile_on_transfer(struct slave_pile *p, int from, int64_t start, int64_t count,
			   int64_t stride, char *why, size_t len)
{
	struct in_item it = {IN_ARRIVAL, from, {0, 0, 0, 0, 0, 0, 0}, count};
	int rc;

	if (!tree_migrate_range_ok(start, count, stride, p->iterations)) {
		snprintf(why, len,
			 "transfer from %d of %lld + %lld x %lld: not inside the loop [0, %lld)",
			 from, (long long)start, (long long)count, (long long)stride,
			 (long long)p->iterations);
		return DLS_EINVAL;
	}
	pthread_mutex_lock(&p->lock);
	rc = add_range(p, start, count, stride);
	if (!rc) {
		p->ts.migrations_in++;
		p->ts.moved_in += count;
		if (from >= 0 && from < p->npes)
			p->dead[from] = 0; /* it calls: it lives */
		if (p->rules)
			rc = push_in(p, &it);
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	if (!rc)
		log_debug("got %lld iterations from %d", (long long)count, from);
	return rc;
}

void slave_pile_stop(struct slave_pile *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/* --- the balancer -------------------------------------------------------- */

/* Hands o's range to its peer: the coordinator's notice, then the transfer;
 * what does not go is put back on the pile.  Without the lock. */
static void give(struct slave_pile *p, const struct out_item *o)
{
	const struct placed_ops *ops = p->ops;
	char why[SLAVE_WHY_LEN] = "";
	int rc, unreached = 0;

	slave_link_delay(p->r->cfg->link_latency_us);
	rc = ops->migrated(ops->ctx, p->id, o->to, o->r.start, o->r.count, o->r.stride, why,
			   sizeof(why));
	if (rc) {
		log_warn("the coordinator did not take the hand-over of %lld iterations to slave "
			 "%d, kept: %s",
			 (long long)o->r.count, o->to, why);
	} else {
		slave_link_delay(p->r->cfg->link_latency_us);
		rc = ops->give(ops->ctx, o->to, p->id, o->r.start, o->r.count, o->r.stride, why,
			       sizeof(why));
		unreached = rc == DLS_EREMOTE || rc == DLS_ETIMEDOUT;
		if (rc)
			log_warn("cannot hand %lld iterations to slave %d, kept: %s",
				 (long long)o->r.count, o->to, why);
	}
	pthread_mutex_lock(&p->lock);
	if (rc) {
		if (add_range(p, o->r.start, o->r.count, o->r.stride))
			ruled(p, DLS_ENOMEM);
		if (unreached)
			p->dead[o->to] = 1;
		pthread_cond_broadcast(&p->cond);
	} else {
		p->ts.migrations_out++;
		p->ts.moved_out += o->r.count;
	}
	pthread_mutex_unlock(&p->lock);
}

static void send_msg(struct slave_pile *p, const struct out_item *o)
{
	const struct placed_ops *ops = p->ops;
	char why[SLAVE_WHY_LEN] = "";
	int rc;

	slave_link_delay(p->r->cfg->link_latency_us);
	rc = ops->balance(ops->ctx, o->to, p->id, &o->m, why, sizeof(why));
	if (rc == DLS_EREMOTE || rc == DLS_ETIMEDOUT) {
		log_warn("slave %d is not reached, taken as dead: %s", o->to, why);
		pthread_mutex_lock(&p->lock);
		p->dead[o->to] = 1;
		pthread_mutex_unlock(&p->lock);
	} else if (rc) {
		log_info("slave %d refused a balance message: %s", o->to, why);
	}
}

/* Runs the queued messages, arrivals and due timers through the rules. */
static void run_rules(struct slave_pile *p)
{
	double t = now_of(p);

	for (size_t k = 0; k < p->nin && !p->err; k++) {
		struct in_item *it = &p->in[k];

		if (it->kind == IN_MSG && p->rules->on_message)
			ruled(p, p->rules->on_message(p->state, &p->host, &it->m, t));
		else if (it->kind == IN_ARRIVAL && p->rules->on_arrival)
			ruled(p, p->rules->on_arrival(p->state, &p->host, it->from, it->n, t));
	}
	p->nin = 0;
	for (size_t k = 0; k < p->ntimers && !p->err;) {
		struct ptimer tm = p->timers[k];

		if (tm.at > t) {
			k++;
			continue;
		}
		p->timers[k] = p->timers[--p->ntimers];
		if (p->rules->on_timer)
			ruled(p, p->rules->on_timer(p->state, &p->host, tm.kind, t));
	}
}

/* Whether o's peer was found dead after o was queued: its call is then not
 * made (a peer that dies slowly, on a saturated host, would hold each of
 * its queued calls for their whole timeout, and the balancing with it),
 * and a hand-over's range goes back on the pile.  Without the lock. */
static int dead_since(struct slave_pile *p, const struct out_item *o)
{
	int dead;

	pthread_mutex_lock(&p->lock);
	dead = !h_alive(p, o->to);
	if (dead && o->kind == OUT_GIVE) {
		if (add_range(p, o->r.start, o->r.count, o->r.stride))
			ruled(p, DLS_ENOMEM);
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return dead;
}

static void *balancer(void *arg)
{
	struct slave_pile *p = arg;
	struct out_item *batch = NULL;
	size_t cap = 0;

	dls_log_set_thread_label(p->r->log_label);
	pthread_mutex_lock(&p->lock);
	while (!p->stop && !p->err) {
		double next = now_of(p) + 0.2;

		run_rules(p);
		if (p->nout) { /* the calls, without the lock */
			size_t n = p->nout;

			if (grow((void **)&batch, &cap, n, sizeof(*batch))) {
				ruled(p, DLS_ENOMEM);
				break;
			}
			memcpy(batch, p->out, n * sizeof(*batch));
			p->nout = 0;
			pthread_mutex_unlock(&p->lock);
			for (size_t k = 0; k < n; k++)
				if (!dead_since(p, &batch[k]))
					(batch[k].kind == OUT_GIVE ? give : send_msg)(p, &batch[k]);
			pthread_mutex_lock(&p->lock);
			continue;
		}
		if (p->nin)
			continue;
		for (size_t k = 0; k < p->ntimers; k++)
			if (p->timers[k].at < next)
				next = p->timers[k].at;
		if (next > now_of(p))
			dls_cond_wait_until(&p->cond, &p->lock, p->t0 + next);
	}
	pthread_mutex_unlock(&p->lock);
	free(batch);
	return NULL;
}

/* --- the computing loop -------------------------------------------------- */

/* The head iteration, taken; the lock is held and the pile is not empty. */
static int64_t take_head(struct slave_pile *p)
{
	int64_t it = stride_ranges_take(&p->held);

	p->len--;
	p->started++;
	return it;
}

/* Computes the head of the pile (the policy may first give it all away),
 * reporting on the clock.  *idle_noted: cleared when an iteration was
 * taken.  p->lock is held on entry and on return, not meanwhile.  DLS_OK,
 * or the error of the computation or the report. */
static int compute_head(struct slave_pile *p, struct stretch *stretch, struct report_clock *clock,
			int *idle_noted)
{
	int64_t it;
	int rc;

	if (p->rules && p->rules->before_next)
		ruled(p, p->rules->before_next(p->state, &p->host, now_of(p)));
	if (p->len == 0) /* it gave it all away */
		return DLS_OK;
	it = take_head(p);
	p->busy = 1;
	*idle_noted = 0;
	pthread_mutex_unlock(&p->lock);
	rc = slave_compute_reporting(p->r, it, stretch, clock);
	pthread_mutex_lock(&p->lock);
	p->busy = 0;
	return rc;
}

/* Out of work: the results computed go now; else the policy hears that
 * this slave is idle (once an idle spell), and it waits 0.2 s for work,
 * counted as waiting.  p->lock is held on entry and on return.  DLS_OK or
 * the error of the report. */
static int idle_step(struct slave_pile *p, struct report_clock *clock, int *idle_noted)
{
	if (p->r->store.n)
		return slave_report_unlocked(p->r, clock, &p->lock);
	if (!*idle_noted && p->rules && p->rules->on_idle)
		ruled(p, p->rules->on_idle(p->state, &p->host, now_of(p)));
	*idle_noted = 1;
	if (!p->stop && p->len == 0)
		slave_wait_for_work(p->r, &p->cond, &p->lock);
	return DLS_OK;
}

/* The end of the loop with rc: what the run returns (a report refused by
 * a coordinator that said stop and left is no error; a balancing error
 * is), the balancer told to stop.  p->lock is held, and released. */
static int pile_finish(struct slave_pile *p, int rc)
{
	struct run *r = p->r;

	if (rc == DLS_EREMOTE && p->stop) {
		/* the coordinator had every result, said stop and left while
		 * this slave still reported (a copy of work it was given again
		 * after a failure): the run is over, not lost */
		log_warn("stopped by the coordinator, which is gone now: %s", r->why);
		rc = DLS_OK;
	}
	if (!rc && p->err) {
		snprintf(r->why, r->len, "balancing: %s", dls_strerror(p->err));
		rc = p->err;
	}
	p->stop = 1; /* the balancer too */
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return rc;
}

int slave_pile_run(struct slave_pile *p, struct run *r, const struct placed_ops *ops,
		   const struct placement *a, struct placed_stats *ts)
{
	struct stretch stretch = {0, 0};
	struct report_clock clock = {ops->report, ops->ctx, p->id, a->report_interval, dls_now()};
	int rc = DLS_OK, idle_noted = 0, threaded = 0;
	pthread_t th;

	p->r = r;
	p->ops = ops;
	p->t0 = dls_now();
	p->host.latency = r->cfg->link_latency_us * 1e-6;
	pthread_mutex_lock(&p->lock);
	if (p->rules && p->rules->init)
		ruled(p, p->rules->init(p->state, &p->host, 0));
	pthread_mutex_unlock(&p->lock);
	if (p->rules) {
		if (pthread_create(&th, NULL, balancer, p)) {
			snprintf(r->why, r->len, "cannot start the balancing thread");
			return DLS_ENOMEM;
		}
		threaded = 1;
	}
	log_info("policy %s: %lld iterations here", pile_policy_name(p->policy),
		 (long long)p->len);
	pthread_mutex_lock(&p->lock);
	while (!p->stop && !rc && !p->err) {
		if (p->len > 0) {
			rc = compute_head(p, &stretch, &clock, &idle_noted);
			continue;
		}
		stretch.t0 = 0; /* out of work: results go now, then wait */
		rc = idle_step(p, &clock, &idle_noted);
	}
	rc = pile_finish(p, rc);
	if (threaded)
		pthread_join(th, NULL);
	if (!rc && r->store.n) /* cannot happen: the run ends once every result is in */
		log_warn("stopped with %zu result blocks unsent", r->store.n);
	if (ts)
		*ts = p->ts;
	return rc;
}
