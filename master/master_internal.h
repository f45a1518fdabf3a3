/*
 * master_internal.h - the master's state, shared by master.c (lifecycle,
 * registration, snapshots) and master_serve.c (requests, results, failures).
 * Every field below is guarded by master.lock.
 */
#ifndef DLS_MASTER_INTERNAL_H
#define DLS_MASTER_INTERNAL_H

#include <pthread.h>

#include "master.h"
#include "result_store.h"
#include "roster.h"
#include "serve.h"

/* What the master keeps of a child beyond its roster entry. */
struct master_child {
	struct serve_child serve;
	int first_request_pending; /* its first request waits at the start gate */
};

struct master {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* registration closed, run done, a slave dismissed or lost */
	struct master_config cfg;
	struct sched *sched; /* created when the start gate opens */

	struct roster roster;		/* who registered: ids, names, V_i, states */
	struct master_child *children;	/* cfg.nslaves entries, by id */
	double gate_deadline;		/* start gate opens at the latest then */
	int gate_open;
	struct serve_queue queue;	/* pending requests in ACPSA order */
	struct serve_ranges requeue;	/* the work of lost slaves */

	struct result_store results;	/* the workload, results, ledger, T_p */
	int64_t assigned, requeued_total;
};

/* Sets why (may be NULL) like snprintf. */
void master_why(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Closes registration if it is due; call with the lock held. */
void master_close_registration_if_due(struct master *m, double now);

#endif
