/*
 * upcall_gate.c - remote callers inside a core, counted so that the core
 * outlives them (upcall_gate.h).
 */
#include "upcall_gate.h"

#include "dls_log.h"
#include "dls_time.h"

int upcall_gate_enter(struct upcall_gate *g, pthread_mutex_t *lock)
{
	int rc = -1;

	pthread_mutex_lock(lock);
	if (!g->closing) {
		g->inside++;
		rc = 0;
	}
	pthread_mutex_unlock(lock);
	return rc;
}

void upcall_gate_leave(struct upcall_gate *g, pthread_mutex_t *lock, pthread_cond_t *cond)
{
	pthread_mutex_lock(lock);
	if (--g->inside == 0 && g->closing)
		pthread_cond_broadcast(cond);
	pthread_mutex_unlock(lock);
}

void upcall_gate_drain(struct upcall_gate *g, pthread_cond_t *cond, pthread_mutex_t *lock,
		       const char *who)
{
	while (g->inside > 0)
		if (dls_cond_wait_until(cond, lock, dls_now() + 5) && g->inside > 0)
			log_warn("closing: %d callers still inside %s", g->inside, who);
}
