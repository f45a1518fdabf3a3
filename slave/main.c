/*
 * dls-slave - finds its master by name, registers, and computes the chunks
 * it is given, emulating a PE of virtual power V under load Q; see --help.
 */
#include <errno.h>
#include <getopt.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_limit.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_log.h"
#include "dls_time.h"
#include "orb_util.h"
#include "slave.h"
#include "run_auth.h"
#include "slave_orb.h"

#define PROG "dls-slave"

static void help(void)
{
	printf("usage: dls-slave [--run NAME] [--name NAME] [--speed V] [--load Q|t:Q,...]\n"
	       "                 [--t-iter NS] [--real] [options] [-ORB... options]\n\n"
	       "Registers with the master of run NAME (DLS/NAME/master in the naming service)\n"
	       "and computes chunks until the run is done.  Emulated by default: computes\n"
	       "for real, then sleeps until the emulated cost has passed (README.md, How it\n"
	       "works).\n\n"
	       "  --run NAME               the run (default dls)\n"
	       "  --name NAME              how the master lists this slave (default slave)\n"
	       "  --speed V                emulated virtual power (default 1)\n"
	       "  --declare V              the Speed registered, if not V: a wrong declaration\n"
	       "                           (the emulation still computes at --speed)\n"
	       "  --load Q | t:Q,t:Q       emulated run-queue length, or a schedule of it in\n"
	       "                           seconds from registration (default 1: dedicated)\n"
	       "  --t-iter NS              emulated ns per unit iteration at V = 1 (default 100)\n"

	       "  --real                   real mode: Speed from a short calibration of the loop\n"
	       "                           body, Q_i from the kernel's run queue\n"
	       "  --q Q                    real mode: a fixed Q_i instead of the run queue\n"
	       "  --master LEAF            register with DLS/NAME/LEAF: the master (default) or\n"
	       "                           an hmaster such as hmaster.0\n"
	       "  --master-ior IOR         reach the master (or coordinator) by IOR, not by\n"
	       "                           name; a successor resumed later: by name\n"
	       "  --coordinator LEAF       Tree Scheduling: join the coordinator DLS/NAME/LEAF\n"
	       "                           (dls-treesched binds as treesched) instead of a\n"
	       "                           master; the speed registered is V / Q\n"
	       "  --connect-timeout-ms T   look for the master this long (default 20000)\n"
	       "  --register-timeout-ms T  registration may block this long (default 60000)\n"
	       "  --call-timeout-ms T      timeout of every other call (default 30000)\n"
	       "  --retries N              attempts per call before giving up (default 5)\n"
	       "  --retry-delay-ms T       first back-off, doubled per attempt (default 200)\n"
	       "  --rejoin-ms T            then keep trying to rejoin the master (one resumed\n"
	       "                           from its journal: dls-master --resume) for T ms\n"
	       "                           (default 0: give up)\n"
	       "  --patience-ms T          a master that takes calls but does not answer\n"
	       "                           them within the call timeout (overloaded, stopped,\n"
	       "                           its host cut off) is asked again for T ms before\n"
	       "                           it is taken as gone; a refused connection is taken\n"
	       "                           as gone at once (default 300000)\n"
	       "  --poll-ms T              A_i = 0: read Q_i again after T ms (default 100)\n"
	       "  --overlap on|off         ask for the next chunk while the current one\n"
	       "                           computes, a measured round trip before its end,\n"
	       "                           and, where the master allows it, a second as a\n"
	       "                           chunk shorter than a round trip ends (default\n"
	       "                           on; PROTOCOL.md 5)\n"
	       "  --low-priority on|off    emulated: yield the cores to the master, as if this\n"
	       "                           slave had cores of its own: run at nice 15 and\n"
	       "                           compute long chunks for real at SCHED_IDLE\n"
	       "                           (default on; master-slave schemes)\n"
	       "  --timeout S              give up S seconds after the start, exit 1\n"
	       "                           (default: never)\n"
	       CLI_NET_HELP
	       "  --link-latency-us US     emulated one-way latency of the link to the master\n"
	       "  --secret-file FILE       the run's secret (mode 0600): join only a master that\n"
	       "                           proves it knows it (PROTOCOL.md 14)\n"
	       "  -v, -q                   more or less logging (DLS_LOG_LEVEL)\n");
}

