/*
 * master.h - the DLS master's core: the loop's iteration space, the scheme,
 * the slaves, and the results.  Plain C, no CORBA: the servant
 * (master_servant.cc) converts types and calls one function here per IDL
 * operation.  Every entry point takes the master's lock; several may block
 * (registration waits for every slave, requests wait for the start gate and
 * their turn in ACPSA order), so each must be called from its own ORB thread.
 *
 * Refusals (DLS_EINVAL, DLS_ENOENT, DLS_ESTATE) fill `why` with the reason a
 * user exception carries, and leave the master's state and results unharmed.
 */
#ifndef DLS_MASTER_H
#define DLS_MASTER_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "iter_order.h"
#include "dls_sched.h"
#include "journal_mac.h"
#include "result_store.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MASTER_WHY_LEN 256
/* The most slaves one master serves (its --slaves limit). */
#define MASTER_MAX_SLAVES 4096

/* How long a second request on its way waits for its predecessor (ms): the
 * two leave a few microseconds apart on two connections, so only a lost
 * predecessor makes it wait this long. */
#define MASTER_EARLY_WAIT_MS 10000
/* A resumed run's end waits up to this long (within the rejoin window) for
 * a slave that has not rejoined yet to come back and hear DONE. */
#define MASTER_REJOIN_END_MS 2000

struct master_config {
	char run_name[64];
	char workload[32];
	struct sched_params sched; /* kind, profile and options; iterations := the
				      loop's, npes := nslaves are filled in by master_create */
	int nslaves;		   /* slaves expected */
	struct dls_param params[DLS_MAX_PARAMS]; /* the workload's */
	int nparams;
	result_sink_fn sink; /* optional: sees each accepted iteration (lock held: be quick,
				do not call the master) */
	void *sink_ctx;
	enum iter_order_mode order;
	enum dls_collect collect;
	int register_timeout_ms; /* registration closes after this even if slaves are missing */
	int start_timeout_ms;	 /* the first requests are collected this long at most */
	int wait_ms;		 /* how long a WAIT reply tells a slave to wait */
	int early_wait_ms;	 /* a second request on its way that arrives before its
				    predecessor waits this long for it (0: refused at once) */
	int take_back;		 /* 1: once the scheme is exhausted, an idle slave's
				    request takes back the undone tail of the chunk
				    that would end last (PROTOCOL.md 17; needs
				    master_set_callout); 0: it waits */
	int loops;		 /* loops the run holds, each with the job's parameters
				    and dls.loop = its number (0 or 1: one loop);
				    the driver starts each after the first with
				    master_next_loop (PROTOCOL.md 18) */
	int fresh_loops;	 /* 1: each loop's scheme starts afresh; 0: the
				    adaptive techniques and auto go on from what
				    they learnt in the loops before */
	int auto_loops;		 /* 1: the next loop (the run's parameters) starts
				    the moment a loop's last result is in, its
				    results kept aside for the driver
				    (master_loop_results); 0: the driver starts it
				    (master_next_loop) */

	double verify;		 /* the fraction of delivered chunks computed again by
				    another slave and compared (PROTOCOL.md 19); 0: none */
	uint8_t verify_key[32];	 /* the secret key of verify's draw (master_create
				    makes one when verify_key_set is 0) */
	int verify_key_set;

	/* Survival (PROTOCOL.md 15); not part of the journaled configuration. */
	char journal_dir[1024]; /* "" : no journal; else journal to DIR/journal.db */
	int resume;		/* continue the journal in journal_dir (master_create
				   replays it) instead of starting a new one */
	int journal_os;		/* 0: every journal commit is synced to the disk
				   (survives a power cut); 1: handed to the OS only
				   (survives the master's crash, not the machine's) */
	struct journal_key journal_key; /* the journal's MAC key, from the run's
					   secret (run_auth_journal_key); unset:
					   an open run's empty key */
	int rejoin_ms;		/* after a resume: how long a slave holding work may
				   take to rejoin before it is declared lost */
};

struct master;

/* The master's own calls on a child (its ORB adapter's), for the take-back
 * (PROTOCOL.md 17): Slave::progress and Slave::take_back on child id with
 * its capability.  Each returns DLS_OK or a failure with why; called
 * without the master's lock, from a request's thread. */
