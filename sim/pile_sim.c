/*
 * pile_sim.c - the engine of the decentralized policies (see pile_sim.h
 * and pile_internal.h): piles, the clock, computing, transfers, messages
 * and timers.  Events at the same time are handled in this order: ends of
 * iterations, arrivals of work, messages, timers; then by the order they
 * were pushed.  The run stops when the last iteration ends.
 */
#include "pile_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "pile_internal.h"
#include "tree_plan.h"

/* PE pe takes the head of its pile at t. */
static int start_next(struct pile *s, int pe, double t)
{
	const struct pile_sim_config *c = s->c;
	struct pile_pe *p = &s->pe[pe];
	int64_t it = *pile_ring_at(p, 0);
	double work = (c->cost ? (double)c->cost[it] : 1.0) * c->t_unit;
	struct pile_event e = {0};

	p->head = (p->head + 1) % p->cap;
	p->len--;
	p->started++;
	p->busy = 1;
	e.t = c->power ? emul_finish(&c->power[pe], t, work) : t + work / c->tau[pe];
	e.kind = EV_END;
	e.pe = pe;
	s->out->pe_busy[pe] += e.t - t;
	return pile_push(s, &e);
}

/* A boundary of pe at t: the policy looks first, then the next iteration. */
static int boundary(struct pile *s, int pe, double t)
{
	int rc = DLS_OK;

	if (s->pe[pe].len > 0 && s->ops && s->ops->before_next)
		rc = s->ops->before_next(s, pe, t);
	if (rc)
		return rc;
	if (s->pe[pe].len > 0)
		return start_next(s, pe, t);
	return s->ops && s->ops->on_idle ? s->ops->on_idle(s, pe, t) : DLS_OK;
}

static int handle(struct pile *s, struct pile_event *e)
{
	struct pile_pe *p = &s->pe[e->pe];
	int rc;

	switch (e->kind) {
	case EV_END:
		p->busy = 0;
		s->computed++;
		s->out->pe_iterations[e->pe]++;
		if (e->t > s->out->t_p)
			s->out->t_p = e->t;
		return s->computed == s->c->iterations ? DLS_OK : boundary(s, e->pe, e->t);
	case EV_ARRIVE:
		rc = pile_ring_append(p, e->its, e->n);
		free(e->its);
		e->its = NULL;
		if (rc)
			return rc;
		s->out->pe_moved_in[e->pe] += e->n;
		if (s->ops && s->ops->on_arrival &&
		    (rc = s->ops->on_arrival(s, e->pe, e->from, e->n, e->t)))
			return rc;
		return p->busy || p->len == 0 ? DLS_OK : start_next(s, e->pe, e->t);
	case EV_MSG:
		return s->ops && s->ops->on_message ? s->ops->on_message(s, &e->msg, e->t) : DLS_OK;
	default:
		return s->ops && s->ops->on_timer ? s->ops->on_timer(s, e->pe, e->timer, e->t)
						  : DLS_OK;
	}
}

/*
 * The coordinator's placement (treesched/coordinator.c): blocks of the
 * order, equal or proportional to tau, in the order of Tree Scheduling's
 * chain (tree_plan_allocate), so a simulation puts the same columns on the
 * same speeds as `dls run` does.
 */
static int place(const struct pile_sim_config *c, int64_t *start, int64_t *count)
{
	struct tree_plan *plan;
	int rc = tree_plan_build(c->tau, c->npes, &plan);

	if (rc)
		return rc;
	rc = tree_plan_allocate(plan, c->tau, c->iterations,
				c->alloc == PILE_ALLOC_PROPORTIONAL ? TREE_ALLOC_PROPORTIONAL
								    : TREE_ALLOC_EQUAL,
				start, count);
	tree_plan_destroy(plan);
	return rc;
}

static const struct pile_engine_ops *ops_of(enum pile_policy p)
{
	return pile_policy_ops(p) ? &pile_local_ops : NULL;
}

