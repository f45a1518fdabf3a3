// hmaster_servant.cc - DLS::HMaster operations -> hmaster core (its calls
// to its parent are hmaster_parent.cc's).
#include "hmaster_servant.hh"

#include <stdio.h>
#include <string.h>

#include "dls/err.h"
#include "dls_log.h"
#include "orb_util.hh"
#include "proto_conv.hh"
#include "log_limit.h"

HMaster_i::HMaster_i(struct hmaster *h, DLS::Master_ptr parent, int ping_timeout_ms,
		     const struct run_secret *secret)
	: SlaveRefs(ping_timeout_ms), h_(h), link_(h), parent_(DLS::Master::_duplicate(parent)),
	  trust_(secret)
{
}

DLS::GroupRegistration *HMaster_i::register_group(CORBA::ULong version,
						  const DLS::Credentials &cred,
						  const char *hmaster_name,
						  const DLS::StringSeq &names,
						  const DLS::DoubleSeq &speeds, DLS::Slave_ptr self)
{
	Link::Inside inside(link_);
	size_t n = names.length();
	std::vector<const char *> nm;
	std::vector<double> sp, vp(n);
	std::vector<int> ids(n);
	std::vector<uint64_t> keys(n);
	struct dls_job job;
	char why[HMASTER_WHY_LEN] = "";
	const char *bad;
	int rc;

	proto_require_version(version, "register_group");
	trust_.check_join(cred, "register_group");
	bad = proto_group_in(names, speeds, self, nm, sp);
	if (bad)
		throw DLS::Refused(bad);
	require_reachable(self, "register_group", hmaster_name);
	rc = hmaster_may_register(h_, HMASTER_RELAY, why);
	if (rc)
		dls_refuse(rc, why);
	rc = hmaster_register(h_, dls_ref_fingerprint(self), nm.data(), sp.data(), n, ids.data(),
			      keys.data(), vp.data(), &job, why);
	if (rc)
		dls_refuse(rc, why);
	for (size_t i = 0; i < n; i++)
		remember_relayed(ids[i], self); // the child answers for the slaves below it
	DLS::GroupRegistration *g = proto_group_out(ids, keys, vp, proto_job_out(job));
	trust_.prove(cred, ids.data(), keys.data(), n, g->proof);
	return g;
}

DLS::Registration *HMaster_i::register_slave(CORBA::ULong version, const DLS::Credentials &cred,
					     const char *name, CORBA::Double speed,
					     DLS::Slave_ptr self)
{
	Link::Inside inside(link_);
	DLS::StringSeq names;
	DLS::DoubleSeq speeds;

	proto_require_version(version, "register_slave");
	if (hmaster_mode_of(h_) == HMASTER_TWOLEVEL) {
		DLS::DoubleSeq_var vp;

		speeds.length(1);
		speeds[0] = speed;
		DLS::Registration *r = register_cluster(version, cred, name, speeds, self, vp.out());
		r->virtual_power = vp[0];
		return r;
	}
	names.length(1);
	speeds.length(1);
	names[0] = name;
	speeds[0] = speed;
	// the proof over one (id, key) is the same in both answers
	DLS::GroupRegistration_var g = register_group(version, cred, name, names, speeds, self);
	DLS::Registration *r = new DLS::Registration;
	r->slave_id = g->slave_ids[0];
	r->key = g->keys[0];
	r->virtual_power = g->virtual_powers[0];
	r->job = g->job;
	r->proof = g->proof;
	return r;
}

DLS::Registration *HMaster_i::register_cluster(CORBA::ULong version, const DLS::Credentials &cred,
						const char *hmaster_name,
						const DLS::DoubleSeq &speeds, DLS::Slave_ptr self,
						DLS::DoubleSeq_out virtual_powers)
{
	Link::Inside inside(link_);
	size_t n = speeds.length();
	std::vector<double> sp(n), vp(n);
	struct dls_job job;
	char why[HMASTER_WHY_LEN] = "";
	int id = -1, rc;
	uint64_t key = 0;

	proto_require_version(version, "register_cluster");
	trust_.check_join(cred, "register_cluster");
	rc = hmaster_may_register(h_, HMASTER_TWOLEVEL, why);
	if (rc)
		dls_refuse(rc, why);
	if (CORBA::is_nil(self))
		throw DLS::Refused("register_cluster: self must be a DLS::Slave reference");
	require_reachable(self, "register_cluster", hmaster_name);
	for (size_t i = 0; i < n; i++)
		sp[i] = speeds[(CORBA::ULong)i];
	rc = hmaster_register(h_, dls_ref_fingerprint(self), &hmaster_name, sp.data(), n, &id, &key,
			      vp.data(), &job, why);
	if (rc)
		dls_refuse(rc, why);
	remember_ref(id, self);
	virtual_powers = new DLS::DoubleSeq;
	virtual_powers->length((CORBA::ULong)n);
	DLS::Registration *r = new DLS::Registration;
	r->slave_id = id;
	r->key = key;
	r->virtual_power = 0;
	for (size_t i = 0; i < n; i++) {
		(*virtual_powers)[(CORBA::ULong)i] = vp[i];
		r->virtual_power += vp[i];
	}
	r->job = proto_job_out(job);
	trust_.prove(cred, &id, &key, 1, r->proof);
	return r;
}

