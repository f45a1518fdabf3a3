/*
 * serve.c - the serving core shared by the master and a two-level hmaster
 * (see serve.h).
 */
#include "serve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_sched.h"
#include "dls_time.h"

int serve_take(struct ledger *l, struct serve_child *c, const struct dls_request *r, int piggyback,
	       struct dls_reply *out, int *retry, char *why, size_t len)
{
	int64_t total;
	int rc;

	*retry = 0;
	if (c->has_reply && r->seq == c->last_seq) {
		*out = c->last_reply;
		*retry = 1;
		return DLS_OK;
	}
	if (c->has_prev && r->seq == c->prev_seq) {
		*out = c->prev_reply;
		*retry = 1;
		return DLS_OK;
	}
	if (c->has_reply && r->seq < c->last_seq) {
		snprintf(why, len, "request %u of slave %d is older than its request %u", r->seq,
			 r->slave_id, c->last_seq);
		return DLS_ESTATE;
	}
	/* a second request on its way: right after its predecessor, with the
	 * leave of the reply before that one (unknown to a master that resumed
	 * without it: the ledger's checks below still hold) */
	if (r->second) {
		int after = c->has_reply && r->seq == c->last_seq + 1;
		int allowed = !c->has_prev || (c->prev_reply.kind == DLS_REPLY_WORK &&
					       c->prev_reply.depth == 2);

		if (!after || !allowed) {
			snprintf(why, len,
				 "request %u of slave %d says it is the second on its way, but %s",
				 r->seq, r->slave_id,
				 !after ? "its predecessor was not served before it"
					: "the reply it held did not allow two (depth 1)");
			return DLS_ESTATE;
		}
	}
	if (r->acp < 1 || r->acp > SCHED_MAX_ACP) {
		snprintf(why, len, "A_i = %lld: a slave requests only with 1 <= A_i <= %lld",
			 (long long)r->acp, (long long)SCHED_MAX_ACP);
		return DLS_EINVAL;
	}
	rc = ledger_check(l, &c->held, r->slave_id, r->results, r->nresults, &total, why, len);
	if (rc)
		return rc;
	if (piggyback && !c->may_prefetch && ledger_left_before_newest(&c->held, r->results,
								       r->nresults) != 0) {
		snprintf(why, len,
			 "slave %d holds %lld undelivered iterations and its request delivers "
			 "%lld, leaving some of a chunk older than its last one: piggy-backed "
			 "results must complete every chunk but the last one given",
			 r->slave_id, (long long)ledger_held_undelivered(&c->held), (long long)total);
		ledger_unmark(l, r->results, r->nresults);
		return DLS_ESTATE;
	}
	return DLS_OK;
}

int serve_early(const struct serve_child *c, const struct dls_request *r)
{
	return r->second && (!c->has_reply || r->seq > c->last_seq + 1);
}

int serve_depth(int64_t count, int64_t left, int npes)
{
	return count > 0 && npes > 0 && left / npes / SERVE_DEPTH_SHARE >= count ? 2 : 1;
}

void serve_remember(struct serve_child *c, const struct dls_request *r,
		    const struct dls_reply *out)
{
	c->has_prev = c->has_reply;
	c->prev_seq = c->last_seq;
	c->prev_reply = c->last_reply;
	c->has_reply = 1;
	c->last_seq = r->seq;
	c->last_reply = *out;
}

/* Appends block b to *kept (*nk of *cap, grown as needed). */
static int keep_block(struct dls_result b, struct dls_result **kept, size_t *nk, size_t *cap)
{
	if (*nk == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		struct dls_result *v = realloc(*kept, c * sizeof(*v));

		if (!v)
			return DLS_ENOMEM;
		*kept = v;
		*cap = c;
	}
	(*kept)[(*nk)++] = b;
	return DLS_OK;
}

/* Iterations [start, start + count) of block r, whose iterations are rb octets each. */
static struct dls_result part_of(const struct dls_result *r, int64_t start, int64_t count,
				 size_t rb)
{
	return (struct dls_result){start, count,
				   (const uint8_t *)r->data + (size_t)(start - r->start) * rb,
				   (size_t)count * rb, r->loop};
}

