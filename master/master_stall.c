/*
 * master_stall.c - the stall watch: a holder whose computation does not
 * advance is lost, though its ORB answers pings (see master.h); and how
 * long a holder's chunk has not advanced, which the end game's straggler
 * rule judges too.
 */
#include "dls/err.h"
#include "dls_time.h"
#include "master_internal.h"

#include <stdio.h>

double master_progress_still(struct master_child *ch, const struct dls_progress *p, double at)
{
	if (p->count <= 0) { /* no chunk in progress now */
		ch->seen_since = 0;
		return 0;
	}
	if (!(ch->seen_since > 0) || p->start != ch->seen_start || p->done != ch->seen_done) {
		ch->seen_start = p->start; /* a new chunk, or it advanced */
		ch->seen_done = p->done;
		ch->seen_since = at;
		return 0;
	}
	return at - ch->seen_since;
}

int master_check_stall(struct master *m, int id, int stall_ms, char *why, size_t len)
{
	struct master_child *ch;
	struct dls_progress p;
	double now = dls_now(), still;
	uint64_t key;
	char err[128];
	int stalled = 0;

	if (stall_ms <= 0 || !m->callout.progress)
		return 0;
	pthread_mutex_lock(&m->lock);
	/* a child that delivered within half the window is not asked at all:
	 * the healthy ones cost nothing */
	if (id < 0 || id >= m->roster.n || now - m->children[id].stall_asked < MASTER_STALL_ASK_S ||
	    now - m->children[id].last_delivery_at < stall_ms / 2000.0) {
		pthread_mutex_unlock(&m->lock);
		return 0;
	}
	m->children[id].stall_asked = now;
	key = roster_key(&m->roster, id);
	pthread_mutex_unlock(&m->lock);
	if (m->callout.progress(m->callout.ctx, id, key, &p, err, sizeof(err)))
		return 0; /* it cannot say: judged by its pings alone */
	pthread_mutex_lock(&m->lock);
	ch = &m->children[id];
	still = master_progress_still(ch, &p, now);
	if (still > 0 && still >= stall_ms / 1000.0) {
		snprintf(why, len,
			 "stalled: its chunk [%lld, +%lld) stayed at %lld computed for %.0f s "
			 "(--stall-ms %d) while it answered pings",
			 (long long)p.start, (long long)p.count, (long long)p.done, still,
			 stall_ms);
		ch->seen_since = 0;
		stalled = 1;
	}
	pthread_mutex_unlock(&m->lock);
	return stalled;
}
