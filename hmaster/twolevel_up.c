/*
 * twolevel_up.c - the forwarding thread of an hmaster's two-level mode
 * (twolevel_internal.h): the merged registration, the results queued in the
 * outbox, and a request for the parent's next chunk when a child waits on
 * an empty pool or half of the current chunk is handed out (a prefetch).
 */
#include "twolevel_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "twolevel_record.h"

int64_t twolevel_pool_left(const struct twolevel *t)
{
	int64_t n = t->cur ? sched_remaining(t->cur) : 0;

	return n + serve_ranges_left(&t->chunks) + serve_ranges_left(&t->requeue);
}

/* --- a chunk the parent grants -------------------------------------------- */

/* Do [a, a + n) and [b, b + m) meet? */
static int meet(int64_t a, int64_t n, int64_t b, int64_t m)
{
	return a < b + m && b < a + n;
}

static int ranges_meet(const struct serve_ranges *q, int64_t start, int64_t count)
{
	for (size_t k = 0; k < q->n; k++)
		if (meet(q->v[k].start, q->v[k].count, start, count))
			return 1;
	return 0;
}

/* Is some of [start, start + count) on its way at this hmaster: in the
 * pool (the current chunk's part not handed out, the queued chunks, the
 * requeue), or held by a child?  By ranges. */
static int on_its_way(const struct twolevel *t, int64_t start, int64_t count)
{
	if (t->cur) {
		int64_t left = sched_remaining(t->cur);

		if (meet(t->cur_start + t->cur_size - left, left, start, count))
			return 1;
	}
	if (ranges_meet(&t->chunks, start, count) || ranges_meet(&t->requeue, start, count))
		return 1;
	for (int c = 0; c < t->nchildren; c++) {
		const struct ledger_held *h = &t->children[c].serve.held;

		for (size_t k = 0; k < h->n; k++)
			if (meet(h->v[k].start, h->v[k].count, start, count))
				return 1;
	}
	return 0;
}

/* Are iteration i's results in the outbox, waiting to go up? */
static int in_outbox(const struct twolevel *t, int64_t i)
{
	for (size_t k = 0; k < t->out.n; k++)
		if (t->out.v[k].loop == t->loop && meet(t->out.v[k].start, t->out.v[k].count, i, 1))
			return 1;
	return 0;
}

/* Does this hmaster know anything of [start, start + count) yet: a
 * delivery, a part of its pool, a child's holding?  By ranges (and one
 * scan of the delivery marks): the common answer, no, costs little. */
static int knows_any(const struct twolevel *t, int64_t start, int64_t count)
{
	return memchr(t->ledger.state + start, 1, (size_t)count) || on_its_way(t, start, count);
}

/*
 * A chunk the parent grants is one the parent has not got.  Normally this
 * hmaster knows nothing of it; when the parent lost what it knew of this
 * hmaster (it declared it lost and took it back, or it was resumed) the
 * chunk may be work this hmaster still has.  Then what it has stays where
 * it is: the results in the outbox go up, a child that holds a part
 * delivers it, the pool keeps its part; what it delivered and sent up
 * before, which the parent dropped, is computed again (its mark cleared);
 * the rest joins the pool.  No iteration is handed out twice at once, so
 * no child is refused for delivering one twice.  DLS_OK or DLS_ENOMEM.
 * The lock is held.
 */
