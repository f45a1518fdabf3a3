/*
 * slave_loop.c - the master-slave loop of Chronopoulos et al. 2002 (DTSS slave steps 1-4,
 * step 4 looping to step 2 so that A_i is refreshed before every request,
 * docs/schemes.md 7.10), asking ahead (slave_ahead.h): the request for
 * the next chunk leaves while the current one computes, and carries the
 * results of the chunk before it (PROTOCOL.md 5, one chunk in flight).
 * Where the master allows it (depth 2) and the chunks take less than a
 * round trip, a second request leaves as soon as a chunk is computed,
 * before the answer to the first is in: the slave then waits a round trip
 * per two chunks instead of per chunk.
 */
#include "slave.h"
#include "slave_ahead.h"
#include "slave_call.h"
#include "slave_internal.h"
#include "slave_watch.h"
#include "idle_worker.h"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"

struct loop {
	struct run *r;
	int piggy;	     /* results ride on requests */
	int ahead_on;	     /* cfg->overlap, and the sending threads run */
	struct ahead snd[2]; /* the senders; snd[0]'s model learns the exchanges */
	int cur;	     /* the sender of this chunk's successor's request */
	int next_out;	     /* ... and the request after it left too (depth 2) */
	int64_t seconds;     /* second requests sent */
	double t0;	     /* when this chunk began */
	struct idle_worker worker; /* emulated: the real computation, at SCHED_IDLE */
	struct store done;   /* piggy-back: finished chunks' results, undelivered */
	struct store none;   /* what an end-collection request delivers: nothing */
	double spi;	     /* real mode: seconds an iteration, moving average */
	int posted;	     /* this chunk's successor's request is posted (real) */
	int asked;	     /* ... or was asked in the emulated sleep */
	int tail_rc;	     /* how that went */
	int have;	     /* reply answers a request sent ahead */
	struct dls_reply reply;
	int64_t asked_ahead; /* requests that left while a chunk computed */
	double waited_ahead; /* seconds the chunks' ends waited for their answers */
	/* the chunks finished and not yet reported, as measured (the next
	 * request carries them: the adaptive schemes learn from them) */
	struct dls_chunk_time measured[DLS_MAX_MEASURED];
	int nmeasured;
	double prev_end; /* when the chunk before ended (or the loop began) */
	double idle_said; /* when "A_i = 0" was last logged (0: not waiting) */
	/* the slave leaves before the run is over (leave_run): its own side
	 * asked, or its loop body failed */
	enum { STAYS, LEAVE_ASKED, LEAVE_FAILED } leave;
};

/* How often a slave that waits with A_i = 0 says so again. */
#define SLAVE_IDLE_SAY_S 10.0

/* A_i = 0 under load q: says so when the wait begins and every
 * SLAVE_IDLE_SAY_S after, with V_i and q; nothing else shows why a run
 * whose slaves are all loaded makes no progress (docs/schemes.md
 * 7.11). */
static void say_idle(struct loop *L, double q)
{
	const struct run *r = L->r;
	double now = dls_now();

	if (L->idle_said > 0 && now - L->idle_said < SLAVE_IDLE_SAY_S)
		return;
	L->idle_said = now;
	log_warn("A_i = floor(V_i / Q_i) = floor(%.2f / %.2f) = 0: not asking for work until "
		 "the load drops (read again every %d ms)",
		 r->st->vpower, q, r->cfg->poll_ms);
}

/* Notes a chunk that began at t0 and computed for compute_s: elapsed adds
 * its wait since the chunk before ended.  The oldest goes if none could be
 * reported for long (A_i = 0). */
static void note_measured(struct loop *L, int64_t start, int64_t count, double t0, double compute_s)
{
	double wait = t0 > L->prev_end ? t0 - L->prev_end : 0;

	if (L->nmeasured == DLS_MAX_MEASURED) {
		memmove(L->measured, L->measured + 1, (DLS_MAX_MEASURED - 1) * sizeof(*L->measured));
		L->nmeasured--;
	}
	L->measured[L->nmeasured++] = (struct dls_chunk_time){start, count, compute_s,
							      compute_s + wait};
	L->prev_end = t0 + compute_s;
}

