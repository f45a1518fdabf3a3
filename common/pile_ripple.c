/*
 * pile_ripple.c - seed 004's Ripple (Melhem, Pruhs & Znati) as the rules
 * of one PE (pile_policy.h), each PE stepping every step_s on its own
 * clock.  At step t, a PE's new load is minus the iterations it started
 * since its previous step (a loop only shrinks):
 *
 *   S1  Tortoise on the line of PEs 0..n-1 (P_i = PE i - 1): f/n scheduled
 *       to the left for steps t..t+i-2 and to the right for t..t+n-i-1; on
 *       the hypercube (n = 2^d): f 2^(u-1)/n across each dimension u now;
 *   S2  what the tables hold for step t goes to the neighbours (PASS);
 *   S3  a PASS rho that came from the right is passed on to the left at
 *       this PE's next step, rho (j-1)/j of it (from the left: rho
 *       (n-j)/(n-j+1) to the right); across dimension k: rho 2^(u-1)/2^(k-1)
 *       across each u < k; the rest is this PE's fair share.
 *
 * The continuous flows become whole iterations per link: each end keeps
 * what it sent and received (fluid) and the iterations it gave and got;
 * when it owes a whole iteration (sent - received - (given - got) >= 1) it
 * gives floor of that from the tail of its pile, at each step.  Both ends
 * see the same totals once the messages are in, so only one gives.  In
 * lockstep, with every PASS in before the next step, the loads follow the
 * seed's synchronous model exactly (sim/ripple_net.c; test_pile_sim.c).
 *
 * Message: PASS (kind 0), a = rho's IEEE-754 bits.  A dead neighbour is
 * not bridged: the line (or cube) keeps its shape and that link carries
 * nothing more.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "pile_policy.h"

enum { MSG_PASS };
enum { TIMER_STEP };

/* A PASS larger than this is nonsense from a peer. */
#define RIPPLE_RHO_MAX 1e15

struct rp_state {
	int n, sides, slots;
	int64_t steps, seen; /* steps done; iterations started at the last one */
	double *table;	     /* sides x slots */
	double *sent, *recv; /* by side: fluid, cumulative */
	int64_t *given, *got; /* by side: whole iterations */
};

static int line(const struct pile_host *h)
{
	return h->params->topology == RIPPLE_LINE;
}

/* The PE across side `side` (line: 0 left, 1 right; cube: dimension side+1), or -1. */
static int across(const struct pile_host *h, int side)
{
	if (!line(h))
		return h->self ^ (1 << side);
	if (side == 0)
		return h->self > 0 ? h->self - 1 : -1;
	return h->self + 1 < h->npes ? h->self + 1 : -1;
}

/* The side PE pe is on, or -1 when it is no neighbour. */
static int side_of(const struct pile_host *h, int pe)
{
	int x;

	if (pe < 0 || pe >= h->npes || pe == h->self)
		return -1;
	if (line(h))
		return pe == h->self - 1 ? 0 : pe == h->self + 1 ? 1 : -1;
	x = pe ^ h->self;
	if (x & (x - 1))
		return -1;
	for (int u = 0;; u++)
		if (x == 1 << u)
			return u;
}

static double *slot(struct rp_state *r, int side, int64_t step)
{
	return &r->table[(size_t)side * (size_t)r->slots + (size_t)(step % r->slots)];
}

static void rp_fini(void *st)
{
	struct rp_state *r = st;

	free(r->table);
	free(r->sent);
	free(r->recv);
	free(r->given);
	free(r->got);
	memset(r, 0, sizeof(*r));
}

static int rp_init(void *st, const struct pile_host *h, double t)
{
	struct rp_state *r = st;
	int d = 0;

	while ((1 << d) < h->npes)
		d++;
	r->n = h->npes;
	r->sides = line(h) ? 2 : d;
	r->slots = line(h) ? h->npes : 2;
	r->seen = h->started ? h->started(h->ctx) : 0;
	r->table = calloc((size_t)(r->sides ? r->sides : 1) * (size_t)r->slots, sizeof(double));
	r->sent = calloc((size_t)r->sides + 1, sizeof(double));
	r->recv = calloc((size_t)r->sides + 1, sizeof(double));
	r->given = calloc((size_t)r->sides + 1, sizeof(int64_t));
	r->got = calloc((size_t)r->sides + 1, sizeof(int64_t));
	if (!r->table || !r->sent || !r->recv || !r->given || !r->got) {
		rp_fini(r);
		return DLS_ENOMEM;
	}
	return h->timer(h->ctx, TIMER_STEP, t + h->params->step_s);
}

