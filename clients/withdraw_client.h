/*
 * withdraw_client.h - tells a run's master (DLS/<run>/master) or Tree
 * Scheduling's coordinator (DLS/<run>/treesched) that a child it expects
 * will not come (Master::withdraw, Coordinator::withdraw), proving the
 * run's secret as a registration does.
 */
#ifndef DLS_WITHDRAW_CLIENT_H
#define DLS_WITHDRAW_CLIENT_H

#include <stddef.h>

#include "run_auth.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Needs dls_orb_init().  leaf: "master", "treesched" or an hmaster's, looked up for at
 * most wait_ms (it may not be bound yet).  secret NULL: an open run.
 * DLS_OK; DLS_ENOENT (nothing bound at that name), DLS_ESTATE
 * (refused: why holds the parent's reason), DLS_EREMOTE (the call failed),
 * with why filled.
 */
int withdraw_send(const char *run, const char *leaf, const char *name,
		  const struct run_secret *secret, int wait_ms, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
