/*
 * coordinator.h - Tree Scheduling's coordinator P0 (Kim and Purtilo 1996 section 3,
 * Chronopoulos et al. 2002 section 4.1, docs/schemes.md 6): it registers the slaves, builds the
 * bitonic cluster tree and migration chain from their throughputs, gives
 * each its neighbours and its initial iterations, takes the results that
 * slaves report at intervals (or when idle), and ends the run at I.  Work
 * then moves between neighbours without it; slaves tell it what they handed
 * over, so that it knows who holds what when one dies: a dead slave's
 * undelivered iterations go to its nearest living left neighbour and the
 * chain closes around the gap.
 *
 * Plain C, no CORBA: coordinator_servant.cc converts and calls one function
 * here per IDL operation.  It shares the registration barrier (roster.h)
 * and the result store (result_store.h) with the master.  Every entry point
 * takes the coordinator's lock; registration blocks until every slave has
 * registered, so each call needs its own ORB thread.  Refusals fill `why`
 * (COORDINATOR_WHY_LEN) and change nothing.
 */
#ifndef DLS_COORDINATOR_H
#define DLS_COORDINATOR_H

#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"
#include "iter_order.h"
#include "journal_mac.h"
#include "pile_policy.h"
#include "result_store.h"
#include "run_report.h"
#include "tree_migrate.h"
#include "tree_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COORDINATOR_WHY_LEN 256
/* The most slaves one coordinator places (its --slaves limit). */
#define COORDINATOR_MAX_SLAVES 4096

struct coordinator_config {
	char run_name[64];
	char workload[32];
	int nslaves; /* slaves expected */
	struct dls_param params[DLS_MAX_PARAMS]; /* the workload's */
	int nparams;
	enum iter_order_mode order;
	int register_timeout_ms; /* the chain is built over those registered by then */
	enum tree_alloc alloc;
	enum tree_gamma gamma;
	int bidirectional;	/* idle slaves ask both neighbours */
	double report_interval; /* seconds; 0: slaves report when idle */
	/* "trees" (Tree Scheduling, the default; "" reads as it), or a policy
	 * the slaves run instead (RoC or the workpiles, pile_policy.h:
	 * "workpile", "roc", "none"), with its parameters; the chain then only places the
	 * slaves and says where a dead one's work goes */
	char policy[16];
	struct pile_params pile;
	char journal_dir[1024]; /* "": no journal; else journal to DIR/journal.db */
	int resume;		/* continue the journal in journal_dir (coordinator_open) */
	int journal_os;		/* 0: every commit synced to the disk; 1: to the OS */
	struct journal_key journal_key; /* the journal's MAC key (as a master's) */
	int loops; /* a run of this many loops (0 or 1: one) over the same chain */
};

/* A slave's place in the chain. */
struct coordinator_place {
	double vpower;
	int64_t start, count, stride; /* its initial iterations */
	double tau;		      /* its throughput, as registered */
	int left_id, right_id;	      /* -1 at an end */
	double left_tau, right_tau;
	uint64_t key;		       /* its capability (report, migrated; the coordinator's calls) */
	uint64_t peer_key;	       /* what its neighbours show on demand and transfer */
	uint64_t left_key, right_key; /* the neighbours' peer keys (0 at an end) */
};

/* A living neighbour: its id (-1: none), throughput and peer key. */
struct coordinator_side {
	int id;
	double tau;
	uint64_t peer_key;
};

/* What must be done after a slave was lost. */
struct coordinator_repair {
	int64_t serial; /* its number in the journal (coordinator_repaired); 0: none */
	int to; /* the living slave that gets the iterations below; -1: none left */
	struct dls_range *ranges;
	size_t nranges;
	int64_t iterations;
	int left, right; /* living slaves whose neighbours changed (-1: none) */
};

struct coordinator;

/*
 * Checks *cfg, opens its workload and creates a coordinator.  NULL with
 * *err (DLS_EINVAL, DLS_ENOENT for an unknown workload, DLS_ENOMEM) and why
 * (COORDINATOR_WHY_LEN, may be NULL) saying which.
 */
struct coordinator *coordinator_create(const struct coordinator_config *cfg, int *err, char *why);

/*
 * A remote caller's way in: every servant operation calls coordinator_enter
 * before any other coordinator call and coordinator_leave after its last.
 * DLS_OK, or DLS_ESTATE with why (COORDINATOR_WHY_LEN) once
 * coordinator_close began (then it must not leave).
 */
