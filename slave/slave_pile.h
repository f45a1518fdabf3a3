/*
 * slave_pile.h - a slave under a decentralized policy of docs/schemes.md appendix A
 * (workpile, roc): placed by the coordinator like a tree slave
 * (slave_placed.c registers it and hands over here), it computes the
 * iterations of its pile one at a time from the head, and runs the
 * policy's rules (common/policy/pile_policy.h, the same code the simulator runs)
 * on its own pile.  Two threads: the caller's computes and reports; a
 * balancer takes the messages and work other slaves send (queued by the
 * servant's ORB threads), fires the policy's timers, and makes the calls the
 * rules decide (a balance message, or iterations from the tail: the
 * coordinator's migrated() notice first, then the peer's transfer()).  The
 * rules run under the pile's lock; no remote call is made under it.
 *
 * A peer whose call fails is taken as dead from then on (no more draws of
 * it); iterations that could not be handed over stay here (the coordinator
 * lets a giver deliver what it handed to a peer).
 */
#ifndef DLS_SLAVE_PILE_H
#define DLS_SLAVE_PILE_H

#include "slave_internal.h"
#include "slave_placement.h"

struct slave_pile;

/*
 * A pile for the placement a (policy, parameters, peers' count, its first
 * iterations).  NULL when out of memory.
 */
struct slave_pile *slave_pile_create(const struct placement *a);
void slave_pile_destroy(struct slave_pile *p);

/*
 * Runs the placed slave until the coordinator says stop (slave_pile_stop):
 * computes, reports every a->report_interval seconds (0: when out of work),
 * balances.  r: the run set up by slave_placed_run.  DLS_OK, or the error of
 * a computation or a report, with r->why.
 */
int slave_pile_run(struct slave_pile *p, struct run *r, const struct placed_ops *ops,
		   const struct placement *a, struct placed_stats *ts);

/* Incoming (any thread): a policy message of slave `from` (already authenticated). */
int slave_pile_on_message(struct slave_pile *p, int from, const struct pile_msg *m);

/*
 * Incoming: iterations start, start + stride, ... (count) from slave `from`
 * (-1: the coordinator, after a failure).  DLS_OK, or DLS_EINVAL with why
 * when the range is not inside the loop, DLS_ENOMEM.
 */
int slave_pile_on_transfer(struct slave_pile *p, int from, int64_t start, int64_t count,
			   int64_t stride, char *why, size_t len);

/* Incoming: the run is over. */
void slave_pile_stop(struct slave_pile *p);

#endif
