// slave_client.cc - the slave core's remote calls (struct slave_ops) made on
// a DLS::Master reference: C types in, one remote call, codes out.
#include "slave_client.hh"

#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls_err.h"
#include "orb_util.hh"
#include "proto_conv.hh"

static int reg(void *ctx, const char *name, double speed, int *id, double *vpower,
	       struct dls_job *job, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		DLS::Registration_var r = c->master_register->register_slave(name, speed, c->self);
		*id = r->slave_id;
		*vpower = r->virtual_power;
		proto_job_in(r->job, job);
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

	proto_request_out(*req, r);
	try {
		proto_reply_in(c->master->request(r), out);
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

	proto_results_out(res, n, seq);
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