int coordinator_enter(struct coordinator *c, char *why);
void coordinator_leave(struct coordinator *c);

/* Ends the service: later callers are refused; returns once no caller is
 * inside.  Call it while the ORB still dispatches; idempotent. */
void coordinator_close(struct coordinator *c);

/* coordinator_close, then frees c; NULL is a no-op.  A caller that has not
 * entered by then must not call the coordinator any more. */
void coordinator_destroy(struct coordinator *c);

/* --- the journal (coordinator_journal.c, PROTOCOL.md 15) ---------------- */

/*
 * coordinator_create, then, with cfg->journal_dir: the chain, every result,
 * hand-over and loss is journaled there, durable before it is acknowledged;
 * with cfg->resume the journal is replayed first and the coordinator goes
 * on where the dead one stopped (the slaves' references come from the
 * journal, repairs it had not carried out are pending:
 * coordinator_take_pending).  NULL with *err and why as coordinator_create.
 */
struct coordinator *coordinator_open(const struct coordinator_config *cfg, int *err, char *why);

/*
 * Reads the configuration of the run journaled in dir into *cfg (journal_dir
 * and resume set), for a coordinator that resumes it.  DLS_OK, or DLS_ENOENT
 * (no journal), DLS_EINVAL (not a coordinator's journal), DLS_EIO, with why.
 */
int coordinator_journal_config(const char *dir, struct coordinator_config *cfg, char *why);

/* Non-zero when c resumed a journal. */
int coordinator_resumed(const struct coordinator *c);

/*
 * The contact (stringified reference) slave id registered with, copied into
 * buf (len octets): DLS_OK, or DLS_ENOENT when it has none.
 */
int coordinator_contact(struct coordinator *c, int id, char *buf, size_t len);

/*
 * After a resume: the repairs the dead coordinator decided and had not
 * carried out (*reps, *n; the caller frees each with coordinator_repair_free
 * and the array with free()).  Each must be carried out again and then
 * recorded with coordinator_repaired.
 */
int coordinator_take_pending(struct coordinator *c, struct coordinator_repair **reps, size_t *n);

/* Records that repair `serial` was carried out (a no-op for 0). */
void coordinator_repaired(struct coordinator *c, int64_t serial);

/*
 * Registers a slave of throughput `speed` (Speed, or emulated V_i/Q_i),
 * blocks until registration closes, and places it: the chain is built once,
 * over every slave registered by then; each slave gets a capability and a
 * peer key (only its neighbours learn it).  contact: how to reach it (its
 * stringified reference, journaled so that a resumed coordinator can call
 * it; NULL: none).  DLS_OK, or a refusal (why filled).
 */
int coordinator_register(struct coordinator *c, const char *name, double speed,
			 const char *contact, int *id, struct coordinator_place *place, char *why);

/*
 * Slave `name` will not come: the launcher saw it exit before it
 * registered (Coordinator::withdraw, the run's secret proved).  One slave
 * fewer is expected; registration closes now if every other one is in.
 * DLS_OK, or a refusal as roster_withdraw with why.  Not journaled: the
 * journal begins with the chain, built once registration closed.
 */
int coordinator_withdraw(struct coordinator *c, const char *name, char *why);

/*
 * A slave of a resumed run joins again with the id and capability it was
 * issued; *vpower receives its V_i.  DLS_OK, or a refusal (unknown id,
 * another key, a slave declared lost) with why.
 */
int coordinator_rejoin(struct coordinator *c, int id, uint64_t key, double *vpower, char *why);

/*
 * Results of slave id, showing its capability key.  Each iteration must be
 * one it may hold: its own, or one of a living neighbour's (a transfer whose
 * migrated() notice is still on its way), under workpile or roc one of a
 * slave it handed work to (a transfer that failed after its notice: the
 * giver kept it), or one delivered already (recomputed after a failure:
 * skipped).  Checked whole first: DLS_EINVAL
 * with why for a stranger's range, a wrong key or a bad value.
 */
int coordinator_report(struct coordinator *c, int id, uint64_t key, const struct dls_result *res,
		       size_t n, const struct dls_times *times, char *why);

/*
 * Slave `from` (showing its key) handed start, start + stride, ... (count)
 * to slave `to`; the range must be one `from` may hold (as for a report).
 * When `to` is already lost, rep says where those iterations go now
 * (rep->to >= 0 and rep->nranges > 0); free it with coordinator_repair_free.
 */