struct master_callout {
	void *ctx;
	int (*progress)(void *ctx, int id, uint64_t key, struct dls_progress *out, char *why,
			size_t len);
	int (*take_back)(void *ctx, int id, uint64_t key, int64_t start, int64_t end, char *why,
			 size_t len);
};

/* Sets the calls the take-back makes (copied); before the first request. */
void master_set_callout(struct master *m, const struct master_callout *c);

/*
 * Reads the configuration of the run journaled in dir (journal_dir and
 * resume set, early_wait_ms MASTER_EARLY_WAIT_MS, sink and rejoin_ms zero)
 * into *cfg, for a master that resumes it.  DLS_OK, or DLS_ENOENT / DLS_EINVAL / DLS_EIO with why.
 */
int master_journal_config(const char *dir, struct master_config *cfg, char *why);

/*
 * Checks *cfg, opens its workload and creates a master, without a journal
 * (journal_dir and resume are master_open's).  Returns NULL with *err set
 * (DLS_EINVAL for a bad field or parameter, DLS_ENOENT for an unknown
 * workload, DLS_ENOMEM) and why (MASTER_WHY_LEN, may be NULL) saying which.
 */
struct master *master_create(const struct master_config *cfg, int *err, char *why);

/*
 * master_create, then, with journal_dir: everything the master must not
 * lose is journaled there, durable before it is acknowledged; with resume
 * too, the journal is replayed first (its configuration must be cfg's) and
 * the master goes on where it stopped: its slaves rejoin (master_rejoin).
 * NULL as master_create, or for the journal: DLS_EINVAL (a journal of
 * another run, or damaged), DLS_ENOENT (no journal), DLS_ESTATE (a new
 * journal where one exists, or one another master holds), DLS_EIO.
 * (master_journal.c)
 */
struct master *master_open(const struct master_config *cfg, int *err, char *why);

/*
 * A remote caller's way in: every servant operation calls master_enter
 * before any other master call and master_leave after its last.
 * master_enter returns DLS_OK, or DLS_ESTATE with why once master_close
 * began (then it must not call master_leave).
 */
int master_enter(struct master *m, char *why);
void master_leave(struct master *m);

/*
 * Ends the service: every later master_enter is refused, every wait inside
 * the master (the start gate, a turn in ACPSA order, a predecessor) ends
 * with a refusal, and it returns once no caller is inside.  Call it while
 * the ORB still dispatches, before m is freed; master_destroy calls it too.
 * Idempotent.
 */
void master_close(struct master *m);

/* master_close, then frees m; NULL is a no-op.  A caller that has not
 * entered (master_enter) by then must not call the master any more. */
void master_destroy(struct master *m);

/*
 * Child `name` will not come: the launcher (dls run, which proved the
 * run's secret) saw it exit before it registered.  The master expects one
 * child fewer, closes registration if every other one is in, and refuses a
 * later registration of that name.  DLS_OK, or a refusal as roster_withdraw
 * (registration closed, the name registered or withdrawn already, no child
 * left to expect), why filled.  Journaled before it returns.
 */
int master_withdraw(struct master *m, const char *name, char *why);

/*
 * Chronopoulos et al. 2002 DTSS master step 1: registers a slave reporting `speed` (> 0,
 * finite), then blocks until every expected slave has registered or the
 * registration window closed, and returns the slave's id, its capability
 * (every later call must carry it) and V_i.  `caller` identifies the
 * process that asks (dls_ref_fingerprint of its reference; 0: unknown): a
 * registration it made already and never acted on (its answer was lost, as
 * when a master died after journaling it and was resumed) is answered again
 * with the same id and capability, nothing new recorded (roster_find_again).
 * DLS_EINVAL (bad speed), DLS_ESTATE (the run is full), DLS_ENOMEM.
 */
int master_register(struct master *m, uint64_t caller, const char *name, double speed, int *id,
		    uint64_t *key, double *vpower, char *why);

/* The same for n slaves of an hmaster at once (merged registration). */
int master_register_group(struct master *m, uint64_t caller, const char *const *names,
			  const double *speeds, size_t n, int *ids, uint64_t *keys, double *vpowers,
			  char *why);

