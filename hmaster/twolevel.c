/*
 * twolevel.c - two-level HDTSS (see twolevel.h): a local
 * pool of the parent's chunks, the scheme run over each with the children's
 * A_i, a prefetch of the next chunk when half of the current one is handed
 * out, and an outbox of results that the forwarding thread sends up.
 */
#include "twolevel.h"
#include "withdraw_below.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "ledger.h"
#include "work.h"
#include "serve.h"
#include "dls_sched.h"
#include "roster.h"
#include "run_auth.h"
#include "times_bound.h"
#include "twolevel_record.h"

/* A child: its row (name, V_i = the sum of its slaves', A_i, chunks, times,
 * state) and what the serving core keeps of it. */
struct child {
	struct dls_slave_status info;
	struct serve_child serve;
	uint64_t key;	 /* its capability */
	int readmitted; /* taken back after it was declared lost, or BACK */
	int back;	/* resumed: it rejoined this hmaster */
};

/* readmitted: it came back to a resumed hmaster (the work it held went to
 * the parent's other children) */
enum { BACK = 2 };

/* A child's registration waiting for the merged one to come back. */
struct pending_reg {
	const double *speeds;
	size_t n;
	int id;
	double *vpowers;
	struct dls_job *job;
	int rc, done;
	char why[HMASTER_WHY_LEN];
	struct pending_reg *next;
};

/* Results on their way up (copies: the child's message is gone by then). */
struct outbox {
	struct dls_result *v;
	size_t n, cap;
};

struct twolevel {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct hmaster_parent parent;
	char name[64];
	int nslaves, leaves, register_timeout_ms, stop;
	int expected; /* leaves it waits for: nslaves less those withdrawn */
	double link_latency_s, first_register;

	struct pending_reg *regs;
	int registration_sent, my_id, failed;
	char record[4096]; /* where to keep the record for a resume ("" none) */
	int resumed;	   /* it succeeds one that died; its children rejoin */
	uint64_t my_key; /* the parent's capability for this hmaster */
	char failure[HMASTER_WHY_LEN];
	struct dls_job job;
	struct work work; /* the job's workload when this build has it (w NULL: not) */
	struct child *children; /* nslaves at most */
	int nchildren;
	struct ledger ledger;

	/* the pool: the scheme over the current chunk, then queued chunks */
	struct sched *cur;
	int64_t cur_start, cur_size;
	struct serve_ranges chunks;  /* the parent's chunks not started yet */
	struct serve_ranges requeue; /* the work of lost children */
	struct serve_queue waiting;   /* children's requests in ACPSA order */

	/* the parent */
	int first_sent, in_flight, parent_done, need, just_submitted;
	int first_requests;
	double first_request, wait_until;
	uint32_t seq;
	struct outbox out;
	size_t unsure; /* the head of out the last submit carried, its answer lost */

	int64_t received; /* iterations the parent gave */
	double t_first;	  /* the first chunk's arrival */
	pthread_t thread;
	long parent_requests, local_chunks;
};