static int take_grant(struct twolevel *t, int64_t start, int64_t count)
{
	int64_t run = -1;

	if (start < 0 || count < 1 || start > t->ledger.iterations - count)
		return serve_ranges_push(&t->chunks, start, count); /* the ledger refuses it */
	if (!knows_any(t, start, count))
		return serve_ranges_push(&t->chunks, start, count);
	for (int64_t i = start; i <= start + count; i++) {
		int need = 0;

		if (i < start + count && t->ledger.state[i] == 1 && !in_outbox(t, i)) {
			t->ledger.state[i] = 0; /* sent up before; the parent has it not */
			t->ledger.ndelivered--;
			need = 1;
		} else if (i < start + count && t->ledger.state[i] != 1) {
			need = !on_its_way(t, i, 1);
		}
		if (need && run < 0)
			run = i;
		if (!need && run >= 0) {
			if (serve_ranges_push(&t->chunks, run, i - run))
				return DLS_ENOMEM;
			run = -1;
		}
	}
	log_warn("the parent gave again iterations [%lld, %lld) that this hmaster had: what "
		 "it still has stays, what it had sent up is computed again",
		 (long long)start, (long long)(start + count));
	return DLS_OK;
}

/* Ask the parent for the next chunk once half of the current one is out. */
static int pool_low(const struct twolevel *t)
{
	if (t->chunks.n || t->requeue.n)
		return 0;
	return !t->cur || 2 * sched_remaining(t->cur) <= t->cur_size;
}

static int64_t children_acp(const struct twolevel *t)
{
	int64_t a = 0;

	for (int i = 0; i < t->nchildren; i++)
		if (t->children[i].info.state == DLS_SLAVE_ACTIVE ||
		    t->children[i].info.state == DLS_SLAVE_REGISTERED)
			a += t->children[i].info.acp;
	return a;
}

/* Opens the job's workload to check results with, when this build has it
 * and it describes the same loop; the parent checks them anyway. */
static void open_work(struct twolevel *t, const struct dls_job *job)
{
	char why[HMASTER_WHY_LEN];

	if (work_open(&t->work, job->workload, job->params, (size_t)job->nparams,
		      (enum iter_order_mode)job->order, why, sizeof(why))) {
		log_info("results go up unchecked for their values: %s", why);
		return;
	}
	if (t->work.loop.iterations != job->iterations ||
	    t->work.loop.result_bytes != job->result_bytes) {
		log_warn("workload '%s' here differs from the parent's; its values go up unchecked",
			 job->workload);
		work_close(&t->work);
	}
}

/* The loop a job is of, its dls.loop (0 when it has none), into *loop; and
 * a shape this hmaster can hold.  DLS_OK, or DLS_EINVAL with why. */
static int job_loop_shape(const struct dls_job *job, uint32_t *loop, char *why)
{
	char pwhy[128];

	if (work_params_loop_number(job->params, (size_t)job->nparams, loop, pwhy, sizeof(pwhy))) {
		snprintf(why, HMASTER_WHY_LEN, "the parent's job: %s", pwhy);
		return DLS_EINVAL;
	}
	if (job->iterations < 1 || job->result_bytes < 1 ||
	    job->result_bytes > DLS_MAX_RESULT_BYTES) {
		snprintf(why, HMASTER_WHY_LEN, "the parent's job of %lld iterations of %u octets",
			 (long long)job->iterations, (unsigned)job->result_bytes);
		return DLS_EINVAL;
	}
	return DLS_OK;
}

int twolevel_accept_job(struct twolevel *t, int id, uint64_t key, const struct dls_job *job,
			char *why)
{
	uint32_t loop;

	if (job->scheme.kind < 0 || !sched_kind_is_distributed(job->scheme.kind)) {
		snprintf(why, HMASTER_WHY_LEN,
			 "two-level mode runs a distributed scheme (dtss, dfss, dfiss, dtfss); "
			 "the run's is not one");
		return DLS_EINVAL;
	}
	if (job_loop_shape(job, &loop, why))
		return DLS_EINVAL;
	if (ledger_init(&t->ledger, job->iterations, job->result_bytes)) {
		snprintf(why, HMASTER_WHY_LEN, "out of memory");
		return DLS_ENOMEM;
	}
	open_work(t, job);
	t->my_id = id;
	t->my_key = key;
	t->job = *job;
	t->loop = loop;
	return DLS_OK;
}

