/*
 * simulate_flat.h - `dls simulate` of a master-slave scheme (sim/sim.h):
 * flat, with relay or two-level hmasters, or as a run of many loops; the
 * run printed (and its JSON, Gantt chart and report written) as dls run
 * would show it.
 */
#ifndef DLS_SIMULATE_FLAT_H
#define DLS_SIMULATE_FLAT_H

#include "cluster.h"
#include "dls_sched.h"
#include "iter_order.h"
#include "sim.h"
#include "work.h"

#define SIMULATE_PROG "dls simulate"

/* The take-back end games by name: "off", "holders", "oracle". */
extern const char *const simulate_takeback_names[];

struct flat_opts {
	struct sched_params sched; /* the scheme, as dls simulate's options set it */
	enum iter_order_mode mode;
	double t_iter_ns, overhead_us, per_request_us, hm_overhead_us, latency_us, poll_ms;
	int hmasters, twolevel, overlap, loops, fresh_loops, per_pe;
	enum sim_takeback takeback;
	const char *json, *gantt, *report; /* NULL: not written */
	/* a workload of the program's own (NULL: the Mandelbrot image), whose
	 * later loops' costs a run of many loops computes */
	const char *workload;
	const struct dls_param *params;
	int nparams;
};

/* Opens workload `name` with its parameters to compute its costs; a bad
 * workload or parameter exits 2, with the line saying why. */
void simulate_open_workload(const char *name, const struct dls_param *p, int n, struct work *wk);

/*
 * Simulates the scheme of o on cluster cl over n iterations of the given
 * costs (in the order's sequence; `what` describes the work) and prints
 * the run; writes o->json, o->gantt and o->report where set.  Returns the
 * exit status.
 */
int simulate_flat(const struct flat_opts *o, const struct cluster *cl, const uint64_t *cost,
		  int64_t n, const char *what);

#endif
