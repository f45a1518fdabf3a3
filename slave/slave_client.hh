// slave_client.hh - the slave's view of its master: the references and the
// struct slave_ops that the C core calls.
#ifndef DLS_SLAVE_CLIENT_HH
#define DLS_SLAVE_CLIENT_HH

#include "dls.hh"
#include "dls/slave.h"
#include "slave_servant.hh"

struct slave_client {
	DLS::Master_var master;		 // normal calls, the default call timeout
	DLS::Master_var master_register; // same object, a timeout as long as registration
	DLS::Coordinator_var coordinator; // tree mode: the same two roles
	DLS::Coordinator_var coordinator_register;
	DLS::Slave_var self;
	Slave_i *servant;
	char run_name[64];
	char bound_path[192]; // empty until bound
};

// The callbacks for slave_run(); registered (may be NULL) runs once registered.
struct slave_ops slave_client_ops(slave_client *c,
				  void (*registered)(void *, int, const struct dls_job *));

// Tree mode: the callbacks for slave_tree_run().
struct slave_tree_ops slave_client_tree_ops(slave_client *c,
					    void (*registered)(void *, int, const struct dls_job *));

#endif
