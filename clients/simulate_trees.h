/*
 * simulate_trees.h - the Tree Scheduling half of `dls simulate`.
 */
#ifndef DLS_SIMULATE_TREES_H
#define DLS_SIMULATE_TREES_H

#include "tree_sim.h"

struct trees_opts {
	enum tree_gamma gamma;
	enum tree_alloc alloc;
	int bidirectional;
	int per_pe;
	const char *json; /* NULL: no JSON file */
};

/*
 * Runs the simulation c and prints the chain, the migrations, their sizes
 * (seed 000 Table 2), the per-link counts and T_p against t_ideal; `what`
 * describes the work ("4000 x 2000, order natural" or "60 tasks a PE").
 * Returns the exit status.
 */
int simulate_trees(const struct trees_opts *o, const struct tree_sim_config *c, double t_ideal,
		   const char *what);

#endif
