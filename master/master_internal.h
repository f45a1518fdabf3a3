/*
 * master_internal.h - the master's state, shared by master.c (lifecycle,
 * registration, snapshots) and master_serve.c (requests, results, failures).
 * Every field below is guarded by master.lock.
 */
#ifndef DLS_MASTER_INTERNAL_H
#define DLS_MASTER_INTERNAL_H

#include <pthread.h>

#include "journal.h"
#include "master.h"
#include "master_verify.h"
#include "result_store.h"
#include "roster.h"
#include "serve.h"
#include "timeline.h"
#include "upcall_gate.h"

/* A take-back decided: holder's chunk that began at start now ends at end. */
struct master_cut {
	int holder; /* -1: none */
	uint64_t key;
	int64_t start, end;
};

/* What the master keeps of a child beyond its roster entry. */
struct master_child {
	struct serve_child serve;
	int first_request_pending; /* its first request waits at the start gate */
	int rejoined;		   /* after a resume: it joined the new master */
	int owed_done;		   /* after a resume: journaled as told DONE, not
				    * heard since (that reply may have died with
				    * the old master) */
	int readmitted;		   /* taken back after it was declared lost */
	uint64_t reg_ticket;	   /* the journal's record of its registration */
	/* the chunk times its last request reported, learnt when that request
	 * is served (so a replayed journal learns them in the same order) */
	struct dls_chunk_time measured[DLS_MAX_MEASURED];
	int nmeasured;
	/* what the scheme learnt from its last served request, as journaled:
	 * the times above, slowed to what the master saw it deliver */
	struct dls_chunk_time applied[DLS_MAX_MEASURED];
	int napplied;
	/* what the master saw: when it first delivered, and how many it had
	 * delivered then; the seconds since then that it held undelivered
	 * work (busy_since > 0: it holds some since then; a wait for work,
	 * A_i = 0 or in the queue, is not counted); what it claimed: compute
	 * seconds and iterations over every chunk it measured, and how many
	 * chunks it measured after its first delivery; whether it was slowed
	 * (logged once) */
	int64_t first_delivered;
	double first_delivery_at;
	double busy_s, busy_since;
	double claimed_s, claimed_n;
	int64_t claimed_since;
	int slowed;
	int cut; /* a tail of its was taken back: its results of it are dropped */
	/* its progress as its answers showed it (master_progress_still): the
	 * chunk in progress, how far it was, and since when it showed no
	 * advance; when the stall watch last asked it */
	int64_t seen_start, seen_done;
	double seen_since, stall_asked;
	double last_delivery_at; /* when results of it last came, or it was
				    first given work (0: neither yet) */
	uint32_t loop_told; /* the loop whose job it was last sent */
	int64_t first_given_loop; /* the loop it was last given a first chunk of (-1: none) */
	int distrusted; /* --verify found it returning wrong results: refused */
	int group; /* the first id of its registration: a relay hmaster
		      registers its slaves together and forwards their
		      requests one merged message at a time */
};

/* A child's claimed compute time per iteration, over all it measured, may
 * be at most this many times shorter than the time per iteration the
 * master saw it deliver at since its first delivery; faster claims are
 * slowed to it.  Loose on purpose: honest emulated slaves computing tiny
 * chunks on two shared cores deliver up to 12x slower than they compute
 * (their waits for the CPU and the master count in what is seen), so only
 * absurd claims are caught (BENCHMARKS.md 4.7). */
#define MASTER_RATE_TRUST 32.0

/* ...and only once it held its work at least this long a chunk on average
 * since its first delivery: below it, a chunk's exchanges and its waits
 * for the CPU (an honest slave of chunks of a millisecond, on a loaded
 * host, holds each for tens of ms) are what the master sees, not its
 * computing.  A child kept under it cannot lie much: every chunk of its
 * ends within this of its start. */
#define MASTER_RATE_FLOOR_S 0.1

/* What child id holds changed (given work, or its results came): its busy
 * time (master_child.busy_s) is brought up to now.  The lock is held. */
void master_note_busy(struct master *m, int id);

struct turn;

struct master {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* registration closed, run done, a slave dismissed or lost,
				a request served while a second one waits for it */
	int early_waiters;   /* second requests waiting for their predecessors */
	struct upcall_gate gate; /* callers inside (master_enter .. master_leave) */
	struct master_config cfg;
	struct sched *sched; /* created when the start gate opens */

	struct roster roster;		/* who registered: ids, names, V_i, states */
	struct master_child *children;	/* cfg.nslaves entries, by id */
	double gate_deadline;		/* start gate opens at the latest then */
	double closed_at;		/* registration closed (0: not in this process) */
	int gate_open;
	struct serve_queue queue;	/* pending requests in ACPSA order */
	struct serve_ranges requeue;	/* the work of lost slaves */

