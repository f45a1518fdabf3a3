/* collatz.c - your own loop under DLS: iteration x counts the Collatz steps
 * of x + 1 (an irregular cost), served by a master and 4 slaves in this
 * one program; checked against the sequential loop.
 *   collatz -ORBInitRef NameService=corbaname::HOST:PORT */
#include <stdio.h>
#include <string.h>
#include <dls/embed.h>
#include <dls/err.h>
#include <dls/workload.h>

#define N 200000
#define SLAVES 4
static unsigned long long total; /* the sum of the results, as they arrive */

static uint32_t steps(uint64_t v)
{
	uint32_t n = 0;
	for (; v != 1; n++)
		v = v % 2 ? 3 * v + 1 : v / 2;
	return n;
}
static int open_loop(void *user, const struct dls_param *p, size_t n, struct dls_loop *loop,
		     void **state, char *why, size_t len)
{
	static const char *const none[] = {NULL};
	(void)user, (void)state;
	loop->iterations = N, loop->result_bytes = 4, strcpy(loop->dtype, "<u4");
	return dls_params_known(p, n, none, why, len); /* it takes no parameters */
}
static int body(void *state, int64_t first, int64_t count, void *out, uint64_t *cost,
		char *why, size_t len)
{
	(void)state, (void)why, (void)len;
	for (int64_t i = 0; i < count; i++)
		*cost += ((uint32_t *)out)[i] = steps((uint64_t)(first + i) + 1);
	return DLS_OK;
}
static void on_result(void *user, int64_t index, const void *data, size_t bytes)
{
	uint32_t v;
	(void)user, (void)index, (void)bytes;
	memcpy(&v, data, sizeof(v)); /* called under the master's lock */
	total += v;
}

int main(int argc, char **argv)
{
	struct dls_workload w = {.name = "collatz", .open = open_loop, .body = body};
	struct dls_embed_master_options mo;
	struct dls_embed_slave_options so;
	struct dls_embed_master *m;
	struct dls_embed_slave *s[SLAVES];
	struct dls_slave_stats st;
	unsigned long long sequential = 0;
	char why[256];
	int rc;

	if (dls_orb_start(&argc, argv, 0) || dls_workload_register(&w))
		return 1;
	dls_embed_master_options_init(&mo);
	mo.run = "collatz", mo.slaves = SLAVES, mo.workload = "collatz", mo.scheme = "gss";
	mo.on_result = on_result;
	if ((rc = dls_embed_master_start(&mo, &m, why, sizeof(why)))) {
		fprintf(stderr, "collatz: %s: %s\n", dls_strerror(rc), why);
		return 1;
	}
	dls_embed_slave_options_init(&so);
	so.run = "collatz";
	for (int i = 0; i < SLAVES; i++) {
		char name[16];

		snprintf(name, sizeof(name), "slave.%d", i);
		so.name = name; /* copied when the slave starts */
		if ((rc = dls_embed_slave_start(&so, &s[i], why, sizeof(why)))) {
			fprintf(stderr, "collatz: slave %d: %s: %s\n", i, dls_strerror(rc), why);
			return 1;
		}
	}
	for (int i = 0; i < SLAVES; i++)
		dls_embed_slave_wait(s[i], &st, why, sizeof(why));
	if ((rc = dls_embed_master_wait(m, NULL, why, sizeof(why))))
		fprintf(stderr, "collatz: the run failed: %s: %s\n", dls_strerror(rc), why);
	dls_orb_stop();
	for (uint64_t x = 1; x <= N; x++)
		sequential += steps(x);
	printf("collatz: %d iterations, %llu steps in all (%s the sequential loop)\n", N, total,
	       total == sequential ? "as" : "NOT as");
	return rc || total != sequential;
}
