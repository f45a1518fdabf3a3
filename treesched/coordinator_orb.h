/*
 * coordinator_orb.h - runs Tree Scheduling's coordinator core as a CORBA
 * servant: binds it as DLS/<run>/treesched, watches every living slave
 * (liveness.h: a lost slave's work goes to its neighbour and the chain is
 * repaired), waits for the last result, tells the slaves to stop, writes the
 * report with the chain and Kim and Purtilo 1996's Table 2, and unbinds.
 */
#ifndef DLS_COORDINATOR_ORB_H
#define DLS_COORDINATOR_ORB_H

#include "coordinator.h"
#include "run_auth.h"
#include "run_report.h"
#include "serve_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct coordinator_orb_opts {
	struct serve_opts serve; /* outputs, IOR, liveness, progress, secret, limit */
};

/* Needs dls_orb_init() first.  Returns the exit status: 0, or 1 on failure. */
int coordinator_orb_run(struct coordinator *c, const struct coordinator_orb_opts *o);

#ifdef __cplusplus
}
#endif
#endif
