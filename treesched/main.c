/*
 * dls-treesched - Tree Scheduling's coordinator P0 (coordinator.h): places
 * the slaves on the bitonic chain, collects their results and repairs the
 * chain around a lost slave; see --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "coordinator.h"
#include "coordinator_orb.h"
#include "dls/err.h"
#include "dls_log.h"
#include "orb_util.h"
#include "pile_cli.h"
#include "run_cli.h"

#define PROG "dls-treesched"

static void help(void)
{
	printf("usage: dls-treesched --slaves N [--run NAME] [--workload W]\n"
	       "                     [options] [-ORB... options]\n\n"
	       "Tree Scheduling's coordinator P0 (Kim and Purtilo), bound as\n"
	       "DLS/NAME/treesched: collects the slaves' throughputs, builds the bitonic\n"
	       "cluster tree and migration chain, gives each slave its neighbours and its\n"
	       "first iterations, collects the results, and ends the run at I.  Slaves join\n"
	       "with dls-slave --coordinator treesched.\n\n"
	       "  --run NAME              naming context of the run (default dls)\n"
	       "  --slaves N              slaves to expect (required)\n"
	       RUN_CLI_LOOP_HELP
	       "  --loops N               run the loop N times in one run (default 1) over\n"
	       "                          the same chain: the slaves stay, loop k gets\n"
	       "                          parameter dls.loop=k and its first iterations as\n"
	       "                          the first loop did (over the living slaves), and\n"
	       "                          --out holds every loop, shape (N, iterations, ...);\n"
	       "                          a resumed run goes on in the loop it was in\n"
	       "  --gamma G               share a busy slave hands to an idle neighbour: half\n"
	       "                          (default), proportional (tau_j/(tau_i+tau_j)) or ratio\n"
	       "  --alloc A               first iterations: equal (default), proportional or\n"
	       "                          round-robin\n"
	       "  --bidirectional         idle slaves ask both neighbours\n"
	       "  --report-interval S     slaves send results every S seconds (default 0.5);\n"
	       "                          0: only when they run out of work (end collection)\n"
	       "  --policy P              how the slaves balance: trees (Tree Scheduling, the\n"
	       "                          default), workpile (local workpiles), roc\n"
	       "                          (rate of change), ripple or none (the placement\n"
	       "                          alone);\n"
	       "                          with --alloc (not round-robin) and their parameters:\n"
	       PILES_CLI_HELP
	       RUN_CLI_OUT_HELP
	       "  --ior FILE              also write the coordinator's IOR\n"
	       "  --register-timeout-ms T the chain is built over the slaves registered\n"
	       "                          T ms after the first (default 30000)\n"
	       "  --ping-ms T, --ping-timeout-ms T   liveness checks of every slave; a dead\n"
	       "                          one's iterations go to its left neighbour and the\n"
	       "                          chain closes around it (defaults 500, 3000)\n"
	       "  --call-timeout-ms T     timeout of the coordinator's own calls (default 10000)\n"
	       "  --t-iter NS --power S   emulated cost per iteration and the cluster's power\n"
	       "                          sum V_i/Q_i (steps t:P,...), for T_ideal and E\n"
	       RUN_CLI_JOURNAL_HELP
	       RUN_CLI_TIMEOUT_HELP
	       CLI_NET_HELP
	       "  --progress              a live progress line on stderr\n"
	       "  --quiet                 no table on stdout\n"
	       "  -v, -q                  more or less logging (DLS_LOG_LEVEL)\n");
}

enum { O_GAMMA = 1, O_ALLOC, O_BIDI, O_REPORT, O_POLICY, O_LOOPS };

/* --resume DIR: the run's configuration from its journal, into the options. */
static void resume_config(const char *dir, struct coordinator_config *cfg, struct run_cli *ro)
{
	char why[COORDINATOR_WHY_LEN];
	int rc = coordinator_journal_config(dir, cfg, why);

	if (rc) {
		fprintf(stderr, PROG ": cannot resume from '%s': %s\n", dir, why);
		exit(rc == DLS_EINVAL ? 2 : 1);
	}
	run_cli_take_config(ro, cfg->run_name, cfg->nslaves, cfg->workload, cfg->params,
			    cfg->nparams, cfg->order, cfg->register_timeout_ms);
}

/* A new run's configuration, from the options. */
static void config_from_options(struct coordinator_config *cfg, const struct run_cli *ro)
{
	snprintf(cfg->run_name, sizeof(cfg->run_name), "%s", ro->run_name);
	cfg->nslaves = ro->nslaves;
	snprintf(cfg->workload, sizeof(cfg->workload), "%s", ro->workload);
	memcpy(cfg->params, ro->params, sizeof(cfg->params));
	cfg->nparams = ro->nparams;
	cfg->order = ro->order;
	cfg->register_timeout_ms = ro->register_timeout_ms;
	if (ro->journal_dir)
		snprintf(cfg->journal_dir, sizeof(cfg->journal_dir), "%s", ro->journal_dir);
}

