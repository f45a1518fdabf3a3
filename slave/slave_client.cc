// slave_client.cc - the slave core's remote calls (struct slave_ops) made on
// a DLS::Master reference: C types in, one remote call, codes out.
#include "slave_client.hh"

#include <stdio.h>
#include <string.h>

#include <vector>

#include "assignment_conv.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "slave_orb.h"
#include "orb_util.hh"
#include "proto_conv.hh"
#include "run_trust.hh"
#include "tree_migrate.h"

static void refind_parent(slave_client *c);

// The parent did not prove the run's secret: a stranger may hold its name
// until the real parent takes it over (PROTOCOL.md 14), so the name is
// looked up again and the registration retried (DLS_EREMOTE: the retries
// end it, also for a wrong parent given by IOR alone).  why says so.
static int parent_unproven(slave_client *c, char *why, size_t len)
{
	size_t used = strlen(why);

	refind_parent(c);
	if (used < len)
		snprintf(why + used, len - used, ": looking its name up again");
	return DLS_EREMOTE;
}

static int reg(void *ctx, const char *name, double speed, int *id, double *vpower,
	       struct dls_job *job, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::Credentials cred;

	try {
		trust_credentials(&c->secret, cred);
		DLS::Registration_var r = c->master_register->register_slave(
			DLS::PROTOCOL_VERSION, cred, name, speed, c->self);
		int rid = r->slave_id;
		uint64_t rkey = r->key;

		if (trust_check_parent(&c->secret, cred, &rid, &rkey, 1, r->proof, why, len))
			return parent_unproven(c, why, len);
		*id = r->slave_id;
		*vpower = r->virtual_power;
		c->key = r->key;
		c->servant->set_key(r->key);
		return proto_job_in(r->job, job, why, len);
	} catch (const CORBA::Exception &e) {
		int rc = dls_corba_error(e, why, len);

		if (rc == DLS_EREMOTE)
			refind_parent(c);
		return rc;
	}
}

// The master's reference for one call, held by the caller: a rejoin on
// another sender thread may replace c->master meanwhile.
static DLS::Master_ptr master_ref(slave_client *c)
{
	std::lock_guard<std::mutex> g(c->refs_lock);

	return DLS::Master::_duplicate(c->master);
}

