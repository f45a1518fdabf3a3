/*
 * pile_sim.h - the decentralized balancing policies of docs/schemes.md appendix A in a
 * discrete-event model of a loop: each PE holds a pile of
 * unstarted iterations (placed at the start in blocks of the chosen order,
 * equal or proportional to tau_i, in the order of Tree Scheduling's chain
 * as the coordinator of `dls run` places them), computes them one at a time from its head,
 * and moves iterations from the tail of its pile to other PEs as its policy
 * says.  No master hands out work; iterations only ever move whole, so none
 * is lost or computed twice (the run checks it).
 *
 *   workpile  Rudolph et al. 1991 (Rudolph, Slivkin-Allalouf & Upfal): before taking its
 *             next iteration, PE i pairs with a random other PE with
 *             probability 1/l_i (l_i: its pile); if the two piles differ by
 *             more than the threshold, the longer gives the shorter half the
 *             difference.  An empty PE retries with exponential backoff.
 *             (common/policy/pile_workpile.c: the same rules the slaves run)
 *   roc       Campos and Scherson 2000 (Campos & Scherson, RoC-LB): in sample intervals each
 *             PE computes its load change DL and predicted load
 *             PL = load + DL * ND / interval; below CT, or with PL < 0 and
 *             load <= HT, it sends one request (source table first, else a
 *             random PE not in its sink table); a PE above HT gives what it
 *             holds above HT, up to the amount asked, and forwards the rest
 *             (NF up to 8; then the requester is told it was dropped).
 *             (common/policy/pile_roc.c)
 *   ripple    Melhem et al. 1991 (Melhem, Pruhs & Znati): every balance step each PE
 *             spreads its own load change (the iterations it started) evenly
 *             over all PEs, Tortoise on a line of PEs or on the binomial
 *             spanning trees of a hypercube; the continuous flow on each link
 *             is carried out in whole iterations (ripple_net.h).
 *   none      no balancing: the placement alone (Campos and Scherson 2000's T_noLB).
 *
 * Messages take the one-way latency; balancing decisions take no compute
 * time (the papers' simulators' assumption).  Deterministic for a given
 * seed; not thread-safe.
 */
#ifndef DLS_PILE_SIM_H
#define DLS_PILE_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "emul.h"
#include "pile_policy.h"
#include "ripple_net.h"
#include "tree_migrate.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pile_sim_config {
	const double *tau;		/* each PE's throughput at the start (placement, RoC) */
	const struct emul_steps *power; /* each PE's power over time; NULL: tau, constant */
	int npes;
	int64_t iterations;
	const uint64_t *cost; /* cost of each iteration in units; NULL: 1 each */
	double t_unit;	      /* time of one cost unit at power 1 */
	double latency;	      /* one-way time of every message and transfer */
	enum pile_policy policy;
	enum pile_alloc alloc;
	struct pile_params params;
	uint64_t seed; /* the PEs' random draws (workpile, roc) */
};

struct pile_sim_result {
	double t_p;		 /* the last iteration's end */
	int64_t migrations, moved; /* transfers of work and the iterations they carried */
	int64_t messages;	 /* balancing messages other than transfers */
	int64_t dropped;	 /* roc: requests dropped after nf_max forwards */
	struct tree_unit *units; /* migration sizes (Kim and Purtilo 1996 Table 2 style) */
	size_t nunits;
	int64_t *pe_iterations; /* by PE: iterations computed */
	double *pe_busy;	/* by PE: time spent computing */
	int64_t *pe_moved_in, *pe_moved_out;
};

/*
 * Checks c: NULL, or why it cannot run (a parameter out of range, a cube
 * topology on a PE count that is not a power of two, ...).
 */
const char *pile_sim_check(const struct pile_sim_config *c);

/*
 * Runs it: DLS_OK with *out filled (free with pile_sim_result_free),
 * DLS_EINVAL (pile_sim_check refuses c), DLS_ENOMEM, or DLS_ESTATE if an
 * iteration were lost (a bug: the run checks it).
 */
int pile_sim_run(const struct pile_sim_config *c, struct pile_sim_result *out);
void pile_sim_result_free(struct pile_sim_result *r);

#ifdef __cplusplus
}
#endif
#endif
