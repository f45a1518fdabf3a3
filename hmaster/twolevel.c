/*
 * twolevel.c - an hmaster's two-level mode (twolevel_internal.h): a local
 * pool of the parent's chunks, the scheme run over each with the children's
 * A_i, the children's calls, and the resume of one that died.  The
 * forwarding thread that feeds the pool and sends results up is
 * twolevel_up.c.  Fills hmaster_twolevel_mode.
 */
#include "twolevel_internal.h"
#include "withdraw_below.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "roster.h"
#include "run_auth.h"
#include "serve_request.h"
#include "times_bound.h"
#include "twolevel_record.h"

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

/* --- lifecycle ----------------------------------------------------------- */

static void twolevel_destroy(void *core);

static void *twolevel_create(const char *name, int nslaves, int register_timeout_ms,
			     double link_latency_us, const struct hmaster_parent *parent, int *err)
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
	if (pthread_create(&t->thread, NULL, twolevel_forwarder, t)) {
		t->thread = 0;
		twolevel_destroy(t);
		return NULL;
	}
	*err = DLS_OK;
	return t;
}

static void twolevel_stop(void *core)
{
	struct twolevel *t = core;

	pthread_mutex_lock(&t->lock);
	t->stop = 1;
	pthread_cond_broadcast(&t->cond);
	serve_queue_wake_all(&t->waiting);
	pthread_mutex_unlock(&t->lock);
}

