/*
 * master_callback.c - a DLS master inside a program that takes each result
 * as it arrives (a callback) instead of reading files.  It has no ORB: DLS
 * starts a private one.  Slaves are ordinary dls-slave processes:
 *   master_callback RUN SLAVES [--journal DIR | --resume DIR] -ORBInitRef NameService=...
 *   dls-slave --run RUN -ORBInitRef NameService=...      (SLAVES times)
 * It computes a 240 x 120 Mandelbrot image with DFSS and prints the sum of
 * its counts, after checking that every column arrived exactly once.  With
 * --journal DIR it survives its own crash: run it again with --resume DIR
 * (slaves started with --rejoin-ms rejoin it) and the results it had are
 * handed to the callback again before the new ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dls/embed.h>
#include <dls/err.h>

#define WIDTH 240
#define HEIGHT 120

static int seen[WIDTH];
static uint64_t sum;

/* Called from an ORB thread under the master's lock: be quick. */
static void on_result(void *user, int64_t index, const void *data, size_t bytes)
{
	const uint16_t *counts = data; /* HEIGHT little-endian counts */

	(void)user;
	if (index < 0 || index >= WIDTH || bytes != HEIGHT * sizeof(uint16_t))
		return;
	seen[index]++;
	for (int y = 0; y < HEIGHT; y++)
		sum += counts[y];
}

int main(int argc, char **argv)
{
	struct dls_param params[2] = {{"width", "240"}, {"height", "120"}};
	struct dls_embed_master_options o;
	struct dls_embed_master *m;
	struct dls_status st;
	char why[256];
	int rc;

	if (dls_orb_start(&argc, argv, 0) || (argc != 3 && argc != 5) ||
	    (argc == 5 && strcmp(argv[3], "--journal") && strcmp(argv[3], "--resume"))) {
		fprintf(stderr, "usage: master_callback RUN SLAVES [--journal DIR | --resume DIR] "
				"-ORBInitRef NameService=...\n");
		return 2;
	}
	dls_embed_master_options_init(&o);
	o.run = argv[1];
	o.slaves = atoi(argv[2]);
	o.workload = "mandelbrot";
	o.params = params;
	o.nparams = 2;
	o.scheme = "dfss";
	o.on_result = on_result;
	if (argc == 5) {
		o.journal_dir = argv[4];
		o.resume = !strcmp(argv[3], "--resume");
	}
	rc = dls_embed_master_start(&o, &m, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "master_callback: %s: %s\n", dls_strerror(rc), why);
		return 1;
	}
	rc = dls_embed_master_wait(m, &st, why, sizeof(why));
	dls_orb_stop();
	if (rc) {
		fprintf(stderr, "master_callback: the run failed: %s\n", why);
		return 1;
	}
	for (int x = 0; x < WIDTH; x++)
		if (seen[x] != 1) {
			fprintf(stderr, "master_callback: column %d arrived %d times\n", x, seen[x]);
			return 1;
		}
	printf("master_callback: %d columns from %d slaves in %.3f s, sum of counts %llu\n", WIDTH,
	       st.nslaves, st.elapsed, (unsigned long long)sum);
	dls_status_free(&st);
	return 0;
}
