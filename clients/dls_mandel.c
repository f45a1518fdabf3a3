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

/* What the command line asks for. */
struct mandel_args {
	struct mandel_params m;
	int sums;
	const char *raw, *png;
};

/* Reads the command line into a: -1 to go on, else the exit status
 * (--help: 0; an unknown option: 2, said). */
static int parse_args(int argc, char **argv, struct mandel_args *a)
{
	static const struct option opts[] = {{"width", required_argument, 0, 'w'},
					     {"height", required_argument, 0, 'H'},
					     {"maxit", required_argument, 0, 'm'},
					     {"sums", no_argument, 0, 's'},
					     {"raw", required_argument, 0, 'r'},
					     {"png", required_argument, 0, 'P'},
					     {"help", no_argument, 0, 'h'},
					     {0, 0, 0, 0}};
	int c;

	optind = 1;
	while ((c = cli_getopt(PROG, argc, argv, "h", opts)) != -1) {
		switch (c) {
		case 'w':
			a->m.width = (int32_t)cli_i64_or_die(PROG, "--width", optarg, 1,
							     MANDEL_MAX_SIDE);
			break;
		case 'H':
			a->m.height = (int32_t)cli_i64_or_die(PROG, "--height", optarg, 1,
							      MANDEL_MAX_SIDE);
			break;
		case 'm':
			a->m.maxit = (int32_t)cli_i64_or_die(PROG, "--maxit", optarg, 1,
							     MANDEL_MAX_MAXIT);
			break;
		case 's':
			a->sums = 1;
			break;
		case 'r':
			a->raw = optarg;
			break;
		case 'P':
			a->png = optarg;
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
	if (!a->m.width)
		cli_usage_error(PROG, "--width", NULL, "is required");
	if (!a->m.height)
		cli_usage_error(PROG, "--height", NULL, "is required");
	return -1;
}

/* The per-column sums (or the time and rate) on standard output. */
static void print_result(const struct mandel_args *a, const uint64_t *colsum, uint64_t total,
			 double secs)
{
	const struct mandel_params *m = &a->m;

	if (a->sums) {
		printf("total %" PRIu64 "\ncolumns", total);
		for (int32_t x = 0; x < m->width; x++)
			printf(" %" PRIu64, colsum[x]);
		printf("\n");
		return;
	}
	printf("image %dx%d maxit %d\ntotal %" PRIu64 " iterations\ntime %.3f s\n"
	       "rate %.0f iterations/s (%.2f ns per iteration)\n",
	       m->width, m->height, m->maxit, total, secs, secs > 0 ? total / secs : 0.0,
	       total ? secs * 1e9 / total : 0.0);
}

/* The image files asked for: 0, or 1 when one cannot be written (said). */
static int write_images(const struct mandel_args *a, const uint16_t *img)
{
	int rc = 0;

	if (a->raw && image_file_write_pgm16(a->raw, img, a->m.width, a->m.height)) {
		fprintf(stderr, PROG ": cannot write '%s'\n", a->raw);
		rc = 1;
	}
	if (a->png && image_file_write_png(a->png, img, a->m.width, a->m.height, a->m.maxit)) {
		fprintf(stderr, PROG ": cannot write '%s'\n", a->png);
		rc = 1;
	}
	return rc;
}

int dls_cmd_mandel(int argc, char **argv)
{
	struct mandel_args a = {{0, 0, MANDEL_DEFAULT_MAXIT}, 0, NULL, NULL};
	const struct mandel_params *m = &a.m;
	uint16_t *col, *img = NULL;
	uint64_t *colsum, total = 0;
	double t0;
	int rc = parse_args(argc, argv, &a);

	if (rc >= 0)
		return rc;
	if (a.raw || a.png)
		img = malloc((size_t)m->width * (size_t)m->height * sizeof(*img));
	col = malloc((size_t)m->height * sizeof(*col));
	colsum = malloc((size_t)m->width * sizeof(*colsum));
	if (!col || !colsum || ((a.raw || a.png) && !img)) {
		fprintf(stderr, PROG ": out of memory for a %dx%d image\n", m->width, m->height);
		free(img);
		free(col);
		free(colsum);
		return 1;
	}
	t0 = dls_now();
	for (int32_t x = 0; x < m->width; x++) {
		colsum[x] = mandel_column(m, x, img ? img + (size_t)x * m->height : col);
		total += colsum[x];
	}
	print_result(&a, colsum, total, dls_now() - t0);
	rc = write_images(&a, img);
	free(img);
	free(col);
	free(colsum);
	return rc;
}
