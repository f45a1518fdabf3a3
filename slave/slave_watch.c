/*
 * slave_watch.c - a master-slave slave's watch on its master while it
 * computes (see slave_watch.h).
 */
#include "slave_watch.h"

#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_ticker.h"
#include "dls_time.h"
#include "parent_watch.h"
#include "slave_cut.h"
#include "slave_internal.h"

/* One look at the master: 1 once it is gone for good (said). */
static int look(void *arg)
{
	struct slave_watch *w = arg;
	struct run *r = w->r;
	char cause[256] = "", gone[512];
	int rc;

	dls_log_set_thread_label(r->log_label); /* the ticker's thread: the slave's lines */
	rc = r->ops->reach(r->ops->ctx, SLAVE_WATCH_TIMEOUT_MS, cause, sizeof(cause));
	if (!parent_watch_check(&w->pw, dls_now(), rc, cause, gone, sizeof(gone)))
		return 0;
	log_err("gave up: the %s %s", slave_parent(r), gone);
	atomic_store(&r->parent_gone, 1);
	if (r->cut)
		slave_cut_short(r->cut);
	return 1;
}

int slave_watch_start(struct slave_watch *w, struct run *r)
{
	memset(w, 0, sizeof(*w));
	w->r = r;
	if (!r->ops->reach)
		return DLS_OK;
	parent_watch_init(&w->pw, r->cfg->rejoin_ms, r->cfg->patience_ms);
	w->ticker = dls_ticker_start(1000, look, w);
	return w->ticker ? DLS_OK : DLS_ENOMEM;
}

void slave_watch_stop(struct slave_watch *w)
{
	dls_ticker_stop(w->ticker);
	w->ticker = NULL;
}
