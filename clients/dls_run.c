/*
 * dls run - one command for a whole run: a private naming service (unless
 * one is given), the master and the slaves of an emulated cluster, the job,
 * seed 001's table at the end, the outputs; every process it started is
 * stopped, by PID, also on Ctrl-C or when a part fails.
 */
#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_opt.h"
#include "cli_util.h"
#include "cluster.h"
#include "dls_cmds.h"
#include "dls_time.h"
#include "names_proc.h"
#include "proc.h"
#include "run_report.h"
#include "sched_cli.h"
#include "run_auth.h"
#include "tls_setup.h"
#include "tree_migrate.h"
#include "tree_plan.h"
#include "work.h"

#define PROG "dls run"
#define MAX_ARGS 96

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static void help(void)
{
	printf("usage: dls run [--cluster NAME | --speeds V,V,... [--loads Q,Q,...]] [--scheme S]\n"
	       "               [--workload W --param N=V ... | --width W --height H --maxit M]\n"
	       "               [outputs] [options]\n\n"
	       "Starts a private naming service, the master and one slave per PE, runs the\n"
	       "job, prints seed 001's per-PE table, and stops everything it started.\n\n"
	       "  --cluster NAME       a reference cluster: " CLUSTER_NAMES "\n"
	       "  --speeds LIST        virtual power V_i of each slave, e.g. 1,1,2,2\n"
	       "  --loads LIST         Q_i of each slave (1 = dedicated), or schedules such as\n"
	       "                       '1;0:1,2.5:2;1;1' (slaves separated by ';')\n"
	       "  --t-iter NS          emulated ns per unit iteration at V = 1 (default 100)\n"
	       "  --tls                every servant on TLS endpoints only (giop:ssl), with a\n"
	       "                       certificate authority made for the run; peers verified\n"
	       "  --link-latency-us US emulated one-way latency of every link (slaves and\n"
	       "                       hmasters delay their own calls)\n"
	       "  --workload NAME      the loop body: mandelbrot (default) or pendulum\n"
	       "  --param NAME=VALUE   a workload parameter (repeatable; PROTOCOL.md 3)\n"
	       "  --width, --height    Mandelbrot's image size (default 400x200); --maxit (256)\n"
	       "  --order O            natural (default) or interleaved\n"
	       "  --collect C          piggyback (default) or end\n" SCHED_CLI_HELP
	       "  --out FILE.npy       the results, one row per loop index (numpy.load)\n"
	       "  --png, --raw, --csv, --json FILE   the outputs of the master (images:\n"
	       "                       Mandelbrot only)\n"
	       "  --run NAME           naming context (default run-PID)\n"
	       "  --names ADDR         use this naming service (corbaname::HOST:PORT)\n"
	       "  --dir DIR            keep the logs in DIR (default: a temporary folder,\n"
	       "                       removed after a successful run)\n"
	       "  --hmasters LIST      HDTSS: hmasters per level, e.g. 2 (two under the master)\n"
	       "                       or 2,4 (four more under those); slaves split evenly\n"
	       "                       over the last level\n"
	       "  --scheme trees       Tree Scheduling: dls-treesched coordinates, slaves pass\n"
	       "                       work to their neighbours; --gamma half|proportional|ratio,\n"
	       "                       --alloc equal|proportional|round-robin, --bidirectional,\n"
	       "                       --report-interval S (0: results when a slave is idle)\n"
	       "  --hmode M            twolevel (default: each hmaster schedules its slaves on\n"
	       "                       the chunks it gets, and prefetches) or relay (the\n"
	       "                       master computes every chunk; hmasters merge messages)\n"
	       "  --kill WHO@SECS      kill -9 slave WHO (a number), hmaster.L.I, the master\n"
	       "                       or the coordinator that long after the start\n"
	       "                       (failure drill)\n"
	       "  --no-journal         the master (or Tree Scheduling's coordinator) keeps no\n"
	       "                       journal (by default it journals to the run's folder,\n"
	       "                       and dls run resumes it, up to 3 times, if it dies;\n"
	       "                       slaves and hmasters rejoin it within 30 s)\n"
	       "  --journal-sync S     os (default: each acknowledged record handed to the OS;\n"
	       "                       survives the master's crash, which is what dls run\n"
	       "                       resumes from on this machine) or disk (fsync'ed)\n"
	       "  --timeout SECS       stop everything after this long (default 3600)\n"
	       "  --slave-program P    start P instead of dls-slave for each PE (it gets\n"
	       "                       dls-slave's options: an embedding such as\n"
	       "                       examples/embed_slave.cc)\n"
	       "  --progress           a live progress line (default when stderr is a terminal)\n"
	       "  --no-progress\n");
}

struct child {
	pid_t pid;
	int status; /* -1 while running */
	char log[4200];
};

#define MAX_LEVELS 4
#define MAX_HMASTERS 256

struct run_state {
	struct child master, names;
	struct child *slaves;
	int nslaves;
	struct child hm[MAX_HMASTERS]; /* level by level */
	int nhm;
};

