/*
 * run_cli.h - the options of a serving program's main() that dls-master and
 * dls-treesched share alike: the run and its loop (--run --slaves
 * --workload --param --order, and Mandelbrot's --width --height --maxit),
 * the outputs (--out --png --raw --csv --json --ior --quiet --progress), the emulated cluster's power (--t-iter --power), the
 * timers (--register-timeout-ms --ping-ms --ping-timeout-ms
 * --call-timeout-ms) and the logging (-v -q).  For main() only: a bad value
 * exits 2 with one line.
 */
#ifndef DLS_RUN_CLI_H
#define DLS_RUN_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "emul.h"
#include "dls/workload.h"
#include "iter_order.h"
#include "run_auth.h"
#include "run_report.h"
#include "serve_opts.h"

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
	RUN_OPT_QUIET,
	RUN_OPT_WORKLOAD,
	RUN_OPT_PARAM,
	RUN_OPT_OUT,
	RUN_OPT_SECRET,
	RUN_OPT_JOURNAL,
	RUN_OPT_RESUME,
	RUN_OPT_JSYNC,
	RUN_OPT_TIMEOUT
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
		{"progress", no_argument, 0, RUN_OPT_PROGRESS},                                    \
		{"workload", required_argument, 0, RUN_OPT_WORKLOAD},                              \
		{"param", required_argument, 0, RUN_OPT_PARAM},                                    \
		{"out", required_argument, 0, RUN_OPT_OUT},                                        \
		{"secret-file", required_argument, 0, RUN_OPT_SECRET},                             \
		{"journal", required_argument, 0, RUN_OPT_JOURNAL},                                \
		{"resume", required_argument, 0, RUN_OPT_RESUME},                                  \
		{"journal-sync", required_argument, 0, RUN_OPT_JSYNC},                             \
		{"timeout", required_argument, 0, RUN_OPT_TIMEOUT}, {                              \
		"quiet", no_argument, 0, RUN_OPT_QUIET                                             \
	}

/* The help lines of the loop's and the outputs' options. */
#define RUN_CLI_LOOP_HELP                                                                          \
	"  --workload NAME         the loop body: mandelbrot (default), pendulum, or one\n"         \
	"                          a host program registered\n"                                    \
	"  --param NAME=VALUE      a workload parameter (repeatable; PROTOCOL.md 3)\n"             \
	"  --width W, --height H   Mandelbrot's image: --param width=W --param height=H\n"         \
	"                          (default 400x200, one iteration per column)\n"                  \
	"  --maxit M               Mandelbrot: --param maxit=M (default 256)\n"                    \
	"  --order O               natural (default) or interleaved\n"
#define RUN_CLI_OUT_HELP                                                                           \
	"  --out FILE.npy          the results, one row per loop index (numpy.load)\n"             \
	"  --png FILE              Mandelbrot: the image, coloured\n"                              \
	"  --raw FILE              Mandelbrot: the raw counts as 16-bit PGM\n"                     \
	"  --csv FILE, --json FILE the per-PE table and the run's summary\n"             \
	"  --secret-file FILE      the run's secret (mode 0600): only processes that\n"         \
	"                          know it may join (PROTOCOL.md 14); default: open run\n"

#define RUN_CLI_TIMEOUT_HELP                                                                       \
	"  --timeout S             give up S seconds after the start, exit 1 saying what\n"      \
	"                          it was still waiting for (default: never)\n"

#define RUN_CLI_JOURNAL_HELP                                                                       \
	"  --journal DIR           journal the run to DIR/journal.db (a new one): every\n"       \
	"                          result and scheduling step, durable before it is\n"            \
	"                          acknowledged, so that a crashed run can resume\n"              \
	"  --resume DIR            resume the run journaled in DIR after a crash: its\n"          \
	"                          configuration comes from the journal (give only the\n"         \
	"                          outputs, timers and --secret-file); slaves rejoin\n"           \
	"  --journal-sync S        disk (default): each acknowledged record is on disk\n"        \
	"                          (fsync; survives a power cut); os: handed to the\n"            \
	"                          operating system (survives the process's crash only)\n"

struct run_cli {
	char run_name[64];
	int nslaves, max_slaves;
	char workload[DLS_WORKLOAD_NAME_LEN];
	struct dls_param params[DLS_MAX_PARAMS];
	int nparams;
	int64_t iterations; /* the loop's, known after run_cli_finish */
	enum iter_order_mode order;
	struct run_outputs out; /* out.power points at power once --power is given */
	struct emul_steps power;
	const char *ior_file;
	const char *secret_file;
	struct run_secret secret; /* loaded by run_cli_finish (set = 0: an open run) */
	int register_timeout_ms, ping_ms, ping_timeout_ms;
	int progress, verbose;
	const char *journal_dir; /* --journal */
	const char *resume_dir;	 /* --resume */
	int journal_os;		 /* --journal-sync os */
	const char *config_given; /* the first option given that a resumed run takes
				     from its journal (the program adds its own) */
	double timeout_s;	  /* --timeout: give up this long after the start */
};

/* The defaults: run "dls", workload mandelbrot with its defaults, natural
 * order, 30 s to register, pings every 500 ms with a 3 s timeout; at most
 * max_slaves. */
void run_cli_init(struct run_cli *c, int max_slaves);

/*
 * Applies option opt (a RUN_OPT_*, or 'v' and 'q') with its argument;
 * returns 1 if it was one of them, else 0.  Bad values exit 2.  (Long as
 * the option table is: one case an option.)
 */
int run_cli_option(const char *prog, struct run_cli *c, int opt, const char *arg);

/*
 * A resumed run (--resume) takes these from its journal's configuration
 * instead of from options.
 */
void run_cli_take_config(struct run_cli *c, const char *run_name, int nslaves,
			 const char *workload, const struct dls_param *params, int nparams,
			 enum iter_order_mode order, int register_timeout_ms);

/*
 * After the options: --slaves is required; the workload must know its
 * parameters (it is opened to check them and to learn the iterations);
 * --png and --raw are Mandelbrot's; the secret file is loaded; every
 * output path can be written; --resume goes with neither --journal nor an
 * option of the journaled configuration (config_given).  Exits 2 with the
 * reason otherwise.
 */
void run_cli_finish(const char *prog, struct run_cli *c);

/* What the serving process takes of c once finished: its outputs, IOR,
 * liveness, progress line, secret (which points into c: keep c in place)
 * and time limit. */
void run_cli_serve_opts(const struct run_cli *c, struct serve_opts *o);

#ifdef __cplusplus
}
#endif
#endif