int twolevel_begin_loop(struct twolevel *t, const struct dls_job *job, char *why)
{
	uint32_t loop;

	if (job_loop_shape(job, &loop, why))
		return DLS_EINVAL;
	if (strcmp(job->run_name, t->job.run_name) || strcmp(job->workload, t->job.workload) ||
	    job->order != t->job.order || job->collect != t->job.collect || loop <= t->loop) {
		snprintf(why, HMASTER_WHY_LEN,
			 "the parent's next loop (%u: run '%.24s', workload '%.16s', %lld "
			 "iterations) is not the next of this run's (loop %u, workload '%.16s')",
			 (unsigned)loop, job->run_name, job->workload, (long long)job->iterations,
			 (unsigned)t->loop, t->job.workload);
		return DLS_EINVAL;
	}
	ledger_free(&t->ledger);
	if (ledger_init(&t->ledger, job->iterations, job->result_bytes)) {
		snprintf(why, HMASTER_WHY_LEN, "out of memory");
		return DLS_ENOMEM;
	}
	for (int i = 0; i < t->nchildren; i++)
		serve_forget_loop(&t->children[i].serve);
	sched_destroy(t->cur);
	t->cur = NULL;
	t->cur_start = t->cur_size = 0;
	serve_ranges_free(&t->chunks);
	serve_ranges_free(&t->requeue);
	work_close(&t->work);
	open_work(t, job);
	t->job = *job;
	t->loop = loop;
	log_info("loop %u begins: %lld iterations", (unsigned)loop, (long long)job->iterations);
	return DLS_OK;
}

/* Writes the record a resumed hmaster starts from, if one is kept: who it
 * is to its parent and whom it issued which capability.  A failure costs
 * only the resume (logged).  The lock is held. */
static void keep_record(struct twolevel *t)
{
	struct twolevel_record r = {.nslaves = t->nslaves, .leaves = t->leaves,
				    .my_id = t->my_id, .my_key = t->my_key,
				    .nchildren = t->nchildren};
	char why[HMASTER_WHY_LEN];

	if (!t->record[0])
		return;
	snprintf(r.name, sizeof(r.name), "%s", t->name);
	r.children = calloc((size_t)t->nchildren, sizeof(*r.children));
	for (int i = 0; r.children && i < t->nchildren; i++) {
		snprintf(r.children[i].name, sizeof(r.children[i].name), "%s",
			 t->children[i].info.name);
		r.children[i].vpower = t->children[i].info.vpower;
		r.children[i].key = t->children[i].key;
	}
	if (!r.children)
		log_err("cannot keep the record '%s': out of memory; this hmaster cannot be "
			"resumed", t->record);
	else if (twolevel_record_write(t->record, &r, why, sizeof(why)))
		log_err("cannot keep the record: %s; this hmaster cannot be resumed", why);
	free(r.children);
}

/* --- the forwarding thread --------------------------------------------- */

static void forward_registration(struct twolevel *t)
{
	struct pending_reg *batch = t->regs, *p;
	size_t n = 0, k = 0;
	double *speeds, *vp;
	int rc, id = -1;
	uint64_t key = 0;
	struct dls_job job;
	char why[HMASTER_WHY_LEN] = "";

	t->regs = NULL;
	t->registration_sent = 1;
	for (p = batch; p; p = p->next)
		n += p->n;
	speeds = calloc(n, sizeof(*speeds));
	vp = calloc(n, sizeof(*vp));
	for (p = batch; p && speeds; p = p->next)
		for (size_t i = 0; i < p->n; i++)
			speeds[k++] = p->speeds[i];
	pthread_mutex_unlock(&t->lock);
	rc = !speeds || !vp ? DLS_ENOMEM
			    : t->parent.register_cluster(t->parent.ctx, speeds, n, &id, &key, vp, &job,
							 why, sizeof(why));
	pthread_mutex_lock(&t->lock);
	if (!rc)
		rc = twolevel_accept_job(t, id, key, &job, why);
	if (!rc) {
		log_info("registered with the parent as child %d for %zu slaves", id, n);
	} else {
		t->failed = 1;
		snprintf(t->failure, sizeof(t->failure), "%s", why);
	}
	k = 0;
	for (p = batch; p; p = p->next) {
		p->rc = rc;
		snprintf(p->why, sizeof(p->why), "%s", why);
		for (size_t i = 0; i < p->n; i++, k++)
			if (!rc) {
				p->vpowers[i] = vp[k];
				t->children[p->id].info.vpower += vp[k];
			}
		if (!rc)
			*p->job = job;
		p->done = 1;
	}
	if (!rc)
		keep_record(t);
	free(speeds);
	free(vp);
	pthread_cond_broadcast(&t->cond);
}

