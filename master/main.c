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

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_proto.h"
#include "master.h"
#include "master_orb.h"
#include "orb_util.h"
#include "run_cli.h"
#include "sched_cli.h"
#include "work.h"

static const char *const prog = "dls-master";
#define PROG prog

static void help(void)
{
	printf("usage: dls-master --slaves N [--run NAME] [--scheme NAME] [--workload W]\n"
	       "                  [options] [-ORB... options]\n\n"
	       "Serves the loop's iterations to N slaves found through the naming service\n"
	       "(bound as DLS/NAME/master), then prints the per-PE table.\n\n"
	       "  --run NAME              naming context of the run (default dls)\n"
	       "  --slaves N              slaves to expect (required)\n"
	       RUN_CLI_LOOP_HELP
	       "  --loops N               run the loop N times in one run (default 1): the\n"
	       "                          slaves stay, loop k gets parameter dls.loop=k, and\n"
	       "                          --out holds every loop, shape (N, iterations, ...);\n"
	       "                          a resumed run goes on in the loop it was in\n"
	       "  --fresh-loops           each loop's scheme starts afresh (by default the\n"
	       "                          adaptive techniques and auto go on from the loops\n"
	       "                          before)\n"
	       "  --collect C             piggyback (default) or end\n"
	       "  --take-back M           the end game: on (default) or off: once the scheme\n"
	       "                          has handed out every iteration, an idle slave takes\n"
	       "                          back the undone tail of the chunk that would end last\n"
	       "                          (PROTOCOL.md 17; slaves directly below the master)\n"
	       "  --verify F              a secret draw picks the fraction F (0..1) of the\n"
	       "                          chunks delivered; another slave computes each again,\n"
	       "                          a mismatch goes to a third: a slave found lying is\n"
	       "                          dropped and its results computed again (PROTOCOL.md\n"
	       "                          19); a resumed run keeps the journal's\n" SCHED_CLI_HELP
	       RUN_CLI_OUT_HELP
	       "  --ior FILE              also write the master's IOR\n"
	       "  --register-timeout-ms T registration closes after T ms (default 30000)\n"
	       "  --start-timeout-ms T    first requests are collected at most T ms\n"
	       "                          (default 3000)\n"
	       "  --ping-ms T             liveness checks of slaves holding work (default 500)\n"
	       "  --ping-timeout-ms T     a slave silent this long is lost (default 3000)\n"
	       "  --relay-grace-ms T      a slave below a relay hmaster that stopped answering\n"
	       "                          is lost T ms later unless it rejoined a resumed one\n"
	       "                          (default 3000; 0: at once)\n"
	       "  --stall-ms T            a slave that answers pings but whose chunk computes\n"
	       "                          nothing for T ms is lost, its work goes to others\n"
	       "                          (default 120000; 0: never; raise it for iterations\n"
	       "                          that take longer)\n"
	       "  --call-timeout-ms T     timeout of the master's own calls (default 10000)\n"
	       "  --t-iter NS --power S   emulated cost per iteration and the cluster's power\n"
	       "                          sum V_i/Q_i (steps t:P,...), for T_ideal and E\n"
	       RUN_CLI_JOURNAL_HELP
	       RUN_CLI_TIMEOUT_HELP
	       CLI_NET_HELP
	       "  --rejoin-ms T           after --resume, a slave holding work that has not\n"
	       "                          rejoined in T ms is lost (default 30000)\n"
	       "  --progress              a live progress line on stderr\n"
	       "  --quiet                 no table on stdout\n"
	       "  -v, -q                  more or less logging (DLS_LOG_LEVEL)\n\n"
	       "Tree Scheduling (--scheme trees) has its own coordinator: dls-treesched --help.\n");
}

enum {
	O_COLLECT = 1,
	O_STARTTO,
	O_REJOIN,
	O_RELAYGRACE,
	O_TAKEBACK,
	O_STALL,
	O_LOOPS,
	O_FRESH,
	O_VERIFY
};

