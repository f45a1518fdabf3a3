/*
 * Fixed increase self-scheduling (Philip & Das 1997; Chronopoulos et al. 2002 section 2) and
 * DFISS (docs/schemes.md 1.6, 4.6): chunks grow by a bump B each stage, from
 * C_0 = floor(I/(X U)), over sigma designed stages.  The `table` profile uses
 * the real B that makes the sigma stages sum to I and rounds each stage half
 * to even (reproduces Chronopoulos et al. 2002 Table 1); `text` uses the printed ceiling B.
 */
#include "sched_internal.h"

void sched_fiss_setup(struct sched *s)
{
	int64_t I = s->i0, U = s->units, sigma = s->p.fiss_sigma, X = s->p.fiss_x;

	s->c0 = (int64_t)((dls_i128)I / ((dls_i128)X * U));
	if (s->p.profile == SCHED_PROFILE_TEXT) {
		/* B = ceil(2I(1 - sigma/X) / (U sigma (sigma-1))) */
		s->b_num = dls_ceil_div(2 * (dls_i128)I * (X - sigma),
					(dls_i128)X * U * sigma * (sigma - 1));
		s->b_den = 1;
	} else {
		/* B = 2(I - U sigma C_0) / (U sigma (sigma-1)) */
		s->b_num = 2 * ((dls_i128)I - (dls_i128)U * sigma * s->c0);
		s->b_den = (dls_i128)U * sigma * (sigma - 1);
	}
}

int64_t sched_fiss_stage(const struct sched *s, int64_t j)
{
	dls_i128 u = dls_rne_div((dls_i128)s->c0 * s->b_den + (dls_i128)j * s->b_num, s->b_den);

	if (u > INT64_MAX)
		return INT64_MAX;
	return u < 1 ? 1 : (int64_t)u;
}
