/*
 * fuzz_coordinator.c - Tree Scheduling's coordinator (coordinator.h) under
 * hostile calls, without CORBA: the fuzzer's bytes choose a run (loop,
 * order, allocation, gamma, slaves and the speeds they claim), then script
 * reports, migration notices and losses with any id, capability, range,
 * stride and result octets.  Then every living slave reports honestly what
 * the coordinator lets it report, one iteration at a time.
 *
 * Invariants: no crash or sanitizer report; an accepted report lies in the
 * loop with exactly its octets; a repair names ranges in the loop and a
 * living slave; the status adds up; while a slave lives, every iteration
 * can still be delivered by one (no work orphaned), so the run ends; the
 * results are ones the workload accepts, and the kernel's when no lie was
 * taken.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coordinator.h"
#include "dls/err.h"
#include "fuzz_run.h"
#include "master_testutil.h"

struct reg {
	struct coordinator *c;
	double speed;
	int id, rc;
	struct coordinator_place place;
};

/* A slave registering: its claimed speed, else (refused) an honest one. */
static void *register_one(void *arg)
{
	struct reg *g = arg;
	char why[COORDINATOR_WHY_LEN];

	g->rc = coordinator_register(g->c, "s", g->speed, NULL, &g->id, &g->place, why);
	if (g->rc != DLS_OK)
		g->rc = coordinator_register(g->c, "s", 1.0, NULL, &g->id, &g->place, why);
	return NULL;
}

static uint64_t key_of(void *ctx, int id)
{
	return coordinator_child_key(ctx, id);
}

static void check_repair(struct fz_run *r, struct coordinator *c,
			 const struct coordinator_repair *rep)
{
	if (rep->to < 0)
		return;
	FZ_ASSERT(rep->to < r->n && !r->s[rep->to].lost);
	FZ_ASSERT(coordinator_child_key(c, rep->to) != 0);
	for (size_t k = 0; k < rep->nranges; k++)
		FZ_ASSERT(rep->ranges[k].count >= 1 &&
			  fz_inside(r, rep->ranges[k].start, rep->ranges[k].count));
}

static void script(struct fz_run *r, struct coordinator *c, struct fz *f)
{
	struct dls_times t = {0};
	char why[COORDINATOR_WHY_LEN];

	for (int k = 0; k < 256 && fz_left(f); k++) {
		int id = fz_id(f, r->n);
		uint64_t key = fz_key(f, key_of, c, id, r->n);
		struct coordinator_repair rep;
		struct fz_blocks bl;
		struct dls_status st;

		switch (fz_pick(f, 7)) {
		case 0:
		case 1:
		case 2:
			fz_blocks_make(r, f, id, &bl);
			if (coordinator_report(c, id, key, bl.b, bl.n, &t, why) == DLS_OK)
				fz_blocks_accepted(r, &bl);
			fz_blocks_free(&bl);
			break;
		case 3: {
			int to = fz_id(f, r->n);
			int64_t start = fz_i64_near(f, (int64_t)fz_pick(f, (uint32_t)r->iterations));
			int64_t count = fz_i64_near(f, 2), stride = fz_i64_near(f, 1);

			if (coordinator_migrated(c, id, key, to, start, count, stride, &rep, why) ==
			    DLS_OK) {
				FZ_ASSERT(to >= 0 && to < r->n && to != id);
				FZ_ASSERT(start >= 0 && count >= 1 && stride >= 1);
				FZ_ASSERT((count - 1) <= (r->iterations - 1 - start) / stride);
				check_repair(r, c, &rep);
			}
			coordinator_repair_free(&rep);
			break;
		}
		case 4:
			if (coordinator_lost(c, id, "fuzz", &rep) == DLS_OK) {
				FZ_ASSERT(id >= 0 && id < r->n && !r->s[id].lost);
				r->s[id].lost = 1;
				check_repair(r, c, &rep);
			}
			coordinator_repair_free(&rep);
			break;
		case 5: { /* Coordinator::peer: only a slave of a pile run, only ids placed */
			int peer = fz_id(f, r->n), lost;
			uint64_t pk;

			if (coordinator_peer(c, id, key, peer, &pk, &lost, why) == DLS_OK) {
				FZ_ASSERT(coordinator_piles(coordinator_config_of(c)));
				FZ_ASSERT(id >= 0 && id < r->n && !r->s[id].lost);
				FZ_ASSERT(key == coordinator_child_key(c, id));
				FZ_ASSERT(peer >= 0 && peer < r->n);
				FZ_ASSERT(lost == r->s[peer].lost);
				FZ_ASSERT(lost ? pk == 0 : pk == coordinator_peer_key(c, peer));
			}
			break;
		}
		default:
			memset(&st, 0, sizeof(st));
			FZ_ASSERT(coordinator_snapshot(c, &st) == DLS_OK);
			fz_check_status(&st);
		}
	}
}

