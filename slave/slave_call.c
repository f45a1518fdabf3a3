/*
 * slave_call.c - a call to the parent under the slave's fault policy (see
 * slave_call.h), and what the policy is made of: the emulated link's delay,
 * waiting out a silent parent, rejoining a resumed one.
 */
#include "slave_call.h"

#include <stdatomic.h>
#include <stdio.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "patience.h"
#include "slave_internal.h"

/* An emulated link: a call waits for its request and its reply to travel. */
void slave_link_delay(double one_way_us)
{
	dls_sleep_emulated(2 * one_way_us * 1e-6);
}

const char *slave_parent(const struct run *r)
{
	return r->tree ? "coordinator" : "master";
}

int slave_may_rejoin(const struct run *r)
{
	return r->registered && r->cfg->rejoin_ms > 0 && r->ops && r->ops->rejoin &&
	       !atomic_load(&r->parent_gone);
}

int slave_wait_out(struct run *r, double *since, double began)
{
	char who[32];

	if (r->ops->stop_requested && r->ops->stop_requested(r->ops->ctx)) {
		log_warn("asked to stop: the %s is not waited for any more (%s)", slave_parent(r),
			 r->why);
		return 0;
	}
	snprintf(who, sizeof(who), "the %s", slave_parent(r));
	if (!patience_wait_out(since, r->cfg->patience_ms, began, r->cfg->retry_delay_ms / 1000.0,
			       who, r->why))
		return 0;
	r->unreached++;
	return 1;
}

int slave_rejoin(struct run *r)
{
	double t0 = dls_now(), deadline = t0 + r->cfg->rejoin_ms / 1000.0, since = 0;
	int delay = 50, rc = DLS_EREMOTE;

	if (!slave_may_rejoin(r))
		return DLS_EREMOTE;
	log_warn("the %s is gone: trying to rejoin it for up to %d ms", slave_parent(r),
		 r->cfg->rejoin_ms);
	while (dls_now() < deadline) {
		double t1 = dls_now();

		rc = r->ops->rejoin(r->ops->ctx, r->st->id, r->why, r->len);
		if (rc == DLS_ETIMEDOUT) { /* a master that is there but slow: waited out */
			if (!slave_wait_out(r, &since, t1))
				break;
			if (deadline < since + r->cfg->patience_ms / 1000.0)
				deadline = since + r->cfg->patience_ms / 1000.0;
			continue;
		}
		if (rc != DLS_EREMOTE && rc != DLS_ENOENT)
			break;
		dls_sleep_until(dls_now() + delay / 1000.0 < deadline ? dls_now() + delay / 1000.0
								      : deadline);
		delay = delay < 250 ? 2 * delay : 500; /* a new master binds within ~1 s */
	}
	r->st->times.t_comwait += dls_now() - t0;
	if (rc == DLS_ENOENT || rc == DLS_ETIMEDOUT)
		rc = DLS_EREMOTE;
	if (rc == DLS_OK) /* a warning: the run survived a failure */
		log_warn("rejoined the %s as slave %d after %.2f s", slave_parent(r), r->st->id,
			 dls_now() - t0);
	else
		log_err("could not rejoin the %s in %d ms: %s", slave_parent(r), r->cfg->rejoin_ms,
			r->why);
	return rc;
}

/* One round: the attempts while the parent is not reached. */
static int attempts(struct run *r, slave_call_fn call, void *arg, char *why, size_t len)
{
	int rc = DLS_EREMOTE, delay = r->cfg->retry_delay_ms;
	int tries = slave_may_rejoin(r) || atomic_load(&r->parent_gone) ? 1 : r->cfg->retries;
	double since = 0;

	for (int a = 1; a <= tries; a++) {
		double c0 = dls_now();

		slave_link_delay(r->cfg->link_latency_us);
		rc = call(arg, why, len);
		r->st->times.t_comwait += dls_now() - c0;
		if (rc == DLS_ETIMEDOUT) {
			if (slave_wait_out(r, &since, c0)) {
				a--; /* a parent waited out: the same attempt again */
				continue;
			}
			rc = DLS_EREMOTE;
		}
		if (rc != DLS_EREMOTE)
			break;
		r->unreached++;
		log_warn("%s not reached (attempt %d of %d): %s", slave_parent(r), a, tries, why);
		if (a < tries) {
			dls_sleep_ms(delay);
			r->st->times.t_comwait += delay / 1000.0;
			delay *= 2;
		}
	}
	return rc;
}

int slave_call(struct run *r, slave_call_fn call, void *arg, char *why, size_t len)
{
	for (;;) {
		int rc = attempts(r, call, arg, why, len), j;

		if (rc != DLS_EREMOTE)
			return rc;
		j = slave_rejoin(r);
		if (j != DLS_OK)
			return j == DLS_EREMOTE ? rc : j;
	}
}