/* A new run's configuration, from the options. */
static void config_from_options(struct master_config *cfg, const struct run_cli *rc_opts,
				struct sched_cli *sc, const char *journal_dir)
{
	snprintf(cfg->run_name, sizeof(cfg->run_name), "%s", rc_opts->run_name);
	cfg->nslaves = rc_opts->nslaves;
	snprintf(cfg->workload, sizeof(cfg->workload), "%s", rc_opts->workload);
	memcpy(cfg->params, rc_opts->params, sizeof(cfg->params));
	cfg->nparams = rc_opts->nparams;
	cfg->order = rc_opts->order;
	cfg->register_timeout_ms = rc_opts->register_timeout_ms;
	sched_cli_finish(PROG, sc, "dtss", rc_opts->iterations, cfg->nslaves);
	cfg->sched = sc->p;
	if (journal_dir)
		snprintf(cfg->journal_dir, sizeof(cfg->journal_dir), "%s", journal_dir);
}

/* --resume DIR: the run's configuration from its journal, into the options. */
static void resume_config(const char *dir, struct master_config *cfg, struct run_cli *rc_opts)
{
	char why[MASTER_WHY_LEN];
	int rc = master_journal_config(dir, cfg, why);

	if (rc) {
		fprintf(stderr, "%s: cannot resume from '%s': %s\n", prog, dir, why);
		exit(rc == DLS_EINVAL ? 2 : 1);
	}
	run_cli_take_config(rc_opts, cfg->run_name, cfg->nslaves, cfg->workload, cfg->params,
			    cfg->nparams, cfg->order, cfg->register_timeout_ms);
}

static const struct option master_options[] = {
	SCHED_CLI_LONG_OPTIONS,
	RUN_CLI_LONG_OPTIONS,
	{"collect", required_argument, 0, O_COLLECT},
	{"start-timeout-ms", required_argument, 0, O_STARTTO},
	{"rejoin-ms", required_argument, 0, O_REJOIN},
	{"relay-grace-ms", required_argument, 0, O_RELAYGRACE},
	{"stall-ms", required_argument, 0, O_STALL},
	{"take-back", required_argument, 0, O_TAKEBACK},
	{"loops", required_argument, 0, O_LOOPS},
	{"fresh-loops", no_argument, 0, O_FRESH},
	{"verify", required_argument, 0, O_VERIFY},
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0}};

/* What the command line says. */
struct master_args {
	struct run_cli rc_opts; /* its out.power points into it: kept in place */
	struct master_config cfg;
	struct master_orb_opts o;
	struct sched_cli sc;
	int rejoin_ms, loops, fresh_loops;
};

/* The defaults, before the options. */
static void args_init(struct master_args *a)
{
	memset(a, 0, sizeof(*a));
	a->cfg.start_timeout_ms = 3000;
	a->cfg.wait_ms = 20;
	a->cfg.take_back = 1;
	a->cfg.early_wait_ms = MASTER_EARLY_WAIT_MS;
	a->o.dismiss_timeout_ms = 5000;
	a->o.relay_grace_ms = DLS_RELAY_GRACE_MS;
	a->o.stall_ms = DLS_STALL_MS;
	a->rejoin_ms = 30000;
	run_cli_init(&a->rc_opts, MASTER_MAX_SLAVES);
	sched_cli_init(&a->sc);
}

/* One option into a (exit 2, with the line, on a bad value): 0, or -1
 * for one it does not know.  An option that sets the run's configuration
 * is remembered: --resume takes the configuration from the journal. */