/* The nice value of an emulated slave (--low-priority). */
#define EMULATED_NICE 15

enum { O_COORD = 101, O_LATENCY = 100, O_MASTER = 1, O_RUN, O_NAME, O_SPEED, O_LOAD, O_TITER, O_REAL, O_Q, O_IOR, O_CONNTO, O_REGTO,
       O_CALLTO, O_RETRIES, O_RETRYDELAY, O_POLL, O_SECRET, O_REJOIN, O_TIMEOUT, O_OVERLAP, O_IDLE, O_DECLARE, O_PATIENCE };

static const struct option slave_options[] = {
	{"run", required_argument, 0, O_RUN},
	{"name", required_argument, 0, O_NAME},
	{"speed", required_argument, 0, O_SPEED},
	{"declare", required_argument, 0, O_DECLARE},
	{"load", required_argument, 0, O_LOAD},
	{"t-iter", required_argument, 0, O_TITER},
	{"real", no_argument, 0, O_REAL},
	{"q", required_argument, 0, O_Q},
	{"master-ior", required_argument, 0, O_IOR},
	{"master", required_argument, 0, O_MASTER},
	{"coordinator", required_argument, 0, O_COORD},
	{"connect-timeout-ms", required_argument, 0, O_CONNTO},
	{"register-timeout-ms", required_argument, 0, O_REGTO},
	{"call-timeout-ms", required_argument, 0, O_CALLTO},
	{"retries", required_argument, 0, O_RETRIES},
	{"retry-delay-ms", required_argument, 0, O_RETRYDELAY},
	{"rejoin-ms", required_argument, 0, O_REJOIN},
	{"patience-ms", required_argument, 0, O_PATIENCE},
	{"timeout", required_argument, 0, O_TIMEOUT},
	{"poll-ms", required_argument, 0, O_POLL},
	{"overlap", required_argument, 0, O_OVERLAP},
	{"low-priority", required_argument, 0, O_IDLE},
	{"link-latency-us", required_argument, 0, O_LATENCY},
	{"secret-file", required_argument, 0, O_SECRET},
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0},
};

/* What the command line says. */
struct slave_args {
	struct slave_config cfg;
	struct slave_orb_opts o;
	int speed_given;
};

/* One option into a (exit 2, with the line, on a bad value): 0, or -1
 * for one it does not know.  A flat table, one case an option. */