/*
 * Two-level HDTSS: registers an hmaster as ONE child whose power is the sum
 * of the n slaves below it (speeds), blocks like master_register, and
 * returns the hmaster's id and each slave's V_i = Speed_i / min Speed, the
 * minimum taken over every slave of the run at any depth.  The hmaster may
 * ask for more work before it delivered what it holds.
 */
int master_register_cluster(struct master *m, uint64_t caller, const char *name,
			    const double *speeds, size_t n, int *id, uint64_t *key, double *vpowers,
			    char *why);

/*
 * May slave_id, showing capability key, act?  DLS_OK, or DLS_ENOENT /
 * DLS_EINVAL (wrong key) / DLS_ESTATE (lost) with why.  Requests and
 * submissions check it themselves; the servant checks it before a remote
 * slave_lost.
 */
int master_check_caller(struct master *m, int slave_id, uint64_t key, char *why);

/* The capability issued to slave_id (0: no such slave): the master shows
 * it when it tells the slave to stop. */
uint64_t master_child_key(struct master *m, int slave_id);

/*
 * A slave (or hmaster) of a resumed run joins this master again with the id
 * and capability it was issued: DLS_OK with its V_i, or a refusal as
 * master_check_caller, except that a child declared lost is taken back.
 * Its later calls are served as before the crash (a retried request gets
 * the reply the journal holds).
 */
int master_rejoin(struct master *m, int slave_id, uint64_t key, double *vpower, char *why);

/*
 * Non-zero while slave_id, registered before this master resumed, has not
 * rejoined and the rejoin window (rejoin_ms) is open: it cannot be pinged
 * yet and is not lost.
 */
int master_awaiting_rejoin(struct master *m, int slave_id);

/* A holder whose chunk computes nothing this long (ms) is lost (dls-master
 * --stall-ms): far above any iteration DLS's workloads take. */
#define DLS_STALL_MS 120000

/* How often the stall watch asks a holder how far it is (seconds). */
#define MASTER_STALL_ASK_S 1.0

/*
 * The stall watch, from the liveness thread after a holder answered its
 * ping: at most every MASTER_STALL_ASK_S, and only once the child has
 * delivered nothing for half of stall_ms, it asks child id how far its
 * chunk is (Slave::progress, the callout).  Returns 1, with why, when the
 * chunk it computes has not advanced for stall_ms (a computation that
 * hangs while its ORB answers pings: a deadlocked loop body, a hung device
 * call): it is then to be declared lost.  0 otherwise, also when the child
 * computes no chunk now (between chunks, or holding results only) or
 * cannot say (a slave of an older protocol, one below an hmaster).
 */
int master_check_stall(struct master *m, int id, int stall_ms, char *why, size_t len);

/* Non-zero when this master resumed a journal. */
int master_resumed(const struct master *m);

/*
 * Serves one request (req->key must be the slave's capability): records its
 * results and times, then (in ACPSA order among pending requests, after the
 * start gate) replies with work, WAIT or DONE.  A retry with the same seq
 * gets the same reply.  A slave declared lost is taken back
 * (master_slave_lost).
 */
int master_request(struct master *m, const struct dls_request *req, struct dls_reply *out,
		   char *why);

/*
 * Serves the requests of an hmaster's merged message: all are checked
 * before any is applied; the ACPSA rule runs once per message, after every
 * report is recorded (docs/schemes.md 7.16); replies in request order.
 */
int master_request_group(struct master *m, const struct dls_request *reqs, size_t n,
			 struct dls_reply *out, char *why);

/* Results sent outside a request (surplus of a large result, or COLLECT_END). */
int master_submit(struct master *m, int slave_id, uint64_t key, const struct dls_result *res,
		  size_t nres, char *why);

/*
 * Declares a slave lost (dead or hung): the iterations it holds and has not
 * delivered go to the next requests of other slaves.  Trusted: the caller
 * checked a remote reporter with master_check_caller.  A later request,
 * submit or rejoin from it that shows its capability takes it back (unless
 * the run is closing): alive again, served fresh, its results of the work
 * it lost dropped.  DLS_OK; DLS_ENOENT (no such slave, or lost already);
 * DLS_ESTATE (it heard DONE and holds nothing: it left, and stays "done").
 */
int master_slave_lost(struct master *m, int slave_id, const char *cause);

