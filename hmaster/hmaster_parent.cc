// hmaster_parent.cc - an hmaster's calls to its parent (see
// hmaster_parent.hh): C types in, one remote call (again after rejoining a
// resumed parent), codes out.
#include "hmaster_parent.hh"

#include <omnithread.h>
#include <stdio.h>
#include <string.h>

#include <vector>

#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "orb_util.hh"
#include "patience.h"
#include "proto_conv.hh"
#include "run_trust.hh"

struct parent_ctx {
	omni_mutex lock;		 // guards parent, ids and keys
	DLS::Master_var parent;		 // replaced when the parent is rejoined
	DLS::Master_var parent_register; // registration only: before any rejoin
	DLS::Slave_var self;
	CORBA::String_var name, path;
	int rejoin_ms, patience_ms, register_timeout_ms;
	struct run_secret secret;
	std::vector<int> ids; // what the parent issued: rejoined with
	std::vector<uint64_t> keys;
};

// The parent as it is now (a duplicate).
static DLS::Master_ptr current(parent_ctx *p)
{
	omni_mutex_lock l(p->lock);

	return DLS::Master::_duplicate(p->parent);
}

// Has the parent issued this hmaster anything to rejoin with?
static int may_rejoin(parent_ctx *p)
{
	omni_mutex_lock l(p->lock);

	return p->rejoin_ms > 0 && !p->ids.empty();
}

static void issued(parent_ctx *p, const int *ids, const uint64_t *keys, size_t n)
{
	omni_mutex_lock l(p->lock);

	p->ids.insert(p->ids.end(), ids, ids + n);
	p->keys.insert(p->keys.end(), keys, keys + n);
}

// Finds the parent by name and rejoins it with every id this hmaster was
// issued; the parent must prove the run's secret back.  DLS_OK once at
// least one id rejoined (a lost slave's is refused), else an error.
static int rejoin_parent(parent_ctx *p, char *why, size_t len)
{
	std::vector<int> ids;
	std::vector<uint64_t> keys;
	int err = DLS_OK, joined = 0;

	{
		omni_mutex_lock l(p->lock);
		ids = p->ids;
		keys = p->keys;
	}
	try {
		CORBA::Object_var obj = dls_name_resolve(p->path, &err, why, len);
		if (CORBA::is_nil(obj))
			return err;
		DLS::Master_var parent = DLS::Master::_narrow(obj);
		for (size_t i = 0; i < ids.size(); i++) {
			int rc;

			try {
				DLS::Registration_var r = trust_rejoin(parent.in(), &p->secret, ids[i],
								       keys[i], p->self, &rc, why, len);
				if (rc)
					return rc; // not this run's parent: never used
				joined++;
			} catch (const DLS::Refused &e) {
				log_warn("the parent refused rejoin(%d): %s", ids[i],
					 (const char *)e.reason);
			}
		}
		if (!joined) {
			snprintf(why, len, "the parent refused every rejoin");
			return DLS_ESTATE;
		}
		omni_mutex_lock l(p->lock);
		p->parent = DLS::Master::_duplicate(parent);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		return dls_corba_error(e, why, len);
	}
}

// Makes call(parent); while the parent takes it but does not answer in
// time, makes it again for up to patience_ms; while the parent cannot be
// reached and this hmaster may rejoin it, finds it again, rejoins it and
// makes the call again, for up to rejoin_ms.  The code of the last
// attempt, with why.
template <class Call> static int with_rejoin(parent_ctx *p, Call call, char *why, size_t len)
{
	double t0 = 0, since = 0;
	int delay = 50;

	for (;;) {
		DLS::Master_var parent = current(p);
		double began = dls_now();
		int rc;

		try {
			call(parent.in());
			if (t0 > 0)
				log_warn("rejoined the parent after %.2f s", dls_now() - t0);
			return DLS_OK;
		} catch (const CORBA::Exception &e) {
			rc = dls_call_error(e, why, len);
		}
		if (rc == DLS_ETIMEDOUT) {
			// a timeout that came at once is asked again 0.2 s after its call
			if (patience_wait_out(&since, p->patience_ms, began, 0.2, "the parent", why))
				continue;
			rc = DLS_EREMOTE; // taken as gone: rejoin it, if it may
		}
		if (rc != DLS_EREMOTE || !may_rejoin(p))
			return rc;
		if (t0 == 0) {
			t0 = dls_now();
			log_warn("the parent is gone (%s): trying to rejoin it for up to %d ms", why,
				 p->rejoin_ms);
		}
		if (dls_now() - t0 >= p->rejoin_ms / 1000.0) {
			log_err("could not rejoin the parent in %d ms: %s", p->rejoin_ms, why);
			return rc;
		}
		dls_sleep_ms(delay);
		delay = delay < 250 ? 2 * delay : 500; // a new master binds within ~1 s
		char jwhy[256];
		int jrc = rejoin_parent(p, jwhy, sizeof(jwhy));
		if (jrc != DLS_OK && jrc != DLS_EREMOTE && jrc != DLS_ENOENT &&
		    jrc != DLS_ETIMEDOUT) {
			snprintf(why, len, "cannot rejoin the parent: %s", jwhy);
			return jrc;
		}
	}
}

