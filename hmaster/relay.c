/*
 * relay.c - an hmaster's relay mode (hmaster.h): to its parent it is a
 * group of slaves, to its children a master.  It merges what passes
 * through it (Chronopoulos et al. 2002 Remark 2): its children's
 * registrations go up as one message and their V_i come down; the requests
 * pending when it forwards (with their piggy-backed results) go up as one
 * message and the replies come down, split per slave.  A batch is whatever
 * is pending when the forwarding thread is free: it never waits for every
 * child (docs/schemes.md 5).  Fills hmaster_relay_mode.
 */
#include "hmaster_mode.h"
#include "withdraw_below.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "roster.h"

/* A child's call waiting for the next merged message. */
struct pending {
	const struct dls_request *reqs; /* requests (NULL for a registration) */
	const char *const *names;	/* registration */
	const double *speeds;
	size_t n;
	struct dls_reply *out;
	int *ids;
	uint64_t *keys;
	double *vpowers;
	struct dls_job *job;
	int rc, done;
	char why[HMASTER_WHY_LEN];
	struct pending *next;
};

enum slave_state { S_FREE, S_HOLDING, S_FINISHED };

struct relay {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work for the forwarder, answers for the children */
	struct hmaster_parent parent;
	int nslaves, registered, register_timeout_ms, registration_sent, stop;
	double link_latency_s; /* emulated one-way latency to the parent */
	char name[64];
	double first_register;
	/* The first merged request carries the first request of every slave
	 * below (the master's start gate waits for them all; a partial first
	 * message would hold the forwarder at the gate while the rest queue
	 * here).  Afterwards, whatever is pending goes up. */
	int first_sent;
	int resumed; /* the successor of a relay hmaster that died: slaves rejoin */
	int rejoins; /* rejoins begun (resumed): then no slave registers */
	size_t pending_requests;
	double first_request;
	struct pending *regs, *reqs; /* FIFO lists */
	pthread_t thread;
	int *ids;		     /* global ids seen below (registration order) */
	uint64_t *keys;		     /* their capabilities (the parent's), by index in ids */
	enum slave_state *state;     /* by index in ids */
	long messages, requests;
};

static int index_of(const struct relay *h, int id)
{
	for (int i = 0; i < h->registered; i++)
		if (h->ids[i] == id)
			return i;
	return -1;
}

/* Is the slave at index `at` of ids (-1: none) the one showing key?  The lock is held. */
static int check_key(const struct relay *h, int at, int id, uint64_t key, char *why)
{
	if (at < 0) {
		snprintf(why, HMASTER_WHY_LEN, "slave %d is not below this hmaster", id);
		return DLS_ENOENT;
	}
	return roster_key_check(h->keys[at], key, id, why, HMASTER_WHY_LEN);
}

static void append(struct pending **list, struct pending *p)
{
	while (*list)
		list = &(*list)->next;
	p->next = NULL;
	*list = p;
}

/* Sends every registration up as one message (Chronopoulos et al. 2002 Remark 2). */
static void forward_registrations(struct relay *h)
{
	struct pending *batch = h->regs, *p;
	size_t n = 0, k = 0;
	char **names;
	double *speeds, *vp;
	int *ids, rc;
	uint64_t *keys;
	struct dls_job job;
	char why[HMASTER_WHY_LEN] = "";

	h->regs = NULL;
	h->registration_sent = 1;
	for (p = batch; p; p = p->next)
		n += p->n;
	names = calloc(n, sizeof(*names));
	speeds = calloc(n, sizeof(*speeds));
	vp = calloc(n, sizeof(*vp));
	ids = calloc(n, sizeof(*ids));
	keys = calloc(n, sizeof(*keys));
	for (p = batch; p && names && speeds; p = p->next)
		for (size_t i = 0; i < p->n; i++, k++) {
			/* the path below the master: hmaster.0.1/slave.3 */
			if (asprintf(&names[k], "%s/%s", h->name, p->names[i]) < 0)
				names[k] = NULL;
			speeds[k] = p->speeds[i];
		}
	pthread_mutex_unlock(&h->lock);
	rc = !names || !speeds || !vp || !ids || !keys
		     ? DLS_ENOMEM
		     : h->parent.register_group(h->parent.ctx, (const char *const *)names, speeds, n,
						ids, keys, vp, &job, why, sizeof(why));
	pthread_mutex_lock(&h->lock);
	k = 0;
	for (p = batch; p; p = p->next) {
		p->rc = rc;
		snprintf(p->why, sizeof(p->why), "%s", why);
		for (size_t i = 0; !rc && i < p->n; i++, k++) {
			p->ids[i] = ids[k];
			p->keys[i] = keys[k];
			p->vpowers[i] = vp[k];
			h->ids[h->registered - (int)n + (int)k] = ids[k];
			h->keys[h->registered - (int)n + (int)k] = keys[k];
		}
		if (!rc)
			*p->job = job;
		p->done = 1;
	}
	h->messages++;
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(speeds);
	free(vp);
	free(ids);
	free(keys);
	pthread_cond_broadcast(&h->cond);
}

