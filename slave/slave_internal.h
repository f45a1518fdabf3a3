/*
 * slave_internal.h - what the master-slave loop (slave.c) and Tree
 * Scheduling's loop (slave_tree.c) share: results waiting to be sent, the
 * run's state, the emulated computation, bounded retries.
 */
#ifndef DLS_SLAVE_INTERNAL_H
#define DLS_SLAVE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "host_peers.h"
#include "iter_order.h"
#include "slave.h"
#include "work.h"

/* Results computed and not yet delivered, in blocks that fit a message. */
struct store {
	struct dls_result *blocks;
	void **bufs;
	size_t n, cap;
	uint32_t loop; /* the run's loop that blocks added from now on are of */
};

void slave_store_clear(struct store *s);
void slave_store_free(struct store *s);
/* Adds the results of [start, start + count) of loop s->loop, nbytes octets
 * (buf is taken over). */
int slave_store_add(struct store *s, int64_t start, int64_t count, void *buf, size_t nbytes);
/* Drops the results of [from, to) from the store (blocks cut or freed). */
void slave_store_trim(struct store *s, int64_t from, int64_t to, size_t result_bytes);
/* Moves every block of src to the end of dst, each keeping its loop: DLS_OK
 * or DLS_ENOMEM. */
int slave_store_take(struct store *dst, struct store *src);
/* The iterations whose results the store holds. */
int64_t slave_store_iterations(const struct store *s);

struct idle_worker;

struct run {
	const struct slave_config *cfg;
	const struct slave_ops *ops;
	struct dls_slave_stats *st;
	struct dls_job job;
	struct work work; /* the job's workload, opened, with its iteration order */
	uint32_t loop;	  /* the run's loop being computed (0 first) */
	struct emul_steps power; /* V/Q(t) of this slave, emulated mode */
	double wake_lag;	 /* moving average of how late sleeps end */
	double t0;		 /* time base of the load schedule */
	struct store store;
	uint32_t seq;
	int registered; /* the master issued this slave its id: it may rejoin */
	int tree;	/* Tree Scheduling: its parent is the coordinator */
	uint64_t unreached; /* calls that did not reach the master, so far */
	/* the master is gone for good (slave_watch.h): no retries, no rejoin */
	atomic_int parent_gone;
	char *why;
	size_t len;
	char log_label[64]; /* the slave thread's log label, for the threads it starts */
	struct host_peers peers; /* real mode: the run's computing threads on this host */
	/*
	 * Optional: called once in an emulated chunk when its end (deadline)
	 * is known; returns how long after the deadline it returned (0 when
	 * before): that time counts as a wait, not as computation.
	 */
	double (*tail)(struct run *r, double deadline);
	void *tail_ctx;
	/* Optional, emulated: the thread that computes for real (idle_worker.h) */
	struct idle_worker *worker;
	double real_spi; /* real seconds an iteration, moving average (0: none yet) */
	/* Optional, master-slave: the current chunk as the master's take-back
	 * sees it (slave_cut.h); slave_compute may end a chunk at its bound */
	struct slave_cut *cut;
};

/* A real computation expected to take longer than this goes to the idle
 * worker (idle_worker.h); a shorter one runs in the slave's thread. */
#define SLAVE_IDLE_COMPUTE_S 5e-3

/* Q_i at dls_now() time `at`: emulated, the --load schedule's; real, the
 * --q override or the host's run queue without the run's own computing
 * threads (host_peers.h). */
double slave_load(const struct run *r, double at);

/* A_i = floor(V_i / Q_i) at dls_now() time `at` (emulated: Q_i(at)); at
 * least 1 unless the run's scheme is a distributed one (only those wait
 * while A_i is 0).  *q (q NULL: not wanted): the Q_i it used. */
int64_t slave_acp(const struct run *r, double at, double *q);

/*
 * Sends every block of *s from the keep-th on with submit() (retried; a
 * retried block refused as already delivered went through before).
 * DLS_OK, or the call's failure with r->why.
 */
int slave_deliver(struct run *r, struct store *s, size_t keep);

/*
 * One exchange of steps 2-3: the blocks of *out (NULL: none) but the first
 * with submit(), then request *req carrying the first (its results are set
 * here), with retries and rejoining.  DLS_OK with *reply, or the failure
 * with r->why.
 */
int slave_exchange(struct run *r, struct store *out, struct dls_request *req,
		   struct dls_reply *reply);

/* The parts of the call policy (slave_call.c). */

/*
 * The master stayed unreachable after the retries: rejoins it (a master
 * resumed from its journal) for up to cfg->rejoin_ms when the run allows
 * it.  DLS_OK (call again: the same call gets the same answer), DLS_EREMOTE
 * (gave up, or rejoining is off), or the refusal of the rejoin, with why.
 */
int slave_rejoin(struct run *r);