/*
 * Sends up to 1 MiB of queued results in one submit(); the lock is held.
 * A submit whose answer was lost is sent again with exactly the blocks it
 * carried, not with those queued since: the parent refuses a submit whole
 * when its first block was delivered, so a refusal of the same blocks means
 * the lost one got through, and none is dropped undelivered.
 */
static void forward_results(struct twolevel *t)
{
	size_t n = 0, bytes = 0;
	char why[HMASTER_WHY_LEN] = "";
	int rc, retry = t->unsure > 0;

	struct dls_result *batch;

	if (retry)
		n = t->unsure;
	else
		while (n < t->out.n &&
		       (n == 0 || bytes + t->out.v[n].nbytes <= DLS_MAX_RESULT_BYTES))
			bytes += t->out.v[n++].nbytes;
	/* a copy of the entries: children may grow the outbox meanwhile; the
	 * counts stay put, only this thread frees them */
	batch = malloc(n * sizeof(*batch));
	if (!batch)
		return;
	memcpy(batch, t->out.v, n * sizeof(*batch));
	pthread_mutex_unlock(&t->lock);
	if (t->link_latency_s > 0)
		dls_sleep_until(dls_now() + 2 * t->link_latency_s);
	rc = t->parent.submit(t->parent.ctx, t->my_id, t->my_key, batch, n, why, sizeof(why));
	free(batch);
	pthread_mutex_lock(&t->lock);
	t->just_submitted = 1;
	t->unsure = rc == DLS_EREMOTE ? n : 0;
	if (rc == DLS_EREMOTE) {
		log_warn("results not sent to the parent, retrying: %s", why);
		pthread_mutex_unlock(&t->lock);
		dls_sleep_ms(200);
		pthread_mutex_lock(&t->lock);
		return;
	}
	if (rc && (retry || strstr(why, "already delivered"))) /* an earlier try got through */
		log_warn("the parent refused %zu result blocks sent again: %s (an earlier "
			 "submit of them got through)",
			 n, why);
	else if (rc)
		log_err("the parent refused %zu result blocks: %s", n, why);
	for (size_t i = 0; i < n; i++)
		free((void *)t->out.v[i].data);
	memmove(t->out.v, t->out.v + n, (t->out.n - n) * sizeof(*t->out.v));
	t->out.n -= n;
	pthread_cond_broadcast(&t->cond);
}

