/*
 * coordinator_internal.h - what the coordinator's core (coordinator.c), its
 * journal's events (coordinator_log.c) and their replay
 * (coordinator_journal.c) share: the coordinator's state.
 */
#ifndef DLS_COORDINATOR_INTERNAL_H
#define DLS_COORDINATOR_INTERNAL_H

#include <pthread.h>

#include "coordinator.h"
#include "journal.h"
#include "pair_counts.h"
#include "result_store.h"
#include "roster.h"
#include "upcall_gate.h"

/* Why a caller is refused once coordinator_close began. */
#define COORDINATOR_CLOSING_WHY "the run is over: the coordinator is closing"

struct coordinator {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* registration closed, run done, a slave dismissed or lost */
	struct upcall_gate gate; /* callers inside (coordinator_enter .. _leave) */
	struct coordinator_config cfg;
	struct roster roster;	      /* who registered: ids, names, V_i, states */
	struct result_store results; /* the current loop's: its results, what is delivered, T_p */
	uint32_t loop;		      /* the current loop, 0 first */
	struct dls_param loop_params[DLS_MAX_PARAMS]; /* its workload's parameters */
	int nloop_params;
	char **contact;		      /* by id: how to reach it (its reference), or NULL */

	/* the chain, built once when registration closes; by id unless said */
	struct tree_plan *plan; /* over the registered slaves */
	int *pos;		/* chain position of each slave */
	int32_t *owner;		/* by iteration: who holds it while undelivered */
	int32_t *giver;		/* by iteration: who handed it to its owner, or -1 */
	int32_t *kept;		/* by iteration: a second holder, or -1: the giver to a
				 * slave that was lost (its transfer may have failed, so
				 * it kept it) while the repair gave it to another, or
				 * the receiver of a hand-over by a holder not the owner */
	int64_t *owned;		/* undelivered iterations it holds */
	int64_t *computed;	/* iterations it delivered first */
	int64_t *mig_in;	/* transfers received */
	int64_t *link;		/* by chain link k (positions k, k+1): migrations */
	int64_t *start, *count, *stride; /* its initial iterations */
	uint64_t *peer_key;	/* what its neighbours show it */
	struct pair_counts pairs; /* workpile, roc, ripple: migrations per (giver, receiver) */
	struct tree_unit *units; /* Kim and Purtilo 1996 Table 2 */
	size_t nunits;
	int64_t migrations, moved, duplicates, reassigned;

	/* survival (coordinator_journal.c) */
	struct journal *journal; /* NULL: none */
	int replaying;		 /* the journal is being replayed: log nothing */
	double resumed_at;	 /* 0, or when this coordinator resumed a journal */
	uint64_t chain_ticket;	 /* the chain's record: durable before anyone is placed */
	int64_t nrepairs;	 /* repairs decided so far (their serials) */
	struct coordinator_repair *pending; /* replayed repairs not yet carried out */
	size_t npending;
};

/* The loop's iterations. */
int64_t coordinator_iterations(const struct coordinator *c);
/* Is slave id alive (registered, not lost)? */
int coordinator_alive(const struct coordinator *c, int id);
/* The nearest living slave on one side (step -1 or +1) of chain position
 * k (-1: none); the lock is held. */
int coordinator_living_at(const struct coordinator *c, int k, int step);
/* May slave id, showing key, act?  DLS_OK, or DLS_ENOENT / a refusal with
 * why; the lock is held. */
int coordinator_check_slave(struct coordinator *c, int id, uint64_t key, char *why);
/* May slave id hold every iteration start + j * stride (j < count), inside
 * the loop?  DLS_OK, or DLS_EINVAL with why (coordinator_repair.c); the
 * lock is held. */
int coordinator_check_holds(struct coordinator *c, int id, int64_t start, int64_t count,
			    int64_t stride, char *why);

/* Fills why (COORDINATOR_WHY_LEN) like printf. */
void why_f(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Builds the chain over the registered slaves (the lock is held); peer_keys:
 * the neighbours' keys to use (a replayed chain), NULL: fresh random ones.
 */
int coordinator_build_chain(struct coordinator *c, const uint64_t *peer_keys);

/* --- the journal's events (coordinator_log.c); the lock is held --------- */

/* The chain was built: who registered (ids 0..n-1), their keys and contacts. */
uint64_t coordinator_log_chain(struct coordinator *c);
/* An accepted report (its blocks must stay valid until the wait). */
uint64_t coordinator_log_report(struct coordinator *c, int id, const struct dls_result *res,
				size_t n, const struct dls_times *times);
/* An accepted hand-over notice. */
uint64_t coordinator_log_migrated(struct coordinator *c, int from, int to, int64_t start,
				  int64_t count, int64_t stride);
uint64_t coordinator_log_lost(struct coordinator *c, int id, const char *cause);
void coordinator_log_dismissed(struct coordinator *c, int id);
void coordinator_log_done(struct coordinator *c);
/* The next loop began (c->loop, its T_p's start). */
uint64_t coordinator_log_loop(struct coordinator *c);
/* A repair was carried out.  Without the lock. */
void coordinator_log_repaired(struct coordinator *c, int64_t serial);

#endif