/* Keeps the runs of block r (it fits the loop) that c holds undelivered
 * now, one iteration at a time, each run inside one of c's ranges (the
 * ledger takes a block only so): work it held before it was lost may
 * overlap work given to it since, in several ranges, partly delivered.
 * The rest is counted in *dropped.  DLS_OK or DLS_ENOMEM. */
static int keep_held_runs(struct ledger *l, const struct serve_child *c, int who,
			  const struct dls_result *r, struct dls_result **kept, size_t *nk,
			  size_t *cap, int64_t *dropped)
{
	size_t rb = l->result_bytes;
	int64_t run = -1, run_end = -1, end = r->start + r->count;
	char scratch[160];

	for (int64_t i = r->start; i <= end; i++) {
		int held = 0;

		if (i < end) {
			struct dls_result one = part_of(r, i, 1, rb);
			int64_t total;

			held = !ledger_check(l, &c->held, who, &one, 1, &total, scratch,
					     sizeof(scratch));
			if (held)
				ledger_unmark(l, &one, 1);
			else
				(*dropped)++;
		}
		/* a run ends where c's holding does, or where its range does */
		if (run >= 0 && (!held || i == run_end)) {
			if (keep_block(part_of(r, run, i - run, rb), kept, nk, cap))
				return DLS_ENOMEM;
			run = -1;
		}
		if (held && run < 0) {
			const struct ledger_held_range *g = ledger_held_at(&c->held, i);

			run = i;
			run_end = g->start + g->count;
		}
	}
	return DLS_OK;
}

/* Appends range (start, count), released from child `from` (-1: none), to q. */
static int ranges_append(struct serve_ranges *q, int64_t start, int64_t count, int from)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 8;
		struct dls_range *v = realloc(q->v, cap * sizeof(*v));
		int *f;

		if (!v)
			return DLS_ENOMEM;
		q->v = v;
		f = realloc(q->from, cap * sizeof(*f));
		if (!f)
			return DLS_ENOMEM;
		q->from = f;
		q->cap = cap;
	}
	q->v[q->n] = (struct dls_range){start, count};
	q->from[q->n++] = from;
	return DLS_OK;
}

/* Removes range at of q. */
static void ranges_remove(struct serve_ranges *q, size_t at)
{
	memmove(q->v + at, q->v + at + 1, (q->n - at - 1) * sizeof(*q->v));
	memmove(q->from + at, q->from + at + 1, (q->n - at - 1) * sizeof(*q->from));
	q->n--;
}

int serve_drop_lost_work(struct ledger *l, const struct serve_child *c, int who,
			 const struct dls_result **res, size_t *n, struct dls_result **kept,
			 int64_t *dropped, char *why, size_t len)
{
	char scratch[160];
	size_t k = 0, cap = *n;
	int rc = DLS_OK;

	*kept = NULL;
	*dropped = 0;
	if (!*n)
		return DLS_OK;
	*kept = malloc(cap * sizeof(**kept));
	if (!*kept)
		rc = DLS_ENOMEM;
	for (size_t b = 0; !rc && b < *n; b++) {
		const struct dls_result *r = &(*res)[b];
		int64_t total;

		if (ledger_fits(l, r, scratch, sizeof(scratch))) {
			rc = keep_block(*r, kept, &k, &cap); /* serve_take refuses it, as from anyone */
			continue;
		}
		if (!ledger_check(l, &c->held, who, r, 1, &total, scratch, sizeof(scratch))) {
			ledger_unmark(l, r, 1);
			rc = keep_block(*r, kept, &k, &cap);
		} else {
			rc = keep_held_runs(l, c, who, r, kept, &k, &cap, dropped);
		}
	}
	if (rc) {
		free(*kept);
		*kept = NULL;
		snprintf(why, len, "out of memory");
		return rc;
	}
	*res = *kept;
	*n = k;
	return DLS_OK;
}

int serve_current_loop(uint32_t loop, int who, const struct dls_result **res, size_t *n,
		       struct dls_result **kept, size_t *dropped, char *why, size_t len)
{
	size_t k = 0, stays = 0;