// Makes the registration call(parent_register), which returns a code;
// while the parent cannot be reached (a master that died before it
// answered, which dls run resumes under the same name; a successor that
// has not bound it yet), finds the parent by name again and registers
// again, for up to rejoin_ms (0: never), as a slave does.  A parent that
// died after its journal recorded the registration and before it answered
// knows this hmaster by the fingerprint of its reference, and answers the
// second registration with the id and capability of the first
// (roster_find_again).
template <class Call> static int registering(parent_ctx *p, Call call, char *why, size_t len)
{
	double t0 = dls_now();
	int delay = 50, tries = 0;

	for (;;) {
		DLS::Master_var parent;
		int rc, err;

		{
			omni_mutex_lock l(p->lock);
			parent = DLS::Master::_duplicate(p->parent_register);
		}
		try {
			rc = call(parent.in());
			if (!rc && tries)
				log_warn("registered with the parent after %d attempts in %.2f s",
					 tries + 1, dls_now() - t0);
			return rc;
		} catch (const CORBA::TIMEOUT &e) {
			return dls_corba_error(e, why, len); // the window passed: not gone
		} catch (const CORBA::Exception &e) {
			rc = dls_corba_error(e, why, len);
		}
		if (rc != DLS_EREMOTE || p->rejoin_ms <= 0)
			return rc;
		if (dls_now() - t0 >= p->rejoin_ms / 1000.0) {
			log_err("could not register with the parent in %d ms: %s", p->rejoin_ms,
				why);
			return rc;
		}
		if (!tries++)
			log_warn("the parent cannot be reached to register (%s): registering again "
				 "for up to %d ms",
				 why, p->rejoin_ms);
		dls_sleep_ms(delay);
		delay = delay < 250 ? 2 * delay : 500; // a new master binds within ~1 s
		char rwhy[256];
		CORBA::Object_var obj = dls_name_resolve(p->path, &err, rwhy, sizeof(rwhy));
		if (CORBA::is_nil(obj))
			continue; // not bound again yet
		DLS::Master_var found = DLS::Master::_unchecked_narrow(obj);
		DLS::Master_var reg =
		    dls_ref_with_timeout<DLS::Master>(obj, p->register_timeout_ms);
		omni_mutex_lock l(p->lock);
		p->parent = DLS::Master::_duplicate(found);
		p->parent_register = DLS::Master::_duplicate(reg);
	}
}

static int p_register_group(void *ctx, const char *const *names, const double *speeds, size_t n,
			    int *ids, uint64_t *keys, double *vpowers, struct dls_job *job,
			    char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::StringSeq nm;
	DLS::DoubleSeq sp;

	nm.length((CORBA::ULong)n);
	sp.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++) {
		nm[(CORBA::ULong)i] = names[i];
		sp[(CORBA::ULong)i] = speeds[i];
	}
	return registering(
	    p,
	    [&](DLS::Master_ptr parent) -> int {
		    // the parent pings `self` for every slave below this hmaster
		    DLS::Credentials cred; // a fresh nonce each time
		    trust_credentials(&p->secret, cred);
		    DLS::GroupRegistration_var r = parent->register_group(
			DLS::PROTOCOL_VERSION, cred, p->name, nm, sp, p->self);
		    if (r->slave_ids.length() != n || r->keys.length() != n ||
			r->virtual_powers.length() != n) {
			    snprintf(why, len, "the parent answered %u ids for %zu slaves",
				     (unsigned)r->slave_ids.length(), n);
			    return DLS_EREMOTE;
		    }
		    for (size_t i = 0; i < n; i++) {
			    ids[i] = r->slave_ids[(CORBA::ULong)i];
			    keys[i] = r->keys[(CORBA::ULong)i];
			    vpowers[i] = r->virtual_powers[(CORBA::ULong)i];
		    }
		    if (trust_check_parent(&p->secret, cred, ids, keys, n, r->proof, why, len))
			    return DLS_EREMOTE; /* a stranger on its name: looked up again */
		    issued(p, ids, keys, n);
		    return proto_job_in(r->job, job, why, len);
	    },
	    why, len);
}

static int p_request_group(void *ctx, const struct dls_request *reqs, size_t n,
			   struct dls_reply *out, char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::RequestSeq rs;

	rs.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++)
		proto_request_out(reqs[i], rs[(CORBA::ULong)i]);
	return with_rejoin(
		p,
		[&](DLS::Master_ptr parent) {
			DLS::ReplySeq_var r = parent->request_group(rs);
			for (size_t i = 0; i < n && i < r->length(); i++)
				proto_reply_in(r[(CORBA::ULong)i], &out[i]);
		},
		why, len);
}