static void add_arg(char **argv, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_arg(char **argv, int *n, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (*n >= MAX_ARGS - 1)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	argv[(*n)++] = s;
	argv[*n] = NULL;
}

/* The ORB options of every servant of the run: the endpoint, and TLS. */
static void add_orb_args(char **argv, int *n, const char *ns, const char *ep, const char *ca,
			 const char *key)
{
	add_arg(argv, n, "-ORBInitRef");
	add_arg(argv, n, "NameService=%s", ns);
	add_arg(argv, n, "-ORBendPoint");
	add_arg(argv, n, "%s", ep);
	if (*ca) {
		add_arg(argv, n, "-ORBsslCAFile");
		add_arg(argv, n, "%s", ca);
		add_arg(argv, n, "-ORBsslKeyFile");
		add_arg(argv, n, "%s", key);
		add_arg(argv, n, "-ORBsslKeyPassword");
		add_arg(argv, n, "unused");
		add_arg(argv, n, "-ORBsslVerifyMode");
		add_arg(argv, n, "peer,fail");
	}
}

static void free_args(char **argv, int n)
{
	for (int i = 0; i < n; i++)
		free(argv[i]);
}

static void reap(struct run_state *r)
{
	int ws;
	pid_t pid;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		if (pid == r->master.pid)
			r->master.status = proc_status(ws);
		for (int i = 0; i < r->nslaves; i++)
			if (pid == r->slaves[i].pid)
				r->slaves[i].status = proc_status(ws);
		if (pid == r->names.pid)
			r->names.status = proc_status(ws);
		for (int i = 0; i < r->nhm; i++)
			if (pid == r->hm[i].pid)
				r->hm[i].status = proc_status(ws);
	}
}

static void stop_all(struct run_state *r)
{
	for (int i = 0; i < r->nslaves; i++)
		if (r->slaves[i].pid > 0 && r->slaves[i].status < 0)
			r->slaves[i].status = proc_stop(r->slaves[i].pid, 1000);
	for (int i = 0; i < r->nhm; i++)
		if (r->hm[i].pid > 0 && r->hm[i].status < 0)
			r->hm[i].status = proc_stop(r->hm[i].pid, 1000);
	if (r->master.pid > 0 && r->master.status < 0)
		r->master.status = proc_stop(r->master.pid, 2000);
	if (r->names.pid > 0 && r->names.status < 0)
		r->names.status = proc_stop(r->names.pid, 1000);
}

static void show_log(const char *what, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];

	if (!f)
		return;
	fprintf(stderr, "---- %s (%s) ----\n", what, path);
	while (fgets(line, sizeof(line), f))
		fputs(line, stderr);
	fclose(f);
}

static void remove_dir(const char *dir)
{
	char cmd[4200];

	/* only the folder we made: mkdtemp names it, nothing else is in it */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, PROG ": cannot remove '%s'\n", dir);
}

enum { O_HMASTERS = 1, O_LATENCY, O_TITER, O_WIDTH, O_HEIGHT, O_MAXIT, O_ORDER, O_COLLECT, O_PNG,
       O_RAW, O_CSV, O_JSON, O_RUN, O_NAMES, O_DIR, O_KILL, O_TIMEOUT, O_PROGRESS, O_NOPROGRESS,
       O_TLS = 200, O_HMODE, O_GAMMA = 210, O_ALLOC, O_BIDI, O_REPORT, O_WORKLOAD = 220, O_PARAM,
       O_OUT, O_SLAVEPROG, O_NOJOURNAL, O_JSYNC };

/* How often dls run resumes a master that died before it gives up. */
#define MAX_RESUMES 3
/* How long a slave keeps trying to rejoin a master that died. */
#define REJOIN_MS 30000

/* Everything the command line says, checked. */
struct run_opts {
	struct cluster cl;
	struct emul_steps power; /* the cluster's sum V_i/Q_i(t), for the master's E */
	const char *loads, *names, *dir;
	const char *slave_program; /* instead of dls-slave: a program taking its options */
	struct run_outputs out; /* the master's files (paths only; passed through) */
	const char *order, *collect, *hmode;
	const char *workload;
	struct dls_param params[DLS_MAX_PARAMS]; /* the workload's */
	int nparams;
	char run[64];
	double t_iter, timeout, kill_at, latency_us;
	int levels[MAX_LEVELS], nlevels, first[MAX_LEVELS + 1]; /* hmasters by level */
	int kill_slave, kill_hm, kill_master;
	char kill_name[64];
	int journal; /* the master journals to the run's folder and is resumed if it dies */
	const char *journal_sync; /* disk or os (dls-master --journal-sync) */
	int tls, trees, progress;
	int collect_given;
	char *tree_argv[8], *sched_argv[48]; /* passed through to the master */
	struct sched_cli sc;		      /* the same, checked before anything starts */
	int tree_argc, sched_argc;
};

static void opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->workload = "mandelbrot";
	o->order = "natural";
	o->collect = "piggyback";
	o->hmode = "twolevel";
	sched_cli_init(&o->sc);
	o->t_iter = 100;
	o->timeout = 3600;
	o->kill_at = -1;
	o->kill_slave = o->kill_hm = -1;
	o->journal = 1;
	o->journal_sync = "os"; /* dls run resumes on this machine: the OS's copy survives */
	o->progress = isatty(STDERR_FILENO);
	snprintf(o->run, sizeof(o->run), "run-%d", (int)getpid());
}

