/*
 * dls-master - serves a loop of W iterations (one Mandelbrot column each)
 * to its slaves with any scheme of the library; see --help.  Tree
 * Scheduling has its own program, dls-treesched (treesched/main.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_util.h"
#include "dls/err.h"
#include "dls/log.h"
#include "dls/proto.h"
#include "dls/emul.h"
#include "mandel.h"
#include "master.h"
#include "master_orb.h"
#include "orb_util.h"
#include "sched_cli.h"

static const char *const prog = "dls-master";
#define PROG prog

static void help(void)
{
	printf("usage: dls-master --slaves N [--run NAME] [--scheme NAME] [--width W --height H]\n"
	       "                  [options] [-ORB... options]\n\n"
	       "Serves the loop's iterations to N slaves found through the naming service\n"
	       "(bound as DLS/NAME/master), then prints seed 001's per-PE table.\n\n"
	       "  --run NAME              naming context of the run (default dls)\n"
	       "  --slaves N              slaves to expect (required)\n"
	       "  --width W, --height H   image size; one iteration per column (default 400x200)\n"
	       "  --maxit M               iteration limit per pixel (default 256)\n"
	       "  --order O               natural (default) or interleaved\n"
	       "  --collect C             piggyback (default) or end\n" SCHED_CLI_HELP
	       "  --png FILE              the image, coloured\n"
	       "  --raw FILE              the raw counts as 16-bit PGM\n"
	       "  --csv FILE, --json FILE the per-PE table and the run's summary\n"
	       "  --ior FILE              also write the master's IOR\n"
	       "  --register-timeout-ms T registration closes after T ms (default 30000)\n"
	       "  --start-timeout-ms T    first requests are collected at most T ms (default 3000)\n"
	       "  --ping-ms T             liveness checks of slaves holding work (default 500)\n"
	       "  --ping-timeout-ms T     a slave silent this long is lost (default 3000)\n"
	       "  --call-timeout-ms T     timeout of the master's own calls (default 10000)\n"
	       "  --t-iter NS --power S   emulated cost per iteration and the cluster's power\n"
	       "                          sum V_i/Q_i (steps t:P,...), for T_ideal and E\n"
	       "  --progress              a live progress line on stderr\n"
	       "  --quiet                 no table on stdout\n"
	       "  -v, -q                  more or less logging (DLS_LOG_LEVEL)\n\n"
	       "Tree Scheduling (--scheme trees) has its own coordinator: dls-treesched --help.\n");
}

enum { O_RUN = 1, O_SLAVES, O_WIDTH, O_HEIGHT, O_MAXIT, O_ORDER, O_COLLECT, O_PNG, O_RAW, O_CSV,
       O_JSON, O_IOR, O_REGTO, O_STARTTO, O_PING, O_PINGTO, O_CALLTO, O_TITER, O_POWER,
       O_PROGRESS, O_QUIET };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		SCHED_CLI_LONG_OPTIONS,
		{"run", required_argument, 0, O_RUN},
		{"slaves", required_argument, 0, O_SLAVES},
		{"width", required_argument, 0, O_WIDTH},
		{"height", required_argument, 0, O_HEIGHT},
		{"maxit", required_argument, 0, O_MAXIT},
		{"order", required_argument, 0, O_ORDER},
		{"collect", required_argument, 0, O_COLLECT},
		{"png", required_argument, 0, O_PNG},
		{"raw", required_argument, 0, O_RAW},
		{"csv", required_argument, 0, O_CSV},
		{"json", required_argument, 0, O_JSON},
		{"ior", required_argument, 0, O_IOR},
		{"register-timeout-ms", required_argument, 0, O_REGTO},
		{"start-timeout-ms", required_argument, 0, O_STARTTO},
		{"ping-ms", required_argument, 0, O_PING},
		{"ping-timeout-ms", required_argument, 0, O_PINGTO},
		{"call-timeout-ms", required_argument, 0, O_CALLTO},
		{"t-iter", required_argument, 0, O_TITER},
		{"power", required_argument, 0, O_POWER},
		{"progress", no_argument, 0, O_PROGRESS},
		{"quiet", no_argument, 0, O_QUIET},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	struct master_config cfg;
	struct master_orb_opts o = {0};
	struct sched_cli sc;
	struct emul_steps power = {0};
	struct master *m;
	int c, rc, verbose = 0;
	const char *cause;

	memset(&cfg, 0, sizeof(cfg));
	dls_log_set_role("master");
	dls_log_set_level(-1);
	snprintf(cfg.run_name, sizeof(cfg.run_name), "dls");
	snprintf(cfg.workload, sizeof(cfg.workload), "mandelbrot");
	cfg.width = 400;
	cfg.height = 200;
	cfg.maxit = MANDEL_DEFAULT_MAXIT;
	cfg.register_timeout_ms = 30000;
	cfg.start_timeout_ms = 3000;
	cfg.wait_ms = 20;
	o.ping_ms = 500;
	o.ping_timeout_ms = 3000;
	o.dismiss_timeout_ms = 5000;
	sched_cli_init(&sc);
	/* first the ORB, which removes the -ORB... options from argv */
	rc = cli_server_start(PROG, &argc, argv, help, 10000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = getopt_long(argc, argv, "vq", opts, NULL)) != -1) {
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees"))
			cli_usage_error(PROG, "--scheme", optarg,
					"Tree Scheduling runs under its own coordinator, "
					"dls-treesched");
		if (sched_cli_option(PROG, &sc, c, optarg))
			continue;
		switch (c) {
		case O_RUN:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= sizeof(cfg.run_name))
				cli_usage_error(PROG, "--run", optarg,
						"must be 1 to 63 characters without '/'");
			snprintf(cfg.run_name, sizeof(cfg.run_name), "%s", optarg);
			break;
		case O_SLAVES:
			cfg.nslaves = (int)cli_i64_or_die(PROG, "--slaves", optarg, 1, MASTER_MAX_SLAVES);
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
		case O_COLLECT:
			if (!strcmp(optarg, "piggyback"))
				cfg.collect = DLS_COLLECT_PIGGYBACK;
			else if (!strcmp(optarg, "end"))
				cfg.collect = DLS_COLLECT_END;
			else
				cli_usage_error(PROG, "--collect", optarg, "must be piggyback or end");
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
		case O_STARTTO:
			cfg.start_timeout_ms =
				(int)cli_i64_or_die(PROG, "--start-timeout-ms", optarg, 0, 3600000);
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
			fprintf(stderr, "try '%s --help'\n", prog);
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	if (!cfg.nslaves)
		cli_usage_error(PROG, "--slaves", NULL, "is required");
	sched_cli_finish(PROG, &sc, "dtss", cfg.width, cfg.nslaves);
	cfg.sched = sc.p;
	m = master_create(&cfg, &rc);
	if (!m) {
		fprintf(stderr, "%s: cannot set up the run: %s (check the scheme's options)\n", prog,
			dls_strerror(rc));
		dls_orb_destroy();
		return rc == DLS_EINVAL ? 2 : 1;
	}
	rc = master_orb_run(m, &o);
	dls_orb_destroy();
	master_destroy(m);
	return rc;
}
