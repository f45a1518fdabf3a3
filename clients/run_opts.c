#include "run_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli_opt.h"
#include "work.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "pictures.h"
#include "tree_migrate.h"
#include "tree_plan.h"

#define PROG "dls run"

enum {
	PATH_NPY,
	PATH_PNG,
	PATH_RAW,
	PATH_CSV,
	PATH_JSON,
	PATH_DIR,
	PATH_SLAVEPROG,
	PATH_GANTT,
	PATH_REPORT
};

/* path as an absolute one, in o's buffer k: the programs of a run may start
 * in another folder (ssh starts them in the home folder) */
static const char *absolute(struct run_opts *o, int k, const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(o->abs_path[k], sizeof(o->abs_path[k]), "%s", path);
	else
		snprintf(o->abs_path[k], sizeof(o->abs_path[k]), "%s/%s", cwd, path);
	return o->abs_path[k];
}

enum {
	O_HMASTERS = 1,
	O_LATENCY,
	O_TITER,
	O_WIDTH,
	O_HEIGHT,
	O_MAXIT,
	O_ORDER,
	O_COLLECT,
	O_TAKEBACK,
	O_PNG,
	O_RAW,
	O_CSV,
	O_JSON,
	O_RUN,
	O_NAMES,
	O_DIR,
	O_KILL,
	O_NOSTART,
	O_TIMEOUT,
	O_PROGRESS,
	O_NOPROGRESS,
	O_TLS = 200,
	O_HMODE,
	O_GAMMA = 210,
	O_ALLOC,
	O_BIDI,
	O_REPORT,
	O_WORKLOAD = 220,
	O_PARAM,
	O_OUT,
	O_SLAVEPROG,
	O_NOJOURNAL,
	O_JSYNC,
	O_HOSTFILE,
	O_GANTT,
	O_HTML_REPORT,
	O_STALL,
	O_LOOPS,
	O_FRESH,
	O_LAUNCH,
	O_PING,
	O_PINGTO,
	O_SLURM,
	O_REAL,
	O_OVERLAP,
	O_IDLE,
	O_REGWIN,
	O_VERIFY
};

