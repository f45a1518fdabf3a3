/*
 * master_internal.h - the master's state, shared by master.c (lifecycle,
 * registration, snapshots) and master_serve.c (requests, results, failures).
 * Every field below is guarded by master.lock.
 */
#ifndef DLS_MASTER_INTERNAL_H
#define DLS_MASTER_INTERNAL_H

#include <pthread.h>

#include "ledger.h"
#include "master.h"
#include "tree_migrate.h"
#include "tree_plan.h"

struct slave_rec {
	int registered;
	int cluster; /* a two-level hmaster: holds several chunks at once */
	double min_leaf_speed; /* its slowest slave (its own speed for a slave) */
	struct dls_slave_status info;
	struct ledger_held held;
	int has_reply; /* last_reply answers a retry of seq last_seq */
	uint32_t last_seq;
	struct dls_reply last_reply;
	int first_request_pending;
	int64_t tree_start, tree_count, tree_stride; /* Tree Scheduling: initial iterations */
};

/* Tree Scheduling (master_tree.c); allocated when the chain is built. */
struct tree_state {
	struct tree_plan *plan; /* over the registered slaves, by id */
	int *pos;		/* chain position of each slave id */
	int32_t *owner;		/* who holds each undelivered iteration */
	int64_t *owned;		/* by id: undelivered iterations it holds */
	int64_t *computed;	/* by id: iterations it delivered first */
	int64_t *mig_in;	/* by id: transfers received */
	int64_t *link;		/* by chain link k (positions k, k+1) */
	struct tree_unit *units; /* seed 000 Table 2 */
	size_t nunits;
	int64_t migrations, moved, duplicates, reassigned;
};

/* A request (or a merged message) waiting for its turn. */
struct waiter {
	int64_t acp; /* ACPSA order: larger first */
	uint64_t arrival;
	int slave_id;
	int queued;	      /* 0: served at once, the queue being empty */
	pthread_cond_t turn;  /* signalled when it becomes the head */
	struct waiter *next;
};

struct master {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* registration closed, run done, a slave dismissed or lost */
	struct master_config cfg;
	struct iter_order order;
	struct sched *sched; /* created when the start gate opens */

	struct slave_rec *slaves; /* cfg.nslaves entries */
	int nregistered;
	double first_register_time;
	int registration_closed;
	double min_speed;

	double gate_deadline; /* start gate opens at the latest then */
	int gate_open;
	double t_start, t_end;
	struct waiter *queue; /* pending requests in ACPSA order */
	uint64_t arrivals;

	struct ledger ledger; /* who holds what; what is delivered */
	int64_t assigned, requeued_total;
	struct dls_range *requeue;
	size_t nrequeue, requeue_cap;
	uint16_t *image;
	int done;
	struct tree_state tree;
};

/* Sets why (may be NULL) like snprintf. */
void master_why(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Frees the tree state (master_tree.c). */
void master_tree_free(struct master *m);

/* Closes registration if it is due; call with the lock held. */
void master_close_registration_if_due(struct master *m, double now);

#endif
