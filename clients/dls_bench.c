/*
 * dls bench - compares the schemes on emulated reference clusters, dedicated
 * and non-dedicated: every cell is a real `dls run` (repeated) beside its
 * zero-overhead simulation; the master's request rate beside the bare ORB's;
 * piggy-backed against end-of-run result collection.
 */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "cluster.h"
#include "dls_cmds.h"
#include "dls/err.h"
#include "dls_time.h"
#include "iter_order.h"
#include "run_json.h"
#include "mandel.h"
#include "proc.h"
#include "sim.h"
#include "simulate_piles.h"
#include "simulate_trees.h"

#define PROG "dls bench"
#define MAX_LIST 32

static const char *const all_schemes[] = {"ss",	  "css",  "gss",  "tss",  "fss",   "fiss",
					  "tfss", "wf",	  "dtss", "dfss", "dfiss", "dtfss"};

static void help(void)
{
	printf("usage: dls bench [--quick] [--clusters LIST] [--schemes LIST] [--orders LIST]\n"
	       "                 [--reps N] [--width W --height H] [--t-iter NS] [--out DIR]\n"
	       "                 [--capacity] [--collection WxH] [--no-plots]\n\n"
	       "Runs every (cluster, order, scheme) cell with `dls run`, --reps times, beside\n"
	       "its zero-overhead simulation; prints Chronopoulos et al.'s Tables 2-3 (PE_i:\n"
	       "T_com+wait / T_comp) and a summary per scheme (median T_p, spread, T_ideal,\n"
	       "E, chunks, simulated T_p, framework overhead, recomputations); writes\n"
	       "DIR/bench.csv, DIR/bench.json, the runs' own JSON/CSV in DIR/runs and PNG\n"
	       "plots in DIR/plots.\n\n"
	       "  --clusters LIST   reference clusters (default C8,C8-nd): C8 C8-nd C8-var\n"
	       "                    C8-mis C24 C24-nd C64 C64-nd C128 C128-nd C256 C256-nd,\n"
	       "                    pN, pN-nd (N slaves, 1 to 16384, half of V = 1)\n"
	       "  --schemes LIST    default: Chronopoulos et al.'s twelve; any of dls run\n"
	       "                    (static fsc mfsc awf-b ... af auto); also hdtss (DTSS\n"
	       "                    through about sqrt(p)/2 hmasters, two-level mode),\n"
	       "                    hdtss-relay, and\n"
	       "                    trees (Tree Scheduling, gamma half, equal allocation)\n"
	       "                    workpile, roc, ripple (their papers' defaults)\n"
	       "  --orders LIST     natural,interleaved (default both)\n"
	       "  --reps N          runs per cell (default 3)\n"
	       "  --width, --height image (default 4000x2000); --t-iter NS (default 100)\n"
	       "  --link-latency-us US  emulated one-way latency of every link, in the runs\n"
	       "                    and their simulations\n"
	       "  --loops N         every run N loops (dls run --loops), its simulation\n"
	       "                    too (without the end game); T_p and E of the whole run\n"
	       "  --overlap on|off|both  slaves ask ahead (dls run --overlap; default on);\n"
	       "                    both: every scheme twice, side by side, the cells\n"
	       "                    without it labelled SCHEME-off\n"
	       "  --take-back on|off  the end game (dls run --take-back; default on), in\n"
	       "                    the flat master-slave runs and their simulations\n"
	       "  --capacity        the master's request rate with 8 slaves and zero-cost\n"
	       "                    iterations, beside a bare omniORB two-way call rate\n"
	       "  --collection WxH  piggy-backed against end-of-run collection on a WxH image\n"
	       "  --quick           C8 and C8-nd, interleaved, 1 run, 1000x500 at 400 ns,\n"
	       "                    with --capacity: a few minutes\n"
	       "  --out DIR         default bench-out\n\n"
	       "The runs keep no journal (dls run --no-journal), as the papers' and the peers'\n"
	       "figures; what the journal costs: scripts/bench-journal.sh (BENCHMARKS.md 13.1).\n");
}

