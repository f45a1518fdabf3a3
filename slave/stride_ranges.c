/*
 * stride_ranges.c - see stride_ranges.h.
 */
#include "stride_ranges.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

int stride_ranges_push(struct stride_ranges *q, int64_t start, int64_t count, int64_t stride)
{
	if (count <= 0)
		return DLS_OK;
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 8;
		struct stride_range *v = realloc(q->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		q->v = v;
		q->cap = cap;
	}
	q->v[q->n++] = (struct stride_range){start, count, stride};
	return DLS_OK;
}

int64_t stride_ranges_take(struct stride_ranges *q)
{
	struct stride_range *f = &q->v[0];
	int64_t it = f->start;

	if (--f->count == 0) /* its last: no next start (a range of one may have any stride) */
		memmove(q->v, q->v + 1, --q->n * sizeof(*q->v));
	else
		f->start += f->stride;
	return it;
}

struct stride_range stride_ranges_tail(const struct stride_ranges *q, int64_t n)
{
	const struct stride_range *last = &q->v[q->n - 1];
	int64_t k = n < last->count ? n : last->count;

	return (struct stride_range){last->start + (last->count - k) * last->stride, k,
				     last->stride};
}

void stride_ranges_drop_tail(struct stride_ranges *q, int64_t k)
{
	if ((q->v[q->n - 1].count -= k) == 0)
		q->n--;
}

int64_t stride_ranges_count(const struct stride_ranges *q)
{
	int64_t n = 0;

	for (size_t k = 0; k < q->n; k++)
		n += q->v[k].count;
	return n;
}

void stride_ranges_free(struct stride_ranges *q)
{
	free(q->v);
	q->v = NULL;
	q->n = q->cap = 0;
}