/* The help text: one string, as the user reads it. */
static void help(void)
{
	printf("usage: dls run [--cluster NAME | --speeds V,V,... [--loads Q,Q,...]]\n"
	       "               [--scheme S]\n"
	       "               [--workload W --param N=V ... | --width W --height H --maxit M]\n"
	       "               [outputs] [options]\n"
	       "       -c NAME, -s S and -o FILE are short for --cluster, --scheme, --out\n\n"
	       "Starts a private naming service, the master and one slave per PE, runs the\n"
	       "job, prints the per-PE table, and stops everything it started.\n\n"
	       "  --cluster NAME       a reference cluster: C8 C8-nd C8-var C8-mis C24 C24-nd\n"
	       "                       C64 C64-nd C128 C128-nd C256 C256-nd, or pN, pN-nd (N\n"
	       "                       slaves, 1 to 16384, half of V = 1)\n"
	       "  --speeds LIST        virtual power V_i of each slave, e.g. 1,1,2,2\n"
	       "  --loads LIST         Q_i of each slave (1 = dedicated), or schedules such as\n"
	       "                       '1;0:1,2.5:2;1;1' (slaves separated by ';')\n"
	       "  --t-iter NS          emulated ns per unit iteration at V = 1 (default 100)\n"
	       "  --real               no emulation: each slave measures its Speed (a short\n"
	       "                       calibration in CPU time) and Q_i (its host's run\n"
	       "                       queue per core); the cluster or the hosts' slots\n"
	       "                       give only the number of slaves\n"
	       "  --tls                every servant on TLS endpoints only (giop:ssl), with a\n"
	       "                       certificate authority made for the run (a key per host\n"
	       "                       in RUNDIR/tls/HOST); peers verified\n"
	       "  --hostfile FILE      run on the hosts of FILE: lines 'NAME [addr=ADDR]\n"
	       "                       [slots=N] [speed=V] [load=Q|SCHEDULE]'; the first runs\n"
	       "                       the naming service and the master, slaves fill the\n"
	       "                       slots in order (speed= and load= make the cluster when\n"
	       "                       no --cluster or --speeds is given)\n"
	       "  --slurm              run on the nodes of the Slurm allocation (salloc,\n"
	       "                       sbatch), a slot per task, launched with srun\n"
	       "  --launch TEMPLATE    how a program starts on a host (default 'ssh {host}'):\n"
	       "                       {host} and {addr} replaced, e.g. 'ip netns exec {host}'\n"
	       "                       or 'srun --overlap -N1 -n1 -w {host}'; binaries and\n"
	       "                       --dir must be at the same path on every host\n"
	       "  --ping-ms T, --ping-timeout-ms T   liveness checks (default 500 and 3000):\n"
	       "                       a child silent this long is lost, its work goes on\n"
	       "  --stall-ms T         a slave that answers pings but whose chunk computes\n"
	       "                       nothing for T ms is lost (default 120000; 0: never)\n"
	       "  --register-window-ms T  the master waits this long from its start for every\n"
	       "                       slave to register, then runs with those it has\n"
	       "                       (default 30000 + 30 a slave); each level of hmasters\n"
	       "                       closes its own window earlier than its parent's\n"
	       "  --link-latency-us US emulated one-way latency of every link (slaves and\n"
	       "                       hmasters delay their own calls)\n"
	       "  --workload NAME      the loop body: mandelbrot (default) or pendulum\n"
	       "  --param NAME=VALUE   a workload parameter (repeatable; PROTOCOL.md 3)\n"
	       "  --width, --height    Mandelbrot's image size (default 4000x2000, as dls\n"
	       "                       simulate and dls bench); --maxit (256)\n"
	       "  --order O            natural (default) or interleaved\n"
	       "  --loops N            the loop N times in one run (default 1): the slaves\n"
	       "                       stay registered, loop k gets dls.loop=k (pendulum's\n"
	       "                       drift moves its costs with it); --out holds every\n"
	       "                       loop, the table and JSON each loop's T_p and E;\n"
	       "                       every scheme (Tree Scheduling and the balancing\n"
	       "                       policies: each loop placed over the same chain)\n"
	       "  --fresh-loops        each loop's scheme starts afresh (by default the\n"
	       "                       adaptive techniques and auto go on from the loops\n"
	       "                       before)\n"
	       "  --collect C          piggyback (default) or end\n"
	       "  --take-back on|off   the end game (default on): once every iteration is\n"
	       "                       handed out, an idle slave takes back the undone tail\n"
	       "                       of the chunk that would end last (PROTOCOL.md 17);\n"
	       "                       master-slave schemes, slaves directly under the\n"
	       "                       master (not below hmasters)\n"
	       "  --verify F           a secret draw picks the fraction F (0..1) of the\n"
	       "                       chunks delivered; another slave computes each again\n"
	       "                       and a mismatch goes to a third: a slave found lying\n"
	       "                       is dropped and its results computed again\n"
	       "                       (PROTOCOL.md 19; master-slave schemes)\n"
	       "  --overlap on|off     slaves ask for their next chunk while the current one\n"
	       "                       computes (default on; PROTOCOL.md 5)\n"
	       "  --low-priority on|off  emulated slaves yield the cores to the master (nice\n"
	       "                       15, long real computations at SCHED_IDLE; default "
	       "on)\n" SCHED_CLI_HELP
	       "  --out FILE.npy       the results, one row per loop index (numpy.load)\n"
	       "  --gantt FILE.png|FILE.svg  draw the run's Gantt chart there at its end\n"
	       "                       (dls plot --gantt; master-slave schemes)\n"
	       "  --report FILE.html   the run's report there at its end: the table, E,\n"
	       "                       the Gantt chart, the scheme's decisions, in one\n"
	       "                       file any browser opens (dls plot --report)\n"
	       "  --png, --raw, --csv, --json FILE   the outputs of the master (images:\n"
	       "                       Mandelbrot only)\n"
	       "  --run NAME           naming context (default run-PID)\n"
	       "  --names ADDR         use this naming service (corbaname::HOST:PORT)\n"
	       "  --dir DIR            keep the logs in DIR (default: a temporary folder,\n"
	       "                       removed after a successful run)\n"
	       "  --hmasters LIST      HDTSS: hmasters per level, e.g. 2 (two under the master)\n"
	       "                       or 2,4 (four more under those); slaves split evenly\n"
	       "                       over the last level; per-host: one on each host, over\n"
	       "                       that host's slaves\n"
	       "  --scheme trees       Tree Scheduling: dls-treesched coordinates, slaves pass\n"
	       "                       work to their neighbours; --gamma half|proportional|\n"
	       "                       ratio, --alloc equal|proportional|round-robin,\n"
	       "                       --bidirectional,\n"
	       "                       --report-interval S (0: results when a slave is idle)\n"
	       "  --scheme workpile|roc|ripple  local workpiles, Campos and Scherson's rate\n"
	       "                       of change, or Melhem, Pruhs and Znati's Ripple\n"
	       "                       instead: the coordinator places the slaves (--alloc\n"
	       "                       equal|proportional) and collects; slaves move work\n"
	       "                       among themselves, with these parameters:\n" PILES_CLI_HELP
	       "  --hmode M            twolevel (default: each hmaster schedules its slaves on\n"
	       "                       the chunks it gets, and prefetches) or relay (the\n"
	       "                       master computes every chunk; hmasters merge messages)\n"
	       "  --kill WHO@SECS      kill -9 slave WHO (3 or slave.3), hmaster.L.I, the master\n"
	       "                       or the coordinator that long after the launch, or,\n"
	       "                       as WHO@start+SECS, after the loop starts (the start\n"
	       "                       gate the master journals, or the chain Tree\n"
	       "                       Scheduling's coordinator does) (failure drill)\n"
	       "  --no-start WHO       slave WHO (3 or slave.3) is launched from a program\n"
	       "                       that does not exist, so it never starts, as with a\n"
	       "                       wrong path (failure drill: dls run withdraws it)\n"
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

void run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->workload = "mandelbrot";
	o->order = "natural";
	o->collect = "piggyback";
	o->take_back = "on";
	o->take_back_given = 0;
	o->hmode = "twolevel";
	o->overlap = 1;
	o->low_priority = 1;
	sched_cli_init(&o->sc);
	pile_params_init(&o->pile);
	o->t_iter = 100;
	o->timeout = 3600;
	o->nostart_slave = -1;
	o->stall_ms = -1;
	o->journal = 1;
	o->journal_sync = "os"; /* dls run resumes on this machine: the OS's copy survives */
	o->progress = isatty(STDERR_FILENO);
	snprintf(o->run, sizeof(o->run), "run-%d", (int)getpid());
}

void run_opts_free(struct run_opts *o)
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
	if (o->tree_argc >= 8)
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

/* A slave named on option `opt`: N or slave.N, its number (dies of a usage error). */
static int slave_number(const char *opt, const char *arg)
{
	if (!strncmp(arg, "slave.", 6) && arg[6] && !arg[6 + strspn(arg + 6, "0123456789")])
		return (int)cli_i64_or_die(PROG, opt, arg + 6, 0, CLUSTER_MAX - 1);
	if (!strncmp(arg, "slave.", 6))
		cli_usage_error(PROG, opt, arg, "a slave's name is slave.N, N its number");
	return (int)cli_i64_or_die(PROG, opt, arg, 0, CLUSTER_MAX - 1);
}

static void parse_kill(struct run_opts *o, char *arg)
{
	char *at = strchr(arg, '@');
	struct run_drill *d = &o->drills[o->ndrills];

	if (!at)
		cli_usage_error(PROG, "--kill", arg,
				"must be WHO@SECONDS or WHO@start+SECONDS, WHO being a "
				"slave, hmaster.L.I, master or coordinator");
	if (o->ndrills == RUN_MAX_DRILLS)
		cli_usage_error(PROG, "--kill", arg, "at most 8 drills in a run");
	*at = '\0';
	memset(d, 0, sizeof(*d));
	d->slave = d->hm = -1;
	snprintf(d->name, sizeof(d->name), "%s", arg);
	if (!strcmp(arg, "master") || !strcmp(arg, "coordinator"))
		d->master = 1;
	else if (strncmp(arg, "hmaster.", 8))
		d->slave = slave_number("--kill", arg);
	d->from_start = !strncmp(at + 1, "start+", 6);
	d->at = cli_double_or_die(PROG, "--kill", at + 1 + (d->from_start ? 6 : 0), 0, 1e6);
	for (int i = 0; i < o->ndrills; i++)
		if (!strcmp(o->drills[i].name, d->name) ||
		    (d->master && o->drills[i].master)) {
			*at = '@';
			cli_usage_error(PROG, "--kill", arg,
					"that process is drilled already: one --kill each");
		}
	o->ndrills++;
}

static void parse_hmasters(struct run_opts *o, const char *arg)
{
	int64_t *l;
	size_t nl;
	const char *cause;

	if (!strcmp(arg, "per-host")) { /* one level; its size once the hosts are known */
		o->hm_per_host = 1;
		o->nlevels = 1;
		return;
	}
	cause = cli_parse_i64_list(arg, 1, MAX_HMASTERS, &l, &nl);

	if (cause || nl > MAX_LEVELS)
		cli_usage_error(PROG, "--hmasters", arg, cause ? cause : "at most 4 levels");
	o->nlevels = (int)nl;
	for (int i = 0; i < o->nlevels; i++)
		o->levels[i] = (int)l[i];
	free(l);
}

/* dls run's long options (keep_sched_option reads the scheme's back from it). */
static const struct option run_options[] = {
	SCHED_CLI_LONG_OPTIONS,
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
	{"take-back", required_argument, 0, O_TAKEBACK},
	{"overlap", required_argument, 0, O_OVERLAP},
	{"low-priority", required_argument, 0, O_IDLE},
	{"png", required_argument, 0, O_PNG},
	{"raw", required_argument, 0, O_RAW},
	{"csv", required_argument, 0, O_CSV},
	{"json", required_argument, 0, O_JSON},
	{"gantt", required_argument, 0, O_GANTT},
	{"report", required_argument, 0, O_HTML_REPORT},
	{"stall-ms", required_argument, 0, O_STALL},
	{"verify", required_argument, 0, O_VERIFY},
	{"loops", required_argument, 0, O_LOOPS},
	{"fresh-loops", no_argument, 0, O_FRESH},
	{"run", required_argument, 0, O_RUN},
	{"names", required_argument, 0, O_NAMES},
	{"dir", required_argument, 0, O_DIR},
	{"kill", required_argument, 0, O_KILL},
	{"no-start", required_argument, 0, O_NOSTART},
	{"hmasters", required_argument, 0, O_HMASTERS},
	{"hmode", required_argument, 0, O_HMODE},
	{"gamma", required_argument, 0, O_GAMMA},
	{"alloc", required_argument, 0, O_ALLOC},
	{"bidirectional", no_argument, 0, O_BIDI},
	{"report-interval", required_argument, 0, O_REPORT},
	{"link-latency-us", required_argument, 0, O_LATENCY},
	{"tls", no_argument, 0, O_TLS},
	{"hostfile", required_argument, 0, O_HOSTFILE},
	{"launch", required_argument, 0, O_LAUNCH},
	{"slurm", no_argument, 0, O_SLURM},
	{"real", no_argument, 0, O_REAL},
	{"ping-ms", required_argument, 0, O_PING},
	{"ping-timeout-ms", required_argument, 0, O_PINGTO},
	{"register-window-ms", required_argument, 0, O_REGWIN},
	{"timeout", required_argument, 0, O_TIMEOUT},
	{"progress", no_argument, 0, O_PROGRESS},
	{"no-progress", no_argument, 0, O_NOPROGRESS},
	{"no-journal", no_argument, 0, O_NOJOURNAL},
	{"journal-sync", required_argument, 0, O_JSYNC},
	PILES_CLI_LONG_OPTIONS,
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0},
};

