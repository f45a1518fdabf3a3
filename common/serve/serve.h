/*
 * serve.h - the serving core that the master and a two-level hmaster both
 * run over their children (Chronopoulos et al. 2002 DTSS master steps 2-3):
 *
 *  - a child's request is taken only after the checks: a retry (the seq of
 *    either of its last two replies) gets the same reply again, an older
 *    seq is refused, a second request on its way (dls_request.second) only
 *    right after its predecessor and with the leave of the reply before
 *    (depth 2; the owner waits for the predecessor: serve_early), 1 <= A_i <=
 *    SCHED_MAX_ACP, its piggy-backed results are checked whole against the
 *    ledger, and (piggy-back collection) they complete every chunk the child
 *    holds but the last one it was given (one chunk in flight: a slave asks
 *    for its next chunk while it computes the current one), unless the
 *    child may prefetch further (a two-level hmaster below);
 *  - requests wait their turn in ACPSA order: larger A_i first, then
 *    arrival (sched_acpsa_before), each on its own condition, so that only
 *    the next head is woken;
 *  - the work of a lost child is released from the ledger into a requeue
 *    (struct serve_ranges) that the next requests take first.
 *
 * Not thread-safe: the owner holds its lock around every call.
 */
#ifndef DLS_SERVE_H
#define DLS_SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "ledger.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the serving core keeps of one child. */
struct serve_child {
	struct ledger_held held; /* what it was given and has not delivered */
	int may_prefetch;	 /* a two-level hmaster: may ask before delivering */
	int has_reply;		 /* last_reply answers a retry of seq last_seq */
	uint32_t last_seq;
	struct dls_reply last_reply;
	int has_prev;		 /* and the reply before it (two on their way) */
	uint32_t prev_seq;
	struct dls_reply prev_reply;
};

/*
 * Takes request r of child c (the caller checked that the child may call):
 * DLS_OK with *retry = 1 and *out the earlier reply for a retry; DLS_OK with
 * *retry = 0 and the results marked in the ledger (ledger_commit or
 * ledger_unmark them) for a fresh request; or a refusal (DLS_ESTATE,
 * DLS_EINVAL) with why filled and nothing marked.  piggyback: the run
 * collects results on requests.
 */
int serve_take(struct ledger *l, struct serve_child *c, const struct dls_request *r, int piggyback,
	       struct dls_reply *out, int *retry, char *why, size_t len);

/*
 * Whether r is a second request on its way (r->second) that arrived before
 * its predecessor (seq - 1) was served (or before any request of its child
 * was, as after a resume): the owner waits for that (bounded) before
 * serve_take, which refuses it if it is still early.
 */
int serve_early(const struct serve_child *c, const struct dls_request *r);

/*
 * The depth to grant with a WORK reply of `count` iterations when `left`
 * iterations remain to be handed out among `npes` children: 2 (a second
 * request may leave before this reply's chunk is computed) while the chunk
 * is a small share of what is left (left >= SERVE_DEPTH_SHARE * npes *
 * count), so that no child holds two chunks near the end; else 1.
 */
int serve_depth(int64_t count, int64_t left, int npes);
#define SERVE_DEPTH_SHARE 4

/* Remembers the reply to r, for a retry (the last two are kept). */
void serve_remember(struct serve_child *c, const struct dls_request *r,
		    const struct dls_reply *out);

/*
 * A child taken back after it was declared lost (serve_release gave its
 * work to the requeue) may still send results of that work.  Keeps of the
 * blocks *res[0..*n) what it holds now, undelivered (a block that also
 * covers iterations it does not hold, or that were delivered, is cut to
 * the runs it holds: work given to it again, its own old work among it
 * (serve_ranges_pop_for), may overlap its old work), and the blocks that
 * do not fit the loop (serve_take refuses them as from anyone); the
 * iterations of the rest are counted in *dropped (serve_log_lost_work says
 * so).  *res and *n are then the blocks kept, in *kept (to free; NULL when
 * *n was 0).  DLS_OK, or DLS_ENOMEM with why; nothing marked, nothing else
 * changed (a message refused afterwards leaves no trace).
 */
