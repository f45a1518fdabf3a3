/*
 * sim_slave.c - what a simulated slave reports, and when it asks ahead.
 */
#include "sim_slave.h"

#include "dls_proto.h"

double sim_round_trip(const struct sim_config *c)
{
	double rtt = 2 * c->latency_s;

	if (c->hmasters > 0 && c->twolevel)
		return rtt + c->hm_overhead_s;
	if (c->hmasters > 0) /* relay: on to the master and back */
		return 2 * rtt + c->hm_overhead_s + c->overhead_s + c->per_request_s;
	return rtt + c->overhead_s + c->per_request_s;
}

double sim_slave_lead(const struct sim_config *c)
{
	return c->overlap ? DLS_SLAVE_LEAD_RTTS * sim_round_trip(c) : 0;
}

int64_t sim_slave_acp_at(const struct sim_config *c, const struct sim_slave *s,
			 const struct sim_pe *pe, double t)
{
	int waits_idle = sched_kind_is_distributed(c->sched.kind) || (c->hmasters > 0 && c->twolevel);

	return sched_acp(s->vpower, emul_steps_at(&pe->load, t), waits_idle);
}

double sim_chunk_end(const struct sim_config *c, const struct sim_slave *s, double begin,
		     int64_t start, int64_t count)
{
	double cost = 0;

	for (int64_t k = start; k < start + count; k++)
		cost += (double)c->cost[k];
	return emul_finish(&s->power, begin, cost * c->t_iter_s);
}