/*
 * Ids of the slaves that have not been told DONE and are not lost (at most
 * max): once every result is in, the master asks them to stop.
 */
size_t master_slaves_undismissed(struct master *m, int *ids, size_t max);

/*
 * At the end of a run: slaves that wait for work ask again within wait_ms
 * and hear DONE; one whose A_i is 0 does not ask at all.  Waits a few
 * wait_ms for the first kind, then returns the ids of the slaves that must
 * be told to stop (at most max; 0 when every slave heard DONE).  After a
 * resume it waits, within the rejoin window and up to
 * MASTER_REJOIN_END_MS, also for the slaves that have not rejoined and for
 * those the journal says were told DONE but that have not heard it from
 * this master (that reply may have died with the old one).
 */
size_t master_slaves_to_stop(struct master *m, int *ids, size_t max);

/* Records that slave_id was told the run is over (outside a request). */
void master_slave_dismissed(struct master *m, int slave_id);

/* Ids of the slaves that hold undelivered iterations (at most max). */
size_t master_slaves_holding(struct master *m, int *ids, size_t max);

/* Waits until every result is in: DLS_OK, or DLS_ETIMEDOUT after timeout_ms. */
int master_wait_done(struct master *m, int timeout_ms);

/*
 * Waits until every slave that is not lost has been told DONE, at most
 * timeout_ms: DLS_OK or DLS_ETIMEDOUT.
 */
int master_wait_dismissed(struct master *m, int timeout_ms);

/*
 * Non-zero once every expected slave registered and every one of them was
 * lost, or when the registration window passed and no slave registered:
 * the run cannot end.
 */
int master_all_lost(struct master *m);

/* A consistent copy of the master's state (status operation, table). */
int master_snapshot(struct master *m, struct dls_status *out);

/*
 * A copy of every chunk the master gave, as timeline.h keeps it (free with
 * timeline_free): DLS_OK or DLS_ENOMEM.
 */
struct timeline;
int master_timeline(struct master *m, struct timeline *out);

/* The results, in loop-index order; complete once done.  Owned by m. */
const struct result_store *master_results(const struct master *m);

/*
 * How long before scheduling started the slaves' emulated load clocks
 * started: they count from their registration, which returns when
 * registration closes, and scheduling starts when the start gate opens
 * (every first request in, or its deadline).  0 when this process did not
 * see both (a resumed master).  The report's T_ideal starts the cluster's
 * power schedule this far in.
 */
double master_clock_lead(const struct master *m);

/* The job of the current loop (at registration: loop 0's, JobSpec). */
void master_job(const struct master *m, struct dls_job *out);

/* The current loop's number, 0 first. */
uint32_t master_loop(struct master *m);

/*
 * The driver's side of a run of many loops: waits until a loop's results
 * are all in (DLS_OK) or timeout_ms passed (DLS_ETIMEDOUT).  Then
 * master_loop_results is that loop's store (with cfg.auto_loops the next
 * loop may run already), valid until master_loop_consumed, which says
 * whether a loop is left to wait for (1) or this was the last (0).
 */
int master_wait_loop_done(struct master *m, int timeout_ms);
const struct result_store *master_loop_results(struct master *m);
int master_loop_consumed(struct master *m);

/* master_clock_lead for the loop whose results are rs. */
double master_clock_lead_of(const struct master *m, const struct result_store *rs);

/*
 * Once every result of the current loop is in (master_wait_done), and the
 * caller took them (master_results): starts the next loop of cfg.loops,
 * with these parameters (params NULL: the run's) and dls.loop its number.
 * The slaves' requests that wait since the last result (they are not told
 * DONE while loops remain) meet at the start gate; each slave's first chunk
 * of the loop carries its job.  DLS_OK; DLS_ESTATE (results missing, or no
 * loop left) or the workload's refusal of the new parameters, with why.
 */
int master_next_loop(struct master *m, const struct dls_param *params, int nparams, char *why);

/*
 * No loop after the current one: cfg.loops becomes the loops run so far,
 * and the requests that wait for a next loop are told DONE.  For a program
 * that ends its loops early.
 */
void master_end_loops(struct master *m);

/* The configuration in force (iterations, npes filled in). */
const struct master_config *master_config_of(const struct master *m);

#ifdef __cplusplus
}
#endif
#endif
