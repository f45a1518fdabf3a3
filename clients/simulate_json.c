/*
 * simulate_json.c - a simulated run's JSON in a measured run's shape, and
 * its pictures (see simulate_json.h).
 */
#include "simulate_json.h"

#include <stdio.h>

#include "dls/err.h"

/* Each PE as dls run's report lists it. */
static json_t *pes_json(const struct sim_result *res, const double *vpower, int npes)
{
	json_t *a = json_array();

	for (int i = 0; a && i < npes; i++) {
		char name[32];

		snprintf(name, sizeof(name), "slave.%d", i);
		if (json_array_append_new(
			a, json_pack("{sisssfsIsIsfsfss}", "pe", i, "name", name, "vpower", vpower[i],
				     "chunks", (json_int_t)res->pe[i].chunks, "iterations",
				     (json_int_t)res->pe[i].iterations, "t_comwait",
				     res->pe[i].t_comwait, "t_comp", res->pe[i].t_comp, "state",
				     "done"))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Every chunk as the master's timeline records one. */
static json_t *timeline_json(const struct sim_result *res, double latency_s)
{
	json_t *a = json_array();

	for (size_t k = 0; a && k < res->ntimeline; k++) {
		const struct sim_chunk *c = &res->timeline[k];

		if (json_array_append_new(
			a, json_pack("{sisIsIsfsfsfsfsIsb}", "pe", c->pe, "first",
				     (json_int_t)c->start, "count", (json_int_t)c->count, "given",
				     c->given, "begin", c->begin, "compute", c->end - c->begin,
				     "delivered", c->end + latency_s, "delivered_iterations",
				     (json_int_t)c->count, "cut", 0))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

int simulate_json_run(json_t *o, const struct sim_result *res, const double *vpower, int npes,
		      int64_t iterations, double latency_s)
{
	json_t *pes = pes_json(res, vpower, npes);
	json_t *timeline = res->timeline ? timeline_json(res, latency_s) : NULL;

	if (!pes || (res->timeline && !timeline)) {
		json_decref(pes);
		json_decref(timeline);
		return DLS_ENOMEM;
	}
	if (json_object_set_new(o, "run", json_string("simulated")) ||
	    json_object_set_new(o, "iterations", json_integer(iterations)) ||
	    json_object_set_new(o, "pes", pes) ||
	    (timeline && json_object_set_new(o, "timeline", timeline))) {
		return DLS_ENOMEM;
	}
	return DLS_OK;
}


