// master_servant.cc - DLS::Master operations -> master core calls.
#include "master_servant.hh"

#include <vector>

#include "dls/err.h"
#include "dls_log.h"
#include "orb_util.hh"
#include "proto_conv.hh"
#include "log_limit.h"

// The take-back's calls (master_callout): call(ref) on the reference child
// id registered with, which times out after the ping timeout; DLS_OK, or
// the failure with why.
template <class Call>
static int on_child(void *ctx, int id, char *why, size_t len, Call call)
{
	DLS::Slave_var ref = static_cast<Master_i *>(ctx)->slave_ref(id);

	if (CORBA::is_nil(ref)) {
		snprintf(why, len, "no reference for slave %d", id);
		return DLS_EREMOTE;
	}
	try {
		call(ref.in());
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int call_progress(void *ctx, int id, uint64_t key, struct dls_progress *out, char *why,
			 size_t len)
{
	return on_child(ctx, id, why, len, [&](DLS::Slave_ptr ref) {
		DLS::ChunkProgress p = ref->progress(key);

		out->start = p.start;
		out->count = p.count;
		out->done = p.done;
		out->elapsed = p.elapsed;
		out->cuttable = p.cuttable;
	});
}

static int call_take_back(void *ctx, int id, uint64_t key, int64_t start, int64_t end, char *why,
			  size_t len)
{
	return on_child(ctx, id, why, len,
			[&](DLS::Slave_ptr ref) { ref->take_back(key, start, end); });
}

Master_i::Master_i(struct master *m, const DLS::JobSpec &job, int ping_timeout_ms,
		   const struct run_secret *secret)
	: SlaveRefs(ping_timeout_ms), m_(m), link_(m), job_(job), trust_(secret)
{
	struct master_callout co = {this, call_progress, call_take_back};

	master_set_callout(m, &co);
}

DLS::Registration *Master_i::register_slave(CORBA::ULong version, const DLS::Credentials &cred,
					    const char *name, CORBA::Double speed,
					    DLS::Slave_ptr self)
{
	Link::Inside inside(link_);
	char why[MASTER_WHY_LEN] = "";
	int id = -1;
	uint64_t key = 0;
	double vpower = 0;
	int rc;

	proto_require_version(version, "register_slave");
	trust_.check_join(cred, "register_slave");
	// the master must be able to ping whoever holds its work
	if (CORBA::is_nil(self))
		throw DLS::Refused("register_slave: self must be a DLS::Slave reference");
	require_reachable(self, "register_slave", name);
	rc = master_register(m_, dls_ref_fingerprint(self), name, speed, &id, &key, &vpower, why);

	if (rc)
		dls_refuse(rc, why);
	remember_ref(id, self);
	return trust_.registration(cred, id, key, vpower, job_);
}

DLS::Registration *Master_i::register_cluster(CORBA::ULong version, const DLS::Credentials &cred,
					       const char *hmaster_name,
					       const DLS::DoubleSeq &speeds, DLS::Slave_ptr self,
					       DLS::DoubleSeq_out virtual_powers)
{
	Link::Inside inside(link_);
	std::vector<double> sp(speeds.length()), vp(speeds.length());
	char why[MASTER_WHY_LEN] = "";
	int id = -1, rc;
	uint64_t key = 0;

	proto_require_version(version, "register_cluster");
	trust_.check_join(cred, "register_cluster");
	if (CORBA::is_nil(self))
		throw DLS::Refused("register_cluster: self must be a DLS::Slave reference");
	require_reachable(self, "register_cluster", hmaster_name);
	for (CORBA::ULong i = 0; i < speeds.length(); i++)
		sp[i] = speeds[i];
	rc = master_register_cluster(m_, dls_ref_fingerprint(self), hmaster_name, sp.data(),
				     sp.size(), &id, &key, vp.data(), why);
	if (rc)
		dls_refuse(rc, why);
	remember_ref(id, self);
	virtual_powers = new DLS::DoubleSeq;
	virtual_powers->length(speeds.length());
	for (CORBA::ULong i = 0; i < speeds.length(); i++)
		(*virtual_powers)[i] = vp[i];
	DLS::Registration *r = new DLS::Registration;
	r->slave_id = id;
	r->key = key;
	r->virtual_power = 0;
	for (double v : vp)
		r->virtual_power += v;
	r->job = job_;
	trust_.prove(cred, &id, &key, 1, r->proof);
	return r;
}

DLS::Reply *Master_i::request(const DLS::ChunkRequest &req)
{
	Link::Inside inside(link_);
	proto_request_mem mem;
	struct dls_request r;
	struct dls_reply reply;
	char why[MASTER_WHY_LEN] = "";
	int rc;

	proto_request_in(req, mem, &r);
	rc = master_request(m_, &r, &reply, why);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused requests");

		log_limited(&lim, (int)req.slave_id, "refused a request of slave %d: %s",
			    (int)req.slave_id, why);
		dls_refuse(rc, why);
	}
	return new DLS::Reply(proto_reply_out(req.slave_id, reply));
}

void Master_i::submit(CORBA::Long slave_id, DLS::Capability key, const DLS::ResultSeq &results)
{
	Link::Inside inside(link_);
	std::vector<struct dls_result> res;
	char why[MASTER_WHY_LEN] = "";
	int rc;

	proto_results_in(results, res);
	rc = master_submit(m_, slave_id, key, res.data(), res.size(), why);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused results");

		log_limited(&lim, (int)slave_id, "refused results of slave %d: %s", (int)slave_id,
			    why);
		dls_refuse(rc, why);
	}
}

