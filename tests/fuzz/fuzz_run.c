/*
 * fuzz_run.c - see fuzz_run.h.
 */
#include "fuzz_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"

#define MAX_BLOCK_BYTES 4096
#define MAX_OPS 256

static void trace_blocks(const struct dls_result *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fz_trace(" [%lld+%lld %zuB]", (long long)b[i].start, (long long)b[i].count, b[i].nbytes);
}

void fz_run_init(struct fz_run *r, const struct fz_target *t, void *ctx, const char *workload,
		 const struct dls_param *params, size_t nparams, enum iter_order_mode order,
		 int nslaves)
{
	char why[FZ_WHY_LEN];
	uint64_t cost = 0, *costs;

	memset(r, 0, sizeof(*r));
	r->t = t;
	r->ctx = ctx;
	r->n = nslaves;
	FZ_ASSERT(work_open(&r->wk, workload, params, nparams, order, why, sizeof(why)) == DLS_OK);
	r->iterations = r->wk.loop.iterations;
	r->rb = r->wk.loop.result_bytes;
	r->ref = malloc((size_t)r->iterations * r->rb);
	r->ref_idx = malloc((size_t)r->iterations * r->rb);
	FZ_ASSERT(r->ref && r->ref_idx);
	FZ_ASSERT(work_compute(&r->wk, 0, r->iterations, r->ref, &cost, why, sizeof(why)) == DLS_OK);
	costs = malloc((size_t)r->iterations * sizeof(*costs));
	FZ_ASSERT(costs);
	FZ_ASSERT(work_sequential(&r->wk, r->ref_idx, costs, why, sizeof(why)) == DLS_OK);
	free(costs);
}

void fz_run_free(struct fz_run *r)
{
	work_close(&r->wk);
	free(r->ref);
	free(r->ref_idx);
}

/* fz_inside: [start, start + count) inside the loop, computed without overflow. */
int fz_inside(const struct fz_run *r, int64_t start, int64_t count)
{
	return start >= 0 && count >= 0 && start <= r->iterations && count <= r->iterations - start;
}

void fz_blocks_free(struct fz_blocks *bl)
{
	for (size_t i = 0; i < bl->n; i++)
		free(bl->buf[i]);
	bl->n = 0;
}

/* A range slave s holds (whole or part), or any range. */
static void pick_range(struct fz_run *r, struct fz *f, int s, int64_t *start, int64_t *count)
{
	if (s >= 0 && s < r->n && r->s[s].nheld > 0 && fz_u8(f) < 200) {
		int h = (int)fz_pick(f, (uint32_t)r->s[s].nheld);

		*start = r->s[s].start[h];
		*count = r->s[s].count[h];
		if (fz_u8(f) < 64 && *count > 1) { /* a part of it */
			int64_t skip = (int64_t)fz_pick(f, (uint32_t)(*count < 256 ? *count : 256));

			*start += skip;
			*count -= skip;
			*count = 1 + (int64_t)fz_pick(f, (uint32_t)(*count < 256 ? *count : 256));
		}
		return;
	}
	*start = fz_i64_near(f, (int64_t)fz_pick(f, (uint32_t)r->iterations + 1));
	*count = fz_i64_near(f, 1 + (int64_t)fz_pick(f, 8));
}

void fz_blocks_make(struct fz_run *r, struct fz *f, int s, struct fz_blocks *bl)
{
	bl->n = fz_pick(f, FZ_MAX_BLOCKS + 1);
	for (size_t i = 0; i < bl->n; i++) {
		int64_t start, count;
		size_t len;
		int honest = fz_u8(f) < 170;

		pick_range(r, f, s, &start, &count);
		if (honest && fz_inside(r, start, count) && (uint64_t)count * r->rb <= MAX_BLOCK_BYTES) {
			len = (size_t)count * r->rb;
			bl->buf[i] = malloc(len ? len : 1);
			FZ_ASSERT(bl->buf[i]);
			memcpy(bl->buf[i], r->ref + (size_t)start * r->rb, len);
			bl->lie[i] = 0;
		} else {
			if (fz_inside(r, start, count) && (uint64_t)count * r->rb <= MAX_BLOCK_BYTES &&
			    fz_u8(f) < 128)
				len = (size_t)count * r->rb; /* the right size, octets from the input */
			else
				len = fz_pick(f, 512);
			bl->buf[i] = malloc(len ? len : 1);
			FZ_ASSERT(bl->buf[i]);
			fz_bytes(f, bl->buf[i], len);
			bl->lie[i] = !fz_inside(r, start, count) || len != (size_t)count * r->rb ||
				     memcmp(bl->buf[i], r->ref + (size_t)start * r->rb, len) != 0;
		}
		bl->b[i].start = start;
		bl->b[i].count = count;
		bl->b[i].data = bl->buf[i];
		bl->b[i].nbytes = len;
		/* a run of one loop: a liar may name another loop (refused) */
		bl->b[i].loop = !bl->lie[i] || fz_u8(f) < 224 ? 0 : 1 + fz_pick(f, 1000);
	}
}

