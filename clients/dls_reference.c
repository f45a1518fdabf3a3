/*
 * dls reference - any workload computed sequentially, loop index by loop
 * index, through the same body the slaves call: the oracle a distributed
 * run's --out file is compared with (byte for byte), and the single-PE
 * baseline.  Prints the loop's shape, its total cost and how unequal its
 * iterations are.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls/workload.h"
#include "dls_cmds.h"
#include "dls_time.h"
#include "npy_file.h"
#include "work.h"

#define PROG "dls reference"

static void help(void)
{
	printf("usage: dls reference [--workload NAME] [--param NAME=VALUE ...] [--out FILE.npy]\n\n"
	       "Computes every iteration of the workload's loop in one process, in loop\n"
	       "order, and writes the results as a dls-master --out file would.\n"
	       "  --workload NAME   %s (default mandelbrot)\n"
	       "  --param N=V       a workload parameter (repeatable; PROTOCOL.md 3)\n"
	       "  --out FILE.npy    the results, one row per loop index (numpy.load)\n"
	       "  --costs           also print each iteration's cost in unit iterations\n",
	       dls_workload_names());
}

/* What the command line asks for. */
struct reference_args {
	struct dls_param params[DLS_MAX_PARAMS];
	const char *workload, *out;
	int nparams, costs;
};

/* Reads the command line into a: -1 to go on, else the exit status
 * (--help: 0; an unknown option: 2, said). */
static int parse_args(int argc, char **argv, struct reference_args *a)
{
	static const struct option opts[] = {{"workload", required_argument, 0, 'w'},
					     {"param", required_argument, 0, 'p'},
					     {"out", required_argument, 0, 'o'},
					     {"costs", no_argument, 0, 'c'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'w':
			a->workload = optarg;
			break;
		case 'p':
			cli_param_or_die(PROG, "--param", a->params, &a->nparams, NULL, optarg);
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'c':
			a->costs = 1;
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

/* What the sequential run computed: each iteration's cost (--costs), the
 * totals and the time; the results into --out.  0, or 1 when they cannot
 * be written. */
static int report(const struct reference_args *a, const struct work *wk, const uint8_t *data,
		  const uint64_t *cost, double secs)
{
	uint64_t total = 0, lo = UINT64_MAX, hi = 0;

	for (int64_t x = 0; x < wk->loop.iterations; x++) {
		total += cost[x];
		lo = cost[x] < lo ? cost[x] : lo;
		hi = cost[x] > hi ? cost[x] : hi;
	}
	if (a->costs) {
		printf("costs");
		for (int64_t x = 0; x < wk->loop.iterations; x++)
			printf(" %" PRIu64, cost[x]);
		printf("\n");
	}
	printf("workload %s: %lld iterations of %u octets ('%s')\n"
	       "total %" PRIu64 " unit iterations; per iteration %" PRIu64 "..%" PRIu64
	       "\ntime %.3f s\n",
	       a->workload, (long long)wk->loop.iterations, (unsigned)wk->loop.result_bytes,
	       wk->loop.dtype, total, lo, hi, secs);
	if (a->out && npy_file_write(a->out, wk->loop.dtype, data, wk->loop.iterations,
				     wk->loop.result_bytes))
		return 1;
	return 0;
}

int dls_cmd_reference(int argc, char **argv)
{
	struct reference_args a = {.workload = "mandelbrot"};
	struct work wk;
	uint8_t *data;
	uint64_t *cost;
	char why[256];
	double t0;
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (work_open(&wk, a.workload, a.params, (size_t)a.nparams, ITER_ORDER_NATURAL, why,
		      sizeof(why)))
		cli_usage_error(PROG, "--workload", a.workload, why);
	data = malloc((size_t)wk.loop.iterations * wk.loop.result_bytes);
	cost = malloc((size_t)wk.loop.iterations * sizeof(*cost));
	if (!data || !cost) {
		fprintf(stderr, PROG ": out of memory for %lld results of %u octets\n",
			(long long)wk.loop.iterations, (unsigned)wk.loop.result_bytes);
		rc = 1;
	} else {
		t0 = dls_now();
		rc = work_sequential(&wk, data, cost, why, sizeof(why));
		if (rc)
			fprintf(stderr, PROG ": workload '%s' failed: %s\n", a.workload, why);
		else
			rc = report(&a, &wk, data, cost, dls_now() - t0);
	}
	free(data);
	free(cost);
	work_close(&wk);
	return rc ? 1 : 0;
}
