/*
 * simulate_piles.h - the decentralized policies of docs/schemes.md appendix A in
 * `dls simulate --scheme workpile|roc|ripple` (sim/pile_sim.h): their
 * options, and the run printed with the migrations (Kim and Purtilo 1996 Table 2
 * style), E against the ideal and Campos and Scherson 2000's normalised performance NP
 * against the same placement without balancing.
 */
#ifndef DLS_SIMULATE_PILES_H
#define DLS_SIMULATE_PILES_H

#include <getopt.h>

#include "cluster.h"
#include "pile_cli.h"
#include "sim.h"

struct piles_opts {
	enum pile_policy policy;
	enum pile_alloc alloc;
	struct pile_params params;
	uint64_t seed;
	int seeds; /* > 1: also the median over seeds seed .. seed + seeds - 1 */
	int per_pe;
	const char *json; /* NULL: no JSON file */
};

/* What dls bench compares a run with: the median of this many seeds (the
 * random policies' end games differ from seed to seed). */
#define PILE_BENCH_SEEDS 9

/* Defaults: the papers' parameters, equal placement, seed 1, one seed. */
void piles_opts_init(struct piles_opts *o, enum pile_policy policy);

/*
 * The policy on a cluster (V_i, Q_i schedules) over iterations of the given
 * costs, printed, with the same placement without balancing for NP;
 * `what` describes the work.  Returns the exit status.
 */
int simulate_piles_cluster(const struct piles_opts *o, const struct cluster *cl,
			   const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			   const char *what);

/*
 * The same, quietly, for dls bench: *t_p (the median over o->seeds seeds)
 * and *t_ideal, DLS_OK, or an error (a configuration pile_sim_check
 * refuses: DLS_EINVAL).
 */
int pile_sim_on_cluster(const struct piles_opts *o, const struct cluster *cl, const uint64_t *cost,
			int64_t iterations, double t_unit, double latency, double *t_p,
			double *t_ideal);

#endif
