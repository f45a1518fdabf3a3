/*
 * master_callback.c - a DLS master inside a program that takes each result
 * as it arrives (a callback) instead of reading files.  It has no ORB: DLS
 * starts a private one.  Slaves are ordinary dls-slave processes:
 *   master_callback RUN SLAVES [--loops N] [--journal DIR | --resume DIR]
 *                   [--verify F] -ORBInitRef NameService=...
 *   dls-slave --run RUN -ORBInitRef NameService=...      (SLAVES times)
 * It computes a 240 x 120 Mandelbrot image with DFSS and prints the sum of
 * its counts, after checking that every column arrived exactly once.  With
 * --loops N the run holds N loops, each the image again, each started by
 * the program once the loop before is in; every loop is checked the same
 * way.  With --journal DIR it survives its own crash: run it again with
 * --resume DIR (slaves started with --rejoin-ms rejoin it) and the results
 * it had of the loop it was in are handed to the callback again before the
 * new ones (those of the loops before are not: it had them).  With
 * --verify F about the fraction F of the results is computed again by
 * another slave and compared (PROTOCOL.md 19), and it says what was found.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dls/embed.h>
#include <dls/err.h>

#define WIDTH 240
#define HEIGHT 120
#define MAX_LOOPS 64

static int seen[MAX_LOOPS][WIDTH];
static uint64_t sum[MAX_LOOPS];

/* Called from an ORB thread under the master's lock: be quick. */
static void on_loop_result(void *user, uint32_t loop, int64_t index, const void *data,
			   size_t bytes)
{
	const uint16_t *counts = data; /* HEIGHT little-endian counts */

	(void)user;
	if (loop >= MAX_LOOPS || index < 0 || index >= WIDTH || bytes != HEIGHT * sizeof(uint16_t))
		return;
	seen[loop][index]++;
	for (int y = 0; y < HEIGHT; y++)
		sum[loop] += counts[y];
}

/* Every column of loop k arrived exactly once: 1, else 0 (said). */
static int loop_whole(uint32_t k)
{
	for (int x = 0; x < WIDTH; x++)
		if (seen[k][x] != 1) {
			fprintf(stderr, "master_callback: loop %u: column %d arrived %d times\n",
				(unsigned)k, x, seen[k][x]);
			return 0;
		}
	return 1;
}

int main(int argc, char **argv)
{
	struct dls_param params[2] = {{"width", "240"}, {"height", "120"}};
	struct dls_embed_master_options o;
	struct dls_embed_master *m;
	struct dls_status st;
	const char *journal = NULL;
	char why[256];
	int rc, loops = 1, resume = 0;
	double verify = 0;
	uint32_t first = MAX_LOOPS, last = 0;

	if (dls_orb_start(&argc, argv, 0) || argc < 3) {
		fprintf(stderr, "usage: master_callback RUN SLAVES [--loops N] [--journal DIR | "
				"--resume DIR] [--verify F] -ORBInitRef NameService=...\n");
		return 2;
	}
	for (int i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--loops"))
			loops = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--journal") || !strcmp(argv[i], "--resume"))
			journal = argv[i + 1], resume = !strcmp(argv[i], "--resume");
		else if (!strcmp(argv[i], "--verify"))
			verify = atof(argv[i + 1]); /* the master refuses one outside 0..1 */
		else
			loops = 0; /* refused below */
	}
	if (loops < 1 || loops > MAX_LOOPS || argc % 2 == 0) {
		fprintf(stderr,
			"master_callback: --loops 1..%d, --journal DIR, --resume DIR, --verify F\n",
			MAX_LOOPS);
		return 2;
	}
	dls_embed_master_options_init(&o);
	o.run = argv[1];
	o.slaves = atoi(argv[2]);
	o.workload = "mandelbrot";
	o.params = params;
	o.nparams = 2;
	o.scheme = "dfss";
	o.on_loop_result = on_loop_result;
	o.loops = loops;
	o.journal_dir = journal;
	o.resume = resume;
	o.verify = verify;
	rc = dls_embed_master_start(&o, &m, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "master_callback: %s: %s\n", dls_strerror(rc), why);
		return 1;
	}
	for (;;) { /* each loop once its results are all in; the next one after it */
		uint32_t k;

		rc = dls_embed_master_loop_wait(m, &k, NULL, why, sizeof(why));
		if (rc || k >= MAX_LOOPS || !loop_whole(k))
			break;
		first = k < first ? k : first;
		last = k;
		printf("loop %u: %d columns, sum of counts %llu\n", (unsigned)k, WIDTH,
		       (unsigned long long)sum[k]);
		fflush(stdout);
		if ((int)k + 1 >= loops ||
		    (rc = dls_embed_master_next_loop(m, NULL, 0, why, sizeof(why))))
			break;
	}
	if (!rc)
		rc = dls_embed_master_wait(m, &st, why, sizeof(why));
	else
		dls_embed_master_wait(m, NULL, NULL, 0);
	dls_orb_stop();
	if (rc || first == MAX_LOOPS) {
		fprintf(stderr, "master_callback: the run failed: %s\n", rc ? why : "no loop");
		return 1;
	}
	for (uint32_t k = 0; k < MAX_LOOPS; k++) /* a loop not this process's: nothing of it */
		for (int x = 0; (k < first || k > last) && x < WIDTH; x++)
			if (seen[k][x]) {
				fprintf(stderr, "master_callback: results of loop %u, not this "
						"process's\n", (unsigned)k);
				return 1;
			}
	printf("master_callback: %d columns from %d slaves in %.3f s, sum of counts %llu\n", WIDTH,
	       st.nslaves, st.elapsed, (unsigned long long)sum[last]);
	if (st.verify.fraction > 0)
		printf("master_callback: verified %lld pieces (%lld columns): %lld agreed, %d "
		       "slaves lied\n",
		       (long long)st.verify.pieces, (long long)st.verify.iterations,
		       (long long)(st.verify.agreed + st.verify.disputed), st.verify.liars);
	dls_status_free(&st);
	return 0;
}
