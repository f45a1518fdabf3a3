/*
 * patience.h - waiting out a parent that takes calls but does not answer
 * them in time (DLS_ETIMEDOUT: overloaded, stopped, or its host cut off),
 * as a slave and an hmaster do before they take it as gone (PROTOCOL.md 15,
 * "A master that is there but slow").
 */
#ifndef DLS_PATIENCE_H
#define DLS_PATIENCE_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A call to `who` ("the master") that began at `began` (dls_now) timed out
 * with `why`, the first of a row at *since (0: this one, now set and
 * logged).  1 while `who` is waited out, patience_ms from the first; a
 * call that timed out sooner than min_gap_s after it began is asked again
 * only then (this sleeps).  0 once patience_ms have passed (logged: taken
 * as gone).
 */
int patience_wait_out(double *since, int patience_ms, double began, double min_gap_s,
		      const char *who, const char *why);

#ifdef __cplusplus
}
#endif

#endif
