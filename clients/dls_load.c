/*
 * dls load - Chronopoulos et al. 2002's artificial background load: a matrix-by-matrix
 * product, repeated until stopped (or for --seconds), for real
 * non-dedicated runs.  Each instance adds one process to the run queue.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "dls_time.h"

#define PROG "dls load"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int dls_cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {{"seconds", required_argument, 0, 's'},
					     {"size", required_argument, 0, 'n'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	double seconds = 0, t0, sink = 0;
	int n = 200, c;
	long products = 0;
	double *a, *b, *x;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 's':
			seconds = cli_double_or_die(PROG, "--seconds", optarg, 0, 1e9);
			break;
		case 'n':
			n = (int)cli_i64_or_die(PROG, "--size", optarg, 1, 4096);
			break;
		case 'h':
			printf("usage: dls load [--seconds S] [--size N]\n\n"
			       "Multiplies two NxN matrices (default 200) over and over until\n"
			       "stopped (SIGTERM, Ctrl-C) or for S seconds: one busy process.\n");
			return 0;
		default:
			fprintf(stderr, "try '" PROG " --help'\n");
			return 2;
		}
	}
	a = malloc(sizeof(double) * (size_t)n * n);
	b = malloc(sizeof(double) * (size_t)n * n);
	x = malloc(sizeof(double) * (size_t)n * n);
	if (!a || !b || !x) {
		fprintf(stderr, PROG ": out of memory for %dx%d matrices\n", n, n);
		return 1;
	}
	for (int i = 0; i < n * n; i++) {
		a[i] = (i % 7) * 0.5;
		b[i] = (i % 5) * 0.25;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	t0 = dls_now();
	while (!stop && (seconds <= 0 || dls_now() - t0 < seconds)) {
		for (int i = 0; i < n && !stop; i++)
			for (int j = 0; j < n; j++) {
				double s = 0;

				for (int k = 0; k < n; k++)
					s += a[i * n + k] * b[k * n + j];
				x[i * n + j] = s;
			}
		sink += x[products % (n * n)];
		products++;
	}
	printf("%ld products of %dx%d matrices in %.1f s (checksum %g)\n", products, n, n,
	       dls_now() - t0, sink);
	free(a);
	free(b);
	free(x);
	return 0;
}
