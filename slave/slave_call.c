/*
 * slave_call.c - a call to the parent under the slave's fault policy (see
 * slave_call.h).
 */
#include "slave_call.h"

#include <stdatomic.h>

#include "dls/err.h"
#include "dls/log.h"
#include "dls_time.h"
#include "slave_internal.h"

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