/* Hands the measured chunks to req (copied by the caller before the next
 * note_measured) and forgets them. */
static void attach_measured(struct loop *L, struct dls_request *req)
{
	req->measured = L->measured;
	req->nmeasured = (size_t)L->nmeasured;
}

/* Posts a request on sender k, leaving at `at`, with the finished results
 * (the sending thread sends while the chunk computes); second: it leaves
 * while the request before it is on its way. */
static void post_on(struct loop *L, int k, double at, int second)
{
	struct run *r = L->r;
	struct dls_request req;

	memset(&req, 0, sizeof(req));
	req.slave_id = r->st->id;
	req.seq = ++r->seq;
	req.times = r->st->times;
	req.second = second;
	attach_measured(L, &req);
	ahead_post(&L->snd[k], &req, L->piggy ? &L->done : &L->none, at); /* copies them */
	L->nmeasured = 0;
}

/* Posts this chunk's successor's request, leaving at `at`. */
static void post_next(struct loop *L, double at)
{
	post_on(L, L->cur, at, 0);
	L->posted = 1;
}

/* Whether a second request may leave when this chunk ends: the reply that
 * gave it allows depth 2, and the chunk takes less than the exchange that
 * request would make (with this chunk's results) and less than
 * DLS_SLAVE_SECOND_SHARE times the link's own round trip, the fastest
 * exchange seen: a second request hides the link's latency, while the
 * queue at the master and the waits for a core, which lengthen the mean
 * exchange, it only adds to. */
static int may_pipeline(struct loop *L, double chunk_s)
{
	size_t bytes = L->piggy ? ahead_bytes(&L->done) + ahead_bytes(&L->r->store) : 0;
	double rtt = ahead_expected(&L->snd[0], bytes), link = ahead_fastest(&L->snd[0]);

	return L->ahead_on && L->reply.kind == DLS_REPLY_WORK && L->reply.depth == 2 && rtt > 0 &&
	       chunk_s < rtt && chunk_s < DLS_SLAVE_SECOND_SHARE * link;
}

/* The chunk is computed and its successor's request has not been
 * answered: where allowed, the request after it leaves now, with this
 * chunk's results, from the other sender. */
static int maybe_second(struct loop *L)
{
	struct run *r = L->r;

	if (L->next_out || !may_pipeline(L, dls_now() - L->t0) || !ahead_leave(&L->snd[L->cur]))
		return DLS_OK;
	if (L->piggy && slave_store_take(&L->done, &r->store)) {
		snprintf(r->why, r->len, "out of memory");
		return DLS_ENOMEM;
	}
	post_on(L, 1 - L->cur, dls_now(), 1);
	L->next_out = 1;
	L->seconds++;
	return DLS_OK;
}

/* The request of steps 2-3 with A_i = acp and the finished results, sent
 * from this thread; the round trip is learnt. */
static int exchange_now(struct loop *L, int64_t acp)
{
	struct run *r = L->r;
	struct dls_request req;
	uint64_t unreached = r->unreached;
	double t0 = dls_now();
	size_t bytes = L->piggy ? ahead_bytes(&L->done) : 0;
	int rc;

	memset(&req, 0, sizeof(req));
	req.slave_id = r->st->id;
	req.seq = ++r->seq;
	req.acp = acp;
	req.times = r->st->times;
	attach_measured(L, &req);
	rc = slave_exchange(r, L->piggy ? &L->done : NULL, &req, &L->reply);
	L->nmeasured = 0;
	if (!rc && L->ahead_on && r->unreached == unreached)
		ahead_note_rtt(&L->snd[0], dls_now() - t0, bytes);
	slave_store_clear(&L->done);
	return rc;
}