	struct result_store results;	/* the workload, results, ledger, T_p */
	struct timeline timeline;	/* every chunk given, for the JSON */
	int64_t assigned, requeued_total;
	int64_t last_chunk; /* the size of the scheme's last chunk (--verify's pieces) */
	int auto_logged; /* --scheme auto: decisions already logged */

	/* the take-back (master_takeback.c) */
	struct master_callout callout;
	int taking_back;	  /* a request is asking the holders now */
	int64_t takebacks, taken_back;

	/* a run of many loops (cfg.loops): the current loop, its parameters
	 * (cfg.params and dls.loop), and whether it was started (0 between
	 * the last result of the loop before and master_next_loop: requests
	 * wait at the start gate) */
	uint32_t loop;
	struct dls_param loop_params[DLS_MAX_PARAMS];
	int nloop_params;
	int loop_ready;
	/* cfg.auto_loops: the results of a loop done, until the driver took
	 * them (master_loop_consumed) */
	struct result_store finished;
	int has_finished;
	int loop_unlogged; /* a loop began automatically, not yet journaled */
	int64_t held_served_together; /* held requests the gate's opener served */
	struct turn *held_turns; /* requests held to their loop's end, not queued */
	uint8_t *group_live, *group_asked; /* the start gate's scratch, by group */

	struct verify_book verify; /* --verify (master_verify.c) */

	struct journal *journal; /* NULL: no journal (master_journal.c) */
	int replaying;		 /* the journal is being replayed: log nothing */
	double resumed_at;	 /* 0, or when this master resumed a journal */
};

/* --scheme auto's decisions, "ss -> fsc at 3992 left (predicted 5.10 s ->
 * 4.20 s); ...", in out (always terminated; "" for another scheme). */
void master_auto_describe(const struct sched *s, char *out, size_t len);
/* Logs the decisions auto made since the last call (not while replaying). */
void master_auto_log(struct master *m);

/* Why a caller is refused once master_close began. */
#define MASTER_CLOSING_WHY "the run is over: the master is closing"