int coordinator_migrated(struct coordinator *c, int from, uint64_t key, int to, int64_t start,
			 int64_t count, int64_t stride, struct coordinator_repair *rep, char *why);

/* The capability issued to slave id (0: none): the coordinator shows it
 * when it calls the slave (stop, neighbours, a repair's transfer). */
uint64_t coordinator_child_key(struct coordinator *c, int id);

/* Declares slave id lost and fills rep.  DLS_OK or DLS_ENOENT. */
int coordinator_lost(struct coordinator *c, int id, const char *cause,
		     struct coordinator_repair *rep);

void coordinator_repair_free(struct coordinator_repair *rep);

/* The current living neighbours of slave id (after repairs). */
void coordinator_neighbours(struct coordinator *c, int id, struct coordinator_side *left,
			    struct coordinator_side *right);

/* Ids of the slaves that are neither lost nor dismissed (at most max). */
size_t coordinator_living(struct coordinator *c, int *ids, size_t max);

/* Records that slave id was told the run is over. */
void coordinator_dismissed(struct coordinator *c, int id);

/* Waits until every result is in: DLS_OK, or DLS_ETIMEDOUT after timeout_ms. */
int coordinator_wait_done(struct coordinator *c, int timeout_ms);

/* Non-zero once every expected slave registered and every one was lost, or
 * when the registration window passed with no slave registered. */
int coordinator_all_lost(struct coordinator *c);

/* A consistent copy of its state, the slaves in chain order (free with dls_status_free). */
int coordinator_snapshot(struct coordinator *c, struct dls_status *out);

/* The chain and Kim and Purtilo 1996's Table 2, for the report (free with run_report_tree_free). */
int coordinator_tree_stats(struct coordinator *c, struct run_report_tree *out);

/* The job of the current loop (JobSpec): the one the slaves learn when
 * they register, then each loop's (coordinator_next_loop). */
void coordinator_job(const struct coordinator *c, struct dls_job *out);

/* --- a run of many loops (coordinator_loops.c, PROTOCOL.md 10) --------- */

/* The current loop, 0 first. */
uint32_t coordinator_loop(struct coordinator *c);

/* Non-zero while loops remain after the current one. */
int coordinator_more_loops(struct coordinator *c);

/*
 * Every result of the current loop is in and every living slave ended it
 * (PlacedSlave::end_loop): the next loop begins, its job the run's with
 * dls.loop = its number, its first iterations placed over the same chain
 * (as the first loop's; over the living slaves only once some were lost).
 * The current loop's results are gone after it (take them first).  DLS_OK,
 * DLS_ESTATE (results missing, no loop left, closing) or an error of the
 * workload, with why.
 */
int coordinator_next_loop(struct coordinator *c, char *why);

/* Slave id's place in the current loop: its first iterations, its living
 * neighbours and its keys.  DLS_OK, or DLS_ENOENT for no such slave placed. */
int coordinator_place(struct coordinator *c, int id, struct coordinator_place *place);

/* The results, in loop-index order; complete once done.  Owned by c. */
const struct result_store *coordinator_results(const struct coordinator *c);

const struct coordinator_config *coordinator_config_of(const struct coordinator *c);

/* How many slaves the chain places (0 before it is built). */
int coordinator_placed(struct coordinator *c);

/* The peer key of slave id (what others show when they call it; 0: none). */
uint64_t coordinator_peer_key(struct coordinator *c, int id);

/*
 * Slave id (showing its capability key) asks for slave peer's peer key, to
 * call it under a policy of docs/schemes.md appendix A (Coordinator::peer).  DLS_OK with
 * *peer_key, or with *lost = 1 (and no key) for a peer declared lost;
 * DLS_ENOENT, DLS_EINVAL or DLS_ESTATE for a caller roster_check_caller
 * refuses; DLS_EINVAL under Tree Scheduling or for a peer id out of the
 * chain.  why filled on refusal.
 */
int coordinator_peer(struct coordinator *c, int id, uint64_t key, int peer, uint64_t *peer_key,
		     int *lost, char *why);

/* Non-zero when the slaves run a policy of docs/schemes.md appendix A, not Tree Scheduling. */
int coordinator_piles(const struct coordinator_config *cfg);

/*
 * NULL, or why cfg's policy cannot run: unknown, ripple (the simulator
 * only), or parameters out of range.
 */
const char *coordinator_policy_check(const struct coordinator_config *cfg);

#ifdef __cplusplus
}
#endif
#endif
