/*
 * twolevel_internal.h - the state of an hmaster's two-level mode (docs/
 * schemes.md 5), shared by its two files: twolevel.c (the children's
 * calls, the lifecycle, the resume; it fills hmaster_twolevel_mode) and
 * twolevel_up.c (the forwarding thread, which talks to the parent).
 *
 * To its parent the hmaster is ONE child whose power is the sum of its
 * slaves'; it runs the run's scheme over its own slaves on the chunks its
 * parent gave it (I := chunk, the slaves' A_i) and asks its parent for the
 * next chunk before its pool runs dry, so its slaves do not wait on the
 * super-master.  Results pass up merged, in submit() messages of at most
 * 1 MiB.  Every field is guarded by twolevel.lock.
 */
#ifndef DLS_TWOLEVEL_INTERNAL_H
#define DLS_TWOLEVEL_INTERNAL_H

#include <pthread.h>

#include "dls_sched.h"
#include "hmaster_mode.h"
#include "ledger.h"
#include "serve.h"
#include "work.h"

/* A child: its row (name, V_i = the sum of its slaves', A_i, chunks, times,
 * state) and what the serving core keeps of it. */
struct child {
	struct dls_slave_status info;
	struct serve_child serve;
	uint64_t key;	 /* its capability */
	int readmitted; /* taken back after it was declared lost, or BACK */
	int back;	/* resumed: it rejoined this hmaster */
	uint32_t loop_told; /* the loop whose job it was given with a chunk */
};

/* readmitted: it came back to a resumed hmaster (the work it held went to
 * the parent's other children) */
enum { BACK = 2 };

/* A child's registration waiting for the merged one to come back. */
struct pending_reg {
	const double *speeds;
	size_t n;
	int id;
	double *vpowers;
	struct dls_job *job;
	int rc, done;
	char why[HMASTER_WHY_LEN];
	struct pending_reg *next;
};

/* Results on their way up (copies: the child's message is gone by then). */
struct outbox {
	struct dls_result *v;
	size_t n, cap;
};

struct twolevel {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct hmaster_parent parent;
	char name[64];
	int nslaves, leaves, register_timeout_ms, stop;
	int expected; /* leaves it waits for: nslaves less those withdrawn */
	double link_latency_s, first_register;

	struct pending_reg *regs;
	int registration_sent, my_id, failed;
	char record[4096]; /* where to keep the record for a resume ("" none) */
	int resumed;	   /* it succeeds one that died; its children rejoin */
	uint64_t my_key; /* the parent's capability for this hmaster */
	char failure[HMASTER_WHY_LEN];
	struct dls_job job;
	uint32_t loop;	  /* the parent's loop: its job's dls.loop (a run of many loops) */
	struct work work; /* the job's workload when this build has it (w NULL: not) */
	struct child *children; /* nslaves at most */
	int nchildren;
	struct ledger ledger;

	/* the pool: the scheme over the current chunk, then queued chunks */
	struct sched *cur;
	int64_t cur_start, cur_size;
	struct serve_ranges chunks;  /* the parent's chunks not started yet */
	struct serve_ranges requeue; /* the work of lost children */
	struct serve_queue waiting;   /* children's requests in ACPSA order */

	/* the parent */
	int first_sent, in_flight, parent_done, need, just_submitted;
	int first_requests;
	double first_request, wait_until;
	uint32_t seq;
	struct outbox out;
	size_t unsure; /* the head of out the last submit carried, its answer lost */

	int64_t received; /* iterations the parent gave */
	double t_first;	  /* the first chunk's arrival */
	pthread_t thread;
	long parent_requests, local_chunks;
};

/* Iterations in the pool not yet handed to a child.  The lock is held. */
int64_t twolevel_pool_left(const struct twolevel *t);

/* The parent's job, as two-level mode needs it (a distributed scheme, a
 * loop of results it can hold); then this hmaster is the parent's child id
 * with capability key.  DLS_OK, or an error with why.  The lock is held. */
int twolevel_accept_job(struct twolevel *t, int id, uint64_t key, const struct dls_job *job,
			char *why);

/* A run of many loops: the parent's reply that began its next loop carried
 * that loop's job.  Checked as the slaves check theirs (the same run,
 * workload, order and collection), it replaces the loop before: the
 * ledger, the pool and the children's holdings start afresh, and each
 * child gets the job with its first chunk of the loop.  DLS_OK, or a
 * refusal with why (the hmaster then fails).  The lock is held. */
int twolevel_begin_loop(struct twolevel *t, const struct dls_job *job, char *why);

/* The forwarding thread (arg: the struct twolevel): sends the merged
 * registration, results and requests for chunks up until the core stops
 * or the parent fails. */
void *twolevel_forwarder(void *arg);

#endif
