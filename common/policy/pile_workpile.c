/*
 * pile_workpile.c - Rudolph et al. 1991's local workpiles with random-pair balancing
 * (Rudolph, Slivkin-Allalouf & Upfal, Fig. 2), across a network, as the
 * rules of one PE (pile_policy.h):
 *
 * - before taking its next iteration, PE i draws with probability 1/l_i
 *   (l_i: its pile) whether to balance; an idle PE always does, and when a
 *   pairing brings nothing it retries after a backoff that doubles from
 *   backoff_s up to backoff_max_s (reset when work arrives);
 * - balancing: i sends its length to a random living r != i (PAIR); r
 *   compares it with its own: when r's pile is longer by more than the
 *   threshold it sends i half the difference from its tail; when i's is, it
 *   asks i for half the difference (REPLY carries the amount), which i sends
 *   from its tail if it still has more than r had; otherwise REPLY 0;
 * - one pairing per PE at a time (the paper's lock on the initiator's pile);
 *   the PE goes on computing while it waits, since across a network the
 *   pairing takes a round trip that the paper's shared memory did not.
 *
 * A PAIR unanswered for WP_LOST_S (its peer died) is given up.
 * Messages: PAIR a = the initiator's pile; REPLY a = how many the initiator
 * should send (0: none), b = the replier's pile.
 */
#include "dls/err.h"
#include "pile_policy.h"

enum { MSG_PAIR, MSG_REPLY };
enum { TIMER_RETRY, TIMER_LOST };

/* A PAIR unanswered this long is given up (its peer died on the way). */
#define WP_LOST_S 1.0

struct wp_state {
	int pairing;	/* a PAIR is out */
	double pair_at; /* since then */
	int waiting;	/* idle with a retry timer set */
	double backoff; /* the next retry's delay */
};

static int wp_init(void *st, const struct pile_host *h, double t)
{
	(void)t;
	((struct wp_state *)st)->backoff = h->params->backoff_s;
	return DLS_OK;
}

static int pair(struct wp_state *w, const struct pile_host *h, double t)
{
	struct pile_msg m = {MSG_PAIR, h->self, 0, h->len(h->ctx), 0, 0, 0};

	int rc;

	if (w->pairing || (m.to = pile_rand_other(h)) < 0)
		return DLS_OK;
	w->pairing = 1;
	w->pair_at = t;
	if ((rc = h->timer(h->ctx, TIMER_LOST, t + WP_LOST_S)))
		return rc;
	return h->send(h->ctx, &m, t);
}

static int wp_before_next(void *st, const struct pile_host *h, double t)
{
	uint64_t l = (uint64_t)h->len(h->ctx);

	/* with probability 1/l */
	if (l > 0 && h->rand(h->ctx) % l == 0)
		return pair(st, h, t);
	return DLS_OK;
}

static int wp_on_idle(void *st, const struct pile_host *h, double t)
{
	return pair(st, h, t);
}

/* At r: even out with the initiator, whose pile had m->a. */
static int on_pair(const struct pile_host *h, const struct pile_msg *m, double t)
{
	int64_t lr = h->len(h->ctx), li = m->a, tau = h->params->threshold;
	struct pile_msg reply = {MSG_REPLY, h->self, m->from, 0, lr, 0, 0};
	int rc;

	if (li < 0) /* nonsense from a peer: nothing moves */
		li = lr;
	if (lr - li > tau && (rc = h->give(h->ctx, m->from, (lr - li) / 2, t, NULL)))
		return rc;
	if (li - lr > tau)
		reply.a = (li - lr) / 2; /* the initiator should send this many */
	return h->send(h->ctx, &reply, t);
}

/* Back at i: send what r asked for, or wait and retry if still idle. */
static int on_reply(struct wp_state *w, const struct pile_host *h, const struct pile_msg *m,
		    double t)
{
	int rc;

	w->pairing = 0;
	if (m->a > 0 && m->b >= 0) {
		int64_t n = (h->len(h->ctx) - m->b) / 2; /* r had m->b */

		if (n > m->a)
			n = m->a;
		if (n > 0 && (rc = h->give(h->ctx, m->from, n, t, NULL)))
			return rc;
	}
	if (h->busy(h->ctx) || h->len(h->ctx) > 0 || w->waiting)
		return DLS_OK;
	w->waiting = 1;
	rc = h->timer(h->ctx, TIMER_RETRY, t + w->backoff);
	w->backoff *= 2;
	if (w->backoff > h->params->backoff_max_s)
		w->backoff = h->params->backoff_max_s;
	return rc;
}

static int wp_on_message(void *st, const struct pile_host *h, const struct pile_msg *m, double t)
{
	if (m->kind == MSG_PAIR)
		return on_pair(h, m, t);
	if (m->kind == MSG_REPLY)
		return on_reply(st, h, m, t);
	return DLS_OK; /* not ours: ignored */
}

static int wp_on_timer(void *st, const struct pile_host *h, int kind, double t)
{
	struct wp_state *w = st;

	if (kind == TIMER_LOST) {
		if (!w->pairing || t < w->pair_at + WP_LOST_S)
			return DLS_OK; /* answered, or a later PAIR's */
		w->pairing = 0;	       /* never answered: ask anew */
	} else {
		w->waiting = 0;
	}
	if (h->busy(h->ctx) || h->len(h->ctx) > 0 || w->waiting)
		return DLS_OK;
	return pair(w, h, t);
}

static int wp_on_arrival(void *st, const struct pile_host *h, int from, int64_t n, double t)
{
	(void)from;
	(void)n;
	(void)t;
	((struct wp_state *)st)->backoff = h->params->backoff_s;
	return DLS_OK;
}

const struct pile_policy_ops pile_workpile_ops = {
	sizeof(struct wp_state), wp_init, wp_before_next, wp_on_idle, wp_on_message,
	wp_on_timer, wp_on_arrival, NULL, NULL,
};