static void opts_free(struct run_opts *o)
{
	for (int i = 0; i < o->sched_argc; i++)
		free(o->sched_argv[i]);
	for (int i = 0; i < o->tree_argc; i++)
		free(o->tree_argv[i]);
}

/* A scheme option: checked here, passed through to the master as written. */
static void keep_sched_option(struct run_opts *o, const struct option *opts, int c)
{
	sched_cli_option(PROG, &o->sc, c, optarg);
	for (const struct option *op = opts; op->name; op++)
		if (op->val == c) {
			if (o->sched_argc < 46) {
				if (asprintf(&o->sched_argv[o->sched_argc], "--%s", op->name) > 0)
					o->sched_argc++;
				if (op->has_arg)
					o->sched_argv[o->sched_argc++] = strdup(optarg);
			}
			break;
		}
}

/* Tree Scheduling's options, checked here and passed through to dls-treesched. */
static void keep_tree_option(struct run_opts *o, int c)
{
	enum tree_gamma g;
	enum tree_alloc a;

	if (c == O_GAMMA && tree_migrate_gamma_parse(optarg, &g))
		cli_usage_error(PROG, "--gamma", optarg, "must be half, proportional or ratio");
	if (c == O_ALLOC && tree_plan_alloc_parse(optarg, &a))
		cli_usage_error(PROG, "--alloc", optarg,
				"must be equal, proportional or round-robin");
	if (c == O_REPORT)
		cli_double_or_die(PROG, "--report-interval", optarg, 0, 3600);
	if (o->tree_argc >= 6)
		return;
	if (c == O_BIDI) {
		o->tree_argv[o->tree_argc++] = strdup("--bidirectional");
		return;
	}
	if (asprintf(&o->tree_argv[o->tree_argc], "--%s=%s",
		     c == O_GAMMA ? "gamma" : c == O_ALLOC ? "alloc" : "report-interval",
		     optarg) > 0)
		o->tree_argc++;
}

static void parse_kill(struct run_opts *o, char *arg)
{
	char *at = strchr(arg, '@');

	if (!at)
		cli_usage_error(PROG, "--kill", arg,
				"must be SLAVE@SECONDS, hmaster.L.I@SECONDS, master@SECONDS or "
				"coordinator@SECONDS");
	*at = '\0';
	if (!strcmp(arg, "master") || !strcmp(arg, "coordinator"))
		o->kill_master = 1;
	else if (!strncmp(arg, "hmaster.", 8))
		snprintf(o->kill_name, sizeof(o->kill_name), "%s", arg);
	else
		o->kill_slave = (int)cli_i64_or_die(PROG, "--kill", arg, 0, CLUSTER_MAX - 1);
	o->kill_at = cli_double_or_die(PROG, "--kill", at + 1, 0, 1e6);
}

static void parse_hmasters(struct run_opts *o, const char *arg)
{
	int64_t *l;
	size_t nl;
	const char *cause = cli_parse_i64_list(arg, 1, MAX_HMASTERS, &l, &nl);

	if (cause || nl > MAX_LEVELS)
		cli_usage_error(PROG, "--hmasters", arg, cause ? cause : "at most 4 levels");
	o->nlevels = (int)nl;
	for (int i = 0; i < o->nlevels; i++)
		o->levels[i] = (int)l[i];
	free(l);
}

/*
 * Reads the command line into *o; a bad value exits 2 with its cause.
 * Returns 0, 1 after --help, or 2 for an unknown option.
 */
