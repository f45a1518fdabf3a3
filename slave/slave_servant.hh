// slave_servant.hh - Slave_i, the thin servant of DLS::Slave: answers the
// master's liveness pings and the launcher's stop; in Tree Scheduling it
// passes its neighbours' demands and transfers, and the coordinator's
// changes of neighbours, to the tree core (slave_tree.h), and keeps the
// neighbours' references for the core's own calls.
#ifndef DLS_SLAVE_SERVANT_HH
#define DLS_SLAVE_SERVANT_HH

#include <omnithread.h>

#include "dls.hh"
#include "slave_tree.h"

class Slave_i : public POA_DLS::Slave {
public:
	Slave_i() : stop_(0), tree_(NULL)
	{
	}
	void ping() override
	{
	}
	void stop(const char *reason) override;
	void demand(CORBA::Long from_slave_id) override;
	void transfer(CORBA::Long from_slave_id, CORBA::LongLong start, CORBA::LongLong count,
		      CORBA::LongLong stride) override;
	void neighbours(CORBA::Long left_id, DLS::Slave_ptr left, CORBA::Double left_tau,
			CORBA::Long right_id, DLS::Slave_ptr right, CORBA::Double right_tau) override;
	int stop_requested() const
	{
		return stop_;
	}

	// Tree mode: the core that gets the demands and transfers.
	void set_tree(struct slave_tree *t)
	{
		tree_ = t;
	}
	// The neighbour on one side (nil if none), and setting both.
	DLS::Slave_ptr neighbour(enum tree_side side);
	void set_neighbours(DLS::Slave_ptr left, DLS::Slave_ptr right);

private:
	volatile int stop_; // set by stop(), read by the slave loop
	struct slave_tree *volatile tree_;
	omni_mutex lock_; // guards left_, right_
	DLS::Slave_var left_, right_;
};

#endif
