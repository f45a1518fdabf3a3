/*
 * sched_core.c - the scheduler core: parameter checks, the virtual-slot
 * model (docs/schemes.md 4.2), the ACPSA recomputation rule (4.4), a switch of
 * technique over what remains (--scheme auto), and the dispatch to the
 * per-technique modules.  The generic master of Chronopoulos et al. 2002 Eq. (1): only the
 * last chunk is ever cut, iterations go out in increasing order.  sched.c
 * puts --scheme auto's selector (sched_auto.c) in front of it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "sched_internal.h"


/* The unit technique behind a kind: DTSS runs TSS over slots, and so on. */
static enum sched_kind unit_kind(enum sched_kind k)
{
	switch (k) {
	case SCHED_DTSS:
		return SCHED_TSS;
	case SCHED_DFSS:
		return SCHED_FSS;
	case SCHED_DFISS:
		return SCHED_FISS;
	case SCHED_DTFSS:
		return SCHED_TFSS;
	default:
		return k;
	}
}

static int check_params(const struct sched_params *p)
{
	if ((unsigned)p->kind >= SCHED_KIND_COUNT)
		return DLS_EINVAL;
	if (p->profile != SCHED_PROFILE_TABLE && p->profile != SCHED_PROFILE_TEXT)
		return DLS_EINVAL;
	if (p->iterations < 1 || p->iterations > SCHED_MAX_ITERATIONS)
		return DLS_EINVAL;
	if (p->npes < 1 || p->npes > SCHED_MAX_PES)
		return DLS_EINVAL;
	if (p->kind == SCHED_CSS && (p->css_k < 1 || p->css_k > SCHED_MAX_ITERATIONS))
		return DLS_EINVAL;
	if (p->gss_k < 0 || p->gss_k > SCHED_MAX_ITERATIONS)
		return DLS_EINVAL;
	if (p->tss_first < 0 || p->tss_last < 0 || p->tss_first > SCHED_MAX_ITERATIONS ||
	    p->tss_last > SCHED_MAX_ITERATIONS)
		return DLS_EINVAL;
	if (p->alpha_num || p->alpha_den) {
		if (p->alpha_num < 1 || p->alpha_den < 1 || p->alpha_num > SCHED_MAX_ACP ||
		    p->alpha_den > SCHED_MAX_ACP)
			return DLS_EINVAL;
	}
	if (p->fac && (!isfinite(p->fac_mu) || !isfinite(p->fac_sigma) || p->fac_mu <= 0 ||
		       p->fac_sigma < 0))
		return DLS_EINVAL;
	if (!isfinite(p->service_s) || p->service_s < 0)
		return DLS_EINVAL;
	if (p->kind == SCHED_FSC && (p->fsc_h || p->fsc_sigma) &&
	    (!isfinite(p->fsc_h) || !isfinite(p->fsc_sigma) || p->fsc_h <= 0 || p->fsc_sigma <= 0))
		return DLS_EINVAL;
	if (p->fiss_sigma && (p->fiss_sigma < 2 || p->fiss_sigma > (1 << 20)))
		return DLS_EINVAL;
	if (p->fiss_x && (p->fiss_x <= (p->fiss_sigma ? p->fiss_sigma : 3) ||
			  p->fiss_x > SCHED_MAX_ACP))
		return DLS_EINVAL;
	if (p->acp) {
		for (int i = 0; i < p->npes; i++)
			if (p->acp[i] < 0 || p->acp[i] > SCHED_MAX_ACP)
				return DLS_EINVAL;
	}
	return DLS_OK;
}

/* (Re)computes the technique's parameters for I := s->i0, p := s->units. */
static int setup(struct sched *s)
{
	switch (unit_kind(s->p.kind)) {
	case SCHED_TSS:
	case SCHED_TFSS:
		sched_tss_setup(s);
		return DLS_OK;
	case SCHED_FSS:
		return sched_fss_setup(s);
	case SCHED_FISS:
		sched_fiss_setup(s);
		return DLS_OK;
	default:
		return DLS_OK;
	}
}

void sched_core_destroy(struct sched *s)
{
	if (!s)
		return;
	free(s->acpsa);
	free(s->cur);
	free(s->stage_val);
	free(s->stage_rem);
	free(s->est);
	free(s->awf_w);
	free(s);
}

