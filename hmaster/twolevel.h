/*
 * twolevel.h - the two-level mode of an hmaster (docs/schemes.md 5): to
 * its parent it is ONE child whose power is the sum of its slaves'; it runs
 * the run's scheme over its own slaves on the chunks its parent gave it
 * (I := chunk, the slaves' A_i) and asks its parent for the next chunk
 * before its pool runs dry, so its slaves do not wait on the super-master.
 * Results pass up merged, in submit() messages of at most 1 MiB.
 *
 * Internal to the hmaster: hmaster.c dispatches its public functions here
 * when the hmaster was created in two-level mode.  Thread-safe.
 */
#ifndef DLS_TWOLEVEL_H
#define DLS_TWOLEVEL_H

#include "hmaster.h"

struct twolevel;

/* Creates the two-level core and starts its forwarding thread (NULL, *err). */
struct twolevel *twolevel_create(const char *name, int nslaves, int register_timeout_ms,
				 double link_latency_us, const struct hmaster_parent *parent,
				 int *err);
/* Ends every wait inside t (its callers are refused "the hmaster is
 * stopping") and its forwarder's loop; t stays valid.  Idempotent. */
void twolevel_stop(struct twolevel *t);
/* twolevel_stop, then frees t; NULL is a no-op. */
void twolevel_destroy(struct twolevel *t);

/* One slave fewer below (hmaster_withdraw). */
int twolevel_withdraw(struct twolevel *t, const char *name, char *why);

/*
 * Registers one child with the n slaves below it (a slave: n = 1); blocks
 * until this hmaster registered with its parent.  *id: the child's id here;
 * *key: the capability issued to it; vpowers: each slave's V_i.
 */
int twolevel_register(struct twolevel *t, const char *name, const double *speeds, size_t n,
		      int *id, uint64_t *key, double *vpowers, struct dls_job *job, char *why);

/* Serves a child's request from the local pool (blocks while it refills). */
int twolevel_request(struct twolevel *t, const struct dls_request *req, struct dls_reply *out,
		     char *why);

/* Results a child sends outside a request: checked, then queued for the parent. */
int twolevel_submit(struct twolevel *t, int child, uint64_t key, const struct dls_result *res,
		    size_t n, char *why);

/* Keeps the record a resumed hmaster starts from at path (twolevel_record.h),
 * written once the registration came back.  Before the registration. */
void twolevel_keep_record(struct twolevel *t, const char *path);

/*
 * Makes t, just created, the successor of the hmaster of the record at
 * path that died: the parent is told that what it held is gone (it
 * requeues it) and takes it back with its id and capability; its children
 * rejoin with theirs (twolevel_rejoin), and what they send of the work
 * they held is dropped.  DLS_OK, or an error with why (no record, another
 * hmaster's, the parent's refusal).
 */
int twolevel_resume(struct twolevel *t, const char *path, char *why);

/* Child, showing key, rejoins: taken back if it was lost; *vpower and *job
 * as at its registration.  DLS_OK or check_caller's errors with why. */
int twolevel_rejoin(struct twolevel *t, int child, uint64_t key, double *vpower,
		    struct dls_job *job, char *why);

/* Resumed, with no child holding or asking for work and nothing to send up. */
int twolevel_resumed_idle(struct twolevel *t);

/* May child, showing key, act?  DLS_OK or DLS_ENOENT / DLS_EINVAL / DLS_ESTATE with why. */
int twolevel_check_caller(struct twolevel *t, int child, uint64_t key, char *why);

/* The capability issued to child (0: none). */
uint64_t twolevel_child_key(struct twolevel *t, int child);

/* A child died or hung: what it holds and did not deliver goes to its siblings. */
int twolevel_child_lost(struct twolevel *t, int child, const char *cause);

size_t twolevel_children_holding(struct twolevel *t, int *ids, size_t max);
int twolevel_wait_finished(struct twolevel *t, int timeout_ms);
/* Its own view for status(): its slaves, the iterations it got and handed out. */
int twolevel_snapshot(struct twolevel *t, struct dls_status *out);
/* Writes the per-slave table (chunks, iterations, times, state) to out. */
void twolevel_report(struct twolevel *t, FILE *out);

#endif
