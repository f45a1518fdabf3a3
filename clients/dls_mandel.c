/*
 * dls mandel - the sequential Mandelbrot computation: the oracle every
 * distributed run is checked against, and the single-PE baseline T_1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_getopt.h"
#include "cli_util.h"
#include "dls_cmds.h"
#include "dls_time.h"
#include "image_file.h"
#include "mandel.h"

#define PROG "dls mandel"

static void help(void)
{
	puts("usage: dls mandel --width W --height H [--maxit M] [--sums] [--raw FILE]\n"
	     "                  [--png FILE]\n\n"
	     "Computes the image sequentially, one column per loop iteration.\n"
	     "  --sums   print 'total N' and 'columns c0 c1 ...' (per-column iteration sums)\n"
	     "           instead of the time and iterations per second\n"
	     "  --maxit  iteration limit per pixel (default 256)\n"
	     "  --raw    also write the counts as a 16-bit PGM (the oracle of `dls compare`)\n"
	     "  --png    also write the coloured image");
}

int dls_cmd_mandel(int argc, char **argv)
{
	static const struct option opts[] = {{"width", required_argument, 0, 'w'},
					     {"height", required_argument, 0, 'H'},
					     {"maxit", required_argument, 0, 'm'},
					     {"sums", no_argument, 0, 's'},
					     {"raw", required_argument, 0, 'r'},
					     {"png", required_argument, 0, 'P'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	struct mandel_params m = {0, 0, MANDEL_DEFAULT_MAXIT};
	int sums = 0, c, rc = 0;
	const char *raw = NULL, *png = NULL;
	uint16_t *col, *img = NULL;
	uint64_t *colsum, total = 0;
	double t0, secs;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'w':
			m.width = (int32_t)cli_i64_or_die(PROG, "--width", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case 'H':
			m.height =
				(int32_t)cli_i64_or_die(PROG, "--height", optarg, 1, MANDEL_MAX_SIDE);
			break;
		case 'm':
			m.maxit = (int32_t)cli_i64_or_die(PROG, "--maxit", optarg, 1, MANDEL_MAX_MAXIT);
			break;
		case 's':
			sums = 1;
			break;
		case 'r':
			raw = optarg;
			break;
		case 'P':
			png = optarg;
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
	if (!m.width)
		cli_usage_error(PROG, "--width", NULL, "is required");
	if (!m.height)
		cli_usage_error(PROG, "--height", NULL, "is required");
	if (raw || png) {
		img = malloc((size_t)m.width * (size_t)m.height * sizeof(*img));
		if (!img) {
			fprintf(stderr, PROG ": out of memory for a %dx%d image\n", m.width, m.height);
			return 1;
		}
	}
	col = malloc((size_t)m.height * sizeof(*col));
	colsum = malloc((size_t)m.width * sizeof(*colsum));
	if (!col || !colsum) {
		fprintf(stderr, PROG ": out of memory for a %dx%d image\n", m.width, m.height);
		return 1;
	}
	t0 = dls_now();
	for (int32_t x = 0; x < m.width; x++) {
		colsum[x] = mandel_column(&m, x, img ? img + (size_t)x * m.height : col);
		total += colsum[x];
	}
	secs = dls_now() - t0;
	if (sums) {
		printf("total %" PRIu64 "\ncolumns", total);
		for (int32_t x = 0; x < m.width; x++)
			printf(" %" PRIu64, colsum[x]);
		printf("\n");
	} else {
		printf("image %dx%d maxit %d\ntotal %" PRIu64 " iterations\ntime %.3f s\n"
		       "rate %.0f iterations/s (%.2f ns per iteration)\n",
		       m.width, m.height, m.maxit, total, secs, secs > 0 ? total / secs : 0.0,
		       total ? secs * 1e9 / total : 0.0);
	}
	if (raw && image_file_write_pgm16(raw, img, m.width, m.height)) {
		fprintf(stderr, PROG ": cannot write '%s'\n", raw);
		rc = 1;
	}
	if (png && image_file_write_png(png, img, m.width, m.height, m.maxit)) {
		fprintf(stderr, PROG ": cannot write '%s'\n", png);
		rc = 1;
	}
	free(img);
	free(col);
	free(colsum);
	return rc;
}
