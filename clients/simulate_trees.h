/*
 * simulate_trees.h - the Tree Scheduling half of `dls simulate`.
 */
#ifndef DLS_SIMULATE_TREES_H
#define DLS_SIMULATE_TREES_H

#include "cluster.h"
#include "sim.h"

struct trees_opts {
	enum tree_gamma gamma;
	enum tree_alloc alloc;
	int bidirectional;
	int per_pe;
	const char *json; /* NULL: no JSON file */
};

/*
 * Runs the simulation c and prints the chain, the migrations, their sizes
 * (Kim and Purtilo 1996 Table 2), the per-link counts and T_p against t_ideal; `what`
 * describes the work ("4000 x 2000, order natural" or "60 tasks a PE").
 * Returns the exit status.
 */
int simulate_trees(const struct trees_opts *o, const struct tree_sim_config *c, double t_ideal,
		   const char *what);

/*
 * Tree Scheduling on a cluster (V_i, Q_i schedules) over iterations of the
 * given costs: tau_i = V_i / Q_i(0) for the plan, the real power V_i/Q_i(t)
 * for the work; *t_ideal from the whole cluster's power.  DLS_OK with *r
 * filled (free with tree_sim_result_free), or an error.
 */
int tree_sim_on_cluster(const struct trees_opts *o, const struct cluster *cl,
			const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			struct tree_sim_result *r, double *t_ideal);

/* The same, printed as simulate_trees() does; returns the exit status. */
int simulate_trees_cluster(const struct trees_opts *o, const struct cluster *cl,
			   const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			   const char *what);

#endif
