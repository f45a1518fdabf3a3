/*
 * steps.c - a C program with a main loop of its own, computing chunks of a
 * DLS run when DLS has one for it (the step API of dls/embed.h), and doing
 * its own work in between.  It has no ORB: DLS starts a private one.
 *
 * Its loop: iteration x counts the primes in [x * 2000, (x + 1) * 2000) by
 * trial division (later blocks cost more), one uint32 per iteration.  The
 * master does not have this body; it is told the loop's shape:
 *   dls-master --slaves 1 --run RUN --workload primes \
 *     --param dls.iterations=300 --param dls.result_bytes=4 --param dls.dtype='<u4' \
 *     --out primes.npy
 *   steps RUN -ORBInitRef NameService=...
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <dls/embed.h>
#include <dls/err.h>

#define BLOCK 2000

static uint32_t primes_in(int64_t x)
{
	uint32_t n = 0;

	for (int64_t v = x * BLOCK; v < (x + 1) * BLOCK; v++) {
		int prime = v >= 2;

		for (int64_t d = 2; prime && d * d <= v; d++)
			prime = v % d != 0;
		n += (uint32_t)prime;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct dls_embed_slave_options o;
	struct dls_steps *s;
	struct dls_step step;
	struct slave_stats st;
	long chunks = 0, idle_ticks = 0;
	char why[256];
	int rc;

	if (dls_orb_start(&argc, argv, 0) || argc < 2) {
		fprintf(stderr, "usage: steps RUN -ORBInitRef NameService=corbaname::HOST:PORT\n");
		return 2;
	}
	dls_embed_slave_options_init(&o);
	o.run = argv[1];
	snprintf(o.slave.name, sizeof(o.slave.name), "steps");
	rc = dls_steps_start(&o, &s, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "steps: cannot join run '%s': %s: %s\n", o.run, dls_strerror(rc), why);
		return 1;
	}
	/* the program's main loop: a chunk when there is one, its own work otherwise */
	for (;;) {
		rc = dls_steps_next(s, &step, 50);
		if (rc == DLS_ETIMEDOUT) {
			idle_ticks++; /* the program's own business would go here */
			continue;
		}
		if (rc != DLS_OK)
			break; /* DLS_EDONE: the run is over */
		for (int64_t i = 0; i < step.count; i++) {
			uint32_t n = primes_in(step.first + i);

			memcpy((char *)step.out + i * step.result_bytes, &n, sizeof(n)); /* little-endian */
		}
		dls_steps_done(s, &step, DLS_OK, NULL);
		chunks++;
	}
	rc = dls_steps_end(s, &st, why, sizeof(why));
	dls_orb_stop();
	if (rc) {
		fprintf(stderr, "steps: the run failed: %s: %s\n", dls_strerror(rc), why);
		return 1;
	}
	printf("steps: %ld chunks, %lld iterations, %ld idle ticks\n", chunks,
	       (long long)st.iterations, idle_ticks);
	return 0;
}