DLS::RunStatus *Master_i::status()
{
	Link::Inside inside(link_);
	struct dls_status s;

	if (master_snapshot(m_, &s))
		throw CORBA::NO_MEMORY();
	DLS::RunStatus *out = proto_status_out(s);
	dls_status_free(&s);
	return out;
}

DLS::GroupRegistration *Master_i::register_group(CORBA::ULong version,
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
	char why[MASTER_WHY_LEN] = "";
	const char *bad;
	int rc;

	proto_require_version(version, "register_group");
	trust_.check_join(cred, "register_group");
	bad = proto_group_in(names, speeds, self, nm, sp);
	if (bad)
		throw DLS::Refused(bad);
	require_reachable(self, "register_group", hmaster_name);
	rc = master_register_group(m_, dls_ref_fingerprint(self), nm.data(), sp.data(), n,
				   ids.data(), keys.data(), vp.data(), why);
	if (rc)
		dls_refuse(rc, why);
	log_info("hmaster '%s' registered %zu slaves", hmaster_name, n);
	for (size_t i = 0; i < n; i++)
		remember_relayed(ids[i], self); // the hmaster answers for its slaves
	DLS::GroupRegistration *g = proto_group_out(ids, keys, vp, job_);
	trust_.prove(cred, ids.data(), keys.data(), n, g->proof);
	return g;
}

DLS::ReplySeq *Master_i::request_group(const DLS::RequestSeq &requests)
{
	Link::Inside inside(link_);
	size_t n = requests.length();
	std::vector<proto_request_mem> mem;
	std::vector<struct dls_request> reqs;
	std::vector<struct dls_reply> replies(n);
	char why[256] = "";
	int rc;

	proto_requests_in(requests, mem, reqs);
	rc = master_request_group(m_, reqs.data(), n, replies.data(), why);
	if (rc)
		dls_refuse(rc, why);
	return proto_replies_out(reqs, replies);
}

void Master_i::slave_lost(CORBA::Long slave_id, DLS::Capability key, const char *cause)
{
	Link::Inside inside(link_);
	char why[MASTER_WHY_LEN] = "";
	int rc = master_check_caller(m_, slave_id, key, why);

	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused slave_lost calls");

		log_limited(&lim, (int)slave_id, "refused slave_lost(%d): %s", (int)slave_id, why);
		dls_refuse(rc, why);
	}
	rc = master_slave_lost(m_, slave_id, cause);
	if (rc == DLS_ESTATE)
		throw DLS::Refused("slave_lost: the slave heard DONE and holds nothing: it left");
	if (rc)
		throw DLS::Refused("slave_lost: no such slave, or already lost");
}

DLS::Registration *Master_i::rejoin(CORBA::ULong version, const DLS::Credentials &cred,
				    CORBA::Long slave_id, DLS::Capability key, DLS::Slave_ptr self)
{
	Link::Inside inside(link_);
	char why[MASTER_WHY_LEN] = "";
	double vpower = 0;
	int id = slave_id, rc;
	uint64_t k = key;

	proto_require_version(version, "rejoin");
	trust_.check_join(cred, "rejoin");
	if (CORBA::is_nil(self))
		throw DLS::Refused("rejoin: self must be a DLS::Slave reference");
	// the key first (master_rejoin checks it, and takes back a child
	// declared lost): a stranger's reference must never replace the child's
	rc = master_rejoin(m_, id, k, &vpower, why);
	if (!rc)
		remember_ref(id, self);
	if (rc) {
		static struct log_limit lim = LOG_LIMIT_INIT("refused rejoins");

		log_limited(&lim, id, "refused rejoin(%d): %s", id, why);
		dls_refuse(rc, why);
	}
	return trust_.registration(cred, id, k, vpower, job_);
}

void Master_i::withdraw(CORBA::ULong version, const DLS::Credentials &cred, const char *name)
{
	Link::Inside inside(link_);
	char why[MASTER_WHY_LEN] = "";
	int rc;

	proto_require_version(version, "withdraw");
	trust_.check_join(cred, "withdraw");
	rc = master_withdraw(m_, name, why);
	if (rc)
		dls_refuse(rc, why);
}
