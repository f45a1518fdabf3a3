/*
 * master_serve.c - seed 001 DTSS master steps 2-3: requests carrying A_i and
 * piggy-backed results, served in ACPSA order (decreasing A_i, then arrival)
 * once the start gate has collected every slave's first request; results
 * checked whole before any is applied; the work of lost slaves requeued.
 */
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "master_internal.h"

/* Checks that the caller may talk to us; the lock is held. */
static int check_caller(struct master *m, int id, char *why)
{
	if (id < 0 || id >= m->cfg.nslaves || !m->slaves[id].registered) {
		master_why(why, "unknown slave id %d", id);
		return DLS_ENOENT;
	}
	if (m->slaves[id].info.state == DLS_SLAVE_LOST) {
		master_why(why, "slave %d was declared lost; its work went to others", id);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

/* Stores checked results in the image; the lock is held. */
static void apply_results(struct master *m, int id, const struct dls_result *res, size_t n)
{
	size_t h = (size_t)m->cfg.height;

	for (size_t b = 0; b < n; b++) {
		const struct dls_result *r = &res[b];

		for (int64_t i = r->start; i < r->start + r->count; i++) {
			int64_t col = iter_order_column(&m->order, i);

			memcpy(m->image + (size_t)col * h, r->counts + (size_t)(i - r->start) * h,
			       h * sizeof(uint16_t));
		}
	}
	ledger_commit(&m->ledger, &m->slaves[id].held, res, n);
	if (n && m->ledger.ndelivered == m->cfg.width && !m->done) {
		m->done = 1;
		m->t_end = dls_now();
		log_info("every result is in: T_p = %.3f s", m->t_end - m->t_start);
		pthread_cond_broadcast(&m->cond);
	}
}

static int check_results(struct master *m, int id, const struct dls_result *res, size_t n,
			 int64_t *total, char *why)
{
	return ledger_check(&m->ledger, &m->slaves[id].held, id, res, n, total, why,
			    MASTER_WHY_LEN);
}

static void unmark(struct master *m, const struct dls_result *res, size_t n)
{
	ledger_unmark(&m->ledger, res, n);
}

static int push_requeue(struct master *m, int64_t start, int64_t count)
{
	if (m->nrequeue == m->requeue_cap) {
		size_t cap = m->requeue_cap ? 2 * m->requeue_cap : 8;
		struct dls_range *r = realloc(m->requeue, cap * sizeof(*r));

		if (!r)
			return DLS_ENOMEM;
		m->requeue = r;
		m->requeue_cap = cap;
	}
	m->requeue[m->nrequeue++] = (struct dls_range){start, count};
	return DLS_OK;
}

/* ledger_release's callback: the range goes to the next requests. */
static int give_back(void *ctx, int64_t start, int64_t count)
{
	return push_requeue(ctx, start, count);
}

/* Opens the start gate when every registered slave has asked, or at the
 * deadline; creates the scheme with the A_i of those first requests. */
static int maybe_open_gate(struct master *m, double now)
{
	int pending = 0, rc;
	int64_t *acp;
	struct sched_params p;

	master_close_registration_if_due(m, now);
	if (m->gate_open || !m->registration_closed)
		return DLS_OK;
	for (int i = 0; i < m->cfg.nslaves; i++)
		pending += m->slaves[i].registered && m->slaves[i].first_request_pending;
	if (pending == 0 || (pending < m->nregistered && now < m->gate_deadline))
		return DLS_OK;
	acp = calloc((size_t)m->cfg.nslaves, sizeof(*acp));
	if (!acp)
		return DLS_ENOMEM;
	for (int i = 0; i < m->cfg.nslaves; i++) {
		const struct slave_rec *s = &m->slaves[i];

		if (m->cfg.sched.kind == SCHED_WF) /* static weights: V_i in thousandths */
			acp[i] = s->registered ? (int64_t)(s->info.vpower * 1000 + 0.5) : 1000;
		else
			acp[i] = s->registered && s->first_request_pending ? s->info.acp : 0;
	}
	p = m->cfg.sched;
	p.acp = acp;
	rc = sched_create(&p, &m->sched);
	free(acp);
	if (rc) {
		log_err("cannot start the scheme: %s", dls_strerror(rc));
		return rc;
	}
	m->gate_open = 1;
	m->t_start = dls_now();
	log_info("scheduling starts with %d of %d first requests", pending, m->nregistered);
	if (m->queue)
		pthread_cond_signal(&m->queue->turn);
	return DLS_OK;
}

/*
 * Waits until this request may be served: the gate is open and no request
 * of a larger A_i (or an earlier one of the same A_i) is pending.  Requests
 * wait in a queue in ACPSA order, each on its own condition variable, so
 * that only the next head is woken.  The lock is held.
 */
static int wait_turn(struct master *m, int64_t acp, int id, struct waiter *w)
{
	struct waiter **at = &m->queue;
	int rc = DLS_OK;

	w->acp = acp;
	w->arrival = m->arrivals++;
	w->slave_id = id;
	w->queued = 0;
	if (m->gate_open && !m->queue)
		return DLS_OK; /* alone: served at once */
	w->queued = 1;
	pthread_cond_init(&w->turn, NULL);
	while (*at && (*at)->acp >= acp)
		at = &(*at)->next;
	w->next = *at;
	*at = w;
	for (;;) {
		double now = dls_now();

		rc = maybe_open_gate(m, now);
		if (rc || (m->gate_open && m->queue == w))
			break;
		/* before the gate opens, its deadline must be watched */
		if (m->gate_open)
			pthread_cond_wait(&w->turn, &m->lock);
		else
			dls_cond_wait_until(&m->cond, &m->lock, now + 0.02);
	}
	if (rc) { /* leave the queue */
		for (at = &m->queue; *at != w; at = &(*at)->next)
			;
		*at = w->next;
		pthread_cond_destroy(&w->turn);
	}
	return rc;
}

static void leave_queue(struct master *m, struct waiter *w)
{
	if (!w->queued)
		return;
	m->queue = w->next; /* w was the head */
	if (m->queue)
		pthread_cond_signal(&m->queue->turn);
	pthread_cond_destroy(&w->turn);
}

/*
 * Chooses the reply to one slave: requeued work of a lost slave first, then
 * the scheme's next chunk, else WAIT while others hold work, DONE at the end.
 * `reported`: the ACPSA report of this request was already recorded.
 */
static int serve_one(struct master *m, int id, int64_t acp, int reported, struct dls_reply *out,
		     char *why)
{
	struct slave_rec *s = &m->slaves[id];
	struct dls_range c = {0, 0};
	int rc;

	memset(out, 0, sizeof(*out));
	if (s->info.state == DLS_SLAVE_LOST) {
		master_why(why, "slave %d was declared lost; its work went to others", id);
		return DLS_ESTATE;
	}
	if (m->nrequeue > 0) {
		struct dls_range r = m->requeue[0];

		memmove(m->requeue, m->requeue + 1, --m->nrequeue * sizeof(*m->requeue));
		c.start = r.start;
		c.count = r.count;
		s->info.requeued_chunks++;
		rc = DLS_OK;
	} else if (m->sched && sched_remaining(m->sched) > 0) {
		rc = reported ? sched_serve(m->sched, id, acp, &c) : sched_next(m->sched, id, acp, &c);
		if (rc) {
			master_why(why, "the scheme refused the request of slave %d (A_i = %lld): %s",
				   id, (long long)acp, dls_strerror(rc));
			return rc;
		}
		m->assigned += c.count;
	} else {
		rc = DLS_EDONE;
	}
	if (rc == DLS_OK) {
		if (ledger_hold(&s->held, c.start, c.count))
			return DLS_ENOMEM;
		out->kind = DLS_REPLY_WORK;
		out->start = c.start;
		out->count = c.count;
		s->info.chunks++;
		s->info.iterations += c.count;
		s->info.state = DLS_SLAVE_ACTIVE;
	} else if (m->done) {
		out->kind = DLS_REPLY_DONE;
		s->info.state = DLS_SLAVE_DONE;
		pthread_cond_broadcast(&m->cond);
	} else {
		out->kind = DLS_REPLY_WAIT;
		out->wait_ms = m->cfg.wait_ms;
		s->info.state = DLS_SLAVE_WAITING;
	}
	return DLS_OK;
}

/*
 * Validates one request, leaving its results marked for apply_results (step
 * 2(a)).  Returns DLS_OK or a refusal; *retry is set when *out was filled
 * from the reply to an earlier copy of the same request.
 */
static int take_request(struct master *m, const struct dls_request *r, struct dls_reply *out,
			int *retry, char *why)
{
	struct slave_rec *s;
	int64_t total;
	int rc = check_caller(m, r->slave_id, why);

	*retry = 0;
	if (rc)
		return rc;
	s = &m->slaves[r->slave_id];
	if (s->has_reply && r->seq == s->last_seq) {
		*out = s->last_reply;
		*retry = 1;
		return DLS_OK;
	}
	if (s->has_reply && r->seq < s->last_seq) {
		master_why(why, "request %u of slave %d is older than its request %u", r->seq,
			   r->slave_id, s->last_seq);
		return DLS_ESTATE;
	}
	if (r->acp < 1 || r->acp > SCHED_MAX_ACP) {
		master_why(why, "A_i = %lld: a slave requests only with 1 <= A_i <= %lld",
			   (long long)r->acp, (long long)SCHED_MAX_ACP);
		return DLS_EINVAL;
	}
	rc = check_results(m, r->slave_id, r->results, r->nresults, &total, why);
	if (rc)
		return rc;
	/* a two-level hmaster asks for more before its slaves finish (it prefetches) */
	if (m->cfg.collect == DLS_COLLECT_PIGGYBACK && !s->cluster &&
	    total != ledger_held_undelivered(&s->held)) {
		master_why(why,
			   "slave %d holds %lld undelivered iterations and its request delivers "
			   "%lld: piggy-backed results must complete the previous chunk",
			   r->slave_id, (long long)ledger_held_undelivered(&s->held), (long long)total);
		unmark(m, r->results, r->nresults);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

static void record_request(struct master *m, const struct dls_request *r)
{
	struct slave_rec *s = &m->slaves[r->slave_id];

	apply_results(m, r->slave_id, r->results, r->nresults);
	s->info.times = r->times;
	s->info.acp = r->acp;
	if (s->info.state == DLS_SLAVE_REGISTERED)
		s->first_request_pending = 1;
}

static void remember(struct master *m, const struct dls_request *r,
		     const struct dls_reply *out)
{
	struct slave_rec *s = &m->slaves[r->slave_id];

	s->has_reply = 1;
	s->last_seq = r->seq;
	s->last_reply = *out;
	s->first_request_pending = 0;
	if (s->info.state == DLS_SLAVE_REGISTERED)
		s->info.state = DLS_SLAVE_ACTIVE;
}

int master_request(struct master *m, const struct dls_request *req, struct dls_reply *out,
		   char *why)
{
	struct waiter w;
	int rc, retry;

	pthread_mutex_lock(&m->lock);
	rc = take_request(m, req, out, &retry, why);
	if (rc || retry) {
		pthread_mutex_unlock(&m->lock);
		return rc;
	}
	record_request(m, req);
	rc = wait_turn(m, req->acp, req->slave_id, &w);
	if (!rc) {
		rc = serve_one(m, req->slave_id, req->acp, 0, out, why);
		leave_queue(m, &w);
	}
	if (!rc)
		remember(m, req, out);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_request_group(struct master *m, const struct dls_request *reqs, size_t n,
			 struct dls_reply *out, char *why)
{
	struct waiter w;
	int64_t top = 0;
	int rc = DLS_OK, *fresh = calloc(n ? n : 1, sizeof(int));
	size_t k;

	if (!fresh)
		return DLS_ENOMEM;
	pthread_mutex_lock(&m->lock);
	/* check every request before applying any (marks stay until applied) */
	for (k = 0; k < n && !rc; k++) {
		int retry;

		rc = take_request(m, &reqs[k], &out[k], &retry, why);
		for (size_t j = 0; j < k && !rc; j++)
			if (reqs[j].slave_id == reqs[k].slave_id) {
				master_why(why, "slave %d appears twice in one message",
					   reqs[k].slave_id);
				if (!retry)
					unmark(m, reqs[k].results, reqs[k].nresults);
				rc = DLS_EINVAL;
			}
		fresh[k] = !rc && !retry;
	}
	if (rc) {
		for (size_t j = 0; j + 1 < k; j++)
			if (fresh[j])
				unmark(m, reqs[j].results, reqs[j].nresults);
		goto out;
	}
	for (k = 0; k < n; k++) {
		if (!fresh[k])
			continue;
		record_request(m, &reqs[k]);
		if (reqs[k].acp > top)
			top = reqs[k].acp;
	}
	if (!top)
		goto out; /* only retries */
	rc = wait_turn(m, top, reqs[0].slave_id, &w);
	if (rc)
		goto out;
	/* the ACPSA rule once per merged message, after every report */
	for (k = 0; k < n; k++)
		if (fresh[k] && m->sched)
			sched_report(m->sched, reqs[k].slave_id, reqs[k].acp);
	for (k = 0; k < n && !rc; k++)
		if (fresh[k]) {
			rc = serve_one(m, reqs[k].slave_id, reqs[k].acp, 1, &out[k], why);
			if (!rc)
				remember(m, &reqs[k], &out[k]);
		}
	leave_queue(m, &w);
out:
	pthread_mutex_unlock(&m->lock);
	free(fresh);
	return rc;
}

int master_submit(struct master *m, int slave_id, const struct dls_result *res, size_t nres,
		  char *why)
{
	int64_t total;
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = check_caller(m, slave_id, why);
	if (!rc)
		rc = check_results(m, slave_id, res, nres, &total, why);
	if (!rc)
		apply_results(m, slave_id, res, nres);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

int master_slave_lost(struct master *m, int slave_id, const char *cause)
{
	struct slave_rec *s;
	int64_t moved = 0;

	pthread_mutex_lock(&m->lock);
	if (slave_id < 0 || slave_id >= m->cfg.nslaves || !m->slaves[slave_id].registered ||
	    m->slaves[slave_id].info.state == DLS_SLAVE_LOST) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOENT;
	}
	s = &m->slaves[slave_id];
	s->info.state = DLS_SLAVE_LOST;
	/* undelivered runs of every held range go to the others */
	moved = ledger_release(&m->ledger, &s->held, give_back, m);
	if (moved < 0)
		moved = 0;
	else
		m->requeued_total += moved;
	log_warn("slave %d '%s' lost (%s): %lld undelivered iterations requeued", slave_id,
		 s->info.name, cause, (long long)moved);
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

size_t master_slaves_holding(struct master *m, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < m->cfg.nslaves && n < max; i++)
		if (m->slaves[i].registered && m->slaves[i].held.n > 0 &&
		    m->slaves[i].info.state != DLS_SLAVE_LOST)
			ids[n++] = i;
	pthread_mutex_unlock(&m->lock);
	return n;
}

size_t master_slaves_undismissed(struct master *m, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < m->cfg.nslaves && n < max; i++)
		if (m->slaves[i].registered && m->slaves[i].info.state != DLS_SLAVE_DONE &&
		    m->slaves[i].info.state != DLS_SLAVE_LOST)
			ids[n++] = i;
	pthread_mutex_unlock(&m->lock);
	return n;
}

void master_slave_dismissed(struct master *m, int slave_id)
{
	pthread_mutex_lock(&m->lock);
	if (slave_id >= 0 && slave_id < m->cfg.nslaves && m->slaves[slave_id].registered &&
	    m->slaves[slave_id].info.state != DLS_SLAVE_LOST) {
		m->slaves[slave_id].info.state = DLS_SLAVE_DONE;
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->lock);
}
