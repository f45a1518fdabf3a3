/*
 * parent_watch.h - when a child (an hmaster) takes its parent as gone for
 * good.  The child checks its parent now and then (a ping; where it may
 * rejoin, also the parent's name, which a resumed parent binds again) and
 * records each outcome here.  A parent that cannot be reached (the
 * connection refused, no such object, its name unbound) is gone for good
 * once its rejoin window has passed, and at least PARENT_WATCH_CHECKS checks
 * in a row failed (without a window: those checks are the retries).  A
 * parent that takes the ping and does not answer in time (overloaded,
 * stopped, its host cut off) is gone for good once the patience has passed
 * (patience.h).  Any answer starts both counts again.
 */
#ifndef DLS_PARENT_WATCH_H
#define DLS_PARENT_WATCH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* failed checks in a row before an unreachable parent is gone for good */
#define PARENT_WATCH_CHECKS 3

struct parent_watch {
	int rejoin_ms, patience_ms;
	double unreached_since; /* first of the unreachable checks in a row (0: none) */
	int unreached;		/* how many in a row */
	double silent_since;	/* first of the checks that timed out in a row (0: none) */
};

/* Starts watching a parent with the child's rejoin window and patience
 * (milliseconds; 0: no window, no patience). */
void parent_watch_init(struct parent_watch *w, int rejoin_ms, int patience_ms);

/*
 * Records a check made at `now` (dls_now) with outcome rc: DLS_OK (it
 * answered), DLS_ETIMEDOUT (it took the ping and did not answer in time) or
 * any other code (it cannot be reached), `cause` saying why.  Returns 1 once
 * the parent is gone for good, with why set to one line ("cannot be reached
 * for 2.1 s, past the rejoin window (--rejoin-ms 2000): CAUSE"), else 0.
 */
int parent_watch_check(struct parent_watch *w, double now, int rc, const char *cause, char *why,
		       size_t len);

#ifdef __cplusplus
}
#endif

#endif
