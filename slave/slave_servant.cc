// slave_servant.cc - DLS::Slave operations.
#include "slave_servant.hh"

#include "dls/log.h"
#include "orb_util.hh"

void Slave_i::stop(const char *reason)
{
	log_info("asked to stop: %s", reason);
	stop_ = 1;
	if (tree_)
		slave_tree_on_stop(tree_);
}

void Slave_i::demand(CORBA::Long from_slave_id)
{
	if (!tree_) {
		log_warn("demand from slave %d refused: not in tree mode", (int)from_slave_id);
		throw DLS::Refused("this slave does not run Tree Scheduling");
	}
	slave_tree_on_demand(tree_, from_slave_id);
}

void Slave_i::transfer(CORBA::Long from_slave_id, CORBA::LongLong start, CORBA::LongLong count,
		       CORBA::LongLong stride)
{
	if (!tree_) {
		log_warn("transfer of [%lld, +%lld) from slave %d refused: not in tree mode",
			 (long long)start, (long long)count, (int)from_slave_id);
		throw DLS::Refused("this slave does not run Tree Scheduling");
	}
	char why[256] = "";
	int rc = slave_tree_on_transfer(tree_, from_slave_id, start, count, stride, why,
					sizeof(why));

	if (rc)
		dls_refuse(rc, why);
}

void Slave_i::neighbours(CORBA::Long left_id, DLS::Slave_ptr left, CORBA::Double left_tau,
			 CORBA::Long right_id, DLS::Slave_ptr right, CORBA::Double right_tau)
{
	set_neighbours(left, right);
	if (tree_)
		slave_tree_on_neighbours(tree_, left_id, left_tau, right_id, right_tau);
}

DLS::Slave_ptr Slave_i::neighbour(enum tree_side side)
{
	omni_mutex_lock l(lock_);

	return DLS::Slave::_duplicate(side == TREE_LEFT ? left_.in() : right_.in());
}

void Slave_i::set_neighbours(DLS::Slave_ptr left, DLS::Slave_ptr right)
{
	omni_mutex_lock l(lock_);

	left_ = DLS::Slave::_duplicate(left);
	right_ = DLS::Slave::_duplicate(right);
}
