/*
 * tree_sim.c - Tree Scheduling event by event (see tree_sim.h).  PEs are
 * handled by chain position k (the PE is plan->chain[k]); work flows from
 * k to k + 1, and back as well when bi-directional.
 */
#include "tree_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "event_heap.h"

/* Event kinds, in the order they are handled at equal times. */
enum { EV_END, EV_TRANSFER, EV_DEMAND, EV_CANCEL, EV_STEP };

struct dls_range {
	int64_t start, count, stride;
};

struct event {
	double t;
	int kind;
	uint64_t seq;
	int at, from;	 /* position handling it; sender position */
	struct dls_range r; /* EV_TRANSFER */
};

struct pe_state {
	struct dls_range *ranges; /* unstarted iterations */
	size_t nranges, cap;
	int busy, asked; /* computing; demands outstanding */
	int pending[2];	 /* a demand waits here from: [0] the right, [1] the left */
	/* a busy stretch: iterations back to back from seg_t0; their ends are
	 * computed from the stretch's total work, so that ties stay exact */
	int seg_open;
	double seg_t0, seg_work, seg_end;
};

struct state {
	const struct tree_sim_config *c;
	struct tree_sim_result *out;
	struct tree_plan *plan;
	struct pe_state *pe;
	struct event_heap ev;
	uint64_t seq; /* events pushed so far */
	int64_t computed;
};

static double snap(double t)
{
	return nearbyint(t * 1e9) / 1e9;
}

static int before(const void *x, const void *y)
{
	const struct event *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->seq < b->seq;
}

static int push(struct state *s, struct event e)
{
	e.t = snap(e.t);
	e.seq = s->seq++;
	return event_heap_push(&s->ev, &e);
}

