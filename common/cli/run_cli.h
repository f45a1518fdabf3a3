/*
 * run_cli.h - the options of a serving program's main() that dls-master and
 * dls-treesched share alike: the run and its image (--run --slaves --width
 * --height --maxit --order), the outputs (--png --raw --csv --json --ior
 * --quiet --progress), the emulated cluster's power (--t-iter --power), the
 * timers (--register-timeout-ms --ping-ms --ping-timeout-ms
 * --call-timeout-ms) and the logging (-v -q).  For main() only: a bad value
 * exits 2 with one line.
 */
#ifndef DLS_RUN_CLI_H
#define DLS_RUN_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "dls/emul.h"
#include "iter_order.h"
#include "run_report.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
	RUN_OPT_RUN = 0x3000,
	RUN_OPT_SLAVES,
	RUN_OPT_WIDTH,
	RUN_OPT_HEIGHT,
	RUN_OPT_MAXIT,
	RUN_OPT_ORDER,
	RUN_OPT_PNG,
	RUN_OPT_RAW,
	RUN_OPT_CSV,
	RUN_OPT_JSON,
	RUN_OPT_IOR,
	RUN_OPT_REGTO,
	RUN_OPT_PING,
	RUN_OPT_PINGTO,
	RUN_OPT_CALLTO,
	RUN_OPT_TITER,
	RUN_OPT_POWER,
	RUN_OPT_PROGRESS,
	RUN_OPT_QUIET
};

#define RUN_CLI_LONG_OPTIONS                                                                       \
	{"run", required_argument, 0, RUN_OPT_RUN},                                                \
		{"slaves", required_argument, 0, RUN_OPT_SLAVES},                                  \
		{"width", required_argument, 0, RUN_OPT_WIDTH},                                    \
		{"height", required_argument, 0, RUN_OPT_HEIGHT},                                  \
		{"maxit", required_argument, 0, RUN_OPT_MAXIT},                                    \
		{"order", required_argument, 0, RUN_OPT_ORDER},                                    \
		{"png", required_argument, 0, RUN_OPT_PNG},                                        \
		{"raw", required_argument, 0, RUN_OPT_RAW},                                        \
		{"csv", required_argument, 0, RUN_OPT_CSV},                                        \
		{"json", required_argument, 0, RUN_OPT_JSON},                                      \
		{"ior", required_argument, 0, RUN_OPT_IOR},                                        \
		{"register-timeout-ms", required_argument, 0, RUN_OPT_REGTO},                      \
		{"ping-ms", required_argument, 0, RUN_OPT_PING},                                   \
		{"ping-timeout-ms", required_argument, 0, RUN_OPT_PINGTO},                         \
		{"call-timeout-ms", required_argument, 0, RUN_OPT_CALLTO},                         \
		{"t-iter", required_argument, 0, RUN_OPT_TITER},                                   \
		{"power", required_argument, 0, RUN_OPT_POWER},                                    \
		{"progress", no_argument, 0, RUN_OPT_PROGRESS}, {                                  \
		"quiet", no_argument, 0, RUN_OPT_QUIET                                             \
	}

struct run_cli {
	char run_name[64];
	int nslaves, max_slaves;
	int32_t width, height, maxit;
	enum iter_order_mode order;
	struct run_outputs out; /* out.power points at power once --power is given */
	struct emul_steps power;
	const char *ior_file;
	int register_timeout_ms, ping_ms, ping_timeout_ms;
	int progress, verbose;
};

/* The defaults: run "dls", 400 x 200, maxit 256, natural order, 30 s to
 * register, pings every 500 ms with a 3 s timeout; at most max_slaves. */
void run_cli_init(struct run_cli *c, int max_slaves);

/*
 * Applies option opt (a RUN_OPT_*, or 'v' and 'q') with its argument;
 * returns 1 if it was one of them, else 0.  Bad values exit 2.
 */
int run_cli_option(const char *prog, struct run_cli *c, int opt, const char *arg);

/* After the options: --slaves is required (exit 2 without it). */
void run_cli_finish(const char *prog, struct run_cli *c);

#ifdef __cplusplus
}
#endif
#endif