/* One of dls run's own options (not the scheme's, cluster's or balancing
 * policy's) into o: 0, or -1 for one it does not know.  Long as the option
 * table is: one case an option, each a few lines. */
static int run_option(struct run_opts *o, int c)
{
	switch (c) {
	case O_TITER:
		o->t_iter = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
		o->t_iter_given = 1;
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
		o->out.npy = absolute(o, PATH_NPY, optarg);
		break;
	case O_SLAVEPROG:
		if (access(optarg, X_OK))
			cli_usage_error(PROG, "--slave-program", optarg, strerror(errno));
		o->slave_program = absolute(o, PATH_SLAVEPROG, optarg);
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
	case O_TAKEBACK:
		o->take_back = cli_on_off_or_die(PROG, "--take-back", optarg) ? "on" : "off";
		o->take_back_given = 1;
		break;
	case O_OVERLAP:
		o->overlap = cli_on_off_or_die(PROG, "--overlap", optarg);
		break;
	case O_IDLE:
		o->low_priority = cli_on_off_or_die(PROG, "--low-priority", optarg);
		break;
	case O_PNG:
		o->out.png = absolute(o, PATH_PNG, optarg);
		break;
	case O_RAW:
		o->out.raw = absolute(o, PATH_RAW, optarg);
		break;
	case O_CSV:
		o->out.csv = absolute(o, PATH_CSV, optarg);
		break;
	case O_JSON:
		o->out.json = absolute(o, PATH_JSON, optarg);
		break;
	case O_LOOPS:
		o->loops = (int)cli_i64_or_die(PROG, "--loops", optarg, 1, WORK_MAX_LOOPS);
		break;
	case O_FRESH:
		o->fresh_loops = 1;
		break;
	case O_STALL:
		o->stall_ms = (int)cli_i64_or_die(PROG, "--stall-ms", optarg, 0, 86400000);
		break;
	case O_VERIFY:
		o->verify = cli_double_or_die(PROG, "--verify", optarg, 0, 1);
		break;
	case O_GANTT:
		pictures_names_or_die(PROG, optarg, NULL);
		o->gantt = absolute(o, PATH_GANTT, optarg);
		break;
	case O_HTML_REPORT:
		pictures_names_or_die(PROG, NULL, optarg);
		o->report = absolute(o, PATH_REPORT, optarg);
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
		o->dir = absolute(o, PATH_DIR, optarg);
		break;
	case O_KILL:
		parse_kill(o, optarg);
		break;
	case O_NOSTART:
		o->nostart_slave = slave_number("--no-start", optarg);
		break;
	case O_TLS:
		o->tls = 1;
		break;
	case O_HOSTFILE:
		o->hostfile = optarg;
		break;
	case O_LAUNCH:
		o->launch = optarg;
		break;
	case O_SLURM:
		o->slurm = 1;
		break;
	case O_REAL:
		o->real = 1;
		break;
	case O_PING:
		o->ping_ms = (int)cli_i64_or_die(PROG, "--ping-ms", optarg, 1, 3600000);
		break;
	case O_REGWIN:
		o->register_window_ms = (int)cli_i64_or_die(PROG, "--register-window-ms",
							    optarg, 1000, 3600000);
		break;
	case O_PINGTO:
		o->ping_timeout_ms =
			(int)cli_i64_or_die(PROG, "--ping-timeout-ms", optarg, 1, 3600000);
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
	default:
		return -1;
	}
	return 0;
}

