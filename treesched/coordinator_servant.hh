// coordinator_servant.hh - Coordinator_i, the thin servant of
// DLS::Coordinator (Tree Scheduling's P0) over the coordinator core
// (coordinator.h), and the calls that carry out a repair after a slave is lost.
#ifndef DLS_COORDINATOR_SERVANT_HH
#define DLS_COORDINATOR_SERVANT_HH

#include "dls.hh"
#include "coordinator.h"
#include "run_trust.hh"
#include "slave_refs.hh"
#include "upcall_guard.hh"

class Coordinator_i : public POA_DLS::Coordinator, public SlaveRefs {
public:
	// secret: the run's (NULL: an open run); copied.
	Coordinator_i(struct coordinator *c, const DLS::JobSpec &job, int ping_timeout_ms,
		      const struct run_secret *secret);

	DLS::TreeAssignment *register_tree_slave(CORBA::ULong version, const DLS::Credentials &cred,
						 const char *name, CORBA::Double speed,
						 DLS::PlacedSlave_ptr self) override;
	void report(CORBA::Long slave_id, DLS::Capability key, const DLS::ResultSeq &results,
		    const DLS::SlaveTimes &times) override;
	void migrated(CORBA::Long from_slave_id, DLS::Capability key, CORBA::Long to_slave_id,
		      CORBA::LongLong start, CORBA::LongLong count,
		      CORBA::LongLong stride) override;
	DLS::RunStatus *status() override;
	DLS::OctetSeq *prove_name(const DLS::OctetSeq &nonce, const char *path) override
	{
		return trust_.prove_name(nonce, path);
	}
	DLS::PlacedSlave_ptr peer(CORBA::Long slave_id, DLS::Capability key, CORBA::Long peer_id,
			    DLS::Capability_out peer_key) override;
	DLS::Registration *rejoin(CORBA::ULong version, const DLS::Credentials &cred,
				  CORBA::Long slave_id, DLS::Capability key,
				  DLS::PlacedSlave_ptr self) override;
	void withdraw(CORBA::ULong version, const DLS::Credentials &cred,
		      const char *name) override;

	// Carries out a repair: the lost slave's iterations to their new holder,
	// the new neighbours to the slaves around the gap; then journals that
	// it was carried out.
	void repair(const struct coordinator_repair &rep);

	// After a resume: the repairs the dead coordinator had not carried out.
	void resume();

	// Slave id's reference: the one it registered or rejoined with, else
	// (its registration call has not returned yet, or a resumed
	// coordinator) the contact it registered; nil for none.
	DLS::PlacedSlave_ptr reach(int id);

	// A run of many loops: ends loop `loop` at slave id (it returns once
	// nothing of the loop runs there), then places it for the next one
	// (the core's current loop).  DLS_OK, or the error with why.
	int end_loop(int id, uint32_t loop, char *why, size_t len);
	int next_loop(int id, char *why, size_t len);

	// The liveness ping through reach(): 0 when it answered, else why.
	int ping_slave(int id, char *why, size_t len);

	// The end of the run: no later operation reaches the core
	// (coordinator_close drains those inside).
	void detach_core()
	{
		link_.detach();
	}

private:
	// Slave id's TreeAssignment for place p and job (reg.proof empty).
	DLS::TreeAssignment *assignment(int id, const struct coordinator_place &p,
					const DLS::JobSpec &job);

	typedef CoreLink<struct coordinator, coordinator_enter, coordinator_leave> Link;

	void tell_neighbours(int id);

	struct coordinator *c_;
	Link link_; // every operation is inside the core through it (Link::Inside)
	DLS::JobSpec job_;
	RunTrust trust_;
};

#endif