/* Sends every pending request up as one message; splits the replies. */
static void forward_requests(struct relay *h)
{
	struct pending *batch = h->reqs, *p;
	struct dls_request *reqs;
	struct dls_reply *out;
	size_t n = 0, k = 0;
	char why[HMASTER_WHY_LEN] = "";
	int rc;

	h->reqs = NULL;
	h->first_sent = 1;
	h->pending_requests = 0;
	for (p = batch; p; p = p->next)
		n += p->n;
	reqs = calloc(n, sizeof(*reqs));
	out = calloc(n, sizeof(*out));
	for (p = batch; p && reqs; p = p->next)
		for (size_t i = 0; i < p->n; i++)
			reqs[k++] = p->reqs[i];
	/* The message is served in its order: put it in ACPSA order (decreasing
	 * A_i, stable), as the flat master serves requests pending together. */
	for (size_t i = 1; reqs && i < n; i++) {
		struct dls_request r = reqs[i];
		size_t j = i;

		while (j > 0 && reqs[j - 1].acp < r.acp) {
			reqs[j] = reqs[j - 1];
			j--;
		}
		reqs[j] = r;
	}
	pthread_mutex_unlock(&h->lock);
	dls_sleep_emulated(2 * h->link_latency_s); /* the message and its reply travel */
	rc = !reqs || !out ? DLS_ENOMEM
			   : h->parent.request_group(h->parent.ctx, reqs, n, out, why, sizeof(why));
	pthread_mutex_lock(&h->lock);
	k = 0;
	for (p = batch; p; p = p->next) {
		p->rc = rc;
		snprintf(p->why, sizeof(p->why), "%s", why);
		for (size_t i = 0; i < p->n; i++, k++) {
			int at = index_of(h, p->reqs[i].slave_id);
			size_t m = 0;

			if (rc)
				continue;
			while (m + 1 < n && reqs[m].slave_id != p->reqs[i].slave_id)
				m++; /* its place in the sorted message */
			p->out[i] = out[m];
			/* one request of a slave on its way at a time: a merged
			 * message carries each slave once */
			p->out[i].depth = 1;
			if (at >= 0)
				h->state[at] = out[m].kind == DLS_REPLY_WORK   ? S_HOLDING
					       : out[m].kind == DLS_REPLY_DONE ? S_FINISHED
									       : S_FREE;
		}
		p->done = 1;
	}
	h->messages++;
	h->requests += (long)n;
	free(reqs);
	free(out);
	pthread_cond_broadcast(&h->cond);
}