static int parse_args(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {SCHED_CLI_LONG_OPTIONS,
					     CLUSTER_CLI_LONG_OPTIONS,
					     {"t-iter", required_argument, 0, O_TITER},
					     {"workload", required_argument, 0, O_WORKLOAD},
					     {"param", required_argument, 0, O_PARAM},
					     {"out", required_argument, 0, O_OUT},
					     {"slave-program", required_argument, 0, O_SLAVEPROG},
					     {"width", required_argument, 0, O_WIDTH},
					     {"height", required_argument, 0, O_HEIGHT},
					     {"maxit", required_argument, 0, O_MAXIT},
					     {"order", required_argument, 0, O_ORDER},
					     {"collect", required_argument, 0, O_COLLECT},
					     {"png", required_argument, 0, O_PNG},
					     {"raw", required_argument, 0, O_RAW},
					     {"csv", required_argument, 0, O_CSV},
					     {"json", required_argument, 0, O_JSON},
					     {"run", required_argument, 0, O_RUN},
					     {"names", required_argument, 0, O_NAMES},
					     {"dir", required_argument, 0, O_DIR},
					     {"kill", required_argument, 0, O_KILL},
					     {"hmasters", required_argument, 0, O_HMASTERS},
					     {"hmode", required_argument, 0, O_HMODE},
					     {"gamma", required_argument, 0, O_GAMMA},
					     {"alloc", required_argument, 0, O_ALLOC},
					     {"bidirectional", no_argument, 0, O_BIDI},
					     {"report-interval", required_argument, 0, O_REPORT},
					     {"link-latency-us", required_argument, 0, O_LATENCY},
					     {"tls", no_argument, 0, O_TLS},
					     {"timeout", required_argument, 0, O_TIMEOUT},
					     {"progress", no_argument, 0, O_PROGRESS},
					     {"no-progress", no_argument, 0, O_NOPROGRESS},
					     {"no-journal", no_argument, 0, O_NOJOURNAL},
					     {"journal-sync", required_argument, 0, O_JSYNC},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees")) {
			o->trees = 1; /* Tree Scheduling: dls-treesched instead of a master */
			continue;
		}
		if (c >= SCHED_OPT_SCHEME && c <= SCHED_OPT_L) {
			keep_sched_option(o, opts, c);
			continue;
		}
		if (cluster_cli_option(PROG, &o->cl, c, optarg, &o->loads))
			continue;
		switch (c) {
		case O_TITER:
			o->t_iter = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
			break;
		case O_WIDTH:
			cli_param_or_die(PROG, "--width", o->params, &o->nparams, "width", optarg);
			break;
		case O_HEIGHT:
			cli_param_or_die(PROG, "--height", o->params, &o->nparams, "height", optarg);
			break;
		case O_MAXIT:
			cli_param_or_die(PROG, "--maxit", o->params, &o->nparams, "maxit", optarg);
			break;
		case O_WORKLOAD:
			o->workload = optarg;
			break;
		case O_PARAM:
			cli_param_or_die(PROG, "--param", o->params, &o->nparams, NULL, optarg);
			break;
		case O_OUT:
			o->out.npy = optarg;
			break;
		case O_SLAVEPROG:
			if (access(optarg, X_OK))
				cli_usage_error(PROG, "--slave-program", optarg, strerror(errno));
			o->slave_program = optarg;
			break;
		case O_ORDER:
			if (strcmp(optarg, "natural") && strcmp(optarg, "interleaved"))
				cli_usage_error(PROG, "--order", optarg, "must be natural or interleaved");
			o->order = optarg;
			break;
		case O_COLLECT:
			if (strcmp(optarg, "piggyback") && strcmp(optarg, "end"))
				cli_usage_error(PROG, "--collect", optarg, "must be piggyback or end");
			o->collect = optarg;
			o->collect_given = 1;
			break;
		case O_PNG:
			o->out.png = optarg;
			break;
		case O_RAW:
			o->out.raw = optarg;
			break;
		case O_CSV:
			o->out.csv = optarg;
			break;
		case O_JSON:
			o->out.json = optarg;
			break;
		case O_RUN:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= sizeof(o->run))
				cli_usage_error(PROG, "--run", optarg,
						"must be 1 to 63 characters without '/'");
			snprintf(o->run, sizeof(o->run), "%s", optarg);
			break;
		case O_NAMES:
			if (strncmp(optarg, "corbaname:", 10) && strncmp(optarg, "corbaloc:", 9))
				cli_usage_error(PROG, "--names", optarg,
						"must be a corbaname:: or corbaloc:: address");
			o->names = optarg;
			break;
		case O_DIR:
			o->dir = optarg;
			break;
		case O_KILL:
			parse_kill(o, optarg);
			break;
		case O_TLS:
			o->tls = 1;
			break;
		case O_GAMMA:
		case O_ALLOC:
		case O_REPORT:
		case O_BIDI:
			keep_tree_option(o, c);
			break;
		case O_HMODE:
			if (strcmp(optarg, "relay") && strcmp(optarg, "twolevel"))
				cli_usage_error(PROG, "--hmode", optarg, "must be relay or twolevel");
			o->hmode = optarg;
			break;
		case O_LATENCY:
			o->latency_us = cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e7);
			break;
		case O_HMASTERS:
			parse_hmasters(o, optarg);
			break;
		case O_TIMEOUT:
			o->timeout = cli_double_or_die(PROG, "--timeout", optarg, 0.1, 1e7);
			break;
		case O_PROGRESS:
			o->progress = 1;
			break;
		case O_NOPROGRESS:
			o->progress = 0;
			break;
		case O_NOJOURNAL:
			o->journal = 0;
			break;
		case O_JSYNC:
			if (strcmp(optarg, "disk") && strcmp(optarg, "os"))
				cli_usage_error(PROG, "--journal-sync", optarg, "must be disk or os");
			o->journal_sync = optarg;
			break;
		case 'h':
			help();
			return 1;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	return 0;
}

/* The workload knows its parameters, and images are Mandelbrot's; the
 * loop's iterations.  The outputs can be written. */
static int64_t validate_workload(const struct run_opts *o)
{
	struct work wk;
	int64_t iterations;
	char why[256];

	if (work_open(&wk, o->workload, o->params, (size_t)o->nparams, ITER_ORDER_NATURAL, why,
		      sizeof(why)))
		cli_usage_error(PROG, "--workload", o->workload, why);
	iterations = wk.loop.iterations;
	work_close(&wk);
	if ((o->out.png || o->out.raw) && strcmp(o->workload, "mandelbrot"))
		cli_usage_error(PROG, o->out.png ? "--png" : "--raw", o->workload,
				"images are Mandelbrot's; write the results with --out FILE.npy");
	cli_outputs_writable_or_die(PROG, &o->out);
	return iterations;
}

