/*
 * pile_cli.h - the options of the decentralized policies of docs/schemes.md appendix A
 * (common/policy/pile_policy.h), one parser for `dls simulate`, `dls run` and
 * dls-treesched.  May exit (a bad value: status 2 with a clear error).
 */
#ifndef DLS_PILE_CLI_H
#define DLS_PILE_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "pile_policy.h"

enum {
	PILES_OPT_SEED = 0x5000,
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
	PILES_OPT_PASS_MIN,
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
	    {"step-us", required_argument, 0, PILES_OPT_STEP},                                   \
	    {"pass-min", required_argument, 0, PILES_OPT_PASS_MIN}

/* The parameters' help, as every program that takes them prints it. */
#define PILES_CLI_HELP                                                                           \
	"    workpile: --threshold N (1), --backoff-us US (1000), --backoff-max-us US\n"        \
	"              (100000)\n"                                                              \
	"    roc:      --ht N (25) --lt N (10) --ct N (4), --table-size N (5),\n"              \
	"              --nf-max N (8), --interval-us US (10000), --nd-us US\n"                 \
	"              (0: 1 MB at 1 Gb/s + RTT)\n"                                            \
	"    ripple:   --topology line|cube (line; cube: 2^d PEs), --step-us US (1000),\n"     \
	"              --pass-min X (1: a flow of fewer iterations waits for the next\n"       \
	"              step; 0: the model's, every step)\n"

/*
 * Takes option c (one of PILES_OPT_*) with its argument into *p (--seed into
 * *seed; NULL: refused as unknown here): 1 if it was one (a bad value exits
 * 2 with a clear error), 0 if not.
 */
int pile_cli_option(const char *prog, struct pile_params *p, uint64_t *seed, int c,
		    const char *arg);

/*
 * The options given, as arguments for another program (dls run passes them
 * to dls-treesched): appends "--ht", "30", ... to argv (*argc grows; each
 * string is the caller's to free).  Only values that differ from the
 * defaults.  DLS_OK or DLS_ENOMEM.
 */
int pile_cli_args(const struct pile_params *p, char **argv, int *argc, int max);

#endif
