// ping_slave.hh - a DLS::Slave that only answers pings: what a process
// hands out as its `self` when it is not a slave (an hmaster, `dls
// orbping`, the misbehaving test client), so that its parent can watch it.
// stop() changes nothing here, whoever calls it.  It is a plain Slave,
// not a PlacedSlave: no coordinator places it.
#ifndef DLS_PING_SLAVE_HH
#define DLS_PING_SLAVE_HH

#include "dls.hh"

class PingOnlySlave : public POA_DLS::Slave {
public:
	void ping() override
	{
	}
	void stop(DLS::Capability, const char *) override
	{
	}
	// Not a slave: computes no chunk, so none to take back.
	DLS::ChunkProgress progress(DLS::Capability) override
	{
		DLS::ChunkProgress p;

		p.start = p.count = p.done = 0;
		p.elapsed = 0;
		p.cuttable = false;
		return p;
	}
	void take_back(DLS::Capability, CORBA::LongLong, CORBA::LongLong) override
	{
		throw DLS::Refused("take_back: not a slave: it computes no chunk");
	}
};

#endif
