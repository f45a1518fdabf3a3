// slave_client.cc - the slave core's remote calls (struct slave_ops) made on
// a DLS::Master reference: C types in, one remote call, codes out.
#include "slave_client.hh"

#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls/err.h"
#include "orb_util.hh"
#include "proto_conv.hh"
#include "tree_migrate.h"

static int reg(void *ctx, const char *name, double speed, int *id, double *vpower,
	       struct dls_job *job, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		DLS::Registration_var r = c->master_register->register_slave(
			DLS::PROTOCOL_VERSION, name, speed, c->self);
		*id = r->slave_id;
		*vpower = r->virtual_power;
		return proto_job_in(r->job, job, why, len);
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

// --- Tree Scheduling ----------------------------------------------------------

static int register_tree(void *ctx, const char *name, double speed, struct tree_assignment *a,
			 char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	enum tree_gamma g = TREE_GAMMA_HALF;

	try {
		DLS::TreeAssignment_var r =
			c->coordinator_register->register_tree_slave(DLS::PROTOCOL_VERSION, name,
								     speed, c->self);
		memset(a, 0, sizeof(*a));
		a->id = r->reg.slave_id;
		a->vpower = r->reg.virtual_power;
		if (proto_job_in(r->reg.job, &a->job, why, len))
			return DLS_EINVAL;
		a->start = r->start;
		a->count = r->count;
		a->stride = r->stride;
		a->tau = r->tau;
		a->left_id = r->left_id;
		a->right_id = r->right_id;
		a->left_tau = r->left_tau;
		a->right_tau = r->right_tau;
		a->report_interval = r->report_interval;
		if (tree_migrate_gamma_parse(r->gamma, &g)) {
			snprintf(why, len, "unknown gamma '%s'", (const char *)r->gamma);
			return DLS_EINVAL;
		}
		a->gamma = g;
		a->bidirectional = r->bidirectional;
		c->servant->set_neighbours(r->left, r->right);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int report(void *ctx, int id, const struct dls_result *res, size_t n,
		  const struct dls_times *times, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::ResultSeq seq;
	DLS::SlaveTimes t;

	proto_results_out(res, n, seq);
	proto_times_out(*times, t);
	try {
		c->coordinator->report(id, seq, t);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int migrated(void *ctx, int from, int to, int64_t start, int64_t count, int64_t stride,
		    char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		c->coordinator->migrated(from, to, start, count, stride);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int demand(void *ctx, enum tree_side side, int from, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::Slave_var n = c->servant->neighbour(side);

	if (CORBA::is_nil(n)) {
		snprintf(why, len, "no neighbour on that side");
		return DLS_EINVAL;
	}
	try {
		n->demand(from);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int transfer(void *ctx, enum tree_side side, int from, int64_t start, int64_t count,
		    int64_t stride, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::Slave_var n = c->servant->neighbour(side);

	if (CORBA::is_nil(n)) {
		snprintf(why, len, "no neighbour on that side");
		return DLS_EINVAL;
	}
	try {
		n->transfer(from, start, count, stride);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

struct slave_tree_ops slave_client_tree_ops(slave_client *c,
					    void (*registered)(void *, int, const struct dls_job *))
{
	struct slave_tree_ops ops;

	ops.ctx = c;
	ops.register_tree = register_tree;
	ops.report = report;
	ops.migrated = migrated;
	ops.demand = demand;
	ops.transfer = transfer;
	ops.registered = registered;
	return ops;
}
