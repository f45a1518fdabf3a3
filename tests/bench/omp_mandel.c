/*
 * omp_mandel - the reference workload in shared memory: the same Mandelbrot
 * kernel as DLS's slaves (common/workload/mandel.c, built with
 * -ffp-contract=off), one column per iteration of an OpenMP loop with
 * schedule(dynamic,1), every count kept in one image as DLS's master keeps
 * it.  The physical limit a self-scheduling run on the same cores is
 * measured against (scripts/bench-omp.sh).
 *
 *   omp_mandel [--width W] [--height H] [--maxit M] [--threads T]
 *
 * Prints one line: threads, the loop's wall time in seconds and the image's
 * unit iterations (424454422 at 4000 x 2000, maxit 256).
 */
#include <errno.h>
#include <getopt.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "mandel.h"

static const char *prog = "omp_mandel";

static int parse_int(const char *opt, const char *s, int lo, int hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: %s '%s': not an integer in %d..%d\n", prog, opt, s, lo, hi);
		exit(2);
	}
	return (int)v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"width", required_argument, NULL, 'w'},  {"height", required_argument, NULL, 'H'},
		{"maxit", required_argument, NULL, 'm'},  {"threads", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},	  {NULL, 0, NULL, 0}};
	struct mandel_params m = {4000, 2000, MANDEL_DEFAULT_MAXIT};
	int threads = omp_get_max_threads(), c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'w': m.width = parse_int("--width", optarg, 1, MANDEL_MAX_SIDE); break;
		case 'H': m.height = parse_int("--height", optarg, 1, MANDEL_MAX_SIDE); break;
		case 'm': m.maxit = parse_int("--maxit", optarg, 1, MANDEL_MAX_MAXIT); break;
		case 't': threads = parse_int("--threads", optarg, 1, 4096); break;
		case 'h':
			printf("usage: %s [--width W] [--height H] [--maxit M] [--threads T]\n"
			       "Computes the Mandelbrot image column by column with OpenMP\n"
			       "schedule(dynamic,1); prints threads, seconds, unit iterations.\n",
			       prog);
			return 0;
		default: return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: argument '%s': not an option (see --help)\n", prog, argv[optind]);
		return 2;
	}
	uint16_t *img = malloc((size_t)m.width * (size_t)m.height * sizeof(*img));
	if (!img) {
		fprintf(stderr, "%s: image %d x %d: out of memory\n", prog, m.width, m.height);
		return 1;
	}
	uint64_t work = 0;
	double t0 = omp_get_wtime();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) reduction(+ : work)
	for (int32_t x = 0; x < m.width; x++)
		work += mandel_column(&m, x, img + (size_t)x * (size_t)m.height);
	double t = omp_get_wtime() - t0;
	printf("threads %d seconds %.4f work %llu\n", threads, t, (unsigned long long)work);
	free(img);
	return 0;
}
