/*
 * pile_policy.c - the policies' parameters, names and random peer (see
 * pile_policy.h).
 */
#include "pile_policy.h"

#include <math.h>
#include <string.h>
#include <strings.h>

#include "dls/err.h"

void pile_params_init(struct pile_params *p)
{
	memset(p, 0, sizeof(*p));
	p->threshold = 1;
	p->backoff_s = 1e-3;
	p->backoff_max_s = 100e-3;
	p->ht = 25;
	p->lt = 10;
	p->ct = 4;
	p->table_size = 5;
	p->nf_max = 8;
	p->interval_s = 10e-3;
	p->nd_s = 0;
	p->topology = RIPPLE_LINE;
	p->step_s = 1e-3;
	p->pass_min = 1;
}

const char *pile_params_check(enum pile_policy policy, const struct pile_params *p, int npes)
{
	switch (policy) {
	case PILE_NONE:
		return NULL;
	case PILE_WORKPILE:
		if (p->threshold < 0)
			return "the workpile threshold must be >= 0";
		if (!(p->backoff_s > 0) || !(p->backoff_max_s >= p->backoff_s) ||
		    !isfinite(p->backoff_max_s))
			return "the backoff must be > 0 and its maximum at least the first";
		return NULL;
	case PILE_ROC:
		if (p->ct < 0 || p->lt < p->ct || p->ht < p->lt)
			return "the RoC thresholds must satisfy 0 <= CT <= LT <= HT";
		if (p->table_size < 1 || p->table_size > PILE_TABLE_MAX || p->nf_max < 1)
			return "the RoC table size must be 1..64 and NF_max >= 1";
		if (!(p->interval_s > 0) || !isfinite(p->interval_s) || !(p->nd_s >= 0) ||
		    !isfinite(p->nd_s))
			return "the RoC sample interval must be > 0 and ND >= 0";
		return NULL;
	case PILE_RIPPLE:
		if (!(p->step_s > 0) || !isfinite(p->step_s))
			return "the Ripple step must be > 0";
		if (!(p->pass_min >= 0) || !isfinite(p->pass_min))
			return "the Ripple least flow a step sends must be >= 0";
		if (p->topology != RIPPLE_LINE && p->topology != RIPPLE_CUBE)
			return "unknown Ripple topology";
		if (p->topology == RIPPLE_CUBE && (npes & (npes - 1)))
			return "the cube topology needs a power-of-two number of PEs";
		if (p->topology == RIPPLE_LINE && npes > PILE_RIPPLE_LINE_MAX)
			return "a line of more than 4096 PEs (its tables grow as n^2): use the cube";
		return NULL;
	default:
		return "unknown policy";
	}
}

int pile_rand_other(const struct pile_host *h)
{
	int n = h->npes;

	if (n < 2)
		return -1;
	for (int tries = 0; tries < 4 * n; tries++) {
		int r = (int)(h->rand(h->ctx) % (uint64_t)(n - 1));

		r = r >= h->self ? r + 1 : r;
		if (!h->alive || h->alive(h->ctx, r))
			return r;
	}
	for (int r = 0; r < n; r++) /* few are left: look at each */
		if (r != h->self && h->alive(h->ctx, r))
			return r;
	return -1;
}

static const char *const policy_names[] = {"none", "workpile", "roc", "ripple"};
static const char *const alloc_names[] = {"equal", "proportional"};
static const char *const topology_names[] = {"line", "cube"};

static int find(const char *const *names, int n, const char *name)
{
	for (int k = 0; k < n; k++)
		if (!strcasecmp(name, names[k]))
			return k;
	return -1;
}

const char *pile_policy_name(enum pile_policy p)
{
	return (unsigned)p < 4 ? policy_names[p] : "?";
}

int pile_policy_parse(const char *name, enum pile_policy *out)
{
	int k = find(policy_names, 4, name);

	if (k < 0)
		return DLS_ENOENT;
	*out = (enum pile_policy)k;
	return DLS_OK;
}

const char *pile_alloc_name(enum pile_alloc a)
{
	return (unsigned)a < 2 ? alloc_names[a] : "?";
}

int pile_alloc_parse(const char *name, enum pile_alloc *out)
{
	int k = find(alloc_names, 2, name);

	if (k < 0)
		return DLS_ENOENT;
	*out = (enum pile_alloc)k;
	return DLS_OK;
}

const char *ripple_topology_name(enum ripple_topology t)
{
	return (unsigned)t < 2 ? topology_names[t] : "?";
}

int ripple_topology_parse(const char *name, enum ripple_topology *out)
{
	int k = find(topology_names, 2, name);

	if (k < 0)
		return DLS_ENOENT;
	*out = (enum ripple_topology)k;
	return DLS_OK;
}
