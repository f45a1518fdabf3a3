/*
 * dls simulate - the scheme's own schedule on a cluster description, without
 * (or with a modelled) framework overhead: the second limit of every run
 * (docs/emulation.md 4), and runs at scales that processes here cannot reach.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_opt.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "cluster.h"
#include "dls_cmds.h"
#include "dls/err.h"
#include "iter_order.h"
#include "mandel.h"
#include "work.h"
#include "sched_cli.h"
#include "sim.h"
#include "pictures.h"
#include "simulate_flat.h"
#include "simulate_piles.h"
#include "simulate_trees.h"

#define PROG SIMULATE_PROG

/* The help text: one string, as the user reads it. */
static void help(void)
{
	printf(
	    "usage: dls simulate [--cluster NAME | --speeds LIST | --pes N [--nd]]\n"
	    "                    [--loads LIST] [--scheme S] [--width W --height H]\n"
	    "                    [options]\n\n"
	    "Simulates a master-slave run of the scheme on the real per-column costs of the\n"
	    "Mandelbrot image, with the emulated cluster's speeds and load schedules.\n\n"
	    "  --cluster NAME       a reference cluster: C8 C8-nd C8-var C8-mis C24 C24-nd\n"
	    "                       C64 C64-nd C128 C128-nd C256 C256-nd, or pN, pN-nd (N\n"
	    "                       slaves, 1 to 16384, half of V = 1)\n"
	    "  --speeds LIST        V_i of each slave; --loads as for dls run\n"
	    "  --pes N [--nd]       N slaves, half V = 1 and half V = 2 (--nd: Q = 2 on the\n"
	    "                       fast half), up to 16384\n"
	    "  --width, --height, --maxit, --order natural|interleaved (default 4000x2000)\n"
	    "  --workload NAME --param N=V ...   another workload's costs instead (each\n"
	    "                       iteration computed once, as dls reference does)\n"
	    "  --t-iter NS          emulated ns per unit iteration at V = 1 (default 100)\n"
	    "  --overhead-us US     the master's service time per message (default 0)\n"
	    "  --per-request-us US  and per request in a merged message (default 0)\n"
	    "  --hmasters H         HDTSS: H hmasters, slave i below hmaster i mod H\n"
	    "  --hmode M            twolevel (default) or relay, as dls run --hmode\n"
	    "  --hm-overhead-us US  an hmaster's service time per merged message (relay)\n"
	    "                       or per local request (twolevel); default 0\n"
	    "  --link-latency-us US one-way latency of every message (default 0)\n"
	    "  --overlap on|off     slaves ask for their next chunk a lead (2 modelled\n"
	    "                       round trips) before the current one ends, and,\n"
	    "                       where the master allows two on their way, the\n"
	    "                       next as a chunk shorter than a round trip ends,\n"
	    "                       as dls-slave does (default on; no effect when\n"
	    "                       the overheads and latency are 0)\n"
	    "  --take-back M        holders (default for a flat run of one step, as\n"
	    "                       dls run --take-back on), off, or oracle: the end\n"
	    "                       game (PROTOCOL.md 17, BENCHMARKS.md 5): a slave\n"
	    "                       that finds the scheme exhausted gets the undone\n"
	    "                       tail of the chunk that ends last, by its holders'\n"
	    "                       estimates (holders: one round of calls first) or\n"
	    "                       truly (oracle: a bound); prints the take-backs\n"
	    "  --poll-ms MS         A_i = 0: read Q_i again after MS (default 100)\n"
	    "  --loops N            a run of N loops, as dls run --loops (--steps N too):\n"
	    "                       each starts once the last result of the one before\n"
	    "                       is in; the adaptive techniques (awf among them) and\n"
	    "                       auto go on from what they learnt, the others start\n"
	    "                       afresh;\n"
	    "                       loop k's costs are the workload's with dls.loop=k;\n"
	    "                       flat only, no take-back; prints each loop's T_p, E\n"
	    "  --fresh-loops        every loop's scheme starts afresh\n"
	    "  --per-pe             also print each PE's chunks, iterations, T_comp\n"
	    "  --json FILE          the result for scripts, with every chunk's timeline\n"
	    "                       (the flat model), as dls run --json has it\n"
	    "  --gantt FILE.png|FILE.svg  the simulated run's Gantt chart (dls plot)\n"
	    "  --report FILE.html   its report, as dls run --report writes one\n" SCHED_CLI_HELP
	    "  --scheme trees       Kim and Purtilo's Tree Scheduling: no master in the loop;\n"
	    "                       --gamma half|proportional|ratio (default half),\n"
	    "                       --alloc equal|proportional|round-robin (default equal),\n"
	    "                       --bidirectional; tau_i = V_i/Q_i at the start.\n"
	    "                       --tau LIST --tasks N: Kim and Purtilo's task model\n"
	    "                       instead (N unit tasks a PE, time unit 1/tau)\n"
	    "  --scheme workpile|roc|ripple   the decentralized policies: local\n"
	    "                       workpiles, rate of change, Ripple (none: the\n"
	    "                       placement alone); --alloc\n"
	    "                       equal|proportional (default equal), --seed N\n"
	    "                       (default 1), --seeds N (also the median E over seeds\n"
	    "                       N from --seed: workpile's and roc's end games differ\n"
	    "                       from seed to seed);\n" PILES_CLI_HELP);
}