/*
 * Emulated: the chunk's real computation is done and it ends at
 * `deadline`.  The slave sleeps (computing, as emulated) until a lead
 * before, then asks from this thread, and the slave_compute sleeps what is
 * left: no thread hand-over, which on a loaded machine costs more than it
 * hides.  Returns how long after the deadline the answer came.
 */
static double ask_in_sleep(struct run *r, double deadline)
{
	struct loop *L = r->tail_ctx;
	double lead = ahead_lead(&L->snd[0], L->piggy ? ahead_bytes(&L->done) : 0);
	double comwait = r->st->times.t_comwait, t0, back;
	int64_t acp;

	r->tail = NULL;
	if (may_pipeline(L, deadline - L->t0)) {
		/* a short chunk: its successor's request goes from the sender, so
		 * that the one after it can leave at the deadline */
		post_next(L, deadline - lead);
		return 0;
	}
	deadline = slave_sleep_before_end(r, deadline, lead);
	acp = slave_acp(r, dls_now(), NULL);
	if (acp < 1) /* not asking: the loop sees A_i = 0 after the chunk */
		return 0;
	t0 = dls_now();
	L->tail_rc = exchange_now(L, acp);
	L->asked = 1;
	back = dls_now();
	deadline = slave_chunk_deadline(r, deadline); /* a take-back may have cut it */
	log_debug("asked ahead: lead %.0f us, left %.0f us before the end, back %.0f us after",
		  lead * 1e6, (deadline - t0) * 1e6, (back - deadline) * 1e6);
	/* the call overlapped the chunk: only what came after its end waited */
	r->st->times.t_comwait = comwait;
	if (back <= deadline)
		return 0;
	L->waited_ahead += back - deadline;
	return back - deadline;
}

/* Delivers every result held (A_i = 0, or the end collection's WAIT). */
static int deliver_all(struct loop *L)
{
	struct run *r = L->r;
	int rc = slave_store_take(&L->done, &r->store);

	if (!rc)
		rc = slave_deliver(r, &L->done, 0);
	slave_store_clear(&L->done);
	return rc;
}

/* The answer to a request asked ahead is in L->reply: DONE or WORK are the
 * loop's next step; a WAIT means ask again at once, with this chunk's
 * results (end collection: deliver everything first). */
static int answered_ahead(struct loop *L)
{
	L->asked_ahead++;
	L->have = L->reply.kind != DLS_REPLY_WAIT;
	if (L->reply.kind == DLS_REPLY_WAIT && !L->piggy)
		return deliver_all(L);
	return DLS_OK;
}

/* Step 4: computes [start, start + count) and, asking ahead, gets the
 * answer to the request that left meanwhile (L->have). */
/* The second request on its way becomes the current chunk's successor's
 * request: its answer is the next one to wait for. */
static void take_second(struct loop *L)
{
	L->next_out = 0;
	L->cur = 1 - L->cur;
}

/* Waits for the answer of sender k into L->reply: its call's status;
 * *sent = 0 when it did not leave (A_i was 0: its results are back in
 * L->done). */
static int wait_sender(struct loop *L, int k, int *sent)
{
	struct run *r = L->r;
	double w0 = dls_now();
	int rc = ahead_wait(&L->snd[k], &L->reply, sent, &L->done);

	r->st->times.t_comwait += dls_now() - w0;
	L->waited_ahead += dls_now() - w0;
	return rc;
}