static int request(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		   size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::ChunkRequest r;

	proto_request_out(*req, r);
	r.key = c->key;
	try {
		DLS::Master_var m = master_ref(c);

		DLS::Reply_var rep = m->request(r);

		proto_reply_in(rep.in(), out);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

static int submit(void *ctx, int id, const struct dls_result *res, size_t n, char *why,
		  size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::ResultSeq seq;

	proto_results_out(res, n, seq);
	try {
		DLS::Master_var m = master_ref(c);

		m->submit(id, c->key, seq);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

static int rejoin(void *ctx, int id, char *why, size_t len);

// The master's current reference answers, or one bound under its name does
// (a successor, resumed there; also for a master first reached by IOR).
static int reach(void *ctx, int timeout_ms, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	const struct slave_orb_opts *o = c->opts;
	char path[192];
	DLS::Master_var m = master_ref(c);

	dls_name_path(path, o->run_name, o->master_leaf);
	return dls_reach_parent(m.in(), path, timeout_ms, why, len);
}

static int leave(void *ctx, int id, const char *cause, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		DLS::Master_var m = master_ref(c);

		m->slave_lost(id, c->key, cause);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

static int stop_requested(void *ctx)
{
	return ((slave_client *)ctx)->servant->stop_requested();
}

struct slave_ops slave_client_ops(slave_client *c, void (*registered)(void *, int,
								   const struct dls_job *))
{
	struct slave_ops ops = {};

	ops.ctx = c;
	ops.register_slave = reg;
	ops.request = request;
	ops.submit = submit;
	ops.registered = registered;
	ops.stop_requested = stop_requested;
	ops.rejoin = rejoin;
	ops.cut = c->servant->cut();
	ops.reach = reach;
	ops.leave = leave;
	return ops;
}

// --- Tree Scheduling ----------------------------------------------------------

static int register_tree(void *ctx, const char *name, double speed, struct placement *a,
			 char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	DLS::Credentials cred;

	try {
		trust_credentials(&c->secret, cred);
		DLS::TreeAssignment_var r = c->coordinator_register->register_tree_slave(
			DLS::PROTOCOL_VERSION, cred, name, speed, c->self);
		int rid = r->reg.slave_id;
		uint64_t rkey = r->reg.key;

		if (trust_check_parent(&c->secret, cred, &rid, &rkey, 1, r->reg.proof, why, len))
			return parent_unproven(c, why, len);
		if (slave_assignment_in(r.in(), a, why, len))
			return DLS_EINVAL;
		if (a->piles)
			// before its keys: a balance message that comes once its
			// peer key is known finds the run's size too
			c->servant->set_npes(a->npes);
		c->key = r->reg.key;
		c->servant->set_tree_keys(r->reg.key, r->peer_key, r->left, r->left_key, r->right,
					  r->right_key);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		int rc = dls_corba_error(e, why, len);

		if (rc == DLS_EREMOTE)
			refind_parent(c);
		return rc;
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
		c->coordinator->report(id, c->key, seq, t);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

static int migrated(void *ctx, int from, int to, int64_t start, int64_t count, int64_t stride,
		    char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;

	try {
		c->coordinator->migrated(from, c->key, to, start, count, stride);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

static int demand(void *ctx, enum tree_side side, int from, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	uint64_t key;
	DLS::PlacedSlave_var n = c->servant->neighbour(side, &key);

	if (CORBA::is_nil(n)) {
		snprintf(why, len, "no neighbour on that side");
		return DLS_EINVAL;
	}
	try {
		n->demand(from, key);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

// Hands start, start + stride, ... (count) to slave s, showing its key.
static int transfer_to(DLS::PlacedSlave_ptr s, uint64_t key, int from, int64_t start, int64_t count,
		       int64_t stride, const char *none, char *why, size_t len)
{
	if (CORBA::is_nil(s)) {
		snprintf(why, len, "%s", none);
		return DLS_EINVAL;
	}
	try {
		s->transfer(from, key, start, count, stride);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int transfer(void *ctx, enum tree_side side, int from, int64_t start, int64_t count,
		    int64_t stride, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	uint64_t key;
	DLS::PlacedSlave_var n = c->servant->neighbour(side, &key);

	return transfer_to(n, key, from, start, count, stride, "no neighbour on that side", why,
			   len);
}

// Workpile, roc and ripple: slave `to`'s reference and the key it wants,
// asked of the coordinator the first time (Coordinator::peer) and kept.
// Nil with why and *rc: DLS_EREMOTE when the coordinator says `to` is lost
// (a nil reference: the caller takes it as dead), DLS_EINVAL when it
// cannot say (a refusal, or the coordinator not reached).
static DLS::PlacedSlave_ptr peer_of(slave_client *c, int from, int to, uint64_t *key, int *rc,
			      char *why, size_t len)
{
	DLS::PlacedSlave_ptr s = c->servant->peer(to, key);

	*rc = DLS_OK;
	if (!CORBA::is_nil(s))
		return s;
	try {
		DLS::Capability k = 0;
		DLS::PlacedSlave_var ref = c->coordinator->peer(from, c->key, to, k);

		if (CORBA::is_nil(ref)) {
			snprintf(why, len, "the coordinator has slave %d as lost", to);
			*rc = DLS_EREMOTE;
			return DLS::PlacedSlave::_nil();
		}
		s = c->servant->learn_peer(to, ref, k);
		*key = k;
	} catch (const CORBA::Exception &e) {
		char cause[256];

		dls_corba_error(e, cause, sizeof(cause));
		snprintf(why, len, "cannot ask the coordinator for slave %d: %s", to, cause);
		*rc = DLS_EINVAL; // not the peer's fault: not taken as dead
		return DLS::PlacedSlave::_nil();
	}
	if (CORBA::is_nil(s)) {
		snprintf(why, len, "no slave %d in this run", to);
		*rc = DLS_EINVAL;
	}
	return s;
}

// Workpile, roc and ripple: a call on any slave of the run, with the key it wants.
static int balance(void *ctx, int to, int from, const struct pile_msg *m, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	uint64_t key;
	int rc;
	DLS::PlacedSlave_var s = peer_of(c, from, to, &key, &rc, why, len);

	if (CORBA::is_nil(s))
		return rc;
	try {
		s->balance(from, key, m->kind, m->a, m->b, m->c, m->d);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

static int give(void *ctx, int to, int from, int64_t start, int64_t count, int64_t stride,
		char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	uint64_t key;
	int rc;
	DLS::PlacedSlave_var s = peer_of(c, from, to, &key, &rc, why, len);

	if (CORBA::is_nil(s))
		return rc;
	return transfer_to(s, key, from, start, count, stride, "no such slave in this run", why,
			   len);
}

struct placed_ops slave_client_tree_ops(slave_client *c,
					    void (*registered)(void *, int, const struct dls_job *))
{
	struct placed_ops ops;

	ops.ctx = c;
	ops.register_tree = register_tree;
	ops.report = report;
	ops.migrated = migrated;
	ops.demand = demand;
	ops.transfer = transfer;
	ops.registered = registered;
	ops.rejoin = rejoin;
	ops.balance = balance;
	ops.give = give;
	return ops;
}

// --- connecting and running ---------------------------------------------------

static void registered(void *ctx, int id, const struct dls_job *job)
{
	slave_client *c = (slave_client *)ctx;
	char leaf[32], why[256];

	(void)job;
	snprintf(leaf, sizeof(leaf), "slave.%d", id);
	dls_name_path(c->bound_path, c->run_name, leaf);
	if (dls_name_bind(c->bound_path, c->self, why, sizeof(why))) {
		log_warn("cannot bind '%s': %s", c->bound_path, why);
		c->bound_path[0] = '\0';
	}
}

// Finds the master: by IOR, or by name, retrying until connect_timeout_ms.
static CORBA::Object_ptr find_master(const struct slave_orb_opts *o, char *why, size_t len)
{
	char path[192];
	int err;

	if (o->master_ior) {
		try {
			return dls_orb()->string_to_object(o->master_ior);
		} catch (const CORBA::Exception &e) {
			dls_corba_error(e, why, len);
			return CORBA::Object::_nil();
		}
	}
	dls_name_path(path, o->run_name,
		      o->coordinator_leaf ? o->coordinator_leaf : o->master_leaf);
	return dls_name_resolve_wait(path, o->connect_timeout_ms, &err, why, len);
}


// The parent's references: one for the calls, with the call timeout, and a
// second one to the same object for the long registration call (timeouts
// of their own, nothing process-wide).  No remote call.
static void set_parent_refs(slave_client *c, CORBA::Object_ptr obj)
{
	const struct slave_orb_opts *o = c->opts;

	if (o->coordinator_leaf) {
		c->coordinator = dls_ref_with_timeout<DLS::Coordinator>(obj, o->call_timeout_ms);
		c->coordinator_register =
			dls_ref_with_timeout<DLS::Coordinator>(obj, o->register_timeout_ms);
	} else {
		std::lock_guard<std::mutex> g(c->refs_lock);

		c->master = dls_ref_with_timeout<DLS::Master>(obj, o->call_timeout_ms);
		c->master_register = dls_ref_with_timeout<DLS::Master>(obj, o->register_timeout_ms);
	}
}

// After a registration found the parent unreachable: its name is looked up
// again, so that the next attempt reaches a parent resumed under the same
// name (one killed while its slaves register; they are not yet theirs to
// rejoin).  Nothing when the name is not bound (yet), or there is no
// naming service (a parent given as an IOR alone).  The new parent must
// still prove the run's secret.
static void refind_parent(slave_client *c)
{
	const struct slave_orb_opts *o = c->opts;
	char path[192], why[256];
	int err;

	dls_name_path(path, o->run_name, o->coordinator_leaf ? o->coordinator_leaf : o->master_leaf);
	try {
		CORBA::Object_var obj = dls_name_resolve(path, &err, why, sizeof(why));

		if (!CORBA::is_nil(obj))
			set_parent_refs(c, obj);
	} catch (const CORBA::Exception &) {
	}
}

// Finds the master (or coordinator) again (a new one is bound under the same
// name; the IOR first given, when no name is bound) and joins it with our id
// and capability; it must prove the run's secret.
static int rejoin(void *ctx, int id, char *why, size_t len)
{
	slave_client *c = (slave_client *)ctx;
	const struct slave_orb_opts *o = c->opts;
	CORBA::Object_var obj;
	char path[192];
	int err = DLS_OK;

	try {
		dls_name_path(path, o->run_name,
			      o->coordinator_leaf ? o->coordinator_leaf : o->master_leaf);
		obj = dls_name_resolve(path, &err, why, len);
		if (CORBA::is_nil(obj) && o->master_ior)
			obj = dls_orb()->string_to_object(o->master_ior);
		if (CORBA::is_nil(obj))
			return err;
		set_parent_refs(c, obj);
		DLS::Master_var m = master_ref(c);
		DLS::Registration_var r =
			o->coordinator_leaf
				? trust_rejoin(c->coordinator.in(), &c->secret, id, c->key, c->self,
					       &err, why, len)
				: trust_rejoin(m.in(), &c->secret, id, c->key, c->self, &err, why,
					       len);
		return err;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

int slave_client_connect(slave_client *c, const struct slave_orb_opts *o, char *why, size_t len)
{
	memset(c->bound_path, 0, sizeof(c->bound_path));
	snprintf(c->run_name, sizeof(c->run_name), "%s", o->run_name);
	c->servant = NULL;
	c->key = 0;
	memset(&c->secret, 0, sizeof(c->secret));
	if (o->secret)
		c->secret = *o->secret;
	if (CORBA::is_nil(dls_orb())) {
		snprintf(why, len, "no ORB: start one (dls_orb_start) or lend the program's "
				   "(dls_embed_use_orb)");
		return DLS_ESTATE;
	}
	c->opts = o;
	try {
		CORBA::Object_var obj = find_master(o, why, len);
		if (CORBA::is_nil(obj))
			return DLS_ENOENT;
		set_parent_refs(c, obj);
		c->servant = new Slave_i();
		PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(c->servant);
		c->self = c->servant->_this();
		c->servant->_remove_ref(); // the POA owns it now
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

int slave_client_run(slave_client *c, const struct slave_config *cfg,
		     const struct slave_orb_opts *o, struct dls_slave_stats *st, char *why, size_t len)
{
	int rc;

	if (o->coordinator_leaf) {
		struct slave_placed *t = slave_placed_create();
		struct placed_stats ts = {0, 0, 0, 0};

		if (!t) {
			snprintf(why, len, "out of memory");
			return DLS_ENOMEM;
		}
		c->servant->set_placed(t);
		struct placed_ops tops = slave_client_tree_ops(c, registered);
		rc = slave_placed_run(t, cfg, &tops, st, &ts, why, len);
		log_info("tree mode: %lld iterations moved out in %lld migrations, %lld in",
			 (long long)ts.moved_out, (long long)ts.migrations_out,
			 (long long)ts.moved_in);
		/* t stays with the servant: late demands still land in it until
		 * the servant is deactivated, which frees it */
		return rc;
	}
	struct slave_ops ops = slave_client_ops(c, registered);
	return slave_run(cfg, &ops, st, why, len);
}

void slave_client_unbind(slave_client *c)
{
	if (c->bound_path[0])
		dls_name_unbind(c->bound_path);
	c->bound_path[0] = '\0';
}

void slave_client_deactivate(slave_client *c)
{
	if (!c->servant)
		return;
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->servant_to_id(c->servant);
		dls_root_poa()->deactivate_object(oid);
	} catch (...) {
	}
	c->servant = NULL;
}
