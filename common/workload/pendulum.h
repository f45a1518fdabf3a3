/*
 * pendulum.h - DLS's second workload, "pendulum": a parameter sweep of a
 * frictionless pendulum (theta'' = -sin theta, small-oscillation period
 * 2 pi) released from rest at amplitudes that approach the separatrix
 * (theta0 -> pi), where the period grows without bound: iteration x
 * starts at theta0(x) = pi (1 - 10^(-closeness (x + 0.5) / count)), so the
 * cost per iteration rises about tenfold across the sweep, and it is
 * integrated with classical RK4 at a fixed step for `periods` periods.
 *
 * Parameters (PROTOCOL.md 3): count (iterations, default 1000), bins (of
 * the angle histogram, 32), periods (4), steps (RK4 steps per 2 pi of
 * time, 200), closeness (decades, 8), drift (0): in loop k of a run of
 * many loops, iteration x takes the amplitude of x + floor(drift k count)
 * (mod count), so that the expensive iterations move by that share of the
 * sweep from one loop to the next.  An iteration's result is 4 + bins
 * doubles ("<f8"):
 *   [0] theta0, [1] the measured period, [2] the energy error at the end,
 *   [3] the RK4 steps taken, [4 ..] the fraction of steps the angle spent
 *   in each of `bins` equal bins of [-pi, pi].
 * The cost of an iteration is 16 unit iterations per step (an emulated
 * slave charges a step about 25 times its real time on this machine).
 *
 * Pure double arithmetic in a fixed order, built with -ffp-contract=off:
 * every run on the same build gives bit-identical results.
 */
#ifndef DLS_PENDULUM_H
#define DLS_PENDULUM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PENDULUM_HEADER 4     /* doubles before the histogram */
#define PENDULUM_STEP_COST 16 /* unit iterations per RK4 step */

struct pendulum_params {
	int64_t count;
	int32_t bins, periods, steps;
	double closeness;
	int64_t shift; /* iteration x takes theta0 of (x + shift) mod count */
};

/* The defaults above. */
void pendulum_params_init(struct pendulum_params *p);

/* theta0 of iteration x (shifted: see drift above). */
double pendulum_theta0(const struct pendulum_params *p, int64_t x);

/* The most steps one iteration may take (it stops there). */
int64_t pendulum_max_steps(const struct pendulum_params *p);

/*
 * Integrates iteration x into out[0 .. PENDULUM_HEADER + bins - 1] and
 * returns its cost in unit iterations.
 */
uint64_t pendulum_run(const struct pendulum_params *p, int64_t x, double *out);

struct dls_workload;
extern const struct dls_workload pendulum_workload;

#ifdef __cplusplus
}
#endif
#endif
