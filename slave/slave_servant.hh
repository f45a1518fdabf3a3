// slave_servant.hh - Slave_i, the thin servant of DLS::Slave: answers the
// master's liveness pings and the launcher's stop.  Tree Scheduling's
// demand/transfer are refused until a slave runs in tree mode (issue 6).
#ifndef DLS_SLAVE_SERVANT_HH
#define DLS_SLAVE_SERVANT_HH

#include "dls.hh"

class Slave_i : public POA_DLS::Slave {
public:
	Slave_i() : stop_(0)
	{
	}
	void ping() override
	{
	}
	void stop(const char *reason) override;
	void demand(CORBA::Long from_slave_id) override;
	void transfer(CORBA::Long from_slave_id, CORBA::LongLong start,
		      CORBA::LongLong count) override;
	int stop_requested() const
	{
		return stop_;
	}

private:
	volatile int stop_; // set by stop(), read by the slave loop
};

#endif
