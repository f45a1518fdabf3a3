// orb_util.cc - one ORB per process, the naming service, exception mapping.
#include "orb_util.hh"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include <omniORB4/giopEndpoint.h>
#include <omniORB4/minorCode.h>
#include <omniORB4/omniIOR.h>

#include "dls.hh"
#include "dls/err.h"
#include "dls_log.h"
#include "dls_time.h"
#include "net_addr.h"
#include "run_auth.h"

static CORBA::ORB_var orb_;
static PortableServer::POA_var poa_;
static bool borrowed_; // the host program's ORB: never destroyed here

CORBA::ORB_ptr dls_orb()
{
	return orb_.in();
}

PortableServer::POA_ptr dls_root_poa()
{
	return poa_.in();
}

// omniORB's TLS transport registers itself when its library is loaded.  It
// is loaded only when TLS is asked for (-ORBsslCAFile or a TLS folder), so
// that plain runs neither need a certificate nor print the transport's
// warning about one.
static int load_tls_transport(int argc, char **argv, bool asked)
{
	for (int i = 1; i < argc && !asked; i++)
		asked = !strcmp(argv[i], "-ORBsslCAFile");
	if (!asked)
		return DLS_OK;
	if (!dlopen("libomnisslTP4.so.2", RTLD_NOW | RTLD_GLOBAL)) {
		log_err("TLS was asked for but omniORB's TLS transport cannot be loaded: %s",
			dlerror());
		return DLS_EIO;
	}
	return DLS_OK;
}

// The ORB's options, as ORB_init's options array wants them (name, value).
// Connections with a thread each, and the pool's threads past them.
#define DLS_CONN_THREADS 1024

class OrbOptions {
public:
	void add(const char *name, const std::string &value)
	{
		names_.push_back(name);
		values_.push_back(value);
	}
	// The array, valid until the next add().
	const char *(*array())[2]
	{
		arr_.clear();
		for (size_t i = 0; i < names_.size(); i++)
			arr_.push_back({names_[i], values_[i].c_str()});
		arr_.push_back({nullptr, nullptr});
		return reinterpret_cast<const char *(*)[2]>(arr_.data());
	}

private:
	struct pair {
		const char *name, *value;
	};
	std::vector<const char *> names_;
	std::vector<std::string> values_;
	std::vector<pair> arr_;
};

// Connections: an incoming connection idle for 30 s is closed (omniORB's
// default is 180 s; a client that calls again reconnects at once), so that
// idle connections from strangers do not hold a server's descriptors for
// minutes.  Threads: the first DLS_CONN_THREADS connections get a thread
// each (a blocked call, a registration waiting at the barrier, holds one);
// past that the ORB serves new connections from a pool of as many threads,
// so that thousands of idle connections cost no thread (omniORB's default
// gives each of the first 10,000 a thread).  The command line's -ORB
// options still win.  Then the address and TLS folder of a server placed
// on a network.
static int network_options(OrbOptions &opts, const struct net_listen *listen,
			   const char *tls_dir)
{
	char endpoint[NET_HOST_LEN + 32], password[256], why[4600];

	opts.add("inConScanPeriod", "30");
	opts.add("threadPerConnectionUpperLimit", std::to_string(DLS_CONN_THREADS));
	opts.add("threadPerConnectionLowerLimit", std::to_string(DLS_CONN_THREADS * 7 / 8));
	opts.add("maxServerThreadPoolSize", std::to_string(DLS_CONN_THREADS));
	if (tls_dir) {
		if (net_tls_dir_check(tls_dir, password, sizeof(password), why, sizeof(why))) {
			log_err("--tls-dir '%s': %s", tls_dir, why);
			return DLS_EINVAL;
		}
		opts.add("sslCAFile", std::string(tls_dir) + "/" TLS_CA_FILE);
		opts.add("sslKeyFile", std::string(tls_dir) + "/" TLS_KEY_FILE);
		opts.add("sslKeyPassword", password);
		opts.add("sslVerifyMode", "peer,fail");
		memset(password, 0, sizeof(password));
	}
	if (listen || tls_dir)
		opts.add("endPoint", net_endpoint(listen, tls_dir != nullptr, endpoint,
						  sizeof(endpoint)));
	return DLS_OK;
}

extern "C" int dls_orb_init(int *argc, char **argv, int call_timeout_ms)
{
	return dls_orb_init_net(argc, argv, call_timeout_ms, nullptr, nullptr);
}