int run_opts_parse(int argc, char **argv, struct run_opts *o)
{
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "hs:c:o:", run_options)) != -1) {
		/* the short forms of the common ones */
		c = c == 's' ? SCHED_OPT_SCHEME : c == 'c' ? CLUSTER_OPT_CLUSTER : c == 'o' ? O_OUT : c;
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees")) {
			o->trees = 1; /* Tree Scheduling: dls-treesched instead of a master */
			continue;
		}
		if (c == SCHED_OPT_SCHEME && !pile_policy_parse(optarg, &o->policy) &&
		    o->policy != PILE_NONE) {
			o->trees = o->piles = 1; /* dls-treesched --policy: no master either */
			continue;
		}
		if (pile_cli_option(PROG, &o->pile, NULL, c, optarg)) {
			o->pile_given = 1;
			continue;
		}
		if (c >= SCHED_OPT_SCHEME && c <= SCHED_OPT_LAST) {
			keep_sched_option(o, run_options, c);
			continue;
		}
		if (cluster_cli_option(PROG, &o->cl, c, optarg, &o->loads))
			continue;
		if (c == 'h') {
			help();
			return 1;
		}
		if (run_option(o, c)) {
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	return 0;
}

/* --gantt and --report name files of their own: not each other, not an output's. */
static void pictures_distinct_or_die(const struct run_opts *o)
{
	const struct cli_file files[] = {
	    {"--out", o->out.npy}, {"--png", o->out.png},   {"--raw", o->out.raw},
	    {"--csv", o->out.csv}, {"--json", o->out.json}, {"--gantt", o->gantt},
	    {"--report", o->report}};

	cli_files_distinct_or_die(PROG, files, sizeof(files) / sizeof(*files));
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
	cli_outputs_writable_or_die(PROG, &o->out, 0); /* the master writes them */
	cli_writable_or_die(PROG, "--gantt", o->gantt);
	cli_writable_or_die(PROG, "--report", o->report);
	pictures_distinct_or_die(o);
	if (o->gantt && o->trees)
		cli_usage_error(PROG, "--gantt", o->gantt,
				"Tree Scheduling and the balancing policies keep no timeline of "
				"chunks to draw");
	return iterations;
}