int sched_core_create(const struct sched_params *p, struct sched **out)
{
	struct sched *s;
	int64_t sum = 0;
	int rc;

	*out = NULL;
	rc = check_params(p);
	if (rc)
		return rc;
	s = calloc(1, sizeof(*s));
	if (!s)
		return DLS_ENOMEM;
	s->p = *p;
	s->p.acp = NULL;
	if (p->measured_rates)
		s->learns = 1;
	if (p->kind == SCHED_AUTO) { /* the selector's first technique; it learns throughout */
		s->p.kind = SCHED_SS;
		s->learns = 1;
	}
	if (!s->p.alpha_num) {
		s->p.alpha_num = 2;
		s->p.alpha_den = 1;
	}
	if (!s->p.fiss_sigma)
		s->p.fiss_sigma = 3;
	if (!s->p.fiss_x)
		s->p.fiss_x = s->p.fiss_sigma + 2;
	if (!s->p.gss_k)
		s->p.gss_k = 1;
	if (!s->p.fsc_h && !s->p.fsc_sigma)
		s->p.fsc_h = s->p.fsc_sigma = 1;
	s->distributed = sched_kind_is_distributed(p->kind);
	s->acpsa = calloc((size_t)p->npes, sizeof(*s->acpsa));
	s->cur = calloc((size_t)p->npes, sizeof(*s->cur));
	if (!s->acpsa || !s->cur) {
		sched_core_destroy(s);
		return DLS_ENOMEM;
	}
	for (int i = 0; i < p->npes; i++) {
		s->acpsa[i] = s->cur[i] = p->acp ? p->acp[i] : 1;
		sum += s->acpsa[i];
	}
	if (sum == 0 && (s->distributed || sched_kind_is_weighted(p->kind))) {
		sched_core_destroy(s);
		return DLS_ENOPOWER;
	}
	s->weight_sum = sum;
	s->step = 1;
	s->total = s->remaining = s->i0 = p->iterations;
	s->units = s->distributed ? sum : p->npes;
	rc = setup(s);
	if (!rc)
		rc = sched_adapt_setup(s);
	if (rc) {
		sched_core_destroy(s);
		return rc;
	}
	*out = s;
	return DLS_OK;
}

/* The technique starts over on what remains, as if the loop began now
 * (I := remaining; batches, slots and requests counted afresh), keeping
 * what the PEs' estimates learnt: a switch of technique, a new time step. */
static int restart(struct sched *s)
{
	int rc;

	s->i0 = s->remaining;
	s->slot = 0;
	s->requests = 0;
	s->batch_served = 0;
	rc = setup(s);
	return rc ? rc : sched_adapt_setup(s);
}

int sched_core_switch(struct sched *s, enum sched_kind kind, double fsc_h, double fsc_sigma)
{
	if (s->distributed || sched_kind_is_weighted(kind) || kind == SCHED_AUTO ||
	    sched_kind_is_distributed(kind) || (unsigned)kind >= SCHED_KIND_COUNT ||
	    (kind == SCHED_FSC &&
	     !(fsc_h > 0 && fsc_sigma > 0 && isfinite(fsc_h) && isfinite(fsc_sigma))))
		return DLS_EINVAL;
	s->p.kind = kind;
	if (kind == SCHED_FSC) {
		s->p.fsc_h = fsc_h;
		s->p.fsc_sigma = fsc_sigma;
	}
	return restart(s);
}

int sched_core_next_step(struct sched *s)
{
	int rc;

	if (s->remaining > 0 || s->step == INT64_MAX)
		return DLS_EINVAL;
	s->step++;
	s->remaining = s->total;
	s->next_start = 0;
	rc = restart(s);
	if (!rc && s->p.kind == SCHED_AWF)
		rc = sched_adapt_new_step(s);
	return rc;
}

int64_t sched_step(const struct sched *s)
{
	return s->step;
}

int64_t sched_remaining(const struct sched *s)
{
	return s->remaining;
}

int sched_recomputations(const struct sched *s)
{
	return s->recomputations;
}

int64_t sched_units(const struct sched *s)
{
	return s->units;
}

typedef int64_t (*stage_fn)(struct sched *s, int64_t j);

static int64_t fiss_stage(struct sched *s, int64_t j)
{
	return sched_fiss_stage(s, j);
}

static int64_t tfss_stage(struct sched *s, int64_t j)
{
	return sched_tfss_stage(s, j);
}

/*
 * Sum of the stage values over slots [first, first + n): a stage is U
 * consecutive slots (docs/schemes.md 7.13), and a request may straddle
 * two.  Stops once the sum covers what remains, since only that much can be
 * handed out.  Returns 0 when memory ran out.
 */
static dls_i128 stage_slots(struct sched *s, stage_fn value, int64_t first, int64_t n)
{
	dls_i128 sum = 0;
	int64_t at = first, end = first + n;

	while (at < end && sum < s->remaining) {
		int64_t j = at / s->units;
		int64_t stop = dls_min64(end, (int64_t)dls_min64(INT64_MAX / 2, j + 1) * s->units);
		int64_t v = value(s, j);

		if (v < 1)
			return 0;
		sum += (dls_i128)(stop - at) * v;
		at = stop;
	}
	return sum;
}

