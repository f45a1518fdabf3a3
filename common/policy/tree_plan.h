/*
 * tree_plan.h - Kim and Purtilo's cluster tree and migration chain (Kim and Purtilo 1996
 * section 3; docs/schemes.md 6.1-6.3, 6.5), computed from the PEs' throughputs.
 * No CORBA: the coordinator and `dls chunks --tree` use it.
 */
#ifndef DLS_TREE_PLAN_H
#define DLS_TREE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TREE_MAX_PES (1 << 20)

enum tree_alloc {
	TREE_ALLOC_EQUAL,	 /* floor(I/p) each, extras to the rightmost (default) */
	TREE_ALLOC_PROPORTIONAL, /* floor(tau_i I / sum tau), extras to the fastest */
	TREE_ALLOC_ROUND_ROBIN	 /* iteration i to chain position i mod p */
};

/* A node of the cluster tree: a terminal (one PE) or a cluster (v, w). */
struct tree_node {
	int left, right; /* child node indices; -1 for a terminal */
	int pe;		 /* the PE of a terminal; -1 for a cluster */
	int height;	 /* 0 for a terminal, 1 + max(children) for a cluster */
	double tau;	 /* throughput: tau_v + tau_w for a cluster */
};

/* Plain data, owned by the plan; read-only for callers. */
struct tree_plan {
	int npes;
	int nnodes; /* 2 npes - 1 */
	int root;
	struct tree_node *nodes;
	int *chain;	 /* npes PEs, left to right: work flows rightwards */
	int *link_level; /* npes - 1: level of the link chain[k] -> chain[k+1] */
};

/*
 * Builds the bitonic cluster tree of npes PEs with throughputs tau[0..npes-1]
 * (each > 0 and finite), then the migration chain of Algorithm 3.1.
 * Returns DLS_OK with *out set, DLS_EINVAL, or DLS_ENOMEM.
 */
int tree_plan_build(const double *tau, int npes, struct tree_plan **out);

/* Frees t; NULL is a no-op. */
void tree_plan_destroy(struct tree_plan *t);

/*
 * The initial allocation of I iterations (docs/schemes.md 6.5): for each PE,
 * start[pe] and count[pe].  Equal and proportional give contiguous blocks in
 * chain order; round-robin gives count[pe] iterations starting at start[pe]
 * with stride npes.  The counts sum to I.  Returns DLS_OK or DLS_EINVAL.
 */
int tree_plan_allocate(const struct tree_plan *t, const double *tau, int64_t iterations,
		       enum tree_alloc mode, int64_t *start, int64_t *count);

/* "equal", "proportional", "round-robin"; "?" otherwise. */
const char *tree_plan_alloc_name(enum tree_alloc a);
/* DLS_OK or DLS_ENOENT. */
int tree_plan_alloc_parse(const char *name, enum tree_alloc *out);

/*
 * Writes the tree as nested pairs of PE numbers, e.g. "((0,3),(1,2))".
 * Returns DLS_OK or DLS_EOVERFLOW when len is too small.
 */
int tree_plan_format(const struct tree_plan *t, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
