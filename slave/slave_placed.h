/*
 * slave_placed.h - a slave the coordinator (dls-treesched) places: it
 * registers (slave_placement.h), and its placement says which loop it
 * runs, Tree Scheduling's (slave_tree.h) or a decentralized policy's
 * (slave_pile.h).  Its servant hands every incoming call here, from ORB
 * threads, and this passes it to the loop that takes it: demands and
 * neighbour changes to the tree, policy messages to the pile, work to
 * whichever runs, the end of the run to both.
 */
#ifndef DLS_SLAVE_PLACED_H
#define DLS_SLAVE_PLACED_H

#include "slave_placement.h"

#ifdef __cplusplus
extern "C" {
#endif

struct slave_placed;

/* A slave not yet placed; NULL when out of memory. */
struct slave_placed *slave_placed_create(void);
void slave_placed_destroy(struct slave_placed *s);

/*
 * Registers with the coordinator and runs the loop of its placement, and
 * in a run of many loops every next one, until the coordinator says stop.
 * The speed registered is tau = Speed / Q (emulated: V / Q(0)).  DLS_OK, or as slave_run, with why.
 */
int slave_placed_run(struct slave_placed *s, const struct slave_config *cfg,
		     const struct placed_ops *ops, struct dls_slave_stats *st, struct placed_stats *ts,
		     char *why, size_t len);

/* Incoming (any thread): a neighbour's demand (Tree Scheduling); DLS_OK. */
int slave_placed_on_demand(struct slave_placed *s, int from);
/*
 * Incoming: iterations start, start + stride, ... (count) from a slave or
 * the coordinator (from = -1).  DLS_OK; DLS_EINVAL with why when the range
 * is not inside the loop (or the slave is not placed yet); DLS_ENOMEM.
 */
int slave_placed_on_transfer(struct slave_placed *s, int from, int64_t start, int64_t count,
			     int64_t stride, char *why, size_t len);
/*
 * Incoming: a policy message of slave `from`; DLS_OK, or DLS_ESTATE when
 * this slave runs no policy (or is not placed).
 */
int slave_placed_on_balance(struct slave_placed *s, int from, const struct pile_msg *m);
/* Incoming: the coordinator closed the chain around a dead slave. */
void slave_placed_on_neighbours(struct slave_placed *s, int left, double left_tau, int right,
				double right_tau);
/* Incoming: the run is over. */
void slave_placed_on_stop(struct slave_placed *s);

/*
 * Incoming, a run of many loops (PROTOCOL.md 10): every result of loop
 * `loop` is in.  The slave stops computing it (after the iteration in
 * hand) and this returns once nothing of the loop runs here.  DLS_OK.
 */
int slave_placed_end_loop(struct slave_placed *s, uint32_t loop);
/*
 * Incoming, once the loop before was ended: the next loop's placement.
 * Returns once the slave took it (its job checked and opened as at
 * registration: DLS_OK, the loop runs) or refused it (the error with why:
 * the slave leaves the run); DLS_OK at once for the loop it runs already
 * (a resumed coordinator places every slave again); DLS_ESTATE when the
 * loop before was not ended or the run is over here.
 */
int slave_placed_next_loop(struct slave_placed *s, const struct placement *a, char *why,
			   size_t len);

#ifdef __cplusplus
}
#endif
#endif
