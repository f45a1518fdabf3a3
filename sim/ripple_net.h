/*
 * ripple_net.h - the Ripple paradigm of Melhem et al. 1991 (Melhem, Pruhs & Znati,
 * "Using Spanning-Trees for Balancing Dynamic Load on Multiprocessors") on
 * continuous load, in synchronous balance steps:
 *
 *   line  Tortoise on a line of n PEs P_1..P_n: a load change f at P_i
 *         schedules f/n to the left for the next i-1 steps and f/n to the
 *         right for the next n-i steps, and P_i keeps f/n (S1); each step a
 *         PE sends what its tables hold for the step (S2); a PE P_j that
 *         receives rho_r from the right passes rho_r (j-1)/j on to the left
 *         at the next step, and rho_l (n-j)/(n-j+1) of what came from the
 *         left on to the right (S3), keeping its fair share.
 *   cube  the spanning-tree generalisation on a hypercube of n = 2^d PEs,
 *         with the binomial tree rooted at each PE: the PE where f appears
 *         keeps f/n and passes f 2^(u-1)/n across each dimension u; a PE
 *         that receives rho across dimension k keeps rho/2^(k-1) and passes
 *         rho 2^(u-1)/2^(k-1) across each u < k at the next step.
 *
 * Load may be negative (a PE that consumed work spreads the loss: its
 * neighbours send it load).  The net keeps every PE's continuous load and
 * reports, per step, the net flow on each link; whoever carries it out in
 * whole tasks (pile_ripple.c) keeps the rest as a fraction.  Pure
 * arithmetic; deterministic; not thread-safe.
 */
#ifndef DLS_RIPPLE_NET_H
#define DLS_RIPPLE_NET_H

#include "pile_policy.h" /* enum ripple_topology */

#ifdef __cplusplus
extern "C" {
#endif

struct ripple_net;

/*
 * A net of n >= 1 PEs, every load 0: DLS_OK, DLS_EINVAL (n < 1, or a cube
 * whose n is not a power of two), DLS_ENOMEM.
 */
int ripple_net_create(enum ripple_topology topology, int n, struct ripple_net **out);
void ripple_net_destroy(struct ripple_net *net);

/* Its links: *a and *b get arrays of the endpoints (a < b); returns how many. */
int ripple_net_links(const struct ripple_net *net, const int **a, const int **b);

/* Step S1: a load change f (either sign) appears at PE pe (0-based) now. */
void ripple_net_add(struct ripple_net *net, int pe, double f);

/*
 * One balance step (S2 then S3): every PE sends what it scheduled for this
 * step; flow[l] gets the net load that crossed link l, positive from a to
 * b (flow may be NULL).  The receivers schedule their passes for the next.
 */
void ripple_net_step(struct ripple_net *net, double *flow);

/* Every PE's continuous load (n entries), S1's changes and the flows applied. */
const double *ripple_net_loads(const struct ripple_net *net);

#ifdef __cplusplus
}
#endif
#endif
