// slave_servant.cc - DLS::Slave operations.
#include "slave_servant.hh"

#include "dls_log.h"

void Slave_i::stop(const char *reason)
{
	log_info("asked to stop: %s", reason);
	stop_ = 1;
}

void Slave_i::demand(CORBA::Long from_slave_id)
{
	log_warn("demand from slave %d refused: not in tree mode", (int)from_slave_id);
	throw DLS::Refused("this slave does not run Tree Scheduling");
}

void Slave_i::transfer(CORBA::Long from_slave_id, CORBA::LongLong start, CORBA::LongLong count)
{
	log_warn("transfer of [%lld, +%lld) from slave %d refused: not in tree mode",
		 (long long)start, (long long)count, (int)from_slave_id);
	throw DLS::Refused("this slave does not run Tree Scheduling");
}
