/*
 * event_heap.h - a binary min-heap of fixed-size events for the
 * discrete-event simulators (sim_twolevel.c, tree_sim.c): the caller's
 * `before` orders them, and should break ties (by a sequence number) so
 * that a simulation stays deterministic.
 */
#ifndef DLS_EVENT_HEAP_H
#define DLS_EVENT_HEAP_H

#include <stddef.h>

struct event_heap {
	char *v;	 /* cap + 1 slots of `size` bytes; the last one is scratch */
	size_t n, cap, size;
	int (*before)(const void *a, const void *b);
};

/* An empty heap of events of `size` bytes. */
void event_heap_init(struct event_heap *h, size_t size,
		     int (*before)(const void *a, const void *b));
void event_heap_free(struct event_heap *h);

/* Adds a copy of *e: DLS_OK or DLS_ENOMEM. */
int event_heap_push(struct event_heap *h, const void *e);

/* Removes the first event into *out; the heap must not be empty. */
void event_heap_pop(struct event_heap *h, void *out);

#endif
