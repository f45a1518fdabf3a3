/*
 * names_proc.h - a private omniNames: bound to one address (127.0.0.1 by
 * default) on its own port, with its own data folder.
 */
#ifndef DLS_NAMES_PROC_H
#define DLS_NAMES_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* How omniNames is started elsewhere (dls run on another host): spawn(ctx,
 * argv, log) returns the local PID that stands for it, or -1. */
struct names_spawn {
	pid_t (*spawn)(void *ctx, char *const argv[], const char *log);
	void *ctx;
};

/*
 * Starts omniNames with its data and log in dir, listening on addr (NULL:
 * 127.0.0.1) and port (0: a free one, retried if another process takes it
 * first), through how (NULL: here, detached when daemon), and waits until
 * it answers there.  Returns 0 with *pid and *port_out set, or -1 with why
 * filled.
 */
int names_start(const char *dir, const char *addr, int port, int daemon,
		const struct names_spawn *how, pid_t *pid, int *port_out, char *why, size_t len);

/* "corbaname::ADDR:PORT" into buf (addr NULL: 127.0.0.1); returns buf. */
char *names_address(const char *addr, int port, char *buf, size_t len);

#endif
