/*
 * slave_call.h - the slave's one policy for a call to its parent (master,
 * hmaster or coordinator): how often it is tried, how long a parent that
 * takes a call and does not answer is waited out, when the slave rejoins a
 * parent resumed from its journal, and what the time counts as.
 */
#ifndef DLS_SLAVE_CALL_H
#define DLS_SLAVE_CALL_H

#include <stddef.h>

struct run;

/*
 * One call to the parent, made again as the policy says: DLS_OK, DLS_EREMOTE
 * (the parent was not reached), DLS_ETIMEDOUT (it took the call and did not
 * answer in time), or a refusal (DLS_EINVAL, DLS_ESTATE, ...), with why
 * (len octets) filled on failure.
 */
typedef int (*slave_call_fn)(void *arg, char *why, size_t len);

/*
 * Makes call(arg, why, len) under the slave's fault policy:
 *  - a parent not reached is called again, cfg->retries attempts in all
 *    (one when the run may rejoin, or the parent is gone for good), after
 *    back-offs from cfg->retry_delay_ms, doubled each time, each attempt
 *    logged with why;
 *  - a call that timed out is made again while slave_wait_out waits the
 *    parent out (cfg->patience_ms), without counting as an attempt;
 *  - once the attempts are spent, the slave rejoins the parent
 *    (slave_rejoin: a master resumed from its journal) and makes the same
 *    call again, the same answer being owed to it.
 * Every call's time and every back-off count as r->st->times.t_comwait;
 * each unreached attempt adds one to r->unreached.  Returns the call's
 * code, DLS_EREMOTE when the parent stayed out of reach, or the rejoin's
 * refusal, with why.
 */
int slave_call(struct run *r, slave_call_fn call, void *arg, char *why, size_t len);

#endif
