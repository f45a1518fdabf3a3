/*
 * master_turn.h - a request's place in the master's queue, and the
 * requests held to a loop's end that the thread ending the loop queues.
 *
 * A request's place in the queue (master_serve.c's wait_turn).  A request
 * held to its loop's end (hold_to_loop_end) joins the queue in the thread
 * that ends the loop (master_queue_held), and is served, remembered and
 * journaled by the thread that opens the next loop's start gate, or by the
 * one whose request, served before it, has just been journaled, with the
 * held requests that head the queue after it, in their ACPSA order
 * (serve_held_together): the same calls in the same order as one by one,
 * without a thread hand-over each, nor a wake-up before the gate opens.
 */
#ifndef DLS_MASTER_TURN_H
#define DLS_MASTER_TURN_H

#include <stddef.h>

#include "master_internal.h"

struct turn {
	struct serve_waiter w;
	const struct dls_request *held; /* a held request, or NULL */
	struct dls_reply *out;		/* its reply */
	int joined;			/* in the queue (it joined, or was queued) */
	int served, rc;			/* served on its behalf: rc and why */
	struct turn *next_held;		/* in m->held_turns (held, not queued) */
	uint64_t ticket;		/* the "held" record to wait for */
	char why[MASTER_WHY_LEN];
};

/* The turn a queued waiter is. */
static inline struct turn *turn_of(struct serve_waiter *w)
{
	return (struct turn *)(void *)((char *)w - offsetof(struct turn, w));
}

/* Takes held turn t off m->held_turns, if it is there (the loop's end may
 * have queued it already).  The lock is held. */
void master_unlist_held(struct master *m, struct turn *t);

#endif
