// slave_servant.cc - DLS::PlacedSlave operations (DLS::Slave's and a placed slave's).
#include "slave_servant.hh"

#include <stdio.h>
#include <string.h>

#include <string>

#include "dls_log.h"
#include "assignment_conv.hh"
#include "slave.h"
#include "orb_util.hh"
#include "log_limit.h"

// At most this many demands wait for the peer key (a slave has two neighbours).
#define EARLY_DEMANDS_MAX 16

void Slave_i::require_key(uint64_t key, const char *op)
{
	char why[160];

	if (key_ != 0 && key == key_)
		return;
	static struct log_limit lim = LOG_LIMIT_INIT("refused calls without this slave's capability");

	snprintf(why, sizeof(why), "%s: the caller does not show this slave's capability: refused",
		 op);
	log_limited(&lim, -1, "%s", why);
	throw DLS::Refused(why);
}

void Slave_i::stop_as(int how, const char *reason)
{
	log_info("asked to stop: %s", reason);
	if (!stop_)
		stop_ = how;
	if (placed_)
		slave_placed_on_stop(placed_);
}

void Slave_i::request_stop(const char *reason)
{
	stop_as(SLAVE_STOP_LEAVE, reason);
	if (!placed_ && cut_ok_)
		slave_cut_short(&cut_); /* what is computed goes now, the rest to others */
}

void Slave_i::stop(DLS::Capability key, const char *reason)
{
	{
		omni_mutex_lock l(lock_);

		require_key(key, "stop");
	}
	stop_as(SLAVE_STOP_PARENT, reason);
}

DLS::ChunkProgress Slave_i::progress(DLS::Capability key)
{
	DLS::ChunkProgress out;
	struct dls_progress p;

	{
		omni_mutex_lock l(lock_);

		require_key(key, "progress");
	}
	memset(&p, 0, sizeof(p));
	if (cut_ok_ && !placed_)
		slave_cut_progress(&cut_, &p);
	out.start = p.start;
	out.count = p.count;
	out.done = p.done;
	out.elapsed = p.elapsed;
	out.cuttable = p.cuttable != 0;
	return out;
}

void Slave_i::take_back(DLS::Capability key, CORBA::LongLong start, CORBA::LongLong end)
{
	char why[160] = "";

	{
		omni_mutex_lock l(lock_);

		require_key(key, "take_back");
	}
	if (!cut_ok_ || placed_)
		throw DLS::Refused("take_back: this slave's chunks cannot be cut");
	if (slave_cut_take(&cut_, start, end, why, sizeof(why))) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused take-backs");

		log_limited(&lim, -1, "refused %s", why);
		throw DLS::Refused(why);
	}
}

void Slave_i::demand(CORBA::Long from_slave_id, DLS::Capability key)
{
	static struct log_limit lim = LOG_LIMIT_INIT("refused demands");

	if (!placed_) {
		log_limited(&lim, (int)from_slave_id, "demand from slave %d refused: not in tree mode",
			    (int)from_slave_id);
		throw DLS::Refused("this slave does not run Tree Scheduling");
	}
	{
		omni_mutex_lock l(lock_);

		if (peer_key_ == 0) { // placed, but its own assignment is on its way
			if (early_.size() >= EARLY_DEMANDS_MAX)
				throw DLS::Refused("demand: this slave is not placed yet");
			early_.push_back({(int)from_slave_id, key});
			return;
		}
		if (key != peer_key_) {
			log_limited(&lim, (int)from_slave_id,
				    "demand from slave %d refused: not a neighbour's key",
				    (int)from_slave_id);
			throw DLS::Refused("demand: the caller does not show this slave's peer "
					   "key: only its neighbours may ask it for work");
		}
	}
	slave_placed_on_demand(placed_, from_slave_id);
}

