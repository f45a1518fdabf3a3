/*
 * ledger.h - which iterations each holder (a slave, or a two-level hmaster
 * below the master) was given and which of them are delivered: the
 * bookkeeping the master and a two-level hmaster share.  Results are
 * checked whole before any is accepted, so a bad message changes nothing.
 *
 * Not thread-safe: the owner serialises calls.
 */
#ifndef DLS_LEDGER_H
#define DLS_LEDGER_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ledger_held_range {
	int64_t start, count;
	int64_t undelivered; /* iterations of the range not yet delivered */
	uint64_t nth;	     /* the holder's nth range given (1, 2, ...) */
};

/* The ranges one holder was given and has not fully delivered, oldest first. */
struct ledger_held {
	struct ledger_held_range *v;
	size_t n, cap;
	uint64_t given; /* ranges given so far */
};

struct ledger {
	uint8_t *state;	    /* per iteration: 0 open, 1 delivered, 2 marked by a check */
	int64_t iterations; /* the loop [0, iterations) */
	uint32_t result_bytes; /* octets of result per iteration */
	int64_t ndelivered;
};

/* An empty ledger of the loop [0, iterations): DLS_OK or DLS_ENOMEM. */
int ledger_init(struct ledger *l, int64_t iterations, uint32_t result_bytes);
void ledger_free(struct ledger *l);

/* Records that the holder was given [start, start + count): DLS_OK or DLS_ENOMEM. */
int ledger_hold(struct ledger_held *h, int64_t start, int64_t count);
/* Iterations the holder was given and has not delivered. */
int64_t ledger_held_undelivered(const struct ledger_held *h);
/*
 * Iterations that checked blocks res[0..n) (each inside one held range)
 * leave undelivered in the holder's ranges other than the one it was given
 * last: 0 when the message completes every chunk but the newest (PROTOCOL.md
 * 5, one chunk in flight).
 */
int64_t ledger_left_before_newest(const struct ledger_held *h, const struct dls_result *res,
				  size_t n);
void ledger_held_free(struct ledger_held *h);

/*
 * Does block r fit the loop: inside [0, iterations), count >= 1, with
 * count * result_bytes octets?  DLS_OK, or DLS_EINVAL with why.  (No
 * holder, no delivery state: what every taker of results checks first.)
 */
int ledger_fits(const struct ledger *l, const struct dls_result *r, char *why, size_t len);

/*
 * Checks the n result blocks of holder `who` (named in the reasons): each
 * inside the loop, with count * result_bytes octets, not yet delivered, inside one
 * range the holder holds, none repeated in the message.  DLS_OK with the
 * iterations marked for ledger_commit (or ledger_unmark) and *total set; or
 * DLS_EINVAL with why filled and nothing marked.
 */
int ledger_check(struct ledger *l, const struct ledger_held *h, int who, const struct dls_result *res,
		 size_t n, int64_t *total, char *why, size_t len);

/* Undoes the marks ledger_check left on the first n blocks. */
void ledger_unmark(struct ledger *l, const struct dls_result *res, size_t n);

/*
 * Accepts checked blocks: marks them delivered, counts them against the
 * holder's ranges and forgets the ranges fully delivered.
 */
void ledger_commit(struct ledger *l, struct ledger_held *h, const struct dls_result *res, size_t n);

/*
 * Takes everything the holder holds and has not delivered away from it:
 * calls give(ctx, start, count) for each undelivered run, empties the set,
 * and returns the iterations given (a negative DLS_ error if give failed).
 */
int64_t ledger_release(struct ledger *l, struct ledger_held *h,
		       int (*give)(void *ctx, int64_t start, int64_t count), void *ctx);

/* The holder's range that holds iteration i, or NULL. */
const struct ledger_held_range *ledger_held_at(const struct ledger_held *h, int64_t i);

/* The count of the holder's range that begins at start (0: none). */
int64_t ledger_held_count(const struct ledger_held *h, int64_t start);

/*
 * Takes the tail [end, start + count) of the holder's range that begins at
 * start back (the take-back, PROTOCOL.md 17): the range is then [start,
 * end).  DLS_OK; DLS_ENOENT when the holder holds no range that begins at
 * start, DLS_EINVAL for an end outside (start, start + count), DLS_ESTATE
 * when an iteration of the tail is delivered (or marked): nothing changed.
 */
int ledger_cut_tail(struct ledger *l, struct ledger_held *h, int64_t start, int64_t end);

#ifdef __cplusplus
}
#endif
#endif
