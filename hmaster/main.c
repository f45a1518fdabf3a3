/*
 * dls-hmaster - an HDTSS hmaster (relay mode): one child of its parent for
 * the slaves below it, a master to them; see --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "log_limit.h"
#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_log.h"
#include "hmaster_orb.h"
#include "run_auth.h"
#include "orb_util.h"

#define PROG "dls-hmaster"

static void help(void)
{
	printf(
	    "usage: dls-hmaster --slaves N [--run NAME] [--name LEAF] [--parent LEAF]\n"
	    "                   [options] [-ORB... options]\n\n"
	    "Relays between its slaves (or hmasters) and its parent, bound as\n"
	    "DLS/NAME/LEAF: their registrations and the requests pending when it forwards\n"
	    "go up merged in one message, the replies come down split per slave\n"
	    "(Chronopoulos et al.'s hierarchical DTSS).  Slaves find it with\n"
	    "dls-slave --master LEAF.\n\n"
	    "  --slaves N               slaves below it, all levels (required)\n"
	    "  --run NAME               the run (default dls)\n"
	    "  --name LEAF              its name in the run (default hmaster)\n"
	    "  --parent LEAF            its parent: the master, or another hmaster (default\n"
	    "                           master)\n"
	    "  --connect-timeout-ms T   look for the parent this long (default 20000)\n"
	    "  --register-timeout-ms T  registration may block this long (default 60000)\n"
	    "  --window-ms T            its slaves register within T ms of the first, then it\n"
	    "                           registers those it has (default:\n"
	    "                           --register-timeout-ms;\n"
	    "                           dls run gives less than its parent's window, so that\n"
	    "                           a slave that never starts costs only itself)\n"
	    "  --ping-ms T, --ping-timeout-ms T  liveness checks of children holding work\n"
	    "                           (defaults 500, 3000)\n"
	    "  --call-timeout-ms T      timeout of its other calls (default 30000)\n"
	    "  --link-latency-us US     emulated one-way latency of the link to the parent\n"
	    "  --mode M                 relay (the parent computes every chunk) or twolevel\n"
	    "                           (one child of the parent with its slaves' summed\n"
	    "                           power; runs the scheme over them itself); default\n"
	    "                           twolevel.  One mode for the whole tree.\n"
	    "  --rejoin-ms T            a parent that cannot be reached: keep trying to\n"
	    "                           rejoin it (resumed from its journal) for T ms, then\n"
	    "                           make the call that failed again (default 0: give up)\n"
	    "  --record FILE            (two-level) keep there what a successor resumes\n"
	    "                           from: its id and capability at the parent, its\n"
	    "                           children's names, V_i and capabilities (JSON, 0600)\n"
	    "  --resume                 succeed an hmaster of this name that died: its\n"
	    "                           children rejoin this one (dls-slave --rejoin-ms;\n"
	    "                           hmasters --rejoin-ms).  Relay: the parent vouches\n"
	    "                           for each.  Two-level: from --record FILE; the parent\n"
	    "                           requeues what the dead one held.  The run's end is\n"
	    "                           then the parent's\n"
	    "  --relay-grace-ms T       (relay) a slave below a relay hmaster that stopped\n"
	    "                           answering is lost T ms later unless it rejoined a\n"
	    "                           resumed one (default 3000; 0: at once)\n"
	    "  --patience-ms T          a parent that takes calls but does not answer them\n"
	    "                           within the call timeout (overloaded, stopped) is\n"
	    "                           asked again for T ms before it is taken as gone\n"
	    "                           (default 300000)\n"
	    "  --timeout S              give up S seconds after the start, exit 1\n"
	    "                           (default: never)\n" CLI_NET_HELP
	    "  --secret-file FILE       the run's secret (mode 0600; PROTOCOL.md 14)\n"
	    "  -v, -q                   more or less logging\n");
}

enum {
	O_MODE = 101,
	O_LATENCY = 100,
	O_SLAVES = 1,
	O_RUN,
	O_NAME,
	O_PARENT,
	O_CONNTO,
	O_REGTO,
	O_PING,
	O_PINGTO,
	O_CALLTO,
	O_SECRET,
	O_REJOIN,
	O_TIMEOUT,
	O_PATIENCE,
	O_RESUME,
	O_RECORD,
	O_RELAYGRACE,
	O_WINDOW
};

static const char *leaf_or_die(const char *opt, const char *v)
{
	if (!*v || strchr(v, '/') || strlen(v) >= 64)
		cli_usage_error(PROG, opt, v, "must be 1 to 63 characters without '/'");
	return v;
}

static const struct option hmaster_options[] = {
	{"slaves", required_argument, 0, O_SLAVES},
	{"run", required_argument, 0, O_RUN},
	{"name", required_argument, 0, O_NAME},
	{"parent", required_argument, 0, O_PARENT},
	{"connect-timeout-ms", required_argument, 0, O_CONNTO},
	{"register-timeout-ms", required_argument, 0, O_REGTO},
	{"window-ms", required_argument, 0, O_WINDOW},
	{"ping-ms", required_argument, 0, O_PING},
	{"ping-timeout-ms", required_argument, 0, O_PINGTO},
	{"call-timeout-ms", required_argument, 0, O_CALLTO},
	{"link-latency-us", required_argument, 0, O_LATENCY},
	{"mode", required_argument, 0, O_MODE},
	{"secret-file", required_argument, 0, O_SECRET},
	{"rejoin-ms", required_argument, 0, O_REJOIN},
	{"patience-ms", required_argument, 0, O_PATIENCE},
	{"resume", no_argument, 0, O_RESUME},
	{"record", required_argument, 0, O_RECORD},
	{"relay-grace-ms", required_argument, 0, O_RELAYGRACE},
	{"timeout", required_argument, 0, O_TIMEOUT},
	{"help", no_argument, 0, 'h'},
	{0, 0, 0, 0},
};

/* One option into o (exit 2, with the line, on a bad value): 0, or -1
 * for one it does not know.  A flat table, one case an option. */