static int work_chunk(struct loop *L, int64_t start, int64_t count)
{
	struct run *r = L->r;
	double lead, t0 = dls_now(), comp0 = r->st->times.t_comp;
	int rc, wrc, sent;

	L->posted = L->asked = 0;
	L->tail_rc = DLS_OK;
	L->t0 = t0;
	if (L->piggy && slave_store_take(&L->done, &r->store)) {
		snprintf(r->why, r->len, "out of memory");
		return DLS_ENOMEM;
	}
	lead = L->ahead_on ? ahead_lead(&L->snd[0], L->piggy ? ahead_bytes(&L->done) : 0) : 0;
	/* the request leaves a lead before the chunk's end: emulated, asked in
	 * the sleep once the real computation knows the end; real, sent by
	 * the thread at the end estimated from the chunks before; with a
	 * second request out, that one is this chunk's successor's */
	if (L->next_out) {
		take_second(L);
		L->posted = 1;
	} else if (lead > 0 && r->cfg->emulated) {
		r->tail = ask_in_sleep;
		r->tail_ctx = L;
	} else if (lead > 0 && L->spi > 0) {
		post_next(L, t0 + (double)count * L->spi - lead);
	}
	log_debug("chunk [%lld, +%lld) starts", (long long)start, (long long)count);
	rc = slave_compute(r, start, count, &count); /* a take-back may keep fewer */
	r->tail = NULL;
	if (rc == DLS_ESTOPPED) /* the program ended the slave in the middle of it */
		L->leave = LEAVE_ASKED;
	else if (rc && rc != DLS_ENOMEM)
		L->leave = LEAVE_FAILED;
	log_debug("chunk [%lld, +%lld) ends", (long long)start, (long long)count);
	if (!rc) {
		double spi = (dls_now() - t0) / (double)count;

		L->spi = L->spi > 0 ? (L->spi + spi) / 2 : spi;
		note_measured(L, start, count, t0, r->st->times.t_comp - comp0);
	}
	if (L->asked)
		return rc ? rc : L->tail_rc ? L->tail_rc : answered_ahead(L);
	if (!L->posted)
		return rc;
	if (!rc)
		rc = maybe_second(L);
	wrc = wait_sender(L, L->cur, &sent);
	if (!rc && !wrc && L->next_out && (!sent || L->reply.kind != DLS_REPLY_WORK)) {
		/* no chunk came (WAIT, or A_i was 0): the second request, which
		 * carries the latest results, is the one that counts */
		take_second(L);
		wrc = wait_sender(L, L->cur, &sent);
	}
	if (rc || wrc)
		return rc ? rc : wrc;
	return sent ? answered_ahead(L) : DLS_OK;
}

/* Steps 2-3 without asking ahead: A_i now, then the request with every
 * finished result.  *asked = 0 when A_i was 0 (results delivered, slept). */
static int ask_now(struct loop *L, int *asked)
{
	struct run *r = L->r;
	double q;
	int64_t acp = slave_acp(r, dls_now(), &q);
	int rc;

	*asked = 0;
	if (acp < 1) { /* results must not wait with us: nobody could finish the run */
		say_idle(L, q);
		rc = L->piggy ? deliver_all(L) : DLS_OK;
		dls_sleep_ms(r->cfg->poll_ms);
		r->st->times.t_comwait += r->cfg->poll_ms / 1000.0;
		return rc;
	}
	if (L->piggy && slave_store_take(&L->done, &r->store)) {
		snprintf(r->why, r->len, "out of memory");
		return DLS_ENOMEM;
	}
	if (L->idle_said > 0) /* a warning too: it closes the one that said why */
		log_warn("A_i = %lld: asking for work again", (long long)acp);
	L->idle_said = 0;
	rc = exchange_now(L, acp);
	*asked = !rc;
	return rc;
}

/* Tells the master that this slave leaves (ops->leave), cause "it left:
 * WHAT": DLS_OK, or a code when it could not (then the master finds out by
 * its pings; said here). */
static int tell_leaving(struct run *r, const char *what)
{
	char cause[SLAVE_WHY_LEN + 16], why[SLAVE_WHY_LEN];
	int rc;

	if (!r->ops->leave)
		return DLS_ENOENT;
	snprintf(cause, sizeof(cause), "it left: %s", what);
	rc = r->ops->leave(r->ops->ctx, r->st->id, cause, why, sizeof(why));
	if (rc)
		log_warn("leaving: the master was not told (%s): it finds out by its pings", why);
	return rc;
}