static int setup(struct pile *s, const struct pile_sim_config *c, struct pile_sim_result *out)
{
	int n = c->npes;
	int64_t *count = calloc((size_t)n, sizeof(*count)), *its;
	int64_t *start = calloc((size_t)n, sizeof(*start));
	int rc = DLS_OK;

	out->pe_iterations = calloc((size_t)n, sizeof(int64_t));
	out->pe_busy = calloc((size_t)n, sizeof(double));
	out->pe_moved_in = calloc((size_t)n, sizeof(int64_t));
	out->pe_moved_out = calloc((size_t)n, sizeof(int64_t));
	s->pe = calloc((size_t)n, sizeof(*s->pe));
	its = malloc((size_t)c->iterations * sizeof(*its));
	if (!count || !start || !out->pe_iterations || !out->pe_busy || !out->pe_moved_in ||
	    !out->pe_moved_out || !s->pe || !its) {
		rc = DLS_ENOMEM;
		goto done;
	}
	for (int64_t k = 0; k < c->iterations; k++)
		its[k] = k;
	rc = place(c, start, count);
	for (int i = 0; i < n && !rc; i++) {
		s->pe[i].rng = c->seed * 0x2545f4914f6cdd1dULL + (uint64_t)i * 0x9e3779b97f4a7c15ULL;
		rc = pile_ring_append(&s->pe[i], its + start[i], count[i]);
	}
done:
	free(count);
	free(start);
	free(its);
	return rc;
}

int pile_sim_run(const struct pile_sim_config *c, struct pile_sim_result *out)
{
	struct pile s;
	struct pile_event e;
	int rc;

	memset(out, 0, sizeof(*out));
	if (pile_sim_check(c))
		return DLS_EINVAL;
	memset(&s, 0, sizeof(s));
	s.c = c;
	s.out = out;
	s.ops = ops_of(c->policy);
	event_heap_init(&s.ev, sizeof(struct pile_event), pile_event_before);
	rc = setup(&s, c, out);
	if (!rc && s.ops && s.ops->init)
		rc = s.ops->init(&s);
	for (int i = 0; !rc && i < c->npes; i++) /* everyone starts at 0 */
		rc = boundary(&s, i, 0);
	while (!rc && s.ev.n && s.computed < c->iterations) {
		event_heap_pop(&s.ev, &e);
		rc = handle(&s, &e);
		free(e.its);
	}
	if (!rc && s.computed != c->iterations)
		rc = DLS_ESTATE; /* an iteration went missing: cannot happen */
	while (s.ev.n) { /* what the end left in flight */
		event_heap_pop(&s.ev, &e);
		free(e.its);
	}
	if (s.ops && s.ops->fini)
		s.ops->fini(&s);
	for (int i = 0; s.pe && i < c->npes; i++)
		free(s.pe[i].ring);
	free(s.pe);
	event_heap_free(&s.ev);
	if (rc)
		pile_sim_result_free(out);
	return rc;
}

void pile_sim_result_free(struct pile_sim_result *r)
{
	free(r->units);
	free(r->pe_iterations);
	free(r->pe_busy);
	free(r->pe_moved_in);
	free(r->pe_moved_out);
	memset(r, 0, sizeof(*r));
}

const char *pile_sim_check(const struct pile_sim_config *c)
{
	if (c->npes < 1 || c->iterations < 1 || !c->tau)
		return "needs at least one PE and one iteration";
	for (int i = 0; i < c->npes; i++)
		if (!(c->tau[i] > 0) || !isfinite(c->tau[i]))
			return "every throughput must be positive and finite";
	if (!(c->t_unit >= 0) || !isfinite(c->t_unit) || !(c->latency >= 0) ||
	    !isfinite(c->latency))
		return "the time unit and the latency must be finite and >= 0";
	if (c->alloc != PILE_ALLOC_EQUAL && c->alloc != PILE_ALLOC_PROPORTIONAL)
		return "unknown allocation";
	return pile_params_check(c->policy, &c->params, c->npes);
}