void fz_blocks_accepted(struct fz_run *r, const struct fz_blocks *bl)
{
	for (size_t i = 0; i < bl->n; i++) {
		FZ_ASSERT(fz_inside(r, bl->b[i].start, bl->b[i].count));
		FZ_ASSERT(bl->b[i].nbytes == (size_t)bl->b[i].count * r->rb);
		r->lied |= bl->lie[i];
	}
}

static void hold(struct fz_slave *s, int64_t start, int64_t count)
{
	for (int i = 0; i < s->nheld; i++)
		if (s->start[i] == start && s->count[i] == count)
			return;
	if (s->nheld < FZ_MAX_HELD) {
		s->start[s->nheld] = start;
		s->count[s->nheld++] = count;
	}
}

/* A call of real slave id was taken: one declared lost was taken back
 * (PROTOCOL.md 8), and finishes the run with the others. */
static void taken(struct fz_run *r, int id)
{
	if (id >= 0 && id < r->n)
		r->s[id].lost = 0;
}

void fz_run_replied(struct fz_run *r, int id, uint32_t seq, const struct dls_reply *rep)
{
	FZ_ASSERT(rep->kind == DLS_REPLY_WORK || rep->kind == DLS_REPLY_WAIT ||
		  rep->kind == DLS_REPLY_DONE);
	if (rep->kind == DLS_REPLY_WORK) {
		FZ_ASSERT(rep->count >= 1 && fz_inside(r, rep->start, rep->count));
	}
	if (id < 0 || id >= r->n)
		return;
	if (!r->s[id].answered || seq != r->s[id].seq) {
		r->s[id].prev_seq = r->s[id].seq;
		r->s[id].prev_answered = r->s[id].answered;
	}
	r->s[id].seq = seq;
	r->s[id].answered = 1;
	if (rep->kind == DLS_REPLY_WORK)
		hold(&r->s[id], rep->start, rep->count);
	r->s[id].done = rep->kind == DLS_REPLY_DONE;
}

/* Chunk times as a slave reports them: sane, junk (NaN, negative, a range
 * outside the loop) or too many. */
static void fuzz_measured(struct fz *f, struct dls_chunk_time *mt, size_t cap,
			  struct dls_request *q)
{
	q->nmeasured = fz_pick(f, (uint32_t)cap + 1);
	for (size_t k = 0; k < q->nmeasured; k++) {
		int sane = fz_u8(f) < 160;

		mt[k].start = sane ? (int64_t)fz_pick(f, 64) : fz_i64(f);
		mt[k].count = sane ? 1 + (int64_t)fz_pick(f, 16) : fz_i64(f);
		mt[k].compute_s = sane ? 1e-3 * (1 + fz_pick(f, 1000)) : fz_double(f);
		mt[k].elapsed_s = sane ? mt[k].compute_s * (1 + fz_pick(f, 3)) : fz_double(f);
	}
	q->measured = mt;
}

