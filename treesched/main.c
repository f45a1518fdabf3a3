/*
 * dls-treesched - Tree Scheduling's coordinator P0 (coordinator.h): places
 * the slaves on the bitonic chain, collects their results and repairs the
 * chain around a lost slave; see --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "coordinator.h"
#include "coordinator_orb.h"
#include "dls/emul.h"
#include "dls/err.h"
#include "dls/log.h"
#include "mandel.h"
#include "orb_util.h"

#define PROG "dls-treesched"

static void help(void)
{
	printf("usage: dls-treesched --slaves N [--run NAME] [--width W --height H]\n"
	       "                     [options] [-ORB... options]\n\n"
	       "Tree Scheduling's coordinator P0 (seed 000, seed 001 section 4.1), bound as\n"
	       "DLS/NAME/treesched: collects the slaves' throughputs, builds the bitonic\n"
	       "cluster tree and migration chain, gives each slave its neighbours and its\n"
	       "first iterations, collects the results, and ends the run at I.  Slaves join\n"
	       "with dls-slave --coordinator treesched.\n\n"
	       "  --run NAME              naming context of the run (default dls)\n"
	       "  --slaves N              slaves to expect (required)\n"
	       "  --width W, --height H   image size; one iteration per column (default 400x200)\n"
	       "  --maxit M               iteration limit per pixel (default 256)\n"
	       "  --order O               natural (default) or interleaved\n"
	       "  --gamma G               share a busy slave hands to an idle neighbour: half\n"
	       "                          (default), proportional (tau_j/(tau_i+tau_j)) or ratio\n"
	       "  --alloc A               first iterations: equal (default), proportional or\n"
	       "                          round-robin (SCHEMES.md 6.5)\n"
	       "  --bidirectional         idle slaves ask both neighbours (seed 000 4.3)\n"
	       "  --report-interval S     slaves send results every S seconds (default 0.5);\n"
	       "                          0: only when they run out of work (end collection)\n"
	       "  --png FILE              the image, coloured\n"
	       "  --raw FILE              the raw counts as 16-bit PGM\n"
	       "  --csv FILE, --json FILE the per-PE table and the run's summary\n"
	       "  --ior FILE              also write the coordinator's IOR\n"
	       "  --register-timeout-ms T the chain is built over the slaves registered\n"
	       "                          T ms after the first (default 30000)\n"
	       "  --ping-ms T, --ping-timeout-ms T   liveness checks of every slave; a dead\n"
	       "                          one's iterations go to its left neighbour and the\n"
	       "                          chain closes around it (defaults 500, 3000)\n"
	       "  --call-timeout-ms T     timeout of the coordinator's own calls (default 10000)\n"
	       "  --t-iter NS --power S   emulated cost per iteration and the cluster's power\n"
	       "                          sum V_i/Q_i (steps t:P,...), for T_ideal and E\n"
	       "  --progress              a live progress line on stderr\n"
	       "  --quiet                 no table on stdout\n"
	       "  -v, -q                  more or less logging (DLS_LOG_LEVEL)\n");
}

enum { O_RUN = 1, O_SLAVES, O_WIDTH, O_HEIGHT, O_MAXIT, O_ORDER, O_PNG, O_RAW, O_CSV, O_JSON,
       O_IOR, O_REGTO, O_PING, O_PINGTO, O_CALLTO, O_TITER, O_POWER, O_PROGRESS, O_QUIET,
       O_GAMMA, O_ALLOC, O_BIDI, O_REPORT };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"run", required_argument, 0, O_RUN},
		{"slaves", required_argument, 0, O_SLAVES},
		{"width", required_argument, 0, O_WIDTH},
		{"height", required_argument, 0, O_HEIGHT},
		{"maxit", required_argument, 0, O_MAXIT},
		{"order", required_argument, 0, O_ORDER},
		{"png", required_argument, 0, O_PNG},
		{"raw", required_argument, 0, O_RAW},
		{"csv", required_argument, 0, O_CSV},
		{"json", required_argument, 0, O_JSON},
		{"ior", required_argument, 0, O_IOR},
		{"register-timeout-ms", required_argument, 0, O_REGTO},
		{"ping-ms", required_argument, 0, O_PING},
		{"ping-timeout-ms", required_argument, 0, O_PINGTO},
		{"call-timeout-ms", required_argument, 0, O_CALLTO},
		{"t-iter", required_argument, 0, O_TITER},
		{"power", required_argument, 0, O_POWER},
		{"progress", no_argument, 0, O_PROGRESS},
		{"quiet", no_argument, 0, O_QUIET},
		{"gamma", required_argument, 0, O_GAMMA},
		{"alloc", required_argument, 0, O_ALLOC},
		{"bidirectional", no_argument, 0, O_BIDI},
		{"report-interval", required_argument, 0, O_REPORT},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	struct coordinator_config cfg;
	struct coordinator_orb_opts o = {0};
	struct emul_steps power = {0};
	struct coordinator *co;
	int c, rc, verbose = 0;
	const char *cause;

	memset(&cfg, 0, sizeof(cfg));
	dls_log_set_role("treesched");
	dls_log_set_level(-1);
	snprintf(cfg.run_name, sizeof(cfg.run_name), "dls");
	snprintf(cfg.workload, sizeof(cfg.workload), "mandelbrot");
	cfg.width = 400;
	cfg.height = 200;
	cfg.maxit = MANDEL_DEFAULT_MAXIT;
	cfg.register_timeout_ms = 30000;
	cfg.alloc = TREE_ALLOC_EQUAL;
	cfg.gamma = TREE_GAMMA_HALF;
	cfg.report_interval = 0.5;
	o.ping_ms = 500;
	o.ping_timeout_ms = 3000;
	/* first the ORB, which removes the -ORB... options from argv */
	rc = cli_server_start(PROG, &argc, argv, help, 10000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = getopt_long(argc, argv, "vq", opts, NULL)) != -1) {
		switch (c) {
		case O_GAMMA:
			if (tree_gamma_parse(optarg, &cfg.gamma))
				cli_usage_error(PROG, "--gamma", optarg,
						"must be half, proportional or ratio");
			break;
		case O_ALLOC:
			if (tree_alloc_parse(optarg, &cfg.alloc))
				cli_usage_error(PROG, "--alloc", optarg,
						"must be equal, proportional or round-robin");
			break;
		case O_BIDI:
			cfg.bidirectional = 1;
			break;
		case O_REPORT:
			cfg.report_interval =
				cli_double_or_die(PROG, "--report-interval", optarg, 0, 3600);
			break;
		case O_RUN:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= sizeof(cfg.run_name))
				cli_usage_error(PROG, "--run", optarg,
						"must be 1 to 63 characters without '/'");
			snprintf(cfg.run_name, sizeof(cfg.run_name), "%s", optarg);
			break;
		case O_SLAVES:
			cfg.nslaves = (int)cli_i64_or_die(PROG, "--slaves", optarg, 1,
							  COORDINATOR_MAX_SLAVES);
			break;
		case O_WIDTH:
			cfg.width = (int32_t)cli_i64_or_die(PROG, "--width", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case O_HEIGHT:
			cfg.height = (int32_t)cli_i64_or_die(PROG, "--height", optarg, 1, DLS_MAX_ROWS);
			break;
		case O_MAXIT:
			cfg.maxit = (int32_t)cli_i64_or_die(PROG, "--maxit", optarg, 1, MANDEL_MAX_MAXIT);
			break;
		case O_ORDER:
			if (iter_order_parse(optarg, &cfg.order))
				cli_usage_error(PROG, "--order", optarg, "must be natural or interleaved");
			break;
		case O_PNG:
			o.out.png = optarg;
			break;
		case O_RAW:
			o.out.raw = optarg;
			break;
		case O_CSV:
			o.out.csv = optarg;
			break;
		case O_JSON:
			o.out.json = optarg;
			break;
		case O_IOR:
			o.ior_file = optarg;
			break;
		case O_REGTO:
			cfg.register_timeout_ms =
				(int)cli_i64_or_die(PROG, "--register-timeout-ms", optarg, 1, 3600000);
			break;
		case O_PING:
			o.ping_ms = (int)cli_i64_or_die(PROG, "--ping-ms", optarg, 1, 3600000);
			break;
		case O_PINGTO:
			o.ping_timeout_ms =
				(int)cli_i64_or_die(PROG, "--ping-timeout-ms", optarg, 1, 3600000);
			break;
		case O_CALLTO:
			break; /* applied before the ORB started */
		case O_TITER:
			o.out.t_iter_ns = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
			break;
		case O_POWER:
			cause = emul_steps_parse(optarg, &power);
			if (cause)
				cli_usage_error(PROG, "--power", optarg, cause);
			o.out.power = &power;
			break;
		case O_PROGRESS:
			o.progress = 1;
			break;
		case O_QUIET:
			o.out.quiet = 1;
			break;
		case 'v':
			dls_log_set_level(++verbose >= 2 ? DLS_LOG_DEBUG : DLS_LOG_INFO);
			break;
		case 'q':
			dls_log_set_level(DLS_LOG_ERR);
			break;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	if (!cfg.nslaves)
		cli_usage_error(PROG, "--slaves", NULL, "is required");
	co = coordinator_create(&cfg, &rc);
	if (!co) {
		fprintf(stderr, PROG ": cannot set up the run: %s\n", dls_strerror(rc));
		dls_orb_destroy();
		return rc == DLS_EINVAL ? 2 : 1;
	}
	rc = coordinator_orb_run(co, &o);
	dls_orb_destroy();
	coordinator_destroy(co);
	return rc;
}
