/*
 * liveness.h - the one liveness policy of every role that has children
 * (master, hmaster, Tree Scheduling's coordinator): every period, ask the
 * core whom to watch (the master and an hmaster: children that hold work;
 * the coordinator: every living slave, since work moves between them),
 * ping each, and hand one that does not answer back to the core, which
 * decides what its loss means (requeue its work, or repair the chain).
 * The ping itself is the ORB adapter's: a call with the ping timeout.
 *
 * Runs its own thread.  A round's pings go out at once, from up to 32
 * threads, so that children cut off together (a host whose link went down)
 * are all found within one ping timeout; ping() must therefore be safe to
 * call concurrently.  targets() and lost() are called from the watching
 * thread, one at a time.
 */
#ifndef DLS_LIVENESS_H
#define DLS_LIVENESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct liveness_ops {
	void *ctx;
	/* The ids to watch now, at most max of them. */
	size_t (*targets)(void *ctx, int *ids, size_t max);
	/* 0 when child id answered; otherwise non-zero with why filled. */
	int (*ping)(void *ctx, int id, char *why, size_t len);
	/* Child id did not answer (why): the core takes its loss. */
	void (*lost)(void *ctx, int id, const char *why);
};

struct liveness;

/*
 * Starts watching every period_ms.  NULL with *err (DLS_EINVAL for a period
 * below 1 ms, DLS_ENOMEM) if it cannot start.
 */
struct liveness *liveness_start(const struct liveness_ops *ops, int period_ms, int *err);

/* Stops the thread (after the ping in progress) and frees l; NULL is a no-op. */
void liveness_stop(struct liveness *l);

#ifdef __cplusplus
}
#endif
#endif