enum {
	O_GAMMA = 110,
	O_ALLOC,
	O_BIDI,
	O_TAU,
	O_TASKS,
	O_HMODE = 100,
	O_PERREQ = 1,
	O_HMASTERS,
	O_HMOVH,
	O_PES,
	O_ND,
	O_WIDTH,
	O_HEIGHT,
	O_MAXIT,
	O_ORDER,
	O_TITER,
	O_OVERHEAD,
	O_LATENCY,
	O_POLL,
	O_PERPE,
	O_JSON,
	O_GANTT,
	O_HTML,
	O_WORKLOAD = 120,
	O_PARAM,
	O_OVERLAP,
	O_TAKEBACK,
	O_SEEDS,
	O_STEPS,
	O_FRESH
};

/* --scheme trees --tau LIST --tasks N: Kim and Purtilo 1996's task-level model. */
static int simulate_tree_tasks(const struct trees_opts *to, const char *tau_list, int64_t tasks,
			       double latency)
{
	struct tree_sim_config c;
	double *tau, sum = 0;
	size_t n;
	const char *cause;
	char what[64];
	int rc;

	if (!tau_list || !tasks)
		cli_usage_error(PROG, tau_list ? "--tau" : "--tasks", NULL,
				"the task-level model needs both --tau and --tasks");
	cause = cli_parse_double_list(tau_list, 1e-9, 1e15, &tau, &n);
	if (cause)
		cli_usage_error(PROG, "--tau", tau_list, cause);
	for (size_t i = 0; i < n; i++)
		sum += tau[i];
	memset(&c, 0, sizeof(c));
	c.tau = tau;
	c.npes = (int)n;
	c.iterations = tasks * (int64_t)n;
	c.t_unit = 1;
	c.alloc = to->alloc;
	c.gamma = to->gamma;
	c.bidirectional = to->bidirectional;
	c.latency = latency;
	snprintf(what, sizeof(what), "%lld unit tasks a PE", (long long)tasks);
	rc = simulate_trees(to, &c, (double)c.iterations / sum, what);
	free(tau);
	return rc;
}

/* --gantt and --report: pictures of the flat model's timeline. */
static void pictures_ok_or_die(const char *gantt, const char *report, int decentralized,
			       int hmasters)
{
	pictures_names_or_die(PROG, gantt, report);
	if ((gantt || report) && (decentralized || hmasters))
		cli_usage_error(PROG, gantt ? "--gantt" : "--report", gantt ? gantt : report,
				decentralized ? "Tree Scheduling and the balancing policies keep "
						"no timeline of chunks"
					      : "the flat model only keeps a timeline (no --hmasters)");
}

/* What the options say: the cluster, the work, and the model to run. */
struct simulate_args {
	struct cluster cl;
	const char *loads;
	int npes, nd;
	struct mandel_params mp;
	const char *workload; /* NULL: the Mandelbrot image of --width x --height */
	struct dls_param params[DLS_MAX_PARAMS];
	int nparams;
	struct sched_cli sc;
	struct flat_opts flat; /* the master-slave model's options */
	int takeback_given;
	int trees, piles, piles_set;
	struct trees_opts to;
	const char *tau_list, *alloc;
	int64_t tasks;
	struct piles_opts po;
	enum pile_policy policy;
};

static void args_init(struct simulate_args *a)
{
	memset(a, 0, sizeof(*a));
	a->mp = (struct mandel_params){4000, 2000, MANDEL_DEFAULT_MAXIT};
	sched_cli_init(&a->sc);
	piles_opts_init(&a->po, PILE_NONE);
	a->to = (struct trees_opts){TREE_GAMMA_HALF, TREE_ALLOC_EQUAL, 0, 0, NULL};
	a->flat.mode = ITER_ORDER_NATURAL;
	a->flat.t_iter_ns = 100;
	a->flat.poll_ms = 100;
	a->flat.twolevel = 1;
	a->flat.overlap = 1;
	a->flat.loops = 1;
	a->flat.takeback = SIM_TAKEBACK_HOLDERS;
}