static int slave_option(struct slave_args *a, int c)
{
	static struct run_secret secret;
	const char *cause;

	switch (c) {
	case O_RUN:
		if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= 64)
			cli_usage_error(PROG, "--run", optarg,
					"must be 1 to 63 characters without '/'");
		a->o.run_name = optarg;
		break;
	case O_NAME:
		if (!*optarg || strlen(optarg) >= sizeof(a->cfg.name))
			cli_usage_error(PROG, "--name", optarg, "must be 1 to 63 characters");
		snprintf(a->cfg.name, sizeof(a->cfg.name), "%s", optarg);
		dls_log_set_role(optarg);
		break;
	case O_SPEED:
		a->cfg.speed = cli_double_or_die(PROG, "--speed", optarg, 1e-6, 1e9);
		a->speed_given = 1;
		break;
	case O_DECLARE:
		a->cfg.declared_speed = cli_double_or_die(PROG, "--declare", optarg, 1e-6, 1e9);
		break;
	case O_LOAD:
		cause = emul_steps_parse(optarg, &a->cfg.load);
		if (cause)
			cli_usage_error(PROG, "--load", optarg, cause);
		break;
	case O_TITER:
		a->cfg.t_iter_ns = cli_double_or_die(PROG, "--t-iter", optarg, 0, 1e12);
		break;
	case O_REAL:
		a->cfg.emulated = 0;
		break;
	case O_Q:
		a->cfg.q_override = cli_double_or_die(PROG, "--q", optarg, 1, 1e6);
		break;
	case O_MASTER:
		if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= 64)
			cli_usage_error(PROG, "--master", optarg,
					"must be 1 to 63 characters without '/'");
		a->o.master_leaf = optarg;
		break;
	case O_COORD:
		if (!*optarg || strchr(optarg, '/') || strlen(optarg) >= 64)
			cli_usage_error(PROG, "--coordinator", optarg,
					"must be 1 to 63 characters without '/'");
		a->o.coordinator_leaf = optarg;
		break;
	case O_IOR:
		a->o.master_ior = optarg;
		break;
	case O_CONNTO:
		a->o.connect_timeout_ms =
			(int)cli_i64_or_die(PROG, "--connect-timeout-ms", optarg, 0, 3600000);
		break;
	case O_REGTO:
		a->o.register_timeout_ms =
			(int)cli_i64_or_die(PROG, "--register-timeout-ms", optarg, 1, 3600000);
		break;
	case O_CALLTO:
		break; /* applied before the ORB started */
	case O_RETRIES:
		a->cfg.retries = (int)cli_i64_or_die(PROG, "--retries", optarg, 1, 1000);
		break;
	case O_REJOIN:
		a->cfg.rejoin_ms = (int)cli_i64_or_die(PROG, "--rejoin-ms", optarg, 0, 86400000);
		break;
	case O_PATIENCE:
		a->cfg.patience_ms =
			(int)cli_i64_or_die(PROG, "--patience-ms", optarg, 0, 86400000);
		break;
	case O_TIMEOUT:
		cli_watchdog(PROG, cli_double_or_die(PROG, "--timeout", optarg, 0.001, 1e7));
		break;
	case O_RETRYDELAY:
		a->cfg.retry_delay_ms =
			(int)cli_i64_or_die(PROG, "--retry-delay-ms", optarg, 0, 600000);
		break;
	case O_LATENCY:
		a->cfg.link_latency_us =
			cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e7);
		break;
	case O_SECRET:
		cli_secret_or_die(PROG, "--secret-file", optarg, &secret);
		a->o.secret = &secret;
		break;
	case O_POLL:
		a->cfg.poll_ms = (int)cli_i64_or_die(PROG, "--poll-ms", optarg, 1, 600000);
		break;
	case O_OVERLAP:
		a->cfg.overlap = cli_on_off_or_die(PROG, "--overlap", optarg);
		break;
	case O_IDLE:
		a->cfg.low_priority = cli_on_off_or_die(PROG, "--low-priority", optarg);
		break;
	default:
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct slave_args a = {.o = {"dls", NULL, "master", NULL, 20000, 60000, 0, NULL}};
	int c, rc, verbose = 0;

	dls_precise_timers(); /* before the ORB starts its threads */
	dls_log_set_role("slave");
	dls_log_set_level(-1);
	slave_config_init(&a.cfg);
	rc = cli_server_start(PROG, &argc, argv, help, 30000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = cli_getopt(PROG, argc, argv, "vq", slave_options)) != -1) {
		if (c == 'v') {
			dls_log_set_level(++verbose >= 2 ? DLS_LOG_DEBUG : DLS_LOG_INFO);
		} else if (c == 'q') {
			dls_log_set_level(DLS_LOG_ERR);
		} else if (slave_option(&a, c)) {
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	if (!a.cfg.emulated && !a.speed_given) {
		a.cfg.speed = slave_calibrate(200);
		log_info("calibrated Speed: %.0f unit iterations/s", a.cfg.speed);
	}
	/* before the ORB starts its threads, which inherit it (BENCHMARKS.md 2) */
	if (a.cfg.emulated && a.cfg.low_priority && !a.o.coordinator_leaf &&
	    setpriority(PRIO_PROCESS, 0, EMULATED_NICE))
		log_warn("stays at its priority: nice %d refused (%s)", EMULATED_NICE,
			 strerror(errno));
	rc = slave_orb_run(&a.cfg, &a.o);
	log_limit_flush(1); /* the refusals of strangers not yet summed up */
	dls_orb_destroy();
	return rc;
}