	*kept = NULL;
	*dropped = 0;
	for (size_t i = 0; i < *n; i++) {
		if ((*res)[i].loop > loop) {
			snprintf(why, len, "results of loop %u from slave %d: the run is in loop %u",
				 (unsigned)(*res)[i].loop, who, (unsigned)loop);
			return DLS_EINVAL;
		}
		stays += (*res)[i].loop == loop;
	}
	if (stays == *n)
		return DLS_OK;
	*kept = malloc((stays ? stays : 1) * sizeof(**kept));
	if (!*kept) {
		snprintf(why, len, "out of memory");
		return DLS_ENOMEM;
	}
	for (size_t i = 0; i < *n; i++)
		if ((*res)[i].loop == loop)
			(*kept)[k++] = (*res)[i];
	*dropped = *n - stays;
	*res = *kept;
	*n = stays;
	return DLS_OK;
}

void serve_log_lost_work(int who, int64_t dropped, const char *went_to)
{
	if (dropped)
		log_warn("slave %d sent results of %lld iterations it held before it was lost: "
			 "dropped (that work went to %s)",
			 who, (long long)dropped, went_to);
}

void serve_forget_loop(struct serve_child *c)
{
	ledger_held_free(&c->held);
	c->held.given = 0;
}

void serve_forget_replies(struct serve_child *c)
{
	c->has_reply = c->has_prev = 0;
}

void serve_queue_join(struct serve_queue *q, struct serve_waiter *w, int64_t acp)
{
	struct serve_waiter **at = &q->head;

	w->acp = acp;
	w->arrival = q->arrivals++;
	dls_cond_init(&w->turn);
	while (*at && !sched_acpsa_before(acp, (double)w->arrival, (*at)->acp,
					   (double)(*at)->arrival))
		at = &(*at)->next;
	w->next = *at;
	*at = w;
}

void serve_queue_leave(struct serve_queue *q, struct serve_waiter *w)
{
	struct serve_waiter **at = &q->head;

	while (*at && *at != w)
		at = &(*at)->next;
	if (*at)
		*at = w->next;
	pthread_cond_destroy(&w->turn);
	serve_queue_wake_head(q);
}

struct serve_waiter *serve_queue_take_head(struct serve_queue *q)
{
	struct serve_waiter *w = q->head;

	if (w)
		q->head = w->next;
	return w;
}

void serve_queue_wake_head(struct serve_queue *q)
{
	if (q->head)
		pthread_cond_signal(&q->head->turn);
}

void serve_queue_wake_all(struct serve_queue *q)
{
	for (struct serve_waiter *w = q->head; w; w = w->next)
		pthread_cond_signal(&w->turn);
}

int serve_ranges_push(struct serve_ranges *q, int64_t start, int64_t count)
{
	return ranges_append(q, start, count, -1);
}

int serve_ranges_pop(struct serve_ranges *q, struct dls_range *out)
{
	return serve_ranges_pop_for(q, -1, out);
}

int serve_ranges_pop_for(struct serve_ranges *q, int who, struct dls_range *out)
{
	size_t at = 0;

	if (!q->n)
		return 0;
	for (size_t k = 0; who >= 0 && k < q->n; k++)
		if (q->from[k] == who) {
			at = k;
			break;
		}
	*out = q->v[at];
	ranges_remove(q, at);
	return 1;
}

int64_t serve_ranges_left(const struct serve_ranges *q)
{
	int64_t n = 0;

	for (size_t k = 0; k < q->n; k++)
		n += q->v[k].count;
	return n;
}

void serve_ranges_free(struct serve_ranges *q)
{
	free(q->v);
	free(q->from);
	*q = (struct serve_ranges){0};
}

struct release_to {
	struct serve_ranges *q;
	int from;
};

/* ledger_release's callback: the range goes to the next requests. */
static int give_back(void *ctx, int64_t start, int64_t count)
{
	struct release_to *to = ctx;

	return ranges_append(to->q, start, count, to->from);
}

int64_t serve_release(struct ledger *l, struct serve_child *c, int who, struct serve_ranges *q)
{
	struct release_to to = {q, who};
	int64_t moved = ledger_release(l, &c->held, give_back, &to);

	return moved > 0 ? moved : 0;
}
