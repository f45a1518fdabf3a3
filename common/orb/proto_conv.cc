// proto_conv.cc - IDL <-> C message conversions.
#include "proto_conv.hh"

#include "dls/err.h"
#include "dls_sched.h"
#include "dls/workload.h"
#include "times_bound.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static_assert(DLS_PROTOCOL_VERSION == DLS::PROTOCOL_VERSION,
	      "common/base/dls_proto.h mirrors the IDL's PROTOCOL_VERSION");

// Times only report: a figure a slave sent as NaN or infinity (or out of
// range) is bounded as the cores bound what they keep (times_bound.h).
static void times_in(const DLS::SlaveTimes &in, struct dls_times *out)
{
	out->t_comp = in.t_comp;
	out->t_comwait = in.t_comwait;
	out->emul_error = in.emul_error;
	out->emul_bias = in.emul_bias;
	out->late_chunks = in.late_chunks;
	out->t_collect = in.t_collect;
	times_bound(out);
}

void proto_times_in(const DLS::SlaveTimes &in, struct dls_times *out)
{
	times_in(in, out);
}

static void times_out(const struct dls_times &in, DLS::SlaveTimes &out)
{
	out.t_comp = in.t_comp;
	out.t_comwait = in.t_comwait;
	out.emul_error = in.emul_error;
	out.emul_bias = in.emul_bias;
	out.late_chunks = (CORBA::Long)in.late_chunks;
	out.t_collect = in.t_collect;
}

void proto_times_out(const struct dls_times &in, DLS::SlaveTimes &out)
{
	times_out(in, out);
}

void proto_pile_params_out(const struct pile_params *in, DLS::PileParams &out)
{
	out.threshold = in->threshold;
	out.backoff = in->backoff_s;
	out.backoff_max = in->backoff_max_s;
	out.ht = in->ht;
	out.lt = in->lt;
	out.ct = in->ct;
	out.table_size = in->table_size;
	out.nf_max = in->nf_max;
	out.interval = in->interval_s;
	out.nd = in->nd_s;
	out.topology = ripple_topology_name(in->topology);
	out.step = in->step_s;
	out.pass_min = in->pass_min;
}

void proto_pile_params_in(const DLS::PileParams &in, struct pile_params *out)
{
	pile_params_init(out);
	out->threshold = in.threshold;
	out->backoff_s = in.backoff;
	out->backoff_max_s = in.backoff_max;
	out->ht = in.ht;
	out->lt = in.lt;
	out->ct = in.ct;
	out->table_size = in.table_size;
	out->nf_max = in.nf_max;
	out->interval_s = in.interval;
	out->nd_s = in.nd;
	out->step_s = in.step;
	out->pass_min = in.pass_min;
	if (ripple_topology_parse(in.topology, &out->topology))
		out->topology = (enum ripple_topology)-1; /* refused by pile_params_check */
}

void proto_results_in(const DLS::ResultSeq &in, std::vector<struct dls_result> &res)
{
	res.resize(in.length());
	for (CORBA::ULong i = 0; i < in.length(); i++) {
		res[i].loop = in[i].loop;
		res[i].start = in[i].start;
		res[i].count = in[i].count;
		res[i].data = in[i].data.get_buffer();
		res[i].nbytes = in[i].data.length();
	}
}

void proto_request_in(const DLS::ChunkRequest &in, proto_request_mem &mem,
		      struct dls_request *out)
{
	proto_results_in(in.results, mem.results);
	out->slave_id = in.slave_id;
	out->key = in.key;
	out->seq = in.seq;
	out->acp = in.acp;
	out->second = in.second ? 1 : 0;
	out->results = mem.results.data();
	out->nresults = mem.results.size();
	times_in(in.times, &out->times);
	mem.measured.resize(in.measured.length());
	for (CORBA::ULong i = 0; i < in.measured.length(); i++)
		mem.measured[i] = {in.measured[i].start, in.measured[i].count,
				   in.measured[i].compute, in.measured[i].elapsed};
	out->measured = mem.measured.data();
	out->nmeasured = mem.measured.size();
}

