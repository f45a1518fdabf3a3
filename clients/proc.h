/*
 * proc.h - starting and stopping the processes a launcher owns, by PID only,
 * and the ports they listen on.
 */
#ifndef DLS_PROC_H
#define DLS_PROC_H

#include <sys/types.h>

/*
 * Starts argv[0] (found on PATH or as given) with stdout and stderr sent to
 * the files out_path and err_path (NULL: inherited; the same path: one file).
 * new_session: detach into its own session (a daemon).  Returns the PID, or
 * -1 with errno set.
 */
pid_t proc_spawn(char *const argv[], const char *out_path, const char *err_path, int new_session);

/* The same with stdin read from in_fd (-1: inherited), in this session. */
pid_t proc_spawn_in(char *const argv[], int in_fd, const char *out_path, const char *err_path);

/*
 * Stops pid: SIGTERM, then SIGKILL after grace_ms, and reaps it when it is
 * our child.  Returns its exit status as proc_status() would, or -1.
 */
int proc_stop(pid_t pid, int grace_ms);

/* Exit code of a waitpid() status: the code, or 128 + signal. */
int proc_status(int wstatus);

/* The last line of the file at path that is not empty (its newline cut),
 * or "" when there is none: what a program that failed printed last. */
void proc_last_line(const char *path, char *buf, size_t len);

/* A TCP port on 127.0.0.1 that was free a moment ago, or -1. */
int proc_free_port(void);

/* Waits until host:port (host NULL: 127.0.0.1) accepts connections: 0, or
 * -1 after timeout_ms, or as soon as the child `starter` (> 0; 0: none)
 * has exited (it is not reaped: its status is still there to take). */
int proc_wait_port(const char *host, int port, int timeout_ms, pid_t starter);

/* The folder of this program (to find dls-master next to dls), in buf. */
const char *proc_self_dir(char *buf, size_t len);

#endif