void Slave_i::transfer(CORBA::Long from_slave_id, DLS::Capability key, CORBA::LongLong start,
		       CORBA::LongLong count, CORBA::LongLong stride)
{
	static struct log_limit lim = LOG_LIMIT_INIT("refused transfers");

	if (!placed_) {
		log_limited(&lim, (int)from_slave_id,
			    "transfer of [%lld, +%lld) from slave %d refused: not in tree mode",
			    (long long)start, (long long)count, (int)from_slave_id);
		throw DLS::Refused("this slave does not run Tree Scheduling");
	}
	{
		omni_mutex_lock l(lock_);

		if (from_slave_id < 0) // the coordinator, after a failure
			require_key(key, "transfer");
		else if (peer_key_ == 0) // not placed yet, or between loops: the giver keeps it
			throw DLS::Refused("transfer: this slave is not placed in a loop now");
		else if (key != peer_key_) {
			log_limited(&lim, (int)from_slave_id,
				    "transfer from slave %d refused: not a neighbour's key",
				    (int)from_slave_id);
			throw DLS::Refused("transfer: the caller does not show this slave's peer "
					   "key: only its neighbours (its peers under workpile or "
					   "roc) may hand it work");
		}
	}
	char why[256] = "";
	int rc = slave_placed_on_transfer(placed_, from_slave_id, start, count, stride, why,
					sizeof(why));

	if (rc)
		dls_refuse(rc, why);
}

void Slave_i::balance(CORBA::Long from_slave_id, DLS::Capability key, CORBA::Long kind,
		      CORBA::LongLong a, CORBA::LongLong b, CORBA::LongLong c, CORBA::LongLong d)
{
	struct pile_msg m = {(int)kind, (int)from_slave_id, -1, a, b, c, d};

	if (!placed_)
		throw DLS::Refused("this slave does not run a workpile or roc policy");
	{
		omni_mutex_lock l(lock_);

		if (peer_key_ == 0) { // placed, but its own assignment is on its way
			if (early_balance_.size() >= EARLY_DEMANDS_MAX)
				throw DLS::Refused("balance: this slave is not placed yet");
			early_balance_.push_back({(int)from_slave_id, key, m});
			return;
		}
		if (peer_keys_.empty()) // its peers come before its keys: Tree Scheduling
			throw DLS::Refused("balance: this slave does not run a workpile or roc "
					   "policy");
		if (key != peer_key_ || from_slave_id < 0 ||
		    (size_t)from_slave_id >= peer_keys_.size()) {
			static struct log_limit lim = LOG_LIMIT_INIT("refused balance messages");

			log_limited(&lim, (int)from_slave_id,
				    "balance message from slave %d refused: not a peer's key",
				    (int)from_slave_id);
			throw DLS::Refused("balance: the caller does not show this slave's peer key, "
					   "or is not a slave of the run");
		}
	}
	if (slave_placed_on_balance(placed_, from_slave_id, &m))
		throw DLS::Refused("balance: this slave does not run a workpile or roc policy");
}

void Slave_i::set_npes(int npes)
{
	{
		omni_mutex_lock l(lock_);

		peers_.clear();
		peers_.resize(npes > 0 ? (size_t)npes : 0);
		peer_keys_.assign(peers_.size(), 0);
	}
	flush_early_balance();
}

DLS::PlacedSlave_ptr Slave_i::learn_peer(int id, DLS::PlacedSlave_ptr ref, uint64_t key)
{
	DLS::PlacedSlave_ptr p = DLS::PlacedSlave::_duplicate(ref);

	// a hung peer holds up this slave's balancing for this long at most,
	// then it is taken as dead (slave_pile.c)
	if (!CORBA::is_nil(p))
		omniORB::setClientCallTimeout(p, SLAVE_PEER_TIMEOUT_MS);
	omni_mutex_lock l(lock_);
	if (id < 0 || (size_t)id >= peers_.size()) {
		CORBA::release(p);
		return DLS::PlacedSlave::_nil();
	}
	peers_[id] = p;
	peer_keys_[id] = key;
	return DLS::PlacedSlave::_duplicate(p);
}

void Slave_i::flush_early_balance()
{
	std::vector<early_balance> early;
	uint64_t own;
	size_t n;

	{
		omni_mutex_lock l(lock_);

		if (peer_key_ == 0)
			return;
		early.swap(early_balance_);
		own = peer_key_;
		n = peer_keys_.size();
	}
	for (const early_balance &e : early) {
		if (e.key == own && e.from >= 0 && (size_t)e.from < n && placed_)
			slave_placed_on_balance(placed_, e.from, &e.m);
		else
			log_warn("an early balance message from slave %d did not show the peer key: "
				 "dropped",
				 e.from);
	}
}

