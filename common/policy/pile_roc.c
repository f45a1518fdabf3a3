/*
 * pile_roc.c - Campos and Scherson 2000's Rate of Change load balancing (Campos & Scherson,
 * RoC-LB, sections 2.2-2.3) as the rules of one PE (pile_policy.h).  A
 * PE's load is its pile plus the iteration it computes.
 *
 * When: at each sample interval (each PE on its own phase, drawn at the
 *   start: no global clock) DL = load - load at the previous sample and
 *   PL = load + DL * ND / interval.  With no request outstanding, a PE at or
 *   below HT requests when PL < 0 or load < CT.
 * How many [REC: the paper says |PL| and "unconditionally" below CT]:
 *   NLUR = max(ceil(-PL), LT - load, 1), enough to leave the sink state.
 * Where: the first entry of its source table (removed), else a random PE
 *   that is not in its sink table.
 * Receiver: adds SPI to its sink table (and drops it from its sources); a
 *   forwarded request also files the forwarder by its LSP_PE; above HT it
 *   sends SPI what it holds above HT, up to NLUR, from its tail [REC: the
 *   seed moves the oldest tasks by CPU time; unstarted iterations have none,
 *   and the tail is what every DLS policy gives]; the rest is forwarded
 *   with NF + 1, or dropped at NF_max with a DROP to SPI.
 * Requester: work from a PE puts it first in the source table; the request
 *   is done when NLUR iterations came, or on DROP.  ND is the mean time
 *   from a request to its first work; before any, params.nd_s, or the time
 *   to move 1 MB at 1 Gb/s plus a round trip.
 * Tables hold table_size entries, the newest first.  A request not done
 * within ROC_LOST_S (a PE on its way died) is given up.
 *
 * Messages: REQUEST a = SPI, b = NLUR, c = NF, d = LSP_PE (the sender's
 * load state); DROP (to SPI).
 */
#include <math.h>
#include <string.h>

#include "dls/err.h"
#include "pile_policy.h"

enum { MSG_REQUEST, MSG_DROP };
enum { TIMER_SAMPLE };
enum { STATE_SINK, STATE_NEUTRAL, STATE_SOURCE };

#define ROC_LOST_S 1.0

struct roc_state {
	int source[PILE_TABLE_MAX], nsource;
	int sink[PILE_TABLE_MAX], nsink;
	int64_t prev_load;
	int waiting;
	int64_t asked, got; /* the outstanding request: NLUR and what came */
	double asked_at;
	int timed; /* its first work has been timed */
	double nd_sum;
	int64_t nd_count;
	int64_t dropped;
};

static int64_t load(const struct pile_host *h)
{
	return h->len(h->ctx) + h->busy(h->ctx);
}

static int state_of(const struct pile_host *h)
{
	int64_t l = load(h);

	return l > h->params->ht ? STATE_SOURCE : l < h->params->lt ? STATE_SINK : STATE_NEUTRAL;
}

static void table_remove(int *v, int *n, int pe)
{
	for (int k = 0; k < *n; k++)
		if (v[k] == pe) {
			memmove(v + k, v + k + 1, (size_t)(*n - k - 1) * sizeof(*v));
			(*n)--;
			return;
		}
}

/* pe first in the table, the oldest entry out when full. */
static void table_put(int *v, int *n, int size, int pe)
{
	table_remove(v, n, pe);
	if (*n == size)
		(*n)--;
	memmove(v + 1, v, (size_t)*n * sizeof(*v));
	v[0] = pe;
	(*n)++;
}

static int in_table(const int *v, int n, int pe)
{
	for (int k = 0; k < n; k++)
		if (v[k] == pe)
			return 1;
	return 0;
}

/* Where this PE sends a request of spi: its first living source, else a
 * random living PE other than itself and spi, not a sink if any such is
 * found; -1: none. */
static int target(struct roc_state *r, const struct pile_host *h, int spi)
{
	int any = -1;

	while (r->nsource > 0) {
		int t = r->source[0];

		table_remove(r->source, &r->nsource, t);
		if (t != spi && t != h->self && t >= 0 && t < h->npes &&
		    (!h->alive || h->alive(h->ctx, t)))
			return t;
	}
	for (int tries = 0; tries < 4 * h->npes; tries++) {
		int t = pile_rand_other(h);

		if (t < 0)
			return -1;
		if (t == spi)
			continue;
		if (!in_table(r->sink, r->nsink, t))
			return t;
		any = t; /* a sink will do if nothing else turns up */
	}
	return any;
}

static int roc_init(void *st, const struct pile_host *h, double t)
{
	struct roc_state *r = st;
	double phase = (double)(h->rand(h->ctx) >> 11) / 9007199254740992.0;

	r->prev_load = load(h);
	/* each PE on its own phase: no global clock */
	return h->timer(h->ctx, TIMER_SAMPLE, t + phase * h->params->interval_s);
}

