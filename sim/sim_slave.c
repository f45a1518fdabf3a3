/*
 * sim_slave.c - what a simulated slave reports.
 */
#include "sim_slave.h"

#include <math.h>

int64_t sim_slave_acp_at(const struct sim_slave *s, const struct sim_pe *pe, double t)
{
	return (int64_t)floor(s->vpower / emul_steps_at(&pe->load, t) + 1e-9);
}
