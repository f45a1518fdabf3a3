/*
 * master_serve.c - Chronopoulos et al. 2002 DTSS master steps 2-3 on the shared serving
 * core (serve.h): requests carrying A_i and piggy-backed results, served in
 * ACPSA order once the start gate has collected every slave's first
 * request; results checked whole before any is applied; the work of lost
 * slaves requeued.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "master_internal.h"
#include "master_turn.h"
#include "serve_request.h"
#include "times_bound.h"

static int check_caller(struct master *m, int id, uint64_t key, char *why)
{
	return roster_check_caller(&m->roster, id, key, why, MASTER_WHY_LEN);
}

void master_readmit(struct master *m, int id)
{
	struct master_child *ch = &m->children[id];
	struct dls_slave_status *info = &m->roster.v[id].info;

	info->state = m->gate_open ? DLS_SLAVE_WAITING : DLS_SLAVE_REGISTERED;
	serve_forget_replies(&ch->serve);
	ch->readmitted = 1;
	/* the rate it is seen to deliver at starts again (slow_to_seen) */
	ch->first_delivery_at = 0;
	ch->claimed_s = ch->claimed_n = 0;
	if (!m->replaying)
		log_warn("slave %d '%s' called again after it was declared lost: taken back "
			 "(the work it held had gone to others)",
			 id, info->name);
	master_log_readmitted(m, id);
}

int master_admit_caller(struct master *m, int id, uint64_t key, char *why)
{
	int rc = check_caller(m, id, key, why);

	if ((rc == DLS_OK || rc == DLS_ESTATE) && id >= 0 && id < m->roster.n &&
	    master_verify_refuses(m, id, why))
		return DLS_ESTATE;
	if (rc == DLS_ESTATE && m->roster.v[id].info.state == DLS_SLAVE_LOST &&
	    !m->gate.closing) {
		master_readmit(m, id);
		rc = DLS_OK;
	}
	return rc;
}

/* The results of the current loop (serve_current_loop); *kept to free.
 * The lock is held. */
static int current_loop_results(struct master *m, int id, const struct dls_result **res, size_t *n,
				struct dls_result **kept, char *why)
{
	size_t dropped;
	int rc = serve_current_loop(m->loop, id, res, n, kept, &dropped, why, MASTER_WHY_LEN);

	if (!rc && dropped && !m->replaying)
		log_debug("slave %d: %zu result blocks of loops before loop %u dropped", id, dropped,
			  (unsigned)m->loop);
	return rc;
}

/* The results of a call of admitted child id as the master takes them:
 * those of the current loop (current_loop_results), and from a child taken
 * back only those of work it still holds (serve_drop_lost_work); *kept to
 * free.  DLS_OK, or a refusal with why.  The lock is held. */
static int keep_results(struct master *m, int id, const struct dls_result **res, size_t *n,
			struct dls_result **kept, char *why)
{
	struct dls_result *this_loop, *all;
	struct verify_split vs;
	int64_t dropped;
	int rc = current_loop_results(m, id, res, n, &this_loop, why);

	*kept = this_loop;
	if (rc || (!m->children[id].readmitted && !m->children[id].cut))
		return rc;
	/* copies under verification are not the ledger's holdings: they stay */
	rc = master_verify_split(m, id, *res, *n, &vs);
	if (!rc) {
		*res = vs.plain;
		*n = vs.nplain;
		rc = serve_drop_lost_work(&m->results.ledger, &m->children[id].serve, id, res, n,
					  kept, &dropped, why, MASTER_WHY_LEN);
	} else {
		master_why(why, "out of memory");
	}
	if (!rc && vs.ncopies) {
		all = malloc((*n + vs.ncopies) * sizeof(*all));
		if (all) {
			memcpy(all, *res, *n * sizeof(*all));
			memcpy(all + *n, vs.copies, vs.ncopies * sizeof(*all));
			*n += vs.ncopies;
		} else {
			master_why(why, "out of memory");
			rc = DLS_ENOMEM;
		}
		free(*kept);
		*kept = all;
		*res = all;
	}
	master_verify_split_free(&vs);
	free(this_loop);
	if (!rc && !m->replaying)
		serve_log_lost_work(id, dropped,
				    m->children[id].cut ? "the slaves that took them back" : "others");
	return rc;
}

/* master_admit_caller and keep_results for request r: *own is r as the
 * master takes it (free *kept).  DLS_OK, or a refusal with why.  The lock
 * is held. */
static int admit_request(struct master *m, const struct dls_request *r, struct dls_request *own,
			 struct dls_result **kept, char *why)
{
	int rc = master_admit_caller(m, r->slave_id, r->key, why);

	*own = *r;
	*kept = NULL;
	return rc ? rc : keep_results(m, r->slave_id, &own->results, &own->nresults, kept, why);
}

int master_check_caller(struct master *m, int slave_id, uint64_t key, char *why)
{
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = check_caller(m, slave_id, key, why);
	pthread_mutex_unlock(&m->lock);
	return rc;
}

uint64_t master_child_key(struct master *m, int slave_id)
{
	uint64_t key = 0;

	pthread_mutex_lock(&m->lock);
	key = roster_key(&m->roster, slave_id);
	pthread_mutex_unlock(&m->lock);
	return key;
}

/* Iterations slave id delivered: those handed to it, less those it holds. */
static int64_t delivered(const struct master *m, int id)
{
	return m->roster.v[id].info.iterations -
	       ledger_held_undelivered(&m->children[id].serve.held);
}