/* Dies of a usage error when option `opt` named slave i (-1: none) beyond the cluster. */
static void slave_in_cluster(const struct run_opts *o, const char *opt, int i)
{
	char beyond[96];

	if (i < o->cl.n)
		return;
	snprintf(beyond, sizeof(beyond), "names slave %d of a cluster of %d (slave.0 to slave.%d)",
		 i, o->cl.n, o->cl.n - 1);
	cli_usage_error(PROG, opt, NULL, beyond);
}

/*
 * Mandelbrot's reference image (docs/emulation.md 1), 4000x2000, for each
 * side not given: dls run, dls simulate and dls bench compute the same loop
 * by default.
 */
static void default_size(struct run_opts *o)
{
	int w = 0, h = 0;

	if (strcmp(o->workload, "mandelbrot"))
		return;
	for (int i = 0; i < o->nparams; i++) {
		w |= !strcmp(o->params[i].name, "width");
		h |= !strcmp(o->params[i].name, "height");
	}
	if ((!w && dls_params_set(o->params, &o->nparams, "width", "4000")) ||
	    (!h && dls_params_set(o->params, &o->nparams, "height", "2000")))
		cli_usage_error(PROG, "--param", NULL, "too many parameters");
}

/* The hosts (--hostfile, --slurm, --launch) and the slaves placed on
 * them, the cluster's speeds and loads settled, each slave's hmaster on
 * the last level. */