/* One option of the simulator's own (not the scheme's, cluster's or
 * balancing policy's): 0, or -1 for an option it does not know.  Long as
 * the option table is: one case an option, each a few lines. */
static int own_option(struct simulate_args *a, int c)
{
	struct flat_opts *f = &a->flat;

	switch (c) {
	case O_PES:
		a->npes = (int)cli_i64_or_die(PROG, "--pes", optarg, 1, CLUSTER_MAX);
		break;
	case O_ND:
		a->nd = 1;
		break;
	case O_WIDTH:
		a->mp.width = (int32_t)cli_i64_or_die(PROG, "--width", optarg, 1, MANDEL_MAX_SIDE);
		break;
	case O_HEIGHT:
		a->mp.height = (int32_t)cli_i64_or_die(PROG, "--height", optarg, 1, MANDEL_MAX_SIDE);
		break;
	case O_MAXIT:
		a->mp.maxit = (int32_t)cli_i64_or_die(PROG, "--maxit", optarg, 1, MANDEL_MAX_MAXIT);
		break;
	case O_ORDER:
		if (iter_order_parse(optarg, &f->mode))
			cli_usage_error(PROG, "--order", optarg, "must be natural or interleaved");
		break;
	case O_TITER:
		f->t_iter_ns = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
		break;
	case O_OVERHEAD:
		f->overhead_us = cli_double_or_die(PROG, "--overhead-us", optarg, 0, 1e9);
		break;
	case O_LATENCY:
		f->latency_us = cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e9);
		break;
	case O_OVERLAP:
		f->overlap = cli_on_off_or_die(PROG, "--overlap", optarg);
		break;
	case O_TAKEBACK:
		a->takeback_given = 1;
		f->takeback = SIM_TAKEBACK_OFF;
		while (strcmp(optarg, simulate_takeback_names[f->takeback]))
			if (++f->takeback > SIM_TAKEBACK_ORACLE)
				cli_usage_error(PROG, "--take-back", optarg,
						"must be off, holders or oracle");
		break;
	case O_POLL:
		f->poll_ms = cli_double_or_die(PROG, "--poll-ms", optarg, 0.001, 1e7);
		break;
	case O_PERREQ:
		f->per_request_us = cli_double_or_die(PROG, "--per-request-us", optarg, 0, 1e9);
		break;
	case O_HMASTERS:
		f->hmasters = (int)cli_i64_or_die(PROG, "--hmasters", optarg, 1, CLUSTER_MAX);
		break;
	case O_HMODE:
		if (strcmp(optarg, "relay") && strcmp(optarg, "twolevel"))
			cli_usage_error(PROG, "--hmode", optarg, "must be relay or twolevel");
		f->twolevel = !strcmp(optarg, "twolevel");
		break;
	case O_HMOVH:
		f->hm_overhead_us = cli_double_or_die(PROG, "--hm-overhead-us", optarg, 0, 1e9);
		break;
	case O_PERPE:
		f->per_pe = 1;
		break;
	case O_STEPS:
		f->loops = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, 100000);
		break;
	case O_FRESH:
		f->fresh_loops = 1;
		break;
	case O_SEEDS:
		a->po.seeds = (int)cli_i64_or_die(PROG, "--seeds", optarg, 1, 1000);
		a->piles_set = 1;
		break;
	case O_GAMMA:
		if (tree_migrate_gamma_parse(optarg, &a->to.gamma))
			cli_usage_error(PROG, "--gamma", optarg, "must be half, proportional or ratio");
		break;
	case O_ALLOC:
		a->alloc = optarg; /* its values depend on the scheme */
		break;
	case O_BIDI:
		a->to.bidirectional = 1;
		break;
	case O_TAU:
		a->tau_list = optarg;
		break;
	case O_TASKS:
		a->tasks = cli_i64_or_die(PROG, "--tasks", optarg, 1, (int64_t)1 << 40);
		break;
	case O_JSON:
		f->json = optarg;
		break;
	case O_GANTT:
		f->gantt = optarg;
		break;
	case O_HTML:
		f->report = optarg;
		break;
	case O_WORKLOAD:
		a->workload = optarg;
		break;
	case O_PARAM:
		cli_param_or_die(PROG, "--param", a->params, &a->nparams, NULL, optarg);
		break;
	default:
		return -1;
	}
	return 0;
}

