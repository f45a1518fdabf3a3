/*
 * pile_local.c - the per-PE rules of common/policy/pile_policy.h (workpile, roc, ripple)
 * in the engine: each PE gets a struct pile_host over its own pile and a
 * zeroed state of the rules' size; the engine's hooks dispatch to the PE
 * they concern.  A message goes to the PE it names; nothing else is shared.
 */
#include <stdlib.h>

#include "dls/err.h"
#include "pile_internal.h"

struct local_pe {
	struct pile *s;
	int pe;
};

struct local {
	const struct pile_policy_ops *rules;
	struct local_pe *ctx;
	struct pile_host *host;
	char *state; /* npes x rules->size */
};

static struct local *loc(struct pile *s)
{
	return s->policy;
}

static void *state_of(struct pile *s, int pe)
{
	return loc(s)->state + (size_t)pe * loc(s)->rules->size;
}

static int64_t h_len(void *ctx)
{
	struct local_pe *c = ctx;

	return pile_len(c->s, c->pe);
}

static int h_busy(void *ctx)
{
	struct local_pe *c = ctx;

	return pile_busy(c->s, c->pe);
}

static int h_give(void *ctx, int to, int64_t n, double t, int64_t *moved)
{
	struct local_pe *c = ctx;

	if (to < 0 || to >= c->s->c->npes) {
		if (moved)
			*moved = 0;
		return DLS_OK;
	}
	return pile_give(c->s, c->pe, to, n, t, moved);
}

static int h_send(void *ctx, const struct pile_msg *m, double t)
{
	struct local_pe *c = ctx;
	struct pile_msg out = *m;

	if (m->to < 0 || m->to >= c->s->c->npes || m->to == c->pe)
		return DLS_OK;
	out.from = c->pe; /* who sent it is the engine's to say */
	return pile_send(c->s, &out, t);
}

static int h_timer(void *ctx, int kind, double at)
{
	struct local_pe *c = ctx;

	return pile_timer(c->s, c->pe, kind, at);
}

static int64_t h_started(void *ctx)
{
	struct local_pe *c = ctx;

	return c->s->pe[c->pe].started;
}

static uint64_t h_rand(void *ctx)
{
	struct local_pe *c = ctx;

	return pile_rand(c->s, c->pe);
}

static int l_init(struct pile *s)
{
	int n = s->c->npes, rc = DLS_OK;
	struct local *l = calloc(1, sizeof(*l));

	if (!l)
		return DLS_ENOMEM;
	s->policy = l;
	l->rules = pile_policy_ops(s->c->policy);
	l->ctx = calloc((size_t)n, sizeof(*l->ctx));
	l->host = calloc((size_t)n, sizeof(*l->host));
	l->state = calloc((size_t)n, l->rules->size ? l->rules->size : 1);
	if (!l->ctx || !l->host || !l->state)
		return DLS_ENOMEM;
	for (int i = 0; i < n; i++) {
		struct pile_host *h = &l->host[i];

		l->ctx[i] = (struct local_pe){s, i};
		h->ctx = &l->ctx[i];
		h->self = i;
		h->npes = n;
		h->params = &s->c->params;
		h->latency = s->c->latency;
		h->len = h_len;
		h->busy = h_busy;
		h->give = h_give;
		h->send = h_send;
		h->timer = h_timer;
		h->rand = h_rand;
		h->started = h_started;
	}
	for (int i = 0; i < n && !rc; i++)
		if (l->rules->init)
			rc = l->rules->init(state_of(s, i), &l->host[i], 0);
	return rc;
}

static void l_fini(struct pile *s)
{
	struct local *l = s->policy;

	if (!l)
		return;
	for (int i = 0; l->state && l->rules->dropped && i < s->c->npes; i++)
		s->out->dropped += l->rules->dropped(state_of(s, i));
	for (int i = 0; l->state && l->rules->fini && i < s->c->npes; i++)
		l->rules->fini(state_of(s, i));
	free(l->ctx);
	free(l->host);
	free(l->state);
	free(l);
	s->policy = NULL;
}

static int l_before_next(struct pile *s, int pe, double t)
{
	const struct pile_policy_ops *r = loc(s)->rules;

	return r->before_next ? r->before_next(state_of(s, pe), &loc(s)->host[pe], t) : DLS_OK;
}

static int l_on_idle(struct pile *s, int pe, double t)
{
	const struct pile_policy_ops *r = loc(s)->rules;

	return r->on_idle ? r->on_idle(state_of(s, pe), &loc(s)->host[pe], t) : DLS_OK;
}

static int l_on_message(struct pile *s, const struct pile_msg *m, double t)
{
	const struct pile_policy_ops *r = loc(s)->rules;

	return r->on_message ? r->on_message(state_of(s, m->to), &loc(s)->host[m->to], m, t)
			     : DLS_OK;
}

static int l_on_timer(struct pile *s, int pe, int kind, double t)
{
	const struct pile_policy_ops *r = loc(s)->rules;

	return r->on_timer ? r->on_timer(state_of(s, pe), &loc(s)->host[pe], kind, t) : DLS_OK;
}

static int l_on_arrival(struct pile *s, int pe, int from, int64_t n, double t)
{
	const struct pile_policy_ops *r = loc(s)->rules;

	return r->on_arrival ? r->on_arrival(state_of(s, pe), &loc(s)->host[pe], from, n, t)
			     : DLS_OK;
}

const struct pile_engine_ops pile_local_ops = {
	l_init, l_before_next, l_on_idle, l_on_message, l_on_timer, l_on_arrival, l_fini,
};