/*
 * The slave leaves before the run is over (L->leave; rc: how the loop
 * ended): what it computed goes to the master, then the master is told, so
 * that what it held goes to others at once.  Returns DLS_ESTOPPED when it
 * was asked to leave, else rc; why says what became of its results.
 */
static int leave_run(struct loop *L, int rc)
{
	struct run *r = L->r;
	char why[SLAVE_WHY_LEN];
	int64_t n = slave_store_iterations(&r->store) + slave_store_iterations(&L->done);
	int drc, lrc = DLS_ENOENT;

	snprintf(why, sizeof(why), "%s", r->why);
	drc = deliver_all(L);
	if (drc) {
		log_warn("leaving: %lld computed iterations not delivered (%s): the master gives "
			 "them to others",
			 (long long)n, r->why);
		snprintf(r->why, r->len, "%s", why);
	} else {
		lrc = tell_leaving(r, L->leave == LEAVE_ASKED ? "its program stopped it" : why);
	}
	if (L->leave == LEAVE_FAILED)
		return rc;
	snprintf(r->why, r->len,
		 "stopped on request before the run ended: %s (%lld iterations computed, %lld "
		 "of them delivered as it left)%s",
		 drc ? "its last results not delivered" : "every result it computed delivered",
		 (long long)r->st->iterations, (long long)n,
		 lrc ? "" : "; the rest it held given back");
	return DLS_ESTOPPED;
}

/* The reply is the first chunk of the run's next loop and carries its job
 * (PROTOCOL.md 18): every result of the loop before is in, so what this
 * slave keeps of it goes; the job is checked and opened (slave_next_job).
 * A job this slave cannot compute ends its run: it leaves, the master
 * gives the chunk to others.  DLS_OK or that refusal. */
static int begin_loop(struct loop *L)
{
	struct run *r = L->r;
	int rc = L->reply.has_job < 0 ? DLS_EINVAL : slave_next_job(r, &L->reply.job);

	if (L->reply.has_job < 0)
		snprintf(r->why, r->len, "the job of the next loop could not be read");
	if (rc) {
		log_err("cannot compute the next loop: %s", r->why);
		L->leave = LEAVE_FAILED;
		return rc;
	}
	slave_store_clear(&L->done);
	slave_store_clear(&r->store);
	L->done.loop = L->none.loop = r->loop;
	L->nmeasured = 0;
	if (r->ops->loop_begins)
		r->ops->loop_begins(r->ops->ctx, r->loop, &r->job);
	log_debug("loop %u begins: %lld iterations", (unsigned)r->loop,
		  (long long)r->job.iterations);
	return DLS_OK;
}

static int loop_run(struct loop *L)
{
	struct run *r = L->r;
	const struct slave_ops *ops = r->ops;

	for (;;) {
		int rc, asked = 1, stop = ops->stop_requested ? ops->stop_requested(ops->ctx) : 0;

		if (stop) {
			snprintf(r->why, r->len, "stopped on request");
			if (stop == SLAVE_STOP_LEAVE)
				L->leave = LEAVE_ASKED;
			return DLS_OK;
		}
		if (!L->have) {
			rc = ask_now(L, &asked);
			if (rc)
				return rc;
			if (!asked)
				continue;
		}
		L->have = 0;
		if (L->reply.kind == DLS_REPLY_DONE)
			return DLS_OK;
		if (L->reply.kind == DLS_REPLY_WAIT) {
			int ms = L->reply.wait_ms > 0 ? L->reply.wait_ms : r->cfg->poll_ms;

			/* end-of-run collection: now deliver everything */
			if (!L->piggy && (rc = deliver_all(L)))
				return rc;
			dls_sleep_ms(ms);
			r->st->times.t_comwait += ms / 1000.0;
			continue;
		}
		if (L->reply.has_job && (rc = begin_loop(L)))
			return rc;
		rc = work_chunk(L, L->reply.start, L->reply.count);
		if (rc)
			return rc;
	}
}