/* "master", or "coordinator" in Tree Scheduling: for the messages. */
const char *slave_parent(const struct run *r);

/* Non-zero when the run may rejoin a lost master: then a call that does not
 * reach it goes to slave_rejoin at once (it polls the naming service). */
int slave_may_rejoin(const struct run *r);

/*
 * A call to the parent that began at `began` timed out (DLS_ETIMEDOUT), the
 * first of a row at *since (0: this one, now set): 1 while the parent is
 * waited out (cfg->patience_ms, logged; a call that timed out sooner than
 * cfg->retry_delay_ms is asked again only after it), 0 once it is taken as
 * gone or the slave was asked to stop (ops->stop_requested).
 */
int slave_wait_out(struct run *r, double *since, double began);

/*
 * Tree Scheduling and the policies of docs/schemes.md appendix A: sends every stored
 * result with report() (the coordinator's), 1 MiB a message at most, with
 * retries; the time counts as collection.  DLS_OK, or the failure with
 * r->why.
 */
int slave_report_all(struct run *r,
		     int (*report)(void *ctx, int id, const struct dls_result *res, size_t n,
				   const struct dls_times *times, char *why, size_t len),
		     void *ctx, int id);

/* The Speed a slave registers: cfg->declared_speed when set, else its speed. */
double slave_declared_speed(const struct slave_config *cfg);

/* An emulated link: waits two one-way latencies (a call and its reply). */
void slave_link_delay(double one_way_us);

/*
 * Checks the job, opens its workload (which must describe the loop the
 * master described) and prepares the emulated power.  DLS_ENOENT (unknown
 * workload), DLS_EINVAL, DLS_ENOMEM, with r->why.  slave_teardown frees.
 */
int slave_setup(struct run *r);
void slave_teardown(struct run *r);

/*
 * The next loop of a run of many loops begins with *job (its first chunk's
 * reply carried it): the same run, workload, order and collection, checked
 * and opened as at registration (slave_setup), and then r->job, r->work and
 * r->loop are the new loop's.  DLS_OK; or the refusal with r->why, the
 * loop before still in place.
 */
int slave_next_job(struct run *r, const struct dls_job *job);

/*
 * Computes [start, start + count) into r->store and, emulated, sleeps until
 * the chunk's emulated cost has passed (docs/emulation.md 2, 5).  With r->cut, the
 * chunk is the cut's current one (the caller began it): it ends at the
 * cut's bound, which the master may lower meanwhile (take-back), and
 * *kept (NULL: not wanted) is the iterations [start, start + *kept) whose
 * results are in the store.
 */
int slave_compute(struct run *r, int64_t start, int64_t count, int64_t *kept);

/*
 * Emulated, in the tail of a chunk (r->tail): sleeps until `lead` seconds
 * before the chunk's end, which is `deadline` or, with a cut, the cut's
 * (lowered meanwhile, it is aimed again).  Returns the chunk's end then.
 */
double slave_sleep_before_end(struct run *r, double deadline, double lead);

/* The current chunk's emulated end: `deadline`, or with a cut, the cut's. */
double slave_chunk_deadline(struct run *r, double deadline);

/*
 * Iterations computed back to back (Tree Scheduling computes one at a
 * time): each one's emulated end counts from the stretch's start and its
 * total work, so that the sleeps' errors do not add up.  t0 = 0 starts a
 * new stretch.
 */
struct stretch {
	double t0, work;
};
int slave_compute_stretch(struct run *r, int64_t start, int64_t count, struct stretch *s);

/* A placed slave's reporting (Tree Scheduling, a policy): its
 * coordinator's report() and ctx, the slave's id, the seconds between
 * reports (0: only when out of work) and when it last reported. */
struct report_clock {
	int (*report)(void *ctx, int id, const struct dls_result *res, size_t n,
		      const struct dls_times *times, char *why, size_t len);
	void *ctx;
	int id;
	double interval, last;
};

/*
 * Computes iteration it in stretch s (slave_compute_stretch) and, once the
 * clock's interval has passed, reports every stored result
 * (slave_report_all); the next iteration then starts a new stretch.
 * DLS_OK, or the error of the computation or the report, with r->why.
 */
int slave_compute_reporting(struct run *r, int64_t it, struct stretch *s,
			    struct report_clock *c);

/* Out of work: reports every stored result now (slave_report_all) and
 * restarts the clock.  DLS_OK or the failure, with r->why. */
int slave_report_now(struct run *r, struct report_clock *c);

/* The same from a placed slave's loop, whose lock is held: released while
 * the report travels. */
int slave_report_unlocked(struct run *r, struct report_clock *c, pthread_mutex_t *lock);

/* A placed slave out of work, its lock held: waits up to 0.2 s on cond for
 * work (or a message, or stop), the time counted as waiting. */
void slave_wait_for_work(struct run *r, pthread_cond_t *cond, pthread_mutex_t *lock);

#endif