/* The untruncated chunk for a request taking n slots from slot `first`. */
static dls_i128 chunk_function(struct sched *s, int pe, int64_t first, int64_t n,
			       int64_t remaining)
{
	switch (unit_kind(s->p.kind)) {
	case SCHED_SS:
		return n;
	case SCHED_CSS:
		return (dls_i128)n * s->p.css_k;
	case SCHED_GSS: /* Polychronopoulos & Kuck: max(k, ceil(R/p)) */
		return dls_max64(s->p.gss_k, (int64_t)dls_ceil_div(remaining, s->units));
	case SCHED_TSS:
		return sched_tss_slots(s, first, n);
	case SCHED_FSS:
		return stage_slots(s, sched_fss_stage, first, n);
	case SCHED_FISS:
		return stage_slots(s, fiss_stage, first, n);
	case SCHED_TFSS:
		return stage_slots(s, tfss_stage, first, n);
	case SCHED_WF:
		return sched_wf_chunk(s, pe);
	default:
		return sched_adapt_chunk(s, pe);
	}
}

static int check_request(const struct sched *s, int pe, int64_t acp, int serving)
{
	if (pe < 0 || pe >= s->p.npes)
		return DLS_EINVAL;
	if (s->distributed && (acp < (serving ? 1 : 0) || acp > SCHED_MAX_ACP))
		return DLS_EINVAL;
	if (sched_kind_is_weighted(s->p.kind) && s->cur[pe] == 0)
		return DLS_EINVAL;
	return DLS_OK;
}

int sched_core_report(struct sched *s, int pe, int64_t acp)
{
	int64_t changed = 0, sum = 0;
	int rc = check_request(s, pe, acp, 0);

	if (rc || !s->distributed)
		return rc;
	s->cur[pe] = acp;
	for (int j = 0; j < s->p.npes; j++)
		changed += s->cur[j] != s->acpsa[j];
	/* "More than 1/2 of A_i changed" (Chronopoulos et al. 2002 step 2(b)), strictly. */
	if (2 * changed <= s->p.npes || s->remaining == 0)
		return DLS_OK;
	for (int j = 0; j < s->p.npes; j++)
		sum += s->cur[j];
	if (sum == 0)
		return DLS_OK; /* nothing to weigh by; keep the old parameters */
	memcpy(s->acpsa, s->cur, (size_t)s->p.npes * sizeof(*s->cur));
	s->units = sum;
	s->i0 = s->remaining;
	s->slot = 0;
	s->requests = 0;
	s->recomputations++;
	return setup(s);
}

int sched_core_serve(struct sched *s, int pe, int64_t acp, struct dls_range *out)
{
	int64_t nslots;
	dls_i128 f;
	int rc = check_request(s, pe, acp, 1);

	out->start = s->next_start;
	out->count = 0;
	if (rc)
		return rc;
	if (s->remaining == 0)
		return DLS_EDONE;
	nslots = s->distributed ? acp : 1;
	f = chunk_function(s, pe, s->slot, nslots, s->remaining);
	if (f < 1)
		return DLS_ENOMEM;
	out->count = f < s->remaining ? (int64_t)f : s->remaining;
	s->slot += nslots;
	s->requests++;
	s->remaining -= out->count;
	s->next_start += out->count;
	return DLS_OK;
}

/* Designed number of steps of the chunk function (Chronopoulos et al. 2002 Table 1 rows). */
static int64_t designed_steps(const struct sched *s)
{
	switch (s->p.kind) {
	case SCHED_TSS:
		return s->N;
	case SCHED_TFSS:
		return (s->N + s->units - 1) / s->units * s->units;
	case SCHED_FISS:
		return (int64_t)s->p.fiss_sigma * s->units;
	default:
		return 0;
	}
}

int sched_function(const struct sched_params *p, int64_t *vals, size_t max, size_t *n)
{
	struct sched *s;
	dls_i128 covered = 0;
	int64_t designed, virt_rem;
	int staged = p->kind == SCHED_FSS || p->kind == SCHED_FISS || p->kind == SCHED_TFSS;
	int rc;

	*n = 0;
	if (sched_kind_is_distributed(p->kind) || sched_kind_is_weighted(p->kind) ||
	    sched_kind_is_adaptive(p->kind) || p->kind == SCHED_AUTO)
		return DLS_EINVAL;
	rc = sched_core_create(p, &s);
	if (rc)
		return rc;
	designed = designed_steps(s);
	virt_rem = s->total;
	for (int64_t k = 0;; k++) {
		dls_i128 f;

		if (k >= designed && covered >= s->total && (!staged || k % s->units == 0))
			break;
		if (*n == max) {
			rc = DLS_EOVERFLOW;
			break;
		}
		/* Only GSS reads R; the function view lets it run past I. */
		f = chunk_function(s, 0, k, 1, virt_rem > 0 ? virt_rem : 1);
		if (f < 1) {
			rc = DLS_ENOMEM;
			break;
		}
		vals[(*n)++] = (int64_t)f;
		covered += f;
		virt_rem -= (int64_t)f;
	}
	sched_core_destroy(s);
	return rc;
}


