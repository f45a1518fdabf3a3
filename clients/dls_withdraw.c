/*
 * dls withdraw - tells a run's master (or Tree Scheduling's coordinator)
 * that a slave it waits for will not come: its launch failed, or it exited
 * before it registered.  The master stops waiting for it, instead of
 * waiting out its registration window.  dls run does this by itself for
 * the slaves it starts; a launcher of its own uses this command.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls/err.h"
#include "dls_cmds.h"
#include "orb_util.h"
#include "withdraw_client.h"

#define PROG "dls withdraw"
#define MAX_CHAIN 16 /* parents in one chain: levels of hmasters and the master */

static void help(void)
{
	printf("usage: dls withdraw --name SLAVE [--run NAME] [--parent P]...\n"
	       "                    [--secret-file F] [--tls-dir D]\n"
	       "                    -ORBInitRef NameService=ADDRESS\n\n"
	       "Tells the master bound at DLS/NAME/master (default run: dls), or Tree\n"
	       "Scheduling's coordinator (DLS/NAME/treesched), that slave SLAVE will not\n"
	       "register: it expects one slave fewer and closes registration once every\n"
	       "other one is in.  Refused once registration closed, for a slave that\n"
	       "registered, and without the run's secret when the run has one.\n\n"
	       "  --parent P       master (default), treesched (Tree Scheduling, the\n"
	       "                   balancing policies) or hmaster.L.I (one below it: every\n"
	       "                   hmaster above the slave counts it, and a relay's master).\n"
	       "                   Repeated: a chain, from the slave's own parent upwards;\n"
	       "                   each is told only once the one below it withdrew the\n"
	       "                   slave, so that a slave registered below is never\n"
	       "                   withdrawn above (up to %d)\n"
	       "  --connect-timeout-ms T  look for it this long (default 20000: it may not\n"
	       "                   be bound yet)\n"
	       "  --secret-file F  the run's secret (dls run: RUNDIR/run.secret)\n"
	       "  --tls-dir D      a run on TLS: this host's folder of dls tls init\n"
	       "Exit 0 when withdrawn, 1 when refused (the reason printed), 2 for bad options.\n",
	       MAX_CHAIN);
}

/* What the command line asks for. */
struct withdraw_args {
	const char *run, *name, *secret_file, *chain[MAX_CHAIN];
	int wait_ms, nchain;
};

/* Reads the options (after the ORB's) into a; a bad one exits 2, said,
 * with the ORB destroyed.  -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct withdraw_args *a)
{
	static const struct option opts[] = {{"run", required_argument, 0, 'r'},
					     {"name", required_argument, 0, 'n'},
					     {"secret-file", required_argument, 0, 's'},
					     {"parent", required_argument, 0, 'p'},
					     {"connect-timeout-ms", required_argument, 0, 't'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'r':
			a->run = optarg;
			break;
		case 'n':
			a->name = optarg;
			break;
		case 's':
			a->secret_file = optarg;
			break;
		case 'p':
			if (a->nchain == MAX_CHAIN) {
				dls_orb_destroy();
				cli_usage_error(PROG, "--parent", optarg,
						"one too many (a chain has at most 16)");
			}
			if (strcmp(optarg, "master") && strcmp(optarg, "treesched") &&
			    strncmp(optarg, "hmaster.", 8)) {
				dls_orb_destroy();
				cli_usage_error(PROG, "--parent", optarg,
						"must be master, treesched or hmaster.L.I");
			}
			a->chain[a->nchain++] = optarg;
			break;
		case 't':
			a->wait_ms =
			    (int)cli_i64_or_die(PROG, "--connect-timeout-ms", optarg, 0, 3600000);
			break;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			dls_orb_destroy();
			return 2;
		}
	}
	if (!a->name || !a->name[0]) {
		dls_orb_destroy();
		cli_usage_error(PROG, "--name", NULL, "is required");
	}
	if (a->nchain == 0)
		a->chain[a->nchain++] = "master";
	return -1;
}

/* Withdraws the name at every parent of the chain, the lowest first: the
 * exit status, each step said when the chain has more than one. */
static int withdraw_chain(const struct withdraw_args *a, const struct run_secret *secret)
{
	char why[512];

	for (int k = 0; k < a->nchain; k++) {
		if (withdraw_send(a->run, a->chain[k], a->name, secret, a->wait_ms, why,
				  sizeof(why))) {
			fprintf(stderr, PROG ": run '%s' did not withdraw '%s'%s%s: %s\n", a->run,
				a->name, a->nchain > 1 ? " at " : "",
				a->nchain > 1 ? a->chain[k] : "", why);
			if (k > 0)
				fprintf(stderr,
					PROG ": withdrawn below it (at %s), so %s waits for it until "
					     "its registration window closes\n",
					a->chain[k - 1], a->chain[k]);
			return 1;
		}
		if (a->nchain > 1)
			printf("run '%s': '%s' withdrawn at %s\n", a->run, a->name, a->chain[k]);
	}
	if (a->nchain == 1)
		printf("run '%s': '%s' withdrawn\n", a->run, a->name);
	return 0;
}

int dls_cmd_withdraw(int argc, char **argv)
{
	struct withdraw_args a = {"dls", NULL, NULL, {NULL}, 20000, 0};
	struct run_secret secret;
	char why[512];
	int rc = cli_server_start(PROG, &argc, argv, help, 5000);

	if (rc)
		return rc > 0 ? 0 : 1;
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	if (run_secret_load(&secret, a.secret_file, why, sizeof(why))) {
		dls_orb_destroy();
		fprintf(stderr, PROG ": %s\n", why);
		return 1;
	}
	rc = withdraw_chain(&a, &secret);
	dls_orb_destroy();
	return rc;
}
