/*
 * fuzz_master.c - the master's core (master.h) under hostile calls, without
 * CORBA: a fuzzer's bytes choose a run (scheme, slaves, loop, order,
 * collection) and the speeds its slaves register, then script requests,
 * submissions, losses and rejoins with any id, capability, seq, A_i, range
 * and result octets.  Then the surviving slaves finish the run honestly.
 *
 * Invariants (a broken one aborts): no crash or sanitizer report; every
 * WORK reply inside the loop; every accepted result block inside the loop
 * with exactly its octets; a status that adds up; a run with a living slave
 * ends; every delivered count is one Mandelbrot can return; and when no
 * lying result was accepted, the results are the sequential kernel's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "fuzz_run.h"
#include "master.h"
#include "master_testutil.h"

static void pick_config(struct fz *f, struct master_config *c)
{
	int n = 1 + (int)fz_pick(f, FZ_MAX_SLAVES);
	int32_t width = 1 + (int32_t)fz_pick(f, 96), height = 1 + (int32_t)fz_pick(f, 4);

	tu_master_config(c, (enum sched_kind)fz_pick(f, SCHED_KIND_COUNT), n, width, height, 1000);
	c->start_timeout_ms = 0;
	tu_set_maxit(c, 1 + (int32_t)fz_pick(f, 64));
	c->sched.profile = (enum sched_profile)fz_pick(f, 2);
	c->order = (enum iter_order_mode)fz_pick(f, 2);
	c->collect = (enum dls_collect)fz_pick(f, 2);
	c->wait_ms = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = {data, size};
	struct master_config c;
	struct master *m;
	struct fz_run run;
	const char *names[FZ_MAX_SLAVES] = {"a", "b", "c", "d"};
	double speeds[FZ_MAX_SLAVES], v[FZ_MAX_SLAVES];
	uint64_t keys[FZ_MAX_SLAVES];
	int ids[FZ_MAX_SLAVES], err;
	char why[MASTER_WHY_LEN];

	fz_setup();
	pick_config(&f, &c);
	m = master_create(&c, &err, why);
	if (!m) { /* some schemes cannot split a loop shorter than their slaves */
		FZ_ASSERT(err == DLS_EINVAL && strstr(why, "cannot run"));
		return 0;
	}
	/* hostile speeds first: refused, or accepted as a sane ratio */
	for (int i = 0; i < c.nslaves; i++)
		speeds[i] = fz_u8(&f) & 1 ? fz_double(&f) : 1 + fz_pick(&f, 8);
	if (master_register_group(m, 0, names, speeds, (size_t)c.nslaves, ids, keys, v, why) !=
	    DLS_OK) {
		for (int i = 0; i < c.nslaves; i++)
			speeds[i] = 1 + i;
		FZ_ASSERT(master_register_group(m, 0, names, speeds, (size_t)c.nslaves, ids, keys,
						v, why) == DLS_OK);
	}
	for (int i = 0; i < c.nslaves; i++)
		FZ_ASSERT(ids[i] == i && v[i] > 0 && v[i] < 1e9);
	fz_run_init(&run, &fz_master_target, m, c.workload, c.params, (size_t)c.nparams, c.order,
		    c.nslaves);
	fz_run_script(&run, &f);
	fz_run_finish(&run);
	fz_run_free(&run);
	master_destroy(m);
	return 0;
}