/* S1: a change f here, now (step r->steps). */
static void spread(struct rp_state *r, const struct pile_host *h, double f)
{
	int n = r->n, i = h->self + 1;

	if (f == 0)
		return;
	if (line(h)) {
		for (int a = 0; a <= i - 2; a++)
			*slot(r, 0, r->steps + a) += f / n;
		for (int a = 0; a <= n - i - 1; a++)
			*slot(r, 1, r->steps + a) += f / n;
		return;
	}
	for (int u = 1; u <= r->sides; u++)
		*slot(r, u - 1, r->steps) += f * (double)(1 << (u - 1)) / n;
}

/* Whole iterations for what this PE owes on each link. */
static int settle(struct rp_state *r, const struct pile_host *h, double t)
{
	for (int side = 0; side < r->sides; side++) {
		double owed = r->sent[side] - r->recv[side] - (double)(r->given[side] - r->got[side]);
		int64_t moved = 0;
		int to = across(h, side), rc;

		if (to < 0 || owed < 1)
			continue;
		if ((rc = h->give(h->ctx, to, (int64_t)floor(owed), t, &moved)))
			return rc;
		r->given[side] += moved;
	}
	return DLS_OK;
}

static int rp_on_timer(void *st, const struct pile_host *h, int kind, double t)
{
	struct rp_state *r = st;
	int64_t started = h->started ? h->started(h->ctx) : r->seen;
	int rc;

	(void)kind;
	spread(r, h, -(double)(started - r->seen));
	r->seen = started;
	for (int side = 0; side < r->sides; side++) { /* S2 */
		double *v = slot(r, side, r->steps), rho = *v;
		struct pile_msg m = {MSG_PASS, h->self, across(h, side), 0, 0, 0, 0};

		*v = 0;
		if (rho == 0 || m.to < 0)
			continue;
		memcpy(&m.a, &rho, sizeof(rho));
		r->sent[side] += rho;
		if ((rc = h->send(h->ctx, &m, t)))
			return rc;
	}
	r->steps++;
	if ((rc = settle(r, h, t)))
		return rc;
	return h->timer(h->ctx, TIMER_STEP, t + h->params->step_s);
}

/* S3: rho came over `side`; passed on at this PE's next step. */
static int rp_on_message(void *st, const struct pile_host *h, const struct pile_msg *m, double t)
{
	struct rp_state *r = st;
	int side = side_of(h, m->from), j = h->self + 1, n = r->n;
	double rho;

	(void)t;
	memcpy(&rho, &m->a, sizeof(rho));
	if (m->kind != MSG_PASS || side < 0 || !isfinite(rho) || fabs(rho) > RIPPLE_RHO_MAX)
		return DLS_OK; /* nonsense from a peer: nothing changes */
	r->recv[side] += rho;
	if (line(h)) {
		if (side == 1) /* from the right: on to the left */
			*slot(r, 0, r->steps) += rho * (j - 1) / j;
		else
			*slot(r, 1, r->steps) += rho * (n - j) / (n - j + 1);
		return DLS_OK;
	}
	for (int u = 1; u <= side; u++) /* across dimension k = side + 1 */
		*slot(r, u - 1, r->steps) += rho * (double)(1 << (u - 1)) / (double)(1 << side);
	return DLS_OK;
}

static int rp_on_arrival(void *st, const struct pile_host *h, int from, int64_t n, double t)
{
	struct rp_state *r = st;
	int side = side_of(h, from);

	(void)t;
	if (side >= 0)
		r->got[side] += n;
	return DLS_OK;
}

const struct pile_policy_ops pile_ripple_ops = {
	sizeof(struct rp_state), rp_init, NULL, NULL, rp_on_message, rp_on_timer,
	rp_on_arrival, NULL, rp_fini,
};
