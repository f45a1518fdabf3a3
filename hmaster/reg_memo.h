/*
 * reg_memo.h - the registrations an hmaster answered, kept by caller: the
 * same process asking again (its registration call failed or timed out on
 * its side while this hmaster held it) is answered the same, and takes no
 * second place.  A caller is a fingerprint of the reference it registered
 * (dls_ref_fingerprint); the same caller, first name, number of slaves and
 * speeds make the same registration.  The master and the coordinator do
 * the same in their cores (roster_find_again), journaled.
 *
 * Thread-safe.
 */
#ifndef DLS_REG_MEMO_H
#define DLS_REG_MEMO_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

struct reg_memo_entry;

struct reg_memo {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* a registration was answered, or the owner closes */
	int closing;
	struct reg_memo_entry *head;
};

/* DLS_OK or DLS_ENOMEM. */
int reg_memo_init(struct reg_memo *m);

/* Frees every entry; nobody may be inside. */
void reg_memo_free(struct reg_memo *m);

/* Ends every wait inside reg_memo_begin (they return DLS_ESTATE). */
void reg_memo_close(struct reg_memo *m);

/*
 * Before a registration of n slaves by `caller` (its first slave's name,
 * their speeds), answered with nids ids and capabilities (relay: one per
 * slave; two-level: one).  *asked_before = 1 and the earlier answer in
 * ids, keys, vpowers (n), job when the same registration was answered
 * already (if it is still in progress, this waits for its answer); else 0
 * and *slot is where reg_memo_end keeps this one's answer (NULL: not kept,
 * as for caller 0).  DLS_OK, or DLS_ESTATE (the owner is closing) /
 * DLS_ENOMEM with why (len octets).
 */
int reg_memo_begin(struct reg_memo *m, uint64_t caller, const char *name, const double *speeds,
		   size_t n, size_t nids, struct reg_memo_entry **slot, int *asked_before, int *ids,
		   uint64_t *keys, double *vpowers, struct dls_job *job, char *why, size_t len);

/* After the registration reg_memo_begin let through: keeps its answer
 * (rc DLS_OK) for a caller who asks again, or forgets it (a refusal: asked
 * again, it is registered afresh); wakes those waiting for it.  NULL slot:
 * a no-op. */
void reg_memo_end(struct reg_memo *m, struct reg_memo_entry *slot, int rc, const int *ids,
		  const uint64_t *keys, const double *vpowers, const struct dls_job *job);

#ifdef __cplusplus
}
#endif

#endif
