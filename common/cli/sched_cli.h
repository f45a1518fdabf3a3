/*
 * sched_cli.h - the scheme options every program takes alike (`dls chunks`,
 * `dls-master`, `dls run`): --scheme --profile --chunk --alpha --fac --mu
 * --sd --sigma --fiss-x --tss-first --tss-last --fsc-overhead --rates.  For main() only: bad values exit 2 with one line.
 */
#ifndef DLS_SCHED_CLI_H
#define DLS_SCHED_CLI_H

#include <getopt.h>

#include "dls_sched.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	SCHED_OPT_SCHEME = 0x1000,
	SCHED_OPT_PROFILE,
	SCHED_OPT_K,
	SCHED_OPT_ALPHA,
	SCHED_OPT_FAC,
	SCHED_OPT_MU,
	SCHED_OPT_SD,
	SCHED_OPT_SIGMA,
	SCHED_OPT_X,
	SCHED_OPT_F,
	SCHED_OPT_L,
	SCHED_OPT_H,
	SCHED_OPT_RATES,
	SCHED_OPT_LAST = SCHED_OPT_RATES
};

#define SCHED_CLI_LONG_OPTIONS                                                                     \
	{"scheme", required_argument, 0, SCHED_OPT_SCHEME},                                        \
		{"profile", required_argument, 0, SCHED_OPT_PROFILE},                              \
		{"chunk", required_argument, 0, SCHED_OPT_K},                                      \
		{"alpha", required_argument, 0, SCHED_OPT_ALPHA},                                  \
		{"fac", no_argument, 0, SCHED_OPT_FAC}, {"mu", required_argument, 0, SCHED_OPT_MU}, \
		{"sd", required_argument, 0, SCHED_OPT_SD},                                        \
		{"sigma", required_argument, 0, SCHED_OPT_SIGMA},                                  \
		{"fiss-x", required_argument, 0, SCHED_OPT_X},                                     \
		{"tss-first", required_argument, 0, SCHED_OPT_F},                                  \
		{"fsc-overhead", required_argument, 0, SCHED_OPT_H},                               \
		{"rates", required_argument, 0, SCHED_OPT_RATES},                                  \
	{                                                                                          \
		"tss-last", required_argument, 0, SCHED_OPT_L                                      \
	}

#define SCHED_CLI_HELP                                                                             \
	"  --scheme NAME     ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss static\n"      \
	"                    fsc mfsc awf-b awf-c awf-d awf-e af awf auto (any case;\n"          \
	"                    default dtss where it may be left out; awf: time steps,\n"         \
	"                    dls simulate --steps)\n"                                             \
	"  --profile P       table (default: rounds as Chronopoulos et al.'s Table 1)\n"          \
	"                    or text\n"                                                            \
	"  --chunk K         CSS chunk (default ceil(I/P)), GSS minimum chunk (default 1)\n"      \
	"  --alpha A         FSS/DFSS/WF alpha, e.g. 2, 1.5 or 3/2 (default 2)\n"                  \
	"  --fac             FSS/DFSS: Hummel's FAC rule, iteration mean --mu and sd --sd\n"       \
	"  --sigma S         FISS/DFISS stages (default 3)\n"                                      \
	"  --fiss-x X        FISS/DFISS X (default sigma + 2)\n"                                   \
	"  --tss-first F     TSS first chunk (default floor(I/2P))\n"                              \
	"  --tss-last L      TSS last chunk (default 1)\n"                                         \
	"  --fsc-overhead H  FSC: a chunk's scheduling overhead, with --sd the iteration\n"        \
	"                    time's sd (the same unit; default: equal)\n"                          \
	"  --rates R         DTSS/DFSS/DFISS/DTFSS: weigh each slave by its declared A_i\n"        \
	"                    (declared, default) or by its measured rate (measured)\n"

struct sched_cli {
	struct sched_params p;
	const char *scheme; /* NULL until --scheme */
	int64_t k;	    /* --chunk, 0 when absent */
	double h;	    /* --fsc-overhead, 0 when absent */
	const char *sd;	    /* --sd as given, NULL when absent */
};

/* Defaults; kind stays unset until sched_cli_finish. */
void sched_cli_init(struct sched_cli *sc);

/* Applies option opt (one of SCHED_OPT_*); returns 1 if it was one. */
int sched_cli_option(const char *prog, struct sched_cli *sc, int opt, const char *arg);

/*
 * Resolves the scheme name (default_scheme when --scheme was not given) and
 * --chunk for I iterations on npes PEs; exits 2 on a bad combination.
 */
void sched_cli_finish(const char *prog, struct sched_cli *sc, const char *default_scheme,
		      int64_t iterations, int npes);

#ifdef __cplusplus
}
#endif
#endif
