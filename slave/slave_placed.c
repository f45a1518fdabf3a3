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

struct slave_placed {
	pthread_mutex_t lock;
	struct slave_tree *tree; /* from the start: demands may come before the placement */
	struct slave_pile *pile; /* placed under a policy */
	int stop;		 /* the coordinator said stop */
};

struct slave_placed *slave_placed_create(void)
{
	struct slave_placed *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->tree = slave_tree_create();
	if (!s->tree || pthread_mutex_init(&s->lock, NULL)) {
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
	slave_pile_destroy(s->pile);
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
	pthread_mutex_unlock(&s->lock);
	slave_tree_on_stop(s->tree);
	if (p)
		slave_pile_stop(p);
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

/* Workpile, roc or ripple: the pile's own loop (slave_pile.h). */
static int run_pile(struct slave_placed *s, struct run *r, const struct placed_ops *ops,
		    const struct placement *a, struct placed_stats *ts)
{
	struct slave_pile *p = slave_pile_create(a);

	if (!p) {
		snprintf(r->why, r->len, "out of memory");
		return DLS_ENOMEM;
	}
	pthread_mutex_lock(&s->lock);
	s->pile = p;
	if (s->stop)
		slave_pile_stop(p);
	pthread_mutex_unlock(&s->lock);
	if (ops->registered)
		ops->registered(ops->ctx, a->id, &a->job);
	log_info("placed as slave %d of %d (%s): %lld iterations from %lld (stride %lld)", a->id,
		 a->npes, pile_policy_name(a->policy), (long long)a->count, (long long)a->start,
		 (long long)a->stride);
	return slave_pile_run(p, r, ops, a, ts);
}

int slave_placed_run(struct slave_placed *s, const struct slave_config *cfg,
		     const struct placed_ops *ops, struct dls_slave_stats *st, struct placed_stats *ts,
		     char *why, size_t len)
{
	struct run r = {0};
	struct slave_ops rejoin_ops = {0}; /* the retries rejoin a resumed coordinator */
	struct placement a;
	int rc = place(&r, &rejoin_ops, cfg, ops, st, &a, why, len);

	if (rc)
		return rc;
	rc = a.piles ? run_pile(s, &r, ops, &a, ts) : slave_tree_loop(s->tree, &r, ops, &a, ts);
	slave_teardown(&r);
	return rc;
}