/* Reads the command line into a: -1 to go on, else the exit status
 * (--help: 0; an unknown option: 2, said). */
static int parse_args(int argc, char **argv, struct simulate_args *a)
{
	static const struct option opts[] = {SCHED_CLI_LONG_OPTIONS,
					     CLUSTER_CLI_LONG_OPTIONS,
					     PILES_CLI_LONG_OPTIONS,
					     {"pes", required_argument, 0, O_PES},
					     {"seeds", required_argument, 0, O_SEEDS},
					     {"nd", no_argument, 0, O_ND},
					     {"width", required_argument, 0, O_WIDTH},
					     {"height", required_argument, 0, O_HEIGHT},
					     {"maxit", required_argument, 0, O_MAXIT},
					     {"order", required_argument, 0, O_ORDER},
					     {"t-iter", required_argument, 0, O_TITER},
					     {"overhead-us", required_argument, 0, O_OVERHEAD},
					     {"link-latency-us", required_argument, 0, O_LATENCY},
					     {"overlap", required_argument, 0, O_OVERLAP},
					     {"take-back", required_argument, 0, O_TAKEBACK},
					     {"poll-ms", required_argument, 0, O_POLL},
					     {"per-pe", no_argument, 0, O_PERPE},
					     {"loops", required_argument, 0, O_STEPS},
					     {"steps", required_argument, 0, O_STEPS},
					     {"fresh-loops", no_argument, 0, O_FRESH},
					     {"per-request-us", required_argument, 0, O_PERREQ},
					     {"hmasters", required_argument, 0, O_HMASTERS},
					     {"hm-overhead-us", required_argument, 0, O_HMOVH},
					     {"hmode", required_argument, 0, O_HMODE},
					     {"gamma", required_argument, 0, O_GAMMA},
					     {"alloc", required_argument, 0, O_ALLOC},
					     {"bidirectional", no_argument, 0, O_BIDI},
					     {"tau", required_argument, 0, O_TAU},
					     {"tasks", required_argument, 0, O_TASKS},
					     {"json", required_argument, 0, O_JSON},
					     {"gantt", required_argument, 0, O_GANTT},
					     {"report", required_argument, 0, O_HTML},
					     {"workload", required_argument, 0, O_WORKLOAD},
					     {"param", required_argument, 0, O_PARAM},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees")) {
			a->trees = 1;
			continue;
		}
		if (c == SCHED_OPT_SCHEME && !pile_policy_parse(optarg, &a->policy)) {
			a->piles = 1;
			continue;
		}
		if (pile_cli_option(PROG, &a->po.params, &a->po.seed, c, optarg)) {
			a->piles_set = 1;
			continue;
		}
		if (sched_cli_option(PROG, &a->sc, c, optarg))
			continue;
		if (cluster_cli_option(PROG, &a->cl, c, optarg, &a->loads))
			continue;
		if (c == 'h') {
			help();
			return 0;
		}
		if (own_option(a, c)) {
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	return -1;
}

/* Refuses options that do not go together (exit 2, with the line), and
 * settles what one option implies for another. */
static void check_args(struct simulate_args *a)
{
	struct flat_opts *f = &a->flat;
	int decentralized = a->trees || a->piles;

	a->to.per_pe = f->per_pe;
	a->to.json = f->json;
	if (a->piles_set && !a->piles)
		cli_usage_error(PROG, "--seed/--threshold/--ht/...", NULL,
				"needs --scheme workpile, roc, ripple or none");
	if (a->alloc && a->piles && pile_alloc_parse(a->alloc, &a->po.alloc))
		cli_usage_error(PROG, "--alloc", a->alloc, "must be equal or proportional");
	if (a->alloc && !a->piles && tree_plan_alloc_parse(a->alloc, &a->to.alloc))
		cli_usage_error(PROG, "--alloc", a->alloc,
				"must be equal, proportional or round-robin");
	if (a->piles && (a->trees || f->hmasters))
		cli_usage_error(PROG, "--scheme", pile_policy_name(a->policy),
				a->trees ? "one scheme at a time" : "has no hmasters");
	if ((a->tau_list || a->tasks) && !a->trees)
		cli_usage_error(PROG, a->tau_list ? "--tau" : "--tasks", NULL,
				"needs --scheme trees");
	if (f->loops > 1 && (decentralized || f->hmasters))
		cli_usage_error(PROG, "--loops", NULL,
				decentralized ? "models master-slave schemes only"
					      : "models a flat run only (no hmasters)");
	if (f->takeback && a->takeback_given && (decentralized || f->hmasters || f->loops > 1))
		cli_usage_error(PROG, "--take-back", NULL,
				"models a flat master-slave run of one step only");
	pictures_ok_or_die(f->gantt, f->report, decentralized, f->hmasters);
	if (decentralized || f->hmasters || f->loops > 1) /* as dls run: no take-back there */
		f->takeback = SIM_TAKEBACK_OFF;
}

/* The cluster, and the work's shape: what the task-level tree model needs
 * not (exit 2 on a bad value). */
static void finish_args(struct simulate_args *a, struct work *wk, int64_t *n)
{
	if (a->npes && cluster_halves(a->npes, a->nd, &a->cl))
		cli_usage_error(PROG, "--pes", NULL, "out of range");
	if (a->cl.n == 0)
		cli_usage_error(PROG, "--cluster", NULL, "--speeds or --pes is required");
	cluster_cli_finish(PROG, &a->cl, a->loads);
	if (a->nparams && !a->workload)
		cli_usage_error(PROG, "--param", a->params[0].name, "needs --workload");
	if (a->workload)
		simulate_open_workload(a->workload, a->params, a->nparams, wk);
	*n = a->workload ? wk->loop.iterations : a->mp.width;
	sched_cli_finish(PROG, &a->sc, "dtss", *n, a->cl.n);
	a->flat.sched = a->sc.p;
	a->flat.workload = a->workload;
	a->flat.params = a->params;
	a->flat.nparams = a->nparams;
}

/*
 * The real cost of each of the n iterations, in the chosen order, into a
 * new array (NULL: out of memory, or the workload failed; said), with what
 * describes the work; wk (the workload, when there is one) is closed.
 */
static uint64_t *iteration_costs(const struct simulate_args *a, struct work *wk, int64_t n,
				 char *what, size_t len)
{
	uint64_t *colcost = malloc((size_t)n * sizeof(*colcost));
	uint64_t *cost = malloc((size_t)n * sizeof(*cost));
	struct iter_order order;
	char why[256];
	int rc = 0;

	if (!colcost || !cost) {
		fprintf(stderr, PROG ": out of memory\n");
		rc = -1;
	} else if (a->workload) { /* each iteration computed once, as dls reference does */
		rc = work_sequential(wk, NULL, colcost, why, sizeof(why));
		if (rc)
			fprintf(stderr, PROG ": workload '%s': %s\n", a->workload, why);
		snprintf(what, len, "workload %s, %lld iterations", a->workload, (long long)n);
	} else {
		uint16_t *col = malloc((size_t)a->mp.height * sizeof(*col));

		for (int32_t x = 0; col && x < a->mp.width; x++)
			colcost[x] = mandel_column(&a->mp, x, col);
		if (!col)
			fprintf(stderr, PROG ": out of memory\n");
		rc = col ? 0 : -1;
		free(col);
		snprintf(what, len, "%d x %d", a->mp.width, a->mp.height);
	}
	if (a->workload)
		work_close(wk);
	if (rc) {
		free(colcost);
		free(cost);
		return NULL;
	}
	iter_order_init(&order, a->flat.mode, n);
	for (int64_t i = 0; i < n; i++)
		cost[i] = colcost[iter_order_column(&order, i)];
	free(colcost);
	return cost;
}

int dls_cmd_simulate(int argc, char **argv)
{
	static struct simulate_args a; /* the cluster's arrays are large */
	struct work wk = {0};
	char what[160], where[200];
	uint64_t *cost;
	int64_t n;
	int rc;

	args_init(&a);
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	check_args(&a);
	if (a.trees && (a.tau_list || a.tasks))
		return simulate_tree_tasks(&a.to, a.tau_list, a.tasks, a.flat.latency_us);
	finish_args(&a, &wk, &n);
	cost = iteration_costs(&a, &wk, n, what, sizeof(what));
	if (!cost)
		return 1;
	snprintf(where, sizeof(where), "%s, order %s", what, iter_order_name(a.flat.mode));
	if (a.piles) {
		a.po.policy = a.policy;
		a.po.per_pe = a.flat.per_pe;
		a.po.json = a.flat.json;
		rc = simulate_piles_cluster(&a.po, &a.cl, cost, n, a.flat.t_iter_ns * 1e-9,
					    a.flat.latency_us * 1e-6, where);
	} else if (a.trees) {
		rc = simulate_trees_cluster(&a.to, &a.cl, cost, n, a.flat.t_iter_ns * 1e-9,
					    a.flat.latency_us * 1e-6, where);
	} else {
		rc = simulate_flat(&a.flat, &a.cl, cost, n, what);
	}
	free(cost);
	return rc;
}