/* One request for this hmaster's next chunk; the lock is held. */
static void forward_request(struct twolevel *t)
{
	struct dls_request req;
	struct dls_reply rep;
	char why[HMASTER_WHY_LEN] = "";
	int rc;

	memset(&req, 0, sizeof(req));
	req.slave_id = t->my_id;
	req.key = t->my_key;
	req.seq = ++t->seq;
	req.acp = children_acp(t);
	for (int i = 0; i < t->nchildren; i++) {
		const struct dls_times *c = &t->children[i].info.times;

		req.times.t_comp += c->t_comp;
		req.times.t_comwait += c->t_comwait;
		req.times.emul_error += c->emul_error;
		req.times.emul_bias += c->emul_bias;
		req.times.late_chunks += c->late_chunks;
	}
	if (req.acp < 1)
		req.acp = 1;
	t->in_flight = 1;
	t->first_sent = 1;
	t->need = 0;
	t->just_submitted = 0;
	pthread_mutex_unlock(&t->lock);
	for (int tries = 0;; tries++) { /* a retry carries the same seq */
		if (t->link_latency_s > 0)
			dls_sleep_until(dls_now() + 2 * t->link_latency_s);
		rc = t->parent.request(t->parent.ctx, &req, &rep, why, sizeof(why));
		if (rc != DLS_EREMOTE || tries >= 50 || t->stop)
			break;
		dls_sleep_ms(200);
	}
	pthread_mutex_lock(&t->lock);
	t->in_flight = 0;
	t->parent_requests++;
	if (rc) {
		log_err("the parent failed: %s", why);
		t->failed = 1;
		snprintf(t->failure, sizeof(t->failure), "the parent failed: %s", why);
	} else if (rep.kind == DLS_REPLY_WORK && rep.has_job &&
		   (rep.has_job < 0 || twolevel_begin_loop(t, &rep.job, why))) {
		if (rep.has_job < 0)
			snprintf(why, sizeof(why), "the job of the parent's next loop was unreadable");
		log_err("%s", why);
		t->failed = 1;
		snprintf(t->failure, sizeof(t->failure), "%s", why);
	} else if (rep.kind == DLS_REPLY_WORK) {
		if (take_grant(t, rep.start, rep.count))
			t->failed = 1;
		if (!t->received)
			t->t_first = dls_now();
		t->received += rep.count;
	} else if (rep.kind == DLS_REPLY_WAIT) {
		t->wait_until = dls_now() + (rep.wait_ms > 0 ? rep.wait_ms : 50) / 1000.0;
	} else {
		t->parent_done = 1;
	}
	pthread_cond_broadcast(&t->cond);
	/* new work for the head of the line; a failure, WAIT or DONE for all */
	if (!rc && rep.kind == DLS_REPLY_WORK && !t->failed)
		serve_queue_wake_head(&t->waiting);
	else
		serve_queue_wake_all(&t->waiting);
}

/* When the forwarder must look again by itself: a registration or a first
 * request window closing, or the parent's WAIT ending; at most a second. */
static double next_deadline(const struct twolevel *t, double now)
{
	double next = now + 1.0, window = t->register_timeout_ms / 1000.0;

	if (t->regs && t->first_register + window < next)
		next = t->first_register + window;
	if (!t->first_sent && t->first_requests > 0 && t->first_request + window < next)
		next = t->first_request + window;
	if (t->wait_until > now && t->wait_until < next)
		next = t->wait_until;
	return next;
}

void *twolevel_forwarder(void *arg)
{
	struct twolevel *t = arg;

	pthread_mutex_lock(&t->lock);
	while (!t->stop && !t->failed) {
		double now = dls_now();
		int due = t->regs && (t->leaves == t->expected ||
				      now >= t->first_register + t->register_timeout_ms / 1000.0);
		int gate = t->first_sent || (t->first_requests > 0 &&
					     (t->first_requests >= t->nchildren ||
					      now >= t->first_request + t->register_timeout_ms / 1000.0));
		int dry = twolevel_pool_left(t) == 0;
		/* a child waits on an empty pool, or half the chunk is out: prefetch */
		int want = gate && !t->parent_done && !t->in_flight && now >= t->wait_until &&
			   children_acp(t) > 0 && ((t->need && dry) || (t->first_sent && pool_low(t)));

		if (due)
			forward_registration(t);
		else if (t->out.n && !(want && t->just_submitted && !dry))
			forward_results(t);
		else if (want)
			forward_request(t);
		else
			dls_cond_wait_until(&t->cond, &t->lock, next_deadline(t, now));
	}
	if (t->failed)
		serve_queue_wake_all(&t->waiting);
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return NULL;
}