static int split_list(char *s, const char **items, int max)
{
	int n = 0;

	for (char *tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ","))
		items[n++] = tok;
	return n;
}

static char self_exe[4096];

/* Runs `dls ARGS...`, output to log; returns its exit status. */
static int run_dls(char **args, const char *log)
{
	char *argv[64];
	int n = 0, ws;
	pid_t pid;

	argv[n++] = self_exe;
	for (int i = 0; args[i] && n < 63; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = proc_spawn(argv, log, log, 0);
	if (pid < 0 || waitpid(pid, &ws, 0) != pid)
		return -1;
	return proc_status(ws);
}

/* What every cell's runs share. */
struct bench_opts {
	int width, height;
	double t_iter;
	const char *out;
	double latency_us; /* emulated one-way link latency of every run */
	int loops;	   /* loops a run holds (dls run --loops; 1: one) */
	int takeback;	   /* the end game (dls run --take-back): 1 on, 0 off */
};

/* "hdtss" (two-level) or "hdtss-relay": DTSS through hmasters. */
static int is_hdtss(const char *scheme)
{
	return !strcmp(scheme, "hdtss") || !strcmp(scheme, "hdtss-relay");
}

/* No master: Tree Scheduling, or a policy of docs/schemes.md appendix A (dls-treesched). */
static int is_decentralized(const char *scheme)
{
	return !strcmp(scheme, "trees") || !strcmp(scheme, "workpile") || !strcmp(scheme, "roc") ||
	       !strcmp(scheme, "ripple");
}

/* "hdtss" is DTSS through hmasters: about sqrt(p)/2 of them (2 for C24, as
 * in Chronopoulos et al. 2002, 4 for C64), at least 2. */
static int hmasters_for(int nslaves)
{
	int k = (int)(sqrt((double)nslaves) / 2 + 0.5);

	return k < 2 ? 2 : k;
}

/* The text of a cell's run's arguments (args point into it). */
struct cell_run_text {
	char json[4300], csv[4300], log[4300], w[16], h[16], t[32], runname[192], hm[16];
	char lat[32], loops[16];
};

/* The `dls run` command line of run rep of cell c into args (NULL-ended;
 * 40 at most), its text and the names of its files in x. */
static void cell_run_args(const struct bench_cell *c, const struct bench_opts *o, int rep,
			  const struct cluster *cl, struct cell_run_text *x, char **args)
{
	int n = 0;

	snprintf(x->json, sizeof(x->json), "%s/runs/%s-%s-%s-%d.json", o->out, c->cluster,
		 c->order, c->scheme, rep);
	snprintf(x->csv, sizeof(x->csv), "%s/runs/%s-%s-%s-%d.csv", o->out, c->cluster, c->order,
		 c->scheme, rep);
	snprintf(x->log, sizeof(x->log), "%s/runs/%s-%s-%s-%d.log", o->out, c->cluster, c->order,
		 c->scheme, rep);
	snprintf(x->w, sizeof(x->w), "%d", o->width);
	snprintf(x->h, sizeof(x->h), "%d", o->height);
	snprintf(x->t, sizeof(x->t), "%g", o->t_iter);
	snprintf(x->runname, sizeof(x->runname), "bench-%d-%s-%s-%s-%d", (int)getpid(),
		 c->cluster, c->order, c->scheme, rep);
	snprintf(x->lat, sizeof(x->lat), "%g", o->latency_us);
	snprintf(x->loops, sizeof(x->loops), "%d", o->loops);
	args[n++] = "run";
	args[n++] = "--cluster";
	args[n++] = (char *)c->cluster;
	args[n++] = "--scheme";
	if (is_hdtss(c->kind)) {
		snprintf(x->hm, sizeof(x->hm), "%d", hmasters_for(cl->n));
		args[n++] = "dtss";
		args[n++] = "--hmasters";
		args[n++] = x->hm;
		args[n++] = "--hmode";
		args[n++] = strcmp(c->kind, "hdtss") ? "relay" : "twolevel";
	} else {
		args[n++] = (char *)c->kind;
	}
	if (!c->overlap && !is_decentralized(c->kind)) {
		args[n++] = "--overlap";
		args[n++] = "off";
	}
	if (!o->takeback && !is_decentralized(c->kind) && !is_hdtss(c->kind)) {
		args[n++] = "--take-back";
		args[n++] = "off";
	}
	char *rest[] = {"--order", (char *)c->order, "--width", x->w, "--height", x->h,
			"--t-iter", x->t, "--json", x->json, "--csv", x->csv, "--run", x->runname,
			"--no-progress",
			"--no-journal", /* the scheme as the papers and peers measure it */
			"--link-latency-us", x->lat, "--loops", x->loops};
	for (size_t k = 0; k < sizeof(rest) / sizeof(rest[0]); k++)
		args[n++] = rest[k];
	args[n] = NULL;
}

/* Adds a completed run of cell c (rj, from json) to its runs, kept sorted
 * by T_p; the median run's details are the cell's. */
static void cell_add_run(struct bench_cell *c, const char *json, const struct run_json *rj)
{
	int i = c->ok++;

	c->t_ideal = rj->t_ideal;
	while (i > 0 && c->tp[i - 1] > rj->t_p) {
		c->tp[i] = c->tp[i - 1];
		c->eff[i] = c->eff[i - 1];
		i--;
	}
	c->tp[i] = rj->t_p;
	c->eff[i] = rj->efficiency;
	if (i == c->ok / 2 || c->ok == 1) {
		c->chunks = rj->chunks;
		c->recomputations = rj->recomputations;
		c->emul_error_us = rj->chunks ? rj->emul_error / (double)rj->chunks * 1e6 : 0;
		run_json_pe_times(json, c->nslaves, c->comwait, c->comp);
	}
}

/* One run of a cell; adds its T_p and E when it completed. */
static void run_cell(struct bench_cell *c, const struct bench_opts *o, int rep,
		     const struct cluster *cl)
{
	struct cell_run_text x;
	struct run_json rj;
	char *args[40];

	cell_run_args(c, o, rep, cl, &x, args);
	if (run_dls(args, x.log) != 0) {
		fprintf(stderr, PROG ": %s %s %s run %d failed (see %s)\n", c->cluster, c->order,
			c->scheme, rep, x.log);
		return;
	}
	if (run_json_read(x.json, &rj)) {
		fprintf(stderr, PROG ": cannot read '%s'\n", x.json);
		return;
	}
	cell_add_run(c, x.json, &rj);
}

/* A decentralized cell (Tree Scheduling or a policy), simulated as dls run
 * runs it by default, on the costs in the cell's order. */
static void simulate_decentralized(struct bench_cell *c, const struct cluster *cl,
				   const uint64_t *cost, const struct bench_opts *o)
{
	double t_p, t_ideal;

	if (strcmp(c->kind, "trees")) {
		struct piles_opts po;

		piles_opts_init(&po, PILE_NONE);
		pile_policy_parse(c->kind, &po.policy);
		po.seeds = PILE_BENCH_SEEDS;
		if (pile_sim_on_cluster(&po, cl, cost, o->width, o->t_iter * 1e-9,
					o->latency_us * 1e-6, &t_p, &t_ideal) == DLS_OK) {
			c->sim_tp = t_p;
			c->sim_e = t_p > 0 ? t_ideal / t_p : 0;
		}
	} else { /* half, equal */
		struct trees_opts to = {TREE_GAMMA_HALF, TREE_ALLOC_EQUAL, 0, 0, NULL};
		struct tree_sim_result tr;

		if (tree_sim_on_cluster(&to, cl, cost, o->width, o->t_iter * 1e-9,
					o->latency_us * 1e-6, &tr, &t_ideal) == DLS_OK) {
			c->sim_tp = tr.t_p;
			c->sim_e = tr.t_p > 0 ? t_ideal / tr.t_p : 0;
			tree_sim_result_free(&tr);
		}
	}
}

/* A master-slave cell (hmasters too) simulated as dls run plays it, on
 * the costs in the cell's order. */
static void simulate_scheme(struct bench_cell *c, const struct cluster *cl, uint64_t *cost,
			    struct sim_pe *pes, const struct bench_opts *o)
{
	struct sim_config sc;
	struct sim_result r;

	memset(&sc, 0, sizeof(sc));
	sched_params_init(&sc.sched);
	if (is_hdtss(c->kind)) {
		sc.sched.kind = SCHED_DTSS;
		sc.hmasters = hmasters_for(cl->n);
		sc.twolevel = !strcmp(c->kind, "hdtss");
	} else {
		sched_kind_parse(c->kind, &sc.sched.kind);
		/* as the runs play it: dls run's default end game, or none */
		sc.takeback = o->takeback ? SIM_TAKEBACK_HOLDERS : SIM_TAKEBACK_OFF;
	}
	sc.overlap = c->overlap;
	sc.sched.correlated = !strcmp(c->order, "natural");
	if (sc.sched.kind == SCHED_CSS) /* dls run's default K */
		sc.sched.css_k = (o->width + cl->n - 1) / cl->n;
	sc.cost = cost;
	sc.iterations = o->width;
	sc.pes = pes;
	sc.npes = cl->n;
	sc.t_iter_s = o->t_iter * 1e-9;
	sc.latency_s = o->latency_us * 1e-6;
	sc.poll_s = 0.1;
	sc.steps = o->loops;
	if (o->loops > 1) /* modelled without the end game */
		sc.takeback = SIM_TAKEBACK_OFF;
	if (sim_run(&sc, &r) == DLS_OK) {
		c->sim_tp = r.t_p;
		c->sim_e = r.efficiency;
		sim_result_free(&r);
	}
}

/* The cell's zero-overhead simulation on the image's real column costs. */
static void simulate_cell(struct bench_cell *c, const struct cluster *cl, const uint64_t *colcost,
			  const struct bench_opts *o)
{
	struct sim_pe *pes = calloc((size_t)cl->n, sizeof(*pes));
	uint64_t *cost = malloc((size_t)o->width * sizeof(*cost));
	struct iter_order ord;
	enum iter_order_mode mode = ITER_ORDER_NATURAL;

	if (!pes || !cost)
		goto out;
	iter_order_parse(c->order, &mode);
	iter_order_init(&ord, mode, o->width);
	for (int64_t i = 0; i < o->width; i++)
		cost[i] = colcost[iter_order_column(&ord, i)];
	for (int i = 0; i < cl->n; i++) {
		pes[i].speed = cl->speed[i];
		pes[i].declared = cl->declared[i];
		pes[i].load = cl->load[i];
	}
	if (is_decentralized(c->kind)) /* dls run's defaults */
		simulate_decentralized(c, cl, cost, o);
	else
		simulate_scheme(c, cl, cost, pes, o);
out:
	free(pes);
	free(cost);
}

/* The bare ORB's rate: one `dls orbping` servant process and 8 client
 * processes of 10000 two-way calls each.  The calls made (0: none
 * measured) in *secs, from the first one's start to the last one's end. */
static long bare_orb_calls(const struct bench_opts *o, double *secs)
{
	char log[4300], ior_path[4300], ior[4096] = "";
	double t0 = 1e300, t1 = 0;
	long total = 0;
	pid_t server, clients[8];
	FILE *f;

	snprintf(ior_path, sizeof(ior_path), "%s/runs/orbping.ior", o->out);
	snprintf(log, sizeof(log), "%s/runs/orbping-server.log", o->out);
	remove(ior_path);
	char *sargv[] = {self_exe, "orbping", "--serve", ior_path, "-ORBendPoint",
			 "giop:tcp:127.0.0.1:", NULL};
	server = proc_spawn(sargv, log, log, 0);
	for (int i = 0; i < 200 && !ior[0]; i++) {
		f = fopen(ior_path, "r");
		if (f) {
			if (!fgets(ior, sizeof(ior), f))
				ior[0] = '\0';
			fclose(f);
		}
		if (!ior[0])
			dls_sleep_ms(25);
	}
	ior[strcspn(ior, "\n")] = '\0';
	for (int i = 0; i < 8 && ior[0]; i++) {
		char clog[4300], *cargv[] = {self_exe, "orbping", "--call", ior, "--calls", "10000",
					     NULL};

		snprintf(clog, sizeof(clog), "%s/runs/orbping-%d.log", o->out, i);
		remove(clog);
		clients[i] = proc_spawn(cargv, clog, clog, 0);
	}
	for (int i = 0; i < 8 && ior[0]; i++) {
		char clog[4300];
		long calls;
		double s, e;

		waitpid(clients[i], NULL, 0);
		snprintf(clog, sizeof(clog), "%s/runs/orbping-%d.log", o->out, i);
		f = fopen(clog, "r");
		if (f && fscanf(f, "calls %ld start %lf end %lf", &calls, &s, &e) == 3) {
			total += calls;
			t0 = s < t0 ? s : t0;
			t1 = e > t1 ? e : t1;
		}
		if (f)
			fclose(f);
	}
	proc_stop(server, 1000);
	*secs = t1 - t0;
	return total;
}

/* Master requests/s with 8 zero-cost slaves, beside bare ORB two-way calls/s. */
static void capacity(const struct bench_opts *o, FILE *out)
{
	char json[4300], log[4300];
	struct run_json rj;
	char *args[] = {"run",	       "--speeds", "1,1,1,1,1,1,1,1", "--t-iter", "0",
			"--width",     "40000",	   "--height",	      "1",	  "--maxit",
			"1",	       "--scheme", "ss",	      "--json",	  json,
			"--no-progress", "--no-journal", NULL};
	double tp = 0, secs = 0;
	long total;

	snprintf(json, sizeof(json), "%s/runs/capacity.json", o->out);
	snprintf(log, sizeof(log), "%s/runs/capacity.log", o->out);
	if (run_dls(args, log) == 0 && !run_json_read(json, &rj))
		tp = rj.t_p;
	total = bare_orb_calls(o, &secs);
	fprintf(out, "\nmaster capacity (8 slaves, zero-cost iterations, SS):\n");
	if (tp > 0)
		fprintf(out, "  master:   %8.0f chunk requests/s (40000 requests in %.3f s)\n",
			40000 / tp, tp);
	if (total > 0)
		fprintf(out, "  bare ORB: %8.0f two-way calls/s (8 clients, %ld calls in %.3f s)\n",
			total / secs, total, secs);
	if (tp > 0 && total > 0)
		fprintf(out, "  ratio:    %.2f of the bare ORB's rate\n", (40000 / tp) / (total / secs));
}

/* Piggy-backed against end-of-run collection of the results. */
static void collection(const struct bench_opts *o, const char *size, FILE *out)
{
	int w, h;
	char ws[16], hs[16];

	if (sscanf(size, "%dx%d", &w, &h) != 2)
		return;
	snprintf(ws, sizeof(ws), "%d", w);
	snprintf(hs, sizeof(hs), "%d", h);
	fprintf(out, "\nresult collection, C8, dtss, interleaved, %dx%d:\n", w, h);
	for (int mode = 0; mode < 2; mode++) {
		char json[4300], log[4300];
		struct run_json rj;
		char *args[] = {"run",	    "--cluster", "C8",	 "--scheme", "dtss", "--order",
				"interleaved", "--width", ws,	   "--height", hs,	"--collect",
				mode ? "end" : "piggyback", "--json", json, "--no-progress", "--no-journal",
				NULL};

		snprintf(json, sizeof(json), "%s/runs/collect-%s.json", o->out, args[12]);
		snprintf(log, sizeof(log), "%s/runs/collect-%s.log", o->out, args[12]);
		if (run_dls(args, log) || run_json_read(json, &rj)) {
			fprintf(out, "  %-9s failed (see %s)\n", args[12], log);
			continue;
		}
		fprintf(out, "  %-9s T_p %8.3f s   T_ideal %8.3f s   E %.3f\n", args[12], rj.t_p,
			rj.t_ideal, rj.efficiency);
	}
}

/* What the options say. */
struct bench_args {
	struct bench_opts o;
	char *cl_s, *sc_s, *or_s; /* --clusters, --schemes, --orders (copies) */
	const char *coll;	  /* --collection WIDTHxHEIGHT, or NULL */
	int reps, quick, cap, plots;
	int overlaps[2], nov; /* --overlap: on, or off, or both (on, then off) */
	/* the lists, split (pointing into the copies) */
	const char *clusters[MAX_LIST], *schemes[MAX_LIST], *orders[MAX_LIST];
	int ncl, nsc, nor;
};

static void args_free(struct bench_args *a)
{
	free(a->cl_s);
	free(a->sc_s);
	free(a->or_s);
}

/* Reads the command line into a: -1 to go on, else the exit status
 * (--help: 0; an unknown option: 2, said).  Long as the option table is:
 * one case an option, each a few lines. */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
	static const struct option opts[] = {{"quick", no_argument, 0, 'Q'},
					     {"clusters", required_argument, 0, 'c'},
					     {"schemes", required_argument, 0, 's'},
					     {"orders", required_argument, 0, 'o'},
					     {"reps", required_argument, 0, 'r'},
					     {"width", required_argument, 0, 'w'},
					     {"height", required_argument, 0, 'H'},
					     {"t-iter", required_argument, 0, 't'},
					     {"out", required_argument, 0, 'O'},
					     {"capacity", no_argument, 0, 'C'},
					     {"collection", required_argument, 0, 'L'},
					     {"no-plots", no_argument, 0, 'P'},
					     {"link-latency-us", required_argument, 0, 'l'},
					     {"overlap", required_argument, 0, 'V'},
					     {"loops", required_argument, 0, 'N'},
					     {"take-back", required_argument, 0, 'T'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	struct bench_opts *o = &a->o;
	int c, w, h;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'Q':
			a->quick = 1;
			break;
		case 'c':
			free(a->cl_s);
			a->cl_s = strdup(optarg);
			break;
		case 's':
			free(a->sc_s);
			a->sc_s = strdup(optarg);
			break;
		case 'o':
			free(a->or_s);
			a->or_s = strdup(optarg);
			break;
		case 'r':
			a->reps = (int)cli_i64_or_die(PROG, "--reps", optarg, 1, BENCH_MAX_REPS);
			break;
		case 'w':
			o->width = (int)cli_i64_or_die(PROG, "--width", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case 'H':
			o->height = (int)cli_i64_or_die(PROG, "--height", optarg, 1, 524288);
			break;
		case 't':
			o->t_iter = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
			break;
		case 'O':
			o->out = optarg;
			break;
		case 'C':
			a->cap = 1;
			break;
		case 'L':
			if (sscanf(optarg, "%dx%d", &w, &h) != 2 || w < 1 || h < 1)
				cli_usage_error(PROG, "--collection", optarg, "must be WIDTHxHEIGHT");
			a->coll = optarg;
			break;
		case 'P':
			a->plots = 0;
			break;
		case 'N':
			o->loops = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, 100000);
			break;
		case 'T':
			o->takeback = cli_on_off_or_die(PROG, "--take-back", optarg);
			break;
		case 'l':
			o->latency_us = cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e7);
			break;
		case 'V':
			if (!strcmp(optarg, "both")) {
				a->nov = 2;
			} else {
				a->nov = 1;
				a->overlaps[0] = cli_on_off_or_die(PROG, "--overlap", optarg);
			}
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
	return -1;
}

/* --quick's smaller defaults, the lists split and checked (exit 2, with
 * the line, on an unknown cluster, order or scheme, or one --loops cannot
 * run). */
static void settle_lists(struct bench_args *a)
{
	static struct cluster cl; /* its arrays are large */
	struct bench_opts *o = &a->o;

	if (a->quick) {
		if (!a->or_s)
			a->or_s = strdup("interleaved");
		a->reps = a->reps == 3 ? 1 : a->reps;
		if (o->width == 4000 && o->height == 2000) {
			o->width = 1000;
			o->height = 500;
			o->t_iter = 400;
		}
		a->cap = 1;
	}
	a->ncl = split_list(a->cl_s ? a->cl_s : (a->cl_s = strdup("C8,C8-nd")), a->clusters,
			    MAX_LIST);
	a->nor = split_list(a->or_s ? a->or_s : (a->or_s = strdup("natural,interleaved")),
			    a->orders, MAX_LIST);
	if (a->sc_s)
		a->nsc = split_list(a->sc_s, a->schemes, MAX_LIST);
	else
		for (a->nsc = 0; a->nsc < 12; a->nsc++)
			a->schemes[a->nsc] = all_schemes[a->nsc];
	for (int i = 0; i < a->ncl; i++)
		if (cluster_reference(a->clusters[i], &cl))
			cli_usage_error(PROG, "--clusters", a->clusters[i],
					"unknown cluster (" CLUSTER_NAMES ")");
	for (int i = 0; i < a->nor; i++)
		if (strcmp(a->orders[i], "natural") && strcmp(a->orders[i], "interleaved"))
			cli_usage_error(PROG, "--orders", a->orders[i],
					"must be natural or interleaved");
	for (int i = 0; i < a->nsc; i++) {
		const char *s = a->schemes[i];
		int central = !is_hdtss(s) && !is_decentralized(s);
		enum sched_kind k;

		if (central && sched_kind_parse(s, &k))
			cli_usage_error(PROG, "--schemes", s, "unknown scheme");
		if (central && k == SCHED_AWF && o->loops < 2)
			cli_usage_error(PROG, "--schemes", s,
					"awf learns its weights from one loop for the next: give "
					"--loops N (N >= 2)");
		if (o->loops > 1 && (is_hdtss(s) || is_decentralized(s)))
			cli_usage_error(PROG, "--loops", s,
					"the simulation a cell is compared with models many loops "
					"on a flat master only");
	}
}

/*
 * Every cell (cluster x order x scheme x overlap), simulated and run reps
 * times, the cells side by side alternating run by run, each line said on
 * stderr; colcost is every column's real cost.  The cells (*ncells of
 * them; free with free_cells), or NULL when out of memory.
 */
static struct bench_cell *run_cells(const struct bench_args *a, const uint64_t *colcost,
				    int *ncells)
{
	static struct cluster cl; /* its arrays are large */
	struct bench_cell *cells = calloc((size_t)(a->ncl * a->nor * a->nsc * a->nov),
					  sizeof(*cells));

	*ncells = 0;
	for (int ic = 0; cells && ic < a->ncl; ic++) {
		cluster_reference(a->clusters[ic], &cl);
		for (int io = 0; io < a->nor; io++)
			for (int is = 0; is < a->nsc; is++) {
				struct bench_cell *side = &cells[*ncells]; /* nov cells */

				for (int iv = 0; iv < a->nov; iv++) {
					struct bench_cell *cell = &cells[(*ncells)++];

					snprintf(cell->cluster, sizeof(cell->cluster), "%s",
						 a->clusters[ic]);
					snprintf(cell->order, sizeof(cell->order), "%s",
						 a->orders[io]);
					snprintf(cell->kind, sizeof(cell->kind), "%s",
						 a->schemes[is]);
					cell->overlap = a->overlaps[iv];
					snprintf(cell->scheme, sizeof(cell->scheme), "%s%s",
						 a->schemes[is],
						 a->nov > 1 && !cell->overlap ? "-off" : "");
					cell->nslaves = cl.n;
					cell->reps = a->reps;
					cell->comwait = calloc((size_t)cl.n, sizeof(double));
					cell->comp = calloc((size_t)cl.n, sizeof(double));
					simulate_cell(cell, &cl, colcost, &a->o);
				}
				for (int r = 0; r < a->reps; r++)
					for (int iv = 0; iv < a->nov; iv++)
						run_cell(&side[iv], &a->o, r, &cl);
				for (int iv = 0; iv < a->nov; iv++)
					fprintf(stderr, "%s %s %-9s T_p %.3f (simulated %.3f)\n",
						side[iv].cluster, side[iv].order, side[iv].scheme,
						bench_median(&side[iv]), side[iv].sim_tp);
			}
	}
	return cells;
}

static void free_cells(struct bench_cell *cells, int ncells)
{
	for (int i = 0; cells && i < ncells; i++) {
		free(cells[i].comwait);
		free(cells[i].comp);
	}
	free(cells);
}

/* Every column's real cost in the image of o (NULL: out of memory). */
static uint64_t *column_costs(const struct bench_opts *o)
{
	struct mandel_params mp = {o->width, o->height, MANDEL_DEFAULT_MAXIT};
	uint64_t *colcost = malloc((size_t)o->width * sizeof(*colcost));
	uint16_t *col = malloc((size_t)o->height * sizeof(*col));

	for (int x = 0; colcost && col && x < o->width; x++)
		colcost[x] = mandel_column(&mp, x, col);
	if (!col) {
		free(colcost);
		colcost = NULL;
	}
	free(col);
	return colcost;
}

/* The tables on stdout and in OUT/tables.txt, with the capacity and
 * collection measurements when asked for (measured once, written to
 * both). */
static void write_tables(const struct bench_args *a, const struct bench_cell *cells,
			 int ncells)
{
	const struct bench_opts *o = &a->o;
	char tpath[4300];
	FILE *tables;

	snprintf(tpath, sizeof(tpath), "%s/tables.txt", o->out);
	tables = fopen(tpath, "w");
	printf("dls bench: %dx%d, t_iter %g ns, link latency %g us, %d run(s) a cell; T_p, T_ideal"
	       " in s; overhead = measured / simulated T_p - 1\n",
	       o->width, o->height, o->t_iter, o->latency_us, a->reps);
	bench_print_tables(stdout, cells, ncells);
	if (tables)
		bench_print_tables(tables, cells, ncells);
	if (a->cap || a->coll) {
		char *extra = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&extra, &len);

		if (mem) {
			if (a->cap)
				capacity(o, mem);
			if (a->coll)
				collection(o, a->coll, mem);
			fclose(mem);
			fputs(extra, stdout);
			if (tables)
				fputs(extra, tables);
			free(extra);
		}
	}
	if (tables)
		fclose(tables);
}

