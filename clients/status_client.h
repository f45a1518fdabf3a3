/*
 * status_client.h - asks a running master (DLS/<run>/master), or a
 * two-level hmaster (DLS/<run>/hmaster.L.I: its own slaves), for its status
 * and returns it as the master core's own snapshot type.
 */
#ifndef DLS_STATUS_CLIENT_H
#define DLS_STATUS_CLIENT_H

#include <stddef.h>

#include "dls_proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Needs dls_orb_init().  DLS_OK with *out filled (free with
 * dls_status_free; out->scheme points into static storage), or
 * DLS_ENOENT / DLS_EREMOTE with why filled.
 */
int status_fetch(const char *run, const char *leaf, struct dls_status *out, char *why,
		 size_t len);

#ifdef __cplusplus
}
#endif
#endif
