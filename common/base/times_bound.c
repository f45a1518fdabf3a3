/*
 * times_bound.c - a child's reported running totals, bounded (times_bound.h).
 */
#include "times_bound.h"

#include <math.h>

static double at_least_zero(double v)
{
	return isfinite(v) && v > 0 ? v : 0;
}

void times_bound(struct dls_times *t)
{
	t->t_comp = at_least_zero(t->t_comp);
	t->t_comwait = at_least_zero(t->t_comwait);
	t->emul_error = at_least_zero(t->emul_error);
	t->t_collect = at_least_zero(t->t_collect);
	if (!isfinite(t->emul_bias))
		t->emul_bias = 0;
	if (t->late_chunks < 0)
		t->late_chunks = 0;
	if (t->late_chunks > TIMES_MAX_LATE)
		t->late_chunks = TIMES_MAX_LATE;
}