DLS::ReplySeq *HMaster_i::request_group(const DLS::RequestSeq &requests)
{
	Link::Inside inside(link_);
	size_t n = requests.length();
	std::vector<proto_request_mem> mem;
	std::vector<struct dls_request> reqs;
	std::vector<struct dls_reply> replies(n);
	char why[256] = "";
	int rc;

	proto_requests_in(requests, mem, reqs);
	rc = hmaster_request(h_, reqs.data(), n, replies.data(), why);
	if (rc)
		dls_refuse(rc, why);
	return proto_replies_out(reqs, replies);
}

DLS::Reply *HMaster_i::request(const DLS::ChunkRequest &req)
{
	DLS::RequestSeq one; // request_group enters the core

	one.length(1);
	one[0] = req;
	DLS::ReplySeq_var r = request_group(one);
	return new DLS::Reply(r[0]);
}

void HMaster_i::submit(CORBA::Long slave_id, DLS::Capability key, const DLS::ResultSeq &results)
{
	Link::Inside inside(link_);
	std::vector<struct dls_result> res;
	char why[HMASTER_WHY_LEN] = "";
	int rc;

	proto_results_in(results, res);
	rc = hmaster_submit(h_, slave_id, key, res.data(), res.size(), why);
	if (rc)
		dls_refuse(rc, why);
}

DLS::RunStatus *HMaster_i::status()
{
	Link::Inside inside(link_);
	struct dls_status s;
	int rc = hmaster_snapshot(h_, &s);

	if (rc == DLS_ENOENT) // relay: the parent's table shows the slaves below
		return parent_->status();
	if (rc)
		throw CORBA::NO_MEMORY();
	DLS::RunStatus *out = proto_status_out(s);
	dls_status_free(&s);
	return out;
}

void HMaster_i::slave_lost(CORBA::Long slave_id, DLS::Capability key, const char *cause)
{
	Link::Inside inside(link_);
	char why[HMASTER_WHY_LEN] = "";
	int rc = hmaster_check_caller(h_, slave_id, key, why);

	if (rc)
		dls_refuse(rc, why);
	if (hmaster_slave_lost(h_, slave_id, cause))
		throw DLS::Refused("slave_lost: the parent refused");
}

// A resumed relay hmaster: a slave (or a child hmaster, once per id it
// holds) comes back with the id and capability the master issued it; the
// master vouches for them.  Any other hmaster refuses.
DLS::Registration *HMaster_i::rejoin(CORBA::ULong version, const DLS::Credentials &cred,
				     CORBA::Long slave_id, DLS::Capability key, DLS::Slave_ptr self)
{
	Link::Inside inside(link_);
	char why[HMASTER_WHY_LEN] = "";
	struct dls_job job;
	double vpower = 0;
	int id = slave_id, rc;
	uint64_t k = key;

	proto_require_version(version, "rejoin");
	trust_.check_join(cred, "rejoin");
	if (CORBA::is_nil(self))
		throw DLS::Refused("rejoin: self must be a DLS::Slave reference");
	rc = hmaster_rejoin(h_, id, k, &vpower, &job, why);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused rejoins");

		log_limited(&lim, id, "refused rejoin(%d): %s", id, why);
		dls_refuse(rc, why);
	}
	remember_ref(id, self);
	return trust_.registration(cred, id, k, vpower, proto_job_out(job));
}

void HMaster_i::withdraw(CORBA::ULong version, const DLS::Credentials &cred, const char *name)
{
	Link::Inside inside(link_);
	char why[HMASTER_WHY_LEN] = "";
	int rc;

	proto_require_version(version, "withdraw");
	trust_.check_join(cred, "withdraw");
	rc = hmaster_withdraw(h_, name, why);
	if (rc)
		dls_refuse(rc, why);
}
