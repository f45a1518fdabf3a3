/*
 * ior_wait.h - a launcher waits for the IOR a server it started writes
 * (--ior FILE), so that it can hand the server's reference to the
 * processes it starts next instead of a name anyone can rebind.
 */
#ifndef DLS_IOR_WAIT_H
#define DLS_IOR_WAIT_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Waits up to timeout_ms for path to hold an IOR ("IOR:..." on its first
 * line) while process pid lives (it is not reaped).  0 with the IOR in out
 * (len octets, without the newline); -1 when pid exited first, the time
 * passed, or the file holds no IOR that fits.
 */
int ior_wait(const char *path, pid_t pid, int timeout_ms, char *out, size_t len);

#endif
