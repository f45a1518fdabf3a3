/*
 * slave_ahead.h - asking ahead: a slave's next request goes out
 * from a thread of its own while the current chunk still computes, timed so
 * that its reply comes back about when the chunk ends.  The slave then never
 * idles for a round trip, and the master still sees each request about when
 * it would have come without the overlap, so the scheme's schedule keeps its
 * shape (PROTOCOL.md 5: one chunk in flight).
 *
 * The lead (how long before the chunk's end the request leaves) is learnt
 * from the slave's own earlier exchanges: the time expected for this one
 * (a round trip plus what its results add, a least-squares line) plus four
 * mean deviations (TCP's retransmission timeout, RFC 6298), at least
 * DLS_SLAVE_LEAD_RTTS expected exchanges; so it adapts to the link, to the
 * results' size, and to the master's load and its jitter.
 *
 * One request on its way per instance; a slave runs two, for the second
 * request a master may allow on its way (PROTOCOL.md 5, depth 2: when the
 * chunks take less than a round trip, the next request leaves as soon as
 * the last chunk given is computed, before its successor's reply is in).
 * The slave's thread posts and waits; the thread of each instance sends.
 * Not for Tree Scheduling.
 */
#ifndef DLS_SLAVE_AHEAD_H
#define DLS_SLAVE_AHEAD_H

#include <pthread.h>

#include "slave_internal.h"


struct ahead {
	struct run *r; /* the slave's run: its ops, cfg and ids (read here) */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started, quit;
	struct ahead *model; /* the instance whose exchange model learns (itself) */
	int posted;	 /* a request waits to be sent or is on its way */
	int on_way;	 /* ... it left (A_i >= 1) */
	int finished;	 /* ... and its answer is in rc, reply, sent */
	int hurry;	 /* send now, whatever send_at says */
	double send_at;	 /* dls_now() time at which it leaves */
	struct dls_request req;
	struct dls_chunk_time measured[DLS_MAX_MEASURED]; /* req's, copied */
	struct store out; /* the results it delivers (owned until ahead_wait) */
	struct dls_reply reply;
	int rc, sent;	 /* sent = 0: A_i was 0 when it was due, nothing went */
	/* the exchanges measured (seconds against octets of results): moving
	 * averages of x, y, x^2, x y for a least-squares line, and of the
	 * deviation from it */
	double mx, my, mxx, mxy, dev;
	double fastest; /* the fastest exchange measured */
	int samples;
	int exchanges;
	uint64_t unreached; /* calls that did not reach the master */
	char why[SLAVE_WHY_LEN];
};

/* Starts the sending thread for run r: DLS_OK or DLS_ENOMEM.  Its
 * exchanges teach its own model; set a->model to share another's. */
int ahead_start(struct ahead *a, struct run *r);

/* Stops the thread (waiting for a request on its way) and frees what it holds. */
void ahead_stop(struct ahead *a);

/*
 * One exchange (the results' submits and the request) that reached the
 * master at the first attempt took `took` seconds and carried `bytes` of
 * results: the model learns from it (moving averages, 1/8 a sample): the
 * time of an exchange as a line in its octets (least squares: the round
 * trip plus what each octet adds; while the sizes seen hardly vary, the
 * line through the fastest exchange and the mean one), and the mean
 * deviation from it.  The
 * first exchange of the run is skipped (it waited at the start gate).
 */
void ahead_note_rtt(struct ahead *a, double took, size_t bytes);

/*
 * How long before a chunk's end its successor's request, carrying `bytes`
 * of results, should leave: the exchange the model expects plus four mean
 * deviations (TCP's retransmission timeout, RFC 6298), at least
 * DLS_SLAVE_LEAD_RTTS times the expected exchange; 0 while none was
 * measured (do not ask ahead).
 */
double ahead_lead(struct ahead *a, size_t bytes);

/* The round trip the model expects without results (0: none measured). */
double ahead_round_trip(struct ahead *a);

/* The exchange the model expects with `bytes` of results (0: none measured). */
double ahead_expected(struct ahead *a, size_t bytes);

/* The fastest exchange measured (0: none). */
double ahead_fastest(struct ahead *a);

/* The octets of results in *s (0 for NULL). */
size_t ahead_bytes(const struct store *s);

/*
 * Posts request req (its seq, A_i filled in by the thread when it leaves:
 * A_i = 0 then sends nothing) with the results in *results, which are taken
 * over (*results is left empty); it leaves at dls_now() time `at` or when
 * ahead_hurry says.  One post at a time: ahead_wait before the next.
 */
void ahead_post(struct ahead *a, const struct dls_request *req, struct store *results, double at);

/* The posted request, if it has not left, leaves at `at` instead. */
void ahead_retime(struct ahead *a, double at);

/* Sends the posted request now if it has not left, and waits until it has
 * (or was not sent: A_i = 0): whether it is on its way, its answer not in
 * yet. */
int ahead_leave(struct ahead *a);

/* The chunk is done: send the posted request now if it has not left. */
void ahead_hurry(struct ahead *a);

/*
 * Waits for the posted request: its call's status (as slave_exchange), the
 * reply in *reply when *sent; why filled on failure.  The results it
 * carried are freed once sent; when it was not (A_i was 0) they are moved
 * to the end of *unsent, to be delivered otherwise.
 */
int ahead_wait(struct ahead *a, struct dls_reply *reply, int *sent, struct store *unsent);

#endif