static int hmaster_option(struct hmaster_orb_opts *o, int c)
{
	static struct run_secret secret;

	switch (c) {
	case O_SLAVES:
		o->nslaves = (int)cli_i64_or_die(PROG, "--slaves", optarg, 1, 65536);
		break;
	case O_RUN:
		o->run_name = leaf_or_die("--run", optarg);
		break;
	case O_NAME:
		o->name = leaf_or_die("--name", optarg);
		dls_log_set_role(optarg);
		break;
	case O_PARENT:
		o->parent = leaf_or_die("--parent", optarg);
		break;
	case O_CONNTO:
		o->connect_timeout_ms =
			(int)cli_i64_or_die(PROG, "--connect-timeout-ms", optarg, 0, 3600000);
		break;
	case O_REGTO:
		o->register_timeout_ms =
			(int)cli_i64_or_die(PROG, "--register-timeout-ms", optarg, 1, 3600000);
		break;
	case O_WINDOW:
		o->window_ms = (int)cli_i64_or_die(PROG, "--window-ms", optarg, 1, 3600000);
		break;
	case O_PING:
		o->ping_ms = (int)cli_i64_or_die(PROG, "--ping-ms", optarg, 1, 3600000);
		break;
	case O_PINGTO:
		o->ping_timeout_ms =
			(int)cli_i64_or_die(PROG, "--ping-timeout-ms", optarg, 1, 3600000);
		break;
	case O_CALLTO:
		break; /* applied before the ORB started */
	case O_LATENCY:
		o->link_latency_us =
			cli_double_or_die(PROG, "--link-latency-us", optarg, 0, 1e7);
		break;
	case O_SECRET:
		cli_secret_or_die(PROG, "--secret-file", optarg, &secret);
		o->secret = &secret;
		break;
	case O_RELAYGRACE:
		o->relay_grace_ms =
			(int)cli_i64_or_die(PROG, "--relay-grace-ms", optarg, 0, 3600000);
		break;
	case O_TIMEOUT:
		cli_watchdog(PROG, cli_double_or_die(PROG, "--timeout", optarg, 0.001, 1e7));
		break;
	case O_REJOIN:
		o->rejoin_ms = (int)cli_i64_or_die(PROG, "--rejoin-ms", optarg, 0, 86400000);
		break;
	case O_PATIENCE:
		o->patience_ms =
			(int)cli_i64_or_die(PROG, "--patience-ms", optarg, 0, 86400000);
		break;
	case O_RESUME:
		o->resume = 1;
		break;
	case O_RECORD:
		if (!*optarg)
			cli_usage_error(PROG, "--record", optarg, "must name a file");
		o->record = optarg;
		break;
	case O_MODE:
		if (strcmp(optarg, "relay") && strcmp(optarg, "twolevel"))
			cli_usage_error(PROG, "--mode", optarg, "must be relay or twolevel");
		o->twolevel = !strcmp(optarg, "twolevel");
		break;
	default:
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct hmaster_orb_opts o = {.run_name = "dls",
				     .name = "hmaster",
				     .parent = "master",
				     .connect_timeout_ms = 20000,
				     .register_timeout_ms = 60000,
				     .ping_ms = 500,
				     .ping_timeout_ms = 3000,
				     .twolevel = 1,
				     .patience_ms = 300000,
				     .relay_grace_ms = DLS_RELAY_GRACE_MS};
	int c, rc, verbose = 0;

	dls_log_set_role("hmaster");
	dls_log_set_level(-1);
	cli_keep_message_buffers();
	rc = cli_server_start(PROG, &argc, argv, help, 30000);
	if (rc)
		return rc > 0 ? 0 : 1;
	while ((c = cli_getopt(PROG, argc, argv, "vq", hmaster_options)) != -1) {
		if (c == 'v') {
			dls_log_set_level(++verbose >= 2 ? DLS_LOG_DEBUG : DLS_LOG_INFO);
		} else if (c == 'q') {
			dls_log_set_level(DLS_LOG_ERR);
		} else if (hmaster_option(&o, c)) {
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	if (optind < argc)
		cli_usage_error(PROG, "argument", argv[optind], "unexpected");
	if (!o.nslaves)
		cli_usage_error(PROG, "--slaves", NULL, "is required");
	if (o.resume && o.twolevel && !o.record)
		cli_usage_error(PROG, "--resume", NULL,
				"a two-level hmaster resumes from the record its predecessor kept: "
				"give --record FILE");
	if (o.record && !o.twolevel)
		cli_usage_error(PROG, "--record", o.record,
				"only a two-level hmaster keeps a record (a relay one resumes "
				"without)");
	rc = hmaster_orb_run(&o);
	log_limit_flush(1); /* the refusals of strangers not yet summed up */
	dls_orb_destroy();
	return rc;
}