static int add_range(struct pe_state *p, struct dls_range r)
{
	if (r.count <= 0)
		return DLS_OK;
	if (p->nranges == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4;
		struct dls_range *v = realloc(p->ranges, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		p->ranges = v;
		p->cap = cap;
	}
	p->ranges[p->nranges++] = r;
	return DLS_OK;
}

static int64_t remaining(const struct pe_state *p)
{
	int64_t n = 0;

	for (size_t k = 0; k < p->nranges; k++)
		n += p->ranges[k].count;
	return n;
}

static double tau_at(const struct state *s, int k)
{
	return s->c->tau[s->plan->chain[k]];
}

/*
 * Position k sends the tail of its unstarted work to position d; *served is
 * cleared when it cannot (nothing to give).  Bi-directional, a PE keeps its
 * last iteration: two idle neighbours would otherwise pass it back and forth.
 */
static int migrate(struct state *s, int k, int d, double t, int *served)
{
	struct pe_state *p = &s->pe[k];
	int64_t r = remaining(p);
	int64_t n = tree_migrate_count(s->c->gamma, tau_at(s, k), tau_at(s, d), r);
	struct dls_range *last;
	struct event e = {0};
	int rc;

	if (s->c->bidirectional && n >= r)
		n = r - 1;
	*served = n > 0;
	if (n <= 0)
		return DLS_OK;
	last = &p->ranges[p->nranges - 1];
	if (n > last->count) /* the tail comes from the last range only */
		n = last->count;
	e.t = t + s->c->latency;
	e.kind = EV_TRANSFER;
	e.at = d;
	e.from = k;
	e.r = (struct dls_range){last->start + (last->count - n) * last->stride, n, last->stride};
	last->count -= n;
	if (last->count == 0)
		p->nranges--;
	s->out->migrations++;
	s->out->moved += n;
	s->out->link_migrations[k < d ? k : d]++;
	if ((rc = tree_migrate_units_count(&s->out->units, &s->out->nunits, n)))
		return rc;
	return push(s, e);
}

static int send_demands(struct state *s, int k, double t)
{
	struct event e = {0};
	int rc = DLS_OK;

	e.t = t + s->c->latency;
	e.kind = EV_DEMAND;
	e.from = k;
	if (k > 0) {
		e.at = k - 1;
		rc = push(s, e);
		s->pe[k].asked++;
	}
	if (!rc && s->c->bidirectional && k + 1 < s->plan->npes) {
		e.at = k + 1;
		rc = push(s, e);
		s->pe[k].asked++;
	}
	return rc;
}

/* Position k starts its next iteration at t. */
static int start_next(struct state *s, int k, double t)
{
	struct pe_state *p = &s->pe[k];
	const struct tree_sim_config *c = s->c;
	int pe = s->plan->chain[k];
	struct dls_range *r = &p->ranges[0];
	int64_t it = r->start;
	double work = (c->cost ? (double)c->cost[it] : 1.0) * c->t_unit, end;
	struct event e = {0};

	r->start += r->stride;
	if (--r->count == 0) {
		memmove(p->ranges, p->ranges + 1, --p->nranges * sizeof(*p->ranges));
	}
	if (!p->seg_open || t != p->seg_end) { /* a new stretch starts here */
		p->seg_open = 1;
		p->seg_t0 = t;
		p->seg_work = 0;
	}
	p->seg_work += work;
	end = snap(c->power ? emul_finish(&c->power[pe], p->seg_t0, p->seg_work)
			    : p->seg_t0 + p->seg_work / c->tau[pe]);
	p->seg_end = end;
	s->out->pe_busy[pe] += end - t;
	p->busy = 1;
	e.t = end;
	e.kind = EV_END;
	e.at = k;
	return push(s, e);
}

static int on_end(struct state *s, const struct event *e)
{
	struct pe_state *p = &s->pe[e->at];
	struct event step = {0};

	s->computed++;
	s->out->pe_iterations[s->plan->chain[e->at]]++;
	if (e->t > s->out->t_p)
		s->out->t_p = e->t;
	p->busy = 0; /* at a boundary until its step */
	if (remaining(p) == 0) { /* idle: ask for work, now */
		p->seg_open = 0;
		if (!p->asked)
			return send_demands(s, e->at, e->t);
		return DLS_OK;
	}
	step.t = e->t;
	step.kind = EV_STEP;
	step.at = e->at;
	return push(s, step);
}

static int on_step(struct state *s, const struct event *e)
{
	int k = e->at, rc = DLS_OK;
	struct pe_state *p = &s->pe[k];

	/* pending demands first: from the right, then (bi-directional) the left */
	for (int side = 0; side < 2 && !rc; side++) {
		int served = 0;

		if (!p->pending[side] || remaining(p) == 0)
			continue;
		rc = migrate(s, k, side ? k - 1 : k + 1, e->t, &served);
		if (served)
			p->pending[side] = 0;
	}
	if (rc)
		return rc;
	if (remaining(p) > 0)
		return start_next(s, k, e->t);
	p->seg_open = 0;
	return p->asked ? DLS_OK : send_demands(s, k, e->t);
}

static int on_transfer(struct state *s, const struct event *e)
{
	struct pe_state *p = &s->pe[e->at];
	struct event x = {0};
	int rc = add_range(p, e->r);

	if (rc)
		return rc;
	if (s->c->bidirectional && p->asked > 1) { /* the other side need not answer now */
		x.t = e->t + s->c->latency;
		x.kind = EV_CANCEL;
		x.at = e->from == e->at - 1 ? e->at + 1 : e->at - 1;
		x.from = e->at;
		if (x.at >= 0 && x.at < s->plan->npes && (rc = push(s, x)))
			return rc;
	}
	p->asked = 0;
	if (p->busy)
		return DLS_OK; /* a second transfer (bi-directional): queued */
	x.t = e->t;
	x.kind = EV_STEP;
	x.at = e->at;
	x.from = 0;
	return push(s, x);
}

/* Each PE's first iterations, as the plan allocates them, and its start
 * at time 0 (an empty one asks at once).  DLS_OK, or DLS_ENOMEM. */
static int place_all(struct state *s)
{
	const struct tree_sim_config *c = s->c;
	int64_t *start = calloc((size_t)c->npes, sizeof(*start));
	int64_t *count = calloc((size_t)c->npes, sizeof(*count));
	int rc = start && count ? DLS_OK : DLS_ENOMEM;

	if (!rc)
		rc = tree_plan_allocate(s->plan, c->tau, c->iterations, c->alloc, start, count);
	for (int k = 0; !rc && k < c->npes; k++) {
		int pe = s->plan->chain[k];
		int64_t stride = c->alloc == TREE_ALLOC_ROUND_ROBIN ? c->npes : 1;

		rc = add_range(&s->pe[k], (struct dls_range){start[pe], count[pe], stride});
	}
	for (int k = 0; !rc && k < c->npes; k++)
		rc = s->pe[k].nranges ? start_next(s, k, 0) : send_demands(s, k, 0);
	free(start);
	free(count);
	return rc;
}

/* Plays the events until none is left.  DLS_OK, or the first error. */
static int play(struct state *s)
{
	int rc = DLS_OK;

	while (!rc && s->ev.n) {
		struct event e;

		event_heap_pop(&s->ev, &e);
		struct pe_state *p = &s->pe[e.at];

		switch (e.kind) {
		case EV_END:
			rc = on_end(s, &e);
			break;
		case EV_TRANSFER:
			rc = on_transfer(s, &e);
			break;
		case EV_DEMAND: /* it waits here until a boundary or until work comes */
			p->pending[e.from > e.at ? 0 : 1] = 1;
			break;
		case EV_CANCEL:
			p->pending[e.from > e.at ? 0 : 1] = 0;
			break;
		default: /* a boundary, unless a second step already started it */
			if (!p->busy)
				rc = on_step(s, &e);
			break;
		}
	}
	return rc;
}

int tree_sim_run(const struct tree_sim_config *c, struct tree_sim_result *out)
{
	struct state s;
	int rc;

	memset(out, 0, sizeof(*out));
	if (c->npes < 1 || c->iterations < 1 || !(c->t_unit >= 0) || !(c->latency >= 0))
		return DLS_EINVAL;
	memset(&s, 0, sizeof(s));
	event_heap_init(&s.ev, sizeof(struct event), before);
	s.c = c;
	s.out = out;
	rc = tree_plan_build(c->tau, c->npes, &s.plan);
	if (rc)
		return rc;
	out->plan = s.plan;
	out->link_migrations = calloc((size_t)c->npes, sizeof(int64_t));
	out->pe_iterations = calloc((size_t)c->npes, sizeof(int64_t));
	out->pe_busy = calloc((size_t)c->npes, sizeof(double));
	s.pe = calloc((size_t)c->npes, sizeof(*s.pe));
	if (!out->link_migrations || !out->pe_iterations || !out->pe_busy || !s.pe)
		rc = DLS_ENOMEM;
	if (!rc)
		rc = place_all(&s);
	if (!rc)
		rc = play(&s);
	if (!rc && s.computed != c->iterations)
		rc = DLS_ESTATE; /* cannot happen: work is never dropped */
	for (int k = 0; s.pe && k < c->npes; k++)
		free(s.pe[k].ranges);
	free(s.pe);
	event_heap_free(&s.ev);
	if (rc)
		tree_sim_result_free(out);
	return rc;
}

void tree_sim_result_free(struct tree_sim_result *r)
{
	free(r->link_migrations);
	free(r->units);
	free(r->pe_iterations);
	free(r->pe_busy);
	tree_plan_destroy(r->plan);
	memset(r, 0, sizeof(*r));
}

int tree_sim_config_cluster(const double *speed, const struct emul_steps *load, int n,
			    const uint64_t *cost, int64_t iterations, double t_unit,
			    struct tree_sim_config *c, double *t_ideal)
{
	struct emul_steps *power = calloc((size_t)n, sizeof(*power)), total = {0};
	double *tau = calloc((size_t)n, sizeof(*tau)), work = 0;

	memset(c, 0, sizeof(*c));
	if (!power || !tau) {
		free(power);
		free(tau);
		return DLS_ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		power[i] = load[i];
		for (size_t k = 0; k < power[i].n; k++)
			power[i].value[k] = speed[i] / load[i].value[k];
		tau[i] = power[i].value[0];
		emul_power_add(&total, speed[i], &load[i]);
	}
	for (int64_t i = 0; i < iterations; i++)
		work += (double)cost[i];
	c->tau = tau;
	c->power = power;
	c->npes = n;
	c->iterations = iterations;
	c->cost = cost;
	c->t_unit = t_unit;
	*t_ideal = emul_finish(&total, 0, work * t_unit);
	return DLS_OK;
}

void tree_sim_config_free(struct tree_sim_config *c)
{
	free((void *)c->tau);
	free((void *)c->power);
	c->tau = NULL;
	c->power = NULL;
}
