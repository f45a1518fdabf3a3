/*
 * names_proc.h - a private omniNames: bound to 127.0.0.1 on its own port,
 * with its own data folder.
 */
#ifndef DLS_NAMES_PROC_H
#define DLS_NAMES_PROC_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Starts omniNames with its data and log in dir, on port (0: a free one,
 * retried if another process takes it first), and waits until it answers.
 * Returns 0 with *pid and *port_out set, or -1 with why filled.
 */
int names_start(const char *dir, int port, int daemon, pid_t *pid, int *port_out, char *why,
		size_t len);

/* "corbaname::127.0.0.1:PORT" into buf; returns buf. */
char *names_address(int port, char *buf, size_t len);

#endif