extern "C" int dls_orb_init_net(int *argc, char **argv, int call_timeout_ms,
				const struct net_listen *listen, const char *tls_dir)
{
	OrbOptions opts;

	if (network_options(opts, listen, tls_dir) ||
	    load_tls_transport(*argc, argv, tls_dir != nullptr))
		return DLS_EREMOTE;
	try {
		orb_ = CORBA::ORB_init(*argc, argv, "omniORB4", opts.array());
		CORBA::Object_var obj = orb_->resolve_initial_references("RootPOA");
		poa_ = PortableServer::POA::_narrow(obj);
		PortableServer::POAManager_var pm = poa_->the_POAManager();
		pm->activate();
		omniORB::setClientCallTimeout(call_timeout_ms);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		char why[256];
		dls_corba_error(e, why, sizeof(why));
		log_err("cannot start the ORB: %s", why);
		return DLS_EREMOTE;
	}
}

int dls_orb_adopt(CORBA::ORB_ptr orb, PortableServer::POA_ptr poa)
{
	if (CORBA::is_nil(orb) || CORBA::is_nil(poa) || !CORBA::is_nil(orb_))
		return DLS_EINVAL;
	orb_ = CORBA::ORB::_duplicate(orb);
	poa_ = PortableServer::POA::_duplicate(poa);
	borrowed_ = true;
	return DLS_OK;
}

extern "C" void dls_orb_destroy(void)
{
	if (CORBA::is_nil(orb_))
		return;
	try {
		if (!borrowed_)
			orb_->destroy();
	} catch (...) {
	}
	borrowed_ = false;
	poa_ = PortableServer::POA::_nil();
	orb_ = CORBA::ORB::_nil();
}

extern "C" char *dls_name_path(char *buf, const char *run, const char *leaf)
{
	snprintf(buf, 192, "DLS/%s/%s", run, leaf);
	return buf;
}

static std::vector<std::string> split(const char *path)
{
	std::vector<std::string> parts;
	std::string cur;

	for (const char *p = path; *p; p++) {
		if (*p == '/') {
			if (!cur.empty())
				parts.push_back(cur);
			cur.clear();
		} else {
			cur += *p;
		}
	}
	if (!cur.empty())
		parts.push_back(cur);
	return parts;
}

// A component "id.kind" as in CORBA's stringified names: "slave.3" is id
// "slave", kind "3", and lists as slave.3 in nameclt.
static CosNaming::Name to_name(const std::vector<std::string> &parts, size_t n)
{
	CosNaming::Name name;

	name.length((CORBA::ULong)n);
	for (size_t i = 0; i < n; i++) {
		size_t dot = parts[i].find('.');

		name[(CORBA::ULong)i].id = parts[i].substr(0, dot).c_str();
		name[(CORBA::ULong)i].kind =
			dot == std::string::npos ? "" : parts[i].substr(dot + 1).c_str();
	}
	return name;
}

static CosNaming::NamingContext_ptr root_context()
{
	CORBA::Object_var obj = orb_->resolve_initial_references("NameService");
	CosNaming::NamingContext_var ctx = CosNaming::NamingContext::_narrow(obj);

	if (CORBA::is_nil(ctx))
		throw CORBA::OBJECT_NOT_EXIST();
	return ctx._retn();
}

int dls_name_bind(const char *path, CORBA::Object_ptr obj, char *why, size_t len)
{
	std::vector<std::string> parts = split(path);

	try {
		CosNaming::NamingContext_var ctx = root_context();

		for (size_t i = 0; i + 1 < parts.size(); i++) {
			CosNaming::Name name = to_name(parts, i + 1);
			try {
				CosNaming::NamingContext_var c = ctx->bind_new_context(name);
			} catch (const CosNaming::NamingContext::AlreadyBound &) {
			}
		}
		ctx->rebind(to_name(parts, parts.size()), obj);
		return DLS_OK;
	} catch (const CORBA::Exception &e) {
		dls_corba_error(e, why, len);
		return DLS_EREMOTE;
	}
}

int dls_name_unbind(const char *path)
{
	std::vector<std::string> parts = split(path);

	try {
		CosNaming::NamingContext_var ctx = root_context();
		ctx->unbind(to_name(parts, parts.size()));
		return DLS_OK;
	} catch (const CosNaming::NamingContext::NotFound &) {
		return DLS_ENOENT;
	} catch (...) {
		return DLS_EREMOTE;
	}
}

