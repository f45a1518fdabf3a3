// ping_slave.hh - a DLS::Slave that only answers pings: what a process
// hands out as its `self` when it is not a slave (an hmaster, `dls
// orbping`, the misbehaving test client), so that its parent can watch it.
#ifndef DLS_PING_SLAVE_HH
#define DLS_PING_SLAVE_HH

#include "dls.hh"

class PingOnlySlave : public POA_DLS::Slave {
public:
	void ping() override
	{
	}
	void stop(const char *) override
	{
	}
	void demand(CORBA::Long) override
	{
		throw DLS::Refused("not a slave in tree mode");
	}
	void transfer(CORBA::Long, CORBA::LongLong, CORBA::LongLong, CORBA::LongLong) override
	{
		throw DLS::Refused("not a slave in tree mode");
	}
	void neighbours(CORBA::Long, DLS::Slave_ptr, CORBA::Double, CORBA::Long, DLS::Slave_ptr,
			CORBA::Double) override
	{
	}
};

#endif