/* Iterations in the pool not yet handed to a child. */
static int64_t pool_left(const struct twolevel *t)
{
	int64_t n = t->cur ? sched_remaining(t->cur) : 0;

	return n + serve_ranges_left(&t->chunks) + serve_ranges_left(&t->requeue);
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

/* Starts the scheme over the next queued chunk; the lock is held. */
static int start_chunk(struct twolevel *t)
{
	struct sched_params p;
	int64_t *acp = calloc((size_t)t->nchildren, sizeof(*acp));
	struct dls_range r;
	int rc;

	if (!acp)
		return DLS_ENOMEM;
	serve_ranges_pop(&t->chunks, &r);
	for (int i = 0; i < t->nchildren; i++)
		acp[i] = t->children[i].info.state == DLS_SLAVE_ACTIVE ? t->children[i].info.acp : 0;
	sched_params_init(&p);
	sched_params_from_scheme(&t->job.scheme, &p);
	p.iterations = r.count;
	p.npes = t->nchildren;
	p.acp = acp;
	sched_destroy(t->cur);
	t->cur = NULL;
	rc = sched_create(&p, &t->cur);
	if (rc == DLS_ENOPOWER) { /* nobody active yet: count every child as 1 */
		for (int i = 0; i < t->nchildren; i++)
			acp[i] = 1;
		rc = sched_create(&p, &t->cur);
	}
	free(acp);
	if (rc)
		return rc;
	t->cur_start = r.start;
	t->cur_size = r.count;
	return DLS_OK;
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

/* The parent's job, as two-level mode needs it (a distributed scheme, a
 * loop of results it can hold); then this hmaster is the parent's child id
 * with capability key.  DLS_OK, or an error with why.  The lock is held. */
static int accept_job(struct twolevel *t, int id, uint64_t key, const struct dls_job *job,
		      char *why)
{
	if (job->scheme.kind < 0 || !sched_kind_is_distributed(job->scheme.kind)) {
		snprintf(why, HMASTER_WHY_LEN,
			 "two-level mode runs a distributed scheme (dtss, dfss, dfiss, dtfss); "
			 "the run's is not one");
		return DLS_EINVAL;
	}
	if (job->iterations < 1 || job->result_bytes < 1 ||
	    job->result_bytes > DLS_MAX_RESULT_BYTES) {
		snprintf(why, HMASTER_WHY_LEN, "the parent's job of %lld iterations of %u octets",
			 (long long)job->iterations, (unsigned)job->result_bytes);
		return DLS_EINVAL;
	}
	if (ledger_init(&t->ledger, job->iterations, job->result_bytes)) {
		snprintf(why, HMASTER_WHY_LEN, "out of memory");
		return DLS_ENOMEM;
	}
	open_work(t, job);
	t->my_id = id;
	t->my_key = key;
	t->job = *job;
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
		rc = accept_job(t, id, key, &job, why);
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
	} else if (rep.kind == DLS_REPLY_WORK) {
		if (serve_ranges_push(&t->chunks, rep.start, rep.count))
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

static void *forwarder(void *arg)
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
		int dry = pool_left(t) == 0;
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

/* --- lifecycle ----------------------------------------------------------- */

struct twolevel *twolevel_create(const char *name, int nslaves, int register_timeout_ms,
				 double link_latency_us, const struct hmaster_parent *parent,
				 int *err)
{
	struct twolevel *t;

	*err = DLS_EINVAL;
	if (nslaves < 1 || nslaves > 1 << 16 || register_timeout_ms < 1)
		return NULL;
	*err = DLS_ENOMEM;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->children = calloc((size_t)nslaves, sizeof(*t->children));
	if (!t->children || pthread_mutex_init(&t->lock, NULL) || dls_cond_init(&t->cond)) {
		free(t->children);
		free(t);
		return NULL;
	}
	t->parent = *parent;
	t->nslaves = t->expected = nslaves;
	t->register_timeout_ms = register_timeout_ms;
	t->link_latency_s = link_latency_us * 1e-6;
	t->my_id = -1;
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (pthread_create(&t->thread, NULL, forwarder, t)) {
		t->thread = 0;
		twolevel_destroy(t);
		return NULL;
	}
	*err = DLS_OK;
	return t;
}

void twolevel_stop(struct twolevel *t)
{
	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_broadcast(&t->cond);
	serve_queue_wake_all(&t->waiting);
	pthread_mutex_unlock(&t->lock);
}

void twolevel_destroy(struct twolevel *t)
{
	if (!t)
		return;
	twolevel_stop(t);
	if (t->thread)
		pthread_join(t->thread, NULL);
	for (int i = 0; i < t->nchildren; i++)
		ledger_held_free(&t->children[i].serve.held);
	for (size_t i = 0; i < t->out.n; i++)
		free((void *)t->out.v[i].data);
	free(t->out.v);
	free(t->children);
	serve_ranges_free(&t->chunks);
	serve_ranges_free(&t->requeue);
	sched_destroy(t->cur);
	ledger_free(&t->ledger);
	work_close(&t->work);
	pthread_mutex_destroy(&t->lock);
	pthread_cond_destroy(&t->cond);
	free(t);
}

/* --- the children's calls ------------------------------------------------ */

int twolevel_withdraw(struct twolevel *t, const char *name, char *why)
{
	int rc, in = 0;

	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->nchildren && !in; i++)
		in = roster_names_match(t->children[i].info.name, name);
	rc = withdraw_below(&t->expected, t->leaves, t->registration_sent || t->resumed, in, name,
			    why);
	if (!rc)
		pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

int twolevel_register(struct twolevel *t, const char *name, const double *speeds, size_t n,
		      int *id, uint64_t *key, double *vpowers, struct dls_job *job, char *why)
{
	struct pending_reg p = {.speeds = speeds, .n = n, .vpowers = vpowers, .job = job};
	struct pending_reg **at;

	for (size_t k = 0; k < n; k++) {
		char who[96];

		snprintf(who, sizeof(who), "slave %zu of '%s'", k, name);
		if (roster_speed_check(speeds[k], who, why, HMASTER_WHY_LEN))
			return DLS_EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	if (n < 1 || t->registration_sent || t->leaves + (int)n > t->expected) {
		snprintf(why, HMASTER_WHY_LEN,
			 "this hmaster expects %d slaves and has registered %d%s", t->expected,
			 t->leaves, t->registration_sent ? " (registration is over)" : "");
		pthread_mutex_unlock(&t->lock);
		return DLS_ESTATE;
	}
	if (t->leaves == 0)
		t->first_register = dls_now();
	t->leaves += (int)n;
	p.id = t->nchildren++;
	t->children[p.id].info.id = p.id;
	t->children[p.id].key = dls_random_key();
	snprintf(t->children[p.id].info.name, sizeof(t->children[p.id].info.name), "%s", name);
	/* a child may itself be a two-level hmaster (slaves and hmasters both
	 * register through register_cluster): it may ask before delivering */
	t->children[p.id].serve.may_prefetch = 1;
	for (at = &t->regs; *at; at = &(*at)->next)
		;
	*at = &p;
	pthread_cond_broadcast(&t->cond);
	while (!p.done && !t->stop)
		pthread_cond_wait(&t->cond, &t->lock);
	if (!p.done) {
		p.rc = DLS_ESTATE;
		snprintf(p.why, sizeof(p.why), "the hmaster is stopping");
	}
	if (p.rc)
		snprintf(why, HMASTER_WHY_LEN, "%s", p.why);
	*id = p.id;
	*key = t->children[p.id].key;
	pthread_mutex_unlock(&t->lock);
	return p.rc;
}

/* Queues copies of child c's results for the parent and commits them; they
 * were checked (and marked) by ledger_check.  The lock is held. */
static int take_results(struct twolevel *t, int c, const struct dls_result *res, size_t n)
{
	struct child *ch = &t->children[c];

	if (t->out.n + n > t->out.cap) {
		size_t cap = (t->out.n + n) * 2;
		struct dls_result *v = realloc(t->out.v, cap * sizeof(*v));

		if (!v) {
			ledger_unmark(&t->ledger, res, n);
			return DLS_ENOMEM;
		}
		t->out.v = v;
		t->out.cap = cap;
	}
	for (size_t b = 0; b < n; b++) {
		void *copy = malloc(res[b].nbytes ? res[b].nbytes : 1);

		if (!copy) { /* nothing taken: the child sends them again */
			for (size_t k = t->out.n - b; k < t->out.n; k++)
				free((void *)t->out.v[k].data);
			t->out.n -= b;
			ledger_unmark(&t->ledger, res, n);
			return DLS_ENOMEM;
		}
		memcpy(copy, res[b].data, res[b].nbytes);
		t->out.v[t->out.n++] = (struct dls_result){res[b].start, res[b].count, copy,
							   res[b].nbytes, res[b].loop};
	}
	ledger_commit(&t->ledger, &ch->serve.held, res, n);
	if (n)
		pthread_cond_broadcast(&t->cond);
	return DLS_OK;
}

/* The workload's own check of results the ledger accepted (marked); on a
 * refusal the marks are undone.  The lock is held. */
static int check_values(struct twolevel *t, const struct dls_result *res, size_t n, char *why)
{
	int rc = t->work.w ? work_check_results(&t->work, res, n, why, HMASTER_WHY_LEN) : DLS_OK;

	if (rc)
		ledger_unmark(&t->ledger, res, n);
	return rc;
}

static int check_child(struct twolevel *t, int c, uint64_t key, char *why)
{
	if (c < 0 || c >= t->nchildren || !t->registration_sent || t->my_id < 0) {
		snprintf(why, HMASTER_WHY_LEN, "unknown slave id %d", c);
		return DLS_ENOENT;
	}
	if (roster_key_check(t->children[c].key, key, c, why, HMASTER_WHY_LEN))
		return DLS_EINVAL;
	if (t->children[c].info.state == DLS_SLAVE_LOST) {
		snprintf(why, HMASTER_WHY_LEN, "slave %d was declared lost; its work went to others",
			 c);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

/* check_child, taking back a child declared lost that shows its capability
 * (it was stopped or cut off; its work went to its siblings) unless this
 * hmaster stops: served fresh from now on, its results of the work it lost
 * dropped (admit_results).  The lock is held. */
static int admit_child(struct twolevel *t, int c, uint64_t key, char *why)
{
	int rc = check_child(t, c, key, why);
	struct child *ch;

	if (rc != DLS_ESTATE || t->stop || t->failed)
		return rc;
	ch = &t->children[c];
	ch->info.state = DLS_SLAVE_ACTIVE; /* its A_i counts in the next parent request */
	ch->readmitted = 1;
	serve_forget_replies(&ch->serve);
	log_warn("slave %d '%s' called again after it was declared lost: taken back (the work "
		 "it held had gone to its siblings)",
		 c, ch->info.name);
	return DLS_OK;
}

/* Child c's results as this hmaster takes them: all, or from a child taken
 * back those of work it still holds (serve_drop_lost_work; *kept to free),
 * with a line for what it dropped.  DLS_OK, or DLS_ENOMEM with why.  The
 * lock is held. */
static int admit_results(struct twolevel *t, int c, const struct dls_result **res, size_t *n,
			 struct dls_result **kept, char *why)
{
	int64_t dropped;
	int rc;

	*kept = NULL;
	if (!t->children[c].readmitted)
		return DLS_OK;
	rc = serve_drop_lost_work(&t->ledger, &t->children[c].serve, c, res, n, kept, &dropped,
				  why, HMASTER_WHY_LEN);
	if (!rc)
		serve_log_lost_work(c, dropped,
				    t->children[c].readmitted == BACK
					    ? "the parent's other children (this hmaster restarted)"
					    : "its siblings");
	return rc;
}

/* The next piece of the pool for child c, or 0 when the pool is empty. */
static int serve(struct twolevel *t, int c, int64_t acp, struct dls_reply *out)
{
	struct dls_range k;

	if (!serve_ranges_pop_for(&t->requeue, c, &k)) {
		while (!(t->cur && sched_remaining(t->cur) > 0) && t->chunks.n)
			if (start_chunk(t))
				return 0;
		if (!t->cur || sched_next(t->cur, c, acp, &k) != DLS_OK)
			return 0;
		k.start += t->cur_start;
	}
	if (ledger_hold(&t->children[c].serve.held, k.start, k.count))
		return 0;
	t->children[c].info.chunks++;
	t->children[c].info.iterations += k.count;
	out->kind = DLS_REPLY_WORK;
	out->start = k.start;
	out->count = k.count;
	t->local_chunks++;
	return 1;
}

int twolevel_request(struct twolevel *t, const struct dls_request *req, struct dls_reply *out,
		     char *why)
{
	struct serve_waiter w;
	struct child *ch;
	struct dls_request own = *req;
	struct dls_result *kept = NULL;
	int c = req->slave_id, rc, retry;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&t->lock);
	rc = admit_child(t, c, req->key, why);
	if (!rc)
		rc = admit_results(t, c, &own.results, &own.nresults, &kept, why);
	if (rc)
		goto done;
	req = &own;
	ch = &t->children[c];
	rc = serve_take(&t->ledger, &ch->serve, req, t->job.collect == DLS_COLLECT_PIGGYBACK, out,
			&retry, why, HMASTER_WHY_LEN);
	if (rc || retry)
		goto done;
	rc = check_values(t, req->results, req->nresults, why);
	if (!rc)
		rc = take_results(t, c, req->results, req->nresults);
	if (rc)
		goto done;
	ch->info.acp = req->acp;
	ch->info.times = req->times;
	times_bound(&ch->info.times);
	if (ch->info.state == DLS_SLAVE_REGISTERED) {
		ch->info.state = DLS_SLAVE_ACTIVE;
		if (t->first_requests++ == 0)
			t->first_request = dls_now();
	}
	/* in line in ACPSA order: only the head takes from the pool */
	serve_queue_join(&t->waiting, &w, req->acp);
	for (;;) {
		if (t->failed || t->stop) {
			snprintf(why, HMASTER_WHY_LEN, "%s",
				 t->failed ? t->failure : "the hmaster is stopping");
			rc = DLS_EREMOTE;
			break;
		}
		if (ch->info.state == DLS_SLAVE_LOST) {
			rc = check_child(t, c, req->key, why);
			break;
		}
		if (t->first_sent && t->waiting.head == &w && serve(t, c, req->acp, out))
			break;
		if (t->parent_done) {
			out->kind = DLS_REPLY_DONE;
			ch->info.state = DLS_SLAVE_DONE;
			break;
		}
		if (t->first_sent && !t->in_flight && dls_now() < t->wait_until &&
		    pool_left(t) == 0) {
			out->kind = DLS_REPLY_WAIT;
			out->wait_ms = (int)((t->wait_until - dls_now()) * 1000) + 1;
			break;
		}
		t->need = pool_left(t) == 0;
		pthread_cond_broadcast(&t->cond); /* the forwarder */
		dls_cond_wait_until(&w.turn, &t->lock, DLS_NEVER);
	}
	serve_queue_leave(&t->waiting, &w); /* the next in line */
	/* the forwarder (time to prefetch?) and twolevel_wait_finished */
	pthread_cond_broadcast(&t->cond);
	if (!rc)
		serve_remember(&ch->serve, req, out);
done:
	pthread_mutex_unlock(&t->lock);
	free(kept);
	return rc;
}

void twolevel_keep_record(struct twolevel *t, const char *path)
{
	pthread_mutex_lock(&t->lock);
	snprintf(t->record, sizeof(t->record), "%s", path);
	pthread_mutex_unlock(&t->lock);
}

/* Its children as the record has them: registered, not back yet.  The lock is held. */
static void restore_children(struct twolevel *t, const struct twolevel_record *r)
{
	for (int i = 0; i < r->nchildren; i++) {
		struct child *ch = &t->children[i];

		ch->info.id = i;
		snprintf(ch->info.name, sizeof(ch->info.name), "%s", r->children[i].name);
		ch->info.vpower = r->children[i].vpower;
		ch->info.state = DLS_SLAVE_REGISTERED;
		ch->key = r->children[i].key;
		ch->readmitted = BACK; /* what it sends of its old work is dropped */
		ch->serve.may_prefetch = 1;
	}
	t->nchildren = r->nchildren;
	t->leaves = r->leaves;
}

int twolevel_resume(struct twolevel *t, const char *path, char *why)
{
	struct twolevel_record r;
	struct dls_job job;
	char lost_why[HMASTER_WHY_LEN];
	double vpower = 0;
	int rc = twolevel_record_read(path, &r, why, HMASTER_WHY_LEN);

	if (!rc && (strcmp(r.name, t->name) || r.nslaves != t->nslaves ||
		    r.nchildren > t->nslaves)) {
		snprintf(why, HMASTER_WHY_LEN,
			 "record '%s' is hmaster '%s''s for %d slaves, not this one's ('%s', %d)",
			 path, r.name, r.nslaves, t->name, t->nslaves);
		rc = DLS_EINVAL;
	}
	if (!rc) {
		/* the work it held died with it: requeued now, not once the
		 * parent's pings find out; then the parent takes it back */
		if (t->parent.slave_lost(t->parent.ctx, r.my_id, r.my_key,
					 "its hmaster restarted: the work it held is gone", lost_why,
					 sizeof(lost_why)))
			log_info("the parent had found this hmaster lost already (%s)", lost_why);
		rc = t->parent.rejoin(t->parent.ctx, r.my_id, r.my_key, &vpower, &job, why,
				      HMASTER_WHY_LEN);
	}
	pthread_mutex_lock(&t->lock);
	if (!rc && t->registration_sent) {
		snprintf(why, HMASTER_WHY_LEN, "resume: this hmaster registered already");
		rc = DLS_ESTATE;
	}
	if (!rc)
		rc = accept_job(t, r.my_id, r.my_key, &job, why);
	if (!rc) {
		restore_children(t, &r);
		t->registration_sent = t->first_sent = t->resumed = 1;
		snprintf(t->record, sizeof(t->record), "%s", path);
		log_warn("resumed as child %d of the parent from '%s': %d children (%d slaves) may "
			 "rejoin",
			 r.my_id, path, r.nchildren, r.leaves);
	}
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
	twolevel_record_free(&r);
	return rc;
}

int twolevel_rejoin(struct twolevel *t, int child, uint64_t key, double *vpower,
		    struct dls_job *job, char *why)
{
	int rc;

	pthread_mutex_lock(&t->lock);
	rc = admit_child(t, child, key, why); /* lost: taken back */
	if (!rc) {
		struct child *ch = &t->children[child];

		*vpower = ch->info.vpower;
		*job = t->job;
		if (t->resumed && !ch->back) {
			int back = 0;

			ch->back = 1;
			for (int i = 0; i < t->nchildren; i++)
				back += t->children[i].back;
			log_warn("slave %d '%s' rejoined this resumed hmaster (%d of %d)", child,
				 ch->info.name, back, t->nchildren);
		}
	}
	pthread_mutex_unlock(&t->lock);
	return rc;
}

int twolevel_resumed_idle(struct twolevel *t)
{
	int idle;

	pthread_mutex_lock(&t->lock);
	idle = t->resumed && !t->out.n && !t->in_flight;
	for (int i = 0; idle && i < t->nchildren; i++)
		idle = t->children[i].info.state != DLS_SLAVE_ACTIVE;
	pthread_mutex_unlock(&t->lock);
	return idle;
}

int twolevel_check_caller(struct twolevel *t, int child, uint64_t key, char *why)
{
	int rc;

	pthread_mutex_lock(&t->lock);
	rc = check_child(t, child, key, why);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

uint64_t twolevel_child_key(struct twolevel *t, int child)
{
	uint64_t key = 0;

	pthread_mutex_lock(&t->lock);
	if (child >= 0 && child < t->nchildren)
		key = t->children[child].key;
	pthread_mutex_unlock(&t->lock);
	return key;
}

int twolevel_submit(struct twolevel *t, int child, uint64_t key, const struct dls_result *res,
		    size_t n, char *why)
{
	struct dls_result *kept = NULL;
	int64_t total;
	int rc;

	pthread_mutex_lock(&t->lock);
	rc = admit_child(t, child, key, why);
	if (!rc)
		rc = admit_results(t, child, &res, &n, &kept, why);
	if (!rc)
		rc = ledger_check(&t->ledger, &t->children[child].serve.held, child, res, n,
				  &total, why, HMASTER_WHY_LEN);
	if (!rc)
		rc = check_values(t, res, n, why);
	if (!rc)
		rc = take_results(t, child, res, n);
	pthread_mutex_unlock(&t->lock);
	free(kept);
	return rc;
}

int twolevel_child_lost(struct twolevel *t, int child, const char *cause)
{
	int64_t moved;

	pthread_mutex_lock(&t->lock);
	if (child < 0 || child >= t->nchildren || t->children[child].info.state == DLS_SLAVE_LOST ||
	    !t->ledger.state) {
		pthread_mutex_unlock(&t->lock);
		return DLS_ENOENT;
	}
	t->children[child].info.state = DLS_SLAVE_LOST;
	moved = serve_release(&t->ledger, &t->children[child].serve, child, &t->requeue);
	log_warn("slave %d '%s' lost below this hmaster (%s): %lld undelivered iterations go to "
		 "its siblings",
		 child, t->children[child].info.name, cause, (long long)moved);
	pthread_cond_broadcast(&t->cond);
	serve_queue_wake_all(&t->waiting); /* its own request, and work for the head */
	pthread_mutex_unlock(&t->lock);
	return DLS_OK;
}

size_t twolevel_children_holding(struct twolevel *t, int *ids, size_t max)
{
	size_t n = 0;

	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->nchildren && n < max; i++)
		if (t->children[i].serve.held.n > 0 && t->children[i].info.state != DLS_SLAVE_LOST)
			ids[n++] = i;
	pthread_mutex_unlock(&t->lock);
	return n;
}

int twolevel_wait_finished(struct twolevel *t, int timeout_ms)
{
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_ETIMEDOUT;

	pthread_mutex_lock(&t->lock);
	for (;;) {
		int left = !t->registration_sent;

		for (int i = 0; i < t->nchildren; i++)
			left += t->children[i].info.state != DLS_SLAVE_DONE &&
				t->children[i].info.state != DLS_SLAVE_LOST;
		if ((!left && !t->out.n) || t->failed) {
			rc = t->failed ? DLS_EREMOTE : DLS_OK;
			break;
		}
		if (dls_now() >= deadline)
			break;
		dls_cond_wait_until(&t->cond, &t->lock, deadline);
	}
	pthread_mutex_unlock(&t->lock);
	return rc;
}

void twolevel_report(struct twolevel *t, FILE *out)
{
	pthread_mutex_lock(&t->lock);
	fprintf(out, "%s: %d slaves, %ld requests to the parent, %ld local chunks\n", t->name,
		t->nchildren, t->parent_requests, t->local_chunks);
	fprintf(out, "  PE name                      V  chunks iterations  T_com+wait/T_comp (s)  state\n");
	for (int i = 0; i < t->nchildren; i++) {
		const struct child *c = &t->children[i];

		fprintf(out, "  %2d %-20s %6.2f %7lld %10lld %11.2f/%-10.2f %s\n", i, c->info.name,
			c->info.vpower, (long long)c->info.chunks, (long long)c->info.iterations,
			c->info.times.t_comwait, c->info.times.t_comp,
			dls_slave_state_name(c->info.state));
	}
	pthread_mutex_unlock(&t->lock);
}

int twolevel_snapshot(struct twolevel *t, struct dls_status *out)
{
	int rc = DLS_OK;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&t->lock);
	out->slaves = calloc((size_t)t->nchildren + 1, sizeof(*out->slaves));
	if (!out->slaves) {
		rc = DLS_ENOMEM;
		goto done;
	}
	out->scheme = t->registration_sent && t->job.scheme.kind >= 0
			      ? sched_kind_name((enum sched_kind)t->job.scheme.kind)
			      : "?";
	out->iterations = t->received;
	out->delivered = t->ledger.ndelivered;
	out->started = t->received > 0;
	out->done = t->parent_done;
	out->elapsed = t->received ? dls_now() - t->t_first : 0;
	out->nslaves = t->nchildren;
	for (int i = 0; i < t->nchildren; i++) {
		out->slaves[i] = t->children[i].info;
		out->slaves[i].held = ledger_held_undelivered(&t->children[i].serve.held);
		out->assigned += t->children[i].info.iterations;
	}
done:
	pthread_mutex_unlock(&t->lock);
	return rc;
}
