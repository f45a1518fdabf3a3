/*
 * dls simulate - the scheme's own schedule on a cluster description, without
 * (or with a modelled) framework overhead: the second limit of every run
 * (docs/emulation.md 4), and runs at scales that processes here cannot reach.
 */
#include <getopt.h>
#include <jansson.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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
#include "simulate_json.h"
#include "simulate_piles.h"
#include "simulate_trees.h"

#define PROG "dls simulate"

/* --take-back's values, by enum sim_takeback */
static const char *const takeback_names[] = {"off", "holders", "oracle"};

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
	    "                       game (PROTOCOL.md 17, BENCHMARKS.md 25): a slave\n"
	    "                       that finds the scheme exhausted gets the undone\n"
	    "                       tail of the chunk that ends last, by its holders'\n"
	    "                       estimates (holders: one round of calls first) or\n"
	    "                       truly (oracle: a bound); prints the take-backs\n"
	    "  --poll-ms MS         A_i = 0: read Q_i again after MS (default 100)\n"
	    "  --loops N            a run of N loops, as dls run --loops (--steps N too):\n"
	    "                       each starts once the last result of the one before\n"
	    "                       is in; the adaptive techniques (awf among them) go\n"
	    "                       on from what they learnt, the others start afresh;\n"
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

/* FSC's inputs when --h and --sd are not given: a chunk's scheduling
 * overhead is the modelled round trip, the iteration time's sd that of
 * the costs at power 1 (both 0, the library's h = sd, if the costs are
 * all equal). */
static void fsc_from_model(struct sim_config *sim)
{
	double mean = 0, var = 0;

	for (int64_t i = 0; i < sim->iterations; i++)
		mean += (double)sim->cost[i];
	mean /= (double)sim->iterations;
	for (int64_t i = 0; i < sim->iterations; i++)
		var += ((double)sim->cost[i] - mean) * ((double)sim->cost[i] - mean);
	var /= (double)sim->iterations;
	if (!(var > 0) || !(sim_round_trip(sim) > 0) || !(sim->t_iter_s > 0)) {
		printf("fsc: h = sd (the model has no overhead or no spread of costs)\n");
		return;
	}
	sim->sched.fsc_h = sim_round_trip(sim);
	sim->sched.fsc_sigma = sqrt(var) * sim->t_iter_s;
	printf("fsc: h %.1f us (the modelled round trip), iteration sd %.1f us\n",
	       sim->sched.fsc_h * 1e6, sim->sched.fsc_sigma * 1e6);
}

/* Opens the workload whose costs are simulated; a bad workload or parameter exits 2. */
static void open_workload(const char *name, const struct dls_param *p, int n, struct work *wk)
{
	char why[256];

	if (work_open(wk, name, p, (size_t)n, ITER_ORDER_NATURAL, why, sizeof(why)))
		cli_usage_error(PROG, "--workload", name, why);
	if (work_is_declared(wk)) {
		work_close(wk);
		cli_usage_error(PROG, "--workload", name, "its body is needed for its costs");
	}
}

/*
 * A run of `loops` loops of workload `name`: loop k's cost of each
 * iteration (in the order's sequence), computed as dls reference would with
 * dls.loop = k; [0] is cost0, the loop 0 costs already made.  NULL when
 * out of memory; exits 1 when the workload fails.
 */
static uint64_t **loop_costs(const char *name, const struct dls_param *params, int nparams,
			     enum iter_order_mode mode, int64_t n, int loops, uint64_t *cost0)
{
	uint64_t **lc = calloc((size_t)loops, sizeof(*lc)), *col = malloc((size_t)n * 8);
	struct iter_order order;
	char why[256];

	if (!lc || !col) {
		free(lc);
		free(col);
		return NULL;
	}
	lc[0] = cost0;
	iter_order_init(&order, mode, n);
	for (int k = 1; k < loops; k++) {
		struct dls_param p[DLS_MAX_PARAMS];
		int np = nparams;
		struct work wk;

		memcpy(p, params, (size_t)nparams * sizeof(*p));
		lc[k] = malloc((size_t)n * sizeof(**lc));
		if (!lc[k] || work_params_set_loop(p, &np, (uint32_t)k)) {
			for (int j = 1; j < k + 1; j++)
				free(lc[j]);
			free(lc);
			free(col);
			return NULL;
		}
		open_workload(name, p, np, &wk);
		if (wk.loop.iterations != n || work_sequential(&wk, NULL, col, why, sizeof(why))) {
			fprintf(stderr, PROG ": workload '%s', loop %d: %s\n", name, k,
				wk.loop.iterations != n ? "another number of iterations" : why);
			exit(1);
		}
		work_close(&wk);
		for (int64_t i = 0; i < n; i++)
			lc[k][i] = col[iter_order_column(&order, i)];
	}
	free(col);
	return lc;
}

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