void proto_requests_in(const DLS::RequestSeq &in, std::vector<proto_request_mem> &mem,
		       std::vector<struct dls_request> &reqs)
{
	mem.resize(in.length());
	reqs.resize(in.length());
	for (CORBA::ULong i = 0; i < in.length(); i++)
		proto_request_in(in[i], mem[i], &reqs[i]);
}

void proto_require_version(CORBA::ULong version, const char *op)
{
	char why[256];

	if (version == DLS_PROTOCOL_VERSION)
		return;
	snprintf(why, sizeof(why),
		 "%s: the caller speaks DLS protocol version %lu, this peer speaks version %u; "
		 "run the same DLS release on every host",
		 op, (unsigned long)version, DLS_PROTOCOL_VERSION);
	throw DLS::Refused(why);
}

const char *proto_group_in(const DLS::StringSeq &names, const DLS::DoubleSeq &speeds,
			   DLS::Slave_ptr self, std::vector<const char *> &nm,
			   std::vector<double> &sp)
{
	if (speeds.length() != names.length())
		return "register_group: one speed per name";
	if (CORBA::is_nil(self))
		return "register_group: self must be a DLS::Slave reference";
	nm.resize(names.length());
	sp.resize(names.length());
	for (CORBA::ULong i = 0; i < names.length(); i++) {
		nm[i] = names[i];
		sp[i] = speeds[i];
	}
	return NULL;
}

DLS::GroupRegistration *proto_group_out(const std::vector<int> &ids,
					const std::vector<uint64_t> &keys,
					const std::vector<double> &vpowers,
					const DLS::JobSpec &job)
{
	DLS::GroupRegistration *r = new DLS::GroupRegistration;

	r->slave_ids.length((CORBA::ULong)ids.size());
	r->keys.length((CORBA::ULong)ids.size());
	r->virtual_powers.length((CORBA::ULong)ids.size());
	for (size_t i = 0; i < ids.size(); i++) {
		r->slave_ids[(CORBA::ULong)i] = ids[i];
		r->keys[(CORBA::ULong)i] = keys[i];
		r->virtual_powers[(CORBA::ULong)i] = vpowers[i];
	}
	r->job = job;
	return r;
}

DLS::ReplySeq *proto_replies_out(const std::vector<struct dls_request> &reqs,
				 const std::vector<struct dls_reply> &replies)
{
	DLS::ReplySeq *out = new DLS::ReplySeq;

	out->length((CORBA::ULong)reqs.size());
	for (size_t i = 0; i < reqs.size(); i++)
		(*out)[(CORBA::ULong)i] = proto_reply_out(reqs[i].slave_id, replies[i]);
	return out;
}

static const char *job_in(const DLS::JobSpec &in, struct dls_job *out);

void proto_reply_in(const DLS::Reply &in, struct dls_reply *out)
{
	out->kind = in.kind == DLS::REPLY_WORK	 ? DLS_REPLY_WORK
		    : in.kind == DLS::REPLY_WAIT ? DLS_REPLY_WAIT
						 : DLS_REPLY_DONE;
	out->start = in.start;
	out->count = in.count;
	out->wait_ms = in.wait_ms;
	out->depth = in.depth == 2 ? 2 : 1; /* anything else: one at a time */
	out->has_job = 0;
	if (in.job.length() > 0)
		out->has_job = in.job.length() == 1 && !job_in(in.job[0], &out->job) ? 1 : -1;
}

