/*
 * times_bound.h - a child's reported running totals (struct dls_times) as
 * far as its parent trusts them: the one rule, at the IDL boundary
 * (proto_conv.cc), in the cores that keep them, and in the journals.
 */
#ifndef DLS_TIMES_BOUND_H
#define DLS_TIMES_BOUND_H

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most late chunks a child may claim (sums of many stay in int64_t). */
#define TIMES_MAX_LATE ((int64_t)1 << 40)

/*
 * Bounds the totals a child sent, before they are kept or summed: a time
 * that is not finite counts 0, t_comp, t_comwait, emul_error and t_collect
 * are at least 0, late_chunks is kept in 0..TIMES_MAX_LATE.  They are
 * statistics: nothing is refused for them, and no sum of them overflows.
 */
void times_bound(struct dls_times *t);

#ifdef __cplusplus
}
#endif
#endif