DLS::PlacedSlave_ptr Slave_i::peer(int id, uint64_t *key)
{
	omni_mutex_lock l(lock_);

	*key = 0;
	if (id < 0 || (size_t)id >= peers_.size() || CORBA::is_nil(peers_[id].in()))
		return DLS::PlacedSlave::_nil();
	*key = peer_keys_[id];
	return DLS::PlacedSlave::_duplicate(peers_[id].in());
}

void Slave_i::neighbours(DLS::Capability key, CORBA::Long left_id, DLS::PlacedSlave_ptr left,
			 CORBA::Double left_tau, DLS::Capability left_key, CORBA::Long right_id,
			 DLS::PlacedSlave_ptr right, CORBA::Double right_tau, DLS::Capability right_key)
{
	{
		omni_mutex_lock l(lock_);

		require_key(key, "neighbours");
		left_ = DLS::PlacedSlave::_duplicate(left);
		right_ = DLS::PlacedSlave::_duplicate(right);
		left_key_ = left_key;
		right_key_ = right_key;
	}
	if (placed_)
		slave_placed_on_neighbours(placed_, left_id, left_tau, right_id, right_tau);
}

void Slave_i::end_loop(DLS::Capability key, CORBA::ULong loop)
{
	{
		omni_mutex_lock l(lock_);

		require_key(key, "end_loop");
	}
	if (!placed_)
		throw DLS::Refused("end_loop: this slave is not placed by a coordinator");
	slave_placed_end_loop(placed_, loop);
	omni_mutex_lock l(lock_);
	// between loops: the next loop's demands and balance messages wait
	// (early_, early_balance_) until next_loop gives the keys back
	peer_key_ = 0;
}

void Slave_i::next_loop(DLS::Capability key, const DLS::TreeAssignment &next)
{
	struct placement a;
	char why[SLAVE_WHY_LEN] = "";
	int rc;

	{
		omni_mutex_lock l(lock_);

		require_key(key, "next_loop");
	}
	if (!placed_)
		throw DLS::Refused("next_loop: this slave is not placed by a coordinator");
	if (next.reg.key != key || slave_assignment_in(next, &a, why, sizeof(why))) {
		std::string cause = std::string("next_loop: ") +
				    (why[0] ? why : "the assignment is of another slave");

		throw DLS::Refused(cause.c_str());
	}
	{ // its neighbours of the new loop, before it asks them for work
		omni_mutex_lock l(lock_);

		left_ = DLS::PlacedSlave::_duplicate(next.left);
		right_ = DLS::PlacedSlave::_duplicate(next.right);
		left_key_ = next.left_key;
		right_key_ = next.right_key;
	}
	rc = slave_placed_next_loop(placed_, &a, why, sizeof(why));
	if (rc)
		dls_refuse(rc, why);
	set_tree_keys(key, next.peer_key, next.left, next.left_key, next.right, next.right_key);
}

DLS::PlacedSlave_ptr Slave_i::neighbour(enum tree_side side, uint64_t *key)
{
	omni_mutex_lock l(lock_);

	*key = side == TREE_LEFT ? left_key_ : right_key_;
	return DLS::PlacedSlave::_duplicate(side == TREE_LEFT ? left_.in() : right_.in());
}

void Slave_i::set_key(uint64_t key)
{
	omni_mutex_lock l(lock_);

	key_ = key;
}

void Slave_i::set_tree_keys(uint64_t key, uint64_t peer_key, DLS::PlacedSlave_ptr left,
			    uint64_t left_key, DLS::PlacedSlave_ptr right, uint64_t right_key)
{
	std::vector<early_demand> early;

	{
		omni_mutex_lock l(lock_);

		key_ = key;
		peer_key_ = peer_key;
		left_ = DLS::PlacedSlave::_duplicate(left);
		right_ = DLS::PlacedSlave::_duplicate(right);
		left_key_ = left_key;
		right_key_ = right_key;
		early.swap(early_);
	}
	for (const early_demand &d : early) {
		if (d.key == peer_key && placed_)
			slave_placed_on_demand(placed_, d.from);
		else
			log_warn("an early demand from slave %d did not show the peer key: dropped",
				 d.from);
	}
	flush_early_balance();
}