static void place_slaves(struct run_opts *o)
{
	char why[4600];

	if (o->slurm && o->hostfile)
		cli_usage_error(PROG, "--slurm", NULL, "the hosts come from Slurm or --hostfile: one");
	if (o->launch && !o->hostfile && !o->slurm)
		cli_usage_error(PROG, "--launch", o->launch,
				"starts programs on the hosts of --hostfile or --slurm");
	if (o->cl.n == 0 && !o->hostfile && !o->slurm)
		cli_usage_error(PROG, "--cluster", NULL,
				"or --speeds, --hostfile or --slurm is required");
	if (run_hosts_init(&o->hosts, o->hostfile, o->slurm, o->launch, why, sizeof(why)))
		cli_usage_error(PROG,
				o->slurm ? "--slurm" : o->hostfile ? "--hostfile" : "--launch",
				o->slurm ? NULL : o->hostfile ? o->hostfile : o->launch, why);
	if (run_hosts_place(&o->hosts, &o->cl, o->cl.n == 0, why, sizeof(why)))
		cli_usage_error(PROG, o->slurm ? "--slurm" : "--hostfile", o->hostfile, why);
	cluster_cli_finish(PROG, &o->cl, o->loads);
	if (o->hm_per_host)
		o->levels[0] = o->hosts.nused;
	for (int i = 0; o->nlevels && i < o->cl.n; i++)
		o->slave_hm[i] = o->hm_per_host
					 ? o->hosts.used_index[o->hosts.slave_host[i]]
					 : i % o->levels[o->nlevels - 1];
}

