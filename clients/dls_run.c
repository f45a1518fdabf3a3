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
#include "sched_cli.h"
#include "tls_setup.h"

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
	       "               [--width W --height H --maxit M] [outputs] [options]\n\n"
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
	       "  --width, --height    image size (default 400x200); --maxit (default 256)\n"
	       "  --order O            natural (default) or interleaved\n"
	       "  --collect C          piggyback (default) or end\n" SCHED_CLI_HELP
	       "  --png, --raw, --csv, --json FILE   the outputs of the master\n"
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
	       "  --kill WHO@SECS      kill -9 slave WHO (a number) or hmaster.L.I that long\n"
	       "                       after the start (failure drill)\n"
	       "  --timeout SECS       stop everything after this long (default 3600)\n"
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

enum { O_GAMMA = 210, O_ALLOC, O_BIDI, O_REPORT, O_HMODE = 201, O_TLS = 200, O_HMASTERS = 1, O_LATENCY, O_TITER, O_WIDTH, O_HEIGHT, O_MAXIT, O_ORDER, O_COLLECT,
       O_PNG, O_RAW, O_CSV, O_JSON, O_RUN, O_NAMES, O_DIR, O_KILL, O_TIMEOUT, O_PROGRESS,
       O_NOPROGRESS };

int dls_cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {SCHED_CLI_LONG_OPTIONS,
					     CLUSTER_CLI_LONG_OPTIONS,
					     {"t-iter", required_argument, 0, O_TITER},
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
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	static struct cluster cl;
	struct emul_steps power = {0};
	struct run_state r;
	const char *loads = NULL, *names = NULL, *dir = NULL, *cause;
	const char *out_png = NULL, *out_raw = NULL, *out_csv = NULL, *out_json = NULL;
	const char *width = "400", *height = "200", *maxit = "256", *order = "natural";
	const char *collect = "piggyback";
	char run[64], tmpdir[] = "/tmp/dls-run-XXXXXX", logdir[4096], bindir[4096], ns[128];
	char powerstr[4096], why[512], *margv[MAX_ARGS];
	double t_iter = 100, timeout = 3600, kill_at = -1, t0, latency_us = 0, all_gone_at = 0;
	int levels[MAX_LEVELS], nlevels = 0, first[MAX_LEVELS + 1], kill_hm = -1;
	char kill_name[64] = "";
	int tls = 0, trees = 0;
	const char *hmode = "twolevel";
	char *tree_argv[8];
	int tree_argc = 0;
	char orb_ep[64] = "giop:tcp:127.0.0.1:", ca_opt[4300] = "", key_opt[4300] = "";
	int kill_slave = -1, progress = isatty(STDERR_FILENO), c, mn = 0, port, status = 1;
	int sched_argc = 0;
	char *sched_argv[48];

	memset(&r, 0, sizeof(r));
	r.master.status = r.names.status = -1;
	cl.n = 0;
	snprintf(run, sizeof(run), "run-%d", (int)getpid());
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == SCHED_OPT_SCHEME && !strcasecmp(optarg, "trees")) {
			trees = 1; /* Tree Scheduling: dls-treesched instead of a master */
			continue;
		}
		if (c >= SCHED_OPT_SCHEME && c <= SCHED_OPT_L) {
			/* checked here, passed through to the master as written */
			struct sched_cli sc;

			sched_cli_init(&sc);
			sched_cli_option(PROG, &sc, c, optarg);
			for (const struct option *o = opts; o->name; o++)
				if (o->val == c) {
					if (sched_argc < 46) {
						if (asprintf(&sched_argv[sched_argc], "--%s", o->name) > 0)
							sched_argc++;
						if (o->has_arg)
							sched_argv[sched_argc++] = strdup(optarg);
					}
					break;
				}
			continue;
		}
		if (cluster_cli_option(PROG, &cl, c, optarg, &loads))
			continue;
		switch (c) {
		case O_TITER:
			t_iter = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
			break;
		case O_WIDTH:
			width = optarg;
			cli_i64_or_die(PROG, "--width", optarg, 1, 1000000);
			break;
		case O_HEIGHT:
			height = optarg;
			cli_i64_or_die(PROG, "--height", optarg, 1, 524288);
			break;
		case O_MAXIT:
			maxit = optarg;
			cli_i64_or_die(PROG, "--maxit", optarg, 1, 65535);
			break;
		case O_ORDER:
			if (strcmp(optarg, "natural") && strcmp(optarg, "interleaved"))
				cli_usage_error(PROG, "--order", optarg, "must be natural or interleaved");
			order = optarg;
			break;
		case O_COLLECT:
			if (strcmp(optarg, "piggyback") && strcmp(optarg, "end"))
				cli_usage_error(PROG, "--collect", optarg, "must be piggyback or end");
			collect = optarg;
			break;
		case O_PNG:
			out_png = optarg;
			break;
		case O_RAW:
			out_raw = optarg;
			break;
		case O_CSV:
			out_csv = optarg;
			break;
		case O_JSON:
			out_json = optarg;
			break;
		case O_RUN:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= sizeof(run))
				cli_usage_error(PROG, "--run", optarg,
						"must be 1 to 63 characters without '/'");
			snprintf(run, sizeof(run), "%s", optarg);
			break;
		case O_NAMES:
			if (strncmp(optarg, "corbaname:", 10) && strncmp(optarg, "corbaloc:", 9))
				cli_usage_error(PROG, "--names", optarg,
						"must be a corbaname:: or corbaloc:: address");
			names = optarg;
			break;
		case O_DIR:
			dir = optarg;
			break;
		case O_KILL: {
			char *at = strchr(optarg, '@');

			if (!at)
				cli_usage_error(PROG, "--kill", optarg,
						"must be SLAVE@SECONDS or hmaster.L.I@SECONDS");
			*at = '\0';
			if (!strncmp(optarg, "hmaster.", 8))
				snprintf(kill_name, sizeof(kill_name), "%s", optarg);
			else
				kill_slave = (int)cli_i64_or_die(PROG, "--kill", optarg, 0,
								 CLUSTER_MAX - 1);
			kill_at = cli_double_or_die(PROG, "--kill", at + 1, 0, 1e6);
			break;
		}
		case O_TLS:
			tls = 1;
			break;
		case O_GAMMA:
		case O_ALLOC:
		case O_REPORT:
			if (tree_argc < 6 && asprintf(&tree_argv[tree_argc], "--%s=%s",
						      c == O_GAMMA	? "gamma"
						      : c == O_ALLOC ? "alloc"
								     : "report-interval",
						      optarg) > 0)
				tree_argc++;
			break;
		case O_BIDI:
			if (tree_argc < 6)
				tree_argv[tree_argc++] = strdup("--bidirectional");
			break;
		case O_HMODE:
			if (strcmp(optarg, "relay") && strcmp(optarg, "twolevel"))
				cli_usage_error(PROG, "--hmode", optarg, "must be relay or twolevel");
			hmode = optarg;
			break;
		case O_LATENCY:
			latency_us = cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e7);
			break;
		case O_HMASTERS: {
			int64_t *l;
			size_t nl;

			cause = cli_parse_i64_list(optarg, 1, MAX_HMASTERS, &l, &nl);
			if (cause || nl > MAX_LEVELS)
				cli_usage_error(PROG, "--hmasters", optarg,
						cause ? cause : "at most 4 levels");
			nlevels = (int)nl;
			for (int i = 0; i < nlevels; i++)
				levels[i] = (int)l[i];
			free(l);
			break;
		}
		case O_TIMEOUT:
			timeout = cli_double_or_die(PROG, "--timeout", optarg, 0.1, 1e7);
			break;
		case O_PROGRESS:
			progress = 1;
			break;
		case O_NOPROGRESS:
			progress = 0;
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
	if (cl.n == 0)
		cli_usage_error(PROG, "--cluster", NULL, "or --speeds is required");
	cluster_cli_finish(PROG, &cl, loads);
	if (kill_slave >= cl.n)
		cli_usage_error(PROG, "--kill", NULL, "names a slave beyond the cluster");
	if (trees && nlevels)
		cli_usage_error(PROG, "--hmasters", NULL, "Tree Scheduling has no masters to stack");
	if (!trees && tree_argc)
		cli_usage_error(PROG, tree_argv[0], NULL, "applies to --scheme trees only");
	first[0] = 0;
	for (int l = 0; l < nlevels; l++) {
		if (l > 0 && levels[l] < levels[l - 1])
			cli_usage_error(PROG, "--hmasters", NULL,
					"each level needs at least as many hmasters as the one above");
		first[l + 1] = first[l] + levels[l];
	}
	if (nlevels && (first[nlevels] > MAX_HMASTERS || levels[nlevels - 1] > cl.n))
		cli_usage_error(PROG, "--hmasters", NULL,
				"more hmasters than slaves on the last level, or more than 256");
	r.nhm = nlevels ? first[nlevels] : 0;
	if (kill_name[0]) {
		int lv, ix;

		if (sscanf(kill_name, "hmaster.%d.%d", &lv, &ix) != 2 || lv < 0 || lv >= nlevels ||
		    ix < 0 || ix >= levels[lv])
			cli_usage_error(PROG, "--kill", kill_name, "names no hmaster of --hmasters");
		kill_hm = first[lv] + ix;
	}
	if (cluster_power(&cl, &power))
		cli_usage_error(PROG, "--loads", loads, "the schedules have too many steps in all");

	/* the folder for logs and the naming service's data */
	if (dir) {
		if (mkdir(dir, 0755) && errno != EEXIST) {
			fprintf(stderr, PROG ": cannot create '%s': %s\n", dir, strerror(errno));
			return 1;
		}
		snprintf(logdir, sizeof(logdir), "%s", dir);
	} else if (!mkdtemp(tmpdir)) {
		fprintf(stderr, PROG ": cannot create a temporary folder: %s\n", strerror(errno));
		return 1;
	} else {
		snprintf(logdir, sizeof(logdir), "%s", tmpdir);
	}
	proc_self_dir(bindir, sizeof(bindir));
	r.slaves = calloc((size_t)cl.n, sizeof(*r.slaves));
	if (!r.slaves)
		return 1;
	r.nslaves = cl.n;
	for (int i = 0; i < cl.n; i++)
		r.slaves[i].status = -1;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);

	if (names) {
		snprintf(ns, sizeof(ns), "%s", names);
	} else {
		char nsdir[4300];

		snprintf(nsdir, sizeof(nsdir), "%s/names", logdir);
		if (names_start(nsdir, 0, 0, &r.names.pid, &port, why, sizeof(why))) {
			fprintf(stderr, PROG ": cannot start the naming service: %s\n", why);
			goto out;
		}
		names_address(port, ns, sizeof(ns));
	}

	/* TLS: the run's own CA; every servant listens on giop:ssl only, so all
	 * traffic between them is TLS (the naming service holds only names) */
	if (tls) {
		if (tls_setup(logdir, why, sizeof(why))) {
			fprintf(stderr, PROG ": cannot set up TLS: %s\n", why);
			goto out;
		}
		snprintf(orb_ep, sizeof(orb_ep), "giop:ssl:127.0.0.1:");
		snprintf(ca_opt, sizeof(ca_opt), "%s/ca.pem", logdir);
		snprintf(key_opt, sizeof(key_opt), "%s/node.pem", logdir);
	}

	/* the master, or Tree Scheduling's coordinator */
	add_arg(margv, &mn, "%s/%s", bindir, trees ? "dls-treesched" : "dls-master");
	add_arg(margv, &mn, "--run=%s", run);
	/* two-level: the master's children are the first level of hmasters */
	add_arg(margv, &mn, "--slaves=%d",
		nlevels && !strcmp(hmode, "twolevel") ? levels[0] : cl.n);
	add_arg(margv, &mn, "--width=%s", width);
	add_arg(margv, &mn, "--height=%s", height);
	add_arg(margv, &mn, "--maxit=%s", maxit);
	add_arg(margv, &mn, "--order=%s", order);
	add_arg(margv, &mn, "--collect=%s", collect);
	add_arg(margv, &mn, "--t-iter=%.17g", t_iter);
	add_arg(margv, &mn, "--power=%s", emul_steps_format(&power, powerstr, sizeof(powerstr)));
	for (int i = 0; i < sched_argc; i++)
		add_arg(margv, &mn, "%s", sched_argv[i]);
	for (int i = 0; i < tree_argc; i++)
		add_arg(margv, &mn, "%s", tree_argv[i]);
	if (out_png)
		add_arg(margv, &mn, "--png=%s", out_png);
	if (out_raw)
		add_arg(margv, &mn, "--raw=%s", out_raw);
	if (out_csv)
		add_arg(margv, &mn, "--csv=%s", out_csv);
	if (out_json)
		add_arg(margv, &mn, "--json=%s", out_json);
	if (progress)
		add_arg(margv, &mn, "--progress");
	add_orb_args(margv, &mn, ns, orb_ep, ca_opt, key_opt);
	snprintf(r.master.log, sizeof(r.master.log), "%s/master.log", logdir);
	r.master.pid = proc_spawn(margv, NULL, progress ? NULL : r.master.log, 0);
	free_args(margv, mn);
	if (r.master.pid < 0) {
		fprintf(stderr, PROG ": cannot start dls-master: %s\n", strerror(errno));
		goto out;
	}

	/* the hmasters, level by level: hmaster.L.I under hmaster.(L-1).(I mod K) */
	for (int l = 0; l < nlevels; l++)
		for (int i = 0; i < levels[l]; i++) {
			char *hargv[MAX_ARGS];
			int hn = 0, below = 0;

			/* the slaves below hmaster.l.i: those whose last-level hmaster
			 * descends from it */
			for (int k = 0; k < cl.n; k++) {
				int at = k % levels[nlevels - 1];

				for (int up = nlevels - 1; up > l; up--)
					at %= levels[up - 1];
				below += at == i;
			}
			add_arg(hargv, &hn, "%s/dls-hmaster", bindir);
			add_arg(hargv, &hn, "--run=%s", run);
			add_arg(hargv, &hn, "--name=hmaster.%d.%d", l, i);
			if (l == 0)
				add_arg(hargv, &hn, "--parent=master");
			else
				add_arg(hargv, &hn, "--parent=hmaster.%d.%d", l - 1, i % levels[l - 1]);
			add_arg(hargv, &hn, "--slaves=%d", below);
			add_arg(hargv, &hn, "--mode=%s", hmode);
			add_arg(hargv, &hn, "--link-latency-us=%.17g", latency_us);
			add_orb_args(hargv, &hn, ns, orb_ep, ca_opt, key_opt);
			snprintf(r.hm[first[l] + i].log, sizeof(r.hm[0].log), "%s/hmaster.%d.%d.log",
				 logdir, l, i);
			r.hm[first[l] + i].status = -1;
			r.hm[first[l] + i].pid =
				proc_spawn(hargv, r.hm[first[l] + i].log, r.hm[first[l] + i].log, 0);
			free_args(hargv, hn);
		}

	/* the slaves */
	for (int i = 0; i < cl.n; i++) {
		char *sargv[MAX_ARGS], sched[2048];
		int sn = 0;

		add_arg(sargv, &sn, "%s/dls-slave", bindir);
		add_arg(sargv, &sn, "--run=%s", run);
		add_arg(sargv, &sn, "--name=slave.%d", i);
		add_arg(sargv, &sn, "--speed=%.17g", cl.speed[i]);
		add_arg(sargv, &sn, "--load=%s", emul_steps_format(&cl.load[i], sched, sizeof(sched)));
		add_arg(sargv, &sn, "--t-iter=%.17g", t_iter);
		add_arg(sargv, &sn, "--link-latency-us=%.17g", latency_us);
		if (nlevels)
			add_arg(sargv, &sn, "--master=hmaster.%d.%d", nlevels - 1,
				i % levels[nlevels - 1]);
		if (trees)
			add_arg(sargv, &sn, "--coordinator=treesched");
		add_orb_args(sargv, &sn, ns, orb_ep, ca_opt, key_opt);
		snprintf(r.slaves[i].log, sizeof(r.slaves[i].log), "%s/slave.%d.log", logdir, i);
		r.slaves[i].pid = proc_spawn(sargv, r.slaves[i].log, r.slaves[i].log, 0);
		free_args(sargv, sn);
		if (r.slaves[i].pid < 0) {
			fprintf(stderr, PROG ": cannot start dls-slave %d: %s\n", i, strerror(errno));
			goto out;
		}
	}

	/* wait for the master; watch the clock, the signals, the drill, and
	 * the slaves: when every one of them has exited the run cannot end */
	t0 = dls_now();
	while (r.master.status < 0) {
		int running = 0;

		reap(&r);
		for (int i = 0; i < r.nslaves; i++)
			running += r.slaves[i].status < 0;
		if (!running && !all_gone_at)
			all_gone_at = dls_now();
		if (!running && dls_now() - all_gone_at > 5) {
			fprintf(stderr, PROG ": every slave of run '%s' has exited and the master is "
					     "still waiting: stopping the run\n", run);
			for (int i = 0; i < r.nslaves; i++)
				if (r.slaves[i].status != 0) {
					show_log("a slave", r.slaves[i].log);
					break;
				}
			status = 1;
			goto out;
		}
		if (interrupted) {
			fprintf(stderr, "\n" PROG ": interrupted: stopping every process of run '%s'\n",
				run);
			status = 130;
			goto out;
		}
		if (dls_now() - t0 > timeout) {
			fprintf(stderr, PROG ": run '%s' exceeded --timeout %.0f s: stopping it\n", run,
				timeout);
			status = 1;
			goto out;
		}
		if (r.names.pid > 0 && r.names.status >= 0) {
			fprintf(stderr, PROG ": the naming service stopped (exit %d)\n",
				r.names.status);
			goto out;
		}
		if (kill_hm >= 0 && dls_now() - t0 >= kill_at) {
			fprintf(stderr, PROG ": drill: kill -9 %s (pid %d) at %.2f s\n", kill_name,
				(int)r.hm[kill_hm].pid, dls_now() - t0);
			kill(r.hm[kill_hm].pid, SIGKILL);
			kill_hm = -1;
		}
		if (kill_slave >= 0 && dls_now() - t0 >= kill_at) {
			fprintf(stderr, PROG ": drill: kill -9 slave.%d (pid %d) at %.2f s\n",
				kill_slave, (int)r.slaves[kill_slave].pid, dls_now() - t0);
			kill(r.slaves[kill_slave].pid, SIGKILL);
			kill_slave = -1;
		}
		dls_sleep_ms(20);
	}
	status = r.master.status;
	/* the slaves heard DONE; give them a moment to unbind and exit */
	for (double end = dls_now() + 5; dls_now() < end;) {
		int running = 0;

		reap(&r);
		for (int i = 0; i < r.nslaves; i++)
			running += r.slaves[i].status < 0;
		if (!running)
			break;
		dls_sleep_ms(20);
	}
out:
	stop_all(&r);
	if (status != 0 && status != 130) {
		fprintf(stderr, PROG ": run '%s' failed (master exit %d); logs in %s\n", run,
			r.master.status, logdir);
		if (!progress)
			show_log("master", r.master.log);
	} else if (!dir) {
		remove_dir(logdir);
	}
	for (int i = 0; i < sched_argc; i++)
		free(sched_argv[i]);
	for (int i = 0; i < tree_argc; i++)
		free(tree_argv[i]);
	free(r.slaves);
	return status;
}