/* Checks the options against each other and the cluster; exits 2 with the cause. */
static void validate(struct run_opts *o)
{
	int64_t iterations = validate_workload(o);

	if (o->cl.n == 0)
		cli_usage_error(PROG, "--cluster", NULL, "or --speeds is required");
	cluster_cli_finish(PROG, &o->cl, o->loads);
	if (!o->trees) /* the scheme and its options, as the master will see them */
		sched_cli_finish(PROG, &o->sc, "dtss", iterations, o->cl.n);
	if (o->kill_slave >= o->cl.n)
		cli_usage_error(PROG, "--kill", NULL, "names a slave beyond the cluster");
	if (o->trees && o->nlevels)
		cli_usage_error(PROG, "--hmasters", NULL, "Tree Scheduling has no masters to stack");
	if (o->trees && o->collect_given)
		cli_usage_error(PROG, "--collect", o->collect,
				"Tree Scheduling collects by --report-interval (0: when idle)");
	if (o->slave_program && (o->trees || o->tls))
		cli_usage_error(PROG, "--slave-program", o->slave_program,
				"runs master-slave schemes without --tls only");
	if (!o->trees && o->tree_argc)
		cli_usage_error(PROG, o->tree_argv[0], NULL, "applies to --scheme trees only");
	o->first[0] = 0;
	for (int l = 0; l < o->nlevels; l++) {
		if (l > 0 && o->levels[l] < o->levels[l - 1])
			cli_usage_error(PROG, "--hmasters", NULL,
					"each level needs at least as many hmasters as the one above");
		o->first[l + 1] = o->first[l] + o->levels[l];
	}
	if (o->nlevels && (o->first[o->nlevels] > MAX_HMASTERS ||
			   o->levels[o->nlevels - 1] > o->cl.n))
		cli_usage_error(PROG, "--hmasters", NULL,
				"more hmasters than slaves on the last level, or more than 256");
	if (o->kill_name[0]) {
		int lv, ix;

		if (sscanf(o->kill_name, "hmaster.%d.%d", &lv, &ix) != 2 || lv < 0 ||
		    lv >= o->nlevels || ix < 0 || ix >= o->levels[lv])
			cli_usage_error(PROG, "--kill", o->kill_name, "names no hmaster of --hmasters");
		o->kill_hm = o->first[lv] + ix;
	}
	if (o->kill_master && !o->journal)
		cli_usage_error(PROG, "--kill", "master",
				"only a run with a journal resumes its master or coordinator (not "
				"--no-journal)");
	if (cluster_power(&o->cl, &o->power))
		cli_usage_error(PROG, "--loads", o->loads,
				"the schedules have too many steps in all");
}

/* Where the processes of a run are found and how they talk. */
struct run_env {
	char logdir[4096], bindir[4096], ns[128];
	char orb_ep[64], ca_opt[4300], key_opt[4300];
	char secret[4300]; /* the run's secret: every process of the run gets it */
};

/* The naming service (ours unless --names), the run's secret (PROTOCOL.md
 * 7) and, with --tls, the run's CA. */
static int start_names_and_tls(const struct run_opts *o, struct run_env *e, struct run_state *r)
{
	struct run_secret secret;
	char why[512];
	int port;

	snprintf(e->secret, sizeof(e->secret), "%s/run.secret", e->logdir);
	unlink(e->secret); /* a --dir used before: every run has its own */
	if (run_secret_create(&secret, e->secret, why, sizeof(why))) {
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}

	if (o->names) {
		snprintf(e->ns, sizeof(e->ns), "%s", o->names);
	} else {
		char nsdir[4300];

		snprintf(nsdir, sizeof(nsdir), "%s/names", e->logdir);
		if (names_start(nsdir, 0, 0, &r->names.pid, &port, why, sizeof(why))) {
			fprintf(stderr, PROG ": cannot start the naming service: %s\n", why);
			return 1;
		}
		names_address(port, e->ns, sizeof(e->ns));
	}
	/* TLS: the run's own CA; every servant listens on giop:ssl only, so all
	 * traffic between them is TLS (the naming service holds only names) */
	snprintf(e->orb_ep, sizeof(e->orb_ep), "giop:tcp:127.0.0.1:");
	if (o->tls) {
		if (tls_setup(e->logdir, why, sizeof(why))) {
			fprintf(stderr, PROG ": cannot set up TLS: %s\n", why);
			return 1;
		}
		snprintf(e->orb_ep, sizeof(e->orb_ep), "giop:ssl:127.0.0.1:");
		snprintf(e->ca_opt, sizeof(e->ca_opt), "%s/ca.pem", e->logdir);
		snprintf(e->key_opt, sizeof(e->key_opt), "%s/node.pem", e->logdir);
	}
	return 0;
}

