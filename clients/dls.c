/*
 * dls - the DLS command-line tool: one program, one sub-command per job.
 */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
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
    {"plot", dls_cmd_plot, "pictures of a run from its JSON: the Gantt chart"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: dls COMMAND [OPTIONS]   (dls help COMMAND, or dls COMMAND --help,\n"
		   "                                 for its options)\n\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(f, "  %-8s %s\n  %-8s %s\n", "help", "this list, or a command's options",
		"version", "DLS's version (also --version)");
}

/* The command named `name`, or -1 (said, with the nearest command). */
static int command(const char *name)
{
	size_t best = 0;
	int best_d = 99;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		size_t ln = strlen(name), lc = strlen(cmds[i].name), k;
		int d = 0;

		if (!strcmp(name, cmds[i].name))
			return (int)i;
		/* letters that differ position by position, and the length's */
		for (k = 0; k < ln && k < lc; k++)
			d += name[k] != cmds[i].name[k];
		d += (int)(ln > lc ? ln - lc : lc - ln);
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	if (best_d <= 2)
		fprintf(stderr, "dls: unknown command '%s'; did you mean '%s'?\ntry 'dls --help'\n",
			name, cmds[best].name);
	else
		fprintf(stderr, "dls: unknown command '%s'\ntry 'dls --help'\n", name);
	return -1;
}

int main(int argc, char **argv)
{
	static char prog[32];
	int i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("dls %s\n", cli_version());
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (!strcmp(argv[1], "help") && argc > 2) { /* dls help run: dls run --help */
			char *hargv[] = {prog, (char *)"--help", NULL};

			if ((i = command(argv[2])) < 0)
				return 2;
			snprintf(prog, sizeof(prog), "dls %s", cmds[i].name);
			return cmds[i].run(2, hargv);
		}
		usage(stdout);
		return 0;
	}
	if ((i = command(argv[1])) < 0)
		return 2;
	/* getopt names the program by argv[0]: "dls run", not "run" */
	snprintf(prog, sizeof(prog), "dls %s", cmds[i].name);
	if (argc > 2 && !strcmp(argv[2], "--version")) {
		printf("%s %s\n", prog, cli_version());
		return 0;
	}
	argv[1] = prog;
	return cmds[i].run(argc - 1, argv + 1);
}
