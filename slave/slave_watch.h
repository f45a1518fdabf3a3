/*
 * slave_watch.h - a master-slave slave's watch on its master while it
 * computes.  A thread checks the master once a second (struct
 * slave_ops.reach); once it is gone for good (parent_watch.h: unreachable
 * past the rejoin window, silent past the patience) the thread says so,
 * marks the run (struct run.parent_gone: no more retries or rejoining) and
 * cuts the chunk in progress at what is computed, so that the loop's next
 * call fails at once and the slave ends its run within its window, even in
 * the middle of a chunk that would take far longer.
 */
#ifndef DLS_SLAVE_WATCH_H
#define DLS_SLAVE_WATCH_H

#include "parent_watch.h"

struct run;
struct dls_ticker;

struct slave_watch {
	struct dls_ticker *ticker; /* NULL: not watching */
	struct parent_watch pw;
	struct run *r;
};

/* How long one check may wait for the master's answer. */
#define SLAVE_WATCH_TIMEOUT_MS 3000

/*
 * Starts watching r's master when r->ops->reach is set (else nothing is
 * started).  DLS_OK, or DLS_ENOMEM (no thread: the slave notices at its
 * next call, as without reach).
 */
int slave_watch_start(struct slave_watch *w, struct run *r);

/* Stops the watch and waits for its thread (a no-op when none started). */
void slave_watch_stop(struct slave_watch *w);

#endif
