#include "sched_drive.h"

#include <stdlib.h>

#include "dls/err.h"

static int64_t *current_acp(const struct sched_params *p)
{
	int64_t *a = malloc((size_t)p->npes * sizeof(*a));

	if (a)
		for (int i = 0; i < p->npes; i++)
			a[i] = p->acp ? p->acp[i] : 1;
	return a;
}

/* Builds the cyclic order from the current A values; returns its length. */
static size_t cycle_order(const struct sched_params *p, const struct sched_drive_spec *d,
			  const int64_t *acp, int *cycle)
{
	size_t n = 0;

	if (d->order == SCHED_ORDER_LIST) {
		for (size_t i = 0; i < d->nlist; i++)
			cycle[n++] = d->list[i];
		return n;
	}
	for (int i = 0; i < p->npes; i++)
		if (acp[i] >= 1)
			cycle[n++] = i;
	if (d->order == SCHED_ORDER_SORTED) {
		/* insertion sort: decreasing A, ties by increasing id (stable) */
		for (size_t i = 1; i < n; i++) {
			int pe = cycle[i];
			size_t j = i;

			while (j > 0 && acp[cycle[j - 1]] < acp[pe]) {
				cycle[j] = cycle[j - 1];
				j--;
			}
			cycle[j] = pe;
		}
	}
	return n;
}

int sched_drive(const struct sched_params *p, const struct sched_drive_spec *d, sched_emit_fn emit,
		void *arg, int64_t max_chunks)
{
	struct sched *s = NULL;
	int64_t *acp = NULL, served = 0;
	int *cycle = NULL;
	size_t ncycle, i;
	int rc;

	rc = sched_create(p, &s);
	if (rc)
		return rc;
	acp = current_acp(p);
	cycle = malloc(((size_t)p->npes + d->nlist + 1) * sizeof(*cycle));
	if (!acp || !cycle) {
		rc = DLS_ENOMEM;
		goto out;
	}
	for (i = 0; i < d->nprefix && sched_remaining(s) > 0; i++) {
		const struct sched_request *r = &d->prefix[i];
		struct dls_range c;

		if (r->pe < 0 || r->pe >= p->npes) {
			rc = DLS_EINVAL;
			goto out;
		}
		acp[r->pe] = r->acp;
		rc = sched_next(s, r->pe, r->acp, &c);
		if (rc)
			goto out;
		rc = emit(arg, r->pe, &c);
		if (rc)
			goto out;
		served++;
	}
	ncycle = cycle_order(p, d, acp, cycle);
	if (ncycle == 0 && sched_remaining(s) > 0) {
		rc = DLS_ENOPOWER;
		goto out;
	}
	for (i = 0; sched_remaining(s) > 0; i = (i + 1) % ncycle) {
		struct dls_range c;
		int pe = cycle[i];

		if (served >= max_chunks) {
			rc = DLS_EOVERFLOW;
			goto out;
		}
		if (pe < 0 || pe >= p->npes) {
			rc = DLS_EINVAL;
			goto out;
		}
		rc = sched_next(s, pe, acp[pe], &c);
		if (rc)
			goto out;
		rc = emit(arg, pe, &c);
		if (rc)
			goto out;
		served++;
	}
out:
	free(cycle);
	free(acp);
	sched_destroy(s);
	return rc;
}