/*
 * How long the master (or coordinator) waits for every slave to register,
 * from its start: starting a slave costs this machine some 20 ms of CPU
 * (its ORB, the naming service), so a fixed window closes before a large
 * cluster is in; 30 s plus 30 ms a slave (90 s for 2,000).
 */
static int register_window_ms(const struct run_opts *o)
{
	return 30000 + 30 * o->cl.n;
}

/* The options of the master's (or coordinator's) configuration: a resumed
 * master takes them from its journal instead. */
static void add_config_args(char **margv, int *mn, const struct run_opts *o,
			    const struct run_env *e)
{
	add_arg(margv, mn, "--run=%s", o->run);
	/* two-level: the master's children are the first level of hmasters */
	add_arg(margv, mn, "--slaves=%d",
		o->nlevels && !strcmp(o->hmode, "twolevel") ? o->levels[0] : o->cl.n);
	add_arg(margv, mn, "--workload=%s", o->workload);
	add_arg(margv, mn, "--register-timeout-ms=%d", register_window_ms(o));
	for (int i = 0; i < o->nparams; i++)
		add_arg(margv, mn, "--param=%s=%s", o->params[i].name, o->params[i].value);
	add_arg(margv, mn, "--order=%s", o->order);
	if (!o->trees) /* Tree Scheduling collects by --report-interval */
		add_arg(margv, mn, "--collect=%s", o->collect);
	for (int i = 0; i < o->sched_argc; i++)
		add_arg(margv, mn, "%s", o->sched_argv[i]);
	for (int i = 0; i < o->tree_argc; i++)
		add_arg(margv, mn, "%s", o->tree_argv[i]);
	if (o->journal)
		add_arg(margv, mn, "--journal=%s", e->logdir);
}

/* The master, or Tree Scheduling's coordinator; resume: a master that died,
 * from its journal. */
static int start_master(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			int resume)
{
	char *margv[MAX_ARGS], powerstr[4096];
	int mn = 0;

	add_arg(margv, &mn, "%s/%s", e->bindir, o->trees ? "dls-treesched" : "dls-master");
	if (resume)
		add_arg(margv, &mn, "--resume=%s", e->logdir);
	else
		add_config_args(margv, &mn, o, e);
	if (o->journal)
		add_arg(margv, &mn, "--journal-sync=%s", o->journal_sync);
	add_arg(margv, &mn, "--t-iter=%.17g", o->t_iter);
	add_arg(margv, &mn, "--power=%s", emul_steps_format(&o->power, powerstr, sizeof(powerstr)));
	if (o->out.npy)
		add_arg(margv, &mn, "--out=%s", o->out.npy);
	if (o->out.png)
		add_arg(margv, &mn, "--png=%s", o->out.png);
	if (o->out.raw)
		add_arg(margv, &mn, "--raw=%s", o->out.raw);
	if (o->out.csv)
		add_arg(margv, &mn, "--csv=%s", o->out.csv);
	if (o->out.json)
		add_arg(margv, &mn, "--json=%s", o->out.json);
	if (o->progress)
		add_arg(margv, &mn, "--progress");
	add_arg(margv, &mn, "--secret-file=%s", e->secret);
	add_orb_args(margv, &mn, e->ns, e->orb_ep, e->ca_opt, e->key_opt);
	snprintf(r->master.log, sizeof(r->master.log), "%s/master.log", e->logdir);
	r->master.status = -1;
	r->master.pid = proc_spawn(margv, NULL, o->progress ? NULL : r->master.log, 0);
	free_args(margv, mn);
	if (r->master.pid < 0) {
		fprintf(stderr, PROG ": cannot start %s: %s\n",
			o->trees ? "dls-treesched" : "dls-master", strerror(errno));
		return 1;
	}
	return 0;
}

/* The hmasters, level by level: hmaster.L.I under hmaster.(L-1).(I mod K). */
static void start_hmasters(const struct run_opts *o, const struct run_env *e,
			   struct run_state *r)
{
	for (int l = 0; l < o->nlevels; l++)
		for (int i = 0; i < o->levels[l]; i++) {
			struct child *hm = &r->hm[o->first[l] + i];
			char *hargv[MAX_ARGS];
			int hn = 0, below = 0;

			/* the slaves below hmaster.l.i: those whose last-level hmaster
			 * descends from it */
			for (int k = 0; k < o->cl.n; k++) {
				int at = k % o->levels[o->nlevels - 1];

				for (int up = o->nlevels - 1; up > l; up--)
					at %= o->levels[up - 1];
				below += at == i;
			}
			add_arg(hargv, &hn, "%s/dls-hmaster", e->bindir);
			add_arg(hargv, &hn, "--run=%s", o->run);
			add_arg(hargv, &hn, "--name=hmaster.%d.%d", l, i);
			if (l == 0)
				add_arg(hargv, &hn, "--parent=master");
			else
				add_arg(hargv, &hn, "--parent=hmaster.%d.%d", l - 1,
					i % o->levels[l - 1]);
			add_arg(hargv, &hn, "--slaves=%d", below);
			add_arg(hargv, &hn, "--mode=%s", o->hmode);
			add_arg(hargv, &hn, "--link-latency-us=%.17g", o->latency_us);
			add_arg(hargv, &hn, "--register-timeout-ms=%d", register_window_ms(o));
			if (o->journal) /* a resumed master: its hmasters rejoin it */
				add_arg(hargv, &hn, "--rejoin-ms=%d", REJOIN_MS);
			add_arg(hargv, &hn, "--secret-file=%s", e->secret);
			add_orb_args(hargv, &hn, e->ns, e->orb_ep, e->ca_opt, e->key_opt);
			snprintf(hm->log, sizeof(hm->log), "%s/hmaster.%d.%d.log", e->logdir, l, i);
			hm->status = -1;
			hm->pid = proc_spawn(hargv, hm->log, hm->log, 0);
			free_args(hargv, hn);
		}
}

