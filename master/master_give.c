/*
 * master_give.c - what a child holds: a chunk given to it (from the scheme
 * or the requeue), the take-back's shrink of a chunk it holds, and its
 * holdings released to the others when it is lost, which the live master
 * and the journal's replay all make; and the time it held work.
 */
#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "master_internal.h"

void master_note_busy(struct master *m, int id)
{
	struct master_child *ch = &m->children[id];
	double now = dls_now();

	if (ch->busy_since > 0)
		ch->busy_s += now - ch->busy_since;
	ch->busy_since = ledger_held_undelivered(&ch->serve.held) > 0 ? now : 0;
}

/* The WORK reply of chunk c to child id (its job with its first chunk of a
 * loop); the stall watch counts from here. */
static void reply_work(struct master *m, int id, struct dls_range c, struct dls_reply *out)
{
	out->kind = DLS_REPLY_WORK;
	out->start = c.start;
	out->count = c.count;
	out->wait_ms = 0;
	out->depth =
	    serve_depth(c.count, m->sched ? sched_remaining(m->sched) : 0, m->cfg.nslaves);
	if (m->children[id].first_given_loop != (int64_t)m->loop) { /* its first of the loop */
		m->children[id].first_given_loop = m->loop;
		m->results.all_given = result_store_elapsed(&m->results);
	}
	if (m->children[id].loop_told != m->loop) { /* its first chunk of this loop */
		out->has_job = 1;
		master_job(m, &out->job);
		m->children[id].loop_told = m->loop;
	}
	if (!(m->children[id].last_delivery_at > 0))
		m->children[id].last_delivery_at = dls_now();
	/* its progress is judged afresh: work given back to it (requeued after
	 * it was lost and taken back) may begin where an old answer showed */
	m->children[id].seen_since = 0;
}

int master_give_copy(struct master *m, int id, struct dls_range c, struct dls_reply *out)
{
	m->children[id].serve.held.given++; /* its newest chunk (one in flight) */
	reply_work(m, id, c, out);
	/* the picture of the run only, as for any chunk */
	(void)timeline_give_copy(&m->timeline, id, c.start, c.count,
				 result_store_elapsed(&m->results));
	m->roster.v[id].info.state = DLS_SLAVE_ACTIVE;
	return DLS_OK;
}

int master_give_work(struct master *m, int id, struct dls_range c, struct dls_reply *out)
{
	struct dls_slave_status *info = &m->roster.v[id].info;

	if (ledger_hold(&m->children[id].serve.held, c.start, c.count))
		return DLS_ENOMEM;
	reply_work(m, id, c, out);
	info->chunks++;
	info->iterations += c.count;
	info->state = DLS_SLAVE_ACTIVE;
	master_note_busy(m, id);
	/* the picture of the run only: a chunk it cannot note is still served */
	(void)timeline_give(&m->timeline, id, c.start, c.count, result_store_elapsed(&m->results));
	return DLS_OK;
}

int master_cut_tail(struct master *m, int holder, int64_t start, int64_t end)
{
	struct master_child *ch = &m->children[holder];
	int64_t count = ledger_held_count(&ch->serve.held, start);
	int rc;

	if (!count || end <= start || end >= start + count)
		return count ? DLS_EINVAL : DLS_ENOENT;
	if (serve_ranges_push(&m->requeue, end, start + count - end))
		return DLS_ENOMEM;
	rc = ledger_cut_tail(&m->results.ledger, &ch->serve.held, start, end);
	if (rc) {
		m->requeue.n--; /* the range just pushed: it stays with its holder */
		return rc;
	}
	ch->cut = 1;
	timeline_cut(&m->timeline, holder, start, end);
	m->roster.v[holder].info.iterations -= start + count - end;
	m->takebacks++;
	m->taken_back += start + count - end;
	master_log_takeback(m, holder, start, end);
	return DLS_OK;
}

void master_release_lost(struct master *m, int id, const char *cause)
{
	struct roster_entry *s = &m->roster.v[id];
	int64_t moved;

	s->info.state = DLS_SLAVE_LOST;
	/* undelivered runs of every held range go to the others */
	moved = serve_release(&m->results.ledger, &m->children[id].serve, id, &m->requeue);
	m->requeued_total += moved;
	if (!m->replaying)
		log_warn("slave %d '%s' lost (%s): %lld undelivered iterations requeued", id,
			 s->info.name, cause, (long long)moved);
	master_log_lost(m, id, cause);
	master_verify_release(m, id); /* after the journal's "lost" */
	master_complete_if_due(m);    /* a copy no one is left to settle */
}
