/*
 * stride_ranges.h - the unstarted iterations a placed slave holds (Tree
 * Scheduling's and the decentralized policies' loops): ranges of
 * iterations start, start + stride, ... (count of them), the oldest first.
 */
#ifndef DLS_STRIDE_RANGES_H
#define DLS_STRIDE_RANGES_H

#include <stddef.h>
#include <stdint.h>

struct stride_range {
	int64_t start, count, stride;
};

struct stride_ranges {
	struct stride_range *v;
	size_t n, cap;
};

/* Appends a range (nothing when count <= 0): DLS_OK or DLS_ENOMEM. */
int stride_ranges_push(struct stride_ranges *q, int64_t start, int64_t count, int64_t stride);

/* Takes the oldest iteration (q is not empty); a range used up goes. */
int64_t stride_ranges_take(struct stride_ranges *q);

/*
 * The last iterations of q's newest range, at most n of them (q is not
 * empty, n >= 1): the piece a neighbour is given.  q is unchanged until
 * stride_ranges_drop_tail removes it.
 */
struct stride_range stride_ranges_tail(const struct stride_ranges *q, int64_t n);

/* Removes the last k iterations of q's newest range (a piece
 * stride_ranges_tail gave); a range used up goes. */
void stride_ranges_drop_tail(struct stride_ranges *q, int64_t k);

/* How many iterations q holds. */
int64_t stride_ranges_count(const struct stride_ranges *q);

/* Frees q's ranges; q is empty after. */
void stride_ranges_free(struct stride_ranges *q);

#endif
