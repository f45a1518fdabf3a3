// hmaster_servant.hh - HMaster_i, the thin servant of DLS::HMaster: to its
// children it is a Master; every operation is one call into the hmaster core.
#ifndef DLS_HMASTER_SERVANT_HH
#define DLS_HMASTER_SERVANT_HH

#include <omnithread.h>

#include <vector>

#include "dls.hh"
#include "hmaster.h"

class HMaster_i : public POA_DLS::HMaster {
public:
	HMaster_i(struct hmaster *h, DLS::Master_ptr parent, int ping_timeout_ms);

	DLS::Registration *register_slave(const char *name, CORBA::Double speed,
					  DLS::Slave_ptr self) override;
	DLS::Reply request(const DLS::ChunkRequest &req) override;
	void submit(CORBA::Long slave_id, const DLS::ResultSeq &results) override;
	DLS::RunStatus *status() override;
	DLS::GroupRegistration *register_group(const char *hmaster_name, const DLS::StringSeq &names,
					       const DLS::DoubleSeq &speeds,
					       DLS::Slave_ptr self) override;
	DLS::ReplySeq *request_group(const DLS::RequestSeq &requests) override;
	void slave_lost(CORBA::Long slave_id, const char *cause) override;
	DLS::Registration *register_cluster(const char *hmaster_name, const DLS::DoubleSeq &speeds,
					    DLS::Slave_ptr self,
					    DLS::DoubleSeq_out virtual_powers) override;

	// The child (slave or hmaster) that answers for slave id (nil if unknown).
	DLS::Slave_ptr child_ref(int id);

private:
	void remember(int id, DLS::Slave_ptr self);

	struct hmaster *h_;
	DLS::Master_var parent_; // for status()
	int ping_timeout_ms_;
	omni_mutex refs_lock_; // guards refs_
	std::vector<std::pair<int, DLS::Slave_var>> refs_;
};

// The parent's operations for the hmaster core, made on `parent`
// (`parent_register`: the same object with the registration's long
// timeout).  `self` answers the parent's pings for every slave below.
struct hmaster_parent hmaster_parent_ops(const char *name, DLS::Master_ptr parent,
					 DLS::Master_ptr parent_register, DLS::Slave_ptr self);

#endif