void master_apply_results(struct master *m, int id, const struct dls_result *res, size_t n)
{
	struct master_child *ch = &m->children[id];

	for (size_t i = 0; i < n; i++) {
		if (master_verify_take(m, id, &res[i])) {
			timeline_deliver(&m->timeline, id, res[i].start, res[i].count,
					 result_store_elapsed(&m->results));
			continue;
		}
		result_store_accept(&m->results, &res[i], 1); /* stored by check_values */
		ledger_commit(&m->results.ledger, &ch->serve.held, &res[i], 1);
		timeline_deliver(&m->timeline, id, res[i].start, res[i].count,
				 result_store_elapsed(&m->results));
		master_verify_delivered(m, id, &res[i]);
	}
	if (n)
		ch->last_delivery_at = dls_now();
	if (n && !(ch->first_delivery_at > 0)) {
		ch->first_delivery_at = dls_now();
		ch->first_delivered = delivered(m, id);
		ch->busy_s = ch->busy_since = 0;
		ch->claimed_since = 0;
	}
	master_note_busy(m, id);
	if (n)
		master_complete_if_due(m);
}

/* Forgets results checked (and stored) but refused with their message. */
static void unmark(struct master *m, const struct dls_result *res, size_t n)
{
	ledger_unmark(&m->results.ledger, res, n);
}

/* Forgets results of child id checked and stored, refused with their
 * message (copies under verification were neither). */
static void discard(struct master *m, int id, const struct dls_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!master_verify_is_copy(m, id, &res[i])) {
			result_store_discard(&m->results, &res[i], 1);
			unmark(m, &res[i], 1);
		}
}

/* The workload's own check of results the ledger accepted (marked), in the
 * same pass that stores them (result_store_take); on a refusal the marks
 * are undone and the places zeroed again. */
static int check_values(struct master *m, const struct dls_result *res, size_t n, char *why)
{
	int rc = result_store_take(&m->results, res, n, why, MASTER_WHY_LEN);

	if (rc)
		unmark(m, res, n);
	return rc;
}

/* The checks of a call's results once its caller and order are: copies
 * under verification (master_verify_check), then the values of the others,
 * which serve_take or ledger_check marked (unmarked on a refusal). */
static int check_split(struct master *m, int id, const struct verify_split *vs, char *why)
{
	int rc = master_verify_check(m, id, vs, why);

	if (rc) {
		unmark(m, vs->plain, vs->nplain);
		return rc;
	}
	return check_values(m, vs->plain, vs->nplain, why);
}

int master_check_results(struct master *m, int id, const struct dls_result *res, size_t n,
			 char *why)
{
	struct verify_split vs;
	int64_t total;
	int rc = master_verify_split(m, id, res, n, &vs);

	if (rc) {
		master_why(why, "out of memory");
		return rc;
	}
	rc = ledger_check(&m->results.ledger, &m->children[id].serve.held, id, vs.plain, vs.nplain,
			  &total, why, MASTER_WHY_LEN);
	if (!rc)
		rc = check_split(m, id, &vs, why);
	master_verify_split_free(&vs);
	return rc;
}

static void learn(struct master *m, int id);

/* A loop after the first: the scheme goes on from what it learnt when it
 * can (the same iterations, an adaptive technique or auto, not told to
 * start afresh), after every measurement of the loop before is in; else it
 * starts anew.  The lock is held. */
static int next_loop_scheme(struct master *m, struct sched_params *p)
{
	int64_t iterations = m->results.work.loop.iterations;

	for (int i = 0; i < m->cfg.nslaves; i++)
		learn(m, i);
	if (!m->cfg.fresh_loops && sched_kind_learns_across_steps(m->cfg.sched.kind) &&
	    p->iterations == iterations && sched_next_step(m->sched) == DLS_OK)
		return DLS_OK;
	sched_destroy(m->sched);
	m->sched = NULL;
	p->iterations = iterations;
	return sched_create(p, &m->sched);
}

int master_open_gate_with(struct master *m, const int64_t *acp)
{
	struct sched_params p = m->cfg.sched;
	int rc;

	p.acp = acp;
	rc = m->sched ? next_loop_scheme(m, &p) : sched_create(&p, &m->sched);
	if (rc) {
		log_err("cannot start the scheme: %s", dls_strerror(rc));
		return rc;
	}
	m->gate_open = 1;
	result_store_start(&m->results);
	master_log_gate(m, acp);
	serve_queue_wake_head(&m->queue);
	return DLS_OK;
}

/* Child i is still in the run: not lost, not dismissed. */
static int in_run(const struct master *m, int i)
{
	return roster_alive(&m->roster, i) && m->roster.v[i].info.state != DLS_SLAVE_DONE;
}

/* A loop after the first: whether each registration still in the run (a
 * slave, or the slaves a relay hmaster registered together, whose requests
 * it forwards one merged message at a time) has a request waiting.
 * *pending: the requests waiting.  The lock is held. */
static int every_group_asked(struct master *m, int *pending)
{
	int groups = 0, asked = 0;

	*pending = 0;
	memset(m->group_live, 0, (size_t)m->cfg.nslaves);
	memset(m->group_asked, 0, (size_t)m->cfg.nslaves);
	for (int i = 0; i < m->roster.n; i++) {
		int g = m->children[i].group;

		*pending += m->children[i].first_request_pending;
		if (!in_run(m, i))
			continue;
		groups += !m->group_live[g];
		m->group_live[g] = 1;
		if (m->children[i].first_request_pending && !m->group_asked[g]) {
			m->group_asked[g] = 1;
			asked++;
		}
	}
	return asked == groups;
}

/* A held request served again for the next loop: its reply in place of
 * the WAIT it was told, and journaled ("held").  The lock is held. */
