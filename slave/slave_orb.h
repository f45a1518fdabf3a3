/*
 * slave_orb.h - runs the slave core against a master found through the
 * naming service (DLS/<run>/master), as a CORBA servant bound at
 * DLS/<run>/slave.<id> while it runs.
 */
#ifndef DLS_SLAVE_ORB_H
#define DLS_SLAVE_ORB_H

#include "slave.h"

#ifdef __cplusplus
extern "C" {
#endif

struct run_secret;

struct slave_orb_opts {
	const char *run_name;
	const char *master_ior;	 /* use this IOR instead of the naming service */
	const char *master_leaf; /* DLS/<run>/<master_leaf>: "master" or an hmaster */
	const char *coordinator_leaf; /* Tree Scheduling: DLS/<run>/<leaf>; NULL: a master */
	int connect_timeout_ms;	 /* keep looking for the master this long */
	int register_timeout_ms; /* the registration call may block this long */
	int call_timeout_ms;	 /* every other call to the master; 0: the ORB's default */
	const struct run_secret *secret; /* the run's (NULL: none; PROTOCOL.md 14) */
};

/*
 * Needs dls_orb_init() first.  Returns the exit status: 0 when the run
 * ended, 1 when the master could not be reached or refused us.
 */
int slave_orb_run(const struct slave_config *cfg, const struct slave_orb_opts *o);

#ifdef __cplusplus
}
#endif
#endif
