/*
 * roster.h - the children that register with a master or a coordinator:
 * Chronopoulos et al. 2002 DTSS master step 1 (Speed -> V_i = Speed_i / min Speed, the
 * minimum over every slave of the run at any depth), the registration
 * barrier (it closes when every expected child has registered, or
 * register_timeout_ms after the roster was made, with those in by then), the capabilities it issues (a
 * random key per child, run_auth.h) and the checks of a caller's id and key.
 *
 * Not thread-safe: the owner holds its lock around every call, and
 * roster_wait_closed waits on the owner's lock and condition.
 */
#ifndef DLS_ROSTER_H
#define DLS_ROSTER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The largest V_i a child gets.  V_i is Speed_i over the slowest speed, so
 * one child reporting a tiny speed would otherwise give every other a V_i
 * (and an A_i) too large for a request to carry; past this ratio V_i is
 * clamped, with a warning naming the slowest.
 */
#define ROSTER_MAX_VPOWER ((double)(1 << 20))

struct roster_entry {
	int registered;
	int cluster;	       /* a two-level hmaster: it may hold several chunks */
	double min_leaf_speed; /* its slowest slave (its own speed for a slave) */
	uint64_t key;	       /* its capability: every later call must carry it */
	uint64_t caller;       /* who registered it (dls_ref_fingerprint; 0: unknown) */
	struct dls_slave_status info;
};

struct roster {
	struct roster_entry *v; /* `expected` entries; ids in registration order */
	int expected, n;
	int register_timeout_ms;
	double created;	   /* the window counts from here */
	double first_time; /* the first registration */
	int closed;
	double min_speed; /* once closed */
	char **withdrawn; /* names withdrawn before they registered (roster_withdraw) */
	int nwithdrawn;
};

/* An empty roster for `expected` children: DLS_OK or DLS_ENOMEM. */
int roster_init(struct roster *r, int expected, int register_timeout_ms);
void roster_free(struct roster *r);

/*
 * Registers n children atomically (or, with min_leaf, one two-level hmaster
 * of summed speed speeds[0] whose slowest slave is *min_leaf), ids in
 * registration order, each with a fresh random capability (keys).  DLS_EINVAL (a speed not positive
 * and finite), DLS_ESTATE (the run is full, or a name was withdrawn); why names the cause.  A child
 * that comes after the roster closed gets V_i >= 1 at once.
 */
/*
 * Could `speed` be a slave's Speed (or throughput)?  DLS_OK, or DLS_EINVAL
 * with why naming `who` and the value: it must be positive and finite.
 * Every role checks a child's speed with it before the child takes a place
 * (an hmaster too, so that one bad child cannot spoil its siblings'
 * registration with the parent).
 */
int roster_speed_check(double speed, const char *who, char *why, size_t len);

int roster_add(struct roster *r, const char *const *names, const double *speeds, size_t n,
	       const double *min_leaf, int *ids, uint64_t *keys, char *why, size_t len);

/*
 * A registration made already, asked again by the same process (its answer
 * was lost: a parent that died after it recorded the registration and
 * before it answered, then resumed from its journal; or a call that timed
 * out on the caller's side): 1 when `caller` is not 0 and each names[k] is
 * entry ids[0] + k, registered by that caller with the same speed and of
 * the same kind (min_leaf given: a two-level hmaster's cluster, of that
 * slowest speed); ids[0..n) are then those entries.  0 otherwise (a new
 * registration for roster_add).  The owner checks that none of them has
 * acted yet.
 */
int roster_find_again(const struct roster *r, const char *const *names, const double *speeds,
		      size_t n, const double *min_leaf, uint64_t caller, int *ids);

/*
 * Child `name` will not come (the launcher saw it exit before it
 * registered): one child fewer is expected, so the roster may close now
 * (roster_close_if_due), and a later registration of that name is
 * refused.  DLS_OK; DLS_ESTATE (the roster closed already, a child of that
 * name registered, itself or through a relay (roster_names_match), or the
 * name was withdrawn before), DLS_EINVAL
 * (it would leave no child to expect, or an empty name), DLS_ENOMEM; why
 * names the cause.
 */
int roster_withdraw(struct roster *r, const char *name, char *why, size_t len);

/*
 * Is `registered` (the name a child registered with) the slave `name` of
 * a withdrawal: the same, or one a relay hmaster brought in as
 * 'HMASTER/.../name'?  1 or 0.
 */
int roster_names_match(const char *registered, const char *name);

/*
 * Closes the roster if every expected child is in, or the window since the
 * roster was made has passed at `now` with at least one child in: V_i :=
 * speed / min speed, at most ROSTER_MAX_VPOWER.
 * Returns 1 when it closed in this call (the owner wakes its waiters).
 */
int roster_close_if_due(struct roster *r, double now);

/*
 * Once closed: the V_i of a child of this speed, speed / min speed, at
 * least 1 (a late child slower than every other) and at most
 * ROSTER_MAX_VPOWER.
 */
double roster_vpower(const struct roster *r, double speed);

/* When the roster closes at the latest: register_timeout_ms after it was made. */
double roster_deadline(const struct roster *r);

/* Non-zero when the window passed at `now` and nobody registered: the run cannot start. */
int roster_abandoned(const struct roster *r, double now);

/*
 * Blocks on cond (lock held) until the roster closed: 0; or until
 * *giving_up (the owner is closing, and broadcast cond) is set: -1.  A
 * window that ends by its deadline is closed by close_if_due(owner, now),
 * the owner's own close (the master journals it and starts its start
 * gate's wait); NULL: roster_close_if_due, then a broadcast of cond.
 */
int roster_wait_closed(struct roster *r, pthread_mutex_t *lock, pthread_cond_t *cond,
		       const int *giving_up, void (*close_if_due)(void *owner, double now),
		       void *owner);

/*
 * May child `id`, showing capability `key`, call?  DLS_OK; DLS_ENOENT
 * (unknown id), DLS_EINVAL (the wrong key: not the process that registered
 * as id) or DLS_ESTATE (declared lost), with why filled.
 */
int roster_check_caller(const struct roster *r, int id, uint64_t key, char *why, size_t len);

/* The capability issued to child id (0: no such child). */
uint64_t roster_key(const struct roster *r, int id);

/*
 * Does a call for child id show the capability `issued` to it?  DLS_OK, or
 * DLS_EINVAL with why saying so.  The one key check of every parent (the
 * roster's children, a relay hmaster's and a two-level hmaster's).
 */
int roster_key_check(uint64_t issued, uint64_t shown, int id, char *why, size_t len);

/* Non-zero once every expected child registered and every one was lost. */
int roster_all_lost(const struct roster *r);

/* Registered and not lost. */
int roster_alive(const struct roster *r, int id);

#ifdef __cplusplus
}
#endif
#endif