static int serve_held(struct master *m, const struct dls_request *req, struct dls_reply *out,
		      uint64_t *ticket, char *why)
{
	int rc = master_serve_one(m, req->slave_id, req->acp, 0, out, why);

	*ticket = 0;
	if (rc)
		return rc;
	master_remember_again(m, req, out);
	*ticket = master_log_held(m, req, out);
	return DLS_OK;
}

/* The gate just opened, or a request was served and journaled while it
 * is open: serves the held requests at the head of the queue, in order,
 * each woken with its reply; the first that is not held is woken as the
 * head.  The lock is held. */
static void serve_held_together(struct master *m)
{
	struct serve_waiter *w;
	int served = 0;

	while (m->gate_open && (w = m->queue.head) && turn_of(w)->held) {
		struct turn *t = turn_of(w);

		t->rc = serve_held(m, t->held, t->out, &t->ticket, t->why);
		t->served = 1;
		served++;
		serve_queue_take_head(&m->queue);
		pthread_cond_signal(&w->turn);
	}
	if (served) {
		m->held_served_together += served;
		serve_queue_wake_head(&m->queue);
	}
}

/* Opens the start gate when every registered slave has asked (a later
 * loop: every_group_asked), or at the deadline; creates the scheme with
 * the A_i of those first requests (a later loop: the last A_i of every
 * slave still in the run). */
static int maybe_open_gate(struct master *m, double now)
{
	int pending = 0, rc, all;
	int64_t *acp;

	master_close_registration_if_due(m, now);
	if (m->gate_open || !m->roster.closed || !m->loop_ready)
		return DLS_OK;
	if (m->loop > 0) {
		all = every_group_asked(m, &pending);
	} else {
		for (int i = 0; i < m->roster.n; i++)
			pending += m->children[i].first_request_pending;
		all = pending == m->roster.n;
	}
	if (pending == 0 || (!all && now < m->gate_deadline))
		return DLS_OK;
	acp = calloc((size_t)m->cfg.nslaves, sizeof(*acp));
	if (!acp)
		return DLS_ENOMEM;
	for (int i = 0; i < m->cfg.nslaves; i++) {
		const struct roster_entry *s = &m->roster.v[i];

		if (m->cfg.sched.kind == SCHED_WF) /* static weights: V_i in thousandths */
			acp[i] = s->registered ? (int64_t)(s->info.vpower * 1000 + 0.5) : 1000;
		else if (m->loop > 0)
			acp[i] = in_run(m, i) ? s->info.acp : 0;
		else
			acp[i] = s->registered && m->children[i].first_request_pending
					 ? s->info.acp
					 : 0;
	}
	rc = master_open_gate_with(m, acp);
	free(acp);
	if (!rc)
		serve_held_together(m);
	if (!rc && m->loop == 0)
		log_info("scheduling starts with %d of %d first requests, %.1f ms after "
			 "registration closed",
			 pending, m->roster.n, master_clock_lead(m) * 1e3);
	else if (!rc)
		log_debug("loop %u starts with %d first requests", m->loop, pending);
	return rc;
}

/* The time the head of the queue must look at the gate again by itself. */
static double gate_wakeup(const struct master *m)
{
	if (m->gate_open || !m->loop_ready) /* master_next_loop wakes the head */
		return DLS_NEVER;
	return m->roster.closed ? m->gate_deadline : roster_deadline(&m->roster);
}

/*
 * Waits until this request may be served: the gate is open and it heads
 * the queue (ACPSA order).  Only the head is woken: when it becomes the
 * head, when the gate opens (a request arriving or registration closing may
 * open it), or at the gate's deadline; and every waiter by master_close.
 * A held request (t->held) may find itself served (t->served) instead.
 * The lock is held; on failure t left the queue, with why.
 */
static int wait_turn(struct master *m, int64_t acp, struct turn *t, char *why)
{
	struct serve_waiter *w = &t->w;
	int rc;

	if (!t->joined) { /* a held request may have been queued, even served */
		t->served = 0;
		serve_queue_join(&m->queue, w, acp);
		t->joined = 1;
	}
	for (;;) { /* maybe_open_gate wakes the head when this request opens the gate */
		if (t->served)
			return DLS_OK; /* out of the queue: its owner leaves it (destroys w) */
		if (m->gate.closing) {
			master_why(why, MASTER_CLOSING_WHY);
			rc = DLS_ESTATE;
			break;
		}
		rc = maybe_open_gate(m, dls_now());
		if (rc) {
			master_why(why, "cannot start the scheme: %s", dls_strerror(rc));
			break;
		}
		if (t->served) /* by this very call, which opened the gate */
			return DLS_OK;
		if (m->gate_open && m->queue.head == w)
			break;
		dls_cond_wait_until(&w->turn, &m->lock,
				    m->queue.head == w ? gate_wakeup(m) : DLS_NEVER);
	}
	if (rc)
		serve_queue_leave(&m->queue, w);
	return rc;
}

/* Trust what is seen: a child whose chunk times, over all it measured,
 * claim a rate more than MASTER_RATE_TRUST times what it was seen to
 * deliver (iterations delivered or held since its first delivery, over
 * the time since that it held work: an honest slave that waited for work
 * is not taken for a liar), while it held its work MASTER_RATE_FLOOR_S a
 * chunk measured since or longer (an honest slave of short chunks is
 * seen exchanging, not computing), has this chunk's times slowed by the
 * excess, with a line the first time.  Not while replaying: the journal
 * holds the times as they were learnt. */
