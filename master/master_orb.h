/*
 * master_orb.h - runs a master core as a CORBA servant: binds it in the
 * naming service, watches the slaves that hold work (liveness.h: a slave
 * that does not answer a ping in time is lost and its work requeued), waits
 * for the last result, dismisses the slaves, writes the outputs and unbinds.
 */
#ifndef DLS_MASTER_ORB_H
#define DLS_MASTER_ORB_H

#include "master.h"
#include "run_auth.h"
#include "run_report.h"
#include "serve_opts.h"

#ifdef __cplusplus
extern "C" {
#endif

struct master_orb_opts {
	struct serve_opts serve; /* outputs, IOR, liveness, progress, secret, limit */
	int relay_grace_ms;	/* and one whose relay hmaster is silent, this much later */
	int stall_ms;		/* one whose chunk does not advance this long is lost (0: never) */
	int dismiss_timeout_ms; /* how long to wait for slaves to hear DONE */
	/* A run of many loops driven by a program (may be NULL: the master
	 * starts each next loop itself): called once every result of a loop
	 * is in; returns 1 once the program started the next loop
	 * (master_next_loop), 0 when it ends the run, -1 when it failed. */
	int (*between_loops)(void *ctx);
	void *between_ctx;
};

/* Needs dls_orb_init() first.  Returns the exit status: 0, or 1 on failure. */
int master_orb_run(struct master *m, const struct master_orb_opts *o);

#ifdef __cplusplus
}
#endif
#endif