/* One slave per PE of the cluster. */
static int start_slaves(const struct run_opts *o, const struct run_env *e, struct run_state *r)
{
	for (int i = 0; i < o->cl.n; i++) {
		char *sargv[MAX_ARGS], sched[2048];
		int sn = 0;

		if (o->slave_program)
			add_arg(sargv, &sn, "%s", o->slave_program);
		else
			add_arg(sargv, &sn, "%s/dls-slave", e->bindir);
		add_arg(sargv, &sn, "--run=%s", o->run);
		add_arg(sargv, &sn, "--name=slave.%d", i);
		add_arg(sargv, &sn, "--speed=%.17g", o->cl.speed[i]);
		add_arg(sargv, &sn, "--load=%s",
			emul_steps_format(&o->cl.load[i], sched, sizeof(sched)));
		add_arg(sargv, &sn, "--t-iter=%.17g", o->t_iter);
		add_arg(sargv, &sn, "--link-latency-us=%.17g", o->latency_us);
		if (o->nlevels)
			add_arg(sargv, &sn, "--master=hmaster.%d.%d", o->nlevels - 1,
				i % o->levels[o->nlevels - 1]);
		if (o->trees)
			add_arg(sargv, &sn, "--coordinator=treesched");
		if (o->journal)
			add_arg(sargv, &sn, "--rejoin-ms=%d", REJOIN_MS);
		/* its registration call blocks until the window closes */
		add_arg(sargv, &sn, "--register-timeout-ms=%d", register_window_ms(o) + 30000);
		add_arg(sargv, &sn, "--secret-file=%s", e->secret);
		add_orb_args(sargv, &sn, e->ns, e->orb_ep, e->ca_opt, e->key_opt);
		snprintf(r->slaves[i].log, sizeof(r->slaves[i].log), "%s/slave.%d.log", e->logdir, i);
		r->slaves[i].pid = proc_spawn(sargv, r->slaves[i].log, r->slaves[i].log, 0);
		free_args(sargv, sn);
		if (r->slaves[i].pid < 0) {
			fprintf(stderr, PROG ": cannot start dls-slave %d: %s\n", i, strerror(errno));
			return 1;
		}
	}
	return 0;
}

/* Starts every process of the run: 0, or 1 (said why) when one could not start. */
static int launch(const struct run_opts *o, struct run_env *e, struct run_state *r)
{
	if (start_names_and_tls(o, e, r) || start_master(o, e, r, 0))
		return 1;
	start_hmasters(o, e, r);
	return start_slaves(o, e, r);
}

static int slaves_running(struct run_state *r)
{
	int running = 0;

	reap(r);
	for (int i = 0; i < r->nslaves; i++)
		running += r->slaves[i].status < 0;
	return running;
}

/*
 * Waits for the master; watches the clock, the signals, the failure drill,
 * and the slaves: when every one of them has exited the run cannot end.
 * Returns the run's exit status.
 */
/* A failure drill: kill -9 `who` (pid) now, t0 being the run's start. */
static void drill(const char *who, pid_t pid, double t0)
{
	fprintf(stderr, PROG ": drill: kill -9 %s (pid %d) at %.2f s\n", who, (int)pid,
		dls_now() - t0);
	kill(pid, SIGKILL);
}

/* The role at the top of the run: "master", or "coordinator" (Tree Scheduling). */
static const char *top_role(const struct run_opts *o)
{
	return o->trees ? "coordinator" : "master";
}

/*
 * The master exited.  If it died of a signal and its journal may be
 * resumed (at most MAX_RESUMES times), starts a new master on it: every
 * result it acknowledged is in the journal, and the slaves rejoin.
 * Returns 1 when the run goes on with the new master, else 0.
 */
static int resume_master(const struct run_opts *o, const struct run_env *e, struct run_state *r,
			 int *resumes, double t0)
{
	if (r->master.status <= 128 || !o->journal || *resumes >= MAX_RESUMES)
		return 0;
	fprintf(stderr,
		PROG ": the %s of run '%s' died of signal %d at %.2f s: resuming it from its "
		     "journal (%d of %d)\n",
		top_role(o), o->run, r->master.status - 128, dls_now() - t0, ++*resumes,
		MAX_RESUMES);
	if (start_master(o, e, r, 1)) {
		r->master.status = 1; /* said why */
		return 0;
	}
	return 1;
}

