/*
 * run_loop.h - the life of a serving role once its servant is reachable
 * (the master, Tree Scheduling's coordinator): watch the children with the
 * liveness policy, wait for the last result (a live progress line if asked),
 * give up when every child was lost, dismiss the children, and write the
 * outputs.  The role's core answers through callbacks; the ORB adapter only
 * supplies the ping and the calls that tell children to stop.
 */
#ifndef DLS_RUN_LOOP_H
#define DLS_RUN_LOOP_H

#include "dls_proto.h"
#include "liveness.h"

#ifdef __cplusplus
extern "C" {
#endif

struct run_loop_ops {
	void *ctx;
	const char *prog;	  /* for the messages: "dls-master" */
	struct liveness_ops watch; /* whom to ping, the ping, a loss (ctx is watch.ctx) */
	/* DLS_OK once every result is in, DLS_ETIMEDOUT after timeout_ms. */
	int (*wait_done)(void *ctx, int timeout_ms);
	/* Non-zero when every expected child registered and every one was lost. */
	int (*all_lost)(void *ctx);
	/* A consistent copy of the state (free with dls_status_free). */
	int (*snapshot)(void *ctx, struct dls_status *out);
	/* Tells the children that are still there that the run is over. */
	void (*dismiss)(void *ctx);
	/* The table and files: 0, or 1 when one could not be written. */
	int (*write_outputs)(void *ctx);
	/* Give up this many seconds after the start (0: never): exit status 1
	 * with a line that says what the role was still waiting for. */
	double timeout_s;
	/* A run of many loops (may be NULL: one loop): called once every
	 * result of a loop is in; 1 when it started the next loop (the wait
	 * goes on), 0 after the last, -1 when the run must end (said). */
	int (*loop_done)(void *ctx);
	/* Last, whatever the outcome (may be NULL): the servant lets go of the
	 * other processes' object references while the ORB is whole. */
	void (*quiesce)(void *ctx);
};

/*
 * Runs it: returns the exit status, 0 when every result is in and the
 * outputs were written, 1 when every child was lost, the watch could not
 * start, ops->timeout_s passed, or an output failed.  progress: a line on stderr twice a second.
 */
int run_loop(const struct run_loop_ops *ops, int ping_ms, int progress);

#ifdef __cplusplus
}
#endif
#endif