static int master_option(struct master_args *a, int c)
{
	if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees"))
		cli_usage_error(PROG, "--scheme", optarg,
				"Tree Scheduling runs under its own coordinator, dls-treesched");
	if (sched_cli_option(PROG, &a->sc, c, optarg)) {
		if (!a->rc_opts.config_given)
			a->rc_opts.config_given = "--scheme";
		return 0;
	}
	if (run_cli_option(PROG, &a->rc_opts, c, optarg))
		return 0;
	if (!a->rc_opts.config_given && (c == O_COLLECT || c == O_STARTTO || c == O_TAKEBACK ||
					 c == O_LOOPS || c == O_FRESH || c == O_VERIFY))
		a->rc_opts.config_given = c == O_COLLECT    ? "--collect"
					  : c == O_TAKEBACK ? "--take-back"
					  : c == O_LOOPS    ? "--loops"
					  : c == O_FRESH    ? "--fresh-loops"
					  : c == O_VERIFY   ? "--verify"
							    : "--start-timeout-ms";
	switch (c) {
	case O_COLLECT:
		if (!strcmp(optarg, "piggyback"))
			a->cfg.collect = DLS_COLLECT_PIGGYBACK;
		else if (!strcmp(optarg, "end"))
			a->cfg.collect = DLS_COLLECT_END;
		else
			cli_usage_error(PROG, "--collect", optarg, "must be piggyback or end");
		break;
	case O_TAKEBACK:
		a->cfg.take_back = cli_on_off_or_die(PROG, "--take-back", optarg);
		break;
	case O_STARTTO:
		a->cfg.start_timeout_ms =
			(int)cli_i64_or_die(PROG, "--start-timeout-ms", optarg, 0, 3600000);
		break;
	case O_REJOIN:
		a->rejoin_ms = (int)cli_i64_or_die(PROG, "--rejoin-ms", optarg, 0, 86400000);
		break;
	case O_RELAYGRACE:
		a->o.relay_grace_ms =
			(int)cli_i64_or_die(PROG, "--relay-grace-ms", optarg, 0, 3600000);
		break;
	case O_LOOPS:
		a->loops = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, WORK_MAX_LOOPS);
		break;
	case O_FRESH:
		a->fresh_loops = 1;
		break;
	case O_VERIFY:
		a->cfg.verify = cli_double_or_die(PROG, "--verify", optarg, 0, 1);
		break;
	case O_STALL:
		a->o.stall_ms = (int)cli_i64_or_die(PROG, "--stall-ms", optarg, 0, 86400000);
		break;
	default:
		return -1;
	}
	return 0;
}

/* The run's configuration (from the journal for --resume without
 * configuration options, else from the options) and the servant's. */
static void settle(struct master_args *a)
{
	struct master_config *cfg = &a->cfg;
	struct run_cli *rc_opts = &a->rc_opts;

	if (rc_opts->resume_dir && !rc_opts->config_given && !rc_opts->journal_dir)
		resume_config(rc_opts->resume_dir, cfg, rc_opts);
	run_cli_finish(PROG, rc_opts);
	if (!rc_opts->resume_dir) {
		config_from_options(cfg, rc_opts, &a->sc, rc_opts->journal_dir);
		cfg->loops = a->loops;
		cfg->fresh_loops = a->fresh_loops;
	}
	cfg->auto_loops = 1; /* each next loop starts at once, with the run's parameters */
	if (cfg->sched.kind == SCHED_AWF && cfg->loops < 2)
		cli_usage_error(PROG, "--scheme", "awf",
				"awf learns its weights from one loop for the next: give --loops N "
				"(N >= 2), or use awf-b, awf-c, awf-d or awf-e");
	cfg->rejoin_ms = a->rejoin_ms;
	cfg->journal_os = rc_opts->journal_os;
	cfg->journal_key.set = run_auth_journal_key(&rc_opts->secret, cfg->journal_key.bytes);
	run_cli_serve_opts(rc_opts, &a->o.serve);
}

int main(int argc, char **argv)
{
	static struct master_args a; /* rc_opts must stay in place */
	struct master *m;
	char why[MASTER_WHY_LEN];
	int c, rc;

	dls_log_set_role("master");
	dls_log_set_level(-1);
	args_init(&a);
	/* first the ORB, which removes the -ORB... options from argv */
	cli_keep_message_buffers();
	rc = cli_server_start(PROG, &argc, argv, help, 10000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = cli_getopt(PROG, argc, argv, "vq", master_options)) != -1)
		if (master_option(&a, c)) {
			fprintf(stderr, "try '%s --help'\n", prog);
			return 2;
		}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	settle(&a);
	m = master_open(&a.cfg, &rc, why);
	if (!m) {
		fprintf(stderr, "%s: cannot set up the run: %s\n", prog, why);
		dls_orb_destroy();
		return rc == DLS_EINVAL ? 2 : 1;
	}
	rc = master_orb_run(m, &a.o);
	dls_orb_destroy();
	master_destroy(m);
	return rc;
}