static int monitor(struct run_opts *o, const struct run_env *e, struct run_state *r)
{
	double t0 = dls_now(), all_gone_at = 0;
	int names_gone_said = 0, resumes = 0;

	while (r->master.status < 0 || resume_master(o, e, r, &resumes, t0)) {
		int running = slaves_running(r);

		if (!running && !all_gone_at)
			all_gone_at = dls_now();
		if (!running && dls_now() - all_gone_at > 5) {
			fprintf(stderr, PROG ": every slave of run '%s' has exited and the master is "
					     "still waiting: stopping the run\n", o->run);
			for (int i = 0; i < r->nslaves; i++)
				if (r->slaves[i].status != 0) {
					show_log("a slave", r->slaves[i].log);
					break;
				}
			return 1;
		}
		if (interrupted) {
			fprintf(stderr, "\n" PROG ": interrupted: stopping every process of run '%s'\n",
				o->run);
			return 130;
		}
		if (dls_now() - t0 > o->timeout) {
			fprintf(stderr, PROG ": run '%s' exceeded --timeout %.0f s: stopping it\n",
				o->run, o->timeout);
			return 1;
		}
		if (r->names.pid > 0 && r->names.status >= 0 && !names_gone_said) {
			/* nothing needs it once every process found its master; one
			 * that still looks for it fails, and the run ends as above */
			fprintf(stderr,
				PROG ": the naming service stopped (exit %d); the run goes on with "
				     "the processes that found their master\n",
				r->names.status);
			names_gone_said = 1;
		}
		if (dls_now() - t0 >= o->kill_at) {
			char who[32];

			if (o->kill_hm >= 0)
				drill(o->kill_name, r->hm[o->kill_hm].pid, t0);
			if (o->kill_master) {
				snprintf(who, sizeof(who), "the %s", top_role(o));
				drill(who, r->master.pid, t0);
			}
			if (o->kill_slave >= 0) {
				snprintf(who, sizeof(who), "slave.%d", o->kill_slave);
				drill(who, r->slaves[o->kill_slave].pid, t0);
			}
			o->kill_hm = o->kill_slave = -1;
			o->kill_master = 0;
		}
		dls_sleep_ms(20);
	}
	if (r->master.status > 128) { /* killed: the run failed, whatever the signal */
		fprintf(stderr, PROG ": the %s of run '%s' died of signal %d\n", top_role(o),
			o->run, r->master.status - 128);
		return 1;
	}
	/* the slaves heard DONE; give them a moment to unbind and exit */
	for (double end = dls_now() + 5; dls_now() < end && slaves_running(r);)
		dls_sleep_ms(20);
	return r->master.status;
}

/* The folder for logs and the naming service's data: --dir, or a new one. */
static int make_logdir(const struct run_opts *o, struct run_env *e)
{
	char tmpdir[] = "/tmp/dls-run-XXXXXX";

	if (o->dir) {
		if (mkdir(o->dir, 0755) && errno != EEXIST) {
			fprintf(stderr, PROG ": cannot create '%s': %s\n", o->dir, strerror(errno));
			return 1;
		}
		snprintf(e->logdir, sizeof(e->logdir), "%s", o->dir);
	} else if (!mkdtemp(tmpdir)) {
		fprintf(stderr, PROG ": cannot create a temporary folder: %s\n", strerror(errno));
		return 1;
	} else {
		snprintf(e->logdir, sizeof(e->logdir), "%s", tmpdir);
	}
	return 0;
}

int dls_cmd_run(int argc, char **argv)
{
	static struct run_opts o; /* a cluster of up to CLUSTER_MAX slaves: not on the stack */
	static struct run_env e;
	struct run_state r;
	int status = 1, rc;

	opts_init(&o);
	memset(&e, 0, sizeof(e));
	rc = parse_args(argc, argv, &o);
	if (rc) {
		opts_free(&o);
		return rc == 1 ? 0 : rc;
	}
	validate(&o);
	memset(&r, 0, sizeof(r));
	r.master.status = r.names.status = -1;
	r.nhm = o.nlevels ? o.first[o.nlevels] : 0;
	if (make_logdir(&o, &e)) {
		opts_free(&o);
		return 1;
	}
	proc_self_dir(e.bindir, sizeof(e.bindir));
	r.slaves = calloc((size_t)o.cl.n, sizeof(*r.slaves));
	if (!r.slaves) {
		opts_free(&o);
		return 1;
	}
	r.nslaves = o.cl.n;
	for (int i = 0; i < o.cl.n; i++)
		r.slaves[i].status = -1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);

	if (!launch(&o, &e, &r))
		status = monitor(&o, &e, &r);
	stop_all(&r);
	if (status != 0 && status != 130) {
		fprintf(stderr, PROG ": run '%s' failed (master exit %d); logs in %s\n", o.run,
			r.master.status, e.logdir);
		if (!o.progress)
			show_log("master", r.master.log);
	} else if (!o.dir) {
		remove_dir(e.logdir);
	}
	opts_free(&o);
	free(r.slaves);
	return status;
}
