/*
 * slave_placed.c - a slave the coordinator places (see slave_placed.h).
 */
#include "slave_placed.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "slave_call.h"
#include "slave_internal.h"
#include "slave_pile.h"
#include "slave_tree.h"
#include "work.h"

struct slave_placed {
	pthread_mutex_t lock;
	pthread_cond_t cond;	 /* a loop ended here, a placement came, stop */
	struct slave_tree *tree; /* from the start: demands may come before the placement */
	struct slave_pile *pile; /* placed under a policy: the current loop's */
	struct slave_pile **old; /* the loops' before (incoming calls may still hold them) */
	size_t nold;
	int stop;		 /* the coordinator said stop */

	/* a run of many loops (PROTOCOL.md 10) */
	int64_t running;	 /* the loop the loop thread computes (-1: none) */
	int64_t ended;		 /* the last loop the coordinator ended (-1: none) */
	int64_t placed;		 /* the loop of its last placement taken (0: registration's) */
	struct placement next;	 /* the next loop's placement, handed to the loop thread */
	int has_next;		 /* next is waiting for the loop thread */
	int answered, answer;	 /* the loop thread took (0) or refused it, why: */
	char answer_why[SLAVE_WHY_LEN];
};

struct slave_placed *slave_placed_create(void)
{
	struct slave_placed *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->tree = slave_tree_create();
	s->running = s->ended = -1;
	if (!s->tree || pthread_mutex_init(&s->lock, NULL)) {
		slave_tree_destroy(s->tree);
		free(s);
		return NULL;
	}
	if (dls_cond_init(&s->cond)) {
		pthread_mutex_destroy(&s->lock);
		slave_tree_destroy(s->tree);
		free(s);
		return NULL;
	}
	return s;
}

void slave_placed_destroy(struct slave_placed *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	slave_pile_destroy(s->pile);
	for (size_t k = 0; k < s->nold; k++)
		slave_pile_destroy(s->old[k]);
	free(s->old);
	slave_tree_destroy(s->tree);
	free(s);
}

/* The pile of a slave placed under a policy, or NULL. */
static struct slave_pile *pile_of(struct slave_placed *s)
{
	struct slave_pile *p;

	pthread_mutex_lock(&s->lock);
	p = s->pile;
	pthread_mutex_unlock(&s->lock);
	return p;
}

int slave_placed_on_demand(struct slave_placed *s, int from)
{
	return slave_tree_on_demand(s->tree, from);
}

int slave_placed_on_transfer(struct slave_placed *s, int from, int64_t start, int64_t count,
			     int64_t stride, char *why, size_t len)
{
	struct slave_pile *p = pile_of(s);

	if (p)
		return slave_pile_on_transfer(p, from, start, count, stride, why, len);
	return slave_tree_on_transfer(s->tree, from, start, count, stride, why, len);
}

int slave_placed_on_balance(struct slave_placed *s, int from, const struct pile_msg *m)
{
	struct slave_pile *p = pile_of(s);

	return p ? slave_pile_on_message(p, from, m) : DLS_ESTATE;
}

void slave_placed_on_neighbours(struct slave_placed *s, int left, double left_tau, int right,
				double right_tau)
{
	slave_tree_on_neighbours(s->tree, left, left_tau, right, right_tau);
}

void slave_placed_on_stop(struct slave_placed *s)
{
	struct slave_pile *p;

	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	p = s->pile;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	slave_tree_on_stop(s->tree);
	if (p)
		slave_pile_stop(p);
}

int slave_placed_end_loop(struct slave_placed *s, uint32_t loop)
{
	pthread_mutex_lock(&s->lock);
	if ((int64_t)loop > s->ended)
		s->ended = loop;
	if (s->running >= 0 && s->running <= (int64_t)loop) {
		if (s->pile)
			slave_pile_stop(s->pile);
		else
			slave_tree_end_loop(s->tree);
	}
	while (s->running >= 0 && s->running <= (int64_t)loop && !s->stop)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return DLS_OK;
}