static void op_request(struct fz_run *r, struct fz *f)
{
	struct dls_chunk_time mt[DLS_MAX_MEASURED + 2];
	struct dls_request q;
	struct dls_reply rep;
	struct fz_blocks bl;
	char why[FZ_WHY_LEN];
	int id = fz_id(f, r->n);
	uint32_t known = id >= 0 && id < r->n ? r->s[id].seq : 0;
	uint8_t sel = fz_u8(f);
	int retry;

	memset(&q, 0, sizeof(q));
	q.slave_id = id;
	q.key = fz_key(f, r->t->key, r->ctx, id, r->n);
	q.seq = sel < 160 ? known + 1 : sel < 200 ? known : sel < 216 ? known - 1 : fz_u32(f);
	q.second = fz_u8(f) < 48; /* a second request on its way (PROTOCOL.md 5) */
	q.acp = fz_u8(f) < 200 ? 1 + (int64_t)fz_pick(f, 8) : fz_i64(f);
	if (fz_u8(f) < 32) {
		q.times.t_comp = fz_double(f);
		q.times.t_comwait = fz_double(f);
		q.times.emul_error = fz_double(f);
		q.times.late_chunks = fz_i64(f);
	}
	if (fz_u8(f) < 64)
		fuzz_measured(f, mt, sizeof(mt) / sizeof(mt[0]), &q);
	fz_blocks_make(r, f, id, &bl);
	q.results = bl.b;
	q.nresults = bl.n;
	fz_trace("request id %d seq %u acp %lld%s", id, q.seq, (long long)q.acp,
		 q.second ? " second" : "");
	trace_blocks(bl.b, bl.n);
	/* a retry (a seq of the last two answered) gets its first reply; its
	 * results are not read */
	retry = id >= 0 && id < r->n &&
		((q.seq == known && r->s[id].answered) ||
		 (q.seq == r->s[id].prev_seq && r->s[id].prev_answered));
	if (r->t->request(r->ctx, &q, &rep, why) == DLS_OK) {
		fz_trace(" -> %d %lld+%lld depth %d\n", (int)rep.kind, (long long)rep.start,
			 (long long)rep.count, rep.depth);
		FZ_ASSERT(rep.depth >= 0 && rep.depth <= 2); /* 0 reads as 1 */
		if (!retry)
			fz_blocks_accepted(r, &bl);
		if (!retry || q.seq == known)
			fz_run_replied(r, id, q.seq, &rep);
		taken(r, id);
	} else {
		fz_trace(" -> refused: %s\n", why);
	}
	fz_blocks_free(&bl);
}

static void op_submit(struct fz_run *r, struct fz *f)
{
	struct fz_blocks bl;
	char why[FZ_WHY_LEN];
	int id = fz_id(f, r->n);
	uint64_t key = fz_key(f, r->t->key, r->ctx, id, r->n);

	fz_blocks_make(r, f, id, &bl);
	fz_trace("submit id %d", id);
	trace_blocks(bl.b, bl.n);
	if (r->t->submit(r->ctx, id, key, bl.b, bl.n, why) == DLS_OK) {
		fz_trace(" -> ok\n");
		fz_blocks_accepted(r, &bl);
		taken(r, id);
	} else {
		fz_trace(" -> refused: %s\n", why);
	}
	fz_blocks_free(&bl);
}

static void op_lost(struct fz_run *r, struct fz *f)
{
	int id = fz_id(f, r->n);

	fz_trace("lost id %d\n", id);
	if (r->t->lost(r->ctx, id) == DLS_OK) {
		FZ_ASSERT(id >= 0 && id < r->n);
		r->s[id].lost = 1;
	}
}

static void op_rejoin(struct fz_run *r, struct fz *f)
{
	char why[FZ_WHY_LEN];
	int id = fz_id(f, r->n);

	if (r->t->rejoin && r->t->rejoin(r->ctx, id, fz_key(f, r->t->key, r->ctx, id, r->n), why) ==
				    DLS_OK)
		taken(r, id);
}

void fz_check_status(struct dls_status *st)
{
	int64_t held = 0;

	FZ_ASSERT(st->delivered >= 0 && st->delivered <= st->iterations);
	FZ_ASSERT(st->assigned >= 0 && st->requeued >= 0);
	FZ_ASSERT(st->nslaves >= 0 && st->nslaves <= FZ_MAX_SLAVES);
	for (int i = 0; i < st->nslaves; i++) {
		FZ_ASSERT(st->slaves[i].held >= 0 && st->slaves[i].iterations >= 0);
		held += st->slaves[i].held;
	}
	FZ_ASSERT(held <= st->iterations);
	dls_status_free(st);
}

