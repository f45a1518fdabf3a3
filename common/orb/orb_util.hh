// orb_util.hh - C++ helpers of the adapters: the process's ORB and root POA,
// the naming service (paths such as "DLS/run1/master"), and the mapping of
// CORBA exceptions to DLS error codes.
#ifndef DLS_ORB_UTIL_HH
#define DLS_ORB_UTIL_HH

#include <omniORB4/CORBA.h>
#include <omniORB4/Naming.hh>
#include <stddef.h>
#include <stdint.h>

#include "orb_util.h"

// Uses a host program's ORB and POA instead of starting one: no ORB_init,
// no process-wide setting; dls_orb_destroy() then only lets go of them.
// DLS_OK, or DLS_EINVAL (nil, or an ORB already in use).
int dls_orb_adopt(CORBA::ORB_ptr orb, PortableServer::POA_ptr poa);

// The ORB and root POA (borrowed; valid between dls_orb_init and destroy).
CORBA::ORB_ptr dls_orb();
PortableServer::POA_ptr dls_root_poa();

// Binds obj at path with rebind, creating the contexts on the way.
// DLS_OK or DLS_EREMOTE (why filled).
int dls_name_bind(const char *path, CORBA::Object_ptr obj, char *why, size_t len);

// Unbinds path; DLS_OK, DLS_ENOENT or DLS_EREMOTE.  Never throws.
int dls_name_unbind(const char *path);

// Resolves path; nil with *err (DLS_ENOENT: not bound, DLS_ETIMEDOUT: the
// naming service took the call but did not answer in time, DLS_EREMOTE: the
// naming service cannot be reached, DLS_EINVAL: the ORB was given none, or
// a bad name) and why filled on failure.
CORBA::Object_ptr dls_name_resolve(const char *path, int *err, char *why, size_t len);
// The same, asking again every 100 ms until path is bound or timeout_ms
// passed (a peer that starts at the same time binds a little later); at
// once on DLS_EINVAL, which asking again cannot mend.
CORBA::Object_ptr dls_name_resolve_wait(const char *path, int timeout_ms, int *err, char *why,
					size_t len);

// A second reference to obj's object, a proxy of its own: a call timeout
// set on it is nobody else's.  No remote call.
CORBA::Object_ptr dls_ref_copy(CORBA::Object_ptr obj);

// A second reference to obj's object, narrowed (unchecked) to the IDL
// interface T, whose calls time out after timeout_ms (0: the process's call
// timeout), leaving obj's and the process's as they are.  No remote call.
// The timeout is set on the narrowed reference: where the ORB did not know
// obj's type (a corbaloc), a narrow makes a new proxy, which would not keep
// one set before it (tests/tools/ping_retry.cc).
template <typename T = CORBA::Object>
typename T::_ptr_type dls_ref_with_timeout(CORBA::Object_ptr obj, int timeout_ms)
{
	CORBA::Object_var copy = dls_ref_copy(obj);
	typename T::_ptr_type ref = T::_unchecked_narrow(copy);

	if (timeout_ms > 0)
		omniORB::setClientCallTimeout(ref, (CORBA::ULong)timeout_ms);
	return ref;
}

// How long a server that wants a name waits for the object bound there to
// answer.
#define DLS_NAME_HELD_MS 2000

// The object bound at path, if it answers within timeout_ms (its reference
// carries that timeout); nil when path is not bound, there is no naming
// service, or the object is gone, unreachable or silent.
CORBA::Object_ptr dls_name_live(const char *path, int timeout_ms);

// Writes obj's IOR to path (through path.tmp, renamed: a reader finds the
// whole IOR or no file): 0, or 1 with the reason on stderr after "prog: ".
int dls_write_ior(CORBA::Object_ptr obj, const char *path, const char *prog);

// Serves one servant until the process is killed, for the measuring tools
// (`dls orbping`, `dls ingest`): activates it in the root POA (the POA then
// owns it), writes its IOR to ior_path and runs the ORB.  The exit status.
int dls_serve_until_killed(PortableServer::ServantBase *servant, const char *ior_path,
			   const char *prog);

// Pings a slave (or an hmaster answering for slaves below it): DLS_OK when it
// answered within its reference's timeout, else DLS_EREMOTE with why filled.
int dls_ping(CORBA::Object_ptr ref, char *why, size_t len);

// Can a child reach its parent?  Asks obj whether its object exists, within
// timeout_ms: DLS_OK when it answers; DLS_ETIMEDOUT when it took the call and
// did not answer in time (parent_watch.h waits that out); else, when path is
// not NULL (a child that may rejoin), the object bound at path now (a
// successor under the parent's name) is asked too, and DLS_OK when it
// answers; else DLS_EREMOTE.  why says what failed.  Never throws.
int dls_reach_parent(CORBA::Object_ptr obj, const char *path, int timeout_ms, char *why,
		     size_t len);

// The addresses obj's reference advertises ("giop:tcp:10.0.0.2:4711, ..."),
// into buf (empty when it has none).  Returns how many.  Never throws.
int dls_ref_addresses(CORBA::Object_ptr obj, char *buf, size_t len);

// A fingerprint of reference obj: dls_fingerprint (run_auth.h) of its
// stringified IOR, never 0 (0: nil, or it could not be had).  A process's
// servant gives the same one on every call it passes itself in, so a parent
// can tell a child's retry from another process of the same name.  Never
// throws.
uint64_t dls_ref_fingerprint(CORBA::Object_ptr obj);

// Classifies a CORBA exception: DLS_EREMOTE for a peer that may come back
// (TRANSIENT, COMM_FAILURE, TIMEOUT, OBJECT_NOT_EXIST), DLS_ESTATE for a
// DLS::Refused, DLS_EINVAL for BAD_PARAM and the like.  why gets the text.
int dls_corba_error(const CORBA::Exception &e, char *why, size_t len);

// The same for a call to a parent, but DLS_ETIMEDOUT for TIMEOUT: the peer
// took the call and did not answer in time (overloaded, stopped, its host
// cut off), which the caller waits out (patience.h) rather than take the
// peer as gone.
int dls_call_error(const CORBA::Exception &e, char *why, size_t len);

// A servant's answer to a core's refusal code: DLS_EREMOTE (a parent that
// could not be reached) as TRANSIENT, so that the caller retries;
// DLS_ENOMEM as NO_MEMORY; anything else as DLS::Refused with the reason.
[[noreturn]] void dls_refuse(int rc, const char *why);

#endif