CORBA::Object_ptr dls_name_resolve(const char *path, int *err, char *why, size_t len)
{
	std::vector<std::string> parts = split(path);

	try {
		CosNaming::NamingContext_var ctx = root_context();
		CORBA::Object_var obj = ctx->resolve(to_name(parts, parts.size()));
		*err = DLS_OK;
		return obj._retn();
	} catch (const CosNaming::NamingContext::NotFound &) {
		snprintf(why, len, "'%s' is not bound in the naming service", path);
		*err = DLS_ENOENT;
	} catch (const CORBA::Exception &e) {
		char cause[256];
		int rc = dls_call_error(e, cause, sizeof(cause));

		*err = rc == DLS_ETIMEDOUT || rc == DLS_EINVAL ? rc : DLS_EREMOTE;
		if (*err == DLS_EINVAL)
			snprintf(why, len, "%s", cause);
		else /* the call that failed was the naming service's */
			snprintf(why, len, "the naming service %s: %s",
				 *err == DLS_ETIMEDOUT ? "did not answer in time" : "cannot be reached",
				 cause);
	}
	return CORBA::Object::_nil();
}

CORBA::Object_ptr dls_ref_copy(CORBA::Object_ptr obj)
{
	CORBA::String_var ior = orb_->object_to_string(obj);

	return orb_->string_to_object(ior);
}

CORBA::Object_ptr dls_name_live(const char *path, int timeout_ms)
{
	char why[256];
	int err;

	try {
		CORBA::Object_var obj = dls_name_resolve(path, &err, why, sizeof(why));
		if (CORBA::is_nil(obj))
			return CORBA::Object::_nil();
		CORBA::Object_var probe = dls_ref_with_timeout(obj, timeout_ms);
		if (probe->_non_existent())
			return CORBA::Object::_nil();
		return probe._retn();
	} catch (const CORBA::Exception &) {
		return CORBA::Object::_nil(); // gone, unreachable or silent
	}
}

// A ping that failed with the connection closed under it is asked once more
// on a fresh one: the peer's ORB closes a connection idle for
// inConScanPeriod (30 s), and a ping sent at that moment is lost with
// COMM_FAILURE (WaitingForReply) although the peer is alive.  ping() is
// idempotent, so the second try is safe; a peer that is gone fails it at
// once (connection refused); one that could not be reached or timed out is
// not asked again.
static bool worth_retrying(const CORBA::SystemException &e)
{
	if (CORBA::COMM_FAILURE::_downcast(&e))
		return true;
	return CORBA::TRANSIENT::_downcast(&e) && e.minor() == omni::TRANSIENT_ConnectionClosed;
}

int dls_ping(CORBA::Object_ptr obj, char *why, size_t len)
{
	DLS::Slave_var ref = DLS::Slave::_unchecked_narrow(obj);

	if (CORBA::is_nil(ref)) {
		snprintf(why, len, "no object reference");
		return DLS_EREMOTE;
	}
	for (int attempt = 1;; attempt++) {
		try {
			ref->ping();
			return DLS_OK;
		} catch (const CORBA::SystemException &e) {
			if (attempt == 1 && worth_retrying(e))
				continue;
			dls_corba_error(e, why, len);
			return DLS_EREMOTE;
		} catch (const CORBA::Exception &e) {
			dls_corba_error(e, why, len);
			return DLS_EREMOTE;
		}
	}
}

// Does obj's object exist (asked within timeout_ms)?  DLS_OK, or DLS_ETIMEDOUT
// or DLS_EREMOTE with why.
static int exists(CORBA::Object_ptr obj, int timeout_ms, char *why, size_t len)
{
	try {
		CORBA::Object_var ref = dls_ref_with_timeout(obj, timeout_ms);
		if (!ref->_non_existent())
			return DLS_OK;
		snprintf(why, len, "its object no longer exists");
		return DLS_EREMOTE;
	} catch (const CORBA::Exception &e) {
		return dls_call_error(e, why, len);
	}
}

int dls_reach_parent(CORBA::Object_ptr obj, const char *path, int timeout_ms, char *why,
		     size_t len)
{
	int rc;

	if (CORBA::is_nil(obj)) {
		snprintf(why, len, "no object reference");
		rc = DLS_EREMOTE;
	} else {
		rc = exists(obj, timeout_ms, why, len);
	}
	/* a successor bound under the parent's name that answers */
	if (rc == DLS_EREMOTE && path) {
		CORBA::Object_var successor = dls_name_live(path, timeout_ms);

		if (!CORBA::is_nil(successor))
			return DLS_OK;
	}
	return rc;
}

