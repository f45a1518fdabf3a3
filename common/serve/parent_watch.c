/*
 * parent_watch.c - when a child takes its parent as gone for good (see
 * parent_watch.h).
 */
#include "parent_watch.h"

#include <stdio.h>

#include "dls/err.h"

void parent_watch_init(struct parent_watch *w, int rejoin_ms, int patience_ms)
{
	w->rejoin_ms = rejoin_ms > 0 ? rejoin_ms : 0;
	w->patience_ms = patience_ms > 0 ? patience_ms : 0;
	w->unreached_since = 0;
	w->unreached = 0;
	w->silent_since = 0;
}

int parent_watch_check(struct parent_watch *w, double now, int rc, const char *cause, char *why,
		       size_t len)
{
	if (rc == DLS_OK) {
		w->unreached_since = w->silent_since = 0;
		w->unreached = 0;
		return 0;
	}
	if (rc == DLS_ETIMEDOUT) {
		w->unreached_since = 0;
		w->unreached = 0;
		if (!w->silent_since)
			w->silent_since = now;
		if (now - w->silent_since < w->patience_ms / 1000.0)
			return 0;
		snprintf(why, len,
			 "has not answered for %.1f s, past the patience (--patience-ms %d): %s",
			 now - w->silent_since, w->patience_ms, cause);
		return 1;
	}
	w->silent_since = 0;
	if (!w->unreached_since)
		w->unreached_since = now;
	w->unreached++;
	if (w->unreached < PARENT_WATCH_CHECKS || now - w->unreached_since < w->rejoin_ms / 1000.0)
		return 0;
	if (w->rejoin_ms)
		snprintf(why, len,
			 "cannot be reached for %.1f s, past the rejoin window (--rejoin-ms %d): %s",
			 now - w->unreached_since, w->rejoin_ms, cause);
	else
		snprintf(why, len, "cannot be reached (%d checks in %.1f s; no --rejoin-ms): %s",
			 w->unreached, now - w->unreached_since, cause);
	return 1;
}
