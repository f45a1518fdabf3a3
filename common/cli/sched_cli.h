/*
 * sched_cli.h - the scheme options every program takes alike (`dls chunks`,
 * `dls-master`, `dls run`): --scheme --profile --k --alpha --fac --mu --sd
 * --sigma --X --F --L --h --rates.  For main() only: bad values exit 2 with one line.
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
		{"k", required_argument, 0, SCHED_OPT_K},                                          \
		{"alpha", required_argument, 0, SCHED_OPT_ALPHA},                                  \
		{"fac", no_argument, 0, SCHED_OPT_FAC}, {"mu", required_argument, 0, SCHED_OPT_MU}, \
		{"sd", required_argument, 0, SCHED_OPT_SD},                                        \
		{"sigma", required_argument, 0, SCHED_OPT_SIGMA},                                  \
		{"X", required_argument, 0, SCHED_OPT_X}, {"x", required_argument, 0, SCHED_OPT_X}, \
		{"F", required_argument, 0, SCHED_OPT_F}, {"h", required_argument, 0, SCHED_OPT_H}, \
		{"rates", required_argument, 0, SCHED_OPT_RATES},                                  \
	{                                                                                          \
		"L", required_argument, 0, SCHED_OPT_L                                             \
	}

#define SCHED_CLI_HELP                                                                             \
	"  --scheme NAME     ss css gss tss fss fiss tfss wf dtss dfss dfiss dtfss static fsc\n"   \
	"                    mfsc awf-b awf-c awf-d awf-e af awf auto (any case; awf: time\n"      \
	"                    steps, dls simulate --steps)\n"                                       \
	"  --profile P       table (default: reproduces seed 001 Table 1) or text\n"               \
	"  --k K             CSS chunk (default ceil(I/P)) or GSS minimum chunk (default 1)\n"     \
	"  --alpha A         FSS/DFSS/WF alpha, e.g. 2, 1.5 or 3/2 (default 2)\n"                  \
	"  --fac             FSS/DFSS: Hummel's FAC rule, iteration mean --mu and sd --sd\n"       \
	"  --sigma S, --X X  FISS/DFISS stages (default 3) and X (default sigma+2)\n"              \
	"  --F F, --L L      TSS first and last chunk (default floor(I/2P), 1)\n"                  \
	"  --h H --sd S      FSC: a chunk's scheduling overhead and the iteration time's sd\n"     \
	"                    (the same unit; default: equal)\n"                                    \
	"  --rates R         DTSS/DFSS/DFISS/DTFSS: weigh each slave by its declared A_i\n"        \
	"                    (declared, default) or by its measured rate (measured)\n"

struct sched_cli {
	struct sched_params p;
	const char *scheme; /* NULL until --scheme */
	int64_t k;	    /* --k, 0 when absent */
	double h;	    /* --h, 0 when absent */
	const char *sd;	    /* --sd as given, NULL when absent */
};

/* Defaults; kind stays unset until sched_cli_finish. */
void sched_cli_init(struct sched_cli *sc);

/* Applies option opt (one of SCHED_OPT_*); returns 1 if it was one. */
int sched_cli_option(const char *prog, struct sched_cli *sc, int opt, const char *arg);

/*
 * Resolves the scheme name (default_scheme when --scheme was not given) and
 * --k for I iterations on npes PEs; exits 2 on a bad combination.
 */
void sched_cli_finish(const char *prog, struct sched_cli *sc, const char *default_scheme,
		      int64_t iterations, int npes);

#ifdef __cplusplus
}
#endif
#endif
