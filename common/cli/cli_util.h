/*
 * cli_util.h - helpers for the main() of each program (they may exit, so
 * library code never calls them): the one-line usage error (program, option,
 * value, cause; exit 2) and option values parsed or refused.
 */
#ifndef DLS_CLI_UTIL_H
#define DLS_CLI_UTIL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* DLS's version ("0.3.0"), as the Makefile and dls.pc give it. */
const char *cli_version(void);

/*
 * Prints "prog: OPT 'VALUE': CAUSE" and a hint naming `prog --help` to
 * stderr, then exits 2.  value may be NULL (then only OPT: CAUSE).
 */
void cli_usage_error(const char *prog, const char *opt, const char *value, const char *cause)
	__attribute__((noreturn));

/* Parses an integer option or exits 2 with the cause. */
int64_t cli_i64_or_die(const char *prog, const char *opt, const char *value, int64_t min,
		       int64_t max);

/* Parses a number option or exits 2 with the cause. */
double cli_double_or_die(const char *prog, const char *opt, const char *value, double min,
			 double max);

/* Parses "on" or "off" (1 or 0) or exits 2 with the cause. */
int cli_on_off_or_die(const char *prog, const char *opt, const char *value);

/*
 * Sets a workload parameter from an option's value: "NAME=VALUE" when name
 * is NULL (--param), else name = value (--width W).  Exits 2 with the cause
 * for a malformed pair, a name or value too long, or too many parameters.
 */
struct dls_param;
void cli_param_or_die(const char *prog, const char *opt, struct dls_param *params, int *n,
		      const char *name, const char *value);

/*
 * Exits 2 naming opt, path and the cause unless path can be written (it is
 * opened for appending, and removed again if this made it): an output is
 * checked before any computation, so that none is lost to a bad path.
 * path NULL: nothing to check.
 */
void cli_writable_or_die(const char *prog, const char *opt, const char *path);

/*
 * The same for every file of a run's outputs (--out --png --raw --csv
 * --json), refusing two of them in one file and an --out that is not .npy.
 * hold: the program writes them itself, so they stay open from now until
 * they are written (out_files.h); 0: another program writes them (dls run).
 */
struct run_outputs;
void cli_outputs_writable_or_die(const char *prog, const struct run_outputs *o, int hold);

/* A file an option names (path NULL: not given). */
struct cli_file {
	const char *opt, *path;
};

/*
 * Exits 2 when two of the n files are one (their folders resolved; the
 * files need not exist), naming the later option and the earlier: one
 * would overwrite the other.
 */
void cli_files_distinct_or_die(const char *prog, const struct cli_file *f, size_t n);

/*
 * Loads the run's secret named by option opt (run_auth.h) into *out, or
 * exits 2 with the file and the cause (unreadable, mode not 0600, size).
 */
struct run_secret;
void cli_secret_or_die(const char *prog, const char *opt, const char *path,
		       struct run_secret *out);

/*
 * Keeps freed message buffers in the process's heap: results arrive in
 * messages of up to 1 MiB, one after another, and by default glibc hands
 * each freed buffer back to the kernel (mmap threshold, heap trimming), so
 * that the next one faults in page by page (BENCHMARKS.md 3.2).  A
 * process-wide malloc setting: for a server's main() only.
 */
void cli_keep_message_buffers(void);

/*
 * The start of a server's main(): prints help() and returns 1 for --help
 * or -h, the version for --version; otherwise reads --call-timeout-ms (default_ms if absent), takes
 * --listen ADDR[:PORT], --tls-dir D and --lifeline out of argv (CLI_NET_HELP;
 * a bad address exits 2 naming it; --lifeline: exit 1 when stdin closes,
 * the launcher's pipe), raises the descriptor limit to the hard one, sets
 * argv[0] to prog (getopt names the program by it), and starts the ORB,
 * which takes the -ORB... options out of argv.
 * Returns 0, or -1 when the ORB could not start (the reason was logged).
 */
int cli_server_start(const char *prog, int *argc, char **argv, void (*help)(void),
		     int default_ms);

/* The --help lines of the options cli_server_start() takes. */
#define CLI_NET_HELP                                                                     \
	"  --listen ADDR[:PORT]    bind and advertise only this address (default: every\n"  \
	"                          interface, the first non-loopback one advertised)\n"    \
	"  --tls-dir D             TLS with D's CA, key and password (dls tls init);\n"    \
	"                          listens on giop:ssl only, verifies every peer\n"     \
	"  --lifeline              exit when standard input closes (dls run's pipe)\n"

/*
 * --timeout S of a program whose work has no loop to check a clock in (a
 * slave, an hmaster): seconds from now, a thread prints "PROG: --timeout S
 * s passed before the run ended: giving up" and ends the process with
 * status 1.  seconds <= 0: nothing.  For main() only.
 */
void cli_watchdog(const char *prog, double seconds);

#ifdef __cplusplus
}
#endif
#endif
