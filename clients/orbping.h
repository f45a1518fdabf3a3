/*
 * orbping.h - the physical limit of this machine's ORB: a servant whose
 * only operation does nothing (DLS::Slave::ping), and clients that call it
 * two-way as fast as they can.  `dls bench --capacity` sets the master's
 * request rate beside it.
 */
#ifndef DLS_ORBPING_H
#define DLS_ORBPING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Serves ping() until killed, after writing its IOR to ior_path.  Exit status. */
int orbping_serve(const char *ior_path);

/*
 * Makes `calls` two-way ping() calls on ior (after one warm-up call) and
 * prints "calls N start S end E" with CLOCK_MONOTONIC seconds.  Exit status.
 */
int orbping_call(const char *ior, long calls);

#ifdef __cplusplus
}
#endif
#endif
