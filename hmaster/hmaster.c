/*
 * hmaster.c - the hmaster's face (hmaster.h): it lets callers in and out,
 * answers a registration asked again from its memo, and hands every other
 * operation to the mode chosen at its creation (hmaster_mode.h: relay.c or
 * twolevel.c).
 */
#include "hmaster.h"
#include "reg_memo.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dls/err.h"
#include "dls_time.h"
#include "upcall_gate.h"

struct hmaster {
	const struct hmaster_mode_ops *mode;
	void *core;
	/* the callers inside, under a lock of their own */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	struct upcall_gate gate;
	struct reg_memo memo; /* registrations answered, for a caller asking again */
};

struct hmaster *hmaster_create(const char *name, enum hmaster_mode mode, int nslaves,
			       int register_timeout_ms, double link_latency_us,
			       const struct hmaster_parent *parent, int *err)
{
	struct hmaster *h = calloc(1, sizeof(*h));

	*err = DLS_ENOMEM;
	if (!h)
		return NULL;
	h->mode = mode == HMASTER_TWOLEVEL ? &hmaster_twolevel_mode : &hmaster_relay_mode;
	if (pthread_mutex_init(&h->gate_lock, NULL))
		goto fail;
	if (dls_cond_init(&h->gate_cond))
		goto fail_lock;
	if (reg_memo_init(&h->memo))
		goto fail_cond;
	h->core = h->mode->create(name, nslaves, register_timeout_ms, link_latency_us, parent, err);
	if (h->core)
		return h;
	reg_memo_free(&h->memo);
fail_cond:
	pthread_cond_destroy(&h->gate_cond);
fail_lock:
	pthread_mutex_destroy(&h->gate_lock);
fail:
	free(h);
	return NULL;
}

enum hmaster_mode hmaster_mode_of(const struct hmaster *h)
{
	return h->mode->mode;
}

void hmaster_keep_record(struct hmaster *h, const char *path)
{
	h->mode->keep_record(h->core, path);
}

int hmaster_resume(struct hmaster *h, const char *record, char *why)
{
	return h->mode->resume(h->core, record, why);
}

int hmaster_rejoin(struct hmaster *h, int slave_id, uint64_t key, double *vpower,
		   struct dls_job *job, char *why)
{
	return h->mode->rejoin(h->core, slave_id, key, vpower, job, why);
}

int hmaster_resumed_idle(struct hmaster *h)
{
	return h->mode->resumed_idle(h->core);
}

int hmaster_may_register(const struct hmaster *h, enum hmaster_mode mode, char *why)
{
	int rc = h->mode->may_register(h->core, why);

	if (rc || h->mode->mode == mode)
		return rc;
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
 * inside.  The mode's forwarding thread may still be running. */
static void close_gate(struct hmaster *h)
{
	pthread_mutex_lock(&h->gate_lock);
	h->gate.closing = 1;
	pthread_mutex_unlock(&h->gate_lock);
	reg_memo_close(&h->memo);
	h->mode->stop(h->core);
	pthread_mutex_lock(&h->gate_lock);
	upcall_gate_drain(&h->gate, &h->gate_cond, &h->gate_lock, "the hmaster");
	pthread_mutex_unlock(&h->gate_lock);
}

void hmaster_destroy(struct hmaster *h)
{
	if (!h)
		return;
	close_gate(h);
	h->mode->destroy(h->core);
	pthread_mutex_destroy(&h->gate_lock);
	pthread_cond_destroy(&h->gate_cond);
	reg_memo_free(&h->memo);
	free(h);
}

int hmaster_withdraw(struct hmaster *h, const char *name, char *why)
{
	return h->mode->withdraw(h->core, name, why);
}

int hmaster_register(struct hmaster *h, uint64_t caller, const char *const *names,
		     const double *speeds, size_t n, int *ids, uint64_t *keys, double *vpowers,
		     struct dls_job *job, char *why)
{
	/* relay: an id and a capability per slave; two-level: one for the child */
	size_t nids = h->mode->mode == HMASTER_TWOLEVEL ? 1 : n;
	struct reg_memo_entry *slot;
	int asked_before, rc;

	rc = reg_memo_begin(&h->memo, caller, names[0], speeds, n, nids, &slot, &asked_before, ids,
			    keys, vpowers, job, why, HMASTER_WHY_LEN);
	if (rc || asked_before)
		return rc;
	rc = h->mode->register_below(h->core, names, speeds, n, ids, keys, vpowers, job, why);
	reg_memo_end(&h->memo, slot, rc, ids, keys, vpowers, job);
	return rc;
}

int hmaster_request(struct hmaster *h, const struct dls_request *reqs, size_t n,
		    struct dls_reply *out, char *why)
{
	return h->mode->request(h->core, reqs, n, out, why);
}

int hmaster_check_caller(struct hmaster *h, int slave_id, uint64_t key, char *why)
{
	return h->mode->check_caller(h->core, slave_id, key, why);
}

uint64_t hmaster_child_key(struct hmaster *h, int slave_id)
{
	return h->mode->child_key(h->core, slave_id);
}

int hmaster_submit(struct hmaster *h, int slave_id, uint64_t key, const struct dls_result *res,
		   size_t n, char *why)
{
	return h->mode->submit(h->core, slave_id, key, res, n, why);
}

int hmaster_slave_lost(struct hmaster *h, int slave_id, const char *cause)
{
	return h->mode->slave_lost(h->core, slave_id, cause);
}

size_t hmaster_slaves_holding(struct hmaster *h, int *ids, size_t max)
{
	return h->mode->slaves_holding(h->core, ids, max);
}

int hmaster_wait_finished(struct hmaster *h, int timeout_ms)
{
	return h->mode->wait_finished(h->core, timeout_ms);
}

int hmaster_snapshot(struct hmaster *h, struct dls_status *out)
{
	return h->mode->snapshot(h->core, out);
}

void hmaster_report(struct hmaster *h, FILE *out)
{
	h->mode->report(h->core, out);
}