static const char *job_in(const DLS::JobSpec &in, struct dls_job *out)
{
	memset(out, 0, sizeof(*out));
	out->version = in.version;
	if (in.version != DLS_PROTOCOL_VERSION)
		return "the master speaks another protocol version";
	if (strlen(in.run_name) >= sizeof(out->run_name) ||
	    strlen(in.workload) >= sizeof(out->workload))
		return "the job's run or workload name is too long";
	if (in.params.length() > DLS_MAX_PARAMS)
		return "the job has more than 16 parameters";
	snprintf(out->run_name, sizeof(out->run_name), "%s", (const char *)in.run_name);
	snprintf(out->workload, sizeof(out->workload), "%s", (const char *)in.workload);
	for (CORBA::ULong i = 0; i < in.params.length(); i++) {
		if (dls_params_set(out->params, &out->nparams, in.params[i].name, in.params[i].value))
			return "a job parameter's name or value is too long (31, 63 characters)";
	}
	out->iterations = in.iterations;
	out->result_bytes = in.result_bytes;
	out->order = in.order == DLS::ORDER_INTERLEAVED ? 1 : 0;
	out->collect = in.collect == DLS::COLLECT_END ? DLS_COLLECT_END : DLS_COLLECT_PIGGYBACK;
	enum sched_kind kind = SCHED_DTSS;
	out->scheme.kind = sched_kind_parse(in.scheme.name, &kind) ? -1 : (int)kind;
	out->scheme.profile = in.scheme.profile;
	out->scheme.alpha_num = in.scheme.alpha_num;
	out->scheme.alpha_den = in.scheme.alpha_den;
	out->scheme.fac = in.scheme.fac;
	out->scheme.fac_mu = in.scheme.fac_mu;
	out->scheme.fac_sigma = in.scheme.fac_sigma;
	out->scheme.fiss_sigma = in.scheme.fiss_sigma;
	out->scheme.fiss_x = in.scheme.fiss_x;
	return NULL;
}

int proto_job_in(const DLS::JobSpec &in, struct dls_job *out, char *why, size_t len)
{
	const char *bad = job_in(in, out);

	if (!bad)
		return DLS_OK;
	snprintf(why, len, "the job from the master: %s (its protocol version %lu, ours %u)", bad,
		 (unsigned long)in.version, DLS_PROTOCOL_VERSION);
	return DLS_EINVAL;
}

void proto_results_out(const struct dls_result *res, size_t n, DLS::ResultSeq &out)
{
	out.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++) {
		DLS::ResultBlock &b = out[(CORBA::ULong)i];

		b.loop = res[i].loop;
		b.start = res[i].start;
		b.count = res[i].count;
		b.data.replace((CORBA::ULong)res[i].nbytes, (CORBA::ULong)res[i].nbytes,
			       (CORBA::Octet *)res[i].data, 0);
	}
}

void proto_request_out(const struct dls_request &in, DLS::ChunkRequest &out)
{
	out.slave_id = in.slave_id;
	out.key = in.key;
	out.seq = in.seq;
	out.acp = (CORBA::Long)in.acp;
	out.second = in.second ? 1 : 0;
	proto_results_out(in.results, in.nresults, out.results);
	times_out(in.times, out.times);
	out.measured.length((CORBA::ULong)in.nmeasured);
	for (size_t i = 0; i < in.nmeasured; i++) {
		DLS::ChunkTime &t = out.measured[(CORBA::ULong)i];

		t.start = in.measured[i].start;
		t.count = in.measured[i].count;
		t.compute = in.measured[i].compute_s;
		t.elapsed = in.measured[i].elapsed_s;
	}
}

DLS::Reply proto_reply_out(int slave_id, const struct dls_reply &in)
{
	DLS::Reply out;

	out.slave_id = slave_id;
	out.kind = in.kind == DLS_REPLY_WORK   ? DLS::REPLY_WORK
		   : in.kind == DLS_REPLY_WAIT ? DLS::REPLY_WAIT
					       : DLS::REPLY_DONE;
	out.start = in.start;
	out.count = in.count;
	out.wait_ms = in.wait_ms;
	out.depth = in.depth == 2 ? 2 : 1;
	if (in.has_job == 1) {
		out.job.length(1);
		out.job[0] = proto_job_out(in.job);
	}
	return out;
}

