// slave_servant.hh - Slave_i, the thin servant of DLS::PlacedSlave (a
// DLS::Slave that a coordinator can also place, so one servant serves every
// kind of run): answers the master's liveness pings, its progress and
// take-back calls, and its parent's stop; in Tree Scheduling it
// passes its neighbours' demands and transfers, and the coordinator's
// changes of neighbours, to the placed core (slave_placed.h), and keeps the
// neighbours' references for the core's own calls; under workpile or roc
// it passes other slaves' balance messages and transfers on, and keeps
// every slave's reference.  Every call but ping
// must show a key (PROTOCOL.md 14): the capability its parent issued
// (stop, neighbours, the coordinator's transfer) or its peer key (a
// neighbour's demand and transfer); anyone else is refused.
#ifndef DLS_SLAVE_SERVANT_HH
#define DLS_SLAVE_SERVANT_HH

#include <omnithread.h>
#include <stdint.h>

#include <vector>

#include "dls.hh"
#include "slave_cut.h"
#include "slave_placed.h"

// Workpile and roc: a call on another slave times out after this long.
#define SLAVE_PEER_TIMEOUT_MS 3000

class Slave_i : public POA_DLS::PlacedSlave {
public:
	Slave_i() : stop_(0), placed_(NULL), key_(0), peer_key_(0), left_key_(0), right_key_(0)
	{
		cut_ok_ = slave_cut_init(&cut_) == 0;
	}
	// The POA deletes it once deactivated and no call is in progress: the
	// tree core it was given goes with it.
	~Slave_i()
	{
		slave_placed_destroy(placed_);
		if (cut_ok_)
			slave_cut_destroy(&cut_);
	}
	// The current chunk as progress() and take_back() see it (NULL: none
	// could be made); the master-slave loop keeps it up to date.
	struct slave_cut *cut()
	{
		return cut_ok_ ? &cut_ : NULL;
	}
	void ping() override
	{
	}
	void stop(DLS::Capability key, const char *reason) override;
	DLS::ChunkProgress progress(DLS::Capability key) override;
	void take_back(DLS::Capability key, CORBA::LongLong start, CORBA::LongLong end) override;
	void demand(CORBA::Long from_slave_id, DLS::Capability key) override;
	void transfer(CORBA::Long from_slave_id, DLS::Capability key, CORBA::LongLong start,
		      CORBA::LongLong count, CORBA::LongLong stride) override;
	void balance(CORBA::Long from_slave_id, DLS::Capability key, CORBA::Long kind,
		     CORBA::LongLong a, CORBA::LongLong b, CORBA::LongLong c,
		     CORBA::LongLong d) override;
	void neighbours(DLS::Capability key, CORBA::Long left_id, DLS::PlacedSlave_ptr left,
			CORBA::Double left_tau, DLS::Capability left_key, CORBA::Long right_id,
			DLS::PlacedSlave_ptr right, CORBA::Double right_tau, DLS::Capability right_key) override;
	void end_loop(DLS::Capability key, CORBA::ULong loop) override;
	void next_loop(DLS::Capability key, const DLS::TreeAssignment &next) override;
	int stop_requested() const
	{
		return stop_;
	}
	// This process ends the slave's run itself (an embedding host): the
	// chunk in progress ends at what is computed, which is delivered, and
	// the slave leaves (SLAVE_STOP_LEAVE).
	void request_stop(const char *reason);

	// A placed slave (Tree Scheduling or a policy): the core that gets the
	// demands, transfers and messages (taken over: freed with the servant).
	void set_placed(struct slave_placed *t)
	{
		placed_ = t;
	}
	// The capability its parent issued: from now on stop() needs it.
	void set_key(uint64_t key);
	// Tree mode, once placed: its capability, its peer key, its neighbours'
	// references and peer keys.  Demands that came before are checked now.
	void set_tree_keys(uint64_t key, uint64_t peer_key, DLS::PlacedSlave_ptr left,
			   uint64_t left_key, DLS::PlacedSlave_ptr right, uint64_t right_key);
	// The neighbour on one side (nil if none) and the key it wants.
	DLS::PlacedSlave_ptr neighbour(enum tree_side side, uint64_t *key);
	// Workpile, roc and ripple, once placed: the run's npes slaves, whose
	// references and keys come as peer() learns them (Coordinator::peer).
	// Balance messages that came before are checked now.
	void set_npes(int npes);
	// Slave id of the run as learnt (nil if not yet, or out of range) and
	// the key it wants.
	DLS::PlacedSlave_ptr peer(int id, uint64_t *key);
	// Keeps what the coordinator said of slave id: its reference (its
	// calls time out after SLAVE_PEER_TIMEOUT_MS) and its key.  Returns
	// the reference kept (the caller releases it), nil for an id out of
	// the run.
	DLS::PlacedSlave_ptr learn_peer(int id, DLS::PlacedSlave_ptr ref, uint64_t key);

private:
	// Records the first stop asked (enum slave_stop) and tells the tree core.
	void stop_as(int how, const char *reason);
	// Throws DLS::Refused unless key is the capability; lock_ is held.
	void require_key(uint64_t key, const char *op);
	// Balance messages that came before its peer key and peers, checked
	// once both are known (without lock_).
	void flush_early_balance();

	volatile int stop_; // set by stop(), read by the slave loop
	struct slave_cut cut_;
	bool cut_ok_;
	struct slave_placed *volatile placed_;
	omni_mutex lock_; // guards the keys and the neighbours
	uint64_t key_, peer_key_, left_key_, right_key_;
	DLS::PlacedSlave_var left_, right_;
	struct early_demand {
		int from;
		uint64_t key;
	};
	std::vector<early_demand> early_; // demands before it knew its peer key
	std::vector<DLS::PlacedSlave_var> peers_; // workpile, roc, ripple: by id, as learnt
	std::vector<uint64_t> peer_keys_;   // 0: not learnt yet
	struct early_balance {
		int from;
		uint64_t key;
		struct pile_msg m;
	};
	std::vector<early_balance> early_balance_; // before it knew its peer key
};

#endif
