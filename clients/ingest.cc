// ingest.cc - see ingest.h.
#include "ingest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "dls.hh"
#include "dls/err.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "ping_slave.hh"
#include "proto_conv.hh"
#include "run_trust.hh"
#include "work.h"

// A master that only takes octets.
class BareMaster : public POA_DLS::Master {
public:
	DLS::Registration *register_slave(CORBA::ULong, const DLS::Credentials &, const char *,
					  CORBA::Double, DLS::Slave_ptr) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	DLS::Reply *request(const DLS::ChunkRequest &) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	void submit(CORBA::Long, DLS::Capability, const DLS::ResultSeq &) override
	{
	}
	DLS::RunStatus *status() override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	DLS::OctetSeq *prove_name(const DLS::OctetSeq &, const char *) override
	{
		return new DLS::OctetSeq;
	}
	DLS::GroupRegistration *register_group(CORBA::ULong, const DLS::Credentials &, const char *,
					       const DLS::StringSeq &, const DLS::DoubleSeq &,
					       DLS::Slave_ptr) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	DLS::ReplySeq *request_group(const DLS::RequestSeq &) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	void slave_lost(CORBA::Long, DLS::Capability, const char *) override
	{
	}
	DLS::Registration *register_cluster(CORBA::ULong, const DLS::Credentials &, const char *,
					    const DLS::DoubleSeq &, DLS::Slave_ptr,
					    DLS::DoubleSeq_out) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	DLS::Registration *rejoin(CORBA::ULong, const DLS::Credentials &, CORBA::Long,
				  DLS::Capability, DLS::Slave_ptr) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
	void withdraw(CORBA::ULong, const DLS::Credentials &, const char *) override
	{
		throw CORBA::NO_IMPLEMENT();
	}
};

static int failed(const CORBA::Exception &e)
{
	char why[256];

	dls_corba_error(e, why, sizeof(why));
	fprintf(stderr, "dls ingest: %s\n", why);
	return 1;
}

extern "C" int ingest_bare_serve(const char *ior_path)
{
	return dls_serve_until_killed(new BareMaster(), ior_path, "dls ingest");
}

extern "C" int ingest_bare_send(const char *ior, size_t block_bytes, int64_t total_bytes)
{
	try {
		CORBA::Object_var obj = dls_orb()->string_to_object(ior);
		DLS::Master_var m = DLS::Master::_narrow(obj);
		// distinct data, as a slave sends: nothing stays in the cache
		std::vector<CORBA::Octet> buf((size_t)total_bytes, 7);
		DLS::ResultSeq rs;
		int64_t sent = 0;
		double t0, t1;

		rs.length(1);
		rs[0].loop = 0;
		rs[0].start = 0;
		rs[0].count = 1;
		m->submit(0, 0, rs); // connect outside the measurement
		for (size_t i = 0; i < buf.size(); i += 4096)
			buf[i] = (CORBA::Octet)i; // every page touched before
		t0 = dls_now();
		while (sent < total_bytes) {
			size_t n = total_bytes - sent < (int64_t)block_bytes ? (size_t)(total_bytes - sent)
									     : block_bytes;
			rs[0].data.replace((CORBA::ULong)n, (CORBA::ULong)n, buf.data() + sent, 0);
			m->submit(0, 0, rs);
			sent += (int64_t)n;
		}
		t1 = dls_now();
		printf("bytes %lld start %.9f end %.9f\n", (long long)sent, t0, t1);
		return 0;
	} catch (const CORBA::Exception &e) {
		return failed(e);
	}
}

// Joins run's open master as the slave "ingest" (a run with a secret
// refuses it): its registration, or nil with why.  CORBA exceptions pass.
static DLS::Registration *join_master(const char *run, DLS::Master_var &m, char *why, size_t len)
{
	char path[192];
	int err;
	CORBA::Object_var obj =
		dls_name_resolve_wait(dls_name_path(path, run, "master"), 20000, &err, why, len);

	if (CORBA::is_nil(obj))
		return NULL;
	m = DLS::Master::_narrow(obj);
	PingOnlySlave *servant = new PingOnlySlave();
	PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
	DLS::Slave_var self = servant->_this();
	servant->_remove_ref();
	omniORB::setClientCallTimeout(m, 120000);
	DLS::Credentials cred;
	trust_credentials(NULL, cred);
	return m->register_slave(DLS::PROTOCOL_VERSION, cred, "ingest", 1.0, self);
}