/* Step 1's call, as slave_call makes it: Speed up, V_i and the job down. */
static int register_once(void *arg, char *why, size_t len)
{
	struct run *r = arg;

	return r->ops->register_slave(r->ops->ctx, r->cfg->name, slave_declared_speed(r->cfg),
				      &r->st->id, &r->st->vpower, &r->job, why, len);
}

/* The loop's helper threads: the two that ask ahead (cfg->overlap) and,
 * emulated at low priority, the one that computes for real.  DLS_OK, or
 * DLS_ENOMEM with why when the first cannot start (none left running). */
static int start_helpers(struct loop *L, char *why, size_t len)
{
	struct run *r = L->r;
	int rc;

	if (r->cfg->overlap) {
		rc = ahead_start(&L->snd[0], r);
		if (!rc && (rc = ahead_start(&L->snd[1], r)))
			ahead_stop(&L->snd[0]);
		if (rc) {
			snprintf(why, len, "cannot start the threads that ask ahead");
			return rc;
		}
		L->snd[1].model = &L->snd[0];
		L->ahead_on = 1;
	}
	if (r->cfg->emulated && r->cfg->low_priority) {
		if (idle_worker_start(&L->worker) == DLS_OK)
			r->worker = &L->worker;
		else
			log_warn("no thread for the real computation: it keeps the normal priority");
	}
	return DLS_OK;
}

/* Stops start_helpers' threads; says how asking ahead went. */
static void stop_helpers(struct loop *L)
{
	L->r->worker = NULL;
	idle_worker_stop(&L->worker);
	if (!L->ahead_on)
		return;
	log_info("asked ahead for %lld of %lld chunks (%lld of them a second request on its way); "
		 "their ends waited %.1f ms in all; round trip %.0f us",
		 (long long)L->asked_ahead, (long long)L->r->st->chunks, (long long)L->seconds,
		 L->waited_ahead * 1e3, ahead_round_trip(&L->snd[0]) * 1e6);
	ahead_stop(&L->snd[1]);
	ahead_stop(&L->snd[0]);
}

int slave_run(const struct slave_config *cfg, const struct slave_ops *ops, struct dls_slave_stats *st,
	      char *why, size_t len)
{
	struct run r = {0};
	struct loop L;
	struct slave_watch watch;
	int rc;

	memset(st, 0, sizeof(*st));
	memset(&L, 0, sizeof(L));
	r.cfg = cfg;
	r.ops = ops;
	r.st = st;
	r.why = why;
	r.len = len;
	why[0] = '\0';
	/* step 1: Speed up, V_i down (blocks until every slave registered) */
	rc = slave_call(&r, register_once, &r, why, len);
	if (rc)
		return rc;
	r.registered = 1;
	r.cut = ops->cut;
	/* Chronopoulos et al. 2002's T_com+wait is the loop's, not the start-up's */
	st->times.t_comwait = 0;
	r.t0 = dls_now();
	rc = slave_setup(&r);
	if (rc) {
		tell_leaving(&r, why); /* the master need not wait for its requests */
		return rc;
	}
	if (ops->registered)
		ops->registered(ops->ctx, st->id, &r.job);
	log_info("registered as slave %d, V_i = %g, workload '%s', %lld iterations", st->id,
		 st->vpower, r.job.workload, (long long)r.job.iterations);
	L.r = &r;
	L.piggy = r.job.collect == DLS_COLLECT_PIGGYBACK;
	L.prev_end = dls_now();
	rc = start_helpers(&L, why, len);
	if (rc) {
		slave_teardown(&r);
		return rc;
	}
	if (slave_watch_start(&watch, &r))
		log_warn("no thread to watch the master: a master gone for good is noticed at "
			 "the next call");
	rc = loop_run(&L);
	slave_watch_stop(&watch);
	stop_helpers(&L);
	if (L.leave != STAYS && !atomic_load(&r.parent_gone))
		rc = leave_run(&L, rc);
	slave_store_free(&L.done);
	slave_teardown(&r);
	return rc;
}