int dls_cmd_bench(int argc, char **argv)
{
	struct bench_args a = {.o = {4000, 2000, 100, "bench-out", 0, 1, 1},
			       .reps = 3,
			       .plots = 1,
			       .overlaps = {1, 0},
			       .nov = 1};
	struct bench_cell *cells = NULL;
	uint64_t *colcost = NULL;
	char runs[4200];
	int ncells = 0, rc;

	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		goto out;
	settle_lists(&a);
	proc_self_dir(self_exe, sizeof(self_exe));
	strncat(self_exe, "/dls", sizeof(self_exe) - strlen(self_exe) - 1);
	snprintf(runs, sizeof(runs), "%s/runs", a.o.out);
	if ((mkdir(a.o.out, 0755) && errno != EEXIST) || (mkdir(runs, 0755) && errno != EEXIST)) {
		fprintf(stderr, PROG ": cannot create '%s': %s\n", runs, strerror(errno));
		rc = 1;
		goto out;
	}
	colcost = column_costs(&a.o); /* for the simulations */
	cells = colcost ? run_cells(&a, colcost, &ncells) : NULL;
	if (!cells) {
		fprintf(stderr, PROG ": out of memory\n");
		rc = 1;
		goto out;
	}
	write_tables(&a, cells, ncells);
	rc = bench_write_files(a.o.out, cells, ncells) ? 1 : 0;
	if (rc)
		goto out;
	if (a.plots && bench_plot(a.o.out, cells, ncells))
		fprintf(stderr, PROG ": gnuplot failed; see %s/plots/gnuplot.log\n", a.o.out);
	printf("\nwrote %s/bench.csv, %s/bench.json, %s/tables.txt", a.o.out, a.o.out, a.o.out);
	printf(a.plots ? " and the plots in %s/plots/\n" : "\n", a.o.out);
out:
	free_cells(cells, ncells);
	free(colcost);
	args_free(&a);
	return rc;
}
