/*
 * sched.c - the scheduler's public operations (dls_sched.h): the core
 * (sched_core.c) with, for --scheme auto, the selector (sched_auto.c) in
 * front of it, and the checks a measured chunk time must pass before any
 * technique learns from it.
 */
#include <math.h>

#include "dls/err.h"
#include "sched_internal.h"

int sched_create(const struct sched_params *p, struct sched **out)
{
	int rc = sched_core_create(p, out);

	if (rc || p->kind != SCHED_AUTO)
		return rc;
	rc = sched_auto_attach(*out);
	if (rc) {
		sched_core_destroy(*out);
		*out = NULL;
	}
	return rc;
}

void sched_destroy(struct sched *s)
{
	if (!s)
		return;
	sched_auto_free(s->sel);
	sched_core_destroy(s);
}

/* --rates measured: the A_k a distributed scheme weighs a request by. */
static int measured(const struct sched *s, int pe, int64_t acp)
{
	return s->p.measured_rates && s->distributed && pe >= 0 && pe < s->p.npes && acp >= 1 &&
	       acp <= SCHED_MAX_ACP;
}

int sched_next_step(struct sched *s)
{
	int rc = sched_core_next_step(s);

	if (!rc && s->sel)
		rc = sched_auto_new_step(s);
	return rc;
}

int sched_report(struct sched *s, int pe, int64_t acp)
{
	if (measured(s, pe, acp))
		acp = sched_adapt_rate_acp(s, pe, acp);
	return sched_core_report(s, pe, acp);
}

int sched_serve(struct sched *s, int pe, int64_t acp, struct dls_range *out)
{
	if (measured(s, pe, acp) && s->cur[pe] >= 1)
		acp = s->cur[pe]; /* what its report was weighed by */
	if (s->sel && pe >= 0 && pe < s->p.npes) {
		int rc = sched_auto_checkpoint(s);

		if (rc) {
			out->start = s->next_start;
			out->count = 0;
			return rc;
		}
	}
	return sched_core_serve(s, pe, acp, out);
}

int sched_next(struct sched *s, int pe, int64_t acp, struct dls_range *out)
{
	int rc = sched_report(s, pe, acp);

	if (rc) {
		out->start = s->next_start;
		out->count = 0;
		return rc;
	}
	return sched_serve(s, pe, acp, out);
}

int sched_measure(struct sched *s, int pe, int64_t start, int64_t count, double compute_s,
		  double elapsed_s)
{
	if (pe < 0 || pe >= s->p.npes || count < 1 || start < 0 || start > s->total - count || !isfinite(compute_s) || !isfinite(elapsed_s) ||
	    compute_s <= 0 || compute_s > SCHED_MAX_SECONDS || elapsed_s < compute_s ||
	    elapsed_s > SCHED_MAX_SECONDS)
		return DLS_EINVAL;
	sched_adapt_measure(s, pe, count, compute_s, elapsed_s);
	if (s->sel)
		sched_auto_observe(s, pe, count, compute_s, elapsed_s);
	return DLS_OK;
}
