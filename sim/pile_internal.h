/*
 * pile_internal.h - between the pile engine (pile_sim.c, pile_engine.c) and
 * its policy; private to sim/.  The per-PE rules of workpile, roc and
 * ripple (common/policy/pile_policy.h) run through the adapter pile_local.c, which
 * gives each PE its struct pile_host.
 *
 * The engine owns the piles, the clock and the events: a PE computes the
 * iterations of its pile from the head, one at a time; at each boundary it
 * calls the policy's before_next (the PE has work) or on_idle (it has none);
 * work arriving at an idle PE starts it at once.  A policy acts only through
 * pile_give (iterations from the tail of a pile, arriving after the
 * latency), pile_send (a message), pile_timer and pile_rand.
 */
#ifndef DLS_PILE_INTERNAL_H
#define DLS_PILE_INTERNAL_H

#include <stdint.h>

#include "event_heap.h"
#include "pile_sim.h"

struct pile;

/* Events, in the order they are handled at equal times. */
enum { EV_END, EV_ARRIVE, EV_MSG, EV_TIMER };

struct pile_event {
	double t;
	int kind;
	uint64_t seq;
	int pe;		     /* EV_END, EV_TIMER: the PE; EV_ARRIVE: the receiver */
	int from, timer;     /* EV_ARRIVE: the giver; EV_TIMER: the policy's kind */
	int64_t n;	     /* EV_ARRIVE: how many */
	int64_t *its;	     /* EV_ARRIVE: the iterations (owned by the event) */
	struct pile_msg msg; /* EV_MSG */
};

/* A policy of the engine (all hooks optional). */
struct pile_engine_ops {
	int (*init)(struct pile *s);
	/* PE pe is at a boundary with work, about to take its next iteration */
	int (*before_next)(struct pile *s, int pe, double t);
	/* PE pe has nothing to compute (at the start, or after its last) */
	int (*on_idle)(struct pile *s, int pe, double t);
	int (*on_message)(struct pile *s, const struct pile_msg *m, double t);
	int (*on_timer)(struct pile *s, int pe, int kind, double t);
	/* n iterations from `from` were appended to pe's pile */
	int (*on_arrival)(struct pile *s, int pe, int from, int64_t n, double t);
	void (*fini)(struct pile *s);
};

/* One PE's pile: a ring of iteration numbers. */
struct pile_pe {
	int64_t *ring;
	int64_t head, len, cap;
	int busy;
	int64_t started; /* iterations taken from the pile so far */
	uint64_t rng;
};

struct pile {
	const struct pile_sim_config *c;
	struct pile_sim_result *out;
	const struct pile_engine_ops *ops;
	void *policy; /* the policy's own state */
	struct pile_pe *pe;
	struct event_heap ev;
	uint64_t seq;
	int64_t computed;
};

/* The heap's order: time, then kind, then the order pushed. */
int pile_event_before(const void *x, const void *y);

/* Queues e (its time on a 1e-9 grid, so that ties stay ties): DLS_OK or DLS_ENOMEM. */
int pile_push(struct pile *s, struct pile_event *e);

/* The k-th unstarted iteration of p (0: its head). */
int64_t *pile_ring_at(struct pile_pe *p, int64_t k);

/* Appends n iterations to the tail of p: DLS_OK or DLS_ENOMEM. */
int pile_ring_append(struct pile_pe *p, const int64_t *its, int64_t n);

/* Unstarted iterations in pe's pile. */
int64_t pile_len(const struct pile *s, int pe);

/* Non-zero while pe computes an iteration. */
int pile_busy(const struct pile *s, int pe);

/*
 * Moves min(n, pile_len(from)) iterations from the tail of from's pile to
 * the tail of to's, arriving after the latency; *moved (may be NULL) gets
 * how many.  Counted as one migration when any moved.  DLS_OK or DLS_ENOMEM.
 */
int pile_give(struct pile *s, int from, int to, int64_t n, double t, int64_t *moved);

/* Sends m (m->to) after the latency; counted as a message.  DLS_OK or DLS_ENOMEM. */
int pile_send(struct pile *s, const struct pile_msg *m, double t);

/* Calls on_timer(pe, kind) at time at.  DLS_OK or DLS_ENOMEM. */
int pile_timer(struct pile *s, int pe, int kind, double at);

/* The next 64 random bits of pe's own generator (seeded from c->seed and pe). */
uint64_t pile_rand(struct pile *s, int pe);

/* The per-PE rules (workpile, roc, ripple), each PE through its pile_host. */
extern const struct pile_engine_ops pile_local_ops;

#endif