// Delivers the whole loop's octets as a slave does: every block but the
// last by submit, the last on request r (its second); prints the octets and
// when they began and ended.  Whether the master then said DONE.
static bool deliver(DLS::Master_ptr m, const DLS::Registration &reg, const struct dls_job &job,
		    const std::vector<CORBA::Octet> &data, DLS::ChunkRequest &r)
{
	size_t rb = job.result_bytes, per = DLS_MAX_RESULT_BYTES / rb ? DLS_MAX_RESULT_BYTES / rb : 1;
	CORBA::Octet *octets = const_cast<CORBA::Octet *>(data.data());
	double t0 = dls_now();
	DLS::ResultSeq rs;
	int64_t at = 0;

	rs.length(1);
	for (; at + (int64_t)per < job.iterations; at += (int64_t)per) {
		rs[0].loop = 0;
		rs[0].start = at;
		rs[0].count = (CORBA::LongLong)per;
		rs[0].data.replace((CORBA::ULong)(per * rb), (CORBA::ULong)(per * rb),
				   octets + (size_t)at * rb, 0);
		m->submit(reg.slave_id, reg.key, rs);
	}
	r.seq = 2;
	r.results.length(1);
	r.results[0].loop = 0;
	r.results[0].start = at;
	r.results[0].count = job.iterations - at;
	r.results[0].data.replace((CORBA::ULong)((job.iterations - at) * rb),
				  (CORBA::ULong)((job.iterations - at) * rb), octets + (size_t)at * rb,
				  0);
	DLS::Reply_var rep = m->request(r);
	double t1 = dls_now();
	printf("bytes %lld start %.9f end %.9f\n", (long long)data.size(), t0, t1);
	return rep->kind == DLS::REPLY_DONE;
}

extern "C" int ingest_master(const char *run)
{
	char why[256];

	try {
		DLS::Master_var m;
		DLS::Registration *joined = join_master(run, m, why, sizeof(why));
		if (!joined) {
			fprintf(stderr, "dls ingest: no master for run '%s': %s\n", run, why);
			return 1;
		}
		DLS::Registration_var reg = joined;
		struct dls_job job;
		struct work wk;
		if (proto_job_in(reg->job, &job, why, sizeof(why)) ||
		    work_open(&wk, job.workload, job.params, (size_t)job.nparams,
			      (enum iter_order_mode)job.order, why, sizeof(why))) {
			fprintf(stderr, "dls ingest: %s\n", why);
			return 1;
		}
		DLS::ChunkRequest r;
		r.slave_id = reg->slave_id;
		r.key = reg->key;
		r.seq = 1;
		r.acp = 1;
		r.second = 0;
		memset(&r.times, 0, sizeof(r.times));
		DLS::Reply_var rep = m->request(r);
		std::vector<CORBA::Octet> data((size_t)job.iterations * job.result_bytes);
		uint64_t cost = 0;
		int rc = 1;
		if (rep->kind != DLS::REPLY_WORK || rep->start != 0 || rep->count != job.iterations)
			fprintf(stderr, "dls ingest: the master must hand out the whole loop at once "
					"(one slave, --scheme gss)\n");
		// a declared loop has no body here: its octets go as zeros (nothing to check)
		else if (!work_is_declared(&wk) && work_compute(&wk, 0, job.iterations, data.data(),
								&cost, why, sizeof(why)))
			fprintf(stderr, "dls ingest: %s\n", why);
		else
			rc = deliver(m, reg.in(), job, data, r) ? 0 : 1;
		work_close(&wk);
		return rc;
	} catch (const CORBA::Exception &e) {
		return failed(e);
	}
}