static void slow_to_seen(struct master *m, int id, struct dls_chunk_time *t)
{
	struct master_child *ch = &m->children[id];
	double held, seen, claimed, f;

	if (m->replaying || t->count < 1 || !(t->compute_s > 0) || !isfinite(t->compute_s) ||
	    !isfinite(t->elapsed_s))
		return;
	ch->claimed_s += t->compute_s;
	ch->claimed_n += (double)t->count;
	if (!(ch->first_delivery_at > 0) || delivered(m, id) == ch->first_delivered)
		return;
	ch->claimed_since++;
	/* delivered since, and what it holds (computed already, may be): all
	 * it was handed since */
	held = ch->busy_s + (ch->busy_since > 0 ? dls_now() - ch->busy_since : 0);
	seen = held / (double)(m->roster.v[id].info.iterations - ch->first_delivered);
	claimed = ch->claimed_s / ch->claimed_n;
	if (!(claimed * MASTER_RATE_TRUST < seen) ||
	    held < MASTER_RATE_FLOOR_S * (double)ch->claimed_since)
		return;
	f = seen / (MASTER_RATE_TRUST * claimed);
	if (!ch->slowed++)
		log_warn("slave %d claims to compute an iteration in %g s on average: %.3g times "
			 "faster than it delivers (%g s an iteration of the time it held work since "
			 "its first delivery); its chunk times count as %.3g times longer",
			 id, claimed, f * MASTER_RATE_TRUST, seen, f);
	t->compute_s *= f;
	t->elapsed_s *= f;
}

/* The chunk times slave id's request reported go to the scheme (the
 * adaptive ones learn from them, the others ignore them), slowed to what
 * the master saw (slow_to_seen), and are kept as applied for the journal;
 * one that makes no sense (a range outside the loop, a time not finite or
 * negative, less elapsed than computed) is skipped with a line. */
static void learn(struct master *m, int id)
{
	struct master_child *ch = &m->children[id];

	ch->napplied = 0;
	for (int k = 0; m->sched && k < ch->nmeasured; k++) {
		struct dls_chunk_time *t = &ch->applied[ch->napplied++];

		*t = ch->measured[k];
		timeline_measured(&m->timeline, id, t->start, t->count, t->compute_s);
		slow_to_seen(m, id, t);
		if (sched_measure(m->sched, id, t->start, t->count, t->compute_s, t->elapsed_s) &&
		    !m->replaying)
			log_warn("slave %d reported chunk [%lld, +%lld) computed in %g s, %g s "
				 "with its wait: not a measurement, ignored",
				 id, (long long)t->start, (long long)t->count, t->compute_s,
				 t->elapsed_s);
	}
	ch->nmeasured = 0;
}

/*
 * Chooses the reply to one slave: requeued work of a lost slave first, then
 * the scheme's next chunk, else WAIT while others hold work, DONE at the end.
 * `reported`: the ACPSA report of this request was already recorded.
 */
