/*
 * slave_tree.h - a slave in Tree Scheduling (Kim and Purtilo 1996 section 3, docs/schemes.md
 * 6.4): it computes the iterations the coordinator placed with it, one at
 * a time; between iterations it serves its neighbours' demands by handing
 * over the tail of its unstarted iterations (tree_migrate_count); when it
 * runs out it sends one demand to its left neighbour (and its right one,
 * bi-directional) and waits; a demand that reaches it while it has nothing
 * waits and is served first when work arrives, so work ripples right.
 * Results go to the coordinator every report interval, and whenever it
 * runs out of work.  It stops when the coordinator says so.
 *
 * Plain C: its remote calls are struct placed_ops (slave_client.cc);
 * slave_placed.c registers it, runs this loop when the placement is Tree
 * Scheduling's, and passes incoming demands, transfers and neighbour
 * changes to the slave_tree_on_* functions, from ORB threads.
 */
#ifndef DLS_SLAVE_TREE_H
#define DLS_SLAVE_TREE_H

#include "slave_internal.h"
#include "slave_placement.h"

#ifdef __cplusplus
extern "C" {
#endif

struct slave_tree;

struct slave_tree *slave_tree_create(void);
void slave_tree_destroy(struct slave_tree *t);

/*
 * Tree Scheduling's loop for the placement a, r set up by the placement
 * (slave_placed.c): the iterations in hand one at a time, the neighbours'
 * demands served between them, results reported every report_interval
 * (and when out of work), then a demand to a neighbour and a wait for its
 * transfer, until the coordinator says stop or ends the loop
 * (slave_tree_end_loop).  DLS_OK, or the error of a computation or a
 * report, with r->why; *ts (may be NULL) what moved.
 */
int slave_tree_loop(struct slave_tree *t, struct run *r, const struct placed_ops *ops,
		    const struct placement *a, struct placed_stats *ts);

/* Incoming (any thread): a neighbour's demand; DLS_OK or DLS_EINVAL (not a neighbour). */
int slave_tree_on_demand(struct slave_tree *t, int from);
/*
 * Incoming: iterations start, start + stride, ... (count) from a neighbour or
 * the coordinator (from = -1).  DLS_OK; DLS_EINVAL with why filled when the
 * range is not inside the loop (or the slave is not placed yet); DLS_ENOMEM.
 */
int slave_tree_on_transfer(struct slave_tree *t, int from, int64_t start, int64_t count,
			   int64_t stride, char *why, size_t len);
/* Incoming: the coordinator closed the chain around a dead slave. */
void slave_tree_on_neighbours(struct slave_tree *t, int left, double left_tau, int right,
			      double right_tau);
/* Incoming: the run is over. */
void slave_tree_on_stop(struct slave_tree *t);

/*
 * A run of many loops: the current loop is over (its every result is in).
 * slave_tree_loop returns after the iteration in hand, having forgotten
 * the loop (its placement, work and demands), so that the next placement
 * starts it afresh; a demand that comes meanwhile waits for it.
 */
void slave_tree_end_loop(struct slave_tree *t);

#ifdef __cplusplus
}
#endif
#endif
