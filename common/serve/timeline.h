/*
 * timeline.h - what became of every chunk of a master-slave run: the child
 * it went to and when, when its last result came in, and the compute time
 * the child measured for it.  The master keeps it; the run's JSON holds it
 * ("timeline"), and `dls plot --gantt` draws it, one row per PE.
 *
 * Times are seconds since scheduling started (the master's clock).  Not
 * thread-safe: the master's lock guards it.
 */
#ifndef DLS_TIMELINE_H
#define DLS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct timeline_chunk {
	int pe;		       /* the child's id */
	int64_t start, count;  /* as given; count lowered when its tail was taken back */
	int64_t done;	       /* iterations of it delivered so far */
	double given;	       /* when it was given */
	double delivered;      /* when its last result came in; < 0: never (lost, cut) */
	double compute;	       /* the child's measured compute seconds; < 0: none */
	int cut;	       /* its tail was taken back and given to another */
	int copy;	       /* a copy of a chunk delivered by another, computed again
				  to check it (--verify, PROTOCOL.md 19) */
};

struct timeline {
	struct timeline_chunk *v;
	size_t n, cap;
};

/* Child pe was given [start, start + count) at time `at`: DLS_OK or DLS_ENOMEM. */
int timeline_give(struct timeline *t, int pe, int64_t start, int64_t count, double at);

/* The same for a copy computed to check results (timeline_chunk.copy). */
int timeline_give_copy(struct timeline *t, int pe, int64_t start, int64_t count, double at);

/*
 * Results of [start, start + count) came from pe at `at`: they count for
 * the chunks of pe that hold them, and a chunk whose every iteration came
 * is delivered then.
 */
void timeline_deliver(struct timeline *t, int pe, int64_t start, int64_t count, double at);

/* pe measured chunk [start, +count) as `compute` seconds of computation. */
void timeline_measured(struct timeline *t, int pe, int64_t start, int64_t count, double compute);

/* The chunk of pe that begins at start now ends at end (a take-back). */
void timeline_cut(struct timeline *t, int pe, int64_t start, int64_t end);

/* A copy of src into *dst (dst->v NULL when empty): DLS_OK or DLS_ENOMEM. */
int timeline_copy(struct timeline *dst, const struct timeline *src);

void timeline_free(struct timeline *t);

#ifdef __cplusplus
}
#endif
#endif
