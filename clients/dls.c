/*
 * dls - the DLS command-line tool: one program, one sub-command per job.
 */
#include <stdio.h>
#include <string.h>

#include "dls_cmds.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} cmds[] = {
    {"chunks", dls_cmd_chunks, "print the chunk schedule of a scheme, or the TreeS plan"},
    {"mandel", dls_cmd_mandel, "compute the Mandelbrot image sequentially (the oracle, T_1)"},
    {"reference", dls_cmd_reference, "compute any workload sequentially into a .npy (the oracle)"},
    {"run", dls_cmd_run, "a whole run: naming service, master, emulated cluster, table"},
    {"simulate", dls_cmd_simulate, "simulate a scheme on a cluster: the schedule's own limit"},
    {"names", dls_cmd_names, "start or stop a private naming service"},
    {"tls", dls_cmd_tls, "a certificate authority and the TLS folder of each host"},
    {"status", dls_cmd_status, "query a running master"},
    {"withdraw", dls_cmd_withdraw, "tell a master a slave will not come (its launch failed)"},
    {"load", dls_cmd_load, "a busy background process (matrix products)"},
    {"bench", dls_cmd_bench, "compare schemes on reference clusters: tables, CSV, plots"},
    {"orbping", dls_cmd_orbping, "the bare ORB's two-way call rate"},
    {"ingest", dls_cmd_ingest, "the master's result ingest rate beside the bare ORB's"},
    {"compare", dls_cmd_compare, "compare two images column by column"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dls COMMAND [OPTIONS]   (dls COMMAND --help for its options)\n\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			static char prog[32];

			/* getopt names the program by argv[0]: "dls run", not "run" */
			snprintf(prog, sizeof(prog), "dls %s", cmds[i].name);
			argv[1] = prog;
			return cmds[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "dls: unknown command '%s'\ntry 'dls --help'\n", argv[1]);
	return 2;
}
