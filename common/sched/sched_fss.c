/*
 * Factoring (Hummel, Schonberg & Flynn 1992; Chronopoulos et al. 2002 section 2) and DFSS
 * (docs/schemes.md 4.5): each stage of U slots hands out about R_j/alpha, so the
 * chunks halve stage by stage (alpha = 2).  The `table` profile rounds half
 * to even with a clamp at 1 (the only rule that reproduces Chronopoulos et al. 2002 Table 1);
 * `text` takes the printed ceiling.  Optional FAC computes alpha per stage
 * from the iteration-time statistics (the one floating-point rule).
 */
#include <math.h>
#include <stdlib.h>

#include "dls/err.h"
#include "sched_internal.h"

int sched_fss_setup(struct sched *s)
{
	s->nstages = 0;
	if (!s->stage_val) {
		s->stage_cap = 64;
		s->stage_val = malloc(s->stage_cap * sizeof(*s->stage_val));
		s->stage_rem = malloc(s->stage_cap * sizeof(*s->stage_rem));
		if (!s->stage_val || !s->stage_rem)
			return DLS_ENOMEM;
	}
	return DLS_OK;
}

static int64_t stage_value(const struct sched *s, int64_t rem)
{
	const struct sched_params *p = &s->p;
	dls_i128 c;

	if (rem <= 0)
		return 1;
	if (p->fac) {
		double b = (double)s->units * p->fac_sigma / (2.0 * p->fac_mu * sqrt((double)rem));
		double x = 1.0 + b * b + b * sqrt(b * b + 2.0);
		double v = ceil((double)rem / (x * (double)s->units));

		return v < 1.0 ? 1 : (int64_t)v;
	}
	/* R_j / (alpha U) with alpha = num/den: R_j*den / (num*U) */
	if (p->profile == SCHED_PROFILE_TEXT)
		c = dls_ceil_div((dls_i128)rem * p->alpha_den, (dls_i128)p->alpha_num * s->units);
	else
		c = dls_rne_div((dls_i128)rem * p->alpha_den, (dls_i128)p->alpha_num * s->units);
	return c < 1 ? 1 : (int64_t)c;
}

int64_t sched_fss_stage(struct sched *s, int64_t j)
{
	while ((int64_t)s->nstages <= j) {
		size_t k = s->nstages;
		int64_t rem;

		if (k == 0) {
			rem = s->i0;
		} else {
			dls_i128 r = (dls_i128)s->stage_rem[k - 1] -
				     (dls_i128)s->units * s->stage_val[k - 1];
			/* Past the virtual end every stage is 1: stop caching. */
			if (r <= 0)
				return 1;
			rem = (int64_t)r;
		}
		if (k == s->stage_cap) {
			size_t cap = s->stage_cap * 2;
			int64_t *v = realloc(s->stage_val, cap * sizeof(*v));
			int64_t *r;

			if (!v)
				return 0;
			s->stage_val = v;
			r = realloc(s->stage_rem, cap * sizeof(*r));
			if (!r)
				return 0;
			s->stage_rem = r;
			s->stage_cap = cap;
		}
		s->stage_rem[k] = rem;
		s->stage_val[k] = stage_value(s, rem);
		s->nstages++;
	}
	return s->stage_val[j];
}
