/*
 * pile_policy.h - the decentralized balancing policies of docs/schemes.md appendix A as
 * rules of ONE PE, shared by the simulator (sim/pile_sim.c) and
 * the slaves of `dls run` (slave/slave_pile.c): a policy sees its PE
 * through struct pile_host (its pile, its clock, its messages), keeps its
 * own state, and acts only by giving iterations from the tail of its pile,
 * sending a message to another PE, or setting a timer.  The host decides how
 * those travel (events in the simulator, CORBA calls in a run).
 *
 *   workpile  Rudolph et al. 1991 (pile_workpile.c)
 *   roc       Campos and Scherson 2000, RoC-LB (pile_roc.c)
 *   ripple    Melhem et al. 1991, Tortoise on a line or the hypercube's binomial
 *             trees, each PE stepping on its own clock (pile_ripple.c;
 *             sim/ripple_net.c is the paper's synchronous model it is
 *             checked against)
 *   none      no balancing: the placement alone
 */
#ifndef DLS_PILE_POLICY_H
#define DLS_PILE_POLICY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pile_policy { PILE_NONE, PILE_WORKPILE, PILE_ROC, PILE_RIPPLE };

enum pile_alloc { PILE_ALLOC_EQUAL, PILE_ALLOC_PROPORTIONAL };

enum ripple_topology { RIPPLE_LINE, RIPPLE_CUBE };

/* The policies' parameters, with the papers' values as defaults (pile_params_init). */
struct pile_params {
	/* workpile */
	int64_t threshold;    /* pair only when the piles differ by more (seed: tau; default 1) */
	double backoff_s;     /* first retry of an empty PE (default 1 ms) */
	double backoff_max_s; /* doubling up to this (default 100 ms) */
	/* roc */
	int64_t ht, lt, ct; /* thresholds (25, 10, 4) */
	int table_size;	    /* source and sink tables (5, at most PILE_TABLE_MAX) */
	int nf_max;	    /* forwards before a request is dropped (8) */
	double interval_s;  /* sample interval (default 10 ms: the paper's "multiple of
			       the time slice") */
	double nd_s;	    /* network delay before any is measured: 0 gives the
			       time to move 1 MB at 1 Gb/s plus a round trip */
	/* ripple */
	enum ripple_topology topology; /* line (default) or cube (2^d PEs) */
	double step_s;		       /* balance step (default 1 ms) */
	double pass_min; /* a flow smaller than this (iterations) waits for the next step,
			    added to what that step sends (default 1; 0: the paper's every step) */
};

#define PILE_TABLE_MAX 64

/* A policy's message: its kind and up to four values (meaning per policy). */
struct pile_msg {
	int kind;
	int from, to;
	int64_t a, b, c, d;
};

/* What a policy sees of, and may do at, its PE.  Times are seconds. */
struct pile_host {
	void *ctx;
	int self, npes;
	const struct pile_params *params;
	double latency; /* one-way latency the host knows of (0: none) */
	/* unstarted iterations here, and whether one is being computed */
	int64_t (*len)(void *ctx);
	int (*busy)(void *ctx);
	/* moves min(n, len) iterations from the tail of the pile to PE `to`;
	 * *moved (may be NULL) gets how many: DLS_OK or an error */
	int (*give)(void *ctx, int to, int64_t n, double t, int64_t *moved);
	int (*send)(void *ctx, const struct pile_msg *m, double t);
	/* calls on_timer(kind) at time `at` (or as soon after as the host can) */
	int (*timer)(void *ctx, int kind, double at);
	uint64_t (*rand)(void *ctx); /* 64 random bits, the PE's own stream */
	int (*alive)(void *ctx, int pe); /* NULL: every PE is */
	int64_t (*started)(void *ctx);	 /* iterations taken from the pile so far */
};

/* One PE's rules.  The host allocates `size` bytes of state, zeroed. */
struct pile_policy_ops {
	size_t size;
	int (*init)(void *st, const struct pile_host *h, double t);
	/* the PE has work and is about to take its next iteration */
	int (*before_next)(void *st, const struct pile_host *h, double t);
	/* the PE has nothing to compute (at the start, or after its last) */
	int (*on_idle)(void *st, const struct pile_host *h, double t);
	int (*on_message)(void *st, const struct pile_host *h, const struct pile_msg *m, double t);
	int (*on_timer)(void *st, const struct pile_host *h, int kind, double t);
	/* n iterations from PE `from` were appended to the pile */
	int (*on_arrival)(void *st, const struct pile_host *h, int from, int64_t n, double t);
	/* requests this PE dropped (roc), for the report */
	int64_t (*dropped)(const void *st);
	/* frees what init allocated in the state (NULL: nothing) */
	void (*fini)(void *st);
};

/* The per-PE rules of workpile, roc and ripple; NULL for none. */
const struct pile_policy_ops *pile_policy_ops(enum pile_policy p);

/* The rules themselves (pile_workpile.c, pile_roc.c, pile_ripple.c): use
 * pile_policy_ops. */
extern const struct pile_policy_ops pile_workpile_ops, pile_roc_ops, pile_ripple_ops;

/* The papers' defaults. */
void pile_params_init(struct pile_params *p);

/*
 * NULL, or why the parameters of `policy` cannot run on npes PEs (a value
 * out of range, a cube topology on a PE count that is not a power of two).
 */
const char *pile_params_check(enum pile_policy policy, const struct pile_params *p, int npes);

/*
 * A uniformly drawn living PE other than h->self (all of them are tried
 * before giving up); -1 when there is none.
 */
int pile_rand_other(const struct pile_host *h);

/* "none", "workpile", "roc", "ripple"; "?" otherwise. */
const char *pile_policy_name(enum pile_policy p);
/* DLS_OK or DLS_ENOENT (case-insensitive). */
int pile_policy_parse(const char *name, enum pile_policy *out);
/* "equal", "proportional"; DLS_OK or DLS_ENOENT. */
const char *pile_alloc_name(enum pile_alloc a);
int pile_alloc_parse(const char *name, enum pile_alloc *out);
/* "line", "cube"; DLS_OK or DLS_ENOENT. */
const char *ripple_topology_name(enum ripple_topology t);
int ripple_topology_parse(const char *name, enum ripple_topology *out);

/* The longest line Ripple runs on: Tortoise's tables hold n steps a PE. */
#define PILE_RIPPLE_LINE_MAX 4096

#ifdef __cplusplus
}
#endif
#endif