/* Sets why (may be NULL) like snprintf. */
void master_why(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Closes registration if it is due; call with the lock held. */
void master_close_registration_if_due(struct master *m, double now);

/* --- the serving steps that live requests and the journal's replay share
 * (master_serve.c); the lock is held --- */

/* Checks results of slave id against its holdings and the workload; they
 * are stored and marked on DLS_OK (apply or unmark them), else nothing. */
int master_check_results(struct master *m, int id, const struct dls_result *res, size_t n,
			 char *why);
/* Accepts checked results: delivered, counted against the holder; copies
 * under verification compared. */
void master_apply_results(struct master *m, int id, const struct dls_result *res, size_t n);
/* Ends the loop (or the run) if every result is in and every chunk picked
 * for verification is settled: journaled, the next loop begun, waiters
 * woken.  The lock is held. */
void master_complete_if_due(struct master *m);
/*
 * The loop ended with loops to come: every request held to its end
 * (hold_to_loop_end) becomes a first request of the next loop and joins
 * the queue now, in the thread that ended the loop, instead of once its
 * own thread woke; the gate's opener then serves them together.  The
 * lock is held.
 */
void master_queue_held(struct master *m);
/* Records a request's report (its checked results, times, A_i). */
void master_record_request(struct master *m, const struct dls_request *r);
/* Chooses the reply to slave id: requeued work, the scheme's next chunk,
 * WAIT or DONE (reported: its A_i was given to sched_report already). */
int master_serve_one(struct master *m, int id, int64_t acp, int reported, struct dls_reply *out,
		     char *why);
/* Remembers the reply to r for a retry; the slave is active. */
void master_remember(struct master *m, const struct dls_request *r, const struct dls_reply *out);
/* The reply to r, remembered already, became *out (a request held at the
 * end of a loop, master_serve.c): remembered in its place. */
void master_remember_again(struct master *m, const struct dls_request *r,
			   const struct dls_reply *out);
/* Takes back slave id, declared lost, that called again with its capability:
 * alive again, its old replies forgotten, its results of work it no longer
 * holds dropped from now on; journaled. */
void master_readmit(struct master *m, int id);
/* check_caller for a request, submit or rejoin: DLS_OK, or a refusal as
 * master_check_caller, except that a child declared lost that shows its
 * capability is taken back (master_readmit) unless the run is closing. */
int master_admit_caller(struct master *m, int id, uint64_t key, char *why);

/* Waits, under the master's lock, until done(m) or until deadline
 * (dls_now's clock): DLS_OK once done, else DLS_ETIMEDOUT. */
int master_wait_until(struct master *m, int (*done)(const struct master *), double deadline);
/* Gives child id the chunk c (from the requeue or the scheme) as a WORK
 * reply *out: held in the ledger, counted.  DLS_OK or DLS_ENOMEM. */
int master_give_work(struct master *m, int id, struct dls_range c, struct dls_reply *out);
/* Gives child id a copy c of a chunk under verification (master_verify_next
 * chose it) as a WORK reply *out, like any chunk.  DLS_OK. */
int master_give_copy(struct master *m, int id, struct dls_range c, struct dls_reply *out);
/* The take-back's shrink: the tail [end, start + count) of holder's chunk
 * that begins at start goes to the requeue (live, and from the journal).
 * DLS_OK, or ledger_cut_tail's refusal with nothing changed. */
int master_cut_tail(struct master *m, int holder, int64_t start, int64_t end);
/* The end game (master_takeback.c): the request of child id got *out =
 * WAIT; where the run takes back, asks the holders how far they are and
 * may turn *out into the undone tail of the chunk that would end last.
 * The lock is held, and released meanwhile; *told is then the holder to
 * tell (master_take_back_tell) once the reply is journaled, else -1. */
void master_take_back(struct master *m, int id, struct dls_reply *out, struct master_cut *told);
/* Tells the holder of a tail taken back where its chunk now ends; without
 * the lock.  A holder that does not answer changes nothing: its results of
 * the tail are dropped. */
void master_take_back_tell(struct master *m, const struct master_cut *told);

/* Declares slave id lost: its undelivered work is requeued. */
void master_release_lost(struct master *m, int id, const char *cause);

/*
 * What a holder's answer to progress(), come at `at`, says of its chunk:
 * the seconds since the chunk last advanced (0 when it has none, or moved
 * on since its last answer: the count starts anew), as the stall watch and
 * the end game's straggler rule both judge it.  The lock is held.
 * (master_stall.c)
 */
double master_progress_still(struct master_child *ch, const struct dls_progress *p, double at);
/* Whether a loop follows the current one. */
int master_more_loops(const struct master *m);

/* master_next_loop's change of loop, without the journal or waking
 * anyone (a replayed "loop" event does it too); the lock is held. */
int master_begin_loop(struct master *m, const struct dls_param *params, int nparams, char *why);
/* cfg.auto_loops, the current loop's last result just in: the next loop
 * starts now unless the driver still holds a loop's results (it starts it
 * then, master_loop_consumed) or the journal is replayed; the lock is held. */
void master_auto_next_loop(struct master *m);
/* Journals the "loop" event of a loop master_auto_next_loop began, once
 * the results that ended the loop before are journaled: its ticket, or 0
 * (none pending).  The lock is held. */
uint64_t master_log_pending_loop(struct master *m);

/* Creates the scheme with these first A_i: the start gate opens. */
int master_open_gate_with(struct master *m, const int64_t *acp);

/* --- the journal's events (master_log.c); the lock is held, except for
 * master_journal_wait --- */

uint64_t master_log_register(struct master *m, uint64_t caller, const char *const *names,
			     const double *speeds, size_t n, const double *min_leaf, const int *ids,
			     const uint64_t *keys);
void master_log_closed(struct master *m);
uint64_t master_log_withdrawn(struct master *m, const char *name);
void master_log_gate(struct master *m, const int64_t *acp);
/*
 * A message: its fresh requests (fresh[k]; their results were accepted),
 * reported (a merged message whose A_i all went to sched_report first), and
 * the replies of the first `served` (the others were refused).
 */
uint64_t master_log_message(struct master *m, const struct dls_request *reqs, const int *fresh,
			    size_t n, const struct dls_reply *replies, int reported,
			    size_t served);
uint64_t master_log_submit(struct master *m, int id, const struct dls_result *res, size_t n);
void master_log_lost(struct master *m, int id, const char *cause);
void master_log_readmitted(struct master *m, int id);
void master_log_dismissed(struct master *m, int id);
void master_log_takeback(struct master *m, int holder, int64_t start, int64_t end);
void master_log_done(struct master *m);
/* The run's next loop began (master_begin_loop): its parameters. */
uint64_t master_log_loop(struct master *m);
/* Request r, journaled and remembered with a WAIT, was held and served
 * again with *out (master_remember_again). */
uint64_t master_log_held(struct master *m, const struct dls_request *r,
			 const struct dls_reply *out);
/* Returns once the record of ticket is durable; call without the lock. */
void master_journal_wait(struct master *m, uint64_t ticket);

#endif
