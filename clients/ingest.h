/*
 * ingest.h - the master's result ingest rate beside a bare omniORB transfer
 * of the same messages (the results path; scripts/bench-ingest.sh):
 *
 *  - ingest_bare_serve: a DLS::Master whose submit() accepts and drops the
 *    octets (nothing checked, nothing stored): the ORB's own cost;
 *  - ingest_bare_send: submits blocks of block_bytes octets, each from a
 *    fresh part of a total_bytes buffer (as a slave's results are), until
 *    total_bytes went;
 *  - ingest_master: registers as the only slave of a real master, takes the
 *    whole loop in one chunk (GSS), computes it untimed, then delivers it
 *    as a slave does (1 MiB blocks by submit, the last on the request).
 *
 * The senders print "bytes N start S end E" (CLOCK_MONOTONIC seconds).
 */
#ifndef DLS_INGEST_H
#define DLS_INGEST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Serves until killed, after writing its IOR to ior_path.  Exit status. */
int ingest_bare_serve(const char *ior_path);

/* Exit status. */
int ingest_bare_send(const char *ior, size_t block_bytes, int64_t total_bytes);

/* The master bound as DLS/<run>/master.  Exit status. */
int ingest_master(const char *run);

#ifdef __cplusplus
}
#endif
#endif