static void twolevel_destroy(void *core)
{
	struct twolevel *t = core;

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

static int twolevel_withdraw(void *core, const char *name, char *why)
{
	struct twolevel *t = core;
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

/* The child registers its n slaves under names[0]; ids[0] and keys[0]:
 * its id here and the capability issued to it. */
static int twolevel_register_below(void *core, const char *const *names, const double *speeds,
				   size_t n, int *ids, uint64_t *keys, double *vpowers,
				   struct dls_job *job, char *why)
{
	struct twolevel *t = core;
	const char *name = names[0];
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
	ids[0] = p.id;
	keys[0] = t->children[p.id].key;
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
	if (t->children[c].loop_told != t->loop) { /* its first chunk of this loop */
		out->has_job = 1;
		out->job = t->job;
		t->children[c].loop_told = t->loop;
	}
	t->local_chunks++;
	return 1;
}

/* One child's request on its way through the hmaster's steps
 * (serve_request). */
struct tl_call {
	struct twolevel *t;
	struct dls_result *this_loop; /* its results of this loop, when some were older */
	struct dls_result *kept;      /* and of work it still holds, when taken back */
};

static int call_admit(void *ctx, int id, uint64_t key, char *why)
{
	return admit_child(((struct tl_call *)ctx)->t, id, key, why);
}

/* The results of the current loop (serve_current_loop), and of a child
 * taken back only those of work it still holds (admit_results). */
static int call_keep(void *ctx, int id, const struct dls_result **res, size_t *n, char *why)
{
	struct tl_call *c = ctx;
	size_t dropped;
	int rc = serve_current_loop(c->t->loop, id, res, n, &c->this_loop, &dropped, why,
				    HMASTER_WHY_LEN);

	if (rc)
		return rc;
	if (dropped)
		log_debug("slave %d: %zu result blocks of loops before loop %u dropped", id, dropped,
			  (unsigned)c->t->loop);
	return admit_results(c->t, id, res, n, &c->kept, why);
}

static int call_take(void *ctx, const struct dls_request *r, struct dls_reply *out, int *retry,
		     char *why)
{
	struct twolevel *t = ((struct tl_call *)ctx)->t;
	int rc = serve_take(&t->ledger, &t->children[r->slave_id].serve, r,
			    t->job.collect == DLS_COLLECT_PIGGYBACK, out, retry, why, HMASTER_WHY_LEN);

	if (!rc && !*retry)
		rc = check_values(t, r->results, r->nresults, why);
	return rc;
}

/* The results go up (take_results); the child's A_i and times kept. */
static int call_record(void *ctx, const struct dls_request *r, char *why)
{
	struct twolevel *t = ((struct tl_call *)ctx)->t;
	struct child *ch = &t->children[r->slave_id];
	int rc = take_results(t, r->slave_id, r->results, r->nresults);

	(void)why;
	if (rc)
		return rc;
	ch->info.acp = r->acp;
	ch->info.times = r->times;
	times_bound(&ch->info.times);
	if (ch->info.state == DLS_SLAVE_REGISTERED) {
		ch->info.state = DLS_SLAVE_ACTIVE;
		if (t->first_requests++ == 0)
			t->first_request = dls_now();
	}
	return DLS_OK;
}

/* In line in ACPSA order, only the head takes from the pool; it waits
 * while the pool refills from the parent. */
static int call_serve(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why)
{
	struct twolevel *t = ((struct tl_call *)ctx)->t;
	struct child *ch = &t->children[r->slave_id];
	struct serve_waiter w;
	int rc = DLS_OK;

	serve_queue_join(&t->waiting, &w, r->acp);
	for (;;) {
		if (t->failed || t->stop) {
			snprintf(why, HMASTER_WHY_LEN, "%s",
				 t->failed ? t->failure : "the hmaster is stopping");
			rc = DLS_EREMOTE;
			break;
		}
		if (ch->info.state == DLS_SLAVE_LOST) {
			rc = check_child(t, r->slave_id, r->key, why);
			break;
		}
		if (t->first_sent && t->waiting.head == &w && serve(t, r->slave_id, r->acp, out))
			break;
		if (t->parent_done) {
			out->kind = DLS_REPLY_DONE;
			ch->info.state = DLS_SLAVE_DONE;
			break;
		}
		if (t->first_sent && !t->in_flight && dls_now() < t->wait_until &&
		    twolevel_pool_left(t) == 0) {
			out->kind = DLS_REPLY_WAIT;
			out->wait_ms = (int)((t->wait_until - dls_now()) * 1000) + 1;
			break;
		}
		t->need = twolevel_pool_left(t) == 0;
		pthread_cond_broadcast(&t->cond); /* the forwarder */
		dls_cond_wait_until(&w.turn, &t->lock, DLS_NEVER);
	}
	serve_queue_leave(&t->waiting, &w); /* the next in line */
	/* the forwarder (time to prefetch?) and twolevel_wait_finished */
	pthread_cond_broadcast(&t->cond);
	return rc;
}

static void call_remember(void *ctx, const struct dls_request *r, const struct dls_reply *out)
{
	struct twolevel *t = ((struct tl_call *)ctx)->t;

	serve_remember(&t->children[r->slave_id].serve, r, out);
}

static const struct serve_steps twolevel_steps = {
	.admit = call_admit,
	.keep = call_keep,
	.take = call_take,
	.record = call_record,
	.serve = call_serve,
	.remember = call_remember,
	.after = NULL,
};

/* Serves one child's request from the local pool (blocks while it refills). */
static int request_one(struct twolevel *t, const struct dls_request *req, struct dls_reply *out,
		       char *why)
{
	struct tl_call c = {t, NULL, NULL};
	int rc;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&t->lock);
	rc = serve_request(&twolevel_steps, &c, req, out, why);
	pthread_mutex_unlock(&t->lock);
	free(c.this_loop);
	free(c.kept);
	return rc;
}

/* Each request is served from the pool in turn. */
static int twolevel_request(void *core, const struct dls_request *reqs, size_t n,
			    struct dls_reply *out, char *why)
{
	int rc = DLS_OK;

	for (size_t i = 0; i < n && !rc; i++)
		rc = request_one(core, &reqs[i], &out[i], why);
	return rc;
}

static void twolevel_keep_record(void *core, const char *path)
{
	struct twolevel *t = core;

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

static int twolevel_resume(void *core, const char *path, char *why)
{
	struct twolevel *t = core;
	struct twolevel_record r;
	struct dls_job job;
	char lost_why[HMASTER_WHY_LEN];
	double vpower = 0;
	int rc;

	if (!path) {
		snprintf(why, HMASTER_WHY_LEN,
			 "a two-level hmaster resumes from the record its predecessor kept "
			 "(--record FILE)");
		return DLS_EINVAL;
	}
	rc = twolevel_record_read(path, &r, why, HMASTER_WHY_LEN);
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
		rc = twolevel_accept_job(t, r.my_id, r.my_key, &job, why);
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

static int twolevel_rejoin(void *core, int child, uint64_t key, double *vpower,
			   struct dls_job *job, char *why)
{
	struct twolevel *t = core;
	int rc;

	pthread_mutex_lock(&t->lock);
	rc = admit_child(t, child, key, why); /* lost: taken back */
	if (!rc) {
		struct child *ch = &t->children[child];

		*vpower = ch->info.vpower;
		*job = t->job;
		if (t->resumed) /* it computes the loop it was in: no job to pass on */
			ch->loop_told = t->loop;
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

static int twolevel_resumed_idle(void *core)
{
	struct twolevel *t = core;
	int idle;

	pthread_mutex_lock(&t->lock);
	idle = t->resumed && !t->out.n && !t->in_flight;
	for (int i = 0; idle && i < t->nchildren; i++)
		idle = t->children[i].info.state != DLS_SLAVE_ACTIVE;
	pthread_mutex_unlock(&t->lock);
	return idle;
}

/* A resumed two-level hmaster refuses every registration: its children rejoin. */
static int twolevel_may_register(void *core, char *why)
{
	struct twolevel *t = core;
	int resumed;

	pthread_mutex_lock(&t->lock);
	resumed = t->resumed;
	pthread_mutex_unlock(&t->lock);
	if (!resumed)
		return DLS_OK;
	snprintf(why, HMASTER_WHY_LEN, HMASTER_RESUMED_REFUSES);
	return DLS_ESTATE;
}

static int twolevel_check_caller(void *core, int child, uint64_t key, char *why)
{
	struct twolevel *t = core;
	int rc;

	pthread_mutex_lock(&t->lock);
	rc = check_child(t, child, key, why);
	pthread_mutex_unlock(&t->lock);
	return rc;
}

static uint64_t twolevel_child_key(void *core, int child)
{
	struct twolevel *t = core;
	uint64_t key = 0;

	pthread_mutex_lock(&t->lock);
	if (child >= 0 && child < t->nchildren)
		key = t->children[child].key;
	pthread_mutex_unlock(&t->lock);
	return key;
}

static int twolevel_submit(void *core, int child, uint64_t key, const struct dls_result *res,
			   size_t n, char *why)
{
	struct twolevel *t = core;
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

static int twolevel_slave_lost(void *core, int child, const char *cause)
{
	struct twolevel *t = core;
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

static size_t twolevel_slaves_holding(void *core, int *ids, size_t max)
{
	struct twolevel *t = core;
	size_t n = 0;

	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->nchildren && n < max; i++)
		if (t->children[i].serve.held.n > 0 && t->children[i].info.state != DLS_SLAVE_LOST)
			ids[n++] = i;
	pthread_mutex_unlock(&t->lock);
	return n;
}

static int twolevel_wait_finished(void *core, int timeout_ms)
{
	struct twolevel *t = core;
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

static void twolevel_report(void *core, FILE *out)
{
	struct twolevel *t = core;

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

static int twolevel_snapshot(void *core, struct dls_status *out)
{
	struct twolevel *t = core;
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

const struct hmaster_mode_ops hmaster_twolevel_mode = {
    .mode = HMASTER_TWOLEVEL,
    .create = twolevel_create,
    .stop = twolevel_stop,
    .destroy = twolevel_destroy,
    .withdraw = twolevel_withdraw,
    .keep_record = twolevel_keep_record,
    .resume = twolevel_resume,
    .rejoin = twolevel_rejoin,
    .resumed_idle = twolevel_resumed_idle,
    .may_register = twolevel_may_register,
    .register_below = twolevel_register_below,
    .request = twolevel_request,
    .submit = twolevel_submit,
    .check_caller = twolevel_check_caller,
    .child_key = twolevel_child_key,
    .slave_lost = twolevel_slave_lost,
    .slaves_holding = twolevel_slaves_holding,
    .wait_finished = twolevel_wait_finished,
    .snapshot = twolevel_snapshot,
    .report = twolevel_report,
};
