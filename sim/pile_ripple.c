/*
 * pile_ripple.c - seed 004's Ripple on a loop's piles: every step_s, in
 * synchronous balance steps, each PE's new load is minus the iterations it
 * started since the previous step (a loop only shrinks); ripple_net spreads
 * it evenly (Tortoise on a line, or the hypercube's binomial trees) and
 * reports the continuous flow on each link.  The flow is carried out in whole
 * iterations without losing any: each link keeps its cumulative continuous
 * flow F and the iterations that crossed it M; when F - M reaches a whole
 * iteration the end it points from gives floor(F - M) from the tail of its
 * pile (what it has, if less: the rest stays owed).  Both ends of a link
 * know F (what each sent), so either could decide it.  Each step costs one
 * message per link that carried a non-zero amount.  The placement is the
 * balanced state the seed assumes at the start: its shape (equal, or
 * proportional to tau) is kept, and every PE's pile shrinks at the
 * cluster's mean rate.
 */
#include <math.h>
#include <stdlib.h>

#include "dls/err.h"
#include "pile_internal.h"

enum { TIMER_STEP };

struct ripple {
	struct ripple_net *net;
	const int *la, *lb;
	int nlinks;
	double *flow, *fluid; /* this step's; cumulative */
	int64_t *moved;	      /* cumulative iterations, positive a -> b */
	int64_t *seen;	      /* each PE's iterations started at the last step */
};

static int rp_init(struct pile *s)
{
	struct ripple *r = calloc(1, sizeof(*r));
	int n = s->c->npes, rc;

	if (!r)
		return DLS_ENOMEM;
	s->policy = r;
	if ((rc = ripple_net_create(s->c->params.topology, n, &r->net)))
		return rc;
	r->nlinks = ripple_net_links(r->net, &r->la, &r->lb);
	r->flow = calloc((size_t)r->nlinks + 1, sizeof(double));
	r->fluid = calloc((size_t)r->nlinks + 1, sizeof(double));
	r->moved = calloc((size_t)r->nlinks + 1, sizeof(int64_t));
	r->seen = calloc((size_t)n, sizeof(int64_t));
	if (!r->flow || !r->fluid || !r->moved || !r->seen)
		return DLS_ENOMEM;
	/* the placement is the balanced state the seed starts from: only
	 * changes ripple */
	return pile_timer(s, 0, TIMER_STEP, s->c->params.step_s);
}

static void rp_fini(struct pile *s)
{
	struct ripple *r = s->policy;

	if (!r)
		return;
	ripple_net_destroy(r->net);
	free(r->flow);
	free(r->fluid);
	free(r->moved);
	free(r->seen);
	free(r);
	s->policy = NULL;
}

static int rp_on_timer(struct pile *s, int pe, int kind, double t)
{
	struct ripple *r = s->policy;
	int rc;

	(void)pe;
	(void)kind;
	for (int i = 0; i < s->c->npes; i++) { /* S1: each PE's consumption */
		int64_t started = s->pe[i].started;

		ripple_net_add(r->net, i, -(double)(started - r->seen[i]));
		r->seen[i] = started;
	}
	ripple_net_step(r->net, r->flow);
	for (int l = 0; l < r->nlinks; l++) {
		double owed;
		int64_t n, moved;

		if (r->flow[l] != 0)
			s->out->messages++;
		r->fluid[l] += r->flow[l];
		owed = r->fluid[l] - (double)r->moved[l];
		if (fabs(owed) < 1)
			continue;
		n = (int64_t)floor(fabs(owed));
		rc = owed > 0 ? pile_give(s, r->la[l], r->lb[l], n, t, &moved)
			      : pile_give(s, r->lb[l], r->la[l], n, t, &moved);
		if (rc)
			return rc;
		r->moved[l] += owed > 0 ? moved : -moved;
	}
	return pile_timer(s, 0, TIMER_STEP, t + s->c->params.step_s);
}

const struct pile_engine_ops pile_ripple_ops = {
	rp_init, NULL, NULL, NULL, rp_on_timer, NULL, rp_fini,
};
