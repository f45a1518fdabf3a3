// hmaster_servant.hh - HMaster_i, the thin servant of DLS::HMaster: to its
// children it is a Master; every operation is one call into the hmaster core.
#ifndef DLS_HMASTER_SERVANT_HH
#define DLS_HMASTER_SERVANT_HH

#include <vector>

#include "dls.hh"
#include "hmaster.h"
#include "run_trust.hh"
#include "slave_refs.hh"
#include "upcall_guard.hh"

// Children's references are kept by the ids they use here: a relay child
// hmaster answers for every slave id below it.
class HMaster_i : public POA_DLS::HMaster, public SlaveRefs {
public:
	// secret: the run's (NULL: an open run); copied.
	HMaster_i(struct hmaster *h, DLS::Master_ptr parent, int ping_timeout_ms,
		  const struct run_secret *secret);

	DLS::Registration *register_slave(CORBA::ULong version, const DLS::Credentials &cred,
					  const char *name, CORBA::Double speed,
					  DLS::Slave_ptr self) override;
	DLS::Reply *request(const DLS::ChunkRequest &req) override;
	void submit(CORBA::Long slave_id, DLS::Capability key, const DLS::ResultSeq &results) override;
	DLS::RunStatus *status() override;
	DLS::OctetSeq *prove_name(const DLS::OctetSeq &nonce, const char *path) override
	{
		return trust_.prove_name(nonce, path);
	}
	DLS::GroupRegistration *register_group(CORBA::ULong version, const DLS::Credentials &cred,
					       const char *hmaster_name,
					       const DLS::StringSeq &names,
					       const DLS::DoubleSeq &speeds,
					       DLS::Slave_ptr self) override;
	DLS::ReplySeq *request_group(const DLS::RequestSeq &requests) override;
	void slave_lost(CORBA::Long slave_id, DLS::Capability key, const char *cause) override;
	DLS::Registration *register_cluster(CORBA::ULong version, const DLS::Credentials &cred,
					    const char *hmaster_name, const DLS::DoubleSeq &speeds,
					    DLS::Slave_ptr self,
					    DLS::DoubleSeq_out virtual_powers) override;
	DLS::Registration *rejoin(CORBA::ULong version, const DLS::Credentials &cred,
				  CORBA::Long slave_id, DLS::Capability key,
				  DLS::Slave_ptr self) override;
	void withdraw(CORBA::ULong version, const DLS::Credentials &cred,
		      const char *name) override;

	// The end of the run: no later operation reaches the core
	// (hmaster_destroy drains those inside).
	void detach_core()
	{
		link_.detach();
	}

private:
	typedef CoreLink<struct hmaster, hmaster_enter, hmaster_leave> Link;

	struct hmaster *h_;
	Link link_; // every operation is inside the core through it (Link::Inside)
	DLS::Master_var parent_; // for status()
	RunTrust trust_;
};

#endif
