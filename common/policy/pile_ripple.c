/*
 * pile_ripple.c - Melhem et al. 1991's Ripple (Melhem, Pruhs & Znati) as the rules
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
 * A flow smaller than params->pass_min iterations (default 1) is not sent
 * at its step but added to what the next step sends on that link: the
 * fluid is kept, only later; links settle in whole iterations anyway, and
 * it cuts the messages 5-6 fold at the same E in the model (BENCHMARKS.md
 * 8.2).  With pass_min 0 every step sends, as in the paper.
 *
 * Message: PASS (kind 0), a = rho's IEEE-754 bits; on the line also b and
 * c, the sender's count of living PEs to its left and to its right.
 *
 * A dead PE (h->alive) is bridged on the line: a PE's neighbour on each
 * side is the nearest living one, and its position j and the line's length
 * n come from how many living PEs lie to its left and right.  A PE knows
 * the deaths it saw itself (a call that failed); the counts travel along
 * the line with every PASS (left count from the left neighbour plus one,
 * right count from the right neighbour plus one), so every PE's j and n
 * follow within as many steps as it lies away from the gap.  A link that
 * changes ends starts its accounts afresh.  Iterations that arrive from no
 * neighbour (the coordinator gives a dead PE's work to a living one) are a
 * load change there, spread as S1 spreads any.  On the cube, a dead PE's
 * links carry nothing more (the binomial trees through it are not
 * rebuilt); what it held is spread from where it arrives.
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
	int sides, slots;
	int nb[2];	     /* line: the living neighbour on each side, or -1 */
	int count[2];	     /* line: living PEs to the left and to the right */
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
static int across(const struct rp_state *r, const struct pile_host *h, int side)
{
	if (!line(h))
		return h->self ^ (1 << side);
	return r->nb[side];
}

/* The side PE pe is on, or -1 when it is no neighbour. */
static int side_of(const struct rp_state *r, const struct pile_host *h, int pe)
{
	int x;

	if (pe < 0 || pe >= h->npes || pe == h->self)
		return -1;
	if (line(h))
		return pe == r->nb[0] ? 0 : pe == r->nb[1] ? 1 : -1;
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

/* Line: P_j and n as this PE counts them now. */
static int position(const struct rp_state *r)
{
	return r->count[0] + 1;
}

static int length(const struct rp_state *r)
{
	return r->count[0] + r->count[1] + 1;
}

/* The link on `side` now ends at PE `to`: its accounts start afresh. */
static void relink(struct rp_state *r, int side, int to)
{
	if (r->nb[side] == to)
		return;
	r->nb[side] = to;
	r->sent[side] = r->recv[side] = 0;
	r->given[side] = r->got[side] = 0;
}

/*
 * Line: the nearest living PE on each side, and the living counts where
 * this PE's own view changed (a death or a return it saw); otherwise the
 * counts its neighbours passed on stand.
 */
static void look(struct rp_state *r, const struct pile_host *h)
{
	int nb[2] = {-1, -1}, count[2] = {0, 0};

	for (int pe = 0; pe < h->npes; pe++) {
		if (pe == h->self || (h->alive && !h->alive(h->ctx, pe)))
			continue;
		if (pe < h->self) {
			nb[0] = pe;
			count[0]++;
		} else {
			if (nb[1] < 0)
				nb[1] = pe;
			count[1]++;
		}
	}
	for (int side = 0; side < 2; side++) {
		if (nb[side] != r->nb[side] || nb[side] < 0)
			r->count[side] = count[side];
		relink(r, side, nb[side]);
	}
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
	r->nb[0] = r->nb[1] = -2; /* look() sets them */
	if (line(h))
		look(r, h);
	return h->timer(h->ctx, TIMER_STEP, t + h->params->step_s);
}

/* S1: a change f here, now (step r->steps). */
static void spread(struct rp_state *r, const struct pile_host *h, double f)
{
	if (f == 0)
		return;
	if (line(h)) {
		int n = length(r), i = position(r);

		for (int a = 0; a <= i - 2; a++)
			*slot(r, 0, r->steps + a) += f / n;
		for (int a = 0; a <= n - i - 1; a++)
			*slot(r, 1, r->steps + a) += f / n;
		return;
	}
	for (int u = 1; u <= r->sides; u++)
		*slot(r, u - 1, r->steps) += f * (double)(1 << (u - 1)) / h->npes;
}

/* Whole iterations for what this PE owes on each link. */
static int settle(struct rp_state *r, const struct pile_host *h, double t)
{
	for (int side = 0; side < r->sides; side++) {
		double owed = r->sent[side] - r->recv[side] - (double)(r->given[side] - r->got[side]);
		int64_t moved = 0;
		int to = across(r, h, side), rc;

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
	if (line(h) && h->alive) /* without deaths, rp_init's look stands */
		look(r, h);
	spread(r, h, -(double)(started - r->seen));
	r->seen = started;
	for (int side = 0; side < r->sides; side++) { /* S2 */
		double *v = slot(r, side, r->steps), rho = *v;
		struct pile_msg m = {MSG_PASS, h->self, across(r, h, side), 0, 0, 0, 0};

		*v = 0;
		if (fabs(rho) < h->params->pass_min && m.to >= 0) {
			*slot(r, side, r->steps + 1) += rho; /* too small to send yet */
			continue;
		}
		if (rho == 0 || m.to < 0)
			continue;
		memcpy(&m.a, &rho, sizeof(rho));
		if (line(h)) {
			m.b = r->count[0];
			m.c = r->count[1];
		}
		r->sent[side] += rho;
		if ((rc = h->send(h->ctx, &m, t)))
			return rc;
	}
	r->steps++;
	if ((rc = settle(r, h, t)))
		return rc;
	return h->timer(h->ctx, TIMER_STEP, t + h->params->step_s);
}

/* Line: the counts a neighbour passed on, when they make sense. */
static void hear_counts(struct rp_state *r, const struct pile_host *h, int side,
			const struct pile_msg *m)
{
	int64_t left, right;

	if (m->b < 0 || m->c < 0 || m->b >= h->npes || m->c >= h->npes)
		return; /* more PEs than the run has: nonsense */
	left = side == 0 ? m->b + 1 : r->count[0];
	right = side == 1 ? m->c + 1 : r->count[1];
	if (left > h->self || right > h->npes - 1 - h->self)
		return; /* more PEs than there are on that side: nonsense */
	r->count[0] = (int)left;
	r->count[1] = (int)right;
}

/* S3: rho came over `side`; passed on at this PE's next step. */
static int rp_on_message(void *st, const struct pile_host *h, const struct pile_msg *m, double t)
{
	struct rp_state *r = st;
	int side = side_of(r, h, m->from);
	double rho;

	(void)t;
	memcpy(&rho, &m->a, sizeof(rho));
	if (m->kind != MSG_PASS || side < 0 || !isfinite(rho) || fabs(rho) > RIPPLE_RHO_MAX)
		return DLS_OK; /* nonsense from a peer: nothing changes */
	r->recv[side] += rho;
	if (line(h)) {
		int j, n;

		hear_counts(r, h, side, m);
		j = position(r);
		n = length(r);
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
	int side = side_of(r, h, from);

	(void)t;
	if (side >= 0)
		r->got[side] += n;
	else /* from no neighbour (a dead PE's work): a load change here */
		spread(r, h, (double)n);
	return DLS_OK;
}

const struct pile_policy_ops pile_ripple_ops = {
	sizeof(struct rp_state), rp_init, NULL, NULL, rp_on_message, rp_on_timer,
	rp_on_arrival, NULL, rp_fini,
};