/* Every undelivered iteration, reported by the first living slave the coordinator lets. */
static void finish(struct fz_run *r, struct coordinator *c)
{
	const struct result_store *rs = coordinator_results(c);
	struct dls_times t = {0};
	char why[COORDINATOR_WHY_LEN];
	int living = 0;

	for (int s = 0; s < r->n; s++)
		living += !r->s[s].lost;
	if (!living)
		return;
	for (int64_t i = 0; i < r->iterations; i++) {
		struct dls_result b = {i, 1, r->ref + (size_t)i * r->rb, r->rb, 0};
		int took = rs->ledger.state[i] == 1;

		for (int s = 0; s < r->n && !took; s++)
			took = !r->s[s].lost && coordinator_report(c, s, coordinator_child_key(c, s),
								   &b, 1, &t, why) == DLS_OK;
		if (!took) {
			fprintf(stderr, "iteration %lld: no living slave may deliver it\n",
				(long long)i);
			FZ_ASSERT(!"no work is orphaned while a slave lives");
		}
	}
	FZ_ASSERT(coordinator_wait_done(c, 0) == DLS_OK);
	fz_check_results(r, rs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = {data, size};
	struct coordinator_config cfg;
	struct coordinator *c;
	struct reg regs[FZ_MAX_SLAVES];
	pthread_t tid[FZ_MAX_SLAVES];
	struct fz_run r;
	int err;
	char why[COORDINATOR_WHY_LEN];
	int32_t width = 1 + (int32_t)fz_pick(&f, 96);

	fz_setup();
	memset(&cfg, 0, sizeof(cfg));
	strcpy(cfg.run_name, "t");
	strcpy(cfg.workload, "mandelbrot");
	cfg.nslaves = 1 + (int)fz_pick(&f, FZ_MAX_SLAVES);
	tu_mandel_params(cfg.params, &cfg.nparams, width, 1 + (int32_t)fz_pick(&f, 3),
			 1 + (int32_t)fz_pick(&f, 64));
	cfg.order = (enum iter_order_mode)fz_pick(&f, 2);
	cfg.alloc = (enum tree_alloc)fz_pick(&f, 3);
	cfg.gamma = (enum tree_gamma)fz_pick(&f, 3);
	cfg.bidirectional = fz_pick(&f, 2);
	if (width & 1) { /* half the runs balance by workpile: the slaves' peer() */
		strcpy(cfg.policy, "workpile");
		pile_params_init(&cfg.pile);
	}
	cfg.register_timeout_ms = 5000;
	c = coordinator_create(&cfg, &err, why);
	FZ_ASSERT(c != NULL);
	for (int i = 0; i < cfg.nslaves; i++) {
		memset(&regs[i], 0, sizeof(regs[i]));
		regs[i].c = c;
		regs[i].speed = fz_u8(&f) & 1 ? fz_double(&f) : 1 + fz_pick(&f, 8);
		FZ_ASSERT(pthread_create(&tid[i], NULL, register_one, &regs[i]) == 0);
	}
	for (int i = 0; i < cfg.nslaves; i++)
		pthread_join(tid[i], NULL);
	fz_run_init(&r, NULL, c, cfg.workload, cfg.params, (size_t)cfg.nparams, cfg.order,
		    cfg.nslaves);
	for (int i = 0; i < cfg.nslaves; i++) {
		const struct coordinator_place *p = &regs[i].place;
		struct fz_slave *s;

		FZ_ASSERT(regs[i].rc == DLS_OK && regs[i].id >= 0 && regs[i].id < cfg.nslaves);
		s = &r.s[regs[i].id];
		/* round-robin placement gives a slave with nothing start -1 */
		FZ_ASSERT(p->count >= 0 && p->stride >= 1 && (p->start >= 0 || p->count == 0));
		if (p->stride == 1) { /* what it holds, for the script's honest reports */
			s->start[s->nheld] = p->start;
			s->count[s->nheld++] = p->count;
		}
	}
	script(&r, c, &f);
	finish(&r, c);
	fz_run_free(&r);
	coordinator_destroy(c);
	return 0;
}
