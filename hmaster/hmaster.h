/*
 * hmaster.h - an HDTSS hmaster (Chronopoulos et al. 2002 section 4.2,
 * docs/schemes.md 5), in one of two modes chosen when it is created.
 * Relay (relay.c): to its parent (a master or another hmaster) it is a
 * group of slaves, to its children a master; it merges their
 * registrations and requests into one message each way, and the parent
 * computes every chunk, so the schedule is flat DTSS's in the same service
 * order.  Two-level (twolevel.c): to its parent it is one child with the
 * summed power of its slaves, and it schedules them itself.
 *
 * Plain C: the parent is reached through struct hmaster_parent
 * (hmaster_mode.h).  Children's calls block in their own ORB threads; one
 * forwarding thread talks to the parent.  Thread-safe.
 */
#ifndef DLS_HMASTER_H
#define DLS_HMASTER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dls_proto.h"
#include "hmaster_mode.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hmaster;

/*
 * Creates an hmaster named `name` (it prefixes the names it registers with
 * it, "hmaster.0.1/slave.3", so that the master's table shows the tree) for
 * `nslaves` slaves in all below it (its children's
 * slaves count too) and starts its forwarding thread.  register_timeout_ms:
 * how long it waits for its slaves before registering those it has;
 * link_latency_us: the emulated one-way latency of the link to the parent.
 */
struct hmaster *hmaster_create(const char *name, enum hmaster_mode mode, int nslaves,
			       int register_timeout_ms, double link_latency_us,
			       const struct hmaster_parent *parent, int *err);

enum hmaster_mode hmaster_mode_of(const struct hmaster *h);

/*
 * Two-level mode: keeps, at path, the record a successor resumes from
 * (twolevel_record.h: its id and capability at the parent, its children's
 * names, V_i and capabilities), once the registration came back.  Call
 * before any child registers.  Relay mode needs none: a no-op.
 */
void hmaster_keep_record(struct hmaster *h, const char *path);

/*
 * Makes h, just created, the successor of the hmaster of its name that
 * died; its registration is over (a register_* is refused) and its
 * children come back through hmaster_rejoin.  Relay: nothing to restore
 * (record unused).  Two-level: from the record its predecessor kept; the
 * parent is told that what it held is gone and takes it back.  DLS_OK, or
 * an error with why (HMASTER_WHY_LEN).
 */
int hmaster_resume(struct hmaster *h, const char *record, char *why);

/*
 * A child of a resumed hmaster (or of any two-level one, which takes back
 * a child it found lost), showing capability key, rejoins.  Relay: the
 * parent checks the key (it issued it) and takes the slave back if it was
 * lost; then this hmaster relays its calls.  Two-level: checked here, from
 * the record.  Fills *vpower and *job as a registration does.  DLS_OK;
 * DLS_ESTATE (a relay hmaster not resumed, or more slaves than expected),
 * DLS_EINVAL (another key), or the parent's refusal, with why.
 */
int hmaster_rejoin(struct hmaster *h, int slave_id, uint64_t key, double *vpower,
		   struct dls_job *job, char *why);

/*
 * A resumed hmaster with nothing left to do: every child that came back
 * heard DONE or was lost, and nothing waits to go up.  While some child
 * never came back (it finished before the crash), the end is the
 * parent's: the caller asks whether the parent is still there.  0
 * otherwise.
 */
int hmaster_resumed_idle(struct hmaster *h);

/*
 * May a child register through the operation of `mode` (register_group:
 * relay, register_cluster: two-level)?  One mode runs the whole tree:
 * DLS_OK, or DLS_ESTATE with why (HMASTER_WHY_LEN) saying so.
 */
int hmaster_may_register(const struct hmaster *h, enum hmaster_mode mode, char *why);

/*
 * A remote caller's way in: every servant operation calls hmaster_enter
 * before any other hmaster call and hmaster_leave after its last.  DLS_OK,
 * or DLS_ESTATE with why (HMASTER_WHY_LEN) once hmaster_destroy began
 * (then it must not leave).
 */
