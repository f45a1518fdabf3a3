/*
 * emul.h - the emulated heterogeneous cluster (docs/emulation.md 2, 5).
 *
 * A load schedule gives Q(t), the emulated run-queue length, as steps
 * "0:1,2.5:2" (from t = 0 s Q = 1, from 2.5 s Q = 2); a slave's times
 * count from its registration (when registration closed), which is
 * scheduling's start but for the wait for the first requests (the master's
 * T_ideal counts it: master_clock_lead).  A power schedule is the same for
 * a power V/Q(t).
 * emul_finish() answers when a given amount of work (seconds at power 1)
 * started at t0 is done: the slave sleeps to that deadline after computing
 * a chunk for real, and the master uses it for T_ideal of a whole cluster.
 */
#ifndef DLS_EMUL_H
#define DLS_EMUL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EMUL_MAX_STEPS 64

/* Piecewise-constant value: value[k] from at[k] (at[0] = 0, increasing). */
struct emul_steps {
	size_t n;
	double at[EMUL_MAX_STEPS];
	double value[EMUL_MAX_STEPS];
};

/*
 * Parses "Q" or "t:Q,t:Q,..." (t >= 0 increasing; the first step must be at 0
 * when times are given; each value > 0 and finite).  NULL with *out set, or
 * the cause of the refusal.
 */
const char *emul_steps_parse(const char *s, struct emul_steps *out);

/* The value in force at time t. */
double emul_steps_at(const struct emul_steps *s, double t);

/* A constant schedule. */
void emul_steps_const(struct emul_steps *s, double value);

/*
 * The time t >= t0 at which integral_{t0}^{t} power(u) du = work, for a
 * power schedule (values > 0).  work <= 0 gives t0.
 */
double emul_finish(const struct emul_steps *power, double t0, double work);

/*
 * Adds v * 1/q(t) for the load schedule q into the power schedule sum (the
 * union of step times; at most EMUL_MAX_STEPS).  DLS_OK or DLS_EOVERFLOW.
 */
int emul_power_add(struct emul_steps *sum, double v, const struct emul_steps *q);

/* Writes a schedule as "t:v,t:v" into buf; returns buf. */
char *emul_steps_format(const struct emul_steps *s, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