static void *forwarder(void *arg)
{
	struct relay *h = arg;

	pthread_mutex_lock(&h->lock);
	while (!h->stop) {
		double now = dls_now();
		int due = h->regs && (h->registered == h->nslaves ||
				      now >= h->first_register + h->register_timeout_ms / 1000.0);

		int gate = h->first_sent || (int)h->pending_requests >= h->registered ||
			   now >= h->first_request + h->register_timeout_ms / 1000.0;

		if (due)
			forward_registrations(h);
		else if (h->reqs && gate)
			forward_requests(h);
		else
			dls_cond_wait_until(&h->cond, &h->lock,
					    now + (h->regs || h->reqs ? 0.02 : 1.0));
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Is `name` among the registrations waiting to go up?  Under h->lock. */
static int registered_below(const struct relay *h, const char *name)
{
	for (const struct pending *p = h->regs; p; p = p->next)
		for (size_t k = 0; k < p->n; k++)
			if (roster_names_match(p->names[k], name))
				return 1;
	return 0;
}

static int relay_withdraw(void *core, const char *name, char *why)
{
	struct relay *h = core;
	int rc;

	pthread_mutex_lock(&h->lock);
	/* nslaves is what it awaits; the arrays keep their size */
	rc = withdraw_below(&h->nslaves, h->registered, h->registration_sent || h->resumed,
			    registered_below(h, name), name, why);
	if (!rc)
		pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static void relay_destroy(void *core);

static void *relay_create(const char *name, int nslaves, int register_timeout_ms,
			  double link_latency_us, const struct hmaster_parent *parent, int *err)
{
	struct relay *h;

	*err = DLS_EINVAL;
	if (nslaves < 1 || nslaves > 1 << 16 || register_timeout_ms < 1)
		return NULL;
	*err = DLS_ENOMEM;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ids = calloc((size_t)nslaves, sizeof(*h->ids));
	h->state = calloc((size_t)nslaves, sizeof(*h->state));
	h->keys = calloc((size_t)nslaves, sizeof(*h->keys));
	if (!h->ids || !h->state || !h->keys)
		goto fail;
	if (pthread_mutex_init(&h->lock, NULL))
		goto fail;
	if (dls_cond_init(&h->cond)) {
		pthread_mutex_destroy(&h->lock);
		goto fail;
	}
	h->parent = *parent;
	h->nslaves = nslaves;
	h->register_timeout_ms = register_timeout_ms;
	h->link_latency_s = link_latency_us * 1e-6;
	snprintf(h->name, sizeof(h->name), "%s", name);
	if (pthread_create(&h->thread, NULL, forwarder, h)) {
		h->thread = 0; /* not started: nothing to join */
		relay_destroy(h);
		return NULL;
	}
	*err = DLS_OK;
	return h;

fail:
	free(h->ids);
	free(h->state);
	free(h->keys);
	free(h);
	return NULL;
}

static void relay_stop(void *core)
{
	struct relay *h = core;

	pthread_mutex_lock(&h->lock);
	h->stop = 1;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

static void relay_destroy(void *core)
{
	struct relay *h = core;

	relay_stop(h);
	if (h->thread)
		pthread_join(h->thread, NULL);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
	free(h->ids);
	free(h->state);
	free(h->keys);
	free(h);
}

/* Needs none: the parent keeps every slave's id and capability. */
static void relay_keep_record(void *core, const char *path)
{
	(void)core;
	(void)path;
}

/* Nothing to restore: its slaves rejoin with what the parent issued them. */
static int relay_resume(void *core, const char *record, char *why)
{
	struct relay *h = core;

	(void)record;
	(void)why;
	pthread_mutex_lock(&h->lock);
	h->resumed = h->registration_sent = h->first_sent = 1;
	pthread_mutex_unlock(&h->lock);
	return DLS_OK;
}

static int relay_rejoin(void *core, int slave_id, uint64_t key, double *vpower,
			struct dls_job *job, char *why)
{
	struct relay *h = core;
	int at, rc;

	pthread_mutex_lock(&h->lock);
	if (!h->resumed) {
		snprintf(
		    why, HMASTER_WHY_LEN,
		    "rejoin: this relay hmaster did not resume (it is the first of its name, or "
		    "its slaves registered afresh): its slaves are the ones that registered "
		    "with it");
		pthread_mutex_unlock(&h->lock);
		return DLS_ESTATE;
	}
	h->rejoins++;
	at = index_of(h, slave_id);
	rc = at >= 0 ? check_key(h, at, slave_id, key, why) : DLS_OK;
	if (!rc && at < 0 && h->registered >= h->nslaves) {
		snprintf(why, HMASTER_WHY_LEN,
			 "rejoin(%d): this hmaster expects %d slaves and all %d rejoined", slave_id,
			 h->nslaves, h->registered);
		rc = DLS_ESTATE;
	}
	pthread_mutex_unlock(&h->lock);
	if (rc)
		return rc;
	/* the parent issued the key: it alone can say whether it is this slave's */
	rc = h->parent.rejoin(h->parent.ctx, slave_id, key, vpower, job, why, HMASTER_WHY_LEN);
	if (rc)
		return rc;
	pthread_mutex_lock(&h->lock);
	at = index_of(h, slave_id);
	if (at < 0 && h->registered < h->nslaves) { /* (a concurrent twin may have won) */
		at = h->registered++;
		h->ids[at] = slave_id;
		h->keys[at] = key;
	}
	if (at >= 0)
		h->state[at] = S_FREE;
	else
		rc = DLS_ESTATE;
	if (rc)
		snprintf(why, HMASTER_WHY_LEN, "rejoin(%d): all %d slaves rejoined", slave_id,
			 h->nslaves);
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	if (!rc)
		log_warn("slave %d rejoined this resumed hmaster (%d of %d)", slave_id,
			 h->registered, h->nslaves);
	return rc;
}

static int relay_resumed_idle(void *core)
{
	struct relay *h = core;
	int idle;

	pthread_mutex_lock(&h->lock);
	idle = h->resumed && !h->reqs;
	for (int i = 0; idle && i < h->registered; i++)
		idle = h->state[i] == S_FINISHED;
	pthread_mutex_unlock(&h->lock);
	return idle;
}

/* A resumed relay decides when a slave registers (relay_register_below). */
static int relay_may_register(void *core, char *why)
{
	(void)core;
	(void)why;
	return DLS_OK;
}

/* Queues p and waits for the forwarder's answer; the lock is held. */
static int wait_answer(struct relay *h, struct pending *p, char *why)
{
	pthread_cond_broadcast(&h->cond);
	while (!p->done && !h->stop)
		pthread_cond_wait(&h->cond, &h->lock);
	if (!p->done) {
		snprintf(why, HMASTER_WHY_LEN, "the hmaster is stopping");
		return DLS_ESTATE;
	}
	if (p->rc)
		snprintf(why, HMASTER_WHY_LEN, "%s", p->why);
	return p->rc;
}

static int relay_register_below(void *core, const char *const *names, const double *speeds,
				size_t n, int *ids, uint64_t *keys, double *vpowers,
				struct dls_job *job, char *why)
{
	struct relay *h = core;
	struct pending p = {.names = names, .speeds = speeds, .n = n, .ids = ids, .keys = keys,
			    .vpowers = vpowers, .job = job};
	int rc;

	for (size_t k = 0; k < n; k++) {
		char who[96];

		snprintf(who, sizeof(who), "'%s'", names[k]);
		if (roster_speed_check(speeds[k], who, why, HMASTER_WHY_LEN))
			return DLS_EINVAL;
	}
	pthread_mutex_lock(&h->lock);
	if (h->resumed && !h->rejoins) {
		/* Nobody rejoined: the relay this one succeeds died before it
		 * registered its slaves with the parent (it sends them up as one
		 * message, once all are in), so none has an id, and they register
		 * again.  Slaves with ids rejoin instead, and then none registers. */
		log_warn("a slave registers before any rejoined: the relay this one succeeds died "
			 "before its parent registered its slaves: taking registrations afresh");
		h->resumed = h->registration_sent = h->first_sent = 0;
	}
	if (h->resumed) {
		snprintf(why, HMASTER_WHY_LEN, HMASTER_RESUMED_REFUSES);
		pthread_mutex_unlock(&h->lock);
		return DLS_ESTATE;
	}
	if (h->registration_sent || h->registered + (int)n > h->nslaves) {
		snprintf(why, HMASTER_WHY_LEN,
			 "this hmaster expects %d slaves and has registered %d%s", h->nslaves,
			 h->registered, h->registration_sent ? " (registration is over)" : "");
		pthread_mutex_unlock(&h->lock);
		return DLS_ESTATE;
	}
	if (h->registered == 0)
		h->first_register = dls_now();
	h->registered += (int)n;
	log_info("'%s'%s registered below, %d of %d expected are in", names[0],
		 n > 1 ? " and others" : "", h->registered, h->nslaves);
	append(&h->regs, &p);
	rc = wait_answer(h, &p, why);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static int relay_request(void *core, const struct dls_request *reqs, size_t n,
			 struct dls_reply *out, char *why)
{
	struct relay *h = core;
	struct pending p = {.reqs = reqs, .n = n, .out = out};
	int rc;

	pthread_mutex_lock(&h->lock);
	for (size_t i = 0; i < n; i++) {
		int at = index_of(h, reqs[i].slave_id);

		rc = check_key(h, at, reqs[i].slave_id, reqs[i].key, why);
		if (rc) {
			pthread_mutex_unlock(&h->lock);
			return rc;
		}
	}
	for (size_t i = 0; i < n; i++) /* it delivers, or asks again: it holds nothing new */
		h->state[index_of(h, reqs[i].slave_id)] = S_FREE;
	if (!h->reqs && !h->pending_requests)
		h->first_request = dls_now();
	h->pending_requests += n;
	append(&h->reqs, &p);
	rc = wait_answer(h, &p, why);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static int relay_check_caller(void *core, int slave_id, uint64_t key, char *why)
{
	struct relay *h = core;
	int rc;

	pthread_mutex_lock(&h->lock);
	rc = check_key(h, index_of(h, slave_id), slave_id, key, why);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

static uint64_t relay_child_key(void *core, int slave_id)
{
	struct relay *h = core;
	uint64_t key = 0;
	int at;

	pthread_mutex_lock(&h->lock);
	at = index_of(h, slave_id);
	if (at >= 0)
		key = h->keys[at];
	pthread_mutex_unlock(&h->lock);
	return key;
}

static int relay_submit(void *core, int slave_id, uint64_t key, const struct dls_result *res,
			size_t n, char *why)
{
	struct relay *h = core;
	int rc = relay_check_caller(h, slave_id, key, why);

	if (rc)
		return rc;
	return h->parent.submit(h->parent.ctx, slave_id, key, res, n, why, HMASTER_WHY_LEN);
}

static int relay_slave_lost(void *core, int slave_id, const char *cause)
{
	struct relay *h = core;
	char why[HMASTER_WHY_LEN];
	uint64_t key = 0;
	int at;

	pthread_mutex_lock(&h->lock);
	at = index_of(h, slave_id);
	if (at >= 0) {
		h->state[at] = S_FINISHED;
		key = h->keys[at];
	}
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	if (at < 0)
		return DLS_ENOENT;
	log_warn("slave %d lost below this hmaster (%s)", slave_id, cause);
	return h->parent.slave_lost(h->parent.ctx, slave_id, key, cause, why, sizeof(why));
}

static size_t relay_slaves_holding(void *core, int *ids, size_t max)
{
	struct relay *h = core;
	size_t n = 0;

	pthread_mutex_lock(&h->lock);
	for (int i = 0; i < h->registered && n < max; i++)
		if (h->state[i] == S_HOLDING)
			ids[n++] = h->ids[i];
	pthread_mutex_unlock(&h->lock);
	return n;
}

static int relay_wait_finished(void *core, int timeout_ms)
{
	struct relay *h = core;
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_ETIMEDOUT;

	pthread_mutex_lock(&h->lock);
	for (;;) {
		/* not all registered yet, or (resumed) not all came back */
		int left = h->registered < h->nslaves && (!h->registration_sent || h->resumed);

		for (int i = 0; i < h->registered; i++)
			left += h->state[i] != S_FINISHED;
		if (!left && h->registration_sent) {
			rc = DLS_OK;
			break;
		}
		if (dls_now() >= deadline)
			break;
		dls_cond_wait_until(&h->cond, &h->lock, deadline);
	}
	pthread_mutex_unlock(&h->lock);
	return rc;
}

/* Has no view of its own: its parent's view shows its slaves. */
static int relay_snapshot(void *core, struct dls_status *out)
{
	(void)core;
	(void)out;
	return DLS_ENOENT;
}

/* The merged messages sent up and the requests they carried. */
static void relay_report(void *core, FILE *out)
{
	struct relay *h = core;
	long messages, requests;

	pthread_mutex_lock(&h->lock);
	messages = h->messages;
	requests = h->requests;
	pthread_mutex_unlock(&h->lock);
	fprintf(out, "%s: %ld merged messages carried %ld requests\n", h->name, messages,
		requests);
}

const struct hmaster_mode_ops hmaster_relay_mode = {
    .mode = HMASTER_RELAY,
    .create = relay_create,
    .stop = relay_stop,
    .destroy = relay_destroy,
    .withdraw = relay_withdraw,
    .keep_record = relay_keep_record,
    .resume = relay_resume,
    .rejoin = relay_rejoin,
    .resumed_idle = relay_resumed_idle,
    .may_register = relay_may_register,
    .register_below = relay_register_below,
    .request = relay_request,
    .submit = relay_submit,
    .check_caller = relay_check_caller,
    .child_key = relay_child_key,
    .slave_lost = relay_slave_lost,
    .slaves_holding = relay_slaves_holding,
    .wait_finished = relay_wait_finished,
    .snapshot = relay_snapshot,
    .report = relay_report,
};
