/*
 * fuzz_tree_slave.c - a Tree Scheduling slave (slave_tree.h) under hostile
 * neighbours, without CORBA: the fuzzer's bytes place it (its range, stride,
 * neighbours, gamma; or a workpile or roc placement) and then, while it
 * computes in its own thread, send it transfers of any range, demands,
 * neighbour changes, policy messages from anyone and the turn to a next
 * loop (end_loop, then next_loop with a new placement); then stop.  Its
 * coordinator and neighbours are this file.
 *
 * Invariants: no crash, hang or sanitizer report; every result it reports
 * is the kernel's, of the loop it was placed in last, for an iteration it
 * was given in that loop, with exactly its octets; every hand-over it
 * announces (migrated) and sends (transfer) lies in the loop and in what
 * it was given there; once end_loop returned, nothing of the loop ended
 * reaches the coordinator or a neighbour; it stops when told.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "slave.h"
#include "fuzz_run.h"
#include "master_testutil.h"
#include "slave_placed.h"
#include "tree_migrate.h"
#include "work.h"

struct world {
	struct fz_run ref;	 /* the loop and its reference results */
	struct placement a; /* the placement */
	pthread_mutex_t lock;
	uint8_t *given; /* by iteration: handed to the slave in the current loop */
	uint32_t loop;	/* the loop it was placed in last (under lock) */
	struct slave_placed *t;
	struct slave_config cfg;
	int rc;
};

static void check_given(struct world *w, int64_t start, int64_t count, int64_t stride)
{
	FZ_ASSERT(tree_migrate_range_ok(start, count, stride, w->ref.iterations));
	pthread_mutex_lock(&w->lock);
	for (int64_t j = 0; j < count; j++)
		FZ_ASSERT(w->given[start + j * stride]);
	pthread_mutex_unlock(&w->lock);
}

static void give(struct world *w, int64_t start, int64_t count, int64_t stride)
{
	pthread_mutex_lock(&w->lock);
	for (int64_t j = 0; j < count; j++)
		w->given[start + j * stride] = 1;
	pthread_mutex_unlock(&w->lock);
}

static int op_register(void *ctx, const char *name, double speed, struct placement *a,
		       char *why, size_t len)
{
	struct world *w = ctx;

	(void)name, (void)why, (void)len;
	FZ_ASSERT(speed > 0);
	*a = w->a;
	return DLS_OK;
}

static int op_report(void *ctx, int id, const struct dls_result *res, size_t n,
		     const struct dls_times *times, char *why, size_t len)
{
	struct world *w = ctx;

	(void)times, (void)why, (void)len;
	FZ_ASSERT(id == w->a.id);
	for (size_t b = 0; b < n; b++) {
		pthread_mutex_lock(&w->lock);
		FZ_ASSERT(res[b].loop == w->loop);
		pthread_mutex_unlock(&w->lock);
		FZ_ASSERT(res[b].count >= 1 && fz_inside(&w->ref, res[b].start, res[b].count));
		FZ_ASSERT(res[b].nbytes == (size_t)res[b].count * w->ref.rb);
		check_given(w, res[b].start, res[b].count, 1);
		FZ_ASSERT(memcmp(res[b].data, w->ref.ref + (size_t)res[b].start * w->ref.rb,
				 res[b].nbytes) == 0);
	}
	return DLS_OK;
}

static int op_migrated(void *ctx, int from, int to, int64_t start, int64_t count, int64_t stride,
		       char *why, size_t len)
{
	struct world *w = ctx;

	(void)to, (void)why, (void)len;
	FZ_ASSERT(from == w->a.id);
	check_given(w, start, count, stride);
	return DLS_OK;
}

static int op_demand(void *ctx, enum tree_side side, int from, char *why, size_t len)
{
	(void)ctx, (void)side, (void)from, (void)why, (void)len;
	return DLS_OK;
}

static int op_transfer(void *ctx, enum tree_side side, int from, int64_t start, int64_t count,
		       int64_t stride, char *why, size_t len)
{
	struct world *w = ctx;

	(void)side, (void)why, (void)len;
	FZ_ASSERT(from == w->a.id);
	check_given(w, start, count, stride);
	return DLS_OK;
}

/* workpile and roc: a message to another slave of the run */
static int op_balance(void *ctx, int to, int from, const struct pile_msg *m, char *why,
		      size_t len)
{
	struct world *w = ctx;

	(void)m, (void)why, (void)len;
	FZ_ASSERT(from == w->a.id && to != from && to >= 0 && to < w->a.npes);
	return DLS_OK;
}

/* ... and work handed to one: announced first (op_migrated), its own */
static int op_give(void *ctx, int to, int from, int64_t start, int64_t count, int64_t stride,
		   char *why, size_t len)
{
	struct world *w = ctx;

	(void)why, (void)len;
	FZ_ASSERT(from == w->a.id && to != from && to >= 0 && to < w->a.npes);
	check_given(w, start, count, stride);
	return DLS_OK;
}

static void *run_slave(void *arg)
{
	struct world *w = arg;
	struct placed_ops ops = {w,		op_register, op_report, op_migrated,
				     op_demand, op_transfer, NULL, NULL, op_balance, op_give};
	struct dls_slave_stats st;
	struct placed_stats ts = {0, 0, 0, 0};
	char why[256];

	w->rc = slave_placed_run(w->t, &w->cfg, &ops, &st, &ts, why, sizeof(why));
	return NULL;
}

