/*
 * pair_counts.h - migrations counted per (giver, receiver) pair of slaves,
 * sparse: only the pairs that ever traded cost memory, so a run of any
 * size keeps them (a balanced tree of glibc's tsearch).  Not thread-safe:
 * the coordinator's lock guards it.
 */
#ifndef DLS_PAIR_COUNTS_H
#define DLS_PAIR_COUNTS_H

#include <stddef.h>
#include <stdint.h>

struct pair_count {
	int from, to;
	int64_t n;
};

struct pair_counts {
	void *root;		/* tsearch tree of the entries in v */
	struct pair_count **v;	/* every pair counted, in the order first seen */
	size_t n, cap;
};

/* One more migration from `from` to `to`: DLS_OK or DLS_ENOMEM (nothing counted). */
int pair_counts_add(struct pair_counts *p, int from, int to);

/* The migrations counted from `from` to `to` (0: none). */
int64_t pair_counts_get(const struct pair_counts *p, int from, int to);

/* Sorts p->v by giver, then receiver (for a report). */
void pair_counts_sort(struct pair_counts *p);

/* Frees every entry; p is empty again. */
void pair_counts_free(struct pair_counts *p);

#endif