int dls_cmd_simulate(int argc, char **argv)
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
	static struct cluster cl;
	struct mandel_params mp = {4000, 2000, MANDEL_DEFAULT_MAXIT};
	struct sched_cli sc;
	struct sim_config sim;
	struct sim_result res;
	struct sim_pe *pes;
	struct iter_order order;
	enum iter_order_mode mode = ITER_ORDER_NATURAL;
	const char *loads = NULL, *json = NULL, *gantt = NULL, *report = NULL;
	char tmp_json[4200] = ""; /* --gantt or --report without --json: the JSON here */
	int c, rc, npes = 0, nd = 0, per_pe = 0;
	double t_iter = 100, overhead = 0, latency = 0, poll = 100, per_request = 0, hm_overhead = 0;
	int hmasters = 0, twolevel = 1, trees = 0, overlap = 1, steps = 1, fresh_loops = 0;
	uint64_t **lcost = NULL;
	enum sim_takeback takeback = SIM_TAKEBACK_HOLDERS;
	int takeback_given = 0;
	struct trees_opts to = {TREE_GAMMA_HALF, TREE_ALLOC_EQUAL, 0, 0, NULL};
	const char *tau_list = NULL, *alloc = NULL;
	struct piles_opts po;
	enum pile_policy policy;
	int piles = 0, piles_set = 0;
	int64_t tasks = 0, n;
	const char *workload = NULL; /* NULL: the Mandelbrot image of --width x --height */
	struct work wk = {0};
	struct dls_param params[DLS_MAX_PARAMS];
	int nparams = 0;
	char what[160];
	uint64_t *colcost, *cost;
	uint16_t *col;

	sched_cli_init(&sc);
	piles_opts_init(&po, PILE_NONE);
	cl.n = 0;
	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees")) {
			trees = 1;
			continue;
		}
		if (c == SCHED_OPT_SCHEME && !pile_policy_parse(optarg, &policy)) {
			piles = 1;
			continue;
		}
		if (pile_cli_option(PROG, &po.params, &po.seed, c, optarg)) {
			piles_set = 1;
			continue;
		}
		if (sched_cli_option(PROG, &sc, c, optarg))
			continue;
		if (cluster_cli_option(PROG, &cl, c, optarg, &loads))
			continue;
		switch (c) {
		case O_PES:
			npes = (int)cli_i64_or_die(PROG, "--pes", optarg, 1, CLUSTER_MAX);
			break;
		case O_ND:
			nd = 1;
			break;
		case O_WIDTH:
			mp.width = (int32_t)cli_i64_or_die(PROG, "--width", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case O_HEIGHT:
			mp.height = (int32_t)cli_i64_or_die(PROG, "--height", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case O_MAXIT:
			mp.maxit = (int32_t)cli_i64_or_die(PROG, "--maxit", optarg, 1, MANDEL_MAX_MAXIT);
			break;
		case O_ORDER:
			if (iter_order_parse(optarg, &mode))
				cli_usage_error(PROG, "--order", optarg, "must be natural or interleaved");
			break;
		case O_TITER:
			t_iter = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
			break;
		case O_OVERHEAD:
			overhead = cli_double_or_die(PROG, "--overhead-us", optarg, 0, 1e9);
			break;
		case O_LATENCY:
			latency = cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e9);
			break;
		case O_OVERLAP:
			overlap = cli_on_off_or_die(PROG, "--overlap", optarg);
			break;
		case O_TAKEBACK:
			takeback_given = 1;
			takeback = SIM_TAKEBACK_OFF;
			while (strcmp(optarg, takeback_names[takeback]))
				if (++takeback > SIM_TAKEBACK_ORACLE)
					cli_usage_error(PROG, "--take-back", optarg,
							"must be off, holders or oracle");
			break;
		case O_POLL:
			poll = cli_double_or_die(PROG, "--poll-ms", optarg, 0.001, 1e7);
			break;
		case O_PERREQ:
			per_request = cli_double_or_die(PROG, "--per-request-us", optarg, 0, 1e9);
			break;
		case O_HMASTERS:
			hmasters = (int)cli_i64_or_die(PROG, "--hmasters", optarg, 1, CLUSTER_MAX);
			break;
		case O_HMODE:
			if (strcmp(optarg, "relay") && strcmp(optarg, "twolevel"))
				cli_usage_error(PROG, "--hmode", optarg, "must be relay or twolevel");
			twolevel = !strcmp(optarg, "twolevel");
			break;
		case O_HMOVH:
			hm_overhead = cli_double_or_die(PROG, "--hm-overhead-us", optarg, 0, 1e9);
			break;
		case O_PERPE:
			per_pe = 1;
			break;
		case O_STEPS:
			steps = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, 100000);
			break;
		case O_FRESH:
			fresh_loops = 1;
			break;
		case O_SEEDS:
			po.seeds = (int)cli_i64_or_die(PROG, "--seeds", optarg, 1, 1000);
			piles_set = 1;
			break;
		case O_GAMMA:
			if (tree_migrate_gamma_parse(optarg, &to.gamma))
				cli_usage_error(PROG, "--gamma", optarg,
						"must be half, proportional or ratio");
			break;
		case O_ALLOC:
			alloc = optarg; /* its values depend on the scheme */
			break;
		case O_BIDI:
			to.bidirectional = 1;
			break;
		case O_TAU:
			tau_list = optarg;
			break;
		case O_TASKS:
			tasks = cli_i64_or_die(PROG, "--tasks", optarg, 1, (int64_t)1 << 40);
			break;
		case O_JSON:
			json = optarg;
			break;
		case O_GANTT:
			gantt = optarg;
			break;
		case O_HTML:
			report = optarg;
			break;
		case O_WORKLOAD:
			workload = optarg;
			break;
		case O_PARAM:
			cli_param_or_die(PROG, "--param", params, &nparams, NULL, optarg);
			break;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	to.per_pe = per_pe;
	to.json = json;
	if (piles_set && !piles)
		cli_usage_error(PROG, "--seed/--threshold/--ht/...", NULL,
				"needs --scheme workpile, roc, ripple or none");
	if (alloc && piles && pile_alloc_parse(alloc, &po.alloc))
		cli_usage_error(PROG, "--alloc", alloc, "must be equal or proportional");
	if (alloc && !piles && tree_plan_alloc_parse(alloc, &to.alloc))
		cli_usage_error(PROG, "--alloc", alloc, "must be equal, proportional or round-robin");
	if (piles && (trees || hmasters))
		cli_usage_error(PROG, "--scheme", pile_policy_name(policy),
				trees ? "one scheme at a time" : "has no hmasters");
	if ((tau_list || tasks) && !trees)
		cli_usage_error(PROG, tau_list ? "--tau" : "--tasks", NULL, "needs --scheme trees");
	if (steps > 1 && (trees || piles || hmasters))
		cli_usage_error(PROG, "--loops", NULL,
				trees || piles ? "models master-slave schemes only"
					       : "models a flat run only (no hmasters)");
	if (takeback && takeback_given && (trees || piles || hmasters || steps > 1))
		cli_usage_error(PROG, "--take-back", NULL,
				"models a flat master-slave run of one step only");
	pictures_ok_or_die(gantt, report, trees || piles, hmasters);
	if (trees || piles || hmasters || steps > 1) /* as dls run: no take-back there */
		takeback = SIM_TAKEBACK_OFF;
	if (trees && (tau_list || tasks))
		return simulate_tree_tasks(&to, tau_list, tasks, latency);
	if (npes && cluster_halves(npes, nd, &cl))
		cli_usage_error(PROG, "--pes", NULL, "out of range");
	if (cl.n == 0)
		cli_usage_error(PROG, "--cluster", NULL, "--speeds or --pes is required");
	cluster_cli_finish(PROG, &cl, loads);
	if (nparams && !workload)
		cli_usage_error(PROG, "--param", params[0].name, "needs --workload");
	if (workload)
		open_workload(workload, params, nparams, &wk);
	n = workload ? wk.loop.iterations : mp.width;
	sched_cli_finish(PROG, &sc, "dtss", n, cl.n);

	/* the real cost of every iteration, in the chosen order */
	colcost = malloc((size_t)n * sizeof(*colcost));
	cost = malloc((size_t)n * sizeof(*cost));
	col = malloc((size_t)mp.height * sizeof(*col));
	pes = calloc((size_t)cl.n, sizeof(*pes));
	if (!colcost || !cost || !col || !pes) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	if (workload) { /* each iteration computed once, as dls reference does */
		char why[256];

		rc = work_sequential(&wk, NULL, colcost, why, sizeof(why));
		work_close(&wk);
		if (rc) {
			fprintf(stderr, PROG ": workload '%s': %s\n", workload, why);
			return 1;
		}
		snprintf(what, sizeof(what), "workload %s, %lld iterations", workload, (long long)n);
	} else {
		for (int32_t x = 0; x < mp.width; x++)
			colcost[x] = mandel_column(&mp, x, col);
		snprintf(what, sizeof(what), "%d x %d", mp.width, mp.height);
	}
	iter_order_init(&order, mode, n);
	for (int64_t i = 0; i < n; i++)
		cost[i] = colcost[iter_order_column(&order, i)];
	for (int i = 0; i < cl.n; i++) {
		pes[i].speed = cl.speed[i];
		pes[i].declared = cl.declared[i];
		pes[i].load = cl.load[i];
	}
	if (piles) {
		char where[200];

		po.policy = policy;
		po.per_pe = per_pe;
		po.json = json;
		snprintf(where, sizeof(where), "%s, order %s", what, iter_order_name(mode));
		rc = simulate_piles_cluster(&po, &cl, cost, n, t_iter * 1e-9, latency * 1e-6, where);
		free(colcost);
		free(cost);
		free(col);
		free(pes);
		return rc;
	}
	if (trees) {
		char where[200];

		snprintf(where, sizeof(where), "%s, order %s", what, iter_order_name(mode));
		rc = simulate_trees_cluster(&to, &cl, cost, n, t_iter * 1e-9, latency * 1e-6,
					    where);
		free(colcost);
		free(cost);
		free(col);
		free(pes);
		return rc;
	}
	memset(&sim, 0, sizeof(sim));
	sim.sched = sc.p;
	sim.sched.correlated = mode == ITER_ORDER_NATURAL;
	sim.cost = cost;
	sim.iterations = n;
	sim.pes = pes;
	sim.npes = cl.n;
	sim.t_iter_s = t_iter * 1e-9;
	sim.overhead_s = overhead * 1e-6;
	sim.per_request_s = per_request * 1e-6;
	sim.hmasters = hmasters;
	sim.hm_overhead_s = hm_overhead * 1e-6;
	sim.twolevel = twolevel;
	sim.latency_s = latency * 1e-6;
	sim.poll_s = poll * 1e-3;
	sim.overlap = overlap;
	sim.steps = steps;
	sim.fresh_loops = fresh_loops;
	sim.takeback = takeback;
	if (workload && steps > 1) {
		lcost = loop_costs(workload, params, nparams, mode, n, steps, cost);
		if (!lcost) {
			fprintf(stderr, PROG ": out of memory\n");
			return 1;
		}
		sim.loop_cost = (const uint64_t *const *)lcost;
	}
	if (sim.sched.kind == SCHED_FSC && !sim.sched.fsc_h)
		fsc_from_model(&sim);
	rc = sim_run(&sim, &res);
	if (rc) {
		fprintf(stderr, PROG ": cannot simulate: %s\n", dls_strerror(rc));
		return 1;
	}
	printf("simulated: scheme %s, %s, order %s, %d slaves, %d hmasters%s, overhead %.1f "
	       "us + %.1f us a request, latency %.1f us, overlap %s\n",
	       sched_kind_name(sc.p.kind), what, iter_order_name(mode), cl.n,
	       hmasters, hmasters ? (twolevel ? " (twolevel)" : " (relay)") : "", overhead,
	       per_request, latency, overlap ? "on" : "off");
	if (per_pe)
		for (int i = 0; i < cl.n; i++)
			printf("%5d V %.2f chunks %lld iterations %lld T_com+wait/T_comp %.3f/%.3f\n",
			       i, cl.speed[i], (long long)res.pe[i].chunks,
			       (long long)res.pe[i].iterations, res.pe[i].t_comwait, res.pe[i].t_comp);
	if (res.steps > 1)
		for (int k = 0; k < res.steps; k++)
			printf("step %d: T_p %.3f s   T_ideal %.3f s   E %.3f   chunks %lld\n",
			       k + 1, res.step[k].t_p, res.step[k].t_ideal,
			       res.step[k].t_p > 0 ? res.step[k].t_ideal / res.step[k].t_p : 0,
			       (long long)res.step[k].chunks);
	printf("T_p %.3f s   T_ideal %.3f s   E %.3f   chunks %lld   recomputations %d%s\n",
	       res.t_p, res.t_ideal, res.efficiency, (long long)res.chunks, res.recomputations,
	       res.steps > 1 ? "   (all steps)" : "");
	if (takeback)
		printf("take-back (%s): %lld take-backs, %lld iterations taken back\n",
		       takeback_names[takeback],
		       (long long)res.takebacks, (long long)res.taken_back);
	for (int k = 0; k < res.ndecisions && k < SIM_MAX_DECISIONS; k++) {
		char line[160];

		sched_switch_describe(&res.decisions[k], line, sizeof(line));
		printf("scheme auto: %s\n", line);
	}
	if ((gantt || report) && !json) { /* the pictures are drawn from a JSON */
		const char *tmp = getenv("TMPDIR");
		int fd;

		snprintf(tmp_json, sizeof(tmp_json), "%s/dls-simulate-XXXXXX.json",
			 tmp && *tmp ? tmp : "/tmp");
		fd = mkstemps(tmp_json, 5);
		if (fd < 0) {
			fprintf(stderr, PROG ": cannot make a temporary file: %s\n", strerror(errno));
			return 1;
		}
		close(fd);
		json = tmp_json;
	}
	if (json) {
		json_t *o = json_pack("{sssisisssssfsfsbsfsfsfsIsi}", "scheme",
				      sched_kind_name(sc.p.kind), "slaves", cl.n, "hmasters",
				      hmasters, "hmode",
				      hmasters ? (twolevel ? "twolevel" : "relay") : "flat", "order",
				      iter_order_name(mode), "overhead_us", overhead, "latency_us",
				      latency, "overlap", overlap, "t_p", res.t_p, "t_ideal", res.t_ideal, "efficiency",
				      res.efficiency, "chunks", (json_int_t)res.chunks,
				      "recomputations", res.recomputations);
		json_t *per_step = json_array();
		int bad;

		for (int k = 0; per_step && k < res.steps; k++)
			json_array_append_new(
			    per_step,
			    json_pack("{sfsfsfsI}", "t_p", res.step[k].t_p, "t_ideal",
				      res.step[k].t_ideal, "efficiency",
				      res.step[k].t_p > 0 ? res.step[k].t_ideal / res.step[k].t_p
							  : 0,
				      "chunks", (json_int_t)res.step[k].chunks));
		if (o && takeback) {
			json_object_set_new(o, "take_back", json_string(takeback_names[takeback]));
			json_object_set_new(o, "takebacks", json_integer(res.takebacks));
			json_object_set_new(o, "taken_back", json_integer(res.taken_back));
		}
		if (o && per_step)
			json_object_set_new(o, "steps", per_step);
		else
			json_decref(per_step);
		bad = !o || simulate_json_run(o, &res, cl.speed, cl.n, n, sim.latency_s) ||
		      json_dump_file(o, json, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));

		json_decref(o);
		if (bad)
			fprintf(stderr, PROG ": cannot write '%s'\n", json);
		rc = bad || pictures_draw(json, gantt, report, PROG, stdout, "");
		if (*tmp_json)
			unlink(tmp_json);
		if (rc)
			return 1;
	}
	sim_result_free(&res);
	for (int k = 1; lcost && k < steps; k++)
		free(lcost[k]);
	free(lcost);
	free(colcost);
	free(cost);
	free(col);
	free(pes);
	return 0;
}