/* The scheme and its options as the master will see them, and what it
 * cannot run: awf without loops, many loops where one runs, --real
 * against emulated settings, a distributed scheme whose slaves never ask. */
static void check_scheme(struct run_opts *o, int64_t iterations)
{
	if (!o->trees) /* the scheme and its options, as the master will see them */
		sched_cli_finish(PROG, &o->sc, "dtss", iterations, o->cl.n);
	if (!o->trees && o->sc.p.kind == SCHED_AWF && o->loops < 2)
		cli_usage_error(PROG, "--scheme", "awf",
				"awf learns its weights from one loop for the next: give --loops N "
				"(N >= 2), or use awf-b, awf-c, awf-d or awf-e");
	if (o->trees && o->fresh_loops)
		cli_usage_error(PROG, "--fresh-loops", NULL,
				"Tree Scheduling and the balancing policies start every loop from "
				"the chain's first placement: there is nothing to start afresh");
	if (o->loops > 1) {
		if (work_params_loop(o->params, o->nparams))
			cli_usage_error(PROG, "--param", "dls.loop",
					"a run of many loops numbers its loops itself "
					"(loop k gets dls.loop=k)");
	}
	if (o->real && o->t_iter_given)
		cli_usage_error(PROG, "--t-iter", NULL,
				"sets the emulated time of an iteration; --real slaves compute "
				"at their own speed");
	if (o->real && o->loads)
		cli_usage_error(PROG, "--loads", o->loads,
				"sets emulated loads; --real slaves measure their own Q_i");
	if (!o->trees && !o->real && sched_kind_is_distributed(o->sc.p.kind) &&
	    !cluster_ever_asks(&o->cl))
		cli_usage_error(PROG, "--loads", o->loads,
				"every slave's A_i = floor(V_i / Q_i) is 0 throughout: a distributed "
				"scheme never serves a slave with A_i = 0, so the run would never "
				"start (lighter loads, or a simple scheme)");
}

/* The drills name slaves of the cluster; options of one kind of run
 * (master-slave, Tree Scheduling, the balancing policies) are refused
 * in another; the balancing policy's arguments for dls-treesched. */
