/*
 * sim_twolevel.c - two-level HDTSS in the simulator, event by event as
 * twolevel.c and the master do it.  Slave i sits below hmaster
 * i mod H.  A slave's request reaches its hmaster one hop after it asked;
 * the hmaster serves waiting requests in ACPSA order, hm_overhead_s each,
 * from its pool (the scheme run over each chunk it holds, I := chunk, its
 * slaves' A_i).  Its first request to the master waits for the first
 * request of every slave below it; later it asks when a slave waits on an
 * empty pool or once half of the current chunk is handed out (one request
 * in flight).  The master opens its gate when every hmaster asked, then
 * serves one request at a time, overhead_s + per_request_s each, with the
 * scheme run over the hmasters (A_h = sum of their slaves' latest A_i).
 * Not modelled: the results' own messages to the master (they travel
 * beside the requests, in the real system too).
 */
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "event_heap.h"
#include "sim_twolevel.h"

enum ev_kind { EV_SLAVE, EV_PARENT_REQ, EV_PARENT_REPLY };

struct event {
	double t;
	uint64_t seq; /* ties: first pushed, first served (deterministic) */
	int kind, who;
};

static int before(const void *x, const void *y)
{
	const struct event *a = x, *b = y;

	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

struct hm {
	int nmembers;		  /* its slaves: h, h + H, h + 2H, ... (local j = i / H) */
	int64_t *acp;		  /* each slave's latest A_i (0: none yet) */
	int *waiting;		  /* local indexes, in arrival order */
	size_t nwaiting;
	struct dls_range *queue;	  /* chunks not started */
	size_t nqueue, qcap;
	struct sched *cur;	  /* the scheme over the current chunk */
	int64_t cur_start, cur_size;
	int firsts, starters;	  /* first requests seen / expected for the gate */
	int first_sent, in_flight, parent_done;
	int64_t req_acp;	  /* A_h of the request in flight */
	double free_at;		  /* its local service is busy until then */
	struct dls_range reply;	  /* the master's answer in flight (count 0: done) */
};

struct tl {
	const struct sim_config *c;
	struct sim_slave *sl;
	struct sim_result *out;
	struct hm *hm;
	int H;
	struct event_heap ev;
	uint64_t seq; /* events pushed so far */
	struct sched *msched; /* the master's level, created at its gate */
	int *gate;	      /* hmasters whose first request is at the master */
	int ngate, gate_need;
	double master_free, last_end;
};

/* Schedules an event of `kind` for `who` at time t. */
static int push(struct tl *s, double t, int kind, int who)
{
	struct event e = {t, s->seq++, kind, who};

	return event_heap_push(&s->ev, &e);
}

static int64_t pool_left(const struct hm *m)
{
	int64_t n = m->cur ? sched_remaining(m->cur) : 0;

	for (size_t k = 0; k < m->nqueue; k++)
		n += m->queue[k].count;
	return n;
}

static int pool_low(const struct hm *m)
{
	return !m->nqueue && (!m->cur || 2 * sched_remaining(m->cur) <= m->cur_size);
}

static int start_chunk(struct tl *s, struct hm *m)
{
	struct sched_params p = s->c->sched;
	struct dls_range r = m->queue[0];
	int rc;

	p.service_s = s->c->hm_overhead_s;
	memmove(m->queue, m->queue + 1, --m->nqueue * sizeof(*m->queue));
	p.iterations = r.count;
	p.npes = m->nmembers;
	p.acp = m->acp;
	p.tss_first = p.tss_last = 0; /* the defaults for I := chunk */
	sched_destroy(m->cur);
	m->cur = NULL;
	rc = sched_create(&p, &m->cur);
	if (rc)
		return rc;
	m->cur_start = r.start;
	m->cur_size = r.count;
	return DLS_OK;
}

static int send_parent(struct tl *s, int h, double t)
{
	struct hm *m = &s->hm[h];

	m->req_acp = 0;
	for (int j = 0; j < m->nmembers; j++)
		if (s->sl[h + j * s->H].active)
			m->req_acp += m->acp[j];
	if (m->req_acp < 1)
		return DLS_OK; /* nobody below can work now */
	m->in_flight = 1;
	m->first_sent = 1;
	return push(s, t + s->c->latency_s, EV_PARENT_REQ, h);
}

/* Serves one waiting slave of hmaster h from its pool at time t. */
static int serve_local(struct tl *s, int h, double t)
{
	const struct sim_config *c = s->c;
	struct hm *m = &s->hm[h];
	size_t best = 0;
	int j, i, rc;
	struct dls_range k;
	double at, begin, end, lead;

	for (size_t w = 1; w < m->nwaiting; w++) /* ACPSA; waiting is in arrival order */
		if (sched_acpsa_before(m->acp[m->waiting[w]], (double)w, m->acp[m->waiting[best]],
				       (double)best))
			best = w;
	j = m->waiting[best];
	i = h + j * s->H;
	while (!(m->cur && sched_remaining(m->cur) > 0))
		if ((rc = start_chunk(s, m)))
			return rc;
	memmove(m->waiting + best, m->waiting + best + 1,
		(--m->nwaiting - best) * sizeof(*m->waiting));
	rc = sched_next(m->cur, j, m->acp[j], &k);
	if (rc)
		return rc;
	k.start += m->cur_start;
	at = (t > m->free_at ? t : m->free_at) + c->hm_overhead_s;
	m->free_at = at;
	begin = at + c->latency_s;
	if (begin < s->sl[i].busy) /* it still computes the chunk before */
		begin = s->sl[i].busy;
	end = sim_chunk_end(c, &s->sl[i], begin, k.start, k.count);
	s->out->pe[i].t_comwait += begin - s->sl[i].busy;
	s->out->pe[i].t_comp += end - begin;
	s->out->pe[i].chunks++;
	s->out->pe[i].iterations += k.count;
	s->out->chunks++;
	s->sl[i].busy = end;
	/* asking ahead: the next request leaves a lead before the end */
	lead = sim_slave_lead(c);
	s->sl[i].asked = end - lead > begin ? end - lead : begin;
	if (end > s->last_end)
		s->last_end = end;
	return push(s, s->sl[i].asked + c->latency_s, EV_SLAVE, i);
}

static int try_serve(struct tl *s, int h, double t)
{
	struct hm *m = &s->hm[h];
	int rc;

	if (!m->first_sent) {
		if (m->firsts >= m->starters)
			return send_parent(s, h, t);
		return DLS_OK;
	}
	while (m->nwaiting && pool_left(m) > 0)
		if ((rc = serve_local(s, h, t)))
			return rc;
	if (m->parent_done && pool_left(m) == 0) { /* DONE for whoever waits */
		for (size_t w = 0; w < m->nwaiting; w++)
			s->sl[h + m->waiting[w] * s->H].active = 0;
		m->nwaiting = 0;
		return DLS_OK;
	}
	if (!m->in_flight && !m->parent_done && ((m->nwaiting && !pool_left(m)) || pool_low(m)))
		return send_parent(s, h, t);
	return DLS_OK;
}

static int on_slave(struct tl *s, int i, double t)
{
	const struct sim_config *c = s->c;
	int h = i % s->H, j = i / s->H;
	struct hm *m = &s->hm[h];
	int64_t a = sim_slave_acp_at(c, &s->sl[i], &c->pes[i], s->sl[i].asked);

	if (a < 1) {
		if (m->parent_done && pool_left(m) == 0) {
			s->sl[i].active = 0; /* dismissed at the end */
			return DLS_OK;
		}
		s->sl[i].asked += c->poll_s; /* it would not have asked: poll again */
		if (s->sl[i].asked > 86400)
			return DLS_ENOPOWER;
		return push(s, t + c->poll_s, EV_SLAVE, i);
	}
	if (m->acp[j] == 0)
		m->firsts++;
	m->acp[j] = a;
	m->waiting[m->nwaiting++] = j;
	return try_serve(s, h, t);
}

/* The master serves hmaster h's request at time t (its gate is open). */
static int serve_parent(struct tl *s, int h, double t)
{
	const struct sim_config *c = s->c;
	struct hm *m = &s->hm[h];
	double at = (t > s->master_free ? t : s->master_free) + c->overhead_s + c->per_request_s;
	int rc = sched_next(s->msched, h, m->req_acp, &m->reply);

	s->master_free = at;
	if (rc == DLS_EDONE)
		m->reply.count = 0;
	else if (rc)
		return rc;
	return push(s, at + c->latency_s, EV_PARENT_REPLY, h);
}

static int on_parent_request(struct tl *s, int h, double t)
{
	struct sched_params p = s->c->sched;
	int64_t *acp;
	int rc;

	p.service_s = s->c->overhead_s + s->c->per_request_s;
	if (s->msched)
		return serve_parent(s, h, t);
	s->gate[s->ngate++] = h;
	if (s->ngate < s->gate_need)
		return DLS_OK;
	/* the gate opens: the scheme over the hmasters, then their first
	 * requests in ACPSA order */
	acp = calloc((size_t)s->H, sizeof(*acp));
	if (!acp)
		return DLS_ENOMEM;
	for (int k = 0; k < s->H; k++)
		acp[k] = s->hm[k].first_sent ? s->hm[k].req_acp : 0;
	p.iterations = s->c->iterations;
	p.npes = s->H;
	p.acp = acp;
	rc = sched_create(&p, &s->msched);
	free(acp);
	for (int a = 1; !rc && a < s->ngate; a++) { /* stable: larger A_h first */
		int v = s->gate[a], b = a;

		while (b > 0 && s->hm[s->gate[b - 1]].req_acp < s->hm[v].req_acp) {
			s->gate[b] = s->gate[b - 1];
			b--;
		}
		s->gate[b] = v;
	}
	for (int a = 0; !rc && a < s->ngate; a++)
		rc = serve_parent(s, s->gate[a], t);
	return rc;
}

static int on_parent_reply(struct tl *s, int h, double t)
{
	struct hm *m = &s->hm[h];

	m->in_flight = 0;
	if (m->reply.count == 0) {
		m->parent_done = 1;
	} else {
		if (m->nqueue == m->qcap) {
			size_t cap = m->qcap ? 2 * m->qcap : 4;
			struct dls_range *q = realloc(m->queue, cap * sizeof(*q));

			if (!q)
				return DLS_ENOMEM;
			m->queue = q;
			m->qcap = cap;
		}
		m->queue[m->nqueue++] = (struct dls_range){m->reply.start, m->reply.count};
	}
	return try_serve(s, h, t);
}

int sim_twolevel(const struct sim_config *c, struct sim_slave *sl, struct sim_result *out)
{
	struct tl s;
	int rc = DLS_OK;

	memset(&s, 0, sizeof(s));
	event_heap_init(&s.ev, sizeof(struct event), before);
	s.c = c;
	s.sl = sl;
	s.out = out;
	s.H = c->hmasters < c->npes ? c->hmasters : c->npes;
	s.hm = calloc((size_t)s.H, sizeof(*s.hm));
	s.gate = calloc((size_t)s.H, sizeof(*s.gate));
	if (!s.hm || !s.gate) {
		rc = DLS_ENOMEM;
		goto out;
	}
	for (int h = 0; h < s.H; h++) {
		struct hm *m = &s.hm[h];

		m->nmembers = (c->npes - h + s.H - 1) / s.H;
		m->acp = calloc((size_t)m->nmembers, sizeof(*m->acp));
		m->waiting = calloc((size_t)m->nmembers, sizeof(*m->waiting));
		if (!m->acp || !m->waiting) {
			rc = DLS_ENOMEM;
			goto out;
		}
		for (int j = 0; j < m->nmembers; j++)
			m->starters += sim_slave_acp_at(c, &sl[h + j * s.H], &c->pes[h + j * s.H], 0) >= 1;
		s.gate_need += m->starters > 0;
	}
	/* every slave asks at time 0; its request reaches its hmaster a hop later */
	for (int i = 0; i < c->npes && !rc; i++) {
		sl[i].asked = 0;
		rc = push(&s, c->latency_s, EV_SLAVE, i);
	}
	while (!rc && s.ev.n) {
		struct event e;

		event_heap_pop(&s.ev, &e);

		rc = e.kind == EV_SLAVE		 ? on_slave(&s, e.who, e.t)
		     : e.kind == EV_PARENT_REQ ? on_parent_request(&s, e.who, e.t)
					       : on_parent_reply(&s, e.who, e.t);
	}
	if (!rc && (!s.msched || sched_remaining(s.msched) > 0))
		rc = DLS_ENOPOWER; /* nothing could be scheduled */
	if (!rc) {
		out->t_p = s.last_end;
		out->recomputations = sched_recomputations(s.msched);
		out->ndecisions = sched_auto_decisions(s.msched, out->decisions, SIM_MAX_DECISIONS);
		out->efficiency = out->t_p > 0 ? out->t_ideal / out->t_p : 0;
	}
out:
	for (int h = 0; s.hm && h < s.H; h++) {
		free(s.hm[h].acp);
		free(s.hm[h].waiting);
		free(s.hm[h].queue);
		sched_destroy(s.hm[h].cur);
	}
	free(s.hm);
	free(s.gate);
	event_heap_free(&s.ev);
	sched_destroy(s.msched);
	return rc;
}