int dls_ref_addresses(CORBA::Object_ptr obj, char *buf, size_t len)
{
	int n = 0;

	buf[0] = 0;
	if (CORBA::is_nil(obj) || !obj->_PR_getobj())
		return 0;
	try {
		omniIOR_var ior = obj->_PR_getobj()->_getIOR();
		omni::giopAddressList &addrs = ior->getIORInfo()->addresses();
		size_t used = 0;

		for (size_t i = 0; i < addrs.size() && used < len; i++, n++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "",
						 addrs[i]->address());
	} catch (...) {
	}
	return n;
}

uint64_t dls_ref_fingerprint(CORBA::Object_ptr obj)
{
	if (CORBA::is_nil(obj))
		return 0;
	try {
		CORBA::String_var ior = dls_orb()->object_to_string(obj);

		return dls_fingerprint(ior.in());
	} catch (...) {
		return 0;
	}
}

void dls_refuse(int rc, const char *why)
{
	if (rc == DLS_EREMOTE)
		throw CORBA::TRANSIENT();
	if (rc == DLS_ENOMEM)
		throw CORBA::NO_MEMORY();
	throw DLS::Refused(why);
}

int dls_corba_error(const CORBA::Exception &e, char *why, size_t len)
{
	const DLS::Refused *r = DLS::Refused::_downcast(&e);
	const CORBA::SystemException *se = CORBA::SystemException::_downcast(&e);

	if (r) {
		snprintf(why, len, "%s", (const char *)r->reason);
		return DLS_ESTATE;
	}
	if (CORBA::NO_RESOURCES::_downcast(&e) &&
	    se->minor() == (CORBA::ULong)omni::NO_RESOURCES_InitialRefNotFound) {
		snprintf(why, len,
			 "no naming service: the ORB was given none (-ORBInitRef "
			 "NameService=corbaname::HOST:PORT; 'dls names start' starts one and "
			 "prints it)");
		return DLS_EINVAL;
	}
	if (se) {
		snprintf(why, len, "CORBA::%s (minor 0x%lx)", se->_name(),
			 (unsigned long)se->minor());
		if (CORBA::TRANSIENT::_downcast(&e) || CORBA::COMM_FAILURE::_downcast(&e) ||
		    CORBA::TIMEOUT::_downcast(&e) || CORBA::OBJECT_NOT_EXIST::_downcast(&e))
			return DLS_EREMOTE;
		if (CORBA::BAD_PARAM::_downcast(&e))
			return DLS_EINVAL;
		return DLS_EREMOTE;
	}
	snprintf(why, len, "CORBA exception %s", e._name());
	return DLS_EREMOTE;
}

int dls_call_error(const CORBA::Exception &e, char *why, size_t len)
{
	int rc = dls_corba_error(e, why, len);

	return CORBA::TIMEOUT::_downcast(&e) ? DLS_ETIMEDOUT : rc;
}

int dls_write_ior(CORBA::Object_ptr obj, const char *path, const char *prog)
{
	CORBA::String_var ior = dls_orb()->object_to_string(obj);
	std::string tmp = std::string(path) + ".tmp";
	FILE *f = fopen(tmp.c_str(), "w");

	int ok = f && fprintf(f, "%s\n", (const char *)ior) >= 0;

	if (f && fclose(f))
		ok = 0;
	/* whole or not at all: a reader waiting for the file never reads half */
	if (ok && !rename(tmp.c_str(), path))
		return 0;
	remove(tmp.c_str());
	fprintf(stderr, "%s: cannot write the IOR to '%s'\n", prog, path);
	return 1;
}

int dls_serve_until_killed(PortableServer::ServantBase *servant, const char *ior_path,
			   const char *prog)
{
	try {
		PortableServer::ObjectId_var oid = dls_root_poa()->activate_object(servant);
		CORBA::Object_var obj = dls_root_poa()->id_to_reference(oid);

		servant->_remove_ref();
		if (dls_write_ior(obj, ior_path, prog))
			return 1;
		dls_orb()->run();
		return 0;
	} catch (const CORBA::Exception &e) {
		char why[256];

		dls_corba_error(e, why, sizeof(why));
		fprintf(stderr, "%s: %s\n", prog, why);
		return 1;
	}
}

CORBA::Object_ptr dls_name_resolve_wait(const char *path, int timeout_ms, int *err, char *why,
					size_t len)
{
	double deadline = dls_now() + timeout_ms / 1000.0;

	for (;;) {
		CORBA::Object_ptr obj = dls_name_resolve(path, err, why, len);

		if (!CORBA::is_nil(obj) || *err == DLS_EINVAL || dls_now() >= deadline)
			return obj;
		dls_sleep_ms(100);
	}
}
