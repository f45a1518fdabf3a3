/*
 * sim_internal.h - what the flat/relay simulation (sim.c) and the two-level
 * one (sim_twolevel.c) share.
 */
#ifndef DLS_SIM_INTERNAL_H
#define DLS_SIM_INTERNAL_H

#include "sim.h"

struct sim_slave {
	double ready;	/* when its next request reaches the master (its hmaster) */
	double vpower;	/* V_i = speed / min speed */
	struct emul_steps power; /* speed / Q(t) for the emulated cost */
	int active;	/* still requesting */
	double asked;	/* when it sent the pending request */
};

/* A_i = floor(V_i / Q_i(t)) of slave s at time t. */
int64_t sim_acp_at(const struct sim_slave *s, const struct sim_pe *pe, double t);

/*
 * Two-level HDTSS (sim_twolevel.c): the slaves sl (set up by sim_run) below
 * c->hmasters hmasters; fills out->t_p, chunks, recomputations (of the
 * master's level) and the per-PE figures.
 */
int sim_twolevel(const struct sim_config *c, struct sim_slave *sl, struct sim_result *out);

#endif
