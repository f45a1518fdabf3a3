/*
 * upcall_gate.h - counts the remote callers inside a core (master,
 * coordinator) so that it is freed only when none is left: a core that
 * closes refuses later callers, wakes its own waits, and drains the rest.
 * The gate has no lock of its own: it uses the core's, and the core's
 * condition variable carries the wake-ups.
 */
#ifndef DLS_UPCALL_GATE_H
#define DLS_UPCALL_GATE_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

struct upcall_gate {
	int inside;  /* callers between enter and leave */
	int closing; /* set by the owner at its close: nobody enters, waits end */
};

/* A caller enters (takes lock): 0, or -1 once the gate is closing (then
 * it must not leave). */
int upcall_gate_enter(struct upcall_gate *g, pthread_mutex_t *lock);

/* A caller leaves (takes lock); the last one out of a closing gate
 * broadcasts cond. */
void upcall_gate_leave(struct upcall_gate *g, pthread_mutex_t *lock, pthread_cond_t *cond);

/*
 * Waits on cond (lock held) until nobody is inside, logging every 5 s who
 * is still there (`who`: "the master").  The caller set g->closing first
 * and woke its waits, which look at it.  Idempotent.
 */
void upcall_gate_drain(struct upcall_gate *g, pthread_cond_t *cond, pthread_mutex_t *lock,
		       const char *who);

#ifdef __cplusplus
}
#endif

#endif
