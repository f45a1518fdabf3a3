/*
 * serve_opts.h - what the process of a serving role (the master, Tree
 * Scheduling's coordinator) takes from its command line for its life on
 * the ORB: the files it writes at the end, its IOR, the liveness of its
 * children, its progress line, the run's secret and its time limit.
 */
#ifndef DLS_SERVE_OPTS_H
#define DLS_SERVE_OPTS_H

#include "run_auth.h"
#include "run_report.h"

#ifdef __cplusplus
extern "C" {
#endif

struct serve_opts {
	struct run_outputs out; /* the table and files written at the end */
	const char *ior_file;	/* also write the IOR here */
	int ping_ms;		/* liveness check period */
	int ping_timeout_ms;	/* a child silent this long is lost */
	int progress;		/* a live progress line on stderr */
	const struct run_secret *secret; /* the run's (NULL: an open run) */
	double timeout_s;		 /* give up this long after the start (0: never) */
};

#ifdef __cplusplus
}
#endif
#endif
