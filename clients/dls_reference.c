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

int dls_cmd_reference(int argc, char **argv)
{
	static const struct option opts[] = {{"workload", required_argument, 0, 'w'},
					     {"param", required_argument, 0, 'p'},
					     {"out", required_argument, 0, 'o'},
					     {"costs", no_argument, 0, 'c'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	struct dls_param params[DLS_MAX_PARAMS];
	const char *workload = "mandelbrot", *out = NULL;
	int nparams = 0, costs = 0, c, rc;
	uint64_t total = 0, lo = UINT64_MAX, hi = 0, *cost;
	struct work wk;
	uint8_t *data;
	char why[256];
	double t0, secs;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'w':
			workload = optarg;
			break;
		case 'p':
			cli_param_or_die(PROG, "--param", params, &nparams, NULL, optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'c':
			costs = 1;
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
	if (work_open(&wk, workload, params, (size_t)nparams, ITER_ORDER_NATURAL, why, sizeof(why)))
		cli_usage_error(PROG, "--workload", workload, why);
	data = malloc((size_t)wk.loop.iterations * wk.loop.result_bytes);
	cost = malloc((size_t)wk.loop.iterations * sizeof(*cost));
	if (!data || !cost) {
		fprintf(stderr, PROG ": out of memory for %lld results of %u octets\n",
			(long long)wk.loop.iterations, (unsigned)wk.loop.result_bytes);
		free(data);
		free(cost);
		work_close(&wk);
		return 1;
	}
	t0 = dls_now();
	rc = work_sequential(&wk, data, cost, why, sizeof(why));
	secs = dls_now() - t0;
	for (int64_t x = 0; !rc && x < wk.loop.iterations; x++) {
		total += cost[x];
		lo = cost[x] < lo ? cost[x] : lo;
		hi = cost[x] > hi ? cost[x] : hi;
	}
	if (costs && !rc) {
		printf("costs");
		for (int64_t x = 0; x < wk.loop.iterations; x++)
			printf(" %" PRIu64, cost[x]);
		printf("\n");
	}
	if (rc) {
		fprintf(stderr, PROG ": workload '%s' failed: %s\n", workload, why);
	} else {
		printf("workload %s: %lld iterations of %u octets ('%s')\n"
		       "total %" PRIu64 " unit iterations; per iteration %" PRIu64 "..%" PRIu64
		       "\ntime %.3f s\n",
		       workload, (long long)wk.loop.iterations, (unsigned)wk.loop.result_bytes,
		       wk.loop.dtype, total, lo, hi, secs);
		if (out && npy_file_write(out, wk.loop.dtype, data, wk.loop.iterations,
					  wk.loop.result_bytes))
			rc = 1;
	}
	free(data);
	free(cost);
	work_close(&wk);
	return rc ? 1 : 0;
}
