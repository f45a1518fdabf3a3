// slave_client.hh - the slave's view of its master: the references and the
// struct slave_ops that the C core calls.
#ifndef DLS_SLAVE_CLIENT_HH
#define DLS_SLAVE_CLIENT_HH

#include <mutex>

#include "dls.hh"
#include "slave.h"
#include "run_auth.h"
#include "slave_orb.h"
#include "slave_servant.hh"

struct slave_client {
	DLS::Master_var master;		 // normal calls, the default call timeout
	DLS::Master_var master_register; // same object, a timeout as long as registration
	DLS::Coordinator_var coordinator; // tree mode: the same two roles
	DLS::Coordinator_var coordinator_register;
	DLS::PlacedSlave_var self;
	Slave_i *servant;
	char run_name[64];
	char bound_path[192];	  // empty until bound
	const struct slave_orb_opts *opts; // how the parent was found (rejoin)
	struct run_secret secret; // the run's (set = 0: none), from the options
	uint64_t key;		  // the capability the parent issued at registration
	// guards master and master_register: a slave's two senders may call
	// while one of them rejoins a resumed master and replaces them
	std::mutex refs_lock;
};

// The callbacks for slave_run(); registered (may be NULL) runs once registered.
struct slave_ops slave_client_ops(slave_client *c,
				  void (*registered)(void *, int, const struct dls_job *));

// Finds the master (or coordinator) of o, makes its references (call
// timeouts of their own: nothing process-wide) and activates our servant
// in the root POA.  DLS_OK; DLS_ESTATE (no ORB), DLS_ENOENT (not found in
// time), DLS_EREMOTE, with why.
int slave_client_connect(slave_client *c, const struct slave_orb_opts *o, char *why, size_t len);

// The run, once connected: the slave loop, or Tree Scheduling's.  As
// slave_run; the slave binds DLS/<run>/slave.<id> once registered.
int slave_client_run(slave_client *c, const struct slave_config *cfg,
		     const struct slave_orb_opts *o, struct dls_slave_stats *st, char *why, size_t len);

// Unbinds the slave's name; deactivates its servant (after the run).
void slave_client_unbind(slave_client *c);
void slave_client_deactivate(slave_client *c);

// Tree mode: the callbacks for slave_placed_run().
struct placed_ops slave_client_tree_ops(slave_client *c,
					    void (*registered)(void *, int, const struct dls_job *));

#endif