static void check_snapshot(struct fz_run *r)
{
	struct dls_status st;

	memset(&st, 0, sizeof(st));
	FZ_ASSERT(r->t->snapshot(r->ctx, &st) == DLS_OK);
	fz_check_status(&st);
}

void fz_run_script(struct fz_run *r, struct fz *f)
{
	for (int k = 0; k < MAX_OPS && fz_left(f); k++) {
		switch (fz_pick(f, 8)) {
		case 0:
		case 1:
		case 2:
		case 3:
			op_request(r, f);
			break;
		case 4:
		case 5:
			op_submit(r, f);
			break;
		case 6:
			op_lost(r, f);
			break;
		default:
			if (fz_u8(f) & 1)
				op_rejoin(r, f);
			else
				check_snapshot(r);
		}
	}
	check_snapshot(r);
}

/*
 * Slave s delivers what it holds, one iteration a message: the script may
 * have delivered parts of a chunk already, and a message with an iteration
 * that is in already is refused whole (PROTOCOL.md 7).  Then it asks again.
 */
static void honest_step(struct fz_run *r, int s)
{
	struct fz_slave *sl = &r->s[s];
	struct dls_request q;
	struct dls_reply rep;
	char why[FZ_WHY_LEN];

	for (int i = 0; i < sl->nheld; i++)
		for (int64_t x = sl->start[i]; x < sl->start[i] + sl->count[i]; x++) {
			struct dls_result b = {x, 1, r->ref + (size_t)x * r->rb, r->rb, 0};
			int rc = r->t->submit(r->ctx, s, r->t->key(r->ctx, s), &b, 1, why);

			fz_trace("honest %d submits %lld -> %s\n", s, (long long)x, rc ? why : "ok");
		}
	sl->nheld = 0;
	if (sl->seq == UINT32_MAX) { /* the script used its seqs up: the next would wrap */
		sl->lost = 1;
		return;
	}
	memset(&q, 0, sizeof(q));
	q.slave_id = s;
	q.key = r->t->key(r->ctx, s);
	q.seq = sl->seq + 1;
	q.acp = 1 + s;
	if (r->t->request(r->ctx, &q, &rep, why) == DLS_OK) {
		fz_trace("honest %d asks: %d %lld+%lld\n", s, (int)rep.kind, (long long)rep.start,
		      (long long)rep.count);
		fz_run_replied(r, s, q.seq, &rep);
		return;
	}
	/* an honest slave is refused only when the script broke it: lost, or its seq at the end */
	if (!(sl->seq == UINT32_MAX || r->t->key(r->ctx, s) == 0)) {
		fprintf(stderr, "honest slave %d refused at seq %u: %s\n", s, q.seq, why);
		FZ_ASSERT(!"an honest slave is refused");
	}
	sl->lost = 1;
}

void fz_run_finish(struct fz_run *r)
{
	int living = 0;

	for (int64_t round = 0; round < 4 * r->iterations + 64 && !r->t->done(r->ctx); round++) {
		living = 0;
		for (int s = 0; s < r->n; s++)
			if (!r->s[s].lost && !r->s[s].done) {
				honest_step(r, s);
				living++;
			}
		if (!living)
			break;
	}
	living = 0;
	for (int s = 0; s < r->n; s++)
		living += !r->s[s].lost;
	check_snapshot(r);
	if (living && !r->t->done(r->ctx)) {
		fprintf(stderr, "%d living slaves, the run did not end\n", living);
		FZ_ASSERT(!"a run with a living slave ends");
	}
	if (r->t->done(r->ctx) && r->t->results)
		fz_check_results(r, r->t->results(r->ctx));
}

void fz_check_results(struct fz_run *r, const struct result_store *rs)
{
	char why[FZ_WHY_LEN];

	for (int64_t i = 0; i < r->iterations; i++) {
		int64_t x = iter_order_column(&r->wk.order, i);

		FZ_ASSERT(work_check_one(&r->wk, i, x, rs->data + (size_t)x * r->rb, why,
					 sizeof(why)) == DLS_OK);
	}
	if (!r->lied)
		FZ_ASSERT(memcmp(rs->data, r->ref_idx, (size_t)r->iterations * r->rb) == 0);
}