static const struct option treesched_options[] = {
	RUN_CLI_LONG_OPTIONS,
	{"gamma", required_argument, 0, O_GAMMA},
	{"alloc", required_argument, 0, O_ALLOC},
	{"bidirectional", no_argument, 0, O_BIDI},
	{"report-interval", required_argument, 0, O_REPORT},
	{"policy", required_argument, 0, O_POLICY},
	{"loops", required_argument, 0, O_LOOPS},
	PILES_CLI_LONG_OPTIONS,
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0}};

/* What the command line says. */
struct treesched_args {
	struct run_cli ro; /* its out.power points into it: kept in place */
	struct coordinator_config cfg;
	struct coordinator_orb_opts o;
};

/* The defaults, before the options. */
static void args_init(struct treesched_args *a)
{
	memset(a, 0, sizeof(*a));
	a->cfg.alloc = TREE_ALLOC_EQUAL;
	a->cfg.gamma = TREE_GAMMA_HALF;
	a->cfg.report_interval = 0.5;
	snprintf(a->cfg.policy, sizeof(a->cfg.policy), "trees");
	pile_params_init(&a->cfg.pile);
	run_cli_init(&a->ro, COORDINATOR_MAX_SLAVES);
}

/* One option into a (exit 2, with the line, on a bad value): 0, or -1
 * for one it does not know.  An option that sets the run's configuration
 * is remembered: --resume takes the configuration from the journal. */
static int treesched_option(struct treesched_args *a, int c)
{
	struct coordinator_config *cfg = &a->cfg;
	const char *cause;

	if (run_cli_option(PROG, &a->ro, c, optarg))
		return 0;
	if (!a->ro.config_given && ((c >= O_GAMMA && c <= O_LOOPS) || c >= PILES_OPT_SEED))
		a->ro.config_given = c == O_GAMMA    ? "--gamma"
				     : c == O_ALLOC  ? "--alloc"
				     : c == O_BIDI   ? "--bidirectional"
				     : c == O_REPORT ? "--report-interval"
				     : c == O_LOOPS  ? "--loops"
						     : "--policy or its parameters";
	if (pile_cli_option(PROG, &cfg->pile, NULL, c, optarg))
		return 0;
	switch (c) {
	case O_GAMMA:
		if (tree_migrate_gamma_parse(optarg, &cfg->gamma))
			cli_usage_error(PROG, "--gamma", optarg, "must be half, proportional or ratio");
		break;
	case O_ALLOC:
		if (tree_plan_alloc_parse(optarg, &cfg->alloc))
			cli_usage_error(PROG, "--alloc", optarg,
					"must be equal, proportional or round-robin");
		break;
	case O_BIDI:
		cfg->bidirectional = 1;
		break;
	case O_LOOPS:
		cfg->loops = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, WORK_MAX_LOOPS);
		break;
	case O_REPORT:
		cfg->report_interval = cli_double_or_die(PROG, "--report-interval", optarg, 0, 3600);
		break;
	case O_POLICY:
		snprintf(cfg->policy, sizeof(cfg->policy), "%s", optarg);
		if (strlen(optarg) >= sizeof(cfg->policy))
			cli_usage_error(PROG, "--policy", optarg, "unknown");
		if ((cause = coordinator_policy_check(cfg)))
			cli_usage_error(PROG, "--policy", optarg, cause);
		break;
	default:
		return -1;
	}
	return 0;
}

/* The run's configuration (from the journal for --resume without
 * configuration options, else from the options) and the servant's. */
static void settle(struct treesched_args *a)
{
	struct coordinator_config *cfg = &a->cfg;
	struct run_cli *ro = &a->ro;

	if (coordinator_piles(cfg) && cfg->alloc == TREE_ALLOC_ROUND_ROBIN)
		cli_usage_error(PROG, "--alloc", "round-robin", "applies to --policy trees only");
	if (ro->resume_dir && !ro->config_given && !ro->journal_dir)
		resume_config(ro->resume_dir, cfg, ro);
	run_cli_finish(PROG, ro);
	if (!ro->resume_dir)
		config_from_options(cfg, ro);
	cfg->journal_os = ro->journal_os;
	cfg->journal_key.set = run_auth_journal_key(&ro->secret, cfg->journal_key.bytes);
	run_cli_serve_opts(ro, &a->o.serve);
}

int main(int argc, char **argv)
{
	static struct treesched_args a; /* ro must stay in place */
	struct coordinator *co;
	char why[COORDINATOR_WHY_LEN];
	int c, rc;

	dls_log_set_role("treesched");
	dls_log_set_level(-1);
	args_init(&a);
	/* first the ORB, which removes the -ORB... options from argv */
	cli_keep_message_buffers();
	rc = cli_server_start(PROG, &argc, argv, help, 10000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = cli_getopt(PROG, argc, argv, "vq", treesched_options)) != -1)
		if (treesched_option(&a, c)) {
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	settle(&a);
	co = coordinator_open(&a.cfg, &rc, why);
	if (!co) {
		fprintf(stderr, PROG ": cannot set up the run: %s\n", why);
		dls_orb_destroy();
		return rc == DLS_EINVAL ? 2 : 1;
	}
	rc = coordinator_orb_run(co, &a.o);
	dls_orb_destroy();
	coordinator_destroy(co);
	return rc;
}
