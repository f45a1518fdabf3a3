/*
 * pile_engine.c - what the policies of the pile engine call (see
 * pile_internal.h): the piles, transfers, messages, timers and random
 * streams, as events of the run that pile_sim.c drives.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_math.h"
#include "pile_internal.h"

int pile_event_before(const void *x, const void *y)
{
	const struct pile_event *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->seq < b->seq;
}

int pile_push(struct pile *s, struct pile_event *e)
{
	e->t = nearbyint(e->t * 1e9) / 1e9; /* ties stay ties */
	e->seq = s->seq++;
	return event_heap_push(&s->ev, e);
}

int64_t pile_len(const struct pile *s, int pe)
{
	return s->pe[pe].len;
}

int pile_busy(const struct pile *s, int pe)
{
	return s->pe[pe].busy;
}

int64_t *pile_ring_at(struct pile_pe *p, int64_t k)
{
	return &p->ring[(p->head + k) % p->cap];
}

int pile_ring_append(struct pile_pe *p, const int64_t *its, int64_t n)
{
	if (p->len + n > p->cap) {
		int64_t cap = p->cap ? p->cap : 16;
		int64_t *v;

		while (cap < p->len + n)
			cap *= 2;
		v = malloc((size_t)cap * sizeof(*v));
		if (!v)
			return DLS_ENOMEM;
		for (int64_t k = 0; k < p->len; k++)
			v[k] = *pile_ring_at(p, k);
		free(p->ring);
		p->ring = v;
		p->head = 0;
		p->cap = cap;
	}
	for (int64_t k = 0; k < n; k++) {
		p->len++;
		*pile_ring_at(p, p->len - 1) = its[k];
	}
	return DLS_OK;
}

uint64_t pile_rand(struct pile *s, int pe)
{
	return dls_splitmix64(&s->pe[pe].rng);
}

int pile_give(struct pile *s, int from, int to, int64_t n, double t, int64_t *moved)
{
	struct pile_pe *p = &s->pe[from];
	struct pile_event e = {0};
	int rc;

	if (moved)
		*moved = 0;
	if (n > p->len)
		n = p->len;
	if (n <= 0 || from == to)
		return DLS_OK;
	e.its = malloc((size_t)n * sizeof(*e.its));
	if (!e.its)
		return DLS_ENOMEM;
	for (int64_t k = 0; k < n; k++)
		e.its[k] = *pile_ring_at(p, p->len - n + k);
	p->len -= n;
	e.t = t + s->c->latency;
	e.kind = EV_ARRIVE;
	e.pe = to;
	e.from = from;
	e.n = n;
	if ((rc = pile_push(s, &e))) {
		free(e.its);
		return rc;
	}
	s->out->migrations++;
	s->out->moved += n;
	s->out->pe_moved_out[from] += n;
	if (moved)
		*moved = n;
	return tree_migrate_units_count(&s->out->units, &s->out->nunits, n);
}

int pile_send(struct pile *s, const struct pile_msg *m, double t)
{
	struct pile_event e = {0};

	e.t = t + s->c->latency;
	e.kind = EV_MSG;
	e.pe = m->to;
	e.msg = *m;
	s->out->messages++;
	return pile_push(s, &e);
}

int pile_timer(struct pile *s, int pe, int kind, double at)
{
	struct pile_event e = {0};

	e.t = at;
	e.kind = EV_TIMER;
	e.pe = pe;
	e.timer = kind;
	return pile_push(s, &e);
}