static void check_roles(struct run_opts *o)
{
	for (int i = 0; i < o->ndrills; i++)
		if (o->drills[i].slave >= 0)
			slave_in_cluster(o, "--kill", o->drills[i].slave);
	slave_in_cluster(o, "--no-start", o->nostart_slave);
	if (o->trees && o->nlevels)
		cli_usage_error(PROG, "--hmasters", NULL, "Tree Scheduling has no masters to stack");
	if (!o->trees && o->nlevels && !strcmp(o->hmode, "twolevel") &&
	    !sched_kind_is_distributed(o->sc.p.kind))
		cli_usage_error(PROG, "--scheme", sched_kind_name(o->sc.p.kind),
				"two-level hmasters run a distributed scheme (dtss dfss dfiss "
				"dtfss); --hmode relay runs any");
	if (o->trees && o->collect_given)
		cli_usage_error(
		    PROG, "--collect", o->collect,
		    o->piles ? "the balancing policies collect as Tree Scheduling does, "
			       "by --report-interval (0: when idle)"
			     : "Tree Scheduling collects by --report-interval (0: when idle)");
	if (o->take_back_given && !strcmp(o->take_back, "on") && o->trees)
		cli_usage_error(PROG, "--take-back", o->take_back,
				"Tree Scheduling and the balancing policies move work their own "
				"way");
	if (o->verify > 0 && o->trees) {
		char f[32];

		snprintf(f, sizeof(f), "%g", o->verify);
		cli_usage_error(PROG, "--verify", f,
				"Tree Scheduling and the balancing policies have no master to "
				"compare copies: master-slave schemes only");
	}
	if (o->slave_program && (o->trees || o->tls))
		cli_usage_error(PROG, "--slave-program", o->slave_program,
				"runs master-slave schemes without --tls only");
	if (!o->trees && o->tree_argc)
		cli_usage_error(PROG, o->tree_argv[0], NULL, "applies to --scheme trees only");
	if (o->pile_given && !o->piles)
		cli_usage_error(PROG, "--threshold/--ht/--interval-us/...", NULL,
				"applies to --scheme workpile, roc or ripple only");
	if (o->piles) {
		const char *cause = pile_params_check(o->policy, &o->pile, o->cl.n);

		for (int i = 0; i < o->tree_argc; i++)
			if (!strncmp(o->tree_argv[i], "--gamma", 7) ||
			    !strcmp(o->tree_argv[i], "--bidirectional") ||
			    !strcmp(o->tree_argv[i], "--alloc=round-robin"))
				cli_usage_error(PROG, o->tree_argv[i], NULL,
						"applies to --scheme trees only");
		if (cause)
			cli_usage_error(PROG, "--scheme", pile_policy_name(o->policy), cause);
		if (asprintf(&o->tree_argv[o->tree_argc], "--policy=%s",
			     pile_policy_name(o->policy)) > 0)
			o->tree_argc++;
		if (pile_cli_args(&o->pile, o->tree_argv, &o->tree_argc, 32))
			cli_usage_error(PROG, "--scheme", NULL, "out of memory");
	}
}

/* The hmasters' levels (each at least as wide as the one above) and the
 * hmaster each --kill of one names. */
static void plan_hmasters(struct run_opts *o)
{
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
	for (int i = 0; i < o->ndrills; i++) {
		struct run_drill *d = &o->drills[i];
		int lv, ix;

		if (d->slave < 0 && !d->master) {
			if (sscanf(d->name, "hmaster.%d.%d", &lv, &ix) != 2 || lv < 0 ||
			    lv >= o->nlevels || ix < 0 || ix >= o->levels[lv])
				cli_usage_error(PROG, "--kill", d->name,
						"names no hmaster of --hmasters");
			d->hm = o->first[lv] + ix;
		}
		if (d->master && !o->journal)
			cli_usage_error(PROG, "--kill", d->name,
					"only a run with a journal resumes its master or coordinator "
					"(not --no-journal)");
		if (d->from_start && !o->journal)
			cli_usage_error(PROG, "--kill", d->name,
					"@start+SECONDS counts from the loop's start that the master "
					"or coordinator journals: not with --no-journal");
	}
}

void run_opts_validate(struct run_opts *o)
{
	int64_t iterations;

	default_size(o);
	iterations = validate_workload(o);
	place_slaves(o);
	check_scheme(o, iterations);
	check_roles(o);
	plan_hmasters(o);
	if (cluster_power(&o->cl, &o->power))
		cli_usage_error(PROG, "--loads", o->loads,
				"the schedules have too many steps in all");
}