static int p_submit(void *ctx, int slave_id, uint64_t key, const struct dls_result *res, size_t n,
		    char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::ResultSeq rs;

	proto_results_out(res, n, rs);
	return with_rejoin(
		p, [&](DLS::Master_ptr parent) { parent->submit(slave_id, key, rs); }, why, len);
}

static int p_slave_lost(void *ctx, int slave_id, uint64_t key, const char *cause, char *why,
			size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;

	return with_rejoin(
		p, [&](DLS::Master_ptr parent) { parent->slave_lost(slave_id, key, cause); }, why,
		len);
}

static int p_register_cluster(void *ctx, const double *speeds, size_t n, int *id, uint64_t *key,
			      double *vpowers, struct dls_job *job, char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::DoubleSeq sp;

	sp.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++)
		sp[(CORBA::ULong)i] = speeds[i];
	return registering(
	    p,
	    [&](DLS::Master_ptr parent) -> int {
		    // the parent pings `self`: this hmaster answers for its slaves
		    DLS::DoubleSeq_var vp;
		    DLS::Credentials cred; // a fresh nonce each time
		    trust_credentials(&p->secret, cred);
		    DLS::Registration_var r = parent->register_cluster(
			DLS::PROTOCOL_VERSION, cred, p->name, sp, p->self, vp.out());
		    int rid = r->slave_id;
		    uint64_t rkey = r->key;

		    if (trust_check_parent(&p->secret, cred, &rid, &rkey, 1, r->proof, why, len))
			    return DLS_EREMOTE; /* a stranger on its name: looked up again */
		    if (vp->length() != n) {
			    snprintf(why, len, "the parent returned %u powers for %zu slaves",
				     (unsigned)vp->length(), n);
			    return DLS_EREMOTE;
		    }
		    *id = r->slave_id;
		    *key = r->key;
		    issued(p, id, key, 1);
		    for (size_t i = 0; i < n; i++)
			    vpowers[i] = vp[(CORBA::ULong)i];
		    return proto_job_in(r->job, job, why, len);
	    },
	    why, len);
}

static int p_request(void *ctx, const struct dls_request *req, struct dls_reply *out, char *why,
		     size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::ChunkRequest r;

	proto_request_out(*req, r);
	return with_rejoin(
		p,
		[&](DLS::Master_ptr parent) {
			DLS::Reply_var rep = parent->request(r);
			proto_reply_in(rep, out);
		},
		why, len);
}

// A resumed relay hmaster passes a child's rejoin up: the parent checks the
// capability (it issued it), takes the slave back if it was lost, and pings
// it through this hmaster from now on.
static int p_rejoin(void *ctx, int slave_id, uint64_t key, double *vpower, struct dls_job *job,
		    char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	int rc = DLS_OK, called;

	called = with_rejoin(
		p,
		[&](DLS::Master_ptr parent) {
			DLS::Registration_var r = trust_rejoin(parent, &p->secret, slave_id, key,
							       p->self, &rc, why, len);
			if (rc)
				return; // not this run's parent, or an answer for another slave
			rc = proto_job_in(r->job, job, why, len);
			*vpower = r->virtual_power;
		},
		why, len);
	if (called)
		return called;
	if (!rc)
		issued(p, &slave_id, &key, 1);
	return rc;
}

// The parent's current reference answers; or, where this hmaster may rejoin,
// the object bound under the parent's name does (a successor that the
// calls will rejoin).
static int p_reach(void *ctx, int timeout_ms, char *why, size_t len)
{
	parent_ctx *p = (parent_ctx *)ctx;
	DLS::Master_var parent = current(p);

	return dls_reach_parent(parent.in(), may_rejoin(p) ? (const char *)p->path : NULL,
				timeout_ms, why, len);
}

struct hmaster_parent hmaster_parent_ops(const struct hmaster_parent_opts *o,
					 DLS::Master_ptr parent, DLS::Master_ptr parent_register,
					 DLS::Slave_ptr self)
{
	parent_ctx *p = new parent_ctx; // freed by hmaster_parent_free
	struct hmaster_parent ops;

	memset(&p->secret, 0, sizeof(p->secret));
	if (o->secret)
		p->secret = *o->secret;
	p->path = CORBA::string_dup(o->parent_path);
	p->rejoin_ms = o->rejoin_ms;
	p->patience_ms = o->patience_ms;
	p->register_timeout_ms = o->register_timeout_ms;
	p->parent = DLS::Master::_duplicate(parent);
	p->parent_register = DLS::Master::_duplicate(parent_register);
	p->self = DLS::Slave::_duplicate(self);
	p->name = CORBA::string_dup(o->name);
	ops.ctx = p;
	ops.register_group = p_register_group;
	ops.request_group = p_request_group;
	ops.submit = p_submit;
	ops.slave_lost = p_slave_lost;
	ops.register_cluster = p_register_cluster;
	ops.request = p_request;
	ops.rejoin = p_rejoin;
	ops.reach = p_reach;
	return ops;
}

void hmaster_parent_free(struct hmaster_parent *ops)
{
	delete (parent_ctx *)ops->ctx;
	ops->ctx = NULL;
}
