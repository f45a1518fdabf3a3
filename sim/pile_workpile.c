/*
 * pile_workpile.c - seed 003's local workpiles with random-pair balancing
 * (Rudolph, Slivkin-Allalouf & Upfal, Fig. 2), across a network:
 *
 * - before taking its next iteration, PE i draws with probability 1/l_i
 *   (l_i: its pile) whether to balance; an idle PE always does, and when a
 *   pairing brings nothing it retries after a backoff that doubles from
 *   backoff_s up to backoff_max_s (reset when work arrives);
 * - balancing: i sends its length to a random r != i (PAIR); r compares it
 *   with its own: when r's pile is longer by more than the threshold it
 *   sends i half the difference from its tail; when i's is, it asks i for
 *   half the difference (REPLY carries the amount), which i sends from its
 *   tail if it still has more than r had; otherwise REPLY 0;
 * - one pairing per PE at a time (the seed's lock on the initiator's pile);
 *   the PE goes on computing while it waits, since across a network the
 *   pairing takes a round trip that the seed's shared memory did not.
 */
#include <stdlib.h>

#include "dls/err.h"
#include "pile_internal.h"

enum { MSG_PAIR, MSG_REPLY };
enum { TIMER_RETRY };

struct wp_pe {
	int pairing;	/* a PAIR is out */
	int waiting;	/* idle with a retry timer set */
	double backoff; /* the next retry's delay */
};

static struct wp_pe *st(struct pile *s, int pe)
{
	return &((struct wp_pe *)s->policy)[pe];
}

static int wp_init(struct pile *s)
{
	struct wp_pe *v = calloc((size_t)s->c->npes, sizeof(*v));

	if (!v)
		return DLS_ENOMEM;
	for (int i = 0; i < s->c->npes; i++)
		v[i].backoff = s->c->params.backoff_s;
	s->policy = v;
	return DLS_OK;
}

static void wp_fini(struct pile *s)
{
	free(s->policy);
	s->policy = NULL;
}

static int pair(struct pile *s, int pe, double t)
{
	struct pile_msg m = {MSG_PAIR, pe, 0, pile_len(s, pe), 0, 0, 0};

	if (s->c->npes < 2 || st(s, pe)->pairing)
		return DLS_OK;
	m.to = pile_rand_other(s, pe);
	st(s, pe)->pairing = 1;
	return pile_send(s, &m, t);
}

static int wp_before_next(struct pile *s, int pe, double t)
{
	uint64_t l = (uint64_t)pile_len(s, pe);

	/* probability 1/l: a draw below 2^64/l */
	if (pile_rand(s, pe) % l == 0)
		return pair(s, pe, t);
	return DLS_OK;
}

static int wp_on_idle(struct pile *s, int pe, double t)
{
	return pair(s, pe, t);
}

/* At r: even out with the initiator, whose pile had m->a. */
static int on_pair(struct pile *s, const struct pile_msg *m, double t)
{
	int r = m->to, i = m->from;
	int64_t lr = pile_len(s, r), li = m->a, tau = s->c->params.threshold;
	struct pile_msg reply = {MSG_REPLY, r, i, 0, lr, 0, 0};
	int rc;

	if (lr - li > tau && (rc = pile_give(s, r, i, (lr - li) / 2, t, NULL)))
		return rc;
	if (li - lr > tau)
		reply.a = (li - lr) / 2; /* i should send this many */
	return pile_send(s, &reply, t);
}

/* Back at i: send what r asked for, or wait and retry if still idle. */
static int on_reply(struct pile *s, const struct pile_msg *m, double t)
{
	int i = m->to;
	struct wp_pe *w = st(s, i);
	int rc;

	w->pairing = 0;
	if (m->a > 0) {
		int64_t n = (pile_len(s, i) - m->b) / 2; /* r had m->b */

		if (n > m->a)
			n = m->a;
		if (n > 0 && (rc = pile_give(s, i, m->from, n, t, NULL)))
			return rc;
	}
	if (pile_busy(s, i) || pile_len(s, i) > 0 || w->waiting)
		return DLS_OK;
	w->waiting = 1;
	rc = pile_timer(s, i, TIMER_RETRY, t + w->backoff);
	w->backoff *= 2;
	if (w->backoff > s->c->params.backoff_max_s)
		w->backoff = s->c->params.backoff_max_s;
	return rc;
}

static int wp_on_message(struct pile *s, const struct pile_msg *m, double t)
{
	return m->kind == MSG_PAIR ? on_pair(s, m, t) : on_reply(s, m, t);
}

static int wp_on_timer(struct pile *s, int pe, int kind, double t)
{
	(void)kind;
	st(s, pe)->waiting = 0;
	if (pile_busy(s, pe) || pile_len(s, pe) > 0)
		return DLS_OK;
	return pair(s, pe, t);
}

static int wp_on_arrival(struct pile *s, int pe, int from, int64_t n, double t)
{
	(void)from;
	(void)n;
	(void)t;
	st(s, pe)->backoff = s->c->params.backoff_s;
	return DLS_OK;
}

const struct pile_policy_ops pile_workpile_ops = {
	wp_init, wp_before_next, wp_on_idle, wp_on_message, wp_on_timer, wp_on_arrival, wp_fini,
};
