/*
 * fuzz_run.h - one scripted run against a core that serves requests and
 * submissions (the master, a two-level hmaster): the fuzzer's bytes become
 * calls from real and forged slaves, then the living slaves finish the run
 * honestly and the invariants are checked (see fuzz_master.c).
 */
#ifndef DLS_FUZZ_RUN_H
#define DLS_FUZZ_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "fuzz_input.h"
#include "iter_order.h"
#include "result_store.h"
#include "work.h"

#define FZ_MAX_SLAVES 4
#define FZ_MAX_HELD 64
#define FZ_WHY_LEN 256
#define FZ_MAX_BLOCKS 3

/* The core under test, by its operations (ctx: the core). */
struct fz_target {
	int (*request)(void *ctx, const struct dls_request *r, struct dls_reply *out, char *why);
	int (*submit)(void *ctx, int id, uint64_t key, const struct dls_result *res, size_t n,
		      char *why);
	uint64_t (*key)(void *ctx, int id);
	int (*lost)(void *ctx, int id);
	int (*rejoin)(void *ctx, int id, uint64_t key, char *why); /* NULL: none */
	int (*snapshot)(void *ctx, struct dls_status *out);
	int (*done)(void *ctx);					 /* every result in */
	const struct result_store *(*results)(void *ctx);	 /* NULL: not kept here */
};

/* The master core's operations (fuzz_master_target.c; ctx: a struct master). */
extern const struct fz_target fz_master_target;

/* What the script knows about one real slave. */
struct fz_slave {
	uint32_t seq;			       /* the last seq the core accepted */
	int answered;			       /* ... if any */
	uint32_t prev_seq;		       /* and the one before (its reply kept too) */
	int prev_answered;
	int64_t start[FZ_MAX_HELD], count[FZ_MAX_HELD]; /* chunks it was given */
	int nheld;
	int lost, done;
};

struct fz_run {
	const struct fz_target *t;
	void *ctx;
	struct work wk;
	uint8_t *ref;	  /* the loop's results in iteration order */
	uint8_t *ref_idx; /* the same in loop-index order (what the store must hold) */
	size_t rb;
	int64_t iterations;
	int n;
	struct fz_slave s[FZ_MAX_SLAVES];
	int lied; /* a result that is not the kernel's was accepted */
};

/* Result blocks for one message, honest (the kernel's) or not. */
struct fz_blocks {
	struct dls_result b[FZ_MAX_BLOCKS];
	uint8_t *buf[FZ_MAX_BLOCKS];
	int lie[FZ_MAX_BLOCKS]; /* octets that are not the kernel's */
	size_t n;
};

/*
 * Opens the job's workload and computes its reference (aborts if it
 * cannot).  t may be NULL where a harness drives the core itself and uses
 * only the reference, the blocks and the checks (the coordinator, the tree
 * slave).
 */
void fz_run_init(struct fz_run *r, const struct fz_target *t, void *ctx, const char *workload,
		 const struct dls_param *params, size_t nparams, enum iter_order_mode order,
		 int nslaves);

/* Slave id (maybe a forged id) got rep to seq: checked, and remembered. */
void fz_run_replied(struct fz_run *r, int id, uint32_t seq, const struct dls_reply *rep);

/* Plays the rest of the input as hostile and honest calls. */
void fz_run_script(struct fz_run *r, struct fz *f);

/* The living slaves finish the run; then the end invariants. */
void fz_run_finish(struct fz_run *r);

void fz_run_free(struct fz_run *r);

/* Non-zero when [start, start + count) lies in the loop (no overflow). */
int fz_inside(const struct fz_run *r, int64_t start, int64_t count);

/* Up to FZ_MAX_BLOCKS blocks for slave s (-1: a stranger): ranges it holds
 * or any, octets the kernel's or the input's. */
void fz_blocks_make(struct fz_run *r, struct fz *f, int s, struct fz_blocks *bl);
void fz_blocks_free(struct fz_blocks *bl);

/* The core took the message: every block in the loop with exactly its octets. */
void fz_blocks_accepted(struct fz_run *r, const struct fz_blocks *bl);

/* A status adds up (then frees it). */
void fz_check_status(struct dls_status *st);

/* A finished run's results: each one its workload accepts, and the
 * kernel's exactly unless a lie was accepted. */
void fz_check_results(struct fz_run *r, const struct result_store *rs);

#endif
