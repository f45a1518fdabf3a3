/*
 * Weighted factoring (Hummel, Schmidt, Uma & Wein 1996; docs/schemes.md 1.8):
 * factoring whose batch of p requests is shared in proportion to static
 * weights, ceil(w_i R_j / (alpha W)).  Given for comparison; Chronopoulos et al. 2002 only
 * cites it.
 */
#include "sched_internal.h"

int64_t sched_wf_chunk(struct sched *s, int pe)
{
	dls_i128 c;

	if (s->requests % s->p.npes == 0)
		s->batch_rem = s->remaining;
	c = dls_ceil_div((dls_i128)s->cur[pe] * s->batch_rem * s->p.alpha_den,
			 (dls_i128)s->p.alpha_num * s->weight_sum);
	return c < 1 ? 1 : c > INT64_MAX ? INT64_MAX : (int64_t)c;
}
