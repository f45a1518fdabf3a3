/*
 * host_peers.h - the threads that compute one run's loop on this host, so
 * that a real-mode slave's Q_i counts foreign load only.  Q_i is the run
 * queue of the host's cores (slave_read_runqueue); the run's own slaves on
 * the same host (other dls-slave processes, the threads of a program that
 * embeds several slaves, a step-API program's own computing thread) are in
 * it too, and under a distributed scheme they would make one another wait
 * with A_i = 0 on a host that nobody else uses.
 *
 * Each computing thread is an empty file PID.TID in a folder of the run's,
 * $XDG_RUNTIME_DIR/dls-runs/RUN, else /dev/shm/dls-UID/RUN (made mode 0700;
 * used only when it belongs to this user).  An entry whose thread is gone
 * (a crashed process) is not counted and is removed.  A run whose name
 * cannot be a file name, or a folder that cannot be made, counts nothing:
 * Q_i is then the whole run queue, as without this.
 */
#ifndef DLS_HOST_PEERS_H
#define DLS_HOST_PEERS_H

struct host_peers {
	char dir[200];	 /* the run's folder; "" when unusable */
	char entry[256]; /* this thread's file; "" when not joined */
};

/*
 * Enters the calling thread as one that computes run `run` on this host.
 * Returns 1 when it did, 0 when the run's folder is unusable (said once
 * per process with the reason): *p then counts nothing.
 */
int host_peers_join(struct host_peers *p, const char *run);

/* Takes the thread out again (any thread may call it); idempotent. */
void host_peers_leave(struct host_peers *p);

/*
 * The run's computing threads on this host that are running now (state R
 * in /proc), the calling thread not counted.
 */
int host_peers_running(const struct host_peers *p);

#endif