int master_serve_one(struct master *m, int id, int64_t acp, int reported, struct dls_reply *out,
		     char *why)
{
	struct dls_slave_status *info = &m->roster.v[id].info;
	struct dls_range c = {0, 0};
	int rc;

	memset(out, 0, sizeof(*out));
	if (info->state == DLS_SLAVE_LOST) {
		master_why(why, "slave %d was declared lost; its work went to others", id);
		return DLS_ESTATE;
	}
	learn(m, id);
	if (serve_ranges_pop_for(&m->requeue, id, &c)) {
		info->requeued_chunks++;
		rc = DLS_OK;
	} else if (master_verify_next(m, id, &c)) {
		return master_give_copy(m, id, c, out);
	} else if (m->sched && sched_remaining(m->sched) > 0) {
		rc = reported ? sched_serve(m->sched, id, acp, &c) : sched_next(m->sched, id, acp, &c);
		master_auto_log(m);
		if (rc) {
			master_why(why, "the scheme refused the request of slave %d (A_i = %lld): %s",
				   id, (long long)acp, dls_strerror(rc));
			return rc;
		}
		m->assigned += c.count;
		m->last_chunk = c.count;
	} else {
		rc = DLS_EDONE;
	}
	if (rc == DLS_OK) {
		return master_give_work(m, id, c, out);
	} else if (m->results.done) {
		out->kind = DLS_REPLY_DONE;
		info->state = DLS_SLAVE_DONE;
		pthread_cond_broadcast(&m->cond);
	} else {
		out->kind = DLS_REPLY_WAIT;
		out->wait_ms = m->cfg.wait_ms;
		/* a slave that asked ahead still computes its last chunk */
		info->state = ledger_held_undelivered(&m->children[id].serve.held) > 0
				      ? DLS_SLAVE_ACTIVE
				      : DLS_SLAVE_WAITING;
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
	struct dls_request plain = *r;
	struct verify_split vs;
	int rc = check_caller(m, r->slave_id, r->key, why);

	*retry = 0;
	if (rc)
		return rc;
	rc = master_verify_split(m, r->slave_id, r->results, r->nresults, &vs);
	if (rc) {
		master_why(why, "out of memory");
		return rc;
	}
	plain.results = vs.plain; /* the ledger's checks see the ledger's holdings */
	plain.nresults = vs.nplain;
	rc = serve_take(&m->results.ledger, &m->children[r->slave_id].serve, &plain,
			m->cfg.collect == DLS_COLLECT_PIGGYBACK, out, retry, why, MASTER_WHY_LEN);
	if (!rc && !*retry)
		rc = check_split(m, r->slave_id, &vs, why);
	master_verify_split_free(&vs);
	return rc;
}

void master_record_request(struct master *m, const struct dls_request *r)
{
	struct dls_slave_status *info = &m->roster.v[r->slave_id].info;
	struct master_child *ch = &m->children[r->slave_id];

	master_apply_results(m, r->slave_id, r->results, r->nresults);
	if (r->nmeasured > DLS_MAX_MEASURED && !m->replaying)
		log_warn("slave %d reported %zu measured chunks in one request: the first %d "
			 "are kept", r->slave_id, r->nmeasured, DLS_MAX_MEASURED);
	ch->nmeasured = r->nmeasured < DLS_MAX_MEASURED ? (int)r->nmeasured : DLS_MAX_MEASURED;
	if (ch->nmeasured)
		memcpy(ch->measured, r->measured, (size_t)ch->nmeasured * sizeof(*ch->measured));
	info->times = r->times;
	times_bound(&info->times);
	info->acp = r->acp;
	if (info->state == DLS_SLAVE_REGISTERED || !m->gate_open)
		m->children[r->slave_id].first_request_pending = 1;
}

void master_remember(struct master *m, const struct dls_request *r, const struct dls_reply *out)
{
	struct dls_slave_status *info = &m->roster.v[r->slave_id].info;

	serve_remember(&m->children[r->slave_id].serve, r, out);
	m->children[r->slave_id].first_request_pending = 0;
	if (m->early_waiters)
		pthread_cond_broadcast(&m->cond);
	if (info->state == DLS_SLAVE_REGISTERED)
		info->state = DLS_SLAVE_ACTIVE;
}

/* A second request on its way that overtook its predecessor (they travel
 * on two connections) waits for it to be served, at most early_wait_ms;
 * take_request refuses it if it is still early then.  Only for a caller
 * that may call: a stranger's waits nothing.  The lock is held. */
static void wait_predecessor(struct master *m, const struct dls_request *r)
{
	double until = dls_now() + m->cfg.early_wait_ms / 1000.0;
	char why[MASTER_WHY_LEN];

	if (!r->second || check_caller(m, r->slave_id, r->key, why))
		return;
	m->early_waiters++;
	while (serve_early(&m->children[r->slave_id].serve, r) && dls_now() < until &&
	       m->roster.v[r->slave_id].info.state != DLS_SLAVE_LOST && !m->gate.closing)
		dls_cond_wait_until(&m->cond, &m->lock, until);
	m->early_waiters--;
}

/*
 * Requests whose results completed a loop while loops remain wait at the
 * next loop's start gate, and their message is journaled once served, in
 * the next loop.  Their results, which are the loop's before, are
 * journaled now, as a submit each, so that a replay applies them to their
 * own loop (fresh[k]: request k's results were accepted; loop: the one
 * they were recorded in, which ended, or began the next); returns the n
 * requests as the message logs them (without results; to free), or NULL
 * when nothing was logged.  The lock is held.
 */
static struct dls_request *journal_before_next_loop(struct master *m,
						    const struct dls_request *reqs,
						    const int *fresh, size_t n, uint32_t loop)
{
	struct dls_request *copy;

	if (!m->journal || m->replaying || (m->loop_ready && m->loop == loop))
		return NULL;
	copy = calloc(n, sizeof(*copy));
	if (!copy)
		return NULL; /* logged with the message: a replay refuses it, said then */
	for (size_t k = 0; k < n; k++) {
		copy[k] = reqs[k];
		if (fresh[k])
			master_log_submit(m, reqs[k].slave_id, reqs[k].results, reqs[k].nresults);
		copy[k].results = NULL;
		copy[k].nresults = 0;
	}
	return copy;
}

/* Serves request req in its turn (wait_turn, then master_serve_one); the
 * lock is held. */
static int serve_in_turn(struct master *m, const struct dls_request *req, struct dls_reply *out,
			 char *why)
{
	struct turn t = {.held = NULL, .out = out};
	int rc = wait_turn(m, req->acp, &t, why);

	if (!rc) {
		rc = master_serve_one(m, req->slave_id, req->acp, 0, out, why);
		serve_queue_leave(&m->queue, &t.w);
	}
	return rc;
}

/* A held request served for the next loop in its turn, by this thread or
 * by the one that opened the gate (serve_held_together); *ticket: its
 * record.  The lock is held. */
static int serve_held_in_turn(struct master *m, struct turn *t, uint64_t *ticket, char *why)
{
	int rc = wait_turn(m, t->held->acp, t, why);

	*ticket = 0;
	if (rc)
		return rc;
	if (t->served) {
		rc = t->rc;
		*ticket = t->ticket;
		if (rc)
			master_why(why, "%s", t->why);
	} else {
		rc = serve_held(m, t->held, t->out, ticket, why);
	}
	serve_queue_leave(&m->queue, &t->w);
	return rc;
}

void master_remember_again(struct master *m, const struct dls_request *r,
			   const struct dls_reply *out)
{
	struct serve_child *c = &m->children[r->slave_id].serve;

	if (c->has_reply && c->last_seq == r->seq) {
		c->last_reply = *out;
		m->children[r->slave_id].first_request_pending = 0;
		if (out->kind == DLS_REPLY_WORK)
			m->roster.v[r->slave_id].info.state = DLS_SLAVE_ACTIVE;
	} else {
		master_remember(m, r, out);
	}
}

/*
 * A run with loops to come: a request told WAIT (nothing left to give, no
 * tail to take back, and its slave computes nothing: it did not ask
 * ahead), its message journaled and its reply remembered as
 * such, is held up to wait_ms, so that the next loop begins at it the
 * moment this one ends rather than when its slave asks again.  It is
 * served again when the loop ended (as a first request of the next, queued
 * at its start gate by the thread that ended the loop: master_queue_held)
 * or work came back (a lost slave's), and the new reply is
 * journaled ("held") and remembered in place of the WAIT; else the WAIT
 * stands, 1 ms long: it is held again when it asks.  loop: the loop it was
 * served in (the take-back's calls, made without the lock, may have seen
 * that loop end).  DLS_OK with *out and
 * *ticket (the "held" event's, 0: none), or the refusal of the second
 * serving (the WAIT stands for a retry).  The lock is held.
 */
static int hold_to_loop_end(struct master *m, const struct dls_request *req, uint32_t loop,
			    struct dls_reply *out, uint64_t *ticket, char *why)
{
	double until = dls_now() + m->cfg.wait_ms / 1000.0;
	struct turn t = {.held = req, .out = out, .next_held = m->held_turns};
	int lost;

	*ticket = 0;
	m->held_turns = &t; /* the loop's end may queue it (master_queue_held) */
	while (!t.joined && !m->gate.closing && m->loop == loop && m->loop_ready &&
	       !m->requeue.n && dls_now() < until)
		dls_cond_wait_until(&m->cond, &m->lock, until);
	if (!t.joined)
		master_unlist_held(m, &t);
	lost = m->roster.v[req->slave_id].info.state == DLS_SLAVE_LOST;
	if ((m->gate.closing || lost) && !t.served) {
		if (t.joined)
			serve_queue_leave(&m->queue, &t.w);
		return DLS_OK; /* the WAIT stands */
	}
	if (!t.joined && m->loop == loop && m->loop_ready && !m->requeue.n) {
		out->wait_ms = 1;
		return DLS_OK;
	}
	if (!t.joined && (m->loop != loop || !m->loop_ready)) /* the next loop's first */
		m->children[req->slave_id].first_request_pending = 1;
	return serve_held_in_turn(m, &t, ticket, why);
}

/* One request on its way through the master's steps (serve_request). */
struct master_call {
	struct master *m;
	struct dls_result *kept;    /* its results as kept, when some were dropped */
	struct dls_request *logged; /* as journaled before the next loop (or NULL) */
	uint32_t served_in;	    /* the loop it was served in */
	struct master_cut told;	    /* a tail taken back for it, to tell its holder */
	uint64_t ticket;	    /* the journal's record to wait for */
};

static int call_admit(void *ctx, int id, uint64_t key, char *why)
{
	return master_admit_caller(((struct master_call *)ctx)->m, id, key, why);
}

static int call_keep(void *ctx, int id, const struct dls_result **res, size_t *n, char *why)
{
	struct master_call *c = ctx;

	return keep_results(c->m, id, res, n, &c->kept, why);
}

static int call_take(void *ctx, const struct dls_request *r, struct dls_reply *out, int *retry,
		     char *why)
{
	struct master_call *c = ctx;

	wait_predecessor(c->m, r);
	return take_request(c->m, r, out, retry, why);
}

/* The results applied; a request whose results completed a loop is
 * journaled in the next (journal_before_next_loop). */
static int call_record(void *ctx, const struct dls_request *r, char *why)
{
	static const int fresh = 1;
	struct master_call *c = ctx;
	uint32_t loop = c->m->loop; /* the loop it came in */

	(void)why;
	master_record_request(c->m, r);
	c->logged = journal_before_next_loop(c->m, r, &fresh, 1, loop);
	master_log_pending_loop(c->m);
	return DLS_OK;
}

/* Served in its turn; told WAIT, it may take a tail back (the end game). */
static int call_serve(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why)
{
	struct master_call *c = ctx;
	int rc = serve_in_turn(c->m, r, out, why);

	c->served_in = c->m->loop;
	if (!rc && out->kind == DLS_REPLY_WAIT)
		master_take_back(c->m, r->slave_id, out, &c->told);
	return rc;
}

static void call_remember(void *ctx, const struct dls_request *r, const struct dls_reply *out)
{
	master_remember(((struct master_call *)ctx)->m, r, out);
}

/* Journaled (a request refused after its results were accepted, lost
 * meanwhile, keeps them); told WAIT in a run with loops to come, held to
 * the loop's end (hold_to_loop_end). */
static int call_after(void *ctx, const struct dls_request *r, struct dls_reply *out, int rc,
		      char *why)
{
	static const int fresh = 1;
	struct master_call *c = ctx;
	struct master *m = c->m;

	c->ticket = master_log_message(m, c->logged ? c->logged : r, &fresh, 1, out, 0,
				       rc ? 0 : 1);
	free(c->logged);
	c->logged = NULL;
	/* a slave that asked ahead still computes: its results must not wait */
	if (!rc && out->kind == DLS_REPLY_WAIT && c->told.holder < 0 && master_more_loops(m) &&
	    !ledger_held_undelivered(&m->children[r->slave_id].serve.held)) {
		uint64_t held;

		rc = hold_to_loop_end(m, r, c->served_in, out, &held, why);
		c->ticket = held ? held : c->ticket;
	}
	return rc;
}

static const struct serve_steps master_steps = {
	.admit = call_admit,
	.keep = call_keep,
	.take = call_take,
	.record = call_record,
	.serve = call_serve,
	.remember = call_remember,
	.after = call_after,
};

/* Child id is answered `out`: after a resume, a DONE it was owed
 * (owed_done) is paid.  The lock is held. */
static void heard_reply(struct master *m, int id, const struct dls_reply *out)
{
	if (out->kind == DLS_REPLY_DONE && id >= 0 && id < m->roster.n &&
	    m->children[id].owed_done) {
		m->children[id].owed_done = 0;
		pthread_cond_broadcast(&m->cond);
	}
}

int master_request(struct master *m, const struct dls_request *req, struct dls_reply *out,
		   char *why)
{
	struct master_call c = {m, NULL, NULL, 0, {-1, 0, 0, 0}, 0};
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = serve_request(&master_steps, &c, req, out, why);
	if (!rc)
		heard_reply(m, req->slave_id, out);
	serve_held_together(m); /* the held ones its turn came before, after its record */
	pthread_mutex_unlock(&m->lock);
	free(c.kept);
	master_journal_wait(m, c.ticket); /* durable before the reply */
	master_take_back_tell(m, &c.told); /* and the holder knows before the asker */
	return rc;
}

/* Takes each request of a merged message (take_request) after its callers
 * were admitted: every one checked before any is applied (marks stay until
 * applied), and a slave may appear once.  fresh[k]: request k is new (not
 * a retry).  On a refusal the marks of the fresh ones are undone.  The
 * lock is held. */
static int take_group(struct master *m, const struct dls_request *reqs, size_t n,
		      struct dls_reply *out, int *fresh, char *why)
{
	int rc = DLS_OK;
	size_t k;

	for (k = 0; k < n && !rc; k++) {
		int retry;

		rc = take_request(m, &reqs[k], &out[k], &retry, why);
		for (size_t j = 0; j < k && !rc; j++)
			if (reqs[j].slave_id == reqs[k].slave_id) {
				master_why(why, "slave %d appears twice in one message",
					   reqs[k].slave_id);
				if (!retry)
					discard(m, reqs[k].slave_id, reqs[k].results,
						reqs[k].nresults);
				rc = DLS_EINVAL;
			}
		fresh[k] = !rc && !retry;
	}
	if (rc)
		for (size_t j = 0; j + 1 < k; j++)
			if (fresh[j])
				discard(m, reqs[j].slave_id, reqs[j].results, reqs[j].nresults);
	return rc;
}

/* Serves the fresh requests of a merged message in one turn, at the
 * largest A_i among them (top): the ACPSA rule once per message, after
 * every report.  *w_ok: its turn came; *served: how many were served
 * before a refusal (n: all).  The lock is held. */
static int serve_group_turn(struct master *m, const struct dls_request *reqs, const int *fresh,
			    size_t n, int64_t top, struct dls_reply *out, int *w_ok,
			    size_t *served, char *why)
{
	struct turn t = {.held = NULL, .out = out};
	int rc = wait_turn(m, top, &t, why);

	*w_ok = !rc;
	*served = 0;
	if (rc)
		return rc;
	for (size_t k = 0; k < n; k++)
		if (fresh[k] && m->sched)
			sched_report(m->sched, reqs[k].slave_id, reqs[k].acp);
	for (size_t k = 0; k < n && !rc; k++)
		if (fresh[k]) {
			rc = master_serve_one(m, reqs[k].slave_id, reqs[k].acp, 1, &out[k], why);
			if (!rc)
				master_remember(m, &reqs[k], &out[k]);
			else
				*served = k;
		}
	if (!rc)
		*served = n;
	serve_queue_leave(&m->queue, &t.w);
	return rc;
}

/* master_request_group's message, the lock held, without the requests of
 * distrusted slaves; *ticket: the journal's record to wait for. */
static int serve_group(struct master *m, const struct dls_request *reqs, size_t n,
		       struct dls_reply *out, char *why, uint64_t *ticket)
{
	struct dls_request *logged;
	uint32_t loop;
	size_t served, k;
	int64_t top = 0;
	int w_ok;
	int rc = DLS_OK, *fresh = calloc(n ? n : 1, sizeof(int));
	struct dls_request *own = calloc(n ? n : 1, sizeof(*own));
	struct dls_result **kept = calloc(n ? n : 1, sizeof(*kept));

	if (!fresh || !own || !kept) {
		free(fresh);
		free(own);
		free(kept);
		return DLS_ENOMEM;
	}
	for (k = 0; k < n && !rc; k++)
		rc = admit_request(m, &reqs[k], &own[k], &kept[k], why);
	if (!rc)
		rc = take_group(m, own, n, out, fresh, why);
	if (rc)
		goto out;
	loop = m->loop;
	for (k = 0; k < n; k++) {
		if (!fresh[k])
			continue;
		master_record_request(m, &own[k]);
		if (own[k].acp > top)
			top = own[k].acp;
	}
	if (!top)
		goto out; /* only retries */
	logged = journal_before_next_loop(m, own, fresh, n, loop);
	master_log_pending_loop(m);
	rc = serve_group_turn(m, own, fresh, n, top, out, &w_ok, &served, why);
	/* the ones after a refused one were not served; their results stay */
	*ticket = master_log_message(m, logged ? logged : own, fresh, n, out, w_ok, served);
	free(logged);
out:
	for (k = 0; k < n; k++)
		free(kept[k]);
	free(kept);
	free(own);
	free(fresh);
	return rc;
}

int master_request_group(struct master *m, const struct dls_request *reqs, size_t n,
			 struct dls_reply *out, char *why)
{
	struct dls_request *trusted = calloc(n ? n : 1, sizeof(*trusted));
	struct dls_reply *replies = calloc(n ? n : 1, sizeof(*replies));
	uint8_t *dropped = calloc(n ? n : 1, 1);
	char scratch[MASTER_WHY_LEN];
	uint64_t ticket = 0;
	size_t nt = 0, j = 0;
	int rc = DLS_OK;

	if (!trusted || !replies || !dropped) {
		free(trusted);
		free(replies);
		free(dropped);
		return DLS_ENOMEM;
	}
	pthread_mutex_lock(&m->lock);
	/* a slave found lying (--verify) does not sink the others' message:
	 * it is told DONE, which its relay hmaster passes on */
	for (size_t k = 0; k < n; k++) {
		int id = reqs[k].slave_id;

		dropped[k] = roster_check_caller(&m->roster, id, reqs[k].key, scratch,
						 sizeof(scratch)) == DLS_ESTATE &&
			     m->children[id].distrusted;
		if (!dropped[k])
			trusted[nt++] = reqs[k];
	}
	if (nt)
		rc = serve_group(m, trusted, nt, replies, why, &ticket);
	for (size_t k = 0; !rc && k < n; k++) {
		memset(&out[k], 0, sizeof(out[k]));
		if (dropped[k])
			out[k].kind = DLS_REPLY_DONE;
		else
			out[k] = replies[j++];
		heard_reply(m, reqs[k].slave_id, &out[k]);
	}
	serve_held_together(m);
	pthread_mutex_unlock(&m->lock);
	master_journal_wait(m, ticket);
	free(trusted);
	free(replies);
	free(dropped);
	return rc;
}

int master_submit(struct master *m, int slave_id, uint64_t key, const struct dls_result *res,
		  size_t nres, char *why)
{
	struct dls_result *kept = NULL;
	uint64_t ticket = 0;
	int rc;

	pthread_mutex_lock(&m->lock);
	rc = master_admit_caller(m, slave_id, key, why);
	if (!rc)
		rc = keep_results(m, slave_id, &res, &nres, &kept, why);
	if (!rc)
		rc = master_check_results(m, slave_id, res, nres, why);
	if (!rc) {
		master_apply_results(m, slave_id, res, nres);
		ticket = master_log_submit(m, slave_id, res, nres);
		ticket = master_log_pending_loop(m) ?: ticket;
	}
	pthread_mutex_unlock(&m->lock);
	free(kept);
	master_journal_wait(m, ticket);
	return rc;
}

int master_slave_lost(struct master *m, int slave_id, const char *cause)
{
	struct roster_entry *s;

	pthread_mutex_lock(&m->lock);
	if (!roster_alive(&m->roster, slave_id)) {
		pthread_mutex_unlock(&m->lock);
		return DLS_ENOENT;
	}
	s = &m->roster.v[slave_id];
	if (s->info.state == DLS_SLAVE_DONE && !m->children[slave_id].serve.held.n) {
		/* it heard DONE and holds nothing: it left, it is not lost (its
		 * exit can race with the end-of-run stop() that found it gone) */
		pthread_mutex_unlock(&m->lock);
		return DLS_ESTATE;
	}
	master_release_lost(m, slave_id, cause);
	pthread_cond_broadcast(&m->cond);
	pthread_mutex_unlock(&m->lock);
	return DLS_OK;
}

size_t master_slaves_holding(struct master *m, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < m->roster.n && n < max; i++)
		if ((m->children[i].serve.held.n > 0 || master_verify_holds(m, i)) &&
		    roster_alive(&m->roster, i))
			ids[n++] = i;
	pthread_mutex_unlock(&m->lock);
	return n;
}

