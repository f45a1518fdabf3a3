/*
 * tree_sim.h - Tree Scheduling (docs/schemes.md 6) in a discrete-event model:
 * the bitonic chain of tree_plan, the initial allocation, and the migration
 * rules of 6.4: an idle PE sends one demand to its left neighbour (and its
 * right one, bi-directional); a busy PE serves a demand between iterations
 * with tree_migrate_count of its unstarted iterations (the tail); a demand
 * reaching a PE without work waits there and is served first when work
 * arrives, so work ripples right.  Nothing is dropped or computed twice.
 *
 * Events at the same time are handled in this order: iterations end (a PE
 * left without work sends its demands), transfers arrive, demands arrive,
 * then every PE at a boundary serves its pending demands and starts its
 * next iteration: a demand that arrives exactly when the sender finishes
 * an iteration is served before the next one starts (Kim and Purtilo 1996's fluid
 * model, reproduced exactly for Example 4.3).  Times are kept on a 1e-9 grid
 * so that ties stay ties.  Deterministic; not thread-safe.
 */
#ifndef DLS_TREE_SIM_H
#define DLS_TREE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "emul.h"
#include "tree_migrate.h"
#include "tree_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tree_sim_config {
	const double *tau;	       /* each PE's throughput as registered (plan, gamma) */
	const struct emul_steps *power; /* each PE's real power over time; NULL: tau, constant */
	int npes;
	int64_t iterations;
	const uint64_t *cost; /* cost of each iteration in units; NULL: 1 each */
	double t_unit;	      /* time of one cost unit at power 1 */
	enum tree_alloc alloc;
	enum tree_gamma gamma;
	int bidirectional; /* idle PEs ask both neighbours (Kim and Purtilo 1996 4.3) */
	double latency;	   /* one-way time of a demand or a transfer */
};

struct tree_sim_result {
	double t_p; /* the last iteration's end */
	int64_t migrations, moved;
	int64_t *link_migrations; /* npes - 1: link chain[k] - chain[k+1], both directions */
	struct tree_unit *units; /* Kim and Purtilo 1996 Table 2, by increasing size */
	size_t nunits;
	int64_t *pe_iterations; /* by PE: iterations computed */
	double *pe_busy;	/* by PE: time spent computing */
	struct tree_plan *plan; /* the chain used */
};

/*
 * Fills *c for a cluster of n PEs of speed V_i and load schedule Q_i(t):
 * tau_i = V_i / Q_i(0) for the plan, V_i / Q_i(t) for the work; the other
 * fields are zero.  *t_ideal: the whole work (the sum of cost) at the
 * cluster's summed power.  DLS_OK (free with tree_sim_config_free) or
 * DLS_ENOMEM.
 */
int tree_sim_config_cluster(const double *speed, const struct emul_steps *load, int n,
			    const uint64_t *cost, int64_t iterations, double t_unit,
			    struct tree_sim_config *c, double *t_ideal);

/* Frees the arrays tree_sim_config_cluster allocated. */
void tree_sim_config_free(struct tree_sim_config *c);

/* Runs it: DLS_OK, DLS_EINVAL (bad configuration), DLS_ENOMEM. */
int tree_sim_run(const struct tree_sim_config *c, struct tree_sim_result *out);
void tree_sim_result_free(struct tree_sim_result *r);

#ifdef __cplusplus
}
#endif
#endif
