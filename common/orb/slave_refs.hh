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
#include "dls_log.h"
#include "dls_time.h"
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
	// Nothing once forget_refs was called.  A child once remembered as
	// relayed stays relayed.
	void remember_ref(int id, DLS::Slave_ptr self)
	{
		keep(id, self, false);
	}

	// The same for slave id below a relay hmaster, whose `self` it is: when
	// that stops answering, the relay died, not necessarily the slave, and
	// a resumed relay passes the slave's rejoin up within moments; so its
	// pings may fail for the relay grace (set_relay_grace_ms) before the
	// slave counts as lost (its work is then not computed twice).
	void remember_relayed(int id, DLS::Slave_ptr self)
	{
		keep(id, self, true);
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

	// How long the pings of a relayed slave may fail before it counts as
	// lost (default DLS_RELAY_GRACE_MS; 0: at once).  Before any ping.
	void set_relay_grace_ms(int ms)
	{
		relay_grace_ms_ = ms;
	}

	// The liveness ping (liveness.h): 0 when child id answered within the
	// ping timeout (or is relayed, and its relay has not answered for less
	// than the relay grace), else non-zero with why filled.
	int ping(int id, char *why, size_t len)
	{
		DLS::Slave_var ref = slave_ref(id);
		int rc = dls_ping(ref, why, len);
		omni_mutex_lock l(refs_lock_);

		if ((size_t)id >= state_.size() || !state_[(size_t)id].relayed ||
		    relay_grace_ms_ <= 0)
			return rc;
		double &since = state_[(size_t)id].failing_since;
		double now = dls_now();
		if (!rc) {
			since = 0;
			return 0;
		}
		if (since == 0) {
			since = now;
			log_warn("slave %d's relay hmaster does not answer (%s): the slave counts "
				 "as lost unless it rejoins within %d ms",
				 id, why, relay_grace_ms_);
		}
		return now - since < relay_grace_ms_ / 1000.0 ? 0 : rc;
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
	struct child_state {
		bool relayed = false;	   // its ref is a relay hmaster's
		double failing_since = 0; // when its pings began to fail (relayed)
	};

	void keep(int id, DLS::Slave_ptr self, bool relayed)
	{
		omni_mutex_lock l(refs_lock_);

		if (closed_)
			return;
		if ((size_t)id >= refs_.size()) {
			refs_.resize((size_t)id + 1);
			state_.resize((size_t)id + 1);
		}
		refs_[(size_t)id] = DLS::Slave::_duplicate(self);
		state_[(size_t)id].relayed = state_[(size_t)id].relayed || relayed;
		state_[(size_t)id].failing_since = 0; // a new reference: a fresh start
		if (!CORBA::is_nil(self))
			omniORB::setClientCallTimeout(self, (CORBA::ULong)ping_timeout_ms_);
	}

	int ping_timeout_ms_;
	int relay_grace_ms_ = DLS_RELAY_GRACE_MS;
	omni_mutex refs_lock_; // guards refs_, state_ and closed_
	std::vector<DLS::Slave_var> refs_;
	std::vector<child_state> state_;
	bool closed_ = false;
};

#endif
