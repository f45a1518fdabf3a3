/*
 * timeline.c - every chunk of a master-slave run (see timeline.h).
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

int timeline_give(struct timeline *t, int pe, int64_t start, int64_t count, double at)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct timeline_chunk *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct timeline_chunk){pe, start, count, 0, at, -1, -1, 0, 0};
	return DLS_OK;
}

int timeline_give_copy(struct timeline *t, int pe, int64_t start, int64_t count, double at)
{
	int rc = timeline_give(t, pe, start, count, at);

	if (!rc)
		t->v[t->n - 1].copy = 1;
	return rc;
}

/* The newest chunk of pe that holds iteration i, or NULL.  A child's
 * results are of its recent chunks: the search from the end is short. */
static struct timeline_chunk *holding(struct timeline *t, int pe, int64_t i)
{
	for (size_t k = t->n; k-- > 0;) {
		struct timeline_chunk *c = &t->v[k];

		if (c->pe == pe && i >= c->start && i < c->start + c->count)
			return c;
	}
	return NULL;
}

void timeline_deliver(struct timeline *t, int pe, int64_t start, int64_t count, double at)
{
	for (int64_t i = start; i < start + count;) {
		struct timeline_chunk *c = holding(t, pe, i);
		int64_t end, n;

		if (!c) { /* not a chunk of its (dropped by the master anyway) */
			i++;
			continue;
		}
		end = c->start + c->count < start + count ? c->start + c->count : start + count;
		n = end - i;
		c->done += n;
		if (c->done >= c->count && c->delivered < 0)
			c->delivered = at;
		i = end;
	}
}

void timeline_measured(struct timeline *t, int pe, int64_t start, int64_t count, double compute)
{
	struct timeline_chunk *c = holding(t, pe, start);

	(void)count;
	if (c && c->start == start)
		c->compute = compute;
}

void timeline_cut(struct timeline *t, int pe, int64_t start, int64_t end)
{
	struct timeline_chunk *c = holding(t, pe, start);

	if (!c || c->start != start || end <= start || end >= c->start + c->count)
		return;
	c->count = end - start;
	c->cut = 1;
}

int timeline_copy(struct timeline *dst, const struct timeline *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->n)
		return DLS_OK;
	dst->v = malloc(src->n * sizeof(*dst->v));
	if (!dst->v)
		return DLS_ENOMEM;
	memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = dst->cap = src->n;
	return DLS_OK;
}

void timeline_free(struct timeline *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}
