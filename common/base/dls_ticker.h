/*
 * dls_ticker.h - a thread that calls a function every period until it is
 * stopped or the function says it is done: the watches that look at
 * something once a second (a slave's watch on its master, a server's
 * watch on its name).
 */
#ifndef DLS_TICKER_H
#define DLS_TICKER_H

#ifdef __cplusplus
extern "C" {
#endif

struct dls_ticker;

/*
 * Starts a thread that waits period_ms, calls tick(ctx), and again, until
 * dls_ticker_stop or a tick returns non-zero.  The tick runs without any
 * lock of the ticker's.  NULL when the thread cannot start.
 */
struct dls_ticker *dls_ticker_start(int period_ms, int (*tick)(void *ctx), void *ctx);

/* Stops the ticker (at once: a tick under way ends first), joins its
 * thread and frees it.  NULL is a no-op. */
void dls_ticker_stop(struct dls_ticker *t);

#ifdef __cplusplus
}
#endif
#endif