size_t master_slaves_undismissed(struct master *m, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; i < m->roster.n && n < max; i++)
		if (m->roster.v[i].info.state != DLS_SLAVE_DONE && roster_alive(&m->roster, i))
			ids[n++] = i;
	pthread_mutex_unlock(&m->lock);
	return n;
}

/* After a resume: child i was journaled as told DONE and has not heard
 * it from this master; the reply may have died with the old master, and
 * the child, rejoining, asks for it again.  The lock is held. */
static int owes_done(const struct master *m, int i)
{
	return m->children[i].owed_done && roster_alive(&m->roster, i);
}

/* No child is owed a DONE (owes_done).  The lock is held. */
static int none_owed_done(const struct master *m)
{
	for (int i = 0; i < m->roster.n; i++)
		if (owes_done(m, i))
			return 0;
	return 1;
}

/*
 * How long the end waits for the slaves to ask and hear DONE, in ms: a
 * WAIT's few rounds; after a resume, while a slave that has not rejoined
 * yet may still (its rejoin window open), long enough for its retries
 * (slave_rejoin: at least every 500 ms), so that a run that ends soon
 * after a resume does not lose a slave that was on its way back.
 */
static int end_wait_ms(struct master *m)
{
	int ms = 4 * m->cfg.wait_ms + 200;
	double left = 0;

	pthread_mutex_lock(&m->lock);
	for (int i = 0; m->resumed_at > 0 && i < m->roster.n; i++)
		if ((!m->children[i].rejoined && roster_alive(&m->roster, i) &&
		     m->roster.v[i].info.state != DLS_SLAVE_DONE) ||
		    owes_done(m, i))
			left = m->resumed_at + m->cfg.rejoin_ms / 1000.0 - dls_now();
	pthread_mutex_unlock(&m->lock);
	if (left > 0) {
		int rejoin = left * 1000 < MASTER_REJOIN_END_MS ? (int)(left * 1000)
								  : MASTER_REJOIN_END_MS;

		ms = ms > rejoin ? ms : rejoin;
	}
	return ms;
}

size_t master_slaves_to_stop(struct master *m, int *ids, size_t max)
{
	int ms = end_wait_ms(m);
	double deadline = dls_now() + ms / 1000.0;
	int rc = master_wait_dismissed(m, ms);

	master_wait_until(m, none_owed_done, deadline);
	if (!rc)
		return 0;
	return master_slaves_undismissed(m, ids, max);
}

void master_slave_dismissed(struct master *m, int slave_id)
{
	pthread_mutex_lock(&m->lock);
	if (roster_alive(&m->roster, slave_id)) {
		m->roster.v[slave_id].info.state = DLS_SLAVE_DONE;
		master_log_dismissed(m, slave_id);
		pthread_cond_broadcast(&m->cond);
	}
	pthread_mutex_unlock(&m->lock);
}
