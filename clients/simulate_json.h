/*
 * simulate_json.h - what dls simulate adds to its JSON so that a simulated
 * run reads as a measured one (dls run --json): the PEs and the timeline of
 * every chunk, which dls plot draws (--gantt, --report).  The simulated
 * run and a measured one can then be laid side by side.
 */
#ifndef DLS_SIMULATE_JSON_H
#define DLS_SIMULATE_JSON_H

#include <jansson.h>
#include <stdint.h>

#include "sim.h"

/*
 * Adds "run" ("simulated"), "iterations", "work" (0: unknown), "pes"
 * (each PE's name slave.i, V_i, chunks, iterations, times, state) and,
 * for the flat model, "timeline" (every chunk: PE, first, count, when the
 * master served it, when the PE began it, its compute time, when its
 * results reached the master, one link latency later) to o.  DLS_OK or
 * DLS_ENOMEM.
 */
int simulate_json_run(json_t *o, const struct sim_result *res, const double *vpower, int npes,
		      int64_t iterations, double latency_s);

#endif
