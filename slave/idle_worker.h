/*
 * idle_worker.h - a thread that runs the real computation of an emulated
 * slave at the lowest priority there is (SCHED_IDLE).
 *
 * On the emulated cluster every slave computes its chunk for real (for its
 * exact results) and then sleeps until the chunk's emulated cost has
 * passed.  On a real cluster each slave has its own cores; here twenty
 * slaves share two, and their real computations, all started by the first
 * replies, kept the master from serving the others' first requests for up
 * to 150 ms (C24).  Run at SCHED_IDLE, they only take the cores that the
 * master, the ORBs and the slaves' timed wake-ups leave: the emulated
 * machines then behave as if each had its own.  The limit of the method is
 * the machine's cores: the real computation of a run must fit in them.
 */
#ifndef DLS_IDLE_WORKER_H
#define DLS_IDLE_WORKER_H

#include <pthread.h>

struct idle_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int started, quit;
	int (*fn)(void *arg); /* the call to run, while pending */
	void *arg;
	int rc, pending;
	char log_label[64]; /* the starting thread's (dls_log_set_thread_label) */
};

/*
 * Starts the thread; it asks for SCHED_IDLE for itself (and stays at the
 * normal priority, with a line in the log, if the kernel refuses).  DLS_OK
 * or DLS_ENOMEM.
 */
int idle_worker_start(struct idle_worker *w);

/* Runs fn(arg) in the worker and waits for it: fn's return value. */
int idle_worker_call(struct idle_worker *w, int (*fn)(void *arg), void *arg);

/* Stops and joins the thread; a worker never started is left alone. */
void idle_worker_stop(struct idle_worker *w);

#endif
