/*
 * event_heap.c - the simulators' binary min-heap (see event_heap.h).
 */
#include "event_heap.h"

#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

void event_heap_init(struct event_heap *h, size_t size,
		     int (*before)(const void *a, const void *b))
{
	memset(h, 0, sizeof(*h));
	h->size = size;
	h->before = before;
}

void event_heap_free(struct event_heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

static void *at(const struct event_heap *h, size_t i)
{
	return h->v + i * h->size;
}

static void swap(struct event_heap *h, size_t i, size_t j)
{
	void *tmp = at(h, h->cap); /* the scratch slot */

	memcpy(tmp, at(h, i), h->size);
	memcpy(at(h, i), at(h, j), h->size);
	memcpy(at(h, j), tmp, h->size);
}

int event_heap_push(struct event_heap *h, const void *e)
{
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 256;
		char *v = realloc(h->v, (cap + 1) * h->size);

		if (!v)
			return DLS_ENOMEM;
		h->v = v;
		h->cap = cap;
	}
	i = h->n++;
	memcpy(at(h, i), e, h->size);
	while (i > 0 && h->before(at(h, i), at(h, (i - 1) / 2))) {
		swap(h, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	return DLS_OK;
}

void event_heap_pop(struct event_heap *h, void *out)
{
	size_t i = 0;

	memcpy(out, at(h, 0), h->size);
	memcpy(at(h, 0), at(h, --h->n), h->size);
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && h->before(at(h, l), at(h, m)))
			m = l;
		if (r < h->n && h->before(at(h, r), at(h, m)))
			m = r;
		if (m == i)
			break;
		swap(h, i, m);
		i = m;
	}
}
