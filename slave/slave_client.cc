// slave_client.cc - the slave core's remote calls (struct slave_ops) made on
// a DLS::Master reference: C types in, one remote call, codes out.
#include "slave_client.hh"

#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls_err.h"
#include "orb_util.hh"

static void to_seq(const struct dls_result *res, size_t n, DLS::ResultSeq &out)
{
	out.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++) {
		DLS::ResultBlock &b = out[(CORBA::ULong)i];

		b.start = res[i].start;
		b.count = res[i].count;
		// borrow the slave's buffer: no copy of the counts
		b.counts.replace((CORBA::ULong)res[i].ncounts, (CORBA::ULong)res[i].ncounts,
				 (CORBA::UShort *)res[i].counts, 0);
	}
}

static int reg(void *ctx, const char *name, double speed, int *id, double *vpower,
	       struct dls_job *job, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		DLS::Registration_var r = c->master_register->register_slave(name, speed, c->self);
		*id = r->slave_id;
		*vpower = r->virtual_power;
		memset(job, 0, sizeof(*job));
		snprintf(job->run_name, sizeof(job->run_name), "%s", (const char *)r->job.run_name);
		snprintf(job->workload, sizeof(job->workload), "%s", (const char *)r->job.workload);
		job->width = r->job.width;
		job->height = r->job.height;
		job->maxit = r->job.maxit;
		job->iterations = r->job.iterations;
		job->order = r->job.order == DLS::ORDER_INTERLEAVED ? 1 : 0;
		job->collect = r->job.collect == DLS::COLLECT_END ? DLS_COLLECT_END
								  : DLS_COLLECT_PIGGYBACK;
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int request(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		   size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::ChunkRequest r;

	r.slave_id = req->slave_id;
	r.seq = req->seq;
	r.acp = (CORBA::Long)req->acp;
	to_seq(req->results, req->nresults, r.results);
	r.times.t_comp = req->times.t_comp;
	r.times.t_comwait = req->times.t_comwait;
	r.times.emul_error = req->times.emul_error;
	r.times.emul_bias = req->times.emul_bias;
	r.times.late_chunks = (CORBA::Long)req->times.late_chunks;
	try {
		DLS::Reply rep = c->master->request(r);
		out->kind = rep.kind == DLS::REPLY_WORK	  ? DLS_REPLY_WORK
			    : rep.kind == DLS::REPLY_WAIT ? DLS_REPLY_WAIT
							  : DLS_REPLY_DONE;
		out->start = rep.start;
		out->count = rep.count;
		out->wait_ms = rep.wait_ms;
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int submit(void *ctx, int id, const struct dls_result *res, size_t n, char *why,
		  size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::ResultSeq seq;

	to_seq(res, n, seq);
	try {
		c->master->submit(id, seq);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int stop_requested(void *ctx)
{
	return ((slave_client *)ctx)->servant->stop_requested();
}

struct slave_ops slave_client_ops(slave_client *c, void (*registered)(void *, int,
								   const struct dls_job *))
{
	struct slave_ops ops;

	ops.ctx = c;
	ops.register_slave = reg;
	ops.request = request;
	ops.submit = submit;
	ops.registered = registered;
	ops.stop_requested = stop_requested;
	return ops;
}