int slave_placed_next_loop(struct slave_placed *s, const struct placement *a, char *why,
			   size_t len)
{
	uint32_t loop = 0;
	int rc;

	if (work_params_loop_number(a->job.params, (size_t)a->job.nparams, &loop, why, len))
		return DLS_EINVAL;
	pthread_mutex_lock(&s->lock);
	/* a loop ended before the loop thread entered it ends at once */
	while (s->running >= 0 && s->running <= s->ended && s->running != (int64_t)loop &&
	       !s->stop)
		pthread_cond_wait(&s->cond, &s->lock);
	if (s->placed == (int64_t)loop && !s->has_next && !s->stop) {
		/* a coordinator resumed from its journal places every slave again
		 * in the loop it resumed in: this one runs it already (or is on
		 * its way into it) */
		pthread_mutex_unlock(&s->lock);
		return DLS_OK;
	}
	if (s->running >= 0 || s->has_next || s->stop) {
		snprintf(why, len, "next_loop: %s",
			 s->stop ? "the run is over here"
				 : "this slave's loop has not been ended (end_loop first)");
		pthread_mutex_unlock(&s->lock);
		return DLS_ESTATE;
	}
	s->next = *a;
	s->has_next = 1;
	s->answered = 0;
	pthread_cond_broadcast(&s->cond);
	while (!s->answered && !s->stop)
		pthread_cond_wait(&s->cond, &s->lock);
	rc = s->answered ? s->answer : DLS_ESTATE;
	snprintf(why, len, "%s", s->answered ? s->answer_why : "the run is over here");
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* Has the coordinator said stop (the run is over)? */
static int stopped(struct slave_placed *s)
{
	int stop;

	pthread_mutex_lock(&s->lock);
	stop = s->stop;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

/* The coordinator's register_tree(), as slave_call makes it. */
struct register_call {
	const struct placed_ops *ops;
	const char *name;
	double speed;
	struct placement *a;
};

static int register_once(void *arg, char *why, size_t len)
{
	struct register_call *c = arg;

	return c->ops->register_tree(c->ops->ctx, c->name, c->speed, c->a, why, len);
}

/*
 * Registers with the coordinator (through the slave's call policy, so
 * that it may rejoin a resumed coordinator: rejoin_ops carries the
 * adapter's rejoin) and sets the run up for the placement *a.  DLS_OK
 * (r set up: slave_teardown frees it), or the error with why.
 */
static int place(struct run *r, struct slave_ops *rejoin_ops, const struct slave_config *cfg,
		 const struct placed_ops *ops, struct dls_slave_stats *st, struct placement *a,
		 char *why, size_t len)
{
	double q;
	int rc;

	memset(st, 0, sizeof(*st));
	r->cfg = cfg;
	r->st = st;
	r->why = why;
	r->len = len;
	rejoin_ops->ctx = ops->ctx;
	rejoin_ops->rejoin = ops->rejoin;
	r->ops = rejoin_ops;
	r->tree = 1;
	why[0] = '\0';
	q = slave_load(r, r->t0); /* emulated: the load at the start */
	struct register_call rc_call = {ops, cfg->name, slave_declared_speed(cfg) / q, a};

	rc = slave_call(r, register_once, &rc_call, why, len);
	if (rc)
		return rc;
	st->id = a->id;
	st->vpower = a->vpower;
	r->registered = 1; /* its id and capability let it rejoin a resumed coordinator */
	st->times.t_comwait = 0;
	r->job = a->job;
	r->t0 = dls_now();
	return slave_setup(r);
}

/* The pile of placement a (workpile, roc or ripple), installed as the
 * current loop's before anything of the loop can reach it, with room to
 * retire it.  DLS_OK or DLS_ENOMEM. */
static int new_pile(struct slave_placed *s, const struct placement *a)
{
	struct slave_pile *p = slave_pile_create(a), **old;

	pthread_mutex_lock(&s->lock);
	/* room to retire it (retire_pile) */
	old = p ? realloc(s->old, (s->nold + 1) * sizeof(*old)) : NULL;
	if (!old) {
		pthread_mutex_unlock(&s->lock);
		slave_pile_destroy(p);
		return DLS_ENOMEM;
	}
	s->old = old;
	s->pile = p;
	if (s->stop)
		slave_pile_stop(p);
	pthread_mutex_unlock(&s->lock);
	return DLS_OK;
}

/* The current loop's pile, retired once the loop is over: work that
 * comes between loops is refused (the coordinator gives it again), and
 * the pile is kept until the end (an incoming call may still hold it).
 * The lock is held. */
static void retire_pile(struct slave_placed *s)
{
	if (s->pile) /* new_pile made room */
		s->old[s->nold++] = s->pile;
	s->pile = NULL;
}

/* One loop of placement a, Tree Scheduling's or the policy's (its pile
 * made already); the loop `loop` of the run.  DLS_OK, or the error with
 * r->why. */
static int run_loop(struct slave_placed *s, struct run *r, const struct placed_ops *ops,
		    const struct placement *a, uint32_t loop, struct placed_stats *ts)
{
	struct slave_pile *p;
	int rc;

	pthread_mutex_lock(&s->lock);
	p = s->pile;
	s->running = loop;
	if (s->ended >= (int64_t)loop) { /* ended before it began here */
		if (p)
			slave_pile_stop(p);
		else
			slave_tree_end_loop(s->tree);
	}
	pthread_mutex_unlock(&s->lock);
	if (loop == 0 && ops->registered) /* the adapter binds its name: once a run */
		ops->registered(ops->ctx, a->id, &a->job);
	if (!a->piles) {
		rc = slave_tree_loop(s->tree, r, ops, a, ts);
	} else {
		log_info("placed as slave %d of %d (%s): %lld iterations from %lld (stride %lld)",
			 a->id, a->npes, pile_policy_name(a->policy), (long long)a->count,
			 (long long)a->start, (long long)a->stride);
		struct placed_stats one = {0};

		rc = slave_pile_run(p, r, ops, a, &one);
		if (ts) { /* the run's, over its loops */
			ts->migrations_out += one.migrations_out;
			ts->moved_out += one.moved_out;
			ts->migrations_in += one.migrations_in;
			ts->moved_in += one.moved_in;
		}
	}
	pthread_mutex_lock(&s->lock);
	s->running = -1;
	if (!rc && !s->stop)
		retire_pile(s);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/*
 * Between loops: waits for the next placement (or stop), takes its job
 * (checked and opened as at registration: slave_next_job) and, under a
 * policy, its pile, and answers slave_placed_next_loop.  1 with *a the
 * placement, 0 on stop, or the error of the job with r->why (the slave
 * then leaves the run).
 */
static int await_next(struct slave_placed *s, struct run *r, struct placement *a)
{
	int rc;

	pthread_mutex_lock(&s->lock);
	while (!s->has_next && !s->stop)
		pthread_cond_wait(&s->cond, &s->lock);
	if (!s->has_next) {
		pthread_mutex_unlock(&s->lock);
		return 0;
	}
	*a = s->next;
	s->has_next = 0;
	pthread_mutex_unlock(&s->lock);
	/* what it kept of the loop before (a copy computed after a failure
	 * while the loop ended) is not wanted any more */
	slave_store_clear(&r->store);
	rc = slave_next_job(r, &a->job);
	if (!rc && a->piles)
		rc = new_pile(s, a);
	pthread_mutex_lock(&s->lock);
	s->answer = rc;
	snprintf(s->answer_why, sizeof(s->answer_why), "%s",
		 rc ? (r->why[0] ? r->why : dls_strerror(rc)) : "");
	s->answered = 1;
	if (!rc)
		s->placed = r->loop;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (rc)
		log_err("cannot compute loop %u: %s: leaving the run", (unsigned)r->work.loop.number,
			r->why);
	return rc ? rc : 1;
}

int slave_placed_run(struct slave_placed *s, const struct slave_config *cfg,
		     const struct placed_ops *ops, struct dls_slave_stats *st, struct placed_stats *ts,
		     char *why, size_t len)
{
	struct run r = {0};
	struct slave_ops rejoin_ops = {0}; /* the retries rejoin a resumed coordinator */
	struct placement a;
	uint32_t loop = 0;
	int rc = place(&r, &rejoin_ops, cfg, ops, st, &a, why, len), next;

	if (!rc && a.piles)
		rc = new_pile(s, &a) ? (snprintf(why, len, "out of memory"), DLS_ENOMEM) : DLS_OK;
	if (rc)
		return rc;
	for (;;) {
		rc = run_loop(s, &r, ops, &a, loop, ts);
		if (rc && stopped(s)) {
			/* the coordinator had every result and said stop: a call of
			 * this slave refused or lost after that (a copy of work given
			 * again after a failure, a balancing call that waited out a
			 * hung peer) loses nothing */
			log_warn("stopped by the coordinator, whose run is over; a last call "
				 "failed: %s",
				 why);
			rc = DLS_OK;
		}
		if (rc || stopped(s))
			break;
		next = await_next(s, &r, &a);
		if (next <= 0) {
			rc = next;
			break;
		}
		loop = r.loop;
		log_info("loop %u: %lld iterations", (unsigned)loop,
			 (long long)a.job.iterations);
	}
	slave_teardown(&r);
	return rc;
}
