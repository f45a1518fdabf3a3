/*
 * pile_roc.c - seed 002's Rate of Change load balancing (Campos & Scherson,
 * RoC-LB, sections 2.2-2.3) on a loop's piles.  A PE's load is its pile plus
 * the iteration it computes.
 *
 * When: at each sample interval (each PE on its own phase, drawn at the
 *   start: no global clock) DL = load - load at the previous sample and
 *   PL = load + DL * ND / interval.  With no request outstanding, a PE at or
 *   below HT requests when PL < 0 or load < CT.
 * How many [REC: the seed says |PL| and "unconditionally" below CT]:
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
 * Tables hold table_size entries, the newest first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "pile_internal.h"

enum { MSG_REQUEST, MSG_DROP };
enum { TIMER_SAMPLE };
enum { STATE_SINK, STATE_NEUTRAL, STATE_SOURCE };

#define ROC_TABLE_MAX 64

struct roc_pe {
	int source[ROC_TABLE_MAX], nsource;
	int sink[ROC_TABLE_MAX], nsink;
	int64_t prev_load;
	int waiting;
	int64_t asked, got; /* the outstanding request: NLUR and what came */
	double asked_at;
	int timed;	     /* its first work has been timed */
	double nd_sum;
	int64_t nd_count;
};

struct roc {
	struct roc_pe *pe;
	double nd0;
};

static struct roc_pe *st(struct pile *s, int pe)
{
	return &((struct roc *)s->policy)->pe[pe];
}

static int64_t load(const struct pile *s, int pe)
{
	return pile_len(s, pe) + pile_busy(s, pe);
}

static int state_of(const struct pile *s, int pe)
{
	int64_t l = load(s, pe);

	return l > s->c->params.ht ? STATE_SOURCE : l < s->c->params.lt ? STATE_SINK : STATE_NEUTRAL;
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

/* Where pe sends a request of spi: its first source, else a random PE
 * other than itself and spi, not a sink if any such is left; -1: none. */
static int target(struct pile *s, int pe, int spi)
{
	struct roc_pe *r = st(s, pe);
	int n = s->c->npes;

	while (r->nsource > 0) {
		int t = r->source[0];

		table_remove(r->source, &r->nsource, t);
		if (t != spi && t != pe)
			return t;
	}
	if (n < 2 || (n == 2 && spi != pe))
		return -1;
	for (int tries = 0; tries < 4 * n; tries++) {
		int t = pile_rand_other(s, pe);

		if (t != spi && !in_table(r->sink, r->nsink, t))
			return t;
	}
	for (;;) { /* every candidate is a sink: any will do */
		int t = pile_rand_other(s, pe);

		if (t != spi)
			return t;
	}
}

static int roc_init(struct pile *s)
{
	struct roc *r = calloc(1, sizeof(*r));
	const struct pile_params *p = &s->c->params;

	if (!r || !(r->pe = calloc((size_t)s->c->npes, sizeof(*r->pe)))) {
		free(r);
		return DLS_ENOMEM;
	}
	r->nd0 = p->nd_s > 0 ? p->nd_s : 2 * s->c->latency + (1 << 20) * 8 / 1e9;
	s->policy = r;
	for (int i = 0; i < s->c->npes; i++) {
		double phase = (double)(pile_rand(s, i) >> 11) / 9007199254740992.0;
		int rc;

		r->pe[i].prev_load = load(s, i);
		if ((rc = pile_timer(s, i, TIMER_SAMPLE, phase * p->interval_s)))
			return rc;
	}
	return DLS_OK;
}

static void roc_fini(struct pile *s)
{
	struct roc *r = s->policy;

	if (r)
		free(r->pe);
	free(r);
	s->policy = NULL;
}

static double nd_of(struct pile *s, int pe)
{
	struct roc_pe *r = st(s, pe);

	return r->nd_count ? r->nd_sum / (double)r->nd_count : ((struct roc *)s->policy)->nd0;
}

static int roc_on_timer(struct pile *s, int pe, int kind, double t)
{
	const struct pile_params *p = &s->c->params;
	struct roc_pe *r = st(s, pe);
	int64_t l = load(s, pe), dl = l - r->prev_load, nlur;
	double pl = (double)l + (double)dl * nd_of(s, pe) / p->interval_s;
	struct pile_msg m = {MSG_REQUEST, pe, 0, pe, 0, 0, STATE_SINK};
	int rc;

	(void)kind;
	r->prev_load = l;
	if ((rc = pile_timer(s, pe, TIMER_SAMPLE, t + p->interval_s)))
		return rc;
	if (r->waiting || l > p->ht || (pl >= 0 && l >= p->ct))
		return DLS_OK;
	nlur = pl < 0 ? (int64_t)ceil(-pl) : 1;
	if (nlur < p->lt - l)
		nlur = p->lt - l;
	if (nlur < 1)
		nlur = 1;
	if ((m.to = target(s, pe, pe)) < 0)
		return DLS_OK;
	m.b = nlur; /* a: SPI, b: NLUR, c: NF, d: LSP_PE */
	m.d = state_of(s, pe);
	r->waiting = 1;
	r->asked = nlur;
	r->got = 0;
	r->asked_at = t;
	r->timed = 0;
	return pile_send(s, &m, t);
}

static int on_request(struct pile *s, const struct pile_msg *m, double t)
{
	const struct pile_params *p = &s->c->params;
	int me = m->to, spi = (int)m->a;
	struct roc_pe *r = st(s, me);
	struct pile_msg fwd = *m;
	int64_t give = load(s, me) - p->ht, moved = 0;
	int rc;

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
	if (give > 0 && (rc = pile_give(s, me, spi, give, t, &moved)))
		return rc;
	fwd.b -= moved;
	if (fwd.b <= 0)
		return DLS_OK;
	fwd.c++;
	fwd.from = me;
	fwd.d = state_of(s, me);
	if (fwd.c >= p->nf_max || (fwd.to = target(s, me, spi)) < 0) {
		struct pile_msg drop = {MSG_DROP, me, spi, 0, 0, 0, 0};

		s->out->dropped++;
		return pile_send(s, &drop, t);
	}
	return pile_send(s, &fwd, t);
}

static int roc_on_message(struct pile *s, const struct pile_msg *m, double t)
{
	(void)t;
	if (m->kind == MSG_REQUEST)
		return on_request(s, m, t);
	st(s, m->to)->waiting = 0; /* dropped: free to ask again */
	return DLS_OK;
}

static int roc_on_arrival(struct pile *s, int pe, int from, int64_t n, double t)
{
	struct roc_pe *r = st(s, pe);

	table_put(r->source, &r->nsource, s->c->params.table_size, from);
	table_remove(r->sink, &r->nsink, from);
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

const struct pile_policy_ops pile_roc_ops = {
	roc_init, NULL, NULL, roc_on_message, roc_on_timer, roc_on_arrival, roc_fini,
};