static void place(struct world *w, struct fz *f)
{
	struct placement *a = &w->a;
	int32_t width = 1 + (int32_t)fz_pick(f, 96), height = 1 + (int32_t)fz_pick(f, 3);

	memset(a, 0, sizeof(*a));
	a->id = (int)fz_pick(f, 4);
	a->vpower = 1;
	tu_mandel_job(&a->job, width, height, 1 + (int32_t)fz_pick(f, 64));
	a->job.order = (int)fz_pick(f, 2);
	a->stride = 1 + (int64_t)fz_pick(f, 4);
	a->start = (int64_t)fz_pick(f, (uint32_t)width);
	a->count = (width - 1 - a->start) / a->stride + 1;
	a->count = fz_pick(f, (uint32_t)a->count + 1);
	a->tau = 1 + fz_pick(f, 4);
	a->left_id = (int)fz_pick(f, 6) - 1;
	a->right_id = (int)fz_pick(f, 6) - 1;
	a->left_tau = fz_double(f);
	a->right_tau = fz_double(f);
	a->gamma = (int)fz_pick(f, 3);
	a->bidirectional = fz_pick(f, 2);
	a->report_interval = fz_pick(f, 2) ? 0 : 1e-4;
	/* versions 6-7: under workpile, roc or ripple three times in four, with
	 * fast timers */
	pile_params_init(&a->pile);
	a->pile.interval_s = 1e-4;
	a->pile.backoff_s = 1e-5;
	a->pile.step_s = 1e-4;
	a->pile.pass_min = (double)fz_pick(f, 3) / 2;
	a->pile.ht = (int64_t)fz_pick(f, 8);
	a->pile.lt = a->pile.ct = 0;
	a->npes = a->id + 1 + (int)fz_pick(f, 4);
	switch (fz_pick(f, 4)) {
	case 0:
		a->piles = 1;
		a->policy = PILE_WORKPILE;
		break;
	case 1:
		a->piles = 1;
		a->policy = PILE_ROC;
		break;
	case 2:
		a->piles = 1;
		a->policy = PILE_RIPPLE;
		break;
	default:
		break;
	}
}

/* The turn to the next loop: the slave ends the current one (nothing of
 * it may arrive after), what it was given is forgotten, and it is placed
 * for the next (the same job but dls.loop, a new first range). */
static void next_loop(struct world *w, struct fz *f)
{
	struct placement a = w->a;
	int64_t width = w->ref.iterations;
	char why[256];
	int rc;

	FZ_ASSERT(slave_placed_end_loop(w->t, w->loop) == DLS_OK);
	pthread_mutex_lock(&w->lock);
	memset(w->given, 0, (size_t)width);
	w->loop++;
	pthread_mutex_unlock(&w->lock);
	FZ_ASSERT(work_params_set_loop(a.job.params, &a.job.nparams, w->loop) == DLS_OK);
	a.start = (int64_t)fz_pick(f, (uint32_t)width);
	a.count = fz_pick(f, (uint32_t)((width - 1 - a.start) / a.stride + 1) + 1);
	give(w, a.start, a.count, a.stride);
	rc = slave_placed_next_loop(w->t, &a, why, sizeof(why));
	if (rc) /* the reason, before the broken invariant's line */
		fprintf(stderr, "next_loop refused: %s\n", why);
	FZ_ASSERT(rc == DLS_OK);
	w->a = a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = {data, size};
	struct world w;
	pthread_t tid;
	char why[256];

	fz_setup();
	memset(&w, 0, sizeof(w));
	place(&w, &f);
	fz_run_init(&w.ref, NULL, NULL, w.a.job.workload, w.a.job.params, (size_t)w.a.job.nparams,
		    (enum iter_order_mode)w.a.job.order, 1);
	pthread_mutex_init(&w.lock, NULL);
	w.given = calloc((size_t)w.ref.iterations, 1);
	FZ_ASSERT(w.given);
	give(&w, w.a.start, w.a.count, w.a.stride);
	slave_config_init(&w.cfg);
	w.cfg.t_iter_ns = 1;
	w.t = slave_placed_create();
	FZ_ASSERT(w.t);
	FZ_ASSERT(pthread_create(&tid, NULL, run_slave, &w) == 0);
	for (int k = 0; k < 64 && fz_left(&f); k++) {
		int from = (int)fz_i64_near(&f, 0);

		switch (fz_pick(&f, 6)) {
		case 5:
			next_loop(&w, &f);
			break;
		case 4: { /* a policy message from anyone, any values */
			struct pile_msg m = {(int)fz_i64_near(&f, 0), from, w.a.id,
					     fz_i64_near(&f, 3), fz_i64_near(&f, 3),
					     fz_i64_near(&f, 0), fz_i64_near(&f, 1)};

			slave_placed_on_balance(w.t, from, &m);
			break;
		}
		case 0:
		case 1: {
			int64_t start = fz_i64_near(&f, (int64_t)fz_pick(&f, 100));
			int64_t count = fz_i64_near(&f, 2), stride = fz_i64_near(&f, 1);
			int ok = tree_migrate_range_ok(start, count, stride, w.ref.iterations);

			if (ok) /* given before it can be reported */
				give(&w, start, count, stride);
			if (slave_placed_on_transfer(w.t, from, start, count, stride, why,
						   sizeof(why)) == DLS_OK)
				FZ_ASSERT(ok);
			break;
		}
		case 2:
			slave_placed_on_demand(w.t, from);
			break;
		default:
			slave_placed_on_neighbours(w.t, (int)fz_i64_near(&f, 0), fz_double(&f),
						 (int)fz_i64_near(&f, 1), fz_double(&f));
		}
	}
	slave_placed_on_stop(w.t);
	pthread_join(tid, NULL);
	FZ_ASSERT(w.rc == DLS_OK);
	slave_placed_destroy(w.t);
	free(w.given);
	pthread_mutex_destroy(&w.lock);
	fz_run_free(&w.ref);
	return 0;
}
