/*
 * pair_counts.c - sparse per-pair migration counts (pair_counts.h).
 */
/* tdestroy is a GNU extension: the build defines _GNU_SOURCE */
#include <search.h>
#include <stdlib.h>

#include "dls/err.h"
#include "pair_counts.h"

static int by_pair(const void *a, const void *b)
{
	const struct pair_count *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

static int by_pair_ref(const void *a, const void *b)
{
	return by_pair(*(struct pair_count *const *)a, *(struct pair_count *const *)b);
}

int pair_counts_add(struct pair_counts *p, int from, int to)
{
	struct pair_count key = {from, to, 0}, *e;
	void *found = tfind(&key, &p->root, by_pair);

	if (found) {
		(*(struct pair_count **)found)->n++;
		return DLS_OK;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct pair_count **v = realloc(p->v, cap * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		p->v = v;
		p->cap = cap;
	}
	if (!(e = malloc(sizeof(*e))))
		return DLS_ENOMEM;
	*e = (struct pair_count){from, to, 1};
	if (!tsearch(e, &p->root, by_pair)) {
		free(e);
		return DLS_ENOMEM;
	}
	p->v[p->n++] = e;
	return DLS_OK;
}

int64_t pair_counts_get(const struct pair_counts *p, int from, int to)
{
	struct pair_count key = {from, to, 0};
	void *found = tfind(&key, (void *const *)&p->root, by_pair);

	return found ? (*(struct pair_count **)found)->n : 0;
}

void pair_counts_sort(struct pair_counts *p)
{
	if (p->n > 1)
		qsort(p->v, p->n, sizeof(*p->v), by_pair_ref);
}

static void no_free(void *e)
{
	(void)e; /* p->v owns the entries */
}

void pair_counts_free(struct pair_counts *p)
{
	tdestroy(p->root, no_free);
	for (size_t k = 0; k < p->n; k++)
		free(p->v[k]);
	free(p->v);
	*p = (struct pair_counts){NULL, NULL, 0, 0};
}
