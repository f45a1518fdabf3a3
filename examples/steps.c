/*
 * steps.c - a C program with a main loop of its own, computing steps of a
 * DLS run when DLS has one for it (the step API of dls/embed.h), and doing
 * its own work in between.  It has no ORB: DLS starts a private one.  It
 * checks the run's job before its first step and refuses one it cannot
 * compute (another workload, another result size).
 *
 * Its loop: iteration x counts the primes in [x * 2000, (x + 1) * 2000) by
 * trial division (later blocks cost more), one uint32 per iteration.  The
 * master does not have this body; it is told the loop's shape:
 *   dls-master --slaves 1 --run RUN --workload primes \
 *     --param dls.iterations=300 --param dls.result_bytes=4 --param dls.dtype='<u4' \
 *     --out primes.npy
 *   steps RUN [--steps K | --block-after K] -ORBInitRef NameService=...
 * With --steps K it leaves the run after K steps: what it computed is
 * delivered, and the master gives the rest to other slaves.  With
 * --block-after K its loop body blocks in step K + 1 for good (a deadlock,
 * a hung device call) while DLS still answers the master's pings: the
 * master sees the chunk stall and gives it to others (dls-master
 * --stall-ms).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dls/embed.h>
#include <dls/err.h>

#define BLOCK 2000

/* Whether this program computes the job: 1, or 0 with why. */
static int can_compute(const struct dls_job *job, char *why, size_t len)
{
	if (strcmp(job->workload, "primes")) {
		snprintf(why, len, "workload '%s': this program computes 'primes' only", job->workload);
		return 0;
	}
	if (job->result_bytes != sizeof(uint32_t)) {
		snprintf(why, len, "%u octets a result: this program's are %zu (a uint32)",
			 (unsigned)job->result_bytes, sizeof(uint32_t));
		return 0;
	}
	return 1;
}

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
	struct dls_slave_stats st;
	long steps = 0, idle_ticks = 0, max_steps = -1, block_after = -1;
	char why[256], *end;
	int rc;

	if (dls_orb_start(&argc, argv, 0) || (argc != 2 && argc != 4)) {
		fprintf(stderr, "usage: steps RUN [--steps K | --block-after K] -ORBInitRef "
				"NameService=corbaname::HOST:PORT\n");
		return 2;
	}
	if (argc == 4) {
		long k = strtol(argv[3], &end, 10);

		if ((strcmp(argv[2], "--steps") && strcmp(argv[2], "--block-after")) || *end ||
		    end == argv[3] || k < 1) {
			fprintf(stderr, "steps: %s '%s': a positive number of steps is required\n",
				argv[2], argv[3]);
			return 2;
		}
		if (!strcmp(argv[2], "--steps"))
			max_steps = k;
		else
			block_after = k;
	}
	dls_embed_slave_options_init(&o);
	o.run = argv[1];
	o.name = "steps";
	rc = dls_steps_start(&o, &s, why, sizeof(why));
	if (rc) {
		fprintf(stderr, "steps: cannot join run '%s': %s: %s\n", o.run, dls_strerror(rc), why);
		return 1;
	}
	/* the program's main loop: a chunk when there is one, its own work otherwise */
	while (steps != max_steps) {
		rc = dls_steps_next(s, &step, 50);
		if (rc == DLS_ETIMEDOUT) {
			idle_ticks++; /* the program's own business would go here */
			continue;
		}
		if (rc != DLS_OK)
			break; /* DLS_EDONE: the run is over */
		if (steps == block_after) { /* the loop body hangs, the process lives on */
			fprintf(stderr, "steps: the loop body blocks in step %ld\n", steps + 1);
			for (;;)
				pause();
		}
		if (step.count == 0) { /* the job, before any work */
			if (can_compute(dls_steps_job(s), why, sizeof(why))) {
				dls_steps_done(s, &step, DLS_OK, NULL);
				continue;
			}
			fprintf(stderr, "steps: refused the job of run '%s': %s\n", o.run, why);
			dls_steps_done(s, &step, DLS_EINVAL, why);
			dls_steps_end(s, &st, why, sizeof(why));
			dls_orb_stop();
			return 1;
		}
		for (int64_t i = 0; i < step.count; i++) {
			uint32_t n = primes_in(step.first + i);

			memcpy((char *)step.out + i * step.result_bytes, &n, sizeof(n)); /* little-endian */
		}
		dls_steps_done(s, &step, DLS_OK, NULL);
		steps++;
	}
	rc = dls_steps_end(s, &st, why, sizeof(why));
	dls_orb_stop();
	if (rc == DLS_ESTOPPED) {
		printf("steps: left after %ld steps, %lld iterations: %s\n", steps,
		       (long long)st.iterations, why);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "steps: the run failed: %s: %s\n", dls_strerror(rc), why);
		return 1;
	}
	printf("steps: %ld steps, %lld chunks, %lld iterations, %ld idle ticks\n", steps,
	       (long long)st.chunks, (long long)st.iterations, idle_ticks);
	return 0;
}
