/*
 * simulate_piles.h - the decentralized policies of seeds 002-004 in
 * `dls simulate --scheme workpile|roc|ripple` (sim/pile_sim.h): their
 * options, and the run printed with the migrations (seed 000 Table 2
 * style), E against the ideal and seed 002's normalised performance NP
 * against the same placement without balancing.
 */
#ifndef DLS_SIMULATE_PILES_H
#define DLS_SIMULATE_PILES_H

#include <getopt.h>

#include "cluster.h"
#include "sim.h"

enum {
	PILES_OPT_SEED = 200,
	PILES_OPT_THRESHOLD,
	PILES_OPT_BACKOFF,
	PILES_OPT_BACKOFF_MAX,
	PILES_OPT_HT,
	PILES_OPT_LT,
	PILES_OPT_CT,
	PILES_OPT_TABLE,
	PILES_OPT_NFMAX,
	PILES_OPT_INTERVAL,
	PILES_OPT_ND,
	PILES_OPT_TOPOLOGY,
	PILES_OPT_STEP,
};

#define PILES_CLI_LONG_OPTIONS                                                                   \
	{"seed", required_argument, 0, PILES_OPT_SEED},                                          \
	    {"threshold", required_argument, 0, PILES_OPT_THRESHOLD},                            \
	    {"backoff-us", required_argument, 0, PILES_OPT_BACKOFF},                             \
	    {"backoff-max-us", required_argument, 0, PILES_OPT_BACKOFF_MAX},                     \
	    {"ht", required_argument, 0, PILES_OPT_HT},                                          \
	    {"lt", required_argument, 0, PILES_OPT_LT},                                          \
	    {"ct", required_argument, 0, PILES_OPT_CT},                                          \
	    {"table-size", required_argument, 0, PILES_OPT_TABLE},                               \
	    {"nf-max", required_argument, 0, PILES_OPT_NFMAX},                                   \
	    {"interval-us", required_argument, 0, PILES_OPT_INTERVAL},                           \
	    {"nd-us", required_argument, 0, PILES_OPT_ND},                                       \
	    {"topology", required_argument, 0, PILES_OPT_TOPOLOGY},                              \
	    {"step-us", required_argument, 0, PILES_OPT_STEP}

#define PILES_CLI_HELP                                                                           \
	"  --scheme workpile|roc|ripple   the decentralized policies of seeds 003, 002,\n"       \
	"                       004 (none: the placement alone); --alloc equal|proportional\n"  \
	"                       (default equal), --seed N (default 1);\n"                       \
	"    workpile: --threshold N (1), --backoff-us US (100), --backoff-max-us US (10000)\n"  \
	"    roc:      --ht N (25) --lt N (10) --ct N (4), --table-size N (5), --nf-max N\n"     \
	"              (8), --interval-us US (1000), --nd-us US (0: 1 MB at 1 Gb/s + RTT)\n"    \
	"    ripple:   --topology line|cube (line; cube: 2^d PEs), --step-us US (1000)\n"

struct piles_opts {
	enum pile_policy policy;
	enum pile_alloc alloc;
	struct pile_params params;
	uint64_t seed;
	int per_pe;
	const char *json; /* NULL: no JSON file */
};

/* Defaults: the seeds' parameters, equal placement, seed 1. */
void piles_opts_init(struct piles_opts *o, enum pile_policy policy);

/*
 * Takes option c (one of PILES_OPT_*) with its argument: 1 if it was one
 * (a bad value exits 2 with a clear error), 0 if not.
 */
int piles_cli_option(const char *prog, struct piles_opts *o, int c, const char *arg);

/*
 * The policy on a cluster (V_i, Q_i schedules) over iterations of the given
 * costs, printed, with the same placement without balancing for NP;
 * `what` describes the work.  Returns the exit status.
 */
int simulate_piles_cluster(const struct piles_opts *o, const struct cluster *cl,
			   const uint64_t *cost, int64_t iterations, double t_unit, double latency,
			   const char *what);

#endif
