/*
 * fuzz_twolevel.c - a two-level hmaster (hmaster.h, twolevel_internal.h) under
 * hostile children, without CORBA: its parent is a real master core in this
 * process (tu_master_parent); the fuzzer's bytes choose the run and script its children's
 * requests, submissions and losses with any id, capability, seq, A_i, range
 * and octets (fuzz_run.c; each child's first request is an honest one,
 * sent at once, so that the hmaster's start gate opens), then its living children finish honestly.
 * Invariants as fuzz_master.c, checked on the master's results: what the
 * hmaster lets through must still make an exact image.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "fuzz_run.h"
#include "hmaster.h"
#include "master.h"
#include "master_testutil.h"

struct tl {
	struct master *m;
	struct hmaster *h;
};

static int h_request(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why)
{
	return hmaster_request(((struct tl *)ctx)->h, r, 1, out, why);
}

static int h_submit(void *ctx, int id, uint64_t key, const struct dls_result *res, size_t n,
		    char *why)
{
	return hmaster_submit(((struct tl *)ctx)->h, id, key, res, n, why);
}

static uint64_t h_key(void *ctx, int id)
{
	return hmaster_child_key(((struct tl *)ctx)->h, id);
}

static int h_lost(void *ctx, int id)
{
	return hmaster_slave_lost(((struct tl *)ctx)->h, id, "fuzz");
}

static int h_snapshot(void *ctx, struct dls_status *out)
{
	return hmaster_snapshot(((struct tl *)ctx)->h, out);
}

static int h_done(void *ctx)
{
	return master_wait_done(((struct tl *)ctx)->m, 0) == DLS_OK;
}

static const struct result_store *h_results(void *ctx)
{
	return master_results(((struct tl *)ctx)->m);
}

static const struct fz_target twolevel_target = {h_request,  h_submit, h_key,	  h_lost,
						 NULL,	     h_snapshot, h_done, h_results};

struct reg {
	struct hmaster *h;
	double speed;
	int id, rc;
	uint64_t key;
	struct dls_reply first; /* the reply to its first request */
};

static void *register_one(void *arg)
{
	struct reg *g = arg;
	const char *names[] = {"s"};
	struct dls_job job;
	double vp;
	char why[HMASTER_WHY_LEN];

	g->rc = hmaster_register(g->h, 0, names, &g->speed, 1, &g->id, &g->key, &vp, &job, why);
	if (g->rc != DLS_OK) {
		fz_trace("child of speed %g: %s\n", g->speed, why);
		g->speed = 1;
		g->rc =
		    hmaster_register(g->h, 0, names, &g->speed, 1, &g->id, &g->key, &vp, &job, why);
	}
	/* every child asks once, at once: the hmaster's start gate opens on the last */
	if (g->rc == DLS_OK) {
		struct dls_request q;

		memset(&q, 0, sizeof(q));
		q.slave_id = g->id;
		q.key = g->key;
		q.seq = 1;
		q.acp = 1;
		g->rc = hmaster_request(g->h, &q, 1, &g->first, why);
	}
	if (g->rc != DLS_OK)
		fz_trace("child: %s\n", why);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum sched_kind kinds[] = {SCHED_DTSS, SCHED_DFSS, SCHED_DFISS, SCHED_DTFSS};
	struct fz f = {data, size};
	struct master_config c;
	struct hmaster_parent ops;
	struct tl tl;
	struct fz_run run;
	struct reg regs[FZ_MAX_SLAVES];
	pthread_t tid[FZ_MAX_SLAVES];
	int n = 1 + (int)fz_pick(&f, FZ_MAX_SLAVES), err;
	int32_t width = 1 + (int32_t)fz_pick(&f, 96);

	fz_setup();
	tu_master_config(&c, kinds[fz_pick(&f, 4)], 1, width, 1 + (int32_t)fz_pick(&f, 3), 1000);
	tu_set_maxit(&c, 1 + (int32_t)fz_pick(&f, 64));
	c.order = (enum iter_order_mode)fz_pick(&f, 2);
	c.start_timeout_ms = 0;
	tl.m = master_create(&c, &err, NULL);
	if (!tl.m)
		return 0; /* a loop the scheme cannot split */
	ops = tu_master_parent(tl.m);
	tl.h = hmaster_create("h", HMASTER_TWOLEVEL, n, 2000, 0, &ops, &err);
	FZ_ASSERT(tl.h);
	for (int i = 0; i < n; i++) {
		memset(&regs[i], 0, sizeof(regs[i]));
		regs[i].h = tl.h;
		regs[i].speed = fz_u8(&f) & 1 ? fz_double(&f) : 1 + fz_pick(&f, 4);
		FZ_ASSERT(pthread_create(&tid[i], NULL, register_one, &regs[i]) == 0);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		FZ_ASSERT(regs[i].rc == DLS_OK && regs[i].id >= 0 && regs[i].id < n);
	}
	fz_run_init(&run, &twolevel_target, &tl, c.workload, c.params, (size_t)c.nparams, c.order,
		    n);
	for (int i = 0; i < n; i++)
		fz_run_replied(&run, regs[i].id, 1, &regs[i].first);
	fz_run_script(&run, &f);
	fz_run_finish(&run);
	fz_run_free(&run);
	hmaster_destroy(tl.h);
	master_destroy(tl.m);
	return 0;
}