int serve_drop_lost_work(struct ledger *l, const struct serve_child *c, int who,
			 const struct dls_result **res, size_t *n, struct dls_result **kept,
			 int64_t *dropped, char *why, size_t len);

/*
 * A run of many loops: results of a loop before `loop` (from a child taken
 * back after it was lost, or a copy that travelled late) are dropped, since
 * that loop has every result; a block of a loop after it is refused
 * (DLS_EINVAL, why naming child who).  *res and *n are then the blocks
 * kept, in *kept when some were dropped (to free; else NULL), and
 * *dropped how many blocks went.  DLS_OK, DLS_EINVAL or DLS_ENOMEM.
 */
int serve_current_loop(uint32_t loop, int who, const struct dls_result **res, size_t *n,
		       struct dls_result **kept, size_t *dropped, char *why, size_t len);

/* Says that serve_drop_lost_work dropped `dropped` iterations of child
 * who's results of its old work (that work went to `went_to`); nothing
 * when 0. */
void serve_log_lost_work(int who, int64_t dropped, const char *went_to);

/* A run's next loop: forgets what the child held of the loop before (its
 * holdings and how many it was given); its replies stay for retries. */
void serve_forget_loop(struct serve_child *c);

/* A child taken back: the replies it was given before it was lost handed
 * out work that went to others, so its next request is served fresh
 * whatever its seq (no retry answer, no order check against them). */
void serve_forget_replies(struct serve_child *c);

/* A request (or a merged message) waiting for its turn. */
struct serve_waiter {
	int64_t acp;
	uint64_t arrival;
	pthread_cond_t turn; /* signalled when it becomes the head, or must look again */
	struct serve_waiter *next;
};

/* Pending requests in ACPSA order. */
struct serve_queue {
	struct serve_waiter *head;
	uint64_t arrivals;
};

/* Puts w in line for A_i = acp (its condition is initialised here). */
void serve_queue_join(struct serve_queue *q, struct serve_waiter *w, int64_t acp);

/* Takes w out of line (head or not) and wakes the new head; frees its condition. */
void serve_queue_leave(struct serve_queue *q, struct serve_waiter *w);

/*
 * Takes the head out of line and returns it (NULL when empty), its
 * condition kept: its owner, served on its behalf and signalled by the
 * caller, still calls serve_queue_leave, which then only frees it.
 */
struct serve_waiter *serve_queue_take_head(struct serve_queue *q);

/* Wakes the head (it has something new to look at); no-op when empty. */
void serve_queue_wake_head(struct serve_queue *q);

/* Wakes every waiter (the run failed or ended, or a waiter may be lost). */
void serve_queue_wake_all(struct serve_queue *q);

/*
 * A first-in first-out list of ranges: the requeue of lost children's work
 * (taken first by the next requests), or a two-level hmaster's chunks not
 * started yet.
 */
struct serve_ranges {
	struct dls_range *v;
	int *from; /* per range: the child it was released from, or -1 */
	size_t n, cap;
};

/* Appends a range (from no child): DLS_OK or DLS_ENOMEM. */
int serve_ranges_push(struct serve_ranges *q, int64_t start, int64_t count);
/* Takes the oldest range; 0 when empty. */
int serve_ranges_pop(struct serve_ranges *q, struct dls_range *out);
/* Takes the oldest range released from child who, else the oldest; 0 when
 * empty.  A child taken back is given its own old work first: it may be
 * computing it still, and its results of it are then kept. */
int serve_ranges_pop_for(struct serve_ranges *q, int who, struct dls_range *out);
/* Iterations waiting in it. */
int64_t serve_ranges_left(const struct serve_ranges *q);
void serve_ranges_free(struct serve_ranges *q);

/*
 * Child `who` was lost: every range it holds and has not delivered goes to
 * the requeue, marked as released from it.  Returns the iterations moved (0
 * when it held none).
 */
int64_t serve_release(struct ledger *l, struct serve_child *c, int who, struct serve_ranges *q);

#ifdef __cplusplus
}
#endif
#endif
