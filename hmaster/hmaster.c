/*
 * hmaster.c - relay-mode merging: a batch is whatever is pending when the
 * forwarding thread is free; it never waits for every child (docs/schemes.md 5).
 */
#include "hmaster.h"
#include "reg_memo.h"
#include "twolevel.h"
#include "withdraw_below.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "roster.h"
#include "upcall_gate.h"

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

struct hmaster {
	struct twolevel *tl; /* two-level mode: everything happens there */
	/* the callers inside, in either mode, under a lock of their own */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	struct upcall_gate gate;
	struct reg_memo memo; /* registrations answered, for a caller asking again */
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

static int index_of(const struct hmaster *h, int id)
{
	for (int i = 0; i < h->registered; i++)
		if (h->ids[i] == id)
			return i;
	return -1;
}

/* Is the slave at index `at` of ids (-1: none) the one showing key?  The lock is held. */
static int check_key(const struct hmaster *h, int at, int id, uint64_t key, char *why)
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
static void forward_registrations(struct hmaster *h)
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
static void forward_requests(struct hmaster *h)
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
	struct hmaster *h = arg;

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

/* The callers' gate's lock and condition and the registrations' memo, of
 * either mode; 0, or -1 (nothing to free). */
static int gate_init(struct hmaster *h)
{
	if (pthread_mutex_init(&h->gate_lock, NULL))
		return -1;
	if (dls_cond_init(&h->gate_cond)) {
		pthread_mutex_destroy(&h->gate_lock);
		return -1;
	}
	if (reg_memo_init(&h->memo)) {
		pthread_mutex_destroy(&h->gate_lock);
		pthread_cond_destroy(&h->gate_cond);
		return -1;
	}
	return 0;
}

/* Is `name` among the registrations waiting to go up?  Under h->lock. */
static int registered_below(const struct hmaster *h, const char *name)
{
	for (const struct pending *p = h->regs; p; p = p->next)
		for (size_t k = 0; k < p->n; k++)
			if (roster_names_match(p->names[k], name))
				return 1;
	return 0;
}

int hmaster_withdraw(struct hmaster *h, const char *name, char *why)
{
	int rc;

	if (h->tl)
		return twolevel_withdraw(h->tl, name, why);
	pthread_mutex_lock(&h->lock);
	/* nslaves is what it awaits; the arrays keep their size */
	rc = withdraw_below(&h->nslaves, h->registered, h->registration_sent || h->resumed,
			    registered_below(h, name), name, why);
	if (!rc)
		pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

struct hmaster *hmaster_create(const char *name, enum hmaster_mode mode, int nslaves,
			       int register_timeout_ms, double link_latency_us,
			       const struct hmaster_parent *parent, int *err)
{
	struct hmaster *h;

	if (mode == HMASTER_TWOLEVEL) {
		struct twolevel *tl = twolevel_create(name, nslaves, register_timeout_ms,
						      link_latency_us, parent, err);

		if (!tl)
			return NULL;
		h = calloc(1, sizeof(*h));
		if (!h || gate_init(h)) {
			free(h);
			twolevel_destroy(tl);
			*err = DLS_ENOMEM;
			return NULL;
		}
		h->tl = tl;
		return h;
	}
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
	if (!h->ids || !h->state || !h->keys || gate_init(h))
		goto fail;
	if (pthread_mutex_init(&h->lock, NULL))
		goto fail_gate;
	if (dls_cond_init(&h->cond)) {
		pthread_mutex_destroy(&h->lock);
		goto fail_gate;
	}
	h->parent = *parent;
	h->nslaves = nslaves;
	h->register_timeout_ms = register_timeout_ms;
	h->link_latency_s = link_latency_us * 1e-6;
	snprintf(h->name, sizeof(h->name), "%s", name);
	if (pthread_create(&h->thread, NULL, forwarder, h)) {
		h->thread = 0; /* not started: nothing to join */
		hmaster_destroy(h);
		return NULL;
	}
	*err = DLS_OK;
	return h;

fail_gate:
	pthread_mutex_destroy(&h->gate_lock);
	pthread_cond_destroy(&h->gate_cond);
	reg_memo_free(&h->memo);
fail:
	free(h->ids);
	free(h->state);
	free(h->keys);
	free(h);
	return NULL;
}

enum hmaster_mode hmaster_mode_of(const struct hmaster *h)
{
	return h->tl ? HMASTER_TWOLEVEL : HMASTER_RELAY;
}

void hmaster_keep_record(struct hmaster *h, const char *path)
{
	if (h->tl)
		twolevel_keep_record(h->tl, path);
}

int hmaster_resume(struct hmaster *h, const char *record, char *why)
{
	if (h->tl) {
		if (!record) {
			snprintf(why, HMASTER_WHY_LEN,
				 "a two-level hmaster resumes from the record its predecessor kept "
				 "(--record FILE)");
			return DLS_EINVAL;
		}
		int rc = twolevel_resume(h->tl, record, why);

		h->resumed = !rc; /* before any caller: no lock (two-level has none here) */
		return rc;
	}
	pthread_mutex_lock(&h->lock);
	h->resumed = h->registration_sent = h->first_sent = 1;
	pthread_mutex_unlock(&h->lock);
	return DLS_OK;
}

int hmaster_rejoin(struct hmaster *h, int slave_id, uint64_t key, double *vpower,
		   struct dls_job *job, char *why)
{
	int at, rc;

	if (h->tl)
		return twolevel_rejoin(h->tl, slave_id, key, vpower, job, why);
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

int hmaster_resumed_idle(struct hmaster *h)
{
	int idle;

	if (h->tl)
		return twolevel_resumed_idle(h->tl);
	pthread_mutex_lock(&h->lock);
	idle = h->resumed && !h->reqs;
	for (int i = 0; idle && i < h->registered; i++)
		idle = h->state[i] == S_FINISHED;
	pthread_mutex_unlock(&h->lock);
	return idle;
}

/* Why a resumed hmaster refuses a registration (its two-level form in
 * hmaster_may_register, its relay form in hmaster_register). */
#define RESUMED_REFUSES "this hmaster resumed one that died: its slaves rejoin it, none registers"

int hmaster_may_register(const struct hmaster *h, enum hmaster_mode mode, char *why)
{
	if (h->resumed && h->tl) { /* a resumed relay decides in hmaster_register */
		snprintf(why, HMASTER_WHY_LEN, RESUMED_REFUSES);
		return DLS_ESTATE;
	}
	if (hmaster_mode_of(h) == mode)
		return DLS_OK;
	if (mode == HMASTER_RELAY)
		snprintf(why, HMASTER_WHY_LEN,
			 "register_group: this hmaster runs in two-level mode; a relay hmaster "
			 "cannot be below it (use one mode for the whole tree)");
	else
		snprintf(why, HMASTER_WHY_LEN,
			 "register_cluster: this hmaster relays; a two-level hmaster cannot be "
			 "below it (use one mode for the whole tree)");
	return DLS_ESTATE;
}

int hmaster_enter(struct hmaster *h, char *why)
{
	if (upcall_gate_enter(&h->gate, &h->gate_lock) == 0)
		return DLS_OK;
	snprintf(why, HMASTER_WHY_LEN, "the hmaster is stopping");
	return DLS_ESTATE;
}

void hmaster_leave(struct hmaster *h)
{
	upcall_gate_leave(&h->gate, &h->gate_lock, &h->gate_cond);
}

/* Nobody enters any more; every wait inside ends; returns once nobody is
 * inside.  The forwarding thread may still be running. */
static void close_gate(struct hmaster *h)
{
	pthread_mutex_lock(&h->gate_lock);
	h->gate.closing = 1;
	pthread_mutex_unlock(&h->gate_lock);
	reg_memo_close(&h->memo);
	if (h->tl) {
		twolevel_stop(h->tl);
	} else {
		pthread_mutex_lock(&h->lock);
		h->stop = 1;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
	}
	pthread_mutex_lock(&h->gate_lock);
	upcall_gate_drain(&h->gate, &h->gate_cond, &h->gate_lock, "the hmaster");
	pthread_mutex_unlock(&h->gate_lock);
}

void hmaster_destroy(struct hmaster *h)
{
	if (!h)
		return;
	close_gate(h);
	pthread_mutex_destroy(&h->gate_lock);
	pthread_cond_destroy(&h->gate_cond);
	reg_memo_free(&h->memo);
	if (h->tl) {
		twolevel_destroy(h->tl);
		free(h);
		return;
	}
	if (h->thread)
		pthread_join(h->thread, NULL);
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
	free(h->ids);
	free(h->state);
	free(h->keys);
	free(h);
}

/* Queues p and waits for the forwarder's answer; the lock is held. */
static int wait_answer(struct hmaster *h, struct pending *p, char *why)
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

/* hmaster_register, of a registration not asked before. */
static int register_below(struct hmaster *h, const char *const *names, const double *speeds,
			  size_t n, int *ids, uint64_t *keys, double *vpowers, struct dls_job *job,
			  char *why)
{
	struct pending p = {.names = names, .speeds = speeds, .n = n, .ids = ids, .keys = keys,
			    .vpowers = vpowers, .job = job};
	int rc;

	if (h->tl)
		return twolevel_register(h->tl, names[0], speeds, n, ids, keys, vpowers, job, why);
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
		snprintf(why, HMASTER_WHY_LEN, RESUMED_REFUSES);
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

int hmaster_register(struct hmaster *h, uint64_t caller, const char *const *names,
		     const double *speeds, size_t n, int *ids, uint64_t *keys, double *vpowers,
		     struct dls_job *job, char *why)
{
	struct reg_memo_entry *slot;
	int asked_before, rc;

	rc = reg_memo_begin(&h->memo, caller, names[0], speeds, n, h->tl ? 1 : n, &slot,
			    &asked_before, ids, keys, vpowers, job, why, HMASTER_WHY_LEN);
	if (rc || asked_before)
		return rc;
	rc = register_below(h, names, speeds, n, ids, keys, vpowers, job, why);
	reg_memo_end(&h->memo, slot, rc, ids, keys, vpowers, job);
	return rc;
}

int hmaster_request(struct hmaster *h, const struct dls_request *reqs, size_t n,
		    struct dls_reply *out, char *why)
{
	struct pending p = {.reqs = reqs, .n = n, .out = out};
	int rc;

	if (h->tl) {
		rc = DLS_OK;
		for (size_t i = 0; i < n && !rc; i++) /* each is served from the pool */
			rc = twolevel_request(h->tl, &reqs[i], &out[i], why);
		return rc;
	}
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

int hmaster_check_caller(struct hmaster *h, int slave_id, uint64_t key, char *why)
{
	int rc;

	if (h->tl)
		return twolevel_check_caller(h->tl, slave_id, key, why);
	pthread_mutex_lock(&h->lock);
	rc = check_key(h, index_of(h, slave_id), slave_id, key, why);
	pthread_mutex_unlock(&h->lock);
	return rc;
}

uint64_t hmaster_child_key(struct hmaster *h, int slave_id)
{
	uint64_t key = 0;
	int at;

	if (h->tl)
		return twolevel_child_key(h->tl, slave_id);
	pthread_mutex_lock(&h->lock);
	at = index_of(h, slave_id);
	if (at >= 0)
		key = h->keys[at];
	pthread_mutex_unlock(&h->lock);
	return key;
}

int hmaster_submit(struct hmaster *h, int slave_id, uint64_t key, const struct dls_result *res,
		   size_t n, char *why)
{
	int rc;

	if (h->tl)
		return twolevel_submit(h->tl, slave_id, key, res, n, why);
	rc = hmaster_check_caller(h, slave_id, key, why);
	if (rc)
		return rc;
	return h->parent.submit(h->parent.ctx, slave_id, key, res, n, why, HMASTER_WHY_LEN);
}

int hmaster_slave_lost(struct hmaster *h, int slave_id, const char *cause)
{
	char why[HMASTER_WHY_LEN];
	uint64_t key = 0;
	int at;

	if (h->tl)
		return twolevel_child_lost(h->tl, slave_id, cause);
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

size_t hmaster_slaves_holding(struct hmaster *h, int *ids, size_t max)
{
	size_t n = 0;

	if (h->tl)
		return twolevel_children_holding(h->tl, ids, max);
	pthread_mutex_lock(&h->lock);
	for (int i = 0; i < h->registered && n < max; i++)
		if (h->state[i] == S_HOLDING)
			ids[n++] = h->ids[i];
	pthread_mutex_unlock(&h->lock);
	return n;
}

int hmaster_wait_finished(struct hmaster *h, int timeout_ms)
{
	double deadline = dls_now() + timeout_ms / 1000.0;
	int rc = DLS_ETIMEDOUT;

	if (h->tl)
		return twolevel_wait_finished(h->tl, timeout_ms);
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

/* Merged messages sent up and the requests they carried (relay mode). */
static void relay_counts(struct hmaster *h, long *messages, long *requests)
{
	pthread_mutex_lock(&h->lock);
	*messages = h->messages;
	*requests = h->requests;
	pthread_mutex_unlock(&h->lock);
}

int hmaster_snapshot(struct hmaster *h, struct dls_status *out)
{
	return h->tl ? twolevel_snapshot(h->tl, out) : DLS_ENOENT;
}

void hmaster_report(struct hmaster *h, FILE *out)
{
	long messages, requests;

	if (h->tl) {
		twolevel_report(h->tl, out);
		return;
	}
	relay_counts(h, &messages, &requests);
	fprintf(out, "%s: %ld merged messages carried %ld requests\n", h->name, messages,
		requests);
}