int hmaster_enter(struct hmaster *h, char *why);
void hmaster_leave(struct hmaster *h);

/* Refuses later callers, ends every wait inside (those callers are
 * refused), waits until no caller is inside, stops the forwarding thread
 * and frees h; NULL is a no-op. */
void hmaster_destroy(struct hmaster *h);

/*
 * Slave `name` below will not come: the launcher saw it exit before it
 * registered, and withdraws it at every hmaster above it.  The hmaster
 * expects one slave fewer below and registers with its parent once the
 * others are in.  DLS_OK; DLS_ESTATE (its registration went up already, it
 * resumed, or every other slave expected is in), why filled.
 */
int hmaster_withdraw(struct hmaster *h, const char *name, char *why);

/*
 * Registers n slaves of a child (n = 1 for a slave) and blocks until the
 * merged registration went up and came back: their global ids, their
 * capabilities (the parent's, passed through) and V_i, and the job.
 * Two-level mode: the child is one (a slave, or a two-level hmaster with n
 * slaves): ids[0] is its id here and keys[0] the capability this hmaster
 * issued to it.  `caller` identifies the process that asks
 * (dls_ref_fingerprint of its reference; 0: unknown): the same
 * registration asked again by it (its answer was lost) gets the first
 * answer (reg_memo.h), after it if that is still on its way, and takes no
 * second place.  DLS_OK, DLS_ESTATE (more slaves than expected, or
 * registration already done), DLS_EREMOTE/refusals of the parent (why
 * filled).
 */
int hmaster_register(struct hmaster *h, uint64_t caller, const char *const *names,
		     const double *speeds, size_t n, int *ids, uint64_t *keys, double *vpowers,
		     struct dls_job *job, char *why);

/*
 * Relays n requests of a child (n = 1 for a slave), each carrying its
 * slave's capability (checked here first): they join the next merged
 * message; blocks until their replies are back.  The results the requests
 * carry must stay valid until it returns.
 */
int hmaster_request(struct hmaster *h, const struct dls_request *reqs, size_t n,
		    struct dls_reply *out, char *why);

/* Relays results sent outside a request (two-level: checked, sent up merged). */
int hmaster_submit(struct hmaster *h, int slave_id, uint64_t key, const struct dls_result *res,
		   size_t n, char *why);

/*
 * May slave_id below, showing capability key, act (a remote slave_lost, a
 * stop from the parent)?  DLS_OK, or DLS_ENOENT / DLS_EINVAL with why.
 */
int hmaster_check_caller(struct hmaster *h, int slave_id, uint64_t key, char *why);

/* The capability of slave_id below (0: none): shown when this hmaster
 * tells it to stop. */
uint64_t hmaster_child_key(struct hmaster *h, int slave_id);

/* Relay: tells the parent that slave_id died under this hmaster.  Two-level:
 * what the child held and did not deliver goes to its siblings.  Trusted:
 * the caller checked a remote reporter with hmaster_check_caller. */
int hmaster_slave_lost(struct hmaster *h, int slave_id, const char *cause);

/* Ids of the slaves below that hold work (got WORK and have not asked since). */
size_t hmaster_slaves_holding(struct hmaster *h, int *ids, size_t max);

/* Waits until every slave below heard DONE or was lost: DLS_OK or DLS_ETIMEDOUT. */
int hmaster_wait_finished(struct hmaster *h, int timeout_ms);

struct dls_status;

/*
 * Two-level mode: its own view (its slaves; free with dls_status_free)
 * for the status operation.  Relay mode has none: DLS_ENOENT (its parent's
 * view shows its slaves).
 */
int hmaster_snapshot(struct hmaster *h, struct dls_status *out);

/* Writes what it did to out: merged messages (relay), or its slaves' table
 * (two-level). */
void hmaster_report(struct hmaster *h, FILE *out);


#ifdef __cplusplus
}
#endif
#endif