DLS::JobSpec proto_job_out(const struct dls_job &in)
{
	DLS::JobSpec job;

	job.version = in.version;
	job.run_name = in.run_name;
	job.workload = in.workload;
	job.params.length((CORBA::ULong)in.nparams);
	for (int i = 0; i < in.nparams; i++) {
		job.params[(CORBA::ULong)i].name = in.params[i].name;
		job.params[(CORBA::ULong)i].value = in.params[i].value;
	}
	job.iterations = in.iterations;
	job.result_bytes = in.result_bytes;
	job.order = in.order ? DLS::ORDER_INTERLEAVED : DLS::ORDER_NATURAL;
	job.collect = in.collect == DLS_COLLECT_END ? DLS::COLLECT_END : DLS::COLLECT_PIGGYBACK;
	job.scheme.name = in.scheme.kind == DLS_SCHEME_DECENTRALIZED
				  ? "trees"
				  : sched_kind_name((enum sched_kind)in.scheme.kind);
	job.scheme.profile = in.scheme.profile;
	job.scheme.alpha_num = in.scheme.alpha_num;
	job.scheme.alpha_den = in.scheme.alpha_den;
	job.scheme.fac = in.scheme.fac;
	job.scheme.fac_mu = in.scheme.fac_mu;
	job.scheme.fac_sigma = in.scheme.fac_sigma;
	job.scheme.fiss_sigma = in.scheme.fiss_sigma;
	job.scheme.fiss_x = in.scheme.fiss_x;
	return job;
}

DLS::RunStatus *proto_status_out(const struct dls_status &s)
{
	DLS::RunStatus *out = new DLS::RunStatus;

	out->scheme = s.scheme;
	out->iterations = s.iterations;
	out->assigned = s.assigned;
	out->delivered = s.delivered;
	out->recomputations = s.recomputations;
	out->elapsed = s.elapsed;
	out->done = s.done ? 1 : 0;
	out->loop = s.loop;
	out->loops = s.loops;
	out->slaves.length((CORBA::ULong)s.nslaves);
	for (int i = 0; i < s.nslaves; i++) {
		const struct dls_slave_status &p = s.slaves[i];
		DLS::SlaveStatus &o = out->slaves[(CORBA::ULong)i];

		o.slave_id = p.id;
		o.name = p.name;
		o.state = dls_slave_state_name(p.state);
		o.virtual_power = p.vpower;
		o.acp = (CORBA::Long)p.acp;
		o.chunks = p.chunks;
		o.iterations = p.iterations;
		o.held = p.held;
		times_out(p.times, o.times);
	}
	return out;
}

int proto_status_in(const DLS::RunStatus &s, struct dls_status *out, char *scheme,
		    size_t scheme_len)
{
	memset(out, 0, sizeof(*out));
	snprintf(scheme, scheme_len, "%s", (const char *)s.scheme);
	out->scheme = scheme;
	out->iterations = s.iterations;
	out->assigned = s.assigned;
	out->delivered = s.delivered;
	out->recomputations = s.recomputations;
	out->elapsed = s.elapsed;
	out->done = s.done;
	out->loop = s.loop;
	out->loops = s.loops;
	out->slaves = (struct dls_slave_status *)calloc(s.slaves.length() + 1,
							  sizeof(*out->slaves));
	if (!out->slaves)
		return DLS_ENOMEM;
	out->nslaves = (int)s.slaves.length();
	for (CORBA::ULong i = 0; i < s.slaves.length(); i++) {
		const DLS::SlaveStatus &p = s.slaves[i];
		struct dls_slave_status *o = &out->slaves[i];

		o->id = p.slave_id;
		snprintf(o->name, sizeof(o->name), "%s", (const char *)p.name);
		o->state = DLS_SLAVE_REGISTERED;
		for (int k = 0; k <= DLS_SLAVE_LOST; k++)
			if (!strcmp(p.state, dls_slave_state_name((enum dls_slave_state)k)))
				o->state = (enum dls_slave_state)k;
		o->vpower = p.virtual_power;
		o->acp = p.acp;
		o->chunks = p.chunks;
		o->iterations = p.iterations;
		o->held = p.held;
		times_in(p.times, &o->times);
	}
	return DLS_OK;
}
