/*
 * sim_twolevel.h - the two-level HDTSS model (docs/schemes.md 5), run by sim_run
 * when the configuration asks for it.
 */
#ifndef DLS_SIM_TWOLEVEL_H
#define DLS_SIM_TWOLEVEL_H

#include "sim_slave.h"

/*
 * Two-level HDTSS: the slaves sl (set up by sim_run) below c->hmasters
 * hmasters; fills out->t_p, chunks, recomputations (of the master's level)
 * and the per-PE figures.
 */
int sim_twolevel(const struct sim_config *c, struct sim_slave *sl, struct sim_result *out);

#endif
