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
};

/* A_i = floor(V_i / Q_i(t)) of slave s at time t. */
int64_t sim_slave_acp_at(const struct sim_slave *s, const struct sim_pe *pe, double t);

#endif
