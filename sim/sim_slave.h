/*
 * sim_slave.h - a simulated slave, as the flat/relay model (sim.c) and the
 * two-level model (sim_twolevel.c) both see it.
 */
#ifndef DLS_SIM_SLAVE_H
#define DLS_SIM_SLAVE_H

#include "sim.h"

struct sim_slave {
	double ready;	/* when its next request reaches the master (its hmaster) */
	double vpower;	/* V_i = speed / min speed */
	struct emul_steps power; /* speed / Q(t) for the emulated cost */
	int active;	/* still requesting */
	double asked;	/* when it sent the pending request */
	double busy;	/* when its current chunk ends (flat and relay models) */
	double len;	/* ... and how long it takes */
	int depth;	/* requests it may have on their way (the reply's depth) */
	/* its chunks not yet reported to the master (at most two: one in
	 * flight), for the adaptive techniques (sched_measure) */
	struct sim_measured {
		int64_t start, count;
		double compute, elapsed, end;
	} unreported[2];
	int nunreported;
};

/* When slave s, starting at `begin`, ends iterations [start, start +
 * count): their costs at t_iter over its power schedule (emul_finish). */
double sim_chunk_end(const struct sim_config *c, const struct sim_slave *s, double begin,
		     int64_t start, int64_t count);

/* How long before a chunk's end a slave's next request leaves (sim.h
 * overlap): DLS_SLAVE_LEAD_RTTS modelled round trips, or 0. */
double sim_slave_lead(const struct sim_config *c);

/* A_i = floor(V_i / Q_i(t)) of slave s at time t (sched_acp): at least 1
 * unless it waits while A_i is 0, under a distributed scheme or a
 * two-level hmaster (which runs DTSS below it), as the runtime's slaves. */
int64_t sim_slave_acp_at(const struct sim_config *c, const struct sim_slave *s,
			 const struct sim_pe *pe, double t);

#endif