static double nd_of(const struct roc_state *r, const struct pile_host *h)
{
	if (r->nd_count)
		return r->nd_sum / (double)r->nd_count;
	if (h->params->nd_s > 0)
		return h->params->nd_s;
	return 2 * h->latency + (1 << 20) * 8 / 1e9; /* 1 MB at 1 Gb/s, and back */
}

static int roc_on_timer(void *st, const struct pile_host *h, int kind, double t)
{
	const struct pile_params *p = h->params;
	struct roc_state *r = st;
	int64_t l = load(h), dl = l - r->prev_load, nlur;
	double pl = (double)l + (double)dl * nd_of(r, h) / p->interval_s;
	struct pile_msg m = {MSG_REQUEST, h->self, 0, h->self, 0, 0, STATE_SINK};
	int rc;

	(void)kind;
	r->prev_load = l;
	if ((rc = h->timer(h->ctx, TIMER_SAMPLE, t + p->interval_s)))
		return rc;
	if (r->waiting && t >= r->asked_at + ROC_LOST_S)
		r->waiting = 0; /* lost on the way: ask anew */
	if (r->waiting || l > p->ht || (pl >= 0 && l >= p->ct))
		return DLS_OK;
	nlur = pl < 0 ? (int64_t)ceil(-pl) : 1;
	if (nlur < p->lt - l)
		nlur = p->lt - l;
	if (nlur < 1)
		nlur = 1;
	if ((m.to = target(r, h, h->self)) < 0)
		return DLS_OK;
	m.b = nlur;
	m.d = state_of(h);
	r->waiting = 1;
	r->asked = nlur;
	r->got = 0;
	r->asked_at = t;
	r->timed = 0;
	return h->send(h->ctx, &m, t);
}

static int on_request(struct roc_state *r, const struct pile_host *h, const struct pile_msg *m,
		      double t)
{
	const struct pile_params *p = h->params;
	int spi = (int)m->a;
	struct pile_msg fwd = *m;
	int64_t give = load(h) - p->ht, moved = 0;
	int rc;

	if (m->a < 0 || m->a >= h->npes || spi == h->self || m->b <= 0 || m->c < 0 ||
	    m->c >= p->nf_max)
		return DLS_OK; /* nonsense from a peer: nothing moves */
	table_put(r->sink, &r->nsink, p->table_size, spi);
	table_remove(r->source, &r->nsource, spi);
	if (m->c > 0 && m->from != spi) { /* a forward: file the forwarder */
		if (m->d == STATE_SOURCE)
			table_put(r->source, &r->nsource, p->table_size, m->from);
		else if (m->d == STATE_SINK)
			table_put(r->sink, &r->nsink, p->table_size, m->from);
	}
	if (give > m->b)
		give = m->b;
	if (give > 0 && (rc = h->give(h->ctx, spi, give, t, &moved)))
		return rc;
	fwd.b -= moved;
	if (fwd.b <= 0)
		return DLS_OK;
	fwd.c++;
	fwd.from = h->self;
	fwd.d = state_of(h);
	if (fwd.c >= p->nf_max || (fwd.to = target(r, h, spi)) < 0) {
		struct pile_msg drop = {MSG_DROP, h->self, spi, 0, 0, 0, 0};

		r->dropped++;
		return h->send(h->ctx, &drop, t);
	}
	return h->send(h->ctx, &fwd, t);
}

static int roc_on_message(void *st, const struct pile_host *h, const struct pile_msg *m, double t)
{
	if (m->kind == MSG_REQUEST)
		return on_request(st, h, m, t);
	if (m->kind == MSG_DROP)
		((struct roc_state *)st)->waiting = 0; /* dropped: free to ask again */
	return DLS_OK;
}

static int roc_on_arrival(void *st, const struct pile_host *h, int from, int64_t n, double t)
{
	struct roc_state *r = st;

	if (from >= 0) { /* -1: the coordinator's, after a failure */
		table_put(r->source, &r->nsource, h->params->table_size, from);
		table_remove(r->sink, &r->nsink, from);
	}
	if (!r->waiting)
		return DLS_OK;
	if (!r->timed) {
		r->timed = 1;
		r->nd_sum += t - r->asked_at;
		r->nd_count++;
	}
	r->got += n;
	if (r->got >= r->asked)
		r->waiting = 0;
	return DLS_OK;
}

static int64_t roc_dropped(const void *st)
{
	return ((const struct roc_state *)st)->dropped;
}

const struct pile_policy_ops pile_roc_ops = {
	sizeof(struct roc_state), roc_init, NULL, NULL, roc_on_message, roc_on_timer,
	roc_on_arrival, roc_dropped, NULL,
};
