// slave_refs.hh - the object references children registered with, by id:
// the master's, the coordinator's and the hmaster's servants keep them for
// the liveness pings and (Tree Scheduling) the coordinator's own calls.
#ifndef DLS_SLAVE_REFS_HH
#define DLS_SLAVE_REFS_HH

#include <omniORB4/CORBA.h>
#include <omnithread.h>
#include <stdio.h>

#include <vector>

#include "dls.hh"
#include "dls/log.h"
#include "orb_util.hh"

class SlaveRefs {
public:
	explicit SlaveRefs(int ping_timeout_ms)
		: ping_timeout_ms_(ping_timeout_ms)
	{
	}
	virtual ~SlaveRefs()
	{
	}

	// Keeps self for slave id; calls on it time out after the ping timeout.
	// Nothing once forget_refs was called.
	void remember_ref(int id, DLS::Slave_ptr self)
	{
		omni_mutex_lock l(refs_lock_);

		if (closed_)
			return;
		if ((size_t)id >= refs_.size())
			refs_.resize((size_t)id + 1);
		refs_[(size_t)id] = DLS::Slave::_duplicate(self);
		if (!CORBA::is_nil(self))
			omniORB::setClientCallTimeout(self, (CORBA::ULong)ping_timeout_ms_);
	}

	// Pings self before a registration by op of child `name` is accepted:
	// a reference that advertises an address this process cannot reach
	// (a multi-homed host, a wrong --listen) is refused at once with
	// DLS::Refused naming the address and the fix, and logged here,
	// instead of a child declared lost at its first liveness ping.
	void require_reachable(DLS::Slave_ptr self, const char *op, const char *name)
	{
		char why[256], addrs[512], msg[1024];

		omniORB::setClientCallTimeout(self, (CORBA::ULong)ping_timeout_ms_);
		if (dls_ping(self, why, sizeof(why)) == 0)
			return;
		if (!dls_ref_addresses(self, addrs, sizeof(addrs)))
			snprintf(addrs, sizeof(addrs), "(no address)");
		snprintf(msg, sizeof(msg),
			 "%s: '%s' cannot be reached at the address its reference advertises, "
			 "%s: %s; start it with --listen ADDR, an address of its host that this "
			 "one can reach",
			 op, name, addrs, why);
		log_warn("refused %s", msg);
		throw DLS::Refused(msg);
	}

	// The object reference slave id registered with (nil if unknown).
	DLS::Slave_ptr slave_ref(int id)
	{
		omni_mutex_lock l(refs_lock_);

		if (id < 0 || (size_t)id >= refs_.size())
			return DLS::Slave::_nil();
		return DLS::Slave::_duplicate(refs_[(size_t)id]);
	}

	// The liveness ping (liveness.h): 0 when child id answered within the
	// ping timeout, else non-zero with why filled.
	int ping(int id, char *why, size_t len)
	{
		DLS::Slave_var ref = slave_ref(id);

		return dls_ping(ref, why, len);
	}

	// Releases every reference and keeps no more: at the end of the run,
	// while the ORB is whole.  The servant's deletion may fall to the
	// thread of a last upcall, during the ORB's shutdown; it then has no
	// object reference left to release.
	void forget_refs()
	{
		omni_mutex_lock l(refs_lock_);

		refs_.clear();
		closed_ = true;
	}

private:
	int ping_timeout_ms_;
	omni_mutex refs_lock_; // guards refs_ and closed_
	std::vector<DLS::Slave_var> refs_;
	bool closed_ = false;
};

#endif
