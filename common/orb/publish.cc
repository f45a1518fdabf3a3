// publish.cc - a servant published under its name, the name claimed from
// squatters and guarded while the role serves (see publish.hh).
#include "publish.hh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dls.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_ticker.h"
#include "dls_time.h"
#include "log_limit.h"
#include "run_loop.h"

/* dls_name_take's question: 1 with why when a servant of the run holds
 * path; 0 when it is free, with squat filled (slen octets) when an object
 * that cannot prove the secret holds it. */
static int name_claim(const char *path, const struct run_secret *secret, int timeout_ms,
		      char *squat, size_t slen, char *why, size_t len)
{
	uint8_t nonce[RUN_AUTH_NONCE_LEN];

	squat[0] = '\0';
	try {
		CORBA::Object_var probe = dls_name_live(path, timeout_ms);
		if (CORBA::is_nil(probe))
			return 0; // the name is free to take
		if (!secret || !secret->set) {
			snprintf(why, len,
				 "'%s' is bound to a servant that answers: a second one would share "
				 "its name (stop that one first, or choose another run or name; in a "
				 "run with a secret, --secret-file, a name held by a stranger is "
				 "taken over)",
				 path);
			return 1;
		}
		if (dls_random_bytes(nonce, sizeof(nonce)))
			abort(); /* no randomness: no proof of anything can be asked */
		DLS::OctetSeq n((CORBA::ULong)sizeof(nonce), (CORBA::ULong)sizeof(nonce), nonce, 0);
		DLS::Master_var holder = DLS::Master::_unchecked_narrow(probe);
		DLS::OctetSeq_var proof;
		try {
			proof = holder->prove_name(n, path);
		} catch (const CORBA::Exception &e) {
			char cause[200];

			dls_corba_error(e, cause, sizeof(cause));
			snprintf(squat, slen, "it answers, but not prove_name: %s", cause);
			return 0;
		}
		if (!run_auth_check_name(secret, nonce, sizeof(nonce), path, proof->get_buffer(),
					 proof->length())) {
			snprintf(squat, slen, "%s",
				 proof->length() ? "its proof does not match the run's secret"
						 : "it proves no secret");
			return 0;
		}
		snprintf(why, len,
			 "'%s' is bound to a servant of this run that answers (it proves the run's "
			 "secret): a second one would share its name (stop that one first)",
			 path);
		return 1;
	} catch (const CORBA::Exception &) {
		return 0; // gone, unreachable or silent: the name is free to take
	}
}

int dls_name_take(const char *path, const struct run_secret *secret, const char *prog)
{
	char why[512] = "", squat[256];

	if (name_claim(path, secret, DLS_NAME_HELD_MS, squat, sizeof(squat), why, sizeof(why))) {
		fprintf(stderr, "%s: cannot take '%s': %s\n", prog, path, why);
		return 1;
	}
	if (squat[0])
		log_warn("'%s' was held by an object that cannot prove the run's secret (%s): "
			 "taking the name over",
			 path, squat);
	return 0;
}

int dls_publish(PortableServer::ServantBase *servant, const char *ior_file, const char *path,
		const struct run_secret *secret, const char *prog)
{
	char why[256] = "";

	if (dls_name_take(path, secret, prog))
		return 1;
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
		CORBA::Object_var obj = dls_root_poa()->id_to_reference(oid);
		int failed = ior_file && dls_write_ior(obj, ior_file, prog);

		if (!failed && dls_name_bind(path, obj, why, sizeof(why))) {
			fprintf(stderr, "%s: cannot bind '%s' in the naming service: %s\n", prog,
				path, why);
			failed = 1;
		}
		if (failed) /* nobody could call it yet: the POA lets go at once */
			dls_root_poa()->deactivate_object(oid);
		return failed;
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "%s: cannot activate the servant: %s\n", prog, why);
		return 1;
	}
}

void dls_unpublish(PortableServer::ServantBase *servant)
{
	double deadline = dls_now() + 10;

	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->servant_to_id(servant);
		dls_root_poa()->deactivate_object(oid);
	} catch (const CORBA::Exception &e) {
		char why[256];

		dls_corba_error(e, why, sizeof(why));
		log_warn("cannot deactivate the servant: %s", why);
	}
	// the creator's reference is the last one once the POA let go
	while (servant->_refcount_value() > 1 && dls_now() < deadline)
		dls_sleep_ms(2);
	if (servant->_refcount_value() > 1)
		log_warn("a call on the servant has not returned after 10 s: the ORB deletes it");
	servant->_remove_ref();
}

struct dls_name_guard {
	char path[192];
	CORBA::Object_var self;
	struct dls_ticker *ticker;
};

// One look: path bound to self, else bound back (said; a stranger who
// rebinds it again and again gets a summary, not a line each time).
static int guard_look(void *arg)
{
	static struct log_limit lim = LOG_LIMIT_INIT("names bound back");
	struct dls_name_guard *g = (struct dls_name_guard *)arg;
	char why[256];
	int err;

	try {
		CORBA::Object_var obj = dls_name_resolve(g->path, &err, why, sizeof(why));
		if (!CORBA::is_nil(obj) && obj->_is_equivalent(g->self))
			return 0;
		if (CORBA::is_nil(obj) && err != DLS_ENOENT)
			return 0; /* the naming service cannot say: nothing to mend */
		if (dls_name_bind(g->path, g->self, why, sizeof(why)))
			log_limited(&lim, -1, "'%s' was %s and cannot be bound back: %s", g->path,
				    CORBA::is_nil(obj) ? "unbound" : "bound to another object",
				    why);
		else
			log_limited(&lim, -1, "'%s' was %s: bound it back", g->path,
				    CORBA::is_nil(obj) ? "unbound" : "bound to another object");
	} catch (const CORBA::Exception &) {
	}
	return 0;
}

struct dls_name_guard *dls_name_guard_start(const char *path, CORBA::Object_ptr self,
					    int period_ms)
{
	struct dls_name_guard *g = new dls_name_guard();

	snprintf(g->path, sizeof(g->path), "%s", path);
	g->self = CORBA::Object::_duplicate(self);
	g->ticker = dls_ticker_start(period_ms, guard_look, g);
	if (!g->ticker) {
		log_warn("'%s': cannot start the thread that keeps the name bound", path);
		delete g;
		return NULL;
	}
	return g;
}

void dls_name_guard_stop(struct dls_name_guard *g)
{
	if (!g)
		return;
	dls_ticker_stop(g->ticker);
	delete g;
}

int dls_serve(PortableServer::ServantBase *servant, const char *ior_file, const char *run,
	      const char *leaf, int nslaves, const struct run_secret *secret,
	      const struct run_loop_ops *ops, int ping_ms, int progress)
{
	struct dls_name_guard *guard = NULL;
	char path[192];
	int status;

	dls_name_path(path, run, leaf);
	if (dls_publish(servant, ior_file, path, secret, ops->prog)) {
		servant->_remove_ref(); /* not active: this deletes it */
		return 1;
	}
	log_info("bound as '%s', waiting for %d slaves", path, nslaves);
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->servant_to_id(servant);
		CORBA::Object_var self = dls_root_poa()->id_to_reference(oid);

		guard = dls_name_guard_start(path, self, DLS_NAME_GUARD_MS);
	} catch (const CORBA::Exception &) {
	}
	status = run_loop(ops, ping_ms, progress);
	dls_name_guard_stop(guard);
	dls_name_unbind(path);
	dls_unpublish(servant);
	return status;
}
